"""A belt's segments measured along its path (occupant.restraints.belt.path_lengths): the
tangent pieces and the arcs over its wraps' ellipsoids, against closed forms (over a sphere,
R times the angle; over an ellipsoid's elliptic section, its arc by quadrature), the
tension acting along the tangent pieces, and the capstan angle the path's turn."""
import numpy as np
import pytest
from scipy.integrate import quad

import occupant
from occupant.constants import G0
from occupant.integrate.pipeline import evaluate
from occupant.modeling import Assembly, Ellipsoid, Joint, JointResistance, Marker, Part, Pose
from occupant.modeling.belts import Anchor, Belt, Webbing, Wrap
from occupant.restraints import fit_belts
from occupant.restraints.wrap_geometry import wrap_half

LINEAR = Webbing([(0.0, 0.0), (0.1, 16000.0)])
R = 0.1                                          # m: the sphere's radius
A = np.array([-0.3, 0.04, 0.03])                 # m: the anchors, askew, their line through
B = np.array([0.25, -0.05, 0.02])                # the sphere above its centre


def _belt_over(size, a, b, wraps=1, side=(0.0, 0.0, 1.0)):
    """An ellipsoid of semi-axes ``size`` at the origin (on a slider along z, at q = 0) and a
    frictionless belt from anchor a over ``wraps`` wraps on it round the side ``side`` to
    anchor b, fitted 1 % short so it pulls: (model, data) evaluated at rest."""
    asm = Assembly("path")
    asm.add(Part("body", 10.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("slide", "prismatic", None, "body", Pose()))
    asm.add(Marker("centre", "body"))
    asm.add(Ellipsoid("shell", "centre", size))
    asm.add(Belt("belt", [Anchor("a", tuple(a)),
                          *[Wrap(f"w{i}", "shell", friction=0.0, side=side) for i in range(wraps)],
                          Anchor("b", tuple(b))], LINEAR, pretension=10.0))
    model = asm.compile()
    z = _fitted_short(model)
    bundle, data = model.bundle(base_table=None), model.make_data()
    evaluate(bundle, data, 0.0, np.zeros(1), np.zeros(1), z, 0.0)
    return model, data


def _fitted_short(model):
    """The states of ``model``'s belts fitted at q = 0, their webbing 1 % short so they pull."""
    z = fit_belts(model, [0.0])
    for k, name in enumerate(model.z_names):
        if name.endswith(".webbing"):
            z[k] *= 0.99
    return z


def _summed_length(model, bundle, z, segments, q, v):
    """(data, summed length of ``segments``) of ``model`` evaluated at (q, v, z)."""
    d = model.make_data()
    evaluate(bundle, d, 0.0, np.atleast_1d(np.asarray(q, float)),
             np.atleast_1d(np.asarray(v, float)), z.copy(), 0.0)
    return d, sum(_out(model, d, f"{s}.length") for s in segments)


def _out(model, data, name):
    return data.outputs[model.output_names.index(name)]


def _sphere_path(a, b, long_way=False):
    """Closed form: the shortest path from a to b over the sphere of radius R at the origin
    (the long way round with ``long_way``), in the plane through a, b and the centre: the
    tangent pieces sqrt(|x|^2 - R^2) and R times the arc between their tangent points,
    gamma - acos(R / |a|) - acos(R / |b|), gamma the angle between a and b (2 pi - gamma the
    long way)."""
    la, lb = np.linalg.norm(a), np.linalg.norm(b)
    gamma = np.arccos(a @ b / (la * lb))
    if long_way:
        gamma = 2.0 * np.pi - gamma
    return (np.sqrt(la**2 - R**2) + np.sqrt(lb**2 - R**2)
            + R * (gamma - np.arccos(R / la) - np.arccos(R / lb)))


def _tangent_unit(x, y, long_way=False):
    """Closed form: the unit vector from x's tangent point on the sphere (radius R, the plane
    through x, y and the centre, on the side of y, or away from it the long way) to x."""
    u = x / np.linalg.norm(x)
    w = y - (y @ u) * u
    w /= np.linalg.norm(w)
    if long_way:
        w = -w
    alpha = np.arccos(R / np.linalg.norm(x))
    t = R * (np.cos(alpha) * u + np.sin(alpha) * w)
    return (x - t) / np.linalg.norm(x - t)


@pytest.mark.parametrize("wraps", [1, 2])
def test_analytic_belt_over_a_sphere_measures_its_path_and_pulls_along_its_tangents(wraps):
    """Anchors askew, their line through the sphere above its centre: the belt's segments sum
    to its shortest path over the top (``_sphere_path``: tangent pieces and R times the arc),
    to 1e-12 m, with one wrap or two (a run: the segment between them the arc R times their
    angle). The tension T acts on the sphere as T times the tangent pieces' units towards the
    anchors (``_tangent_unit``), through its centre (no moment), to 1e-9 T. Measured along the
    chords (until branch beltarcs), the belt was 0.64 mm shorter with one wrap (0.22 mm with two)."""
    model, data = _belt_over((R, R, R), A, B, wraps)
    names = ["a", *[f"w{i}" for i in range(wraps)], "b"]
    segments = [f"belt.{p}-{n}" for p, n in zip(names, names[1:])]
    total = sum(_out(model, data, f"{s}.length") for s in segments)
    assert total == pytest.approx(_sphere_path(A, B), abs=1e-12)
    if wraps == 2:
        w0, w1 = (np.array([_out(model, data, f"belt.{n}.{c}") for c in "xyz"])
                  for n in ("w0", "w1"))
        angle = np.arccos(w0 @ w1 / R**2)
        assert _out(model, data, "belt.w0-w1.length") == pytest.approx(R * angle, abs=1e-12)
    T = _out(model, data, "belt.a-w0.force")
    assert T > 0.0
    push = T * (_tangent_unit(A, B) + _tangent_unit(B, A))
    np.testing.assert_allclose(data.f_ext[model.body("body")], (0, 0, 0, *push), atol=1e-9 * T)


def test_analytic_belt_hooked_round_a_sphere_measures_its_long_path():
    """The anchors of the test above, the wrap round the sphere's bottom (side down): the belt
    is hooked round it the long way, its segments summing to that path (``_sphere_path``, the
    arc 2 pi - gamma less the tangent angles) to 1e-12 m (along the chords, until branch
    beltarcs, 2.9 mm short), pulling the sphere up along its tangent pieces."""
    model, data = _belt_over((R, R, R), A, B, side=(0.0, 0.0, -1.0))
    total = _out(model, data, "belt.a-w0.length") + _out(model, data, "belt.w0-b.length")
    assert total == pytest.approx(_sphere_path(A, B, long_way=True), abs=1e-12)
    T = _out(model, data, "belt.a-w0.force")
    push = T * (_tangent_unit(A, B, True) + _tangent_unit(B, A, True))
    assert push[2] > 0.0
    np.testing.assert_allclose(data.f_ext[model.body("body")], (0, 0, 0, *push), atol=1e-9 * T)


def test_analytic_belt_over_an_elliptic_section():
    """An ellipsoid of semi-axes (0.2, 1.0, 0.1) m, anchors at x = -+0.5 m on its x axis: the
    belt wraps the ellipse x^2 / 0.2^2 + z^2 / 0.1^2 = 1 over its top, leaving it at the
    tangent points (0.2 cos phi, 0.1 sin phi), cos phi = 0.2 / 0.5 (tangency kept by the
    scaling to the unit circle): the segments sum to the two tangent pieces and the ellipse's
    arc between them (scipy's adaptive quadrature of its speed), to 1e-9 m (8-point
    Gauss-Legendre over the circle's angle, ``wrap_geometry.wrap_half``)."""
    size = (0.2, 1.0, 0.1)
    model, data = _belt_over(size, (-0.5, 0.0, 0.0), (0.5, 0.0, 0.0))
    phi = np.arccos(0.2 / 0.5)
    arc = quad(lambda s: np.hypot(0.2 * np.sin(s), 0.1 * np.cos(s)), phi, np.pi - phi,
               epsabs=1e-14)[0]
    piece = np.hypot(0.5 - 0.2 * np.cos(phi), 0.1 * np.sin(phi))
    total = _out(model, data, "belt.a-w0.length") + _out(model, data, "belt.w0-b.length")
    assert total == pytest.approx(arc + 2.0 * piece, abs=1e-9)


def test_analytic_half_path_straight_where_the_neighbour_sees_the_point():
    """``wrap_half`` on the unit-radius sphere from p = (1, 0, 0) to b at distance 2 in the
    plane z = 0: at angle 60 deg from p (b's tangent angle acos(1 / 2)) the path is straight,
    sqrt(3), and beyond it the arc R (angle - 60 deg) plus sqrt(3): continuous where p passes
    b's tangent point."""
    for deg in (30.0, 60.0, 90.0, 150.0):
        angle = np.radians(deg)
        b = 2.0 * np.array([np.cos(angle), np.sin(angle), 0.0])
        length, _ = wrap_half((1.0, 1.0, 1.0), (1.0, 0.0, 0.0), tuple(b), (0.0, 0.0, 0.0), 1.0,
                              (0.0, 0.0, 0.0))
        if deg <= 60.0:
            expected = np.linalg.norm(b - (1.0, 0.0, 0.0))
        else:
            expected = np.sqrt(3.0) + angle - np.radians(60.0)
        assert length == pytest.approx(expected, abs=1e-12), deg


def _askew_arc(side, frac, near):
    """(D, a, b, placed): an ellipsoid of semi-axes (0.08, 0.12, 0.06) m, askew ends a (``near``
    times its scaled radius) and b, and ``placed(a, b)``, the point ``wrap_arc_point`` places at
    ``frac`` of the arc the way ``side`` says."""
    from occupant.restraints.wrap_geometry import wrap_arc_point
    D = (0.08, 0.12, 0.06)
    a = near * np.array(D) * np.array([-0.8, 0.1, 0.55]) / np.linalg.norm([-0.8, 0.1, 0.55])
    b = np.array([0.22, -0.04, 0.0])

    def placed(a, b):
        P, active = wrap_arc_point(D, side, tuple(a), tuple(b), (0.0, 0.0, 0.0), frac)
        assert active
        return np.array(P)
    return D, a, b, placed


def _central(placed, a, b, end, axis, h):
    """The central difference of ``placed(a, b)`` as end ``end`` (0: a, 1: b) moves along
    ``axis`` by +-h."""
    x = [a, b]
    x[end] = x[end] + h * axis
    up = placed(*x)
    x[end] = x[end] - 2.0 * h * axis
    return (up - placed(*x)) / (2.0 * h)


@pytest.mark.parametrize("side, frac, near", [((0.3, -0.2, 1.0), 0.5, 1.03),
                                               ((0.3, -0.2, 1.0), 1.0 / 3.0, 1.3),
                                               ((-0.2, 0.4, -1.0), 0.75, 1.02),
                                               ((0.3, -0.2, 1.0), 0.5, 0.9)])
def test_analytic_arc_point_slides_by_its_placement_gradient(side, frac, near):
    """``wrap_geometry.arc_point_slide`` against central differences (1e-7 m) of the point
    ``wrap_arc_point`` places, on an ellipsoid of semi-axes (0.08, 0.12, 0.06) m between askew
    ends, the short way and the long way round (``side``), at a third, half and three quarters
    of the arc, one end at ``near`` times its scaled radius (0.9: inside, its arc to the
    nearest point): each end moved along each axis, the point's motion along its arc (scaled
    frame: dP / D . t / D over |t / D|^2) is g . dx, to 1e-6 of the largest; its motion
    across is the plane's turn (not counted)."""
    from occupant.restraints.wrap_geometry import arc_point_slide
    D, a, b, placed = _askew_arc(side, frac, near)
    P = placed(a, b)
    g_a, g_b, t = (np.array(x) for x in arc_point_slide(D, tuple(a), tuple(b), tuple(P), frac))
    ts = t / np.array(D)
    h = 1.0e-7
    along, expected = [], []
    for end, g in ((0, g_a), (1, g_b)):
        for axis in np.eye(3):
            along.append(_central(placed, a, b, end, axis, h) / np.array(D) @ ts / (ts @ ts))
            expected.append(g @ axis)
    scale = np.abs(expected).max()
    assert scale > 1.0
    np.testing.assert_allclose(along, expected, atol=1e-6 * scale)


@pytest.mark.parametrize("radius, angle", [(1.02, 20.0), (1.04, 30.0), (1.03, -10.0)])
def test_analytic_fading_arc_pulls_along_its_length_gradient(radius, angle):
    """Anchors at ``radius`` times R from the sphere's centre (inside INSIDE_BAND, 1.05: each
    half's arc partly faded, ``belt._piece_from``'s keep), ``angle`` deg above its equator either
    side, the belt over the top; the sphere on its slider moved 1e-7 m either way: the force on
    it is minus the tension times the central difference of the summed lengths, and the length
    rates at unit slider speed sum to that difference, to 1e-8 of it. Mirror symmetry keeps the
    wrap point at the top (a wrap point moving over the body in the band changes the faded
    length by itself: not this test's). Before the fade's own gradient acted
    (``belt._fade_parts``) the force missed it by 0.68-1.35 T (of 0.46-3.16 T)."""
    up = np.sin(np.radians(angle))
    a = radius * R * np.array([-np.cos(np.radians(angle)), 0.0, up])
    b = radius * R * np.array([np.cos(np.radians(angle)), 0.0, up])
    model, data = _belt_over((R, R, R), a, b)
    bundle = model.bundle(base_table=None)
    z = _fitted_short(model)
    segments = ("belt.a-w0", "belt.w0-b")

    def lengths(q, qd=0.0):
        return _summed_length(model, bundle, z, segments, q, qd)

    h = 1.0e-7
    slope = (lengths(h)[1] - lengths(-h)[1]) / (2.0 * h)
    moving, _ = lengths(0.0, 1.0)
    T = _out(model, data, "belt.a-w0.force")
    assert T > 0.0
    assert -data.f_ext[model.body("body")][5] / T == pytest.approx(slope, rel=1e-8)
    rate = sum(_out(model, moving, f"{s}.length_rate") for s in segments)
    assert rate == pytest.approx(slope, rel=1e-8)


def _quarter_wrap(friction, mass=10.0):
    """A strap from a B0 anchor level with the top of a fixed ball (radius R, centre (-R, 0, 1))
    0.2 m from it, over the ball's top and right side (one wrap, ``friction``), down to a
    mass on a vertical slider through x = 0 (overdamped: the hanging side tightens without
    overshoot, so the webbing stops slipping at the capstan bound), its hook 0.15 m below the
    ball's equator:
    the pieces leave the ball at its top and at (0, 0, 1), so the belt turns through exactly
    theta = pi / 2 over the wrap, whatever the slider's place. The chords from the anchor and the
    hook to the wrap point (the arc's middle, 45 deg) turn through 76.3 deg at it (R 0.1 m)."""
    asm = Assembly("quarter")
    asm.add(Part("mass", mass, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("slide", "prismatic", None, "mass", Pose()))
    asm.add(Marker("hook", "mass", position=(0.0, 0.0, 0.85)))
    asm.add(JointResistance("slide_damper", "slide", damping=2 * mass * 400.0))
    asm.add(Part("post", 1.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("base", "fixed", None, "post", Pose()))
    asm.add(Marker("centre", "post", position=(-R, 0.0, 1.0)))
    asm.add(Ellipsoid("ball", "centre", (R, R, R)))
    asm.add(Belt("strap", [Anchor("wall", (-R - 0.2, 0.0, 1.0 + R)),
                           Wrap("w", "ball", friction=friction, side=(1.0, 0.0, 1.0)),
                           Anchor("hook", marker="hook")], LINEAR, pretension=10.0))
    return asm.compile()


@pytest.mark.parametrize("friction", [0.3, 0.6])
def test_analytic_capstan_ratio_over_a_wrap_is_its_paths_turn(friction):
    """Released under gravity, the hanging side tightens and webbing slides over the ball until
    the tension ratio is at most exp(mu theta) (Euler-Eytelwein), theta the angle the belt's
    path turns through over the wrap, pi / 2 (``_quarter_wrap``; ``belt.path_turn``): at rest
    the hanging side carries m g and the wall's m g exp(-mu pi / 2), to 1e-6 (measured 1e-10).
    The chords' turn (until branch capstanpath), 76.3 deg, held the wall's side at
    m g exp(-mu 1.331): 0.6707 and 0.4499 of m g (mu 0.3, 0.6), 7.5 and 15.5 % high (measured)."""
    mass = 10.0
    model = _quarter_wrap(friction, mass)
    res = occupant.simulate(model, 0.4, integrator="rk4", dt=1e-5, gravity=(0, 0, -G0))
    hang, wall = res.outputs["strap.w-hook.force"], res.outputs["strap.wall-w.force"]
    assert abs(res.v[-1, 0]) < 1e-6
    assert hang[-1] == pytest.approx(mass * G0, rel=1e-6)
    assert wall[-1] / hang[-1] == pytest.approx(np.exp(-friction * np.pi / 2), rel=1e-6)


@pytest.mark.parametrize("radius, angle, size, wraps, side, mirrored", [
    (1.02, 20.0, (R, R, R), 1, 1.0, False), (1.04, 30.0, (R, R, R), 1, 1.0, False),
    (1.03, -10.0, (R, R, R), 1, 1.0, False), (1.02, 20.0, (R, R, R), 2, 1.0, False),
    (1.03, -10.0, (R, R, R), 1, -1.0, False), (1.02, 20.0, (0.08, 0.12, 0.06), 1, 1.0, False),
    (1.03, 35.0, (0.08, 0.12, 0.06), 3, -1.0, False), (1.02, 20.0, (R, R, R), 1, 1.0, True),
    (1.03, 35.0, (0.08, 0.12, 0.06), 2, -1.0, True)])
def test_analytic_lopsided_fading_arc_pulls_along_its_full_length_gradient(
        radius, angle, size, wraps, side, mirrored):
    """The rig of the test above with one anchor in the band (``radius`` times the scaled
    radius, ``angle`` deg above the equator) and the other far, at (0.3, 0, 0.1) m: the wrap
    point slides over the body as the slider moves, and the faded half's length changes with
    its place (its chord's part, 1 - keep of it, by cos of the angle between the chord and the
    arc per unit of slide, not 1; ``belt_path._slide_from``). The force on the body is minus
    the tension times the central difference of the summed lengths, and the length rates at
    unit slider speed sum to it, to 1e-8 of it: over the top of the sphere, over a run of two
    wraps (points at a third and two thirds of the arc), the long way round the bottom
    (``side`` -1), and over an ellipsoid of semi-axes (0.08, 0.12, 0.06) m with the anchors in
    its principal plane y = 0 (its section there a geodesic: ``SECTION_TURN`` not met), one
    wrap over the top or three round the bottom; ``mirrored`` (x turned) the anchor in the
    band is the belt's last point, the faded piece the last wrap's to it. Measured: force / T
    0.7210553694, 0.6393197384, 1.1288794443 against slopes 0.7210553693, 0.6393197380,
    1.1288794435 (the first three cases); without the slide term (main 93f7a72, a strict
    xfail) 0.682, 0.635, 1.130 (off by 5.4, 0.66 and 0.10 %)."""
    D = np.array(size)
    up = np.sin(np.radians(angle))
    a = radius * D * np.array([-np.cos(np.radians(angle)), 0.0, up])
    b = np.array([0.3, 0.0, 0.1])
    if mirrored:
        a, b = b * [-1.0, 1.0, 1.0], a * [-1.0, 1.0, 1.0]
    model, data = _belt_over(size, a, b, wraps, (0.0, 0.0, side))
    bundle = model.bundle(base_table=None)
    z = _fitted_short(model)
    names = ["a", *[f"w{i}" for i in range(wraps)], "b"]
    segments = [f"belt.{p}-{n}" for p, n in zip(names, names[1:])]

    def lengths(q, qd=0.0):
        return _summed_length(model, bundle, z, segments, q, qd)

    h = 1.0e-7
    slope = (lengths(h)[1] - lengths(-h)[1]) / (2.0 * h)
    T = _out(model, data, "belt.a-w0.force")
    assert T > 0.0
    assert -data.f_ext[model.body("body")][5] / T == pytest.approx(slope, rel=1e-8)
    moving, _ = lengths(0.0, 1.0)
    rate = sum(_out(model, moving, f"{s}.length_rate") for s in segments)
    assert rate == pytest.approx(slope, rel=1e-8)


def test_identity_fading_arc_does_the_work_of_its_tensions_over_the_lengths():
    """The lopsided rig (one anchor at 1.03 R, 20 deg above the equator, in the band all along;
    the other at (0.3, 0, 0.1) m) released from its fit 1 % short, no gravity: over 10 ms the
    sphere is pulled 4.96 mm down and the wrap point slides 4.5 mm over it. The belt's work on
    the tree equals minus the work of each segment's tension over its length, sum of
    integral T_s dL_s, less (T_a - T_b) ds, the two tensions' difference over the point's slide
    s along the arc (a frictionless wrap's slide moves length from one segment to the other at
    no force: its webbing flows across, ``belt_flow``), to 1e-6 of the released strain energy
    (trapezoids of the 1e-5 s samples; measured 2.7e-8 J of 3.37 J, with the slide part 0.0805
    J). Without the fade's slide term (main 93f7a72) the two sides differ by 0.043 J. The
    balance of the tree's and the webbing's energy is not the test: the flow lags the slide,
    and (T_a - T_b) (ds - dw_a) is lost there (0.054 J, 1.6 % of the strain energy; main 0.019 J,
    its missing term offsetting part of it)."""
    up = np.sin(np.radians(20.0))
    a = 1.03 * R * np.array([-np.cos(np.radians(20.0)), 0.0, up])
    model, _ = _belt_over((R, R, R), a, np.array([0.3, 0.0, 0.1]))
    res = occupant.simulate(model, 0.01, z0=_fitted_short(model), integrator="rk4", dt=1e-6,
                            output_dt=1e-5, gravity=(0.0, 0.0, 0.0))
    q = res.q[:, 0]
    assert np.linalg.norm(a - [0.0, 0.0, q.min()]) < (1.0 + 0.05) * R    # in the band all along

    def integral(f, x):
        return np.sum(0.5 * (f[1:] + f[:-1]) * np.diff(x))

    segments = ("belt.a-w0", "belt.w0-b")
    tension = [res.outputs[f"{s}.force"] for s in segments]
    length = [res.outputs[f"{s}.length"] for s in segments]
    released = sum(integral(t, l) for t, l in zip(tension, length))
    # the point's place along the arc, from a's side towards b's (over the top: x increasing)
    slide = -R * np.unwrap(np.arctan2(res.outputs["belt.w0.z"] - q, res.outputs["belt.w0.x"]))
    assert slide[-1] - slide[0] > 4e-3
    across = integral(tension[0] - tension[1], slide)
    assert res.work["belts"][-1] + released == pytest.approx(across, abs=1e-6 * -released)


SECTION_TURN = pytest.mark.xfail(strict=True, reason=(
    "the path over an ellipsoid is its section by the plane through the centre and the "
    "neighbours (scaled frame), not a geodesic: its length changes with the plane's turn, which "
    "the tangent pieces' pull does not carry (built and measured on branch beltgradient, "
    "6e5b0ba / a91145a, not shipped: scenarios/HISTORY.md, beltgradient; the pulls at their "
    "tangent points shipped from branch tangentcouple)"))


@SECTION_TURN
@pytest.mark.parametrize("wraps", [1, 3])
def test_analytic_belt_over_an_ellipsoid_pulls_along_its_length_gradient(wraps):
    """The askew anchors of the sphere's tests over an ellipsoid of semi-axes (0.08, 0.12,
    0.06) m on the slider: the force on it is minus the tension times the central difference
    of the summed lengths, to 1e-8 of it (on the sphere it is, to 1e-9: measured alike, branch
    capstanpath). The path over the ellipsoid is its section by the plane through the centre
    and the anchors (scaled frame), not a geodesic, so its length changes as the anchors turn
    that plane, a part the tangent pieces' pull does not carry (strict xfail: SECTION_TURN).
    Measured: force / T 0.2540 against the slope 0.3131, one wrap or three (19 % short); with
    the plane's turn carried (branch beltgradient, 6e5b0ba, not shipped) 0.3130735885 against
    0.3130735882 (measured). With both anchors
    in the principal plane y = 0 they agreed before as well (0.264873, measured): the section
    through the centre is the shortest path only on a sphere (every such section a great
    circle) or in a principal plane."""
    model, data = _belt_over((0.08, 0.12, 0.06), A, B, wraps)
    bundle = model.bundle(base_table=None)
    z = _fitted_short(model)
    names = ["a", *[f"w{i}" for i in range(wraps)], "b"]
    segments = [f"belt.{p}-{n}" for p, n in zip(names, names[1:])]

    def length(q):
        return _summed_length(model, bundle, z, segments, q, 0.0)[1]

    h = 1.0e-7
    slope = (length(h) - length(-h)) / (2.0 * h)
    T = _out(model, data, "belt.a-w0.force")
    assert T > 0.0
    assert -data.f_ext[model.body("body")][5] / T == pytest.approx(slope, rel=1e-8)


def _hinged(size, wraps):
    """An ellipsoid of semi-axes ``size``, its centre at (0.02, 0.01, -0.03) m and its axes
    turned (x-y-z angles 0.3, -0.2, 0.5 rad) on a body hinged at B0's origin (revolute about
    the joint frame's z, B0's z turned 1.2 rad about y), under the belt of ``_belt_over`` (askew anchors A
    and B, ``wraps`` frictionless wraps over its top), fitted 1 % short: (model, z)."""
    from scipy.spatial.transform import Rotation
    asm = Assembly("hinged")
    asm.add(Part("body", 10.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("hinge", "revolute", None, "body",
                  Pose(rotation=Rotation.from_euler("y", 1.2).as_matrix())))
    asm.add(Marker("centre", "body", (0.02, 0.01, -0.03),
                   Rotation.from_euler("xyz", [0.3, -0.2, 0.5]).as_matrix()))
    asm.add(Ellipsoid("shell", "centre", size))
    asm.add(Belt("belt", [Anchor("a", tuple(A)),
                          *[Wrap(f"w{i}", "shell", friction=0.0, side=(0.0, 0.0, 1.0))
                            for i in range(wraps)],
                          Anchor("b", tuple(B))], LINEAR, pretension=10.0))
    model = asm.compile()
    z = _fitted_short(model)
    return model, z


@pytest.mark.parametrize("wraps", [1, 3])
@pytest.mark.parametrize("size", [(R, R, R),
                                  pytest.param((0.08, 0.12, 0.06), marks=SECTION_TURN)])
def test_analytic_belt_turns_an_ellipsoid_by_its_length_gradient(size, wraps):
    """``_hinged``: the belt's moment about the hinge is minus the tension times the central
    difference (1e-5 rad either way) of the summed lengths in the hinge's angle, and the
    length rates at unit angular speed sum to that difference, to 1e-8 of it: the belt's work
    is T dL under rotation as well. On the sphere it is (the tangent pieces' pull through the
    centre, the wrap point's place there immaterial). Over the ellipsoid of semi-axes (0.08,
    0.12, 0.06) m (strict xfail, SECTION_TURN) the tangent pieces pull at the wrap's point, not
    their tangent points, and the plane's turn is not carried: moment / T 2.71999e-3 m with one
    wrap, 2.72092e-3 with three, against the slope 2.72123e-3 (4.6e-4 and 1.1e-4 short;
    measured). With both carried (branch beltgradient, a91145a, not shipped: the plane's turn
    as a force at the run's ends, each tangent piece's pull moved to its tangent point by a
    couple) 2.7212349649e-3 against 2.7212349651e-3, one wrap or three."""
    model, z = _hinged(size, wraps)
    bundle = model.bundle(base_table=None)
    names = ["a", *[f"w{i}" for i in range(wraps)], "b"]
    segments = [f"belt.{p}-{n}" for p, n in zip(names, names[1:])]

    def evaluated(q, qd=0.0):
        return _summed_length(model, bundle, z, segments, q, qd)

    h = 1.0e-5
    slope = (evaluated(h)[1] - evaluated(-h)[1]) / (2.0 * h)
    data, _ = evaluated(0.0)
    T = _out(model, data, "belt.a-w0.force")
    assert T > 0.0
    assert abs(slope) > 1e-3        # the belt does turn it
    moment = data.f_ext[model.body("body")][2]       # about the hinge's z (link frame)
    assert -moment / T == pytest.approx(slope, rel=1e-8)
    moving, _ = evaluated(0.0, 1.0)
    assert sum(_out(model, moving, f"{s}.length_rate") for s in segments) == \
        pytest.approx(slope, rel=1e-8)


@SECTION_TURN
def test_identity_belt_over_a_swinging_ellipsoid_conserves_energy():
    """A 20 kg ball on a 0.8 m pendulum (hinged at B0's origin about y), an ellipsoid of
    semi-axes (0.10, 0.14, 0.08) m turned off the swing's plane (x-y-z angles 0.4, -0.3, 0.6
    rad), swung at 2.5 m/s into an elastic strap from askew anchors behind it over a
    frictionless wrap, which stops it and throws it back: the belt's length rate is its
    summed length's central difference along the motion (1e-6 s; to 1e-6 of it at the
    recorded samples), and the tree's energy plus the webbing's strain energy (w E(e) per
    segment) stays within 1e-3 of the largest strain energy (the webbing's flow over the wrap
    between its two segments takes a time, FLOW_TIME, so their tensions differ by 0.1 % and
    some energy goes there). Strict xfail (SECTION_TURN): with the plane's turn and the
    tangent points' moment not carried the rate is 4.6 % short at the start (2.447 against
    2.565 m/s) and the energy rises by 4.3e-2 of the largest strain energy (measured): the belt
    does work it does not store. With both carried (branch beltgradient, a91145a, not shipped)
    the rate is the difference's to 1e-6 and the energy closes to 2.7e-4 (measured)."""
    from scipy.spatial.transform import Rotation
    shell = (0.10, 0.14, 0.08)
    asm = Assembly("pendulum")
    asm.add(Part("arm", 20.0, com=(0, -0.8, 0), inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("hinge", "revolute", None, "arm",
                  Pose(rotation=[[1, 0, 0], [0, 0, -1], [0, 1, 0]])))   # joint z along B0 y
    asm.add(Marker("ball", "arm", position=(0, -0.8, 0),
                   rotation=Rotation.from_euler("xyz", [0.4, -0.3, 0.6]).as_matrix()))
    asm.add(Ellipsoid("shell", "ball", shell))
    asm.add(Belt("strap", [Anchor("left", (-0.2, 0.4, -0.72)), Wrap("w", "shell", 0.0),
                           Anchor("right", (-0.15, -0.35, -0.9))], LINEAR, pretension=10.0))
    model = asm.compile()
    res = occupant.simulate(model, 0.03, v0=[2.5], integrator="rk4", dt=1e-5,
                            gravity=(0, 0, -G0))
    ea = 16000.0 / 0.1
    strain = 0.0
    segments = ("strap.left-w", "strap.w-right")
    for s in segments:
        e = np.maximum(res.outputs[f"{s}.strain"], 0.0)
        strain = strain + res.z[:, model.z_names.index(f"{s}.webbing")] * 0.5 * ea * e**2
    assert strain.max() > 0.9 * res.energy["kinetic"][0]    # the swing goes into it
    total = res.energy["total"] + strain
    assert np.abs(total - total[0]).max() < 1e-3 * strain.max()
    bundle = model.bundle(base_table=None)

    def length(q, v, z):
        d = model.make_data()
        evaluate(bundle, d, 0.0, q, v, z.copy(), 0.0)
        return (sum(_out(model, d, f"{s}.length") for s in segments),
                sum(_out(model, d, f"{s}.length_rate") for s in segments))

    h = 1.0e-6
    for n in range(0, len(res.t), len(res.t) // 6):
        q, v, z = res.q[n], res.v[n], res.z[n]
        slope = (length(q + h * v, v, z)[0] - length(q - h * v, v, z)[0]) / (2.0 * h)
        assert length(q, v, z)[1] == pytest.approx(slope, rel=1e-6), res.t[n]


@pytest.mark.parametrize("size", [(R, R, R), (0.08, 0.12, 0.06)])
def test_analytic_belt_turns_an_ellipsoid_by_its_pulls_at_the_tangent_points(size):
    """Statics of the belt's arc: a belt of one tension lying on a body (held there by its push,
    and by friction across it where the arc is no geodesic) is in equilibrium under its two
    ends' pulls and the body's push, so its wrench on the body is that of T u_a at its tangent
    point t_a and T u_b at t_b, whatever path the arc takes between them. ``_hinged`` with one
    wrap (moment about the hinge's axis): the closed form from the tangent points of A and B on
    the section through the centre and both (scaled frame: at acos(1 / |x|) from x's direction
    towards the other's, then the ellipsoid's axes) against the belt's moment, to 1e-12 of it.
    Each tangent piece's pull is moved from the wrap's point P to its tangent point by a couple
    on the wrap's body (``belt_path._tangent_parts``): on the sphere the two pieces' couples
    cancel (-1.849060 N m with and without); on the ellipsoid -1.937669 N m as the closed form,
    where the whole pull at P gave -1.935639 (1.0e-3 short, measured; strict xfail
    TANGENT_POINTS until branch tangentcouple). The section's turn (``SECTION_TURN``)
    is no force on the body: its work is the friction's as the belt slides across (branch
    lapgrip's write-up)."""
    from scipy.spatial.transform import Rotation
    model, z = _hinged(size, 1)
    data = model.make_data()
    evaluate(model.bundle(base_table=None), data, 0.0, np.zeros(1), np.zeros(1), z, 0.0)
    joint = Rotation.from_euler("y", 1.2).as_matrix()
    c = joint @ np.array([0.02, 0.01, -0.03])
    axes = joint @ Rotation.from_euler("xyz", [0.3, -0.2, 0.5]).as_matrix()
    D = np.array(size)

    def tangent_point(x, y):
        xs, ys = axes.T @ (x - c) / D, axes.T @ (y - c) / D
        u = xs / np.linalg.norm(xs)
        w = ys - (ys @ u) * u
        w /= np.linalg.norm(w)
        angle = np.arccos(1.0 / np.linalg.norm(xs))
        return c + axes @ (D * (np.cos(angle) * u + np.sin(angle) * w))

    moment = 0.0
    for x, y, segment in ((A, B, "belt.a-w0"), (B, A, "belt.w0-b")):
        t = tangent_point(x, y)
        moment += np.cross(t, _out(model, data, f"{segment}.force") * (x - t)
                           / np.linalg.norm(x - t)) @ (joint @ np.array([0.0, 0.0, 1.0]))
    assert abs(moment) > 1.0
    assert data.f_ext[model.body("body")][2] == pytest.approx(moment, rel=1e-12)


@pytest.mark.parametrize("side, frac, near", [((0.3, -0.2, 1.0), 0.5, 1.03),
                                               ((0.3, -0.2, 1.0), 1.0 / 3.0, 1.3),
                                               ((-0.2, 0.4, -1.0), 0.75, 1.02),
                                               ((0.3, -0.2, 1.0), 0.5, 0.9)])
def test_analytic_arc_point_moves_by_its_slide_and_its_planes_turn(side, frac, near):
    """The cases of the test above, the point's whole motion: along its arc ``arc_point_slide``'s
    t (g_a . da + g_b . db), across it ``wrap_geometry.arc_point_turn``'s s_a (m . da) + s_b
    (m . db), against central differences (1e-7 m) of ``wrap_arc_point``'s point, each end
    moved along each axis, to 1e-6 of the largest (without the turn, off by up to the largest:
    an end's motion across the plane moves the point across its arc alone)."""
    from occupant.restraints.wrap_geometry import arc_point_slide, arc_point_turn
    D, a, b, placed = _askew_arc(side, frac, near)
    P = placed(a, b)
    g_a, g_b, t = (np.array(x) for x in arc_point_slide(D, tuple(a), tuple(b), tuple(P), frac))
    m, s_a, s_b = (np.array(x) for x in arc_point_turn(D, tuple(a), tuple(b), tuple(P)))
    h = 1.0e-7
    moved, expected = [], []
    for end, g, s in ((0, g_a, s_a), (1, g_b, s_b)):
        for axis in np.eye(3):
            moved.append(_central(placed, a, b, end, axis, h))
            expected.append(t * (g @ axis) + s * (m @ axis))
    scale = np.abs(expected).max()
    assert scale > 0.1
    np.testing.assert_allclose(moved, expected, atol=1e-6 * scale)


def _ellipse_arc(D, o, r, e1, e2, angle, n=200001):
    """Length of the image under diag(D) of the arc of the circle o + r (cos t e1 + sin t e2),
    t from 0 to ``angle``: a fine polyline (an independent sum, not quadrature)."""
    t = np.linspace(0.0, angle, n)
    pts = np.asarray(D) * (np.asarray(o) + r * (np.cos(t)[:, None] * e1 + np.sin(t)[:, None] * e2))
    return float(np.sum(np.linalg.norm(np.diff(pts, axis=0), axis=1)))


@pytest.mark.parametrize("deg", [170.0, 179.0, 179.9, 180.1, 181.0, 190.0])
def test_analytic_half_path_from_a_point_off_its_plane_takes_its_angle_in_the_plane(deg):
    """``wrap_half`` on the ellipsoid of semi-axes (0.16, 0.08, 0.10) round the circle of its
    section by the plane of normal n ~ (0.4, -0.3, 1) at 0.9 from the centre (scaled frame,
    radius sqrt(1 - 0.81)) from p, at ``deg`` round it from b (both on the circle) and lifted 2 %
    of the radius off the plane (a held wrap placed in its group's plane, measured in its
    neighbours'), to b: the arc of the section's ellipse from b to p's part in the plane, the
    shorter way, to 2e-4 of it (measured 3e-5 to 1e-4: the 8-point quadrature's error), so
    continuous where p passes the point opposite b. Turned towards p's whole offset (the
    normal not given, as before), the arc ran over a circle tilted out of the plane: 127.0 mm
    at 179.9 deg and 133.1 at 180.1 (the section's 164.8 both), the 5th female human's 8.5 mm
    lap belt step (scenarios/HISTORY.md, pelvisjump)."""
    D, h = (0.16, 0.08, 0.10), 0.9
    n = np.array([0.4, -0.3, 1.0]) / np.linalg.norm([0.4, -0.3, 1.0])
    e1 = np.cross(n, [1.0, 0.0, 0.0]) / np.linalg.norm(np.cross(n, [1.0, 0.0, 0.0]))
    e2 = np.cross(n, e1)
    o, r = h * n, np.sqrt(1.0 - h * h)
    angle = np.radians(deg)
    b = np.asarray(D) * (o + r * e1)
    p = np.asarray(D) * (o + r * (np.cos(angle) * e1 + np.sin(angle) * e2) + 0.02 * r * n)
    length, _ = wrap_half(D, tuple(p), tuple(b), tuple(o), r, tuple(n))
    short = min(angle, 2.0 * np.pi - angle)
    way = e2 if angle <= np.pi else -e2
    assert length == pytest.approx(_ellipse_arc(D, o, r, e1, way, short), rel=2e-4)
