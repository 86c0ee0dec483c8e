"""Speed and plausibility of the full-car braking manoeuvre (issue 12 sections 5 and 7): the
mid-size sedan settled, then braked at full pedal from 50 km/h for T_END s with the state-space
Radau integrator. Reports wall and CPU time, steps, evaluations, Newton iterations and LU
factorisations, the largest constraint violation, the peak deceleration and nose-down pitch
(expected ~1 g and 1-3 deg, crash-domain-facts.md 7.3), and writes a plot of both against
time when a path is given. Target: 2 s in under 5 s of wall time. Not part of the test suite:
``python tests/benchmarks/bench_vehicle.py [T_END] [plot.png]``.
"""
import sys
import time

import numpy as np

from occupant.shipped import shipped_dir
from occupant.vehicle import load
from occupant.vehicle import manoeuvre as M


def main(t_end=2.0, plot=None):
    sedan = load(shipped_dir("vehicles") / "midsize_sedan.toml")
    M.settle(sedan, t_end=0.01, output_dt=0.01)          # compile
    t0, c0 = time.perf_counter(), time.process_time()
    settled = M.settle(sedan, t_end=0.5, output_dt=0.01)
    print(f"settle 0.5 s: wall {time.perf_counter() - t0:.1f} s, cpu {time.process_time() - c0:.1f} s, "
          f"{settled.results.stats}", flush=True)
    t0, c0 = time.perf_counter(), time.process_time()
    man = M.hard_brake(sedan, settled.results.q[-1], t_end=t_end, output_dt=0.005)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    r = man.results
    print(f"braking {t_end} s from 50 km/h: {r.status} {r.message}")
    print(f"  wall {wall:.1f} s, cpu {cpu:.1f} s (target: 2 s of braking in < 5 s wall)")
    print(f"  stats {r.stats}")
    print(f"  constraint violation max {np.abs(r.constraint_violation).max():.2e}")
    print(f"  peak deceleration {man.deceleration_g.max():.3f} g, mean over 0.3-1.2 s "
          f"{man.deceleration_g[(man.t > 0.3) & (man.t < 1.2)].mean():.3f} g")
    pitch = man.pitch_deg - man.pitch_deg[0]
    print(f"  nose-down pitch: peak {pitch.max():.2f} deg at {man.t[np.argmax(pitch)]:.2f} s, "
          f"at the end {pitch[-1]:.2f} deg; speed at the end {man.velocity[-1, 0] * 3.6:.1f} km/h")
    if plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(3, 1, sharex=True, figsize=(7, 7))
        ax[0].plot(man.t, man.deceleration_g)
        ax[0].set_ylabel("deceleration (g)")
        ax[1].plot(man.t, pitch)
        ax[1].set_ylabel("nose-down pitch (deg)")
        ax[2].plot(man.t, man.velocity[:, 0] * 3.6)
        ax[2].set_ylabel("speed (km/h)")
        ax[2].set_xlabel("t (s)")
        fig.suptitle("mid-size sedan, full braking from 50 km/h")
        fig.savefig(plot, dpi=90)
    return man


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0, sys.argv[2] if len(sys.argv) > 2 else None)
