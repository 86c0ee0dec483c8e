"""Implicit integrators with variable step for constrained (closed-loop) and tree models: the
state-space double loop of seed 001 (``occupant.constraints.state_space``) around Newmark,
Radau IIA and BDF steps (``implicit_steps``), run by the compiled loop of ``implicit_loop``.

Each advances the full state y = (q, v, z) through the reduced state x = (q_I, v_I, z) of the
independent coordinates; every state it hands out (steps, dense output, samples) has its
dependent positions and velocities solved from the constraints. The coordinate partition is
chosen again when it degrades, which restarts the method there. A model without constraints
takes the tree path (x = y, the articulated-body derivative), so the same integrators run any
unconstrained Model, quaternion joints included (Radau and BDF; Newmark needs scalar joints).

``run`` takes the whole simulation in one compiled call; ``step``/``dense_output`` serve the
Python driver (runs with events). Work counters in ``stats()``: accepted and rejected steps,
evaluations of the reduced derivative, integrator Newton iterations, position Newton iterations
(the inner loop), LU factorisations (integrator matrices, dependent-coordinate matrices and
augmented systems), Jacobian evaluations and partition choices.
"""
import numpy as np

from occupant.constraints.state_space import (N_EVAL, N_LU, N_NEWTON, N_PARTITION,
                                               make_constraint_work)
from occupant.integrate import implicit_loop
from occupant.integrate.implicit_loop import (DENSE, FAILED, FINISHED, RESTART, RUN, implicit,
                                              make_run, record_states)
from occupant.integrate.implicit_steps import (STAT_JACOBIAN, STAT_LU, STAT_NEWTON,
                                               STAT_NEWTON_FAIL, STAT_REJECTED,
                                               make_integrator_work)
from occupant.integrate.integrators import Integrator, register
from occupant.integrate.pipeline import make_recording
from occupant.jit import FastCall
from occupant.model.bundle import CONSTRAINT_VELOCITY
from occupant.model.model import ModelError

_implicit = FastCall(implicit)
_record_states = FastCall(record_states)
_NO_OUTPUT = np.zeros(0)
UNLIMITED = 2 ** 62
CHUNKS = 20   # compiled loops of a run (``run``) and of a fixed-step run (simulate._run_compiled):
              # a progress report after each, the same with and without progress


