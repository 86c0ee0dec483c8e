"""Sweeps (issue 13 section 4): a design of experiments over scenario keys (full factorial or
Latin hypercube), run on a local process pool or a Dask distributed cluster, one run folder per
variant, one table of inputs and criteria and plots of each criterion against each varied key.

``sweep(scenario, {"pulse.delta_v_kmh": [40, 48, 56]}, out)`` writes::

    out/sweep.json          the design (scenario, keys, design, samples, seed, fixed overrides):
                            a second sweep into the same folder must be the same design
    out/v0001/ ...          the run folder of each variant (occupant.scenario.run.write_run,
                            without the HTML/PDF report unless ``reports=True``: ``occupant report
                            out/v0001`` makes it later from results.h5); criteria.csv is written
                            last, so that it marks a finished variant; its isomme/ test number
                            is <out's name>_v0001 (distinct across variants and sweeps). Each
                            has its own inputs/ (copies of the files it ran from, 45-80 kB; its
                            results.h5 is 1-12 MB),
                            so that a variant's folder stands on its own
    out/v0002/error.txt     a variant that failed (bad parameters, divergence): its message
    out/sweep.csv           variant, status, the varied keys, then every criterion's value
    out/sweep_units.csv     column,unit: the unit of each column of sweep.csv (one header line there)
    out/plots/<criterion>.png   the criterion against each varied key (occupant.report.sweep_plots)

Designs: "full" runs every combination of the keys' values (``itertools.product`` in the order
the keys are given); "lhs" draws ``samples`` points of a Latin hypercube (McKay, Beckman and
Conover 1979; ``scipy.stats.qmc.LatinHypercube`` with ``seed``): a key given as a range
(lo, hi) is sampled uniformly in it, a key given as a list of values picks value
``int(u * len)`` of its stratum. Variants are numbered in design order, so a folder always
means the same inputs for the same design.

Run again on the same folder, a sweep skips the variants whose criteria.csv exists (resumes an
interrupted sweep; a run that stopped early has one too, with its reason in error.txt, and would
stop again: runs are deterministic) and reruns those that could not run. Each variant writes its folder as soon as it
finishes; a failing variant is recorded and the others go on. A worker process killed (out of
memory, a crash) breaks a local pool: the variants it had not finished run again in a new one,
the one whose process died alone, and one whose process dies twice is recorded as failed.
"""
import concurrent.futures
import csv
import itertools
import json
import math
import os
import pathlib
import time

import numpy as np

from occupant.scenario.load import ScenarioError, load, resolve
from occupant.scenario.overrides import check as check_overrides, parse_override

DESIGNS = ("full", "lhs")
# variants a sweep takes at most [E]: at 1-2 min a run, 10000 are 7-14 days of one core, a day
# or so of a 10-core machine; more is a typo (start:stop:n with n = 1e8 filled the memory until the
# system killed the sweep, before any run)
MAX_VARIANTS = 10_000
# a variant's folder holds this file while a process runs it: left behind, its process died there
RUNNING = ".running"
# pools a sweep starts again in a row after a pool broke with no variant's process found dead in
# it (no RUNNING file left): then its variants are recorded as failed [E]
MAX_BLIND_RESTARTS = 3
WORKER_DIED = ("its worker process died twice while running it (killed: out of memory, a crash, "
               "a signal); the other variants went on")
# a variant failed after the pool broke MAX_BLIND_RESTARTS + 1 times in a row with no process of
# it found dead: nothing shows that its own run broke the pool, and every variant left fails with it
POOL_BROKE = (f"not run to its end: the process pool broke {MAX_BLIND_RESTARTS + 1} times in a row "
              "with no worker process found dead in a variant's folder (the pool or the machine "
              "failed, not known to be this variant's run); every variant still to run failed with it")


