"""The points of a seat belt (``occupant.restraints.belt``): placing its anchors, slip rings and
wrap points in B0 every evaluation (``place_points``: the wraps on their undeformed ellipsoids by
``wrap_chain``'s runs, chains, held and barrier wraps, then moved by their carriers' travel), and
the material velocity of a point's body and the force at a point on its bodies (``point_velocity``,
``add_point_share``: a carried wrap's share between its carrier and the geometry's part).
"""
from collections import namedtuple

from numba import njit

from occupant.forces.points import PointData, add_point_force, point_state
from occupant.jit import JIT_INLINE, JIT_STAGE, call_if, separate
from occupant.model.bundle import BELT_WRAP
from occupant.restraints.wrap_chain import (
    BARRIER_STILL, BARRIER_SWEEPS, FD_STEP, PAIR_HALVINGS, PAIR_NEWTON, _read, _solve3,
    barrier_start, carried_travel, chained, held_in_chain, lifted, place_barrier, place_chain,
    place_held, place_run, run_length, touching_ends,
)
from occupant.restraints.wrap_geometry import _norm

# Helpers compiled as stages, the large ones ``jit.separate``, the small ones linked where LLVM
# inlines them: ``occupant.restraints.belt`` says why.

# What the belt's point and geometry routines read of Data: the point routines' view
# (``forces.points.point_data``) and the barriers' touching verdicts (Data.belt_touch)
BeltPointData = namedtuple("BeltPointData", PointData._fields + ("belt_touch",))


@njit(**JIT_INLINE)
def belt_point_data(data):
    """``data``'s view for the belt's routines (``BeltPointData``)."""
    return BeltPointData(data.base, data.R_base_link, data.p_base_link, data.v, data.f_ext,
                         data.belt_touch)


@njit(**JIT_INLINE)
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
def place_points(data, el, out, p0, p1, o_pts, z):
    """Every point's position in B0 into the outputs (anchors and rings, then the wraps on the
    undeformed ellipsoids, then carried wraps moved by their carriers' travel, and the wraps
    that do not touch with the straight piece they lie on, ``carry_lifted``)."""
    place_on_surfaces(data, el, out, p0, p1, o_pts, z)
    carried, off = carry_lifted(data, el, out, p0, p1, o_pts)
    if not carried:
        return
    for k in range(p0 + 1, p1 - 1):
        if el.point_carrier[k] != el.point_link[k] and not off & (1 << (k - p0)):
            j = o_pts + 3 * (k - p0)
            dx, dy, dz = carried_travel(data, el, k)
            out[j], out[j + 1], out[j + 2] = out[j] + dx, out[j + 1] + dy, out[j + 2] + dz


