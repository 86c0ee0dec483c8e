"""Literal Lagrange-Euler dynamics with 4x4 homogeneous transforms (Uicker-Kahn form, as in
seed 003 and Fu, Gonzalez, Lee, Robotics, 1987, section 3.2). O(n^4) and slow: it exists to check
the recursive algorithms, never to run a simulation.

T_i is the base-frame transform of link i, J_i its pseudo-inertia
J_i = [[1/2 tr(I_o) E - I_o, m c], [m c^T, m]], and U_ik = dT_i/dq_k = W_k T_i with
W_k = T_l(k) Q_k T_l(k)^-1 the 4x4 twist of dof k of link l(k) (Q_k the generator of that dof in
the link frame; for revolute joints about z this is the seed's Q = [[0,-1,0,0],[1,0,0,0],0,0]).
Then

    D_jk = sum_i tr(U_ij J_i U_ik^T)
    h_k  = sum_i tr(A_i J_i U_ik^T) - sum_i m_i g^T U_ik r_i

where A_i = d2T_i/dt2 at zero acceleration = sum_jm U_ijm v_j v_m (the seed's U_ijk terms). For
multi-dof links (spherical, free) the same formulas hold with the local (quasi-)velocities, the
derivative of W_k along dof m being the commutator [W_m, W_k].
"""
import numpy as np

from occupant.constants import STANDARD_GRAVITY
from occupant.dynamics.api import link_poses


def _generator(row):
    """4x4 generator of a unit spatial motion along spatial row ``row`` (angular x,y,z, linear x,y,z)."""
    Q = np.zeros((4, 4))
    if row < 3:
        e = np.zeros(3)
        e[row] = 1.0
        Q[:3, :3] = np.array([[0, -e[2], e[1]], [e[2], 0, -e[0]], [-e[1], e[0], 0]])
    else:
        Q[row - 3, 3] = 1.0
    return Q


def _pseudo_inertia(I6):
    m = I6[3, 3]
    mc = np.array([I6[2, 4], I6[0, 5], I6[1, 3]])  # from the m [c]x block
    I_o = I6[:3, :3]
    J = np.zeros((4, 4))
    J[:3, :3] = 0.5 * np.trace(I_o) * np.eye(3) - I_o
    J[:3, 3] = mc
    J[3, :3] = mc
    J[3, 3] = m
    return J


def _setup(model, data, q):
    R, p = link_poses(model, data, q)
    nl, t = model.nl, model.tree
    T = np.zeros((nl, 4, 4))
    T[:, :3, :3], T[:, :3, 3], T[:, 3, 3] = R, p, 1.0
    W = np.zeros((model.nv, 4, 4))
    owner = np.zeros(model.nv, int)
    for i in range(nl):
        Tinv = np.linalg.inv(T[i])
        for k in range(t.nv[i]):
            W[t.vidx[i] + k] = T[i] @ _generator(t.srows[i, k]) @ Tinv
            owner[t.vidx[i] + k] = i
    # dofs that move each link: those of the link itself and of its ancestors
    moves = [[] for _ in range(nl)]
    for i in range(nl):
        j = i
        while j >= 0:
            moves[i] = [t.vidx[j] + k for k in range(t.nv[j])] + moves[i]
            j = t.parent[j]
    J = np.array([_pseudo_inertia(t.inertia[i]) for i in range(nl)])
    return T, W, owner, moves, J


def mass_matrix_le(model, data, q):
    """D(q) by the Lagrange-Euler trace formula."""
    T, W, _, moves, J = _setup(model, data, q)
    D = np.zeros((model.nv, model.nv))
    for i in range(model.nl):
        U = {k: W[k] @ T[i] for k in moves[i]}
        for j in moves[i]:
            for k in moves[i]:
                D[j, k] += np.trace(U[j] @ J[i] @ U[k].T)
    return D


def bias_forces_le(model, data, q, v, gravity=STANDARD_GRAVITY):
    """h(q, v) by the Lagrange-Euler formulas (B0 at rest, uniform gravity)."""
    T, W, owner, moves, J = _setup(model, data, q)
    g = np.append(np.asarray(gravity, float), 0.0)
    h = np.zeros(model.nv)
    for i in range(model.nl):
        Omega = sum((W[m] * v[m] for m in moves[i]), np.zeros((4, 4)))
        dOmega = np.zeros((4, 4))
        for k in moves[i]:
            for m in moves[owner[k]]:
                dOmega += v[k] * v[m] * (W[m] @ W[k] - W[k] @ W[m])
        A = (dOmega + Omega @ Omega) @ T[i]
        r_com = J[i][:, 3]  # m * (c, 1)
        for k in moves[i]:
            U = W[k] @ T[i]
            h[k] += np.trace(A @ J[i] @ U.T) - g @ (U @ r_com)
    return h
