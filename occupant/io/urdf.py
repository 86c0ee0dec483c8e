"""Export a compiled Model to URDF (http://wiki.ros.org/urdf/XML), e.g. for Pinocchio.

The model is written at its neutral configuration (every joint at zero), which is what URDF
joint origins describe:

- each link is named after its body; the base B0 is a massless link ``world`` (``world_`` plus
  underscores if a body already has that name);
- each joint is named after its dof: revolute -> ``continuous`` (no limits) about the z axis of its
  joint frame, prismatic -> ``prismatic`` along z with limits of +-1e9 m, fixed -> ``fixed``,
  free -> ``floating`` (Pinocchio reads it as a free-flyer with our q up to the quaternion order
  (x, y, z, w) and our v unchanged; alternatively export a model whose root is fixed and load it
  with ``pin.JointModelFreeFlyer()`` as root joint);
- universal and euler joints become two or three revolute joints joined by massless links
  named ``<body>__<dof>``;
- spherical joints have no URDF counterpart: ``export_urdf`` raises ``ModelError`` naming them
  (rather than expanding them into three revolute joints, whose angles would not be our
  quaternion coordinates and which lock at gimbal configurations). Use ``export_mjcf``.

Pinocchio reads ``continuous`` joints as unbounded revolute joints with q = (cos, sin) of our angle.
"""
from pathlib import Path
import xml.etree.ElementTree as ET

import numpy as np

from occupant.model.joint_types import JointType
from occupant.model.model import ModelError
from occupant.io.mjcf import _num, _vec, _joint_of_body

PRISMATIC_LIMIT = 1e9  # m, "no limit" (URDF requires limits on prismatic joints)
_HUGE_EFFORT = 1e12     # N or N m, "no limit"


def _rpy(R):
    """URDF roll, pitch, yaw of R = Rz(yaw) Ry(pitch) Rx(roll)."""
    R = np.asarray(R, dtype=float)
    pitch = np.arctan2(-R[2, 0], np.hypot(R[0, 0], R[1, 0]))
    if np.hypot(R[0, 0], R[1, 0]) > 1e-9:
        roll = np.arctan2(R[2, 1], R[2, 2])
        yaw = np.arctan2(R[1, 0], R[0, 0])
    else:  # gimbal lock: put the whole rotation about z into roll
        roll = np.arctan2(-R[2, 0] * R[0, 1], R[1, 1])
        yaw = 0.0
    return np.array([roll, pitch, yaw])


def _rpy_matrix(rpy):
    r, p, y = rpy
    Rx = np.array([[1, 0, 0], [0, np.cos(r), -np.sin(r)], [0, np.sin(r), np.cos(r)]])
    Ry = np.array([[np.cos(p), 0, np.sin(p)], [0, 1, 0], [-np.sin(p), 0, np.cos(p)]])
    Rz = np.array([[np.cos(y), -np.sin(y), 0], [np.sin(y), np.cos(y), 0], [0, 0, 1]])
    return Rz @ Ry @ Rx


def _origin(parent_el, R, p):
    rpy = _rpy(R)
    if np.max(np.abs(_rpy_matrix(rpy) - R)) > 1e-12:
        raise ModelError("URDF export: could not express a joint rotation as roll-pitch-yaw "
                         "(this is a bug, please report it)")
    ET.SubElement(parent_el, "origin", xyz=_vec(p), rpy=_vec(rpy))


def export_urdf(model, path):
    """Write ``model`` as a URDF file at ``path`` (neutral configuration); returns the path.

    Raises ``ModelError`` for spherical joints, which URDF cannot express (see the module
    docstring for how every other joint kind is written)."""
    spherical = [model.joint_names[j] for j, links in enumerate(model.joint_links)
                 if any(model.tree.jtype[l] == JointType.SPHERICAL for l in links)]
    if spherical:
        raise ModelError(f"URDF export of model '{model.name}': URDF has no spherical joints, "
                         f"found {', '.join(spherical)}; export to MJCF instead (occupant export --mjcf, "
                         "occupant.io.export_mjcf)")
    t = model.tree
    world = "world"
    while world in model.index["body"]:
        world += "_"
    link_name = {}
    for b in range(model.nb):
        link_name[model.body_link[b]] = model.body_names[b]
    joint_of = _joint_of_body(model)

    robot = ET.Element("robot", name=model.name)
    ET.SubElement(robot, "link", name=world)
    for b in range(model.nb):
        link = ET.SubElement(robot, "link", name=model.body_names[b])
        inertial = ET.SubElement(link, "inertial")
        ET.SubElement(inertial, "origin", xyz=_vec(model.body_com[b]), rpy="0 0 0")
        ET.SubElement(inertial, "mass", value=_num(model.body_mass[b]))
        I = model.body_inertia[b]
        ET.SubElement(inertial, "inertia", ixx=_num(I[0, 0]), ixy=_num(I[0, 1]), ixz=_num(I[0, 2]),
                      iyy=_num(I[1, 1]), iyz=_num(I[1, 2]), izz=_num(I[2, 2]))
    for b in range(model.nb):
        j = joint_of[b]
        links = model.joint_links[j]
        dofs = [n for n, jj in zip(model.dof_names, model.dof_joint) if jj == j]
        for a, l in enumerate(links):
            if l not in link_name:  # massless intermediate link of a universal/euler joint
                link_name[l] = f"{model.body_names[b]}__{dofs[a]}"
                ET.SubElement(robot, "link", name=link_name[l])
        for a, l in enumerate(links):
            jt = JointType(t.jtype[l])
            name = dofs[a] if jt in (JointType.REVOLUTE, JointType.PRISMATIC) else model.joint_names[j]
            urdf_type = {JointType.REVOLUTE: "continuous", JointType.PRISMATIC: "prismatic",
                         JointType.FIXED: "fixed", JointType.FREE: "floating"}[jt]
            el = ET.SubElement(robot, "joint", name=name, type=urdf_type)
            _origin(el, t.R_pj[l], t.p_pj[l])
            ET.SubElement(el, "parent", link=world if t.parent[l] < 0 else link_name[t.parent[l]])
            ET.SubElement(el, "child", link=link_name[l])
            if jt in (JointType.REVOLUTE, JointType.PRISMATIC):
                ET.SubElement(el, "axis", xyz="0 0 1")
            if jt == JointType.PRISMATIC:
                ET.SubElement(el, "limit", lower=_num(-PRISMATIC_LIMIT), upper=_num(PRISMATIC_LIMIT),
                              effort=_num(_HUGE_EFFORT), velocity=_num(_HUGE_EFFORT))
    ET.indent(robot)
    path = Path(path)
    path.write_text('<?xml version="1.0"?>\n' + ET.tostring(robot, encoding="unicode") + "\n")
    return path
