"""Parametric humans (issue 4 section 3): mass closure, comparison with the Hybrid III 50M, the
extremes of the adult range, children, and impossible inputs."""
import numpy as np
import pytest

from occupant.dynamics import body_com_positions, forward_dynamics, mass_matrix
from occupant.human import HumanParameterError, build, load_dummy
from occupant.human.builder import segment_table


def _by_region(model):
    m = {n: model.body_mass[model.body(n)] for n in model.body_names}
    return {"head": m["head"], "neck": m["neck"],
            "torso": m["pelvis"] + m["lumbar"] + m["upper_torso"],
            "upper_arm": m["left_upper_arm"], "lower_arm": m["left_lower_arm"],
            "leg": m["left_upper_leg"] + m["left_lower_leg"] + m["left_foot"],
            "upper_arm+lower_arm": m["left_upper_arm"] + m["left_lower_arm"]}


@pytest.mark.parametrize("stature, mass, sex", [(1.753, 78.2, "male"), (1.501, 49.0, "female"),
                                                (1.45, 40.0, "female"), (2.00, 140.0, "male"),
                                                (1.45, 140.0, "male"), (2.00, 50.0, "female"),
                                                (1.45, 40.0, "male")])
def test_identity_total_mass_and_valid_model(stature, mass, sex):
    model = build(stature=stature, mass=mass, sex=sex)
    assert abs(model.total_mass - mass) <= 0.005 * mass
    for body in ("head", "neck", "pelvis", "left_lower_arm", "right_foot"):
        model.body(body)
    data = model.make_data()
    rng = np.random.default_rng(1)
    q = model.random_configuration(rng)
    v, tau = rng.normal(size=model.nv), rng.normal(size=model.nv)
    D = mass_matrix(model, data, q)
    assert np.linalg.eigvalsh(D).min() > 0
    assert np.allclose(forward_dynamics(model, data, q, v, tau),
                       forward_dynamics(model, data, q, v, tau, method="cholesky"), atol=1e-8)


def test_analytic_scaling_with_stature_and_mass():
    """Same proportions: lengths scale with stature, masses with mass, inertias with m L^2."""
    a = build(stature=1.6, mass=60.0, sex="male")
    b = build(stature=1.6 * 1.1, mass=60.0 * 1.3, sex="male")
    i, j = a.body("left_upper_leg"), b.body("left_upper_leg")
    assert b.body_mass[j] == pytest.approx(1.3 * a.body_mass[i], rel=1e-12)
    assert np.allclose(b.body_com[j], 1.1 * a.body_com[i], rtol=1e-12)
    assert np.allclose(b.body_inertia[j], 1.3 * 1.1 ** 2 * a.body_inertia[i], rtol=1e-12)


def test_reference_50th_male_vs_hybrid3_50m():
    """The generated 1.753 m / 78.2 kg male against the Hybrid III 50M file, region by region.
    Measured (see report): head -11 %, neck -11 %, upper arm +5 %, lower arm + hand -25 %,
    torso (pelvis + lumbar + upper torso) -16 %, whole leg +35 %. The leg and torso differences are
    segmentation, not error: de Leva's thigh starts at the hip joint and includes the buttock and
    hip flesh that the dummy carries in its pelvis. Bounds: 15 % where the segment definitions
    agree (head, neck, upper arm), 40 % for the rest."""
    human, dummy = _by_region(build(stature=1.753, mass=78.2, sex="male")), _by_region(load_dummy("hybrid3_50m"))
    rel = {k: (human[k] - dummy[k]) / dummy[k] for k in human}
    for k in ("head", "neck", "upper_arm"):
        assert abs(rel[k]) < 0.15, (k, rel[k])
    for k in ("torso", "lower_arm", "leg", "upper_arm+lower_arm"):
        assert abs(rel[k]) < 0.40, (k, rel[k])


@pytest.mark.parametrize("sex, dummy", [("male", "hybrid3_50m"), ("female", "hybrid3_05f")])
def test_reference_whole_body_com_vs_dummy(sex, dummy):
    """Whole-body centre of mass relative to the H-point (reference posture): within 0.08 m of the
    dummy's (measured 0.066 m for the male, 0.055 m for the female: the human stands with an
    erect spine, the dummy keeps its seated slouch)."""
    d = load_dummy(dummy)
    h = build(stature=d.source.header["stature"], mass=d.source.header["total_mass"], sex=sex)
    com = []
    for m in (h, d):
        c = body_com_positions(m, m.make_data(), m.neutral_configuration())
        com.append(m.body_mass @ c / m.total_mass)
    assert np.linalg.norm(com[0] - com[1]) < 0.08


def test_reference_child_gives_valid_model():
    """A 1.15 m, 21 kg child (HIII 6YO size class): valid, but with adult proportions (de Leva
    has no child tables), which is stated in the report."""
    m = build(stature=1.15, mass=21.0, sex="female")
    assert abs(m.total_mass - 21.0) < 0.005 * 21.0


def test_reference_percentile_anchor():
    m = build(percentile=50, sex="male")
    assert m.total_mass == pytest.approx(78.2, rel=5e-3)


@pytest.mark.parametrize("kwargs, match", [
    (dict(stature=-1.7, mass=70.0), r"build: stature: -1.7 m is not a human stature \(accepted: 0.7-2.3 m\)"),
    (dict(stature=1.75, mass=-3.0), r"build: mass: -3.0 kg is not a human body mass"),
    (dict(stature=1.50, mass=240.0), r"BMI of 106.7 kg/m\^2, outside any population"),
    (dict(stature=2.20, mass=45.0), r"BMI of 9.3"),
    (dict(stature=1.75, mass=70.0, sex="robot"), r"build: sex: unknown value 'robot' \(accepted: male, female\)"),
    (dict(percentile=37, sex="male"), r"percentile: 37 is not tabulated for male"),
    (dict(stature=float("nan"), mass=70.0), r"expected a finite number"),
])
def test_reference_impossible_inputs(kwargs, match):
    with pytest.raises(HumanParameterError, match=match):
        build(**kwargs)


