"""Parametric human bodies from stature, mass and sex (issue 4 section 3), in the same 15-segment
ATB layout and frames as the dummies (x forward, y left, z up; standing erect reference).

Method (GEBOD-like, Cheng et al. AL/CF-TR-1994-0051 generate ATB bodies from stature and weight
by regression; we use proportional tables instead): segment lengths = de Leva's mean length /
his sample's mean stature x stature; masses = de Leva mass % x body mass; centres of mass and
radii of gyration from de Leva (1996) Table 4 (data/deleva1996.toml). The ATB lower, centre and
upper torso are de Leva's lower, middle and upper trunk; de Leva's head+neck is split into neck
and head with the proportions of data/body_proportions.toml. Contact ellipsoids: long semi-axis
half the segment length, cross-section from the segment volume (mass / Contini's body
density); the head's from the survey (head_shell), the shoulders' partly. Joint
characteristics: human passive moment-angle curves and damping (passive_joints.py,
data/joint_passive.toml: Anderson & Pandy 1999 for hip, knee, ankle and lumbar spine; Bishop et
al. 1994 and Mertz & Patrick 1971 for the neck; estimates for the arms), scaled by m H [E] (not
GEBOD's rule: GEBOD gives every body the same joint constants, data/joint_passive.toml "Sizes"),
over the human ranges of motion of data/joint_rom.toml (clinical tables, sources there). The neck
carries Hill-type muscles (neck_muscles.py).
"""
import math

import numpy as np

from occupant.human.assemble import assemble
from occupant.human.data_folder import data_folder, read_data, stops_dummy
from occupant.human.description import CERVICALE, EllipsoidSpec, Resistance, Segment
from occupant.human.errors import HumanParameterError
from occupant.human.joint_failure import read_levels
from occupant.human.loader import load_description
from occupant.human.neck_mid import range_table, split_neck
from occupant.human.neck_muscles import DEFAULT_ACTIVATION, add_neck_muscles
from occupant.human.passive_joints import human_resistance, passive_table
from occupant.human.thoracic_spine import split_upper_torso
from occupant.modeling import Marker

SEXES = ("male", "female")
PAD_PROUD = 0.005  # m [E] the sternum pad's front this far ahead of the thorax ellipsoid (50th male)


def data_files():
    """{key: path} of what a parametric human is built from, beside its parameters: the data
    folder (its sourced tables) and the file of the dummy its joint stops are scaled from, as
    read now (data_folder.reading_from: a run folder's copies; a run folder copies them:
    occupant.scenario.run.copy_inputs)."""
    from occupant.io.toml_files import resolve_shipped
    return {"human": data_folder(),
            "human_stops": resolve_shipped(stops_dummy(), "dummies", "dummy", kind="dummy")}


def proportions():
    """data/body_proportions.toml as a dict (the human's proportions, sources there)."""
    return read_data("body_proportions.toml")


def sex_value(prop, key, sex):
    """``prop[key + "_female"]`` for a woman where the file gives the women's own value (Reed et
    al.'s landmark rules), else ``prop[key]`` (the men's, used for both sexes elsewhere)."""
    return prop.get(f"{key}_female", prop[key]) if sex == "female" else prop[key]


def segment_table(sex):
    """de Leva table for one sex: {segment: {mass (fraction), com (fraction), r_sag, r_trans,
    r_long (fractions), length (fraction of stature)}}."""
    raw = read_data("deleva1996.toml")[sex]
    H = raw["stature_mm"]
    out = {}
    for seg, row in raw.items():
        if isinstance(row, dict):
            out[seg] = {"mass": row["mass"] / 100, "com": row["com"] / 100,
                        "r": np.array([row["r_sag"], row["r_trans"], row["r_long"]]) / 100,
                        "length": row["length_mm"] / H}
    return out


def _check_inputs(stature, mass, sex, percentile):
    prop = proportions()
    if sex not in SEXES:
        raise HumanParameterError("sex", f"unknown value {sex!r}", ", ".join(SEXES))
    if percentile is not None:
        table = prop["percentile"][sex]
        key = str(int(percentile)) if float(percentile).is_integer() else str(percentile)
        if key not in table:
            raise HumanParameterError("percentile", f"{percentile!r} is not tabulated for {sex}",
                                      ", ".join(table) + "; or give stature and mass")
        stature = table[key][0] if stature is None else stature
        mass = table[key][1] if mass is None else mass
    for what, v in (("stature", stature), ("mass", mass)):
        if v is None:
            raise HumanParameterError(what, "missing", "a number, or a tabulated percentile")
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise HumanParameterError(what, f"expected a finite number, got {v!r}", "a number")
    lo, hi = prop["stature_range_m"]
    if not lo <= stature <= hi:
        raise HumanParameterError("stature", f"{stature!r} m is not a human stature", f"{lo}-{hi} m")
    lo, hi = prop["mass_range_kg"]
    if not lo <= mass <= hi:
        raise HumanParameterError("mass", f"{mass!r} kg is not a human body mass", f"{lo}-{hi} kg")
    bmi = mass / stature ** 2
    lo, hi = prop["bmi_range"]
    if not lo <= bmi <= hi:
        raise HumanParameterError("mass", f"{mass} kg at {stature} m gives a BMI of {bmi:.1f} "
                                  "kg/m^2, outside any population", f"BMI {lo}-{hi} kg/m^2")
    return float(stature), float(mass), prop


