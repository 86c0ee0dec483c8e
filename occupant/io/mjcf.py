"""Export a compiled Model to MuJoCo's MJCF, and map states between the two.

The exported model has the same dynamics as ours (no contacts, joint damping, armature, friction
loss or limits), so MuJoCo's ``mj_forward`` gives the same mass matrix, bias forces and
accelerations after the coordinate map below (``tests/dynamics/test_reference_engines.py``).

What becomes what (MJCF reference, https://mujoco.readthedocs.io/en/stable/XMLreference.html):

- every body is one ``<body>`` named after it, placed at its pose for the export configuration
  ``q_export``, so MuJoCo's reference configuration ``qpos0`` is ``q_export``. Its ``<inertial>``
  gives mass, centre of mass and the full inertia tensor (``fullinertia``) in the body frame;
- revolute -> ``hinge``, prismatic -> ``slide``: MuJoCo's qpos = q - q_export;
- universal and euler -> two or three ``hinge`` joints in the one body (MuJoCo applies them in
  order, as our chain of links), named after their dofs (``j_1``, ``j_2``, ...);
- spherical -> ``ball``: MuJoCo's quaternion is the rotation relative to the export pose,
  qpos = conj(q_export) * q; the angular velocity is in the child frame in both;
- free on a root body -> ``freejoint``: MuJoCo's qpos is the body's pose in the world (B0),
  qvel = (world-frame linear velocity, body-frame angular velocity), where ours has the linear
  velocity in the body frame: qvel[:3] = R_world_body v[:3];
- free on a non-root body (MuJoCo allows free joints only on top-level bodies) -> three ``slide``
  joints along the joint-frame axes, named ``<joint>_px``, ``_py``, ``_pz``, then a ``ball``
  named after the joint: qvel[:3] = d/dt of the position in the joint frame = R_joint v[:3];
- fixed -> a body without joints.

MuJoCo numbers its dofs depth first in the order of the XML; ``mujoco_state`` and
``occupant_state`` do the reordering together with the maps above.
"""
from pathlib import Path
import xml.etree.ElementTree as ET

import numpy as np

from occupant.constants import STANDARD_GRAVITY
from occupant.dynamics.api import link_poses
from occupant.model.joint_motion import normalize_quaternions
from occupant.model.joint_types import JointType
from occupant.model.model import ModelError
from occupant.modeling.geometry import placement
from occupant.spatial.rotation import matrix_to_quat, quat_multiply, quat_to_matrix

DEFAULT_TIMESTEP = 1e-4  # s, suited to crash dynamics (MuJoCo's own default is 2e-3)

_FREE_SLIDE_SUFFIX = ("px", "py", "pz")


# ---------------------------------------------------------------------------------------------
# formatting and kinematics helpers shared with the URDF export

def _num(x):
    """Shortest text that reads back to the same float."""
    x = float(x)
    return "0" if x == 0.0 else repr(x)


def _vec(a):
    return " ".join(_num(x) for x in np.ravel(a))


def _conj(quat):
    return np.array([quat[0], -quat[1], -quat[2], -quat[3]])


def _link_poses(model, q):
    """B0 rotation and origin of every link at q (quaternions normalised first)."""
    q = np.array(q, dtype=float)
    normalize_quaternions(model.tree, q)
    return link_poses(model, model.make_data(), q)


def _unit(quat):
    quat = np.asarray(quat, dtype=float)
    return quat / np.linalg.norm(quat)


def _check_q(model, q, what="q"):
    if q is None:
        return model.neutral_configuration()
    q = np.asarray(q, dtype=float)
    if q.shape != (model.nq,):
        raise ModelError(f"{what}: expected shape ({model.nq},) for model '{model.name}', got {q.shape}")
    if not np.all(np.isfinite(q)):
        raise ModelError(f"{what}: must be finite")
    return q


def _children(model):
    kids = [[] for _ in range(model.nb)]
    roots = []
    for b in range(model.nb):
        (roots if model.body_parent[b] < 0 else kids[model.body_parent[b]]).append(b)
    return roots, kids


def _depth_first(model):
    """Bodies in the order MuJoCo numbers them: depth first, children in our body order."""
    roots, kids = _children(model)
    order, stack = [], list(reversed(roots))
    while stack:
        b = stack.pop()
        order.append(b)
        stack.extend(reversed(kids[b]))
    return order


