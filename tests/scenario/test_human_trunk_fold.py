"""The parametric human's trunk in the belted 48 km/h sled (fmvss208_sled_48_belted with
``occupant.human.sex=male``; issue 14 sections 1 and 4, branch trunkdamp): its pelvis tilts forward
about the hips under the lap belt far more than the Hybrid III's, springs back in the rebound while
the upper torso pitches on, and the two lumbar joints fold onto their flexion curve's end slope
(data/joint_passive.toml; scenarios/validation/HISTORY.md, lumbarfold and trunkdamp). Measured,
not fixed: the fold is held as a strict xfail against the PMHS failure moment.
Since branch clavdefault the human's shoulder belt lies over his clavicle and sternum with a wrap
over his abdomen (the human's default route; before, on the thorax's shortest path, round the back
of his neck): the pelvis tilts 21.9 deg by 80 ms, not 44.4, and the figures below are re-measured
with it on main 428902a3 + clavdefault (the old route's in each docstring)."""
import numpy as np
import pytest

from occupant.scenario import load
from tests.human.test_human_joints import BELWADI_YANG_FAILURE

SCENARIO = "fmvss208_sled_48_belted"
HUMAN = "occupant.human.sex=male"
LAP_POINTS = ("buckle", "hip_inboard", "lap", "hip_outboard", "lap_anchor")


def _belt_segments(model):
    """The belt's segments' force outputs, from its points (the clavicle route adds an abdomen
    wrap between the chest and the buckle)."""
    names = [p.name for p in model.source.belts["belt"].points]
    return [f"belt.{a}-{b}.force" for a, b in zip(names[:-1], names[1:])]


def _run(*overrides):
    s = load(SCENARIO, list(overrides))
    run = s.run()
    assert run.results.status == "finished"
    return s.model, run.results


def _pelvis_tilt_deg(model, res):
    """The pelvis's forward tilt (deg, top forward positive) from its start, about the sled's y."""
    R = res.body_poses[:, model.body("pelvis"), :3, :3]
    rel = np.einsum("nij,kj->nik", R, R[0])
    return np.degrees(np.arctan2(rel[:, 0, 2], rel[:, 0, 0]))


@pytest.fixture(scope="module")
def human():
    return _run(HUMAN)


def _at(t, ms):
    return int(np.argmin(abs(t - ms / 1e3)))


def _flexion(res, joint):
    """(moment N m, flexion positive; angle deg) of a lumbar joint's flexion coordinate."""
    out = res.outputs
    return -np.asarray(out[f"{joint}_y.load"]), np.degrees(np.asarray(out[f"{joint}_y.deflection"]))


