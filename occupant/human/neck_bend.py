"""The head-neck bent quasi-statically by a pure moment on the head, read against a neck
moment-angle corridor (the occipital condyle (OC) moment against the head's angle relative to the
torso: Mertz & Patrick 1971; Mertz 1989's corridor), for ``validation``'s ``head_neck_bend`` test.

The rig [E]: T1 fixed (``validation.head_neck_on_t1``), gravity off, a moment about B0's y (flexion
positive, ``validation.head_rotation_deg``) on the head ramped linearly from zero, slowly enough
to be quasi-static; the neck held in its sagittal plane and the head's flexion damped by the rig
(below). The OC moment is the head's balance: the rig's moment on it. A pure moment loads every joint of the neck with the OC moment, so this is the stiffest reading of
the neck at a given OC moment: under an inertial load on the head (a sled) the joints below the
condyles carry more than the OC moment and bend further.

The corridor file holds each boundary's vertices as the source gives them, moment (N m) and
angle (deg) in the columns ``upper_moment_Nm, upper_angle_deg`` (the stiff boundary: the least
angle at a moment) and ``lower_moment_Nm, lower_angle_deg`` (the most), a shorter boundary padded
with ``nan`` rows.
"""
import numpy as np

HEAD_MOMENT = "applied_head_moment"      # the MarkerForce carrying the ramp
HEAD_DASHPOT = "rig_head_dashpot"        # the rig's damper on the head's turn
# The sagittal hold [E]: a moment fixed in direction is not conservative (no potential on the
# head's rotations), and under it the spherical-jointed neck, its lateral and axial curves soft
# (10 N m at their range ends), buckles out of its plane: with the built x and z curves the
# condyles turned 38-89 deg in lateral bending and twist by 40-80 N m of flexion moment (10 s
# ramps, with and without the rig's dashpot; scenarios/validation/HISTORY.md, mertzcase). The
# volunteers' heads moved in their sagittal plane; the hold keeps the neck there (its joints' x
# and z turns under 0.01 deg at 270 N m) [D].
SAGITTAL_HOLD_STIFFNESS = 1e4            # N m/rad [E]
SAGITTAL_HOLD_DAMPING = 10.0             # N m s/rad [E]
# The rig's dashpot on the head's flexion [E]: the built neck's own damping without muscles
# (0.14 N m s/rad for the 95th male) leaves the head ringing on the soft range after the ramp
# starts; 2 N m s/rad, about critical there (2 (k I)^0.5 = 2.3 N m s/rad with the range's
# secant, 13.9 N m over 45 deg, and the head's 0.072 kg m^2 about the condyles, 95th male; 1.8
# with 0.046 before its centre of gravity stood ahead of and higher above them, branch chancey)
# [D], lets a 40 s ramp (the case file's ramp_s) read the closed-form equilibrium (each joint's
# table at the OC moment, summed) within 0.05 deg. Its moment acts on the head, not in the neck:
# the OC moment counts it (``bend_readings``).
RIG_DAMPING = (0.0, 2.0, 0.0)            # N m s/rad about B0's x, y, z
BOUNDARIES = ("upper", "lower")


def read_corridor(columns):
    """{boundary: (k, 2) vertices (moment N m, angle deg)} from the corridor file's columns
    (``validation.read_columns``' dict), the padding rows dropped."""
    out = {}
    for b in BOUNDARIES:
        v = np.column_stack([columns[f"{b}_moment_Nm"], columns[f"{b}_angle_deg"]])
        out[b] = v[np.all(np.isfinite(v), axis=1)]
    return out


def boundary_angle(vertices, moment):
    """The angle (deg) at which a boundary (vertices of non-decreasing moment) first reaches
    ``moment``, linear between vertices; nan past its last vertex. With ``corridor_angles`` this
    is the test of a point (angle, moment) inside the corridor: the moment at most the stiff
    boundary's and at least the soft boundary's at that angle, both non-decreasing in it."""
    m, a = vertices[:, 0], vertices[:, 1]
    for k in range(1, len(m)):
        if m[k - 1] <= moment <= m[k]:
            if m[k] == m[k - 1]:
                return float(a[k - 1])
            return float(a[k - 1] + (moment - m[k - 1]) / (m[k] - m[k - 1]) * (a[k] - a[k - 1]))
    return float("nan")


