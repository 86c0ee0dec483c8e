"""Helpers of the vehicle templates: frames from axes, slender-link parts, joints placed at their
design position (part frames = design frame, see occupant.vehicle.subsystem)."""
import numpy as np

from occupant.modeling import Joint, Marker, Part, Pose

# the floating joint's placement (its first axis, z, along x) (occupant.modeling.elements, "floating")
FLOATING_PLACEMENT = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


def unit(v):
    v = np.asarray(v, float)
    return v / np.linalg.norm(v)


def frame_z(z, hint=(1.0, 0.0, 0.0)):
    """Rotation whose z column is along ``z`` and x column as near ``hint`` as possible."""
    z = unit(z)
    h = np.asarray(hint, float)
    if abs(h @ z) > 0.95:
        h = np.array([0.0, 0.0, 1.0]) if abs(z[2]) < 0.9 else np.array([0.0, 1.0, 0.0])
    x = unit(h - (h @ z) * z)
    return np.column_stack([x, np.cross(z, x), z])


def universal_frame(first, second):
    """Rotation for a universal joint turning about ``first`` then ``second`` (the default second
    MDH axis is the first frame's -y)."""
    z = unit(first)
    y = -unit(np.asarray(second, float) - (np.asarray(second, float) @ z) * z)
    return np.column_stack([np.cross(y, z), y, z])


def link_part(name, mass, a, b, radius=0.015):
    """A uniform slender rod from a to b (design coordinates): I = m L^2/12 across, m r^2/2 along."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    L = np.linalg.norm(b - a)
    R = frame_z(b - a)
    I = np.diag([mass * L * L / 12, mass * L * L / 12, mass * radius * radius / 2]) \
        + np.diag([mass * radius * radius / 4] * 2 + [0.0])
    return Part(name, mass, com=(a + b) / 2, inertia=R @ I @ R.T)


def joint_at(sub, name, kind, parent, child, at, R=None, axes=()):
    """A joint of ``kind`` between ``parent`` and ``child`` at the design point ``at`` with joint
    axes R (z: the revolute/prismatic axis); the child's marker ``<name>.j`` coincides with the
    joint frame at the design position, so the child's part frame stays the design frame."""
    R = np.eye(3) if R is None else np.asarray(R, float)
    joint = Joint(name, kind, parent, child, Pose(at, R), axes=axes, child_marker=f"{name}.j")
    X = joint.placement.transform   # the joint's last moving frame at q = 0
    for mdh in joint.axes:
        X = X @ mdh.transform
    sub.add(Marker(f"{name}.j", child, position=X[:3, 3], rotation=X[:3, :3]))
    sub.add(joint)