class ImplicitIntegrator(Integrator):
    """Base of the state-space implicit integrators. ``dt``: largest step (s); ``rtol``,
    ``atol``: error tolerances on x; ``h0``: first step (default 1e-3 s or dt)."""
    constrained = True   # simulate: may run models with closed loops
    code = None          # implicit_loop method code
    scalar_joints_only = False

    def __init__(self, system, t0, y0, dt=None, rtol=1e-8, atol=1e-10, h0=None, beta=0.25,
                 gamma=0.5):
        model = system.model
        if not (rtol > 0 and atol > 0):
            raise ValueError(f"{self.name}: rtol and atol must be > 0, got {rtol!r}, {atol!r}")
        scalar = model.nq == model.nv and np.all(model.tree.qidx == model.tree.vidx)
        if not scalar and (model.constraint_names or self.scalar_joints_only):
            what = "closed loops" if model.constraint_names else "the Newmark formulas"
            raise ModelError(f"{self.name}: model '{model.name}' has quaternion coordinates "
                             f"(spherical or free joints); with {what} the implicit integrators "
                             f"handle revolute, prismatic and fixed joints only")
        if self.scalar_joints_only and CONSTRAINT_VELOCITY in model.constraints.kind:
            raise ModelError(f"{self.name}: model '{model.name}' has velocity (non-holonomic) "
                             f"constraints, which the Newmark formulas on (q_I, v_I) cannot "
                             f"take: use radau or bdf")
        h_max = np.inf if dt is None else float(dt)
        h = min(1e-3 if h0 is None else float(h0), h_max)
        self.cw = make_constraint_work(model)
        n_max = model.nq + model.nv + model.nz
        self.work = make_integrator_work(n_max)
        self.state = make_run(n_max, n_max, float(rtol), float(atol), h_max, h, beta, gamma)
        self._y_tmp = np.zeros(n_max)
        self._k = np.zeros(1, np.int64)
        self._no_rec = make_recording(model, 0)
        self._no_viol = np.zeros((0, 2))
        super().__init__(system, t0, y0)

    @property
    def nfev(self):
        return int(self.cw.stats[N_EVAL])

    def _entry(self, action, run, t_stop, y, max_steps=0, t_out=_NO_OUTPUT, rec=None,
               viol=None):
        """``implicit_loop.implicit``: run (RUN), restart (RESTART) or dense output (DENSE)."""
        s = self.system
        return _implicit(s.bundle, s.data, self.cw, self.work, run, self.code, action,
                         float(t_stop), max_steps, t_out, self._k,
                         self._no_rec if rec is None else rec,
                         self._no_viol if viol is None else viol, y)

    def reset(self, t, y):
        """Continue from (t, y): partition chosen at y, y made consistent (q_D, v_D solved)."""
        st = self.state
        st.ts[0] = float(t)
        st.y[:] = y
        if self._entry(RESTART, st, float(t), self._y_tmp) == FAILED:
            raise FloatingPointError(f"{self.name}: the constraints cannot be satisfied near the "
                                     f"state at t = {t:.6g} s (position Newton iteration failed)")
        self._sync()
        self.t_old, self.y_old = self.t, self.y.copy()

    def _sync(self):
        st = self.state
        self.t, self.t_old = float(st.ts[0]), float(st.ts[1])
        self.y, self.y_old = st.y.copy(), st.y_old.copy()
        self.nsteps = int(self.work.stats[0])
        self.nreject = int(self.work.stats[STAT_REJECTED])

    def limit_step(self, t_max):
        self.state.par[3] = float(t_max)

    def _failed(self):
        return (f"{self.name}: step size fell below 1e-12 s at t = {self.state.ts[0]:.6g} s "
                f"(Newton iterations did not converge or the constraints could not be solved)")

    def step(self):
        status = self._entry(RUN, self.state, self.state.par[3], self._y_tmp, 1)
        if status == FAILED:
            raise FloatingPointError(self._failed())
        self._sync()

    def dense_output(self):
        """The state at t in the last step: cubic Hermite interpolation of the independent
        coordinates, the dependent ones solved from the constraints."""
        snapshot = type(self.state)(*[a.copy() for a in self.state])

        def interp(t):
            y = np.empty(len(self.y))
            if self._entry(DENSE, snapshot, t, y) == FAILED:
                raise FloatingPointError(f"{self.name}: constraint solution failed at t = {t:.6g} s")
            return y
        return interp

    def run(self, t_end, t_out, progress=None):
        """The whole run to t_end in CHUNKS compiled loops, a progress report after each:
        returns the Recording at the times t_out, the constraint violations (n, 2) there
        (position, velocity), the number of samples reached, the status and a message. The
        chunks are the same with and without ``progress``, so that reporting progress cannot
        change a result (a loop ends at the first step past its chunk's end, never shortens a
        step to it: measured bitwise identical to one loop, but the same chunks make it so by
        construction)."""
        st = self.state
        st.par[3] = float(t_end)
        t_out = np.ascontiguousarray(t_out, dtype=float)
        rec = make_recording(self.system.model, len(t_out))
        viol = np.zeros((len(t_out), 2))
        self._k[0] = 0
        chunks = CHUNKS
        status = FINISHED
        for c in range(1, chunks + 1):
            t_stop = t_end if c == chunks else st.ts[0] + (t_end - st.ts[0]) / (chunks - c + 1)
            status = self._entry(RUN, st, t_stop, self._y_tmp, UNLIMITED, t_out, rec, viol)
            if progress:
                progress(st.ts[0] / t_end)
            if status == FAILED:
                break
        self._sync()
        k = int(self._k[0])
        if status == FAILED:
            return rec, viol, k, "diverged", self._failed()
        return rec, viol, k, "finished", ""

    def record(self, t, Y, rec):
        """Record the states Y at the times t into rec (a run driven from Python); returns the
        constraint violations (n, 2)."""
        viol = np.zeros((len(t), 2))
        cw = make_constraint_work(self.system.model)
        s = self.system
        if not _record_states(s.bundle, s.data, cw, np.ascontiguousarray(t, dtype=float),
                              np.ascontiguousarray(Y, dtype=float), rec, viol):
            raise FloatingPointError(f"{self.name}: constraint solution failed while recording")
        return viol

    def stats(self):
        w, cw = self.work.stats, self.cw.stats
        return {"integrator": self.name, "steps": int(w[0]), "rejected_steps": int(w[STAT_REJECTED]),
                "newton_failures": int(w[STAT_NEWTON_FAIL]),
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
    code = implicit_loop.NEWMARK
    scalar_joints_only = True

    def __init__(self, system, t0, y0, dt=None, rtol=1e-8, atol=1e-10, h0=None, alpha=0.0):
        if not -1.0 / 3.0 <= alpha <= 0.0:
            raise ValueError(f"newmark: alpha must be in [-1/3, 0], got {alpha!r}")
        super().__init__(system, t0, y0, dt, rtol, atol, h0, beta=(1.0 - alpha) ** 2 / 4.0,
                         gamma=0.5 - alpha)


@register
class RadauIIA(ImplicitIntegrator):
    """Radau IIA of order 5 (3 stages), variable step (Hairer & Wanner II, IV.8)."""
    name = "radau"
    code = implicit_loop.RADAU


@register
class BDF(ImplicitIntegrator):
    """Backward differentiation formulas of orders 1-5, variable step and order
    (Shampine & Reichelt 1997, section 2.3)."""
    name = "bdf"
    code = implicit_loop.BDF
