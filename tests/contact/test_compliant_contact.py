"""Compliant contact (ellipsoid/sphere-plane) as a force producer: a sphere bouncing on a linear
spring contact against the closed form of a mass on a spring, the work of the hysteresis loop
against its area computed by hand, Hunt-Crossley damping against its phase-plane closed form,
Coulomb friction against the deceleration mu g and its regularised stick (the creep speed on a
slope), the contact point of a tilted ellipsoid against its support function (and a
brute-force sampling), forces equal and opposite, and the energy balance with damping and
friction."""
import numpy as np
import pytest
from scipy.optimize import brentq

import occupant
from occupant.integrate.pipeline import evaluate
from occupant.model import BaseMotion, ModelError
from occupant.modeling import (
    Assembly, Part, Joint, Pose, Marker, Sphere, Ellipsoid, Plane, Cylinder, ContactPair,
    ContactCharacteristic, ModelingError,
)
from occupant.spatial.rotation import matrix_to_quat, quat_exp, quat_to_matrix

M, K, R, G = 2.0, 2.0e4, 0.05, 9.81


def _drop(characteristic):
    """A ball of radius R on a vertical prismatic joint above the B0 floor z = -R: it touches
    the floor at q = 0, the penetration is max(-q, 0) (0 apart: ``CONTACT_OUTPUTS``)."""
    asm = Assembly("drop")
    asm.add(Part("ball", M, inertia=(0.002, 0.002, 0.002)))
    asm.add(Joint("lift", "prismatic", None, "ball", Pose()))
    asm.add(Marker("centre", "ball"))
    asm.add(Sphere("shell", "centre", R))
    asm.add(Plane("floor", None, point=(0.0, 0.0, -R)))
    asm.add(ContactPair("ball_floor", "shell", "floor", characteristic))
    return asm.compile()


def _crossings(t, d, rising):
    """Times where d crosses 0 upwards (rising) or downwards, by linear interpolation."""
    k = np.nonzero((d[:-1] <= 0) & (d[1:] > 0) if rising else (d[:-1] > 0) & (d[1:] <= 0))[0]
    return t[k] - d[k] * (t[k + 1] - t[k]) / (d[k + 1] - d[k])


def test_analytic_bounce_on_linear_spring():
    """Dropped from h0 under gravity: touch at t1 = sqrt(2 h0 / g) with v_in = g t1; in contact
    m d'' = m g - k d, so d = g/w^2 (1 - cos wt) + v_in/w sin wt, w = sqrt(k/m), which returns to
    0 after t_c = (pi + 2 atan(g / (w v_in))) / w (pi sqrt(m/k) without gravity), leaving at
    v_in (restitution exactly 1: the contact is elastic and undamped)."""
    h0, dt = 0.05, 1e-5
    model = _drop(ContactCharacteristic(stiffness=K))
    res = occupant.simulate(model, 0.16, q0=[h0], integrator="rk4", dt=dt, gravity=(0, 0, -G),
                            output_dt=dt)
    d = -res.q[:, 0]
    np.testing.assert_allclose(res.outputs["ball_floor.penetration"], np.maximum(d, 0.0), rtol=0,
                               atol=1e-15)
    t_in, t_out = _crossings(res.t, d, True), _crossings(res.t, d, False)
    assert len(t_in) == 1 and len(t_out) == 1
    w = np.sqrt(K / M)
    t1 = np.sqrt(2 * h0 / G)
    v_in = G * t1
    t_c = (np.pi + 2 * np.arctan(G / (w * v_in))) / w
    assert t_in[0] == pytest.approx(t1, abs=1e-9)
    assert t_out[0] - t_in[0] == pytest.approx(t_c, abs=1e-9)
    # after the contact the ball flies freely: v^2 / 2 + g q is conserved
    # (RK4 keeps second order over a step that straddles the touch, where the acceleration's
    # slope jumps by w^2 v_in: the speed is good to about (w h)^2, 1e-6; measured 9e-9)
    v_out = np.sqrt(res.v[-1, 0] ** 2 + 2 * G * res.q[-1, 0])
    assert v_out == pytest.approx(v_in, rel=(w * dt) ** 2)
    # the largest penetration: the amplitude of the oscillation about the static deflection
    d_max = G / w**2 + np.sqrt((G / w**2) ** 2 + (v_in / w) ** 2)
    assert d.max() == pytest.approx(d_max, rel=(w * dt) ** 2)
    # the history state: z' = d' switches on at the touch, inside a step, so z lags d by at
    # most v_in h (the force uses max(z, d) and stays continuous)
    z = res.z[:, model.z_names.index("ball_floor.max_penetration")]
    assert d_max - v_in * dt < z[-1] <= d_max
    np.testing.assert_allclose(res.outputs["ball_floor.normal_force"], K * np.maximum(d, 0), rtol=1e-12,
                               atol=1e-9)
    assert res.output_units["ball_floor.normal_force"] == "N"
    assert np.abs(res.work["contacts"][-1]) < 1e-8 * M * v_in**2