@njit(**JIT_STAGE)
def carry_lifted(data, el, out, p0, p1, o_pts):
    """Move each wrap that does not touch (``wrap_chain.lifted``, carried or not), lying at the
    fraction q of the straight piece between its ``touching_ends``, by (1 - q) the travel of the
    end before it and q that of the end after (read before the ends move), so it stays on that
    piece when a carried end moves; a carried wrap that does not touch is then not moved by its
    carrier (``place_points``). Before, a wrap beside a carried end stayed put, off the piece by
    the end's travel, and its segments turned there, pushing a body it does not touch; on the
    end itself its segment had no length and the direction of the carrier's travel (GS1 with a
    barrier on the upper arm: the arm pulled with the belt's 5.6 kN, the chest wrap's sternum
    unloaded); and a carried wrap that lifted off moved with its carrier, off the piece (GS1 at
    mid-clavicle, 148 ms: the three wraps off the body, 23 kN in one sample). Returns whether
    the belt has a carried wrap and the wraps that do not touch in runs with one (bit k - p0:
    up to 63 points, as ``wrap_chain.place_chain``'s runs)."""
    any_carried, off = False, 0
    k = p0 + 1
    while k < p1 - 1:        # each run of wraps between fixed points, if one of them is carried
        r, carried = k, False
        while el.point_kind[r] == BELT_WRAP:
            carried = carried or el.point_carrier[r] != el.point_link[r]
            r += 1
        any_carried = any_carried or carried
        for w in range(k, r if carried else k):
            if el.point_barrier[w] != 0.0 or not lifted(data, el, out, w, o_pts, p0, False):
                continue        # a barrier is placed from its ends as moved (place_barrier)
            off |= 1 << (w - p0)
            i, n = touching_ends(data, el, out, w, 1, o_pts, p0, False)
            ci = el.point_carrier[i] != el.point_link[i]
            cn = el.point_carrier[n] != el.point_link[n]
            if not (ci or cn):
                continue
            j, ja, jb = o_pts + 3 * (w - p0), o_pts + 3 * (i - p0), o_pts + 3 * (n - p0)
            d0, d1, d2 = out[jb] - out[ja], out[jb + 1] - out[ja + 1], out[jb + 2] - out[ja + 2]
            dd = d0 * d0 + d1 * d1 + d2 * d2
            q = ((out[j] - out[ja]) * d0 + (out[j + 1] - out[ja + 1]) * d1
                 + (out[j + 2] - out[ja + 2]) * d2) / dd if dd > 0.0 else 0.0
            q = min(max(q, 0.0), 1.0)
            ti, tn = (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)
            if ci:
                ti = carried_travel(data, el, i)
            if cn:
                tn = carried_travel(data, el, n)
            out[j] += (1.0 - q) * ti[0] + q * tn[0]
            out[j + 1] += (1.0 - q) * ti[1] + q * tn[1]
            out[j + 2] += (1.0 - q) * ti[2] + q * tn[2]
        k = max(r, k + 1)
    return any_carried, off


@separate
def place_on_surfaces(data, el, out, p0, p1, o_pts, z):
    """Anchors and rings, then every wrap point on its (undeformed) ellipsoid: each run of wraps
    on one ellipsoid placed together between the fixed points around it (``place_run``), and
    runs on neighbouring ellipsoids together on the belt's path over all of them
    (``place_chain``), or, where a wrap among them keeps its place across the belt,
    from their places (``place_held``); barrier wraps last (``place_barrier``), the wraps after
    each placed from the point before it (its slot holds that point's position meanwhile)."""
    for k in range(p0, p1):
        if el.point_kind[k] != BELT_WRAP:
            j = o_pts + 3 * (k - p0)
            x, y, z_, _, _, _ = point_state(data, el.point_link[k], el.point_r[k, 0],
                                            el.point_r[k, 1], el.point_r[k, 2])
            out[j], out[j + 1], out[j + 2] = x, y, z_
    call_if(el.barrier, _stand_in_barriers, None, data, el, out, p0, p1, o_pts)
    for k in range(p0 + 1, p1 - 1):
        if run_length(el, k) != 0 and not chained(el, k - 1):
            _place_wraps(data, el, out, k, o_pts, p0, z)
    call_if(el.barrier, _place_barriers, None, data, el, out, p0, p1, o_pts, z)


@njit(**JIT_STAGE)
def _place_wraps(data, el, out, k, o_pts, p0, z):
    """The wraps from k (the first after a fixed point or a barrier) to the next fixed point,
    from the points before and after them as they stand in the outputs: one run together
    (``place_run``), runs on neighbouring ellipsoids on the path over all (``place_chain``), or
    from their places where one keeps its place across the belt (``place_held``)."""
    m = run_length(el, k)
    if not chained(el, k + m):
        j, jb = o_pts + 3 * (k - 1 - p0), o_pts + 3 * (k + m - p0)
        place_run(data, el, out, k, m, o_pts, p0, z, (out[j], out[j + 1], out[j + 2]),
                  (out[jb], out[jb + 1], out[jb + 2]), -1.0)
    elif call_if(el.held, held_in_chain, False, el, k):   # compiled where a wrap is held
        call_if(el.held, place_held, None, data, el, out, k, o_pts, p0, z)
    else:
        place_chain(data, el, out, k, o_pts, p0, z)


