"""What the ``occupant`` subcommands run, screen output included (occupant/cli.py parses the
arguments): ``run``, ``list``, ``show``, ``export``. Errors are raised as ValueError subclasses
with one clear message; the command prints it and exits non-zero."""
import importlib.util
import pathlib
import sys
import time

import numpy as np

from occupant.constants import G0
from occupant.display import distinct_labels, unit_text, unjudged_heading, value_text
from occupant.io.toml_files import InputFileError, read_toml
from occupant.progress import Progress, reporting
from occupant.scenario.defects import run_defect_lines
from occupant.scenario.overrides import parse_overrides
from occupant.scenario.report_ahead import ReportAhead


def summary_lines(run):
    """The one-screen summary of a Run."""
    res, model = run.results, run.model
    sc = run.scenario
    lines = [f"occupant run: {run.name}", f"  {run.title}"]
    occ = sc.get("occupant", {})
    # the interior's surfaces, those on its hinged parts (a seat back on its recliner) included
    surfaces = len(run.interior.surfaces) if run.interior is not None else "?"
    lines.append(f"  occupant {occ.get('dummy') or model.name} ({model.nb} bodies, {model.nv} dofs), posture "
                 f"{occ.get('posture')}; interior {sc.get('vehicle', {}).get('interior')} "
                 f"({surfaces} surfaces, {len(model.contact_names)} contact pairs)")
    if run.pulse is not None:
        lines.append(f"  pulse: {run.pulse.describe()}")
    e = res.energy
    exchanged = float(np.max(np.abs(e["work"]))) if e else 0.0
    lines.append(f"  simulated {res.t[-1] * 1e3:.0f} ms ({res.status}), {res.stats.get('steps', '?')} "
                 f"{res.stats.get('integrator', '')} steps; energy balance "
                 f"{e['balance'][-1]:.3g} J of {exchanged:.4g} J exchanged; wall time {run.wall_time:.2f} s"
                 if e else f"  simulated {res.t[-1] * 1e3:.0f} ms ({res.status})")
    if res.message:
        lines.append(f"  {res.message}")
    if "head" in model.index["body"] and len(res.t) > 1 and "front" not in sc.get("vehicle", {}):
        # (a pedestrian run's B0 is the road, not the vehicle: its head impact rows say more)
        # along the pulse's direction (the way the occupant is thrown): forward in a frontal
        # test, rearward in a rear one, towards the struck side in a side one
        from occupant.scenario.criteria import head_excursion
        d = np.asarray(getattr(run.pulse, "direction", (1.0, 0.0, 0.0)), float)
        moved = head_excursion(res, model, d)
        way = {(1, 0, 0): "forward", (-1, 0, 0): "rearward", (0, 1, 0): "leftward",
               (0, -1, 0): "rightward"}.get(tuple(int(round(x)) for x in d), "along the pulse")
        lines.append(f"  head {way} excursion relative to the vehicle {1e3 * moved.value:.0f} mm "
                     f"at {1e3 * moved.t:.0f} ms")
    loads = []
    for name in model.contact_names:
        f = res.outputs.get(f"{name}.normal_force")
        if f is not None and f.max() > 0:
            loads.append((float(f.max()), name, float(res.t[np.argmax(f)])))
    if loads:
        top = sorted(loads, reverse=True)[:4]
        lines.append("  largest contact forces: " + "; ".join(
            f"{n.replace('__', ' / ')} {f / 1e3:.1f} kN at {t * 1e3:.0f} ms" for f, n, t in top))
    # what a look at the motion would reject (a joint past its stop, a body through a surface,
    # a bag or a belt): one line each
    lines.extend(f"  {line}" for line in run_defect_lines(run))
    for note in run.notes:
        lines.append(f"  note: {note}")
    if run.criteria:
        if run.judged and run.regulation:
            lines.append(f"  criteria against {run.regulation}:")
        elif run.regulation:
            lines.append(f"  criteria (values only, NOT judged against {run.regulation}: see the notes):")
        else:
            lines.append(f"  criteria ({unjudged_heading(run.criteria)}):")
        name_w = max(18, *(len(r["criterion"]) for r in run.criteria))
        unit_w = max(3, *(len(r["unit"]) for r in run.criteria))
        for r in run.criteria:
            verdict = {True: "pass", False: "FAIL", None: ""}[r["pass"]]
            if r["pass"] is None and r["limit"] is not None and run.judged and not r.get("note"):
                verdict = "not judged (see the notes)"
            limit = f"limit {value_text(r['limit'], r['unit'])}" if r["limit"] is not None and run.judged else ""
            lines.append(f"    {r['criterion']:<{name_w}} {value_text(r['value'], r['unit']):>8} {r['unit']:<{unit_w}} "
                         f"{limit:<14} {verdict}".rstrip())
            if r.get("note"):
                lines.append(f"      ({r['note']})")
    else:
        lines.append("  criteria: none (no channels to compute them from)")
    return lines