def _bounce_without_gravity(characteristic, v0=1.0, t_end=0.06):
    model = _drop(characteristic)
    return model, occupant.simulate(model, t_end, q0=[0.0], v0=[-v0], integrator="rk4", dt=1e-5,
                                    gravity=(0, 0, 0))


@pytest.mark.parametrize("c", [5e3, 2e4])
def test_analytic_hunt_crossley_damping_bounce(c):
    """Damping F = k d + c d d' (Hunt and Crossley 1975), no gravity, the ball meeting the floor
    at v0: m u du/dd = -(k + c u) d (u = d') integrates in closed form,
    (m / c) [u - v0 - (k / c) ln((k + c u) / (k + c v0))] = -d^2 / 2, so the largest
    penetration is sqrt(2 (m / c) (v0 - (k / c) ln(1 + c v0 / k))) and the ball leaves (d = 0)
    at the root u < 0 of the bracket; the contact's work is the kinetic energy lost. The force
    is k d + c d d' at every sample (zero at the touch)."""
    v0, dt = 1.0, 1e-5
    model, res = _bounce_without_gravity(ContactCharacteristic(stiffness=K, damping=c), v0)
    d, rate = res.outputs["ball_floor.penetration"], res.outputs["ball_floor.penetration_rate"]
    np.testing.assert_allclose(res.outputs["ball_floor.normal_force"], K * d + c * d * rate,
                               rtol=1e-12, atol=1e-9)
    bracket = lambda u: u - v0 - K / c * np.log((K + c * u) / (K + c * v0))
    u_out = brentq(bracket, -K / c * (1 - 1e-12), -1e-12, xtol=1e-15)
    d_max = np.sqrt(2 * M / c * (v0 - K / c * np.log1p(c * v0 / K)))
    bound = (K + c * v0) / M * dt**2       # as above, the slope of the acceleration at the touch
    z = res.z[:, model.z_names.index("ball_floor.max_penetration")]   # the largest, as above
    assert z[-1] == pytest.approx(d_max, rel=bound)
    assert -u_out < 0.9 * v0                      # the damping took a part worth measuring
    assert res.v[-1, 0] == pytest.approx(-u_out, rel=bound)
    assert res.work["contacts"][-1] == pytest.approx(0.5 * M * (u_out**2 - v0**2), rel=bound)


def test_analytic_hysteresis_absorption_dissipates_its_loop_area():
    """Linear loading k d to d_m = v0 sqrt(m/k), straight-line unloading to the permanent set
    d_0 = eps d_m (for a linear curve d_0 = d_m - 2 (1 - eps) (k d_m^2 / 2) / (k d_m)): the loop
    (triangle 0, d_m, F_m minus triangle d_0, d_m, F_m) has area eps k d_m^2 / 2 = eps m v0^2 / 2;
    the contact's work is minus that and the ball leaves at sqrt(1 - eps) v0.

    The error bound: within the RK4 step that holds the peak, stages on either side of it see
    d' of either sign (|d'| <= w^2 d_m h), so the history z = d_m is integrated to about
    (w h)^2 d_m, and the work and speed inherit that relative error (first order at the switch,
    whatever the order of the method)."""
    eps, v0, dt = 0.4, 1.0, 1e-5
    model, res = _bounce_without_gravity(ContactCharacteristic(stiffness=K, absorption=eps), v0)
    d_m = v0 * np.sqrt(M / K)
    bound = (np.sqrt(K / M) * dt) ** 2
    loop = 0.5 * K * d_m**2 - 0.5 * K * d_m * (d_m - eps * d_m)
    assert loop == pytest.approx(eps * 0.5 * M * v0**2, rel=1e-12)
    assert res.work["contacts"][-1] == pytest.approx(-loop, rel=bound)
    assert res.v[-1, 0] == pytest.approx(np.sqrt(1 - eps) * v0, rel=bound)
    z = res.z[:, model.z_names.index("ball_floor.max_penetration")]
    assert z[-1] == pytest.approx(d_m, rel=bound)
    # the force follows the loop: loading line up to d_m, then the unloading line
    d, f = res.outputs["ball_floor.penetration"], res.outputs["ball_floor.normal_force"]
    k_peak = np.argmax(d)
    after = np.arange(len(d)) > k_peak
    np.testing.assert_allclose(f[:k_peak], K * np.maximum(d[:k_peak], 0), rtol=1e-10, atol=1e-9)
    unload = K * d_m * np.clip((d - eps * d_m) / (d_m - eps * d_m), 0, None)
    np.testing.assert_allclose(f[after], unload[after], rtol=1e-6, atol=1e-6 * K * d_m)


