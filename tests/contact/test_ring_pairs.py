"""A bounded plane's ring (``Plane.inner_radius``: a disc with a round hole, a steering wheel's
rim, open where a real wheel is; ``occupant.contact.convex_pairs.ring_local``) against closed
forms for a sphere: over the hole no contact (d = r - the distance to the hole's edge, < 0),
over the ring the plane's (d = r - height), at the hole's edge the edge's (d = r - the distance
to the circle); its plate (a thickness) pushes a sphere in the hole towards the axis; the
signed distance query agrees with the step; and an ellipsoid's hole-edge depth is the deepest
of the circle's points in it."""
import numpy as np
import pytest

import occupant
from occupant.contact.compliant import signed_distances
from occupant.integrate.pipeline import evaluate
from occupant.modeling import Ellipsoid, Plane
from tests.contact.test_geometry_pairs import K, P_B, R_B, RADIUS, _model, _q, _rotation

OUTER, INNER = 0.19, 0.16        # m, a steering wheel's rim (vehicles/midsize_sedan_driver.toml)
SEMI = np.array([0.07, 0.045, 0.03])


def _ring(**extra):
    return Plane("ring", None, point=P_B, normal=R_B[:, 2], x_axis=R_B[:, 0], radius=OUTER,
                 inner_radius=INNER, **extra)


def _contact(model, c, R_local=np.eye(3)):
    """(penetration output, force on a in the ring's frame, signed distance query) with a's
    centre at c in the ring's frame."""
    q = _q(model, c, R_local)
    data = model.make_data()
    evaluate(model.bundle(), data, 0.0, q, np.zeros(6), np.zeros(model.nz), 0.0)
    out = dict(zip(model.output_names, data.outputs))
    force = R_B.T @ data.R_base_link[0] @ data.f_ext[0, 3:]
    return out["p.penetration"], force, signed_distances(model, q)["p"]


def _unit(v):
    v = np.asarray(v, float)
    return v / np.linalg.norm(v)


@pytest.mark.parametrize("thickness", [None, 0.03])
def test_analytic_sphere_over_the_hole_over_the_ring_and_at_its_edge(thickness):
    model = _model(_ring(thickness=thickness))
    # over the hole, 10-20 mm above the plane (a disc would push it 30-40 mm), clear of the edge
    for c in ([0.0, 0.0, 0.02], [0.08, -0.05, 0.02], [0.10, 0.0, 0.01]):
        c = np.array(c)
        edge = np.array([*(INNER * _unit(c[:2]) if np.any(c[:2]) else (INNER, 0.0)), 0.0])
        pen, force, d = _contact(model, c)
        assert pen == 0.0 and np.all(force == 0.0), c
        assert d == pytest.approx(RADIUS - np.linalg.norm(c - edge), abs=1e-12), c
    # over the ring: the plane's contact, d = r - height, along the normal
    for c in ([0.17, 0.0, 0.03], [-0.12, 0.12, 0.02]):
        c = np.array(c)
        pen, force, d = _contact(model, c)
        assert pen == pytest.approx(RADIUS - c[2], abs=1e-14) and d == pytest.approx(pen, abs=1e-14)
        np.testing.assert_allclose(force, K * (RADIUS - c[2]) * np.array([0, 0, 1.0]), atol=1e-9)
    # at the hole's edge, its centre 10 mm inside it, 30 mm above: the circle's nearest point
    for direction in ([1.0, 0.0], [0.6, -0.8]):
        c = np.array([*((INNER - 0.01) * np.array(direction)), 0.03])
        edge = np.array([*(INNER * np.array(direction)), 0.0])
        expected = RADIUS - np.linalg.norm(c - edge)
        pen, force, d = _contact(model, c)
        assert pen == pytest.approx(expected, abs=1e-12) and d == pytest.approx(expected, abs=1e-12)
        np.testing.assert_allclose(force, K * expected * _unit(c - edge), atol=1e-6)
    # a sphere passing through the hole's middle, in the plane, clear of the ring: no contact
    pen, force, d = _contact(model, np.array([0.05, 0.0, 0.0 if thickness is None else -0.015]))
    assert pen == 0.0 and d == pytest.approx(RADIUS - (INNER - 0.05), abs=1e-12)


