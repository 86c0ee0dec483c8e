"""Reading and validating the TOML input files (design.md section 6, conventions rule 9): one
error class, one reader, one checker and one resolver of shipped names, shared by the dummy,
human, posture, sensor and scenario files.

Every error reads ``<file>: <key path>: <problem> (accepted: <what is accepted>)``, so that a
user sees which file, which key, what is wrong with its value and how to fix it::

    c = FileChecker(path)
    c.keys(table, ("mass", "com"), "segment[3]")
    mass = c.number(table, "mass", "segment[3]", positive=True, required=True)
"""
import math
import pathlib
import re
import tomllib

import numpy as np

from occupant.shipped import SHIPPED_FOLDERS, shipped_dir


class InputFileError(ValueError):
    """An input file (model, posture, sensor or scenario) that cannot be used.

    The message reads ``<file>: <key path>: <problem> (accepted: <what is accepted>)``; the key
    path is left out for problems of the whole file (missing, not TOML, unknown name)."""

    def __init__(self, file, path, problem, accepted=None):
        self.file, self.path, self.problem, self.accepted = str(file), path, problem, accepted
        msg = f"{self.file}: {path}: {problem}" if path else f"{self.file}: {problem}"
        if accepted:
            msg += f" (accepted: {accepted})"
        super().__init__(msg)


def read_toml(path, error=InputFileError):
    """The parsed table of a TOML file; a missing, unreadable or malformed file raises ``error``
    (InputFileError or a subclass) naming the file (and for a malformed one its line, and the
    key or table given twice). A UTF-8 byte order mark, which some Windows editors write, is
    skipped."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        raise error(path, "", "no such file", "an existing .toml file") from None
    except OSError as exc:
        raise error(path, "", f"cannot read: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:   # (a binary or UTF-16 file: the codec's words, no file named)
        raise error(path, "", f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})",
                    "a TOML 1.0 text file in UTF-8") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(path, *_toml_problem(str(exc), text.splitlines())) from None


_AT = re.compile(r"(.*) \(at line (\d+), column \d+\)$")
_HEADER = re.compile(r"\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_ASSIGN = re.compile(r"\s*([A-Za-z0-9_\-\.\"' ]+?)\s*=")


def _toml_problem(message, lines):
    """(key path, problem, accepted) of tomllib's ``message`` about a file of ``lines``. A key
    or a table given twice is named with both lines: tomllib says "Cannot overwrite a value (at
    line 18, column 13)" without the key (usercheck9)."""
    at = _AT.match(message)
    if at is None:
        return "", f"not valid TOML: {message}", "TOML 1.0"
    what, n = at[1], int(at[2])
    line = lines[n - 1] if 0 < n <= len(lines) else ""
    header = _HEADER.match(line)
    if what.startswith("Cannot declare") and header:
        name = header[1]
        first = [k + 1 for k in range(n - 1) if (h := _HEADER.match(lines[k])) and h[1] == name
                 and lines[k].lstrip().startswith("[[") == line.lstrip().startswith("[[")]
        where = f"at lines {first[0]} and {n}" if first else f"at line {n}"
        return "", f"not valid TOML: table [{name}] declared twice, {where}", \
            "each table once, all its keys under one header (TOML 1.0)"
    assign = _ASSIGN.match(line)
    if what == "Cannot overwrite a value" and assign:
        key = assign[1]
        table, first = "", None
        for k in range(n - 2, -1, -1):   # back to the table's header: the earlier line of that key
            if (h := _HEADER.match(lines[k])):
                table = h[1]
                break
            if (a := _ASSIGN.match(lines[k])) and a[1] == key and first is None:
                first = k + 1
        where = f"at lines {first} and {n}" if first else f"at line {n} (set before in this table)"
        return f"{table}.{key}" if table else key, f"given twice, {where}", "each key once in its table (TOML 1.0)"
    return "", f"not valid TOML: {message}", "TOML 1.0"


def _shipped_folder(folder):
    """``"dummies/postures"`` -> the shipped dummies folder / postures."""
    first, *rest = pathlib.PurePosixPath(folder).parts
    return shipped_dir(first).joinpath(*rest)


def _kind_of(path):
    try:
        return read_toml(path).get("kind")
    except InputFileError:
        return None


def shipped_names(folder, kind=None):
    """Sorted names (file stems) of the TOML files shipped in ``folder`` ("dummies",
    "dummies/postures", "scenarios/certification", ...); with ``kind`` only the files whose
    ``kind`` key has that value."""
    files = sorted(_shipped_folder(folder).glob("*.toml"))
    return [p.stem for p in files if kind is None or _kind_of(p) == kind]