@pytest.mark.parametrize("recovers", [False, True])
@pytest.mark.parametrize("law", ["linear", "power", "table"])
def test_analytic_absorption_takes_its_fraction_of_the_impact_energy(law, recovers):
    """Whatever the loading curve, the ball stops when the loading work E_L(d_m) equals its
    kinetic energy E; unloading from the peak to the permanent set, or with ``recovers`` to the
    origin, returns (1 - eps) E_L(d_m), so it leaves with (1 - eps) E and the contact's work is
    -eps E. Bound (w h)^2 as above, with w^2 the curve's steepest slope over m."""
    eps, v0, dt = 0.25, 1.0, 1e-5
    char, slope = {
        "linear": (dict(stiffness=K), K),
        "power": (dict(stiffness=3e6, exponent=1.5), 1.5 * 3e6 * 0.0037**0.5),
        "table": (dict(table=[(0.0, 0.0), (0.004, 30.0), (0.008, 150.0), (0.02, 900.0)]),
                  (900.0 - 150.0) / 0.012),
    }[law]
    model, res = _bounce_without_gravity(ContactCharacteristic(absorption=eps, recovers=recovers,
                                                               **char), v0)
    e_in = 0.5 * M * v0**2
    bound = slope / M * dt**2
    assert res.work["contacts"][-1] == pytest.approx(-eps * e_in, rel=bound)
    assert 0.5 * M * res.v[-1, 0] ** 2 == pytest.approx((1 - eps) * e_in, rel=bound)


def test_analytic_recovering_contact_unloads_to_the_origin():
    """``recovers`` (seat foam): linear loading to d_m = v0 sqrt(m/k), E_L = k d_m^2 / 2; the
    unloading curve U(d) = r k d + (1 - r) k d_m (d / d_m)^n (n = 20) with r = ((1 - eps) E_L - q)
    / (E_L - q), q = k d_m^2 / (n + 1), integrates to (1 - eps) E_L and stays above 0 down to
    d = 0: the ball stays in contact until the penetration is gone (no permanent set), where
    the straight-line law lets it go at d_0 = eps d_m."""
    eps, v0, n = 0.3, 1.0, 20.0
    model, res = _bounce_without_gravity(ContactCharacteristic(stiffness=K, absorption=eps,
                                                               recovers=True), v0)
    d_m = v0 * np.sqrt(M / K)
    e_l, q = 0.5 * K * d_m**2, K * d_m**2 / (n + 1)
    r = ((1 - eps) * e_l - q) / (e_l - q)
    d, f = res.outputs["ball_floor.penetration"], res.outputs["ball_floor.normal_force"]
    after = (np.arange(len(d)) > np.argmax(d)) & (d > 0)
    unload = r * K * d + (1 - r) * K * d_m * (np.maximum(d, 0) / d_m) ** n
    np.testing.assert_allclose(f[after], unload[after], rtol=1e-5, atol=1e-5 * K * d_m)
    assert f[after & (d > 0.02 * d_m)].min() > 0.0
    # it pushes while any penetration is left: the last contact sample lies within a sample
    # interval's travel of the surface, not at the straight line's permanent set eps d_m
    travel = v0 * (res.t[1] - res.t[0])
    assert d[after].min() < travel < eps * d_m


def test_analytic_power_law_with_unloading_curve():
    """Loading k d^1.5 (Hertz exponent) to d_m with k d_m^2.5 / 2.5 = m v0^2 / 2; unloading along
    the line of slope K_u shifted to meet the loading curve at d_m returns F_m^2 / (2 K_u); the
    contact's work is -(m v0^2 / 2 - F_m^2 / (2 K_u))."""
    k, n, k_u, v0 = 3.0e6, 1.5, 1.0e6, 1.0
    char = ContactCharacteristic(stiffness=k, exponent=n, unloading_table=[(0.0, 0.0), (0.01, 0.01 * k_u)])
    model, res = _bounce_without_gravity(char, v0)
    e_in = 0.5 * M * v0**2
    d_m = (e_in * (n + 1) / k) ** (1 / (n + 1))
    f_m = k * d_m**n
    returned = f_m**2 / (2 * k_u)
    bound = 1.5 * k * d_m**0.5 / M * 1e-10       # (w h)^2 with the loading slope at d_m, h = 1e-5 s
    assert res.work["contacts"][-1] == pytest.approx(-(e_in - returned), rel=bound)
    assert 0.5 * M * res.v[-1, 0] ** 2 == pytest.approx(returned, rel=bound)


