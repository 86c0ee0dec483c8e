"""Injury criteria of a run from its sensor channels, named as the regulations name them, each
judged against the limit of the scenario's regulation (occupant.injury.limits) when it has one.

Channels are found by their ISO-MME codes (location, fine location, dimension, direction), so
any sensor set that measures the same quantity at the same place is used. Each criterion is a
row ``dict(criterion, value, unit, limit, pass)`` in display units (g, mm, N, "-" for
dimensionless); ``pass`` is True/False, or None when the regulation sets no limit for it or the
run is not judged (restraints declared but not modelled, occupant.scenario.restraints). A
criterion its channels cannot give (a record shorter than its window, a run stopped early) is a
row with value None and the reason in ``note``, never an exception.
"""
from occupant.injury import evaluate as injury
from occupant.injury.errors import InjuryInputError
from occupant.injury.limits import assess

#: (criterion as the regulations name it, key in occupant.injury.limits, display unit, factor
#: from the limits module's unit to the display unit); display units as occupant.display writes
#: them (a moment "N m", the limits module's "N*m")
ROWS = (
    ("HIC15", "hic15", "-", 1.0),
    ("HIC36", "hic36", "-", 1.0),
    ("head 3 ms", "head_a3ms_g", "g", 1.0),
    ("chest 3 ms", "chest_a3ms_g", "g", 1.0),
    ("chest deflection", "chest_deflection", "mm", 1e3),
    ("Nij", "nij", "-", 1.0),
    ("neck tension", "neck_tension", "N", 1.0),
    ("neck compression", "neck_compression", "N", 1.0),
    ("femur force left", "femur_compression", "N", 1.0),
    ("femur force right", "femur_compression", "N", 1.0),
)
#: Rows shown only when the scenario's regulation judges them or its ``[criteria] show`` names
#: them (so the frontal scenarios' tables keep their rows): same form as ROWS.
OPTIONAL_ROWS = (
    ("neck shear", "neck_shear", "N", 1.0),
    ("neck shear Fx+", "neck_shear_positive", "N", 1.0),
    ("neck shear Fx-", "neck_shear_negative", "N", 1.0),
    ("neck extension", "neck_extension", "N m", 1.0),
    ("VC", "vc", "m/s", 1.0),
    ("pelvis acceleration", "pelvis_acceleration_g", "g", 1.0),
    ("NIC", "nic", "m^2/s^2", 1.0),
    ("Nkm", "nkm", "-", 1.0),
    ("T1 acceleration", "t1_acceleration_g", "g", 1.0),
    ("head restraint contact time", "head_restraint_contact_time", "ms", 1e3),
    ("rebound velocity", "rebound_velocity", "m/s", 1.0),
    ("head rotation", "head_rotation_deg", "deg", 1.0),
    ("head excursion", "head_excursion", "mm", 1e3),
    ("tibia compression left upper", "tibia_compression", "N", 1.0),
    ("tibia compression left lower", "tibia_compression", "N", 1.0),
    ("tibia compression right upper", "tibia_compression", "N", 1.0),
    ("tibia compression right lower", "tibia_compression", "N", 1.0),
    ("tibia index left", "tibia_index", "-", 1.0),
    ("tibia index right", "tibia_index", "-", 1.0),
)
#: the tibia cells' fine location 2 by level (ISO-MME, as NHTSA's 11TIBILEUPH3FOZ channels)
TIBIA_LEVELS = (("upper", "UP"), ("lower", "LO"))
#: The T1 accelerometer of a rear-impact run: a [[sensor]] on the upper torso at the lower-neck
#: joint (C7/T1) with this ISO-MME location and fine location 1 [U: the code a BioRID T1 channel
#: carries, not checked against ISO/TS 13499]
T1_CODE = ("THSP", "01")
#: the surface a head-restraint contact pair names (rear-impact criteria look for its force)
HEAD_RESTRAINT = "head_restraint"


def find(channels, location, fine1, dimension, direction, fine2=None):
    """The channel whose code has this main location, fine location 1, dimension and direction
    (and fine location 2, when given)."""
    for ch in channels:
        code = ch.code or ""
        if (len(code) == 16 and code[2:6] == location and code[6:8] == fine1
                and (fine2 is None or code[8:10] == fine2)
                and code[12:14] == dimension and code[14] == direction):
            return ch
    return None


