"""Seat belts (``occupant.modeling.belts``), a force producer of the step: MADYMO-style multibody
belts of straight segments between points, with webbing flowing between segments.

Per belt, every evaluation:
1. points: anchors and slip rings where their link puts them; a wrap point, where the straight
   line between its neighbours enters its ellipsoid, at the critical point of the belt length
   |A - P| + |P - B| over the surface that lies between them: there u_A + u_B (unit vectors from
   P to the neighbours) is along the inward normal, so the belt presses only normally and slides
   freely across the surface (the point of the surface where the normal bisects the belt's turn).
   Newton's method on the unit sphere of the ellipsoid's scaled coordinates, started from the
   point nearest the line in those coordinates; neighbouring wrap points in Gauss-Seidel sweeps.
   Elsewhere the point lies on the line (no force on the ellipsoid). Since the length is
   stationary in P, the work of the segment forces on the bodies equals minus the webbing's
   strain energy change: the belt keeps the energy balance. The point's velocity over the surface
   follows from the implicit-function theorem on the same Newton system.
2. segments: strain e = L / l - 1 of the length L over the unstretched webbing l (a state);
   tension F(e) from the webbing's loading table, below the largest strain reached (a state,
   tracked as the contact penetration history is, ``occupant.contact.compliant``) from the
   shifted unloading table; slack (e <= 0) carries none. The force acts on both end points'
   bodies along the segment (``forces.points.add_force_pair``).
3. webbing flow through a slip ring or over a wrap: when the tension ratio of the two segments
   exceeds the capstan ratio exp(mu theta) (Euler-Eytelwein; theta the angle the belt turns
   through at the point), webbing flows towards the tighter side at (excess tension) /
   slip_damping, so the lengths' rates are -q and +q; within the ratio it sticks.
4. retractor at the first point: payout p' = (F_0 - F_spool) / spool_damping; F_spool the rewind
   force while unlocked; once locked (``lock_delay`` after the vehicle- or webbing-sensitive
   sensor or the pretensioner's firing) rewind force + spool stiffness times the payout since
   locking, capped by the load limit, where the limiter's payout is kept (a state) so the
   unloading spool does not wind it back; a force pretensioner raises the spool force to its
   table's, a pull-in pretensioner shortens the first segment's webbing by its table's pull-in.
States per segment (webbing length, largest strain), per belt (payout, payout while unlocked,
limiter payout, lock timer); outputs ``BELT_*_OUTPUTS``; power into ``POWER_BELTS``.
"""
import numpy as np
from numba import njit

from occupant.jit import JIT, JIT_STAGE
from occupant.contact.compliant import elastic_force
from occupant.forces.joint_resistance import table_load
from occupant.forces.points import add_force_pair, point_state
from occupant.model.bundle import (
    BELT_ANCHOR, BELT_WRAP, POWER_BELTS, PRETENSIONER_FORCE, PRETENSIONER_NONE,
    PRETENSIONER_PULL_IN,
)

NEWTON_ITERATIONS = 12   # Newton steps of a wrap point (converges in 3-5 from the initial point)
SWEEPS = 3               # Gauss-Seidel sweeps when wrap points neighbour each other


@njit(**JIT)
def _norm(x, y, z):
    return np.sqrt(x * x + y * y + z * z)


@njit(**JIT_STAGE)
def ellipsoid_frame(data, el, k):
    """Centre (3) and axes (9, row-major: E[r, c] = axis c's component r) in B0 of point k's
    ellipsoid."""
    l = el.point_link[k]
    R, p, A, r = data.R_base_link, data.p_base_link, el.point_R, el.point_r
    cx = p[l, 0] + R[l, 0, 0] * r[k, 0] + R[l, 0, 1] * r[k, 1] + R[l, 0, 2] * r[k, 2]
    cy = p[l, 1] + R[l, 1, 0] * r[k, 0] + R[l, 1, 1] * r[k, 1] + R[l, 1, 2] * r[k, 2]
    cz = p[l, 2] + R[l, 2, 0] * r[k, 0] + R[l, 2, 1] * r[k, 1] + R[l, 2, 2] * r[k, 2]
    return (cx, cy, cz), (_rr(R, A, l, k, 0, 0), _rr(R, A, l, k, 0, 1), _rr(R, A, l, k, 0, 2),
                          _rr(R, A, l, k, 1, 0), _rr(R, A, l, k, 1, 1), _rr(R, A, l, k, 1, 2),
                          _rr(R, A, l, k, 2, 0), _rr(R, A, l, k, 2, 1), _rr(R, A, l, k, 2, 2))