def test_identity_tabulated_loading_work():
    """The loading work of a table (trapezoids, end slope extended) against numerical
    quadrature of the same curve; a table of a straight line equals the linear law."""
    from occupant.contact.compliant import loading_work, elastic_force
    table = [(0.0, 0.0), (0.004, 100.0), (0.01, 150.0), (0.02, 900.0)]
    model = _drop(ContactCharacteristic(table=table, absorption=0.3))
    el = model.contacts
    for d in (0.001, 0.004, 0.0137, 0.02, 0.031):
        x = np.linspace(0.0, d, 200001)
        f = np.interp(x, *np.array(table).T)
        f[x > 0.02] = 900.0 + (900.0 - 150.0) / 0.01 * (x[x > 0.02] - 0.02)
        assert loading_work(el, 0, d) == pytest.approx(np.trapezoid(f, x), rel=1e-9)
    # absorption with a table: the unloading line from the peak ends at the permanent set
    d_m = 0.0137
    f_m = np.interp(d_m, *np.array(table).T)
    d_0 = d_m - 2 * 0.7 * loading_work(el, 0, d_m) / f_m
    assert elastic_force(el, 0, 0.5 * (d_0 + d_m), d_m) == pytest.approx(0.5 * f_m, rel=1e-12)
    assert elastic_force(el, 0, 0.99 * d_0, d_m) == 0.0
    linear = _drop(ContactCharacteristic(table=[(0.0, 0.0), (0.01, 0.01 * K)])).contacts
    assert loading_work(linear, 0, 0.013) == pytest.approx(0.5 * K * 0.013**2, rel=1e-12)


def _slider_on_floor(m1, m2, mu, v_s):
    """A ball (m2) on a prismatic joint along x (q[1]), carried by a vertical slider of mass m1
    (q[0]), on the floor plane its radius below the B0 origin."""
    asm = Assembly("slide")
    asm.add(Part("carriage", m1, inertia=(1e-6, 1e-6, 1e-6)))
    asm.add(Part("ball", m2, inertia=(0.002, 0.002, 0.002)))
    asm.add(Joint("lift", "prismatic", None, "carriage", Pose()))
    asm.add(Joint("slide", "prismatic", "carriage", "ball",
                  Pose(rotation=[[0, 0, 1], [0, 1, 0], [-1, 0, 0]])))
    asm.add(Marker("centre", "ball"))
    asm.add(Sphere("shell", "centre", R))
    asm.add(Plane("floor", None, point=(0.0, 0.0, -R)))
    asm.add(ContactPair("ball_floor", "shell", "floor",
                        ContactCharacteristic(stiffness=K, friction=mu, friction_speed=v_s)))
    return asm.compile()


def test_analytic_friction_decelerates_at_mu_g():
    """A ball pressed on the floor by its weight slides along x on a prismatic joint (on a
    vertical slider of mass m1): the normal force is (m1 + m2) g at the static penetration and
    x'' = -mu (m1 + m2) g / m2 while it slides (tanh(v / v_s) = 1 to rounding for v >> v_s)."""
    m1, m2, mu, v0 = 1e-3, M, 0.3, 2.0
    model = _slider_on_floor(m1, m2, mu, 1e-4)
    weight = (m1 + m2) * G
    res = occupant.simulate(model, 0.5, q0=[-weight / K, 0.0], v0=[0.0, v0], integrator="rk4",
                            dt=1e-4, gravity=(0, 0, -G))
    a = mu * weight / m2
    np.testing.assert_allclose(res.v[:, 1], v0 - a * res.t, rtol=0, atol=1e-10)
    np.testing.assert_allclose(res.q[:, 1], v0 * res.t - 0.5 * a * res.t**2, rtol=0, atol=1e-10)
    np.testing.assert_allclose(res.outputs["ball_floor.friction_force"], mu * weight, rtol=1e-10)
    # friction dissipates mu W times the distance slid
    assert res.work["contacts"][-1] == pytest.approx(-mu * weight * res.q[-1, 1], rel=1e-9)


