"""Load a dummy (or human) model file from dummies/ and compile it (issue 4, sections 1, 2, 6)."""
from occupant.human.assemble import assemble
from occupant.human.description import parse_description
from occupant.human.errors import DummyFileError
from occupant.human.variants import apply_variant
from occupant.io.toml_files import read_toml, resolve_shipped, shipped_names


def available_dummies():
    """Names of the dummy files shipped in dummies/."""
    return shipped_names("dummies", kind="dummy")


def _read(name_or_path, named_by=None):
    path = resolve_shipped(name_or_path, "dummies", "dummy", kind="dummy", error=DummyFileError,
                           named_by=named_by)
    return read_toml(path, DummyFileError), path


def load_description(name_or_path, bases=None):
    """(header, segments) of a dummy file, validated; a variant (``base = ...``) is applied to
    its base first (occupant.human.variants) and the header names it (``base``); ``bases``:
    {a ``base`` value: the file read for it} (a run folder's copies, occupant.scenario.load);
    else a base given by a relative path is read from the variant's folder."""
    data, path = _read(name_or_path)

    def read_base(name):
        try:
            return _read(str(bases[name]), None) if name in (bases or {}) else _read(name, path)
        except DummyFileError as err:
            raise DummyFileError(path, "base", f"{name!r}: {err.problem}", err.accepted) from None

    data, base = apply_variant(data, path, read_base, DummyFileError)
    header, segments = parse_description(data, path)
    if base is not None:
        header["base"] = base
    return header, segments


def load_dummy(name_or_path, bases=None):
    """Compiled runtime Model of a dummy: ``"hybrid3_50m"``, ``"hybrid3_05f"``, ``"hybrid3_95m"``
    or a path to a dummy file (``bases``: as load_description). The editable Assembly is
    ``model.source``; the file header (published totals) is ``model.source.header``."""
    header, segments = load_description(name_or_path, bases)
    asm = assemble(header["name"], segments)
    asm.header = header
    return asm.compile()