@njit(**JIT)
def _rr(R, A, l, k, i, j):
    """(R[l] A[k])[i, j]."""
    return R[l, i, 0] * A[k, 0, j] + R[l, i, 1] * A[k, 1, j] + R[l, i, 2] * A[k, 2, j]


@njit(**JIT)
def _to_local(c, E, x, y, z):
    dx, dy, dz = x - c[0], y - c[1], z - c[2]
    return (E[0] * dx + E[3] * dy + E[6] * dz, E[1] * dx + E[4] * dy + E[7] * dz,
            E[2] * dx + E[5] * dy + E[8] * dz)


@njit(**JIT)
def _to_base(c, E, x, y, z):
    return (c[0] + E[0] * x + E[1] * y + E[2] * z, c[1] + E[3] * x + E[4] * y + E[5] * z,
            c[2] + E[6] * x + E[7] * y + E[8] * z)


@njit(**JIT)
def _tangent_basis(x0, x1, x2):
    """Two unit vectors orthogonal to the unit vector x and to each other."""
    if abs(x0) < 0.9:
        a0, a1, a2 = 0.0, x2, -x1            # x cross (1, 0, 0)
    else:
        a0, a1, a2 = -x2, 0.0, x0            # x cross (0, 1, 0)
    n = _norm(a0, a1, a2)
    a0, a1, a2 = a0 / n, a1 / n, a2 / n
    return a0, a1, a2, x1 * a2 - x2 * a1, x2 * a0 - x0 * a2, x0 * a1 - x1 * a0


@njit(**JIT)
def _wrap_system(D, x, a, b):
    """At the surface point P = D x (x unit, scaled coordinates) between neighbours a and b
    (ellipsoid frame): the tangent basis, the gradient g (2) of h(x) = |a - P| + |b - P| and its
    Riemannian Hessian H (2 x 2) on the sphere, and the unit vectors and distances to a and b."""
    px, py, pz = D[0] * x[0], D[1] * x[1], D[2] * x[2]
    ua0, ua1, ua2 = a[0] - px, a[1] - py, a[2] - pz
    da = max(_norm(ua0, ua1, ua2), 1e-12)
    ua0, ua1, ua2 = ua0 / da, ua1 / da, ua2 / da
    ub0, ub1, ub2 = b[0] - px, b[1] - py, b[2] - pz
    db = max(_norm(ub0, ub1, ub2), 1e-12)
    ub0, ub1, ub2 = ub0 / db, ub1 / db, ub2 / db
    dw0, dw1, dw2 = D[0] * (ua0 + ub0), D[1] * (ua1 + ub1), D[2] * (ua2 + ub2)   # D w
    xdw = x[0] * dw0 + x[1] * dw1 + x[2] * dw2
    e10, e11, e12, e20, e21, e22 = _tangent_basis(x[0], x[1], x[2])
    g1 = -(e10 * dw0 + e11 * dw1 + e12 * dw2)
    g2 = -(e20 * dw0 + e21 * dw1 + e22 * dw2)
    # D e_i, and the Hessian of the length in P: (I - u_a u_a^T) / d_a + (I - u_b u_b^T) / d_b
    f10, f11, f12 = D[0] * e10, D[1] * e11, D[2] * e12
    f20, f21, f22 = D[0] * e20, D[1] * e21, D[2] * e22
    s1a, s1b = f10 * ua0 + f11 * ua1 + f12 * ua2, f10 * ub0 + f11 * ub1 + f12 * ub2
    s2a, s2b = f20 * ua0 + f21 * ua1 + f22 * ua2, f20 * ub0 + f21 * ub1 + f22 * ub2
    ff11, ff12, ff22 = f10 * f10 + f11 * f11 + f12 * f12, f10 * f20 + f11 * f21 + f12 * f22, \
        f20 * f20 + f21 * f21 + f22 * f22
    h11 = (ff11 - s1a * s1a) / da + (ff11 - s1b * s1b) / db + xdw
    h12 = (ff12 - s1a * s2a) / da + (ff12 - s1b * s2b) / db
    h22 = (ff22 - s2a * s2a) / da + (ff22 - s2b * s2b) / db + xdw
    return ((e10, e11, e12, e20, e21, e22), g1, g2, h11, h12, h22,
            (ua0, ua1, ua2, ub0, ub1, ub2), da, db)


