"""ISO/TS 18571 ratings of channel pairs: identity, ordering, flat references."""
import numpy as np
import pytest

from occupant.channel import Channel
from occupant.report.correlation import RATE, grade, pair_curves, rate

pytest.importorskip("objective_rating_metrics")
T = np.arange(0, 0.1 + 1e-12, 1e-4)
PULSE = np.where(T < 0.08, np.sin(np.pi * T / 0.08), 0.0) * 300.0   # m/s^2, a half-sine


def _ch(values, t=T, name="Chest acceleration X"):
    return Channel(name, t, values, "m/s^2", code="11CHST0000H3ACX0")


def test_identical_channels_rate_one():
    assert rate(_ch(PULSE), _ch(PULSE)) == pytest.approx(1.0, abs=1e-9)
    assert grade(1.0) == "excellent"


def test_larger_differences_rate_lower():
    ref = _ch(PULSE)
    close = rate(ref, _ch(1.05 * PULSE))
    far = rate(ref, _ch(1.5 * PULSE))
    shifted = rate(ref, _ch(np.interp(T - 0.01, T, PULSE)))
    assert 1.0 > close > far and 1.0 > shifted
    assert grade(close) in ("excellent", "good") and grade(far) != "excellent"


def test_pairs_share_a_10_khz_grid_over_their_overlap():
    t2 = np.arange(0.02, 0.12, 5e-5)   # 20 kHz, shifted: only 20-100 ms overlap
    ref, cmp_ = pair_curves(_ch(PULSE), _ch(np.interp(t2, T, PULSE), t=t2))
    assert ref.shape == cmp_.shape and ref[0, 0] == pytest.approx(0.02) and ref[-1, 0] == pytest.approx(0.1)
    assert np.allclose(np.diff(ref[:, 0]), 1 / RATE)


def test_flat_reference_is_not_rated():
    assert rate(_ch(np.zeros_like(T)), _ch(PULSE)) is None
    assert rate(_ch(1e-3 * PULSE), _ch(PULSE), scale=300.0) is None
