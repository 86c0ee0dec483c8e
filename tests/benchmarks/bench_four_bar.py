"""Speed of the constrained solver (issue 12 section 7): the four-bar under gravity for 100 s with
each implicit integrator (wall time, steps, evaluations, Newton iterations, LU factorisations,
constraint violation, energy drift), next to the same four-bar in MuJoCo in the same run (three
hinged bodies and an equality "connect" constraint closing the loop, stepped from Python at a
fixed step). Times are CPU seconds (time.process_time) after a compiling run; the whole
variable-step run is one compiled call (occupant.integrate.implicit_loop). Issue 12 target: the
100 s run in under 2 s. Not part of the test suite: run
``python tests/benchmarks/bench_four_bar.py [radau bdf newmark]``.
"""
import sys
import time

import numpy as np

import occupant

T_END = 100.0
TOL = {"radau": 1e-8, "bdf": 1e-8, "newmark": 1e-9}


def run_occupant(model, method, rtol):
    occupant.simulate(model, t_end=0.01, integrator=method, output_dt=0.01, rtol=rtol)  # compile
    t0 = time.process_time()
    r = occupant.simulate(model, t_end=T_END, integrator=method, output_dt=0.01, rtol=rtol,
                          atol=rtol * 1e-2)
    wall = time.process_time() - t0
    e = r.energy["total"]
    return r, wall, np.abs(e - e[0]).max() / abs(e[0])


def four_bar_mjcf(model, r):
    """MJCF of the four-bar in the released configuration of ``r`` (its first sample)."""
    ang = {}
    for b, name in enumerate(r.body_names):
        R = r.body_poses[0, b]
        ang[name] = np.degrees(np.arctan2(R[1, 0], R[0, 0]))
    def inertial(name, length):
        m = model.body_mass[model.body(name)]
        i = m * length**2 / 12
        return f'<inertial pos="{length / 2} 0 0" mass="{m}" diaginertia="1e-6 {i} {i}"/>'
    return f"""<mujoco model="four_bar">
  <option gravity="0 -9.81 0" timestep="{{dt}}" integrator="{{integrator}}">
    <flag energy="enable" contact="disable"/>
  </option>
  <worldbody>
    <body name="crank" euler="0 0 {ang['crank']}">
      <joint name="O1" type="hinge" axis="0 0 1"/>
      {inertial('crank', 0.2)}
      <body name="coupler" pos="0.2 0 0" euler="0 0 {ang['coupler'] - ang['crank']}">
        <joint name="B" type="hinge" axis="0 0 1"/>
        {inertial('coupler', 0.6)}
      </body>
    </body>
    <body name="rocker" pos="0.5 0 0" euler="0 0 {ang['rocker']}">
      <joint name="O2" type="hinge" axis="0 0 1"/>
      {inertial('rocker', 0.5)}
    </body>
  </worldbody>
  <equality>
    <connect body1="coupler" body2="rocker" anchor="0.6 0 0"/>
  </equality>
</mujoco>"""


def run_mujoco(xml, dt, integrator):
    import mujoco
    m = mujoco.MjModel.from_xml_string(xml.replace("{dt}", str(dt)).replace("{integrator}", integrator))
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    e0 = d.energy.sum()
    n = int(round(T_END / dt))
    drift, viol = 0.0, 0.0
    t0 = time.process_time()
    for k in range(n):
        mujoco.mj_step(m, d)
        if k % 100 == 0:
            drift = max(drift, abs(d.energy.sum() - e0))
            # the connect constraint: coupler tip and rocker tip positions
            tip_c = d.xpos[m.body("coupler").id] + d.xmat[m.body("coupler").id].reshape(3, 3) @ [0.6, 0, 0]
            tip_r = d.xpos[m.body("rocker").id] + d.xmat[m.body("rocker").id].reshape(3, 3) @ [0.5, 0, 0]
            viol = max(viol, np.linalg.norm(tip_c - tip_r))
    wall = time.process_time() - t0
    return wall, n, viol, drift / abs(e0)


def main():
    model = occupant.samples.four_bar()
    print(f"four-bar under gravity, {T_END:g} s (issue 12 target: under 2 s wall)")
    print(f"{'solver':28s} {'CPU s':>7s} {'steps':>7s} {'f evals':>8s} {'Newton':>7s} "
          f"{'pos Newton':>10s} {'LU':>8s} {'Jacob':>6s} {'|Phi| max':>9s} {'energy drift':>12s}")
    first = None
    methods = sys.argv[1:] or ["radau", "bdf"]   # newmark (second order) takes ~10^5 steps
    for method in methods:
        r, wall, drift = run_occupant(model, method, TOL[method])
        first = first or r
        s = r.stats
        print(f"{'occupant ' + method + ' rtol %g' % TOL[method]:28s} {wall:7.2f} {s['steps']:7d} "
              f"{s['function_evaluations']:8d} {s['newton_iterations']:7d} "
              f"{s['position_newton_iterations']:10d} {s['lu_factorizations']:8d} "
              f"{s['jacobian_evaluations']:6d} "
              f"{r.constraint_violation.max():9.1e} {drift:12.1e}")
    xml = four_bar_mjcf(model, first)
    for integrator, dt in (("Euler", 1e-3), ("implicitfast", 1e-3), ("RK4", 1e-3), ("RK4", 1e-4)):
        wall, n, viol, drift = run_mujoco(xml, dt, integrator)
        print(f"{'mujoco ' + integrator + ' dt %g' % dt:28s} {wall:7.2f} {n:7d} {'':8s} {'':7s} "
              f"{'':10s} {'':8s} {'':6s} {viol:9.1e} {drift:12.1e}")


if __name__ == "__main__":
    main()
