"""The parametric human's shoulder belt through its right (outboard) upper arm in the belted sled
(fmvss208_sled_48_belted, the clavicle route, the human's default since clavdefault), traced
(issue 11 section 4; branch armbelt, scenarios/HISTORY.md): measured on main 98637f78, held
here as measured, with the behaviour a fix must give as a strict xfail.

The arm flexes forward and swings inboard (its elbow from straight down to forward-inboard,
level with the shoulder at 100 ms) and its front-inboard face meets the piece of the shoulder
belt leaving the shoulder shell for the chest (83 ms, 50th male; 3.8 kN in that piece); nothing
makes the two touch, so the arm goes on through the belt until the belt lies on the arm's axis
(57.5 mm, its radius 58 mm, at 100 ms), the belt there on or just off the thorax's surface. The
arm's middle third goes deeper into the thorax too (40.5 mm at 100 ms, 21 mm at rest; the shoulder's
ellipsoids overlap at rest, scenarios/validation/HISTORY.md "The thorax's breadth", and the arm
and the thorax are not paired), so the arm's axis reaches the chest's surface where the belt
lies: a real arm there is held in front of the chest with the webbing between them. A belt-arm
interaction alone (``restraints.belt.barriers``: a barrier on the piece from the D-ring only;
this piece lies between the shoulder and chest wraps, where no barrier can yet be placed) would
leave the chest not holding the arm.
"""
import numpy as np
import pytest

from occupant.modeling.lattice import sphere_lattice
from occupant.restraints.belt_clearance import belt_at, surface_depths
from occupant.scenario import load
from occupant.scenario.defects import BELT_ALLOWANCE, motion_defects

ARM = "right_upper_arm_shell"
SIZES = {"50M": "occupant.human.sex=male",
         "5F": 'occupant.human={sex="female", percentile=5}',
         "95M": 'occupant.human={sex="male", percentile=95}'}


def _trace(run):
    """Every 1 ms: the depth of the shoulder belt's piece from the shoulder wrap to the chest wrap
    in the arm (nearest surface), its deepest point in the arm's scaled frame (x forward, y
    inboard, z up the humerus at rest) and in the thorax's (scaled radius), the piece's force,
    the elbow's direction from the shoulder in the thorax's frame and how deep the arm's middle
    third lies in the thorax (nearest surface, a 2000-point lattice)."""
    res = run.results
    t = np.asarray(res.t)
    names = [p.name for p in run.model.source.belts["belt"].points]
    U = sphere_lattice(2000)
    mid = np.abs(U[:, 2]) < 0.3
    rows = []
    for k in range(0, len(t), int(round(1e-3 / (t[1] - t[0])))):
        path, on, piece, chain, E = belt_at(run, "belt", k, [ARM, "thorax"])
        (ca, Ra, Da), (ct, Rt, Dt) = E[ARM], E["thorax"]
        d = np.where([names[p] == "shoulder" for p in piece], surface_depths(path, E[ARM]), -1.0)
        i = int(np.argmax(d))
        arm_surface = ca + (U[mid] * Da) @ Ra.T
        rows.append(dict(ms=1e3 * t[k], depth=d[i], u=(Ra.T @ (path[i] - ca)) / Da,
                         thorax_r=float(np.linalg.norm(((path[i] - ct) @ Rt) / Dt)),
                         force=float(res.outputs["belt.shoulder-chest.force"][k]),
                         elbow=Rt.T @ -Ra[:, 2],
                         arm_in_thorax=float(surface_depths(arm_surface, E["thorax"]).max())))
    return rows


@pytest.fixture(scope="module", params=list(SIZES))
def sled(request):
    run = load("fmvss208_sled_48_belted", [SIZES[request.param]]).run()
    assert run.results.status == "finished"
    return request.param, run, _trace(run)


def _arm_line(run):
    """(depth mm, piece, ms) of the run's belt line's entry for the arm, or None."""
    for d in motion_defects(run.model, run.results):
        if d.kind == "belt depth":
            if d.body == ARM:
                return 1e3 * d.value, d.element.split(".", 1)[1], 1e3 * d.t
            for body, depth, piece, t in d.also:
                if body == ARM:
                    return 1e3 * depth, piece, 1e3 * t
    return None