@pytest.mark.parametrize("v_s", [1e-3, 4e-3])
def test_analytic_regularised_friction_holds_on_a_slope_by_creeping(v_s):
    """The stick side of the regularised Coulomb law F = mu N tanh(v / v_s): gravity tilted by
    theta along x (a floor inclined by theta, tan theta below mu), the ball starting at rest at
    its static penetration does not slide away but creeps at the speed where the friction
    balances the slope's pull, m2 g sin(theta) = mu (m1 + m2) g cos(theta) tanh(v / v_s):
    v = v_s artanh(m2 tan(theta) / (mu (m1 + m2))) (0.549 v_s here; a friction ramped linearly
    to mu N at v_s would give 0.5 v_s, a plain sign(v) law none), and the friction force is
    that pull."""
    m1, m2, mu, tan_theta = 1e-3, M, 0.3, 0.15
    theta = np.arctan(tan_theta)
    model = _slider_on_floor(m1, m2, mu, v_s)
    normal = (m1 + m2) * G * np.cos(theta)
    res = occupant.simulate(model, 0.1, q0=[-normal / K, 0.0], integrator="rk4", dt=1e-5,
                            gravity=(G * np.sin(theta), 0, -G * np.cos(theta)))
    creep = v_s * np.arctanh(m2 * tan_theta / (mu * (m1 + m2)))
    late = res.t > 0.05
    assert creep == pytest.approx(0.5493 * v_s, rel=1e-3)
    np.testing.assert_allclose(res.v[late, 1], creep, rtol=1e-6)
    np.testing.assert_allclose(res.outputs["ball_floor.friction_force"][late],
                               m2 * G * np.sin(theta), rtol=1e-6)
    np.testing.assert_allclose(res.outputs["ball_floor.normal_force"][late], normal, rtol=1e-6)


def _free_body_with(geometry, *extra):
    asm = Assembly("free")
    asm.add(Part("body", 3.0, inertia=(0.02, 0.03, 0.04)))
    asm.add(Joint("float", "free", None, "body", Pose()))
    asm.add(Marker("m", "body", (0.01, -0.02, 0.03), _rotation([0.3, -0.5, 0.2])))
    asm.add(geometry, *extra)
    return asm


def _rotation(rv):
    """Rotation matrix of the rotation vector rv (axis times angle, rad)."""
    return quat_to_matrix(quat_exp(np.asarray(rv, float)))


_quat = matrix_to_quat


SEMI = np.array([0.09, 0.06, 0.04])
NORMAL = np.array([0.2, -0.3, 1.0]) / np.linalg.norm([0.2, -0.3, 1.0])
POINT = np.array([0.05, 0.02, -0.07])


def _tilted_ellipsoid(plane_on_body=False):
    asm = _free_body_with(Ellipsoid("egg", "m", SEMI))
    if plane_on_body:   # the same plane, on a second free body placed at the B0 origin
        asm.add(Part("table", 5.0, inertia=(0.1, 0.1, 0.1)))
        asm.add(Joint("table_float", "free", None, "table", Pose()))
        asm.add(Marker("top", "table", POINT, _rotation(np.cross([0, 0, 1], NORMAL)
                                                         / np.linalg.norm(np.cross([0, 0, 1], NORMAL))
                                                         * np.arccos(NORMAL[2]))))
        asm.add(Plane("slab", "top", half_size=(0.2, 0.3)))
    else:
        asm.add(Plane("slab", None, point=POINT, normal=NORMAL, x_axis=(1.0, 0.0, 0.0),
                      half_size=(0.2, 0.3)))
    asm.add(ContactPair("egg_slab", "egg", "slab",
                        ContactCharacteristic(stiffness=K, friction=0.4, friction_speed=0.01)))
    return asm.compile()


def _evaluate(model, q, v):
    data = model.make_data()
    evaluate(model.bundle(), data, 0.0, np.asarray(q, float), np.asarray(v, float), np.zeros(model.nz), 0.0)
    return data, dict(zip(model.output_names, data.outputs))


