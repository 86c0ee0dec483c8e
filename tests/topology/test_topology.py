"""Tests of occupant.topology: regular numbering, incidence matrix S, path matrix T (seed 004)."""

import dataclasses
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from occupant.topology import Topology, TopologyError, build_topology

# ---------------------------------------------------------------------------------------------
# The worked example of seed 004: B0-H1-B1, B1-H2-B2, B1-H3-B3, B3-H4-B4, B3-H5-B5.

SEED_BODIES = ["B1", "B2", "B3", "B4", "B5"]
SEED_JOINTS = [
    ("H1", None, "B1"),
    ("H2", "B1", "B2"),
    ("H3", "B1", "B3"),
    ("H4", "B3", "B4"),
    ("H5", "B3", "B5"),
]
# Seed 004, "关联数组": i+ = 0 1 1 3 3 for joints 1..5.
SEED_INBOARD = [0, 1, 1, 3, 3]
# Seed 004, "关联矩阵": S0 = [1 0 0 0 0]; S upper triangular, diagonal -1 (rows B1..B5, cols H1..H5).
SEED_S0 = [1, 0, 0, 0, 0]
SEED_S = [
    [-1, 1, 1, 0, 0],
    [0, -1, 0, 0, 0],
    [0, 0, -1, 1, 1],
    [0, 0, 0, -1, 0],
    [0, 0, 0, 0, -1],
]
# Seed 004, "通路矩阵": rows H1..H5, columns B1..B5; every joint points away from B0, so -1.
SEED_T = [
    [-1, -1, -1, -1, -1],
    [0, -1, 0, 0, 0],
    [0, 0, -1, -1, -1],
    [0, 0, 0, -1, 0],
    [0, 0, 0, 0, -1],
]


def seed_topology(joints=SEED_JOINTS):
    return build_topology(SEED_BODIES, joints)


def test_reference_seed_inboard_array():
    topo = seed_topology()
    assert topo.body_order == ("B1", "B2", "B3", "B4", "B5")
    assert topo.joint_order == ("H1", "H2", "H3", "H4", "H5")
    assert topo.inboard.tolist() == SEED_INBOARD
    assert topo.parent.tolist() == [-1, 0, 0, 2, 2]
    assert topo.outboard == ((1,), (2, 3), (), (4, 5), (), ())
    assert topo.joint_reversed == (False,) * 5
    assert topo.virtual_root_joint is None
    assert topo.cut_joints == ()


def test_reference_seed_incidence_and_path_matrices():
    topo = seed_topology()
    np.testing.assert_array_equal(topo.S0, SEED_S0)
    np.testing.assert_array_equal(topo.S, SEED_S)
    np.testing.assert_array_equal(topo.T, SEED_T)


def test_reference_seed_identities():
    topo = seed_topology()
    np.testing.assert_array_equal(topo.T @ topo.S, np.eye(5))
    np.testing.assert_array_equal(topo.S @ topo.T, np.eye(5))
    np.testing.assert_array_equal(topo.S0 @ topo.T, -np.ones(5))


def test_reference_seed_angular_velocities():
    # Seed 004, R-W method: w1 = w0 + W1, w2 = w0 + W1 + W2, w3 = w0 + W1 + W3,
    # w4 = w0 + W1 + W3 + W4, w5 = w0 + W1 + W3 + W5; in matrix form w = w0 1 - T^T W.
    topo = seed_topology()
    rng = np.random.default_rng(4)
    w0 = rng.normal(size=3)
    W = rng.normal(size=(5, 3))  # relative angular velocity across joint j, row j-1
    w = w0 - topo.T.T @ W
    expected = [
        w0 + W[0],
        w0 + W[0] + W[1],
        w0 + W[0] + W[2],
        w0 + W[0] + W[2] + W[3],
        w0 + W[0] + W[2] + W[4],
    ]
    np.testing.assert_allclose(w, expected, rtol=0, atol=1e-15)