@pytest.mark.parametrize("stature, mass", [(1.753, 78.2), (1.88, 101.2)])
def test_reference_shoulder_shells_from_the_survey(stature, mass):
    """Each shoulder's top (occupant.human.builder.shoulder_shells) passes, in the frontal plane
    through its centre, through the acromion (0.1184 H from the midline, 0.0436 H below C7:
    ANSUR II's biacromial breadth and cervicale less acromial height) and through the neck's
    base surface at C7's height (0.0394 H: its base circumference / 2 pi), and stands out of
    the thorax ellipsoid: its top at mid-clavicle above the thorax's dome there, the acromion
    outside the thorax."""
    asm = build(stature=stature, mass=mass, sex="male").source
    c7 = asm.markers["cervicale"].position[2]
    thorax = asm.geometries["thorax"]
    tc, ts = np.asarray(asm.markers[thorax.marker].position), np.asarray(thorax.semi_axes)
    for side, sgn in (("left", 1.0), ("right", -1.0)):
        g = asm.geometries[f"{side}_shoulder_shell"]
        m = asm.markers[g.marker]
        assert m.part == "upper_torso"
        c, s = np.asarray(m.position), np.asarray(g.semi_axes)

        def level(y, z):
            return ((y - c[1]) / s[1]) ** 2 + ((z - c[2]) / s[2]) ** 2

        assert level(sgn * 0.1184 * stature, c7 - 0.0436 * stature) == pytest.approx(1.0, abs=1e-3)
        assert level(sgn * 0.0394 * stature, c7) == pytest.approx(1.0, abs=1e-3)
        dome = tc[2] + ts[2] * np.sqrt(1.0 - (c[1] / ts[1]) ** 2)      # thorax top at mid-clavicle
        assert c[2] + s[2] > dome + 0.01
        acromion = np.array([0.0, sgn * 0.1184 * stature, c7 - 0.0436 * stature]) - tc
        assert np.linalg.norm(acromion / ts) > 1.0


# The right hip bone's lowest vertex with the pelvis upright, reclined 28 and 45 deg, relative to
# the hip joint centre (x forward, z up, mm), and the hip joint centre's half spacing (mm), on two
# published meshes (opensim-org/opensim-models commit 20a888b9): OpenSim gait2392 (Delp et al.
# 1990, Geometry/r_pelvis.vtp) and Rajagopal et al. 2016 (Models/Rajagopal/Geometry/r_pelvis.vtp)
ISCHIUM_UNDERSIDE_MM = {"gait2392": ([(-21.4, -54.8), (-43.6, -49.0), (-65.0, -30.8)], 83.5),
                        "rajagopal2016": ([(-8.1, -55.3), (-32.7, -52.3), (-57.2, -37.2)], 77.26)}


def _circle_centre(p):
    """Centre (x, z) of the circle through three points."""
    (x1, z1), (x2, z2), (x3, z3) = p
    A = 2.0 * np.array([[x2 - x1, z2 - z1], [x3 - x1, z3 - z1]])
    b = np.array([x2 ** 2 - x1 ** 2 + z2 ** 2 - z1 ** 2, x3 ** 2 - x1 ** 2 + z3 ** 2 - z1 ** 2])
    return np.linalg.solve(A, b)


def _ellipsoid(asm, name, part):
    """(centre, semi-axes) m of the body's ellipsoid ``name`` in the frame of ``part``, which
    carries it."""
    g = asm.geometries[name]
    assert asm.markers[g.marker].part == part
    return np.asarray(asm.markers[g.marker].position), np.asarray(g.semi_axes)


def test_reference_buttock_concentric_with_the_ischium():
    """The buttock ellipsoid's sagittal section is a circle about the mean of the two meshes'
    ischial arc centres (scaled by the hip spacing; 16 mm behind and 5 mm above the hips at
    1.753 m), reaching 0.0616 H below the H-point (the Hybrid III 50M's pelvis flesh,
    body_proportions.toml)."""
    stature = 1.753
    asm = build(stature=stature, mass=78.2, sex="male").source
    c, s = _ellipsoid(asm, "buttock", "pelvis")
    hip_half_spacing = abs(asm.joints["left_hip"].placement.position[1])
    centres = [_circle_centre(p) * hip_half_spacing / half for p, half in ISCHIUM_UNDERSIDE_MM.values()]
    assert c[[0, 2]] == pytest.approx(np.mean(centres, axis=0), abs=0.5e-3)
    assert s[0] == s[2]
    assert c[2] - s[2] == pytest.approx(-0.0616 * stature, abs=1e-4)


# The right ASIS and hip joint centre of the same two meshes, mm in their pelvis frames (x forward,
# y up, z right; opensim-models commit 20a888b9): the r_pelvis.vtp vertex at x = y = 0, the
# frame's origin level, and the hip joint's location in the model (body_proportions.toml)
ASIS_AND_HJC_MM = {"gait2392": ((0.0, 0.0, 118.7), (-70.7, -66.1, 83.5)),
                   "rajagopal2016": ((0.0, 0.0, 120.8), (-56.3, -78.5, 77.26))}


def test_reference_asis_flesh_at_the_belts_distance_from_the_asis():
    """The lap belt's surface over the ASIS (builder.asis_flesh): centred midway between the two
    meshes' ASIS (scaled by the hip spacing), its sagittal section at each ASIS a circle of the
    UMTRI belt's distance from it (hypot(33, 31) mm), as wide as the seated hips (ANSUR II)."""
    stature = 1.753
    asm = build(stature=stature, mass=78.2, sex="male").source
    c, s = _ellipsoid(asm, "asis_flesh", "pelvis")
    hip = abs(asm.joints["left_hip"].placement.position[1])
    asis = np.mean([np.subtract(a, h)[:2] * hip / h[2] for a, h in ASIS_AND_HJC_MM.values()],
                   axis=0)   # (ahead, above) the hips
    half = np.mean([a[2] * hip / h[2] for a, h in ASIS_AND_HJC_MM.values()])
    assert c == pytest.approx([asis[0], 0.0, asis[1]], abs=0.5e-3)
    assert s[1] == pytest.approx(0.2161 / 2 * stature, abs=1e-4)
    r = s[0] * np.sqrt(1.0 - (half / s[1]) ** 2)   # the sagittal section's radius at the ASIS
    assert s[0] == s[2]
    assert 1e3 * r == pytest.approx(np.hypot(33.0, 31.0), abs=0.5)


# The sacrum's midline section (sacrum.vtp cut at its plane of symmetry) on the same two meshes,
# mm in their pelvis frames (x forward, y up; opensim-models commit 20a888b9): its highest and
# lowest points, the dorsal surface's x at its mid-height, the hip joint centre (x, y) and half
# spacing
SACRUM_MIDLINE_MM = {"gait2392": ((74.3, -36.2), -168.8, (-70.7, -66.1), 83.5),
                     "rajagopal2016": ((59.9, -62.6), -150.8, (-56.3, -78.5), 77.26)}
# the canal's centre inside the dorsal surface at 1.753 m (body_proportions.toml): the dorsal wall,
# 11.5 mm along the foramen's 28.2 deg axis, and half the canal's 10.1 mm
SACRAL_CANAL_INSET = 1e-3 * (11.5 * np.cos(np.radians(28.2)) + 0.5 * 10.1)


