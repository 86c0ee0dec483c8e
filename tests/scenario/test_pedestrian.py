"""The pedestrian scenario (issue 13 section 1, ``scenarios/pedestrian_40.toml``): the car as a
body moving over the road, its front's wrap-around distance, the pedestrian's start on the road,
the loader's errors, and the run's head impact against published ranges."""
import math

import numpy as np
import pytest

from occupant.constants import G0, STANDARD_GRAVITY
from occupant.dynamics import body_poses
from occupant.integrate.divergence import penetration_guard
from occupant.io.toml_files import resolve_shipped
from occupant.scenario import ScenarioError, load
from occupant.scenario.load import resolve
from occupant.human.joint_failure import failure_levels
from occupant.scenario.defects import joint_failures, motion_defects
from occupant.scenario.pedestrian import head_impact
from occupant.scenario.pulse import KMH
from occupant.sensors.evaluate import segment_frame
from tests.scenario.test_scenario_fw_side_rear import no_motion_defects
from occupant.scenario.vehicle_front import (VehicleFrontError, lift_onto, load_vehicle_front,
                                             vehicle_indices)

FRONT = "sedan_front_midsize"


def test_analytic_wrap_around_distance_along_the_profile():
    f = load_vehicle_front(FRONT)
    ble = math.hypot(0.18, 0.19)                    # bumper top (0, 0.53) -> BLE (-0.18, 0.72)
    assert f.wrap_around_distance(0.0, 0.40) == pytest.approx(0.40)            # on the bumper
    assert f.wrap_around_distance(-0.09, 0.625) == pytest.approx(0.53 + ble / 2)
    # 5 cm off the bonnet's middle, along its normal: the same WAD as the middle itself
    a, b = np.array([-0.18, 0.72]), np.array([-1.162, 0.911])
    d = (b - a) / np.linalg.norm(b - a)
    n = np.array([d[1], -d[0]])                     # outward (up)
    p = 0.5 * (a + b) + 0.05 * n
    assert f.wrap_around_distance(*p) == pytest.approx(0.53 + ble + 0.5 * np.linalg.norm(b - a))
    assert f.wrap_around_distance(-1.941, 1.361) == pytest.approx(
        0.53 + ble + np.linalg.norm(b - a) + math.hypot(1.941 - 1.162, 1.361 - 0.911))


@pytest.fixture(scope="module")
def scenario():
    return load("pedestrian_40")


def test_analytic_car_starts_at_its_position_and_speed_with_its_surfaces(scenario):
    m = scenario.model
    k = m.marker_names.index("vehicle_frame")                  # the car's frame V on its link
    X = body_poses(m, m.make_data(), scenario.q0)[m.marker_body[k]]
    assert np.allclose(X[:3, :3] @ m.marker_R[k], np.eye(3), atol=1e-12)   # V is B0, moved
    assert np.allclose(X[:3, :3] @ m.marker_p[k] + X[:3, 3], [-0.20, 0.0, 0.0], atol=1e-12)
    qi, vi = vehicle_indices(m)
    assert scenario.v0[vi] == pytest.approx(40.0 * KMH) and np.count_nonzero(scenario.v0) == 1
    # the BLE plane (0, 0.53) -> (-0.18, 0.72): its normal is the segment turned outward
    ble = m.source.geometries["bonnet_leading_edge"]
    assert np.allclose(ble.normal, np.array([0.19, 0.0, 0.18]) / math.hypot(0.19, 0.18))
    assert ble.marker == "vehicle_frame"


def test_identity_pedestrian_starts_on_the_road(scenario):
    """The loader lifted the posture onto the road: lifting again does nothing, and a posture
    5 mm lower is lifted back by 5 mm."""
    q = scenario.q0.copy()
    assert lift_onto(scenario.model, q, ["road"]) == pytest.approx(0.0, abs=1e-12)
    q[2] -= 0.005
    assert lift_onto(scenario.model, q, ["road"]) == pytest.approx(0.005, abs=1e-12)


def _copy(tmp_path, edit, name="pedestrian_40"):
    path = tmp_path / f"{name}.toml"
    path.write_text(edit(resolve(name).read_text()))
    return path


def _human(text):
    """pedestrian_40 with the parametric human in place of the dummy (no knee pads; the chin and
    heels left out of its pairs as before the human had them, branch humanswap)."""
    return (text.replace('dummy = "hybrid3_50m_pedestrian"', 'human = {sex = "male", percentile = 50}')
            .replace('"left_knee_pad", "right_knee_pad",', "").replace('"chin", ', "")
            .replace(', "left_heel"', "").replace(', "right_heel"', ""))


@pytest.mark.parametrize("edit, where, message", [
    (lambda s: s + '\n[pulse]\nshape = "half_sine"\ndelta_v_kmh = 40.0\nduration = 0.1\n', "pulse",
     "B0 at rest on the road"),
    (lambda s: s.replace("front_position = -0.20", ""), "vehicle.front_position", "missing"),
    (lambda s: s.replace('front = "sedan_front_midsize"', 'front = "sedan_frnt"'), "vehicle.front",
     "unknown"),
    (lambda s: s.replace("yaw_deg = -90.0", 'yaw_deg = "west"'), "occupant.yaw_deg", "number"),
    (lambda s: s.replace('dummy = "hybrid3_50m_pedestrian"', 'dummy = "hybrid3_50m_pedestrian"\nhuman = {percentile = 50}'),
     "occupant", "exactly one of dummy and human"),
    (lambda s: _human(s).replace("percentile = 50", "percentile = 40"), "occupant.human.percentile",
     "is not tabulated for male"),
])
def test_reference_pedestrian_load_errors_name_file_and_key(tmp_path, edit, where, message):
    path = _copy(tmp_path, edit)
    with pytest.raises(ScenarioError) as err:
        load(path)
    text = str(err.value)
    assert text.startswith(f"{path}: {where}: ") and message in text, text


def test_reference_vehicle_keys_need_a_front(tmp_path):
    path = _copy(tmp_path, lambda s: s.replace('interior = "sled_buck_passenger"',
                                               'interior = "sled_buck_passenger"\nspeed_kmh = 40.0'),
                 name="fmvss208_sled_48_unbelted")
    with pytest.raises(ScenarioError, match=r"vehicle\.speed_kmh: only a scenario with a vehicle front"):
        load(path)
    # (usercheck11) an occupant scenario's speed is its pulse's: the keys that set it are named
    with pytest.raises(ScenarioError, match=r"\(--set vehicle.speed_kmh\): vehicle\.speed_kmh: .*\(accepted: "
                                            r"vehicle.front = a vehicle front, or leave it out; an occupant's crash "
                                            r"speed is its pulse's: pulse.speed_kmh .*, pulse.delta_v_kmh"):
        load("side_barrier", overrides={"vehicle.speed_kmh": 50.0})


def test_reference_vehicle_front_surfaces_must_form_a_chain(tmp_path):
    src = resolve_shipped(FRONT, "vehicles", "vehicle front", kind="vehicle_front")
    path = tmp_path / "front.toml"
    path.write_text(src.read_text().replace("from = [-0.18, 0.72]", "from = [-0.20, 0.72]"))
    with pytest.raises(VehicleFrontError) as err:
        load_vehicle_front(path)
    assert f"{path}: surface[2].from: " in str(err.value) and "one chain" in str(err.value)


@pytest.fixture(scope="module")
def run(scenario):
    return scenario.run()


