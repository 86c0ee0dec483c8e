"""GEBOD's sitting Hybrid III 50th male, read and set beside dummies/hybrid3_50m.toml (run:
python dummies/tools/gebod_hybrid3.py; prints the comparison table of scenarios/HISTORY.md,
branch gebodh3).

Source [S]: GEBOD's data file GEBOD.DAT ("GEBOD.DAT - LAST REVISION DATE: 20 MAY 2000"), body
302 'SITTING HYBRID III DUMMY (50%)', the English-unit copy (lb, in, lb s^2 in; the file's
metric copy of the same body is rounded to 0.01 m and 0.0001 kg m^2 and agrees with it), as it
stands in the public repository bcn-services/bcns-client-technology-associates-atb,
frontend/bin/GEBOD.DAT, commit b40a34fffb716674377dd6bb319f998a9348069f (an ATB 3I front end
shipping the unmodified Gebodv.exe). GEBOD is Cheng, Obergefell & Rizer, Generator of Body
(GEBOD) Manual, AL/CF-TR-1994-0051 (1994); its Hybrid III body derives from Kaleps & Whitestone's
measurements of a Hybrid III, SAE 880638 (1988), by the manual's title and abstract (its text
was not readable here). The numbers are facts transcribed; no code of that repository is used.

How the file is read (ATB input cards, as GEBOD writes them for this body; fixed columns):
- B.2, one per segment: name (cols 1-4), plot symbol (5-6), weight W lb (7-12), principal moments
  Ix, Iy, Iz lb s^2 in (13-18, 19-24, 25-30), contact-ellipsoid semi-axes in (31-48), the
  ellipsoid's centre relative to the segment's CG in (49-66), a flag (67-72) whose 1 says that a
  B.2.a line follows with the principal axes' yaw, pitch and roll (deg) in the segment frame.
  Segment order: 1 LT lower torso, 2 MT lumbar ("mid torso"), 3 UT upper torso, 4 N neck,
  5 H head, 6-8 RUL RLL RF, 9-11 LUL LLL LF, 12-13 RUA RLA, 14-15 LUA LLA, 16-17 RHD LHD (hands).
- B.3, one per joint J, joining segment J+1 to segment JNT(J) (col 10-12): the joint centre in
  the parent segment's frame (three values, in), then in the child's (three values). The hip RH
  (-0.11, 3.15, 1.24) in LT and (0, 0, -9.96) in RUL reads: 80 mm to the right of the lower
  torso's CG, 31.5 mm below it, and 253 mm up the thigh from the thigh's CG; joints 1-16 are P,
  W, NP, HP, RH, RK, RA, LH, LK, LA, RS, RE, LS, LE, RW, LW.
ATB segment frames: origin at the segment's CG, x forward, y to the body's right, z down; the
limbs' z runs along the limb, distally (hip and knee on the thigh's z axis), as the limbs of this
model hang. This model: origin at the proximal joint, x forward, y left, z up, so a vector
v_atb is C v_atb with C = diag(1, -1, -1) (a half turn about x, a proper rotation) and a tensor
C I C; GEBOD's left segments give this model's left (mirror = true) segments directly.

What the comparison cannot settle: how GEBOD's torso frames (LT, MT, UT, N, H) are pitched
relative to each other in the seated design posture (ATB's G cards, which set the posture, are
the user's, not GEBOD's); torso CG and joint offsets are therefore compared by distance and by
the angle at the proximal joint (frame-free), and component by component only as a reading.
Moments about y do not depend on a pitch of the frame; the x and z moments do, by the pitch of
the principal axes, which both files give.
"""
import math
import pathlib
import sys

import numpy as np

LB = 0.45359237                      # kg per lb (mass of a pound-force weight)
IN = 0.0254                          # m per in
LBS2IN = 4.4482216152605 * 0.0254    # kg m^2 per lb s^2 in
C = np.diag([1.0, -1.0, -1.0])       # ATB segment axes (x fwd, y right, z down) -> this model's
SOURCE = ("GEBOD.DAT rev. 20 May 2000, body 302 'SITTING HYBRID III DUMMY (50%)', "
          "bcn-services/bcns-client-technology-associates-atb frontend/bin/GEBOD.DAT, commit b40a34ff")

