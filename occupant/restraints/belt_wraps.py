"""The states of a seat belt's wrap points (``occupant.restraints.belt``): each wrap's place on
its body (``wrap_slide``: following the point, or held across the belt by friction and sliding
beyond it, kept to its flank, ``flank_bound``), how far the point lies ahead of its place along
the belt (``wrap_lag``) and how fast it moves over its body along the belt (``wrap_drift``).
"""
from numba import njit

from occupant.jit import JIT_INLINE, JIT_STAGE, call_if
from occupant.model.bundle import BELT_WRAP
from occupant.restraints.wrap_chain import (
    TOUCHING, carried_travel, held_end, held_group, held_hook, lifted, run_way, touching_ends,
    undeformed_point,
)
from occupant.restraints.wrap_geometry import (
    _norm, _to_local, _unit, _wrap_plane, ellipsoid_frame, wrap_arc_point,
)

NO_HOOK = (1.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))   # ``held_hook`` not compiled
WRAP_FOLLOW = 1.0e-3     # s [E]: time constant with which a held wrap's place follows its point
                         # (the middle of the wrap) within the wrap's plane, and off the body
SIDE_BAND = 0.05         # [E]: a barrier's place (unit, scaled frame) this near the plane of its
                         # declared side nears it ever slower while its piece enters its
                         # ellipsoid, not crossing it (``_kept_on_its_side``)
TILT_PROBE = 1.0e-7      # scaled: the step across the belt by which ``flank_bound`` tries how the
                         # point's height follows the place (as ``_held_slide``'s |h|)

# Helpers compiled as stages, the large ones ``jit.separate``, the small ones linked where LLVM
# inlines them: ``occupant.restraints.belt`` says why.