def test_regression_fmvss208_human_pelvis_tilts_forward_where_the_dummy_does_not(human, pelvis_moments):
    """The human's pelvis tilts forward 44.4 deg by 80 ms (the Hybrid III 50M's in the same sled at
    most 3.9 deg by 100 ms), its lap belt held in place on it (53 mm above the hips' centre, 123 mm
    ahead, in the pelvis's axes, from 0 to 100 ms; the dummy's 86 mm above its hips): the trunk,
    its upper torso held by the shoulder belt, thrusts forward on the pelvis at the lumbar-pelvis
    joint 0.13-0.15 m above the hips (+573 N m about them on average over 60-90 ms), the pelvis's
    mass decelerating with its hips adds +108 and the seat pan's normal force +111, while the lap
    belt, whose line to its anchor passes 20 mm from the hips' axis at the start and 7 mm on the
    other side at 80 ms, resists less and less as the pelvis turns (-166 N m over 50-60 ms, -15
    over 80-90); the pan's friction (-288 over 60-90 ms), the lumbar joint's extension (-357: the
    PMHS extension table, the lumbar-pelvis joint 19.0 deg extended at 80 ms) and the hips'
    flexion curve (-316 over 80-90 ms) stop it. Measured on main 25816b95 (scenarios/validation/
    HISTORY.md, trunkdamp); the moments are tests/conftest.py's pelvis_moments_about_the_hips, +
    tilting forward. With the belt over the clavicle (branch clavdefault), the upper torso held
    at the shoulder and the abdomen: the pelvis tilts 25.7 deg at most (66.7 ms), 21.9 at 80 ms
    (GS1's PMHS 13.5-27.4 at most), the lap belt 53 mm above the hips and 123 ahead as before;
    over 50-60 ms, while it tilts, the trunk's thrust at the lumbar joint (+184 N m), the
    pelvis's decelerating mass (+124) and the pan's normal force (+79) against the lap belt
    (-186) and the pan's friction (-201); over 80-90 ms the lap belt still resists (-113, its
    leg's line 8.5 mm above the hips' axis at 80 ms) with the hips (-51)."""
    model, res = human
    t = res.t
    tilt = _pelvis_tilt_deg(model, res)
    assert tilt[_at(t, 80)] == pytest.approx(21.9, abs=1.5)
    assert tilt.max() == pytest.approx(25.7, abs=1.5)
    dummy_model, dummy_res = _run()
    early = dummy_res.t <= 0.1
    assert np.max(abs(_pelvis_tilt_deg(dummy_model, dummy_res)[early])) < 5.0
    pairs = sorted({k.rsplit(".", 1)[0] for k in res.outputs if k.endswith(".normal_force")})
    contacts = [tuple(p.split("__")) for p in pairs
                if p.split("__")[0] in ("buttock", "pelvis_flesh")]
    M, _, tm = pelvis_moments(model, res, contacts, "belt", LAP_POINTS)

    def mean(key, a, b):
        w = (tm >= a / 1e3) & (tm < b / 1e3)
        return float(np.mean(np.broadcast_to(M[key], tm.shape)[w]))
    assert 150.0 < mean("lumbar joint force", 50, 60) < 220.0
    assert mean("hips' deceleration", 50, 60) > 100.0
    assert mean("lap belt", 50, 60) < -140.0 and mean("seat friction", 50, 60) < -150.0
    assert -150.0 < mean("lap belt", 80, 90) < -80.0
    assert mean("hips", 80, 90) < -30.0


def test_regression_fmvss208_human_lumbar_fold_in_the_rebound(human):
    """In the rebound, the belts slack (every segment under 10 N over 105-130 ms), the pelvis turns
    back from 44.4 deg of forward tilt at 80 ms to 4.3 at 130 while the upper torso pitches on
    forward (-3.1 -> 33.1 deg): the chain of the two lumbar joints (18.9 + 6.2 = 25.1 deg flexed as
    seated) reaches its flexion wall, 50 deg of the chain (moment_cap: 20.3 and 29.6 deg of the
    joints), and the two joints take the load in turn, the lumbar segment's rotation between them
    bouncing (thorax-lumbar 496 N m at 114 ms, lumbar-pelvis 1042 at 124.0 (34.2 deg),
    thorax-lumbar 1436 at 129.3 (25.1 deg), lumbar-pelvis 675 at 134), inside their ranges (44.5,
    30.5 deg). The bounce is the model's motion, not the integrator's: with half the step (5 us)
    and with rk4 the peaks are the same within 2 N m and 0.1 ms (scenarios/validation/HISTORY.md,
    trunkdamp). Measured on main 25816b95 (lumbarfold: 1436 and 1042 N m). With the belt over
    the clavicle (branch clavdefault) the fold comes earlier, in the belt: the pelvis turns back
    from 25.7 deg (66.7 ms) to 3.2 at 115 ms while the upper torso pitches on (5.7 deg at 80 ms,
    37.3 at 110), the shoulder belt still carrying 1.8 kN at 105 ms and 1.25 at 115 (slack, every
    segment under 10 N, from 138 ms), and the joints fold onto their walls in turn:
    thorax-lumbar 1082 N m at 111.5 ms (23.6 deg), lumbar-pelvis 1002 at 116.7 (33.9 deg),
    thorax-lumbar again 1029 at 122.1; the pelvis at 10.0 deg at 130 ms."""
    model, res = human
    t = res.t
    shoulder = np.asarray(res.outputs["belt.d_ring-shoulder.force"])
    assert shoulder[_at(t, 105)] == pytest.approx(1787.0, rel=0.1)
    assert shoulder[_at(t, 115)] == pytest.approx(1250.0, rel=0.1)
    for seg in _belt_segments(model):
        if seg == "belt.buckle-hip_inboard.force":   # still 12.5 N: the shins held under the
            # knee bolster's lower edge since crushshare (scenarios/HISTORY.md), 0 N at main
            assert res.outputs[seg][_at(t, 150)] == pytest.approx(12.5, rel=0.1), seg
            continue
        assert res.outputs[seg][_at(t, 150)] < 10.0, seg
    tilt = _pelvis_tilt_deg(model, res)
    assert tilt[_at(t, 115)] == pytest.approx(3.2, abs=1.5)
    assert tilt[_at(t, 130)] == pytest.approx(10.0, abs=1.5)
    for joint, moment, ms, deg, cap_deg, range_deg in (
            ("lumbar_pelvis", 1002.0, 116.7, 33.9, 29.6, 44.5),
            ("thorax_lumbar", 1082.0, 111.5, 23.6, 20.3, 30.5)):
        m, x = _flexion(res, joint)
        i = int(np.argmax(m))
        assert m[i] == pytest.approx(moment, rel=0.1), joint
        assert t[i] * 1e3 == pytest.approx(ms, abs=2.0), joint
        assert cap_deg < x[i] < range_deg and x[i] == pytest.approx(deg, abs=1.0), joint


