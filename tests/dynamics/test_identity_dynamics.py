"""Identities between independent algorithms on random trees of every joint type:
CRBA vs literal Lagrange-Euler vs RNEA, ABA vs CRBA/RNEA, energy, Jacobians, momentum."""
import numpy as np
import pytest

from occupant import samples
from occupant.constants import G0
from occupant.dynamics import (mass_matrix, bias_forces, forward_dynamics, inverse_dynamics,
                               kinetic_energy, point_jacobian, body_com_positions, body_jacobian,
                               momentum, point_acceleration, point_velocity,
                               center_of_mass)
from occupant.dynamics.lagrange_euler import mass_matrix_le, bias_forces_le

JOINT_SETS = [("revolute",), ("prismatic",), ("spherical",), ("universal",), ("euler",),
              ("free",), ("fixed", "revolute"), samples.ALL_JOINT_TYPES]
CASES = [(js, seed, fb) for js in JOINT_SETS for seed in (1, 2) for fb in (False, True)]


def _state(model, seed):
    rng = np.random.default_rng(100 + seed)
    return model.random_configuration(rng), rng.normal(size=model.nv), rng.normal(size=model.nv)


@pytest.mark.parametrize("joint_types,seed,floating", CASES)
def test_identity_crba_equals_lagrange_euler_and_rnea(joint_types, seed, floating):
    model = samples.random_tree(7, seed, joint_types=joint_types, floating_base=floating)
    data = model.make_data()
    q, v, _ = _state(model, seed)
    M = mass_matrix(model, data, q)
    scale = np.abs(M).max()
    np.testing.assert_allclose(M, mass_matrix_le(model, data, q), atol=1e-12 * scale, rtol=0)
    # columns of M from RNEA with unit accelerations, no gravity, no velocity
    M_rnea = np.column_stack([inverse_dynamics(model, data, q, np.zeros(model.nv), e, gravity=(0, 0, 0))
                              for e in np.eye(model.nv)])
    np.testing.assert_allclose(M, M_rnea, atol=1e-12 * scale, rtol=0)
    assert np.allclose(M, M.T, atol=1e-14 * scale)
    assert np.linalg.eigvalsh(M).min() > 0


@pytest.mark.parametrize("joint_types,seed,floating", CASES)
def test_identity_rnea_bias_equals_lagrange_euler(joint_types, seed, floating):
    model = samples.random_tree(7, seed, joint_types=joint_types, floating_base=floating)
    data = model.make_data()
    q, v, _ = _state(model, seed)
    h = bias_forces(model, data, q, v, gravity=(0.3, -1.2, -9.81))
    h_le = bias_forces_le(model, data, q, v, gravity=(0.3, -1.2, -9.81))
    np.testing.assert_allclose(h, h_le, atol=1e-11 * np.abs(h).max(), rtol=0)


@pytest.mark.parametrize("joint_types,seed,floating", CASES)
def test_identity_aba_equals_cholesky_and_inverts_rnea(joint_types, seed, floating):
    model = samples.random_tree(7, seed, joint_types=joint_types, floating_base=floating)
    data = model.make_data()
    q, v, tau = _state(model, seed)
    a_aba = forward_dynamics(model, data, q, v, tau)
    a_chol = forward_dynamics(model, data, q, v, tau, method="cholesky")
    cond = np.linalg.cond(mass_matrix(model, data, q))
    np.testing.assert_allclose(a_aba, a_chol, atol=1e-13 * cond * np.abs(a_chol).max(), rtol=0)
    tau_back = inverse_dynamics(model, data, q, v, a_aba)
    np.testing.assert_allclose(tau_back, tau, atol=1e-13 * cond * np.abs(tau).max(), rtol=0)


@pytest.mark.parametrize("joint_types,seed,floating", CASES[::3])
def test_identity_kinetic_energy_is_quadratic_form_of_mass_matrix(joint_types, seed, floating):
    model = samples.random_tree(6, seed, joint_types=joint_types, floating_base=floating)
    data = model.make_data()
    q, v, _ = _state(model, seed)
    M = mass_matrix(model, data, q)
    assert kinetic_energy(model, data, q, v) == pytest.approx(0.5 * v @ M @ v, rel=1e-12)


def _perturb(model, q, dv):
    """q (+) dv through the integrator's exponential map."""
    from occupant.model.joint_motion import integrate_configuration
    out = np.array(q)
    integrate_configuration(model.tree, np.asarray(q), np.asarray(dv), 1.0, out)
    return out


