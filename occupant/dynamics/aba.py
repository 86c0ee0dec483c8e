"""Articulated-body algorithm: forward dynamics in O(n).

Featherstone, Rigid Body Dynamics Algorithms (2008), table 7.1, for links of up to six dofs with
constant motion subspaces S in link coordinates (so the velocity-product term is c = v x vJ).
"""
import numpy as np
from numba import njit

from occupant.jit import JIT

from occupant.dynamics.spatial_ops import (placements, x_mul, xt_mul_add, cross_motion,
                                           cross_force_add, mat6_vec, congruence_add)


@njit(**JIT)
def small_spd_inverse(A, n, W, out):
    """out[:n, :n] = inverse of the symmetric positive-definite A[:n, :n] (Gauss-Jordan on the
    (6, 12) scratch W)."""
    if n == 1:
        out[0, 0] = 1.0 / A[0, 0]
        return
    for r in range(n):
        for c in range(n):
            W[r, c] = A[r, c]
            W[r, n + c] = 1.0 if r == c else 0.0
    for c in range(n):
        piv = W[c, c]
        for k in range(2 * n):
            W[c, k] /= piv
        for r in range(n):
            if r != c:
                fac = W[r, c]
                if fac != 0.0:
                    for k in range(2 * n):
                        W[r, k] -= fac * W[c, k]
    for r in range(n):
        for c in range(n):
            out[r, c] = W[r, n + c]


@njit(**JIT)
def aba(tree, q, v, tau, base, f_ext, X_up, R_up, p_up, vel, acc, cvp, I_A, p_A, U, D_inv, u, work, vdot):
    """vdot = D(q)^-1 (tau + J^T f_ext - h(q, v)); the other arrays are scratch (``work``: (3, 6, 12),
    so that nothing is allocated per call)."""
    placements(tree, q, R_up, p_up, X_up)
    nl = tree.parent.shape[0]
    W = work[0]
    tmp66 = work[1, :, :6]
    Ia = work[1, :, 6:]
    vJ, Iv, tmp6, pa, Du = work[2, 0, :6], work[2, 1, :6], work[2, 2, :6], work[2, 3, :6], work[2, 4, :6]
    # pass 1: velocities, velocity-product accelerations, rigid-body inertias and bias forces
    for i in range(nl):
        vJ[:] = 0.0
        k0 = tree.vidx[i]
        for k in range(tree.nv[i]):
            vJ[tree.srows[i, k]] += v[k0 + k]
        par = tree.parent[i]
        if par < 0:
            x_mul(X_up[i], base[0:6], vel[i])
        else:
            x_mul(X_up[i], vel[par], vel[i])
        for r in range(6):
            vel[i, r] += vJ[r]
        cross_motion(vel[i], vJ, cvp[i])
        I_A[i, :, :] = tree.inertia[i]
        mat6_vec(tree.inertia[i], vel[i], Iv)
        for r in range(6):
            p_A[i, r] = -f_ext[i, r]
        cross_force_add(vel[i], Iv, p_A[i])
    # pass 2: articulated-body inertias and bias forces, leaves to root
    for i in range(nl - 1, -1, -1):
        n = tree.nv[i]
        k0 = tree.vidx[i]
        for k in range(n):
            rk = tree.srows[i, k]
            for r in range(6):
                U[i, r, k] = I_A[i, r, rk]
            u[i, k] = tau[k0 + k] - p_A[i, rk]
        if n > 0:
            for k in range(n):
                for l in range(n):
                    tmp66[k, l] = U[i, tree.srows[i, k], l]
            small_spd_inverse(tmp66, n, W, D_inv[i])
        par = tree.parent[i]
        if par < 0:
            continue
        # Ia = I_A - U D^-1 U^T ;  pa = p_A + Ia c + U D^-1 u
        for r in range(6):
            for c in range(6):
                Ia[r, c] = I_A[i, r, c]
        for k in range(n):
            s = 0.0
            for l in range(n):
                s += D_inv[i, k, l] * u[i, l]
            Du[k] = s
        for r in range(6):
            for k in range(n):
                s = 0.0
                for l in range(n):
                    s += U[i, r, l] * D_inv[i, l, k]
                tmp6[k] = s
            for c in range(6):
                s = 0.0
                for k in range(n):
                    s += tmp6[k] * U[i, c, k]
                Ia[r, c] -= s
        mat6_vec(Ia, cvp[i], pa)
        for r in range(6):
            s = 0.0
            for k in range(n):
                s += U[i, r, k] * Du[k]
            pa[r] += p_A[i, r] + s
        congruence_add(X_up[i], Ia, tmp66, I_A[par])
        xt_mul_add(X_up[i], pa, p_A[par])
    # pass 3: accelerations, root to leaves
    for i in range(nl):
        par = tree.parent[i]
        if par < 0:
            x_mul(X_up[i], base[6:12], acc[i])
        else:
            x_mul(X_up[i], acc[par], acc[i])
        for r in range(6):
            acc[i, r] += cvp[i, r]
        n = tree.nv[i]
        k0 = tree.vidx[i]
        for k in range(n):
            s = u[i, k]
            for r in range(6):
                s -= U[i, r, k] * acc[i, r]
            Du[k] = s
        for k in range(n):
            s = 0.0
            for l in range(n):
                s += D_inv[i, k, l] * Du[l]
            vdot[k0 + k] = s
            acc[i, tree.srows[i, k]] += s
