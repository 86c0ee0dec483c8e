"""Scenario loading (issue 13 section 1): validation with the file, key path, value and what is
accepted, overrides with type checks, the exit codes of ``occupant run`` on user errors, and the
pieces the loader is built of (pulse shapes, contact tables, the TOML writer)."""
import math
import tomllib

import numpy as np
import pytest

from occupant.cli import main
from occupant.io.toml_files import FileChecker, InputFileError, read_toml, resolve_shipped
from occupant.modeling.contacts_toml import read_contacts
from occupant.scenario import OverrideError, ScenarioError, apply_overrides, load, parse_override
from occupant.scenario.load import resolve
from occupant.constants import G0
from occupant.scenario.pulse import KMH, read_pulse
from occupant.scenario.toml_write import dumps

SHIPPED = ("fmvss208_sled_48_unbelted", "fmvss208_sled_48_belted", "us_ncap_frontal_56",
           "euro_ncap_full_width_50", "side_barrier", "rear_whiplash")


def _scenario_copy(tmp_path, name="fmvss208_sled_48_unbelted", edit=None):
    """A copy of a shipped scenario in tmp_path, its text changed by ``edit``."""
    text = resolve(name).read_text()
    if edit:
        text = edit(text)
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("edit, where, message", [
    (lambda s: s.replace("[solver]\n", "[solver]\ncolour = 1\n"), "solver.colour", "unknown key"),
    (lambda s: s.replace("t_end = 0.15", "t_end = -1.0"), "solver.t_end", "must be > 0"),
    (lambda s: s.replace('integrator = "euler"', 'integrator = "leapfrog"'), "solver.integrator",
     "unknown integrator 'leapfrog'"),
    (lambda s: s.replace('dummy = "hybrid3_50m"', 'dummy = "hybrid3_99m"'), "occupant.dummy", "unknown dummy"),
    (lambda s: s.replace('b = "knee_bolster"', 'b = "knee_bolstr"'), "contact[4].b",
     "unknown geometry 'knee_bolstr'"),
    (lambda s: s.replace('shape = "half_sine"', 'shape = "square"'), "pulse.shape", "unknown pulse shape"),
    (lambda s: s.replace("duration = 0.100\n", ""), "pulse", "exactly two of delta_v_kmh, peak_g, duration"),
    (lambda s: s.replace('regulation = "fmvss208_hybrid3_50m"', 'regulation = "fmvss208_hybrid3_05f"'),
     "criteria.regulation", "judges the hybrid3_05f"),
    (lambda s: s.replace('kind = "passenger"', 'enabled = "no"'), "restraints.airbag.enabled",
     "expected true or false"),
    (lambda s: s.replace("[restraints.airbag]", "[restraints.seatbelt]"), "restraints.seatbelt",
     "unknown key (accepted: belt, airbag, knee_airbag)"),
    (lambda s: s.replace('dummy = "hybrid3_50m"', 'dummy = "hybrid3_50m"\nposture_targets = {torso = 20.0}'),
     "occupant.posture_targets.torso", "unknown key"),
    # (branch usercheck) the scenario's own posture values were said to be the posture file's
    # ("dummies/postures/passenger_seated.toml: angles.elbw_deg: unknown joint"), a key that file
    # has not
    (lambda s: s.replace('dummy = "hybrid3_50m"', 'dummy = "hybrid3_50m"\nposture_angles = {elbw_deg = 60.0}'),
     "occupant.posture_angles.elbw_deg", "unknown joint 'elbw'"),
    (lambda s: s.replace('dummy = "hybrid3_50m"', 'dummy = "hybrid3_50m"\nposture_angles = {elbow_deg = 720.0}'),
     "occupant.posture_angles.elbow_deg", "outside the joint's range of motion"),
    (lambda s: s.replace('dummy = "hybrid3_50m"', 'dummy = "hybrid3_50m"\nposture_targets = {human_head = "x"}'),
     "occupant.posture_targets.human_head", "unknown human_head 'x'"),
    (lambda s: s.replace('dummy = "hybrid3_50m"', 'dummy = "hybrid3_50m"\nposture_targets = {point = '
                         '[{body = "left_foot", point = "heel_bottom", z = -0.3}, {body = "left_fot"}]}'),
     "occupant.posture_targets.point[1].body", "unknown body 'left_fot'"),
    # (usercheck) a name with a path in it was accepted: its default run folder reports/<name>
    # lay elsewhere
    (lambda s: s.replace('name = "fmvss208_sled_48_unbelted"', 'name = "../../elsewhere"'), "name",
     "'../../elsewhere' is not a folder name"),
    (lambda s: s.replace('regulation = "fmvss208_hybrid3_50m"', 'regulation = "fmvss208_hybrid3_50m"\n'
                         'show = ["VC", "neck shear", "VC"]'), "criteria.show", "'VC' is named twice"),
])
def test_reference_load_errors_name_file_key_and_accepted(tmp_path, edit, where, message):
    path = _scenario_copy(tmp_path, edit=edit)
    with pytest.raises(ScenarioError) as err:
        load(path)
    text = str(err.value)
    assert text.startswith(f"{path}: {where}: ") and message in text, text
    assert "(accepted: " in text, text


def test_reference_overrides_apply_and_are_type_checked():
    data = {"solver": {"t_end": 0.15, "integrator": "euler"}, "occupant": {"dummy": "hybrid3_50m"}}
    out = apply_overrides(data, ["solver.t_end=0.05", "occupant.dummy=hybrid3_05f",
                                 "restraints.belt.load_limit=4000"])
    assert out["solver"]["t_end"] == 0.05 and out["occupant"]["dummy"] == "hybrid3_05f"
    assert out["restraints"]["belt"]["load_limit"] == 4000
    assert data["solver"]["t_end"] == 0.15  # the file's dict is untouched
    assert parse_override("pulse.delta_v_kmh = 30") == ("pulse.delta_v_kmh", 30)
    assert parse_override("occupant.h_point=[0.0, 0.01, 0.0]") == ("occupant.h_point", [0.0, 0.01, 0.0])
    with pytest.raises(OverrideError, match=r"solver.t_end: the scenario has a number here \(0.15\), "
                                            r"got 'fast' \(accepted: a number, 0 < t_end <= 10 s\)"):
        apply_overrides(data, ["solver.t_end=fast"])
    with pytest.raises(OverrideError, match=r"^--set solver.t_end.x=1: solver.t_end: is a number in the scenario, not a table"):
        apply_overrides(data, ["solver.t_end.x=1"])
    with pytest.raises(OverrideError, match="expected KEY=VALUE"):
        parse_override("solver.t_end")


@pytest.mark.parametrize("args, message", [
    (["run", "no_such_scenario"], "no_such_scenario: unknown scenario (accepted: aeb_precrash_frontal, euro_ncap_full_width_50, fmvss208_sled_48_belted, fmvss208_sled_48_unbelted"),
    (["run", "fmvss208_sled_48_unbelted", "--set", "solver.t_end=soon"],
     "(--set solver.t_end): solver.t_end: expected a finite number, got 'soon' (accepted: a number, "
     "0 < t_end <= 10 s)"),
    (["run", "fmvss208_sled_48_unbelted", "--set", "solver.colour=1"], "solver.colour: unknown key"),
    (["run", "fmvss208_sled_48_unbelted", "--set", "occupant.dummy=hybrid3_99m"],
     "occupant.dummy: unknown dummy 'hybrid3_99m' (accepted: hybrid3_05f, hybrid3_50m, hybrid3_50m_pedestrian, "
     "hybrid3_95m"),
    (["run", "fmvss208_sled_48_unbelted", "--set", "solver.t_end"], "expected KEY=VALUE"),
    # a belt into a seat without anchorages read "restraints.belt.retractor: missing", not the --set
    (["run", "fmvss208_sled_48_unbelted", "--set", "restraints.belt.load_limit=4000"],
     "(--set restraints.belt.load_limit): restraints.belt: the interior sled_buck_passenger has no belt "
     "anchorages (no [belt] table) and this belt does not give them (accepted: an interior with a [belt] "
     "table, or retractor, d_ring, buckle and lap_anchor (m in B0) in [restraints.belt])"),
    (["show", "nothing_known"], "nothing_known: unknown dummy or scenario"),
    # (no --out: the URDF refuses the model before anything is written); (usercheck3) it named
    # the API's export_mjcf, not the command's --mjcf
    (["export", "hybrid3_50m", "--urdf"], "URDF has no spherical joints"),
    (["export", "hybrid3_50m", "--urdf"], "export to MJCF instead (occupant export --mjcf, occupant.io.export_mjcf)"),
    # (usercheck3) a list of names as a bare word (the shell took the quotes of ["VC"]): how to write it
    (["run", "fmvss208_sled_48_unbelted", "--set", "criteria.show=VC"],
     "criteria.show: expected a list of strings, got 'VC' (accepted: "),
    (["run", "fmvss208_sled_48_unbelted", "--set", "criteria.show=[VC,NIC]"],
     "; on the command line a TOML list, quoted for the shell: --set 'criteria.show=[\"VC\", \"NIC\"]')"),
    # (usercheck4) a key set twice: the last value was run, unsaid
    (["run", "fmvss208_sled_48_unbelted", "--set", "solver.t_end=0.01", "--set", "solver.t_end=0.02"],
     "occupant: error: --set: solver.t_end: given twice (0.01, then 0.02) (accepted: each key once)"),
    # (usercheck4) a missing pulse file given by --set, looked for in the working directory, said
    # "accepted: a path relative to the scenario file's folder, or an absolute path"
    (["run", "us_ncap_frontal_56", "--set", "pulse.file=no_such_pulse.csv"],
     "no_such_pulse.csv' (accepted: an existing file: a relative path is read from the scenario file's "
     "folder, one given by --set from the working directory)"),
])
def test_reference_user_errors_exit_2_with_one_message(capsys, monkeypatch, args, message):
    # a warm cache, whichever test ran first: on a cold one a run says it compiles before a fault
    # found while the model is built (tests/test_progress.py holds the cheap faults before it)
    from occupant.integrate import precompile
    monkeypatch.setattr(precompile, "cold", lambda: False)
    assert main(args) == 2
    cap = capsys.readouterr()
    assert message in cap.err, cap.err
    assert cap.err.startswith("occupant: error: ") and "Traceback" not in cap.err
    assert len(cap.err.strip().splitlines()) == 1


def _named_file_copy(tmp_path, folder, name, old, new):
    """A shipped dummy, posture or interior copied to tmp_path with ``old`` replaced by ``new``."""
    from occupant.shipped import shipped_dir
    text = (shipped_dir(folder.split("/")[0]).joinpath(*folder.split("/")[1:]) / f"{name}.toml").read_text()
    assert old in text
    path = tmp_path / f"broken_{name}.toml"
    path.write_text(text.replace(old, new, 1))
    return path


_SLED = "fmvss208_sled_48_belted"


@pytest.mark.parametrize("label", ["interior", "dummy", "posture", "normal", "semi_axes", "output_dt", "output_dt_coarse",
                                   "dt", "unknown_name", "self_pair", "x_axis"])
def test_reference_bad_files_one_whole_line_naming_file_and_key(tmp_path, capsys, label):
    """The badinput audit (scenarios/HISTORY.md "Bad input: ..."): each case one whole line, exit 2.
    Before: a malformed interior, dummy or posture file was reported against the scenario
    ("scenario.toml: vehicle.interior: not valid TOML ..."), the broken file itself unnamed; a zero
    semi-axis and a zero plane normal printed numpy reprs ([np.float64(0.0), ...], array([0., 0.,
    0.])); output_dt longer than t_end was accepted (one sample, at t = 0); an unknown dummy did
    not repeat the name given; a pair of a geometry with itself read "characteristic: missing, and
    surface 'pelvis_flesh' names no default"; a dt not dividing t_end was refused by simulate, after
    the settling, without file or key."""
    if label == "interior":
        bad = _named_file_copy(tmp_path, "vehicles", "sled_buck_passenger", "[[surface]]", "[[surface]")
        old, new = 'interior = "sled_buck_passenger"', f'interior = "{bad}"'
        at = bad.read_text().splitlines().index("[[surface]") + 1   # (the interior's first surface)
        line = (f"{bad}: not valid TOML: Expected ']]' at the end of an array declaration (at line {at}, "
                "column 10) (accepted: TOML 1.0)")
    elif label == "dummy":
        bad = _named_file_copy(tmp_path, "dummies", "hybrid3_50m", "[[segment]]", "[[segment]")
        old, new = 'dummy = "hybrid3_50m"', f'dummy = "{bad}"'
        line = (f"{bad}: not valid TOML: Expected ']]' at the end of an array declaration (at line 15, "
                "column 10) (accepted: TOML 1.0)")
    elif label == "posture":
        bad = _named_file_copy(tmp_path, "dummies/postures", "passenger_seated", "[angles]", "[angles")
        old, new = 'posture = "passenger_seated"', f'posture = "{bad}"'
        line = (f"{bad}: not valid TOML: Expected ']' at the end of a table declaration (at line 25, "
                "column 8) (accepted: TOML 1.0)")
    elif label == "normal":
        bad = _named_file_copy(tmp_path, "vehicles", "sled_buck_passenger", "normal = [0.0, 0.0, 1.0]",
                               "normal = [0.0, 0.0, 0.0]")
        old, new = 'interior = "sled_buck_passenger"', f'interior = "{bad}"'
        line = (f"{bad}: surface[2]: plane 'floor'.normal: a zero vector, got [0.0, 0.0, 0.0] (accepted: "
                "a non-zero vector)")
    elif label == "x_axis":   # (was "must not be parallel to the normal, got array([0., 0., 0.])")
        bad = _named_file_copy(tmp_path, "vehicles", "sled_buck_passenger", "x_axis = [0.9495, 0.0, 0.3137]",
                               "x_axis = [0.0, 0.0, 0.0]")
        old, new = 'interior = "sled_buck_passenger"', f'interior = "{bad}"'
        line = (f"{bad}: surface[0]: plane 'seat_cushion'.x_axis: zero or parallel to the normal, got "
                "[0.0, 0.0, 0.0] (accepted: a vector not parallel to the normal (default [1, 0, 0]))")
    elif label == "semi_axes":
        old, new = "semi_axes = [0.065, 0.065, 0.065]", "semi_axes = [0.0, 0.065, 0.065]"
        line = ("{path}: occupant.ellipsoid[0].semi_axes: every value must be > 0, got [0.0, 0.065, 0.065] "
                "(accepted: 3 positive lengths in m)")
    elif label == "output_dt":
        old, new = "[solver]\n", "[solver]\noutput_dt = 1.0\n"
        line = ("{path}: solver.output_dt: the interval 1.0 s is longer than t_end 0.15 s (accepted: "
                "t_end / 200000 <= output_dt <= t_end)")
    elif label == "output_dt_coarse":   # (ran to its end, then every CFC 1000 criterion "not computable")
        old, new = "[solver]\n", "[solver]\noutput_dt = 0.005\n"
        line = ("{path}: solver.output_dt: the interval 0.005 s is too coarse for the criteria's CFC 1000 "
                "channels (SAE J211-1: their filter's design frequency must lie below the samples' Nyquist "
                "frequency) (accepted: output_dt < 0.000241 s; J211-1 asks for 0.0001 s (10 x CFC), the default)")
    elif label == "dt":   # (was "simulate: t_end 0.15 s is not a whole number of steps dt = 0.0007 s",
        # once the dummy had settled: no file, no key, nothing accepted; sweepcheck)
        old, new = "[solver]\n", "[solver]\ndt = 0.0007\n"
        line = ("{path}: solver.dt: t_end 0.15 s is not a whole number of steps of 0.0007 s (t_end / dt = "
                "214.286) (accepted: a dt that divides t_end for the fixed-step euler, or leave dt out)")
    elif label == "self_pair":
        old, new = 'b = "seat_cushion"', 'b = "pelvis_flesh"'
        line = ("{path}: contact[0].b: 'pelvis_flesh' is also in a: a geometry cannot touch itself "
                "(accepted: another geometry than those of a)")
    else:
        old, new = 'dummy = "hybrid3_50m"', 'dummy = "hybrid4"'
        line = ("{path}: occupant.dummy: unknown dummy 'hybrid4' (accepted: hybrid3_05f, hybrid3_50m, "
                "hybrid3_50m_pedestrian, hybrid3_95m, or a path to a .toml file)")
    path = _scenario_copy(tmp_path, _SLED, edit=lambda s: s.replace(old, new, 1))
    assert main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"]) == 2
    assert capsys.readouterr().err == f"occupant: error: {line.format(path=path)}\n"