def _principal(m, r, L):
    """Principal moments (about x, y, z) from radii of gyration (fractions of L)."""
    return m * (r * L) ** 2


def _cross_section(m, L, density, ratio=1.0):
    """Semi-axes (x, y) of an ellipsoid of length L holding mass m: (4/3) pi a b (L/2) = m/rho."""
    ab = 3.0 * m / density / (2.0 * math.pi * L)
    a = math.sqrt(ab * ratio)
    return a, ab / a


def build_segments(stature, mass, sex, prop, neck_muscles=True, thoracic_spine=False,
                   neck_mid=False, face=False, heels=False):
    """SegmentSpecs of the human with their joints' resistance; ``neck_muscles``: whether the
    body will carry neck muscles (False: a PMHS, the neck's passive tissue damping);
    ``thoracic_spine``: the upper torso split at half its height on a flexible thoracic joint
    (thoracic_spine.py), False: one rigid upper torso from the xiphion's level (T9/T10) to
    C7/T1; ``neck_mid``: the neck link split at C4 on a third neck joint (neck_mid.py);
    ``face``: the head carries a chin besides its head shell (the survey's braincase either way);
    ``heels``: each foot carries a heel besides its foot shell (``heel``).
    The thorax pendulum cases (validation._run_thorax) keep the default: the chest was
    calibrated with the NBDL neck damping (with the passive one the Kroell 16 mph deflection
    reads 65.8 mm, 68.1 calibrated)."""
    H, M = stature, mass
    t = segment_table(sex)
    rho = prop["body_density_intercept"] + prop["body_density_slope"] * H / M ** (1.0 / 3.0)
    L = {k: v["length"] * H for k, v in t.items()}
    m = {k: v["mass"] * M for k, v in t.items()}
    segs = []

    def seg(name, parent, mass_, com, inertia, joint, kind, loc, axis=None, ells=()):
        segs.append(Segment(name=name, parent=parent, mass=mass_, com=np.asarray(com, float),
                            inertia=np.diag(inertia), joint_name=joint, joint_kind=kind,
                            location=np.asarray(loc, float),
                            axis=None if axis is None else np.asarray(axis, float),
                            ellipsoids=list(ells)))

    def trunk_ell(name, key, z0):
        a, b = _cross_section(m[key], L[key], rho, prop["trunk_depth_to_width"])
        return EllipsoidSpec(name, np.array([0.0, 0.0, z0 + L[key] / 2]),
                             np.array([a, b, L[key] / 2]))

    # torso: proximal landmarks are the upper ends, so the com lies (1 - com) L above the lower end
    lt, mt, ut = t["lower_trunk"], t["middle_trunk"], t["upper_trunk"]
    seg("pelvis", None, m["lower_trunk"], (0, 0, (1 - lt["com"]) * L["lower_trunk"]),
        _principal(m["lower_trunk"], lt["r"], L["lower_trunk"]), "root", "free", (0, 0, 0),
        ells=[trunk_ell("pelvis_flesh", "lower_trunk", 0.0),
              EllipsoidSpec("buttock", H * np.array(prop["buttock_center"], float),
                            H * np.array(prop["buttock_semi_axes"], float)),
              asis_flesh(H, prop)])
    # the lumbar-pelvis joint (L3/L4) two levels above L5/S1; de Leva's trunk bodies (masses,
    # coms, shells, the omphalion between them) and the thorax-lumbar joint stay where they stand
    z_lp = lumbar_pelvis_height(H, prop, sex, L["lower_trunk"] + L["middle_trunk"])
    drop = L["lower_trunk"] - z_lp      # the omphalion in the lumbar frame (< 0: below the joint)
    seg("lumbar", "pelvis", m["middle_trunk"], (0, 0, drop + (1 - mt["com"]) * L["middle_trunk"]),
        _principal(m["middle_trunk"], mt["r"], L["middle_trunk"]), "lumbar_pelvis", "spherical",
        (0, 0, z_lp), ells=[trunk_ell("abdomen", "middle_trunk", drop)])
    seg("upper_torso", "lumbar", m["upper_trunk"], (0, 0, (1 - ut["com"]) * L["upper_trunk"]),
        _principal(m["upper_trunk"], ut["r"], L["upper_trunk"]), "thorax_lumbar", "spherical",
        (0, 0, drop + L["middle_trunk"]), ells=[thorax := trunk_ell("thorax", "upper_trunk", 0.0)]
        + shoulder_shells(thorax, H, prop))
    _add_sternum(segs, seg, segs[-1], M)
    # neck and head from de Leva's head+neck (vertex -> C7), split at the condyles placed below
    # the tragion (vertex_above_oc)
    hn = t["head_neck"]
    Lhn, mhn = L["head_neck"], m["head_neck"]
    m_neck = prop["neck_fraction_of_head_neck_mass"] * mhn
    m_head = mhn - m_neck
    L_head = vertex_above_oc(H, prop)                  # the condyles below the vertex (Chancey)
    L_neck = Lhn - L_head                              # the condyles above the cervicale
    # the neck link: from C7/T1 (below and ahead of the cervicale) to the condyles at their
    # height, straight above the joint standing; de Leva's neck mass over the link's length
    c7t1 = c7t1_from_cervicale(H, prop, sex)
    L_link = L_neck - c7t1[2]
    a_n, _ = _cross_section(m_neck, L_link, rho)
    I_neck = (m_neck * (3 * a_n ** 2 + L_link ** 2) / 12,) * 2 + (m_neck * a_n ** 2 / 2,)
    seg("neck", "upper_torso", m_neck, (0, 0, L_link / 2), I_neck, "lower_neck", "spherical",
        np.array([0.0, 0.0, L["upper_trunk"]]) + c7t1,
        ells=[EllipsoidSpec("neck_shell", np.array([0, 0, L_link / 2]), np.array([a_n, a_n, L_link / 2]))])
    I_head = _principal(m_head, hn["r"], Lhn) - 0.0  # head+neck radii about the head's own com [D]
    # the head's com: ahead of the condyles as Beier et al. put it from the tragion (head_com_ahead_of_oc);
    # its height where head and neck together keep de Leva's com height, the neck's com at its
    # link's middle (c7t1[2] + L_link / 2 above the cervicale): 72.5 mm above the condyles at
    # 1.753 m, inside Beier et al.'s heads' 53-74 (their mean, 62, does not fit NBDL 12 g with
    # any neck damping: scenarios/validation/HISTORY.md, chancey)
    z_hn = (1 - hn["com"]) * Lhn                       # head+neck com above C7
    z_head = (mhn * z_hn - m_neck * (c7t1[2] + L_link / 2)) / m_head - L_neck  # head com above the OC
    seg("head", "neck", m_head, (head_com_ahead_of_oc(H, prop), 0.0, z_head), I_head, "upper_neck", "spherical", (0, 0, L_link),
        ells=[head_shell(L_head, H, prop)] + ([chin(L_head, H, prop)] if face else []))
    # arms: forearm and hand lumped (ATB lower arm)
    ua, fa, hd = t["upper_arm"], t["forearm"], t["hand"]
    sy, sz = prop["shoulder_half_breadth"] * H, L["upper_trunk"] - prop["shoulder_below_c7"] * H
    for side, sgn in (("left", 1.0), ("right", -1.0)):
        ra = _cross_section(m["upper_arm"], L["upper_arm"], rho)[0]
        seg(f"{side}_upper_arm", "upper_torso", m["upper_arm"], (0, 0, -ua["com"] * L["upper_arm"]),
            _principal(m["upper_arm"], ua["r"], L["upper_arm"]), f"{side}_shoulder", "spherical",
            (0, sgn * sy, sz), ells=[EllipsoidSpec(f"{side}_upper_arm_shell", np.array([0, 0, -L["upper_arm"] / 2]),
                                                   np.array([ra, ra, L["upper_arm"] / 2]))])
        zf, zh = -fa["com"] * L["forearm"], -L["forearm"] - hd["com"] * L["hand"]
        mla = m["forearm"] + m["hand"]
        zc = (m["forearm"] * zf + m["hand"] * zh) / mla
        I_la = (_principal(m["forearm"], fa["r"], L["forearm"]) + _principal(m["hand"], hd["r"], L["hand"])
                + np.array([1, 1, 0]) * (m["forearm"] * (zf - zc) ** 2 + m["hand"] * (zh - zc) ** 2))
        rf = _cross_section(m["forearm"], L["forearm"], rho)[0]
        rh = _cross_section(m["hand"], L["hand"], rho)[0]
        seg(f"{side}_lower_arm", f"{side}_upper_arm", mla, (0, 0, zc), I_la, f"{side}_elbow", "revolute",
            (0, 0, -L["upper_arm"]), axis=(0, -1, 0),
            ells=[EllipsoidSpec(f"{side}_forearm_shell", np.array([0, 0, -L["forearm"] / 2]),
                                np.array([rf, rf, L["forearm"] / 2])),
                  EllipsoidSpec(f"{side}_hand_shell", np.array([0, 0, -L["forearm"] - L["hand"] / 2]),
                                np.array([rh, rh, L["hand"] / 2]))])
    # legs
    th, sh, ft = t["thigh"], t["shank"], t["foot"]
    hy = prop["hip_half_spacing"] * H
    ah, hb = prop["ankle_height"] * H, prop["heel_behind_ankle"]
    rk = sex_value(prop, "knee_radius", sex) * H
    for side, sgn in (("left", 1.0), ("right", -1.0)):
        r1 = _cross_section(m["thigh"], L["thigh"], rho)[0]
        seg(f"{side}_upper_leg", "pelvis", m["thigh"], (0, 0, -th["com"] * L["thigh"]),
            _principal(m["thigh"], th["r"], L["thigh"]), f"{side}_hip", "spherical", (0, sgn * hy, 0),
            ells=[EllipsoidSpec(f"{side}_thigh_shell", np.array([0, 0, -L["thigh"] / 2]),
                                np.array([r1, r1, L["thigh"] / 2])),
                  knee_shell(side, L["thigh"], rk)])
        r2 = _cross_section(m["shank"], L["shank"], rho)[0]
        seg(f"{side}_lower_leg", f"{side}_upper_leg", m["shank"], (0, 0, -sh["com"] * L["shank"]),
            _principal(m["shank"], sh["r"], L["shank"]), f"{side}_knee", "revolute",
            (0, 0, -L["thigh"]), axis=(0, 1, 0),
            ells=[EllipsoidSpec(f"{side}_shank_shell", np.array([0, 0, -L["shank"] / 2]),
                                np.array([r2, r2, L["shank"] / 2]))])
        Lf = L["foot"]
        # the foot's longitudinal axis is x: r_long about x; sagittal/transverse about z and y [D]
        I_f = m["foot"] * (np.array([ft["r"][2], ft["r"][1], ft["r"][0]]) * Lf) ** 2
        wf = _cross_section(m["foot"], Lf, rho)[0]
        seg(f"{side}_foot", f"{side}_lower_leg", m["foot"], ((ft["com"] - hb) * Lf, 0, -ah / 2), I_f,
            f"{side}_ankle", "spherical", (0, 0, -L["shank"]),
            ells=[EllipsoidSpec(f"{side}_foot_shell", np.array([(0.5 - hb) * Lf, 0, -ah / 2]),
                                np.array([Lf / 2, wf, ah / 2]))] + ([heel(side, Lf, ah, hb)] if heels else []))
    if thoracic_spine:
        segs = split_upper_torso(segs, L["upper_trunk"])
    if neck_mid:
        segs = split_neck(segs)
    _add_joint_characteristics(segs, H, M, neck_muscles)
    return segs


