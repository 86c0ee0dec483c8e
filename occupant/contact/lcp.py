"""Lemke's complementary pivoting algorithm for the linear complementarity problem

    w = M z + q,   w >= 0,   z >= 0,   w^T z = 0

(Lemke 1965; Cottle, Pang & Stone, "The Linear Complementarity Problem", 1992, ch. 4).
Covering vector d = 1; ties in the ratio test are broken lexicographically on the rows of
(B^-1 q, B^-1), which in exact arithmetic rules out cycling on degenerate problems (resting
contacts, q_i = 0, and rank-deficient M: more contacts than freedoms); in floating point,
ratios within round-off of each other count as ties. Lemke's algorithm solves every feasible
LCP with a copositive-plus M, such as the symmetric positive semidefinite Delassus matrix of a
frictionless impact, and Anitescu & Potra (1997) showed it solves the frictional impact LCP of
Stewart & Trinkle (1996) too.
"""
from dataclasses import dataclass

import numpy as np


class LCPError(RuntimeError):
    """Lemke's algorithm ended on a secondary ray or ran out of pivots."""


@dataclass(frozen=True)
class LCPSolution:
    z: np.ndarray      # (n,) the solution
    w: np.ndarray      # (n,) M z + q
    pivots: int        # complementary pivots taken (0 when q >= 0)


def _lexicographic_row(T, rows, denominator, n, tol, prefer=-1):
    """Row of ``rows`` minimising (B^-1 q, B^-1)_i / denominator_i lexicographically; the row
    ``prefer`` (that of z0) wins a tie on the q ratio, which ends the algorithm (Cottle-Pang-Stone
    section 4.4, step 2). Ratios count as tied within the round-off of their numerators,
    tol (max|column| + |ratio_i| max|denominator|) / denominator_i, so rank-deficient
    (degenerate) problems stay on course."""
    candidates = np.asarray(rows)
    # column order of the lexicographic test: q (last column) first, then B^-1 (the w columns)
    for c in [T.shape[1] - 1] + list(range(n)):
        a = denominator[candidates]
        ratios = T[candidates, c] / a
        # round-off of the numerator and of the denominator (relative to their columns)
        slack = tol * (max(np.abs(T[:, c]).max(), np.finfo(float).tiny)
                       + np.abs(ratios) * np.abs(denominator).max()) / a
        k = np.argmin(ratios)
        candidates = candidates[ratios <= ratios[k] + slack + slack[k]]
        if prefer in candidates:
            return prefer
        if len(candidates) == 1:
            break
    return int(candidates[0])


def lemke(M, q, max_pivots=None, tol=1e-10, pivot_tol=1e-12):
    """Solve the LCP (M, q) by Lemke's algorithm; raise LCPError on ray termination. Entries of
    the entering column below ``pivot_tol`` times its largest count as zero (round-off left by
    cancellation, which a pivot would blow up); ``tol`` is the relative tie tolerance."""
    M = np.asarray(M, float)
    q = np.asarray(q, float)
    n = len(q)
    if n == 0 or q.min() >= 0.0:
        return LCPSolution(np.zeros(n), q.copy(), 0)
    max_pivots = 50 * (n + 1) if max_pivots is None else max_pivots
    # tableau B^-1 [I, -M, -d, q] over the variables w (0..n-1), z (n..2n-1), z0 (2n)
    T = np.hstack([np.eye(n), -M, -np.ones((n, 1)), q[:, None]])
    basis = list(range(n))
    z0 = 2 * n

    def pivot(row, col):
        T[row] /= T[row, col]
        for i in range(n):
            if i != row and T[i, col] != 0.0:
                T[i] -= T[i, col] * T[row]
        leaving = basis[row]
        basis[row] = col
        return leaving

    # first pivot: z0 enters (column -d = -1) where (q_i, B^-1_i) is lexicographically least,
    # the most negative q_i, which leaves every basic variable nonnegative
    leaving = pivot(_lexicographic_row(T, np.arange(n), np.ones(n), n, tol), z0)
    for k in range(1, max_pivots + 1):
        entering = leaving + n if leaving < n else leaving - n
        col = T[:, entering]
        rows = np.flatnonzero(col > pivot_tol * np.abs(col).max())
        if len(rows) == 0:
            raise LCPError(f"Lemke's algorithm ended on a secondary ray after {k} pivots "
                           f"(the LCP of size {n} may have no solution)")
        leaving = pivot(_lexicographic_row(T, rows, col, n, tol, basis.index(z0)), entering)
        if leaving == z0:
            x = np.zeros(2 * n + 1)
            x[basis] = T[:, -1]
            z = np.maximum(x[n:2 * n], 0.0)  # basic values are >= 0 up to round-off
            return LCPSolution(z, M @ z + q, k)
    raise LCPError(f"Lemke's algorithm did not finish in {max_pivots} pivots (LCP of size {n})")
