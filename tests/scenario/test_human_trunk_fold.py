"""The parametric human's trunk in the belted 48 km/h sled (fmvss208_sled_48_belted with
``occupant.human.sex=male``; issue 14 sections 1 and 4, branch trunkdamp): its pelvis tilts forward
about the hips under the lap belt far more than the Hybrid III's, springs back in the rebound while
the upper torso pitches on, and the two lumbar joints fold onto their flexion curve's end slope
(data/joint_passive.toml; scenarios/validation/HISTORY.md, lumbarfold and trunkdamp). Measured,
not fixed: the fold is held as a strict xfail against the PMHS failure moment."""
import numpy as np
import pytest

from occupant.scenario import load
from tests.human.test_human_joints import BELWADI_YANG_FAILURE

SCENARIO = "fmvss208_sled_48_belted"
HUMAN = "occupant.human.sex=male"
LAP_POINTS = ("buckle", "hip_inboard", "lap", "hip_outboard", "lap_anchor")
BELT_SEGMENTS = [f"belt.{a}-{b}.force" for a, b in zip(
    ("retractor", "d_ring", "shoulder", "chest") + LAP_POINTS[:-1],
    ("d_ring", "shoulder", "chest", "buckle") + LAP_POINTS[1:])]


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
    tilting forward."""
    model, res = human
    t = res.t
    tilt = _pelvis_tilt_deg(model, res)
    assert tilt[_at(t, 80)] == pytest.approx(44.4, abs=1.5)
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
    assert 500.0 < mean("lumbar joint force", 60, 90) < 650.0
    assert mean("lap belt", 50, 60) < -140.0 and -50.0 < mean("lap belt", 80, 90) < 0.0
    assert mean("lumbar joint moment", 60, 90) < -300.0
    assert mean("hips", 80, 90) < -250.0


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
    trunkdamp). Measured on main 25816b95 (lumbarfold: 1436 and 1042 N m)."""
    model, res = human
    t = res.t
    window = (t >= 0.105) & (t <= 0.130)
    for seg in BELT_SEGMENTS:
        assert np.max(res.outputs[seg][window]) < 10.0, seg
    tilt = _pelvis_tilt_deg(model, res)
    assert tilt[_at(t, 130)] == pytest.approx(4.3, abs=1.5)
    for joint, moment, ms, deg, cap_deg, range_deg in (
            ("lumbar_pelvis", 1042.0, 124.0, 34.2, 29.6, 44.5),
            ("thorax_lumbar", 1436.0, 129.3, 25.1, 20.3, 30.5)):
        m, x = _flexion(res, joint)
        i = int(np.argmax(m))
        assert m[i] == pytest.approx(moment, rel=0.1), joint
        assert t[i] * 1e3 == pytest.approx(ms, abs=2.0), joint
        assert cap_deg < x[i] < range_deg and x[i] == pytest.approx(deg, abs=1.0), joint


@pytest.mark.xfail(strict=True, reason=(
    "the belted human's lumbar joints fold to 1436 N m (thorax-lumbar, 129.3 ms) and 1042 N m "
    "(lumbar-pelvis, 124.0 ms) in the rebound, 22 and 18 ms above Belwadi & Yang's 140.4 N m: "
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
