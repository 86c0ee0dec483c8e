"""The belt's path rebuilt from its points (occupant.restraints.belt_clearance) against closed
forms: a belt over a sphere between two anchors, and how deep a straight piece passes into a
second sphere."""
import numpy as np
import pytest

from occupant.restraints.belt_clearance import belt_path, deepest, depth

R0 = 0.1
SPHERE = (np.zeros(3), np.eye(3), np.full(3, R0))
A, B = np.array([-0.3, 0.0, -0.2]), np.array([0.3, 0.0, -0.2])


def _tangent(anchor, sign):
    """The tangent point on the circle of radius R0 (plane y = 0) seen from the anchor, over
    the top: at the angle acos(R0 / d) from the anchor's direction, towards +z."""
    d = np.hypot(anchor[0], anchor[2])
    phi = np.arctan2(anchor[2], anchor[0]) + sign * np.arccos(R0 / d)
    return np.array([R0 * np.cos(phi), 0.0, R0 * np.sin(phi)])


def test_analytic_path_over_a_sphere_ends_at_the_tangent_points():
    """A belt from A over the top of a sphere to B (symmetric: its wrap point is the top): the
    rebuilt arc runs from A's tangent point to B's, on the sphere, and the path's length is
    the two tangents plus the arc between the tangent points."""
    points = [(A, None), (np.array([0.0, 0.0, R0]), SPHERE), (B, None)]
    path, on, _ = belt_path(points, samples=400)
    arc = path[on == 1]
    np.testing.assert_allclose(arc[0], _tangent(A, -1.0), atol=1e-12)
    np.testing.assert_allclose(arc[-1], _tangent(B, 1.0), atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(arc, axis=1), R0, atol=1e-12)
    d = np.hypot(A[0], A[2])
    t1, t2 = _tangent(A, -1.0), _tangent(B, 1.0)
    angle = np.arccos(t1 @ t2 / R0 ** 2)
    expected = 2.0 * np.sqrt(d * d - R0 * R0) + R0 * angle
    assert np.linalg.norm(np.diff(path, axis=0), axis=1).sum() == pytest.approx(expected, rel=1e-5)
    assert deepest(path, on, points, {"ball": SPHERE})["ball"] == 0.0


def test_analytic_run_of_three_wraps_and_a_second_sphere_crossed():
    """Three wrap points at 1/4, 1/2, 3/4 of the arc give the same arc as its middle alone; a
    sphere of radius 0.05 m centred 0.03 m below the straight piece from A is crossed 0.02 m
    deep (radius less the distance from the centre to the piece)."""
    t1, t2 = _tangent(A, -1.0), _tangent(B, 1.0)
    p1, p2 = np.arctan2(t1[2], t1[0]), np.arctan2(t2[2], t2[0])
    on_arc = [np.array([R0 * np.cos(p), 0.0, R0 * np.sin(p)]) for p in
              (p1 + (p2 - p1) * f for f in (0.25, 0.5, 0.75))]
    path3, on3, _ = belt_path([(A, None)] + [(x, SPHERE) for x in on_arc] + [(B, None)], samples=400)
    path1, _, _ = belt_path([(A, None), (on_arc[1], SPHERE), (B, None)], samples=400)
    np.testing.assert_allclose(path3, path1, atol=1e-12)
    u = (t1 - A) / np.linalg.norm(t1 - A)
    normal = np.array([-u[2], 0.0, u[0]])                   # in the plane, normal to the piece
    mid = 0.5 * (A + t1)
    other = (mid - 0.03 * np.sign(normal[2]) * normal, np.eye(3), np.full(3, 0.05))
    assert depth(mid, other) == pytest.approx(0.02, abs=1e-12)
    points = [(A, None)] + [(x, SPHERE) for x in on_arc] + [(B, None)]
    got = deepest(path3, on3, points, {"ball": SPHERE, "other": other})
    assert got["ball"] < 1e-12
    assert got["other"] == pytest.approx(0.02, abs=1e-6)


