"""The built-in demo: the Hybrid III 50th male, pelvis welded to a sled seat (there are no belts
or contacts yet), in a frontal sled pulse; prints kinematics and injury criteria. The scenario
runner replaces it when restraints land."""
import time

import numpy as np

from occupant.human.assemble import assemble
from occupant.human.loader import load_description
from occupant.injury import evaluate as regions
from occupant.injury.limits import PROTOCOLS, assess
from occupant.model import BaseMotion
from occupant.sensors import default_sensors, evaluate
from occupant.simulate import simulate

# Idealised frontal sled pulse: half-sine, 20 g peak, 100 ms, from 50 km/h. A full-width barrier
# pulse is of this order (shared/reference/crash-domain-facts.md section 4.2, [D] idealisation).
PULSE_PEAK = 20 * 9.80665  # m/s^2
PULSE_DURATION = 0.100     # s
IMPACT_SPEED = 50 / 3.6    # m/s
DUMMY = "hybrid3_50m"
PROTOCOL = "fmvss208_hybrid3_50m"


def demo_model():
    """The Hybrid III 50M with its pelvis joint turned from free to fixed (welded to the seat)."""
    header, segments = load_description(DUMMY)
    segments[0].joint_kind = "fixed"
    return assemble(header["name"], segments).compile()


def sled_pulse():
    t = np.linspace(0.0, 0.3, 3001)
    a = np.where(t < PULSE_DURATION, -PULSE_PEAK * np.sin(np.pi * t / PULSE_DURATION), 0.0)
    return BaseMotion.translational(t, a, velocity0=(IMPACT_SPEED, 0.0, 0.0))


def run_demo(t_end=0.15, integrator="euler", dt=None, out=print):
    model = demo_model()
    pulse = sled_pulse()
    start = time.perf_counter()
    res = simulate(model, t_end, dt=dt, integrator=integrator, base_motion=pulse, output_dt=1e-4)
    wall = time.perf_counter() - start
    out(f"occupant demo: {model.name} ({model.nb} bodies, {model.nv} dofs), pelvis welded to a sled, "
        f"{PULSE_PEAK / 9.80665:.0f} g {PULSE_DURATION * 1e3:.0f} ms half-sine pulse from "
        f"{IMPACT_SPEED * 3.6:.0f} km/h, no belts or contacts")
    out(res.summary())
    head = model.body("head")
    excursion = res.body_com[:, head, 0] - res.base_poses[:, 0, 3]  # relative to the sled
    out(f"  head forward excursion relative to the sled: {1e3 * (excursion.max() - excursion[0]):.0f} mm "
        f"at t = {1e3 * res.t[np.argmax(excursion)]:.0f} ms")
    if res.status == "finished" and len(res.t) > 200:
        ch = {c.name: c for c in evaluate(model, res, default_sensors(model))}
        values = {**regions.head(*(ch[f"Head CG acceleration {a}"] for a in "XYZ")),
                  **regions.neck(ch["Upper neck force X"], ch["Upper neck force Z"], ch["Upper neck moment Y"])}
        out("  criteria against FMVSS 208 (50th male) limits:")
        judged = {lim.criterion for lim in PROTOCOLS[PROTOCOL].limits}
        for a in assess(PROTOCOL, {k: v for k, v in values.items() if k in judged}):
            verdict = "pass" if a.passed else "FAIL"
            out(f"    {a.criterion:<22} {a.value:10.3g} {a.unit:<5} limit {a.limit:10.3g}  {verdict}")
    out(f"  wall time {wall:.2f} s")
    return res
