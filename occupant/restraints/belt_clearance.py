"""How deep a belt's path passes into ellipsoids (a check of a run's belt, outside the step):
the path rebuilt from the belt's points alone, as ``occupant.restraints.belt`` places them.

A run of m wraps on one ellipsoid on its shortest path (``wrap_geometry.wrap_arc_point`` with no
place across the belt) lies, in the ellipsoid's scaled frame (the unit sphere), on the great
circle through the centre and its points, and its points divide the arc from one tangent point
to the other at the fractions i / (m + 1). From the fixed point F beside the run (an anchor, a
slip ring) the arc starts at F's tangent point, acos(1 / |F|) from F's direction towards the
first point; the spacing of the points then gives the arc's other end, which is the point the
next run's arc is seen from (``belt_path``). So a chain of runs between fixed points (GS1's
shoulder belt: D-ring, neck, shoulder, chest, buckle) is rebuilt whole: its straight pieces,
the arcs and the straight joins between runs. A
point carried by a part deflecting into its ellipsoid (a sternum) is taken on the surface (the
scaled point's direction). A wrap held across the belt (``Wrap.across``) or a barrier
(``Wrap.barrier``) is rebuilt as the step places it (``wrap_geometry.wrap_arc_point``): on
the circle of the plane through its point and the touching points beside its run, from one's
tangent point to it (consecutive held wraps: between their points on the great circle through
them, then on to the other's); a barrier's from the fixed point before it, and the wraps
after a barrier from that fixed point too (limit: the step places them so only where the
barrier's piece passes BARRIER_BAND or more off its ellipsoid, and from the barrier's point where
it touches, ``wrap_chain.barrier_start``). ``belt_depths`` does this for a run's belt at one
sample, from the points its producer recorded and the ellipsoids' poses (``ellipsoids_at``), along
each ellipsoid's scaled radius (``depths``); ``surface_depths`` measures to the nearest surface
point instead (a run's defects, occupant.scenario.defects.belt_defects)."""
import numpy as np

from occupant.modeling.poses import geometry_frame
from occupant.restraints.wrap_geometry import _wrap_plane, wrap_arc_point

UNIT = (1.0, 1.0, 1.0)      # the semi-axes of the scaled frame's ellipsoid, the unit sphere


def _scaled(x, ell):
    c, R, D = ell
    return (R.T @ (np.asarray(x, float) - c)) / D


def _unscaled(u, ell):
    c, R, D = ell
    return c + R @ (u * D)


def _arc(f, p, m):
    """The arc of a run (unit sphere) beside the fixed point f (scaled) through its first point
    p (scaled, taken on the sphere) of m: (unit vectors u, e of its plane, angle of the tangent
    point, angle of the far end), angles from u towards e."""
    u = f / np.linalg.norm(f)
    e = p / np.linalg.norm(p) - (p / np.linalg.norm(p) @ u) * u
    e /= np.linalg.norm(e)
    start = np.arccos(min(1.0, 1.0 / np.linalg.norm(f)))
    first = np.arctan2(p @ e, p @ u)
    return u, e, start, start + (m + 1) * (first - start)


def _placed_arc(a, b, p, side):
    """The wrap of a point p placed across the belt between the points a and b (all scaled) as
    the step places it (``wrap_geometry.wrap_arc_point`` on the unit sphere with p as its place:
    in the plane through a, b and p's direction, the way round whose middle faces ``side``
    more): (its point at a fraction of its arc from a's tangent point to b's, p's fraction), or
    None where a, b and p give no plane, the wrap does not touch or p lies off its arc."""
    a, b, s, side = tuple(a), tuple(b), tuple(p), tuple(side)

    def point(f):
        return np.array(wrap_arc_point(UNIT, side, a, b, s, f)[0])

    n, h, r = _wrap_plane(a, b, s)
    if r == 0.0 or not wrap_arc_point(UNIT, side, a, b, s, 0.5)[1]:
        return None
    o = h * np.array(n)
    t0, mid, t1 = point(0.0) - o, point(0.5) - o, point(1.0) - o
    y = np.cross(n, mid)                     # along the arc at its middle, towards b's end
    y *= np.sign((t1 - t0) @ y)
    half = np.arctan2(np.linalg.norm(np.cross(mid, t0)), mid @ t0)
    psi = np.arctan2((p - o) @ y, (p - o) @ mid)                   # p's angle from the middle
    if abs(psi) > half + 1e-6:
        return None
    return point, (0.5 + 0.5 * psi / half if half > 0.0 else 0.5)


