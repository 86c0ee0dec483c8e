"""A seat belt's path (``occupant.restraints.belt``): each segment's length along the belt's path
over its wraps (tangent pieces and arcs, ``path_lengths``) and the direction its tension acts in,
the angle the path turns through at a point (``path_turn``, the capstan angle), and the parts of a
segment's length rate and forces from its carried ends, fading arcs (their fade and their wrap
point's slide, ``_slide_from``, and a barrier's onset, ``_onset_fade``) and its tangent pieces'
couples (``_carried_parts``, ``_fade_parts``, ``_tangent_parts``).
"""
import numpy as np
from numba import njit

from occupant.forces.points import add_point_force
from occupant.jit import JIT_INLINE, JIT_STAGE, call_if
from occupant.model.bundle import BELT_WRAP
from occupant.restraints.belt_points import (
    add_point_share, link_velocity_at, point_in_link, point_velocity,
)
from occupant.restraints.belt_wraps import NO_HOOK
from occupant.restraints.wrap_chain import (
    chained, held_hook, lifted, placed_before, run_length, run_start, same_ellipsoid,
    touching_ends, undeformed_point,
)
from occupant.restraints.wrap_geometry import (
    _norm, _to_base, _to_local, _wrap_plane, arc_point_slide, arc_point_turn, ellipsoid_frame,
    line_fraction, wrap_half,
)

SAME_POINT = 1.0e-12     # m: a segment shorter than this joins two points that coincide (a wrap
                         # that does not touch at the end of its straight piece, to rounding):
                         # it has no direction of its own (``_beside``)
INSIDE_BAND = 0.05       # [E]: a wrap's path to a neighbour counts its arc fully where the
                         # neighbour lies outside the wrap's ellipsoid by this fraction of its
                         # scaled radius, none inside it (``_piece_from``)
ONSET_BAND = 0.05        # [E]: a barrier whose point lies in the next wrap's ellipsoid hands that
                         # wrap's piece over from its path to the fixed point before the barrier
                         # to its chord to the barrier's point as the line between them sinks
                         # this fraction of the barrier's scaled radius into it (``_onset_fade``)

# Helpers compiled as stages, the large ones ``jit.separate``, the small ones linked where LLVM
# inlines them: ``occupant.restraints.belt`` says why.


@njit(**JIT_STAGE)
def path_turn(path, k):
    """The angle (rad) the belt's path turns through at point k (``path``: Data.belt_path,
    ``path_lengths``): between its straight piece reaching k (segment k - 1's) and the one
    leaving it (segment k's). At a wrap it holds the arcs on either side of the point (to the
    tangent points of its neighbours, or to the chord's middle of a run's arc between two wraps
    on one ellipsoid): the wrap's whole turn, which the chords A-P-B cut short (a quarter wrap
    of a ball 0.1 m in radius between pieces of 0.2 and 0.15 m: 76.3 deg between the chords,
    tests/restraints/test_belt_path.py); at a slip ring, the turn between those pieces. The
    capstan angle theta of exp(mu theta) (Euler-Eytelwein: ``flow_terms``)."""
    a0, a1, a2 = path[k - 1, 20], path[k - 1, 21], path[k - 1, 22]
    b0, b1, b2 = path[k, 17], path[k, 18], path[k, 19]
    n = _norm(a0, a1, a2) * _norm(b0, b1, b2)
    if n == 0.0:
        return 0.0
    return np.arccos(min(max((a0 * b0 + a1 * b1 + a2 * b2) / n, -1.0), 1.0))