@pytest.mark.parametrize("key, value, kind, accepted", [
    ("interior", "sled_buck_passenger", "posture", "interior"),
    ("dummy", "hybrid3_50m", "posture", "dummy, human"),
    ("posture", "passenger_seated", "interior", "posture"),
])
def test_a_file_of_another_kind_is_said_to_be_one(tmp_path, capsys, key, value, kind, accepted):
    """(branch usercheck) A posture file given as the interior or the dummy, an interior as the
    posture: the file's kind, not the first of its keys the other kind has not ("post.toml:
    root: unknown key (accepted: description, kind, name, segment, ...)")."""
    from occupant.shipped import shipped_dir
    other = (shipped_dir("dummies") / "postures" / "passenger_seated.toml" if kind == "posture"
             else shipped_dir("vehicles") / "sled_buck_passenger.toml")
    path = _scenario_copy(tmp_path, _SLED, edit=lambda s: s.replace(f'{key} = "{value}"', f'{key} = "{other}"', 1))
    assert main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"]) == 2
    assert capsys.readouterr().err == (f"occupant: error: {other}: kind: unknown kind '{kind}' "
                                       f"(accepted: {accepted})\n")


def test_a_dummy_given_by_path_is_the_dummy_its_file_names(tmp_path):
    """(usercheck) A shipped dummy's file copied and given by its path: before, the scenario's
    regulation was refused ("fmvss208_hybrid3_50m judges the hybrid3_50m, the occupant is
    my_dummy.toml") and, left out, chest deflection, Nij and the neck forces were not computable
    after the run ("dummy: unknown value 'my_dummy.toml'"); now it is the hybrid3_50m its name key
    says it is."""
    from occupant.shipped import shipped_dir
    copy = tmp_path / "my_dummy.toml"
    copy.write_text((shipped_dir("dummies") / "hybrid3_50m.toml").read_text())
    path = _scenario_copy(tmp_path, _SLED, edit=lambda s: s.replace('dummy = "hybrid3_50m"', f'dummy = "{copy}"'))
    sc = load(path)
    assert sc.dummy == "hybrid3_50m" and sc.criteria_dummy == "hybrid3_50m"
    assert sc.protocol.dummy == "hybrid3_50m"


def test_reference_relative_paths_are_read_from_the_folder_of_the_file_naming_them(tmp_path, monkeypatch):
    """(relpaths) A scenario naming its dummy, posture and interior by paths relative to its
    folder, the interior's base by one relative to the interior's folder (a subfolder), loads
    from another working directory and reads those files. Before (usercheck), they were read
    from the working directory: "occupant.dummy: no such file 'my_dummy.toml' in the working
    directory ..."."""
    from occupant.io.toml_files import resolve_shipped
    case = tmp_path / "case"
    (case / "buck").mkdir(parents=True)
    (case / "my_dummy.toml").write_bytes(resolve_shipped("hybrid3_50m", "dummies", "dummy").read_bytes())
    (case / "seat.toml").write_bytes(resolve_shipped("passenger_seated", "dummies/postures", "posture").read_bytes())
    (case / "buck" / "parent.toml").write_bytes(
        resolve_shipped("sled_buck_passenger", "vehicles", "interior").read_bytes())
    (case / "buck" / "buck.toml").write_text('kind = "interior"\nname = "buck"\nbase = "parent.toml"\n')
    path = _scenario_copy(case, _SLED, edit=lambda s: s.replace('dummy = "hybrid3_50m"', 'dummy = "my_dummy.toml"')
                          .replace('posture = "passenger_seated"', 'posture = "seat.toml"')
                          .replace('interior = "sled_buck_passenger"', 'interior = "buck/buck.toml"'))
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    sc = load(path)
    assert sc.dummy == "hybrid3_50m" and sc.interior.name == "buck"
    assert {k: sc.inputs[k] for k in ("dummy", "posture", "interior", "interior_base")} == {
        "dummy": case / "my_dummy.toml", "posture": case / "seat.toml", "interior": case / "buck" / "buck.toml",
        "interior_base": case / "buck" / "parent.toml"}


def test_reference_a_path_only_in_the_working_directory_is_refused_naming_both(tmp_path, monkeypatch):
    """(relpaths) A relative path missing beside the scenario but present in the working
    directory is refused (no silent second rule, which would make the scenario's folder not
    portable), the message naming where it was looked for and the one it did not read."""
    from occupant.shipped import shipped_dir
    (tmp_path / "cwd").mkdir()
    (tmp_path / "cwd" / "my_dummy.toml").write_text((shipped_dir("dummies") / "hybrid3_50m.toml").read_text())
    path = _scenario_copy(tmp_path, _SLED, edit=lambda s: s.replace('dummy = "hybrid3_50m"', 'dummy = "my_dummy.toml"'))
    monkeypatch.chdir(tmp_path / "cwd")
    with pytest.raises(ScenarioError) as err:
        load(path)
    assert str(err.value).startswith(
        f"{path}: occupant.dummy: no such file '{tmp_path / 'my_dummy.toml'}' (a relative path is read "
        f"from the folder of the file that names it, not from the working directory, which has "
        f"'{tmp_path / 'cwd' / 'my_dummy.toml'}') (accepted: an existing .toml file, or a shipped dummy: ")


def test_reference_a_relative_path_given_by_set_is_read_from_the_working_directory(tmp_path, monkeypatch):
    """(relpaths) A path in a --set override is given on the command line: read from the working
    directory, where it is given, and kept absolute in the scenario as run."""
    from occupant.shipped import shipped_dir
    (tmp_path / "cwd").mkdir()
    (tmp_path / "cwd" / "my_dummy.toml").write_text((shipped_dir("dummies") / "hybrid3_50m.toml").read_text())
    path = _scenario_copy(tmp_path, _SLED)
    monkeypatch.chdir(tmp_path / "cwd")
    sc = load(path, overrides=["occupant.dummy=my_dummy.toml"])
    assert sc.inputs["dummy"] == tmp_path / "cwd" / "my_dummy.toml"
    assert sc.data["occupant"]["dummy"] == str(tmp_path / "cwd" / "my_dummy.toml")


def test_reference_a_path_inside_a_table_given_by_set_is_read_from_the_working_directory(tmp_path, monkeypatch):
    """(usercheck7) ``--set 'pulse={shape="csv", file="p.csv", ...}'``, the whole [pulse] table
    on the command line, read p.csv from the scenario's folder ("no such file '<scenario
    folder>/p.csv' ... (accepted: ..., one given by --set from the working directory)"): only
    a dotted ``--set pulse.file=p.csv`` was read from the working directory. A path inside a
    table given whole is given on the command line as well."""
    from occupant.scenario.load import on_command_line
    (tmp_path / "cwd").mkdir()
    (tmp_path / "cwd" / "p.csv").write_text("time [s],acceleration [g]\n0,0\n0.05,-20\n0.1,0\n")
    path = _scenario_copy(tmp_path, _SLED)
    monkeypatch.chdir(tmp_path / "cwd")
    sc = load(path, overrides=['pulse={shape="csv", file="p.csv", speed_kmh=48.0}'])
    assert sc.inputs["pulse"] == tmp_path / "cwd" / "p.csv"
    assert sc.data["pulse"]["file"] == str(tmp_path / "cwd" / "p.csv")
    assert on_command_line({"vehicle": {"interior": "sled_buck_passenger"}}) == {
        "vehicle": {"interior": "sled_buck_passenger"}}   # a shipped name stays a name


def test_reference_a_title_says_when_the_crash_is_not_the_files():
    """(usercheck7) ``occupant run pedestrian_40 --set vehicle.speed_kmh=30`` printed, and its
    report's "represents" and ISO-MME title read, "Pedestrian struck laterally at 40 km/h". A
    --set of the crash's tables (vehicle, pulse, precrash) is named in the title; a --set of
    how the run is computed or shown is not, and a title given by --set is the user's. A dummy
    put in for the file's (``occupant.dummy=hybrid3_05f``) kept "Hybrid III 50th male" too."""
    ped = load("pedestrian_40", overrides=["vehicle.speed_kmh=30"])
    assert ped.title.endswith("at 40 km/h by a mid-size sedan, pedestrian Hybrid III 50th male (crash changed "
                              "from the file's: vehicle.speed_kmh = 30)")
    assert ped.data["title"] == ped.title
    side = load("side_barrier", overrides=['pulse={shape="half_sine", delta_v_kmh=20.0, duration=0.06, '
                                           'speed_kmh=0.0, direction=[0.0, 1.0, 0.0]}', "solver.t_end=0.05"])
    assert side.title.endswith("(not judged) (crash changed from the file's: pulse)")
    assert load("side_barrier", overrides=["solver.t_end=0.05", "criteria.show=['head excursion']"]).title == \
        load("side_barrier").title
    assert load("side_barrier", overrides=['title="door test 7"', "pulse.delta_v_kmh=20"]).title == "door test 7"
    # a dummy for the file's dummy (a human for it was said before)
    assert load("side_barrier", overrides=["occupant.dummy=hybrid3_05f"]).title.endswith(
        "50th male driver (not judged) (occupant replaced by --set: hybrid3_05f)")
    assert load("side_barrier", overrides=["occupant.dummy=hybrid3_50m"]).title == load("side_barrier").title
    # (usercheck9) a sweep's variant at the file's own value (48.0 where the file gives 48) was
    # titled "crash changed from the file's: pulse.delta_v_kmh = 48.0"; a value of its own still is
    sled = load("fmvss208_sled_48_belted")
    assert load("fmvss208_sled_48_belted", overrides={"pulse.delta_v_kmh": 48.0}).title == sled.title
    assert load("fmvss208_sled_48_belted", overrides={"pulse.delta_v_kmh": 40.0}).title == \
        sled.title + " (crash changed from the file's: pulse.delta_v_kmh = 40.0)"


def test_reference_a_shape_set_beside_the_files_keys_names_the_set():
    """(usercheck7) ``--set pulse.shape=csv`` on side_barrier (a half-sine) kept the file's
    delta_v_kmh, which a CSV pulse does not take: the message blamed the file alone
    ("side_barrier.toml: pulse.delta_v_kmh: unknown key"). It names the --set and the way to
    give the table whole."""
    with pytest.raises(ScenarioError) as err:
        load("side_barrier", overrides=["pulse.shape=csv", "pulse.file=p.csv"])
    assert str(err.value).endswith(
        "side_barrier.toml (--set pulse.shape): pulse.delta_v_kmh: unknown key beside pulse.shape = 'csv' (the "
        "file's, kept: pulse.shape alone was overridden) (accepted: shape, file, speed_kmh, start, scale, "
        "direction; or [pulse] given whole: --set 'pulse={...}')"), str(err.value)


def test_a_folder_that_is_no_run_folder(tmp_path, capsys):
    """(usercheck) ``occupant run DIR`` of a folder without results.h5 was "DIR: unknown scenario
    (accepted: aeb_precrash_frontal, ...)"; ``occupant report`` of a missing folder was "no
    results.h5 in this folder"."""
    (tmp_path / "empty").mkdir()
    assert main(["run", str(tmp_path / "empty"), "--quiet"]) == 2
    assert capsys.readouterr().err == (
        f"occupant: error: {tmp_path / 'empty'}: a folder with no results.h5: not a run folder (accepted: "
        "a shipped scenario's name, a .toml file, or a run folder of occupant run (with its results.h5 "
        "and inputs/))\n")
    assert main(["report", str(tmp_path / "missing")]) == 2
    assert capsys.readouterr().err == (f"occupant: error: {tmp_path / 'missing'}: no such folder (accepted: "
                                       "a run folder of occupant run or sweep)\n")


