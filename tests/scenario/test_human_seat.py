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


@pytest.mark.xfail(strict=True, reason=(
    "the settling turns the levelled head back up: head line 3.2 deg posed (UMTRI's drivers' mean, "
    "RMSE 5.0), 16.9 settled (17.8 before branch headshell moved the eye with the braincase; 15.8 "
    "while the reflex fired in the settling); the upper neck's "
    "flexion 16.3 -> 3.5 deg, the lower's 5.9 -> 5.2 (without neck muscles 21.2 deg, the lower "
    "neck extended 3.5): the neck's passive balance, not the posture's target, sets where the "
    "head starts (scenarios/validation/HISTORY.md, humaneye); the posture controller holds it "
    "(neck_activation = \"posture\", the test below; not the default: neckpid)"))
def test_reference_the_settled_humans_head_line_stays_the_drivers(settled):
    """Settled in US NCAP's seat, the human's head line (tragion -> eye, above the horizontal)
    stays within one RMSE of UMTRI's drivers' mean, where the posture puts it."""
    s, q = settled["human"]
    mean, rmse = _drivers(s, "head")
    assert abs(vertical_angle("head", line_angle(s.model, q, "head")) - mean) <= rmse


def test_reference_the_posture_controller_keeps_the_settled_humans_head_line_the_drivers():
    """With the neck's posture controller (neck_activation = "posture": the muscles hold the
    head's pitch in space at its posed value until the pulse's reflex), the human settled in US
    NCAP's seat keeps its head line within one RMSE of UMTRI's drivers' mean where the posture
    put it (3.2 deg posed; settled 5.1, where the reflex's muscles let it turn to 17.8:
    scenarios/validation/HISTORY.md, neckpid)."""
    s, q = _settled(HUMAN, "occupant.human.neck_activation=posture")
    mean, rmse = _drivers(s, "head")
    assert abs(vertical_angle("head", line_angle(s.model, q, "head")) - mean) <= rmse


def test_reference_the_posture_controlled_human_stays_at_rest_without_a_pulse():
    """A seated person at rest does not move: run with its pulse zeroed after the settling, the
    posture-controlled human's head keeps its pitch in B0 within 1.5 deg over the first 60 ms
    (before the reflex). The run goes on with the muscle states the settling ended with
    (forces.muscles.carry_states): 1.03 deg, the controller's command -0.32 at t = 0. Started
    afresh (reference the settled pitch, integral zero: the holding command lost) the head
    turned 2.59 deg while the integral built the command again (0 -> -0.29 in 60 ms). The bound
    is above the settled body's own creep: the reflex human (muscles at their presets) turns
    its head 0.79 deg, the upper torso 1.0 (the settling does not come to rest:
    occupant.scenario.settle); scenarios/validation/HISTORY.md, neckcarry."""
    from occupant.scenario.run import run_scenario
    s = load("us_ncap_frontal_56", [HUMAN, "occupant.human.neck_activation=posture",
                                     "pulse.scale=0", "solver.t_end=0.06"])
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
    the default human's runs are those started afresh."""
    s = load("us_ncap_frontal_56", [HUMAN])
    _, info = settle_scenario(s.file, s.model, s.q0, s.settle, s.settle_belted)
    el = s.model.muscles
    assert len(el.link_a) and not len(el.control_link)
    assert np.all(info["z"][el.z_start:el.z_start + len(el.link_a)] == 0.0)