@njit(**JIT_STAGE)
def _piece_from(data, el, out, z, k, i, n, o_pts, p0):
    """Touching wrap k's path from its point on to point n, the belt coming from point i
    (``wrap_half``): round its ellipsoid in its plane (through the centre, or for a wrap held
    across the belt through i, n and its place, ``wrap_point``), in B0: (length, where it
    leaves the ellipsoid, moved as k's point is by its carrier's travel, and ``keep``), the
    length less the chord to n found on the undeformed ellipsoid (a carried wrap's arc does not
    move with the carrier: its chord does), times ``keep``: 1 where n lies outside k's
    ellipsoid by INSIDE_BAND of its scaled radius, falling to 0 as it comes to its surface and
    inside it (n on an overlapping body, which the belt reaches through the overlap: round k's
    section to n's nearest point the side barrier's shoulder wrap measured 39 mm more than its
    chord to the neck barrier inside the torso, 4.4 kN against 1.7 on main at 65 ms), as
    3 x^2 - 2 x^3 of x = (r - 1) / INSIDE_BAND, r n's scaled radius (its slope 0 at the band's
    ends: linear in x, side_barrier's belt length kinked there, its second difference 0.08 mm
    at 62.7 ms). The fourth value: that product's gradient in n's place from ``keep`` alone
    (B0, ``_fade_parts``). A held wrap's hook being handed over to the line
    (``wrap_chain.held_hook``, its point off the body) counts that weight of its hook's excess,
    measured from the hook's point and its ends as placed (from its own point, off the circle,
    the path stepped as that point passed the far end's tangent point: 8.8 mm in the rig of
    tests/restraints/test_belt_held_wraps.py), and its tangent piece's direction the same part
    (``keep`` times it); the weight's own gradient is left out of the force."""
    j, ji, jn = o_pts + 3 * (k - p0), o_pts + 3 * (i - p0), o_pts + 3 * (n - p0)
    c, E = ellipsoid_frame(data, el, k)
    x, y, w = undeformed_point(data, el, out, k, j)
    x0, y0, w0 = x, y, w
    D = (el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2])
    bx, by, bz = out[jn], out[jn + 1], out[jn + 2]
    if same_ellipsoid(el, k, n):     # n on k's own surface: the arc between their places
        bx, by, bz = undeformed_point(data, el, out, n, jn)
    B = _to_local(c, E, bx, by, bz)
    o, r, hook, normal = (0.0, 0.0, 0.0), 1.0, 1.0, (0.0, 0.0, 0.0)
    if el.point_across[k] > 0.0:
        jz = el.point_z[k]
        A = _to_local(c, E, out[ji], out[ji + 1], out[ji + 2])
        hook, Ph, ha, hb = call_if(el.held, held_hook, NO_HOOK, data, el, out, z, k, o_pts, p0)
        if hook < 1.0:    # a hook handed over to the line: from its hook's point, as placed
            x, y, w = Ph
            if not chained(el, i) or not same_ellipsoid(el, i, k):
                ha = _where_it_lies(data, el, out, i, ji, ha)
                A = _to_local(c, E, ha[0], ha[1], ha[2])
            if not same_ellipsoid(el, k, n):
                bx, by, bz = _where_it_lies(data, el, out, n, jn, hb)
                B = _to_local(c, E, bx, by, bz)
        m, h, r = _wrap_plane((A[0] / D[0], A[1] / D[1], A[2] / D[2]),
                              (B[0] / D[0], B[1] / D[1], B[2] / D[2]),
                              (z[jz], z[jz + 1], z[jz + 2]))
        if r > 0.0:
            o, normal = (h * m[0], h * m[1], h * m[2]), m
        else:
            r = 1.0
    length, t = wrap_half(D, _to_local(c, E, x, y, w), B, o, r, normal)
    tx, ty, tz = _to_base(c, E, t[0], t[1], t[2])
    keep, g = 1.0, (0.0, 0.0, 0.0)
    excess = hook * (length - _norm(bx - x, by - y, bz - w))
    if not same_ellipsoid(el, k, n):
        sr = _norm(B[0] / D[0], B[1] / D[1], B[2] / D[2])
        keep = min(max((sr - 1.0) / INSIDE_BAND, 0.0), 1.0)
        if 0.0 < keep < 1.0:    # the fade's gradient in n's place: excess d(keep)/d(P_n)
            f = excess * 6.0 * keep * (1.0 - keep) / (INSIDE_BAND * sr)
            g = _to_base((0.0, 0.0, 0.0), E, f * B[0] / (D[0] * D[0]), f * B[1] / (D[1] * D[1]),
                         f * B[2] / (D[2] * D[2]))
            keep = keep * keep * (3.0 - 2.0 * keep)   # smooth at the band's ends: no kink
    return keep * excess, (tx + out[j] - x0, ty + out[j + 1] - y0, tz + out[j + 2] - w0), \
        keep * hook, g


