"""The occupant command: version, run, and clear errors with non-zero exit codes."""
import re
import subprocess
import sys

import pytest

import occupant


def _run(*args):
    return subprocess.run([sys.executable, "-m", "occupant.cli", *args], capture_output=True, text=True)


def test_version():
    proc = _run("--version")
    assert proc.returncode == 0 and proc.stdout.strip() == f"occupant {occupant.__version__}"


def test_run_of_a_shipped_scenario_summarises_and_writes(tmp_path):
    """The README's main command, shortened: a shipped scenario by name, its summary with the
    criteria against the regulation, and the run folder."""
    proc = _run("run", "fmvss208_sled_48_unbelted", "--out", str(tmp_path), "--set", "solver.t_end=0.01")
    assert proc.returncode == 0, proc.stderr
    assert "occupant run: fmvss208_sled_48_unbelted" in proc.stdout
    assert "pulse: half-sine 21.4 g, 100 ms: delta-v 48.0 km/h" in proc.stdout
    assert "criteria against FMVSS 208" in proc.stdout
    assert (tmp_path / "criteria.csv").exists() and (tmp_path / "results.h5").exists()


def test_help_lists_the_commands():
    out = _run("--help").stdout
    for command in ("run", "list", "show", "export", "certify"):
        assert re.search(rf"^    {command} ", out, re.MULTILINE), out
    assert "demo" not in out


def test_help_of_certify_and_validate_out_names_every_file_it_writes():
    """(usercheck10) `--out DIR` said "also write each test's time history to DIR/<name>.csv";
    it also writes each one's PNG over its corridors and an index.html (the README's words)."""
    for command in ("certify", "validate"):
        out = " ".join(_run(command, "--help").stdout.split())
        assert "DIR/<name>.csv" in out and "DIR/<name>.png" in out and "DIR/index.html" in out, out


def test_bad_parameter_gives_message_not_traceback():
    proc = _run("run", "fmvss208_sled_48_unbelted", "--set", "solver.t_end=-1")
    assert proc.returncode == 2
    assert "solver.t_end: must be > 0" in proc.stderr and "Traceback" not in proc.stderr
    proc = _run("run", "fmvss208_sled_48_unbelted", "--set", "solver.integrator=\"leapfrog\"")
    assert proc.returncode == 2 and "unknown integrator 'leapfrog'" in proc.stderr
    # a run far too long (a typo): one line, not the pulse table's 728 TiB MemoryError
    proc = _run("run", "fmvss208_sled_48_unbelted", "--set", "solver.t_end=1e9")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "solver.t_end: 1000000000.0 s is outside the range accepted (accepted: a number, 0 < t_end <= 10 s)" in proc.stderr
    proc = _run("run", "fmvss208_sled_48_unbelted", "--set", "solver.output_dt=1e-12")
    assert proc.returncode == 2 and "(--set solver.output_dt): solver.output_dt: 1e-12 s over" in proc.stderr


