"""The ``occupant`` command."""
import argparse
import atexit
import gc
import sys

from occupant import __version__


def _path(text):
    """An --out value: a path, not empty (``--out "$DIR"`` with DIR unset was taken as no --out
    by run, and as the working directory by sweep and compare, which filled it with their files)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path (accepted: a folder or file name)")
    return text


def _parser():
    parser = argparse.ArgumentParser(prog="occupant", description="Occupant dynamics in vehicle crashes.")
    parser.add_argument("--version", action="version", version=f"occupant {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    run = sub.add_parser(
        "run", help="run a crash scenario (a shipped name or a .toml path) and write its results",
        description="Run a crash scenario: simulate it, evaluate its sensors and injury criteria, "
        "print a summary with each criterion against its limit, and write DIR/results.h5, "
        "criteria.csv, isomme/, scenario.toml (and the report when occupant.report is installed).")
    run.add_argument("scenario", metavar="SCENARIO", help="shipped scenario name (occupant list) or path, "
                     "or a run folder: run again from the copies of its inputs (DIR/inputs/)")
    run.add_argument("--out", type=_path, metavar="DIR", help="output folder (default: reports/<scenario name>)")
    run.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                     help="override a scenario value by its dotted key path, e.g. solver.t_end=0.05 "
                     "(repeatable)")
    run.add_argument("--quiet", action="store_true", help="no progress on stderr (a bar on a terminal, "
                     "a line each tenth of the simulated time elsewhere)")
    sweep = sub.add_parser(
        "sweep", help="run a design of experiments (full factorial or Latin hypercube) over keys of a scenario",
        description="Run the variants of a design over scenario keys on a local process pool (or a "
        "Dask cluster): one run folder per variant (DIR/v0001, ...), DIR/sweep.csv with the inputs "
        "and criteria (their units in DIR/sweep_units.csv), and DIR/plots/ with each criterion "
        "against each varied key. Run again on the same DIR, it skips finished variants.")
    sweep.add_argument("scenario", metavar="SCENARIO", help="shipped scenario name or path")
    sweep.add_argument("--vary", action="append", required=True, metavar="KEY=start:stop:n",
                       help="a key and its values: start:stop:n evenly spaced, or a,b,c, or a "
                       "TOML list [a, b, c] (each item one variant's value: a list for a key that "
                       "takes one); with --design lhs start:stop is the range sampled (repeatable)")
    sweep.add_argument("--out", type=_path, metavar="DIR", required=True, help="output folder")
    sweep.add_argument("--design", choices=("full", "lhs"), default="full",
                       help="full factorial (default) or Latin hypercube")
    sweep.add_argument("--samples", type=int, metavar="N", help="variants of a Latin hypercube")
    sweep.add_argument("--seed", type=int, metavar="S", help="seed of the Latin hypercube (default 0)")
    sweep.add_argument("--workers", type=int, default=None, metavar="N", help="local processes (default: all cores)")
    sweep.add_argument("--scheduler", metavar="ADDRESS",
                       help="run on a Dask distributed cluster: its scheduler, tcp://host:port")
    sweep.add_argument("--reports", action="store_true",
                       help="also write each variant's HTML and PDF report (occupant report DIR/vNNNN "
                       "makes one later)")
    sweep.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                       help="a fixed override for every variant (repeatable)")
    report = sub.add_parser(
        "report", help="write the report of a finished run again from its results.h5",
        description="Write RUN_DIR/report.html and report.pdf again from RUN_DIR/results.h5 (no "
        "simulation). Without --html or --pdf, both.")
    report.add_argument("run_dir", metavar="RUN_DIR", help="a run folder of occupant run or sweep")
    _format_flags(report, "report")
    compare = sub.add_parser(
        "compare", help="criteria of several runs side by side (run folders or scenarios); with "
        "--out, their overlay report",
        description="Print the criteria of two or more runs side by side: each argument is a run "
        "folder (with criteria.csv) or a scenario name or path, which is run first. With --out DIR, "
        "also write DIR/comparison.html and comparison.pdf: the settings that differ, criteria side "
        "by side, pulses, trajectories and channels overlaid (a line style per run), and the "
        "ISO/TS 18571 rating of each channel against the first run's; a run folder then needs its "
        "results.h5, and each scenario's run is written to DIR/<scenario name>/ as occupant run "
        "writes it. Runs are labelled by their folder's name (with its parent's where two are "
        "alike) or scenario name. Two designs: occupant run SCENARIO --set KEY=A --out A, the "
        "same with KEY=B --out B, then occupant compare A B --out C.")
    compare.add_argument("runs", nargs="+", metavar="RUN_OR_SCENARIO")
    compare.add_argument("--out", type=_path, metavar="DIR", help="also write the comparison report (and the "
                         "scenarios' run folders) into DIR")
    _format_flags(compare, "comparison")
    compare.add_argument("--quiet", action="store_true", help="no progress on stderr (a line as "
                         "each scenario starts, then its simulated time as occupant run shows it)")
    lister = sub.add_parser("list", help="list the shipped scenarios, dummies, postures and vehicle interiors")
    lister.add_argument("--keys", action="store_true", help="list the keys a scenario file takes instead: "
                        "each with what it accepts, its unit, default and meaning")
    show = sub.add_parser("show", help="show a model: bodies, joints, dofs, geometry, contacts",
                          description="Show the model of a dummy or scenario (name or path): its "
                          "tree of bodies with joints and dofs, masses, contact geometry and pairs.")
    show.add_argument("file", metavar="FILE", help="dummy or scenario: a shipped name or a .toml "
                      "path; or a full-car vehicle or subsystem file (vehicles/*.toml of kind "
                      "vehicle or subsystem, not the interiors)")
    export = sub.add_parser("export", help="export a dummy or scenario model to MJCF or URDF")
    export.add_argument("file", metavar="FILE", help="dummy or scenario: a shipped name or a .toml path")
    fmt = export.add_mutually_exclusive_group(required=True)
    fmt.add_argument("--mjcf", action="store_true", help="MuJoCo MJCF")
    fmt.add_argument("--urdf", action="store_true", help="URDF (no spherical joints)")
    export.add_argument("--out", type=_path, metavar="PATH", help="file to write (default: <model name>.xml / .urdf)")
    cert = sub.add_parser("certify", help="run Part 572 certification tests (scenarios/certification) "
                          "and print each figure against its corridor")
    cert.add_argument("scenarios", nargs="*", metavar="NAME_OR_PATH",
                      help="scenario names or .toml paths (default: all shipped ones)")
    cert.add_argument("--out", type=_path, metavar="DIR", help="also write each test's time history "
                      "(DIR/<name>.csv), its plot over the corridors (DIR/<name>.png) and DIR/index.html listing them")
    cert.add_argument("--quiet", action="store_true", help="no progress on stderr (each test's start "
                      "and, past a few seconds, its simulated time)")
    valid = sub.add_parser("validate", help="run the human model's validation cases "
                           "(scenarios/validation) and print each figure against its corridor")
    valid.add_argument("scenarios", nargs="*", metavar="NAME_OR_PATH",
                       help="scenario names or .toml paths (default: all shipped ones)")
    valid.add_argument("--out", type=_path, metavar="DIR", help="also write each case's time history "
                       "(DIR/<name>.csv), its plot over the corridors (DIR/<name>.png) and DIR/index.html listing them")
    valid.add_argument("--quiet", action="store_true", help="no progress on stderr (each case's start "
                       "and, past a few seconds, its simulated time)")
    parser.commands = sub.choices   # {name: its parser}: main's message for an argument it does not take
    return parser


def _format_flags(command, stem):
    """--html and --pdf of a command writing ``stem``.html and ``stem``.pdf: without either, both."""
    command.add_argument("--html", action="store_true", help=f"write {stem}.html")
    command.add_argument("--pdf", action="store_true", help=f"write {stem}.pdf")


def _warning_line(message, category, filename, lineno, line=None):
    """A warning as one line for the user, not Python's file, line number and source line."""
    return f"occupant: warning: {message}\n"