def _joint_of_body(model):
    out = np.full(model.nb, -1)
    for j, b in enumerate(model.joint_body):
        out[b] = j
    return out


def _is_root_body(model, b):
    return model.body_parent[b] < 0


# ---------------------------------------------------------------------------------------------
# the coordinate layout of the exported MuJoCo model

def _mujoco_layout(model):
    """Per MuJoCo joint, in MuJoCo's order: (name, mujoco type, our link, role) where role says
    which part of our link's coordinates it carries ("angle", "shift", "ball", "free", "px".."pz")."""
    joint_of = _joint_of_body(model)
    out = []
    for b in _depth_first(model):
        j = joint_of[b]
        links = model.joint_links[j]
        kind = model.joint_kind[j]
        dofs = [n for n, jj in zip(model.dof_names, model.dof_joint) if jj == j]
        for a, link in enumerate(links):
            jt = JointType(model.tree.jtype[link])
            if jt == JointType.REVOLUTE:
                name = dofs[a] if kind in ("universal", "euler") else dofs[0]
                out.append((name, "hinge", link, "angle"))
            elif jt == JointType.PRISMATIC:
                out.append((dofs[0], "slide", link, "shift"))
            elif jt == JointType.SPHERICAL:
                out.append((model.joint_names[j], "ball", link, "ball"))
            elif jt == JointType.FREE:
                if _is_root_body(model, b) and len(links) == 1:
                    out.append((model.joint_names[j], "free", link, "free"))
                else:
                    for s in _FREE_SLIDE_SUFFIX:
                        out.append((f"{model.joint_names[j]}_{s}", "slide", link, s))
                    out.append((model.joint_names[j], "ball", link, "ball"))
    return out


_NQ = {"hinge": 1, "slide": 1, "ball": 4, "free": 7}
_NV = {"hinge": 1, "slide": 1, "ball": 3, "free": 6}


def mujoco_state(model, q, v, q_export=None):
    """MuJoCo's (qpos, qvel) of the model exported by ``export_mjcf(model, path, q_export)`` for
    our state (q, v). See the module docstring for the map of each joint type."""
    q = _check_q(model, q)
    q_export = _check_q(model, q_export, "q_export")
    v = np.asarray(v, dtype=float)
    if v.shape != (model.nv,):
        raise ModelError(f"v: expected shape ({model.nv},), got {v.shape}")
    t = model.tree
    qpos, qvel = [], []
    for name, mtype, link, role in _mujoco_layout(model):
        k, kv = t.qidx[link], t.vidx[link]
        if role in ("angle", "shift"):
            qpos.append([q[k] - q_export[k]])
            qvel.append([v[kv]])
        elif role == "ball":
            off = 3 if t.jtype[link] == JointType.FREE else 0
            qk = _unit(q[k + off:k + off + 4])
            q0 = _unit(q_export[k + off:k + off + 4])
            qpos.append(quat_multiply(_conj(q0), qk))
            qvel.append(v[kv + off:kv + off + 3])
        elif role in _FREE_SLIDE_SUFFIX:
            c = _FREE_SLIDE_SUFFIX.index(role)
            R = quat_to_matrix(_unit(q[k + 3:k + 7]))
            qpos.append([q[k + c] - q_export[k + c]])
            qvel.append([R[c] @ v[kv:kv + 3]])
        else:  # free root joint: world pose of the body
            R_pj, p_pj = np.array(t.R_pj[link]), np.array(t.p_pj[link])
            quat = _unit(q[k + 3:k + 7])
            R = R_pj @ quat_to_matrix(quat)
            qpos.append(np.concatenate([p_pj + R_pj @ q[k:k + 3],
                                        quat_multiply(matrix_to_quat(R_pj), quat)]))
            qvel.append(np.concatenate([R @ v[kv:kv + 3], v[kv + 3:kv + 6]]))
    cat = lambda parts: np.concatenate(parts) if parts else np.zeros(0)  # noqa: E731
    return cat(qpos), cat(qvel)