@pytest.mark.parametrize("label", ["characteristic", "no_stiffness", "hinge", "inertia", "d_ring", "airbag"])
def test_reference_model_layer_errors_say_what_is_accepted(tmp_path, capsys, label):
    """Checks of the model layer (occupant.modeling) reached through a bad scenario or interior
    file: one whole line naming the file, the key and what is accepted, exit 2. Before (runsolid):
    "contact_characteristic.mine.stiffness: must be a finite number >= 0, got -5.0", "...: give a
    stiffness > 0 or a loading table", "... principal moments ... (no rigid body has them)", the
    folded volume's "must be below the nominal volume ..., got 0.001", no "accepted" part; a
    D-ring placed on the retractor (a belt segment of no length) was accepted and diverged in
    the settling ("occupant.settle: settling under gravity diverged after 0.000 s ..."), the
    file and the belt unnamed."""
    sets = []
    if label in ("characteristic", "no_stiffness"):
        law = "stiffness = -5.0" if label == "characteristic" else "friction = 0.5"
        path = _scenario_copy(tmp_path, _SLED, edit=lambda s: s.replace(
            "[restraints.belt]", f"[contact_characteristic.mine]\n{law}\n\n[restraints.belt]", 1))
        line = ("{path}: contact_characteristic.mine.stiffness: got -5.0 (accepted: a finite number >= 0)"
                if label == "characteristic" else "{path}: contact_characteristic.mine: neither a "
                "stiffness nor a loading table (accepted: stiffness > 0, or a loading table)")
    elif label in ("hinge", "inertia"):
        old, new = (("absorption = 0.7      # [E] the yielding", "absorption = 1.7      # [E] the yielding")
                    if label == "hinge" else ("inertia = [0.55, 0.55, 0.2]", "inertia = [0.55, 0.55, 2.0]"))
        bad = _named_file_copy(tmp_path, "vehicles", "whiplash_sled_seat", old, new)
        path = _scenario_copy(tmp_path, "rear_whiplash", edit=lambda s: s.replace(
            'interior = "whiplash_sled_seat"', f'interior = "{bad}"', 1))
        line = (f"{bad}: hinge[0]: joint resistance 'seat_back_frame_resistance'.absorption: got 1.7 "
                "(accepted: 0 <= absorption < 1)" if label == "hinge" else
                f"{bad}: hinge[0]: part 'seat_back_frame'.inertia: principal moments [0.55, 0.55, 2.0] "
                "kg m^2 violate the triangle inequality I1 + I2 >= I3 (no rigid body has them) (accepted: "
                "3 principal moments, (Ixx, Iyy, Izz, Ixy, Ixz, Iyz) or a 3x3 matrix, kg m^2: symmetric, "
                "positive-definite, each principal moment at most the sum of the others)")
    else:
        path = resolve("us_ncap_frontal_56")
        if label == "d_ring":
            sets = ["restraints.belt.d_ring=[-0.35,-0.30,-0.10]", "restraints.belt.retractor=[-0.35,-0.30,-0.10]"]
            line = ("{path} (--set restraints.belt.d_ring): restraints.belt: belt 'belt'.points[1]: 'd_ring' "
                    "at [-0.35, -0.3, -0.1] m is where 'retractor' is (a segment of no length) (accepted: "
                    "neighbouring anchors and slip rings at least 1 mm apart)")
        else:
            sets = ["restraints.airbag.volume=0.0001"]
            line = ("{path} (--set restraints.airbag.volume): restraints.airbag: airbag 'driver_airbag'"
                    ".folded_volume: 0.001 m^3 is not below the nominal volume 0.0001 m^3 (accepted: a "
                    "nominal volume above the folded 0.001 m^3)")
    args = ["run", str(path), "--out", str(tmp_path / "out"), "--quiet"]
    for s in sets:
        args += ["--set", s]
    assert main(args) == 2
    assert capsys.readouterr().err == f"occupant: error: {line.format(path=path)}\n"


@pytest.mark.parametrize("args, line", [
    # was "--set solver.t_end: ..." for a --vary, and its forms
    (["--vary", "solver.t_end"], "--vary solver.t_end: expected KEY=VALUE with a dotted key path "
     "(accepted: KEY=start:stop:n (n >= 1) or KEY=a,b,c)"),
    # was a 0.8 GB list and more, until the system killed the sweep
    (["--vary", "solver.t_end=0.1:0.2:100000000"], "--vary solver.t_end=0.1:0.2:100000000: solver.t_end: "
     "100000000 values are more than a sweep runs (accepted: n <= 10000)"),
    (["--vary", "solver.t_end=0.1:0.2:200", "--vary", "occupant.settle=0:0.2:200"], "--vary: 40000 "
     "variants in the full factorial are more than a sweep runs (accepted: at most 10000 (fewer values "
     "per key, or --design lhs))"),
    (["--vary", "solver.t_end=0.1:0.2", "--design", "lhs", "--samples", "100000"], "--samples: 100000 "
     "samples are more than a sweep runs (accepted: --samples N, 1 <= N <= 10000)"),
])
def test_reference_bad_sweep_options_one_whole_line(tmp_path, capsys, args, line):
    assert main(["sweep", _SLED, *args, "--out", str(tmp_path / "sweep")]) == 2
    assert capsys.readouterr().err == f"occupant: error: {line}\n"
    assert not (tmp_path / "sweep").exists()


def test_reference_bad_scheduler_address_names_the_option(tmp_path, capsys):
    """Was "occupant: error: missing port number in address 'nonsense'" (distributed's ValueError)."""
    pytest.importorskip("distributed")
    assert main(["sweep", _SLED, "--vary", "solver.t_end=0.1,0.2", "--scheduler", "nonsense",
                 "--out", str(tmp_path / "sweep")]) == 2
    assert capsys.readouterr().err == (
        "occupant: error: --scheduler: cannot reach the Dask scheduler nonsense: missing port number in "
        "address 'nonsense' (accepted: the address of a running scheduler, tcp://host:port)\n")


def test_reference_export_out_is_checked_before_the_model(tmp_path, capsys):
    """Was "occupant: error: DIR: Is a directory" / "...: No such file or directory"; a missing
    folder is now made, as run's --out."""
    assert main(["export", "hybrid3_50m", "--mjcf", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"occupant: error: --out: {tmp_path}: a folder, not a file "
                                       "(accepted: a file to write (its folder is made if missing))\n")
    (tmp_path / "afile").write_text("")
    assert main(["export", "hybrid3_50m", "--mjcf", "--out", str(tmp_path / "afile" / "x.xml")]) == 2
    assert capsys.readouterr().err == (f"occupant: error: --out: {tmp_path / 'afile'}: a file, not a "
                                       "folder (accepted: a folder to write into, new or existing)\n")
    assert main(["export", "hybrid3_50m", "--mjcf", "--out", str(tmp_path / "new" / "x.xml")]) == 0
    assert (tmp_path / "new" / "x.xml").is_file()


def test_reference_a_diverging_run_says_when_and_why_and_keeps_its_results(tmp_path):
    """A step 15 times the stable one: exit code 3, the time and the cause on one line, the
    results kept. Before the badinput audit the cause ended "for euler: use a smaller dt, or
    integrator='euler', which takes joint damping implicitly" (euler told to use euler), and the
    sampling warning came as Python's "run.py:77: SensorWarning: ..." with a line of source.
    Run to 50 ms, was 30 (branch heelfoot, heelmerge): with the Hybrid III's heels paired the
    state stays finite to the 30 ms end (non-finite after 28 ms with the one foot shell), so the
    penetration check, not the step's, stopped the run and named a contact; run on, it stops
    at 30 ms with the stable step as its cause, as main's at 28 ms. The step 0.0025 s, was 0.002
    (24 times the stable one; branch ankle50): with the 50M's ankle rolling freely to 22.9 deg
    the 0.002 s run's chin had passed 169 mm into the thorax by the 30 ms sample at which its
    state stopped being finite, so the penetration check named that contact first, a cause this
    test is not about; at 0.0025 s the state stops being finite at 30 ms before any contact is
    through (with main's ankle it was the other way round: at 0.0025 s the chin was through at
    27.5 ms; at 0.005 and 0.01 s one of the two files or both stop on the chin: which check
    names a diverging run first is the run's, so this step is chosen for the shipped files). The
    step 0.00125 s, was 0.0025 (15 times the stable one; branch crushshare): with the shins paired
    with the knee bolster's lower edge the 0.0025 s run's chin was 168 mm into the thorax at 22.5
    ms when its state stopped being finite (0.002: the chin at 14 ms; 0.005: a foot through the
    floor); at 0.00125 s the state stops being finite at 13.8 ms with the stable step named."""
    import subprocess
    import sys
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, "-m", "occupant.cli", "run", _SLED, "--set", "solver.t_end=0.05",
                           "--set", "solver.dt=0.00125", "--set", "occupant.settle=0", "--set",
                           "outputs.report=false", "--out", str(out), "--quiet"], capture_output=True, text=True)
    assert proc.returncode == 3, proc.stderr
    err = proc.stderr.splitlines()   # (a process of its own: pytest would catch the warning)
    assert err[0] == ("occupant: warning: results are sampled every 0.00125 s, coarser than the channel "
                      "rate 10000 Hz; channels are linear interpolations (run simulate with output_dt = "
                      "1/rate for full content)")
    assert len(err) == 2 and err[1].startswith("occupant: error: the run stopped early at "), err
    assert err[1].endswith(f"for euler: use a smaller dt; what it computed is in {out}, its criteria "
                           "not judged"), err[1]
    assert (out / "results.h5").is_file() and (out / "criteria.csv").is_file()


def test_reference_an_output_folder_that_cannot_be_is_named_before_the_run(tmp_path, capsys):
    """``--out`` naming a file (or a folder under one): one line naming --out and the path, exit
    code 2, before the simulation (it was "x: File exists" once the run had been simulated)."""
    (tmp_path / "taken").write_text("")
    for out, problem in (("taken", "a file, not a folder"), ("taken/run", "cannot make this folder")):
        folder = tmp_path / out
        assert main(["run", "fmvss208_sled_48_unbelted", "--out", str(folder), "--quiet"]) == 2
        cap = capsys.readouterr()
        assert cap.err == (f"occupant: error: --out: {folder}: {problem}"
                           f"{': Not a directory' if '/' in out else ''} (accepted: a folder to write "
                           "into, new or existing)\n"), cap.err
        assert "simulated" not in cap.out, cap.out
    assert main(["sweep", "fmvss208_sled_48_unbelted", "--vary", "solver.t_end=0.001,0.002",
                 "--out", str(tmp_path / "taken")]) == 2
    assert "--out: " in capsys.readouterr().err


def test_reference_override_error_names_the_set(tmp_path):
    """A key only the override brought in is reported against the --set, not the file."""
    with pytest.raises(ScenarioError, match=r"\(--set solver.colour\): solver.colour: unknown key"):
        load("fmvss208_sled_48_unbelted", overrides={"solver.colour": 1})


def test_reference_a_restraint_or_pulse_timed_after_the_run_is_noted():
    """(usercheck4) ``pretensioner_time = 12`` (ms meant), ``fire_time = 15`` or ``pulse.start = 5``
    ran the whole crash without the pretensioner, the bag or the crash, unsaid. A note names the key, its value and the run's end
    (not a refusal: a run shortened for a quick look ends before the shipped bags fire)."""
    ncap = load("us_ncap_frontal_56", overrides={"restraints.belt.pretensioner_time": 12.0,
                                                 "restraints.knee_airbag.fire_time": 15.0})
    late = [n for n in ncap.notes if "is not before the run's end" in n]
    assert late == [f"restraints.{k} = {v} s is not before the run's end (solver.t_end = 0.15 s): the {what} "
                    "does not fire in this run (times are in s from its start)"
                    for k, v, what in (("belt.pretensioner_time", 12, "pretensioner"),
                                       ("knee_airbag.fire_time", 15, "bag"))]
    sled = load("fmvss208_sled_48_belted", overrides={"pulse.start": 5.0})   # (ms meant): no crash
    assert [n for n in sled.notes if "run's end" in n] == [
        "pulse.start = 5 s is not before the run's end (solver.t_end = 0.15 s): the pulse does not start "
        "in this run (times are in s from its start)"]
    assert not any("run's end" in n for n in load("us_ncap_frontal_56").notes)   # as shipped: fired in time
    # without a pretensioner its time times nothing
    off = load("us_ncap_frontal_56", overrides={"restraints.belt.pretensioner": False,
                                                "restraints.belt.pretensioner_time": 12.0})
    assert not any("run's end" in n for n in off.notes)


def test_reference_shipped_scenarios_validate_and_state_their_restraints():
    unbelted = load("fmvss208_sled_48_unbelted")
    assert unbelted.judged and unbelted.protocol.name == "fmvss208_hybrid3_50m"
    assert unbelted.model.airbag_names == ("passenger_airbag",)
    assert "passenger_airbag_head_shell" in unbelted.model.airbag_contact_names
    off = load("fmvss208_sled_48_unbelted", overrides={"restraints.airbag.enabled": False})
    assert any("restraints.airbag is disabled" in n for n in off.notes) and not off.model.airbag_names
    ncap = load("us_ncap_frontal_56")
    assert ncap.judged and ncap.model.belt_names == ("belt",)
    assert ncap.model.airbag_names == ("driver_airbag", "knee_airbag")
    assert "knee_airbag_left_shank_shell" in ncap.model.airbag_contact_names
    assert ncap.position_code == "1" and unbelted.position_code == "3"   # driver, front right


