"""Contact geometry of the pairs in the compiled step, in closed form over scalars (no allocation).

Ellipsoid-plane (a sphere is an ellipsoid with equal semi-axes): the ellipsoid
{x : (x - c)^T G A^-2 G^T (x - c) <= 1}, G its axes in B0 and A = diag(a, b, c), has support
function h(m) = sqrt(m^T G A^2 G^T m) and support point c + G A^2 G^T m / h(m) in the unit
direction m (Lagrange condition for the maximum of m.x on the surface). Its deepest point below
the plane (point p0, unit normal n) is the support point s along -n, the penetration
d = n.(p0 - s) = h(-n) - n.(c - p0) (negative: the gap), and the contact point is taken midway
between s and its projection on the plane, s + d/2 n. The exact penetration rate is
d' = n.(v_plane(s) - v_ellipsoid(s)) with both bodies' material velocities at s (the envelope
theorem removes the motion of s over the surface).
"""
from collections import namedtuple

import numpy as np
from numba import njit

from occupant.jit import JIT_INLINE, JIT_STAGE, nonliteral
from occupant.forces.points import point_state

# The pair fields the geometry routines read (``bundle.ContactBlock``'s names): what every caller
# hands them, so that each routine is compiled once for all of them, not once per block type.
PairGeometry = namedtuple("PairGeometry", ["link_a", "R_a", "p_a", "size_a", "link_b", "R_b",
                                           "p_b", "size_b"])
# The tuple of a pair's geometry routine (``ellipsoid_plane``) where no contact is found.
NO_CONTACT = (-np.inf, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, False)


@njit(**JIT_STAGE)
def to_base(data, link, x, y, z):
    """The link-frame vector (x, y, z) in B0 coordinates (link -1 is B0)."""
    if link < 0:
        return x, y, z
    R = data.R_base_link
    return (R[link, 0, 0] * x + R[link, 0, 1] * y + R[link, 0, 2] * z,
            R[link, 1, 0] * x + R[link, 1, 1] * y + R[link, 1, 2] * z,
            R[link, 2, 0] * x + R[link, 2, 1] * y + R[link, 2, 2] * z)


@njit(**JIT_STAGE)
def to_link(data, link, x, y, z):
    """The B0 vector (x, y, z) in the link's coordinates."""
    if link < 0:
        return x, y, z
    R = data.R_base_link
    return (R[link, 0, 0] * x + R[link, 1, 0] * y + R[link, 2, 0] * z,
            R[link, 0, 1] * x + R[link, 1, 1] * y + R[link, 2, 1] * z,
            R[link, 0, 2] * x + R[link, 1, 2] * y + R[link, 2, 2] * z)


@njit(**JIT_STAGE)
def point_in_link(data, link, x, y, z):
    """The B0 point (x, y, z) in the link's frame."""
    if link < 0:
        return x, y, z
    p = data.p_base_link
    return to_link(data, link, x - p[link, 0], y - p[link, 1], z - p[link, 2])


@njit(**JIT_STAGE)
def ellipsoid_plane(data, el, e):
    """Pair e of the contact block: (d, d', n (3), contact point (3), inside) in B0, ``inside``
    False when the contact point falls outside the plane's rectangle."""
    la, lb = el.link_a[e], el.link_b[e]
    R_a, R_b = el.R_a, el.R_b
    nx, ny, nz = to_base(data, lb, R_b[e, 0, 2], R_b[e, 1, 2], R_b[e, 2, 2])
    p0x, p0y, p0z, _, _, _ = point_state(data, lb, el.p_b[e, 0], el.p_b[e, 1], el.p_b[e, 2])
    # -n in the ellipsoid axes: m = G^T (-n), G = R_link R_a
    tx, ty, tz = to_link(data, la, -nx, -ny, -nz)
    m0 = R_a[e, 0, 0] * tx + R_a[e, 1, 0] * ty + R_a[e, 2, 0] * tz
    m1 = R_a[e, 0, 1] * tx + R_a[e, 1, 1] * ty + R_a[e, 2, 1] * tz
    m2 = R_a[e, 0, 2] * tx + R_a[e, 1, 2] * ty + R_a[e, 2, 2] * tz
    a0, a1, a2 = el.size_a[e, 0] ** 2, el.size_a[e, 1] ** 2, el.size_a[e, 2] ** 2
    h = np.sqrt(a0 * m0 * m0 + a1 * m1 * m1 + a2 * m2 * m2)
    g0, g1, g2 = a0 * m0 / h, a1 * m1 / h, a2 * m2 / h         # support point, ellipsoid axes
    rx = el.p_a[e, 0] + R_a[e, 0, 0] * g0 + R_a[e, 0, 1] * g1 + R_a[e, 0, 2] * g2
    ry = el.p_a[e, 1] + R_a[e, 1, 0] * g0 + R_a[e, 1, 1] * g1 + R_a[e, 1, 2] * g2
    rz = el.p_a[e, 2] + R_a[e, 2, 0] * g0 + R_a[e, 2, 1] * g1 + R_a[e, 2, 2] * g2
    sx, sy, sz, vax, vay, vaz = point_state(data, la, rx, ry, rz)
    bx, by, bz = point_in_link(data, lb, sx, sy, sz)
    _, _, _, vbx, vby, vbz = point_state(data, lb, bx, by, bz)
    d = nx * (p0x - sx) + ny * (p0y - sy) + nz * (p0z - sz)
    d_rate = nx * (vbx - vax) + ny * (vby - vay) + nz * (vbz - vaz)
    cx, cy, cz = sx + 0.5 * d * nx, sy + 0.5 * d * ny, sz + 0.5 * d * nz
    inside = True
    for axis in range(2):
        half = el.size_b[e, axis]
        if np.isfinite(half):
            ux, uy, uz = to_base(data, lb, R_b[e, 0, axis], R_b[e, 1, axis], R_b[e, 2, axis])
            if abs(ux * (cx - p0x) + uy * (cy - p0y) + uz * (cz - p0z)) > half:
                inside = False
    return d, d_rate, nx, ny, nz, cx, cy, cz, inside


