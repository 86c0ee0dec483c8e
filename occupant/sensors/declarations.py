"""Virtual sensor declarations: what is measured, where, and under which ISO-MME code.

Every sensor is a frozen dataclass. Points on a segment are given in the *segment frame* of the
model file (for the dummies: origin at the segment's proximal joint centre, x forward, y left,
z up in the reference posture), as three numbers in m, as ``"cg"`` (the segment's centre of
mass) or through a marker of that segment. Readings come out in the segment's axes with SAE
J211 polarity (x forward, y right, z down), i.e. the model-frame components (x, y, z) become
(x, -y, -z) at the sensor edge (crash-domain-facts.md 0.1); an accelerometer, angular sensor or
load cell given by a marker reads in that marker's axes instead (a sensor mounted at an angle:
a marker's ``orientation_deg`` in the dummy file; a marker given no axes has its segment's).
A displacement sensor reads in its first segment's axes, whatever its markers.

ISO/TS 13499 channel codes are assembled from the sensor's ``location`` (4 characters, e.g.
``HEAD``), ``fine1`` and ``fine2`` (2 characters each, e.g. ``UP`` and ``00``); the test object,
seat position, dummy type and filter class come from ``occupant.sensors.evaluate``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "SensorError", "Accelerometer", "AngularVelocitySensor", "AngularAccelerationSensor",
    "LoadCell", "DisplacementSensor", "ArraySensor", "SENSOR_KINDS",
]


class SensorError(ValueError):
    """A sensor declaration that cannot be evaluated on the model or results given."""


_CODE_CHARS = re.compile(r"[0-9A-Z]+")
DIRECTIONS = ("x", "y", "z", "r")

#: ISO-MME main location of a dummy segment (ISO/TS 13499 RED B, crash-domain-facts.md 3.4)
SEGMENT_LOCATIONS = {"head": "HEAD", "neck": "NECK", "upper_torso": "CHST", "lumbar": "LUSP",
                     "pelvis": "PELV", "upper_leg": "FEMR", "lower_leg": "TIBI"}


def default_location(body):
    """(location or None, fine1) of a segment name: ``left_upper_leg`` -> ("FEMR", "LE")."""
    side, base = "00", body
    for prefix, code in (("left_", "LE"), ("right_", "RI")):
        if body.startswith(prefix):
            side, base = code, body[len(prefix):]
    return SEGMENT_LOCATIONS.get(base), side


def check_code_part(value, length, what):
    """Raise SensorError unless ``value`` is ``length`` characters of digits and upper-case letters."""
    if not (isinstance(value, str) and len(value) == length and _CODE_CHARS.fullmatch(value)):
        raise SensorError(f"{what}: expected {length} characters of digits and upper-case letters "
                          f"(ISO/TS 13499 channel code field), got {value!r}")
    return value


def _is_cg(point):
    return isinstance(point, str) and point == "cg"


def check_point(point, what):
    """``None``, ``"cg"`` or three finite numbers (m) -> normalised value."""
    if point is None or _is_cg(point):
        return point
    try:
        xyz = tuple(float(c) for c in point)
    except (TypeError, ValueError):
        xyz = ()
    if len(xyz) != 3 or not all(abs(c) < float("inf") for c in xyz) or isinstance(point, str):
        raise SensorError(f"{what}: expected \"cg\" or [x, y, z] in m in the segment frame, got {point!r}")
    return xyz


@dataclass(frozen=True)
class _Located:
    """Common fields: channel-name prefix and the ISO-MME location fields."""
    name: str
    location: str | None = None  # ISO-MME main location, 4 characters (HEAD, CHST, PELV, NECK,
    #                              FEMR, ...); on a segment, None takes the segment's default
    fine1: str | None = None     # fine location 1 (UP, LO, LE, RI, 00, ...); None: side or 00
    fine2: str = "00"        # fine location 2 (00, 01, ...)

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip():
            raise SensorError(f"sensor name: expected a non-empty string, got {self.name!r}")
        if self.fine1 is None:
            object.__setattr__(self, "fine1", "00")
        if self.location is None:
            raise SensorError(f"sensor '{self.name}'.location: missing; give the ISO-MME main location, "
                              f"4 characters such as HEAD, CHST, THSP, PELV, NECK, LUSP, FEMR, TIBI, SEBE")
        check_code_part(self.location, 4, f"sensor '{self.name}'.location")
        check_code_part(self.fine1, 2, f"sensor '{self.name}'.fine1")
        check_code_part(self.fine2, 2, f"sensor '{self.name}'.fine2")


@dataclass(frozen=True)
class _OnSegment(_Located):
    body: str = ""
    point: object = "cg"     # "cg", (x, y, z) m in the segment frame, or None with a marker
    marker: str | None = None

    def __post_init__(self):
        if not isinstance(self.body, str) or not self.body:
            raise SensorError(f"sensor '{self.name}'.body: expected a segment name, got {self.body!r}")
        location, side = default_location(self.body)
        if self.location is None and location is not None:
            object.__setattr__(self, "location", location)
        if self.fine1 is None:
            object.__setattr__(self, "fine1", side)
        super().__post_init__()
        if self.marker is not None:
            if not isinstance(self.marker, str) or not self.marker:
                raise SensorError(f"sensor '{self.name}'.marker: expected a marker name, got {self.marker!r}")
            if self.point is not None and not _is_cg(self.point):
                raise SensorError(f"sensor '{self.name}': give either point or marker, not both")
            object.__setattr__(self, "point", None)
        else:
            object.__setattr__(self, "point", check_point(self.point, f"sensor '{self.name}'.point"))


@dataclass(frozen=True)
class Accelerometer(_OnSegment):
    """Tri-axial linear accelerometer fixed to ``body`` at ``point``: the acceleration of that
    point relative to the inertial frame minus gravity (specific force, m/s^2), in the segment's
    J211 axes (given by a ``marker``: at its origin, in its J211 axes). At rest upright it reads -1 g along z (J211 z points down, the specific
    force of a body resting against gravity points up)."""
    kind = "accelerometer"


@dataclass(frozen=True)
class AngularVelocitySensor(_OnSegment):
    """Tri-axial angular rate sensor: the segment's absolute angular velocity (rad/s) in its J211
    axes (the base's rotation included; given by a ``marker``, in the marker's)."""
    kind = "angular_velocity"


@dataclass(frozen=True)
class AngularAccelerationSensor(_OnSegment):
    """The segment's absolute angular acceleration (rad/s^2) in its J211 axes (given by a
    ``marker``, in the marker's)."""
    kind = "angular_acceleration"


