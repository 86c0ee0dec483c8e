"""The parametric human's optional three-joint neck (occupant/human/neck_mid.py; builder option
``neck_mid``, off by default): the split is the rigid neck at zero angle, the three joints' ranges
are the chord argument link by link on Panjabi et al.'s per-level figures, the chain keeps the
two-joint neck's moment-angle curve, the muscles stay where they were, and the measured
validation figures (scenarios/validation/HISTORY.md, "neckmid")."""
import math

import numpy as np
import pytest
from test_human_joints import (PANJABI_2001_AXIAL, PANJABI_2001_EXTENSION, PANJABI_2001_FLEXION,
                               PANJABI_2001_LATERAL)

from occupant.dynamics.api import body_poses
from occupant.human import build, position
from occupant.human.assemble import reference_origins
from occupant.human.builder import _check_inputs, build_segments, human_range
from occupant.human.neck_levelling import share_neck_flexion
from occupant.human.neck_mid import JOINT, RANGE_TABLES, UPPER
from occupant.human.neck_share import sagittal_share
from occupant.human.validation import read_scenario, VALIDATIONS
from occupant.spatial.rotation import quat_log

NECK = ("lower_neck", JOINT, "upper_neck")


def _segments(mid, muscles=False):
    stature, mass, prop = _check_inputs(None, None, "male", 50)
    return build_segments(stature, mass, "male", prop, neck_muscles=muscles, neck_mid=mid)


def test_identity_split_is_the_rigid_neck_at_zero_angle():
    """Neck + upper cervical piece have the rigid neck's mass, centre of mass and central inertia
    (parallel-axis theorem); every other segment, joint centre and ellipsoid sits where it sat."""
    rigid, split = _segments(False), _segments(True)
    o0, o1 = reference_origins(rigid), reference_origins(split)
    by0, by1 = {s.name: s for s in rigid}, {s.name: s for s in split}
    parts = [(by1[n].mass, o1[n] + by1[n].com, by1[n].inertia) for n in ("neck", UPPER)]
    m = sum(p[0] for p in parts)
    c = sum(p[0] * p[1] for p in parts) / m
    inertia = sum(p[2] + p[0] * ((p[1] - c) @ (p[1] - c) * np.eye(3) - np.outer(p[1] - c, p[1] - c))
                  for p in parts)
    assert m == pytest.approx(by0["neck"].mass, rel=1e-12)
    np.testing.assert_allclose(c, o0["neck"] + by0["neck"].com, atol=1e-12)
    np.testing.assert_allclose(inertia, by0["neck"].inertia, atol=1e-12)
    for name, s in by0.items():
        if name != "neck":
            assert by1[name].mass == s.mass
            np.testing.assert_allclose(o1[name] + by1[name].com, o0[name] + s.com, atol=1e-12)
            np.testing.assert_allclose(o1[name], o0[name], atol=1e-12)
    ells0 = {e.name: o0[s.name] + e.center for s in rigid for e in s.ellipsoids}
    ells1 = {e.name: o1[s.name] + e.center for s in split for e in s.ellipsoids}
    assert ells0.keys() == ells1.keys()
    for name, centre in ells0.items():
        np.testing.assert_allclose(ells1[name], centre, atol=1e-12)
    # the cut at half the neck's length, each piece a rigid body
    assert by1[UPPER].location[2] == pytest.approx(0.5 * by0["head"].location[2], rel=1e-12)
    for piece in ("neck", UPPER):
        p = np.sort(np.linalg.eigvalsh(by1[piece].inertia))
        assert p[0] > 0 and p[0] + p[1] >= p[2]


def test_identity_option_off_by_default():
    """build() without the option has the two-joint neck."""
    model = build(percentile=50, neck_activation=None)
    assert UPPER not in model.body_names and JOINT not in model.joint_names


def _chord_split3(levels, whole):
    """(lower, mid, upper) joint ranges, deg: the lower link's arc L (C4-C7 levels), the upper
    link's M (C2-C4), the upper cervical U (C0-C2); each chord leans half its arc."""
    u, m, lo = sum(levels[:2]), sum(levels[2:4]), sum(levels[4:])
    shares = (lo / 2.0, (lo + m) / 2.0, m / 2.0 + u)
    return tuple(whole * s / (u + m + lo) for s in shares)