def test_analytic_tilted_ellipsoid_contact_point():
    """Deepest point s = c - Q n / sqrt(n^T Q n), Q = G A^2 G^T (support function of the
    ellipsoid along -n), penetration d = n.(p0 - s), contact point s + d/2 n; checked also
    against the lowest of 10^6 sampled surface points."""
    model = _tilted_ellipsoid()
    R_body = _rotation([0.7, 0.2, -0.4])
    x_body = np.array([0.03, -0.01, -0.05])
    q = np.concatenate([x_body, _quat(R_body)])
    data, out = _evaluate(model, q, np.zeros(6))
    marker = model.source.markers["m"]
    G_e = R_body @ marker.rotation
    c = x_body + R_body @ marker.position
    Q = G_e @ np.diag(SEMI**2) @ G_e.T
    s = c - Q @ NORMAL / np.sqrt(NORMAL @ Q @ NORMAL)
    d = NORMAL @ (POINT - s)
    assert d > 0
    assert out["egg_slab.penetration"] == pytest.approx(d, abs=1e-15)
    point = np.array([out[f"egg_slab.point_{a}"] for a in "xyz"])
    np.testing.assert_allclose(point, s + 0.5 * d * NORMAL, rtol=0, atol=1e-15)
    # brute force: the surface point deepest along -n
    rng = np.random.default_rng(1)
    u = rng.normal(size=(1000000, 3))
    surface = c + (u / np.linalg.norm(u, axis=1)[:, None] * SEMI) @ G_e.T
    depth = (POINT - surface) @ NORMAL
    assert depth.max() == pytest.approx(d, abs=2e-5) and depth.max() <= d
    np.testing.assert_allclose(surface[np.argmax(depth)], s, atol=5e-3)
    assert out["egg_slab.normal_force"] == pytest.approx(K * d, rel=1e-12)


def test_identity_plane_on_a_body_and_equal_opposite_forces():
    """The same relative placement with the plane on a second free body (at the B0 origin) gives
    the same penetration and point; the spatial forces on the two bodies are equal and opposite
    (zero net force and moment about the B0 origin); moving the ellipsoid well off the plane's
    rectangle removes the force."""
    R_body = _rotation([0.7, 0.2, -0.4])
    x_body = np.array([0.03, -0.01, -0.05])
    v_body = np.array([0.3, -0.2, -0.5, 1.0, -2.0, 0.5])
    q = np.concatenate([x_body, _quat(R_body)])
    _, ref = _evaluate(_tilted_ellipsoid(), q, v_body)
    model = _tilted_ellipsoid(plane_on_body=True)
    q2 = np.concatenate([q, [0, 0, 0, 1, 0, 0, 0]])
    data, out = _evaluate(model, q2, np.concatenate([v_body, np.zeros(6)]))
    for key in ("penetration", "penetration_rate", "normal_force", "friction_force", "point_x"):
        assert out[f"egg_slab.{key}"] == pytest.approx(ref[f"egg_slab.{key}"], rel=1e-12, abs=1e-15)
    assert out["egg_slab.friction_force"] > 0
    net = np.zeros(6)
    for link in range(model.nl):
        Rl, pl = data.R_base_link[link], data.p_base_link[link]
        f = Rl @ data.f_ext[link, 3:]
        net[3:] += f
        net[:3] += Rl @ data.f_ext[link, :3] + np.cross(pl, f)
    assert np.abs(net).max() < 1e-12 * out["egg_slab.normal_force"]
    assert np.abs(data.f_ext).max() > 1.0
    off = np.concatenate([x_body + [-0.5, 0, 0], _quat(R_body), [0, 0, 0, 1, 0, 0, 0]])
    data, out = _evaluate(model, off, np.zeros(12))
    assert out["egg_slab.penetration"] == 0.0 and out["egg_slab.normal_force"] == 0.0
    assert np.all(data.f_ext == 0.0)


@pytest.mark.parametrize("moving_base, sphere", [(False, True), (False, False), (True, False)])
def test_identity_energy_balance_bounce_with_damping_and_friction(moving_base, sphere):
    """A spinning sphere or ellipsoid thrown onto the floor bounces with hysteresis, damping and
    sliding friction: kinetic + potential - initial = work of every producer, to 1e-6 of the
    energy exchanged, with RK4 at 1e-5 s. The moving base: a 10 g half-sine pulse along x."""
    asm = _free_body_with(Sphere("egg", "m", 0.07) if sphere else Ellipsoid("egg", "m", SEMI))
    asm.add(Plane("floor", None, point=(0.0, 0.0, -0.1)))
    asm.add(ContactPair("egg_floor", "egg", "floor", ContactCharacteristic(
        stiffness=5e4, absorption=0.3, damping=2e4, friction=0.5, friction_speed=0.02)))
    model = asm.compile()
    base = None
    if moving_base:
        t = np.linspace(0.0, 0.3, 3001)
        base = BaseMotion.translational(t, np.where(t < 0.05, -10 * G * np.sin(np.pi * t / 0.05), 0.0),
                                        velocity0=(5.0, 0.0, 0.0))
    res = occupant.simulate(model, 0.3, q0=[0, 0, 0, 1, 0, 0, 0], v0=[0.5, 0.2, -1.5, 3.0, -5.0, 8.0],
                            integrator="rk4", dt=1e-5, base_motion=base, output_dt=1e-3)
    e = res.energy
    exchanged = max(np.abs(e["total"] - e["total"][0]).max(), np.abs(e["work"]).max())
    assert np.abs(e["balance"]).max() < 1e-6 * exchanged
    assert res.work["contacts"][-1] < -0.1 * exchanged
    assert res.outputs["egg_floor.friction_force"].max() > 1.0
    assert res.outputs["egg_floor.penetration"].max() > 0.002