def located(name_or_path, named_by=None):
    """Where the path ``name_or_path`` is read when the file ``named_by`` names it: a relative
    path from that file's folder (the one rule for every file a file names: a scenario's dummy,
    posture, interior, vehicle front and pulse, an interior's or a dummy variant's base, a
    vehicle model's subsystems; as include paths are read, so that a folder of files moves as
    one); an absolute path, or one given on the command line or in a call (``named_by`` None),
    as given."""
    p = pathlib.Path(name_or_path)
    return p if named_by is None or p.is_absolute() else pathlib.Path(named_by).parent / p


def missing_file(name_or_path, named_by=None):
    """The problem of a path that names no file: "no such file '<where it was looked for>'";
    a relative path that is not beside the file naming it but is in the working directory is
    refused too (no silent second rule), the message naming both places."""
    where = located(name_or_path, named_by)
    problem = f"no such file {str(where)!r}"
    p = pathlib.Path(name_or_path)
    if named_by is not None and not p.is_absolute() and p.exists():
        problem += (f" (a relative path is read from the folder of the file that names it, not "
                    f"from the working directory, which has {str(p.absolute())!r})")
    elif named_by is not None and not p.is_absolute():
        # a shipped file copied elsewhere to be edited (a scenario's pulse "data/....csv"): the
        # file it names stayed behind in the shipped folder, which is said, not read in silence
        shipped = _shipped_beside(p)
        if shipped is not None:
            problem += (f" (a shipped file of that path is {str(shipped)!r}: a copy of a shipped "
                        f"file reads its relative paths beside the copy, so copy that file to "
                        f"{str(where)!r} too, or name it by its full path)")
    return problem


def _shipped_beside(p):
    """The shipped file a relative path ``p`` names from a shipped folder (scenarios, vehicles,
    dummies, or one of their subfolders), or None."""
    for name in SHIPPED_FOLDERS:
        root = shipped_dir(name)
        for folder in (root, *sorted(d for d in root.glob("*") if d.is_dir())):
            if (folder / p).is_file():
                return (folder / p).resolve()
    return None


def refused_name(err, name_or_path, named_by=None):
    """What to say at the key that named ``name_or_path`` when ``resolve_shipped`` refused it
    (``err``): the path where it was looked for (``missing_file``), or the unknown name."""
    if given_as_path(name_or_path, named_by):
        return missing_file(name_or_path, named_by)
    return f"{err.problem} {name_or_path!r}"


def given_as_path(name_or_path, named_by=None):
    """True when ``name_or_path`` is a file's path, not a shipped name (``resolve_shipped``):
    it ends in .toml, names a folder or is an existing file (``located``)."""
    p = pathlib.Path(name_or_path)
    return p.suffix == ".toml" or len(p.parts) > 1 or located(p, named_by).is_file()


def resolve_shipped(name_or_path, folder, kind_label, *, kind=None, error=InputFileError, named_by=None):
    """Path of a shipped file given by name (``"hybrid3_50m"`` -> <shipped folder>/hybrid3_50m.toml)
    or of a file given by path, read from the folder of the file ``named_by`` that names it
    (``located``). It is a path when it ends in .toml, names a folder or is an existing file;
    otherwise a name of ``shipped_names(folder, kind)``. A missing file or an unknown name
    raises ``error`` listing what is available; ``kind_label`` ("dummy", "posture", ...) names
    what was looked for."""
    if given_as_path(name_or_path, named_by):
        p = located(name_or_path, named_by)
        if not p.is_file():
            raise error(p, "", "no such file" if named_by is None else missing_file(name_or_path, named_by),
                        f"an existing .toml file, or a shipped {kind_label}: "
                        + ", ".join(shipped_names(folder, kind)))
        return p
    names = shipped_names(folder, kind)
    if str(name_or_path) not in names:
        raise error(name_or_path, "", f"unknown {kind_label}",
                    ", ".join(names) + ", or a path to a .toml file")
    return _shipped_folder(folder) / f"{name_or_path}.toml"


def open_shipped(name_or_path, folder, kind, label, keys, error=InputFileError, named_by=None):
    """(path, table, FileChecker) of a file of ``kind`` (a shipped name in ``folder`` or a path,
    as ``resolve_shipped``, ``named_by`` the file naming it), its top-level keys checked against
    ``keys`` and its ``kind`` key against ``kind``: the common opening of the loaders of one
    kind of file."""
    path = resolve_shipped(name_or_path, folder, label, kind=kind, error=error, named_by=named_by)
    data = read_toml(path, error)
    c = FileChecker(path, error)
    c.kind(data, (kind,))
    c.keys(data, keys, "")
    return path, data, c