def _preload(scenario, report):
    """A thread importing what writing the run folder will (h5py, and with ``report`` matplotlib,
    plotly, VTK: 1-2 s) while the run goes on: a first run waits seconds on its compile worker
    (occupant.integrate.precompile), a wait these imports fill; otherwise they cost what they
    would after the run. Join it before the report: the report forks (occupant.report.parallel),
    which wants no other thread alive."""
    import importlib
    import importlib.util
    import threading

    def work():
        try:
            for name in ("h5py", "occupant.io.results_h5", "occupant.io.isomme"):
                importlib.import_module(name)
            if report:
                importlib.import_module("occupant.report").preload()
        except Exception:   # (ImportError...) the writer imports it again and meets it itself
            pass

    thread = threading.Thread(target=work, name="occupant-preload", daemon=True)
    thread.start()
    return thread


def _first_run(progress):
    """Once a scenario's tables are checked (Scenario's ``before_compile``): a first run's compile
    worker started (occupant.integrate.precompile), and on a cold cache ``progress`` (a
    Progress, or None) says the wait is compiling, before the rest of the load (which compiles
    too) and the run's (nothing else shows for tens of seconds). Not before the load: a refused
    CSV pulse came after "compiling the step" and started the worker for nothing (usercheck12)."""
    from occupant.integrate import precompile
    precompile.standby()   # a first run's compile worker starting while the model loads
    if progress is not None and precompile.cold():
        progress.compiling()


