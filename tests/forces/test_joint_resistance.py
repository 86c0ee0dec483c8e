"""Joint resistance: spring frequency, friction holding a limb, stops dissipating on unloading,
spherical-joint components, tabulated stiffness."""
import numpy as np
import pytest

import occupant
from occupant.dynamics import forward_dynamics
from occupant.integrate.pipeline import evaluate
from occupant.modeling import Assembly, Part, Joint, Pose, JointResistance

I_ZZ = 0.02  # kg m^2 about the hinge


def _hinge(**resistance):
    asm = Assembly("hinge")
    # centre of mass on the axis so that gravity exerts no torque unless the com is offset
    com = resistance.pop("com", (0.0, 0.0, 0.0))
    asm.add(Part("arm", 1.0, com=com, inertia=(I_ZZ, I_ZZ, I_ZZ)))
    asm.add(Joint("hinge", "revolute", None, "arm", Pose()))
    if resistance:
        asm.add(JointResistance("r", "hinge", **resistance))
    return asm.compile()


def test_analytic_linear_spring_frequency_and_damping():
    k, c = 8.0, 0.05
    model = _hinge(stiffness=k, damping=c, reference=0.1)
    res = occupant.simulate(model, 1.0, q0=[0.3], dt=1e-4, integrator="rk4", gravity=(0, 0, 0))
    wn, zeta = np.sqrt(k / I_ZZ), c / (2 * np.sqrt(k * I_ZZ))
    wd = wn * np.sqrt(1 - zeta**2)
    exact = 0.1 + 0.2 * np.exp(-zeta * wn * res.t) * (np.cos(wd * res.t) + zeta / np.sqrt(1 - zeta**2) * np.sin(wd * res.t))
    np.testing.assert_allclose(res.q[:, 0], exact, atol=1e-8)


def test_analytic_friction_holds_limb_against_gravity():
    """The Hybrid III limb setting: friction just above the gravity moment holds the limb
    horizontal (49 CFR 572, '1 g to 2 g' setting); just below it, the limb falls."""
    m_g_l = 1.0 * 9.81 * 0.2  # N m, com 0.2 m out along x, hinge axis horizontal (z along world y)
    R = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]])  # joint z along world -y... axis horizontal

    def model(friction):
        asm = Assembly("limb")
        asm.add(Part("arm", 1.0, com=(0.2, 0.0, 0.0), inertia=(0.001, 0.01, 0.01)))
        asm.add(Joint("hinge", "revolute", None, "arm", Pose(rotation=R)))
        asm.add(JointResistance("r", "hinge", friction=friction, friction_speed=1e-3))
        return asm.compile()

    held = occupant.simulate(model(1.5 * m_g_l), 0.5, dt=1e-4, integrator="rk4")
    fell = occupant.simulate(model(0.5 * m_g_l), 0.5, dt=1e-4, integrator="rk4")
    assert abs(held.q[-1, 0]) < 1e-3   # creeps no more than the smoothing allows
    assert abs(fell.q[-1, 0]) > 0.2


def test_analytic_stop_dissipates_energy_on_rebound():
    """Hitting a stop at speed w0: the quadratic stop with Hunt-Crossley damping returns the
    limb slower than it arrived, and without damping exactly as fast."""
    def rebound_speed(stop_damping):
        model = _hinge(upper=0.1, stop_stiffness=500.0, stop_damping=stop_damping)
        res = occupant.simulate(model, 0.3, q0=[0.0], v0=[5.0], dt=1e-5, integrator="rk4", gravity=(0, 0, 0))
        assert res.q[:, 0].max() > 0.1  # it entered the stop
        return res.v[-1, 0]

    assert rebound_speed(0.0) == pytest.approx(-5.0, rel=1e-6)
    damped = rebound_speed(10.0)
    assert -5.0 < damped < -1.0


