"""Every mistake in a dummy file ends in one DummyFileError naming file, key path and what is
accepted (issue 4 section 6)."""
import pytest

from occupant.human import DummyFileError, load_dummy

VALID = """
kind = "dummy"
name = "two_links"
[[segment]]
name = "pelvis"
mass = 10.0
com = [0.0, 0.0, 0.05]
principal_inertia = [0.1, 0.1, 0.05]
[segment.joint]
name = "root"
kind = "free"
location = [0.0, 0.0, 0.0]
[[segment]]
name = "upper_leg"
mirror = true
parent = "pelvis"
mass = 5.0
com = [0.0, 0.0, -0.2]
principal_inertia = [0.08, 0.08, 0.01]
[segment.joint]
name = "hip"
kind = "spherical"
location = [0.0, 0.09, 0.0]
[[segment.joint.resistance]]
dof = "y"
lower_deg = -120.0
upper_deg = 30.0
stop_stiffness = 1000.0
[[segment.ellipsoid]]
name = "thigh"
center = [0.0, 0.0, -0.2]
semi_axes = [0.08, 0.08, 0.2]
"""


def _load(tmp_path, text):
    p = tmp_path / "body.toml"
    p.write_text(text)
    return load_dummy(p), p


def _error(tmp_path, text):
    p = tmp_path / "body.toml"
    p.write_text(text)
    with pytest.raises(DummyFileError) as info:
        load_dummy(p)
    msg = str(info.value)
    assert msg.startswith(str(p) + ": ")
    return msg


def test_reference_valid_minimal_file_loads(tmp_path):
    model, _ = _load(tmp_path, VALID)
    assert set(model.body_names) == {"pelvis", "left_upper_leg", "right_upper_leg"}
    assert model.total_mass == pytest.approx(20.0)


def test_reference_unknown_parent(tmp_path):
    msg = _error(tmp_path, VALID.replace('parent = "pelvis"', 'parent = "thigh"'))
    assert "segment[1].parent: unknown segment 'thigh' (accepted: pelvis, upper_leg)" in msg


def test_reference_missing_joint(tmp_path):
    text = VALID.replace('[segment.joint]\nname = "hip"\nkind = "spherical"\nlocation = [0.0, 0.09, 0.0]\n'
                         '[[segment.joint.resistance]]\ndof = "y"\nlower_deg = -120.0\nupper_deg = 30.0\n'
                         'stop_stiffness = 1000.0\n', "")
    msg = _error(tmp_path, text)
    assert "segment[1].joint: segment 'upper_leg' has no joint (accepted:" in msg


def test_reference_negative_mass(tmp_path):
    msg = _error(tmp_path, VALID.replace("mass = 5.0", "mass = -5.0"))
    assert "segment[1].mass:" in msg and "must be > 0 kg" in msg and "accepted:" in msg


def test_reference_inertia_not_positive_definite(tmp_path):
    msg = _error(tmp_path, VALID.replace("[0.08, 0.08, 0.01]", "[0.08, -0.08, 0.01]"))
    assert "segment[1].principal_inertia: inertia not positive-definite" in msg


def test_reference_inertia_triangle_inequality(tmp_path):
    msg = _error(tmp_path, VALID.replace("[0.08, 0.08, 0.01]", "[0.01, 0.01, 0.08]"))
    assert "segment[1].principal_inertia:" in msg and "triangle inequality" in msg


def test_reference_non_positive_semi_axis(tmp_path):
    msg = _error(tmp_path, VALID.replace("[0.08, 0.08, 0.2]", "[0.08, 0.0, 0.2]"))
    assert "segment[1].ellipsoid[0].semi_axes:" in msg and "non-positive semi-axis" in msg


def test_reference_joint_limits_reversed(tmp_path):
    msg = _error(tmp_path, VALID.replace("upper_deg = 30.0", "upper_deg = -150.0"))
    assert "segment[1].joint.resistance[0].lower_deg: joint limits reversed" in msg
    assert "(accepted: lower_deg < upper_deg)" in msg


def test_reference_angle_without_deg(tmp_path):
    msg = _error(tmp_path, VALID.replace("lower_deg = -120.0", "lower = -2.1"))
    assert ("segment[1].joint.resistance[0].lower: angles are given in degrees with the _deg "
            "suffix (accepted: lower_deg)") in msg


def test_reference_unknown_key(tmp_path):
    msg = _error(tmp_path, VALID.replace("mass = 10.0", "mass = 10.0\ncolour = \"red\""))
    assert "segment[0].colour: unknown key (accepted: com, ellipsoid," in msg


def test_reference_unknown_joint_kind(tmp_path):
    msg = _error(tmp_path, VALID.replace('kind = "spherical"', 'kind = "ball"'))
    assert "segment[1].joint.kind: unknown value 'ball' (accepted: spherical, revolute" in msg


def test_reference_two_roots(tmp_path):
    msg = _error(tmp_path, VALID.replace('parent = "pelvis"\n', ""))
    assert "2 segments without a parent" in msg


def test_reference_bad_toml_and_unknown_name(tmp_path):
    msg = _error(tmp_path, VALID.replace("mass = 10.0", "mass = = 10.0"))
    assert "not valid TOML" in msg
    with pytest.raises(DummyFileError, match="unknown dummy .accepted: .*hybrid3_50m"):
        load_dummy("hybrid3_51m")
