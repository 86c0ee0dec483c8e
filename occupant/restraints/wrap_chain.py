"""Wraps of a belt over two or more consecutive ellipsoids placed together
(``occupant.restraints.belt``): the belt's path from the fixed point before them to the one
after, over every ellipsoid at once.

The runs (wraps on one ellipsoid, ``run_length``) between two fixed points are joined by
straight pieces of belt. Each run r wraps its ellipsoid as ``wrap_point``'s wrap from a point
X_{r-1} to a point X_r (X_{-1}, X_R the fixed points): X_r a point of the straight piece from
run r to run r + 1. The path is the belt's when each X_r lies on a common tangent of both
wraps: the piece leaves run r's wrap at its tangent point t1 (seen from X_r), reaches run
r + 1's at t2, and u1 = (X_r - t1) / |X_r - t1| equals u2 = (t2 - X_r) / |t2 - X_r| (no kink at
X_r). u1 - u2 is the gradient of the path length in X_r (the derivative of a distance over a
convex body in its end point is the unit vector of its last straight piece), so the solve is
Newton's on the length: its Hessian in X_r from differences of that gradient (along the piece,
where the length does not change, 1 / min(l1, l2) added, so X_r moves to the middle of t1 and
t2 there; a step uphill or longer than the pieces becomes a gradient step with 4 times the
straight pieces' Hessian 1 / l1 + 1 / l2), in Gauss-Seidel order over the X_r until the largest
kink is below KINK, never into an ellipsoid (the step halved). Started from where the previous
evaluation placed the runs (the middle between their neighbouring points, when both lie on
their surfaces), else from the middle of the two ellipsoids' sides pushed out of both. With
the X_r found, each run is placed as one wrap from X_{r-1} to X_r (``place_run``), and a run that does not touch its
ellipsoid (the straight piece passes it) is put on the line of its placed neighbours, so its
segments merge (no force, ``belt.merged``).
Limit: a join is a free point off both ellipsoids; where the shortest path over two
overlapping ellipsoids would cross their crease (no straight piece between them), the solve
stays at the crease unconverged (a shoulder ellipsoid on the thorax, scenarios/validation
HISTORY.md).

Before this, neighbouring runs were placed one at a time, each between its neighbours' wrap
points, in Gauss-Seidel sweeps: the middles of neighbouring wraps are not a belt's path, and
the sweeps had more than one fixed point, found by where they started (issue 11: a shoulder
ellipsoid above the thorax swung HIC and Nij with a 10 mm shift, and GS1 diverged). Wraps that
keep their place across the belt (``across``) are placed by ``place_held``: their places fix
their planes, and two of them may share one ellipsoid, where the joins of ``place_chain`` do
not exist (placed by ``place_chain``, the side barrier's held lap wraps on the pelvis jumped
73 mm in a sample and the lap belt spiked to 50 kN). Consecutive held wraps on one ellipsoid
are placed together, each at its fraction of the wrap in its own plane, as a run
(``place_run``); placed one at a time in Gauss-Seidel sweeps, they fell onto one another
and returned crossed (``place_held``)."""
import numpy as np
from numba import njit

from occupant.contact.carrier import carrier_travel
from occupant.jit import JIT_INLINE, JIT_STAGE
from occupant.model.bundle import BELT_WRAP
from occupant.restraints.wrap_geometry import (
    _norm, _to_base, _to_local, ellipsoid_frame, held_arc_point, hook_point, line_fraction,
    line_point, wrap_arc_point,
)

KINK = 1.0e-10        # largest kink |u1 - u2| (rad) of the solved path at its joins
FD_STEP = 1.0e-7      # m: step of the differences that give the length's Hessian at a join
ITERATIONS = 60       # Newton sweeps at most
HELD_SWEEPS = 6       # Gauss-Seidel sweeps over neighbouring held wraps (``place_held``; the
                      # error shrinks about 4 times a sweep)
BARRIER_END = 0.025   # m: a barrier off its ellipsoid lies this far from its piece's ends at
                      # least (``place_barrier``; over MERGE_LENGTH, 0.02 m, of ``restraints.belt_flow``)
BARRIER_BAND = 0.025  # m [E]: gap between a barrier's ellipsoid and its straight piece over which
                      # the wraps after it come to be placed from the fixed point before it, not
                      # from the barrier's point (``barrier_start``)
BARRIER_STILL = 1.0e-13   # m: the wraps after a barrier are placed again from its point until
                          # that point moves less than this (``belt._place_barriers``)
BARRIER_SWEEPS = 40   # their placements after a barrier at most
HALVINGS = 40         # step halvings that keep a join out of both ellipsoids at most
ON_LINE = 1.0e-9      # m: a held wrap off its ellipsoid this near the line of the points beside
                      # it does not touch (``lifted``; placed there to rounding, 1e-16 m)
WAY_TIE = 0.1         # [E] band of a touching barrier's ways round, in the cosine of the angle
                      # between its place and the line between the two ways' middles (scaled
                      # frame), over which its point is blended from one way's to the other's
                      # (``_way_weight``): 6 deg either side of the tie
BETWEEN = 2.0         # BeltBlock.point_barrier of a barrier between two wraps (placed with them,
                      # ``belt_points._place_between_barrier``; 1 and -1: from the fixed point
                      # before or after it)
TOUCHING = 1.0        # Data.belt_touch of a barrier placed touching its ellipsoid
THROUGH = 2.0         # of one lifted, its piece through its ellipsoid from the side it does not
                      # declare (``place_barrier``); 0 lifted, its piece clear of it


@njit(**JIT_INLINE)
def wrap_place(el, z, k):
    """Wrap point k's place across the belt on its ellipsoid (a direction in the scaled frame,
    its state), or zero for a wrap without friction across the belt (on its shortest path)."""
    jz = el.point_z[k]
    if el.point_across[k] == 0.0:
        return 0.0, 0.0, 0.0
    return z[jz], z[jz + 1], z[jz + 2]


@njit(**JIT_INLINE)
def chained(el, k):
    """Whether belt point k is a wrap placed with its neighbouring wraps (``place_chain``,
    ``place_held``): every wrap but a barrier (``place_barrier``), which they take for a fixed
    point."""
    return el.point_kind[k] == BELT_WRAP and el.point_barrier[k] == 0.0


@njit(**JIT_STAGE)
def same_surface(el, k, n):
    """Whether belt points k and n are both wraps on their shortest path (no ``across``) over
    the same ellipsoid: consecutive, they are placed together (``place_run``)."""
    if el.point_across[k] != 0.0 or el.point_across[n] != 0.0:
        return False
    return same_ellipsoid(el, k, n)


@njit(**JIT_STAGE)
def same_ellipsoid(el, k, n):
    """Whether belt points k and n are both wraps (not barriers) over the same ellipsoid."""
    if not chained(el, k) or not chained(el, n) \
            or el.point_link[k] != el.point_link[n]:
        return False
    for i in range(3):
        if el.point_r[k, i] != el.point_r[n, i] or el.point_size[k, i] != el.point_size[n, i]:
            return False
        for c in range(3):
            if el.point_R[k, i, c] != el.point_R[n, i, c]:
                return False
    return True


@njit(**JIT_STAGE)
def run_length(el, k):
    """Number of wraps from point k placed together with it (``same_surface``): 0 when k is not
    a wrap or is placed with the wrap before it."""
    if not chained(el, k) or same_surface(el, k - 1, k):
        return 0
    m = 1
    while same_surface(el, k + m - 1, k + m):
        m += 1
    return m


@njit(**JIT_STAGE)
def run_start(el, k):
    """The first wrap of the run wrap k is placed with (``same_surface``; ``run_length`` from it)."""
    while same_surface(el, k - 1, k):
        k -= 1
    return k


@njit(**JIT_INLINE)
def run_side(el, k, m):
    """The side the run of m wraps from k faces: the sum of its points' sides."""
    s0, s1, s2 = 0.0, 0.0, 0.0
    for i in range(m):
        s0, s1, s2 = s0 + el.point_side[k + i, 0], s1 + el.point_side[k + i, 1], \
            s2 + el.point_side[k + i, 2]
    return s0, s1, s2