def _placed_run(a, b, ps, ell, samples):
    """The path over a run of wraps placed across the belt (``_placed_arc``; ``ps`` their
    points, a and b the points beside the run, B0): from a's tangent point to the first point
    in that point's plane, between points on the great circle through them (scaled), from the
    last point to b's tangent point in its plane; the way round the one the points face (the
    step's ``wrap_chain.run_way``, their places taken as their directions), with each sample's
    count of the run's points before it; None where a plane is missing."""
    a, b = _scaled(a, ell), _scaled(b, ell)
    ps = [_scaled(p, ell) for p in ps]
    side = np.sum([p / np.linalg.norm(p) for p in ps], axis=0)
    first, last = _placed_arc(a, b, ps[0], side), _placed_arc(a, b, ps[-1], side)
    if first is None or last is None:
        return None
    out = [first[0](f) for f in np.linspace(0.0, first[1], samples + 1)]
    before = [0] * len(out)
    for i, (p, q) in enumerate(zip(ps[:-1], ps[1:])):
        p, q = p / np.linalg.norm(p), q / np.linalg.norm(q)
        w = np.arccos(np.clip(p @ q, -1.0, 1.0))
        if w > 1e-9:
            out += [(np.sin((1.0 - t) * w) * p + np.sin(t * w) * q) / np.sin(w)
                    for t in np.linspace(0.0, 1.0, samples + 1)[1:]]
            before += [i + 1] * samples
    out += [last[0](f) for f in np.linspace(last[1], 1.0, samples + 1)[1:]]
    before += [len(ps)] * samples
    return [_unscaled(x, ell) for x in out], before


def _touches(x, ell):
    """Whether a wrap point lies on (or, carried by a deflecting part, in) its ellipsoid: a
    wrap that does not touch has its point on the straight line past it."""
    return np.linalg.norm(_scaled(x, ell)) < 1.0 + 1e-6