@njit(**JIT_STAGE)
def _stand_in_barriers(data, el, out, p0, p1, o_pts):
    """Each barrier wrap's slot set to the fixed point it is placed from (before it, or after
    it where ``point_barrier`` is -1; ``place_on_surfaces``), judged by the surface test
    (Data.belt_touch -1) until the barrier's own point is placed there."""
    for k in range(p0 + 1, p1 - 1):
        if el.point_barrier[k] != 0.0:
            j = o_pts + 3 * (k - p0)
            f = j - 3 * int(el.point_barrier[k])
            out[j], out[j + 1], out[j + 2] = out[f], out[f + 1], out[f + 2]
            data.belt_touch[k] = -1.0


@njit(**JIT_STAGE)
def _place_barriers(data, el, out, p0, p1, o_pts, z):
    """``place_barrier`` of each barrier wrap of the belt (points p0 to p1), the wraps after it
    placed again from ``barrier_start``'s point (the barrier's own where it touches, the fixed
    point before it far from touching), in turn, until that point moves less than BARRIER_STILL
    (BARRIER_SWEEPS at most): the wraps after a barrier that touches run from it, not on the
    line from the fixed point as if it were not there (GS1 with a barrier on the upper arm: the
    shoulder wrap off the shoulder, 52 mm in a sample; scenarios/HISTORY.md, wayround). A
    barrier placed from the fixed point after it (``point_barrier`` -1) the same, the wraps
    before it placed again (from the first after the fixed point before them). Two barriers at
    the ends of one run of wraps are placed together (``_place_barrier_pair``)."""
    for k in range(p0 + 1, p1 - 1):
        if el.point_barrier[k] == 0.0:
            continue
        other = run_barrier(el, k)
        if other > k:
            _place_barrier_pair(data, el, out, k, other, o_pts, p0, z)
        if other >= 0:
            continue
        j = o_pts + 3 * (k - p0)
        x = (out[j], out[j + 1], out[j + 2])     # the stand-in: the fixed point it is placed from
        w = place_barrier(data, el, out, k, o_pts, p0, z)
        first = k + 1
        if el.point_barrier[k] < 0.0:
            first = k
            while chained(el, first - 1):
                first -= 1
        if run_length(el, first) == 0:
            continue
        for _ in range(BARRIER_SWEEPS):
            y = barrier_start(data, el, out, k, o_pts, p0, w)
            if _norm(y[0] - x[0], y[1] - x[1], y[2] - x[2]) <= BARRIER_STILL:
                break
            out[j], out[j + 1], out[j + 2] = y
            data.belt_touch[k] = -1.0        # not its own point: the surface test's
            _place_wraps(data, el, out, first, o_pts, p0, z)
            x = y
            w = place_barrier(data, el, out, k, o_pts, p0, z)


@njit(**JIT_INLINE)
def run_barrier(el, k):
    """The barrier at the other end of barrier k's run of wraps (``Wrap.barrier``: one right
    after the fixed point before the run, ``point_barrier`` 1, and one right before the fixed
    point after it, -1), or -1 where that end has none."""
    way = 1 if el.point_barrier[k] > 0.0 else -1
    n = k + way
    while chained(el, n):
        n += way
    return n if el.point_barrier[n] * way < 0.0 else -1


