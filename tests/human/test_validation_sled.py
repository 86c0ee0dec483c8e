"""The whole human in a belted frontal sled (issue 14 section 4): the Gold Standard 1 case of
Shaw et al. (2009), scenarios/validation/human_sled_gs1_40.toml, the parametric human (no neck
muscles: a PMHS) in the buck, belt and contacts of fmvss208_sled_48_belted on the GS1 40 km/h
pulse, on GS1's rigid seat pan (vehicles/gs1_sled_buck.toml); figures against the peaks of the
PMHS corridors' boundaries. Not fitted: nothing of the human was tuned to this case."""
import pathlib
from types import SimpleNamespace

import numpy as np
import pytest

import occupant.human.validation
from occupant.channel import Channel
from occupant.human.validation import (CHEST_OUTPUT, G0, LAP_SEGMENT, LAP_SEGMENT_SEPARATE, LUMBAR_BODIES,
                                       LUMBAR_FRACTIONS, SHOULDER_SEGMENT, SPINE_ACCEL_CFC, T8_FRACTION,
                                       UPPER_TORSO_BODIES, VALIDATIONS,
                                       belted_sled_figures, peak_deceleration_g, read_scenario,
                                       run_validation, spine_accelerometers)
from occupant.io.toml_files import InputFileError
from occupant.restraints.belt_clearance import belt_depths, depth, ellipsoids_at
from occupant.scenario.load import ScenarioError, load
from occupant.scenario.run import run_scenario
from tests.human.test_human_joints import BELWADI_YANG_FAILURE
from tests.scenario.test_scenario_fw_side_rear import CHIN_PADDING, FOAM_BOTTOMED


def test_analytic_belted_sled_figures_of_known_motion():
    """The sled moves 0.5 m forward, the head 0.8 m: 300 mm head excursion. T1 at (0, 0, 0.2) m
    on the upper torso, which moves 0.6 m and at the end is turned 90 deg about y (the point's x
    goes from 0 to 0.2 m): 0.6 + 0.2 - 0.5 = 300 mm. The belt forces' peaks come through in kN;
    the pelvis riding with the sled has no hip excursion, the pelvis frame's origin (the
    H-point) being what is read, not its centre of mass (which here moves ahead of it)."""
    n = 3
    s = np.array([0.0, 0.25, 0.5])
    base = np.tile(np.eye(4), (n, 1, 1))
    base[:, 0, 3] = s
    com = np.zeros((n, 3, 3))
    com[:, 0, 0] = [0.0, 0.4, 0.8]                                   # head
    com[:, 2, 0] = s + 0.1 * np.array([0.0, 1.0, 2.0])               # pelvis com tilting ahead
    poses = np.tile(np.eye(4), (n, 3, 1, 1))
    poses[:, 2, 0, 3] = s                                            # pelvis origin with the sled
    poses[:, 1, 0, 3] = [0.0, 0.3, 0.6]                              # upper torso origin
    poses[-1, 1, :3, :3] = [[0, 0, 1], [0, 1, 0], [-1, 0, 0]]        # 90 deg about y at the end
    names = ["head", "upper_torso", "pelvis"]
    poses[:, 2, 2, 3] = [0.0, 0.03, 0.01]                            # the pelvis rises 30 mm
    res = SimpleNamespace(base_poses=base, body_com=com, body_poses=poses,
                          outputs={f"{SHOULDER_SEGMENT}.force": np.array([0.0, 4000.0, 1000.0]),
                                   f"{LAP_SEGMENT}.force": np.array([0.0, 500.0, 2000.0]),
                                   CHEST_OUTPUT: np.array([0.0, -0.02, -0.01])})
    model = SimpleNamespace(body=names.index)
    # the acromia on the upper torso: the right one 0.05 m ahead of its origin, the left one
    # above it; turned 90 deg about y at the end, each goes to x = its 0.1 m height: 0.3 + 0.05 -
    # 0.25 - 0.05 = 50 mm, then 0.6 + 0.1 - 0.5 - 0.05 = 150 mm (right) and 200 mm (left)
    acromia = {"right": [0.05, -0.2, 0.1], "left": [0.0, 0.2, 0.1]}
    fig, hist = belted_sled_figures(res, model, [0.0, 0.0, 0.2], acromia=acromia)
    np.testing.assert_allclose(hist["right_acromion_x_mm"], [0.0, 50.0, 150.0], atol=1e-9)
    assert fig["right_acromion_x_excursion_mm"] == pytest.approx(150.0)
    assert fig["left_acromion_x_excursion_mm"] == pytest.approx(200.0)
    assert fig["head_x_excursion_mm"] == pytest.approx(300.0)
    assert fig["t1_x_excursion_mm"] == pytest.approx(300.0)
    assert fig["shoulder_belt_force_kN"] == pytest.approx(4.0)
    assert fig["lap_belt_force_kN"] == pytest.approx(2.0)
    assert fig["hip_x_excursion_mm"] == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_allclose(hist["hip_x_mm"], 0.0, atol=1e-12)
    # T8 at T8_FRACTION of T1's offset, (0, 0, 0.075) m: 0.6 + 0.075 - 0.5 m at the end
    assert fig["t8_x_excursion_mm"] == pytest.approx(1e3 * (0.6 + 0.2 * T8_FRACTION - 0.5))
    # T1 and T8 only come down as the torso turns (their rise is the start's 0); the pelvis rises
    # 30 mm; the sternum's 20 mm towards the spine is the chest's deflection
    assert fig["t1_z_rise_mm"] == fig["t8_z_rise_mm"] == 0.0
    assert hist["t1_z_mm"][-1] == pytest.approx(-200.0)
    assert fig["pelvis_z_rise_mm"] == pytest.approx(30.0)
    assert fig["chest_deflection_mm"] == pytest.approx(20.0)
    assert "l4_x_excursion_mm" not in fig                            # no lumbar top given
    assert "lower_shoulder_belt_force_kN" not in fig                 # no segment into a buckle
    # a lumbar segment whose origin (the lumbar-pelvis joint, L3/L4) goes 0.1 m ahead of the sled
    # and which turns 90 deg about y at the end: its points at height h go h further; L2 at a
    # quarter of its 0.2 m (LUMBAR_FRACTIONS): 100 + 50 mm. L4 lies half a body (a twelfth of the
    # 0.2 m) below the joint, (0.02, 0, 0.15) m on the pelvis, which rides with the sled and is
    # turned 90 deg about y at the end too: its x goes from 0.02 to 0.15 - 0.2 / 12 m, 113.3 mm
    # (read on the lumbar segment, as before branch gs1pelvis, 100 - 16.7 = 83.3 mm)
    lumbar = np.tile(np.eye(4), (n, 1, 1))
    lumbar[:, 0, 3] = s + np.array([0.0, 0.05, 0.1])
    lumbar[-1, :3, :3] = [[0, 0, 1], [0, 1, 0], [-1, 0, 0]]
    # and lower legs whose origins (the knees) go 40 and 20 mm ahead of the sled: 30 mm
    legs = np.tile(np.eye(4), (n, 2, 1, 1))
    legs[:, 0, 0, 3], legs[:, 1, 0, 3] = s + [0.0, 0.01, 0.04], s + [0.0, 0.0, 0.02]
    poses[-1, 2, :3, :3] = [[0, 0, 1], [0, 1, 0], [-1, 0, 0]]
    res.body_poses = np.concatenate([poses, lumbar[:, None], legs], axis=1)
    res.body_names = names + ["lumbar", "left_lower_leg", "right_lower_leg"]
    # and a shoulder belt segment into the buckle (the lower shoulder belt; the lap belt's own
    # segment into it is not read): its peak in kN
    res.outputs["belt.abdomen-buckle.force"] = np.array([0.0, 3000.0, 1500.0])
    res.outputs["lap_belt.hip_inboard-buckle.force"] = np.array([0.0, 9000.0, 0.0])
    model = SimpleNamespace(body=res.body_names.index)
    fig, hist = belted_sled_figures(res, model, [0.0, 0.0, 0.2], [0.0, 0.0, 0.2],
                                    lumbar_base=[0.02, 0.0, 0.15])
    assert fig["knee_x_excursion_mm"] == pytest.approx(30.0)
    assert fig["pelvis_z_rise_mm"] == pytest.approx(30.0)            # the H-point, as before
    # the pelvis read at a point 0.1 m behind its origin (pelvis_point, the sacral canal on a
    # human): turned 90 deg about y at the end it stands 0.1 m above the origin, which is 0.01 m
    # up: 110 mm, where the H-point's peak is its 30 mm at the middle sample
    fig, hist = belted_sled_figures(res, model, [0.0, 0.0, 0.2], [0.0, 0.0, 0.2],
                                    lumbar_base=[0.02, 0.0, 0.15], pelvis_point=[-0.1, 0.0, 0.0])
    np.testing.assert_allclose(hist["pelvis_z_mm"], [0.0, 30.0, 110.0], atol=1e-9)
    assert fig["pelvis_z_rise_mm"] == pytest.approx(110.0)
    assert fig["hip_x_excursion_mm"] == pytest.approx(0.0, abs=1e-9)   # the hip stays the H-point
    assert fig["lower_shoulder_belt_force_kN"] == pytest.approx(3.0)
    assert fig["l4_x_excursion_mm"] == pytest.approx(1e3 * (0.15 - 0.2 / 12.0 - 0.02))
    assert fig["l2_x_excursion_mm"] == pytest.approx(150.0)


def test_reference_spine_points_at_the_trunk_joints_vertebral_levels():
    """The human's trunk segments are de Leva's, cut at the omphalion, level with the L3/L4 disc,
    and the xiphion, level with the T9/T10 disc (validation.py, sources there); the thorax-lumbar
    joint stands at the xiphion, the lumbar-pelvis joint at L3/L4 two levels above Reed et al.'s
    L5/S1 (at the omphalion to stop 44; test_builder
    test_analytic_lumbar_pelvis_joint_two_levels_above_l5s1). So the upper torso carries nine thoracic
    bodies (T1-T9), the lumbar segment six (T10-L3), and the points read as the PMHS's
    vertebrae lie at their centres with each segment's bodies equally tall: T8 1.5 bodies above
    the upper torso's base, L2 1.5 above the lumbar's, L4 half a body below it, on the pelvis.
    Before branch gs1pelvis the joints were taken for T12/L1 and L5/S1: T8 at 4.5 of 12 bodies,
    L2 and L4 at 3.5 and 1.5 of five, both two vertebrae too high."""
    assert (UPPER_TORSO_BODIES, LUMBAR_BODIES) == (9, 6)
    assert T8_FRACTION == pytest.approx(1.5 / 9.0)
    assert LUMBAR_FRACTIONS == pytest.approx({"l2": 0.25, "l4": -1.0 / 12.0})
    data = pathlib.Path(occupant.human.validation.__file__).parent / "data"
    deleva = (data / "deleva1996.toml").read_text()
    assert "[male.middle_trunk]   # xiphion -> omphalion" in deleva
    assert "[male.lower_trunk]    # omphalion -> mid-hip" in deleva


def test_analytic_spine_deceleration_of_known_motion():
    """A spine channel decelerating as a 20 g half-sine over 80 ms (content near 6 Hz, which CFC
    180 passes within 0.1 %) with a 10 g ripple at 2 kHz riding on it (CFC 180's fourth-order
    roll-off from about 300 Hz leaves under 0.01 g of it away from the record's ends, where the
    filter's padding continues it): its peak x deceleration is the
    half-sine's 20 g, where the unfiltered channel peaks near 30 g. Through
    belted_sled_figures an accelerometer channel named "t1 ..." comes out as
    t1_x_deceleration_g. The accelerometers sit at T1, at T8_FRACTION of it, and at L2's
    LUMBAR_FRACTIONS of the lumbar top."""
    assert SPINE_ACCEL_CFC == 180
    t = np.arange(0.0, 0.2, 1e-4)
    pulse = np.where((t > 0.02) & (t < 0.1), np.sin(np.pi * (t - 0.02) / 0.08), 0.0)
    ax = G0 * (-20.0 * pulse + 10.0 * np.sin(2 * np.pi * 2000.0 * t))
    peak, filtered = peak_deceleration_g(t, ax)
    assert peak == pytest.approx(20.0, rel=2e-3)
    assert -ax.min() / G0 > 29.0
    assert abs(filtered[(t > 0.12) & (t < 0.17)]).max() < 0.02      # the ripple is gone
    fig, hist = belted_sled_figures(
        SimpleNamespace(base_poses=np.tile(np.eye(4), (2, 1, 1)), body_com=np.zeros((2, 3, 3)),
                        body_poses=np.tile(np.eye(4), (2, 3, 1, 1)),
                        outputs={f"{SHOULDER_SEGMENT}.force": np.zeros(2),
                                 f"{LAP_SEGMENT}.force": np.zeros(2)}),
        SimpleNamespace(body=["head", "upper_torso", "pelvis"].index), [0.0, 0.0, 0.2],
        accelerations=[Channel("t1 acceleration X", t, ax, "m/s^2")])
    assert fig["t1_x_deceleration_g"] == pytest.approx(peak)
    np.testing.assert_allclose(hist["t1_x_g"], filtered)
    t1, t8, l2 = spine_accelerometers([0.0, 0.0, 0.2], [0.0, 0.0, 0.1])
    assert (t1.body, t8.body, l2.body) == ("upper_torso", "upper_torso", "lumbar")
    np.testing.assert_allclose(t8.point, [0.0, 0.0, 0.2 * T8_FRACTION])
    np.testing.assert_allclose(l2.point, [0.0, 0.0, 0.1 * LUMBAR_FRACTIONS["l2"]])


def test_bad_sled_file_names_file_and_key(tmp_path):
    sc, path = read_scenario("human_sled_gs1_40")
    text = open(path).read().replace('sled = "data/gs1_sled_40_human.toml"', 'sled = "data/nothing.toml"')
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    with pytest.raises(InputFileError, match=r"bad\.toml.*sled"):
        read_scenario(bad)


@pytest.fixture(scope="module")
def gs1():
    return run_validation("human_sled_gs1_40")


def _assert_inside(gs1, *names):
    """Each named GS1 figure inside its PMHS corridor."""
    for name in names:
        value, inside = gs1["checks"][name]
        assert inside, (name, value, gs1["corridor"][name])


@pytest.mark.xfail(strict=True, reason=(
    "T1 goes 197.7 mm forward, 28.3 mm under Shaw et al.'s 226.0 (the last step below). Its "
    "history: 225.7 mm, 0.3 mm under, since the lumbar-pelvis joint "
    "(L3/L4) stands two levels above Reed et al.'s L5/S1, 30.7 mm higher than at de Leva's "
    "omphalion (branch lumbarheight; 229.9 mm before), the pelvis, rigid up to the joint, tilts "
    "further (27.4 -> 29.1 deg at most) and the trunk above it turns less (the lumbar segment's "
    "forward turn 22.1 -> 20.5 deg, the upper torso's 41.7 -> 40.8): T1 4.2 mm and the head 9.1 "
    "mm less far (scenarios/validation/HISTORY.md Stop 45, lumbarheight); 223.3 mm since the hands rest on "
    "the thighs' tops (branch gs1hands); 222.8 mm since passenger_seated puts the heels' lowest "
    "points on a floor 0.328 m below the H-point (branch passheel); 197.7 mm (head 373.1, inside) "
    "since the belt's held abdomen wrap is placed from the thorax run's tangent point and the "
    "fit's sweeps settle (branch gravitybelt2 merged with main 62a71a8, branch gs1merge): the belt "
    "fitted 0.77 forward on the thorax, across the sternum, holds the torso further back"))
def test_reference_gs1_excursions_inside_the_pmhs_corridors(gs1):
    """Head and T1 peak forward excursions relative to the sled inside the peaks of Shaw et al.'s
    (2009) corridor boundaries (head 322-455 mm, T1 226-281 mm): 360 and 257 mm on GS1's rigid
    seat pan (vehicles/gs1_sled_buck.toml; on the padded cushion T1 went 332 mm); 371 and 259 mm
    since the neck without muscles takes the passive tissue's damping; 358.6 and 261.2 mm before
    the upper anchorage was placed from the shoulder (279.6 and 196.4 mm since, both below; 282.7
    and 197.6 mm with the webbing's largest strain kept up); 342.3 and 228.4 mm (T1 2.4 mm
    inside) since the belts lie on the body: the shoulder belt over the abdomen, the lap belt
    over the pelvis flesh (283.8 and 197.8 mm with the lap belt alone); since the neck's sagittal
    range splits between its joints (joint_rom.toml) T1 229.3 mm inside, the head 312.4 mm out
    while the seated posture levelled the head at C7/T1 alone (8 deg past its flexion range);
    352.5 and 234.9 mm since both neck joints level it (occupant.human.neck_levelling); 405.2
    and 229.9 mm before the lumbar-pelvis joint moved up to L3/L4 (396.1 and 225.7 since: xfail)."""
    _assert_inside(gs1, "t1_x_excursion_mm")


def test_reference_gs1_head_excursion_inside_the_pmhs_corridor(gs1):
    """The head's peak forward excursion inside Shaw et al.'s corridor (322-455 mm)."""
    _assert_inside(gs1, "head_x_excursion_mm")


def test_reference_gs1_shoulder_belt_forces_inside_the_pmhs_corridors(gs1):
    """The upper shoulder belt's peak force inside the range of the eight GS1 PMHS tests' own
    peaks (5.64-8.22 kN): 8.08 kN (earlier figures, from 10.71 on the trapezoid pulse:
    scenarios/validation/HISTORY.md). The belt takes up the upper body arriving at about 5 m/s
    relative to the sled at 50 ms and stops it in some 25 ms (PMHS T1 travels on to 116-125 ms);
    over the torso the belt loses to friction what the capstan law allows on the model's own wrap
    angles (test_identity_gs1_shoulder_belt_keeps_the_capstan_law), its share of the upper's that
    of the PMHS (test_reference_gs1_shoulder_belt_share_is_the_pmhs_tests). The lower: next test."""
    _assert_inside(gs1, "shoulder_belt_force_kN")


def test_reference_gs1_lower_shoulder_belt_force_inside_the_pmhs_corridor(gs1):
    """The lower shoulder belt's peak force inside the eight GS1 PMHS tests' own peaks
    (5.07-6.52 kN): 6.47 kN, 0.05 kN inside, since the belt's held abdomen wrap is placed from the
    thorax run's tangent point and the fit's sweeps settle (branch gravitybelt2 merged with main
    62a71a8, branch gs1merge; 6.55 kN on gravitybelt2 alone, 7.53 kN on main 62a71a8). Before, a
    strict xfail: 6.81 kN since the trunk's flexion and extension split by vertebral level
    (joint_rom.toml; scenarios/validation/HISTORY.md, 'Stop 35', spinesplits)."""
    _assert_inside(gs1, "lower_shoulder_belt_force_kN")


@pytest.mark.xfail(strict=True, reason=(
    "outboard lap belt 0.83 kN (0.93 before gravitybelt2; earlier figures: "
    "scenarios/validation/HISTORY.md, GS1 'Why the "
    "lap belt carries little'); PMHS 1.60-2.21 kN at 78-82 ms, the SAFER "
    "folder's corridor files, not verified: it holds no per-test lap belt traces, and its shoulder "
    "belts' corridor files lie 1.6-2.6 times below their tests' own traces; were these as low, the "
    "crash's 0.83 kN would be further below): held at the knees, the pelvis tilts forward 26 deg "
    "about the hips; measured in scenarios/validation/HISTORY.md. 0.83 kN at 70 ms on main "
    "c806109: its legs run 66.5 and 73.7 deg from the horizontal, so it lengthens with the hips' "
    "forward travel, which the knee supports end by 60 ms (26 mm), and shortens as they sink into "
    "the pan (15-20 mm); slack by 85 ms (test_regression_gs1_lap_belt_follows_the_hips_forward_"
    "and_down; scenarios/HISTORY.md, gs1lap)"))
def test_reference_gs1_lap_belt_force_inside_the_pmhs_corridor(gs1):
    """Outboard lap belt peak inside the peaks of Shaw et al.'s (2009) corridor boundaries
    (1.60-2.21 kN; the SAFER folder's files, not verified: no per-test traces,
    scenarios/validation/HISTORY.md GS1 "The corridors")."""
    _assert_inside(gs1, "lap_belt_force_kN")


def test_reference_gs1_hip_excursion_inside_the_pmhs_corridor(gs1):
    """The hip's (H-point's) peak forward excursion relative to the sled inside the peaks of Shaw
    et al.'s (2009) Hip_x_disp corridor boundaries (-3.3 to 63.1 mm; -5.6 before the corridor
    audit, branch gs1audit): 27.9 mm since the knees bear on GS1's rigid knee supports
    (vehicles/gs1_sled_buck.toml; 87.5 mm on the passenger buck's knee bolster 0.11 m ahead of
    them); 27.0 mm now."""
    _assert_inside(gs1, "hip_x_excursion_mm")


