"""Injury criteria as pure functions on sampled channels.

Every function takes a time axis ``t`` in s and the channel values, already filtered with the
class the criterion prescribes (``cfc_filter``), and returns a `CriterionResult`. SI units
throughout, except where a parameter name ends in ``_g`` (acceleration in multiples of
g = 9.80665 m/s^2): HIC and the 3 ms clip are defined on accelerations in g.

Filter classes (SAE J211-1 / FMVSS 208 / Euro NCAP practice, crash-domain-facts.md 2.1, 3.1):
head acceleration CFC 1000 (HIC, head 3 ms); chest/spine acceleration CFC 180 (chest 3 ms);
upper-neck Fx, Fz, My CFC 600 for Nij and neck peaks (FMVSS 208 / T-HIS); chest deflection
CFC 180 for VC (Euro NCAP) and CFC 600 for peak deflection; femur and tibia loads CFC 600;
pelvis acceleration CFC 1000; NIC head and T1 x-acceleration CFC 60. `CRITERION_CFC` lists
them so callers filter consistently.

Sign conventions are SAE J211 (crash-domain-facts.md 0.1): upper-neck Fz > 0 tension,
My > 0 flexion; chest compression and femur/tibia axial compression negative.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field

import numpy as np

from occupant.constants import G0
from occupant.injury.errors import InjuryInputError

__all__ = [
    "CRITERION_CFC",
    "CriterionResult",
    "G0",
    "hic",
    "clip3ms",
    "exceedance_level",
    "exceedance_curve",
    "chest_deflection",
    "viscous_criterion",
    "NIJ_INTERCEPTS",
    "OC_OFFSET",
    "moment_at_occipital_condyle",
    "nij",
    "neck_peaks",
    "femur_force",
    "TIBIA_CRITICAL",
    "tibia_index",
    "pelvis_acceleration",
    "nic",
    "NKM_INTERCEPTS",
    "nkm",
    "BRIC_CRITICAL",
    "bric",
    "VC_CONSTANTS",
    "resultant",
]


#: Filter class per criterion input (see module docstring for the sources).
CRITERION_CFC = {
    "hic": 1000,
    "head_a3ms": 1000,
    "chest_a3ms": 180,
    "chest_deflection": 600,
    "viscous_criterion": 180,
    "nij": 600,
    "neck_peaks": 600,
    "femur_force": 600,
    "tibia_index": 600,
    "pelvis_acceleration": 1000,
    "nic": 60,
    "nkm": 600,
}


@dataclass(frozen=True)
class CriterionResult:
    """Value of one criterion.

    ``value`` in ``unit``; ``t`` the time of the value (s) where it is attained at one instant;
    ``t1``, ``t2`` the window where the criterion is a window (HIC); ``details`` holds the
    per-mode or per-axis parts (e.g. the four Nij modes)."""

    name: str
    value: float
    unit: str
    t: float | None = None
    t1: float | None = None
    t2: float | None = None
    details: dict = field(default_factory=dict)


# --------------------------------------------------------------------------------------
# input checks


def _time(t, name="t") -> np.ndarray:
    t_arr = np.asarray(t, dtype=float)
    if t_arr.ndim != 1 or t_arr.size < 2:
        raise InjuryInputError(f"{name}: expected a 1-D time array in s with at least 2 samples, got shape {t_arr.shape}")
    if not np.all(np.isfinite(t_arr)):
        raise InjuryInputError(f"{name}: time contains NaN or infinite values")
    if not np.all(np.diff(t_arr) > 0.0):
        raise InjuryInputError(f"{name}: time must be strictly increasing")
    return t_arr


def _series(t_arr: np.ndarray, x, name: str) -> np.ndarray:
    x_arr = np.asarray(x, dtype=float)
    if x_arr.shape != t_arr.shape:
        raise InjuryInputError(f"{name}: expected shape {t_arr.shape} (same as t), got {x_arr.shape}")
    if not np.all(np.isfinite(x_arr)):
        raise InjuryInputError(f"{name}: contains NaN or infinite values")
    return x_arr


def _uniform_dt(t_arr: np.ndarray, name="t") -> float:
    steps = np.diff(t_arr)
    dt = float(np.mean(steps))
    if np.max(np.abs(steps - dt)) > 1e-6 * dt:
        raise InjuryInputError(f"{name}: this criterion needs uniformly sampled time")
    return dt


def _choice(value, table: dict, name: str):
    if value not in table:
        raise InjuryInputError(f"{name}: unknown value {value!r} (accepted: {', '.join(map(str, table))})")
    return table[value]


def resultant(*components) -> np.ndarray:
    """Euclidean resultant of component arrays, formed *after* filtering each component
    (J211-1 processing order, crash-domain-facts.md 0.2)."""
    if not components:
        raise InjuryInputError("components: give at least one component array")
    arrs = [np.asarray(c, dtype=float) for c in components]
    shape = arrs[0].shape
    for i, a in enumerate(arrs):
        if a.shape != shape:
            raise InjuryInputError(f"components[{i}]: expected shape {shape}, got {a.shape}")
    return np.sqrt(sum(a * a for a in arrs))


# --------------------------------------------------------------------------------------
# HIC


def hic(t, a_res_g, window: float = 0.015) -> CriterionResult:
    """Head Injury Criterion over windows no longer than ``window`` (s).

    HIC = max over t1 < t2, t2 - t1 <= window of (t2 - t1) * [ (1/(t2 - t1)) int_t1^t2 a dt ]^2.5,
    a = resultant head-CG acceleration in g (CFC 1000), t in s
    [C: 49 CFR 571.208 S6.2; crash-domain-facts.md 2.1]. HIC15: window 0.015 s; HIC36: 0.036 s.

    Exact maximum over all windows whose ends are samples, with the integral of the linearly
    interpolated acceleration (trapezoid rule), found through the cumulative integral C:
    for each sample lag k the candidates ``(t[i+k]-t[i])^-1.5 (C[i+k]-C[i])^2.5`` are one
    vectorised expression, so the search costs O(n * window/dt) arithmetic with no Python
    inner loop; it gives the same maximum as the exhaustive double loop over (t1, t2).
    """
    t_arr = _time(t)
    a = _series(t_arr, a_res_g, "a_res_g")
    try:
        w = float(window)
    except (TypeError, ValueError):
        w = float("nan")
    if not math.isfinite(w) or w <= 0.0:
        raise InjuryInputError(f"window: expected a positive duration in s (0.015 for HIC15, 0.036 for HIC36), got {window!r}")
    if np.any(a < 0.0):
        raise InjuryInputError("a_res_g: HIC takes the resultant acceleration (non-negative values, in g)")
    c = np.concatenate([[0.0], np.cumsum(0.5 * (a[1:] + a[:-1]) * np.diff(t_arr))])  # g*s
    n = t_arr.size
    # last admissible end sample for each start i (window tolerance: 1e-9 of the window,
    # so windows of exactly `window` on a grid with rounding are admitted)
    j_max = np.searchsorted(t_arr, t_arr + w * (1.0 + 1e-9), side="right") - 1
    k_max = int(np.max(j_max - np.arange(n)))
    # windows of lag k start at the samples i with i + k <= j_max[i] (at least one for each
    # k <= k_max); the first largest candidate wins, by lag, then by start
    start = np.arange(n)
    best, best_i, best_j = 0.0, 0, 1
    for k in range(1, k_max + 1):
        ok = start[k:] <= j_max[: n - k]
        dt_w = (t_arr[k:] - t_arr[:-k])[ok]
        vals = dt_w * ((c[k:] - c[:-k])[ok] / dt_w) ** 2.5
        m = int(np.argmax(vals))
        if vals[m] > best:
            i = int(np.flatnonzero(ok)[m])
            best, best_i, best_j = float(vals[m]), i, i + k
    name = f"HIC{round(w * 1000):d}" if abs(w * 1000 - round(w * 1000)) < 1e-9 else "HIC"
    return CriterionResult(name=name, value=best, unit="1", t1=float(t_arr[best_i]), t2=float(t_arr[best_j]),
                           details={"window": w})


# --------------------------------------------------------------------------------------
# cumulative exceedance (3 ms clip, neck and femur duration curves)


_sum = np.add.reduce


class _TimeAbove:
    """Time during which the linearly interpolated signal is above its k-th lowest sample value
    (``x > level``; with ``inclusive``, ``x >= level``, which counts flat parts at the level),
    each computed once: the searches of an exceedance curve's durations pass through the same
    levels.

    Only the segments that reach a level count towards its time, so a level is summed over the
    segments reaching above a lower one (``_above``: those above the levels half way to the top,
    three quarters, ...; nested, each in time order): the same terms in the same order as over
    all segments, hence the same sums to the bit, over a fraction of the record for the upper
    levels a curve's short durations search (tests/injury/test_criteria.py compares them)."""

    def __init__(self, t_arr, x):
        x0, x1 = x[:-1], x[1:]
        h, hi, lo = np.diff(t_arr), np.maximum(x0, x1), np.minimum(x0, x1)
        self.levels = np.unique(x)  # ascending
        self._above = [(h, hi, lo, hi - lo)]   # the segments reaching above levels[_from[n]]
        self._from = [-1]                      # (-1: all of them)
        span = self.levels.size
        while span > 16:
            span //= 2
            h, hi, lo, rise = self._above[-1]
            keep = hi > self.levels[self.levels.size - 1 - span]
            self._above.append((h[keep], hi[keep], lo[keep], rise[keep]))
            self._from.append(self.levels.size - 1 - span)
        self._known = {}

    def __call__(self, k, inclusive=False):
        tau = self._known.get((k, inclusive))
        if tau is None:   # (np.add.reduce is np.sum without its wrapper; the crossing segments are few)
            h, hi, lo, rise = self._above[bisect.bisect_left(self._from, k) - 1]
            level = self.levels[k]
            full = (lo >= level) if inclusive else (lo > level)
            part = np.flatnonzero(((hi >= level) if inclusive else (hi > level)) & ~full)
            tau = self._known[(k, inclusive)] = float(
                _sum(h[full]) + _sum(h[part] * (hi[part] - level) / rise[part]))
        return tau