@njit(**JIT_STAGE)
def _held_slide(data, el, out, z, k, j, o_pts, p0, c, E, P, u, f_in, f_out, damping, r):
    """``wrap_slide``'s rate ``r`` of the place of wrap k held across the belt, with its slide
    towards the shortest path where the belt's pull across itself exceeds the friction (``c``,
    ``E``: its ellipsoid's frame; ``P`` the point, ``u`` the place in it). The belt's plane is
    the one the wrap is placed in, through its ``touching_ends``: through the points beside it,
    a neighbour that does not touch (on the straight piece to the touching end, ending at this
    wrap's point, not at its tangent point) gave another plane, in which the slide that lowered
    |h| raised the placed plane's (GS1 at mid-clavicle, the chest wrap beside the lifted
    shoulder wrap, 115-129 ms: +2 to +7 /s): its circle shrank from r 0.45 to 0.01 and the
    belt went the long way round it until the wraps lifted off together (19.6 kN). A wrap held
    beside another held on the same ellipsoid is placed with it, in the plane through its place
    and the touching ends of their group (``wrap_chain.held_group``, ``place_held``): judged in
    the plane through its neighbour's point instead, the slide was not the placed plane's, a
    place within the friction there slid on and raised its |h| (tests/restraints/
    test_belt_held_wraps.py), and held across (``across``) the shoulder and chest wraps of the
    frontal scenarios drew together, the piece between them 72 -> 31 mm at 80 ms and
    chattering 0 <-> 32 kN from one sample to the next (us_ncap_frontal_56; scenarios/HISTORY.md,
    torsoheld). Sliding the way |h| rises (``_slides_up``), and either way for a wrap of a held
    group of more than one, the excess is at most the belt's own pull that way through the
    points beside it (``_pull_along``; none where it pulls back): the way |h| rises the wrap's
    own plane's path from its touching ends shortens, but a wrap of a held group whose
    neighbours on the same body stayed rose past them and lengthened the belt, the tension and
    with it the slide growing (US NCAP with the carpet's friction 1.0: the lap belt's middle
    wrap over the pelvis's crown against a pull of -2.6 kN, 77.7 kN at 84 ms;
    scenarios/HISTORY.md, lapblowup); the way |h| falls, over the near side, a group's wrap
    placed in the plane through the group's ends, its neighbours further across, slid away
    from them against the belt's pull (tests/restraints/test_belt_held_wraps.py; heldacross2).
    A wrap held alone is placed in the plane through its own neighbours, whose |h| / r is its
    belt's pull across over its push (tests/restraints/test_belt_flank.py): the way |h| falls
    it is not bounded, its chords from its middle to neighbours off the body (anchors behind
    a sphere) running through the body, not along the belt where it leaves it (bounded, that
    single wrap stayed 70 deg up). A wrap whose neighbours lie in its plane is pulled the way
    |h| rises by N |h| / r over its chords, more than the excess: no bound there."""
    mu = el.point_across[k]
    u0, u1, u2 = u
    r0, r1, r2 = r
    D0, D1, D2 = el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2]
    a0, a1, a2 = _unit(out[j - 3] - out[j], out[j - 2] - out[j + 1], out[j - 1] - out[j + 2])
    b0, b1, b2 = _unit(out[j + 3] - out[j], out[j + 4] - out[j + 1], out[j + 5] - out[j + 2])
    m0, m1, m2 = P[0] / (D0 * D0), P[1] / (D1 * D1), P[2] / (D2 * D2)   # outward normal
    n0, n1, n2 = _unit(E[0] * m0 + E[1] * m1 + E[2] * m2, E[3] * m0 + E[4] * m1 + E[5] * m2,
                       E[6] * m0 + E[7] * m1 + E[8] * m2)
    normal = -((f_in * a0 + f_out * b0) * n0 + (f_in * a1 + f_out * b1) * n1
               + (f_in * a2 + f_out * b2) * n2)
    g, mg = held_group(el, k)
    first = g
    i, m = touching_ends(data, el, out, g, mg, o_pts, p0, True)
    ja, jb = o_pts + 3 * (i - p0), o_pts + 3 * (m - p0)
    a = held_end(data, el, out, z, i, -1, (out[ja], out[ja + 1], out[ja + 2]), o_pts, p0, True)
    b = held_end(data, el, out, z, m, 1, (out[jb], out[jb + 1], out[jb + 2]), o_pts, p0, True)
    A, B = _to_local(c, E, a[0], a[1], a[2]), _to_local(c, E, b[0], b[1], b[2])
    n, h, r = _wrap_plane((A[0] / D0, A[1] / D1, A[2] / D2),
                          (B[0] / D0, B[1] / D1, B[2] / D2), (u0, u1, u2))
    excess = normal * (abs(h) / r - mu) if r > 0.0 and normal > 0.0 else 0.0
    if excess > 0.0:
        # across the belt (the plane normal's part in the surface) towards the shortest
        # path on the wrap's side: the way |h| falls (tried a step of 1e-7 along it), or rises
        # where the place has passed to the other side or the belt is hooked (``_slides_up``)
        hu = n[0] * u0 + n[1] * u1 + n[2] * u2
        t0, t1, t2 = n[0] - hu * u0, n[1] - hu * u1, n[2] - hu * u2
        _, h2, _ = _wrap_plane((A[0] / D0, A[1] / D1, A[2] / D2),
                               (B[0] / D0, B[1] / D1, B[2] / D2),
                               (u0 + 1e-7 * t0, u1 + 1e-7 * t1, u2 + 1e-7 * t2))
        g = 1.0 if abs(h2) < abs(h) else -1.0
        up = _slides_up(el, k, A, B, u)
        if up:
            g = -g
        d0, d1, d2 = _unit(g * D0 * t0, g * D1 * t1, g * D2 * t2)
        if up or mg > 1:   # no faster than the belt's own pull that way, through its neighbours
            excess = min(excess, max(_pull_along(E, f_in, f_out, (a0, a1, a2), (b0, b1, b2),
                                                 (d0, d1, d2)), 0.0))
        v = excess / damping
        r0, r1, r2 = r0 + v * d0 / D0, r1 + v * d1 / D1, r2 + v * d2 / D2
    shift = (0.0, 0.0, 0.0)
    if el.point_carrier[k] != el.point_link[k]:     # the point as it lies: moved by its carrier
        dx, dy, dz = carried_travel(data, el, k)
        shift = _to_local(c, E, c[0] + dx, c[1] + dy, c[2] + dz)
    return flank_bound(el, k, u, (r0, r1, r2), A, B, run_way(el, z, first, mg),
                       (k - first + 1.0) / (mg + 1.0),
                       (P[0] + shift[0], P[1] + shift[1], P[2] + shift[2]))