def value_kind(value):
    """What a TOML ``value`` is, as a message says it ("a number", "a table", ...)."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


class FileChecker:
    """Reads values from a parsed TOML table of ``file``, raising ``error`` (InputFileError or a
    subclass) with the key path. ``path`` arguments are the dotted path of the table holding
    ``key`` ("" at the top level)."""

    def __init__(self, file, error=InputFileError):
        self.file = file
        self.error = error

    @staticmethod
    def where(path, key):
        return f"{path}.{key}" if path else key

    def kind(self, data, kinds):
        """The file's ``kind`` key checked against ``kinds``, before its other keys are: a file
        of another kind (a posture given as a dummy) is said to be one, not a list of the keys
        this kind has not."""
        return self.string(data, "kind", "", required=True, choices=tuple(kinds), what="kind")

    def fail(self, path, problem, accepted=None):
        raise self.error(self.file, path, problem, accepted)

    def keys(self, table, allowed, path):
        """Every key of ``table`` is one of ``allowed`` (listed in the order given); an angle key
        written without its ``_deg`` suffix gets a pointed message."""
        for key in table:
            if key in allowed:
                continue
            if f"{key}_deg" in allowed:
                self.fail(self.where(path, key), "angles are given in degrees with the _deg suffix",
                          f"{key}_deg")
            self.fail(self.where(path, key), "unknown key", ", ".join(allowed))

    def number(self, table, key, path, *, default=None, positive=False, nonneg=False, required=False):
        where = self.where(path, key)
        if key not in table:
            if required:
                self.fail(where, "missing", "a number")
            return default
        v = table[key]
        if not _is_number(v):
            self.fail(where, f"expected a finite number, got {v!r}", "a number")
        if positive and v <= 0:
            self.fail(where, f"must be > 0, got {v!r}", "a positive number")
        if nonneg and v < 0:
            self.fail(where, f"must be >= 0, got {v!r}", "a number >= 0")
        return float(v)

    def vector(self, table, key, path, *, n=3, default=None, required=False, positive=False):
        where = self.where(path, key)
        if key not in table:
            if required:
                self.fail(where, "missing", f"a list of {n} numbers")
            return None if default is None else np.array(default, float)
        v = table[key]
        if not isinstance(v, list) or len(v) != n or not all(_is_number(x) for x in v):
            self.fail(where, f"expected a list of {n} finite numbers, got {v!r}", f"a list of {n} numbers")
        a = np.array(v, float)
        if positive and np.any(a <= 0):
            self.fail(where, f"every value must be > 0, got {v!r}", f"{n} positive lengths in m")
        return a

    def string(self, table, key, path, *, required=False, choices=None, what="value"):
        """A string that is not blank; with ``choices`` one of them (else "unknown <what> ...")."""
        where = self.where(path, key)
        if key not in table:
            if required:
                self.fail(where, "missing", ", ".join(choices) if choices else "a string")
            return None
        v = table[key]
        if not isinstance(v, str) or not v.strip():
            self.fail(where, f"expected a non-empty string, got {v!r}", "a string")
        if choices and v not in choices:
            self.fail(where, f"unknown {what} {v!r}", ", ".join(choices))
        return v

    def strings(self, table, key, path, *, required=False, choices=None, what="name"):
        """A non-empty list of non-blank strings; with ``choices`` each one of them."""
        where = self.where(path, key)
        if key not in table:
            if required:
                self.fail(where, "missing", f"a list of {what}s")
            return None
        v = table[key]
        if (not isinstance(v, list) or not v
                or not all(isinstance(x, str) and x.strip() for x in v)):
            self.fail(where, f"expected a non-empty list of strings, got {v!r}", f"a list of {what}s")
        for x in v:
            if choices is not None and x not in choices:
                self.fail(where, f"unknown {what} {x!r}", ", ".join(choices))
        return v

    def boolean(self, table, key, path, *, default=None):
        where = self.where(path, key)
        if key not in table:
            return default
        v = table[key]
        if not isinstance(v, bool):
            self.fail(where, f"expected true or false, got {v!r}", "true, false")
        return v

    def table(self, table, key, path, *, required=False, accepted=None):
        """The sub-table ``key`` (a dict; {} when absent and not required)."""
        where = self.where(path, key)
        if key not in table:
            if required:
                self.fail(where, "missing", accepted or f"a [{where}] table")
            return {}
        v = table[key]
        if not isinstance(v, dict):
            self.fail(where, f"expected a table, got {v!r}", accepted or f"a [{where}] table")
        return v

    def tables(self, table, key, path, *, required=False):
        """The array of tables ``key`` (a list of dicts; [] when absent and not required)."""
        where = self.where(path, key)
        if key not in table:
            if required:
                self.fail(where, "missing", f"[[{where}]] tables")
            return []
        v = table[key]
        if not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
            self.fail(where, "expected an array of tables", f"[[{where}]] tables")
        return v
