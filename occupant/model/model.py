"""The frozen runtime Model: flat arrays in regular numbering, and the maps from names to indices.

A Model is made by ``occupant.modeling.Assembly.compile()``; nothing in it changes afterwards.
Bodies are what the user defined; *links* are the primitive moving frames the joints expand into
(see ``joint_types``). Every link has ``parent[i] < i`` (regular numbering, seed 004).
"""
from collections import namedtuple

import numpy as np

from occupant.model.joint_types import JointType, NEUTRAL_LINK_Q

KinTree = namedtuple("KinTree", [
    "parent",    # (nl,) int, parent link, -1 for the base B0
    "jtype",     # (nl,) int, JointType of the link's motion
    "qidx",      # (nl,) int, first index of the link's coordinates in q
    "vidx",      # (nl,) int, first index of the link's velocities in v
    "nv",        # (nl,) int, number of velocity coordinates of the link
    "R_pj",      # (nl, 3, 3) rotation of the joint frame in the parent link frame
    "p_pj",      # (nl, 3) m, origin of the joint frame in the parent link frame
    "inertia",   # (nl, 6, 6) spatial inertia about the link origin, (angular, linear) order
    "srows",     # (nl, 6) int, spatial row driven by each local dof (-1 unused)
])

DofForces = namedtuple("DofForces", [
    "link",           # (ne,) int, link whose coordinate the element acts on
    "component",      # (ne,) int, 0 for 1-dof links; rotation-vector component of a spherical link
    "stiffness",      # (ne,) N m/rad or N/m, linear stiffness inside the range of motion
    "reference",      # (ne,) rad or m, neutral position of the spring
    "damping",        # (ne,) N m s/rad or N s/m, viscous damping
    "friction",       # (ne,) N m or N, Coulomb friction torque/force
    "friction_speed", # (ne,) rad/s or m/s, speed at which friction reaches its full value
    "lower",          # (ne,) rad or m, lower end of the range of motion (-inf: none)
    "upper",          # (ne,) rad or m, upper end of the range of motion (+inf: none)
    "stop_stiffness", # (ne,) N m/rad^2 or N/m^2, quadratic stiffness beyond the stop
    "stop_damping",   # (ne,) N m s/rad^2, damping beyond the stop, times penetration
    "table_start",    # (ne,) int, first row of the element's stiffness table in tables (-1: none)
    "table_len",      # (ne,) int, rows of that table
    "tables",         # (nt, 2) (deflection, load) rows of all tabulated stiffness curves
])


class ModelError(ValueError):
    """A model that cannot be compiled or used as asked."""