@pytest.mark.parametrize("dof, side, levels, whole", [
    (0, 1, PANJABI_2001_LATERAL, 45.0), (1, 1, PANJABI_2001_FLEXION, 45.0),
    (1, 0, PANJABI_2001_EXTENSION, 45.0), (2, 1, PANJABI_2001_AXIAL, 70.0)])
def test_analytic_three_joint_ranges_from_in_vitro_flexibility(dof, side, levels, whole):
    """Each of the three joints' range is its chord share of the per-level figures of Panjabi et
    al. 2001 (joint_rom.toml, the three-joint sections), of the clinical range; the three sum to
    it; the mid joint takes the two-joint lower joint's share, B/2."""
    got = [abs(math.degrees(human_range(j, dof, "spherical", RANGE_TABLES[j])[side])) for j in NECK]
    for g, e in zip(got, _chord_split3(levels, whole)):
        assert g == pytest.approx(e, abs=0.06)
    assert sum(got) == pytest.approx(whole, abs=0.11)
    two_joint_lower = abs(math.degrees(human_range("lower_neck", dof, "spherical")[side]))
    assert got[1] == pytest.approx(two_joint_lower, abs=0.06)


def _angle_at(resistance, load):
    """The joint angle (deg) at which its spring carries ``load`` (N m, signed as the angle)."""
    table = resistance.table
    return math.degrees(np.interp(load, table[:, 1], table[:, 0]))


@pytest.mark.parametrize("dof, loads", [
    (0, (2.0, 10.0, 30.0, 57.0, -10.0, -57.0)), (1, (2.0, 10.0, 60.0, 190.0, -5.0, -10.0, -57.0)),
    (2, (2.0, 10.0, 40.0, -10.0))])
def test_analytic_chain_keeps_the_two_joint_moment_angle_curve(dof, loads):
    """In series every joint carries the whole moment: the three joints' angles at a moment sum
    to the two joints' (inside the range, where each is at the same fraction of its range, and
    in the ligamentous branches, whose spans sum as before), within the rounding of the ranges
    and spans to 0.1 deg: at most 0.3 % (the axial spans sum to 40.2 deg against 40.6)."""
    segs2, segs3 = _segments(False), _segments(True)
    res = lambda segs, joint: next(r for s in segs if s.joint_name == joint
                                   for r in s.resistances if r.dof == dof)
    for load in loads:
        two = sum(_angle_at(res(segs2, j), load) for j in ("lower_neck", "upper_neck"))
        three = sum(_angle_at(res(segs3, j), load) for j in NECK)
        assert three == pytest.approx(two, rel=0.005, abs=0.05), load


def test_identity_muscles_where_the_rigid_neck_had_them():
    """Every muscle has the two-joint body's strength and path: its attachments on the neck lie
    where they lay (reference posture), on the piece at their height."""
    rigid = build(percentile=50)
    split = build(percentile=50, neck_mid=True)
    assert rigid.muscle_names == split.muscle_names
    np.testing.assert_array_equal(rigid.muscles.max_force, split.muscles.max_force)
    np.testing.assert_array_equal(rigid.muscles.optimal_length, split.muscles.optimal_length)
    X0 = body_poses(rigid, rigid.make_data(), rigid.neutral_configuration())
    X1 = body_poses(split, split.make_data(), split.neutral_configuration())
    cut = split.source.joints[JOINT].placement.position[2]
    on_upper = 0
    for name, mk in split.source.markers.items():
        i0, i1 = rigid.marker(name), split.marker(name)
        b0, b1 = rigid.marker_body[i0], split.marker_body[i1]
        p0 = X0[b0, :3, :3] @ rigid.marker_p[i0] + X0[b0, :3, 3]
        p1 = X1[b1, :3, :3] @ split.marker_p[i1] + X1[b1, :3, 3]
        np.testing.assert_allclose(p1, p0, atol=1e-12)
        if mk.part == UPPER:
            on_upper += 1
            assert rigid.source.markers[name].position[2] >= cut
        elif mk.part == "neck" and name != "neck_shell_frame":
            assert mk.position[2] < cut
    assert on_upper == 10      # both sides' five lumped neck attachments above C4; trap_acr's (C7) below


