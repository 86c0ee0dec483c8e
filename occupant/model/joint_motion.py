"""The one place where a link's joint type decides how its coordinates move the link.

Every other module calls these: the placement of a link in its parent (modified DH joint frame,
then the joint's own motion), where a link's quaternion sits in q, quaternion projection, the
configuration rate q' from v and the step q (+) h v on the configuration manifold, and random
configurations for tests. Compiled for the step; callable from Python as well.
Layouts: see ``joint_types`` (free joints: position in the joint frame, then the quaternion;
linear velocity in the link frame, as Pinocchio's free-flyer).
"""
import numpy as np
from numba import njit

from occupant.jit import JIT, JIT_INLINE, nonliteral
from occupant.model.joint_types import JointType
from occupant.spatial.rotation import quat_rotate

REVOLUTE = int(JointType.REVOLUTE)
PRISMATIC = int(JointType.PRISMATIC)
SPHERICAL = int(JointType.SPHERICAL)
FREE = int(JointType.FREE)


@njit(**JIT)
def quaternion_index(tree, i):
    """Index in q of link i's unit quaternion (w, x, y, z), or -1 if it has none."""
    jt = tree.jtype[i]
    if jt == SPHERICAL:
        return tree.qidx[i]
    if jt == FREE:
        return tree.qidx[i] + 3
    return -1


@njit(**JIT_INLINE)
def link_placement(tree, q, i, R_up, p_up):
    """Pose (R_up[i], p_up[i]) of link i in its parent link: joint frame, then the joint's motion.
    (Indexed rather than sliced: array views cost a reference count each.)"""
    jt = tree.jtype[i]
    k = tree.qidx[i]
    R_pj, p_pj = tree.R_pj, tree.p_pj
    for r in range(3):
        p_up[i, r] = p_pj[i, r]
    if jt == REVOLUTE:
        c, s = np.cos(q[k]), np.sin(q[k])
        for r in range(3):
            a0, a1 = R_pj[i, r, 0], R_pj[i, r, 1]
            R_up[i, r, 0] = a0 * c + a1 * s
            R_up[i, r, 1] = -a0 * s + a1 * c
            R_up[i, r, 2] = R_pj[i, r, 2]
    elif jt == PRISMATIC:
        for r in range(3):
            for col in range(3):
                R_up[i, r, col] = R_pj[i, r, col]
            p_up[i, r] += R_pj[i, r, 2] * q[k]
    elif jt == SPHERICAL or jt == FREE:
        kq = quaternion_index(tree, i)
        w, x, y, z = q[kq], q[kq + 1], q[kq + 2], q[kq + 3]
        # rotation matrix of the quaternion (as quat_to_matrix)
        c00, c10, c20 = 1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)
        c01, c11, c21 = 2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)
        c02, c12, c22 = 2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)
        for r in range(3):
            a0, a1, a2 = R_pj[i, r, 0], R_pj[i, r, 1], R_pj[i, r, 2]
            R_up[i, r, 0] = a0 * c00 + a1 * c10 + a2 * c20
            R_up[i, r, 1] = a0 * c01 + a1 * c11 + a2 * c21
            R_up[i, r, 2] = a0 * c02 + a1 * c12 + a2 * c22
            if jt == FREE:
                p_up[i, r] += a0 * q[k] + a1 * q[k + 1] + a2 * q[k + 2]
    else:
        for r in range(3):
            for col in range(3):
                R_up[i, r, col] = R_pj[i, r, col]


@njit(**JIT_INLINE)
def normalize_quaternions(tree, q):
    """Project the quaternions of spherical and free links back to unit length (in place)."""
    for i in range(tree.parent.shape[0]):
        kq = quaternion_index(tree, i)
        if kq >= 0:
            n = np.sqrt(q[kq] ** 2 + q[kq + 1] ** 2 + q[kq + 2] ** 2 + q[kq + 3] ** 2)
            for r in range(4):
                q[kq + r] /= n


