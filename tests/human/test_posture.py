"""Postures and positioning (issue 4 section 4): angles, inverse kinematics to targets, errors."""
import math

import numpy as np
import pytest

from occupant import simulate
from occupant.dynamics import body_com_positions, body_poses, link_poses
from occupant.human import DummyFileError, build, joint_angles, load_dummy, position, torso_angle
from occupant.human.loader import available_dummies
from occupant.human.neck_levelling import share_neck_flexion
from occupant.human.builder import human_range
from occupant.human.posture import (TARGET_TOLERANCE, TRUNK_JOINTS, _named_point,
                                    available_postures, load_posture, point_position)
from occupant.human.builder import proportions
from occupant.human.seated_posture import (head_points, line_angle, line_ends, predicted_angle,
                                          predicted_eye, vertical_angle)
from occupant.spatial.rotation import quat_exp, quat_to_matrix

SEATED_POSTURES = [n for n in available_postures() if "seated" in n]  # dummies/postures/*seated*
# parametric humans at both ends of the seated range asked for in issue 10 section 1; masses [E]
# (BMI 22 and 25, ordinary adults)
HUMANS = {"human_1.50m": dict(stature=1.50, mass=50.0, sex="female"),
          "human_1.90m": dict(stature=1.90, mass=90.0, sex="male")}


@pytest.fixture(scope="module")
def h3():
    return load_dummy("hybrid3_50m")


@pytest.fixture(scope="module")
def family(h3):
    return {"hybrid3_05f": load_dummy("hybrid3_05f"), "hybrid3_50m": h3,
            "hybrid3_95m": load_dummy("hybrid3_95m")}


def _assert_targets_reached(model, name, q, info):
    """Every target of the posture file reached to TARGET_TOLERANCE = 1 mm (only the components
    it gives), the H-point to 1 mm of its point or on its seat track, the torso angle to 0.1 deg;
    unit quaternions and every joint inside its range of motion."""
    tg = load_posture(name).get("targets", {})
    for pt in tg.get("point", []):
        local = _named_point(model, pt["body"], pt["point"], "", "")
        p = point_position(model, q, pt["body"], local)
        want = pt.get("position") or [pt.get(c, p[i]) for i, c in enumerate("xyz")]
        assert np.linalg.norm(p - want) < TARGET_TOLERANCE, (pt, p)
        if "plane" in pt:
            n = np.array(pt["plane"]["normal"]) / np.linalg.norm(pt["plane"]["normal"])
            assert abs(n @ (p - pt["plane"]["point"])) < TARGET_TOLERANCE, (pt, p)
    h = point_position(model, q, "pelvis", np.zeros(3))
    if "h_point" in tg:
        assert np.linalg.norm(h - tg["h_point"]) < TARGET_TOLERANCE
    if "seat_track" in tg:
        rear, front = (np.array(tg["seat_track"][k]) for k in ("rear", "front"))
        d = (front - rear) / np.linalg.norm(front - rear)
        off = (h - rear) - d * np.dot(h - rear, d)
        assert np.linalg.norm(off) < TARGET_TOLERANCE
        assert rear[0] - 1e-9 <= h[0] <= front[0] + 1e-9
    if "torso_angle_deg" in tg:
        assert math.degrees(torso_angle(model, q)) == pytest.approx(tg["torso_angle_deg"], abs=0.1)
    assert info["max_point_error"] < TARGET_TOLERANCE
    for j, kind in zip(model.joint_names, model.joint_kind):
        if kind in ("spherical", "free"):
            k = model.tree.qidx[model.joint_links[model.joint_names.index(j)][-1]] + (3 if kind == "free" else 0)
            assert np.linalg.norm(q[k:k + 4]) == pytest.approx(1.0, abs=1e-12)
    el = model.joint_resistance
    for e in range(len(el.link)):
        lk = el.link[e]
        k = model.tree.qidx[lk]
        if model.tree.jtype[lk] != 3 and model.tree.nv[lk] == 1:
            assert el.lower[e] - 1e-9 <= q[k] <= el.upper[e] + 1e-9


@pytest.mark.parametrize("dummy", ["hybrid3_05f", "hybrid3_50m", "hybrid3_95m"])
@pytest.mark.parametrize("name", ["driver_seated", "passenger_seated", "pedestrian_walking"])
def test_reference_ik_reaches_targets_to_1mm_for_every_dummy(family, dummy, name):
    """One posture file fits the whole family: every target reached to 1 mm (measured < 0.01 mm
    for all nine)."""
    q, info = position(family[dummy], name, return_info=True)
    _assert_targets_reached(family[dummy], name, q, info)


@pytest.mark.parametrize("stature, mass, sex", [(1.45, 45.0, "female"), (2.0, 110.0, "male")])
def test_reference_ik_fits_the_extremes_of_the_adult_range(stature, mass, sex):
    """The driver posture fits generated humans at both ends of the adult stature range (the
    1.45 m woman ends at the front of the seat track, measured x = 0.12 m)."""
    m = build(stature=stature, mass=mass, sex=sex)
    q, info = position(m, "driver_seated", return_info=True)
    _assert_targets_reached(m, "driver_seated", q, info)


@pytest.fixture(scope="module")
def occupants():
    """Every shipped dummy and the two parametric humans, by name."""
    out = {d: load_dummy(d) for d in available_dummies()}
    out.update({n: build(**kw) for n, kw in HUMANS.items()})
    return out