@pytest.mark.parametrize("override, message", [
    ({"restraints.airbag.kind": "curtain"}, r"restraints.airbag.kind: unknown airbag kind 'curtain'.*driver, passenger"),
    ({"restraints.airbag.contact": ["head_shell", "nose"]}, r"restraints.airbag.contact: unknown occupant geometry 'nose'"),
    ({"restraints.airbag.direction": [0.0, 0.0, 0.0]}, r"restraints.airbag.direction: must not be zero"),
    ({"restraints.airbag.contact_law": "membrane"},
     r"restraints.airbag.contact_law: unknown airbag contact law 'membrane'.*lens, dimple"),
])
def test_reference_airbag_errors_name_the_key(override, message):
    with pytest.raises(ScenarioError, match=message):
        load("fmvss208_sled_48_unbelted", overrides=override)


def test_reference_second_bag_of_a_taken_kind_is_named():
    """[restraints.knee_airbag] declaring a second driver bag: its element's name is taken, and
    the message says so under that table."""
    with pytest.raises(ScenarioError, match=r"restraints.knee_airbag: .*'driver_airbag' is taken"):
        load("us_ncap_frontal_56", overrides={"restraints.knee_airbag.kind": "driver"})


def test_reference_belt_errors_name_the_key():
    with pytest.raises(ScenarioError, match=r"restraints.belt.kind: unknown belt kind 'four_point'.*three_point"):
        load("us_ncap_frontal_56", overrides={"restraints.belt.kind": "four_point"})
    with pytest.raises(ScenarioError, match=r"restraints.belt.torso: unknown geometry 'torso_shell'"):
        load("us_ncap_frontal_56", overrides={"restraints.belt.torso": "torso_shell"})
    with pytest.raises(ScenarioError, match=r"restraints.belt.shoulder_semi_axes: must be positive"):
        load("us_ncap_frontal_56", overrides={"restraints.belt.shoulder_center": [0.05, 0.12, 0.27],
                                              "restraints.belt.shoulder_semi_axes": [0.06, 0.0, 0.06]})


def test_belt_shoulder_option_adds_the_neck_shoulder_and_clavicle_wraps():
    """``shoulder_center`` puts the shoulder ellipsoid on the torso's part, on the D-ring's
    side, and the belt over the neck, the shoulder and the clavicle before the chest."""
    sc = load("us_ncap_frontal_56", overrides={"restraints.belt.shoulder_center": [0.05, 0.12, 0.27]})
    names = [n[len("belt."):-len(".x")] for n in sc.model.output_names
             if n.startswith("belt.") and n.endswith(".x")]
    assert names[:7] == ["retractor", "d_ring", "neck", "shoulder", "clavicle", "chest", "buckle"]


def test_reference_a_dummys_belt_loads_its_sternum_through_the_chest_wrap_only():
    """A dummy's belt: only the chest wrap is carried by the sternum, bearing all its force (the
    Hybrid III's jacket); ``ribcage`` (the thorax's wraps sharing their force with the sternum)
    is the parametric human's default, off for a dummy unless set."""
    for ribcage, shares in ((None, {"chest": 1.0}), (True, {"shoulder": 1.0 / 3.0,
                                                             "chest": 1.0 / 3.0})):
        over = {} if ribcage is None else {"restraints.belt.ribcage": ribcage}
        sc = load("fmvss208_sled_48_belted", overrides=over)
        wraps = [p for p in sc.model.source.belts["belt"].points if hasattr(p, "carrier")]
        carried = {p.name: p.share for p in wraps if p.carrier == "sternum"}
        assert carried == pytest.approx(shares, abs=1e-3)


def test_analytic_airbag_volume_and_inflator_overrides_scale_the_preset():
    """``volume`` scales the preset's ellipsoid to that volume, ``inflator_mass`` its inflow."""
    import numpy as np
    from occupant.modeling.airbags import PASSENGER_BAG
    sc = load("fmvss208_sled_48_unbelted", overrides={"restraints.airbag.volume": 0.090,
                                                      "restraints.airbag.inflator_mass": 0.080})
    bag = sc.model.source.airbags["passenger_airbag"]
    a = np.asarray(bag.semi_axes, float)
    assert 4 / 3 * np.pi * a.prod() == pytest.approx(0.090, rel=1e-12)
    assert a / a[0] == pytest.approx(np.asarray(PASSENGER_BAG["semi_axes"]) / PASSENGER_BAG["semi_axes"][0])
    flow = np.asarray(bag.mass_flow, float)
    assert np.trapezoid(flow[:, 1], flow[:, 0]) == pytest.approx(0.080, rel=1e-12)


def test_analytic_airbag_fabric_stiffness_override_sets_the_stretch():
    """``fabric_stiffness`` (N/m) reaches the bag (its compliance 3 r / (2 E t), r the
    equal-volume sphere's radius, occupant.modeling.airbags.fabric_compliance); unset, the
    preset's inextensible fabric."""
    import numpy as np
    sc = load("fmvss208_sled_48_unbelted", overrides={"restraints.airbag.fabric_stiffness": 114e3})
    bag = sc.model.source.airbags["passenger_airbag"]
    assert bag.fabric_stiffness == 114e3
    r = np.prod(bag.semi_axes) ** (1 / 3)
    assert bag.compliance == pytest.approx(1.5 * r / 114e3, rel=1e-12)
    assert load("fmvss208_sled_48_unbelted").model.source.airbags["passenger_airbag"].compliance == 0.0


def test_reference_airbag_contact_law_option_changes_the_head_force():
    """``contact_law = "lens"`` (here through the --set form of the override) compiles the
    driver bag of euro_ncap_full_width_50 with the slack fabric's lens (the body's own
    cross-section, occupant.restraints.airbag.lens), the default "dimple" otherwise (the taut
    fabric's dimple, occupant.restraints.airbag_dimple): the head meets the bag at 19 ms while it
    unfolds (its front, punched out along its axis, reaches her face 4 ms after firing: 31 ms,
    the fabric then half taut, while it grew uniformly, issue 11 `bagunfold`), the dimple law's
    fabric then 5 % taut (the unfolded share), and from then the dimple, wider than the head's
    cross-section, pushes harder (the whole run: the bag on the head 2.2 kN against 1.0; 2.2
    against 1.1 and HIC15 447 against 177 before, occupant.restraints.airbag_dimple)."""
    short = ["solver.t_end=0.06"]
    dimple = load("euro_ncap_full_width_50", overrides=short)
    lens = load("euro_ncap_full_width_50", overrides=short + ["restraints.airbag.contact_law=lens"])
    assert dimple.model.source.airbags["driver_airbag"].contact_law == "dimple"
    # the driver bag's law only: her knee bag (branch fivefknee) keeps the default dimple in both
    laws = {n: [list(sc.model.airbags.contact_law)[sc.model.airbag_names.index(n)]
                for sc in (lens, dimple)] for n in ("driver_airbag", "knee_airbag")}
    assert laws == {"driver_airbag": [0, 1], "knee_airbag": [1, 1]}
    runs = [sc.run().results for sc in (lens, dimple)]
    force = [r.outputs["driver_airbag_head_shell.force"] for r in runs]
    t = runs[0].t
    np.testing.assert_array_equal(runs[1].t, t)
    apart = t < t[np.argmax(force[0] > 0)]   # before the head meets the bag, alike
    np.testing.assert_array_equal(force[1][apart], force[0][apart])
    assert not force[0][apart].any() and 0.018 < t[apart][-1] < 0.021   # measured 19.1 ms
    assert force[0].max() > 500.0
    assert force[1].max() > 1.2 * force[0].max()


def _overlapping_ellipsoids(asm, names):
    """Pairs of ``names`` (ellipsoids of one part) of which one's centre lies inside the other:
    they cover one region of the body."""
    def inside(a, b):
        ga, gb = asm.geometries[a], asm.geometries[b]
        ma, mb = asm.markers[ga.marker], asm.markers[gb.marker]
        local = mb.rotation.T @ (ma.position - mb.position) / gb.semi_axes
        return local @ local <= 1.0
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if inside(a, b) or inside(b, a)]


@pytest.mark.parametrize("name", sorted(p.stem for p in resolve("side_barrier").parent.glob("*.toml")))
def test_reference_one_body_region_crushes_a_surface_once(name):
    """Two ellipsoids covering one region of one segment against one surface each get the whole
    crush characteristic, so that surface pushes about twice as hard: knee sphere and shank
    shell (the knee sphere's centre lies 0.198 m down the 0.209 m semi-axis of the shank
    shell) read knee 6.7 kN + shank 6.4 kN per leg, femur 10.0 kN, on the knee bolster of
    fmvss208_sled_48_unbelted, and knee 3.6 kN + shank 1.5 kN per leg on side_barrier's door.
    Each leg meets the knee bolster through its knee sphere."""
    asm = load(name).model.source
    groups = {}
    for p in asm.contact_pairs.values():
        part = asm.markers[asm.geometries[p.geometry_a].marker].part
        groups.setdefault((part, p.geometry_b), []).append(p.geometry_a)
    for (part, surface), names in groups.items():
        assert not _overlapping_ellipsoids(asm, names), (part, surface, names)
    knees = [part for (part, surface) in groups if surface == "knee_bolster"]
    assert not knees or sorted(knees) == ["left_lower_leg", "right_lower_leg"], knees


@pytest.mark.parametrize("name", sorted(p.stem for p in resolve("side_barrier").parent.glob("*.toml")))
def test_reference_chin_meets_whatever_the_head_shell_meets(name):
    """The dummies' chin lies 33-38 mm outside their head shell (dummies/hybrid3_50m.toml), so
    a surface paired with the head shell alone lets the chin pass through it unseen: every
    surface or body the head shell is paired with is paired with the chin too (at main the
    chin met none of the interiors' surfaces; scenarios/HISTORY.md, branch chinpairs). The
    airbags are not: their contact lists name the head shell only (left, same section)."""
    asm = load(name).model.source
    pairs = {(p.geometry_a, p.geometry_b) for p in asm.contact_pairs.values()}
    missing = {b for a, b in pairs if a == "head_shell" and ("chin", b) not in pairs}
    assert not missing, missing


def test_reference_driver_knees_start_200_mm_from_the_knee_bolster():
    """Drivers of a sedan, a crossover and a pickup sat with their distal patellae 200 mm from
    the knee bolster on average, and FMVSS 208-positioned Hybrid IIIs sat like them fore-aft in
    the sedan (Atkinson, McCann, Reed et al., SAE 2009-01-0390): the seated 50M driver's knee
    spheres start 200 mm fore-aft behind the bolster (it stood 124 mm from them)."""
    from occupant.simulate import simulate
    sc = load("us_ncap_frontal_56")
    asm = sc.model.source
    res = simulate(sc.model, 2e-5, dt=1e-5, q0=sc.q0, integrator="euler", output_dt=1e-5)
    bolster = asm.geometries["knee_bolster"]
    gaps = []
    for side in ("left", "right"):
        knee = asm.geometries[f"{side}_knee_contact"]
        centre = res.body_poses[0, res.body_names.index(f"{side}_lower_leg"), :3, 3]
        # the bolster plane's x at the knee centre's height, less the sphere's front
        x_plane = bolster.point[0] - bolster.normal[2] / bolster.normal[0] * (centre[2] - bolster.point[2])
        gaps.append(x_plane - (centre[0] + knee.semi_axes[0]))
    assert np.mean(gaps) == pytest.approx(0.200, abs=0.003), gaps
    assert max(gaps) - min(gaps) < 0.01, gaps


def test_reference_legs_meet_each_other():
    """Where the legs swing free of a bolster (the 5th female's rebound, the side impact's inboard
    leg, the struck pedestrian), a pair holds the right thigh and shank against the left ones:
    without them the legs passed 42-59 mm through each other (report review)."""
    for name in ("euro_ncap_full_width_50", "side_barrier", "pedestrian_40"):
        asm = load(name).model.source
        segment = {g: asm.markers[geo.marker].part for g, geo in asm.geometries.items()
                   if geo.marker is not None}
        pairs = {(segment.get(p.geometry_a), segment.get(p.geometry_b))
                 for p in asm.contact_pairs.values()}
        for leg in ("upper_leg", "lower_leg"):
            assert (f"right_{leg}", f"left_{leg}") in pairs, (name, leg)


def test_reference_seated_occupant_starts_on_the_seat_not_inside_the_interior():
    """Every pair that pushes at the start is at most 2 mm deep (a plane pushes only within its
    bounds, so a deeper reported penetration elsewhere is no contact), and the pelvis sits on
    the seat cushion (within 5 mm of touching it): no body begins inside the vehicle. The
    posture as placed, unsettled: a scenario that settles at load (rear_whiplash, to set its
    backset on the settled dummy) starts with the pelvis resting 20 mm deep in the cushion foam
    under its weight."""
    from occupant.contact.compliant import signed_distances
    from occupant.simulate import simulate
    for name in SHIPPED:
        sc = load(name, overrides={"occupant.settle": 0.0})
        res = simulate(sc.model, 2e-5, dt=1e-5, q0=sc.q0, integrator="euler", output_dt=1e-5)
        pen = {n: res.outputs[f"{n}.penetration"][0] for n in sc.model.contact_names
               if res.outputs[f"{n}.normal_force"][0] > 0}
        heel = "left_heel" if "left_heel" in sc.model.source.geometries else "left_foot_shell"
        # the signed distances: the outputs read 0 apart (CONTACT_OUTPUTS, branch gapoutput)
        signed = signed_distances(sc.model, res.q[0])
        assert signed[f"{heel}__floor"] > -0.002, name   # heel on the floor
        worst = max(pen, key=pen.get, default=None)
        assert worst is None or pen[worst] < 0.002, (name, worst, pen[worst])
        # the pelvis's surfaces on the cushion: its flesh, or the 5F's buttocks (branch dummyfit)
        on_cushion = [f"{g}__seat_cushion.penetration" for g in ("pelvis_flesh", "left_buttock", "right_buttock")
                      if f"{g}__seat_cushion.penetration" in res.outputs]
        assert on_cushion and max(signed[k.split(".")[0]] for k in on_cushion) > -0.005, name