def test_regression_gs1_figures(gs1):
    """As measured (Euler, the integrator's default step; 50th male, no neck muscles; GS1's own
    belt: separate shoulder and lap belts with locked retractors at the SAFER GS1 deck's
    anchorages, no D-ring, no buckle slip ring; lap belt on the front of the pelvis, chest wrap on
    the sternum; GS1's rigid seat pan): head 371 mm and T1 259 mm (inside); the belt forces are
    OUTSIDE the PMHS corridors and held as they came out: upper shoulder belt 10.95 kN
    (corridor files then 3.54-4.48), outboard lap belt 3.73 kN (1.60-2.21; its peak is the re-loading at 122 ms)
    (scenarios/validation/HISTORY.md says why). The head's 3 ms acceleration, 130 g when the
    Hybrid III's bottoming stop caught the lower neck in lateral bending, is 87 g with the neck's
    progressive stops, 84.5 g with their hysteresis, 85.8 g with the ball joints' resistance
    acting on the rate of their angles, 90.8 g with the passive tissue's damping of a neck
    without muscles (before: head 360.3 mm, T1 257.5 mm, belts 10.62 and 2.21 kN). Since the
    seated postures level the head at the lower neck alone (the Hybrid III's bracket; the human
    has none, its neck posture 20/0 deg in place of 15/5 [E]): head 360.2 mm, T1 261.7 mm, belts
    10.81 and 3.82 kN, head 3 ms 84.5 g (were 371.1, 259.0, 10.95, 3.73, 90.8). The hip
    (H-point) goes 112.0 mm forward (PMHS at most 63.1 mm; the pelvis's centre of mass 142 mm).
    Since the neck's lateral range splits 17.5 / 27.5 deg between C7/T1 and the condyles
    (joint_rom.toml; the head bends sideways here, the lower neck to 47 deg, was 52): the lap
    belt's re-loading at 124 ms 3.80 -> 3.56 kN, head 3 ms 84.2 -> 81.7 g, head 359.8 -> 355.8 mm
    (the other figures within 0.6 %). Since the human sits on its buttock (the pelvis hung on
    the thighs 0.11 m above the rigid pan and dropped 56 mm in the crash; now 22 mm): head
    354.7 -> 332.0 mm, T1 262.8 -> 269.6 mm, shoulder belt 10.83 -> 9.84 kN (against the eight
    PMHS tests' 5.64-8.22 kN), lap belt 3.59 -> 4.20 kN (its peak now the loading at 60 ms, not
    the rebound's re-loading at 124 ms), hip 112.2 -> 107.9 mm, head 3 ms 82.1 -> 69.9 g. Since
    the belts' wraps carry the webbing lying on the body with their motion over it
    (restraints.belt.wrap_drift; counted as slip against friction before): head 332.0 -> 358.6
    mm, T1 269.6 -> 261.2 mm, shoulder belt 9.84 -> 9.86 kN, lap belt 4.20 -> 3.63 kN, hip
    107.9 -> 108.5 mm, head 3 ms 69.9 -> 74.8 g. Since the upper anchorage is placed from the
    shoulder (the SAFER deck's offset from its shoulder belt's crossing of mid-clavicle, 0.18 m
    higher and 0.09 m further back): head 358.6 -> 279.6 mm and T1 261.2 -> 196.4 mm (both now
    OUT, below the PMHS's), shoulder belt 9.86 -> 10.99 kN, lap belt 3.63 -> 3.64 kN, hip
    108.5 -> 102.2 mm, head 3 ms 74.8 -> 75.2 g; the belt's path over the thorax is unchanged.
    Since each webbing segment's largest strain keeps up with its strain
    (restraints.belt.LARGEST_FOLLOW; it lagged up to 1.9e-3 behind) and the flow's stiffness
    takes the webbing law's analytic slope: head 279.6 -> 282.7 mm, T1 196.4 -> 197.6 mm,
    shoulder belt 10.99 -> 10.96 kN, lap belt 3.64 -> 3.80 kN, hip 102.2 -> 102.2 mm, head 3 ms
    75.2 -> 73.5 g. Since the lap belt wraps the human's pelvis flesh (on lap_belt_pelvis, the
    Hybrid III's belt line, its path lay 31-44 mm inside the pelvis flesh and up to 97 mm through
    the thighs): head 282.7 -> 283.8 mm, T1 197.6 -> 197.8 mm, shoulder belt 10.96 -> 9.78 kN,
    lap belt 3.80 -> 5.21 kN (56 ms), hip 102.2 -> 91.0 mm, head 3 ms 73.5 -> 64.4 g; with the
    shoulder belt's lower part over the abdomen too (a wrap held across the belt by friction; it
    passed up to 106 mm through the abdomen): head 283.8 -> 342.3 mm and T1 197.8 -> 228.4 mm
    (both inside), shoulder belt 9.78 -> 10.31 kN, lap belt 5.21 -> 5.72 kN (59 ms), hip 91.0 ->
    88.9 mm, head 3 ms 64.4 -> 60.7 g. Merged with the held wraps placed together
    (restraints.wrap_chain: each at its fraction of the wrap, no sweeps) and the belt flow's
    stiffness as the webbing's secant (restraints.belt.group_stiffness): head 342.3 -> 339.1
    mm, T1 228.4 -> 231.7 mm, shoulder belt 10.31 -> 10.51 kN, lap belt 5.72 -> 5.77 kN, hip
    88.9 -> 88.3 mm, head 3 ms 60.7 -> 64.6 g. Since the neck's flexion and extension ranges
    split between C7/T1 and the condyles as the in vitro spine bends (joint_rom.toml: flexion
    12 / 33 deg, was 22.5 / 22.5; the seated posture's 20 deg at C7/T1 now lies 8 deg into its
    ligamentous branch, 48 N m at the start): head 339.1 -> 312.4 mm (OUT), T1 231.7 -> 229.3
    mm, shoulder belt 10.51 -> 10.51 kN, lap belt 5.77 -> 5.57 kN, hip 88.3 -> 91.1 mm, head
    3 ms 64.6 -> 88.1 g. Since the seated human's head is levelled by both neck joints
    (occupant.human.neck_levelling: 5.3 / 14.7 deg as the flexion ranges): head 312.4 -> 352.5
    mm (inside), T1 229.3 -> 234.9 mm, shoulder belt 10.51 -> 10.73 kN, lap belt 5.57 -> 5.72
    kN, hip 91.1 -> 87.5 mm, head 3 ms 88.1 -> 75.1 g. Since the neck's lateral split is read
    one side (joint_rom.toml: 16.2 / 28.8 deg, was 17.5 / 27.5): head 352.5 -> 350.3 mm, T1
    234.9 -> 234.7 mm, belts and hip unchanged to 0.1, head 3 ms 75.1 -> 72.7 g. Since the knees
    bear on GS1's rigid knee supports (vehicles/gs1_sled_buck.toml: on the passenger buck's knee
    bolster 0.11 m ahead the hip slid 87.5 mm before they were held) and nothing touches the
    buck's instrument panel (GS1 had none; the hands met it with 5.4 kN at 70 ms): head 350.3 ->
    404.5 mm, T1 234.7 -> 263.3 mm, hip 87.5 -> 27.9 mm (inside), shoulder belt 10.73 -> 10.94
    kN, lap belt 5.72 -> 3.50 kN, its peak now the rebound at 136 ms (at most 1.22 kN before
    100 ms: the pelvis tilts forward 35 deg about the held hips), head 3 ms 72.7 -> 76.0 g.
    Since the sled runs the SAFER GS1 deck's own pulse (data/gs1_sled_pulse.csv: 42.5 km/h,
    13.3 g from 25 to 95 ms, 5-25 ms rise; was a 14 g, 40 km/h trapezoid with 10 ms ramps [E]):
    head 404.5 -> 430.3 mm, T1 263.3 -> 270.4 mm, hip 27.9 -> 27.0 mm (all three inside),
    shoulder belt 10.94 -> 10.23 kN, lap belt 3.50 -> 2.83 kN (its peak the rebound at 150 ms,
    the run's end; in the crash at most 1.22 -> 1.65 kN, a spike at 67 ms), head 3 ms 76.0 ->
    61.7 g; the new figures: T8 220.5 -> 214.1 mm (inside), L2 172.9 -> 166.8 mm and L4 142.3 ->
    137.2 mm (OUT), the knees 26.3 -> 25.3 mm (inside, 23.4-74.2), rises of T1 33.6 -> 34.2
    mm, of T8 26.8 -> 28.7 mm and of the H-point 0 -> 0 mm (all OUT), chest deflection 29.1 ->
    29.5 mm (OUT). Since every wrap's place is fitted at its point (restraints.fit_belts; the
    thorax's two wraps kept places from a first placement 0.8 apart on the unit sphere, and from
    the first step their drift carried the webbing of the 44 mm segment between them away: 16.9
    kN at 0.7 ms, the sternum 7.0 mm in at 20 ms, before the pulse): head 430.3 -> 406.6 mm, T1
    270.4 -> 255.6 mm, T8 214.1 -> 203.3 mm, hip 27.0 -> 27.2 mm (all inside), shoulder belt
    10.23 -> 10.02 kN, lap belt 2.83 -> 2.50 kN (in the crash 1.65 -> 1.10 kN), L2 166.8 ->
    160.5 mm, L4 137.2 -> 133.0 mm, rises of T1 34.2 -> 31.9 mm and of T8 28.7 -> 26.4 mm,
    chest deflection 29.5 -> 29.3 mm (all OUT as before), the knees 25.3 mm, head 3 ms 61.7 ->
    52.5 g. The spine accelerometers' peak x decelerations (T1, T8, L2, at CFC 180; added with
    nothing else changed): 100.7, 60.3 and 59.4 g (all OUT, PMHS 8.35-22.09, 19.97-23.60 and
    18.65-24.92 g). Since the lumbar joints' extension is the whole PMHS lumbar spine's
    (Demetropoulos et al. 1998, joint_passive.toml; Anderson & Pandy's free first 11 deg a joint
    and its 16 kN m/rad wall beyond, where the two joints took the load in turn at 90-100 Hz):
    head 406.6 -> 415.9 mm, T1 255.6 -> 261.2 mm, T8 203.3 -> 204.5 mm, hip 27.2 -> 27.0 mm,
    knees 25.3 -> 25.5 mm (all inside), shoulder belt 10.02 -> 9.45 kN, lap belt 2.50 -> 2.58 kN
    (in the crash 1.10 -> 1.23 kN), L2 160.5 -> 157.5 mm, L4 133.0 -> 130.9 mm, rises of T1
    31.9 -> 36.4 mm, of T8 26.4 -> 29.7 mm and of the H-point 0 -> 0.5 mm, chest deflection
    29.3 -> 29.2 mm (all OUT as before), T1, T8 and L2 decelerations 100.7 -> 64.1, 60.3 -> 39.8
    and 59.4 -> 43.7 g (OUT), head 3 ms 52.5 -> 59.8 g. Since the belt on the thorax's front
    loads the ribcage (``[restraints.belt] ribcage``: both thorax wraps carried by the sternum
    with a third of their force, Kent et al. 2003's diagonal belt against hub stiffness,
    thorax.toml [belt]; the shoulder wrap, on the thorax's front over the sternum from 65 ms
    with 6-8 kN into the chest, loaded the rigid upper torso): chest deflection 29.2 -> 61.5 mm
    (inside), head 415.9 -> 429.0 mm, T1 261.2 -> 273.3 mm, T8 204.5 -> 210.6 mm, hip 27.0 ->
    27.1 mm, knees 25.5 mm (all inside), shoulder belts 9.45 -> 8.95 and 7.58 -> 7.76 kN, lap
    belt 2.58 -> 2.29 kN (in the crash 1.23 -> 1.22 kN), L2 157.5 -> 157.2 mm, L4 130.9 ->
    129.2 mm, rises of T1 36.4 -> 36.7 mm, of T8 29.7 -> 29.8 mm, of the H-point 0.5 -> 0.0 mm,
    T1, T8 and L2 decelerations 64.1 -> 58.9, 39.8 -> 37.3 and 43.7 -> 36.4 g (all OUT as
    before), head 3 ms 59.8 -> 56.4 g. Since the GS1 rig's belt-end springs (the SAFER deck's,
    two in series with the shoulder belt, one with the lap belt: Retractor.compliance) and the
    buckle and lap anchorage at the deck's offsets from the human's own lap belt middle (58 mm
    further back): head 429.0 -> 385.5 mm, T1 273.3 -> 245.3 mm, T8 210.6 -> 189.3 mm, hip
    27.1 mm, knees 25.5 -> 25.1 mm, chest 61.5 -> 60.5 mm (all inside), L2 157.2 -> 142.6 mm
    (inside), L4 129.2 -> 118.5 mm, shoulder belts 8.95 -> 8.37 and 7.76 -> 6.70 kN, lap belt
    2.29 -> 0.82 kN (its peak now in the crash, at 67 ms: 1.22 kN before 100 ms before), rises
    of T1 36.7 -> 31.9 mm, of T8 29.8 -> 25.6 mm, of the H-point 0.0 -> 2.6 mm, T1, T8 and L2
    decelerations 58.9 -> 56.3, 37.3 -> 34.6 and 36.4 -> 37.5 g (all OUT), head 3 ms 56.4 ->
    55.7 g. Since the lap belt's retractor pulls the deck's 100 N pre-load (it locked 10 ms into
    the run by its webbing sensor, now at 14 ms with the shoulder belt's, by the sled): lap belt
    0.82 -> 0.98 kN (67.6 ms), H-point rise 2.6 -> 0.7 mm, head 385.5 -> 386.8 mm, T1 245.3 ->
    246.2 mm, shoulder belts 8.37 -> 8.39 and 6.70 -> 6.78 kN, L4 118.5 -> 117.8 mm, T8
    decelerations 34.6 -> 33.8 g, head 3 ms 55.7 -> 57.2 g, the rest within 0.3 mm, 0.3 g. Since
    T8, L2 and L4 are read at their vertebrae's levels on the trunk segments (de Leva's xiphion
    and omphalion at the T9/T10 and L3/L4 discs, test_reference_spine_points_at_the_trunk_joints_
    vertebral_levels; nothing of the run changed): T8 189.6 -> 173.3 mm (OUT, under 175.1), L2
    142.1 -> 114.9 mm, L4 117.8 -> 91.1 mm (inside), T8 rise 25.4 -> 23.2 mm, T8 and L2
    decelerations 33.8 -> 39.6 and 37.3 -> 29.3 g. Since the buttock is concentric with the
    ischium's underside (body_proportions.toml; it starts 2.2 mm above the pan, 0.7 before): head
    386.8 -> 396.0 mm, T1 246.2 -> 248.1 mm, shoulder belts 8.39 -> 8.18 and 6.78 -> 6.46 kN (both
    now inside), lap belt 0.98 -> 1.02 kN (69.6 ms), hip 27.1 -> 26.3 mm, T8 173.3 -> 165.8 mm, L2
    114.9 -> 108.8 mm, L4 91.1 -> 85.7 mm, chest 60.6 -> 59.8 mm, knees 24.8 -> 25.2 mm, rises of
    T1 32.2 -> 34.9, T8 23.2 -> 24.9 and the H-point 0.7 -> 0.0 mm, T1, T8 and L2 decelerations
    56.3 -> 55.7, 39.6 -> 35.8 and 29.3 -> 31.0 g, acromia 176.0 -> 175.9 and 284.7 -> 282.2 mm,
    head 3 ms 57.2 -> 59.7 g. Since the acromia are read at the acromion (the shoulder shells'
    outboard ends), not at the shoulder joints' centres 15 mm inboard (validation.acromion_points;
    nothing of the run changed): acromia 175.9 -> 174.1 and 282.2 -> 289.1 mm. Since a belt
    segment's strain counts its length to its wraps' places, which its webbing follows
    (``belt.wrap_lag``; the place following ten times tighter, WRAP_FOLLOW 1e-4 s, gives main
    and the branch 6.54 kN, T8 34.4 / 34.2 g, L2 28.9 / 28.7 g: main's figures carried the 1 ms
    lag): T1 248.1 -> 246.5 mm, lower shoulder belt 6.46 -> 6.53 kN (OUT, over 6.52), T1, T8 and
    L2 decelerations 55.7 -> 55.0, 35.8 -> 34.2 and 31.0 -> 28.7 g, L2 108.8 -> 108.4 mm, L4
    85.7 -> 85.2 mm, hip 26.3 -> 26.5 mm, acromia 174.1 -> 173.4 and 289.1 -> 289.4 mm, head
    3 ms 59.7 -> 62.3 g (main with WRAP_FOLLOW 1e-4 s: 62.3). Since the trunk's axial range
    is split by vertebral level (joint_rom.toml: thorax-lumbar 33.5, lumbar-pelvis 11.5 deg of
    the 45, was 22.5 each [E]; the upper torso turns further on the thorax-lumbar joint): head
    396.0 -> 405.6 mm, T1 246.5 -> 253.2 mm (inside), far acromion 289.4 -> 305.1 mm (OUT, under
    339.8), T8 deceleration 34.2 -> 37.6 g (OUT), head 3 ms 62.3 -> 53.7 g, the rest within
    0.1 mm, 0.1 g, 0.01 kN (the shoulder's external rotation 80 -> 90 deg with it: within
    0.02). Since the neck's axial range is split by level too (Panjabi et al. 2001: C7/T1 9.2,
    condyles 60.8 deg of the 70, was 35 each [E]): head 405.6 -> 403.9 mm, T1 253.2 -> 251.9 mm,
    far acromion 305.1 -> 306.0 mm, T8 deceleration 37.6 -> 39.7 g, head 3 ms 53.7 -> 56.5 g,
    the rest within 0.1. Since the body's proportions and the sternum's place follow their
    sources (body_proportions.toml: ankle height 0.0415 H, head depth / width 1.29, Contini's
    body density, 1059 kg/m^3 here; thorax.toml: the sternum at mid-sternum, 0.34 of the upper
    trunk): head 403.9 -> 402.8 mm, T1 251.9 -> 250.7 mm, lap belt 1.02 -> 0.95 kN, lower
    shoulder belt 6.53 -> 6.45 kN (inside), T8 165.4 -> 163.7 mm, L2 108.4 -> 107.7 mm, L4 85.1
    -> 84.1 mm, rises of T1 35.0 -> 33.9 and T8 24.9 -> 23.9 mm, T1, T8 and L2 decelerations
    55.0 -> 54.1, 39.7 -> 38.7 and 28.7 -> 28.7 g, acromia 173.3 -> 171.4 and 306.0 -> 302.4 mm,
    head 3 ms 56.5 -> 56.0 g. Since the neck's axial curves are its lateral ones scaled by the in
    vitro axial / lateral flexibility of each joint's levels (joint_passive.toml: 10 N m at the
    range ends, was 5; branches 8.6 / 32.0 deg past them at C7/T1 / condyles, were 25 / 25 [E]):
    head 402.8 -> 401.8 mm, T1 250.7 -> 248.3 mm, T8 deceleration 38.7 -> 40.4 g, acromia 171.4
    -> 171.2 and 302.4 -> 301.6 mm, chest 59.9 -> 60.0 mm, head 3 ms 56.0 -> 55.3 g, the rest
    within 0.3 mm, 0.02 g, 0.01 kN (the neck's axial peaks: test_regression_gs1_neck_axial_peaks).
    Since the trunk's lateral and sagittal ranges split by vertebral level (joint_rom.toml: lateral
    18.8 / 16.2, flexion 30.5 / 44.5, extension 12.2 / 17.8 deg at thorax-lumbar / lumbar-pelvis,
    were 17.5, 37.5 and 15 each [E]; each joint's passive curve at its share of the chain's
    angle): lower shoulder belt 6.45 -> 6.72 kN (OUT, over 6.52), upper 8.17 -> 8.07 kN, head
    401.8 -> 400.2 mm, T1 248.3 -> 249.7 mm, T8 163.4 -> 161.5 mm, L4 84.1 -> 85.2 mm, T1, T8 and
    L2 decelerations 54.1 -> 53.5, 40.4 -> 36.3 and 28.7 -> 26.9 g, chest 60.0 -> 59.7 mm, lap
    belt 0.95 -> 0.93 kN, acromia 171.2 -> 170.5 and 301.6 -> 303.2 mm, head 3 ms 55.3 -> 51.4 g,
    the rest within 0.3 mm (before the neck's axial curves changed, the lateral split alone gave
    head 403.3 mm, T8 37.9 g and the rest within 0.2 mm, 0.01 kN of its main: the belt and spine
    figures are the sagittal split's). Since the lumbar joints' lateral bending is the PMHS lumbar
    spine's (joint_passive.toml: Demetropoulos et al. 1998's lateral curves, their end slope past
    the range, the numerical stop at twice the range end; the trunk passed both ranges by 2.0
    and 1.7 deg into the Hybrid III's stops with 2.0-2.7 kN m, now by 2.4 and 1.2 deg with 368
    and 348 N m): lower shoulder belt 6.72 -> 6.82 kN (OUT, over 6.52), T1 249.7 -> 251.4 mm,
    T1 and L2 decelerations 53.5 -> 54.3 and 26.9 -> 27.6 g, near acromion 170.5 -> 168.2 mm,
    head 3 ms 51.4 -> 52.1 g, the rest within 0.6 mm, 0.3 g, 0.01 kN. Since the face is on in
    GS1 (its chin paired with the thorax and the sternum pad holds the head off the chest,
    test_reference_gs1_chin_stays_off_the_chests_rigid_parts): head 400.6 -> 395.0 mm, T1 251.3
    -> 252.3 mm, T8 161.3 -> 161.8 mm, T1 rise 33.9 -> 34.2 mm, T1 and T8 decelerations 54.3 ->
    55.4 and 36.0 -> 35.5 g, acromia 168.2 -> 169.0 and 303.8 -> 311.7 mm, lower shoulder belt
    6.82 -> 6.81 kN, head 3 ms 52.1 -> 52.8 g, the rest within 0.04 mm, 0.03 g, 0.01 kN. Since
    the neck's base at C7/T1 (builder.c7t1_from_cervicale; T1 read at the moved joint, 81 mm
    ahead of and 32 mm below the cervicale; the torso line on the cervicale keeps the thorax;
    scenarios/validation/HISTORY.md Stop 39 c7t1): head 395.0 -> 405.1 mm, T1 252.3 -> 234.6 mm,
    T1 rise 34.2 -> 19.6 mm, T8 161.8 -> 164.3 mm, L2 108.0 -> 110.3, L4 85.3 -> 88.0 mm, T1, T8 and L2
    decelerations 55.4 -> 53.5, 35.5 -> 31.2 and 27.6 -> 31.0 g, acromia 169.0 -> 175.3 and
    311.7 -> 288.2 mm, upper and lower shoulder belt 8.07 -> 7.98 and 6.81 -> 6.72 kN, lap belt
    0.93 -> 0.95 kN, head 3 ms 52.8 -> 53.4 g, the rest within 0.5 mm. Since the belts' segments
    are measured along their path (tangent pieces and arcs) and pull along its tangent pieces
    (branch beltarcs; scenarios/HISTORY.md 'Belt segments measured along the belt's path'):
    shoulder belt 7.98 -> 7.80 kN, lower shoulder belt 6.72 -> 6.91 kN, lap belt 0.95 -> 1.06 kN,
    T8 164.3 -> 158.1 mm, L2 110.3 -> 106.1 mm, L4 88.0 -> 84.6 mm, chest 60.1 -> 58.6 mm, T1, T8
    and L2 decelerations 53.5 -> 54.8, 31.2 -> 32.4 and 31.0 -> 28.8 g, rises of T1 19.6 -> 17.9
    and T8 24.2 -> 22.7 mm, head 3 ms 53.4 -> 51.0 g, the rest within 2 %. Since the tangent
    pieces pull at their tangent points (branch tangentcouple; main 09f90cd -> the branch, both
    measured): head 408.9 -> 405.0 mm, T1 231.5 -> 229.8 mm, shoulder belt 7.80 -> 7.69 kN,
    lower shoulder belt 6.98 -> 7.41 kN, lap belt 1.07 -> 1.10 kN, T8 158.5 -> 160.7 mm, L2 106.2
    -> 107.2, L4 84.8 -> 85.6 mm, T1, T8 and L2 decelerations 54.6 -> 54.4, 32.5 -> 33.2 and
    28.8 -> 28.7 g, acromia 173.1 -> 170.5 and 287.5 -> 292.1 mm, rises of T1 18.0 -> 18.2 and
    T8 22.8 -> 22.8 mm, head 3 ms 51.1 -> 51.8 g, the rest within 0.4 %. Since the lumbar-pelvis joint (L3/L4) stands two levels above Reed et al.'s L5/S1, 30.7 mm higher (branch lumbarheight; main 97e82ed -> the branch): head 405.2 ->
    396.1 mm, T1 229.9 -> 225.7 mm (OUT), shoulder belt 7.69 -> 7.89 kN, lower shoulder belt 7.40
    -> 7.70 kN, lap belt 1.09 -> 1.18 kN, T8 160.7 -> 170.0 mm, L2 107.2 -> 123.3 mm, L4 85.5 ->
    104.9 mm (OUT; 15.3 mm of it where L4 is read, half a level under the raised joint), chest
    58.7 -> 59.9 mm, T1, T8 and L2 decelerations 54.4 -> 52.5, 33.2 -> 30.5 and 28.7 -> 33.4 g,
    acromia 170.5 -> 171.1 and 292.3 -> 299.7 mm, rises of T1 18.1 -> 19.4 and T8 22.8 -> 22.7
    mm, head 3 ms 51.8 -> 49.8 g, the rest within 1.5 %. On the merge with main c87f8e8 (gs1rest: the seat back at the human's back): T8's
    deceleration 30.5 -> 31.2 g, the rest within 1.7 % of the branch's (T1 225.8, L4 104.9 mm).
    Since the hands rest on the thighs' tops where the SAFER deck's hand cables end (the case's
    posture_angles: shoulders [-7.66, -5.26, -6.70] deg, elbows 59.14, were [0, -20, 0] and 70;
    branch gs1hands, main 7168433 -> the branch): head 396.7 -> 401.0 mm, T1 225.8 -> 223.3 mm
    (OUT), shoulder belts 7.87 -> 7.61 and 7.67 -> 7.49 kN, T8 169.8 -> 167.2 mm, L2 123.3 ->
    121.4 mm, L4 104.9 -> 103.4 mm, chest 59.8 -> 58.9 mm, T1, T8 and L2 decelerations 52.7 ->
    53.3, 31.2 -> 32.0 and 32.8 -> 32.7 g, acromia 170.9 -> 169.7 and 299.7 -> 304.3 mm, rises
    of T1 19.4 -> 19.6 and T8 22.6 -> 22.5 mm, head 3 ms 49.3 -> 49.6 g, the rest within 0.2 mm,
    0.01 kN: GS1 6 of 19 inside before and after. Since the pelvis's rise is read at the sacral
    canal, where the case's source deck reads the PMHS's pelvis target (builder.sacral_canal;
    branch gs1rise, the same run): 0.0 -> 32.1 mm (OUT, 35.7-57.1), the rest unchanged. Since
    passenger_seated puts the heels' lowest points on the floor, 0.328 m below the H-point (the
    human's heels 2.7 mm higher, its feet no longer starting 2.7 mm in the floor with 533 N each;
    the knee support re-placed at the knees; branch passheel, main 93f7a72 -> the branch): head
    401.0 -> 400.1 mm, T1 223.3 -> 222.8 mm (OUT), lower shoulder belt 7.49 -> 7.53 kN, lap belt
    1.17 -> 1.21 kN, knee 24.6 -> 25.1 mm, T8 167.2 -> 168.2 mm, L2 121.4 -> 121.9 mm, L4 103.4 ->
    103.9 mm, T1, T8 and L2 decelerations 53.3 -> 52.3, 32.0 -> 31.7 and 32.7 -> 33.4 g, left
    acromion 304.3 -> 305.9 mm, rises of T1 19.6 -> 20.1 and T8 22.5 -> 22.9 mm, head 3 ms 49.6 ->
    49.7 g, the rest within 0.2 mm, 0.01 kN; merged with main f41ec02 (gs1rise), the pelvis's
    rise at the sacral canal 32.1 -> 32.7 mm: GS1 6 of 19 inside before and after. Since the
    belt's held abdomen wrap is placed from the thorax run's tangent point and the fit's sweeps
    settle (branch gravitybelt2, main 93f7a72 -> the branch, without gs1rise and passheel; the
    belt fitted 0.77, was 0.50, forward on the thorax): head 401.0 -> 374.7 mm, T1 223.3 -> 199.0
    mm, shoulder belts 7.61 -> 7.36 and 7.49 -> 6.55 kN, lap belt 1.17 -> 0.82 kN, T8 167.2 ->
    150.6 mm, L2 121.4 -> 110.1, L4 103.4 -> 95.0 mm (inside), chest 58.9 -> 55.9 mm, T1, T8 and
    L2 decelerations 53.3 -> 40.9, 32.0 -> 28.4 and 32.7 -> 32.4 g, acromia 169.7 -> 136.1
    (inside) and 304.3 -> 269.4 mm, rises of T1 19.6 -> 16.2 and T8 22.5 -> 17.3 mm, head 3 ms
    49.6 -> 39.4 g, the rest within 0.5 mm: GS1 6 -> 8 of 19 inside. The three merged (branch
    gs1merge, main 62a71a8 -> merged): head 400.1 -> 373.1 mm, T1 222.8 -> 197.7 mm (OUT),
    shoulder belts 7.61 -> 7.37 and 7.53 -> 6.47 kN (now inside, 6.52), lap belt 1.21 -> 0.83
    kN (OUT), hip 26.3 -> 26.5, knee 25.1 -> 24.7 mm, T8 168.2 -> 150.9 mm (OUT), L2 121.9 ->
    110.4 mm, L4 103.9 -> 95.3 mm (now inside, 96.2), chest 58.9 -> 55.9 mm, T1, T8 and L2
    decelerations 52.3 -> 39.3, 31.7 -> 28.2 and 33.4 -> 32.6 g, acromia 169.5 -> 135.5 (now
    inside) and 305.9 -> 269.7 mm, rises of T1 20.1 -> 16.6, T8 22.9 -> 17.6 and the pelvis (at
    the sacral canal) 32.7 -> 28.3 mm, head 3 ms 49.7 -> 39.1 g: GS1 6 -> 9 of 19 inside. Since
    the condyles below the tragion (the neck link 142.3 -> 114.8 mm), the head's com 26.4 mm ahead of them and the upper neck's damping 1.1 -> 2.0 (branch chancey): head 373.1 -> 353.2 mm, shoulder belt 7.37 -> 7.55
    kN, T1 and L2 decelerations 39.3 -> 42.8 and 32.6 -> 33.3 g, head 3 ms 40.7 -> 51.8 g, the rest
    within 2 %: GS1 9 of 19 inside as before."""
    fig = gs1["figures"]
    measured = {"head_x_excursion_mm": 353.2, "t1_x_excursion_mm": 197.7,
                "shoulder_belt_force_kN": 7.55, "lap_belt_force_kN": 0.83,
                "lower_shoulder_belt_force_kN": 6.47,
                "hip_x_excursion_mm": 26.5, "t8_x_excursion_mm": 150.9, "l2_x_excursion_mm": 110.4,
                "l4_x_excursion_mm": 95.3, "chest_deflection_mm": 55.9,
                "knee_x_excursion_mm": 24.7, "t1_x_deceleration_g": 42.8,
                "t8_x_deceleration_g": 28.2, "l2_x_deceleration_g": 33.3,
                "right_acromion_x_excursion_mm": 135.5, "left_acromion_x_excursion_mm": 269.7}
    for name, value in measured.items():
        assert fig[name] == pytest.approx(value, rel=0.02), name
    assert fig["t1_z_rise_mm"] == pytest.approx(16.6, rel=0.03)
    assert fig["t8_z_rise_mm"] == pytest.approx(17.6, rel=0.03)
    # the pelvis read at the sacral canal, where the SAFER deck reads the PMHS's pelvis target
    # (branch gs1rise, stop 47: 0.0 at the H-point, which sinks 22 mm)
    assert fig["pelvis_z_rise_mm"] == pytest.approx(28.3, rel=0.03)
    assert not gs1["checks"]["lap_belt_force_kN"][1]
    t, lap = gs1["t"], gs1["history"]["lap_belt_kN"]
    assert 0.06 < t[np.argmax(lap)] < 0.075        # the lap belt's peak is in the crash
    assert lap[t < 0.1].max() == pytest.approx(0.83, rel=0.03)
    rows = {r["criterion"]: r["value"] for r in gs1["run"].criteria}
    # 39.1 g before the neck started on its loading history (branch hysstart: 40.7); 51.8 since
    # the condyles below the tragion and the head's com ahead of them (chancey)
    assert rows["head 3 ms"] == pytest.approx(51.8, rel=0.03)


def test_regression_gs1_trunk_lateral_bending_past_its_range(gs1):
    """The lumbar joints bend sideways past their ranges (18.8 and 16.2 deg, joint_rom.toml) late
    in the run (110-125 ms), by 2.1 and 1.0 deg, carried by the PMHS lumbar spine's lateral
    curve and its end slope (joint_passive.toml, Demetropoulos et al. 1998) with 364 and 345 N m
    at most; the numerical stops, at twice the range, are not reached. Before (the Hybrid III's
    stops at the range ends) 2.0 and 1.7 deg past with 2026 and 2679 N m; before the face was on
    in GS1, 2.4 and 1.2 deg with 368 and 348 N m. Since the neck's base at C7/T1 (the head 81 mm
    further forward over the trunk): 3.0 and 1.4 deg with 380 and 355 N m. Since the head's com
    keeps de Leva's head+neck com on that link (5.5 mm higher): 2.7 and 1.6 deg, 374 and 359 N m.
    Since the belts are measured along their path (branch beltarcs): thorax-lumbar 2.7 -> 3.1 deg,
    374 -> 382 N m; lumbar-pelvis 1.6 deg, 359 -> 358 N m. Since the lumbar-pelvis joint (L3/L4) stands two levels above Reed et al.'s L5/S1, 30.7 mm higher (branch lumbarheight; main 97e82ed -> the branch): thorax-lumbar
    3.1 -> 4.5 deg, 382 -> 410 N m; lumbar-pelvis 1.6 -> 6.5 deg, 358 -> 469 N m (its lever to the
    upper body shorter, the lumbar segment now 186 mm long, was 217). Since the hands rest on the
    thighs' tops (the case's posture_angles; branch gs1hands, main 7168433 -> the branch):
    thorax-lumbar 4.64 -> 4.83 deg, 412 -> 416 N m; lumbar-pelvis 6.52 -> 6.28 deg, 469 -> 463 N m.
    Since the belt's held abdomen wrap is placed from the thorax run's tangent point and the fit's sweeps settle (branch gravitybelt2, main 93f7a72 -> the branch): thorax-lumbar 4.8 -> 3.3 deg past,
    416 -> 386 N m; lumbar-pelvis 6.3 deg past -> 0.4 deg inside its range, 463 -> 312 N m.
    The three merged (branch gs1merge, main 62a71a8 -> merged): thorax-lumbar 4.8 -> 3.1 deg past
    its range, 416 -> 383 N m; lumbar-pelvis 6.3 deg past -> 0.5 deg inside, 463 -> 311 N m.
    Since the belt's flow slips or sticks by the excess the implicit step foresees (branch
    bistable, main 9e4b466 -> the branch): thorax-lumbar 3.09 -> 2.93 deg past, 382.0 -> 378.9
    N m; lumbar-pelvis 0.78 -> 0.87 deg inside, 304.3 -> 302.5 N m."""
    from occupant.human.builder import human_range
    out = gs1["results"].outputs
    # since the condyles below the tragion and the head's com ahead of them (chancey):
    # thorax-lumbar 3.1 -> 2.3 deg past its range, the moments within their bands
    for joint, past, moment in (("thorax_lumbar", 2.3, 383.0), ("lumbar_pelvis", -0.9, 311.0)):
        lo, hi = human_range(joint, 0, "spherical")
        x = np.asarray(out[f"{joint}_x.deflection"])
        beyond = np.degrees(max(lo - x.min(), x.max() - hi))
        assert beyond == pytest.approx(past, abs=0.3), joint
        assert np.abs(out[f"{joint}_x.load"]).max() == pytest.approx(moment, rel=0.05), joint
        assert x.min() > 2.0 * lo and x.max() < 2.0 * hi, joint


def test_regression_gs1_limbs_past_their_ranges(gs1):
    """Of the limbs' joint coordinates (shoulders, elbows, hips, knees, ankles) only three pass
    their human ranges (joint_rom.toml) into the Hybrid III's numerical stops: the elbows full
    extension by 1.8 and 2.0 deg, entering at 54 and 66 rad/s (the forearms whip from 70 deg of
    flexion to full extension in about 15 ms, 75-90 ms), the stops taking 27 and 43 J (27 and 44
    before the face was on in GS1; 30 and 38 J since the neck's base at C7/T1); the right
    shoulder its adduction end by 1.1 deg (5 J; 1.0 deg, 4.3 J since C7/T1). No moment-angle data past these ranges was
    found (joint_passive.toml, "Arms"); the PMHS elbow's injury level, 56-93 N m (Duma et al.
    2004, DTIC ADA481665), would need 17-27 deg of hyperextension to take that work: it cannot
    bound the stop without modelling the injury (scenarios/validation/HISTORY.md, branch
    limbstops). The energies are the loading work past the range, -sum(load dx) moving out. Since
    the belts are measured along their path (branch beltarcs): the right shoulder's 4.34 -> 3.87 J
    (0.96 deg), the elbows' 30.1 -> 31.2 and 38.3 -> 38.9 J. Since the lumbar-pelvis joint (L3/L4) stands two levels above Reed et al.'s L5/S1, 30.7 mm higher (branch lumbarheight; main 97e82ed -> the branch): the elbows 1.85 -> 1.79 and
    1.95 -> 1.94 deg, 31.2 -> 27.8 and 38.9 -> 36.8 J; the right shoulder 0.96 -> 1.06 deg, 3.87
    -> 5.03 J. Since the hands rest on the thighs' tops (the case's posture_angles: the forearms
    whip from 59 deg, not 70; branch gs1hands, main 7168433 -> the branch): the elbows 1.79 ->
    1.58 and 1.95 -> 1.85 deg, 27.9 -> 17.9 and 37.3 -> 32.5 J, entering at 56 -> 44 and 63 -> 58
    rad/s; the right shoulder (1.06 deg, 5.05 J past its adduction end at main) stays inside its
    range: two joints pass, not three. Since the belt's held abdomen wrap is placed from the thorax run's tangent point and the fit's sweeps settle (branch gravitybelt2, main 93f7a72 -> the branch): the elbows 1.58 -> 1.53
    and 1.85 -> 1.82 deg, 17.9 -> 15.0 and 32.5 -> 30.0 J.
    The three merged (branch gs1merge, main 62a71a8 -> merged): the elbows 1.58 -> 1.52 and 1.85 ->
    1.81 deg, 17.9 -> 14.9 and 32.5 -> 29.9 J. Since the condyles below the tragion (the neck link 142.3 -> 114.8 mm), the head's com 26.4 mm ahead of them and the upper neck's damping 1.1 -> 2.0 (branch chancey; run once, not fitted):
    the left elbow's work 14.9 -> 17.1 J, the rest within the bands."""
    from occupant.human.builder import human_range
    out = gs1["results"].outputs
    past = {}
    for limb in ("shoulder", "elbow", "hip", "knee", "ankle"):
        for side in ("left", "right"):
            joint = f"{side}_{limb}"
            kind = "revolute" if limb in ("elbow", "knee") else "spherical"
            for dof in range(1 if kind == "revolute" else 3):
                key = f"{joint}_flexion" if kind == "revolute" else f"{joint}_{'xyz'[dof]}"
                lo, hi = human_range(joint, dof, kind)
                x = np.asarray(out[f"{key}.deflection"])
                beyond = np.degrees(max(lo - x.min(), x.max() - hi))
                if beyond > 0.0:
                    dx, load = np.diff(x), 0.5 * (out[f"{key}.load"][1:] + out[f"{key}.load"][:-1])
                    outward = np.where(x[1:] < lo, dx < 0.0, np.where(x[1:] > hi, dx > 0.0, False))
                    past[key] = (beyond, -np.sum((load * dx)[outward]))
    assert sorted(past) == ["left_elbow_flexion", "right_elbow_flexion"]
    for key, angle, work in (("left_elbow_flexion", 1.52, 17.1),
                             ("right_elbow_flexion", 1.81, 29.9)):
        assert past[key][0] == pytest.approx(angle, abs=0.3), key
        assert past[key][1] == pytest.approx(work, rel=0.1), key


def test_regression_gs1_elbows_whip_work_inside_the_range(gs1):
    """From the seated 70 deg of flexion to full extension (91 and 85 ms) the elbows' resistance
    takes 5.0 (left) and 8.0 J (right) from the forearms: the reference passive damping (0.1 N m
    s/rad) 5.4 and 8.4 J, while the "end_moment" law, whose neutral is full extension, gives
    0.4 J back; the stops then take 27 and 43 J (above). Before the face was on in GS1 the
    right's were 6.9 and 7.3 J: the face's only change before 100 ms is the chin's 61 N rest
    contact, clear by 15 ms, which turns the head 1.2 deg by 20 ms (scenarios/validation/
    HISTORY.md, gs1face); how that reaches the right forearm's whip was not traced. A living elbow's measured passive
    stiffness (Wiegner & Watts 1986, at most 1.8 N m/rad, joint_passive.toml [elbow.flexion])
    would take at most 2.8 J over this arc: no passive curve of the data read bounds the stop
    (scenarios/validation/HISTORY.md, branch elbowpassive). Energies: -sum(load dx) over the arc.
    Since the belts are measured along their path (branch beltarcs): left 5.0 -> 6.7 J (damping
    5.4 -> 7.1), right 8.0 -> 7.0 J (8.4 -> 7.4); the law's -0.40 J unchanged (the arc is the
    same: the whip's speed, which the damping takes, changed). Since the capstan angle is the
    belt path's turn (branch capstanpath): left 6.65 -> 6.13 J (damping 7.05 -> 6.53), right
    7.03 -> 6.23 J (7.43 -> 6.63); the law's -0.40 J unchanged. Since the tangent pieces pull at
    their tangent points (branch tangentcouple; main 09f90cd -> the branch): left 6.13 -> 6.21 J
    (damping 6.53 -> 6.61), right 6.23 -> 5.57 J (6.63 -> 5.97); the law's -0.40 J unchanged.
    Since the lumbar-pelvis joint (L3/L4) stands two levels above Reed et al.'s L5/S1, 30.7 mm higher (branch lumbarheight; main 97e82ed -> the branch): left 6.2 -> 6.0 J (damping 6.6 -> 6.4), right 5.6 -> 7.4 J (6.0 -> 7.8); the law's
    -0.40 J unchanged. On the merge with main c87f8e8 (gs1rest: the seat back at the human's back): left 6.0 -> 5.2 J (damping 6.4 -> 5.6), right
    7.4 -> 6.0 J (7.8 -> 6.4). Since the hands rest on the thighs' tops (the case's
    posture_angles: the elbows start at 59.14 deg, not 70; branch gs1hands, main 7168433 -> the
    branch): left 5.2 -> 3.5 J (damping 5.6 -> 3.8), right 6.0 -> 5.3 J (6.4 -> 5.5), the law's
    -0.40 -> -0.26 J (the shorter arc: its moment is largest near full flexion's end). The hands
    bear on the thighs to 44-46 ms (at most 43 and 53 N at 37-39 ms), which flexes the elbows by
    up to 0.05 (right) and 0.14 deg (left) before the whip: the arc is one extension from the
    hands' last contact on, where it was from the start. Since the belt's held abdomen wrap is
    placed from the thorax run's tangent point and the fit's sweeps settle (branch gravitybelt2,
    main 93f7a72 -> the branch): left 3.5 -> 3.0 J (damping 3.8 -> 3.3), right 5.3 -> 4.0 J
    (5.5 -> 4.3).
    The three merged (branch gs1merge, main 62a71a8 -> merged): left 3.5 -> 3.2 J (damping 3.8 ->
    3.4), right 5.3 -> 4.1 J (5.5 -> 4.3). Since the condyles below the tragion (the neck link 142.3 -> 114.8 mm), the head's com 26.4 mm ahead of them and the upper neck's damping 1.1 -> 2.0 (branch chancey; run once, not fitted): right 4.1 -> 5.3 J (damping 4.3 ->
    5.6), left within its band."""
    from occupant.human.builder import human_range
    from occupant.human.passive_joints import passive_moment, passive_table
    ref, table = passive_table()
    out = gs1["results"].outputs
    seated = gs1["run"].scenario["occupant"]["posture_angles"]["elbow_deg"]
    for side, taken, damping in (("left", 3.2, 3.4), ("right", 5.3, 5.6)):
        x = np.asarray(out[f"{side}_elbow_flexion.deflection"])
        load = np.asarray(out[f"{side}_elbow_flexion.load"])
        arc = slice(0, int(np.argmax(x < 0.0)) + 1)
        assert np.degrees(x[0]) == pytest.approx(seated, abs=0.5), side
        on_thigh = np.nonzero(out[f"{side}_hand_shell__{side}_thigh_shell.normal_force"])[0][-1]
        assert np.all(np.diff(x[on_thigh:arc.stop]) <= 0.0), side   # one extension once off the thigh
        lo, hi = human_range(f"{side}_elbow", 0, "revolute")
        law = passive_moment(table["elbow"]["flexion"], x[arc], lo, hi, ref["shape"])
        dx = np.diff(x[arc])
        work = lambda m: -np.sum(0.5 * (m[1:] + m[:-1]) * dx)
        assert work(load[arc]) == pytest.approx(taken, rel=0.1), side
        assert work(law) == pytest.approx(-0.26, abs=0.05), side
        assert work(load[arc] - law) == pytest.approx(damping, rel=0.1), side


def test_regression_gs1_neck_axial_peaks(gs1):
    """The neck's axial rotation (rotation-vector z of each joint, deg) peaks at C7/T1 -20.8 deg
    (89 ms; its range 9.2, its branch 8.6 past it) and at the condyles +30.4 deg (128 ms; range
    60.8): the neck link still turns against the head, driven by its lower joint's bending (an
    oblique bend's flexion moment has a part about the link's axis, scenarios/validation/HISTORY.md
    branch necktwist, test_analytic_oblique_bend_twists_the_neck_link). Before the axial curves
    were scaled from the lateral ones by in vitro flexibility (joint_passive.toml): -30.4 deg
    (93 ms), 21 deg into its branch, and +37.3 deg (94 ms). Since the trunk's lateral and
    sagittal ranges split by vertebral level (joint_rom.toml): C7/T1 -20.8 -> -20.6 deg (89.5
    ms), condyles +30.4 -> +28.9 deg (128 ms). Since the lumbar joints' lateral bending is the
    PMHS lumbar spine's (joint_passive.toml): C7/T1 -20.6 -> -20.3 deg (89.6 ms), condyles +28.9
    -> +28.3 deg (128 -> 134.6 ms). Since the face is on in GS1 (the chin on the chest holds the
    head from 108 ms): C7/T1 -20.3 -> -20.4 deg (89.5 ms), condyles +28.3 -> +25.8 deg, its peak
    now at 89.7 ms (the late one, with the head flexed 95 deg on the upper torso, gone). Since the
    neck's base at C7/T1: C7/T1 -23.1 deg (88.6 ms), condyles +31.1 deg at 130.3 ms (a late
    peak again). Since the head's com keeps de Leva's head+neck com on that link: -22.9 deg (88.6
    ms), +33.8 deg at 127.4 ms. Since the capstan angle is the belt path's turn (branch
    capstanpath): C7/T1 -22.79 -> -22.87 deg (88.4 ms), condyles +33.95 -> +32.84 deg (129.3 ->
    129.4 ms). Since the tangent pieces pull at their tangent points (branch tangentcouple;
    main 09f90cd -> the branch): C7/T1 -22.87 -> -23.07 deg (88.4 ms), condyles +32.84 -> +32.57
    deg (129.4 -> 121.4 ms: the same late peak, reached sooner). Since the lumbar-pelvis joint (L3/L4) stands two levels above Reed et al.'s L5/S1, 30.7 mm higher (branch lumbarheight; main 97e82ed -> the branch): C7/T1 -23.1 -> -22.7 deg
    (88.4 -> 87.6 ms), condyles +32.6 -> +38.6 deg (121.5 ms). Since the hands rest on the
    thighs' tops (the case's posture_angles; branch gs1hands, main 7168433 -> the branch): C7/T1
    -22.6 -> -22.1 deg (87.6 -> 87.2 ms), condyles +38.5 -> +39.5 deg (121.5 -> 122.2 ms). Since
    the belt's held abdomen wrap is placed from the thorax run's tangent point and the fit's sweeps
    settle (branch gravitybelt2, main 93f7a72 -> the branch): C7/T1 -22.1 -> -20.5 deg (87.2 ->
    83.9 ms), condyles +39.5 -> +42.1 deg (122.2 -> 118.5 ms).
    The three merged (branch gs1merge, main 62a71a8 -> merged): C7/T1 -22.1 -> -20.4 deg (87.2 ->
    83.8 ms), condyles +39.5 -> +42.6 deg (122.2 -> 118.5 ms). Since the neck's hysteresis
    starts on its loading history (flexed 0.256 / 0.093 rad as postured; branch hysstart, main
    75248936 -> the branch): C7/T1 -20.4 -> -19.6 deg (83.8 -> 83.9 ms), condyles +42.7 -> +42.0
    deg (118.4 -> 119.1 ms). Since the condyles below the tragion (the neck link 142.3 -> 114.8 mm), the head's com 26.4 mm ahead of them and the upper neck's damping 1.1 -> 2.0 (branch chancey; run once, not fitted): C7/T1 -19.6 -> -17.2 deg, condyles +42.0 -> +47.7
    deg, their times within 3 ms."""
    out, t = gs1["results"].outputs, gs1["t"]
    for name, value, ms in (("lower_neck_z", -17.2, 83.9), ("upper_neck_z", 47.7, 119.1)):
        angle = np.degrees(np.asarray(out[f"{name}.deflection"]))
        k = int(np.argmax(np.abs(angle)))
        assert angle[k] == pytest.approx(value, abs=0.5), name
        assert 1e3 * t[k] == pytest.approx(ms, abs=3.0), name


def test_reference_gs1_chest_is_not_loaded_before_the_belt(gs1):
    """Until 20 ms every segment of the shoulder belt carries under 0.5 kN and the chest (the
    sternum on its chest joint) deflects under 1 mm. Before every wrap's place was fitted at its point
    (restraints.fit_belts) the segment between the thorax's two wraps reached 16.7 kN at 0.7 ms
    and the chest started the crash 7.0 mm deflected (20 ms), on either pulse."""
    t, out = gs1["t"], gs1["results"].outputs
    early = t <= 0.02
    for name in ("d_ring-shoulder", "shoulder-chest", "chest-abdomen", "abdomen-buckle"):
        assert np.all(out[f"belt.{name}.force"][early] < 500.0), name
    assert np.all(np.abs(out["chest_translation.deflection"][early]) < 1e-3)