def vertex_above_oc(H, prop):
    """m: the vertex's height above the occipital condyles (the head frame's origin), standing:
    ANSUR II's tragion below the vertex and Chancey et al.'s condyles below the meatus, taken for
    the tragion (data/body_proportions.toml, sources there)."""
    return (prop["tragion_below_vertex"] + prop["oc_below_tragion"]) * H


def head_com_ahead_of_oc(H, prop):
    """m: how far the head's centre of gravity stands ahead of the occipital condyles (head
    frame, standing): Beier et al.'s 8 mm ahead of the tragion, the tragion Chancey et al.'s
    18.4 mm ahead of the condyles, at 1.756 m (data/body_proportions.toml, sources there)."""
    return (prop["oc_behind_tragion"] + prop["tragion_behind_head_com"]) * H


def c7t1_from_cervicale(H, prop, sex="male"):
    """(3,) m: the C7/T1 joint centre (the lower neck joint) from the cervicale, upper torso
    frame, standing (data/body_proportions.toml, Reed et al. 1999's rule for ``sex``, sources
    there)."""
    below, ahead = prop["suprasternale_below_c7"] * H, 2.0 * prop["neck_base_radius"] * H
    d = sex_value(prop, "c7t1_fraction", sex) * math.hypot(below, ahead)
    down = math.atan2(below, ahead) - math.radians(sex_value(prop, "c7t1_turn_deg", sex))
    return np.array([d * math.cos(down), 0.0, -d * math.sin(down)])