@pytest.mark.parametrize("name", SEATED_POSTURES)
@pytest.mark.parametrize("who", available_dummies() + list(HUMANS))
def test_reference_seated_posture_keeps_sagittal_symmetry(occupants, who, name):
    """A seated posture whose targets are symmetric about the seat centreline (the y of the
    H-point target) keeps the head, upper torso and pelvis centres of mass on it, to 5 mm, while
    every target is still reached. Before the fix the IK bent the 5F driver's lumbar and thorax
    sideways to reach the pedal: head 146 mm, upper torso 74 mm right of the centreline (1.50 m
    human: 167 and 101 mm); measured after: 0.0 mm for all, in plane without freeing the
    out-of-plane dofs."""
    model = occupants[who]
    q, info = position(model, name, return_info=True)
    _assert_targets_reached(model, name, q, info)
    tg = load_posture(name)["targets"]
    y_centre = tg["h_point"][1] if "h_point" in tg else tg["seat_track"]["rear"][1]
    com = body_com_positions(model, model.make_data(), q)
    offsets = {b: com[model.body(b), 1] - y_centre for b in ("head", "upper_torso", "pelvis")}
    assert all(abs(d) < 0.005 for d in offsets.values()), offsets
    assert info["sagittal"]


def test_reference_ik_leans_when_a_target_asks(h3):
    """The midline is held in its plane only while the targets allow: a head target 5 cm to the
    left is reached (to 1 mm) by freeing the spine's lateral bending."""
    q0 = position(h3, "passenger_seated")
    head = point_position(h3, q0, "head", np.zeros(3))
    posture = load_posture("passenger_seated")
    q, info = position(h3, posture, targets={"point": [
        {"body": "head", "point": "origin", "y": head[1] + 0.05}]}, return_info=True)
    assert not info["sagittal"]
    assert info["max_point_error"] < TARGET_TOLERANCE
    assert point_position(h3, q, "head", np.zeros(3))[1] == pytest.approx(head[1] + 0.05, abs=1e-3)


def test_reference_seat_moves_with_occupant_size(family):
    """On the seat track the driver's H-point sits where the hands reach the wheel and the foot
    the pedal: the 50M at mid-track (where FMVSS 208 seats it; measured 1 mm), the 5F ahead of it
    and the 95M behind it (measured +108 mm and -31 mm; +102 and -29 mm before the left foot was
    put on the toe board)."""
    x = {d: position(m, "driver_seated", return_info=True)[1]["h_point"][0] for d, m in family.items()}
    assert abs(x["hybrid3_50m"]) < 0.005
    assert x["hybrid3_05f"] > x["hybrid3_50m"] + 0.05
    assert x["hybrid3_95m"] < x["hybrid3_50m"] - 0.01


def test_identity_plane_target_is_its_component_target_on_a_level_plane(h3):
    """A plane target with normal +z through height z0 asks the same as the component target
    z = z0: the two solves give the same configuration (to 1e-9 m in the heel's position)."""
    posture = load_posture("driver_seated")
    heel = {"body": "right_foot", "point": "heel"}
    by_z = {"kind": "posture", "angles": posture["angles"], "root": posture["root"],
            "targets": {"h_point": [0.0, 0.0, 0.0], "point": [dict(heel, z=-0.30)]}}
    by_plane = {"kind": "posture", "angles": posture["angles"], "root": posture["root"],
                "targets": {"h_point": [0.0, 0.0, 0.0],
                            "point": [dict(heel, plane={"point": [0.7, -0.3, -0.30], "normal": [0, 0, 2.0]})]}}
    local = _named_point(h3, "right_foot", "heel", "", "")
    pz, pp = (point_position(h3, position(h3, p), "right_foot", local) for p in (by_z, by_plane))
    assert pz[2] == pytest.approx(-0.30, abs=1e-6)
    assert np.linalg.norm(pz - pp) < 1e-9


def test_identity_added_point_target_replaces_the_files_for_that_point(h3):
    """A point target given beside the posture's (a scenario's occupant.posture_targets) replaces
    the file's target for the same body's named point, so the solve meets it alone: the left heel
    at z = -0.317 instead of driver_seated's heel_bottom at -0.328 (heel and heel_bottom hold
    one slot, the heel); added, not replaced, the two heights would be fought over and neither
    met. A point target for another point (an offset) is added as before: the heel's half-way
    point (an offset) at -0.317 with the posture's heel_bottom kept at -0.328, both met (the
    lowest point is not that material point: the foot pitches to meet both)."""
    local = _named_point(h3, "left_foot", "heel", "", "")
    bottom = _named_point(h3, "left_foot", "heel_bottom", "", "")
    q = position(h3, "driver_seated", targets={"point": [
        {"body": "left_foot", "point": "heel", "y": 0.14, "z": -0.317}]})
    assert point_position(h3, q, "left_foot", local)[2] == pytest.approx(-0.317, abs=1e-4)
    q0 = position(h3, "driver_seated")
    assert point_position(h3, q0, "left_foot", bottom)[2] == pytest.approx(-0.328, abs=1e-4)
    assert point_position(h3, q0, "left_foot", local)[2] > -0.328 + 1e-3
    q = position(h3, "driver_seated", targets={"point": [
        {"body": "left_foot", "offset": list(local), "y": 0.14, "z": -0.317}]})
    assert point_position(h3, q, "left_foot", local)[2] == pytest.approx(-0.317, abs=1e-4)
    assert point_position(h3, q, "left_foot", bottom)[2] == pytest.approx(-0.328, abs=1e-4)