def exceedance_level(t, x, duration: float) -> float:
    """Highest level that the signal exceeds for a *cumulative* time of ``duration`` (s).

    This is the cumulative-exceedance definition of FMVSS 208 (the 3 ms clip: "except for
    intervals whose cumulative duration is not more than 3 milliseconds", crash-domain-facts.md
    2.1) and of the Euro NCAP / UN R94 duration-dependent neck and femur limits. The signal is
    linearly interpolated between samples, so the answer is exact for piecewise-linear data.
    The time above a level is piecewise linear in the level between sorted sample values, so
    a binary search over the sorted values followed by one linear solve gives it exactly.
    """
    t_arr = _time(t)
    xa = _series(t_arr, x, "x")
    return float(_exceedance_levels(t_arr, xa, [duration])[0])


def _exceedance_levels(t_arr, xa, durations) -> np.ndarray:
    """``exceedance_level`` of the signal for each of ``durations``."""
    total = float(t_arr[-1] - t_arr[0])
    tau = _TimeAbove(t_arr, xa)
    levels = tau.levels
    out = np.empty(len(durations))
    for n, duration in enumerate(durations):
        try:
            d = float(duration)
        except (TypeError, ValueError):
            d = float("nan")
        if not math.isfinite(d) or d < 0.0:
            raise InjuryInputError(f"duration: expected a non-negative duration in s, got {duration!r}")
        if d > total * (1.0 + 1e-12):
            raise InjuryInputError(f"duration: {d:g} s is longer than the record ({total:g} s)")
        out[n] = _level_for(tau, levels, d)
    return out