def parse_vary(text, ranges=False):
    """``"KEY=start:stop:n"`` (n values evenly spaced, both ends included) or ``"KEY=a,b,c"``
    -> (key, [values]). With ``ranges`` (Latin hypercube) ``start:stop`` gives the range
    (start, stop) (a tuple); an n there is refused: the hypercube's variants are its ``samples``
    (``start:stop:8`` with --samples 4 ran 4, unsaid)."""
    accepted = ("KEY=start:stop (start < stop) or KEY=a,b,c" if ranges else
                "KEY=start:stop:n (n >= 1) or KEY=a,b,c")
    key, value = parse_override(text, "--vary", accepted)
    raw = str(text).partition("=")[2].strip()
    try:
        if ":" in raw:
            parts = raw.split(":")
            if ranges and len(parts) == 3:
                raise ScenarioError(f"--vary {text}", key, f"a Latin hypercube samples the range "
                                    f"{parts[0]}:{parts[1]}; its number of variants is --samples N, "
                                    f"not a count of values ({parts[2]})", accepted + " with --samples N")
            if ranges and len(parts) == 2:
                start, stop = float(parts[0]), float(parts[1])
                if not start < stop:
                    raise ValueError
                return key, (start, stop)
            start, stop, n = parts
            n = int(n)
            if n < 1:
                raise ValueError
            if n > MAX_VARIANTS:
                raise ScenarioError(f"--vary {text}", key, f"{n} values are more than a sweep runs",
                                    f"n <= {MAX_VARIANTS}")
            # 12 significant digits: 0.018, not linspace's 0.018000000000000002, in sweep.csv
            return key, [float(f"{x:.12g}") for x in np.linspace(float(start), float(stop), n)]
        if isinstance(value, list):
            return key, value
        return key, [parse_override(f"{key}={v}")[1] for v in raw.split(",")]
    except ScenarioError:
        raise
    except ValueError:
        raise ScenarioError(f"--vary {text}", key, f"cannot read {raw!r}", accepted) from None


def design(vary, kind="full", samples=None, seed=None):
    """A list of {key: value} dicts, one per variant (module docstring). ``samples`` and ``seed``
    (default 0) are the Latin hypercube's: a full factorial given either is refused (it ran every
    combination, silently, for a user who had left out ``--design lhs``)."""
    keys = list(vary)
    for k in keys:   # (the Python API's: {key: 3000} was "TypeError: 'int' object is not
        # iterable", an empty list among others "no variants" without the key)
        if not isinstance(vary[k], (list, tuple)):
            raise ScenarioError("--vary", k, f"{vary[k]!r} is not a list of values",
                                "a list of values [a, b, ...], or a range (start, stop) with --design lhs")
        if not vary[k]:
            raise ScenarioError("--vary", k, "no values: the design would have no variants",
                                "at least one value")
    if kind == "full":
        for option, given in (("--samples", samples), ("--seed", seed)):
            if given is not None:
                raise ScenarioError(option, "", f"{option} {given} is for a Latin hypercube; a full "
                                    "factorial runs every combination of the values",
                                    f"--design lhs with {option}, or leave {option} out")
        for k in keys:
            if isinstance(vary[k], tuple):
                raise ScenarioError("--vary", k, f"a range {vary[k]} in a full-factorial design",
                                    "a list of values (KEY=start:stop:n), or --design lhs")
            # a value given twice (start:stop:n with start = stop, or a,a) is the same run twice
            twice = next((v for i, v in enumerate(vary[k]) if v in vary[k][:i]), None)
            if twice is not None:
                raise ScenarioError("--vary", k, f"{twice} is given {vary[k].count(twice)} times: its "
                                    "variants would be one run repeated", "distinct values (start:stop:n "
                                    "with start != stop, or n = 1)")
        n = math.prod(len(vary[k]) for k in keys)
        if n > MAX_VARIANTS:
            raise ScenarioError("--vary", "", f"{n} variants in the full factorial are more than a "
                                "sweep runs", f"at most {MAX_VARIANTS} (fewer values per key, or "
                                "--design lhs)")
        return [dict(zip(keys, combo)) for combo in itertools.product(*(vary[k] for k in keys))]
    if kind != "lhs":
        raise ScenarioError("--design", "", f"unknown design {kind!r}", ", ".join(DESIGNS))
    if not samples or samples < 1:
        got = "" if samples is None else f", got {samples!r}"
        raise ScenarioError("--samples", "", f"a Latin hypercube needs a number of samples{got}",
                            "--samples N, N >= 1")
    if samples > MAX_VARIANTS:
        raise ScenarioError("--samples", "", f"{samples} samples are more than a sweep runs",
                            f"--samples N, 1 <= N <= {MAX_VARIANTS}")
    from scipy.stats import qmc
    u = qmc.LatinHypercube(d=len(keys), seed=0 if seed is None else seed).random(int(samples))
    out = []
    for row in u:
        variant = {}
        for k, x in zip(keys, row):
            spec = vary[k]
            if isinstance(spec, tuple):
                variant[k] = float(spec[0] + x * (spec[1] - spec[0]))
            else:
                variant[k] = spec[min(int(x * len(spec)), len(spec) - 1)]
        out.append(variant)
    # every key a list: fewer combinations than samples repeat a run (3 values, 6 samples: each twice)
    distinct = {tuple(v.items()) for v in out}
    if len(distinct) < len(out):
        raise ScenarioError("--samples", "", f"{samples} samples of {', '.join(keys)} repeat runs: "
                            f"{len(distinct)} of them are distinct", "a range KEY=start:stop for at "
                            "least one key, or fewer samples (or the full factorial of the lists)")
    return out


