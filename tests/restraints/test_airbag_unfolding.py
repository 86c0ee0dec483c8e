"""How the bag's shape unfolds (occupant.modeling.airbags.unfolded_scales): grown uniformly with
its volume, or, given the peak speed of its front (the driver bag: Powell and Lund's 1993 bags,
DRIVER_BAG), punched out along its axis first and filled across after. Closed forms of the law
(the front's peak speed and its time, full depth, the volume held), and the kernel's shape
against them: held balls ahead of the bag and beside it are reached when the law says."""
import numpy as np
import pytest
from scipy.optimize import brentq

import occupant
from occupant.modeling import (
    AirbagContact, Assembly, Joint, Marker, ModelingError, Part, Pose, Sphere, driver_airbag,
)
from occupant.modeling.airbags import DRIVER_BAG, unfolded_scales

FIRE = 0.002   # s


def _smoothstep(u):
    u = np.clip(u, 0.0, 1.0)
    return u * u * (3.0 - 2.0 * u)


def test_analytic_punch_out_front_speed_and_volume():
    """The driver bag's front, at 2 a alpha, peaks at the given speed half-way to its full depth,
    t_fire + depth_time / 2, depth_time = 1.5 x 2 a (1 - f0^(1/3)) / speed, and stops there at
    full depth; the shape keeps the volume (alpha beta^2 = f), never wider than its full width,
    full at the deployment time; the rates are the law's derivatives. The uniform law (no
    speed) is alpha = beta = f^(1/3), its front peaking at 15.75 m/s at 3.46 ms (the brief's
    figure before)."""
    bag = driver_airbag("d", firing_time=FIRE)
    a, f0, td, tx = bag.semi_axes[0], bag.folded_volume / bag.volume, bag.deployment_time, bag.depth_time
    speed = DRIVER_BAG["leading_edge_speed"]
    assert speed == pytest.approx(69.3, abs=0.05)        # the middle of 171-328 km/h
    assert tx == pytest.approx(1.5 * 2 * a * (1 - f0 ** (1 / 3)) / speed, rel=1e-12)
    t = np.linspace(0.0, 0.04, 40001)
    S = np.array([unfolded_scales(f0, FIRE, td, tx, x) for x in t])
    f, alpha, beta, f_rate, alpha_rate, beta_rate = S.T
    front_speed = 2 * a * alpha_rate
    k = np.argmax(front_speed)
    assert front_speed[k] == pytest.approx(speed, rel=1e-6)
    assert t[k] == pytest.approx(FIRE + tx / 2, abs=1e-6)
    np.testing.assert_allclose(alpha, f0 ** (1 / 3) + (1 - f0 ** (1 / 3)) * _smoothstep((t - FIRE) / tx),
                               atol=1e-14)
    np.testing.assert_allclose(alpha * beta ** 2, f, rtol=1e-12)
    np.testing.assert_allclose(f, f0 + (1 - f0) * _smoothstep((t - FIRE) / td), atol=1e-14)
    assert np.all(alpha[t >= FIRE + tx] == 1.0) and np.all(beta <= 1.0 + 1e-15)
    assert beta[np.searchsorted(t, FIRE + td)] == pytest.approx(1.0, abs=1e-12)
    dt = t[1] - t[0]
    for value, rate in ((f, f_rate), (alpha, alpha_rate), (beta, beta_rate)):
        np.testing.assert_allclose(np.gradient(value, dt)[1:-1], rate[1:-1], atol=2e-3 * rate.max())
    # the uniform law, as before
    U = np.array([unfolded_scales(f0, FIRE, td, -1.0, x) for x in t])
    np.testing.assert_allclose(U[:, 1], U[:, 0] ** (1 / 3), rtol=1e-14)
    np.testing.assert_array_equal(U[:, 1], U[:, 2])
    k = np.argmax(2 * a * U[:, 4])
    assert 2 * a * U[k, 4] == pytest.approx(15.75, abs=0.01) and t[k] - FIRE == pytest.approx(3.46e-3, abs=2e-5)