def run_command(scenario, out_dir, overrides, progress=True, out=print):
    start = time.perf_counter()
    # the simulated time on stderr: a bar on a terminal, a line each tenth elsewhere (occupant.progress)
    bar = Progress("simulating") if progress else None
    from occupant.scenario.load import checked_source
    checked_source(scenario, overrides)   # a misspelt name or --set refused before the compile line
    from occupant.scenario import load, write_run
    from occupant.scenario.run import folder_test_number, isomme_channels, make_folder
    # its inputs (a CSV pulse, the tables) refused before the compile line too
    sc = load(scenario, overrides=overrides, before_compile=lambda: _first_run(bar))
    folder = make_folder(out_dir if out_dir else pathlib.Path("reports") / sc.name)
    if (folder / "sweep.json").exists():   # (the run's files went among the sweep's variants)
        from occupant.scenario.load import ScenarioError
        raise ScenarioError("--out", str(folder), "a sweep's folder (its sweep.json), not a run's",
                            "a new folder, or a run's folder to write again")
    braking = " and its pre-crash vehicle run done" if "precrash" in sc.data else ""   # the long part
    out(f"occupant run: {sc.name}: loaded and checked{braking} in {time.perf_counter() - start:.1f} s")
    if bar is not None:
        bar.begin()   # its seconds from the run's start (made before the load, to say a compile)
    report = sc.outputs.get("report", True) and importlib.util.find_spec("occupant.report") is not None
    # the report's process, started before the run: it imports the report's modules meanwhile
    # (before the preload thread starts: it forks)
    ahead = ReportAhead() if report else None
    try:
        preloading = _preload(sc, report and ahead.pid is None)
        with reporting(bar):
            run = sc.run()
        preloading.join()
        # the report's process given the run before the summary, whose defect lines (the belt's
        # paths rebuilt every millisecond: ~2.6 s CPU of us_ncap_frontal_56's) it waited for
        # (usercheck13): it draws meanwhile, and reads them when its criteria section needs them
        sent = ahead is not None and ahead.send(run, folder)
        summary = summary_lines(run)
        if sent:
            ahead.lines(run_defect_lines(run))
        for line in summary[1:]:
            out(line)
        write_run(run, folder, out=out, ahead=ahead)
    finally:
        if ahead is not None:
            ahead.close()
    results = sc.outputs.get("results", True)
    written = ["results.h5"] * results + ["criteria.csv", "scenario.toml"]
    isomme = sc.outputs.get("isomme", True) and bool(run.results.channels)
    if isomme:
        written.insert(1 + results, f"isomme/ ({len(isomme_channels(run))} channels, test {folder_test_number(folder)})")
    if run.inputs:   # copies of the files it was run from (occupant.scenario.run.copy_inputs)
        written.append(f"inputs/ ({len(run.inputs)} files it ran from)")
    written += [name for name in ("report.html", "report.pdf") if report and (folder / name).exists()]
    out(f"  written to {folder}: {', '.join(written)}")
    # an earlier run's files this one did not write (they were listed as written, and showed
    # that run's results beside this one's)
    outputs = (("results.h5", "results", results), ("isomme/", "isomme", isomme), ("report.html", "report", report),
               ("report.pdf", "report", report))
    stale = [(name, key) for name, key, wrote in outputs if not wrote and (folder / name).exists()]
    if stale:
        keys = " and ".join(dict.fromkeys(f"outputs.{key}" for _, key in stale))
        out(f"  not this run's: {', '.join(n for n, _ in stale)}: an earlier run's, left in the folder "
            f"({keys} off in this one)")
    out(f"  total wall time {time.perf_counter() - start:.1f} s")
    res = run.results
    if res.status != "finished":   # one clear line on stderr, and a non-zero exit code
        print(f"occupant: error: the run stopped early at {1e3 * res.t[-1]:.1f} ms ({res.status}): "
              f"{res.message}; what it computed is in {folder}, its criteria not judged", file=sys.stderr)
        return 3
    return 0


def list_command(out=print, keys=False):
    if keys:   # the scenario file's keys (occupant.scenario.keys)
        from occupant.scenario.keys import describe
        out("scenario file keys ([] any entry of an array of tables, * any name):")
        for line in describe():
            out(line)
        return 0
    from occupant.human.loader import available_dummies
    from occupant.human.posture import available_postures
    from occupant.scenario import available_interiors, available_scenarios
    from occupant.scenario.load import resolve
    out("scenarios (occupant run NAME):")
    for name in available_scenarios():
        out(f"  {name:<32} {read_toml(resolve(name)).get('title', '')}")
    out("dummies:")
    out("  " + ", ".join(available_dummies()))
    out("postures:")
    out("  " + ", ".join(available_postures()))
    out("vehicle interiors:")
    out("  " + ", ".join(available_interiors()))
    from occupant.human import certification, validation
    out("dummy certification tests (occupant certify NAME):")
    out("  " + ", ".join(certification.available_scenarios()))
    out("human model validation cases (occupant validate NAME):")
    out("  " + ", ".join(validation.available_scenarios()))
    return 0


def _model_of(name_or_path):
    """(kind, compiled model, configuration) of a dummy or scenario given by shipped name or
    path: a scenario's its q0 (seated in its posture, before any settling), a dummy's None (neutral)."""
    from occupant.human import load_dummy
    from occupant.human.loader import available_dummies
    from occupant.scenario import available_scenarios, load
    p = pathlib.Path(name_or_path)
    if p.suffix == ".toml" or p.is_file():
        kind = read_toml(p).get("kind")
    elif name_or_path in available_scenarios():
        kind = "scenario"
    elif name_or_path in available_dummies():
        kind = "dummy"
    else:
        raise InputFileError(name_or_path, "", "unknown dummy or scenario",
                             ", ".join(available_dummies() + available_scenarios()) + ", or a .toml path")
    if kind == "scenario":
        sc = load(name_or_path)
        return kind, sc.model, sc.q0
    if kind in ("dummy", "human"):
        return kind, load_dummy(name_or_path), None
    raise InputFileError(name_or_path, "kind", f"cannot show a file of kind {kind!r}",
                         "dummy, human, scenario; show also takes vehicle and subsystem files")


