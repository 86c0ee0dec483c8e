"""Vehicle and subsystem files (TOML, vehicles/): reading with checked values and key paths,
and writing back.

A subsystem file::

    kind = "subsystem"
    template = "double_wishbone"          # occupant.vehicle.templates.TEMPLATES
    [parameters]                          # the template's parameter dataclass, SI units
    uca_front = [0.12, 0.45, 0.55]

Any file may declare the units its numbers are in (default SI); they are converted to SI on
load, each parameter by its quantity (``templates.parameter_quantity``), positions as lengths::

    [units]
    length = "mm"                         # occupant.modeling.Units: length, mass, time, angle, force

A vehicle file (``kind = "vehicle"``; any file may nest subsystems the same way)::

    [[subsystem]]
    name = "front_suspension"
    file = "sedan_front_suspension.toml"  # relative to this file
    position = [0.0, 0.0, 0.0]            # base frame in the parent (view transform), m
    rotation_deg = [0.0, 0.0, 0.0]        # its roll, pitch, yaw (x, y, z fixed axes), deg
    bind = { chassis = "chassis.chassis", steering_rack = "steering.rack" }

Every interface of a nested subsystem must be bound, to a part of the parent's namespace
("sub.part") or to "ground".
"""
import pathlib
from dataclasses import asdict, fields

import numpy as np

from occupant.io.toml_files import FileChecker, InputFileError, read_toml
from occupant.modeling import ModelingError, Units
from occupant.scenario.toml_write import dumps
from occupant.spatial.transforms import homogeneous
from occupant.vehicle.subsystem import Subsystem, Vehicle
from occupant.vehicle.templates import MF, TEMPLATES, V3, parameter_quantity


class VehicleFileError(InputFileError):
    """A vehicle or subsystem file that cannot be used."""


_TOP_KEYS = ("kind", "name", "description", "template", "parameters", "subsystem", "dof", "units")
_SUB_KEYS = ("name", "file", "position", "rotation_deg", "bind")


def _rotation_xyz(angles):
    """R = Rz(yaw) Ry(pitch) Rx(roll) of (roll, pitch, yaw) in rad."""
    r, p, y = angles
    cr, sr, cp, sp, cy, sy = np.cos(r), np.sin(r), np.cos(p), np.sin(p), np.cos(y), np.sin(y)
    Rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    Ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    Rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    return Rz @ Ry @ Rx


def load_vehicle(path, locate=None):
    """The editable Subsystem tree of a vehicle (or subsystem) file; compiled once to check it
    (mobility, references), so a bad file fails here with its file and key. ``locate``: as
    vehicle_files."""
    from occupant.vehicle.compile import VehicleError, compile_vehicle
    vehicle = Vehicle(load_subsystem(path, locate=locate))
    try:
        compile_vehicle(vehicle)
    except VehicleError:
        raise   # its message names the subsystem's file, key and elements
    except ValueError as exc:   # ModelingError, ModelError, TopologyError
        raise VehicleFileError(path, "", str(exc)) from None
    return vehicle


def _beside(parent, file):
    """The file a subsystem entry of ``parent`` names: ``file`` relative to ``parent``'s folder."""
    return parent.parent / file


def vehicle_files(path, locate=None):
    """[Path] of the vehicle (or subsystem) file ``path`` and of every subsystem file it names,
    in turn, depth first, each once: the files load_vehicle reads (a run folder copies them).
    ``locate(parent, file)``: the path of the file a subsystem entry of ``parent`` names
    (default: relative to ``parent``; copies_locator: among a run folder's copies)."""
    locate = locate or _beside
    path = pathlib.Path(path)
    out = [path]
    for entry in read_toml(path, VehicleFileError).get("subsystem", []):
        file = entry.get("file") if isinstance(entry, dict) else None
        child = locate(path, file) if isinstance(file, str) else None
        if child is not None and child.is_file():
            out += [f for f in vehicle_files(child, locate) if f not in out]
    return out


