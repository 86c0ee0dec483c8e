"""The integral of the smaller of a line and a power curve, in closed form: what the stored
elastic energy of a contact law needs where its unloading curve is capped by its loading curve
(``compliant.elastic_energy``).

On [u, v] (0 <= u <= v) with L(x) = a + s x and Q(x) = b + c x^n (c >= 0, n > 0), h = Q - L is
linear (n = 1), convex (n > 1) or concave (n < 1), so it changes sign at most twice, once on each
side of its extremum x* = (s / (c n))^(1 / (n - 1)); each root is bracketed there and found by
bisection to the last bit; between roots min(L, Q) is one of them, integrated exactly.
"""
import numpy as np
from numba import njit

from occupant.jit import JIT


@njit(**JIT)
def _h(x, a, s, b, c, n):
    return b + c * x ** n - a - s * x


@njit(**JIT)
def _root(lo, hi, a, s, b, c, n):
    """x in [lo, hi] where h changes sign (h(lo), h(hi) of opposite signs), by bisection."""
    h_lo = _h(lo, a, s, b, c, n)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        h_mid = _h(mid, a, s, b, c, n)
        if (h_mid > 0.0) == (h_lo > 0.0):
            lo, h_lo = mid, h_mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@njit(**JIT)
def _piece(u, v, a, s, b, c, n):
    """The integral of min(L, Q) over [u, v] where h keeps one sign (judged at the middle)."""
    if v <= u:
        return 0.0
    if _h(0.5 * (u + v), a, s, b, c, n) < 0.0:
        return b * (v - u) + c * (v ** (n + 1.0) - u ** (n + 1.0)) / (n + 1.0)
    return a * (v - u) + 0.5 * s * (v * v - u * u)


@njit(**JIT)
def _monotone(u, v, a, s, b, c, n):
    """The integral of min(L, Q) over [u, v] where h is monotone: one root at most."""
    if v <= u:
        return 0.0
    h_u, h_v = _h(u, a, s, b, c, n), _h(v, a, s, b, c, n)
    if (h_u > 0.0) != (h_v > 0.0) and h_u != 0.0 and h_v != 0.0:
        x = _root(u, v, a, s, b, c, n)
        return _piece(u, x, a, s, b, c, n) + _piece(x, v, a, s, b, c, n)
    return _piece(u, v, a, s, b, c, n)


@njit(**JIT)
def line_power_min_integral(u, v, a, s, b, c, n):
    """Integral over [u, v] (0 <= u <= v) of min(a + s x, b + c x^n), c >= 0, n > 0."""
    if v <= u:
        return 0.0
    if n != 1.0 and c > 0.0 and s / (c * n) > 0.0:
        x_star = (s / (c * n)) ** (1.0 / (n - 1.0))
        if u < x_star < v:
            return (_monotone(u, x_star, a, s, b, c, n)
                    + _monotone(x_star, v, a, s, b, c, n))
    return _monotone(u, v, a, s, b, c, n)
