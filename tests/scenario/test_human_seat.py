"""The parametric human seated in a dummy's seat as a human-body-model user seats one (issue 14,
branch humanseat): its hip joint centres at the posture's H-point as the Hybrid III's, the
posture's targets (torso, hands on the wheel, heels on the floor, feet on pedal and toe board)
met with its own limbs, then settled into the seat, where its cushion bears on its buttock
(occupant.scenario.seat_fit.human_cushion) as the dummy's bears on its pelvis flesh."""
import numpy as np
import pytest

from occupant.dynamics import link_poses
from occupant.human.posture import load_posture
from occupant.human.seated_posture import line_angle, predicted_angle, vertical_angle
from occupant.scenario import load
from occupant.scenario.placement import plane_gap
from occupant.scenario.seat_fit import human_cushion
from occupant.scenario.settle import settle_scenario

HUMAN = "occupant.human.sex=male"
POSTURE = "driver_seated"   # us_ncap_frontal_56's occupant.posture


def test_reference_a_humans_cushion_pair_names_its_buttock():
    """A pair of the cushion with the pelvis flesh names the human's buttock too, after the
    pelvis flesh; a pair naming it already (GS1's deck), a named pair and the other surfaces'
    pairs are left as they are."""
    dummy = {"a": ["pelvis_flesh", "left_thigh_shell"], "b": "seat_cushion"}
    gs1 = {"a": ["pelvis_flesh", "buttock", "left_thigh_shell"], "b": "seat_cushion"}
    named = {"a": "pelvis_flesh", "b": "seat_cushion", "name": "seat"}
    back = {"a": ["pelvis_flesh", "thorax"], "b": "seat_back"}
    alone = {"a": "pelvis_flesh", "b": "seat_cushion", "characteristic": "foam"}
    assert human_cushion([dummy, gs1, named, back, alone]) == [
        {"a": ["pelvis_flesh", "buttock", "left_thigh_shell"], "b": "seat_cushion"}, gs1, named,
        back, {"a": ["pelvis_flesh", "buttock"], "b": "seat_cushion", "characteristic": "foam"}]
    assert dummy == {"a": ["pelvis_flesh", "left_thigh_shell"], "b": "seat_cushion"}   # untouched
    s = load("us_ncap_frontal_56", [HUMAN, "occupant.settle=0"])
    pair = s.model.source.contact_pairs["buttock__seat_cushion"]
    flesh = s.model.source.contact_pairs["pelvis_flesh__seat_cushion"]
    assert pair.characteristic == flesh.characteristic


def _settled(*overrides):
    """(scenario, q): us_ncap_frontal_56's occupant settled as the run settles it (its
    occupant.settle, belts buckled at the end)."""
    s = load("us_ncap_frontal_56", list(overrides))
    return s, settle_scenario(s.file, s.model, s.q0, s.settle, s.settle_belted)[0]


def _seated(s, q):
    """(hips, knees (2, 3), heels' gaps to the floor (2,)) in B0, m, of the scenario ``s``'s
    occupant in configuration ``q``."""
    m = s.model
    _, p = link_poses(m, m.make_data(), q)
    at = lambda body: p[m.body_link[m.body(body)]]             # noqa: E731 the joint's centre
    hips = 0.5 * (at("left_upper_leg") + at("right_upper_leg"))
    knees = np.array([at("left_lower_leg"), at("right_lower_leg")])
    floor = next(x for x in s.interior.surfaces if x.name == "floor")
    n = np.asarray(floor.normal, float) / np.linalg.norm(floor.normal)
    geos = m.source.geometries
    heels = np.array([min(plane_gap(m, q, geos[g], n, np.asarray(floor.point, float))
                          for g in (f"{side}_heel", f"{side}_foot_shell") if g in geos)
                      for side in ("left", "right")])
    return hips, knees, heels


@pytest.fixture(scope="module")
def settled():
    return {"dummy": _settled(), "human": _settled(HUMAN)}


@pytest.fixture(scope="module")
def seated(settled):
    return {who: _seated(*sq) for who, sq in settled.items()}