def test_reference_gs1_seat_is_rigid(gs1):
    """GS1's seat pan is rigid (SAFER deck): the pelvis, its buttock and the thighs bear on it
    through their flesh (200 kN/m [E]) with the deck's 0.7 friction."""
    model = gs1["model"]
    for g in ("pelvis_flesh", "buttock", "left_thigh_shell", "right_thigh_shell"):
        ch = model.source.contact_pairs[f"{g}__seat_cushion"].characteristic
        assert ch.name == "gs1_rigid_seat" and ch.table is None
        assert (ch.stiffness, ch.friction) == (2.0e5, 0.7)


# The GS1 PMHS's pelvis point (Ash et al. 2012's pelvis channel, the SAFER HBM validation folder's
# validation/Shaw-2009-gold-standard-1/experiment_data/kinematics.csv, commit
# c6b2675d73fa6ff0f14363f0d31c77d22a121835, SAE J211 axes, z down): its corridor's lowest boundary
# (pZu) goes at most 3.3 mm down over 0-150 ms (at 7 ms); the mean rises 46 mm by 103 ms [S].
GS1_PMHS_PELVIS_MAX_DROP = 0.0033   # m [S]


@pytest.mark.xfail(strict=True, reason=(
    "read at the sacral canal, where the SAFER deck reads the PMHS's pelvis target (branch "
    "gs1rise), the pelvis goes 3.3 mm down at 26 ms (the PMHS's at most 3.3) and 4.8 mm at 150 "
    "ms, the run's end, in the rebound (12.9 mm up at 130 ms); its H-point sinks 22.0 mm at 96 ms "
    "into the rigid pan's flesh (the pan carrying 8.9-12.9 kN at 80-100 ms, the lower shoulder "
    "belt pulling 4.6-6.5 kN down: test_regression_gs1_what_holds_the_pelvis_down), which the "
    "test read until gs1rise, as the femurs swing down about the held knees (scenarios/"
    "validation/HISTORY.md, 'GS1's pelvis read where the deck reads it'); with the knee supports "
    "facing straight back the H-point sank 36.1 mm"))
def test_reference_gs1_pelvis_does_not_sink_below_the_pmhs(gs1):
    """The pelvis, read where the SAFER deck reads the PMHS's pelvis target (builder.sacral_canal),
    goes no further down relative to the sled than the GS1 PMHS's pelvis point's corridor allows
    (GS1_PMHS_PELVIS_MAX_DROP). Before the knee supports a quarter of the padded cushion's 125 mm
    was the bound (an estimate): the PMHS's own data replaced it; the H-point was read until
    branch gs1rise."""
    from occupant.human.builder import proportions, sacral_canal
    model, res = gs1["model"], gs1["results"]
    P = res.body_poses[:, model.body("pelvis")]
    point = sacral_canal(model.source.header["stature"], proportions())
    z = (P[:, :3, :3] @ point)[:, 2] + P[:, 2, 3] - res.base_poses[:, 2, 3]
    assert z.min() - z[0] > -GS1_PMHS_PELVIS_MAX_DROP


def test_reference_gs1_pelvis_read_where_the_deck_reads_it(gs1):
    """The pelvis's rise is read at the sacral canal (builder.sacral_canal, 83 mm behind and 83
    mm above the hips in the pelvis frame at 1.753 m), as the SAFER HBM's GS1 deck reads the
    PMHS's pelvis target at its sacrum's spinal canal node (body_proportions.toml), not at the
    H-point, which sinks 22 mm."""
    from occupant.human.builder import proportions, sacral_canal
    model, res = gs1["model"], gs1["results"]
    P = res.body_poses[:, model.body("pelvis")]
    point = sacral_canal(model.source.header["stature"], proportions())
    z = (P[:, :3, :3] @ point)[:, 2] + P[:, 2, 3] - res.base_poses[:, 2, 3]
    np.testing.assert_allclose(gs1["history"]["pelvis_z_mm"], 1e3 * (z - z[0]), atol=1e-9)
    h = P[:, 2, 3] - res.base_poses[:, 2, 3]
    assert 1e3 * (h.min() - h[0]) < -15.0                     # the H-point sinks


@pytest.mark.xfail(strict=True, reason=(
    "-0.2 / 15.2 / 27.3 mm at 40 / 60 / 80 ms against the PMHS's 3.7 / 15.8 / 35.1 (7.8 mm short "
    "at 80 ms, over 5) since the belt's held abdomen wrap is placed from the thorax run's tangent "
    "point and the fit's sweeps settle (branch gravitybelt2 merged with main 62a71a8, branch "
    "gs1merge; 0.1 / 15.5 / 32.1 mm on branch gs1rise, passing on main 62a71a8): the belt fitted "
    "0.77 forward on the thorax, across the sternum, holds the torso back and the pelvis tilts "
    "less (29.1 -> 25.8 deg at most; a point 100 mm behind and 50 mm above the H-point rises "
    "36.3 -> 31.7 mm, test_regression_gs1_what_holds_the_pelvis_down); not traced further"))
@pytest.mark.xfail(strict=True, reason=(
    "since the condyles below the tragion and the head's com 26.4 mm ahead of them (branch "
    "chancey, taken by chanceyship; measured, not traced): the pelvis rises 27.1 mm by 80 ms "
    "against the PMHS mean's 35.1 (32.1 before), 8.0 mm under; 40 and 60 ms still within 5 mm"))
def test_reference_gs1_pelvis_rises_with_the_pmhs_mean_to_80_ms(gs1):
    """Read at the sacral canal (test_reference_gs1_pelvis_read_where_the_deck_reads_it), the
    human's pelvis rises with the mean of the eight PMHS's pelvis points (Ash et al. 2012,
    data/gs1_ash_2012_pelvis_l4_means.csv) to 80 ms, within 5 mm at 40, 60 and 80 ms: 0.1 / 15.5 /
    32.1 mm against 3.7 / 15.8 / 35.1 (branch gs1rise, main 93f7a72; after 80 ms it fell back,
    24.1 mm at 100 ms, while the PMHS's goes on to 46 mm)."""
    t = gs1["t"]
    ash = np.loadtxt(_gs1_data("gs1_ash_2012_pelvis_l4_means.csv"), delimiter=",", comments="#")
    for ms in (40.0, 60.0, 80.0):
        pmhs_up = -np.interp(ms, ash[:, 0], ash[:, 2])        # z down in the file
        human_up = np.interp(ms / 1e3, t, gs1["history"]["pelvis_z_mm"])
        assert human_up == pytest.approx(pmhs_up, abs=5.0), ms


def test_reference_gs1_safer_hbm_rises_inside_the_pmhs_corridors():
    """What the rises' corridors ask is possible on a rigid seat: the SAFER HBM's own run of the
    GS1 deck (data/gs1_safer_hbm_z.csv; the deck's seat, knee and foot supports rigid, its
    body settled under gravity for 350 ms before the pulse) raises the nodes its post-processing
    reads as the PMHS's pelvis, T8 and T1 targets by 49.1, 80.4 and 48.0 mm (114, 106, 90 ms),
    each inside the case's corridor (the peaks of the PMHS boundaries, z down in both files), and
    its L4 by 53.1 mm as the pelvis's: the whole lower spine goes up with the pelvis, where the
    human's lumbar-pelvis joint (at L3/L4) ends 10.6 mm below its start at 100 ms."""
    scenario, _ = read_scenario("human_sled_gs1_40")
    corridor = scenario["corridor"]
    data = np.loadtxt(_gs1_data("gs1_safer_hbm_z.csv"), delimiter=",", comments="#")
    rise = dict(zip(("pelvis", "l4", "l2", "t8", "t1"), -data[:, 1:].min(axis=0)))
    for name in ("pelvis", "t8", "t1"):
        lo, hi = corridor[f"{name}_z_rise_mm"]
        assert lo <= rise[name] <= hi, (name, rise[name], (lo, hi))
    assert rise["l4"] > 0.8 * rise["pelvis"]


# What holds the human's pelvis down (branch gs1rise; scenarios/validation/HISTORY.md, GS1 "What
# holds the pelvis down"): measured on the shipped case, ms 80-100
GS1_SEAT_LOAD_MEASURED_N = 8.5e3        # the pan's vertical load on the buttock and thighs, at least
GS1_LOWER_BELT_DOWN_MEASURED_N = 3.9e3  # the lower shoulder belt's downward pull, at least (4.4e3
                                        # before the neck's base moved to C7/T1; 4.0e3 before the
                                        # capstan angle was the belt path's turn, branch
                                        # capstanpath: its least 4110 -> 4000 N, at 80 ms)


def test_regression_gs1_what_holds_the_pelvis_down(gs1):
    """The measured cause of the sinking H-point, held so that a change that moves it shows:
    at 80-100 ms the rigid pan carries 8.9-12.5 kN vertically (buttock 2.1-3.4 kN, 10-17 mm deep;
    thighs 7.1-9.5 kN, on 200 kN/m flesh [E]) while the shoulder belt's piece from the abdomen to
    the buckle pulls 4.5-6.3 kN down (direction z -0.96 to -0.98) and its upper piece only 1.6-1.9
    kN up, the knee supports push 2 kN down (normal 0.24 down) and the whole body's centre of mass
    rises 12 mm (the upper torso up, the pelvis down). The H-point sinks 20 mm (96 ms) while a
    point of the pelvis 112 mm behind it at the start (pelvis frame (-0.10, 0, 0.05) m) rises 37
    mm (80 ms) as the pelvis tilts 27 deg forward: the pelvis figure depends on where the PMHS's
    pelvis point is (the SAFER node 8900510, its place not in the stored files), the H-point's
    sinking does not. Before the buttock was concentric with the ischium's underside
    (body_proportions.toml): pan 9.0-13.0 kN (buttock 1.6-3.8 kN, 8-18 mm deep), lower belt
    4.6-6.5 kN down, H-point 23.5 mm down (97 ms), the point behind 37.2 mm up. Since the
    body's proportions follow their sources (body_proportions.toml; Contini's density, 1059 kg/m^3,
    narrows the thigh shells): pan 8.9-12.5 -> 8.5-11.8 kN (buttock 2.1-3.4 -> 2.3-3.4 kN), lower
    belt 4.5-6.4 kN down, H-point 20.1 -> 19.9 mm down, the point behind 36.6 -> 35.6 mm up.
    Since the neck's base at C7/T1: pan 8.7-11.6 kN (buttock 2.3-3.2, thighs 6.4-8.5 kN), lower
    belt 4.1-6.5 kN down, H-point 19.7 mm down (94.5 ms), the point behind 35.7 mm up (82 ms).
    Since the belts are measured along their path (branch beltarcs): H-point 19.7 -> 21.0 mm
    down, the point behind 35.7 -> 30.6 mm up (the pelvis tilts less, below). Since the capstan
    angle is the belt path's turn (branch capstanpath): lower belt 4.11-6.52 -> 4.00-6.55 kN down,
    pan 9.6-11.9 kN, H-point and the point behind as before. Since the lumbar-pelvis joint (L3/L4) stands two levels above Reed et al.'s L5/S1, 30.7 mm higher (branch lumbarheight; main 97e82ed -> the branch): H-point 21.0 -> 21.8 mm
    down, the point behind 30.6 -> 36.3 mm up (the pelvis tilts 27.4 -> 29.1 deg at most).
    Since the belt's held abdomen wrap is placed from the thorax run's tangent point and the fit's sweeps settle (branch gravitybelt2, main 93f7a72 -> the branch): H-point 21.8 -> 20.0 mm down, the
    point behind 36.3 -> 31.2 mm up (the pelvis tilts 29.1 -> 25.6 deg at most).
    The three merged (branch gs1merge, main 62a71a8 -> merged): H-point 21.8 -> 20.4 mm down, the
    point behind 36.3 -> 31.7 mm up (the pelvis tilts 29.1 -> 25.8 deg at most)."""
    res, model, t = gs1["results"], gs1["model"], gs1["t"]
    out = res.outputs
    seat = sum(out[f"{c}__seat_cushion.normal_force"]
               for c in ("buttock", "left_thigh_shell", "right_thigh_shell"))
    pan_up = 0.9659                     # the pan's normal's z (vehicles/gs1_sled_buck.toml)
    xyz = {n: np.stack([out[f"belt.{n}.{a}"] for a in "xyz"], 1) for n in ("abdomen", "buckle")}
    u = xyz["buckle"] - xyz["abdomen"]
    down = -out["belt.abdomen-buckle.force"] * u[:, 2] / np.linalg.norm(u, axis=1)
    crash = (t >= 0.08) & (t <= 0.10)
    assert (pan_up * seat[crash]).min() > GS1_SEAT_LOAD_MEASURED_N
    assert down[crash].min() > GS1_LOWER_BELT_DOWN_MEASURED_N
    P = res.body_poses[:, model.body("pelvis")]
    sled = res.base_poses[:, :3, 3]
    h = P[:, :3, 3] - sled
    behind = P[:, :3, :3] @ np.array([-0.10, 0.0, 0.05]) + P[:, :3, 3] - sled
    assert 1e3 * (h[:, 2].min() - h[0, 2]) == pytest.approx(-20.4, abs=2.0)
    assert 1e3 * (behind[:, 2].max() - behind[0, 2]) == pytest.approx(31.7, abs=3.0)


def test_reference_gs1_knee_excursion_inside_the_pmhs_corridor(gs1):
    """The knees' peak forward excursion relative to the sled inside the peaks of Shaw et al.'s
    (2009) Knee_x_disp corridor boundaries (23.4-74.2 mm): 24.8 mm (26.3 on the trapezoid
    pulse). T8's (T8_x_disp, 175.1-235.6 mm), inside while T8 was read 4.5 of 12 bodies above the
    thorax-lumbar joint taken for T12/L1 (214.1 mm, 189.6 before branch gs1pelvis), is in
    GS1_FIGURES_OUT since it is read at T8's level (1.5 bodies above T9/T10)."""
    _assert_inside(gs1, "knee_x_excursion_mm")


# The GS1 figures still outside their PMHS corridors, each group with its measured cause
GS1_FIGURES_OUT = {
    "t8": (("t8_x_excursion_mm",),
           "T8, read at its level on the upper torso (1.5 of its nine bodies above the "
           "thorax-lumbar joint, de Leva's xiphion, level with the T9/T10 disc; validation.py), "
           "goes 164.3 mm forward (161.8 before the neck's base moved to C7/T1), 10.8 mm short "
           "of the PMHS corridor's 175.1-235.6 mm (read 4.5 "
           "of twelve bodies above the joint taken for T12/L1, 189.6 mm, inside): the human's "
           "upper torso is one rigid body from T9/T10 to T1 that stays near upright on the "
           "extended lumbar spine to 60 ms, so its base, where T8 is, goes forward with the "
           "thorax-lumbar joint, where the PMHS's trunk bends along its thoracic spine "
           "(scenarios/validation/HISTORY.md, GS1 'The pelvis against the PMHS's')"),
    "rises": (("t1_z_rise_mm", "t8_z_rise_mm", "pelvis_z_rise_mm"),
              "the human's T1 rises 19.6 mm, T8 22.5 mm and its pelvis 32.1 mm, read at the "
              "sacral canal where the SAFER deck reads the PMHS's pelvis target (branch gs1rise; "
              "0.0 at the H-point, which sinks 22 mm as the femurs swing down about the held "
              "knees), where the PMHS's T1 rises 42.0-63.7 mm, T8 60.4-90.6 mm and the pelvis "
              "point 35.7-57.1 mm by 90-108 ms. The pelvis rises with Ash et al.'s mean to 80 ms "
              "(32.1 against 35.1 mm) and falls back after (24.1 at 100 ms, PMHS 46): its tilt "
              "stops at 28 deg by 85 ms while its H-point sinks on under the pan's 9-12 kN, the "
              "lower shoulder belt pulling 4-6.5 kN down (test_regression_gs1_what_holds_the_"
              "pelvis_down). Over the pelvis point T8 is 12-13 mm lower at 80-110 ms where the "
              "PMHS's is 26-29 mm higher, T1 15-25 mm lower where theirs is 16 higher to -7: the "
              "trunk above the pelvis does not rise up the shoulder belt (its T12-T1 one rigid "
              "body on an extending lumbar spine); read at their canals T1 and T8 rise 3.6 mm "
              "more. The SAFER HBM on the deck's rigid seat meets all three (49.1 / 80.4 / 48.0 "
              "mm). Earlier readings and probes: scenarios/validation/HISTORY.md, GS1 'What holds "
              "the pelvis down', pelvisrise, spinedepth and 'GS1's pelvis read where the deck "
              "reads it'). On the merged whole (branch gs1merge: gravitybelt2's belt fit on main "
              "62a71a8) 16.6, 17.6 and 28.3 mm, the belt across the sternum holding the torso "
              "further back; the figures above from main 62a71a8, not re-traced"),
    "accelerations": (("t1_x_deceleration_g", "t8_x_deceleration_g", "l2_x_deceleration_g"),
                      "T1, T8 and L2 decelerate at most 39.3, 28.2 and 32.6 g (65, 73 and 77 ms; "
                      "CFC 180, each bone's axes) where the PMHS's peak at 8.35-22.09, "
                      "19.97-23.60 and 18.65-24.92 g. Not the reading: in the sled's axes, at CFC "
                      "60 or 30-90 mm behind the vertebral body the peaks move by at most 1.1 g "
                      "(test_regression_gs1_spine_decelerations_do_not_turn_on_the_reading). Not "
                      "the belt's total: the body above the pelvis decelerates at most 22.3 g as a "
                      "whole, inside the PMHS's T8 and L2 corridors (test_regression_gs1_upper_"
                      "body_decelerates_as_the_pmhs_spine). Its rigid segments are stopped one "
                      "after the other: at 65 ms the belt pushes the 12.0 kg upper torso back with "
                      "5.5 kN, 70 % of it straight onto the torso (the 2/3 of the thorax wraps' "
                      "force not on the sternum spring, occupant/human/data/thorax.toml), while "
                      "its neighbours push it forward with 1.8 kN: 31.8 g at its centre of mass, "
                      "39.3 at T1 with its pitch; the upper torso then stops the lumbar segment "
                      "(L2 at 77 ms). The belt also loads faster than the PMHS's (upper shoulder "
                      "belt 1.5 -> 6.4 kN from 50 to 65 ms, 0.32 kN/ms, where the eight tests' "
                      "mean goes 1.9 -> 4.5, 0.18 kN/ms) (scenarios/validation/HISTORY.md, "
                      "gs1decel; earlier traces there, GS1 'The spine's decelerations traced')"),
    "acromia": (("right_acromion_x_excursion_mm", "left_acromion_x_excursion_mm"),
                "the belted (right) acromion goes 175.3 mm forward and the far one 288.2 mm "
                "(169.0 and 311.7 before the neck's base moved to C7/T1) "
                "where the PMHS's acromia go 96.4-139.0 and 339.8-416.2 mm (Ash et al. 2012, "
                "kinematics.csv): the human's torso is stopped square by the belt, which lies on "
                "the thorax's top by the neck, not over the clavicle; fitted at mid-clavicle on "
                "the shoulder shell the belt holds the right shoulder at 71-80 mm to 100 ms and "
                "the left goes inside Ash's corridor at 70-90 ms, but the belt then slides off "
                "over the acromion (earlier figures: HISTORY.md "
                "GS1 'The shoulder belt on the shoulder's surface'); since branch gravitybelt2 "
                "(the belt's fit converged, its held abdomen wrap placed from the thorax run's "
                "tangent point) 136.1 mm (inside) and 269.4 mm (OUT), were 169.7 and 304.3; "
                "135.5 and 269.7 mm on the merged whole (branch gs1merge)"),
}


@pytest.mark.parametrize("names", [
    pytest.param(names, id=group, marks=pytest.mark.xfail(strict=True, reason=reason))
    for group, (names, reason) in GS1_FIGURES_OUT.items()])
def test_reference_gs1_figure_inside_the_pmhs_corridor(gs1, names):
    """L2's and L4's peak forward excursions (Ash et al. 2012's corridors, kinematics.csv), the
    peak rises of T1, T8 (T1_z_disp, T8_z_disp, z down in the files) and of the pelvis (Ash et
    al.'s pelvis channel, read at the sacral canal as the SAFER deck reads it) and the
    peak x decelerations of T1, T8 and L2 (T1/T8/L2_x_acc, at CFC 180) inside the peaks of their
    corridors' boundaries."""
    _assert_inside(gs1, *names)


def test_reference_gs1_lumbar_excursions_inside_the_pmhs_corridors(gs1):
    """L2's and L4's peak forward excursions relative to the sled inside the peaks of Ash et
    al.'s (2012) corridors of the eight GS1 tests (kinematics.csv l2X, l4X: 93.7-145.6 and
    51.6-96.2 mm), read at their vertebrae's levels (test_reference_spine_points_at_the_trunk_
    joints_vertebral_levels): 114.9 and 91.1 mm. Read two vertebrae too high before (at 3.5 and
    1.5 of five bodies above the lumbar-pelvis joint taken for L5/S1) they went 142.1 and 117.8
    mm, L4 OUT, which had been read as the pelvis's forward tilt being two to three times the
    PMHS's (scenarios/validation/HISTORY.md, GS1 'The pelvis against the PMHS's'). Since the
    lumbar-pelvis joint (L3/L4) stands two levels above Reed et al.'s L5/S1 (branch lumbarheight):
    L2 107.2 -> 123.3 mm (inside); L4 85.5 -> 104.9 mm, OUT (a strict xfail, its reason: L4 read
    161.9 mm above the hips, 15.3 of the 19.4 mm where it is read, 4.1 the pelvis's further
    tilt). Since the fit places the belt's held abdomen wrap on the thorax run's converged path
    and from its tangent point (branch gravitybelt2; main 93f7a72 -> the branch): L2 121.4 ->
    110.1 mm, L4 103.4 -> 95.0 mm, inside (the torso held further back by the belt fitted 0.77
    forward on the thorax, was 0.66)."""
    _assert_inside(gs1, "l2_x_excursion_mm", "l4_x_excursion_mm")


def test_reference_gs1_chest_deflection_inside_the_pmhs_corridor(gs1):
    """The chest's peak deflection (the sternum's travel towards the spine, read as the PMHS's
    sternum relative to T8, Sternum_relT8_x) inside the peaks of its corridor's boundaries
    (44.0-83.6 mm, 94-100 ms), and at the corridor's time: 61.5 mm since the belt on the
    thorax's front loads the ribcage (``[restraints.belt] ribcage``; 29.2 mm when only the chest
    wrap, with 0.5-1.2 kN of the belt's 8-9 kN push into the chest, was carried by the sternum
    and the shoulder wrap, lying on the thorax's front over the sternum from 65 ms, loaded the
    rigid upper torso with 6-8 kN)."""
    _assert_inside(gs1, "chest_deflection_mm")
    t, d = gs1["t"], gs1["results"].outputs["chest_translation.deflection"]
    assert 0.085 < t[np.argmin(d)] < 0.115


def test_reference_gs1_shoulder_wrap_loads_the_ribcage(gs1):
    """The shoulder belt's push into the chest reaches the chest joint: over the loaded belt
    (70-100 ms) the chest joint's load is at least a fifth of the push of the thorax's two wraps
    along the chest's axis (their forces T_in u_in + T_out u_out taken in the upper torso's
    frame; a third of it is the share they bear, thorax.toml [belt], less the sternum's own
    inertia and damping); before, with only the chest wrap carried, 0.45-0.8 kN of 7.3-8.9 kN."""
    res, t = gs1["results"], gs1["t"]
    out, model = res.outputs, gs1["model"]
    names = ("d_ring", "shoulder", "chest", "abdomen")
    x = {n: np.stack([out[f"belt.{n}.{a}"] for a in "xyz"], 1) for n in names}
    f = {(a, b): out[f"belt.{a}-{b}.force"] for a, b in zip(names, names[1:])}
    base = np.linalg.inv(res.base_poses)
    axis = (base @ res.body_poses[:, model.body("upper_torso")])[:, :3, 0]   # the chest's x axis
    push = np.zeros_like(t)
    for a, p, b in zip(names, names[1:], names[2:]):
        ua = (x[a] - x[p]) / np.linalg.norm(x[a] - x[p], axis=1)[:, None]
        ub = (x[b] - x[p]) / np.linalg.norm(x[b] - x[p], axis=1)[:, None]
        force = f[(a, p)][:, None] * ua + f[(p, b)][:, None] * ub
        push -= np.einsum("ij,ij->i", force, axis)
    loaded = (t >= 0.07) & (t <= 0.1)
    load = out["chest_translation.load"][loaded]
    assert push[loaded].min() > 5000.0
    assert np.all(load > 0.2 * push[loaded])


def _unit_sphere(n=19):
    """Points on the unit sphere, n polar by 2n - 1 azimuthal samples, (m, 3)."""
    u, v = np.meshgrid(np.linspace(0.0, np.pi, n), np.linspace(0.0, 2.0 * np.pi, 2 * n - 1))
    return np.stack([np.sin(u) * np.cos(v), np.sin(u) * np.sin(v), np.cos(u)], -1).reshape(-1, 3)


def test_reference_gs1_chin_stays_off_the_chests_rigid_parts(gs1):
    """The head, flexing forward over the belted chest, stops on its chin before the skull would
    meet the chest's rigid parts: sampled every millisecond, no point of the chin's surface lies
    deeper inside the thorax ellipsoid or the sternum pad than the chin-chest law's padding less
    what its foam keeps bottomed (CHIN_PADDING - FOAM_BOTTOMED, 31 mm; the law of
    dummies/body_contacts.toml, which the human takes as the dummies do [E]). Measured with the
    face on: 20.9 mm in the thorax at 108 ms (the pair's own penetration 20.6 mm, 1.18 kN), the
    sternum pad never; the head turns on the upper torso 44.6, 50.4 and 71.3 deg at 110, 130 and
    150 ms (20.0 at rest). The same chin placed on the run with the face off: 38.2 mm at 113 ms,
    the head turned 94.7-97.9 deg at 130-150 ms, the chin through the neck's base
    (scenarios/validation/HISTORY.md, gs1chin)."""
    run, t = gs1["run"], gs1["t"]
    sphere = _unit_sphere()
    deepest = {"thorax": 0.0, "sternum_pad": 0.0}
    for k in range(0, len(t), int(round(1e-3 / (t[1] - t[0])))):
        E = ellipsoids_at(run, k, ("chin",) + tuple(deepest))
        c, R, D = E["chin"]
        for x in c + (sphere * D) @ R.T:
            for name in deepest:
                deepest[name] = max(deepest[name], depth(x, E[name]))
    assert max(deepest.values()) < CHIN_PADDING - FOAM_BOTTOMED, deepest


def test_reference_gs1_pulse_is_the_deck_pulse():
    """The sled's pulse (data/gs1_sled_pulse.csv, the SAFER deck's sled displacement differenced
    twice) loses the speed the deck's sled reaches: its displacement's slope after the pulse,
    (1588.38 - 1115.69) mm over the 40 ms from 505 to 545 ms, 11.817 m/s [D: SLED Sled_Disp_x
    in the deck's Dynasaur_output.csv]; its plateau (25-95 ms) lies in GS1's 12-15 g
    (crash-domain-facts.md 6.4 [S]); the scenario reads it whole."""
    sc, path = read_scenario("human_sled_gs1_40")
    lines = (pathlib.Path(path).parent / "data" / "gs1_sled_pulse.csv").read_text().splitlines()
    data = np.loadtxt([ln for ln in lines if ln[:1].isdigit()], delimiter=",")
    t, a = data[:, 0], data[:, 1] * 9.80665
    assert -np.trapezoid(a, t) == pytest.approx(11.817, abs=0.01)
    plateau = -data[(t >= 0.025) & (t <= 0.095), 1]
    assert 12.0 < plateau.min() and plateau.max() < 15.0
    sled = load(pathlib.Path(path).parent / sc["sled"], {"solver.t_end": 0.15})
    assert sled.pulse.delta_v == pytest.approx(11.817, abs=0.01)


# The largest bending moment applied to intact human lumbar motion segments in the tests of
# Miller, Schultz, Warwick & Spencer (1986, J. Biomech. 19:79, 14 segments of males aged 29 on
# average: moments up to 95 N m in flexion, extension, lateral bending and torsion, rotations up to
# 18 deg) [S abstract]. Each of the human's two lumbar joints stands for a series of segments and
# carries the whole moment (occupant/human/data/joint_passive.toml, chain = 2).
LUMBAR_SEGMENT_MOMENT_TESTED = 95.0   # N m [S abstract]


def gs1_pelvis_tilt_deg(gs1):
    """The pelvis's forward tilt (deg, top forward positive) relative to the sled since t = 0."""
    res, model = gs1["results"], gs1["model"]
    R = np.einsum("nji,njk->nik", res.base_poses[:, :3, :3],
                  res.body_poses[:, model.body("pelvis"), :3, :3])
    pitch = np.degrees(np.arctan2(R[:, 0, 2], R[:, 2, 2]))
    return pitch - pitch[0]


@pytest.mark.xfail(strict=True, reason=(
    "the thorax-lumbar and lumbar-pelvis joints carry up to 235 and 183 N m in extension, 7.1 "
    "and 8.6 deg (54 and 93 ms; in flexion, late, 391 N m at 116 ms, 20.7 deg, as the chin "
    "leaves the chest, and 708 N m at 149 ms, 32.1 deg, the lumbar-pelvis joint flexing 12 deg "
    "in 10 ms in the rebound, both the springs' (test_regression_gs1_late_lumbar_flexion_is_the_"
    "spring): 205 and 240 N m before the face was on in GS1, the latter cut by the run's end "
    "(696 N m at 154 ms run on); 217 and 208 N m, "
    "8.2 and 8.0 deg in extension at 54 and 91 ms as first read; 246 and 284 N m, 9.1 and 10.2 deg at 77 and 88 ms, before the "
    "buttock was concentric with the ischium's underside; 314 and 334 N m, 11.0 and 11.6 deg, "
    "before the "
    "GS1 rig's springs, anchorages and lap pre-load; 376 and 409 N m, 12.8 and 13.7 deg, before the "
    "belt's load on the thorax's front reached the ribcage; 23 deg of the lumbar spine, where "
    "Demetropoulos et al.'s PMHS lumbar spines were bent to 14-16 deg with 82-350 N m, "
    "joint_passive.toml; 891 and 845 N m, 13.3 and 13.1 deg, on Anderson & Pandy's extension "
    "wall before): held at the hips by the knee supports (7-9 kN from "
    "40 ms), the pelvis tilts forward 7.1 deg by 40 ms and 27.7 deg at 85 ms about the hips while "
    "the upper torso, not yet held by the belts (under 0.5 kN to 50 ms), stays within 2 deg of "
    "upright to 50 ms: the lumbar spine extends until it carries the torso along (the moments "
    "about the hips: test_regression_gs1_what_tilts_the_pelvis; the PMHS's pelvis and lower "
    "lumbar spine turn as far by 90 ms, 21-27 deg for 100-130 mm from their pelvis point to L4, "
    "but half as far by 40 ms: test_reference_gs1_pelvis_tilt_keeps_the_pmhs_pace). Not the "
    "hips' passive curve (four times it: 266 and 239 N m). Not (measured on "
    "Anderson & Pandy's curve) the seated lumbar's flexion (9 deg a joint put into the posture for sitting's 17-19 deg less lordosis, Endo et "
    "al. 2012, Moon et al. 2018: the pelvis tilts 39 deg, 967 N m), the seat's friction (0: "
    "1402 N m) nor the knee supports' angle (straight back: 699 N m) (scenarios/validation/"
    "HISTORY.md, GS1 'The pelvis')"))
def test_reference_gs1_lumbar_moment_within_the_tested_range(gs1):
    """Each lumbar joint's bending moment stays within what intact lumbar motion segments were
    loaded with in the published tests (LUMBAR_SEGMENT_MOMENT_TESTED), in extension and in
    flexion."""
    out = gs1["results"].outputs
    for joint in ("thorax_lumbar", "lumbar_pelvis"):
        assert np.abs(out[f"{joint}_y.load"]).max() < LUMBAR_SEGMENT_MOMENT_TESTED, joint


def test_regression_gs1_pelvis_tilt_and_lumbar_extension(gs1):
    """As measured (the deck's pulse): the pelvis tilts forward about the hips 9.3 deg by 40 ms
    and 36.1 deg at its most (88 ms), the upper torso under 2 deg from upright to 60 ms; the
    lumbar joints' peak extension 13.4 and 13.3 deg (their neutral at the posture 1.6 and 3.1
    deg of flexion) with 940 and 915 N m; the hips flex from 76 to 110 deg with under 10 N m.
    Since every belt wrap's place is fitted at its point (restraints.fit_belts; the chest no
    longer starts 7 mm in): pelvis tilt 9.3 -> 9.5 deg at 40 ms, 36.1 -> 34.9 deg at most (86
    ms), lumbar extension 13.4 -> 13.3 and 13.3 -> 13.1 deg with 940 -> 891 and 915 -> 845 N m.
    Since the lumbar extension is the whole PMHS lumbar spine's (Demetropoulos et al. 1998,
    joint_passive.toml): pelvis tilt 9.5 -> 8.5 deg at 40 ms, 34.9 -> 34.6 deg at most (88 ms),
    lumbar extension 13.3 -> 12.8 and 13.1 -> 13.7 deg with 891 -> 376 and 845 -> 409 N m.
    Since the belt on the thorax's front loads the ribcage ([restraints.belt] ribcage): pelvis
    tilt 8.5 -> 8.5 deg at 40 ms, 34.6 -> 33.4 deg at most (88 ms), lumbar extension 12.8 ->
    11.0 and 13.7 -> 11.6 deg with 376 -> 314 and 409 -> 334 N m. Since the GS1 rig's belt-end
    springs and the deck's buckle and lap anchorage: pelvis tilt 8.5 deg at 40 ms, 33.4 -> 30.1
    deg at most (86 ms), lumbar extension 11.0 -> 9.6 and 11.6 -> 10.6 deg with 314 -> 265 and
    334 -> 300 N m. Since the lap belt's retractor pulls the deck's 100 N pre-load (locking with
    the shoulder belt's at 14 ms, not at 10 ms): pelvis tilt 8.5 -> 8.2 deg at 40 ms, 30.1 ->
    29.9 deg at most (87 ms), lumbar extension 9.6 -> 9.1 and 10.6 -> 10.2 deg with 265 -> 246
    and 300 -> 284 N m. Since the buttock is concentric with the ischium's underside
    (body_proportions.toml; the pan's normal force's lever about the hips 14-17 mm at any tilt,
    15-41 mm before, and the buttock starting 2.2 mm above the pan, 0.7 before): pelvis tilt
    8.2 -> 7.1 deg at 40 ms, 29.9 -> 27.7 deg at most (85 ms), lumbar extension 9.1 -> 8.2 and
    10.2 -> 8.0 deg with 246 -> 217 and 284 -> 208 N m. Since a belt segment's strain counts its
    length to its wraps' places (``belt.wrap_lag``): pelvis tilt 27.7 -> 27.3 deg at most,
    lumbar-pelvis extension 8.0 -> 7.5 deg with 208 -> 191 N m. Since the body's proportions
    and the sternum's place follow their sources (body_proportions.toml, thorax.toml): pelvis
    tilt 27.4 -> 27.2 deg at most, thorax-lumbar extension 8.2 -> 8.4 deg with 217 -> 223 N m,
    lumbar-pelvis 7.5 -> 7.1 deg with 190 -> 176 N m. Since the trunk's sagittal range splits by
    vertebral level (joint_rom.toml: extension 12.2 / 17.8 deg, was 15 each; the PMHS lumbar
    spine's moment reached at each joint's share of its angle): pelvis tilt 27.2 -> 27.6 deg at
    most, thorax-lumbar extension 8.4 -> 7.0 deg with 223 -> 228 N m, lumbar-pelvis 7.1 -> 8.6
    deg with 176 -> 183 N m. Since the neck's base at C7/T1 (the head 81 mm further forward
    over the trunk): pelvis tilt 7.2 deg at 40 ms, 27.6 -> 28.6 deg at most, thorax-lumbar
    extension 7.0 -> 6.2 deg with 228 -> 198 N m, lumbar-pelvis 8.6 -> 9.9 deg with 183 -> 220
    N m. Since the belts are measured along their path (branch beltarcs): pelvis tilt 7.2 deg at
    40 ms, 28.6 -> 26.9 deg at most, thorax-lumbar extension 6.2 -> 6.4 deg with 198 -> 204 N m,
    lumbar-pelvis 9.9 -> 9.0 deg with 220 -> 195 N m. Since the lumbar-pelvis joint (L3/L4) stands two levels above Reed et al.'s L5/S1, 30.7 mm higher (branch lumbarheight; main 97e82ed -> the branch): pelvis tilt 7.2 -> 6.9 deg at 40 ms,
    26.9 -> 29.1 deg at most, thorax-lumbar extension 6.4 -> 6.0 deg with 204 -> 187 N m,
    lumbar-pelvis 9.0 -> 11.4 deg with 195 -> 266 N m. On the merge with main c87f8e8 (gs1rest: the seat back at the human's back): thorax-lumbar
    extension 6.0 -> 6.2 deg with 187 -> 196 N m, the rest within 0.2 deg, 2 N m. Since the belt's held abdomen wrap is placed from the thorax run's tangent point and the fit's sweeps settle (branch gravitybelt2, main 93f7a72 -> the branch): pelvis tilt 6.9 -> 7.1 deg at 40 ms, 29.1 -> 25.6 deg at most,
    thorax-lumbar extension 6.2 -> 6.3 deg with 196 -> 202 N m, lumbar-pelvis 11.4 -> 11.2 deg
    with 266 -> 259 N m.
    The three merged (branch gs1merge, main 62a71a8 -> merged): pelvis tilt 6.9 -> 6.8 deg at 40
    ms, 29.1 -> 25.8 deg at most, thorax-lumbar extension 6.2 -> 6.1 deg with 196 -> 191 N m,
    lumbar-pelvis 11.4 -> 11.5 deg with 266 -> 269 N m."""
    t, tilt = gs1["t"], gs1_pelvis_tilt_deg(gs1)
    assert tilt[np.argmin(abs(t - 0.04))] == pytest.approx(6.8, abs=1.0)
    assert tilt.max() == pytest.approx(25.8, abs=1.5)
    out = gs1["results"].outputs
    for joint, deg, moment in (("thorax_lumbar", -6.1, 191.4), ("lumbar_pelvis", -11.5, 268.6)):
        assert np.degrees(out[f"{joint}_y.deflection"]).min() == pytest.approx(deg, abs=0.5)
        assert out[f"{joint}_y.load"].max() == pytest.approx(moment, rel=0.05)
    for side in ("left", "right"):
        assert np.abs(out[f"{side}_hip_y.load"]).max() < 12.0


