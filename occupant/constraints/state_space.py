"""The state-space method for the multibody DAE (seed 001, chapter 2; Wehage & Haug 1982)

    M(q) vdot + h(q, v) = Q + G^T lambda,   Phi(q) = 0   (G v = 0, G vdot = gamma)

The velocity coordinates are partitioned into dependent ones (D, one per independent
constraint row) and independent ones (I) by Gaussian elimination with complete pivoting of G
(``linalg.full_pivot_rank``): the pivot columns are dependent, the pivot rows R the independent
equations (redundant rows of planar loops drop out). The integrators advance only the reduced
state x = (q_I, v_I, z); every evaluation of its derivative ``reduced_derivative``

1. solves Phi_R(q_I, q_D) = 0 for q_D by Newton's method (G_RD dq_D = -Phi_R),
2. solves the velocity constraints G_RD v_D = -G_RI v_I,
3. solves the augmented equations [M, -G_R^T; G_R, 0] (vdot, lambda) = (Q - h, gamma_R)
   (Q the applied and producer forces of the step's loads stage, h from RNEA, M from CRBA),

so that positions and velocities satisfy the constraints to the Newton tolerance at every
evaluation, and returns x' = (v_I, vdot_I, zdot). The partition is chosen again when the
smallest pivot of G_RD falls well below the one it had when chosen (``partition_quality``).
Only models whose coordinates are all scalar (nq = nv: revolute, prismatic, fixed joints) are
handled, so q and v share their indices.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from occupant.constraints.equations import constraint_terms
from occupant.constraints.linalg import full_pivot_rank, lu_factor, lu_solve
from occupant.dynamics.crba import crba
from occupant.dynamics.rnea import rnea
from occupant.dynamics.spatial_ops import forward_kinematics
from occupant.integrate.pipeline import loads
from occupant.jit import JIT
from occupant.model.bundle import POWER_APPLIED, POWER_BASE

RANK_TOL = 1e-9        # pivots below this fraction of the largest mark redundant constraint rows
REPARTITION = 0.1      # choose a new partition when G_RD's pivot ratio drops below this fraction
NEWTON_TOL = 1e-12     # m (and rad for the dot rows): position-constraint tolerance
NEWTON_MAXIT = 25

# Counters in ConstraintWork.stats
(N_EVAL, N_NEWTON, N_LU, N_PARTITION, N_NEWTON_FAIL) = range(5)

ConstraintWork = namedtuple("ConstraintWork", [
    "q", "v", "vdot", "lam",   # (nq,), (nv,), (nv,), (nc,) the full state being evaluated
    "phi", "G", "gamma",       # (nc,), (nc, nv), (nc,)
    "rows", "dep", "ind",      # (nc,), (nv,), (nv,) int: equation/dependent/independent order
    "sizes",                   # (2,) int: rank r, number of independent coordinates
    "quality",                 # (1,) pivot ratio of G_RD when the partition was chosen
    "A", "piv", "b",           # (nc, nc), (nc,), (nv + nc,) LU scratch
    "K", "kpiv", "Q",          # (nv + nc, nv + nc) augmented matrix, (nv + nc,), (nv,)
    "Gs", "allowed", "zero",   # (nc, nv) scratch, (nv,) int, (nv,) zeros
    "axis", "angular", "dof_link",   # (nv, 3), (nv,) int, (nv,) int
    "w", "od", "al", "ad",     # (nl, 3) link angular and origin velocities and accelerations
    "tmp", "vec",              # (6, 3), (16, 3) small vectors
    "stats",                   # (5,) int counters
])


def make_constraint_work(model):
    """Scratch of the state-space solver for ``model`` (one per run)."""
    nc, nv, nq, nl = len(model.constraint_names), model.nv, model.nq, model.nl
    z = np.zeros
    return ConstraintWork(
        q=z(nq), v=z(nv), vdot=z(nv), lam=z(nc), phi=z(nc), G=z((nc, nv)), gamma=z(nc),
        rows=z(nc, np.int64), dep=z(nv, np.int64), ind=z(nv, np.int64), sizes=z(2, np.int64),
        quality=np.ones(1), A=z((max(nc, 1), max(nc, 1))), piv=z(max(nc, 1), np.int64),
        b=z(nv + nc), K=z((nv + nc, nv + nc)), kpiv=z(nv + nc, np.int64), Q=z(nv),
        Gs=z((nc, nv)), allowed=np.ones(nv, np.int64), zero=z(nv), axis=z((nv, 3)),
        angular=z(nv, np.int64), dof_link=z(nv, np.int64), w=z((nl, 3)), od=z((nl, 3)),
        al=z((nl, 3)), ad=z((nl, 3)), tmp=z((6, 3)), vec=z((16, 3)), stats=z(5, np.int64))


@njit(**JIT)
def evaluate_constraints(bundle, data, cw, q, v):
    """Phi, G and gamma at (q, v) into cw."""
    forward_kinematics(bundle.tree, data, q)
    constraint_terms(bundle.tree, bundle.constraints, data, v, cw)


@njit(**JIT)
def choose_partition(bundle, data, cw, q, v):
    """Choose independent equations and dependent coordinates at q by complete pivoting of G;
    returns the rank."""
    evaluate_constraints(bundle, data, cw, q, v)
    nc, nv = cw.G.shape[0], cw.G.shape[1]
    for i in range(nc):
        for j in range(nv):
            cw.Gs[i, j] = cw.G[i, j]
    r, ratio = full_pivot_rank(cw.Gs, nc, nv, cw.allowed, cw.rows, cw.dep, RANK_TOL)
    # cw.dep holds the column order: pivots (dependent) first, then the independent ones
    n_ind = 0
    for k in range(r, nv):
        cw.ind[n_ind] = cw.dep[k]
        n_ind += 1
    cw.sizes[0], cw.sizes[1] = r, n_ind
    cw.stats[N_PARTITION] += 1
    cw.quality[0] = _pivot_ratio(cw)
    return r


@njit(**JIT)
def _factor_dependent(cw):
    """LU of G_RD into cw.A; returns False if singular."""
    r = cw.sizes[0]
    for a in range(r):
        for c in range(r):
            cw.A[a, c] = cw.G[cw.rows[a], cw.dep[c]]
    cw.stats[N_LU] += 1
    return lu_factor(cw.A, r, cw.piv)


@njit(**JIT)
def _pivot_ratio(cw):
    """Smallest over largest |U_ii| of the LU of G_RD (1 when there are no constraints)."""
    r = cw.sizes[0]
    if r == 0:
        return 1.0
    if not _factor_dependent(cw):
        return 0.0
    lo, hi = np.inf, 0.0
    for a in range(r):
        u = abs(cw.A[a, a])
        lo = min(lo, u)
        hi = max(hi, u)
    return lo / hi


@njit(**JIT)
def partition_degraded(cw):
    """True when G_RD (at the last evaluation) has become much worse conditioned than when the
    partition was chosen."""
    return _pivot_ratio(cw) < REPARTITION * cw.quality[0]


@njit(**JIT)
def solve_positions(bundle, data, cw, q, v):
    """Newton iteration on q_D (in place in q) until every |Phi| <= NEWTON_TOL; returns the
    number of iterations, or -1 if it did not converge. Leaves G and phi evaluated at q."""
    r = cw.sizes[0]
    for it in range(NEWTON_MAXIT + 1):
        evaluate_constraints(bundle, data, cw, q, v)
        err = 0.0
        for i in range(cw.phi.shape[0]):
            err = max(err, abs(cw.phi[i]))
        if err <= NEWTON_TOL:
            return it
        if it == NEWTON_MAXIT or not np.isfinite(err):
            break
        if not _factor_dependent(cw):
            break
        for a in range(r):
            cw.b[a] = -cw.phi[cw.rows[a]]
        lu_solve(cw.A, r, cw.piv, cw.b)
        for a in range(r):
            q[cw.dep[a]] += cw.b[a]
        cw.stats[N_NEWTON] += 1
    cw.stats[N_NEWTON_FAIL] += 1
    return -1


@njit(**JIT)
def solve_velocities(cw, v):
    """v_D from G_RD v_D = -G_RI v_I (G evaluated at the current positions)."""
    r, n_ind = cw.sizes[0], cw.sizes[1]
    if r == 0:
        return True
    if not _factor_dependent(cw):
        return False
    for a in range(r):
        s = 0.0
        for k in range(n_ind):
            s += cw.G[cw.rows[a], cw.ind[k]] * v[cw.ind[k]]
        cw.b[a] = -s
    lu_solve(cw.A, r, cw.piv, cw.b)
    for a in range(r):
        v[cw.dep[a]] = cw.b[a]
    return True


@njit(**JIT)
def constrained_accelerations(bundle, data, cw, t, q, v, z):
    """vdot (cw.vdot) and multipliers (cw.lam) of the constrained system at a consistent (q, v);
    data.zdot receives the producers' state rates and the work rates. Returns False if the
    augmented matrix is singular."""
    tree = bundle.tree
    nv, r = v.shape[0], cw.sizes[0]
    loads(bundle, data, t, q, v, z)     # base motion, kinematics, every producer -> tau, f_ext
    for j in range(nv):
        cw.Q[j] = data.tau[j]
    rnea(tree, data, q, v, cw.zero)     # data.tau = h(q, v) - J^T f_ext
    crba(tree, data, q)
    constraint_terms(tree, bundle.constraints, data, v, cw)   # poses from the loads stage
    n = nv + r
    K = cw.K
    for a in range(nv):
        for c in range(nv):
            K[a, c] = data.M[a, c]
        cw.b[a] = cw.Q[a] - data.tau[a]
    for a in range(r):
        row = cw.rows[a]
        for c in range(nv):
            K[nv + a, c] = cw.G[row, c]
            K[c, nv + a] = -cw.G[row, c]
        for c in range(r):
            K[nv + a, nv + c] = 0.0
        cw.b[nv + a] = cw.gamma[row]
    cw.stats[N_LU] += 1
    if not lu_factor(K, n, cw.kpiv):
        return False
    lu_solve(K, n, cw.kpiv, cw.b)
    for j in range(nv):
        cw.vdot[j] = cw.b[j]
    cw.lam[:] = 0.0
    for a in range(r):
        cw.lam[cw.rows[a]] = cw.b[nv + a]
    # rates: power of the applied forces; B0 at rest relative to the world does no work (a moving
    # B0 would need the joint and cut-joint forces at the ground: not handled yet, see simulate)
    p = 0.0
    for j in range(nv):
        p += bundle.tau_applied[j] * v[j]
    data.power[POWER_APPLIED] = p
    data.power[POWER_BASE] = 0.0
    for k in range(data.power.shape[0]):
        data.zdot[bundle.work_start + k] = data.power[k]
    for j in range(nv):
        data.vdot[j] = cw.vdot[j]
    return True


@njit(**JIT)
def expand_state(bundle, data, cw, t, x, y):
    """Full state y = (q, v, z) from the reduced x = (q_I, v_I, z): positions and velocities
    made consistent (dependent coordinates warm-started from cw.q). Returns False on failure."""
    nq, nv, n_ind = cw.q.shape[0], cw.v.shape[0], cw.sizes[1]
    for k in range(n_ind):
        cw.q[cw.ind[k]] = x[k]
        cw.v[cw.ind[k]] = x[n_ind + k]
    if solve_positions(bundle, data, cw, cw.q, cw.v) < 0:
        return False
    if not solve_velocities(cw, cw.v):
        return False
    for j in range(nq):
        y[j] = cw.q[j]
    for j in range(nv):
        y[nq + j] = cw.v[j]
    for j in range(y.shape[0] - nq - nv):
        y[nq + nv + j] = x[2 * n_ind + j]
    return True


@njit(**JIT)
def reduce_state(cw, y, x):
    """x = (q_I, v_I, z) of the full state y; cw.q, cw.v take y's positions and velocities (the
    warm start of the next Newton iteration)."""
    nq, nv, n_ind = cw.q.shape[0], cw.v.shape[0], cw.sizes[1]
    for j in range(nq):
        cw.q[j] = y[j]
    for j in range(nv):
        cw.v[j] = y[nq + j]
    for k in range(n_ind):
        x[k] = y[cw.ind[k]]
        x[n_ind + k] = y[nq + cw.ind[k]]
    for j in range(y.shape[0] - nq - nv):
        x[2 * n_ind + j] = y[nq + nv + j]


@njit(**JIT)
def reduced_derivative(bundle, data, cw, t, x, xdot):
    """x' = (v_I, vdot_I, zdot) of the reduced state x (module docstring); False when the
    position Newton iteration or an LU failed (the integrator then shortens its step)."""
    nv, n_ind = cw.v.shape[0], cw.sizes[1]
    cw.stats[N_EVAL] += 1
    for k in range(n_ind):
        cw.q[cw.ind[k]] = x[k]
        cw.v[cw.ind[k]] = x[n_ind + k]
    if solve_positions(bundle, data, cw, cw.q, cw.v) < 0:
        return False
    if not solve_velocities(cw, cw.v):
        return False
    z = x[2 * n_ind:]
    if not constrained_accelerations(bundle, data, cw, t, cw.q, cw.v, z):
        return False
    for k in range(n_ind):
        xdot[k] = cw.v[cw.ind[k]]
        xdot[n_ind + k] = cw.vdot[cw.ind[k]]
    for j in range(z.shape[0]):
        xdot[2 * n_ind + j] = data.zdot[j]
    return True


@njit(**JIT)
def violations(bundle, data, cw, Y, out_pos, out_vel):
    """Largest |Phi| and |G v| over the rows at each full state Y[k] (n, nq + nv + nz)."""
    nq, nv = cw.q.shape[0], cw.v.shape[0]
    for k in range(Y.shape[0]):
        q, v = Y[k, :nq], Y[k, nq:nq + nv]
        evaluate_constraints(bundle, data, cw, q.copy(), v.copy())
        a, b = 0.0, 0.0
        for i in range(cw.phi.shape[0]):
            a = max(a, abs(cw.phi[i]))
            s = 0.0
            for j in range(nv):
                s += cw.G[i, j] * v[j]
            b = max(b, abs(s))
        out_pos[k], out_vel[k] = a, b
