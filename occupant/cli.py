"""The ``occupant`` command."""
import argparse
import sys

from occupant import __version__


def main(argv=None):
    parser = argparse.ArgumentParser(prog="occupant", description="Occupant dynamics in vehicle crashes.")
    parser.add_argument("--version", action="version", version=f"occupant {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo_what = ("simulate the Hybrid III 50th male, pelvis welded to a sled seat, unrestrained (no "
                 "belt, airbag or contact yet), in a frontal half-sine sled pulse")
    demo = sub.add_parser(
        "demo", help=demo_what, description=demo_what[0].upper() + demo_what[1:] + "; print the "
        "pulse's delta-v, peak and duration, the head excursion, the spine's and neck's peak flexion "
        "against their stops and the energy balance; no injury criteria (there is no restraint).")
    demo.add_argument("--t-end", type=float, default=0.15, help="simulated time in s (default 0.15)")
    demo.add_argument("--integrator", choices=("euler", "rk4", "dopri5"), default="euler")
    demo.add_argument("--dt", type=float, default=None, help="step in s (default per integrator)")
    cert = sub.add_parser("certify", help="run Part 572 certification tests (scenarios/certification) "
                          "and print each figure against its corridor")
    cert.add_argument("scenarios", nargs="*", metavar="NAME_OR_PATH",
                      help="scenario names or .toml paths (default: all shipped ones)")
    cert.add_argument("--out", metavar="DIR", help="also write each test's time history to DIR/<name>.csv")
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        if args.command == "demo":
            from occupant.demo import run_demo
            res = run_demo(t_end=args.t_end, integrator=args.integrator, dt=args.dt)
            return 0 if res.status != "diverged" else 3
        if args.command == "certify":
            return _certify(args.scenarios, args.out)
    except ValueError as exc:  # user mistakes: a clear message and a non-zero exit, no traceback
        print(f"occupant: error: {exc}", file=sys.stderr)
        return 2
    return 0


def _certify(names, out_dir):
    """Exit code 0 when every figure of every test is inside its corridor, 1 otherwise. Each
    scenario's ``test`` key selects its runner (occupant.human.certification.TESTS)."""
    import pathlib

    import numpy as np

    from occupant.human.certification import (available_scenarios, read_scenario, report_lines,
                                              run_certification)
    scenarios = [read_scenario(n) for n in (names or available_scenarios())]  # bad names fail first
    if out_dir is not None:
        out_dir = pathlib.Path(out_dir)
        out_dir.mkdir(parents=True, exist_ok=True)
    all_ok = True
    for sc, path in scenarios:
        res = run_certification(str(path))
        print("\n".join(report_lines(res, sc)), flush=True)
        all_ok &= all(ok for _, ok in res["checks"].values())
        if out_dir is not None:
            columns = list(res["history"])
            np.savetxt(out_dir / f"{sc['name']}.csv",
                       np.column_stack([res["t"]] + [res["history"][c] for c in columns]),
                       delimiter=",", header=",".join(["t_s"] + columns), comments="")
    return 0 if all_ok else 1

if __name__ == "__main__":
    sys.exit(main())
