"""Minimal runners of the Part 572 certification tests that need no contact model (issue 4
section 5), until scenarios get their full runner.

Neck pendulum (49 CFR 572.33 for the 50M, 572.133 for the 5F): the head-neck assembly hangs head-down from the pendulum's neck
bracket; the pendulum's deceleration is the prescribed motion of the base B0 (the bracket). The
pendulum's rotation during the 40 ms stop is neglected (pure translation), an approximation.
Outputs: D-plane rotation of the head relative to the pendulum (flexion positive) and the moment
about the occipital condyles. Our upper-neck joint *is* the OC, so the OC moment is the joint's
resistance moment directly; M_OC = My - 0.01778 m Fx is the conversion the physical load cell
needs and is not applied here. ``evaluate`` reads the CFR figures off the response,
``pulse_checks`` checks the pulse against the CFR pulse tables; ``occupant certify`` prints both.
"""
import pathlib
import tomllib

import numpy as np

from occupant.forces.joint_resistance import joint_resistance
from occupant.human.assemble import assemble
from occupant.human.errors import DummyFileError
from occupant.human.loader import load_description
from occupant.model import BaseMotion
from occupant.shipped import shipped_dir

G0 = 9.80665
SCENARIOS = shipped_dir("scenarios") / "certification"


def available_scenarios():
    return sorted(x.stem for x in SCENARIOS.glob("*.toml"))


def read_scenario(name_or_path):
    p = pathlib.Path(name_or_path)
    if not p.is_file():
        p = SCENARIOS / f"{name_or_path}.toml"
    if not p.is_file():
        raise DummyFileError(name_or_path, "", "unknown certification scenario",
                             ", ".join(available_scenarios()) + ", or a path to a .toml file")
    with open(p, "rb") as fh:
        return tomllib.load(fh), p


def head_neck_model(dummy, modify=None):
    """The neck and head of a dummy, the lower neck joint fixed in place on the base B0.
    ``modify``: optional callable receiving the two segment records (neck, head) before assembly,
    used by the tuning record ``dummies/tools/tune_neck.py`` to try joint characteristics."""
    header, segs = load_description(dummy)
    keep = [s for s in segs if s.name in ("neck", "head")]
    keep[0].parent = None
    keep[0].location = np.zeros(3)
    if modify is not None:
        modify(keep)
    return assemble(f"{header['name']}_head_neck", keep).compile()


def pendulum_pulse(scenario):
    """(t s, deceleration m/s^2) scaled to integrate to the impact speed."""
    tab = np.array(scenario["pulse_ms_g"], float)
    t, a = tab[:, 0] * 1e-3, tab[:, 1] * G0
    scale = scenario["impact_speed"] / np.trapezoid(a, t)
    return t, a * scale, scale


def pulse_limits(scenario):
    """{figure: (kind, time s or None, lower, upper)} of the scenario's [pulse_corridor]."""
    pc = scenario.get("pulse_corridor", {})
    limits = {f"deceleration_g@{t_ms:g}ms": ("deceleration", t_ms * 1e-3, lo, hi)
              for t_ms, lo, hi in pc.get("deceleration_g", [])}
    if "max_after_30ms_g" in pc:
        limits["max_after_30ms_g"] = ("max_after_30ms", None, 0.0, pc["max_after_30ms_g"])
    if "through_5g_ms" in pc:
        limits["through_5g_ms"] = ("through_5g", None, *pc["through_5g_ms"])
    limits.update({f"delta_v_m_s@{t_ms:g}ms": ("delta_v", t_ms * 1e-3, lo, hi)
                   for t_ms, lo, hi in pc.get("delta_v_m_s", [])})
    return limits


def pulse_checks(scenario):
    """The scaled pendulum pulse against the scenario's [pulse_corridor] (49 CFR 572.33(c)(4)
    Tables A/B: deceleration at given times, its maximum after 30 ms, the time it first falls
    through 5 g; 572.133(c)(4)(ii): velocity change at given times). {figure: (value, inside)}."""
    t, a, _ = pendulum_pulse(scenario)
    out = {}
    for name, (kind, at, lo, hi) in pulse_limits(scenario).items():
        if kind == "deceleration":
            value = float(np.interp(at, t, a)) / G0
        elif kind == "max_after_30ms":
            value = float(a[t > 0.030].max()) / G0 if np.any(t > 0.030) else 0.0
        elif kind == "through_5g":
            value = _first_crossing_ms(t, a / G0, int(np.argmax(a)), 5.0)
        else:  # velocity change: the integral of the piecewise-linear pulse (exact by trapezoids)
            tk = np.append(t[t < at], at)
            value = float(np.trapezoid(np.interp(tk, t, a), tk))
        out[name] = (value, lo <= value <= hi)
    return out