def test_identity_tabulated_curve_equals_linear_spring():
    k = 3.0
    linear = _hinge(stiffness=k)
    table = _hinge(table=[(-1.0, -k), (0.0, 0.0), (1.0, k)])
    for q in (-1.5, -0.3, 0.0, 0.7, 2.0):  # including extrapolation beyond the table
        for model in (linear, table):
            data = model.make_data()
            evaluate(model.bundle(), data, 0.0, np.array([q]), np.zeros(1), np.zeros(model.nz), 0.0)
            assert data.vdot[0] == pytest.approx(-k * q / I_ZZ, rel=1e-12, abs=1e-12)


def test_analytic_spherical_joint_component_acts_about_its_axis():
    """A spring on component 1 (y) of a spherical joint: rotated about y by angle a the body
    feels -k a about y and nothing about x or z."""
    asm = Assembly("ball")
    asm.add(Part("head", 1.0, inertia=(0.01, 0.02, 0.03)))
    asm.add(Joint("neck", "spherical", None, "head", Pose()))
    asm.add(JointResistance("flexion", "neck", dof=1, stiffness=10.0))
    model = asm.compile()
    a = 0.4
    q = np.array([np.cos(a / 2), 0.0, np.sin(a / 2), 0.0])
    data = model.make_data()
    evaluate(model.bundle(), data, 0.0, q, np.zeros(3), np.zeros(model.nz), 0.0)
    np.testing.assert_allclose(data.vdot, [0.0, -10.0 * a / 0.02, 0.0], atol=1e-12)


def _ball(**resistance):
    """A body on a spherical joint with one resistance element (on component ``dof``)."""
    asm = Assembly("ball")
    asm.add(Part("foot", 1.0, inertia=(0.01, 0.02, 0.03)))
    asm.add(Joint("ankle", "spherical", None, "foot", Pose()))
    asm.add(JointResistance("r", "ankle", **resistance))
    return asm.compile()


def _body_rate(phi, phi_dot, h=1e-6):
    """Child-frame angular velocity of the path exp(phi + t phi_dot) at t = 0, by central
    differences of the quaternions (independent of the kernel's Jacobian)."""
    from occupant.spatial.rotation import quat_exp, quat_log, quat_multiply
    q0 = quat_exp(phi)
    conj = q0 * np.array([1.0, -1.0, -1.0, -1.0])
    fwd = quat_log(quat_multiply(conj, quat_exp(phi + h * phi_dot)))
    back = quat_log(quat_multiply(conj, quat_exp(phi - h * phi_dot)))
    return q0, (fwd - back) / (2.0 * h)


def test_analytic_spherical_stop_pushes_back_when_angular_velocity_component_opposes_rate():
    """Past its lower z stop (phi_z = -0.6 < -0.4) and going deeper (phi_z' = -1 rad/s) while
    turning about y (phi_y' = -5 rad/s) with phi_x = 1 rad: the angular velocity's z component is
    positive, opposite to the rate of the angle. The stop load is k pen^2 + c pen |phi_z'| in
    closed form (the former kernel, damping with omega_z, clipped it to zero), its torque is
    conjugate to omega (power = load phi_z'), and with the spring alone it is minus the gradient
    of the stop's potential k pen^3 / 3 along each body axis."""
    k, c, lower = 4000.0, 50.0, -0.4
    phi, phi_dot = np.array([1.0, 0.0, -0.6]), np.array([0.0, -5.0, -1.0])
    q, omega = _body_rate(phi, phi_dot)
    assert omega[2] > 1.0   # the component's angular velocity opposes the angle's rate
    pen = lower - phi[2]
    for damping in (c, 0.0):
        model = _ball(dof=2, lower=lower, upper=1.0, stop_stiffness=k, stop_damping=damping)
        data = model.make_data()
        evaluate(model.bundle(), data, 0.0, q, omega, np.zeros(model.nz), 0.0)
        load = data.outputs[1]
        assert data.outputs[0] == pytest.approx(phi[2], abs=1e-12)
        assert load == pytest.approx(k * pen ** 2 - damping * pen * phi_dot[2], rel=1e-6)
        assert data.tau @ omega == pytest.approx(load * phi_dot[2], rel=1e-6)
    # spring alone: tau_m = -dV/de of V(phi_z(q exp(e e_m))), V = k pen^3 / 3
    from occupant.spatial.rotation import quat_exp, quat_log, quat_multiply

    def potential(e):
        pz = quat_log(quat_multiply(q, quat_exp(e)))[2]
        return k * max(lower - pz, 0.0) ** 3 / 3.0
    h = 1e-6
    grad = [(potential(h * np.eye(3)[m]) - potential(-h * np.eye(3)[m])) / (2 * h) for m in range(3)]
    np.testing.assert_allclose(data.tau, -np.array(grad), rtol=1e-6)


