"""Point-to-point spring-damper (seed 000's translational spring-damper) as a force producer:
closed-form damped oscillation, tabulated curve against the linear one, its spatial forces
against the Jacobian transpose, and the energy balance of the step's producers."""
import numpy as np
import pytest

import occupant
from occupant import samples
from occupant.dynamics import forward_dynamics, point_jacobian
from occupant.integrate.pipeline import evaluate
from occupant.model import BaseMotion
from occupant.modeling import Assembly, Part, Joint, Pose, Marker, JointResistance, SpringDamper

MASS, K, C, L0 = 2.0, 800.0, 6.0, 0.3


def _slider(**spring):
    """A mass on a prismatic joint along the base x axis, tied by a spring-damper from its marker
    to the B0 point (-L0, 0, 0): the spring is at its free length at q = 0."""
    asm = Assembly("slider")
    asm.add(Part("block", MASS, inertia=(0.01, 0.01, 0.01)))
    asm.add(Joint("slide", "prismatic", None, "block", Pose(rotation=[[0, 0, 1], [0, 1, 0], [-1, 0, 0]])))
    asm.add(Marker("hook", "block"))
    asm.add(SpringDamper("spring", "hook", None, point_b=(-L0, 0.0, 0.0), free_length=L0, **spring))
    return asm.compile()


def test_analytic_damped_oscillation():
    """m x'' = -k x - c x': x(t) = x0 e^(-zeta w t) (cos wd t + zeta w / wd sin wd t)."""
    model = _slider(stiffness=K, damping=C)
    x0 = 0.05
    res = occupant.simulate(model, 0.5, q0=[x0], integrator="rk4", dt=1e-4, gravity=(0, 0, 0))
    w = np.sqrt(K / MASS)
    zeta = C / (2 * np.sqrt(K * MASS))
    wd = w * np.sqrt(1 - zeta**2)
    t = res.t
    exact = x0 * np.exp(-zeta * w * t) * (np.cos(wd * t) + zeta * w / wd * np.sin(wd * t))
    np.testing.assert_allclose(res.q[:, 0], exact, atol=1e-9)
    # the outputs: length, its rate and the tension of the element
    np.testing.assert_allclose(res.outputs["spring.length"], L0 + res.q[:, 0], atol=1e-12)
    np.testing.assert_allclose(res.outputs["spring.length_rate"], res.v[:, 0], atol=1e-12)
    np.testing.assert_allclose(res.outputs["spring.tension"], K * res.q[:, 0] + C * res.v[:, 0],
                               rtol=1e-12, atol=1e-9)
    assert res.output_units["spring.tension"] == "N"


def test_identity_tabulated_curve_equals_linear_spring():
    linear = _slider(stiffness=K)
    table = _slider(table=[(-0.1, -0.1 * K), (0.0, 0.0), (0.1, 0.1 * K)])
    for x in (-0.2, -0.03, 0.0, 0.07, 0.15):   # including extrapolation past the table
        out = []
        for model in (linear, table):
            data = model.make_data()
            evaluate(model.bundle(), data, 0.0, np.array([x]), np.zeros(1), np.zeros(model.nz), 0.0)
            out.append(data.vdot[0])
        assert out[0] == pytest.approx(out[1], rel=1e-12, abs=1e-12)
        assert out[0] == pytest.approx(-K * x / MASS, rel=1e-12, abs=1e-12)


def _double_pendulum_with_producers():
    """The damped double pendulum of the energy balance: joint resistance (spring, damping,
    friction and a stop) at both hinges, a spring-damper from the tip to a B0 point."""
    asm = samples.pendulum(length=0.5, n_links=2).source
    asm.add(JointResistance("hip", "hinge0", stiffness=4.0, damping=0.3, friction=0.2,
                            friction_speed=0.05, upper=0.6, stop_stiffness=200.0, stop_damping=5.0))
    asm.add(JointResistance("knee", "hinge1", damping=0.05, lower=-1.0, stop_stiffness=100.0,
                            stop_damping=2.0))
    asm.add(Marker("tip", "link1", (0.5, 0.0, 0.0)))
    asm.add(SpringDamper("strap", "tip", None, point_b=(0.6, 0.0, -0.4), stiffness=60.0,
                         damping=1.5, free_length=0.4))
    return asm.compile()