# the line as main 98637f78 names it: (depth mm, piece, ms); the shoulder-chest piece's deepest
# (mm, ms) where the line names the D-ring's; its first touch (ms); the arm's middle third in the
# thorax at rest and at that deepest (mm; 2000-point lattice)
LINES = {"50M": ((57.5, "shoulder-chest", 100.0), (57.5, 100.0), 83.0, (21.0, 40.5)),
         "5F": ((47.5, "d_ring-shoulder", 97.0), (39.1, 96.0), 85.0, (11.9, 25.4)),
         "95M": ((63.1, "shoulder-chest", 92.0), (63.1, 92.0), 78.0, (26.7, 76.9))}


def test_regression_sled_human_belt_line_in_the_right_upper_arm(sled):
    """Each size's belt line names the right upper arm: 50M 57.5 mm (shoulder-chest, 100 ms),
    5F 47.5 (d_ring-shoulder, 97 ms; its shoulder-chest piece 39.1 at 96 ms), 95M 63.1
    (shoulder-chest, 92 ms)."""
    size, run, rows = sled
    (depth, piece, ms), _, _, _ = LINES[size]
    got = _arm_line(run)
    assert got is not None
    assert got[0] == pytest.approx(depth, abs=3.0)
    assert got[1] == piece
    assert got[2] == pytest.approx(ms, abs=3.0)


def test_regression_sled_human_arm_swings_through_the_belt_to_its_axis(sled):
    """The shoulder-chest piece first meets the arm on its front-inboard face (scaled x, y both
    over 0.45, 50M (0.68, 0.72, -0.09) at 83 ms; 5F (0.68, 0.66, 0.00) at 85; 95M (0.78, 0.54,
    -0.16) at 78) while it carries 2.2-6.8 kN (50M 3.81, 5F 2.18, 95M 6.83), and at its deepest
    lies within a fifth of the arm's radius of its axis (50M 0.00, 5F 0.20, 95M 0.01), on or just
    off the thorax (scaled radius 1.16, 1.20, 1.00): the arm swung forward through it (elbow
    from straight down, forward component 0.11-0.37, to 0.71-0.87), its middle third deeper in
    the thorax than at rest (50M 21.0 -> 40.5 mm, 5F 11.9 -> 25.4, 95M 26.7 -> 76.9)."""
    size, run, rows = sled
    _, (deep, deep_ms), touch_ms, (rest, then) = LINES[size]
    first = next(r for r in rows if r["depth"] > 0.0)
    assert first["ms"] == pytest.approx(touch_ms, abs=3.0)
    assert first["u"][0] > 0.45 and first["u"][1] > 0.45 and abs(first["u"][2]) < 0.3
    assert first["force"] > 2.0e3
    k = int(np.argmax([r["depth"] for r in rows]))
    r = rows[k]
    assert 1e3 * r["depth"] == pytest.approx(deep, abs=3.0)
    assert r["ms"] == pytest.approx(deep_ms, abs=3.0)
    assert np.linalg.norm(r["u"][:2]) < 0.25
    assert 0.98 < r["thorax_r"] < 1.25
    assert rows[0]["elbow"][0] < 0.4 < 0.7 < r["elbow"][0]
    assert rows[0]["elbow"][2] < -0.9
    assert 1e3 * rows[0]["arm_in_thorax"] == pytest.approx(rest, abs=2.0)
    assert 1e3 * r["arm_in_thorax"] == pytest.approx(then, abs=3.0)


@pytest.mark.xfail(strict=True, reason="no contact between the shoulder belt and the upper arm, "
                   "nor between the upper arm and the thorax: the arm swings through the belt to "
                   "its axis (50M 57.5 mm, 5F 47.5, 95M 63.1; branch armbelt)")
def test_reference_sled_human_shoulder_belt_stays_on_the_arms_surface(sled):
    """A real belt lies on the arm (or stops it): no loaded belt piece more than the defect
    check's allowance (BELT_ALLOWANCE, 20 mm) inside the right upper arm."""
    size, run, rows = sled
    got = _arm_line(run)
    assert got is None or got[0] <= 1e3 * BELT_ALLOWANCE
