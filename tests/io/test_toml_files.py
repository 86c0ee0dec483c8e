"""The one TOML reader, checker and name-or-path resolver (issue 9 item 6): every input-file
error names the file, the key path, the bad value and what is accepted."""
import pytest

from occupant.human import DummyFileError
from occupant.human.certification import available_scenarios
from occupant.human.loader import available_dummies
from occupant.human.posture import available_postures
from occupant.io.toml_files import (FileChecker, InputFileError, read_toml, resolve_shipped,
                                    shipped_names)
from occupant.sensors import SensorError, SensorFileError


def test_reference_read_toml_names_the_file(tmp_path):
    missing = tmp_path / "absent.toml"
    with pytest.raises(InputFileError, match=f"^{missing}: no such file"):
        read_toml(missing)
    bad = tmp_path / "bad.toml"
    bad.write_text("mass = = 1\n")
    with pytest.raises(InputFileError, match=rf"^{bad}: not valid TOML: .*\(accepted: TOML 1.0\)"):
        read_toml(bad)
    with pytest.raises(DummyFileError):  # the caller's error class
        read_toml(bad, DummyFileError)
    good = tmp_path / "good.toml"
    good.write_text('kind = "posture"\n')
    assert read_toml(good) == {"kind": "posture"}


@pytest.mark.parametrize("text, message", [
    # a key given twice: tomllib says "Cannot overwrite a value (at line 4, column 8)" alone
    ('kind = "scenario"\n[occupant]\nsettle = 0.3\nsettle = 0.2\n',
     "occupant.settle: given twice, at lines 3 and 4 (accepted: each key once in its table (TOML 1.0))"),
    ('t_end = 1\nt_end = 2\n', "t_end: given twice, at lines 1 and 2 (accepted: each key once"),
    ('[x]\na = 1 # one\n[y]\nb = 2\n[x]\nc = 3\n',
     "not valid TOML: table [x] declared twice, at lines 1 and 5 (accepted: each table once"),
    ('kind = "scenario"\nname = x y\n', "not valid TOML: Invalid value (at line 2, column 8) (accepted: TOML 1.0)"),
])
def test_reference_a_malformed_toml_file_names_the_key_given_twice_and_its_lines(tmp_path, text, message):
    bad = tmp_path / "bad.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(InputFileError) as err:
        read_toml(bad)
    assert str(err.value).startswith(f"{bad}: {message}")


def test_reference_a_toml_file_not_in_utf8_is_named_and_a_byte_order_mark_is_skipped(tmp_path):
    utf16 = tmp_path / "notepad.toml"
    utf16.write_bytes('kind = "scenario"\n'.encode("utf-16"))   # (was the codec's words, no file)
    with pytest.raises(InputFileError, match=rf"^{utf16}: not UTF-8 text \(byte 0xff at offset 0\) "
                       r"\(accepted: a TOML 1.0 text file in UTF-8\)"):
        read_toml(utf16)
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b'\xef\xbb\xbfkind = "scenario"\n')   # (was "Invalid statement (at line 1, column 1)")
    assert read_toml(bom) == {"kind": "scenario"}