@njit(**JIT_INLINE)
def run_way(el, z, k, m):
    """The direction (ellipsoid frame) that picks the way round the ellipsoid of the run of m
    wraps from k (``wrap_arc_point``'s side): where the belt lies on it, its points' places (their
    states, directions in the scaled frame that follow the points, ``belt.wrap_slide``), so the
    way round changes only as the belt moves over the body; before the places are set (the fit),
    the sides the wraps declare (``run_side``). Chosen by the declared side alone, the way flipped
    when the body turned under the belt: GS1's lap belt, hooked over the pelvis from anchorages
    below it, jumped through the pelvis onto the straight line between them when the pelvis
    tilted forward 35 deg (path 0.96 -> 0.60 m) and back on the rebound (0.60 -> 0.90 m in one
    step: strains of 10^4 and a diverged run)."""
    s0, s1, s2 = 0.0, 0.0, 0.0
    for i in range(m):
        jz = el.point_z[k + i]
        s0, s1, s2 = s0 + z[jz], s1 + z[jz + 1], s2 + z[jz + 2]
    if s0 == 0.0 and s1 == 0.0 and s2 == 0.0:
        return run_side(el, k, m)
    return s0 / el.point_size[k, 0], s1 / el.point_size[k, 1], s2 / el.point_size[k, 2]


@njit(**JIT_STAGE)
def place_run(data, el, out, k, m, o_pts, p0, z, a, b, hook):
    """Place the m wrap points from k (global index; belt's first point p0; wraps over one
    ellipsoid) on the belt's wrap from a to b (B0), writing them into the outputs; returns
    whether the last one's wrap touches. Point i lies at the fraction (i + 1) / (m + 1) of the
    arc of ``wrap_point``'s wrap from a to b in the plane through its own place (``wrap_place``;
    the way round where the belt lies, ``run_way``). Wraps on their shortest path share one
    plane, so they lie equally spaced on one wrap: each is then the middle of the wrap between
    its neighbours, the fixed point that Gauss-Seidel sweeps over the points one at a time would
    seek, found directly (on one ellipsoid those sweeps need not converge: they can cycle
    between the ways round and put two points onto one, a jump of the belt's path through the
    body). Held wraps (``across``) keep each its plane through its place, and so their order
    along the belt (``place_held``); a held wrap's hook is handed over to the line a-b as its
    short way does not wrap (``held_arc_point``) with the weight ``hook`` (below 0: its own, from
    a and b; 1: kept whole)."""
    c, E = ellipsoid_frame(data, el, k)
    j = o_pts + 3 * (k - p0)
    al = _to_local(c, E, a[0], a[1], a[2])
    bl = _to_local(c, E, b[0], b[1], b[2])
    D = (el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2])
    side = run_way(el, z, k, m)
    active = True
    for i in range(m):
        s = wrap_place(el, z, k + i)
        frac = (i + 1.0) / (m + 1.0)
        if hook < 0.0:
            P, active, _ = held_arc_point(D, side, al, bl, s, frac)
        elif hook < 1.0:      # from the hook, whichever way the place now faces
            P, L = hook_point(D, side, al, bl, s, frac), line_point(D, al, bl)
            P = (L[0] + hook * (P[0] - L[0]), L[1] + hook * (P[1] - L[1]),
                 L[2] + hook * (P[2] - L[2]))
            active = hook > 0.0
        else:
            P, active = wrap_arc_point(D, side, al, bl, s, frac)
        ji = j + 3 * i
        out[ji], out[ji + 1], out[ji + 2] = _to_base(c, E, P[0], P[1], P[2])
    return active


@njit(**JIT_INLINE)
def _inside(data, el, k, x):
    """Whether the B0 point x lies inside point k's ellipsoid."""
    c, E = ellipsoid_frame(data, el, k)
    p = _to_local(c, E, x[0], x[1], x[2])
    D = el.point_size[k]
    return (p[0] / D[0]) ** 2 + (p[1] / D[1]) ** 2 + (p[2] / D[2]) ** 2 < 1.0


@njit(**JIT_INLINE)
def _on_surface(data, el, k, x):
    """Whether the B0 point x lies on point k's ellipsoid (within 1e-6 of its scaled radius)."""
    c, E = ellipsoid_frame(data, el, k)
    p = _to_local(c, E, x[0], x[1], x[2])
    D = el.point_size[k]
    return abs((p[0] / D[0]) ** 2 + (p[1] / D[1]) ** 2 + (p[2] / D[2]) ** 2 - 1.0) < 1e-6


@njit(**JIT_STAGE)
def _tangent(data, el, k, m, z, a, b, frac):
    """Run k's (m wraps) tangent point in B0 on its wrap from a to b: a's (frac 0) or b's
    (frac 1); where the wrap does not touch, the far end of the straight line (b or a)."""
    c, E = ellipsoid_frame(data, el, k)
    D = (el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2])
    P, active = wrap_arc_point(D, run_way(el, z, k, m), _to_local(c, E, a[0], a[1], a[2]),
                               _to_local(c, E, b[0], b[1], b[2]), wrap_place(el, z, k), frac)
    if not active:
        return b if frac == 0.0 else a
    return _to_base(c, E, P[0], P[1], P[2])


@njit(**JIT_INLINE)
def _side_point(data, el, k, m):
    """Run k's surface point in B0 on the side it faces, and that side's unit normal in B0."""
    c, E = ellipsoid_frame(data, el, k)
    D = el.point_size[k]
    s = run_side(el, k, m)
    v0, v1, v2 = s[0] * D[0], s[1] * D[1], s[2] * D[2]
    nv = max(_norm(v0, v1, v2), 1e-300)
    n0, n1, n2 = s[0] / D[0], s[1] / D[1], s[2] / D[2]
    nn = max(_norm(n0, n1, n2), 1e-300)
    x = _to_base(c, E, D[0] * v0 / nv, D[1] * v1 / nv, D[2] * v2 / nv)
    return x, (E[0] * n0 / nn + E[1] * n1 / nn + E[2] * n2 / nn,
               E[3] * n0 / nn + E[4] * n1 / nn + E[5] * n2 / nn,
               E[6] * n0 / nn + E[7] * n1 / nn + E[8] * n2 / nn)


@njit(**JIT_INLINE)
def _read(out, j):
    return out[j], out[j + 1], out[j + 2]


@njit(**JIT_INLINE)
def _next_run(el, k):
    """The first point of the run after the run from k (its length m): k + m."""
    return k + run_length(el, k)


@njit(**JIT_STAGE)
def _start_join(data, el, out, k, m, n, mn, o_pts, p0):
    """The join between run k (m wraps) and run n (mn wraps) to start from, written into the
    slot of run k's last point: the middle between their neighbouring points as placed before
    (both on their surfaces: the previous evaluation's path), or, if not or lying in either
    ellipsoid, the middle of their sides pushed out of both along the
    sum of their side normals."""
    jl, jf = o_pts + 3 * (k + m - 1 - p0), o_pts + 3 * (n - p0)
    x = (0.5 * (out[jl] + out[jf]), 0.5 * (out[jl + 1] + out[jf + 1]),
         0.5 * (out[jl + 2] + out[jf + 2]))
    if not (_on_surface(data, el, k + m - 1, _read(out, jl))
            and _on_surface(data, el, n, _read(out, jf))) \
            or _inside(data, el, k, x) or _inside(data, el, n, x):
        xa, na = _side_point(data, el, k, m)
        xb, nb = _side_point(data, el, n, mn)
        x = (0.5 * (xa[0] + xb[0]), 0.5 * (xa[1] + xb[1]), 0.5 * (xa[2] + xb[2]))
        d0, d1, d2 = na[0] + nb[0], na[1] + nb[1], na[2] + nb[2]
        step = 1e-3 / max(_norm(d0, d1, d2), 1e-300)
        base = x
        for _ in range(60):
            if not (_inside(data, el, k, x) or _inside(data, el, n, x)):
                break
            x = (base[0] + step * d0, base[1] + step * d1, base[2] + step * d2)
            step *= 2.0
    out[jl], out[jl + 1], out[jl + 2] = x


