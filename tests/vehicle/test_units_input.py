"""Units applied to input (issue 12 section 1, "units"): a subsystem file that declares its
units ([units]) loads to the same SI parameters as the shipped SI file. The files written here
convert each number by hand-worked factors (written from the parameters' documented units, not
from occupant's table)."""
import pathlib
import tomllib
from dataclasses import asdict

import numpy as np
import pytest

from occupant.scenario.toml_write import dumps
from occupant.vehicle.files import VehicleFileError, load_subsystem

VEHICLES = pathlib.Path(__file__).resolve().parents[2] / "vehicles"
DEG = np.pi / 180.0

# file value = SI value * factor, in length mm, mass g, force kN, angle deg, time s
FACTORS = {
    "double_wishbone": {"point": 1e3, "uca_mass": 1e3, "lca_mass": 1e3, "upright_mass": 1e3,
                        "upright_inertia": 1e9,              # kg m^2 -> g mm^2
                        "tierod_mass": 1e3, "damper_upper_mass": 1e3, "damper_lower_mass": 1e3,
                        "wheel_rate": 1e-6,                  # N/m -> kN/mm
                        "wheel_damping": 1e-6,               # N s/m -> kN s/mm
                        "corner_load": 1e-3,                 # N -> kN
                        "damper_upper_radius": 1e3, "damper_lower_radius": 1e3},
    "rack_pinion": {"point": 1e3, "steering_wheel_mass": 1e3, "steering_wheel_inertia": 1e9,
                    "column_mass": 1e3, "shaft_mass": 1e3, "pinion_mass": 1e3, "rack_mass": 1e3,
                    "rack_gain": 1e3 * DEG,                  # m/rad -> mm/deg
                    "mesh_stiffness": 1e-6, "mesh_damping": 1e-6,
                    "shaft_stiffness": 1e-3 * 1e3 * DEG,     # N m/rad -> kN mm/deg
                    "shaft_damping": 1e-3 * 1e3 * DEG,
                    "driver_stiffness": 1e-3 * 1e3 * DEG, "driver_damping": 1e-3 * 1e3 * DEG,
                    "column_radius": 1e3, "intermediate_shaft_radius": 1e3, "rack_radius": 1e3},
}
UNITS = {"length": "mm", "mass": "g", "force": "kN", "angle": "deg"}


@pytest.mark.parametrize("file", ("sedan_front_double_wishbone.toml", "sedan_steering.toml"))
def test_declared_units_are_converted_on_load(tmp_path, file):
    data = tomllib.loads((VEHICLES / file).read_text())
    factors = FACTORS[data["template"]]
    converted = {k: (np.array(v) * factors["point"] if isinstance(v, list) and k not in factors
                     else np.asarray(v) * factors[k]).tolist()
                 for k, v in data["parameters"].items()}
    path = tmp_path / file
    path.write_text(dumps({"kind": "subsystem", "template": data["template"], "units": UNITS,
                           "parameters": converted}))
    si = asdict(load_subsystem(VEHICLES / file).parameters)
    loaded = asdict(load_subsystem(path).parameters)
    assert loaded.keys() == si.keys()
    for k in si:
        np.testing.assert_allclose(loaded[k], si[k], rtol=1e-12, err_msg=k)
    assert all(converted[k] != v for k, v in data["parameters"].items())   # every number moved


def test_bad_units_name_the_file_and_key(tmp_path):
    text = (VEHICLES / "sedan_steering.toml").read_text()
    for units, key in (('length = "furlong"', "units.length"), ('speed = "kph"', "units")):
        path = tmp_path / "bad.toml"
        path.write_text(text.replace("[parameters]", f"[units]\n{units}\n\n[parameters]"))
        with pytest.raises(VehicleFileError, match=rf"bad.toml.*{key}") as info:
            load_subsystem(path)
        print(info.value)