def test_reference_pedestrian_40_head_impact_within_published_ranges(scenario, run):
    """The pedestrian Hybrid III's head strikes the bonnet rear or the windscreen with the HIT,
    WAD and speed that tests and simulations of a 50th male struck by a sedan at 40 km/h give:
    - HIT 100-150 ms [U: the range the HIT-by-simulation work of UN GTR 9 phase 2 (IWG-DPPS) and
      full-scale PMHS tests with mid-sized sedans (Kerrigan et al. 2007) report for 50th males;
      their tables were not read here; the example HIT-WAD graph of the Euro NCAP pedestrian
      protocol v7.0 (2013) 8.5.3.4 spans 98-138 ms (axis read)]. Hand estimate: the head, nearly
      at rest over the ground until the torso has turned onto the bonnet, starts 0.20 m ahead
      of the bumper's front and is struck 1.23 m behind it (measured): the car moves 1.43 m
      relative to it, 129 ms at 11.1 m/s, so at most ~125 ms after the first contact (4.8 ms),
      less as the head gains speed (measured 115.5 ms);
    - WAD 1800-2100 mm [U: full-scale tests of 50th males with sedans at 40 km/h; the GTR 9 /
      Euro NCAP adult headform zone, 1700-2100 mm, is laid out where adult heads land; in GIDAS
      74 % of pedestrians' head impacts on cars lie within WAD 2100 mm, SAE 2015-01-1461,
      abstract read; the 1800-2100 mm of full-scale tests could not be traced to a table]. Hand
      estimate: wrapped over the bonnet leading edge the body lays its length along the profile,
      WAD ~ standing height (1.753 m; in the walking stance the vertex is 1.73 m above the road)
      plus the slide up the bonnet (measured 1851 mm); the seated-spine Hybrid III (1.69 m, 1.67
      m in the stance) gave 1770 mm, short of the range;
    - head speed relative to the car 0.8-1.4 times the car's speed [U: Yang 2005 review, IJVS];
    - struck femur's axial compression below 4 kN [E]: the car loads the leg across its axis
      (the bumper 18.0 kN on the struck knee and shank, the bonnet leading edge's lower corner
      4.4 kN on the thigh 47 mm above the knee, measured); along the axis the cell reads the
      lower leg's inertia, the free foot caught by its ankle's stiff branch (measured 3.90 kN;
      1.5 kN on the [E] +-15 deg ankle stops before ankle50: test_reference_pedestrian_40_femur_
      compression_is_the_swinging_foot_caught_by_its_ankle); PMHS read 1-3 kN in their long
      bones [S: Untaroiu, Kerrigan et al. 2007, Stapp Car Crash J 51, abstract]. The hip's
      adduction stop at 20 deg [E] (now 30 deg, the human range) made a 9.4 kN spike when the
      struck leg met it at 39 rad/s.
    Its neck and chest criteria are computed with the base Hybrid III 50th male's limits.
    """
    res = run.results
    assert res.status == "finished", res.message
    h = head_impact(scenario, res)
    assert h["surface"] in ("bonnet", "windscreen")
    assert 0.0 < h["first_contact"] < 0.01              # the car reaches the leg at once
    assert 0.100 <= h["hit"] <= 0.150, h
    assert 1.80 <= h["wad"] <= 2.10, h
    assert 0.8 <= h["speed"] / (40.0 * KMH) <= 1.4, h
    rows = {r["criterion"]: r for r in run.criteria}
    assert rows["head impact time"]["value"] == pytest.approx(h["hit"] * 1e3)
    assert rows["head WAD"]["value"] == pytest.approx(h["wad"] * 1e3)
    assert rows["HIC15"]["value"] > 0 and rows["HIC15"]["pass"] is None
    assert rows["femur force right"]["value"] < 4000.0, rows["femur force right"]
    assert scenario.criteria_dummy == "hybrid3_50m"
    assert rows["Nij"]["value"] > 0 and rows["neck tension"]["value"] > 0


def test_reference_no_body_passes_through_the_car_or_the_road(scenario, run):
    """Every contact's largest penetration stays inside its characteristic's table (below the
    bottoming rows) and no joint passes its stop (``no_motion_defects``), and the road (linear
    laws) holds everything: no point of the body below -2 cm."""
    no_motion_defects(run)
    res = run.results
    for pair in scenario.model.source.contact_pairs.values():
        if pair.characteristic.table is None:
            pen = res.outputs[f"{pair.name}.penetration"].max()
            assert pen < 0.02, (pair.name, pen)


def test_identity_car_momentum_loss_is_the_impulse_of_the_contact_forces(scenario, run):
    """The car runs on a frictionless prismatic joint along B0's x, so only the contact forces
    of the pedestrian slow it: m_car (v(0) - v(T)) = -integral of the x force on it (its link's
    z axis is B0's x); the pedestrian takes that momentum."""
    res = run.results
    m = scenario.model
    qi, vi = vehicle_indices(m)
    link = m.joint_links[m.joint_names.index("vehicle_travel")][-1]
    lost = m.source.parts["vehicle"].mass * (res.v[0, vi] - res.v[-1, vi])
    impulse = np.trapezoid(res.f_ext[:, link, 5], res.t)
    assert lost > 0
    assert -impulse == pytest.approx(lost, rel=0.01), (lost, impulse)


def test_analytic_yaw_turns_the_whole_posture_about_the_vertical(scenario):
    """occupant.yaw_deg = -90 turns every body of the walking posture by -90 deg about B0's z
    (lifted by the same height onto the road): compare with the posture loaded unturned."""
    straight = load("pedestrian_40", overrides={"occupant.yaw_deg": 0.0})
    m = scenario.model
    X1 = body_poses(m, m.make_data(), scenario.q0)
    X0 = body_poses(m, m.make_data(), straight.q0)
    Rz = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])     # -90 deg about z
    dz = scenario.q0[2] - straight.q0[2]
    for b in m.body_names:
        if b == "vehicle":
            continue
        i = m.body(b)
        assert np.allclose(X1[i, :3, :3], Rz @ X0[i, :3, :3], atol=1e-9), b
        assert np.allclose(X1[i, :3, 3], Rz @ X0[i, :3, 3] + [0.0, 0.0, dz], atol=1e-9), b


def test_reference_occupant_human_loads_with_its_own_sensors(tmp_path):
    sensors = '[sensors]\nstandard = false\n\n[[sensor]]\nkind = "accelerometer"\nname = "Head CG"\nbody = "head"\npoint = "cg"\n'
    path = _copy(tmp_path, lambda s: _human(s).replace("[sensors]\nstandard = true\n", sensors))
    s = load(path)
    assert s.dummy == "human_male_1.753m_78.2kg" and [x.name for x in s.sensors] == ["Head CG"]
    assert "vehicle" in s.model.body_names and lift_onto(s.model, s.q0.copy(), ["road"]) == pytest.approx(0.0, abs=1e-12)


#: the parametric 50th male in the dummy's place, as users run it (tests/scenario/test_human_swap.py)
HUMAN_MALE = ["occupant.human.sex=male"]


def test_reference_pedestrian_human_hands_are_guarded_at_the_windscreens_bulge():
    """The human's hands and forearms are in pedestrian_40's windscreen pair under the dummy's
    names (human_swap maps none of them); the windscreen is a membrane (its glass bulges on the
    interlayer to its table's 200 mm, the instrument panel), so the penetration guard holds the
    human's fist (100 mm across: 99.6 mm by its size) to that bulge, while the bumper's and the
    bonnet's crushing pairs keep the geometric limit."""
    s = load("pedestrian_40", HUMAN_MALE)
    pairs = s.model.source.contact_pairs
    guard = penetration_guard(s.model)
    limit = dict(zip(guard.names, guard.limits))
    glass = load_vehicle_front(FRONT).characteristics["windscreen"]
    assert glass.membrane
    for side in ("left", "right"):
        for part in ("hand", "forearm"):
            assert f"{side}_{part}_shell__windscreen" in pairs
        hand = 2 * max(s.model.source.geometries[f"{side}_hand_shell"].semi_axes)
        assert hand < 0.1
        assert limit[f"{side}_hand_shell__windscreen"] == pytest.approx(glass.table[-1, 0]) == 0.2
        assert limit[f"{side}_hand_shell__bonnet"] == pytest.approx(hand)
        shank = 2 * max(s.model.source.geometries[f"{side}_shank_shell"].semi_axes)
        assert limit[f"{side}_shank_shell__bumper"] == pytest.approx(shank)


@pytest.fixture(scope="module")
def male_50():
    """(scenario, run) of pedestrian_40 with the 50th male human."""
    s = load("pedestrian_40", HUMAN_MALE)
    return s, s.run()