def test_reference_sacral_canal_inside_the_sacrums_back():
    """builder.sacral_canal: at the sacrum's mid-height on its midline section, 15.1 mm inside its
    dorsal surface, relative to the hips and scaled by the hip spacing, the mean of the two
    meshes (98.4 mm behind and 82.8 mm above the hips at 1.753 m, less the inset: 83.3 mm)."""
    from occupant.human.builder import proportions, sacral_canal
    stature = 1.753
    asm = build(stature=stature, mass=78.2, sex="male").source
    hip = abs(asm.joints["left_hip"].placement.position[1])
    back = np.mean([[(x - h[0]) * hip / half, (0.5 * (top + low) - h[1]) * hip / half]
                    for (top, low), x, h, half in SACRUM_MIDLINE_MM.values()], axis=0)   # m
    p = sacral_canal(stature, proportions())
    assert p[1] == 0.0
    assert p[[0, 2]] == pytest.approx(back + [SACRAL_CANAL_INSET, 0.0], abs=0.5e-3)


# Reed, Manary & Schneider 1999's C7/T1 rule [C: as Dumas & Wojtusch 2018 and kineticstoolkit give
# it; body_proportions.toml]: the fraction of C7 -> suprasternale and the turn headward, per sex
REED_C7T1 = {"male": (0.55, 8.0), "female": (0.53, 14.0)}


@pytest.mark.parametrize("stature, mass, sex", [(1.753, 78.2, "male"), (1.501, 49.0, "female"),
                                                (1.65, 60.0, "female")])
def test_analytic_lower_neck_joint_at_reeds_c7t1(stature, mass, sex):
    """The lower neck joint (C7/T1) lies 0.55 of the way from the cervicale to the
    suprasternale, turned 8 deg headward, for a man, 0.53 of it turned 14 deg for a woman (Reed,
    Manary & Schneider 1999, each sex's own rule; the female took the men's until branch
    fivefc7), the suprasternale 0.0448 H below and two neck base radii (0.0788 H) ahead of the
    cervicale for both (body_proportions.toml, ANSUR II men's ratios): 81.2 mm ahead, 32.2 mm
    below at 1.753 m (man); 69.4 mm ahead, 19.4 mm below at 1.501 m (woman; 69.6 / 27.6 with the
    men's rule); the condyles stand straight above it, as far below the vertex as the tragion
    and Chancey et al.'s 31.0 mm (at 1.756 m) below it put them (_vertex_above_oc; 0.45 of de
    Leva's head+neck above the cervicale before branch chancey)."""
    fraction, turn_deg = REED_C7T1[sex]
    asm = build(stature=stature, mass=mass, sex=sex).source
    c7 = np.asarray(asm.markers["cervicale"].position)
    joint = np.asarray(asm.joints["lower_neck"].placement.position) - c7
    sup = np.array([0.0788, 0.0, -0.0448]) * stature
    assert np.linalg.norm(joint) == pytest.approx(fraction * np.linalg.norm(sup), rel=1e-9)
    turn = np.degrees(np.arctan2(-sup[2], sup[0]) - np.arctan2(-joint[2], joint[0]))
    assert turn == pytest.approx(turn_deg, abs=1e-9)
    if stature == 1.753:
        assert 1e3 * joint[[0, 2]] == pytest.approx([81.2, -32.2], abs=0.05)
    if stature == 1.501:
        assert 1e3 * joint[[0, 2]] == pytest.approx([69.4, -19.4], abs=0.05)
    oc = np.asarray(asm.joints["upper_neck"].placement.position)
    assert oc[:2] == pytest.approx([0.0, 0.0], abs=1e-12)
    head_neck = segment_table(sex)["head_neck"]["length"] * stature
    assert joint[2] + oc[2] == pytest.approx(head_neck - _vertex_above_oc(stature, sex), rel=1e-9)


# Reed, Manary & Schneider 1999's pelvis rule [C: kineticstoolkit's transcription;
# body_proportions.toml]: L5/S1 and the hips from the ASIS midpoint, (x, z) of the ASIS breadth
REED_PELVIS = {"male": {"l5s1": (-0.264, 0.126), "hip": (-0.208, -0.278)},
               "female": {"l5s1": (-0.289, 0.172), "hip": (-0.197, -0.270)}}


@pytest.mark.parametrize("stature, sex", [(1.753, "male"), (1.52, "male"), (1.88, "male"),
                                          (1.501, "female"), (1.65, "female")])
def test_analytic_spine_base_at_reeds_l5s1(stature, sex):
    """The spine's base (builder.l5s1_from_hips): Reed, Manary & Schneider 1999 put a man's L5/S1
    0.056 of the ASIS breadth behind and 0.404 above the hips, the ASIS midpoint 0.208 ahead and
    0.278 above them: the hips -> L5/S1 vector 1.175 times as long as the hips -> ASIS one and
    turned 44.7 deg back from it; a woman's L5/S1 0.092 behind and 0.442 above her hips, the ASIS
    0.197 ahead and 0.270 above: 1.351 times as long, 47.9 deg back (each sex's own rule since
    branch fivefc7; body_proportions.toml). Carried onto the human's own ASIS (65 mm ahead, 74 mm
    above the hips at 1.753 m) it keeps both; a man's lies on the trunk's axis, the line the
    builder puts the trunk joints on (x = 0): 7.3 mm behind it and 115.4 mm above the hips at
    1.753 m (branch spinedepth; scenarios/validation/HISTORY.md Stop 42); a woman's 13.4 mm behind
    and 113.0 mm above at 1.501 m (6.2 / 98.8 with the men's rule)."""
    from occupant.human.builder import l5s1_from_hips, proportions

    prop = proportions()
    l5s1 = l5s1_from_hips(stature, prop, sex)
    asis = stature * np.array([prop["asis_ahead_of_hips"], 0.0, prop["asis_above_hips"]])
    reed = REED_PELVIS[sex]
    reed_asis = -np.array(reed["hip"])
    reed_l5s1 = np.array(reed["l5s1"]) + reed_asis
    assert np.linalg.norm(l5s1) / np.linalg.norm(asis) == pytest.approx(
        np.linalg.norm(reed_l5s1) / np.linalg.norm(reed_asis), rel=1e-9)
    angle = lambda u, v: np.degrees(np.arccos(np.dot(u, v) / np.linalg.norm(u) / np.linalg.norm(v)))
    assert angle(l5s1[[0, 2]], asis[[0, 2]]) == pytest.approx(angle(reed_l5s1, reed_asis), abs=1e-9)
    assert angle(reed_l5s1, reed_asis) == pytest.approx({"male": 44.7, "female": 47.9}[sex], abs=0.05)
    assert l5s1[1] == 0.0 and -0.01 * stature < l5s1[0] < 0.0
    if stature == 1.753:
        assert 1e3 * l5s1[[0, 2]] == pytest.approx([-7.3, 115.4], abs=0.05)
    if stature == 1.501:
        assert 1e3 * l5s1[[0, 2]] == pytest.approx([-13.4, 113.0], abs=0.05)