def _posture_scenarios(posture):
    """The shipped scenarios that seat their occupant in ``posture``."""
    from occupant.scenario import available_scenarios
    return [n for n in available_scenarios() if read_toml(resolve_shipped(n, "scenarios", "scenario"))
            .get("occupant", {}).get("posture") == posture]


def test_every_seated_driver_scenario_is_checked_for_its_heels():
    """The list below is every shipped driver_seated scenario (a new one joins the check)."""
    assert sorted(_posture_scenarios("driver_seated")) == sorted(DRIVER_SCENARIOS)


def test_every_seated_passenger_scenario_is_checked_for_its_heels():
    """The list below is every shipped passenger_seated scenario (a new one joins the check)."""
    assert sorted(_posture_scenarios("passenger_seated")) == sorted(PASSENGER_SCENARIOS)


def _heels_above_floor(sc):
    """{side: the heel's lowest point above the interior's floor (m)} as placed: the heel
    ellipsoid's (the Hybrid III's heel, a parametric human's foot shell, as
    occupant.human.posture names the heel) centre less its support along -z."""
    from occupant.dynamics import body_poses
    m = sc.model
    floor = next(s for s in sc.interior.surfaces if s.name == "floor")
    assert np.allclose(floor.normal, (0.0, 0.0, 1.0))
    poses = body_poses(m, m.make_data(), sc.q0)
    names = {g.name: g for g in m.geometries}
    out = {}
    for side in ("left", "right"):
        geo = names.get(f"{side}_heel") or names[f"{side}_foot_shell"]
        mk = m.marker(geo.marker)
        X = poses[m.marker_body[mk]]
        R = X[:3, :3] @ m.marker_R[mk]
        lowest = (X[:3, :3] @ m.marker_p[mk] + X[:3, 3])[2] - np.linalg.norm(R[2] * geo.semi_axes)
        out[side] = lowest - floor.point[2]
    return out


DRIVER_SCENARIOS = ["us_ncap_frontal_56", "aeb_precrash_frontal", "side_barrier",
                    "euro_ncap_full_width_50"]


@pytest.mark.parametrize("name", DRIVER_SCENARIOS)
def test_reference_driver_heels_start_on_the_floor(name):
    """Every seated driver's two heels start on the floor pan, as FMVSS 208 and NCAP place them
    (the right heel on the floor in the pedal's line, the left near the toe board): each heel
    ellipsoid's lowest point (its centre less its support along -z) within 0.5 mm of the
    interior's floor, as placed (unsettled), by driver_seated's heel_bottom targets alone (no
    scenario gives its own). Before (branch sideheels) driver_seated's half-way heel points put
    the 50M's right heel 5.5 mm above the carpet and the left 1.6 mm into it (side_barrier; US
    NCAP and AEB had their own targets), the 5F's right heel 1.7 mm above it."""
    sc = load(name, overrides={"occupant.settle": 0.0})
    assert "posture_targets" not in sc.data["occupant"], name
    for side, height in _heels_above_floor(sc).items():
        assert abs(height) < 5e-4, (name, side, height)


PASSENGER_SCENARIOS = ["fmvss208_sled_48_belted", "fmvss208_sled_48_unbelted", "rear_whiplash"]


@pytest.mark.parametrize("name", PASSENGER_SCENARIOS + ["human_sled_gs1_40"])
def test_reference_passenger_heels_start_on_the_floor(name):
    """Every seated passenger's two heels start on the floor, by passenger_seated's heel_bottom
    targets alone (no scenario gives its own), as the drivers' (above): each heel's lowest point
    within 0.05 mm of its interior's floor as placed (the IK meets its targets to 0.01 mm), for the
    Hybrid III 50M of the sleds and rear_whiplash and the parametric 50th male of GS1's sled (the
    validation case's sled with its [human]). Before (branch passheel) passenger_seated held a
    point on the heel's back at -0.32 m: the 50M's heels started 0.13 mm in the floor (then at
    -0.320 m), the human's 2.67 mm in GS1's (-0.328 m), pushing up 533 N each at the start."""
    if name == "human_sled_gs1_40":
        from pathlib import Path
        from occupant.human.validation import read_scenario
        case, path = read_scenario(name)
        overrides = {"occupant.human." + k: v for k, v in case["human"].items()}
        sc = load(Path(path).parent / case["sled"], overrides={**overrides, "occupant.settle": 0.0})
    else:
        sc = load(name, overrides={"occupant.settle": 0.0})
    assert sc.data["occupant"]["posture"] == "passenger_seated", name
    assert set(sc.data["occupant"].get("posture_targets", {})) <= {"human_thorax", "human_head"}, name
    for side, height in _heels_above_floor(sc).items():
        assert abs(height) < 5e-5, (name, side, height)


@pytest.mark.parametrize("name", ["euro_ncap_full_width_50", "fmvss208_sled_48_belted",
                                  "fmvss208_sled_48_unbelted", "rear_whiplash"])
def test_reference_seat_is_fitted_to_its_occupant_as_placed(name):
    """The seat files' rule (occupant.scenario.seat_fit): the cushion tangent to the occupant's
    pelvis flesh (the 5F's buttocks, on which her cushion bears since branch dummyfit) and its
    lower thigh, the other thigh on or above it, the back touching the
    pelvis flesh, as the posture places it (each gap, the ellipsoid's least distance to the
    plane, within 0.2 mm). vehicles/midsize_sedan_driver_05f.toml (the 5F, driver_seated): with
    her heels placed by their lowest points (sideheels) the old cushion stood 1.7 mm into her
    right thigh, which held her right heel 2.5 mm above the floor once settled, and the back 0.5
    mm off her. sled_buck_passenger.toml and whiplash_sled_seat.toml (the 50M, passenger_seated):
    until branch sledcushion the 15 deg cushion lay 17.3 mm under both thighs, so the heels held
    the legs up (200 N each settled, 1.8 legs' weight)."""
    from occupant.scenario.placement import plane_gap
    from occupant.scenario.seat_fit import PELVIS, THIGHS, on_cushion
    sc = load(name, overrides={"occupant.settle": 0.0})
    m, geos = sc.model, sc.model.source.geometries
    surfaces = {s.name: s for s in sc.interior.surfaces}

    def gap(geometry, surface):
        n = np.asarray(surfaces[surface].normal, float)
        return plane_gap(m, sc.q0, geos[geometry], n / np.linalg.norm(n),
                         np.asarray(surfaces[surface].point, float))
    thighs = sorted(gap(t, "seat_cushion") for t in THIGHS)
    seat = [gap(g, "seat_cushion") for g in on_cushion(m)]
    for what, value in (("pelvis on cushion", min(seat)),
                        ("lower thigh on cushion", thighs[0]), ("pelvis on back", gap(PELVIS, "seat_back"))):
        assert abs(value) < 2e-4, (name, what, value)
    assert thighs[1] > -2e-4, (name, thighs)


def test_analytic_seat_fit_spheres_and_ellipsoids():
    """occupant.scenario.seat_fit.tangent_cushion against closed forms. Spheres (centre c,
    radius r; lowest point along n: n.c - r): the plane tangent to a seat sphere and a leg sphere
    ahead of it has n.(c2 - c1) = r2 - r1, so with n = (-sin a, 0, cos a), dz cos a - dx sin a =
    L sin(phi - a) = dr, a = phi - asin(dr / L) (phi = atan2(dz, dx), L = |(dx, dz)|); of two legs
    the lower one sets it. Ellipsoids (axes-aligned, semi-axes A; lowest point n.c - |A n|):
    against the least n.x over 200,000 points on each surface, both touching the plane."""
    from occupant.scenario.seat_fit import cushion_normal, tangent_cushion
    sphere = lambda c, r: (lambda n: float(n @ np.asarray(c, float)) - r)   # noqa: E731
    seat, r1 = (0.0, 0.0, -0.05), 0.10
    for leg, r2 in (((0.35, 0.0, 0.09), 0.07), ((0.30, 0.0, -0.02), 0.09), ((0.25, 0.0, 0.10), 0.06)):
        dx, dz, dr = leg[0] - seat[0], leg[2] - seat[2], r2 - r1
        expected = math.atan2(dz, dx) - math.asin(dr / math.hypot(dx, dz))
        angle, d = tangent_cushion(sphere(seat, r1), [sphere(leg, r2)])
        assert angle == pytest.approx(expected, abs=1e-9)
        assert d == pytest.approx(sphere(seat, r1)(cushion_normal(expected)), abs=1e-9)
    low, high = ((0.35, 0.1, 0.02), 0.07), ((0.35, -0.1, 0.05), 0.07)
    angle, _ = tangent_cushion(sphere(seat, r1), [sphere(*high), sphere(*low)])
    assert angle == pytest.approx(math.atan2(0.07, 0.35) - math.asin(-0.03 / math.hypot(0.35, 0.07)), abs=1e-9)

    rng = np.random.default_rng(3)
    u = rng.normal(size=(200_000, 3))
    u /= np.linalg.norm(u, axis=1)[:, None]
    bodies = [(np.array([0.0, 0.0, 0.0]), np.array([0.12, 0.17, 0.09])),
              (np.array([0.30, 0.09, 0.10]), np.array([0.25, 0.08, 0.07])),
              (np.array([0.30, -0.09, 0.12]), np.array([0.25, 0.08, 0.07]))]
    ellipsoid = lambda c, a: (lambda n: float(n @ c - np.linalg.norm(a * n)))   # noqa: E731
    angle, d = tangent_cushion(ellipsoid(*bodies[0]), [ellipsoid(*b) for b in bodies[1:]])
    n = cushion_normal(angle)
    sampled = [float(np.min((c + u * a) @ n)) for c, a in bodies]
    assert sampled[0] == pytest.approx(d, abs=2e-5)       # the seat touches the plane
    assert sampled[1] == pytest.approx(d, abs=2e-5)       # the lower leg touches it
    assert sampled[2] > d + 1e-3                          # the other lies above it


def test_analytic_pulse_shapes_lose_their_delta_v():
    """crash-domain-facts.md 4.2: a half-sine A sin(pi t / T) loses 2 A T / pi; a trapezoid
    with rise r, plateau p, fall f loses A (p + (r + f) / 2)."""
    c = FileChecker("s.toml", ScenarioError)
    p = read_pulse(c, {"shape": "half_sine", "delta_v_kmh": 48.0, "duration": 0.1}, "pulse", ".", 0.15)
    assert p.delta_v == pytest.approx(48.0 * KMH, rel=1e-6)          # trapezoidal rule at 10 kHz
    assert p.peak == pytest.approx(math.pi * 48 * KMH / (2 * 0.1), rel=1e-6)
    assert p.speed0 == pytest.approx(48 * KMH)
    q = read_pulse(c, {"shape": "half_sine", "peak_g": 20.0, "duration": 0.1, "start": 0.01}, "pulse", ".", 0.15)
    assert q.delta_v == pytest.approx(2 * 20 * G0 * 0.1 / math.pi, rel=1e-6)
    assert q.a[np.searchsorted(q.t, 0.0099)] == 0.0                   # nothing before its start
    tr = read_pulse(c, {"shape": "trapezoid", "delta_v_kmh": 56.0, "peak_g": 30.0, "rise": 0.02,
                        "fall": 0.03}, "pulse", ".", 0.15)
    assert tr.delta_v == pytest.approx(56 * KMH, rel=1e-12) and tr.peak == pytest.approx(30 * G0)
    with pytest.raises(ScenarioError, match="pulse.peak_g: rise 0.2 s and fall 0.2 s"):
        read_pulse(c, {"shape": "trapezoid", "delta_v_kmh": 10.0, "peak_g": 30.0, "rise": 0.2,
                       "fall": 0.2}, "pulse", ".", 0.15)


def test_reference_a_pulse_tables_t_0_is_the_crash_start_whatever_its_first_row(tmp_path):
    """(usercheck7) A CSV or ISO-MME pulse was read from its first row: a test's pre-trigger
    rows (from t = -0.02 s here; NHTSA's ISO-MME channels start at -0.05 s or so) were shifted to
    the run's start, so the crash (the table's t = 0) ran 20 ms into the run while the run's
    crash start (Pulse.start: the human neck lets go there) stayed 0, unsaid. Now a table's t = 0
    lies at pulse.start: rows before -start are refused with the start that runs them, and with
    it each row lies at its time + start, for a CSV and an ISO-MME channel alike."""
    from occupant import Channel
    from occupant.io import isomme
    t = np.round(np.arange(-0.02, 0.0801, 1e-3), 6)
    a = np.where(t > 0, -25.0 * np.sin(np.pi * np.clip(t, 0, None) / 0.08), 0.0)  # g
    (tmp_path / "p.csv").write_text("time [s],acceleration [g]\n" + "".join(f"{float(x)!r},{float(y)!r}\n" for x, y in zip(t, a)))
    isomme.write([Channel("sled x", t, a, "g", code="S0SLED000000ACXD")], tmp_path / "mme", "T1")
    c = FileChecker(tmp_path / "s.toml", ScenarioError)
    tables = ({"shape": "csv", "file": "p.csv"}, {"shape": "isomme", "file": "mme", "channel": "S0SLED000000ACXD"})
    for table, key in zip(tables, ("file", "channel")):
        with pytest.raises(ScenarioError, match=rf"pulse.{key}: .*its first row is at t = -0.02 s, before the run's "
                                                r"start .*\(accepted: .*pulse.start = 0.02 runs the rows before t = 0"):
            read_pulse(c, table, "pulse", c.file, 0.1)
        p = read_pulse(c, {**table, "start": 0.03}, "pulse", c.file, 0.15)
        assert p.start == 0.03
        peak = np.argmax(-p.a)                                   # the table's peak at 40 ms, run 70 ms
        assert p.t[peak] == pytest.approx(0.07, abs=1e-9) and -p.a[peak] == pytest.approx(25.0 * G0, rel=1e-6)
        assert np.all(p.a[p.t < 0.03 - 1e-9] == 0.0)              # nothing before the crash's start
    # a table from t = 0.01: its first row at 0.01 s of the run, not at 0
    (tmp_path / "late.csv").write_text("time [s],acceleration [g]\n0.01,0\n0.05,-20\n0.09,0\n")
    q = read_pulse(c, {"shape": "csv", "file": "late.csv"}, "pulse", c.file, 0.1)
    assert q.t[np.argmax(-q.a)] == pytest.approx(0.05, abs=1e-12)


