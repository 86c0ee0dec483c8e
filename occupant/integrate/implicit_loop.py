"""The compiled run of the implicit integrators: many variable steps (``implicit_steps``) of the
state-space double loop (``occupant.constraints.state_space``) in one call, with the output
samples recorded at the requested times from the dense output (cubic Hermite interpolation of
the reduced state over the last step, the dependent coordinates solved from the constraints at
each output time) and the coordinate partition chosen again, inside the loop, when it degrades
(the method restarts there).

A run's state lives in an ``ImplicitRun`` of arrays, so the same loop serves a whole simulation
(``run_implicit`` to t_end) and the single steps of the Python driver (events). Python calls one
compiled entry, ``implicit``, into which the loop, the restart and the dense output are inlined:
each separately compiled function that reaches the force pipeline compiles all of it again
(numba links a callee's code into every caller), so there are few of them (inlining the steps
too makes one function so large that LLVM's mem2reg pass takes minutes).
"""
from collections import namedtuple

import numpy as np
from numba import njit

from occupant.constraints.state_space import (
    constrained_accelerations, expand_state, full_state, is_tree, partition, partition_degraded,
    project_state, reduce_state, reduced_derivative, violation, warm_start)
from occupant.integrate.implicit_steps import (
    FAILED, OK, bdf_start, bdf_step, newmark_step, radau_step, reset_work)
from occupant.integrate.pipeline import record
from occupant.jit import JIT, JIT_INLINE, JIT_STAGE

NEWMARK, RADAU, BDF = range(3)     # method codes
FINISHED, STOPPED = 0, 2           # run_implicit's other statuses (FAILED = 1)
RUN, RESTART, DENSE = range(3)     # actions of ``implicit``

ImplicitRun = namedtuple("ImplicitRun", [
    "ts",       # (3,) t, t at the start of the last step, step proposed next
    "x", "f",   # (n_max,) reduced state and its derivative at t (first n entries used)
    "x_old", "f_old",  # (n_max,) the same at the start of the last step
    "x_new", "xi", "scratch",   # (n_max,) step result, interpolated state, BDF scratch
    "y", "y_old",      # (ny,) full states at t and at the last step's start
    "par",      # (6,) rtol, atol, h_max, t_max (the run's end), Newmark beta, gamma
    "out",      # (3,) h taken, h proposed, error norm of the last step
])


def make_run(n_max, ny, rtol, atol, h_max, h0, beta=0.25, gamma=0.5):
    z = np.zeros
    return ImplicitRun(ts=np.array([0.0, 0.0, h0]), x=z(n_max), f=z(n_max), x_old=z(n_max),
                       f_old=z(n_max), x_new=z(n_max), xi=z(n_max), scratch=z(n_max), y=z(ny),
                       y_old=z(ny), par=np.array([rtol, atol, h_max, np.inf, beta, gamma]),
                       out=z(3))


@njit(**JIT_STAGE)
def _size(cw, run):
    """Length n of the reduced state under the current partition."""
    return cw.sizes[2] + run.y.shape[0] - cw.q.shape[0] - cw.v.shape[0]


@njit(**JIT_INLINE)
def restart(bundle, data, cw, w, run, method):
    """Start (again) from the full state run.y at t = run.ts[0]: partition chosen there,
    dependent coordinates solved, derivative evaluated, method history forgotten. False when
    the constraints cannot be satisfied near run.y."""
    nq, nv = cw.q.shape[0], cw.v.shape[0]
    partition(bundle, data, cw, run.y[:nq], run.y[nq:nq + nv])
    n = _size(cw, run)
    x, f = run.x[:n], run.f[:n]
    reduce_state(cw, run.ts[0], run.y, x)
    if not expand_state(bundle, data, cw, run.ts[0], x, run.y):
        return False
    if not reduced_derivative(bundle, data, cw, run.ts[0], x, f):
        return False
    run.ts[1] = run.ts[0]
    for j in range(n):
        run.x_old[j], run.f_old[j] = x[j], f[j]
    for j in range(run.y.shape[0]):
        run.y_old[j] = run.y[j]
    reset_work(w)
    if method == BDF:
        bdf_start(w, x, f, run.ts[2])
    return True


@njit(**JIT_INLINE)
def _repartition(bundle, data, cw, w, run, method):
    """New partition at run.y; the last step's start re-expressed in it (dense output)."""
    nq, nv = cw.q.shape[0], cw.v.shape[0]
    partition(bundle, data, cw, run.y[:nq], run.y[nq:nq + nv])
    n = _size(cw, run)
    reduce_state(cw, run.ts[1], run.y_old, run.x_old[:n])
    if not reduced_derivative(bundle, data, cw, run.ts[1], run.x_old[:n], run.f_old[:n]):
        return False
    reduce_state(cw, run.ts[0], run.y, run.x[:n])
    if not reduced_derivative(bundle, data, cw, run.ts[0], run.x[:n], run.f[:n]):
        return False
    reset_work(w)
    if method == BDF:
        bdf_start(w, run.x[:n], run.f[:n], run.ts[2])
    return True


@njit(**JIT_INLINE)
def dense_state(bundle, data, cw, run, t, y):
    """Full state y at t in [t_old, t_now]: cubic Hermite interpolation of the reduced state,
    dependent coordinates solved. False on failure."""
    n = _size(cw, run)
    t0, t1 = run.ts[1], run.ts[0]
    h = t1 - t0
    u = (t - t0) / h if h > 0.0 else 1.0
    h00, h10 = 2 * u**3 - 3 * u**2 + 1, u**3 - 2 * u**2 + u
    h01, h11 = -2 * u**3 + 3 * u**2, u**3 - u**2
    xi = run.xi[:n]
    for j in range(n):
        xi[j] = (h00 * run.x_old[j] + h10 * h * run.f_old[j] + h01 * run.x[j]
                 + h11 * h * run.f[j])
    if not is_tree(cw):   # dependent coordinates predicted from the nearer end of the step
        if u < 0.5:
            warm_start(cw, t0, run.y_old)
        else:
            warm_start(cw, t1, run.y)
    return expand_state(bundle, data, cw, t, xi, y)