def _named_kinds(variants, vary):
    """The variants to load before any run, each with its varied keys whose values are not
    numbers or are the solver's: the first variant, and the first with each further combination
    of those values (a dummy, an interior, a belt kind, a pulse shape), whose checks against the
    model they build (a body, a surface, a regulation's dummy) the key registry cannot make, nor
    those of the solver's keys against each other and the pulse (dt dividing t_end, a pulse
    within t_end), nor those of a parametric human's size against its tables (a percentile
    tabulated for one sex alone: ``--set occupant.human.sex=female --vary
    occupant.human.percentile=5,50`` ran the 5th and failed the 50th after it, usercheck9);
    other numbers it checks itself."""
    def named(key, value):
        return (key.startswith(("solver.", "occupant.human")) or isinstance(value, bool)
                or not isinstance(value, (int, float)))
    kinds = {}
    for variant in variants:
        keys = tuple(k for k in vary if named(k, variant[k]))
        kinds.setdefault(tuple(repr(variant[k]) for k in keys), (variant, keys))
    return list(kinds.values())


def run_variant(scenario, overrides, folder, reports=False):
    """Run one variant into ``folder``; returns (status, {criterion: value}, seconds).
    status: "ok", "stopped early: ..." (a run that diverged: what it computed is written) or
    "error: ..." (nothing could run: error.txt holds the message)."""
    from occupant.scenario.run import folder_test_number, write_run
    start = time.perf_counter()
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    marker = folder / "criteria.csv"
    running = folder / RUNNING
    running.touch()
    try:
        sc = load(scenario, overrides=overrides)
        if not reports:
            sc.data.setdefault("outputs", {})["report"] = False
        run = sc.run()
        criteria = {r["criterion"]: r["value"] for r in run.criteria}
        res = run.results
        status = "ok" if res.status == "finished" else f"stopped early: {res.message}"
        marker.unlink(missing_ok=True)
        # criteria.csv last: the mark of a finished variant. The ISO-MME test number names the
        # sweep's folder and the variant's (sweep_v0001), so that the variants of two sweeps
        # collect into one database without a clash
        write_run(run, folder, test_number=folder_test_number(folder.absolute().parent) + "_" + folder.name)
        (folder / "error.txt").unlink(missing_ok=True)
        if status != "ok":
            (folder / "error.txt").write_text(f"{status}\n", encoding="utf-8")
        return status, criteria, time.perf_counter() - start
    except (ValueError, OSError, ArithmeticError) as err:
        marker.unlink(missing_ok=True)
        (folder / "error.txt").write_text(f"{err}\n", encoding="utf-8")
        return f"error: {err}", {}, time.perf_counter() - start
    finally:
        running.unlink(missing_ok=True)


