"""occupant.modeling.lattice: the Fibonacci lattice on the unit sphere."""
import numpy as np

from occupant.modeling.lattice import sphere_lattice


def test_analytic_sphere_lattice_points_are_unit_and_spread_evenly():
    """Unit vectors whose centroid is the sphere's centre (within 1/n: equal-area bands) and
    whose half-sphere version lies above z = 0; the largest gap to a nearest neighbour within
    twice the mean spacing sqrt(4 pi / n)."""
    for n in (50, 600):
        u = sphere_lattice(n)
        assert u.shape == (n, 3)
        assert np.allclose(np.linalg.norm(u, axis=1), 1.0, atol=1e-12)
        assert np.linalg.norm(u.mean(axis=0)) < 1.0 / n
        d = np.linalg.norm(u[:, None] - u[None], axis=2) + 4.0 * np.eye(n)
        assert d.min(axis=1).max() < 2.0 * np.sqrt(4.0 * np.pi / n)
        h = sphere_lattice(n, half=True)
        assert np.all(h[:, 2] > 0.0) and abs(h[:, 2].mean() - 0.5) < 1.0 / n