@njit(**JIT_STAGE)
def _axes_in_base(data, link, R, e, j):
    """Axis j of the geometry of pair e (column j of R[e], link frame) in B0."""
    return to_base(data, link, R[e, 0, j], R[e, 1, j], R[e, 2, j])


@njit(**JIT_STAGE)
def _quad(a2, g, x0, x1, x2, y0, y1, y2):
    """x^T Q y, Q = sum_j a_j^2 g_j g_j^T (g the axes in B0, a2 the squared semi-axes)."""
    s = 0.0
    for j in range(3):
        s += a2[j] * (g[j][0] * x0 + g[j][1] * x1 + g[j][2] * x2) * \
            (g[j][0] * y0 + g[j][1] * y1 + g[j][2] * y2)
    return s


@njit(**JIT_STAGE)
def _q_times(a2, g, x0, x1, x2):
    """Q x."""
    y0 = y1 = y2 = 0.0
    for j in range(3):
        c = a2[j] * (g[j][0] * x0 + g[j][1] * x1 + g[j][2] * x2)
        y0 += c * g[j][0]
        y1 += c * g[j][1]
        y2 += c * g[j][2]
    return y0, y1, y2


# At most this many Newton iterations. From the centre-to-centre direction they converged to
# rounding within 11 in 2000 random poses of the test ellipsoids (semi-axes 0.04-0.12 m, centres
# 0-0.3 m apart), and to the global minimum (against 10^5 sampled directions) in 399 of 400: the
# exception, a local minimum 2 mm above, at a penetration of 0.1 m, twice the thinnest semi-axes.
NEWTON_ITERATIONS = 16


@njit(**JIT_INLINE)
def unit_normal_basis(m0, m1, m2):
    """Two unit vectors (t, u) completing the unit vector m to a right-handed orthonormal basis
    (t normal to the coordinate axis m leans on least, u = m x t): the tangent plane of the unit
    sphere at m, or the plane normal to an axis m."""
    if abs(m0) < 0.6:
        tx, ty, tz = 0.0, m2, -m1
    else:
        tx, ty, tz = -m2, 0.0, m0
    tn = np.sqrt(tx * tx + ty * ty + tz * tz)
    tx, ty, tz = tx / tn, ty / tn, tz / tn
    return tx, ty, tz, m1 * tz - m2 * ty, m2 * tx - m0 * tz, m0 * ty - m1 * tx


