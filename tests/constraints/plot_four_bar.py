"""Plots of the four-bar runs like seed 001's figures 3.5-3.10: the y coordinate of link 3 (the
rocker's centre of mass) over 2 s and over 100 s for each implicit integrator, the step sizes
of the variable-step methods against time, and the position constraint violation against time.

Run ``python tests/constraints/plot_four_bar.py [out_dir] [t_long]``; writes PNG files to out_dir
(default: reports/four_bar, which git ignores). Not part of the test suite.
"""
import sys
import time
from pathlib import Path

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import occupant
from occupant.integrate.integrators import INTEGRATORS
from occupant.integrate.system import MultibodySystem

METHODS = ("newmark", "radau", "bdf")
RTOL = {"newmark": 1e-9, "radau": 1e-8, "bdf": 1e-8}


def step_history(model, method, t_end):
    """(t, h) of every accepted step of ``method`` driven directly."""
    system = MultibodySystem(model, model.gravity)
    y0 = system.initial_state(model.neutral_configuration(), np.zeros(model.nv))
    integ = INTEGRATORS[method](system, 0.0, y0, rtol=RTOL[method], atol=RTOL[method] * 1e-2)
    ts, hs = [], []
    while integ.t < t_end - 1e-12:
        integ.limit_step(t_end)
        integ.step()
        ts.append(integ.t)
        hs.append(integ.t - integ.t_old)
    return np.array(ts), np.array(hs)


def main(out_dir="reports/four_bar", t_long=100.0):
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model = occupant.samples.four_bar()
    rocker = model.body("rocker")
    runs = {}
    for t_end in (2.0, t_long):
        for method in METHODS:
            t0 = time.perf_counter()
            runs[method, t_end] = occupant.simulate(model, t_end=t_end, integrator=method,
                                                    output_dt=min(0.01, t_end / 500),
                                                    rtol=RTOL[method], atol=RTOL[method] * 1e-2)
            print(f"{method} {t_end:g} s: {time.perf_counter() - t0:.2f} s wall, {runs[method, t_end].stats}")
    for t_end, name in ((2.0, "fig_3_5_rocker_y_2s.png"), (t_long, "fig_3_6_3_7_rocker_y_long.png")):
        fig, ax = plt.subplots(figsize=(8, 4))
        for method in METHODS:
            r = runs[method, t_end]
            ax.plot(r.t, r.body_com[:, rocker, 1], label=method, lw=0.8)
        ax.set_xlabel("time (s)")
        ax.set_ylabel("rocker centre of mass y (m)")
        ax.set_title(f"four-bar under gravity, {t_end:g} s")
        ax.legend()
        fig.tight_layout()
        fig.savefig(out / name, dpi=120)
        plt.close(fig)
    fig, ax = plt.subplots(figsize=(8, 4))
    for method in METHODS:
        t, h = step_history(model, method, t_long)
        ax.semilogy(t, h, label=f"{method} ({len(t)} steps)", lw=0.8)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("step size (s)")
    ax.set_title("step sizes (seed fig. 3.9)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "fig_3_9_step_size.png", dpi=120)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(8, 4))
    for method in METHODS:
        r = runs[method, t_long]
        ax.semilogy(r.t, np.maximum(r.constraint_violation, 1e-18), label=f"{method} |Phi|", lw=0.8)
        ax.semilogy(r.t, np.maximum(r.constraint_velocity_violation, 1e-18), "--",
                    label=f"{method} |G v|", lw=0.8)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("largest constraint violation")
    ax.set_title("constraint violation (seed fig. 3.10)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "fig_3_10_violation.png", dpi=120)
    plt.close(fig)
    print(f"plots written to {out}")


if __name__ == "__main__":
    main(*(sys.argv[1:2] or ["reports/four_bar"]), *(float(a) for a in sys.argv[2:3]))
