"""Rotations, homogeneous transforms, modified-DH frames and spatial (Plücker) vectors."""
from occupant.spatial.rotation import (
    quat_to_matrix,
    matrix_to_quat,
    quat_multiply,
    quat_exp,
    quat_log,
    rot_x,
    rot_y,
    rot_z,
)
from occupant.spatial.transforms import homogeneous, mdh_transform, invert_homogeneous

__all__ = [
    "quat_to_matrix", "matrix_to_quat", "quat_multiply", "quat_exp", "quat_log",
    "rot_x", "rot_y", "rot_z", "homogeneous", "mdh_transform", "invert_homogeneous",
]
