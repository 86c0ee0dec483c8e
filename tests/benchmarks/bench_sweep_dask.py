"""Benchmark of issue 13 section 4/7 (not a timed test): how a sweep of us_ncap_frontal_56 scales
on a Dask ``distributed.LocalCluster`` of worker processes, 1 against 2 workers.

For each cluster size: the cluster starts (one thread per worker process), every worker runs a
short variant first (its imports and the numba cache loaded: what each new worker pays once),
then a sweep of ``--variants`` variants (belt load limit 3000-4750 N; reports and plots off, as
a sweep writes them) runs through ``occupant.scenario.sweep(..., scheduler=client)``. Printed:
the sweep's wall time, the variants per minute, the speed-up of 2 workers over 1 and its
efficiency, the CPU seconds the workers spent per variant (time.process_time in each worker,
Dask's own work included) and the cores they kept busy on average (their CPU seconds over the
sweep's wall time: 2 workers scale when this doubles). The load average is printed beside
them: on a machine shared with other work, wall times say as much about the load as about the
code, and two workers cannot go twice as fast when the two cores are not free.

Run: python tests/benchmarks/bench_sweep_dask.py [--variants 8] [--workers 1 2]
"""
import argparse
import os
import tempfile
import time
from pathlib import Path

SCENARIO = "us_ncap_frontal_56"


def _warm():
    """Run a short variant in this worker (imports, numba cache); returns its wall seconds."""
    from occupant.scenario import load
    t0 = time.perf_counter()
    load(SCENARIO, overrides={"solver.t_end": 0.01}).run()
    return time.perf_counter() - t0


def _cpu():
    return time.process_time()


def measure(n_workers, variants, folder):
    """{"start", "warm", "sweep", "cpu", "ok"}: wall s to start the cluster, to warm its
    workers, of the sweep; CPU s of all workers per variant; variants that finished."""
    from distributed import Client, LocalCluster

    from occupant.scenario import sweep
    t0 = time.perf_counter()
    cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, Client(cluster) as client:
        start = time.perf_counter() - t0
        t0 = time.perf_counter()
        client.run(_warm)
        warm = time.perf_counter() - t0
        cpu0 = sum(client.run(_cpu).values())
        t0 = time.perf_counter()
        rows = sweep(SCENARIO, {"restraints.belt.load_limit": [3000.0 + 250.0 * i for i in range(variants)]},
                     Path(folder) / f"w{n_workers}", scheduler=client, plots=False)
        wall = time.perf_counter() - t0
        cpu = (sum(client.run(_cpu).values()) - cpu0) / variants
    return dict(start=start, warm=warm, sweep=wall, cpu=cpu, ok=sum(r["status"] == "ok" for r in rows))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variants", type=int, default=8)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = ap.parse_args()
    print(f"{SCENARIO}: sweep of {args.variants} variants on a Dask LocalCluster (processes, 1 thread "
          f"each), {os.cpu_count()} cores")
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.workers:
            load0 = os.getloadavg()[0]
            m = figures[n] = measure(n, args.variants, tmp)
            print(f"  {n} worker{'s' if n > 1 else ' '}: cluster up {m['start']:.1f} s, workers warmed "
                  f"{m['warm']:.1f} s; sweep {m['sweep']:.1f} s wall ({m['ok']}/{args.variants} ok, "
                  f"{60 * args.variants / m['sweep']:.1f} variants/min), {m['cpu']:.2f} worker CPU s per "
                  f"variant, {m['cpu'] * args.variants / m['sweep']:.2f} cores busy on average; load average "
                  f"{load0:.1f} -> {os.getloadavg()[0]:.1f}")
    base = min(figures)
    for n in sorted(figures):
        if n != base:
            speedup = figures[base]["sweep"] / figures[n]["sweep"]
            print(f"  speed-up of {n} workers over {base}: {speedup:.2f} x (efficiency "
                  f"{100 * speedup * base / n:.0f} %)")


if __name__ == "__main__":
    main()
