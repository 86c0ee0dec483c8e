"""Geometry of a belt's wrap over an ellipsoid (``occupant.restraints.belt``): the ellipsoid's
frame in B0, and the wrap between two points in its scaled frame (the unit sphere: an affine map
keeps lines, planes and tangency), its tangent points and the points along its arc."""
import numpy as np
from numba import njit

from occupant.jit import JIT, JIT_INLINE, JIT_STAGE

HOOK_FACING = 0.05  # [E]: a held wrap's hook, where its short way does not wrap, is handed over to
HOOK_RATIO = 0.5    # the line as its place's facing margin q (scaled frame: of the order of the
                    # circle's radius r) falls below HOOK_FACING, or below HOOK_RATIO times the
                    # short way's miss g (rad) where that is less (``hook_weight``): a hook held
                    # round its place's side (q about 2 r) is kept whole down to r = 0.025


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
    return (cx, cy, cz), _product(R, A, l, k)


@njit(**JIT_STAGE)
def _product(R, A, l, k):
    """R[l] A[k], row-major (written out: a function of the entry's indices, called with
    constants, was compiled once for each of the nine)."""
    return (R[l, 0, 0] * A[k, 0, 0] + R[l, 0, 1] * A[k, 1, 0] + R[l, 0, 2] * A[k, 2, 0],
            R[l, 0, 0] * A[k, 0, 1] + R[l, 0, 1] * A[k, 1, 1] + R[l, 0, 2] * A[k, 2, 1],
            R[l, 0, 0] * A[k, 0, 2] + R[l, 0, 1] * A[k, 1, 2] + R[l, 0, 2] * A[k, 2, 2],
            R[l, 1, 0] * A[k, 0, 0] + R[l, 1, 1] * A[k, 1, 0] + R[l, 1, 2] * A[k, 2, 0],
            R[l, 1, 0] * A[k, 0, 1] + R[l, 1, 1] * A[k, 1, 1] + R[l, 1, 2] * A[k, 2, 1],
            R[l, 1, 0] * A[k, 0, 2] + R[l, 1, 1] * A[k, 1, 2] + R[l, 1, 2] * A[k, 2, 2],
            R[l, 2, 0] * A[k, 0, 0] + R[l, 2, 1] * A[k, 1, 0] + R[l, 2, 2] * A[k, 2, 0],
            R[l, 2, 0] * A[k, 0, 1] + R[l, 2, 1] * A[k, 1, 1] + R[l, 2, 2] * A[k, 2, 1],
            R[l, 2, 0] * A[k, 0, 2] + R[l, 2, 1] * A[k, 1, 2] + R[l, 2, 2] * A[k, 2, 2])


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
def _wrap_plane(sa, sb, s):
    """The plane of the wrap in the scaled frame through a, b and the unit vector s (the point's
    place on the sphere): (unit normal, its offset h from the centre, the circle's radius r);
    r = 0 when s is zero or the plane is not defined (a, b, s in line, or touching only at s)."""
    ns = _norm(s[0], s[1], s[2])
    if ns == 0.0:
        return (0.0, 0.0, 0.0), 0.0, 0.0
    d0, d1, d2 = sb[0] - sa[0], sb[1] - sa[1], sb[2] - sa[2]
    w0, w1, w2 = s[0] / ns - sa[0], s[1] / ns - sa[1], s[2] / ns - sa[2]
    n0, n1, n2 = d1 * w2 - d2 * w1, d2 * w0 - d0 * w2, d0 * w1 - d1 * w0
    nn = _norm(n0, n1, n2)
    if nn <= 1e-9 * _norm(d0, d1, d2) * _norm(w0, w1, w2):
        return (0.0, 0.0, 0.0), 0.0, 0.0
    n0, n1, n2 = n0 / nn, n1 / nn, n2 / nn
    h = (n0 * s[0] + n1 * s[1] + n2 * s[2]) / ns
    r = np.sqrt(max(1.0 - h * h, 0.0))
    return (n0, n1, n2), h, (r if r > 1e-6 else 0.0)


