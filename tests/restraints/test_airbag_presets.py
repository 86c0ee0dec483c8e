"""The typical driver, passenger and knee bags (occupant.modeling.airbags.DRIVER_BAG,
PASSENGER_BAG, KNEE_BAG): their free deployment against the figures they were fitted to
(crash-domain-facts 6.2, 6.4), a torso-sized body striking the driver bag and a knee the knee bag
against what a crash engineer expects."""
import numpy as np
import pytest

import occupant
from occupant.modeling import (
    AirbagContact, Assembly, Ellipsoid, Joint, Marker, Part, Pose, Sphere, driver_airbag,
    knee_airbag, passenger_airbag,
)

UP_X = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])  # bag x along B0 z


def _deploy(bag):
    asm = Assembly("deploy")
    asm.add(Part("p", 1.0))
    asm.add(Joint("j", "prismatic", None, "p", Pose()))
    asm.add(bag)
    return occupant.simulate(asm.compile(), 0.1, integrator="rk4", dt=1e-5, gravity=(0, 0, 0),
                             output_dt=1e-3)


@pytest.mark.parametrize("make, t_full", [(driver_airbag, 0.03), (passenger_airbag, 0.04),
                                          (knee_airbag, 0.02)])
def test_reference_free_deployment(make, t_full):
    """Fired at 0: full at the deployment time with about 44 g of gas per 60 L at about 1.3 bar
    and 600-650 K (crash-domain-facts 6.4 [D]); the gauge pressure peaks at tens of kPa and the
    vents (the knee bag: its fabric's leakage) bring it down to a few kPa by 100 ms."""
    bag = make("bag")
    res = _deploy(bag)
    out = res.outputs
    k = int(round(t_full / 1e-3))
    assert out["bag.volume"][k] == pytest.approx(bag.volume, rel=1e-12)
    assert out["bag.gas_mass"][k] / bag.volume * 0.06 == pytest.approx(0.044, rel=0.1)
    assert out["bag.pressure"][k] == pytest.approx(1.3e5, rel=0.1)
    assert 550 < out["bag.temperature"][k] < 700
    assert 20e3 < out["bag.gauge_pressure"].max() < 60e3
    assert 0 < out["bag.gauge_pressure"][-1] < 10e3


def test_reference_driver_inflator_in_a_60_L_tank():
    """DRIVER_BAG's inflator fired into a closed rigid 60 L tank (the tank test by which
    inflators are specified; 60 L for a driver inflator [U]): no vent, no leakage, the volume
    fixed. The kernel's pressure follows the adiabatic closed form dp/dt = (gamma - 1) c_p T_in
    m_dot / V [D, the energy balance of occupant.restraints.airbag with dV = 0]: 212 kPa in all,
    at most 90 kPa in any 10 ms, on the plateau of 2 kg/s. Held against the one tank-test figure
    reached (issue 11, `airbagdeck`): driver modules were predicted to abrade skin above a peak
    tank-pressure slope of 160-180 kPa / 10 ms (Sugimoto, Shindo and Reed, ESV 1994, 94-S4-W-23
    [C abstract, swov.nl]; its tank's volume not given there). The adiabatic tank keeps all the
    gas's heat, so this is the most the fitted inflator could read; it stays below the lower
    end. It does not set the inflator: no driver inflator's tank-test curve was reached."""
    volume = 0.060                                                   # m^3
    r = (volume / (4.0 / 3.0 * np.pi)) ** (1.0 / 3.0)
    bag = driver_airbag("bag", semi_axes=(r, r, r), folded_volume=1e-4, deployment_time=0.0,
                        leading_edge_speed=None, vent_area=0.0)
    res = _deploy(bag)
    t, out = res.t, res.outputs
    assert np.allclose(out["bag.volume"], volume, rtol=1e-12)
    flow = np.asarray(bag.mass_flow)
    delivered = np.array([np.trapezoid(np.interp(np.linspace(0, ti, 2001), flow[:, 0], flow[:, 1]),
                                       np.linspace(0, ti, 2001)) for ti in t])
    gamma = bag.cp / bag.cv
    rise = (gamma - 1.0) * bag.cp * bag.gas_temperature[0, 1] * delivered / volume   # Pa [D]
    np.testing.assert_allclose(out["bag.pressure"] - out["bag.pressure"][0], rise,
                               rtol=1e-6, atol=1.0)
    assert rise[-1] == pytest.approx(211.6e3, rel=1e-3)
    k = int(round(0.010 / (t[1] - t[0])))
    slope = (out["bag.pressure"][k:] - out["bag.pressure"][:-k]).max()   # Pa per 10 ms
    assert slope == pytest.approx(90.0e3, rel=1e-2)
    assert slope < 160e3


