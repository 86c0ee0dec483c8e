"""Modeling layer: validation of parts and joints, relationship management, MDH placement."""
import numpy as np
import pytest

from occupant.dynamics import mass_matrix, body_poses
from occupant.model import ModelError
from occupant.modeling import (Assembly, Part, Marker, Joint, MDH, Pose, JointResistance,
                               Ellipsoid, Sphere, Box, Cylinder, Plane, Mesh, ModelingError)
from occupant.spatial import mdh_transform, rot_x, rot_z
from occupant.topology import TopologyError


@pytest.mark.parametrize("kwargs,message", [
    (dict(mass=-1.0), r"mass: got -1.0 \(accepted: a positive number of kg\)"),
    (dict(mass=0.0), r"mass: got 0.0 \(accepted: a positive number of kg\)"),
    (dict(mass=1.0, inertia=(1.0, -1.0, 1.0)), "positive-definite"),
    (dict(mass=1.0, inertia=(0.1, 0.1, 0.5)), "triangle inequality"),
    (dict(mass=1.0, inertia=[[1, 0.5, 0], [0, 1, 0], [0, 0, 1]]), "symmetric"),
    (dict(mass=1.0, com=(0, 0)), "com: expected 3"),
])
def test_part_validation(kwargs, message):
    with pytest.raises(ModelingError, match=message):
        Part("thigh", **kwargs)


def test_unknown_references_and_duplicates_are_named():
    asm = Assembly("m")
    asm.add(Part("pelvis", 10.0))
    with pytest.raises(ModelingError, match=r"joint 'hip'.child: unknown 'thigh' \(known: pelvis\)"):
        asm.add(Joint("hip", "spherical", "pelvis", "thigh"))
    with pytest.raises(ModelingError, match="name 'pelvis' is taken"):
        asm.add(Part("pelvis", 1.0))
    with pytest.raises(ModelingError, match="unknown joint kind 'hinge'.*accepted: revolute"):
        Joint("j", "hinge", None, "pelvis")
    with pytest.raises(ModelingError, match="range of motion reversed"):
        JointResistance("r", "j", lower=1.0, upper=-1.0)
    with pytest.raises(ModelingError, match="semi_axes"):
        Ellipsoid("e", "m", (0.1, 0.0, 0.1))


def test_cascade_delete_removes_dependents():
    asm = Assembly("m")
    asm.add(Part("pelvis", 10.0), Part("thigh", 5.0), Part("shank", 3.0))
    asm.add(Marker("knee", "thigh", (0, 0, -0.4)), Sphere("knee_ball", "knee", 0.05))
    asm.add(Joint("root", "free", None, "pelvis"), Joint("hip", "spherical", "pelvis", "thigh"),
            Joint("knee_joint", "revolute", "thigh", "shank", parent_marker="knee"))
    asm.add(JointResistance("knee_stop", "knee_joint", upper=0.1))
    assert set(asm.dependents("thigh")) == {"knee", "hip", "knee_joint"}
    asm.remove("thigh")
    assert set(asm.parts) == {"pelvis", "shank"}
    assert not asm.markers and not asm.geometries and set(asm.joints) == {"root"}
    assert not asm.joint_resistances
    with pytest.raises(ModelingError, match="nothing called 'thigh'"):
        asm.remove("thigh")


def test_topology_errors_reach_the_user():
    asm = Assembly("m")
    asm.add(Part("a", 1.0), Part("b", 1.0), Part("c", 1.0))
    asm.add(Joint("j1", "revolute", None, "a"))
    with pytest.raises(TopologyError, match="c"):
        asm.compile()  # b and c hang in the air


def test_analytic_mdh_transform_matches_definition():
    g, b, a, d, th, r = 0.3, 0.1, -0.7, 0.25, 1.1, -0.05
    X = mdh_transform(g, b, a, d, th, r)
    def T(R=np.eye(3), p=np.zeros(3)):
        out = np.eye(4)
        out[:3, :3], out[:3, 3] = R, p
        return out
    ref = (T(rot_z(g)) @ T(p=[0, 0, b]) @ T(rot_x(a)) @ T(p=[d, 0, 0]) @ T(rot_z(th)) @ T(p=[0, 0, r]))
    np.testing.assert_allclose(X, ref, atol=1e-15)


