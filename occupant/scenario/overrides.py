"""Command-line overrides of scenario values: ``--set KEY=VALUE`` with a dotted key path
(``solver.t_end=0.05``, ``restraints.belt.load_limit=4000``, ``occupant.dummy="hybrid3_05f"``).

The value is read as a TOML value (``0.05``, ``true``, ``[0.0, 0.1, 0.0]``, ``"text"``); a bare
word that is no TOML value is taken as a string (``occupant.dummy=hybrid3_05f``). Where the
scenario already has the key, the new value must have the same type (a whole number may replace
a float and the other way round), the message saying what the key accepts
(``occupant.scenario.keys``). ``check`` holds every key and value against the key registry
before the scenario loads (a sweep's every varied value before any run); the scenario's
validation then checks them as it checks the file.

``occupant.dummy`` and ``occupant.human`` are alternatives (ALTERNATIVES): a --set of one, or of
a key inside one (``occupant.human.sex=female``), replaces the other where the file gives it,
and ``replaced`` says so for the run's notes.
"""
import copy
import tomllib

from occupant.io.toml_files import InputFileError, value_kind
from occupant.scenario.keys import KINDS, entry, value_problem


#: keys of which a scenario gives exactly one: a --set of one takes the file's other away
ALTERNATIVES = {"occupant.dummy": "occupant.human", "occupant.human": "occupant.dummy"}


class OverrideError(InputFileError):
    """A ``--set`` that cannot apply: names the override, the key path and what is accepted."""


def parse_override(text, option="--set", accepted="solver.t_end=0.05, restraints.belt.load_limit=4000"):
    """``"a.b=1"`` -> ("a.b", 1); ``option`` (--set, --vary) and ``accepted`` (its forms) go
    into the message of a text that is not KEY=VALUE."""
    key, sep, raw = str(text).partition("=")
    key = key.strip()
    if not sep or not key or any(not part.strip() for part in key.split(".")):
        raise OverrideError(f"{option} {text}", "", "expected KEY=VALUE with a dotted key path", accepted)
    raw = raw.strip()
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return key, value


def parse_overrides(texts, option="--set"):
    """``["KEY=VALUE", ...]`` -> {dotted key: value}. A key given twice is refused: the last
    value was kept, unsaid (``--set load_limit=3000 --set load_limit=4000`` ran 4000)."""
    out = {}
    for text in texts or ():
        key, value = parse_override(text, option)
        if key in out:
            raise OverrideError(option, key, f"given twice ({out[key]!r}, then {value!r})", "each key once")
        out[key] = value
    return out


def apply_overrides(data, overrides):
    """A deep copy of the parsed scenario ``data`` with ``overrides`` applied: a dict
    {dotted key: value} (values already typed) or a list of "KEY=VALUE" strings."""
    if isinstance(overrides, dict):
        items = list(overrides.items())
    else:
        items = list(parse_overrides(overrides).items())
    out = copy.deepcopy(data)
    for gone in replaced(data, dict(items)):
        *path, last = gone.split(".")
        table = out
        for part in path:
            table = table[part]
        del table[last]
    for key, value in items:
        where = f"--set {key}={value!r}"
        parts = key.split(".")
        table = out
        for i, part in enumerate(parts[:-1]):
            nxt = table.setdefault(part, {})
            if not isinstance(nxt, dict):
                raise OverrideError(where, ".".join(parts[:i + 1]),
                                    f"is {value_kind(nxt)} in the scenario, not a table of keys",
                                    "a key path through tables")
            table = nxt
        last = parts[-1]
        known = entry(key)
        # a value the key registry accepts replaces the file's whatever its type: the file's is
        # then the one in the wrong (t_end = "0.15" with --set solver.t_end=0.002 blamed the --set)
        if last in table and value_kind(table[last]) != value_kind(value) and (
                known is None or value_problem(key, value) is not None):
            raise OverrideError(where, key, f"the scenario has {value_kind(table[last])} here "
                                f"({table[last]!r}), got {value!r}",
                                known.accepted() if known else value_kind(table[last]))
        table[last] = value
    return out


def replaced(data, keys):
    """{dotted key: the file's value} of what the overrides ``keys`` take out of the scenario
    ``data``: the file's alternative (ALTERNATIVES) of a key they set, where it gives one."""
    out = {}
    for key in keys:
        for given, other in ALTERNATIVES.items():
            if key == given or key.startswith(given + "."):
                table = data
                for part in other.split("."):
                    table = table.get(part) if isinstance(table, dict) else None
                if table is not None:
                    out[other] = table
    return out


def replaced_notes(data, keys):
    """The run's notes of ``replaced``: one line per key taken out."""
    return [f"--set {', '.join(k for k in keys if k.startswith(ALTERNATIVES[gone]))} replaces the "
            f"file's {gone} = {value!r}" for gone, value in replaced(data, keys).items()]


def check(file, items, option="--set", error=OverrideError):
    """Every (dotted key, value) of ``items`` checked against the key registry
    (``keys.value_problem``); the first bad one raises ``error`` as ``<file> (<option> <key>):
    <key path>: <problem> (accepted: ...)``."""
    for key, value in items:
        found = value_problem(key, value)
        if found:
            raise error(f"{file} ({option} {key})", *found[:2], found[2] + _list_hint(key, value, option))


def _list_hint(key, value, option):
    """How to give a list of names on the command line, for a bare word where one is wanted:
    the shell takes the quotes of ``criteria.show=["HIC15"]`` unless the whole is quoted, and
    ``[HIC15]`` is no TOML value, so it came as the string '[HIC15]'."""
    known = entry(key)
    if known is not None and option == "--vary" and known.kind in ("rows", "vector", "vector4", "point"):
        # (usercheck8) --vary 'table=[[0, 0], [0.01, 2500]]' took the rows for two variants
        # and said "expected >= 2 rows [x, y], got [0, 0]": the list form is the variants'
        return (f"; a --vary list gives one variant per item, so each item is {KINDS[known.kind]}: "
                f"{option} '{key}=[A, B]', A and B each {KINDS[known.kind]}")
    if known is None or known.kind != "strings" or not isinstance(value, str):
        return ""
    items = ", ".join(f'"{x.strip()}"' for x in value.strip().strip("[]").split(",") if x.strip()) or '"..."'
    if option == "--set":
        return f"; on the command line a TOML list, quoted for the shell: --set '{key}=[{items}]'"
    return (f"; on the command line each value a TOML list, in a list quoted for the shell: "
            f"{option} '{key}=[[{items}]]'")
