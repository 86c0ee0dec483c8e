"""The frozen runtime Model: flat arrays in regular numbering, and the maps from names to indices.

A Model is made by ``occupant.modeling.Assembly.compile()``; nothing in it changes afterwards.
Bodies are what the user defined; *links* are the primitive moving frames the joints expand into
(see ``joint_types``). Every link has ``parent[i] < i`` (regular numbering, seed 004).
"""
from collections import namedtuple

import numpy as np

from occupant.byref import by_reference
from occupant.constants import STANDARD_GRAVITY
from occupant.model.base_motion import fixed_base_state
from occupant.model.bundle import step_bundle
from occupant.model.bundle import (Bundle, CONTACT_WORK, POWER_NAMES, frozen, empty_airbag_block,
                                   empty_constraint_block, empty_tyre_block, empty_coupler_block,
                                   empty_marker_force_block)
from occupant.model.joint_motion import random_configuration
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
by_reference(KinTree)

class ModelError(ValueError):
    """A model that cannot be compiled or used as asked."""


class Model:
    """Frozen runtime model. Arrays are read-only; see the attribute comments for shapes and units."""

    def __init__(self, *, name, body_names, body_parent, body_mass, body_com, body_inertia,
                 body_link, joint_names, joint_kind, joint_body, joint_links, link_body, tree,
                 nq, nv, dof_names, dof_joint, q_neutral, marker_names, marker_body, marker_R,
                 marker_p, geometries, joint_resistance, joint_resistance_names, spring_dampers,
                 spring_damper_names, contacts, contact_names, output_names, output_units,
                 producer_z_names, topology, source=None, airbags=None, airbag_names=(),
                 airbag_contact_names=(), muscles=None, muscle_names=(), belts=None,
                 belt_names=(), marker_forces=None, marker_force_names=()):
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
        # force producers: one compiled block per family (occupant.model.bundle)
        self.joint_resistance = joint_resistance        # JointResistanceBlock
        self.joint_resistance_names = tuple(joint_resistance_names)
        self.spring_dampers = spring_dampers            # SpringDamperBlock
        self.spring_damper_names = tuple(spring_damper_names)
        self.contacts = contacts                        # ContactBlock
        self.contact_names = tuple(contact_names)
        self.airbags = empty_airbag_block() if airbags is None else airbags  # AirbagBlock
        self.airbag_names = tuple(airbag_names)
        self.airbag_contact_names = tuple(airbag_contact_names)
        self.muscles = muscles                          # MuscleBlock (occupant.modeling.muscles)
        self.muscle_names = tuple(muscle_names)
        self.belts = belts                              # BeltBlock
        self.belt_names = tuple(belt_names)
        self.marker_forces = (empty_marker_force_block() if marker_forces is None
                              else marker_forces)   # MarkerForceBlock
        self.marker_force_names = tuple(marker_force_names)
        self.output_names = tuple(output_names)         # Data.outputs, "<element>.<quantity>"
        self.output_units = tuple(output_units)
        self.power_names = POWER_NAMES                  # Data.power slots
        # extra states z: the producers' states (named "<element>.<state>", each block's from its
        # z_start), then one work accumulator (J) per power slot
        # z also closes with two per contact pair (bundle.CONTACT_WORK): quadratures, as those
        self.work_start = len(producer_z_names)
        pair_work = [f"{p}.{n}" for p in self.contact_names for n, _ in CONTACT_WORK]
        self.nz = self.work_start + len(POWER_NAMES) + len(pair_work)
        self.z_names = (tuple(producer_z_names) + tuple(f"work.{n}" for n in POWER_NAMES)
                        + tuple(pair_work))
        if contacts is not None:
            self.contacts = contacts._replace(work_z_start=self.work_start + len(POWER_NAMES))
        self.topology = topology                        # occupant.topology.Topology of the bodies
        self.source = source                            # the editable Assembly it came from
        # closed loops: constraint equations of the cut joints (modeling.compile_constraints)
        self.constraints = empty_constraint_block()     # ConstraintBlock
        self.constraint_names = ()                      # the element of each constraint row
        self.gravity = None                             # (3,) m/s^2 in B0, the model's gravity field
        # vehicle producers (occupant.vehicle): tyres with brakes, couplers of joint coordinates
        self.tyres = empty_tyre_block()                 # TyreBlock
        self.couplers = empty_coupler_block()           # CouplerBlock
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
        from occupant.model.data import make_data
        return make_data(self)

    def neutral_configuration(self):
        """q with every joint at zero (identity quaternions)."""
        return np.array(self.q_neutral)

    def random_configuration(self, rng):
        """A random q (``joint_motion.random_configuration``)."""
        return random_configuration(self.tree, self.q_neutral, rng)

    def bundle(self, base_table=None, base_t0=0.0, base_dt=1.0, tau_applied=None):
        """The compiled bundle of this model for one run: ``base_table`` (n, 12) the sampled B0
        spatial states (default: B0 at rest under standard gravity along -z, as the
        dynamics functions assume), ``tau_applied`` (nv,)."""
        if base_table is None:
            base_table = fixed_base_state(STANDARD_GRAVITY)[None, :]
        table = np.ascontiguousarray(base_table, float)
        tau = np.zeros(self.nv) if tau_applied is None else np.ascontiguousarray(tau_applied, float)
        return step_bundle(Bundle(tree=self.tree, joint_resistance=self.joint_resistance,
                      spring_dampers=self.spring_dampers, contacts=self.contacts,
                      airbags=self.airbags, muscles=self.muscles, constraints=self.constraints,
                      belts=self.belts, base_table=table, base_t0=float(base_t0),
                      base_dt=float(base_dt), tau_applied=tau, work_start=self.work_start,
                      tyres=self.tyres, couplers=self.couplers,
                      marker_forces=self.marker_forces))

    def __repr__(self):
        return f"Model('{self.name}', nb={self.nb}, nq={self.nq}, nv={self.nv})"


def _ro(a, dtype=float):
    return frozen(a, integer=dtype is int)


def neutral_q_of_links(jtypes):
    return np.concatenate([NEUTRAL_LINK_Q[JointType(j)] for j in jtypes]) if len(jtypes) else np.zeros(0)