@pytest.mark.parametrize("damping", [0.0, 20.0])
def test_identity_spherical_stop_impact_conserves_or_dissipates_energy(damping):
    """A body on a ball joint, turned 1 rad about x, spins into its z stop about all three axes
    (no gravity). Kinetic + stop spring energy k pen^3 / 3: conserved without stop damping (the
    stop is a potential of the angle it limits), never growing with it and ending lower."""
    k, lower, upper = 3000.0, -0.3, 1.0
    model = _ball(dof=2, lower=lower, upper=upper, stop_stiffness=k, stop_damping=damping)
    from occupant.spatial.rotation import quat_exp
    q0 = quat_exp(np.array([1.0, 0.0, 0.0]))
    v0 = np.array([2.0, -6.0, -8.0])
    res = occupant.simulate(model, 0.3, q0=q0, v0=v0, dt=2e-5, integrator="rk4",
                            gravity=(0, 0, 0), output_dt=1e-4)
    phi_z = res.outputs["r.deflection"]
    assert phi_z.min() < lower - 0.05   # it struck the stop (undamped, later the upper one too)
    kinetic = 0.5 * np.einsum("ni,i,ni->n", res.v, np.array([0.01, 0.02, 0.03]), res.v)
    energy = kinetic + k * (np.maximum(lower - phi_z, 0.0) ** 3 + np.maximum(phi_z - upper, 0.0) ** 3) / 3.0
    if damping == 0.0:
        np.testing.assert_allclose(energy, energy[0], rtol=1e-6)
    else:
        assert np.diff(energy).max() < 1e-9 * energy[0]
        assert energy[-1] < 0.9 * energy[0]


def test_reference_a_sliding_joints_resistance_outputs_are_in_m_and_n():
    """(usercheck7) A prismatic joint's resistance (the dummies' sternum slider,
    ``chest_translation``) wrote its deflection as "rad" and its load as "N m" in results.h5:
    they are a length and a force. A hinge's keep rad and N m."""
    asm = Assembly("slider")
    asm.add(Part("block", 1.0, inertia=(0.01, 0.01, 0.01)))
    asm.add(Part("arm", 1.0, inertia=(0.01, 0.01, 0.01)))
    asm.add(Joint("slide", "prismatic", None, "block", Pose()))
    asm.add(Joint("hinge", "revolute", "block", "arm", Pose()))
    asm.add(JointResistance("spring", "slide", stiffness=1000.0))
    asm.add(JointResistance("torsion", "hinge", stiffness=10.0))
    res = occupant.simulate(asm.compile(), 0.01, q0=[0.02, 0.1], dt=1e-4, integrator="rk4", gravity=(0, 0, 0))
    assert {k: res.output_units[k] for k in ("spring.deflection", "spring.load", "torsion.deflection",
                                              "torsion.load")} == {
        "spring.deflection": "m", "spring.load": "N", "torsion.deflection": "rad", "torsion.load": "N m"}
    assert res.outputs["spring.deflection"][0] == pytest.approx(0.02)          # the coordinate itself, m
    assert res.outputs["spring.load"][0] == pytest.approx(-1000.0 * 0.02)      # -k x, N
