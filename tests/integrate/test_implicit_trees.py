"""The implicit integrators on unconstrained trees (issue 12 section 6): the same compiled loop
as for closed loops, the tree path of the state-space solver (x = y, the articulated-body
derivative, quaternions kept unit), against the explicit integrators (identities)."""
import numpy as np
import pytest

from occupant import samples, simulate
from occupant.integrate.driver import Event
from occupant.model.model import ModelError


def _run(model, integrator, t_end=0.4, **kw):
    rng = np.random.default_rng(7)
    q0 = model.random_configuration(rng)
    v0 = rng.normal(scale=0.5, size=model.nv)
    return simulate(model, t_end, q0=q0, v0=v0, integrator=integrator, output_dt=0.01,
                    gravity=(0.0, 0.0, -9.81), **kw)


@pytest.mark.parametrize("method", ["radau", "bdf", "newmark"])
def test_identity_implicit_matches_dopri5_on_a_scalar_tree(method):
    """Revolute, prismatic and universal joints: states within tolerance of dopri5's."""
    model = samples.random_tree(5, 4, joint_types=("revolute", "prismatic", "universal"))
    tight = dict(rtol=1e-10, atol=1e-12)
    ref = _run(model, "dopri5", **tight)
    r = _run(model, method, rtol=1e-9 if method == "newmark" else 1e-8, atol=1e-10)
    assert r.status == "finished", r.message
    err = np.abs(r.q - ref.q).max()
    print(method, f"largest coordinate difference {err:.1e}", r.stats)
    assert err < {"radau": 1e-6, "bdf": 1e-5, "newmark": 1e-4}[method]
    assert r.stats["steps"] < 2000 and r.stats["jacobian_evaluations"] >= 1
    assert not r.constraint_violation.any()       # zeros for a tree


@pytest.mark.parametrize("method", ["radau", "bdf"])
def test_identity_implicit_matches_rk4_with_quaternions(method):
    """Spherical joints and a free base (quaternion coordinates): Radau and BDF agree with RK4 at
    a small step; quaternions stay unit."""
    model = samples.random_tree(4, 2, joint_types=("spherical", "revolute"), floating_base=True)
    ref = _run(model, "rk4", dt=1e-4)
    r = _run(model, method, rtol=1e-9, atol=1e-11)
    assert r.status == "finished", r.message
    err = np.abs(r.body_com - ref.body_com).max()
    print(method, f"largest com difference {err:.1e} m", r.stats)
    assert err < 1e-6
    norms = [np.linalg.norm(r.q[:, s], axis=1) for s in _quaternion_slices(model)]
    assert np.abs(np.array(norms) - 1).max() < 1e-12


def _quaternion_slices(model):
    from occupant.model.joint_motion import quaternion_slices
    return quaternion_slices(model.tree)


def test_identity_stepwise_driver_equals_compiled_loop():
    """With an event (the Python driver's step and dense output) the run matches the compiled
    loop's, step for step."""
    model = samples.pendulum(n_links=2)
    kw = dict(q0=[1.0, -0.5], integrator="radau", output_dt=0.01, rtol=1e-8, atol=1e-10)
    a = simulate(model, 0.5, **kw)
    b = simulate(model, 0.5, events=[Event("never", lambda t, y: 1.0)], **kw)
    assert a.stats["steps"] == b.stats["steps"]
    assert np.abs(a.q - b.q).max() < 1e-12


def test_newmark_refuses_quaternions():
    model = samples.random_tree(2, 1, joint_types=("spherical",))
    with pytest.raises(ModelError, match="quaternion coordinates"):
        simulate(model, 0.1, integrator="newmark")