def test_reference_pedestrian_40_human_hand_is_held_by_the_windscreen(male_50):
    """The 50th male human runs pedestrian_40 to its end. Its far (left) arm, free at the
    shoulder (10 N m end moments, scenarios/validation/HISTORY.md, pedhand), swings over its head
    at 30-32 rad/s and strikes the windscreen 0.59 m up the glass at 166 ms, the fist at 27 m/s
    into the glass (0.34 kJ of work on the fist, 0.13 kJ on the forearm): the glass's 2.5-3 kN
    membrane holds it at 117 mm, in its bulge (beyond the fist's 99.6 mm size, short of the
    150 mm where the table stiffens towards the instrument panel), and it is off the glass by
    190 ms. Before branch pedhand the
    penetration guard stopped the run at 171.5 ms with the fist 100 mm deep, no criterion
    given. The head's impact lies in the published ranges of the dummy's test above (HIT 125.3
    ms, WAD 1931 mm, 13.2 m/s). The fist's depth and time move with the run's late motion: 99.6 mm
    at 184.6 ms at main 0ca4df49 (0.08 mm past its size), 97.6 mm at 185.5 ms once the knee's range
    ends at its passive hyperextension (branch kneeext); the guard's 200 mm on the glass, past the
    fist's size, is held by test_reference_pedestrian_human_hands_are_guarded_at_the_windscreens_bulge."""
    s, run = male_50
    res = run.results
    assert res.status == "finished", res.message
    hand = res.outputs["left_hand_shell__windscreen.penetration"]
    size = 2 * max(s.model.source.geometries["left_hand_shell"].semi_axes)
    assert 0.95 * size < hand.max() < 0.15, hand.max()   # 0.98 of its size (kneeext)
    # held, not through: coming off the glass at the run's end (main 0ca4df49: off at 199.6 ms;
    # kneeext: 4.9 mm at 200 ms, leaving at 7.8 mm/ms)
    assert hand[-1] < 0.1 * hand.max() and hand[-1] <= hand[-2]
    h = head_impact(s, res)
    assert 0.100 <= h["hit"] <= 0.150, h
    assert 1.80 <= h["wad"] <= 2.10, h
    assert 0.8 <= h["speed"] / (40.0 * KMH) <= 1.4, h
    rows = {r["criterion"]: r for r in run.criteria}
    assert rows["HIC15"]["value"] > 0


@pytest.fixture(scope="module")
def at_50():
    """(scenario, run) of pedestrian_40 at 50 km/h, t_end 0.25 s."""
    s = load("pedestrian_40", overrides={"vehicle.speed_kmh": 50.0, "solver.t_end": 0.25})
    return s, s.run()


def test_analytic_head_impact_time_scales_as_one_over_speed(scenario, run, at_50):
    """At these speeds the wrap is kinematic (gravity moves the body ~g HIT^2 / 2 = 6 cm by head
    impact, against ~1.2 m of travel): the car's travel to head impact, HIT v, stays within 10 %
    from 30 to 50 km/h, and the WAD grows with speed (the body slides further up the bonnet),
    as car-pedestrian reconstructions report [U: Yang 2005 review, IJVS]."""
    s30 = load("pedestrian_40", overrides={"vehicle.speed_kmh": 30.0, "solver.t_end": 0.25})
    travel, wad = {}, {}
    for v, (s, r) in ((30.0, (s30, s30.run())), (40.0, (scenario, run)), (50.0, at_50)):
        h = head_impact(s, r.results)
        travel[v], wad[v] = h["hit"] * v * KMH, h["wad"]
    assert all(abs(travel[v] / travel[40.0] - 1.0) < 0.10 for v in travel), travel
    assert wad[30.0] < wad[40.0] < wad[50.0], wad


def _channel(run, name):
    return next(c for c in run.results.channels if c.name == name)


def test_reference_pedestrian_50_head_bottoms_the_windscreen_on_the_cowl(scenario, run, at_50):
    """Why HIC15 reads 1555 at 40 km/h and 4964 at 50 (+25 % speed, +56 % energy): at both
    speeds the head lands on the cowl line, its centre over the bonnet's rear edge, in the corner
    of bonnet and windscreen 61 / 76 mm up the glass (WAD 1853 / 1868 mm, the bonnet's rear edge
    at 1792), loading both, over the scuttle that lies 60 mm behind the glass's lower 100 mm
    [E] (vehicles/sedan_front_midsize.toml). The glass holds the head on its membrane (2.5 kN)
    at both speeds; at 40 km/h the head, 62 mm into the glass, brushes the scuttle (2.3 mm,
    1.4 kN), at 50 km/h it stops on it (80 mm, 11.7 kN beside the glass's 2.8 kN, inside the
    HIC window). HIC15 at 30-55 km/h (branch windscreen): 1194, 1555, 4964 at 30 / 40 / 50
    (1303, 1702, 5211 with one windscreen table, its scuttle knee at 60 mm over the whole glass,
    branch pedhic50). The adult headform at the glass's centre reads HIC15 450 on the same
    front, on its base 1731 (tests/scenario/test_vehicle_front_headform.py): headform tests find
    HIC high at the cowl and the lower windscreen frame, under 500 mid-windscreen [S: Mizuno,
    Yonezawa and Kajzer, ESV 2001, abstract]."""
    from occupant.injury.evaluate import head as head_criteria
    front = scenario.front
    windscreen = next(sf for sf in front.surfaces if sf[0] == "windscreen")
    membrane = np.asarray(front.characteristics[windscreen[3]].table)[1, 1]    # 2.5 kN
    rear_x = windscreen[1][0]                          # the bonnet's rear edge, x in V
    rear_wad = front.wrap_around_distance(*windscreen[1])
    ih = scenario.model.body("head")
    for (s, r), stops in (((scenario, run), False), (at_50, True)):
        res = r.results
        h = head_impact(s, res)
        assert h["surface"] == "windscreen", h
        assert 0.0 < h["wad"] - rear_wad < 0.10, (h["wad"], rear_wad)
        glass, scuttle, bonnet = (res.outputs[f"head_shell__{n}.normal_force"]
                                  for n in ("windscreen", "scuttle", "bonnet"))
        k = int(np.argmax(glass + scuttle + bonnet))   # the car's largest push on the head
        qi, _ = vehicle_indices(s.model)
        x_head = res.body_com[k, ih, 0] - (s.front_position + res.q[k, qi])
        assert abs(x_head - rear_x) < 0.05, (x_head, rear_x)
        assert bonnet[k] > 1000.0                                      # 3.3 / 3.3 kN
        assert glass.max() < 1.2 * membrane, glass.max()               # 2.64 / 2.78 kN
        hic = head_criteria(*(_channel(r, f"Head CG acceleration {a}") for a in "XYZ"))["hic15"]
        assert hic.t1 <= res.t[k] <= hic.t2, (hic.t1, res.t[k], hic.t2)
        if stops:                                                      # 11.7 kN
            assert scuttle.max() > 2.0 * glass.max(), (scuttle.max(), glass.max())
        else:                                                          # 1.36 kN
            assert scuttle.max() < glass.max(), (scuttle.max(), glass.max())


def test_reference_pedestrian_40_note_gives_the_hit_as_the_criteria_row(scenario, run):
    """Two times of the head contact: the run's clock (t = 120.3 ms, the car started 0.05 m from
    the leg) and the head impact time (HIT, 115.5 ms), which IWG-DPPS-18-04 counts from the first
    vehicle-pedestrian contact (4.8 ms). The note names both and the first contact, so that it
    cannot be read as a second HIT (it read "strikes the windscreen at 121.5 ms (first vehicle
    contact 4.5 ms)" beside the row's 117.0 ms)."""
    h = head_impact(scenario, run.results)
    row = {r["criterion"]: r for r in run.criteria}["head impact time"]
    note = next(n for n in run.notes if n.startswith("head strikes"))
    assert h["time"] == pytest.approx(h["first_contact"] + h["hit"])
    assert f"at t = {h['time'] * 1e3:.1f} ms" in note, note
    assert f"head impact time {row['value']:.1f} ms" in note, note
    a, _, b = h["first_pair"].partition("__")
    assert f"({a.replace('_', ' ')} on the {b.replace('_', ' ')} at t = {h['first_contact'] * 1e3:.1f} ms)" in note


LOWER_LEG_PAIRS = ("right_shank_shell__bumper", "right_foot_shell__bumper", "right_shank_shell__road",
                   "right_foot_shell__road", "right_shank_shell__left_shank_shell",
                   "right_foot_shell__left_shank_shell")