def test_identity_given_angles_replace_the_files_for_those_joints(h3):
    """Angles given beside the posture's (a scenario's occupant.posture_angles) replace the
    file's of the same keys and no other: passenger_seated's arms (shoulder [0, -20, 0] deg,
    elbow 70 deg) at GS1's (shoulder [-7.66, -5.26, -6.70], elbow 59.14: the hands on the thighs'
    tops, scenarios/validation/data/gs1_sled_40_human.toml), the side-less keys on both sides,
    the right shoulder mirrored (x and z negated); the legs, targets and all, where the file
    alone puts them; an unknown joint refused as in the file."""
    shoulder = [-7.66, -5.26, -6.70]
    q = position(h3, "passenger_seated", angles={"shoulder_deg": shoulder, "elbow_deg": 59.14})
    q0 = position(h3, "passenger_seated")
    a, a0 = joint_angles(h3, q), joint_angles(h3, q0)
    for side, sign in (("left", 1.0), ("right", -1.0)):
        assert a[f"{side}_elbow"] == pytest.approx(59.14, abs=1e-6)
        assert a0[f"{side}_elbow"] == pytest.approx(70.0, abs=1e-6)
        assert a[f"{side}_shoulder"] == pytest.approx(np.array(shoulder) * [sign, 1.0, sign], abs=1e-6)
        for joint in ("hip", "knee", "ankle"):
            assert np.allclose(a[f"{side}_{joint}"], a0[f"{side}_{joint}"], atol=1e-9), joint
    assert np.allclose(q[:7], q0[:7], atol=1e-9)
    with pytest.raises(DummyFileError, match="unknown joint 'wrist'"):
        position(h3, "passenger_seated", angles={"wrist_deg": 10.0})


@pytest.mark.parametrize("dummy", ["hybrid3_05f", "hybrid3_50m", "hybrid3_95m"])
def test_reference_driver_left_foot_rests_on_the_toe_board(family, dummy):
    """The driver's left foot is placed as FMVSS 208 places it (S10.5, as commonly quoted [U]):
    on the toe board, its heel on the floor pan near where the two meet. The ball point lies
    4 mm off the 45 deg toe pan of vehicles/midsize_sedan_driver.toml and the heel on the floor,
    behind the toe pan's foot (x 0.77 m) within a foot length. Before: the ball 79 mm short of
    the toe pan (the 50M), so that in the US NCAP run the foot slid forward and struck it."""
    from occupant.scenario.interior import load_interior
    toe = next(s for s in load_interior("midsize_sedan_driver").surfaces if s.name == "toe_pan")
    n = np.asarray(toe.normal) / np.linalg.norm(toe.normal)
    m = family[dummy]
    q = position(m, "driver_seated")
    floor = next(s for s in load_interior("midsize_sedan_driver").surfaces if s.name == "floor")
    ball, heel = (point_position(m, q, "left_foot", _named_point(m, "left_foot", k, "", ""))
                  for k in ("ball", "heel_bottom"))
    assert n @ (ball - np.asarray(toe.point)) == pytest.approx(0.004, abs=1e-3)
    assert heel[2] == pytest.approx(floor.point[2], abs=1e-4) and 0.55 < heel[0] < 0.77


@pytest.mark.parametrize("dummy", ["hybrid3_05f", "hybrid3_50m", "hybrid3_95m"])
def test_identity_heel_bottom_is_the_heels_lowest_point(family, dummy):
    """heel_bottom is the heel ellipsoid's lowest point in B0 at any pose: against the least z
    of 40,000 points spread on its surface (an independent search, to 0.1 mm at this density),
    for the feet as driver_seated places them and turned 30 deg about a skew axis; and its
    Jacobian in the IK's coordinates matches central differences (the slide of the point on
    the surface included: the material point's alone is off by about 0.045)."""
    from occupant.dynamics import body_jacobian, body_poses
    from occupant.human.posture import _Layout
    m = family[dummy]
    q = position(m, "driver_seated")
    layout = _Layout(m)
    u, v = np.meshgrid(np.linspace(0, np.pi, 200), np.linspace(0, 2 * np.pi, 200))
    sphere = np.stack([np.sin(u) * np.cos(v), np.sin(u) * np.sin(v), np.cos(u)], -1).reshape(-1, 3)
    for side in ("left", "right"):
        body = f"{side}_foot"
        geo = next(g for g in m.geometries if g.name == f"{side}_heel")
        mk = m.marker(geo.marker)
        bottom = _named_point(m, body, "heel_bottom", "", "")
        for turn in (np.zeros(3), np.radians(30.0) * np.array([0.6, 0.64, 0.48])):
            X = body_poses(m, m.make_data(), q)[m.body(body)]
            Rb = X[:3, :3] @ quat_to_matrix(quat_exp(turn))
            surface = (Rb @ (m.marker_p[mk][:, None] + m.marker_R[mk] @ (sphere * geo.semi_axes).T)).T
            got = Rb @ bottom(Rb)
            assert got[2] == pytest.approx(surface[:, 2].min(), abs=1e-4)
            assert np.linalg.norm(surface[np.argmin(surface[:, 2])] - got) < 2e-3
        x = layout.from_q(q)
        data = m.make_data()

        def low(x):
            Xb = body_poses(m, data, layout.to_q(x))[m.body(body)]
            return Xb[:3, :3] @ bottom(Xb[:3, :3]) + Xb[:3, 3]
        qx = layout.to_q(x)
        R_b = body_poses(m, data, qx)[m.body(body)][:3, :3]
        J = bottom.jacobian(R_b, body_jacobian(m, data, qx, m.body(body), bottom(R_b))) @ layout.v_map(x, qx)
        h, eye = 1e-6, np.eye(len(x))
        fd = np.column_stack([(low(x + h * eye[i]) - low(x - h * eye[i])) / (2 * h) for i in range(len(x))])
        assert np.abs(J - fd).max() < 1e-7


