"""Where a parametric human's tables are read from: the installed ``data/`` folder, or a run
folder's copy of it while a scenario is loaded from that folder (``reading_from``;
occupant.scenario.load), so that a run read again builds the human the run was built from and an
edit to the copy changes it. Every reader of the tables (builder, passive_joints, neck_muscles,
seated_posture) takes its path from ``data_path`` (``read_data``), and the builder takes the dummy
its joint stops are scaled from (``stops_dummy``).

A copy's file is checked against the installed file's layout (``check_layout``): the same keys,
each value of the same kind (number, string, table; a list of numbers of the same length; a
table of rows, any number of rows of the same length), so that an edit that cannot be read
is one InputFileError naming the copy, the key and what is accepted, not an error deep in a
reader."""
import contextlib
import contextvars
import pathlib

from occupant.io.toml_files import InputFileError, read_toml, value_kind

SHIPPED = pathlib.Path(__file__).resolve().parent / "data"
STOPS_DUMMY = "hybrid3_50m"   # the dummy whose numerical joint stops the human's are scaled from

# (data folder, stops dummy file) read instead of the installed ones; None: the installed
_READ_FROM = contextvars.ContextVar("human_data_read_from", default=(None, None))


class HumanDataError(InputFileError):
    """A copied human data file that this version cannot read."""


@contextlib.contextmanager
def reading_from(folder=None, stops=None):
    """Within the block, the tables are read from ``folder`` and the joint stops from the dummy
    file ``stops`` (each None: the installed one)."""
    token = _READ_FROM.set((None if folder is None else pathlib.Path(folder),
                            None if stops is None else pathlib.Path(stops)))
    try:
        yield
    finally:
        _READ_FROM.reset(token)


def data_folder():
    """The folder the tables are read from now (SHIPPED unless ``reading_from`` says another)."""
    return _READ_FROM.get()[0] or SHIPPED


def data_path(name):
    """The path of the table ``name`` ("joint_passive.toml", ...) as read now."""
    return data_folder() / name


def stops_dummy():
    """The dummy (a name or a file) whose joint stops the human's are scaled from, as read now."""
    return _READ_FROM.get()[1] or STOPS_DUMMY


def read_data(name):
    """The table ``name`` as read now: a copy (not the installed folder) checked against the
    installed file's layout."""
    path = data_path(name)
    data = read_toml(path, HumanDataError)
    if path.parent.resolve() != SHIPPED:
        check_copy(data, path, name)
    return data


def check_copy(data, path, name):
    """``data``, read from the copy ``path`` of the table ``name``, checked against the
    installed file's layout (check_layout)."""
    check_layout(data, read_toml(SHIPPED / name), path, SHIPPED / name)


def stamp(name):
    """(path, modification time) of the table ``name`` as read now: a cache key that changes
    with the folder read and with an edit of the file."""
    path = data_path(name)
    try:
        return str(path), path.stat().st_mtime_ns
    except OSError:
        return str(path), None


_PLURAL = {"a number": "numbers", "a string": "strings", "true or false": "true or false values"}


def _kind(value):
    """What ``value`` is, as the message says it (a list by what it holds)."""
    if not isinstance(value, list):
        return value_kind(value)
    if not value:
        return "an empty list"
    if any(isinstance(v, (list, dict)) for v in value):
        return "a list of rows"
    kinds = [_kind(v) for v in value]
    if len(set(kinds)) == 1:
        return f"a list of {len(kinds)} {_PLURAL[kinds[0]]}"
    return f"a list of {', '.join(kinds)}"


def check_layout(data, installed, path, shipped, where=""):
    """Raise HumanDataError (file ``path``, the key) where ``data`` leaves the layout of the
    installed file's ``installed``: a key missing or unknown, a value of another kind."""
    def fail(key, problem, accepted):
        raise HumanDataError(path, key, problem, f"{accepted}, as in this version's {shipped.name}")
    for key in installed:
        if key not in data:
            fail(f"{where}{key}", "missing", _kind(installed[key]))
    for key, value in data.items():
        at = f"{where}{key}"
        if key not in installed:
            fail(at, "unknown key", "the keys of " + (f"[{where[:-1]}]" if where else "the file"))
        _check_value(value, installed[key], path, shipped, at, fail)


def _check_value(value, model, path, shipped, at, fail):
    want = _kind(model)
    if isinstance(model, dict):
        if not isinstance(value, dict):
            fail(at, f"expected a table, got {value!r}", want)
        check_layout(value, model, path, shipped, f"{at}.")
    elif isinstance(model, list):
        if not isinstance(value, list):
            fail(at, f"expected a list, got {value!r}", want)
        if want == "a list of rows":   # rows: any number, each as the installed rows
            if not value:
                fail(at, "empty", "at least one row")
            for i, row in enumerate(value):
                _check_value(row, model[min(i, len(model) - 1)] if all(isinstance(m, dict) for m in model)
                             else model[0], path, shipped, f"{at}[{i}]", fail)
        else:
            if len(value) != len(model) or _kind(value) != want:
                fail(at, f"expected {want}, got {value!r}", want)
    elif _kind(value) != want:
        fail(at, f"expected {want}, got {value!r}", want)
