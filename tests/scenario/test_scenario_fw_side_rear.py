"""The Euro NCAP full-width, side-barrier and rear-whiplash scenarios (issue 13 section 1): the
pieces they added (pulse direction, finely tabulated trapezoids, interiors built on a base
interior, extra and reference criteria rows) and their shipped runs held against what crash
engineers expect of such tests."""
import numpy as np
import pytest

from occupant.io.toml_files import FileChecker
from occupant.scenario import ScenarioError, load
from occupant.scenario.interior import InteriorFileError, load_interior
from occupant.scenario.pulse import G0, KMH, read_pulse


def test_analytic_pulse_direction_and_triangle():
    """A side pulse pushes the struck car along -y by its delta-v; a rear pulse (a trapezoid
    without plateau, 10 g over 2 x 45.3 ms) pushes the sled forward by 16 km/h, and its table is
    fine enough that the base's position follows the closed form x(t) = A t^3 / (6 r) of the
    rising ramp."""
    c = FileChecker("s.toml", ScenarioError)
    side = read_pulse(c, {"shape": "half_sine", "delta_v_kmh": 29.0, "duration": 0.06, "speed_kmh": 0.0,
                          "direction": [0.0, 2.0, 0.0]}, "pulse", ".", 0.12)
    m = side.base_motion()
    # the trapezoidal rule on a 60 ms half-sine at 10 kHz loses (pi dt / T)^2 / 12 = 2.3e-6 of it
    np.testing.assert_allclose(m.velocity(0.1), [0.0, -29.0 * KMH, 0.0], rtol=0, atol=3e-6 * 29.0 * KMH)
    rear = read_pulse(c, {"shape": "trapezoid", "delta_v_kmh": 16.0, "peak_g": 10.0, "rise": 0.0453,
                          "fall": 0.0453, "speed_kmh": 0.0, "direction": [-1.0, 0.0, 0.0]}, "pulse", ".", 0.2)
    assert rear.delta_v == pytest.approx(16.0 * KMH, rel=1e-12) and rear.peak == pytest.approx(10 * G0)
    m = rear.base_motion()
    np.testing.assert_allclose(m.velocity(0.15), [16.0 * KMH, 0.0, 0.0], atol=1e-9)
    a, r, t = 10 * G0, 0.0453, 0.03
    assert m.position(t)[0] == pytest.approx(a * t**3 / (6 * r), rel=1e-4)
    assert np.max(np.diff(rear.t[rear.t <= 0.0906])) <= 1.001e-4      # about 10 kHz
    with pytest.raises(ScenarioError, match=r"pulse.direction: must not be zero"):
        read_pulse(c, {"shape": "half_sine", "delta_v_kmh": 29.0, "duration": 0.06, "direction": [0.0, 0.0, 0.0]},
                   "pulse", ".", 0.12)


def test_reference_interior_on_a_base_replaces_and_keeps_surfaces(tmp_path):
    base = load_interior("midsize_sedan_driver")
    fifth = load_interior("midsize_sedan_driver_05f")
    assert {s.name for s in fifth.surfaces} == {s.name for s in base.surfaces} | {"head_restraint"}
    seat = {s.name: s for s in fifth.surfaces}["seat_cushion"]
    assert seat.point[0] == pytest.approx(0.2238)                      # the 5F's, not the base's
    assert fifth.defaults["windshield"] == "windshield" and set(base.characteristics) <= set(fifth.characteristics)
    side = load_interior("midsize_sedan_driver_side")
    assert {"door_panel", "armrest", "b_pillar", "side_window", "kick_panel"} <= {s.name for s in side.surfaces}
    (tmp_path / "x.toml").write_text('kind = "interior"\nname = "x"\nbase = "no_such_car"\n')
    with pytest.raises(InteriorFileError, match=r"x.toml: base: 'no_such_car'"):
        load_interior(tmp_path / "x.toml")


def test_reference_criteria_show_and_reference_are_checked():
    with pytest.raises(ScenarioError, match=r"criteria.show: unknown criterion 'NIC2'.*NIC, Nkm"):
        load("rear_whiplash", overrides={"criteria.show": ["NIC2"]})
    with pytest.raises(ScenarioError, match=r"criteria.reference: unknown regulation 'whiplash'"):
        load("rear_whiplash", overrides={"criteria.reference": "whiplash"})


