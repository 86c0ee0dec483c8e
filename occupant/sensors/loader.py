"""Sensor declarations from TOML: ``[[sensor]]`` tables, validated with the key path.

Example (a scenario or model file, or a file of its own)::

    [[sensor]]
    kind = "accelerometer"          # accelerometer | angular_velocity | angular_acceleration
    name = "Head CG"                #   | load_cell | displacement | array
    body = "head"
    point = "cg"                    # "cg" or [x, y, z] m in the segment frame; or marker = "..."
                                    #   (at its origin, read in its axes); or a joint's name
                                    #   (its centre; the joint's parent is body; with a model)

    [[sensor]]
    kind = "load_cell"
    name = "Upper neck"
    joint = "upper_neck"
    body = "head"                   # the load on this segment, in its axes (the part above the cell)
    point = [0.0, 0.0, 0.01778]     # omit for the joint centre
    location = "NECK"
    fine1 = "UP"
    # reaction = true: the load body exerts across the joint (a cell inside body beyond it);
    # body_loads_above = true (with reaction): body's own contacts count on the joint's side

``location`` defaults from the segment (head HEAD, upper_torso CHST, pelvis PELV, neck NECK,
lumbar LUSP, upper_leg FEMR, lower_leg TIBI; other segments must give it), ``fine1`` from the
side (left_ LE, right_ RI, else 00).
"""
from __future__ import annotations

import pathlib

from occupant.io.toml_files import FileChecker, InputFileError, read_toml
from occupant.sensors.declarations import DIRECTIONS, SENSOR_KINDS, SensorError, default_location

__all__ = ["SensorFileError", "load_sensors", "default_location"]

_COMMON = {"kind", "name", "location", "fine1", "fine2"}
_KEYS = {
    "accelerometer": _COMMON | {"body", "point", "marker"},
    "angular_velocity": _COMMON | {"body", "point", "marker"},
    "angular_acceleration": _COMMON | {"body", "point", "marker"},
    "load_cell": _COMMON | {"joint", "body", "point", "marker", "reaction", "body_loads_above"},
    "displacement": _COMMON | {"body", "point", "marker", "to_body", "to_point", "to_marker",
                               "directions", "relative"},
    "array": _COMMON | {"source", "unit", "dimension", "direction", "index", "fine3"},
}
_REQUIRED = {
    "accelerometer": ("body",), "angular_velocity": ("body",), "angular_acceleration": ("body",),
    "load_cell": ("joint", "body"), "displacement": ("body", "to_body"),
    "array": ("source", "unit", "location"),
}


class SensorFileError(InputFileError, SensorError):
    """A sensor table that does not validate: an InputFileError (names the file, the key path,
    the bad value and what is accepted) that is also a SensorError."""


def load_sensors(source, model=None):
    """Tuple of sensor declarations from ``source``: a path to a TOML file, or an already parsed
    table (dict) holding a ``sensor`` array of tables. With ``model`` the segment, joint and
    marker names are checked against it as well."""
    if isinstance(source, (str, pathlib.Path)):
        where, table = str(source), read_toml(source, SensorFileError)
    elif isinstance(source, dict):
        where, table = "<sensor table>", source
    else:
        raise SensorFileError("<sensor table>", "", f"expected a path or a dict, got {type(source).__name__}")
    c = FileChecker(where, SensorFileError)
    out, seen = [], set()
    for i, e in enumerate(c.tables(table, "sensor", "")):
        out.append(_one(e, c, f"sensor[{i}]", model))
        if out[-1].name in seen:
            c.fail(f"sensor[{i}].name", f"duplicate sensor name {out[-1].name!r}", "a name used once")
        seen.add(out[-1].name)
    return tuple(out)


def _one(e, c, path, model):
    kind = c.string(e, "kind", path, required=True, choices=tuple(SENSOR_KINDS), what="kind")
    unknown = sorted(set(e) - _KEYS[kind])
    if unknown:
        c.fail(f"{path}.{unknown[0]}", f"unknown key for kind '{kind}'", ", ".join(sorted(_KEYS[kind])))
    for key in _REQUIRED[kind]:
        if key not in e:
            c.fail(f"{path}.{key}", f"missing (required for kind '{kind}')")
    for key in ("name", "body", "to_body", "joint", "marker", "to_marker", "source", "unit"):
        c.string(e, key, path, required=(key == "name"))
    if kind == "displacement":
        d = e.get("directions", ["x", "y", "z"])
        if not isinstance(d, list) or not d or any(x not in DIRECTIONS for x in d):
            c.fail(f"{path}.directions", f"bad value {d!r}", "a list of x, y, z, r")
        c.boolean(e, "relative", path)
    if kind == "load_cell":
        c.boolean(e, "reaction", path)
        c.boolean(e, "body_loads_above", path)
    kwargs = dict(e)
    kwargs.pop("kind")
    if "directions" in kwargs:
        kwargs["directions"] = tuple(kwargs["directions"])
    if model is not None:
        _check_names(kwargs, model, c, path)
        _joint_point(kwargs, model, c, path)
    if "body" in kwargs and "location" not in kwargs and default_location(kwargs["body"])[0] is None:
        c.fail(f"{path}.location", f"missing: no default ISO-MME location for segment "
               f"'{kwargs['body']}'", "4 characters such as HEAD, CHST, THSP, PELV, NECK, LUSP, "
               "FEMR, TIBI")
    try:
        return SENSOR_KINDS[kind](**kwargs)
    except SensorError as err:
        message = str(err)
    # the declaration's own checks name the field; add the file and key path
    c.fail(f"{path}.{message.split(':')[0].split('.')[-1]}", message.split(": ", 1)[-1])


def _joint_point(kwargs, model, c, path):
    """``point = "<joint>"`` (``to_point`` alike, on ``to_body``): the centre of that joint of
    the model, whose parent is the sensor's body, in the body's frame (a place each occupant has
    at its own spot: a T1 accelerometer at the lower neck joint of a dummy or of the parametric
    human)."""
    for key, body in (("point", kwargs.get("body")), ("to_point", kwargs.get("to_body"))):
        point = kwargs.get(key)
        if not isinstance(point, str) or point == "cg":
            continue
        joints = [j for j in model.source.joints.values() if j.parent == body]
        found = [j for j in joints if j.name == point]
        if not found:
            c.fail(f"{path}.{key}", f"{point!r} is not a joint of segment {body!r} in model "
                   f"'{model.name}'", '"cg", [x, y, z] m, or a joint whose parent is the body: '
                   + (", ".join(j.name for j in joints) or "none"))
        kwargs[key] = tuple(float(x) for x in found[0].placement.position)


def _check_names(kwargs, model, c, path):
    for key, kind in (("body", "body"), ("to_body", "body"), ("joint", "joint"),
                      ("marker", "marker"), ("to_marker", "marker")):
        if key in kwargs and kwargs[key] not in model.index[kind]:
            c.fail(f"{path}.{key}", f"unknown {kind} {kwargs[key]!r} in model '{model.name}'",
                   ", ".join(model.index[kind]) or "none")
