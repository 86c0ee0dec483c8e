"""Joint resistance hysteresis (energy-absorption factor, the ATB/MADYMO loading/unloading
characteristic): a mass on a prismatic joint driven into its spring returns (1 - eps) of its
kinetic energy (closed form for a linear and a tabulated spring), and the energy balance closes."""
import numpy as np
import pytest

import occupant
from occupant.modeling import Assembly, Joint, JointResistance, ModelingError, Part, Pose

MASS = 2.0  # kg


def _slider(**resistance):
    asm = Assembly("slider")
    asm.add(Part("block", MASS, inertia=(0.01, 0.01, 0.01)))
    asm.add(Joint("slide", "prismatic", None, "block", Pose()))
    asm.add(JointResistance("spring", "slide", **resistance))
    return asm.compile()


def _rebound_speed(model, v0, t_end=0.2):
    res = occupant.simulate(model, t_end, v0=[v0], dt=1e-5, integrator="rk4", gravity=(0, 0, 0),
                            output_dt=1e-5)
    x, v = res.q[:, 0], res.v[:, 0]
    back = np.flatnonzero((x[1:] <= 0.0) & (x[:-1] > 0.0))[0]   # first return through x = 0
    return abs(v[back + 1]), res


@pytest.mark.parametrize("eps", [0.0, 0.3, 0.75])
def test_analytic_linear_spring_cycle_dissipates_the_absorption_fraction(eps):
    """Linear spring k, mass m, speed v0 at x = 0: the peak is m v0^2 / 2 = k x_m^2 / 2; the
    unloading line ends at d0 = x_m (1 - (1 - eps)) = eps x_m and returns (1 - eps) of the
    loading work, so the mass leaves the spring (x = d0, then coasts to 0) at
    sqrt(1 - eps) v0."""
    model = _slider(stiffness=4.0e4, absorption=eps)
    v, res = _rebound_speed(model, 3.0)
    assert v == pytest.approx(3.0 * np.sqrt(1.0 - eps), rel=2e-3)
    assert abs(res.energy["balance"]).max() < 1e-3 * 0.5 * MASS * 9.0


def test_analytic_tabulated_spring_cycle_dissipates_the_absorption_fraction():
    """The same with a stiffening table (the trapezoid loading work is exact)."""
    table = [[-0.05, -500.0], [0.0, 0.0], [0.01, 200.0], [0.03, 1200.0], [0.06, 5000.0]]
    model = _slider(table=table, absorption=0.6)
    v, _ = _rebound_speed(model, 2.0)
    assert v == pytest.approx(2.0 * np.sqrt(0.4), rel=2e-3)


def test_analytic_elastic_without_absorption_and_states_named():
    model = _slider(stiffness=1.0e4, absorption=0.5)
    assert model.z_names[:2] == ("spring.max_deflection_above", "spring.max_deflection_below")
    assert _slider(stiffness=1.0e4).work_start == 0


def test_absorption_out_of_range_is_refused():
    with pytest.raises(ModelingError, match="absorption"):
        JointResistance("r", "slide", stiffness=1.0, absorption=1.0)


@pytest.mark.parametrize("eps, table", [(0.3, None), (0.7, None),
                                        (0.7, [[0.0, 0.0], [0.0373, 2521.0], [0.0746, 6304.0]])])
def test_analytic_recovering_spring_dissipates_the_fraction_and_returns_to_the_origin(eps, table):
    """``recovers``: the unloading curve r F(x) + (1 - r) F(m) (x/m)^n ends at the origin, so the
    mass leaves the spring at x = 0 itself (no permanent set to coast back over) with
    sqrt(1 - eps) v0, the cycle returning (1 - eps) of the loading work (linear spring, and the
    stiffening bilinear table of the Hybrid III 50M chest); while it unloads the spring never
    pushes harder than its loading curve."""
    spring = dict(stiffness=4.0e4) if table is None else dict(table=table)
    model = _slider(**spring, absorption=eps, recovers=True)
    v, res = _rebound_speed(model, 3.0)
    assert v == pytest.approx(3.0 * np.sqrt(1.0 - eps), rel=2e-3)
    x, load = res.q[:, 0], -res.outputs["spring.load"]
    peak = int(np.argmax(x))
    k = 4.0e4 if table is None else None
    loading = k * x if k else np.interp(x, *np.array(table).T)
    unloading = slice(peak, np.flatnonzero(x[peak:] <= 0.0)[0] + peak)
    assert np.all(load[unloading] <= loading[unloading] + 1e-6)
    assert np.all(load[unloading] > 0.0)        # pushes back all the way: no permanent set
    assert abs(res.energy["balance"]).max() < 1e-3 * 0.5 * MASS * 9.0


def test_recovers_without_absorption_is_refused():
    with pytest.raises(ModelingError, match="recovers"):
        JointResistance("r", "slide", stiffness=1.0, recovers=True)


@pytest.mark.parametrize("recovers", [False, True])
@pytest.mark.parametrize("x0", [0.01, -0.01])
def test_analytic_deflected_joint_unloads_along_its_unloading_curve(x0, recovers):
    """A mass held x0 into a linear hysteretic spring (k, eps) at t0 and let go at rest: the
    joint starts on its loading history (the largest deflection on that side |x0|,
    ``joint_resistance.start_histories``, as ``simulate.initial_states`` gives), so the spring
    pushes the mass back along its unloading curve, returning (1 - eps) k x0^2 / 2 by x = 0
    (down the loading line it would return all of k x0^2 / 2). Without permanent set
    (``recovers``): the speed at x = 0 is sqrt((1 - eps) k / m) |x0|. With it: the straight line
    to the set eps x0, a spring k / (1 - eps) about it, x(t) = eps x0 + (1 - eps) x0 cos(w t),
    w^2 = k / ((1 - eps) m), leaving at (1 - eps) |x0| w, the same speed. The state stays put."""
    eps, k, dt = 0.4, 4.0e4, 1e-5
    model = _slider(stiffness=k, absorption=eps, recovers=recovers)
    res = occupant.simulate(model, 0.05, q0=[x0], v0=[0.0], dt=dt, integrator="rk4",
                            gravity=(0, 0, 0), output_dt=dt)
    side = model.z_names.index("spring.max_deflection_" + ("above" if x0 > 0 else "below"))
    assert np.all(res.z[:, side] == abs(x0))
    x, v = res.q[:, 0], res.v[:, 0]
    cross = np.flatnonzero(x * x0 <= 0.0)[0]          # first sample at or past the origin
    w = np.sqrt(k / ((1 - eps) * MASS))
    assert abs(v[cross]) == pytest.approx(np.sqrt((1 - eps) * k / MASS) * abs(x0), rel=(w * dt))
    if not recovers:
        t = res.t[res.t < 0.5 * np.pi / w]
        np.testing.assert_allclose(x[:len(t)], eps * x0 + (1 - eps) * x0 * np.cos(w * t),
                                   rtol=0, atol=1e-8 * abs(x0))
    assert abs(res.energy["balance"]).max() < 1e-6 * 0.5 * k * x0**2