def test_identity_spring_forces_equal_jacobian_transpose():
    """The spring's spatial forces through f_ext give the accelerations that its generalized
    force J_a^T F_a (from the point Jacobian) gives."""
    model = _double_pendulum_with_producers()
    q, v = np.array([0.4, -0.7]), np.array([1.3, -2.0])
    data = model.make_data()
    evaluate(model.bundle(), data, 0.0, q, v, np.zeros(model.nz), 0.0)
    vdot_step = data.vdot.copy()
    # the same loads written as generalized forces: joint resistance from data.tau minus the
    # spring's share, which is J^T F at the tip
    tension = data.outputs[model.output_names.index("strap.tension")]
    tip = model.marker("tip")
    J = point_jacobian(model, model.make_data(), q, int(model.marker_body[tip]), model.marker_p[tip])
    r_tip = model.marker_p[tip]
    R = occupant.dynamics.body_poses(model, model.make_data(), q)[1]
    p_tip = R[:3, :3] @ r_tip + R[:3, 3]
    u = (np.array([0.6, 0.0, -0.4]) - p_tip) / np.linalg.norm(np.array([0.6, 0.0, -0.4]) - p_tip)
    tau = data.tau.copy() + J.T @ (tension * u)
    vdot_ref = forward_dynamics(model, model.make_data(), q, v, tau)
    np.testing.assert_allclose(vdot_step, vdot_ref, rtol=1e-12, atol=1e-10)


@pytest.mark.parametrize("moving_base", [False, True])
def test_identity_energy_balance_closes(moving_base):
    """Kinetic + potential - initial = work of base motion + work of every producer, to 1e-6 of
    the energy exchanged, with RK4 at 1e-4 s (the work accumulators are integrated with the
    states). The moving base is a 20 g half-sine sled pulse along x."""
    model = _double_pendulum_with_producers()
    base = None
    if moving_base:
        t = np.linspace(0.0, 1.0, 10001)
        a = np.where(t < 0.1, -20 * 9.81 * np.sin(np.pi * t / 0.1), 0.0)
        base = BaseMotion.translational(t, a, velocity0=(12.0, 0.0, 0.0))
    res = occupant.simulate(model, 1.0, q0=[0.9, -0.4], v0=[0.0, 2.0], integrator="rk4",
                            dt=1e-4, base_motion=base)
    e = res.energy
    exchanged = max(np.abs(e["total"] - e["total"][0]).max(), np.abs(e["work"]).max())
    assert np.abs(e["balance"]).max() < 1e-6 * exchanged
    # each producer did work, and dissipation shows: damping, friction and stops take energy
    assert res.work["joint_resistance"][-1] < -0.1
    assert abs(res.work["spring_dampers"][-1]) > 0.01
    assert (abs(res.work["base_motion"][-1]) > 1.0) == moving_base
    # the stop was entered, so its dissipation is in the balance
    assert res.outputs["hip.deflection"].max() > 0.6


def test_reference_model_without_producers_has_only_work_states():
    model = samples.pendulum(n_links=2)
    assert model.nz == len(model.power_names) and model.output_names == ()


def test_analytic_jacobian_hook_of_the_slider():
    """The integrators' Jacobian hook on m x'' = -k x - c x': d(x', v')/d(x, v) =
    [[0, 1], [-k/m, -c/m]]."""
    from occupant.integrate import MultibodySystem, RK4
    model = _slider(stiffness=K, damping=C)
    system = MultibodySystem(model, gravity=(0, 0, 0))
    y = system.initial_state([0.02], [0.3])
    J = RK4(system, 0.0, y).jacobian(0.0, y)
    np.testing.assert_allclose(J[:2, :2], [[0.0, 1.0], [-K / MASS, -C / MASS]], rtol=1e-6, atol=1e-6)


def test_reference_sensors_read_producer_outputs_and_z():
    """Array sensors carry producer outputs and extra states into channels."""
    from occupant.sensors import ArraySensor, evaluate
    model = _slider(stiffness=K, damping=C)
    res = occupant.simulate(model, 0.05, q0=[0.05], integrator="rk4", dt=1e-4, gravity=(0, 0, 0))
    work = model.work_start + model.power_names.index("spring_dampers")
    channels = evaluate(model, res, [
        ArraySensor("strap", location="SEBE", source="outputs/spring.tension", unit="N"),
        ArraySensor("work", location="SEBE", source="z", index=work, unit="J", dimension="EN")])
    np.testing.assert_allclose(channels[0].values, res.outputs["spring.tension"], atol=1e-9)
    np.testing.assert_allclose(channels[1].values, res.work["spring_dampers"], atol=1e-12)
    # the spring gave back part of its initial 1/2 k x0^2; the damper kept the rest
    assert 0.0 < channels[1].values[-1] < 0.5 * K * 0.05**2