def test_reference_the_settled_human_sits_where_the_dummy_sits(seated):
    """Settled in US NCAP's seat, the 50th male's hip joint centres lie within 10 mm of the
    Hybrid III 50M's (fore-aft and height; its H-point is the middle of its hip joints), its
    heels on the floor as the dummy's (within 2 mm), and its knees within 25 mm of the dummy's
    each way: the human's hip-ankle chain is 45 mm longer than the dummy's (thigh 425 against
    411 mm, knee-ankle 437 against 406 mm) between the same hips and heels, so its knees ride
    higher (measured 22 mm higher and 16 mm forward). Before the buttock's pair the human sat
    on its thighs, hips 51 mm below the dummy's, knees 64 mm higher and 31 mm further back,
    heels lifted 27 mm off the floor."""
    d_hips, d_knees, d_heels = seated["dummy"]
    h_hips, h_knees, h_heels = seated["human"]
    assert np.abs(h_hips - d_hips)[[0, 2]] == pytest.approx(0.0, abs=0.010)
    assert np.abs(h_knees - d_knees)[:, [0, 2]].max() == pytest.approx(0.0, abs=0.025)
    assert np.abs(d_heels).max() < 0.002 and np.abs(h_heels).max() < 0.002


def _drivers(s, line):
    """(mean, RMSE), rad, of UMTRI's drivers' ``line`` for the scenario ``s``'s human, from the
    vertical (seated_posture.vertical_angle); H30 the posture's right heel's target below the
    H-point (0.328 m in driver_seated)."""
    heel = next(p for p in load_posture(POSTURE)["targets"]["point"]
                if p["body"] == "right_foot" and p["point"] in ("heel", "heel_bottom"))
    header = s.model.source.header
    mean, rmse = predicted_angle(line, header["sex"], header["stature"], header["total_mass"],
                                 -heel["z"])
    return vertical_angle(line, mean), rmse


@pytest.mark.parametrize("line", ["pelvis", "abdomen", "thorax"])
def test_reference_the_settled_humans_trunk_lines_stay_the_drivers(settled, line):
    """Settled in US NCAP's seat, the human's pelvis, abdomen and thorax lines stay within one
    RMSE of UMTRI's drivers' means (48.1 +- 13.2, 29.9 +- 11.4, 2.2 +- 4.3 deg): posed 43.8,
    28.3, 2.2; settled 45.7, 28.7, 1.5 (scenarios/validation/HISTORY.md, humaneye)."""
    s, q = settled["human"]
    mean, rmse = _drivers(s, line)
    assert abs(vertical_angle(line, line_angle(s.model, q, line)) - mean) <= rmse


def test_reference_the_settled_humans_head_line_stays_the_drivers(settled):
    """Settled in US NCAP's seat, the human's head line (tragion -> eye, above the horizontal)
    stays within one RMSE of UMTRI's drivers' mean, where the posture puts it: the default neck
    (neck_activation = "posture") holds the head's pitch in space at its posed value through the
    settling (3.2 deg posed, 4.9 settled). With the reflex's muscles alone (the default before,
    a strict xfail here) the neck's passive balance turned it back to 17.8 (the upper neck's
    flexion 16.3 -> 3.5 deg: scenarios/validation/HISTORY.md, humaneye, neckpid, posturedefault)."""
    s, q = settled["human"]
    mean, rmse = _drivers(s, "head")
    assert abs(vertical_angle("head", line_angle(s.model, q, "head")) - mean) <= rmse


def test_reference_the_posture_controlled_human_stays_at_rest_without_a_pulse():
    """A seated person at rest does not move: run with its pulse zeroed after the settling, the
    (default) posture-controlled human's head keeps its pitch in B0 within 1.5 deg over the
    first 60 ms (before the reflex). The run goes on with the muscle states the settling ended
    with (forces.muscles.carry_states), the controller's command -0.32 at t = 0. While the
    controller acted until the reflex: 1.03 deg; it lets go at the pulse's start (t = 0:
    posturedefault) and the carried activations relax over their deactivation time: 1.23 deg
    (then -5.1 deg at 100 ms: a run with no pulse is not what it is for). Started afresh
    (reference the settled pitch, integral zero: the holding command lost) the head turned
    2.59 deg. The bound is above the settled body's own creep: the reflex human (muscles at
    their presets) turns its head 0.79 deg, the upper torso 1.0 (the settling does not come to
    rest: occupant.scenario.settle); scenarios/validation/HISTORY.md, neckcarry."""
    from occupant.scenario.run import run_scenario
    s = load("us_ncap_frontal_56", [HUMAN, "pulse.scale=0", "solver.t_end=0.06"])
    res = run_scenario(s).results
    el = s.model.muscles
    link, R = el.control_link[0], el.control_R[0]
    data = s.model.make_data()
    pitch = []
    for q in res.q:
        x = link_poses(s.model, data, q)[0][link] @ R[:, 0]
        pitch.append(np.degrees(np.arctan2(-x[2], x[0])))
    assert res.t[-1] == pytest.approx(0.06)
    assert np.max(np.abs(np.array(pitch) - pitch[0])) < 1.5
    assert res.outputs["head_posture.control.command"][0] < -0.1   # the settled effort, carried