@njit(**JIT_STAGE)
def _kink(data, el, z, k, m, n, mn, a, b, x):
    """At the join x between run k (m wraps, from a) and run n (mn wraps, to b): the length's
    gradient u1 - u2 (3), the unit vector from t1 to t2 and the lengths l1, l2 (module
    docstring)."""
    t1 = _tangent(data, el, k, m, z, a, x, 1.0)
    t2 = _tangent(data, el, n, mn, z, x, b, 0.0)
    d10, d11, d12 = x[0] - t1[0], x[1] - t1[1], x[2] - t1[2]
    d20, d21, d22 = t2[0] - x[0], t2[1] - x[1], t2[2] - x[2]
    l1, l2 = _norm(d10, d11, d12), _norm(d20, d21, d22)
    e0, e1, e2 = d10 + d20, d11 + d21, d12 + d22
    le = max(_norm(e0, e1, e2), 1e-300)
    g0, g1, g2 = 0.0, 0.0, 0.0
    if l1 > 0.0:
        g0, g1, g2 = d10 / l1, d11 / l1, d12 / l1
    if l2 > 0.0:
        g0, g1, g2 = g0 - d20 / l2, g1 - d21 / l2, g2 - d22 / l2
    return (g0, g1, g2), (e0 / le, e1 / le, e2 / le), l1, l2, t1, t2


