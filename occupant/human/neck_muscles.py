"""The parametric human's active neck (issue 14 section 2): lumped Hill-type line muscles
(occupant.modeling.Muscle) from the upper torso to the neck and head, on both sides, sized to
the published neck strength and activated by a preset (relaxed, braced) or a delayed reflex
after the pulse starts, and ("posture") a closed-loop controller holding the head's pitch.
Data and sources: data/neck_muscles.toml."""
import math

import numpy as np

from occupant.human.data_folder import data_path, read_data
from occupant.human.errors import HumanParameterError
from occupant.human.neck_mid import UPPER, attachment
from occupant.modeling import Marker, Muscle

TABLE = "neck_muscles.toml"
ACTIVATIONS = ("relaxed", "braced", "reflex", "posture")
# the files' word (a scenario's occupant.human, a validation case's [human]) for build's None: no
# neck muscles, a PMHS
NO_NECK_MUSCLES = "none"
# The living human's: the controller holds the seated head until the pulse, the reflex answers it
# (data/neck_muscles.toml [control]; scenarios/validation/HISTORY.md, posturedefault)
DEFAULT_ACTIVATION = "posture"
CONTROL_MARKER = "head_posture"     # the head's frame at the condyles, whose pitch "posture" holds
PARTS = {"torso": "upper_torso", "neck": "neck", "head": "head"}


def neck_muscle_table():
    return read_data(TABLE)


def _frames(segs):
    """Origin of the upper torso, neck and head frames relative to C7/T1 (reference posture,
    all frames parallel), and the occipital condyles; "neck" the rigid neck's frame (with three
    neck joints, neck_mid.py, its lower piece's)."""
    by = {s.name: s for s in segs}
    c7 = by["neck"].location            # in the upper torso frame
    oc = by["head"].location            # in the neck frame (the upper piece's with three joints)
    if UPPER in by:
        oc = oc + by[UPPER].location
    return {"torso": -c7, "neck": np.zeros(3), "head": oc.copy()}, oc


def muscle_paths(segs):
    """[(name, side, part_a, point_a, part_b, point_b, group, share)] with points (m) in their
    part's frame, both sides; the table's points scaled to the body's C7/T1 -> condyles length
    (data/neck_muscles.toml [reference] neck_length_mm)."""
    tab = neck_muscle_table()
    frame, oc = _frames(segs)
    s = np.linalg.norm(oc) / (1e-3 * tab["reference"]["neck_length_mm"])
    out = []
    for m in tab["muscle"]:
        for side, sy in (("left", 1.0), ("right", -1.0)):
            ends = []
            for key in ("origin", "insertion"):
                where, x, y, z = m[key]
                p = np.array([x, sy * y, z]) * 1e-3 * s
                # "torso" points are given relative to C7/T1: shift them to the torso frame
                ends.append((where, p - frame["torso"] if where == "torso" else p))
            out.append((f"{side}_{m['name']}", side, ends[0][0], ends[0][1], ends[1][0],
                        ends[1][1], m["group"], m["share"]))
    return out


def moment_arm(segs, where_a, pa, where_b, pb, about, axis=1):
    """Moment about ``about`` ("c7" or "oc") per newton of tension, reference posture, about
    ``axis`` (1: y, flexion positive; 0: x, lateral bending, negative towards +y (left)), and the
    path length: the tension pulls the insertion b towards the origin a."""
    frame, oc = _frames(segs)
    a, b = pa + frame[where_a], pb + frame[where_b]
    centre = np.zeros(3) if about == "c7" else oc
    u = (a - b) / np.linalg.norm(a - b)
    return float(np.cross(b - centre, u)[axis]), float(np.linalg.norm(a - b))


def lateral_max_forces(segs, f_max):
    """F_max (N) of each "lateral" muscle of the left side: the lateral bending strength about
    C7/T1 (data/neck_muscles.toml) less that of the left side's other muscles spanning C7/T1
    (``f_max``: {name: N}) at full activation, shared by the group's ``share`` over each one's
    lateral moment arm [D]."""
    tab = neck_muscle_table()
    paths = [p for p in muscle_paths(segs) if p[1] == "left" and p[2] == "torso"]
    others = sum(f_max[n] * -moment_arm(segs, wa, pa, wb, pb, "c7", axis=0)[0]
                 for n, _, wa, pa, wb, pb, group, _ in paths if group != "lateral")
    gap = tab["reference"]["lateral_strength"] - others
    if gap <= 0.0:
        raise ValueError(f"{data_path(TABLE)}: the other muscles already give {others:.1f} N m "
                         "of lateral bending: no share left for the lateral group")
    out = {}
    for n, _, wa, pa, wb, pb, group, share in paths:
        if group == "lateral":
            arm = -moment_arm(segs, wa, pa, wb, pb, "c7", axis=0)[0]
            if arm <= 0.0:
                raise ValueError(f"{data_path(TABLE)}: lateral muscle '{n}' does not bend the "
                                 "neck towards its side")
            out[n] = share * gap / arm
    return out


