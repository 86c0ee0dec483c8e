"""A belt over wraps on two neighbouring ellipsoids (occupant.restraints.wrap_chain): placed
together on the belt's path over both, against the closed-form path over two circles in a
plane, and moving continuously, the same from any start, as the ellipsoids move."""
import numpy as np
import pytest

from occupant.integrate.pipeline import evaluate
from occupant.modeling import Assembly, Ellipsoid, Joint, Marker, Part, Pose
from occupant.modeling.belts import Anchor, Belt, Webbing, Wrap
from occupant.restraints import fit_belts

LINEAR = Webbing([(0.0, 0.0), (0.1, 16000.0)])
NAMES = ("a", "w1", "w2", "b")


def _two_ellipsoids(first, second, a, b, sides, axis="z"):
    """A part on a prismatic joint along B0 ``axis`` carrying two ellipsoids ((centre, semi-axes)
    each, part frame = B0 at q = 0), and a belt from anchor a over a wrap on each (facing
    ``sides``) to anchor b."""
    asm = Assembly("two")
    asm.add(Part("body", 10.0, inertia=(0.1, 0.1, 0.1)))
    turn = {"z": np.eye(3), "x": np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]])}[axis]
    asm.add(Joint("slide", "prismatic", None, "body", Pose(rotation=turn)))
    for name, (centre, size) in zip(("e1", "e2"), (first, second)):
        asm.add(Marker(f"{name}_frame", "body", tuple(turn.T @ np.array(centre)),
                       rotation=turn.T))
        asm.add(Ellipsoid(name, f"{name}_frame", size))
    asm.add(Belt("belt", [Anchor("a", a), Wrap("w1", "e1", side=sides[0]),
                          Wrap("w2", "e2", side=sides[1]), Anchor("b", b)], LINEAR,
                 pretension=10.0))
    return asm.compile()


def _points(model, q, data=None):
    """The belt's points (B0) at the slider's q, evaluated on ``data`` (fresh: a cold start)."""
    bundle = model.bundle(base_table=None)
    data = model.make_data() if data is None else data
    z0 = fit_belts(model, [0.0])
    evaluate(bundle, data, 0.0, np.array([q]), np.zeros(1), z0, 0.0)
    i = model.output_names.index
    return np.array([[data.outputs[i(f"belt.{n}.{c}")] for c in "xyz"] for n in NAMES]), data


def _on_circle(centre, radius, angle):
    return np.array([centre[0] + radius * np.cos(angle), 0.0, centre[1] + radius * np.sin(angle)])


def test_analytic_belt_over_two_spheres_in_a_plane():
    """Two spheres (R1 0.1 m at the origin, R2 0.05 m at x = 0.3 m) and anchors below them, the
    belt over their tops in the plane y = 0: the straight piece between them is the circles'
    outer common tangent n . x = n . c + R for both (tangent points c + R n), so
    n . (c2 - c1) = R1 - R2, and from each anchor at distance d the belt reaches its circle acos(R / d) from the
    anchor's direction. Each wrap point is the middle of its arc: between the anchor's tangent
    point and the common tangent's."""
    c1, r1, c2, r2 = (0.0, 0.0), 0.1, (0.3, 0.0), 0.05
    a, b = (-0.3, 0.0, -0.2), (0.6, 0.0, -0.2)
    model = _two_ellipsoids(((c1[0], 0.0, c1[1]), (r1,) * 3), ((c2[0], 0.0, c2[1]), (r2,) * 3),
                            a, b, ((0.0, 0.0, 1.0), (0.0, 0.0, 1.0)))
    P, _ = _points(model, 0.0)
    nx = (r1 - r2) / (c2[0] - c1[0])
    tangent = np.arctan2(np.sqrt(1.0 - nx * nx), nx)          # the common tangent's normal
    da, db = np.hypot(a[0] - c1[0], a[2] - c1[1]), np.hypot(b[0] - c2[0], b[2] - c2[1])
    from_a = np.arctan2(a[2] - c1[1], a[0] - c1[0]) + 2.0 * np.pi - np.arccos(r1 / da)
    from_b = np.arctan2(b[2] - c2[1], b[0] - c2[0]) + np.arccos(r2 / db)
    np.testing.assert_allclose(P[1], _on_circle(c1, r1, 0.5 * (from_a + tangent)), atol=1e-9)
    np.testing.assert_allclose(P[2], _on_circle(c2, r2, 0.5 * (tangent + from_b)), atol=1e-9)


# A shoulder over a chest (m, B0 = the chest's frame; GS1's thorax semi-axes, the upper
# anchorage and the buckle of tests/restraints/test_belt_wraps.py, outboard -y): a shoulder
# ellipsoid overlapping the thorax's top on the outboard side, the belt from the D-ring over
# the shoulder's top, down the front of the chest to the buckle
THORAX = ((0.0, 0.0, 0.0), (0.12301656, 0.18925624, 0.12188435))
SHOULDER = ((0.0, -0.12, 0.09), (0.06, 0.07, 0.06))
D_RING = (-0.2834, -0.2393, 0.1356)
BUCKLE = (0.0861, 0.0697, -0.7008)


@pytest.mark.parametrize("axis", ["x", "z"])
def test_identity_belt_over_shoulder_and_chest_moves_continuously_from_any_start(axis):
    """Both ellipsoids moved 10 mm (forward or up) in 0.1 mm steps under the belt, each step
    evaluated from the previous (warm start) and from nothing (cold start): the same path both
    ways (it does not depend on where the solve starts: one path), every point moving at most
    10 times the step (no jump), the path length changing by at most twice the step, both wraps
    touching (on their surfaces, apart)."""
    model = _two_ellipsoids(SHOULDER, THORAX, D_RING, BUCKLE,
                            ((0.3, 0.0, 1.0), (1.0, 0.0, 0.0)), axis)
    step = 1e-4
    shift = np.array([1.0, 0.0, 0.0] if axis == "x" else [0.0, 0.0, 1.0])
    data, previous, lengths = None, None, []
    for q in np.arange(0.0, 0.0100001, step):
        P, data = _points(model, q, data)
        cold, _ = _points(model, q)
        np.testing.assert_allclose(P, cold, atol=1e-9)
        for p, (centre, size) in zip(P[1:3], (SHOULDER, THORAX)):
            local = (p - shift * q - np.array(centre)) / np.array(size)
            assert np.sum(local**2) == pytest.approx(1.0, abs=1e-12)
        assert np.linalg.norm(P[1] - P[2]) > 0.05
        if previous is not None:
            assert np.linalg.norm(P - previous, axis=1).max() < 10 * step
        previous = P
        lengths.append(np.linalg.norm(np.diff(P, axis=0), axis=1).sum())
    assert np.abs(np.diff(lengths)).max() <= 2 * step
