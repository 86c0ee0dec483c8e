"""Motions of seed 000 (table 1): joint motion and marker motion as functions of time, compiled to
rheonomic constraint rows Phi(q, t) = 0 (Haug 1989, section 3.5 "kinematic drivers"; ADAMS
MOTION and GENERAL_MOTION). The solver keeps them exactly: Phi_t enters the velocity equations and
Phi_tt the accelerations (``occupant.constraints.drivers``), and the work their constraint forces
do is the ``motions`` slot of Results.work.

``TimeFunction``: f(t) = c0 + c1 t + c2 t^2 + c3 t^3 + A sin(w t + phase) (SI units of the driven
quantity; w in rad/s).

``JointMotion``: coordinate ``dof`` of the spanning-tree joint ``joint`` (revolute angle, rad, or
prismatic travel, m) equals f(t): one row q - f(t) = 0.

``MarkerMotion``: marker I (``marker_i``) relative to marker J (``marker_j``, or the frame fixed in
B0 given by ``position_j``/``rotation_j`` when None): the origin of I at J-frame coordinates
``translation`` = (f_x, f_y, f_z) (a component None is left free: one distance row per given
component), and, when ``rotation`` = (a, b, c) is given, the axes of I those of J turned by
Rz(a) Ry(b) Rx(c) (yaw a about J's z, then pitch b about the new y, roll c about the newest x:
three rows z_I . x_T = z_I . y_T = x_I . y_T = 0 against the turning frame T).
"""
from dataclasses import dataclass

import numpy as np

from occupant.modeling.elements import Connection, ModelingError


@dataclass
class TimeFunction:
    """f(t) = c0 + c1 t + c2 t^2 + c3 t^3 + amplitude sin(frequency t + phase); ``polynomial``
    (c0, ...) up to 4 coefficients; frequency in rad/s, phase in rad."""
    polynomial: tuple = (0.0,)
    amplitude: float = 0.0
    frequency: float = 0.0
    phase: float = 0.0

    def __post_init__(self):
        c = np.atleast_1d(np.asarray(self.polynomial, dtype=float))
        if c.ndim != 1 or not 1 <= len(c) <= 4 or not np.all(np.isfinite(c)):
            raise ModelingError(f"time function.polynomial: expected 1 to 4 finite coefficients "
                                f"(c0, c1, c2, c3), got {self.polynomial!r}")
        self.polynomial = np.concatenate([c, np.zeros(4 - len(c))])
        for key in ("amplitude", "frequency", "phase"):
            if not np.isfinite(getattr(self, key)):
                raise ModelingError(f"time function.{key}: must be finite, got "
                                    f"{getattr(self, key)!r}")

    @classmethod
    def of(cls, value, what):
        """A TimeFunction from a TimeFunction, a number (a constant) or a dict of its fields
        (the form of a TOML file); errors name ``what``."""
        if isinstance(value, cls):
            return value
        try:
            if isinstance(value, dict):
                return cls(**value)
            if np.ndim(value) == 0:
                return cls((float(value),))
        except (TypeError, ValueError) as e:
            raise ModelingError(f"{what}: {e}") from None
        raise ModelingError(f"{what}: expected a number, a TimeFunction or a table with keys "
                            f"polynomial, amplitude, frequency, phase; got {value!r}")

    @property
    def row(self):
        """The (7,) row of ``ConstraintBlock.drives``."""
        return np.array([*self.polynomial, self.amplitude, self.frequency, self.phase])

    def __call__(self, t, derivative=0):
        """f(t), f'(t) or f''(t) (derivative 0, 1, 2)."""
        t = np.asarray(t, dtype=float)
        c, arg = self.polynomial, self.frequency * t + self.phase
        A, w = self.amplitude, self.frequency
        if derivative == 0:
            return c[0] + t * (c[1] + t * (c[2] + t * c[3])) + A * np.sin(arg)
        if derivative == 1:
            return c[1] + t * (2 * c[2] + 3 * t * c[3]) + A * w * np.cos(arg)
        if derivative == 2:
            return 2 * c[2] + 6 * t * c[3] - A * w * w * np.sin(arg)
        raise ValueError(f"derivative must be 0, 1 or 2, got {derivative!r}")


@dataclass
class JointMotion:
    """Coordinate ``dof`` of joint ``joint`` (a joint of the spanning tree, revolute or
    prismatic coordinate) follows ``function`` (a TimeFunction or a constant)."""
    name: str
    joint: str
    function: object
    dof: int = 0
    kind = "joint_motion"

    def __post_init__(self):
        self.function = TimeFunction.of(self.function, f"joint motion '{self.name}'.function")

    @property
    def refs(self):
        return {"joint": self.joint}


@dataclass
class MarkerMotion(Connection):
    """Marker I's position (J-frame coordinates) and orientation relative to J as functions of
    time (module docstring); ``translation``: three TimeFunctions, constants or None (free);
    ``rotation``: None (free) or three (yaw, pitch, roll) TimeFunctions or constants, rad."""
    name: str
    marker_i: str
    marker_j: str | None = None
    position_j: tuple = (0.0, 0.0, 0.0)
    rotation_j: object = None
    translation: tuple = (None, None, None)
    rotation: tuple | None = None
    kind = "marker_motion"

    def __post_init__(self):
        what = f"marker motion '{self.name}'"
        self._check_markers(what)
        if self.translation is None or len(self.translation) != 3:
            raise ModelingError(f"{what}.translation: expected three functions of time (or None "
                                f"for a free component), got {self.translation!r}")
        self.translation = tuple(None if f is None else
                                 TimeFunction.of(f, f"{what}.translation[{k}]")
                                 for k, f in enumerate(self.translation))
        if self.rotation is not None:
            if len(self.rotation) != 3:
                raise ModelingError(f"{what}.rotation: expected three angles (yaw, pitch, roll) as "
                                    f"functions of time, or None, got {self.rotation!r}")
            self.rotation = tuple(TimeFunction.of(f, f"{what}.rotation[{k}]")
                                  for k, f in enumerate(self.rotation))
        if self.rotation is None and all(f is None for f in self.translation):
            raise ModelingError(f"{what}: prescribes nothing (give translation components or a "
                                f"rotation)")