@pytest.mark.parametrize("joint_types,seed,floating", CASES[::2])
def test_identity_jacobian_matches_finite_differences(joint_types, seed, floating):
    model = samples.random_tree(6, seed, joint_types=joint_types, floating_base=floating)
    data = model.make_data()
    q, _, _ = _state(model, seed)
    body = model.nb - 1
    J = point_jacobian(model, data, q, body, model.body_com[body])
    eps = 1e-6
    J_fd = np.zeros_like(J)
    for k in range(model.nv):
        dv = np.zeros(model.nv)
        dv[k] = eps
        c_plus = body_com_positions(model, data, _perturb(model, q, dv))[body]
        c_minus = body_com_positions(model, data, _perturb(model, q, -dv))[body]
        J_fd[:, k] = (c_plus - c_minus) / (2 * eps)
    np.testing.assert_allclose(J, J_fd, atol=1e-7)


@pytest.mark.parametrize("joint_types,seed,floating", CASES[::3])
def test_identity_point_acceleration_is_jacobian_derivative(joint_types, seed, floating):
    """a_point = J vdot + dJ/dt v, with dJ/dt v from a central difference along the motion."""
    model = samples.random_tree(5, seed, joint_types=joint_types, floating_base=floating)
    data = model.make_data()
    q, v, vdot = _state(model, seed)
    body, point = model.nb - 1, np.array([0.05, -0.02, 0.1])
    a = point_acceleration(model, data, q, v, vdot, body, point)
    eps = 1e-6
    Jv_plus = point_jacobian(model, data, _perturb(model, q, eps * v), body, point) @ v
    Jv_minus = point_jacobian(model, data, _perturb(model, q, -eps * v), body, point) @ v
    a_fd = point_jacobian(model, data, q, body, point) @ vdot + (Jv_plus - Jv_minus) / (2 * eps)
    np.testing.assert_allclose(a, a_fd, atol=1e-6 * max(1.0, np.abs(a).max()))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_identity_momentum_rate_equals_external_force(seed):
    """d(linear momentum)/dt = total weight + the base's reaction; for a free-floating tree in
    gravity the reaction is zero, so dp/dt = m g."""
    model = samples.random_tree(6, seed, joint_types=samples.ALL_JOINT_TYPES, floating_base=True)
    data = model.make_data()
    q, v, _ = _state(model, seed)
    tau = np.zeros(model.nv)
    tau[6:] = np.random.default_rng(seed).normal(size=model.nv - 6)  # internal joint torques only
    vdot = forward_dynamics(model, data, q, v, tau)
    eps = 1e-6
    p_plus = momentum(model, data, _perturb(model, q, eps * v), v + eps * vdot)[0]
    p_minus = momentum(model, data, _perturb(model, q, -eps * v), v - eps * vdot)[0]
    dp = (p_plus - p_minus) / (2 * eps)
    np.testing.assert_allclose(dp, model.body_mass.sum() * np.array([0, 0, -G0]), atol=1e-5)


def test_identity_body_jacobian_angular_part_gives_link_angular_velocity():
    model = samples.random_tree(6, 4, joint_types=("spherical", "universal", "revolute"))
    data = model.make_data()
    q, v, _ = _state(model, 4)
    J = body_jacobian(model, data, q, model.nb - 1)
    inverse_dynamics(model, data, q, v, np.zeros(model.nv), gravity=(0, 0, 0))
    from occupant.dynamics import link_poses
    R, _ = link_poses(model, data, q)
    lk = model.body_link[model.nb - 1]
    np.testing.assert_allclose(J[:3] @ v, R[lk] @ data.v[lk, :3], atol=1e-12)


@pytest.mark.parametrize("joint_types,seed,floating", CASES[1::3])
def test_identity_point_velocity_and_centre_of_mass(joint_types, seed, floating):
    """Point velocity equals the rate of the point's position along the motion; the centre of
    mass moves with the total linear momentum over the total mass."""
    model = samples.random_tree(5, seed, joint_types=joint_types, floating_base=floating)
    data = model.make_data()
    q, v, _ = _state(model, seed)
    body, point = model.nb - 1, np.array([0.1, 0.05, -0.02])
    eps = 1e-6

    def position(qq):
        from occupant.dynamics import body_poses
        X = body_poses(model, data, qq)[body]
        return X[:3, :3] @ point + X[:3, 3]

    rate = (position(_perturb(model, q, eps * v)) - position(_perturb(model, q, -eps * v))) / (2 * eps)
    np.testing.assert_allclose(point_velocity(model, data, q, v, body, point), rate, atol=1e-7)
    com_rate = (center_of_mass(model, data, _perturb(model, q, eps * v))
                - center_of_mass(model, data, _perturb(model, q, -eps * v))) / (2 * eps)
    np.testing.assert_allclose(com_rate, momentum(model, data, q, v)[0] / model.body_mass.sum(), atol=1e-7)
