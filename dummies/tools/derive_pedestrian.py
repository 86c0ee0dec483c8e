"""Derivation record for dummies/hybrid3_50m_pedestrian.toml (run: PYTHONPATH=. python
dummies/tools/derive_pedestrian.py); prints the variant's derived values. Not imported by the
package; tests/human/test_dummy_variants.py checks the file against the same identities.

Method (tags as in the dummy files):
  1. standing pelvis: the seated pelvis turned TILT forward about the hip axis (Endo et al. 2012,
     sitting -> standing pelvic tilt change [S]);
  2. straight lumbar column: the thorax-lumbar joint W straight above the lumbar-pelvis joint P;
  3. standing thorax: the rigid upper torso and neck (with everything they carry: sternum,
     shoulders) turned back about W until the occipital condyle (OC) lies EAR_BEHIND_HIP behind
     the hip joint centres, the standing alignment measured by Woodhull et al. 1985 [S]; the
     head stays level (its frame is not turned);
  4. the straight column's length FITTED so that the head vertex stands at the published stature
     1.753 m [C] above the soles, legs straight (their length is the base's).
"""
import math

import numpy as np

from occupant.human.loader import load_description
from occupant.spatial import rot_y

BASE = "hybrid3_50m"
STATURE = 1.753                 # m [C] NHTSA Hybrid III family table (crash-domain-facts 1.1)
TILT = math.radians(18.3)       # [S] Endo et al. 2012, J Orthop Sci 17(6):682-686 (abstract)
# [S] Woodhull, Maltrud and Mello 1985, Eur J Appl Physiol 54:109-115 (abstract): in relaxed
# standing the hip joint lies 6.2 cm and the ear 5.9 cm ahead of the ankle: the ear 3 mm
# behind the hip. The OC is taken at the ear's fore-aft position [E: the condyles lie below
# the ear canal].
EAR_BEHIND_HIP = 0.003


def derive():
    """dict of the variant's derived figures (m, rad) from the base's description."""
    _, segs = load_description(BASE)
    s = {g.name: g for g in segs}
    R_p = rot_y(TILT)
    P = R_p @ s["lumbar"].location                       # lumbar-pelvis joint, H-point frame
    oc_w = s["neck"].location + s["head"].location       # W -> OC in the seated shape
    # turn back by beta (rot_y(-beta)) so that OC.x = -EAR_BEHIND_HIP, W straight above P
    r, lean = math.hypot(oc_w[0], oc_w[2]), math.atan2(oc_w[0], oc_w[2])
    beta = lean - math.asin((-EAR_BEHIND_HIP - P[0]) / r)
    R_t = rot_y(-beta)
    oc = R_t @ oc_w                                      # OC above W after the turn
    head = s["head"].ellipsoids[0]
    vertex_above_oc = head.center[2] + head.semi_axes[2]   # level head, axis-aligned shell
    hip_height = _hip_height()
    length = STATURE - hip_height - (P[2] + oc[2] + vertex_above_oc)
    chord = float(np.linalg.norm(s["upper_torso"].location))
    return dict(beta=beta, R_torso=R_t, R_pelvis=R_p, P=P, lumbar_length=length, chord=chord,
                lumbar_com_along=float(s["lumbar"].com @ s["upper_torso"].location) / chord,
                segments=s)


def _hip_height():
    """Height (m) of the hip joint centres above the soles in the reference posture (legs
    straight), from the compiled base dummy."""
    from occupant.dynamics import body_poses
    from occupant.human import load_dummy
    m = load_dummy(BASE)
    X = body_poses(m, m.make_data(), m.neutral_configuration())
    asm = m.source
    low = np.inf
    for geo in asm.geometries.values():
        marker = asm.markers[geo.marker]
        if marker.part != "left_foot":
            continue
        Xw = X[m.body("left_foot")] @ marker.transform
        e = np.array([0.0, 0.0, 1.0])
        reach = np.linalg.norm(geo.semi_axes * (Xw[:3, :3].T @ e))
        low = min(low, Xw[2, 3] - reach)
    return X[m.body("pelvis"), 2, 3] - low


def main():
    d = derive()
    s, R_t, R_p = d["segments"], d["R_torso"], d["R_pelvis"]
    f = lambda v: "[" + ", ".join(f"{x:.6g}" for x in v) + "]"   # noqa: E731
    print(f"thorax turned back {math.degrees(d['beta']):.3f} deg about W")
    print(f"straight lumbar column {d['lumbar_length']:.5f} m (seated chord {d['chord']:.5f} m)")
    print("pelvis com", f(R_p @ s["pelvis"].com), "flesh", f(R_p @ s["pelvis"].ellipsoids[0].center),
          "P", f(d["P"]))
    L = d["lumbar_length"]
    print("lumbar com", f([0, 0, d["lumbar_com_along"] * L / d["chord"]]), "W", f([0, 0, L]))
    for name in ("upper_torso", "sternum", "neck"):
        g = s[name]
        print(name, "com", f(R_t @ g.com), "ellipsoids",
              [(e.name, f(R_t @ e.center)) for e in g.ellipsoids])
    for name in ("sternum", "neck", "left_upper_arm", "head"):
        print(name, "joint location", f(R_t @ s[name].location))
    print("chest axis", f(R_t @ np.array([1.0, 0.0, 0.0])))


if __name__ == "__main__":
    main()