@njit(**JIT_STAGE)
def _place_barrier_pair(data, el, out, k, n, o_pts, p0, z):
    """Barriers k (after the fixed point before their run) and n (before the fixed point after
    it) and the wraps between them. Each barrier is placed (``place_barrier``) from its fixed
    point and the nearest touching point beside it (the wraps, else the other barrier's point),
    and the wraps between from both barriers' ``barrier_start`` points u = (y, yn): the pair's
    placement is the u that those placements give back, F(u) = u (``_pair_map``), found by
    Newton's method on F(u) - u (its 6 x 6 Jacobian by forward differences over FD_STEP, solved
    in 3 x 3 blocks, ``_pair_step``; a step that does not shrink the residual halved, PAIR_HALVINGS
    at most), from the points that the barriers placed from the wraps as if they were not there
    give, until both points move less than BARRIER_STILL (PAIR_NEWTON steps at most). Placed in
    turn (u <- F(u), one barrier's sweeps, BARRIER_SWEEPS at most) they converge only where F
    contracts; Newton's steps also where it is smooth and does not. Neither converges where F
    has no fixed point: the 5th female's lap belt over both thighs at 55.0-55.7 ms, its
    outboard barrier's point jumping 19 mm between its two ways round at their tie, the sweeps
    alternating between two placements 13 mm apart (``wrap_chain._way_weight`` blends that tie
    now; F then contracts there and Newton's steps leave |F(u) - u| <= 1.1e-15 m in every sample
    of that run: scenarios/HISTORY.md, pelvisjump and pairconverge). Each barrier's slot holds
    its stand-in (its fixed point) at the start, its
    ``barrier_start`` point while the wraps are placed and its own point while the other
    barrier is placed and at the end."""
    j, jn = o_pts + 3 * (k - p0), o_pts + 3 * (n - p0)
    x, xn = _read(out, j), _read(out, jn)       # the stand-ins: their fixed points
    w = place_barrier(data, el, out, k, o_pts, p0, z)
    wn = place_barrier(data, el, out, n, o_pts, p0, z)
    y = barrier_start(data, el, out, k, o_pts, p0, w)
    yn = barrier_start(data, el, out, n, o_pts, p0, wn)
    if _norm(y[0] - x[0], y[1] - x[1], y[2] - x[2]) <= BARRIER_STILL \
            and _norm(yn[0] - xn[0], yn[1] - xn[1], yn[2] - xn[2]) <= BARRIER_STILL:
        return                                  # both placed from their fixed points already
    pn, tn = _read(out, jn), data.belt_touch[n]
    f, fn = _pair_map(data, el, out, k, n, o_pts, p0, z, y, yn, pn, tn)
    for _ in range(PAIR_NEWTON):
        r, rn = _sub(f, y), _sub(fn, yn)
        size = _dot(r, r) + _dot(rn, rn)
        if _norm(r[0], r[1], r[2]) <= BARRIER_STILL and _norm(rn[0], rn[1], rn[2]) <= BARRIER_STILL:
            return
        pn, tn = _read(out, jn), data.belt_touch[n]    # n's own point, for k's touching end
        s, sn = _pair_step(data, el, out, k, n, o_pts, p0, z, y, yn, f, fn, pn, tn)
        for _ in range(PAIR_HALVINGS):
            ty, tyn = _add(y, s, 1.0), _add(yn, sn, 1.0)
            tf, tfn = _pair_map(data, el, out, k, n, o_pts, p0, z, ty, tyn, pn, tn)
            tr, trn = _sub(tf, ty), _sub(tfn, tyn)
            if _dot(tr, tr) + _dot(trn, trn) < size:
                break
            s, sn = _add((0.0, 0.0, 0.0), s, 0.5), _add((0.0, 0.0, 0.0), sn, 0.5)
        y, yn, f, fn = ty, tyn, tf, tfn       # the last tried: the slots hold its placement