def copies_locator(copies):
    """``locate`` (vehicle_files, load_vehicle) for copies of a vehicle model's files stored
    under names of their own, in vehicle_files' order (the model file first): an entry's file
    is the copy of the file it named beside its parent's original, the copies given out in the
    order vehicle_files first meets the files (its first walk, made here, fixes them)."""
    copies = [pathlib.Path(c) for c in copies]
    spare = iter(copies[1:])
    original = {copies[0]: pathlib.PurePosixPath(copies[0].name)}   # copy -> a stand-in path
    copy_of = {original[copies[0]]: copies[0]}

    def locate(parent, file):
        named = original[parent].parent / file   # as _beside makes it from the original
        if named not in copy_of:
            copy = next(spare, None)
            if copy is None:
                return None
            copy_of[named], original[copy] = copy, named
        return copy_of[named]
    vehicle_files(copies[0], locate)
    return locate


def load_subsystem(path, name=None, _stack=(), locate=None):
    """The Subsystem of a vehicle or subsystem file, its nested subsystems' files found by
    ``locate`` (as vehicle_files)."""
    locate = locate or _beside
    path = pathlib.Path(path)
    if path.resolve() in _stack:
        raise VehicleFileError(path, "subsystem", "the file includes itself",
                               "a tree of subsystem files")
    data = read_toml(path, VehicleFileError)
    c = FileChecker(path, VehicleFileError)
    kind = c.kind(data, ("subsystem", "vehicle"))
    c.keys(data, _TOP_KEYS, "")
    name = name or c.string(data, "name", "") or path.stem
    template = c.string(data, "template", "", choices=tuple(TEMPLATES), what="template")
    units = _units(c, c.table(data, "units", ""))
    if template is not None:
        params = _parameters(c, template, c.table(data, "parameters", "", required=True), units)
        try:
            sub = TEMPLATES[template][1](params)
        except ModelingError as exc:
            c.fail("parameters", str(exc))
        sub.parameters = params
    else:
        if "parameters" in data:
            c.fail("parameters", "parameters need a template", ", ".join(TEMPLATES))
        sub = Subsystem(name)
        sub.parameters = None
    sub.name = name
    sub.source = str(path)
    sub.kind = kind
    dof = c.number(data, "dof", "")
    if dof is not None:
        sub.expected_dof = int(dof)
    for k, entry in enumerate(c.tables(data, "subsystem", "")):
        where = f"subsystem[{k}]"
        c.keys(entry, _SUB_KEYS, where)
        child_name = c.string(entry, "name", where, required=True)
        file = c.string(entry, "file", where, required=True)
        located = locate(path, file)
        if located is None or not located.is_file():   # (read "sedan_chassis.toml: no such file", whose file?)
            c.fail(f"{where}.file", f"no such file {str(located or path.parent / file)!r}",
                   "a subsystem file, its path relative to this file")
        child = load_subsystem(located, child_name, _stack + (path.resolve(),), locate)
        pos = units.si(c.vector(entry, "position", where, default=(0.0, 0.0, 0.0)), "length")
        rot = c.vector(entry, "rotation_deg", where, default=(0.0, 0.0, 0.0))
        child.base = homogeneous(_rotation_xyz(np.radians(rot)), pos)
        child.file_entry = {"file": file, "position": pos, "rotation_deg": rot}
        bind = c.table(entry, "bind", where)
        missing = [i for i in child.interfaces if i not in bind]
        if missing:
            c.fail(f"{where}.bind", f"interface(s) {', '.join(missing)} of subsystem "
                   f"'{child_name}' ({file}) not bound", "a part 'subsystem.part' or 'ground' "
                   "for every interface: " + ", ".join(child.interfaces))
        resolved = {}
        for itf, target in bind.items():
            if itf not in child.interfaces:
                c.fail(f"{where}.bind.{itf}", f"subsystem '{child_name}' has no interface '{itf}'",
                       ", ".join(child.interfaces) or "none")
            if not isinstance(target, str):
                c.fail(f"{where}.bind.{itf}", f"expected a part name, got {target!r}",
                       "'subsystem.part' or 'ground'")
            if target != "ground":
                if not sub.resolve_part(target):
                    c.fail(f"{where}.bind.{itf}", f"dangling reference: no part '{target}'",
                           ", ".join(sub.all_part_names()) or "none (bind to subsystems listed earlier)")
                resolved[itf] = target
        try:
            sub.add_subsystem(child, resolved)
        except ModelingError as exc:
            c.fail(where, str(exc))
    return sub