@pytest.mark.xfail(strict=True, reason=(
    "the belted human's lumbar joints fold to 1082 N m (thorax-lumbar, 111.5 ms) and 1002 N m "
    "(lumbar-pelvis, 116.7 ms) with his belt over his clavicle (the default since clavdefault; "
    "1436 and 1042 in the rebound on the thorax's shortest path), far above Belwadi & Yang's 140.4 N m: "
    "the pelvis springs back from 44.4 deg of forward tilt (the lap belt's line near the hips' "
    "axis, the trunk's thrust above them) while the upper torso pitches on, the belts slack. Not "
    "ended by damping: the ATB volunteer deck's trunk damping (3.98 / 2.73 N m s/rad, not "
    "adopted) leaves 762 / 511 N m, 20 N m s/rad (no source) 423 / 283, 90 % hysteresis on the "
    "joints' flexion-extension 1033 / 629 (scenarios/validation/HISTORY.md, trunkdamp)"))
def test_reference_fmvss208_human_lumbar_moments_under_the_pmhs_failure(human):
    """The human's lumbar joints stay under the PMHS lumbar segment's failure moment in flexion,
    Belwadi & Yang's 140.4 N m plus two standard deviations (18.4 N m): a joint carrying more
    would have broken in a PMHS, and no trunk muscles are in the model to carry it."""
    _, res = human
    bound = BELWADI_YANG_FAILURE["flexion"][0] + 2.0 * 18.4
    for joint in ("thorax_lumbar", "lumbar_pelvis"):
        m, _ = _flexion(res, joint)
        assert np.max(m) < bound, (joint, float(np.max(m)))


# Why the pelvis tilts 44 deg (branch pelvistilt, scenarios/validation/HISTORY.md): the lap belt
# bears on lap_belt_pelvis (occupant.scenario.restraints: the Hybrid III's belt ellipsoid scaled to
# the human's pelvis flesh) and on nothing else; held on it, it turns down with the pelvis and its
# pieces sink through the thigh shells, which the belt does not touch.
THIGHS = ("left_thigh_shell", "right_thigh_shell")
AT_THE_ASIS = "restraints.belt.pelvis=asis_flesh"   # the human's own tissue round its ASIS


def _lap_in_thighs_mm(model, res, ms):
    """mm: how deep the lap belt's pieces (buckle to lap anchorage) lie inside either thigh shell
    at ``ms`` (occupant.restraints.belt_clearance.belt_depths: its path rebuilt from its points)."""
    from types import SimpleNamespace

    from occupant.restraints.belt_clearance import belt_depths
    names = [p.name for p in model.source.belts["belt"].points]
    lap = list(range(names.index("buckle"), names.index("lap_anchor")))
    d = belt_depths(SimpleNamespace(model=model, results=res), "belt", _at(res.t, ms), THIGHS, lap)
    return 1e3 * max(d.values())


