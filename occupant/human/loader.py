"""Load a dummy (or human) model file from dummies/ and compile it (issue 4, sections 1, 2, 6)."""
from occupant.human.assemble import assemble
from occupant.human.description import parse_description
from occupant.human.errors import DummyFileError
from occupant.io.toml_files import read_toml, resolve_shipped, shipped_names


def available_dummies():
    """Names of the dummy files shipped in dummies/."""
    return shipped_names("dummies", kind="dummy")


def load_description(name_or_path):
    """(header, segments) of a dummy file, validated."""
    path = resolve_shipped(name_or_path, "dummies", "dummy", kind="dummy", error=DummyFileError)
    return parse_description(read_toml(path, DummyFileError), path)


def load_dummy(name_or_path):
    """Compiled runtime Model of a dummy: ``"hybrid3_50m"``, ``"hybrid3_05f"``, ``"hybrid3_95m"``
    or a path to a dummy file. The editable Assembly is ``model.source``; the file header
    (published totals) is ``model.source.header``."""
    header, segments = load_description(name_or_path)
    asm = assemble(header["name"], segments)
    asm.header = header
    return asm.compile()