def test_identity_shared_neck_flexion_over_three_joints():
    """The seated posture's neck flexion (the file's 20 deg: its head line's target off, posture.py
    human_head) shared among the three joints by their flexion ranges; the head's orientation
    unchanged."""
    human = build(stature=1.753, mass=77.3, neck_mid=True)
    q = position(human, "passenger_seated", targets={"human_head": "file_angles"})
    shared = share_neck_flexion(human, q)

    def flexion(qq, joint):
        k = int(human.tree.qidx[human.joint_links[human.joint_names.index(joint)][-1]])
        return quat_log(qq[k:k + 4])[1]
    total = sum(flexion(q, j) for j in NECK)
    assert math.degrees(total) == pytest.approx(20.0, abs=1e-9)
    reach = [human_range(j, 1, "spherical", RANGE_TABLES[j])[1] for j in NECK]
    for j, r in zip(NECK, reach):
        assert flexion(shared, j) == pytest.approx(total * r / sum(reach), abs=1e-12)
    head = human.body("head")
    data = human.make_data()
    np.testing.assert_allclose(body_poses(human, data, shared)[head][:3, :3],
                               body_poses(human, data, q)[head][:3, :3], atol=1e-12)


@pytest.fixture(scope="module")
def nbdl12_three():
    scenario, path = read_scenario("human_neck_nbdl_12g_frontal")
    scenario["human"]["neck_mid"] = True
    return VALIDATIONS[scenario["test"]].run(scenario, path, None)


def test_reference_nbdl_12g_three_joint_neck_inside(nbdl12_three):
    """Calibration of the C7/T1 damping with three joints (joint_passive.toml, 11 -> 20 N m s/rad;
    at 11: 73.8 deg at 172 ms, out): 72.5 deg at 176 ms, 19.7 deg at 298 ms, inside; the head's
    5 deg onset stays 8 ms before the volunteers' earliest (85.9 ms; two joints 86.3; volunteers
    94.1-114.9 ms): the third joint does not delay it. Since the neck's base at C7/T1 (the link
    32 mm longer, the muscles scaled to it, the mid joint's damping the two-joint lower's 11.5;
    not re-fitted): 76.3 deg at 176 ms, 18.4 deg, onset 87.1 ms; the joints' peaks 15.2 / 17.2 /
    27.7 -> 16.4 / 18.4 / 28.3 deg. Since the head's com keeps de Leva's head+neck com on that
    link and the two-joint lower damping's re-fit (the mid joint's 11.5 -> 14.5), C7/T1's
    re-fitted 20 -> 22 (at 20: 174 ms, out): 75.2 deg at 176 ms, 19.2 deg, onset 86.5 ms, the
    joints' peaks 16.4 / 17.7 / 28.1 deg. Since the condyles below the tragion (the link 142.3 ->
    114.8 mm), the head's com 26.4 mm ahead of them and the two-joint upper damping's re-fit
    1.1 -> 2.0 (branch chancey; the three-joint neck's dampings not re-fitted: every figure
    inside): 73.6 deg at 176 ms, 25.2 deg, onset 80.5 ms (the head's com ahead nods it sooner,
    13.6 ms before the volunteers' earliest), the joints' peaks 15.5 / 17.2 / 27.9 deg."""
    c = nbdl12_three["checks"]
    assert all(ok for _, ok in c.values()), c
    expected = {"peak_flexion_deg": 73.6, "peak_flexion_time_ms": 176.0, "final_flexion_deg": 25.2}
    for k, v in expected.items():
        assert c[k][0] == pytest.approx(v, abs=1.0), k
    t, a = np.asarray(nbdl12_three["t"]), nbdl12_three["history"]["head_flexion_deg"]
    i = int(np.argmax(a >= 5.0))
    onset_ms = 1e3 * np.interp(5.0, a[i - 1:i + 1], t[i - 1:i + 1])
    assert onset_ms == pytest.approx(80.5, abs=1.0)
    res = nbdl12_three["results"]
    peaks = {j: np.degrees(np.max(res.outputs[f"{j}_y.deflection"])) for j in NECK}
    assert peaks == pytest.approx({"lower_neck": 15.5, JOINT: 17.2, "upper_neck": 27.9}, abs=0.5)
    share = sagittal_share(nbdl12_three["model"], res)     # the mid joint read as the others
    assert list(share) == ["lower", "mid", "upper"]
    np.testing.assert_allclose(share["mid"]["angle_deg"],
                               np.degrees(res.outputs[f"{JOINT}_y.deflection"]))


def test_bad_neck_mid_names_file_and_key(edited_case):
    from occupant.io.toml_files import InputFileError

    path = edited_case("human_neck_nbdl_12g_frontal", 'neck_activation = "reflex"',
                       'neck_activation = "reflex"\nneck_mid = 1')
    with pytest.raises(InputFileError, match="neck_mid"):
        read_scenario(str(path))
