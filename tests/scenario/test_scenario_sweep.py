"""Sweeps (issue 13 section 4): one folder per variant with its criteria.csv, a table of inputs
and criteria, plots, resuming without redoing finished variants, failures recorded while the rest
go on; full factorial and Latin hypercube designs; a local pool and a Dask cluster."""
import csv

import numpy as np
import pytest

from occupant.cli import main
from occupant.scenario import ScenarioError, sweep
from occupant.scenario.run import folder_test_number
from occupant.scenario.sweep import design, parse_vary

SHORT = {"solver.t_end": 0.005}   # 5 ms: quick, and enough for every criterion to have a value


def test_analytic_design_and_vary_syntax():
    assert parse_vary("pulse.delta_v_kmh=40:56:3") == ("pulse.delta_v_kmh", [40.0, 48.0, 56.0])
    assert parse_vary("solver.integrator=euler,rk4") == ("solver.integrator", ["euler", "rk4"])
    assert repr(parse_vary("a=0.010:0.028:10")[1][4]) == "0.018"   # as written in sweep.csv
    assert design({"a": [1, 2], "b": ["x", "y", "z"]})[1] == {"a": 1, "b": "y"}
    assert len(design({"a": [1, 2], "b": ["x", "y", "z"]})) == 6
    with pytest.raises(ScenarioError, match=r"--vary a=1:2: a: cannot read '1:2'"):
        parse_vary("a=1:2")


def test_reference_a_key_set_twice_in_a_sweep_is_refused(tmp_path, capsys):
    """(usercheck4) ``--set K=a --set K=b``: the sweep ran b in every variant, unsaid."""
    assert main(["sweep", "fmvss208_sled_48_unbelted", "--vary", "solver.t_end=0.002,0.003", "--set",
                 "pulse.duration=0.1", "--set", "pulse.duration=0.08", "--out", str(tmp_path / "s")]) == 2
    assert capsys.readouterr().err == ("occupant: error: --set: pulse.duration: given twice (0.1, then 0.08) "
                                       "(accepted: each key once)\n")
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize("text, given", [("restraints.belt.load_limit=3000:3000:4", "3000.0 is given 4 times"),
                                         ("restraints.belt.load_limit=3000,4000,3000", "3000 is given 2 times"),
                                         ("occupant.dummy=hybrid3_50m,hybrid3_50m", "hybrid3_50m is given 2 times")])
def test_analytic_a_value_varied_twice_is_refused(text, given):
    """An empty range (start = stop with n > 1) or a value listed twice: the full factorial ran the
    same variant n times (usercheck4: 3000:3000:4 ran US NCAP four times over, sweep.csv four
    identical rows)."""
    key, values = parse_vary(text)
    with pytest.raises(ScenarioError) as err:
        design({key: values, "solver.t_end": [0.005]})
    assert str(err.value) == (f"--vary: {key}: {given}: its variants would be one run repeated (accepted: "
                              "distinct values (start:stop:n with start != stop, or n = 1))")
    assert len(design({key: values[:1] + [9.0], "solver.t_end": [0.005]})) == 2   # distinct values run