def _units(c, table):
    """The file's Units from its [units] table (SI when absent)."""
    c.keys(table, ("length", "mass", "time", "angle", "force"), "units")
    try:
        return Units(**table)
    except ModelingError as exc:
        c.fail(str(exc).split(":")[0], str(exc).split(": ", 1)[1])


def _parameters(c, template, table, units):
    """The template's parameter dataclass from the [parameters] table, every key checked, in SI
    (converted from the file's ``units``)."""
    params_type = TEMPLATES[template][0]
    names = [f.name for f in fields(params_type)]
    c.keys(table, names, "parameters")
    values = {}
    for f in fields(params_type):
        where = f"parameters"
        if f.name not in table and f.name != "interfaces":
            c.fail(f"parameters.{f.name}", "missing", _accepted(f.type))
        if f.type is float:
            value = c.number(table, f.name, where, required=True)
            if f.name.endswith("mass") and value <= 0:
                c.fail(f"parameters.{f.name}", f"a part with no mass ({value!r} kg): every part "
                       f"needs a mass, or the mass matrix is singular", "a mass > 0 kg")
            positive = f.name.endswith("inertia") or f.name in (
                "radius", "vertical_stiffness", "wheel_rate", "slip_speed", "brake_speed")
            values[f.name] = c.number(table, f.name, where, required=True, positive=positive,
                                      nonneg=not positive)
        elif f.type is V3:
            values[f.name] = tuple(c.vector(table, f.name, where, required=True,
                                            positive=f.name.endswith("inertia")))
        elif f.type is MF:
            values[f.name] = tuple(c.vector(table, f.name, where, n=4, required=True))
        elif f.type is tuple:   # the custom template's element lists
            values[f.name] = _element_list(c, table, f.name)
        elif f.type is dict:
            sub = c.table(table, f.name, where, required=True)
            out = {}
            for k, v in sub.items():
                if isinstance(v, list):
                    out[k] = tuple(c.vector(sub, k, f"parameters.{f.name}", required=True))
                else:
                    out[k] = c.number(sub, k, f"parameters.{f.name}", required=True)
                    if out[k] <= 0:
                        c.fail(f"parameters.{f.name}.{k}", f"a part with no mass ({out[k]!r} kg)",
                               "a mass > 0 kg")
            values[f.name] = out
        values[f.name] = _to_si(units, f.name, f.type, values[f.name])
    return params_type(**values)


def _to_si(units, name, annotation, value):
    """A parameter's value in SI: numbers and points scaled by the unit of their quantity, dict
    entries each as their parameter, the custom template's parts (mass, com, inertia) and
    joints (position)."""
    if isinstance(value, dict):
        q = parameter_quantity(name, annotation)
        return {k: (tuple(units.si(v, q)) if isinstance(v, tuple) else float(units.si(v, q)))
                for k, v in value.items()}
    if annotation is tuple:
        if name == "parts":
            return tuple((n, float(units.si(m, "mass")), tuple(units.si(com, "length")),
                          tuple(units.si(inertia, "inertia"))) for n, m, com, inertia in value)
        if name == "joints":
            return tuple((*j[:4], tuple(units.si(j[4], "length")), j[5]) for j in value)
        return value
    scaled = units.si(value, parameter_quantity(name, annotation))
    return tuple(float(x) for x in scaled) if annotation in (V3, MF) else float(scaled)