def test_analytic_sphere_in_a_ring_plates_hole_meets_its_wall():
    """A sphere in the hole, within the plate's thickness, reaching 20 mm past the hole's wall:
    pushed towards the axis with d = r - (r_i - rho)."""
    t = 0.03
    model = _model(_ring(thickness=t))
    c = np.array([(INNER - RADIUS + 0.02) * 0.6, (INNER - RADIUS + 0.02) * 0.8, -0.5 * t])
    pen, force, d = _contact(model, c)
    assert pen == pytest.approx(0.02, abs=1e-12) and d == pytest.approx(0.02, abs=1e-12)
    np.testing.assert_allclose(force, K * 0.02 * np.array([-0.6, -0.8, 0.0]), atol=1e-6)


def test_identity_ring_is_the_disc_where_the_disc_meets_the_ring():
    """Everything met on the ring or past its outer edge is the disc's contact, bit for bit:
    a hand gripping a wheel's rim meets it as before."""
    for thickness in (None, 0.03):
        ring = _model(_ring(thickness=thickness))
        disc = _model(Plane("ring", None, point=P_B, normal=R_B[:, 2], x_axis=R_B[:, 0],
                            radius=OUTER, thickness=thickness))
        for c in ([0.18, 0.01, 0.03], [0.2, 0.05, 0.02], [0.0, 0.22, -0.01], [0.175, 0.0, -0.07]):
            a, b = _contact(ring, np.array(c)), _contact(disc, np.array(c))
            assert a[0] == b[0] and np.all(a[1] == b[1]), (thickness, c)


def _depth_in_ellipsoid(Q_inv, c, x):
    """How deep the point x lies in the ellipsoid (x - c)^T Q^-1 (x - c) <= 1 along its
    nearest way out: found as the least distance to its surface by sampling (independent of
    the narrow phase's support functions)."""
    rng = np.random.default_rng(1)
    u = rng.normal(size=(20000, 3))
    u /= np.linalg.norm(u, axis=1)[:, None]
    # the surface point of each direction from the centre, then the nearest to x
    s = c + u / np.sqrt(np.einsum("ni,ij,nj->n", u, Q_inv, u))[:, None]
    inside = (x - c) @ Q_inv @ (x - c) <= 1.0
    return (1.0 if inside else -1.0) * np.linalg.norm(s - x, axis=1).min()


def test_analytic_ellipsoid_over_the_hole_meets_the_edges_deepest_point():
    """An ellipsoid over the hole, dipping past the plane: its depth is the deepest point of the
    hole's circle in it (sampled around the circle, the depth measured against sampled surface
    points: within 1 mm, they agree within 0.07 mm)."""
    R = _rotation([0.4, 0.9, -0.3])
    Q = R @ np.diag(SEMI**2) @ R.T
    model = _model(_ring(), Ellipsoid("egg", "m", SEMI))
    # its centre 126-135 mm from the axis, its lowest point over the hole (there the disc's
    # depth would be 49 mm where the edge's is 9-19 mm)
    for c in ([-0.10, -0.09, 0.0], [0.0, 0.13, 0.015], [0.12, 0.04, 0.0]):
        c = np.array(c)
        a = np.linspace(0.0, 2 * np.pi, 721)
        circle = np.column_stack([INNER * np.cos(a), INNER * np.sin(a), np.zeros_like(a)])
        best = max(_depth_in_ellipsoid(np.linalg.inv(Q), c, x) for x in circle)
        assert best > 0.003, c
        pen, force, d = _contact(model, c, R)
        assert pen == pytest.approx(best, abs=1e-3) and d == pen, c


def test_bad_inner_radius():
    for bad in (0.19, 0.25, -0.01):
        with pytest.raises(occupant.modeling.ModelingError, match="inner_radius"):
            _ring().__class__("w", None, point=P_B, radius=OUTER, inner_radius=bad)
    with pytest.raises(occupant.modeling.ModelingError, match="inner_radius: given without radius"):
        Plane("w", None, point=P_B, half_size=(0.1, 0.1), inner_radius=0.05)