@njit(**JIT_INLINE)
def q_derivative(tree, q, v, qdot):
    """qdot = dq/dt for velocity v: quaternion rate 0.5 quat * (0, omega_child); free-joint
    position rate R(quat) v_linear."""
    for i in range(tree.parent.shape[0]):
        jt = tree.jtype[i]
        k, j = tree.qidx[i], tree.vidx[i]
        kq = quaternion_index(tree, i)
        if kq >= 0:
            jw = j + 3 if jt == FREE else j
            w, x, y, z = q[kq], q[kq + 1], q[kq + 2], q[kq + 3]
            ox, oy, oz = v[jw], v[jw + 1], v[jw + 2]
            qdot[kq] = 0.5 * (-x * ox - y * oy - z * oz)
            qdot[kq + 1] = 0.5 * (w * ox + y * oz - z * oy)
            qdot[kq + 2] = 0.5 * (w * oy - x * oz + z * ox)
            qdot[kq + 3] = 0.5 * (w * oz + x * oy - y * ox)
            if jt == FREE:
                qdot[k], qdot[k + 1], qdot[k + 2] = quat_rotate(q, kq, v[j], v[j + 1], v[j + 2],
                                                                nonliteral(False))
        elif tree.nv[i] == 1:
            qdot[k] = v[j]


@njit(**JIT_INLINE)
def integrate_configuration(tree, q, v, h, q_out):
    """q_out = q (+) h v: exponential map for rotations (quat * exp(h omega)), Euler for the rest."""
    for i in range(tree.parent.shape[0]):
        jt = tree.jtype[i]
        k, j = tree.qidx[i], tree.vidx[i]
        kq = quaternion_index(tree, i)
        if kq >= 0:
            jw = j + 3 if jt == FREE else j
            w, x, y, z = q[kq], q[kq + 1], q[kq + 2], q[kq + 3]
            if jt == FREE:  # p += h R(quat) v_linear
                dx, dy, dz = quat_rotate(q, kq, v[j], v[j + 1], v[j + 2], nonliteral(False))
                q_out[k], q_out[k + 1], q_out[k + 2] = q[k] + h * dx, q[k + 1] + h * dy, q[k + 2] + h * dz
            # dq = exp(h omega / 2) as a unit quaternion, then quat * dq
            ox, oy, oz = h * v[jw], h * v[jw + 1], h * v[jw + 2]
            angle = np.sqrt(ox * ox + oy * oy + oz * oz)
            if angle < 1e-8:
                s_ = 0.5 - angle * angle / 48.0
            else:
                s_ = np.sin(0.5 * angle) / angle
            dw, dx, dy, dz = np.cos(0.5 * angle), s_ * ox, s_ * oy, s_ * oz
            nw = w * dw - x * dx - y * dy - z * dz
            nx = w * dx + x * dw + y * dz - z * dy
            ny = w * dy - x * dz + y * dw + z * dx
            nz = w * dz + x * dy - y * dx + z * dw
            nrm = np.sqrt(nw * nw + nx * nx + ny * ny + nz * nz)
            q_out[kq], q_out[kq + 1], q_out[kq + 2], q_out[kq + 3] = nw / nrm, nx / nrm, ny / nrm, nz / nrm
        elif tree.nv[i] == 1:
            q_out[k] = q[k] + h * v[j]


def quaternion_slices(tree):
    """Slices of q holding unit quaternions, one per spherical or free link (Python side)."""
    return [slice(k, k + 4) for k in (quaternion_index(tree, i) for i in range(len(tree.parent)))
            if k >= 0]


def random_configuration(tree, q_neutral, rng):
    """A random q: revolute angles in [-pi, pi], prismatic in [-0.5, 0.5] m, uniform random
    rotations for spherical and free joints, free positions in [-1, 1] m."""
    q = np.array(q_neutral, dtype=float)
    for i in range(len(tree.parent)):
        k, jt = tree.qidx[i], tree.jtype[i]
        if jt == REVOLUTE:
            q[k] = rng.uniform(-np.pi, np.pi)
        elif jt == PRISMATIC:
            q[k] = rng.uniform(-0.5, 0.5)
        elif jt == FREE:
            q[k:k + 3] = rng.uniform(-1.0, 1.0, 3)
        kq = quaternion_index(tree, i)
        if kq >= 0:
            quat = rng.normal(size=4)
            q[kq:kq + 4] = quat / np.linalg.norm(quat)
    return q