@njit(**JIT_STAGE)
def _slide_from(data, el, out, k, x, keep, o_pts, p0, along, g_x, y):
    """The fade's slide term of touching wrap k's piece to point x (``_piece_from``, faded by
    ``keep``): as k's point slides along its arc over the body, the piece (its chord plus keep
    times its excess) changes by (1 - keep) (d|P x| - dh) (h the path round the arc and on to
    x), which the two pieces' arcs alone would cancel (the point the middle of its arc between
    tangent points); (1 - keep) (1 - cos) per unit of slide towards x, cos between the chord to
    x and the arc. Where x is a wrap, its own piece ends at k's point too: the straight piece
    into it (``along``, the path's unit at k's point towards x, faded as x's piece is: the
    chord's where x is no wrap) stands for the chord, and the fade's gradient of x's piece in
    k's place (``g_x``) counts; per unit of slide -along . t + keep u . t - way (1 - keep) |t|
    + g_x . t (u the chord's unit towards y: x, or for a barrier's onset the fixed point before
    it, ``_onset_fade``, whose path round the arc the piece holds by ``keep``). The slide is
    the point's placement's: for a wrap of a run on its shortest path between two points that
    are no wraps (``wrap_chain.place_run``, its points at fractions of one arc),
    ``arc_point_slide``'s from those ends' motion over k's body; a run after a barrier whose
    point lies in the run's ellipsoid is placed from the fixed point before the barrier
    (``wrap_chain.placed_before``), its end there, and x may be the barrier; likewise a run
    before a barrier placed from the fixed point after it (``point_barrier`` -1). Returns (g_a, a,
    g_b, b): the piece's length rate g_a . (v_a - w) + g_b . (v_b - w) (B0; w the body's
    material at the end), a and b the run's ends;
    a = -1 where the wrap is placed otherwise (a chain by Newton on the path's length, a held
    wrap from its place, a carried wrap, a run placed from a barrier's point; not carried) or
    the piece is not faded. Not carried either: the barrier's own slide, which changes its
    piece to k where k's point lies in the barrier's band (1 - its keep, ``_piece_from``)."""
    zero = (0.0, 0.0, 0.0)
    if keep >= 1.0 or not chained(el, k) or el.point_across[k] != 0.0 \
            or el.point_carrier[k] != el.point_link[k]:
        return zero, -1, zero, -1
    r = run_start(el, k)
    m = run_length(el, r)
    a, b = r - 1, r + m
    barrier, barrier_b = -1, -1
    if el.point_barrier[a] > 0.0 and el.point_kind[a - 1] != BELT_WRAP \
            and placed_before(data, el, out, a, o_pts, p0):
        barrier, a = a, a - 1
    if el.point_barrier[b] < 0.0 and el.point_kind[b + 1] != BELT_WRAP \
            and placed_before(data, el, out, b, o_pts, p0):
        barrier_b, b = b, b + 1
    if el.point_kind[a] == BELT_WRAP or el.point_kind[b] == BELT_WRAP \
            or (x != a and x != b and x != barrier and x != barrier_b):
        return zero, -1, zero, -1
    c, E = ellipsoid_frame(data, el, k)
    j, ja, jb, jx = (o_pts + 3 * (k - p0), o_pts + 3 * (a - p0), o_pts + 3 * (b - p0),
                     o_pts + 3 * (y - p0))
    D = (el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2])
    A = _to_local(c, E, out[ja], out[ja + 1], out[ja + 2])
    B = _to_local(c, E, out[jb], out[jb + 1], out[jb + 2])
    P = _to_local(c, E, out[j], out[j + 1], out[j + 2])
    g_a, g_b, t = arc_point_slide(D, A, B, P, (k - r + 1.0) / (m + 1.0))
    n, s_a, s_b = arc_point_turn(D, A, B, P)
    o = (0.0, 0.0, 0.0)
    u = _toward((out[j], out[j + 1], out[j + 2]), (out[jx], out[jx + 1], out[jx + 2]), zero)
    # the piece's change per unit of the point's motion (B0): the straight piece's into x
    # (-along; the chord's, -u, where x is no wrap), keep u of the chord's left, x's fade;
    # along the arc also the path's round it, |t| per unit angle away from a, -|t| towards b
    f = (-along[0] + keep * u[0] + g_x[0], -along[1] + keep * u[1] + g_x[1],
         -along[2] + keep * u[2] + g_x[2])
    f = _to_local(o, E, f[0], f[1], f[2])
    way = 1.0 if x != b and x != barrier_b else -1.0
    ft = f[0] * t[0] + f[1] * t[1] + f[2] * t[2] - way * (1.0 - keep) * _norm(t[0], t[1], t[2])
    fa = f[0] * s_a[0] + f[1] * s_a[1] + f[2] * s_a[2]
    fb = f[0] * s_b[0] + f[1] * s_b[1] + f[2] * s_b[2]
    g_a = _to_base(o, E, ft * g_a[0] + fa * n[0], ft * g_a[1] + fa * n[1], ft * g_a[2] + fa * n[2])
    g_b = _to_base(o, E, ft * g_b[0] + fb * n[0], ft * g_b[1] + fb * n[1], ft * g_b[2] + fb * n[2])
    return g_a, a, g_b, b