@njit(**JIT)
def wrap_point(D, side, a, b, x_start, warm):
    """The belt point over the ellipsoid of semi-axes D between the neighbours a and b
    (ellipsoid frame): (P (3), x (3) its scaled unit vector, active). Not active: the line a-b
    misses the ellipsoid and P is its point nearest the ellipsoid in scaled coordinates."""
    sa0, sa1, sa2 = a[0] / D[0], a[1] / D[1], a[2] / D[2]
    d0, d1, d2 = b[0] / D[0] - sa0, b[1] / D[1] - sa1, b[2] / D[2] - sa2
    dd = d0 * d0 + d1 * d1 + d2 * d2
    s = 0.0
    if dd > 0.0:
        s = min(max(-(sa0 * d0 + sa1 * d1 + sa2 * d2) / dd, 0.0), 1.0)
    m0, m1, m2 = sa0 + s * d0, sa1 + s * d1, sa2 + s * d2
    mm = _norm(m0, m1, m2)
    if mm >= 1.0:
        return (D[0] * m0, D[1] * m1, D[2] * m2), (m0 / mm, m1 / mm, m2 / mm), False
    if mm > 1e-9:
        x0, x1, x2 = m0 / mm, m1 / mm, m2 / mm
    else:   # the line through the centre: the given side, made normal to the line
        t = (side[0] * d0 + side[1] * d1 + side[2] * d2) / max(dd, 1e-300)
        x0, x1, x2 = side[0] - t * d0, side[1] - t * d1, side[2] - t * d2
        n = _norm(x0, x1, x2)
        x0, x1, x2 = x0 / n, x1 / n, x2 / n
    first = (x0, x1, x2)
    if warm:
        n = _norm(x_start[0], x_start[1], x_start[2])
        x0, x1, x2 = x_start[0] / n, x_start[1] / n, x_start[2] / n
    scale = max(D[0], max(D[1], D[2]))
    for _ in range(NEWTON_ITERATIONS):
        E, g1, g2, h11, h12, h22, u, da, db = _wrap_system(D, (x0, x1, x2), a, b)
        if g1 * g1 + g2 * g2 < (1e-13 * scale) ** 2:
            break
        det = h11 * h22 - h12 * h12
        if abs(det) < 1e-14 * (h11 * h11 + h22 * h22 + h12 * h12 + 1e-300):
            break
        xi1 = -(h22 * g1 - h12 * g2) / det
        xi2 = -(h11 * g2 - h12 * g1) / det
        step = np.sqrt(xi1 * xi1 + xi2 * xi2)
        if step > 0.3:
            xi1, xi2 = xi1 * 0.3 / step, xi2 * 0.3 / step
        x0, x1, x2 = x0 + xi1 * E[0] + xi2 * E[3], x1 + xi1 * E[1] + xi2 * E[4], \
            x2 + xi1 * E[2] + xi2 * E[5]
        n = _norm(x0, x1, x2)
        x0, x1, x2 = x0 / n, x1 / n, x2 / n
    # the belt must press on the surface (u_a + u_b inward: x . D (u_a + u_b) < 0) and the point
    # stay on the side where the line enters; else keep the first point
    E, g1, g2, h11, h12, h22, u, da, db = _wrap_system(D, (x0, x1, x2), a, b)
    inward = x0 * D[0] * (u[0] + u[3]) + x1 * D[1] * (u[1] + u[4]) + x2 * D[2] * (u[2] + u[5])
    if inward > 0.0 or x0 * first[0] + x1 * first[1] + x2 * first[2] < 0.0:
        x0, x1, x2 = first
    return (D[0] * x0, D[1] * x1, D[2] * x2), (x0, x1, x2), True


