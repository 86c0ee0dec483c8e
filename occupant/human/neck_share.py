"""Who carries the human neck's sagittal moment (issue 14): at C7/T1 and at the occipital
condyles, the moment resisting flexion split between the joint's spring (its range and
ligamentous branch, with their hysteresis: data/joint_passive.toml), the joint's damping, and
each neck muscle spanning the joint (neck_muscles.py), its tension split into the active part and
the passive part of the Hill law (occupant.forces.muscles). Read from a head-neck run's outputs
and body poses; a diagnostic, nothing of it acts on the model.

Signs: positive resists flexion (the joint's load is minus the restoring moment, see
passive_joints.human_resistance; a muscle's moment is that of its pull on the joint's distal side
about the joint's centre, about y, flexion positive, negated). The damping part is the element's
damping times the joint angle's rate, the rate differentiated from the output samples (second
order, so it lags nothing but is only as fine as the output step)."""
import numpy as np

from occupant.forces.muscles import passive_force
from occupant.human.neck_mid import UPPER
from occupant.human.neck_muscles import neck_muscle_table

# joint: (its sagittal resistance element, the body whose frame origin is the joint's centre);
# "mid" with three neck joints only (neck_mid.py)
JOINTS = {"lower": ("lower_neck_y", "neck"), "mid": ("mid_neck_y", UPPER),
          "upper": ("upper_neck_y", "head")}


def _subtree(model, body):
    """Indices of ``body`` and every body distal to it."""
    parent = np.asarray(model.tree.parent)
    out = {body}
    for i in range(body + 1, len(parent)):   # parent[i] < i (regular numbering)
        if parent[i] in out:
            out.add(i)
    return out


def _world(model, poses, marker):
    i = model.marker(marker)
    R, p = poses[:, model.marker_body[i], :3, :3], poses[:, model.marker_body[i], :3, 3]
    return np.einsum("nij,j->ni", R, model.marker_p[i]) + p


def muscle_tension_parts(model, res, e):
    """(active, passive) tension (N, arrays) of muscle ``e``: the passive part F_max f_P(l) of its
    fibre length, the active part the rest of the output tension."""
    mb = model.muscles
    name = model.muscle_names[e]
    tension = np.asarray(res.outputs[f"{name}.force"], float)
    l = (np.asarray(res.outputs[f"{name}.length"], float) - mb.tendon_length[e]) \
        / mb.optimal_length[e]
    passive = mb.max_force[e] * np.array([passive_force(x, mb.passive_strain[e],
                                                        mb.passive_shape[e]) for x in l])
    return tension - passive, passive


def sagittal_share(model, res):
    """{joint: {"angle_deg", "spring", "damping", "muscles": {name: (active, passive)}}} for
    "lower" (C7/T1), "mid" (C4, with three neck joints) and "upper" (condyles): arrays over
    res.t, moments in N m resisting flexion."""
    t, poses = np.asarray(res.t), res.body_poses
    out = {}
    for joint, (element, body) in JOINTS.items():
        if element not in model.joint_resistance_names:
            continue
        e = model.joint_resistance_names.index(element)
        angle = np.asarray(res.outputs[f"{element}.deflection"], float)
        resisting = -np.asarray(res.outputs[f"{element}.load"], float)
        damping = model.joint_resistance.damping[e] * np.gradient(angle, t)
        distal = _subtree(model, model.body(body))
        centre = poses[:, model.body(body), :3, 3]
        muscles = {}
        for m, name in enumerate(model.muscle_names):
            a, b = f"{name}_origin", f"{name}_insertion"
            on_a = model.marker_body[model.marker(a)] in distal
            on_b = model.marker_body[model.marker(b)] in distal
            if on_a == on_b:            # the muscle does not span this joint
                continue
            pa, pb = _world(model, poses, a), _world(model, poses, b)
            near, far = (pa, pb) if on_a else (pb, pa)   # near: the end on the distal side
            u = (far - near) / np.linalg.norm(far - near, axis=1)[:, None]
            arm = np.cross(near - centre, u)[:, 1]        # flexion moment per newton
            active, passive = muscle_tension_parts(model, res, m)
            muscles[name] = (-arm * active, -arm * passive)
        out[joint] = {"angle_deg": np.degrees(angle), "spring": resisting - damping,
                      "damping": damping, "muscles": muscles}
    return out


def impulse_to_peak(t, share):
    """Angular impulses (N m s) resisting flexion of one joint of sagittal_share, from the start
    to the joint's largest flexion: {"spring", "damping", "muscle_active", "muscle_passive"}."""
    k = int(np.argmax(share["angle_deg"])) + 1
    t = np.asarray(t)[:k]
    active = sum(a for a, _ in share["muscles"].values())
    passive = sum(p for _, p in share["muscles"].values())
    parts = {"spring": share["spring"], "damping": share["damping"],
             "muscle_active": active, "muscle_passive": passive}
    return {key: float(np.trapezoid(np.asarray(v)[:k], t)) for key, v in parts.items()}


def muscle_groups(share):
    """The muscles of one joint of sagittal_share summed by their group in
    data/neck_muscles.toml: {"flexion", "extension", "lateral"} -> (active, passive) moment
    arrays (N m resisting flexion); "flexion_oc" counts as flexion, "extension_oc" as extension."""
    group = {m["name"]: m["group"].removesuffix("_oc") for m in neck_muscle_table()["muscle"]}
    out = {}
    for name, (active, passive) in share["muscles"].items():
        g = group[name.split("_", 1)[1]]                  # "<side>_<muscle>"
        a, p = out.get(g, (0.0, 0.0))
        out[g] = (a + np.asarray(active), p + np.asarray(passive))
    return out