def _closes_and_stays_out(run):
    """The energy balance closes to 1 % of the energy exchanged, and no pair that pushes goes
    past the end of its characteristic's table (nothing passes through a surface)."""
    res, model = run.results, run.model
    assert res.status == "finished"
    assert abs(res.energy["balance"][-1]) < 0.01 * np.max(np.abs(res.energy["work"]))
    for name, pair in model.source.contact_pairs.items():
        table = pair.characteristic.table
        pushing = res.outputs[f"{name}.normal_force"] > 0
        if table is not None and pushing.any():
            assert res.outputs[f"{name}.penetration"][pushing].max() < table[-1, 0], name


def _rows(run):
    return {r["criterion"]: r for r in run.criteria}


@pytest.fixture(scope="module")
def full_width():
    return load("euro_ncap_full_width_50").run()


def test_reference_euro_ncap_full_width_5f_driver_is_plausible(full_width):
    """The belted 5F driver at 50 km/h, judged on the Euro NCAP sliding scales: every judged
    criterion passes (Euro NCAP full-width results of current cars mostly score in the upper
    part of the scales, 2.4 [S]); HIC15 well below the 500 higher limit with an airbag, chest
    3 ms 30-60 g (belted frontal tests [U]), upper-neck tension within 2.9 kN and femur loads
    within 6.2 kN; the belt carries load without reaching the 6 kN shoulder-belt modifier
    (2.4 [S]); the airbag takes the head."""
    run = full_width
    _closes_and_stays_out(run)
    rows = _rows(run)
    assert run.regulation.startswith("Euro NCAP full-width 50 km/h")
    assert all(r["pass"] is not False for r in run.criteria)
    assert rows["HIC15"]["pass"] is True and 50 < rows["HIC15"]["value"] < 500
    assert 30 < rows["chest 3 ms"]["value"] < 60
    assert 300 < rows["neck tension"]["value"] < 2900 and rows["neck tension"]["pass"] is True
    assert rows["neck shear"]["limit"] == 2700.0 and rows["neck extension"]["limit"] == -57.0
    assert max(rows["femur force left"]["value"], rows["femur force right"]["value"]) < 6200
    # the belt's chest wrap and the bag's patch over the ribcage ride on the sternum: deflection
    # judged, 29.2 mm measured settled in the 0.333 m deep driver bag (29.7 unsettled in the
    # 0.26 m bag; there 25.1 with the bag on the rigid thorax, 36.2 with its whole thorax patch
    # carried), between the 5F's higher (18 mm) and lower (34 mm, capping) limits
    # (crash-domain-facts 2.4 [S])
    assert 10 < rows["chest deflection"]["value"] < 34 and rows["chest deflection"]["pass"] is True
    # its Euro NCAP points: 4 at the higher limit (18 mm), 0 at the lower (34 mm), linear between
    chest = rows["chest deflection"]
    assert chest["scale"] == pytest.approx([18.0, 34.0]) and chest["max_points"] == 4.0
    assert chest["points"] == pytest.approx(4.0 * (34.0 - chest["value"]) / 16.0, rel=1e-9)
    belt = run.results.outputs["belt.d_ring-shoulder.force"]
    assert 1000 < belt.max() < 6000
    assert run.results.outputs["driver_airbag_head_shell.force"].max() > 300


@pytest.fixture(scope="module")
def side():
    return load("side_barrier").run()


def test_reference_side_barrier_near_side_driver_is_plausible(side):
    """Near-side 50M driver, car pushed sideways by 29 km/h: the door, armrest and kick panel
    stop the torso, pelvis and legs within their tables (nothing passes through the door);
    the chest and pelvis are loaded through the door at several kN; pelvis acceleration within
    the 130 g FMVSS 214 SID limit and chest (upper-torso) 3 ms within 100 g, the range of
    side tests without side airbags [U]; HIC15 within the 1000 of HIC36 side-impact limits
    [U]. Not judged: no regulation applies to a Hybrid III in a side test."""
    run = side
    _closes_and_stays_out(run)
    assert run.regulation == "" and all(r["pass"] is None for r in run.criteria)
    rows = _rows(run)
    out = run.results.outputs
    assert out["thorax__door_panel.normal_force"].max() > 2000
    assert out["pelvis_flesh__door_panel.normal_force"].max() > 2000
    assert 30 < rows["pelvis acceleration"]["value"] < 130
    assert 30 < rows["chest 3 ms"]["value"] < 100
    assert 50 < rows["HIC15"]["value"] < 1000
    # the occupant moves towards the door (+y) relative to the car, by about the room it had
    rel = run.results.body_com[:, :, 1] - run.results.base_poses[:, None, 1, 3]
    pelvis = run.model.body("pelvis")
    assert 0.08 < rel[:, pelvis].max() - rel[0, pelvis] < 0.25