def _group(out, names, compute):
    """Put ``compute()``'s {name: CriterionResult} into ``out``; when the injury module refuses
    the channels (InjuryInputError: a record shorter than a window, too few samples), put the
    reason (str) under each of ``names`` instead."""
    try:
        out.update(compute())
    except InjuryInputError as err:
        out.update({name: f"not computable: {err}" for name in names})


def _values(channels, dummy):
    """{criterion name: CriterionResult, or the reason (str) it is not computable} for every
    criterion the channels allow."""
    out = {}
    head = [find(channels, "HEAD", "00", "AC", a) for a in "XYZ"]
    if all(head):
        def _head():
            r = injury.head(*head)
            return {"HIC15": r["hic15"], "HIC36": r["hic36"], "head 3 ms": r["head_a3ms_g"]}
        _group(out, ("HIC15", "HIC36", "head 3 ms"), _head)
    chest = [find(channels, "CHST", "00", "AC", a) for a in "XYZ"]
    if all(chest):
        _group(out, ("chest 3 ms",), lambda: {"chest 3 ms": injury.chest(*chest)["chest_a3ms_g"]})
    deflection = find(channels, "CHST", "00", "DS", "X")
    if deflection is not None:
        def _deflection():
            r = injury.chest(deflection=deflection, dummy=dummy)
            return {"chest deflection": r["chest_deflection"], "VC": r["vc"]}
        _group(out, ("chest deflection", "VC"), _deflection)
    neck = [find(channels, "NECK", "UP", d, a) for d, a in (("FO", "X"), ("FO", "Z"), ("MO", "Y"))]
    if all(neck):
        def _neck():
            r = injury.neck(*neck, dummy=dummy)
            return {"Nij": r["nij"], "neck tension": r["neck_tension"],
                    "neck compression": r["neck_compression"], "neck shear": r["neck_shear"],
                    "neck shear Fx+": r["neck_shear_positive"],
                    "neck shear Fx-": r["neck_shear_negative"], "neck extension": r["neck_extension"]}
        _group(out, ("Nij", "neck tension", "neck compression", "neck shear", "neck shear Fx+",
                     "neck shear Fx-", "neck extension"), _neck)
    for side, fine in (("left", "LE"), ("right", "RI")):
        f = find(channels, "FEMR", fine, "FO", "Z")
        if f is not None:
            name = f"femur force {side}"
            _group(out, (name,), lambda f=f, name=name: {name: injury.femur(f)["femur_compression"]})
    for side, fine in (("left", "LE"), ("right", "RI")):
        _group(out, tuple(f"tibia compression {side} {level}" for level, _ in TIBIA_LEVELS)
               + (f"tibia index {side}",), lambda side=side, fine=fine: _tibias(channels, dummy, side, fine))
    pelvis = [find(channels, "PELV", "00", "AC", a) for a in "XYZ"]
    if all(pelvis):
        _group(out, ("pelvis acceleration",), lambda: {
            "pelvis acceleration": injury.pelvis(*pelvis)["pelvis_acceleration_g"]})
    return out


def _tibias(channels, dummy, side, fine):
    """One leg's tibia compression at each cell the channels have and its tibia index, the
    larger of its cells' (Euro NCAP and UN R94 judge the worse of the upper and lower tibia)."""
    out, index = {}, None
    for level, fine2 in TIBIA_LEVELS:
        cell = [find(channels, "TIBI", fine, d, a, fine2) for d, a in (("MO", "X"), ("MO", "Y"), ("FO", "Z"))]
        if all(cell):
            r = injury.tibia(*cell, dummy=dummy)
            out[f"tibia compression {side} {level}"] = r["tibia_compression"]
            if index is None or r["tibia_index"].value > index.value:
                index = r["tibia_index"]
    if index is not None:
        out[f"tibia index {side}"] = index
    return out