@pytest.mark.parametrize("law", ["lens", "dimple"])
def test_reference_torso_into_a_driver_bag(law):
    """A torso-sized ellipsoid (Hybrid III 5F upper torso, 12.02 kg, crash-domain-facts 1.2 [C];
    semi-axes 0.1 x 0.17 x 0.2 m [E]) on a free joint meeting the full driver bag at 7 m/s (the
    occupant's speed relative to the car in a 56 km/h test is of that order [E]): a deceleration
    of 10-40 g (10-50 g under the "dimple" law, between the average over its shorter stroke and
    2.5 times it), a gauge pressure of tens of kPa (6.2: 30-60 kPa during occupant loading [U]),
    stopped within the bag's depth (0.333 m, the two-panel shape of DRIVER_BAG) and rebounding,
    and the energy balance closing with the airbag's work."""
    asm = Assembly("torso")
    mass = 12.02
    asm.add(Part("torso", mass, inertia=(0.2, 0.15, 0.1)))   # kg m^2 [E]
    asm.add(Joint("free", "free", None, "torso", Pose()))
    asm.add(Marker("centre", "torso"))
    asm.add(Ellipsoid("chest", "centre", (0.17, 0.2, 0.1)))   # 0.1 m deep along B0 z
    bag = driver_airbag("bag", None, rotation=UP_X, contact_law=law)
    depth = 2.0 * bag.semi_axes[0]
    asm.add(bag)
    asm.add(AirbagContact("bag_chest", "bag", "chest"))
    model = asm.compile()
    v0, t_meet = 7.0, 0.045
    q0 = model.neutral_configuration()
    q0[2] = depth + 0.1 + v0 * t_meet
    v = np.zeros(6)
    v[2] = -v0
    res = occupant.simulate(model, 0.12, q0=q0, v0=v, integrator="rk4", dt=1e-5,
                            gravity=(0, 0, 0), output_dt=1e-4)
    out = res.outputs
    # hand estimate: 294 J taken within the bag's 0.333 m depth needs at least 0.9 kN, 7.5 g on
    # average; a force rising with the penetration peaks at up to about twice that
    # (2.3 kN, 19 g over the dimple law's 0.13 m)
    decel_g = np.linalg.norm(res.vdot[:, :3], axis=1).max() / 9.80665
    stroke = out["bag_chest.penetration"].max()
    if law == "lens":
        assert 10 < decel_g < 40   # measured 19.3 g (19.4 g in the 0.26 m deep bag)
    else:
        average_g = 0.5 * mass * v0**2 / stroke / mass / 9.80665
        assert average_g < decel_g < 2.5 * average_g   # measured 42.3 g, 2.2 x the average
        assert 10 < decel_g < 50   # measured 42.3 g
    assert 20e3 < out["bag.gauge_pressure"][res.t > t_meet].max() < 80e3   # dimple: 38.6 kPa
    assert res.v[-1, 2] > 0   # rebound
    # measured 0.200 m (0.195 m in the 0.26 m deep bag; dimple 0.129 m)
    assert stroke < depth
    exchanged = np.abs(res.work["airbags"]).max()
    assert exchanged > 0.5 * 0.5 * mass * v0**2
    assert np.abs(res.energy["balance"]).max() < 1e-10 * exchanged   # measured 1.4e-14


def test_analytic_two_panel_driver_bag_shape():
    """The two-panel bag (occupant.modeling.airbags.two_panel_semi_axes): its constants are those
    of Paulsen's Mylar balloon, integrated here from the profile z'(x) = -x^2 / sqrt(1 - x^4)
    (unit radius): panel radius / radius 1.3110 (arc length), thickness / radius 2 x 0.5991,
    volume / radius^3 2.7458; the ellipsoid holds the volume asked for and is that deep."""
    from scipy.integrate import quad
    from occupant.modeling.airbags import (DRIVER_BAG, TWO_PANEL_THICKNESS, TWO_PANEL_VOLUME,
                                           two_panel_semi_axes)
    arc = quad(lambda x: 1.0 / np.sqrt(1.0 - x**4), 0.0, 1.0)[0]
    half = quad(lambda x: x * x / np.sqrt(1.0 - x**4), 0.0, 1.0)[0]
    z = lambda x: quad(lambda u: u * u / np.sqrt(1.0 - u**4), x, 1.0)[0]
    volume = 2.0 * quad(lambda x: 2.0 * np.pi * x * z(x), 0.0, 1.0)[0]
    assert arc == pytest.approx(1.3110287771, rel=1e-9)
    assert TWO_PANEL_THICKNESS == pytest.approx(2.0 * half, rel=1e-9)
    assert TWO_PANEL_VOLUME == pytest.approx(volume, rel=1e-7)
    a, b, c = two_panel_semi_axes(0.059)
    r = (0.059 / volume) ** (1.0 / 3.0)
    assert 4.0 / 3.0 * np.pi * a * b * c == pytest.approx(0.059, rel=1e-12)
    assert 2.0 * a == pytest.approx(2.0 * half * r, rel=1e-9) and b == c
    assert DRIVER_BAG["semi_axes"] == (a, b, c)
    assert 2.0 * a == pytest.approx(0.333, abs=5e-4) and 2.0 * b == pytest.approx(0.582, abs=5e-4)