def belt_path(points, samples=40, held=(), barriers=()):
    """The belt's path through ``points``, in belt order, each (x in B0, ellipsoid) with the
    ellipsoid (centre (3), axes R (3 x 3, columns), semi-axes (3)) for a wrap, None for a fixed
    point: (polyline (n, 3), index of the first point of the run whose ellipsoid each sample
    lies on, -1 on straight pieces, index of the piece each sample lies on: i between the
    points i and i + 1). Each run is rebuilt from the fixed point before it, else
    from the end of the run before it (its straight piece to this run is tangent to both when
    the chain is solved), and the last from the fixed point after it; a run that does not touch
    is passed straight. Runs of the indices ``held`` (wraps held across the belt) and
    ``barriers`` (barrier wraps) are rebuilt through their points (``_placed_run``) and joined
    straight to the runs beside them. The path passes every fixed point: without the ones
    between runs, a three-point belt's path ran from the retractor straight past its D-ring
    (the side barrier's belt then read 0.0 mm in the neck shell where, through the D-ring, it
    lies 54 mm deep: scenarios/HISTORY.md, forceline)."""
    n = len(points)
    runs, k = [], 0
    while k < n:                                     # runs that touch: (first, count)
        if points[k][1] is None:
            k += 1
            continue
        m = 1
        while k + m < n and points[k + m][1] is points[k][1]:
            m += 1
        if _touches(points[k][0], points[k][1]):
            runs.append((k, m))
        k += m
    path, on, piece = [np.asarray(points[0][0], float)], [-1], [0]
    touching = {first for first, _ in runs}

    def beside(k, step):
        """The touching point (or fixed point) the step places wrap k from, on one side: a
        barrier is passed (its slot holds the fixed point it is placed from, before or after it)
        unless k is one."""
        i = k + step
        while points[i][1] is not None and (i not in touching
                                             or (i in barriers and k not in barriers)):
            i += step
        return np.asarray(points[i][0], float)

    def straight(x, k):
        """On straight to x along the piece k."""
        a = path[-1]
        for s in np.linspace(0.0, 1.0, samples + 1)[1:]:
            path.append(a + s * (np.asarray(x, float) - a))
            on.append(-1)
            piece.append(k)

    def along(arc, first, before):
        """On over the arc of the run from point ``first``, ``before`` its points before each
        sample."""
        path.extend(arc)
        on.extend([first] * len(arc))
        piece.extend(first - 1 + np.asarray(before))

    def through_fixed(passed, stop):
        """On straight through the fixed points (a D-ring, a buckle) after point ``passed``
        (the last the path has passed) and before point ``stop``."""
        for i in range(passed + 1, stop):
            if points[i][1] is None:
                straight(points[i][0], i - 1)

    passed = 0                        # the last point the path has passed
    for r, (first, m) in enumerate(runs):
        ell = points[first][1]
        through_fixed(passed, first)
        passed = first + m - 1
        arc = None
        if all(i in held for i in range(first, first + m)) or first in barriers:
            arc = _placed_run(beside(first, -1), beside(first + m - 1, 1),
                              [points[i][0] for i in range(first, first + m)], ell, samples)
        if arc is not None:
            straight(arc[0][0], first - 1)
            along(arc[0], first, arc[1])
            continue
        if first in barriers:            # on its straight piece (its line point): no arc
            continue
        if r == len(runs) - 1 and points[first + m][1] is None:
            f, p = _scaled(points[first + m][0], ell), _scaled(points[first + m - 1][0], ell)
            u, e, a1, a0 = _arc(f, p, m)
        else:
            f = beside(first - 1, -1) if first - 1 in barriers else path[-1]
            f, p = _scaled(f, ell), _scaled(points[first][0], ell)
            u, e, a0, a1 = _arc(f, p, m)
        arc = [_unscaled(np.cos(a) * u + np.sin(a) * e, ell) for a in np.linspace(a0, a1, samples + 1)]
        straight(arc[0], first - 1)                    # the run's points divide its arc evenly
        along(arc, first, np.minimum(np.arange(samples + 1) * (m + 1) // samples, m))
    through_fixed(passed, n)
    return np.array(path), np.array(on), np.array(piece)


def depths(X, ell):
    """How far each point of X (n x 3, B0) lies inside the ellipsoid, along its scaled radius
    (0 outside)."""
    c, R, D = ell
    local = (np.atleast_2d(np.asarray(X, float)) - c) @ R
    rho = np.linalg.norm(local / D, axis=1)
    inside = np.linalg.norm(local, axis=1) * (1.0 / np.maximum(rho, 1e-12) - 1.0)
    return np.where(rho < 1.0, inside, 0.0)


def surface_depths(X, ell):
    """How far each point of X (n x 3, B0) lies inside the ellipsoid, to its nearest surface
    point (0 outside): what a belt through a body would have to move to be out of it. Along
    the scaled radius (``depths``) a point inside a flat ellipsoid (a chest pad) reads up to its
    largest semi-axis; this is at most its smallest. The nearest point of the surface to p
    (local, semi-axes a) is a_i^2 p_i / (a_i^2 + t) with t in (-a_min^2, 0] the root of
    sum (a_i p_i / (a_i^2 + t))^2 = 1 (found by bisection); where p lies in the plane across
    the smallest axis and no root lies below -a_min^2 the nearest points are off that plane
    (the t = -a_min^2 pair)."""
    c, R, D = ell
    local = (np.atleast_2d(np.asarray(X, float)) - c) @ R
    out = np.zeros(len(local))
    inside = np.linalg.norm(local / D, axis=1) < 1.0
    p = local[inside]
    if not len(p):
        return out
    a2 = np.asarray(D, float) ** 2

    def excess(t):
        return np.sum((np.sqrt(a2) * p / (a2 + t[:, None])) ** 2, axis=1) - 1.0

    lo, hi = np.full(len(p), -a2.min() * (1.0 - 1e-12)), np.zeros(len(p))
    rooted = excess(lo) > 0.0
    for _ in range(48):                      # to 4e-15 of a_min^2
        mid = 0.5 * (lo + hi)
        up = excess(mid) > 0.0
        lo, hi = np.where(up, mid, lo), np.where(up, hi, mid)
    near = a2 * p / (a2 + hi[:, None])
    # no root: the smallest axis's coordinate from the surface, the others from t = -a_min^2
    k = int(np.argmin(a2))
    others = np.arange(3) != k
    gap = a2[others] - a2[k]                 # 0 for an axis as small as the smallest
    flat = a2[others] * p[:, others] / np.where(gap > 0.0, gap, np.inf)
    rest = 1.0 - np.sum(flat ** 2 / a2[others], axis=1)
    off = np.zeros_like(p)
    off[:, others] = flat
    off[:, k] = np.sqrt(a2[k] * np.clip(rest, 0.0, None))
    near = np.where(rooted[:, None], near, off)
    out[inside] = np.linalg.norm(near - p, axis=1)
    return out


def depth(x, ell):
    """How far the point x (B0) lies inside the ellipsoid, along its scaled radius (0 outside)."""
    return float(depths(x, ell)[0])


def sample_depths(path, on, points, ellipsoids, checked=None, measure=depths):
    """{name: how deep each sample of the path (``belt_path``) lies inside that ellipsoid} over
    ``ellipsoids`` ({name: ellipsoid}), 0 for the samples not ``checked`` (a flag per sample; all
    when None) and for the samples of an arc on that ellipsoid (they lie on it); ``measure``
    ``depths`` (along the scaled radius) or ``surface_depths`` (to the nearest surface point)."""
    path, on = np.asarray(path, float), np.asarray(on, int)
    checked = np.ones(len(path), bool) if checked is None else np.array(checked, bool)
    out = {}
    for name, ell in ellipsoids.items():
        wraps = np.array([p[1] is ell for p in points] + [False])   # on[i] = -1: the False
        d = np.zeros(len(path))
        judged = checked & ~wraps[on]
        judged[judged] = depths(path[judged], ell) > 0.0          # inside: measured
        if judged.any():
            d[judged] = measure(path[judged], ell)
        out[name] = d
    return out


def deepest(path, on, points, ellipsoids, checked=None):
    """{name: the deepest any sample of the path (``belt_path``) lies inside that ellipsoid}
    over ``ellipsoids`` ({name: ellipsoid}), of the samples ``checked`` (a flag per sample; all
    when None); the samples of an arc on an ellipsoid are not checked against that ellipsoid
    (they lie on it): ``sample_depths``."""
    return {name: float(d.max(initial=0.0))
            for name, d in sample_depths(path, on, points, ellipsoids, checked).items()}


def ellipsoids_at(run, k, names):
    """{name: (centre, axes R, semi-axes)} of a run's ellipsoids ``names`` in B0 at sample k
    (``run``: an ``occupant.scenario.run.Run``; ``geometry_frame`` places them)."""
    geos = run.model.source.geometries
    return {name: (*geometry_frame(run.model, run.results, name, k)[::-1],
                   np.asarray(geos[name].semi_axes, float)) for name in names}


def belt_at(run, belt, k, names):
    """The run's belt ``belt`` at sample k, its path rebuilt from its recorded points
    (``belt_path``: straight pieces and arcs over its wraps): (path, on, piece as ``belt_path``
    gives them, its points [(x, ellipsoid or None)], {name: ellipsoid} over ``names``)."""
    points = run.model.source.belts[belt].points
    held = {i for i, p in enumerate(points) if getattr(p, "across", None)}
    barriers = {i for i, p in enumerate(points) if getattr(p, "barrier", False)}
    wrapped = {p.geometry for p in points if hasattr(p, "geometry")}
    E = ellipsoids_at(run, k, set(names) | wrapped)
    out = run.results.outputs
    chain = [(np.array([out[f"{belt}.{p.name}.{a}"][k] for a in "xyz"]),
              E[p.geometry] if hasattr(p, "geometry") else None) for p in points]
    path, on, piece = belt_path(chain, held=held, barriers=barriers)
    return path, on, piece, chain, {n: E[n] for n in names}


def belt_depths(run, belt, k, names, pieces=None):
    """{ellipsoid: how deep the run's belt ``belt`` lies inside it} at sample k, over ``names``:
    its path rebuilt from its recorded points (``belt_at``), over its pieces ``pieces`` only
    (indices, i between its points i and i + 1; all when None); the arcs on an ellipsoid the
    belt wraps are not checked against it (``deepest``)."""
    path, on, piece, chain, E = belt_at(run, belt, k, names)
    checked = None if pieces is None else np.isin(piece, list(pieces))
    return deepest(path, on, chain, E, checked)