def show_command(name_or_path, out=print):
    kind, model, _ = _model_of(name_or_path)
    src = model.source
    out(f"{kind} model {model.name}: {model.nb} bodies, {len(model.joint_names)} joints, "
        f"nq {model.nq}, nv {model.nv}, mass {model.body_mass.sum():.2f} kg")
    children = {}
    for b in range(model.nb):
        children.setdefault(int(model.body_parent[b]), []).append(b)
    joint_of = {int(model.joint_body[j]): j for j in range(len(model.joint_names))}

    def walk(b, depth):
        j = joint_of[b]
        dofs = [n for n, jj in zip(model.dof_names, model.dof_joint) if jj == j]
        out(f"  {'  ' * depth}{model.body_names[b]:<{24 - 2 * depth}} {model.body_mass[b]:7.3f} kg  "
            f"joint {model.joint_names[j]} ({model.joint_kind[j]}, "
            f"{len(dofs)} dof{'s' if len(dofs) != 1 else ''})")
        for c in children.get(b, []):
            walk(c, depth + 1)

    out("bodies (mass, joint to the parent):")
    for r in children.get(-1, []):
        walk(r, 0)
    out(f"dofs ({model.nv}): " + ", ".join(model.dof_names))
    geoms = list(src.geometries.values())
    out(f"geometry ({len(geoms)}): " + ", ".join(
        f"{g.name} ({type(g).__name__.lower()} on {src.markers[g.marker].part if getattr(g, 'marker', None) else 'B0'})"
        for g in geoms))
    if model.contact_names:
        out(f"contact pairs ({len(model.contact_names)}): " + ", ".join(
            f"{p.geometry_a}/{p.geometry_b}" for p in src.contact_pairs.values()))
    out(f"joint resistance elements: {len(model.joint_resistance_names)}")
    return 0


def export_command(name_or_path, fmt, out_path, out=print):
    from occupant.io import export_mjcf, export_urdf
    from occupant.scenario.load import ScenarioError
    from occupant.scenario.run import make_folder
    if out_path is not None:   # before the model: a mistyped --out is one line naming it
        if pathlib.Path(out_path).is_dir():
            raise ScenarioError("--out", str(out_path), "a folder, not a file",
                                "a file to write (its folder is made if missing)")
        make_folder(pathlib.Path(out_path).parent)
    # a scenario's occupant exported seated in its posture (it was the neutral, standing
    # configuration: a scenario's export read as its dummy's)
    kind, model, q = _model_of(name_or_path)
    # named after the scenario, seated, not after its dummy, whose neutral export it overwrote
    stem = pathlib.Path(name_or_path).stem if kind == "scenario" else model.name
    path = pathlib.Path(out_path or f"{stem}.{'xml' if fmt == 'mjcf' else 'urdf'}")
    export_mjcf(model, path, q) if fmt == "mjcf" else export_urdf(model, path)
    posed = ", in the scenario's posture" if q is not None and fmt == "mjcf" else ""
    out(f"occupant export: {model.name} -> {path} ({fmt.upper()}{posed})")
    return 0


