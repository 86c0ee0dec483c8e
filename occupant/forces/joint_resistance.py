"""Joint resistance (ATB joint force elements; Fleck & Butler, ATB user's manual, AAMRL-TR-75-14,
vol. 2, "joint torque characteristics"), evaluated per joint coordinate in the compiled step.

Inside the range of motion: spring (linear about the reference, or a tabulated load-deflection
curve), viscous damping and Coulomb friction smoothed by tanh over ``friction_speed``. Beyond a
stop: a quadratic spring with Hunt-Crossley damping proportional to penetration, clipped so that
the stop only pushes; its loading/unloading asymmetry dissipates energy.

For spherical joints the coordinate is a component of the joint rotation vector (log of the joint
quaternion) about the child frame axes and its rate the matching angular-velocity component;
the load is a torque about that axis.
"""
import numpy as np
from numba import njit

from occupant.jit import JIT, JIT_INLINE

from occupant.model.joint_types import JointType
from occupant.spatial.rotation import quat_log

SPHERICAL = int(JointType.SPHERICAL)


@njit(**JIT)
def _table_load(tables, start, n, x):
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


@njit(**JIT_INLINE)
def joint_resistance(tree, el, q, v, tau):
    """Add the generalized forces of the joint resistance elements ``el`` (DofForces) to tau."""
    for e in range(el.link.shape[0]):
        i = el.link[e]
        comp = el.component[e]
        k = tree.qidx[i]
        if tree.jtype[i] == SPHERICAL:
            x = quat_log(q[k:k + 4])[comp]
        else:
            x = q[k]
        j = tree.vidx[i] + comp
        xdot = v[j]
        dx = x - el.reference[e]
        if el.table_start[e] >= 0:
            load = -_table_load(el.tables, el.table_start[e], el.table_len[e], dx)
        else:
            load = -el.stiffness[e] * dx
        load -= el.damping[e] * xdot
        if el.friction[e] > 0.0:
            load -= el.friction[e] * np.tanh(xdot / el.friction_speed[e])
        if x > el.upper[e]:
            pen = x - el.upper[e]
            push = el.stop_stiffness[e] * pen * pen + el.stop_damping[e] * pen * xdot
            if push > 0.0:
                load -= push
        elif x < el.lower[e]:
            pen = el.lower[e] - x
            push = el.stop_stiffness[e] * pen * pen - el.stop_damping[e] * pen * xdot
            if push > 0.0:
                load += push
        tau[j] += load
