"""Joint resistance (ATB joint force elements; Fleck & Butler, ATB user's manual, AAMRL-TR-75-14,
vol. 2, "joint torque characteristics"), evaluated per joint coordinate in the compiled step.

Inside the range of motion: spring (linear about the reference, or a tabulated load-deflection
curve), viscous damping and Coulomb friction smoothed by tanh over ``friction_speed``. Beyond a
stop: a quadratic spring with Hunt-Crossley damping proportional to penetration, clipped so that
the stop only pushes; its loading/unloading asymmetry dissipates energy.

For spherical joints the coordinate is a component of the joint rotation vector (log of the joint
quaternion) about the child frame axes and its rate the matching angular-velocity component;
the load is a torque about that axis.

A force producer (``occupant.forces`` interface): reads its block ``bundle.joint_resistance``,
adds to ``data.tau``, its velocity slope to ``data.slope``, writes each element's (deflection,
load) to ``data.outputs`` and its power (sum of load times rate) to ``data.power``.
"""
import numpy as np
from numba import njit

from occupant.jit import JIT_STAGE

from occupant.model.bundle import POWER_JOINT_RESISTANCE
from occupant.model.joint_types import JointType

SPHERICAL = int(JointType.SPHERICAL)


@njit(**JIT_STAGE)
def table_load(tables, start, n, x):
    """Piecewise-linear load at deflection x, extrapolated with the end slopes."""
    if x <= tables[start, 0]:
        k = start
    elif x >= tables[start + n - 1, 0]:
        k = start + n - 2
    else:
        k = start
        while tables[k + 1, 0] < x:
            k += 1
    x0, y0 = tables[k, 0], tables[k, 1]
    x1, y1 = tables[k + 1, 0], tables[k + 1, 1]
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0)


@njit(**JIT_STAGE)
def _rotation_vector_component(q, k, comp):
    """Component comp of the rotation vector (log map) of the unit quaternion q[k:k+4]."""
    w, s = q[k], np.sqrt(q[k + 1] ** 2 + q[k + 2] ** 2 + q[k + 3] ** 2)
    sign = 1.0
    if w < 0.0:  # the shorter rotation
        w, sign = -w, -1.0
    if s < 1e-12:
        return sign * 2.0 * q[k + 1 + comp]
    return sign * 2.0 * np.arctan2(s, w) / s * q[k + 1 + comp]


@njit(**JIT_STAGE)
def joint_resistance(bundle, data, t, q, v, z):
    """Add the generalized forces of the joint resistance elements to data.tau, and their rate of
    change with the joint velocity, -d(load)/d(xdot) >= 0, to data.slope (for the implicit
    damping of the semi-implicit Euler step). ``q`` has unit quaternions."""
    tree, el = bundle.tree, bundle.joint_resistance
    tau, slope, out = data.tau, data.slope, data.outputs
    power = 0.0
    for e in range(el.link.shape[0]):
        i = el.link[e]
        comp = el.component[e]
        k = tree.qidx[i]
        if tree.jtype[i] == SPHERICAL:
            x = _rotation_vector_component(q, k, comp)
        else:
            x = q[k]
        j = tree.vidx[i] + comp
        xdot = v[j]
        dx = x - el.reference[e]
        if el.table_start[e] >= 0:
            load = -table_load(el.tables, el.table_start[e], el.table_len[e], dx)
        else:
            load = -el.stiffness[e] * dx
        load -= el.damping[e] * xdot
        rate = el.damping[e]
        if el.friction[e] > 0.0:
            th = np.tanh(xdot / el.friction_speed[e])
            load -= el.friction[e] * th
            rate += el.friction[e] / el.friction_speed[e] * (1.0 - th * th)
        if x > el.upper[e]:
            pen = x - el.upper[e]
            push = el.stop_stiffness[e] * pen * pen + el.stop_damping[e] * pen * xdot
            if push > 0.0:
                load -= push
                rate += el.stop_damping[e] * pen
        elif x < el.lower[e]:
            pen = el.lower[e] - x
            push = el.stop_stiffness[e] * pen * pen - el.stop_damping[e] * pen * xdot
            if push > 0.0:
                load += push
                rate += el.stop_damping[e] * pen
        tau[j] += load
        slope[j] += rate
        power += load * xdot
        out[el.out_start + 2 * e] = x
        out[el.out_start + 2 * e + 1] = load
    data.power[POWER_JOINT_RESISTANCE] = power
