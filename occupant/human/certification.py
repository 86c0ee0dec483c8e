"""Minimal runners of the Part 572 certification tests that need no contact model (issue 4
section 5), until scenarios get their full runner.

Neck pendulum (49 CFR 572.33): the head-neck assembly hangs head-down from the pendulum's neck
bracket; the pendulum's deceleration is the prescribed motion of the base B0 (the bracket). The
pendulum's rotation during the 40 ms stop is neglected (pure translation), an approximation.
Outputs: D-plane rotation of the head relative to the pendulum (flexion positive) and the moment
about the occipital condyles. Our upper-neck joint *is* the OC, so the OC moment is the joint's
resistance moment directly; M_OC = My - 0.01778 m Fx is the conversion the physical load cell
needs and is not applied here.
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


def read_scenario(name_or_path):
    p = pathlib.Path(name_or_path)
    if not p.is_file():
        p = SCENARIOS / f"{name_or_path}.toml"
    if not p.is_file():
        raise DummyFileError(name_or_path, "", "unknown certification scenario",
                             ", ".join(sorted(x.stem for x in SCENARIOS.glob("*.toml"))))
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


def evaluate(out, corridor, mode):
    """Peak rotation, peak moment and first decay time against the corridor."""
    s = 1.0 if mode == "flexion" else -1.0
    rot, mom, t = s * out["rotation_deg"], out["moment_Nm"], out["t"]
    peak_rot = float(rot.max())
    k_peak = int(np.argmax(s * mom))
    peak_mom = float(mom[k_peak])
    # first time after the peak that the moment falls to the threshold, interpolated between
    # samples (the test's "decay for the first time")
    level = s * corridor["decay_to_Nm"]
    after = np.nonzero(s * mom[k_peak:] <= level)[0]
    if len(after):
        k = k_peak + after[0]
        m0, m1 = s * mom[k - 1], s * mom[k]
        frac = (m0 - level) / (m0 - m1) if m0 != m1 else 1.0
        decay_ms = float((t[k - 1] + frac * (t[k] - t[k - 1])) * 1e3)
    else:
        decay_ms = float("nan")
    lo, hi = corridor["peak_rotation_deg"]
    mlo, mhi = corridor["peak_moment_Nm"]
    dlo, dhi = corridor["decay_time_ms"]
    return {"peak_rotation_deg": (peak_rot, lo <= peak_rot <= hi),
            "peak_moment_Nm": (peak_mom, mlo <= peak_mom <= mhi),
            "decay_time_ms": (decay_ms, dlo <= decay_ms <= dhi)}
