"""Elementary rotations against the quaternion form and the right-hand rule."""
import numpy as np
import pytest

from occupant.spatial import quat_to_matrix, rot_x, rot_y, rot_z


@pytest.mark.parametrize("rot, axis", [(rot_x, 0), (rot_y, 1), (rot_z, 2)])
def test_identity_elementary_rotation_equals_axis_quaternion(rot, axis):
    """rot_k(b) is the matrix of the unit quaternion (cos b/2, sin b/2 e_k) for several b."""
    for b in (-2.3, -0.4, 0.0, 0.7, 3.0):
        q = np.zeros(4)
        q[0], q[1 + axis] = np.cos(b / 2), np.sin(b / 2)
        np.testing.assert_allclose(rot(b), quat_to_matrix(q), atol=1e-14)


def test_analytic_right_hand_rule():
    """A quarter turn about x takes y to z, about y takes z to x, about z takes x to y."""
    e = np.eye(3)
    np.testing.assert_allclose(rot_x(np.pi / 2) @ e[1], e[2], atol=1e-15)
    np.testing.assert_allclose(rot_y(np.pi / 2) @ e[2], e[0], atol=1e-15)
    np.testing.assert_allclose(rot_z(np.pi / 2) @ e[0], e[1], atol=1e-15)


def test_elementary_rotations_as_python_are_the_compiled_ones_to_the_bit():
    # a dummy's frames (human.description.rotation_xyz) and the link frame constants of
    # modeling.compile call rot_x/y/z as Python (py_func), not compiled: the same doubles
    angles = np.random.default_rng(7).uniform(-7.0, 7.0, 3000).tolist() + [np.pi / 2, -np.pi / 2, 0.0]
    for rot in (rot_x, rot_y, rot_z):
        for a in angles:
            assert np.array_equal(rot.py_func(a), rot(a)), (rot.__name__, a)


def test_quaternion_exp_and_log_as_numpy_give_the_compiled_doubles():
    # quat_exp and quat_log run as plain NumPy (no compiled code calls them; compiling them cost a
    # first run's load 0.4-0.65 s): the same doubles as compiled with the project's options, so
    # that a posture fitted through them is the one fitted before (small angles included)
    from numba import njit

    from occupant.jit import JIT
    from occupant.spatial.rotation import quat_exp, quat_log
    options = dict(JIT, cache=False)
    exp_c, log_c = njit(**options)(quat_exp), njit(**options)(quat_log)
    rng = np.random.default_rng(11)
    vectors = [rng.uniform(-4.0, 4.0, 3) * s for s in (1.0, 1e-3, 1e-9) for _ in range(700)]
    for v in vectors + [np.zeros(3)]:
        q = quat_exp(v)
        assert np.array_equal(q, exp_c(v)), v
        for quat in (q, -q):
            assert np.array_equal(quat_log(quat), log_c(quat)), quat
