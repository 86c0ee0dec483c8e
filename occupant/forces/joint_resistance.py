"""Joint resistance (ATB joint force elements; Fleck & Butler, ATB user's manual, AAMRL-TR-75-14,
vol. 2, "joint torque characteristics"), evaluated per joint coordinate in the compiled step.

Inside the range of motion: spring (linear about the reference, or a tabulated load-deflection
curve), viscous damping and Coulomb friction smoothed by tanh over ``friction_speed``. Beyond a
stop: a quadratic spring with Hunt-Crossley damping proportional to penetration, clipped so that
the stop only pushes; its loading/unloading asymmetry dissipates energy.

Hysteresis (``absorption`` eps > 0; the ATB/MADYMO loading/unloading characteristic with an
energy-absorption factor, the law ``occupant.contact.compliant`` uses for contacts): on each side of
the reference the largest deflection reached, m, is a producer state (z' = |x'| while the
deflection grows past it, else 0). Below m the spring unloads along the straight line from
(m, F(m)) to the permanent set d0 = m - 2 (1 - eps) E(m) / F(m), E(m) the loading work, never
above the loading curve, so a load-unload cycle to m dissipates eps E(m); reloading follows the
same line back to the peak, then the loading curve. With ``recovers`` (an elastic structure with
damping material, as the Hybrid III ribs: 49 CFR 572.34 asks for 69-85 % hysteresis yet the chest
returns) it unloads instead to the origin, with no permanent set, along
U(a) = r F(a) + (1 - r) F(m) (a / m)^n: a drop from the peak over its last ~1/n of deflection
(n = RECOVERY_SHAPE), then the loading curve scaled by r, the elastic part that pushes the
deflection back. Since the integral of U from 0 to m is r E(m) + (1 - r) F(m) m / (n + 1), the
cycle returns (1 - eps) E(m) with r = ((1 - eps) E - q) / (E - q), q = F(m) m / (n + 1); where
that r would be negative (a very convex curve) r = 0 and n = F(m) m / ((1 - eps) E) - 1. Never
above the loading curve; reloading follows U back to the peak.

For spherical joints the coordinate is a component of the joint rotation vector phi (log of the
joint quaternion, on the quaternion's own branch: continuous where the rotation passes 180 deg,
``rotation_vector_row``) about the child frame axes; its rate is that component of phi' = J_r^-1(phi)
omega (not the angular-velocity component, which under rotation about several axes can have the
opposite sign and turn the stop's damping against its spring), and its load acts as the torque
J_r^-T e_c load conjugate to omega, so that every element's power is load times phi'_c: the
springs conserve energy and the damping, friction and stops only dissipate.

A force producer (``occupant.forces`` interface): reads its block ``bundle.joint_resistance``,
adds to ``data.tau``, its velocity slope to ``data.slope``, writes each element's (deflection,
load) to ``data.outputs`` and its power (sum of load times rate) to ``data.power``.
"""
import numpy as np
from numba import njit

from occupant.jit import JIT_STAGE, separate

from occupant.model.bundle import POWER_JOINT_RESISTANCE
from occupant.model.joint_types import JointType

SPHERICAL = int(JointType.SPHERICAL)
#: exponent n of the drop from the peak of a ``recovers`` spring's unloading curve [E]: the drop
#: takes the last ~5 % of the peak deflection
RECOVERY_SHAPE = 20.0


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
def table_slope(tables, start, n, x):
    """Slope of ``table_load`` at x: its segment's there, at a row the one after the row (the
    right-hand slope, towards larger x); the end slopes beyond the table."""
    k = start
    while k < start + n - 2 and tables[k + 1, 0] <= x:
        k += 1
    return (tables[k + 1, 1] - tables[k, 1]) / (tables[k + 1, 0] - tables[k, 0])


@njit(**JIT_STAGE)
def _spring(el, e, dx):
    """Restoring spring load magnitude with the sign of dx: table(dx) or k dx."""
    if el.table_start[e] >= 0:
        return table_load(el.tables, el.table_start[e], el.table_len[e], dx)
    return el.stiffness[e] * dx


