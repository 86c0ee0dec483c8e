"""Closed-form solutions: pendulum period, double-pendulum energy, torque-free rigid body
(Euler's equations), pseudo-forces of a base in prescribed motion."""
import numpy as np
import pytest
from scipy.integrate import solve_ivp

import occupant
from occupant import samples
from occupant.constants import G0
from occupant.dynamics import forward_dynamics, momentum, kinetic_energy
from occupant.integrate import Event
from occupant.model import BaseMotion
from occupant.modeling import Assembly, Part, Joint, Pose

G = G0


def test_analytic_small_amplitude_pendulum_period():
    """Compound pendulum: T = 2 pi sqrt(I_O / (m g l)), I_O = m L^2/3 + m r^2/4 for the rod."""
    L, m, r = 0.8, 2.0, 0.01
    model = samples.pendulum(length=L, mass=m, radius=r)
    I_O = m * (3 * r**2 + L**2) / 12 + m * (L / 2) ** 2
    T_exact = 2 * np.pi * np.sqrt(I_O / (m * G * L / 2))
    up = Event("upward_zero", lambda t, y: y[0], direction=1)
    res = occupant.simulate(model, 3.2 * T_exact, q0=[1e-3], integrator="dopri5", rtol=1e-11,
                            atol=1e-13, events=[up], output_dt=0.01)
    times = np.array([e["t"] for e in res.events])
    assert len(times) == 3
    period = np.diff(times).mean()
    # amplitude correction for 1e-3 rad is theta0^2/16 = 6e-8 relative
    assert period == pytest.approx(T_exact, rel=2e-7)


def test_analytic_double_pendulum_conserves_energy():
    model = samples.pendulum(length=0.5, mass=1.5, n_links=2)
    res = occupant.simulate(model, 10.0, q0=[1.2, -0.7], v0=[0.5, 0.0], integrator="dopri5",
                            rtol=1e-12, atol=1e-14, output_dt=0.01)
    e = res.energy["total"]
    assert res.status == "finished" and res.t[-1] == pytest.approx(10.0)
    assert np.ptp(res.q[:, 1]) > 1.0  # it really moved (chaotic regime)
    assert np.abs(e - e[0]).max() < 1e-8


def _rigid_body(inertia, com=(0.0, 0.0, 0.0)):
    asm = Assembly("rigid_body")
    asm.add(Part("body", 3.0, com=com, inertia=inertia))
    asm.add(Joint("float", "free", None, "body", Pose()))
    return asm.compile()


def test_analytic_torque_free_body_follows_euler_equations():
    """Free asymmetric body without gravity: its angular velocity (body frame) obeys Euler's
    equations I w' = -w x I w, and angular momentum and energy are conserved."""
    I = np.array([0.1, 0.2, 0.25])
    model = _rigid_body(I)
    w0 = np.array([0.3, 4.0, 0.2])  # near the unstable intermediate axis: tumbles
    v0 = np.concatenate([[0.1, -0.2, 0.05], w0])
    res = occupant.simulate(model, 4.0, v0=v0, integrator="dopri5", rtol=1e-11, atol=1e-13,
                            gravity=(0, 0, 0), output_dt=0.01)
    ref = solve_ivp(lambda t, w: -np.cross(w, I * w) / I, (0, 4.0), w0, t_eval=res.t,
                    rtol=1e-12, atol=1e-14, method="DOP853")
    np.testing.assert_allclose(res.v[:, 3:], ref.y.T, atol=1e-7)
    assert np.ptp(res.v[:, 4]) > 4.0  # the tumbling really happened
    data = model.make_data()
    L0 = momentum(model, data, res.q[0], res.v[0])[1]
    for k in range(0, len(res.t), 50):
        np.testing.assert_allclose(momentum(model, data, res.q[k], res.v[k])[1], L0, atol=1e-8)
    assert np.abs(res.energy["total"] - res.energy["total"][0]).max() < 1e-9
    assert np.allclose(np.linalg.norm(res.q[:, 3:7], axis=1), 1.0, atol=1e-14)


def test_analytic_euler_equations_with_offset_centre_of_mass():
    """Angular acceleration from ABA equals Euler's equations for a body whose frame is not at
    its centre of mass (the ABA must account for the offset)."""
    I = np.array([0.1, 0.2, 0.25])
    model = _rigid_body(I, com=(0.2, -0.1, 0.3))
    data = model.make_data()
    q = model.neutral_configuration()
    w = np.array([1.0, -2.0, 0.5])
    c = np.array([0.2, -0.1, 0.3])
    v = np.concatenate([-np.cross(w, c), w])  # centre of mass at rest
    vdot = forward_dynamics(model, data, q, v, np.zeros(6), gravity=(0, 0, 0))
    np.testing.assert_allclose(vdot[3:], -np.cross(w, I * w) / I, atol=1e-12)