@pytest.fixture(scope="module")
def rear():
    return load("rear_whiplash").run()


def test_reference_rear_whiplash_is_plausible(rear):
    """16 km/h medium pulse, 50M with 50 mm backset: the head meets the restraint 40-80 ms
    into the pulse (the Euro NCAP contact-time scale runs 53-80 ms [U]); HIC15 within FMVSS
    202a's 500 (the head-to-torso rotation: the test below); NIC, Nkm and the T1 acceleration
    are of the order of whiplash tests (NIC 5-60 m^2/s^2, Nkm 0.1-1.5, T1 5-30 g [U]) and are
    shown beside the BioRID limits without a verdict; the head rebounds forward at 1-5 m/s."""
    run = rear
    _closes_and_stays_out(run)
    rows = _rows(run)
    assert 40 < rows["head restraint contact time"]["value"] < 80
    assert rows["HIC15"]["pass"] is True and rows["HIC15"]["value"] < 500
    assert 5 < rows["NIC"]["value"] < 60 and rows["NIC"]["limit"] == 24.0 and rows["NIC"]["pass"] is None
    assert 0.1 < rows["Nkm"]["value"] < 1.5 and rows["Nkm"]["pass"] is None
    assert any("BioRID II are shown beside the criteria" in n for n in run.notes)
    assert 5 < rows["T1 acceleration"]["value"] < 30
    assert 1.0 < rows["rebound velocity"]["value"] < 5.0
    # the torso loads the seat back, the pelvis stays on the cushion
    assert run.results.outputs["thorax__seat_back.normal_force"].max() > 1000
    z = run.results.body_com[:, run.model.body("pelvis"), 2] - run.results.base_poses[:, 2, 3]
    assert z.min() > z[0] - 0.03


@pytest.mark.xfail(strict=True, reason="finding: with the neck bracket levelling the head "
                   "(occupant.human.neck_bracket) the head never extends relative to the upper "
                   "torso (0.0 deg; it flexes up to 13.8 deg at 140 ms as the torso reclines into "
                   "the yielding seat back); the 13.1 deg measured before came from the neck "
                   "springs unloading the posture's neck flexion under gravity")
def test_reference_rear_whiplash_head_extends_towards_202a_limit(rear):
    """The head-to-torso rotation stays within 5-20 deg (12 deg is FMVSS 202a's limit, a 50 mm
    backset with a rigid seat is near it)."""
    assert 5 < _rows(rear)["head rotation"]["value"] < 20


@pytest.fixture(scope="module")
def ncap():
    return load("us_ncap_frontal_56").run()


