"""Joints closing loops beyond the basic ones (issue 12 section 1): the constant-velocity joint
against the Hooke joint between two shafts at an angle (closed forms of the output angle), as a
loop-closing and as a tree joint; the screw joint closing a loop."""
import numpy as np
import pytest

import occupant
from occupant.modeling import (Assembly, Joint, JointMotion, Marker, Part, Pose, Primitive,
                               TimeFunction)
from occupant.spatial import rot_x, rot_y, rot_z

BETA, OMEGA = np.radians(30.0), 2.0 * np.pi
D = np.array([np.cos(BETA), np.sin(BETA), 0.0])          # output shaft axis (input along x)
R_IN = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])   # joint z along B0 x
R_OUT = rot_z(BETA) @ R_IN                                 # joint z along D
SWEEP = 2.0 * np.pi * 0.8                                  # rad/s, bend sweep of the yoke


def _axis_rotation(n, angle):
    """Rodrigues' rotation about the unit axis n (written here, independent of occupant)."""
    K = np.array([[0, -n[2], n[1]], [n[2], 0, -n[0]], [-n[1], n[0], 0]])
    return np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * K @ K


def _shafts(joint, sweep=0.0):
    """Input shaft on a bearing along B0 x, driven at OMEGA; output shaft along D; the two
    joined at B0's origin by ``joint``: "constant_velocity" or "hooke" closing the loop, or
    "cv_tree", the output hanging from the input on a constant-velocity tree joint with its
    axis held along D by a parallel-axes primitive, or with ``sweep`` (rad), held along a yoke
    turning about B0 z by sweep sin(SWEEP t): the bend passes through straight."""
    asm = Assembly(f"shafts_{joint}")
    asm.gravity = (0.0, 0.0, 0.0)
    asm.add(Part("input", 1.0, com=(0, 0, 0.25), inertia=(0.01, 0.01, 0.002)),
            Part("output", 1.5, com=(0, 0, -0.25), inertia=(0.02, 0.02, 0.003)))
    asm.add(Joint("in_bearing", "revolute", None, "input", Pose((-0.5, 0.0, 0.0), R_IN)),
            JointMotion("motor", "in_bearing", TimeFunction((0.0, OMEGA))))
    asm.add(Marker("in_end", "input", (0.0, 0.0, 0.5)), Marker("out_end", "output", (0.0, 0.0, -0.5)))
    if joint == "cv_tree":
        asm.add(Joint("cv", "constant_velocity", "input", "output", parent_marker="in_end",
                      child_marker="out_end"))
        if not sweep:
            asm.add(Primitive("out_axis", "parallel_axes", "out_end", rotation_j=R_OUT))
            return asm.compile()
        asm.add(Part("yoke", 0.5, inertia=(0.01, 0.01, 0.01)),
                Joint("yoke_pivot", "revolute", None, "yoke"),
                JointMotion("sweep", "yoke_pivot", TimeFunction((0.0,), sweep, SWEEP)),
                Marker("yoke_axis", "yoke", (0.0, 0.0, 0.0), R_IN),
                Primitive("out_axis", "parallel_axes", "out_end", "yoke_axis"))
        return asm.compile()
    asm.add(Joint("out_bearing", "revolute", None, "output", Pose(0.5 * D, R_OUT)))
    if joint == "constant_velocity":
        asm.add(Joint("cv", "constant_velocity", "input", "output", parent_marker="in_end",
                      child_marker="out_end"))
    else:   # the cross pins: the input's along B0 y, the output's along B0 z at t = 0
        asm.add(Marker("in_pin", "input", (0.0, 0.0, 0.5), rot_y(np.pi / 2)),
                Marker("out_pin", "output", (0.0, 0.0, -0.5), rot_x(-np.pi / 2)),
                Joint("cross", "hooke", "input", "output", parent_marker="in_pin",
                      child_marker="out_pin"))
    return asm.compile()