def _held_ball(radius, position, axis_up):
    """The driver bag fired at FIRE on B0 (its x along B0 x; ``axis_up``: its x along B0 z) and a
    1e6 kg ball of ``radius`` on a vertical prismatic joint, its centre at ``position`` (q = 0)."""
    asm = Assembly("unfold")
    mass = 1e6
    asm.add(Part("ball", mass, inertia=(0.4 * mass * radius**2,) * 3))
    asm.add(Joint("lift", "prismatic", None, "ball", Pose()))
    asm.add(Marker("centre", "ball", position=position))
    asm.add(Sphere("shell", "centre", radius))
    rotation = ([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]] if axis_up
                else [[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])   # y along B0 z
    asm.add(driver_airbag("bag", None, rotation=rotation, firing_time=FIRE))
    asm.add(AirbagContact("bag_ball", "bag", "shell"))
    return asm.compile()


@pytest.mark.parametrize("where", ["ahead", "beside"])
def test_analytic_punch_out_reaches_held_balls(where):
    """The kernel's shape is the law's: a ball (R 0.05 m) 0.2 m ahead of the hub on the bag's
    axis is reached when the front, 2 a alpha(t), gets there (2.5 ms after firing, in the
    punch-out); one 0.2 m beside the axis at the full bag's mid-depth x = a when the width
    beta(t) b gets there (after full depth: 14.3 ms). The uniform law reaches them at 8.7 and
    11.2 ms: deeper first, the bag fills across later. The ball ahead is put in by the front
    alone: the depth the unfolding put it in (the pair's state G, restraints.airbag.
    _unfolded_depth, the surface's speed along x alpha' / alpha times its distance) is its
    whole depth, 2 a alpha(t) - 0.2 m."""
    R, gap = 0.05, 0.2
    bag = driver_airbag("d", firing_time=FIRE)
    a, b = bag.semi_axes[:2]
    f0, td, tx = bag.folded_volume / bag.volume, bag.deployment_time, bag.depth_time
    if where == "ahead":
        model = _held_ball(R, (0.0, 0.0, gap + R), axis_up=True)
        reach = lambda x: 2 * a * unfolded_scales(f0, FIRE, td, tx, x)[1] - gap   # noqa: E731
    else:
        model = _held_ball(R, (a, 0.0, gap + R), axis_up=False)
        reach = lambda x: b * unfolded_scales(f0, FIRE, td, tx, x)[2] - gap       # noqa: E731
    t_touch = brentq(reach, FIRE, FIRE + td, xtol=1e-12)
    assert (t_touch - FIRE < tx) == (where == "ahead")
    res = occupant.simulate(model, round(t_touch + 2e-3, 5), q0=[0.0], integrator="rk4", dt=1e-5,
                            gravity=(0, 0, 0), output_dt=1e-5, tau=[0.0])
    d = res.outputs["bag_ball.penetration"]
    k = np.argmax(d > 0)
    assert d[k] > 0 and res.t[k - 1] <= t_touch + 1e-9 and t_touch <= res.t[k] + 1e-9
    if where == "ahead":   # all its depth is the front's unfolding: the pair's state G follows
        alpha = np.array([unfolded_scales(f0, FIRE, td, tx, x)[1] for x in res.t])
        np.testing.assert_allclose(d[k:], 2 * a * alpha[k:] - gap, atol=1e-9)
        G = res.z[:, model.z_names.index("bag_ball.unfolded_depth")]
        np.testing.assert_allclose(G[k:], d[k:], atol=2e-4)


def test_errors_name_the_element():
    bag = driver_airbag("d")
    slowest = 1.5 * 2 * bag.semi_axes[0] * (1 - (bag.folded_volume / bag.volume) ** (1 / 3)) / bag.deployment_time
    assert driver_airbag("d", leading_edge_speed=slowest * 1.0001).depth_time < bag.deployment_time
    with pytest.raises(ModelingError, match=r"airbag 'd'.leading_edge_speed: its front must reach"):
        driver_airbag("d", leading_edge_speed=0.9 * slowest)
    with pytest.raises(ModelingError, match=r"airbag 'd'.leading_edge_speed"):
        driver_airbag("d", leading_edge_speed=-1.0)
    assert driver_airbag("d", leading_edge_speed=None).depth_time == -1.0