@njit(**JIT_INLINE)
def _solve3(A, r):
    """The solution of the 3 x 3 system A x = r (A row-major, 9), by Cramer's rule; zero when
    A is singular."""
    det = (A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6])
           + A[2] * (A[3] * A[7] - A[4] * A[6]))
    if det == 0.0:
        return 0.0, 0.0, 0.0
    x0 = (r[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (r[1] * A[8] - A[5] * r[2])
          + A[2] * (r[1] * A[7] - A[4] * r[2])) / det
    x1 = (A[0] * (r[1] * A[8] - A[5] * r[2]) - r[0] * (A[3] * A[8] - A[5] * A[6])
          + A[2] * (A[3] * r[2] - r[1] * A[6])) / det
    x2 = (A[0] * (A[4] * r[2] - r[1] * A[7]) - A[1] * (A[3] * r[2] - r[1] * A[6])
          + r[0] * (A[3] * A[7] - A[4] * A[6])) / det
    return x0, x1, x2


@njit(**JIT_STAGE)
def _newton_join(data, el, out, z, k, m, n, mn, a, b, o_pts, p0):
    """One Newton step (module docstring) of the join X between run k (m wraps, from a) and run
    n (mn wraps, to b), X held in the slot of run k's last point; returns its kink |u1 - u2|
    before the step. The Hessian by differences of the gradient over FD_STEP, symmetrised, with
    1 / min(l1, l2) added along the piece (where the length does not change), so the step
    along it is the move to the middle of t1 and t2."""
    jx = o_pts + 3 * (k + m - 1 - p0)
    x = _read(out, jx)
    g, e, l1, l2, t1, t2 = _kink(data, el, z, k, m, n, mn, a, b, x)
    kink = _norm(g[0], g[1], g[2])
    if l1 + l2 == 0.0:
        return 0.0
    c = 1.0 / max(min(l1, l2), 1e-6)
    h0 = _kink(data, el, z, k, m, n, mn, a, b, (x[0] + FD_STEP, x[1], x[2]))[0]
    h1 = _kink(data, el, z, k, m, n, mn, a, b, (x[0], x[1] + FD_STEP, x[2]))[0]
    h2 = _kink(data, el, z, k, m, n, mn, a, b, (x[0], x[1], x[2] + FD_STEP))[0]
    H00, H11, H22 = (h0[0] - g[0]) / FD_STEP, (h1[1] - g[1]) / FD_STEP, (h2[2] - g[2]) / FD_STEP
    H01 = 0.5 * ((h1[0] - g[0]) + (h0[1] - g[1])) / FD_STEP
    H02 = 0.5 * ((h2[0] - g[0]) + (h0[2] - g[2])) / FD_STEP
    H12 = 0.5 * ((h2[1] - g[1]) + (h1[2] - g[2])) / FD_STEP
    A = (H00 + c * e[0] * e[0], H01 + c * e[0] * e[1], H02 + c * e[0] * e[2],
         H01 + c * e[1] * e[0], H11 + c * e[1] * e[1], H12 + c * e[1] * e[2],
         H02 + c * e[2] * e[0], H12 + c * e[2] * e[1], H22 + c * e[2] * e[2])
    along = (0.5 * (t1[0] + t2[0]) - x[0]) * e[0] + (0.5 * (t1[1] + t2[1]) - x[1]) * e[1] \
        + (0.5 * (t1[2] + t2[2]) - x[2]) * e[2]
    r = (-g[0] + c * along * e[0], -g[1] + c * along * e[1], -g[2] + c * along * e[2])
    s0, s1, s2 = _solve3(A, r)
    # a step beyond the pieces' length, or uphill, is cut back (the Hessian can lose its sign
    # far from the path): the length falls along -g
    limit = 0.5 * (l1 + l2)
    size = _norm(s0, s1, s2)
    if size > limit or s0 * g[0] + s1 * g[1] + s2 * g[2] > 0.0:
        q = 0.25 * l1 * l2 / (l1 + l2)
        s0, s1, s2 = -q * g[0] + along * e[0], -q * g[1] + along * e[1], -q * g[2] + along * e[2]
    for _ in range(HALVINGS):
        y = (x[0] + s0, x[1] + s1, x[2] + s2)
        if not (_inside(data, el, k, y) or _inside(data, el, n, y)):
            out[jx], out[jx + 1], out[jx + 2] = y
            break
        s0, s1, s2 = 0.5 * s0, 0.5 * s1, 0.5 * s2
    return kink


@njit(**JIT_STAGE)
def place_chain(data, el, out, k0, o_pts, p0, z):
    """Place the wraps from k0 to the next fixed point (consecutive runs on different
    ellipsoids) together on the belt's path over all of them (module docstring); the fixed
    points before k0 and after the wraps already in the outputs. Returns the number of Newton
    sweeps taken (ITERATIONS + 1: not converged to KINK)."""
    last = k0                      # the last run's first point
    while chained(el, _next_run(el, last)):
        n = _next_run(el, last)
        _start_join(data, el, out, last, run_length(el, last), n, run_length(el, n), o_pts, p0)
        last = n
    kf = _next_run(el, last)      # the fixed point after the chain
    sweeps = ITERATIONS + 1
    for sweep in range(ITERATIONS):
        worst = 0.0
        k = k0
        a = _read(out, o_pts + 3 * (k0 - 1 - p0))
        while k != last:
            m = run_length(el, k)
            n = k + m
            mn = run_length(el, n)
            b = _read(out, o_pts + 3 * ((kf if n == last else n + mn - 1) - p0))
            worst = max(worst, _newton_join(data, el, out, z, k, m, n, mn, a, b, o_pts, p0))
            a = _read(out, o_pts + 3 * (k + m - 1 - p0))
            k = n
        if worst < KINK:
            sweeps = sweep + 1
            break
    # place the runs from the last back (each reads its join before its slots are written)
    touching, r = 0, 0            # bit r: the r-th run from the last touches
    k = last
    while True:
        m = run_length(el, k)
        b = _read(out, o_pts + 3 * ((kf if k == last else k + m - 1) - p0))
        if place_run(data, el, out, k, m, o_pts, p0, z, _read(out, o_pts + 3 * (k - 1 - p0)), b,
                     1.0):
            touching |= 1 << r
        if k == k0:
            break
        k -= 1
        while run_length(el, k) == 0:
            k -= 1
        r += 1
    # runs that do not touch: on the line of their placed neighbours (r counts from the last)
    k = k0
    while k != kf:
        m = run_length(el, k)
        if not touching & (1 << r):
            n = k + m
            while n != kf and not touching & (1 << (r - _runs_between(el, k, n))):
                n = _next_run(el, n)
            _put_on_line(data, el, out, k, m, o_pts, p0, _read(out, o_pts + 3 * (k - 1 - p0)),
                         _read(out, o_pts + 3 * (n - p0)))
        k += m
        r -= 1
    return sweeps


@njit(**JIT_INLINE)
def held_in_chain(el, k0):
    """Whether a wrap from k0 to the next fixed point keeps its place across the belt
    (``across``): such wraps are placed by ``place_held``, not ``place_chain``."""
    k = k0
    while chained(el, k):
        if el.point_across[k] != 0.0:
            return True
        k += 1
    return False


@njit(**JIT_STAGE)
def held_length(el, k):
    """Number of wraps placed together from point k in ``place_held``: the held wraps (``across``)
    from k on k's ellipsoid, or the run of shortest-path wraps from k (``run_length``)."""
    if el.point_across[k] == 0.0:
        return run_length(el, k)
    m = 1
    while el.point_across[k + m] != 0.0 and same_ellipsoid(el, k, k + m):
        m += 1
    return m


@njit(**JIT_INLINE)
def held_group(el, k):
    """(first wrap, number of wraps) of held wrap k's group: the held wraps on its ellipsoid
    placed together with it (``held_length``), in the planes through their places and the
    group's ``touching_ends``."""
    g = k
    while el.point_across[g - 1] != 0.0 and same_ellipsoid(el, g - 1, g):
        g -= 1
    return g, held_length(el, g)


@njit(**JIT_STAGE)
def place_held(data, el, out, k0, o_pts, p0, z):
    """Place the wraps from k0 to the next fixed point where some keep their place across the
    belt (``across``). Consecutive held wraps on one ellipsoid (``held_length``) are placed
    together, each in the plane through its place at its fraction of the wrap from the point
    before them to the one after (``place_run``): where no straight piece joins them,
    ``place_chain``'s joins off both surfaces do not exist, and placed one at a time between
    their neighbours (Gauss-Seidel sweeps), a held wrap's neighbour is a point on its own
    surface, with no tangent point: the wrap fell onto it, and the sweeps cycled, the wraps
    returning crossed (the side barrier's lap belt over the pelvis: force steps of 85-800 kN
    in a step, the wraps 24 -> 178 mm apart; issue 11). Held wraps on one ellipsoid between
    fixed points (all that ship) are so placed exactly. Groups on different ellipsoids are
    placed between their neighbours that touch (``touching_ends``) in HELD_SWEEPS Gauss-Seidel
    sweeps: each held group starts at its places on its surface, a shortest-path run on the
    line to the fixed point after it; an iterate, not a converged fixed point. The wraps that
    do not touch are then put on the straight pieces between those that do (``_straighten``).
    A group whose hook is being handed over to the line (``held_arc_point``: its weight below 1
    in the chain so placed, every hook whole) is placed again with its neighbours at that
    weight (up to two such groups; ``_place_between_touching``): weighed in the chain that
    holds it, the hook moved the chest wrap towards the line, which lowered its weight again,
    and it went to the line in 20 us (GS1's abdomen wrap, 142.34-142.36 ms)."""
    kf = k0
    while chained(el, kf):
        kf += 1
    if held_length(el, k0) == kf - k0:
        _place_between(data, el, out, k0, kf - k0, o_pts, p0, z, -1.0)
        return
    jf = o_pts + 3 * (kf - p0)
    k = k0
    while k != kf:
        m = run_length(el, k)
        if not _put_at_place(data, el, out, k, o_pts, p0, z):
            j = o_pts + 3 * (k + m - p0)
            out[j], out[j + 1], out[j + 2] = out[jf], out[jf + 1], out[jf + 2]
            _place_between(data, el, out, k, m, o_pts, p0, z, 1.0)
        k += m
    _held_sweeps(data, el, out, k0, kf, o_pts, p0, z, -1, 1.0, -1, 1.0)
    # hooks handed over (``held_arc_point``): their weights from the chain placed with every
    # hook whole, the chain placed again at those weights
    h1, w1, h2, w2 = -1, 1.0, -1, 1.0
    k = k0
    while k != kf:
        m = held_length(el, k)
        w = _group_hook(data, el, out, z, k, m, o_pts, p0)
        if w < 1.0 and h1 < 0:
            h1, w1 = k, w
        elif w < 1.0 and h2 < 0:
            h2, w2 = k, w
        k += m
    if h1 >= 0:
        _held_sweeps(data, el, out, k0, kf, o_pts, p0, z, h1, w1, h2, w2)


@njit(**JIT_STAGE)
def _held_sweeps(data, el, out, k0, kf, o_pts, p0, z, h1, w1, h2, w2):
    """``place_held``'s HELD_SWEEPS - 1 sweeps over the groups from k0 to the fixed point kf
    (``_place_between_touching``, hooks h1, h2 handed over at w1, w2), then ``_straighten``."""
    for sweep in range(HELD_SWEEPS - 1):
        k = k0
        while k != kf:
            m = held_length(el, k)
            _place_between_touching(data, el, out, k, m, o_pts, p0, z, h1, w1, h2, w2)
            k += m
    _straighten(data, el, out, k0, kf, o_pts, p0)


@njit(**JIT_INLINE)
def lifted(data, el, out, k, o_pts, p0, moved):
    """Whether belt point k is a wrap lying off its (undeformed) ellipsoid: one that does not
    touch, on the straight piece of its neighbours (a held wrap off it being handed over to it,
    ``_on_line``, touches); ``moved``: the carried wraps that touch have been moved by their
    carriers' travel (``belt.place_points``), taken back here. A barrier wrap whose slot holds
    its own point (``place_barrier``'s, Data.belt_touch 0 or 1) is read by that placement's
    verdict, not by the surface test: kept BARRIER_END from its end on a tangent piece
    (``_off_ends``) a touching barrier's point lies off its ellipsoid (1e-6 to 3.3e-5 of its
    scaled radius in the human's lap belt over its thighs), and read as lifted there the belt's
    length stepped by the onset fade's share of the run's excess as the test flipped: 12.5 mm in
    the onset rig of tests/restraints/test_belt_barrier.py, 9.6-23.7 kN in the human's lap belt
    (scenarios/HISTORY.md, twobar and barrierverdict)."""
    if el.point_kind[k] != BELT_WRAP:
        return False
    if el.point_barrier[k] != 0.0 and data.belt_touch[k] >= 0.0:
        return data.belt_touch[k] != TOUCHING
    j = o_pts + 3 * (k - p0)
    x = undeformed_point(data, el, out, k, j) if moved else _read(out, j)
    if _on_surface(data, el, k, x):
        return False
    return el.point_across[k] == 0.0 or _on_line(out, j)


@njit(**JIT_INLINE)
def _on_line(out, j):
    """Whether the belt point at output slot j lies on the line of the points beside it (within
    ON_LINE): a held wrap off its ellipsoid there does not touch; off that line it is a hook
    being handed over to it (``held_arc_point``), which touches while its weight lasts."""
    d0, d1, d2 = out[j + 3] - out[j - 3], out[j + 4] - out[j - 2], out[j + 5] - out[j - 1]
    x0, x1, x2 = out[j] - out[j - 3], out[j + 1] - out[j - 2], out[j + 2] - out[j - 1]
    dd = d0 * d0 + d1 * d1 + d2 * d2
    q = (x0 * d0 + x1 * d1 + x2 * d2) / dd if dd > 0.0 else 0.0
    return _norm(x0 - q * d0, x1 - q * d1, x2 - q * d2) <= ON_LINE


@njit(**JIT_STAGE)
def held_hook(data, el, out, z, k, o_pts, p0):
    """Held wrap k's hook as placed (``place_held``, ``held_arc_point``): (its weight, the point
    on the hook at its fraction of its group's wrap (``held_length``) on its undeformed
    ellipsoid, that group's touching ends before and after: B0, taken back by their carriers'
    travel as they stood when it was placed). The weight is read off k's point: 1 on its
    ellipsoid (the hook whole), else the fraction of the way from the line's point
    (``line_point``) to the hook's at which it lies (0 on the line). Weight 1 and k's own point
    for a wrap not held."""
    j = o_pts + 3 * (k - p0)
    x = undeformed_point(data, el, out, k, j)
    if el.point_across[k] == 0.0 or _on_surface(data, el, k, x):
        return 1.0, x, x, x
    g, m = held_group(el, k)
    i, n = touching_ends(data, el, out, g, m, o_pts, p0, True)
    a = held_end(data, el, out, z, i, -1, _as_placed(data, el, out, i, o_pts, p0), o_pts, p0, True)
    b = held_end(data, el, out, z, n, 1, _as_placed(data, el, out, n, o_pts, p0), o_pts, p0, True)
    c, E = ellipsoid_frame(data, el, k)
    D = (el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2])
    al, bl = _to_local(c, E, a[0], a[1], a[2]), _to_local(c, E, b[0], b[1], b[2])
    P = hook_point(D, run_way(el, z, g, m), al, bl, wrap_place(el, z, k),
                   (k - g + 1.0) / (m + 1.0))
    L = line_point(D, al, bl)
    p = _to_local(c, E, x[0], x[1], x[2])
    d0, d1, d2 = P[0] - L[0], P[1] - L[1], P[2] - L[2]
    dd = d0 * d0 + d1 * d1 + d2 * d2
    w = ((p[0] - L[0]) * d0 + (p[1] - L[1]) * d1 + (p[2] - L[2]) * d2) / dd if dd > 0.0 else 1.0
    return min(max(w, 0.0), 1.0), _to_base(c, E, P[0], P[1], P[2]), a, b