def test_regression_gs1_late_lumbar_flexion_is_the_spring(gs1):
    """The lumbar joints' largest flexion moments, late in the run, are their springs': Anderson &
    Pandy's flexion curve where it passes joint_passive.toml's moment_cap (300 N m, at 20.3 and
    29.6 deg of the two joints) and its end slope on (238 and 165 N m/deg), not their damping
    (0.1 N m s/rad) nor a stop (the ranges end at 30.5 and 44.5 deg). Thorax-lumbar 352 N m at
    146 ms, 20.5 deg, as the upper torso pitches on. Lumbar-pelvis: its largest at the run's end
    (150 ms), 40 N m at 26.1 deg, just out of Anderson & Pandy's flat 0-25 deg and turning at 38
    rad/s (its damping 3.8 N m of it): the fold, which with the neck's base at the cervicale met
    the end slope at 149 ms (708 N m at 32.1 deg as the pelvis turned back about the hips in the
    rebound), now comes later, as it did face off (240 N m at 150 ms, 696 at 154 ms in a run to
    170 ms). Before the neck's base moved to C7/T1 thorax-lumbar 391 N m at 116 ms, 20.7 deg.
    Measured alike at half the step and with RK4 before (scenarios/validation/HISTORY.md, branch
    gs1lumbar); since, run once (scenarios/validation/HISTORY.md Stop 39, c7t1). Since the head's
    com keeps de Leva's head+neck com on that link (run once, scenarios/validation/HISTORY.md Stop 39
    kangside): thorax-lumbar 207 N m at 141 ms, 19.9 deg; lumbar-pelvis 141 N m at the run's end
    (150 ms), 28.3 deg, its fold begun (damping 3.4 N m of it). Since the belts are measured
    along their path (branch beltarcs): thorax-lumbar 207 -> 286 N m at 142.5 ms, 20.3 deg (0.4
    deg further up the curve's steep part before its cap at 20.3 deg); lumbar-pelvis 141 -> 524
    N m at the run's end, 31.0 deg: the fold passes the cap (29.6 deg) onto the end slope 1.5 ms
    before the end, 300 + 165 x 1.4 = 531 N m, the rebound's fold as with the neck's base at
    the cervicale, not a step (its largest second difference 3.6 N m a sample). Since a held
    wrap's hook is handed over to the line (branch heldhandover): lumbar-pelvis 524 -> 488 N m at
    the run's end, 31.0 -> 30.8 deg (300 + 165 x 1.2 = 493 N m on the end slope; its largest
    second difference 3.6 N m a sample): the abdomen wrap, whose hook went to the line in one
    step at 143.45 ms (the chest-abdomen segment unloaded to the end), is handed over part way
    at 142.3-142.6 ms and then stays hooked to the run's end (0.37 kN at 150 ms), pulling the
    abdomen in the rebound; thorax-lumbar unchanged. With the capstan angle the belt path's turn too
    (branch capstanpath; measured on the merge of both): thorax-lumbar 286 -> 280 N m (142.4 ms,
    20.2 deg); lumbar-pelvis 488 -> 438 N m at the run's end, 30.8 -> 30.5 deg (on the end
    slope, 300 + 165 x 0.8 = 432 N m). Since the tangent pieces pull at their tangent points
    (branch tangentcouple; main 09f90cd -> the branch): thorax-lumbar 280 -> 262 N m (142.4 ->
    141.7 ms, 20.2 deg, under the cap: on the curve's steep part); lumbar-pelvis 438 -> 148 N m
    at the run's end, 30.5 -> 28.4 deg: the rebound's fold reaches the end slope no more within
    the run (the cap at 29.6 deg), as before beltarcs. With the knee's damping of the relaxed
    knee's pendulum test (0.41 N m s/rad in place of 0.1; branch armtone, main ebfdf79 -> the
    branch): thorax-lumbar 262.4 -> 275.7 N m (141.7 -> 141.9 ms, 20.16 -> 20.21 deg: 0.05 deg
    further up the curve's steep part under the cap); lumbar-pelvis 147.7 -> 169.9 N m at the
    run's end, 28.42 -> 28.66 deg (its damping 3.4 N m of it), still short of the cap. With the
    seat back at the human's back (36 mm further forward, vehicles/gs1_sled_buck.toml; branch
    gs1rest), which the pelvis flesh meets in the rebound from 142 ms (561 N at 150 ms):
    lumbar-pelvis 169.9 -> 160.9 N m at the run's end, 28.66 -> 28.57 deg; thorax-lumbar 275.7 ->
    277.0 N m (141.9 ms, 20.22 deg). Since the lumbar-pelvis joint (L3/L4) stands two levels
    above Reed et al.'s L5/S1, 30.7 mm higher (branch lumbarheight; main 97e82ed -> the branch,
    before gs1rest's merge): thorax-lumbar 275.7 -> 439.1 N m (141.9 -> 143.8 ms, 20.2 -> 20.9
    deg, inside its range); lumbar-pelvis 169.9 -> 4.8 N m at the run's end, 28.7 -> 19.9 deg: the
    pelvis, rigid up to the raised joint, takes more of the trunk's late flexion, the
    lumbar-pelvis joint less; it stays in Anderson & Pandy's flat 0-25 deg, its largest moment
    now its damping's (3.9 of the 4.8 N m), so only the thorax-lumbar's is checked to be the
    spring's. On the merge of both (main c87f8e8): as the branch's within the tests' bounds.
    Since the hands rest on the thighs' tops (the case's posture_angles; branch gs1hands, main
    7168433 -> the branch): thorax-lumbar 445.6 -> 429.9 N m (143.8 -> 142.3 ms, 20.93 -> 20.86
    deg); lumbar-pelvis 20.3 -> 21.5 deg at most, 5.0 -> 6.0 N m (its damping 3.9 -> 3.7 of it).
    Since passenger_seated puts the heels' lowest points on the floor (branch passheel, main
    93f7a72 -> the branch): thorax-lumbar 429.9 -> 445.6 N m (142.3 -> 142.2 ms, 20.86 -> 20.93
    deg); lumbar-pelvis 21.5 -> 20.9 deg at most.
    Since the belt's held abdomen wrap is placed from the thorax run's tangent point and the fit's sweeps settle (branch gravitybelt2, main 93f7a72 -> the branch): thorax-lumbar 429.9 -> 351.1 N m
    (142.3 -> 133.1 ms, 20.86 -> 20.53 deg); lumbar-pelvis 21.5 -> 25.0 deg at most, at the
    run's last sample (150 ms), the end of Pandy's flat 0-25 deg, 6.0 -> 21.8 N m.
    The three merged (branch gs1merge, main 62a71a8 -> merged): thorax-lumbar 445.6 -> 355.5 N m
    (142.2 -> 133.2 ms, 20.93 -> 20.55 deg); lumbar-pelvis 20.9 -> 24.8 deg at most, at the run's
    last sample (150 ms), the end of Pandy's flat 0-25 deg, 6.0 -> 19.2 N m: over the 10 N m bound,
    test_reference_gs1_late_lumbar_pelvis_flexion_stays_in_the_flat_zone (a strict xfail). Since
    the belt's flow slips or sticks by the excess the implicit step foresees (branch bistable,
    main 9e4b466 -> the branch): thorax-lumbar 363.2 -> 388.0 N m (133.8 -> 134.2 ms, 20.58 ->
    20.69 deg: 0.11 deg further up the end slope past the cap); lumbar-pelvis 20.7 -> 20.3 N m,
    24.94 -> 24.90 deg. Since the condyles below the tragion (the neck link 142.3 -> 114.8 mm), the head's com 26.4 mm ahead of them and the upper neck's damping 1.1 -> 2.0 (branch chancey; run once, not fitted): thorax-lumbar 388.0 -> 243.5 N m (134.2 -> 128.6 ms,
    20.7 -> 20.1 deg, under the cap: on the curve's steep part); lumbar-pelvis 20.3 -> 180.9 N m
    at most, 24.9 -> 28.8 deg: out of Anderson & Pandy's flat 0-25 deg onto the steep part, short
    of the cap (29.6 deg)."""
    from occupant.forces.joint_resistance import table_load
    res, model = gs1["results"], gs1["model"]
    el, t, out = model.joint_resistance, res.t, res.outputs
    x = np.degrees(np.asarray(out["lumbar_pelvis_y.deflection"]))
    assert -np.asarray(out["lumbar_pelvis_y.load"]).min() == pytest.approx(180.9, abs=2.0)
    assert x.max() == pytest.approx(28.8, abs=0.5) and x.max() < 29.6
    for joint, moment, ms, deg, damped in (("thorax_lumbar", 243.5, 128.6, 20.1, 0.01),):
        e = model.joint_resistance_names.index(f"{joint}_y")
        x, load = np.asarray(out[f"{joint}_y.deflection"]), np.asarray(out[f"{joint}_y.load"])
        i = int(np.argmin(load))                 # flexion: the restoring load is negative
        assert -load[i] == pytest.approx(moment, rel=0.05), joint
        assert 1e3 * t[i] == pytest.approx(ms, abs=2.0), joint
        assert np.degrees(x[i]) == pytest.approx(deg, abs=0.5), joint
        assert x[i] < el.upper[e], joint         # inside the range: no stop
        spring = -table_load.py_func(el.tables, el.table_start[e], el.table_len[e],
                                     x[i] - el.reference[e])   # compiled without a Python entry
        damping = -el.damping[e] * np.gradient(x, t)[i]
        assert abs(damping) < damped * moment, joint
        assert load[i] == pytest.approx(spring + damping, abs=0.01 * moment), joint


def test_regression_gs1_lumbar_flexion_passes_pmhs_failure_after_the_spine_peaks(gs1):
    """Where GS1's lumbar joints pass the PMHS segments' flexion failure moment (Belwadi & Yang
    2008, 140.4 N m, test_human_joints.BELWADI_YANG_FAILURE; Anderson & Pandy's curve reaches it
    at their failure angle): thorax-lumbar at 124.9 ms (19.4 deg), 26 ms after T8, L2 and L4
    peak (98.9, 87.3, 92.6 ms); lumbar-pelvis not within the run (40 N m at most, at its end).
    Up to 110 ms neither joint resists flexion with more than 15 N m (Anderson & Pandy's flat
    zone): the flexion curve's stiff part and its continuation past the failure moment
    (moment_cap, end slope [E]) shape none of the spine's excursion peaks. Past the failure
    moment the thorax-lumbar spring takes 4.5 J up to its peak, which a spine holding the failure
    moment would take in 1.8 deg more, inside its range (30.5 deg): the trunk there flexes no
    further than a PMHS's can. Before the neck's base moved to C7/T1: thorax-lumbar at 113.3 ms
    (19.5 deg, 5.5 J), lumbar-pelvis at 145.0 ms (28.5 deg, 26.4 J). Since the head's com keeps de
    Leva's head+neck com on that link (run once): thorax-lumbar at 127.7 ms (19.45 deg, 1.3 J to
    its peak), lumbar-pelvis at the run's last sample (150 ms, 28.3 deg: its fold begins). Since
    the belts are measured along their path (branch beltarcs; T8, L2 and L4 peak at 96.0, 87.3,
    93.0 ms): thorax-lumbar at 127.7 -> 118.9 ms (19.46 deg, 1.3 -> 2.9 J to its peak),
    lumbar-pelvis at 148.6 ms (28.44 deg), 52 ms after the spine peaks, in the rebound's fold.
    Since the tangent pieces pull at their tangent points (branch tangentcouple; main 09f90cd ->
    the branch): thorax-lumbar at 119.7 -> 125.2 ms (19.47 -> 19.45 deg, 2.77 -> 2.44 J to its
    peak), lumbar-pelvis at 148.9 -> 150.0 ms (the run's last sample). Since the lumbar-pelvis joint (L3/L4) stands two levels above Reed et al.'s L5/S1, 30.7 mm higher (branch lumbarheight; main 97e82ed -> the branch): thorax-lumbar at
    125.2 -> 140.9 ms (19.45 -> 19.49 deg, 2.44 -> 6.90 J to its peak; T8, L2 and L4 peak at
    100.3, 86.0, 88.1 ms); lumbar-pelvis not within the run (4.8 N m at most, at its end).
    Since the belt's held abdomen wrap is placed from the thorax run's tangent point and the fit's sweeps settle (branch gravitybelt2, main 93f7a72 -> the branch): thorax-lumbar at 140.9 -> 130.1 ms
    (19.49 -> 19.46 deg, 6.90 -> 4.42 J to its peak; T8, L2 and L4 peak at 100.7, 80.2, 80.0 ms);
    lumbar-pelvis 4.8 -> 21.8 N m at most, at the run's end (0.16 of the failure moment).
    The three merged (branch gs1merge, main 62a71a8 -> merged): thorax-lumbar at 130.3 ms (19.46
    deg, 4.51 J to its peak); lumbar-pelvis 19.2 N m at most, at the run's end (0.14 of the failure
    moment, over the tenth test_reference_gs1_lumbar_pelvis_flexion_far_below_pmhs_failure asks: a
    strict xfail). Since the belt's flow slips or sticks by the excess the implicit step foresees
    (branch bistable, main 9e4b466 -> the branch): thorax-lumbar at 130.8 -> 131.3 ms (19.45 ->
    19.48 deg, 4.75 -> 5.36 J to its peak); lumbar-pelvis 20.7 -> 20.3 N m. Since the condyles below the tragion (the neck link 142.3 -> 114.8 mm), the head's com 26.4 mm ahead of them and the upper neck's damping 1.1 -> 2.0 (branch chancey; run once, not fitted):
    thorax-lumbar at 130.3 -> 126.2 ms, 2.0 J to its peak; lumbar-pelvis 20.3 -> 180.9 N m at
    most: past the failure moment too (1.29 of it), late (under 15 N m to 110 ms)."""
    res, model, hist = gs1["results"], gs1["model"], gs1["history"]
    t, out = res.t, res.outputs
    failure = BELWADI_YANG_FAILURE["flexion"][0]
    spine_peaks = [t[int(np.argmax(hist[f"{p}_x_mm"]))] for p in ("t8", "l2", "l4")]
    for joint in ("thorax_lumbar", "lumbar_pelvis"):
        m = -np.asarray(out[f"{joint}_y.load"])
        assert m[t <= 0.110].max() < 15.0, joint
    m = -np.asarray(out["lumbar_pelvis_y.load"])
    assert m.max() == pytest.approx(180.9, abs=2.0)      # its bound: the next test
    e = model.joint_resistance_names.index("thorax_lumbar_y")
    x, m = np.asarray(out["thorax_lumbar_y.deflection"]), -np.asarray(out["thorax_lumbar_y.load"])
    i = int(np.argmax(m > failure))
    assert 1e3 * t[i] == pytest.approx(126.2, abs=2.0)
    assert np.degrees(x[i]) == pytest.approx(19.46, abs=0.5)
    assert t[i] > max(spine_peaks) + 0.015
    k = int(np.argmax(m))
    w = float(np.sum(0.5 * (m[i + 1:k + 1] + m[i:k]) * np.diff(x[i:k + 1])))
    assert w == pytest.approx(2.0, rel=0.15)
    assert x[i] + w / failure < model.joint_resistance.upper[e]


LUMBAR_PELVIS_REASON = (
    "180.9 N m at the run's last sample (150 ms), the joint at 28.8 deg on Anderson & Pandy's "
    "steep part, since the condyles below the tragion (branch chancey; 19.2 N m, 24.8 deg at "
    "150 ms before, since gravitybelt2 and gs1merge): the joint folds forward in the rebound, "
    "the pelvis turning back about the hips 2.5 times as far as the PMHS's over 120-150 ms "
    "while the upper torso pitches on forward, the belts under 1 kN and the knee supports "
    "unloaded, to 610 N m "
    "at 153.5 ms run on (test_regression_gs1_lumbar_fold_in_the_rebound, "
    "test_reference_gs1_pelvis_returns_at_the_pmhs_pace; scenarios/validation/HISTORY.md, "
    "lumbarfold)")


@pytest.mark.xfail(strict=True, reason=LUMBAR_PELVIS_REASON)
def test_reference_gs1_late_lumbar_pelvis_flexion_stays_in_the_flat_zone(gs1):
    """GS1's lumbar-pelvis joint (L3/L4) resists its late flexion with under 10 N m over the run:
    it stays in Anderson & Pandy's flat 0-25 deg (test_regression_gs1_late_lumbar_flexion_is_
    the_spring; 6.0 N m at most on main 62a71a8, its damping 3.7 of it)."""
    assert -np.asarray(gs1["results"].outputs["lumbar_pelvis_y.load"]).min() < 10.0


@pytest.mark.xfail(strict=True, reason=LUMBAR_PELVIS_REASON)
def test_reference_gs1_lumbar_pelvis_flexion_far_below_pmhs_failure(gs1):
    """GS1's lumbar-pelvis joint's flexion moment stays under a tenth of the PMHS segments'
    flexion failure moment (Belwadi & Yang 2008, 140.4 N m, test_human_joints.BELWADI_YANG_
    FAILURE) over the run: its failure is not near (test_regression_gs1_lumbar_flexion_passes_
    pmhs_failure_after_the_spine_peaks)."""
    m = -np.asarray(gs1["results"].outputs["lumbar_pelvis_y.load"])
    assert m.max() < 0.1 * BELWADI_YANG_FAILURE["flexion"][0]


@pytest.fixture(scope="module")
def gs1_rebound():
    """The GS1 case run on to 180 ms (the case ends at 150 ms), its rebound: gs1_run's dict."""
    return gs1_run({"solver.t_end": 0.18})


def test_regression_gs1_lumbar_fold_in_the_rebound(gs1_rebound):
    """Run on to 180 ms, GS1's lumbar joints fold forward in the rebound onto their flexion
    curve's end slope past moment_cap (300 N m at 20.3 and 29.6 deg; test_human_joints.py
    test_analytic_lumbar_flexion_ends_at_the_moment_cap_not_the_range), inside their ranges (30.5,
    44.5 deg: no stop): lumbar-pelvis 609.6 N m at 153.5 ms, 31.5 deg, thorax-lumbar 845.4 N m at
    157.8 ms, 22.6 deg, 4.3 and 6.0 times Belwadi & Yang's PMHS failure moment (140.4 N m). What
    folds them: the pelvis turns back about the hips from 20.9 deg of forward tilt at 120 ms to
    -4.3 at 150 ms (test_reference_gs1_pelvis_returns_at_the_pmhs_pace, its xfail) while the
    upper torso pitches on forward, with the belts slack (shoulder belt under 0.6 kN, lap belt
    under 0.6 kN at 140-160 ms) and the knee supports unloaded from 130 ms; nothing resists the
    lumbar-pelvis joint's first 25 deg (Anderson & Pandy's flat zone, 4 N m at 21 deg at 145 ms)
    and the fold ends on the end slope. Measured on main 25816b95 (scenarios/validation/HISTORY.md,
    lumbarfold; the lead's chanceytrace: 650 N m at 156.5 ms on main before chanceyship)."""
    res, model, t = gs1_rebound["results"], gs1_rebound["model"], gs1_rebound["results"].t
    out, el = res.outputs, model.joint_resistance
    failure = BELWADI_YANG_FAILURE["flexion"][0]
    for joint, moment, ms, deg, cap_deg in (("lumbar_pelvis", 609.6, 153.5, 31.5, 29.6),
                                            ("thorax_lumbar", 845.4, 157.8, 22.6, 20.3)):
        e = model.joint_resistance_names.index(f"{joint}_y")
        m = -np.asarray(out[f"{joint}_y.load"])
        x = np.degrees(np.asarray(out[f"{joint}_y.deflection"]))
        i = int(np.argmax(m))
        assert m[i] == pytest.approx(moment, rel=0.05), joint
        assert 1e3 * t[i] == pytest.approx(ms, abs=2.0), joint
        assert x[i] == pytest.approx(deg, abs=0.5), joint
        assert cap_deg < x[i] < np.degrees(el.upper[e]), joint
        assert m[i] > 4.0 * failure, joint
    tilt = gs1_pelvis_tilt_deg(gs1_rebound)
    at = {ms: int(np.argmin(abs(t - ms / 1e3))) for ms in (120, 150)}
    assert tilt[at[120]] == pytest.approx(20.9, abs=1.5)
    assert tilt[at[150]] == pytest.approx(-4.3, abs=1.5)
    late = (t >= 0.140) & (t <= 0.160)
    for belt in ("belt.d_ring-shoulder.force", "lap_belt.lap_anchor-hip_outboard.force"):
        assert np.asarray(out[belt])[late].max() < 600.0, belt
    for side in ("left", "right"):
        knee = np.asarray(out[f"{side}_knee_contact__knee_support.normal_force"])
        assert knee[t >= 0.130].max() == 0.0, side


def test_regression_gs1_t8_stops_as_the_pelvis_turns_back(gs1):
    """Why GS1's T8 stops at 151 mm (100.6 ms, under its corridor's 175.1) and goes back. Named
    test_regression_gs1_t8_stops_as_the_lumbar_segment_turns_back until branch lumbarheight (the
    figures below to its last paragraph are from then: T8 stopped at 158-164 mm at 96-99 ms)
    (scenarios/validation/HISTORY.md Stop 39, t8trace). T8 (thoracic_spine.t8_point) lies 41 mm
    above the thorax-lumbar joint on the upper torso; its forward travel relative to the sled is the sum of
    the changes of the chain's four vectors: the hip (the pelvis's origin), the pelvis's turn
    (hip -> lumbar-pelvis joint), the lumbar segment's turn (-> thorax-lumbar joint) and the upper
    torso's turn (-> T8). From 80 ms to T8's peak (98.9 ms) the lumbar segment turns back (-7.2
    mm) as the upper torso (+8.2 mm) and the pelvis (+4.5) turn forward while the hip holds
    (+0.2); from the peak to 115 ms the hip (-7.2), the pelvis (-8.2) and the lumbar segment
    (-3.8) go back and the upper torso's turn (+4.5) does not make up for them. (Before the
    neck's base moved to C7/T1: peak 161.8 mm at 96.6 ms; to it -7.2 / +7.4 / +0.4 / +2.1, after
    it hip -7.5, pelvis -8.5, lumbar -12.9, upper +8.1 mm.) Meanwhile T8 stays 51-57 mm ahead of
    L2 (the lumbar segment T10-L3 one body) where the PMHS's T8 gets from
    61 to 89 mm ahead of its L2 (Ash et al.'s corridors' mid-lines, 80 -> 110 ms): the human's
    missing excursion lies between L2 and T8. Since the belts are measured along their path
    (branch beltarcs): peak 164.3 -> 158.1 mm at 98.9 -> 96.0 ms; to it hip +0.7, pelvis +5.1,
    lumbar -7.2 -> -11.6, upper +7.9 mm; after it (to 115 ms) hip -8.2, pelvis -8.6, lumbar
    -3.8 -> -7.4, upper +5.8 mm: the same chain, the lumbar segment turning back further. Since
    the capstan angle is the belt path's turn (branch capstanpath): peak 158.15 -> 158.45 mm at
    96.0 -> 96.9 ms; to it hip +0.6, pelvis +4.8, lumbar -11.0, upper +8.1 mm; after it hip
    -8.0, pelvis -8.5, lumbar -7.1, upper +5.4 mm: the same chain. Since the tangent pieces
    pull at their tangent points (branch tangentcouple; main 09f90cd -> the branch): peak
    158.45 -> 160.7 mm at 96.9 -> 98.2 ms (sample 969 -> 982); to it hip +0.6 -> +0.5, pelvis
    +4.8, lumbar -11.0 -> -8.3, upper +8.1 -> +7.7 mm; after it (to 115 ms) hip -8.0 -> -7.2,
    pelvis -8.5 -> -8.2, lumbar -7.1 -> -5.9, upper +5.4 -> +4.6 mm: the same chain, the lumbar
    segment turning back less. Since the lumbar-pelvis joint (L3/L4) stands two levels above Reed
    et al.'s L5/S1, 30.7 mm higher (branch lumbarheight; main 97e82ed -> the branch): peak 160.7
    -> 170.0 mm at 98.2 -> 100.3 ms (sample 982 -> 1003); to it hip +0.5 -> -0.4, pelvis +4.8 ->
    +1.6, lumbar -8.3 -> +1.8, upper +7.7 -> +6.9 mm; after it (to 115 ms) hip -7.2 -> -6.6,
    pelvis -8.2 -> -9.3, lumbar -5.9 -> +0.8, upper +4.6 -> +3.1 mm: the lumbar segment, shorter
    (186 mm, was 217) on a joint 31 mm higher, no longer turns back; T8 stops as the hip and the
    pelvis go back. T8 stays 40-51 mm ahead of L2 at 80-110 ms (51-57 before; L2 now read 1.5
    of the shorter segment's six levels above the raised joint). Since passenger_seated puts the
    heels' lowest points on the floor (branch passheel, main 93f7a72 -> the branch; main's own
    run re-measured: peak 167.2 mm at 100.8 ms, T8 38.6-50.5 mm ahead of L2): peak 168.2 mm at
    101.6 ms (sample 1016); to it hip -0.4 -> -0.9, pelvis +1.6 -> -0.4, lumbar +1.8 -> +4.7,
    upper +6.9 -> +7.1 mm; after it (to 115 ms) hip -6.6 -> -6.1, pelvis -9.3 -> -8.6, lumbar
    +0.8 -> +1.2, upper +3.1 mm: T8 still stops as the hip and the pelvis go back; T8 38.0-52.1 mm
    ahead of L2 (the bounds below moved 0.5 mm down with it, their width kept). Since the belt's held abdomen wrap is placed from the thorax run's tangent point and the fit's sweeps settle (branch gravitybelt2, main 93f7a72 -> the branch): T8 peaks
    at 150.6 mm (sample 1003 -> 1007); to it hip -0.4 -> -2.6, pelvis +1.6 -> -3.9, lumbar +1.8 ->
    +11.6, upper +6.9 -> +5.5 mm; after it hip -6.6 -> -5.0, pelvis -9.3 -> -6.5, lumbar +0.8 ->
    -5.7, upper +3.1 -> +4.7 mm; T8 30-46 mm ahead of L2 at 80-110 ms.
    The three merged (branch gs1merge, main 62a71a8 -> merged): T8 peaks at 150.9 mm at 100.6 ms
    (sample 1016 -> 1006); to it hip -0.9 -> -2.8, pelvis -0.4 -> -4.6, lumbar +4.7 -> +13.2, upper
    +7.1 -> +5.3 mm; after it hip -6.1 -> -5.2, pelvis -8.6 -> -6.5, lumbar +1.2 -> -5.6, upper
    +3.1 -> +4.7 mm: T8 still stops as the hip and the pelvis go back; T8 38.0-52.1 -> 29.4-46.5 mm
    ahead of L2 at 80-110 ms. Its span (17.1 mm) no longer fits the 15 mm band main held
    (37.5-52.5), so its least and most are held as measured, each to 0.5 mm (main's margins were
    0.5 and 0.4 mm); gravitybelt2 alone had widened the band to 28-48."""
    from occupant.human.thoracic_spine import t8_point

    res, model, t = gs1["results"], gs1["model"], gs1["t"]
    R_base, p_base = res.base_poses[:, :3, :3], res.base_poses[:, :3, 3]

    def pose(body):                  # the body's rotation and origin in the sled's frame
        P = res.body_poses[:, model.body(body)]
        return (np.einsum("nji,njk->nik", R_base, P[:, :3, :3]),
                np.einsum("nji,nj->ni", R_base, P[:, :3, 3] - p_base))
    (Rp, hip), (Rl, lumbar), (Ru, upper) = pose("pelvis"), pose("lumbar"), pose("upper_torso")
    body, t8 = t8_point(model)
    assert body == "upper_torso"
    joints = model.source.joints
    chain = {"hip": hip, "pelvis": Rp @ joints["lumbar_pelvis"].placement.position,
             "lumbar": Rl @ joints["thorax_lumbar"].placement.position, "upper": Ru @ t8}
    assert np.allclose(lumbar, hip + chain["pelvis"]) and np.allclose(upper, lumbar + chain["lumbar"])
    x = {k: 1e3 * (v[:, 0] - v[0, 0]) for k, v in chain.items()}
    assert np.allclose(sum(x.values()), gs1["history"]["t8_x_mm"], atol=1e-6)
    i80, peak, i115 = (int(np.argmin(abs(t - s))) for s in (0.080, 0.0984, 0.115))
    assert int(np.argmax(gs1["history"]["t8_x_mm"])) == pytest.approx(peak, abs=5)   # 0.1 ms samples
    up_to_peak = {k: v[peak] - v[i80] for k, v in x.items()}
    after = {k: v[i115] - v[peak] for k, v in x.items()}
    # since the condyles below the tragion and the head's com ahead of them (branch chancey):
    # T8's peak 100.6 -> 98.4 ms; to it hip -2.8 -> -1.9, pelvis -4.6 -> -3.0, lumbar 13.2 ->
    # 13.1, upper 5.3 -> 3.7 mm; after it hip -5.2 -> -5.3, pelvis -6.5 -> -6.3, lumbar -5.6 ->
    # -10.6, upper 4.7 -> 6.2 mm; T8 ahead of L2 29.4-46.5 -> 30.0-44.5 mm
    assert up_to_peak == pytest.approx({"hip": -1.9, "pelvis": -3.0, "lumbar": 13.1, "upper": 3.7},
                                       abs=1.5)
    assert after == pytest.approx({"hip": -5.3, "pelvis": -6.3, "lumbar": -10.6, "upper": 6.2},
                                  abs=1.5)
    assert sum(after.values()) < -10.0
    w = (t >= 0.080) & (t <= 0.110)
    ahead = (gs1["history"]["t8_x_mm"] - gs1["history"]["l2_x_mm"])[w]
    assert ahead.min() == pytest.approx(30.0, abs=0.5) and ahead.max() == pytest.approx(44.5, abs=0.5)
    ash = _ash_corridors()
    pmhs = [0.5 * (ash["t8Xl"][ms] + ash["t8Xu"][ms] - ash["l2Xl"][ms] - ash["l2Xu"][ms]) for ms in (80, 110)]
    assert pmhs[0] < 65.0 and pmhs[1] > 85.0

# The thoracic kyphosis T1-T12, adults with a cervical lordosis: 34 +- 8 deg (160 subjects; "The
# influence of sagittal cervical profile, gender and age on the thoracic kyphosis", abstract as
# stored at litmetric.com) [S abstract]: the arc of the column between T12/L1 and C7/T1
GS1_KYPHOSIS_DEG = 34.0


def _spine_column_ahead_of_the_trunk_axis(model):
    """(x of the vertebral column at T8's level ahead of the trunk's axis, m, upper torso frame,
    standing; the same with the kyphosis's arc): on the chord from Reed's L5/S1
    (builder.l5s1_from_hips) to the lower neck joint (Reed's C7/T1), and GS1_KYPHOSIS_DEG's arc
    between T12/L1 (three of the lumbar segment's six levels above its base) and C7/T1 taken
    off it, bulging back [D]. The trunk joints stand on the axis (x = 0); at zero joint angles
    the segment frames are parallel."""
    from occupant.human.builder import l5s1_from_hips, proportions
    from occupant.human.thoracic_spine import t8_point

    src = model.source
    stature = src.header["stature"]
    lp = np.asarray(src.joints["lumbar_pelvis"].placement.position)
    tl = np.asarray(src.joints["thorax_lumbar"].placement.position)
    base = lp + tl                                           # the upper torso's origin, pelvis frame
    a = l5s1_from_hips(stature, proportions())[[0, 2]]
    b = (base + np.asarray(src.joints["lower_neck"].placement.position))[[0, 2]]
    on_chord = lambda z: a[0] + (b[0] - a[0]) * (z - a[1]) / (b[1] - a[1])
    body, t8 = t8_point(model)
    assert body == "upper_torso"
    z8 = base[2] + t8[2]
    x8 = on_chord(z8) - base[0]
    c = np.array([on_chord(lp[2] + tl[2] / 2.0), lp[2] + tl[2] / 2.0])     # T12/L1 on the chord
    chord = b - c
    half = np.linalg.norm(chord) / 2.0
    radius = half / np.sin(np.radians(GS1_KYPHOSIS_DEG) / 2.0)
    u = np.dot(np.array([on_chord(z8), z8]) - (b + c) / 2.0, chord) / np.linalg.norm(chord)
    bulge = np.sqrt(radius ** 2 - u ** 2) - np.sqrt(radius ** 2 - half ** 2)
    return x8, x8 - bulge * chord[1] / np.linalg.norm(chord)


