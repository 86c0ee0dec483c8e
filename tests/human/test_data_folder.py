"""occupant.human.data_folder: the human's tables read from the installed folder or, while a
run folder's scenario loads, from its copy, a copy checked against the installed layout."""
import shutil

import pytest

from occupant.human import build
from occupant.human.data_folder import (
    SHIPPED, HumanDataError, check_layout, data_folder, data_path, reading_from, stops_dummy,
)
from occupant.io.toml_files import read_toml

INSTALLED = {"n": 1.0, "name": "a", "v": [1.0, 2.0], "mixed": ["torso", 1.0],
             "rows": [[0.0, 1.0], [1.0, 2.0]], "t": {"k": 2}, "muscle": [{"x": 1.0}, {"x": 2.0}]}


@pytest.mark.parametrize("change, key, problem, accepted", [
    ({"n": "1"}, "n", "expected a number, got '1'", "a number"),
    ({"n": True}, "n", "expected a number, got True", "a number"),
    ({"v": [1.0]}, "v", "expected a list of 2 numbers, got [1.0]", "a list of 2 numbers"),
    ({"mixed": [1.0, 1.0]}, "mixed", "expected a list of a string, a number, got [1.0, 1.0]",
     "a list of a string, a number"),
    ({"rows": [[0.0, 1.0], [2.0]]}, "rows[1]", "expected a list of 2 numbers, got [2.0]",
     "a list of 2 numbers"),
    ({"rows": []}, "rows", "empty", "at least one row"),
    ({"t": {"k": 2, "j": 1}}, "t.j", "unknown key", "the keys of [t]"),
    ({"t": {}}, "t.k", "missing", "a number"),
    ({"muscle": [{"x": 1.0}, {"y": 2.0}]}, "muscle[1].x", "missing", "a number"),
])
def test_copy_that_leaves_the_layout_names_its_key(tmp_path, change, key, problem, accepted):
    """Each change of kind, length, key or row is one HumanDataError naming the file and key."""
    with pytest.raises(HumanDataError) as err:
        check_layout({**INSTALLED, **change}, INSTALLED, tmp_path / "x.toml", SHIPPED / "x.toml")
    assert (err.value.file, err.value.path, err.value.problem) == (str(tmp_path / "x.toml"), key, problem)
    assert err.value.accepted == f"{accepted}, as in this version's x.toml"


def test_identity_edits_inside_the_layout_pass_and_installed_files_match_themselves(tmp_path):
    """Values changed, a table of rows longer: accepted; every installed table matches itself."""
    check_layout({**INSTALLED, "n": 3, "rows": [[0.0, 1.0]] * 5, "name": "b"}, INSTALLED,
                 tmp_path / "x.toml", SHIPPED / "x.toml")
    for path in SHIPPED.glob("*.toml"):
        check_layout(read_toml(path), read_toml(path), path, path)


def test_identity_reading_from_a_copy_builds_from_it_and_only_inside(tmp_path):
    """Inside ``reading_from`` the paths are the copy's (and the stops dummy the given file), the
    human built from it (a heavier head in de Leva's table); outside, the installed again."""
    copy = tmp_path / "human-data"
    shutil.copytree(SHIPPED, copy)
    text = (copy / "deleva1996.toml").read_text(encoding="utf-8")
    assert text.count("mass = 6.94\n") == 1
    (copy / "deleva1996.toml").write_text(text.replace("mass = 6.94\n", "mass = 8.94\n"), encoding="utf-8")
    before = build(percentile=50)
    with reading_from(copy, tmp_path / "stops.toml"):
        assert data_folder() == copy and data_path("thorax.toml") == copy / "thorax.toml"
        assert stops_dummy() == tmp_path / "stops.toml"
    with reading_from(copy):
        heavier = build(percentile=50)
    head = before.body("head")
    assert heavier.body_mass[head] > before.body_mass[head] + 1.0
    assert data_folder() == SHIPPED and stops_dummy() == "hybrid3_50m"
    assert build(percentile=50).body_mass[head] == before.body_mass[head]