def main(argv=None):
    # at the program's exit, the heap it leaves (numba's compiled functions, types and IR) out of
    # the interpreter's last garbage collections, which went through all of it: 0.95-1.0 -> 0.13-0.21 s
    # between the last exit handler and the end of a first ``occupant run`` [measured, coldstart11];
    # nothing is collected earlier than without it (once registered, however often called)
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)
    import warnings
    warnings.formatwarning = _warning_line
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    if extra:   # said by the command's parser, with its usage (the top level's showed "COMMAND ...")
        (parser.commands.get(args.command) or parser).error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command is None:
        parser.print_help()
        return 0
    # each line out as it is printed, also on a pipe (occupant run ... | tee log), where Python's
    # stdout is block-buffered: the "loaded and checked" line and the criteria came out at the
    # exit, after every progress line of stderr, and a cold run's minutes of compiling showed
    # nothing of it (usercheck13)
    if callable(getattr(sys.stdout, "reconfigure", None)):
        sys.stdout.reconfigure(line_buffering=True)
    try:
        # SOURCE_DATE_EPOCH checked first: numpy.f2py, imported with scipy.special, reads it too,
        # and "SOURCE_DATE_EPOCH=abc" ended the command with its bare "invalid literal for int()"
        from occupant.io.timestamp import creation_time
        creation_time()
        if args.command == "run":
            from occupant.scenario.command import run_command
            return run_command(args.scenario, args.out, args.overrides, progress=not args.quiet)
        if args.command == "sweep":
            from occupant.scenario.command import sweep_command
            return sweep_command(args.scenario, args.vary, args.out, args.workers, args.overrides,
                                 design=args.design, samples=args.samples, seed=args.seed,
                                 scheduler=args.scheduler, reports=args.reports)
        if args.command == "report":
            from occupant.scenario.command import report_command
            return report_command(args.run_dir, html=args.html, pdf=args.pdf)
        if args.command == "compare":
            from occupant.scenario.command import compare_command
            return compare_command(args.runs, progress=not args.quiet, out_dir=args.out, html=args.html,
                                   pdf=args.pdf)
        if args.command == "list":
            from occupant.scenario.command import list_command
            return list_command(keys=args.keys)
        if args.command == "show":
            from occupant.vehicle.show import is_vehicle_file, show_vehicle
            if is_vehicle_file(args.file):
                return show_vehicle(args.file)
            from occupant.scenario.command import show_command
            return show_command(args.file)
        if args.command == "export":
            from occupant.scenario.command import export_command
            return export_command(args.file, "mjcf" if args.mjcf else "urdf", args.out)
        if args.command == "certify":
            return _certify(args.scenarios, args.out, progress=not args.quiet)
        if args.command == "validate":
            return _certify(args.scenarios, args.out, "occupant.human.validation", progress=not args.quiet)
    except BrokenPipeError:   # the reader went away (occupant list | head): stop quietly
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # no error at exit's flush
        return 1
    except (ValueError, OSError) as exc:  # user mistakes: a clear message and a non-zero exit, no traceback
        if isinstance(exc, OSError) and exc.filename and exc.strerror:   # not "[Errno 2] ...: 'x'"
            exc = f"{exc.filename}: {exc.strerror}"
        print(f"occupant: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:   # (a run folder left part-written is named: write_run)
        print(f"occupant: interrupted{f': {exc}' if str(exc) else ''}", file=sys.stderr)
        return 130
    return 0


# s of wall time a certification test or validation case runs before its simulated time is shown
# (most are done in under a second: one line each; a belted sled case takes minutes)
CASE_PROGRESS_AFTER_S = 3.0


def _certify(names, out_dir, runners="occupant.human.certification", progress=True):
    """Exit code 0 when every figure of every test is inside its corridor, 1 otherwise. Each
    scenario's ``test`` key selects its runner (occupant.human.certification.TESTS, or for
    ``occupant validate`` occupant.human.validation.VALIDATIONS). ``progress``: on stderr, a line
    as each case starts and its simulated time once it has run a few seconds (occupant.progress)."""
    import importlib
    import pathlib

    import numpy as np

    mod = importlib.import_module(runners)
    available_scenarios, read_scenario, report_lines = (mod.available_scenarios, mod.read_scenario,
                                                        mod.report_lines)
    run_certification = getattr(mod, "run_certification", None) or mod.run_validation
    scenarios = [read_scenario(n) for n in (names or available_scenarios())]  # bad names fail first
    if out_dir is not None:   # (a file there was "x: File exists", naming neither --out nor what it takes)
        from occupant.scenario.run import make_folder
        out_dir = make_folder(out_dir)
    from occupant.progress import Progress, reporting
    what = "occupant " + ("validate" if runners.endswith("validation") else "certify")
    shown = Progress(after_s=CASE_PROGRESS_AFTER_S) if progress else None
    noun = "case" if runners.endswith("validation") else "test"
    inside = figures = 0
    cases = []   # (name, inside, figures) of the index
    for i, (sc, path) in enumerate(scenarios, 1):
        if shown is not None:
            shown.case(i, len(scenarios), sc["name"], what)
        with reporting(shown):
            res = run_certification(str(path))
        print("\n".join(report_lines(res, sc)), flush=True)
        # every figure printed: a certification's input (pulse) checks too, which the exit code
        # left out (a pulse outside its corridor printed FAIL and exited 0)
        checks = [*res["checks"].values(), *res.get("input_checks", {}).values()]
        inside += sum(bool(ok) for _, ok in checks)
        figures += len(checks)
        if out_dir is not None:
            columns = list(res["history"])
            np.savetxt(out_dir / f"{sc['name']}.csv",
                       np.column_stack([res["t"]] + [res["history"][c] for c in columns]),
                       delimiter=",", header=",".join(["t_s"] + columns), comments="")
            # the histories against their corridors (a researcher plotted the CSVs herself: usercheck8)
            from occupant.report.validation_plots import write_case
            cases.append(write_case(out_dir, res, sc, path, ("IN", "OUT") if noun == "case" else ("PASS", "FAIL")))
    if out_dir is not None:
        from occupant.report.validation_plots import write_index
        write_index(out_dir, cases, what)
    # the total (a student counted 49 PASS lines of ten tests) and where the histories went
    written = (f"; histories in {out_dir}/ (a CSV and a PNG per {noun}, index.html)"
               if out_dir is not None else "")
    # ("total:", not the command's name: its lines are the progress lines --quiet leaves out)
    print(f"total: {inside} of {figures} figures inside their corridors ({len(scenarios)} "
          f"{noun}{'s' if len(scenarios) != 1 else ''}){written}", flush=True)
    return 0 if inside == figures else 1

if __name__ == "__main__":
    sys.exit(main())
