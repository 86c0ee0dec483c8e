"""Tuning record: Hybrid III 50M neck joint characteristics fitted to the 49 CFR 572.33 neck
pendulum test (run: python dummies/tools/tune_neck.py; about a minute).

Why: the 50M neck in dummies/hybrid3_50m.toml starts from the open 95M rigid model's neck curves
scaled by lambda^3 (moments) and lambda^4 (damping) [S] (see derive_hybrid3.py). With them the
head-neck of our model is outside the 572.33 corridors (flexion 46 deg / 72 N m against 64-78 deg
/ 88-108 N m): the occipital-condyle (OC) damping of 68 N m s/rad (90 in the 95M deck) locks
that joint viscously at pendulum rates, so the head hardly rotates on the neck.

Method: a small least-squares fit (scipy.optimize.least_squares, trust-region reflective,
finite-difference Jacobian) of six numbers that shape the flexion/extension (y) characteristic
of the two neck joints, keeping every curve's shape from the open model:
    c_oc, c_np   viscous damping of the OC and lower-neck (NP) flexion/extension dof, N m s/rad
    f_oc, e_oc   factors on the flexion (+) and extension (-) branch of the OC moment table
    f_np, e_np   factors on the flexion (+) and extension (-) branch of the NP moment table
The residuals are the six corridor figures of the two tests (peak D-plane rotation, peak OC
moment, first decay time), each as (value - corridor middle) / corridor half-width, so that a
residual inside [-1, 1] is inside the corridor. Parameters are fitted as logarithms (positive)
within bounds that keep them physically plausible: damping 0.05-20 N m s/rad, table factors
0.25-4. The result is copied by hand into TUNED_50M in derive_hybrid3.py, which regenerates
the dummy file with each tuned value marked "tuned to the 49 CFR 572.33 pendulum test (was ...)".
The lateral (x) and torsion (z) dofs are not exercised by the test and stay untuned.
"""
import time

import numpy as np
from scipy.optimize import least_squares

from occupant.human.certification import read_scenario, run_neck_pendulum

SCENARIOS = ("hybrid3_50m_neck_flexion", "hybrid3_50m_neck_extension")
NAMES = ("c_oc", "c_np", "f_oc", "e_oc", "f_np", "e_np")
LOWER = np.log([0.05, 0.05, 0.25, 0.25, 0.25, 0.25])
UPPER = np.log([20.0, 20.0, 4.0, 4.0, 4.0, 4.0])


def modifier(p):
    """A ``modify`` callable for run_neck_pendulum applying parameters ``p`` (dict)."""
    def modify(segments):
        neck, head = segments
        for seg, c, f, e in ((head, p["c_oc"], p["f_oc"], p["e_oc"]),
                             (neck, p["c_np"], p["f_np"], p["e_np"])):
            for r in seg.resistances:
                if r.dof == 1:  # flexion (+) / extension (-)
                    r.damping = c
                    table = r.table.copy()
                    table[:, 1] *= np.where(table[:, 1] > 0, f, e)
                    r.table = table
    return modify


def responses(p):
    """{scenario: checks} for parameters p."""
    return {sc: run_neck_pendulum(sc, modify=modifier(p))["checks"] for sc in SCENARIOS}


def residuals(x):
    p = dict(zip(NAMES, np.exp(x)))
    out = []
    for sc, checks in responses(p).items():
        corridor = read_scenario(sc)[0]["corridor"]
        for key, ckey in (("peak_rotation_deg", "peak_rotation_deg"),
                          ("peak_moment_Nm", "peak_moment_Nm"),
                          ("decay_time_ms", "decay_time_ms")):
            lo, hi = corridor[ckey]
            value = checks[key][0]
            out.append(10.0 if not np.isfinite(value) else (value - 0.5 * (lo + hi)) / (0.5 * (hi - lo)))
    return np.array(out)


def fit(p0):
    x0 = np.clip(np.log([p0[n] for n in NAMES]), LOWER + 1e-9, UPPER - 1e-9)
    sol = least_squares(residuals, x0, bounds=(LOWER, UPPER), diff_step=0.02, x_scale=1.0,
                        max_nfev=60)
    return dict(zip(NAMES, np.exp(sol.x))), sol


if __name__ == "__main__":
    start = dict(c_oc=0.5, c_np=1.0, f_oc=0.6, e_oc=1.0, f_np=2.0, e_np=1.0)
    t0 = time.time()
    p, sol = fit(start)
    print("fitted in %.0f s, %d evaluations, cost %.3g" % (time.time() - t0, sol.nfev, sol.cost))
    for n in NAMES:
        print(f"  {n} = {p[n]:.4g}")
    print("  residuals (inside the corridor when |r| <= 1):", np.round(sol.fun, 3))
    for sc, checks in responses(p).items():
        print(" ", sc, {k: round(v[0], 1) for k, v in checks.items()})
