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
    BARRIER_STILL, BARRIER_SWEEPS, BETWEEN, TOUCHING, _read, barrier_start, carried_travel,
    chained, held_in_chain, lifted, place_barrier, place_chain, place_held, place_run, run_length,
    touching_ends,
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
        if el.point_barrier[k] == BETWEEN:
            _stand_in_between(data, el, out, k, p0, o_pts)
        elif el.point_barrier[k] != 0.0:
            j = o_pts + 3 * (k - p0)
            f = j - 3 * int(el.point_barrier[k])
            out[j], out[j + 1], out[j + 2] = out[f], out[f + 1], out[f + 2]
            data.belt_touch[k] = -1.0


@njit(**JIT_STAGE)
def _stand_in_between(data, el, out, k, p0, o_pts):
    """Barrier k between two wraps (``BETWEEN``): its slot keeps the point the previous
    placement left there (the sweeps of ``_place_between_barrier`` start from it), or, before
    any (Data.belt_touch below 0, the model's first evaluation), the middle of the fixed points
    before and after its wraps; read as touching while the wraps beside it are placed from it
    (``wrap_chain.lifted``), its own verdict set by ``place_barrier``."""
    if data.belt_touch[k] < 0.0:
        a, b = k - 1, k + 1
        while el.point_kind[a] == BELT_WRAP:
            a -= 1
        while el.point_kind[b] == BELT_WRAP:
            b += 1
        j, ja, jb = o_pts + 3 * (k - p0), o_pts + 3 * (a - p0), o_pts + 3 * (b - p0)
        for i in range(3):
            out[j + i] = 0.5 * (out[ja + i] + out[jb + i])
    data.belt_touch[k] = TOUCHING


@njit(**JIT_STAGE)
def _place_between_barrier(data, el, out, k, o_pts, p0, z):
    """Barrier k between two wraps (``BETWEEN``: the human's upper arm on the shoulder belt's
    piece from its shoulder wrap to its chest wrap, both held): the wraps on either side are
    placed from its slot as from a fixed point (``_place_wraps``; the barrier read as touching
    meanwhile, so they stop at it), then ``place_barrier`` from its touching ends where they will
    lie (its arc point round its side where their straight piece enters it from that side, else
    that piece's point nearest it), in turn until its point moves less than BARRIER_STILL
    (BARRIER_SWEEPS at most). Off its ellipsoid its point lies on the straight piece between the
    wraps placed from it, so the belt there is straight (its segments merge, no force) and the
    wraps are placed from a point of that piece; as the piece comes to graze the ellipsoid its
    arc shrinks to that point, so its first touch moves no wrap by a step. (Skipped while off
    it, as a barrier beside a fixed point is, a held wrap placed from the wrap beyond it stepped
    as it touched: a held wrap is placed from its neighbour's point, the middle of its arc, not
    its tangent point; TANGENT_PIECE, tests/restraints/test_belt_held_wraps.py.)"""
    j = o_pts + 3 * (k - p0)
    first = k - 1
    while chained(el, first - 1):
        first -= 1
    x = _read(out, j)
    for _ in range(BARRIER_SWEEPS):
        place_barrier(data, el, out, k, o_pts, p0, z)
        verdict, y = data.belt_touch[k], _read(out, j)
        if _norm(y[0] - x[0], y[1] - x[1], y[2] - x[2]) <= BARRIER_STILL:
            return
        data.belt_touch[k] = TOUCHING        # the wraps beside it stop at it
        _place_wraps(data, el, out, first, o_pts, p0, z)
        _place_wraps(data, el, out, k + 1, o_pts, p0, z)
        data.belt_touch[k] = verdict
        x = y


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
        if el.point_barrier[k] == BETWEEN:
            _place_between_barrier(data, el, out, k, o_pts, p0, z)
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
    return n if el.point_barrier[n] * way == -1.0 else -1   # (not one BETWEEN wraps)


@njit(**JIT_STAGE)
def _place_barrier_pair(data, el, out, k, n, o_pts, p0, z):
    """Barriers k (after the fixed point before their run) and n (before the fixed point after
    it) and the wraps between them: ``place_barrier`` of k from the fixed point before it and
    the nearest touching point after it (the wraps, else n's point), then of n likewise from
    its side, and the wraps placed again between the two barriers' ``barrier_start`` points
    (each the barrier's own where it touches, its fixed point far from touching), in turn until
    both points move less than BARRIER_STILL (BARRIER_SWEEPS at most): one barrier's sweeps
    (``_place_barriers``) with the run placed from both ends. Each barrier's slot holds its
    stand-in (its fixed point) at the start, its ``barrier_start`` point while the wraps are
    placed and its own point while the other barrier is placed and at the end. The sweeps
    converge where the placements contract; where a barrier's point jumped between its two ways
    round at their tie the pair had no placement to converge to (the 5th female's lap belt over
    both thighs at 55.0-55.7 ms, alternating between two 13 mm apart): that tie is blended now
    (``wrap_chain._way_weight``; scenarios/HISTORY.md, pairconverge)."""
    j, jn = o_pts + 3 * (k - p0), o_pts + 3 * (n - p0)
    x, xn = _read(out, j), _read(out, jn)       # the stand-ins: their fixed points
    w = place_barrier(data, el, out, k, o_pts, p0, z)
    wn = place_barrier(data, el, out, n, o_pts, p0, z)
    for _ in range(BARRIER_SWEEPS):
        y = barrier_start(data, el, out, k, o_pts, p0, w)
        yn = barrier_start(data, el, out, n, o_pts, p0, wn)
        if _norm(y[0] - x[0], y[1] - x[1], y[2] - x[2]) <= BARRIER_STILL \
                and _norm(yn[0] - xn[0], yn[1] - xn[1], yn[2] - xn[2]) <= BARRIER_STILL:
            break
        pn, tn = _read(out, jn), data.belt_touch[n]
        out[j], out[j + 1], out[j + 2] = y
        out[jn], out[jn + 1], out[jn + 2] = yn
        data.belt_touch[k] = data.belt_touch[n] = -1.0    # not their own points
        _place_wraps(data, el, out, k + 1, o_pts, p0, z)
        x, xn = y, yn
        out[jn], out[jn + 1], out[jn + 2] = pn       # n's point, for k's touching end
        data.belt_touch[n] = tn                      # and its verdict
        w = place_barrier(data, el, out, k, o_pts, p0, z)
        wn = place_barrier(data, el, out, n, o_pts, p0, z)


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
