"""Two wraps held across the belt by friction (``Wrap.across``) on one sphere
(occupant.restraints.wrap_chain.place_held): each lies in the plane through the anchors and its
own place, at its fraction of the wrap there, against the closed-form wrap over a circle; and as
the places move across the sphere the wraps keep their order, touch the sphere and move
continuously. Three held wraps hooked over a sphere, or over its near side: a wrap slides across
only the way its belt pulls it (``belt_wraps._held_slide``)."""
import numpy as np
import pytest
from scipy.optimize import brentq

from occupant.integrate.pipeline import evaluate
from occupant.model.bundle import BELT_WRAP
from occupant.modeling import Assembly, Ellipsoid, Joint, Marker, Part, Pose
from occupant.modeling.belts import Anchor, Belt, Webbing, Wrap
from occupant.restraints import fit_belts

LINEAR = Webbing([(0.0, 0.0), (0.1, 16000.0)])
R = 0.1                                          # m: the sphere's radius
NAMES = ("a", "w0", "w1", "b")


def _held_pair(a, b):
    """A sphere of radius R at the origin (on a slider at q = 0) and a belt from anchor a over two
    wraps on it, held by friction 0.3 along and across the belt (GS1 belt-body, facts 6.4), to
    anchor b."""
    asm = Assembly("held")
    asm.add(Part("body", 10.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("slide", "prismatic", None, "body", Pose()))
    asm.add(Marker("centre", "body"))
    asm.add(Ellipsoid("shell", "centre", (R, R, R)))
    asm.add(Belt("belt", [Anchor("a", a), Wrap("w0", "shell", friction=0.3, across=0.3),
                          Wrap("w1", "shell", friction=0.3, across=0.3), Anchor("b", b)],
                 LINEAR, pretension=10.0))
    return asm.compile()


class _Placer:
    """The belt's points (B0) of a ``_held_pair`` with the wraps' places (directions on the unit
    sphere) set in the state."""

    def __init__(self, a, b):
        self.model = _held_pair(a, b)
        el = self.model.belts
        self.jz = [el.point_z[k] for k in range(len(el.point_kind))
                   if el.point_kind[k] == BELT_WRAP]
        self.z = fit_belts(self.model, [0.0])
        self.bundle, self.data = self.model.bundle(base_table=None), self.model.make_data()

    def __call__(self, s0, s1):
        for jz, s in zip(self.jz, (s0, s1)):
            self.z[jz:jz + 3] = np.asarray(s, float) / np.linalg.norm(s)
        evaluate(self.bundle, self.data, 0.0, np.zeros(1), np.zeros(1), self.z, 0.0)
        i = self.model.output_names.index
        return np.array([[self.data.outputs[i(f"belt.{n}.{c}")] for c in "xyz"] for n in NAMES])


def _arc_point(a, b, s, frac):
    """The point at ``frac`` of the belt's wrap from a to b over the sphere of radius R at the
    origin, in the plane through a, b and R s (the wrap round the side s faces): on the circle
    of that plane (centre o, radius r), from a's tangent point to b's, each acos(r / |x - o|)
    from its anchor's direction."""
    p = R * np.asarray(s, float) / np.linalg.norm(s)
    n = np.cross(b - a, p - a)
    n /= np.linalg.norm(n)
    o = np.dot(n, p) * n
    r = np.sqrt(R * R - np.dot(o, o))
    ea = (a - o) / np.linalg.norm(a - o)
    eb = (b - o) - np.dot(b - o, ea) * ea
    eb /= np.linalg.norm(eb)                      # in the plane, normal to a, towards b
    angle_b = np.arctan2(np.dot(b - o, eb), np.dot(b - o, ea))
    start = np.arccos(r / np.linalg.norm(a - o))
    end = angle_b - np.arccos(r / np.linalg.norm(b - o))
    phi = start + frac * (end - start)
    return o + r * (np.cos(phi) * ea + np.sin(phi) * eb)


def test_analytic_held_wraps_in_a_plane_off_the_centre():
    """Anchors at height c = 0.04 m either side of the sphere, both places at that height: the
    wraps lie on the circle z = c (radius sqrt(R^2 - c^2)), at a third and two thirds of the arc
    from a's tangent point (at acos(r / d) from a's direction in that plane, d its distance from
    the circle's centre) to b's."""
    c = 0.04
    a, b = np.array([0.05, 0.3, c]), np.array([0.02, -0.25, c])
    r = np.sqrt(R * R - c * c)
    place = (np.sqrt(1.0 - (c / R) ** 2), 0.0, c / R)
    P = _Placer(a, b)(place, place)
    from_a = np.arctan2(a[1], a[0]) - np.arccos(r / np.hypot(a[0], a[1]))
    from_b = np.arctan2(b[1], b[0]) + np.arccos(r / np.hypot(b[0], b[1]))
    for i, frac in ((1, 1.0 / 3.0), (2, 2.0 / 3.0)):
        phi = from_a + frac * (from_b - from_a)
        np.testing.assert_allclose(P[i], (r * np.cos(phi), r * np.sin(phi), c), atol=1e-12)


def test_analytic_held_wraps_each_in_its_plane():
    """Anchors askew and places on either side of the belt: each wrap on the circle through the
    anchors and its own place, at its fraction (1/3, 2/3) of the wrap there (``_arc_point``)."""
    a, b = np.array([0.05, 0.4, 0.03]), np.array([0.06, -0.35, -0.02])
    s0, s1 = (1.0, 0.3, 0.3), (1.0, -0.3, -0.3)
    P = _Placer(a, b)(s0, s1)
    np.testing.assert_allclose(P[1], _arc_point(a, b, s0, 1.0 / 3.0), atol=1e-12)
    np.testing.assert_allclose(P[2], _arc_point(a, b, s1, 2.0 / 3.0), atol=1e-12)


@pytest.mark.parametrize("tilt", [0.1, 0.3])
def test_identity_held_wraps_keep_order_and_move_continuously(tilt):
    """Places (1, 0.3, tilt) and (1, -0.3, -tilt) on either side of the belt, anchors askew,
    turned about the sphere's x axis by up to 30 deg in 0.5 deg steps: each wrap stays on the
    sphere, w0 stays nearer a along the belt than w1 (their order: (w1 - w0) . (b - a) > 0, at
    least 5 mm apart) and moves at most 3 R per radian of the turn (about 2.6 mm a step).
    Before, the wraps were placed one at a time between their neighbours in Gauss-Seidel
    sweeps: a wrap whose neighbour lies on its own surface has no tangent point there, fell onto
    it, and the sweeps cycled, returning the wraps crossed (w0 at y = -7.9 mm, w1 at +18.3 mm
    for tilt 0.3)."""
    a, b = np.array([0.05, 0.4, 0.03]), np.array([0.06, -0.35, -0.02])
    placer = _Placer(a, b)
    step = np.radians(0.5)
    previous = None
    for angle in np.arange(0.0, np.radians(30.0) + 1e-9, step):
        cs, sn = np.cos(angle), np.sin(angle)
        turn = np.array([[1.0, 0.0, 0.0], [0.0, cs, -sn], [0.0, sn, cs]])
        P = placer(turn @ (1.0, 0.3, tilt), turn @ (1.0, -0.3, -tilt))
        for w in P[1:3]:
            assert np.linalg.norm(w) == pytest.approx(R, abs=1e-12)
        assert np.dot(P[2] - P[1], b - a) > 0.005 * np.linalg.norm(b - a)
        if previous is not None:
            assert np.abs(P[1:3] - previous).max() <= 3.0 * R * step
        previous = P[1:3].copy()


POST = 0.03                                      # m: the barrier post's radius
POST_AT = np.array([-0.10, 0.0, 0.25])           # m: its centre, above the sphere, behind its top


def _held_then_barrier(a, b, at, post_at=POST_AT, barrier=True, held=True):
    """A belt from anchor a over one wrap held on the sphere of ``_held_pair`` (radius R at the
    origin) and a barrier wrap on a post (a sphere of radius POST at ``post_at``, on its shortest
    path, its side facing the sphere's top: it pushes only a belt that would pass through it; on
    a slider of its own; left out of the belt without ``barrier``) to anchor b, the held wrap
    fitted at ``at``; without ``held`` the sphere's wrap is on its shortest path round the side
    ``at``: (model, fitted state)."""
    asm = Assembly("barrier")
    asm.add(Part("body", 10.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("slide", "prismatic", None, "body", Pose()))
    asm.add(Marker("centre", "body"))
    asm.add(Ellipsoid("shell", "centre", (R, R, R)))
    asm.add(Part("stand", 1.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("stand_slide", "prismatic", None, "stand", Pose()))
    asm.add(Marker("post_centre", "stand", tuple(post_at)))
    asm.add(Ellipsoid("post", "post_centre", (POST, POST, POST)))
    post = [Wrap("w1", "post", friction=0.3, side=(0.1, 0.0, -0.25 + R))] if barrier else []
    on_sphere = Wrap("w0", "shell", friction=0.3, across=0.3, at=at) if held else \
        Wrap("w0", "shell", friction=0.3, side=at)
    asm.add(Belt("belt", [Anchor("a", a), on_sphere,
                          *post, Anchor("b", b)], LINEAR, pretension=10.0))
    model = asm.compile()
    z = fit_belts(model, [0.0, 0.0])
    return model, z


def test_analytic_held_wrap_beside_a_barrier_that_does_not_touch():
    """Anchors at x = -+0.3 m level with the sphere's centre, the held wrap's place on its top:
    the belt wraps the top from a's tangent point to b's, its wrap point at the top (0, 0, R),
    and the barrier post (behind the top and above it, 0.18 m from the belt: no contact) lies on
    the straight piece from that point to b, where it is nearest the post (the point itself), so
    the belt's segments measure its path (``belt.path_lengths``: tangent pieces and arc),
    2 (sqrt(0.3^2 - R^2) + R (pi / 2 - acos(R / 0.3))), and its tension acts along the tangent
    pieces, pushing the sphere down with 2 T R / 0.3 (measured point to point, 2 sqrt(0.3^2 +
    R^2) and 2 T R / sqrt(0.3^2 + R^2), until branch beltarcs). Before, the held
    wrap was placed between its neighbours as they stood, and its neighbour after was the
    barrier's point, lying at the straight piece's end, its own point: a wrap to a point on its
    own surface has no tangent point there, so the sweeps shrank its arc and it left the
    sphere, its point on the line at (-0.202, 0, 0.141) m (GS1 with a barrier wrap on the upper
    arm: the shoulder wrap's arc shrank to nothing, the belt jumped off the shoulder and the
    chest wrap round the thorax's back, 39 kN). The barrier's point on the held wrap's point
    leaves a segment of no length, whose tension acts along the piece after it
    (``belt._beside``): before, its force pair fell away, and the post was pulled towards b
    and the sphere only towards a."""
    a, b = np.array([-0.3, 0.0, 0.0]), np.array([0.3, 0.0, 0.0])
    model, z = _held_then_barrier(a, b, (0.0, 0.0, 1.0))
    bundle, data = model.bundle(base_table=None), model.make_data()
    evaluate(bundle, data, 0.0, np.zeros(2), np.zeros(2), z, 0.0)
    i = model.output_names.index
    P = np.array([[data.outputs[i(f"belt.{n}.{c}")] for c in "xyz"] for n in NAMES])
    np.testing.assert_allclose(P[1], (0.0, 0.0, R), atol=1e-12)
    np.testing.assert_allclose(P[2], P[1], atol=1e-12)
    length = sum(data.outputs[i(f"belt.{s}.length")] for s in ("a-w0", "w0-w1", "w1-b"))
    arc = R * (0.5 * np.pi - np.arccos(R / 0.3))
    assert length == pytest.approx(2.0 * (np.sqrt(0.3**2 - R**2) + arc), abs=1e-12)
    # the belt pushes the sphere with T (u_a + u_b) at its top (u along the tangent pieces),
    # and not the post
    T = data.outputs[i("belt.a-w0.force")]
    assert T > 0.0 and data.outputs[i("belt.w1-b.force")] == T
    push = -2.0 * T * R / 0.3
    np.testing.assert_allclose(data.f_ext[model.body("body")], (0, 0, 0, 0, 0, push), atol=1e-9 * T)
    assert not data.f_ext[model.body("stand")].any()


def _place_rate(model, z, place):
    """Held wrap w0's place (its state, a unit direction) set to ``place`` and the webbing 1 %
    short of the fitted (its belt at 1.6 kN): (the place, its rate and w0's point (B0)) at
    rest, q = v = 0."""
    jz = model.belts.point_z[1]
    z = z.copy()
    z[jz:jz + 3] = np.asarray(place, float) / np.linalg.norm(place)
    for k, name in enumerate(model.z_names):
        if name.endswith(".webbing"):
            z[k] *= 0.99
    bundle, data = model.bundle(base_table=None), model.make_data()
    evaluate(bundle, data, 0.0, np.zeros(2), np.zeros(2), z, 0.0)
    i = model.output_names.index
    return (z[jz:jz + 3], data.zdot[jz:jz + 3].copy(),
            np.array([data.outputs[i(f"belt.w0.{c}")] for c in "xyz"]))


def test_identity_held_wrap_slides_as_if_a_barrier_that_does_not_touch_were_not_there():
    """Anchors 0.5 R to the side of the ball's centre, the held wrap's place on its top turned
    45 deg across the belt (|h| / r 0.55, over the friction 0.3: it slides), a post beside the
    belt's piece from it to b that does not touch (0.14 m off it): the place's rate is the one
    without the post, to 1e-9. Before, the slide was judged in the plane through the wrap's
    neighbouring points, here the post's point on the straight piece, not b: another plane, the
    rate reversed (GS1 at mid-clavicle, the chest wrap beside the lifted shoulder wrap: the
    slide that lowered that plane's |h| raised the placed plane's, and the chest's circle shrank
    to r 0.01 before the wraps lifted off together, 19.6 kN)."""
    a, b = np.array([-0.3, 0.5 * R, 0.0]), np.array([0.3, 0.5 * R, 0.0])
    place = (0.0, 1.0, 1.0)
    post_at = (0.15, 0.0, 0.2)
    with_post = _place_rate(*_held_then_barrier(a, b, place, post_at), place)
    alone = _place_rate(*_held_then_barrier(a, b, place, post_at, barrier=False), place)
    np.testing.assert_allclose(with_post[2], alone[2], atol=1e-12)   # the same point
    assert np.linalg.norm(alone[1]) > 1.0                              # it slides
    np.testing.assert_allclose(with_post[1], alone[1], rtol=1e-9, atol=1e-9)


def _hook_length(a, b, u):
    """Closed form: the belt's length from a to b the long way round the ball of radius R at the
    origin, in the plane through a, b and the place R u: the tangents from a and b to that
    plane's circle (centre o, radius r) and the arc between their tangent points away from the
    line a-b, 2 pi - (angle a-o-b) - acos(r / |a - o|) - acos(r / |b - o|)."""
    p = R * np.asarray(u, float) / np.linalg.norm(u)
    n = np.cross(b - a, p - a)
    n /= np.linalg.norm(n)
    o = np.dot(n, p) * n
    r = np.sqrt(R * R - np.dot(o, o))
    la, lb = np.linalg.norm(a - o), np.linalg.norm(b - o)
    angle = np.arccos(np.dot(a - o, b - o) / (la * lb))
    return (np.sqrt(la * la - r * r) + np.sqrt(lb * lb - r * r)
            + r * (2.0 * np.pi - angle - np.arccos(r / la) - np.arccos(r / lb)))


def test_analytic_hooked_held_wrap_slides_the_way_its_belt_shortens():
    """Anchors 1.5 R below the ball's centre (their line passes outside it), the held wrap's place
    on its top turned 45 deg across the belt: the belt hooks over the ball the long way, its
    length (closed form, ``_hook_length``) falling as the plane turns further from the centre,
    towards touching the ball, where it lifts off. The place's slide (|h| / r 0.51 against the
    friction 0.3) shortens the belt. Before, it slid the way |h| falls, as for a belt over the
    near side, lengthening the belt round the ball's far side (GS1 at mid-clavicle: the chest
    wrap, hooked over the thorax once the belt had left the shoulder, round its top, 72 kN)."""
    a, b = np.array([-0.3, 0.0, -1.5 * R]), np.array([0.3, 0.0, -1.5 * R])
    place = (0.0, 1.0, 1.0)
    u, rate, P = _place_rate(*_held_then_barrier(a, b, place, barrier=False), place)
    assert P[2] > 0.0                                     # on the top: hooked, the long way
    step = 1e-4 * rate / np.linalg.norm(rate)
    assert np.linalg.norm(rate) > 1.0
    assert _hook_length(a, b, u + step) < _hook_length(a, b, u)


def _common_tangent(c, r_below, r_above):
    """Closed form in the plane y = 0 (x, z): the line tangent to the circle of radius r_below at
    the origin (below it) and to the circle of radius r_above at c (above it), leaving the first
    towards +x: its unit normal n (n . x = r_below on it, n . c = r_below + r_above)."""
    phi = np.arctan2(c[1], c[0]) + np.arccos((r_below + r_above) / np.linalg.norm(c))
    return np.array([np.cos(phi), np.sin(phi)])


def _on_post(c, b):
    """Closed form in the plane y = 0 (x, z): the middle of the belt's arc round the post (radius
    POST at c) from the common tangent of sphere and post (``_common_tangent``) to b's tangent
    point on the post."""
    n = _common_tangent(c, R, POST)
    to_b = b - c
    off_b = np.arctan2(to_b[1], to_b[0]) - np.arccos(POST / np.linalg.norm(to_b))
    on_post = 0.5 * (np.arctan2(-n[1], -n[0]) + off_b)
    return c + POST * np.array([np.cos(on_post), np.sin(on_post)])


# place_held places a wrap between its neighbours' points (the middles of their arcs), not their
# tangent points: not yet the belt's path. Placing it between their tangent points (branch
# tangentpiece, commit 3a54c45, reverted) passes both tests and GS1 shipped runs clean, but its
# Gauss-Seidel sweeps cycle where a straight piece would cross the crease of two overlapping
# ellipsoids (GS1's barrier on the upper arm shell: scenarios/validation/HISTORY.md, tangentpiece).
# Tried again at stop 48 (branch tangentpiece, commits 2d03c59-53843ca, reverted: a held group and
# a run beside it solved for their common tangent, ``held_end``'s run tangent seen from the group's
# tangent point, the run placed from that point): these tests pass (4e-17 m), and the raise half of
# the TOUCHING_SET test, the shipped scenarios are identical to the bit, but GS1's shoulder belt
# flips between two paths from 146.7 ms (scenarios/HISTORY.md, tangentpiece)
TANGENT_PIECE = pytest.mark.xfail(strict=True, reason="held wraps placed between their "
                                  "neighbours' arc middles, not tangent points")


@TANGENT_PIECE
@pytest.mark.parametrize("drop", [0.036, 0.040, 0.045])
def test_analytic_held_wrap_and_a_post_that_starts_to_touch_on_the_tangent_piece(drop):
    """Anchors at x = -+0.3 m level with the sphere's centre, the held wrap's place on its top, a
    post (radius POST) above the straight piece from the held wrap's tangent point to b, lowered
    by ``drop`` into it: the belt runs from a's tangent point over the sphere (radius R) to the
    common tangent of sphere and post, round the post to b's tangent point on it, all in the
    plane y = 0; each wrap point is the middle of its arc (closed form: the common tangent's
    normal from n . c = R + POST). At 0.036 m the post cuts the tangent piece but not the chord
    from the held wrap's point (the top) to b. ``place_held`` places a wrap between its
    neighbours' points: the post, on the chord from the top to b, does not touch there (the belt
    runs through it), then touches on that chord, and the held wrap jumps (1.4 mm at a 0.5 mm
    drop, 7 times its steps either side; GS1's shoulder wrap beside a barrier on the upper arm,
    scenarios/validation/HISTORY.md, wayround): strict xfail (TANGENT_PIECE)."""
    a, b = np.array([-0.3, 0.0, 0.0]), np.array([0.3, 0.0, 0.0])
    model, z = _held_then_barrier(a, b, (0.0, 0.0, 1.0), (0.15, 0.0, 0.12))
    bundle, data = model.bundle(base_table=None), model.make_data()
    evaluate(bundle, data, 0.0, np.array([0.0, -drop]), np.zeros(2), z, 0.0)
    i = model.output_names.index
    P = np.array([[data.outputs[i(f"belt.{n}.{c}")] for c in "xyz"] for n in ("w0", "w1")])
    c = np.array([0.15, 0.12 - drop])
    n = _common_tangent(c, R, POST)
    on_sphere = 0.5 * (np.pi - np.arccos(R / 0.3) + np.arctan2(n[1], n[0]))
    np.testing.assert_allclose(P[0, [0, 2]], R * np.array([np.cos(on_sphere), np.sin(on_sphere)]),
                               atol=1e-12)
    np.testing.assert_allclose(P[1, [0, 2]], _on_post(c, b[[0, 2]]), atol=1e-12)


@TANGENT_PIECE
def test_identity_held_wrap_moves_continuously_as_a_post_starts_to_touch():
    """The post of the test above lowered in 0.5 mm steps from clear of the belt through its
    first touch: the held wrap's point moves no further than the post in each step (the wrap
    follows the tangent piece the post pushes). Placed between its neighbours' points
    (``place_held``), it moves 1.4 mm in the step where the post meets the chord from its
    point: strict xfail (TANGENT_PIECE)."""
    a, b = np.array([-0.3, 0.0, 0.0]), np.array([0.3, 0.0, 0.0])
    model, z = _held_then_barrier(a, b, (0.0, 0.0, 1.0), (0.15, 0.0, 0.12))
    bundle, data = model.bundle(base_table=None), model.make_data()
    i = model.output_names.index
    step = 0.0005
    points = []
    for drop in np.arange(0.030, 0.046, step):
        evaluate(bundle, data, 0.0, np.array([0.0, -drop]), np.zeros(2), z, 0.0)
        points.append([data.outputs[i(f"belt.w0.{c}")] for c in "xyz"])
    moves = np.linalg.norm(np.diff(points, axis=0), axis=1)
    assert moves[0] == 0.0 and moves[-1] > 0.0          # clear at first, touching at last
    assert moves.max() <= step


# place_held decides from the places alone which wraps touch, each evaluation afresh: where the
# belt has two paths (GS1's shoulder wrap beside a barrier on the upper arm, branch wayround) it
# may switch between them from one step to the next. Kept from the previous evaluation, with a
# hysteresis (branch heldtouch: tried with the tangent placement, not adopted; scenarios/
# validation/HISTORY.md, Stop 35), a post that touched keeps touching until its arc
# vanishes
TOUCHING_SET = pytest.mark.xfail(strict=True, reason="held wraps' touching set not kept from the "
                                 "previous evaluation")


@TOUCHING_SET
def test_identity_post_that_touched_keeps_the_common_tangent_until_its_arc_vanishes():
    """The post of the tests above lowered in 0.5 mm steps to 0.045 m, where it touches, then
    raised back in 0.1 mm steps to 1 um short of the drop where its arc vanishes (the common
    tangent of sphere and post through b): at every step the belt keeps the path round the post,
    its point at the middle of its arc from the common tangent to b's tangent (closed form, as
    above, to 1e-9 m). Lowered from clear of the belt to that drop, the post does not touch (the
    straight piece enters it 1 um deep, less than a lifted wrap needs to touch again): the belt
    keeps the path it was on."""
    a, b = np.array([-0.3, 0.0, 0.0]), np.array([0.3, 0.0, 0.0])
    model, z = _held_then_barrier(a, b, (0.0, 0.0, 1.0), (0.15, 0.0, 0.12))
    bundle, data = model.bundle(base_table=None), model.make_data()
    i = model.output_names.index

    def post_point(drop):
        evaluate(bundle, data, 0.0, np.array([0.0, -drop]), np.zeros(2), z, 0.0)
        return np.array([data.outputs[i(f"belt.w1.{c}")] for c in "xz"])

    def centre(drop):
        return np.array([0.15, 0.12 - drop])

    # the common tangent (n . x = R) passes through b where the post's arc vanishes
    vanish = brentq(lambda d: _common_tangent(centre(d), R, POST) @ b[[0, 2]] - R, 0.030, 0.045,
                    xtol=1e-15)
    last = vanish + 1e-6
    for drop in np.arange(0.030, 0.0455, 0.0005):
        post_point(drop)
    for drop in [*np.arange(0.045, last, -0.0001), last]:
        np.testing.assert_allclose(post_point(drop), _on_post(centre(drop), b[[0, 2]]), atol=1e-9)
    for drop in [*np.arange(0.030, last, 0.0005), last]:
        P = post_point(drop)
    assert np.linalg.norm(P - centre(last)) > POST       # on the straight piece, off the post


def test_identity_belt_length_moves_no_more_than_twice_a_post_that_starts_to_touch():
    """The belt of the tests above with the sphere's wrap on its shortest path over its top, the
    post lowered in 1 um steps from 0.1 mm above its first touch of the belt's path (closed form:
    the tangent piece from the sphere to b meets the post) to 0.2 mm past it: the belt's length
    as its segments count it (their summed lengths) changes in each step by no more than twice
    the post's move (a taut string over an obstacle that moves by d lengthens by at most 2 d:
    |u_in - u_out| <= 2). The post starts to touch 0.083 mm of drop past the path's first touch
    (judged on the chord from the sphere's point, the middle of its arc, to b), its point
    moving 3.0 mm from the straight piece to the middle of its arc; the segments measured along
    the path (``belt.path_lengths``) step 4.6e-8 m there, the path's own growth since its first
    touch. Measured along chords (until branch beltarcs) they stepped 0.057 mm
    (scenarios/validation/HISTORY.md, firsttouch)."""
    a, b = np.array([-0.3, 0.0, 0.0]), np.array([0.3, 0.0, 0.0])
    model, z = _held_then_barrier(a, b, (0.0, 0.0, 1.0), (0.15, 0.0, 0.12), held=False)
    bundle, data = model.bundle(base_table=None), model.make_data()
    i = model.output_names.index
    off_b = np.arccos(R / 0.3)                     # b's tangent point on the sphere, from +x
    piece = np.array([np.cos(off_b), np.sin(off_b)])   # the unit normal of its tangent piece
    touch = brentq(lambda d: piece @ np.array([0.15, 0.12 - d]) - R - POST, 0.0, 0.05,
                   xtol=1e-15)
    step = 1e-6
    lengths, posts = [], []
    for drop in np.arange(touch - 1e-4, touch + 2e-4, step):
        evaluate(bundle, data, 0.0, np.array([0.0, -drop]), np.zeros(2), z, 0.0)
        lengths.append(sum(data.outputs[i(f"belt.{s}.length")] for s in ("a-w0", "w0-w1", "w1-b")))
        posts.append([data.outputs[i(f"belt.w1.{c}")] for c in "xz"])
    centre = np.array([0.15, 0.12 - touch - 2e-4])
    assert np.linalg.norm(posts[0] - centre) > POST + 1e-5      # on the straight piece at first
    assert np.linalg.norm(posts[-1] - centre) == pytest.approx(POST, abs=1e-9)   # then on it
    assert np.abs(np.diff(lengths)).max() <= 2.0 * step


def _hook_through_tangency(steps):
    """The held wrap of ``_held_then_barrier`` (no post) between anchors 1.5 R below the ball's
    centre at x = -+0.3 m (their line passes outside it), its place (0, sin t, cos t) turned
    from the top about the x axis in ``steps`` equal steps over t_T - 0.3 to t_T + 0.05 rad, t_T
    = acos(-2 / 3) where the plane through the anchors and the place touches the ball (the
    place, seen from the line, at 1 / 1.5 of the way round): (t, the wrap's point (B0), the
    belt's summed length) at each."""
    a, b = np.array([-0.3, 0.0, -1.5 * R]), np.array([0.3, 0.0, -1.5 * R])
    model, z = _held_then_barrier(a, b, (0.0, 0.0, 1.0), barrier=False)
    bundle, data = model.bundle(base_table=None), model.make_data()
    jz, i = model.belts.point_z[1], model.output_names.index
    turn = np.linspace(np.arccos(-2.0 / 3.0) - 0.3, np.arccos(-2.0 / 3.0) + 0.05, steps + 1)
    points, lengths = [], []
    for t in turn:
        z[jz:jz + 3] = (0.0, np.sin(t), np.cos(t))
        evaluate(bundle, data, 0.0, np.zeros(1), np.zeros(1), z, 0.0)
        points.append([data.outputs[i(f"belt.w0.{c}")] for c in "xyz"])
        lengths.append(data.outputs[i("belt.a-w0.length")] + data.outputs[i("belt.w0-b.length")])
    return turn, np.array(points), np.array(lengths), a, b


def test_identity_hooked_held_wrap_hands_over_to_the_line_continuously():
    """A held wrap hooked round the ball the long way (its anchors' line passes below it) as its
    place turns towards where its plane touches the ball (the circle shrinking to the place,
    GS1's abdomen wrap from 134 ms): first the closed-form hook (``_hook_length``, the place's
    facing margin past ``hook_weight``'s band: today's placement), past the touching plane the
    line (its point (0, 0, -1.5 R), the length |a - b|), and between them the wrap point and the
    belt's length move by steps that shrink with the turn's step (ten times finer: ten times
    smaller, asserted eight), at most 100 R and 50 R per radian (measured 67.6 R and 32.6 R at
    0.00175 and 0.000175 rad a step). Before (main 632adcc), the hook was kept whole up to the
    touching plane, where the ways round tie, and the point went to the line in one step
    whatever the step: 0.112 m, the length 40 mm (GS1: 21.0 / 17.7 / 17.1 mm in one 10 us
    step, 10.8 kN)."""
    largest = []
    for steps in (200, 2000):
        turn, P, L, a, b = _hook_through_tangency(steps)
        dt = turn[1] - turn[0]
        assert L[0] == pytest.approx(_hook_length(a, b, (0.0, np.sin(turn[0]), np.cos(turn[0]))),
                                     abs=1e-12)
        np.testing.assert_allclose(P[-1], (0.0, 0.0, -1.5 * R), atol=1e-12)
        assert L[-1] == pytest.approx(0.6, abs=1e-12)
        dP, dL = np.linalg.norm(np.diff(P, axis=0), axis=1).max(), np.abs(np.diff(L)).max()
        assert dP <= 100.0 * R * dt and dL <= 50.0 * R * dt
        largest.append((dP, dL))
    assert largest[0][0] > 8.0 * largest[1][0] and largest[0][1] > 8.0 * largest[1][1]


def test_identity_held_arc_point_is_wrap_arc_point_but_for_a_hook_handed_over():
    """``held_arc_point`` returns ``wrap_arc_point``'s point bit for bit wherever the hook's
    weight is 1 (the short way, a wrap not held, a hook held firmly), and where it is below 1 a
    point on the segment from the line's point (``line_point``) to the hook's, at that weight:
    2000 random ends (1.05-3 times the semi-axes out, along random directions), places (a fifth
    of them zero: not held) and sides on an ellipsoid."""
    from occupant.restraints.wrap_geometry import held_arc_point, line_point, wrap_arc_point
    rng = np.random.default_rng(11)
    D = (0.12, 0.09, 0.15)
    handed = 0
    for _ in range(2000):
        a, b, s, side = (rng.normal(size=3) for _ in range(4))
        a *= rng.uniform(1.05, 3.0) * np.array(D) / np.linalg.norm(a)
        b *= rng.uniform(1.05, 3.0) * np.array(D) / np.linalg.norm(b)
        s = s if rng.uniform() < 0.8 else np.zeros(3)
        args = (D, tuple(side), tuple(a), tuple(b), tuple(s), rng.uniform())
        P, active = wrap_arc_point(*args)
        H, touching, w = held_arc_point(*args)
        if w == 1.0 or not active:
            assert H == P and touching == active
        else:
            handed += 1
            L = np.array(line_point(D, tuple(a), tuple(b)))
            np.testing.assert_allclose(H, L + w * (np.array(P) - L), atol=1e-15)
    assert handed > 20


def _pair_rates(a, b, s0, s1):
    """The ``_held_pair`` with the wraps' places set to s0 and s1 and the webbing 1 % short of
    the fitted (the belt taut), at rest: per wrap (its place u, its rate, its point (B0))."""
    model = _held_pair(a, b)
    el = model.belts
    jz = [el.point_z[k] for k in range(len(el.point_kind)) if el.point_kind[k] == BELT_WRAP]
    z = fit_belts(model, [0.0])
    for k, name in enumerate(model.z_names):
        if name.endswith(".webbing"):
            z[k] *= 0.99
    for j, s in zip(jz, (s0, s1)):
        z[j:j + 3] = np.asarray(s, float) / np.linalg.norm(s)
    bundle, data = model.bundle(base_table=None), model.make_data()
    evaluate(bundle, data, 0.0, np.zeros(1), np.zeros(1), z, 0.0)
    i = model.output_names.index
    return [(z[j:j + 3].copy(), data.zdot[j:j + 3].copy(),
             np.array([data.outputs[i(f"belt.{n}.{c}")] for c in "xyz"]))
            for j, n in zip(jz, NAMES[1:3])]


def _placed_h(a, b, u):
    """|h| / r of the plane through anchors a, b and the place u (scaled frame of the sphere of
    radius R: the wrap's plane, ``wrap_chain.place_run``), the belt's pull across itself over its
    push into the sphere there (``belt_wraps.wrap_slide``)."""
    u = np.asarray(u, float) / np.linalg.norm(u)
    n = np.cross((b - a) / R, u - a / R)
    h = abs(np.dot(n / np.linalg.norm(n), u))
    return h / np.sqrt(1.0 - h * h)


PAIR_A, PAIR_B = np.array([-0.3, 0.02, 0.05]), np.array([0.3, 0.02, -0.05])


@pytest.mark.parametrize("s0, s1", [((0.3, 1.0, 1.0), (-0.3, 1.0, -0.3)),
                                    ((-0.3, 1.0, 0.8), (0.3, 1.0, -0.3)),
                                    ((0.5, 1.0, 0.2), (-0.5, 1.0, 1.0))])
def test_identity_held_pair_within_the_friction_in_their_planes_does_not_slide(s0, s1):
    """Two wraps held on one sphere, each within the friction (0.3) in the plane it is placed in
    (through the anchors and its place: |h| / r 0.07-0.17): neither slides across the belt, each
    place only follows its point (rate (P / R - u) / WRAP_FOLLOW, its part tangent to the unit
    sphere), to 1e-9. Before, each slide was judged in the plane through its neighbour's point,
    not the placed plane: the places moved at 2.5e4-5.2e4 /s in the first two cases and 1.1e3 /s
    (the second) in the third, where they follow at 190-520 /s, the first place raising its
    placed plane's |h| (3.0e3 and 8.8e3 /s in the first two cases), the
    pair's places never at rest (US NCAP held across: the shoulder and chest wraps drew
    together, 72 -> 31 mm, the piece between them chattering to 32 kN; scenarios/HISTORY.md,
    torsoheld)."""
    from occupant.restraints.belt_wraps import WRAP_FOLLOW
    for u, rate, P in _pair_rates(PAIR_A, PAIR_B, s0, s1):
        assert _placed_h(PAIR_A, PAIR_B, u) < 0.3
        r = (P / R - u) / WRAP_FOLLOW
        np.testing.assert_allclose(rate, r - np.dot(r, u) * u, rtol=1e-9, atol=1e-9 * np.linalg.norm(r))


def test_identity_held_pair_beyond_the_friction_slides_to_its_placed_planes_rest():
    """The pair's first place turned across the belt beyond the friction in its placed plane
    (anchors 0.6 R to its side, the first place just past the circle y = 0.6 R towards the
    second: |h| / r 0.74), the second within it (|h| / r 0.03): the first slides the way its
    placed plane's |h| falls, towards the second wrap and the shortest path over the side it
    faces, at over 10 times the rate its following alone moves |h| by; the second does not
    slide (as above). On that circle (|h| / r 0.75, the largest) |h| falls both ways, and the
    way the law took was the rounding's; the belt's pull bounds the slide (``_held_slide``),
    so the place is set where the way is the belt's."""
    from occupant.restraints.belt_wraps import WRAP_FOLLOW
    a, b = np.array([-0.3, 0.6 * R, 0.0]), np.array([0.3, 0.6 * R, 0.0])
    s0, s1 = (0.0, 0.7, 0.714), (0.0, 1.0, 0.02)
    (u0, rate0, P0), (u1, rate1, P1) = _pair_rates(a, b, s0, s1)
    assert _placed_h(a, b, u0) > 0.3 > _placed_h(a, b, u1)
    assert rate0[1] > 0.0 > rate0[2]                   # towards the second wrap, off the top
    dt = 1e-7
    follow = (P0 / R - u0) / WRAP_FOLLOW
    follow -= np.dot(follow, u0) * u0
    slid = (_placed_h(a, b, u0 + dt * rate0) - _placed_h(a, b, u0)) / dt
    followed = (_placed_h(a, b, u0 + dt * follow) - _placed_h(a, b, u0)) / dt
    assert slid < -10.0 * abs(followed)
    r = (P1 / R - u1) / WRAP_FOLLOW
    np.testing.assert_allclose(rate1, r - np.dot(r, u1) * u1, rtol=1e-9, atol=1e-9 * np.linalg.norm(r))


HOOK_A, HOOK_B = np.array([-0.3, 0.0, -1.5 * R]), np.array([0.3, 0.0, -1.5 * R])


def _held_trio_rates(places, a=HOOK_A, b=HOOK_B):
    """Anchors a, b (by default HOOK_A, HOOK_B, 1.5 R below the centre of the ball of radius R:
    their line passes outside it, the belt hooks over its top, as the lap belt over the pelvis
    from anchorages behind and below it) and three wraps held on the ball (friction 0.3 along and across), their
    places set to ``places`` and then to where their points lie (in the planes they set), each
    segment's webbing 1 % short of its length there (every segment taut), at rest: per wrap
    (its place u, its rate, its point (B0)), and the tensions of its segments."""
    asm = Assembly("trio")
    asm.add(Part("body", 10.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("slide", "prismatic", None, "body", Pose()))
    asm.add(Marker("centre", "body"))
    asm.add(Ellipsoid("shell", "centre", (R, R, R)))
    names = ("w0", "w1", "w2")
    asm.add(Belt("belt", [Anchor("a", a)]
                 + [Wrap(n, "shell", friction=0.3, across=0.3, side=(0.0, 0.0, 1.0)) for n in names]
                 + [Anchor("b", b)], LINEAR, pretension=10.0))
    model = asm.compile()
    el = model.belts
    jz = [el.point_z[k] for k in range(len(el.point_kind)) if el.point_kind[k] == BELT_WRAP]
    z = fit_belts(model, [0.0])
    for j, s in zip(jz, places):
        z[j:j + 3] = np.asarray(s, float) / np.linalg.norm(s)
    bundle, data = model.bundle(base_table=None), model.make_data()
    i = model.output_names.index
    evaluate(bundle, data, 0.0, np.zeros(1), np.zeros(1), z, 0.0)
    for j, n in zip(jz, names):   # each place at its point, in the plane it set (no lag)
        P = np.array([data.outputs[i(f"belt.{n}.{c}")] for c in "xyz"])
        z[j:j + 3] = P / np.linalg.norm(P)
    evaluate(bundle, data, 0.0, np.zeros(1), np.zeros(1), z, 0.0)
    for k, name in enumerate(model.z_names):
        if name.endswith(".webbing"):
            z[k] = 0.99 * data.outputs[i(name.replace(".webbing", ".length"))]
    evaluate(bundle, data, 0.0, np.zeros(1), np.zeros(1), z, 0.0)
    tension = [data.outputs[i(f"belt.{p}-{n}.force")]
               for p, n in zip(("a",) + names, names + ("b",))]
    return [(z[j:j + 3].copy(), data.zdot[j:j + 3].copy(),
             np.array([data.outputs[i(f"belt.{n}.{c}")] for c in "xyz"]))
            for j, n in zip(jz, names)], tension


def _across(deg, along=0.0):
    """A place on the ball turned ``deg`` across the belt from its top (about the belt's line,
    x), ``along`` the belt (its x on the unit sphere)."""
    c = np.sqrt(1.0 - along * along)
    return (along, c * np.sin(np.radians(deg)), c * np.cos(np.radians(deg)))


ALONG = (-0.37, 0.0, 0.37)   # the trio's places along the belt (x), near where the belt fits


def _in_plane(deg, along):
    """The place ``along`` the belt (its x on the unit sphere) in the plane through the anchors
    HOOK_A, HOOK_B and ``_across(deg)`` (scaled frame; the plane holds the belt's line, x): on
    that plane's circle (centre h n, radius r), on the side of ``_across(deg)``."""
    m = np.array(_across(deg))
    n = np.cross((HOOK_B - HOOK_A) / R, m - HOOK_A / R)
    n /= np.linalg.norm(n)
    o = np.dot(n, m) * n
    r = np.linalg.norm(m - o)
    return o + along * np.array([1.0, 0.0, 0.0]) + np.sqrt(r * r - along * along) * (m - o) / r


def _following(u, P):
    """A place's rate when it only follows its point P (``belt_wraps.wrap_slide``): (P / R - u)
    / WRAP_FOLLOW, its part tangent to the unit sphere."""
    from occupant.restraints.belt_wraps import WRAP_FOLLOW
    r = (P / R - u) / WRAP_FOLLOW
    return r - np.dot(r, u) * u


def test_identity_hooked_held_wrap_does_not_slide_against_its_belts_pull():
    """The hooked trio's middle place turned 45 deg across the belt (|h| / r 0.51 in its placed
    plane, over the friction 0.3), its neighbours' 10 deg (0.10, within it): the belt pulls the
    middle wrap back towards them (the sum of its tensions along its chords to their points,
    taken along the way its |h| rises, is negative), so it does not slide: its place only
    follows its point (here at it: rate 0), to 1e-9 /s. Before, hooked, it slid the way its own
    plane's |h| rises (its wrap alone would shorten), away from its neighbours, lengthening the
    belt: the faster the tighter, the tension rising with the slide (US NCAP with the carpet's
    friction 1.0: the lap belt's middle wrap over the pelvis's crown, its segments 107 -> 133
    and 105 -> 153 mm in 14 ms, 77.7 kN at 84 ms; scenarios/HISTORY.md, lapblowup)."""
    rates, tension = _held_trio_rates([_across(d, x) for d, x in zip((10.0, 45.0, 10.0), ALONG)])
    (_, _, P0), (u, rate, P), (_, _, P2) = rates
    assert _placed_h(HOOK_A, HOOK_B, u) > 0.3 > _placed_h(HOOK_A, HOOK_B, _across(10.0, ALONG[0]))
    assert P[2] > 0.0 and P[1] > P0[1] + 0.01       # on the top, across beyond its neighbours
    assert _placed_h(HOOK_A, HOOK_B, _across(45.01)) > _placed_h(HOOK_A, HOOK_B, u)
    further = np.array(_across(46.0)) - np.array(_across(44.0))   # the way its |h| rises
    pull = tension[1] * (P0 - P) / np.linalg.norm(P0 - P) \
        + tension[2] * (P2 - P) / np.linalg.norm(P2 - P)
    assert min(tension) > 100.0 and np.dot(pull, further) < 0.0
    np.testing.assert_allclose(rate, _following(u, P), rtol=0.0, atol=1e-9)   # 1 / s


def test_identity_hooked_held_trio_in_one_plane_slides_the_way_its_belt_shortens():
    """The hooked trio's places all turned 45 deg across the belt (one plane through the anchors,
    |h| / r 0.51, over the friction): the belt's pull on each wrap through its neighbours lies
    the way |h| rises, and each place slides that way, faster than its following alone (the
    belt lifts off the top as a whole, shortening: ``_hook_length``), as a single hooked wrap
    does (``test_analytic_hooked_held_wrap_slides_the_way_its_belt_shortens``)."""
    rates, tension = _held_trio_rates([_in_plane(45.0, x) for x in ALONG])
    assert min(tension) > 100.0
    for u, rate, P in rates:
        assert _placed_h(HOOK_A, HOOK_B, u) > 0.3
        slid = rate - _following(u, P)
        assert np.linalg.norm(slid) > 1.0
        dt = 1e-4 / np.linalg.norm(rate)
        assert _hook_length(HOOK_A, HOOK_B, u + dt * rate) < _hook_length(HOOK_A, HOOK_B, u)


NEAR_A, NEAR_B = np.array([-0.3, 0.0, -0.5 * R]), np.array([0.3, 0.0, -0.5 * R])


def test_identity_held_wrap_over_the_near_side_does_not_slide_against_its_belts_pull():
    """Anchors 0.5 R below the ball's centre (their line passes through it: the belt lies over the
    near side, its rest the great circle over the top, as the shoulder belt over the thorax from
    the D-ring to the buckle): the trio's middle place turned 60 deg across the belt (|h| / r
    0.35 in its placed plane, over the friction 0.3), its neighbours' 85 deg, further across
    (|h| / r 0.47). The belt pulls the middle wrap towards them (its tensions along its chords,
    taken along the way its |h| falls, sum to -2.9 kN), so it does not slide: its place only
    follows its point (here at it: rate 0), to 1e-9 /s. Before, it slid the way its placed
    plane's |h| falls, against that pull (the bound on the slide against the belt's pull held
    only where the wrap slid the way |h| rises: scenarios/HISTORY.md, lapblowup, heldacross2)."""
    places = [_across(d, x) for d, x in zip((85.0, 60.0, 85.0), ALONG)]
    rates, tension = _held_trio_rates(places, NEAR_A, NEAR_B)
    (_, _, P0), (u, rate, P), (_, _, P2) = rates
    assert 0.3 < _placed_h(NEAR_A, NEAR_B, u) < _placed_h(NEAR_A, NEAR_B, _across(85.0, ALONG[0]))
    assert P[1] < P0[1] - 0.01 and P[1] < P2[1] - 0.01      # on the top side of its neighbours
    falls = np.array(_across(59.0)) - np.array(_across(61.0))          # the way its |h| falls
    assert _placed_h(NEAR_A, NEAR_B, _across(59.0)) < _placed_h(NEAR_A, NEAR_B, u)
    pull = tension[1] * (P0 - P) / np.linalg.norm(P0 - P) \
        + tension[2] * (P2 - P) / np.linalg.norm(P2 - P)
    assert min(tension) > 100.0 and np.dot(pull, falls) < 0.0
    np.testing.assert_allclose(rate, _following(u, P), rtol=0.0, atol=1e-9)   # 1 / s


def test_identity_held_wrap_over_the_near_side_slides_with_its_belts_pull():
    """The same trio with its neighbours' places 30 deg across (nearer the rest than the middle's
    60 deg): the belt pulls the middle wrap the way its |h| falls, and it slides that way,
    faster than its following alone, its placed plane's |h| falling."""
    places = [_across(d, x) for d, x in zip((30.0, 60.0, 30.0), ALONG)]
    rates, tension = _held_trio_rates(places, NEAR_A, NEAR_B)
    (_, _, P0), (u, rate, P), (_, _, P2) = rates
    pull = tension[1] * (P0 - P) / np.linalg.norm(P0 - P) \
        + tension[2] * (P2 - P) / np.linalg.norm(P2 - P)
    falls = np.array(_across(59.0)) - np.array(_across(61.0))
    assert min(tension) > 100.0 and np.dot(pull, falls) > 0.0
    slid = rate - _following(u, P)
    assert np.linalg.norm(slid) > 0.1
    dt = 1e-4 / np.linalg.norm(rate)
    assert _placed_h(NEAR_A, NEAR_B, u + dt * rate) < _placed_h(NEAR_A, NEAR_B, u)
