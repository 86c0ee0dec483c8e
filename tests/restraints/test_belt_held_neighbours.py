"""Two groups of wraps held across the belt on two ellipsoids (``wrap_chain.place_held``): each
is placed from the other's point, the middle of its arc, not from the other's tangent point
towards it as a held group is from a run of wraps on their shortest path (``wrap_chain.held_end``;
tests/restraints/test_belt_held_end.py). Seen from that middle, the tangent point of a wrap whose
straight piece to the other nearly grazes its ellipsoid swings far for a small move of the other,
and the sweeps' iterate flips: us_ncap_frontal_56 with the shoulder belt held on the thorax and
the pelvis flesh, the chest wrap 8 mm in a sample, 1.50 kN (scenarios/HISTORY.md, beltpelvis).
Placed from each other's tangent points and swept until they stand still, two and three groups
lie in their planes (branch heldchain, patch not committed: scenarios/HISTORY.md, heldchain)."""
import numpy as np
import pytest

from occupant.integrate.pipeline import evaluate
from occupant.modeling import Assembly, Ellipsoid, Joint, Marker, Part, Pose
from occupant.modeling.belts import Anchor, Belt, Webbing, Wrap
from occupant.restraints import fit_belts

LINEAR = Webbing([(0.0, 0.0), (0.1, 16000.0)])
R_THORAX, THORAX = 0.12, np.array([0.0, 0.0, 0.25])
R_PELVIS, PELVIS = 0.12, np.array([0.08, 0.02, 0.0])
D_RING, BUCKLE = np.array([-0.25, -0.33, 0.45]), np.array([0.15, 0.10, -0.2])
NAMES = ("d_ring", "shoulder", "chest", "groin", "buckle")