def test_reference_seated_driver_shape(h3):
    """The driver sits: knees ahead of the H-point at about its height (thighs near horizontal),
    occipital condyle 0.5-0.7 m above and behind the H-point (measured knee 0.40 m ahead and
    0.11 m above, head origin 0.57 m above and 0.17 m behind)."""
    q = position(h3, "driver_seated")
    knee = point_position(h3, q, "left_lower_leg", np.zeros(3))
    head = point_position(h3, q, "head", np.zeros(3))
    assert knee[0] > 0.3 and abs(knee[2]) < 0.15
    assert 0.5 < head[2] < 0.7 and head[0] < 0.0


SEATED_HUMANS = [(name, sex, percentile) for name in ("driver_seated", "passenger_seated")
                 for sex, percentile in (("female", 5), ("male", 50), ("male", 95))]


@pytest.fixture(scope="module")
def seated_humans():
    """{(posture, sex, percentile): (model, q)}: the human seated as a scenario seats it (its
    neck's flexion shared, neck_levelling)."""
    out = {}
    for name, sex, percentile in SEATED_HUMANS:
        model = build(sex=sex, percentile=percentile, face=True)
        out[name, sex, percentile] = model, share_neck_flexion(model, position(model, name))
    return out


def _umtri(model, name, line):
    """(mean, root-mean-square error), rad, of UMTRI's drivers' regression of ``line`` for the
    human in posture ``name`` (H30: the H-point above the right heel's target, 0.328 m in
    driver_seated and passenger_seated; 0.32 m in passenger_seated before branch passheel)."""
    heel = next(p for p in load_posture(name)["targets"]["point"]
                if p["body"] == "right_foot" and p["point"] in ("heel", "heel_bottom"))
    header = model.source.header
    return predicted_angle(line, header["sex"], header["stature"], header["total_mass"], -heel["z"])


@pytest.mark.parametrize("key", SEATED_HUMANS)
def test_reference_seated_human_hip_to_eye_angle(seated_humans, key):
    """Seated, the human's eyes lie within one root-mean-square error of UMTRI's drivers' mean
    hip-to-eye angle (occupant/human/data/seated_posture.toml: men 5.48 +- 3.3 deg, women 4.97 +-
    4.1 at H30 320 mm); the eye bounded by the glabella (seated_posture), so this is the eye's
    least angle: 6.8 deg for the men, 7.8 for the 5F (6.8 / 7.7 before the head line's target,
    scenarios/validation/HISTORY.md Stop 41, tragion). Before the thorax line was set to the
    drivers' (the trunk straight, 25 deg on the H-point -> cervicale line alone) the glabella lay
    8.3-9.6 deg behind, four of six beyond the mean + RMSE (scenarios/validation/README.md,
    hipeye)."""
    model, q = seated_humans[key]
    want, rmse = _umtri(model, key[0], "hip_to_eye")
    assert abs(line_angle(model, q, "hip_to_eye") - want) <= rmse


@pytest.mark.parametrize("key", SEATED_HUMANS)
def test_reference_seated_human_thorax_at_the_drivers_mean_with_equal_trunk_moments(seated_humans, key):
    """The human's thorax line (T12/L1 -> C7/T1) is UMTRI's drivers' mean (2.3 deg rearward for
    the men, 2.8 for the women: a target of the seated postures, human_thorax), and the trunk's
    two joints flex by one fraction of their flexion ranges, where their passive moments match
    (-0.7 N m each for the 50M passenger: the free pull left T9/T10 at 23.7 deg, -296 N m); the
    torso line keeps its 25 deg."""
    model, q = seated_humans[key]
    assert line_angle(model, q, "thorax") == pytest.approx(_umtri(model, key[0], "thorax")[0],
                                                           abs=1e-4)
    assert math.degrees(torso_angle(model, q)) == pytest.approx(25.0, abs=0.1)
    ranges = {j: human_range(j, 1, "spherical")[1] for j in TRUNK_JOINTS}
    flexion = {j: math.radians(joint_angles(model, q)[j][1]) for j in TRUNK_JOINTS}
    assert min(flexion.values()) > 0.0
    assert flexion["lumbar_pelvis"] / ranges["lumbar_pelvis"] == pytest.approx(
        flexion["thorax_lumbar"] / ranges["thorax_lumbar"], abs=1e-3)


@pytest.mark.parametrize("line", ["pelvis", "abdomen"])
@pytest.mark.parametrize("key", SEATED_HUMANS)
def test_reference_seated_human_lumbar_lines_within_the_drivers_scatter(seated_humans, key, line):
    """The seated human's pelvis line (the hips' midpoint -> Reed's L5/S1) and abdomen line
    (L5/S1 -> T12/L1) lie within one RMSE of UMTRI's drivers' means (seated_posture.toml: men
    48.1 +- 13.2 and 29.9 +- 11.4 deg at 1.753 m, 5F 52.7 +- 13.9 and 22.6 +- 9.4), though no
    target asks for them: the 25 deg torso line, the thorax line at the drivers' mean and the
    trunk's two joints at one fraction of their ranges put them at 43.8 / 28.3 (men), 44.4 /
    24.1 (5F): -0.3 to -0.6 and -0.45 to +0.16 RMSE. A driver's slumped lumbar spine is not what
    keeps the seated eye off the drivers' (scenarios/validation/HISTORY.md, humaneye)."""
    model, q = seated_humans[key]
    want, rmse = _umtri(model, key[0], line)
    assert abs(line_angle(model, q, line) - want) <= rmse