def _read_criteria(folder):
    with open(folder / "criteria.csv", newline="", encoding="utf-8") as fh:
        return {r["criterion"]: float(r["value"]) for r in csv.DictReader(fh) if r["value"] not in ("", "nan")}


def _check_design(out, spec):
    """Write out/sweep.json, or check that the one there describes the same sweep. A folder
    holding a run of ``occupant run`` is refused (a sweep went on to write its files and variants
    among the run's)."""
    path = out / "sweep.json"
    text = json.dumps(spec, indent=1, sort_keys=True)
    if path.exists():
        old = path.read_text(encoding="utf-8")
        if json.loads(old) != json.loads(text):
            raise ScenarioError(str(path), "", "this folder holds a different sweep (scenario, keys, "
                                "design, samples, seed or --set differ)", "a new --out folder, or the same design")
    elif (out / "criteria.csv").exists():
        raise ScenarioError(f"--out {out}", "", "this folder holds a run of occupant run (its criteria.csv), "
                            "not a sweep", "a new --out folder, or a sweep's folder to resume it")
    else:
        path.write_text(text + "\n", encoding="utf-8")


def check_workers(workers):
    """A number of local worker processes is None (all cores) or an integer >= 1."""
    if workers is not None and (int(workers) != workers or workers < 1):
        raise ScenarioError("--workers", "", f"{workers!r}: not a number of processes",
                            "an integer N >= 1, or leave it out for all cores")