def _slider(axis_rotation=None):
    """A 2 kg block on a prismatic joint along the base x axis (joint frame z along base x)."""
    asm = Assembly("slider")
    asm.add(Part("block", 2.0, inertia=(0.01, 0.01, 0.01)))
    R = np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]]) if axis_rotation is None else axis_rotation
    asm.add(Joint("slide", "prismatic", None, "block", Pose(rotation=R)))
    return asm.compile()


def test_analytic_translational_pulse_gives_pseudo_force():
    """A free slider on a base decelerating by a(t) moves relative to it by -integral of a."""
    model = _slider()
    t = np.linspace(0.0, 0.1, 1001)
    a = -300.0 * np.sin(np.pi * t / 0.1)  # half-sine crash pulse along world x, m/s^2
    base = BaseMotion.translational(t, a, velocity0=(15.0, 0.0, 0.0))
    res = occupant.simulate(model, 0.1, dt=1e-5, integrator="rk4", base_motion=base)
    # relative displacement x(t) = -(double integral of a) = 300 (0.1/pi)^2 (t pi/0.1 - sin(pi t/0.1)) / ... closed form:
    T = 0.1
    x_exact = 300.0 * (T / np.pi) * (res.t - (T / np.pi) * np.sin(np.pi * res.t / T))
    np.testing.assert_allclose(res.q[:, 0], x_exact, atol=2e-6)
    # world position of the block = base position + relative position
    base_x = np.array([base.position(tt)[0] for tt in res.t])
    np.testing.assert_allclose(res.body_com[:, 0, 0], base_x + res.q[:, 0], atol=1e-12)


def test_analytic_a_coarse_pulse_tables_velocity_and_position_are_its_integrals():
    """A pulse table of three rows (a triangle, as a user's CSV may give it): the acceleration
    is linear between the rows, so the velocity is quadratic and the position cubic there, not
    the linear interpolation of their values at the rows (which put the energy balance of a run
    on such a table off by 871 J of 9228 J exchanged in fmvss208_sled_48_belted)."""
    t = np.array([0.0, 0.05, 0.1])
    base = BaseMotion.translational(t, np.array([0.0, -300.0, 0.0]), velocity0=(15.0, 0.0, 0.0))
    # a(s) = -300 s / 0.05 on the first half: v = 15 - 3000 s^2, x = 15 s - 1000 s^3
    for s in (0.0, 0.01, 0.025, 0.05):
        assert base.velocity(s)[0] == pytest.approx(15.0 - 3000.0 * s ** 2, abs=1e-12)
        assert base.position(s)[0] == pytest.approx(15.0 * s - 1000.0 * s ** 3, abs=1e-12)
        assert base.acceleration(s)[0] == pytest.approx(-6000.0 * s, abs=1e-9)
    # after the table: at rest (15 m/s lost), the acceleration held at its last value 0
    assert base.velocity(0.2)[0] == pytest.approx(0.0, abs=1e-12)
    assert base.position(0.2)[0] == pytest.approx(base.position(0.1)[0], abs=1e-12)
    # the compiled loops' samples are the same functions
    table = base.table(0.0, 1e-3, 101, np.zeros(3))
    s = np.arange(101) * 1e-3
    np.testing.assert_allclose(table[:, 3], base.velocity(s)[0], atol=1e-12)
    np.testing.assert_allclose(table[:, 9], base.acceleration(s)[0], atol=1e-9)


def test_identity_energy_balance_on_a_coarse_pulse_table():
    """The energy balance closes on the three-row table as on the same pulse in 1001 rows: a
    pendulum on the decelerating base (B0 works on it through its pivot)."""
    model = samples.pendulum(length=0.6, mass=1.0)
    works = []
    for rows in (3, 1001):
        t = np.linspace(0.0, 0.1, rows)
        a = -300.0 * np.minimum(t / 0.05, (0.1 - t) / 0.05)
        base = BaseMotion.translational(t, a, velocity0=(15.0, 0.0, 0.0))
        res = occupant.simulate(model, 0.1, dt=1e-5, integrator="rk4", base_motion=base)
        works.append(np.abs(res.work["base_motion"]).max())
        assert np.abs(res.energy["balance"]).max() < 1e-9 * works[-1]
    assert works[0] == pytest.approx(works[1], rel=1e-9)   # the same pulse: the same work