NECK_BEHIND = pytest.mark.xfail(strict=True, reason=(
    "the neck line (C7/T1 -> tragion) leans 9.6-12.5 deg rearward seated, UMTRI's drivers' 7.2-9.9 "
    "forward (RMSE 5.7-6.5): 3.0-3.5 RMSE (to the condyles 7.0-9.5, 2.6-2.9 RMSE: the tragion lies "
    "8 mm behind them); the two-joint neck rests at its ranges' split (neck_levelling), and a lower "
    "neck flexed to the drivers' line lies past its 12 deg range (scenarios/validation/HISTORY.md Stop 41, "
    "tragion)"))


@pytest.mark.parametrize("key", [pytest.param(k, marks=NECK_BEHIND) for k in SEATED_HUMANS])
def test_reference_seated_human_neck_line(seated_humans, key):
    """The human's neck line (C7/T1 -> the tragion, UMTRI's own end) within one RMSE of UMTRI's
    drivers' mean."""
    model, q = seated_humans[key]
    want, rmse = _umtri(model, key[0], "neck")
    assert abs(line_angle(model, q, "neck") - want) <= rmse


@pytest.mark.parametrize("key", SEATED_HUMANS)
def test_reference_seated_human_head_line_at_the_drivers_mean_within_the_neck_ranges(seated_humans, key):
    """The human's head line (tragion -> eye, above the horizontal) is UMTRI's drivers' mean
    (men 3.2 deg at 1.753 m, 4.2 at 1.88 m, 5F 7.9: a target of the seated postures, human_head),
    met by the neck's joints inside their flexion ranges (12.0 and 33.0 deg, neck_levelling's
    split); the thorax line keeps its target. Without the target (the file's 20 deg of neck
    flexion) the head line lay at 3.6 (men) / 6.0 deg (5F), inside the RMSE (5.0 / 5.3 deg)
    already (scenarios/validation/HISTORY.md Stop 41, tragion)."""
    model, q = seated_humans[key]
    assert line_angle(model, q, "head") == pytest.approx(_umtri(model, key[0], "head")[0], abs=1e-4)
    assert line_angle(model, q, "thorax") == pytest.approx(_umtri(model, key[0], "thorax")[0],
                                                           abs=1e-4)
    for joint in ("lower_neck", "upper_neck"):
        lo, hi = human_range(joint, 1, "spherical")
        assert lo < math.radians(joint_angles(model, q)[joint][1]) < hi


def test_reference_umtri_eye_location_meets_the_hip_to_eye_angle():
    """UMTRI's drivers' eye and hips on the H-point (seated_posture.toml, class A model) put a
    50th male's (1.753 m, 78.2 kg, H30 328 mm) eye 60.9 mm behind and 645.3 mm above his hips'
    midpoint (by hand from the transcribed coefficients: eye 35.53 mm behind and 639.96 above the
    H-point, the hips 25.39 ahead of and 5.31 below it): 5.39 deg, the hip-to-eye regression's
    5.41; across the men's sizes (1.60-1.88 m, BMI 17.5-30) within half that regression's RMSE."""
    forward, up = predicted_eye(1.753, 78.2, 0.328)
    assert (1000 * forward, 1000 * up) == pytest.approx((-60.9, 645.3), abs=0.05)
    angle, rmse = predicted_angle("hip_to_eye", "male", 1.753, 78.2, 0.328)
    assert math.atan2(-forward, up) == pytest.approx(angle, abs=math.radians(0.05))
    for stature, mass in ((1.60, 60.0), (1.88, 100.0), (1.70, 87.0), (1.85, 60.0)):
        forward, up = predicted_eye(stature, mass, 0.328)
        assert abs(math.atan2(-forward, up) - angle) < 0.5 * rmse


EYE_HIGH_AND_BACK = pytest.mark.xfail(strict=True, reason=(
    "posed, the 50th male's eye lies 29.7 mm behind and 35.1 mm above UMTRI's drivers' mean (95th "
    "21.6 / 44.1 mm; 43.2 / 34.6 and 36.1 / 43.4 before branch headshell moved the eye 15 mm forward "
    "with the braincase). Every UMTRI line turned onto the human's own chords puts it 15.1 mm "
    "ahead and 27.5 mm high (0.5 / 26.8 before): the neck line (10.8 deg rearward against 9.9 forward) is the fore-aft gap, "
    "the chords' lengths the height's; the pelvis and abdomen lines lie within 0.5 RMSE already. "
    "The neck line needs the lower neck at about 27 deg (range 12; its curve about 140 N m at 25 "
    "deg), the eye with the neck levelled the trunk's joints at 64-69 % of their flexion ranges "
    "(hundreds of N m on their passive curves). Settled in us_ncap_frontal_56's seat the passive "
    "neck turns the head back up (head line 3.2 -> 15.8 deg): 46 / 49 mm "
    "(scenarios/validation/HISTORY.md, humanhead, humaneye)"))


@pytest.mark.parametrize("key", [pytest.param(k, marks=EYE_HIGH_AND_BACK) for k in SEATED_HUMANS
                                 if k[1] == "male"])
