"""SAE J211-1 / ISO 6487 channel frequency class (CFC) filters.

The digital filter of SAE J211-1 (MAR95) Appendix C: a 2-pole Butterworth low-pass realised
by the bilinear transform, run forward and then backward over the data, which gives a
4-pole, zero-phase (phaseless) response. Per pass, with sample interval T (s):

    w_d = 2 pi CFC 2.0775                (J211-1; ISO 6487 uses 2 pi CFC 25/12)
    w_a = sin(w_d T / 2) / cos(w_d T / 2)
    D   = 1 + sqrt(2) w_a + w_a^2
    a0  = w_a^2 / D,  a1 = 2 a0,  a2 = a0
    b1  = -2 (w_a^2 - 1) / D,  b2 = (-1 + sqrt(2) w_a - w_a^2) / D
    Y[t] = a0 X[t] + a1 X[t-1] + a2 X[t-2] + b1 Y[t-1] + b2 Y[t-2]

Sources: SAE J211-1 MAR95 Appendix C as restated in shared/reference/crash-domain-facts.md
section 3.2 [S: Hartlen SaeJ211Filter.m, crashmetrics, DADiSP CFC page]; ISO factor 25/12
[S: pyisomme, weisang.com "CFC Filter Calculation"].

Start-up treatment. A recursive filter started cold on data that does not begin at zero
rings at both ends. J211-1 asks for pre-event data ahead of the event, or otherwise an
assumed signal history of at least 10 ms [S: Altair HyperGraph saefilt95 help, citing the
J211/1 recommendation of a minimum of 10 ms of padding]. This module therefore:

1. extends the record at each end by ``pad_time`` (default 10 ms, capped at the record length)
   of point-reflected data, ``x_pad[-k] = 2 x[0] - x[k]`` (the "mirror" padding of the same
   sources, and the extension of ISO 6487 Annex A as implemented in pyisomme
   ``Channel.cfc``), which continues both the level and the slope of the signal across the end;
2. starts each pass in the steady state of its first (padded) sample, so a constant signal
   passes through exactly;
3. runs the pass forward, then backward, and drops the padding.

Users with real pre-event data should include it in ``values`` (the reflection then acts on
quiet data) -- the preferred treatment in J211-1.
"""

from __future__ import annotations

import math

import numpy as np

from occupant.injury.errors import InjuryInputError

__all__ = ["CFC_CLASSES", "cfc_coefficients", "cfc_filter"]

#: The channel frequency classes of SAE J211-1 / ISO 6487 (F_H in Hz = the class number)
#: [S: J211 class table via tnlab.org; crash-domain-facts.md 3.1].
CFC_CLASSES = (60, 180, 600, 1000)

# Design-frequency factor w_d / (2 pi CFC):
_FACTOR = {
    "J211": 2.0775,  # SAE J211-1 MAR95 Appendix C [S: crash-domain-facts.md 3.2]
    "ISO": 25.0 / 12.0,  # ISO 6487: 1.25 * 5/3 [S: pyisomme, weisang.com CFC algorithm]
}

# J211-1 recommends at least 10 ms of assumed history before the data [S: Altair saefilt95].
_DEFAULT_PAD_TIME = 0.010  # s


def _check_cfc(cfc) -> int:
    if isinstance(cfc, bool) or cfc not in CFC_CLASSES:
        raise InjuryInputError(
            f"cfc: unknown channel frequency class {cfc!r} (accepted: "
            f"{', '.join(str(c) for c in CFC_CLASSES)})"
        )
    return int(cfc)


def _check_dt(dt) -> float:
    try:
        dt_f = float(dt)
    except (TypeError, ValueError):
        raise InjuryInputError(f"dt: sampling interval must be a positive number in s, got {dt!r}")
    if not math.isfinite(dt_f) or dt_f <= 0.0:
        raise InjuryInputError(f"dt: sampling interval must be a positive number in s, got {dt!r}")
    return dt_f


def nyquist_dt(cfc: int, standard: str = "J211") -> float:
    """The sampling interval (s) at which CFC ``cfc``'s design frequency reaches the Nyquist
    frequency: the filter (its bilinear prewarp, tan(w_d dt / 2)) needs a shorter one."""
    return 0.5 / (cfc * _FACTOR[standard])