def _lower_leg_on_femur(m, res, k):
    """Newton-Euler free body of the right lower leg and foot at sample k: the moment (J211 axes
    of the femur cell, its marker's, about the cell's point) of their load on the femur, sum of r x F of the
    bumper on the shank minus the rate of their angular momentum about that point,
    m (r - cell) x (a - g) + d(I w)/dt, from central differences of the recorded centres of mass
    and body poses. Also the bumper's own share, r x F, on the femur's x axis."""
    kl, kf, ku = m.body("right_lower_leg"), m.body("right_foot"), m.body("right_upper_leg")
    h = res.t[k + 1] - res.t[k]
    X = [body_poses(m, m.make_data(), res.q[j]) for j in range(k - 2, k + 3)]
    knee = X[2][ku, :3, :3] @ m.marker_p[m.marker("right_femur_load_cell")] + X[2][ku, :3, 3]

    def spin(j):                        # sum of R I R^T w of the two bodies at sample k - 2 + j
        out = np.zeros(3)
        for b in (kl, kf):
            R = X[j][b, :3, :3]
            W = (X[j + 1][b, :3, :3] - X[j - 1][b, :3, :3]) / (2.0 * h) @ R.T
            out += R @ m.body_inertia[b] @ R.T @ np.array([W[2, 1], W[0, 2], W[1, 0]])
        return out

    c = res.body_com
    lin = sum(m.body_mass[b] * np.cross(c[k, b] - knee, (c[k + 1, b] - 2.0 * c[k, b] + c[k - 1, b]) / h ** 2
                                        - np.array(STANDARD_GRAVITY)) for b in (kl, kf))
    pair = "right_shank_shell__bumper"
    point = np.array([res.outputs[f"{pair}.point_{a}"][k] for a in "xyz"])
    bumper = np.cross(point - knee, [res.outputs[f"{pair}.normal_force"][k], 0.0, 0.0])  # along the car's x
    R_seg = X[2][ku, :3, :3] @ segment_frame(m, ku)[0]
    R_cell = X[2][ku, :3, :3] @ m.marker_R[m.marker("right_femur_load_cell")]   # the cell's own axes
    on_femur = -(lin + (spin(3) - spin(1)) / (2.0 * h) - bumper)
    return (R_cell.T @ on_femur) * np.array([1.0, -1.0, -1.0]), (R_seg.T @ bumper)[0]


def test_identity_pedestrian_40_femur_bending_is_the_rigid_knee_dragging_the_lower_leg():
    """The femur cells are read across the knee (occupant.sensors.defaults): the lower leg's load
    on the femur about the femur cell's point (107.9 mm up the femur from the knee's pivot, the
    dummy file's femur_load_cell marker), in the cell's J211 axes (the marker's: the open FE 50M's
    cell skew, 3.6 deg about the femur's y and -1.3 about its x), by inverse dynamics (RNEA). A
    free body of the lower leg and foot (no other contact on them then) gives the same bending Mx
    and torsion Mz within 5 % of the peak, at the shank's peak bumper load (15 ms), at the
    channel's peak (15 ms) and at the hip's rotation stop (27 ms): section, frame and sign are
    the cell's. What they show is a rigid leg's load, not a femur's: the Hybrid III's knee is a
    hinge that neither bends sideways nor twists. At 15 ms the car drives the knee (knee pad on
    the bumper, 9.0 kN) ahead of the lower leg, and the knee drags its 5.5 kg along (-4.8 kN m
    about the cell; -3.6 about the knee centre); the bumper's 8.8 kN on the shank 0.14 m below
    the knee gives back +2.4 kN m (+1.5), of the opposite sign (-3.25 kN m at the peak, 14.6 ms;
    -2.9 about the knee centre). The knee is met once (the thigh shell ends at the knee
    centre): with the thigh's end on the bonnet leading edge's corner as well (6.9 kN beside the
    knee pad's 6.9 kN) the peak was -2.7 kN m about the knee centre, so the double contact did
    not make the bending. At 27 ms nothing touches the lower leg: the hip meets its 45 deg
    rotation stop (the human range [U]) at 59 rad/s, the leg having spun about the femur's axis
    (the bumper's push on the flexed, trailing shank lies 0.05 m off it), and the knee stops
    the lower leg with it (-3.1 kN m; -2.6 about the knee centre, the lateral shear 4.8 kN times
    the 0.108 m adding the rest). A human knee gives way in valgus at 134 +- 7 N m [U: SAE
    2003-01-0895, abstract] and a femur breaks at 458 +- 95 N m [S: Funk, Kerrigan and
    Crandall 2004, AAAM 48:215-233, abstract].
    The free body's rates are central differences of the recorded poses, so the run here records
    every 1e-5 s step to 35 ms (branch ankle50): since the 50M's ankle takes his FE deck's
    inversion/eversion and twist laws (free to 22.9 deg, then 5000 N m/rad) the right ankle's
    twist reaches its stiff branch at 16 ms (1.8 kN m), and at the scenario's 1e-4 s samples the
    differences missed 220 N m there (the cell -3.30 kN m, the free body -3.08); at every step
    they miss 126 N m (the same at 2e-6 s), inside the 5 % (165 N m)."""
    fine = load("pedestrian_40", {"solver.output_dt": 1e-5, "solver.t_end": 0.035})
    run = fine.run()
    res, m = run.results, fine.model
    mx, mz = _channel(run, "Right femur moment X"), _channel(run, "Right femur moment Z")
    peak = float(np.max(np.abs(mx.values)))
    k15 = int(np.argmax(res.outputs["right_shank_shell__bumper.normal_force"]))
    kpeak = int(np.argmin(np.abs(res.t - mx.t[int(np.argmax(np.abs(mx.values)))])))
    khip = int(np.argmax(np.abs(res.outputs["right_hip_z.load"])))
    for k in (k15, kpeak, khip):
        free, bumper = _lower_leg_on_femur(m, res, k)
        others = [p for p in LOWER_LEG_PAIRS[1:] if res.outputs[f"{p}.normal_force"][k] > 1.0]
        assert not others, (res.t[k], others)
        cell = np.array([np.interp(res.t[k], c.t, c.values) for c in (mx, mz)])
        assert np.allclose(free[[0, 2]], cell, atol=0.05 * peak), (res.t[k], free, cell)
    # at 15 ms the bumper's own moment on the shank opposes the reading; at 27 ms the hip is
    # beyond its rotation stop and nothing touches the lower leg
    free, bumper = _lower_leg_on_femur(m, res, k15)
    assert bumper > 500.0 and free[0] < -500.0, (bumper, free)
    assert abs(res.outputs["right_hip_z.deflection"][khip]) > math.radians(45.0)
    assert res.outputs["right_shank_shell__bumper.normal_force"][khip] == 0.0


def test_reference_pedestrian_40_knee_is_met_once(scenario, run):
    """The bumper's top corner lies at the struck knee (knee centre 0.52 m, corner 0.53 m): the
    knee pad meets the bumper there, and the thigh meets the bonnet leading edge above the knee,
    never at or past the knee centre, where the knee pad is. Every contact point of the right
    thigh shell on the edge (force over 100 N) lies on the hip's side of the knee centre along
    the femur (measured: 26 mm or more above it). When the thigh shell reached 59 mm past the
    knee centre, its end met the edge's lower corner 8 mm past the knee centre, beside the knee
    pad on the bumper: the knee was struck twice (6.9 kN each at 15 ms)."""
    res, m = run.results, scenario.model
    pair = "right_thigh_shell__bonnet_leading_edge"
    ku, kl = m.body("right_upper_leg"), m.body("right_lower_leg")
    loaded = np.flatnonzero(res.outputs[f"{pair}.normal_force"] > 100.0)
    assert loaded.size > 0
    for k in loaded:
        X = body_poses(m, m.make_data(), res.q[k])
        hip, knee = X[ku, :3, 3], X[kl, :3, 3]
        point = np.array([res.outputs[f"{pair}.point_{a}"][k] for a in "xyz"])
        assert (point - knee) @ (knee - hip) < 0.0, (res.t[k], point, knee)


