"""Constraint elements of seed 000 beside the joints: the constraint primitives (ADAMS JPRIM) and
the couplers. Both compile to rows of the ConstraintBlock (``compile_constraints``).

Primitives act between marker I (``marker_i``) and marker J (``marker_j``, or a frame fixed in B0
given by ``position_j``/``rotation_j`` when None); p the origins, x, y, z the axes:
  inpoint (ADAMS "atpoint")  p_I = p_J                          3 rows
  inline                     p_I on the z line of J              2 rows  (p_I - p_J).x_J = .y_J = 0
  inplane                    p_I in the x-y plane of J           1 row   (p_I - p_J).z_J = 0
  orientation                the axes of I and J equal           3 rows  z_I.x_J = z_I.y_J = x_I.y_J = 0
  parallel_axes              z_I parallel to z_J                 2 rows  z_I.x_J = z_I.y_J = 0
  perpendicular              z_I perpendicular to z_J            1 row   z_I.z_J = 0

A coupler ties two joint coordinates linearly (ADAMS COUPLER, GEAR, Chrono's ChLinkGear,
ChLinkRackpinion): c_a q_a + c_b q_b + offset = 0, q the coordinate ``dof`` of ``joint`` and
``dof_b`` of ``joint_b`` (rad for revolute, m for prismatic coordinates). ``Coupler.gear`` and
``Coupler.rack_and_pinion`` give the coefficients of a gear pair and of a rack and pinion.
"""
from dataclasses import dataclass

import numpy as np

from occupant.modeling.elements import Connection, ModelingError

_X, _Y, _Z = np.eye(3)
# rows of each primitive: ("distance", axis of J) or ("dot", axis of I, axis of J)
PRIMITIVE_ROWS = {
    "inpoint": (("distance", _X), ("distance", _Y), ("distance", _Z)),
    "inline": (("distance", _X), ("distance", _Y)),
    "inplane": (("distance", _Z),),
    "orientation": (("dot", _Z, _X), ("dot", _Z, _Y), ("dot", _X, _Y)),
    "parallel_axes": (("dot", _Z, _X), ("dot", _Z, _Y)),
    "perpendicular": (("dot", _Z, _Z),),
}


@dataclass
class Primitive(Connection):
    """A constraint primitive between markers I and J (kinds: ``PRIMITIVE_ROWS``)."""
    name: str
    kind: str
    marker_i: str
    marker_j: str | None = None
    position_j: tuple = (0.0, 0.0, 0.0)
    rotation_j: object = None

    def __post_init__(self):
        what = f"primitive '{self.name}'"
        if self.kind not in PRIMITIVE_ROWS:
            raise ModelingError(f"{what}.kind: unknown primitive {self.kind!r} (accepted: "
                                f"{', '.join(PRIMITIVE_ROWS)})")
        self._check_markers(what)


@dataclass
class Coupler:
    """c_a q_a + c_b q_b + offset = 0 between coordinate ``dof`` of ``joint`` and ``dof_b`` of
    ``joint_b`` (``coefficients`` = (c_a, c_b)); ``kind`` names the element family ("coupler",
    "gear", "rack_and_pinion")."""
    name: str
    joint: str
    joint_b: str
    coefficients: tuple = (1.0, -1.0)
    offset: float = 0.0
    dof: int = 0
    dof_b: int = 0
    kind: str = "coupler"

    def __post_init__(self):
        what = f"{self.kind.replace('_', ' ')} '{self.name}'"
        c = np.asarray(self.coefficients, dtype=float)
        if c.shape != (2,) or not np.all(np.isfinite(c)) or np.all(c == 0):
            raise ModelingError(f"{what}.coefficients: expected two finite numbers, not both 0, "
                                f"got {self.coefficients!r}")
        self.coefficients = c
        if not np.isfinite(self.offset):
            raise ModelingError(f"{what}.offset: must be finite, got {self.offset!r}")
        if self.joint == self.joint_b and self.dof == self.dof_b:
            raise ModelingError(f"{what}: couples coordinate {self.dof} of joint '{self.joint}' "
                                f"with itself")
        if self.kind not in ("coupler", "gear", "rack_and_pinion"):
            raise ModelingError(f"{what}.kind: expected coupler, gear or rack_and_pinion, got "
                                f"{self.kind!r}")

    @classmethod
    def gear(cls, name, joint, joint_b, ratio):
        """Two wheels on revolute joints: q_b = ratio q_a (ratio = -r_a/r_b for an external
        mesh of pitch radii r_a, r_b: the wheels turn in opposite senses)."""
        if not (np.isfinite(ratio) and ratio != 0):
            raise ModelingError(f"gear '{name}'.ratio: must be finite and non-zero, got {ratio!r}")
        return cls(name, joint, joint_b, (ratio, -1.0), kind="gear")

    @classmethod
    def rack_and_pinion(cls, name, pinion, rack, pitch_radius):
        """A pinion on the revolute joint ``pinion`` drives the prismatic joint ``rack``:
        x_rack = pitch_radius * angle."""
        if not (np.isfinite(pitch_radius) and pitch_radius != 0):
            raise ModelingError(f"rack and pinion '{name}'.pitch_radius: must be finite and "
                                f"non-zero (m), got {pitch_radius!r}")
        return cls(name, pinion, rack, (pitch_radius, -1.0), kind="rack_and_pinion")

    @property
    def refs(self):
        return {"joint": self.joint, "joint_b": self.joint_b}