@njit(**JIT_STAGE)
def sphere_newton_step(m0, m1, m2, tx, ty, tz, ux, uy, uz, r0, r1, h00, h11, h01):
    """One damped Newton step for a direction m on the unit sphere, in the tangent basis (t, u):
    gradient (r0, r1), Hessian [[h00, h01], [h01, h11]] shifted until its lowest eigenvalue
    is at least 1e-3 of its scale (positive definite), the step clipped to 0.5 rad, m
    renormalised. Returns (m0, m1, m2, step length)."""
    mean, half = 0.5 * (h00 + h11), np.sqrt(0.25 * (h00 - h11) ** 2 + h01 * h01)
    floor = 1e-3 * (abs(mean) + half) + 1e-300
    shift = max(0.0, floor - (mean - half))
    h00 += shift
    h11 += shift
    det = h00 * h11 - h01 * h01
    x0 = -(h11 * r0 - h01 * r1) / det
    x1 = -(h00 * r1 - h01 * r0) / det
    step = np.sqrt(x0 * x0 + x1 * x1)
    if step > 0.5:
        x0, x1 = 0.5 * x0 / step, 0.5 * x1 / step
    m0, m1, m2 = m0 + x0 * tx + x1 * ux, m1 + x0 * ty + x1 * uy, m2 + x0 * tz + x1 * uz
    mn = np.sqrt(m0 * m0 + m1 * m1 + m2 * m2)
    return m0 / mn, m1 / mn, m2 / mn, step


@njit(**JIT_STAGE)
def ellipsoid_ellipsoid(data, el, e):
    """Pair e, two ellipsoids: ``ellipsoid_overlap`` from the centre-to-centre direction."""
    return ellipsoid_overlap(data, el, e, nonliteral(False))


@njit(**JIT_STAGE)
def ellipsoid_in_bag(data, el, e):
    """Pair e, a body (a) in a bag (b) that it entered through the bag's front, the face on its
    geometry's +x axis (``modeling.airbags``: the bag's centre on that axis from its mount, its
    front towards the occupant): ``ellipsoid_overlap`` from the centre-to-centre direction
    mirrored about the bag's mid-plane once the body's centre is past it. From the plain
    centre-to-centre start, a body whose centre has passed the bag's centre converges to the
    overlap through the bag's back, and is pushed on through the bag towards its mount (seen: the
    Hybrid III's head in us_ncap_frontal_56 at 245 mm, its neck tension jumping 1.36 -> 2.56 kN
    in 0.1 ms); mirrored, it keeps the overlap through the front it came in by. A body whose
    centre lies behind the bag's back (its mount, a steering wheel's face) did not come in by the
    front and is not mirrored: mirrored it was pushed through the whole bag from behind (seen:
    the US NCAP driver's left hand, swung round the wheel's rim and back inboard behind it, 68 mm
    clear of the bag, then 520 mm into it in 0.1 ms at 1e11 N; scenarios/HISTORY.md,
    lapfriction)."""
    return ellipsoid_overlap(data, el, e, nonliteral(True))


