"""Part 572 certification tests that need contact (issue 11 section 7): head drop (49 CFR 572.32),
thorax pendulum (572.34) and knee impact (572.35 for the 50M, 572.136 for the 5F).

Each test builds its rig from the dummy's segment records (``occupant.human.loader``) and the
compliant contact of ``occupant.modeling`` (``occupant.contact.compliant``), runs it and reads the
CFR figures off the response:
- head drop: the head alone on a free joint meets a rigid horizontal plate (a B0 plane) at the
  speed of a fall from ``drop_height``; the head accelerometer (at the head CG) reads the
  specific force, the contact force over the head mass, in head axes;
- thorax pendulum: the whole dummy sits on a rigid seat plane without back support; the probe,
  a rigid body of the CFR mass on a prismatic joint along the chest x axis with a flat round
  face (a plane bounded to the disc of the face's radius), strikes the sternum pad at
  ``impact_speed``; the probe force is its mass times its deceleration (572.34(b)), i.e. the
  contact force along its axis, and the deflection is the sternum's travel on its chest joint;
- knee impact: the upper leg alone, fixed to the rig as the CFR fixes the knee through the
  femur load cell simulator, is struck along the femur axis on its knee pad by the knee probe.
The probes are guided (572.34(c)(6), 572.35(b)(2)(v)): their prismatic joints leave no lateral,
vertical or rotational motion. Signals are filtered with the CFR's SAE J211 channel class (the
scenario's ``cfc``, and ``deflection_cfc`` for the sternum deflection; 572.36(i), 572.137(m))
before the figures are read; the runs are sampled at 20 kHz or more (J211: at least 10 samples
per 1/CFC). Figures (``*_figures``) are pure functions of the signals so that tests can check
them on synthetic ones.
"""
import numpy as np

from occupant.constants import G0
from occupant.human.assemble import assemble, reference_origins
from occupant.injury.filters import cfc_filter
from occupant.human.loader import load_description
from occupant.modeling import ContactCharacteristic, ContactPair, Joint, Marker, Part, Plane, Pose
from occupant.spatial import matrix_to_quat, rot_y

CONTACT_KEYS = ("stiffness", "exponent", "table", "unloading_table", "absorption", "damping",
                "friction")


def characteristic(table, name):
    """ContactCharacteristic from a scenario's [contact] table (keys as the class's)."""
    return ContactCharacteristic(name=name, **{k: table[k] for k in CONTACT_KEYS if k in table})


def _probe(asm, name, mass, origin, R, face_radius):
    """A rigid probe on a prismatic joint from B0 sliding along R's z (the direction of travel),
    its flat face a plane through its origin facing that way, bounded to the disc of the CFR
    face's radius (572.36(a), (b); 572.137(a), (b): flat-faced rigid cylinders)."""
    asm.add(Part(name, mass, inertia=(1e-3, 1e-3, 1e-3)))  # guided: its inertia never acts
    asm.add(Joint(f"{name}_guide", "prismatic", None, name, Pose(origin, R)))
    asm.add(Marker(f"{name}_face_frame", name))
    asm.add(Plane(f"{name}_face", f"{name}_face_frame", radius=face_radius))
    return f"{name}_face"


def _ellipsoid(segments, seg_name, ell_name):
    seg = next(s for s in segments if s.name == seg_name)
    return next(e for e in seg.ellipsoids if e.name == ell_name)


# ------------------------------------------------------------------------------------------
# head drop, 572.32
# ------------------------------------------------------------------------------------------
def head_drop_model(sc):
    """(model, q0, v0) of the head falling face-first on the plate, touching at t = 0."""
    _, segs = load_description(sc["dummy"])
    head = next(s for s in segs if s.name == "head")
    head.parent, head.joint_kind, head.location, head.resistances = None, "free", np.zeros(3), []
    asm = assemble(f"{sc['dummy']}_head_drop", [head])
    asm.add(Plane("plate"))                      # B0's x-y plane, normal up
    asm.add(ContactPair("head_plate", "head_shell", "plate",
                        characteristic(sc["contact"], "head skin")))
    model = asm.compile()
    R = rot_y(np.radians(sc["pitch_deg"]))       # nose-down pitch
    e = _ellipsoid([head], "head", "head_shell")
    reach = np.linalg.norm(e.semi_axes * (R @ e.R_segment_ellipsoid).T[:, 2])
    p = np.array([0.0, 0.0, reach - (R @ e.center)[2]])
    v = np.sqrt(2.0 * G0 * sc["drop_height"])    # speed at the plate after the free fall [D]
    q0 = np.concatenate([p, matrix_to_quat(R)])
    v0 = np.concatenate([R.T @ [0.0, 0.0, -v], np.zeros(3)])  # free joint: link-frame velocities
    return model, q0, v0