def test_analytic_each_sample_knows_its_piece():
    """Over a run of three wraps at 1/4, 1/2, 3/4 of the arc between A's and B's tangent
    points, the samples from A to the first wrap lie on the piece 0, those between the wraps i
    and i + 1 on the piece i (their angles between the wraps'), those after the last on the
    piece 3; the sphere crossed by the piece from A reads 0 when only the pieces 1-3 are
    checked (a slack piece judged by its own force)."""
    t1, t2 = _tangent(A, -1.0), _tangent(B, 1.0)
    p1, p2 = np.arctan2(t1[2], t1[0]), np.arctan2(t2[2], t2[0])
    angles = [p1 + (p2 - p1) * f for f in (0.25, 0.5, 0.75)]
    points = ([(A, None)] + [(np.array([R0 * np.cos(a), 0.0, R0 * np.sin(a)]), SPHERE)
                             for a in angles] + [(B, None)])
    path, on, piece = belt_path(points, samples=400)
    bounds = [p1] + angles + [p2]
    for i in range(4):
        phi = np.arctan2(path[(piece == i) & (on == 1), 2], path[(piece == i) & (on == 1), 0])
        lo, hi = sorted(bounds[i:i + 2])
        assert phi.min() > lo - 1e-9 and phi.max() < hi + 1e-9
    assert np.all(piece[on == -1][:400] == 0) and np.all(piece[on == -1][-400:] == 3)
    mid = 0.5 * (A + t1)
    u = (t1 - A) / np.linalg.norm(t1 - A)
    normal = np.array([-u[2], 0.0, u[0]])
    other = (mid - 0.03 * np.sign(normal[2]) * normal, np.eye(3), np.full(3, 0.05))
    assert deepest(path, on, points, {"other": other})["other"] == pytest.approx(0.02, abs=1e-6)
    assert deepest(path, on, points, {"other": other}, piece > 0)["other"] == 0.0

def test_run_between_runs_is_seen_from_the_run_before():
    """Two spheres side by side under a belt over both (the two-sphere case of
    test_belt_wrap_chain): each arc's points lie on its sphere and the piece between the arcs
    leaves the first sphere along its tangent (no kink where it leaves)."""
    c2, r2 = np.array([0.3, 0.0, 0.0]), 0.05
    second = (c2, np.eye(3), np.full(3, r2))
    nx = (R0 - r2) / 0.3                                    # the common outer tangent's normal
    n = np.array([nx, 0.0, np.sqrt(1.0 - nx * nx)])
    a, b = np.array([-0.3, 0.0, -0.2]), np.array([0.6, 0.0, -0.2])
    ta = _tangent(a, -1.0)
    pa, pn = np.arctan2(ta[2], ta[0]), np.arctan2(n[2], n[0])
    w1 = R0 * np.array([np.cos(0.5 * (pa + pn)), 0.0, np.sin(0.5 * (pa + pn))])
    tb = c2 + (lambda d, q: r2 * np.array([np.cos(q), 0.0, np.sin(q)]))(
        None, np.arctan2(b[2] - c2[2], b[0] - c2[0]) + np.arccos(r2 / np.hypot(*(b - c2)[[0, 2]])))
    pb = np.arctan2(tb[2] - c2[2], tb[0] - c2[0])
    w2 = c2 + r2 * np.array([np.cos(0.5 * (pn + pb)), 0.0, np.sin(0.5 * (pn + pb))])
    points = [(a, None), (w1, SPHERE), (w2, second), (b, None)]
    path, on, _ = belt_path(points, samples=400)
    np.testing.assert_allclose(path[on == 1][-1], R0 * n, atol=1e-9)
    np.testing.assert_allclose(path[on == 2][0], c2 + r2 * n, atol=1e-9)
    got = deepest(path, on, points, {"one": SPHERE, "two": second})
    assert max(got.values()) < 1e-9


