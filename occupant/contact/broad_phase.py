"""Broad phase over the declared contact pairs (issue 11 section 1): which pairs' bounding
spheres may overlap, found without visiting every declared pair.

The pairs are declared (in the model or the scenario), and a pair whose bounding spheres (one per
geometry, ``compile_contacts``) are apart skips the narrow phase (``contact.compliant``). Testing
each declared pair's spheres costs a distance per pair, which grows as N x M where a scenario
declares N bodies against M surfaces. Here the distinct spheres of the pairs are swept instead,
sort and sweep along x of B0 (Baraff 1992, "Dynamic simulation of non-penetrating rigid bodies",
ch. 6; Cohen et al. 1995, I-COLLIDE): the intervals [x - r, x + r] of the spheres on B0 sorted
by their lower ends once, at compile time, with the running maximum of their upper ends; those
of the spheres on links sorted by insertion sort from the previous evaluation's order (near
linear when little moves; a warm start only: the pairs found do not depend on it) and swept
among themselves where some pair joins two links; each sphere on a link meets the spheres on B0
by a binary search and a walk back. Each pair of spheres overlapping along x and within reach in
3D is looked up among the declared pairs (sorted keys, a binary search): the cost is the
spheres' count plus their overlaps', not the declared pairs'. The pairs it does not find have
their spheres apart; the others keep the declared-pair test of their spheres' distance, so the
narrow phase runs on exactly the pairs it ran on before (forces and outputs identical to the
bit). Pairs with an unbounded plane or a moved geometry are never swept. Below SWEEP_PAIRS swept
pairs the sweep is off and every pair's spheres are tested, as before (no cheaper with the
sweep there: tests/benchmarks/bench_contact_pairs.py). The contact loop still writes each declared
pair's outputs (0 while apart), linear in the declared pairs.
"""
import numpy as np
from numba import njit

from occupant.jit import JIT, JIT_INLINE

# Swept pairs from which the sweep is on [D]: measured with tests/benchmarks/bench_contact_pairs.py
# (the write-up in scenarios/HISTORY.md, branch broadphase).
SWEEP_PAIRS = 100
# m, each interval grown by this much so that rounding never parts two spheres that touch [E]
# (positions are of order 1 m, computed to ~1e-15 m).
PAD = 1e-6


@njit(**JIT_INLINE)
def in_base(R, p, link, x, y, z):
    """The point (x, y, z) of ``link`` (-1: B0) in B0, from the kinematics' R_base_link and
    p_base_link (arrays passed, not Data: a call given Data costs its reference counting)."""
    if link < 0:
        return x, y, z
    return (p[link, 0] + R[link, 0, 0] * x + R[link, 0, 1] * y + R[link, 0, 2] * z,
            p[link, 1] + R[link, 1, 0] * x + R[link, 1, 1] * y + R[link, 1, 2] * z,
            p[link, 2] + R[link, 2, 0] * x + R[link, 2, 1] * y + R[link, 2, 2] * z)


@njit(**JIT_INLINE)
def _find(keys, key):
    """Index of ``key`` in the sorted ``keys``, -1 if absent."""
    lo, hi = 0, keys.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < keys.shape[0] and keys[lo] == key:
        return lo
    return -1


@njit(**JIT_INLINE)
def _meet(el, culled, ns, s, u, sx, sy, sz, sr, ux, uy, uz, ur):
    """Spheres s and u overlap along x: their declared pairs are let through unless the spheres
    are apart by more than PAD (each radius holds PAD already); 1 if they were looked up."""
    if (sx - ux) ** 2 + (sy - uy) ** 2 + (sz - uz) ** 2 > (sr + ur) ** 2:
        return 0
    k = _find(el.sweep_keys, min(s, u) * ns + max(s, u))
    if k >= 0:
        for m in range(el.sweep_key_start[k], el.sweep_key_start[k + 1]):
            culled[el.sweep_pairs[m]] = 0
    return 1