def test_reference_sweep_writes_resumes_and_records_failures(tmp_path, monkeypatch):
    """A variant whose run fails (here: an arithmetic error raised in the run of the 40 km/h
    variants) is recorded with its message while the rest go on. Values the loader refuses (a
    CSV pulse with the half-sine's keys, the failing variants here until stop 43) stop the sweep
    before any run (tests below)."""
    from occupant.scenario.load import Scenario
    run = Scenario.run

    def failing_at_40(self, progress=None):
        if self.data["pulse"]["delta_v_kmh"] == 40.0:
            raise ArithmeticError("a run that failed")
        return run(self, progress)
    monkeypatch.setattr(Scenario, "run", failing_at_40)
    vary = {"solver.t_end": [0.005], "pulse.duration": [0.1, 0.08], "pulse.delta_v_kmh": [48.0, 40.0]}
    calls = []
    rows = sweep("fmvss208_sled_48_unbelted", vary, tmp_path, workers=1,
                 progress=lambda done, total, *_: calls.append(done))
    assert [r["variant"] for r in rows] == ["v0001", "v0002", "v0003", "v0004"] and len(calls) == 4
    assert rows[0]["status"] == "ok" and rows[2]["status"] == "ok"
    for r in (rows[1], rows[3]):
        assert r["status"] == "error: a run that failed"
    for v in ("v0002", "v0004"):
        assert (tmp_path / v / "error.txt").exists() and not (tmp_path / v / "criteria.csv").exists()
    for v in ("v0001", "v0003"):
        assert (tmp_path / v / "criteria.csv").exists() and (tmp_path / v / "results.h5").exists()
        # the ISO-MME test of each variant: the sweep's folder and the variant (isommeid: both
        # were the scenario's name, clashing in one database)
        assert (tmp_path / v / "isomme" / f"{folder_test_number(tmp_path)}_{v}.mme").exists()
    with open(tmp_path / "sweep.csv", newline="") as fh:
        table = list(csv.DictReader(fh))
    assert list(table[0])[:5] == ["variant", "status", "solver.t_end", "pulse.duration", "pulse.delta_v_kmh"]
    assert table[0]["pulse.duration"] == "0.1" and float(table[0]["HIC15"]) >= 0 and table[1]["HIC15"] == ""
    # the units of sweep.csv's columns, beside it (sweep.csv keeps its one header line): a row per
    # column in its order, a key's from the key registry, a criterion's from criteria.csv
    with open(tmp_path / "sweep_units.csv", newline="") as fh:
        units = list(csv.reader(fh))
    assert units[0] == ["column", "unit"] and [c for c, _ in units[1:]] == list(table[0])
    units = dict(units[1:])
    assert units["variant"] == units["status"] == "-" and units["solver.t_end"] == "s"
    assert units["pulse.duration"] == "s" and units["pulse.delta_v_kmh"] == "km/h"
    with open(tmp_path / "v0001" / "criteria.csv", newline="") as fh:
        assert {r["criterion"]: r["unit"] for r in csv.DictReader(fh)} == {
            c: u for c, u in units.items() if c not in ("variant", "status", *vary)}
    assert units["HIC15"] == "-" and units["chest deflection"] == "mm"
    # again on the same folder: the finished variants are read back, only the failed ones rerun
    stamp = (tmp_path / "v0001" / "results.h5").stat().st_mtime_ns
    calls.clear()
    again = sweep("fmvss208_sled_48_unbelted", vary, tmp_path, workers=1,
                  progress=lambda done, total, *_: calls.append(done))
    assert calls == [3, 4] and (tmp_path / "v0001" / "results.h5").stat().st_mtime_ns == stamp
    assert again[0]["HIC15"] == pytest.approx(rows[0]["HIC15"], rel=1e-12)


def test_reference_sweep_rejects_a_bad_key_before_running(tmp_path):
    with pytest.raises(ScenarioError, match=r"solver.colour: unknown key"):
        sweep("fmvss208_sled_48_unbelted", {"solver.colour": [1, 2]}, tmp_path, workers=1)
    assert not list(tmp_path.glob("v*"))


HUMAN_PAIRS = ("to vary sex and percentile together, one variant per pair: --vary 'occupant.human=[{sex=\"male\", "
               "percentile=50}, {sex=\"female\", percentile=5}]'")