def test_reference_seed_joint_order_and_direction_do_not_matter():
    shuffled = [SEED_JOINTS[i] for i in (4, 2, 0, 3, 1)]
    topo = seed_topology(shuffled)
    np.testing.assert_array_equal(topo.S, SEED_S)
    np.testing.assert_array_equal(topo.T, SEED_T)
    assert topo.joint_order == ("H1", "H2", "H3", "H4", "H5")

    # H4 given outboard-to-inboard: same tree, flagged as reversed.
    flipped = [j if j[0] != "H4" else ("H4", "B4", "B3") for j in SEED_JOINTS]
    topo = seed_topology(flipped)
    np.testing.assert_array_equal(topo.T, SEED_T)
    assert topo.joint_reversed == (False, False, False, True, False)


def test_reference_seed_path_and_ancestors():
    topo = seed_topology()
    assert topo.path("B5") == ["H1", "H3", "H5"]
    assert topo.path("B1") == ["H1"]
    assert topo.body_number("B4") == 4
    assert topo.joint_number("H3") == 3
    assert topo.is_ancestor("B1", "B4")
    assert topo.is_ancestor("B3", "B5")
    assert topo.is_ancestor(None, "B2")
    assert not topo.is_ancestor("B2", "B4")
    assert not topo.is_ancestor("B4", "B3")
    assert not topo.is_ancestor("B3", "B3")


# ---------------------------------------------------------------------------------------------
# Closed forms.


@pytest.mark.parametrize("n", [1, 2, 7])
def test_analytic_serial_chain(n):
    bodies = [f"link{i}" for i in range(n)]
    joints = [(f"q{i}", bodies[i - 1] if i else None, bodies[i]) for i in range(n)]
    topo = build_topology(bodies, joints)
    # Chain: every joint lies on the path of every body outboard of it.
    np.testing.assert_array_equal(topo.T, -np.triu(np.ones((n, n), dtype=int)))
    np.testing.assert_array_equal(topo.S, -np.eye(n, dtype=int) + np.eye(n, k=1, dtype=int))
    np.testing.assert_array_equal(topo.S0, np.eye(1, n, dtype=int)[0])
    assert topo.inboard.tolist() == list(range(n))


def test_analytic_star_on_base_is_a_forest():
    # Several explicit joints to B0 are fine: T = -E, S = -E, S0 = [1, ..., 1].
    bodies = ["seat", "belt", "pelvis"]
    joints = [("p", None, "pelvis"), ("s", None, "seat"), ("b", None, "belt")]
    topo = build_topology(bodies, joints)
    assert topo.body_order == ("seat", "belt", "pelvis")  # one level: user's body order
    assert topo.joint_order == ("s", "b", "p")
    np.testing.assert_array_equal(topo.T, -np.eye(3))
    np.testing.assert_array_equal(topo.S, -np.eye(3))
    np.testing.assert_array_equal(topo.S0, [1, 1, 1])
    assert topo.outboard == ((1, 2, 3), (), (), ())


def test_analytic_numbering_is_breadth_first_in_user_body_order():
    bodies = ["hand", "head", "pelvis", "arm", "thorax"]
    joints = [
        ("wrist", "arm", "hand"),
        ("neck", "thorax", "head"),
        ("shoulder", "thorax", "arm"),
        ("lumbar", "pelvis", "thorax"),
        ("free", None, "pelvis"),
    ]
    topo = build_topology(bodies, joints)
    # Levels: {pelvis}, {thorax}, {head, arm} (user order: head before arm), {hand}.
    assert topo.body_order == ("pelvis", "thorax", "head", "arm", "hand")
    assert topo.joint_order == ("free", "lumbar", "neck", "shoulder", "wrist")
    assert topo.inboard.tolist() == [0, 1, 2, 2, 4]


# ---------------------------------------------------------------------------------------------
# Rootless systems.


def test_rootless_single_body_gets_virtual_free_joint():
    topo = build_topology(["box"], [])
    assert topo.virtual_root_joint == "box_virtual_free"
    assert topo.joint_order == ("box_virtual_free",)
    assert topo.inboard.tolist() == [0]
    np.testing.assert_array_equal(topo.S, [[-1]])
    np.testing.assert_array_equal(topo.T, [[-1]])
    np.testing.assert_array_equal(topo.S0, [1])