@njit(**JIT_INLINE)
def _as_placed(data, el, out, k, o_pts, p0):
    """Belt point k (B0) as it stood when the wraps were placed: a wrap's taken back by its
    carrier's travel (``undeformed_point``)."""
    j = o_pts + 3 * (k - p0)
    if el.point_kind[k] == BELT_WRAP:
        return undeformed_point(data, el, out, k, j)
    return _read(out, j)


@njit(**JIT_INLINE)
def _carrier_shifted(data, el, out, k, j, sign):
    """Wrap k's point (B0, at output slot j) plus ``sign`` times its carrier's travel
    (``carried_travel``) where it is carried."""
    x, y, w = out[j], out[j + 1], out[j + 2]
    if el.point_carrier[k] != el.point_link[k]:
        dx, dy, dz = carried_travel(data, el, k)
        x, y, w = x + sign * dx, y + sign * dy, w + sign * dz
    return x, y, w


@njit(**JIT_INLINE)
def undeformed_point(data, el, out, k, j):
    """Wrap k's point (B0, at output slot j) back on its undeformed ellipsoid: less its
    carrier's travel where it is carried."""
    return _carrier_shifted(data, el, out, k, j, -1.0)


@njit(**JIT_INLINE)
def placed_point(data, el, out, k, o_pts, p0):
    """Belt point k (B0) where it will lie: a carried wrap's point moved by its carrier's travel
    (as ``belt.place_points`` moves a touching one)."""
    j = o_pts + 3 * (k - p0)
    if el.point_kind[k] == BELT_WRAP:
        return _carrier_shifted(data, el, out, k, j, 1.0)
    return out[j], out[j + 1], out[j + 2]


@njit(**JIT_INLINE)
def carried_travel(data, el, k):
    """How far (B0) carried wrap k's point lies from its place on the undeformed ellipsoid: its
    carrier's travel times its share (``Wrap.share``; 1: the whole travel)."""
    dx, dy, dz = carrier_travel(data, el.point_link[k], el.point_carrier[k], el.point_carrier_r[k])
    c = el.point_share[k]
    if c != 1.0:
        dx, dy, dz = c * dx, c * dy, c * dz
    return dx, dy, dz


@njit(**JIT_STAGE)
def touching_ends(data, el, out, k, m, o_pts, p0, moved):
    """The nearest points before point k and after point k + m - 1 that the belt reaches
    straight from them: anchors, rings, or wraps on their ellipsoids (``lifted``: one that does
    not touch lies on the straight piece of its neighbours, and can lie at its end, on the
    touching wrap's own point, to which that wrap has no tangent point); ``moved`` as
    ``lifted``'s."""
    i = k - 1
    while lifted(data, el, out, i, o_pts, p0, moved):
        i -= 1
    n = k + m
    while lifted(data, el, out, n, o_pts, p0, moved):
        n += 1
    return i, n


@njit(**JIT_STAGE)
def _straighten(data, el, out, k0, kf, o_pts, p0):
    """Put the wraps from k0 to the fixed point kf that do not touch (``lifted``) on the straight
    piece between their ``touching_ends``, each at its point nearest its ellipsoid
    (``line_point``) but never behind the one before it on that piece: where the sweeps of
    ``place_held`` left them, each on the line of its neighbours as they stood when it was
    placed, the pieces between such points were not one straight piece (their summed length
    jumped as a neighbour lifted off: GS1 with a barrier on the upper arm, a 0.5 mm segment 73 mm
    long in one step, 20 MN)."""
    k = k0
    while k < kf:
        if not lifted(data, el, out, k, o_pts, p0, False):
            k += 1
            continue
        i, n = touching_ends(data, el, out, k, 1, o_pts, p0, False)
        a, b = _read(out, o_pts + 3 * (i - p0)), _read(out, o_pts + 3 * (n - p0))
        q = 0.0
        for w in range(k, n):
            c, E = ellipsoid_frame(data, el, w)
            D = (el.point_size[w, 0], el.point_size[w, 1], el.point_size[w, 2])
            q = max(q, line_fraction(D, _to_local(c, E, a[0], a[1], a[2]),
                                     _to_local(c, E, b[0], b[1], b[2])))
            j = o_pts + 3 * (w - p0)
            out[j], out[j + 1], out[j + 2] = (a[0] + q * (b[0] - a[0]), a[1] + q * (b[1] - a[1]),
                                              a[2] + q * (b[2] - a[2]))
        k = n


@njit(**JIT_STAGE)
def _place_between_touching(data, el, out, k, m, o_pts, p0, z, h1, w1, h2, w2):
    """``place_run`` of the run k (m wraps) between its ``touching_ends``. Placed between its
    neighbours as they stood, a held wrap whose neighbour did not touch and lay on the wrap's own
    point (the end of its straight piece) had no tangent point there: its arc shrank with every
    sweep and it left its surface (GS1 with a barrier wrap on the upper arm: the shoulder wrap
    off the shoulder, 39 kN; tests/restraints/test_belt_held_wraps.py). Held groups h1 and h2
    (-1: none) are hooks handed over with the weights w1 and w2 (``place_held``): such a group
    is placed at its weight, and an end that is such a group's point is taken w of the way from
    the touching point beyond it (``_handed_end``), so the run moves on to that point as the
    hook goes (placed towards the hook's point while it went to the line, GS1's chest wrap
    stepped 16 mm as it lifted)."""
    i, n = touching_ends(data, el, out, k, m, o_pts, p0, False)
    a, b = _read(out, o_pts + 3 * (i - p0)), _read(out, o_pts + 3 * (n - p0))
    if el.point_across[k] != 0.0:
        a = held_end(data, el, out, z, i, -1, a, o_pts, p0, False)
        b = held_end(data, el, out, z, n, 1, b, o_pts, p0, False)
    a = _handed_end(data, el, out, i, -1, o_pts, p0, h1, w1, h2, w2, a)
    b = _handed_end(data, el, out, n, 1, o_pts, p0, h1, w1, h2, w2, b)
    hook = w1 if k == h1 else (w2 if k == h2 else 1.0)
    if el.point_across[k] != 0.0 and not _has_place(el, z, k):
        _place_halfway(data, el, out, k, m, o_pts, p0, z, a, b)
    else:
        place_run(data, el, out, k, m, o_pts, p0, z, a, b, hook)


@njit(**JIT_INLINE)
def _has_place(el, z, k):
    """Whether held wrap k has its place across the belt (``wrap_place``): every wrap has once
    the belts are fitted; only the fit's first placement has none (``fitting.fit_belts``)."""
    s = wrap_place(el, z, k)
    return s[0] != 0.0 or s[1] != 0.0 or s[2] != 0.0