def test_base_poses_at_all_times_are_the_poses_at_each():
    t = np.linspace(0.0, 0.1, 101)
    pulse = BaseMotion.translational(t, -300.0 * np.sin(np.pi * t / 0.1), velocity0=(15.0, 0.0, 0.0))
    pitching = BaseMotion(rotation=lambda s: np.array([[np.cos(s), 0.0, np.sin(s)], [0.0, 1.0, 0.0],
                                                       [-np.sin(s), 0.0, np.cos(s)]]),
                          position=lambda s: np.array([s, 0.0, 2.0 * s]))
    times = np.linspace(-0.01, 0.12, 57)   # outside the table too
    for base in (pulse, pitching):
        poses = base.poses(times)
        for k, s in enumerate(times):
            R, p = base.pose(s)
            assert np.array_equal(poses[k, :3, :3], R) and np.array_equal(poses[k, :3, 3], p)
            assert np.array_equal(poses[k, 3], [0.0, 0.0, 0.0, 1.0])


def test_analytic_pendulum_on_accelerating_base_hangs_at_tilt():
    """Under a constant base acceleration a the pendulum's equilibrium is tan(theta) = a / g."""
    a = 4.0
    model = samples.pendulum(length=0.6, mass=1.0)
    t = np.array([0.0, 1.0])
    base = BaseMotion.translational(t, np.array([a, a]))
    theta = np.arctan(a / G)  # rod swings back, towards -x: positive rotation about +y
    res = occupant.simulate(model, 0.5, q0=[theta], dt=1e-4, integrator="rk4", base_motion=base)
    assert np.abs(res.q[:, 0] - theta).max() < 1e-9
    res = occupant.simulate(model, 1.0, q0=[0.0], dt=1e-4, integrator="rk4", base_motion=base)
    assert res.q[:, 0].max() == pytest.approx(2 * theta, rel=1e-3)  # swings to twice the tilt


def test_analytic_pitching_base_centrifugal_force():
    """A slider along the x axis of a base spinning at constant rate w about y: x'' = w^2 x
    (no gravity), so x = x0 cosh(w t)."""
    w = 3.0
    model = _slider()
    Ry = lambda t: np.array([[np.cos(w * t), 0, np.sin(w * t)], [0, 1, 0], [-np.sin(w * t), 0, np.cos(w * t)]])
    base = BaseMotion(rotation=Ry, angular_velocity=lambda t: np.array([0.0, w, 0.0]))
    res = occupant.simulate(model, 0.5, q0=[0.1], dt=1e-4, integrator="rk4", base_motion=base,
                            gravity=(0, 0, 0))
    np.testing.assert_allclose(res.q[:, 0], 0.1 * np.cosh(w * res.t), rtol=1e-7)


def test_analytic_pitching_base_with_gravity_and_angular_acceleration():
    """Slider on a base pitching with theta(t) = c t^2 about y: relative equation
    x'' = theta'^2 x - g sin(theta)... with the base x axis tilted by theta (nose down for
    theta > 0, world x -> -z), gravity along the slider is +g sin(theta)."""
    c = 2.0
    model = _slider()
    th = lambda t: c * t * t
    Ry = lambda t: np.array([[np.cos(th(t)), 0, np.sin(th(t))], [0, 1, 0], [-np.sin(th(t)), 0, np.cos(th(t))]])
    base = BaseMotion(rotation=Ry, angular_velocity=lambda t: np.array([0.0, 2 * c * t, 0.0]),
                      angular_acceleration=lambda t: np.array([0.0, 2 * c, 0.0]))
    res = occupant.simulate(model, 0.6, q0=[0.2], dt=1e-4, integrator="rk4", base_motion=base)
    # slider coordinate x along base x; base x axis in world = (cos th, 0, -sin th)
    # x'' = thdot^2 x + g . e_x = thdot^2 x + G sin(th)   (Coriolis and Euler terms act normal to x)
    ref = solve_ivp(lambda t, y: [y[1], (2 * c * t) ** 2 * y[0] + G * np.sin(th(t))], (0, 0.6),
                    [0.2, 0.0], t_eval=res.t, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(res.q[:, 0], ref.y[0], atol=1e-8)
