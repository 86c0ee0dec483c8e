"""Broad phase over the declared contact pairs (issue 11 section 1): which pairs' bounding
spheres may overlap, found without visiting every declared pair.

The pairs are declared (in the model or the scenario), and a pair whose bounding spheres (one per
geometry, ``compile_contacts``) are apart skips the narrow phase (``contact.compliant``). Testing
each declared pair's spheres costs a distance per pair, which grows as N x M where a scenario
declares N bodies against M surfaces. Here the distinct spheres of the pairs are swept instead:
sort and sweep (Baraff 1992, "Dynamic simulation of non-penetrating rigid bodies", ch. 6; Cohen
et al. 1995, I-COLLIDE) along x of B0, the intervals [x - r, x + r] sorted by their lower ends
by insertion sort from the previous evaluation's order (near linear when little moves; the
order is only a warm start, the sorted result does not depend on it), then each sphere meets the
spheres whose intervals start before its own ends. Each overlapping pair of spheres is looked up
among the declared pairs (sorted keys, a binary search): the cost is the spheres' count plus
the overlapping intervals', not the declared pairs'. The pairs it does not find have spheres
apart along x, hence apart; the others keep the declared-pair test of their spheres' distance,
so the narrow phase runs on exactly the pairs it ran on before (forces and outputs identical to
the bit). Pairs with an unbounded plane or a moved plane are never swept. Below SWEEP_PAIRS swept
pairs the sweep is off and every pair's spheres are tested, as before (cheaper there:
tests/contact/bench_contact_pairs.py).
"""
import numpy as np
from numba import njit

from occupant.jit import JIT, JIT_INLINE

# Swept pairs from which the sweep is on [D]: measured with tests/contact/bench_contact_pairs.py
# (the write-up in scenarios/HISTORY.md, branch broadphase).
SWEEP_PAIRS = 64
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


@njit(**JIT)
def sweep(el, R, p, bounds, order, culled):
    """``culled`` (nc,) set to 1 for each swept pair whose spheres' x intervals are apart, 0 for
    the others (``el``: the ContactBlock; ``bounds`` (ns, 2) and ``order`` (ns,): the sweep's
    scratch in Data); returns how many pairs of spheres it found overlapping along x (its work
    besides the sort). Nothing with the sweep off (``el.sweep`` 0)."""
    if not el.sweep:
        return 0
    ns = el.sphere_radius.shape[0]
    finite = True
    for s in range(ns):
        c = el.sphere_centre
        x, _, _ = in_base(R, p, el.sphere_link[s], c[s, 0], c[s, 1], c[s, 2])
        r = el.sphere_radius[s] + PAD
        bounds[s, 0], bounds[s, 1] = x - r, x + r
        finite = finite and np.isfinite(x)
    for m in range(el.sweep_pairs.shape[0]):
        culled[el.sweep_pairs[m]] = 1 if finite else 0
    if not finite:          # a position gone to nan or inf: every pair's spheres are tested
        return 0
    for i in range(1, ns):  # insertion sort of the kept order by the intervals' lower ends
        s, lo = order[i], bounds[order[i], 0]
        j = i - 1
        while j >= 0 and bounds[order[j], 0] > lo:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = s
    found = 0
    for i in range(ns):
        s, hi = order[i], bounds[order[i], 1]
        for j in range(i + 1, ns):
            u = order[j]
            if bounds[u, 0] > hi:
                break
            found += 1
            k = _find(el.sweep_keys, min(s, u) * ns + max(s, u))
            if k >= 0:
                for m in range(el.sweep_key_start[k], el.sweep_key_start[k + 1]):
                    culled[el.sweep_pairs[m]] = 0
    return found


def sweep_arrays(link_a, p_a, bound_a, link_b, centre_b, bound_b, mover_b, broad_phase=True):
    """The ContactBlock's sweep fields from the compiled pairs' bounding spheres: the distinct
    spheres of the pairs swept (finite spheres, no moved plane) in B0's link frames, and those
    pairs grouped by their spheres' key i ns + j (i < j, keys sorted); ``sweep`` 1 from
    SWEEP_PAIRS swept pairs (with ``broad_phase``)."""
    index, links, centres, radii, keyed = {}, [], [], [], []

    def sphere(link, centre, radius):
        key = (int(link), *map(float, centre), float(radius))
        if key not in index:
            index[key] = len(radii)
            links.append(int(link))
            centres.append(np.asarray(centre, float))
            radii.append(float(radius))
        return index[key]

    for e in range(len(link_a)):
        if np.isfinite(bound_b[e]) and mover_b[e] < 0:
            i = sphere(link_a[e], p_a[e], bound_a[e])
            j = sphere(link_b[e], centre_b[e], bound_b[e])
            keyed.append((min(i, j), max(i, j), e))
    ns = len(radii)
    keys = np.array([i * ns + j for i, j, _ in keyed], dtype=np.int64)
    order = np.argsort(keys, kind="stable")
    unique, start = np.unique(keys[order], return_index=True)
    return dict(
        sweep=int(bool(broad_phase) and len(keyed) >= SWEEP_PAIRS),
        sphere_link=np.array(links, dtype=np.int64),
        sphere_centre=np.array(centres, dtype=float).reshape(ns, 3),
        sphere_radius=np.array(radii, dtype=float),
        sweep_keys=unique.astype(np.int64),
        sweep_key_start=np.append(start, len(keyed)).astype(np.int64),
        sweep_pairs=np.array([keyed[k][2] for k in order], dtype=np.int64))
