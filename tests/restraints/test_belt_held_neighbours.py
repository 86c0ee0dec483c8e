"""Two or more groups of wraps held across the belt on different ellipsoids
(``wrap_chain.place_held``): each is placed from the other's point, the middle of its arc, in six
Gauss-Seidel sweeps, not on the belt's path, where the straight piece between two groups is a
common tangent of both (as ``wrap_chain.place_chain`` places runs of wraps on their shortest
paths). Seen from that middle, the tangent point of a wrap whose straight piece to the other
nearly grazes its ellipsoid swings far for a small move of the other, and the sweeps' iterate
flips: us_ncap_frontal_56 with the shoulder belt held on the thorax and the pelvis flesh, the
chest wrap 8 mm in a sample, 1.50 kN (scenarios/HISTORY.md, beltpelvis). Placed from each
other's tangent points and swept to a fixed point (heldchain), or solved together on common
tangents (heldtangent), the groups fit closed forms on spheres, but neither is smooth in the
dummies (scenarios/HISTORY.md, heldchain and heldtangent; patches not committed)."""
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


def _circle(c, R, n, p):
    """The circle of the sphere (centre c, radius R) in the plane of normal n through p: (its
    centre, radius, unit normal)."""
    n = n / np.linalg.norm(n)
    o = c + ((p - c) @ n) * n
    return o, np.sqrt(R * R - np.linalg.norm(o - c) ** 2), n


def _arc(o, r, t, d, P, frac):
    """The arc of the circle (centre o, radius r) from its tangent point t, travelling the way
    d, whose point at ``frac`` of it is P: (P's angle from t, the arc's end, the way the belt
    leaves it there, P's distance off the circle)."""
    u = (t - o) / r
    v = d - (d @ u) * u
    v /= np.linalg.norm(v)
    theta = np.arctan2((P - o) @ v, (P - o) @ u) % (2.0 * np.pi)
    end = theta / frac
    return (theta, o + r * (np.cos(end) * u + np.sin(end) * v),
            -np.sin(end) * u + np.cos(end) * v, abs(np.linalg.norm(P - o) - r))


def _common_tangent_residuals(A, B, groups):
    """Closed form on spheres of a belt from the anchor A to the anchor B over held groups,
    ``groups`` = [(centre, radius, place, P, frac)]: each group's last wrap at P (B0), ``frac``
    of its arc, its plane through its place. Built from A: the first group's plane through
    its place, P and A, the belt reaching it at its tangent point from A (of the two, the one
    whose arc to P is shorter), P at ``frac`` of its arc gives the arc's end and the way the
    belt leaves it; each next group's plane holds its place and that straight piece, which
    must touch the group's circle (a common tangent: no kink where the piece leaves one group
    and reaches the next), P again at ``frac`` of its arc; the last piece must pass through B.
    Returns the misfits (m): P's distances off their spheres and circles, the pieces' gaps to
    the circles they reach, B's distance off the last piece; all zero on the belt's path."""
    misfits, x, d = [], A, None
    for c, R, place, P, frac in groups:
        misfits.append(abs(np.linalg.norm(P - c) - R))
        if d is None:
            o, r, n = _circle(c, R, np.cross(P - place, A - place), place)
            q = A - o
            e1 = q / np.linalg.norm(q)
            e2 = np.cross(n, e1)
            alpha = np.arccos(r / np.linalg.norm(q))
            arcs = [_arc(o, r, t, (t - A) / np.linalg.norm(t - A), P, frac)
                    for t in (o + r * (np.cos(alpha) * e1 + s * np.sin(alpha) * e2)
                              for s in (1.0, -1.0))]
            _, x, d, off = min(arcs, key=lambda arc: arc[0])
        else:
            o, r, n = _circle(c, R, np.cross(d, place - x), place)
            foot = x + ((o - x) @ d) * d
            assert (foot - x) @ d > 0.0        # the piece reaches the circle ahead
            misfits.append(abs(np.linalg.norm(foot - o) - r))
            _, x, d, off = _arc(o, r, foot, d, P, frac)
        misfits.append(off)
    w = B - x
    assert w @ d > 0.0
    misfits.append(np.linalg.norm(w - (w @ d) * d))
    return misfits


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


# Placed together on common tangents (the joins between held groups solved by Newton's method
# as ``wrap_chain.place_chain``'s between runs, each group's tangent points in the planes through
# its places), two groups fit the closed form to 2e-12 m, and three where the solve converges;
# in us_ncap_frontal_56 held on the thorax and the pelvis flesh the solved path is smooth up to
# 68.1 ms (steps 0.11 kN at most), then the join between the groups lies on both ellipsoids (their
# crease: no straight piece joins them), the solve does not converge and the belt steps up to
# 57 kN; the sled from 74.6 ms, 17 kN (scenarios/HISTORY.md, heldtangent; patch not committed).
# Placed from each other's arc middles in six sweeps (main), no group's piece is a common tangent.
COMMON_TANGENTS = pytest.mark.xfail(strict=True, reason="held groups placed from each other's arc "
                                    "middles in six sweeps, not on common tangents")


@COMMON_TANGENTS
@pytest.mark.parametrize("turn", [0.1, 0.2])
def test_analytic_two_held_groups_meet_on_a_common_tangent(turn):
    """The thorax group (shoulder and chest wraps) and the pelvis wrap, the chest wrap's place
    turned down and the pelvis wrap's up by ``turn`` (across the belt): the piece from the chest
    wrap's circle (its plane through its place and the D-ring, the chest wrap at 2/3 of its arc)
    touches the pelvis wrap's circle in the plane through its place and that piece, and the
    piece from it passes through the buckle (``_common_tangent_residuals``), to 1e-9 m
    (measured with the patch 2e-12 m). From each other's arc middles in six sweeps (main
    cc9a30f5) the misfit is 5.5e-3 and 5.6e-3 m: strict xfail (COMMON_TANGENTS)."""
    P, places = _placed(turn)
    groups = [(THORAX, R_THORAX, places["chest"], P["chest"], 2.0 / 3.0),
              (PELVIS, R_PELVIS, places["groin"], P["groin"], 0.5)]
    assert max(_common_tangent_residuals(P["d_ring"], P["buckle"], groups)) < 1e-9


@COMMON_TANGENTS
@pytest.mark.parametrize("groups, turn", [(2, 0.1), (2, 0.2), (3, 0.2)])
def test_analytic_chains_of_held_groups_meet_on_common_tangents(groups, turn):
    """Two and three held wraps, each on its own sphere, the spheres spaced evenly from the
    thorax's centre to the pelvis's (three overlap: 0.13 m apart, radius 0.12 m), the places
    turned across the belt by ``turn``: every piece between them a common tangent of their
    circles in the planes through their places, the last through the buckle
    (``_common_tangent_residuals``), to 1e-9 m (measured with the patch: 6e-12 m, 1e-12 m and
    2.3e-11 m). From each other's arc middles in six sweeps (main cc9a30f5): 1.2e-2, 1.6e-2 and
    6.9e-2 m. Limit: three groups with the places turned 0.1 rad did not converge with the
    patch (60 sweeps, the first join off both spheres at 1.14 of their radii, kink 0.33 rad;
    misfit 0.14 m; cause not found). Strict xfail (COMMON_TANGENTS)."""
    centres = [THORAX + f * (PELVIS - THORAX) for f in np.linspace(0.0, 1.0, groups)]
    P, places = _chain(centres, turn)
    held = [(c, R_THORAX, places[g], P[g + 1], 0.5) for g, c in enumerate(centres)]
    assert max(_common_tangent_residuals(P[0], P[-1], held)) < 1e-9
