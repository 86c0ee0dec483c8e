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

The parametric human's shoulders against the car (``shoulder_caps``): the human's shoulder shells
(occupant.human.builder.shoulder_shells) lie on its upper torso with their centres inside its
thorax ellipsoid, so a surface paired with both crushes the chest's region twice (tests/scenario/
test_scenario_files.py, one body region a surface); paired with the thorax alone, the struck
shoulder's part outside it went 48 mm into pedestrian_40's bonnet, 28-30 mm past the thorax
(scenarios/validation/HISTORY.md, branches pedhuman, pedshoulder). Each side gets a cap: the
ellipsoid inside its shoulder shell, centred outside the thorax, that with the thorax stands
nearest the thorax-and-shell's outline over the lateral directions (``SHOULDER_CONE``); the
scenario's pairs with the bonnet (CAPPED_SURFACES) that name the thorax name the caps too. The Hybrid
III's thorax covers its own shoulders (its shoulder shell went no deeper into the bonnet than its
thorax), so the dummy gets none.
"""
import math

import numpy as np

from occupant.modeling.lattice import sphere_lattice
from occupant.modeling.outer_surface import placed_ellipsoid
from occupant.scenario.vehicle_front import vehicle_indices

CONTACT_ON = 1.0   # N, a contact's force above this counts as touching [E]
# The directions over which a shoulder cap is fitted: within acos(0.7) = 45.6 deg of the
# shoulder's lateral axis [E]: the lateral and oblique (+-15 deg) shoulder impacts of PMHS
# (Compigne et al., IRCOBI 2003, "Lateral and oblique impact loading of the human shoulder"
# [S: abstract]) and pedestrian_40's bonnet strike, 33 deg forward of lateral and 6 deg above it
# in the torso (branch pedshoulder), lie inside it. The shell's crescent over the thorax stands
# out up to 40 mm 45 deg above lateral (its top beside the neck), which no ellipsoid inside the
# shell centred outside the thorax reaches (fitted over all directions the cap still misses 33 mm)
SHOULDER_CONE = 0.7
SHOULDER_LATTICE = 800      # directions and surface points of the fit (a Fibonacci lattice)
# The car surfaces the caps meet: every one the thorax meets above the bonnet leading edge. The
# 95th male's struck shoulder lands on the glass (its cap 53 mm in at the membrane's 2.56 kN,
# 147.7 ms; uncapped, its shell passed 43 mm into the glass, 38 mm past its thorax: a defect
# line). Paired with the glass before pedglass, his run diverged at 191 ms, not from the glass:
# his far shoulder's rotation passed 180 deg and the joint resistance read its ball-joint
# coordinate on the shorter rotation, which jumped from the upper end of its abduction range to
# 139 deg past the lower end (26 kN m from the stop, 11 kJ in 0.1 ms, the hand then flung 200 mm
# into the glass); the coordinate now follows the quaternion through 180 deg (occupant/forces/
# joint_resistance.py, rotation_vector_row; scenarios/validation/HISTORY.md, pedshoulder,
# pedglass). The 50th male's and 5th female's caps never touch the glass or the scuttle.
CAPPED_SURFACES = ("bonnet", "windscreen", "scuttle")


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


def shoulder_cap(thorax, shell):
    """(centre (3,), semi-axes (3,), largest shortfall m) of a shoulder's cap, in the frame of the
    shoulder shell (its axes; the part's frame when both are placed without rotation). ``thorax``,
    ``shell``: (centre (3,), axes R (3 x 3, columns), semi-axes (3,)) in one frame. The cap: an
    ellipsoid on the shell's axes, centred on its fore-aft midplane, inside the shell (its surface
    points within it) and centred outside the thorax (one body region a surface: the thorax does
    not contain it), whose support with the thorax's, max(h_thorax, h_cap), falls short of the
    thorax-and-shell's, max(h_thorax, h_shell), by the least over the directions within
    SHOULDER_CONE of the shell's lateral axis (its y axis away from the thorax's centre); the
    shortfall is the largest over those directions. Fitted by Nelder-Mead from the shell shrunk
    to 0.3 about its lateral tip."""
    from scipy.optimize import minimize

    (ct, Rt, Dt), (cs, Rs, Ds) = thorax, shell
    ct, Rt, Dt, cs, Rs, Ds = (np.asarray(a, float) for a in (ct, Rt, Dt, cs, Rs, Ds))
    # everything in the shell's frame: the shell centred, the thorax placed
    tc, tR = Rs.T @ (ct - cs), Rs.T @ Rt
    # fitted with the lateral along -y (a right shoulder's), a left one mirrored into it and back,
    # so that the two caps are each other's mirror images (the lattice is not)
    F = np.diag([1.0, -1.0, 1.0]) if tc[1] < 0 else np.eye(3)
    tc, tR = F @ tc, F @ tR @ F
    side = -1.0
    U = sphere_lattice(SHOULDER_LATTICE)
    cone = U[U[:, 1] * side >= SHOULDER_CONE]

    def support(c, D, R=np.eye(3)):
        return cone @ c + np.linalg.norm((cone @ R) * D, axis=1)

    h_thorax = support(tc, Dt, tR)
    target = np.maximum(h_thorax, support(np.zeros(3), Ds))

    def unpack(x):
        return np.array([0.0, x[0], x[1]]), np.abs(np.asarray(x[2:], float))

    def cost(x):
        c, D = unpack(x)
        miss = np.max(target - np.maximum(h_thorax, support(c, D)))
        inside = np.max(np.sum(((c + U * D) / Ds) ** 2, axis=1)) - 1.0
        local = tR.T @ (c - tc) / Dt
        return miss + 1e3 * max(0.0, inside) + 1e3 * max(0.0, 1.0 - local @ local)

    s = 0.3
    x0 = np.r_[side * (1.0 - s) * Ds[1], 0.0, s * Ds]
    fit = minimize(cost, x0, method="Nelder-Mead", options=dict(maxiter=4000, xatol=1e-7, fatol=1e-8))
    c, D = unpack(fit.x)
    return F @ c, D, float(np.max(target - np.maximum(h_thorax, support(c, D))))


def shoulder_caps(asm, contacts, surfaces):
    """(tables, notes): for a parametric human (``asm`` has ``thorax`` and the two
    ``<side>_shoulder_shell`` on one part), the scenario's ``[[contact]]`` tables whose ``b`` is
    one of ``surfaces`` (the vehicle front's) and of CAPPED_SURFACES and whose ``a`` names the
    thorax, naming after it
    the two ``<side>_shoulder_cap`` (``shoulder_cap``), which are added to ``asm`` on the shells'
    part; and a note saying so. Unchanged (and nothing added) for a dummy, or when no such table
    names the thorax."""
    from occupant.modeling import Ellipsoid, Marker

    geos = asm.geometries
    shells = [f"{side}_shoulder_shell" for side in ("left", "right")]
    if "thorax" not in geos or any(n not in geos for n in shells):
        return contacts, []
    names = [f"{side}_shoulder_cap" for side in ("left", "right")]
    out, named = [], []
    for i, table in enumerate(contacts):
        a = table.get("a")
        a = [a] if isinstance(a, str) else a
        if table.get("b") in surfaces and table.get("b") in CAPPED_SURFACES and isinstance(a, list) \
                and "thorax" in a:
            k = a.index("thorax") + 1
            table = {**table, "a": a[:k] + [n for n in names if n not in a] + a[k:]}
            named.append(i)
        out.append(table)
    if not named:
        return contacts, []

    part, ct, Rt, Dt = placed_ellipsoid(asm, "thorax")
    misses = []
    for shell, cap in zip(shells, names):
        part_s, cs, Rs, Ds = placed_ellipsoid(asm, shell)
        assert part_s == part, (shell, part_s, part)   # the builder puts both on the upper torso
        c, D, miss = shoulder_cap((ct, Rt, Dt), (cs, Rs, Ds))
        asm.add(Marker(f"{cap}_frame", part, cs + Rs @ c, Rs))
        asm.add(Ellipsoid(cap, f"{cap}_frame", D))
        misses.append(miss)
    note = (f"contact[{', '.join(map(str, named))}].a: the thorax's pairs with the car's "
            f"{', '.join(CAPPED_SURFACES)} name "
            f"the human's shoulder caps too, its shoulder shells' parts outside its thorax "
            f"(occupant.scenario.pedestrian.shoulder_caps; within {1e3 * max(misses):.0f} mm of "
            f"thorax and shoulder shell over the lateral directions)")
    return out, [note]
