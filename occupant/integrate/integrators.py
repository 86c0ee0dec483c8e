"""Integrators: one class per method, registered by name in ``INTEGRATORS`` (no string tests
anywhere else). Every method's name is in ``INTEGRATORS`` once this module is imported, whatever
else has been: the implicit methods (newmark, radau, bdf) are named here with their module
(``occupant.integrate.implicit``), imported when one of them is first looked up
(``INTEGRATORS["radau"]``). Not at this module's import: that module imports
``occupant.constraints.state_space``, which imports this package, so registered from here eagerly
an import of ``state_space`` first would run in a circle. One interface: ``step()`` advances (t, y), ``dense_output()`` interpolates over
the last step, ``reset(t, y)`` restarts after an event changed the state (an impact), work
counters count steps and function evaluations, and ``jacobian(t, y)`` is the hook through
which implicit methods ask for df/dy. Fixed-step methods also have a compiled ``loop``
that takes many steps and records output samples without returning to Python. Event location
and output sampling outside the compiled loops are the driver's (``integrate.driver.solve``).

Class attributes read by ``simulate`` and ``stability.step_limit``: ``default_dt`` (s, None for
adaptive methods), ``stability`` (the bounds on (h lambda, h omega) of the method's stability
region for the fastest damping rate lambda and natural frequency omega; None: adaptive) and
``evaluations_per_step``.
"""
import importlib
from collections.abc import Mapping

import numpy as np

from occupant.integrate.fixed_step import euler_step, rk4_step, run_euler, run_rk4
from occupant.integrate.pipeline import make_recording
from occupant.jit import FastCall

_euler_step, _rk4_step = FastCall(euler_step), FastCall(rk4_step)

class Registry(Mapping):
    """Integrator classes by name. A name whose class lives in a module not imported yet holds
    that module's name until first looked up, when the module is imported (its classes register
    themselves) and the class is returned. Iterating, ``in`` and ``len`` give every name without
    importing anything; ``[name]``, ``get``, ``values`` and ``items`` give classes."""

    def __init__(self):
        self._entries = {}   # name -> class, or the name of the module that registers it

    def __getitem__(self, name):
        value = self._entries[name]
        if isinstance(value, str):
            importlib.import_module(value)   # its @register puts the class in place
            value = self._entries[name]
            if isinstance(value, str):
                raise AssertionError(f"module {value} did not register integrator {name!r}")
        return value

    def __contains__(self, name):
        return name in self._entries   # (Mapping's would look the name up, importing its module)

    def __iter__(self):
        return iter(self._entries)

    def __len__(self):
        return len(self._entries)

    def add(self, cls):
        self._entries[cls.name] = cls

    def add_lazily(self, module, name):
        """Name an integrator whose class ``module`` registers when imported."""
        self._entries.setdefault(name, module)


INTEGRATORS = Registry()


def register(cls):
    """Class decorator: make the integrator available by its ``name``."""
    INTEGRATORS.add(cls)
    return cls


class Integrator:
    name = "integrator"
    default_dt = None
    stability = None
    evaluations_per_step = 1
    loop = None          # compiled fixed-step loop (fixed_step.run_*), where the method has one

    def __init__(self, system, t0, y0):
        self.system = system
        self.nsteps = 0      # accepted steps
        self.nreject = 0     # rejected steps (adaptive methods)
        self.reset(t0, y0)

    @property
    def nfev(self):
        return self.system.nfev

    def reset(self, t, y):
        """Continue from (t, y), forgetting anything carried from earlier steps."""
        self.t = float(t)
        self.y = np.array(y, dtype=float)
        self.t_old, self.y_old = self.t, self.y.copy()

    def step(self):
        raise NotImplementedError

    def jacobian(self, t, y):
        """df/dy (n, n) at (t, y), the hook implicit methods use: the system's (finite
        differences unless the system supplies its own)."""
        return self.system.jacobian(t, y)

    def limit_step(self, t_max):
        """Keep the next step from passing t_max."""

    def dense_output(self):
        """Callable t -> y on [t_old, t] (cubic Hermite unless the method has its own)."""
        t0, t1, y0, y1 = self.t_old, self.t, self.y_old, self.y
        f0, f1 = self.system.rhs(t0, y0), self.system.rhs(t1, y1)
        h = t1 - t0

        def interp(t):
            s = (t - t0) / h
            h00, h10 = 2 * s**3 - 3 * s**2 + 1, s**3 - 2 * s**2 + s
            h01, h11 = -2 * s**3 + 3 * s**2, s**3 - s**2
            return h00 * y0 + h10 * h * f0 + h01 * y1 + h11 * h * f1
        return interp

    def stats(self):
        return {"integrator": self.name, "steps": self.nsteps, "rejected_steps": self.nreject,
                "function_evaluations": self.nfev}