def test_analytic_a_coarse_pulse_tables_duration_is_its_base(tmp_path):
    """(usercheck10) A triangle of three rows (0 g, 30 g at 50 ms, 0 g at 100 ms) printed
    "duration 0 ms": only its middle row exceeds 1 % of the peak. Read linear between its rows,
    as the run reads it, |a| passes 0.3 g at 0.5 ms and at 99.5 ms: 99 ms; a half-sine
    A sin(pi t / T) passes 1 % of A at T asin(0.01) / pi from either end."""
    (tmp_path / "tri.csv").write_text("time [s],acceleration [g]\n0,0\n0.05,-30\n0.1,0\n")
    c = FileChecker(tmp_path / "s.toml", ScenarioError)
    p = read_pulse(c, {"shape": "csv", "file": "tri.csv"}, "pulse", c.file, 0.15)
    assert p.duration == pytest.approx(0.099, abs=1e-12)
    assert "duration 99 ms" in p.describe()
    h = read_pulse(c, {"shape": "half_sine", "peak_g": 20.0, "duration": 0.1}, "pulse", ".", 0.15)
    assert h.duration == pytest.approx(0.1 * (1 - 2 * math.asin(0.01) / math.pi), abs=1e-6)


def test_analytic_a_pulse_starting_across_zero_lasts_from_its_signed_crossing(tmp_path):
    """A table whose first row is a small positive value (0.2 g, under 1 % of its -40 g peak)
    and whose next row, 10 ms on, is -40 g: read linear, a passes -0.4 g at 0.6 / 40.2 of the
    10 ms, 0.149 ms, not where |a| interpolated between the rows' magnitudes passes 0.4 g
    (0.2 / 39.8 of 10 ms, 0.0503 ms)."""
    (tmp_path / "x.csv").write_text("time [s],acceleration [g]\n0,0.2\n0.01,-40\n0.09,-40\n0.1,0\n")
    c = FileChecker(tmp_path / "s.toml", ScenarioError)
    p = read_pulse(c, {"shape": "csv", "file": "x.csv"}, "pulse", c.file, 0.15)
    assert p.duration == pytest.approx(0.1 - 0.01 * 0.6 / 40.2 - 0.01 * 0.01, abs=1e-12)


def test_reference_pulse_from_csv_and_isomme(tmp_path):
    from occupant import Channel
    from occupant.io import isomme
    t = np.arange(0, 0.0801, 1e-4)
    a = -25.0 * np.sin(np.pi * t / 0.08)  # g
    (tmp_path / "p.csv").write_text("time [s],acceleration [g]\n" + "".join(f"{float(x)!r},{float(y)!r}\n" for x, y in zip(t, a)))
    c = FileChecker(tmp_path / "s.toml", ScenarioError)
    p = read_pulse(c, {"shape": "csv", "file": "p.csv"}, "pulse", c.file, 0.1)
    expected = -np.trapezoid(a * G0, t)
    assert p.delta_v == pytest.approx(expected, rel=1e-12)
    isomme.write([Channel("sled x", t, a, "g", code="S0SLED000000ACXD")], tmp_path / "mme", "T1")
    q = read_pulse(c, {"shape": "isomme", "file": "mme", "channel": "S0SLED000000ACXD"}, "pulse", c.file, 0.1)
    assert q.delta_v == pytest.approx(expected, rel=1e-12)
    with pytest.raises(ScenarioError, match=r"pulse.channel: no channel 'S0SLED000000ACYD'.*accepted: S0SLED000000ACXD"):
        read_pulse(c, {"shape": "isomme", "file": "mme", "channel": "S0SLED000000ACYD"}, "pulse", c.file, 0.1)
    # a table of positive decelerations, turned by scale = -1 (without it: refused, above)
    (tmp_path / "pos.csv").write_text("time [s],acceleration [g]\n" + "".join(f"{float(x)!r},{float(-y)!r}\n" for x, y in zip(t, a)))
    r = read_pulse(c, {"shape": "csv", "file": "pos.csv", "scale": -1.0}, "pulse", c.file, 0.1)
    assert r.delta_v == pytest.approx(expected, rel=1e-12)
    with pytest.raises(ScenarioError, match=r"pulse.file: CSV pos.csv: the vehicle gains 45.0 km/h along direction"):
        read_pulse(c, {"shape": "csv", "file": "pos.csv"}, "pulse", c.file, 0.1)
    isomme.write([Channel("sled x", t, -a, "g", code="S0SLED000000ACXD")], tmp_path / "pos", "T2")
    with pytest.raises(ScenarioError, match=r"pulse.channel: ISO-MME .* the vehicle gains 45.0 km/h"):
        read_pulse(c, {"shape": "isomme", "file": "pos", "channel": "S0SLED000000ACXD"}, "pulse", c.file, 0.1)
    # (usercheck) m/s^2 under a [g] header: the 45 km/h pulse read as 9.81 times faster
    (tmp_path / "ms2.csv").write_text("time [s],acceleration [g]\n" + "".join(f"{float(x)!r},{float(y * G0)!r}\n" for x, y in zip(t, a)))
    with pytest.raises(ScenarioError, match=r"pulse.file: CSV ms2.csv: the vehicle loses 441 km/h .* m/s\^2 under a \[g\] header\?"):
        read_pulse(c, {"shape": "csv", "file": "ms2.csv"}, "pulse", c.file, 0.1)
    assert read_pulse(c, {"shape": "csv", "file": "ms2.csv", "scale": 1 / G0}, "pulse", c.file, 0.1).delta_v \
        == pytest.approx(expected, rel=1e-12)
    with pytest.raises(ScenarioError, match=r"pulse.shape: half-sine 300.0 g, 100 ms: the vehicle loses 674 km/h"):
        read_pulse(c, {"shape": "half_sine", "peak_g": 300.0, "duration": 0.1}, "pulse", c.file, 0.15)
    (tmp_path / "bad.csv").write_text("t,a\n0,0\n1,1\n")
    with pytest.raises(ScenarioError, match=r"pulse.file: bad.csv: the first row must name the columns with units"):
        read_pulse(c, {"shape": "csv", "file": "bad.csv"}, "pulse", c.file, 0.1)


def test_reference_a_csv_pulse_in_ms_as_a_test_exports_it_is_the_same_pulse(tmp_path):
    """(usercheck9) A test's data acquisition exports time in ms: ``time [ms]`` was refused for
    its header alone ("the first row must name the columns with units"), though it names its
    unit. Now read in ms: the table of a test (non-uniform steps, m/s^2, pre-trigger rows from
    -20 ms run with pulse.start = 0.02) is the same pulse as its [s] twin, to the last bit."""
    rng = np.random.default_rng(9)
    t_ms = np.unique(np.round(np.concatenate([np.arange(-20.0, 0.0, 0.5), rng.uniform(0.0, 120.0, 400)]), 3))
    a = np.where((t_ms > 0) & (t_ms < 100), -209.4 * np.sin(np.pi * t_ms / 100), 0.0)   # m/s^2
    (tmp_path / "ms.csv").write_text("time [ms],acceleration [m/s^2]\n" + "".join(
        f"{float(x)!r},{float(y)!r}\n" for x, y in zip(t_ms, a)))
    (tmp_path / "s.csv").write_text("time [s],acceleration [m/s^2]\n" + "".join(
        f"{float(x)!r},{float(y)!r}\n" for x, y in zip(t_ms * 1e-3, a)))
    c = FileChecker(tmp_path / "s.toml", ScenarioError)
    p_ms = read_pulse(c, {"shape": "csv", "file": "ms.csv", "start": 0.02}, "pulse", c.file, 0.15)
    p_s = read_pulse(c, {"shape": "csv", "file": "s.csv", "start": 0.02}, "pulse", c.file, 0.15)
    np.testing.assert_allclose(p_ms.t, p_s.t, rtol=1e-15, atol=1e-18)
    np.testing.assert_array_equal(p_ms.a, p_s.a)
    # delta-v of the half-sine, 2 A T / pi = 48 km/h within the table's coarse steps
    assert p_ms.delta_v == pytest.approx(2 * 209.4 * 0.1 / np.pi, rel=2e-3)
    assert p_ms.t[np.argmin(p_ms.a)] == pytest.approx(0.02 + 0.05, abs=1e-3)   # the crash at pulse.start
    with pytest.raises(ScenarioError, match=r"back.csv: line 4: time 0.5 ms does not increase \(the row before: 1 ms\)"):
        (tmp_path / "back.csv").write_text("time [ms],acceleration [g]\n0,0\n1,-1\n0.5,0\n")
        read_pulse(c, {"shape": "csv", "file": "back.csv"}, "pulse", c.file, 0.15)
    (tmp_path / "us.csv").write_text("time [ms],acceleration [g]\n0,0\n50000,-20\n100000,0\n")
    with pytest.raises(ScenarioError, match=r"us.csv: its times span 100 s, longer than any run .*: times in us\? "
                                            r"\(accepted: times in ms, as the header time \[ms\] says"):
        read_pulse(c, {"shape": "csv", "file": "us.csv"}, "pulse", c.file, 0.15)
    # (usercheck10) times in s under a [ms] header: a 100 ms triangle read as 0.1 ms ran, printed
    # "delta-v 0.1 km/h ... duration 0 ms", and its run carried no crash
    (tmp_path / "sec.csv").write_text("time [ms],acceleration [g]\n0,0\n0.05,-30\n0.1,0\n")
    with pytest.raises(ScenarioError, match=r"sec.csv: its times span 0.1 ms, shorter than any crash pulse .*: "
                                            r"times in s\? \(accepted: a pulse spanning >= 5 ms, times in ms"):
        read_pulse(c, {"shape": "csv", "file": "sec.csv"}, "pulse", c.file, 0.15)


def test_analytic_an_edr_velocity_change_table_is_the_pulse_that_changes_the_velocity_so(tmp_path):
    """(usercheck11) An event data recorder's download gives the crash as the vehicle's velocity
    change at 10 ms (``time [ms],delta-v [km/h]``): it was refused ("the first row must name the
    columns with units ... accepted: time [s] (or [ms]),acceleration [g]"), leaving the user to
    differentiate it. Now read as the velocity change: the run's B0 velocity (the table's
    accelerations integrated as BaseMotion reads them, linear between rows) is the EDR's at h =
    0.1 ms after every row to round-off and within |a[k+1] - a[k]| h / 4 at the row; between rows
    the held acceleration Dv / Dt; km/h, m/s and mph the same pulse; a table gaining speed refused."""
    t_ms = np.arange(0.0, 260.0, 10.0)
    dv = np.where(t_ms < 110, -45.0 * (1 - np.cos(np.pi * t_ms / 110)) / 2, -45.0)   # km/h
    (tmp_path / "edr.csv").write_text("time [ms],delta-v [km/h]\n" + "".join(
        f"{float(x)!r},{float(y)!r}\n" for x, y in zip(t_ms, dv)))
    (tmp_path / "edr_mph.csv").write_text("time [s],delta-v [mph]\n" + "".join(
        f"{float(x) * 1e-3!r},{float(y) / 3.6 / 0.44704!r}\n" for x, y in zip(t_ms, dv)))
    c = FileChecker(tmp_path / "s.toml", ScenarioError)
    for start in (0.0, 0.02):
        p = read_pulse(c, {"shape": "csv", "file": "edr.csv", "start": start}, "pulse", c.file, 0.3)
        assert p.source == "CSV edr.csv (velocity change)"
        motion = p.base_motion()   # B0's velocity change as the run has it (m/s)

        def v(s):
            return np.array([motion.velocity(x)[0] for x in s]) - p.speed0
        rows = start + t_ms * 1e-3
        after = rows[1:] + 1e-4   # the table's velocity, linear between rows, 0.1 ms after each row
        np.testing.assert_allclose(v(after), np.interp(after, rows, dv / 3.6), rtol=0, atol=1e-12)
        held = np.diff(dv / 3.6) / 0.01   # m/s^2 between rows
        np.testing.assert_allclose(np.interp(rows[:-1] + 0.005, p.t, p.a), held, rtol=0, atol=1e-9)
        at_row = np.abs(v(rows[1:-1]) - dv[1:-1] / 3.6)
        assert np.all(at_row <= np.abs(np.diff(held)) * 1e-4 / 4 + 1e-12)
        assert np.all(p.a[p.t > rows[-1] + 1e-4] == 0) and np.all(p.a[p.t < start - 1e-12] == 0)
        assert p.delta_v == pytest.approx(45.0 / 3.6, abs=1e-12)
        assert p.speed0 == pytest.approx(45.0 / 3.6)   # default speed: the delta-v
    mph = read_pulse(c, {"shape": "csv", "file": "edr_mph.csv"}, "pulse", c.file, 0.3)
    ms = read_pulse(c, {"shape": "csv", "file": "edr.csv"}, "pulse", c.file, 0.3)
    np.testing.assert_allclose(mph.t, ms.t, rtol=0, atol=1e-15)
    np.testing.assert_allclose(mph.a, ms.a, rtol=1e-12, atol=1e-9)
    (tmp_path / "gain.csv").write_text("time [ms],delta-v [km/h]\n0,0\n50,20\n100,30\n")
    with pytest.raises(ScenarioError, match=r"CSV gain.csv \(velocity change\): the vehicle gains 30.0 km/h"):
        read_pulse(c, {"shape": "csv", "file": "gain.csv"}, "pulse", c.file, 0.3)