@njit(**JIT)
def wrap_point(D, side, a, b, s):
    """The belt point over the ellipsoid of semi-axes D between the neighbours a and b (ellipsoid
    frame): (P (3), active). In the scaled frame, where the ellipsoid is the unit sphere and
    tangency is kept, the belt from a to b wraps the sphere in a plane through a and b, around
    the side ``side`` faces: from the tangent point of a to that of b (in the plane's circle, at
    angles acos(r / |a - o|) and acos(r / |b - o|) from a and b, o and r the circle's centre and
    radius). P is the middle of that wrap. The plane passes through ``s`` (the point's place
    across the belt, a direction in the scaled frame), or with s zero (frictionless) through
    the centre: the belt's shortest path. Not active (the line a-b passes the ellipsoid on that side): P is the
    point of the segment a-b nearest the ellipsoid in the scaled frame."""
    return wrap_arc_point(D, side, a, b, s, 0.5)


@njit(**JIT)
def wrap_arc_point(D, side, a, b, s, frac):
    """``wrap_point``'s wrap, the point at the fraction ``frac`` of its arc from a's tangent
    point (angles in the scaled frame; the way round chosen by the arc's middle): ``_arc``'s
    point and whether it touches."""
    P, active, _ = _arc(D, side, a, b, s, frac, False)
    return P, active


@njit(**JIT)
def held_arc_point(D, side, a, b, s, frac):
    """``wrap_arc_point`` of a wrap held across the belt, its hook handed over to the line as
    its short way does not wrap: (P, active, w), P on the line a-b (``line_point``) moved w of
    the way to ``_arc``'s hooked point (``hook_weight``), active where w > 0 (w 0 where it does
    not touch). Equal to ``wrap_arc_point`` wherever w is 1: the short way, a hook held firmly,
    any wrap not held (s zero)."""
    P, active, w = _arc(D, side, a, b, s, frac, False)
    if not active:
        return P, False, 0.0
    if w < 1.0:
        L = line_point(D, a, b)
        P = (L[0] + w * (P[0] - L[0]), L[1] + w * (P[1] - L[1]), L[2] + w * (P[2] - L[2]))
    return P, w > 0.0, w


@njit(**JIT_INLINE)
def hook_weight(q, g):
    """How much of a held wrap's hook is kept where its short way round does not wrap (``_arc``):
    smooth(x) of x = q / min(HOOK_FACING, HOOK_RATIO g), q how much more its place faces the
    long way's middle than the short way's (0 where the ways tie; the place's part in the plane
    has norm r, the circle's radius, for one wrap), g by how much (rad) the short way misses
    wrapping (0 where the line a-b touches the circle), smooth(y) = 3 y^2 - 2 y^3 on [0, 1]: 1
    where q passes that band (the short way just stops wrapping, or the place lies well round
    the long way), falling to 0 as the ways come to tie, where the point is the line's, as on
    the short way that does not wrap. Kept whole up to the tie, the hook of a circle its plane
    shrank to the place went to the line in one step as the ways tied (GS1's abdomen wrap at
    143.45 ms: the shoulder, chest and abdomen points 21.0, 17.7, 17.1 mm in one 10 us step,
    the shoulder-chest segment 10.8 kN; scenarios/HISTORY.md, abdomenlift and heldhandover).
    Banded by HOOK_RATIO g alone, a hook far round a large circle (the line far from it, g large)
    was handed over too: GS1 fitted at mid-clavicle, its belt over the shoulder's top, let go of
    the shoulder from 125 ms."""
    band = min(HOOK_FACING, HOOK_RATIO * g)
    if q >= band:
        return 1.0
    x = q / band
    return x * x * (3.0 - 2.0 * x)


@njit(**JIT)
def hook_point(D, side, a, b, s, frac):
    """The point of ``wrap_arc_point``'s wrap the long way round (the hook), whichever way its
    place faces: a hook being handed over to the line is placed from it (``place_run``)."""
    return _arc(D, side, a, b, s, frac, True)[0]