def test_reference_pedestrian_40_head_shell_stands_for_the_back_of_the_head(scenario, run):
    """The head meets the car and the road through its head shell and its chin; its occiput is
    not paired: its centre lies inside the head shell, so both paired with a surface would crush
    it twice (test_scenario_files.py's test_reference_one_body_region_crushes_a_surface_once).
    That holds while the shell reaches further beyond each of those surfaces than the occiput:
    whenever the occiput's deepest point along a surface's normal lies beyond it, within its
    bounds, the shell's lies deeper. The head strikes the windscreen with its right side, where
    the shell is the outer one (measured: the occiput beyond it for 60 ms, 36.4 mm at most, the
    shell 7.8 mm deeper or more; scenarios/HISTORY.md, branch pedface), and with it the scuttle
    behind the glass's base; a head turning its back to the car would fail this and need the
    occiput paired in the shell's place."""
    from occupant.restraints.belt_clearance import ellipsoids_at
    res, src = run.results, scenario.model.source
    qi, _ = vehicle_indices(scenario.model)
    planes = {"road", *scenario.front.surface_names}
    surfaces = {p.geometry_b for p in src.contact_pairs.values()
                if p.geometry_a == "head_shell" and p.geometry_b in planes}
    assert surfaces == {"road", "bonnet", "windscreen", "scuttle"}

    def deepest(ell, g, point):              # (depth beyond the plane, in-plane u, w) of the
        c, R, D = ell                        # ellipsoid's support point along -normal
        M = R @ np.diag(D ** 2) @ R.T
        x = c - M @ g.normal / math.sqrt(g.normal @ M @ g.normal)
        u, w, n = g.axes.T @ (x - point)
        return -n, u, w

    beyond = 0
    for k in range(len(res.t)):
        E = ellipsoids_at(run, k, ["head_shell", "occiput"])
        for name in surfaces:
            g = src.geometries[name]
            point = g.point + ([scenario.front_position + res.q[k, qi], 0.0, 0.0]
                               if g.marker == "vehicle_frame" else 0.0)
            d, u, w = deepest(E["occiput"], g, point)
            if d > 0.0 and (g.half_size is None or (abs(u) <= g.half_size[0] and abs(w) <= g.half_size[1])):
                beyond += 1
                assert deepest(E["head_shell"], g, point)[0] > d, (name, res.t[k])
    assert beyond > 0        # the occiput does pass the windscreen


def test_reference_pedestrian_40_femur_compression_is_the_swinging_foot_caught_by_its_ankle(scenario, run):
    """What the femur cells' compression peaks are (scenarios/HISTORY.md, branch pedfemur): the
    lower leg's inertia as the free foot is caught by its ankle. Nothing touches either foot
    (the road carries at most 88 N, on the struck forefoot, and none from 8 ms: the dummy starts
    on the road unloaded); the bumper sweeps the shank sideways and the foot, lagging, turns
    about the ankle's inversion/eversion axis (x; its centre of mass 32 mm below it) through the
    50M deck's free 22.9 deg at over 200 rad/s, to be caught by the deck's 5000 N m/rad branch
    (ankle50): in about a millisecond the knee stops the lower leg and foot along the femur. By
    source (occupant.sensors.evaluate.load_cell_sources) at the raw channel's largest
    compression: right -4.90 kN at 17.8 ms = inertia -7.40 kN + the lower leg's external loads
    (the bumper on the shank) +2.50 kN, foot 0, the ankle x at -30.7 deg with 1026 N m after
    swinging at up to 247 rad/s; left -2.96 kN at 35.1 ms = -3.57 + 0.61 kN, -29.6 deg, 666 N m,
    216 rad/s; the criteria (CFC 600) 3.90 / 2.80 kN. With the [E] +-15 deg stops the ankle had
    before (fails here): the right foot was caught at 121 rad/s (-17.2 deg, 327 N m) and the
    right peak was -1.56 kN at 11.9 ms = inertia -1.06 + the shank's -0.50 kN; the left -0.82 kN
    at 24.2 ms, the shank on the bumper (-1.27 kN) less inertia (+0.46); criteria 1.42 / 0.84 kN.
    PMHS struck at 40 km/h by a sedan read peak axial forces of 1-3 kN in their long bones [S:
    Untaroiu, Kerrigan et al. 2007, Stapp Car Crash J 51, abstract]; the femur axial force is no
    pedestrian criterion. The ankles pass the tables' ends (28.65 deg) by 2.9 deg at most (right
    z at 29.6 ms), inside the stops' 5 deg allowance (2.1 deg to spare; 0.2 before)."""
    from occupant.human.loader import load_description
    from occupant.sensors.defaults import default_sensors
    from occupant.sensors.evaluate import evaluate, load_cell_sources
    res, m = run.results, scenario.model
    out, t = res.outputs, res.t
    rate = 1.0 / float(t[1] - t[0])
    _, segments = load_description("hybrid3_50m")          # the pedestrian's ankles are the 50M's
    foot = next(seg for seg in segments if seg.joint_name.endswith("ankle"))
    angle, moment = np.asarray(next(r for r in foot.resistances if r.dof == 0).table).T
    free = angle[moment == 0.0].max()                      # the deck's free zone, 22.9 deg
    for side in ("left", "right"):
        cell = next(s for s in default_sensors(m) if s.name == f"{side.title()} femur")
        key = f"{cell.name} force Z"
        fz = next(c for c in evaluate(m, res, [cell], rate=rate) if c.name == key).values
        parts = {k: v[key] for k, v in load_cell_sources(m, res, cell, rate=rate).items()}
        k = int(np.argmin(fz))
        assert sum(v[k] for v in parts.values()) == pytest.approx(fz[k], abs=1e-6)
        assert fz[k] < -2.0e3, (side, fz[k])                           # measured -2.96 / -4.90 kN
        # the inertia is the reading and more: the lower leg's external loads push the other way
        assert parts["inertia"][k] < fz[k] - 300.0 and parts[f"{side}_lower_leg"][k] > 300.0, side
        near = (t > t[k] - 2e-3) & (t < t[k] + 2e-3)
        for p in (f"{side}_foot_shell", f"{side}_heel"):
            touching = [n for n in m.source.contact_pairs if p in n.split("__")
                        and np.any(out[f"{n}.normal_force"][near] > 0.0)]
            assert not touching, (side, touching)
        x = out[f"{side}_ankle_x.deflection"]
        assert abs(x[k]) > free and abs(out[f"{side}_ankle_x.load"][k]) > 400.0, (side, x[k])
        speed = np.abs(np.gradient(x, t))[(t > t[k] - 2e-3) & (t < t[k])]
        assert speed.max() > 150.0, (side, speed.max())       # rad/s, measured 216 / 247 (121 before)


#: the parametric 5th-percentile female in the dummy's place (the only percentile her sex has
#: tabulated: occupant list --keys)
HUMAN_FEMALE_5 = ["occupant.human.sex=female", "occupant.human.percentile=5"]


def _knee_below_bumper_top(s):
    """m, how far the struck (right) knee's centre lies below the bumper's top edge at t = 0."""
    m = s.model
    X = body_poses(m, m.make_data(), s.q0)
    bumper = next(f for f in load_vehicle_front(FRONT).surfaces if f[0] == "bumper")
    top = bumper[2][1]                                         # its upper end's z in V
    return top - X[m.body("right_lower_leg"), 2, 3]


def test_reference_pedestrian_5f_knee_lies_below_the_bumpers_top(scenario):
    """pedestrian_40's pairs give the legs below the knee to the bumper and the thighs to the
    bonnet leading edge (BLE), the knee being where the two meet (the scenario file's comment).
    That holds for the Hybrid III and the 50th male human, whose knees stand at the bumper's
    top (0.53 m): 10 and 3 mm below it (measured). The 5th female's knee stands 0.441 m high,
    89 mm below it, so the bumper's top 90 mm faces her lower thigh, which only the BLE pair
    names: the BLE's lower edge, the bumper's top corner, is what strikes her thigh first, and
    her knee shell meets the bumper's face below it
    (test_reference_pedestrian_40_5f_knee_meets_the_bumper_below_the_corner)."""
    assert 0.0 <= _knee_below_bumper_top(scenario) < 0.015
    assert 0.0 <= _knee_below_bumper_top(load("pedestrian_40", HUMAN_MALE)) < 0.015
    assert 0.08 < _knee_below_bumper_top(load("pedestrian_40", HUMAN_FEMALE_5)) < 0.10


@pytest.fixture(scope="module")
def female_5():
    """(scenario, run) of pedestrian_40 with the 5th female human."""
    s = load("pedestrian_40", HUMAN_FEMALE_5)
    return s, s.run()