@njit(**JIT)
def wrap_rate(D, x, a, b, va, vb):
    """Velocity (ellipsoid frame) of the wrap point P = D x over the surface when the neighbours
    move at va, vb relative to the ellipsoid: from g(x; a, b) = 0, H x' = -dg/dt with
    dg_i/dt = -(D e_i) . ((I - u_a u_a^T) va / d_a + (I - u_b u_b^T) vb / d_b)."""
    E, g1, g2, h11, h12, h22, u, da, db = _wrap_system(D, x, a, b)
    det = h11 * h22 - h12 * h12
    if abs(det) < 1e-10 * (h11 * h11 + h22 * h22 + h12 * h12 + 1e-300):
        return 0.0, 0.0, 0.0
    pa = u[0] * va[0] + u[1] * va[1] + u[2] * va[2]
    pb = u[3] * vb[0] + u[4] * vb[1] + u[5] * vb[2]
    r0 = (va[0] - pa * u[0]) / da + (vb[0] - pb * u[3]) / db
    r1 = (va[1] - pa * u[1]) / da + (vb[1] - pb * u[4]) / db
    r2 = (va[2] - pa * u[2]) / da + (vb[2] - pb * u[5]) / db
    c1 = -(D[0] * E[0] * r0 + D[1] * E[1] * r1 + D[2] * E[2] * r2)
    c2 = -(D[0] * E[3] * r0 + D[1] * E[4] * r1 + D[2] * E[5] * r2)
    xi1 = -(h22 * c1 - h12 * c2) / det
    xi2 = -(h11 * c2 - h12 * c1) / det
    return (D[0] * (xi1 * E[0] + xi2 * E[3]), D[1] * (xi1 * E[1] + xi2 * E[4]),
            D[2] * (xi1 * E[2] + xi2 * E[5]))


@njit(**JIT_STAGE)
def link_velocity_at(data, link, x, y, z):
    """Velocity in B0 of the material point of ``link`` at the B0 position (x, y, z)."""
    if link < 0:
        w0, w1, w2 = data.base[0], data.base[1], data.base[2]
        return data.base[3] + w1 * z - w2 * y, data.base[4] + w2 * x - w0 * z, \
            data.base[5] + w0 * y - w1 * x
    R, p, vel = data.R_base_link, data.p_base_link, data.v
    w0 = R[link, 0, 0] * vel[link, 0] + R[link, 0, 1] * vel[link, 1] + R[link, 0, 2] * vel[link, 2]
    w1 = R[link, 1, 0] * vel[link, 0] + R[link, 1, 1] * vel[link, 1] + R[link, 1, 2] * vel[link, 2]
    w2 = R[link, 2, 0] * vel[link, 0] + R[link, 2, 1] * vel[link, 1] + R[link, 2, 2] * vel[link, 2]
    v0 = R[link, 0, 0] * vel[link, 3] + R[link, 0, 1] * vel[link, 4] + R[link, 0, 2] * vel[link, 5]
    v1 = R[link, 1, 0] * vel[link, 3] + R[link, 1, 1] * vel[link, 4] + R[link, 1, 2] * vel[link, 5]
    v2 = R[link, 2, 0] * vel[link, 3] + R[link, 2, 1] * vel[link, 4] + R[link, 2, 2] * vel[link, 5]
    rx, ry, rz = x - p[link, 0], y - p[link, 1], z - p[link, 2]
    return v0 + w1 * rz - w2 * ry, v1 + w2 * rx - w0 * rz, v2 + w0 * ry - w1 * rx


@njit(**JIT_STAGE)
def point_in_link(data, link, x, y, z):
    """The B0 position (x, y, z) in the frame of ``link`` (-1: B0)."""
    if link < 0:
        return x, y, z
    R, p = data.R_base_link, data.p_base_link
    dx, dy, dz = x - p[link, 0], y - p[link, 1], z - p[link, 2]
    return (R[link, 0, 0] * dx + R[link, 1, 0] * dy + R[link, 2, 0] * dz,
            R[link, 0, 1] * dx + R[link, 1, 1] * dy + R[link, 2, 1] * dz,
            R[link, 0, 2] * dx + R[link, 1, 2] * dy + R[link, 2, 2] * dz)


