"""The ``occupant`` command."""
import argparse
import sys

from occupant import __version__


def main(argv=None):
    parser = argparse.ArgumentParser(prog="occupant", description="Occupant dynamics in vehicle crashes.")
    parser.add_argument("--version", action="version", version=f"occupant {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser("demo", help="simulate the sample humanoid in a sled pulse and print a summary")
    demo.add_argument("--t-end", type=float, default=0.15, help="simulated time in s (default 0.15)")
    demo.add_argument("--integrator", choices=("euler", "rk4", "dopri5"), default="euler")
    demo.add_argument("--dt", type=float, default=None, help="step in s (default per integrator)")
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        if args.command == "demo":
            from occupant.demo import run_demo
            res = run_demo(t_end=args.t_end, integrator=args.integrator, dt=args.dt)
            return 0 if res.status != "diverged" else 3
    except ValueError as exc:  # user mistakes: a clear message and a non-zero exit, no traceback
        print(f"occupant: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
