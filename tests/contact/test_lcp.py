"""Lemke's algorithm: a closed-form 2x2 LCP, identity against scipy's NNLS (Lawson-Hanson) on
random symmetric positive definite problems, the complementarity conditions on degenerate,
rank-deficient ones (resting contacts, more contacts than freedoms), and ray termination."""
import numpy as np
import pytest
from scipy.optimize import nnls

from occupant.contact.lcp import LCPError, lemke


def test_analytic_lemke_two_by_two():
    """M = [[2, 1], [1, 2]], q = (-5, -1): z = (5/2, 0) is a solution with w = (0, 3/2); checked
    by hand: z2 > 0 would need w2 = z1 + 2 z2 - 1 = 0 with 2 z1 + z2 = 5, i.e. z2 = -1 < 0."""
    sol = lemke(np.array([[2.0, 1.0], [1.0, 2.0]]), np.array([-5.0, -1.0]))
    assert np.allclose(sol.z, [2.5, 0.0], atol=1e-15, rtol=0)
    assert np.allclose(sol.w, [0.0, 1.5], atol=1e-15, rtol=0)
    assert sol.pivots == 1


def test_identity_lemke_equals_nnls_on_definite_problems():
    """For M = B B^T (B square, invertible) the LCP is min 1/2 |B^T z + x|^2, z >= 0 with
    q = B x: NNLS(B^T, -x) solves the same problem by a different algorithm."""
    rng = np.random.default_rng(7)
    for _ in range(200):
        n = int(rng.integers(1, 12))
        B = rng.normal(size=(n, n))
        x = rng.normal(size=n)
        z_ref, _ = nnls(B.T, -x)
        sol = lemke(B @ B.T, B @ x)
        assert np.allclose(sol.z, z_ref, rtol=1e-9, atol=1e-9 * max(1.0, np.abs(z_ref).max()))


def test_identity_lemke_complementarity_on_degenerate_problems():
    """Rank-deficient M = B B^T (more rows than freedoms) and q = B x with some q_i = 0 exactly
    (resting contacts): w >= 0, z >= 0 and w.z = 0 to round-off, within 50 (n + 1) pivots."""
    rng = np.random.default_rng(11)
    worst, most = 0.0, 0
    for trial in range(2000):
        n = int(rng.integers(1, 16))
        r = int(rng.integers(1, n + 3))
        B = rng.normal(size=(n, r))
        x = rng.normal(size=r)
        if trial % 3 == 0:  # x orthogonal to some rows of B: those q_i are zero
            rows = np.flatnonzero(rng.random(n) < 0.4)[:r - 1]
            if len(rows):
                null = np.linalg.svd(B[rows])[2][len(rows):]
                x = null.T @ rng.normal(size=len(null))
        q = B @ x
        sol = lemke(B @ B.T, q)
        scale = np.abs(q).max() * max(1.0, np.abs(sol.z).max())
        assert sol.z.min() >= 0.0
        worst = max(worst, -sol.w.min() / scale, abs(sol.w @ sol.z) / scale)
        most = max(most, sol.pivots)
    assert worst < 1e-10, worst
    assert most <= 50 * 17


def test_analytic_lemke_ray_on_infeasible_problem():
    """w = -z - 1 can never be nonnegative: Lemke ends on a ray and says so."""
    with pytest.raises(LCPError, match="secondary ray"):
        lemke(-np.eye(2), np.array([-1.0, -1.0]))
