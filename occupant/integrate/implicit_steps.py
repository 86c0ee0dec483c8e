"""Compiled adaptive steps of the implicit integrators on the reduced state x = (q_I, v_I, z) of
the state-space method (``occupant.constraints.state_space``): each evaluation of x' solves the
position and velocity constraints inside the integrator's Newton iteration (the double loop of
seed 001, section 3.2). The Jacobian df/dx is taken by forward differences of the reduced
derivative (Hairer & Wanner, Solving ODEs II, 1996, section IV.8), one column per coordinate.

Methods (each with error control and step-size selection):
- Newmark (beta, gamma) on the accelerations, local error h^2 (beta - 1/6)(a_n+1 - a_n)
  (Zienkiewicz & Xie, Earthquake Eng. Struct. Dyn. 20, 1991);
- Radau IIA, 3 stages, order 5, simplified Newton on the stage increments, solved as one real
  and one complex n x n system in the eigenbasis of the method's matrix, and the embedded
  error estimate of Hairer & Wanner II, section IV.8 (eqs. 8.11, 8.17-8.20);
- BDF of orders 1-5 in backward-difference form with quasi-constant step size and order
  selection (Shampine & Reichelt, "The MATLAB ODE suite", SIAM J. Sci. Comput. 18, 1997, 2.3).

The Jacobian's functions are inlined into the steps (each separately compiled function that
reaches the force pipeline compiles all of it again: numba links a callee's code into every
caller).
Each step function takes many attempts until one is accepted; ``par`` holds (rtol, atol,
h_max, t_max, Newmark beta, gamma) and ``out`` receives (h taken, h proposed next, error norm);
counters are in ``w.stats`` (STAT_*). The work arrays are sized for the largest reduced state;
a step uses their first n = len(x) entries.

Jacobian and factorisation reuse (as RADAU5, Hairer & Wanner II, IV.8): the Jacobian is kept
from step to step while the Newton iterations contract fast (rate below JACOBIAN_RATE) and is
taken afresh, at the same step size, when Newton fails with an old one; the iteration matrices
are factorised again only when h or the Jacobian changed, and a proposed step within
[1, STEP_KEEP] of the current one keeps the current step (and its factors). Only the first m
entries of x are factorised (``coupled_size``): the work accumulators at the end of z are
quadratures (zero columns of J), solved by back-substitution after them.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from occupant.constraints.linalg import lu_factor, lu_solve
from occupant.constraints.state_space import reduced_derivative
from occupant.jit import JIT_INLINE, JIT_STAGE

(STAT_STEPS, STAT_REJECTED, STAT_NEWTON, STAT_LU, STAT_JACOBIAN, STAT_NEWTON_FAIL) = range(6)
OK, FAILED = 0, 1
H_MIN = 1e-12      # s, smallest step tried before the run is declared failed
MAX_NEWTON = 8
JACOBIAN_RATE = 0.1   # Newton contraction rate above which the Jacobian is taken again [E]
STEP_KEEP = 1.2       # HNW II, IV.8 (RADAU5's quot2)

IntegratorWork = namedtuple("IntegratorWork", [
    "J",      # (n, n) df/dx
    "E",      # (n, n) real iteration matrix (Radau: gamma / h - J, BDF: 1 / c - J, factors of the
              # first m rows; Newmark: its Newton matrix)
    "epiv",   # (n,) int
    "C",      # (n, n) complex: Radau's (alpha + i beta) / h - J, factors
    "cpiv",   # (n,) int
    "Z", "dZ", "F", "W",   # (3n,) stage increments, their correction, stage derivatives,
                           # Radau's transformed increments
    "cb",     # (n,) complex scratch
    "D",      # (8, n) BDF backward differences; Radau: the last step's stage increments
    "vec",    # (8, n) vectors: 0 f(x), 1 trial x, 2 f(trial), 3 error, 4 scale, 5-7 scratch
    "RU",     # (6, 6) BDF step-change matrix
    "M",      # (2, 6, 6) scratch for RU
    "col",    # (6,) scratch
    "state",  # (4,) int: BDF order, steps at constant h, Jacobian current (1) or stale (0),
              # Jacobian taken in this step (1)
    "stats",  # (6,) int counters STAT_*
    "fs",     # (6,) float: h (or BDF's h / gamma) the factors in E and C belong to (-1: none),
              # last Newton rate, h of the last accepted Radau step (0: none yet), Radau's
              # Newton error factor theta / (1 - theta) of the last step (1 at a restart),
              # h and error norm (at least 1e-2) of the last accepted Radau step
])


def make_integrator_work(n):
    z = np.zeros
    return IntegratorWork(J=z((n, n)), E=z((n, n)), epiv=z(n, np.int64),
                          C=z((n, n), np.complex128), cpiv=z(n, np.int64), Z=z(3 * n),
                          dZ=z(3 * n), F=z(3 * n), W=z(3 * n), cb=z(n, np.complex128),
                          D=z((8, n)), vec=z((8, n)), RU=z((6, 6)), M=z((2, 6, 6)), col=z(6),
                          state=z(4, np.int64), stats=z(6, np.int64), fs=z(6))


@njit(**JIT_STAGE)
def reset_work(w):
    """Forget the Jacobian, the factors and the step history (a restart)."""
    w.state[2] = 0
    w.state[3] = 0
    w.fs[0] = -1.0
    w.fs[1] = 0.0
    w.fs[2] = 0.0
    w.fs[3] = 1.0
    w.fs[4] = 0.0


@njit(**JIT_STAGE)
def _norm(e, scale):
    s = 0.0
    for j in range(e.shape[0]):
        r = e[j] / scale[j]
        s += r * r
    return np.sqrt(s / max(e.shape[0], 1))


@njit(**JIT_STAGE)
def _scale(x, y, rtol, atol, out):
    for j in range(x.shape[0]):
        out[j] = atol + rtol * max(abs(x[j]), abs(y[j]))


@njit(**JIT_INLINE)
def fd_jacobian(bundle, data, cw, t, x, f0, J, xt, ft):
    """J = df/dx by forward differences, column j stepped by sqrt(eps) max(|x_j|, 1e-3). The
    work accumulators at the end of z feed nothing back: their columns are zero."""
    n = x.shape[0]
    n_fd = coupled_size(bundle, cw, n)
    for j in range(n):
        xt[j] = x[j]
    for j in range(n_fd, n):
        for i in range(n):
            J[i, j] = 0.0
    for j in range(n_fd):
        step = 1.5e-8 * max(abs(x[j]), 1e-3)
        xt[j] = x[j] + step
        if not reduced_derivative(bundle, data, cw, t, xt, ft):
            return False
        for i in range(n):
            J[i, j] = (ft[i] - f0[i]) / step
        xt[j] = x[j]
    return True


@njit(**JIT_INLINE)
def _update_jacobian(bundle, data, cw, w, t, x, f0):
    """Take the Jacobian at (t, x) unless the kept one is current; False on failure."""
    if w.state[2] == 1:
        return True
    n = x.shape[0]
    if not fd_jacobian(bundle, data, cw, t, x, f0, w.J, w.vec[5][:n], w.vec[6][:n]):
        return False
    w.stats[STAT_JACOBIAN] += 1
    w.state[2] = 1
    w.state[3] = 1
    w.fs[0] = -1.0
    return True


@njit(**JIT_STAGE)
def _newton_rate(it, dn, prev, tol):
    """(converged, diverging) after Newton iteration ``it`` with increment norm dn (the previous
    one prev): converged when the predicted remaining error theta / (1 - theta) dn is below tol
    (HNW II, IV.8, eq. 8.10)."""
    if not np.isfinite(dn):
        return False, True
    if it == 0:
        return dn < 1e-3 * tol, False
    theta = dn / prev
    if theta >= 1.0:
        return False, True
    return theta / (1.0 - theta) * dn < tol, False


@njit(**JIT_STAGE)
def _newton_failed(w, h):
    """A Newton iteration that did not converge: with an old Jacobian take it again at the same
    h, else halve h. Returns the step to try."""
    w.stats[STAT_NEWTON_FAIL] += 1
    w.stats[STAT_REJECTED] += 1
    if w.state[3] == 0:
        w.state[2] = 0
        return h
    return 0.5 * h


@njit(**JIT_STAGE)
def _step_factor(err, order):
    """h_new / h from the error norm of a method whose error goes as h^order."""
    return 5.0 if err == 0.0 else min(5.0, 0.9 * err ** (-1.0 / order))


@njit(**JIT_STAGE)
def _accepted(w, h, factor, rate):
    """Bookkeeping of an accepted step; returns the step proposed next, h * factor (h kept when
    factor is within [1, STEP_KEEP] and the Jacobian stays)."""
    w.stats[STAT_STEPS] += 1
    w.state[3] = 0
    w.fs[1] = rate
    if rate > JACOBIAN_RATE:
        w.state[2] = 0
    if 1.0 <= factor <= STEP_KEEP and w.state[2] == 1:
        return h
    return h * factor


# ---------------------------------------------------------------------------------------------
# Newmark

@njit(**JIT_STAGE)
def newmark_step(bundle, data, cw, w, t, x, f0, h, par, x_new, out):
    """One accepted Newmark step from (t, x) with f0 = x'(t); h the proposed step;
    beta, gamma = par[4], par[5]."""
    rtol, atol, h_max, t_max, beta, gamma = par[0], par[1], par[2], par[3], par[4], par[5]
    n = x.shape[0]
    n_ind = cw.sizes[1]
    nu = n - n_ind                  # unknowns: accelerations a_I and z rates
    u, fu, scale = w.Z[:nu], w.vec[2][:n], w.vec[4][:n]
    du = w.dZ[:nu]
    newton_tol = max(10 * 2.2e-16 / rtol, min(0.03, np.sqrt(rtol)))
    h = min(h, h_max, t_max - t)
    while True:
        if h < H_MIN:
            return FAILED
        if not _update_jacobian(bundle, data, cw, w, t, x, f0):
            return FAILED
        if w.fs[0] != h:
            # Newton matrix N = I - d f_u / d u
            for r in range(nu):
                fr = n_ind + r
                for c in range(nu):
                    if c < n_ind:
                        val = w.J[fr, c] * h * h * beta + w.J[fr, n_ind + c] * h * gamma
                    else:
                        val = w.J[fr, n_ind + c] * h * gamma
                    w.E[r, c] = (1.0 if r == c else 0.0) - val
            w.stats[STAT_LU] += 1
            w.fs[0] = h if lu_factor(w.E, nu, w.epiv) else -2.0
        for r in range(nu):
            u[r] = f0[n_ind + r]        # predictor: a_n+1 = a_n
        _scale(x, x, rtol, atol, scale)
        converged = False
        prev, rate = 0.0, 0.0
        for it in range(MAX_NEWTON):
            if w.fs[0] != h:            # singular Newton matrix
                break
            _newmark_state(x, f0, u, h, beta, gamma, n_ind, x_new)
            if not reduced_derivative(bundle, data, cw, t + h, x_new, fu):
                break
            for r in range(nu):
                du[r] = fu[n_ind + r] - u[r]
            lu_solve(w.E, nu, w.epiv, du)
            s = 0.0
            for r in range(nu):
                u[r] += du[r]
                if r < n_ind:
                    a = du[r] * h * h * beta / scale[r]
                    b = du[r] * h * gamma / scale[n_ind + r]
                    s += a * a + b * b
                else:
                    b = du[r] * h * gamma / scale[n_ind + r]
                    s += b * b
            dn = np.sqrt(s / n)
            w.stats[STAT_NEWTON] += 1
            converged, diverging = _newton_rate(it, dn, prev, newton_tol)
            if it > 0:
                rate = dn / prev
            if converged or diverging:
                break
            prev = dn
        if not converged:
            h = _newton_failed(w, h)
            continue
        _newmark_state(x, f0, u, h, beta, gamma, n_ind, x_new)
        # local error of the positions (Zienkiewicz & Xie 1991)
        _scale(x, x_new, rtol, atol, scale)
        s = 0.0
        for r in range(n_ind):
            er = h * h * (beta - 1.0 / 6.0) * (u[r] - f0[n_ind + r]) / scale[r]
            s += er * er
        err = np.sqrt(s / max(n_ind, 1))
        if not err <= 1.0:
            w.stats[STAT_REJECTED] += 1
            h *= 0.2 if not np.isfinite(err) else max(0.2, 0.9 * err ** (-1.0 / 3.0))
            continue
        out[0] = h
        out[1] = _accepted(w, h, _step_factor(err, 3.0), rate)
        out[2] = err
        return OK


@njit(**JIT_STAGE)
def _newmark_state(x, f0, u, h, beta, gamma, n_ind, x_new):
    """x_n+1 of the Newmark formulas for the unknowns u = (a_n+1, zdot_n+1)."""
    for k in range(n_ind):
        a0, a1 = f0[n_ind + k], u[k]
        x_new[k] = x[k] + h * x[n_ind + k] + h * h * ((0.5 - beta) * a0 + beta * a1)
        x_new[n_ind + k] = x[n_ind + k] + h * ((1.0 - gamma) * a0 + gamma * a1)
    for k in range(2 * n_ind, x.shape[0]):
        x_new[k] = x[k] + h * ((1.0 - gamma) * f0[k] + gamma * u[k - n_ind])


# ---------------------------------------------------------------------------------------------
# Radau IIA (Hairer & Wanner II, section IV.5 table 5.6 and section IV.8)

S6 = np.sqrt(6.0)
RADAU_C = np.array([(4.0 - S6) / 10.0, (4.0 + S6) / 10.0, 1.0])
RADAU_A = np.array([
    [(88.0 - 7.0 * S6) / 360.0, (296.0 - 169.0 * S6) / 1800.0, (-2.0 + 3.0 * S6) / 225.0],
    [(296.0 + 169.0 * S6) / 1800.0, (88.0 + 7.0 * S6) / 360.0, (-2.0 - 3.0 * S6) / 225.0],
    [(16.0 - S6) / 36.0, (16.0 + S6) / 36.0, 1.0 / 9.0]])
# embedded error estimate: err = (I - h g0 J)^-1 (g0 h f(x0) + sum_i e_i Z_i), g0 the real
# eigenvalue of A^-1 inverted, e = g0 (-13 - 7 sqrt6, -13 + 7 sqrt6, -1) / 3 (HNW II, IV.8)
RADAU_G0 = 1.0 / (3.0 + 3.0 ** (2.0 / 3.0) - 3.0 ** (1.0 / 3.0))
RADAU_E = RADAU_G0 * np.array([-13.0 - 7.0 * S6, -13.0 + 7.0 * S6, -1.0]) / 3.0


def _radau_transform():
    """T with T^-1 A^-1 T = [[gamma, 0, 0], [0, alpha, -beta], [0, beta, alpha]] (A^-1's real
    eigenvalue gamma = 1 / g0 and its complex pair alpha +- i beta; HNW II, IV.8, eq. 8.11),
    so that the 3n x 3n Newton system splits into one real and one complex n x n system."""
    lam, vec = np.linalg.eig(np.linalg.inv(RADAU_A))
    k, c = int(np.argmin(np.abs(lam.imag))), int(np.argmax(lam.imag))
    T = np.column_stack([vec[:, k].real, vec[:, c].real, vec[:, c].imag])
    TI = np.linalg.inv(T)
    L = TI @ np.linalg.inv(RADAU_A) @ T
    gamma, alpha, beta = L[0, 0], L[1, 1], L[2, 1]
    target = np.array([[gamma, 0, 0], [0, alpha, -beta], [0, beta, alpha]])
    assert np.allclose(L, target, atol=1e-12) and abs(gamma * RADAU_G0 - 1.0) < 1e-12
    return T, TI, 1.0 / RADAU_G0, alpha, beta


RADAU_T, RADAU_TI, RADAU_GAMMA, RADAU_ALPHA, RADAU_BETA = _radau_transform()


@njit(**JIT_STAGE)
def coupled_size(bundle, cw, n):
    """m: the entries of x that feed back into x' (the work accumulators at the end of z are
    quadratures: nothing depends on them, their columns of J are zero)."""
    return min(n, cw.sizes[2] + bundle.work_start)


@njit(**JIT_STAGE)
def factor_shifted(J, m, sigma, E, piv):
    """LU of sigma I - J over the first m coordinates into E (real or complex sigma)."""
    for i in range(m):
        for j in range(m):
            E[i, j] = -J[i, j]
        E[i, i] += sigma
    return lu_factor(E, m, piv)


@njit(**JIT_STAGE)
def solve_shifted(E, piv, J, m, sigma, b):
    """Solve (sigma I - J) x = b in place with the factors of ``factor_shifted``: the first m
    entries by the LU, the quadratures after them (J zero in their columns) by
    x_i = (b_i + J_i,:m x_:m) / sigma (block back-substitution)."""
    lu_solve(E, m, piv, b)
    for i in range(m, b.shape[0]):
        s = b[i]
        for j in range(m):
            s += J[i, j] * b[j]
        b[i] = s / sigma


@njit(**JIT_STAGE)
def _radau_start(Z, n, ratio):
    """Starting stage increments: the last step's collocation polynomial through (0, 0),
    (c_i, Z_i), extrapolated to the new stages 1 + c_i ratio (ratio = h_new / h_old) and taken
    relative to its end Z_3 (HNW II, IV.8, starting values); Z in place."""
    c1, c2 = RADAU_C[0], RADAU_C[1]
    for i in range(n):
        z1, z2, z3 = Z[i], Z[n + i], Z[2 * n + i]
        for a in range(3):
            s = 1.0 + RADAU_C[a] * ratio
            # Lagrange basis on the nodes 0, c1, c2, 1 (the node 0 carries the value 0)
            l1 = s * (s - c2) * (s - 1.0) / (c1 * (c1 - c2) * (c1 - 1.0))
            l2 = s * (s - c1) * (s - 1.0) / (c2 * (c2 - c1) * (c2 - 1.0))
            l3 = s * (s - c1) * (s - c2) / ((1.0 - c1) * (1.0 - c2))
            Z[a * n + i] = l1 * z1 + l2 * z2 + l3 * z3 - z3


@njit(**JIT_STAGE)
def radau_step(bundle, data, cw, w, t, x, f0, h, par, x_new, out):
    """One accepted Radau IIA step from (t, x) with f0 = x'(t); h the proposed step. Simplified
    Newton on the stage increments Z in the transformed variables W = T^-1 Z (HNW II, IV.8):
    (gamma / h - J) dW_1 and ((alpha + i beta) / h - J) (dW_2 + i dW_3), two n x n systems."""
    rtol, atol, h_max, t_max = par[0], par[1], par[2], par[3]
    n = x.shape[0]
    m = coupled_size(bundle, cw, n)
    Z, dZ, F, W, cb = w.Z[:3 * n], w.dZ[:3 * n], w.F[:3 * n], w.W[:3 * n], w.cb[:n]
    xs, scale, e = w.vec[1][:n], w.vec[4][:n], w.vec[3][:n]
    C, E, T, TI = RADAU_C, RADAU_E, RADAU_T, RADAU_TI
    newton_tol = max(10 * 2.2e-16 / rtol, min(0.03, np.sqrt(rtol)))
    h = min(h, h_max, t_max - t)
    Z0 = w.D[:3, :n]                 # the last step's stage increments (starting values)
    h_last = w.fs[2]
    if h_last > 0.0:
        for a in range(3):
            for i in range(n):
                Z0[a, i] = Z[a * n + i]
    rejected = False
    while True:
        if h < H_MIN:
            return FAILED
        if not _update_jacobian(bundle, data, cw, w, t, x, f0):
            return FAILED
        s1 = RADAU_GAMMA / h
        s2 = complex(RADAU_ALPHA / h, RADAU_BETA / h)
        if w.fs[0] != h:
            ok = factor_shifted(w.J, m, s1, w.E, w.epiv)
            ok = factor_shifted(w.J, m, s2, w.C, w.cpiv) and ok
            w.stats[STAT_LU] += 2
            w.fs[0] = h if ok else -2.0
        if h_last > 0.0:
            for a in range(3):
                for i in range(n):
                    Z[a * n + i] = Z0[a, i]
            _radau_start(Z, n, h / h_last)
        else:
            Z[:] = 0.0
        for i in range(n):
            for a in range(3):
                W[a * n + i] = TI[a, 0] * Z[i] + TI[a, 1] * Z[n + i] + TI[a, 2] * Z[2 * n + i]
        _scale(x, x, rtol, atol, scale)
        converged = False
        prev, rate, thq_old = 0.0, 0.0, 0.0
        # converged when the predicted remaining error theta / (1 - theta) |dZ| is below tol,
        # with the last step's theta until this step has its own (RADAU5's FACCON, HNW II,
        # IV.8, eq. 8.10): a well contracting iteration stops after one correction
        faccon = max(w.fs[3], 2.2e-16) ** 0.8
        for it in range(MAX_NEWTON):
            if w.fs[0] != h:            # singular iteration matrix
                break
            good = True
            for a in range(3):
                for i in range(n):
                    xs[i] = x[i] + Z[a * n + i]
                if not reduced_derivative(bundle, data, cw, t + C[a] * h, xs, F[a * n:(a + 1) * n]):
                    good = False
                    break
            if not good:
                break
            # right sides -(Lambda / h) W + T^-1 F, real part in dZ[:n], complex pair in cb
            for i in range(n):
                f1, f2, f3 = F[i], F[n + i], F[2 * n + i]
                w1, w2, w3 = W[i], W[n + i], W[2 * n + i]
                g1 = TI[0, 0] * f1 + TI[0, 1] * f2 + TI[0, 2] * f3
                g2 = TI[1, 0] * f1 + TI[1, 1] * f2 + TI[1, 2] * f3
                g3 = TI[2, 0] * f1 + TI[2, 1] * f2 + TI[2, 2] * f3
                dZ[i] = g1 - s1 * w1
                cb[i] = complex(g2 - (RADAU_ALPHA * w2 - RADAU_BETA * w3) / h,
                                g3 - (RADAU_BETA * w2 + RADAU_ALPHA * w3) / h)
            solve_shifted(w.E, w.epiv, w.J, m, s1, dZ[:n])
            solve_shifted(w.C, w.cpiv, w.J, m, s2, cb)
            s = 0.0
            for i in range(n):
                d1, d2, d3 = dZ[i], cb[i].real, cb[i].imag
                W[i] += d1
                W[n + i] += d2
                W[2 * n + i] += d3
                for a in range(3):
                    d = T[a, 0] * d1 + T[a, 1] * d2 + T[a, 2] * d3
                    Z[a * n + i] += d
                    r = d / scale[i]
                    s += r * r
            dn = np.sqrt(s / (3 * n))
            w.stats[STAT_NEWTON] += 1
            if not np.isfinite(dn):
                break
            if it > 0:
                thq = dn / prev
                rate = thq if it == 1 else np.sqrt(thq * thq_old)
                thq_old = thq
                if rate >= 0.99:
                    break
                faccon = rate / (1.0 - rate)
            if faccon * dn <= newton_tol:
                converged = True
                break
            prev = max(dn, 2.2e-16)
        w.fs[3] = faccon
        if not converged:
            h = _newton_failed(w, h)
            continue
        for i in range(n):
            x_new[i] = x[i] + Z[2 * n + i]
        # error estimate (I - h g0 J)^-1 (g0 h f0 + sum e_i Z_i) = (gamma / h - J)^-1 (...) / (h g0)
        for i in range(n):
            e[i] = (RADAU_G0 * h * f0[i] + E[0] * Z[i] + E[1] * Z[n + i]
                    + E[2] * Z[2 * n + i]) / (h * RADAU_G0)
        solve_shifted(w.E, w.epiv, w.J, m, s1, e)
        _scale(x, x_new, rtol, atol, scale)
        err = _norm(e, scale)
        if not err <= 1.0:
            w.stats[STAT_REJECTED] += 1
            rejected = True
            h *= 0.2 if not np.isfinite(err) else max(0.2, 0.9 * err ** -0.25)
            continue
        factor = _step_factor(err, 4.0)
        if w.fs[4] > 0.0:
            # Gustafsson's predictive controller from the last two accepted steps (HNW II,
            # IV.8, eq. 8.25, as RADAU5), its change limited to [1/5, 8]
            gus = h / w.fs[4] * (w.fs[5] / (err * err)) ** 0.25 * 0.9 if err > 0.0 else 8.0
            factor = min(factor, max(0.2, min(8.0, gus)))
        if rejected:                   # no growth right after a rejection (as RADAU5)
            factor = min(factor, 1.0)
        w.fs[4] = h
        w.fs[5] = max(err, 1e-2)
        out[0] = h
        out[1] = _accepted(w, h, factor, rate)
        out[2] = err
        w.fs[2] = h
        return OK


# ---------------------------------------------------------------------------------------------
# BDF, orders 1-5, backward differences D[j] = nabla^j x_n h-scaled (Shampine & Reichelt 1997)

MAX_ORDER = 5


@njit(**JIT_STAGE)
def _bdf_gamma(k):
    s = 0.0
    for j in range(1, k + 1):
        s += 1.0 / j
    return s


@njit(**JIT_STAGE)
def _step_change_matrix(order, factor, out):
    """out[:order+1, :order+1] = cumulative product down the rows of
    M[i, j] = (i - 1 - factor j) / i (i >= 1), M[0, j] = 1."""
    for j in range(order + 1):
        out[0, j] = 1.0
    for i in range(1, order + 1):
        for j in range(order + 1):
            out[i, j] = out[i - 1, j] * (i - 1 - factor * j) / i


@njit(**JIT_STAGE)
def bdf_rescale(w, n, order, factor):
    """Change the step of the difference array by ``factor`` (D[:order+1] <- (R U)^T D)."""
    R, U = w.M[0], w.M[1]
    _step_change_matrix(order, factor, R)
    _step_change_matrix(order, 1.0, U)
    for i in range(order + 1):
        for j in range(order + 1):
            s = 0.0
            for k in range(order + 1):
                s += R[i, k] * U[k, j]
            w.RU[i, j] = s
    tmp = w.col
    for c in range(n):
        for j in range(order + 1):
            s = 0.0
            for i in range(order + 1):
                s += w.RU[i, j] * w.D[i, c]
            tmp[j] = s
        for j in range(order + 1):
            w.D[j, c] = tmp[j]


@njit(**JIT_STAGE)
def bdf_start(w, x, f0, h):
    """Start (or restart) BDF at order 1 with step h."""
    n = x.shape[0]
    w.D[:, :] = 0.0
    for i in range(n):
        w.D[0, i] = x[i]
        w.D[1, i] = h * f0[i]
    w.state[0] = 1
    w.state[1] = 0


@njit(**JIT_STAGE)
def bdf_step(bundle, data, cw, w, t, x, h, par, x_new, out):
    """One accepted BDF step from t with the differences in w.D (order w.state[0]); h is the
    step the differences are scaled to. x is scratch for the prediction."""
    rtol, atol, h_max, t_max = par[0], par[1], par[2], par[3]
    n = x.shape[0]
    m = coupled_size(bundle, cw, n)
    order = w.state[0]
    d, psi, f, scale, xp = w.Z[:n], w.dZ[:n], w.vec[2][:n], w.vec[4][:n], w.vec[1][:n]
    newton_tol = max(10 * 2.2e-16 / rtol, min(0.03, np.sqrt(rtol)))
    h_lim = min(h_max, t_max - t)
    if h > h_lim:
        bdf_rescale(w, n, order, h_lim / h)
        h = h_lim
        w.state[1] = 0
    while True:
        if h < H_MIN:
            return FAILED
        for i in range(n):
            s, p = 0.0, 0.0
            for j in range(order + 1):
                s += w.D[j, i]
            for j in range(1, order + 1):
                p += _bdf_gamma(j) * w.D[j, i]
            xp[i] = s
            psi[i] = p / _bdf_gamma(order)
        c = h / _bdf_gamma(order)
        if w.state[2] == 0:
            for i in range(n):
                x[i] = xp[i]
            if not reduced_derivative(bundle, data, cw, t + h, xp, f):
                return FAILED
            if not _update_jacobian(bundle, data, cw, w, t + h, xp, f):
                return FAILED
        if w.fs[0] != c:              # I - c J = c (1 / c - J)
            w.stats[STAT_LU] += 1
            w.fs[0] = c if factor_shifted(w.J, m, 1.0 / c, w.E, w.epiv) else -2.0
        _scale(xp, xp, rtol, atol, scale)
        d[:] = 0.0
        for i in range(n):
            x_new[i] = xp[i]
        converged = False
        prev = 0.0
        for it in range(4):
            if w.fs[0] != c:
                break
            if not reduced_derivative(bundle, data, cw, t + h, x_new, f):
                break
            for i in range(n):
                f[i] = (c * f[i] - psi[i] - d[i]) / c
            solve_shifted(w.E, w.epiv, w.J, m, 1.0 / c, f)
            dn = _norm(f, scale)
            for i in range(n):
                x_new[i] += f[i]
                d[i] += f[i]
            w.stats[STAT_NEWTON] += 1
            converged, diverging = _newton_rate(it, dn, prev, newton_tol)
            if converged or diverging:
                break
            prev = dn
        if not converged:
            h_try = _newton_failed(w, h)
            if h_try != h:
                bdf_rescale(w, n, order, 0.5)
                h = h_try
                w.state[1] = 0
            continue
        w.state[3] = 0
        _scale(xp, x_new, rtol, atol, scale)
        s = 0.0
        for i in range(n):
            r = d[i] / (order + 1) / scale[i]
            s += r * r
        err = np.sqrt(s / n)
        if err > 1.0:
            w.stats[STAT_REJECTED] += 1
            factor = max(0.2, 0.9 * err ** (-1.0 / (order + 1)))
            bdf_rescale(w, n, order, factor)
            h *= factor
            w.state[1] = 0
            continue
        break
    # accept: update the differences
    w.state[1] += 1
    for i in range(n):
        w.D[order + 2, i] = d[i] - w.D[order + 1, i]
        w.D[order + 1, i] = d[i]
    for j in range(order, -1, -1):
        for i in range(n):
            w.D[j, i] += w.D[j + 1, i]
    w.stats[STAT_STEPS] += 1
    out[0] = h
    out[2] = err
    if w.state[1] < order + 1:
        out[1] = h
        return OK
    # order and step selection from the error estimates at orders k-1, k, k+1
    e_m, e_p = np.inf, np.inf
    if order > 1:
        s = 0.0
        for i in range(n):
            r = w.D[order, i] / order / scale[i]
            s += r * r
        e_m = np.sqrt(s / n)
    if order < MAX_ORDER:
        s = 0.0
        for i in range(n):
            r = w.D[order + 2, i] / (order + 2) / scale[i]
            s += r * r
        e_p = np.sqrt(s / n)
    f_m = e_m ** (-1.0 / order) if (order > 1 and e_m > 0) else (1e6 if order > 1 else 0.0)
    f_0 = err ** (-1.0 / (order + 1)) if err > 0 else 1e6
    f_p = e_p ** (-1.0 / (order + 2)) if (order < MAX_ORDER and e_p > 0) else (1e6 if order < MAX_ORDER else 0.0)
    new_order, best = order, f_0
    if f_m > best:
        new_order, best = order - 1, f_m
    if f_p > best:
        new_order, best = order + 1, f_p
    factor = min(10.0, 0.9 * best)
    w.state[0] = new_order
    bdf_rescale(w, n, new_order, factor)
    w.state[1] = 0
    out[1] = h * factor
    return OK
