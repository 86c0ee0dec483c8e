"""MJCF export: file content, the (q, v) <-> (qpos, qvel) maps, and MuJoCo's reading of the pose.

The dynamics comparison with MuJoCo is in tests/dynamics/test_reference_engines.py.
"""
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from occupant.dynamics import body_poses
from occupant.io import export_mjcf
from occupant.io.mjcf import mujoco_state, mujoco_velocity_jacobian, occupant_state
from occupant.model.model import ModelError
from occupant.modeling import Assembly, Joint, Marker, MDH, Part, Pose, Sphere, Box
from occupant.samples import pendulum, random_tree

ALL = ("revolute", "prismatic", "universal", "spherical", "euler", "free", "fixed")


def _model(seed, floating=True, n=9):
    return random_tree(n, seed, joint_types=ALL, floating_base=floating)


def test_identity_state_maps_round_trip():
    for seed in range(4):
        model = _model(seed, floating=bool(seed % 2))
        rng = np.random.default_rng(seed)
        q_export, q = model.random_configuration(rng), model.random_configuration(rng)
        v = rng.normal(size=model.nv)
        qpos, qvel = mujoco_state(model, q, v, q_export)
        q2, v2 = occupant_state(model, qpos, qvel, q_export)
        np.testing.assert_allclose(q2, q, atol=1e-14)
        np.testing.assert_allclose(v2, v, atol=1e-14)
        # the velocity map is linear in v and orthogonal
        T = mujoco_velocity_jacobian(model, q)
        np.testing.assert_allclose(T @ v, qvel, atol=1e-14)
        np.testing.assert_allclose(T.T @ T, np.eye(model.nv), atol=1e-14)


def test_identity_export_pose_is_reference():
    """Our export configuration maps to zero hinge/slide angles and identity ball quaternions."""
    model = random_tree(8, 3, joint_types=("revolute", "prismatic", "universal", "spherical"))
    q_export = model.random_configuration(np.random.default_rng(0))
    qpos, qvel = mujoco_state(model, q_export, np.zeros(model.nv), q_export)
    expected = np.concatenate([[1.0, 0, 0, 0] if model.tree.jtype[l] == 3 else [0.0]
                               for l in range(model.nl) if model.tree.nv[l]])
    np.testing.assert_allclose(np.sort(qpos), np.sort(expected), atol=1e-15)
    assert not qvel.any()


def test_file_content(tmp_path):
    model = _model(0)
    path = export_mjcf(model, tmp_path / "m.xml", gravity=(0.0, 0.0, -9.80665), timestep=1e-5)
    root = ET.parse(path).getroot()
    assert root.find("compiler").get("angle") == "radian"
    option = root.find("option")
    assert [float(x) for x in option.get("gravity").split()] == [0.0, 0.0, -9.80665]
    assert float(option.get("timestep")) == 1e-5
    bodies = {b.get("name"): b for b in root.iter("body")}
    assert set(bodies) == set(model.body_names)
    for b, name in enumerate(model.body_names):
        inertial = bodies[name].find("inertial")
        assert float(inertial.get("mass")) == model.body_mass[b]
        np.testing.assert_array_equal([float(x) for x in inertial.get("pos").split()], model.body_com[b])
        I = model.body_inertia[b]
        np.testing.assert_array_equal([float(x) for x in inertial.get("fullinertia").split()],
                                      [I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]])
    for joint in root.find("worldbody").iter("joint"):
        assert joint.get("range") is None and joint.get("damping") is None
    default_joint = root.find("default/joint")
    assert float(default_joint.get("damping")) == 0 and float(default_joint.get("armature")) == 0
    names = {j.get("name") for j in root.iter("joint")} | {j.get("name") for j in root.iter("freejoint")}
    for j, kind in enumerate(model.joint_kind):
        if kind in ("revolute", "prismatic", "spherical", "free"):
            assert model.joint_names[j] in names
        elif kind in ("universal", "euler"):
            assert {d for d, jj in zip(model.dof_names, model.dof_joint) if jj == j} <= names


def test_bad_arguments(tmp_path):
    model = _model(1)
    with pytest.raises(ModelError, match="expected shape"):
        export_mjcf(model, tmp_path / "m.xml", q=np.zeros(model.nq + 1))
    with pytest.raises(ModelError, match="timestep"):
        export_mjcf(model, tmp_path / "m.xml", timestep=0.0)
    with pytest.raises(ModelError, match="qpos, qvel"):
        occupant_state(model, np.zeros(3), np.zeros(3))


def test_reference_mujoco_poses(tmp_path):
    """MuJoCo places every body where we do, at its reference configuration and elsewhere."""
    mujoco = pytest.importorskip("mujoco")
    for seed in range(3):
        model = _model(seed, floating=bool(seed % 2), n=10)
        rng = np.random.default_rng(seed)
        q_export = model.random_configuration(rng)
        mjm = mujoco.MjModel.from_xml_path(str(export_mjcf(model, tmp_path / "m.xml", q_export)))
        mjd = mujoco.MjData(mjm)
        data = model.make_data()
        for q in (q_export, model.random_configuration(rng)):
            mjd.qpos[:] = mjm.qpos0 if q is q_export else mujoco_state(model, q, np.zeros(model.nv), q_export)[0]
            mujoco.mj_kinematics(mjm, mjd)
            X = body_poses(model, data, q)
            for b, name in enumerate(model.body_names):
                i = mujoco.mj_name2id(mjm, mujoco.mjtObj.mjOBJ_BODY, name)
                np.testing.assert_allclose(mjd.xpos[i], X[b, :3, 3], atol=1e-12)
                np.testing.assert_allclose(mjd.xmat[i].reshape(3, 3), X[b, :3, :3], atol=1e-12)
        qpos0 = mujoco_state(model, q_export, np.zeros(model.nv), q_export)[0]
        for i in range(mjm.njnt):  # quaternions up to sign
            a, n = mjm.jnt_qposadr[i], {0: 7, 1: 4}.get(int(mjm.jnt_type[i]), 1)
            sign = np.sign(qpos0[a + n - 4:a + n] @ mjm.qpos0[a + n - 4:a + n]) if n > 1 else 1.0
            np.testing.assert_allclose(sign * qpos0[a + n - 4:a + n] if n > 1 else qpos0[a],
                                       mjm.qpos0[a + n - 4:a + n] if n > 1 else mjm.qpos0[a], atol=1e-14)


