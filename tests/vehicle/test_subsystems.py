"""Subsystems (seed 000, 1.3): view transforms, interfaces, mirror, files, the sedan's size and
mobility, and the file errors."""
import pathlib
import shutil
import tomllib

import numpy as np
import pytest

import occupant.vehicle
from occupant.modeling import Part
from occupant.shipped import shipped_dir
from occupant.vehicle.compile import VehicleError, compile_vehicle, constraint_jacobian
from occupant.vehicle.files import VehicleFileError, load_subsystem, save_subsystem
from occupant.vehicle.geometry import FLOATING_PLACEMENT, frame_z, joint_at
from occupant.vehicle.manoeuvre import _rotation_zyx
from occupant.vehicle.subsystem import MIRROR, Interface, Subsystem, flatten

VEHICLES = shipped_dir("vehicles")
SEDAN = VEHICLES / "midsize_sedan.toml"


@pytest.fixture(scope="module")
def sedan():
    return occupant.vehicle.load(SEDAN)


def test_regression_sedan_size(sedan):
    """The full car: at least 50 parts and 45 constraints (seed 000's car: 53 and 51), 1564 kg
    (crash-domain-facts 7.2), 79 joints and 8 couplers, loops closed at the design position, 20 degrees of freedom
    (6 body, 4 wheel travels, 4 wheel spins, 4 steering shafts, 2 driveline shafts: the
    propeller shaft and the differential carrier; the halfshafts turn with the rear wheels)."""
    assert len(sedan.parts) >= 50 and len(sedan.constraints) >= 45
    assert (len(sedan.parts), len(sedan.constraints)) == (57, 87)   # 79 joints, 8 couplers
    model = compile_vehicle(sedan)
    assert model.total_mass == pytest.approx(1564.0)
    com = sum(p.mass * p.com for p in sedan.parts.values()) / 1564.0
    assert com == pytest.approx([-1.268, 0.0, 0.55], abs=2e-3)
    phi, G = constraint_jacobian(model)
    assert np.abs(phi).max() < 1e-12
    assert model.nv - np.linalg.matrix_rank(G) == 20
    assert sorted(sedan.subsystems) == sorted([
        "chassis", "steering", "front_suspension", "rear_suspension", "front_anti_roll_bar",
        "rear_anti_roll_bar", "driveline", "front_wheels", "rear_wheels"])


def test_identity_mirror(sedan):
    """Every right part is the mirror image (y -> -y) of its left part."""
    front = sedan.subsystems["front_suspension"]
    lefts = [n for n in front.parts if n.startswith("l_")]
    assert len(lefts) == 6 and all(f"r_{n[2:]}" in front.parts for n in lefts)
    for n in lefts:
        left, right = front.parts[n], front.parts[f"r_{n[2:]}"]
        assert right.mass == left.mass
        assert np.allclose(right.com, MIRROR @ left.com)
        assert np.allclose(right.inertia, MIRROR @ left.inertia @ MIRROR)


def test_analytic_floating_joint_pose():
    """The floating joint: translation (x, y, z) and R = Rz(yaw) Ry(pitch) Rx(roll)."""
    from occupant.dynamics.spatial_ops import forward_kinematics
    sub = Subsystem("body")
    sub.add(Part("b", 1.0, inertia=(1.0, 2.0, 3.0)))
    joint_at(sub, "f", "floating", None, "b", (0.0, 0.0, 0.0), FLOATING_PLACEMENT)
    model = sub.compile()
    data = model.make_data()
    q = np.array([1.0, 2.0, 3.0, 0.3, 0.2, 0.1])
    forward_kinematics(model.tree, data, q)
    X = np.linalg.inv(sub.markers["f.j"].transform)
    assert np.allclose(data.R_base_link[-1] @ X[:3, :3], _rotation_zyx(0.3, 0.2, 0.1))
    assert np.allclose(data.R_base_link[-1] @ X[:3, 3] + data.p_base_link[-1], [1.0, 2.0, 3.0])