@njit(**JIT_STAGE)
def solve_wrap(data, el, out, k, o_pts, p0, warm):
    """Place wrap point k (global index; belt's first point p0) between the positions held in
    the outputs at o_pts, writing its position there."""
    c, E = ellipsoid_frame(data, el, k)
    j = o_pts + 3 * (k - p0)
    a = _to_local(c, E, out[j - 3], out[j - 2], out[j - 1])
    b = _to_local(c, E, out[j + 3], out[j + 4], out[j + 5])
    D = (el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2])
    side = (el.point_side[k, 0], el.point_side[k, 1], el.point_side[k, 2])
    cur = _to_local(c, E, out[j], out[j + 1], out[j + 2])
    x_start = (cur[0] / D[0], cur[1] / D[1], cur[2] / D[2])
    P, x, active = wrap_point(D, side, a, b, x_start, warm)
    out[j], out[j + 1], out[j + 2] = _to_base(c, E, P[0], P[1], P[2])


@njit(**JIT_STAGE)
def place_points(data, el, out, p0, p1, o_pts):
    """Every point's position in B0 into the outputs (anchors and rings, then the wraps)."""
    adjacent = False
    for k in range(p0, p1):
        j = o_pts + 3 * (k - p0)
        if el.point_kind[k] != BELT_WRAP:
            x, y, z, _, _, _ = point_state(data, el.point_link[k], el.point_r[k, 0],
                                           el.point_r[k, 1], el.point_r[k, 2])
            out[j], out[j + 1], out[j + 2] = x, y, z
        elif el.point_kind[k + 1] == BELT_WRAP:
            adjacent = True
    if not adjacent:
        for k in range(p0 + 1, p1 - 1):
            if el.point_kind[k] == BELT_WRAP:
                solve_wrap(data, el, out, k, o_pts, p0, False)
        return
    # neighbouring wraps: start each on the line to the next fixed point, then sweep
    for k in range(p0 + 1, p1 - 1):
        if el.point_kind[k] == BELT_WRAP:
            n = k + 1
            while el.point_kind[n] == BELT_WRAP:
                n += 1
            j, jn = o_pts + 3 * (k - p0), o_pts + 3 * (n - p0)
            out[j + 3], out[j + 4], out[j + 5] = out[jn], out[jn + 1], out[jn + 2]
            solve_wrap(data, el, out, k, o_pts, p0, False)
    for sweep in range(SWEEPS - 1):
        for k in range(p0 + 1, p1 - 1):
            if el.point_kind[k] == BELT_WRAP:
                solve_wrap(data, el, out, k, o_pts, p0, True)


@njit(**JIT_STAGE)
def point_velocities(data, el, out, k, p0, o_pts, prev):
    """(full velocity of belt point k (3), velocity of its body's material there (3)), B0;
    ``prev``: the full velocity of point k - 1 (a wrap point needs its neighbours')."""
    j = o_pts + 3 * (k - p0)
    x, y, z = out[j], out[j + 1], out[j + 2]
    lk = el.point_link[k]
    vb = link_velocity_at(data, lk, x, y, z)
    if el.point_kind[k] != BELT_WRAP:
        return vb, vb
    # neighbours relative to the ellipsoid, in its frame; the next one's own slide is neglected
    c, E = ellipsoid_frame(data, el, k)
    a = _to_local(c, E, out[j - 3], out[j - 2], out[j - 1])
    b = _to_local(c, E, out[j + 3], out[j + 4], out[j + 5])
    ea = link_velocity_at(data, lk, out[j - 3], out[j - 2], out[j - 1])
    eb = link_velocity_at(data, lk, out[j + 3], out[j + 4], out[j + 5])
    vnext = link_velocity_at(data, el.point_link[k + 1], out[j + 3], out[j + 4], out[j + 5])
    va = _to_local((0.0, 0.0, 0.0), E, prev[0] - ea[0], prev[1] - ea[1], prev[2] - ea[2])
    vb_ = _to_local((0.0, 0.0, 0.0), E, vnext[0] - eb[0], vnext[1] - eb[1], vnext[2] - eb[2])
    D = (el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2])
    P = _to_local(c, E, x, y, z)
    xs = (P[0] / D[0], P[1] / D[1], P[2] / D[2])
    n = _norm(xs[0], xs[1], xs[2])
    if n > 1.0 + 1e-9:        # not wrapped: on the line, no own slide is needed for the force
        return vb, vb
    s = wrap_rate(D, (xs[0] / n, xs[1] / n, xs[2] / n), a, b, va, vb_)
    return (vb[0] + E[0] * s[0] + E[1] * s[1] + E[2] * s[2],
            vb[1] + E[3] * s[0] + E[4] * s[1] + E[5] * s[2],
            vb[2] + E[6] * s[0] + E[7] * s[1] + E[8] * s[2]), vb


