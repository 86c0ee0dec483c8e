"""Linear non-holonomic constraints A(q) v = 0 (issue 12 section 4, seed 001): the Chaplygin
sleigh against its closed form.

A body of mass M (on a planar joint: the same M along x and y) and inertia I about its centre of
mass G, on a blade at distance a along its x axis that cannot slide sideways. In the body frame
(u forward speed of G, v its lateral speed, omega the turning rate) the blade gives v = -a omega,
and Newton-Euler with the blade's lateral force give (Neimark & Fufaev, Dynamics of
Nonholonomic Systems, 1972, ch. III)

    u' = -a omega^2,    omega' = (M a / J) u omega,    J = I + M a^2,

whose energy M u^2 + J omega^2 = M k^2 is kept, so with c = M a / J and s0 = artanh(u0 / k)

    u(t) = -k tanh(c k t - s0),    omega(t) = omega0 cosh(s0) / cosh(c k t - s0).
"""
import numpy as np
import pytest

import occupant
from occupant.model.model import ModelError

A, MASS, INERTIA = 0.2, 2.0, 0.05
U0, W0 = 1.0, 2.0


def closed_form(t):
    M = MASS
    J = INERTIA + M * A * A
    c = M * A / J
    k = np.sqrt(U0 * U0 + J / M * W0 * W0)
    s0 = np.arctanh(U0 / k)
    return -k * np.tanh(c * k * t - s0), W0 * np.cosh(s0) / np.cosh(c * k * t - s0)


def body_speeds(r):
    """(u, omega) of the sleigh from the run's coordinates (x, y, theta)."""
    theta, vx, vy = r.q[:, 2], r.v[:, 0], r.v[:, 1]
    return vx * np.cos(theta) + vy * np.sin(theta), r.v[:, 2]


@pytest.fixture(scope="module")
def model():
    return occupant.samples.knife_edge_sleigh(A, MASS, INERTIA)


@pytest.mark.parametrize("method, tol", [("radau", 1e-7), ("bdf", 1e-5)])
def test_analytic_chaplygin_sleigh(model, method, tol):
    """5 s from u0 = 1 m/s, omega0 = 2 rad/s (consistent: lateral speed -a omega0): forward speed
    and turning rate follow the closed form, the blade never slides, energy is kept."""
    assert list(model.dof_names) == ["plane_x", "plane_y", "plane_rz"]
    r = occupant.simulate(model, t_end=5.0, integrator=method, v0=[U0, -A * W0, W0],
                          output_dt=0.01, rtol=1e-9, atol=1e-11)
    assert r.status == "finished", r.message
    u, w = body_speeds(r)
    u_ref, w_ref = closed_form(r.t)
    assert np.ptp(u) > 1.0 and np.ptp(w) > 1.0         # the sleigh turns round and backs away
    err = max(np.abs(u - u_ref).max(), np.abs(w - w_ref).max())
    print(method, f"largest speed error {err:.2e}", r.stats)
    assert err < tol
    assert r.constraint_velocity_violation.max() < 1e-9
    e = r.energy["kinetic"]
    assert np.abs(e - e[0]).max() / e[0] < 10 * tol
    # two velocity coordinates integrated, three positions
    assert r.stats["partitions"] >= 1


def test_newmark_refuses_velocity_constraints(model):
    with pytest.raises(ModelError, match="velocity .non-holonomic. constraints"):
        occupant.simulate(model, t_end=0.1, integrator="newmark", v0=[U0, -A * W0, W0])
