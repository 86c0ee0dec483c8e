"""Speed of the compiled core against Pinocchio and MuJoCo, measured in the same run
(issue 2 section 7). Not part of the test suite: run ``python tests/benchmarks/bench_dynamics.py``.

1. one forward-dynamics evaluation on the 15-body, 38-dof sample humanoid, next to
   Pinocchio's aba on the same model (built from our MJCF export);
2. 0.150 s without contacts at a fixed 1e-5 s step, semi-implicit Euler, with simulate's default
   arguments (states, poses, producer outputs and energy recorded at 1e-4 s) and without energy,
   next to MuJoCo's default (Euler) integrator on the exported MJCF, stepped from Python and with
   rollout;
3. start-up: import plus a first simulation, with the numba cache present (warm) and absent (cold).
"""
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import occupant
from occupant import samples
from occupant.dynamics import forward_dynamics
from occupant.integrate.pipeline import evaluate
from occupant.jit import FastCall
from occupant.io.mjcf import export_mjcf, mujoco_state

T_END, DT = 0.150, 1e-5


def best_of(fn, repeat=7, number=1):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return min(times)


def main():
    model = samples.humanoid()
    data = model.make_data()
    rng = np.random.default_rng(0)
    q, v, tau = model.random_configuration(rng), rng.normal(size=model.nv), rng.normal(size=model.nv)
    forward_dynamics(model, data, q, v, tau)
    t_api = best_of(lambda: forward_dynamics(model, data, q, v, tau), number=2000)
    bundle, z, step = model.bundle(), np.zeros(model.nz), FastCall(evaluate)
    step(bundle, data, 0.0, q, v, z, 0.0)
    t_kernel = best_of(lambda: step(bundle, data, 0.0, q, v, z, 0.0), number=2000)
    print(f"model: {model.name}, {model.nb} bodies, nq {model.nq}, nv {model.nv}")
    rows = [("forward dynamics, occupant forward_dynamics() from Python", t_api),
            ("one step evaluation, occupant compiled pipeline from Python", t_kernel)]

    with tempfile.TemporaryDirectory() as tmp:
        path = export_mjcf(model, Path(tmp) / "humanoid.xml", q, timestep=DT)
        try:
            import pinocchio as pin
            pmodel = pin.buildModelFromMJCF(str(path))
            pdata = pmodel.createData()
            # pinocchio's coordinates for the same state: through the MuJoCo layout (same order)
            qpos, qvel = mujoco_state(model, q, v, q)
            pq = np.array(qpos)
            pq[3:7] = qpos[[4, 5, 6, 3]]  # pinocchio's free-flyer quaternion is (x, y, z, w)
            # MuJoCo's free-joint linear velocity is world-frame; pinocchio's is local
            import mujoco
            R = np.zeros(9)
            mujoco.mju_quat2Mat(R, qpos[3:7])
            pv = np.array(qvel)
            pv[:3] = R.reshape(3, 3).T @ qvel[:3]
            ptau = np.zeros(pmodel.nv)
            pin.aba(pmodel, pdata, pq, pv, ptau)
            t_pin = best_of(lambda: pin.aba(pmodel, pdata, pq, pv, ptau), number=2000)
            rows.append(("forward dynamics, Pinocchio aba from Python", t_pin))
        except ImportError:
            t_pin = None
        import mujoco
        mjm = mujoco.MjModel.from_xml_path(str(path))
    mjd = mujoco.MjData(mjm)
    n_steps = int(round(T_END / DT))

    def run_mujoco():
        mujoco.mj_resetData(mjm, mjd)
        for _ in range(n_steps):
            mujoco.mj_step(mjm, mjd)

    def run_occupant():
        occupant.simulate(model, T_END, dt=DT, integrator="euler")

    def run_occupant_bare():
        occupant.simulate(model, T_END, dt=DT, integrator="euler", energy=False)

    run_occupant()
    run_occupant_bare()
    # interleaved: this shared machine's speed drifts over seconds, so the ratios are the medians
    # of the ratios of runs taken one right after the other, the times the best of each
    times = {run: [] for run in (run_occupant, run_occupant_bare, run_mujoco)}
    for _ in range(15):
        for run, kept in times.items():
            kept.append(best_of(run, repeat=1))
    t_occ, t_bare, t_mj = (min(kept) for kept in times.values())
    mj = np.array(times[run_mujoco])
    r_occ = np.median(np.array(times[run_occupant]) / mj)
    r_bare = np.median(np.array(times[run_occupant_bare]) / mj)
    rows += [(f"simulate {T_END} s at {DT:g} s, occupant Euler, default arguments", t_occ),
             (f"simulate {T_END} s at {DT:g} s, occupant Euler, energy=False", t_bare),
             (f"simulate {T_END} s at {DT:g} s, MuJoCo mj_step loop (Euler)", t_mj)]
    try:
        from mujoco import rollout
        state0 = np.zeros((1, mujoco.mj_stateSize(mjm, mujoco.mjtState.mjSTATE_FULLPHYSICS)))
        mujoco.mj_resetData(mjm, mjd)
        mujoco.mj_getState(mjm, mjd, state0[0], mujoco.mjtState.mjSTATE_FULLPHYSICS)
        t_roll = best_of(lambda: rollout.rollout(mjm, mjd, state0, nstep=n_steps), repeat=3)
        rows.append((f"simulate {T_END} s at {DT:g} s, MuJoCo rollout (C loop)", t_roll))
    except Exception as exc:  # rollout's signature differs between MuJoCo versions
        print(f"(MuJoCo rollout not measured: {exc})")
        t_roll = None

    for name, t in rows:
        unit, scale = ("us", 1e6) if t < 1e-2 else ("ms", 1e3)
        print(f"{name:<66} {t * scale:10.2f} {unit}")
    if t_pin:
        print(f"ratio forward dynamics / Pinocchio aba: API {t_api / t_pin:.2f} (target <= 2.3, aim 1.5), "
              f"step evaluation {t_kernel / t_pin:.2f}")
    print(f"ratio simulation / MuJoCo mj_step loop (median of paired runs): default arguments "
          f"{r_occ:.2f} (target <= 1.5), energy=False {r_bare:.2f}")
    if t_roll:
        print(f"ratio simulation / MuJoCo rollout: {t_occ / t_roll:.2f}")

    snippet = ("import time; t=time.perf_counter(); import occupant; from occupant import samples; "
               "occupant.simulate(samples.humanoid(), 0.150, dt=1e-5, integrator='euler'); "
               "print(time.perf_counter()-t)")
    warm = float(subprocess.run([sys.executable, "-c", snippet], capture_output=True, text=True,
                                check=True).stdout.split()[-1])
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = float(subprocess.run([sys.executable, "-c", snippet], capture_output=True, text=True,
                                    check=True, env=env).stdout.split()[-1])
    print(f"start-up, import + first 0.150 s simulation: warm (JIT cache present) {warm:.2f} s "
          f"(target < 2), cold (no cache) {cold:.2f} s (target < 30)")


if __name__ == "__main__":
    main()
