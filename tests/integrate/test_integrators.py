"""Integrators: convergence order, work counters, dense output, events, manifold integration,
compiled loop equal to the stepwise interface, divergence handling."""
import numpy as np
import pytest

import occupant
from occupant import samples
from occupant.integrate import RK4, DormandPrince5, SemiImplicitEuler, Event, MultibodySystem, solve
from occupant.modeling import Assembly, Part, Joint, Pose, JointResistance


def _final_q(model, integrator, dt, t_end=0.5, q0=(1.0, -0.5)):
    res = occupant.simulate(model, t_end, q0=list(q0), dt=dt, integrator=integrator, energy=False)
    return res.q[-1]


@pytest.mark.parametrize("integrator,order", [("rk4", 4), ("euler", 1)])
def test_analytic_convergence_order(integrator, order):
    model = samples.pendulum(length=0.5, n_links=2)
    ref = occupant.simulate(model, 0.5, q0=[1.0, -0.5], integrator="dopri5", rtol=1e-13,
                            atol=1e-15, energy=False, output_dt=0.5).q[-1]
    dts = (2e-3, 1e-3) if integrator == "rk4" else (2e-4, 1e-4)
    errs = [np.abs(_final_q(model, integrator, dt) - ref).max() for dt in dts]
    observed = np.log2(errs[0] / errs[1])
    assert observed == pytest.approx(order, abs=0.15)


def test_identity_work_counters():
    model = samples.pendulum(n_links=2)
    res = occupant.simulate(model, 0.1, dt=1e-3, integrator="rk4", energy=False)
    assert res.stats["steps"] == 100 and res.stats["function_evaluations"] == 400
    res = occupant.simulate(model, 0.1, dt=1e-3, integrator="euler", energy=False)
    assert res.stats["steps"] == 100 and res.stats["function_evaluations"] == 100
    system = MultibodySystem(model)
    y0 = system.initial_state([1.0, 0.3], [0.0, 0.0])
    integ = DormandPrince5(system, 0.0, y0, rtol=1e-8, atol=1e-10)
    solve(integ, 1.0, [1.0])
    # FSAL: 6 evaluations per attempted step, plus 2 for the starting step and 1 initial
    assert integ.nfev == 6 * (integ.nsteps + integ.nreject) + 2
    assert 20 < integ.nsteps < 400


def test_analytic_dopri5_dense_output_is_fourth_order_accurate():
    """Between steps the continuous extension stays within the order of the local error."""
    model = samples.pendulum(n_links=1)
    system = MultibodySystem(model, gravity=(0, 0, -9.81))
    integ = DormandPrince5(system, 0.0, system.initial_state([0.8], [0.0]), rtol=1e-6, atol=1e-9)
    ref_system = MultibodySystem(model, gravity=(0, 0, -9.81))
    worst = 0.0
    for _ in range(10):
        integ.step()
        dense = integ.dense_output()
        t_mid = 0.5 * (integ.t_old + integ.t)
        ref = DormandPrince5(ref_system, 0.0, system.initial_state([0.8], [0.0]), rtol=1e-13, atol=1e-15)
        sol = solve(ref, t_mid, [t_mid])
        worst = max(worst, np.abs(dense(t_mid) - sol.y[0]).max())
        # the interpolant passes through both step ends
        np.testing.assert_allclose(dense(integ.t_old), integ.y_old, atol=1e-14)
        np.testing.assert_allclose(dense(integ.t), integ.y, atol=1e-14)
    assert worst < 1e-5  # cubic Hermite with these steps gives ~1e-4; the 4th-order extension less


def test_identity_compiled_loop_equals_stepwise_interface():
    model = samples.random_tree(5, 3, joint_types=samples.ALL_JOINT_TYPES, floating_base=True)
    q0 = model.random_configuration(np.random.default_rng(1))
    for name, cls in (("rk4", RK4), ("euler", SemiImplicitEuler)):
        res = occupant.simulate(model, 0.01, q0=q0, dt=1e-3, integrator=name, energy=False)
        system = MultibodySystem(model)
        integ = cls(system, 0.0, system.initial_state(q0, np.zeros(model.nv)), 1e-3)
        sol = solve(integ, 0.01, res.t)
        np.testing.assert_allclose(sol.y, np.column_stack([res.q, res.v, res.z]), atol=1e-13)


@pytest.mark.parametrize("integrator", ["rk4", "euler", "dopri5"])
def test_identity_quaternions_stay_unit(integrator):
    model = samples.random_tree(4, 2, joint_types=("spherical",), floating_base=True)
    rng = np.random.default_rng(0)
    res = occupant.simulate(model, 0.2, q0=model.random_configuration(rng), v0=3 * rng.normal(size=model.nv),
                            dt=1e-3 if integrator != "euler" else 1e-4, integrator=integrator, energy=False)
    t = model.tree
    for i in range(model.nl):
        k = t.qidx[i] + (3 if t.jtype[i] == 4 else 0)
        if t.jtype[i] in (3, 4):
            assert np.abs(np.linalg.norm(res.q[:, k:k + 4], axis=1) - 1).max() < 1e-13


def test_analytic_events_direction_and_terminal():
    """A pendulum released at 0.5 rad: crossings of q = 0 alternate direction every half period;
    a terminal event stops the run exactly there."""
    model = samples.pendulum(length=1.0)
    down = Event("down", lambda t, y: y[0], direction=-1)
    up = Event("up", lambda t, y: y[0], direction=+1)
    res = occupant.simulate(model, 3.0, q0=[0.5], integrator="dopri5", events=[down, up])
    names = [e["name"] for e in res.events]
    assert names[:4] == ["down", "up", "down", "up"]
    stop = Event("stop", lambda t, y: y[0], direction=+1, terminal=True)
    res2 = occupant.simulate(model, 3.0, q0=[0.5], integrator="rk4", dt=1e-3, events=[stop])
    t_up = [e["t"] for e in res.events if e["name"] == "up"][0]
    assert res2.status == "event" and res2.events[-1]["t"] == pytest.approx(t_up, abs=1e-7)
    assert res2.t[-1] <= t_up + 1e-12


def test_regression_diverging_run_keeps_results_and_says_when():
    """A stiff joint spring with too large an explicit step blows up: the run stops, keeps
    what it computed and reports the time."""
    asm = Assembly("stiff")
    asm.add(Part("arm", 1.0, com=(0.1, 0, 0), inertia=(1e-3, 1e-3, 1e-3)))
    asm.add(Joint("hinge", "revolute", None, "arm", Pose()))
    asm.add(JointResistance("spring", "hinge", stiffness=1e6))
    model = asm.compile()
    res = occupant.simulate(model, 1.0, q0=[0.1], dt=1e-3, integrator="euler", gravity=(0, 0, 0))
    assert res.status == "diverged"
    assert "stopped being finite" in res.message
    assert 0 < res.t[-1] < 1.0 and np.all(np.isfinite(res.q))
