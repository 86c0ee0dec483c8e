"""Benchmark of issue 13 section 7 (not a timed test): where the cold start's compilation goes.

Compiles the jobs of ``integrate.precompile`` for us_ncap_frontal_56 (the producers, the Euler
loop and its stages, the sensors' RNEA) one after the other in this one process, on an empty JIT
cache (NUMBA_CACHE_DIR a new folder), and prints the CPU seconds of each job, then of each
compiled function alone (its callees' compilation left out: numba's ``numba:compile`` events)
with the part spent in LLVM (``numba:llvm_lock``), and every function compiled for more than one
argument type (a literal constant argument, an array's layout: ``jit.nonliteral``). The whole
command on an empty cache, both processes, is ``bench_scenario.py --cold``.

Run: python tests/benchmarks/bench_cold_compile.py [--top 25]
"""
import argparse
import collections
import os
import sys
import tempfile
import time

SCENARIO = "us_ncap_frontal_56"


class Profile:
    """CPU seconds per compiled function: alone (``own``), with its callees (``total``), in LLVM
    (``llvm``, its own library's optimisation and code emission, linked callees included)."""

    def __init__(self):
        import numba.core.event as event
        self.own, self.total, self.llvm = (collections.defaultdict(float) for _ in range(3))
        self.stack, self.lock = [], []
        profile = self

        class Listener(event.Listener):
            def on_start(self, ev):
                profile.start(ev)

            def on_end(self, ev):
                profile.end(ev)
        for kind in ("numba:compile", "numba:llvm_lock"):
            event.register(kind, Listener())

    def start(self, ev):
        if ev.kind == "numba:compile":
            f = ev.data["dispatcher"].py_func
            self.stack.append([f"{f.__module__}.{f.__name__}", time.process_time(), 0.0])
        else:
            self.lock.append(time.process_time())

    def end(self, ev):
        if ev.kind == "numba:compile":
            name, t0, callees = self.stack.pop()
            dt = time.process_time() - t0
            self.own[name] += dt - callees
            self.total[name] += dt
            if self.stack:
                self.stack[-1][2] += dt
        else:
            dt = time.process_time() - self.lock.pop()
            if self.stack and not self.lock:
                self.llvm[self.stack[-1][0]] += dt


def several_signatures():
    """(function, number of signatures) of every occupant function compiled more than once."""
    from numba.core.registry import CPUDispatcher
    seen = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("occupant"):
            for value in vars(module).values():
                if not isinstance(value, CPUDispatcher):
                    continue
                # a JIT_INLINE function's twins (jit_inline) compile it for compiled callers
                for each in (value, *getattr(value, "_twins", {}).values()):
                    if len(each.signatures) > 1:
                        seen[f"{each.py_func.__module__}.{each.py_func.__qualname__}"] = \
                            len(each.signatures)
    return seen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    if "numba" in sys.modules:
        sys.exit("bench_cold_compile: run it in a new process (numba already imported)")
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="occupant_cold_")
    from occupant.integrate import precompile
    from occupant.integrate.fixed_step import run_euler
    from occupant.scenario import load
    model = load(SCENARIO).model
    profile = Profile()
    print(f"{SCENARIO}: each job compiled in turn on an empty JIT cache (CPU s)")
    start = time.process_time()
    for name, dispatcher, argtypes, _ in precompile.jobs(model, run_euler):
        t = time.process_time()
        dispatcher.compile(argtypes)
        print(f"  {name:<20} {time.process_time() - t:6.2f}")
    print(f"  {'all':<20} {time.process_time() - start:6.2f} "
          f"(LLVM {sum(profile.llvm.values()):.2f})")
    print(f"costliest functions alone, with callees, LLVM (CPU s):")
    for name, own in sorted(profile.own.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"  {own:6.2f} {profile.total[name]:6.2f} {profile.llvm[name]:6.2f}  {name}")
    print("compiled for more than one argument type:",
          ", ".join(f"{k} ({n})" for k, n in several_signatures().items()) or "none")


if __name__ == "__main__":
    main()
