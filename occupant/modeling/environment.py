"""Environment elements of seed 000 (table 1, "environment factors" and "auxiliary factors"): the
gravity field and the unit system of the input (SI inside the model)."""
from dataclasses import dataclass

import numpy as np

from occupant.modeling.elements import ModelingError, _vec3


@dataclass
class Gravity:
    """The model's uniform gravity field, ``acceleration`` (3,) m/s^2 in B0 (one per model;
    ``Assembly.gravity`` reads and sets it)."""
    name: str
    acceleration: tuple

    def __post_init__(self):
        self.acceleration = _vec3(self.acceleration, f"gravity '{self.name}'.acceleration")

    @property
    def refs(self):
        return {}


# SI value of one input unit (BIPM, The International System of Units, 9th ed. 2019; the pound
# and inch as defined by the 1959 international yard and pound agreement)
_SCALES = {
    "length": {"m": 1.0, "mm": 1e-3, "cm": 1e-2, "km": 1e3, "in": 0.0254, "ft": 0.3048},
    "mass": {"kg": 1.0, "g": 1e-3, "t": 1e3, "lb": 0.45359237},
    "time": {"s": 1.0, "ms": 1e-3, "min": 60.0, "h": 3600.0},
    "angle": {"rad": 1.0, "deg": np.pi / 180.0},
    "force": {"N": 1.0, "kN": 1e3, "lbf": 4.4482216152605},
}


@dataclass(frozen=True)
class Units:
    """The unit system values are entered in (seed 000's "units"); ``si(value, quantity)``
    converts to SI, the units of every element. Derived quantities: "velocity" (length/time),
    "acceleration", "stiffness" (force/length), "damping" (force time/length), "torque" (force
    length), "rotational_stiffness" (torque/angle), "inertia" (mass length^2), "density"
    (mass/length^3), "pressure" (force/length^2), "angular_velocity" (angle/time),
    "rotational_damping" (torque time/angle), "length_per_angle", "dimensionless"."""
    length: str = "m"
    mass: str = "kg"
    time: str = "s"
    angle: str = "rad"
    force: str = "N"

    def __post_init__(self):
        for quantity, table in _SCALES.items():
            unit = getattr(self, quantity)
            if unit not in table:
                raise ModelingError(f"units.{quantity}: unknown unit {unit!r} (accepted: "
                                    f"{', '.join(table)})")

    def scale(self, quantity):
        """SI value of one input unit of ``quantity``."""
        s = {q: _SCALES[q][getattr(self, q)] for q in _SCALES}
        derived = {
            "velocity": s["length"] / s["time"],
            "acceleration": s["length"] / s["time"] ** 2,
            "stiffness": s["force"] / s["length"],
            "damping": s["force"] * s["time"] / s["length"],
            "torque": s["force"] * s["length"],
            "rotational_stiffness": s["force"] * s["length"] / s["angle"],
            "inertia": s["mass"] * s["length"] ** 2,
            "density": s["mass"] / s["length"] ** 3,
            "pressure": s["force"] / s["length"] ** 2,
            "angular_velocity": s["angle"] / s["time"],
            "rotational_damping": s["force"] * s["length"] * s["time"] / s["angle"],
            "length_per_angle": s["length"] / s["angle"],
            "dimensionless": 1.0,
        }
        if quantity in s:
            return s[quantity]
        if quantity in derived:
            return derived[quantity]
        raise ModelingError(f"units: unknown quantity {quantity!r} (accepted: "
                            f"{', '.join(list(s) + list(derived))})")

    def si(self, value, quantity):
        """``value`` (a number or array in this unit system) in SI."""
        return np.asarray(value, dtype=float) * self.scale(quantity)


SI = Units()