@njit(**JIT_STAGE)
def _onset_fade(data, el, out, z, k, n, m, o_pts, p0):
    """Barrier k coming onto its ellipsoid before wrap n (its point in n's ellipsoid,
    ``wrap_chain.placed_before``; m the touching end after n): lifted, the belt runs from the
    fixed point i before it round n's arc (n's piece to i, its excess X over the chord i-n:
    ``_piece_from``); touching, from the barrier's point inside n's ellipsoid, n's piece to it
    its chord alone (keep 0). So n's piece to the barrier also holds (1 - f) X, f = 3 s^2 -
    2 s^3 of s = (1 - rho) / ONSET_BAND, rho the scaled distance from the barrier's centre of
    the line i-n (``wrap_chain.place_barrier`` touches where it is below 1): the belt's length
    as the barrier touches is its lifted one (it stepped by X: 12.6 mm in the rig of
    tests/restraints/test_belt_barrier.py, 1.2-1.3 mm in aeb_precrash_frontal and
    side_barrier; scenarios/HISTORY.md, barrieronset). Returns (E = (1 - f) X, g_i on n's body
    and h_i on the barrier's, both at i, h_n on the barrier's at n (B0: E's gradient in i's
    place on n's body, -X df in i's and n's on the barrier's, ``_fade_parts``), (1 - f) keep
    (X's fade, ``_slide_from``'s keep towards i), 1 - f, and the lifted belt's direction as
    it reaches n (its piece from i, ``path_lengths``): n's arriving direction is blended
    towards it by 1 - f as the length is, so the path's turn at n (``path_turn``, the capstan
    angle) is continuous too (it stepped 19.8 deg in that rig as the barrier touched:
    scenarios/HISTORY.md, capstanonset)); E = 0 and 1 - f = 0 where it does not apply (f = 1).
    A barrier placed from the fixed point after it (``point_barrier`` -1) the same with before
    and after swapped: n the wrap before it, i the fixed point after it, m the touching end
    before n (the lifted belt's direction still from i towards n's tangent point)."""
    zero = (0.0, 0.0, 0.0)
    way = int(el.point_barrier[k])
    i = k - way
    if abs(way) != 1 or n != k + way or el.point_kind[n] != BELT_WRAP \
            or el.point_kind[i] == BELT_WRAP or same_ellipsoid(el, k, n) \
            or not placed_before(data, el, out, k, o_pts, p0):
        return 0.0, zero, zero, zero, 1.0, 0.0, zero
    ji, jn = o_pts + 3 * (i - p0), o_pts + 3 * (n - p0)
    pi, pn = (out[ji], out[ji + 1], out[ji + 2]), (out[jn], out[jn + 1], out[jn + 2])
    c, E = ellipsoid_frame(data, el, k)
    D = (el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2])
    a, b = _to_local(c, E, pi[0], pi[1], pi[2]), _to_local(c, E, pn[0], pn[1], pn[2])
    tau = line_fraction(D, a, b)                       # the line's point nearest the centre
    A = (a[0] / D[0], a[1] / D[1], a[2] / D[2])        # (scaled frame)
    d = (b[0] / D[0] - A[0], b[1] / D[1] - A[1], b[2] / D[2] - A[2])
    L = (A[0] + tau * d[0], A[1] + tau * d[1], A[2] + tau * d[2])
    rho = _norm(L[0], L[1], L[2])
    s = (1.0 - rho) / ONSET_BAND
    if s >= 1.0 or rho == 0.0:
        return 0.0, zero, zero, zero, 1.0, 0.0, zero
    s = max(s, 0.0)
    X, t, keep, g = _piece_from(data, el, out, z, n, m, i, o_pts, p0)
    u3 = _toward(pi, pn, zero)
    u2 = _faded(u3, _toward(pi, t, u3), keep)
    w = 1.0 - s * s * (3.0 - 2.0 * s)
    # X's gradient in i's place (n's point held on its body): -u2 + u3 + g, the lifted
    # segment's -d (``path_lengths``) less its chord's, with X's fade
    g_i = (w * (u3[0] - u2[0] + g[0]), w * (u3[1] - u2[1] + g[1]), w * (u3[2] - u2[2] + g[2]))
    # -X df = X 6 s (1 - s) / ONSET_BAND drho; drho/da = (1 - tau) L / (rho D), /db tau L / ...
    q = X * 6.0 * s * (1.0 - s) / (ONSET_BAND * rho)
    h_i = _to_base(zero, E, q * (1.0 - tau) * L[0] / D[0], q * (1.0 - tau) * L[1] / D[1],
                   q * (1.0 - tau) * L[2] / D[2])
    h_n = _to_base(zero, E, q * tau * L[0] / D[0], q * tau * L[1] / D[1], q * tau * L[2] / D[2])
    return w * X, g_i, h_i, h_n, w * keep, w, u2


@njit(**JIT_INLINE)
def _where_it_lies(data, el, out, e, je, x):
    """A held hook's touching end ``x`` (``held_hook``: B0, as placed, a carried wrap's point
    taken back by its carrier's travel) where the belt meets it: where that end is the
    neighbour e itself, e's point as it lies (output slot je, moved by its carrier's travel), as
    the whole hook's piece counts it (``_piece_from``); else x. Taken as placed, the piece's
    length stepped by its end's travel as the hand-over began: GS1 fitted at mid-clavicle, the
    shoulder wrap's piece to the chest wrap (carried by the sternum) 1.5 mm shorter in one
    0.1 ms sample at 146.7 ms, the shoulder-chest segment 1.24 kN -> 0 (scenarios/HISTORY.md,
    beltslack)."""
    u = undeformed_point(data, el, out, e, je)
    if u[0] == x[0] and u[1] == x[1] and u[2] == x[2]:
        return out[je], out[je + 1], out[je + 2]
    return x