def test_reference_seated_man_eye_at_the_drivers_mean(seated_humans, key):
    """A seated man's eye (seated_posture.head_points) within 20 mm fore-aft and in height of
    UMTRI's drivers' mean for his size [E: twice the about 10 mm by which that model met the mean
    eye of 120 drivers in five vehicles, Reed et al. 2002, abstract]."""
    model, q = seated_humans[key]
    X = body_poses(model, model.make_data(), q)
    _, joints = link_poses(model, model.make_data(), q)
    hips = 0.5 * sum(joints[model.body_link[model.body(f"{side}_upper_leg")]]
                     for side in ("left", "right"))
    shell = next(g for g in model.geometries if g.name == "head_shell")
    head = X[model.marker_body[model.marker(shell.marker)]]
    eye = head[:3, :3] @ head_points(model)["eye"] + head[:3, 3] - hips
    header = model.source.header
    heel = next(p for p in load_posture(key[0])["targets"]["point"]
                if p["body"] == "right_foot" and p["point"] in ("heel", "heel_bottom"))
    want = predicted_eye(header["stature"], header["total_mass"], -heel["z"])
    assert np.abs(eye[[0, 2]] - want).max() <= 0.020


CHAIN = ("pelvis", "abdomen", "thorax", "neck", "head")   # hips -> L5/S1 -> T12/L1 -> C7/T1 -> tragion -> eye


@pytest.mark.parametrize("key", [k for k in SEATED_HUMANS if k[1] == "male"])
def test_reference_umtri_lines_on_the_humans_chords_meet_umtri_eye_fore_aft(seated_humans, key):
    """Two of UMTRI's transcribed models agree through the human's own body: its five chords
    from the hips to the eye (pelvis, abdomen, thorax, neck, head lines; seated_posture.line_ends),
    each turned to UMTRI's drivers' mean angle, end within 20 mm fore-aft [E: twice the model's
    ~10 mm, as the eye test below] of UMTRI's mean eye (predicted_eye, the class A eye and hip
    regressions): 11.8 mm behind for the 50th male, 11.5 for the 95th since branch chancey put
    the tragion 18.4 mm ahead of the condyles (Chancey et al. 2007): the head line, tragion ->
    eye, 104.1 -> 78.3 mm, the neck line 147.8 -> 141.3 (before: 15.1 and 17.3 mm ahead; 0.5 and
    1.5 before branch headshell). So the seated eye's fore-aft gap (30 mm behind posed) is the
    lines', the neck line's above all (10.8 deg rearward against the drivers' 9.9 forward: 53
    mm), not the human's lengths. In height the chain ends 19.7 / 20.9 mm above UMTRI's eye
    (27.5 / 29.4 before branch chancey): that part is the lengths' (the chords sum taller than
    the drivers' hips-to-eye)."""
    model, q = seated_humans[key]
    X = body_poses(model, model.make_data(), q)
    header = model.source.header
    heel = next(p for p in load_posture(key[0])["targets"]["point"]
                if p["body"] == "right_foot" and p["point"] in ("heel", "heel_bottom"))
    eye = np.zeros(2)
    for line in CHAIN:
        a, b = ((X[model.body(n)][:3, :3] @ p + X[model.body(n)][:3, 3])[[0, 2]]
                for n, p in line_ends(model, line))
        angle = vertical_angle(line, _umtri(model, key[0], line)[0])
        eye += np.linalg.norm(b - a) * np.array([-math.sin(angle), math.cos(angle)])
    forward, up = predicted_eye(header["stature"], header["total_mass"], -heel["z"])
    assert abs(eye[0] - forward) <= 0.020
    assert 0.015 < eye[1] - up < 0.025   # the lengths' part of the height gap (docstring)


@pytest.mark.parametrize("percentile", [50, 95])
def test_reference_human_tragion_below_the_head_centre_of_gravity(percentile):
    """The tragion (seated_posture.head_points) lies 8 mm behind the head's centre of gravity at
    1.756 m and 131.1 mm below the vertex (data/body_proportions.toml: Beier et al. 1979 as
    quoted, ANSUR II); the centre of gravity stands 22-43 mm above it, the range of Beier et al.'s
    21 heads above the Frankfort plane (the human's: 41.6 mm at 1.753 m, de Leva's head+neck com
    kept; 36.9 before branch chancey); the eye lies 20 mm
    behind the glabella at the same scale."""
    model = build(percentile=percentile, face=True)
    H, prop = model.source.header["stature"], proportions()
    p, com = head_points(model), model.body_com[model.body("head")]
    assert com[0] - p["tragion"][0] == pytest.approx(0.008 * H / 1.756, rel=2e-3)
    assert 0.022 * H / 1.756 < com[2] - p["tragion"][2] < 0.043 * H / 1.756
    assert p["glabella"][0] - p["eye"][0] == pytest.approx(0.020 * H / 1.756, rel=2e-3)
    assert p["eye"][2] - p["tragion"][2] == pytest.approx(
        (prop["tragion_below_vertex"] - prop["eye_below_vertex"]) * H, abs=1e-12)


# The head's centre of gravity from the occipital condyles (the head frame's origin: x forward,
# z up, Frankfort horizontal standing [E]), m at ANSUR II men's 1.756 m (per stature as
# data/body_proportions.toml scales Beier's figures [E]): 8 mm ahead of and 31 mm (22-43) above
# the auditory meatus (Beier, Schuck, Schuller & Spann 1979, as quoted there [C]); the condyles,
# the centroid of each condylar surface, 18.4 mm behind and 31.0 mm below the external auditory
# meatus (Chancey, Ottaviano, Myers & Nightingale 2007, J. Biomech. 40:1953 [S abstract]; its
# meatus taken for Beier's [E: bony and skin points a few mm apart]). The Hybrid III 50M's: 22.9
# mm ahead, 53.2 mm above (dummies/hybrid3_50m.toml).
HEAD_COM_AHEAD_OF_OC = 0.008 + 0.0184               # Beier's 8 mm + Chancey's 18.4 mm
HEAD_COM_ABOVE_OC = (0.022 + 0.031, 0.043 + 0.031)  # Beier's range of heights + Chancey's 31.0 mm
OC_FROM_MEATUS = (0.0184, 0.0310)                   # Chancey's meatus from the condyles (x, z), m