def l5s1_from_hips(H, prop, sex="male"):
    """(3,) m: the L5/S1 joint centre in the pelvis frame (origin the hips' midpoint), standing:
    Reed et al. 1999's place relative to the hips and the ASIS (data/body_proportions.toml,
    sources there), carried onto the human's own hip -> ASIS vector by a turn and a scale in the
    sagittal plane [D]. The human has no joint there (its lumbar-pelvis joint stands at L3/L4,
    two levels above it: lumbar_pelvis_height); the point says where its vertebral column meets
    the pelvis."""
    reed_asis = -np.asarray(sex_value(prop, "hip_from_asis_reed", sex), float)  # hip -> ASIS, Reed
    reed_l5s1 = np.asarray(sex_value(prop, "l5s1_from_asis_reed", sex), float) + reed_asis  # hip -> L5/S1
    own = H * np.array([prop["asis_ahead_of_hips"], prop["asis_above_hips"]])
    turn = math.atan2(own[0], own[1]) - math.atan2(reed_asis[0], reed_asis[1])  # forward, about y
    scale = math.hypot(*own) / math.hypot(*reed_asis)
    c, s = math.cos(turn), math.sin(turn)
    x, z = reed_l5s1
    return scale * np.array([c * x + s * z, 0.0, -s * x + c * z])