def _ignore_interrupt():
    """A pool worker's start: Ctrl-C (SIGINT to the whole process group) is the parent's to
    handle; a worker that got it would print its traceback and go on with its run."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _executor(workers, scheduler):
    """(submit(fn, *args) -> future, as_completed(futures), close(), abort()) of the chosen
    executor: close waits for the running variants, abort stops them."""
    if scheduler is not None:
        try:
            from distributed import Client, as_completed
        except ImportError:
            raise ScenarioError("--scheduler", "", "Dask distributed is not installed",
                                "pip install 'occupant[distributed]'") from None
        owns = not isinstance(scheduler, Client)
        try:
            client = Client(scheduler, timeout="10s") if owns else scheduler
        except (OSError, ValueError) as err:   # ValueError: not an address ("missing port number")
            raise ScenarioError("--scheduler", "", f"cannot reach the Dask scheduler {scheduler}: {err}",
                                "the address of a running scheduler, tcp://host:port") from None
        close = client.close if owns else (lambda: None)
        return (lambda fn, *a: client.submit(fn, *a, pure=False)), as_completed, close, close
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupt)

    def abort():
        # interrupted (Ctrl-C): drop the queued variants and stop the running ones at once (the
        # pool's own shutdown waits for them); a variant stopped part way has no criteria.csv,
        # so the next sweep into the folder runs it again
        processes = list((pool._processes or {}).values())   # Python < 3.14: no terminate_workers()
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in processes:
            proc.terminate()
        for proc in processes:
            proc.join()
    return (pool.submit, concurrent.futures.as_completed, (lambda: pool.shutdown(cancel_futures=True)),
            abort)


def sweep(scenario, vary, out, design_kind="full", samples=None, seed=None, workers=None,
          scheduler=None, overrides=None, reports=False, plots=True, progress=None, on_start=None,
          note=None):
    """Run the design of ``vary`` ({dotted key: [values] or (lo, hi)}) of ``scenario`` (name or
    path) into ``out``; returns the table rows (dicts). ``design_kind``: "full" or "lhs" (with
    ``samples`` and ``seed``, default 0); ``overrides``: {key: value} fixed for every variant;
    ``workers``: local processes (default: all cores; 1 runs here, in this process); ``scheduler``: a Dask
    scheduler address (tcp://host:port) or a ``distributed.Client`` instead of the local pool;
    ``reports``: also write each variant's HTML/PDF report; ``plots``: write out/plots;
    ``progress(done, total, variant, status, seconds)`` after each variant; ``on_start(total,
    to_run)`` once the design and its first variant are checked, before any run; ``note(text)``
    when a worker process died and its variants run again."""
    out = pathlib.Path(out)
    overrides = dict(overrides or {})
    check_workers(workers)
    clash = sorted(set(vary) & set(overrides))
    if clash:
        raise ScenarioError(f"--set {clash[0]}", clash[0], "is both varied and set", "one of --vary, --set")
    variants = design(vary, design_kind, samples, seed)
    if not variants:
        raise ScenarioError("--vary", "", "no variants", "at least one KEY=start:stop:n")
    # every varied value against the key registry (and the fixed ones, in load below): a bad one
    # fails here, before any run, not when its variant comes
    path = resolve(scenario)
    check_overrides(path, overrides.items(), "--set", ScenarioError)
    check_overrides(path, [(k, x) for k, spec in vary.items() for x in spec], "--vary", ScenarioError)
    variants = [{**overrides, **v} for v in variants]
    for variant, named in _named_kinds(variants, vary):   # a bad key or value fails here, before any run
        try:
            load(scenario, overrides=variant)
        except ScenarioError as err:   # load names the override it blames --set: say which were --vary
            if any(f"(--set {k})" in err.file for k in vary):
                where = err.file.replace("(--set ", "(--vary ")
            elif named and "(--set " not in err.file:   # a check against the model a name built
                where = f"{err.file} (--vary {', '.join(f'{k}={variant[k]}' for k in named)})"
            else:
                where = err.file
            raise ScenarioError(where, err.path, *_dummy_hint(err, vary, *_human_hint(err, vary))) from None
    from occupant.scenario.run import make_folder
    make_folder(out)
    # (seed 0 when not given, as sweep.json has held for every design since its first version)
    _check_design(out, {"scenario": str(scenario), "design": design_kind, "samples": samples,
                        "seed": 0 if seed is None else seed,
                        "vary": {k: list(v) for k, v in vary.items()}, "overrides": overrides,
                        "range_keys": sorted(k for k, v in vary.items() if isinstance(v, tuple))})
    folders = [out / f"v{i + 1:04d}" for i in range(len(variants))]
    results = {}
    todo = []
    for i, folder in enumerate(folders):
        if (folder / "criteria.csv").exists():   # finished before (perhaps stopped early): resume
            note = folder / "error.txt"
            status = note.read_text(encoding="utf-8").strip() if note.exists() else "ok"
            results[i] = (status, _read_criteria(folder))
        else:
            todo.append(i)
    done = len(results)
    if on_start:
        on_start(len(variants), len(todo))

    def finished(i, outcome):
        nonlocal done
        status, criteria, seconds = outcome
        results[i] = (status, criteria)
        done += 1
        if progress:
            progress(done, len(variants), folders[i].name, status, seconds)

    workers = workers or os.cpu_count() or 1
    if todo and workers == 1 and scheduler is None:
        for i in todo:
            finished(i, run_variant(scenario, variants[i], folders[i], reports))
    elif todo:
        pending, deaths, blind = list(todo), {}, 0
        while pending:
            # a variant whose process died once runs again alone: dying there, it is to blame
            suspects = [i for i in pending if i in deaths]
            batch = suspects or pending
            submit, as_completed, close, abort = _executor(1 if suspects else workers, scheduler)
            for i in batch:   # (left by a sweep stopped with Ctrl-C)
                (folders[i] / RUNNING).unlink(missing_ok=True)
            broken = []
            try:
                futures = {submit(run_variant, scenario, variants[i], str(folders[i]), reports): i
                           for i in batch}
                for fut in as_completed(list(futures)):
                    i = futures[fut]
                    try:
                        finished(i, fut.result())
                    except concurrent.futures.BrokenExecutor:
                        broken.append(i)
                    except Exception as err:   # a Dask worker lost, an error the run did not catch
                        finished(i, (f"error: worker failed: {type(err).__name__}: {err}", {}, 0.0))
            except BaseException as exc:   # Ctrl-C, or the caller's exception: stop the workers, then say it
                abort()
                going = [folders[i].name for i in batch if i not in results and (folders[i] / RUNNING).exists()]
                if scheduler is not None and isinstance(exc, KeyboardInterrupt) and going:
                    # a Dask worker runs a task it has started to its end: the variants it was
                    # running wrote their folders after "interrupted" (usercheck9), and a sweep
                    # run again before they end would run them a second time into the same folders
                    raise KeyboardInterrupt(f"{', '.join(going)} went on running on the Dask cluster (a Dask "
                                            "worker does not stop a task it has started): they write their "
                                            "folders when they end; wait for them before running the sweep "
                                            "again") from None
                raise
            close()
            blind, dead = _after_broken_pool(broken, folders, deaths, blind, finished)
            again = [folders[i].name for i in dead if i not in results]
            if again and note:
                who = ("it runs" if len(dead) == 1 else "they run") if len(again) == len(dead) else \
                    f"{', '.join(again)} run"
                note(f"a worker process died (killed: out of memory, a crash, a signal) while "
                     f"{', '.join(folders[i].name for i in dead)} ran: {who} again, one at a time")
            pending = [i for i in pending if i not in results]
    rows = _table(out, vary, variants, folders, results)
    limits, units = _limits(folders, results)
    _units_table(out, rows, vary, units)
    if plots:
        from occupant.report.sweep_plots import write_plots
        write_plots(rows, list(vary), out / "plots",
                    limits=limits, units={k: u for k, u in units.items() if u != "-"})
    return rows


def _dummy_hint(err, vary, problem, accepted):
    """(problem, accepted), and for a regulation that does not judge a varied dummy, how a sweep
    over dummies runs: the file's one regulation judges one dummy, and the refusal named only the
    regulations of the dummy it failed on, which a --set would fail on the others (usercheck10)."""
    if not ("occupant.dummy" in vary and err.path == "criteria.regulation" and " judges the " in problem) \
            or "leave criteria.regulation out" in (accepted or ""):   # (no regulation to --set: said)
        return problem, accepted
    how = ("to vary the dummy, one sweep per dummy with --set criteria.regulation=<its regulation>, "
           "or a copy of the scenario file without criteria.regulation (values only; "
           "criteria.reference shows a protocol's limits, not judged)")
    return problem, f"{accepted}; {how}" if accepted else how


def _human_hint(err, vary):
    """(problem, accepted) of ``err``, and for a human's size not tabulated while its sex or
    percentile is varied, how to vary them together: a full factorial of sex and percentile holds
    pairs no table has (male 5th, female 50th), and the sweep was refused with the table's
    percentiles alone (usercheck9)."""
    problem, accepted = err.problem, err.accepted
    if not ({"occupant.human.sex", "occupant.human.percentile"} & set(vary)
            and err.path.startswith("occupant.human") and "not tabulated" in problem):
        return problem, accepted
    if accepted is None and problem.endswith(")") and " (accepted: " in problem:
        # (the default percentile's failure carries its own "(accepted: ...)" in its problem)
        problem, _, accepted = problem[:-1].rpartition(" (accepted: ")
    how = ("to vary sex and percentile together, one variant per pair: "
           "--vary 'occupant.human=[{sex=\"male\", percentile=50}, {sex=\"female\", percentile=5}]'")
    return problem, f"{accepted}; {how}" if accepted else how


def _after_broken_pool(broken, folders, deaths, blind, finished):
    """After a local pool broke (a worker process killed: out of memory, a crash, a signal), which
    fails every variant it had not finished (until sweepcheck all were recorded as failed, and
    the rest of the sweep with them): the variants whose process died (their RUNNING file left)
    are charged a death, and one that died twice is recorded as failed; the others of ``broken``
    run again. Returns the count of blind restarts in a row (a pool broken with no process found
    dead), after MAX_BLIND_RESTARTS of which ``broken`` is recorded as failed with its own reason
    (POOL_BROKE: no process of it was seen to die), and the variants whose process died."""
    if not broken:
        return 0, []
    dead = [i for i in broken if (folders[i] / RUNNING).exists()]
    for i in dead:
        deaths[i] = deaths.get(i, 0) + 1
    blind = 0 if dead else blind + 1
    for i in broken:
        why = WORKER_DIED if deaths.get(i, 0) >= 2 else POOL_BROKE if blind > MAX_BLIND_RESTARTS else None
        if why:
            (folders[i] / RUNNING).unlink(missing_ok=True)
            (folders[i] / "error.txt").write_text(f"{why}\n", encoding="utf-8")
            finished(i, (f"error: {why}", {}, 0.0))
    return blind, dead


def _table(out, vary, variants, folders, results):
    names = []
    for i in range(len(variants)):
        names += [n for n in results[i][1] if n not in names]
    rows = []
    for i, (variant, folder) in enumerate(zip(variants, folders)):
        status, criteria = results[i]
        rows.append({"variant": folder.name, "status": status, **{k: variant[k] for k in vary},
                     **{n: criteria.get(n) for n in names}})
    with open(out / "sweep.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=["variant", "status", *vary, *names])
        w.writeheader()
        for r in rows:
            w.writerow({k: ("" if v is None else v) for k, v in r.items()})
    return rows


def _units_table(out, rows, vary, units):
    """out/sweep_units.csv: ``column,unit``, a row for each column of sweep.csv in its order, so
    that sweep.csv keeps one header line (spreadsheets, ``csv.DictReader``, ``pandas.read_csv``)
    and its units are still written beside it: a varied key's from the key registry
    (``occupant list --keys``), a criterion's as its criteria.csv gives it; "-" for none (text, a
    count, a dimensionless criterion such as HIC15 or Nij), empty where no variant finished to
    say it."""
    from occupant.scenario.keys import unit as key_unit
    columns = list(rows[0]) if rows else ["variant", "status", *vary]
    with open(out / "sweep_units.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["column", "unit"])
        for c in columns:
            w.writerow([c, "-" if c in ("variant", "status") else
                        (key_unit(c) or "-") if c in vary else units.get(c, "")])


def _limits(folders, results):
    """({criterion: limit}, {criterion: unit as criteria.csv gives it, "-" for none}) from the
    first finished variant's criteria.csv: the limits it was judged against (its pass column
    true or false). A limit shown for reference (a human in a regulated scenario, a
    criteria.reference protocol: pass empty) is none: a human sweep's plots drew the 50th male's
    63 mm and marked the 50th and 95th male "beyond the limit", which no run had judged, and the
    5th female against the man's limit (usercheck9)."""
    for i, folder in enumerate(folders):
        if results[i][0] == "ok":
            with open(folder / "criteria.csv", newline="", encoding="utf-8") as fh:
                table = list(csv.DictReader(fh))
            return ({r["criterion"]: float(r["limit"]) for r in table if r["limit"] and r["pass"]},
                    {r["criterion"]: r["unit"] or "-" for r in table})
    return {}, {}