@njit(**JIT_INLINE)
def _pull_along(E, f_in, f_out, a, b, d):
    """The belt's pull on a wrap point along the direction d (ellipsoid frame, unit): the
    tensions f_in and f_out along the unit vectors a and b (B0) to the points before and after
    it, their sum taken along d in B0 (E the ellipsoid's axes)."""
    e0 = E[0] * d[0] + E[1] * d[1] + E[2] * d[2]
    e1 = E[3] * d[0] + E[4] * d[1] + E[5] * d[2]
    e2 = E[6] * d[0] + E[7] * d[1] + E[8] * d[2]
    return ((f_in * a[0] + f_out * b[0]) * e0 + (f_in * a[1] + f_out * b[1]) * e1
            + (f_in * a[2] + f_out * b[2]) * e2)


@njit(**JIT_STAGE)
def _slides_up(el, k, A, B, u):
    """Whether held wrap k's place u (unit sphere of the scaled frame; neighbours A and B in the
    ellipsoid frame) slides the way |h| rises: where the line A-B passes outside the ellipsoid
    (a touching wrap is hooked round it, the long way: its path shortens as its plane turns
    towards touching the ellipsoid, where it lifts off; towards h = 0 it lengthened, round the
    far side: GS1 at mid-clavicle, the chest wrap over the thorax's top once the belt had left
    the shoulder, 72 kN), or where the place lies past the smallest circle of its belt's planes,
    on the other side from the one the wrap declares (``Wrap.side``). Every plane of the belt
    passes through the line A-B; where the line passes through the ellipsoid, the planes' circles shrink from the great
    circle's half on one side of the line (through the centre) to the smallest (the plane
    normal to the centre's offset w from the line) and grow to the other half. The shortest
    path on the declared side, the held wrap's rest across the belt, is the half on that side;
    |h| falls towards either half, so a place that passed the smallest circle (the body turning
    under it while the belt was slack) slid round the other half: GS1's shoulder belt, fitted
    on the front of the shoulder shell, round its back and through the thorax (597 -> 729 mm
    from the anchorage to the chest in 4 ms, 24 kN). There the place slides the way |h|
    rises, back over the smallest circle."""
    D0, D1, D2 = el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2]
    sa0, sa1, sa2 = A[0] / D0, A[1] / D1, A[2] / D2
    d0, d1, d2 = _unit(B[0] / D0 - sa0, B[1] / D1 - sa1, B[2] / D2 - sa2)
    along = -(sa0 * d0 + sa1 * d1 + sa2 * d2)
    w0, w1, w2 = -sa0 - along * d0, -sa1 - along * d1, -sa2 - along * d2   # line -> centre
    if _norm(w0, w1, w2) >= 1.0:        # the line passes outside: hooked
        return True
    along = (u[0] - sa0) * d0 + (u[1] - sa1) * d1 + (u[2] - sa2) * d2
    v0, v1, v2 = u[0] - sa0 - along * d0, u[1] - sa1 - along * d1, u[2] - sa2 - along * d2
    c0, c1, c2 = (el.point_side[k, 0] * D0, el.point_side[k, 1] * D1,
                  el.point_side[k, 2] * D2)   # the declared side's scaled normal direction
    return (v0 * w0 + v1 * w1 + v2 * w2) * (c0 * w0 + c1 * w1 + c2 * w2) < 0.0


