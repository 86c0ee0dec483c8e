"""Events that change the state and restart the integration (a ball bouncing with restitution
e), in the compiled fixed-step loops and in the Python driver; the integrator registry and
restart."""
import numpy as np
import pytest

import occupant
from occupant import samples
from occupant.constants import G0
from occupant.integrate import INTEGRATORS, DormandPrince5, Event, MultibodySystem
from occupant.modeling import Assembly, Part, Joint, Pose
from occupant.simulate import SimulationError

H, E, G = 1.0, 0.8, G0   # drop height m, restitution, gravity m/s^2


def _ball():
    """A ball on a vertical slider: q is the height of its lowest point above the plane."""
    asm = Assembly("ball")
    asm.add(Part("ball", 0.5, inertia=(1e-3, 1e-3, 1e-3)))
    asm.add(Joint("drop", "prismatic", None, "ball", Pose()))
    return asm.compile()


def _bounce(model):
    def handler(t, y):
        out = y.copy()
        out[model.nq] = -E * y[model.nq]   # Newton's restitution law at the plane
        return out
    return handler


def _closed_form(t_end):
    """Impact times t_k and the peak heights between them: free fall to t_1 = sqrt(2 H / g) at
    speed v_1 = g t_1; after impact k the ball leaves at e^k v_1, flies 2 e^k v_1 / g and rises
    to e^(2k) H."""
    t1 = np.sqrt(2 * H / G)
    times, t, k = [], t1, 0
    while t < t_end:
        times.append(t)
        k += 1
        t += 2 * E**k * G * t1 / G
    peaks = [E ** (2 * k) * H for k in range(1, len(times))]
    return np.array(times), np.array(peaks)


def _check(res, output_dt):
    times, peaks = _closed_form(res.t[-1])
    got = np.array([e["t"] for e in res.events])
    assert [e["name"] for e in res.events] == ["impact"] * len(times)
    np.testing.assert_allclose(got, times, rtol=0, atol=1e-9)
    for k, peak in enumerate(peaks):          # between impacts k and k + 1
        inside = (res.t > times[k]) & (res.t < (times[k + 1] if k + 1 < len(times) else np.inf))
        # a sample lies within output_dt / 2 of the apex: height below it by at most g (dt/2)^2 / 2
        assert res.q[inside, 0].max() == pytest.approx(peak, abs=G * output_dt**2 / 8 + 1e-12)
    assert res.q[:, 0].min() > -1e-9           # never through the plane


@pytest.mark.parametrize("integrator,dt", [("rk4", 1e-3), ("dopri5", 1e-2)])
def test_analytic_bouncing_ball_restitution(integrator, dt):
    """Peak heights fall as e^(2k) and the impacts come at their closed-form times (to 1e-9 s):
    RK4 and the dense outputs are exact for the free flight's parabola."""
    model = _ball()
    impact = Event("impact", lambda t, y: y[0], direction=-1, handler=_bounce(model))
    res = occupant.simulate(model, 3.0, q0=[H], dt=dt, integrator=integrator, events=[impact],
                            output_dt=1e-3, rtol=1e-12, atol=1e-12)
    assert res.status == "finished" and res.t[-1] == pytest.approx(3.0)
    _check(res, 1e-3)
    if integrator == "rk4":
        # the compiled loop ran all but the six impact steps, which the driver took again
        assert res.stats["steps"] == 3000


def test_identity_compiled_and_python_event_paths_agree():
    """An event function numba cannot compile (it reads a Python dict) runs the same events
    through the Python driver; the compiled loop gives the same times and states."""
    model = _ball()
    where = {"level": 0.0}
    compiled = Event("impact", lambda t, y: y[0], direction=-1, handler=_bounce(model))
    python = Event("impact", lambda t, y: y[0] - where["level"], direction=-1, handler=_bounce(model))
    a = occupant.simulate(model, 2.0, q0=[H], dt=1e-3, events=[compiled])
    b = occupant.simulate(model, 2.0, q0=[H], dt=1e-3, events=[python])
    np.testing.assert_allclose([e["t"] for e in a.events], [e["t"] for e in b.events], atol=1e-12)
    np.testing.assert_allclose(a.q, b.q, atol=1e-12)
    np.testing.assert_allclose(a.v, b.v, atol=1e-12)


def test_reference_integrators_registered_by_name():
    assert {"rk4", "euler", "dopri5"} <= set(INTEGRATORS)
    with pytest.raises(SimulationError, match="unknown integrator 'heun'.*accepted: .*rk4"):
        occupant.simulate(samples.pendulum(), 0.1, integrator="heun")


def test_identity_reset_restarts_dopri5_from_the_new_state():
    """After reset the first-same-as-last stage is the derivative at the new state."""
    model = samples.pendulum(n_links=2)
    system = MultibodySystem(model)
    integ = DormandPrince5(system, 0.0, system.initial_state([0.3, 0.1], [0.0, 0.0]))
    integ.step()
    y_new = system.initial_state([1.0, -0.4], [2.0, 0.5])
    integ.reset(0.5, y_new)
    assert integ.t == 0.5 and np.array_equal(integ.y, y_new)
    np.testing.assert_array_equal(integ.K[0], system.rhs(0.5, y_new))