def sweep_command(scenario, vary, out_dir, workers, overrides, design="full", samples=None, seed=None,
                  scheduler=None, reports=False, out=print):
    from occupant.scenario.sweep import check_workers, design as make_design, parse_vary, sweep
    pairs = [parse_vary(v, ranges=design == "lhs") for v in vary]
    twice = [k for n, (k, _) in enumerate(pairs) if k in [j for j, _ in pairs[:n]]]
    if twice:   # (the last one was kept: a sweep of 0.002,0.001 and then 0.003 ran 0.003 alone)
        from occupant.scenario.load import ScenarioError
        raise ScenarioError("--vary", twice[0], "given more than once", "each key once, all its values in one --vary")
    varied = dict(pairs)
    fixed = parse_overrides(overrides)
    check_workers(workers)
    n = len(make_design(varied, design, samples, seed))   # a bad design fails before the header
    from occupant.display import count_text
    what = f"Latin hypercube of {count_text(n, 'sample')} (seed {seed or 0})" if design == "lhs" else "full factorial"
    where = f"Dask scheduler {scheduler}" if scheduler else f"{workers or 'all'} local worker(s)"
    start = time.perf_counter()

    def on_start(total, to_run):
        again = f"; {total - to_run} finished before, {to_run} to run" if to_run < total else ""
        out(f"occupant sweep: {scenario}, {count_text(total, 'variant')} over {', '.join(varied)} ({what}) on {where}{again}")
        from occupant.integrate import precompile
        if to_run and scheduler is None and precompile.cold():   # (a minute with nothing else shown)
            from occupant.progress import COMPILING
            out(f"  {COMPILING.removesuffix(' ...')} in each worker ...")

    def progress(done, total, variant, status, seconds):
        elapsed = time.perf_counter() - start
        out(f"  [{done}/{total}] {variant} {status if len(status) < 100 else status[:97] + '...'} "
            f"({seconds:.1f} s; {elapsed:.0f} s elapsed)")
        sys.stdout.flush()

    try:
        rows = sweep(scenario, varied, out_dir, design_kind=design, samples=samples, seed=seed,
                     workers=workers, scheduler=scheduler, overrides=fixed, reports=reports,
                     progress=progress, on_start=on_start, note=lambda text: out(f"  {text}"))
    except KeyboardInterrupt as exc:
        print(f"occupant: interrupted: the finished variants are kept in {out_dir}; the same command "
              f"again runs the others{f'; {exc}' if str(exc) else ''}", file=sys.stderr)
        return 130
    failed = [r for r in rows if r["status"] != "ok"]
    out(f"  written {pathlib.Path(out_dir) / 'sweep.csv'} ({count_text(len(rows), 'row')}, {len(failed)} not ok; its "
        f"columns' units in sweep_units.csv) and plots/ in {time.perf_counter() - start:.1f} s")
    for r in failed:
        out(f"  {r['variant']}: {r['status']}")
    ok = [r for r in rows if r["status"] == "ok"]
    names = [k for k in (ok[0] if ok else {}) if k not in ("variant", "status") and k not in varied]
    if len(ok) > 1 and any(ok[0][k] is not None for k in names) and all(r[k] == ok[0][k] for r in ok for k in names):
        # (usercheck11: a 2-4 kN load limiter sweep of a 45 km/h pulse whose belt never reached
        # 2 kN gave three identical rows and flat plots, unsaid)
        out(f"  every criterion is the same in all {len(ok)} variants to the last digit: the values of "
            f"{', '.join(varied)} changed nothing this run measures (a load limiter its belt never reaches, "
            "an airbag the occupant never meets)")
    return 0 if not failed else 1


def _formats(html, pdf):
    """(html, pdf) a report command writes for its --html and --pdf: without either, both."""
    return (True, True) if not (html or pdf) else (html, pdf)


def report_command(run_dir, html=False, pdf=False, out=print):
    """The report of a finished run again, from its results.h5 (occupant.scenario.run.read_run)."""
    from occupant import report
    from occupant.scenario.run import read_run
    start = time.perf_counter()
    html, pdf = _formats(html, pdf)
    run = read_run(run_dir)
    paths = [p for p in report.write(run, run_dir, html=html, pdf=pdf) if p is not None]
    out(f"occupant report: {run.name} ({run.results.status}, {1e3 * run.results.t[-1]:.0f} ms) -> "
        f"{', '.join(str(p) for p in paths)} in {time.perf_counter() - start:.1f} s")
    return 0