@njit(**JIT_STAGE)
def flank_bound(el, k, u, r, A, B, side, frac, X):
    """The rate ``r`` of held wrap k's place ``u`` (unit sphere of its ellipsoid's scaled frame)
    kept so that its point X (ellipsoid frame, as it lies: moved by its carrier, ``Wrap.carrier``),
    where the belt presses on the body, stays on its flank (``Wrap.flank``: n . x >= d in the
    ellipsoid frame): a stop on the point, not on the place. The point is the wrap's at the
    fraction ``frac`` of its arc (``wrap_arc_point``) in the plane through the neighbours A and B
    (ellipsoid frame, as placed) and the place, the way round ``side``. Its height
    phi = n . X - d moves with the place only across the belt (along the belt the plane stays):
    along t, the tangential part of the plane's normal at u, at G = dphi/dt (the arc's point
    moved by a step of TILT_PROBE). Within the bound the rate is unchanged; at or past it, the
    part of the rate that would lower the point further is removed (the bound takes the belt's
    pull across itself beyond the friction) and the gap a step leaves closes with time constant
    WRAP_FOLLOW. Bounded at the place instead, the place stood on the ridge while the point,
    lower on the belt's tilted arc, lay 2.2 mm under it (GS1 fitted at mid-clavicle on the
    clavicle, 95-110 ms; scenarios/validation/HISTORY.md, clavstop). Where the wrap does not
    touch (the point on the line A-B) or the point's height does not follow the place (G = 0),
    the place itself is kept to the flank (g . u >= d, g = D n: along g's tangential part)."""
    g0, g1, g2, d = el.point_flank[k, 0], el.point_flank[k, 1], el.point_flank[k, 2], \
        el.point_flank[k, 3]
    if g0 == 0.0 and g1 == 0.0 and g2 == 0.0:
        return r
    D0, D1, D2 = el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2]
    D = (D0, D1, D2)
    P, active = wrap_arc_point(D, side, A, B, u, frac)
    phi = g0 * X[0] / D0 + g1 * X[1] / D1 + g2 * X[2] / D2 - d
    n, _, rc = _wrap_plane((A[0] / D0, A[1] / D1, A[2] / D2), (B[0] / D0, B[1] / D1, B[2] / D2), u)
    nu = n[0] * u[0] + n[1] * u[1] + n[2] * u[2]
    t0, t1, t2 = _unit(n[0] - nu * u[0], n[1] - nu * u[1], n[2] - nu * u[2])
    G = 0.0
    if active and rc > 0.0 and (t0 != 0.0 or t1 != 0.0 or t2 != 0.0):
        Q, still = wrap_arc_point(D, side, A, B, (u[0] + TILT_PROBE * t0, u[1] + TILT_PROBE * t1,
                                                  u[2] + TILT_PROBE * t2), frac)
        if still:
            G = (g0 * (Q[0] - P[0]) / D0 + g1 * (Q[1] - P[1]) / D1
                 + g2 * (Q[2] - P[2]) / D2) / TILT_PROBE
    if G == 0.0:        # not touching: the place itself kept to the flank
        gu = g0 * u[0] + g1 * u[1] + g2 * u[2]
        t0, t1, t2 = g0 - gu * u[0], g1 - gu * u[1], g2 - gu * u[2]
        G = _norm(t0, t1, t2)
        if G == 0.0:
            return r
        t0, t1, t2, phi = t0 / G, t1 / G, t2 / G, gu - d
    if phi >= 0.0:
        return r
    rate = G * (r[0] * t0 + r[1] * t1 + r[2] * t2)     # d(phi)/dt
    c = (-phi / WRAP_FOLLOW - min(rate, 0.0)) / G
    return r[0] + c * t0, r[1] + c * t1, r[2] + c * t2