# B.2 (English units), the left side where the sides differ (the foot's and hand's axes):
# weight lb, (Ix, Iy, Iz) lb s^2 in, semi-axes in, ellipsoid centre from the CG in, (yaw, pitch,
# roll) deg of the principal axes. [S]
B2 = {
    "LT": (44.460, (2.4575, 1.2969, 1.2080), (5.000, 7.185, 4.800), (-1.00, 0.0, 0.0), (0.0, -37.32, 180.0)),
    "MT": (4.890, (0.0612, 0.0593, 0.0205), (4.775, 6.500, 4.000), (1.00, 0.0, -1.00), (0.0, 4.16, 180.0)),
    "UT": (39.216, (2.6203, 2.0517, 1.7336), (4.825, 6.500, 7.785), (0.0, 0.0, 0.0), (0.0, 4.99, 180.0)),
    "N": (2.668, (0.0254, 0.0257, 0.0084), (1.675, 1.675, 3.000), (0.0, 0.0, 0.0), (0.0, 0.0, 180.0)),
    "H": (9.921, (0.1408, 0.2128, 0.1956), (4.250, 2.875, 4.000), (0.0, 0.0, 0.0), (0.0, -26.58, 180.0)),
    "LUL": (13.713, (0.6092, 0.5934, 0.1068), (2.950, 3.050, 7.285), (0.0, 0.0, 0.0), (0.0, 4.13, 180.0)),
    "LLL": (7.237, (0.6708, 0.6745, 0.0397), (2.165, 2.050, 9.750), (0.0, 0.0, 2.00), (0.0, -1.90, 180.0)),
    "LF": (2.756, (0.0067, 0.0524, 0.0491), (4.900, 1.675, 1.675), (0.0, 0.0, 0.0), (-0.96, -9.57, -158.2)),
    "LUA": (4.597, (0.1024, 0.0997, 0.0109), (1.900, 1.800, 6.000), (0.0, 0.0, -1.00), (0.0, -1.31, 180.0)),
    "LLA": (3.800, (0.1191, 0.1128, 0.0069), (1.775, 1.775, 5.800), (0.0, 0.0, 0.0), (0.0, -1.31, 180.0)),
    "LHD": (1.290, (0.0114, 0.0093, 0.0036), (1.000, 1.870, 3.650), (0.0, 0.0, 0.0), (5.35, 30.75, -173.5)),
}
# The right side's weights and moments are the left's in the file, its joints the mirror image.

# B.3 (in): joint -> (parent, child, centre in the parent's frame, centre in the child's). [S]
B3 = {
    "P": ("LT", "MT", (-2.15, 0.0, -1.66), (-0.35, 0.0, 2.56)),
    "W": ("MT", "UT", (-0.35, 0.0, -2.56), (-0.89, 0.0, 5.85)),
    "NP": ("UT", "N", (0.0, 0.0, -5.96), (0.0, 0.0, 2.76)),
    "HP": ("N", "H", (0.0, 0.0, -2.84), (-0.55, 0.0, 2.00)),
    "RH": ("LT", "RUL", (-0.11, 3.15, 1.24), (0.0, 0.0, -9.96)),
    "LH": ("LT", "LUL", (-0.11, -3.15, 1.24), (0.0, 0.0, -9.96)),
    "LK": ("LUL", "LLL", (0.0, 0.0, 6.56), (-0.20, 0.0, -6.74)),
    "LA": ("LLL", "LF", (-0.20, 0.0, 9.65), (-2.12, 0.0, -1.54)),
    "LS": ("UT", "LUA", (-0.88, -7.38, -2.66), (0.0, 0.0, -5.43)),
    "LE": ("LUA", "LLA", (0.0, 0.0, 4.94), (0.0, 0.0, -3.67)),
    "LW": ("LLA", "LHD", (0.0, 0.0, 6.07), (-0.30, 0.0, -2.13)),
}