@dataclass(frozen=True)
class LoadCell(_OnSegment):
    """Six-axis load cell (Fx Fy Fz in N, Mx My Mz in N*m) from the reaction of ``joint``.

    The reading is the load exerted *on* ``body`` (the joint's parent or child segment) by the
    segment on the other side of the joint, moments taken about ``point`` (segment frame of
    ``body``; ``None``: the joint centre), components in ``body``'s J211 axes; given by a
    ``marker`` instead, about the marker's origin and in its axes (J211 polarity), so a cell
    mounted at an angle to its segment carries its own orientation. J211 wants the
    load on the part above the cell in the standing posture, so ``body`` is that part: the head
    for the upper neck (Fz > 0 tension, My > 0 flexion), the upper leg for a femur cell read
    across the knee (Fz < 0 compression). Mass between the joint and ``point`` is neglected
    (the moment is transferred statically). With ``reaction`` the reading is the load ``body``
    exerts on the segment across the joint instead: a cell inside ``body`` whose part above
    is the joint's end of ``body`` (the upper tibia cell below the knee: the load on the knee's
    end of the tibia from the tibia below the cell is, the few cm between neglected, minus the
    femur's load on the lower leg). With ``body_loads_above`` as well, the loads the force
    producers put on ``body`` itself count as acting between the joint and the cell, so they
    are not in the reading (the sled scenarios' knee contact spheres at the knee's centre, on
    the lower leg, press the knee, not the tibia below the upper cell; a rigid segment cannot
    tell where along it a contact acts). External forces on the subtree count only if
    ``evaluate`` is given them (``f_ext``)."""
    kind = "load_cell"
    point: object = None     # (x, y, z) m in the segment frame of body; None: the joint centre
    joint: str = ""
    reaction: bool = False   # read the load body exerts across the joint (see above)
    body_loads_above: bool = False   # with reaction: body's own external loads are not read

    def __post_init__(self):
        super().__post_init__()
        if self.body_loads_above and not self.reaction:
            raise SensorError(f"sensor '{self.name}'.body_loads_above: only with reaction")
        if _is_cg(self.point):
            raise SensorError(f"sensor '{self.name}'.point: a load cell needs [x, y, z] or the joint centre (omit point)")
        if not isinstance(self.joint, str) or not self.joint:
            raise SensorError(f"sensor '{self.name}'.joint: expected a joint name, got {self.joint!r}")


