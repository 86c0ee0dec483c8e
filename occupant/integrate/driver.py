"""Drive an Integrator to t_end: sample the solution at given times from its dense output and
locate events (sign changes of g(t, y), with direction and terminal flags as in scipy's
solve_ivp) by Brent's method on the dense output."""
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import brentq


@dataclass
class Event:
    """g(t, y) = 0 crossing. ``direction`` > 0: only rising, < 0: only falling, 0: both;
    ``terminal``: stop the integration there."""
    name: str
    function: object
    direction: float = 0.0
    terminal: bool = False


@dataclass
class Solution:
    t: np.ndarray
    y: np.ndarray
    events: list = field(default_factory=list)   # dicts {name, t, y}
    status: str = "finished"                      # finished | event | diverged
    message: str = ""


def solve(integrator, t_end, t_out, events=(), progress=None):
    """Advance ``integrator`` to ``t_end`` (or a terminal event); return the states at the
    times ``t_out`` passed (a diverging run keeps the samples it reached and says when)."""
    t_out = np.asarray(t_out, float)
    ys = np.zeros((len(t_out), len(integrator.y)))
    k = 0
    while k < len(t_out) and t_out[k] <= integrator.t:
        ys[k] = integrator.y
        k += 1
    g_old = [ev.function(integrator.t, integrator.y) for ev in events]
    found, status, message = [], "finished", ""
    while integrator.t < t_end - 1e-12 * max(1.0, abs(t_end)):
        integrator.limit_step(t_end)
        try:
            integrator.step()
        except FloatingPointError as exc:
            status, message = "diverged", str(exc)
            break
        if not np.all(np.isfinite(integrator.y)):
            status = "diverged"
            message = f"the state stopped being finite between t = {integrator.t_old:.6g} s and {integrator.t:.6g} s"
            break
        dense = None
        t_stop = None
        for e, ev in enumerate(events):
            g_new = ev.function(integrator.t, integrator.y)
            crossed = (g_old[e] < 0 <= g_new) or (g_old[e] > 0 >= g_new)
            rising = g_new > g_old[e]
            if crossed and (ev.direction == 0 or (ev.direction > 0) == rising):
                dense = dense or integrator.dense_output()
                f = lambda t, ev=ev: ev.function(t, dense(t))
                te = brentq(f, integrator.t_old, integrator.t, xtol=1e-12) if f(integrator.t_old) * f(integrator.t) < 0 else integrator.t
                found.append({"name": ev.name, "t": te, "y": dense(te)})
                if ev.terminal and (t_stop is None or te < t_stop):
                    t_stop = te
            g_old[e] = g_new
        t_hi = integrator.t if t_stop is None else t_stop
        if k < len(t_out) and t_out[k] <= t_hi:
            dense = dense or integrator.dense_output()
            while k < len(t_out) and t_out[k] <= t_hi:
                ys[k] = dense(t_out[k])
                k += 1
        if progress is not None:
            progress(integrator.t)
        if t_stop is not None:
            status = "event"
            message = f"terminal event '{found[-1]['name']}' at t = {t_stop:.6g} s"
            found = [f for f in found if f["t"] <= t_stop]
            break
    return Solution(t_out[:k], ys[:k], found, status, message)