def corridor_angles(corridor, moment):
    """(least, most) head-to-torso angle (deg) the corridor allows at ``moment`` (N m)."""
    return boundary_angle(corridor["upper"], moment), boundary_angle(corridor["lower"], moment)


def figure_name(moment):
    return f"flexion_at_{moment:g}Nm_deg"


def angle_at_moment(moment_series, angle_series, moment):
    """The angle when ``moment_series`` first reaches ``moment`` (linear between samples); nan
    if it never does."""
    k = int(np.argmax(moment_series >= moment))
    if moment_series[k] < moment:
        return float("nan")
    if k == 0:
        return float(angle_series[0])
    m0, m1 = moment_series[k - 1], moment_series[k]
    a0, a1 = angle_series[k - 1], angle_series[k]
    return float(a0 + (moment - m0) / (m1 - m0) * (a1 - a0))


def hold_sagittal(asm, stiffness=SAGITTAL_HOLD_STIFFNESS, damping=SAGITTAL_HOLD_DAMPING):
    """Hold the neck's joints of the head-neck Assembly ``asm`` in its sagittal plane: each
    joint's lateral (x) and axial (z) resistance replaced by a stiff linear spring and damper
    (N m/rad, N m s/rad); its flexion (y) resistance kept as built."""
    from dataclasses import replace

    for name, r in list(asm.joint_resistances.items()):
        if r.dof != 1 and asm.joints[r.joint].kind == "spherical":
            asm.joint_resistances[name] = replace(r, table=None, stiffness=float(stiffness),
                                                  damping=float(damping), absorption=0.0,
                                                  recovers=False)
    return asm


def add_head_moment(asm, moment_max, ramp_s, rig_damping=RIG_DAMPING):
    """Add to the head-neck Assembly ``asm`` a moment about B0's y on its head, linear from 0 at
    t = 0 to ``moment_max`` (N m) at ``ramp_s`` (s): a six-component marker force, J fixed in B0;
    and the rig's dashpot on the head's turn about B0's x, y, z (``rig_damping``, N m s/rad; a
    bushing of no stiffness): zero at rest, so no part of the quasi-static equilibrium."""
    from occupant.modeling.marker_forces import MarkerForce

    marker = next(n for n, m in asm.markers.items() if m.part == "head")
    asm.add(MarkerForce.six_component(HEAD_MOMENT, marker, None, table=[
        [0.0] * 7, [float(ramp_s), 0.0, 0.0, 0.0, 0.0, float(moment_max), 0.0]]))
    if any(rig_damping):
        asm.add(MarkerForce.bushing(HEAD_DASHPOT, marker, None, stiffness=(0.0,) * 6,
                                    damping=(0.0, 0.0, 0.0) + tuple(float(c) for c in rig_damping)))
    return asm


def bend_readings(model, res):
    """{history name: (n,)}: the applied moment; the OC moment (N m, flexion positive), the
    head's balance: the rig's moment on it (applied plus dashpot), which the neck carries at the
    condyles (joints and any muscles; the head's inertia and, gravity off, no weight neglected);
    the OC and C7/T1 joints' own moments (the moment the head side puts on each joint); the
    head's flexion relative to T1 from its start (deg)."""
    from occupant.human.validation import head_rotation_deg

    out = res.outputs
    flexion = head_rotation_deg(res.body_poses[:, model.body("head"), :3, :3], "flexion")
    applied = np.asarray(out[f"{HEAD_MOMENT}.ty"])
    dashpot = out[f"{HEAD_DASHPOT}.ty"] if f"{HEAD_DASHPOT}.ty" in model.output_names else 0.0
    return {"applied_moment_Nm": applied, "oc_moment_Nm": applied + np.asarray(dashpot),
            "oc_joint_moment_Nm": -np.asarray(out["upper_neck_y.load"]),
            "c7t1_joint_moment_Nm": -np.asarray(out["lower_neck_y.load"]),
            "head_flexion_deg": flexion - flexion[0]}
