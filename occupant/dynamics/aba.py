"""Articulated-body algorithm: forward dynamics in O(n).

Featherstone, Rigid Body Dynamics Algorithms (2008), table 7.1, for links of up to six dofs with
constant motion subspaces S in link coordinates (so the velocity-product term is c = v x vJ).
Written with explicit indices rather than array views: views cost a reference count each, which
dominated the run time of the first version.
"""
import numpy as np
from numba import njit

from occupant.jit import JIT, JIT_INLINE, JIT_STAGE, separate
from occupant.dynamics.spatial_ops import kinematics


@njit(**JIT_STAGE)
def small_spd_inverse(A, n, W, out):
    """out[:n, :n] = inverse of the symmetric positive-definite A[:n, :n]: Cholesky A = L L^T in
    W[:, :6], L^-1 in W[:, 6:], then A^-1 = L^-T L^-1 (Golub & Van Loan, Matrix Computations,
    2013, section 4.2)."""
    if n == 1:
        out[0, 0] = 1.0 / A[0, 0]
        return
    for j in range(n):
        d = A[j, j]
        for k in range(j):
            d -= W[j, k] * W[j, k]
        W[j, j] = np.sqrt(d)
        for r in range(j + 1, n):
            acc = A[r, j]
            for k in range(j):
                acc -= W[r, k] * W[j, k]
            W[r, j] = acc / W[j, j]
    for j in range(n):          # M = L^-1, lower triangular, in W[:, 6:]
        W[j, 6 + j] = 1.0 / W[j, j]
        for r in range(j + 1, n):
            acc = 0.0
            for k in range(j, r):
                acc -= W[r, k] * W[k, 6 + j]
            W[r, 6 + j] = acc / W[r, r]
    for r in range(n):          # out = M^T M
        for c in range(r, n):
            acc = 0.0
            for k in range(c, n):
                acc += W[k, 6 + r] * W[k, 6 + c]
            out[r, c] = acc
            out[c, r] = acc