def lumbar_pelvis_height(H, prop, sex, z_thorax_lumbar):
    """m: the lumbar-pelvis joint's height above the hips (pelvis frame, on the trunk's axis),
    standing. The joint is the L3/L4 disc (the vertebrae each trunk segment carries:
    occupant/human/validation.py); it stands PELVIS_LEVELS (L4, L5: each a body and its disc
    below) above L5/S1 (l5s1_from_hips: Reed et al. 1999's rule for ``sex`` [C]), each level as
    tall as each of the lumbar segment's LUMBAR_BODIES above it (T10-L3) up to the thorax-lumbar
    joint (T9/T10, ``z_thorax_lumbar`` m above the hips, at de Leva's xiphion): the span from
    L5/S1 to T9/T10 cut into equal levels [E: the bodies taken as equally tall, as the readings
    of validation.LUMBAR_FRACTIONS]. Scales with stature, as both ends do. Before (to stop 44)
    at de Leva's omphalion, 41 mm low for the 50th male, 15 mm for the 5th female
    (scenarios/validation/HISTORY.md Stop 45, lumbarheight)."""
    from occupant.human.validation import LUMBAR_BODIES, PELVIS_LEVELS

    base = l5s1_from_hips(H, prop, sex)[2]
    return base + PELVIS_LEVELS * (z_thorax_lumbar - base) / (PELVIS_LEVELS + LUMBAR_BODIES)


def thorax_ahead_of_axis(thorax, H, prop, sex="male"):
    """x (m, upper torso frame) where the source puts the ``thorax`` ellipsoid's centre (its
    EllipsoidSpec as built, on the trunk's axis): at T8's level (validation.T8_FRACTION of the
    way up to C7/T1) its back ``back_behind_t8_body`` behind T8's vertebral body, which stands
    ``t8_body_ahead_of_axis`` ahead of the axis (data/body_proportions.toml, sources there), its
    size (de Leva's volume) kept. A check, not applied: the human's thorax stays centred on the
    axis (placed there, GS1 lost figures: scenarios/validation/HISTORY.md Stop 42, chestplace); the
    shoulder shells and the sternum stand on the thorax wherever it is."""
    from occupant.human.validation import T8_FRACTION

    z = T8_FRACTION * (2.0 * thorax.semi_axes[2] + c7t1_from_cervicale(H, prop, sex)[2]) - thorax.center[2]
    back = thorax.semi_axes[0] * math.sqrt(1.0 - (z / thorax.semi_axes[2]) ** 2)
    return H * (prop["t8_body_ahead_of_axis"] - prop["back_behind_t8_body"]) + back


def shoulder_shells(thorax, H, prop):
    """The shoulders' tops over the thorax ellipsoid (whose top is C7), the ellipsoids
    ``left_shoulder_shell`` and ``right_shoulder_shell`` on the upper torso, from the survey
    ratios of data/body_proportions.toml: each spans the clavicle, from the midline (where the
    clavicles meet the sternum) to the acromion (y), centred at mid-clavicle at the acromion's
    height below C7 (z); its section in the frontal plane passes through the neck's base surface
    at C7's height (the saddle between neck and shoulder; vertical semi-axis); its depth is the
    thorax's at that height in the midplane (the clavicle lies on the front of the chest)."""
    ya = prop["acromion_half_breadth"] * H
    dz = prop["acromion_below_c7"] * H
    b = 0.5 * ya
    c = dz / math.sqrt(1.0 - ((prop["neck_base_radius"] * H - b) / b) ** 2)
    z0 = thorax.center[2] + thorax.semi_axes[2] - dz
    a = thorax.semi_axes[0] * math.sqrt(1.0 - ((z0 - thorax.center[2]) / thorax.semi_axes[2]) ** 2)
    return [EllipsoidSpec(f"{side}_shoulder_shell", np.array([thorax.center[0], sgn * b, z0]),
                          np.array([a, b, c])) for side, sgn in (("left", 1.0), ("right", -1.0))]


