"""Step limits from the joint resistance, and the implicit joint damping of semi-implicit Euler."""
import numpy as np
import pytest

import occupant
from occupant.integrate.stability import step_limit
from occupant.integrate import RK4, SemiImplicitEuler
from occupant.modeling import Assembly, Part, Joint, Pose, JointResistance

I_ZZ = 0.01  # kg m^2


def _rotor(damping=0.0, stiffness=0.0):
    asm = Assembly("rotor")
    asm.add(Part("disc", 1.0, inertia=(I_ZZ, I_ZZ, I_ZZ)))
    asm.add(Joint("axle", "revolute", None, "disc", Pose()))
    asm.add(JointResistance("axle_damper", "axle", damping=damping, stiffness=stiffness))
    return asm.compile()


def test_analytic_step_limit_of_one_damper_and_one_spring():
    model = _rotor(damping=5.0, stiffness=400.0)
    q = model.neutral_configuration()
    lim = step_limit(model, q, RK4.stability)
    assert lim.element == "axle_damper"
    assert lim.dt == pytest.approx(min(2.5 * I_ZZ / 5.0, 2.5 / np.sqrt(400.0 / I_ZZ)), rel=1e-12)
    assert step_limit(model, q, SemiImplicitEuler.stability).dt == pytest.approx(1.9 / np.sqrt(400.0 / I_ZZ), rel=1e-12)


def test_analytic_rk4_is_stable_below_the_limit_and_not_above():
    model = _rotor(damping=50.0)
    lim = step_limit(model, model.neutral_configuration(), RK4.stability).dt   # 5e-4 s
    ok = occupant.simulate(model, 0.2, dt=0.8 * lim, v0=[10.0], integrator="rk4", gravity=(0, 0, 0))
    assert ok.status == "finished" and abs(ok.v[-1, 0]) < 1e-6
    bad = occupant.simulate(model, 1.0, dt=1.25 * lim, v0=[10.0], integrator="rk4", gravity=(0, 0, 0))
    assert bad.status == "diverged"
    assert "axle_damper" in bad.message and "integrator='euler'" in bad.message


def test_analytic_euler_takes_damping_implicitly():
    """A damped free rotor under semi-implicit Euler: w_{n+1} = w_n / (1 + h c / I) exactly
    (backward Euler on the damping), stable for any step."""
    c, h = 50.0, 1e-3  # h c / I = 5: explicit Euler would blow up
    model = _rotor(damping=c)
    res = occupant.simulate(model, 0.02, dt=h, v0=[10.0], integrator="euler", gravity=(0, 0, 0))
    n = np.arange(len(res.t))
    np.testing.assert_allclose(res.v[:, 0], 10.0 / (1 + h * c / I_ZZ) ** n, rtol=1e-12)


def test_default_step_adapts_to_a_stiff_model():
    model = _rotor(damping=500.0)
    lim = step_limit(model, model.neutral_configuration(), RK4.stability).dt  # 5e-5 s, below the 1e-4 default
    res = occupant.simulate(model, 0.01, v0=[1.0], integrator="rk4", gravity=(0, 0, 0))
    assert res.status == "finished"
    assert res.stats["steps"] * lim * 0.8 >= 0.01 - 1e-12 and res.stats["steps"] > 0.01 / 1e-4