def _folder_criteria(folder):
    """{criterion: (value, unit, pass, limit)} of a run folder's criteria.csv."""
    import csv
    path = folder / "criteria.csv"
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    if not rows:   # a table of only a header would print one: say which run has nothing
        raise InputFileError(path, "", "no criteria in it", "criterion,value,unit,limit,pass rows "
                             "as occupant run writes")
    try:
        return {r["criterion"]: (float(r["value"]) if r["value"] else None, r["unit"],
                                 {"true": True, "false": False}.get(r["pass"]),
                                 float(r["limit"]) if r["limit"] else None) for r in rows}
    except (KeyError, TypeError, ValueError) as err:   # a column missing, a value not a number
        raise InputFileError(path, "", f"cannot read its rows ({type(err).__name__}: {err})",
                             "criterion,value,unit,limit,pass as occupant run writes") from None


def _compared(arg, report):
    """What an argument of ``occupant compare`` names, checked before anything runs: (label,
    run folder or None, its criteria or None, its Run or None, the Scenario to run or None). A
    run folder needs criteria.csv and, for a ``report``, results.h5 (read here: occupant.scenario.run.
    read_run); anything else is a scenario, loaded here and run later."""
    folder = pathlib.Path(arg)
    if folder.is_dir():
        if not (folder / "criteria.csv").exists():
            from occupant.scenario.run import shown, sweep_variants
            variants = sweep_variants(folder)
            if variants:   # a sweep's folder: its variants are the runs
                raise InputFileError(folder, "", f"a sweep's folder ({len(variants)} variants): compare its "
                                     "variants' run folders", f"their folders, {shown(variants)}")
            raise InputFileError(folder, "", "no criteria.csv in this folder", "a run folder of occupant run")
        criteria = _folder_criteria(folder)
        run = None
        if report:
            from occupant.scenario.run import read_run
            run = read_run(folder)   # no results.h5, or not HDF5: the folder or file named
        return folder.resolve().name, folder, criteria, run, None
    from occupant.scenario import load
    from occupant.integrate import precompile
    try:   # (as run_command: a first run's compile worker, once its tables are checked)
        sc = load(arg, before_compile=precompile.standby)
    except InputFileError as err:
        if folder.exists():
            raise
        # (a mistyped run folder was answered with the scenarios alone: "accepted: an existing
        # .toml file, or a shipped scenario: ...")
        raise InputFileError(err.file, err.path, err.problem, f"a run folder (with criteria.csv), {err.accepted}") \
            from None
    return sc.name, None, None, None, sc


def _unlike(labels, found):
    """What differs between the compared runs beyond their settings, in words, or "": the
    scenario run (its ``name``) and the simulated time (``solver.t_end``), from each run folder's
    scenario.toml or each scenario loaded (``_compared``); a folder without scenario.toml is
    left out."""
    ran = {}
    for label, (_, folder, _, _, sc) in zip(labels, found):
        if sc is not None:
            ran[label] = (sc.name, sc.data["solver"]["t_end"])
        elif (folder / "scenario.toml").is_file():
            try:
                data = read_toml(folder / "scenario.toml")
                ran[label] = (data["name"], data["solver"]["t_end"])
            except (ValueError, OSError, KeyError, TypeError):
                continue
    said = []
    for i, what in enumerate(("runs of different scenarios", "different simulated times (solver.t_end, s)")):
        if len({v[i] for v in ran.values()}) > 1:
            said.append(f"{what}: " + ", ".join(f"{label} {v[i]}" for label, v in ran.items()))
    return "; ".join(said)