def whole_steps(t_end, dt):
    """The number of steps ``dt`` that make ``t_end``, or None when ``t_end`` is not a whole
    number of them (to 1e-9 of t_end): a fixed-step method's compiled loop ends on its grid."""
    n = int(round(t_end / dt))
    return n if n >= 1 and abs(n * dt - t_end) <= 1e-9 * t_end else None


class FixedStep(Integrator):
    def __init__(self, system, t0, y0, dt=None):
        h = self.default_dt if dt is None else dt
        if not h > 0:
            raise ValueError(f"{self.name}: step size dt must be > 0, got {h!r}")
        self.h = self.h_next = float(h)
        n = len(y0)
        self._k = [np.empty(n) for _ in range(5)]
        self._y_new = np.empty(n)
        self._no_record = make_recording(system.model, 1)  # the steps' recording slot, unused
        super().__init__(system, t0, y0)

    def limit_step(self, t_max):
        """The step stays h except where t_max is closer (the end, after a restart off-grid)."""
        left = t_max - self.t
        self.h_next = left if left < self.h * (1 - 1e-9) else self.h

    def _advance(self, h):
        raise NotImplementedError

    def step(self):
        h = self.h_next
        self._advance(h)
        self.system.nfev += self.evaluations_per_step
        self.t_old, self.y_old = self.t, self.y
        self.y = self._y_new.copy()
        self.t = self.t_old + h
        self.nsteps += 1
        self.h_next = self.h


@register
class SemiImplicitEuler(FixedStep):
    """v+ = v + h vdot(t, q, v); q+ = q (+) h v+ (MuJoCo's default "Euler" integrator), joint
    damping implicit. Stable for any damping and for h omega < 2 (1.9 kept)."""
    name = "euler"
    default_dt = 1e-5
    stability = (np.inf, 1.9)
    loop = staticmethod(run_euler)

    def _advance(self, h):
        s = self.system
        _euler_step(s.bundle, s.data, self.t, self.y, h, self._y_new, self._no_record, -1)


@register
class RK4(FixedStep):
    """Classical fourth-order Runge-Kutta, quaternions projected to unit length after each step.
    Stability: -2.78 on the real axis, 2.83 on the imaginary (Hairer & Wanner II, IV.2; 2.5 kept)."""
    name = "rk4"
    default_dt = 1e-4
    stability = (2.5, 2.5)
    evaluations_per_step = 4
    loop = staticmethod(run_rk4)

    def _advance(self, h):
        s = self.system
        k1, k2, k3, k4, tmp = self._k
        _rk4_step(s.bundle, s.data, self.t, self.y, h, k1, k2, k3, k4, tmp, self._y_new,
                  self._no_record, -1)


