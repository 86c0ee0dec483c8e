"""Pedestrian impact outputs of a run with a vehicle front (occupant.scenario.vehicle_front):
head impact time (HIT), wrap-around distance (WAD) of the head impact, the head's impact speed
relative to the car and the surface it strikes.

Definitions:
- HIT: the time elapsed from the first contact between vehicle and pedestrian (typically bumper
  to leg) to the head's first contact with the vehicle (UN GTR 9 phase 2 / Euro NCAP HIT
  determination by simulation, IWG-DPPS-18-04 [S: its definition as globalautoregs.com quotes
  it; the annex's text not read]): a duration, not the run's clock time of the head contact
  (``time``), which also counts the approach before the first contact;
- WAD: the length of a tape from the ground along the vehicle's centreline profile to the head's
  contact point, that point taken in the vehicle frame and projected onto the profile
  (VehicleFront.wrap_around_distance);
- head impact speed: |v_head CG - v_car| at the head's first contact, and its angle below the
  vehicle's x-y plane (deg; 90 = straight down).
A contact starts when its normal force first exceeds CONTACT_ON.
"""
import math

import numpy as np

from occupant.scenario.vehicle_front import vehicle_indices

CONTACT_ON = 1.0   # N, a contact's force above this counts as touching [E]


def _first(force, t):
    on = np.nonzero(force > CONTACT_ON)[0]
    return (float(t[on[0]]), int(on[0])) if len(on) else (math.inf, -1)


def first_head_contact(asm, res, surfaces=None):
    """(the run's clock s, sample index, ContactPair) of the head's first contact: the earliest
    of the pairs whose first geometry is on the head (and whose second is one of ``surfaces``,
    all when None) to push (CONTACT_ON); None when none does within the run. The report's 3D
    views show that instant too (occupant.report.render3d.key_instants)."""
    def on_head(geometry):
        marker = asm.geometries[geometry].marker
        return marker is not None and marker in asm.markers and asm.markers[marker].part == "head"

    hits = [(*_first(res.outputs[f"{p.name}.normal_force"], res.t), p) for p in asm.contact_pairs.values()
            if (surfaces is None or p.geometry_b in surfaces) and f"{p.name}.normal_force" in res.outputs
            and on_head(p.geometry_a)]
    hits = [h for h in hits if h[1] >= 0]
    return min(hits, key=lambda h: h[0]) if hits else None


def head_impact(scenario, res):
    """dict of the head impact (time: the run's clock at the head contact, hit, surface, wad,
    speed, angle, point), without them when the head does not reach the vehicle within the run;
    always ``first_contact`` (s) and ``first_pair`` (the contact pair that touched first)."""
    model, front = scenario.model, scenario.front
    asm = model.source
    surfaces = set(front.surface_names)
    pairs = [p for p in asm.contact_pairs.values() if p.geometry_b in surfaces]
    t = res.t
    first, first_pair = min(((_first(res.outputs[f"{p.name}.normal_force"], t)[0], p.name) for p in pairs),
                            default=(math.inf, None))
    hit = first_head_contact(asm, res, surfaces)
    if hit is None:
        return {"first_contact": first, "first_pair": first_pair}
    t_h, k, pair = hit
    qi, vi = vehicle_indices(model)
    x_car = scenario.front_position + res.q[k, qi]
    px, pz = (res.outputs[f"{pair.name}.point_{a}"][k] for a in "xz")
    wad = front.wrap_around_distance(px - x_car, pz)
    # head CG velocity by central differences of the recorded centre of mass
    ih = model.body("head")
    lo, hi = max(k - 1, 0), min(k + 1, len(t) - 1)
    v_head = (res.body_com[hi, ih] - res.body_com[lo, ih]) / (t[hi] - t[lo])
    v_rel = v_head - np.array([res.v[k, vi], 0.0, 0.0])
    speed = float(np.linalg.norm(v_rel))
    angle = math.degrees(math.asin(max(-1.0, min(1.0, -v_rel[2] / speed)))) if speed > 0 else 0.0
    return {"first_contact": first, "first_pair": first_pair, "time": t_h, "hit": t_h - first, "surface": pair.geometry_b,
            "wad": float(wad), "speed": speed, "angle": angle,
            "point": (float(px - x_car), float(pz))}


def pedestrian_rows(scenario, res):
    """Criteria rows (occupant.scenario.criteria form) of the head impact; none when the head
    does not reach the vehicle (the run's notes say so)."""
    h = head_impact(scenario, res)
    if "time" not in h:
        return [], [f"the head does not reach the vehicle within the {res.t[-1] * 1e3:.0f} ms run: "
                    "no head impact time, WAD or head impact speed"]
    rows = [dict(criterion="head impact time", value=h["hit"] * 1e3, unit="ms", limit=None),
            dict(criterion="head WAD", value=h["wad"] * 1e3, unit="mm", limit=None),
            dict(criterion="head impact speed", value=h["speed"], unit="m/s", limit=None),
            dict(criterion="head impact angle", value=h["angle"], unit="deg", limit=None)]
    for r in rows:
        r["pass"] = None
    a, _, b = h["first_pair"].partition("__")
    note = (f"head strikes the {h['surface'].replace('_', ' ')} at t = {h['time'] * 1e3:.1f} ms: head "
            f"impact time {h['hit'] * 1e3:.1f} ms, counted from the first vehicle contact "
            f"({a.replace('_', ' ')} on the {b.replace('_', ' ')} at t = {h['first_contact'] * 1e3:.1f} ms), "
            "as UN GTR 9's HIT determination by simulation defines it (IWG-DPPS-18-04); pedestrian "
            "outputs are values only (no regulation judges a whole-body pedestrian)")
    return rows, [note]