def compare_command(args, out=print, progress=True, out_dir=None, html=False, pdf=False):
    """Print the criteria of two or more runs side by side (run folders, or scenarios run here
    first, with ``progress`` on stderr as ``occupant run`` shows it); with ``out_dir``, also
    write the comparison report there (occupant.report.compare: ``html``/``pdf``, neither: both)
    and each scenario's run folder as DIR/<its label>. Every argument is checked (folders read,
    scenarios loaded) before the first run."""
    if len(args) < 2:
        raise InputFileError("compare", "", "needs at least two runs", "two or more run folders or scenarios")
    start = time.perf_counter()
    report = out_dir is not None
    if (html or pdf) and not report:
        raise InputFileError("compare", "", "--html and --pdf choose the files of the comparison "
                             "report: give its folder too", "--out DIR with them")
    if report:
        if importlib.util.find_spec("occupant.report") is None:
            raise InputFileError("--out", "", "writing the comparison needs occupant.report",
                                 'its extra installed: pip install ".[report]"')
        from occupant.scenario.run import make_folder
        out_dir = make_folder(out_dir)   # a mistyped --out ends the command before any run
    found = [_compared(a, report) for a in args]
    labels = distinct_labels([f[0] for f in found], [f[1] for f in found])
    unlike = _unlike(labels, found)
    if unlike:   # (allowed, as two sleds' restraints compared; said, since it may be a mistake)
        print(f"occupant compare: note: {unlike}", file=sys.stderr, flush=True)
    if report:   # a scenario's run folder never one of the compared folders (a run of it again)
        given = {f[1].resolve() for f in found if f[1] is not None}
        labels = [label if f[4] is None or (out_dir / label).resolve() not in given else
                  distinct_labels([label, *labels, label])[-1] for label, f in zip(labels, found)]
    runs, tables = [], []
    for arg, label, (_, _, criteria, run, sc) in zip(args, labels, found):
        if sc is not None:
            bar = Progress("simulating") if progress else None
            if bar is not None:   # (a first run's compile wait: said from the run, precompile.ahead)
                print(f"occupant compare: running {sc.name} (a scenario, not a run folder)", file=sys.stderr,
                      flush=True)
            with reporting(bar):
                run = sc.run()
            if not run.criteria:
                raise InputFileError(arg, "", "its run gives no criteria", "a scenario with injury criteria")
            criteria = {r["criterion"]: (r["value"], r["unit"], r["pass"], r["limit"]) for r in run.criteria}
            if report:
                from occupant.scenario import write_run
                write_run(run, out_dir / label)
        runs.append(run)
        tables.append((label, criteria))
    _print_side_by_side(tables, out)
    if report:
        from occupant import report as R
        html, pdf = _formats(html, pdf)
        if progress:   # silent otherwise for seconds (a US NCAP pair: figures, PDF and ratings ~3 s)
            print(f"occupant compare: writing the comparison into {out_dir}", file=sys.stderr, flush=True)
        paths = [p for p in R.compare(runs, out_dir, labels=labels, html=html, pdf=pdf) if p is not None]
        ran = [out_dir / label for label, f in zip(labels, found) if f[4] is not None]
        out(f"occupant compare: written {', '.join(str(p) for p in paths + ran)} in "
            f"{time.perf_counter() - start:.1f} s")
    return 0


def _print_side_by_side(runs, out):
    """The criteria table of ``runs`` [(label, {criterion: (value, unit, pass, limit)})]: a
    column per run, after the limit each run's criteria.csv gives (its runs' limits joined by
    " / " where they differ, "-" where none has one: the table said FAIL but not against what)."""
    names = []
    for _, crit in runs:
        names += [n for n in crit if n not in names]
    rows = []
    for n in names:
        cells, limits = [], []
        unit = ""
        for _, crit in runs:
            value, unit_i, passed, limit = crit.get(n, (None, "", None, None))
            unit = unit or unit_text(unit_i)   # a criteria.csv written before moments read "N m"
            if limit is not None and value_text(limit, unit_i) not in limits:
                limits.append(value_text(limit, unit_i))
            mark = {True: "", False: " FAIL", None: ""}[passed]
            cells.append(value_text(value, unit_i) + mark)
        rows.append((n, unit, " / ".join(limits) or "-", cells))
    width = max(12, *(len(label) for label, _ in runs))
    name_w = max([18] + [len(n) for n in names])
    unit_w = max([4] + [len(r[1]) for r in rows])
    limit_w = max([6] + [len(r[2]) for r in rows])
    out(f"{'criterion':<{name_w}} {'unit':<{unit_w}} {'limit':>{limit_w}} "
        + " ".join(f"{label:>{width}}" for label, _ in runs))
    for n, unit, limit, cells in rows:
        out(f"{n:<{name_w}} {unit:<{unit_w}} {limit:>{limit_w}} " + " ".join(f"{c:>{width}}" for c in cells))
    return 0
