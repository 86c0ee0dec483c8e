"""BandedISO18571 against the objective-rating-metrics package's ISO18571 on many pairs: the same
shift, warping path and ratings (to 1e-9; in fact to the bit), ties included."""
import warnings

import numpy as np
import pytest

pytest.importorskip("objective_rating_metrics")
from dtwalign import dtw_low  # noqa: E402  (the package's DTW, as it calls it)
from dtwalign.step_pattern import UserStepPattern  # noqa: E402
from dtwalign.window import SakoechibaWindow  # noqa: E402
from objective_rating_metrics.rating import ISO18571  # noqa: E402

from occupant.report.iso18571 import BandedISO18571, banded_dtw_path  # noqa: E402

DT = 1e-4   # s: ISO/TS 18571's 10 kHz


def _pulse(rng, t):
    """A crash-like channel: a few half-sines and Gaussian bumps after a quiet start."""
    v = np.zeros_like(t)
    for _ in range(rng.integers(1, 5)):
        t0, width, height = rng.uniform(0, 0.7 * t[-1]), rng.uniform(0.005, 0.06), rng.normal(0, 500)
        if rng.random() < 0.5:
            inside = (t >= t0) & (t <= t0 + width)
            v[inside] += height * np.sin(np.pi * (t[inside] - t0) / width)
        else:
            v += height * np.exp(-0.5 * ((t - t0 - width / 2) / (width / 4)) ** 2)
    return v


def _pairs():
    """(name, reference, comparison) curves of shape (n, 2): seeded random crash-like pairs
    (scaled, shifted, noisy, clipped), and the cases of ties and flat curves."""
    rng = np.random.default_rng(18571)
    out = []
    for k in range(40):
        n = int(rng.choice([31, 200, 777, 1501]))
        t = np.arange(n) * DT
        ref = _pulse(rng, t)
        cmp_ = {0: lambda: rng.uniform(0.7, 1.3) * np.interp(t - rng.uniform(-0.3, 0.3) * t[-1], t, ref),
                1: lambda: ref + rng.normal(0, 0.05 * np.ptp(ref) + 1e-9, n),
                2: lambda: _pulse(rng, t),
                3: lambda: np.clip(ref, -0.5 * np.ptp(ref), 0.3 * np.ptp(ref)),
                4: lambda: np.round(ref / 50.0) * 50.0}[k % 5]()
        out.append((f"random {k} (n={n})", ref, cmp_))
    t = np.arange(1001) * DT
    ramp = t * 1e3
    quiet_start = np.where(t > 0.05, ramp, 0.0)
    wave = np.sin(2 * np.pi * 50 * t)
    out += [("identical", ramp ** 2, ramp ** 2),
            ("ramps: every shift's correlation 1", ramp, 2.0 * ramp + 3.0),
            ("zeros then equal: equal DTW costs", quiet_start, quiet_start.copy()),
            ("a step: DTW ties", np.where(t > 0.04, 1.0, 0.0), np.where(t > 0.06, 1.0, 0.0)),
            ("flat comparison: NaN correlations", np.sin(40 * t), np.full_like(t, 2.0)),
            ("flat after a step", np.where(t < 0.01, np.sin(900 * t), 0.0), np.sin(40 * t)),
            ("periodic: shifts of equal correlation", wave, np.sin(2 * np.pi * 50 * t + 1.0))]
    return [(name, np.column_stack([t_, r]), np.column_stack([t_, c]))
            for name, r, c in out for t_ in [np.arange(len(r)) * DT]]


PAIRS = _pairs()


@pytest.mark.parametrize("name, ref, cmp_", PAIRS, ids=[p[0] for p in PAIRS])
def test_same_shift_and_ratings_as_the_package(name, ref, cmp_):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # the package's corrcoef of a flat curve
        theirs, ours = ISO18571(ref, cmp_, dt=DT), BandedISO18571(ref, cmp_, dt=DT)
        assert ours._n_eps == theirs._n_eps
        assert np.array_equal(ours._cae_ts, theirs._cae_ts) and np.array_equal(ours._t_ts, theirs._t_ts)
        for rating in ("corridor_rating", "phase_rating", "magnitude_rating", "slope_rating",
                       "overall_rating"):
            a, b = getattr(ours, rating)(ndigits=-1), getattr(theirs, rating)(ndigits=-1)
            assert a == pytest.approx(b, abs=1e-9, nan_ok=True), rating


@pytest.mark.parametrize("name, ref, cmp_", PAIRS[::3], ids=[p[0] for p in PAIRS[::3]])
def test_same_warping_path_as_dtwalign(name, ref, cmp_):
    """The path itself, as the package's _compute_magnitude gets it from dtwalign."""
    x, y = cmp_[:, 1], ref[:, 1]
    size = int(np.ceil(0.1 * len(x))) - 1
    pattern = UserStepPattern([dict(indices=[(-1, 0), (0, 0)], weights=[1]),
                               dict(indices=[(0, -1), (0, 0)], weights=[1]),
                               dict(indices=[(-1, -1), (0, 0)], weights=[1])], normalize_guide="none")
    cost = (x[:, None] - y[None, :]) ** 2
    path = dtw_low(cost, window=SakoechibaWindow(len(x), len(y), size=size), pattern=pattern).path
    path_x, path_y = banded_dtw_path(x, y, size)
    assert np.array_equal(path_x, path[:, 0]) and np.array_equal(path_y, path[:, 1])


def test_rate_gives_the_packages_rating_of_a_channel_pair():
    """occupant.report.correlation.rate (filtered, on the 10 kHz grid) rates with BandedISO18571
    what the package rates: a 150 ms chest channel against one 8 % larger and 3 ms later."""
    from occupant.channel import Channel
    from occupant.report.correlation import pair_curves, rate
    t = np.arange(0, 0.15 + 1e-12, 1e-4)
    pulse = _pulse(np.random.default_rng(7), t)
    ref = Channel("Chest acceleration X", t, pulse, "m/s^2", code="11CHST0000H3ACX0")
    cmp_ = Channel("Chest acceleration X", t, 1.08 * np.interp(t - 0.003, t, pulse), "m/s^2",
                   code="11CHST0000H3ACX0")
    expected = ISO18571(*pair_curves(ref, cmp_), dt=DT).overall_rating()
    assert 0.5 < expected < 1.0 and rate(ref, cmp_) == pytest.approx(expected, abs=1e-9)