def test_reference_pedestrian_40_5f_thigh_is_struck_on_the_bumpers_top_corner(female_5):
    """Where the 5th female is struck first (scenarios/HISTORY.md, branch ped5f): her right
    thigh, at 3.2 ms, on the BLE surface's lower edge, which is the bumper's top corner (V (0,
    0.53) m); not on the BLE (0.72 m), nor with her pelvis (pelvis flesh and abdomen never touch
    the BLE in the run). While it carries over 1 kN every contact point lies within 70 mm of that
    corner (measured z 0.50-0.54 m). The thigh's centre stays in the wedge between the bumper's
    face and the BLE's, so the corner's edge is its one contact (named in the bumper pair too,
    the same edge pushes twice: measured, branch ped5f). With her knee on the bumper below it
    (test_reference_pedestrian_40_5f_knee_meets_the_bumper_below_the_corner) the corner goes
    86.9 mm into her thigh's 101 mm radial semi-axis, 13.9 kN at 16.1 ms (before the human's
    knee: 100.8 mm, 25.7 kN, past the BLE table's last row; branch humanknee)."""
    s, run = female_5
    res, m = run.results, s.model
    out = res.outputs
    assert res.status == "finished", res.message
    qi, _ = vehicle_indices(m)
    pair = "right_thigh_shell__bonnet_leading_edge"
    force = out[f"{pair}.normal_force"]
    on = force > 1.0e3
    x_v = out[f"{pair}.point_x"][on] - (s.front_position + res.q[on, qi])   # in V
    z_v = out[f"{pair}.point_z"][on]
    assert np.all(np.hypot(x_v, z_v - 0.53) < 0.07), (x_v, z_v)
    for torso in ("pelvis_flesh", "abdomen"):                  # never on the BLE (measured)
        assert out[f"{torso}__bonnet_leading_edge.normal_force"].max() == 0.0, torso
    h = head_impact(s, res)
    assert h["first_pair"] == pair and h["first_contact"] < 0.005, h
    radial = min(m.source.geometries["right_thigh_shell"].semi_axes)
    assert 0.80 * radial < out[f"{pair}.penetration"].max() < 0.95 * radial, radial


def test_reference_pedestrian_40_5f_thigh_stays_inside_the_bles_table(female_5):
    """No contact of the 5th female's run passes its characteristic's table. Before the human's
    knee (branch humanknee) her right thigh passed the BLE table's last row (100.8 mm, the table
    ending at 100 mm, 25.7 kN at 18.1 ms: the bumper's top corner reached her femur's axis,
    branch ped5f), a strict xfail of this test; with the knee shell on the bumper 86.9 mm."""
    s, run = female_5
    tables = [d.text() for d in motion_defects(run.model, run.results) if d.kind == "contact table"]
    assert tables == []


def test_reference_pedestrian_40_5f_knee_meets_the_bumper_below_the_corner(female_5):
    """Why the bumper's top corner no longer goes to her femur's axis (scenarios/HISTORY.md,
    branches pedlower, humanknee): her knee (0.441 m high) faces the bumper's face (0.30-0.53
    m), and the human's knee shell (occupant.human.builder.knee_shell: a sphere on the knee
    centre, 58.8 mm at her 1.501 m, ANSUR II's girth above the patella), in the bumper pair in
    the dummy's knee pads' place (occupant.scenario.human_swap), meets it there: the struck
    knee's force peaks at 5.2 kN at 13.6 ms, 52 mm deep, at 0.44 m, before the thigh's on the
    corner (16.1 ms), and stops the leg's middle with the shank (4.5 kN). On main the human had
    no knee surface: the bumper met her shank only below 0.37 m and her thigh only at the corner
    (0.498 m and up), and the corner alone stopped her thigh, pelvis and trunk (271 N s, 100.8
    mm, 25.7 kN). [E] spheres of 40-60 mm (branch pedlower) gave 92.5-86.4 mm."""
    s, run = female_5
    res, m = run.results, s.model
    out = res.outputs
    knee = body_poses(m, m.make_data(), s.q0)[m.body("right_lower_leg"), 2, 3]
    assert 0.43 < knee < 0.45
    shell = m.source.markers[m.source.geometries["right_knee_shell"].marker]
    assert shell.part == "right_upper_leg"                     # on the femur, as the knee pad
    pair = "right_knee_shell__bumper"
    force = out[f"{pair}.normal_force"]
    k = int(np.argmax(force))
    assert force[k] > 4.0e3 and 0.40 < out[f"{pair}.point_z"][k] < 0.48
    thigh = out["right_thigh_shell__bonnet_leading_edge.normal_force"]
    assert k < int(np.argmax(thigh)) and thigh.max() < 20.0e3


def _rounded_bumper_top(tmp_path, radius, thighs_on_ble):
    """pedestrian_40 with the 5th female human on a front whose bumper top is rounded: a cylinder
    ``bumper_top`` of ``radius`` (m) tangent to the bumper's face and the BLE's, with the BLE's
    table; the two faces end at its tangent lines, joined in the profile by their chord, which
    no pair names. The thighs meet the cylinder; ``thighs_on_ble``: the BLE too."""
    tmp_path.mkdir()
    front = load_vehicle_front(FRONT)
    (_, _, corner, _), (_, _, ble_top, _) = front.surfaces[:2]
    u = np.subtract(ble_top, corner) / np.linalg.norm(np.subtract(ble_top, corner))
    t = radius * math.tan(math.acos(u[1]) / 2.0)         # the tangent lines from the corner
    low = (float(corner[0]), float(corner[1] - t))
    high = (float(corner[0] + t * u[0]), float(corner[1] + t * u[1]))
    text = resolve_shipped(FRONT, "vehicles", "vehicle front", kind="vehicle_front").read_text()
    text = text.replace("to = [0.0, 0.53]", f"to = [{low[0]!r}, {low[1]!r}]")
    text = text.replace('name = "bonnet_leading_edge"\nfrom = [0.0, 0.53]',
                        f'name = "fascia_chord"\nfrom = [{low[0]!r}, {low[1]!r}]\n'
                        f'to = [{high[0]!r}, {high[1]!r}]\ncharacteristic = "bumper"\n\n'
                        f'[[surface]]\nname = "bonnet_leading_edge"\nfrom = [{high[0]!r}, {high[1]!r}]')
    text += (f'\n[[structure]]\nname = "bumper_top"\nshape = "cylinder"\n'
             f'point = [{float(corner[0] - radius)!r}, 0.0, {low[1]!r}]\nradius = {radius!r}\n'
             f'length = {float(2 * front.half_width)!r}\nz_axis = [0.0, 1.0, 0.0]\n'
             f'characteristic = "bonnet_leading_edge"\n')
    path = tmp_path / "rounded_front.toml"
    path.write_text(text)

    def edit(s):
        s = s.replace(f'front = "{FRONT}"', f'front = "{path.as_posix()}"')
        if not thighs_on_ble:
            s = s.replace('a = ["left_thigh_shell", "right_thigh_shell", "pelvis_flesh", "abdomen",',
                          'a = ["pelvis_flesh", "abdomen",')
        return s + '\n[[contact]]\na = ["left_thigh_shell", "right_thigh_shell"]\nb = "bumper_top"\n'
    s = load(_copy(tmp_path, edit), HUMAN_FEMALE_5)
    assert "bumper_top" in s.front.surface_names
    return s, s.run(), high


