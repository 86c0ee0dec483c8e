"""The seated human's head levelled by both neck joints (occupant.human.neck_levelling)."""
import math

import numpy as np
import pytest

from occupant.dynamics.api import body_poses
from occupant.human import build, position
from occupant.human.builder import human_range
from occupant.human.neck_levelling import share_neck_flexion
from occupant.spatial.rotation import quat_log


# the file's 20 deg of lower-neck flexion, not the head line's target that the seated postures
# give a human (posture.py human_head: the IK then sets the neck's total flexion, 20.47 deg here)
FILE_NECK = {"human_head": "file_angles"}


@pytest.fixture(scope="module")
def seated():
    human = build(stature=1.753, mass=77.3)
    return human, position(human, "passenger_seated", targets=FILE_NECK)


def _flexion(model, q, joint):
    link = model.joint_links[model.joint_names.index(joint)][-1]
    k = int(model.tree.qidx[link])
    return quat_log(q[k:k + 4])


def test_identity_shared_neck_flexion_keeps_the_head_level(seated):
    """Shared between the joints, the posture's 20 deg of lower-neck flexion leaves the head's
    orientation as it was (two turns about one axis add), each joint inside its flexion range,
    in the ratio of the ranges (12.0 / 33.0 deg, joint_rom.toml)."""
    human, q = seated
    shared = share_neck_flexion(human, q)
    lower, upper = (_flexion(human, shared, j) for j in ("lower_neck", "upper_neck"))
    before = _flexion(human, q, "lower_neck")[1] + _flexion(human, q, "upper_neck")[1]
    assert math.degrees(before) == pytest.approx(20.0, abs=1e-9)
    reach = [human_range(j, 1, "spherical")[1] for j in ("lower_neck", "upper_neck")]
    assert lower[1] == pytest.approx(before * reach[0] / sum(reach), abs=1e-12)
    assert upper[1] == pytest.approx(before * reach[1] / sum(reach), abs=1e-12)
    assert all(0.0 < a[1] < r for a, r in zip((lower, upper), reach))
    data = human.make_data()
    head = human.body("head")
    R0 = body_poses(human, data, q)[head][:3, :3]
    R1 = body_poses(human, data, shared)[head][:3, :3]
    assert np.allclose(R0, R1, atol=1e-12)
    assert np.array_equal(q, position(human, "passenger_seated", targets=FILE_NECK))   # the input left unchanged


def test_identity_shared_neck_rests_with_equal_moments(seated):
    """Shared by the ranges, the two neck joints' passive curves (joint_passive.toml) take the same
    moment: the series chain's rest without muscles, which a split sourced from seated posture
    (13.0 / 7.0 deg) is not (C7/T1 12.1 N m into its branch, the condyles 0.5 N m;
    scenarios/validation/HISTORY.md Stop 39, branch neckposture)."""
    from occupant.human.passive_joints import passive_moment, passive_table
    human, q = seated
    shared = share_neck_flexion(human, q)
    ref, table = passive_table()
    moments = []
    for joint in ("lower_neck", "upper_neck"):
        lo, hi = human_range(joint, 1, "spherical")
        theta = _flexion(human, shared, joint)[1]
        moments.append(float(passive_moment(table[joint]["y"], np.array([theta]), lo, hi,
                                            ref["shape"])[0]))
    assert moments[0] < 0.0
    assert moments[0] == pytest.approx(moments[1], rel=1e-9)


def test_reference_dummies_keep_their_bracket_posture():
    """The Hybrid III's head is levelled by its bracket: its q is returned as given."""
    from occupant.human import load_dummy
    h3 = load_dummy("hybrid3_50m")
    q = position(h3, "passenger_seated")
    assert share_neck_flexion(h3, q) is q
