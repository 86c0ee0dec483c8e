"""Sensor tables from TOML: what loads, and every rejection names the key and what is accepted."""
import tomllib

import numpy as np
import pytest

from occupant.human import load_dummy
from occupant.sensors import (
    UPPER_NECK_LOAD_CELL_OFFSET, Accelerometer, DisplacementSensor, LoadCell, SensorError,
    SensorFileError, default_sensors, load_sensors,
)

TABLE = """
[[sensor]]
kind = "accelerometer"
name = "Head CG"
body = "head"

[[sensor]]
kind = "load_cell"
name = "Upper neck"
joint = "upper_neck"
body = "head"
point = [0.0, 0.0, 0.01778]
fine1 = "UP"
location = "NECK"

[[sensor]]
kind = "load_cell"
name = "Left femur"
joint = "left_knee"
body = "left_upper_leg"

[[sensor]]
kind = "displacement"
name = "Chest"
body = "upper_torso"
point = [0.0, 0.0, 0.2]
to_body = "upper_torso"
to_point = [0.1, 0.0, 0.2]
directions = ["x"]

[[sensor]]
kind = "array"
name = "Shoulder belt"
source = "belt_force/shoulder"
unit = "N"
location = "SEBE"
fine3 = "B3"
"""


def test_a_sensor_table_loads_with_defaults(tmp_path):
    path = tmp_path / "sensors.toml"
    path.write_text(TABLE)
    model = load_dummy("hybrid3_50m")
    s = load_sensors(path, model)
    assert [type(x).__name__ for x in s] == ["Accelerometer", "LoadCell", "LoadCell", "DisplacementSensor", "ArraySensor"]
    assert s[0] == Accelerometer("Head CG", body="head", point="cg", location="HEAD", fine1="00")
    assert s[1].point == (0.0, 0.0, 0.01778) and s[1].fine1 == "UP"
    assert (s[2].location, s[2].fine1, s[2].point) == ("FEMR", "LE", None)   # defaults from the segment
    assert s[3].directions == ("x",) and s[3].relative is True
    assert (s[4].fine2, s[4].fine3) == ("00", "B3")   # the belt cell's place: fine location 3
    assert load_sensors(tomllib.loads(TABLE)) == s


@pytest.mark.parametrize("entry, key, fragment", [
    ('kind = "accel"\nname = "a"\nbody = "head"', "sensor[0].kind", "accelerometer, angular_velocity"),
    ('kind = "accelerometer"\nname = "a"\nbody = "head"\nmass = 1', "sensor[0].mass", "body, fine1"),
    ('kind = "load_cell"\nname = "a"\nbody = "head"', "sensor[0].joint", "missing"),
    ('kind = "accelerometer"\nname = "a"\nbody = "head"\npoint = [1, 2]', "sensor[0].point", "[x, y, z]"),
    ('kind = "accelerometer"\nname = "a"\nbody = "skull"', "sensor[0].body", "unknown body 'skull'"),
    ('kind = "accelerometer"\nname = "a"\nbody = "left_foot"', "sensor[0].location", "HEAD, CHST"),
    ('kind = "accelerometer"\nname = "a"\nbody = "head"\nlocation = "hd"', "sensor[0].location", "4 characters"),
    ('kind = "displacement"\nname = "a"\nbody = "head"\nto_body = "neck"\ndirections = ["w"]', "sensor[0].directions", "x, y, z, r"),
    ('kind = "load_cell"\nname = "a"\nbody = "head"\njoint = "upper_neck"\npoint = "cg"', "sensor[0].point", "joint centre"),
    ('kind = "array"\nname = "a"\nsource = "belt"\nlocation = "SEBE"', "sensor[0].unit", "missing"),
    ('kind = "array"\nname = "a"\nsource = "belt"\nunit = "N"\nlocation = "SEBE"\nfine3 = "B"',
     "sensor[0].fine3", "2 characters"),
    ('kind = "accelerometer"\nname = "a"\nbody = "head"\nfine3 = "B3"', "sensor[0].fine3", "unknown key"),
    ('kind = "load_cell"\nname = "a"\nbody = "left_lower_leg"\njoint = "left_knee"\nreaction = 1',
     "sensor[0].reaction", "true or false"),
    ('kind = "load_cell"\nname = "a"\nbody = "left_lower_leg"\njoint = "left_knee"\nbody_loads_above = true',
     "sensor[0].body_loads_above", "only with reaction"),
])
def test_invalid_sensor_tables_are_rejected_with_the_key_path(tmp_path, entry, key, fragment):
    path = tmp_path / "bad.toml"
    path.write_text("[[sensor]]\n" + entry + "\n")
    with pytest.raises(SensorFileError) as err:
        load_sensors(path, load_dummy("hybrid3_50m"))
    msg = str(err.value)
    assert msg.startswith(f"{path}: {key}: ") and fragment in msg, msg