def _run(model, q0=None):
    """1.25 s on Radau at its own step: the tree constant-velocity runs have no free coordinate,
    so only the state-space solver's tracking of the constraint manifold bounds their step (it
    grew to 0.2 s, 72 deg of input turn, and the position Newton iteration reached another root
    before the tracking check, ``state_space._followed``)."""
    r = occupant.simulate(model, t_end=1.25, integrator="radau", output_dt=0.01, q0=q0)
    assert r.status == "finished", r.message
    assert r.constraint_violation.max() < 1e-9
    assert r.constraint_velocity_violation.max() < 1e-9
    return r


def test_analytic_hooke_joint_output_fluctuates():
    """Hooke joint at beta: tan(theta_out) = tan(theta_in) / cos(beta) and
    omega_out / omega_in = cos(beta) / (1 - sin^2(beta) cos^2(theta_in)), between cos(beta) and
    1 / cos(beta) (the classical result, e.g. Mabie & Reinholtz, Mechanisms and Dynamics of
    Machinery, 4th ed., section 12.4)."""
    model = _shafts("hooke")
    r = _run(model)
    th = OMEGA * r.t
    expect = np.unwrap(np.arctan2(np.sin(th), np.cos(BETA) * np.cos(th)))
    ratio = r.v[:, model.dof("out_bearing")] / OMEGA
    np.testing.assert_allclose(r.q[:, model.dof("out_bearing")], expect, atol=1e-9)
    np.testing.assert_allclose(ratio, np.cos(BETA) / (1 - np.sin(BETA)**2 * np.cos(th)**2),
                               atol=1e-9)
    assert ratio.min() < np.cos(BETA) + 1e-6 and ratio.max() > 1 / np.cos(BETA) - 1e-6


@pytest.mark.parametrize("joint", ("constant_velocity", "cv_tree"))
def test_analytic_constant_velocity_joint_turns_the_output_evenly(joint):
    """The same shafts on a constant-velocity joint: the output turns exactly with the input,
    omega_out = omega_in at every angle over 1.25 turns; its attitude is Rot(D, OMEGA t) R_OUT."""
    model = _shafts(joint)
    q0 = None
    if joint == "cv_tree":        # the bend about B0 z is the joint's y rotation
        q0 = model.neutral_configuration()
        q0[model.dof("cv_ry")] = BETA
    r = _run(model, q0)
    out = model.body("output")
    if joint == "constant_velocity":
        np.testing.assert_allclose(r.q[:, model.dof("out_bearing")], OMEGA * r.t, atol=1e-9)
        np.testing.assert_allclose(r.v[:, model.dof("out_bearing")], OMEGA, atol=1e-9)
    for k in range(0, len(r.t), 5):
        np.testing.assert_allclose(r.body_poses[k, out, :3, :3],
                                   _axis_rotation(D, OMEGA * r.t[k]) @ R_OUT, atol=1e-9)


def test_analytic_constant_velocity_tree_joint_through_straight():
    """The output axis held along a yoke that sweeps it by +-BETA about B0 z, through the straight
    configuration twice per sweep, while the input turns 1.25 times: the constant-velocity joint
    (tree) keeps the output's attitude at Rot(z, beta(t)) Rot(x, OMEGA t) R_IN (the relative
    rotation about the common perpendicular z of the shafts, the only equal-spin one), so its
    spin about its own axis equals OMEGA whatever the bend and its rate."""
    model = _shafts("cv_tree", sweep=BETA)
    r = _run(model)
    out = model.body("output")
    R = r.body_poses[:, out, :3, :3]
    beta = BETA * np.sin(SWEEP * r.t)
    assert beta.min() < -0.99 * BETA and beta.max() > 0.99 * BETA
    for k in range(len(r.t)):
        np.testing.assert_allclose(R[k], rot_z(beta[k]) @ _axis_rotation(np.eye(3)[0], OMEGA * r.t[k])
                                   @ R_IN, atol=1e-9)
    # spin: the angular velocity (central differences of the attitude) along the output axis
    dt = r.t[1] - r.t[0]
    for k in range(1, len(r.t) - 1, 7):
        W = (R[k + 1] - R[k - 1]) @ R[k].T / (2 * dt)
        omega = np.array([W[2, 1] - W[1, 2], W[0, 2] - W[2, 0], W[1, 0] - W[0, 1]]) / 2
        assert omega @ R[k][:, 2] == pytest.approx(OMEGA, rel=2e-3)


