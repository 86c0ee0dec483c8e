"""The 95th-percentile male human (1.880 m, 101.2 kg) as the driver of us_ncap_frontal_56 (issue 14
plausibility, branch human95; scenarios/validation/HISTORY.md): his HIC15 went 390 -> 769 -> 833
-> 1030 over the posture-neck default, the braincase's move and the condyles below the tragion
(each step taking load off the chin and the neck, which had held the head back with the upper
neck at 561 N m, Nij 1.90), then 1030 -> 822 with the lever rule's shared dimple (baglever2).
What makes the 822: no bottoming, no rim, no roof in the head's pulse (the roof 1.1 kN at 123 ms,
in the rebound): the bag pushes the head with its gauge pressure over the head's dimple, and the
human's trunk has pressed that bag to 70.5 kPa (the Hybrid III 95M's in the same run 54.9): its
pelvis tilts 40.5 deg forward under the lap belt by 76 ms (the dummy's 12.0, the pelvis fold of
branch trunkdamp), its upper torso slides 278 mm forward (the dummy's 178) and its abdomen, thorax
and neck shell displace 11.4 L of the bag (the dummy's thorax 5.1 L, its abdomen none; the 50th
male human rolls his pelvis as far, 40.8 deg, with a smaller trunk: HIC15 738). Not the head's
speed: 60 mm further forward the head meets the bag at 6.8 m/s instead of 9.7 and HIC15 is
795. Held here until the human's trunk (pelvis tilt, branch pelvistilt) changes.
Since branch clavdefault his shoulder belt lies over his clavicle (the human's default route; on
the thorax's shortest path before, round the back of his neck): his pelvis tilts 27.8 deg, his
upper torso pitches 15.9 deg about the belted shoulder and slides 211 mm, the trunk displaces 8.6 L
of the bag (66.1 kPa), and his head goes 114 mm into it over 753 cm^2 of dimple: HIC15 1050 (the
figures below re-measured with it; scenarios/HISTORY.md, clavdefault)."""
import numpy as np
import pytest

from occupant.injury.limits import PROTOCOLS
from occupant.scenario import load

SCENARIO = "us_ncap_frontal_56"
HUMAN_95M = ["occupant.human.sex=male", "occupant.human.percentile=95"]
#: FMVSS 208's HIC15 limit (S6.2, the Hybrid III 50th male's; the scenario's regulation), the
#: level the Hybrid III 95M passes in this run (HIC15 601)
HIC15_LIMIT = next(l.limit for l in PROTOCOLS["fmvss208_hybrid3_50m"].limits if l.criterion == "hic15")
#: the bag's pairs of the human's trunk (neck shell, thorax, abdomen), the volume they displace
TRUNK = ("neck_shell", "thorax", "abdomen")


@pytest.fixture(scope="module")
def tall():
    """The 95th male to 100 ms: past the head's pulse (peak at 79.5 ms, HIC15 as to 150 ms)."""
    s = load(SCENARIO, [*HUMAN_95M, "solver.t_end=0.1"])
    run = s.run()
    assert run.results.status == "finished"
    return s.model, run


def _at(t, ms):
    return int(np.argmin(abs(t - ms / 1e3)))


def _pitch_deg(model, res, body):
    """The body's forward pitch (deg, top forward positive) from its start, in the vehicle's axes."""
    B = res.base_poses[:, :3, :3]
    R = np.einsum("nji,njk->nik", B, res.body_poses[:, model.body(body), :3, :3])
    rel = np.einsum("nij,kj->nik", R, R[0])
    return np.degrees(np.arctan2(rel[:, 0, 2], rel[:, 0, 0]))


