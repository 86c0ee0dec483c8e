"""Compiled spatial-vector operations (Featherstone, Rigid Body Dynamics Algorithms, 2008, ch. 2).

Motion vectors m = (omega, v) and force vectors f = (n, f), both (6,), in (angular, linear) order.
A link's placement in its parent is (R, p): R maps link to parent coordinates and p is the link
origin in parent coordinates; the Plücker motion transform parent -> link is
X = [[R^T, 0], [-R^T [p]x, R^T]] (RBDA eq. 2.24) and X^T carries forces from link to parent.
"""
import numpy as np
from numba import njit

from occupant.jit import JIT, JIT_INLINE, JIT_STAGE

from occupant.model.joint_motion import link_placement

@njit(**JIT_INLINE)
def plucker(R_up, p_up, i, X_up):
    """Fill X_up[i] with the motion transform parent -> link of the placement (R_up[i], p_up[i])."""
    for r in range(3):   # the upper-right block stays zero from make_data
        for col in range(3):
            X_up[i, r, col] = R_up[i, col, r]
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


@njit(**JIT_INLINE)
def placements(tree, q, R_up, p_up, X_up):
    """Placement of every link in its parent only (what the recursions need)."""
    for i in range(tree.parent.shape[0]):
        link_placement(tree, q, i, R_up, p_up)
        plucker(R_up, p_up, i, X_up)


@njit(**JIT_INLINE)
def forward_kinematics(tree, data, q):
    """Kinematics stage, positions: placement of every link in its parent (R_up, p_up, X_up) and
    in B0 (R_base_link, p_base_link), one forward pass; data.q_unit keeps the configuration q the
    placements are of (the constraint rows of couplers read their coordinates there)."""
    for k in range(q.shape[0]):
        data.q_unit[k] = q[k]
    R_up, p_up, X_up = data.R_up, data.p_up, data.X_up
    R_w, p_w = data.R_base_link, data.p_base_link
    for i in range(tree.parent.shape[0]):
        link_placement(tree, q, i, R_up, p_up)
        plucker(R_up, p_up, i, X_up)
        par = tree.parent[i]
        if par < 0:
            for r in range(3):
                p_w[i, r] = p_up[i, r]
                for c in range(3):
                    R_w[i, r, c] = R_up[i, r, c]
        else:
            for r in range(3):
                s = 0.0
                for c in range(3):
                    s += R_w[par, r, c] * p_up[i, c]
                    R_w[i, r, c] = (R_w[par, r, 0] * R_up[i, 0, c] + R_w[par, r, 1] * R_up[i, 1, c]
                                    + R_w[par, r, 2] * R_up[i, 2, c])
                p_w[i, r] = p_w[par, r] + s


@njit(**JIT_STAGE)
def link_velocities(tree, data, v):
    """Kinematics stage, velocities (after the placements): spatial velocity of every link,
    v_i = X_up v_parent + S qdot (B0's velocity data.base[:6] at the root), and the
    velocity-product acceleration c_i = v_i x vJ (RBDA eq. 2.31, table 7.1)."""
    X_up, vel, cvp, base = data.X_up, data.v, data.c, data.base
    parent, srows, nvs, vidx = tree.parent, tree.srows, tree.nv, tree.vidx
    for i in range(parent.shape[0]):
        par = parent[i]
        j0 = j1 = j2 = j3 = j4 = j5 = 0.0
        k0 = vidx[i]
        for k in range(nvs[i]):
            row, val = srows[i, k], v[k0 + k]
            if row == 0:
                j0 += val
            elif row == 1:
                j1 += val
            elif row == 2:
                j2 += val
            elif row == 3:
                j3 += val
            elif row == 4:
                j4 += val
            else:
                j5 += val
        if par < 0:
            m0, m1, m2, m3, m4, m5 = base[0], base[1], base[2], base[3], base[4], base[5]
        else:
            m0, m1, m2, m3, m4, m5 = vel[par, 0], vel[par, 1], vel[par, 2], vel[par, 3], vel[par, 4], vel[par, 5]
        # v_i = X v_parent + vJ   (X's upper-right block is zero)
        w0 = X_up[i, 0, 0] * m0 + X_up[i, 0, 1] * m1 + X_up[i, 0, 2] * m2 + j0
        w1 = X_up[i, 1, 0] * m0 + X_up[i, 1, 1] * m1 + X_up[i, 1, 2] * m2 + j1
        w2 = X_up[i, 2, 0] * m0 + X_up[i, 2, 1] * m1 + X_up[i, 2, 2] * m2 + j2
        l0 = (X_up[i, 3, 0] * m0 + X_up[i, 3, 1] * m1 + X_up[i, 3, 2] * m2 + X_up[i, 3, 3] * m3
              + X_up[i, 3, 4] * m4 + X_up[i, 3, 5] * m5 + j3)
        l1 = (X_up[i, 4, 0] * m0 + X_up[i, 4, 1] * m1 + X_up[i, 4, 2] * m2 + X_up[i, 4, 3] * m3
              + X_up[i, 4, 4] * m4 + X_up[i, 4, 5] * m5 + j4)
        l2 = (X_up[i, 5, 0] * m0 + X_up[i, 5, 1] * m1 + X_up[i, 5, 2] * m2 + X_up[i, 5, 3] * m3
              + X_up[i, 5, 4] * m4 + X_up[i, 5, 5] * m5 + j5)
        vel[i, 0], vel[i, 1], vel[i, 2], vel[i, 3], vel[i, 4], vel[i, 5] = w0, w1, w2, l0, l1, l2
        cvp[i, 0] = w1 * j2 - w2 * j1
        cvp[i, 1] = w2 * j0 - w0 * j2
        cvp[i, 2] = w0 * j1 - w1 * j0
        cvp[i, 3] = w1 * j5 - w2 * j4 + l1 * j2 - l2 * j1
        cvp[i, 4] = w2 * j3 - w0 * j5 + l2 * j0 - l0 * j2
        cvp[i, 5] = w0 * j4 - w1 * j3 + l0 * j1 - l1 * j0


@njit(**JIT_INLINE)
def kinematics(tree, data, q, v):
    """The kinematics stage of the step: link placements, poses in B0 and spatial velocities
    (data.base must hold B0's state)."""
    forward_kinematics(tree, data, q)
    link_velocities(tree, data, v)