def _rear_values(channels, dummy, results, model):
    """Rear-impact criteria: NIC (up to the end of the first head-restraint contact), Nkm and the
    T1 acceleration from the channels; from the motion (``results``, ``model``) the time of
    first head-restraint contact, the head's rebound velocity and its rearward rotation
    relative to the torso."""
    import numpy as np
    from occupant.injury.criteria import CriterionResult
    out = {}
    contact = None
    if results is not None:
        force = [results.outputs[f"{name}.normal_force"] for name in _head_restraint_pairs(model)
                 if f"{name}.normal_force" in results.outputs]
        if force:
            on = np.flatnonzero(np.sum(force, axis=0) > 0.0)
            if on.size:
                first = int(on[0])
                gaps = np.flatnonzero(np.diff(on) > 1)
                last = int(on[gaps[0]]) if gaps.size else int(on[-1])
                contact = (float(results.t[first]), float(results.t[last]))
                out["head restraint contact time"] = CriterionResult(
                    "head_restraint_contact_time", contact[0], "s", t=contact[0])
        out.update(_head_motion(results, model, contact[1] if contact else None))
    head_x, t1_x = find(channels, "HEAD", "00", "AC", "X"), find(channels, *T1_CODE, "AC", "X")
    if head_x is not None and t1_x is not None:
        fx, my = find(channels, "NECK", "UP", "FO", "X"), find(channels, "NECK", "UP", "MO", "Y")

        def _rear():
            r = injury.rear(head_x, t1_x, fx, my, dummy=dummy, t_end=contact[1] if contact else None)
            return {"NIC": r["nic"], "T1 acceleration": r["t1_acceleration_g"],
                    **({"Nkm": r["nkm"]} if "nkm" in r else {})}
        _group(out, ("NIC", "T1 acceleration", "Nkm"), _rear)
    return out


def _head_restraint_pairs(model):
    """Names of the contact pairs of the head's own geometries (head shell, occiput, ...) with
    the ``head_restraint`` surface."""
    asm = getattr(model, "source", None)
    if asm is None or "head" not in model.body_names:
        return []
    head = model.body("head")
    return [name for name, pair in asm.contact_pairs.items() if pair.geometry_b == HEAD_RESTRAINT
            and model.marker_body[model.marker(asm.geometries[pair.geometry_a].marker)] == head]


def _head_motion(results, model, t_end=None):
    """Rebound velocity: the head CG's largest forward velocity relative to the vehicle (B0 x)
    after its largest rearward excursion (Euro NCAP's rebound, measured there on film); head
    rotation: the head's largest rearward (extension) rotation relative to the upper torso about
    their lateral axis, from its initial angle, up to ``t_end`` (s: the end of the head-restraint
    contact, the rearward phase; None: the whole record) (deg; FMVSS 202a's head-to-torso
    rotation)."""
    import numpy as np
    from occupant.injury.criteria import CriterionResult
    names = model.body_names if hasattr(model, "body_names") else results.body_names
    if "head" not in names or "upper_torso" not in names:
        return {}
    h, u = model.body("head"), model.body("upper_torso")
    rel = com_in_vehicle(results, h)
    vx = np.gradient(rel[:, 0], results.t)
    back = int(np.argmin(rel[:, 0]))
    k = back + int(np.argmax(vx[back:]))
    R = np.einsum("tji,tjk->tik", results.body_poses[:, u, :3, :3], results.body_poses[:, h, :3, :3])
    pitch = np.degrees(np.arctan2(R[:, 0, 2], R[:, 2, 2]))   # about the torso's y axis
    ext = -(pitch - pitch[0])     # rearward (extension) rotation positive: pitch about +y is flexion
    n = len(ext) if t_end is None else int(np.searchsorted(results.t, t_end, side="right"))
    j = int(np.argmax(ext[:max(n, 1)]))
    return {"rebound velocity": CriterionResult("rebound_velocity", float(max(vx[k], 0.0)), "m/s",
                                                t=float(results.t[k])),
            "head rotation": CriterionResult("head_rotation_deg", float(max(ext[j], 0.0)), "deg",
                                             t=float(results.t[j]))}


def com_in_vehicle(results, body):
    """(n, 3) m: the centre of mass of ``body`` (its index) relative to the vehicle (B0), in the
    vehicle's frame: the head's motion here, the report's trajectories (occupant.report.data)."""
    import numpy as np
    B = results.base_poses
    return np.einsum("tji,tj->ti", B[:, :3, :3], results.body_com[:, body] - B[:, :3, 3])