def test_reference_us_ncap_driver_is_held_by_lap_belt_and_cushion(ncap):
    """The shipped US NCAP 56 km/h belted driver (issue 13 section 1): the lap belt starts on
    the front of the pelvis, below the ASIS (within 0.10 m above the H-point and ahead of it,
    Bell et al. 1990 place the ASIS about 0.07 m above the hip joint centres), not on the
    abdomen (it lay 0.18 m up before, wrapped over the pelvis flesh's top); it then restrains
    the pelvis mostly forward, so the pelvis stays within the cushion's table (no pair runs
    past the end of its table) and the energy balance closes; head and neck figures pass
    FMVSS 208 and femur loads stay below its 10 kN. The belt loads the sternum (its chest wrap
    rides on it, as does the bag's patch over the ribcage): chest deflection 39 mm, inside FMVSS
    208's 63 mm, and the chest recovers once
    the belt unloads (the Hybrid III's ribs spring back: under a quarter of the peak is left at
    150 ms; the earlier unloading line to a permanent set kept 30 mm, 0.72 of it). On the
    vehicle pulse of a real NCAP test (NHTSA 11391) chest 3 ms is 49 g, inside FMVSS 208's
    60 g (54 g unsettled; 67.7 g on the idealised 80 ms half-sine with an 80 mm pull-in
    prescribed without a force limit); the Hybrid III 50M drivers of NHTSA 11391 and 14084
    measured HIC15 328 / 278, head 3 ms 58 / 55 g, chest deflection 27 / 31 mm (pyisomme
    docs/report.ipynb on NHTSA's data [C]); here, settled, HIC15 347 and head 3 ms 58 g. The
    39 mm of chest deflection (41.6 unsettled) are mostly the belt's 6.3-9.4 kN diagonal (the
    limiter holds 4.0 kN at the retractor, the D-ring's capstan factor exp(0.2 x 114 deg) = 1.49
    and its regularisation make B3 6.3 kN, friction over the torso the lower diagonal 9.4 kN;
    the bag's ribcage share adds about 1 mm; restraints work, not this test). The settled head
    stops inside the driver bag, 0.26 m in, short of the collapsed bag: no bottoming force (in
    the 0.26 m deep bag used before it bottomed with 6.8 kN on the hub, HIC15 1052)."""
    run = ncap
    _closes_and_stays_out(run)
    out, rows = run.results.outputs, _rows(run)
    for point in ("hip_inboard", "lap", "hip_outboard"):
        assert 0.0 < out[f"belt.{point}.z"][0] < 0.10, point       # B0 origin at the H-point
        assert out[f"belt.{point}.x"][0] > 0.05, point
    assert out["pelvis_flesh__seat_cushion.penetration"].max() < 0.12   # short of the pan row
    assert rows["HIC15"]["pass"] is True and 100 < rows["HIC15"]["value"] < 700
    assert rows["Nij"]["pass"] is True
    assert max(rows["femur force left"]["value"], rows["femur force right"]["value"]) < 10000
    assert out["driver_airbag_head_shell.bottoming_force"].max() == 0.0
    chest = -out["chest_translation.deflection"]                  # compression positive
    assert 30e-3 < chest.max() < 63e-3 and chest[-1] < 0.25 * chest.max()
    assert rows["chest 3 ms"]["pass"] is True and 40 < rows["chest 3 ms"]["value"] < 60


@pytest.mark.parametrize("which, low", [("ncap", 1000.0), ("full_width", 330.0)])
def test_regression_driver_left_foot_starts_on_the_toe_board(request, which, low):
    """The belted drivers' left feet start on the toe board (dummies/postures/driver_seated.toml,
    FMVSS 208's placement [U]) and are pressed into it by the leg at the pulse's peak: the 50M's
    lower leg and foot (5.5 kg) at the 52 g peak is 2.8 kN, with a share of the thigh's load
    through the knee 3-5 kN [E] (NHTSA 11391's driver: 1.9-3.0 kN at the tibias, scenarios/
    README.md); the 5F's (4.06 kg, dummies/hybrid3_05f.toml [C]) at her 37.5 g peak 1.5 kN, of
    which the foot takes at least its own 0.33 kN [E]. Before, the left foot rested on its heel
    with the ball 79 mm short of the toe pan (71 and 95 mm gaps at t = 0), slid forward and
    struck it: 6.8 kN on the 50M (US NCAP) and 4.6 kN on the 5F (Euro NCAP). Placed on the toe
    board but not settled, the feet touched it unloaded and the 5F's slid 0.13 m up it before
    striking it at 70 ms: 4.0 kN (50M) and 1.8 kN (5F). Settled (occupant.settle) they start
    pressed on it (0.5 and 0.2 mm in) and are loaded progressively: measured 2.8 kN at 61 ms on
    the 50M, 0.78 kN at 49 ms (0.5-0.7 kN from 50 to 80 ms) on the 5F."""
    run = request.getfixturevalue(which)
    out = run.results.outputs
    toe = out["left_foot_shell__toe_pan.penetration"]
    assert -0.005 < toe[0] < 0.005                        # touching at the start, not 79 mm short
    assert low < out["left_foot_shell__toe_pan.normal_force"].max() < 5000