@pytest.mark.parametrize("percentile, sex, z_joint", [(50, "male", 177.4), (95, "male", None),
                                                     (5, "female", 168.4)])
def test_analytic_lumbar_pelvis_joint_two_levels_above_l5s1(percentile, sex, z_joint):
    """The lumbar-pelvis joint is the L3/L4 disc (validation.py): it stands two vertebral levels
    (L4 and L5, each a body and its disc) above Reed et al. 1999's L5/S1 (each sex's rule,
    builder.l5s1_from_hips, held in test_analytic_spine_base_at_reeds_l5s1), the levels as tall as
    the lumbar segment's six (T10-L3) up to the thorax-lumbar joint (T9/T10) at de Leva's xiphion
    (lower + middle trunk above the hips): the joint at (3 L5/S1 + xiphion) / 4 of their heights.
    50th male (1.753 m): L5/S1 115.4, the xiphion 363.7, the joint 177.4 mm above the hips, two
    levels 62.1 mm; 5th female (1.501 m): 113.0, 334.6, 168.4 mm. Until stop 44 the joint stood at
    de Leva's omphalion, 146.7 / 157.0 mm (this test a strict xfail: 41 / 15 mm low)."""
    from occupant.human.builder import l5s1_from_hips, proportions

    asm = build(percentile=percentile, sex=sex).source
    H = asm.header["stature"]
    t = segment_table(sex)
    xiphion = (t["lower_trunk"]["length"] + t["middle_trunk"]["length"]) * H
    l5s1 = l5s1_from_hips(H, proportions(), sex)[2]
    joint = np.asarray(asm.joints["lumbar_pelvis"].placement.position)
    top = np.asarray(asm.joints["thorax_lumbar"].placement.position)
    assert joint[:2] == pytest.approx([0.0, 0.0], abs=1e-12) and top[:2] == pytest.approx([0.0, 0.0], abs=1e-12)
    assert joint[2] + top[2] == pytest.approx(xiphion, abs=1e-9)
    assert joint[2] == pytest.approx((3.0 * l5s1 + xiphion) / 4.0, abs=1e-9)
    assert joint[2] - l5s1 == pytest.approx(2.0 * top[2] / 6.0, abs=1e-9)
    if z_joint is not None:
        assert 1e3 * joint[2] == pytest.approx(z_joint, abs=0.05)


@pytest.mark.parametrize("stature, mass, sex", [(1.753, 78.2, "male"), (1.501, 49.0, "female")])
def test_reference_lumbar_segment_keeps_de_levas_place(stature, mass, sex):
    """Moving the lumbar-pelvis joint up to L3/L4 moved nothing else: standing, the lumbar
    segment's centre of mass and its abdomen shell stand where de Leva's middle trunk (omphalion
    -> xiphion) puts them above the hips, its mass is de Leva's."""
    asm = build(stature=stature, mass=mass, sex=sex).source
    t = segment_table(sex)
    lo, mid = t["lower_trunk"]["length"] * stature, t["middle_trunk"]["length"] * stature
    z0 = asm.joints["lumbar_pelvis"].placement.position[2]
    lumbar = asm.parts["lumbar"]
    assert lumbar.mass == pytest.approx(t["middle_trunk"]["mass"] * mass, rel=1e-12)
    assert z0 + lumbar.com[2] == pytest.approx(lo + (1.0 - t["middle_trunk"]["com"]) * mid, abs=1e-9)
    shell = asm.geometries["abdomen"]
    centre = asm.markers[shell.marker]
    assert centre.part == "lumbar"
    assert z0 + centre.position[2] == pytest.approx(lo + mid / 2.0, abs=1e-9)
    assert shell.semi_axes[2] == pytest.approx(mid / 2.0, abs=1e-12)


@pytest.mark.parametrize("stature, mass, sex", [(1.753, 78.2, "male"), (1.501, 49.0, "female")])
def test_reference_head_and_neck_keep_de_levas_com_height(stature, mass, sex):
    """Head and neck together have de Leva's head+neck com height over the cervicale, standing,
    with the neck's base at C7/T1 (below the cervicale): the head's com is placed for the neck's
    com where the link has it, not where a link from the cervicale had it."""
    asm = build(stature=stature, mass=mass, sex=sex).source
    neck, head = asm.parts["neck"], asm.parts["head"]
    z_neck = asm.joints["lower_neck"].placement.position[2]
    z_head = z_neck + asm.joints["upper_neck"].placement.position[2]
    com = (neck.mass * (z_neck + neck.com[2]) + head.mass * (z_head + head.com[2])) / (
        neck.mass + head.mass)
    hn = segment_table(sex)["head_neck"]
    expected = (1.0 - hn["com"]) * hn["length"] * stature
    assert com - asm.markers["cervicale"].position[2] == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("stature, mass", [(1.753, 78.2), (1.88, 101.2)])
def test_reference_acromia_read_at_the_survey_acromion(stature, mass):
    """The validation cases read the acromia (validation.acromion_points) at the shoulder shells'
    outboard ends: ANSUR II's acromion, 0.1184 H from the midline and 0.0436 H below C7, on the
    upper torso; not at the shoulder joints' centres (0.1096 H out: the Hybrid III's)."""
    from occupant.human.validation import acromion_points
    asm = build(stature=stature, mass=mass, sex="male").source
    c7 = asm.markers["cervicale"].position[2]
    acromia = acromion_points(asm)
    for side, sgn in (("left", 1.0), ("right", -1.0)):
        assert asm.markers[asm.geometries[f"{side}_shoulder_shell"].marker].part == "upper_torso"
        assert acromia[side] == pytest.approx([0.0, sgn * 0.1184 * stature, c7 - 0.0436 * stature], abs=1e-4)


@pytest.mark.parametrize("stature, mass", [(1.753, 78.2), (1.88, 101.2), (1.501, 49.0)])
def test_reference_foot_and_density_from_their_sources(stature, mass):
    """The foot shell is as high as the lateral malleolus (0.0415 H, ANSUR II), and the neck's
    mass fills its shell at Contini's (1972) whole-body density, 690 + 900 H / M^(1/3) kg/m^3
    (1059 at 1.753 m and 78.2 kg) (body_proportions.toml; the head shell is the survey's head,
    test_reference_head_shell_is_the_survey_head_face_on_and_off)."""
    model = build(stature=stature, mass=mass, sex="male")
    asm = model.source
    for side in ("left", "right"):
        _, foot = _ellipsoid(asm, f"{side}_foot_shell", f"{side}_foot")
        assert 2.0 * foot[2] == pytest.approx(0.0415 * stature, rel=1e-12)
    density = 690.0 + 900.0 * stature / mass ** (1.0 / 3.0)
    _, neck = _ellipsoid(asm, "neck_shell", "neck")
    volume = 4.0 / 3.0 * np.pi * np.prod(neck)
    assert volume * density == pytest.approx(model.body_mass[model.body("neck")], rel=1e-9)
    if stature == 1.753:
        assert density == pytest.approx(1059.0, abs=0.5)


