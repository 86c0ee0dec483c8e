"""Implicit integrators with variable step for constrained (closed-loop) and tree models: the
state-space double loop of seed 001 (``occupant.constraints.state_space``) around Newmark,
Radau IIA and BDF steps compiled in ``implicit_steps``.

Each advances the full state y = (q, v, z) through the reduced state x = (q_I, v_I, z) of the
independent coordinates; every state it hands out (steps and dense output) has its dependent
positions and velocities solved from the constraints. The coordinate partition is chosen again
when it degrades, which restarts the method there. A model without constraints has every
coordinate independent, so the same integrators run plain trees.

Work counters in ``stats()``: accepted and rejected steps, evaluations of the reduced
derivative, integrator Newton iterations, position Newton iterations (the inner loop), LU
factorisations (integrator matrices, dependent-coordinate matrices and augmented systems),
Jacobian evaluations and partition choices.
"""
import numpy as np

from occupant.constraints.state_space import (
    N_EVAL, N_LU, N_NEWTON, N_PARTITION, choose_partition, expand_state, make_constraint_work,
    partition_degraded, reduce_state, reduced_derivative)
from occupant.integrate.implicit_steps import (
    FAILED, STAT_JACOBIAN, STAT_LU, STAT_NEWTON, STAT_REJECTED, STAT_STEPS, bdf_start, bdf_step,
    make_integrator_work, newmark_step, radau_step)
from occupant.integrate.integrators import Integrator, register
from occupant.jit import FastCall
from occupant.model.model import ModelError

_choose, _expand, _reduce = FastCall(choose_partition), FastCall(expand_state), FastCall(reduce_state)
_deriv, _degraded = FastCall(reduced_derivative), FastCall(partition_degraded)
_newmark, _radau = FastCall(newmark_step), FastCall(radau_step)
_bdf, _bdf_start = FastCall(bdf_step), FastCall(bdf_start)


class ImplicitIntegrator(Integrator):
    """Base of the state-space implicit integrators. ``dt``: largest step (s); ``rtol``,
    ``atol``: error tolerances on x; ``h0``: first step (default 1e-3 s or dt)."""
    constrained = True   # simulate: may run models with closed loops

    def __init__(self, system, t0, y0, dt=None, rtol=1e-8, atol=1e-10, h0=None):
        model = system.model
        if not (rtol > 0 and atol > 0):
            raise ValueError(f"{self.name}: rtol and atol must be > 0, got {rtol!r}, {atol!r}")
        if model.nq != model.nv or np.any(model.tree.qidx != model.tree.vidx):
            raise ModelError(f"{self.name}: model '{model.name}' has quaternion coordinates "
                             f"(spherical or free joints); the implicit state-space integrators "
                             f"handle revolute, prismatic and fixed joints only")
        self.rtol, self.atol = float(rtol), float(atol)
        self.h_max = np.inf if dt is None else float(dt)
        self.h = min(1e-3 if h0 is None else float(h0), self.h_max)
        self.t_max = np.inf
        self.cw = make_constraint_work(model)
        self.work = None
        self.n_restart = 0
        self._out = np.zeros(3)
        super().__init__(system, t0, y0)

    @property
    def nfev(self):
        return int(self.cw.stats[N_EVAL])

    # state handling ------------------------------------------------------------------------
    def reset(self, t, y):
        """Continue from (t, y): partition chosen at y, y made consistent (q_D, v_D solved)."""
        s = self.system
        self.t = float(t)
        y = np.array(y, dtype=float)
        nq, nv = s.model.nq, s.model.nv
        _choose(s.bundle, s.data, self.cw, np.ascontiguousarray(y[:nq]), np.ascontiguousarray(y[nq:nq + nv]))
        n = 2 * int(self.cw.sizes[1]) + s.model.nz
        if self.work is None or self.work.J.shape[0] != n:
            old = None if self.work is None else self.work.stats.copy()
            self.work = make_integrator_work(n)
            if old is not None:
                self.work.stats[:] = old
        self.x, self.f, self.x_new = np.zeros(n), np.zeros(n), np.zeros(n)
        self._scratch = np.zeros(n)
        _reduce(self.cw, y, self.x)
        if not _expand(s.bundle, s.data, self.cw, self.t, self.x, y):
            raise FloatingPointError(f"{self.name}: the constraints cannot be satisfied near the "
                                     f"state at t = {self.t:.6g} s (position Newton iteration failed)")
        self._derivative(self.t, self.x, self.f)
        self.y = y
        self.t_old, self.y_old = self.t, self.y.copy()
        self.x_old, self.f_old = self.x.copy(), self.f.copy()
        self.n_restart += 1
        self._start()

    def _derivative(self, t, x, out):
        s = self.system
        if not _deriv(s.bundle, s.data, self.cw, float(t), x, out):
            raise FloatingPointError(f"{self.name}: constraint solution failed at t = {t:.6g} s")

    def _start(self):
        """Method-specific restart (multistep history)."""

    def limit_step(self, t_max):
        self.t_max = float(t_max)

    def _par(self):
        return np.array([self.rtol, self.atol, self.h_max, self.t_max])

    def step(self):
        s = self.system
        status = self._advance()
        if status == FAILED:
            raise FloatingPointError(f"{self.name}: step size fell below 1e-12 s at "
                                     f"t = {self.t:.6g} s (Newton iterations did not converge)")
        h, self.h = self._out[0], self._out[1]
        self.t_old, self.y_old, self.x_old, self.f_old = self.t, self.y, self.x.copy(), self.f.copy()
        self.t = self.t_old + h
        self.x[:] = self.x_new
        self._derivative(self.t, self.x, self.f)   # also leaves cw.q, cw.v consistent at x
        y = np.empty_like(self.y)
        nq, nv = s.model.nq, s.model.nv
        y[:nq], y[nq:nq + nv] = self.cw.q, self.cw.v
        y[nq + nv:] = self.x[2 * int(self.cw.sizes[1]):]
        self.y = y
        self.nsteps += 1
        self.nreject = int(self.work.stats[STAT_REJECTED])
        if _degraded(self.cw):
            t_old, y_old, h = self.t_old, self.y_old, self.h
            self.reset(self.t, self.y)          # new partition, method restarted
            self.h = h
            # the last step's start in the new coordinates, for dense output
            _reduce(self.cw, y_old, self.x_old)
            self._derivative(t_old, self.x_old, self.f_old)
            self._derivative(self.t, self.x, self.f)
            self.t_old, self.y_old = t_old, y_old

    def dense_output(self):
        """Cubic Hermite interpolation of the independent coordinates over the last step, the
        dependent ones solved from the constraints at each time asked."""
        t0, t1 = self.t_old, self.t
        x0, x1, f0, f1 = self.x_old.copy(), self.x.copy(), self.f_old.copy(), self.f.copy()
        h = t1 - t0
        s = self.system

        def interp(t):
            u = (t - t0) / h
            h00, h10 = 2 * u**3 - 3 * u**2 + 1, u**3 - 2 * u**2 + u
            h01, h11 = -2 * u**3 + 3 * u**2, u**3 - u**2
            x = h00 * x0 + h10 * h * f0 + h01 * x1 + h11 * h * f1
            y = np.empty_like(self.y)
            if not _expand(s.bundle, s.data, self.cw, float(t), x, y):
                raise FloatingPointError(f"{self.name}: constraint solution failed at t = {t:.6g} s")
            return y
        return interp

    def stats(self):
        w, cw = self.work.stats, self.cw.stats
        return {"integrator": self.name, "steps": self.nsteps, "rejected_steps": int(w[STAT_REJECTED]),
                "function_evaluations": int(cw[N_EVAL]), "newton_iterations": int(w[STAT_NEWTON]),
                "position_newton_iterations": int(cw[N_NEWTON]),
                "lu_factorizations": int(w[STAT_LU] + cw[N_LU]),
                "jacobian_evaluations": int(w[STAT_JACOBIAN]), "partitions": int(cw[N_PARTITION])}


