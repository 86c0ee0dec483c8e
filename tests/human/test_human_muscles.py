"""Hill-type line muscles (occupant.modeling.muscles, occupant.forces.muscles): the curves in
closed form, isometric and isotonic force of the compiled element, first-order activation, its
outputs, input checking, and the energy balance with the muscles' work in their power slot."""
import math

import numpy as np
import pytest

import occupant
from occupant.forces.muscles import (ECCENTRIC_MAX, HILL_A, force_length, force_velocity,
                                     passive_force)
from occupant.integrate.pipeline import evaluate
from occupant.modeling import Assembly, Joint, Marker, ModelingError, Muscle, Part, Pose

MASS, F_MAX, L_OPT, V_MAX = 2.0, 400.0, 0.10, 10.0


def test_analytic_curves_closed_form():
    # force-length: 1 at the optimal length, 1/2 at l = 1 +- sqrt(gamma ln 2), symmetric
    assert force_length(1.0, 0.45) == pytest.approx(1.0, abs=1e-15)
    d = math.sqrt(0.45 * math.log(2.0))
    assert force_length(1.0 + d, 0.45) == pytest.approx(0.5, rel=1e-12)
    assert force_length(1.0 - d, 0.45) == pytest.approx(0.5, rel=1e-12)
    # force-velocity: isometric 1, v_max 0, half speed (1 - 1/2)/(1 + 2) = 1/6 with A = 1/4
    assert force_velocity(0.0) == 1.0
    assert force_velocity(-1.0) == 0.0 and force_velocity(-1.5) == 0.0
    assert force_velocity(-0.5) == pytest.approx(0.5 / (1.0 + 0.5 / HILL_A), rel=1e-14)
    assert force_velocity(-0.5) == pytest.approx(1.0 / 6.0, rel=1e-14)
    # lengthening: tends to the eccentric plateau, continuous slope 1 + 1/A at zero velocity
    assert force_velocity(1e6) == pytest.approx(ECCENTRIC_MAX, rel=1e-5)
    h = 1e-7
    assert (force_velocity(h) - 1.0) / h == pytest.approx(1.0 + 1.0 / HILL_A, rel=1e-5)
    assert (1.0 - force_velocity(-h)) / h == pytest.approx(1.0 + 1.0 / HILL_A, rel=1e-5)
    # passive: 0 up to the optimal length, F_max at strain e0, exponential in between
    assert passive_force(1.0, 0.6, 4.0) == 0.0 and passive_force(0.8, 0.6, 4.0) == 0.0
    assert passive_force(1.6, 0.6, 4.0) == pytest.approx(1.0, rel=1e-14)
    assert passive_force(1.3, 0.6, 4.0) == pytest.approx((math.exp(2.0) - 1) / (math.exp(4.0) - 1),
                                                         rel=1e-14)


def _slider(**muscle):
    """A block on a prismatic joint along x, pulled towards a fixed anchor at the origin by a
    muscle from the anchor to the block: muscle length = L_OPT + q."""
    asm = Assembly("muscle_slider")
    asm.add(Part("anchor", 1.0, inertia=(0.01, 0.01, 0.01)))
    asm.add(Joint("ground", "fixed", None, "anchor", Pose()))
    asm.add(Part("block", MASS, inertia=(0.01, 0.01, 0.01)))
    asm.add(Joint("slide", "prismatic", None, "block",
                  Pose((L_OPT, 0.0, 0.0), rotation=[[0, 0, 1], [0, 1, 0], [-1, 0, 0]])))
    asm.add(Marker("origin", "anchor"))
    asm.add(Marker("insertion", "block"))
    asm.add(Muscle("m", "origin", "insertion", max_force=F_MAX, optimal_length=L_OPT,
                   max_velocity=V_MAX, **muscle))
    return asm.compile()


def _evaluate(model, q, v, t=0.0, z=None):
    data = model.make_data()
    zz = np.zeros(model.nz) if z is None else z
    evaluate(model.bundle(fixed_base_state_no_gravity()), data, t, np.array([q]), np.array([v]),
             zz, 0.0)
    names = model.output_names
    return data, {n: data.outputs[i] for i, n in enumerate(names)}


