"""jit.FastCall keeps one compiled entry per pattern of absent producer families: the Python-
driven integrators share module-level FastCalls across models, and a model's bundle types each
family it lacks as None (bundle.step_bundle)."""
import pytest

import occupant
from occupant.modeling import Assembly, Joint, Marker, MarkerForce, Part

TORQUE, INERTIA = 0.3, 0.02


def _motor_wheel():
    """A wheel on a revolute joint driven by a constant six-component torque about its axis."""
    asm = Assembly("motor_wheel")
    asm.gravity = (0.0, 0.0, 0.0)
    asm.add(Part("wheel", 1.0, inertia=(0.01, 0.01, INERTIA)), Marker("hub", "wheel"))
    asm.add(Joint("axle", "revolute", None, "wheel"))
    asm.add(MarkerForce.six_component("motor", "hub", None, [[0, 0, 0, 0, 0, 0, TORQUE],
                                                             [10, 0, 0, 0, 0, 0, TORQUE]]))
    return asm.compile()


def test_regression_a_model_after_one_without_its_producers_still_gets_their_forces():
    """A pendulum (no force producers) run first, then the motor wheel, both by Radau through the
    same compiled entry point: the wheel turns by T t^2 / (2 I). With one entry for every model
    the wheel's marker force was dropped (it stood still)."""
    occupant.simulate(occupant.samples.pendulum(), t_end=0.01, integrator="radau")
    wheel = _motor_wheel()
    r = occupant.simulate(wheel, t_end=0.5, integrator="radau")
    assert r.status == "finished", r.message
    assert r.q[-1, wheel.dof("axle")] == pytest.approx(TORQUE * 0.5**2 / (2 * INERTIA), rel=1e-6)
