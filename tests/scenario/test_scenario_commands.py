"""The other subcommands of ``occupant``: list, show, export, compare (issue 13 section 2)."""
import xml.etree.ElementTree as ET

import occupant
from occupant.cli import main
from occupant.scenario.run import write_criteria


def test_reference_list_names_scenarios_dummies_and_vehicles(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "fmvss208_sled_48_unbelted" in out and "us_ncap_frontal_56" in out
    assert "hybrid3_50m" in out and "sled_buck_passenger" in out and "midsize_sedan_driver" in out
    # what certify and validate run, by the names they take
    assert "(occupant certify NAME):\n  hybrid3_05f_head_drop, " in out
    assert "(occupant validate NAME):\n  " in out and "nbdl" in out.lower()


def test_reference_show_prints_the_tree_of_a_scenario_model(capsys):
    assert main(["show", "fmvss208_sled_48_unbelted"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("scenario model hybrid3_50m: 16 bodies, 16 joints, nq 52, nv 41, mass 78.20 kg")
    assert "left_knee (revolute, 1 dof)" in out and "root (free, 6 dofs)" in out
    assert "knee_bolster (plane on B0)" in out and "left_knee_contact/knee_bolster" in out


def test_reference_export_mjcf_has_every_body(tmp_path, capsys):
    path = tmp_path / "h3.xml"
    assert main(["export", "hybrid3_50m", "--mjcf", "--out", str(path)]) == 0
    bodies = {b.get("name") for b in ET.parse(path).iter("body")}
    assert len(bodies) == 16 and "head" in bodies


def test_reference_a_scenario_exports_its_occupant_in_its_posture(tmp_path, capsys):
    """(usercheck4) ``occupant export SCENARIO --mjcf`` wrote the occupant in its neutral,
    standing configuration (the head 0.62 m over the pelvis, the feet 0.82 m below it): now
    seated in the scenario's posture (its q0). MuJoCo's own forward kinematics of the file
    against our body poses at the scenario's q0."""
    import numpy as np
    import pytest
    mujoco = pytest.importorskip("mujoco")
    from occupant.dynamics.api import body_poses
    from occupant.scenario import load
    path = tmp_path / "sled.xml"
    assert main(["export", "fmvss208_sled_48_unbelted", "--mjcf", "--out", str(path)]) == 0
    assert capsys.readouterr().out.endswith("(MJCF, in the scenario's posture)\n")
    sc = load("fmvss208_sled_48_unbelted")
    ours = body_poses(sc.model, sc.model.make_data(), sc.q0)[:, :3, 3]
    m = mujoco.MjModel.from_xml_path(str(path))
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    for body in ("head", "left_foot", "right_lower_leg"):
        i = list(sc.model.body_names).index(body)
        assert np.allclose(d.xpos[m.body(body).id], ours[i], atol=1e-9), body
    feet = ours[list(sc.model.body_names).index("left_foot")] - ours[0]
    assert feet[0] > 0.4   # seated: the feet ahead of the pelvis, not under it


def test_reference_a_scenarios_export_is_named_after_the_scenario(tmp_path, monkeypatch, capsys):
    """(usercheck10) Without --out a scenario's export was written as its dummy's
    (hybrid3_50m.xml), over the dummy's own neutral export: now named after the scenario."""
    monkeypatch.chdir(tmp_path)
    assert main(["export", "hybrid3_50m", "--mjcf"]) == 0
    neutral = (tmp_path / "hybrid3_50m.xml").read_text()
    assert main(["export", "fmvss208_sled_48_unbelted", "--mjcf"]) == 0
    assert "-> fmvss208_sled_48_unbelted.xml" in capsys.readouterr().out
    assert (tmp_path / "fmvss208_sled_48_unbelted.xml").read_text() != neutral
    assert (tmp_path / "hybrid3_50m.xml").read_text() == neutral


def test_reference_compare_puts_criteria_side_by_side(tmp_path, capsys):
    for name, hic, ok in (("a", 300.0, True), ("b", 900.0, False)):
        (tmp_path / name).mkdir()
        write_criteria([dict(criterion="HIC15", value=hic, unit="-", limit=700.0, **{"pass": ok})],
                       tmp_path / name / "criteria.csv")
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["criterion", "unit", "limit", "a", "b"]
    assert lines[1].split() == ["HIC15", "-", "700", "300", "900", "FAIL"]


def test_reference_compare_shows_the_limit_each_criterion_is_judged_against(tmp_path, capsys):
    """(usercheck8) The side-by-side table marked a value FAIL but gave no limit: a restraint
    engineer reading which design is better against the limits had to open a criteria.csv. Its
    limit column is the runs' limit, both where they differ (a 50M's and a 5F's chest
    deflection), "-" where none has one."""
    for name, limit in (("m50", 63.0), ("f05", 52.0)):
        (tmp_path / name).mkdir()
        write_criteria([dict(criterion="chest deflection", value=40.0, unit="mm", limit=limit, **{"pass": True}),
                        dict(criterion="HIC36", value=700.0, unit="-", limit=None, **{"pass": None}),
                        dict(criterion="HIC15", value=500.0, unit="-", limit=700.0, **{"pass": True})],
                       tmp_path / name / "criteria.csv")
    assert main(["compare", str(tmp_path / "m50"), str(tmp_path / "f05")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split() for line in lines] == [
        ["criterion", "unit", "limit", "m50", "f05"],
        ["chest", "deflection", "mm", "63.0", "/", "52.0", "40.0", "40.0"],
        ["HIC36", "-", "-", "700", "700"],
        ["HIC15", "-", "700", "500", "500"]]
    assert len({len(line) for line in lines}) == 1, lines


def test_reference_lazy_subpackages():
    assert occupant.scenario.load is not None and callable(occupant.injury.hic)
    assert "scenario" in dir(occupant)


def test_reference_import_occupant_is_light_and_everything_is_reachable():
    """``import occupant`` loads neither numba nor a subpackage; each (and ``occupant.simulate``,
    the function, whichever way its module is first imported) comes on first use."""
    import subprocess
    import sys
    code = ("import sys, occupant\n"
            "heavy = sorted(m for m in ('numba', 'scipy', 'matplotlib', 'h5py', 'occupant.simulate', "
            "'occupant.io', 'occupant.scenario') if m in sys.modules)\n"
            "assert heavy == [], heavy\n"
            "{}\n"
            "assert callable(occupant.simulate) and occupant.simulate.__name__ == 'simulate'\n"
            "assert callable(occupant.io.export_mjcf) and callable(occupant.scenario.sweep)\n"
            "assert occupant.injury and occupant.human and occupant.report and occupant.samples\n"
            "from occupant import simulate; assert simulate is occupant.simulate\n")
    for first in ("pass", "from occupant.simulate import SimulationError",
                  "import occupant.simulate"):
        run = subprocess.run([sys.executable, "-c", code.format(first)], capture_output=True, text=True)
        assert run.returncode == 0, (first, run.stderr[-2000:])


def test_reference_compare_aligns_long_criterion_names_and_units(tmp_path, capsys):
    """The rear-impact rows (a 27-letter criterion, the unit m^2/s^2) keep the values in one
    column."""
    rows = [dict(criterion="HIC15", value=88.0, unit="-", limit=500.0, **{"pass": True}),
            dict(criterion="NIC", value=39.3, unit="m^2/s^2", limit=24.0, **{"pass": None}),
            dict(criterion="head restraint contact time", value=44.8, unit="ms", limit=80.0, **{"pass": None})]
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        write_criteria(rows, tmp_path / name / "criteria.csv")
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len({len(line) for line in lines}) == 1, lines   # right-aligned columns end together
    column = lines[0].index("unit")
    assert [line[column:].split()[0] for line in lines[1:]] == ["-", "m^2/s^2", "ms"]


def test_reference_a_file_that_cannot_be_written_is_one_plain_line(tmp_path, capsys):
    """An --out that cannot be written: the option, the path and the reason, exit 2. (Until the
    badinput audit an --out in a missing folder was this case, "PATH: No such file or directory";
    export now makes the folder, as run's --out does, and checks --out before the model: a
    folder under a file is the case.)"""
    (tmp_path / "a_file").write_text("")
    path = tmp_path / "a_file" / "h3.xml"
    assert main(["export", "hybrid3_50m", "--mjcf", "--out", str(path)]) == 2
    assert capsys.readouterr().err == (f"occupant: error: --out: {tmp_path / 'a_file'}: a file, not a "
                                       "folder (accepted: a folder to write into, new or existing)\n")


def test_reference_damaged_run_folders_are_named_in_one_line(tmp_path, capsys):
    """A criteria.csv with a value that is not a number, a results.h5 that is not HDF5: the
    file and the problem, exit 2 (they were h5py's and float()'s bare messages)."""
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "criteria.csv").write_text("criterion,value,unit,limit,pass\nHIC15,abc,-,700,true\n")
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "a")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"occupant: error: {tmp_path / 'a' / 'criteria.csv'}: cannot read its rows") and "'abc'" in err
    (tmp_path / "a" / "results.h5").write_text("not HDF5")
    assert main(["report", str(tmp_path / "a")]) == 2
    assert capsys.readouterr().err.startswith(f"occupant: error: {tmp_path / 'a' / 'results.h5'}: cannot read as HDF5")


def test_the_command_leaves_its_heap_out_of_the_exits_collections_once(capsys, monkeypatch):
    """``occupant`` freezes the garbage collector at exit (the interpreter's last collections
    went through a first run's whole heap, ~0.8 s): an exit handler registered once however
    often ``main`` runs in a process, and not called before the exit."""
    import atexit
    import gc
    handlers = []
    monkeypatch.setattr(atexit, "register", lambda f, *a, **k: handlers.append(f) or f)
    monkeypatch.setattr(atexit, "unregister",
                        lambda f: handlers.__setitem__(slice(None), [h for h in handlers if h is not f]))
    frozen = gc.get_freeze_count()
    main(["list"])
    main(["list"])
    capsys.readouterr()
    assert handlers.count(gc.freeze) == 1
    assert gc.get_freeze_count() == frozen


def test_reference_a_run_folder_without_criteria_is_named(tmp_path, capsys):
    """A criteria.csv that is empty or only a header: the file named, exit 2 (compare printed
    the header line alone and exited 0)."""
    for name, text in (("a", ""), ("b", "criterion,value,unit,limit,pass\n")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "criteria.csv").write_text(text)
        assert main(["compare", str(tmp_path / name), str(tmp_path / name)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.startswith(f"occupant: error: {tmp_path / name / 'criteria.csv'}: no criteria in it")


def test_reference_compare_of_a_sweeps_folder_names_its_variants(tmp_path, capsys):
    """A sweep's folder given to compare said "no criteria.csv in this folder (accepted: a run
    folder of occupant run)": now that its variants are the runs, and their folders."""
    (tmp_path / "sweep.json").write_text("{}")
    for v in ("v0001", "v0002", "v0003"):
        (tmp_path / v).mkdir()
    assert main(["compare", str(tmp_path), str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        f"occupant: error: {tmp_path}: a sweep's folder (3 variants): compare its variants' run folders "
        f"(accepted: their folders, {tmp_path / 'v0001'} {tmp_path / 'v0002'} ...)\n")


def test_reference_compare_of_a_missing_folder_names_run_folders_among_what_it_accepts(tmp_path, capsys):
    """(usercheck5) A mistyped run folder was answered with the scenarios alone ("no such file
    (accepted: an existing .toml file, or a shipped scenario: ...)"), as if compare took no run
    folder: now a run folder leads what is accepted."""
    (tmp_path / "ll3000").mkdir()
    (tmp_path / "ll3000" / "criteria.csv").write_text("criterion,value,unit,limit,pass\nHIC15,300,-,700,true\n")
    assert main(["compare", str(tmp_path / "ll3000"), str(tmp_path / "ll6000")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(
        f"occupant: error: {tmp_path / 'll6000'}: no such file (accepted: a run folder (with criteria.csv), "
        "an existing .toml file, or a shipped scenario: ") and captured.err.count("\n") == 1


def test_reference_compare_says_when_the_runs_are_of_different_scenarios(tmp_path, capsys):
    """(usercheck3) Runs of two scenarios, or of different simulated times, were compared without
    a word (a 2 ms run beside a 150 ms one reads as a design that lowered every criterion): now
    a note on stderr, from each folder's scenario.toml; none for two runs of one scenario."""
    runs = {"a": ("fmvss208_sled_48_belted", 0.15), "b": ("side_barrier", 0.12),
            "c": ("fmvss208_sled_48_belted", 0.002), "d": ("fmvss208_sled_48_belted", 0.15)}
    for name, (scenario, t_end) in runs.items():
        (tmp_path / name).mkdir()
        write_criteria([dict(criterion="HIC15", value=300.0, unit="-", limit=700.0, **{"pass": True})],
                       tmp_path / name / "criteria.csv")
        (tmp_path / name / "scenario.toml").write_text(f'name = "{scenario}"\n[solver]\nt_end = {t_end}\n')
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b")]) == 0
    assert capsys.readouterr().err == ("occupant compare: note: runs of different scenarios: a "
                                       "fmvss208_sled_48_belted, b side_barrier; different simulated "
                                       "times (solver.t_end, s): a 0.15, b 0.12\n")
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "c")]) == 0
    assert capsys.readouterr().err == ("occupant compare: note: different simulated times "
                                       "(solver.t_end, s): a 0.15, c 0.002\n")
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "d")]) == 0
    assert capsys.readouterr().err == ""