def cfc_coefficients(dt: float, cfc: int, standard: str = "J211"):
    """The 2-pole coefficients ``(a0, a1, a2, b1, b2)`` of one pass, in the J211 sign
    convention (``Y = a0 X + a1 X[-1] + a2 X[-2] + b1 Y[-1] + b2 Y[-2]``)."""
    cfc = _check_cfc(cfc)
    dt = _check_dt(dt)
    if standard not in _FACTOR:
        raise InjuryInputError(
            f"standard: unknown filter standard {standard!r} (accepted: J211, ISO)"
        )
    w_d = 2.0 * math.pi * cfc * _FACTOR[standard]  # rad/s, design frequency
    if dt >= nyquist_dt(cfc, standard):
        raise InjuryInputError(
            f"dt: sampling interval {dt:g} s is too coarse for CFC {cfc}; the design frequency "
            f"{w_d / (2 * math.pi):.0f} Hz must be below the Nyquist frequency "
            f"{0.5 / dt:.0f} Hz (J211-1 asks for sampling at >= 10 x CFC, i.e. dt <= "
            f"{0.1 / cfc:g} s)"
        )
    w_a = math.sin(w_d * dt / 2.0) / math.cos(w_d * dt / 2.0)
    d = 1.0 + math.sqrt(2.0) * w_a + w_a**2
    a0 = w_a**2 / d
    a1 = 2.0 * a0
    a2 = a0
    b1 = -2.0 * (w_a**2 - 1.0) / d
    b2 = (-1.0 + math.sqrt(2.0) * w_a - w_a**2) / d
    return a0, a1, a2, b1, b2


def _one_pass(x: np.ndarray, b: np.ndarray, a: np.ndarray) -> np.ndarray:
    # Steady-state start at the first sample: for a constant input x0 the state of the
    # transposed direct form II equals x0 times the state for unit input.
    zi_unit = _steady_state_unit(b, a)
    return _direct_form_2t(x, b, a, zi_unit * x[0])


def _direct_form_2t(x: np.ndarray, b: np.ndarray, a: np.ndarray, zi: np.ndarray) -> np.ndarray:
    """The 2nd-order section (a[0] = 1) over ``x`` from state ``zi`` in the transposed direct
    form II, the products and sums in the order scipy.signal.lfilter does them, so that the
    result is the same to the bit (tests/injury/test_filters.py checks it): a plain loop, as
    importing scipy.signal took 0.5-0.9 s of every ``occupant run`` (it imports scipy.stats)
    and the ~90 passes of a run's criteria and report take ~0.1 s this way."""
    b0, b1, b2 = (float(v) for v in b)
    a1, a2 = float(a[1]), float(a[2])
    z0, z1 = (float(v) for v in zi)
    y = []
    for xn in x.tolist():
        yn = z0 + b0 * xn
        z0 = z1 + xn * b1 - yn * a1
        z1 = xn * b2 - yn * a2
        y.append(yn)
    return np.array(y)


def _steady_state_unit(b: np.ndarray, a: np.ndarray) -> np.ndarray:
    # For a 2nd-order section with unit DC gain: y = x = 1 in steady state.
    # Transposed direct form II: y = b0 x + z0; z0' = b1 x - a1 y + z1; z1' = b2 x - a2 y.
    z1 = b[2] - a[2]
    z0 = b[1] - a[1] + z1
    return np.array([z0, z1])


def cfc_filter(values, dt: float, cfc: int, *, standard: str = "J211", pad_time: float = _DEFAULT_PAD_TIME):
    """Filter ``values`` sampled every ``dt`` seconds with channel frequency class ``cfc``.

    Parameters
    ----------
    values : array_like, shape (n,)
        Uniformly sampled data, any unit (returned in the same unit).
    dt : float
        Sampling interval in s (J211-1 asks for at least 10 samples per 1/CFC).
    cfc : {60, 180, 600, 1000}
        Channel frequency class.
    standard : {"J211", "ISO"}
        Design-frequency factor: 2.0775 (SAE J211-1, default) or 25/12 (ISO 6487).
    pad_time : float
        Length in s of the point-reflected extension at each end (start-up treatment);
        capped at the record length. 0 disables padding (steady-state start only).

    Returns
    -------
    numpy.ndarray, shape (n,)
        The filtered data, zero phase, 4-pole Butterworth magnitude.
    """
    x = np.asarray(values, dtype=float)
    if x.ndim != 1:
        raise InjuryInputError(f"values: expected a 1-D array, got shape {x.shape}")
    if x.size < 3:
        raise InjuryInputError(f"values: need at least 3 samples to filter, got {x.size}")
    if not np.all(np.isfinite(x)):
        raise InjuryInputError("values: contains NaN or infinite samples")
    a0, a1, a2, b1, b2 = cfc_coefficients(dt, cfc, standard)
    try:
        pad_time_f = float(pad_time)
    except (TypeError, ValueError):
        pad_time_f = -1.0
    if not math.isfinite(pad_time_f) or pad_time_f < 0.0:
        raise InjuryInputError(f"pad_time: expected a non-negative time in s, got {pad_time!r}")
    b = np.array([a0, a1, a2])  # numerator
    a = np.array([1.0, -b1, -b2])  # denominator in scipy's sign convention
    n_pad = min(int(math.ceil(pad_time_f / float(dt) - 1e-9)), x.size - 1)
    if n_pad > 0:
        head = 2.0 * x[0] - x[n_pad:0:-1]
        tail = 2.0 * x[-1] - x[-2:-n_pad - 2:-1]
        xp = np.concatenate([head, x, tail])
    else:
        xp = x
    y = _one_pass(xp, b, a)
    y = _one_pass(y[::-1], b, a)[::-1]
    if n_pad > 0:
        y = y[n_pad:-n_pad]
    return y