def test_identity_the_reflex_humans_settled_muscle_states_are_its_presets():
    """Without posture controllers the settling leaves every muscle's state at zero (activation
    = its preset): carried into the run (forces.muscles.carry_states) they change nothing, and
    the reflex human's runs are those started afresh."""
    s = load("us_ncap_frontal_56", [HUMAN, "occupant.human.neck_activation=reflex"])
    _, info = settle_scenario(s.file, s.model, s.q0, s.settle, s.settle_belted)
    el = s.model.muscles
    assert len(el.link_a) and not len(el.control_link)
    assert np.all(info["z"][el.z_start:el.z_start + len(el.link_a)] == 0.0)


# The default human's criteria, held as they came out with the posture-controlled neck the
# default (scenarios/validation/HISTORY.md, posturedefault; reflex default before -> now):
# US NCAP HIC15 579 -> 752, head 3 ms 76.5 -> 84.2 g, chest deflection 66.9 -> 67.1 mm, Nij
# 0.722 -> 0.621, neck tension 1102 -> 1142 N (the head starts level, 4.9 deg, not chin-up,
# 17.8, and meets the bag sooner); rear_whiplash NIC 23.8 -> 27.3 m^2/s^2, Nkm 0.836 -> 0.934,
# T1 18.3 -> 17.3 g; then the braincase placed as the Hybrid III's on the condyles (headshell:
# the head shell 15 mm forward) US NCAP HIC15 752 -> 694, head 3 ms 84.2 -> 78.7 g, deflection
# 67.1 -> 67.3 mm, Nij 0.621 -> 0.585, tension 1142 -> 1156 N; rear NIC 27.3 -> 26.9, Nkm 0.934
# -> 0.940, T1 17.3 -> 17.5 g; then the condyles placed below the tragion (Chancey et al. 2007)
# with the head's com 26.4 mm ahead of them and the upper neck's damping re-fitted 1.1 -> 2.0
# (branch chancey) US NCAP HIC15 694 -> 797, head 3 ms 78.7 -> 82.3 g, deflection 67.3 -> 67.3
# mm, Nij 0.585 -> 0.379, tension 1156 -> 882 N; rear NIC 26.9 -> 26.1, Nkm 0.940 -> 1.357, T1
# 17.5 -> 17.3 g; then the head link's dimple shared by the lever rule (branch baglever2) US
# NCAP HIC15 797 -> 738, head 3 ms 82.3 -> 81.7 g, deflection 67.3 -> 67.4 mm, Nij 0.379 ->
# 0.417, tension 882 -> 903 N (rear_whiplash has no bag); then the shoulder belt fitted over the
# clavicle and sternum by default (branch clavdefault, scenarios/HISTORY.md: the shortest path over
# the thorax ran round the back of the neck) US NCAP HIC15 738 -> 812, head 3 ms 81.7 -> 85.4 g,
# deflection 67.4 -> 52.6 mm, Nij 0.417 -> 0.440,
# tension 903 -> 1036 N (rear_whiplash has no belt). Tolerance 3 % (1 % for deflection):
# the criteria's own spread under the settling's small changes is of that order (neckcarry: 700
# -> 748 from the carried state).
DEFAULT_HUMAN_CRITERIA = [
    ("us_ncap_frontal_56", {"HIC15": (811.6, 0.03), "head 3 ms": (85.4, 0.03),
                            "chest deflection": (52.6, 0.01), "Nij": (0.440, 0.03),
                            "neck tension": (1036.0, 0.03)}),
    ("rear_whiplash", {"NIC": (26.1, 0.03), "Nkm": (1.357, 0.03), "T1 acceleration": (17.3, 0.03)}),
]


@pytest.mark.parametrize("name, expected", DEFAULT_HUMAN_CRITERIA,
                         ids=[n for n, _ in DEFAULT_HUMAN_CRITERIA])
def test_regression_the_default_humans_criteria(name, expected):
    run = load(name, [HUMAN]).run()
    assert run.results.status == "finished"
    rows = {r["criterion"]: r["value"] for r in run.criteria}
    for key, (value, rel) in expected.items():
        assert rows[key] == pytest.approx(value, rel=rel), key