def head_drop_figures(t, accel_head_g):
    """Figures of 572.32(b) from the head CG acceleration (n, 3) in g, head axes: the peak
    resultant, the peak |lateral| (y) and the largest resultant after the main pulse as a percent
    of its peak (zero to peak). The main pulse ends at the resultant's first minimum after its
    peak [D: the CFR does not say where the pulse ends]."""
    res = np.linalg.norm(accel_head_g, axis=1)
    k = int(np.argmax(res))
    peak = float(res[k])
    rising = np.flatnonzero(np.diff(res[k:]) >= 0.0)   # the first minimum after the peak
    after = res[k + rising[0]:] if len(rising) else res[:0]
    return {"peak_resultant_g": peak,
            "peak_lateral_g": float(np.max(np.abs(accel_head_g[:, 1]))),
            "oscillation_percent": float(100.0 * after.max(initial=0.0) / peak)}


def run_head_drop(sc, dt=2e-5):
    from occupant import simulate  # late import: simulate sits above this package

    model, q0, v0 = head_drop_model(sc)
    res = simulate(model, sc["t_end"], dt=dt, q0=q0, v0=v0, output_dt=dt)
    force = res.outputs["head_plate.normal_force"]
    # accelerometer at the head CG: specific force = contact force / mass, in head axes
    R = res.body_poses[:, model.body("head"), :3, :3]
    a = np.einsum("tji,j->ti", R, [0.0, 0.0, 1.0]) * (force / model.body_mass[0] / G0)[:, None]
    a = np.column_stack([cfc_filter(a[:, i], dt, sc["cfc"]) for i in range(3)])
    return {"t": res.t, "history": {"accel_x_g": a[:, 0], "accel_y_g": a[:, 1],
                                    "accel_z_g": a[:, 2], "plate_force_N": force},
            "figures": head_drop_figures(res.t, a), "results": res, "model": model}