@njit(**JIT_STAGE)
def pull_in_at(el, b, t):
    """Pull-in (m) and its rate (m/s) of a pull-in pretensioner at t."""
    if el.pretensioner[b] != PRETENSIONER_PULL_IN or t < el.fire_time[b]:
        return 0.0, 0.0
    tau, start, n = t - el.fire_time[b], el.pt_start[b], el.pt_len[b]
    tab = el.pt_tables
    if tau >= tab[start + n - 1, 0]:
        return tab[start + n - 1, 1], 0.0
    if tau <= tab[start, 0]:
        return tab[start, 1], 0.0
    s = table_load(tab, start, n, tau)
    k = start
    while tab[k + 1, 0] < tau:
        k += 1
    return s, (tab[k + 1, 1] - tab[k, 1]) / (tab[k + 1, 0] - tab[k, 0])


@njit(**JIT_STAGE)
def belt(el, data, t, z, b):
    """One belt's forces, outputs, state rates; returns the power of its forces on the tree."""
    out, zdot = data.outputs, data.zdot
    p0, p1 = el.point_start[b], el.point_start[b + 1]
    n = p1 - p0
    ns = n - 1
    s0 = p0 - b                      # the belt's first segment
    zs, os = el.z_start[b], el.out_start[b]
    o_pts = os + 4 * ns
    o_belt = o_pts + 3 * n
    zb = zs + 2 * ns                 # payout, free payout, limiter payout, lock timer
    pull, pull_rate = pull_in_at(el, b, t)
    place_points(data, el, out, p0, p1, o_pts)

    # segments: lengths, rates, tensions, forces on the bodies
    power = 0.0
    prev, prev_body = point_velocities(data, el, out, p0, p0, o_pts, (0.0, 0.0, 0.0))
    for s in range(ns):
        k = p0 + s
        vel, vel_body = point_velocities(data, el, out, k + 1, p0, o_pts, prev)
        ja, jb = o_pts + 3 * s, o_pts + 3 * s + 3
        dx, dy, dz = out[jb] - out[ja], out[jb + 1] - out[ja + 1], out[jb + 2] - out[ja + 2]
        length = _norm(dx, dy, dz)
        ux, uy, uz = 0.0, 0.0, 0.0
        if length > 0.0:
            ux, uy, uz = dx / length, dy / length, dz / length
        rate = ux * (vel[0] - prev[0]) + uy * (vel[1] - prev[1]) + uz * (vel[2] - prev[2])
        webbing = max(z[zs + 2 * s] - (pull if s == 0 else 0.0), 1e-6)
        strain = length / webbing - 1.0
        tension = 0.0
        if strain > 0.0:
            tension = elastic_force(el, s0 + s, strain, max(z[zs + 2 * s + 1], strain))
            fx, fy, fz = tension * ux, tension * uy, tension * uz
            la, lb = el.point_link[k], el.point_link[k + 1]
            rax, ray, raz = point_in_link(data, la, out[ja], out[ja + 1], out[ja + 2])
            rbx, rby, rbz = point_in_link(data, lb, out[jb], out[jb + 1], out[jb + 2])
            power += add_force_pair(data, la, rax, ray, raz, prev_body[0], prev_body[1],
                                    prev_body[2], lb, rbx, rby, rbz, vel_body[0], vel_body[1],
                                    vel_body[2], fx, fy, fz)
        j = os + 4 * s
        out[j], out[j + 1], out[j + 2], out[j + 3] = tension, strain, length, rate
        prev, prev_body = vel, vel_body

    # webbing flow through slip rings and over wraps (capstan friction)
    for s in range(1, ns):
        k = p0 + s
        if el.point_kind[k] == BELT_ANCHOR:
            continue
        j = o_pts + 3 * s
        ax, ay, az = out[j] - out[j - 3], out[j + 1] - out[j - 2], out[j + 2] - out[j - 1]
        bx, by, bz = out[j + 3] - out[j], out[j + 4] - out[j + 1], out[j + 5] - out[j + 2]
        na, nb = _norm(ax, ay, az), _norm(bx, by, bz)
        cos_turn = 1.0
        if na > 0.0 and nb > 0.0:
            cos_turn = min(max((ax * bx + ay * by + az * bz) / (na * nb), -1.0), 1.0)
        ratio = np.exp(el.point_friction[k] * np.arccos(cos_turn))
        f_in, f_out = out[os + 4 * (s - 1)], out[os + 4 * s]
        flow = 0.0                       # webbing moving from segment s into segment s - 1
        if f_in > ratio * f_out:
            flow = (f_in - ratio * f_out) / el.slip_damping[b]
        elif f_out > ratio * f_in:
            flow = -(f_out - ratio * f_in) / el.slip_damping[b]
        zdot[zs + 2 * (s - 1)] += flow
        zdot[zs + 2 * s] -= flow

    # retractor and pretensioner at the first point
    locked = 0.0
    if el.retractor[b]:
        f0 = out[os]
        payout, free, limited, timer = z[zb], z[zb + 1], z[zb + 2], z[zb + 3]
        fired = t >= el.fire_time[b]
        accel = np.sqrt(data.base[9] ** 2 + data.base[10] ** 2)
        sensed = (timer > 0.0 or accel >= el.lock_acceleration[b]
                  or (f0 - el.rewind_force[b]) / el.spool_damping[b] >= el.lock_speed[b])
        if sensed:
            zdot[zb + 3] = 1.0
        is_locked = fired or (sensed and timer >= el.lock_delay[b])
        spool = el.rewind_force[b]
        yielding = False
        if is_locked:
            locked = 1.0
            spool += el.spool_stiffness[b] * max(payout - free - limited, 0.0)
            if spool >= el.load_limit[b]:
                spool, yielding = el.load_limit[b], True
        if el.pretensioner[b] == PRETENSIONER_FORCE and fired and payout > -el.stroke[b]:
            tau = t - el.fire_time[b]
            st, sn = el.pt_start[b], el.pt_len[b]
            if tau <= el.pt_tables[st + sn - 1, 0]:
                spool = max(spool, table_load(el.pt_tables, st, sn, tau))
        speed = (f0 - spool) / el.spool_damping[b]
        zdot[zb] = speed
        zdot[zs] += speed
        if not is_locked:
            zdot[zb + 1] = speed
        elif yielding and speed > 0.0:
            zdot[zb + 2] = speed
    out[o_belt] = z[zb]
    if el.pretensioner[b] == PRETENSIONER_PULL_IN:
        out[o_belt + 1] = pull
    elif el.pretensioner[b] == PRETENSIONER_FORCE:
        out[o_belt + 1] = max(-z[zb], 0.0)
    else:
        out[o_belt + 1] = 0.0
    out[o_belt + 2] = locked

    # the largest strain reached follows the strain while it grows (contact history rule)
    for s in range(ns):
        j = os + 4 * s
        strain, length, rate = out[j + 1], out[j + 2], out[j + 3]
        webbing = max(z[zs + 2 * s] - (pull if s == 0 else 0.0), 1e-6)
        webbing_rate = zdot[zs + 2 * s] - (pull_rate if s == 0 else 0.0)
        strain_rate = (rate - (1.0 + strain) * webbing_rate) / webbing
        if strain > 0.0 and strain >= z[zs + 2 * s + 1] and strain_rate > 0.0:
            zdot[zs + 2 * s + 1] = strain_rate
    return power


@njit(**JIT_STAGE)
def belts(bundle, data, t, q, v, z):
    el = bundle.belts
    power = 0.0
    for b in range(el.retractor.shape[0]):
        power += belt(el, data, t, z, b)
    data.power[POWER_BELTS] = power
