"""URDF export: names, joint types, errors, and Pinocchio's reading of the kinematics.

The dynamics comparison with Pinocchio is in tests/dynamics/test_reference_engines.py.
"""
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from occupant.dynamics import body_poses
from occupant.io import export_urdf
from occupant.io.urdf import PRISMATIC_LIMIT, _rpy, _rpy_matrix
from occupant.model.model import ModelError
from occupant.samples import random_tree
from occupant.spatial.rotation import quat_to_matrix

NO_SPHERICAL = ("revolute", "prismatic", "universal", "euler", "free", "fixed")


def _parse(model, tmp_path):
    return ET.parse(export_urdf(model, tmp_path / "m.urdf")).getroot()


def test_names_follow_dofs_and_bodies(tmp_path):
    model = random_tree(10, 4, joint_types=("revolute", "prismatic"))
    root = _parse(model, tmp_path)
    joints = root.findall("joint")
    assert [j.get("name") for j in joints] == list(model.dof_names)
    assert {l.get("name") for l in root.findall("link")} == set(model.body_names) | {"world"}
    for j in joints:
        kind = model.joint_kind[model.joint(j.get("name"))]
        assert j.get("type") == {"revolute": "continuous", "prismatic": "prismatic"}[kind]
        assert j.find("axis").get("xyz") == "0 0 1"
        if kind == "prismatic":
            limit = j.find("limit")
            assert float(limit.get("lower")) == -PRISMATIC_LIMIT
            assert float(limit.get("upper")) == PRISMATIC_LIMIT
    links = {l.get("name"): l for l in root.findall("link")}
    for b, name in enumerate(model.body_names):
        assert float(links[name].find("inertial/mass").get("value")) == model.body_mass[b]
        xyz = [float(x) for x in links[name].find("inertial/origin").get("xyz").split()]
        np.testing.assert_array_equal(xyz, model.body_com[b])


@pytest.mark.parametrize("seed", [7, 8])  # between them: every kind but spherical
def test_multi_axis_free_and_fixed_joints(seed, tmp_path):
    model = random_tree(12, seed, joint_types=NO_SPHERICAL, floating_base=True)
    root = _parse(model, tmp_path)
    links = {l.get("name"): l for l in root.findall("link")}
    joints = {j.get("name"): j for j in root.findall("joint")}
    for j, kind in enumerate(model.joint_kind):
        name, body = model.joint_names[j], model.body_names[model.joint_body[j]]
        dofs = [d for d, jj in zip(model.dof_names, model.dof_joint) if jj == j]
        if kind in ("universal", "euler"):
            for a, d in enumerate(dofs):
                assert joints[d].get("type") == "continuous"
                child = joints[d].find("child").get("link")
                assert child == (body if a == len(dofs) - 1 else f"{body}__{d}")
                if a < len(dofs) - 1:
                    assert links[child].find("inertial") is None  # massless
        else:
            assert joints[name].get("type") == {"revolute": "continuous", "prismatic": "prismatic",
                                                "free": "floating", "fixed": "fixed"}[kind]
            assert joints[name].find("child").get("link") == body
    assert "floating" in {j.get("type") for j in joints.values()}


def test_spherical_joint_is_refused(tmp_path):
    model = random_tree(6, 0, joint_types=("revolute", "spherical"))
    names = [n for n, k in zip(model.joint_names, model.joint_kind) if k == "spherical"]
    assert names
    with pytest.raises(ModelError, match="spherical") as err:
        export_urdf(model, tmp_path / "m.urdf")
    for n in names:
        assert n in str(err.value)
    assert not (tmp_path / "m.urdf").exists()


def test_identity_rpy_round_trip():
    rng = np.random.default_rng(0)
    rotations = [quat_to_matrix(q / np.linalg.norm(q)) for q in rng.normal(size=(200, 4))]
    # gimbal lock: pitch of +-90 degrees
    for pitch in (np.pi / 2, -np.pi / 2):
        for roll in (0.3, -2.0):
            rotations.append(_rpy_matrix((roll, pitch, 0.7)))
    for R in rotations:
        np.testing.assert_allclose(_rpy_matrix(_rpy(R)), R, atol=1e-14)


def test_reference_pinocchio_frames(tmp_path):
    """Pinocchio places every body where we do, at random configurations."""
    pin = pytest.importorskip("pinocchio")
    model = random_tree(10, 2, joint_types=NO_SPHERICAL, floating_base=True)
    pm = pin.buildModelFromUrdf(str(export_urdf(model, tmp_path / "m.urdf")))
    assert pm.nv == model.nv
    pd = pm.createData()
    rng = np.random.default_rng(2)
    for _ in range(3):
        q = model.random_configuration(rng)
        q_pin = np.zeros(pm.nq)
        for j in range(1, pm.njoints):
            jm, name = pm.joints[j], pm.names[j]
            if jm.shortname() == "JointModelFreeFlyer":
                l = model.joint_links[model.joint(name)][0]
                k = model.tree.qidx[l]
                q_pin[jm.idx_q:jm.idx_q + 7] = np.r_[q[k:k + 3], q[k + 4:k + 7], q[k + 3]]
            else:
                angle = q[next(model.tree.qidx[l] for l in range(model.nl)
                               if model.tree.nv[l] == 1 and model.tree.vidx[l] == model.dof(name))]
                q_pin[jm.idx_q:jm.idx_q + jm.nq] = (np.cos(angle), np.sin(angle)) if jm.nq == 2 else angle
        pin.framesForwardKinematics(pm, pd, q_pin)
        X = body_poses(model, model.make_data(), q)
        for b, name in enumerate(model.body_names):
            oMf = pd.oMf[pm.getFrameId(name)]
            np.testing.assert_allclose(oMf.rotation, X[b, :3, :3], atol=1e-12)
            np.testing.assert_allclose(oMf.translation, X[b, :3, 3], atol=1e-12)
