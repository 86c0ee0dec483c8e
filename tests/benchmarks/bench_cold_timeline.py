"""Benchmark of issue 13 section 7 (not a timed test): the timeline of a first ``occupant run``.

Runs ``occupant run us_ncap_frontal_56`` in this process on an empty JIT cache (NUMBA_CACHE_DIR a
new folder) and prints, in order of start, each top-level compilation (numba's
``numba:compile`` events: a job of ``integrate.precompile`` or a function compiled from Python)
and the command's stages (the compile worker's standby, its jobs given early, ``ahead``, the
scenario's load, the run folder written, the report process's ``send`` and ``wait``), each with its process, its start and end (wall s since this script started) and the CPU
seconds of its process meanwhile. The compile worker (a new interpreter, given the listener as
its sitecustomize) and the report's process (a fork) log to the same file, so the timeline shows
which process compiles what when, the idle gaps and the serial parts.
``bench_scenario.py --cold`` gives the command's wall and CPU seconds alone.

Run: python tests/benchmarks/bench_cold_timeline.py [SCENARIO] [--out DIR]
"""
import argparse
import functools
import os
import sys
import tempfile
import time

START = time.time()

LISTENER = """
import os, time
import numba.core.event as event


def note(kind, name, t0, c0, log=os.environ["OCCUPANT_TIMELINE_LOG"],
         start=float(os.environ["OCCUPANT_TIMELINE_START"])):
    with open(log, "a") as fh:   # one short line per write: the processes' lines do not mix
        fh.write(f"{os.getpid()}\\t{kind}\\t{name}\\t{t0 - start:.3f}\\t{time.time() - start:.3f}\\t"
                 f"{time.process_time() - c0:.2f}\\n")


class Compiles(event.Listener):   # each top-level compilation
    stack = []

    def on_start(self, ev):
        self.stack.append((time.time(), time.process_time()))

    def on_end(self, ev):
        t0, c0 = self.stack.pop()
        if not self.stack:
            f = ev.data["dispatcher"].py_func
            note("compile", f"{f.__module__}.{f.__qualname__}", t0, c0)


if "OCCUPANT_TIMELINE_LOG" in os.environ:
    event.register("numba:compile", Compiles())
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", nargs="?", default="us_ncap_frontal_56")
    ap.add_argument("--out", default=None, help="run folder (default: a new temporary one)")
    args = ap.parse_args()
    if "numba" in sys.modules:
        sys.exit("bench_cold_timeline: run it in a new process (numba already imported)")
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="occupant_cold_")
    log = os.path.join(tempfile.mkdtemp(prefix="occupant_timeline_"), "events.tsv")

    # the compilations' listener, run here and, as its sitecustomize, in the compile worker (a
    # new interpreter on this process's sys.path and environment)
    hook = tempfile.mkdtemp(prefix="occupant_timeline_hook_")
    with open(os.path.join(hook, "sitecustomize.py"), "w") as fh:
        fh.write(LISTENER)
    os.environ.update(OCCUPANT_TIMELINE_LOG=log, OCCUPANT_TIMELINE_START=repr(START))
    sys.path.insert(0, hook)
    listener = {}
    exec(LISTENER, listener)
    note = listener["note"]

    def timed(owner, attr, label):
        func = getattr(owner, attr)

        @functools.wraps(func)
        def wrapper(*a, **k):
            t0, c0 = time.time(), time.process_time()
            try:
                return func(*a, **k)
            finally:
                note("stage", label, t0, c0)
        setattr(owner, attr, wrapper)

    import occupant.scenario as scenario
    from occupant.cli import main as occupant
    from occupant.integrate import precompile
    from occupant.scenario.report_ahead import ReportAhead
    for attr in ("standby", "early", "ahead"):
        timed(precompile, attr, f"precompile.{attr}")
    timed(scenario, "load", "scenario.load")
    timed(scenario, "write_run", "write_run")
    timed(ReportAhead, "send", "ReportAhead.send")
    timed(ReportAhead, "wait", "ReportAhead.wait")
    out = args.out or tempfile.mkdtemp(prefix="occupant_run_")
    t0, c0 = time.time(), time.process_time()
    occupant(["run", args.scenario, "--out", out, "--quiet"])
    note("stage", "occupant run", t0, c0)
    main_pid = os.getpid()
    rows = sorted((line.rstrip("\n").split("\t") for line in open(log)), key=lambda r: float(r[3]))
    print(f"{args.scenario}, empty JIT cache: timeline (wall s since start; CPU s of the process)")
    print(f"  {'process':<8} {'start':>7} {'end':>7} {'CPU':>6}  what")
    for pid, kind, name, t0, t1, cpu in rows:
        who = "main" if int(pid) == main_pid else pid
        print(f"  {who:<8} {float(t0):7.2f} {float(t1):7.2f} {float(cpu):6.2f}  "
              f"{'' if kind == 'stage' else '  compile '}{name}")


if __name__ == "__main__":
    main()
