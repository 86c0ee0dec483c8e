"""Where the shipped model and scenario files are: the repository's top-level folders (dummies/,
scenarios/, vehicles/) in a source checkout, or their installed copies under
``<prefix>/share/occupant/`` (pyproject.toml, tool.setuptools.data-files) after ``pip install .``."""
import pathlib
import sysconfig

_SOURCE_ROOT = pathlib.Path(__file__).resolve().parents[1]


def shipped_dir(name):
    """Folder of the shipped files called ``name`` ("dummies", "scenarios", "vehicles")."""
    source = _SOURCE_ROOT / name
    if source.is_dir():
        return source
    return pathlib.Path(sysconfig.get_paths()["data"]) / "share" / "occupant" / name
