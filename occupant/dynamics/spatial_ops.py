"""Compiled spatial-vector operations (Featherstone, Rigid Body Dynamics Algorithms, 2008, ch. 2).

Motion vectors m = (omega, v) and force vectors f = (n, f), both (6,), in (angular, linear) order.
A link's placement in its parent is (R, p): R maps link to parent coordinates and p is the link
origin in parent coordinates; the Plücker motion transform parent -> link is
X = [[R^T, 0], [-R^T [p]x, R^T]] (RBDA eq. 2.24) and X^T carries forces from link to parent.
"""
import numpy as np
from numba import njit

from occupant.jit import JIT, JIT_INLINE

from occupant.model.joint_types import JointType

REVOLUTE = int(JointType.REVOLUTE)
PRISMATIC = int(JointType.PRISMATIC)
SPHERICAL = int(JointType.SPHERICAL)
FREE = int(JointType.FREE)


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
        kq = k + 3 if jt == FREE else k
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
def plucker(R_up, p_up, i, X_up):
    """Fill X_up[i] with the motion transform parent -> link of the placement (R_up[i], p_up[i])."""
    for r in range(3):
        for col in range(3):
            X_up[i, r, col] = R_up[i, col, r]
            X_up[i, r, col + 3] = 0.0
            X_up[i, r + 3, col + 3] = R_up[i, col, r]
    # lower-left block: -R^T [p]x
    p0, p1, p2 = p_up[i, 0], p_up[i, 1], p_up[i, 2]
    for r in range(3):
        a0, a1, a2 = R_up[i, 0, r], R_up[i, 1, r], R_up[i, 2, r]
        X_up[i, r + 3, 0] = -(a1 * p2 - a2 * p1)
        X_up[i, r + 3, 1] = -(a2 * p0 - a0 * p2)
        X_up[i, r + 3, 2] = -(a0 * p1 - a1 * p0)


@njit(**JIT)
def x_mul(X, m, out):
    """out = X m for a Plücker transform (exploits the zero upper-right block)."""
    for r in range(3):
        out[r] = X[r, 0] * m[0] + X[r, 1] * m[1] + X[r, 2] * m[2]
    for r in range(3, 6):
        s = 0.0
        for c in range(6):
            s += X[r, c] * m[c]
        out[r] = s


@njit(**JIT)
def xt_mul_add(X, f, out):
    """out += X^T f (a force from link to parent coordinates)."""
    for c in range(3):
        out[c] += X[0, c] * f[0] + X[1, c] * f[1] + X[2, c] * f[2] + X[3, c] * f[3] + X[4, c] * f[4] + X[5, c] * f[5]
    for c in range(3, 6):
        out[c] += X[3, c] * f[3] + X[4, c] * f[4] + X[5, c] * f[5]


@njit(**JIT)
def cross_motion(m, n, out):
    """out = m x n (motion cross product, RBDA eq. 2.31)."""
    out[0] = m[1] * n[2] - m[2] * n[1]
    out[1] = m[2] * n[0] - m[0] * n[2]
    out[2] = m[0] * n[1] - m[1] * n[0]
    out[3] = m[1] * n[5] - m[2] * n[4] + m[4] * n[2] - m[5] * n[1]
    out[4] = m[2] * n[3] - m[0] * n[5] + m[5] * n[0] - m[3] * n[2]
    out[5] = m[0] * n[4] - m[1] * n[3] + m[3] * n[1] - m[4] * n[0]


@njit(**JIT)
def cross_force_add(m, f, out):
    """out += m x* f (force cross product, RBDA eq. 2.32)."""
    out[0] += m[1] * f[2] - m[2] * f[1] + m[4] * f[5] - m[5] * f[4]
    out[1] += m[2] * f[0] - m[0] * f[2] + m[5] * f[3] - m[3] * f[5]
    out[2] += m[0] * f[1] - m[1] * f[0] + m[3] * f[4] - m[4] * f[3]
    out[3] += m[1] * f[5] - m[2] * f[4]
    out[4] += m[2] * f[3] - m[0] * f[5]
    out[5] += m[0] * f[4] - m[1] * f[3]


@njit(**JIT)
def mat6_vec(A, x, out):
    for r in range(6):
        s = 0.0
        for c in range(6):
            s += A[r, c] * x[c]
        out[r] = s


@njit(**JIT)
def congruence_add(X, A, tmp, out):
    """out += X^T A X for 6x6 A (an inertia carried from link to parent coordinates)."""
    # tmp = A X, using X's zero upper-right block
    for r in range(6):
        for c in range(3):
            tmp[r, c] = (A[r, 0] * X[0, c] + A[r, 1] * X[1, c] + A[r, 2] * X[2, c]
                         + A[r, 3] * X[3, c] + A[r, 4] * X[4, c] + A[r, 5] * X[5, c])
        for c in range(3, 6):
            tmp[r, c] = A[r, 3] * X[3, c] + A[r, 4] * X[4, c] + A[r, 5] * X[5, c]
    for r in range(6):
        for c in range(6):
            s = X[3, r] * tmp[3, c] + X[4, r] * tmp[4, c] + X[5, r] * tmp[5, c]
            if r < 3:
                s += X[0, r] * tmp[0, c] + X[1, r] * tmp[1, c] + X[2, r] * tmp[2, c]
            out[r, c] += s


@njit(**JIT)
def forward_kinematics(tree, q, R_up, p_up, X_up, R_world, p_world):
    """Placement of every link in its parent and in the base frame (one forward pass)."""
    nl = tree.parent.shape[0]
    for i in range(nl):
        link_placement(tree, q, i, R_up, p_up)
        plucker(R_up, p_up, i, X_up)
        par = tree.parent[i]
        if par < 0:
            R_world[i, :, :] = R_up[i]
            p_world[i, :] = p_up[i]
        else:
            Rp = R_world[par]
            for r in range(3):
                s = 0.0
                for c in range(3):
                    s += Rp[r, c] * p_up[i, c]
                    R_world[i, r, c] = Rp[r, 0] * R_up[i, 0, c] + Rp[r, 1] * R_up[i, 1, c] + Rp[r, 2] * R_up[i, 2, c]
                p_world[i, r] = p_world[par, r] + s


@njit(**JIT_INLINE)
def placements(tree, q, R_up, p_up, X_up):
    """Placement of every link in its parent only (what the recursions need)."""
    for i in range(tree.parent.shape[0]):
        link_placement(tree, q, i, R_up, p_up)
        plucker(R_up, p_up, i, X_up)