@pytest.mark.parametrize("call, message", [
    (lambda c: c.keys({"colour": 1}, ("mass", "com"), "segment[0]"),
     "f.toml: segment[0].colour: unknown key (accepted: mass, com)"),
    (lambda c: c.keys({"lower": 1}, ("lower_deg",), "r"),
     "f.toml: r.lower: angles are given in degrees with the _deg suffix (accepted: lower_deg)"),
    (lambda c: c.number({"mass": "5"}, "mass", "s"),
     "f.toml: s.mass: expected a finite number, got '5' (accepted: a number)"),
    (lambda c: c.number({"mass": True}, "mass", "s"),
     "f.toml: s.mass: expected a finite number, got True (accepted: a number)"),
    (lambda c: c.number({"mass": -1.0}, "mass", "s", positive=True),
     "f.toml: s.mass: must be > 0, got -1.0 (accepted: a positive number)"),
    (lambda c: c.number({"damping": -1.0}, "damping", "", nonneg=True),
     "f.toml: damping: must be >= 0, got -1.0 (accepted: a number >= 0)"),
    (lambda c: c.number({}, "t_end", "", required=True), "f.toml: t_end: missing (accepted: a number)"),
    (lambda c: c.vector({"com": [0, 1]}, "com", "s"),
     "f.toml: s.com: expected a list of 3 finite numbers, got [0, 1] (accepted: a list of 3 numbers)"),
    (lambda c: c.vector({"com": [0, float("nan"), 1]}, "com", "s"),
     "f.toml: s.com: expected a list of 3 finite numbers, got [0, nan, 1]"),
    (lambda c: c.string({"kind": "ball"}, "kind", "joint", choices=("revolute", "fixed")),
     "f.toml: joint.kind: unknown value 'ball' (accepted: revolute, fixed)"),
    (lambda c: c.string({"mode": "lateral"}, "mode", "", choices=("flexion",), what="test mode"),
     "f.toml: mode: unknown test mode 'lateral' (accepted: flexion)"),
    (lambda c: c.string({"name": "  "}, "name", "sensor[0]"),
     "f.toml: sensor[0].name: expected a non-empty string, got '  ' (accepted: a string)"),
    (lambda c: c.boolean({"mirror": "yes"}, "mirror", "segment[1]"),
     "f.toml: segment[1].mirror: expected true or false, got 'yes' (accepted: true, false)"),
    (lambda c: c.table({"root": [1]}, "root", ""),
     "f.toml: root: expected a table, got [1] (accepted: a [root] table)"),
    (lambda c: c.table({}, "pendulum", "", required=True),
     "f.toml: pendulum: missing (accepted: a [pendulum] table)"),
    (lambda c: c.tables({"sensor": {"kind": "x"}}, "sensor", ""),
     "f.toml: sensor: expected an array of tables (accepted: [[sensor]] tables)"),
])
def test_reference_checker_messages_name_file_key_value_and_accepted(call, message):
    with pytest.raises(InputFileError) as err:
        call(FileChecker("f.toml"))
    assert str(err.value).startswith(message), str(err.value)


def test_identity_checker_returns_values_and_defaults():
    c = FileChecker("f.toml")
    t = {"mass": 2, "com": [0, 0, 1], "kind": "fixed", "mirror": True, "joint": {"a": 1},
         "sensor": [{"b": 2}]}
    assert c.number(t, "mass", "") == 2.0 and isinstance(c.number(t, "mass", ""), float)
    assert c.number(t, "absent", "", default=1.5) == 1.5
    assert c.vector(t, "com", "").tolist() == [0.0, 0.0, 1.0]
    assert c.vector(t, "absent", "", default=(1, 2, 3)).tolist() == [1.0, 2.0, 3.0]
    assert c.string(t, "kind", "", choices=("fixed",)) == "fixed" and c.string(t, "x", "") is None
    assert c.boolean(t, "mirror", "") is True and c.boolean(t, "x", "", default=False) is False
    assert c.table(t, "joint", "") == {"a": 1} and c.table(t, "x", "") == {}
    assert c.tables(t, "sensor", "") == [{"b": 2}] and c.tables(t, "x", "") == []
    c.keys(t, tuple(t), "")  # all known: no error


def test_reference_resolver_finds_names_and_paths_and_lists_the_shipped_ones(tmp_path):
    p = resolve_shipped("hybrid3_50m", "dummies", "dummy", kind="dummy")
    assert p.name == "hybrid3_50m.toml" and p.is_file()
    assert resolve_shipped(str(p), "dummies", "dummy") == p  # a path is taken as it is
    with pytest.raises(InputFileError) as err:
        resolve_shipped("hybrid3_51m", "dummies", "dummy", kind="dummy")
    assert str(err.value) == ("hybrid3_51m: unknown dummy (accepted: hybrid3_05f, hybrid3_50m, "
                              "hybrid3_50m_pedestrian, hybrid3_95m, or a path to a .toml file)")
    missing = tmp_path / "mine.toml"
    with pytest.raises(DummyFileError, match=f"^{missing}: no such file .accepted: an existing "
                       r"\.toml file, or a shipped posture: driver_seated"):
        resolve_shipped(missing, "dummies/postures", "posture", error=DummyFileError)


def test_identity_every_loader_lists_its_shipped_files_through_the_one_resolver():
    assert available_dummies() == shipped_names("dummies", kind="dummy")
    assert "hybrid3_50m" in available_dummies() and "driver_seated" not in available_dummies()
    assert available_postures() == shipped_names("dummies/postures")
    assert "driver_seated" in available_postures()
    assert available_scenarios() == shipped_names("scenarios/certification")
    assert "hybrid3_50m_neck_flexion" in available_scenarios()


def test_identity_file_errors_are_one_class():
    """The human and sensor file errors are InputFileErrors (one message format); the sensor one
    is a SensorError too, as before."""
    assert issubclass(DummyFileError, InputFileError)
    assert issubclass(SensorFileError, InputFileError) and issubclass(SensorFileError, SensorError)
    assert str(SensorFileError("s.toml", "", "no such file")) == "s.toml: no such file"