def test_the_upper_tibia_cell_reads_from_a_sensor_file_as_the_default_set_declares_it():
    """A sensor file can declare every load cell the default set has: the upper tibia cell,
    read across the knee as the reaction, its own leg's contacts on the knee's side."""
    model = load_dummy("hybrid3_50m")
    default = next(s for s in default_sensors(model) if s.name == "Left upper tibia")
    table = {"sensor": [{"kind": "load_cell", "name": "Left upper tibia", "body": "left_lower_leg",
                         "joint": "left_knee", "marker": "left_upper_tibia_load_cell", "location": "TIBI",
                         "fine1": "LE", "fine2": "UP", "reaction": True, "body_loads_above": True}]}
    assert load_sensors(table, model) == (default,)


def test_duplicate_names_and_bad_sources_are_rejected(tmp_path):
    dup = '[[sensor]]\nkind = "accelerometer"\nname = "a"\nbody = "head"\n' * 2
    with pytest.raises(SensorFileError, match=r"sensor\[1\]\.name: duplicate"):
        load_sensors(tomllib.loads(dup))
    with pytest.raises(SensorFileError, match="not valid TOML"):
        (tmp_path / "x.toml").write_text("[[sensor]\n")
        load_sensors(tmp_path / "x.toml")
    with pytest.raises(SensorError, match="load_cell.*joint|joint 'upper_neck' connects"):
        from occupant.sensors import evaluate
        import numpy as np, types
        m = load_dummy("hybrid3_50m")
        r = types.SimpleNamespace(t=np.array([0.0, 1e-4]), q=np.array([m.q_neutral] * 2), v=np.zeros((2, m.nv)),
                                  vdot=np.zeros((2, m.nv)), base_states=np.zeros((2, 12)))
        evaluate(m, r, [LoadCell("x", joint="upper_neck", body="pelvis")])


def test_default_sensors_cover_the_standard_hybrid3_set():
    for name, code in (("hybrid3_50m", "H3"), ("hybrid3_05f", "HF"), ("hybrid3_95m", "HM")):
        s = default_sensors(load_dummy(name))
        assert [x.name for x in s] == ["Head CG", "Upper neck", "Chest", "Chest deflection", "Pelvis", "Left femur",
                                        "Right femur", "Left upper tibia", "Left lower tibia",
                                        "Right upper tibia", "Right lower tibia"]
    from occupant.samples import pendulum
    with pytest.raises(SensorError, match="no default sensor set.*hybrid3_50m"):
        default_sensors(pendulum())


def test_reference_the_parametric_human_gets_the_hybrid3_set_at_its_places():
    """A parametric human (occupant.human.build) is given the Hybrid III's head, upper-neck,
    chest and pelvis channels at the same places (the neck cell the dummy's offset above the
    condyles, so that M_OC transfers as the dummy's), femur loads at each knee's centre and the
    upper and lower tibia cells at the Hybrid III 50M's places scaled by its own knee-ankle
    length (their loads: tests/sensors/test_tibia_cells.py)."""
    from occupant.human import build
    m = build(sex="female", percentile=5)
    s = default_sensors(m)
    assert [x.name for x in s] == ["Head CG", "Upper neck", "Chest", "Chest deflection", "Pelvis",
                                   "Left femur", "Right femur", "Left upper tibia",
                                   "Left lower tibia", "Right upper tibia", "Right lower tibia"]
    shank = m.source.joints["left_ankle"].placement.position[2]      # < 0: the ankle below the knee
    tibias = [x for x in s if x.name.endswith("tibia")]
    np.testing.assert_allclose([x.point for x in tibias], [(0.0, 0.0, shank * 100.0 / 405.6),
                                                           (0.0, 0.0, shank * 327.6 / 405.6)] * 2,
                               rtol=0, atol=1e-12)
    assert [(x.joint, x.reaction, x.body_loads_above) for x in tibias] == [
        ("left_knee", True, True), ("left_ankle", False, False),
        ("right_knee", True, True), ("right_ankle", False, False)]
    neck = next(x for x in s if x.name == "Upper neck")
    assert neck.point == (0.0, 0.0, UPPER_NECK_LOAD_CELL_OFFSET) and neck.joint == "upper_neck"
    femurs = [x for x in s if x.name.endswith("femur")]
    assert all(isinstance(x, LoadCell) and x.point is None and x.marker is None for x in femurs)
    assert [x.joint for x in femurs] == ["left_knee", "right_knee"]