@njit(**JIT_STAGE)
def record_state(bundle, data, cw, t, y, rec, viol, k):
    """Output sample k of the consistent state y at t: ``pipeline.record`` (poses, outputs,
    energy), then for a constrained model the accelerations with the constraint forces and the
    largest position and velocity constraint violations (viol[k])."""
    record(bundle, data, t, y, rec, k)
    if is_tree(cw):
        return True
    nq, nv = cw.q.shape[0], cw.v.shape[0]
    if not constrained_accelerations(bundle, data, cw, t, y[:nq], y[nq:nq + nv], y[nq + nv:],
                                     False):
        return False
    for j in range(nv):
        rec.vdot[k, j] = cw.vdot[j]
    violation(cw, y[nq:nq + nv], viol[k])
    return True


@njit(**JIT)
def record_states(bundle, data, cw, t, Y, rec, viol):
    """``record_state`` of every state Y[k] at t[k], each with a partition chosen there (the
    samples of a run driven from Python)."""
    nq, nv = cw.q.shape[0], cw.v.shape[0]
    for k in range(t.shape[0]):
        y = Y[k].copy()
        partition(bundle, data, cw, y[:nq], y[nq:nq + nv])
        if not record_state(bundle, data, cw, t[k], y, rec, viol, k):
            return False
    return True


@njit(**JIT_INLINE)
def run_implicit(bundle, data, cw, w, run, method, t_stop, max_steps, t_out, k_out, rec, viol,
                 y_tmp):
    """Steps from run.ts[0] until t_stop (the last step ends there exactly when t_stop is the
    run's end run.par[3]) or max_steps steps; every output time t_out[k_out[0]:] passed is
    recorded (``record_state``) and k_out[0] advanced. Returns FINISHED, STOPPED (max_steps
    taken) or FAILED (step size below H_MIN, or the constraints could not be solved, also after
    a fresh partition at the last accepted state when the model has closed loops)."""
    nq, nv = cw.q.shape[0], cw.v.shape[0]
    t_end = run.par[3]
    eps = 1e-12 * max(1.0, abs(t_stop))
    k = k_out[0]
    while k < t_out.shape[0] and t_out[k] <= run.ts[0] + eps:    # samples at the start
        if not record_state(bundle, data, cw, t_out[k], run.y, rec, viol, k):
            return FAILED
        k += 1
        k_out[0] = k
    steps = 0
    retried = False
    while run.ts[0] < t_stop - eps:
        if steps == max_steps:
            return STOPPED
        n = _size(cw, run)
        t = run.ts[0]
        x, f, x_new = run.x[:n], run.f[:n], run.x_new[:n]
        if method == RADAU:
            status = radau_step(bundle, data, cw, w, t, x, f, run.ts[2], run.par, x_new, run.out)
        elif method == NEWMARK:
            status = newmark_step(bundle, data, cw, w, t, x, f, run.ts[2], run.par, x_new, run.out)
        else:
            status = bdf_step(bundle, data, cw, w, t, run.scratch[:n], run.ts[2], run.par, x_new,
                              run.out)
        if status != OK:
            # the step collapsed: once, choose the partition afresh at the last accepted state
            # (a coordinate may have turned back along the constraint within one step, before
            # partition_degraded saw it) and try again; a tree has no partition to choose
            if is_tree(cw) or retried or not restart(bundle, data, cw, w, run, method):
                return FAILED
            retried = True
            continue
        retried = False
        run.ts[1] = t
        t_new = t + run.out[0]
        run.ts[0] = t_end if abs(t_new - t_end) <= eps else t_new
        run.ts[2] = run.out[1]
        for j in range(n):
            run.x_old[j], run.f_old[j] = x[j], f[j]
            x[j] = x_new[j]
        for j in range(run.y.shape[0]):
            run.y_old[j] = run.y[j]
        project_state(bundle, cw, x)
        if method == BDF:
            for j in range(n):
                w.D[0, j] = x[j]
        if not reduced_derivative(bundle, data, cw, run.ts[0], x, f):
            return FAILED
        full_state(cw, x, run.y)
        steps += 1
        if partition_degraded(cw) and not _repartition(bundle, data, cw, w, run, method):
            return FAILED
        while k < t_out.shape[0] and t_out[k] <= run.ts[0] + eps:
            if not dense_state(bundle, data, cw, run, t_out[k], y_tmp):
                return FAILED
            if not record_state(bundle, data, cw, t_out[k], y_tmp, rec, viol, k):
                return FAILED
            k += 1
            k_out[0] = k
    return FINISHED


@njit(**JIT)
def implicit(bundle, data, cw, w, run, method, action, t_stop, max_steps, t_out, k_out, rec, viol,
             y_tmp):
    """The entry called from Python. action RUN: ``run_implicit`` (its status); RESTART:
    ``restart`` at run.y, t = run.ts[0]; DENSE: ``dense_state`` at t = t_stop into y_tmp (both
    FINISHED, or FAILED)."""
    if action == RESTART:
        return FINISHED if restart(bundle, data, cw, w, run, method) else FAILED
    if action == DENSE:
        return FINISHED if dense_state(bundle, data, cw, run, t_stop, y_tmp) else FAILED
    return run_implicit(bundle, data, cw, w, run, method, t_stop, max_steps, t_out, k_out, rec,
                        viol, y_tmp)