def heel(side, Lf, ah, hb):
    """The ``<side>_heel`` on the foot (foot frame: origin the ankle, x along the foot, z up),
    a sphere of the foot shell's own half-height ``ah`` / 2 (the ankle's height, ANSUR II) in the
    corner the foot shell rounds off: its back at the heel's back (``hb`` ``Lf`` behind the
    ankle), its bottom on the sole's plane, the foot shell's bottom [E: no source read here gives
    the heel's radius; 36 mm at the 50th male's 1.753 m]. The foot shell alone is rounded off
    where the heel's back meets the sole; the heel fills that corner, where a seated occupant's
    heel rests on the floor pan (the scenarios' floor and toe-pan pairs name it, as the Hybrid
    III's own). It scales with stature as the ankle's height and the foot's length."""
    r = ah / 2
    return EllipsoidSpec(f"{side}_heel", np.array([-hb * Lf + r, 0.0, -ah + r]), np.array([r, r, r]))


def head_shell(L_head, H, prop):
    """The head's contact surface ``head_shell``, the braincase from the survey (head frame:
    origin the occipital condyles, the vertex ``L_head`` above; data/body_proportions.toml,
    sources there): head length deep, head breadth wide, from the vertex down to its widest
    section at the eye's level, its back head_back_behind_oc behind the condyles. The head's
    centre of gravity is placed from the tragion (head_com_ahead_of_oc), not from the shell. The
    face on or off alike."""
    c = prop["eye_below_vertex"] * H
    x = (prop["head_length"] / 2 - prop["head_back_behind_oc"]) * H
    return EllipsoidSpec("head_shell", np.array([x, 0.0, L_head - c]),
                         np.array([prop["head_length"] * H / 2, prop["head_breadth"] * H / 2, c]))


def chin(L_head, H, prop):
    """The face's ``chin`` (build(face=True)), in the head frame as head_shell: its bottom at the
    survey's menton, its place ahead of the condyles and its size the Hybrid III 50M's scaled."""
    D = H * np.array(prop["chin_semi_axes"], float)
    return EllipsoidSpec("chin", np.array([prop["chin_ahead_of_oc"] * H, 0.0,
                                           L_head - prop["menton_below_vertex"] * H + D[2]]), D)


def sacral_canal(H, prop):
    """(3,) m: the sacral canal's midline point in the pelvis frame (origin the hips' midpoint),
    standing, at stature ``H`` (data/body_proportions.toml sacral_canal_from_hips, sources there):
    the point the SAFER HBM's Gold Standard 1 deck reads as the PMHS's pelvis target."""
    x, z = prop["sacral_canal_from_hips"]
    return H * np.array([x, 0.0, z])


def asis_flesh(H, prop):
    """The lap belt's bearing surface, ``asis_flesh`` on the pelvis (pelvis frame,
    data/body_proportions.toml, sources there): the tissue round the anterior superior iliac
    spines, an ellipsoid centred midway between them, its lateral semi-axis half the seated hip
    breadth, its sagittal section at each ASIS a circle of the belt's distance from the ASIS."""
    y, b = prop["asis_half_breadth"] * H, prop["hip_half_breadth_sitting"] * H
    r = prop["lap_belt_from_asis"] / math.sqrt(1.0 - (y / b) ** 2)
    return EllipsoidSpec("asis_flesh", H * np.array([prop["asis_ahead_of_hips"], 0.0,
                                                     prop["asis_above_hips"]]), np.array([r, b, r]))


def knee_shell(side, L_thigh, radius):
    """The knee's contact surface ``knee_shell`` on the upper leg (its frame): a sphere of
    ``radius`` (data/body_proportions.toml ``knee_radius``: the girth just above the patella,
    ANSUR II) on the knee joint centre, ``L_thigh`` below the hip. The thigh and shank shells
    (de Leva's volumes) are thin there: without it a knee struck below the bumper's top met
    nothing (scenarios/HISTORY.md, branch pedlower). It rides the femur as the Hybrid III's
    knee pad does (occupant.scenario.human_swap maps the pad onto it); a sphere on the knee's
    axis is the same surface whichever leg segment carries it, whatever the flexion."""
    return EllipsoidSpec(f"{side}_knee_shell", np.array([0.0, 0.0, -L_thigh]), np.full(3, radius))