@pytest.mark.parametrize("percentile", [50, 95])
def test_reference_human_head_centre_of_gravity_ahead_of_and_above_the_condyles(percentile):
    """The head's centre of gravity stands 26.4 mm ahead of the occipital condyles at 1.756 m
    (HEAD_COM_AHEAD_OF_OC, within 5 mm [E: the cadavers' fore-aft spread not read; the Hybrid
    III's 22.9 mm inside]) and 53-74 mm above them (HEAD_COM_ABOVE_OC), per stature: 26.4 and
    72.5 mm at 1.753 m (de Leva's head+neck com kept), where before branch chancey it stood
    straight above them, 40.4 mm up."""
    model = build(percentile=percentile)
    k = model.source.header["stature"] / 1.756
    com = model.body_com[model.body("head")]
    assert com[0] == pytest.approx(k * HEAD_COM_AHEAD_OF_OC, abs=k * 0.005)
    assert k * HEAD_COM_ABOVE_OC[0] < com[2] < k * HEAD_COM_ABOVE_OC[1]


@pytest.mark.parametrize("percentile", [5, 50, 95])
def test_reference_human_condyles_behind_and_below_the_tragion(percentile):
    """The head/neck split: the occipital condyles (the upper neck joint, the head frame's
    origin) stand 18.4 mm behind and 31.0 mm below the tragion at 1.756 m, per stature (Chancey
    et al. 2007's condyles from the external auditory meatus, J. Biomech. 40:1953 [S abstract],
    the meatus taken for the tragion [E]: OC_FROM_MEATUS), and the neck link from C7/T1 to them
    is what de Leva's head+neck leaves below them. Before branch chancey: 8 mm ahead of and 3.5 mm
    below the tragion (the Hybrid III 50M's split of de Leva's head+neck), the link 142.3 mm at
    1.753 m, now 114.8."""
    model = build(sex="female" if percentile == 5 else "male", percentile=percentile)
    k = model.source.header["stature"] / 1.756
    tragion = head_points(model)["tragion"]
    assert tragion[0] == pytest.approx(k * OC_FROM_MEATUS[0], abs=1e-4 * k)
    assert tragion[2] == pytest.approx(k * OC_FROM_MEATUS[1], abs=1e-4 * k)


@pytest.mark.parametrize("name", ["driver_seated", "passenger_seated"])
def test_identity_human_line_targets_leave_the_dummies_and_are_off_by_file_angles(family, name):
    """Dummies ignore human_thorax and human_head (their q bit for bit as without them); for the
    human, ``"file_angles"`` for both (what GS1 asks) gives the straight trunk and the neck of
    the file's angles and the torso line alone; each target alone moves the human."""
    keys = ("human_thorax", "human_head")
    without = load_posture(name)
    without["targets"] = {k: v for k, v in without["targets"].items() if k not in keys}
    for model in family.values():
        assert np.array_equal(position(model, name), position(model, without))
    human = build(percentile=50)
    q = position(human, name, targets=dict.fromkeys(keys, "file_angles"))
    assert np.array_equal(q, position(human, without))
    for key in keys:
        assert not np.array_equal(q, position(human, name, targets={key: "file_angles"}))
    assert not np.array_equal(q, position(human, name))


@pytest.mark.parametrize("name", ["driver_seated", "passenger_seated"])
def test_reference_torso_line_ends_at_the_lower_neck_joint_or_the_cervicale(family, name):
    """The torso angle target is met on the H-point -> lower neck joint line for the dummies and
    on the H-point -> cervicale line for the human (its C7/T1 joint lies 81 mm ahead of the
    cervicale, a skin point, as the dummies' lower neck joint does not): the human's thorax stands
    where it stood with its neck joint at the cervicale, the dummies' postures unchanged."""
    target = math.radians(load_posture(name)["targets"]["torso_angle_deg"])
    human = build(percentile=50)
    for model in (*family.values(), human):
        q = position(model, name)
        top = ("upper_torso", np.asarray(human.source.markers["cervicale"].position)) \
            if model is human else ("neck", np.zeros(3))
        d = point_position(model, q, *top) - point_position(model, q, "pelvis", np.zeros(3))
        assert math.atan2(-d[0], d[2]) == pytest.approx(target, abs=TARGET_TOLERANCE / 0.5)
        assert torso_angle(model, q) == pytest.approx(math.atan2(-d[0], d[2]), abs=1e-12)
    d = point_position(human, q, "neck", np.zeros(3)) - point_position(human, q, "pelvis", np.zeros(3))
    assert math.atan2(-d[0], d[2]) < target - math.radians(5.0)


def test_analytic_angles_round_trip(h3):
    """Angles given in a posture come back from the configuration unchanged (no targets)."""
    posture = {"kind": "posture", "root": {"position": [0.1, 0.2, 0.9], "rotation_deg": [0, 0, 30]},
               "angles": {"left_knee_deg": 40.0, "hip_deg": [5.0, -30.0, 10.0],
                          "lower_neck_deg": [3.0, 12.0, -4.0], "right_elbow_deg": 25.0}}
    q = position(h3, posture)
    a = joint_angles(h3, q)
    assert a["left_knee"] == pytest.approx(40.0, abs=1e-9)
    assert a["right_elbow"] == pytest.approx(25.0, abs=1e-9)
    np.testing.assert_allclose(a["left_hip"], [5.0, -30.0, 10.0], atol=1e-9)
    np.testing.assert_allclose(a["right_hip"], [-5.0, -30.0, -10.0], atol=1e-9)  # mirrored
    np.testing.assert_allclose(a["lower_neck"], [3.0, 12.0, -4.0], atol=1e-9)
    np.testing.assert_allclose(point_position(h3, q, "pelvis", np.zeros(3)), [0.1, 0.2, 0.9], atol=1e-12)


