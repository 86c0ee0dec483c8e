"""Speed of the ISO/TS 18571 ratings of a comparison report (occupant.report.iso18571): CPU
seconds (time.process_time, after a first call that compiles or loads the compiled code) to rate
pairs of 150 ms channels at 10 kHz (n = 1501, a US NCAP run's) with the objective-rating-metrics
package's ISO18571 and with BandedISO18571, and the largest difference of their overall ratings.
Not part of the test suite: run ``python tests/benchmarks/bench_rating.py [pairs]``.
"""
import sys
import time

import numpy as np
from objective_rating_metrics.rating import ISO18571

from occupant.report.iso18571 import BandedISO18571

DT = 1e-4


def pairs(count, n=1501, seed=0):
    """``count`` (reference, comparison) pairs: a half-sine pulse and a scaled, shifted, noisy copy."""
    rng = np.random.default_rng(seed)
    t = np.arange(n) * DT
    out = []
    for _ in range(count):
        t0, width = rng.uniform(0.0, 0.05), rng.uniform(0.02, 0.09)
        ref = np.where((t > t0) & (t < t0 + width), np.sin(np.pi * (t - t0) / width), 0.0) * 400.0
        cmp_ = rng.uniform(0.8, 1.2) * np.interp(t - rng.uniform(-0.01, 0.01), t, ref) + rng.normal(0, 5.0, n)
        out.append((np.column_stack([t, ref]), np.column_stack([t, cmp_])))
    return out


def timed(cls, curves):
    cls(*curves[0], dt=DT).overall_rating()   # compile, or load the compiled code
    t0 = time.process_time()
    ratings = [cls(ref, cmp_, dt=DT).overall_rating(ndigits=-1) for ref, cmp_ in curves]
    return time.process_time() - t0, np.array(ratings)


if __name__ == "__main__":
    curves = pairs(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
    package, theirs = timed(ISO18571, curves)
    banded, ours = timed(BandedISO18571, curves)
    print(f"{len(curves)} pairs of {len(curves[0][0])} samples: package {package:.2f} s CPU, "
          f"BandedISO18571 {banded:.2f} s CPU; largest difference {np.max(np.abs(ours - theirs)):.1e}")
