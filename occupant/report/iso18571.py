"""ISO/TS 18571 as the objective-rating-metrics package rates two curves (its ``ISO18571``), with
its two costly steps done in O(n w) instead of its O(n^2): the same ratings (to the bit where the
steps choose the same shift and path, which tests/report/test_iso18571.py checks against the
package). For a 150 ms pair at 10 kHz (n = 1501) the package took ~0.07 s for its DTW (a
1501 x 1501 distance matrix, window mask and cumulative cost for a band 10 % wide) and ~0.03 s
for 600 ``np.corrcoef`` calls, plus an uncached numba compile of its DTW in every process (~8 s
on the shared machine; scenarios/HISTORY.md, ratingspeed).

- Phase: the shift of the comparison (up to ``1 - init_min`` = 20 % of the samples, left before
  right, the smallest on ties) with the largest Pearson correlation, ISO/TS 18571 5.3. All
  shifts' correlations are computed in one compiled pass; only the few within ``TOL`` of the
  best are computed again as the package does (``np.corrcoef``), and the package's rule picks
  among those, so rounding in the pass cannot change the choice.
- Magnitude: the dynamic time warping of ISO/TS 18571 5.4 (squared differences, steps (-1, 0),
  (0, -1), (-1, -1) of weight 1, Sakoe-Chiba band of 10 % of the samples), the cumulative cost
  kept only inside the band, its sums and the backtracking's ties (first of the three steps in
  that order) as the package's DTW (dtwalign) does them.
"""
import numpy as np
from numba import njit
from objective_rating_metrics.rating import ISO18571

from occupant.jit import JIT

TOL = 1e-9   # a shift whose approximate correlation is within this of the best is recomputed exactly
FLAT = 1e-10   # a segment whose std is below this times its largest magnitude: its correlation recomputed


@njit(**JIT)
def _segment_correlation(a, b):
    """Pearson correlation of equal-length ``a`` and ``b`` (two passes: means, then centred
    sums); NaN when either is flat (std below FLAT of its largest magnitude), its rounding unsure."""
    m = a.shape[0]
    sa = 0.0
    sb = 0.0
    big_a = 0.0
    big_b = 0.0
    for i in range(m):
        sa += a[i]
        sb += b[i]
        big_a = max(big_a, abs(a[i]))
        big_b = max(big_b, abs(b[i]))
    ma = sa / m
    mb = sb / m
    saa = 0.0
    sbb = 0.0
    sab = 0.0
    for i in range(m):
        da = a[i] - ma
        db = b[i] - mb
        saa += da * da
        sbb += db * db
        sab += da * db
    if saa <= (FLAT * big_a) ** 2 * m or sbb <= (FLAT * big_b) ** 2 * m:
        return np.nan
    return sab / np.sqrt(saa * sbb)


@njit(**JIT)
def shifted_correlations(ref, cmp_, window):
    """Correlations of ``ref`` and ``cmp_`` shifted, in the package's order: [no shift, cmp_ left
    1, right 1, left 2, right 2, ..., right window-1] (left k: ref[:-k] with cmp_[k:])."""
    n = ref.shape[0]
    out = np.empty(2 * window - 1)
    out[0] = _segment_correlation(ref, cmp_)
    for k in range(1, window):
        out[2 * k - 1] = _segment_correlation(ref[:n - k], cmp_[k:])
        out[2 * k] = _segment_correlation(ref[k:], cmp_[:n - k])
    return out


def _slices(order, n):
    """(reference rows, comparison rows) of the shift at ``order`` (shifted_correlations' order)."""
    k = (order + 1) // 2
    if k == 0:
        return slice(0, n), slice(0, n)
    return (slice(0, n - k), slice(k, n)) if order % 2 else (slice(k, n), slice(0, n - k))


def best_shift(reference, comparison, max_shift):
    """(order of the shift chosen, its correlation), as the package's loop chooses: the first in
    order whose correlation is the largest (none: no shift when the unshifted one is NaN)."""
    r, c = reference[:, 1], comparison[:, 1]
    n = len(r)

    def exact(order):
        rows_r, rows_c = _slices(order, n)
        return np.corrcoef(r[rows_r], c[rows_c])[0][-1]

    window = int(np.floor(n * max_shift) + 1)
    approx = shifted_correlations(np.ascontiguousarray(r, dtype=float), np.ascontiguousarray(c, dtype=float),
                                  window)
    found = {0: exact(0)}
    if np.isnan(found[0]):
        return 0, found[0]
    found.update((int(k), exact(k)) for k in np.flatnonzero(np.isnan(approx)))
    best = max(v for v in found.values() if not np.isnan(v))
    for k in np.argsort(-approx, kind="stable"):
        if np.isnan(approx[k]) or approx[k] < best - TOL:
            break
        found.setdefault(int(k), exact(k))
        if found[k] > best:
            best = found[k]
    return min(k for k, v in found.items() if v == best), best