def test_reference_a_run_lists_only_what_it_wrote(tmp_path, capsys):
    """(usercheck3) A run with outputs.report and outputs.isomme off, into the folder of an
    earlier run, listed that run's report.html, report.pdf and isomme/ as written (and left them
    showing other results): now it lists what it wrote and names those."""
    for name in ("report.html", "report.pdf"):
        (tmp_path / name).write_text("an earlier run's")
    (tmp_path / "isomme").mkdir()
    assert main(["run", "fmvss208_sled_48_unbelted", "--out", str(tmp_path), "--quiet", "--set",
                 "solver.t_end=0.002", "--set", "occupant.settle=0", "--set", "outputs.report=false",
                 "--set", "outputs.isomme=false"]) == 0
    out = capsys.readouterr().out
    assert (f"  written to {tmp_path}: results.h5, criteria.csv, scenario.toml, inputs/ (5 files it ran "
            "from)\n  not this run's: isomme/, report.html, report.pdf: an earlier run's, left in the "
            "folder (outputs.isomme and outputs.report off in this one)\n") in out, out


def test_reference_outputs_results_off_writes_no_results_h5(tmp_path, capsys):
    """(usercheck10) outputs.results = false (`occupant list --keys`: "DIR/results.h5") was read
    and not heeded: results.h5 was written and listed. Now it is left out, and an earlier run's
    results.h5 in the folder is named as not this run's."""
    args = ["run", "fmvss208_sled_48_unbelted", "--quiet", "--set", "solver.t_end=0.002", "--set",
            "occupant.settle=0", "--set", "outputs.report=false", "--set", "outputs.results=false"]
    assert main([*args, "--out", str(tmp_path / "a")]) == 0
    out = capsys.readouterr().out
    assert not (tmp_path / "a" / "results.h5").exists() and (tmp_path / "a" / "criteria.csv").exists()
    assert f"  written to {tmp_path / 'a'}: criteria.csv, isomme/ (" in out, out
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "results.h5").write_text("an earlier run's")
    assert main([*args, "--out", str(tmp_path / "b")]) == 0
    out = capsys.readouterr().out
    assert ("  not this run's: results.h5: an earlier run's, left in the folder (outputs.results off in "
            "this one)\n") in out, out


