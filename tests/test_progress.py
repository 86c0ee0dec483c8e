"""Progress of long work (occupant.progress): what ``occupant run``, ``certify`` and ``validate``
show on stderr while they simulate, through a pipe (a CI log) as a user reads it, and silence
with --quiet. Results and exit codes are the same with or without it."""
import contextlib
import io
import re
import subprocess
import sys

import pytest

from occupant import cli
from occupant.progress import COMPILING, Progress, reporting, simulation_progress

COMPILE = f"  {COMPILING}"   # the line a first run on a cold cache prints

# a plain progress line: "  simulating  40 % (80.0 of 200.0 ms), 3 s"
LINE = re.compile(r"^  simulating +(\d{1,3}) % \((\d+\.\d) of (\d+\.\d) ms\), \d+ s$")


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def _steps(lines):
    """The percentages of the plain progress lines among ``lines``, each checked against LINE."""
    out = []
    for ln in lines:
        if ln.startswith("  simulating"):
            m = LINE.match(ln)
            assert m, ln
            assert abs(float(m[1]) / 100 * float(m[3]) - float(m[2])) <= 0.01 * float(m[3]) + 0.05, ln
            out.append(int(m[1]))
    return out


def test_plain_lines_each_tenth_at_most_one_a_second():
    """Not a terminal: a line at each tenth of the simulated time (none at 0 %), with the
    simulated time in ms; a tenth reached less than EVERY_S after the last line is skipped, the
    next one after it is shown."""
    clock, out = Clock(), io.StringIO()
    p = Progress(stream=out, terminal=False, clock=clock)
    cb = p.simulation(0.2)
    for k in range(0, 21):           # 5 % chunks, 2 s each
        clock.t += 2.0
        cb(k / 20)
    lines = out.getvalue().splitlines()
    assert _steps(lines) == [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
    assert lines[0] == "  simulating  10 % (20.0 of 200.0 ms), 6 s" and "\r" not in out.getvalue()
    out.truncate(0), out.seek(0)
    cb = p.simulation(0.2)           # a blink: the first tenth, then nothing for a second
    for k in range(0, 21):
        clock.t += 0.01
        cb(k / 20)
    clock.t += 1.0
    cb(1.0)
    assert _steps(out.getvalue().splitlines()) == [10, 100]


def test_after_s_holds_back_a_short_case():
    """A case done within ``after_s`` of its start prints its start line only; a longer one its
    simulated time from then on."""
    clock, out = Clock(), io.StringIO()
    p = Progress(stream=out, terminal=False, clock=clock, after_s=3.0)
    p.case(1, 2, "short", "occupant certify")
    cb = p.simulation(0.1)
    for k in range(21):
        clock.t += 0.1
        cb(k / 20)
    p.case(2, 2, "long", "occupant certify")
    cb = p.simulation(0.1)
    for k in range(21):
        clock.t += 1.0
        cb(k / 20)
    lines = out.getvalue().splitlines()
    assert lines[:2] == ["occupant certify: [1/2] short", "occupant certify: [2/2] long"]
    assert _steps(lines[2:]) == [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
    assert lines[2] == "  simulating  10 % (10.0 of 100.0 ms), 3 s"   # the gate opens at 3 s


def test_terminal_bar_redrawn_in_place_and_ended():
    """On a terminal: one line redrawn with carriage returns, ended by a newline at 100 %, or
    by the next line when a run stopped short of its end."""
    clock, out = Clock(), io.StringIO()
    p = Progress(stream=out, terminal=True, clock=clock)
    cb = p.simulation(0.05)
    for k in range(0, 21):
        cb(k / 20)
    text = out.getvalue()
    assert text.count("\n") == 1 and text.endswith("\r  simulating [####################] 100 % (50.0 of 50.0 ms)\n")
    assert "\r  simulating [##########..........]  50 % (25.0 of 50.0 ms)" in text
    out.truncate(0), out.seek(0)
    with reporting(p):
        simulation_progress(0.05)(0.3)     # a run that diverged at 30 %
    assert out.getvalue().endswith("30 % (15.0 of 50.0 ms)\n")


def test_reporting_scopes_the_current_progress():
    assert simulation_progress(1.0) is None
    p = Progress(stream=io.StringIO(), terminal=False)
    with reporting(p):
        assert simulation_progress(1.0) is p and p.t_end == 1.0
        with reporting(None):
            assert simulation_progress(1.0) is None
    assert simulation_progress(1.0) is None


def _merged(argv):
    """main(argv) with stdout and stderr into one buffer (not a terminal), as ``2>&1 | cat``."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        code = cli.main(argv)
    return code, buf.getvalue()


def test_certify_through_a_pipe_start_lines_simulated_time_and_quiet(monkeypatch):
    """`occupant certify A B`: "[i/n] name" before each test's figures, its simulated time
    in plain lines (gate and spacing set to 0 here so that every tenth shows), the same figures
    and exit code as with --quiet, which prints nothing else."""
    names = ["hybrid3_05f_neck_flexion", "hybrid3_50m_neck_flexion"]
    monkeypatch.setattr(cli, "CASE_PROGRESS_AFTER_S", 0.0)
    monkeypatch.setattr(Progress, "EVERY_S", 0.0)
    code, text = _merged(["certify", *names])
    quiet_code, quiet = _merged(["certify", *names, "--quiet"])
    assert code == quiet_code == 0
    lines = text.splitlines()
    starts = [i for i, ln in enumerate(lines) if ln.startswith("occupant certify: ")]
    assert [lines[i] for i in starts] == [f"occupant certify: [{i}/2] {n}" for i, n in enumerate(names, 1)]
    heads = [lines.index(f"{n}: hybrid3_{n[8:11]} neck flexion pendulum") for n in names]
    assert starts[0] < heads[0] < starts[1] < heads[1]
    for a, b in ((starts[0], heads[0]), (starts[1], heads[1])):
        steps = _steps(lines[a + 1:b])
        assert [s // 10 for s in steps] == list(range(1, 11)) and steps[-1] == 100
    # (on a cold cache, CI's fresh clone, the compile line: Progress.compiling)
    assert [ln for ln in lines if not ln.startswith(("occupant certify: ", "  simulating", COMPILE))] == quiet.splitlines()
    assert "simulating" not in quiet and "occupant certify:" not in quiet


def _pipe(*args):
    return subprocess.run([sys.executable, "-m", "occupant.cli", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)


def test_validate_through_a_pipe_says_which_case_starts():
    """A short validation case through a pipe: its start line first, then its figures (it is
    done within CASE_PROGRESS_AFTER_S, or shows plain lines); --quiet: the figures alone, the
    same, and the same exit code."""
    proc = _pipe("validate", "human_neck_nbdl_12g_frontal")
    quiet = _pipe("validate", "human_neck_nbdl_12g_frontal", "--quiet")
    assert proc.returncode == quiet.returncode
    lines = proc.stdout.splitlines()
    assert lines[0] == "occupant validate: [1/1] human_neck_nbdl_12g_frontal"
    _steps(lines)
    assert [ln for ln in lines[1:] if not ln.startswith(("  simulating", COMPILE))] == quiet.stdout.splitlines()
    assert quiet.stdout.startswith("human_neck_nbdl_12g_frontal: human head-neck")


def test_run_through_a_pipe_prints_plain_lines_of_simulated_time(tmp_path):
    """`occupant run` through a pipe: plain lines (no carriage return) of the simulated time
    between the "loaded" line and the summary, the tenths increasing; --quiet: none, the same
    summary and criteria."""
    args = ["run", "fmvss208_sled_48_belted", "--set", "solver.t_end=0.005", "--set", "outputs.report=false"]
    proc = _pipe(*args, "--out", str(tmp_path / "a"))
    quiet = _pipe(*args, "--out", str(tmp_path / "b"), "--quiet")
    assert proc.returncode == quiet.returncode == 0, proc.stdout
    assert "\r" not in proc.stdout
    lines = proc.stdout.splitlines()
    loaded = next(i for i, ln in enumerate(lines) if ln.startswith("occupant run: fmvss208_sled_48_belted: loaded"))
    title = next(i for i, ln in enumerate(lines) if ln.startswith("  FMVSS 208-style 48 km/h belted"))
    simulating = [ln for ln in lines[loaded + 1:title] if ln != COMPILE]   # (a cold cache's line)
    steps = _steps(simulating)
    assert steps and steps == sorted(set(steps)) and all("5.0 ms)" in ln for ln in simulating)
    assert not _steps(lines[:loaded] + lines[title:])
    assert not _steps(quiet.stdout.splitlines())
    assert ((tmp_path / "a" / "criteria.csv").read_text() == (tmp_path / "b" / "criteria.csv").read_text())


@pytest.mark.parametrize("method", ["radau", "bdf", "rk4"])
def test_identity_progress_never_changes_a_result(method, monkeypatch):
    """A simulation with and without a progress callback: the same compiled loops entered the
    same number of times (implicit: ``ImplicitIntegrator._entry``), and bitwise the same states,
    accelerations, forces and outputs (before, the loops were split in 20 only with progress;
    that measured identical on this case and on 3 s runs, but only by the argument that a loop
    ends at its first step past the chunk's end; now the chunks themselves are the same)."""
    import numpy as np

    from occupant import samples, simulate
    from occupant.integrate.implicit import ImplicitIntegrator
    entries = []
    entry = ImplicitIntegrator._entry

    def counted(self, action, *args, **kw):
        entries[-1] += 1
        return entry(self, action, *args, **kw)
    monkeypatch.setattr(ImplicitIntegrator, "_entry", counted)
    model = samples.random_tree(5, 4, joint_types=("revolute", "prismatic", "universal"))
    rng = np.random.default_rng(7)
    kw = dict(q0=model.random_configuration(rng), v0=rng.normal(scale=0.5, size=model.nv),
              integrator=method, output_dt=0.01, gravity=(0.0, 0.0, -9.81))
    runs, reports = [], []
    for progress in (None, reports.append):
        entries.append(0)
        runs.append(simulate(model, 0.4, progress=progress, **kw))
    a, b = runs
    assert a.status == b.status == "finished" and len(reports) == 20
    if method != "rk4":
        assert entries[0] == entries[1] > 1
    assert a.stats == b.stats
    for name in ("t", "q", "v", "z", "vdot", "f_ext", "body_poses"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert all(np.array_equal(a.outputs[k], b.outputs[k]) for k in a.outputs)


def test_compile_line_once_ending_an_open_bar():
    """``Progress.compiling``: one line, once per Progress, after a bar left open is ended."""
    buf = io.StringIO()
    p = Progress(stream=buf, terminal=True)
    p.simulation(0.1)(0.5)
    p.compiling()
    p.compiling()
    assert buf.getvalue().endswith(f" (50.0 of 100.0 ms)\n{COMPILE}\n")
    assert buf.getvalue().count(COMPILE) == 1


def test_compile_line_when_the_cache_lacks_what_a_run_needs(monkeypatch):
    """simulate on a cold cache (precompile's jobs missing, stood in for by ``_cached`` saying
    so; the implicit loop never compiled, by ``_never_compiled``): the current Progress says it
    compiles; on a warm one (the model run before in this process), nothing; with no Progress
    (--quiet), nothing."""
    from occupant import samples, simulate
    from occupant.integrate import precompile
    monkeypatch.setenv("OCCUPANT_COMPILE_PROCESSES", "1")   # (no worker: nothing to compile)
    model = samples.pendulum(n_links=2)

    def said(integrator="rk4"):
        buf = io.StringIO()
        with reporting(Progress(stream=buf, terminal=False)):
            simulate(model, 0.01, q0=[1.0, -0.5], integrator=integrator)
        return buf.getvalue().count(COMPILE)
    simulate(model, 0.01, q0=[1.0, -0.5])
    simulate(model, 0.01, q0=[1.0, -0.5], integrator="radau")
    assert said() == said("radau") == 0
    with monkeypatch.context() as m:
        m.setattr(precompile, "_cached", lambda dispatcher, argtypes: False)
        assert said() == 1
        buf = io.StringIO()
        with contextlib.redirect_stderr(buf), reporting(None):
            simulate(model, 0.01, q0=[1.0, -0.5])
        assert buf.getvalue() == ""
    with monkeypatch.context() as m:
        m.setattr(precompile, "_never_compiled", lambda dispatcher: True)
        assert said("radau") == 1 and said() == 0


def test_compare_of_scenarios_shows_progress_and_quiet_hides_it(tmp_path):
    """`occupant compare` of two scenario files (a belted sled cut to 5 ms) through a pipe: a
    line saying which it runs, then its simulated time, as `run` shows it; --quiet: the table
    alone, the same."""
    from occupant.scenario.load import resolve
    text = resolve("fmvss208_sled_48_belted").read_text(encoding="utf-8")
    assert "\nt_end = 0.15 " in text
    short = tmp_path / "short.toml"
    short.write_text(text.replace("\nt_end = 0.15 ", "\nt_end = 0.005 "), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "occupant.cli", "compare", str(short), str(short)],
                          capture_output=True, text=True)
    quiet = subprocess.run([sys.executable, "-m", "occupant.cli", "compare", str(short), str(short),
                            "--quiet"], capture_output=True, text=True)
    assert proc.returncode == quiet.returncode == 0, proc.stderr
    assert proc.stdout == quiet.stdout and quiet.stderr == ""
    err = [ln for ln in proc.stderr.splitlines() if ln != COMPILE]
    starts = [i for i, ln in enumerate(err) if ln.startswith("occupant compare: running ")]
    assert starts[0] == 0 and len(starts) == 2
    assert _steps(err[1:starts[1]]) and _steps(err[starts[1] + 1:])
    assert len(err) == 2 + len(_steps(err))


@pytest.mark.parametrize("args", [["run", "no_such_scenario"],
                                  ["run", "fmvss208_sled_48_unbelted", "--set", "solver.colour=1"],
                                  ["run", "fmvss208_sled_48_unbelted", "--set", "solver.t_end=soon"]])
def test_misspelt_name_or_set_refused_before_the_compile_line(capsys, monkeypatch, args):
    """On a cold cache (a fresh install) a misspelt scenario or --set is one error line: the name
    and the overrides are checked (load.checked_source) before ``run`` says it compiles. Before,
    the compile line came first and the worker started for nothing."""
    from occupant.cli import main
    from occupant.integrate import precompile
    monkeypatch.setattr(precompile, "cold", lambda: True)
    monkeypatch.setattr(precompile, "standby", lambda: None)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert COMPILING not in err and err.startswith("occupant: error: ") and len(err.splitlines()) == 1


@pytest.mark.parametrize("header", ["time [ms],acceleration [g]", "t,a"])
def test_a_refused_csv_pulse_is_one_line_before_the_compile_line(tmp_path, capsys, monkeypatch, header):
    """(usercheck12) On a cold cache a [pulse] CSV file refused (a row that is not two numbers, a
    header without units) printed "compiling the step (first run only) ..." first and its
    refusal after it, the compile worker started for nothing: the scenario's tables are now
    read and checked before ``run`` says it compiles (Scenario's ``before_compile``). A good
    file still gets the line (before anything runs)."""
    from occupant.cli import main
    from occupant.integrate import precompile
    from occupant.scenario.load import Scenario
    started = []
    monkeypatch.setattr(precompile, "cold", lambda: True)
    monkeypatch.setattr(precompile, "standby", lambda: started.append(1))
    (tmp_path / "bad.csv").write_text(f"{header}\n0,0\n10,-20\nabc,5\n")
    assert main(["run", "us_ncap_frontal_56", "--out", str(tmp_path / "o"), "--set",
                 f'pulse={{shape="csv", file="{tmp_path / "bad.csv"}"}}']) == 2
    err = capsys.readouterr().err
    assert COMPILING not in err and err.startswith("occupant: error: ") and len(err.splitlines()) == 1, err
    assert "bad.csv" in err and not started

    class Stop(Exception):
        pass

    def stop(self):   # the run: the load (and its compile line) done
        raise Stop
    monkeypatch.setattr(Scenario, "run", stop)
    (tmp_path / "good.csv").write_text("time [ms],acceleration [g]\n0,0\n50,-20\n100,0\n")
    with pytest.raises(Stop):
        main(["run", "us_ncap_frontal_56", "--out", str(tmp_path / "o"), "--set",
              f'pulse={{shape="csv", file="{tmp_path / "good.csv"}"}}'])
    assert capsys.readouterr().err == f"{COMPILE}\n" and started == [1]


_SLED = "fmvss208_sled_48_belted"
# (usercheck13) the scenario file's tables read after the model's build before: each refusal
# came after "compiling the step" on a cold cache
_LATE_TABLES = {"posture name": ('posture = "passenger_seated"', 'posture = "no_such_posture"'),
                "settle": ("settle = 0.3", "settle = -1"),
                "settle_belted": ("settle = 0.3", "settle = 0.3\nsettle_belted = 3"),
                "yaw_deg": ("settle = 0.3", 'settle = 0.3\nyaw_deg = "x"'),
                "sensors": ("[sensors]", "[sensors]\ncolour = 1"),
                "outputs": ("[outputs]", "[outputs]\ncolour = 1")}


@pytest.mark.parametrize("case", [*_LATE_TABLES, "posture file"])
def test_a_refused_table_of_the_scenario_is_one_line_before_the_compile_line(tmp_path, capsys, monkeypatch,
                                                                            case):
    """(usercheck13) On a cold cache a bad value or key in the scenario's posture (its name, or a
    key of the posture file it names), occupant.yaw_deg, settle, settle_belted, [sensors] or
    [outputs] was refused after "compiling the step (first run only) ...", the compile worker
    started for nothing: they are read and checked with the other tables now, before the line."""
    from occupant.integrate import precompile
    from occupant.scenario.load import resolve
    started = []
    monkeypatch.setattr(precompile, "cold", lambda: True)
    monkeypatch.setattr(precompile, "standby", lambda: started.append(1))
    text = resolve(_SLED).read_text(encoding="utf-8")
    if case == "posture file":
        (tmp_path / "posture.toml").write_text('kind = "posture"\ncolour = 1\n')
        old, new = 'posture = "passenger_seated"', f'posture = "{(tmp_path / "posture.toml").as_posix()}"'
    else:
        old, new = _LATE_TABLES[case]
    assert text.count(old) == 1
    (tmp_path / "s.toml").write_text(text.replace(old, new), encoding="utf-8")
    assert cli.main(["run", str(tmp_path / "s.toml"), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert COMPILING not in err and err.startswith("occupant: error: ") and len(err.splitlines()) == 1, err
    assert ("colour: unknown key" if case in ("sensors", "outputs", "posture file") else "occupant.") in err
    assert not started


def test_run_lines_reach_a_pipe_as_printed(tmp_path):
    """(usercheck13) On a pipe (``occupant run ... | tee log``) stdout was block-buffered: the
    "loaded and checked" line (and every line after it) came out only at the exit, after the run
    and its files, so that a first run's minutes of compiling showed nothing on stdout. The line
    is read now before the run has written its criteria.csv."""
    import os
    out = tmp_path / "o"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}   # as a user's shell has it
    proc = subprocess.Popen([sys.executable, "-m", "occupant.cli", "run", "us_ncap_frontal_56", "--out",
                             str(out), "--quiet", "--set", "outputs.report=false", "--set", "solver.t_end=0.03"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        first = proc.stdout.readline()
        written = (out / "criteria.csv").exists()
        rest = proc.stdout.read()
    finally:
        proc.wait()
    assert proc.returncode == 0
    assert first.startswith("occupant run: us_ncap_frontal_56: loaded and checked in ")
    assert not written, "the first line came out after the run's files: stdout not flushed line by line"
    assert "criteria.csv" in rest
