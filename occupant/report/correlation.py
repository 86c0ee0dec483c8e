"""ISO/TS 18571 correlation of channel pairs (the `objective-rating-metrics` package, an optional
extra: ``pip install occupant[report]``): both channels filtered as their criteria prescribe,
put on a common 10 kHz grid over the time both cover, then rated 0 (no match) to 1 (identical)."""
import numpy as np

from occupant.report.data import channel_groups, filtered_channel

RATE = 10000.0   # Hz: ISO/TS 18571 rates curves sampled at 10 kHz (the package's default dt)
# ISO/TS 18571 grades of the overall rating [S: ISO/TS 18571:2014 table 3, as the
# objective-rating-metrics package documents it]
GRADES = ((0.94, "excellent"), (0.80, "good"), (0.58, "fair"), (0.0, "poor"))


def grade(rating):
    return next(name for limit, name in GRADES if rating > limit or limit == 0.0)


def pair_curves(reference, comparison):
    """((n, 2), (n, 2)) arrays of time (s) and value of two channels on the 10 kHz grid over the
    time both cover, each filtered first; None when they share less than 10 ms."""
    t_r, v_r, _, _ = filtered_channel(reference)
    t_c, v_c, _, _ = filtered_channel(comparison)
    t0, t1 = max(t_r[0], t_c[0]), min(t_r[-1], t_c[-1])
    if t1 - t0 < 0.010:
        return None
    t = t0 + np.arange(int(np.floor((t1 - t0) * RATE + 1e-9)) + 1) / RATE
    return np.column_stack([t, np.interp(t, t_r, v_r)]), np.column_stack([t, np.interp(t, t_c, v_c)])


FLAT = 0.01   # a reference whose peak is below 1 % of its group's (X, Y, Z) largest is not rated


def rate(reference, comparison, scale=None):
    """Overall ISO/TS 18571 rating of ``comparison`` against ``reference`` (occupant Channels), or
    None when they cannot be rated: too short an overlap, or a reference that is flat (peak below
    FLAT times ``scale``, e.g. the largest peak of its X, Y, Z group; the corridor and magnitude
    ratings scale with the reference's peak, so noise on a zero channel would be graded)."""
    from occupant.report.iso18571 import BandedISO18571
    curves = pair_curves(reference, comparison)
    if curves is None:
        return None
    ref, cmp_ = curves
    peak = np.max(np.abs(ref[:, 1]))
    if peak == 0.0 or (scale is not None and peak < FLAT * scale):
        return None
    return float(BandedISO18571(ref, cmp_, dt=1.0 / RATE).overall_rating())


def rate_runs(reference, others, names=None, labels=None):
    """[(channel name, comparison run's label, rating or None)] for every channel of the reference
    run found (same name) in each other run; ``names`` limits the channels; ``labels`` those of
    ``others`` (default: their names)."""
    ref = {c.name: c for c in reference.results.channels}
    scale = {}
    for group in channel_groups(reference.results.channels).values():
        peak = max(float(np.max(np.abs(filtered_channel(c)[1]))) for c in group)
        scale.update({c.name: peak for c in group})
    out = []
    for run, label in zip(others, labels or [run.name for run in others]):
        chans = {c.name: c for c in run.results.channels}
        for name, ch in ref.items():
            if (names is None or name in names) and name in chans:
                out.append((name, label, rate(ch, chans[name], scale[name])))
    return out