@pytest.mark.parametrize("stature, mass", [(1.753, 78.2), (1.88, 101.2)])
def test_reference_thorax_depth_is_the_survey_chest_depth(stature, mass):
    """The thorax ellipsoid (de Leva's mass and length at the body's density, 0.65 deep to wide)
    is as deep as ANSUR II's men's chest (0.1446 H: 253.8 mm, body_proportions.toml) within 5 %,
    half the men's spread (sd 26.2 mm); it is 3 % shallower at 1.753 m."""
    asm = build(stature=stature, mass=mass, sex="male").source
    _, semi = _ellipsoid(asm, "thorax", "upper_torso")
    assert 2.0 * semi[0] == pytest.approx(0.1446 * stature, rel=0.05)


@pytest.mark.xfail(strict=True, reason=(
    "the thorax ellipsoid's breadth comes from its volume and the 0.65 aspect: 0.377 m at "
    "1.753 m against ANSUR II's 0.289 (0.1649 H). Sized to the survey (its masses and inertias "
    "unchanged), every human case is unchanged but GS1, whose shoulder belt, one wrap on the "
    "thorax, then wraps round its inboard flank: head 396 -> 733 mm, 9 -> 5 of 19 inside "
    "(scenarios/validation/HISTORY.md, \"The thorax's breadth\"); fitted at mid-clavicle and "
    "held on the clavicle (not shipped) the belt stays on the shoulder at either breadth, 8 of 19 "
    "at the survey's (scenarios/validation/HISTORY.md Stop 40, branch gs1clavicle)"))
def test_reference_thorax_breadth_is_the_survey_chest_breadth():
    """The thorax ellipsoid is as broad as ANSUR II's men's chest at the nipples (0.1649 H:
    289.4 mm, body_proportions.toml), where the ribcage is broadest below the shoulders."""
    stature = 1.753
    asm = build(stature=stature, mass=78.2, sex="male").source
    _, semi = _ellipsoid(asm, "thorax", "upper_torso")
    assert 2.0 * semi[1] == pytest.approx(0.1649 * stature, abs=1e-3)


@pytest.mark.xfail(strict=True, reason=(
    "the upper arm shells lie about 40 mm inside the thorax at rest (its half-breadth 0.188 m, the "
    "shoulder joints 0.192 m out, the arm's radius 58 mm), so no arm-thorax contact can be "
    "declared without a pre-load; with the survey's chest breadth they clear it by 0.5 mm at "
    "1.753 m and 78.2 kg (scenarios/validation/HISTORY.md, \"The thorax's breadth\")"))
def test_reference_upper_arms_clear_the_thorax_at_rest():
    """At rest (every joint at zero: the arms along the upper torso) no point of either upper
    arm shell's surface lies inside the thorax ellipsoid."""
    asm = build(stature=1.753, mass=78.2, sex="male").source
    tc, ts = _ellipsoid(asm, "thorax", "upper_torso")
    u, v = np.meshgrid(np.linspace(0.0, np.pi, 61), np.linspace(0.0, 2.0 * np.pi, 121))
    unit = np.stack([np.sin(u) * np.cos(v), np.sin(u) * np.sin(v), np.cos(u)], -1).reshape(-1, 3)
    for side in ("left", "right"):
        g = asm.geometries[f"{side}_upper_arm_shell"]
        shoulder = np.asarray(asm.joints[f"{side}_shoulder"].placement.position)
        points = shoulder + np.asarray(asm.markers[g.marker].position) + unit * np.asarray(g.semi_axes)
        assert np.linalg.norm((points - tc) / ts, axis=1).min() >= 1.0, side


# ANSUR II men (Gordon et al. 2014, NATICK/TR-15/007, public data; body_proportions.toml): mean
# stature and weight, and the head's means, mm. The file keeps the means of the men's own ratios
# to stature, which lie within 0.2 % of these means over the mean stature (HEAD_RATIOS; head
# breadth 0.16 %, the others 0.07-0.10 %, read from the data).
ANSUR_MEN = {"stature": 1756.2, "weight_kg": 85.5, "vertex_menton": 236.4, "head_length": 199.5,
             "head_breadth": 154.3, "vertex_eye": 113.8}
HEAD_RATIOS = 2e-3


def _face(stature, mass, sex="male"):
    """(head shell, chin) as (centre, semi-axes) in the head's frame (origin the occipital
    condyles), of build(face=True)."""
    asm = build(stature=stature, mass=mass, sex=sex, face=True).source
    return tuple(_ellipsoid(asm, name, "head") for name in ("head_shell", "chin"))


def _vertex_above_oc(stature, sex):
    """The vertex's height (m) over the occipital condyles: ANSUR II's tragion below the vertex
    and Chancey et al.'s condyles below the meatus, 31.0 mm at 1.756 m (body_proportions.toml),
    a woman's with the men's ratios as the file builds her."""
    from occupant.human.data_folder import SHIPPED as DATA
    from occupant.io.toml_files import read_toml
    prop = read_toml(DATA / "body_proportions.toml")
    assert prop["oc_below_tragion"] == pytest.approx(0.0310 / 1.756, abs=1e-6)
    return (prop["tragion_below_vertex"] + prop["oc_below_tragion"]) * stature


def test_reference_face_shells_at_the_survey_head():
    """At the survey's mean man (1.7562 m) the head shell is the braincase: head length deep,
    head breadth wide, its top at the vertex (de Leva's) and its widest section at the eye's
    level, its back the Hybrid III 50M's back of the head scaled (84.7 mm behind the condyles at
    1.753 m, body_proportions.toml head_back_behind_oc); the chin's bottom, the menton, lies ANSUR II's vertex-menton
    (sitting height - eye height, sitting + menton-sellion length) below the vertex, outside the
    head shell, below the condyles."""
    H, M = ANSUR_MEN["stature"] / 1e3, ANSUR_MEN["weight_kg"]
    (c_head, head), (c_chin, chin) = _face(H, M)
    vertex = _vertex_above_oc(H, "male")
    assert c_head[2] + head[2] == pytest.approx(vertex, abs=1e-12)
    assert 2e3 * head[0] == pytest.approx(ANSUR_MEN["head_length"], rel=HEAD_RATIOS)
    assert 2e3 * head[1] == pytest.approx(ANSUR_MEN["head_breadth"], rel=HEAD_RATIOS)
    assert 1e3 * head[2] == pytest.approx(ANSUR_MEN["vertex_eye"], rel=HEAD_RATIOS)
    assert c_head[1] == 0.0 and c_head[0] - head[0] == pytest.approx(-0.0847 * H / 1.753, abs=1e-5)
    menton = c_chin - [0.0, 0.0, chin[2]]
    assert 1e3 * (vertex - menton[2]) == pytest.approx(ANSUR_MEN["vertex_menton"], rel=HEAD_RATIOS)
    assert np.sum(((menton - c_head) / head) ** 2) > 1.0 and menton[2] < 0.0