@njit(**JIT_STAGE)
def _place_halfway(data, el, out, k, m, o_pts, p0, z, a, b):
    """``place_run`` of held group k (m wraps, without a place: on its shortest wrap from a to b,
    ``wrap_arc_point``) moved halfway from where its points stood: each at the mean of the two
    directions in its ellipsoid's scaled frame where both lie on the ellipsoid (else where
    placed). Next to a run whose ends are nearly antipodal (its arc swinging round its
    ellipsoid for a small move of an end) the sweeps of ``place_held`` cycled between two paths:
    GS1's fit on the body settled under gravity, its abdomen wrap 0.42 <-> 0.02-0.11 forward and
    its shoulder wrap between the sternum and the thorax's inboard flank from one sweep to the
    next; the fit's last sweep picked one, and the fitted belt jumped round the flanks for 1 %
    more of the settling's motion. Halved, the cycle's factor (about -1.2) becomes about -0.1
    and the sweeps settle within three (tests/human/test_validation_sled.py,
    test_reference_gs1_belt_fit_follows_the_settling). Such a group's hook is whole (with no
    place its wrap is not hooked, ``held_arc_point``), so ``hook`` does not enter."""
    c, E = ellipsoid_frame(data, el, k)
    D = (el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2])
    al = _to_local(c, E, a[0], a[1], a[2])
    bl = _to_local(c, E, b[0], b[1], b[2])
    side = run_way(el, z, k, m)
    for i in range(m):
        j = o_pts + 3 * (k + i - p0)
        old = _read(out, j)
        P, active = wrap_arc_point(D, side, al, bl, (0.0, 0.0, 0.0), (i + 1.0) / (m + 1.0))
        if active and _on_surface(data, el, k, old):
            u = _to_local(c, E, old[0], old[1], old[2])
            w0, w1, w2 = (u[0] + P[0]) / D[0], (u[1] + P[1]) / D[1], (u[2] + P[2]) / D[2]
            nw = _norm(w0, w1, w2)
            if nw > 0.0:
                P = (D[0] * w0 / nw, D[1] * w1 / nw, D[2] * w2 / nw)
        out[j], out[j + 1], out[j + 2] = _to_base(c, E, P[0], P[1], P[2])


@njit(**JIT_STAGE)
def held_end(data, el, out, z, e, way, x, o_pts, p0, moved):
    """End x (B0) of a held group, belt point e (``way`` -1: before the group, 1: after it), as
    the group is placed and judged from it: where e is a shortest-path run's wrap
    (``run_length``), that run's tangent point towards the group (``_tangent``, on its wrap
    between its ``touching_ends``), else x. The run's point is the middle of its arc, which
    swings far round its ellipsoid for a small move of nearly antipodal ends; its tangent
    point, where the belt leaves it for the group, does not: placed from the middle, GS1's held
    abdomen wrap slid across the belly under gravity alone while the thorax run rolled round
    the thorax's flank, 21.1 kN on the shoulder belt (tests/restraints/
    test_belt_under_gravity.py). ``moved`` as ``touching_ends``'."""
    if not chained(el, e) or el.point_across[e] != 0.0:
        return x
    r = run_start(el, e)
    m = run_length(el, r)
    i, n = touching_ends(data, el, out, r, m, o_pts, p0, moved)
    if moved:
        a, b = _as_placed(data, el, out, i, o_pts, p0), _as_placed(data, el, out, n, o_pts, p0)
    else:
        a, b = _read(out, o_pts + 3 * (i - p0)), _read(out, o_pts + 3 * (n - p0))
    return _tangent(data, el, r, m, z, a, b, 1.0 if way < 0 else 0.0)


@njit(**JIT_STAGE)
def _handed_end(data, el, out, e, way, o_pts, p0, h1, w1, h2, w2, x):
    """End point x (B0) of a run, belt point e (``way`` -1: before the run, 1: after it): where e
    is a wrap of a hook handed over with weight w (held group h1 or h2), the point w of the way
    from the touching point beyond that group to x; else x."""
    for h, w in ((h1, w1), (h2, w2)):
        if h < 0 or e < h or e >= h + held_length(el, h):
            continue
        i, n = touching_ends(data, el, out, h, held_length(el, h), o_pts, p0, False)
        f = _read(out, o_pts + 3 * ((n if way > 0 else i) - p0))
        return (f[0] + w * (x[0] - f[0]), f[1] + w * (x[1] - f[1]), f[2] + w * (x[2] - f[2]))
    return x


@njit(**JIT_STAGE)
def _group_hook(data, el, out, z, k, m, o_pts, p0):
    """The weight (``held_arc_point``) of the hook of held group k (m wraps) between its
    ``touching_ends`` as they stand: the least of its wraps'; 1 for a group not held."""
    if el.point_across[k] == 0.0:
        return 1.0
    i, n = touching_ends(data, el, out, k, m, o_pts, p0, False)
    c, E = ellipsoid_frame(data, el, k)
    D = (el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2])
    a = held_end(data, el, out, z, i, -1, _read(out, o_pts + 3 * (i - p0)), o_pts, p0, False)
    b = held_end(data, el, out, z, n, 1, _read(out, o_pts + 3 * (n - p0)), o_pts, p0, False)
    al, bl = _to_local(c, E, a[0], a[1], a[2]), _to_local(c, E, b[0], b[1], b[2])
    w = 1.0
    for g in range(k, k + m):
        w = min(w, held_arc_point(D, run_way(el, z, k, m), al, bl, wrap_place(el, z, g), 0.5)[2])
    return w


@njit(**JIT_INLINE)
def _place_between(data, el, out, k, m, o_pts, p0, z, hook):
    """``place_run`` of the run k (m wraps) between the points before and after it as they
    stand in the outputs (``hook`` as ``place_run``'s)."""
    j, jb = o_pts + 3 * (k - 1 - p0), o_pts + 3 * (k + m - p0)
    place_run(data, el, out, k, m, o_pts, p0, z, _read(out, j), _read(out, jb), hook)


@njit(**JIT_INLINE)
def _put_at_place(data, el, out, k, o_pts, p0, z):
    """Write held wrap k's place on its ellipsoid (B0) into the outputs; False when it has none
    (no ``across``, or not yet placed)."""
    s = wrap_place(el, z, k)
    ns = _norm(s[0], s[1], s[2])
    if ns == 0.0:
        return False
    c, E = ellipsoid_frame(data, el, k)
    j = o_pts + 3 * (k - p0)
    out[j], out[j + 1], out[j + 2] = _to_base(c, E, el.point_size[k, 0] * s[0] / ns,
                                              el.point_size[k, 1] * s[1] / ns,
                                              el.point_size[k, 2] * s[2] / ns)
    return True


@njit(**JIT_INLINE)
def _runs_between(el, k, n):
    """Number of runs from run k up to (not including) the run starting at n."""
    count = 0
    while k != n:
        k = _next_run(el, k)
        count += 1
    return count


@njit(**JIT_STAGE)
def _put_on_line(data, el, out, k, m, o_pts, p0, a, b):
    """The m points of a run that does not touch, on the line from a to b (B0): at its point
    nearest the ellipsoid's centre in the scaled frame (``wrap_arc_point``'s point when the
    wrap does not touch)."""
    c, E = ellipsoid_frame(data, el, k)
    D = (el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2])
    L = line_point(D, _to_local(c, E, a[0], a[1], a[2]), _to_local(c, E, b[0], b[1], b[2]))
    P = _to_base(c, E, L[0], L[1], L[2])
    for i in range(m):
        j = o_pts + 3 * (k + i - p0)
        out[j], out[j + 1], out[j + 2] = P


@njit(**JIT_STAGE)
def _off_ends(D, side, a, b, s, P):
    """Barrier point P (the middle of its wrap from a to b, ellipsoid frame) moved along the
    belt's path to BARRIER_END from its ends at least (half the path's length where shorter),
    as ``place_barrier`` puts it on a straight piece: the path a, the arc's tangent points and
    P (the arc taken as its two chords), b. So the point is continuous as the wrap touches
    where that piece enters the ellipsoid at its end (a neighbour's place entering it: the arc
    of no length at that place; there P jumped BARRIER_END from the piece onto it: GS1 with a
    barrier on the upper arm, 35 mm, the belt unloaded, scenarios/validation/HISTORY.md,
    armbarrier and barriertouch)."""
    ta = wrap_arc_point(D, side, a, b, s, 0.0)[0]
    tb = wrap_arc_point(D, side, a, b, s, 1.0)[0]
    l0 = _norm(ta[0] - a[0], ta[1] - a[1], ta[2] - a[2])
    l1 = _norm(P[0] - ta[0], P[1] - ta[1], P[2] - ta[2])
    l2 = _norm(tb[0] - P[0], tb[1] - P[1], tb[2] - P[2])
    l3 = _norm(b[0] - tb[0], b[1] - tb[1], b[2] - tb[2])
    total = l0 + l1 + l2 + l3
    end = min(BARRIER_END, 0.5 * total)
    at = min(max(l0 + l1, end), total - end)
    if at <= l0:
        return _toward(a, ta, at, l0)
    if at <= l0 + l1:
        return _onto(D, _toward(ta, P, at - l0, l1))
    if at <= l0 + l1 + l2:
        return _onto(D, _toward(P, tb, at - l0 - l1, l2))
    return _toward(tb, b, at - l0 - l1 - l2, l3)


