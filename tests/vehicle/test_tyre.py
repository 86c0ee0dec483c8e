"""The tyre and coupler producers (occupant.vehicle.tyre) against closed forms, and their work
in the energy balance."""
import numpy as np
import pytest

import occupant
from occupant.integrate.pipeline import evaluate
from occupant.modeling import Part
from occupant.vehicle.compile import compile_vehicle
from occupant.vehicle.geometry import frame_z, joint_at
from occupant.vehicle.subsystem import Coupler, Subsystem, Tyre

R0, K, M_WHEEL = 0.3, 2.0e5, 10.0
LONG, LAT = (10.0, 1.9, 1.0, 0.97), (14.0, 1.3, 0.9, -0.5)


def _mf(c, fz, s):
    B, C, mu, E = c
    return mu * fz * np.sin(C * np.arctan(B * s - E * (B * s - np.arctan(B * s))))


def wheel_rig(damping=0.0, brake=0.0, pedal=None, axis=(0.0, 1.0, 0.0)):
    """A carriage sliding along x on the ground frame, a hub sliding vertically in it, a wheel
    spinning about y on the hub, with one tyre."""
    sub = Subsystem("rig")
    c = (0.0, 0.0, R0)
    sub.add(Part("carriage", 50.0, c, (1.0, 1.0, 1.0)))
    sub.add(Part("hub", 5.0, c, (0.1, 0.1, 0.1)))
    sub.add(Part("wheel", M_WHEEL, c, (0.5, 1.0, 0.5)))
    joint_at(sub, "slide", "prismatic", None, "carriage", c, frame_z((1.0, 0.0, 0.0)))
    joint_at(sub, "drop", "prismatic", "carriage", "hub", c, frame_z((0.0, 0.0, 1.0)))
    joint_at(sub, "spin", "revolute", "hub", "wheel", c, frame_z(axis))
    sub.add(Tyre("tyre", "wheel", "spin", c, axis, R0, K, damping, LONG, LAT, 0.5,
                 brake, 0.5))
    return sub, compile_vehicle(sub, pedal=pedal, check=False)


def outputs_at(model, q, v, t=0.0):
    data = model.make_data()
    evaluate(model.bundle(), data, t, q, v, np.zeros(model.nz), 0.0)
    return dict(zip(model.output_names, data.outputs)), data


def test_analytic_tyre_vertical_force_and_full_slide():
    """Fz = k delta; a locked wheel sliding forward at 10 m/s has kappa = -1 and
    Fx = -MF_x(1) Fz (Pacejka 2012 eq. 4.49)."""
    _, model = wheel_rig()
    q = np.zeros(model.nq)
    q[model.dof("drop")] = -0.02                       # 20 mm deflection
    v = np.zeros(model.nv)
    v[model.dof("slide")] = 10.0
    out, _ = outputs_at(model, q, v)
    fz = K * 0.02
    assert out["tyre.vertical_force"] == pytest.approx(fz, rel=1e-12)
    assert out["tyre.slip_ratio"] == pytest.approx(-1.0, rel=1e-12)
    assert out["tyre.longitudinal_force"] == pytest.approx(-_mf(LONG, fz, 1.0), rel=1e-12)
    assert out["tyre.lateral_force"] == pytest.approx(0.0, abs=1e-9)


def test_analytic_tyre_rolling_and_lateral_slip():
    """A wheel rolling freely has no slip; sliding sideways at 1 m/s while rolling at 10 m/s
    gives tan(alpha) = 0.1 and Fy = -MF_y(arctan 0.1) Fz."""
    _, model = wheel_rig()
    q = np.zeros(model.nq)
    q[model.dof("drop")] = -0.02
    v = np.zeros(model.nv)
    v[model.dof("slide")] = 10.0
    r = R0 - 0.02
    v[model.dof("spin")] = 10.0 / r                    # pure rolling about +y
    out, _ = outputs_at(model, q, v)
    assert abs(out["tyre.slip_ratio"]) < 1e-12 and abs(out["tyre.longitudinal_force"]) < 1e-6
    # the spin axis yawed by alpha: the travel makes the slip angle alpha; rolling at the
    # heading speed 10 cos(alpha) / r leaves kappa = 0, so Fy = -MF_y(alpha) Fz exactly
    alpha = np.arctan(0.1)
    _, model = wheel_rig(axis=(np.sin(alpha), np.cos(alpha), 0.0))
    v[model.dof("spin")] = 10.0 * np.cos(alpha) / r
    out, _ = outputs_at(model, q, v)
    fz = K * 0.02
    assert out["tyre.slip_angle"] == pytest.approx(alpha, rel=1e-9)
    assert abs(out["tyre.slip_ratio"]) < 1e-9
    assert out["tyre.lateral_force"] == pytest.approx(-_mf(LAT, fz, alpha), rel=1e-9)


def test_analytic_brake_torque_on_spin_coordinate():
    """At full pedal the brake torque is -T tanh(omega / omega_0) on the spin coordinate."""
    pedal = np.array([[0.0, 0.0], [0.1, 1.0]])
    _, model = wheel_rig(brake=1500.0, pedal=pedal)
    q = np.zeros(model.nq)
    v = np.zeros(model.nv)
    v[model.dof("spin")] = 2.0
    out, data = outputs_at(model, q, v, t=0.05)
    expected = -1500.0 * 0.5 * np.tanh(2.0 / 0.5)
    assert out["tyre.brake_torque"] == pytest.approx(expected, rel=1e-12)
    assert data.tau[model.dof("spin")] == pytest.approx(expected, rel=1e-12)


def test_identity_tyre_energy_balance():
    """A wheel dropped onto the ground bounces on the undamped tyre: kinetic + potential energy
    minus the tyre's work stays constant (the work report closes the balance)."""
    _, model = wheel_rig()
    q0 = np.zeros(model.nq)
    q0[model.dof("drop")] = 0.03
    r = occupant.simulate(model, t_end=0.3, q0=q0, integrator="rk4", dt=1e-5, output_dt=1e-3)
    assert r.status == "finished"
    assert r.outputs["tyre.vertical_force"].max() > 1000.0          # it did hit the ground
    scale = np.abs(r.energy["potential"]).max()
    assert np.abs(r.energy["balance"]).max() < 1e-6 * scale


def test_analytic_coupler_gear():
    """A coupler r_a q_a + r_b q_b applies -(k e) r_a and -(k e) r_b to the two coordinates."""
    sub, _ = wheel_rig()
    sub.add(Coupler("gear", "spin", 2.0, "drop", -1.0, 100.0, 0.0))
    model = compile_vehicle(sub, check=False)
    q = np.zeros(model.nq)
    q[model.dof("spin")] = 0.1
    q[model.dof("drop")] = 0.5        # lifted off the ground: no tyre force
    out, data = outputs_at(model, q, np.zeros(model.nv))
    e = 2.0 * 0.1 - 0.5
    assert out["gear.error"] == pytest.approx(e)
    assert data.tau[model.dof("spin")] == pytest.approx(-100.0 * e * 2.0)