@njit(**JIT)
def _arc(D, side, a, b, s, frac, hooked):
    """``wrap_arc_point``'s wrap and point (``hooked``: the long way round whichever way the
    place faces), and the hook's weight (``hook_weight``; 1 but on the long way round a plane
    through a held place whose short way does not wrap).

    A neighbour inside the ellipsoid (a wrap on an overlapping ellipsoid: GS1's chest point
    under the shoulder shell) has no tangent point: a path to it enters the body, least deep
    (in the wrap's plane) through its nearest point on the plane's circle, where the arc ends.
    Where the other neighbour sees that point directly (its angle from it within that
    neighbour's tangent angle), the arc has shrunk to it: the wrap touches there alone, P is
    that point, active (as the arc shrinks to it, and as the neighbour leaves the body)."""
    sa0, sa1, sa2 = a[0] / D[0], a[1] / D[1], a[2] / D[2]
    sb0, sb1, sb2 = b[0] / D[0], b[1] / D[1], b[2] / D[2]
    n, h, r = _wrap_plane((sa0, sa1, sa2), (sb0, sb1, sb2), s)
    placed = r > 0.0
    o0, o1, o2 = 0.0, 0.0, 0.0
    c0, c1, c2 = side[0] * D[0], side[1] * D[1], side[2] * D[2]   # scaled normal direction
    # in the plane's circle, centred and scaled to the unit circle
    if placed:
        o0, o1, o2 = h * n[0], h * n[1], h * n[2]
        sa0, sa1, sa2 = (sa0 - o0) / r, (sa1 - o1) / r, (sa2 - o2) / r
        sb0, sb1, sb2 = (sb0 - o0) / r, (sb1 - o1) / r, (sb2 - o2) / r
        t = c0 * n[0] + c1 * n[1] + c2 * n[2]
        c0, c1, c2 = c0 - t * n[0], c1 - t * n[1], c2 - t * n[2]
    na, nb = _norm(sa0, sa1, sa2), _norm(sb0, sb1, sb2)
    ua0, ua1, ua2 = sa0 / na, sa1 / na, sa2 / na
    cos_ab = min(max((ua0 * sb0 + ua1 * sb1 + ua2 * sb2) / nb, -1.0), 1.0)
    # e: unit vector in the plane, normal to a, towards b (or, with b opposite a, the side)
    e0, e1, e2 = sb0 / nb - cos_ab * ua0, sb1 / nb - cos_ab * ua1, sb2 / nb - cos_ab * ua2
    ne = _norm(e0, e1, e2)
    if ne < 1e-9:
        t = c0 * ua0 + c1 * ua1 + c2 * ua2
        e0, e1, e2 = c0 - t * ua0, c1 - t * ua1, c2 - t * ua2
        ne = _norm(e0, e1, e2)
    e0, e1, e2 = e0 / ne, e1 / ne, e2 / ne
    phi_b = np.arccos(cos_ab)
    alpha_a = np.arccos(min(1.0, 1.0 / max(na, 1.0)))
    alpha_b = np.arccos(min(1.0, 1.0 / max(nb, 1.0)))
    # the middles of the short way round (towards b) and of the long way (away from b): the
    # belt takes the one that faces the side more (a choice that changes only when both face
    # it equally, not when the belt slides past the side direction)
    phi_s = 0.5 * (alpha_a + phi_b - alpha_b)
    phi_l = 0.5 * (alpha_a + 2.0 * np.pi - phi_b - alpha_b)
    cu, ce = c0 * ua0 + c1 * ua1 + c2 * ua2, c0 * e0 + c1 * e1 + c2 * e2
    facing_s = cu * np.cos(phi_s) + ce * np.sin(phi_s)
    facing_l = cu * np.cos(phi_l) - ce * np.sin(phi_l)
    w = 1.0
    if facing_s >= facing_l and not hooked:
        if alpha_a + alpha_b >= phi_b:
            if na >= 1.0 and nb >= 1.0:  # the line passes outside on that side: no wrap
                return line_point(D, a, b), False, 0.0
            phi = phi_b if nb < 1.0 else 0.0  # the inside neighbour's nearest point alone
        else:
            phi = alpha_a + 2.0 * frac * (phi_s - alpha_a)
    else:
        e0, e1, e2 = -e0, -e1, -e2
        phi = alpha_a + 2.0 * frac * (phi_l - alpha_a)
        if placed and na >= 1.0 and nb >= 1.0 and alpha_a + alpha_b > phi_b:
            w = hook_weight(max(facing_l - facing_s, 0.0), alpha_a + alpha_b - phi_b)
    cp, sp = np.cos(phi), np.sin(phi)
    if not placed:
        r = 1.0
    return (D[0] * (o0 + r * (cp * ua0 + sp * e0)), D[1] * (o1 + r * (cp * ua1 + sp * e1)),
            D[2] * (o2 + r * (cp * ua2 + sp * e2))), True, w