def test_identity_ik_targets_move_with_the_wheel(h3):
    """Targets passed to position() are added to the file's: moving the hands 3 cm rearward moves
    the solved hands with them (to 1 mm)."""
    moved = {"point": [{"body": "left_lower_arm", "point": "hand", "position": [0.29, 0.165, 0.42]},
                       {"body": "right_lower_arm", "point": "hand", "position": [0.29, -0.165, 0.42]}]}
    posture = load_posture("driver_seated")
    posture["targets"]["point"] = [p for p in posture["targets"]["point"] if p["point"] != "hand"]
    q = position(h3, posture, targets=moved)
    hand = point_position(h3, q, "left_lower_arm", _named_point(h3, "left_lower_arm", "hand", "", ""))
    np.testing.assert_allclose(hand, [0.29, 0.165, 0.42], atol=1e-3)


def test_regression_posture_usable_as_initial_state(h3):
    """q from position() starts a simulation (a few steps, standing pedestrian under gravity)."""
    q = position(h3, "pedestrian_walking")
    res = simulate(h3, 0.002, dt=1e-4, q0=q)
    assert np.all(np.isfinite(res.q))


@pytest.mark.parametrize("angles, match", [
    ({"elbow": 10.0}, "_deg suffix"),
    ({"wrist_deg": 10.0}, "unknown joint 'wrist'"),
    ({"left_knee_deg": 170.0}, r"outside the joint's range of motion \(accepted: -3 to 135 deg\)"),
    ({"hip_deg": [0.0, -150.0, 0.0]}, "left_hip component y = -150 deg is outside"),
    ({"hip_deg": 10.0}, "expected a list of 3"),
    ({"root_deg": [0, 0, 0]}, "root is placed by"),
])
def test_reference_posture_errors_are_clear(h3, angles, match):
    with pytest.raises(DummyFileError, match=match):
        position(h3, {"kind": "posture", "angles": angles})


def test_reference_posture_file_errors(h3, tmp_path):
    with pytest.raises(DummyFileError, match="unknown posture"):
        position(h3, "lying_down")
    p = tmp_path / "bad.toml"
    p.write_text('kind = "posture"\nname = "bad"\n[root]\nrotation = [0, 0, 0]\n')
    with pytest.raises(DummyFileError, match=r"bad.toml: root.rotation: angles are given in degrees"):
        position(h3, p)
    with pytest.raises(DummyFileError, match="unknown body 'steering_wheel'"):
        position(h3, {"kind": "posture", "targets": {"point": [
            {"body": "steering_wheel", "point": "hand", "position": [0, 0, 0]}]}})
    with pytest.raises(DummyFileError, match="has no 'hand' point"):
        position(h3, {"kind": "posture", "targets": {"point": [
            {"body": "left_foot", "point": "hand", "position": [0, 0, 0]}]}})


@pytest.mark.parametrize("targets, match", [
    ({"seat_track": {"rear": [0.1, 0, 0], "front": [-0.1, 0, 0]}}, r"targets.seat_track: front x -0.1 m is not ahead"),
    ({"seat_track": {"rear": [0.0, 0, 0], "back": [0.1, 0, 0]}}, r"targets.seat_track.back: unknown key \(accepted: rear, front\)"),
    ({"seat_track": {"rear": [0.0, 0, 0], "front": [0.1, 0, 0]}, "h_point": [0, 0, 0]}, "give h_point or seat_track, not both"),
    ({"point": [{"body": "left_foot", "point": "heel", "position": [0, 0, 0], "z": 0.0}]}, "give position or x/y/z"),
    ({"point": [{"body": "left_foot", "point": "heel"}]}, r"targets.point\[0\]: no target position"),
    ({"point": [{"body": "left_foot", "point": "heel", "z": "floor"}]}, r"targets.point\[0\].z: expected a finite number"),
    ({"point": [{"body": "left_foot", "point": "ball", "plane": {"point": [0.9, 0, -0.2], "normal": [0, 0, 0]}}]},
     r"targets.point\[0\].plane.normal: a zero vector"),
    ({"point": [{"body": "left_foot", "point": "ball", "plane": {"point": [0.9, 0, -0.2]}}]},
     r"targets.point\[0\].plane.normal"),
    ({"point": [{"body": "left_foot", "point": "ball", "plane": {"point": [0.9, 0, -0.2], "normal": [0, 0, 1], "d": 1}}]},
     r"targets.point\[0\].plane.d: unknown key \(accepted: point, normal\)"),
])
def test_reference_target_errors_are_clear(h3, targets, match):
    with pytest.raises(DummyFileError, match=match):
        position(h3, {"kind": "posture", "targets": targets})


@pytest.mark.parametrize("key", ["human_thorax", "human_head"])
def test_reference_human_line_errors_are_clear(h3, key):
    """An unknown thorax or head source is refused for any model; a human's line target needs
    the right heel's target with z, which gives H30."""
    with pytest.raises(DummyFileError, match=rf"targets.{key}.*umtri_drivers, file_angles"):
        position(h3, {"kind": "posture", "targets": {key: "reed"}})
    with pytest.raises(DummyFileError, match=rf"targets.{key}: needs the right heel's target"):
        position(build(percentile=50), {"kind": "posture", "targets": {
            "h_point": [0.0, 0.0, 0.0], key: "umtri_drivers"}})