def test_errors_name_the_element():
    asm = Assembly("bad")
    asm.add(Part("ball", 1.0))
    asm.add(Joint("j", "free", None, "ball"))
    asm.add(Marker("m", "ball"))
    asm.add(Sphere("s", "m", 0.1), Cylinder("c", "m", 0.1, 0.2), Plane("floor"))
    char = ContactCharacteristic(stiffness=1e4)
    with pytest.raises(ModelingError, match=r"contact pair 'p'.geometry_b: unknown 'nope'"):
        asm.add(ContactPair("p", "s", "nope", char))
    asm.add(ContactPair("p", "c", "floor", char))
    with pytest.raises(ModelError, match=r"contact pair 'p'.geometry_a: 'c' is a Cylinder "
                                         r"\(accepted: Ellipsoid, Sphere\)"):
        asm.compile()
    with pytest.raises(ModelingError, match=r"cylinder 'r'.ends: expected \"flat\" or \"round\", "
                                            r"got 'domed'"):
        Cylinder("r", "m", 0.1, 0.2, ends="domed")
    with pytest.raises(ModelingError, match=r"contact characteristic 'foam'.absorption: got 1.2 "
                                            r"\(accepted: 0 <= absorption < 1\)"):
        ContactCharacteristic(stiffness=1e4, absorption=1.2, name="foam")
    with pytest.raises(ModelingError, match=r"'foam'.recovers: unloading to the origin"):
        ContactCharacteristic(stiffness=1e4, recovers=True, name="foam")
    with pytest.raises(ModelingError, match=r"both unloading_table and absorption 0.2 given \(accepted: one of them\)"):
        ContactCharacteristic(stiffness=1e4, absorption=0.2, unloading_table=[(0, 0), (1, 1)])
    with pytest.raises(ModelingError, match=r"table: got .* \(accepted: >= 2 finite rows"):
        ContactCharacteristic(table=[(0.0, 0.0), (0.01, -5.0)])
    # (branch usercheck) the table loaded and the power law given beside it was left out unsaid
    with pytest.raises(ModelingError, match=r"'foam': both a loading table and stiffness 50000.0 given "
                                            r"\(accepted: a loading table, or stiffness \(and exponent\)\)"):
        ContactCharacteristic(table=[(0.0, 0.0), (0.01, 5.0)], stiffness=5e4, name="foam")
    with pytest.raises(ModelingError, match=r"both a loading table and exponent 1.5 given"):
        ContactCharacteristic(table=[(0.0, 0.0), (0.01, 5.0)], exponent=1.5)
    with pytest.raises(ModelingError, match=r"plane 'x'.x_axis: zero or parallel to the normal"):
        Plane("x", normal=(0, 0, 2), x_axis=(0, 0, 1))
    # removing a geometry removes the pairs that use it
    asm.remove("c")
    assert "p" not in asm.contact_pairs and "s" in asm.geometries
    asm.add(ContactPair("q", "s", "floor", char))
    assert asm.compile().contact_names == ("q",)