@njit(**JIT_INLINE)
def _onto(D, p):
    """The point p of one of the arc's chords (``_off_ends``) put back on the arc: along its
    ray from the centre onto the ellipsoid of semi-axes D (scaled frame). Left on the chord,
    just inside, ``lifted``'s surface test (1e-6) judged the barrier off its ellipsoid while
    ``place_barrier`` had it touching, and the belt's length stepped by the onset fade's share
    of the excess (``belt_path._onset_fade``): 12.5 mm in the onset rig of tests/restraints/
    test_belt_barrier.py as the point came to BARRIER_END from the wrap after it; 4.1 mm, 18.3
    kN, in the human's lap belt with a barrier on its outboard thigh (scenarios/HISTORY.md,
    barrierstep)."""
    rho = _norm(p[0] / D[0], p[1] / D[1], p[2] / D[2])
    if rho == 0.0:
        return p
    return p[0] / rho, p[1] / rho, p[2] / rho


@njit(**JIT_INLINE)
def _toward(u, v, d, l):
    """The point d along the piece from u to v of length l (u where l is zero)."""
    f = d / l if l > 0.0 else 0.0
    return u[0] + f * (v[0] - u[0]), u[1] + f * (v[1] - u[1]), u[2] + f * (v[2] - u[2])


@njit(**JIT_INLINE)
def _inside_plane(D, a, b, s):
    """The place that fixes the plane of a barrier's wrap from a to b (ellipsoid frame) where an
    end lies inside its ellipsoid: a unit point (scaled frame) of the plane through a and b along
    the place's normal (s in the scaled frame), where the line from the deeper end along s meets
    the sphere farther from it. Through a, b and the place itself (``wrap_place``'s plane), the
    plane tilted where the place lay near the line of its ends, as the belt enters the body at
    its place (GS1 with a barrier on the upper arm, b 6 % inside: its normal turned 64 deg in 50
    us and the point chattered 9.5 mm an output, the arm-shoulder segment 0 / 13.7 / 0 / 12.8
    kN; scenarios/HISTORY.md, barrierwraps); through the place raised along its normal by the
    end's depth, it tilted where that raised point neared the line (the wayround rig, 4.3 mm).
    As the end enters, the point is its own nearest on either plane where the other end sees
    it directly (``wrap_arc_point``: an arc of no length, GS1's case); where it does not, the
    plane changes there. s unchanged where no end lies inside."""
    sa = (a[0] / D[0], a[1] / D[1], a[2] / D[2])
    sb = (b[0] / D[0], b[1] / D[1], b[2] / D[2])
    na, nb = _norm(sa[0], sa[1], sa[2]), _norm(sb[0], sb[1], sb[2])
    ns = _norm(s[0], s[1], s[2])
    if min(na, nb) >= 1.0 or ns == 0.0:
        return s
    e, ne = (sa, na) if na < nb else (sb, nb)
    u0, u1, u2 = s[0] / ns, s[1] / ns, s[2] / ns
    B = e[0] * u0 + e[1] * u1 + e[2] * u2
    root = np.sqrt(B * B + 1.0 - ne * ne)
    t = -B - root if B > 0.0 else -B + root
    return e[0] + t * u0, e[1] + t * u1, e[2] + t * u2


@njit(**JIT_STAGE)
def barrier_start(data, el, out, k, o_pts, p0, w):
    """The point the wraps after barrier k are placed from: w g of the way from the fixed point
    before it to its point (w: ``place_barrier``'s weight; g: that point's gap to the ellipsoid
    of the wrap after it, ``_start_gap``, over BARRIER_BAND, at most 1), the point taken back by
    that wrap's travel where it is carried. Placed from a point in
    or near their ellipsoid (the barrier's point lies BARRIER_END from theirs where the wrap is
    short), they had no tangent point from it, and their placements and the barrier's did not
    settle: the wrap went round its ellipsoid (the carried rig of
    tests/restraints/test_belt_barrier.py, 198 mm in 10 um of lift). For a barrier placed from
    the fixed point after it (``point_barrier`` -1), the same with before and after swapped."""
    j = o_pts + 3 * (k - p0)
    f = j - 3 * int(el.point_barrier[k])       # the fixed point it is placed from
    g, (x, y, v) = _start_gap(data, el, out, k, o_pts, p0)
    w *= min(g / BARRIER_BAND, 1.0)
    return (out[f] + w * (x - out[f]), out[f + 1] + w * (y - out[f + 1]),
            out[f + 2] + w * (v - out[f + 2]))


@njit(**JIT_STAGE)
def placed_before(data, el, out, k, o_pts, p0):
    """Whether the wraps after barrier k (before it where ``point_barrier`` is -1) are placed
    from the fixed point it is placed from whatever the barrier's weight (``barrier_start``):
    its point lies in the ellipsoid of the wrap after it (before it)
    (gap 0), so they move with that fixed point and their ellipsoid alone (``belt_path.
    _slide_from``): side_barrier's and aeb_precrash_frontal's neck barrier in every sample, its
    point at 0.77-0.99 and 0.91-0.98 of the thorax's scaled radius (scenarios/HISTORY.md,
    barrierslide)."""
    return _start_gap(data, el, out, k, o_pts, p0)[0] == 0.0


@njit(**JIT_STAGE)
def _start_gap(data, el, out, k, o_pts, p0):
    """(gap, point): barrier k's point (B0), taken back by the travel of the wrap after it where
    that wrap is carried (they are placed on their undeformed ellipsoids, the barrier from their
    moved points, ``placed_point``), and its gap to that wrap's ellipsoid (``_gap``); the wrap
    before it for a barrier placed from the fixed point after it (``point_barrier`` -1)."""
    j = o_pts + 3 * (k - p0)
    n = k + int(el.point_barrier[k])
    x, y, v = out[j], out[j + 1], out[j + 2]
    if el.point_carrier[n] != el.point_link[n]:
        dx, dy, dz = carried_travel(data, el, n)
        x, y, v = x - dx, y - dy, v - dz
    c, E = ellipsoid_frame(data, el, n)
    D = (el.point_size[n, 0], el.point_size[n, 1], el.point_size[n, 2])
    return _gap(D, _to_local(c, E, x, y, v)), (x, y, v)


@njit(**JIT_INLINE)
def _gap(D, p):
    """How far the point p (ellipsoid frame) lies outside the ellipsoid of semi-axes D, along
    its ray from the centre (0 inside)."""
    rho = _norm(p[0] / D[0], p[1] / D[1], p[2] / D[2])
    return _norm(p[0], p[1], p[2]) * (1.0 - 1.0 / rho) if rho > 1.0 else 0.0


@njit(**JIT_STAGE)
def _barrier_arc_point(D, way, a, b, s, P):
    """A touching barrier's point (ellipsoid frame) on its wrap from a to b in the plane through
    s: P, the middle of the way round ``way`` (``wrap_arc_point``), kept BARRIER_END from its ends
    (``_off_ends``) where nearer (``place_barrier``)."""
    if min(_norm(P[0] - a[0], P[1] - a[1], P[2] - a[2]),
           _norm(P[0] - b[0], P[1] - b[1], P[2] - b[2])) < BARRIER_END:
        P = _off_ends(D, way, a, b, s, P)
    return P


