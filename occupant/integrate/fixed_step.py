"""Fixed-step integrators, compiled: semi-implicit (symplectic) Euler as MuJoCo's default
integrator (v+ = v + h a; q+ = q (+) h v+, with (M + h C) a = f(q, v): joint damping C taken
implicitly, as MuJoCo does; for free joints the linear velocity is stepped
in world axes, as MuJoCo's qvel holds it), and the classical fourth-order Runge-Kutta
method on y = (q, v) with quaternion projection after each step (Hairer, Lubich, Wanner,
Geometric Numerical Integration, 2006, section IV.4)."""
import numpy as np
from numba import njit

from occupant.jit import JIT, JIT_INLINE
from occupant.model.joint_types import JointType
from occupant.spatial.rotation import quat_rotate

from occupant.integrate.pipeline import accelerations, state_derivative, integrate_configuration, normalize_quaternions

EULER = 0
RK4 = 1
FREE = int(JointType.FREE)


@njit(**JIT)
def euler_step(tree, forces, tau, table, t0_tab, dt_tab, t, y, h, ws, k1, y_out):
    nq = ws.q_unit.shape[0]
    nv = y.shape[0] - nq
    accelerations(tree, forces, tau, table, t0_tab, dt_tab, t, y[:nq], y[nq:], ws, k1[nq:], h)
    for r in range(nv):
        y_out[nq + r] = y[nq + r] + h * k1[nq + r]
    integrate_configuration(tree, y[:nq], y_out[nq:], h, y_out[:nq])
    for i in range(tree.parent.shape[0]):
        if tree.jtype[i] != FREE:
            continue
        # world-axes linear velocity v_w = R v (R v)' = R (a + omega x v): step it as MuJoCo does
        k, j = tree.qidx[i], nq + tree.vidx[i]
        vx, vy, vz, wx, wy, wz = y[j], y[j + 1], y[j + 2], y[j + 3], y[j + 4], y[j + 5]
        ax = k1[j] + wy * vz - wz * vy
        ay = k1[j + 1] + wz * vx - wx * vz
        az = k1[j + 2] + wx * vy - wy * vx
        gx, gy, gz = quat_rotate(y, k + 3, vx + h * ax, vy + h * ay, vz + h * az, False)
        y_out[k], y_out[k + 1], y_out[k + 2] = y[k] + h * gx, y[k + 1] + h * gy, y[k + 2] + h * gz
        y_out[j], y_out[j + 1], y_out[j + 2] = quat_rotate(y_out, k + 3, gx, gy, gz, True)


@njit(**JIT)
def rk4_step(tree, forces, tau, table, t0_tab, dt_tab, t, y, h, ws, k1, k2, k3, k4, tmp, y_out):
    n = y.shape[0]
    state_derivative(tree, forces, tau, table, t0_tab, dt_tab, t, y, ws, k1)
    for r in range(n):
        tmp[r] = y[r] + 0.5 * h * k1[r]
    state_derivative(tree, forces, tau, table, t0_tab, dt_tab, t + 0.5 * h, tmp, ws, k2)
    for r in range(n):
        tmp[r] = y[r] + 0.5 * h * k2[r]
    state_derivative(tree, forces, tau, table, t0_tab, dt_tab, t + 0.5 * h, tmp, ws, k3)
    for r in range(n):
        tmp[r] = y[r] + h * k3[r]
    state_derivative(tree, forces, tau, table, t0_tab, dt_tab, t + h, tmp, ws, k4)
    for r in range(n):
        y_out[r] = y[r] + h / 6.0 * (k1[r] + 2.0 * k2[r] + 2.0 * k3[r] + k4[r])
    normalize_quaternions(tree, y_out[:ws.q_unit.shape[0]])


@njit(**JIT_INLINE)
def _accept(y, y_new, s, stride, out_y):
    """Take y_new as the state after step s (storing every stride-th); False if it is not finite."""
    for r in range(y.shape[0]):
        if not np.isfinite(y_new[r]):
            return False
    y[:] = y_new
    if (s + 1) % stride == 0:
        out_y[(s + 1) // stride] = y
    return True


@njit(**JIT)
def _run_euler(tree, forces, tau, table, t0_tab, dt_tab, t0, y0, h, n_steps, stride, ws, out_y):
    n = y0.shape[0]
    y, y_new, k1 = y0.copy(), np.empty(n), np.empty(n)
    out_y[0] = y
    for s in range(n_steps):
        euler_step(tree, forces, tau, table, t0_tab, dt_tab, t0 + s * h, y, h, ws, k1, y_new)
        if not _accept(y, y_new, s, stride, out_y):
            return s
    return n_steps


@njit(**JIT)
def _run_rk4(tree, forces, tau, table, t0_tab, dt_tab, t0, y0, h, n_steps, stride, ws, out_y):
    n = y0.shape[0]
    y, y_new = y0.copy(), np.empty(n)
    k1, k2, k3, k4, tmp = np.empty(n), np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    out_y[0] = y
    for s in range(n_steps):
        rk4_step(tree, forces, tau, table, t0_tab, dt_tab, t0 + s * h, y, h, ws, k1, k2, k3, k4, tmp, y_new)
        if not _accept(y, y_new, s, stride, out_y):
            return s
    return n_steps


def run_fixed_step(method, tree, forces, tau, table, t0_tab, dt_tab, t0, y0, h, n_steps, stride,
                   ws, out_y):
    """Take n_steps steps of size h from (t0, y0) in one compiled loop, storing every stride-th
    state (the first is y0) in out_y. Returns the number of steps taken: fewer than n_steps when
    the state stopped being finite (divergence); out_y then holds the states up to the last
    finite one. One loop per method, so that a run compiles only the method it uses."""
    run = _run_euler if method == EULER else _run_rk4
    return run(tree, forces, tau, table, t0_tab, dt_tab, t0, y0, h, n_steps, stride, ws, out_y)
