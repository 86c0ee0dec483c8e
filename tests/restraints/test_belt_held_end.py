"""A held wrap next to a run of wraps on their shortest path is placed from the run's tangent
point towards it (``wrap_chain.held_end``), not from the run's point, the middle of its arc."""
import numpy as np
import pytest

from occupant.integrate.pipeline import evaluate
from occupant.modeling import Assembly, Ellipsoid, Joint, Marker, Part, Pose
from occupant.modeling.belts import Anchor, Belt, Webbing, Wrap
from occupant.restraints import fit_belts

LINEAR = Webbing([(0.0, 0.0), (0.1, 16000.0)])
R_THORAX, THORAX = 0.12, np.array([0.0, 0.0, 0.25])
R_ABDOMEN, ABDOMEN = 0.12, np.array([0.08, 0.02, 0.0])
D_RING, BUCKLE = np.array([-0.25, -0.33, 0.45]), np.array([0.15, 0.10, -0.2])


def _spheres():
    """GS1's shoulder belt in miniature on spheres: from an anchor behind and above over two wraps
    on their shortest path on a thorax and a wrap held across the belt on an abdomen below it,
    to an anchor below and in front."""
    asm = Assembly("held_end")
    asm.add(Part("body", 10.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("slide", "prismatic", None, "body", Pose()))
    add_spheres_and_belt(asm, "body", "body")
    return asm.compile()


def add_spheres_and_belt(asm, thorax_part, abdomen_part):
    """The thorax and abdomen spheres on their parts and the belt from the anchor behind and
    above over them (two wraps on the thorax, one held across the belt on the abdomen) to the
    anchor below and in front."""
    asm.add(Marker("upper", thorax_part, tuple(THORAX)))
    asm.add(Marker("lower", abdomen_part, tuple(ABDOMEN)))
    asm.add(Ellipsoid("thorax", "upper", (R_THORAX,) * 3))
    asm.add(Ellipsoid("abdomen", "lower", (R_ABDOMEN,) * 3))
    asm.add(Belt("belt", [Anchor("d_ring", tuple(D_RING)),
                          Wrap("shoulder", "thorax"), Wrap("chest", "thorax"),
                          Wrap("abdomen", "abdomen", across=0.3),
                          Anchor("buckle", tuple(BUCKLE))], LINEAR, pretension=10.0))


def _tangent_point(a, b):
    """The tangent point seen from b of the wrap from a to b over the thorax sphere round its
    front (the side the wraps declare, +x; the short way runs over its back): in the plane
    through a, b and the centre, at the angle arccos(R / |b - c|) from b's direction, away from
    a's [closed form]."""
    ub = (b - THORAX) / np.linalg.norm(b - THORAX)
    e = (a - THORAX) - ((a - THORAX) @ ub) * ub
    e /= np.linalg.norm(e)
    alpha = np.arccos(R_THORAX / np.linalg.norm(b - THORAX))
    return THORAX + R_THORAX * (np.cos(alpha) * ub - np.sin(alpha) * e)


def _placed_across():
    """The belt on ``_spheres`` fitted, the held abdomen wrap's place turned off its point (up,
    across the belt) and evaluated once: ({point name: its place in B0}, the wrap's place)."""
    model = _spheres()
    z = fit_belts(model, [0.0])
    jz = model.belts.point_z[3]
    u = z[jz:jz + 3] + np.array([0.0, 0.0, 0.1])     # the place turned up, across the belt
    z[jz:jz + 3] = u / np.linalg.norm(u)
    bundle, data = model.bundle(base_table=None), model.make_data()
    evaluate(bundle, data, 0.0, np.zeros(1), np.zeros(1), z, 0.0)
    i = model.output_names.index
    P = {n: np.array([data.outputs[i(f"belt.{n}.{a}")] for a in "xyz"])
         for n in ("d_ring", "shoulder", "chest", "abdomen")}
    return P, ABDOMEN + R_ABDOMEN * z[jz:jz + 3]


def test_analytic_held_wrap_lies_in_the_plane_through_the_runs_tangent_point():
    """The held abdomen wrap, its place turned off its point (across the belt), lies on the
    abdomen in the plane through its place, the buckle and the thorax run's tangent point
    towards it (closed form on the sphere, from the D-ring and the abdomen wrap as placed), to
    1e-12 m. Placed from the chest wrap's point (the run's second point, two thirds along its
    arc) it lay 3.0e-5 m off this plane (main 93f7a72, measured)."""
    P, place = _placed_across()
    T = _tangent_point(P["d_ring"], P["abdomen"])
    assert T[0] > THORAX[0] and np.linalg.norm(T - P["chest"]) > 0.02
    normal = np.cross(T - place, BUCKLE - place)
    normal /= np.linalg.norm(normal)
    assert np.linalg.norm(P["abdomen"] - ABDOMEN) == pytest.approx(R_ABDOMEN, abs=1e-12)
    assert abs((P["abdomen"] - place) @ normal) < 1e-12


def _abdomen_arc(P, place):
    """Closed form on the abdomen sphere: its held wrap's circle (the plane through its place, its
    point P and the buckle, which the wrap lies in) and, P the middle of its arc, the arc's
    tangent point t_a towards the thorax (the reflection about P of the buckle's tangent point
    t_b) and the belt's unit direction u there, along the arc from t_a to t_b: (t_a, u)."""
    n = np.cross(P - place, BUCKLE - place)
    n /= np.linalg.norm(n)
    o = ABDOMEN + ((place - ABDOMEN) @ n) * n
    r = np.sqrt(R_ABDOMEN**2 - np.linalg.norm(o - ABDOMEN) ** 2)
    e1 = (P - o) / np.linalg.norm(P - o)
    e2 = np.cross(n, e1)

    def at(phi):
        return o + r * (np.cos(phi) * e1 + np.sin(phi) * e2)

    q = BUCKLE - o
    to_b = np.arctan2(q @ e2, q @ e1)
    for sign in (1.0, -1.0):           # the buckle's tangent point ahead along the arc from P
        phi_b = (to_b - sign * np.arccos(r / np.linalg.norm(q)) + np.pi) % (2.0 * np.pi) - np.pi
        ahead = np.sign(phi_b) * (-np.sin(phi_b) * e1 + np.cos(phi_b) * e2)
        if (BUCKLE - at(phi_b)) @ ahead > 0.0:
            u = np.sign(phi_b) * (np.sin(phi_b) * e1 + np.cos(phi_b) * e2)
            return at(-phi_b), u
    raise AssertionError("no tangent point from the buckle ahead of the wrap's point")


def _slerp(c, p, q, t):
    """The point t of the way along the great circle arc from p to q on the sphere centred c."""
    u, v = (p - c) / np.linalg.norm(p - c), (q - c) / np.linalg.norm(q - c)
    w = np.arccos(np.clip(u @ v, -1.0, 1.0))
    return c + np.linalg.norm(p - c) * (np.sin((1 - t) * w) * u + np.sin(t * w) * v) / np.sin(w)


# held_end places a held group from a run's tangent point seen from the group's point (the middle
# of its arc), and the run from that point: not their common tangent. Solved for the common
# tangent (branch tangentpiece, stop 48, commits 2d03c59-53843ca, reverted) this test and the
# TANGENT_PIECE tests of test_belt_held_wraps.py pass and the shipped scenarios stay identical to
# the bit, but GS1's shoulder belt flips between two paths from 146.7 ms (the thorax run and the
# abdomen wrap 16-27 mm a sample, the shoulder-chest segment stepping 6.9 kN; scenarios/
# HISTORY.md, tangentpiece)
COMMON_TANGENT = pytest.mark.xfail(strict=True, reason="a held group and a run placed from each "
                                   "other's arc middles, not their common tangent")


@COMMON_TANGENT
def test_analytic_held_wrap_and_run_meet_on_their_common_tangent():
    """The held abdomen wrap, its place turned off its point (across the belt), and the thorax
    run before it meet on a common tangent: the straight piece that leaves the abdomen's arc at
    its tangent point t_a (``_abdomen_arc``, from the wrap's point and place as placed, closed
    form) along the arc's direction there touches the thorax at the run's tangent point seen
    from t_a (``_tangent_point``), and the run's wraps lie at a third and two thirds of its arc
    from the D-ring's tangent point to that one: to 1e-9 m. Placed from the run's tangent
    point seen from the abdomen wrap's point (``held_end``, the middle of its arc; main c806109)
    the piece misses it (its direction 2.6e-4 off the arc's at t_a): strict xfail
    (COMMON_TANGENT); solved for the common tangent (branch tangentpiece, reverted) it passes."""
    P, place = _placed_across()
    assert np.linalg.norm(P["abdomen"] - ABDOMEN) == pytest.approx(R_ABDOMEN, abs=1e-12)
    t_a, along = _abdomen_arc(P["abdomen"], place)
    T = _tangent_point(P["d_ring"], t_a)
    assert T[0] > THORAX[0] and np.linalg.norm(T - P["chest"]) > 0.02
    np.testing.assert_allclose((t_a - T) / np.linalg.norm(t_a - T), along, atol=1e-9)
    T_d = _tangent_point(t_a, P["d_ring"])
    np.testing.assert_allclose(P["shoulder"], _slerp(THORAX, T_d, T, 1.0 / 3.0), atol=1e-9)
    np.testing.assert_allclose(P["chest"], _slerp(THORAX, T_d, T, 2.0 / 3.0), atol=1e-9)