def test_reference_mujoco_body_velocities(tmp_path):
    """MuJoCo's body velocities (local frame) equal ours after the velocity map."""
    mujoco = pytest.importorskip("mujoco")
    from occupant.dynamics import inverse_dynamics
    model = _model(5, floating=True, n=10)
    rng = np.random.default_rng(5)
    q_export, q, v = model.random_configuration(rng), model.random_configuration(rng), rng.normal(size=model.nv)
    mjm = mujoco.MjModel.from_xml_path(str(export_mjcf(model, tmp_path / "m.xml", q_export)))
    mjd = mujoco.MjData(mjm)
    mjd.qpos[:], mjd.qvel[:] = mujoco_state(model, q, v, q_export)
    mujoco.mj_forward(mjm, mjd)
    data = model.make_data()
    inverse_dynamics(model, data, q, v, np.zeros(model.nv), gravity=(0.0, 0.0, 0.0))
    res = np.zeros(6)
    for b, name in enumerate(model.body_names):
        i = mujoco.mj_name2id(mjm, mujoco.mjtObj.mjOBJ_BODY, name)
        mujoco.mj_objectVelocity(mjm, mjd, mujoco.mjtObj.mjOBJ_XBODY, i, res, 1)  # body frame
        np.testing.assert_allclose(res, data.v[model.body_link[b]], atol=1e-12)


def test_display_geometry(tmp_path):
    asm = Assembly("geoms")
    asm.add(Part("a", 1.0, inertia=(0.01, 0.01, 0.01)), Part("b", 2.0, com=(0.1, 0, 0)))
    asm.add(Marker("ma", "a", position=(0.0, 0.1, 0.0)), Marker("mb", "b"))
    asm.add(Sphere("ball", "ma", 0.05), Box("brick", "mb", (0.1, 0.05, 0.02)))
    asm.add(Joint("ja", "revolute", None, "a", Pose()), Joint("jb", "universal", "a", "b", MDH(d=0.3),
                                                             axes=(MDH(alpha=np.pi / 2),)))
    model = asm.compile()
    root = ET.parse(export_mjcf(model, tmp_path / "g.xml")).getroot()
    geoms = {g.get("name"): g for g in root.iter("geom")}
    assert geoms["ball"].get("type") == "sphere" and geoms["brick"].get("type") == "box"
    assert root.find("default/geom").get("contype") == "0"
    assert root.find("default/geom").get("conaffinity") == "0"
    mujoco = pytest.importorskip("mujoco")
    mjm = mujoco.MjModel.from_xml_path(str(tmp_path / "g.xml"))
    assert mjm.ngeom == 2 and not mjm.geom_contype.any() and not mjm.geom_conaffinity.any()
    # inertia comes from <inertial>, not from the display geometry
    np.testing.assert_allclose(mjm.body_mass[1:], [1.0, 2.0])


def test_pendulum_hangs_down(tmp_path):
    mujoco = pytest.importorskip("mujoco")
    model = pendulum()
    mjm = mujoco.MjModel.from_xml_path(str(export_mjcf(model, tmp_path / "p.xml")))
    mjd = mujoco.MjData(mjm)
    mujoco.mj_forward(mjm, mjd)
    np.testing.assert_allclose(mjd.xipos[1], [0.0, 0.0, -0.5], atol=1e-15)


def test_analytic_display_geometry_placed_by_its_own_position_and_rotation(tmp_path):
    """An ellipsoid placed by ``position`` and ``rotation`` in its marker's frame (as an
    interior's on a hinged part) is exported at marker_R p + marker_p, turned marker_R R: an
    ellipsoid on a marker turned 90 deg about z, placed 0.2 m along the marker's x and turned 90
    deg about the marker's x, stands 0.2 m along the body's y, turned Rz Rx."""
    from occupant.modeling import Ellipsoid
    from occupant.spatial.rotation import quat_to_matrix
    Rz = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    Rx = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
    asm = Assembly("placed")
    asm.add(Part("a", 1.0, inertia=(0.01, 0.01, 0.01)), Marker("ma", "a", rotation=Rz),
            Ellipsoid("pad", "ma", (0.06, 0.13, 0.11), position=(0.2, 0.0, 0.0), rotation=Rx),
            Joint("ja", "revolute", None, "a", Pose()))
    root = ET.parse(export_mjcf(asm.compile(), tmp_path / "p.xml")).getroot()
    pad = next(g for g in root.iter("geom") if g.get("name") == "pad")
    np.testing.assert_allclose([float(x) for x in pad.get("pos").split()], [0.0, 0.2, 0.0], atol=1e-12)
    quat = np.array([float(x) for x in pad.get("quat").split()])
    np.testing.assert_allclose(quat_to_matrix(quat), Rz @ Rx, atol=1e-12)
