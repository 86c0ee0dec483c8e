"""A run that stops being physical (issue 13 section 5) stops with when, where and why, and keeps
what it computed: a contact penetrating past the whole depth of its shape (against the closed form of a
ball on a linear spring) unless the surface is a membrane bulging round it within its table, a state
that is no longer finite (with the dof and body that blew up)."""
import numpy as np
import pytest

import occupant
from occupant.integrate.divergence import penetration_guard
from occupant.modeling import (Assembly, ContactCharacteristic, ContactPair, Joint, JointResistance, Marker,
                               ModelingError, Part, Plane, Pose, Sphere)

M, K, R = 2.0, 100.0, 0.05   # kg, N/m (far too soft for the ball), m


def _ball_on_soft_floor(stiffness=K, law=None):
    """A ball of radius R on a vertical prismatic joint touching the floor z = -R at q = 0, its
    pair's characteristic ``law`` (default: linear of ``stiffness``)."""
    asm = Assembly("soft_drop")
    asm.add(Part("ball", M, inertia=(0.002, 0.002, 0.002)))
    asm.add(Joint("lift", "prismatic", None, "ball", Pose()))
    asm.add(Marker("centre", "ball"))
    asm.add(Sphere("shell", "centre", R))
    asm.add(Plane("floor", None, point=(0.0, 0.0, -R)))
    law = law or ContactCharacteristic(stiffness=stiffness)
    asm.add(ContactPair("ball_floor", "shell", "floor", law))
    return asm.compile()


@pytest.mark.parametrize("integrator, dt", [("rk4", 1e-4), ("dopri5", None)])
def test_analytic_penetration_through_the_shape_stops_the_run(integrator, dt):
    """Without gravity, from v0 downwards at the touch: d(t) = v0 / w sin(w t), w = sqrt(K/M),
    amplitude 0.141 m > 2 R, so d reaches 2 R at t* = asin(2 R w / v0) / w = 111.1 ms: the run
    stops at the first sample past t* (1e-4 s apart) and keeps everything before."""
    model = _ball_on_soft_floor()
    guard = penetration_guard(model)
    assert guard.names == ("ball_floor",) and guard.limits[0] == 2 * R
    v0, w = 1.0, np.sqrt(K / M)
    t_star = np.arcsin(2 * R * w / v0) / w
    res = occupant.simulate(model, 0.2, q0=[0.0], v0=[-v0], integrator=integrator, dt=dt,
                            gravity=(0, 0, 0), rtol=1e-10, atol=1e-12)
    assert res.status == "diverged"
    assert t_star <= res.t[-1] < t_star + 1e-4 + 1e-12
    d = res.outputs["ball_floor.penetration"]
    assert d[-1] > 2 * R and np.all(d[:-1] <= 2 * R) and len(d) == len(res.t) == len(res.q)
    assert f"penetrated {1e3 * d[-1]:.1f} mm at t = {res.t[-1]:.6g} s" in res.message
    assert res.message.startswith("contact ball_floor penetrated")
    assert "largest contact force" in res.message   # where: the contact carrying the load


def test_regression_non_finite_state_names_the_dof_and_body():
    asm = Assembly("stiff")
    asm.add(Part("arm", 1.0, com=(0.1, 0, 0), inertia=(1e-3, 1e-3, 1e-3)))
    asm.add(Joint("hinge", "revolute", None, "arm", Pose()))
    asm.add(JointResistance("spring", "hinge", stiffness=1e6))
    res = occupant.simulate(asm.compile(), 1.0, q0=[0.1], dt=1e-3, integrator="euler", gravity=(0, 0, 0))
    assert res.status == "diverged" and "stopped being finite in the step after t = " in res.message
    assert f"At t = {res.t[-1]:.6g} s, the last sample kept: largest acceleration" in res.message
    assert "(joint hinge, body arm)" in res.message and np.all(np.isfinite(res.q))


@pytest.mark.parametrize("integrator", ["radau", "bdf", "newmark"])
def test_regression_tree_step_that_collapses_is_not_retried(integrator):
    """A collapsed implicit step is retried on a fresh partition only for closed loops: a tree
    (here a ball dropped from 0.05 m onto a floor of 1e300 N/m, where every step that reaches
    the floor fails its Newton iteration) has no partition to choose again, so the run stops at
    its last step before the ball reaches the floor (t = sqrt(2 h / g) = 0.101 s), its partition
    chosen only at the start, as in a run that finishes (before: 2-3 partitions, each a restart
    that let radau go on after its first collapse)."""
    lifted = 0.05
    fine = occupant.simulate(_ball_on_soft_floor(1e5), 0.3, q0=[lifted], integrator=integrator,
                             rtol=1e-6, atol=1e-8)
    res = occupant.simulate(_ball_on_soft_floor(1e300), 0.3, q0=[lifted], integrator=integrator,
                            rtol=1e-6, atol=1e-8)
    assert fine.status == "finished" and fine.stats["partitions"] == 1
    assert res.status == "diverged" and "step size fell below 1e-12 s" in res.message
    assert res.stats["partitions"] == fine.stats["partitions"]
    assert 0.09 < res.t[-1] <= np.sqrt(2 * lifted / 9.81) + 1e-4


@pytest.mark.parametrize("membrane", [False, True])
def test_analytic_a_membrane_holds_a_ball_deeper_than_its_size(membrane):
    """The ball of the first test on the same linear law given as a table to 0.3 m: d(t) =
    v0 / w sin(w t) peaks at v0 / w = 0.141 m (t = 222 ms), past the ball's 2 R = 0.1 m but
    inside the table.
    A crushing surface stops the run at 2 R, as the linear law did; a membrane (laminated glass
    bulging round what presses it: ContactCharacteristic.membrane) is guarded at its table's
    last row, so the run finishes with the ball held at the closed form's depth."""
    law = ContactCharacteristic(table=[[0.0, 0.0], [0.3, K * 0.3]], membrane=membrane)
    model = _ball_on_soft_floor(law=law)
    guard = penetration_guard(model)
    assert guard.limits[0] == (0.3 if membrane else 2 * R)
    v0, w = 1.0, np.sqrt(K / M)
    res = occupant.simulate(model, 0.3, q0=[0.0], v0=[-v0], integrator="rk4", dt=1e-4,
                            gravity=(0, 0, 0))
    d = res.outputs["ball_floor.penetration"]
    if membrane:
        assert res.status == "finished", res.message
        assert np.allclose(d, v0 / w * np.sin(w * res.t), rtol=0, atol=1e-6)
        assert d.max() == pytest.approx(v0 / w, rel=1e-4) and d.max() > 2 * R
    else:
        assert res.status == "diverged" and d[-1] > 2 * R


def test_reference_a_membrane_needs_its_table():
    """A membrane's bulge is its loading table's depth: a power law with membrane = true is one
    message naming the key."""
    with pytest.raises(ModelingError, match=r"'glass'\.membrane: .*has none"):
        ContactCharacteristic(stiffness=K, membrane=True, name="glass")