def test_analytic_view_transform_nested():
    """A point p entered in a subsystem nested two deep appears at r = r_1 + A_1 (r_2 + A_2 p)
    in the vehicle frame (seed 000, fig. 4: r_p = r_s + A s)."""
    outer, inner = Subsystem("outer"), Subsystem("inner")
    inner.add(Part("p", 1.0, com=(0.1, 0.2, 0.3)))
    A1, A2 = _rotation_zyx(0.5, 0.0, 0.0), _rotation_zyx(0.0, 0.3, -0.2)
    r1, r2 = np.array([1.0, 2.0, 3.0]), np.array([-0.5, 0.1, 0.0])
    outer.base[:3, :3], outer.base[:3, 3] = A1, r1
    inner.base[:3, :3], inner.base[:3, 3] = A2, r2
    outer.add_subsystem(inner)
    top = Subsystem("vehicle")
    top.add_subsystem(outer)
    part = flatten(top).assembly.parts["outer.inner.p"]
    assert np.allclose(part.com, r1 + A1 @ (r2 + A2 @ np.array([0.1, 0.2, 0.3])))
    assert [p for p, _, _ in top.walk()] == ["", "outer.", "outer.inner."]


def _pendulum_sub():
    sub = Subsystem("arm", expected_dof=1)
    sub.add(Interface("mount"))
    sub.add(Part("link", 2.0, com=(0.0, 0.0, -0.5), inertia=(0.2, 0.2, 0.01)))
    joint_at(sub, "hinge", "revolute", "mount", "link", (0.0, 0.0, 0.0), frame_z((0.0, 1.0, 0.0)))
    return sub


def test_regression_interface_binding_and_delete_falls_to_ground():
    """An interface bound to a part joins the subsystem to it; deleting that part sets the
    connection to the ground (seed 000, 1.3.2), and the model still compiles."""
    top = Subsystem("vehicle")
    top.add(Part("body", 100.0, inertia=(1.0, 1.0, 1.0)))
    joint_at(top, "body_slide", "prismatic", None, "body", (0.0, 0.0, 0.0), frame_z((1.0, 0.0, 0.0)))
    top.add_subsystem(_pendulum_sub(), {"mount": "body"})
    flat = flatten(top).assembly
    assert flat.joints["arm.hinge"].parent == "body"
    assert set(top.dependents("body")) == {"body_slide", "body_slide.j"}
    top.remove("body")
    assert top.subsystems["arm"].interfaces["mount"].bound_to is None
    assert "body" not in top.parts and "body_slide" not in top.joints
    flat = flatten(top).assembly
    assert flat.joints["arm.hinge"].parent == "ground"
    assert flat.joints["ground_weld"].kind == "fixed" and flat.joints["ground_weld"].parent is None
    assert compile_vehicle(top).nv == 1


def test_identity_save_and_load(tmp_path, sedan):
    """Saving the sedan (every subsystem to its file) and loading it again gives the same
    parts, joints and masses."""
    path = save_subsystem(sedan, tmp_path / "midsize_sedan.toml")
    again = occupant.vehicle.load(path)
    assert list(again.parts) == list(sedan.parts)
    assert list(again.constraints) == list(sedan.constraints)
    for n, p in sedan.parts.items():
        assert again.parts[n].mass == p.mass and np.allclose(again.parts[n].com, p.com)