def _level_for(tau, levels, d) -> float:
    if d == 0.0:
        return float(levels[-1])
    # tau(L) = time above L is non-increasing and right-continuous in L, and linear on each
    # open interval between neighbouring sample values; at a sample value it can jump down
    # (flat parts at exactly that value). Find the last sample value with tau >= d.
    if tau(0) < d:
        return float(levels[0])  # the signal sits at its minimum for longer than total - d
    lo_k, hi_k = 0, levels.size - 1
    if tau(hi_k) >= d:
        return float(levels[hi_k])
    while hi_k - lo_k > 1:
        mid = (lo_k + hi_k) // 2
        if tau(mid) >= d:
            lo_k = mid
        else:
            hi_k = mid
    l0, l1 = float(levels[lo_k]), float(levels[hi_k])
    tau0 = tau(lo_k)
    tau1 = tau(hi_k, inclusive=True)  # limit of tau from below l1
    if tau1 >= d:
        return l1
    # linear between the two neighbouring sample values
    return l0 + (tau0 - d) * (l1 - l0) / (tau0 - tau1)


def exceedance_curve(t, x, durations) -> np.ndarray:
    """Levels exceeded for each cumulative duration in ``durations`` (s): the
    "force versus cumulative exceedance time" curve compared with duration-dependent limits."""
    t_arr = _time(t)
    xa = _series(t_arr, x, "x")
    return _exceedance_levels(t_arr, xa, np.atleast_1d(np.asarray(durations, dtype=float)))