def thorax_table():
    return read_data("thorax.toml")


def _add_sternum(segs, seg, torso, mass):
    """The chest compliance (data/thorax.toml, sources there): a sternum segment on a prismatic
    ``chest`` joint along the upper torso's x axis, with a ``sternum_pad`` contact ellipsoid, as
    the dummies have; its mass is taken out of the upper torso at the sternum's place, so the
    body's mass and centre of mass stay (the upper torso's inertia is left as de Leva gives it).
    Forces scale with lambda^2, deflections with lambda, lambda = (m / m_ref)^(1/3)."""
    tab = thorax_table()
    st, ch = tab["sternum"], tab["chest"]
    lam = (mass / tab["reference"]["mass_kg"]) ** (1.0 / 3.0)
    thorax = next(e for e in torso.ellipsoids if e.name == "thorax")
    z = st["height_fraction"] * 2.0 * thorax.semi_axes[2]
    skin = st["skin_thickness"] * lam
    x = thorax.center[0] + thorax.semi_axes[0] - skin
    where = np.array([x, 0.0, z])
    m_s = st["mass"] * lam ** 3
    m_t = torso.mass - m_s
    torso.com = (torso.mass * torso.com - m_s * where) / m_t
    torso.mass = m_t
    pad = np.array(st["pad_semi_axes"]) * lam
    seg("sternum", "upper_torso", m_s, (0.0, 0.0, 0.0), (2.0 / 5.0 * m_s * pad[1] ** 2,) * 3,
        "chest", "prismatic", where, axis=(1.0, 0.0, 0.0),
        ells=[EllipsoidSpec("sternum_pad", np.array([skin + PAD_PROUD * lam - pad[0], 0.0, 0.0]), pad)])
    table = np.array(ch["table"], float) * [lam, lam ** 2]
    segs[-1].resistances = [Resistance(
        dof=0, table=table, damping=ch["damping"] * lam ** 2, absorption=ch["absorption"],
        lower=ch["lower"] * lam, upper=ch["upper"] * lam,
        stop_stiffness=ch["stop_stiffness"], stop_damping=ch["stop_damping"])]


# the rotation-vector components a right joint has mirrored (of the left side's tables: the
# sign changes, so the range's ends swap): lateral (x) and axial (z)
MIRRORED = ("x", "z")


def human_range(joint_name, dof, kind, table=None):
    """(lower, upper) rad of a joint dof from the human range-of-motion table
    (data/joint_rom.toml, left side, sources there); right joints are the mirror image (x and z
    components change sign and swap ends). ``table``: the section to read in place of the
    joint's own (a neck joint of three: neck_mid.RANGE_TABLES)."""
    side, _, base = joint_name.partition("_")
    if side not in ("left", "right"):
        base = joint_name
    base = table or base
    key = "flexion" if kind == "revolute" else "xyz"[dof]
    lo, hi = read_data("joint_rom.toml")[base][key]
    if side == "right" and key in MIRRORED:
        lo, hi = -hi, -lo
    return math.radians(lo), math.radians(hi)


def _coordinate(kind, dof):
    """A joint coordinate's key: "x", "y", "z" of a spherical joint, "flexion" of a hinge (the
    suffix of its joint resistance's name, assemble.py; joint_rom.toml's keys)."""
    return "flexion" if kind == "revolute" else "xyz"[dof]


def joint_ranges(segs):
    """{(joint name, coordinate key): (lower, upper) rad}: the range of motion of every rotating
    joint coordinate of these segments (human_range; a neck of three joints reads its own
    sections, neck_mid.RANGE_TABLES)."""
    return {(s.joint_name, _coordinate(s.joint_kind, dof)):
            human_range(s.joint_name, dof, s.joint_kind, range_table(segs, s.joint_name))
            for s in segs if s.joint_kind in ("spherical", "revolute")
            for dof in range(3 if s.joint_kind == "spherical" else 1)}