def extensor_levels(segs, paths, f_max):
    """Balanced co-contraction: the activation of the extensors inserting on the head and of
    those inserting on the neck, per unit activation of every other muscle, such that in the
    reference posture the muscles' net moment about the occipital condyles is as near zero as a
    non-negative level allows (none when the others already extend the head there) and about
    C7/T1 zero [D]. ``paths``: muscle_paths(); ``f_max``: {name: N}."""
    rows = []                               # (group, insertion part, moment about C7/T1, about OC)
    for n, _, wa, pa, wb, pb, group, _ in paths:
        m_c7 = moment_arm(segs, wa, pa, wb, pb, "c7")[0] if wa == "torso" else 0.0
        m_oc = moment_arm(segs, wa, pa, wb, pb, "oc")[0] if wb == "head" else 0.0
        rows.append((group, wb, f_max[n] * m_c7, f_max[n] * m_oc))
    ext = [r for r in rows if r[0].startswith("extension")]
    others = [r for r in rows if not r[0].startswith("extension")]
    head = [r for r in ext if r[1] == "head"]
    neck = [r for r in ext if r[1] == "neck"]
    head_level = max(0.0, sum(r[3] for r in others) / -sum(r[3] for r in head))
    neck_level = (sum(r[2] for r in others) + head_level * sum(r[2] for r in head)) \
        / -sum(r[2] for r in neck)
    if neck_level < 0.0:
        raise ValueError(f"{data_path(TABLE)}: the extensors inserting on the head already "
                         "extend the neck about C7/T1 more than the flexors flex it")
    return head_level, neck_level


def control_gain(segs, where_a, pa, where_b, pb, group):
    """Share of the posture controller's command (positive: extend the head) a muscle takes, by
    the sign of its moment arm about the joint below the part it pulls (the condyles for the
    head, C7/T1 for the neck; reference posture): +1 if it extends there, -1 if it flexes
    (reciprocal), 0 for the lateral group (the controller holds the pitch only) [E]. The
    sternocleidomastoid, a flexor of C7/T1, passes behind the condyles: it takes +1."""
    if group == "lateral":
        return 0.0
    arm, _ = moment_arm(segs, where_a, pa, where_b, pb, "oc" if where_b == "head" else "c7")
    return -1.0 if arm > 0.0 else 1.0


def add_neck_muscles(asm, segs, activation=DEFAULT_ACTIVATION, pulse_start=0.0):
    """Add the neck muscles and their attachment markers to the Assembly of a human; returns the
    muscle names. ``activation``: "relaxed", "braced", "reflex" (relaxed, then the reflex
    excitation from pulse_start + the reflex delay) or "posture" (the default: the flexors' and
    extensors' excitations moved by a controller holding the head's pitch in B0 at its t = 0
    value until pulse_start, then the reflex's as "reflex"; data/neck_muscles.toml [control])."""
    if activation not in ACTIVATIONS:
        raise HumanParameterError("neck_activation", f"unknown value {activation!r}",
                                  ", ".join(ACTIVATIONS) + ", or None for no neck muscles")
    if isinstance(pulse_start, bool) or not isinstance(pulse_start, (int, float)) \
            or not math.isfinite(pulse_start):
        raise HumanParameterError("pulse_start", f"expected a time in s, got {pulse_start!r}",
                                  "a finite number of seconds")
    tab = neck_muscle_table()
    ref, act = tab["reference"], tab["activation"]
    preset = act["braced"] if activation == "braced" else act["relaxed"]
    reflexive = activation in ("reflex", "posture")
    reflex = act["reflex"] if reflexive else 0.0
    t_reflex = pulse_start + act["reflex_delay"] if reflexive else math.inf
    control = {}
    if activation == "posture":
        ctl = tab["control"]
        asm.add(Marker(CONTROL_MARKER, PARTS["head"], (0.0, 0.0, 0.0)))
        control = dict(control_marker=CONTROL_MARKER, control_kp=ctl["kp"],
                       control_ki=ctl["ki"], control_kd=ctl["kd"], control_delay=ctl["delay"],
                       control_end=float(pulse_start))
    strength = {"flexion": ref["flexion_strength"], "flexion_oc": ref["flexion_strength"],
                "extension": ref["extension_strength"], "extension_oc": ref["extension_strength"]}
    paths = muscle_paths(segs)
    f_max = {}
    for name, side, wa, pa, wb, pb, group, share in paths:
        if group == "lateral":
            continue
        about = "oc" if group.endswith("_oc") else "c7"
        arm, _ = moment_arm(segs, wa, pa, wb, pb, about)
        if (arm > 0) != group.startswith("flexion"):
            raise ValueError(f"{data_path(TABLE)}: muscle '{name}' ({group}) has a flexion "
                             f"moment arm of {arm * 1e3:.1f} mm about {about}: wrong side")
        f_max[name] = share * strength[group] / (2.0 * abs(arm))
    lateral = lateral_max_forces(segs, f_max)
    f_max.update({n.replace("left_", "right_", 1): f for n, f in lateral.items()}, **lateral)
    head_level, neck_level = extensor_levels(segs, paths, f_max)
    names = []
    for name, side, wa, pa, wb, pb, group, share in paths:
        length = moment_arm(segs, wa, pa, wb, pb, "c7")[1]
        balance = 1.0                                     # the levels are the flexors'
        if group.startswith("extension"):
            balance = head_level if wb == "head" else neck_level
        (part_a, pa), (part_b, pb) = (attachment(segs, p) if w == "neck" else (PARTS[w], p)
                                      for w, p in ((wa, pa), (wb, pb)))
        ma = asm.add(Marker(f"{name}_origin", part_a, tuple(pa)))
        mb = asm.add(Marker(f"{name}_insertion", part_b, tuple(pb)))
        asm.add(Muscle(name, ma.name, mb.name, max_force=f_max[name], optimal_length=length,
                       damping=ref["damping"], excitation=preset * balance,
                       reflex_excitation=reflex * balance,
                       reflex_time=t_reflex, **control,
                       control_gain=control_gain(segs, wa, pa, wb, pb, group) if control else 0.0))
        names.append(name)
    return names
