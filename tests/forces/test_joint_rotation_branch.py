"""A ball joint's resistance coordinate through 180 deg of rotation (occupant/forces/
joint_resistance.py, ``rotation_vector_row``): the component of the rotation vector read on the
quaternion's own branch, continuous where the joint's rotation passes pi. Read on the shorter
rotation (the branch before pedglass) it jumped by up to 360 deg there: the 95th male
pedestrian's far shoulder went from the upper end of its abduction range to 139 deg past the
lower end in one sample, its stop put 26 kN m on the arm and the run diverged
(scenarios/validation/HISTORY.md, branch pedglass)."""
import math

import numpy as np
import pytest

from occupant.forces.joint_resistance import rotation_vector_row, start_histories
from occupant.model.joint_types import JointType
from occupant.spatial.rotation import quat_exp, quat_log

ROW = rotation_vector_row.py_func   # a compiled stage has no Python entry (occupant.jit)
# a shoulder-like axis: mostly about x (abduction), some y and z (the 95th male's far shoulder
# passed pi at x 170.5, y -39.5, z -41.8 deg)
AXIS = np.array([170.5, -39.5, -41.8]) / np.linalg.norm([170.5, -39.5, -41.8])


def quat_about(axis, angle):
    """(w, x, y, z) of a rotation by ``angle`` (rad, any) about the unit ``axis``: cos, sin of
    the half angle, so that w < 0 past pi, as a quaternion integrated through pi carries it."""
    return np.r_[math.cos(angle / 2.0), math.sin(angle / 2.0) * np.asarray(axis)]


@pytest.mark.parametrize("comp", [0, 1, 2])
def test_analytic_coordinate_is_continuous_through_pi(comp):
    """Turning about a fixed axis from 170 to 190 deg, each component is the angle times the
    axis's component (th u, th past pi too): no jump (on the shorter rotation it flips to
    -(2 pi - th) u at pi, x from +171 to -169 deg)."""
    angles = np.radians(np.linspace(170.0, 190.0, 201))
    x = np.array([ROW(quat_about(AXIS, a), 0, comp)[0] for a in angles])
    assert np.allclose(x, angles * AXIS[comp], rtol=0, atol=1e-12)
    assert np.max(np.abs(np.diff(x))) < math.radians(0.11)


def test_analytic_row_is_the_rate_of_the_coordinate_past_pi():
    """The row is that of J_r^-1(phi) past pi as below it: its product with the child-frame
    angular velocity is the coordinate's rate (central differences of the coordinate along a
    rotation q(t) = q0 exp(omega t / 2), omega fixed in the child frame)."""
    omega = np.array([3.0, -1.0, 2.0])        # rad/s, child frame
    dt = 1e-6
    for angle in np.radians([120.0, 179.9, 180.0, 185.0, 230.0]):
        q0 = quat_about(AXIS, angle)

        def at(t):
            h = quat_about(omega / np.linalg.norm(omega), np.linalg.norm(omega) * t)
            w0, v0, w1, v1 = q0[0], q0[1:], h[0], h[1:]       # q0 * h (child-frame increment)
            return np.r_[w0 * w1 - v0 @ v1, w0 * v1 + w1 * v0 + np.cross(v0, v1)]

        for comp in range(3):
            x, r0, r1, r2 = ROW(q0, 0, comp)
            rate = (ROW(at(dt), 0, comp)[0] - ROW(at(-dt), 0, comp)[0]) / (2 * dt)
            assert r0 * omega[0] + r1 * omega[1] + r2 * omega[2] == pytest.approx(rate, rel=1e-6, abs=1e-9)


def test_identity_below_pi_the_shorter_rotation_as_before():
    """With w >= 0 (every posture's quaternion, all rotations below pi) the coordinate is
    quat_log's, the shorter rotation's, to the bit, so runs whose joints stay below pi are
    unchanged."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        phi = rng.normal(size=3)
        phi *= rng.uniform(0.0, math.pi - 1e-6) / np.linalg.norm(phi)
        q = quat_exp(phi)
        assert q[0] >= 0.0
        ref = quat_log(q)
        assert [ROW(q, 0, c)[0] for c in range(3)] == list(ref)


def test_identity_start_histories_read_the_kernel_coordinate():
    """start_histories reads a ball joint's deflection as the kernel does: a joint started past
    pi (w < 0) starts its hysteresis state at th u, not at the shorter rotation's."""
    class Tree:
        qidx = np.array([0])
        jtype = np.array([int(JointType.SPHERICAL)])

    class Elements:
        link = np.array([0, 0, 0])
        component = np.array([0, 1, 2])
        reference = np.zeros(3)
        z_index = np.array([0, 2, 4])

    class Model:
        tree, joint_resistance = Tree(), Elements()

    angle = math.radians(185.0)
    z = start_histories(Model(), quat_about(AXIS, angle), np.zeros(6))
    x = angle * AXIS
    expect = np.zeros(6)
    for c in range(3):
        expect[2 * c + (0 if x[c] >= 0 else 1)] = abs(x[c])
    assert np.allclose(z, expect, rtol=0, atol=1e-12)