def test_rootless_tree_root_is_first_body_without_inboard_joint():
    bodies = ["head", "pelvis", "thorax"]
    joints = [("neck", "thorax", "head"), ("lumbar", "pelvis", "thorax")]
    topo = build_topology(bodies, joints)
    assert topo.virtual_root_joint == "pelvis_virtual_free"
    assert topo.body_order == ("pelvis", "thorax", "head")
    assert topo.joint_order == ("pelvis_virtual_free", "lumbar", "neck")
    assert topo.joint_reversed == (False, False, False)
    assert topo.path("head") == ["pelvis_virtual_free", "lumbar", "neck"]
    np.testing.assert_array_equal(topo.T @ topo.S, np.eye(3))
    np.testing.assert_array_equal(topo.S0 @ topo.T, -np.ones(3))


def test_rootless_inconsistent_direction_is_reported_reversed():
    # Both a and c have no inboard joint; a comes first in the body list, so a is the root and
    # joint y = (c -> b) runs towards the root: reversed.
    topo = build_topology(["a", "b", "c"], [("x", "a", "b"), ("y", "c", "b")])
    assert topo.virtual_root_joint == "a_virtual_free"
    assert topo.body_order == ("a", "b", "c")
    assert topo.joint_order == ("a_virtual_free", "x", "y")
    assert topo.joint_reversed == (False, False, True)


def test_rootless_virtual_joint_name_avoids_user_names():
    topo = build_topology(["a", "b"], [("a_virtual_free", "a", "b")])
    assert topo.virtual_root_joint == "a_virtual_free_1"
    assert topo.joint_order == ("a_virtual_free_1", "a_virtual_free")


def test_rootless_with_loop():
    # Closed chain a -> b -> c -> a: every body is an outboard end, root is the first body.
    topo = build_topology(["a", "b", "c"], [("ab", "a", "b"), ("bc", "b", "c"), ("ca", "c", "a")])
    assert topo.virtual_root_joint == "a_virtual_free"
    assert topo.body_order == ("a", "b", "c")
    assert topo.joint_order == ("a_virtual_free", "ab", "ca")
    assert topo.joint_reversed == (False, False, True)
    assert topo.cut_joints == ("bc",)


# ---------------------------------------------------------------------------------------------
# Reversed joints in rooted systems.


def test_reversed_joint_in_rooted_tree():
    # The user wrote the knee as (shank -> thigh) but the thigh is nearer to B0.
    topo = build_topology(
        ["shank", "thigh"], [("hip", None, "thigh"), ("knee", "shank", "thigh")]
    )
    assert topo.body_order == ("thigh", "shank")
    assert topo.joint_order == ("hip", "knee")
    assert topo.joint_reversed == (False, True)
    assert topo.inboard.tolist() == [0, 1]


# ---------------------------------------------------------------------------------------------
# Loops: spanning tree by breadth-first search from B0 in the order joints are given.

FOUR_BAR_BODIES = ["crank", "coupler", "rocker"]
FOUR_BAR_JOINTS = [
    ("j1", None, "crank"),
    ("j2", "crank", "coupler"),
    ("j3", "coupler", "rocker"),
    ("j4", None, "rocker"),
]


def test_loop_four_bar_cut_joint():
    topo = build_topology(FOUR_BAR_BODIES, FOUR_BAR_JOINTS)
    # Level 1: crank (j1), rocker (j4); level 2: coupler via j2 (scanned before j3).
    assert topo.body_order == ("crank", "rocker", "coupler")
    assert topo.joint_order == ("j1", "j4", "j2")
    assert topo.cut_joints == ("j3",)
    assert topo.inboard.tolist() == [0, 0, 1]
    np.testing.assert_array_equal(topo.T @ topo.S, np.eye(3))