@njit(**JIT_STAGE)
def _spring_work(el, e, m):
    """E(m) = integral of the spring load from 0 to m (either sign; >= 0 for a restoring load): k m^2 / 2,
    or the trapezoids of the piecewise-linear table between its rows (exact)."""
    if el.table_start[e] < 0:
        return 0.5 * el.stiffness[e] * m * m
    t, start, n = el.tables, el.table_start[e], el.table_len[e]
    lo, hi = min(0.0, m), max(0.0, m)
    work, x0, f0 = 0.0, lo, table_load(t, start, n, lo)
    for k in range(start, start + n):
        if lo < t[k, 0] < hi:
            f1 = t[k, 1]
            work += 0.5 * (f0 + f1) * (t[k, 0] - x0)
            x0, f0 = t[k, 0], f1
    work += 0.5 * (f0 + table_load(t, start, n, hi)) * (hi - x0)
    return work if m >= 0.0 else -work


@njit(**JIT_STAGE)
def recovering_unload(f_load, f_max, a, m, work, absorption):
    """The ``recovers`` unloading load at deflection 0 < a < m below the peak (m, f_max > 0), f_load
    the loading curve's load at a, work the loading work E(m) (module docstring): U(a) = r F(a) +
    (1 - r) F(m) (a / m)^n, returning (1 - absorption) E(m) over the cycle, never above F(a).
    Shared with the contacts' recovering law (``occupant.contact.compliant``)."""
    r, n = recovery_shape(f_max, m, work, absorption)
    return min(r * f_load + (1.0 - r) * f_max * (a / m) ** n, f_load)


@njit(**JIT_STAGE)
def recovery_shape(f_max, m, work, absorption):
    """(r, n) of ``recovering_unload``'s U(a) = r F(a) + (1 - r) F(m) (a / m)^n: n the drop's
    exponent (RECOVERY_SHAPE, or more when the cycle returns less than F(m) m / (n + 1)) and r
    the loading curve's share, so that the cycle returns (1 - absorption) E(m)."""
    returned = (1.0 - absorption) * work
    q = f_max * m / (RECOVERY_SHAPE + 1.0)
    if returned > q:
        return (returned - q) / (work - q), RECOVERY_SHAPE
    return 0.0, f_max * m / returned - 1.0


@njit(**JIT_STAGE)
def _hysteretic_spring(el, e, dx, peak):
    """Spring load at deflection dx (> 0 side, or mirrored) below its peak deflection ``peak``
    (same sign, |peak| >= |dx|): the unloading curve of the module docstring."""
    s = 1.0 if peak >= 0.0 else -1.0
    a, m = s * dx, s * peak
    f_load = s * _spring(el, e, dx)
    if a >= m:
        return s * f_load
    f_max = s * _spring(el, e, peak)
    if f_max <= 0.0 or f_load <= 0.0:
        return s * f_load
    work = _spring_work(el, e, peak)
    if el.recovers[e] != 0:
        return s * recovering_unload(f_load, f_max, a, m, work, el.absorption[e])
    returned = (1.0 - el.absorption[e]) * work
    d0 = max(m - 2.0 * returned / f_max, 0.0)
    if a <= d0:
        return 0.0
    return s * min(f_max * (a - d0) / (m - d0), f_load)


@njit(**JIT_STAGE)
def rotation_vector_row(q, k, comp):
    """Component comp of the rotation vector phi (log map) of the unit quaternion q[k:k+4], and
    row comp (r0, r1, r2) of the inverse right Jacobian, phi' = J_r^-1(phi) omega for the child-frame
    angular velocity omega: J_r^-1 = I + [phi]x / 2 + b [phi]x^2, b = 1/th^2 - (1 + cos th) /
    (2 th sin th), th = |phi| (Sola et al., "A micro Lie theory for state estimation in robotics",
    2018, eq. 144). The row also maps the coordinate's load to the torque conjugate to omega.

    The quaternion's own branch, th = 2 atan2(s, w) in [0, 2 pi): not the shorter rotation
    (w < 0 flipped to th < pi), whose phi jumps from th u to -(2 pi - th) u where the joint's
    rotation passes pi, a coordinate jumping by up to 360 deg: the 95th male pedestrian's far
    shoulder, at 170.5 deg of abduction with 40 / 42 deg about its other axes, jumped from the
    upper end of its x range (170 deg) to 139 deg past the lower one (-30), whose stop then put
    26 kN m on the arm and 11 kJ into the run in one 0.1 ms sample (scenarios/validation/
    HISTORY.md, branch pedglass). The integrated quaternion is continuous (q' = q (0, omega) / 2
    and normalisation keep its sign), so this phi is, through pi, as long as the joint turns less
    than a full turn (th -> 2 pi) from a start with w >= 0 (every posture's: matrix_to_quat,
    quat_exp of |phi| <= pi); below pi, w >= 0, it is the shorter rotation, as before."""
    w, s = q[k], np.sqrt(q[k + 1] ** 2 + q[k + 2] ** 2 + q[k + 3] ** 2)
    th = 2.0 * np.arctan2(s, w)
    f = 2.0 if s < 1e-12 else th / s
    p0, p1, p2 = f * q[k + 1], f * q[k + 2], f * q[k + 3]
    if th < 1e-4:
        b = 1.0 / 12.0 + th * th / 720.0
    else:  # (1 + cos th) / sin th = cot(th / 2) = w / s: finite for 0 < th < 2 pi
        b = 1.0 / (th * th) - w / (2.0 * th * s)
    d = 1.0 - b * th * th  # row comp of I + [phi]x / 2 + b (phi phi^T - th^2 I)
    if comp == 0:
        x, r0, r1, r2 = p0, d, -0.5 * p2, 0.5 * p1
    elif comp == 1:
        x, r0, r1, r2 = p1, 0.5 * p2, d, -0.5 * p0
    else:
        x, r0, r1, r2 = p2, -0.5 * p1, 0.5 * p0, d
    r0 += b * x * p0
    r1 += b * x * p1
    r2 += b * x * p2
    return x, r0, r1, r2


