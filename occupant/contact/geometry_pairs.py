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
import numpy as np
from numba import njit

from occupant.jit import JIT_INLINE
from occupant.forces.points import point_state


@njit(**JIT_INLINE)
def to_base(data, link, x, y, z):
    """The link-frame vector (x, y, z) in B0 coordinates (link -1 is B0)."""
    if link < 0:
        return x, y, z
    R = data.R_base_link
    return (R[link, 0, 0] * x + R[link, 0, 1] * y + R[link, 0, 2] * z,
            R[link, 1, 0] * x + R[link, 1, 1] * y + R[link, 1, 2] * z,
            R[link, 2, 0] * x + R[link, 2, 1] * y + R[link, 2, 2] * z)


@njit(**JIT_INLINE)
def to_link(data, link, x, y, z):
    """The B0 vector (x, y, z) in the link's coordinates."""
    if link < 0:
        return x, y, z
    R = data.R_base_link
    return (R[link, 0, 0] * x + R[link, 1, 0] * y + R[link, 2, 0] * z,
            R[link, 0, 1] * x + R[link, 1, 1] * y + R[link, 2, 1] * z,
            R[link, 0, 2] * x + R[link, 1, 2] * y + R[link, 2, 2] * z)


@njit(**JIT_INLINE)
def point_in_link(data, link, x, y, z):
    """The B0 point (x, y, z) in the link's frame."""
    if link < 0:
        return x, y, z
    p = data.p_base_link
    return to_link(data, link, x - p[link, 0], y - p[link, 1], z - p[link, 2])


@njit(**JIT_INLINE)
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