# This model's segment <- GEBOD's segments (lumped where this model lumps), the proximal joint
# that is the segment frame's origin (None: the pelvis, whose origin is the H-point, the mid-point
# of the hip centres) and the distal joints named as this model names them.
SEGMENTS = {
    "pelvis": (("LT",), None, {"lumbar_pelvis": "P", "left_hip": "LH"}),
    "lumbar": (("MT",), "P", {"thorax_lumbar": "W"}),
    "upper_torso": (("UT",), "W", {"lower_neck": "NP", "left_shoulder": "LS"}),
    "neck": (("N",), "NP", {"upper_neck": "HP"}),
    "head": (("H",), "HP", {}),
    "left_upper_arm": (("LUA",), "LS", {"left_elbow": "LE"}),
    "left_lower_arm": (("LLA", "LHD"), "LE", {}),
    "left_upper_leg": (("LUL",), "LH", {"left_knee": "LK"}),
    "left_lower_leg": (("LLL",), "LK", {"left_ankle": "LA"}),
    "left_foot": (("LF",), "LA", {}),
}


def _rot_z(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _rot_y(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def _rot_x(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def lump(parts):
    """(mass, com, inertia about the com) of rigid parts (mass, com, inertia about its com) in one
    frame: the parallel-axis rule."""
    mass = sum(p[0] for p in parts)
    com = sum(p[0] * p[1] for p in parts) / mass
    inertia = np.zeros((3, 3))
    for m, c, i in parts:
        d = c - com
        inertia += i + m * (d @ d * np.eye(3) - np.outer(d, d))
    return mass, com, inertia


def segment_si(seg):
    """(mass kg, inertia about the CG in this model's axes kg m^2) of one GEBOD segment. The
    principal axes turn by yaw, pitch, roll (z, then the new y, then the new x; ATB's order)."""
    weight, moments, _, _, (yaw, pitch, roll) = B2[seg]
    R = _rot_z(math.radians(yaw)) @ _rot_y(math.radians(pitch)) @ _rot_x(math.radians(roll))
    inertia_atb = R @ np.diag(moments) @ R.T * LBS2IN
    return weight * LB, C @ inertia_atb @ C


def joint_in(seg, joint):
    """Joint centre (m) in this model's axes, from the CG of GEBOD segment ``seg``."""
    parent, child, in_parent, in_child = B3[joint]
    assert seg in (parent, child)
    v = in_parent if seg == parent else in_child
    return C @ np.array(v) * IN


def origin_in(seg, joint):
    """This model's segment origin (the proximal joint; the H-point for the pelvis) from the CG of
    GEBOD segment ``seg``, m, this model's axes."""
    if joint is None:
        return 0.5 * (joint_in(seg, "LH") + joint_in(seg, "RH"))
    return joint_in(seg, joint)


def gebod_segment(name):
    """GEBOD's figures for this model's segment ``name``: mass, com (from the segment's origin,
    m), inertia about the com (kg m^2, this model's axes), distal joints (m, from the origin).
    Lumped segments (the lower arm with the hand) add by the parallel-axis rule, the hand's frame
    taken parallel to the forearm's (a straight wrist, as ATB's wrist card sets it)."""
    segs, proximal, distal = SEGMENTS[name]
    first = segs[0]
    origin = origin_in(first, proximal)
    parts = []
    for seg in segs:
        m, inertia = segment_si(seg)
        if seg == first:
            com = -origin
        else:   # the hand: its CG from the forearm's, through the wrist
            com = joint_in(first, "LW") - joint_in(seg, "LW") - origin
        parts.append((m, com, inertia))
    mass, com, inertia = lump(parts)
    joints = {j: joint_in(first, g) - origin for j, g in distal.items()}
    return dict(mass=mass, com=com, inertia=inertia, joints=joints)


def ellipsoid(name):
    """GEBOD's contact ellipsoid of this model's segment ``name`` (the first GEBOD segment of a
    lumped one): (centre from the segment's origin, semi-axes), m, this model's axes (B.2 gives
    no orientation of its own for it)."""
    segs, proximal, _ = SEGMENTS[name]
    _, _, semi, centre, _ = B2[segs[0]]
    return C @ np.array(centre) * IN - origin_in(segs[0], proximal), np.array(semi) * IN


def axial_radius_of_gyration(name):
    """GEBOD's radius of gyration (m) of this model's limb segment ``name`` about its long (z)
    axis: sqrt(I_zz / m) of the (lumped) segment."""
    g = gebod_segment(name)
    return math.sqrt(axis_moments(g["inertia"])[2] / g["mass"])


def gebod_total_mass():
    """The body's weight, both sides (kg)."""
    singles = ("LT", "MT", "UT", "N", "H")
    paired = ("LUL", "LLL", "LF", "LUA", "LLA", "LHD")
    return LB * (sum(B2[s][0] for s in singles) + 2 * sum(B2[s][0] for s in paired))


def axis_moments(inertia):
    """Principal moments labelled by the segment axis (x, y, z) nearest each principal axis."""
    w, v = np.linalg.eigh(inertia)
    out = np.zeros(3)
    for k in range(3):
        out[int(np.argmax(np.abs(v[:, k])))] = w[k]
    return out


def model_segment(segments, name):
    """This model's mass, com and inertia of the same segment (the upper torso with its sternum
    plate, as GEBOD's UT holds the ribs and sternum), as gebod_segment gives them."""
    by = {s.name: s for s in segments}
    s = by[name]
    parts = [(s.mass, s.com, s.inertia)]
    if name == "upper_torso":
        st = by["sternum"]
        parts.append((st.mass, st.location + st.com, st.inertia))
    mass, com, inertia = lump(parts)
    return dict(mass=mass, com=com, inertia=inertia)


def comparison(segments):
    """Rows (segment, quantity, GEBOD, this model, difference) of the table."""
    child_of = {"lumbar_pelvis": "lumbar", "left_hip": "left_upper_leg",
                "thorax_lumbar": "upper_torso", "lower_neck": "neck",
                "left_shoulder": "left_upper_arm", "upper_neck": "head",
                "left_elbow": "left_lower_arm", "left_knee": "left_lower_leg",
                "left_ankle": "left_foot"}
    rows = []
    for name in SEGMENTS:
        g = gebod_segment(name)
        o = model_segment(segments, name)
        rows.append((name, "mass kg", g["mass"], o["mass"]))
        rows.append((name, "com mm", g["com"] * 1e3, o["com"] * 1e3))
        rows.append((name, "|com| mm", np.linalg.norm(g["com"]) * 1e3, np.linalg.norm(o["com"]) * 1e3))
        rows.append((name, "moments x,y,z kg m^2", axis_moments(g["inertia"]), axis_moments(o["inertia"])))
        for j, r in g["joints"].items():
            ours = {c.name: c.location for c in segments}[child_of[j]]
            rows.append((name, f"{j} mm", r * 1e3, ours * 1e3))
            rows.append((name, f"|{j}| mm", np.linalg.norm(r) * 1e3, np.linalg.norm(ours) * 1e3))
    ours_ellipsoid = {"pelvis": "pelvis_flesh", "lumbar": "abdomen", "upper_torso": "thorax",
                      "neck": "neck_shell", "head": "head_shell",
                      "left_upper_arm": "left_upper_arm_shell",
                      "left_lower_arm": "left_forearm_shell", "left_upper_leg": "left_thigh_shell",
                      "left_lower_leg": "left_shank_shell", "left_foot": "left_foot_shell"}
    by = {s.name: s for s in segments}
    for name, ell in ours_ellipsoid.items():
        centre, semi = ellipsoid(name)
        e = {e.name: e for e in by[name].ellipsoids}[ell]
        rows.append((name, f"ellipsoid semi-axes mm ({ell})", semi * 1e3, e.semi_axes * 1e3))
        rows.append((name, f"ellipsoid centre mm ({ell})", centre * 1e3, e.center * 1e3))
    return rows


def _fmt(v):
    if np.ndim(v):
        return "(" + ", ".join(f"{x:.4g}" for x in v) + ")"
    return f"{v:.4g}"


def main():
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
    from occupant.human.loader import load_description
    _, segments = load_description("hybrid3_50m")
    print(f"GEBOD total {gebod_total_mass():.3f} kg ({SOURCE})")
    print("| segment | quantity | GEBOD | hybrid3_50m | ours / GEBOD - 1 |")
    print("|---|---|---|---|---|")
    for name, q, g, o in comparison(segments):
        if np.ndim(g) == 0:
            diff = f"{o / g - 1:+.1%}"
        elif "moments" in q:
            diff = ", ".join(f"{b / a - 1:+.0%}" for a, b in zip(g, o))
        else:
            diff = f"{np.linalg.norm(np.asarray(o) - np.asarray(g)):.1f} mm apart"
        print(f"| {name} | {q} | {_fmt(g)} | {_fmt(o)} | {diff} |")


if __name__ == "__main__":
    main()