@njit(**JIT)
def _scaled_ends(D, a, b, p):
    """(|a_s|, |b_s|, a_s / |a_s|, b_s / |b_s|, p_s): the ends a and b and the point p of a wrap
    in the ellipsoid's scaled frame (x / D, where the ellipsoid is the unit sphere); the units
    (0, 0, 0) where an end is the centre."""
    sa = (a[0] / D[0], a[1] / D[1], a[2] / D[2])
    sb = (b[0] / D[0], b[1] / D[1], b[2] / D[2])
    na, nb = _norm(sa[0], sa[1], sa[2]), _norm(sb[0], sb[1], sb[2])
    ua = (sa[0] / na, sa[1] / na, sa[2] / na) if na > 0.0 else (0.0, 0.0, 0.0)
    ub = (sb[0] / nb, sb[1] / nb, sb[2] / nb) if nb > 0.0 else (0.0, 0.0, 0.0)
    return na, nb, ua, ub, (p[0] / D[0], p[1] / D[1], p[2] / D[2])


@njit(**JIT)
def arc_point_slide(D, a, b, p, frac):
    """How the point p of a wrap on its shortest path (``wrap_arc_point``'s at ``frac`` of its
    arc from a's tangent point to b's, the plane through the centre; ellipsoid frame) slides
    along its arc as a and b move over the body: (g_a, g_b, t), the rate of its angle along the
    arc in the scaled frame, the way the belt runs from a to b, g_a . da + g_b . db (da, db the
    ends' velocities in the ellipsoid frame), and t the point's velocity per unit of that angle
    (ellipsoid frame, along the arc). On the unit circle of the plane (scaled frame) p lies at
    theta_a + alpha_a + frac (theta_b - alpha_b - theta_a - alpha_a), theta an end's angle and
    alpha = acos(1 / |x|) its tangent point's from it (0 inside), the long way round with the
    alphas' signs turned: d theta = e . dx / |x| (e the plane's unit normal to x, the way the
    belt runs), d alpha = x^ . dx / (|x| sqrt(|x|^2 - 1)); an end's motion across the plane
    turns the plane about the other's direction, moving p across its arc alone. All zero where
    the wrap has no arc (the line passes, or the arc has shrunk to an inside end's nearest
    point) or a and b lie in line with the centre."""
    zero = (0.0, 0.0, 0.0)
    na, nb, (ua0, ua1, ua2), (ub0, ub1, ub2), (sp0, sp1, sp2) = _scaled_ends(D, a, b, p)
    if na == 0.0 or nb == 0.0:
        return zero, zero, zero
    cos_ab = min(max(ua0 * ub0 + ua1 * ub1 + ua2 * ub2, -1.0), 1.0)
    e0, e1, e2 = ub0 - cos_ab * ua0, ub1 - cos_ab * ua1, ub2 - cos_ab * ua2
    ne = _norm(e0, e1, e2)
    if ne < 1e-9:
        return zero, zero, zero
    e0, e1, e2 = e0 / ne, e1 / ne, e2 / ne
    phi_b = np.arccos(cos_ab)
    alpha_a = np.arccos(min(1.0, 1.0 / max(na, 1.0)))
    alpha_b = np.arccos(min(1.0, 1.0 / max(nb, 1.0)))
    psi = np.arctan2(sp0 * e0 + sp1 * e1 + sp2 * e2, sp0 * ua0 + sp1 * ua1 + sp2 * ua2)
    if psi < 0.0:
        psi += 2.0 * np.pi
    way = 1.0 if psi < phi_b else -1.0     # the short way (towards b) or the long way round
    if way > 0.0 and alpha_a + alpha_b >= phi_b:
        return zero, zero, zero
    n0, n1, n2 = ua1 * e2 - ua2 * e1, ua2 * e0 - ua0 * e2, ua0 * e1 - ua1 * e0   # ua x e
    f0, f1, f2 = n1 * ub2 - n2 * ub1, n2 * ub0 - n0 * ub2, n0 * ub1 - n1 * ub0   # n x ub
    ta = 1.0 / (na * np.sqrt(na * na - 1.0)) if na > 1.0 else 0.0
    tb = 1.0 / (nb * np.sqrt(nb * nb - 1.0)) if nb > 1.0 else 0.0
    ca, cb = 1.0 - frac, frac
    g_a = (ca * (way * e0 / na + ta * ua0) / D[0], ca * (way * e1 / na + ta * ua1) / D[1],
           ca * (way * e2 / na + ta * ua2) / D[2])
    g_b = (cb * (way * f0 / nb - tb * ub0) / D[0], cb * (way * f1 / nb - tb * ub1) / D[1],
           cb * (way * f2 / nb - tb * ub2) / D[2])
    t = (way * D[0] * (n1 * sp2 - n2 * sp1), way * D[1] * (n2 * sp0 - n0 * sp2),
         way * D[2] * (n0 * sp1 - n1 * sp0))
    return g_a, g_b, t


