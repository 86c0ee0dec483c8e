"""The implicit integrators on the occupant's tree (issue 12 section 6): the Hybrid III 50th neck
flexion pendulum (49 CFR 572.33, ``occupant certify hybrid3_50m_neck_flexion``) and the welded
sled (the dummy's pelvis fixed to a sled under ``samples.sled_pulse()``, no belts or contacts),
each with Radau IIA and BDF at a few tolerances next to semi-implicit Euler at 1e-5 s: wall (CPU)
time after compilation, accepted steps, derivative evaluations, Jacobian evaluations, and the
figures compared (neck: the certification figures; sled: the head's largest excursion relative
to the sled and the peak upper-neck flexion load), with their difference from Euler at 1e-5 s.
Not part of the test suite: run ``python tests/benchmarks/bench_implicit_trees.py [neck|sled]``.
"""
import sys
import time

import numpy as np

from occupant import samples, simulate
from occupant.human.assemble import assemble
from occupant.human.certification import run_neck_pendulum
from occupant.human.loader import load_description

RUNS = [("euler", dict(dt=1e-5)), ("radau", dict(rtol=1e-4, atol=1e-6)),
        ("radau", dict(rtol=1e-6, atol=1e-8)), ("bdf", dict(rtol=1e-4, atol=1e-6)),
        ("bdf", dict(rtol=1e-6, atol=1e-8))]


def _label(method, options):
    return method + " " + " ".join(f"{k} {v:g}" for k, v in options.items())


def _timed(function, *args, **kwargs):
    function(*args, **kwargs)     # compile (and warm the caches)
    t0 = time.process_time()
    out = function(*args, **kwargs)
    return out, time.process_time() - t0


def _row(label, wall, stats, figures, reference):
    diffs = "  ".join(f"{k} {v:8.3f} ({v - reference[k]:+.3f})" for k, v in figures.items())
    print(f"{label:28s} {wall:7.2f} {stats['steps']:7d} {stats['function_evaluations']:8d} "
          f"{stats.get('jacobian_evaluations', 0):6d}  {diffs}")


def _header(what):
    print(what)
    print(f"{'integrator':28s} {'cpu s':>7s} {'steps':>7s} {'f evals':>8s} {'jacob':>6s}  "
          f"figures (difference from euler 1e-5)")


def neck():
    _header("Hybrid III 50M neck flexion pendulum, 0.16 s")
    reference = None
    for method, options in RUNS:
        kw = dict(options, integrator=method)
        kw.setdefault("dt", None)
        out, wall = _timed(run_neck_pendulum, "hybrid3_50m_neck_flexion", **kw)
        figures = {k: v for k, (v, _) in out["checks"].items()}
        reference = reference or figures
        _row(_label(method, options), wall, out["stats"], figures, reference)


def welded_model():
    header, segments = load_description("hybrid3_50m")
    segments[0].joint_kind = "fixed"
    return assemble(header["name"], segments).compile()


def sled():
    model = welded_model()
    pulse = samples.sled_pulse()
    head = model.body("head")
    print(f"model: nq {model.nq}, nv {model.nv}, nz {model.nz}")
    _header("Hybrid III 50M welded to a sled, 20 g 100 ms half-sine from 50 km/h, 0.25 s")
    reference = None
    for method, options in RUNS:
        res, wall = _timed(simulate, model, 0.25, integrator=method, base_motion=pulse,
                           gravity=(0.0, 0.0, -9.81), output_dt=1e-4, **options)
        # head centre of mass relative to the sled (B0 only translates), from its start
        rel = res.body_com[:, head] - res.base_poses[:, :3, 3]
        excursion = rel - rel[0]
        figures = {"head_dx_mm": 1e3 * excursion[:, 0].max(),
                   "head_dz_mm": 1e3 * excursion[:, 2].min(),
                   "neck_My_Nm": float(np.abs(res.outputs["upper_neck_y.load"]).max())}
        reference = reference or figures
        _row(_label(method, options), wall, res.stats, figures, reference)


if __name__ == "__main__":
    for name in sys.argv[1:] or ["neck", "sled"]:
        {"neck": neck, "sled": sled}[name]()