# Dormand & Prince, "A family of embedded Runge-Kutta formulae", J. Comp. Appl. Math. 6 (1980);
# tableau and dense output as in Hairer, Norsett, Wanner, Solving ODEs I (1993), II.5 and II.6.
_C = np.array([0.0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0])
_A = [
    [],
    [1 / 5],
    [3 / 40, 9 / 40],
    [44 / 45, -56 / 15, 32 / 9],
    [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
    [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
    [35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84],
]
_B = np.array([35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0.0])
_E = _B - np.array([5179 / 57600, 0.0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100, 1 / 40])
_D = np.array([-12715105075 / 11282082432, 0.0, 87487479700 / 32700410799,
               -10690763975 / 1880347072, 701980252875 / 199316789632,
               -1453857185 / 822651844, 69997945 / 29380423])


@register
class DormandPrince5(Integrator):
    """Adaptive Dormand-Prince 5(4) with FSAL, the standard error norm and step-size control
    (HNW I, II.4), 4th-order dense output, quaternion projection after each accepted step.
    ``dt`` is the largest step."""
    name = "dopri5"

    def __init__(self, system, t0, y0, dt=None, rtol=1e-8, atol=1e-10, h0=None, min_step=1e-14):
        if not (rtol > 0 and atol > 0):
            raise ValueError(f"dopri5: rtol and atol must be > 0, got {rtol!r}, {atol!r}")
        self.rtol, self.atol, self.min_step = rtol, atol, min_step
        self.max_step = np.inf if dt is None else dt
        self.h0 = h0
        super().__init__(system, t0, y0)

    def reset(self, t, y):
        """Restart: the first-same-as-last stage and the step size are computed afresh."""
        super().reset(t, y)
        self.K = np.zeros((7, len(self.y)))
        self.K[0] = self.system.rhs(self.t, self.y)
        self.h = self.h0 if self.h0 is not None else self._initial_step()
        self._rcont = None

    def _initial_step(self):
        # HNW I, II.4, "starting step size"
        f0 = self.K[0]
        scale = self.atol + self.rtol * np.abs(self.y)
        d0, d1 = np.sqrt(np.mean((self.y / scale) ** 2)), np.sqrt(np.mean((f0 / scale) ** 2))
        h0 = 1e-6 if min(d0, d1) < 1e-5 else 0.01 * d0 / d1
        f1 = self.system.rhs(self.t + h0, self.y + h0 * f0)
        d2 = np.sqrt(np.mean(((f1 - f0) / scale) ** 2)) / h0
        h1 = max(1e-6, h0 * 1e-3) if max(d1, d2) <= 1e-15 else (0.01 / max(d1, d2)) ** 0.2
        return min(100 * h0, h1, self.max_step)

    def limit_step(self, t_max):
        self.h = min(self.h, t_max - self.t)

    def step(self):
        y, t, K = self.y, self.t, self.K
        while True:
            h = min(self.h, self.max_step)
            if h < self.min_step:
                raise FloatingPointError(f"dopri5: step size fell below {self.min_step:g} s at t = {t:.6g} s")
            for s in range(1, 7):
                ys = y + h * (np.asarray(_A[s]) @ K[:s])
                K[s] = self.system.rhs(t + _C[s] * h, ys)
            y_new = ys  # stage 7 is evaluated at the 5th-order solution (FSAL)
            err_vec = h * (_E @ K)
            scale = self.atol + self.rtol * np.maximum(np.abs(y), np.abs(y_new))
            err = np.sqrt(np.mean((err_vec / scale) ** 2))
            if err <= 1.0 and np.all(np.isfinite(y_new)):
                factor = 10.0 if err == 0 else min(10.0, 0.9 * err ** -0.2)
                break
            self.nreject += 1
            self.h = h * (0.2 if not np.isfinite(err) else max(0.2, 0.9 * err ** -0.2))
        ydiff = y_new - y
        bspl = h * K[0] - ydiff
        self._rcont = (y.copy(), ydiff, bspl, ydiff - h * K[6] - bspl, h * (_D @ K))
        self.t_old, self.y_old = t, y
        self.t = t + h
        self.y = self.system.project(y_new.copy())
        if not np.allclose(self.y, y_new):  # projection moved y: refresh the FSAL derivative
            K[0] = self.system.rhs(self.t, self.y)
        else:
            K[0] = K[6]
        self.h = h * factor
        self.nsteps += 1

    def dense_output(self):
        t0, h = self.t_old, self.t - self.t_old
        r1, r2, r3, r4, r5 = self._rcont

        def interp(t):
            th = (t - t0) / h
            th1 = 1.0 - th
            return r1 + th * (r2 + th1 * (r3 + th * (r4 + th1 * r5)))
        return interp


# the state-space implicit methods, named after the explicit ones (module docstring)
for _name in ("newmark", "radau", "bdf"):
    INTEGRATORS.add_lazily("occupant.integrate.implicit", _name)
