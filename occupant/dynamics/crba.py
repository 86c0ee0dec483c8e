"""Composite-rigid-body algorithm for the joint-space mass matrix D(q).

Featherstone, Rigid Body Dynamics Algorithms (2008), table 6.2.
"""
from numba import njit

from occupant.jit import JIT_INLINE

from occupant.dynamics.spatial_ops import placements, congruence_add


@njit(**JIT_INLINE)
def crba(tree, data, q):
    """Fill data.M (nv, nv) with the mass matrix at q; data.I_C receives the composite inertias."""
    X_up, I_C, M = data.X_up, data.I_C, data.M
    placements(tree, q, data.R_up, data.p_up, X_up)
    nl = tree.parent.shape[0]
    tmp = data.scratch[0, :, :6]
    for i in range(nl):
        for r in range(6):
            for c in range(6):
                I_C[i, r, c] = tree.inertia[i, r, c]
    for i in range(nl - 1, -1, -1):
        par = tree.parent[i]
        if par >= 0:
            congruence_add(X_up[i], I_C[i], tmp, I_C[par])
    M[:, :] = 0.0
    F = data.scratch[0, :, 6:]
    G = data.scratch[1, :, :6]
    for i in range(nl):
        ni = tree.nv[i]
        if ni == 0:
            continue
        vi = tree.vidx[i]
        for k in range(ni):
            for r in range(6):     # element by element: a slice copy would allocate
                F[r, k] = I_C[i, r, tree.srows[i, k]]
        for k in range(ni):
            for l in range(ni):
                M[vi + k, vi + l] = F[tree.srows[i, k], l]
        j = i
        while tree.parent[j] >= 0:
            X = X_up[j]
            for l in range(ni):  # F <- X_j^T F
                for r in range(6):
                    s = X[3, r] * F[3, l] + X[4, r] * F[4, l] + X[5, r] * F[5, l]
                    if r < 3:
                        s += X[0, r] * F[0, l] + X[1, r] * F[1, l] + X[2, r] * F[2, l]
                    G[r, l] = s
            for l in range(ni):
                for r in range(6):
                    F[r, l] = G[r, l]
            j = tree.parent[j]
            vj = tree.vidx[j]
            for k in range(tree.nv[j]):
                for l in range(ni):
                    M[vj + k, vi + l] = F[tree.srows[j, k], l]
                    M[vi + l, vj + k] = F[tree.srows[j, k], l]