def test_certify_prints_figures_against_corridors_and_writes_csv(tmp_path):
    """`occupant certify NAME --out DIR`: each pulse and response figure with its corridor and
    PASS/FAIL, exit 0 when all pass, the time history as CSV."""
    proc = _run("certify", "hybrid3_05f_neck_flexion", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "peak_rotation_deg" in proc.stdout and "[77, 91]  PASS" in proc.stdout
    assert "delta_v_m_s@10ms" in proc.stdout and "FAIL" not in proc.stdout
    rows = (tmp_path / "hybrid3_05f_neck_flexion.csv").read_text().splitlines()
    assert rows[0] == "t_s,rotation_deg,oc_moment_Nm" and len(rows) == 1602
    # (usercheck4) the total and where the histories went: the last line (ten tests' 49 PASS
    # lines were counted by hand, and the CSVs written without a word)
    figures = sum(ln.endswith("PASS") for ln in proc.stdout.splitlines())
    assert figures == 6 and proc.stdout.splitlines()[-1] == (   # 3 of the pulse, 3 of the response
        f"total: 6 of 6 figures inside their corridors (1 test); histories in {tmp_path}/ "
        "(a CSV and a PNG per test, index.html)")


def _scenario_copy(tmp_path, old, new):
    """The shipped 50M flexion scenario with the line ``old`` replaced by ``new``, in tmp_path."""
    from occupant.human.certification import read_scenario
    text = read_scenario("hybrid3_50m_neck_flexion")[1].read_text()
    assert old in text
    path = tmp_path / "edited.toml"
    path.write_text(text.replace(old, new))
    return path


def test_certify_exit_code_reports_a_figure_outside(tmp_path):
    """A corridor the response cannot meet (peak rotation 10-20 deg): FAIL on that line, exit
    code 1."""
    path = _scenario_copy(tmp_path, "peak_rotation_deg = [64.0, 78.0]",
                          "peak_rotation_deg = [10.0, 20.0]")
    proc = _run("certify", str(path))
    assert proc.returncode == 1
    assert any("peak_rotation_deg" in ln and ln.endswith("FAIL") for ln in proc.stdout.splitlines())
    assert proc.stdout.splitlines()[-1] == "total: 10 of 11 figures inside their corridors (1 test)"


def test_certify_a_pulse_outside_its_corridor_fails_the_test(tmp_path):
    """(usercheck4) The pendulum's pulse out of its Part 572 corridor (through 5 g at 37.9 ms,
    the corridor narrowed to 34-35 ms) printed FAIL on its line and exited 0: the exit code and
    the total counted the response figures alone. A test whose input is out of its corridor is
    no valid test."""
    path = _scenario_copy(tmp_path, "through_5g_ms = [34.0, 42.0]", "through_5g_ms = [34.0, 35.0]")
    proc = _run("certify", str(path))
    lines = proc.stdout.splitlines()
    assert any(ln.startswith("  pulse    through_5g_ms") and ln.endswith("FAIL") for ln in lines), proc.stdout
    assert proc.returncode == 1
    assert lines[-1] == "total: 10 of 11 figures inside their corridors (1 test)"


def test_certify_bad_scenario_file_names_file_and_key(tmp_path):
    """A pendulum radius that is not a positive number, an unknown test mode, a missing key or
    broken TOML: one line naming the file (and the key), exit code 2, no traceback."""
    path = _scenario_copy(tmp_path, "neck_base_radius = 1.680", "neck_base_radius = -1.68")
    proc = _run("certify", str(path))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    expected = f"{path}: pendulum.neck_base_radius: must be > 0, got -1.68 (accepted: a positive number)"
    assert expected in proc.stderr
    path = _scenario_copy(tmp_path, 'mode = "flexion"', 'mode = "lateral"')
    proc = _run("certify", str(path))
    assert proc.returncode == 2
    assert "mode: unknown test mode 'lateral' (accepted: flexion, extension)" in proc.stderr
    path = _scenario_copy(tmp_path, 'dummy = "hybrid3_50m"', "")
    proc = _run("certify", str(path))
    assert proc.returncode == 2 and f"{path}: dummy: missing" in proc.stderr
    path = _scenario_copy(tmp_path, "t_end = 0.16", "t_end = ")
    proc = _run("certify", str(path))
    assert proc.returncode == 2 and f"{path}: not valid TOML" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("command, name, old, new, line", [
    # an unknown key ran the test with the runner's default and exit code 0 (badinput audit)
    ("certify", "certification/hybrid3_50m_knee", 'side = "left"', 'side = "left"\ncolour = 1',
     "colour: unknown key (accepted: kind, name, title, description, test, dummy, t_end, "
     "impact_speed, cfc, contact, probe, side, corridor)"),
    ("validate", "validation/human_thorax_kroell_16mph", 'kind = "scenario"', 'kind = "scenario"\ncolour = 1',
     "colour: unknown key (accepted: kind, name, title, description, test, human, t_end, impact_speed, "
     "cfc, deflection_cfc, contact, probe, seat_contact, corridor, force_at, unload_level_N)"),
    # was "hybrid9: unknown dummy (...)", neither this file nor its key named
    ("certify", "certification/hybrid3_50m_knee", 'dummy = "hybrid3_50m"', 'dummy = "hybrid9"',
     "dummy: unknown dummy 'hybrid9' (accepted: hybrid3_05f, hybrid3_50m, hybrid3_50m_pedestrian, "
     "hybrid3_95m, or a path to a .toml file)"),
    # was "contact characteristic 'knee'.stiffness: ...", found when the test ran, no file named
    ("certify", "certification/hybrid3_50m_knee", "stiffness = 1.2485e6", "stiffness = -1.0",
     "contact.stiffness: got -1.0 (accepted: a finite number >= 0)"),
])
def test_bad_certification_and_validation_files_one_whole_line(tmp_path, command, name, old, new, line):
    from occupant.shipped import shipped_dir
    text = (shipped_dir("scenarios") / f"{name}.toml").read_text()
    assert old in text
    path = tmp_path / "case.toml"
    path.write_text(text.replace(old, new, 1))
    proc = _run(command, str(path))
    assert (proc.returncode, proc.stderr) == (2, f"occupant: error: {path}: {line}\n")


def test_certify_unknown_scenario_is_a_clear_error():
    proc = _run("certify", "hybrid3_50m_pelvis_drop")   # knee is a shipped scenario now
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "unknown certification scenario (accepted: hybrid3_05f_head_drop" in proc.stderr


def test_output_into_a_closed_pipe_ends_quietly():
    """``occupant show hybrid3_50m | head -1``: the reader closes the pipe, the command stops
    without "error: [Errno 32] Broken pipe" or a traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "occupant.cli", "show", "hybrid3_50m"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()   # before the command has written anything (its imports take ~1 s)
    err = proc.stderr.read()
    assert proc.wait() == 1 and err == "", err


def test_a_crash_scenario_given_to_certify_or_validate_points_to_run():
    """``occupant validate`` / ``certify`` of a crash scenario read "test: missing (accepted:
    thorax_pendulum, ...)": it now says what the file is and which command runs it."""
    from occupant.scenario.load import resolve
    for command, what in (("certify", "certification"), ("validate", "validation")):
        proc = _run(command, str(resolve("fmvss208_sled_48_unbelted")))
        assert proc.returncode == 2 and "Traceback" not in proc.stderr
        assert (f"fmvss208_sled_48_unbelted.toml: kind: a crash scenario, not a {what} test: run it "
                f"with occupant run (accepted: a {what} scenario with a test key: ") in proc.stderr, proc.stderr