@njit(**JIT_STAGE)
def wrap_slide(data, el, out, zdot, z, k, p0, o_pts, f_in, f_out, damping):
    """Rate of the place of wrap point k (its states). A wrap on its shortest path (no
    ``across``): the place follows the point with time constant WRAP_FOLLOW, a memory of where
    the belt lies that picks the way round (``wrap_chain.run_way``). A wrap held across the
    belt: the belt over the wrap lies in the plane
    through its neighbours and the place (``wrap_point``), at offset h from the centre in the
    scaled frame: a circle on the sphere whose geodesic curvature over its normal curvature is
    h / sqrt(1 - h^2), the belt's pull across itself over its push into the body. The place
    stays on the body while that ratio is within the friction coefficient; beyond it, it
    slides towards the shortest path (h = 0) at (excess force) / damping, the excess
    N (|h| / sqrt(1 - h^2) - mu), N the normal part of the belt's force T_in u_in + T_out u_out
    there (regularised Coulomb friction, as the webbing's flow; the shortest path on the side
    the wrap declares is the belt's rest across it). Along the belt, and where the belt left the
    body, the place follows the point (the middle of the wrap, in the plane: the plane stays)
    with time constant WRAP_FOLLOW; a hook being handed over to the line (``wrap_chain.held_hook``,
    its point off the body) follows its hook's point, not the point moved towards the line (which
    drew the place off the hook and the hand-over ran its course in 20 us: GS1, the abdomen wrap,
    142.34-142.36 ms)."""
    j, jz = o_pts + 3 * (k - p0), el.point_z[k]
    c, E = ellipsoid_frame(data, el, k)
    x, y, w = undeformed_point(data, el, out, k, j)
    if el.point_across[k] > 0.0:    # a hook being handed over: its place follows the hook
        hook, Ph, _, _ = call_if(el.held, held_hook, NO_HOOK, data, el, out, z, k, o_pts, p0)
        if 0.0 < hook < 1.0:
            x, y, w = Ph
    D0, D1, D2 = el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2]
    P = _to_local(c, E, x, y, w)
    s0, s1, s2 = z[jz], z[jz + 1], z[jz + 2]
    ns = _norm(s0, s1, s2)
    u0, u1, u2 = _unit(P[0] / D0, P[1] / D1, P[2] / D2) if ns == 0.0 else (s0 / ns, s1 / ns, s2 / ns)
    r0 = (P[0] / D0 - u0) / WRAP_FOLLOW
    r1 = (P[1] / D1 - u1) / WRAP_FOLLOW
    r2 = (P[2] / D2 - u2) / WRAP_FOLLOW
    if el.point_across[k] > 0.0:   # held across the belt (compiled where a wrap is held)
        r = (r0, r1, r2)
        r0, r1, r2 = call_if(el.held, _held_slide, r, data, el, out, z, k, j, o_pts, p0, c, E, P,
                             (u0, u1, u2), f_in,
                             f_out, damping, r)
    # on the sphere: the rate's tangential part, and the length drawn back to 1
    rs = r0 * u0 + r1 * u1 + r2 * u2
    t0, t1, t2 = r0 - rs * u0, r1 - rs * u1, r2 - rs * u2
    if el.point_barrier[k] != 0.0 and data.belt_touch[k] >= TOUCHING and ns > 0.0:
        t0, t1, t2 = _kept_on_its_side(el, k, (u0, u1, u2), (t0, t1, t2))
    grow = (1.0 - ns) / WRAP_FOLLOW
    zdot[jz] = t0 + grow * u0
    zdot[jz + 1] = t1 + grow * u1
    zdot[jz + 2] = t2 + grow * u2


@njit(**JIT_INLINE)
def _kept_on_its_side(el, k, u, t):
    """The tangential rate t of barrier k's place u (scaled frame, unit) while its piece enters
    its ellipsoid (``wrap_chain.place_barrier``: touching, or through it from the side it does
    not declare, Data.belt_touch): the place does not cross the plane of the declared side
    (``place_barrier``'s side test, place . side > 0, in the scaled frame u . n for n the side
    scaled by the semi-axes), so the verdict changes only as the piece leaves the ellipsoid or
    comes onto it, where the wrap's arc is of no length and the belt's path continuous. Within
    SIDE_BAND of that plane (sigma = u . n / |n|) the rate towards it is scaled by |sigma| /
    SIDE_BAND, so the place nears it as exp(-t / tau) and stays on its side. Free, it crossed
    the plane back and forth where the wrap's middle lay on the far side and the piece's point
    kept from its ends on the near one, the verdict flipping with it, the belt's length stepping
    by the wrap's excess over its chord each time: the AEB human's neck barrier, 85 flips from
    386.7 ms with the piece 11 % into the neck, the d_ring-neck segment 0 -> 668 N in a sample
    (scenarios/HISTORY.md, barrierverdict and sideflip)."""
    n0, n1, n2 = el.point_side[k, 0] * el.point_size[k, 0], \
        el.point_side[k, 1] * el.point_size[k, 1], el.point_side[k, 2] * el.point_size[k, 2]
    nn = _norm(n0, n1, n2)
    n0, n1, n2 = n0 / nn, n1 / nn, n2 / nn
    sigma = u[0] * n0 + u[1] * n1 + u[2] * n2
    rate = t[0] * n0 + t[1] * n1 + t[2] * n2            # of sigma (t tangential)
    if rate * sigma >= 0.0 or abs(sigma) >= SIDE_BAND:
        return t
    # n's part in the tangent plane, nt = n - sigma u (nt . n = 1 - sigma^2 = |nt|^2)
    nt0, nt1, nt2 = n0 - sigma * u[0], n1 - sigma * u[1], n2 - sigma * u[2]
    cut = (1.0 - abs(sigma) / SIDE_BAND) * rate / (1.0 - sigma * sigma)
    return t[0] - cut * nt0, t[1] - cut * nt1, t[2] - cut * nt2