def test_analytic_constant_velocity_tree_bend_is_regular():
    """The tree joint's coordinates (rx_in, ry, rx_out = rx_in): the relative rotation's axis
    lies across the input shaft (n . z = 0, equal spin) for every bend up to 120 deg in every
    direction, and the bend's Jacobian (rotation vector per unit rx_in, ry) keeps its smallest
    singular value at 1 (2 cos(ry / 2) >= 1 along ry; the rotation vector (2 rx_in, ry, 0) at
    straight), where the earlier x-y-z turns lost rank at 90 deg."""
    from occupant.dynamics.spatial_ops import forward_kinematics
    model = _shafts("cv_tree")
    data = model.make_data()
    inp, out = (int(model.body_link[model.body(n)]) for n in ("input", "output"))
    dofs = [model.dof(f"cv_{s}") for s in ("rx_in", "ry", "rx_out")]

    def relative(a, b):
        q = model.neutral_configuration()
        q[dofs] = a, b, a
        forward_kinematics(model.tree, data, q)
        return data.R_base_link[inp].T @ data.R_base_link[out]

    def rotation_vector(R):
        angle = np.arccos(np.clip((np.trace(R) - 1) / 2, -1.0, 1.0))
        axis = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
        return axis / (2 * np.sinc(angle / np.pi)) if angle > 0 else axis / 2

    h = 1e-6
    for a in np.radians([-45.0, -20.0, 0.0, 10.0, 30.0, 60.0]):
        for b in np.radians([-120.0, -60.0, 0.0, 5.0, 45.0, 90.0, 120.0]):
            R = relative(a, b)
            n = rotation_vector(R)
            assert abs(n[2]) < 1e-12
            J = np.array([(rotation_vector(relative(a + h, b) @ R.T)
                           - rotation_vector(relative(a - h, b) @ R.T)) / (2 * h),
                          (rotation_vector(relative(a, b + h) @ R.T)
                           - rotation_vector(relative(a, b - h) @ R.T)) / (2 * h)]).T
            assert np.linalg.svd(J, compute_uv=False).min() > 1.0 - 1e-6


def test_analytic_screw_joint_closing_a_loop():
    """A lead screw: the shaft on a bearing about B0 z, the nut (mass m) on a guide along z, the
    screw joint (pitch p) between them closing the loop. Released under gravity -z the nut
    falls at a = g m / (m + I (2 pi / p)^2) and the shaft turns 2 pi / p per metre of fall,
    over 20 turns. The screw row holds the travel modulo the pitch (it has no turn counter):
    steps no longer than 2 ms keep the travel per step (< 1 mm) well inside half a pitch."""
    m, inertia, pitch, g = 2.0, 1e-4, 0.01, 9.81
    asm = Assembly("lead_screw")
    asm.gravity = (0.0, 0.0, -g)
    asm.add(Part("shaft", 1.0, inertia=(1e-3, 1e-3, inertia)), Part("nut", m))
    asm.add(Joint("bearing", "revolute", None, "shaft"), Joint("guide", "prismatic", None, "nut"),
            Joint("thread", "screw", "shaft", "nut", pitch=pitch))
    model = asm.compile()
    assert model.constraint_names == ("thread",) * 5
    r = occupant.simulate(model, t_end=1.0, dt=0.002, integrator="radau", output_dt=0.01)
    assert r.status == "finished", r.message
    a = g * m / (m + inertia * (2 * np.pi / pitch) ** 2)
    z, turn = r.q[:, model.dof("guide")], r.q[:, model.dof("bearing")]
    np.testing.assert_allclose(z, -0.5 * a * r.t**2, atol=1e-8)
    np.testing.assert_allclose(turn, -2 * np.pi * z / pitch, atol=1e-6)
    assert turn[-1] > 2 * np.pi * 20
    assert r.constraint_violation.max() < 1e-9
    np.testing.assert_allclose(r.energy["balance"], 0.0, atol=1e-8)
