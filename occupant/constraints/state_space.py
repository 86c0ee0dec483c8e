"""The state-space method for the multibody DAE (seed 001, chapter 2; Wehage & Haug 1982)

    M(q) vdot + h(q, v) = Q + G^T lambda,   Phi(q, t) = 0   (G v = -Phi_t, G vdot = gamma)

The velocity coordinates are partitioned into dependent ones (D, one per independent
constraint row) and independent ones (I) by Gaussian elimination with complete pivoting of G
(``linalg.full_pivot_rank``): the pivot columns are dependent, the pivot rows R the independent
equations (redundant rows of planar loops drop out). The integrators advance only the reduced
state x = (q_I, v_I, z); every evaluation of its derivative ``reduced_derivative``

1. solves Phi_R(q_I, q_D) = 0 for q_D by Newton's method (G_RD dq_D = -Phi_R),
2. solves the velocity constraints G_RD v_D = -G_RI v_I,
3. solves M vdot + h = Q + G_R^T lambda, G_R vdot = gamma_R in the independent accelerations
   (the reduced mass matrix V^T M V, ``constrained_accelerations``; Q the applied and producer
   forces of the step's loads stage, h from RNEA, M from CRBA),

so that positions and velocities satisfy the constraints to the Newton tolerance at every
evaluation, and returns x' = (v_I, vdot_I, zdot). The partition is chosen again when the
smallest pivot of G_RD, relative to the largest entry of G_R, falls well below its value when
chosen (``partition_degraded``), or when a step cannot be completed (the implicit loop).
Constrained models must have scalar coordinates only (nq = nv: revolute, prismatic, fixed
joints), so q and v share their indices.

Linear non-holonomic rows A(q) v = 0 (``CONSTRAINT_VELOCITY``, after the holonomic rows) remove
velocity coordinates only (Neimark & Fufaev 1972, ch. III; seed 001, chapter 4): the holonomic
rows are partitioned first (dependent positions D_h, r_h of them); the velocity rows, with the
holonomic dependence eliminated (A_eff = A - A_Dh G_RDh^-1 G_R), are then pivoted among the
remaining columns (dependent velocities D_n). The positions integrated are P = all but D_h, the
velocities I = all but D_h and D_n: x = (q_P, v_I, z), x' = (v_P, vdot_I, zdot); the velocity
solve and the augmented equations take the holonomic and velocity rows together.

A model without constraint rows (a tree) takes the tree path: x = y = (q, v, z) itself (q with
its quaternions, kept unit by ``project_state`` after each step), x' = y' from the articulated-
body pipeline (``pipeline.derivative``); cw.sizes says which path (``is_tree``).

Rheonomic rows (joint and marker motions: ``equations``, ``drivers``) are evaluated at cw.time[0],
which ``expand_state``, ``reduced_derivative`` and ``constrained_accelerations`` set to their t
(``choose_partition`` uses the last one); their Phi_t (cw.phit) enters the velocity solve and the
velocity violation, and the power of their constraint forces, lambda . (G v) = -lambda . Phi_t,
the work slot POWER_MOTIONS.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from occupant.constraints.equations import constraint_terms
from occupant.constraints.linalg import full_pivot_rank, lu_factor, lu_solve, lu_solve_transposed
from occupant.dynamics.crba import crba
from occupant.dynamics.rnea import rnea
from occupant.dynamics.spatial_ops import forward_kinematics
from occupant.integrate.pipeline import derivative, loads
from occupant.jit import JIT, JIT_INLINE, JIT_STAGE
from occupant.model.joint_motion import normalize_quaternions
from occupant.model.bundle import CONSTRAINT_VELOCITY, POWER_APPLIED, POWER_BASE, POWER_MOTIONS

RANK_TOL = 1e-9        # pivots below this fraction of the largest mark redundant constraint rows
REPARTITION = 0.1      # choose a new partition when G_RD's pivot ratio drops below this fraction
NEWTON_TOL = 1e-12     # m (and rad for the dot rows): position-constraint tolerance
NEWTON_MAXIT = 25
# A step follows the constraint manifold when the position Newton iteration corrects the
# first-order prediction of q_D by at most TRACK_RATIO of the predicted increment (or
# TRACK_FLOOR, m or rad): the correction is the second-order remainder, 1/2 qdd_D dt^2, a
# fraction ~ omega dt / 2 of the increment. A longer step may land on another root of Phi = 0
# (another assembly mode: an axis reversed, a loop flipped), the more so when no independent
# coordinate is left for the error control to see (a mechanism driven wholly by motions).
TRACK_RATIO = 0.25
TRACK_FLOOR = 1e-3

# Counters in ConstraintWork.stats
(N_EVAL, N_NEWTON, N_LU, N_PARTITION, N_NEWTON_FAIL) = range(5)

ConstraintWork = namedtuple("ConstraintWork", [
    "q", "v", "vdot", "lam",   # (nq,), (nv,), (nv,), (nc,) the full state being evaluated
    "phi", "G", "gamma",       # (nc,), (nc, nv), (nc,)
    "rows", "dep", "ind",      # (nc,), (nv,), (nv,) int: independent equations (holonomic
                               # first), dependent velocities (D_h first, then D_n), independent
    "pos",                     # (nv,) int: the positions integrated, P (D_n first, then I)
    "sizes",                   # (6,) int: r = r_h + r_n, n_ind, entries of x before z (n_pos +
                               # n_ind, or nq + nv on the tree path), 1 on the tree path, r_h,
                               # n_pos
    "iscratch",                # (2, max(nc, nv)) int
    "quality",                 # (1,) pivot ratio of G_RD when the partition was chosen
    "predict",                 # (1,) int: 1 when V holds V_D of the current partition
    "A", "piv", "b",           # (nc, nc), (nc,), (nv + nc,) LU scratch
    "V", "MV", "Mr", "rpiv",   # (nc, nv) V_D, (nv, nv) M V, (nv, nv) V^T M V, (nv,) int
    "f", "c", "Q",             # (nv,) Q - h - M c, (nc,) c_D, (nv,) Q
    "Gs", "allowed", "zero",   # (nc, nv) scratch, (nv,) int, (nv,) zeros
    "axis", "angular", "dof_link",   # (nv, 3), (nv,) int, (nv,) int
    "w", "od", "al", "ad",     # (nl, 3) link angular and origin velocities and accelerations
    "tmp", "vec",              # (6, 3), (30, 3) small vectors
    "stats",                   # (5,) int counters
    "time", "phit",            # (1,) s, the time of the rheonomic rows; (nc,) their Phi_t
    "vt", "qtime",             # (nc,) -G_RD^-1 Phi_t, the dependent velocities the rheonomic
                               # rows alone ask for; (1,) s, the time of the positions in q
    "qpred", "dpred",          # (nc,) the predicted q_D; (1,) largest predicted |dq_D| (-1: none)
    "qbase", "tbase",          # (nc,) q_D before the prediction and (1,) its time: restored
                               # when the evaluation fails
])


def make_constraint_work(model):
    """Scratch of the state-space solver for ``model`` (one per run)."""
    nc, nv, nq, nl = len(model.constraint_names), model.nv, model.nq, model.nl
    z = np.zeros
    return ConstraintWork(
        q=z(nq), v=z(nv), vdot=z(nv), lam=z(nc), phi=z(nc), G=z((nc, nv)), gamma=z(nc),
        rows=z(nc, np.int64), dep=z(nv, np.int64), ind=z(nv, np.int64), sizes=z(6, np.int64), pos=z(nv, np.int64),
        iscratch=z((2, max(nc, nv)), np.int64),
        quality=np.ones(1), predict=z(1, np.int64), A=z((max(nc, 1), max(nc, 1))),
        piv=z(max(nc, 1), np.int64),
        b=z(nv + nc), V=z((nc, nv)), MV=z((nv, nv)), Mr=z((nv, nv)), rpiv=z(nv, np.int64),
        f=z(nv), c=z(max(nc, 1)), Q=z(nv),
        Gs=z((nc, nv)), allowed=np.ones(nv, np.int64), zero=z(nv), axis=z((nv, 3)),
        angular=z(nv, np.int64), dof_link=z(nv, np.int64), w=z((nl, 3)), od=z((nl, 3)),
        al=z((nl, 3)), ad=z((nl, 3)), tmp=z((6, 3)), vec=z((30, 3)), stats=z(5, np.int64),
        time=z(1), phit=z(nc), vt=z(max(nc, 1)), qtime=z(1),
        qpred=z(max(nc, 1)), dpred=-np.ones(1), qbase=z(max(nc, 1)), tbase=z(1))


@njit(**JIT_STAGE)
def constraint_state(bundle, data, cw, q, v):
    """Phi, G and gamma at (q, v) into cw."""
    forward_kinematics(bundle.tree, data, q)
    constraint_terms(bundle.tree, bundle.constraints, data, v, cw)


@njit(**JIT)
def evaluate_constraints(bundle, data, cw, q, v):
    """``constraint_state`` for callers in Python."""
    constraint_state(bundle, data, cw, q, v)


@njit(**JIT_INLINE)
def is_tree(cw):
    """True on the tree path (no constraint rows: x = y)."""
    return cw.sizes[3] == 1


@njit(**JIT)
def choose_partition(bundle, data, cw, q, v):
    """``partition`` for callers in Python."""
    return partition(bundle, data, cw, q, v)


@njit(**JIT_STAGE)
def partition(bundle, data, cw, q, v):
    """Choose independent equations and dependent coordinates at (q, v) by complete pivoting of
    G (holonomic rows, then the velocity rows with the holonomic dependence eliminated: module
    docstring); returns the rank r. A model without constraint rows takes the tree path."""
    nq, nv = cw.q.shape[0], cw.v.shape[0]
    nc = cw.G.shape[0]
    cw.stats[N_PARTITION] += 1
    cw.predict[0] = 0
    if nc == 0:
        cw.sizes[0], cw.sizes[1], cw.sizes[2], cw.sizes[3], cw.sizes[4], cw.sizes[5] = (
            0, nv, nq + nv, 1, 0, nq)
        cw.quality[0] = 1.0
        return 0
    constraint_state(bundle, data, cw, q, v)
    nh = 0
    while nh < nc and bundle.constraints.kind[nh] != CONSTRAINT_VELOCITY:
        nh += 1
    for i in range(nc):
        for j in range(nv):
            cw.Gs[i, j] = cw.G[i, j]
    r_h, ratio = full_pivot_rank(cw.Gs[:nh], nh, nv, cw.allowed, cw.rows, cw.dep, RANK_TOL)
    r = r_h
    if nc > nh:
        # A_eff = A - A_Dh (G_RDh^-1 G_R), column by column, over the columns not in D_h
        if not _factor_dependent(cw, r_h):
            return -1
        mask = cw.iscratch[0]
        for j in range(nv):
            mask[j] = 1
        for a in range(r_h):
            mask[cw.dep[a]] = 0
        for j in range(nv):
            if mask[j] == 0:
                for i in range(nh, nc):
                    cw.Gs[i, j] = 0.0
                continue
            for a in range(r_h):
                cw.b[a] = cw.G[cw.rows[a], j]
            lu_solve(cw.A, r_h, cw.piv, cw.b)
            for i in range(nh, nc):
                s = cw.G[i, j]
                for a in range(r_h):
                    s -= cw.G[i, cw.dep[a]] * cw.b[a]
                cw.Gs[i, j] = s
        rows_n, cols_n = cw.iscratch[1], cw.ind     # cw.ind is rebuilt below
        r_n, _ = full_pivot_rank(cw.Gs[nh:], nc - nh, nv, mask, rows_n, cols_n, RANK_TOL)
        for k in range(r_n):
            cw.rows[r_h + k] = nh + rows_n[k]
            cw.dep[r_h + k] = cols_n[k]
        r = r_h + r_n
    # independent velocities: the columns not dependent; positions: D_n, then those
    mask = cw.iscratch[0]
    for j in range(nv):
        mask[j] = 1
    for a in range(r):
        mask[cw.dep[a]] = 0
    n_ind = 0
    for j in range(nv):
        if mask[j]:
            cw.ind[n_ind] = j
            n_ind += 1
    n_pos = 0
    for a in range(r_h, r):
        cw.pos[n_pos] = cw.dep[a]
        n_pos += 1
    for k in range(n_ind):
        cw.pos[n_pos] = cw.ind[k]
        n_pos += 1
    cw.sizes[0], cw.sizes[1], cw.sizes[2], cw.sizes[3], cw.sizes[4], cw.sizes[5] = (
        r, n_ind, n_pos + n_ind, 0, r_h, n_pos)
    cw.quality[0] = _pivot_ratio(cw)
    return r


@njit(**JIT_STAGE)
def _factor_dependent(cw, r):
    """LU of G_RD into cw.A for the first r equations and dependent coordinates; returns False
    if singular."""
    for a in range(r):
        for c in range(r):
            cw.A[a, c] = cw.G[cw.rows[a], cw.dep[c]]
    cw.stats[N_LU] += 1
    return lu_factor(cw.A, r, cw.piv)


@njit(**JIT_STAGE)
def _pivot_ratio(cw):
    """Smallest |U_ii| of the LU of G_RD over the largest |entry| of the independent rows G_R,
    all columns (1 when there are no constraints): it falls both when G_RD nears singularity
    within itself and when the dependent columns as a whole lose their grip on the rows while
    an independent column takes it over (a coordinate turning back along the constraint)."""
    r = cw.sizes[0]
    if r == 0:
        return 1.0
    if not _factor_dependent(cw, r):
        return 0.0
    lo, hi = np.inf, 0.0
    for a in range(r):
        lo = min(lo, abs(cw.A[a, a]))
        for j in range(cw.G.shape[1]):
            hi = max(hi, abs(cw.G[cw.rows[a], j]))
    return lo / hi


@njit(**JIT_STAGE)
def partition_degraded(cw):
    """True when G_RD (at the last evaluation) has become much worse conditioned than when the
    partition was chosen."""
    if is_tree(cw):
        return False
    return _pivot_ratio(cw) < REPARTITION * cw.quality[0]


@njit(**JIT_STAGE)
def solve_positions(bundle, data, cw, q, v):
    """Newton iteration on q_D (in place in q) until every |Phi| <= NEWTON_TOL; returns the
    number of iterations, or -1 if it did not converge. Leaves G and phi evaluated at q."""
    r = cw.sizes[4]
    for it in range(NEWTON_MAXIT + 1):
        constraint_state(bundle, data, cw, q, v)
        err = 0.0
        for i in range(cw.phi.shape[0]):
            err = max(err, abs(cw.phi[i]))
        if err <= NEWTON_TOL:
            return it
        if it == NEWTON_MAXIT or not np.isfinite(err):
            break
        if not _factor_dependent(cw, r):
            break
        for a in range(r):
            cw.b[a] = -cw.phi[cw.rows[a]]
        lu_solve(cw.A, r, cw.piv, cw.b)
        for a in range(r):
            q[cw.dep[a]] += cw.b[a]
        cw.stats[N_NEWTON] += 1
    cw.stats[N_NEWTON_FAIL] += 1
    return -1


@njit(**JIT_STAGE)
def solve_velocities(cw, v):
    """v_D from G_RD v_D = -G_RI v_I - Phi_t (G evaluated at the current positions)."""
    r, n_ind = cw.sizes[0], cw.sizes[1]
    if r == 0:
        return True
    if not _factor_dependent(cw, r):
        return False
    for a in range(r):
        s = 0.0
        for k in range(n_ind):
            s += cw.G[cw.rows[a], cw.ind[k]] * v[cw.ind[k]]
        cw.b[a] = -s - cw.phit[cw.rows[a]]
    lu_solve(cw.A, r, cw.piv, cw.b)
    for a in range(r):
        v[cw.dep[a]] = cw.b[a]
    return True


@njit(**JIT)
def evaluate_accelerations(bundle, data, cw, t, q, v, z):
    """``constrained_accelerations`` (vdot in cw.vdot, multipliers in cw.lam) for callers in
    Python, after ``choose_partition`` at the same (q, v); compiled only when first called."""
    return constrained_accelerations(bundle, data, cw, t, q, v, z, False)


@njit(**JIT_STAGE)
def constrained_accelerations(bundle, data, cw, t, q, v, z, factored):
    """vdot (cw.vdot) and multipliers (cw.lam) of the constrained system at a consistent (q, v)
    (``factored``: cw.A already holds the LU of G_RD at q); data.zdot receives the producers'
    state rates and the work rates. Returns False if G_RD or the reduced mass matrix is singular.

    State-space form (Wehage & Haug 1982; seed 001, eq. 2.9): vdot = V vdot_I + c with
    V_D = -G_RD^-1 G_RI, V_I = 1, c_D = G_RD^-1 gamma_R, c_I = 0, so that
    (V^T M V) vdot_I = V^T (Q - h - M c), an n_ind x n_ind system instead of the augmented
    (nv + r) one; then G_RD^T lambda_R = (M vdot + h - Q)_D."""
    tree = bundle.tree
    nv, r, n_ind = v.shape[0], cw.sizes[0], cw.sizes[1]
    cw.time[0] = t
    loads(bundle, data, t, q, v, z)     # base motion, kinematics, every producer -> tau, f_ext
    for j in range(nv):
        cw.Q[j] = data.tau[j]
    rnea(tree, data, q, v, cw.zero)     # data.tau = h(q, v) - J^T f_ext
    crba(tree, data, q)
    constraint_terms(tree, bundle.constraints, data, v, cw)   # poses from the loads stage
    if not factored and r > 0 and not _factor_dependent(cw, r):
        return False
    M, V, MV, Mr, f, c = data.M, cw.V, cw.MV, cw.Mr, cw.f, cw.c
    dep, ind, rows = cw.dep, cw.ind, cw.rows
    for j in range(nv):
        f[j] = cw.Q[j] - data.tau[j]
    # V_D and c_D by the factors of G_RD
    for k in range(n_ind):
        for a in range(r):
            cw.b[a] = -cw.G[rows[a], ind[k]]
        lu_solve(cw.A, r, cw.piv, cw.b)
        for a in range(r):
            V[a, k] = cw.b[a]
    # the rheonomic rows' part of the dependent velocities, for the prediction (``_set_independent``)
    for a in range(r):
        cw.vt[a] = -cw.phit[rows[a]]
    lu_solve(cw.A, r, cw.piv, cw.vt)
    cw.predict[0] = 1
    for a in range(r):
        c[a] = cw.gamma[rows[a]]
    lu_solve(cw.A, r, cw.piv, c)
    # M V (the D columns of M skipped where the tree makes them zero) and f - M c
    for i in range(nv):
        for k in range(n_ind):
            MV[i, k] = M[i, ind[k]]
        for a in range(r):
            m = M[i, dep[a]]
            if m != 0.0:
                f[i] -= m * c[a]
                for k in range(n_ind):
                    MV[i, k] += m * V[a, k]
    # V^T M V (symmetric) and V^T (f - M c)
    for k in range(n_ind):
        s = f[ind[k]]
        for a in range(r):
            s += V[a, k] * f[dep[a]]
        cw.b[k] = s
        for l in range(k, n_ind):
            s = MV[ind[k], l]
            for a in range(r):
                s += V[a, k] * MV[dep[a], l]
            Mr[k, l] = s
            Mr[l, k] = s
    cw.stats[N_LU] += 1
    if not lu_factor(Mr, n_ind, cw.rpiv):
        return False
    lu_solve(Mr, n_ind, cw.rpiv, cw.b)
    for k in range(n_ind):
        cw.vdot[ind[k]] = cw.b[k]
    for a in range(r):
        s = c[a]
        for k in range(n_ind):
            s += V[a, k] * cw.b[k]
        cw.vdot[dep[a]] = s
    # multipliers: (M vdot + h - Q)_D = G_RD^T lambda_R
    for a in range(r):
        i = dep[a]
        s = data.tau[i] - cw.Q[i]
        for j in range(nv):
            s += M[i, j] * cw.vdot[j]
        cw.b[a] = s
    lu_solve_transposed(cw.A, r, cw.piv, cw.b)
    cw.lam[:] = 0.0
    for a in range(r):
        cw.lam[rows[a]] = cw.b[a]
    # rates: power of the applied forces; B0 at rest relative to the world does no work (a moving
    # B0 would need the joint and cut-joint forces at the ground: not handled yet, see simulate)
    p = 0.0
    for j in range(nv):
        p += bundle.tau_applied[j] * v[j]
    data.power[POWER_APPLIED] = p
    data.power[POWER_BASE] = 0.0
    p = 0.0
    for a in range(r):
        p -= cw.lam[cw.rows[a]] * cw.phit[cw.rows[a]]
    data.power[POWER_MOTIONS] += p      # after the moving surfaces' contacts (loads stage)
    for k in range(data.power.shape[0]):
        data.zdot[bundle.work_start + k] = data.power[k]
    for j in range(nv):
        data.vdot[j] = cw.vdot[j]
    return True


@njit(**JIT_STAGE)
def expand_state(bundle, data, cw, t, x, y):
    """Full state y = (q, v, z) from the reduced x = (q_P, v_I, z): positions and velocities
    made consistent (dependent coordinates warm-started from cw.q). Returns False on failure.
    Tree path: y = x with unit quaternions."""
    nq, nv, n_ind, n_pos = cw.q.shape[0], cw.v.shape[0], cw.sizes[1], cw.sizes[5]
    if is_tree(cw):
        for j in range(y.shape[0]):
            y[j] = x[j]
        normalize_quaternions(bundle.tree, y[:nq])
        return True
    cw.time[0] = t
    _set_independent(cw, t, x)
    if solve_positions(bundle, data, cw, cw.q, cw.v) < 0:
        return False
    if not solve_velocities(cw, cw.v):
        return False
    for j in range(nq):
        y[j] = cw.q[j]
    for j in range(nv):
        y[nq + j] = cw.v[j]
    for j in range(y.shape[0] - nq - nv):
        y[nq + nv + j] = x[n_pos + n_ind + j]
    return True


@njit(**JIT_INLINE)
def warm_start(cw, t, y):
    """cw.q, cw.v take the positions and velocities of the consistent full state y at t: the
    start of the next prediction and Newton iteration."""
    nq, nv = cw.q.shape[0], cw.v.shape[0]
    cw.qtime[0] = t
    for j in range(nq):
        cw.q[j] = y[j]
    for j in range(nv):
        cw.v[j] = y[nq + j]


@njit(**JIT_STAGE)
def reduce_state(cw, t, y, x):
    """x = (q_P, v_I, z) of the full state y at t; cw.q, cw.v take y's positions and velocities
    (the warm start of the next Newton iteration). Tree path: x = y."""
    nq, nv, n_ind, n_pos = cw.q.shape[0], cw.v.shape[0], cw.sizes[1], cw.sizes[5]
    if is_tree(cw):
        for j in range(y.shape[0]):
            x[j] = y[j]
        return
    warm_start(cw, t, y)
    for k in range(n_pos):
        x[k] = y[cw.pos[k]]
    for k in range(n_ind):
        x[n_pos + k] = y[nq + cw.ind[k]]
    for j in range(y.shape[0] - nq - nv):
        x[n_pos + n_ind + j] = y[nq + nv + j]


@njit(**JIT_STAGE)
def reduced_derivative(bundle, data, cw, t, x, xdot):
    """x' = (v_P, vdot_I, zdot) of the reduced state x (module docstring); False when the
    position Newton iteration or an LU failed (the integrator then shortens its step)."""
    n_ind, n_pos = cw.sizes[1], cw.sizes[5]
    cw.stats[N_EVAL] += 1
    if is_tree(cw):
        derivative(bundle, data, t, x, xdot)
        return True
    cw.time[0] = t
    _set_independent(cw, t, x)
    if solve_positions(bundle, data, cw, cw.q, cw.v) < 0 or not _followed(cw):
        for a in range(cw.sizes[0]):      # the next try starts from the last consistent q_D
            cw.q[cw.dep[a]] = cw.qbase[a]
        cw.qtime[0] = cw.tbase[0]
        return False
    if not solve_velocities(cw, cw.v):
        return False
    z = x[n_pos + n_ind:]
    if not constrained_accelerations(bundle, data, cw, t, cw.q, cw.v, z, True):
        return False
    for k in range(n_pos):
        xdot[k] = cw.v[cw.pos[k]]
    for k in range(n_ind):
        xdot[n_pos + k] = cw.vdot[cw.ind[k]]
    for j in range(z.shape[0]):
        xdot[n_pos + n_ind + j] = data.zdot[j]
    return True


@njit(**JIT_INLINE)
def _set_independent(cw, t, x):
    """cw.q_P, cw.v_I from x at t; the dependent positions, the warm start of the Newton
    iteration, predicted to first order, dq_D = V_D dq_I - G_RD^-1 Phi_t dt (the total
    differential of Phi = 0, with V_D and Phi_t of the last evaluation and dt from the time of
    the positions held), when only holonomic rows are active (else they keep their last values)."""
    n_ind, n_pos, r = cw.sizes[1], cw.sizes[5], cw.sizes[0]
    cw.dpred[0] = -1.0
    cw.tbase[0] = cw.qtime[0]
    for a in range(r):
        cw.qbase[a] = cw.q[cw.dep[a]]
    if cw.predict[0] == 1 and r == cw.sizes[4]:      # holonomic only: P = I
        dt = t - cw.qtime[0]
        cw.dpred[0] = 0.0
        for a in range(r):
            s = cw.vt[a] * dt
            for k in range(n_ind):
                s += cw.V[a, k] * (x[k] - cw.q[cw.ind[k]])
            cw.q[cw.dep[a]] += s
            cw.qpred[a] = cw.q[cw.dep[a]]
            cw.dpred[0] = max(cw.dpred[0], abs(s))
    cw.qtime[0] = t
    for k in range(n_pos):
        cw.q[cw.pos[k]] = x[k]
    for k in range(n_ind):
        cw.v[cw.ind[k]] = x[n_pos + k]


@njit(**JIT_INLINE)
def _followed(cw):
    """False when the position Newton iteration moved q_D further from its first-order
    prediction than TRACK_RATIO of the predicted increment and TRACK_FLOOR: the step was too
    long to follow the constraint manifold (the integrator shortens it). True when no
    prediction was made."""
    if cw.dpred[0] < 0.0:
        return True
    dev = 0.0
    for a in range(cw.sizes[0]):
        dev = max(dev, abs(cw.q[cw.dep[a]] - cw.qpred[a]))
    return dev <= max(TRACK_RATIO * cw.dpred[0], TRACK_FLOOR)


@njit(**JIT_STAGE)
def full_state(cw, x, y):
    """y = (q, v, z) after ``reduced_derivative`` at x (which left cw.q, cw.v consistent)."""
    nq, nv = cw.q.shape[0], cw.v.shape[0]
    if is_tree(cw):
        for j in range(y.shape[0]):
            y[j] = x[j]
        return
    for j in range(nq):
        y[j] = cw.q[j]
    for j in range(nv):
        y[nq + j] = cw.v[j]
    for j in range(y.shape[0] - nq - nv):
        y[nq + nv + j] = x[cw.sizes[2] + j]


@njit(**JIT_STAGE)
def project_state(bundle, cw, x):
    """After an accepted step: quaternions of the tree path back to unit length (the constrained
    path's x has none)."""
    if is_tree(cw):
        normalize_quaternions(bundle.tree, x[:cw.q.shape[0]])


@njit(**JIT_STAGE)
def violation(cw, v, out):
    """Largest |Phi| and |G v + Phi_t| over the rows at the constraint terms evaluated last (cw.phi, cw.G,
    after ``constrained_accelerations`` at a state with velocities v) into out[0], out[1]."""
    a, b = 0.0, 0.0
    for i in range(cw.phi.shape[0]):
        a = max(a, abs(cw.phi[i]))
        s = cw.phit[i]
        for j in range(v.shape[0]):
            s += cw.G[i, j] * v[j]
        b = max(b, abs(s))
    out[0], out[1] = a, b