def start_histories(model, q0, z0):
    """z0 (a copy) with each hysteretic element deflected at q0 (t = 0) started on its loading
    history: the largest deflection on its side is its deflection there (a joint held deflected,
    by a posture or a settled occupant's weight, sits on its loading curve, so that it unloads
    along the unloading curve from there, not down the loading one); a state z0 already sets
    (non-zero) keeps its. The coordinate as the kernel reads it: q's for a 1-dof link, a
    component of the rotation vector (``rotation_vector_row``, the quaternion's own branch) for a
    spherical one."""
    z = np.array(z0, dtype=float)
    el, tree = model.joint_resistance, model.tree
    if el is None:
        return z
    q0 = np.asarray(q0, dtype=float)
    for e in np.flatnonzero(el.z_index >= 0):
        i = el.link[e]
        k = tree.qidx[i]
        # (its Python function: the stage is compiled without a CPython wrapper)
        x = rotation_vector_row.py_func(q0, k, el.component[e])[0] if tree.jtype[i] == SPHERICAL else q0[k]
        dx = x - el.reference[e]
        side = el.z_index[e] + (0 if dx >= 0.0 else 1)
        if z[side] == 0.0:
            z[side] = abs(dx)
    return z


@separate
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
        k, j0 = tree.qidx[i], tree.vidx[i]
        if tree.jtype[i] == SPHERICAL:  # the coordinate's rate and its load's torque: row of J_r^-1
            x, r0, r1, r2 = rotation_vector_row(q, k, comp)
            xdot = r0 * v[j0] + r1 * v[j0 + 1] + r2 * v[j0 + 2]
        else:
            x, r0, r1, r2 = q[k], 1.0, 0.0, 0.0
            xdot = v[j0 + comp]
        dx = x - el.reference[e]
        zk = el.z_index[e]
        if zk >= 0:  # hysteresis: states are the largest deflections above and below
            side = zk if dx >= 0.0 else zk + 1
            reach = dx if dx >= 0.0 else -dx
            if reach >= z[side] and reach > 0.0 and (xdot if dx >= 0.0 else -xdot) > 0.0:
                data.zdot[side] = xdot if dx >= 0.0 else -xdot
            peak = max(z[side], reach)
            load = -_hysteretic_spring(el, e, dx, peak if dx >= 0.0 else -peak)
        else:
            load = -_spring(el, e, dx)
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
        if tree.jtype[i] == SPHERICAL:
            tau[j0] += r0 * load
            tau[j0 + 1] += r1 * load
            tau[j0 + 2] += r2 * load
            slope[j0] += r0 * r0 * rate
            slope[j0 + 1] += r1 * r1 * rate
            slope[j0 + 2] += r2 * r2 * rate
        else:
            tau[j0 + comp] += load
            slope[j0 + comp] += rate
        power += load * xdot
        out[el.out_start + 2 * e] = x
        out[el.out_start + 2 * e + 1] = load
    data.power[POWER_JOINT_RESISTANCE] = power