@pytest.mark.parametrize("carried", [1.0, 0.97])
def test_identity_held_wrap_rebuilt_in_the_plane_the_step_places_it(carried):
    """A wrap held across the belt at a place tilted 0.5 rad off the top of the sphere lies, as
    the step places it (wrap_geometry.wrap_arc_point), on the circle of the plane through A, B
    and its place: rebuilt as held, the arc runs on the sphere in that plane through its point,
    from A's tangent point to B's (the pieces from A and B meet it at right angles to its
    radius in the plane); rebuilt on the great circle through the centre it leaves the plane.
    The same with the point carried 3 % into the sphere along its radius (a part deflecting
    under the belt: the side barrier's chest wrap on the sternum, 2.2 % at the most), rebuilt
    from its direction: through the plane of the point itself the arc left the sphere (0.26 mm
    in the side barrier; scenarios/HISTORY.md, placedarc)."""
    from occupant.restraints.wrap_geometry import wrap_arc_point
    s = (0.0, np.sin(0.5), np.cos(0.5))
    D = (R0, R0, R0)
    p = np.array(wrap_arc_point(D, s, tuple(A), tuple(B), s, 0.5)[0])
    n = np.cross(B - A, np.array(s) - A / R0)
    n /= np.linalg.norm(n)
    h = n @ np.array(s) * R0                          # the plane: n . x = h
    points = [(A, None), (carried * p, SPHERE), (B, None)]
    path, on, _ = belt_path(points, samples=400, held={1})
    arc = path[on == 1]
    np.testing.assert_allclose(np.linalg.norm(arc, axis=1), R0, atol=1e-12)
    np.testing.assert_allclose(arc @ n, h, atol=1e-12)
    assert np.linalg.norm(arc - p, axis=1).min() < 1e-12
    o = h * n
    for t, x in ((arc[0], A), (arc[-1], B)):
        assert abs((t - o) @ (x - t)) < 1e-12
    shortest, on0, _ = belt_path(points, samples=400)
    assert np.abs(shortest[on0 == 1] @ n - h).max() > 0.01


def test_identity_wrap_after_a_barrier_rebuilt_from_the_point_before_it():
    """A barrier wrap (a sphere of radius 0.02 m whose centre lies 0.01 m below the straight
    piece from A to the big sphere; its side up and sideways) is placed by
    the step (wrap_geometry.wrap_arc_point between A and the next touching point, the big
    sphere's wrap) and the big sphere's wrap as if it were not there, from A: rebuilt so, the
    big sphere's arc starts at A's tangent point, the barrier's arc lies on its sphere in the
    plane through A, its point and the next, and the straight pieces pass outside both spheres
    (on a great circle of the barrier, the arc leaves that plane)."""
    from occupant.restraints.wrap_geometry import wrap_arc_point
    top = np.array([0.0, 0.0, R0])
    t1 = _tangent(A, -1.0)
    u = (t1 - A) / np.linalg.norm(t1 - A)
    up = np.array([-u[2], 0.0, u[0]]) * np.sign(u[0])      # normal to the piece, upwards
    c3 = 0.5 * (A + t1) - 0.01 * up
    small = (c3, np.eye(3), np.full(3, 0.02))
    side = tuple((up + np.array([0.0, 0.5, 0.0])) / np.linalg.norm(up + np.array([0.0, 0.5, 0.0])))
    p = c3 + np.array(wrap_arc_point((0.02, 0.02, 0.02), side, tuple(A - c3), tuple(top - c3),
                                     side, 0.5)[0])
    points = [(A, None), (p, small), (top, SPHERE), (B, None)]
    path, on, _ = belt_path(points, samples=400, barriers={1})
    np.testing.assert_allclose(path[on == 2][0], t1, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(path[on == 1] - c3, axis=1), 0.02, atol=1e-12)
    n = np.cross(top - A, p - A)
    n /= np.linalg.norm(n)
    np.testing.assert_allclose((path[on == 1] - A) @ n, 0.0, atol=1e-12)
    got = deepest(path, on, points, {"small": small, "ball": SPHERE})
    assert max(got.values()) < 1e-9
    plain, on0, _ = belt_path(points, samples=400)                 # on a great circle of it
    assert np.abs((plain[on0 == 1] - A) @ n).max() > 1e-5     # 34 um off, against 1e-12


