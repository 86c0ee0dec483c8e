"""Recursive Newton-Euler algorithm: inverse dynamics and joint reaction forces.

Featherstone, Rigid Body Dynamics Algorithms (2008), table 5.1, with the base acceleration
a_0 = a_B0 - g carrying gravity and the prescribed vehicle motion (section 5.3).
"""
from numba import njit

from occupant.jit import JIT_INLINE

from occupant.dynamics.spatial_ops import placements, x_mul, xt_mul_add, cross_motion, cross_force_add, mat6_vec


@njit(**JIT_INLINE)
def rnea(tree, data, q, v, vdot):
    """data.tau = D(q) vdot + h(q, v) - J^T f_ext, with B0's state data.base and the external
    forces data.f_ext. Fills data.v, data.a (link spatial velocity and acceleration) and data.f
    (spatial force each joint transmits to its link, link coordinates)."""
    X_up, vel, acc, f, base, f_ext, tau = data.X_up, data.v, data.a, data.f, data.base, data.f_ext, data.tau
    placements(tree, q, data.R_up, data.p_up, X_up)
    nl = tree.parent.shape[0]
    vJ = data.scratch[0, 0]
    tmp = data.scratch[0, 1]
    Iv = data.scratch[0, 2]
    for i in range(nl):
        vJ[:] = 0.0
        k0 = tree.vidx[i]
        for k in range(tree.nv[i]):
            vJ[tree.srows[i, k]] += v[k0 + k]
        par = tree.parent[i]
        if par < 0:
            x_mul(X_up[i], base[0:6], vel[i])
            x_mul(X_up[i], base[6:12], acc[i])
        else:
            x_mul(X_up[i], vel[par], vel[i])
            x_mul(X_up[i], acc[par], acc[i])
        for r in range(6):
            vel[i, r] += vJ[r]
        cross_motion(vel[i], vJ, tmp)
        for r in range(6):
            acc[i, r] += tmp[r]
        for k in range(tree.nv[i]):
            acc[i, tree.srows[i, k]] += vdot[k0 + k]
        mat6_vec(tree.inertia[i], acc[i], f[i])
        mat6_vec(tree.inertia[i], vel[i], Iv)
        cross_force_add(vel[i], Iv, f[i])
        for r in range(6):
            f[i, r] -= f_ext[i, r]
    for i in range(nl - 1, -1, -1):
        k0 = tree.vidx[i]
        for k in range(tree.nv[i]):
            tau[k0 + k] = f[i, tree.srows[i, k]]
        par = tree.parent[i]
        if par >= 0:
            xt_mul_add(X_up[i], f[i], f[par])
