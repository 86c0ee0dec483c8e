"""End to end: a rod dropped at an angle onto the ground bounces, located and restarted by
``impact_event`` in ``occupant.simulate`` (issue 11 section 3): the first strike at the
closed-form free-fall time, the velocities after it as in the closed form of
test_impact_analytic, and the next strike (of whichever end comes down first) at the root of
the closed-form ballistic motion after the first."""
import numpy as np
import pytest
from scipy.optimize import brentq

import occupant
from occupant.constants import G0
from occupant.contact import ContactError, impact_event
import impact_models as im
from test_impact_analytic import rod_closed_form

M, L, G = 2.0, 1.2, G0        # kg, m, m/s^2
THETA, HEIGHT = 0.5, 0.7      # rad, m: the rod's angle and its centre's height at release


@pytest.mark.parametrize("e, mu", [(0.6, 0.0), (0.6, 0.2)], ids=["frictionless", "sliding"])
def test_analytic_rod_dropped_at_an_angle_bounces(e, mu):
    model = im.rod(M, L)
    q0, v0 = im.rod_state(model, np.array([0.0, 0.0, HEIGHT]), THETA, [0.0, 0.0, 0.0], 0.0)
    ground = dict(plane_point=(0.0, 0.0, 0.0), plane_normal=(0.0, 0.0, 1.0), restitution=e, friction=mu)
    events = [impact_event(model, "rod", (-L / 2, 0.0, 0.0), name="end_A", **ground),
              impact_event(model, "rod", (L / 2, 0.0, 0.0), name="end_B", **ground)]

    # free fall of the lower end A from HEIGHT - (L/2) sin(theta)
    t1 = np.sqrt(2 * (HEIGHT - L / 2 * np.sin(THETA)) / G)
    v_c1, w1, _, _ = rod_closed_form(THETA, [0.0, 0.0, -G * t1], 0.0, e, mu)

    # after it: centre ballistic, spin constant; the axis angle above x falls as theta - w1 tau
    def height(sign, tau):
        z_c = HEIGHT - G * t1 ** 2 / 2 + v_c1[2] * tau - G * tau ** 2 / 2
        return z_c + sign * L / 2 * np.sin(THETA - w1 * tau)

    def first_root(sign):
        taus = np.linspace(1e-9, 2.0, 20001)
        z = height(sign, taus)
        k = np.flatnonzero((z[:-1] > 0) & (z[1:] <= 0))[0]
        return brentq(lambda tau: height(sign, tau), taus[k], taus[k + 1], xtol=1e-15)

    tau_A, tau_B = first_root(-1), first_root(+1)
    t2, second = (t1 + tau_A, "end_A") if tau_A < tau_B else (t1 + tau_B, "end_B")

    res = occupant.simulate(model, t2 + 0.01, q0=q0, v0=v0, integrator="dopri5", dt=1e-2,
                            events=events, rtol=1e-12, atol=1e-12, output_dt=1e-3)
    assert res.status == "finished", res.message
    names = [ev["name"] for ev in res.events]
    assert names[:2] == ["end_A", second]
    assert abs(res.events[0]["t"] - t1) < 1e-9
    assert abs(res.events[1]["t"] - t2) < 1e-9
    # velocities between the strikes against the closed form carried ballistically
    between = np.flatnonzero((res.t > t1 + 1e-3) & (res.t < t2 - 1e-3))
    assert len(between) > 10
    for k in between:
        v_c, w = im.rod_motion(model, res.q[k], res.v[k])
        expected = v_c1 - np.array([0.0, 0.0, G * (res.t[k] - t1)])
        assert np.abs(v_c - expected).max() < 1e-9 * G * t1
        assert np.abs(w - [0.0, w1, 0.0]).max() < 1e-9 * abs(w1)
    assert res.stats["steps"] < 150  # 73 or 74 steps measured: a restart costs a few steps
    print(f"second strike {second}; t1 error {res.events[0]['t'] - t1:.2e} s, t2 error {res.events[1]['t'] - t2:.2e} s, "
          f"steps {res.stats}")


def test_impact_event_rejects_bad_input():
    model = im.rod(M, L)
    with pytest.raises(ContactError, match=r"plane_normal: expected a unit vector, got \(0, 0, 2\)"):
        impact_event(model, "rod", (0, 0, 0), (0, 0, 0), (0, 0, 2))
    with pytest.raises(ContactError, match=r"body: unknown body 'arm' \(known: rod\)"):
        impact_event(model, "arm", (0, 0, 0), (0, 0, 0), (0, 0, 1))
    with pytest.raises(ContactError, match=r"restitution: expected one number in \[0, 1\], got 1.5"):
        impact_event(model, "rod", (0, 0, 0), (0, 0, 0), (0, 0, 1), restitution=1.5)