@njit(**JIT_STAGE)
def _way_weight(D, way, m, o, ways):
    """The weight of the way round ``way`` picks for a touching barrier's wrap, its middle m,
    against the other way's (picked by -way), its middle o (``wrap_arc_point``'s, both ``ways``
    wrapping; else 1): 1 where its middle
    faces the place (c = way D, scaled frame) more than the other's by WAY_TIE or more, in
    x = c . (m - o) / (|c| |m - o|) (scaled frame; x = 0 where they
    face it equally, ``_arc``'s tie), falling to 1/2 at the tie as 1/2 + smooth(x / WAY_TIE) / 2
    (smooth(y) = 3 y^2 - 2 y^3): the blend of the two ways' points (``place_barrier``) is the
    same from either side of the tie. Picked by the tie alone, the barrier's point jumped between
    the two ways where its plane cut a small cap of its ellipsoid (circle radius 0.085 of the
    scaled one) and its place lay about opposite both middles: the 5th female's outboard thigh
    barrier, 19 mm between placements as its start moved 1 um, and the pair's placement with
    a barrier at each end of the lap belt's pelvis wraps had no fixed point there, its sweeps
    alternating between the two 13 mm apart (scenarios/HISTORY.md, pairconverge). 1 where the
    other way does not wrap."""
    if not ways:
        return 1.0
    c0, c1, c2 = way[0] * D[0], way[1] * D[1], way[2] * D[2]
    d0, d1, d2 = (m[0] - o[0]) / D[0], (m[1] - o[1]) / D[1], (m[2] - o[2]) / D[2]
    size = _norm(c0, c1, c2) * _norm(d0, d1, d2)
    if size == 0.0:
        return 1.0
    x = (c0 * d0 + c1 * d1 + c2 * d2) / (size * WAY_TIE)
    if x >= 1.0:
        return 1.0
    x = max(x, 0.0)
    return 0.5 + 0.5 * x * x * (3.0 - 2.0 * x)


@njit(**JIT_STAGE)
def place_barrier(data, el, out, k, o_pts, p0, z):
    """Place barrier wrap k (``Wrap.barrier``; after a fixed point, or before one: then read
    after and before swapped) once the wraps after it are placed (``chained``; first as if it
    were not there, ``belt._place_barriers``): between the fixed point before it and the
    nearest point after it that touches (``touching_ends``) the
    belt is straight unless that piece enters its ellipsoid from the side the wrap declares;
    then the wrap is ``wrap_arc_point``'s middle round that side, else the piece's point nearest
    the centre (scaled frame, ``line_point``), on the piece (its segments merge: no force,
    ``belt.merged``). The side the piece enters from is where the belt last lay: the wrap's
    place (its state, following the point, ``belt.wrap_slide``), or before it is set (the fit)
    the nearest point's; so the wrap holds the belt on that side while the body moves under it
    past the ellipsoid's centre, and a piece that reaches the ellipsoid from the other side
    passes through it (no wrap round the far side in one step). The way round the wrap takes is
    chosen by that place too (``run_way``; the declared side before it is set): chosen by the
    declared side, where both ways' middles faced away from it (the belt on the arm's front, the
    side inboard-up) the choice tied as an end inside the ellipsoid moved, and the point jumped
    round the far side (GS1 with a barrier on the upper arm, 112 mm in 10 us, 1305 kN;
    scenarios/HISTORY.md, wayround). As the piece comes to graze the ellipsoid the wrap's arc
    shrinks to its nearest point, and the point is kept BARRIER_END along the path from its ends
    as on the piece (``_off_ends``): it touches without a jump, also where the piece enters at
    its end (a neighbour's place entering the ellipsoid). A shortest-path wrap there (placed
    with its neighbours by ``place_chain``) jumped between two paths round the neck (US NCAP's
    shoulder belt, 299 kN in a sample), and one held across the belt never lifted off
    (scenarios/validation/HISTORY.md, beltneck). Returns the weight with which the wraps after
    it are placed from its point (``barrier_start``): 1 where its piece enters the ellipsoid,
    falling to 0 as the piece's gap to it grows to BARRIER_BAND, so they move without a step as
    it lets go (placed from its point while it touched and from the fixed point once it did not,
    side_barrier's shoulder wrap jumped 17.6 mm; scenarios/HISTORY.md, barrierwraps). Its ends
    are taken where they will lie (``placed_point``: a carried end moved by its carrier) and the
    barrier is not carried (``belt.carry_lifted``): judged from the undeformed end and carried
    only while off its ellipsoid, it stepped by the end's travel as it came onto it (GS1 with a
    barrier on the upper arm beside the sternum-carried shoulder wrap, 13 mm;
    scenarios/validation/HISTORY.md, barrierstep). Whether it touches goes into
    ``data.belt_touch`` (Data.belt_touch), the one verdict every reader of the belt's path takes
    for it (``lifted``), with whether a lifted piece passes through the ellipsoid (THROUGH):
    while it enters it, touching or through, the place does not cross the declared side's
    plane (``belt_wraps._kept_on_its_side``), so the verdict changes only at a graze."""
    i, n = touching_ends(data, el, out, k, 1, o_pts, p0, False)
    a, b = placed_point(data, el, out, i, o_pts, p0), placed_point(data, el, out, n, o_pts, p0)
    c, E = ellipsoid_frame(data, el, k)
    D = (el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2])
    al, bl = _to_local(c, E, a[0], a[1], a[2]), _to_local(c, E, b[0], b[1], b[2])
    L = line_point(D, al, bl)
    side = (el.point_side[k, 0], el.point_side[k, 1], el.point_side[k, 2])
    jz = el.point_z[k]
    m0, m1, m2 = z[jz] * D[0], z[jz + 1] * D[1], z[jz + 2] * D[2]
    if m0 == 0.0 and m1 == 0.0 and m2 == 0.0:
        m0, m1, m2 = L
    enters = _norm(L[0] / D[0], L[1] / D[1], L[2] / D[2]) < 1.0
    touching = enters and m0 * side[0] + m1 * side[1] + m2 * side[2] > 0.0
    if touching:
        s, way = _inside_plane(D, al, bl, (z[jz], z[jz + 1], z[jz + 2])), run_way(el, z, k, 1)
        # each way round's middle, once (``wrap_arc_point``); near their tie (the middles facing
        # the place equally) the other way's point too, blended (``_way_weight``)
        back = (-way[0], -way[1], -way[2])
        m, active = wrap_arc_point(D, way, al, bl, s, 0.5)
        o, other = wrap_arc_point(D, back, al, bl, s, 0.5)
        P = _barrier_arc_point(D, way, al, bl, s, m)
        wc = _way_weight(D, way, m, o, active and other)
        if wc < 1.0:
            Q = _barrier_arc_point(D, back, al, bl, s, o)
            P = (Q[0] + wc * (P[0] - Q[0]), Q[1] + wc * (P[1] - Q[1]), Q[2] + wc * (P[2] - Q[2]))
            if _norm(P[0] / D[0], P[1] / D[1], P[2] / D[2]) < 1.0:
                P = _onto(D, P)
    else:
        # that nearest point, but BARRIER_END from the piece's ends (a segment shorter than
        # MERGE_LENGTH merges the wrap beside it, ``belt.merge_weight``: the shoulder wrap lost
        # its force where the point lay on it, US NCAP 0.73 kN in one sample)
        q = line_fraction(D, al, bl)
        end = min(BARRIER_END / max(_norm(b[0] - a[0], b[1] - a[1], b[2] - a[2]), 1e-300), 0.5)
        q = min(max(q, end), 1.0 - end)
        P = (al[0] + q * (bl[0] - al[0]), al[1] + q * (bl[1] - al[1]),
             al[2] + q * (bl[2] - al[2]))
    j = o_pts + 3 * (k - p0)
    out[j], out[j + 1], out[j + 2] = _to_base(c, E, P[0], P[1], P[2])
    # the verdict ``lifted`` reads, and ``belt_wraps.wrap_slide`` (its place kept on its side
    # of the declared side's plane while the piece enters the ellipsoid)
    data.belt_touch[k] = TOUCHING if touching else (THROUGH if enters else 0.0)
    return max(1.0 - _gap(D, L) / BARRIER_BAND, 0.0)