def occupant_state(model, qpos, qvel, q_export=None):
    """Our (q, v) from MuJoCo's (qpos, qvel) of the model exported at ``q_export``; the inverse
    of ``mujoco_state``."""
    q_export = _check_q(model, q_export, "q_export")
    qpos, qvel = np.asarray(qpos, dtype=float), np.asarray(qvel, dtype=float)
    layout = _mujoco_layout(model)
    nqm = sum(_NQ[m] for _, m, _, _ in layout)
    nvm = sum(_NV[m] for _, m, _, _ in layout)
    if qpos.shape != (nqm,) or qvel.shape != (nvm,):
        raise ModelError(f"qpos, qvel: expected shapes ({nqm},), ({nvm},), got {qpos.shape}, {qvel.shape}")
    t = model.tree
    q, v = np.array(q_export), np.zeros(model.nv)
    pending = {}  # nested free joints: slide rates wait for the ball's rotation
    iq = iv = 0
    for name, mtype, link, role in layout:
        k, kv = t.qidx[link], t.vidx[link]
        a, w = qpos[iq:iq + _NQ[mtype]], qvel[iv:iv + _NV[mtype]]
        iq, iv = iq + _NQ[mtype], iv + _NV[mtype]
        if role in ("angle", "shift"):
            q[k] = q_export[k] + a[0]
            v[kv] = w[0]
        elif role in _FREE_SLIDE_SUFFIX:
            c = _FREE_SLIDE_SUFFIX.index(role)
            q[k + c] = q_export[k + c] + a[0]
            pending.setdefault(link, np.zeros(3))[c] = w[0]
        elif role == "ball":
            off = 3 if t.jtype[link] == JointType.FREE else 0
            quat = quat_multiply(_unit(q_export[k + off:k + off + 4]), _unit(a))
            q[k + off:k + off + 4] = quat
            v[kv + off:kv + off + 3] = w
            if off:
                v[kv:kv + 3] = quat_to_matrix(quat).T @ pending.pop(link)
        else:
            R_pj, p_pj = np.array(t.R_pj[link]), np.array(t.p_pj[link])
            q[k:k + 3] = R_pj.T @ (a[:3] - p_pj)
            quat = quat_multiply(_conj(matrix_to_quat(R_pj)), _unit(a[3:7]))
            q[k + 3:k + 7] = quat
            v[kv:kv + 3] = (R_pj @ quat_to_matrix(quat)).T @ w[:3]
            v[kv + 3:kv + 6] = w[3:6]
    return q, v


def mujoco_velocity_jacobian(model, q):
    """T (nv_mujoco, nv) with MuJoCo's qvel = T v at configuration q (constant apart from free
    joints, whose linear rows rotate). Generalized forces map back as tau = T^T qfrc and the
    mass matrices as M = T^T M_mujoco T; T is orthogonal."""
    q = _check_q(model, q)
    cols = []
    for i in range(model.nv):
        e = np.zeros(model.nv)
        e[i] = 1.0
        cols.append(mujoco_state(model, q, e, q)[1])
    return np.array(cols).T


# ---------------------------------------------------------------------------------------------
# the export