def run_neck_pendulum(scenario="hybrid3_50m_neck_flexion", dt=1e-4, modify=None):
    """Run one neck pendulum test; returns a dict of time (s), rotation_deg, moment_Nm, the pulse
    and the corridor checks. ``modify`` is passed to ``head_neck_model``."""
    from occupant import simulate  # late import: simulate sits above this package

    sc, path = read_scenario(scenario)
    model = head_neck_model(sc["dummy"], modify)
    t_p, decel, scale = pendulum_pulse(sc)
    v0 = sc["impact_speed"]
    sign = 1.0 if sc["mode"] == "flexion" else -1.0
    # world: pendulum travels along +x (flexion: towards the face) and stops; B0 = bracket with
    # its z axis pointing down (head below), x along the face direction.
    t_tab = np.concatenate([t_p, [sc["t_end"] + 1.0]])
    acc = np.concatenate([-sign * decel, [0.0]])
    base = BaseMotion.translational(t_tab, acc, velocity0=(sign * v0, 0.0, 0.0))
    R_flip = np.diag([1.0, -1.0, -1.0])
    base.rotation = lambda t: R_flip
    res = simulate(model, sc["t_end"], dt=dt, base_motion=base, gravity=(0.0, 0.0, -9.81))
    ih = model.body("head")
    R0 = res.body_poses[0, ih, :3, :3]
    rot = np.array([np.degrees(np.arctan2(R[0, 2], R[0, 0]))
                    for R in np.einsum("ji,tjk->tik", R0, res.body_poses[:, ih, :3, :3])])
    # pitch of the head frame relative to its start about its own y (left) axis: positive is a
    # nod towards the face (flexion), as the J211-style D-plane rotation of the flexion test
    rotation = rot
    jdof = model.dof("upper_neck_wy")
    moment = np.empty(len(res.t))
    for k in range(len(res.t)):
        tau, slope = np.zeros(model.nv), np.zeros(model.nv)
        joint_resistance(model.tree, model.dof_forces, res.q[k], res.v[k], tau, slope)
        moment[k] = -tau[jdof]
    out = {"scenario": str(path), "t": res.t, "rotation_deg": rotation, "moment_Nm": moment,
           "pulse_scale": scale, "status": getattr(res, "status", None)}
    out["checks"] = evaluate(out, sc["corridor"], sc["mode"])
    return out


def _first_crossing_ms(t, y, start, level):
    """Time (ms) at which y, from sample ``start`` on, first falls to ``level`` (linear
    interpolation between samples), or nan."""
    after = np.nonzero(y[start:] <= level)[0]
    if not len(after):
        return float("nan")
    k = start + after[0]
    if k == 0:
        return float(t[0] * 1e3)
    y0, y1 = y[k - 1], y[k]
    frac = (y0 - level) / (y0 - y1) if y0 != y1 else 1.0
    return float((t[k - 1] + frac * (t[k] - t[k - 1])) * 1e3)


def evaluate(out, corridor, mode):
    """The response against the corridor of the test (49 CFR 572.33(b) / 572.133(b)): peak D-plane
    rotation and its time, the time the rotation first crosses zero in rebound, the peak OC
    moment (over the whole test, or only while the rotation is inside its corridor, as 572.133
    words it) and its time, and the time the moment first decays to a level. Every figure the
    corridor names is returned as (value, inside); signs are those of the test direction."""
    s = 1.0 if mode == "flexion" else -1.0
    rot, mom, t = s * out["rotation_deg"], s * out["moment_Nm"], out["t"]
    k_rot = int(np.argmax(rot))
    lo, hi = corridor["peak_rotation_deg"]
    figures = {"peak_rotation_deg": float(rot[k_rot]),
               "peak_rotation_time_ms": float(t[k_rot] * 1e3),
               "rebound_zero_time_ms": _first_crossing_ms(t, rot, k_rot, 0.0)}
    window = np.ones(len(t), bool)
    if corridor.get("peak_moment_within_rotation_corridor", False):
        window = (rot >= lo) & (rot <= hi)
    if window.any():
        k_mom = int(np.flatnonzero(window)[np.argmax(mom[window])])
        figures["peak_moment_Nm"] = s * float(mom[k_mom])
        figures["peak_moment_time_ms"] = float(t[k_mom] * 1e3)
    else:
        k_mom = int(np.argmax(mom))
        figures["peak_moment_Nm"] = figures["peak_moment_time_ms"] = float("nan")
    figures["decay_time_ms"] = _first_crossing_ms(t, mom, k_mom, s * corridor["decay_to_Nm"])
    return {name: (value, bool(corridor[name][0] <= value <= corridor[name][1]))
            for name, value in figures.items() if name in corridor}


def report_lines(out, scenario):
    """Printable lines: every pulse and response figure against its corridor, PASS or FAIL."""
    lines = [f"{scenario['name']}: {scenario['dummy']} neck {scenario['mode']} pendulum"]
    limits = {name: lim[2:] for name, lim in pulse_limits(scenario).items()}
    limits.update(scenario["corridor"])
    for title, checks in (("pulse", pulse_checks(scenario)), ("response", out["checks"])):
        for name, (value, ok) in checks.items():
            span = f"[{limits[name][0]:g}, {limits[name][1]:g}]"
            lines.append(f"  {title:8s} {name:24s} {value:9.2f} {span:>16s}  {'PASS' if ok else 'FAIL'}")
    return lines
