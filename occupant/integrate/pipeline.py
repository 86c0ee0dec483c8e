"""The compiled time step as a pipeline of named stages (conventions rule 10):
base motion -> forces (applied joint loads, joint resistance) -> accelerations (ABA).
Plus the configuration-space maps the integrators need: q' from v, and q + h v on the manifold.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from occupant.jit import JIT, JIT_INLINE

from occupant.dynamics.aba import aba
from occupant.dynamics.spatial_ops import forward_kinematics
from occupant.forces.joint_resistance import joint_resistance
from occupant.model.joint_types import JointType
from occupant.spatial.rotation import quat_rotate

SPHERICAL = int(JointType.SPHERICAL)
FREE = int(JointType.FREE)

Workspace = namedtuple("Workspace", [
    "X_up", "R_up", "p_up", "vel", "acc", "cvp", "I_A", "p_A", "U", "D_inv", "u",
    "f_ext", "tau", "base", "q_unit", "work", "armature",
])


def make_workspace(model):
    nl, nv = model.nl, model.nv
    return Workspace(np.zeros((nl, 6, 6)), np.zeros((nl, 3, 3)), np.zeros((nl, 3)), np.zeros((nl, 6)),
                     np.zeros((nl, 6)), np.zeros((nl, 6)), np.zeros((nl, 6, 6)), np.zeros((nl, 6)),
                     np.zeros((nl, 6, 6)), np.zeros((nl, 6, 6)), np.zeros((nl, 6)), np.zeros((nl, 6)),
                     np.zeros(nv), np.zeros(12), np.zeros(model.nq), np.zeros((3, 6, 12)),
                     np.zeros(nv))


@njit(**JIT_INLINE)
def base_state_at(table, t0, dt, t, out):
    """Linear interpolation of the sampled base spatial state (rows at t0 + k dt)."""
    n = table.shape[0]
    if n == 1:
        out[:] = table[0]
        return
    s = (t - t0) / dt
    k = int(np.floor(s))
    if k < 0:
        k, s = 0, 0.0
    if k >= n - 1:
        out[:] = table[n - 1]
        return
    w = s - k
    for r in range(12):
        out[r] = (1.0 - w) * table[k, r] + w * table[k + 1, r]


@njit(**JIT_INLINE)
def normalize_quaternions(tree, q):
    """Project the quaternions of spherical and free links back to unit length."""
    for i in range(tree.parent.shape[0]):
        jt = tree.jtype[i]
        if jt == SPHERICAL or jt == FREE:
            k = tree.qidx[i] + (3 if jt == FREE else 0)
            n = np.sqrt(q[k] ** 2 + q[k + 1] ** 2 + q[k + 2] ** 2 + q[k + 3] ** 2)
            for r in range(4):
                q[k + r] /= n


@njit(**JIT_INLINE)
def q_derivative(tree, q, v, qdot):
    """qdot = dq/dt for velocity v: quaternion rate 0.5 quat * (0, omega_child); free-joint
    position rate R(quat) v_linear."""
    for i in range(tree.parent.shape[0]):
        jt = tree.jtype[i]
        k, j = tree.qidx[i], tree.vidx[i]
        if jt == SPHERICAL or jt == FREE:
            kq, jw = (k + 3, j + 3) if jt == FREE else (k, j)
            w, x, y, z = q[kq], q[kq + 1], q[kq + 2], q[kq + 3]
            ox, oy, oz = v[jw], v[jw + 1], v[jw + 2]
            qdot[kq] = 0.5 * (-x * ox - y * oy - z * oz)
            qdot[kq + 1] = 0.5 * (w * ox + y * oz - z * oy)
            qdot[kq + 2] = 0.5 * (w * oy - x * oz + z * ox)
            qdot[kq + 3] = 0.5 * (w * oz + x * oy - y * ox)
            if jt == FREE:
                qdot[k], qdot[k + 1], qdot[k + 2] = quat_rotate(q, kq, v[j], v[j + 1], v[j + 2], False)
        elif tree.nv[i] == 1:
            qdot[k] = v[j]


@njit(**JIT_INLINE)
def integrate_configuration(tree, q, v, h, q_out):
    """q_out = q (+) h v: exponential map for rotations (quat * exp(h omega)), Euler for the rest."""
    for i in range(tree.parent.shape[0]):
        jt = tree.jtype[i]
        k, j = tree.qidx[i], tree.vidx[i]
        if jt == SPHERICAL or jt == FREE:
            kq, jw = (k + 3, j + 3) if jt == FREE else (k, j)
            w, x, y, z = q[kq], q[kq + 1], q[kq + 2], q[kq + 3]
            if jt == FREE:  # p += h R(quat) v_linear
                dx, dy, dz = quat_rotate(q, kq, v[j], v[j + 1], v[j + 2], False)
                q_out[k], q_out[k + 1], q_out[k + 2] = q[k] + h * dx, q[k + 1] + h * dy, q[k + 2] + h * dz
            # dq = exp(h omega / 2) as a unit quaternion, then quat * dq
            ox, oy, oz = h * v[jw], h * v[jw + 1], h * v[jw + 2]
            angle = np.sqrt(ox * ox + oy * oy + oz * oz)
            if angle < 1e-8:
                s_ = 0.5 - angle * angle / 48.0
            else:
                s_ = np.sin(0.5 * angle) / angle
            dw, dx, dy, dz = np.cos(0.5 * angle), s_ * ox, s_ * oy, s_ * oz
            nw = w * dw - x * dx - y * dy - z * dz
            nx = w * dx + x * dw + y * dz - z * dy
            ny = w * dy - x * dz + y * dw + z * dx
            nz = w * dz + x * dy - y * dx + z * dw
            nrm = np.sqrt(nw * nw + nx * nx + ny * ny + nz * nz)
            q_out[kq], q_out[kq + 1], q_out[kq + 2], q_out[kq + 3] = nw / nrm, nx / nrm, ny / nrm, nz / nrm
        elif tree.nv[i] == 1:
            q_out[k] = q[k] + h * v[j]


@njit(**JIT)
def accelerations(tree, forces, tau_applied, table, table_t0, table_dt, t, q, v, ws, vdot, h_implicit=0.0):
    """One evaluation of the step pipeline: vdot at (t, q, v). With ``h_implicit`` = h > 0 the
    joint damping is taken implicitly, (M + h C) vdot = f(q, v), C the velocity slope of the
    joint resistance (what the semi-implicit Euler step needs, as MuJoCo treats joint damping)."""
    base_state_at(table, table_t0, table_dt, t, ws.base)
    ws.q_unit[:] = q
    normalize_quaternions(tree, ws.q_unit)
    ws.tau[:] = tau_applied
    ws.armature[:] = 0.0
    joint_resistance(tree, forces, ws.q_unit, v, ws.tau, ws.armature)
    for j in range(ws.armature.shape[0]):
        ws.armature[j] *= h_implicit
    aba(tree, ws.q_unit, v, ws.tau, ws.base, ws.f_ext, ws.X_up, ws.R_up, ws.p_up, ws.vel, ws.acc,
        ws.cvp, ws.I_A, ws.p_A, ws.U, ws.D_inv, ws.u, ws.work, ws.armature, vdot)


@njit(**JIT)
def state_derivative(tree, forces, tau_applied, table, table_t0, table_dt, t, y, ws, ydot):
    """ydot for y = (q, v): (q', vdot)."""
    nq = ws.q_unit.shape[0]
    q = y[:nq]
    v = y[nq:]
    accelerations(tree, forces, tau_applied, table, table_t0, table_dt, t, q, v, ws, ydot[nq:])
    q_derivative(tree, ws.q_unit, v, ydot[:nq])


@njit(**JIT)
def sample_outputs(tree, forces, tau_applied, table, table_t0, table_dt, t, Y, body_link, ws,
                   R_world, p_world, poses, vdot, base_states):
    """For every sample k: accelerations vdot[k], the base-frame poses (nb, 4, 4) of the bodies and
    the base state the step used, in one compiled pass over the recorded states Y (n, nq + nv)."""
    nq = ws.q_unit.shape[0]
    for k in range(t.shape[0]):
        accelerations(tree, forces, tau_applied, table, table_t0, table_dt, t[k], Y[k, :nq],
                      Y[k, nq:], ws, vdot[k])
        base_states[k, :] = ws.base
        forward_kinematics(tree, ws.q_unit, ws.R_up, ws.p_up, ws.X_up, R_world, p_world)
        for b in range(body_link.shape[0]):
            lk = body_link[b]
            for r in range(3):
                for c in range(3):
                    poses[k, b, r, c] = R_world[lk, r, c]
                poses[k, b, r, 3] = p_world[lk, r]
                poses[k, b, 3, r] = 0.0
            poses[k, b, 3, 3] = 1.0
