"""Step-size limits of the fixed-step integrators from the model's joint resistance.

Linearised about a configuration q, the joint resistance is a damping matrix C and a stiffness
matrix K, both diagonal in the joint coordinates. The fastest damping rate of the tree is the
largest eigenvalue of C x = lambda M x and its highest natural frequency the square root of the
largest eigenvalue of K x = omega^2 M x (M the mass matrix). A fixed step h is stable when h
lambda and h omega stay inside the method's stability region (Hairer & Wanner, Solving ODEs II,
1996, section IV.2: classical RK4 reaches -2.78 on the real and 2.83 on the imaginary axis;
semi-implicit Euler is stable for oscillations with h omega < 2 and, with its damping taken
implicitly, for any damping; each integrator class states its bounds as ``stability``).
Friction counts with its steepest slope (friction/friction_speed),
stops at a penetration of 0.1 rad, a typical depth.
"""
from dataclasses import dataclass

import numpy as np
import scipy.linalg

from occupant.dynamics.api import inverse_dynamics

STOP_PENETRATION = 0.1  # rad (m for prismatic joints): the stop depth at which stops are rated


@dataclass(frozen=True)
class StepLimit:
    dt: float          # s, largest stable step (inf: nothing limits it)
    element: str       # joint resistance element that sets it ("" when none)
    reason: str        # what about it does


def _element_rates(model):
    """Per element: (velocity index, damping slope, stiffness slope)."""
    el, t = model.joint_resistance, model.tree
    out = []
    for e in range(len(model.joint_resistance_names)):
        j = t.vidx[el.link[e]] + el.component[e]
        if el.table_start[e] >= 0:
            tab = el.tables[el.table_start[e]:el.table_start[e] + el.table_len[e]]
            k = np.max(np.abs(np.diff(tab[:, 1]) / np.diff(tab[:, 0])))
        else:
            k = el.stiffness[e]
        k = max(k, 2 * el.stop_stiffness[e] * STOP_PENETRATION)
        c = el.damping[e] + el.friction[e] / el.friction_speed[e] + el.stop_damping[e] * STOP_PENETRATION
        out.append((j, c, k))
    return out


def _mass_matrix(model, q):
    """M(q) column by column, M e_j = tau(q, v = 0, vdot = e_j) without gravity: by the RNEA,
    which a run's sensors compile anyway (the CRBA's compilation, for this one call, was 2 s of
    a first run)."""
    data, zero, e = model.make_data(), np.zeros(model.nv), np.zeros(model.nv)
    M = np.empty((model.nv, model.nv))
    for j in range(model.nv):
        e[j] = 1.0
        M[:, j] = inverse_dynamics(model, data, q, zero, e, gravity=(0.0, 0.0, 0.0))
        e[j] = 0.0
    return 0.5 * (M + M.T)


def step_limit(model, q, bounds):
    """The largest stable fixed step at configuration q for a method whose stability region
    reaches ``bounds`` = (h lambda, h omega) (``Integrator.stability``; None: no limit)."""
    if bounds is None or not len(model.joint_resistance_names):
        return StepLimit(np.inf, "", "")
    rates = _element_rates(model)
    C, K = np.zeros(model.nv), np.zeros(model.nv)
    for j, c, k in rates:
        C[j] += c
        K[j] += k
    M = _mass_matrix(model, q)
    best = StepLimit(np.inf, "", "")
    for bound, diag, what, index in ((bounds[0], C, "damping rate", 1),
                                     (bounds[1], K, "natural frequency", 2)):
        if not np.isfinite(bound) or not diag.any():
            continue
        w, X = scipy.linalg.eigh(np.diag(diag), M)
        rate = w[-1] if index == 1 else np.sqrt(max(w[-1], 0.0))
        if rate <= 0 or bound / rate >= best.dt:
            continue
        x = X[:, -1]
        share = diag * x * x                 # each coordinate's part in the fastest mode
        j = int(np.argmax(share))
        e = max((e for e, r in enumerate(rates) if r[0] == j), key=lambda e: rates[e][index])
        unit = "1/s" if index == 1 else "rad/s"
        best = StepLimit(bound / rate, model.joint_resistance_names[e],
                         f"{what} {rate:.3g} {unit} of the fastest mode, mostly '{model.dof_names[j]}'")
    return best