@njit(**JIT_STAGE)
def _pair_map(data, el, out, k, n, o_pts, p0, z, y, yn, pn, tn):
    """F(y, yn) of ``_place_barrier_pair``: the wraps between barriers k and n placed from the
    points y and yn (B0; their slots, read by the surface test meanwhile), then k placed (n's
    slot holding its own point pn, verdict tn, for k's touching end where every wrap between is
    lifted) and n placed; their ``barrier_start`` points (k's, n's)."""
    j, jn = o_pts + 3 * (k - p0), o_pts + 3 * (n - p0)
    out[j], out[j + 1], out[j + 2] = y
    out[jn], out[jn + 1], out[jn + 2] = yn
    data.belt_touch[k] = data.belt_touch[n] = -1.0    # not their own points
    _place_wraps(data, el, out, k + 1, o_pts, p0, z)
    out[jn], out[jn + 1], out[jn + 2] = pn
    data.belt_touch[n] = tn
    w = place_barrier(data, el, out, k, o_pts, p0, z)
    wn = place_barrier(data, el, out, n, o_pts, p0, z)
    return barrier_start(data, el, out, k, o_pts, p0, w), \
        barrier_start(data, el, out, n, o_pts, p0, wn)


@njit(**JIT_STAGE)
def _pair_step(data, el, out, k, n, o_pts, p0, z, y, yn, f, fn, pn, tn):
    """Newton's step (s, sn) for F(u) - u = 0 at u = (y, yn), F(u) = (f, fn) (``_pair_map``):
    J = dF/du - I by forward differences over FD_STEP in each of u's six coordinates, in 3 x 3
    blocks [[A, B], [C, D]] (rows: k's, n's; columns: y's, yn's), and J (s, sn) = -(F(u) - u)
    solved by the Schur complement of A (``_solve3``). Where A or the complement is singular,
    the step of placing in turn, F(u) - u."""
    r, rn = _sub(f, y), _sub(fn, yn)
    a0, c0 = _pair_column(data, el, out, k, n, o_pts, p0, z, y, yn, f, fn, pn, tn, 0)
    a1, c1 = _pair_column(data, el, out, k, n, o_pts, p0, z, y, yn, f, fn, pn, tn, 1)
    a2, c2 = _pair_column(data, el, out, k, n, o_pts, p0, z, y, yn, f, fn, pn, tn, 2)
    b0, d0 = _pair_column(data, el, out, k, n, o_pts, p0, z, y, yn, f, fn, pn, tn, 3)
    b1, d1 = _pair_column(data, el, out, k, n, o_pts, p0, z, y, yn, f, fn, pn, tn, 4)
    b2, d2 = _pair_column(data, el, out, k, n, o_pts, p0, z, y, yn, f, fn, pn, tn, 5)
    A = (a0[0] - 1.0, a1[0], a2[0], a0[1], a1[1] - 1.0, a2[1], a0[2], a1[2], a2[2] - 1.0)
    if _det3(A) == 0.0:
        return r, rn
    p_0, p_1, p_2 = _solve3(A, b0), _solve3(A, b1), _solve3(A, b2)    # A^-1 B, by columns
    q = _solve3(A, (-r[0], -r[1], -r[2]))                            # A^-1 (-r)
    s0, s1, s2 = _sub(d0, _mul(c0, c1, c2, p_0)), _sub(d1, _mul(c0, c1, c2, p_1)), \
        _sub(d2, _mul(c0, c1, c2, p_2))                               # D - C A^-1 B
    S = (s0[0] - 1.0, s1[0], s2[0], s0[1], s1[1] - 1.0, s2[1], s0[2], s1[2], s2[2] - 1.0)
    if _det3(S) == 0.0:
        return r, rn
    cq = _mul(c0, c1, c2, q)
    sn = _solve3(S, (-rn[0] - cq[0], -rn[1] - cq[1], -rn[2] - cq[2]))
    return _sub(q, _mul(p_0, p_1, p_2, sn)), sn