@njit(**JIT)
def arc_point_turn(D, a, b, p):
    """How the point p of a wrap on its shortest path (``arc_point_slide``'s; ellipsoid frame)
    moves across its arc as a and b move across its plane: (m, s_a, s_b), its motion s_a (m .
    da) + s_b (m . db) (ellipsoid frame). The plane (scaled frame) holds the centre, a and b:
    a's motion along N = a^ x b^ turns it about b^ by -N . da_s / (|a_s| |N|^2), b's about a^ by
    N . db_s / (|b_s| |N|^2), and p (a unit vector there) turns with it, by that angle times
    b^ x p or a^ x p (the tangent angles keep to first order: an end's motion across the plane
    keeps its distance to the centre); m = N / D, s = D times those. All zero where a and b lie
    in line with the centre."""
    zero = (0.0, 0.0, 0.0)
    na, nb, (ua0, ua1, ua2), (ub0, ub1, ub2), (sp0, sp1, sp2) = _scaled_ends(D, a, b, p)
    if na == 0.0 or nb == 0.0:
        return zero, zero, zero
    N0, N1, N2 = ua1 * ub2 - ua2 * ub1, ua2 * ub0 - ua0 * ub2, ua0 * ub1 - ua1 * ub0
    nn = N0 * N0 + N1 * N1 + N2 * N2
    if nn < 1e-18:
        return zero, zero, zero
    fa, fb = -1.0 / (na * nn), 1.0 / (nb * nn)
    s_a = (fa * D[0] * (ub1 * sp2 - ub2 * sp1), fa * D[1] * (ub2 * sp0 - ub0 * sp2),
           fa * D[2] * (ub0 * sp1 - ub1 * sp0))
    s_b = (fb * D[0] * (ua1 * sp2 - ua2 * sp1), fb * D[1] * (ua2 * sp0 - ua0 * sp2),
           fb * D[2] * (ua0 * sp1 - ua1 * sp0))
    return (N0 / D[0], N1 / D[1], N2 / D[2]), s_a, s_b


@njit(**JIT_STAGE)
def _unit(x, y, z):
    n = _norm(x, y, z)
    return (x / n, y / n, z / n) if n > 0.0 else (0.0, 0.0, 0.0)


@njit(**JIT)
def line_point(D, a, b):
    """The point of the segment a-b nearest the centre of the ellipsoid of semi-axes D in its
    scaled frame (ellipsoid frame): where a belt passing the ellipsoid is nearest it."""
    q = line_fraction(D, a, b)
    return a[0] + q * (b[0] - a[0]), a[1] + q * (b[1] - a[1]), a[2] + q * (b[2] - a[2])


@njit(**JIT)
def line_fraction(D, a, b):
    """``line_point``'s fraction of the way from a to b (0 to 1; the same in any frame the
    segment is mapped to by an affine map)."""
    sa0, sa1, sa2 = a[0] / D[0], a[1] / D[1], a[2] / D[2]
    d0, d1, d2 = b[0] / D[0] - sa0, b[1] / D[1] - sa1, b[2] / D[2] - sa2
    dd = d0 * d0 + d1 * d1 + d2 * d2
    return min(max(-(sa0 * d0 + sa1 * d1 + sa2 * d2) / dd, 0.0), 1.0) if dd > 0.0 else 0.0