def _lap_place(model, res, point="lap"):
    """(in the pelvis's axes, in the sled's axes) of a lap belt point relative to the hips' centre,
    m, per sample (x forward, z up)."""
    out, P = res.outputs, res.body_poses[:, model.body("pelvis")]
    Rb = res.base_poses[:, :3, :3]
    hips = np.einsum("nji,nj->ni", Rb, P[:, :3, 3] - res.base_poses[:, :3, 3])
    R = np.einsum("nji,njk->nik", Rb, P[:, :3, :3])
    x = np.stack([np.asarray(out[f"belt.{point}.{a}"]) for a in "xyz"], 1) - hips
    return np.einsum("nji,nj->ni", R, x), x


def _leg_above_the_hips_mm(model, res, ms):
    """mm: how far the outboard leg's line (hip_outboard wrap to the lap anchorage) passes above
    and ahead of the hips' axis in the sled's side view (> 0: the belt's pull tilts the pelvis
    back)."""
    k = _at(res.t, ms)
    a, b = _lap_place(model, res, "hip_outboard")[1][k], _lap_place(model, res, "lap_anchor")[1][k]
    d = b - a
    return 1e3 * (a[0] * d[2] - a[2] * d[0]) / np.hypot(d[0], d[2])


def test_regression_fmvss208_human_lap_belt_turns_down_with_the_pelvis_into_the_thighs(human):
    """The lap belt keeps its place on the human's pelvis (its middle 123 mm ahead of and 53 mm
    above the hips' centre in the pelvis's axes at 0 and 80 ms: 58 mm ahead of and 21 mm below the
    human's ASIS, on lap_belt_pelvis, the Hybrid III's belt ellipsoid scaled by 0.795 with its
    crown at the Hybrid III's ASIS height, 86.5 mm above the hips) and turns down with it: in the
    sled's axes 121 mm above the hips at the start (the Hybrid III's 135), 47 mm at 80 ms; the
    outboard leg's line to the anchorage 22.2 mm above the hips' axis at the start (the dummy's
    20.5), 6.4 mm below it at 80 ms (the dummy's, its pelvis turning 3 deg, rises to 63.8). The belt
    touches nothing but that ellipsoid: its pieces lie 7 mm inside the inboard thigh shell at the
    start, 94-99 mm inside both at 60-80 ms. Measured on main 25f527ad (branch pelvistilt). With
    the belt over the clavicle (branch clavdefault) it turns down less with the pelvis (21.9
    deg): 92.5 mm above the hips at 80 ms, the leg's line 8.5 mm above their axis, the pieces
    79.4 mm inside the thighs at 60 ms, 89.1 at 80 (94.5 at 70)."""
    model, res = human
    in_pelvis, in_sled = _lap_place(model, res)
    for ms in (0, 80):
        k = _at(res.t, ms)
        assert 1e3 * in_pelvis[k, [0, 2]] == pytest.approx([122.6, 52.5], abs=3.0), ms
    assert 1e3 * in_sled[_at(res.t, 0), 2] == pytest.approx(120.9, abs=3.0)
    assert 1e3 * in_sled[_at(res.t, 80), 2] == pytest.approx(92.5, abs=3.0)
    assert _leg_above_the_hips_mm(model, res, 0) == pytest.approx(22.2, abs=2.0)
    assert _leg_above_the_hips_mm(model, res, 80) == pytest.approx(8.5, abs=2.0)
    assert _lap_in_thighs_mm(model, res, 0) < 10.0
    for ms, deep in ((60, 79.4), (80, 89.1)):
        assert _lap_in_thighs_mm(model, res, ms) == pytest.approx(deep, abs=5.0), ms


