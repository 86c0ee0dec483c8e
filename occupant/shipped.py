"""Where the shipped model and scenario files are: the repository's top-level folders (dummies/,
scenarios/, vehicles/) in a source checkout, or their installed copies under
``<prefix>/share/occupant/`` (pyproject.toml, tool.setuptools.data-files) after ``pip install .``."""
import pathlib
import sysconfig

_SOURCE_ROOT = pathlib.Path(__file__).resolve().parents[1]
SHIPPED_FOLDERS = ("scenarios", "dummies", "vehicles")


def shipped_dir(name):
    """Folder of the shipped files called ``name`` ("dummies", "scenarios", "vehicles")."""
    source = _SOURCE_ROOT / name
    if source.is_dir():
        return source
    return pathlib.Path(sysconfig.get_paths()["data"]) / "share" / "occupant" / name


def display_path(path):
    """``path`` as a report shows it: relative to its shipped folder ("scenarios/x.toml") for a
    shipped file, relative to the working directory below it, else as given; so that a report
    names no folder of the machine it was written on when it need not."""
    path = pathlib.Path(path)
    for name in SHIPPED_FOLDERS:
        try:
            return f"{name}/{path.resolve().relative_to(shipped_dir(name).resolve()).as_posix()}"
        except ValueError:
            pass
    try:
        return path.resolve().relative_to(pathlib.Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)