@separate
def aba(tree, data, tau, vdot):
    """vdot = (D(q) + diag(armature))^-1 (tau + J^T f_ext - h(q, v)) after the kinematics stage
    (``spatial_ops.kinematics``: X_up, link velocities v and c in ``data``). Reads data.base,
    data.f_ext and data.armature (nv,), which adds to the joint-space diagonal as rotor inertia
    does (RBDA section 7.3), which is also how the semi-implicit Euler step treats joint damping
    implicitly (armature = h c). Fills data.I_A, p_A, U, D_inv, u and the link accelerations a
    (minus gravity); nothing is allocated."""
    nl = tree.parent.shape[0]
    parent, srows, nvs, vidx = tree.parent, tree.srows, tree.nv, tree.vidx
    inertia = tree.inertia
    X_up, vel, cvp, f_ext, base, armature = data.X_up, data.v, data.c, data.f_ext, data.base, data.armature
    I_A, p_A, U, D_inv, u, acc = data.I_A, data.p_A, data.U, data.D_inv, data.u, data.a
    W = data.scratch[0]
    T = data.scratch[1]          # T[:, :6] tmp66, T[:, 6:] Ia
    s = data.scratch[2]          # rows: 1 Iv, 2 tmp6, 3 pa, 4 Du, 5 parent vector
    # pass 1: rigid-body inertias and bias forces p_A = v x* (I v) - f_ext (RBDA eq. 2.32)
    for i in range(nl):
        w0, w1, w2, l0, l1, l2 = vel[i, 0], vel[i, 1], vel[i, 2], vel[i, 3], vel[i, 4], vel[i, 5]
        for r in range(6):
            acc_ = 0.0
            for c in range(6):
                I_A[i, r, c] = inertia[i, r, c]
                acc_ += inertia[i, r, c] * vel[i, c]
            s[1, r] = acc_
        f0, f1, f2, f3, f4, f5 = s[1, 0], s[1, 1], s[1, 2], s[1, 3], s[1, 4], s[1, 5]
        p_A[i, 0] = w1 * f2 - w2 * f1 + l1 * f5 - l2 * f4 - f_ext[i, 0]
        p_A[i, 1] = w2 * f0 - w0 * f2 + l2 * f3 - l0 * f5 - f_ext[i, 1]
        p_A[i, 2] = w0 * f1 - w1 * f0 + l0 * f4 - l1 * f3 - f_ext[i, 2]
        p_A[i, 3] = w1 * f5 - w2 * f4 - f_ext[i, 3]
        p_A[i, 4] = w2 * f3 - w0 * f5 - f_ext[i, 4]
        p_A[i, 5] = w0 * f4 - w1 * f3 - f_ext[i, 5]
    # pass 2: articulated-body inertias and bias forces, leaves to root
    for i in range(nl - 1, -1, -1):
        n = nvs[i]
        k0 = vidx[i]
        par = parent[i]
        if n == 1:
            rk = srows[i, 0]
            for r in range(6):
                U[i, r, 0] = I_A[i, r, rk]
            d_inv = 1.0 / (I_A[i, rk, rk] + armature[k0])
            D_inv[i, 0, 0] = d_inv
            u[i, 0] = tau[k0] - p_A[i, rk]
            if par < 0:
                continue
            du = d_inv * u[i, 0]
            # Ia = I_A - U U^T / D ; pa = p_A + Ia c + U u / D
            for r in range(6):
                ur = U[i, r, 0] * d_inv
                for c in range(6):
                    T[r, 6 + c] = I_A[i, r, c] - ur * U[i, c, 0]
            for r in range(6):
                acc_ = p_A[i, r] + U[i, r, 0] * du
                for c in range(6):
                    acc_ += T[r, 6 + c] * cvp[i, c]
                s[3, r] = acc_
        elif n == 3:
            # spherical links: D = S^T I_A S + armature inverted in closed form (adjugate over
            # determinant), Ia = I_A - U D^-1 U^T built symmetric, the loops over dofs unrolled
            a0, a1, a2 = srows[i, 0], srows[i, 1], srows[i, 2]
            for r in range(6):
                U[i, r, 0] = I_A[i, r, a0]
                U[i, r, 1] = I_A[i, r, a1]
                U[i, r, 2] = I_A[i, r, a2]
            u0, u1, u2 = tau[k0] - p_A[i, a0], tau[k0 + 1] - p_A[i, a1], tau[k0 + 2] - p_A[i, a2]
            u[i, 0], u[i, 1], u[i, 2] = u0, u1, u2
            d00, d01, d02 = U[i, a0, 0] + armature[k0], U[i, a0, 1], U[i, a0, 2]
            d11, d12, d22 = U[i, a1, 1] + armature[k0 + 1], U[i, a1, 2], U[i, a2, 2] + armature[k0 + 2]
            c00, c01, c02 = d11 * d22 - d12 * d12, d02 * d12 - d01 * d22, d01 * d12 - d02 * d11
            c11, c12, c22 = d00 * d22 - d02 * d02, d01 * d02 - d00 * d12, d00 * d11 - d01 * d01
            inv_det = 1.0 / (d00 * c00 + d01 * c01 + d02 * c02)
            e00, e01, e02 = c00 * inv_det, c01 * inv_det, c02 * inv_det
            e11, e12, e22 = c11 * inv_det, c12 * inv_det, c22 * inv_det
            D_inv[i, 0, 0], D_inv[i, 0, 1], D_inv[i, 0, 2] = e00, e01, e02
            D_inv[i, 1, 0], D_inv[i, 1, 1], D_inv[i, 1, 2] = e01, e11, e12
            D_inv[i, 2, 0], D_inv[i, 2, 1], D_inv[i, 2, 2] = e02, e12, e22
            if par < 0:
                continue
            du0 = e00 * u0 + e01 * u1 + e02 * u2
            du1 = e01 * u0 + e11 * u1 + e12 * u2
            du2 = e02 * u0 + e12 * u1 + e22 * u2
            for r in range(6):
                ur0, ur1, ur2 = U[i, r, 0], U[i, r, 1], U[i, r, 2]
                w0 = ur0 * e00 + ur1 * e01 + ur2 * e02      # row r of U D^-1
                w1 = ur0 * e01 + ur1 * e11 + ur2 * e12
                w2 = ur0 * e02 + ur1 * e12 + ur2 * e22
                for c in range(r, 6):
                    val = I_A[i, r, c] - (w0 * U[i, c, 0] + w1 * U[i, c, 1] + w2 * U[i, c, 2])
                    T[r, 6 + c] = val
                    T[c, 6 + r] = val
                s[3, r] = p_A[i, r] + ur0 * du0 + ur1 * du1 + ur2 * du2
            for r in range(6):
                acc_ = s[3, r]
                for c in range(6):
                    acc_ += T[r, 6 + c] * cvp[i, c]
                s[3, r] = acc_
        else:
            for k in range(n):
                rk = srows[i, k]
                for r in range(6):
                    U[i, r, k] = I_A[i, r, rk]
                u[i, k] = tau[k0 + k] - p_A[i, rk]
            if n > 0:
                for k in range(n):
                    for l in range(n):
                        T[k, l] = U[i, srows[i, k], l]
                    T[k, k] += armature[k0 + k]
                small_spd_inverse(T, n, W, D_inv[i])
            if par < 0:
                continue
            for k in range(n):
                acc_ = 0.0
                for l in range(n):
                    acc_ += D_inv[i, k, l] * u[i, l]
                s[4, k] = acc_
            for r in range(6):
                for k in range(n):  # row r of U D^-1
                    acc_ = 0.0
                    for l in range(n):
                        acc_ += U[i, r, l] * D_inv[i, l, k]
                    s[2, k] = acc_
                for c in range(6):
                    acc_ = I_A[i, r, c]
                    for k in range(n):
                        acc_ -= s[2, k] * U[i, c, k]
                    T[r, 6 + c] = acc_
            for r in range(6):
                acc_ = p_A[i, r]
                for k in range(n):
                    acc_ += U[i, r, k] * s[4, k]
                for c in range(6):
                    acc_ += T[r, 6 + c] * cvp[i, c]
                s[3, r] = acc_
        # I_A[par] += X^T Ia X ; p_A[par] += X^T pa   (T[:, :6] = Ia X, using X's zero block)
        for r in range(6):
            for c in range(3):
                T[r, c] = (T[r, 6] * X_up[i, 0, c] + T[r, 7] * X_up[i, 1, c] + T[r, 8] * X_up[i, 2, c]
                           + T[r, 9] * X_up[i, 3, c] + T[r, 10] * X_up[i, 4, c] + T[r, 11] * X_up[i, 5, c])
            for c in range(3, 6):
                T[r, c] = T[r, 9] * X_up[i, 3, c] + T[r, 10] * X_up[i, 4, c] + T[r, 11] * X_up[i, 5, c]
        for r in range(6):
            for c in range(r, 6):
                acc_ = X_up[i, 3, r] * T[3, c] + X_up[i, 4, r] * T[4, c] + X_up[i, 5, r] * T[5, c]
                if r < 3:
                    acc_ += X_up[i, 0, r] * T[0, c] + X_up[i, 1, r] * T[1, c] + X_up[i, 2, r] * T[2, c]
                I_A[par, r, c] += acc_
                if c != r:
                    I_A[par, c, r] += acc_
        for c in range(3):
            p_A[par, c] += (X_up[i, 0, c] * s[3, 0] + X_up[i, 1, c] * s[3, 1] + X_up[i, 2, c] * s[3, 2]
                            + X_up[i, 3, c] * s[3, 3] + X_up[i, 4, c] * s[3, 4] + X_up[i, 5, c] * s[3, 5])
        for c in range(3, 6):
            p_A[par, c] += X_up[i, 3, c] * s[3, 3] + X_up[i, 4, c] * s[3, 4] + X_up[i, 5, c] * s[3, 5]
    # pass 3: accelerations, root to leaves
    for i in range(nl):
        par = parent[i]
        for r in range(6):
            s[5, r] = base[6 + r] if par < 0 else acc[par, r]
        for r in range(3):
            acc[i, r] = X_up[i, r, 0] * s[5, 0] + X_up[i, r, 1] * s[5, 1] + X_up[i, r, 2] * s[5, 2] + cvp[i, r]
        for r in range(3, 6):
            acc_ = cvp[i, r]
            for c in range(6):
                acc_ += X_up[i, r, c] * s[5, c]
            acc[i, r] = acc_
        n = nvs[i]
        k0 = vidx[i]
        for k in range(n):
            acc_ = u[i, k]
            for r in range(6):
                acc_ -= U[i, r, k] * acc[i, r]
            s[4, k] = acc_
        for k in range(n):
            acc_ = 0.0
            for l in range(n):
                acc_ += D_inv[i, k, l] * s[4, l]
            vdot[k0 + k] = acc_
        for k in range(n):
            acc[i, srows[i, k]] += vdot[k0 + k]


@njit(**JIT_INLINE)
def base_power(tree, data):
    """Power (W) that B0 delivers to the tree through the joints of the root links, after
    ``aba``: sum over root links of f_i . (X_up_i v_B0), f_i = I_A_i a_i + p_A_i the spatial force
    across joint i (RBDA section 7.3) with gravity folded into a (so f_i is the real joint
    force); the joint's own generalized force times its rate is the producers' power."""
    X_up, base, I_A, p_A, acc = data.X_up, data.base, data.I_A, data.p_A, data.a
    total = 0.0
    for i in range(tree.parent.shape[0]):
        if tree.parent[i] >= 0:
            continue
        for r in range(6):
            f = p_A[i, r]
            for c in range(6):
                f += I_A[i, r, c] * acc[i, c]
            vb = 0.0   # (X_up v_B0)_r, X_up's upper-right block is zero
            for c in range(3 if r < 3 else 6):
                vb += X_up[i, r, c] * base[c]
            total += f * vb
    return total


@njit(**JIT)
def forward_dynamics_aba(tree, data, q, v, tau):
    """Kinematics stage then ``aba``: data.vdot at (q, v, tau), B0's state and f_ext in data."""
    kinematics(tree, data, q, v)
    aba(tree, data, tau, data.vdot)