@njit(**JIT_INLINE)
def _toward(x, y, fallback):
    """Unit vector from x to y, or ``fallback`` where they lie within SAME_POINT."""
    d0, d1, d2 = y[0] - x[0], y[1] - x[1], y[2] - x[2]
    n = _norm(d0, d1, d2)
    return (d0 / n, d1 / n, d2 / n) if n >= SAME_POINT else fallback


@njit(**JIT_INLINE)
def _faded(chord, piece, keep):
    """The direction of a tangent piece whose arc is faded by ``keep`` (``_piece_from``): the
    chord's, moved by keep towards the piece's."""
    return (chord[0] + keep * (piece[0] - chord[0]), chord[1] + keep * (piece[1] - chord[1]),
            chord[2] + keep * (piece[2] - chord[2]))


@njit(**JIT_INLINE)
def _couple(t, p, u, keep):
    """The moment (B0, per unit tension) that moves a tangent piece's pull u from its wrap's
    point p to its tangent point t: keep (t - p) x u, ``keep`` the piece's weight (its fade and
    a held wrap's hook, ``_piece_from``), so it comes in as the arc does."""
    r0, r1, r2 = keep * (t[0] - p[0]), keep * (t[1] - p[1]), keep * (t[2] - p[2])
    return (r1 * u[2] - r2 * u[1], r2 * u[0] - r0 * u[2], r0 * u[1] - r1 * u[0])