@njit(**JIT_STAGE)
def _pair_column(data, el, out, k, n, o_pts, p0, z, y, yn, f, fn, pn, tn, c):
    """Column c of dF/du (``_pair_step``; c 0-2 y's coordinates, 3-5 yn's) by a forward
    difference over FD_STEP: (k's rows, n's rows)."""
    e = (FD_STEP if c == 0 or c == 3 else 0.0, FD_STEP if c == 1 or c == 4 else 0.0,
         FD_STEP if c == 2 or c == 5 else 0.0)
    if c < 3:
        g, gn = _pair_map(data, el, out, k, n, o_pts, p0, z, _add(y, e, 1.0), yn, pn, tn)
    else:
        g, gn = _pair_map(data, el, out, k, n, o_pts, p0, z, y, _add(yn, e, 1.0), pn, tn)
    return _add((0.0, 0.0, 0.0), _sub(g, f), 1.0 / FD_STEP), \
        _add((0.0, 0.0, 0.0), _sub(gn, fn), 1.0 / FD_STEP)


@njit(**JIT_INLINE)
def _det3(A):
    """The determinant of the 3 x 3 matrix A (row-major, 9)."""
    return (A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6])
            + A[2] * (A[3] * A[7] - A[4] * A[6]))


@njit(**JIT_INLINE)
def _mul(c0, c1, c2, v):
    """The 3 x 3 matrix of columns c0, c1, c2 times the vector v."""
    return (c0[0] * v[0] + c1[0] * v[1] + c2[0] * v[2], c0[1] * v[0] + c1[1] * v[1] + c2[1] * v[2],
            c0[2] * v[0] + c1[2] * v[1] + c2[2] * v[2])


@njit(**JIT_INLINE)
def _sub(a, b):
    return a[0] - b[0], a[1] - b[1], a[2] - b[2]


@njit(**JIT_INLINE)
def _add(a, b, f):
    """a + f b."""
    return a[0] + f * b[0], a[1] + f * b[1], a[2] + f * b[2]


@njit(**JIT_INLINE)
def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(**JIT_STAGE)
def point_velocity(data, el, out, k, p0, o_pts):
    """Velocity (B0) of the material of belt point k's body (BeltBlock.point_carrier) where the
    point lies; the forces' power uses it, as it must. A carried wrap's point with a share c of
    its carrier's travel (``Wrap.share``) moves as (1 - c) the geometry's part's material plus c
    the carrier's, where its force acts in those shares (``add_point_share``). A
    wrap point's own motion over the surface along the belt is added to the segment length
    rates afterwards (``wrap_drift``, with the webbing it carries across)."""
    j = o_pts + 3 * (k - p0)
    v = link_velocity_at(data, el.point_carrier[k], out[j], out[j + 1], out[j + 2])
    c = el.point_share[k]
    if c != 1.0:
        w = link_velocity_at(data, el.point_link[k], out[j], out[j + 1], out[j + 2])
        v = (w[0] + c * (v[0] - w[0]), w[1] + c * (v[1] - w[1]), w[2] + c * (v[2] - w[2]))
    return v


@njit(**JIT_INLINE)
def add_point_share(data, el, k, x, y, z, fx, fy, fz):
    """The force f (B0) at belt point k (B0 position x, y, z): on its carrier (BeltBlock.
    point_carrier), or for a carried wrap with a share c < 1 (``Wrap.share``), c f on the
    carrier and (1 - c) f on the geometry's part at the same place."""
    c, lc = el.point_share[k], el.point_carrier[k]
    if c == 1.0:
        rx, ry, rz = point_in_link(data, lc, x, y, z)
        add_point_force(data, lc, rx, ry, rz, fx, fy, fz)
        return
    rx, ry, rz = point_in_link(data, lc, x, y, z)
    add_point_force(data, lc, rx, ry, rz, c * fx, c * fy, c * fz)
    ll, d = el.point_link[k], 1.0 - c
    rx, ry, rz = point_in_link(data, ll, x, y, z)
    add_point_force(data, ll, rx, ry, rz, d * fx, d * fy, d * fz)