def test_regression_gs1_rises_lag_with_the_pelvis_not_where_the_spine_is_read(gs1):
    """Where T1 and T8 are read does not make their rises (scenarios/validation/HISTORY.md
    Stop 42, 'spinedepth'). T8 is read on the trunk's axis, where the builder puts the trunk joints; the
    vertebral column derived from Reed et al. 1999's L5/S1 and C7/T1 (both joint centres) runs
    48.4 mm ahead of the axis at T8's level, 24.5 mm with a 34 deg kyphosis's arc: read anywhere
    from the axis to the chord, T8 rises 14.3-22.8 mm (18.4 on the arc; its corridor 60.4-90.6),
    the points ahead of the axis less. T1, read at the C7/T1 joint (Reed's place), rises 18.0 mm, and 34.1 at the
    cervicale (C7's spinous process, the skin behind it; corridor 42.0-63.7). Only points at the
    back's surface (the thorax ellipsoid's back at T8's level, 91 mm behind the axis) rise into
    the corridor (68.5 mm), a place no source gives for the PMHS's T8 (Ash et al.'s point on the
    bone not read). What lags is the pelvis: over the H-point T8 rises 27-37 mm at 80-110 ms as
    the PMHS's T8 over their pelvis point (26-29 mm, Ash et al.'s corridors' mid-lines), while
    the H-point sinks 16-21 mm where the PMHS's pelvis point rises 34-46 mm. Since the lumbar-pelvis joint (L3/L4) stands two levels above Reed et al.'s L5/S1, 30.7 mm higher (branch lumbarheight; main 97e82ed -> the branch): the
    column with the arc 24.5 -> 25.9 mm ahead of the axis at T8 (T12/L1, three of the lumbar
    segment's six levels above its base, 15.3 mm higher); T8 on the axis rises 22.8 -> 22.7 mm,
    T1 at C7/T1 18.1 -> 19.4 mm."""
    from occupant.human.thoracic_spine import t8_point

    res, model, t = gs1["results"], gs1["model"], gs1["t"]
    sled = res.base_poses[:, :3, 3]

    def rise(body, point):
        P = res.body_poses[:, model.body(body)]
        z = (P[:, :3, :3] @ np.asarray(point, float) + P[:, :3, 3] - sled)[:, 2]
        return 1e3 * (z - z[0])

    chord, column = _spine_column_ahead_of_the_trunk_axis(model)
    assert 1e3 * chord == pytest.approx(48.4, abs=0.5) and 1e3 * column == pytest.approx(25.9, abs=0.5)
    _, t8 = t8_point(model)
    lo8 = gs1["corridor"]["t8_z_rise_mm"][0]
    band = [rise("upper_torso", t8 + [x, 0.0, 0.0]).max() for x in np.linspace(0.0, chord, 5)]
    assert max(band) == pytest.approx(gs1["figures"]["t8_z_rise_mm"], abs=1e-9)   # on the axis
    assert np.all(np.diff(band) < 0.0) and max(band) < lo8 - 30.0
    c7t1 = np.asarray(model.source.joints["lower_neck"].placement.position)
    cervicale = np.asarray(model.source.markers["cervicale"].position)
    t1 = [rise("upper_torso", p).max() for p in (c7t1, cervicale)]
    assert t1[0] == pytest.approx(gs1["figures"]["t1_z_rise_mm"], abs=1e-9)
    assert t1[1] < gs1["corridor"]["t1_z_rise_mm"][0] - 5.0
    back = rise("upper_torso", t8 + [-0.0913, 0.0, 0.0]).max()
    assert lo8 < back < gs1["corridor"]["t8_z_rise_mm"][1]
    ash = _ash_corridors()
    hist = gs1["history"]
    h_point = rise("pelvis", np.zeros(3))   # the pelvis figure is read at the sacral canal since gs1rise
    for ms in (80, 90, 100, 110):
        i = int(np.argmin(abs(t - ms / 1e3)))
        pmhs_t8, pmhs_pelvis = (-0.5 * (ash[f"{k}l"][ms] + ash[f"{k}u"][ms]) for k in ("t8Z", "pZ"))
        over = hist["t8_z_mm"][i] - h_point[i]
        assert 25.0 < pmhs_t8 - pmhs_pelvis < 30.0 and 20.0 < over < 40.0
        assert abs(over - (pmhs_t8 - pmhs_pelvis)) < 12.0
        assert h_point[i] < -15.0 and pmhs_pelvis > 30.0


def _gs1_pelvis_moments_about_the_hips(gs1, pelvis_moments):
    """pelvis_moments (tests/conftest.py) of the GS1 run, its seat's and lap belt's names:
    (moments, the buttock's sliding up the pan, times)."""
    M, slides, t = pelvis_moments(
        gs1["model"], gs1["results"],
        (("buttock", "seat_cushion"), ("pelvis_flesh", "seat_cushion"), ("pelvis_flesh", "seat_back")),
        "lap_belt", ("lap_anchor", "hip_outboard", "lap", "hip_inboard", "buckle"))
    return M, slides["buttock__seat_cushion"], t


def test_regression_gs1_what_tilts_the_pelvis(gs1, pelvis_moments):
    """The pelvis's moment balance about the hips (_gs1_pelvis_moments_about_the_hips) closes:
    its terms, each computed on its own, sum to zero within a millionth of the largest at every
    sample (1e-11 of 233 N m measured; leave out the lap belt and it is 37 N m off over 40-80 ms).
    Their means over 40-80 ms as measured (since the buttock is concentric with the ischium's
    underside, body_proportions.toml; before it, branch pelvisreaction, in brackets): the
    lumbar-pelvis joint's force, the upper body, not yet held by the belts, thrusting forward on
    the pelvis 0.13-0.15 m above the hips (+159 N m; +151), the pelvis's own mass decelerating
    with its hips, its centre of mass 57 mm above them (+70; +70), and the seat pan's normal force
    (+40; +67: the pan leans back 15 deg and bears behind the hips, its lever 14-17 mm, 15-41 mm
    before) tilt it forward; against them the pan's friction (-179; -152: as the pelvis turns
    about the held hips the buttock slides back on the pan, 0.7-1.0 m/s at 50-60 ms), the lumbar
    joint's extension moment (-53; -96), the lap belt (-37; -36) and the hips' reactions (-3,
    under 5 at any time: Anderson & Pandy's passive curve, -4 read alone; Riener &
    Edrich's knee-dependent one, the knee at 73 deg, would give 10 per hip at the 104 deg reached,
    and four times the hips' curve, measured, moved the tilt 8.2 -> 8.0 deg at 40 ms and 29.9 ->
    29.4 at most). The seat back does not reach the pelvis (0). Since the neck's base at C7/T1:
    joint force +151, deceleration +71, normal +43, friction -192, the lumbar joint's moment
    -53 -> -31 (its extension 7.0 -> 6.2 deg at thorax-lumbar), lap belt -37, hips -3. Since the
    belts are measured along their path and their moment taken along the segments' path
    directions (branch beltarcs; tests/conftest.py): joint force +159, deceleration +70, normal
    +46, friction -205, the lumbar joint's moment -18, lap belt -37 -> -49 (its peak 0.95 ->
    1.06 kN). Since the seat back is at the human's back (36 mm further forward,
    vehicles/gs1_sled_buck.toml; branch gs1rest) it reaches the pelvis in the rebound, from 142
    ms (33 N m at 150 ms, tilting it forward); not before (0), the 40-80 ms means unchanged.
    Since the lumbar-pelvis joint (L3/L4) stands two levels above Reed et al.'s L5/S1, 30.7 mm
    higher (branch lumbarheight; main 97e82ed -> the branch, before gs1rest's merge): joint force
    +159 -> +198 (its lever, the joint's height above the hips, 147 -> 177 mm), deceleration +70
    -> +71, normal +46 -> +44, friction -205 -> -198, the lumbar joint's moment -18 -> -66
    (lumbar-pelvis extension 9.0 -> 11.4 deg at most), lap belt -49 -> -48. On the merge with main c87f8e8 (gs1rest: the seat back at the human's back): the seat
    back's moment at most 33 -> 19 N m (its 40-80 ms means 0; joint force +200, the lumbar
    joint's moment -70). Since the belt's held abdomen wrap is placed from the thorax run's tangent point and the fit's sweeps settle (branch gravitybelt2, main 93f7a72 -> the branch): joint force +198 -> +219,
    deceleration +71 -> +70, friction -198 -> -210, normal +44 -> +48, the lumbar joint's moment
    -66 -> -112, lap belt -48 -> -33 (1.17 -> 0.82 kN).
    The three merged (branch gs1merge, main 62a71a8 -> merged): joint force +198 -> +214,
    deceleration +71 -> +70, friction -198 -> -206, normal +44 -> +47, the lumbar joint's moment
    -66 -> -109, lap belt -48 -> -33 (1.21 -> 0.83 kN); the seat back's moment at most 19 -> 17 N
    m."""
    M, slide, t = _gs1_pelvis_moments_about_the_hips(gs1, pelvis_moments)
    largest = max(np.abs(v).max() for v in M.values())
    assert np.abs(sum(M.values())).max() < 1e-6 * largest
    w = (t >= 0.04) & (t <= 0.08)
    mean = {k: float(np.mean(v[w])) for k, v in M.items()}
    assert mean["lumbar joint force"] == pytest.approx(214.0, abs=25.0)
    assert mean["hips' deceleration"] == pytest.approx(70.0, abs=15.0)
    assert mean["seat friction"] == pytest.approx(-206.0, abs=25.0)
    assert mean["seat normal"] == pytest.approx(47.0, abs=15.0)
    assert mean["lumbar joint moment"] == pytest.approx(-109.0, abs=20.0)
    assert mean["lap belt"] == pytest.approx(-33.0, abs=10.0)
    assert np.abs(M["hips"][w]).max() < 10.0
    assert np.abs(M["seat back"][t < 0.142]).max() == 0.0
    assert M["seat back"].max() == pytest.approx(17.1, abs=5.0)
    assert slide[(t >= 0.05) & (t <= 0.06)].max() < -0.5


def test_regression_gs1_what_tilts_the_pelvis_by_40_ms(gs1, pelvis_moments):
    """The pelvis's tilt split by source: each moment about the hips (but the pelvis's own turn)
    integrated twice over the pelvis's moment of inertia about the hip axis, I_H (0.085 kg m^2),
    is that source's share of the tilt, and the shares add up to the tilt: within 0.01 deg to 60
    ms (0.002 measured; 0.11 to 90 ms and 3.4 by 150 ms, as the pelvis's turn leaves the sled's
    sagittal plane, which the moments about its y axis alone do not hold). As measured by 40 ms,
    when the human's pelvis has tilted 7.1 deg and the PMHS's at most 4.9 (since the buttock is
    concentric with the ischium's underside, body_proportions.toml; before it, branch
    pelvisreaction, 8.2 deg, in brackets): the pelvis's own mass decelerating with its hips +8.9
    deg (+8.9), the seat pan +2.8 (+7.0: its normal force +2.6 (+4.1), its friction +0.2 (+2.9,
    while the pelvis slid forward on it at 10-25 ms; the buttock now starts 2.2 mm above the pan,
    0.7 before)), against the lap belt -4.1 (-4.5), gravity -1.2, the lumbar joint's moment -0.6
    (-1.6) and the hips -0.5; the upper body's thrust through the lumbar joint +1.9 (+0.1; at 90
    ms +157 of 27.6).
    The three merged (branch gs1merge, main 62a71a8 -> merged): at 40 ms the seat 2.8 -> 2.1 deg,
    the lap belt -4.1 -> -4.9 deg, the lumbar joint's force 1.9 -> 2.8 deg, the hips' deceleration
    8.9 deg (main 62a71a8's figures as this test held them)."""
    from scipy.integrate import cumulative_trapezoid

    M, _, t = _gs1_pelvis_moments_about_the_hips(gs1, pelvis_moments)
    model, body = gs1["model"], gs1["model"].body("pelvis")
    m, com = model.body_mass[body], model.body_com[body]
    I_H = model.body_inertia[body][1, 1] + m * (com[0] ** 2 + com[2] ** 2)

    def share(moment):               # deg
        return np.degrees(cumulative_trapezoid(cumulative_trapezoid(moment, t, initial=0.0),
                                               t, initial=0.0) / I_H)
    shares = {k: share(v) for k, v in M.items() if k != "pelvis turn"}
    tilt, k40 = gs1_pelvis_tilt_deg(gs1), np.argmin(abs(t - 0.04))
    upto = t <= 0.06
    assert np.abs(sum(shares.values())[upto] - tilt[upto]).max() < 0.01
    at40 = {k: float(v[k40]) for k, v in shares.items()}
    assert at40["hips' deceleration"] == pytest.approx(8.9, abs=1.0)
    assert at40["seat normal"] + at40["seat friction"] == pytest.approx(2.1, abs=1.0)
    assert at40["lap belt"] == pytest.approx(-4.9, abs=1.0)
    assert at40["lumbar joint force"] == pytest.approx(2.8, abs=1.0)


def _pmhs_l4_turn_about_the_pelvis_point(last_ms=110):
    """The GS1 PMHS's L4 relative to their pelvis point (Ash et al.'s means,
    data/gs1_ash_2012_pelvis_l4_means.csv, z turned up) at 20-``last_ms`` ms in 5 ms steps (the
    means end at 150 ms), fitted as one vector v (x, z mm, its start) turned by an angle a(t)
    about y (forward positive), v's length fixed at ``length`` mm (the data fix only the arc,
    length times angle): (v, {ms: angle deg}, rms residual mm)."""
    from scipy.optimize import least_squares

    data = np.loadtxt(_gs1_data("gs1_ash_2012_pelvis_l4_means.csv"), delimiter=",", comments="#")
    t = data[:, 0]
    keep = (t >= 20) & (t <= last_ms) & (t % 5 == 0)
    dx, dz = (data[keep, 3] - data[keep, 1]), -(data[keep, 4] - data[keep, 2])

    def turned(p, length):
        vx, vz = length * np.sin(p[0]), length * np.cos(p[0])
        a = p[1:]
        return np.r_[vx * np.cos(a) + vz * np.sin(a) - vx - dx, -vx * np.sin(a) + vz * np.cos(a) - vz - dz]

    def fit(length):
        best = min((least_squares(turned, np.r_[b, np.zeros(keep.sum())], args=(length,))
                    for b in (-0.5, 0.0, 0.5)), key=lambda r: r.cost)
        v = length * np.array([np.sin(best.x[0]), np.cos(best.x[0])])
        angle = dict(zip(t[keep].astype(int), np.degrees(best.x[1:])))
        return v, angle, float(np.sqrt(np.mean(best.fun ** 2)))
    return fit


def test_reference_gs1_pmhs_l4_turns_with_the_pelvis():
    """Ash et al.'s pelvis and L4 channels hold no angle (nor does the SAFER folder, nor its SAFER
    HBM output): derived [D], the PMHS's L4 moves about their pelvis point as one vector turning
    forward, 1.9-2.2 mm rms for any length 100-200 mm, the vector within 10 deg of upright: the
    pelvis with its lower lumbar spine turning forward by an arc of about 9 mm at 40 ms and 48 mm
    at 90 ms, 4.9 and 27.4 deg for a 100 mm vector, 3.7 and 21.0 for 130 mm, 2.3 and 13.5 for
    200 mm (the human's L4 lies 0.13 m above its hips; where the PMHS's pelvis point is is not
    stored)."""
    fit = _pmhs_l4_turn_about_the_pelvis_point()
    for length, at40, at90 in ((100.0, 4.9, 27.4), (130.0, 3.7, 21.0), (200.0, 2.3, 13.5)):
        v, angle, rms = fit(length)
        assert rms < 2.5
        assert abs(np.degrees(np.arctan2(v[0], v[1]))) < 10.0
        assert angle[40] == pytest.approx(at40, abs=0.3) and angle[90] == pytest.approx(at90, abs=0.5)


@pytest.mark.xfail(strict=True, reason=(
    "the human's pelvis tilts forward 7.1 deg by 40 ms and 27.6 at 90 ms (27.7 at most, 85 ms) "
    "where the PMHS's pelvis and lower lumbar spine turn at most 4.9 and 27.4 deg (their L4 about "
    "their pelvis point, for any distance between them of 100 mm or more: "
    "test_reference_gs1_pmhs_l4_turns_with_the_pelvis): early, not far. Measured, the tilt split "
    "by source (test_regression_gs1_what_tilts_the_pelvis_by_40_ms; the balance about the hips "
    "closes, the lumbar joint's reaction read from the inverse dynamics of the body above it): by "
    "40 ms the pelvis's own mass decelerating with its hips (its centre of mass 57 mm above them, "
    "de Leva's lower trunk) gives +8.9 deg and the seat pan +2.8 (normal force +2.6, friction "
    "+0.2), against the lap belt -4.1, gravity -1.2, the lumbar extension -0.6 and the hips -0.5; "
    "the upper body's thrust through the lumbar joint +1.9. Before the buttock was concentric "
    "with the ischium's underside (body_proportions.toml: two published pelvis meshes; placed [E] "
    "53 mm below the hips before) 8.2 and 29.8 deg, the pan +7.0 (+4.1 and +2.9): the sourced "
    "buttock keeps the pan's load line 14-17 mm behind the hips as the pelvis tilts (15-41 mm "
    "before), which takes 2-3 deg off by 90 ms; by 40 ms its gain is mostly its start 2.2 mm "
    "above the pan (0.7 before; with the start kept at 0.7 mm, 8.1 deg at 40 ms, 26.9 at 90: "
    "scenarios/validation/HISTORY.md, GS1 'The buttock on the ischium'). Not the hips' curve (four "
    "times it moved the tilt 8.2 -> 8.0 deg at 40 ms), nor (HISTORY.md GS1 'The pelvis') the seat's "
    "friction, the knee supports' angle or stiffness, the seated lumbar's flexion; the shares are "
    "this run's, not what it does without one (the pelvis's centre of mass put at the hips kept "
    "8.4 deg by 40 ms, HISTORY.md GS1 'The pelvis')"))
def test_reference_gs1_pelvis_tilt_keeps_the_pmhs_pace(gs1):
    """The human's pelvis tilts forward (gs1_pelvis_tilt_deg) no more by 40 and 90 ms than the
    PMHS's pelvis and lower lumbar spine turn for the shortest distance considered between their
    L4 and pelvis point, 100 mm (the largest PMHS angles; the human's L4 is 0.13 m above its hips)."""
    _, angle, _ = _pmhs_l4_turn_about_the_pelvis_point()(100.0)
    t, tilt = gs1["t"], gs1_pelvis_tilt_deg(gs1)
    for ms in (40, 90):
        assert tilt[np.argmin(abs(t - ms / 1e3))] <= angle[ms], ms


@pytest.mark.xfail(strict=True, reason=(
    "in the rebound the human's pelvis turns back 25.2 deg in 30 ms (its tilt 20.9 deg at 120 ms, "
    "14.2 at 130, 4.3 at 140, -4.3 at 150; 15 rad/s) where the PMHS's pelvis and lower lumbar "
    "spine turn back 10.0 deg in the same 30 ms (23.0, 18.6, 14.9, 13.0 deg for their L4 130 mm "
    "from their pelvis point): the human's lower trunk is thrown back, its L2 38-47 mm and L4 "
    "24-36 mm behind the PMHS corridors' lower bounds at 150-160 ms, while its upper torso "
    "pitches on forward, which "
    "folds the lumbar-pelvis joint onto its flexion curve's end slope (test_regression_gs1_lumbar_"
    "fold_in_the_rebound). About the hips at 120-130 ms the lumbar joint's extension moment (-103 "
    "N m) and the trunk's thrust back on the pelvis's top (-82 N m) turn it, the seat's friction "
    "(+92) holds it; the lumbar extension's elasticity is not the driver (90 % of each cycle's "
    "work dissipated there, measured: the same turn 5 ms later, the fold 628 N m); 20 N m s/rad of "
    "lumbar damping [unsourced] keeps the tilt at 6-9 deg (scenarios/validation/HISTORY.md, "
    "lumbarfold)"))
def test_reference_gs1_pelvis_returns_at_the_pmhs_pace(gs1):
    """In the rebound the human's pelvis tilt (gs1_pelvis_tilt_deg) stays no smaller at 130, 140
    and 150 ms than the PMHS's pelvis and lower lumbar spine's turn for 130 mm between their L4
    and pelvis point (the human's L4 lies 0.13 m above its hips), fitted to 150 ms (2.0 mm rms):
    the pelvis does not turn back faster than the PMHS's."""
    _, angle, rms = _pmhs_l4_turn_about_the_pelvis_point(150)(130.0)
    assert rms < 2.5
    t, tilt = gs1["t"], gs1_pelvis_tilt_deg(gs1)
    for ms in (130, 140, 150):
        assert tilt[np.argmin(abs(t - ms / 1e3))] >= angle[ms], ms


# The band of the lumbar extension wall's rattle: the two lumbar joints took the load in turn every
# 11 ms (TL peaks at 59, 70, 81 ms, LP at 65, 76, 86 ms), 90-100 Hz; the pelvis on one wall, about
# the held hips (0.085 kg m^2 about them), alone rings at sqrt(16.2 kN m/rad / I) = 69 Hz [D]
RATTLE_BAND_HZ = (60.0, 160.0)
# Bound [E] on the upper torso's pitch acceleration in that band (rms over 55-85 ms, CFC 180), a
# third of the wall's (3543 rad/s^2; 402 since): at T1, 0.244 m above T12/L1, 1000 rad/s^2 is 25 g
UPPER_TORSO_RATTLE_RMS = 1000.0     # rad/s^2 [E]


def test_reference_gs1_upper_torso_does_not_rattle_on_the_lumbar_spine(gs1):
    """The upper torso (T12-T1) does not pitch to and fro at the rate at which the two lumbar
    joints took the load in turn: its pitch acceleration relative to the sled (CFC 180) carries
    under UPPER_TORSO_RATTLE_RMS in RATTLE_BAND_HZ over 55-85 ms. With Anderson & Pandy's lumbar
    extension (free for 11 deg a joint, then its end slope, 16.2 kN m/rad, with 0.1 N m s/rad)
    it carried 3543 rad/s^2 (+-5600-6100 at CFC 180, the same at half the step), the
    thorax-lumbar joint's moment in phase with it (correlation 0.99) and the lumbar-pelvis
    joint's against it (-0.98), T1 100.7 g; with the PMHS lumbar spine's extension
    (Demetropoulos et al. 1998) 402 rad/s^2, T1 64.1 g. Not a fix found then (measured):
    the lumbar joints' hysteresis as the neck's (31 % of each loading cycle, Voo et al. 1998),
    2929 rad/s^2 and 93.9 g."""
    from scipy.signal import butter, filtfilt

    from occupant.injury.filters import cfc_filter

    res, model, t = gs1["results"], gs1["model"], gs1["t"]
    R = np.einsum("nji,njk->nik", res.base_poses[:, :3, :3],
                  res.body_poses[:, model.body("upper_torso"), :3, :3])
    pitch = np.unwrap(np.arctan2(R[:, 0, 2], R[:, 2, 2]))
    dt = float(t[1] - t[0])
    alpha = cfc_filter(np.gradient(np.gradient(pitch, dt), dt), dt, 180)
    b, a = butter(2, [f * 2.0 * dt for f in RATTLE_BAND_HZ], btype="band")
    window = (t >= 0.055) & (t <= 0.085)
    rattle = filtfilt(b, a, alpha)[window]
    assert np.sqrt(np.mean(rattle ** 2)) < UPPER_TORSO_RATTLE_RMS


# How far GS1's spine decelerations may move with the reading (each bone's axes or the sled's,
# CFC 180 or 60, the sensor on the vertebral body or a mount behind it), none stated by the
# corridors' files: measured at most 1.06 g (T1 in the sled's axes), 1.5 g allowed [E]
SPINE_READING_SPREAD_G = 1.5
MOUNT_BEHIND_M = (0.03, 0.06, 0.09)   # a mount plate on the posterior elements [E: not stated for GS1]


def _sled_x(model, res, channels, name):
    """The x (forward) component in the sled's axes of the spine accelerometer ``name``'s three
    J211 channels (each bone's x forward, y right, z down)."""
    body = {"t1": "upper_torso", "t8": "upper_torso", "l2": "lumbar"}[name]
    a = np.stack([next(c.values for c in channels if c.name == f"{name} acceleration {axis}")
                  for axis in "XYZ"], axis=1) * np.array([1.0, -1.0, -1.0])     # J211 -> body axes
    R = np.einsum("nji,njk->nik", res.base_poses[:, :3, :3], res.body_poses[:, model.body(body), :3, :3])
    return np.einsum("nij,nj->ni", R, a)[:, 0]


@pytest.mark.xfail(strict=True, reason=(
    "since the condyles below the tragion and the head's com 26.4 mm ahead of them (branch "
    "chancey, taken by chanceyship; measured, not traced): T1's peak deceleration, 42.8 g as "
    "shipped, reads 2.8 and 4.8 g off in the other readings (the sled's axes at CFC 180, CFC 60), "
    "over SPINE_READING_SPREAD_G; T8 and L2 within it"))
def test_regression_gs1_spine_decelerations_do_not_turn_on_the_reading(gs1):
    """The files of Shaw et al.'s T1 / T8 / L2 x acceleration corridors state no axes, filter
    class or mount: the human's peaks (each bone's J211 axes, CFC 180, at the vertebral body's
    level, 39.3 / 28.2 / 32.6 g) read in the sled's axes (40.3 / 27.9 / 31.9), at CFC 60 (39.1 /
    28.2 / 31.9) or with T1 30-90 mm behind the lower neck joint (39.2-39.0) move under
    SPINE_READING_SPREAD_G: no reading of these brings them to the corridors' 8.35-22.09 /
    19.97-23.60 / 18.65-24.92 g (scenarios/validation/HISTORY.md, gs1decel)."""
    from occupant.human.validation import spine_channels
    from occupant.sensors import Accelerometer, evaluate

    res, model, t = gs1["results"], gs1["model"], gs1["t"]
    channels = spine_channels(model, res)
    for name in ("t1", "t8", "l2"):
        shipped = gs1["figures"][f"{name}_x_deceleration_g"]
        local = next(c.values for c in channels if c.name == f"{name} acceleration X")
        assert peak_deceleration_g(t, local)[0] == pytest.approx(shipped)
        for ax, cfc in ((_sled_x(model, res, channels, name), SPINE_ACCEL_CFC), (local, 60)):
            assert abs(peak_deceleration_g(t, ax, cfc)[0] - shipped) < SPINE_READING_SPREAD_G, (name, cfc)
    t1 = np.asarray(model.source.joints["lower_neck"].placement.position, float)
    behind = [Accelerometer(f"t1_{k}", body="upper_torso", point=tuple(t1 - [d, 0.0, 0.0]))
              for k, d in enumerate(MOUNT_BEHIND_M)]
    for ch in evaluate(model, res, behind, rate=1.0 / float(t[1] - t[0])):
        if ch.name.endswith(" X"):
            peak = peak_deceleration_g(t, ch.values)[0]
            assert abs(peak - gs1["figures"]["t1_x_deceleration_g"]) < SPINE_READING_SPREAD_G, ch.name


# The body above the pelvis (head, neck, arms, upper torso, sternum, lumbar segment: 38.4 kg)
ABOVE_PELVIS = ("head", "neck", "upper_torso", "sternum", "left_upper_arm", "right_upper_arm",
                "left_lower_arm", "right_lower_arm", "lumbar")


def test_regression_gs1_upper_body_decelerates_as_the_pmhs_spine(gs1):
    """What the belt does to the body above the pelvis as a whole is the PMHS's: its centre of
    mass decelerates at most 22.3 g (79 ms; 16.8-22.1 g from 60 to 90 ms; in the sled's x, CFC
    180), inside the envelope of the PMHS's T8 and L2 corridors (18.65-24.92 g). The spine's
    points go past it because the human's rigid segments are stopped one after the other: at
    65 ms the belt pushes the 12.0 kg upper torso back with 5.5 kN (3.9 kN on it, 1.7 through
    the sternum) while its neighbours push it forward with 1.8 (lumbar 0.9, neck 0.4, arms
    0.5): 31.8 g at its centre of mass, 39.3 at T1 with its pitch; the lumbar segment follows at
    77 ms (32.6 g at L2, 2.1 kN of it from the upper torso). So T1's peak is over 1.5 times the
    upper body's (scenarios/validation/HISTORY.md, gs1decel): a regression of the defect, to
    be revised when the spine's points move with the whole."""
    from occupant.injury.filters import cfc_filter

    res, model, t = gs1["results"], gs1["model"], gs1["t"]
    masses = {b: model.source.parts[b].mass for b in ABOVE_PELVIS}
    x = sum(m * res.body_com[:, model.body(b), 0] for b, m in masses.items()) / sum(masses.values())
    dt = float(t[1] - t[0])
    com = cfc_filter(np.gradient(np.gradient(x, dt), dt), dt, SPINE_ACCEL_CFC) / G0   # B0's x: the sled's
    low = min(gs1["corridor"][k][0] for k in ("t8_x_deceleration_g", "l2_x_deceleration_g"))
    high = max(gs1["corridor"][k][1] for k in ("t8_x_deceleration_g", "l2_x_deceleration_g"))
    assert low <= -com.min() <= high
    assert gs1["figures"]["t1_x_deceleration_g"] > 1.5 * -com.min()


# The window the shoulder belt's rise is read over: the human's upper shoulder belt goes 1.5 ->
# 6.4 kN in it, the eight PMHS tests' mean 1.9 -> 4.5 (scenarios/validation/HISTORY.md, gs1beltrate)
BELT_RISE_MS = (50.0, 65.0)
# the shoulder belt's points from its upper anchorage to the buckle in the shipped GS1 case
GS1_SHOULDER_BELT_POINTS = ("d_ring", "shoulder", "chest", "abdomen", "buckle")


def _belt_rise_kN_per_ms(t_ms, force_kN, window=BELT_RISE_MS):
    """The mean rise (kN/ms) of a belt force over ``window`` (ms), read by linear interpolation."""
    a, b = window
    return float(np.interp(b, t_ms, force_kN) - np.interp(a, t_ms, force_kN)) / (b - a)


@pytest.mark.xfail(strict=True, reason=(
    "the human's upper shoulder belt rises 0.323 kN/ms from 50 to 65 ms (1.51 -> 6.36 kN) where "
    "the eight PMHS tests' rise 0.145-0.199 (mean 0.175): the belt lies on the thorax's top by the "
    "neck (its shoulder point 59 mm inboard of the midline at the start, where GS1's crosses "
    "mid-clavicle 100 mm outboard), so the upper torso pulls it square (belted acromion 48 mm "
    "forward in the window, PMHS mean 34; far acromion 58, PMHS 82) while T1 goes no faster than "
    "the PMHS's (57 mm, Ash et al.'s mean 62). Not the webbing's toe (the deck's 48-point curve: "
    "0.328), its length (1.31 m from anchorage to buckle, the deck's 1.11: at the deck's length "
    "0.333) or the retractor's lock (the deck's, 30 ms: 0.344) (scenarios/validation/HISTORY.md, "
    "gs1beltrate)"))
def test_reference_gs1_shoulder_belt_rises_at_the_pmhs_tests_pace(gs1):
    """From 50 to 65 ms the human's upper shoulder belt rises within the eight GS1 PMHS tests'
    own rises over the same window (data/gs1_upper_shoulder_belt.csv: 0.145-0.199 kN/ms)."""
    t, upper = _pmhs_belt_traces("gs1_upper_shoulder_belt.csv")
    rises = [_belt_rise_kN_per_ms(t, upper[:, k]) for k in range(upper.shape[1])]
    ours = _belt_rise_kN_per_ms(1e3 * gs1["t"], gs1["history"]["shoulder_belt_kN"])
    assert min(rises) <= ours <= max(rises), (ours, min(rises), max(rises))


def _belt_point(res, name, i):
    """The shoulder belt's point ``name`` at step i (m, B0)."""
    return np.array([res.outputs[f"belt.{name}.{c}"][i] for c in "xyz"])


def test_regression_gs1_shoulder_belt_rise_is_its_stiffness_times_the_torsos_pull(gs1):
    """What sets the shoulder belt's rise (scenarios/validation/HISTORY.md, gs1beltrate). From 50
    to 65 ms the belt (upper anchorage to buckle) lengthens by the stretch of its webbing at
    each segment's force (the GS1 deck's curve, modeling.belts.gs1_webbing) plus the payout of
    the locked spool and the rig's two end springs at the upper belt's force
    (Retractor.spool_curve), within 10 % (measured 27.5 + 12.8 = 40.3 mm against 41.5: 117 N/mm
    from 1.5 to 6.4 kN), a hand estimate from the belt's declared parts; and 90 % of that
    lengthening is the forward travel of the shoulder and chest wraps on the upper torso (each
    point's travel along the difference of its two segments' directions: 19.6 + 19.9 mm; the
    abdomen's 1.1). So the rise is the upper torso's pull on a belt as stiff as declared: a
    regression of the defect, to be revised when the torso turns about the belted shoulder."""
    from occupant.modeling.belts import Retractor, gs1_end_spring, gs1_webbing

    res, t = gs1["results"], 1e3 * gs1["t"]
    i0, i1 = (int(np.argmin(abs(t - ms))) for ms in BELT_RISE_MS)
    pts = GS1_SHOULDER_BELT_POINTS
    segments = [f"belt.{a}-{b}" for a, b in zip(pts[:-1], pts[1:])]
    webbing = gs1_webbing().loading
    strain = lambda force: np.interp(force, webbing[:, 1], webbing[:, 0])
    stretch = sum(res.outputs[f"{s}.length"][i0] * (strain(res.outputs[f"{s}.force"][i1])
                                                     - strain(res.outputs[f"{s}.force"][i0]))
                  for s in segments)
    retractor = Retractor(compliance=gs1_end_spring() * [1.0, 2.0])   # end_springs = 2
    spool = retractor.spool_curve()
    payout = lambda force: np.interp(force - retractor.rewind_force, spool[:, 1], spool[:, 0])
    upper = res.outputs[f"{segments[0]}.force"]
    lengthening = sum(res.outputs[f"{s}.length"][i1] - res.outputs[f"{s}.length"][i0]
                      for s in segments)
    hand = stretch + payout(upper[i1]) - payout(upper[i0])
    assert hand == pytest.approx(lengthening, rel=0.10), (hand, lengthening)
    pulled = {}
    for k in range(1, len(pts) - 1):
        pulled[pts[k]] = 0.0
        for i in range(i0, i1):
            a, p, b = (_belt_point(res, n, i) for n in pts[k - 1:k + 2])
            turn = (p - a) / np.linalg.norm(p - a) - (b - p) / np.linalg.norm(b - p)
            pulled[pts[k]] += (_belt_point(res, pts[k], i + 1) - p) @ turn
    print({k: round(1e3 * float(v), 1) for k, v in pulled.items()}, f"of {1e3 * lengthening:.1f} mm")
    assert pulled["shoulder"] + pulled["chest"] > 0.9 * lengthening


def test_reference_gs1_belt_at_mid_clavicle_rises_nearer_the_pmhs_pace(gs1, gs1_mid_clavicle_run):
    """Where the belt lies sets its rise (scenarios/validation/HISTORY.md, gs1beltrate): fitted
    at mid-clavicle and held there (MID_CLAVICLE_FIT, not shipped) the belted shoulder stops
    sooner (right acromion 16 mm forward from 50 to 65 ms; the shipped case's 48, Ash et al.'s
    mean 34) and the upper shoulder belt rises 0.226 kN/ms, two thirds of the way from the
    shipped case's 0.323 to the eight PMHS tests' mean 0.175."""
    def rise(run):
        return _belt_rise_kN_per_ms(1e3 * run["t"], run["history"]["shoulder_belt_kN"])

    assert rise(gs1_mid_clavicle_run) < 0.25 and rise(gs1_mid_clavicle_run) < 0.75 * rise(gs1)