@njit(**JIT_INLINE)
def _off_barrier(data, el, out, k, p0, o_pts):
    """Whether belt point k is a barrier wrap off its ellipsoid (``wrap_chain.place_barrier``):
    a point on its neighbours' straight piece, its two segments merged."""
    return el.point_barrier[k] != 0.0 and lifted(data, el, out, k, o_pts, p0, False)


@njit(**JIT_STAGE)
def wrap_lag(data, el, out, z, k, p0, o_pts):
    """How far (m) wrap point k lies ahead of its place along the belt (towards the next point):
    the webbing's bookkeeping follows the place (``wrap_drift`` carries the webbing with the
    place's motion, WRAP_FOLLOW behind the point), so a segment's strain counts its length to
    its ends' places, continuous where the point jumps along the belt (GS1 at mid-clavicle,
    136.5 ms: the shoulder and chest wraps lift off, the abdomen wrap's point jumps 45 mm along
    the belt towards the D-ring, and the abdomen-buckle segment, 45 mm longer on the same
    webbing, went 1.3 -> 17.8 kN in one 1e-5 s step).
    Zero for a point that is not a wrap, or a frictionless one (it carries no webbing: its
    segments' webbing flows freely through it, each counted to the point)."""
    jz = el.point_z[k]
    if el.point_kind[k] != BELT_WRAP or jz < 0 or el.point_friction[k] == 0.0:
        return 0.0
    ns = _norm(z[jz], z[jz + 1], z[jz + 2])
    if ns == 0.0:
        return 0.0
    j = o_pts + 3 * (k - p0)
    x, y, w = undeformed_point(data, el, out, k, j)
    c, E = ellipsoid_frame(data, el, k)
    P = _to_local(c, E, x, y, w)
    d0 = P[0] - el.point_size[k, 0] * z[jz] / ns
    d1 = P[1] - el.point_size[k, 1] * z[jz + 1] / ns
    d2 = P[2] - el.point_size[k, 2] * z[jz + 2] / ns
    return _along_belt(E, out, j, d0, d1, d2)


@njit(**JIT_INLINE)
def _along_belt(E, out, j, d0, d1, d2):
    """The part along the belt at the point of output slot j (from the point before to the one
    after) of the vector d, given in the axes E of its wrap's ellipsoid."""
    t0, t1, t2 = _unit(out[j + 3] - out[j - 3], out[j + 4] - out[j - 2], out[j + 5] - out[j - 1])
    return ((E[0] * d0 + E[1] * d1 + E[2] * d2) * t0 + (E[3] * d0 + E[4] * d1 + E[5] * d2) * t1
            + (E[6] * d0 + E[7] * d1 + E[8] * d2) * t2)


@njit(**JIT_STAGE)
def wrap_drift(data, el, out, zdot, z, k, p0, o_pts):
    """Speed (m/s) at which wrap point k moves over its body along the belt, towards the next
    point: its place's rate (``wrap_slide``, within WRAP_FOLLOW of the point's own motion),
    tangential on the unit sphere, scaled to the ellipsoid and taken along the belt there
    (from the point before to the one after). Zero for a point that is not a wrap."""
    jz = el.point_z[k]
    if el.point_kind[k] != BELT_WRAP or jz < 0:
        return 0.0
    j = o_pts + 3 * (k - p0)
    ns = _norm(z[jz], z[jz + 1], z[jz + 2])
    if ns == 0.0:
        return 0.0
    u0, u1, u2 = z[jz] / ns, z[jz + 1] / ns, z[jz + 2] / ns
    r = zdot[jz] * u0 + zdot[jz + 1] * u1 + zdot[jz + 2] * u2
    w0 = el.point_size[k, 0] * (zdot[jz] - r * u0)
    w1 = el.point_size[k, 1] * (zdot[jz + 1] - r * u1)
    w2 = el.point_size[k, 2] * (zdot[jz + 2] - r * u2)
    _, E = ellipsoid_frame(data, el, k)
    return _along_belt(E, out, j, w0, w1, w2)