def head_excursion(results, model, direction):
    """The head CG's largest excursion relative to the vehicle along ``direction`` (a vector in
    the vehicle frame B0: the pulse's, the way the occupant is thrown), from where it was at
    t = 0, in the vehicle frame (m, at its time): what a belt's load limiter trades against the
    chest's deflection. None without a head."""
    import numpy as np
    from occupant.injury.criteria import CriterionResult
    names = model.body_names if hasattr(model, "body_names") else results.body_names
    if "head" not in names or len(results.t) < 2:
        return None
    d = np.asarray(direction, float)
    rel = com_in_vehicle(results, model.body("head")) @ (d / np.linalg.norm(d))
    k = int(np.argmax(rel))
    return CriterionResult("head_excursion", float(rel[k] - rel[0]), "m", t=float(results.t[k]))


def _bound(lim):
    """The value a criterion must not pass: a max limit's, or a sliding scale's capping limit
    (its lower performance limit when it has none), with the limit's sign: neck extension is a
    negative moment (-57 N m), shown beside its negative value, and drawn on that side in a
    sweep's plots."""
    if lim.kind == "max":
        return lim.limit
    return lim.capping if lim.capping is not None else lim.lower


def criteria_rows(channels, dummy, protocol=None, judged=True, not_judged=(), show=(),
                  results=None, model=None, reference=None, direction=None):
    """Rows for the criteria the channels allow, in ROWS order, then the OPTIONAL_ROWS the
    protocol judges, the reference shows or ``show`` names; those named in ``not_judged`` keep
    their value and limit but get no verdict. A sliding (Euro NCAP) limit shows its capping limit, or its lower
    performance limit when it has none, and passes unless the value goes beyond it
    (``occupant.injury.limits.assess``); its row adds ``scale`` [higher, lower performance
    limit] and, judged, ``points`` of ``max_points``. ``results`` and ``model`` give the rear-impact
    criteria of the motion (head-restraint contact, rebound, head rotation). ``reference``: a
    protocol for another dummy whose limits are shown, never judged (a Hybrid III run beside the
    BioRID limits of a whiplash test). ``direction``: the pulse's, in the vehicle frame, for the
    head's excursion (None: no such row, as for a pedestrian, whose B0 is the road)."""
    values = _values(channels, dummy)
    limits = {lim.criterion: lim for lim in protocol.limits} if protocol else {}
    shown = {lim.criterion: lim for lim in reference.limits} if reference else {}
    # an optional row either protocol has a limit for (a parametric human's regulation is its
    # reference: its Euro NCAP rows shown as the dummy's)
    wanted = set(show) | {name for name, key, _, _ in OPTIONAL_ROWS if key in limits or key in shown}
    if wanted & {"NIC", "Nkm", "T1 acceleration", "head restraint contact time",
                 "rebound velocity", "head rotation"}:
        values.update(_rear_values(channels, dummy, results, model))
    if "head excursion" in wanted and results is not None and direction is not None:
        found = head_excursion(results, model, direction)
        if found is not None:
            values["head excursion"] = found
    rows = []
    for name, key, unit, factor in ROWS + tuple(r for r in OPTIONAL_ROWS if r[0] in wanted):
        if name not in values:
            continue
        reason = values[name] if isinstance(values[name], str) else None
        value = None if reason else float(values[name].value)
        limit, passed, extra = None, None, {}
        lim = limits.get(key)
        if lim is not None and lim.kind in ("max", "sliding"):
            limit = _bound(lim) * factor
            if lim.kind == "sliding":   # Euro NCAP: points from the higher to the lower limit
                extra["scale"] = [lim.higher * factor, lim.lower * factor]
            if judged and name not in not_judged and reason is None:
                verdict = assess(protocol.name, {key: value})[0]
                passed = verdict.passed
                if verdict.points is not None:
                    extra.update(points=verdict.points, max_points=verdict.max_points)
        elif key in shown and shown[key].kind in ("max", "sliding"):
            limit = _bound(shown[key]) * factor
        row = dict(criterion=name, value=None if reason else value * factor, unit=unit, limit=limit,
                   **{"pass": passed}, **extra)
        if reason:
            row["note"] = reason
        rows.append(row)
    return rows