def test_reference_an_out_folder_that_cannot_be_written_is_said_before_the_run(tmp_path, capsys, monkeypatch):
    """(usercheck3) An existing --out folder this user cannot write into passed make_folder and
    failed when the run wrote its first file, after the simulation. (The sessions run as root,
    whom permissions do not stop: os.access is made to say what it says to a user.)"""
    import os
    import occupant.scenario.run as run_module
    folder = tmp_path / "read_only"
    folder.mkdir()
    real = os.access
    monkeypatch.setattr(run_module.os, "access", lambda p, mode: False if str(p) == str(folder) else real(p, mode))
    for args in (["run", "fmvss208_sled_48_unbelted", "--quiet", "--set", "solver.t_end=0.002"],
                 ["certify", "hybrid3_50m_knee", "--quiet"]):
        assert main([*args, "--out", str(folder)]) == 2
        cap = capsys.readouterr()
        assert cap.err == (f"occupant: error: --out: {folder}: cannot write into this folder: permission "
                           "denied (accepted: a folder this user can write into, new or existing)\n"), cap.err
        assert "criteria against" not in cap.out and not list(folder.iterdir())


def test_reference_results_h5_records_the_overrides_and_the_pulse_run(tmp_path, capsys):
    """(usercheck12) results.h5's provenance named the shipped scenario file alone
    (``scenario_file``) when --set had replaced its pulse: nothing in it said that a CSV pulse
    ran. Now it records the overrides applied on top of the file (JSON), the pulse run and its
    file; a run again from the folder with one more --set keeps the first run's overrides and
    adds its own; a run of the file's own pulse records its half-sine and no pulse file."""
    import json

    from occupant.io.results_h5 import read_results
    from occupant.scenario.load import resolve
    (tmp_path / "edr.csv").write_text("time [ms],delta-v [km/h]\n0,0\n20,-10\n40,-30\n60,-45\n80,-48\n")
    common = ["--quiet", "--set", "solver.t_end=0.002", "--set", "occupant.settle=0", "--set",
              "outputs.report=false", "--set", "outputs.isomme=false"]
    assert main(["run", "fmvss208_sled_48_unbelted", "--out", str(tmp_path / "a"), *common, "--set",
                 f'pulse={{shape="csv", file="{tmp_path / "edr.csv"}"}}']) == 0
    prov = read_results(tmp_path / "a" / "results.h5").provenance
    assert prov["scenario_file"] == str(resolve("fmvss208_sled_48_unbelted"))
    assert json.loads(prov["overrides"]) == {
        "solver.t_end": 0.002, "occupant.settle": 0, "outputs.report": False, "outputs.isomme": False,
        "pulse": {"shape": "csv", "file": str(tmp_path / "edr.csv")}}
    assert prov["pulse"] == "CSV edr.csv (velocity change)" and prov["pulse_file"] == str(tmp_path / "edr.csv")
    assert main(["run", str(tmp_path / "a"), "--out", str(tmp_path / "b"), "--quiet", "--set",
                 "solver.t_end=0.003"]) == 0
    again = read_results(tmp_path / "b" / "results.h5").provenance
    # (the file it was loaded from: the first folder's copy of the scenario file)
    assert again["scenario_file"] == str(tmp_path / "a" / "inputs" / "scenario-fmvss208_sled_48_unbelted.toml")
    assert json.loads(again["overrides"]) == {**json.loads(prov["overrides"]), "solver.t_end": 0.003}
    # (read from the first folder's copy of the CSV file)
    assert again["pulse"] == "CSV pulse-edr.csv (velocity change)"
    assert again["pulse_file"] == str(tmp_path / "a" / "inputs" / "pulse-edr.csv")
    assert main(["run", "fmvss208_sled_48_unbelted", "--out", str(tmp_path / "c"), *common]) == 0
    plain = read_results(tmp_path / "c" / "results.h5").provenance
    assert json.loads(plain["overrides"]) == {"solver.t_end": 0.002, "occupant.settle": 0, "outputs.report": False,
                                              "outputs.isomme": False}
    assert plain["pulse"].startswith("half-sine") and plain["pulse_file"] == ""