@njit(**JIT_STAGE)
def path_lengths(data, el, out, path, z, p0, p1, o_pts, os):
    """Each segment's length along the belt's path, into its output, and the direction its
    tension acts in (``path``, by its first point; zero where it has none: ``_beside``).
    Between two points the belt reaches straight from each other (a and b: ``touching_ends``,
    the wraps between them lying on their chord, ``wrap_chain.lifted``) the path is
    h_a + h_b - |P_a P_b|: h of a touching wrap the path from its point (the middle of its
    arc) round its ellipsoid to the other's tangent point and straight on to the other
    (``_piece_from``; h_b not counted again where both wrap one ellipsoid: the arc between
    their places on it, its tension along the chord), of any other point the chord. So the
    belt's summed length is its path's (tangent pieces and arcs) where its wraps lie at their
    arcs' middles between tangent points, and continuous as a wrap starts or stops touching; before, chords from point to point, it stepped as a wrap started to touch
    (GS1 with a barrier on the upper arm: 5.7 mm at 81.6 ms; scenarios/validation/HISTORY.md,
    firsttouch). Its rate is d . (v_b - v_a) for d = u1 + u2 - u3 (units along the straight
    pieces from a's tangent point to P_b and from P_a to b's, and the chord), so the tension
    acts as T d at P_a and -T d at P_b: the force pairs of those three lengths, with each
    tangent point's force moved to its wrap's point on the same body and a couple on that body
    that moves it back to its tangent point (``_tangent_parts``; on a circular section the two
    pieces' couples cancel about its centre). The wraps
    between share a and b's d (no force on them: they do not touch); each segment between
    counts its chord, the first also h_a less the chord a-b, the last h_b less it (a wrap's
    part stays next to it as a wrap between starts to touch: shared in proportion to the
    chords, a barrier's segment from its anchor stepped 9.9 mm as it came onto its sphere,
    tests/restraints/test_belt_barrier.py)."""
    k = p0
    while k < p1 - 1:
        n = k + 1
        while n < p1 - 1 and lifted(data, el, out, n, o_pts, p0, True):
            n += 1
        ja, jb = o_pts + 3 * (k - p0), o_pts + 3 * (n - p0)
        pa = (out[ja], out[ja + 1], out[ja + 2])
        pb = (out[jb], out[jb + 1], out[jb + 2])
        chord = _norm(pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2])
        ea, eb, d = 0.0, 0.0, (0.0, 0.0, 0.0)
        u1 = u2 = u3 = ga = gb = ma = mb = sa = sb = gi = hi = turn_in = turn_out = d
        ia, ib, row, wrap, m, onset_at = -1, -1, k, k, n, k - 1
        if chord >= SAME_POINT:
            u3 = ((pb[0] - pa[0]) / chord, (pb[1] - pa[1]) / chord, (pb[2] - pa[2]) / chord)
            u1, u2 = u3, u3
            keep_a = keep_b = 1.0
            if el.point_kind[k] == BELT_WRAP:
                i = touching_ends(data, el, out, k, 1, o_pts, p0, True)[0]
                ea, ta, keep_a, ga = _piece_from(data, el, out, z, k, i, n, o_pts, p0)
                if not same_ellipsoid(el, k, n):   # else along the chord, on one body
                    u1 = _faded(u3, _toward(ta, pb, u3), keep_a)
                    ma = _couple(ta, pa, u1, keep_a)
            if el.point_kind[n] == BELT_WRAP and not same_ellipsoid(el, k, n):
                m = touching_ends(data, el, out, n, 1, o_pts, p0, True)[1]
                eb, tb, keep_b, gb = _piece_from(data, el, out, z, n, m, k, o_pts, p0)
                u2 = _faded(u3, _toward(pa, tb, u3), keep_b)
                mb = _couple(tb, pb, (-u2[0], -u2[1], -u2[2]), keep_b)
            # a barrier coming onto its ellipsoid: n's piece to it holds its path to the fixed
            # point before it, fading (``_onset_fade``)
            far, far_a = k, n
            if el.point_kind[k] == BELT_WRAP and el.point_kind[n] == BELT_WRAP:
                eo, gi, hi, hn, keep_o, wo, uo = _onset_fade(data, el, out, z, k, n, m, o_pts,
                                                             p0)
                if eo != 0.0:
                    eb += eo
                    ga = (ga[0] + hn[0], ga[1] + hn[1], ga[2] + hn[2])
                    keep_b, far = keep_o, k - 1
                if wo > 0.0:    # the path's direction into n: the lifted one's, fading
                    turn_in = _faded(u2, uo, wo)
                # the mirror: n a barrier placed from the fixed point after it, k's piece to it
                # holding its path to that point (its gradients' rows swapped below)
                if el.point_barrier[n] < 0.0:
                    i = touching_ends(data, el, out, k, 1, o_pts, p0, True)[0]
                    eo, hi, gi, hn, keep_o, wo, uo = _onset_fade(data, el, out, z, n, k, i,
                                                                 o_pts, p0)
                    if eo != 0.0:
                        ea += eo
                        gb = (gb[0] + hn[0], gb[1] + hn[1], gb[2] + hn[2])
                        keep_a, far_a, onset_at = keep_o, n + 1, n + 1
                    if wo > 0.0:    # the path's direction out of k: the lifted one's, fading
                        turn_out = _faded(u1, (-uo[0], -uo[1], -uo[2]), wo)
            # one wrap's slide at most: k's towards n along n's piece (u2), else n's towards
            # k along k's (-u1); each with the other's fade gradient in its place
            if el.point_kind[k] == BELT_WRAP and not same_ellipsoid(el, k, n):
                sa, ia, sb, ib = _slide_from(data, el, out, k, n, keep_a, o_pts, p0, u2, gb,
                                             far_a)
            if ia < 0 and el.point_kind[n] == BELT_WRAP and not same_ellipsoid(el, k, n):
                sa, ia, sb, ib = _slide_from(data, el, out, n, k, keep_b, o_pts, p0,
                                             (-u1[0], -u1[1], -u1[2]), ga, far)
                row, wrap = n - 1, n
            d = (u1[0] + u2[0] - u3[0], u1[1] + u2[1] - u3[1], u1[2] + u2[2] - u3[2])
        # the path's straight piece as it leaves k and as it reaches n (``path_turn``): from a
        # touching wrap's tangent point (u1 at k, u2 at n), else towards the other's (u2 from
        # k, u1 into n); between two wraps on one ellipsoid the chord (u1 = u2 = u3 there);
        # the lifted points between lie on the chord, which neither turns at; into n after a
        # barrier coming on, u2 blended towards the lifted belt's (``_onset_fade``)
        leave = u1 if el.point_kind[k] == BELT_WRAP else u2
        arrive = u2 if el.point_kind[n] == BELT_WRAP else u1
        if turn_in[0] != 0.0 or turn_in[1] != 0.0 or turn_in[2] != 0.0:
            arrive = turn_in
        if turn_out[0] != 0.0 or turn_out[1] != 0.0 or turn_out[2] != 0.0:
            leave = turn_out
        for g in range(k, n):
            jg = o_pts + 3 * (g - p0)
            length = _norm(out[jg + 3] - out[jg], out[jg + 4] - out[jg + 1],
                           out[jg + 5] - out[jg + 2])
            if g == k:
                length += ea
            if g == n - 1:
                length += eb
            out[os + 4 * (g - p0) + 2] = length if length >= SAME_POINT else 0.0
            path[g, 0], path[g, 1], path[g, 2] = d
            for c in range(3, 17):
                path[g, c] = 0.0
            path[g, 17], path[g, 18], path[g, 19] = leave if g == k else u3
            path[g, 20], path[g, 21], path[g, 22] = arrive if g == n - 1 else u3
            for c in range(23, 45):
                path[g, c] = 0.0
        # a carried end: the parts of its tangent piece off the chord (u1 - u3 at a,
        # u2 - u3 at b) act on its geometry's part, whose motion moves them (the wrap found on
        # the undeformed ellipsoid), the rest shared with its carrier (``_carried_parts``)
        if d[0] != 0.0 or d[1] != 0.0 or d[2] != 0.0:
            if el.point_carrier[k] != el.point_link[k]:
                path[k, 3], path[k, 4], path[k, 5] = u1[0] - u3[0], u1[1] - u3[1], u1[2] - u3[2]
            if el.point_carrier[n] != el.point_link[n]:
                path[n - 1, 6], path[n - 1, 7], path[n - 1, 8] = \
                    u2[0] - u3[0], u2[1] - u3[1], u2[2] - u3[2]
        # each touching wrap's tangent piece pulls its body at its tangent point, not at the
        # wrap's point: the couple that moves it there, per unit tension (``_tangent_parts``)
        if d[0] != 0.0 or d[1] != 0.0 or d[2] != 0.0:
            path[k, 23], path[k, 24], path[k, 25] = ma
            path[n - 1, 26], path[n - 1, 27], path[n - 1, 28] = mb
        # a fading arc (``_piece_from``'s keep): its excess's change with the far end's place
        # in the wrap's ellipsoid, between that end's point and the wrap's body (``_fade_parts``)
        if ga[0] != 0.0 or ga[1] != 0.0 or ga[2] != 0.0:
            path[k, 9], path[k, 10], path[k, 11], path[k, 15] = ga[0], ga[1], ga[2], n
        if gb[0] != 0.0 or gb[1] != 0.0 or gb[2] != 0.0:
            path[n - 1, 12], path[n - 1, 13], path[n - 1, 14], path[n - 1, 16] = \
                gb[0], gb[1], gb[2], k
        # a barrier's onset fade at the fixed point before it (``_onset_fade``): on n's body and
        # on the barrier's, on its segment to n (the mirror's, at the fixed point after it: on
        # the barrier n's body and on k's, each on its end's columns)
        if gi[0] != 0.0 or gi[1] != 0.0 or gi[2] != 0.0 or hi[0] != 0.0 or hi[1] != 0.0 \
                or hi[2] != 0.0:
            path[k, 38], path[k, 39], path[k, 40] = gi
            path[k, 41], path[k, 42], path[k, 43], path[k, 44] = hi[0], hi[1], hi[2], onset_at
        # a faded piece's change as its wrap's point slides over the body, with the motion of
        # the ends of that wrap's run over it (``_slide_from``), on the faded piece's segment
        if ia >= 0:
            path[row, 29], path[row, 30], path[row, 31], path[row, 32] = sa[0], sa[1], sa[2], ia
            path[row, 33], path[row, 34], path[row, 35], path[row, 36] = sb[0], sb[1], sb[2], ib
            path[row, 37] = wrap
        k = n