class Model:
    """Frozen runtime model. Arrays are read-only; see the attribute comments for shapes and units."""

    def __init__(self, *, name, body_names, body_parent, body_mass, body_com, body_inertia,
                 body_link, joint_names, joint_kind, joint_body, joint_links, link_body, tree,
                 nq, nv, dof_names, dof_joint, q_neutral, marker_names, marker_body, marker_R,
                 marker_p, geometries, dof_forces, force_names, topology, source=None):
        self.name = name
        self.body_names = tuple(body_names)
        self.body_parent = _ro(body_parent, int)        # (nb,) parent body, -1 for B0
        self.body_mass = _ro(body_mass)                 # (nb,) kg
        self.body_com = _ro(body_com)                   # (nb, 3) m, in the body frame
        self.body_inertia = _ro(body_inertia)           # (nb, 3, 3) kg m^2, about the com
        self.body_link = _ro(body_link, int)            # (nb,) link carrying the body
        self.joint_names = tuple(joint_names)
        self.joint_kind = tuple(joint_kind)             # user kind: revolute, universal, ...
        self.joint_body = _ro(joint_body, int)          # (nj,) body moved by the joint
        self.joint_links = tuple(tuple(l) for l in joint_links)  # links each joint expands into
        self.link_body = _ro(link_body, int)            # (nl,) body of the link, -1 if massless
        self.tree = KinTree(*[_ro(a) if a.dtype.kind == "f" else _ro(a, int) for a in tree])
        self.nq = int(nq)
        self.nv = int(nv)
        self.dof_names = tuple(dof_names)
        self.dof_joint = _ro(dof_joint, int)            # (nv,) joint of each velocity coordinate
        self.q_neutral = _ro(q_neutral)                 # (nq,)
        self.marker_names = tuple(marker_names)
        self.marker_body = _ro(marker_body, int)        # (nm,)
        self.marker_R = _ro(marker_R)                   # (nm, 3, 3) marker axes in the body frame
        self.marker_p = _ro(marker_p)                   # (nm, 3) m, marker origin in the body frame
        self.geometries = tuple(geometries)             # compiled Geometry records
        self.force_names = tuple(force_names)           # name of each dof_forces element
        self.dof_forces = DofForces(*[_ro(a) if a.dtype.kind == "f" else _ro(a, int)
                                      for a in dof_forces])
        self.topology = topology                        # occupant.topology.Topology of the bodies
        self.source = source                            # the editable Assembly it came from
        self.index = {
            "body": {n: i for i, n in enumerate(self.body_names)},
            "joint": {n: i for i, n in enumerate(self.joint_names)},
            "dof": {n: i for i, n in enumerate(self.dof_names)},
            "marker": {n: i for i, n in enumerate(self.marker_names)},
        }

    # sizes ---------------------------------------------------------------------------------
    @property
    def nb(self):
        return len(self.body_names)

    @property
    def nl(self):
        return len(self.tree.parent)

    @property
    def total_mass(self):
        return float(self.body_mass.sum())

    # look-ups ------------------------------------------------------------------------------
    def _lookup(self, kind, name):
        try:
            return self.index[kind][name]
        except KeyError:
            known = ", ".join(self.index[kind]) or "none"
            raise ModelError(f"model '{self.name}': unknown {kind} '{name}' (known: {known})") from None

    def body(self, name):
        """Index of the body called name."""
        return self._lookup("body", name)

    def joint(self, name):
        """Index of the joint called name."""
        return self._lookup("joint", name)

    def dof(self, name):
        """Index in v of the velocity coordinate called name."""
        return self._lookup("dof", name)

    def marker(self, name):
        """Index of the marker called name."""
        return self._lookup("marker", name)

    # configurations ------------------------------------------------------------------------
    def make_data(self):
        """Scratch space for the algorithms (one per thread or process)."""
        from occupant.model.data import Data
        return Data(self)

    def neutral_configuration(self):
        """q with every joint at zero (identity quaternions)."""
        return np.array(self.q_neutral)

    def random_configuration(self, rng):
        """A random q: revolute angles in [-pi, pi], prismatic in [-0.5, 0.5] m, uniform random
        rotations for spherical and free joints, free positions in [-1, 1] m."""
        q = np.array(self.q_neutral)
        t = self.tree
        for i in range(self.nl):
            k = t.qidx[i]
            jt = t.jtype[i]
            if jt == JointType.REVOLUTE:
                q[k] = rng.uniform(-np.pi, np.pi)
            elif jt == JointType.PRISMATIC:
                q[k] = rng.uniform(-0.5, 0.5)
            elif jt == JointType.SPHERICAL:
                quat = rng.normal(size=4)
                q[k:k + 4] = quat / np.linalg.norm(quat)
            elif jt == JointType.FREE:
                q[k:k + 3] = rng.uniform(-1.0, 1.0, 3)
                quat = rng.normal(size=4)
                q[k + 3:k + 7] = quat / np.linalg.norm(quat)
        return q

    def __repr__(self):
        return f"Model('{self.name}', nb={self.nb}, nq={self.nq}, nv={self.nv})"


def _ro(a, dtype=float):
    a = np.array(a, dtype=np.int64 if dtype is int else np.float64)
    a.setflags(write=False)
    return a


def neutral_q_of_links(jtypes):
    return np.concatenate([NEUTRAL_LINK_Q[JointType(j)] for j in jtypes]) if len(jtypes) else np.zeros(0)