@dataclass(frozen=True)
class DisplacementSensor(_OnSegment):
    """Displacement of a point of ``to_body`` relative to a point of ``body`` (m), in ``body``'s
    J211 axes; ``directions`` among x, y, z and r (change of the distance between the points).
    With ``relative`` the first sample is subtracted, so the channel is the change since t0:
    for a sternum point measured from a spine point, chest compression is negative (J211)."""
    kind = "displacement"
    to_body: str = ""
    to_point: object = "cg"
    to_marker: str | None = None
    directions: tuple = ("x", "y", "z")
    relative: bool = True

    def __post_init__(self):
        super().__post_init__()
        if not isinstance(self.to_body, str) or not self.to_body:
            raise SensorError(f"sensor '{self.name}'.to_body: expected a segment name, got {self.to_body!r}")
        if self.to_marker is not None:
            if self.to_point is not None and not _is_cg(self.to_point):
                raise SensorError(f"sensor '{self.name}': give either to_point or to_marker, not both")
            object.__setattr__(self, "to_point", None)
        else:
            object.__setattr__(self, "to_point", check_point(self.to_point, f"sensor '{self.name}'.to_point"))
        dirs = tuple(self.directions) if not isinstance(self.directions, str) else ()
        if not dirs or any(d not in DIRECTIONS for d in dirs) or len(set(dirs)) != len(dirs):
            raise SensorError(f"sensor '{self.name}'.directions: expected distinct entries among "
                              f"{', '.join(DIRECTIONS)}, got {self.directions!r}")
        object.__setattr__(self, "directions", dirs)
        object.__setattr__(self, "relative", bool(self.relative))


@dataclass(frozen=True)
class ArraySensor(_Located):
    """Generic hook for forces that other parts of the solver record (belt segment forces,
    contact forces): the channel is ``results.<source>`` ((n,) array, a column ``index`` of an
    (n, k) array, or ``results.<attr>[<key>]`` when ``source`` is ``"attr/key"`` and the attribute
    is a dict), taken as is (the producer owns the sign), linearly resampled. ``fine3``: the
    code's fine location 3 where it is not the dummy type (a seat belt's load cell place, B1-B6
    at SEBE: ``occupant.sensors.belt``)."""
    kind = "array"
    source: str = ""
    unit: str = ""
    dimension: str = "FO"    # ISO-MME physical dimension (FO force, MO moment, DS displacement, ...)
    direction: str = "0"     # ISO-MME direction character (X, Y, Z, R, 0)
    index: int | None = None
    fine3: str | None = None   # ISO-MME fine location 3 (2 characters); None: the dummy type

    def __post_init__(self):
        super().__post_init__()
        if not isinstance(self.source, str) or not self.source:
            raise SensorError(f"sensor '{self.name}'.source: expected the name of a results array, got {self.source!r}")
        if not isinstance(self.unit, str) or not self.unit.strip():
            raise SensorError(f"sensor '{self.name}'.unit: expected a unit such as 'N', got {self.unit!r}")
        check_code_part(self.dimension, 2, f"sensor '{self.name}'.dimension")
        check_code_part(self.direction, 1, f"sensor '{self.name}'.direction")
        if self.fine3 is not None:
            check_code_part(self.fine3, 2, f"sensor '{self.name}'.fine3")
        if self.index is not None and (isinstance(self.index, bool) or not isinstance(self.index, int) or self.index < 0):
            raise SensorError(f"sensor '{self.name}'.index: expected a column index >= 0, got {self.index!r}")


SENSOR_KINDS = {c.kind: c for c in (Accelerometer, AngularVelocitySensor, AngularAccelerationSensor,
                                    LoadCell, DisplacementSensor, ArraySensor)}
