"""The built-in demo: the Hybrid III 50th male, pelvis welded to a sled seat, in a frontal
half-sine sled pulse, with no belt, airbag or contact (none exists yet): the unrestrained upper
body folds forward over the pelvis until the joints' range-of-motion stops hold it. It prints the
pulse as it is, the kinematics (head excursion, the spine's and neck's peak flexion against their
stops) and the energy balance; it computes no injury criterion, since an occupant arrested only
by its joint stops is no physical test and its head and neck loads mean nothing. The scenario
runner replaces it when restraints land."""
import time

import numpy as np

from occupant.human.assemble import assemble
from occupant.human.loader import load_description
from occupant.injury.criteria import G0
from occupant.model import BaseMotion
from occupant.simulate import simulate

# Idealised frontal sled pulse: half-sine, 20 g peak, 100 ms, the sled moving at 50 km/h when it
# starts; its delta-v is 2 A T / pi = 45 km/h, so the sled ends at 5 km/h. A full-width barrier
# pulse is of this order (shared/reference/crash-domain-facts.md section 4.2, [D] idealisation).
PULSE_PEAK = 20 * G0       # m/s^2
PULSE_DURATION = 0.100     # s
SLED_SPEED0 = 50 / 3.6     # m/s, sled speed at the start of the pulse
DUMMY = "hybrid3_50m"
# flexion/extension resistance elements whose peaks the demo prints against their stops
FLEXION = ("lumbar_pelvis_y", "thorax_lumbar_y", "lower_neck_y", "upper_neck_y")
NO_CRITERIA = ("no injury criteria: with no belt, airbag or contact the torso and head are held "
               "only by the joints' range-of-motion stops, which no physical test reproduces, so "
               "head and neck loads of this run mean nothing and no limit is judged")


def demo_model():
    """The Hybrid III 50M with its pelvis joint turned from free to fixed (welded to the seat)."""
    header, segments = load_description(DUMMY)
    segments[0].joint_kind = "fixed"
    return assemble(header["name"], segments).compile()


def sled_pulse_table():
    """(t (n,) s, a (n,) m/s^2): the sled's acceleration along x (deceleration negative)."""
    t = np.linspace(0.0, 0.3, 3001)
    a = np.where(t < PULSE_DURATION, -PULSE_PEAK * np.sin(np.pi * t / PULSE_DURATION), 0.0)
    return t, a


def sled_pulse():
    t, a = sled_pulse_table()
    return BaseMotion.translational(t, a, velocity0=(SLED_SPEED0, 0.0, 0.0))


def pulse_figures(t, a):
    """Delta-v (m/s, the velocity lost: minus the trapezoidal integral of a), peak deceleration
    (m/s^2) and duration (s, from the last zero sample before the pulse to the first after it)
    of a tabulated acceleration pulse along x."""
    nonzero = np.nonzero(a != 0.0)[0]
    if len(nonzero) == 0:
        return 0.0, 0.0, 0.0
    start, end = t[max(nonzero[0] - 1, 0)], t[min(nonzero[-1] + 1, len(t) - 1)]
    return float(-np.trapezoid(a, t)), float(np.max(-a)), float(end - start)


def describe_pulse(t, a, pulse):
    """One line stating the pulse from its own samples."""
    delta_v, peak, duration = pulse_figures(t, a)
    v0, v1 = pulse.velocity(t[0])[0], pulse.velocity(t[-1])[0]
    return (f"  sled pulse: delta-v {delta_v * 3.6:.1f} km/h, peak {peak / G0:.1f} g, duration "
            f"{duration * 1e3:.0f} ms (sled {v0 * 3.6:.1f} -> {v1 * 3.6:.1f} km/h)")


def run_demo(t_end=0.15, integrator="euler", dt=None, out=print):
    model = demo_model()
    t_pulse, a_pulse = sled_pulse_table()
    pulse = sled_pulse()
    start = time.perf_counter()
    res = simulate(model, t_end, dt=dt, integrator=integrator, base_motion=pulse, output_dt=1e-4)
    wall = time.perf_counter() - start
    out(f"occupant demo: {model.name} ({model.nb} bodies, {model.nv} dofs), pelvis welded to a sled "
        "seat, unrestrained: no belt, airbag or contact")
    out(describe_pulse(t_pulse, a_pulse, pulse))
    out(res.summary())
    head = model.body("head")
    excursion = res.body_com[:, head, 0] - res.base_poses[:, 0, 3]  # relative to the sled
    out(f"  head forward excursion relative to the sled: {1e3 * (excursion.max() - excursion[0]):.0f} mm "
        f"at t = {1e3 * res.t[np.argmax(excursion)]:.0f} ms")
    el = model.joint_resistance
    for name in FLEXION:
        e = model.joint_resistance_names.index(name)
        x = res.outputs[f"{name}.deflection"]
        out(f"  {name:<16} peak flexion {np.degrees(x.max()):6.1f} deg (stop {np.degrees(el.upper[e]):5.1f}), "
            f"extension {np.degrees(-x.min()):6.1f} deg (stop {np.degrees(-el.lower[e]):5.1f})")
    out(f"  {NO_CRITERIA}")
    out(f"  wall time {wall:.2f} s")
    return res