def _add_joint_characteristics(segs, H, M, neck_muscles):
    """Human passive resistance of every joint coordinate (passive_joints, sources in
    data/joint_passive.toml), moments and damping x (m H)/(m H)_reference [E] (GEBOD, whose
    bodies these follow, scales none: one set of joint constants for every subject,
    data/joint_passive.toml "Sizes"), inside the human ranges of motion of data/joint_rom.toml;
    beyond them the Hybrid III 50M's numerical stops (sized to hold the distal mass under 250 g
    within 5 deg, dummies/hybrid3_50m.toml) x the same factor, except where the human's own
    resistance goes on past the range: the neck's ligamentous branch (no stop) and a measured
    side (the trunk's lateral bending and extension: the stop at twice the range end,
    passive_joints.MEASURED_STOP). Without neck muscles (``neck_muscles`` False: a PMHS) the
    neck takes the passive tissue's damping (passive_joints.human_resistance)."""
    _, dummy = load_description(stops_dummy())
    stops = {(s.joint_name, r.dof): (r.stop_stiffness, r.stop_damping)
             for s in dummy for r in s.resistances}
    # the thoracic joint (thoracic_spine.py) takes the Hybrid III's thorax-lumbar stops [E]
    stops.update({("thoracic", d): stops[("thorax_lumbar", d)] for d in range(3)})
    ref, _ = passive_table()
    k = (M * H) / (ref["mass_kg"] * ref["stature_m"])
    ranges = joint_ranges(segs)
    for s in segs:
        if s.joint_kind not in ("spherical", "revolute"):
            continue
        out = []
        table = range_table(segs, s.joint_name)
        for dof in range(3 if s.joint_kind == "spherical" else 1):
            lo, hi = ranges[s.joint_name, _coordinate(s.joint_kind, dof)]
            stop = stops.get((s.joint_name, dof))
            if stop is not None:
                stop = (stop[0] * k, stop[1] * k)
            out.append(human_resistance(s.joint_name, dof, s.joint_kind, lo, hi, k, stop,
                                        neck_muscles, table))
        s.resistances = out


def neck_circumference(stature, prop, sex="male"):
    """m, the human's neck circumference at its base: body_proportions.toml neck_base_radius, its
    sex's own fraction of stature (ANSUR II's men's and women's means; the size the neck's failure
    levels scale with, joint_failure.read_levels). The woman's geometry (c7t1_from_cervicale,
    shoulder_shells) keeps the men's ratio, as the file builds her elsewhere."""
    return 2.0 * math.pi * sex_value(prop, "neck_base_radius", sex) * stature


def build(stature=None, mass=None, sex="male", percentile=None, name=None,
          neck_activation=DEFAULT_ACTIVATION, pulse_start=0.0, thoracic_spine=False, neck_mid=False,
          face=False, heels=False):
    """Compiled runtime Model of a human of ``stature`` (m), ``mass`` (kg) and ``sex`` ("male",
    "female"); ``percentile`` (5, 50, 95 where tabulated) fills stature and mass that are not
    given. Same segment and joint names as the dummies; the Assembly is ``model.source``.
    ``neck_activation``: the neck muscles' activation, "relaxed", "braced", "reflex" (relaxed,
    then a reflex from ``pulse_start`` (s) plus the reflex delay) or "posture" (the default: a
    closed-loop controller holding the head's pitch until ``pulse_start``, then the reflex's),
    or None for no muscles
    (neck_muscles.py). ``thoracic_spine``: a flexible thoracic spine (thoracic_spine.py; off by
    default: one rigid upper torso); ``neck_mid``: a neck of three joints (neck_mid.py; off by
    default: two); ``face``: a chin on the head (builder.chin; off by default); ``heels``: a
    heel on each foot (builder.heel; off by default: GS1 was validated without them,
    scenarios/validation/HISTORY.md, humanswap)."""
    stature, mass, prop = _check_inputs(stature, mass, sex, percentile)
    segs = build_segments(stature, mass, sex, prop, neck_muscles=neck_activation is not None,
                          thoracic_spine=thoracic_spine, neck_mid=neck_mid, face=face, heels=heels)
    asm = assemble(name or f"human_{sex}_{stature:.3f}m_{mass:.1f}kg", segs)
    neck = next(s for s in segs if s.joint_name == "lower_neck")
    asm.add(Marker(CERVICALE, neck.parent, tuple(neck.location - c7t1_from_cervicale(stature, prop, sex))))
    if neck_activation is not None:
        add_neck_muscles(asm, segs, neck_activation, pulse_start)
    asm.header = {"kind": "human", "name": asm.name, "total_mass": mass, "stature": stature,
                  "sex": sex}
    model = asm.compile()
    # its joints' failure moments past their range ends (joint_failure.py: a predicted injury),
    # the neck's scaled to its size (data/joint_failure.toml [size.neck])
    reference = prop["percentile"]["male"]["50"][0]
    asm.joint_failure_levels = read_levels(
        model.joint_resistance_names, joint_ranges(segs),
        {"neck": neck_circumference(stature, prop, sex) / neck_circumference(reference, prop)})
    return model