def test_loop_cut_joint_follows_joint_order():
    joints = [FOUR_BAR_JOINTS[i] for i in (0, 3, 2, 1)]  # j3 now scanned before j2
    topo = build_topology(FOUR_BAR_BODIES, joints)
    assert topo.body_order == ("crank", "rocker", "coupler")
    assert topo.joint_order == ("j1", "j4", "j3")
    assert topo.joint_reversed == (False, False, True)  # j3 is coupler -> rocker, tree rocker -> coupler
    assert topo.cut_joints == ("j2",)
    assert topo.inboard.tolist() == [0, 0, 2]


def test_loop_double_wishbone_suspension():
    bodies = ["chassis", "upper_arm", "lower_arm", "knuckle", "wheel"]
    joints = [
        ("chassis_free", None, "chassis"),
        ("upper_inner", "chassis", "upper_arm"),
        ("lower_inner", "chassis", "lower_arm"),
        ("upper_ball", "upper_arm", "knuckle"),
        ("lower_ball", "lower_arm", "knuckle"),
        ("tie_rod", "chassis", "knuckle"),
        ("spin", "knuckle", "wheel"),
    ]
    topo = build_topology(bodies, joints)
    # knuckle is reached at level 2 from the chassis through tie_rod, before the ball joints.
    assert topo.body_order == ("chassis", "upper_arm", "lower_arm", "knuckle", "wheel")
    assert topo.joint_order == ("chassis_free", "upper_inner", "lower_inner", "tie_rod", "spin")
    assert topo.cut_joints == ("upper_ball", "lower_ball")
    assert len(topo.cut_joints) == len(joints) - len(bodies)  # independent loops


def test_loop_parallel_joints_between_same_bodies():
    topo = build_topology(
        ["a", "b"], [("ground", None, "a"), ("first", "a", "b"), ("second", "b", "a")]
    )
    assert topo.joint_order == ("ground", "first")
    assert topo.cut_joints == ("second",)


def test_loop_through_base():
    topo = build_topology(["a"], [("g1", None, "a"), ("g2", None, "a")])
    assert topo.joint_order == ("g1",)
    assert topo.cut_joints == ("g2",)
    assert topo.virtual_root_joint is None


# ---------------------------------------------------------------------------------------------
# Identities on random trees and graphs (seeded generator driven by hypothesis).


def random_system(rng, n, rooted, flip, extra_edges=0):
    """Random tree of n bodies (plus extra loop-closing joints), names and input order shuffled.

    Returns bodies, joints, the true inboard body of each body (None = B0) and the set of joint
    names the generator wrote outboard-to-inboard.
    """
    names = [f"body{i}_{rng.randrange(10**6)}" for i in range(n)]
    truth_parent = {names[0]: None}
    for i in range(1, n):
        base = rooted and rng.random() < 0.15
        truth_parent[names[i]] = None if base else names[rng.randrange(i)]
    joints, flipped = [], set()
    for i, b in enumerate(names):
        a = truth_parent[b]
        if a is None and not rooted:
            continue  # the rootless system's root has no joint
        name = f"joint{i}"
        if a is not None and flip and rng.random() < 0.5:
            joints.append((name, b, a))
            flipped.add(name)
        else:
            joints.append((name, a, b))
    for e in range(extra_edges):
        a, b = rng.sample(names, 2)
        joints.append((f"loop{e}", a, b))
    bodies = names[:]
    rng.shuffle(bodies)
    rng.shuffle(joints)
    return bodies, joints, truth_parent, flipped


def check_invariants(topo, n):
    E = np.eye(n, dtype=int)
    np.testing.assert_array_equal(topo.T @ topo.S, E)
    np.testing.assert_array_equal(topo.S @ topo.T, E)
    np.testing.assert_array_equal(topo.S0 @ topo.T, -np.ones(n, dtype=int))
    # Regular numbering: S upper triangular with -1 on the diagonal, inboard < own number.
    np.testing.assert_array_equal(np.tril(topo.S, -1), 0)
    np.testing.assert_array_equal(np.diag(topo.S), -1)
    assert all(topo.inboard[k - 1] < k for k in range(1, n + 1))
    np.testing.assert_array_equal(topo.parent, topo.inboard - 1)
    assert sorted(sum(topo.outboard, ())) == list(range(1, n + 1))
    for k in range(n + 1):
        assert all(topo.inboard[c - 1] == k for c in topo.outboard[k])
    # T against its definition, through path() and is_ancestor().
    for i, body in enumerate(topo.body_order, start=1):
        on_path = {topo.joint_number(j) for j in topo.path(body)}
        assert topo.path(body)[-1] == topo.joint_order[i - 1]
        for j in range(1, n + 1):
            assert topo.T[j - 1, i - 1] == (-1 if j in on_path else 0)
            ancestor = j != i and j in on_path
            assert topo.is_ancestor(topo.body_order[j - 1], body) == ancestor