def test_reference_gs1_human_sits_on_its_buttock():
    """At its posture the human rests on the rigid pan: settled under gravity for the SAFER
    deck's 350 ms (occupant.scenario.settle) its H-point moves under 15 mm (12.4 mm rearward, 5.5
    mm down, the lap belt's retractor pulling the deck's 100 N; 10.9 and 4.3 mm with the lap belt
    locked by its pre-load, before); hanging on its thighs, without the buttock under the ischial tuberosities, it sank
    76 mm. From the neck's base at C7/T1 (scenarios/validation/HISTORY.md Stop 39, c7t1) a strict
    xfail: 15.6-16.4 mm (16.4 mm: 14.7 rearward, 7.2 down, at stop 45's main), the toneless torso,
    placed 36-49 mm in front of the buck's seat back, falling back onto it and reclining the
    pelvis 7 deg. With the seat back at the human's back (vehicles/gs1_sled_buck.toml; branch
    gs1rest): 7.2 mm (3.7 rearward, 1.1 sideways, 6.1 down), the buttock 677 N; 7.0 mm (2.4
    rearward, 1.6 sideways, 6.3 down), the buttock 843 N, since the belts settle at their own
    step (restraints.belt.EXPLICIT_STEP; branch gs1settle); merged with main 655afeb 6.7 mm (2.6
    rearward, 2.1 sideways, 5.8 down), 758 N; settled at 2e-5 s (branch beltstep on main
    62a71a8) 6.9 mm (2.5 rearward, 2.8 sideways, 5.8 down), 779 N."""
    sc, path = read_scenario("human_sled_gs1_40")
    over = {"occupant.human." + k: v for k, v in sc["human"].items()}
    over.update({"occupant.settle": 0.35, "occupant.settle_belted": True, "solver.t_end": 0.001})
    run = run_scenario(load(pathlib.Path(path).parent / sc["sled"], over))
    res, model = run.results, run.model
    moved = res.body_poses[0, model.body("pelvis"), :3, 3] - res.base_poses[0, :3, 3]
    assert np.linalg.norm(moved) < 0.015
    assert res.outputs["buttock__seat_cushion.normal_force"][0] > 0.0


def test_reference_gs1_settled_as_the_deck_keeps_the_torso_in_the_belt():
    """Run from the posture the deck's procedure gives (350 ms under gravity in the unlocked
    belts, occupant.settle), the head goes no further forward than the PMHS corridor's upper
    boundary (455.3 mm): 340.2 mm (137.6 ms) since the hands rest on the thighs' tops where the
    SAFER deck's hand cables put them (the case's posture_angles; branch gs1hands, main 7168433
    -> the branch). Before, a strict xfail: 719.9 mm at main 7168433 (the seat back at the
    human's back since branch gs1rest: fitted on the settled body the belt lies across the front,
    test_reference_gs1_shoulder_belt_fitted_across_the_front, but during the settling its thorax
    wraps slid round the thorax's flank, locked the retractor and tipped the trunk sideways);
    837 mm before gs1rest, the torso reclined 6 deg onto the seat back and the shoulder belt
    fitted there ran off the sternum, the torso sliding out under it (873 before the hands and
    forearms were paired with the thighs, main d7c188b; 784 at stop 43's main, 877 at stop 42's;
    scenarios/validation/HISTORY.md, GS1 'Settled as the deck'); head read by its origin.
    Since the belts settle at their own step (restraints.belt.EXPLICIT_STEP, branch gs1settle):
    720.2 mm on main a8232fa, out (the 340.2 mm pass came from a settling at 5e-5 s in which the
    belts' webbing flow flipped every step); 416.8 mm (118.7 ms) merged with main 655afeb (a
    hooked held wrap's slide bounded, lapblowup), from a settled body whose shoulder belt has
    still locked during the settling (0.6 kN at 0.25 s) and pulled the trunk 12 mm outboard
    (scenarios/validation/HISTORY.md Stop 46, gs1settle). 385.1 mm (128.8 ms) since the held
    abdomen wrap is placed from the thorax run's tangent point (the belt under 46 N while
    settling) and the fit's sweeps settle (branch gravitybelt2); with the tangent point alone the
    belt fitted on the settled body ran round the flanks and the head went 810 mm. 723.2 mm
    (139.4 ms), a strict xfail, since passenger_seated puts the heels' lowest points on the floor
    (branch passheel, main 93f7a72 -> the branch: the belt fitted across the front on a trunk
    19.5 mm outboard, the torso sliding out under it). The three merged (branch gs1merge, main
    62a71a8 -> merged): 384.8 mm (142.2 ms), inside; the settled start still flips with small
    changes (scenarios/validation/HISTORY.md Stop 46, gs1settle)."""
    sc, path = read_scenario("human_sled_gs1_40")
    over = {"occupant.human." + k: v for k, v in sc["human"].items()}
    over.update({"occupant.settle": 0.35, "occupant.settle_belted": True,
                 "solver.t_end": sc["t_end"]})
    run = run_scenario(load(pathlib.Path(path).parent / sc["sled"], over))
    res, model = run.results, run.model
    head = res.body_poses[:, model.body("head"), 0, 3] - res.base_poses[:, 0, 3]
    assert 1e3 * (head.max() - head[0]) <= sc["corridor"]["head_x_excursion_mm"][1]


SETTLED_KINETIC = 0.1   # J: at rest after settling [E: 0.012 J after 1.0 s of GS1's settling]
STILL_AT_REST_AFTER = 0.15   # s: the settling run on past the deck's 350 ms, long enough for a
                             # forearm falling off the thighs to show (0.1-0.25 s) [E]


@pytest.mark.xfail(strict=True, reason=(
    "0.104 J at 0.35 s (3 restarts; 0.223 J at 0.40 s, 0.018 J at 0.5 s) since the belt's flow "
    "slips or sticks by the excess the implicit step foresees (branch bistable; main 9e4b466: "
    "0.055 J at 0.35 s, 4 restarts, but 0.170 J at 0.40 s): in both the head still nods "
    "forward there (upper neck 2.3 rad/s at the last chunk's peak, the elbows 0.5 rad/s) and "
    "the figure at 0.35 s is where the restarts fall in that swing (scenarios/HISTORY.md, "
    "bistable)"))
def test_reference_gs1_settled_as_the_deck_comes_to_rest():
    """Settled for the SAFER deck's 350 ms (occupant.scenario.settle: kinetic damping, restarted
    from rest at each kinetic energy peak), the human is at rest: the largest kinetic energy
    since the last restart under SETTLED_KINETIC, and still so when settled STILL_AT_REST_AFTER
    longer (a rest, not a restart that fell between two swings: at main 97e82ed, before the seat
    back was put at the human's back, with the belt fitted and held at mid-clavicle,
    MID_CLAVICLE_FIT, the 0.35 s figure was 0.048 J, its last restart at 0.329 s, while the
    forearms still fell off the thighs, 2.46 J at 0.5 s; scenarios/validation/HISTORY.md Stop 45,
    gs1rest). The three merged (branch gs1merge, main 62a71a8 -> merged): 0.055 J at 0.35 s (4
    restarts), 0.0028 J at 0.5 s (5), at rest; a strict xfail before: 0.086 J at 0.35 s, 0.103 J
    at 0.5 s on main 62a71a8 (the belts settling at their own step, branch gs1settle), 0.261 J at
    0.5 s on gravitybelt2 alone (its held abdomen wrap placed from the thorax run's tangent point,
    the belt under 46 N while settling); earlier reasons in scenarios/validation/HISTORY.md
    Stop 46, gs1settle."""
    from occupant.scenario.settle import settle

    sc, path = read_scenario("human_sled_gs1_40")
    over = {"occupant.human." + k: v for k, v in sc["human"].items()}
    over.update({"solver.t_end": 0.001})
    scenario = load(pathlib.Path(path).parent / sc["sled"], over)
    for duration in (0.35, 0.35 + STILL_AT_REST_AFTER):
        _, info = settle(scenario.model, scenario.q0, duration, belts=True)
        assert info["kinetic"] < SETTLED_KINETIC, (duration, info)


FITTED_FRONT = 0.35   # the least forward part of a fitted wrap point's direction from its
                      # ellipsoid's centre (scaled frame) for the belt to lie over the body's
                      # front, about 20 deg round from the flank [E]; fitted at the posture the
                      # shoulder, chest and abdomen wraps give 0.50, 0.59 and 0.50


@pytest.mark.parametrize("settle", [0.0, pytest.param(0.35, marks=pytest.mark.xfail(strict=True, reason=(
    "shoulder / chest / abdomen 0.80 / 0.85 / 0.30, the abdomen wrap's across part 0.04 (on the "
    "buckle's side; measured on gravitybelt2 merged with main 62a71a8, branch gs1merge: 0.80 / "
    "0.84 / 0.29 on gravitybelt2 alone, 0.44 / 0.50 / 0.89 on main 62a71a8, which passed) since the held abdomen wrap is placed from the thorax run's tangent point and "
    "the fit's sweeps settle (branch gravitybelt2): the thorax wraps across the sternum, the "
    "abdomen wrap on the converged path near the abdomen's inboard flank (0.36 on the posture, "
    "which passes). Before: 0.07 / 0.16 / 0.81, the abdomen wrap's across part 0.02 (branch "
    "gs1settle merged with main 655afeb: settled at the belts' step, the shoulder belt's thorax "
    "wraps rolled round the thorax's inboard flank and locked the retractor during the settling, "
    "the trunk 12 mm outboard, and the belt fitted on that body runs round the flank; it passed "
    "on main a8232fa with gs1settle alone, and at 5e-5 s; scenarios/validation/HISTORY.md "
    "Stop 46, gs1settle)")))])
def test_reference_gs1_shoulder_belt_fitted_across_the_front(settle):
    """Fitted at the start of the run (``restraints.fit_belts``; after ``occupant.settle`` s of
    settling), the shoulder belt lies across the body's front: its shoulder and chest wraps on the
    thorax and its abdomen wrap each at least FITTED_FRONT forward of their ellipsoid's centre
    (scaled frame), and the abdomen wrap on the buckle's side of the abdomen. Guards the fit that
    the crash runs from: fitted over the flanks, the belt let the torso out under it. Measured
    forward parts (shoulder, chest, abdomen): 0.50, 0.59, 0.50 as postured; settled 0.53, 0.59,
    0.92 since the seat back is at the human's back (branch gs1rest). Before (a strict xfail,
    scenarios/validation/HISTORY.md Stop 43, gs1settle2) the settled body, its pelvis 7 deg
    further reclined and its upper torso 50 mm back and 27 mm down onto the seat back, had the
    thorax run round the thorax's inboard flank (0.13 / 0.27) and the abdomen wrap round the
    abdomen's outboard flank (0.05, away from the buckle). A strict xfail again at 0.35 s from
    branch gs1settle (merged with main 655afeb) to main 93f7a72: 0.07 / 0.16 / 0.81, the shoulder
    belt's thorax wraps rolled round the thorax's inboard flank and locked the retractor during
    the settling, the trunk 12 mm outboard (scenarios/validation/HISTORY.md Stop 46, gs1settle).
    Since passenger_seated puts the heels' lowest points on the floor (branch passheel): 0.48 /
    0.57 / 0.51 as postured, settled 0.44 / 0.50 / 0.89 (the trunk 19.5 mm outboard), a pass; the
    settled crash then lets the torso out under the belt
    (test_reference_gs1_settled_as_the_deck_keeps_the_torso_in_the_belt, its xfail)."""
    run = gs1_start({"occupant.settle": settle, "occupant.settle_belted": True})
    points = run.model.source.belts["belt"].points
    base = np.linalg.inv(run.results.base_poses[0])
    def at(name):   # the belt point's place in B0 at the start
        x = np.array([run.results.outputs[f"belt.{name}.{a}"][0] for a in "xyz"])
        return base[:3, :3] @ x + base[:3, 3]
    wraps = {p.name: p.geometry for p in points if p.name in ("shoulder", "chest", "abdomen")}
    assert len(wraps) == 3
    E = ellipsoids_at(run, 0, set(wraps.values()))
    front = {}
    for name, geometry in wraps.items():
        c, R, D = E[geometry]
        d = R.T @ (at(name) - c) / D
        front[name] = d[0] / np.linalg.norm(d)
    c, R, D = E[wraps["abdomen"]]
    across = (R.T @ (at("abdomen") - c))[1] * (R.T @ (at("buckle") - c))[1]
    assert min(front.values()) >= FITTED_FRONT and across > 0.0, (front, across)


FIT_STEP = 0.005    # m: the most a fitted wrap point may move between fits 2 % of the settling's
                    # motion apart [E: 0.21 mm at most measured; 385 mm before, the jump]


def test_reference_gs1_belt_fit_follows_the_settling():
    """Fitted (``restraints.fit_belts``) on the body moved from its posture towards where 350 ms
    of settling under gravity leave it (occupant.scenario.settle; the configuration q0 + f (q -
    q0), its quaternions normalised, f in steps of 0.02), the shoulder belt's fitted wrap places
    (points on their ellipsoids, each in its ellipsoid's frame) move less than FIT_STEP from one
    fit to the next. Before (wrap_chain's
    ``place_held`` sweeps cycling between two paths where its held abdomen wrap had no place
    yet), the fit jumped between f 0.90 and 0.91: the shoulder wrap 132 mm round the thorax's
    inboard flank, the abdomen wrap round the abdomen's far flank (scenarios/HISTORY.md,
    gravitybelt2); now the shoulder, chest and abdomen wraps lie 0.77, 0.84, 0.36 forward of
    their centres (scaled frame) on the posture and 0.80, 0.84, 0.30 on the settled body."""
    from occupant.model.joint_motion import normalize_quaternions
    from occupant.restraints import fit_belts
    from occupant.scenario.settle import settle

    sc, path = read_scenario("human_sled_gs1_40")
    over = {"occupant.human." + k: v for k, v in sc["human"].items()}
    over.update({"solver.t_end": 0.001})
    scenario = load(pathlib.Path(path).parent / sc["sled"], over)
    model, q0 = scenario.model, scenario.q0
    q1, _ = settle(model, q0, 0.35, belts=True)
    el = model.belts
    wraps = [k for k in range(el.point_start[0], el.point_start[1]) if el.point_z[k] >= 0]
    assert len(wraps) == 3
    before, steps = None, []
    for f in np.linspace(0.0, 1.0, 51):
        q = q0 + f * (q1 - q0)
        normalize_quaternions(model.tree, q)
        z = fit_belts(model, q)
        # each wrap's fitted place on its ellipsoid (scaled-frame direction times semi-axes)
        x = np.array([el.point_size[k] * z[el.point_z[k]:el.point_z[k] + 3] for k in wraps])
        if before is not None:
            steps.append(np.linalg.norm(x - before, axis=1).max())
        before = x
    print(f"largest step {1e3 * max(steps):.2f} mm")
    assert max(steps) < FIT_STEP


def test_reference_gs1_shoulder_belt_corridor_is_the_pmhs_tests_peaks():
    """The upper shoulder belt's corridor is the range of the eight GS1 PMHS tests' own peaks
    (data/gs1_upper_shoulder_belt.csv), each above the SAFER folder's corridor files (peaks
    3.54-4.48 kN), which lie at half of them."""
    sc, path = read_scenario("human_sled_gs1_40")
    data = np.loadtxt(pathlib.Path(path).parent / "data" / "gs1_upper_shoulder_belt.csv",
                      delimiter=",", comments="#")
    assert data.shape[1] == 9 and np.all(np.diff(data[:, 0]) == 1.0)
    peaks = data[:, 1:].max(axis=0)
    lo, hi = sc["corridor"]["shoulder_belt_force_kN"]
    assert lo == pytest.approx(peaks.min(), abs=5e-3) and hi == pytest.approx(peaks.max(), abs=5e-3)
    assert peaks.min() > 1.25 * 4.48

def _gs1_data(name):
    """The path of the GS1 case's data file ``name`` (scenarios/validation/data)."""
    _, path = read_scenario("human_sled_gs1_40")
    return pathlib.Path(path).parent / "data" / name


def _pmhs_belt_traces(name):
    """(t ms, (n, 8) kN) of the eight GS1 PMHS tests' shoulder belt traces in data/<name>."""
    data = np.loadtxt(_gs1_data(name), delimiter=",", comments="#")
    return data[:, 0], data[:, 1:]


def test_reference_gs1_lower_shoulder_belt_corridor_is_the_pmhs_tests_peaks():
    """The lower shoulder belt's corridor is the range of the eight GS1 PMHS tests' own peaks
    (data/gs1_lower_shoulder_belt.csv), each above the SAFER folder's corridor files (peaks
    2.53-2.90 kN), which lie at half of them as the upper belt's do."""
    sc, _ = read_scenario("human_sled_gs1_40")
    t, lower = _pmhs_belt_traces("gs1_lower_shoulder_belt.csv")
    assert lower.shape[1] == 8 and np.all(np.diff(t) == 1.0)
    peaks = lower.max(axis=0)
    lo, hi = sc["corridor"]["lower_shoulder_belt_force_kN"]
    assert lo == pytest.approx(peaks.min(), abs=5e-3) and hi == pytest.approx(peaks.max(), abs=5e-3)
    assert peaks.min() > 1.25 * 2.90


def _shaw_boundaries():
    """{file stem: (n, 2) of t ms, value} of the SAFER folder's corridor boundary files as stored
    in data/gs1_corridor_boundaries.csv."""
    out = {}
    for line in _gs1_data("gs1_corridor_boundaries.csv").read_text().splitlines():
        if line and not line.startswith("#"):
            name, t, v = line.split(",")
            out.setdefault(name, []).append((float(t), float(v)))
    return {k: np.array(v) for k, v in out.items()}


def _ash_corridors():
    """{column: (201,) mm} of Ash et al.'s (2012) corridors in data/gs1_ash_2012_corridors.csv."""
    path = _gs1_data("gs1_ash_2012_corridors.csv")
    names = [ln for ln in path.read_text().splitlines() if ln.startswith("# t_ms,")][0]
    data = np.loadtxt(path, delimiter=",", comments="#")
    return dict(zip(names[2:].split(","), data.T))


def test_reference_gs1_spine_acceleration_corridors_carry_the_sleds_delta_v():
    """The T1 / T8 / L2 x acceleration corridors are at the scale of the sled's pulse, not at half
    of it as the folder's shoulder belt boundary files are (tests above): the midline of each
    pair of boundaries, integrated from its start to 150 ms, loses 8.82 / 9.53 / 10.15 m/s, 0.75
    / 0.81 / 0.86 of the sled's 11.82 m/s (data/gs1_sled_pulse.csv) [D]; at half scale under
    0.45. T1 loses least, L2 most: the order of a reading in each bone's axes with the upper
    spine turned forward the most (in the sled's axes a point moving with the sled, or back on
    it, by 150 ms would have lost all of it), the axes the human's figures are read in
    (validation.spine_accelerometers; the human's T1 10.25 m/s in its axes, 11.38 in the sled's:
    scenarios/validation/HISTORY.md, gs1decel)."""
    lines = _gs1_data("gs1_sled_pulse.csv").read_text().splitlines()
    pulse = np.loadtxt([ln for ln in lines if ln[:1].isdigit()], delimiter=",")   # s, g
    sled = -np.trapezoid(pulse[:, 1], pulse[:, 0]) * G0
    shaw = _shaw_boundaries()
    t = np.arange(2.0, 150.0 + 1e-9, 0.5)    # ms: from the files' first points (1.7-2.6 ms)
    lost = []
    for name in ("T1", "T8", "L2"):
        pair = [shaw[f"{name}_x_acc_{side}"] for side in ("neg", "pos")]
        mid = 0.5 * sum(np.interp(t, *b[np.argsort(b[:, 0])].T) for b in pair)
        lost.append(-np.trapezoid(mid, 1e-3 * t) * G0 / sled)
    assert sled == pytest.approx(11.82, abs=0.01)
    assert all(0.65 < f < 0.95 for f in lost), lost
    assert lost[0] < lost[1] < lost[2]


def test_reference_gs1_corridors_are_their_sources_peaks():
    """Every GS1 corridor but the shoulder belts' (read from the eight tests' traces, tests above)
    is the peaks of its source's two boundaries as stored: the forward excursions and the lap belt
    the boundaries' maxima; the rises (z down in the files), the chest's compression (the sternum's
    x relative to T8, negative in) and the x decelerations their minima negated. The hip's lower
    bound is the file's first point (-3.3 mm at 1.5 ms): it was -5.6, the second point."""
    shaw, ash = _shaw_boundaries(), _ash_corridors()
    peak = {"max": lambda v: v.max(), "-min": lambda v: -v.min()}
    sources = {   # corridor: (its two boundaries, their reading)
        "head_x_excursion_mm": ((shaw["Head_x_disp_neg"], shaw["Head_x_disp_pos"]), "max"),
        "t1_x_excursion_mm": ((shaw["T1_x_disp_neg"], shaw["T1_x_disp_pos"]), "max"),
        "t8_x_excursion_mm": ((shaw["T8_x_disp_neg"], shaw["T8_x_disp_pos"]), "max"),
        "hip_x_excursion_mm": ((shaw["Hip_x_disp_neg"], shaw["Hip_x_disp_pos"]), "max"),
        "knee_x_excursion_mm": ((shaw["Knee_x_disp_neg"], shaw["Knee_x_disp_pos"]), "max"),
        "lap_belt_force_kN": ((shaw["Outer_lap_belt_neg"], shaw["Outer_lap_belt_pos"]), "max"),
        "l2_x_excursion_mm": ((ash["l2Xl"], ash["l2Xu"]), "max"),
        "l4_x_excursion_mm": ((ash["l4Xl"], ash["l4Xu"]), "max"),
        "t1_z_rise_mm": ((shaw["T1_z_disp_pos"], shaw["T1_z_disp_neg"]), "-min"),
        "t8_z_rise_mm": ((shaw["T8_z_disp_pos"], shaw["T8_z_disp_neg"]), "-min"),
        "pelvis_z_rise_mm": ((ash["pZu"], ash["pZl"]), "-min"),
        "chest_deflection_mm": ((shaw["Sternum_relT8_x_high"], shaw["Sternum_relT8_x_low"]), "-min"),
        "t1_x_deceleration_g": ((shaw["T1_x_acc_pos"], shaw["T1_x_acc_neg"]), "-min"),
        "t8_x_deceleration_g": ((shaw["T8_x_acc_pos"], shaw["T8_x_acc_neg"]), "-min"),
        "l2_x_deceleration_g": ((shaw["L2_x_acc_pos"], shaw["L2_x_acc_neg"]), "-min"),
        "right_acromion_x_excursion_mm": ((ash["raXl"], ash["raXu"]), "max"),
        "left_acromion_x_excursion_mm": ((ash["laXl"], ash["laXu"]), "max"),
    }
    corridor = read_scenario("human_sled_gs1_40")[0]["corridor"]
    assert set(corridor) == set(sources) | {"shoulder_belt_force_kN", "lower_shoulder_belt_force_kN"}
    for name, (bounds, reading) in sources.items():
        got = [peak[reading](b if b.ndim == 1 else b[:, 1]) for b in bounds]
        assert corridor[name] == pytest.approx(got, abs=0.051), (name, got)


def test_reference_gs1_shaw_and_ash_corridors_agree():
    """Two digitisations of the same eight tests' corridors, the SAFER folder's _disp files (Shaw
    et al. 2009) and Ash et al.'s (2012) kinematics.csv, peak within 4 mm of each other for the
    head's, T1's and T8's forward excursions and T1's rise (1.5-3.5 mm: the files step 1.3-2.6 mm);
    T8's rise alone is further apart at its upper boundary (the case's 90.6 mm against Ash's 85.2)."""
    shaw, ash = _shaw_boundaries(), _ash_corridors()
    pairs = {("Head_x_disp_neg", "hXl"): 1, ("Head_x_disp_pos", "hXu"): 1,
             ("T1_x_disp_neg", "t1Xl"): 1, ("T1_x_disp_pos", "t1Xu"): 1,
             ("T8_x_disp_neg", "t8Xl"): 1, ("T8_x_disp_pos", "t8Xu"): 1,
             ("T1_z_disp_neg", "t1Zl"): -1, ("T1_z_disp_pos", "t1Zu"): -1,
             ("T8_z_disp_pos", "t8Zu"): -1}
    for (file, column), sign in pairs.items():
        a, b = (sign * shaw[file][:, 1]).max(), (sign * ash[column]).max()
        assert abs(a - b) < 4.0, (file, a, column, b)
    assert -shaw["T8_z_disp_neg"][:, 1].min() - -ash["t8Zl"].min() == pytest.approx(5.4, abs=0.1)


def test_reference_gs1_shoulder_belt_share_is_the_pmhs_tests(gs1):
    """The human's upper over lower shoulder belt peak (the friction over the torso between the
    two) lies within what the eight PMHS tests' peaks allow, which trace of one belt goes with
    which of the other being unstated: from the lowest upper peak over the highest lower one
    (0.87) to the highest over the lowest (1.62); their mean peaks' ratio is 1.21."""
    upper = _pmhs_belt_traces("gs1_upper_shoulder_belt.csv")[1].max(axis=0)
    lower = _pmhs_belt_traces("gs1_lower_shoulder_belt.csv")[1].max(axis=0)
    fig = gs1["figures"]
    share = fig["shoulder_belt_force_kN"] / fig["lower_shoulder_belt_force_kN"]
    assert upper.min() / lower.max() < share < upper.max() / lower.min()


def test_identity_gs1_shoulder_belt_keeps_the_capstan_law(gs1):
    """Over the loaded belt (60-100 ms), at each of the shoulder belt's wraps the two segments'
    tensions keep the capstan law at the model's own wrap angle: their ratio within exp(mu theta)
    (mu the belt-body friction, 0.3; theta the turn between the segments) but for the
    regularised slip's excess (at most 10 %, slip_damping 100 N s/m), and up to it at some
    instant (the belt slips over every wrap): the friction acts where the belt wraps, no more."""
    res = gs1["results"]
    out, t = res.outputs, gs1["t"]
    points = gs1["model"].source.belts["belt"].points
    names = [p.name for p in points]
    loaded = (t >= 0.06) & (t <= 0.1)
    x = [np.stack([out[f"belt.{n}.{a}"][loaded] for a in "xyz"], 1) for n in names]
    force = [out[f"belt.{a}-{b}.force"][loaded] for a, b in zip(names, names[1:])]
    assert min(f.min() for f in force) > 2000.0
    for k in range(1, len(names) - 1):
        a, b = x[k] - x[k - 1], x[k + 1] - x[k]
        cos = np.einsum("ij,ij->i", a, b) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)
        assert points[k].friction == 0.3                 # GS1 belt-body (facts 6.4)
        capstan = np.exp(points[k].friction * np.arccos(np.clip(cos, -1.0, 1.0)))
        ratio = np.maximum(force[k - 1] / force[k], force[k] / force[k - 1]) / capstan
        assert ratio.max() < 1.10, names[k]
        assert ratio.max() > 0.98, names[k]


def test_reference_gs1_belt_is_the_gold_standard_belt(gs1):
    """GS1's belt as the SAFER deck has it: a shoulder belt from its retractor at the upper
    anchorage to the buckle and a separate lap belt from its retractor at the outboard lap
    anchorage to the buckle, both fixed there (no slip ring, no pretensioner, no load limiter),
    fitted with the deck's pre-loads (10 N shoulder, 100 N lap) at the start."""
    src, out = gs1["model"].source, gs1["results"].outputs
    assert sorted(src.belts) == ["belt", "lap_belt"]
    for name, first, preload in (("belt", "d_ring", 10.0), ("lap_belt", "lap_anchor", 100.0)):
        b = src.belts[name]
        kinds = [type(p).__name__ for p in b.points]
        assert kinds[0] == kinds[-1] == "Anchor" and "SlipRing" not in kinds
        assert b.points[0].name == first and b.points[-1].name == "buckle"
        assert b.pretensioner is None and b.retractor.load_limit == np.inf
        for seg in b.segment_names:
            assert out[f"{name}.{seg}.force"][0] == pytest.approx(preload, rel=1e-3)


def test_reference_gs1_retractors_lock_by_the_sled_not_their_pre_loads(gs1):
    """The deck's retractors pull their pre-loads (10 N shoulder, 100 N lap) unlocked until they
    lock (GS1_belt_V11.key: force-time pretensioners on both retractors) [S]: the lap belt's
    rewind force is its 100 N. At the default 10 N, its webbing-sensitive sensor read the 90 N
    excess of the fit as 0.9 m/s of payout and locked it 10 ms into the run (or into settling),
    before the sled moved; now both lock together, 10 ms after the sled's deceleration passes
    the vehicle-sensitive threshold."""
    out, t = gs1["results"].outputs, gs1["t"]
    src = gs1["model"].source
    assert src.belts["lap_belt"].retractor.rewind_force == pytest.approx(100.0)
    first = {n: t[np.argmax(out[f"{n}.locked"] > 0.5)] for n in ("belt", "lap_belt")}
    assert out["lap_belt.locked"].max() == 1.0
    assert first["lap_belt"] == pytest.approx(first["belt"], abs=2e-4)
    assert first["lap_belt"] > 0.012           # the pulse rises from 5 ms, then 10 ms lock delay


def _lap_belt_in_pelvis_frame(gs1):
    """(lap belt mid point in the pelvis frame (n, 3), samples where the lap belt carries over
    10 % of its peak)."""
    res, model = gs1["results"], gs1["model"]
    P = res.body_poses[:, model.body("pelvis")]
    lap = np.stack([res.outputs[f"lap_belt.lap.{a}"] for a in "xyz"], 1) + res.base_poses[:, :3, 3]
    local = np.einsum("nji,nj->ni", P[:, :3, :3], lap - P[:, :3, 3])
    return local, gs1["history"]["lap_belt_kN"] > 0.1 * gs1["figures"]["lap_belt_force_kN"]


def test_reference_gs1_lap_belt_stays_on_the_pelvis(gs1):
    """No submarining: while the lap belt carries load (over 10 % of its peak) its mid point
    stays in front of the hip joints and below the top of the pelvis (the lumbar-pelvis joint,
    at the L3/L4 level) in the pelvis frame."""
    local, loaded = _lap_belt_in_pelvis_frame(gs1)
    top = gs1["model"].source.joints["lumbar_pelvis"].placement.position[2]
    assert loaded.sum() > 100
    assert np.all(local[loaded, 0] > 0.0)
    assert np.all(local[loaded, 2] < top)


@pytest.mark.xfail(strict=True, reason=(
    "the lap belt rides 5.3 mm up the pelvis at 84 ms (0.33 kN, as it unloads; 5.6 mm, 0.11 kN, "
    "before the buttock was concentric with the ischium's underside; 3.8 mm at 76.5 "
    "ms, 0.29 kN, as recorded before branch gs1pelvis measured it again) on the GS1 deck's "
    "pulse, the pelvis tilted 28-30 deg forward about the held hips at 80-90 ms; 3.7 mm "
    "at 61.5 ms (0.35 kN) on the trapezoid since the knees bear on GS1's "
    "supports and the pelvis tilts forward about the held hips (37 deg); 2.5 mm at 71 ms (1.9 kN) "
    "on the buck's bolster, 3.3 mm on lap_belt_pelvis at 54 ms, 3.6 mm before the upper "
    "anchorage was placed from the shoulder (scenarios/validation/HISTORY.md)"))
def test_reference_gs1_lap_belt_does_not_ride_up(gs1):
    """While loaded, the lap belt's mid point never rises above its starting height in the
    pelvis frame (1 mm). The wraps carrying the webbing lying on the pelvis with their motion
    over it (restraints.belt.wrap_drift) kept it down while the human hung on its thighs; seated
    on its buttock it rides 3.6 mm up again (both changes measured together)."""
    local, loaded = _lap_belt_in_pelvis_frame(gs1)
    assert np.all(local[loaded, 2] <= local[0, 2] + 1e-3)


def _shoulder_belt_at_start(gs1):
    """(upper anchorage, shoulder point, chest point, abdomen point) in B0 at t = 0 and the thorax
    ellipsoid's centre, orientation and semi-axes there."""
    res, model = gs1["results"], gs1["model"]
    out = res.outputs
    pts = [np.array([out[f"belt.{n}.{a}"][0] for a in "xyz"])
           for n in ("d_ring", "shoulder", "chest", "abdomen")]
    g = model.source.geometries["thorax"]
    marker = model.source.markers[g.marker]
    base = res.base_poses[0]
    P = np.linalg.inv(base) @ res.body_poses[0, model.body(marker.part)]
    R = P[:3, :3] @ (np.eye(3) if getattr(marker, "rotation", None) is None
                     else np.asarray(marker.rotation, float))
    centre = P[:3, :3] @ np.asarray(marker.position, float) + P[:3, 3]
    return pts, centre, R, np.asarray(g.semi_axes, float)


def test_identity_gs1_shoulder_belt_wrap_in_the_plane_through_the_thorax_centre(gs1):
    """Why the shoulder belt runs over the inboard flank: its two wraps on the thorax lie on one
    wrap, in the ellipsoid's scaled frame in the plane through its centre and the line from the
    upper anchorage to the next point, the abdomen's wrap (restraints.belt: the shortest path
    between them; the abdomen's wrap is held across the belt). That line passes through the
    thorax, 0.25 from its centre (scaled): the wraps around its inboard and outboard flanks are
    almost equally short, which is why, placed on its shortest path too, the abdomen's wrap let
    the chest wrap flip between them; the belt lies on the inboard one, both wrap points inboard
    of the midline. (To the buckle, before the abdomen's wrap, the line missed the thorax
    outboard, scaled distance 1.18, and the wrap lay on the inboard flank too.)"""
    (d, sh, ch, bu), centre, R, semi = _shoulder_belt_at_start(gs1)
    scaled = [R.T @ (p - centre) / semi for p in (d, sh, ch, bu)]
    normal = np.cross(scaled[0], scaled[3])
    normal /= np.linalg.norm(normal)
    for p in scaled[1:3]:
        assert abs(normal @ p) < 1e-6 and np.linalg.norm(p) == pytest.approx(1.0, abs=1e-6)
    u = (scaled[3] - scaled[0]) / np.linalg.norm(scaled[3] - scaled[0])
    closest = scaled[0] - (scaled[0] @ u) * u                  # the line's nearest point to the centre
    assert np.linalg.norm(closest) < 0.35                      # it passes through the thorax
    assert sh[1] > 0.0 and ch[1] > 0.0                         # the wraps: inboard of the midline


def gs1_run(changes):
    """The GS1 case run with ``changes`` (scenario overrides) to its sled, by the case's own
    runner: a dict with its figures, history, t, run and the case's corridor and checks."""
    sc, path = read_scenario("human_sled_gs1_40")
    return VALIDATIONS[sc["test"]].run(sc, path, None, changes)


@pytest.fixture(scope="module")
def gs1_mid_clavicle_run():
    """The GS1 case run with its belt fitted with MID_CLAVICLE_FIT (not shipped): gs1_run's
    dict, its figures with the case's corridors."""
    return gs1_run(MID_CLAVICLE_FIT)


def test_reference_gs1_belt_at_mid_clavicle_turns_the_torso_as_the_pmhs(gs1_mid_clavicle_run):
    """The lead for the spine's decelerations (HISTORY.md GS1 'The spine's decelerations traced' and
    'The shoulder belt on the shoulder's surface'): with the belt fitted at mid-clavicle (on the
    shoulder shell, ``modeling.outer_surface``) and mid-sternum and held there (MID_CLAVICLE_FIT,
    not shipped) the torso turns about the belted shoulder as the PMHS's does: the left
    acromion lies inside Ash et al.'s corridor at 70, 80 and 90 ms (153.8-233.5, 215.9-298.4,
    270.8-347.3 mm; the shipped case's 169, 199, 230: the last two short) and T1's x
    deceleration stays under 40 g before 95 ms (shipped 56.3 at 68 ms). Measured: left 202, 253,
    310 mm; T1 30.1 g; read at the acromion, not the joint (branch gs1shoulderjoint), with the
    buttock on the ischium: 205, 259, 318 mm, 32.9 g; with the trunk's axial range split by
    vertebral level (joint_rom.toml, thorax-lumbar 33.5 / lumbar-pelvis 11.5 deg, was 22.5 each):
    205, 274, 332 mm, 29.2 g; and the neck's (C7/T1 9.2 / condyles 60.8 deg, was 35 each):
    205, 273, 331 mm, 29.3 g. (On the thorax under the shell, before: 192, 248, 293 mm, 35.0 g.)"""
    hist, t = gs1_mid_clavicle_run["history"], gs1_mid_clavicle_run["t"]
    ash = _ash_corridors()
    for ms in (70, 80, 90):
        left = hist["left_acromion_x_mm"][np.argmin(abs(t - ms / 1e3))]
        assert ash["laXl"][ms] <= left <= ash["laXu"][ms], (ms, left)
    assert -hist["t1_x_g"][t < 0.095].min() < 40.0