def export_mjcf(model, path, q=None, *, gravity=STANDARD_GRAVITY, timestep=DEFAULT_TIMESTEP):
    """Write ``model`` as a MuJoCo MJCF file at ``path``, posed at configuration ``q`` (default:
    the neutral configuration), so that MuJoCo's reference configuration qpos0 is ``q``.

    Body and joint names are ours (multi-dof joints: their dof names, see the module docstring).
    Contacts are off (``contype = conaffinity = 0`` on the display geometry), joints have no
    damping, armature or limits, and ``gravity`` (m/s^2, world = our base frame B0) and
    ``timestep`` (s) go into ``<option>``. Returns the path written. Use ``mujoco_state`` to turn
    our (q, v) into MuJoCo's (qpos, qvel)."""
    q = _check_q(model, q)
    gravity = np.asarray(gravity, dtype=float)
    if gravity.shape != (3,):
        raise ModelError(f"gravity: expected 3 values, got {gravity.shape}")
    if not timestep > 0:
        raise ModelError(f"timestep: must be positive (s), got {timestep!r}")
    R_world, p_world = _link_poses(model, q)
    t = model.tree
    joint_of = _joint_of_body(model)
    layout_names = {}
    for name, mtype, link, role in _mujoco_layout(model):
        layout_names.setdefault(link, []).append((name, mtype, role))

    root = ET.Element("mujoco", model=model.name)
    ET.SubElement(root, "compiler", angle="radian", inertiafromgeom="false", autolimits="true")
    ET.SubElement(root, "option", gravity=_vec(gravity), timestep=_num(timestep))
    default = ET.SubElement(root, "default")
    ET.SubElement(default, "joint", damping="0", armature="0", frictionloss="0", stiffness="0")
    ET.SubElement(default, "geom", contype="0", conaffinity="0", group="1", rgba="0.7 0.7 0.8 0.5")
    world = ET.SubElement(root, "worldbody")
    roots, kids = _children(model)
    geoms = _geometries_by_body(model)

    def add_body(xml_parent, b):
        link = model.body_link[b]
        par = model.body_parent[b]
        if par < 0:
            R_rel, p_rel = R_world[link], p_world[link]
        else:
            lp = model.body_link[par]
            R_rel = R_world[lp].T @ R_world[link]
            p_rel = R_world[lp].T @ (p_world[link] - p_world[lp])
        el = ET.SubElement(xml_parent, "body", name=model.body_names[b], pos=_vec(p_rel),
                           quat=_vec(matrix_to_quat(R_rel)))
        I = model.body_inertia[b]
        ET.SubElement(el, "inertial", pos=_vec(model.body_com[b]), mass=_num(model.body_mass[b]),
                      fullinertia=_vec([I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]]))
        Rb, pb = R_world[link], p_world[link]
        for jl in model.joint_links[joint_of[b]]:
            # frame of this link at q, in the body frame
            R_k = Rb.T @ R_world[jl]
            p_k = Rb.T @ (p_world[jl] - pb)
            for name, mtype, role in layout_names.get(jl, []):
                if mtype == "free":
                    ET.SubElement(el, "freejoint", name=name)
                elif role in _FREE_SLIDE_SUFFIX:
                    # joint-frame axes of the free joint, in the body frame
                    par_link = t.parent[jl]
                    R_par = np.eye(3) if par_link < 0 else R_world[par_link]
                    R_joint = Rb.T @ R_par @ np.array(t.R_pj[jl])
                    axis = R_joint[:, _FREE_SLIDE_SUFFIX.index(role)]
                    ET.SubElement(el, "joint", name=name, type="slide", pos="0 0 0", axis=_vec(axis))
                elif mtype == "ball":
                    ET.SubElement(el, "joint", name=name, type="ball", pos=_vec(p_k))
                else:
                    ET.SubElement(el, "joint", name=name, type=mtype, pos=_vec(p_k),
                                  axis=_vec(R_k[:, 2]))
        for g in geoms.get(b, []):
            el.append(g)
        for c in kids[b]:
            add_body(el, c)

    for r in roots:
        add_body(world, r)
    ET.indent(root)
    path = Path(path)
    path.write_text(ET.tostring(root, encoding="unicode") + "\n")
    return path


def _geometries_by_body(model):
    """Display geometry (no contact): ellipsoids, spheres, cylinders and boxes of each body."""
    out = {}
    for g in model.geometries:
        kind = type(g).__name__
        if kind not in ("Ellipsoid", "Sphere", "Cylinder", "Box") or g.marker not in model.index["marker"]:
            continue
        m = model.marker(g.marker)
        R, p = placement(g)     # the geometry's own frame in its marker's
        attrs = {"name": g.name, "pos": _vec(model.marker_R[m] @ p + model.marker_p[m]),
                 "quat": _vec(matrix_to_quat(model.marker_R[m] @ R))}
        if kind == "Ellipsoid":
            attrs.update(type="ellipsoid", size=_vec(g.semi_axes))
        elif kind == "Sphere":
            attrs.update(type="sphere", size=_num(g.radius))
        elif kind == "Cylinder":
            attrs.update(type="cylinder", size=_vec([g.radius, 0.5 * g.length]))
        else:
            attrs.update(type="box", size=_vec(g.half_extents))
        out.setdefault(int(model.marker_body[m]), []).append(ET.Element("geom", attrs))
    return out
