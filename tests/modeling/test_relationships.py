"""Relationship management of seed 000 (section 1.2, figure 3): membership, feature definition,
model and reverse associations, recursive delete, re-linking, and atomic rejection of invalid
operations, on the seed's four-bar with markers M1..M8."""
import numpy as np
import pytest

import occupant
from occupant.modeling import (Assembly, Joint, Link, Marker, ModelingError, Part, Pose, Sphere,
                               VirtualPart)


def seed_four_bar():
    """Links L1 (crank, O1 -> B), L2 (coupler, B -> C), L3 (rocker, C -> O2); joints A (ground-L1),
    B (L1-L2, markers M4 on L1 and M3 on L2), C (L2-L3, M5 on L2 and M6 on L3), D (L3-ground);
    L2 carries the geometry BC, a link from M1 to M2, and its centre-of-mass marker Cm2. Part
    frames coincide with B0 at q = 0, so markers are entered at their B0 positions."""
    O1, B, C, O2 = (np.array(p, float) for p in
                    ((0, 0, 0), (0.1, 0.173205, 0), (0.5 + 0.140745, 0.479698, 0), (0.5, 0, 0)))
    asm = Assembly("seed_four_bar")
    asm.gravity = (0.0, -9.81, 0.0)
    for name, a, b, m in (("L1", O1, B, 1.0), ("L2", B, C, 3.0), ("L3", C, O2, 2.0)):
        L = np.linalg.norm(b - a)
        cm = f"Cm{name[1]}"
        asm.add(Part(name, m, com=(a + b) / 2, inertia=(m * L * L / 12,) * 2 + (1e-6,),
                     cm_marker=cm), Marker(cm, name, (a + b) / 2))
    asm.add(Marker("M1", "L2", B), Marker("M2", "L2", C), Link("BC", "M1", "M2", 0.02, 0.01))
    asm.add(Marker("M3", "L2", B), Marker("M4", "L1", B), Marker("M5", "L2", C),
            Marker("M6", "L3", C), Marker("M7", "L1", O1), Marker("M8", "L3", O2))
    asm.add(Joint("A", "revolute", None, "L1", Pose(O1), child_marker="M7"),
            Joint("B", "revolute", "L1", "L2", parent_marker="M4", child_marker="M3"),
            Joint("D", "revolute", None, "L3", Pose(O2), child_marker="M8"),
            Joint("C", "revolute", "L2", "L3", parent_marker="M5", child_marker="M6"))
    return asm


def snapshot(asm):
    return {t: dict(tab) for t, tab in zip(("p", "m", "g", "j"), asm._tables()[:4])}


def test_regression_seed_lists_of_link_L2():
    """The seed's lists for L2: members BC, Cm2, M1, M2, M3, M5; feature definition Cm2;
    reverse associations joints B and C; Cm2's reverse list holds L2; B is defined by M3, M4."""
    asm = seed_four_bar()
    asm.check()
    assert set(asm.members("L2")) == {"BC", "Cm2", "M1", "M2", "M3", "M5"}
    assert asm.references("L2") == {"cm_marker": "Cm2"}
    assert {d for d in asm.dependents("L2") if d in asm.joints} == {"B", "C"}
    assert "L2" in asm.dependents("Cm2")
    assert asm.references("B") == {"child": "L2", "parent": "L1", "parent_marker": "M4",
                                   "child_marker": "M3"}
    assert len(list(asm.elements())) == 3 + 3 + 8 + 1 + 4 + 1   # model association (+ gravity)


def test_regression_deleting_L2_removes_B_C_and_M3_to_M6():
    asm = seed_four_bar()
    asm.remove("L2")
    assert set(asm.parts) == {"L1", "L3"}
    assert set(asm.joints) == {"A", "D"}
    assert set(asm.markers) == {"Cm1", "Cm3", "M7", "M8"}     # M1-M6 and Cm2 gone
    assert not asm.geometries
    asm.check()                                  # no dangling reference left
    model = asm.compile()                        # and the rest still compiles and runs
    assert model.body_names == ("L1", "L3") and model.constraint_names == ()
    r = occupant.simulate(model, t_end=0.05, dt=1e-3, integrator="rk4")
    assert r.status == "finished"