@njit(**JIT)
def sweep(el, R, p, bounds, order, culled):
    """``culled`` (nc,) set to 1 for each swept pair whose bounding spheres are apart, 0 for the
    others (``el``: the ContactBlock; ``bounds`` (nmv, 6) and ``order`` (nmv,): the sweep's
    scratch in Data); returns how many pairs of spheres it looked up (its work besides the
    sort). Nothing with the sweep off (``el.sweep`` 0). The spheres on links are swept among
    themselves (where pairs join two links: ``el.sweep_links``); those on B0 (fixed there) were
    sorted once, and each sphere on a link meets them by a binary search and a walk back over
    the running maximum of their upper ends."""
    if not el.sweep:
        return 0
    nmv, st = el.sphere_radius.shape[0], el.static_bounds
    ns = nmv + st.shape[0]
    finite = True
    for s in range(nmv):
        c = el.sphere_centre
        x, y, z = in_base(R, p, el.sphere_link[s], c[s, 0], c[s, 1], c[s, 2])
        r = el.sphere_radius[s] + PAD
        bounds[s, 0], bounds[s, 1], bounds[s, 2], bounds[s, 3] = x - r, x + r, x, y
        bounds[s, 4], bounds[s, 5] = z, r
        finite = finite and np.isfinite(x) and np.isfinite(y) and np.isfinite(z)
    for m in range(el.sweep_pairs.shape[0]):
        culled[el.sweep_pairs[m]] = 1 if finite else 0
    if not finite:          # a position gone to nan or inf: every pair's spheres are tested
        return 0
    for i in range(1, nmv if el.sweep_links else 0):   # insertion sort of the kept order by
        # the intervals' lower ends (needed only where the spheres on links meet)
        s, lo = order[i], bounds[order[i], 0]
        j = i - 1
        while j >= 0 and bounds[order[j], 0] > lo:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = s
    found = 0
    for i in range(nmv):
        s = order[i]
        lo, hi, sx, sy, sz, sr = (bounds[s, 0], bounds[s, 1], bounds[s, 2], bounds[s, 3],
                                  bounds[s, 4], bounds[s, 5])
        for j in range(i + 1, nmv if el.sweep_links else 0):   # the spheres on links starting
            u = order[j]                                       # within s's interval
            if bounds[u, 0] > hi:
                break
            if el.sphere_link[u] != el.sphere_link[s]:
                found += _meet(el, culled, ns, s, u, sx, sy, sz, sr, bounds[u, 2], bounds[u, 3],
                               bounds[u, 4], bounds[u, 5])
        a, b = 0, st.shape[0]                # the spheres on B0: the first starting above hi
        while a < b:
            mid = (a + b) // 2
            if st[mid, 0] <= hi:
                a = mid + 1
            else:
                b = mid
        j = a - 1
        while j >= 0 and st[j, 2] >= lo:     # some sphere at or before j still reaches lo
            if st[j, 1] >= lo:
                found += _meet(el, culled, ns, s, el.static_sphere[j], sx, sy, sz, sr, st[j, 3],
                               st[j, 4], st[j, 5], st[j, 6])
            j -= 1
    return found