@njit(**JIT_STAGE)
def _moved_to(data, el, out, m, j, link, fx, fy, fz):
    """The force f (B0) moved from belt point m (its place at out[j]) to ``link`` at that
    place: -f on m's carrier and geometry in their shares (``add_point_share``), f on link
    (``_carried_parts``, ``_fade_parts``)."""
    add_point_share(data, el, m, out[j], out[j + 1], out[j + 2], -fx, -fy, -fz)
    rx, ry, rz = point_in_link(data, link, out[j], out[j + 1], out[j + 2])
    add_point_force(data, link, rx, ry, rz, fx, fy, fz)


@njit(**JIT_STAGE)
def _carried_parts(data, el, out, path, s, p0, o_pts, tension, va, vb, apply):
    """Segment s's carried ends (``path_lengths``: ca at its first point a, cb at its last b):
    the length rate they add, -ca . (w_a - v_a) + cb . (w_b - v_b) (w the geometry's part's
    material at the point, v the point's: ``point_velocity``), and with ``apply`` the forces
    T ca at a and -T cb at b moved from the point (carrier and geometry in their shares) to
    the geometry's part; returns (rate, power)."""
    k = p0 + s
    rate, power = 0.0, 0.0
    for end in range(2):
        c0, c1, c2 = path[k, 3 + 3 * end], path[k, 4 + 3 * end], path[k, 5 + 3 * end]
        if c0 == 0.0 and c1 == 0.0 and c2 == 0.0:
            continue
        m, v, sign = (k, va, -1.0) if end == 0 else (k + 1, vb, 1.0)
        j = o_pts + 3 * (m - p0)
        w = link_velocity_at(data, el.point_link[m], out[j], out[j + 1], out[j + 2])
        part = c0 * (w[0] - v[0]) + c1 * (w[1] - v[1]) + c2 * (w[2] - v[2])
        rate += sign * part
        if apply:
            f = -sign * tension
            _moved_to(data, el, out, m, j, el.point_link[m], f * c0, f * c1, f * c2)
            power += f * part
    return rate, power


# the first columns of ``_fade_parts``' six gradient entries in a segment's path row: its ends'
# fades (9, 12), a faded piece's slide at the run's two ends (29, 33), a barrier's onset fade on
# its last and first points' bodies (38, 41)
_FADE_COLUMNS = (9, 12, 29, 33, 38, 41)