# Gauss-Legendre nodes and weights on [-1, 1], 8 points (Abramowitz & Stegun 1964, table 25.4)
_GL_X = (-0.9602898564975363, -0.7966664774136267, -0.5255324099163290, -0.1834346424956498,
         0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363)
_GL_W = (0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.3626837833783620,
         0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763)


@njit(**JIT)
def wrap_half(D, p, b, o, r, n):
    """The belt's path from its wrap point p (ellipsoid frame, on the ellipsoid of semi-axes D)
    on to its neighbour b: in the scaled frame (the unit sphere), round the circle of centre o
    and radius r through p (the wrap's plane, which holds b) from p to b's tangent point on p's
    side of b (b inside the circle: its nearest point there, where a path to it enters the
    body least deep, as ``wrap_arc_point``'s), then straight to b; where b sees p directly
    (p within b's tangent angle of b's direction) straight from p. (length, where it leaves
    the ellipsoid): the arc's length in the ellipsoid frame (an ellipse's, a plane section) by
    8-point Gauss-Legendre quadrature over the circle's angle (exact on a sphere: R times the
    angle), plus the straight piece. Continuous as p passes b's tangent point. ``n``: the
    plane's unit normal (scaled frame), or zero where the plane holds p by construction (through
    the centre, p and b); p's angle round the circle is that of its part in the plane. A held
    wrap is placed in its group's plane (``wrap_chain.place_held``) and measured in the one
    through its neighbours (``belt_path._piece_from``): its point lay off this circle, and the
    arc, turned from b's direction towards p's whole offset, ran over a circle tilted out of the
    plane by up to 90 deg as p passed the point opposite b; the 5th female human's lap belt over
    both thigh barriers stepped 8.5 mm (15.2 kN) there, its point 1.7 % of r off the plane
    (scenarios/HISTORY.md, pelvisjump)."""
    q0, q1, q2 = p[0] / D[0] - o[0], p[1] / D[1] - o[1], p[2] / D[2] - o[2]
    qn = q0 * n[0] + q1 * n[1] + q2 * n[2]
    q0, q1, q2 = q0 - qn * n[0], q1 - qn * n[1], q2 - qn * n[2]
    c0, c1, c2 = b[0] / D[0] - o[0], b[1] / D[1] - o[1], b[2] / D[2] - o[2]
    nq, db = _norm(q0, q1, q2), _norm(c0, c1, c2)
    chord = _norm(b[0] - p[0], b[1] - p[1], b[2] - p[2])
    if nq == 0.0 or db == 0.0:
        return chord, (p[0], p[1], p[2])
    q0, q1, q2 = q0 / nq, q1 / nq, q2 / nq
    c0, c1, c2 = c0 / db, c1 / db, c2 / db
    cos_p = q0 * c0 + q1 * c1 + q2 * c2
    w0, w1, w2 = q0 - cos_p * c0, q1 - cos_p * c1, q2 - cos_p * c2
    sin_p = _norm(w0, w1, w2)
    psi = np.arctan2(sin_p, cos_p)                  # p's angle from b's direction
    alpha = np.arccos(min(1.0, r / db))             # the tangent point's
    if psi <= alpha or sin_p == 0.0:
        return chord, (p[0], p[1], p[2])
    w0, w1, w2 = w0 / sin_p, w1 / sin_p, w2 / sin_p
    arc = 0.0
    for i in range(8):
        phi = alpha + 0.5 * (psi - alpha) * (1.0 + _GL_X[i])
        cp, sp = np.cos(phi), np.sin(phi)
        arc += _GL_W[i] * _norm(D[0] * (cp * w0 - sp * c0), D[1] * (cp * w1 - sp * c1),
                                D[2] * (cp * w2 - sp * c2))
    arc *= 0.5 * (psi - alpha) * r
    cp, sp = np.cos(alpha), np.sin(alpha)
    t = (D[0] * (o[0] + r * (cp * c0 + sp * w0)), D[1] * (o[1] + r * (cp * c1 + sp * w1)),
         D[2] * (o[2] + r * (cp * c2 + sp * w2)))
    return arc + _norm(b[0] - t[0], b[1] - t[1], b[2] - t[2]), t
