"""Forces between two markers (seed 000's single-, three- and six-component forces and the
flexible forces bushing, beam and field; ``occupant.modeling.MarkerForce``): one producer for
all of them.

Marker I sits on link_i, marker J on link_j (-1: a frame fixed in B0). The deformation of I
relative to J, in J's axes, is u = (d - d_ref, theta - theta_ref): d = R_J^T (p_I - p_J) and theta
the rotation vector of R_J^T R_I; its rate udot = (R_J^T (v_I - v_J - w_J x (p_I - p_J)),
R_J^T (w_I - w_J)). The load on I, in J's axes, is

    law LINEAR (bushing, beam, field, three- and six-component):
        (F, T) = -K u - s(u) - C udot + preload + table(t)      (table columns: fx fy fz [tx ty tz])
        s_c(u_c): the tabulated (nonlinear) elastic load of component c, a bushing's measured
        characteristic (as ADAMS's GFORCE with a spline of deflection), piecewise linear and
        extrapolated with its end slopes; 0 for the components without a table
    law LINE (single-component): F = f(t) along (p_I - p_J)/|p_I - p_J| (positive: apart), T = 0

applied at p_I on link_i and reversed at the same point on link_j (action and reaction; ADAMS
Solver's BUSHING, BEAM, FIELD, SFORCE, VFORCE and GFORCE reference). Power on the tree:
F . (v_I - v_J(p_I)) + T . (w_I - w_J) (a load on B0 does no work on the tree). Outputs per
element: u (6) and the load on I in J's axes (6).
"""
import numpy as np
from numba import njit

from occupant.jit import JIT_INLINE, JIT_STAGE
from occupant.forces.joint_resistance import table_load
from occupant.forces.points import add_point_force, point_state
from occupant.model.bundle import MARKER_FORCE_LINE, POWER_MARKER_FORCES


@njit(**JIT_INLINE)
def _frame(data, link, R, p, e):
    """Axes (row-major 9) and origin of the marker frame in B0, its angular velocity (B0)."""
    if link < 0:
        w0, w1, w2 = data.base[0], data.base[1], data.base[2]
        return (R[e, 0, 0], R[e, 0, 1], R[e, 0, 2], R[e, 1, 0], R[e, 1, 1], R[e, 1, 2],
                R[e, 2, 0], R[e, 2, 1], R[e, 2, 2], w0, w1, w2)
    L = data.R_base_link
    a00 = L[link, 0, 0] * R[e, 0, 0] + L[link, 0, 1] * R[e, 1, 0] + L[link, 0, 2] * R[e, 2, 0]
    a01 = L[link, 0, 0] * R[e, 0, 1] + L[link, 0, 1] * R[e, 1, 1] + L[link, 0, 2] * R[e, 2, 1]
    a02 = L[link, 0, 0] * R[e, 0, 2] + L[link, 0, 1] * R[e, 1, 2] + L[link, 0, 2] * R[e, 2, 2]
    a10 = L[link, 1, 0] * R[e, 0, 0] + L[link, 1, 1] * R[e, 1, 0] + L[link, 1, 2] * R[e, 2, 0]
    a11 = L[link, 1, 0] * R[e, 0, 1] + L[link, 1, 1] * R[e, 1, 1] + L[link, 1, 2] * R[e, 2, 1]
    a12 = L[link, 1, 0] * R[e, 0, 2] + L[link, 1, 1] * R[e, 1, 2] + L[link, 1, 2] * R[e, 2, 2]
    a20 = L[link, 2, 0] * R[e, 0, 0] + L[link, 2, 1] * R[e, 1, 0] + L[link, 2, 2] * R[e, 2, 0]
    a21 = L[link, 2, 0] * R[e, 0, 1] + L[link, 2, 1] * R[e, 1, 1] + L[link, 2, 2] * R[e, 2, 1]
    a22 = L[link, 2, 0] * R[e, 0, 2] + L[link, 2, 1] * R[e, 1, 2] + L[link, 2, 2] * R[e, 2, 2]
    v = data.v
    w0 = L[link, 0, 0] * v[link, 0] + L[link, 0, 1] * v[link, 1] + L[link, 0, 2] * v[link, 2]
    w1 = L[link, 1, 0] * v[link, 0] + L[link, 1, 1] * v[link, 1] + L[link, 1, 2] * v[link, 2]
    w2 = L[link, 2, 0] * v[link, 0] + L[link, 2, 1] * v[link, 1] + L[link, 2, 2] * v[link, 2]
    return a00, a01, a02, a10, a11, a12, a20, a21, a22, w0, w1, w2