_JOINT_KINDS = ("revolute", "prismatic", "universal", "spherical", "euler", "fixed")


def _element_list(c, table, key):
    """The custom template's parts, joints (as [[parameters.part]] / [[parameters.joint]] tables)
    or interfaces, with every reference checked (a dangling one names its key)."""
    where = f"parameters.{key}"
    if key == "interfaces":
        return tuple(c.strings(table, key, "parameters") or ())
    out = []
    if key == "parts":
        for k, e in enumerate(c.tables(table, key, "parameters", required=True)):
            w = f"{where}[{k}]"
            c.keys(e, ("name", "mass", "com", "inertia"), w)
            mass = c.number(e, "mass", w, required=True)
            if mass <= 0:
                c.fail(f"{w}.mass", f"a part with no mass ({mass!r} kg)", "a mass > 0 kg")
            out.append((c.string(e, "name", w, required=True), mass,
                        tuple(c.vector(e, "com", w, required=True)),
                        tuple(c.vector(e, "inertia", w, required=True, positive=True))))
        return tuple(out)
    parts = {e.get("name") for e in table.get("parts", [])} | set(table.get("interfaces", []))
    for k, e in enumerate(c.tables(table, key, "parameters", required=True)):
        w = f"{where}[{k}]"
        c.keys(e, ("name", "kind", "parent", "child", "position", "axis"), w)
        ends = []
        for end in ("parent", "child"):
            ref = c.string(e, end, w, required=True)
            if ref not in parts and not (end == "parent" and ref == "ground"):
                c.fail(f"{w}.{end}", f"dangling reference: no part '{ref}'",
                       ", ".join(sorted(parts)) + (", ground" if end == "parent" else ""))
            ends.append(None if ref == "ground" else ref)
        out.append((c.string(e, "name", w, required=True),
                    c.string(e, "kind", w, required=True, choices=_JOINT_KINDS, what="joint kind"),
                    *ends, tuple(c.vector(e, "position", w, required=True)),
                    tuple(c.vector(e, "axis", w, default=(0.0, 0.0, 1.0)))))
    return tuple(out)


def _accepted(t):
    return {float: "a number", V3: "a list of 3 numbers", MF: "a list of 4 numbers (B, C, mu, E)",
            dict: "a table"}.get(t, "a value")


def save_subsystem(sub, path):
    """Write ``sub`` to ``path`` (TOML): its template and parameters, and each nested subsystem
    to its own file next to it (named after its file entry, or ``<name>.toml``)."""
    path = pathlib.Path(path)
    sub = getattr(sub, "root", sub)
    data = {"kind": getattr(sub, "kind", "subsystem"), "name": sub.name}
    if sub.template is not None and getattr(sub, "parameters", None) is not None:
        data["template"] = sub.template
        data["parameters"] = {k: _plain(v) for k, v in asdict(sub.parameters).items()}
    entries = []
    for child in sub.subsystems.values():
        entry = getattr(child, "file_entry", None) or {}
        file = entry.get("file", f"{child.name}.toml")
        pos, R = child.base[:3, 3], child.base[:3, :3]
        rot = np.degrees([np.arctan2(R[2, 1], R[2, 2]), np.arcsin(-R[2, 0]), np.arctan2(R[1, 0], R[0, 0])])
        bind = {n: (i.bound_to or "ground") for n, i in child.interfaces.items()}
        entries.append({"name": child.name, "file": file, "position": _plain(pos),
                        "rotation_deg": _plain(rot), "bind": bind})
        save_subsystem(child, path.parent / file)
    if entries:
        data["subsystem"] = entries
    path.write_text(dumps(data))
    return path


def _plain(v):
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (tuple, list, np.ndarray)):
        return [float(x) for x in v]
    return float(v)
