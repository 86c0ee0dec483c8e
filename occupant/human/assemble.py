"""Segment records -> modeling Assembly (parts, joints, markers, contact ellipsoids, joint
resistance), shared by the dummy loader and the parametric builder.

Frames: every segment frame has its origin at the segment's proximal joint centre and, in the
reference configuration (all joint coordinates zero), axes parallel to the pelvis frame: x forward,
y left, z up. A revolute joint turns about ``axis``; its joint frame's z is that axis and the child
carries a marker ``<joint>_axis`` with the same rotation, so that the child part frame stays
parallel to its parent at zero angle. A prismatic joint slides along ``axis`` the same way (its
resistance is named ``<joint>_translation``, in m and N).
"""
import numpy as np

from occupant.constants import G0
from occupant.modeling import Assembly, Ellipsoid, Joint, JointResistance, Marker, Part, Pose


def axis_rotation(axis):
    """A rotation matrix whose third column is the unit vector ``axis``."""
    z = np.asarray(axis, float) / np.linalg.norm(axis)
    helper = np.array([1.0, 0.0, 0.0]) if abs(z[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    x = helper - (helper @ z) * z
    x /= np.linalg.norm(x)
    return np.column_stack([x, np.cross(z, x), z])


def reference_origins(segments):
    """Origin of every segment frame in the pelvis (root) frame at the reference configuration."""
    origin = {}
    for s in segments:
        origin[s.name] = np.zeros(3) if s.parent is None else origin[s.parent] + s.location
    return origin


def distal_mass(segments, name):
    """Mass (kg) and centre of mass (pelvis frame, reference configuration) of the segment and
    everything distal to it."""
    origin = reference_origins(segments)
    children = {}
    for s in segments:
        children.setdefault(s.parent, []).append(s)
    by_name = {s.name: s for s in segments}
    stack, m, mc = [by_name[name]], 0.0, np.zeros(3)
    while stack:
        s = stack.pop()
        m += s.mass
        mc += s.mass * (origin[s.name] + s.com)
        stack.extend(children.get(s.name, []))
    return m, mc / m


def limb_setting_torque(segments, seg, res):
    """Coulomb torque (N m) of an n-g limb setting: n g m_d d, with m_d the distal mass and d the
    distance of its centre of mass from the joint axis, limb extended (49 CFR 572.116(h) wording:
    the joint just holds the limb extended horizontally)."""
    m, c = distal_mass(segments, seg.name)
    r = c - reference_origins(segments)[seg.name]
    axis = seg.axis if seg.joint_kind == "revolute" else np.eye(3)[res.dof]
    d = np.linalg.norm(r - (r @ axis) * axis)
    return res.friction_g * G0 * m * d


def assemble(name, segments):
    """Build the editable Assembly of a body from validated segment records."""
    asm = Assembly(name)
    for s in segments:
        asm.add(Part(s.name, s.mass, com=s.com, inertia=s.inertia))
    for s in segments:
        if s.joint_kind in ("revolute", "prismatic"):
            R = axis_rotation(s.axis)
            marker = asm.add(Marker(f"{s.joint_name}_axis", s.name, (0.0, 0.0, 0.0), R))
            asm.add(Joint(s.joint_name, s.joint_kind, s.parent, s.name, Pose(s.location, R),
                          child_marker=marker.name))
        else:
            asm.add(Joint(s.joint_name, s.joint_kind, s.parent, s.name, Pose(s.location)))
        for r in s.resistances:
            friction = r.friction if not r.friction_g else limb_setting_torque(segments, s, r)
            suffix = {"spherical": "xyz"[r.dof], "prismatic": "translation"}.get(s.joint_kind,
                                                                                  "flexion")
            asm.add(JointResistance(
                f"{s.joint_name}_{suffix}", s.joint_name, dof=r.dof, stiffness=r.stiffness,
                reference=r.reference, damping=r.damping, friction=friction,
                friction_speed=r.friction_speed, lower=r.lower, upper=r.upper,
                stop_stiffness=r.stop_stiffness, stop_damping=r.stop_damping, table=r.table,
                absorption=r.absorption, recovers=r.recovers))
        for e in s.ellipsoids:
            marker = asm.add(Marker(f"{e.name}_frame", s.name, e.center, e.R_segment_ellipsoid))
            asm.add(Ellipsoid(e.name, marker.name, e.semi_axes))
        for marker, m in s.markers.items():
            asm.add(Marker(marker, s.name, m.position, m.R_segment_marker))
    return asm