def test_identity_wrap_before_a_barrier_rebuilt_from_the_point_after_it():
    """The test above's belt listed from B (B, the big sphere, the barrier, A: the barrier
    before the fixed point A, placed from it, ``Wrap.barrier``): rebuilt the same, the big
    sphere's arc ending at A's tangent point, the barrier's arc on its sphere in the plane
    through A, its point and the big sphere's, the straight pieces outside both spheres."""
    from occupant.restraints.wrap_geometry import wrap_arc_point
    top = np.array([0.0, 0.0, R0])
    t1 = _tangent(A, -1.0)
    u = (t1 - A) / np.linalg.norm(t1 - A)
    up = np.array([-u[2], 0.0, u[0]]) * np.sign(u[0])
    c3 = 0.5 * (A + t1) - 0.01 * up
    small = (c3, np.eye(3), np.full(3, 0.02))
    side = tuple((up + np.array([0.0, 0.5, 0.0])) / np.linalg.norm(up + np.array([0.0, 0.5, 0.0])))
    p = c3 + np.array(wrap_arc_point((0.02, 0.02, 0.02), side, tuple(top - c3), tuple(A - c3),
                                     side, 0.5)[0])
    points = [(B, None), (top, SPHERE), (p, small), (A, None)]
    path, on, _ = belt_path(points, samples=400, barriers={2})
    np.testing.assert_allclose(path[on == 1][-1], t1, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(path[on == 2] - c3, axis=1), 0.02, atol=1e-12)
    n = np.cross(top - A, p - A)
    n /= np.linalg.norm(n)
    np.testing.assert_allclose((path[on == 2] - A) @ n, 0.0, atol=1e-12)
    got = deepest(path, on, points, {"small": small, "ball": SPHERE})
    assert max(got.values()) < 1e-9


def test_analytic_path_passes_a_fixed_point_between_the_anchor_and_a_run():
    """A belt from a retractor R through a ring at A over the sphere to B (a three-point
    belt's retractor, D-ring and shoulder): the path runs R -> A straight, then as the belt
    from A alone (A's tangent point, the same arc), so a sphere the piece from A crosses 0.02 m
    deep reads 0.02 m, one that only the line from R to the tangent point would cross reads
    nothing. Before, the path ran from R straight to A's tangent point, past A."""
    R = np.array([-0.3, 0.0, -0.6])
    top = np.array([0.0, 0.0, R0])
    ringed, on, _ = belt_path([(R, None), (A, None), (top, SPHERE), (B, None)], samples=400)
    alone, on_alone, _ = belt_path([(A, None), (top, SPHERE), (B, None)], samples=400)
    np.testing.assert_allclose(ringed[400:], alone, atol=1e-12)     # R to A: 400 samples after R
    np.testing.assert_allclose(ringed[:401], R + np.linspace(0, 1, 401)[:, None] * (A - R), atol=1e-12)
    t1 = _tangent(A, -1.0)
    u = (t1 - A) / np.linalg.norm(t1 - A)
    normal = np.array([-u[2], 0.0, u[0]])
    mid = 0.5 * (A + t1)
    crossed = (mid - 0.03 * np.sign(normal[2]) * normal, np.eye(3), np.full(3, 0.05))
    skipped = 0.5 * (R + t1)                                # on the line from R past A
    missed = (skipped, np.eye(3), np.full(3, 0.01))
    assert depth(skipped + [0.0, 0.0, 0.005], missed) == pytest.approx(0.005)   # inside it
    points = [(R, None), (A, None), (top, SPHERE), (B, None)]
    got = deepest(ringed, on, points, {"crossed": crossed, "missed": missed})
    assert got["crossed"] == pytest.approx(0.02, abs=1e-6)
    assert got["missed"] == 0.0
