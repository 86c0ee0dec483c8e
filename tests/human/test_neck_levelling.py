"""The seated human's head levelled by both neck joints (occupant.human.neck_levelling)."""
import math

import numpy as np
import pytest

from occupant.dynamics.api import body_poses
from occupant.human import build, position
from occupant.human.neck_levelling import SUBAXIAL_SHARE, levelling_shares, share_neck_flexion
from occupant.spatial.rotation import quat_log


@pytest.fixture(scope="module")
def seated():
    human = build(stature=1.753, mass=77.3)
    return human, position(human, "passenger_seated")


def _flexion(model, q, joint):
    link = model.joint_links[model.joint_names.index(joint)][-1]
    k = int(model.tree.qidx[link])
    return quat_log(q[k:k + 4])


def test_identity_shared_neck_flexion_keeps_the_head_level(seated):
    """Shared between the joints, the posture's 20 deg of lower-neck flexion leaves the head's
    orientation as it was (two turns about one axis add), in the seated shares
    (levelling_shares: C7/T1 half the subaxial turn, 16.6 / 12.8 of the whole)."""
    human, q = seated
    shared = share_neck_flexion(human, q)
    lower, upper = (_flexion(human, shared, j) for j in ("lower_neck", "upper_neck"))
    before = _flexion(human, q, "lower_neck")[1] + _flexion(human, q, "upper_neck")[1]
    assert math.degrees(before) == pytest.approx(20.0, abs=1e-9)
    assert lower[1] == pytest.approx(before * SUBAXIAL_SHARE / 2, abs=1e-12)
    assert lower[1] + upper[1] == pytest.approx(before, abs=1e-12)
    data = human.make_data()
    head = human.body("head")
    R0 = body_poses(human, data, q)[head][:3, :3]
    R1 = body_poses(human, data, shared)[head][:3, :3]
    assert np.allclose(R0, R1, atol=1e-12)
    assert np.array_equal(q, position(human, "passenger_seated"))   # the input left unchanged


def test_analytic_chord_of_a_uniform_arc_leans_by_half_its_turn():
    """The chord argument the shares rest on: a planar chain of many equal links turning
    uniformly by B = SUBAXIAL_SHARE T in all (the subaxial arc), then by U = T - B at its top
    (C0-C2), leans its chord (C7/T1 to the condyles) by B/2, the lower joint's share of T, and
    the head relative to the chord by the rest, the upper joint's share."""
    T, n = math.radians(20.0), 4000
    B = SUBAXIAL_SHARE * T
    U = T - B
    angles = B * (np.arange(n) + 0.5) / n        # each link's lean, mid-link
    tip = np.array([np.sum(np.sin(angles)), np.sum(np.cos(angles))])
    chord = math.atan2(tip[0], tip[1])
    shares = levelling_shares()
    assert chord == pytest.approx(shares["lower_neck"] * T, abs=1e-9)
    assert (B + U) - chord == pytest.approx(shares["upper_neck"] * T, abs=1e-9)


@pytest.mark.parametrize("three", [False, True])
def test_identity_shares_add_up_to_the_turn(three):
    assert sum(levelling_shares(three).values()) == pytest.approx(1.0, abs=1e-15)


def test_reference_dummies_keep_their_bracket_posture():
    """The Hybrid III's head is levelled by its bracket: its q is returned as given."""
    from occupant.human import load_dummy
    h3 = load_dummy("hybrid3_50m")
    q = position(h3, "passenger_seated")
    assert share_neck_flexion(h3, q) is q