def sweep_arrays(link_a, p_a, bound_a, link_b, centre_b, bound_b, mover_b, broad_phase=True):
    """The ContactBlock's sweep fields from the compiled pairs' bounding spheres: the distinct
    spheres of the pairs swept (finite spheres, no moved geometry), those on links (in their
    frames) numbered first, then those on B0 sorted by their intervals' lower ends (``sweep``'s
    static_bounds rows: lower and upper end, running maximum of the upper ends, centre, radius
    with PAD), and the pairs grouped by their spheres' key i ns + j (i < j, keys sorted);
    ``sweep`` 1 from SWEEP_PAIRS swept pairs (with ``broad_phase``)."""
    index, spheres, ends = {}, [], []

    def sphere(link, centre, radius):
        key = (int(link), *map(float, centre), float(radius))
        if key not in index:
            index[key] = len(spheres)
            spheres.append(key)
        return index[key]

    for e in range(len(link_a)):
        if np.isfinite(bound_b[e]) and mover_b[e] < 0:
            ends.append((sphere(link_a[e], p_a[e], bound_a[e]),
                         sphere(link_b[e], centre_b[e], bound_b[e]), e))
    moving = [k for k, sp in enumerate(spheres) if sp[0] >= 0]
    fixed = sorted((k for k, sp in enumerate(spheres) if sp[0] < 0),
                   key=lambda k: spheres[k][1] - spheres[k][4])
    number = {k: n for n, k in enumerate(moving + fixed)}
    ns, nmv = len(spheres), len(moving)
    keyed = sorted((min(number[i], number[j]) * ns + max(number[i], number[j]), e)
                   for i, j, e in ends)
    keys = np.array([k for k, _ in keyed], dtype=np.int64)
    unique, start = np.unique(keys, return_index=True)
    static = np.zeros((len(fixed), 7))
    for n, k in enumerate(fixed):
        _, x, y, z, r = spheres[k]
        static[n] = (x - r - PAD, x + r + PAD, 0.0, x, y, z, r + PAD)
    static[:, 2] = np.maximum.accumulate(static[:, 1]) if len(fixed) else 0.0
    return dict(
        sweep=int(bool(broad_phase) and len(keyed) >= SWEEP_PAIRS),
        sweep_links=int(any(spheres[i][0] >= 0 and spheres[j][0] >= 0 for i, j, _ in ends)),
        sphere_link=np.array([spheres[k][0] for k in moving], dtype=np.int64),
        sphere_centre=np.array([spheres[k][1:4] for k in moving], dtype=float).reshape(nmv, 3),
        sphere_radius=np.array([spheres[k][4] for k in moving], dtype=float),
        static_bounds=static,
        static_sphere=np.arange(nmv, ns, dtype=np.int64),
        sweep_keys=unique.astype(np.int64),
        sweep_key_start=np.append(start, len(keyed)).astype(np.int64),
        sweep_pairs=np.array([e for _, e in keyed], dtype=np.int64))


@njit(**JIT_INLINE)
def box_gap(el, R, p, e):
    """Distance (m) by which pair e's bounding sphere of geometry a (radius bound_a about p_a)
    clears its box b, or the rectangle of a bounded plane (size_b[2] < 0), less PAD; 0 where
    the sphere may touch. A second, tighter test after the spheres' (``contact.compliant``): a
    seat cushion's, a floor's or a knee bolster's sphere holds bodies that are clear of the box
    itself (US NCAP: 42 of its 47 box pairs pass the spheres' test, 11 of them this one). The
    box's narrow phase is exact (``convex_pairs``: minus the distance when apart), so a pair it
    culls is one that narrow phase finds apart. A rectangle's face is one-sided: its contact
    holds a body that went through it (behind it, over the rectangle), so only a sphere in front
    of its plane, or clear of its edges beside it, is culled."""
    lb = el.link_b[e]
    cx, cy, cz = in_base(R, p, el.link_a[e], el.p_a[e, 0], el.p_a[e, 1], el.p_a[e, 2])
    ox, oy, oz = in_base(R, p, lb, el.p_b[e, 0], el.p_b[e, 1], el.p_b[e, 2])
    ux, uy, uz = cx - ox, cy - oy, cz - oz
    excess = 0.0    # squared distance of the sphere's centre from the box (lateral: a rectangle)
    ahead = -np.inf  # a rectangle's: how far the centre lies in front of its plane
    for j in range(3):
        # b's axis j in B0 (R_b's column j, turned by b's link)
        wx, wy, wz = el.R_b[e, 0, j], el.R_b[e, 1, j], el.R_b[e, 2, j]
        if lb >= 0:
            wx, wy, wz = (R[lb, 0, 0] * wx + R[lb, 0, 1] * wy + R[lb, 0, 2] * wz,
                          R[lb, 1, 0] * wx + R[lb, 1, 1] * wy + R[lb, 1, 2] * wz,
                          R[lb, 2, 0] * wx + R[lb, 2, 1] * wy + R[lb, 2, 2] * wz)
        x = ux * wx + uy * wy + uz * wz
        half = el.size_b[e, j]
        if half < 0.0:            # a rectangle's normal
            ahead = x
            continue
        out = abs(x) - half
        if out > 0.0:
            excess += out * out
    r = el.bound_a[e] + PAD
    return max(np.sqrt(excess) - r, ahead - r, 0.0)