# errors ---------------------------------------------------------------------------------------
def _copy_sedan(tmp_path):
    for f in VEHICLES.glob("*.toml"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path / "midsize_sedan.toml"


def _edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_regression_error_dangling_reference(tmp_path):
    path = _copy_sedan(tmp_path)
    _edit(path, 'l_arm = "front_suspension.l_lower_arm"', 'l_arm = "front_suspension.l_lowerarm"')
    with pytest.raises(VehicleFileError) as err:
        occupant.vehicle.load(path)
    msg = str(err.value)
    assert "midsize_sedan.toml: subsystem[4].bind.l_arm: dangling reference" in msg
    assert "front_suspension.l_lowerarm" in msg


def test_regression_error_missing_subsystem_file_names_the_vehicle_file(tmp_path):
    """A vehicle file whose subsystem file is not beside it (badinput audit: it read
    "<dir>/sedan_chassis.toml: no such file (accepted: an existing .toml file)", the vehicle
    file and its key unnamed)."""
    path = tmp_path / "midsize_sedan.toml"
    shutil.copy(SEDAN, path)
    with pytest.raises(VehicleFileError) as err:
        occupant.vehicle.load(path)
    assert str(err.value) == (f"{path}: subsystem[0].file: no such file '{tmp_path / 'sedan_chassis.toml'}' "
                              "(accepted: a subsystem file, its path relative to this file)")


def test_regression_error_missing_binding(tmp_path):
    path = _copy_sedan(tmp_path)
    _edit(path, 'bind = { chassis = "chassis.chassis", steering_rack = "steering.rack" }',
          'bind = { chassis = "chassis.chassis" }')
    with pytest.raises(VehicleFileError) as err:
        occupant.vehicle.load(path)
    msg = str(err.value)
    assert "midsize_sedan.toml: subsystem[2].bind: interface(s) steering_rack" in msg
    assert "front_suspension" in msg


def test_regression_error_massless_part(tmp_path):
    path = _copy_sedan(tmp_path)
    _edit(tmp_path / "sedan_front_double_wishbone.toml", "uca_mass = 2.0", "uca_mass = 0.0")
    with pytest.raises(VehicleFileError) as err:
        occupant.vehicle.load(path)
    assert "sedan_front_double_wishbone.toml: parameters.uca_mass: a part with no mass" in str(err.value)


CUSTOM = """kind = "subsystem"
template = "custom"
[parameters]
dof = {dof}
[[parameters.parts]]
name = "crank"
mass = 1.0
com = [0.1, 0.0, 0.0]
inertia = [0.001, 0.01, 0.01]
[[parameters.parts]]
name = "coupler"
mass = 1.0
com = [0.3, 0.2, 0.0]
inertia = [0.001, 0.01, 0.01]
[[parameters.parts]]
name = "rocker"
mass = 1.0
com = [0.45, 0.1, 0.0]
inertia = [0.001, 0.01, 0.01]
[[parameters.joints]]
name = "O1"
kind = "revolute"
parent = "ground"
child = "crank"
position = [0.0, 0.0, 0.0]
[[parameters.joints]]
name = "A"
kind = "{a}"
parent = "crank"
child = "coupler"
position = [0.2, 0.0, 0.0]
[[parameters.joints]]
name = "O2"
kind = "revolute"
parent = "ground"
child = "rocker"
position = [0.5, 0.0, 0.0]
[[parameters.joints]]
name = "B"
kind = "{b}"
parent = "coupler"
child = "rocker"
position = [0.4, 0.4, 0.0]
"""


def test_regression_error_over_constrained_loop(tmp_path):
    """A spatial four-bar of four parallel revolute joints closes only by alignment: Grübler's
    count 6 x 3 - 5 x 4 = -2 against its real mobility 1 means 3 of the 5 loop equations of the
    cut joint are redundant (rank 2: the planar loop closure)."""
    path = tmp_path / "four_bar.toml"
    path.write_text(CUSTOM.format(dof=1, a="revolute", b="revolute"))
    with pytest.raises(VehicleError) as err:
        occupant.vehicle.load(path)
    msg = str(err.value)
    assert "four_bar.toml: template: subsystem 'four_bar': over-constrained: 3 of the 5" in msg
    assert "B" in msg


def test_regression_error_under_constrained_loop(tmp_path):
    """Ball joints at both ends of the coupler leave it free to spin about its axis: 2 degrees
    of freedom where the file declares 1."""
    path = tmp_path / "four_bar.toml"
    path.write_text(CUSTOM.format(dof=1, a="euler", b="spherical"))
    with pytest.raises(VehicleError) as err:
        occupant.vehicle.load(path)
    msg = str(err.value)
    assert "four_bar.toml: template: subsystem 'four_bar': under-constrained: 2 degrees" in msg
    assert "joint(s) A" in msg


def test_regression_error_custom_dangling_joint(tmp_path):
    path = tmp_path / "four_bar.toml"
    path.write_text(CUSTOM.format(dof=1, a="revolute", b="spherical").replace(
        'child = "rocker"\nposition = [0.4', 'child = "rockr"\nposition = [0.4'))
    with pytest.raises(VehicleFileError) as err:
        occupant.vehicle.load(path)
    assert "four_bar.toml: parameters.joints[3].child: dangling reference: no part 'rockr'" \
        in str(err.value)


def test_regression_show_command(capsys):
    from occupant.cli import main
    assert main(["show", str(SEDAN)]) == 0
    out = capsys.readouterr().out
    assert "57 parts" in out and "87 constraints" in out and "20 degrees of freedom" in out
    assert "front_suspension (double_wishbone" in out and "front_suspension.l_lower_ball" in out


def test_show_gives_coordinates_in_the_subsystem_frame(tmp_path, capsys):
    """``occupant show`` lists each part's centre of mass in its subsystem's base frame (the view
    transform) and in the vehicle frame: a subsystem placed 1 m forward and turned 90 deg about
    z shows the same local coordinates and the moved vehicle ones."""
    from occupant.cli import main
    steering = (VEHICLES / "sedan_steering.toml").read_text()
    (tmp_path / "steering.toml").write_text(steering)
    (tmp_path / "car.toml").write_text(
        'kind = "vehicle"\n[[subsystem]]\nname = "steer"\nfile = "steering.toml"\n'
        'position = [1.0, 0.0, 0.0]\nrotation_deg = [0.0, 0.0, 90.0]\n'
        'bind = { chassis = "ground" }\n')
    assert main(["show", str(tmp_path / "car.toml")]) == 0
    out = capsys.readouterr().out
    line = next(l for l in out.splitlines() if l.strip().startswith("steer.rack "))
    local = occupant.vehicle.load(tmp_path / "steering.toml").root.parts["rack"].com
    expect = np.array([1.0 - local[1], local[0], local[2]])     # Rz(90 deg) then +1 m along x
    assert np.array2string(local, precision=3) in line.split("vehicle")[0]
    assert np.array2string(expect, precision=3) in line.split("vehicle")[1]


def _subsystem_files():
    """The shipped vehicle files of kind "subsystem" (vehicles/ also holds interiors and the
    pedestrian scenario's vehicle front)."""
    return sorted(p.name for p in VEHICLES.glob("*.toml")
                  if tomllib.loads(p.read_text()).get("kind") == "subsystem")


@pytest.mark.parametrize("name", _subsystem_files())
def test_regression_subsystem_files_alone(name):
    """Each subsystem file loads alone (its interfaces on the ground), its loops close at the
    design position and its mobility is its template's: e.g. a double wishbone 2 (one wheel
    travel per side), a MacPherson strut 2, an anti-roll bar 0."""
    vehicle = occupant.vehicle.load(VEHICLES / name)
    model = compile_vehicle(vehicle)
    dof = model.nv
    if model.constraint_names:
        phi, G = constraint_jacobian(model)
        assert np.abs(phi).max() < 1e-12
        dof -= np.linalg.matrix_rank(G)
    assert dof == vehicle.root.expected_dof


def test_driveline_geometry_comes_from_its_file(tmp_path):
    """The halfshaft runs from the file's halfshaft_inner to halfshaft_outer, and its spin
    inertia is m r^2 / 2 of the file's halfshaft_radius (a solid rod, ``link_part``)."""
    data = tomllib.loads((VEHICLES / "sedan_driveline.toml").read_text())["parameters"]
    shaft = load_subsystem(VEHICLES / "sedan_driveline.toml").parts["l_halfshaft"]
    a, b = np.array(data["halfshaft_inner"]), np.array(data["halfshaft_outer"])
    np.testing.assert_allclose(shaft.com, (a + b) / 2, atol=1e-12)
    axis = (b - a) / np.linalg.norm(b - a)
    m, r = data["halfshaft_mass"], data["halfshaft_radius"]
    assert axis @ shaft.inertia @ axis == pytest.approx(m * r * r / 2, rel=1e-12)


def test_regression_error_bent_halfshaft(tmp_path):
    """The driveline's constant-velocity joints take the halfshaft along the wheel axis at
    design: a halfshaft whose ends differ in x is refused with the file, key and both points."""
    text = (VEHICLES / "sedan_driveline.toml").read_text()
    path = tmp_path / "driveline.toml"
    path.write_text(text.replace("halfshaft_inner = [-2.888, 0.15, 0.323]",
                                 "halfshaft_inner = [-2.85, 0.15, 0.323]"))
    with pytest.raises(VehicleFileError) as err:
        occupant.vehicle.load(path)
    msg = str(err.value)
    assert "driveline.toml: parameters:" in msg and "halfshaft_inner (-2.85, 0.15, 0.323)" in msg
    assert "along the wheel axis" in msg
