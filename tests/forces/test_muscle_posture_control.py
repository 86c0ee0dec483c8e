"""The muscles' closed-loop posture controller (occupant.forces.muscles, posture_commands): a
body pinned on a revolute joint about y, an extensor behind and a flexor in front of the pin,
both long vertical lines (their moment arm the pin's offset, their force-length and passive
parts switched off), sharing one controller that holds the body's pitch."""
import math

import numpy as np
import pytest

import occupant
from occupant.model.bundle import CONTROL_LAGS
from occupant.modeling import Assembly, Joint, JointResistance, Marker, ModelingError, Muscle, Part, Pose

ARM = 0.05          # m, each muscle's insertion behind / in front of the pin
DROP = 1.0          # m, the muscles' origins below their insertions
F_MAX = 1000.0      # N
INERTIA = 1.0       # kg m^2 about the pin
DAMPING = 10.0      # N m s/rad at the pin
DELAY = 0.022       # s
R_PIN = [[1, 0, 0], [0, 0, -1], [0, 1, 0]]     # the joint's z axis along -y of B0


def _pinned(kp, ki=0.0, kd=0.0, preset=0.0, delay=DELAY, f_max=F_MAX, end=math.inf):
    asm = Assembly("pinned_head")
    asm.add(Part("base", 1.0, inertia=(0.01, 0.01, 0.01)))
    asm.add(Joint("ground", "fixed", None, "base", Pose()))
    asm.add(Part("head", 1.0, inertia=(INERTIA, INERTIA, INERTIA)))
    asm.add(Joint("pin", "revolute", "base", "head", Pose(rotation=R_PIN)))
    asm.add(JointResistance("pin_damping", "pin", damping=DAMPING))
    asm.add(Marker("sense", "head", rotation=np.array(R_PIN).T))    # the head's axes as B0's
    control = dict(control_marker="sense", control_kp=kp, control_ki=ki, control_kd=kd,
                   control_delay=delay, control_end=end)
    for name, x, gain in (("extensor", -ARM, 1.0), ("flexor", ARM, -1.0)):
        asm.add(Marker(f"{name}_origin", "base", (x, 0.0, -DROP)))
        asm.add(Marker(f"{name}_insertion", "head", tuple(np.array(R_PIN).T @ (x, 0.0, 0.0))))
        asm.add(Muscle(name, f"{name}_origin", f"{name}_insertion", max_force=f_max,
                       optimal_length=DROP, tendon_length=0.1, width=1e9, excitation=preset,
                       control_gain=gain, **control))
    return asm.compile()


def _pitch_moment(theta, tension, x):
    """Moment about +y (flexion positive) of a muscle of ``tension`` from (x, 0, -DROP) to its
    insertion (x, 0, 0) turned by the pitch ``theta`` about +y (statics, by hand)."""
    ins = np.array([x * math.cos(theta), 0.0, -x * math.sin(theta)])
    u = np.array([x, 0.0, -DROP]) - ins
    return np.cross(ins, tension * u / np.linalg.norm(u))[1]


def test_analytic_delay_and_pid_of_a_held_error():
    """With the body held at rest (no muscle force: F_max ~ 0) and the reference set 0.1 rad
    off, the error is a step at t = 0: the delayed error follows the Erlang distribution of
    CONTROL_LAGS stages of DELAY / CONTROL_LAGS each, and the command is kp, ki, kd on it, each
    from its closed form; the extensor's excitation is the command, the flexor's none."""
    kp, ki, kd, step = 2.0, 5.0, 0.1, 0.1
    model = _pinned(kp, ki, kd, f_max=1e-9)
    z0 = np.zeros(model.nz)
    z0[model.z_names.index("sense.control.reference")] = -step
    res = occupant.simulate(model, 0.1, z0=z0, integrator="rk4", dt=1e-5, gravity=(0, 0, 0))
    t, out = res.t, res.outputs
    x = t / (DELAY / CONTROL_LAGS)
    terms = sum(x ** i / math.factorial(i) for i in range(CONTROL_LAGS))
    delayed = step * (1.0 - np.exp(-x) * terms)
    rate = step * np.exp(-x) * x ** (CONTROL_LAGS - 1) / math.factorial(CONTROL_LAGS - 1) \
        / (DELAY / CONTROL_LAGS)
    # the integral of the Erlang CDF: t F(t) - (mean) F_{k+1}(t), mean = DELAY
    terms1 = sum(x ** i / math.factorial(i) for i in range(CONTROL_LAGS + 1))
    integral = step * (t * (1.0 - np.exp(-x) * terms) - DELAY * (1.0 - np.exp(-x) * terms1))
    np.testing.assert_allclose(out["sense.control.error"], step, atol=1e-12)
    np.testing.assert_allclose(out["sense.control.delayed_error"], delayed, atol=1e-9)
    np.testing.assert_allclose(out["sense.control.command"], kp * delayed + ki * integral
                               + kd * rate, atol=1e-8)
    half = t[np.argmax(out["sense.control.delayed_error"] >= 0.5 * step)]
    assert half == pytest.approx(0.892 * DELAY, abs=2e-4)   # the Erlang-3 median, 2.674 / 3
    # the extensor's excitation is the command: its activation follows it, the flexor's stays 0
    assert out["extensor.activation"][-1] > 0.1 and np.all(out["flexor.activation"] == 0.0)