@pytest.mark.parametrize("face", [False, True])
@pytest.mark.parametrize("sex, percentile", [("female", 5), ("male", 50), ("male", 95)])
def test_reference_head_shell_is_the_survey_head_face_on_and_off(sex, percentile, face):
    """The 5F, 50M and 95M heads, the face on or off: the head shell is ANSUR II's men's head
    (length, breadth, vertex-eye; their ratios to stature, a woman's too, body_proportions.toml)
    scaled to the stature, its top at de Leva's vertex, its back the Hybrid III 50M's back of the
    head (84.7 mm behind the condyles) scaled to the stature."""
    model = build(sex=sex, percentile=percentile, face=face)
    H = model.source.header["stature"]
    c, head = _ellipsoid(model.source, "head_shell", "head")
    k = 1e3 * H / ANSUR_MEN["stature"]                  # mm of the survey's mean man -> m here
    assert 2.0 * head[0] == pytest.approx(k * ANSUR_MEN["head_length"] / 1e3, rel=HEAD_RATIOS)
    assert 2.0 * head[1] == pytest.approx(k * ANSUR_MEN["head_breadth"] / 1e3, rel=HEAD_RATIOS)
    assert head[2] == pytest.approx(k * ANSUR_MEN["vertex_eye"] / 1e3, rel=HEAD_RATIOS)
    assert c[2] + head[2] == pytest.approx(_vertex_above_oc(H, sex), abs=1e-12)
    assert c[1] == 0.0 and c[0] - head[0] == pytest.approx(-0.0847 * H / 1.753, abs=1e-5)


@pytest.mark.parametrize("sex, percentile", [("female", 5), ("male", 50), ("male", 95)])
def test_reference_ear_canal_near_the_middle_of_the_head_shell(sex, percentile):
    """The external auditory meatus, 18.4 mm ahead of the occipital condyles at 1.756 m (Chancey,
    Ottaviano, Myers & Nightingale 2007 [S abstract]; per stature as body_proportions.toml scales
    Beier's figures [E]), lies within the middle tenth of the head shell's length (between 0.45
    and 0.55 of it from the back [E: where a lateral head profile puts the ear canal; no survey of
    tragion-glabella depths was found]): 0.517 here. With the braincase centred on the condyles
    (before branch headshell) it lay at 0.592, the head shell 15 mm too far back."""
    model = build(sex=sex, percentile=percentile, face=True)
    H = model.source.header["stature"]
    c, head = _ellipsoid(model.source, "head_shell", "head")
    meatus = 0.0184 * H / 1.756
    assert 0.45 < (meatus - (c[0] - head[0])) / (2.0 * head[0]) < 0.55


@pytest.mark.parametrize("sex, percentile", [("female", 5), ("male", 50), ("male", 95)])
def test_identity_face_changes_the_head_surface_only(sex, percentile):
    """The face adds the chin and nothing else: the same head shell bit for bit (one braincase:
    a region must not crush a surface twice); the head's mass, centre of mass and inertia stay
    the segment's (de Leva's), every other body's too."""
    off, on = (build(sex=sex, percentile=percentile, face=f) for f in (False, True))
    heads = [sorted(n for n, g in m.source.geometries.items()
                    if m.source.markers[g.marker].part == "head") for m in (off, on)]
    assert heads == [["head_shell"], ["chin", "head_shell"]]
    for a, b in zip(*(_ellipsoid(m.source, "head_shell", "head") for m in (off, on))):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(on.body_mass, off.body_mass)
    np.testing.assert_array_equal(on.body_com, off.body_com)
    np.testing.assert_array_equal(on.body_inertia, off.body_inertia)


