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