@settings(max_examples=150, derandomize=True, deadline=None)
@given(n=st.integers(1, 30), seed=st.integers(0, 2**32 - 1))
def test_identity_random_rooted_trees(n, seed):
    rng = random.Random(seed)
    bodies, joints, truth_parent, flipped = random_system(rng, n, rooted=True, flip=True)
    topo = build_topology(bodies, joints)
    check_invariants(topo, n)
    assert topo.virtual_root_joint is None
    assert topo.cut_joints == ()
    assert sorted(topo.body_order) == sorted(bodies)
    # The tree is the user's tree: same inboard bodies, reversed exactly where the user flipped.
    for k, body in enumerate(topo.body_order, start=1):
        p = topo.inboard[k - 1]
        assert (topo.body_order[p - 1] if p else None) == truth_parent[body]
    assert {j for j, r in zip(topo.joint_order, topo.joint_reversed) if r} == flipped
    # Deterministic: the same input gives the same topology.
    again = build_topology(bodies, joints)
    for f in dataclasses.fields(Topology):
        if f.init:
            np.testing.assert_array_equal(
                np.asarray(getattr(again, f.name), dtype=object),
                np.asarray(getattr(topo, f.name), dtype=object),
            )


@settings(max_examples=100, derandomize=True, deadline=None)
@given(n=st.integers(1, 30), seed=st.integers(0, 2**32 - 1))
def test_identity_random_rootless_trees(n, seed):
    rng = random.Random(seed)
    bodies, joints, truth_parent, _ = random_system(rng, n, rooted=False, flip=False)
    topo = build_topology(bodies, joints)
    check_invariants(topo, n)
    root = next(b for b, p in truth_parent.items() if p is None)
    assert topo.virtual_root_joint == f"{root}_virtual_free"
    assert topo.body_order[0] == root
    assert topo.joint_order[0] == topo.virtual_root_joint
    assert topo.joint_reversed == (False,) * n  # user's directions were consistent


