"""Joint types of the runtime model and their coordinate layout.

Every joint is expanded at compile time into one or more *links*; a link moves relative to its
parent link by one of the primitive motions below. Revolute and prismatic links act about / along
the z axis of their joint frame (modified DH, design.md section 5). Universal and euler joints
compile to two or three revolute links, the intermediate ones massless.

Velocity coordinates are expressed in the link (child) frame:
- spherical: v = angular velocity (3,), q = unit quaternion (w, x, y, z);
- floating: three prismatic then three revolute links (the five intermediate ones massless),
  a 6-dof joint in scalar coordinates for the state-space integrators, which take no
  quaternions (translations x, y, z, then Tait-Bryan yaw, pitch, roll with the default axes);
- free: v = (linear velocity of the link origin, angular velocity) both in the link frame, as
  Pinocchio's free-flyer; q = (position in the joint frame (3,), quaternion (4,)).
"""
from enum import IntEnum

import numpy as np


class JointType(IntEnum):
    FIXED = 0
    REVOLUTE = 1
    PRISMATIC = 2
    SPHERICAL = 3
    FREE = 4


# (nq, nv) of one link of each primitive type
LINK_NQ = {JointType.FIXED: 0, JointType.REVOLUTE: 1, JointType.PRISMATIC: 1,
           JointType.SPHERICAL: 4, JointType.FREE: 7}
LINK_NV = {JointType.FIXED: 0, JointType.REVOLUTE: 1, JointType.PRISMATIC: 1,
           JointType.SPHERICAL: 3, JointType.FREE: 6}

# Row of the spatial motion vector (angular x,y,z, linear x,y,z) that each local dof drives.
SPATIAL_ROWS = {
    JointType.FIXED: (),
    JointType.REVOLUTE: (2,),
    JointType.PRISMATIC: (5,),
    JointType.SPHERICAL: (0, 1, 2),
    JointType.FREE: (3, 4, 5, 0, 1, 2),
}

# User-facing joint kinds -> number of links they expand into
JOINT_KINDS = ("revolute", "prismatic", "universal", "spherical", "euler", "free", "fixed",
               "floating",
               # seed 000's further kinematic joints: hooke (= universal), cylindrical (prismatic +
               # revolute on one axis), planar (two prismatic + one revolute), screw (cylindrical
               # whose translation follows the rotation: a coupler row, occupant.modeling)
               "hooke", "cylindrical", "planar", "screw",
               # constant velocity: three revolute coordinates (x, y, x) and one coupler row
               # (occupant.modeling.compile_constraints)
               "constant_velocity")

NEUTRAL_LINK_Q = {
    JointType.FIXED: np.zeros(0),
    JointType.REVOLUTE: np.zeros(1),
    JointType.PRISMATIC: np.zeros(1),
    JointType.SPHERICAL: np.array([1.0, 0.0, 0.0, 0.0]),
    JointType.FREE: np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]),
}