def _placed(turn):
    """A shoulder belt in miniature on spheres: from an anchor behind and above over two wraps
    held across the belt on a thorax and one held on a pelvis below it, to an anchor below and
    in front; fitted, the chest wrap's place turned down and the pelvis wrap's up by ``turn``
    (across the belt), evaluated once: ({point name: B0 point}, {wrap name: its place in B0})."""
    asm = Assembly("held_neighbours")
    asm.add(Part("body", 10.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("slide", "prismatic", None, "body", Pose()))
    asm.add(Marker("upper", "body", tuple(THORAX)))
    asm.add(Marker("lower", "body", tuple(PELVIS)))
    asm.add(Ellipsoid("thorax", "upper", (R_THORAX,) * 3))
    asm.add(Ellipsoid("pelvis", "lower", (R_PELVIS,) * 3))
    asm.add(Belt("belt", [Anchor("d_ring", tuple(D_RING)),
                          Wrap("shoulder", "thorax", across=0.3),
                          Wrap("chest", "thorax", across=0.3),
                          Wrap("groin", "pelvis", across=0.3),
                          Anchor("buckle", tuple(BUCKLE))], LINEAR, pretension=10.0))
    model = asm.compile()
    z = fit_belts(model, [0.0])
    for k, sign in ((2, -1.0), (3, 1.0)):
        jz = model.belts.point_z[k]
        u = z[jz:jz + 3] + np.array([0.0, 0.0, sign * turn])
        z[jz:jz + 3] = u / np.linalg.norm(u)
    bundle, data = model.bundle(base_table=None), model.make_data()
    evaluate(bundle, data, 0.0, np.zeros(1), np.zeros(1), z, 0.0)
    i = model.output_names.index
    P = {n: np.array([data.outputs[i(f"belt.{n}.{a}")] for a in "xyz"]) for n in NAMES}
    places = {n: c + R * z[model.belts.point_z[k]:model.belts.point_z[k] + 3]
              for k, n, c, R in ((1, "shoulder", THORAX, R_THORAX), (2, "chest", THORAX, R_THORAX),
                                 (3, "groin", PELVIS, R_PELVIS))}
    return P, places


def _tangent_point(c, R, place, a, b, near):
    """Closed form on the sphere (centre c, radius R): the wrap's circle in the plane through
    ``place``, a and b, and the tangent point on it seen from b nearer the point ``near`` (the
    end of the wrap's arc on b's side)."""
    n = np.cross(a - place, b - place)
    n /= np.linalg.norm(n)
    o = c + ((place - c) @ n) * n
    r = np.sqrt(R * R - np.linalg.norm(o - c) ** 2)
    q = b - o
    e1 = q / np.linalg.norm(q)
    e2 = np.cross(n, e1)
    alpha = np.arccos(r / np.linalg.norm(q))
    ends = [o + r * (np.cos(alpha) * e1 + s * np.sin(alpha) * e2) for s in (1.0, -1.0)]
    return min(ends, key=lambda t: np.linalg.norm(t - near))


def _off_plane(x, p, q, s):
    """Distance (m) of x from the plane through p, q and s."""
    n = np.cross(q - p, s - p)
    return abs((x - p) @ n) / np.linalg.norm(n)


# Placed from each other's tangent points (``held_end`` taking a held neighbour group's tangent
# point as it does a run's) and swept until no wrap moves 1e-12 m (40 sweeps at most), both tests
# pass (5e-15 m) and the four shipped frontal runs stay bit-identical, but in us_ncap_frontal_56
# held on thorax + pelvis flesh the converged placement steps 0.80 kN (0.21 in six sweeps) and the
# sled 9.2 kN: the fixed point folds where a held group's hook is being handed over to the line
# (scenarios/HISTORY.md, heldchain and beltpelvis)
TANGENT_ENDS = pytest.mark.xfail(strict=True, reason="held groups placed from each other's arc "
                                 "middles in six sweeps, not their tangent points to a fixed point")


@TANGENT_ENDS
@pytest.mark.parametrize("turn", [0.1, 0.2])
def test_analytic_held_groups_lie_in_the_planes_through_each_others_tangent_points(turn):
    """The chest wrap's place turned down and the pelvis wrap's up by ``turn`` (across the belt):
    the pelvis wrap lies in the plane through its place, the buckle and the thorax group's
    tangent point towards it (closed form: on the chest wrap's circle through its place, the
    D-ring and the pelvis wrap's point), and the chest wrap in the plane through its place, the
    D-ring and the pelvis wrap's tangent point towards it (its circle through its place, the
    buckle and the chest wrap's point), to 1e-9 m (measured: 3e-14 m). Placed from each
    other's points, the middles of their arcs (main 437fabc9), the pelvis wrap lay 3.0e-5 and
    2.4e-5 m off its plane and the chest wrap 5.1e-6 and 3.6e-6 m off its: strict xfail
    (TANGENT_ENDS)."""
    P, places = _placed(turn)
    for n, c, R in (("shoulder", THORAX, R_THORAX), ("chest", THORAX, R_THORAX),
                    ("groin", PELVIS, R_PELVIS)):
        assert np.linalg.norm(P[n] - c) == pytest.approx(R, abs=1e-12)
    T = _tangent_point(THORAX, R_THORAX, places["chest"], P["d_ring"], P["groin"], P["chest"])
    G = _tangent_point(PELVIS, R_PELVIS, places["groin"], P["buckle"], P["chest"], P["groin"])
    assert np.linalg.norm(T - P["chest"]) > 0.01 and np.linalg.norm(G - P["groin"]) > 0.01
    assert _off_plane(P["groin"], places["groin"], BUCKLE, T) < 1e-9
    assert _off_plane(P["chest"], places["chest"], D_RING, G) < 1e-9


def _chain(centres, turn):
    """A belt over one held wrap on each sphere of radius R_THORAX at ``centres`` (top to bottom)
    from the D-ring to the buckle, fitted, each wrap's place turned across the belt by ``turn``
    (alternately down and up), evaluated once: (its points D-ring to buckle, its wraps' places;
    B0)."""
    asm = Assembly("held_chain")
    asm.add(Part("body", 10.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("slide", "prismatic", None, "body", Pose()))
    wraps = []
    for g, c in enumerate(centres):
        asm.add(Marker(f"m{g}", "body", tuple(c)))
        asm.add(Ellipsoid(f"e{g}", f"m{g}", (R_THORAX,) * 3))
        wraps.append(Wrap(f"w{g}", f"e{g}", across=0.3))
    asm.add(Belt("belt", [Anchor("d_ring", tuple(D_RING)), *wraps, Anchor("buckle", tuple(BUCKLE))],
                 LINEAR, pretension=10.0))
    model = asm.compile()
    z = fit_belts(model, [0.0])
    for g in range(len(centres)):
        jz = model.belts.point_z[g + 1]
        u = z[jz:jz + 3] + np.array([0.0, 0.0, (-1.0) ** (g + 1) * turn])
        z[jz:jz + 3] = u / np.linalg.norm(u)
    bundle, data = model.bundle(base_table=None), model.make_data()
    evaluate(bundle, data, 0.0, np.zeros(1), np.zeros(1), z, 0.0)
    i = model.output_names.index
    P = [np.array([data.outputs[i(f"belt.{n}.{a}")] for a in "xyz"])
         for n in ("d_ring", *(w.name for w in wraps), "buckle")]
    places = [c + R_THORAX * z[model.belts.point_z[g + 1]:model.belts.point_z[g + 1] + 3]
              for g, c in enumerate(centres)]
    return P, places


def _chain_off_planes(centres, turn):
    """How far (m) each held wrap of ``_chain`` lies off the plane through its place and the
    tangent points of its neighbours towards it (closed form, ``_tangent_point``; an anchor its
    own point), the D-ring's and the buckle's ends fixed."""
    P, places = _chain(centres, turn)
    ends = []
    for g, c in enumerate(centres):
        assert np.linalg.norm(P[g + 1] - c) == pytest.approx(R_THORAX, abs=1e-12)
        up = P[0] if g == 0 else _tangent_point(centres[g - 1], R_THORAX, places[g - 1], P[g - 1],
                                                P[g + 1], P[g])
        down = P[-1] if g == len(centres) - 1 else _tangent_point(
            centres[g + 1], R_THORAX, places[g + 1], P[g + 3], P[g + 1], P[g + 2])
        ends.append(_off_plane(P[g + 1], places[g], up, down))
    return ends


@TANGENT_ENDS
@pytest.mark.parametrize("groups", [2, 3])
@pytest.mark.parametrize("turn", [0.1, 0.2])
def test_analytic_chains_of_held_groups_lie_in_the_planes_through_their_neighbours_tangents(
        groups, turn):
    """Two and three held wraps, each on its own sphere, the spheres spaced evenly from the
    thorax's centre to the pelvis's (three overlap: 0.13 m apart, radius 0.12 m; every wrap
    outside its neighbours' spheres, measured 31 mm at least), the places turned across the belt
    by ``turn``: every wrap in the plane through its place and its neighbours' tangent points
    towards it (closed form), to 1e-9 m (measured 5e-15 m at most). Placed from each other's arc
    middles in six sweeps (main 437fabc9) they lay 2e-6 to 3.5e-3 m off; from each other's
    tangent points in six sweeps, three groups' middle wrap 2.4e-4 and 2.5e-2 m off (the
    sweeps not converged: ``wrap_chain.HELD_STILL``). Limit: four such spheres over the same
    length put a wrap inside its neighbour's sphere, where no tangent point exists. Strict xfail
    (TANGENT_ENDS)."""
    centres = [THORAX + f * (PELVIS - THORAX) for f in np.linspace(0.0, 1.0, groups)]
    assert max(_chain_off_planes(centres, turn)) < 1e-9