def test_identity_energy_balance_shipped_dummy_standing_on_the_floor():
    """The shipped Hybrid III 50M's foot ellipsoids against a B0 floor 1 mm below them: the dummy
    (free root, joint resistance) drops onto its feet and starts to fall; the balance closes to
    1e-6 of the energy exchanged with RK4 at 1e-5 s. Characteristic: seat/floor-like values
    from crash-domain-facts 6.3 (stiffness in the 10-50 kN/m range, friction 0.3-0.6 [U]). The
    foot's ellipsoids are its heel and forefoot (foot_shell) since branch footsplit: on the
    forefoot alone the right foot carried 44 N at most."""
    from occupant.human.loader import load_dummy
    asm = load_dummy("hybrid3_50m").source
    # a probe plane 10 m above the feet (its front up): each penetration is 10 m less the
    # height of the foot's lowest point (a pair apart would read 0)
    asm.add(Plane("probe", None, point=(0.0, 0.0, 10.0)))
    floor = ContactCharacteristic(stiffness=3e4, absorption=0.3, damping=1e3, friction=0.5,
                                  friction_speed=0.01, name="floor")
    feet = [(side, part) for side in ("left", "right") for part in ("foot_shell", "heel")]
    for side, part in feet:
        asm.add(ContactPair(f"{side}_{part}_probe", f"{side}_{part}", "probe", floor))
    probe = asm.compile()
    data, out = _evaluate(probe, probe.neutral_configuration(), np.zeros(probe.nv))
    lowest = 10.0 - max(out[f"{side}_{part}_probe.penetration"] for side, part in feet)
    for side, part in feet:
        asm.remove(f"{side}_{part}_probe")
    asm.remove("probe")
    asm.add(Plane("floor", None, point=(0.0, 0.0, lowest - 1e-3)))
    for side, part in feet:
        asm.add(ContactPair(f"{side}_{part}_floor", f"{side}_{part}", "floor", floor))
    model = asm.compile()
    res = occupant.simulate(model, 0.1, integrator="rk4", dt=1e-5, output_dt=1e-3)
    e = res.energy
    exchanged = max(np.abs(e["total"] - e["total"][0]).max(), np.abs(e["work"]).max())
    assert np.abs(e["balance"]).max() < 1e-6 * exchanged
    for side in ("left", "right"):
        force = sum(res.outputs[f"{side}_{part}_floor.normal_force"] for part in ("foot_shell", "heel"))
        assert force.max() > 100.0, side
    assert res.work["contacts"][-1] < 0


def _gs1_law():
    from occupant.modeling.belts import gs1_webbing
    webbing = gs1_webbing()
    return ContactCharacteristic(table=webbing.loading, unloading_table=webbing.unloading)


@pytest.mark.parametrize("char, scale", [
    (_gs1_law(), 0.061),                                                  # the belts' webbing
    (ContactCharacteristic(table=[(0.0, 0.0), (0.01, 1000.0), (0.03, 5000.0)],
                           unloading_table=[(0.0, 0.0), (0.02, 500.0)]), 0.03),   # capped by F_L
    (ContactCharacteristic(stiffness=K, absorption=0.3), 0.02),
    (ContactCharacteristic(stiffness=3.0e6, exponent=1.5,
                           unloading_table=[(0.0, 0.0), (0.01, 1.0e4)]), 0.02),
    (ContactCharacteristic(table=[(0.0, 0.0), (0.004, 100.0), (0.01, 150.0), (0.02, 900.0)],
                           absorption=0.3), 0.02),
    (ContactCharacteristic(table=[(0.0, 0.0), (0.004, 100.0), (0.02, 900.0)]), 0.02),
])
def test_identity_elastic_slope_is_the_laws_difference(char, scale):
    """``elastic_slope`` against differences of ``elastic_force`` (the maximum d_m held below
    it, following d beyond it) over a grid of d in [0, 1.3 scale] (the tables' rows among them)
    for four d_m: where the law is smooth over the forward step (its differences over h and h / 2
    agree), it equals them; at a kink (the forward and backward differences differ: a row, d =
    d_m, where unloading leaves zero or meets the loading curve) it is the slope beyond the
    kink, the forward one, which the belts' flow used as a difference over 1e-6 of strain."""
    from occupant.contact.compliant import elastic_force, elastic_slope
    el = _drop(char).contacts
    h = 1e-7 * scale
    rows = [r[0] for t in (char.table, char.unloading_table) if t is not None for r in t]

    def force(d, d_m):
        return elastic_force(el, 0, d, max(d_m, d)) if d > 0.0 else 0.0

    compared, kinks = 0, 0
    for d_m in (0.3 * scale, 0.55 * scale, 0.8 * scale, 1.1 * scale):
        for d in np.concatenate([np.linspace(0.0, 1.3 * scale, 301), rows, [d_m]]):
            ahead = [(force(d + s, d_m) - force(d, d_m)) / s for s in (h, 0.5 * h)]
            behind = (force(d, d_m) - force(d - h, d_m)) / h if d >= h else ahead[0]
            size = max(abs(ahead[1]), abs(behind), 1.0)
            if abs(ahead[0] - ahead[1]) > 1e-6 * size:
                continue                    # a kink within the step ahead: no one difference
            slope = elastic_slope(el, 0, d, max(d_m, d))
            assert slope == pytest.approx(ahead[1], rel=1e-5, abs=1e-6), (d, d_m)
            compared += 1
            kinks += abs(ahead[1] - behind) > 1e-2 * size
    assert compared > 0.95 * 4 * 302 and kinks >= 4