def test_regression_the_tall_humans_head_is_pushed_by_a_bag_his_trunk_has_pressed(tall):
    """HIC15 822, head 3 ms 81.4 g; the bag's push on the head shell peaks at 4.13 kN at 79.5 ms,
    108 mm in, its gauge pressure 68.3 kPa over 605 cm^2 of dimple (81 g on the 5.25 kg head), no
    bottoming; the bag's peak pressure 70.5 kPa at 76.4 ms with the neck shell, thorax and
    abdomen displacing 1.33 + 4.28 + 5.75 L of it (the Hybrid III 95M in the same run: 54.9 kPa,
    thorax 5.08 L, neck 0.04, abdomen none; its head 3.72 kN, 73.3 g, HIC15 601). Before
    branch baglever2 (the shell bore none of the dimple until it passed the chin): 1030, 92.1 g,
    4.75 kN at 77.8 ms, the force rising 10 -> 90 % in 4.4 ms (11.6 now). With the belt over the
    clavicle (branch clavdefault, measured on main 428902a3 + it): HIC15 1050, head 3 ms 96.7 g;
    the push 4.94 kN at 79.5 ms, 114 mm in, 65.6 kPa over 753 cm^2 (96 g), no bottoming; the
    bag's peak 66.1 kPa at 78.3 ms with the neck shell, thorax and abdomen displacing 1.43 + 3.41
    + 3.71 L: less trunk in the bag, the head deeper (its upper torso pitching about the belted
    shoulder, the next test)."""
    model, run = tall
    res = run.results
    t, out = np.asarray(res.t), res.outputs
    rows = {r["criterion"]: r["value"] for r in run.criteria}
    assert rows["HIC15"] == pytest.approx(1049.6, rel=0.03)
    assert rows["head 3 ms"] == pytest.approx(96.7, rel=0.03)
    head = np.asarray(out["driver_airbag_head_shell.force"])
    i = int(np.argmax(head))
    assert head[i] == pytest.approx(4936.0, rel=0.05)
    assert t[i] == pytest.approx(0.0795, abs=0.001)
    assert np.asarray(out["driver_airbag_head_shell.bottoming_force"]).max() == 0.0
    pressure = np.asarray(out["driver_airbag.gauge_pressure"])
    area = np.asarray(out["driver_airbag_head_shell.area"])
    assert pressure[i] * area[i] == pytest.approx(head[i], rel=0.05)   # the push is p A
    assert head[i] / model.body_mass[model.body("head")] / 9.80665 == pytest.approx(95.9, rel=0.05)
    j = int(np.argmax(pressure))
    assert pressure[j] == pytest.approx(66.1e3, rel=0.03)
    trunk = sum(float(out[f"driver_airbag_{b}.displaced_volume"][j]) for b in TRUNK)
    assert trunk * 1e3 == pytest.approx(8.55, rel=0.05)
    assert float(out["driver_airbag_abdomen.displaced_volume"][j]) * 1e3 == pytest.approx(3.71, rel=0.05)
    assert max(float(np.max(out[f"{p}.normal_force"])) for p in (
        "head_shell__roof", "head_shell__steering_wheel_rim", "head_shell__windshield")) == 0.0


def test_regression_the_tall_humans_pelvis_tilts_and_his_trunk_slides_into_the_bag(tall):
    """By 76 ms (the bag's peak pressure) the pelvis has tilted 40.5 deg forward and the upper
    torso's frame moved 278 mm forward while pitching 6.4 deg (Hybrid III 95M: 12.0 deg, 178 mm,
    12.5 deg): the trunk goes into the bag by sliding on a rolled pelvis, not by pitching about
    the hips; the braincase meets the bag at 62.7 ms at 9.7 m/s relative to the vehicle (the
    dummy's 47.0 ms, 5.5 m/s). With the belt over the clavicle (branch clavdefault): the pelvis
    27.8 deg, the upper torso 211 mm forward pitching 15.9 deg (more than the dummy's): the trunk
    still rolls its pelvis further than the dummy's and now also pitches about the belted
    shoulder; the braincase meets the bag at 61.3 ms at 9.7 m/s."""
    model, run = tall
    res = run.results
    t = np.asarray(res.t)
    i = _at(t, 76.0)
    assert _pitch_deg(model, res, "pelvis")[i] == pytest.approx(27.8, abs=2.0)
    assert _pitch_deg(model, res, "upper_torso")[i] == pytest.approx(15.9, abs=2.0)
    B = res.base_poses
    x = np.einsum("nji,nj->ni", B[:, :3, :3], res.body_poses[:, model.body("upper_torso"), :3, 3]
                  - B[:, :3, 3])[:, 0]
    assert (x[i] - x[0]) * 1e3 == pytest.approx(211.2, abs=10.0)
    shell = np.asarray(res.outputs["driver_airbag_head_shell.force"])
    k = int(np.argmax(shell > 50.0))
    assert t[k] == pytest.approx(0.0613, abs=0.001)
    head = np.einsum("nji,nj->ni", B[:, :3, :3], res.body_com[:, model.body("head")] - B[:, :3, 3])
    assert np.gradient(head[:, 0], t)[k] == pytest.approx(9.69, rel=0.05)


@pytest.mark.xfail(strict=True, reason=(
    "the 95th male human's HIC15 is 1050 (head 3 ms 96.7 g) where the Hybrid III 95M's is 601 in "
    "the same run: with his belt over his clavicle (the default since clavdefault) the trunk "
    "presses the driver bag to 66.1 kPa (54.9) as its pelvis tilts 27.8 deg under the lap belt "
    "(12.0) and its upper torso pitches 15.9 (12.5), its abdomen 3.71 L into the bag (none), "
    "the head 114 mm into it over 753 cm^2 of dimple; 822 on the thorax's shortest path "
    "(pelvis 40.5 deg, 70.5 kPa; scenarios/validation/HISTORY.md, human95; scenarios/HISTORY.md, "
    "clavdefault)"))
def test_reference_the_tall_humans_head_passes_the_limit_the_dummy_passes(tall):
    """A belted 95th-percentile driver behind a driver bag at 56 km/h: the Hybrid III 95M reads
    HIC15 601 in this run (a few hundred in such tests); a human of its size in the same seat and
    restraints should too, under FMVSS 208's 700."""
    _, run = tall
    rows = {r["criterion"]: r["value"] for r in run.criteria}
    assert rows["HIC15"] < HIC15_LIMIT