@register
class Newmark(ImplicitIntegrator):
    """Newmark's method on the independent coordinates, variable step. Default: the average-
    acceleration rule (beta = 1/4, gamma = 1/2: second order, no numerical damping); ``alpha``
    in [-1/3, 0] gives HHT's damped parameters gamma = 1/2 - alpha, beta = (1 - alpha)^2 / 4
    (Hilber, Hughes & Taylor 1977) without HHT's force averaging."""
    name = "newmark"

    def __init__(self, system, t0, y0, dt=None, rtol=1e-8, atol=1e-10, h0=None, alpha=0.0):
        if not -1.0 / 3.0 <= alpha <= 0.0:
            raise ValueError(f"newmark: alpha must be in [-1/3, 0], got {alpha!r}")
        self.gamma, self.beta = 0.5 - alpha, (1.0 - alpha) ** 2 / 4.0
        super().__init__(system, t0, y0, dt, rtol, atol, h0)

    def _advance(self):
        s = self.system
        return _newmark(s.bundle, s.data, self.cw, self.work, self.t, self.x, self.f, self.h,
                        self.beta, self.gamma, self._par(), self.x_new, self._out)


@register
class RadauIIA(ImplicitIntegrator):
    """Radau IIA of order 5 (3 stages), variable step (Hairer & Wanner II, IV.8)."""
    name = "radau"

    def _advance(self):
        s = self.system
        return _radau(s.bundle, s.data, self.cw, self.work, self.t, self.x, self.f, self.h,
                      self._par(), self.x_new, self._out)


@register
class BDF(ImplicitIntegrator):
    """Backward differentiation formulas of orders 1-5, variable step and order
    (Shampine & Reichelt 1997, section 2.3)."""
    name = "bdf"

    def _start(self):
        s = self.system
        _bdf_start(s.bundle, s.data, self.cw, self.work, self.t, self.x, self.f, self.h)

    def _advance(self):
        s = self.system
        return _bdf(s.bundle, s.data, self.cw, self.work, self.t, self._scratch, self.h,
                    self._par(), self.x_new, self._out)
