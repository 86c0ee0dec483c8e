"""Rotation matrices and unit quaternions (scalar first, w x y z, as MuJoCo).

The functions the time-stepping kernels call are numba-compiled; they also work from plain Python
on NumPy arrays. ``quat_exp`` and ``quat_log`` are plain Python and NumPy: only Python calls them
(a posture's fit, the neck's levelling and bracket when a scenario loads), and compiling them
cost a first run's load 0.4-0.65 s CPU, before its compile worker had work (issue 13). They take
sin, cos and atan2 from the C library (``math``), as compiled code does: the same doubles
(NumPy's own arctan2 differs in the last bit).
"""
import math

import numpy as np
from numba import njit

from occupant.jit import JIT, JIT_INLINE


@njit(**JIT)
def rot_z(theta):
    """Rotation by theta (rad) about z."""
    c, s = np.cos(theta), np.sin(theta)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


@njit(**JIT)
def rot_x(alpha):
    """Rotation by alpha (rad) about x."""
    c, s = np.cos(alpha), np.sin(alpha)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


@njit(**JIT)
def rot_y(beta):
    """Rotation by beta (rad) about y."""
    c, s = np.cos(beta), np.sin(beta)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


@njit(**JIT)
def quat_to_matrix(quat):
    """Rotation matrix of the unit quaternion (w, x, y, z); maps child to parent coordinates."""
    w, x, y, z = quat[0], quat[1], quat[2], quat[3]
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


@njit(**JIT_INLINE)
def quat_rotate(q, k, x, y, z, transpose):
    """R(quat) (x, y, z), or R^T (x, y, z) when ``transpose``, for the unit quaternion q[k:k+4];
    returns three scalars (no allocation, for the compiled step)."""
    w, a, b, c = q[k], q[k + 1], q[k + 2], q[k + 3]
    if transpose:
        a, b, c = -a, -b, -c
    r0 = (1 - 2 * (b * b + c * c)) * x + 2 * (a * b - w * c) * y + 2 * (a * c + w * b) * z
    r1 = 2 * (a * b + w * c) * x + (1 - 2 * (a * a + c * c)) * y + 2 * (b * c - w * a) * z
    r2 = 2 * (a * c - w * b) * x + 2 * (b * c + w * a) * y + (1 - 2 * (a * a + b * b)) * z
    return r0, r1, r2


@njit(**JIT)
def quat_multiply(a, b):
    """Hamilton product a * b."""
    return np.array([
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
        a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
        a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
    ])


def quat_exp(rotvec):
    """Unit quaternion of the rotation vector rotvec (axis * angle, rad)."""
    angle = math.sqrt(rotvec[0] ** 2 + rotvec[1] ** 2 + rotvec[2] ** 2)
    half = 0.5 * angle
    if angle < 1e-8:
        k = 0.5 - angle * angle / 48.0  # sin(x/2)/x to second order
    else:
        k = math.sin(half) / angle
    return np.array([math.cos(half), k * rotvec[0], k * rotvec[1], k * rotvec[2]])


def quat_log(quat):
    """Rotation vector (axis * angle, angle in [0, pi]) of a unit quaternion."""
    w = quat[0]
    s = math.sqrt(quat[1] ** 2 + quat[2] ** 2 + quat[3] ** 2)
    if w < 0.0:  # take the shorter rotation
        w, sign = -w, -1.0
    else:
        sign = 1.0
    angle = 2.0 * math.atan2(s, w)
    if s < 1e-12:
        k = 2.0
    else:
        k = angle / s
    return np.array([sign * k * quat[1], sign * k * quat[2], sign * k * quat[3]])


def matrix_to_quat(R):
    """Unit quaternion (w, x, y, z) with w >= 0 of the rotation matrix R (Shepperd's method)."""
    R = np.asarray(R, dtype=float)
    tr = np.trace(R)
    candidates = np.array([tr, R[0, 0], R[1, 1], R[2, 2]])
    k = int(np.argmax(candidates))
    if k == 0:
        w = 0.5 * np.sqrt(1.0 + tr)
        q = np.array([w, (R[2, 1] - R[1, 2]) / (4 * w), (R[0, 2] - R[2, 0]) / (4 * w),
                      (R[1, 0] - R[0, 1]) / (4 * w)])
    elif k == 1:
        x = 0.5 * np.sqrt(1.0 + 2 * R[0, 0] - tr)
        q = np.array([(R[2, 1] - R[1, 2]) / (4 * x), x, (R[0, 1] + R[1, 0]) / (4 * x),
                      (R[0, 2] + R[2, 0]) / (4 * x)])
    elif k == 2:
        y = 0.5 * np.sqrt(1.0 + 2 * R[1, 1] - tr)
        q = np.array([(R[0, 2] - R[2, 0]) / (4 * y), (R[0, 1] + R[1, 0]) / (4 * y), y,
                      (R[1, 2] + R[2, 1]) / (4 * y)])
    else:
        z = 0.5 * np.sqrt(1.0 + 2 * R[2, 2] - tr)
        q = np.array([(R[1, 0] - R[0, 1]) / (4 * z), (R[0, 2] + R[2, 0]) / (4 * z),
                      (R[1, 2] + R[2, 1]) / (4 * z), z])
    if q[0] < 0:
        q = -q
    return q / np.linalg.norm(q)