@njit(**JIT_INLINE)
def rotation_vector(m00, m01, m02, m10, m11, m12, m20, m21, m22):
    """Rotation vector (axis times angle, angle in [0, pi)) of a rotation matrix."""
    c = 0.5 * (m00 + m11 + m22 - 1.0)
    c = min(1.0, max(-1.0, c))
    angle = np.arccos(c)
    s = np.sin(angle)
    k = 0.5 if angle < 1e-6 else 0.5 * angle / s      # angle / (2 sin angle) -> 1/2
    return k * (m21 - m12), k * (m02 - m20), k * (m10 - m01)


@njit(**JIT_INLINE)
def _row(M, e, r, u0, u1, u2, u3, u4, u5):
    return (M[e, r, 0] * u0 + M[e, r, 1] * u1 + M[e, r, 2] * u2 + M[e, r, 3] * u3
            + M[e, r, 4] * u4 + M[e, r, 5] * u5)


@njit(**JIT_STAGE)
def marker_forces(bundle, data, t, q, v, z):
    el = bundle.marker_forces
    power = 0.0
    for e in range(el.link_i.shape[0]):
        li, lj = el.link_i[e], el.link_j[e]
        pix, piy, piz, vix, viy, viz = point_state(data, li, el.p_i[e, 0], el.p_i[e, 1], el.p_i[e, 2])
        pjx, pjy, pjz, vjx, vjy, vjz = point_state(data, lj, el.p_j[e, 0], el.p_j[e, 1], el.p_j[e, 2])
        i00, i01, i02, i10, i11, i12, i20, i21, i22, wix, wiy, wiz = _frame(data, li, el.R_i, el.p_i, e)
        j00, j01, j02, j10, j11, j12, j20, j21, j22, wjx, wjy, wjz = _frame(data, lj, el.R_j, el.p_j, e)
        dx, dy, dz = pix - pjx, piy - pjy, piz - pjz
        # velocity of I relative to the point of J's body at p_I
        rvx = vix - vjx - (wjy * dz - wjz * dy)
        rvy = viy - vjy - (wjz * dx - wjx * dz)
        rvz = viz - vjz - (wjx * dy - wjy * dx)
        rwx, rwy, rwz = wix - wjx, wiy - wjy, wiz - wjz
        # deformation and its rate in J's axes
        u0 = j00 * dx + j10 * dy + j20 * dz - el.reference[e, 0]
        u1 = j01 * dx + j11 * dy + j21 * dz - el.reference[e, 1]
        u2 = j02 * dx + j12 * dy + j22 * dz - el.reference[e, 2]
        m00 = j00 * i00 + j10 * i10 + j20 * i20
        m01 = j00 * i01 + j10 * i11 + j20 * i21
        m02 = j00 * i02 + j10 * i12 + j20 * i22
        m10 = j01 * i00 + j11 * i10 + j21 * i20
        m11 = j01 * i01 + j11 * i11 + j21 * i21
        m12 = j01 * i02 + j11 * i12 + j21 * i22
        m20 = j02 * i00 + j12 * i10 + j22 * i20
        m21 = j02 * i01 + j12 * i11 + j22 * i21
        m22 = j02 * i02 + j12 * i12 + j22 * i22
        a0, a1, a2 = rotation_vector(m00, m01, m02, m10, m11, m12, m20, m21, m22)
        u3, u4, u5 = a0 - el.reference[e, 3], a1 - el.reference[e, 4], a2 - el.reference[e, 5]
        r0 = j00 * rvx + j10 * rvy + j20 * rvz
        r1 = j01 * rvx + j11 * rvy + j21 * rvz
        r2 = j02 * rvx + j12 * rvy + j22 * rvz
        r3 = j00 * rwx + j10 * rwy + j20 * rwz
        r4 = j01 * rwx + j11 * rwy + j21 * rwz
        r5 = j02 * rwx + j12 * rwy + j22 * rwz
        ts, tn, nc = el.table_start[e], el.table_len[e], el.table_cols[e]
        if el.law[e] == MARKER_FORCE_LINE:
            f = 0.0
            if ts >= 0:
                f = _column(el.tables, ts, tn, 1, t)
            n = np.sqrt(dx * dx + dy * dy + dz * dz)
            ux, uy, uz = (dx / n, dy / n, dz / n) if n > 0.0 else (0.0, 0.0, 0.0)
            gx, gy, gz = f * ux, f * uy, f * uz            # B0
            f0 = j00 * gx + j10 * gy + j20 * gz            # J's axes, for the outputs
            f1 = j01 * gx + j11 * gy + j21 * gz
            f2 = j02 * gx + j12 * gy + j22 * gz
            f3 = f4 = f5 = 0.0
        else:
            K, C, P = el.stiffness, el.damping, el.preload
            f0 = P[e, 0] - _row(K, e, 0, u0, u1, u2, u3, u4, u5) - _row(C, e, 0, r0, r1, r2, r3, r4, r5)
            f1 = P[e, 1] - _row(K, e, 1, u0, u1, u2, u3, u4, u5) - _row(C, e, 1, r0, r1, r2, r3, r4, r5)
            f2 = P[e, 2] - _row(K, e, 2, u0, u1, u2, u3, u4, u5) - _row(C, e, 2, r0, r1, r2, r3, r4, r5)
            f3 = P[e, 3] - _row(K, e, 3, u0, u1, u2, u3, u4, u5) - _row(C, e, 3, r0, r1, r2, r3, r4, r5)
            f4 = P[e, 4] - _row(K, e, 4, u0, u1, u2, u3, u4, u5) - _row(C, e, 4, r0, r1, r2, r3, r4, r5)
            f5 = P[e, 5] - _row(K, e, 5, u0, u1, u2, u3, u4, u5) - _row(C, e, 5, r0, r1, r2, r3, r4, r5)
            f0 -= _spring(el, e, 0, u0)
            f1 -= _spring(el, e, 1, u1)
            f2 -= _spring(el, e, 2, u2)
            f3 -= _spring(el, e, 3, u3)
            f4 -= _spring(el, e, 4, u4)
            f5 -= _spring(el, e, 5, u5)
            if ts >= 0:   # time functions: column c + 1 of the element's rows is load c
                f0 += _column(el.tables, ts, tn, 1, t)
                if nc > 1:
                    f1 += _column(el.tables, ts, tn, 2, t)
                if nc > 2:
                    f2 += _column(el.tables, ts, tn, 3, t)
                if nc > 3:
                    f3 += _column(el.tables, ts, tn, 4, t)
                    f4 += _column(el.tables, ts, tn, 5, t)
                    f5 += _column(el.tables, ts, tn, 6, t)
            gx = j00 * f0 + j01 * f1 + j02 * f2
            gy = j10 * f0 + j11 * f1 + j12 * f2
            gz = j20 * f0 + j21 * f1 + j22 * f2
        hx = j00 * f3 + j01 * f4 + j02 * f5
        hy = j10 * f3 + j11 * f4 + j12 * f5
        hz = j20 * f3 + j21 * f4 + j22 * f5
        _apply(data, li, pix, piy, piz, gx, gy, gz, hx, hy, hz)
        _apply(data, lj, pix, piy, piz, -gx, -gy, -gz, -hx, -hy, -hz)
        power += gx * rvx + gy * rvy + gz * rvz + hx * rwx + hy * rwy + hz * rwz
        k = el.out_start + 12 * e
        data.outputs[k], data.outputs[k + 1], data.outputs[k + 2] = u0, u1, u2
        data.outputs[k + 3], data.outputs[k + 4], data.outputs[k + 5] = u3, u4, u5
        data.outputs[k + 6], data.outputs[k + 7], data.outputs[k + 8] = f0, f1, f2
        data.outputs[k + 9], data.outputs[k + 10], data.outputs[k + 11] = f3, f4, f5
    data.power[POWER_MARKER_FORCES] = power


