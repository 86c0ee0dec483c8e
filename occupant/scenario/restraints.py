"""The ``[restraints]`` section of a scenario: which restraint kinds exist, which keys they take,
and whether this version models them.

A restraint kind that is declared (and enabled) but not modelled yet is never ignored silently:
loading says so in ``notes`` and marks the run as not judged, so that no pass/fail verdict comes
out of a run that lacks a restraint its test has. When the belt and airbag models land, their
entry here gets ``available = True`` and a ``build(assembly, table, checker, path)`` that adds
their elements to the occupant's assembly before it is compiled.
"""
from dataclasses import dataclass


@dataclass
class RestraintKind:
    keys: dict                  # key -> check: "bool", "positive", "nonneg", "number", "string"
    what: str                   # human name for messages
    available: bool = False
    build: object = None        # callable(assembly, table, checker, path) once available


RESTRAINTS = {
    "belt": RestraintKind(
        {"enabled": "bool", "kind": "string", "load_limit": "positive", "pretensioner": "bool",
         "pretensioner_time": "nonneg", "pretensioner_pull": "nonneg", "retractor_lock_time": "nonneg",
         "friction": "nonneg"},
        "a three-point belt with retractor, pretensioner and load limiter"),
    "airbag": RestraintKind(
        {"enabled": "bool", "kind": "string", "fire_time": "nonneg", "volume": "positive",
         "vent_area": "nonneg", "inflator_mass": "positive", "position": "vector",
         "direction": "vector", "contact": "names"},
        "an airbag"),
}
AIRBAG_KINDS = ("driver", "passenger")


def build_airbag(asm, table, c, path):
    """``[restraints.airbag]``: a uniform-pressure bag of ``kind`` (driver or passenger:
    ``occupant.modeling.driver_airbag`` / ``passenger_airbag``, their cited presets) mounted at
    ``position`` (m, vehicle frame B0) unfolding along ``direction`` (B0; its frame's z is kept
    as close to B0's z as the direction allows), fired at ``fire_time`` (s), in contact with the
    occupant ellipsoids listed in ``contact``. ``volume`` (m^3) scales the preset's shape,
    ``inflator_mass`` (kg) its inflator's mass flow, ``vent_area`` (m^2) replaces its vents."""
    import numpy as np
    from occupant.modeling import (AirbagContact, ModelingError, driver_airbag,
                                   passenger_airbag)
    from occupant.modeling.airbags import DRIVER_BAG, PASSENGER_BAG
    kind = c.string(table, "kind", path, required=True, choices=AIRBAG_KINDS, what="airbag kind")
    preset, make = {"driver": (DRIVER_BAG, driver_airbag),
                    "passenger": (PASSENGER_BAG, passenger_airbag)}[kind]
    position = np.array(c.vector(table, "position", path, required=True), float)
    x = np.array(c.vector(table, "direction", path, required=True), float)
    if not np.linalg.norm(x) > 0:
        c.fail(c.where(path, "direction"), "must not be zero", "a vector in the vehicle frame")
    x /= np.linalg.norm(x)
    up = np.array([0.0, 0.0, 1.0]) if abs(x[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
    y = np.cross(up, x)
    y /= np.linalg.norm(y)
    rotation = np.column_stack([x, y, np.cross(x, y)])
    contacts = c.strings(table, "contact", path, required=True, choices=list(asm.geometries),
                         what="occupant geometry")
    options = dict(position=position, rotation=rotation,
                   firing_time=c.number(table, "fire_time", path, required=True, nonneg=True))
    semi_axes = np.array(preset["semi_axes"], float)
    volume = c.number(table, "volume", path, positive=True)
    if volume is not None:
        options["semi_axes"] = semi_axes * (volume / (4 / 3 * np.pi * semi_axes.prod())) ** (1 / 3)
    mass = c.number(table, "inflator_mass", path, positive=True)
    if mass is not None:
        flow = np.array(preset["mass_flow"], float)
        delivered = np.trapezoid(flow[:, 1], flow[:, 0])
        options["mass_flow"] = np.column_stack([flow[:, 0], flow[:, 1] * mass / delivered])
    vent = c.number(table, "vent_area", path, nonneg=True)
    if vent is not None:
        options["vent_area"] = vent
    name = f"{kind}_airbag"
    try:
        asm.add(make(name, None, **options))
        for g in contacts:
            asm.add(AirbagContact(f"{name}_{g}", name, g))
    except ModelingError as err:
        c.fail(path, str(err))


RESTRAINTS["airbag"].available = True
RESTRAINTS["airbag"].build = build_airbag


def read_restraints(c, data, test_title):
    """(enabled {kind: table}, notes [str], judged bool) from the scenario's ``[restraints]``."""
    section = c.table(data, "restraints", "")
    c.keys(section, tuple(RESTRAINTS), "restraints")
    enabled, notes, judged = {}, [], True
    for kind, table in section.items():
        path = f"restraints.{kind}"
        spec = RESTRAINTS[kind]
        table = c.table(section, kind, "restraints")
        c.keys(table, tuple(spec.keys), path)
        for key, check in spec.keys.items():
            if check == "bool":
                c.boolean(table, key, path)
            elif check == "string":
                c.string(table, key, path)
            elif check == "vector":
                c.vector(table, key, path)
            elif check == "names":
                c.strings(table, key, path)
            else:
                c.number(table, key, path, positive=check == "positive", nonneg=check == "nonneg")
        if not c.boolean(table, "enabled", path, default=True):
            notes.append(f"{path} is disabled: this run has no {spec.what.split(' ', 1)[1]}")
            continue
        if not spec.available:
            judged = False
            notes.append(f"{path}: {spec.what} is declared, but this version does not model "
                         f"{kind}s yet; the run has none, so it does not represent the "
                         f"{test_title} and its criteria are values of an occupant without it, "
                         f"not judged")
            continue
        enabled[kind] = table
    return enabled, notes, judged