@pytest.mark.parametrize("law", ["lens", "dimple"])
def test_reference_knee_into_a_knee_bag(law):
    """The knee bag (KNEE_BAG: 18 L, Schroeder and Bosch [S]) fired at 0, a knee (the 65 mm
    sphere of the scenarios' knee contacts) with 5 kg of leg behind it [E] starting 10 mm ahead of
    the full bag's face at 20 ms and moving into it at 2 m/s [E: the knees' speed relative to the
    car when they meet the bag in us_ncap_frontal_56]. The bag deploys to its 18 L, then pushes
    the knee with its gauge pressure over the lens' rim (at most the knee's great circle,
    pi 0.065^2 = 0.0133 m^2), stops it within the bag's 0.2 m depth short of the backing plane
    (by hand: the 10 J taken as p pi r^2 (d - r / 3) at about 20 kPa, d near 0.06 m; measured
    0.085 m, the leaking bag's pressure falling meanwhile: 19 kPa, 0.19 kN at the peak); the
    work the knee did on the gas leaves with the leaking gas, so the knee is not sent back. Under
    the "dimple" law the gas pushes the knee over the taut fabric's dimple (0.026 m^2 at the
    peak, twice the knee's great circle), at most the bag's face: measured 0.030 m, 22 kPa and
    0.53 kN at the peak, and the knee is sent back slower than it came (1.17 of 2 m/s). The
    gas's mass is its initial content plus the integral of the inflator's flow less the fabric's
    leakage, and the energy balance of the step closes with the bag's work."""
    from scipy.integrate import cumulative_trapezoid
    from occupant.modeling.airbags import KNEE_BAG
    asm = Assembly("knee")
    mass, radius, v0 = 5.0, 0.065, 2.0
    asm.add(Part("leg", mass, inertia=(0.05, 0.05, 0.05)))
    asm.add(Joint("slide", "prismatic", None, "leg", Pose()))   # along B0 z, the bag's axis
    asm.add(Marker("knee", "leg"))
    asm.add(Sphere("knee_sphere", "knee", radius))
    bag = knee_airbag("bag", None, rotation=UP_X, contact_law=law)
    asm.add(bag)
    asm.add(AirbagContact("bag_knee", "bag", "knee_sphere"))
    model = asm.compile()
    depth = 2.0 * bag.semi_axes[0]
    t_full = KNEE_BAG["deployment_time"]
    q0, v = np.array([depth + radius + 0.01 + v0 * t_full]), np.array([-v0])
    res = occupant.simulate(model, 0.15, q0=q0, v0=v, integrator="rk4", dt=1e-5,
                            gravity=(0, 0, 0), output_dt=1e-5)
    out, t = res.outputs, res.t
    assert bag.volume == pytest.approx(0.018, rel=1e-3)
    k = int(round(t_full / 1e-5))
    assert out["bag.volume"][k] == pytest.approx(bag.volume, rel=1e-12)
    # V = f V_nominal - displaced, f = 1 once deployed
    full = t >= t_full
    np.testing.assert_allclose(out["bag.volume"][full] + out["bag_knee.displaced_volume"][full],
                               bag.volume, rtol=1e-12)
    force = out["bag_knee.force"]
    stroke = out["bag_knee.penetration"].max()
    # above the average force over the stroke, below the peak pressure over the great circle
    # (the dimple: over the bag's face)
    great = out["bag.gauge_pressure"].max() * np.pi * radius**2
    face = out["bag.gauge_pressure"].max() * np.pi * bag.semi_axes[1] * bag.semi_axes[2]
    assert 0.5 * mass * v0**2 / stroke < force.max() < (great if law == "lens" else face)
    np.testing.assert_allclose(force, np.maximum(out["bag.gauge_pressure"], 0.0)
                               * out["bag_knee.area"], rtol=1e-12, atol=1e-9)
    assert 0.0 < stroke < depth - bag.bottoming_thickness
    assert out["bag_knee.bottoming_force"].max() == 0.0
    if law == "lens":
        assert out["bag_knee.area"].max() <= np.pi * radius**2 * (1 + 1e-12)
        assert res.v[-1, 0] ** 2 < 0.05 * v0**2   # its energy taken (measured 1.2 % left, creeping in)
    else:
        assert out["bag_knee.area"].max() > np.pi * radius**2   # the dimple beyond the knee
        assert 0.0 < res.v[-1, 0] < 0.75 * v0   # sent back slower (measured 1.17 m/s)
    # gas mass: m0 + int (inflow - leakage); the trapezoid rule on the 10 us samples of the
    # piecewise-smooth flows is within dt^2 / 12 times the flows' second derivative's integral
    # of RK4's integral (measured 7e-10 kg of 12.8 g)
    m0 = out["bag.gas_mass"][0]
    net = cumulative_trapezoid(out["bag.mass_inflow"] - out["bag.mass_outflow"], t, initial=0.0)
    np.testing.assert_allclose(out["bag.gas_mass"], m0 + net, atol=1e-8)
    assert out["bag.mass_outflow"].max() > 0.0
    assert out["bag.gas_mass"][-1] < out["bag.gas_mass"].max()
    exchanged = np.abs(res.work["airbags"]).max()
    assert exchanged > 0.5 * 0.5 * mass * v0**2
    assert np.abs(res.energy["balance"]).max() < 1e-10 * exchanged   # measured 1.4e-14