def test_analytic_the_controller_lets_go_at_its_end():
    """The held error of the test above with the controller ending at 40 ms (control_end, the
    pulse's start for the human's neck): until then the extensor's activation rises towards the
    command, from then its excitation is the preset (0), and the activation decays from its
    value at the end as exp(-(t - end) / deactivation time); the command itself goes on (an
    output only); the flexor stays relaxed throughout."""
    kp, step, end = 2.0, 0.1, 0.04
    model = _pinned(kp, f_max=1e-9, end=end)
    z0 = np.zeros(model.nz)
    z0[model.z_names.index("sense.control.reference")] = -step
    res = occupant.simulate(model, 0.12, z0=z0, integrator="rk4", dt=1e-5, gravity=(0, 0, 0))
    t, out = res.t, res.outputs
    a = out["extensor.activation"]
    k = int(np.searchsorted(t, end))
    assert t[k] == pytest.approx(end) and a[k] > 0.05        # it had risen under the command
    tau = model.muscles.deactivation_time[0]
    np.testing.assert_allclose(a[k:], a[k] * np.exp(-(t[k:] - end) / tau), rtol=1e-6)
    free = occupant.simulate(_pinned(kp, f_max=1e-9), 0.12, z0=z0, integrator="rk4", dt=1e-5,
                             gravity=(0, 0, 0))
    np.testing.assert_allclose(free.outputs["extensor.activation"][:k], a[:k], atol=1e-12)
    assert free.outputs["extensor.activation"][-1] > a[k]     # without an end it keeps rising
    np.testing.assert_allclose(out["sense.control.command"], free.outputs["sense.control.command"],
                               atol=1e-12)
    assert np.all(out["flexor.activation"] == 0.0)


def test_analytic_steady_error_of_proportional_control_under_a_step_moment():
    """A step moment M flexing the pinned body: held by proportional control alone, it comes to
    rest where M = -(extensor's + flexor's moments) with the extensor excited kp x error (the
    flexor relaxed): the statics solved by hand for the pitch, against the run's; with an
    integral term the steady error vanishes."""
    kp, moment = 2.0, 5.0
    model = _pinned(kp)
    tau = np.array([-moment])                 # the joint's axis is -y: -M flexes about +y
    res = occupant.simulate(model, 4.0, tau=tau, integrator="rk4", dt=1e-4, gravity=(0, 0, 0))
    err = res.outputs["sense.control.error"][-1]
    # statics: M + moment of the extensor at tension F_max kp theta = 0 (small-angle free)
    lo, hi = 0.0, 0.5
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if moment + _pitch_moment(mid, F_MAX * kp * mid, -ARM) > 0.0:
            lo = mid
        else:
            hi = mid
    assert err == pytest.approx(mid, rel=1e-4)
    assert err == pytest.approx(moment / (kp * F_MAX * ARM), rel=2e-3)   # small angles: linear
    held = _pinned(kp, ki=2.0)
    res = occupant.simulate(held, 8.0, tau=tau, integrator="rk4", dt=1e-4, gravity=(0, 0, 0))
    assert abs(res.outputs["sense.control.error"][-1]) < 1e-3 * mid


def test_analytic_the_delay_slows_the_step_response():
    """The same step moment against PD control: the longer the delay, the further the body
    overshoots its steady pitch (the error's peak over its end value), the delay's known
    effect on a loop; with no delay worth the name the peak is the end value's within 2 %."""
    kp, kd, moment = 2.0, 0.05, 20.0
    peaks = []
    for delay in (1e-4, 0.022, 0.06):
        res = occupant.simulate(_pinned(kp, kd=kd, delay=delay), 3.0, tau=np.array([-moment]),
                                integrator="rk4", dt=1e-4, gravity=(0, 0, 0))
        e = res.outputs["sense.control.error"]
        peaks.append(e.max() / e[-1])
    assert peaks[0] < 1.02 and peaks[0] < peaks[1] < peaks[2]


def test_reference_muscles_of_one_controller_must_agree():
    asm = Assembly("disagree")
    asm.add(Part("a", 1.0, inertia=(0.01, 0.01, 0.01)))
    asm.add(Joint("g", "fixed", None, "a", Pose()))
    asm.add(Part("b", 1.0, inertia=(0.01, 0.01, 0.01)))
    asm.add(Joint("p", "revolute", "a", "b", Pose()))
    asm.add(Marker("o", "a"), Marker("i", "b"), Marker("s", "b"))
    asm.add(Muscle("m1", "o", "i", max_force=1.0, optimal_length=0.1, control_marker="s",
                   control_kp=1.0, control_delay=0.02))
    asm.add(Muscle("m2", "o", "i", max_force=1.0, optimal_length=0.1, control_marker="s",
                   control_kp=2.0, control_delay=0.02))
    with pytest.raises(ModelingError, match="m2.*control_kp"):
        asm.compile()


@pytest.mark.parametrize("key, value", [("control_kp", -1.0), ("control_delay", 0.0),
                                        ("control_gain", math.nan), ("control_end", math.nan)])
def test_reference_bad_control_input_names_the_key(key, value):
    kwargs = dict(control_marker="s", control_kp=1.0, control_delay=0.02)
    kwargs[key] = value
    with pytest.raises(ModelingError, match=f"muscle 'm'.{key}"):
        Muscle("m", "o", "i", max_force=1.0, optimal_length=0.1, **kwargs)