def test_regression_fmvss208_human_pelvis_tilt_on_its_own_asis(human):
    """Where the lap belt bears decides the tilt, and not the fold: on the human's own tissue
    round its ASIS (asis_flesh, builder.asis_flesh: the belt 45 mm from the ASIS, UMTRI's seated
    volunteers) with the anchorages as shipped, the belt starts 152 mm above the hips (sled axes),
    its outboard leg's line 52 mm above their axis, still 52 at 80 ms, and the pelvis tilts 23.3
    deg by 80 ms (44.4 on lap_belt_pelvis; GS1's PMHS 13.5-27.4 at most), the belt 43-45 mm inside
    the thigh shells at 80 ms (98.5); the lumbar joints still fold in the rebound (lumbar-pelvis
    872 N m at 118.8 ms, thorax-lumbar 1415 at 113.7; 1042 / 1436 as shipped). Measured on main
    25f527ad (branch pelvistilt), not shipped (scenarios/validation/HISTORY.md). With the belt
    over the clavicle (branch clavdefault): the pelvis 15.3 deg at 80 ms (21.9 on
    lap_belt_pelvis), the leg's line 52.0 mm above the hips' axis at the start and 36.7 at 80 ms,
    the belt 11.6 mm inside the thigh shells at 80 ms; lumbar-pelvis 1149 N m, thorax-lumbar
    1135."""
    model, res = _run(HUMAN, AT_THE_ASIS)
    shipped_model, shipped = human
    assert _pelvis_tilt_deg(model, res)[_at(res.t, 80)] == pytest.approx(15.3, abs=1.5)
    assert _pelvis_tilt_deg(shipped_model, shipped)[_at(shipped.t, 80)] > 20.0
    assert 1e3 * _lap_place(model, res)[1][_at(res.t, 0), 2] == pytest.approx(151.9, abs=3.0)
    for ms, above in ((0, 52.0), (80, 36.7)):
        assert _leg_above_the_hips_mm(model, res, ms) == pytest.approx(above, abs=3.0), ms
    assert _lap_in_thighs_mm(model, res, 80) == pytest.approx(11.6, abs=5.0)
    for joint, moment in (("lumbar_pelvis", 1149.0), ("thorax_lumbar", 1135.0)):
        assert np.max(_flexion(res, joint)[0]) == pytest.approx(moment, rel=0.1), joint


@pytest.mark.xfail(strict=True, reason=(
    "the lap belt has no contact with the thighs: held on its pelvis ellipsoid it turns down with "
    "the pelvis (21.9 deg by 80 ms with the belt over the clavicle, the default since clavdefault) "
    "and its pieces lie 79-95 mm inside the thigh shells at 60-80 ms (94-99, the pelvis 44.4 deg, "
    "on the thorax's shortest path; us_ncap_frontal_56 then: 96-110 mm, the pelvis 39.1 deg). A barrier wrap on the inboard thigh "
    "(scratch, its side up; barriers follow an anchorage only, so none on the outboard one) held "
    "the pelvis to 9.4 deg at 80 ms, with spikes of 10-53 kN in the piece past it "
    "(scenarios/validation/HISTORY.md, pelvistilt); with the pelvis wraps free (lap_across 0) it "
    "is smooth (steps under 0.4 kN a sample) but the pelvis tilts 42.0 deg and the outboard "
    "thigh, where no barrier may stand (before the lap anchorage), is 107-128 mm deep. None of "
    "the wrap chain's kinds holds the belt on both thighs (scenarios/HISTORY.md, lapthigh): the "
    "hip wraps moved onto the thigh shells, held across the belt, are fitted 319-333 mm ahead "
    "of the hips, the pelvis wrap off the pelvis; fitted at the hip crease they slide round the "
    "thighs' inner sides after the pelvis wrap as it sinks between them and the run diverges at "
    "62-67 ms (held at 1.0 across: 2.5 MN; kept on the thighs' outer halves by a flank: the "
    "pelvis wrap jumps 105 mm, 196 kN); on their shortest path 107-136 mm deep from the start, 45 kN. Missing: "
    "a wrap that bears only while the belt presses into it, anywhere in the chain. Barriers on "
    "both thighs (lap_barriers and lap_buckle_barriers, not shipped: scenarios/HISTORY.md, "
    "humanthighs) leave 31.6-36.6 mm at 60-80 ms by this path rebuild, the pelvis 27.6 deg"))
def test_reference_fmvss208_human_lap_belt_lies_over_the_thighs(human):
    """The lap belt lies over the thighs, not through them: its pieces no deeper than 20 mm in
    either thigh shell (tests/human/test_validation_sled.py's PATH_DEPTH, the chord of the
    webbing between its wraps) through the crash (0-100 ms, every 10 ms)."""
    model, res = human
    for ms in range(0, 101, 10):
        assert _lap_in_thighs_mm(model, res, ms) < 20.0, ms