def test_reference_pedestrian_40_5f_thigh_depth_is_not_the_corners_sharpness(tmp_path, female_5):
    """The 5th female's thigh is struck on the bumper's sharp top corner
    (test_reference_pedestrian_40_5f_thigh_is_struck_on_the_bumpers_top_corner). A rounded
    bumper top felt once goes as deep: a fascia cylinder of radius 100 mm [E] tangent to both
    faces, with the BLE's table, in place of the BLE for her thighs, takes her right thigh 84.3
    mm deep (the sharp corner 86.9), 11.6 kN (13.9), her knee shell 5.5 kN on the bumper (5.2).
    The depth is what her thigh brings against the table beside her knee on the bumper, whatever
    the corner's shape. Before the human's knee (branch pedlower) both went past the table's end:
    102.4 and 100.8 mm (radius 50 / 150 mm: 100.4 / 102.7). Named beside the BLE the fascia
    pushes twice: the BLE's lower edge, the fascia's upper tangent line, pushes the same thigh at
    the same time (measured 72.1 mm, 7.2 kN at 16.2 ms, the fascia 76.6 mm, 7.6 kN; before the
    knee 80.1 mm, 8.0 kN and 84.2 mm, 11.6 kN), as the bumper's and the BLE's shared edge did
    (branch ped5f)."""
    sharp = female_5[1].results.outputs["right_thigh_shell__bonnet_leading_edge.penetration"].max()
    table_end = 0.10                                           # the BLE table's last row, m
    s, run, _ = _rounded_bumper_top(tmp_path / "once", 0.1, thighs_on_ble=False)
    res = run.results
    assert res.status == "finished", res.message
    once = res.outputs["right_thigh_shell__bumper_top.penetration"].max()
    assert once < table_end and abs(once - sharp) < 0.005, (once, sharp)
    assert not [d.text() for d in motion_defects(run.model, res) if d.kind == "contact table"]
    s, run, high = _rounded_bumper_top(tmp_path / "twice", 0.1, thighs_on_ble=True)
    out, qi = run.results.outputs, vehicle_indices(s.model)[0]
    ble, top = "right_thigh_shell__bonnet_leading_edge", "right_thigh_shell__bumper_top"
    k = int(np.argmax(out[f"{ble}.normal_force"]))
    assert out[f"{ble}.normal_force"][k] > 5.0e3 and out[f"{top}.normal_force"][k] > 5.0e3
    assert out[f"{ble}.penetration"][k] == pytest.approx(out[f"{top}.penetration"][k], rel=0.15)
    x_v = out[f"{ble}.point_x"][k] - (s.front_position + run.results.q[k, qi])
    assert math.hypot(x_v - high[0], out[f"{ble}.point_z"][k] - high[1]) < 0.06
    assert max(out[f"{ble}.penetration"].max(), out[f"{top}.penetration"].max()) < table_end


def test_reference_pedestrian_40_human_ankle_fails_in_eversion_in_the_air(run, male_50, female_5):
    """The 50th male human's struck foot everts past the human's 25 deg (data/joint_rom.toml [U],
    the right side's lower end), not on the road: its foot shell leaves the road at 7.4 ms and
    touches it again at 20.0 ms, after the deepest excess, so the shoe's friction plays no part.
    The bumper flings the shank's lower end sideways (the ankle, the foot's frame origin, at up
    to about 300 g); the foot, hanging on an ankle whose passive law is nearly free inside the
    range (Anderson & Pandy's subtalar law: 1.8 N m at 25 deg, data/joint_passive.toml), lags and
    reaches the eversion end at 13.2 ms turning at 143 rad/s against the shank; the stop, sized
    to hold the foot under 250 g within 5 deg (the Hybrid III 50M's, derive_hybrid3.py
    STOP_DESIGN_G), takes it 5.7 deg past with up to 478 N m and 34 J: 9.9 x the human ankle's
    eversion failure moment, 48.1 N m (Parenteau, Viano & Petit 1998 [S abstract], data/
    joint_failure.toml), with far more work than that moment does over the stop's 5 deg (4.2 J).
    A real ankle's ligaments or malleoli fail here; no sourced range or stiffness mends it (with
    the eversion end at 35 deg the foot passes it by 5.2 deg with 562 N m: branch pedlower). So
    the run says it as a predicted injury (a note naming the joint, time, peak moment, failure
    moment and source), not as the defect line `joint stop: right_ankle_x 5.7 deg past its range
    end` it printed before (branch pedjoint): the 50th male's run has no joint stop defect left.
    Nor has the 5th female's (her right ankle 5.5 deg past with 351 N m, 22 J, before a defect
    line too). The dummy's joints have no failure moments: its run has no such note."""
    assert not [n for n in run.notes if n.startswith("predicted injury")]
    _, run = male_50
    res, m = run.results, run.model
    out, t = res.outputs, res.t
    assert [d.text() for d in motion_defects(m, res) if d.kind == "joint stop"] == []
    failed = {(f.element, f.motion): f for f in joint_failures(m, res)}
    assert {(g.element, g.motion) for g in run.joint_failures} == set(failed)   # kept, not redone
    f = failed["right_ankle_x", "eversion"]
    notes = [n for n in run.notes if n.startswith("predicted injury: right ankle x (eversion)")]
    assert notes == [f"predicted injury: {f.text()}"]
    level = failure_levels(m)["right_ankle_x"]["lower"]
    assert (level.motion, level.moment) == ("eversion", 48.1)
    e = m.joint_resistance_names.index("right_ankle_x")
    lower = m.joint_resistance.lower[e]
    assert math.degrees(lower) == pytest.approx(-25.0)        # the right foot's eversion end
    x = out["right_ankle_x.deflection"]
    k0, k1 = int(np.flatnonzero(x < lower)[0]), int(np.argmin(x))
    assert k0 < k1 and math.degrees(lower - x[k1]) > 5.0
    assert f.t_past == t[k0] and k0 <= np.searchsorted(t, f.t) <= k1
    for geometry in ("right_foot_shell", "right_heel"):           # in the air: no friction
        assert np.all(out[f"{geometry}__road.normal_force"][k0 - 20:k1 + 1] == 0.0), geometry
    assert np.gradient(x, t)[k0 - 10:k0 + 1].min() < -100.0       # rad/s, arriving
    p = res.body_poses[:, m.body("right_foot"), :3, 3]             # the ankle
    h = t[1] - t[0]
    a = np.linalg.norm(p[k0 - 50:k0] - 2.0 * p[k0 - 51:k0 - 1] + p[k0 - 52:k0 - 2], axis=1) / h ** 2
    assert a.max() > 250.0 * np.linalg.norm(STANDARD_GRAVITY)     # the stop's design, exceeded
    assert f.moment > 4.0 * level.moment and f.work > 4.0 * level.moment * math.radians(5.0)
    _, her = female_5
    assert [d.text() for d in motion_defects(her.model, her.results) if d.kind == "joint stop"] == []
    assert ("right_ankle_x", "eversion") in {(g.element, g.motion)
                                            for g in joint_failures(her.model, her.results)}


#: the dynamic lateral bending failure moment of PMHS knee joints (Kerrigan et al. 2003, SAE
#: 2003-01-0895, abstract: 134 +- 7 N m; earlier studies 284-351 N m) [S abstract]; no knee
#: hyperextension failure moment was found (scenarios/validation/HISTORY.md, branch kneeext)
KNEE_BENDING_FAILURE = 134.0      # N m


def test_reference_pedestrian_40_human_knees_hyperextend_in_the_air(scenario, run, male_50):
    """The human knee's range ends 5 deg past straight (the passive hyperextension, data/
    joint_rom.toml [U]); at 0 deg, before, the 50th male's far (left) knee, swinging straight at
    6 rad/s once the bumper let it go, struck the stop at 47.5 ms with 216 N m: now it turns
    back by itself at 1.3 deg of hyperextension under the passive law (a few N m). The struck
    (right) knee is whipped past the range end with nothing of the car or road on the leg: the
    right hip's axial rotation reaches its stop (766 N m at 103.9 ms) and the lumbar twist
    nears its range end (11.4 of 11.5 deg, 739 N m at 108 ms), braking the pelvis (its spin 21
    -> 16 rad/s at 102.5-105 ms; the thigh's turn about the knee axis reverses, -1.4 -> +6.0
    rad/s), while the shank, the legs above the body, keeps turning: the knee extends at 13
    rad/s and the stop takes it 0.9 deg past with 633 N m (6.7 J; at the 0 deg end 771 N m, 8.5
    J). The intact passive law alone would take that energy only about 14 deg past straight
    with some 230 N m (Anderson & Pandy's first exponential integrated) [D], past the knee's
    bending failure: a
    real knee would be injured here (no failure in the model's knee, as its ankle). The Hybrid
    III's own knee in the same run does the same at its -3 deg end (over 1 kN m)."""
    _, res_h = male_50
    res, m = res_h.results, res_h.model
    out, t = res.outputs, res.t
    e = m.joint_resistance_names.index("left_knee_flexion")
    lower = m.joint_resistance.lower[e]
    assert math.degrees(lower) == pytest.approx(-5.0)
    left = out["left_knee_flexion.deflection"]
    assert lower < left.min() < 0.0                                  # hyperextends, inside the range
    assert np.abs(out["left_knee_flexion.load"]).max() < 10.0
    right = out["right_knee_flexion.deflection"]
    k0 = int(np.flatnonzero((right < lower) & (t > 0.05))[0])
    k1 = k0 + int(np.argmin(right[k0:k0 + 200]))
    rate = np.gradient(right, t)
    assert rate[k0 - 50:k0].min() < -10.0                           # rad/s, arriving
    for name in out:                                                # in the air
        if name.endswith(".normal_force") and name.startswith(
                ("right_shank_shell__", "right_knee_shell__", "right_foot_shell__", "right_heel__")):
            assert np.all(out[name][k0 - 100:k1 + 1] == 0.0), name
    h = m.joint_resistance_names.index("right_hip_z")
    hip = out["right_hip_z.deflection"][k0 - 200:k0]
    assert np.abs(hip).max() > m.joint_resistance.upper[h]           # the hip's twist at its stop
    peak = out["right_knee_flexion.load"][k0:k1 + 1].max()
    assert peak > 3.0 * KNEE_BENDING_FAILURE
    # the dummy's own knee, the same run
    dummy = run.results.outputs
    e = run.model.joint_resistance_names.index("right_knee_flexion")
    assert dummy["right_knee_flexion.deflection"].min() < run.model.joint_resistance.lower[e]
    assert dummy["right_knee_flexion.load"].max() > 1000.0


