"""A vehicle model's files copied under names of their own (a run folder's inputs/:
vehicle_model-, vehicle_model_sub1- ...) are read back by occupant.vehicle.files.copies_locator:
each subsystem entry finds the copy of the file it named beside its parent's original."""
import pathlib
import shutil

from occupant.scenario.load import sub_key
from occupant.scenario.run import copy_inputs
from occupant.vehicle.files import copies_locator, load_vehicle, vehicle_files

VEHICLES = pathlib.Path(__file__).resolve().parents[2] / "vehicles"


def _tree(root):
    """A model whose files are in three folders, two of one name (parts/wheel.toml,
    spare/wheel.toml), one named twice (parts/wheel.toml, by the model and by body.toml)
    and one by a path up (parts/hub.toml names ../spare/wheel.toml)."""
    files = {"car.toml": ["parts/wheel.toml", "body.toml", "parts/hub.toml"],
             "body.toml": ["parts/wheel.toml"],
             "parts/wheel.toml": [],
             "parts/hub.toml": ["../spare/wheel.toml"],
             "spare/wheel.toml": []}
    for name, subs in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        entries = "".join(f'\n[[subsystem]]\nname = "s{i}"\nfile = "{f}"\n' for i, f in enumerate(subs))
        path.write_text(f'kind = "subsystem"\nname = "{path.stem}"\n# {name}\n{entries}', encoding="utf-8")
    return root / "car.toml"


def test_identity_copies_are_found_as_the_originals_were(tmp_path):
    """vehicle_files through copies_locator lists the copies in the originals' order, and every
    entry reaches the copy of the file it named (the two wheel.toml files told apart by where
    they were, not by name). The originals' folder is removed first."""
    originals = vehicle_files(_tree(tmp_path / "src"))
    assert [p.relative_to(tmp_path / "src").as_posix() for p in originals] == [
        "car.toml", "parts/wheel.toml", "body.toml", "parts/hub.toml", "parts/../spare/wheel.toml"]
    marks = [p.read_text(encoding="utf-8").splitlines()[2] for p in originals]
    (tmp_path / "run").mkdir()
    copied = copy_inputs({sub_key(i): p for i, p in enumerate(originals)}, tmp_path / "run")
    copies = [tmp_path / "run" / copied[sub_key(i)] for i in range(len(originals))]
    shutil.rmtree(tmp_path / "src")
    locate = copies_locator(copies)
    assert vehicle_files(copies[0], locate) == copies
    assert [c.read_text(encoding="utf-8").splitlines()[2] for c in copies] == marks
    assert locate(copies[3], "../spare/wheel.toml") == copies[4]   # hub's entry: spare/wheel.toml
    assert locate(copies[2], "parts/wheel.toml") == copies[1]      # body's: parts/wheel.toml


def test_identity_shipped_sedan_loads_from_its_copies(tmp_path):
    """The shipped mid-size sedan loaded from copies of its ten files: the same parts with the
    same masses as loaded from vehicles/."""
    originals = vehicle_files(VEHICLES / "midsize_sedan.toml")
    copied = copy_inputs({sub_key(i): p for i, p in enumerate(originals)}, tmp_path)
    copies = [tmp_path / copied[sub_key(i)] for i in range(len(originals))]
    a = load_vehicle(originals[0])
    b = load_vehicle(copies[0], copies_locator(copies))
    assert len(originals) == 10
    assert len(a.parts) > 10 and {n: p.mass for n, p in a.parts.items()} == {
        n: p.mass for n, p in b.parts.items()}
