"""Sweeps (issue 13 section 4): a full-factorial design over scenario keys, run on a local
process pool, one run folder per variant and one table of inputs and criteria.

``sweep(scenario, {"pulse.delta_v_kmh": [40, 48, 56]}, out)`` writes::

    out/v0001/ ...          the run folder of each variant (occupant.scenario.run.write_run),
                            criteria.csv written last, so that it marks a finished variant
    out/v0002/error.txt     a variant that failed (bad parameters, divergence): its message
    out/sweep.csv           variant, status, the varied keys, then every criterion's value

Run again on the same folder, it skips the variants whose criteria.csv exists (resumes) and
rebuilds the table. A failing variant is recorded and the others go on. Variants are numbered
in the order of ``itertools.product`` over the keys as given, so a folder always means the
same inputs for the same design. A Dask scheduler is a later option (issue 13 section 4).
"""
import concurrent.futures
import csv
import itertools
import os
import pathlib

import numpy as np

from occupant.scenario.load import ScenarioError, load
from occupant.scenario.overrides import parse_override


def parse_vary(text):
    """``"KEY=start:stop:n"`` (n values evenly spaced, both ends included) or ``"KEY=a,b,c"``
    -> (key, [values])."""
    key, value = parse_override(text)
    raw = str(text).partition("=")[2].strip()
    try:
        if ":" in raw:
            start, stop, n = raw.split(":")
            n = int(n)
            if n < 1:
                raise ValueError
            return key, [float(x) for x in np.linspace(float(start), float(stop), n)]
        if isinstance(value, list):
            return key, value
        return key, [parse_override(f"{key}={v}")[1] for v in raw.split(",")]
    except ValueError:
        raise ScenarioError(f"--vary {text}", key, f"cannot read {raw!r}",
                            "KEY=start:stop:n (n >= 1) or KEY=a,b,c") from None


def design(vary):
    """Full factorial: a list of {key: value} dicts, one per variant."""
    keys = list(vary)
    return [dict(zip(keys, combo)) for combo in itertools.product(*(vary[k] for k in keys))]


def _one(scenario, overrides, folder):
    """Run one variant into ``folder``; returns (status, {criterion: value})."""
    from occupant.scenario.run import write_run
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    try:
        run = load(scenario, overrides=overrides).run()
        criteria = {r["criterion"]: r["value"] for r in run.criteria}
        status = run.results.status if run.results.status != "finished" else "ok"
        marker = folder / "criteria.csv"
        if marker.exists():
            marker.unlink()
        write_run(run, folder)   # criteria.csv last: the mark of a finished variant
        (folder / "error.txt").unlink(missing_ok=True)
        return status, criteria
    except (ValueError, OSError) as err:
        (folder / "error.txt").write_text(f"{err}\n", encoding="utf-8")
        return f"error: {err}", {}


def _read_criteria(folder):
    with open(folder / "criteria.csv", newline="", encoding="utf-8") as fh:
        return {r["criterion"]: float(r["value"]) for r in csv.DictReader(fh) if r["value"] not in ("", "nan")}


def sweep(scenario, vary, out, workers=None, progress=None):
    """Run every variant of the full-factorial ``vary`` ({dotted key: [values]}) of
    ``scenario`` (name or path) into ``out``; returns the table rows (dicts). ``workers``:
    processes (default: all cores); ``progress(done, total)`` after each variant."""
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    variants = design(vary)
    if not variants:
        raise ScenarioError("--vary", "", "no variants", "at least one KEY=start:stop:n")
    load(scenario, overrides=variants[0])   # a bad key or value fails here, before any run
    folders = [out / f"v{i + 1:04d}" for i in range(len(variants))]
    results = {}
    todo = []
    for i, folder in enumerate(folders):
        if (folder / "criteria.csv").exists() and not (folder / "error.txt").exists():
            results[i] = ("ok", _read_criteria(folder))   # finished before: resume
        else:
            todo.append(i)
    workers = workers or os.cpu_count() or 1
    done = len(results)
    if todo:
        if workers == 1:
            for i in todo:
                results[i] = _one(scenario, variants[i], folders[i])
                done += 1
                if progress:
                    progress(done, len(variants))
        else:
            with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
                futures = {pool.submit(_one, scenario, variants[i], folders[i]): i for i in todo}
                for fut in concurrent.futures.as_completed(futures):
                    results[futures[fut]] = fut.result()
                    done += 1
                    if progress:
                        progress(done, len(variants))
    names = []
    for i in range(len(variants)):
        for name in results[i][1]:
            if name not in names:
                names.append(name)
    rows = []
    for i, (variant, folder) in enumerate(zip(variants, folders)):
        status, criteria = results[i]
        rows.append({"variant": folder.name, "status": status, **variant,
                     **{n: criteria.get(n) for n in names}})
    with open(out / "sweep.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=["variant", "status", *vary, *names])
        w.writeheader()
        for r in rows:
            w.writerow({k: ("" if v is None else v) for k, v in r.items()})
    return rows