def _range_min(x: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """min(x[i..j]) for index arrays i <= j, by a sparse table (O(n log n) build)."""
    table = [x]
    span = 1
    while 2 * span <= x.size:
        prev = table[-1]
        table.append(np.minimum(prev[:-span], prev[span:]))
        span *= 2
    length = j - i + 1
    k = np.floor(np.log2(length)).astype(int)
    out = np.empty(i.shape)
    for level in np.unique(k):
        sel = k == level
        row = table[level]
        out[sel] = np.minimum(row[i[sel]], row[j[sel] - (1 << level) + 1])
    return out


def _continuous_level(t_arr, a, duration) -> float:
    """Highest level exceeded throughout one uninterrupted interval of ``duration``; windows
    that start at a sample and windows that end at a sample are examined."""
    n = t_arr.size
    eps = duration * 1e-12
    # windows starting at sample i: samples i..j inside, end point interpolated
    starts = np.flatnonzero(t_arr <= t_arr[-1] - duration + eps)
    j = np.searchsorted(t_arr, t_arr[starts] + duration + eps, side="right") - 1
    a_end = np.interp(t_arr[starts] + duration, t_arr, a)
    best_s = np.minimum(_range_min(a, starts, np.maximum(j, starts)), a_end)
    # windows ending at sample j: samples i..j inside, start point interpolated
    ends = np.flatnonzero(t_arr >= t_arr[0] + duration - eps)
    i = np.searchsorted(t_arr, t_arr[ends] - duration - eps, side="left")
    a_start = np.interp(t_arr[ends] - duration, t_arr, a)
    best_e = np.minimum(_range_min(a, np.minimum(i, ends), ends), a_start)
    return float(max(np.max(best_s), np.max(best_e)))


def clip3ms(t, a_res_g, mode: str = "cumulative") -> CriterionResult:
    """3 ms clip of a resultant acceleration (in g): the highest level exceeded for 3 ms.

    ``mode="cumulative"`` (default, FMVSS 208 and Euro NCAP wording: intervals whose
    cumulative duration exceeds 3 ms) or ``"continuous"`` (one uninterrupted 3 ms interval,
    offered by some tools [S: crashmetrics]; evaluated on windows that start or end at a
    sample). Head: CFC 1000; chest: CFC 180.
    """
    t_arr = _time(t)
    a = _series(t_arr, a_res_g, "a_res_g")
    duration = 0.003  # s, FMVSS 208 S6.3 / S6.2 3 ms clip [C: crash-domain-facts.md 2.1]
    if mode == "cumulative":
        value = _exceedance_levels(t_arr, a, [duration])[0]
    elif mode == "continuous":
        if t_arr[-1] - t_arr[0] < duration * (1 - 1e-12):
            raise InjuryInputError(f"t: the record ({t_arr[-1] - t_arr[0]:g} s) is shorter than 3 ms")
        value = _continuous_level(t_arr, a, duration)
    else:
        raise InjuryInputError(f"mode: unknown value {mode!r} (accepted: cumulative, continuous)")
    return CriterionResult(name="a3ms", value=float(value), unit="g", details={"mode": mode})


# --------------------------------------------------------------------------------------
# thorax


def chest_deflection(t, deflection, *, compression: str = "negative") -> CriterionResult:
    """Peak chest compression (m, reported positive).

    ``deflection`` in m with the J211 polarity (frontal chest compression negative,
    crash-domain-facts.md 0.1) unless ``compression="positive"``.
    """
    t_arr = _time(t)
    d = _series(t_arr, deflection, "deflection")
    sign = _choice(compression, {"negative": -1.0, "positive": 1.0}, "compression")
    c = sign * d
    k = int(np.argmax(c))
    return CriterionResult(name="chest_deflection", value=float(max(c[k], 0.0)), unit="m", t=float(t_arr[k]))


#: VC constants per dummy: (scaling factor SF, deformation constant D0 in m)
#: [S: pyisomme calculate/vc.py citing Euro NCAP TB021 v4.02; crash-domain-facts.md 2.1].
VC_CONSTANTS = {
    "hybrid3_50m": (1.3, 0.229),
    "hybrid3_05f": (1.3, 0.187),
    "hybrid3_95m": (1.3, 0.254),
    "es2": (1.0, 0.140),
    "es2re": (1.0, 0.140),
    "biosid": (1.0, 0.175),
    "worldsid_50m": (1.0, 0.170),
    "sid2s": (1.0, 0.138),
    "worldsid_05f": (1.0, 0.138),
    "q6": (1.3, 0.122),
}


def viscous_criterion(t, deflection, dummy: str = "hybrid3_50m", *, compression: str = "negative") -> CriterionResult:
    """Viscous criterion VC_max = max SF * V(t) * C(t) in m/s.

    C = D/D0 with D the compression (m, positive), V = dD/dt by the four-point formula
    V_i = [8 (D_{i+1} - D_{i-1}) - (D_{i+2} - D_{i-2})] / (12 dt)
    [S: pyisomme, citing Euro NCAP TB021 v4.02; crash-domain-facts.md 2.1].
    Input: chest deflection filtered CFC 180, uniformly sampled.
    """
    t_arr = _time(t)
    d = _series(t_arr, deflection, "deflection")
    sf, d0 = _choice(dummy, VC_CONSTANTS, "dummy")
    sign = _choice(compression, {"negative": -1.0, "positive": 1.0}, "compression")
    if t_arr.size < 5:
        raise InjuryInputError("deflection: VC needs at least 5 samples")
    dt = _uniform_dt(t_arr)
    c = sign * d
    v = np.zeros_like(c)
    v[2:-2] = (8.0 * (c[3:-1] - c[1:-3]) - (c[4:] - c[:-4])) / (12.0 * dt)
    vc = sf * v * (c / d0)
    k = int(np.argmax(vc))
    return CriterionResult(name="VC", value=float(max(vc[k], 0.0)), unit="m/s", t=float(t_arr[k]),
                           details={"scaling_factor": sf, "deformation_constant": d0})


# --------------------------------------------------------------------------------------
# neck


#: Nij critical intercepts per dummy: (Fzc tension N, Fzc compression N, Myc flexion N*m,
#: Myc extension N*m).
NIJ_INTERCEPTS = {
    # FMVSS 208 S6.6 (49 CFR 571.208), HIII 50M [S: pyisomme; crash-domain-facts.md 2.2]
    "hybrid3_50m": (6806.0, 6160.0, 310.0, 135.0),
    # FMVSS 208 S15.3.6, HIII 5F in position [S: pyisomme; crash-domain-facts.md 2.2]
    "hybrid3_05f": (4287.0, 3880.0, 155.0, 67.0),
    # FMVSS 208 S25 out-of-position 5F [S: pyisomme; crash-domain-facts.md 2.2]
    "hybrid3_05f_oop": (3880.0, 3880.0, 155.0, 61.0),
    # HIII 95M: Eppinger et al. 2000, "Supplement: Development of improved injury criteria for
    # the assessment of advanced automotive restraint systems II", NHTSA, table of critical
    # values scaled from the 50M (large male). [U: from recollection of that table; verify
    # against the NHTSA supplement before using it as a pass/fail limit]
    "hybrid3_95m": (8216.0, 7440.0, 502.0, 218.0),
    # child dummies, FMVSS 208 S23 / S21 / S19 [U: crash-domain-facts.md 2.2]
    "hybrid3_6yo": (2800.0, 2800.0, 93.0, 37.0),
    "hybrid3_3yo": (2120.0, 2120.0, 68.0, 27.0),
    "crabi_12mo": (1460.0, 1460.0, 43.0, 17.0),
}

#: Distance from the upper-neck load cell to the occipital condyle, HIII 50M and 5F:
#: M_OC = My - Fx * 0.01778 m [C: crash-domain-facts.md 2.1 and 8 item 3].
OC_OFFSET = {"hybrid3_50m": 0.01778, "hybrid3_05f": 0.01778, "hybrid3_05f_oop": 0.01778, "hybrid3_95m": 0.01778}


def moment_at_occipital_condyle(fx, my, dummy: str = "hybrid3_50m") -> np.ndarray:
    """Upper-neck moment transferred to the occipital condyle: M_OC = My - Fx * d (N*m)."""
    d = _choice(dummy, OC_OFFSET, "dummy")
    fx_a = np.asarray(fx, dtype=float)
    my_a = np.asarray(my, dtype=float)
    if fx_a.shape != my_a.shape:
        raise InjuryInputError(f"my: expected shape {fx_a.shape} (same as fx), got {my_a.shape}")
    return my_a - fx_a * d


def nij(t, fz, my_oc, dummy: str = "hybrid3_50m") -> CriterionResult:
    """Neck injury criterion Nij (FMVSS 208 S6.6).

    At every instant the one active quadrant is evaluated: Nij(t) = Fz/Fzc + M_OC/Myc with
    Fzc the tension intercept when Fz >= 0 (tension) and the compression one otherwise, Myc
    the flexion intercept when M_OC >= 0 (flexion) and the extension one otherwise; values
    taken as magnitudes. The four modes NTF, NTE, NCF, NCE are each maximised over time;
    Nij is the largest [S: Oasys T/HIS Nij page; pyisomme]. Inputs: upper-neck Fz (N) and
    the occipital-condyle moment (N*m, see `moment_at_occipital_condyle`), CFC 600.
    """
    t_arr = _time(t)
    f = _series(t_arr, fz, "fz")
    m = _series(t_arr, my_oc, "my_oc")
    fzc_t, fzc_c, myc_f, myc_e = _choice(dummy, NIJ_INTERCEPTS, "dummy")
    mode, modes = _quadrant_max(t_arr, f, m, (fzc_t, fzc_c, myc_f, myc_e), ("NTF", "NTE", "NCF", "NCE"))
    return CriterionResult(name="Nij", value=modes[mode][0], unit="1", t=modes[mode][1],
                           details={"mode": mode, "modes": modes,
                                    "intercepts": {"fz_tension": fzc_t, "fz_compression": fzc_c,
                                                   "my_flexion": myc_f, "my_extension": myc_e}})


def _quadrant_max(t_arr, f, m, intercepts, names):
    """The four-quadrant load-moment criterion of Nij and Nkm: at every instant
    N(t) = |f| / f_c + |m| / m_c with the force intercept of the sign of f (positive, negative)
    and the moment intercept of the sign of m (positive: flexion, negative: extension); each
    quadrant's maximum over time, in the order of ``names`` ((+f, +m), (+f, -m), (-f, +m),
    (-f, -m)). Returns (worst mode, {mode: (value, time or None)})."""
    f_pos, f_neg, m_pos, m_neg = intercepts
    pos_f = f >= 0.0
    pos_m = m >= 0.0
    n_t = np.abs(f) / np.where(pos_f, f_pos, f_neg) + np.abs(m) / np.where(pos_m, m_pos, m_neg)
    modes = {}
    for key, mask in zip(names, (pos_f & pos_m, pos_f & ~pos_m, ~pos_f & pos_m, ~pos_f & ~pos_m)):
        if np.any(mask):
            idx = np.flatnonzero(mask)
            k = idx[int(np.argmax(n_t[idx]))]
            modes[key] = (float(n_t[k]), float(t_arr[k]))
        else:
            modes[key] = (0.0, None)
    return max(modes, key=lambda key: modes[key][0]), modes


_DEFAULT_DURATIONS = np.arange(0.0, 0.0605, 0.001)  # s, 0..60 ms, the span of R94 / Euro NCAP curves


def neck_peaks(t, fx, fz, my=None, durations=None) -> dict:
    """Upper-neck tension, compression, shear (and extension/flexion moment) peaks.

    Returns a dict of CriterionResult: ``tension`` (max Fz >= 0, N), ``compression``
    (max -Fz >= 0, N), ``shear`` (max |Fx|, N), its signed peaks ``shear_positive`` (max Fx >= 0:
    the neck pushing the head forward, the head lagging behind the torso as in a rear impact)
    and ``shear_negative`` (max -Fx >= 0), which Euro NCAP's whiplash table judges apart (upper
    neck Fx (+) and Fx (-)), and, with ``my``, ``extension`` (most negative My, N*m, reported as
    a negative number as in the Euro NCAP tables) and ``flexion``.
    Each force result carries ``details["exceedance"] = (durations, levels)``: the level
    exceeded for each cumulative duration (Euro NCAP and UN R94 duration-dependent limits).
    """
    t_arr = _time(t)
    fx_a = _series(t_arr, fx, "fx")
    fz_a = _series(t_arr, fz, "fz")
    dur = _DEFAULT_DURATIONS if durations is None else np.asarray(durations, dtype=float)
    dur = dur[dur <= t_arr[-1] - t_arr[0]]
    out = {}
    for key, sig in (("tension", fz_a), ("compression", -fz_a), ("shear", np.abs(fx_a)),
                     ("shear_positive", fx_a), ("shear_negative", -fx_a)):
        k = int(np.argmax(sig))
        curve = _exceedance_levels(t_arr, sig, dur)
        out[key] = CriterionResult(name=f"neck_{key}", value=float(max(sig[k], 0.0)), unit="N", t=float(t_arr[k]),
                                   details={"exceedance": (dur.copy(), np.maximum(curve, 0.0))})
    if my is not None:
        my_a = _series(t_arr, my, "my")
        k = int(np.argmin(my_a))
        out["extension"] = CriterionResult(name="neck_extension", value=float(min(my_a[k], 0.0)), unit="N*m", t=float(t_arr[k]))
        k = int(np.argmax(my_a))
        out["flexion"] = CriterionResult(name="neck_flexion", value=float(max(my_a[k], 0.0)), unit="N*m", t=float(t_arr[k]))
    return out


# --------------------------------------------------------------------------------------
# lower extremity and pelvis


def femur_force(t, fz, durations=None) -> CriterionResult:
    """Peak femur axial compression (N, reported positive; J211 compression is Fz < 0),
    with the cumulative exceedance curve in ``details["exceedance"]`` (UN R94 femur force
    criterion 9.07 kN at 0 ms to 7.58 kN at >= 10 ms). Input CFC 600."""
    t_arr = _time(t)
    c = -_series(t_arr, fz, "fz")
    dur = np.arange(0.0, 0.0205, 0.001) if durations is None else np.asarray(durations, dtype=float)
    dur = dur[dur <= t_arr[-1] - t_arr[0]]
    k = int(np.argmax(c))
    curve = _exceedance_levels(t_arr, c, dur)
    return CriterionResult(name="femur_compression", value=float(max(c[k], 0.0)), unit="N", t=float(t_arr[k]),
                           details={"exceedance": (dur, np.maximum(curve, 0.0))})


#: Tibia Index critical values per dummy: ((M_R)c in N*m, (F_z)c in N)
#: [S: Oasys T/HIS 22.1 "Tibia Index" page citing Euro NCAP TB021 v4.1; crash-domain-facts.md
#: 2.1. SAE J1727 / Mertz 1993 give 306 N*m / 44.1 kN (95M) and 114 N*m / 22.9 kN (5F).]
TIBIA_CRITICAL = {
    "hybrid3_50m": (225.0, 35900.0),
    "hybrid3_05f": (115.0, 22900.0),
    "hybrid3_95m": (307.0, 44200.0),
    "thor_50m": (225.0, 35900.0),
}


def tibia_index(t, mx, my, fz, dummy: str = "hybrid3_50m") -> CriterionResult:
    """Tibia index TI = |M_R|/(M_R)c + |F_z|/(F_z)c, M_R = sqrt(Mx^2 + My^2), maximised over
    time [S: T/HIS, Euro NCAP TB021]. Moments in N*m, force in N, CFC 600."""
    t_arr = _time(t)
    mx_a = _series(t_arr, mx, "mx")
    my_a = _series(t_arr, my, "my")
    fz_a = _series(t_arr, fz, "fz")
    mrc, fzc = _choice(dummy, TIBIA_CRITICAL, "dummy")
    ti = np.hypot(mx_a, my_a) / mrc + np.abs(fz_a) / fzc
    k = int(np.argmax(ti))
    return CriterionResult(name="TI", value=float(ti[k]), unit="1", t=float(t_arr[k]),
                           details={"mr_critical": mrc, "fz_critical": fzc})


def pelvis_acceleration(t, a_res_g) -> CriterionResult:
    """Peak resultant pelvis acceleration (g); ``details["a3ms"]`` the cumulative 3 ms clip.
    Input CFC 1000."""
    t_arr = _time(t)
    a = _series(t_arr, a_res_g, "a_res_g")
    k = int(np.argmax(a))
    a3 = clip3ms(t_arr, a).value if t_arr[-1] - t_arr[0] >= 0.003 else None
    return CriterionResult(name="pelvis_acceleration", value=float(a[k]), unit="g", t=float(t_arr[k]),
                           details={"a3ms": a3})


# --------------------------------------------------------------------------------------
# rear impact and rotational brain injury


def nic(t, a_t1_x, a_head_x, t_end: float | None = None) -> CriterionResult:
    """Neck Injury Criterion (rear impact): NIC(t) = 0.2 m * a_rel + v_rel^2 (m^2/s^2) with
    a_rel = a_x,T1 - a_x,head (m/s^2) and v_rel its time integral from t[0]; maximised from
    t[0] to ``t_end`` (end of head-restraint contact) or the end of the record
    [C: UNECE NIC text, crash-domain-facts.md 2.1]. Inputs CFC 60; T1 the mean of the left
    and right T1 accelerometers where there are two."""
    t_arr = _time(t)
    a_t1 = _series(t_arr, a_t1_x, "a_t1_x")
    a_h = _series(t_arr, a_head_x, "a_head_x")
    a_rel = a_t1 - a_h
    v_rel = np.concatenate([[0.0], np.cumsum(0.5 * (a_rel[1:] + a_rel[:-1]) * np.diff(t_arr))])
    nic_t = 0.2 * a_rel + v_rel**2  # 0.2 m: UNECE NIC definition
    if t_end is not None:
        mask = t_arr <= float(t_end)
        if not np.any(mask):
            raise InjuryInputError(f"t_end: {t_end!r} s is before the first sample {t_arr[0]:g} s")
    else:
        mask = np.ones_like(t_arr, dtype=bool)
    idx = np.flatnonzero(mask)
    k = idx[int(np.argmax(nic_t[idx]))]
    return CriterionResult(name="NIC", value=float(nic_t[k]), unit="m^2/s^2", t=float(t_arr[k]))


#: Nkm intercepts (Schmitt, Muser, Walz, Niederer 2002, "Nkm - a proposal for a neck protection
#: criterion for low-speed rear-end impacts", Traffic Injury Prevention 3(2) 117-126): shear
#: force 845 N anterior and posterior, flexion moment 88.1 N*m, extension moment 47.5 N*m at the
#: occipital condyle [U: the values as commonly quoted from that paper, which was not read here].
NKM_INTERCEPTS = (845.0, 845.0, 88.1, 47.5)


def nkm(t, fx, my_oc, intercepts=NKM_INTERCEPTS) -> CriterionResult:
    """Nkm (Schmitt et al. 2002, rear impact): at every instant Nkm(t) = |Fx| / F_int +
    |M_OC| / M_int with upper-neck shear Fx (N; positive anterior, J211) and the occipital-
    condyle moment M_OC (N*m, flexion positive; `moment_at_occipital_condyle`), the intercepts
    of the load's sign (`NKM_INTERCEPTS`); the four modes NFA (flexion, anterior shear), NEA
    (extension, anterior), NFP, NEP are each maximised over time, Nkm is the largest. Inputs
    CFC 600 [U: the filter class Euro NCAP's whiplash protocol prescribes, not read here]."""
    t_arr = _time(t)
    f = _series(t_arr, fx, "fx")
    m = _series(t_arr, my_oc, "my_oc")
    f_a, f_p, m_f, m_e = intercepts
    mode, modes = _quadrant_max(t_arr, f, m, (f_a, f_p, m_f, m_e), ("NFA", "NEA", "NFP", "NEP"))
    return CriterionResult(name="Nkm", value=modes[mode][0], unit="1", t=modes[mode][1],
                           details={"mode": mode, "modes": modes})


#: BrIC critical angular velocities (rad/s) about x, y, z [S: pyisomme, citing Takhounts et al.
#: 2013, Stapp Car Crash Journal 57, "Development of brain injury criteria (BrIC)"].
BRIC_CRITICAL = {
    "mps": (66.30, 53.80, 41.50),
    "csdm": (66.20, 59.10, 44.25),
    "average": (66.25, 56.45, 42.87),
}


def bric(t, wx, wy, wz, critical: str = "mps") -> CriterionResult:
    """Brain injury criterion BrIC = sqrt(sum_i (max|w_i| / w_ic)^2), head angular velocity
    in rad/s about the head x, y, z axes [S: pyisomme; Takhounts 2013]."""
    t_arr = _time(t)
    w = [_series(t_arr, c, n) for c, n in ((wx, "wx"), (wy, "wy"), (wz, "wz"))]
    crit = _choice(critical, BRIC_CRITICAL, "critical")
    peaks = [float(np.max(np.abs(c))) for c in w]
    value = math.sqrt(sum((p / c) ** 2 for p, c in zip(peaks, crit)))
    return CriterionResult(name="BrIC", value=value, unit="1",
                           details={"peaks": tuple(peaks), "critical": crit})