def test_identity_mdh_and_pose_placements_compile_to_the_same_model():
    mdh = MDH(gamma=0.2, b=0.1, alpha=0.5, d=0.3, theta=-0.4, r=0.05)
    X = mdh.transform

    def build(placement):
        asm = Assembly("arm")
        asm.add(Part("upper", 2.0, com=(0.1, 0, 0), inertia=(0.01, 0.02, 0.025)))
        asm.add(Part("lower", 1.0, com=(0.15, 0, 0), inertia=(0.005, 0.01, 0.012)))
        asm.add(Joint("shoulder", "revolute", None, "upper"))
        asm.add(Joint("elbow", "revolute", "upper", "lower", placement))
        return asm.compile()

    m1, m2 = build(mdh), build(Pose(X[:3, 3], X[:3, :3]))
    q = np.array([0.4, -1.0])
    np.testing.assert_allclose(mass_matrix(m1, m1.make_data(), q), mass_matrix(m2, m2.make_data(), q), atol=1e-15)
    np.testing.assert_allclose(body_poses(m1, m1.make_data(), q), body_poses(m2, m2.make_data(), q), atol=1e-15)


def test_analytic_child_marker_places_the_part_frame():
    """With a child marker, the marker (not the part origin) sits on the joint frame."""
    asm = Assembly("m")
    asm.add(Part("upper", 2.0), Part("lower", 1.0))
    asm.add(Marker("elbow_socket", "lower", (0.0, 0.0, 0.2)))
    asm.add(Joint("shoulder", "fixed", None, "upper"))
    asm.add(Joint("elbow", "revolute", "upper", "lower", Pose((0.0, 0.0, -0.3)), child_marker="elbow_socket"))
    model = asm.compile()
    X = body_poses(model, model.make_data(), model.neutral_configuration())
    # part frame of 'lower' is 0.2 below the joint frame at z = -0.3
    np.testing.assert_allclose(model.body_com[model.body("lower")] + X[model.body("lower"), :3, 3], [0, 0, -0.5], atol=1e-15)


def test_geometry_and_mesh():
    import trimesh
    box = trimesh.creation.box((0.1, 0.2, 0.3))
    asm = Assembly("m")
    asm.add(Part("seat", 10.0), Marker("cushion", "seat"))
    asm.add(Mesh("cushion_mesh", "cushion", box), Box("b", "cushion", (0.1, 0.1, 0.1)),
            Cylinder("c", "cushion", 0.05, 0.3), Plane("floor", "cushion"))
    asm.add(Joint("mount", "fixed", None, "seat"))
    model = asm.compile()
    assert [g.name for g in model.geometries] == ["cushion_mesh", "b", "c", "floor"]
    assert model.geometries[0].mesh.volume == pytest.approx(0.006)


def test_model_lookups_name_what_is_known():
    from occupant import samples
    model = samples.humanoid()
    assert model.body_names[model.body("head")] == "head"
    with pytest.raises(ModelError, match="unknown body 'tail'.*known: pelvis"):
        model.body("tail")
    assert model.nb == 15 and model.nv == 38
    assert len(model.dof_names) == model.nv and len(set(model.dof_names)) == model.nv


def test_rootless_assembly_gets_a_virtual_free_joint():
    asm = Assembly("floating")
    asm.add(Part("torso", 30.0, inertia=(1.0, 1.0, 0.5)), Part("head", 4.5, inertia=(0.02, 0.02, 0.02)))
    asm.add(Joint("neck", "spherical", "torso", "head", Pose((0.0, 0.0, 0.4))))
    model = asm.compile()
    assert model.joint_names[0] == model.topology.virtual_root_joint == "torso_virtual_free"
    assert model.joint_kind[0] == "free" and model.nv == 9 and model.nq == 11


def test_loops_compile_to_constraints_of_the_cut_joints():
    asm = Assembly("four_bar")
    for name in ("crank", "coupler", "rocker"):
        asm.add(Part(name, 1.0, inertia=(0.01, 0.01, 0.01)))
    asm.add(Joint("a", "revolute", None, "crank"), Joint("b", "revolute", "crank", "coupler"),
            Joint("c", "revolute", None, "rocker"), Joint("d", "revolute", "coupler", "rocker"))
    model = asm.compile()   # the cut joint d becomes 5 constraint rows (issue 12, section 4)
    assert model.topology.cut_joints == ("d",) and model.constraint_names == ("d",) * 5
    assert model.nv == 3


def test_analytic_euler_joint_default_axes_are_z_y_x_of_its_frame_at_neutral():
    """The "euler" joint's default axes turn about the joint frame's z, then y, then x at q = 0:
    mutually perpendicular, so the neutral pose is not a gimbal lock (the old default put the
    first and third axes both along z)."""
    joint = Joint("ball", "euler", None, "b")
    X = np.eye(4)
    axes = [X[:3, 2]]
    for mdh in joint.axes:
        X = X @ mdh.transform
        axes.append(X[:3, 2])
    np.testing.assert_allclose(np.abs(np.array(axes)), np.eye(3)[::-1], atol=1e-15)