def test_a_certification_or_validation_test_given_to_run_points_to_its_command():
    """(usercheck10) The other way round: ``occupant run`` of a certification or validation test
    read "test: unknown key (accepted: kind, name, ...)"; it now says which command runs it."""
    from occupant.shipped import shipped_dir
    for folder, name, what, command in (
            ("certification", "hybrid3_50m_neck_flexion", "certification test ('neck_pendulum')", "certify"),
            ("validation", "human_neck_nbdl_15g_frontal_check", "validation test ('head_neck_sled')", "validate")):
        proc = _run("run", str(shipped_dir("scenarios") / folder / f"{name}.toml"))
        assert proc.returncode == 2 and "Traceback" not in proc.stderr
        assert (f"{name}.toml: test: a {what}, not a crash scenario: run it with occupant {command} "
                "(accepted: a crash scenario: ") in proc.stderr, proc.stderr


def test_a_file_of_another_kind_given_to_certify_or_validate_says_its_kind(capsys):
    """(branch usercheck) An interior or posture file given to ``occupant validate`` /
    ``certify`` read "test: missing (accepted: thorax_pendulum, ...)"."""
    from occupant.cli import main
    from occupant.shipped import shipped_dir
    posture = shipped_dir("dummies") / "postures" / "passenger_seated.toml"
    for command, what in (("certify", "certification"), ("validate", "validation")):
        assert main([command, str(posture), "--quiet"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"occupant: error: {posture}: kind: a file of kind 'posture', not a {what} "
                              f"test (accepted: a {what} scenario: kind = \"scenario\" and a test key: "), err
        assert len(err.splitlines()) == 1


# two designs as a user makes them: one scenario run twice with a different --set, shortened
# (the belt's load limiter, 3 kN against 6 kN), each into a folder named "run" under its own
# parent, so that only the parents tell them apart
SHORT_DESIGN = {"solver.t_end": 0.004, "occupant.settle": 0.0, "outputs.report": False}


@pytest.fixture(scope="module")
def two_designs(tmp_path_factory):
    from occupant.scenario import load, write_run
    root = tmp_path_factory.mktemp("designs")
    for name, limit in (("ll3000", 3000.0), ("ll6000", 6000.0)):
        run = load("fmvss208_sled_48_belted",
                   overrides={**SHORT_DESIGN, "restraints.belt.load_limit": limit}).run()
        write_run(run, root / name / "run")
    return root / "ll3000" / "run", root / "ll6000" / "run"


def test_compare_out_writes_the_overlay_report_of_two_designs(two_designs, tmp_path, capsys):
    """``occupant compare A B --out C``: the criteria table printed as without --out, then
    C/comparison.html and comparison.pdf, each run labelled by the part of its path that tells
    it apart ("ll3000/run", not the scenario's name twice), the load limit named as the setting
    that differs. Before (comparecli), compare had no --out: the overlay report was Python only."""
    from occupant.cli import main
    a, b = two_designs
    assert main(["compare", str(a), str(b), "--out", str(tmp_path / "c"), "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[3:] == ["ll3000/run", "ll6000/run"]
    assert out[-1].startswith("occupant compare: written ") and "comparison.pdf" in out[-1]
    html = (tmp_path / "c" / "comparison.html").read_text(encoding="utf-8")
    assert (tmp_path / "c" / "comparison.pdf").read_bytes().startswith(b"%PDF")
    assert "<title>Comparison: ll3000/run / ll6000/run</title>" in html
    assert "<th>ll3000/run</th><th>ll6000/run</th>" in html   # the criteria's and the settings' columns
    assert "<tr><td>restraints.belt.load_limit</td><td>3000.0 N</td><td>6000.0 N</td></tr>" in html
    assert "Reference: ll3000/run." in html and "<td>ll6000/run</td>" in html   # the ratings' column
    assert "fmvss208_sled_48_belted" in html   # the scenario of each, in the runs table


def test_compare_html_or_pdf_alone(two_designs, tmp_path, capsys):
    """--html or --pdf with --out writes that file only, as ``occupant report``'s flags; either
    without --out is one line, exit 2."""
    from occupant.cli import main
    a, b = two_designs
    assert main(["compare", str(a), str(b), "--out", str(tmp_path / "h"), "--html"]) == 0
    assert sorted(p.name for p in (tmp_path / "h").iterdir()) == ["comparison.html"]
    # without --quiet, a line before the report's silent seconds (figures and ratings)
    assert capsys.readouterr().err == f"occupant compare: writing the comparison into {tmp_path / 'h'}\n"
    assert main(["compare", str(a), str(b), "--out", str(tmp_path / "p"), "--pdf", "--quiet"]) == 0
    assert sorted(p.name for p in (tmp_path / "p").iterdir()) == ["comparison.pdf"]
    capsys.readouterr()
    assert main(["compare", str(a), str(b), "--pdf"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == (
        "occupant: error: compare: --html and --pdf choose the files of the comparison report: give "
        "its folder too (accepted: --out DIR with them)\n")


def test_compare_out_bad_input_is_one_line_before_any_run(tmp_path, capsys):
    """A run folder without results.h5, a single run, an --out that cannot be a folder: one
    line naming it, exit 2, no traceback, and nothing run or written (the scenario argument is
    never run: every argument and --out are checked first)."""
    from occupant.cli import main
    from occupant.scenario.run import write_criteria
    (tmp_path / "old").mkdir()   # criteria.csv only: enough for the table, not for the report
    write_criteria([dict(criterion="HIC15", value=300.0, unit="-", limit=700.0, **{"pass": True})],
                   tmp_path / "old" / "criteria.csv")
    cases = [
        (["compare", "fmvss208_sled_48_belted", str(tmp_path / "old"), "--out", str(tmp_path / "c")],
         f"occupant: error: {tmp_path / 'old'}: no results.h5 in this folder (accepted: a run folder "
         "of occupant run or sweep)\n"),
        (["compare", str(tmp_path / "old"), "--out", str(tmp_path / "c")],
         "occupant: error: compare: needs at least two runs (accepted: two or more run folders or scenarios)\n"),
    ]
    (tmp_path / "a_file").write_text("")
    cases.append((["compare", "fmvss208_sled_48_belted", "fmvss208_sled_48_belted", "--out",
                   str(tmp_path / "a_file")],
                  f"occupant: error: --out: {tmp_path / 'a_file'}: a file, not a folder (accepted: a "
                  "folder to write into, new or existing)\n"))
    for argv, message in cases:
        assert main([*argv, "--quiet"]) == 2, argv
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err == message
    assert not (tmp_path / "c" / "fmvss208_sled_48_belted").exists()
    assert not list((tmp_path / "c").glob("comparison.*"))


def test_compare_out_writes_a_scenarios_run_folder_beside_the_report(two_designs, tmp_path, capsys):
    """A scenario among the arguments is run first, as without --out, and its run folder
    written to DIR/<scenario name>/ (results.h5, criteria.csv...), then compared."""
    from occupant.cli import main
    from occupant.io.toml_files import read_toml
    from occupant.scenario.load import resolve
    from occupant.scenario.toml_write import dumps
    data = read_toml(resolve("fmvss208_sled_48_belted"))
    data["solver"]["t_end"], data["occupant"]["settle"] = 0.004, 0.0
    data.setdefault("outputs", {})["report"] = False
    (tmp_path / "short.toml").write_text(dumps(data), encoding="utf-8")
    a, _ = two_designs
    assert main(["compare", str(tmp_path / "short.toml"), str(a), "--out", str(tmp_path / "c"), "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[3:] == ["fmvss208_sled_48_belted", "run"]
    ran = tmp_path / "c" / "fmvss208_sled_48_belted"
    assert (ran / "results.h5").is_file() and (ran / "criteria.csv").is_file()
    assert str(ran) in out[-1]
    html = (tmp_path / "c" / "comparison.html").read_text(encoding="utf-8")
    assert "<th>fmvss208_sled_48_belted</th><th>run</th>" in html


def test_certify_or_validate_out_a_file_names_the_option(tmp_path, capsys):
    """(usercheck3) ``--out`` naming a file read "x: File exists" (neither the option nor what
    it takes); now as run's --out, before any test runs."""
    from occupant.cli import main
    (tmp_path / "a_file").write_text("")
    for command, name in (("certify", "hybrid3_50m_knee"), ("validate", "human_sled_gs1_40")):
        assert main([command, name, "--out", str(tmp_path / "a_file"), "--quiet"]) == 2
        cap = capsys.readouterr()
        assert cap.err == (f"occupant: error: --out: {tmp_path / 'a_file'}: a file, not a folder "
                           "(accepted: a folder to write into, new or existing)\n") and cap.out == ""


@pytest.mark.parametrize("args, usage, extra", [
    (["list", "extra"], "usage: occupant list [-h] [--keys]", "extra"),
    (["show", "hybrid3_50m", "--keys"], "usage: occupant show [-h] FILE", "--keys"),
    (["run", "fmvss208_sled_48_unbelted", "--sett", "solver.t_end=0.01"], "usage: occupant run [-h]",
     "--sett solver.t_end=0.01"),
])
def test_an_argument_a_command_does_not_take_shows_that_commands_usage(capsys, args, usage, extra):
    """(usercheck3) An argument a command does not take showed the top level's usage, "occupant
    [-h] [--version] COMMAND ...", which says nothing of the command's own arguments."""
    from occupant.cli import main
    with pytest.raises(SystemExit) as exc:
        main(args)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.startswith(usage), err
    assert err.endswith(f"occupant {args[0]}: error: unrecognized arguments: {extra}\n"), err


@pytest.mark.parametrize("args", [
    ["run", "rear_whiplash", "--out", ""], ["sweep", "rear_whiplash", "--vary", "vehicle.backset=0.03,0.05",
                                              "--out", " "],
    ["compare", "a", "b", "--out", ""], ["certify", "--out", ""], ["validate", "--out", ""],
    ["export", "hybrid3_50m", "--mjcf", "--out", ""]])
def test_an_empty_out_is_refused(capsys, tmp_path, monkeypatch, args):
    """(usercheck7) ``--out "$DIR"`` with DIR unset: run wrote reports/<name> as without --out,
    sweep and compare filled the working directory with sweep.csv, v0001/, plots/ and
    comparison.pdf. Every command's --out now refuses an empty path, before anything runs."""
    from occupant.cli import main
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(args)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.endswith(
        f"occupant {args[0]}: error: argument --out: an empty path (accepted: a folder or file name)\n"), err
    assert not list(tmp_path.iterdir())


def test_a_bad_source_date_epoch_is_named_before_anything_runs():
    """(usercheck3) ``SOURCE_DATE_EPOCH=abc`` ended every command with numpy.f2py's bare
    "invalid literal for int() with base 10: 'abc'" (imported with scipy.special, it reads the
    variable too), before occupant.io.timestamp could name it; now that check comes first."""
    import os
    proc = subprocess.run([sys.executable, "-m", "occupant.cli", "run", "fmvss208_sled_48_unbelted"],
                          capture_output=True, text=True, env=dict(os.environ, SOURCE_DATE_EPOCH="abc"))
    assert proc.returncode == 2 and proc.stderr == (
        "occupant: error: environment variable SOURCE_DATE_EPOCH='abc': expected a whole number of "
        "seconds since 1970-01-01 UTC, e.g. 1767225600\n"), proc.stderr