def test_reference_a_csv_pulse_header_with_units_in_parentheses_is_the_bracketed_one(tmp_path):
    """(usercheck12) An EDR's or CDR tool's export writes its header "Time (ms),Delta-V (km/h)":
    it was refused ("the first row must name the columns with units"), though the units are the
    ones read in brackets. Now units in parentheses (any case, the last pair in a cell, "sec" and
    "msec" for s and ms) are read as in brackets: the same pulse to the last bit; a unit named
    but not read is said as that column's unit, with the units it reads."""
    t_ms = np.arange(0.0, 160.0, 10.0)
    dv = np.where(t_ms < 110, -45.0 * (1 - np.cos(np.pi * t_ms / 110)) / 2, -45.0)   # km/h
    rows = "".join(f"{float(x)!r},{float(y)!r}\n" for x, y in zip(t_ms, dv))
    c = FileChecker(tmp_path / "s.toml", ScenarioError)
    (tmp_path / "brackets.csv").write_text("time [ms],delta-v [km/h]\n" + rows)
    ref = read_pulse(c, {"shape": "csv", "file": "brackets.csv"}, "pulse", c.file, 0.2)
    for n, head in enumerate(["Time (ms),Delta-V (km/h)", "Time ( MSEC ),\"Delta-V, longitudinal (KM/H)\"",
                              "time (msec),delta-v (kph)"]):   # (the second: usercheck11's CDR header's form)
        (tmp_path / f"p{n}.csv").write_text(head + "\n" + rows)
        p = read_pulse(c, {"shape": "csv", "file": f"p{n}.csv"}, "pulse", c.file, 0.2)
        np.testing.assert_array_equal(p.t, ref.t)
        np.testing.assert_array_equal(p.a, ref.a)
        assert p.source == f"CSV p{n}.csv (velocity change)"
    mph = "".join(f"{float(x)!r},{float(y) / 3.6 / 0.44704!r}\n" for x, y in zip(t_ms, dv))
    (tmp_path / "cdr.csv").write_text("Time (msec),Longitudinal Delta-V (MPH)\n" + mph)   # (usercheck11's)
    cdr = read_pulse(c, {"shape": "csv", "file": "cdr.csv"}, "pulse", c.file, 0.2)
    np.testing.assert_allclose(cdr.a, ref.a, rtol=1e-12, atol=1e-9)
    g_rows = "".join(f"{float(x) * 1e-3!r},{float(-20.0 * np.sin(np.pi * x / 150))!r}\n" for x in t_ms)
    (tmp_path / "g_brackets.csv").write_text("time [s],acceleration [g]\n" + g_rows)
    (tmp_path / "g_parens.csv").write_text("Time (sec),Acceleration (G)\n" + g_rows)
    np.testing.assert_array_equal(read_pulse(c, {"shape": "csv", "file": "g_parens.csv"}, "pulse", c.file, 0.2).a,
                                  read_pulse(c, {"shape": "csv", "file": "g_brackets.csv"}, "pulse", c.file, 0.2).a)
    (tmp_path / "ft.csv").write_text("Time (ms),Delta-V (ft/s)\n" + rows)
    with pytest.raises(ScenarioError, match=r"pulse.file: ft.csv: header 'Delta-V \(ft/s\)': unit 'ft/s' is not one "
                                            r"it reads for the second column \(accepted: g, .* \(an acceleration\) or "
                                            r"km/h, kph, m/s, mph \(a velocity change\), in brackets or parentheses\)$"):
        read_pulse(c, {"shape": "csv", "file": "ft.csv"}, "pulse", c.file, 0.2)
    (tmp_path / "us.csv").write_text("Time (us),Delta-V (km/h)\n" + rows)
    with pytest.raises(ScenarioError, match=r"us.csv: header 'Time \(us\)': unit 'us' is not one it reads for the "
                                            r"time column \(accepted: s, ms, sec, msec, in brackets or parentheses\)$"):
        read_pulse(c, {"shape": "csv", "file": "us.csv"}, "pulse", c.file, 0.2)
    (tmp_path / "none.csv").write_text("Time,Delta-V\n" + rows)
    with pytest.raises(ScenarioError, match=r"none.csv: the first row must name the columns with units, got "
                                            r"\['Time', 'Delta-V'\] \(accepted: .*; each unit in brackets or parentheses\)$"):
        read_pulse(c, {"shape": "csv", "file": "none.csv"}, "pulse", c.file, 0.2)


def test_reference_a_key_in_another_table_says_which_table_takes_it(tmp_path, capsys):
    """(usercheck9) ``load_limit`` written under [pulse] (in a file, a --set or a --vary) was
    "unknown key (accepted: shape, delta_v_kmh, ...)": the user was left to find the table that
    takes it. Now the tables that have a key of that name follow what is accepted; a key no table
    has, or an unknown key beside a --set shape, reads as before."""
    path = _scenario_copy(tmp_path, edit=lambda s: s.replace("[pulse]\n", "[pulse]\nload_limit = 4000.0\n", 1))
    assert main(["run", str(path), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err == (f"occupant: error: {path}: pulse.load_limit: unknown key (accepted: shape, delta_v_kmh, "
                   "peak_g, duration, speed_kmh, start, direction; load_limit is a key of [restraints.belt])\n"), err
    with pytest.raises(ScenarioError, match=r"\(--set load_limit\): load_limit: unknown key \(accepted: kind, .*, "
                                            r"outputs; load_limit is a key of \[restraints.belt\]\)$"):
        load("fmvss208_sled_48_belted", overrides={"load_limit": 4000.0})
    with pytest.raises(ScenarioError, match=r"pulse.friction: unknown key \(accepted: shape, .*, direction; friction "
                                            r"is a key of \[restraints.belt\], \[contact_characteristic.NAME\]\)$"):
        load("fmvss208_sled_48_belted", overrides={"pulse.friction": 0.3})
    with pytest.raises(ScenarioError, match=r"solver.body: unknown key \(accepted: t_end, integrator, dt, output_dt; "
                                            r"body is a key of \[\[sensor\]\]\)$"):   # (as a file writes it)
        load("fmvss208_sled_48_belted", overrides={"solver.body": "head"})
    with pytest.raises(ScenarioError, match=r"restraints.belt.colour: unknown key \(accepted: enabled, [^;]*\)$"):
        load("fmvss208_sled_48_belted", overrides={"restraints.belt.colour": 3})
    # an error made again from another (said_by_override) keeps one hint
    again = ScenarioError("f.toml (--set pulse)", "pulse.load_limit", "unknown key",
                          ScenarioError("f.toml", "pulse.load_limit", "unknown key", "shape").accepted)
    assert str(again) == "f.toml (--set pulse): pulse.load_limit: unknown key (accepted: shape; load_limit is a key of [restraints.belt])"


def test_reference_an_isomme_pulse_that_is_no_test_says_what_it_is(tmp_path, capsys):
    """(usercheck3) An ISO-MME pulse given a CSV file was read as the CSV's folder: "path: p.csv
    holds 2 .mme files; expected exactly one" (two tests in folders beside it), no "accepted";
    a folder without a .mme the same "path: ..." words. Now what the file or folder is, and what
    is accepted, in one line."""
    from occupant import Channel
    from occupant.io import isomme
    t = np.arange(0, 0.01, 1e-4)
    for test in ("A", "B"):
        isomme.write([Channel("sled x", t, -t, "g", code="S0SLED000000ACXD")], tmp_path / "both" / test, test)
    (tmp_path / "p.csv").write_text("time [s],acceleration [g]\n0,0\n0.1,-1\n")
    (tmp_path / "empty").mkdir()
    accepted = "(accepted: an ISO-MME test folder (one .mme file), its .mme file or a .zip of it)"
    for name, said in (("p.csv", "p.csv: a .csv file, neither a .mme file nor a .zip"),
                       ("empty", "empty: a folder holding 0 .mme files, not one"),
                       ("both", "both: a folder holding 2 .mme files (A/A.mme, B/B.mme), not one")):
        path = _scenario_copy(tmp_path, edit=lambda s: s.replace(
            'shape = "half_sine"\ndelta_v_kmh = 48.0\nduration = 0.100',
            f'shape = "isomme"\nfile = "{name}"\nchannel = "S0SLED000000ACXD"'))
        assert main(["run", str(path), "--out", str(tmp_path / "out")]) == 2
        err = capsys.readouterr().err
        assert err == f"occupant: error: {path}: pulse.file: {said} {accepted}\n", err
    with pytest.raises(isomme.IsoMmeError, match=r"^p.csv: a .csv file, neither a .mme file nor a .zip$"):
        isomme.read(tmp_path / "p.csv")


def test_reference_a_set_value_replaces_a_file_value_of_the_wrong_type(tmp_path, capsys):
    """(usercheck3) ``t_end = "0.15"`` (a string) in the file with ``--set solver.t_end=0.002``
    blamed the --set ("the scenario has a string here ('0.15'), got 0.002"), though the value the
    run takes is the --set's, which the key accepts: now it replaces the file's. Without it, the
    file's value is refused naming the file; a --set the key refuses is still refused."""
    path = _scenario_copy(tmp_path, edit=lambda s: s.replace("t_end = 0.15 ", 't_end = "0.15" '))
    assert load(path, overrides={"solver.t_end": 0.002}).data["solver"]["t_end"] == 0.002
    with pytest.raises(ScenarioError, match=r"^[^(]*fmvss208_sled_48_unbelted.toml: solver.t_end: expected a "
                                            r"finite number, got '0.15'"):
        load(path)
    with pytest.raises(ScenarioError, match=r"\(--set solver.t_end\): solver.t_end: expected a finite number, got 'soon'"):
        load(path, overrides=["solver.t_end=soon"])
    # a key the registry does not know keeps the type check
    with pytest.raises(OverrideError, match=r"the scenario has a number here"):
        apply_overrides({"x": {"y": 1.0}}, {"x.y": "text"})


@pytest.mark.parametrize("name, content, message", [
    ("one.csv", b"time [s],acceleration [g]\n0.0\n0.1\n", "one.csv: line 2: '0.0' is not two numbers"),
    ("mixed.csv", b"time [s],acceleration [g]\n0.0,1.0\n0.1\n", "mixed.csv: line 3: '0.1' is not two numbers"),
    ("head.csv", b"time [s],acceleration [g]\n", "head.csv: 0 row(s) of data"),
    ("empty.csv", b"", "empty.csv: an empty file (no header, no rows)"),   # (usercheck7: "got []")
    ("comments.csv", b"# only a note\n\n", "comments.csv: an empty file (no header, no rows)"),
    # (usercheck) a row of three values was read as its first two, a third column ignored; a
    # NaN and a time going back were "need >= 2 rows with increasing, finite times", no line named
    ("three.csv", b"time [s],acceleration [g]\n# note\n0.0,1.0\n0.1,2.0,3.0\n", "three.csv: line 4: "
     "'0.1,2.0,3.0' is not two numbers"),
    ("wide.csv", b"time [s],acceleration [g],other [g]\n0.0,1.0,0\n0.1,2.0,0\n", "wide.csv: the first "
     "row must name the columns with units, got ['time [s]', 'acceleration [g]', 'other [g]']"),
    ("nan.csv", b"time [s],acceleration [g]\n0.0,1.0\n0.1,nan\n", "nan.csv: line 3: '0.1,nan' is not finite"),
    ("back.csv", b"time [s],acceleration [g]\n0.0,1.0\n0.2,2.0\n0.1,1.0\n", "back.csv: line 4: time 0.1 s "
     "does not increase (the row before: 0.2 s)"),
    # (usercheck5) positive decelerations ran the sled from 48 to 83 km/h; times in ms under a
    # [s] header a 100 s pulse of which the run saw 0.15 s: the sled kept its speed; both unsaid
    ("pos.csv", b"time [s],acceleration [g]\n0.0,0.0\n0.05,20.0\n0.1,0.0\n", "CSV pos.csv: the vehicle "
     "gains 35.3 km/h along direction over the pulse; a crash pulse slows it"),
    ("ms.csv", b"time [s],acceleration [g]\n0,0\n50,-20\n100,0\n", "ms.csv: its times span 100 s, longer "
     "than any run (solver.t_end <= 10 s): times in ms?"),
    ("pulse.xlsx", b"PK\x03\x04\xff\xfe\x80\x81", "pulse.xlsx: not a UTF-8 text file"),
    ("text.mme", b"this is not\nan mme file\n", "text.mme: no channels read from it"),
])
def test_reference_damaged_pulse_files_name_the_file_and_key(tmp_path, capsys, name, content, message):
    """A pulse file ``occupant run`` cannot read: one line with the scenario, pulse.file and the
    file's name, exit code 2 (a one-column CSV was an IndexError, a binary one a bare codec
    message naming neither)."""
    (tmp_path / name).write_bytes(content)
    pulse = (f'shape = "isomme"\nfile = "{name}"\nchannel = "10VEHC0000ACXD"' if name.endswith(".mme")
             else f'shape = "csv"\nfile = "{name}"')
    path = _scenario_copy(tmp_path, edit=lambda s: s.replace(
        'shape = "half_sine"\ndelta_v_kmh = 48.0\nduration = 0.100', pulse))
    assert main(["run", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"occupant: error: {path}: pulse.file: {message}") and "(accepted: " in err, err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "out").exists()


def test_reference_contact_tables_one_reader_with_key_paths():
    c = FileChecker("f.toml", InputFileError)
    data = {"contact_characteristic": {"foam": {"table": [[0.0, 0.0], [0.01, 100.0]], "friction": 0.5}},
            "contact": [{"a": ["x", "y"], "b": "wall"}, {"a": "x", "b": "floor", "characteristic": "foam",
                                                         "name": "x_floor"}]}
    known, pairs = read_contacts(c, data, ["x", "y", "wall", "floor"], defaults={"wall": "foam"})
    assert [p.name for p in pairs] == ["x__wall", "y__wall", "x_floor"]
    assert pairs[0].characteristic is known["foam"] and known["foam"].friction == 0.5
    bad = {"contact_characteristic": {"foam": {"stiffness": 1.0, "absorption": 1.5}}}
    with pytest.raises(InputFileError, match=r"^f.toml: contact_characteristic.foam.absorption: got 1.5 \(accepted: 0 <= absorption < 1\)$"):
        read_contacts(c, bad, [])
    with pytest.raises(InputFileError, match=r"contact\[0\].characteristic: missing, and surface 'wall' names no default"):
        read_contacts(c, {"contact": [{"a": "x", "b": "wall"}]}, ["x", "wall"])
    with pytest.raises(InputFileError, match=r"contact_characteristic.foam.table: expected >= 2 rows"):
        read_contacts(c, {"contact_characteristic": {"foam": {"table": [[0.0, 0.0]]}}}, [])
    # the recovering hysteresis: a boolean, and only with an absorption to spend
    seat = {"contact_characteristic": {"foam": {"stiffness": 1.0, "absorption": 0.45, "recovers": True}}}
    assert read_contacts(c, seat, [])[0]["foam"].recovers is True
    with pytest.raises(InputFileError, match=r"^f.toml: contact_characteristic.foam.recovers: unloading "
                                             r"to the origin is a hysteresis law, and absorption is 0.0 "
                                             r"\(accepted: recovers with 0 < absorption < 1, or recovers = false\)$"):
        read_contacts(c, {"contact_characteristic": {"foam": {"stiffness": 1.0, "recovers": True}}}, [])
    with pytest.raises(InputFileError, match=r"contact_characteristic.foam.recovers: expected true or false"):
        read_contacts(c, {"contact_characteristic": {"foam": {"stiffness": 1.0, "recovers": "yes"}}}, [])
    # a membrane (glass bulging round what presses it): a boolean, and only with a table, whose
    # depth is the bulge (occupant.integrate.divergence)
    glass = {"contact_characteristic": {"glass": {"table": [[0.0, 0.0], [0.2, 2e4]], "membrane": True}}}
    assert read_contacts(c, glass, [])[0]["glass"].membrane is True
    with pytest.raises(InputFileError, match=r"^f.toml: contact_characteristic.glass.membrane: a membrane's "
                                             r"bulge is its loading table's depth, and it has none "
                                             r"\(accepted: a loading table with membrane = true\)$"):
        read_contacts(c, {"contact_characteristic": {"glass": {"stiffness": 1.0, "membrane": True}}}, [])
    with pytest.raises(InputFileError, match=r"contact_characteristic.glass.membrane: expected true or false"):
        read_contacts(c, {"contact_characteristic": {"glass": {"table": [[0.0, 0.0], [0.2, 2e4]],
                                                               "membrane": 1}}}, [])


def test_identity_toml_writer_reads_back_the_same_scenario():
    for name in SHIPPED:
        data = read_toml(resolve(name))
        assert tomllib.loads(dumps(data)) == data


def test_identity_pulse_motion_table_equals_the_base_class_samples():
    """The vectorised table of a pulse's motion is BaseMotion's sample-by-sample spatial state."""
    c = FileChecker("s.toml", ScenarioError)
    p = read_pulse(c, {"shape": "half_sine", "delta_v_kmh": 56.0, "duration": 0.08, "start": 0.003},
                   "pulse", ".", 0.15)
    motion = p.base_motion()
    g = (0.0, 0.0, -9.81)
    fast = motion.table(0.0, 1e-5, 15001, g)
    slow = np.array([motion.spatial_state(k * 1e-5, g) for k in range(15001)])
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-12 * np.abs(slow).max())


def test_analytic_h_point_moves_the_whole_occupant():
    """occupant.h_point shifts the seated occupant rigidly in B0 (the seat moved on its track)."""
    from occupant.dynamics.api import body_poses
    a = load("fmvss208_sled_48_unbelted")
    b = load("fmvss208_sled_48_unbelted", overrides={"occupant.h_point": [-0.02, 0.0, 0.01]})
    Xa = body_poses(a.model, a.model.make_data(), a.q0)
    Xb = body_poses(b.model, b.model.make_data(), b.q0)
    np.testing.assert_allclose(Xb[:, :3, 3] - Xa[:, :3, 3], np.tile([-0.02, 0.0, 0.01], (a.model.nb, 1)),
                               atol=1e-12)
    np.testing.assert_allclose(Xb[:, :3, :3], Xa[:, :3, :3], atol=1e-12)


def test_analytic_contact_share_scales_the_force_not_the_friction():
    """A pair's ``share`` (several surfaces of one body part against one surface: the 5F's two
    buttocks on the seat cushion) scales its characteristic's loading and unloading curves, its
    stiffness and its damping by the share, not its friction coefficient; the two halves of a
    pair list bear at the same penetration what one pair did; a share outside (0, 1] is refused
    with the file and the key."""
    c = FileChecker("f.toml", InputFileError)
    foam = {"table": [[0.0, 0.0], [0.02, 500.0], [0.05, 1800.0]], "absorption": 0.45, "recovers": True,
            "damping": 1.0e3, "friction": 0.7}
    data = {"contact_characteristic": {"foam": foam},
            "contact": [{"a": "p", "b": "seat", "characteristic": "foam"},
                        {"a": ["l", "r"], "b": "seat", "characteristic": "foam", "share": 0.5}]}
    known, pairs = read_contacts(c, data, ["p", "l", "r", "seat"])
    whole, left, right = (p.characteristic for p in pairs)
    assert whole is known["foam"] and left is right
    np.testing.assert_array_equal(left.table, [[0.0, 0.0], [0.02, 250.0], [0.05, 900.0]])
    np.testing.assert_array_equal(left.table[:, 1] + right.table[:, 1], whole.table[:, 1])
    assert left.damping == 500.0 and left.friction == 0.7 and left.absorption == 0.45 and left.recovers
    steel = known["foam"].__class__(stiffness=2.0e6, exponent=1.5, unloading_table=[[0.0, 0.0], [0.01, 10.0]])
    half = steel.shared(0.25)
    assert half.stiffness == 5.0e5 and half.exponent == 1.5
    np.testing.assert_array_equal(half.unloading_table, [[0.0, 0.0], [0.01, 2.5]])
    for bad in (0.0, 1.5, -0.5):
        data["contact"][1]["share"] = bad
        with pytest.raises(InputFileError, match=rf"^f.toml: contact\[1\].share: got {bad!r} \(accepted: a number in \(0, 1\]\)$"):
            read_contacts(c, data, ["p", "l", "r", "seat"])


def test_regression_hybrid3_side_run_says_why_no_limit_is_shown():
    """The side barrier's criteria page showed every row "no limit" with no note saying why: a
    Hybrid III in a lateral pulse, no regulation named, has the side dummies' protocols named in
    its notes; a frontal run, or the same pulse judged against a regulation, has not."""
    from occupant.scenario.load import SIDE_DUMMY_NOTE
    assert SIDE_DUMMY_NOTE in load("side_barrier").notes
    assert SIDE_DUMMY_NOTE not in load("fmvss208_sled_48_belted").notes
    judged = load("side_barrier", overrides={"criteria.regulation": "fmvss208_hybrid3_50m"})
    assert SIDE_DUMMY_NOTE not in judged.notes


def test_reference_a_copied_scenario_names_the_shipped_file_its_relative_path_left_behind(tmp_path):
    """(usercheck8) A restraint engineer copies us_ncap_frontal_56.toml into a folder of their
    own to edit it: its pulse ``file = "data/us_ncap_56_nhtsa_11391.csv"`` is read beside the
    copy, where it is not. The message said only where it looked; it now names the shipped file
    of that path and what to do, and still reads nothing in its place."""
    copy = _scenario_copy(tmp_path, "us_ncap_frontal_56")
    shipped = (resolve("us_ncap_frontal_56").parent / "data" / "us_ncap_56_nhtsa_11391.csv").resolve()
    with pytest.raises(ScenarioError) as err:
        load(copy)
    said = str(err.value)
    assert said.startswith(f"{copy}: pulse.file: no such file ")
    assert (f"(a shipped file of that path is {str(shipped)!r}: a copy of a shipped file reads its "
            f"relative paths beside the copy, so copy that file to "
            f"{str(tmp_path / 'data' / 'us_ncap_56_nhtsa_11391.csv')!r} too, or name it by its full path)") in said
    # a path no shipped folder has: no such hint
    (tmp_path / "other").mkdir()
    with pytest.raises(ScenarioError) as err:
        load(_scenario_copy(tmp_path / "other", "us_ncap_frontal_56",
                            lambda s: s.replace("data/us_ncap_56_nhtsa_11391.csv", "data/mine.csv")))
    assert "a shipped file of that path" not in str(err.value)
    # copied beside it, the copy runs from its own folder
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "us_ncap_56_nhtsa_11391.csv").write_bytes(shipped.read_bytes())
    assert load(copy, overrides={"solver.t_end": 0.001}).inputs["pulse"] == tmp_path / "data" / "us_ncap_56_nhtsa_11391.csv"