@settings(max_examples=100, derandomize=True, deadline=None)
@given(
    n=st.integers(2, 25),
    loops=st.integers(1, 6),
    rooted=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_identity_random_graphs_with_loops(n, loops, rooted, seed):
    rng = random.Random(seed)
    bodies, joints, _, _ = random_system(rng, n, rooted=rooted, flip=True, extra_edges=loops)
    topo = build_topology(bodies, joints)
    check_invariants(topo, n)
    # A spanning tree of a connected graph keeps n joints; every other joint is cut, one per loop.
    user_joints = [j for j, _, _ in joints]
    tree = [j for j in topo.joint_order if j != topo.virtual_root_joint]
    assert len(topo.cut_joints) == loops
    assert sorted(tree + list(topo.cut_joints)) == sorted(user_joints)
    assert list(topo.cut_joints) == [j for j in user_joints if j in topo.cut_joints]
    # Each tree joint connects body k with its inboard body, in one direction or the other.
    ends = {j: (a, b) for j, a, b in joints}
    for k, j in enumerate(topo.joint_order, start=1):
        if j == topo.virtual_root_joint:
            continue
        p = topo.inboard[k - 1]
        inner = topo.body_order[p - 1] if p else None
        outer = topo.body_order[k - 1]
        assert ends[j] == ((outer, inner) if topo.joint_reversed[k - 1] else (inner, outer))


# ---------------------------------------------------------------------------------------------
# Errors: one clear message naming the culprits.


def test_error_empty_body_list():
    with pytest.raises(TopologyError, match="body list is empty"):
        build_topology([], [])


def test_error_duplicate_body_names():
    with pytest.raises(TopologyError, match=r"duplicate body names: 'a', 'b'"):
        build_topology(["a", "b", "a", "c", "b", "a"], [("j", None, "a")])


def test_error_duplicate_joint_names():
    with pytest.raises(TopologyError, match=r"duplicate joint names: 'j'"):
        build_topology(["a", "b"], [("j", None, "a"), ("j", "a", "b")])


def test_error_joint_connecting_body_to_itself():
    with pytest.raises(TopologyError, match=r"body to itself: 'spin' \(body 'wheel'\)"):
        build_topology(["wheel"], [("g", None, "wheel"), ("spin", "wheel", "wheel")])


def test_error_unknown_body():
    with pytest.raises(TopologyError) as err:
        build_topology(["pelvis", "thorax"], [("free", None, "pelvis"), ("neck", "thorax", "head")])
    message = str(err.value)
    assert "joint 'neck' names unknown body 'head'" in message
    assert "known bodies: 'pelvis', 'thorax'" in message
    assert "None" in message  # says how to name the base


def test_error_unknown_inboard_body():
    with pytest.raises(TopologyError, match="joint 'free' names unknown body 'B0'"):
        build_topology(["pelvis"], [("free", "B0", "pelvis")])


def test_error_disconnected_bodies():
    bodies = ["pelvis", "thorax", "box", "lid"]
    joints = [("free", None, "pelvis"), ("lumbar", "pelvis", "thorax"), ("hinge", "box", "lid")]
    with pytest.raises(TopologyError, match=r"not connected to the base B0: 'box', 'lid'\."):
        build_topology(bodies, joints)


def test_error_two_roots():
    bodies = ["head", "pelvis", "thorax", "ball"]
    joints = [("neck", "thorax", "head"), ("lumbar", "pelvis", "thorax")]
    with pytest.raises(TopologyError) as err:
        build_topology(bodies, joints)
    message = str(err.value)
    assert "2 separate groups of bodies have no joint to the base B0" in message
    assert "candidate roots: 'pelvis' (bodies 'head', 'pelvis', 'thorax'); 'ball' (bodies 'ball')" in message


def test_error_outboard_body_is_base():
    with pytest.raises(TopologyError, match="joint 'j': outboard body is None"):
        build_topology(["a"], [("j", "a", None)])


@pytest.mark.parametrize(
    "joint, match",
    [
        (("j", None), r"joint at position 0 must be \(joint_name, inboard_body or None"),
        ("j", r"joint at position 0 must be"),
        ((3, None, "a"), "joint name must be a non-empty string, got 3"),
        (("j", 7, "a"), "joint 'j': inboard body must be a body name or None"),
        (("j", None, ""), "joint 'j': outboard body must be a body name, got ''"),
    ],
)
def test_error_malformed_joint(joint, match):
    with pytest.raises(TopologyError, match=match):
        build_topology(["a"], [joint])


def test_error_malformed_bodies():
    with pytest.raises(TopologyError, match="bodies must be a list of body names"):
        build_topology("abc", [])
    with pytest.raises(TopologyError, match=r"non-empty strings, got 1 at position 1"):
        build_topology(["a", 1], [])


def test_error_is_a_value_error():
    assert issubclass(TopologyError, ValueError)


def test_error_unknown_name_lookups():
    topo = seed_topology()
    with pytest.raises(TopologyError, match="unknown body 'B9'"):
        topo.body_number("B9")
    with pytest.raises(TopologyError, match="unknown tree joint 'H9'"):
        topo.joint_number("H9")
    loop = build_topology(FOUR_BAR_BODIES, FOUR_BAR_JOINTS)
    with pytest.raises(TopologyError, match="'j3' is a cut joint"):
        loop.joint_number("j3")


def test_topology_is_frozen():
    topo = seed_topology()
    with pytest.raises(dataclasses.FrozenInstanceError):
        topo.body_order = ()
    for name in ("inboard", "parent", "S0", "S", "T"):
        with pytest.raises(ValueError):
            getattr(topo, name)[0] = 9
