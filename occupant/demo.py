"""The built-in demo: the sample humanoid, pelvis bolted to a sled seat, in a frontal sled
pulse; prints a short summary. Later the scenario runner replaces it."""
import time

import numpy as np

from occupant import samples
from occupant.model import BaseMotion
from occupant.modeling import JointResistance
from occupant.simulate import simulate

# Idealised frontal sled pulse: half-sine, 20 g peak, 100 ms (a 50 km/h full-width barrier pulse
# is of this order: shared/reference/crash-domain-facts.md section 4.2, [D] idealisation).
PULSE_PEAK = 20 * 9.81   # m/s^2
PULSE_DURATION = 0.100   # s
IMPACT_SPEED = 50 / 3.6  # m/s


def demo_model():
    """Sample humanoid with the pelvis on the seat and light damping in every joint, so the
    unrestrained upper body flails but stays bounded (values chosen for the demo, not measured)."""
    asm = samples.humanoid(root="fixed").source
    for name, joint in list(asm.joints.items()):
        n = {"spherical": 3, "universal": 2, "revolute": 1}.get(joint.kind, 0)
        for k in range(n):
            asm.add(JointResistance(f"{name}_damping_{k}", name, dof=k, damping=2.0, stiffness=20.0))
    return asm.compile()


def sled_pulse():
    t = np.linspace(0.0, 0.3, 3001)
    a = np.where(t < PULSE_DURATION, -PULSE_PEAK * np.sin(np.pi * t / PULSE_DURATION), 0.0)
    return BaseMotion.translational(t, a, velocity0=(IMPACT_SPEED, 0.0, 0.0))


def run_demo(t_end=0.15, integrator="euler", dt=None, out=print):
    model = demo_model()
    start = time.perf_counter()
    res = simulate(model, t_end, dt=dt, integrator=integrator, base_motion=sled_pulse(),
                   output_dt=1e-4)
    wall = time.perf_counter() - start
    head = model.body("head")
    # head excursion relative to the sled (the base)
    base_x = np.array([sled_pulse().position(t)[0] for t in res.t])
    excursion = res.body_com[:, head, 0] - base_x
    acc = np.gradient(np.gradient(res.body_com[:, head], res.t, axis=0), res.t, axis=0)
    out(f"occupant demo: {model.name} ({model.nb} bodies, {model.nv} dofs) in a "
        f"{PULSE_PEAK / 9.81:.0f} g, {PULSE_DURATION * 1e3:.0f} ms half-sine sled pulse from "
        f"{IMPACT_SPEED * 3.6:.0f} km/h")
    out(res.summary())
    out(f"  head forward excursion relative to the sled: {1e3 * (excursion.max() - excursion[0]):.0f} mm "
        f"at t = {1e3 * res.t[np.argmax(excursion)]:.0f} ms")
    out(f"  peak head resultant acceleration (unfiltered): {np.linalg.norm(acc, axis=1).max() / 9.81:.1f} g")
    out(f"  wall time {wall:.2f} s")
    return res