@njit(**JIT_INLINE)
def ellipsoid_overlap(data, el, e, entered):
    """Pair e, two ellipsoids: the overlap along a unit direction m (from a to b),
    f(m) = h_a(m) + h_b(-m) - m.(c_b - c_a), h the support functions, is minimal over m at the
    penetration depth (the minimum translation distance; minus the distance when apart, by the
    separating-axis duality of convex sets). It is minimised by Riemannian Newton iterations on
    the unit sphere (at most NEWTON_ITERATIONS, from the centre-to-centre direction, ``entered``:
    mirrored as ``ellipsoid_in_bag`` says; the Hessian
    shifted to stay positive-definite and the step limited to 0.5 rad); a local method, so deep
    interpenetrations (comparable to the semi-axes) may stop at a local minimum. Returns (d, d', n, contact
    point, True) as ``ellipsoid_plane``, with n = -m the direction the force on a acts along,
    the contact point midway between the deepest points s_a and s_b, and
    d' = m.(v_a(s_a) - v_b(s_b)) (the envelope theorem at the optimum)."""
    la, lb = el.link_a[e], el.link_b[e]
    # the columns as plain ints: one compiled _axes_in_base, not one per constant
    c0, c1, c2 = nonliteral(0), nonliteral(1), nonliteral(2)
    ga = (_axes_in_base(data, la, el.R_a, e, c0), _axes_in_base(data, la, el.R_a, e, c1),
          _axes_in_base(data, la, el.R_a, e, c2))
    gb = (_axes_in_base(data, lb, el.R_b, e, c0), _axes_in_base(data, lb, el.R_b, e, c1),
          _axes_in_base(data, lb, el.R_b, e, c2))
    a2 = (el.size_a[e, 0] ** 2, el.size_a[e, 1] ** 2, el.size_a[e, 2] ** 2)
    b2 = (el.size_b[e, 0] ** 2, el.size_b[e, 1] ** 2, el.size_b[e, 2] ** 2)
    cax, cay, caz, _, _, _ = point_state(data, la, el.p_a[e, 0], el.p_a[e, 1], el.p_a[e, 2])
    cbx, cby, cbz, _, _, _ = point_state(data, lb, el.p_b[e, 0], el.p_b[e, 1], el.p_b[e, 2])
    cx, cy, cz = cbx - cax, cby - cay, cbz - caz
    norm = np.sqrt(cx * cx + cy * cy + cz * cz)
    if norm > 0.0:
        m0, m1, m2 = cx / norm, cy / norm, cz / norm
    else:
        m0, m1, m2 = 0.0, 0.0, 1.0
    if entered:   # b's +x axis points out of its front: a centre past b's mid-plane, mirrored
        s = m0 * gb[0][0] + m1 * gb[0][1] + m2 * gb[0][2]
        if s > 0.0 and norm * s < el.size_b[e, 0]:     # and not behind b's back
            m0, m1, m2 = m0 - 2.0 * s * gb[0][0], m1 - 2.0 * s * gb[0][1], m2 - 2.0 * s * gb[0][2]
    for _ in range(NEWTON_ITERATIONS):
        ha = np.sqrt(_quad(a2, ga, m0, m1, m2, m0, m1, m2))
        hb = np.sqrt(_quad(b2, gb, m0, m1, m2, m0, m1, m2))
        qa0, qa1, qa2 = _q_times(a2, ga, m0, m1, m2)
        qb0, qb1, qb2 = _q_times(b2, gb, m0, m1, m2)
        g0 = qa0 / ha + qb0 / hb - cx          # Euclidean gradient of f
        g1 = qa1 / ha + qb1 / hb - cy
        g2 = qa2 / ha + qb2 / hb - cz
        gn = g0 * m0 + g1 * m1 + g2 * m2
        tx, ty, tz, ux, uy, uz = unit_normal_basis(m0, m1, m2)   # tangent basis t, u at m
        r0 = g0 * tx + g1 * ty + g2 * tz        # Riemannian gradient
        r1 = g0 * ux + g1 * uy + g2 * uz
        # Riemannian Hessian t^T (H - (m.g) I) t, H = sum Q/h - (Q m)(Q m)^T / h^3
        qat, qau = qa0 * tx + qa1 * ty + qa2 * tz, qa0 * ux + qa1 * uy + qa2 * uz
        qbt, qbu = qb0 * tx + qb1 * ty + qb2 * tz, qb0 * ux + qb1 * uy + qb2 * uz
        h00 = (_quad(a2, ga, tx, ty, tz, tx, ty, tz) / ha - qat * qat / ha**3
               + _quad(b2, gb, tx, ty, tz, tx, ty, tz) / hb - qbt * qbt / hb**3 - gn)
        h11 = (_quad(a2, ga, ux, uy, uz, ux, uy, uz) / ha - qau * qau / ha**3
               + _quad(b2, gb, ux, uy, uz, ux, uy, uz) / hb - qbu * qbu / hb**3 - gn)
        h01 = (_quad(a2, ga, tx, ty, tz, ux, uy, uz) / ha - qat * qau / ha**3
               + _quad(b2, gb, tx, ty, tz, ux, uy, uz) / hb - qbt * qbu / hb**3)
        m0, m1, m2, step = sphere_newton_step(m0, m1, m2, tx, ty, tz, ux, uy, uz, r0, r1,
                                              h00, h11, h01)
        if step < 1e-12:   # converged (quadratically: the next step would be below rounding)
            break
    ha = np.sqrt(_quad(a2, ga, m0, m1, m2, m0, m1, m2))
    hb = np.sqrt(_quad(b2, gb, m0, m1, m2, m0, m1, m2))
    qa0, qa1, qa2 = _q_times(a2, ga, m0, m1, m2)
    qb0, qb1, qb2 = _q_times(b2, gb, m0, m1, m2)
    sax, say, saz = cax + qa0 / ha, cay + qa1 / ha, caz + qa2 / ha      # deepest of a along m
    sbx, sby, sbz = cbx - qb0 / hb, cby - qb1 / hb, cbz - qb2 / hb      # deepest of b along -m
    d = ha + hb - (m0 * cx + m1 * cy + m2 * cz)
    rx, ry, rz = point_in_link(data, la, sax, say, saz)
    _, _, _, vax, vay, vaz = point_state(data, la, rx, ry, rz)
    rx, ry, rz = point_in_link(data, lb, sbx, sby, sbz)
    _, _, _, vbx, vby, vbz = point_state(data, lb, rx, ry, rz)
    d_rate = m0 * (vax - vbx) + m1 * (vay - vby) + m2 * (vaz - vbz)
    return (d, d_rate, -m0, -m1, -m2, 0.5 * (sax + sbx), 0.5 * (say + sby), 0.5 * (saz + sbz),
            True)