@njit(**JIT_STAGE)
def _fade_parts(data, el, out, path, s, p0, o_pts, tension, apply):
    """Segment s's fading arcs (``path_lengths``: the excess of its first point's wrap faded by
    the place of the run's far end m in that wrap's ellipsoid, g at columns 9-11, m at 15; its
    last point's by the run's first, 12-14, 16) and a faded piece's slide (``_slide_from``: its
    wrap at 37, the ends of that wrap's run at 32 and 36, their g at 29-31 and 33-35): the
    length rate g . (v_m - w) (w the wrap's body's material at m; the fade and the slide are
    that body's frame's alone), and a barrier's onset fade (``_onset_fade``: at the fixed
    point before it, 44, on its last point's body, 38-40, and its first's, 41-43), and with
    ``apply`` the forces -T g at m (``add_point_share``) and T g on the wrap's body there;
    returns (rate, power)."""
    k = p0 + s
    rate, power = 0.0, 0.0
    for entry in range(6):
        c = _FADE_COLUMNS[entry]
        g0, g1, g2 = path[k, c], path[k, c + 1], path[k, c + 2]
        if g0 == 0.0 and g1 == 0.0 and g2 == 0.0:
            continue
        if entry < 2:
            m, link = int(path[k, 15 + entry]), el.point_link[k + entry]
        elif entry < 4:
            m, link = int(path[k, c + 3]), el.point_link[int(path[k, 37])]
        else:
            m, link = int(path[k, 44]), el.point_link[k + 5 - entry]
        j = o_pts + 3 * (m - p0)
        v = point_velocity(data, el, out, m, p0, o_pts)
        w = link_velocity_at(data, link, out[j], out[j + 1], out[j + 2])
        rate += g0 * (v[0] - w[0]) + g1 * (v[1] - w[1]) + g2 * (v[2] - w[2])
        if apply:
            f = tension
            _moved_to(data, el, out, m, j, link, f * g0, f * g1, f * g2)
            if el.point_carrier[m] >= 0:
                power -= f * (g0 * v[0] + g1 * v[1] + g2 * v[2])
            if link >= 0:
                power += f * (g0 * w[0] + g1 * w[1] + g2 * w[2])
    return rate, power


@njit(**JIT_STAGE)
def _tangent_parts(data, el, path, s, p0, tension, apply):
    """Segment s's tangent pieces' couples (``path_lengths``: m_a at columns 23-25 on its first
    point's wrap body, m_b at 26-28 on its last's; per unit tension, B0): by the statics of the
    belt's arc, held on its body by the push and the friction across it, its wrench on the body
    is its two ends' pulls T u at their tangent points, whatever path the arc takes, so the
    pull at the wrap's point is moved there by T m. The length rate they add, -m . omega (omega
    the body's angular velocity, B0; the power T m . omega), and with ``apply`` the moments on
    the body; returns (rate, power). On a sphere the two pieces' couples at one wrap cancel."""
    k = p0 + s
    rate, power = 0.0, 0.0
    for end in range(2):
        m0, m1, m2 = path[k, 23 + 3 * end], path[k, 24 + 3 * end], path[k, 25 + 3 * end]
        link = el.point_link[k + end]
        if (m0 == 0.0 and m1 == 0.0 and m2 == 0.0) or link < 0:
            continue
        R = data.R_base_link
        # the moment in the link's axes, R^T m, and the link's angular velocity there
        l0 = R[link, 0, 0] * m0 + R[link, 1, 0] * m1 + R[link, 2, 0] * m2
        l1 = R[link, 0, 1] * m0 + R[link, 1, 1] * m1 + R[link, 2, 1] * m2
        l2 = R[link, 0, 2] * m0 + R[link, 1, 2] * m1 + R[link, 2, 2] * m2
        part = l0 * data.v[link, 0] + l1 * data.v[link, 1] + l2 * data.v[link, 2]
        rate -= part
        if apply:
            data.f_ext[link, 0] += tension * l0
            data.f_ext[link, 1] += tension * l1
            data.f_ext[link, 2] += tension * l2
            power += tension * part
    return rate, power


@njit(**JIT_STAGE)
def _beside(out, os, o_pts, s, ns):
    """Output slots of the ends of the segment nearest segment s of no length (SAME_POINT; the
    first after it, else before it, of the belt's ns) that has one: the direction s's tension
    acts and its length changes in (a segment of no length is merged with its neighbours,
    ``merged``, so that one is in its group). A wrap point that does not touch lies on the
    straight piece of its neighbours (``wrap_chain``), possibly at its end, on a wrap point that
    does touch: there, to rounding, its segment's direction was noise, carrying the full
    tension (GS1 with a barrier on the upper arm: the belt pulled the arm, and its shoulder
    wrap with no push into the shoulder)."""
    for g in range(s + 1, ns):
        if out[os + 4 * g + 2] > 0.0:
            return o_pts + 3 * g, o_pts + 3 * g + 3
    for g in range(s - 1, -1, -1):
        if out[os + 4 * g + 2] > 0.0:
            return o_pts + 3 * g, o_pts + 3 * g + 3
    return o_pts + 3 * s, o_pts + 3 * s + 3