@njit(**JIT_INLINE)
def _spring(el, e, c, u):
    """The tabulated elastic load of component c at deflection u (0 without a table)."""
    if el.spring_start[e, c] < 0:
        return 0.0
    return table_load(el.springs, el.spring_start[e, c], el.spring_len[e, c], u)


@njit(**JIT_INLINE)
def _column(tables, start, n, col, t):
    """Column ``col`` of the time table rows start..start+n, linear in t, held at its ends."""
    if t <= tables[start, 0]:
        return tables[start, col]
    if t >= tables[start + n - 1, 0]:
        return tables[start + n - 1, col]
    k = start
    while tables[k + 1, 0] < t:
        k += 1
    w = (t - tables[k, 0]) / (tables[k + 1, 0] - tables[k, 0])
    return (1.0 - w) * tables[k, col] + w * tables[k + 1, col]


@njit(**JIT_INLINE)
def _apply(data, link, px, py, pz, fx, fy, fz, tx, ty, tz):
    """The force f (B0) at the B0 point p and the torque t (B0) on ``link`` (-1: B0, ignored)."""
    if link < 0:
        return
    R, o = data.R_base_link, data.p_base_link
    rx, ry, rz = px - o[link, 0], py - o[link, 1], pz - o[link, 2]
    lx = R[link, 0, 0] * rx + R[link, 1, 0] * ry + R[link, 2, 0] * rz   # R^T r
    ly = R[link, 0, 1] * rx + R[link, 1, 1] * ry + R[link, 2, 1] * rz
    lz = R[link, 0, 2] * rx + R[link, 1, 2] * ry + R[link, 2, 2] * rz
    add_point_force(data, link, lx, ly, lz, fx, fy, fz)
    f = data.f_ext
    f[link, 0] += R[link, 0, 0] * tx + R[link, 1, 0] * ty + R[link, 2, 0] * tz
    f[link, 1] += R[link, 0, 1] * tx + R[link, 1, 1] * ty + R[link, 2, 1] * tz
    f[link, 2] += R[link, 0, 2] * tx + R[link, 1, 2] * ty + R[link, 2, 2] * tz