@pytest.mark.parametrize("vary, fixed, message", [
    # a later variant's value: on main the first variant ran and this one failed in its turn
    ({"pulse.duration": [0.1, -0.1]}, {}, "(--vary pulse.duration): pulse.duration: must be > 0 s, got -0.1 "
                                          "(accepted: a number, duration > 0 s)"),
    ({"solver.integrator": ["euler", "leapfrog"]}, {}, "(--vary solver.integrator): solver.integrator: unknown "
     "integrator 'leapfrog' (accepted: euler, rk4, dopri5, newmark, radau, bdf)"),
    ({"pulse.duration": (0.0, 0.1)}, {}, "(--vary pulse.duration): pulse.duration: must be > 0 s, got 0.0 "
                                         "(accepted: a number, duration > 0 s)"),   # a range's ends
    ({"pulse.duration": [0.1, 0.08]}, {"solver.t_end": -1.0},
     "(--set solver.t_end): solver.t_end: must be > 0 s, got -1.0 (accepted: a number, 0 < t_end <= 10 s)"),
    # checks against what a later variant's name builds: until stop 43 they failed in its turn
    ({"pulse.duration": [0.1, 0.08], "pulse.shape": ["half_sine", "csv"]}, {},
     "(--vary pulse.shape): pulse.delta_v_kmh: unknown key beside pulse.shape = 'csv' (the file's, kept: "
     "pulse.shape alone was overridden) (accepted: shape, file, speed_kmh, start, scale, direction; or [pulse] "
     "given whole: --set 'pulse={...}')"),   # (usercheck7: the --vary named as the shape's)
    ({"occupant.dummy": ["hybrid3_50m", "hybrid3_95m"]}, {},
     "(--vary occupant.dummy=hybrid3_95m): criteria.regulation: fmvss208_hybrid3_50m judges the hybrid3_50m, "
     "the occupant is hybrid3_95m (accepted: no regulation for this occupant: leave criteria.regulation out (a "
     "--set cannot remove a key the file gives: edit a copy of the scenario file))"),
    # (usercheck10) a dummy some regulations judge: those were named, which a --set would fail on
    # the file's own dummy; how a sweep over dummies runs is said
    ({"occupant.dummy": ["hybrid3_50m", "hybrid3_05f"]}, {},
     "(--vary occupant.dummy=hybrid3_05f): criteria.regulation: fmvss208_hybrid3_50m judges the hybrid3_50m, "
     "the occupant is hybrid3_05f (accepted: fmvss208_hybrid3_05f, euroncap_fw50_hybrid3_05f, "
     "un_r137_hybrid3_05f; to vary the dummy, one sweep per dummy with --set criteria.regulation=<its "
     "regulation>, or a copy of the scenario file without criteria.regulation (values only; criteria.reference "
     "shows a protocol's limits, not judged))"),
    # the solver's keys checked against each other: until sweepcheck a dt not dividing t_end failed
    # in its turn, in simulate ("error: simulate: t_end ... is not a whole number of steps")
    ({"solver.dt": [1e-5, 3e-4], "pulse.duration": [0.1, 0.08]}, SHORT,
     "(--vary solver.dt): solver.dt: t_end 0.005 s is not a whole number of steps of 0.0003 s (t_end / dt = "
     "16.6667) (accepted: a dt that divides t_end for the fixed-step euler, or leave dt out)"),
    # (usercheck9) a human's percentile against its sex's tables: the 5th female ran and the 50th
    # failed after it; sex and percentile varied, the table's percentiles alone were said
    ({"occupant.human.percentile": [5.0, 50.0]}, {"occupant.human.sex": "female"},
     "(--vary occupant.human.percentile): occupant.human.percentile: 50.0 is not tabulated for female "
     "(accepted: 5; or give stature and mass; " + HUMAN_PAIRS + ")"),
    ({"occupant.human.sex": ["male", "female"]}, {},
     "(--vary occupant.human.sex): occupant.human: none of percentile, stature and mass given, so percentile "
     "50: percentile: 50 is not tabulated for female (accepted: 5; or give stature and mass; " + HUMAN_PAIRS + ")"),
])
def test_reference_sweep_checks_every_varied_value_before_running(tmp_path, vary, fixed, message):
    """Every key and value of --vary and --set is held against the key registry before the
    first variant loads, and every combination of varied names is loaded: one message naming the
    scenario, the option and the key, nothing written."""
    kind = "lhs" if any(isinstance(v, tuple) for v in vary.values()) else "full"
    with pytest.raises(ScenarioError) as err:
        sweep("fmvss208_sled_48_unbelted", vary, tmp_path, workers=1, overrides=fixed, design_kind=kind,
              samples=2 if kind == "lhs" else None)
    assert str(err.value).endswith(f"fmvss208_sled_48_unbelted.toml {message}"), str(err.value)
    assert not list(tmp_path.iterdir())


def test_analytic_latin_hypercube_has_one_sample_per_stratum():
    n = 7
    vary = {"a": (10.0, 24.0), "b": (0.0, 1.0), "c": ["x", "y", "z"]}
    d = design(vary, "lhs", samples=n, seed=3)
    assert len(d) == n and d == design(vary, "lhs", samples=n, seed=3)   # the seed fixes the design
    assert d != design(vary, "lhs", samples=n, seed=4)
    for key, (lo, hi) in (("a", (10.0, 24.0)), ("b", (0.0, 1.0))):
        strata = np.floor((np.array([v[key] for v in d]) - lo) / (hi - lo) * n).astype(int)
        assert sorted(strata) == list(range(n))   # McKay et al. 1979: each of n strata exactly once
    counts = [sum(v["c"] == level for v in d) for level in "xyz"]
    assert sorted(counts) == [2, 2, 3]   # a list of 3 levels over 7 strata: as even as it can be
    assert parse_vary("a=1:3", ranges=True) == ("a", (1.0, 3.0))
    with pytest.raises(ScenarioError, match="a range"):
        design({"a": (1.0, 2.0)}, "full")
    with pytest.raises(ScenarioError, match="--samples"):
        design({"a": (1.0, 2.0)}, "lhs")


