"""Benchmark of issue 13 section 7 (not a timed test): ``occupant run us_ncap_frontal_56`` with a
warm JIT cache, and a sweep of it.

1. simulation and criteria (``Scenario.run``: fit the belt, simulate 0.150 s at 1e-5 s, record
   at 10 kHz, sensors, criteria), in a process that has run once already; also the scenario's
   load (validation, model build) and the run folder written without and with the report.
   Target: simulation and criteria under 1 s.
2. the whole command in a new process (``occupant run us_ncap_frontal_56 --out DIR``: import,
   load, run, results.h5, ISO-MME, HTML and PDF report), with the JIT cache present (target: under
   10 s) and, with ``--cold``, on an empty one (NUMBA_CACHE_DIR a new folder: a newcomer's first
   run, compilation included; target: under 15 s).
3. a sweep of ``--variants`` variants of it on ``--workers`` local processes (reports off, as a
   sweep writes them), extrapolated to 100 variants by the time per variant once the pool runs.
   Target: 100 variants on 2 workers under 3 minutes.

CPU seconds (time.process_time, and the children's for subprocesses) are printed beside wall
seconds: on a machine shared with other work the wall time says more about the load than about
the code.

``--human``: all of it with the parametric human in the dummy's place (``--set
occupant.human.sex=male``, the 50th percentile man; issue 14), which runs the dummy's compiled
step (``model.bundle.ALWAYS_PASSED``): the same targets.

Run: python tests/benchmarks/bench_scenario.py [--variants 4] [--workers 2] [--skip-sweep] [--cold] [--human]
"""
import argparse
import gc
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCENARIO = "us_ncap_frontal_56"
HUMAN = {"occupant.human.sex": "male"}   # --human: the parametric human in the dummy's place


def _clock():
    return time.perf_counter(), time.process_time()


def _since(start):
    wall, cpu = _clock()
    return wall - start[0], cpu - start[1]


def _children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def in_process(folder, repeats=3, overrides=None):
    """{phase: (wall s, cpu s)}: best of ``repeats`` after a first, warming run. The garbage a
    phase leaves is collected before the next is timed (gc.collect): a repetition's run would
    otherwise pay for the previous one's report (0.09 s, scenarios/HISTORY.md bench1s), which a
    command, running once, never does."""
    from occupant.scenario import load, write_run
    load(SCENARIO, overrides).run()   # the JIT cache loaded into this process
    best = {}
    for _ in range(repeats):
        gc.collect()
        t = _clock()
        sc = load(SCENARIO, overrides)
        times = {"load (validate, build the model)": _since(t)}
        gc.collect()
        t = _clock()
        run = sc.run()
        times["simulation and criteria"] = _since(t)
        t = _clock()
        sc.data.setdefault("outputs", {})["report"] = False
        write_run(run, Path(folder) / "plain")
        times["results.h5, ISO-MME, criteria.csv"] = _since(t)
        t = _clock()
        from occupant import report
        report.write(run, Path(folder) / "plain")
        times["HTML and PDF report"] = _since(t)
        for k, v in times.items():
            best[k] = min(best.get(k, v), v)
    return best


def whole_command(folder, cache=None, overrides=None):
    """(wall s, cpu s) of ``occupant run`` in a new process; with ``cache`` (a folder) numba's
    cache is there instead of beside the sources."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache)) if cache else None
    sets = [a for key, value in (overrides or {}).items() for a in ("--set", f"{key}={value}")]
    cpu0, t0 = _children_cpu(), time.perf_counter()
    subprocess.run([sys.executable, "-m", "occupant.cli", "run", SCENARIO, "--out", str(Path(folder) / "cmd"),
                    "--quiet", *sets], check=True, capture_output=True, env=env)
    return time.perf_counter() - t0, _children_cpu() - cpu0


def sweep_time(folder, variants, workers, overrides=None):
    """(wall s of the sweep, wall s per variant once running, CPU s per variant (the workers'
    and this process's), rows)."""
    from occupant.scenario import sweep
    stamps = []
    cpu0 = _children_cpu() + time.process_time()
    t0 = time.perf_counter()
    rows = sweep(SCENARIO, {"restraints.belt.load_limit": [3000.0 + 250.0 * i for i in range(variants)]},
                 Path(folder) / "sweep", workers=workers, plots=False, overrides=overrides,
                 progress=lambda *a: stamps.append(time.perf_counter()))
    total = time.perf_counter() - t0
    # per variant in steady state: from the first finished variant to the last, per variant
    per = (stamps[-1] - stamps[0]) / (len(stamps) - 1) if len(stamps) > 1 else total
    cpu = (_children_cpu() + time.process_time() - cpu0) / variants   # the pool's workers are reaped by now
    return total, per, cpu, rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variants", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--skip-sweep", action="store_true")
    ap.add_argument("--cold", action="store_true", help="also the whole command on an empty JIT cache")
    ap.add_argument("--human", action="store_true", help="the parametric human (50th male) in the dummy's place")
    args = ap.parse_args()
    overrides = HUMAN if args.human else None
    with tempfile.TemporaryDirectory() as tmp:
        who = ", the 50th percentile male human" if args.human else ""
        print(f"{SCENARIO}{who}, warm JIT cache, best of 3 in one process (wall s / CPU s):")
        for k, (wall, cpu) in in_process(tmp, overrides=overrides).items():
            print(f"  {k:<36} {wall:7.2f} / {cpu:6.2f}")
        wall, cpu = whole_command(tmp, overrides=overrides)
        print(f"whole command in a new process: {wall:.2f} s wall, {cpu:.2f} s CPU (target < 10 s)")
        if args.cold:
            wall, cpu = whole_command(tmp, cache=Path(tmp) / "numba_cache", overrides=overrides)
            print(f"whole command in a new process, empty JIT cache (compilation included): "
                  f"{wall:.2f} s wall, {cpu:.2f} s CPU (target < 15 s)")
        if not args.skip_sweep:
            total, per, cpu, rows = sweep_time(tmp, args.variants, args.workers, overrides)
            ok = sum(r["status"] == "ok" for r in rows)
            print(f"sweep of {args.variants} variants on {args.workers} workers: {total:.1f} s wall "
                  f"({ok} ok); {per:.2f} s wall per variant once running -> 100 variants ~ "
                  f"{total - per * (args.variants - 1) + per * 99:.0f} s wall here; {cpu:.2f} CPU s per "
                  f"variant -> 100 variants on {args.workers} free cores ~ {cpu * 100 / args.workers:.0f} s "
                  f"(target < 180 s)")


if __name__ == "__main__":
    main()