@pytest.mark.xfail(strict=True, reason=(
    "on the shoulder shell at mid-clavicle the belt holds the belted shoulder back more than the "
    "PMHS's (right acromion 71-80 mm to 100 ms, Ash 96.4-139.0; T8 37.2 g) and slackens as the "
    "torso turns (2.6 kN at 100 ms); from 90 ms its place slides outboard down the shell over "
    "the acromion (its point 137 mm outboard, 42 mm above the thorax's centre at 100 ms), through "
    "the upper arm shell (47 mm, no wrap keeps it off the arm), its belt's plane tilting past "
    "the smallest circle by 108 ms (friction 0.3 cannot hold it: the ratio reaches 3.2 at 112 "
    "ms), and at 115 ms the belt leaves the shoulder, lying straight from the anchorage to the "
    "chest: head 638, T1 463 mm, right acromion 245 mm at the acromion (623, 402 and 259 at "
    "e95dd67, branch gs1clavicle; 632, 459 and 242 before "
    "the face was on in GS1; 626, 473 and 250 as first read, 258 read at the joint before) "
    "(before branch gs1wrapfix it slid round "
    "the shell's back through the thorax and snapped to 24.5 kN: head 491, T1 353 mm) "
    "(scenarios/validation/HISTORY.md, GS1 'The shoulder belt on the shoulder's surface')"))
def test_reference_gs1_belt_at_mid_clavicle_stays_on_the_shoulder(gs1_mid_clavicle_run):
    """Fitted at mid-clavicle and held there, the belt keeps the belted acromion inside Ash et
    al.'s corridor to 100 ms and T8's x deceleration inside its (19.97-23.60 g), and stays on the
    shoulder: the head and T1 inside their corridors and the shoulder belt's force inside the
    eight tests' peaks (5.64-8.22 kN)."""
    run = gs1_mid_clavicle_run
    lo, hi = run["corridor"]["right_acromion_x_excursion_mm"]
    assert lo <= run["history"]["right_acromion_x_mm"][run["t"] <= 0.1].max() <= hi
    _assert_inside(run, "t8_x_deceleration_g", "head_x_excursion_mm", "t1_x_excursion_mm",
                   "shoulder_belt_force_kN")


@pytest.mark.xfail(strict=True, reason=(
    "the shoulder belt's shoulder point is fitted 59 mm inboard of the midline (branch "
    "gs1beltrate, on main 46aea6f; 153 mm when this was first measured; on the plane "
    "through the thorax's centre, test above), where GS1's belt crosses the clavicle mid-way; "
    "fitted there (shoulder_at, chest_at: tests below) the belt lies on the shoulder shell "
    "(modeling.outer_surface) and the torso turns about the belted shoulder as the PMHS's to 90 "
    "ms, but it holds the belted acromion back (71-80 mm) and from 90 ms slides outboard off the "
    "shell over the acromion, through the upper arm, and leaves the shoulder at 115 ms (head "
    "638, T1 463 mm): not set in the case (scenarios/validation/HISTORY.md); held at or above "
    "the clavicle as well (CLAVICLE_FLANK) it stays on the shoulder to 150 ms but the spine's "
    "late decelerations rise (T1 84.5 g): not set either (tests below, scenarios/validation/"
    "HISTORY.md Stop 40, branch gs1clavicle)"))
def test_reference_gs1_shoulder_belt_crosses_mid_clavicle(gs1):
    """At the start the shoulder belt's shoulder point lies outboard of the midline, between the
    neck and the shoulder joint (60-140 mm outboard, mid-clavicle 100 mm [E]), and its chest point
    on the front half of the thorax, as the GS1 belt lies over the clavicle and across the
    sternum (Shaw et al. 2009; the SAFER deck's fitted belt crosses 100 mm outboard of the
    midline 312 mm ahead of and 138 mm below its upper anchorage)."""
    (d, sh, ch, bu), centre, R, semi = _shoulder_belt_at_start(gs1)
    assert -0.14 < sh[1] < -0.06
    assert (R.T @ (ch - centre))[0] > 0.0


UPPER_BODY = ("thorax", "right_shoulder_shell", "left_shoulder_shell", "neck_shell", "head_shell",
              "right_upper_arm_shell", "left_upper_arm_shell")
# the human's torso and thigh ellipsoids (builder.build: pelvis_flesh and buttock on the pelvis,
# abdomen on the lumbar segment, thorax on the upper torso)
TORSO_AND_THIGHS = ("thorax", "abdomen", "pelvis_flesh", "buttock", "left_thigh_shell",
                    "right_thigh_shell")


@pytest.fixture(scope="module")
def gs1_over_the_shoulder():
    """The GS1 case's belt fitted with ``[restraints.belt] shoulder = "right_shoulder_shell"``
    (the human's shoulder shell, builder.shoulder_shells; measured, not set in the case)."""
    return gs1_start({"restraints.belt.shoulder": "right_shoulder_shell"})


@pytest.mark.xfail(strict=True, reason=(
    "since the neck's base at C7/T1 the neck shell stands 81 mm further forward (radius 75 -> "
    "66 mm) and the belt fitted over the shoulder shell lies at its outboard end, the acromion "
    "(200 mm outboard of the thorax's centre), its path 51.5 mm into the right upper arm shell "
    "(scenarios/validation/HISTORY.md Stop 39, c7t1); not the shipped case's routing"))
def test_reference_gs1_belt_fitted_over_the_shoulder_shell_crosses_the_chest(gs1_over_the_shoulder):
    """Routed over the human's right shoulder shell (behind a barrier wrap on the neck) and then
    the chest, the fitted shoulder belt lies over the shoulder's top outboard of the neck and
    down across the front of the chest on its outboard half (the chest point ahead of the
    thorax's centre, outboard of the midline), as GS1's belt crosses the sternum (with one wrap
    on the thorax both points lie inboard, test above); its path rebuilt from its points
    (restraints.belt_clearance: straight pieces, arcs, joins) passes into no upper-body
    ellipsoid (thorax, both shoulders, neck, head, upper arms)."""
    run = gs1_over_the_shoulder
    deep = belt_depths(run, "belt", 0, UPPER_BODY)
    assert max(deep.values()) < 1e-3, deep
    out = run.results.outputs
    c, R, _ = ellipsoids_at(run, 0, ["thorax"])["thorax"]
    sh, ch = (R.T @ (np.array([out[f"belt.{n}.{a}"][0] for a in "xyz"]) - c)
              for n in ("shoulder", "chest"))
    assert sh[1] < -0.06 and ch[1] < 0.0 and ch[0] > 0.0 and sh[2] > ch[2]


# GS1's belt fitted where it lies on the PMHS (``[restraints.belt] shoulder_at``, ``chest_at``:
# not set in the case, scenarios/validation/HISTORY.md, GS1 "The shoulder belt held where it is
# fitted"): the shoulder wrap
# at the human's mid-clavicle point on the thorax (0.10 m outboard, 0.05 m above its centre: the
# case's own estimate, data/gs1_sled_40_human.toml), carried out to the body's outer surface
# there, the right shoulder shell (``modeling.outer_surface``), the chest wrap at mid-sternum
# (the chest joint, on the thorax's front at its centre's height), both held across the belt
# by the belt-body friction
MID_CLAVICLE_FIT = {"restraints.belt.shoulder_at": [0.0914, -0.10, 0.05],
                    "restraints.belt.chest_at": [0.123, 0.0, 0.0]}


def gs1_start(changes):
    """The GS1 case's first half millisecond with ``changes`` (scenario overrides) to its sled."""
    sc, path = read_scenario("human_sled_gs1_40")
    over = {"occupant.human." + k: v for k, v in sc["human"].items()}
    over.update(changes, **{"solver.t_end": 0.0005})
    return run_scenario(load(pathlib.Path(path).parent / sc["sled"], over))


@pytest.fixture(scope="module")
def gs1_fitted_mid_clavicle():
    """The GS1 case's belt fitted with MID_CLAVICLE_FIT (its first half millisecond)."""
    return gs1_start(MID_CLAVICLE_FIT)


def test_reference_gs1_belt_fitted_at_mid_clavicle_crosses_the_sternum(gs1_fitted_mid_clavicle):
    """Fitted at mid-clavicle and mid-sternum and held there by friction across the belt, the
    shoulder belt crosses the clavicle between the neck and the shoulder joint (60-140 mm
    outboard of the midline, as the shipped case's strict xfail asks), its chest point lies on
    the thorax's front, inboard of the shoulder point and below it (the diagonal from the
    mid-clavicle towards the opposite lower ribs), and its path rebuilt from its points lies in
    no upper-body ellipsoid (thorax, left shoulder, neck, head, upper arms) by more than 1 mm;
    the right shoulder shell, which the shoulder wrap now lies on: test below."""
    run = gs1_fitted_mid_clavicle
    out = run.results.outputs
    c, R, _ = ellipsoids_at(run, 0, ["thorax"])["thorax"]
    sh, ch = (np.array([out[f"belt.{n}.{a}"][0] for a in "xyz"]) for n in ("shoulder", "chest"))
    assert -0.14 < sh[1] < -0.06
    local_sh, local_ch = R.T @ (sh - c), R.T @ (ch - c)
    assert local_ch[0] > 0.0 and local_ch[1] > local_sh[1] and local_ch[2] < local_sh[2]
    deep = belt_depths(run, "belt", 0, [n for n in UPPER_BODY if n != "right_shoulder_shell"])
    assert max(deep.values()) < 1e-3, deep


def test_reference_gs1_belt_fitted_at_mid_clavicle_clears_the_shoulder(gs1_fitted_mid_clavicle):
    """Fitted at mid-clavicle, the belt lies on the shoulder's surface: its shoulder wrap on the
    right shoulder shell (``modeling.outer_surface.outer_place``: the point given on the thorax
    lies 23 mm under the shell, which stands over it there) and its path in that shell by under
    1 mm. Before (strict xfail): the wrap on the thorax, the path 31 mm inside the shell."""
    belt = gs1_fitted_mid_clavicle.model.source.belts["belt"]
    assert next(p.geometry for p in belt.points if p.name == "shoulder") == "right_shoulder_shell"
    deep = belt_depths(gs1_fitted_mid_clavicle, "belt", 0, ["right_shoulder_shell"])
    assert deep["right_shoulder_shell"] < 1e-3, deep


# The clavicle under GS1's shoulder belt (branch gs1clavicle; scenarios/validation/HISTORY.md Stop 40): the
# belt fitted with MID_CLAVICLE_FIT, its place on the shoulder shell kept at or above the clavicle
# (``shoulder_flank``, n . x >= d in the thorax's frame, carried into the shell's:
# ``modeling.outer_surface.plane_in``). ANSUR II men put the acromion 0.0436 H and the
# suprasternale 0.0448 H below the cervicale (data/body_proportions.toml [S]): the clavicle runs
# level from its sternal end at the notch to its acromial end, within 2 mm, at the acromion's
# height, where builder.shoulder_shells centres the shell: 0.0455 m above the thorax's centre at
# the case's 1.753 m (the thorax's top less 0.0436 H; checked against the built shell below). The
# shell's frontal section falls from mid-clavicle to the acromion, where the bone under the skin
# does not: the bound is that ridge, no force of its own (``restraints.belt.flank_bound``).
CLAVICLE_FLANK = {"restraints.belt.shoulder_flank": [0.0, 0.0, 1.0, 0.0455]}


@pytest.fixture(scope="module")
def gs1_on_the_clavicle():
    """The GS1 case run fitted at mid-clavicle (MID_CLAVICLE_FIT) with CLAVICLE_FLANK (not
    shipped): gs1_run's dict, its figures with the case's corridors."""
    return gs1_run({**MID_CLAVICLE_FIT, **CLAVICLE_FLANK})


def test_reference_gs1_clavicle_flank_is_the_shoulder_shells_centre_plane(gs1_on_the_clavicle):
    """The flank given in the thorax's frame (CLAVICLE_FLANK) is carried onto the shoulder shell
    the fitted wrap lies on: there it is the shell's centre plane, z >= 0 within 0.5 mm (the
    acromion's height, builder.shoulder_shells), the clavicle's level."""
    run = gs1_on_the_clavicle["run"]
    wrap = next(p for p in run.model.source.belts["belt"].points if p.name == "shoulder")
    assert wrap.geometry == "right_shoulder_shell"
    assert np.allclose(wrap.flank[:3], (0.0, 0.0, 1.0), atol=1e-12)
    assert abs(wrap.flank[3]) < 5e-4, wrap.flank


def _shoulder_points_mm(run, t, times):
    """The belt's shoulder point (forward, outboard, up; mm) in the thorax's frame at ``times``."""
    out, pts = run.results.outputs, []
    for s in times:
        k = int(np.argmin(abs(t - s)))
        c, R, _ = ellipsoids_at(run, k, ["thorax"])["thorax"]
        p = R.T @ (np.array([out[f"belt.shoulder.{a}"][k] for a in "xyz"]) - c)
        pts.append((1e3 * p[0], -1e3 * p[1], 1e3 * p[2]))
    return np.array(pts)


def _shoulder_chest_taut(run, t, times):
    """Whether the belt's shoulder-chest segment carries tension at ``times``."""
    force = run.results.outputs["belt.shoulder-chest.force"]
    return np.array([force[int(np.argmin(abs(t - s)))] > 0.0 for s in times])


def test_reference_gs1_belt_on_the_clavicle_leaves_it_only_when_slack(gs1_on_the_clavicle):
    """Fitted at mid-clavicle and held there, the belt's shoulder point first comes under the
    clavicle's height (45.5 mm over the thorax's centre, less 2 mm: the bound of the test below)
    after its shoulder-chest segment first goes slack, late in the rebound (after 140 ms), every
    0.1 ms: the held wrap's hold does not let go under load; a slack belt's point lies on the line
    between its neighbours, under the clavicle. Measured: slack at 150.1 ms and under at 150.8
    ms on main 09f90cd (run to 175 ms); with the tangent pieces' couples (branch tangentcouple)
    slack at 146.7 ms, under at 147.1 ms (the tensions 1.29 / 1.70 kN 1 ms before: the
    webbing's unloading; scenarios/HISTORY.md, tangentcouple). Until branch beltslack the test
    read the points 10.1 ms early (``_shoulder_points_mm`` handed the late samples' times for
    the run's), saw none under the bound and returned unchecked; read at its samples, the
    point is under it at 147.1 ms, the segment slack at 147.3 (a strict xfail: the shoulder
    wrap's hook handed over to the line from 146.7 ms while the segment still carried 1.18 kN).
    Since the lumbar-pelvis joint (L3/L4) stands two levels above Reed et al.'s L5/S1 (branch
    lumbarheight) the point never comes under the bound within the run (lowest 43.6 mm at 100.2
    ms, the bound 43.5) and the segment never goes slack (0.71 kN at least after 140 ms): the test
    returns unchecked in this run (the xfail's hand-over is not reached). Since the hands rest on
    the thighs' tops (branch gs1hands) a strict xfail: under the bound at 98.0-104.2 ms (43.30
    mm at 101 ms), taut throughout, the flank bounding the wrap's place on the shell while its
    point, lower on the belt's tilted arc, lay under the ridge. Since the flank stops the point
    (branch clavstop) the point never comes under the bound while taut (lowest 45.37 mm at 94.8
    ms, the ridge 45.5): the test returns unchecked in this run, as it can fail only by a point
    under the ridge before the belt goes slack."""
    run, t = gs1_on_the_clavicle["run"], gs1_on_the_clavicle["t"]
    late = t > 0.01
    p = _shoulder_points_mm(run, t, t[late])
    slack = ~_shoulder_chest_taut(run, t, t[late])
    low = p[:, 2] <= 45.5 - 2.0
    if not low.any():
        return
    assert slack.any()
    first_slack, first_low = t[late][slack][0], t[late][low][0]
    assert first_slack > 0.140, first_slack
    assert first_slack <= first_low, (first_slack, first_low)


def test_reference_gs1_belt_on_the_clavicle_path_moves_continuously(gs1_on_the_clavicle):
    """Fitted at mid-clavicle and held there, the shoulder-chest segment's path (round the
    shoulder shell and the thorax) less its chord moves by under 0.5 mm between samples, every
    0.1 ms to 150 ms, through the shoulder wrap's hook being handed over to the line in the
    rebound (from 146.7 ms): the hooked piece counts to the chest wrap's point as it lies
    (carried by the sternum) both while its hook is whole and as it is handed over
    (``belt_path._where_it_lies``). Measured: largest 0.24 mm at 150.0 ms (smooth: the next
    0.235). Before (main 93f589f) the handed-over piece counted to the chest wrap's place on the
    undeformed thorax: 1.54 mm in the one sample at 146.7 ms, the segment 1.24 kN -> 0 and the
    D-ring segment 1.63 -> 1.03 kN in it (scenarios/HISTORY.md, beltslack)."""
    run, t = gs1_on_the_clavicle["run"], gs1_on_the_clavicle["t"]
    out = run.results.outputs
    a, b = (np.stack([out[f"belt.{n}.{c}"] for c in "xyz"], axis=1) for n in ("shoulder", "chest"))
    excess = out["belt.shoulder-chest.length"] - np.linalg.norm(b - a, axis=1)
    steps = np.abs(np.diff(excess[t <= 0.1501]))
    assert steps.max() < 5e-4, (steps.max(), t[1:][np.argmax(steps)])


def test_reference_gs1_belt_on_the_clavicle_stays_on_the_shoulder(gs1_on_the_clavicle):
    """Held at or above the clavicle, the belt fitted at mid-clavicle stays over it while it is
    taut: its shoulder point 60-140 mm outboard of the midline (mid-clavicle 100 mm [E], the
    shoulder shell from 0 to 208 mm) every 5 ms to 150 ms, and at or above the clavicle's height
    (45.5 mm over the thorax's centre, less 2 mm: the bound closes its gap with a time constant,
    ``restraints.belt.flank_bound``; 44.0 mm at 100 ms) every 5 ms to 150 ms where the
    shoulder-chest segment carries tension, which it does at every sample to 140 ms. A slack
    belt's point lies on the line between its neighbours (test below): in the rebound the
    segment goes slack at 150.1 ms on main 09f90cd (its point down to 6.6 mm at 155 ms, back
    over the clavicle by 162 ms), at 146.7 ms with the tangent pieces' couples (branch
    tangentcouple; -30.4 mm at 150 ms), which the test read to 150 ms as the belt leaving the
    shoulder (measured; the points of the taut samples 45.4 mm and over after 100 ms on both).
    Fitted there alone it slides outboard
    down over the acromion from 90 ms (137 mm outboard, 23 mm up at 100 ms) and leaves the
    shoulder at 115 ms (test above). The torso turns about the belted shoulder as the PMHS's: the
    left acromion inside Ash et al.'s corridor at 70, 80, 90 and 100 ms (measured 205, 266, 321,
    369 mm; 406 at 110 ms, 2 mm over), T1 under 30 g before 95 ms (27.9), and the shoulder belts
    and the right acromion's peak inside their corridors (6.64 / 5.63 kN, 121.9 mm). Since the
    hands rest on the thighs' tops (branch gs1hands, main 7168433 -> the branch): the height
    check moved to the strict xfail below (the point 43.29 mm at 101 ms); the shoulder point
    105.5-132.5 mm outboard, the left acromion 202.8 -> 203.7, 262.8 -> 264.4, 317.3 -> 317.0 and
    366.6 -> 364.9 mm at 70-100 ms, T1 28.5 -> 27.8 g before 95 ms, the shoulder belts 6.70 ->
    6.89 and 5.67 -> 5.45 kN, the right acromion 132.0 -> 138.7 mm (its corridor's top 139.0).
    From stop 45's recovery (a8232fa) to branch clavstop this body stood under the strict xfail
    below, behind its height check, and was not run; run again, every check here passes on main
    647b827 and on the branch (the point 105.6-132.1 mm outboard, taut to 140 ms, the left
    acromion 202.7 / 263.8 / 318.0 / 366.2 mm at 70-100 ms, T1 27.8 g before 95 ms, the belts
    6.87 / 5.41 kN on main, 6.74 / 5.41 on the branch) but the right acromion's peak: test
    below."""
    hist, t, run = gs1_on_the_clavicle["history"], gs1_on_the_clavicle["t"], gs1_on_the_clavicle["run"]
    times = np.arange(0.0, 0.1501, 0.005)
    p = _shoulder_points_mm(run, t, times)
    taut = _shoulder_chest_taut(run, t, times)
    assert taut[times < 0.1401].all(), times[~taut]
    assert (60.0 < p[:, 1]).all() and (p[:, 1] < 140.0).all(), p
    ash = _ash_corridors()
    for ms in (70, 80, 90, 100):
        left = hist["left_acromion_x_mm"][np.argmin(abs(t - ms / 1e3))]
        assert ash["laXl"][ms] <= left <= ash["laXu"][ms], (ms, left)
    assert -hist["t1_x_g"][t < 0.095].min() < 30.0
    _assert_inside(gs1_on_the_clavicle, "shoulder_belt_force_kN", "lower_shoulder_belt_force_kN")


@pytest.mark.xfail(strict=True, reason=(
    "the belted (right) acromion goes 140.5 mm forward, 1.5 mm over Ash et al.'s 139.0 (main "
    "647b827: 141.0; 138.7 as branch gs1hands measured it, 132.0 before): the check stood "
    "unrun behind the height check's xfail from stop 45's recovery to branch clavstop "
    "(scenarios/validation/HISTORY.md, clavstop)"))
def test_reference_gs1_belt_on_the_clavicle_holds_the_belted_acromion_in_its_corridor(
        gs1_on_the_clavicle):
    """Held on the clavicle, the belted acromion's peak forward excursion lies inside Ash et
    al.'s (2012) corridor (96.4-139.0 mm), as it did when the clavicle hold was written (121.9
    mm, branch gs1clavicle); split from the test above (branch clavstop)."""
    _assert_inside(gs1_on_the_clavicle, "right_acromion_x_excursion_mm")


def test_reference_gs1_belt_on_the_clavicle_stays_at_its_height(gs1_on_the_clavicle):
    """Held at or above the clavicle, the belt fitted at mid-clavicle stays at or above the
    clavicle's height (45.5 mm over the thorax's centre, less 0.5 mm [E]: the stop lets the point
    pass the ridge by what the place slides in a step before its closing rate takes it back;
    less 2 mm before branch clavstop) every 5 ms to 150 ms where the shoulder-chest segment
    carries tension (split from the test above by branch gs1hands). A
    strict xfail until branch clavstop: the flank bounded the wrap's place on the shoulder shell,
    which stood on the ridge while the point (the middle of the wrap, where the belt presses on
    the body), lower on the belt's tilted arc, lay under it: 43.30 mm at 101 ms on main 647b827
    (98.0-104.2 ms under 43.5; 44.0 mm at 100 ms as written). The flank now stops the point
    (``restraints.belt_wraps.flank_bound``): lowest 45.37 mm at 94.8 ms, 45.4-45.5 mm from 93 to
    150 ms."""
    run, t = gs1_on_the_clavicle["run"], gs1_on_the_clavicle["t"]
    times = np.arange(0.0, 0.1501, 0.005)
    p = _shoulder_points_mm(run, t, times)
    taut = _shoulder_chest_taut(run, t, times)
    assert (p[taut, 2] > 45.5 - 0.5).all(), p[taut, 2].min()


@pytest.mark.xfail(strict=True, reason=(
    "on the clavicle the belt stays on the shoulder (test above) but holds the belted acromion "
    "back early (53-72 mm at 70-100 ms, Ash 80.6-137.1), the torso turns on past the PMHS's "
    "(left acromion 463 mm, 339.8-416.2; the trunk's axial joints at their range ends: "
    "thorax-lumbar -32 of 33.5 deg at 100 ms, lumbar-pelvis -11.5 of 11.5 at 90 ms) and flexes "
    "forward (head 493.6 mm), and the late lumbar flexion moments (thorax-lumbar -1.2 kN m at "
    "123 ms, lumbar-pelvis -0.85 kN m at 118 ms) stop it: T1 / T8 / L2 x 84.5 / 38.0 / 33.9 g "
    "at 123.5 / 117.4 / 123.6 ms (27.9 / 23.7 / 25.5 g before 95 ms) "
    "(scenarios/validation/HISTORY.md Stop 40, branch gs1clavicle); with the flank a stop on the "
    "point (branch clavstop, main 647b827 -> the branch): T1 / T8 / L2 70.7 -> 69.8, 29.5 -> 29.2, "
    "27.3 -> 27.3 g, T1's at 125.4 ms as the thorax-lumbar joint flexes to 23.4 deg (1.03 kN m, past "
    "Anderson & Pandy's moment_cap, where the [E] end slope acts as a stop; the axial joints then "
    "carry under 0.1 kN m), head 503.6 -> 502.9 mm, left acromion 466.6 -> 465.6 mm"))
def test_reference_gs1_belt_on_the_clavicle_keeps_the_spine_in_its_corridors(gs1_on_the_clavicle):
    """On the clavicle the spine's x decelerations lie inside the PMHS's corridors (T1 8.35-22.09,
    T8 19.97-23.60, L2 18.65-24.92 g), as do the head's and the far acromion's excursions."""
    _assert_inside(gs1_on_the_clavicle, "t8_x_deceleration_g", "l2_x_deceleration_g", "t1_x_deceleration_g",
                   "head_x_excursion_mm", "left_acromion_x_excursion_mm")


# How deep a belt's path may lie inside a torso or thigh ellipsoid it does not wrap [D]: about
# the model's own error. The belt's force acts along straight segments between its wrap
# points, chords lying s^2 / (8 r) inside the surface the webbing follows: 15 mm for the lap
# belt's three wraps, s = 0.13 m apart at the start over the pelvis flesh (r about 0.14 m: its
# fore-aft semi-axis 0.13 m, across 0.20 m); 20 mm is the chord of 0.15 m over that radius.
PATH_DEPTH = 0.020      # m


def gs1_belt_depths(gs1, belt):
    """(times, [{ellipsoid: depth}], [{ellipsoid: depth over the loaded pieces}]) every 5 ms to
    150 ms of the run's belt ``belt``: a piece (between two of its points) loaded while its own
    force is over 10 % of its own peak. Judged by one force for the whole path, the lower
    shoulder belt's piece through the pelvis flesh read loaded by the upper belt's force while
    it was slack (0.00 kN at 140 ms), and unloaded while it carried 0.97 kN at 135 ms (branch
    humanface, scenarios/validation/HISTORY.md)."""
    run, t = gs1["run"], gs1["t"]
    names = [p.name for p in run.model.source.belts[belt].points]
    F = np.array([run.results.outputs[f"{belt}.{a}-{b}.force"] for a, b in zip(names, names[1:])])
    loaded = F > 0.1 * F.max(axis=1, keepdims=True)
    ks = [int(np.argmin(abs(t - s))) for s in np.arange(0.0, 0.1501, 0.005)]
    return (t[ks], [belt_depths(run, belt, k, TORSO_AND_THIGHS) for k in ks],
            [belt_depths(run, belt, k, TORSO_AND_THIGHS, np.flatnonzero(loaded[:, k]))
             for k in ks])


def _deepest_while_loaded(gs1, belt):
    """{ellipsoid: the deepest the belt's loaded pieces lie inside it}, printing every torso and
    thigh ellipsoid's deepest over the whole run too."""
    times, depths, loaded = gs1_belt_depths(gs1, belt)
    worst = {}
    for name in TORSO_AND_THIGHS:
        d, dl = np.array([x[name] for x in depths]), np.array([x[name] for x in loaded])
        print(f"{belt} in {name}: {1e3 * d.max():.1f} mm at {1e3 * times[d.argmax()]:.0f} ms, "
              f"{1e3 * dl.max():.1f} mm at {1e3 * times[dl.argmax()]:.0f} ms while loaded")
        worst[name] = dl.max()
    return worst


def test_reference_gs1_lap_belt_lies_on_the_body(gs1):
    """While loaded (over 10 % of its peak) the lap belt's path (restraints.belt_clearance,
    rebuilt from its points) lies no more than PATH_DEPTH inside any torso or thigh ellipsoid of
    the human (thorax, abdomen, buttock, thighs; the pelvis flesh it wraps is checked off its
    arcs): it lies on the pelvis, not through the abdomen or the thighs. On lap_belt_pelvis (the
    Hybrid III's belt line) it lay 31-44 mm inside the pelvis flesh and 56-97 mm through the
    inboard thigh; over the pelvis flesh at most 15.0 mm while loaded (in the abdomen, at 150 ms
    in the rebound's re-loading, the pieces either side of the belt's middle), 3.0 mm in the
    outboard (left) thigh at 120 ms (its pieces judged by their own forces); 12.5 and 4.2 mm
    (125 ms) before the face was on in GS1."""
    worst = _deepest_while_loaded(gs1, "lap_belt")
    assert max(worst.values()) < PATH_DEPTH, worst


@pytest.mark.xfail(strict=True, reason=(
    "34.2 mm in the pelvis flesh at 130 ms on gravitybelt2 merged with main 62a71a8 (branch "
    "gs1merge); 34.9 mm at 135 ms on gravitybelt2 alone (the rebound, the lower shoulder belt's piece from the "
    "abdomen wrap to the buckle carrying 1.3 kN) since the held abdomen wrap is placed and judged "
    "from the thorax run's tangent point and the belt's fit converges (branch gravitybelt2; 18.3 "
    "mm on main 93f7a72): from 100 ms the abdomen wrap slides towards the belly's middle and down "
    "(its scaled-frame direction 0.52 / 0.85 / 0.08 -> 0.73 / 0.67 / -0.16 at 130 ms, main's "
    "staying at 0.54 / 0.84 / -0.01) and the piece to the buckle passes over the pelvis flesh, "
    "which the shoulder belt does not wrap; 34.3 mm at 140 ms with the tangent point alone; the "
    "abdomen wrap's path length measured in the same plane (belt_path._piece_from) changed "
    "nothing (scenarios/HISTORY.md, gravitybelt2). Traced (branch gs1belly): the slide is the held "
    "wrap's friction law (belt_wraps._held_slide), the belt's plane through the thorax's tangent "
    "point and the buckle tilting past the friction (|h| / r 0.21 at 80 ms, 0.39 / 0.42 / 0.57 at "
    "90 / 100 / 110 ms, mu 0.3) as the thorax flexes over the abdomen, the wrap reaching that "
    "plane's shortest path (h 0.00 at 130 ms); the belt's own pull that way exceeds the excess "
    "(bounded by it, unchanged). A last wrap on the pelvis flesh keeps the piece to the buckle "
    "out of it (test_reference_gs1_groin_wrap_keeps_the_shoulder_belt_on_the_body) but lifts "
    "the lower shoulder belt out of its corridor, so it is not set"))
def test_reference_gs1_shoulder_belt_lies_on_the_body(gs1):
    """While loaded (over 10 % of its peak) the shoulder belt's path lies no more than
    PATH_DEPTH inside any torso or thigh ellipsoid of the human it does not wrap: 12.8 mm in the
    pelvis flesh, 5.5 mm in the thorax, since the buckle stands at the deck's offset from the
    human's own lap belt middle (58 mm further back). Since the trunk's sagittal range split by
    vertebral level (joint_rom.toml) 20.1 mm in the pelvis flesh (strict xfail: the lower
    shoulder belt's straight piece from the abdomen wrap to the buckle cut deeper into the
    pelvis flesh's top); since the lumbar joints' lateral bending is the PMHS lumbar spine's
    (joint_passive.toml; the trunk no longer meets the Hybrid III's stops past its lateral
    range) 18.4 mm, 5.9 mm in the thorax (not tuned: measured); judged piece by piece (each by
    its own force, gs1_belt_depths) 20.6 mm in the pelvis flesh, 6.4 mm in the thorax (strict
    xfail); since the face is on in GS1, 22.4 mm and 6.4 mm (strict xfail: the lower shoulder
    belt's straight piece from the abdomen wrap to the buckle at 135 ms carrying 1.16 kN, 17 % of
    its 6.81 kN peak, deeper in the rebound as the abdomen wrap came 63 mm down and 78 mm forward
    over the pelvis and the buckle 30-70 mm back). Since the tangent pieces pull at their tangent
    points (branch tangentcouple): 22.4 -> 18.3 mm in the pelvis flesh (135 ms), 6.4 -> 6.3 mm in
    the thorax (measured; passes). Before (strict xfail): with the
    buckle placed from the Hybrid III's belt middle its straight piece from the abdomen wrap
    passed up to 19 mm through the pelvis flesh's inboard top and 30 mm through the inboard
    thigh while loaded (a further wrap on the pelvis flesh cleared it but the run jumped: 22.5
    kN at 150 ms). Without the abdomen wrap the piece from the chest passed 106 mm through the
    abdomen and 100 mm through the pelvis flesh (scenarios/validation/HISTORY.md)."""
    worst = _deepest_while_loaded(gs1, "belt")
    assert max(worst.values()) < PATH_DEPTH, worst


# The shoulder belt's last wrap on the pelvis flesh before the buckle (``[restraints.belt] groin``;
# measured, not shipped: scenarios/HISTORY.md, gs1belly)
GROIN_WRAP = {"restraints.belt.groin": "pelvis_flesh"}


@pytest.fixture(scope="module")
def gs1_groin_run():
    """The GS1 case run with GROIN_WRAP: gs1_run's dict."""
    return gs1_run(GROIN_WRAP)


def test_reference_gs1_groin_wrap_keeps_the_shoulder_belt_on_the_body(gs1_groin_run):
    """With a last wrap on the pelvis flesh (GROIN_WRAP) the shoulder belt's path lies within
    PATH_DEPTH of every torso and thigh ellipsoid while loaded, where the case's lies 34.2 mm
    in the pelvis flesh (test_reference_gs1_shoulder_belt_lies_on_the_body): the abdomen wrap
    still slides to the belly's shortest path from 90 ms, and the piece from it now runs over
    the pelvis flesh to the buckle. Measured (branch gs1belly): thorax 4.8, abdomen 1.1, pelvis
    flesh 0.0 mm. Not set in the case: the lower shoulder belt, over the pelvis instead of
    through it, carries 7.01 kN at most, over the PMHS corridor's 6.52 (6.47 kN, inside, without
    the wrap; 6.77 kN with the wrap frictionless, so mostly the longer path, not its friction),
    and the groin wrap's point jumps 9 mm at 109.0 ms (its segment's force 5.47 -> 6.77 kN in
    one sample). Since the condyles below the tragion and the head's com ahead of them (branch
    chancey): 7.01 -> 6.91 kN, the head's excursion 369.1 -> 352.4 mm."""
    run = gs1_groin_run
    points = run["run"].model.source.belts["belt"].points
    assert [p.name for p in points][-4:] == ["chest", "abdomen", "groin", "buckle"]
    assert points[-2].geometry == "pelvis_flesh" and points[-2].across is None
    worst = _deepest_while_loaded(run, "belt")
    assert max(worst.values()) < PATH_DEPTH, worst
    assert 1e3 * worst["pelvis_flesh"] == pytest.approx(0.0, abs=1.0)
    value, inside = run["checks"]["lower_shoulder_belt_force_kN"]
    assert value == pytest.approx(6.91, abs=0.05) and not inside
    assert run["checks"]["head_x_excursion_mm"][0] == pytest.approx(352.4, abs=2.0)