@njit(**JIT)
def banded_dtw_path(x, y, size):
    """(indices into x, indices into y) of the warping path of equal-length ``x`` and ``y``
    (squared differences, steps (-1, 0), (0, -1), (-1, -1) of weight 1, cells |i - j| <= size),
    from (0, 0) to the last samples; of equal costs the first of those steps is taken."""
    n = x.shape[0]
    width = 2 * size + 1
    cost = np.full((n, width), np.inf)   # cost[i, j - i + size]: cumulative cost of cell (i, j)
    for i in range(n):
        for j in range(max(0, i - size), min(n, i + size + 1)):
            d = x[i] - y[j]
            local = d * d
            if i == 0 and j == 0:
                cost[0, size] = local
                continue
            best = np.inf
            for di, dj in ((-1, 0), (0, -1), (-1, -1)):
                ii, jj = i + di, j + dj
                step = np.inf
                if ii >= 0 and jj >= 0:
                    band = jj - ii + size
                    if 0 <= band < width:
                        step = cost[ii, band] + local
                best = min(best, step)
            if best != np.inf:
                cost[i, j - i + size] = best
    path_i = np.empty(2 * n, np.int64)
    path_j = np.empty(2 * n, np.int64)
    i = j = n - 1
    m = 0
    path_i[0], path_j[0] = i, j
    while not (i == 0 and j == 0):
        pick, low = -1, np.inf
        for p, (di, dj) in enumerate(((-1, 0), (0, -1), (-1, -1))):
            ii, jj = i + di, j + dj
            value = np.inf
            if ii >= 0 and jj >= 0:
                band = jj - ii + size
                if 0 <= band < width:
                    value = cost[ii, band]
            if pick < 0 or value < low:
                pick, low = p, value
        if low == np.inf:
            break
        if pick == 0:
            i -= 1
        elif pick == 1:
            j -= 1
        else:
            i -= 1
            j -= 1
        m += 1
        path_i[m], path_j[m] = i, j
    return path_i[:m + 1][::-1].copy(), path_j[:m + 1][::-1].copy()


class BandedISO18571(ISO18571):
    """The package's ``ISO18571`` (same arguments, same ratings) with best_shift and
    banded_dtw_path for its phase shift and magnitude warping; curves holding a value that is
    not finite are left to the package."""

    def _get_shifted_curve_and_pr(self):
        ref, cmp_ = self.reference_curve, self.comparison_curve
        if not (np.isfinite(ref[:, 1]).all() and np.isfinite(cmp_[:, 1]).all()):
            return super()._get_shifted_curve_and_pr()
        order, rho = best_shift(ref, cmp_, self._max_shift)
        rows_r, rows_c = _slices(order, len(ref))
        return cmp_[rows_c, :].copy(), ref[rows_r, :].copy(), (order + 1) // 2, rho

    def magnitude_rating(self, ndigits=3):
        """The package's magnitude rating (ISO/TS 18571 5.4: the L1 norm of the warped curves'
        difference over the warped reference's, 0 beyond eps_m) on banded_dtw_path's warping."""
        x, y = self._cae_ts[:, 1], self._t_ts[:, 1]
        if not (np.isfinite(x).all() and np.isfinite(y).all()):
            return super().magnitude_rating(ndigits)
        size = int(np.ceil(0.1 * len(x))) - 1   # the package's window_size=0.1 (SakoechibaWindow)
        path_x, path_y = banded_dtw_path(np.ascontiguousarray(x), np.ascontiguousarray(y), size)
        cae_w, t_w = x[path_x], y[path_y]
        e_mag = np.linalg.norm(cae_w - t_w, ord=1) / np.linalg.norm(t_w, ord=1)
        if e_mag == 0:
            score = 1
        elif e_mag > self._eps_m:
            score = 0
        else:
            score = ((self._eps_m - e_mag) / self._eps_m) ** self._k_m
        return score if ndigits < 0 else round(score, ndigits=ndigits)
