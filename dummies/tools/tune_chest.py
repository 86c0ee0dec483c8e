"""Tuning record of the Hybrid III 50M chest (run: python dummies/tools/tune_chest.py).

Fits two numbers of the sternum's chest joint (dummies/tools/derive_hybrid3.py CHEST_FIT) to the
49 CFR 572.34 thorax pendulum test (scenarios/certification/hybrid3_50m_thorax.toml, corridors
[C]): the factors on the open model's chest spring table and chest damping, to the middles of the
peak probe force (5527 N) and the sternum deflection (68.1 mm). The internal hysteresis (69-85 %)
is not fitted: it is the check. History of the fit:
  1. spring factor to the force, spring absorption to the hysteresis, deflection as the check:
     factor 1.61, absorption 0.55, deflection 51.6 mm -- far outside 63.5-72.6 mm: the probe force
     is mostly viscous (jacket and chest damping), a stiffer spring only cuts the deflection;
  2. spring and damping factors and absorption to all three figures: 0.668, 1.39 and absorption
     0 (the bound): the damping alone gives the hysteresis (77.05 %), the spring's loading/unloading
     hysteresis is not needed;
  3. (this record) the two factors to force and deflection, absorption 0, hysteresis checked.
The 5F thorax test (572.134) with the same factors on the 5F's scaled chest is a second check.
The jacket contact (scenario file) stays as given. Least squares on the residuals scaled by
their corridor half-widths (scipy least_squares from the deck's values).
"""
import numpy as np
from scipy.optimize import least_squares

import derive_hybrid3 as derive  # the derivation record beside this file
from occupant.human.certification import read_scenario
from occupant.human.impact_tests import run_thorax_pendulum


def modify_with(stiffness, damping, absorption=0.0):
    def modify(segs):
        r = next(s for s in segs if s.name == "sternum").resistances[0]
        fit = derive.CHEST_FIT                                   # undo the file's fit
        r.table = r.table / np.array([1.0, fit["stiffness"]]) * np.array([1.0, stiffness])
        r.damping = r.damping / fit["damping"] * damping
        r.absorption = absorption
    return modify


def main(name="hybrid3_50m_thorax"):
    sc, _ = read_scenario(name)
    corr = sc["corridor"]
    mid = {k: 0.5 * (lo + hi) for k, (lo, hi) in corr.items()}
    half = {k: 0.5 * (hi - lo) for k, (lo, hi) in corr.items()}

    def residuals(p):
        fig = run_thorax_pendulum(sc, modify=modify_with(*p))["figures"]
        r = [(fig[k] - mid[k]) / half[k] for k in ("peak_force_N", "peak_deflection_mm")]
        print(np.round(p, 4), {k: round(v, 2) for k, v in fig.items()}, flush=True)
        return r
    fit = least_squares(residuals, [1.0, 1.0], bounds=([0.2, 0.2], [3.0, 5.0]), diff_step=0.02)
    print("CHEST_FIT = dict(stiffness=%.4g, damping=%.4g, absorption=0.0)" % tuple(fit.x))

if __name__ == "__main__":
    main()