def test_regression_relinking_B_from_L2_to_L3_moves_it_between_reverse_lists():
    asm = seed_four_bar()
    asm.relink("B", "child", "L3")
    assert "B" not in asm.dependents("L2") and "B" in asm.dependents("L3")
    assert asm.markers["M3"].part == "L3"        # its marker on that side went along
    assert "M3" not in asm.members("L2") and "M3" in asm.members("L3")
    asm.check()
    # moving a marker moves the joint it defines: C's parent follows M5 to L1
    asm.relink("M5", "part", "L1")
    assert asm.joints["C"].parent == "L1" and "C" in asm.dependents("L1")
    assert "C" not in asm.dependents("L2")
    asm.check()


def test_regression_invalid_operations_leave_the_model_unchanged():
    asm = seed_four_bar()
    before = snapshot(asm)
    # dangling reference in a batch: nothing of the batch is added
    with pytest.raises(ModelingError, match=r"joint 'E'.child_marker: unknown 'M99'"):
        asm.add(Marker("M9", "L1", (0, 0, 0)),
                Joint("E", "revolute", "L1", "L3", parent_marker="M9", child_marker="M99"))
    with pytest.raises(ModelingError, match="name 'M1' is taken"):
        asm.add(Marker("M10", "L1"), Marker("M1", "L1"))
    with pytest.raises(ModelingError, match="name 'X' is taken"):
        asm.add(Marker("X", "L1"), Sphere("X", "M1", 0.1))
    # a joint's marker must sit on the joint's part on that side
    with pytest.raises(ModelingError, match="'M7' is not a marker of part 'L2'"):
        asm.add(Joint("E", "revolute", "L2", "L3", parent_marker="M7"))
    # a centre-of-mass marker belongs to its part: no relink may take it away
    with pytest.raises(ModelingError, match="cm_marker: 'Cm2' is a marker of 'L1'"):
        asm.relink("Cm2", "part", "L1")
    # a joint cannot take along a marker something else uses (M1 holds the geometry BC)
    asm.add(Joint("E", "spherical", "L1", "L2", child_marker="M1"))
    before = snapshot(asm)
    with pytest.raises(ModelingError, match="its marker 'M1' is also used by BC"):
        asm.relink("E", "child", "L3")
    with pytest.raises(ModelingError, match=r"relink.*|unknown 'L9'"):
        asm.relink("B", "child", "L9")
    with pytest.raises(ModelingError, match="not a reference"):
        asm.relink("B", "kind", "fixed")
    with pytest.raises(ModelingError, match="nothing called 'L9' to remove"):
        asm.remove("L9")
    assert snapshot(asm) == before
    assert asm.markers["M3"].part == "L2" and asm.joints["B"].child == "L2"
    asm.check()


def test_regression_feature_markers_shared_elsewhere_are_kept():
    """A deleted joint takes its I/J markers along only when nothing else uses them."""
    asm = seed_four_bar()
    asm.add(Sphere("ball", "M4", 0.01))
    asm.remove("B")
    assert "M3" not in asm.markers and "M4" in asm.markers and "ball" in asm.geometries


def test_regression_virtual_part_binds_and_falls_back_to_ground():
    """A virtual part bound to L1 is L1 when compiled; deleting L1 leaves it bound to the ground
    (seed 000, 1.3) and a joint to it is then a joint to B0."""
    asm = Assembly("v")
    asm.add(Part("L1", 1.0), Part("L2", 1.0), VirtualPart("outside", bound_to="L1"))
    asm.add(Marker("pin", "outside", (0.0, 0.2, 0.0)))
    asm.add(Joint("A", "revolute", None, "L1"),
            Joint("hinge", "revolute", "outside", "L2", parent_marker="pin"))
    model = asm.compile()
    assert model.body_parent[model.body("L2")] == model.body("L1")
    np.testing.assert_allclose(model.tree.p_pj[model.joint_links[model.joint("hinge")][0]],
                               (0.0, 0.2, 0.0))
    asm.remove("L1")
    assert asm.virtual_parts["outside"].bound_to is None and "hinge" in asm.joints
    model = asm.compile()
    assert model.body_names == ("L2",) and model.body_parent[0] == -1
    np.testing.assert_allclose(model.tree.p_pj[0], (0.0, 0.2, 0.0))


def test_regression_repr_lists_every_family():
    text = repr(seed_four_bar())
    for family in ("parts=3", "markers=11", "geometries=1", "joints=4", "virtual_parts=0",
                   "materials=0", "primitives=0", "couplers=0", "marker_forces=0",
                   "spring_dampers=0", "belts=0", "gravity=(0.0, -9.81, 0.0)"):
        assert family in text, (family, text)
