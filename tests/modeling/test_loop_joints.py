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


def _axis_rotation(n, angle):
    """Rodrigues' rotation about the unit axis n (written here, independent of occupant)."""
    K = np.array([[0, -n[2], n[1]], [n[2], 0, -n[0]], [-n[1], n[0], 0]])
    return np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * K @ K


def _shafts(joint):
    """Input shaft on a bearing along B0 x, driven at OMEGA; output shaft along D; the two
    joined at B0's origin by ``joint``: "constant_velocity" or "hooke" closing the loop, or
    "cv_tree", the output hanging from the input on a constant-velocity tree joint with its
    axis held along D by a parallel-axes primitive."""
    asm = Assembly(f"shafts_{joint}")
    asm.gravity = (0.0, 0.0, 0.0)
    asm.add(Part("input", 1.0, com=(0, 0, 0.25), inertia=(0.01, 0.01, 0.002)),
            Part("output", 1.5, com=(0, 0, -0.25), inertia=(0.02, 0.02, 0.003)))
    asm.add(Joint("in_bearing", "revolute", None, "input", Pose((-0.5, 0.0, 0.0), R_IN)),
            JointMotion("motor", "in_bearing", TimeFunction((0.0, OMEGA))))
    asm.add(Marker("in_end", "input", (0.0, 0.0, 0.5)), Marker("out_end", "output", (0.0, 0.0, -0.5)))
    if joint == "cv_tree":
        asm.add(Joint("cv", "constant_velocity", "input", "output", parent_marker="in_end",
                      child_marker="out_end"),
                Primitive("out_axis", "parallel_axes", "out_end", rotation_j=R_OUT))
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


@pytest.mark.parametrize("joint", ("constant_velocity", pytest.param("cv_tree", marks=pytest.mark.xfail(
    strict=True, reason="the tree constant-velocity joint's three revolute coordinates pass a "
    "gimbal lock while the shafts turn: they jump between Euler branches (by ~1700 rad on the "
    "branch that wrote this test, where the pose stayed right by luck) and after the solver's "
    "step control changed the equal-spin row's other root, half a turn out, was reached"))))
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
