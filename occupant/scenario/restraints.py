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
         "vent_area": "nonneg", "inflator_mass": "positive", "position": "vector"},
        "an airbag"),
}


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