def fixed_base_state_no_gravity():
    from occupant.model.base_motion import fixed_base_state
    return fixed_base_state((0.0, 0.0, 0.0))[None, :]


@pytest.mark.parametrize("a", [0.0, 0.3, 1.0])
def test_analytic_isometric_force_at_optimal_length_is_activation_times_fmax(a):
    model = _slider(excitation=a)
    data, out = _evaluate(model, 0.0, 0.0)
    assert out["m.length"] == pytest.approx(L_OPT, rel=1e-12)
    assert out["m.activation"] == pytest.approx(a, abs=1e-15)
    assert out["m.force"] == pytest.approx(a * F_MAX, rel=1e-12, abs=1e-12)
    # the tension pulls the block back towards the anchor (-x): m x'' = -T
    assert data.vdot[0] == pytest.approx(-a * F_MAX / MASS, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("vn", [-1.2, -0.5, -0.1, 0.0, 0.2, 3.0])
def test_analytic_force_velocity_of_the_element(vn):
    model = _slider(excitation=0.5, damping=20.0)
    rate = vn * V_MAX * L_OPT
    _, out = _evaluate(model, 0.0, rate)
    assert out["m.length_rate"] == pytest.approx(rate, rel=1e-12, abs=1e-15)
    expected = 0.5 * F_MAX * force_velocity(vn) + 20.0 * rate
    assert out["m.force"] == pytest.approx(expected, rel=1e-12, abs=1e-9)


def test_analytic_passive_and_force_length_of_the_element():
    model = _slider(excitation=0.2, tendon_length=0.02)
    for stretch in (-0.03, 0.0, 0.01, 0.04):
        _, out = _evaluate(model, stretch, 0.0)
        l = (L_OPT + stretch - 0.02) / L_OPT
        expected = F_MAX * (0.2 * math.exp(-(l - 1) ** 2 / 0.45)
                            + (max(0.0, math.exp(4 * (l - 1) / 0.6) - 1) / (math.exp(4) - 1)))
        assert out["m.force"] == pytest.approx(expected, rel=1e-12)


def test_analytic_activation_first_order_response_to_a_reflex_step():
    """u steps from the preset 0.05 to 0.85 at t_r: a = u1 - (u1 - u0) e^(-(t - t_r)/tau_act);
    a second muscle started above its excitation decays with tau_deact."""
    t_r, u0, u1 = 0.02, 0.05, 0.85
    asm = Assembly("activation")
    asm.add(Part("anchor", 1.0, inertia=(0.01, 0.01, 0.01)))
    asm.add(Joint("ground", "fixed", None, "anchor", Pose()))
    asm.add(Part("block", 1.0, inertia=(0.01, 0.01, 0.01)))
    asm.add(Joint("hold", "fixed", "anchor", "block", Pose((0.1, 0.0, 0.0))))
    asm.add(Marker("o", "anchor"), Marker("i", "block"))
    asm.add(Muscle("reflex", "o", "i", max_force=100.0, optimal_length=0.1, excitation=u0,
                   reflex_excitation=u1, reflex_time=t_r, activation_time=0.012))
    asm.add(Muscle("relax", "o", "i", max_force=100.0, optimal_length=0.1, excitation=0.1,
                   deactivation_time=0.04))
    model = asm.compile()
    z0 = np.zeros(model.nz)
    z0[model.z_names.index("relax.activation_change")] = 0.6     # starts at a = 0.7
    res = occupant.simulate(model, 0.1, z0=z0, integrator="rk4", dt=1e-4, gravity=(0, 0, 0))
    t = res.t
    a = res.outputs["reflex.activation"]
    exact = np.where(t < t_r, u0, u1 - (u1 - u0) * np.exp(-(t - t_r) / 0.012))
    # the step falls inside one integration step: the error is bounded by that step's jump
    assert np.abs(a - exact).max() < 1e-2 * (u1 - u0)
    late = t > t_r + 0.002
    np.testing.assert_allclose(a[late], exact[late], atol=2e-3 * (u1 - u0))
    np.testing.assert_allclose(res.outputs["relax.activation"], 0.1 + 0.6 * np.exp(-t / 0.04),
                               atol=1e-8)
    np.testing.assert_allclose(res.outputs["reflex.force"], 100.0 * a, rtol=1e-12)


def _pendulum_with_muscles():
    """A 2-link planar pendulum hanging from a fixed base, with an agonist-antagonist pair across
    each joint and a reflex that switches one side on."""
    asm = Assembly("muscle_pendulum")
    asm.add(Part("base", 1.0, inertia=(0.01, 0.01, 0.01)))
    asm.add(Joint("ground", "fixed", None, "base", Pose()))
    R = [[1, 0, 0], [0, 0, -1], [0, 1, 0]]   # joint axes about y
    for k, (name, parent) in enumerate((("upper", "base"), ("lower", "upper"))):
        asm.add(Part(name, 1.5, com=(0, 0, -0.2), inertia=(0.02, 0.02, 0.005)))
        asm.add(Joint(f"j{k}", "revolute", parent, name,
                      Pose((0, 0, 0 if k == 0 else -0.4), rotation=R)))
    asm.add(Marker("b_front", "base", (0.08, 0, 0)), Marker("b_back", "base", (-0.08, 0, 0)))
    asm.add(Marker("u_front", "upper", (0.03, 0, -0.3)), Marker("u_back", "upper", (-0.03, 0, -0.3)))
    asm.add(Marker("u_front2", "upper", (0.05, 0, -0.35)), Marker("l_back", "lower", (-0.03, 0, -0.1)))
    asm.add(Marker("l_front", "lower", (0.03, 0, -0.1)), Marker("u_back2", "upper", (-0.05, 0, -0.35)))
    for name, a, b, u, r in (("front0", "b_front", "u_front", 0.05, 0.6),
                             ("back0", "b_back", "u_back", 0.05, 0.0),
                             ("front1", "u_front2", "l_front", 0.1, 0.0),
                             ("back1", "u_back2", "l_back", 0.0, 0.8)):
        asm.add(Muscle(name, a, b, max_force=150.0, optimal_length=0.27, excitation=u,
                       reflex_excitation=r, reflex_time=0.05, damping=5.0))
    return asm.compile()


def test_identity_energy_balance_closes_with_muscles():
    model = _pendulum_with_muscles()
    q0 = np.array([0.6, -0.4])
    res = occupant.simulate(model, 0.4, q0=q0, integrator="rk4", dt=5e-5)
    e = res.energy
    exchanged = max(np.abs(e["total"] - e["total"][0]).max(), np.abs(e["work"]).max())
    assert abs(res.work["muscles"][-1]) > 0.05          # the muscles did work ...
    assert np.abs(e["balance"]).max() < 1e-6 * exchanged  # ... all of it in their power slot
    assert res.outputs["back1.activation"][-1] > 0.7     # the reflex switched on


@pytest.mark.parametrize("key,value", [("max_force", -1.0), ("optimal_length", 0.0),
                                       ("excitation", 1.5), ("reflex_time", float("nan")),
                                       ("activation_time", 0.0)])
def test_reference_bad_input_names_the_muscle_and_key(key, value):
    kwargs = dict(max_force=100.0, optimal_length=0.1)
    kwargs[key] = value
    with pytest.raises(ModelingError, match=f"muscle 'm'.{key}"):
        Muscle("m", "a", "b", **kwargs)


def test_reference_unknown_marker_is_reported():
    asm = Assembly("x")
    asm.add(Part("p", 1.0, inertia=(1, 1, 1)))
    asm.add(Marker("a", "p"))
    with pytest.raises(ModelingError, match="muscle 'm'.marker_b: unknown 'nowhere'"):
        asm.add(Muscle("m", "a", "nowhere", max_force=1.0, optimal_length=0.1))
