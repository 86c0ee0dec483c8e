"""Load a dummy (or human) model file from dummies/ and compile it (issue 4, sections 1, 2, 6)."""
import pathlib
import tomllib

from occupant.human.assemble import assemble
from occupant.human.description import parse_description
from occupant.human.errors import DummyFileError
from occupant.shipped import shipped_dir

DUMMY_DIR = shipped_dir("dummies")


def available_dummies():
    """Names of the dummy files shipped in dummies/."""
    return sorted(p.stem for p in DUMMY_DIR.glob("*.toml")
                  if not p.stem.startswith("posture") and _kind(p) == "dummy")


def _kind(path):
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh).get("kind")
    except (OSError, tomllib.TOMLDecodeError):
        return None


def resolve(name_or_path):
    """Path of a shipped dummy name or of a given file."""
    p = pathlib.Path(name_or_path)
    if p.suffix == ".toml" or p.exists() or len(p.parts) > 1:
        if not p.is_file():
            raise DummyFileError(p, "", "no such file", "an existing .toml file or one of "
                                 + ", ".join(available_dummies()))
        return p
    candidate = DUMMY_DIR / f"{name_or_path}.toml"
    if not candidate.is_file():
        raise DummyFileError(name_or_path, "", "unknown dummy",
                             ", ".join(available_dummies()) + ", or a path to a .toml file")
    return candidate


def read_toml(path):
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise DummyFileError(path, "", f"not valid TOML: {exc}", "TOML 1.0") from None


def load_description(name_or_path):
    """(header, segments) of a dummy file, validated."""
    path = resolve(name_or_path)
    return parse_description(read_toml(path), path)


def load_dummy(name_or_path):
    """Compiled runtime Model of a dummy: ``"hybrid3_50m"``, ``"hybrid3_05f"``, ``"hybrid3_95m"``
    or a path to a dummy file. The editable Assembly is ``model.source``; the file header
    (published totals) is ``model.source.header``."""
    header, segments = load_description(name_or_path)
    asm = assemble(header["name"], segments)
    asm.header = header
    return asm.compile()