def test_reference_sweep_on_a_dask_cluster_matches_the_serial_run(tmp_path):
    distributed = pytest.importorskip("distributed")
    vary = {"pulse.delta_v_kmh": [40.0, 56.0]}
    # long enough for the pulse, not only gravity, to move the head: settled (occupant.settle)
    # the head is at rest at t = 0 and in 30 ms HIC15 was 0.028 / 0.027 at 40 / 56 km/h, noise
    # in the wrong order; in 50 ms 0.054 / 0.118
    overrides = {"solver.t_end": 0.05}
    serial = sweep("fmvss208_sled_48_unbelted", vary, tmp_path / "serial", workers=1, overrides=overrides,
                   plots=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        done = []
        rows = sweep("fmvss208_sled_48_unbelted", vary, tmp_path / "dask", scheduler=cluster.scheduler_address,
                     overrides=overrides, progress=lambda d, total, variant, status, s: done.append((variant, status)))
    assert sorted(done) == [("v0001", "ok"), ("v0002", "ok")]
    assert [r["status"] for r in rows] == ["ok", "ok"]
    for a, b in zip(serial, rows):   # the same inputs give the same numbers on any executor
        assert a == b
    assert rows[0]["HIC15"] < rows[1]["HIC15"]   # a harder pulse loads the head more
    for v in ("v0001", "v0002"):
        assert (tmp_path / "dask" / v / "criteria.csv").exists()
        assert not (tmp_path / "dask" / v / "report.html").exists()   # reports only on request
    assert (tmp_path / "dask" / "plots" / "HIC15.png").stat().st_size > 5000


def test_reference_sweep_command_latin_hypercube_and_a_changed_design(tmp_path, capsys):
    def args(seed):
        return ["sweep", "fmvss208_sled_48_unbelted", "--vary", "pulse.delta_v_kmh=40:56", "--design",
                "lhs", "--samples", "2", "--seed", str(seed), "--set", "solver.t_end=0.005",
                "--workers", "1", "--out", str(tmp_path)]
    assert main(args(1)) == 0
    text = capsys.readouterr().out
    assert "Latin hypercube of 2 samples (seed 1)" in text and "[2/2] v000" in text
    with open(tmp_path / "sweep.csv", newline="") as fh:
        table = list(csv.DictReader(fh))
    dv = sorted(float(r["pulse.delta_v_kmh"]) for r in table)
    assert 40 <= dv[0] < 48 <= dv[1] <= 56   # one sample in each half of the range
    assert (tmp_path / "plots" / "HIC15.png").exists()
    # the same folder with another seed is another design: refused, nothing run
    assert main(args(2)) == 2
    assert "holds a different sweep" in capsys.readouterr().err


def test_reference_a_diverging_variant_is_recorded_and_not_run_again(tmp_path):
    """RK4 at 5e-4 s blows up (17 times the neck damping's stable step): that variant is kept
    with its reason and no criteria, the other finishes; a second sweep runs neither again."""
    vary = {"solver.dt": [1e-5, 5e-4]}
    fixed = {**SHORT, "solver.integrator": "rk4"}
    rows = sweep("fmvss208_sled_48_unbelted", vary, tmp_path, workers=1, overrides=fixed, plots=False)
    assert rows[0]["status"] == "ok" and rows[0]["HIC15"] is not None
    assert rows[1]["status"].startswith("stopped early: the state stopped being finite")
    assert rows[1]["HIC15"] is None and (tmp_path / "v0002" / "criteria.csv").exists()
    calls = []
    again = sweep("fmvss208_sled_48_unbelted", vary, tmp_path, workers=1, overrides=fixed, plots=False,
                  progress=lambda *a: calls.append(a))
    assert calls == [] and [r["status"] for r in again] == [r["status"] for r in rows]


def test_reference_sweep_command_checks_its_arguments_before_any_output(tmp_path, capsys):
    """A design that cannot run (no --samples for a Latin hypercube, --samples or --seed for a
    full factorial, --workers 0, an unknown varied key, a key varied twice) is one message on
    stderr naming the option, exit 2, no header, nothing run."""
    base = ["sweep", "fmvss208_sled_48_unbelted", "--set", "solver.t_end=0.005", "--out", str(tmp_path)]
    cases = ((["--vary", "pulse.delta_v_kmh=40:56", "--design", "lhs"], "--samples: a Latin hypercube"),
             (["--vary", "pulse.delta_v_kmh=40:56:2", "--workers", "0"], "--workers: 0: not a number"),
             (["--vary", "solver.colour=1,2"], "(--vary solver.colour): solver.colour: unknown key"),
             # a later variant's bad value: on main the first variant ran, this one failed in its turn
             (["--vary", "pulse.duration=0.1,-0.1"], "(--vary pulse.duration): pulse.duration: must be > 0 s, "
              "got -0.1 (accepted: a number, duration > 0 s)\n"),
             # a key varied twice ran the last --vary alone, silently
             (["--vary", "pulse.delta_v_kmh=40,48", "--vary", "pulse.delta_v_kmh=56"],
              "--vary: pulse.delta_v_kmh: given more than once (accepted: each key once, all its values in one --vary)"),
             # a Latin hypercube's options without --design lhs ran the full factorial, silently
             (["--vary", "pulse.delta_v_kmh=40,48", "--samples", "20"], "--samples: --samples 20 is for a Latin "
              "hypercube; a full factorial runs every combination of the values (accepted: --design lhs with "
              "--samples, or leave --samples out)"),
             (["--vary", "pulse.delta_v_kmh=40,48", "--seed", "3"], "--seed: --seed 3 is for a Latin hypercube"),
             # a hypercube's start:stop:n ran --samples variants, n unsaid (8 asked, 4 run)
             (["--vary", "restraints.belt.load_limit=3000:6000:8", "--design", "lhs", "--samples", "4"],
              "--vary restraints.belt.load_limit=3000:6000:8: restraints.belt.load_limit: a Latin hypercube "
              "samples the range 3000:6000; its number of variants is --samples N, not a count of values (8) "
              "(accepted: KEY=start:stop (start < stop) or KEY=a,b,c with --samples N)"),
             # lists only, more samples than combinations: the same run several times
             (["--vary", "restraints.belt.load_limit=3000,4000,5000", "--design", "lhs", "--samples", "6"],
              "--samples: 6 samples of restraints.belt.load_limit repeat runs: 3 of them are distinct"))
    for extra, message in cases:
        assert main(base + extra) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and message in captured.err and captured.err.count("\n") == 1, (extra, captured)
    assert not list(tmp_path.glob("v*"))


def test_reference_a_sweep_refuses_a_run_folder_and_a_run_a_sweeps(tmp_path, capsys):
    """A sweep into the folder of an ``occupant run`` wrote its sweep.csv, plots/ and variants
    among the run's files (seen: --out an earlier run's folder), and a run into a sweep's folder
    its files among the variants: one message each, exit 2, nothing written."""
    (tmp_path / "criteria.csv").write_text("criterion,value,unit,limit,pass\n")
    before = sorted(tmp_path.iterdir())
    assert main(["sweep", "fmvss208_sled_48_unbelted", "--vary", "pulse.delta_v_kmh=40,48", "--set",
                 "solver.t_end=0.005", "--workers", "1", "--out", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.err == (f"occupant: error: --out {tmp_path}: this folder holds a run of occupant run (its "
                            "criteria.csv), not a sweep (accepted: a new --out folder, or a sweep's folder to "
                            "resume it)\n") and captured.out == ""
    assert sorted(tmp_path.iterdir()) == before
    # and the other way round: occupant run wrote its results.h5 and criteria.csv among a sweep's
    # variants, which compare then took for a run
    sweep_dir = tmp_path / "sweep"
    sweep_dir.mkdir()
    (sweep_dir / "sweep.json").write_text("{}")
    assert main(["run", "fmvss208_sled_48_unbelted", "--set", "solver.t_end=0.005", "--out", str(sweep_dir),
                 "--quiet"]) == 2
    assert capsys.readouterr().err == (f"occupant: error: --out: {sweep_dir}: a sweep's folder (its sweep.json), "
                                       "not a run's (accepted: a new folder, or a run's folder to write again)\n")
    assert [p.name for p in sweep_dir.iterdir()] == ["sweep.json"]


def test_reference_ctrl_c_stops_a_sweep_at_once_and_it_resumes(tmp_path):
    """Ctrl-C (SIGINT to the process group) stops the running variants at once (not after them),
    with one line and exit 130, no worker's traceback; the same command again says how many
    finished before and runs the rest."""
    import os
    import signal
    import subprocess
    import sys
    import time
    cmd = [sys.executable, "-m", "occupant.cli", "sweep", "fmvss208_sled_48_unbelted", "--vary",
           "pulse.delta_v_kmh=40:48:4", "--set", "solver.t_end=0.15", "--workers", "2", "--out", str(tmp_path)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,   # its own process group, SIGINT not ignored
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert "4 variants" in proc.stdout.readline()   # checked, the workers starting
    time.sleep(1.0)
    os.killpg(proc.pid, signal.SIGINT)
    start = time.perf_counter()
    _, err = proc.communicate(timeout=60)
    assert time.perf_counter() - start < 5.0
    assert proc.returncode == 130 and "Traceback" not in err and "occupant: interrupted" in err, err
    finished = sum((tmp_path / f"v{i:04d}" / "criteria.csv").exists() for i in range(1, 5))
    assert finished < 4
    again = subprocess.run(cmd, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    if finished:
        assert f"{finished} finished before, {4 - finished} to run" in again.stdout
    assert all((tmp_path / f"v{i:04d}" / "criteria.csv").exists() for i in range(1, 5))


@pytest.mark.parametrize("deaths", [1, 2])
def test_reference_a_worker_killed_fails_its_variant_alone(tmp_path, monkeypatch, deaths):
    """A worker process killed (SIGKILL here, as the out-of-memory killer does) broke the local
    pool, and every variant it had not finished was recorded "error: worker failed:
    BrokenProcessPool" (all 6 of a sweep of us_ncap_frontal_56 with one worker killed 3 s in):
    the rest of the sweep was lost. Now the variants of a broken pool run again, the one whose
    process died alone; killed once, it finishes; killed every time, it alone is recorded failed.
    (The pool forks: the workers inherit this test's patch.)"""
    import multiprocessing
    import os
    import signal

    if multiprocessing.get_start_method() != "fork":
        pytest.skip("the workers must inherit the patched Scenario.run")
    from occupant.scenario.load import Scenario
    run = Scenario.run
    killed = tmp_path / "killed"

    def killed_at_48(self, progress=None):
        if self.data["pulse"]["delta_v_kmh"] == 48.0 and (deaths == 2 or not killed.exists()):
            killed.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return run(self, progress)
    monkeypatch.setattr(Scenario, "run", killed_at_48)
    vary = {"pulse.delta_v_kmh": [40.0, 48.0, 56.0, 44.0]}
    notes = []
    rows = sweep("fmvss208_sled_48_unbelted", vary, tmp_path / "sweep", workers=2, overrides=SHORT, plots=False,
                 note=notes.append)
    status = [r["status"] for r in rows]
    # said once, naming the variant (and any other its pool's end killed), which runs again
    assert len(notes) == 1 and notes[0].startswith("a worker process died") and "v0002" in notes[0], notes
    if deaths == 1:
        assert status == ["ok"] * 4
    else:
        assert status == ["ok", "error: its worker process died twice while running it (killed: out of memory, "
                          "a crash, a signal); the other variants went on", "ok", "ok"]
        assert not (tmp_path / "sweep" / "v0002" / "criteria.csv").exists()
        assert (tmp_path / "sweep" / "v0002" / "error.txt").read_text().startswith("its worker process died")
    assert all(r["HIC15"] is not None for r in rows if r["status"] == "ok")
    assert not list((tmp_path / "sweep").glob("v*/.running"))


def test_analytic_a_pool_broken_with_no_process_found_dead_is_said_so(tmp_path):
    """A pool that breaks MAX_BLIND_RESTARTS + 1 times in a row with no variant's process found
    dead (no RUNNING file left) fails its variants; they were recorded with the words of a
    variant whose own process died twice, which had not happened. Each now has its own reason."""
    import importlib
    sw = importlib.import_module("occupant.scenario.sweep")   # (the package exports the function sweep)
    folders = [tmp_path / f"v{i:04d}" for i in (1, 2)]
    for f in folders:
        f.mkdir()
    recorded, deaths, blind = {}, {}, 0
    for _ in range(sw.MAX_BLIND_RESTARTS):   # broken, nobody found dead: they run again
        blind, dead = sw._after_broken_pool([0, 1], folders, deaths, blind,
                                            lambda i, o: recorded.setdefault(i, o))
        assert dead == [] and not recorded
    blind, dead = sw._after_broken_pool([0, 1], folders, deaths, blind, lambda i, o: recorded.setdefault(i, o))
    assert blind == sw.MAX_BLIND_RESTARTS + 1 and sorted(recorded) == [0, 1]
    for i, f in enumerate(folders):
        assert recorded[i][0] == f"error: {sw.POOL_BROKE}" and "died twice" not in recorded[i][0]
        assert (f / "error.txt").read_text().strip() == sw.POOL_BROKE
    # a variant whose process is found dead twice keeps its own words
    recorded.clear()
    for _ in range(2):
        (folders[0] / sw.RUNNING).touch()
        blind, dead = sw._after_broken_pool([0], folders, deaths, 0, lambda i, o: recorded.setdefault(i, o))
        assert dead == [0] and blind == 0
    assert recorded[0][0] == f"error: {sw.WORKER_DIED}" and not (folders[0] / sw.RUNNING).exists()


@pytest.mark.parametrize("cold", [True, False])
def test_reference_sweep_says_when_its_workers_compile(tmp_path, capsys, monkeypatch, cold):
    """On a cold numba cache the first variants compile the step in each worker, about a minute
    (57 s for us_ncap_frontal_56's first two on 2 workers) with nothing shown after the header;
    the sweep says so, as occupant run does, and says nothing on a warm cache."""
    from occupant.integrate import precompile
    monkeypatch.setattr(precompile, "cold", lambda: cold)
    assert main(["sweep", "fmvss208_sled_48_unbelted", "--vary", "pulse.delta_v_kmh=40", "--set",
                 "solver.t_end=0.005", "--workers", "1", "--out", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    said = "  compiling the step (first run only) in each worker ..."
    assert (lines[1] == said) if cold else (said not in lines), lines


@pytest.mark.parametrize("vary, said", [
    ("contact_characteristic.knee_bolster.table=[[0, 0], [0.01, 2500]]",
     "contact_characteristic.knee_bolster.table: expected >= 2 rows [x, y], got [0, 0] (accepted: rows "
     "[[x, y], ...] (m, N); a --vary list gives one variant per item, so each item is rows [[x, y], ...]: "
     "--vary 'contact_characteristic.knee_bolster.table=[A, B]', A and B each rows [[x, y], ...])"),
    ("restraints.airbag.position=[0.36, 0, 0.37]",
     "restraints.airbag.position: expected a list of 3 finite numbers, got 0.36 (accepted: a list of 3 "
     "numbers (m); a --vary list gives one variant per item, so each item is a list of 3 numbers: "
     "--vary 'restraints.airbag.position=[A, B]', A and B each a list of 3 numbers)"),
])
def test_reference_a_list_valued_key_varied_with_one_value_says_the_list_is_the_variants(tmp_path, vary, said):
    """(usercheck8) A --vary list is the variants, one per item (``KEY=[a, b, c]``), which
    neither --help nor the message said: a knee bolster's table varied as one table was read as
    two variants, [0, 0] and [0.01, 2500], and refused as "expected >= 2 rows, got [0, 0]" only."""
    from occupant.scenario.sweep import parse_vary
    key, values = parse_vary(vary)
    with pytest.raises(ScenarioError) as err:
        sweep("us_ncap_frontal_56", {key: values}, tmp_path / "out")
    assert str(err.value).endswith(f"(--vary {key}): {said}"), str(err.value)
    assert not (tmp_path / "out").exists()   # before any run


@pytest.mark.parametrize("vary, said", [
    ({"restraints.belt.load_limit": 3000.0},
     "--vary: restraints.belt.load_limit: 3000.0 is not a list of values (accepted: a list of values "
     "[a, b, ...], or a range (start, stop) with --design lhs)"),
    ({"restraints.belt.load_limit": [3000.0, 4000.0], "restraints.airbag.fire_time": []},
     "--vary: restraints.airbag.fire_time: no values: the design would have no variants (accepted: at "
     "least one value)"),
])
def test_reference_a_python_sweep_of_a_value_or_no_values_names_the_key(tmp_path, vary, said):
    """(usercheck8) ``occupant.scenario.sweep(name, {key: 3000}, folder)`` (the README's
    ``{key: [values]}`` with the brackets left out) ended in "TypeError: 'int' object is not
    iterable"; an empty list beside another key's values was "--vary: no variants", no key named."""
    with pytest.raises(ScenarioError) as err:
        sweep("us_ncap_frontal_56", vary, tmp_path / "out")
    assert str(err.value) == said
    assert not (tmp_path / "out").exists()


def test_reference_ctrl_c_on_a_dask_cluster_names_the_variants_that_go_on(tmp_path, capsys, monkeypatch):
    """(usercheck9) A Dask worker runs a task it has started to its end: after Ctrl-C the variants
    it was running wrote their folders (seen: v0005 and v0006 finished 3 s after "occupant:
    interrupted"), unsaid, and the same command run again before they end would run them a
    second time into the same folders. The message now names them. The cluster here is a stand-in: each submitted
    variant is started (its running mark made, as run_variant does) and Ctrl-C comes while the
    first two run; a local pool's Ctrl-C stops its workers and keeps the old words."""
    import importlib
    sweep_module = importlib.import_module("occupant.scenario.sweep")   # (the package's `sweep` is the function)

    def executor(workers, scheduler):
        started = []

        def submit(fn, scenario, variant, folder, reports):
            if len(started) < 2:   # the cluster's two workers take the first two variants
                (sweep_module.pathlib.Path(folder) / sweep_module.RUNNING).touch()
            started.append(folder)
            return folder

        def as_completed(futures):
            raise KeyboardInterrupt
            yield

        return submit, as_completed, (lambda: None), (lambda: None)

    monkeypatch.setattr(sweep_module, "_executor", executor)
    for i in (1, 2, 3):
        (tmp_path / f"v{i:04d}").mkdir()
    assert main(["sweep", "fmvss208_sled_48_unbelted", "--vary", "pulse.delta_v_kmh=40,44,48", "--set",
                 "solver.t_end=0.005", "--scheduler", "tcp://127.0.0.1:1", "--out", str(tmp_path)]) == 130
    assert capsys.readouterr().err == (
        f"occupant: interrupted: the finished variants are kept in {tmp_path}; the same command again runs the "
        "others; v0001, v0002 went on running on the Dask cluster (a Dask worker does not stop a task it has "
        "started): they write their folders when they end; wait for them before running the sweep again\n")
    for i in (1, 2):
        (tmp_path / f"v{i:04d}" / sweep_module.RUNNING).unlink()
    assert main(["sweep", "fmvss208_sled_48_unbelted", "--vary", "pulse.delta_v_kmh=40,44,48", "--set",
                 "solver.t_end=0.005", "--workers", "2", "--out", str(tmp_path)]) == 130
    assert capsys.readouterr().err == (f"occupant: interrupted: the finished variants are kept in {tmp_path}; "
                                       "the same command again runs the others\n")


def test_reference_a_limit_shown_for_reference_is_not_drawn_as_the_sweeps_limit(tmp_path):
    """(usercheck9) A human sweep on US NCAP drew FMVSS 208's 50th-male limits in its plots and
    marked the variants past them "beyond the limit", though no run judged a human (criteria.csv's
    pass empty: a limit shown for reference); the 5th female was held to the man's 63 mm. Only a
    limit a run was judged against (pass true or false) is the sweep's."""
    import importlib
    sweep_module = importlib.import_module("occupant.scenario.sweep")
    folder = tmp_path / "v0001"
    folder.mkdir()
    (folder / "criteria.csv").write_text("criterion,value,unit,limit,pass\nHIC15,738.4,-,700.0,\n"
                                         "chest deflection,67.4,mm,63.0,\nNij,0.4,-,1.0,true\n"
                                         "neck tension,2900.0,N,2620.0,false\nHIC36,965.2,-,,\n")
    limits, units = sweep_module._limits([folder], {0: ("ok", {})})
    assert limits == {"Nij": 1.0, "neck tension": 2620.0}
    assert units == {"HIC15": "-", "chest deflection": "mm", "Nij": "-", "neck tension": "N", "HIC36": "-"}


def test_reference_a_sweep_of_one_variant_says_one_not_ones(tmp_path, capsys):
    """(usercheck10, usercheck11) A sweep of one variant printed "1 variants over ...", "(1 rows,
    0 not ok ...)" and a Latin hypercube of one sample "of 1 samples"; its plots' titles "of 1
    variants". Counts of one are singular now, others plural as before."""
    from occupant.display import count_text
    assert [count_text(n, "variant") for n in (0, 1, 2)] == ["0 variants", "1 variant", "2 variants"]
    assert main(["sweep", "fmvss208_sled_48_unbelted", "--vary", "pulse.delta_v_kmh=40:56", "--design",
                 "lhs", "--samples", "1", "--set", "solver.t_end=0.005", "--workers", "1",
                 "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert ", 1 variant over pulse.delta_v_kmh (Latin hypercube of 1 sample (seed 0))" in text, text
    assert "sweep.csv (1 row, 0 not ok;" in text, text
    for word in ("1 variants", "1 samples", "1 rows"):
        assert word not in text, text


def test_reference_a_sweep_whose_values_change_no_criterion_says_so(tmp_path, capsys):
    """(usercheck11) A sweep of a 2, 3 and 4 kN load limiter under a 45 km/h pulse whose belt
    never reached 2 kN wrote three identical rows and flat plots, and said nothing: the user
    reads a limiter that does not matter. Now one line says the criteria are the same in every
    variant; a sweep whose values change them says nothing of it. Here the airbag fires after
    the run's 5 ms end at both times."""
    said = "every criterion is the same in all 2 variants to the last digit: the values of restraints.airbag.fire_time"
    assert main(["sweep", "fmvss208_sled_48_unbelted", "--vary", "restraints.airbag.fire_time=0.02,0.03", "--set",
                 "solver.t_end=0.005", "--workers", "1", "--out", str(tmp_path / "same")]) == 0
    text = capsys.readouterr().out
    assert said in text, text
    with open(tmp_path / "same" / "sweep.csv", newline="") as fh:
        table = list(csv.DictReader(fh))
    assert table[0]["HIC15"] == table[1]["HIC15"] != ""
    assert main(["sweep", "fmvss208_sled_48_unbelted", "--vary", "pulse.delta_v_kmh=40,56", "--set",
                 "solver.t_end=0.005", "--workers", "1", "--out", str(tmp_path / "differ")]) == 0
    text = capsys.readouterr().out
    assert "every criterion is the same" not in text, text