# ------------------------------------------------------------------------------------------
# thorax pendulum, 572.34
# ------------------------------------------------------------------------------------------
def thorax_model(sc, modify=None, segments=None):
    """(model, q0, v0) of the seated dummy and the probe touching its sternum pad at t = 0.
    ``modify``: optional callable receiving the segment records before assembly (the tuning
    record ``dummies/tools/tune_chest.py`` tries chest characteristics with it). ``segments``:
    (name, segment records) of another body with a sternum (the parametric human) instead of
    the scenario's dummy."""
    name, segs = segments if segments is not None else load_description(sc["dummy"])
    if segments is None:
        name = name["name"]
    if modify is not None:
        modify(segs)
    asm = assemble(name, segs)
    pelvis = _ellipsoid(segs, "pelvis", "pelvis_flesh")
    seat_z = pelvis.semi_axes[2] - pelvis.center[2]          # pelvis origin above the seat
    asm.add(Plane("seat", point=(0.0, 0.0, 0.0)))
    asm.add(ContactPair("pelvis_seat", "pelvis_flesh", "seat",
                        characteristic(sc["seat_contact"], "seat")))
    pad = _ellipsoid(segs, "sternum", "sternum_pad")
    o = reference_origins(segs)["sternum"] + [0.0, 0.0, seat_z]
    front = o + pad.center + [pad.semi_axes[0], 0.0, 0.0]
    R = np.array([[0.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])  # travel along -x (rearward)
    face = _probe(asm, "probe", sc["probe"]["mass"], front, R, sc["probe"]["face_radius"])
    asm.add(ContactPair("probe_sternum", "sternum_pad", face,
                        characteristic(sc["contact"], "chest jacket")))
    model = asm.compile()
    q0 = model.neutral_configuration().copy()
    root = model.joint_links[model.joint_names.index("root")][0]
    q0[model.tree.qidx[root] + 2] = seat_z
    v0 = np.zeros(model.nv)
    v0[model.tree.vidx[model.joint_links[model.joint_names.index("probe_guide")][0]]] = sc["impact_speed"]
    return model, q0, v0


def hysteresis_percent(force, deflection):
    """Internal hysteresis (572.34(b)) of a force-deflection loop: the work lost over the cycle
    as a percent of the loading work, (W_load - W_unload) / W_load, loading up to the peak
    deflection and unloading after it (trapezoids)."""
    k = int(np.argmax(deflection))
    w_load = np.trapezoid(force[:k + 1], deflection[:k + 1])
    w_unload = -np.trapezoid(force[k:], deflection[k:])
    return float(100.0 * (w_load - w_unload) / w_load)


def thorax_figures(t, force_N, deflection_m):
    """572.34(b) / 572.134(b) figures: peak probe force, peak sternum deflection (mm,
    compression positive), the internal hysteresis of the force-deflection loop and (572.134)
    the peak force while loading from 18 to 50 mm of deflection."""
    k = int(np.argmax(deflection_m))
    window = (deflection_m[:k + 1] >= 0.018) & (deflection_m[:k + 1] <= 0.050)
    return {"peak_force_N": float(np.max(force_N)),
            "peak_deflection_mm": float(1e3 * np.max(deflection_m)),
            "hysteresis_percent": hysteresis_percent(force_N, deflection_m),
            "peak_force_18_to_50mm_N": float(force_N[:k + 1][window].max(initial=0.0))}


def run_thorax_pendulum(sc, dt=None, modify=None, segments=None):
    """``dt`` None: the default RK4 step, shrunk to the joint resistance's stable step;
    ``segments`` as ``thorax_model``'s."""
    from occupant import simulate

    model, q0, v0 = thorax_model(sc, modify, segments)
    out_dt = 5e-5
    res = simulate(model, sc["t_end"], dt=dt, q0=q0, v0=v0, output_dt=out_dt)
    force = cfc_filter(res.outputs["probe_sternum.normal_force"], out_dt, sc["cfc"])
    deflection = cfc_filter(-res.outputs["chest_translation.deflection"], out_dt,
                            sc["deflection_cfc"])               # compression positive
    return {"t": res.t, "history": {"probe_force_N": force, "deflection_mm": 1e3 * deflection},
            "figures": thorax_figures(res.t, force, deflection), "results": res, "model": model}


# ------------------------------------------------------------------------------------------
# knee impact, 572.35 / 572.136
# ------------------------------------------------------------------------------------------
def knee_model(sc):
    """(model, q0, v0): the upper leg fixed to the rig, the probe moving along the femur axis
    (world +z, towards the knee) touching the knee pad's distal pole at t = 0."""
    _, segs = load_description(sc["dummy"])
    name = f"{sc.get('side', 'left')}_upper_leg"
    leg = next(s for s in segs if s.name == name)
    leg.parent, leg.joint_kind, leg.location, leg.resistances = None, "fixed", np.zeros(3), []
    asm = assemble(f"{sc['dummy']}_knee", [leg])
    pad = next(e for e in leg.ellipsoids if e.name.endswith("knee_pad"))
    pole = pad.center - [0.0, 0.0, pad.semi_axes[2]]
    face = _probe(asm, "probe", sc["probe"]["mass"], pole, np.eye(3), sc["probe"]["face_radius"])
    asm.add(ContactPair("probe_knee", pad.name, face, characteristic(sc["contact"], "knee")))
    model = asm.compile()
    v0 = np.full(model.nv, sc["impact_speed"])
    return model, model.neutral_configuration(), v0


def knee_figures(t, force_N):
    """572.35(b) / 572.136(b) figure: the peak probe force (probe mass x deceleration)."""
    return {"peak_force_N": float(np.max(force_N))}


def run_knee_impact(sc, dt=2e-5):
    from occupant import simulate

    model, q0, v0 = knee_model(sc)
    # the probe is guided horizontally; gravity acts across its path (carried by its suspension)
    res = simulate(model, sc["t_end"], dt=dt, q0=q0, v0=v0, gravity=(0.0, 0.0, 0.0), output_dt=dt)
    force = cfc_filter(res.outputs["probe_knee.normal_force"], dt, sc["cfc"])
    return {"t": res.t, "history": {"probe_force_N": force},
            "figures": knee_figures(res.t, force), "results": res, "model": model}
