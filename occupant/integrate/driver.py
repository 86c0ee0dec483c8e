"""Drive an Integrator to t_end: sample the solution at given times from its dense output and
locate events (sign changes of g(t, y), with direction and terminal flags as in scipy's
solve_ivp) by Brent's method on the dense output."""
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import brentq


@dataclass
class Event:
    """g(t, y) = 0 crossing. ``direction`` > 0: only rising, < 0: only falling, 0: both;
    ``terminal``: stop the integration there; ``handler``: callable (t, y) -> the state to
    continue from (a velocity jump at an impact, say), after which the integrator restarts
    (``Integrator.reset``)."""
    name: str
    function: object
    direction: float = 0.0
    terminal: bool = False
    handler: object = None


@dataclass
class Solution:
    t: np.ndarray
    y: np.ndarray
    events: list = field(default_factory=list)   # dicts {name, t, y}
    status: str = "finished"                      # finished | event | diverged
    message: str = ""


def _crossings(events, g_old, integrator):
    """Events whose g changed sign over the last step in their direction: [(t_event, e)], and
    the g values at the step's end."""
    found, g_new_all, dense = [], [], None
    for e, ev in enumerate(events):
        g_new = ev.function(integrator.t, integrator.y)
        g_new_all.append(g_new)
        crossed = (g_old[e] < 0 <= g_new) or (g_old[e] > 0 >= g_new)
        rising = g_new > g_old[e]
        if crossed and (ev.direction == 0 or (ev.direction > 0) == rising):
            dense = dense or integrator.dense_output()
            f = lambda t, ev=ev: ev.function(t, dense(t))
            lo, hi = integrator.t_old, integrator.t
            te = brentq(f, lo, hi, xtol=1e-13, rtol=4 * np.finfo(float).eps) if f(lo) * f(hi) < 0 else hi
            found.append((te, e))
    return sorted(found), g_new_all, dense


def solve(integrator, t_end, t_out, events=(), progress=None):
    """Advance ``integrator`` to ``t_end`` (or a terminal event); return the states at the
    times ``t_out`` passed (a diverging run keeps the samples it reached and says when). At an
    event with a handler the state changes and the integration restarts from the event."""
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
        crossings, g_old, dense = _crossings(events, g_old, integrator) if events else ([], g_old, None)
        t_hi, stop, restart = integrator.t, False, None
        for te, e in crossings:
            ev = events[e]
            found.append({"name": ev.name, "t": te, "y": dense(te)})
            if ev.terminal or ev.handler is not None:
                t_hi, stop = te, ev.terminal
                restart = None if stop else ev.handler(te, dense(te))
                break  # later crossings of this step are recomputed after the restart
        if k < len(t_out) and t_out[k] <= t_hi:
            dense = dense or integrator.dense_output()
            while k < len(t_out) and t_out[k] <= t_hi:
                ys[k] = dense(t_out[k])
                k += 1
        if progress is not None:
            progress(t_hi)
        if stop:
            status = "event"
            message = f"terminal event '{found[-1]['name']}' at t = {t_hi:.6g} s"
            break
        if restart is not None:
            integrator.reset(t_hi, integrator.system.project(np.array(restart, float)))
            g_old = [ev.function(integrator.t, integrator.y) for ev in events]
    return Solution(t_out[:k], ys[:k], found, status, message)