@pytest.mark.parametrize("stature, mass, sex", [(1.88, 101.2, "male"), (1.501, 49.0, "female")])
def test_analytic_face_shells_scale_with_the_head(stature, mass, sex):
    """The head shell and the chin scale with stature as the head's length does, and do not
    change with mass (their sources are lengths)."""
    ref = _face(1.753, 78.2, sex)
    k = stature / 1.753
    for (c, s), (c0, s0) in zip(_face(stature, mass, sex), ref):
        np.testing.assert_allclose(c, k * c0, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(s, k * s0, rtol=1e-12)
    for (c, s), (c0, s0) in zip(_face(1.753, 60.0, sex), ref):
        np.testing.assert_array_equal(c, c0)
        np.testing.assert_array_equal(s, s0)


def test_reference_face_is_off_by_default():
    """Without face=True the head carries its head shell alone (no chin: the pedestrian human
    variant, scenarios/validation/HISTORY.md Stop 39 faceoff; GS1 sets ``face`` in its case
    file)."""
    asm = build(stature=1.753, mass=78.2, sex="male").source
    assert "chin" not in asm.geometries


def test_reference_chin_meets_the_chest_as_the_head_shell_does():
    """The occupant's own pairs (dummies/body_contacts.toml) give the human's chin every chest
    surface its head shell meets, and the chin-chest pairs the dummies have."""
    from occupant.scenario.body_contacts import body_pairs
    model = build(stature=1.753, mass=78.2, sex="male", face=True)
    pairs = {(p.geometry_a, p.geometry_b) for p in body_pairs(model.source.geometries,
                                                               occupant=model.name)}
    assert {b for a, b in pairs if a == "head_shell"} <= {b for a, b in pairs if a == "chin"}
    assert {("chin", "thorax"), ("chin", "sternum_pad")} <= pairs


def _chin_gap(model, q, other):
    """Smallest radial distance (m) from the chin's surface to ``other``'s (negative inside)."""
    from occupant.dynamics import body_poses
    X = body_poses(model, model.make_data(), q)
    asm = model.source
    u, v = np.meshgrid(np.linspace(0.0, np.pi, 91), np.linspace(0.0, 2.0 * np.pi, 181))
    unit = np.stack([np.sin(u) * np.cos(v), np.sin(u) * np.sin(v), np.cos(u)], -1).reshape(-1, 3)

    def frame(name):
        g = asm.geometries[name]
        marker = asm.markers[g.marker]
        Xb = X[model.body(marker.part)]
        return Xb[:3, 3] + Xb[:3, :3] @ np.asarray(marker.position), Xb[:3, :3], np.asarray(g.semi_axes)

    c, R, D = frame("chin")
    co, Ro, Do = frame(other)
    local = (c + (unit * D) @ R.T - co) @ Ro
    rho = np.linalg.norm(local / Do, axis=1)
    return float(np.min(np.linalg.norm(local, axis=1) * (1.0 - 1.0 / rho)))


@pytest.mark.parametrize("other", ["thorax", "sternum_pad"])
def test_reference_chin_clears_the_chest_erect_and_as_postured(other):
    """Erect (every joint at zero) and in the seated posture as its file gives the neck (the
    head levelled at C7/T1, 20 deg; dummies/postures/passenger_seated.toml) the chin clears the
    chest it is paired with: by 75.7 mm from the thorax ellipsoid's top seated."""
    from occupant.human.posture import position
    model = build(stature=1.753, mass=78.2, sex="male", face=True)
    assert _chin_gap(model, np.asarray(model.q_neutral), other) > 0.0
    assert _chin_gap(model, position(model, "passenger_seated"), other) > 0.0


def test_reference_chin_clears_the_thorax_seated_with_the_levelled_neck():
    """As a scenario seats the human (the posture's neck flexion shared by the neck joints'
    ranges), the chin clears the thorax ellipsoid: by 52 mm with the neck's base at C7/T1 (Reed
    et al. 1999's place, 81 mm ahead of the cervicale; data/body_proportions.toml); from the
    cervicale it rested 1.2 mm inside the thorax's top (scenarios/validation/HISTORY.md Stop 39,
    c7t1)."""
    from occupant.human.neck_levelling import share_neck_flexion
    from occupant.human.posture import position
    model = build(stature=1.753, mass=78.2, sex="male", face=True)
    q = share_neck_flexion(model, position(model, "passenger_seated"))
    assert _chin_gap(model, q, "thorax") > 0.0


def test_identity_neck_case_unchanged_by_the_face():
    """The head-neck cases carry no chest and no contact: with the face's head shell and chin
    the NBDL 15 g case's head motion is the same to the last bit (the other ten cases' figures
    too, scenarios/validation/HISTORY.md, humanface)."""
    from occupant.human.validation import VALIDATIONS, read_scenario
    runs = []
    for face in (False, True):
        scenario, path = read_scenario("human_neck_nbdl_15g_frontal_check")
        scenario["human"]["face"] = face
        runs.append(VALIDATIONS[scenario["test"]].run(scenario, path, None))
    assert "chin" in runs[1]["model"].source.geometries
    np.testing.assert_array_equal(runs[0]["results"].body_poses, runs[1]["results"].body_poses)


def test_bad_face_names_file_and_key(edited_case):
    from occupant.io.toml_files import InputFileError
    from occupant.human.validation import read_scenario
    path = edited_case("human_neck_nbdl_12g_frontal", 'neck_activation = "reflex"',
                       'neck_activation = "reflex"\nface = 1')
    with pytest.raises(InputFileError, match="face"):
        read_scenario(str(path))



def _thorax_against_the_spine(stature, mass, sex):
    """(the built human's Assembly, its thorax (centre, semi-axes) in the upper torso frame, the
    centre's x where builder.thorax_ahead_of_axis puts it, the back's x at T8's and at C7/T1's
    level for a centre at x = 0, C7/T1's place)."""
    from types import SimpleNamespace

    from occupant.human.builder import proportions, thorax_ahead_of_axis
    from occupant.human.validation import T8_FRACTION

    asm = build(stature=stature, mass=mass, sex=sex).source
    c, s = _ellipsoid(asm, "thorax", "upper_torso")
    c7t1 = np.asarray(asm.joints["lower_neck"].placement.position)
    back = [-s[0] * np.sqrt(1.0 - ((z - c[2]) / s[2]) ** 2) for z in (T8_FRACTION * c7t1[2], c7t1[2])]
    x = thorax_ahead_of_axis(SimpleNamespace(center=c, semi_axes=s), stature, proportions(), sex)
    return asm, c, x, back, c7t1


@pytest.mark.parametrize("stature, mass, sex", [(1.753, 78.2, "male"), (1.501, 49.0, "female"),
                                                (1.88, 101.2, "male")])
def test_reference_thorax_place_behind_the_thoracic_spine(stature, mass, sex):
    """Where the source puts the thorax ellipsoid (builder.thorax_ahead_of_axis,
    body_proportions.toml): at T8's level its back 69.1 mm behind T8's vertebral body at 1.753 m
    (skin -> epidural space 43.7 mm on CT [C], the canal 15 mm [E], half a 20.8 mm body [S]),
    the body 24.5 mm ahead of the trunk's axis (the column through Reed's L5/S1 and C7/T1 with a
    34 deg kyphosis; spinedepth) [D]: its centre 41.6 mm ahead of the axis, its size kept. On the
    axis (the human as built) its back lies 110.7 mm behind T8's body and 164.2 mm behind C7/T1
    (Reed: 81.2, the cervicale); placed, 122.6 mm behind C7/T1: its sagittal section is a circle
    (0.1225 x 0.1219 m), so one ellipsoid from the xiphion to the cervicale stands right at T8 or
    at C7/T1, not both (scenarios/validation/HISTORY.md Stop 42, chestplace)."""
    _, c, x, back, c7t1 = _thorax_against_the_spine(stature, mass, sex)
    scale = stature / 1.753
    t8_body = 24.5e-3 * scale
    assert t8_body - (x + back[0]) == pytest.approx((43.7 + 15.0 + 20.8 / 2) * 1e-3 * scale, rel=1e-3)
    if stature == 1.753:
        assert 1e3 * x == pytest.approx(41.6, abs=0.1)
        assert 1e3 * (t8_body - back[0]) == pytest.approx(110.7, abs=0.2)
        assert 1e3 * (c7t1[0] - back[1]) == pytest.approx(164.2, abs=0.2)
        assert 1e3 * (c7t1[0] - x - back[1]) == pytest.approx(122.6, abs=0.2)
        assert 1e3 * c7t1[0] == pytest.approx(81.2, abs=0.1)


@pytest.mark.xfail(strict=True, reason=(
    "the thorax ellipsoid is centred on the trunk's axis (hips -> cervicale), its back 110.7 mm "
    "behind T8's vertebral body where a man's back lies 69.1 mm behind it; placed there (41.6 mm "
    "forward, the shoulder shells and sternum with it) GS1's shoulder belt runs over the top "
    "front of the chest by the suprasternal notch (49 mm inboard of the midline at the start, "
    "111 on the axis) and holds the torso back: T1 231.5 -> 198.9 mm (OUT), L2 106.2 -> 84.0 mm "
    "(OUT), right acromion 173.1 -> 123.0 mm (IN), GS1 8 -> 7 of 19, `occupant validate` 52 -> "
    "50 of 79 (scenarios/validation/HISTORY.md Stop 42, chestplace)"))
@pytest.mark.parametrize("stature, mass, sex", [(1.753, 78.2, "male"), (1.501, 49.0, "female")])
def test_reference_thorax_stands_where_the_back_lies_behind_the_spine(stature, mass, sex):
    """The human's thorax ellipsoid, and the shoulder shells and the sternum on it, stand where
    builder.thorax_ahead_of_axis puts the thorax (the test above)."""
    asm, c, x, _, _ = _thorax_against_the_spine(stature, mass, sex)
    assert c[0] == pytest.approx(x, abs=1e-3)
    for side in ("left", "right"):
        shell, _ = _ellipsoid(asm, f"{side}_shoulder_shell", "upper_torso")
        assert shell[0] == pytest.approx(c[0], abs=1e-12)


def _abdomen_back(stature, mass, sex):
    """(the built human's abdomen back x at its centre's height, lumbar frame, whose axis carries
    the lumbar vertebrae; the x body_proportions.toml's source puts it at), m."""
    from occupant.human.builder import proportions

    c, s = _ellipsoid(build(stature=stature, mass=mass, sex=sex).source, "abdomen", "lumbar")
    return c[0] - s[0], -proportions()["lumbar_back_behind_body"] * stature


@pytest.mark.parametrize("stature, mass, sex", [(1.753, 78.2, "male"), (1.501, 49.0, "female"),
                                                (1.88, 101.2, "male")])
def test_reference_abdomen_back_against_the_lumbar_spine(stature, mass, sex):
    """Where the abdomen's back stands against the lumbar spine: the source (body_proportions.toml
    lumbar_back_behind_body: skin -> posterior epidural space 41.8 mm at L3-4 on MRI [S], the
    canal 15.9 mm and half a 37.1 mm body on CT [S]) puts it 76.3 mm behind the vertebral bodies
    at 1.753 m [D]; the human's (de Leva's volume on the trunk's axis, 262.6 mm deep where
    ANSUR II's waist is 237.5) stands 131.3 mm behind them at its centre's height, 55.0 mm too
    far back, further than the thorax's 41.6 at T8 (chestplace): seated, the abdomen alone rests
    on the seat back (scenarios/validation/HISTORY.md, humanback)."""
    back, source = _abdomen_back(stature, mass, sex)
    assert 1e3 * source == pytest.approx(-76.3 * stature / 1.753, abs=0.1)
    assert back < source - 0.025 * stature / 1.753
    if stature == 1.753 and sex == "male":
        assert 1e3 * back == pytest.approx(-131.3, abs=0.1)
        assert 1e3 * (source - back) == pytest.approx(55.0, abs=0.1)


@pytest.mark.xfail(strict=True, reason=(
    "the abdomen is built round the trunk's axis, its back 131.3 mm behind the lumbar vertebrae "
    "where a man's lies 76.3 mm behind them; placed there (its front kept, or at ANSUR II's waist "
    "depth) the settled human slumps in the seat (pelvis 42 -> 50 deg, thorax 16 -> 8 deg from "
    "the vertical) and the belted runs lose the shoulder belt: GS1 9 -> 2 of 19 (head 811 mm), "
    "the belted sled diverges, US NCAP HIC15 608 -> 1041 (scenarios/validation/HISTORY.md, "
    "humanback)"))
@pytest.mark.parametrize("stature, mass, sex", [(1.753, 78.2, "male"), (1.501, 49.0, "female")])
def test_reference_abdomen_stands_where_the_back_lies_behind_the_lumbar_spine(stature, mass, sex):
    """The human's abdomen's back, at its centre's height, where the source puts it (the test
    above)."""
    back, source = _abdomen_back(stature, mass, sex)
    assert back == pytest.approx(source, abs=1e-3)


@pytest.mark.parametrize("sex, percentile", [("female", 5), ("male", 50), ("male", 95)])
def test_analytic_heels_fill_the_foot_shells_back_corner_and_scale_with_stature(sex, percentile):
    """With ``heels`` each foot carries ``<side>_heel`` (builder.heel; without, none): a sphere
    of the foot shell's half-height whose back is the foot shell's back and whose bottom is its
    sole, on that side's foot; at
    every size the same fractions of stature as the same sex's at 1.753 m and 78.2 kg (the 50th
    male: 36.4 mm radius)."""
    model = build(sex=sex, percentile=percentile, heels=True)
    assert not any(n.endswith("_heel") for n in build(sex=sex, percentile=percentile).source.geometries)
    H = model.source.header["stature"]
    ref = build(sex=sex, stature=1.753, mass=78.2, heels=True).source
    for side in ("left", "right"):
        c_foot, foot = _ellipsoid(model.source, f"{side}_foot_shell", f"{side}_foot")
        c, heel = _ellipsoid(model.source, f"{side}_heel", f"{side}_foot")
        assert heel[0] == heel[1] == heel[2] == pytest.approx(foot[2], abs=1e-15)
        assert c[0] - heel[0] == pytest.approx(c_foot[0] - foot[0], abs=1e-15)   # the heel's back
        assert c[2] - heel[2] == pytest.approx(c_foot[2] - foot[2], abs=1e-15)   # the sole
        assert c[1] == 0.0
        c50, heel50 = _ellipsoid(ref, f"{side}_heel", f"{side}_foot")
        np.testing.assert_allclose(c / H, c50 / 1.753, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(heel / H, heel50 / 1.753, rtol=1e-12)
    if sex == "male":
        assert 1e3 * heel50[0] == pytest.approx(36.4, abs=0.05)


#: ANSUR II (Gordon et al. 2014, NATICK/TR-15/007, public data): the mean of each subject's lower
#: thigh circumference (the girth just above the patella) over stature, men / women [S]
LOWER_THIGH_GIRTH = {"male": 0.2332, "female": 0.2462}


@pytest.mark.parametrize("sex, percentile", [("female", 5), ("male", 50), ("male", 95)])
def test_reference_knee_shell_is_the_girth_above_the_patella_on_the_knee_centre(sex, percentile):
    """Each upper leg carries ``<side>_knee_shell`` (builder.knee_shell): a sphere centred on the
    knee joint (where the Hybrid III's knee pad rides its femur), its radius the survey's girth
    above the patella / 2 pi at the body's stature (the 50th male's 65.1 mm, the 5th female's
    58.8 mm at 1.501 m); pedestrian_40's bumper meets it in the dummy's knee pads' place
    (tests/scenario/test_pedestrian.py)."""
    asm = build(sex=sex, percentile=percentile).source
    H = asm.header["stature"]
    for side in ("left", "right"):
        c, r = _ellipsoid(asm, f"{side}_knee_shell", f"{side}_upper_leg")
        knee = asm.joints[f"{side}_knee"]
        assert knee.parent == f"{side}_upper_leg"
        np.testing.assert_allclose(c, knee.placement.position, atol=1e-15)
        assert r[0] == r[1] == r[2] == pytest.approx(LOWER_THIGH_GIRTH[sex] / (2 * np.pi) * H, rel=2e-4)
    if (sex, percentile) == ("male", 50):
        assert 1e3 * r[0] == pytest.approx(65.1, abs=0.05)