def _largest_force_step(run, belt):
    """The largest change (N) of any of the run's ``belt`` segment forces from one output sample
    (0.1 ms) to the next."""
    out = run["run"].results.outputs
    return max(np.abs(np.diff(out[k])).max() for k in out
               if k.startswith(f"{belt}.") and k.endswith(".force"))


@pytest.mark.xfail(strict=True, reason=(
    "the abdomen wrap lifts off at 109.0 ms (its held plane through its place shrinks to it: "
    "h 0.91 -> 0.9996, r 0.41 -> 0.03 over 0.03 ms, then the short way no longer wraps, hook "
    "weight 1 -> 0) and place_held places the chain with it handed over (_handed_end): the "
    "groin run from the thorax run's point, the middle of its arc, not from the abdomen's point "
    "on the straight piece between the thorax and groin tangent points; the groin wrap steps "
    "9.4 mm, the shoulder-chest segment 6.43 -> 5.14 kN and the abdomen-groin 5.47 -> 6.77 kN in "
    "one sample (1.30 kN; the case's own largest 0.47 kN). Placed from the runs' tangent points "
    "(held_end) the step at 109 ms goes but the abdomen wrap then flips between touching and "
    "handed over every 0.1-0.2 ms from 133 ms (steps to 1.6-2.1 kN): not kept (scenarios/"
    "HISTORY.md, groinjump)"))
def test_reference_gs1_groin_wrap_moves_the_belt_smoothly(gs1, gs1_groin_run):
    """With the groin wrap (GROIN_WRAP) the shoulder belt's segment forces change from one sample
    to the next by no more than 1.5 times the case's own largest change without it when this was
    written (0.47 kN on main c806109, at 148 ms): the wrap adds no step of its own. Measured
    (branch groinjump): 1.30 kN at 109.0 ms. A fixed bound since the case's own step at 148 ms,
    a held wrap's hand-over in the rebound whose height depends on where the sample falls, grew
    to 1.89 kN when the pressed contacts started on their loading history (branch settlez), and
    the bound with it."""
    assert _largest_force_step(gs1_groin_run, "belt") < 1.5 * 0.47e3


def test_reference_gs1_groin_must_name_an_occupant_ellipsoid():
    """``groin`` names an occupant ellipsoid; anything else is refused naming the key."""
    with pytest.raises(ScenarioError, match=r"restraints.belt.groin: unknown geometry "
                                            r"'no_such_ellipsoid' \(accepted: pelvis_flesh"):
        load("us_ncap_frontal_56", overrides={"restraints.belt.groin": "no_such_ellipsoid"})


def test_reference_gs1_abdomen_wrap_is_built(gs1):
    """``[restraints.belt] abdomen`` puts a wrap on that ellipsoid after the chest wrap, before
    the buckle, held across the belt by the belt-body friction; fitted on the abdomen's
    surface."""
    run = gs1["run"]
    points = run.model.source.belts["belt"].points
    assert [p.name for p in points][-3:] == ["chest", "abdomen", "buckle"]
    assert points[-2].geometry == "abdomen" and points[-2].across == points[-2].friction == 0.3
    x = np.array([run.results.outputs[f"belt.abdomen.{a}"][0] for a in "xyz"])
    c, R, D = ellipsoids_at(run, 0, ["abdomen"])["abdomen"]
    assert np.linalg.norm(R.T @ (x - c) / D) == pytest.approx(1.0, abs=1e-6)


def test_reference_gs1_ribcage_carries_both_thorax_wraps(gs1):
    """``[restraints.belt] ribcage``, on by default for a human (the GS1 file does not set it):
    the shoulder and chest wraps on the thorax both carried by the sternum with the human's belt
    share (thorax.toml [belt]: a third, Kent et al. 2003's
    diagonal belt about three times stiffer than the hub at mid-sternum); the abdomen's wrap and
    the lap belt's carried by nothing."""
    from occupant.human.builder import thorax_table
    share = thorax_table()["belt"]["sternum_share"]
    assert share == pytest.approx(1.0 / 3.0, abs=1e-3)
    model = gs1["run"].model.source
    wraps = {p.name: p for p in model.belts["belt"].points if hasattr(p, "geometry")}
    for name in ("shoulder", "chest"):
        assert wraps[name].geometry == "thorax"
        assert (wraps[name].carrier, wraps[name].share) == ("sternum", share)
    assert wraps["abdomen"].carrier is None and wraps["abdomen"].share == 1.0
    assert all(p.carrier is None for p in model.belts["lap_belt"].points if hasattr(p, "geometry"))


def test_identity_gs1_energy_balance(gs1):
    """The run's energy balance closes to within 1 % of the energy exchanged."""
    e = gs1["results"].energy
    assert abs(e["balance"][-1]) < 0.01 * np.max(np.abs(e["work"]))


def test_reference_gs1_human_is_a_pmhs(gs1):
    """neck_activation = "none" in the case's [human] reaches the scenario's occupant.human: the
    human has no neck muscles (the 50th male with muscles has 12)."""
    assert len(gs1["model"].source.muscles) == 0
    assert gs1["model"].name.startswith("human_male_1.753m")


GS1_DECK_LAP_ANCHOR_FROM_MIDDLE = np.array([-0.2952, -0.5069])   # m (x, z), B0: the deck's lap
# retractor node 91001723 from its lap belt's middle node 31 (data/gs1_sled_40_human.toml) [D]


def test_regression_gs1_why_the_lap_belt_carries_little(gs1):
    """The measured reasons the outboard lap belt peaks at 1.0 kN (PMHS corridor 1.60-2.21 kN),
    held so that a change that moves them shows (scenarios/validation/HISTORY.md, GS1 "Why the lap
    belt carries little"): the belt's middle lies on the pelvis flesh's crown, 15 mm behind and
    150 mm above the H-point in B0, 77 mm behind and 85 mm above the belt middle the lap
    anchorage was placed from with the deck's offset (so its leg to the anchorage runs 66-71 deg
    from the horizontal, the deck's 60); it does not ride up the pelvis (under 6 mm up); its path
    lengthens at most 17 mm (70 ms) with 5 mm of payout; at its peak it pulls the body 0.9 kN
    back and 2.6 kN down while the knee supports push 8.8-9.1 kN back. Since the body's
    proportions and the sternum's place follow their sources (body_proportions.toml, thorax.toml):
    its path lengthens 17.1 -> 15.6 mm with 5.2 -> 4.4 mm of payout, its pull at 75 ms 0.89 ->
    0.84 kN back and 2.62 -> 2.47 kN down, the knee supports 8.5-9.1 -> 8.4-9.2 kN. Since the
    neck's base at C7/T1 (the upper body's mass further forward): its pull at 75 ms 0.84 -> 0.71
    kN back and 2.47 -> 2.04 kN down; the path 15.2 mm longer with 4.6 mm of payout, the knee
    supports 8.3-9.2 kN. Since the segments are measured along the belt's path, tangent pieces
    and arcs over the wraps (branch beltarcs): the peak 0.95 -> 1.06 kN, the path lengthens
    15.6 -> 18.3 mm with 4.4 -> 6.0 mm of payout, its pull at 75 ms (the end segments' tensions
    along their chords) 0.71 -> 0.78 kN back and 2.04 -> 2.30 kN down, the knee supports
    8.3-9.1 kN. Since the tangent pieces pull at their tangent points (branch tangentcouple;
    main 09f90cd -> the branch): the peak 1.07 -> 1.10 kN, its pull at 75 ms 0.77 -> 0.70 kN
    back and 2.27 -> 2.00 kN down (measured, not traced), the path 18.3 -> 18.2 mm longer with 6.0 -> 6.3 mm of payout,
    the knee supports 8.3-9.1 kN. Since the lumbar-pelvis joint (L3/L4) stands two levels above Reed et al.'s L5/S1, 30.7 mm higher (branch lumbarheight; main 97e82ed -> the branch): the peak 1.09 -> 1.18 kN, its pull at 75 ms 0.70 ->
    0.85 kN back and 2.00 -> 2.41 kN down, the path 18.2 -> 19.7 mm longer with 6.3 -> 6.8 mm of
    payout, the knee supports 8.4-9.2 -> 8.1-9.0 kN. Since the belt's held abdomen wrap is placed from the thorax run's tangent point and the fit's sweeps settle (branch gravitybelt2, main 93f7a72 -> the branch): the peak
    1.17 -> 0.82 kN, its pull at 75 ms 0.85 -> 0.74 kN back and 2.41 -> 2.19 kN down, the path
    19.7 -> 15.3 mm longer with 6.8 -> 3.8 mm of payout, the knee supports 8.0-8.8 kN.
    The three merged (branch gs1merge, main 62a71a8 -> merged): the peak 1.21 -> 0.83 kN, its pull
    at 75 ms 0.76 kN back and 2.23 kN down, the path 16.1 mm longer with 4.5 mm of payout, the knee
    supports 7.8-8.7 kN; the lap wrap placed 15.5 / 149.9 mm behind / above the H-point, its
    outboard leg at 65.8-71.1 deg."""
    out, t = gs1["results"].outputs, gs1["t"]
    res, model = gs1["results"], gs1["model"]
    pt = {n: np.stack([out[f"lap_belt.{n}.{a}"] for a in "xyz"], 1)
          for n in ("lap_anchor", "hip_outboard", "lap", "hip_inboard", "buckle")}
    h = res.body_poses[:, model.body("pelvis"), :3, 3] - res.base_poses[:, :3, 3]
    middle = pt["lap"][0] - h[0]
    assert 1e3 * middle[[0, 2]] == pytest.approx([-15.5, 149.9], abs=2.0)
    placed_from = pt["lap_anchor"][0, [0, 2]] - GS1_DECK_LAP_ANCHOR_FROM_MIDDLE
    assert 1e3 * (pt["lap"][0, [0, 2]] - placed_from) == pytest.approx([-77.7, 85.0], abs=2.0)
    leg = pt["lap_anchor"] - pt["hip_outboard"]
    crash = (t >= 0.03) & (t <= 0.10)
    angle = np.degrees(np.arctan2(-leg[crash, 2], -leg[crash, 0]))
    assert (angle.min(), angle.max()) == pytest.approx((65.8, 71.1), abs=1.0)
    segments = ("lap_anchor-hip_outboard", "hip_outboard-lap", "lap-hip_inboard", "hip_inboard-buckle")
    length = sum(out[f"lap_belt.{s}.length"] for s in segments)
    k = np.argmax(length)
    assert 1e3 * (length[k] - length[0]) == pytest.approx(16.1, abs=1.5)
    assert 1e3 * out["lap_belt.payout"][k] == pytest.approx(4.5, abs=1.0)
    u_a = leg / np.linalg.norm(leg, axis=1)[:, None]
    u_b = pt["buckle"] - pt["hip_inboard"]
    u_b /= np.linalg.norm(u_b, axis=1)[:, None]
    on_body = (out["lap_belt.lap_anchor-hip_outboard.force"][:, None] * u_a
               + out["lap_belt.hip_inboard-buckle.force"][:, None] * u_b)
    i = np.argmin(abs(t - 0.075))
    assert 1e-3 * on_body[i, [0, 2]] == pytest.approx([-0.76, -2.23], abs=0.1)
    knees = sum(out[f"{s}_knee_contact__knee_support.normal_force"] for s in ("left", "right"))
    peak = (t >= 0.06) & (t <= 0.08)
    assert 1e-3 * knees[peak].min() == pytest.approx(7.84, abs=0.3)
    assert 1e-3 * knees[peak].max() == pytest.approx(8.73, abs=0.3)


def test_regression_gs1_lap_belt_follows_the_hips_forward_and_down(gs1):
    """What sets the outboard lap belt's load, measured and held so that a change that moves it
    shows (scenarios/HISTORY.md, "GS1's lap belt: the hips stop early and sink", gs1lap). At its
    peak (70 ms) the belt's middle has gone 62 mm forward and 18 mm down in B0 (the hips 26 mm
    forward and 15 mm down: they sink into the rigid pan, which carries 8-10 kN). Its legs are
    steep, 66.5 deg from the horizontal to the anchorage and 73.7 deg to the buckle, so a leg
    gains the middle's forward travel times the cosine and loses its drop times the sine: the
    middle's motion along the legs lengthens the outboard leg by 8.4 mm and the buckle's by 0.2
    mm (the path 16 mm longer, the rest from the wraps as the pelvis turns under the belt). The
    knee supports stop the hips by 60 ms (under 2 mm more to 90 ms); from the peak to 90 ms the
    middle goes 1.8 mm forward and 6.5 mm down, the path shortens 16 mm and the belt is slack
    (under 0.05 kN) by 85 ms, where the PMHS's corridor holds 1.1-2.1 kN to 90 ms."""
    out, t = gs1["results"].outputs, gs1["t"]
    res, model = gs1["results"], gs1["model"]
    hips = res.body_poses[:, model.body("pelvis"), :3, 3] - res.base_poses[:, :3, 3]
    middle = np.stack([out[f"lap_belt.lap.{a}"] for a in "xyz"], 1)
    force = out[f"{LAP_SEGMENT_SEPARATE}.force"]
    k = np.argmax(force)
    at = {ms: np.argmin(abs(t - ms / 1e3)) for ms in (60, 85, 90)}
    assert 1e3 * t[k] == pytest.approx(70.3, abs=3.0)
    assert 1e3 * (middle[k] - middle[0])[[0, 2]] == pytest.approx([62.4, -18.0], abs=3.0)
    assert 1e3 * (hips[k] - hips[0])[[0, 2]] == pytest.approx([26.3, -15.0], abs=3.0)
    segments = ("lap_anchor-hip_outboard", "hip_outboard-lap", "lap-hip_inboard", "hip_inboard-buckle")
    length = sum(out[f"lap_belt.{s}.length"] for s in segments)
    moved = 1e3 * (middle[k] - middle[0])[[0, 2]]
    for end, hip, angle, gain in (("lap_anchor", "hip_outboard", 66.5, 8.4),
                                  ("buckle", "hip_inboard", 73.7, 0.2)):
        leg = np.array([out[f"lap_belt.{hip}.{a}"][k] - out[f"lap_belt.{end}.{a}"][k] for a in "xz"])
        u = leg / np.linalg.norm(leg)                       # along the leg, up and forward
        assert np.degrees(np.arctan2(u[1], u[0])) == pytest.approx(angle, abs=1.5)
        assert u @ moved == pytest.approx(gain, abs=1.5)
    assert 1e3 * (length[k] - length[0]) == pytest.approx(16.1, abs=1.5)
    assert 1e3 * np.ptp(hips[at[60]:at[90] + 1, 0]) < 2.0
    assert 1e3 * (middle[at[90]] - middle[k])[[0, 2]] == pytest.approx([1.8, -6.5], abs=2.0)
    assert 1e3 * (length[at[90]] - length[k]) == pytest.approx(-16.3, abs=2.0)
    assert force[at[85]] < 50.0


@pytest.mark.xfail(strict=True, reason=(
    "the human's knees go 17 mm and its hips 21 mm forward by 40 ms (the PMHS's upper boundaries "
    "10.6 and 19.2 mm; knees out at 32-51 ms, hips at 38-42 and 50-55 ms), then stop on the knee "
    "supports by 60-70 ms (hips 26 mm, knees 25 mm) where the PMHS's go on to 80-100 ms: the "
    "knee supports are a linear 200 kN/m [E] at the knees; at 1.25e6 N/m (the Hybrid III's knee "
    "flesh, dummies/body_contacts.toml) the hips stay inside throughout but the knees stop at 9 "
    "mm (out from 68 ms) and the lap belt carries 0.46 kN; at 100 or 50 kN/m both run further "
    "ahead early (hips out at 37-58 and 36-65 ms) (scenarios/HISTORY.md, gs1lap)"))
def test_reference_gs1_lower_body_keeps_the_pmhs_pace(gs1):
    """The hips (H-point) and knees go forward relative to the sled inside Shaw et al.'s (2009)
    Hip_x_disp and Knee_x_disp corridor boundaries (data/gs1_corridor_boundaries.csv, each
    boundary linear between its points in time order, the lower of the two taken as the lower
    bound) at every millisecond from 32 to 100 ms: the PMHS's stay within 19-25 mm (hips) and
    11-18 mm (knees) of the sled to 40-50 ms, then go on forward to their peaks at 80-100 ms,
    loading the lap belt to its 77-82 ms peak. From 32 ms: before it the knees' upper boundary
    lies below zero (-1 to -8 mm at 1-28 ms), which no knee at rest on its support meets."""
    bounds = _shaw_boundaries()
    t = 1e3 * gs1["t"]
    ms = np.arange(32.0, 100.5, 1.0)
    outside = {}
    for name, key in (("Hip", "hip_x_mm"), ("Knee", "knee_x_mm")):
        value = np.interp(ms, t, gs1["history"][key])
        lo, hi = np.sort([np.interp(ms, *bounds[f"{name}_x_disp_{side}"][
            np.argsort(bounds[f"{name}_x_disp_{side}"][:, 0], kind="stable")].T)
                          for side in ("neg", "pos")], axis=0)
        outside[name] = ms[(value < lo) | (value > hi)]
    assert all(v.size == 0 for v in outside.values()), outside


GS1_DECK_BUCKLE_FROM_MIDDLE = np.array([-0.0854, -0.2822])   # m (x, z), B0: the deck's buckle
# tongue end node 91001404 from its lap belt's middle node 31 (data/gs1_sled_40_human.toml) [D]
# The lap belt on the human's tissue round the ASIS (builder.asis_flesh) with the buckle and the
# lap anchorage at the deck's offsets from its own middle, iterated to 1 mm (measured, not
# shipped: scenarios/validation/HISTORY.md, GS1 "The lap belt at the ASIS")
AT_THE_ASIS = {"restraints.belt.pelvis": "asis_flesh",
               "restraints.belt.buckle": [-0.0383, 0.21, -0.1325],
               "restraints.belt.lap_anchor": [-0.2481, -0.30, -0.3572]}


@pytest.fixture(scope="module")
def gs1_at_the_asis():
    """The GS1 case's start with its lap belt AT_THE_ASIS."""
    return gs1_start(AT_THE_ASIS)


def test_regression_gs1_lap_belt_at_the_asis_lies_in_the_pelvis_flesh(gs1_at_the_asis):
    """On the tissue round the ASIS (UMTRI's belt 45 mm from it) the lap belt's middle lies 47 mm
    ahead of and 150 mm above the H-point (62 mm ahead of its place on the pelvis flesh's crown),
    the deck's buckle and lap anchorage offsets from it (so placed); its path then lies 29 mm
    inside the human's pelvis flesh at the start (over PATH_DEPTH: the volume ellipsoid's front
    stands 68 mm ahead of the ASIS), the reason, with T1 leaving its corridor and no gain in the
    lap belt's load (1.01 kN), it was not adopted (scenarios/validation/HISTORY.md)."""
    run = gs1_at_the_asis
    res, model, out = run.results, run.model, run.results.outputs
    h = res.body_poses[0, model.body("pelvis"), :3, 3] - res.base_poses[0, :3, 3]
    middle = np.array([out[f"lap_belt.lap.{a}"][0] for a in "xz"]) - h[[0, 2]]
    assert 1e3 * middle == pytest.approx([47.3, 149.6], abs=1.0)
    for end, offset in (("buckle", GS1_DECK_BUCKLE_FROM_MIDDLE),
                        ("lap_anchor", GS1_DECK_LAP_ANCHOR_FROM_MIDDLE)):
        assert np.array(AT_THE_ASIS[f"restraints.belt.{end}"])[[0, 2]] == pytest.approx(
            middle + offset, abs=1.5e-3)
    depth = belt_depths(run, "lap_belt", 0, TORSO_AND_THIGHS)
    assert 1e3 * depth["pelvis_flesh"] == pytest.approx(29.2, abs=2.0)
    assert depth["pelvis_flesh"] > PATH_DEPTH


def _point_following(gs1, body, x_mm, z_up_mm, ms):
    """The point of ``body`` whose sagittal motion relative to the sled best follows a measured
    trajectory (``x_mm``, ``z_up_mm`` from the start, at the times ``ms``): a body point's
    displacement is linear in where it lies, (R(t) R(0)^T - I) r + (o(t) - o(0)), so the least
    squares over x and z give its start r (x, z mm from the body's origin in the sled's frame at
    the start, its lateral offset 0): (r, the rms residual mm)."""
    res, model, t = gs1["results"], gs1["model"], gs1["t"]
    P = res.body_poses[:, model.body(body)]
    R, o = P[:, :3, :3], P[:, :3, 3] - res.base_poses[:, :3, 3]
    rows, rhs = [], []
    for m, x, z in zip(ms, x_mm, z_up_mm):
        k = int(np.argmin(abs(t - m / 1e3)))
        rows.append((R[k] @ R[0].T - np.eye(3))[np.ix_([0, 2], [0, 2])])
        rhs.append(1e-3 * np.array([x, z]) - (o[k] - o[0])[[0, 2]])
    A, b = np.concatenate(rows), np.concatenate(rhs)
    r = np.linalg.lstsq(A, b, rcond=None)[0]
    return 1e3 * r, 1e3 * float(np.sqrt(np.mean((A @ r - b) ** 2)))


def _pelvis_point_in_sled_frame(gs1, point):
    """A point of the pelvis (m, its frame) as x, z mm from the H-point in the sled's frame at
    the start."""
    P = gs1["results"].body_poses[0, gs1["model"].body("pelvis")]
    return 1e3 * (P[:3, :3] @ np.asarray(point, float))[[0, 2]]


def test_regression_gs1_pelvis_moves_as_the_pmhs_behind_its_hips(gs1):
    """Why the H-point sinks where the PMHS's pelvis point rises (branch pelvisrise;
    scenarios/validation/HISTORY.md Stop 43): the human's pelvis moves as the PMHS's, read behind its hips.
    Ash et al.'s (2012) mean trajectories of the eight tests (data/gs1_ash_2012_pelvis_l4_means
    .csv, z turned up, 0-100 ms in 2 ms steps): the H-point misses their pelvis point's by 25.4 mm
    rms (it sinks 21 mm where theirs rises 46); the point of the human's pelvis that follows it
    best lies 122.6 mm behind and 40.8 mm below the H-point at the start (the sled's frame) and
    follows it within 3.9 mm rms (so it rises into the corridor, 35.7-57.1 mm). The PMHS's L4
    likewise: L4 as read (half a body under the lumbar-pelvis joint) misses theirs by 17.0 mm rms;
    the human's pelvis point that follows it best lies 121.0 mm behind and 53.0 mm above the
    H-point, 52 mm behind L4 as read, within 5.1 mm rms. Both of Ash et al.'s points follow the
    human's pelvis's own motion from about 120 mm behind its hip joint centres, where no bone
    centre lies (the sacrum's back and L4's spinous process lie there [E]); where on each bone
    Ash et al. report their points is not in the stored sources, so the figure stays read at the
    H-point and OUT. Probed, none lifts the H-point (its lowest, mm; HISTORY/README): knee supports
    square to the sled -23.0, the pan's flesh five times stiffer -10.0, the pan's friction 0.3
    -20.7, the pan at 5 deg -34.8 (shipped -21.0). Since the lumbar-pelvis joint (L3/L4) stands two levels above Reed et al.'s L5/S1, 30.7 mm higher (branch lumbarheight; main 97e82ed -> the branch): the H-point's miss 25.4 -> 25.6 mm rms;
    the point following the PMHS's pelvis point 122.6 / 40.8 -> 112.8 / 38.2 mm behind / below the
    H-point, 3.9 -> 4.3 mm rms; the one following their L4 121.0 / 53.0 -> 112.6 / 47.9 mm behind /
    above, 5.1 -> 5.4 mm rms, 52 -> 37 mm behind L4 as read (now half a level under the raised
    joint, 143 mm above the H-point in the sled's frame), which misses theirs by 17.0 -> 22.5 mm
    rms. Since the belt's held abdomen wrap is placed from the thorax run's tangent point and the fit's sweeps settle (branch gravitybelt2, main 93f7a72 -> the branch): the H-point's miss 25.6 mm rms; the point
    following the PMHS's pelvis point 112.8 / 38.2 -> 122.6 / 38.8 mm behind / below the H-point
    (under 5 mm rms); the one following their L4 112.6 / 47.9 -> 121.4 / 53.1 mm behind / above,
    5.4 -> 6.6 mm rms; L4 as read misses theirs by 22.5 -> 21.0 mm rms. The three merged (branch
    gs1merge, main 62a71a8 -> merged): the H-point's miss 25.6 mm rms; the point following the
    PMHS's pelvis point 122.2 / 38.0 mm behind / below the H-point, 5.1 mm rms; the one following
    their L4 121.0 / 53.8 mm behind / above, 6.6 mm rms; L4 as read misses theirs by 20.9 mm rms.
    The fits' rms bounds (5 and 6 mm) are test_reference_gs1_pelvis_points_follow_the_pmhs_
    closely's (a strict xfail)."""
    data = np.loadtxt(_gs1_data("gs1_ash_2012_pelvis_l4_means.csv"), delimiter=",", comments="#")
    keep = (data[:, 0] <= 100) & (data[:, 0] % 2 == 0)
    ms, pX, pZ, l4X, l4Z = data[keep].T
    at_hips = _point_following(gs1, "pelvis", pX, -pZ, ms)
    res, model, t = gs1["results"], gs1["model"], gs1["t"]
    # the H-point's own residual: the displacement of the origin against the PMHS's pelvis point
    h = (res.body_poses[:, model.body("pelvis"), :3, 3] - res.base_poses[:, :3, 3])[:, [0, 2]]
    k = [int(np.argmin(abs(t - m / 1e3))) for m in ms]
    miss = 1e3 * (h[k] - h[0]) - np.stack([pX, -pZ], 1)
    assert float(np.sqrt(np.mean(miss ** 2))) == pytest.approx(25.6, abs=2.0)
    r, rms = at_hips
    assert r == pytest.approx([-122.2, -38.0], abs=10.0)    # rms bound: the next test
    lumbar_base = np.asarray(model.source.joints["lumbar_pelvis"].placement.position)
    lumbar_top = np.asarray(model.source.joints["thorax_lumbar"].placement.position)
    l4_read = _pelvis_point_in_sled_frame(gs1, lumbar_base + LUMBAR_FRACTIONS["l4"] * lumbar_top)
    r4, rms4 = _point_following(gs1, "pelvis", l4X, -l4Z, ms)
    assert r4 == pytest.approx([-121.0, 53.8], abs=10.0)   # rms bound: the next test
    assert r4[0] < l4_read[0] - 30.0
    # L4 as read, against the PMHS's L4
    P = res.body_poses[:, model.body("pelvis")]
    q = P[:, :3, :3] @ (lumbar_base + LUMBAR_FRACTIONS["l4"] * lumbar_top) + P[:, :3, 3] - res.base_poses[:, :3, 3]
    miss4 = 1e3 * (q[k][:, [0, 2]] - q[0, [0, 2]]) - np.stack([l4X, -l4Z], 1)
    assert float(np.sqrt(np.mean(miss4 ** 2))) == pytest.approx(20.9, abs=2.0)


@pytest.mark.xfail(strict=True, reason=(
    "5.1 mm rms for the PMHS's pelvis point (bound 5), 6.6 mm rms for their L4 (bound 6) since "
    "the belt's held abdomen wrap is placed from the thorax run's tangent point and the fit's "
    "sweeps settle (branch gravitybelt2 merged with main 62a71a8, branch gs1merge; 6.6 mm for L4 "
    "on gravitybelt2 alone; 4.3 and 5.4 mm on main 93f7a72): the best-following points moved "
    "10 mm further behind the hips (pelvis 112.8 -> 122.2 mm, L4 112.6 -> 121.0 mm), the pelvis "
    "tilting less (29.1 -> 25.8 deg at most); not traced further"))
def test_reference_gs1_pelvis_points_follow_the_pmhs_closely(gs1):
    """Of Ash et al.'s (2012) mean trajectories of the PMHS's pelvis point and L4 (data/gs1_ash_
    2012_pelvis_l4_means.csv, 0-100 ms), each is followed by a point of the human's pelvis within
    5 and 6 mm rms (_point_following; test_regression_gs1_pelvis_moves_as_the_pmhs_behind_its_hips):
    the human's pelvis moves as the PMHS's, both read behind its hips."""
    data = np.loadtxt(_gs1_data("gs1_ash_2012_pelvis_l4_means.csv"), delimiter=",", comments="#")
    keep = (data[:, 0] <= 100) & (data[:, 0] % 2 == 0)
    ms, pX, pZ, l4X, l4Z = data[keep].T
    assert _point_following(gs1, "pelvis", pX, -pZ, ms)[1] < 5.0
    assert _point_following(gs1, "pelvis", l4X, -l4Z, ms)[1] < 6.0


def test_data_gs1_pmhs_head_and_t1_move_towards_the_belted_shoulder():
    """In GS1's belted frontal sled the PMHS's head and T1 move sideways towards the belted
    (outboard) shoulder, the D-ring's side: at the head's peak forward excursion (114 ms, the
    peak of the midline of Ash et al.'s hX corridor) both boundaries of the head's lateral
    corridor lie on that side (74-181 mm), and T1's (15-66 mm), while T8's lie on the other
    (-48 to -8 mm: the upper spine leans towards the belted shoulder), the pelvis within 21 mm.
    The axis's sign is the data's own: the free (left) acromion, swinging forward about the belted
    one (at least 100 mm further forward), moves towards it, as a point turning about a pivot
    draws near it (Ash et al. 2012, data/gs1_ash_2012_corridors.csv, +y to the right)."""
    ash = _ash_corridors()
    k = int(np.argmax(ash["hXl"] + ash["hXu"]))
    assert 110 <= k <= 118
    assert ash["laXl"][k] - ash["raXu"][k] > 100.0 and ash["laYl"][k] > 50.0
    assert ash["hYl"][k] > 50.0 and ash["t1Yl"][k] > 10.0
    assert ash["t8Yu"][k] < 0.0 and abs(ash["pYl"][k]) < 25.0 and abs(ash["pYu"][k]) < 25.0
    assert ash["hYl"][150] > 100.0


def _gs1_head_towards_the_belted_shoulder_mm(gs1, ms):
    """mm: how far the human's head centre of gravity has moved in GS1 towards the belted
    shoulder (the deck's upper anchorage's side, B0's -y) relative to the sled at ``ms``."""
    res = gs1["results"]
    B = res.base_poses
    side = np.sign(res.outputs["belt.d_ring.y"][0])
    head = res.body_com[:, gs1["model"].body("head")]
    y = side * np.einsum("tj,tj->t", B[:, :3, 1], head - B[:, :3, 3])
    k = int(np.searchsorted(res.t, ms / 1000.0))
    return 1e3 * (y[k] - y[0])


def test_reference_gs1_human_head_moves_towards_the_belted_shoulder(gs1):
    """The human in GS1 moves its head towards the belted shoulder, as the PMHS do
    (test_data_gs1_pmhs_head_and_t1_move_towards_the_belted_shoulder): measured (main ab1ff1b,
    scenarios/HISTORY.md, headlateral) 45 mm at 113 ms, 133 mm at 150 ms."""
    assert np.sign(gs1["results"].outputs["belt.d_ring.y"][0]) == -1.0
    for ms in (113, 150):
        assert _gs1_head_towards_the_belted_shoulder_mm(gs1, ms) > 20.0


@pytest.mark.xfail(strict=True, reason="the human's head moves less and later towards the belted "
                   "shoulder than the PMHS's: 45 mm at 113 ms against 70-178, 133 at 150 ms "
                   "against 155-257 (scenarios/HISTORY.md, headlateral)")
def test_reference_gs1_human_head_lateral_inside_the_pmhs_corridor(gs1):
    """The human's head's motion towards the belted shoulder inside Ash et al.'s corridor at the
    PMHS head's peak forward excursion (113 ms) and at 150 ms."""
    ash = _ash_corridors()
    for ms in (113, 150):
        assert ash["hYl"][ms] <= _gs1_head_towards_the_belted_shoulder_mm(gs1, ms) <= ash["hYu"][ms]


# The buckle and the lap anchorage at the SAFER deck's offsets from its lap belt strip's centre
# row (from node 122 at the midline, (83.7, -4.0, -182.1) SAE, 21.6 mm below and 9.2 mm ahead of
# node 31 on the strip's upper edge, whose offsets the case ships), placed from the human's own
# lap belt middle on lap_belt_pelvis re-fitted (three iterations: (0.044, 0.001, 0.107) m) [D]
# (scenarios/validation/HISTORY.md, gs1beltrate and gs1lapref). Not set in the case
CENTRE_ROW_REFIT = {"restraints.belt.buckle": [-0.0518, 0.207, -0.1535],
                    "restraints.belt.lap_anchor": [-0.2616, -0.302, -0.3782]}


@pytest.fixture(scope="module")
def gs1_centre_row_run():
    """The GS1 case run with CENTRE_ROW_REFIT: gs1_run's dict."""
    return gs1_run(CENTRE_ROW_REFIT)


@pytest.mark.xfail(strict=True, reason=(
    "in the rebound (132.4 ms, the belt at 1 kN) the held abdomen wrap reaches its lift-off: the "
    "plane through its place and its ends (the thorax run's tangent point, the buckle, 64 mm "
    "higher than the case's) is nearly tangent to the belly there (h -0.9995, r 0.03); place_held's "
    "sweeps then cycle with period 2 (the abdomen point 18 mm, the shoulder wrap 17 mm between "
    "sweeps), the group's hook weight read off the last sweep rises 0.10 -> 0.99 in 40 us, and the "
    "chain placed again at that weight swings the point the long way round the abdomen (y +10 -> "
    "-124 mm): the path 127 mm longer in one step, the shoulder-chest segment 130 kN, the lower "
    "shoulder belt 16.35 kN, T1 74.3 g; with 7 sweeps as well (26.3 kN) (scenarios/validation/"
    "HISTORY.md, gs1lapref). Reproduced in miniature (tests/restraints/test_belt_held_liftoff.py); "
    "with the hook weighed in a chain that keeps it on its hook (branch heldhyst, reverted: the "
    "groin wrap's case then steps 49.8 kN) the step is 2.15 kN (scenarios/HISTORY.md, heldhyst)"))
def test_reference_gs1_centre_row_refit_moves_the_belt_smoothly(gs1, gs1_centre_row_run):
    """With the anchorages from the lap belt strip's centre row (CENTRE_ROW_REFIT) the shoulder
    belt's segment forces change from one sample to the next by no more than 1.5 times the
    case's own largest change (0.47 kN, at 148 ms). Measured (branch gs1lapref): 130.5 kN at
    132.5 ms."""
    assert _largest_force_step(gs1_centre_row_run, "belt") < 1.5 * _largest_force_step(gs1, "belt")


def test_regression_gs1_centre_row_refit_holds_the_upper_spine_further_back(gs1, gs1_centre_row_run):
    """Why CENTRE_ROW_REFIT is not set, besides its rebound step: before it (the figures peak by
    125 ms; run to 132 ms it gives the same) T1 and T8 go 10 and 25 mm less far forward than the
    case's, further below their corridors (226.0, 175.1 mm), and the rises of T1, T8 and the pelvis
    fall 4-8 mm further below theirs. Measured (branch gs1lapref): T1 187.9 (case 197.7), T8 125.8
    (150.9), rises 12.4 / 13.8 / 20.4 mm (16.6 / 17.6 / 28.3). Since the condyles below the
    tragion and the head's com ahead of them (branch chancey): T1 187.9 -> 186.4, T8 125.8 ->
    129.6 mm."""
    refit, case = gs1_centre_row_run["checks"], gs1["checks"]
    assert refit["t1_x_excursion_mm"][0] == pytest.approx(186.4, abs=1.0)
    assert refit["t8_x_excursion_mm"][0] == pytest.approx(129.6, abs=1.0)
    for name in ("t1_x_excursion_mm", "t8_x_excursion_mm", "t1_z_rise_mm", "t8_z_rise_mm",
                 "pelvis_z_rise_mm"):
        assert refit[name][0] < case[name][0] - 3.0, (name, refit[name][0], case[name][0])