def test_reference_a_load_limiter_below_the_pretensioner_force_is_noted_and_is_what_runs():
    """(usercheck8) ``load_limit = 1500`` beside the shipped 2 kN pretensioner ran unsaid: the
    retractor's spool force is the larger of the limiter's and the pretensioner's while it fires
    (occupant.restraints.belt.pretensioner_at), so the belt at the retractor carried 2.0 kN, above
    the 1.5 kN the user set, until the stroke ended 8 ms after firing. A note says so, and the run
    shows it: the retractor's webbing force passes the limit only within the pretensioner's stroke
    (12-20 ms) and stays at the limit after."""
    from occupant.scenario.restraints import PRETENSIONER_STROKE_TIME
    low = load("us_ncap_frontal_56", overrides={"restraints.belt.load_limit": 1500.0, "solver.t_end": 0.03,
                                                "restraints.airbag.enabled": False})
    assert ("restraints.belt.load_limit = 1500 N is below pretensioner_force = 2000 N: the belt at the "
            "retractor carries up to 2000 N while the pretensioner fires (8 ms from pretensioner_time), "
            "1500 N only after") in low.notes
    for quiet in ({}, {"restraints.belt.load_limit": 2000.0},
                  {"restraints.belt.load_limit": 1500.0, "restraints.belt.pretensioner": False}):
        assert not any("is below pretensioner_force" in n for n in load("us_ncap_frontal_56", overrides=quiet).notes)
    res = low.run().results
    t, force = np.asarray(res.t), np.asarray(res.outputs["belt.retractor-d_ring.force"])
    fire = 0.012   # s, the shipped pretensioner_time
    stroke = (t >= fire) & (t <= fire + PRETENSIONER_STROKE_TIME)
    assert 1900.0 < force[stroke].max() <= 2000.0 + 1.0            # the pretensioner's stall, above 1.5 kN
    assert force[t > fire + PRETENSIONER_STROKE_TIME + 0.003].max() <= 1500.0 + 1.0   # the limiter after


def test_reference_a_characteristic_set_in_the_scenario_says_what_of_the_vehicles_it_drops():
    """(usercheck8) ``--set contact_characteristic.knee_bolster.stiffness=3e5`` (a stiffer
    bolster meant) makes a scenario table of that name, which replaces the interior's whole: the
    bolster became linear and lost its absorption 0.8, damping 1000 N s/m^2 and friction 0.7,
    unsaid. A note names what was not kept; none when the table gives them, or names a new
    characteristic, or in the shipped scenarios."""
    from occupant.scenario.interior import load_interior
    bolster = load_interior("sled_buck_passenger").characteristics["knee_bolster"]
    assert (bolster.absorption, bolster.damping, bolster.friction) == (0.8, 1000.0, 0.7)
    stiff = load("fmvss208_sled_48_unbelted", overrides={"contact_characteristic.knee_bolster.stiffness": 3e5})
    assert [n for n in stiff.notes if "contact_characteristic" in n] == [
        "contact_characteristic.knee_bolster replaces the vehicle's characteristic of that name "
        "(sled_buck_passenger) whole: its absorption 0.8, damping 1000, friction 0.7 not kept (give "
        "them in the scenario's table to keep them)"]
    pair = next(p for p in stiff.model.source.contact_pairs.values() if p.geometry_b == "knee_bolster")
    assert pair.characteristic.friction == 0.0 and pair.characteristic.stiffness == 3e5   # as said
    whole = load("fmvss208_sled_48_unbelted", overrides={"contact_characteristic.knee_bolster": {
        "stiffness": 3e5, "absorption": 0.8, "damping": 1000.0, "friction": 0.7}})
    assert not any("contact_characteristic" in n for n in whole.notes)
    for name in SHIPPED + ("pedestrian_40", "aeb_precrash_frontal"):
        assert not any("replaces the vehicle's characteristic" in n for n in load(name).notes), name


def test_reference_a_bad_item_of_an_array_given_by_set_names_the_set(tmp_path):
    """(usercheck11) ``--set 'vehicle.intrusion=[{name="door", surfaces=["door"], ...}]'`` on
    side_barrier, whose file has no intrusion, was refused as "side_barrier.toml:
    vehicle.intrusion[0].surfaces: unknown surface 'door'": the file blamed for the --set's
    item (a path with an index was not matched to its --set). Now "(--set vehicle.intrusion)"."""
    bad = {"vehicle.intrusion": [{"name": "door", "surfaces": ["door"], "direction": [0.0, -1.0, 0.0],
                                  "velocity": [[0.0, 0.0], [0.02, 6.0]]}]}
    with pytest.raises(ScenarioError) as err:
        load("side_barrier", overrides=bad)
    assert str(err.value).endswith("side_barrier.toml (--set vehicle.intrusion): vehicle.intrusion[0].surfaces: "
                                   "unknown surface 'door' (accepted: seat_cushion, seat_back, floor, toe_pan, "
                                   "knee_bolster, footwell_top, instrument_panel, panel_top, windshield, roof, "
                                   "steering_wheel, steering_wheel_rim, steering_wheel_hub, door_panel, armrest, "
                                   "b_pillar, side_window, kick_panel)"), str(err.value)