def test_reference_a_seated_dummy_stood_as_the_pedestrian_is_said_so():
    """pedestrian_40 with --set occupant.dummy=hybrid3_95m stood the seated 95th (its lumbar
    column curved, its pelvis moulded sitting) in the walking stance unsaid (usercheck7): a note
    names the standing variant; the shipped pedestrian has no such note."""
    from occupant.scenario.load import SEATED_PEDESTRIAN_NOTE
    said = SEATED_PEDESTRIAN_NOTE.format("hybrid3_95m")
    assert said in load("pedestrian_40", {"occupant.dummy": "hybrid3_95m"}).notes
    assert not any("seated Hybrid III" in n for n in load("pedestrian_40").notes)


def _glass_normal_speed(s, res, k, body, point=None):
    """(speed towards the windscreen's face, m/s, > 0 inwards) at sample k of the car-relative
    velocity of ``body``'s centre of mass (or of its frame's origin, ``point`` = "origin")."""
    ih = s.model.body(body)
    _, vi = vehicle_indices(s.model)
    p = res.body_com[:, ih] if point is None else res.body_poses[:, ih, :3, 3]
    v = (p[k + 1] - p[k - 1]) / (res.t[k + 1] - res.t[k - 1])
    v[0] -= res.v[k, vi]
    glass = next(sf for sf in s.front.surfaces if sf[0] == "windscreen")
    d = np.subtract(glass[2], glass[1])
    n = np.array([d[1], -d[0]]) / np.hypot(*d)            # the glass's outward normal in x-z
    return -float(v[[0, 2]] @ n)


def _head_on_glass_and_cowl(front, mass, v0, dt=1e-6):
    """(deepest, m; HIC15) of a rigid head of ``mass`` kg striking the windscreen face-on at
    ``v0`` m/s over the scuttle: the glass's table plus the scuttle's from its clearance behind
    the glass's face, loading branch only, to the stop (the rebound left out)."""
    from occupant.injury.criteria import hic
    glass = np.asarray(front.characteristics["windscreen"].table)
    scuttle = np.asarray(front.characteristics["scuttle"].table)
    plane = next(g for g, _ in front.structures if g.name == "scuttle")
    edge = next(sf for sf in front.surfaces if sf[0] == "windscreen")[1]
    clearance = float(np.dot(np.array([edge[0], 0.0, edge[1]]) - plane.point, plane.normal))

    def force(x):
        f = np.interp(x, glass[:, 0], glass[:, 1])
        if x > clearance:                               # past the table's last row: its end slope
            slope = (scuttle[-1, 1] - scuttle[-2, 1]) / (scuttle[-1, 0] - scuttle[-2, 0])
            y = x - clearance
            f += np.interp(y, scuttle[:, 0], scuttle[:, 1]) + max(y - scuttle[-1, 0], 0.0) * slope
        return f

    x, v, acc = 0.0, v0, []
    while v > 0.0:
        a = force(x) / mass
        acc.append(a / G0)
        v -= a * dt
        x += v * dt
    return x, hic(np.arange(len(acc)) * dt, np.array(acc)).value


def test_reference_pedestrian_40_human_head_stops_on_the_cowl_at_its_neck_whip(scenario, run, male_50):
    """Why the 50th male human reads HIC15 4750 where the Hybrid III reads 1555 (scenarios/
    validation/HISTORY.md, branch pedhuman; the figures here are that branch's: with its
    shoulder caps on the bonnet, branch pedshoulder, HIC15 4437, the scuttle 11.8 kN, the glass
    83.5 mm deep, the neck compressed 8.2 kN, the rest within 1 %): its head lands 124 mm up the glass (WAD 1916 mm,
    the bonnet's rear edge at 1792), above the scuttle's 100 mm strip [E] and past the bonnet
    (0.7 kN on the head shell), at 13.4 m/s towards the glass's face against the dummy's 10.7:
    its neck base (C7/T1) comes at 5.4 m/s (the dummy's 6.3), the head swinging about it (the
    human's neck bent sideways, lagging, before it whips). The glass's 2.5 kN membrane takes
    155 J of its 365 J in the first 60 mm; the scuttle's upper edge stops the rest (12.2 kN
    against the glass's 2.8, inside the HIC window), and the neck, compressed 7.8 kN at the
    scuttle's peak, hands part of that push to the trunk lying on the bonnet behind it. A rigid
    head of the human's head mass on the same two tables (one degree of freedom, face-on, at the
    run's normal speed) goes as deep as the run's head shell goes into the glass (83.8 against
    84.6 mm) and reads more (HIC15 5928); the dummy's head, in the corner where the bonnet's rear
    edge shares the load, goes 62 mm where the rigid head would go 77: the 4750 is this front's
    [E] cowl meeting that head, not a
    contact the run lacks or a surface passed through. At 35 km/h the scuttle's push is 2.9 times
    the glass's (7.7 against 2.7 kN, HIC15 1844): below this test's 3."""
    from occupant.injury.evaluate import head as head_criteria
    front = scenario.front
    rear_wad = front.wrap_around_distance(*next(sf for sf in front.surfaces if sf[0] == "windscreen")[1])
    strip = 2.0 * next(g for g, _ in front.structures if g.name == "scuttle").half_size[0]
    speeds = {}
    for who, (s, r) in (("dummy", (scenario, run)), ("human", male_50)):
        res = r.results
        h = head_impact(s, res)
        k = int(np.searchsorted(res.t, h["time"]))
        speeds[who] = tuple(_glass_normal_speed(s, res, k, *b) for b in (("head",), ("neck", "origin")))
    s, r = male_50
    res = r.results
    h = head_impact(s, res)
    assert h["surface"] == "windscreen" and h["wad"] - rear_wad > strip, (h["wad"], rear_wad)
    (head_h, base_h), (head_d, base_d) = speeds["human"], speeds["dummy"]
    assert head_h > 1.15 * head_d and base_h < base_d, speeds       # the head's swing, not the trunk's
    glass, scuttle, bonnet = (res.outputs[f"head_shell__{n}.normal_force"]
                              for n in ("windscreen", "scuttle", "bonnet"))
    assert scuttle.max() > 3.0 * glass.max() and bonnet.max() < 1000.0, (scuttle.max(), glass.max(), bonnet.max())
    k = int(np.argmax(scuttle))
    hic = head_criteria(*(_channel(r, f"Head CG acceleration {a}") for a in "XYZ"))["hic15"]
    assert hic.t1 <= res.t[k] <= hic.t2, (hic.t1, res.t[k], hic.t2)
    fz = _channel(r, "Upper neck force Z")
    j = int(np.argmin(fz.values))                                     # compression < 0
    assert abs(fz.t[j] - res.t[k]) < 0.002 and -fz.values[j] < scuttle[k], (fz.t[j], fz.values[j], scuttle[k])
    deepest, hic_rigid = _head_on_glass_and_cowl(front, s.model.body_mass[s.model.body("head")], head_h)
    depth = res.outputs["head_shell__windscreen.penetration"].max()
    assert abs(deepest - depth) < 0.005 and hic_rigid > hic.value, (deepest, depth, hic_rigid, hic.value)
