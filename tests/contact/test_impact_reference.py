"""Reference: a double pendulum whose tip strikes a wall, against the impulse-momentum equations
solved here with Pinocchio's mass matrix and Pinocchio's frame Jacobian of the tip on the same
model exported to MJCF (issue 11 section 3), to 1e-10.

Equations (seed 003: D Delta qd = J^T P): with the contact Jacobian rows J_c of the constrained
directions and the velocity they must reach,

    [D    -J_c^T] [v+]   [D v-        ]
    [J_c   0    ] [P ] = [-e J_c v-   ]      (frictionless: J_c = J_n; sticking: J_c = [J_n; J_t]),

and for sliding the friction impulse s mu P_n along the tangent t, s = -sign of the slip of the
weighted velocity (v+ + e v-)/(1 + e) (the module's impact law), D v+ - (J_n + s mu J_t)^T P_n
= D v-, J_n v+ = -e J_n v-."""
from pathlib import Path
import sys

import numpy as np
import pytest

from occupant.contact import PointContact, solve_impact
from occupant.dynamics import body_poses
from occupant.io.mjcf import mujoco_state, mujoco_velocity_jacobian
from occupant.samples import pendulum

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import reference_engines as ref  # noqa: E402

LENGTH = 0.8  # m
TOL = 1e-10


def _pinocchio_impact_terms(model, tmp_path, q):
    """Pinocchio's (D, J_tip (3, nv), r_tip) in our coordinates: J_tip from the frame Jacobian of
    the second link's body frame (LOCAL_WORLD_ALIGNED) moved to the tip, J_v - [r]x J_w."""
    pin = pytest.importorskip("pinocchio")
    q_export = np.zeros(model.nq)
    pm, pd = ref.pinocchio_mjcf_engine(model, tmp_path, q_export, (0.0, 0.0, -9.81))
    qpos, _ = mujoco_state(model, q, np.zeros(model.nv), q_export)
    P = mujoco_velocity_jacobian(model, q)  # v_pin = P v (a permutation here)
    D = pin.crba(pm, pd, qpos).copy()
    D = np.triu(D) + np.triu(D, 1).T
    frame = pm.getFrameId("link1")
    J6 = pin.computeFrameJacobian(pm, pd, qpos, frame, pin.LOCAL_WORLD_ALIGNED)
    oMf = pd.oMf[frame]
    r_tip = oMf.act(np.array([LENGTH, 0.0, 0.0]))  # link frames run along x (samples.pendulum)
    arm = r_tip - oMf.translation
    skew = np.array([[0, -arm[2], arm[1]], [arm[2], 0, -arm[0]], [-arm[1], arm[0], 0]])
    J_tip = J6[:3] - skew @ J6[3:]
    return P.T @ D @ P, J_tip @ P, r_tip


def _setup(tmp_path):
    model = pendulum(length=LENGTH, mass=1.3, n_links=2)
    q, v = np.array([0.5, -0.9]), np.array([1.1, 2.4])
    D, J_tip, r_tip = _pinocchio_impact_terms(model, tmp_path, q)
    # the exported geometry is ours: the tip where our kinematics puts it
    X = body_poses(model, model.make_data(), q)[model.body("link1")]
    assert np.allclose(X[:3, :3] @ [LENGTH, 0, 0] + X[:3, 3], r_tip, atol=1e-14)
    v_tip = J_tip @ v
    wall = np.array([-np.sign(v_tip[0]), 0.0, 0.0])   # the tip moves towards the wall
    tangent = np.array([0.0, 0.0, 1.0])                # in the plane of motion
    assert wall @ v_tip < 0
    return model, q, v, D, J_tip, r_tip, wall, tangent


def _solve_constrained(D, Jc, v, e):
    k, nv = Jc.shape
    A = np.block([[D, -Jc.T], [Jc, np.zeros((k, k))]])
    x = np.linalg.solve(A, np.concatenate([D @ v, -e * Jc @ v]))
    return x[:nv], x[nv:]


@pytest.mark.parametrize("e", [0.0, 0.4, 1.0])
def test_reference_double_pendulum_strikes_frictionless_wall(e, tmp_path):
    model, q, v, D, J_tip, r_tip, wall, _ = _setup(tmp_path)
    v_ref, (Pn,) = _solve_constrained(D, (wall @ J_tip)[None, :], v, e)
    res = solve_impact(model, model.make_data(), q, v, [PointContact("link1", r_tip, wall)], restitution=e)
    assert np.abs(res.v - v_ref).max() <= TOL * np.abs(v).max()
    assert abs(res.normal_impulse[0] - Pn) <= TOL * Pn


@pytest.mark.parametrize("e", [0.0, 0.4, 1.0])
def test_reference_double_pendulum_sticks_on_wall(e, tmp_path):
    model, q, v, D, J_tip, r_tip, wall, t = _setup(tmp_path)
    v_ref, (Pn, Pt) = _solve_constrained(D, np.vstack([wall @ J_tip, t @ J_tip]), v, e)
    mu = 1.2 * abs(Pt) / Pn  # enough to stick
    res = solve_impact(model, model.make_data(), q, v, [PointContact("link1", r_tip, wall)],
                       restitution=e, friction=mu)
    assert np.abs(res.v - v_ref).max() <= TOL * np.abs(v).max()
    assert abs(res.normal_impulse[0] - Pn) <= TOL * Pn
    assert np.abs(res.friction_impulse[0] - Pt * t).max() <= TOL * Pn


@pytest.mark.parametrize("e", [0.0, 0.4, 1.0])
def test_reference_double_pendulum_slides_on_wall(e, tmp_path):
    model, q, v, D, J_tip, r_tip, wall, t = _setup(tmp_path)
    _, (Pn_stick, Pt_stick) = _solve_constrained(D, np.vstack([wall @ J_tip, t @ J_tip]), v, e)
    mu = 0.5 * abs(Pt_stick) / Pn_stick  # too little to stick
    Jn, Jt = wall @ J_tip, t @ J_tip
    solutions = []
    for s in (-1.0, 1.0):
        A = np.block([[D, -(Jn + s * mu * Jt)[:, None]], [Jn[None, :], np.zeros((1, 1))]])
        x = np.linalg.solve(A, np.concatenate([D @ v, [-e * Jn @ v]]))
        u = (x[:-1] + e * v) / (1 + e)
        if x[-1] > 0 and s * (Jt @ u) < 0:  # friction opposes the slip it leaves
            solutions.append((x[:-1], x[-1], s))
    assert len(solutions) == 1
    v_ref, Pn, s = solutions[0]
    res = solve_impact(model, model.make_data(), q, v, [PointContact("link1", r_tip, wall)],
                       restitution=e, friction=mu)
    assert np.abs(res.v - v_ref).max() <= TOL * np.abs(v).max()
    assert abs(res.normal_impulse[0] - Pn) <= TOL * Pn
    assert np.abs(res.friction_impulse[0] - s * mu * Pn * t).max() <= TOL * Pn
