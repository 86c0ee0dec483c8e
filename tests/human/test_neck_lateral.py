"""The human neck's lateral bending and axial twist resistance (issue 14 sections 1 and 4) held
against published human cervical data: the two joints in series (C7/T1 and the occipital
condyles, each carrying the whole moment) as one head-to-T1 moment-angle curve, quasi-static
(the tabulated spring of occupant.human.passive_joints, reference subject), and what the Kang
side PMHS check asks of it dynamically (scenarios/validation/HISTORY.md Stop 43,
kanglateral).

Sources (each figure beside its use):
- the clinical active ranges, lateral flexion 45 deg and rotation 70 (60-80) deg one side
  [U rom-hindawi, rom-exrx: occupant/human/data/joint_rom.toml];
- relaxed volunteers tolerated under 10 N m at the slow end of their lateral range (Bishop,
  Jones, Bennett & McGill 1994, Clin. Biomech. 9:193) [S abstract];
- the ligamentous C0-C7 column's per-level mean curves at 1 N m, one side (Panjabi et al.
  2001, Spine 26:2692, 16 specimens, as digitised in the SAFER HBM validation repository; the
  levels and the chord split are read in joint_rom.toml) [C];
- PMHS head-necks bent sideways at 1.5 m/s broke (atlas lateral mass) at 27-38 N m coronal
  moment at the condyles and 30-39 N m at the lower neck (Yoganandan, Baisden, Vedantam &
  Banerjee 2024, J. Eng. Sci. Med. Diagn. Ther., PMC10697077) [S abstract];
- the Kang et al. 2018 (IRCOBI) side tests' two PMHS, whose heads peaked at 45.8-66.0 deg
  (data/kang_2018_side.csv), were each tested in three modes (front, oblique, side: the
  specimen table of the SAFER HBM validation repository's notebook, Kang-2018-head-neck/
  SAFER_11.0/Kang-2018.ipynb) [S]: tests meant not to break them [D]; and their lateral
  moments at the T1 load cell (same repository, side.csv) [C]."""
import math
import pathlib

import numpy as np
import pytest

from occupant.human.data_folder import SHIPPED as DATA
from occupant.human.passive_joints import _reference_rows
from occupant.io.toml_files import read_toml

JOINTS = ("lower_neck", "upper_neck")
# Panjabi et al. 2001, one side at 1 N m, deg [C]: lateral C0-C1 ... C6-C7, axial the same
LATERAL_LEVELS = (4.58, 3.19, 4.72, 4.67, 4.68, 3.32, 2.69)
AXIAL_LEVELS = (4.87, 27.39, 1.67, 2.50, 3.34, 2.62, 1.40)
PMHS_FAILURE_OC = (27.0, 38.0)       # N m, Yoganandan et al. 2024 [S abstract]
PMHS_FAILURE_LOWER = (30.0, 39.0)    # N m, the same
KANG_SIDE_PEAKS = (45.8483, 65.975)  # deg, the two PMHS's peak head lateral bending [S]


def joint_angle_at(joint, key, moment):
    """The joint's angle (deg, positive side) under the restoring ``moment`` (N m), reference
    subject: its tabulated curve (range, then ligamentous branch) read backwards."""
    lo, hi = (math.radians(v) for v in read_toml(DATA / "joint_rom.toml")[joint][key])
    rows = np.asarray(_reference_rows(joint, key, lo, hi))
    pos = rows[rows[:, 0] >= 0.0]
    return float(np.degrees(np.interp(moment, -pos[:, 1], pos[:, 0])))


def neck_angle_at(key, moment):
    """Head-to-T1 angle (deg) of the two joints in series under ``moment`` (N m)."""
    return sum(joint_angle_at(j, key, moment) for j in JOINTS)


def neck_moment_at(key, angle):
    """The series' moment (N m) at the head-to-T1 ``angle`` (deg), by bisection."""
    lo, hi = 0.0, 400.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if neck_angle_at(key, mid) < angle else (lo, mid)
    return 0.5 * (lo + hi)


def test_reference_neck_range_ends_at_the_clinical_ranges_under_bishops_moment():
    """The two joints' ranges sum to the clinical one-side ranges (lateral 45, axial 70 deg)
    and reach them together under 10 N m, the volunteers' tolerated end moment (Bishop et al.
    1994: under 10 N m on average; axial taken as lateral, joint_passive.toml)."""
    assert neck_angle_at("x", 10.0) == pytest.approx(45.0, abs=0.1)
    assert neck_angle_at("z", 10.0) == pytest.approx(70.0, abs=0.1)
    # each joint at its own range's end under that moment: the range split holds on the curve
    rom = read_toml(DATA / "joint_rom.toml")
    for j in JOINTS:
        for key in "xz":
            assert joint_angle_at(j, key, 10.0) == pytest.approx(rom[j][key][1], abs=0.1)


def test_reference_neck_stiffer_than_its_ligamentous_column_at_one_newton_metre():
    """At 1 N m the ligamentous C0-C7 bends 27.9 deg sideways and twists 43.8 deg one side
    (Panjabi et al. 2001); the model's neck, which stands for a neck with its muscles and skin
    (living or PMHS with muscles retained), must be no more flexible: 15.9 / 24.8 deg (0.57 /
    0.57 of it). Per joint against the levels it stands for (the chord split, joint_rom.toml:
    C7/T1 half the subaxial arc B/2, the condyles U + B/2): lateral 5.8 against 10.0, 10.2
    against 17.8 deg; axial 3.3 against 5.8, 21.5 against 38.0 deg."""
    for key, levels, whole in (("x", LATERAL_LEVELS, 15.9), ("z", AXIAL_LEVELS, 24.8)):
        u, b = sum(levels[:2]), sum(levels[2:])
        assert neck_angle_at(key, 1.0) == pytest.approx(whole, abs=0.2)
        assert neck_angle_at(key, 1.0) < u + b
        assert joint_angle_at("lower_neck", key, 1.0) < b / 2
        assert joint_angle_at("upper_neck", key, 1.0) < u + b / 2


def test_reference_neck_quasi_static_moment_at_the_kang_side_peaks_under_pmhs_failure():
    """At the Kang side PMHS's peaks (45.8-66.0 deg; specimens tested in three modes, meant
    not to break) the model's quasi-static lateral moment, 10.5-33.8 N m, stays under the
    largest moment at which PMHS necks broke in lateral bending (38 N m at the condyles, 39 at
    the lower neck; Yoganandan et al. 2024); it reaches their least (27 N m) at 62.1 deg and
    their largest (38) at 68.0 deg: the quasi-static curve does not hold the head short of the
    PMHS's peaks. (A loose bound: the Kang PMHS's T1 cells carried up to 126 N m dynamically,
    tests below.)"""
    at_peaks = [neck_moment_at("x", a) for a in KANG_SIDE_PEAKS]
    assert at_peaks == pytest.approx([10.5, 33.8], abs=0.3)
    assert at_peaks[1] < min(PMHS_FAILURE_OC[1], PMHS_FAILURE_LOWER[1])
    assert neck_angle_at("x", PMHS_FAILURE_OC[0]) == pytest.approx(62.1, abs=0.2)
    assert neck_angle_at("x", PMHS_FAILURE_OC[1]) == pytest.approx(68.0, abs=0.2)
    assert KANG_SIDE_PEAKS[1] < neck_angle_at("x", PMHS_FAILURE_OC[1])


def test_regression_kang_side_moments_are_dynamic_not_the_curves(validated):
    """Measured (kanglateral): in the Kang side case the lower neck (C7/T1) passes the PMHS
    failure range of Yoganandan et al. (30-39 N m) only at 42-44 ms, when the head has bent 4-5
    deg relative to the sled and the joint is 26-29 deg, past its 16.2 deg range: the neck link
    leans while the head lags about the condyles. Both joints then carry over three times that
    range (C7/T1 129 N m at 60 ms, the condyles 123 N m at 88 ms), where the quasi-static curve
    at the head's own peak angle (73.9 deg) gives under 55 N m: the peak's excess is the
    S-shaped neck's dynamics, not the curve's level. (The PMHS's own T1 cells carried 70-126 N m,
    next test: Yoganandan's range, from pre-rotated heads at 1.5 m/s, does not bound these
    specimens' loads.) Since the condyles stand below the tragion with the head's com 26.4 mm
    ahead of them (branch chancey; run once, not fitted) C7/T1 loads twice (test_validation_neck
    kang_side_mechanism): its most, 118.7 N m at 100 ms in the second loading, three times the
    range, the condyles' 73.1 N m at 82 ms under twice it; the curve at the head's peak (68.4
    deg) still under 55 N m. Before: 129 N m at 60 ms and 123 N m at 88 ms."""
    out = validated("human_neck_kang_side_check")
    res, t = out["results"], out["t"] * 1e3
    head = out["history"]["head_lateral_deg"]
    peak = int(np.argmax(head))
    lower = res.outputs["lower_neck_x.load"]
    first = int(np.flatnonzero(np.abs(lower) > PMHS_FAILURE_LOWER[1])[0])
    assert t[first] == pytest.approx(44.0, abs=3.0)
    assert head[first] < 8.0
    assert np.degrees(res.outputs["lower_neck_x.deflection"][first]) > 16.2
    lower, upper = (np.abs(res.outputs[f"{j}_neck_x.load"][:peak + 1]).max() for j in ("lower", "upper"))
    assert lower > 3.0 * PMHS_FAILURE_LOWER[1] and lower == pytest.approx(118.7, rel=0.05)
    assert PMHS_FAILURE_OC[1] < upper < 2.0 * PMHS_FAILURE_OC[1] and upper == pytest.approx(73.1, rel=0.05)
    assert neck_moment_at("x", head[peak]) < 55.0


# The two side PMHS's lateral moment Mx at the T1 load cell (under the potting; the head's com
# 229 +- 21 mm above the potting's centre against the model's 182 mm above C7/T1), N m, read
# linearly between the digitised points of the SAFER HBM validation repository (commit
# 4face37120f05f22a837b0c6df42bf291b9d2e16, validation/Kang-2018-head-neck/data/
# experiment_data/side.csv, columns Mx 1 and Mx 2; the potting distances from its notebook
# SAFER_11.0/Kang-2018.ipynb, commit c6b2675d73fa6ff0f14363f0d31c77d22a121835) [C]. Peaks
# 125.5 N m at 42.4 ms and 69.9 N m at 44.0 ms.
PMHS_T1_MX = {30: (67.7, 36.9), 40: (121.2, 64.6), 44: (125.2, 69.8), 60: (108.5, 45.9),
              80: (88.9, 53.3), 90: (89.4, 48.6)}


def test_regression_kang_side_lower_neck_moment_rises_late_against_the_pmhs(validated):
    """Against the PMHS's own T1 moments (compared, not fitted): the two PMHS's necks carried
    37-68 N m by 30 ms and 65-121 by 40 ms, peaked at 42-44 ms (70 and 126 N m) and still
    held 49-89 N m at 80-90 ms while their heads went to 46-66 deg. The model's C7/T1 carries
    7 N m at 30 ms and 27 at 40 (its joint in its soft range, < 10 N m over 16.2 deg), peaks
    16 ms after them (129 N m at 60 ms, in its ligamentous branch) and lets go, 20 and 14 N m
    at 80 and 90 ms, while the head swings free over the condyles to 73.9 deg. (Part of the
    cells' moment is their shear times the cell's offset below C7/T1: about 400 N x 47 mm =
    19 N m at 35 ms [D], not enough to close the gap at 30-40 ms.) Since the condyles stand
    below the tragion with the head's com 26.4 mm ahead of them (branch chancey; run once, not
    fitted) the joint carries 9.7 N m at 30 ms and 33.7 at 40 (under the PMHS's least, no longer
    under half of it), 14.1 at 80 ms, and peaks in its second loading, 118.7 N m at 100 ms, 56
    ms after the PMHS's, holding 48.7 N m at 90 ms: it lets go between its two loadings, not
    after one."""
    out = validated("human_neck_kang_side_check")
    res, t = out["results"], out["t"] * 1e3
    m = np.abs(res.outputs["lower_neck_x.load"])
    at = {ms: m[int(np.argmin(np.abs(t - ms)))] for ms in PMHS_T1_MX}
    for ms in (30, 80):
        assert at[ms] < 0.5 * min(PMHS_T1_MX[ms])
    assert at[40] < min(PMHS_T1_MX[40]) and at[90] == pytest.approx(48.7, abs=3.0)
    assert at[30] == pytest.approx(9.7, abs=1.5) and at[40] == pytest.approx(33.7, abs=3.0)
    k = int(np.argmax(m[t <= 120.0]))
    assert t[k] == pytest.approx(100.0, abs=3.0) and t[k] > 44.0 + 10.0
    assert m[k] == pytest.approx(118.7, abs=6.0)


@pytest.mark.xfail(strict=True, reason="the neck's axial branch past the clinical range is an "
                   "estimate (the lateral's, 57 N m, its span scaled by the in vitro axial / lateral "
                   "flexibility: joint_passive.toml); its quasi-static twist at 81.5 deg, 16.4 N m, "
                   "is under the one PMHS's spine-alone 18.7 N m (Kang twist, relaxed at 200 ms)")
def test_reference_neck_axial_moment_at_the_kang_twist_end_reaches_the_pmhs_spine():
    """Kang et al. 2018's twist PMHS (one, muscles retained, head clamped; data/kang_2018_twist
    .csv [S]): at 200 ms, the turn held at 81.5 deg and the moment relaxed from its peak (31-46
    N m at 87 deg near 80 ms, dynamic), the spine alone carries 18.7 N m (the whole neck 21.75).
    The model's quasi-static axial curve gives 16.4 N m there and reaches 18.7 N m at 84.6 deg
    (at 87.2 deg, 20.9 N m). Compared, not fitted (the twist case is an independent check);
    the oblique case's axial figures (30.3 deg peak, -28.4 at 200 ms against +19.6-26.7) are
    the head's twist in the condyles' soft range (README), which this branch does not reach.
    (Branch kangtwist: the record is still relaxing at 200 ms, 19.86 -> 19.10 N m over 183-193
    ms, so 18.7 N m bounds the spine's relaxed moment at 81.5 deg from above; this reference is
    weaker than written. test_regression_kang_twist_holds_the_pmhs_spines_shape_at_two_thirds_
    its_level reads the dynamic comparison.)"""
    assert neck_moment_at("z", 81.52) >= 18.68


def joint_moment_at(joint, key, angle):
    """The joint's quasi-static restoring moment (N m, positive) at ``angle`` (rad, either side),
    reference subject: its tabulated curve (range, then ligamentous branch)."""
    lo, hi = (math.radians(v) for v in read_toml(DATA / "joint_rom.toml")[joint][key])
    rows = np.asarray(_reference_rows(joint, key, lo, hi))
    return -np.interp(np.abs(angle), rows[:, 0], rows[:, 1])


def test_regression_kang_twist_holds_the_pmhs_spines_shape_at_two_thirds_its_level(validated):
    """Why the twist case's three figures are out (scenarios/validation/HISTORY.md Stop 45, "kangtwist:
    why the neck is 0 of 3"), measured on main 897485a. Not the input: T1's turn is the record's
    at every sample (the spline through it), and the two joints' twists sum to it (87.25 deg at
    89 ms against 87.22). Not the rate: while the turn runs (40-83 ms, up to 1810 deg/s) the two
    joints' mean moment stays within -0.5 / +1.5 N m of their quasi-static curves at their own
    twists (the passive damping, 0.1 N m s/rad, adds little); held (83-110 ms) it sits 0.3-1.8 N m
    under them (the curve's unloading, joint_passive.toml [reference] hysteresis). The level:
    from the turn's end to 200 ms the model carries 0.56-0.71 of the PMHS spine's moment (the
    T3 cell, data/kang_2018_twist.csv [S]; 0.60-0.67 as means over 83-100, 100-130, 130-160 and
    160-200 ms), and both relax by nearly the same share from their peaks to 200 ms (model 43 %,
    PMHS 45 %) while the turn backs off 87.2 -> 81.6 deg: the spine's shape held, at about two
    thirds of its level (the axial branch past the clinical range, 57 N m [E], joint_passive.toml).
    The peak's time: the joints' mean peaks at 88 ms (20.7 N m), inside the records' 71-89 ms;
    the C7/T1 reading adds the neck link's axial ringing (C7/T1 minus condyles = I_zz of the
    link times its angular acceleration), whose crest puts the figure at 99 ms."""
    from occupant.human.validation import read_columns, read_scenario

    out = validated("human_neck_kang_twist_check")
    res, h, t = out["results"], out["history"], out["t"] * 1e3
    sc, path = read_scenario("human_neck_kang_twist_check")
    _, col = read_columns(sc, pathlib.Path(path).parent)
    assert np.abs(h["t1_turn_deg"] - np.interp(t, col["t_ms"], col["t1_rotz_deg"])).max() < 1e-6
    low, up = (res.outputs[f"{j}_neck_z.deflection"] for j in ("lower", "upper"))
    k89 = int(np.argmin(np.abs(t - 89.0)))
    assert -np.degrees(low[k89] + up[k89]) == pytest.approx(h["t1_turn_deg"][k89], abs=0.1)
    mean = 0.5 * (h["moment_Nm"] + h["upper_moment_Nm"])
    static = 0.5 * (joint_moment_at("lower_neck", "z", low) + joint_moment_at("upper_neck", "z", up))
    turning, held = (t >= 40.0) & (t <= 83.0), (t >= 83.0) & (t <= 110.0)
    assert -1.0 < (mean - static)[turning].min() and (mean - static)[turning].max() < 2.0
    assert -2.5 < (mean - static)[held].min() and (mean - static)[held].max() < 0.0
    cell = np.interp(t, col["t_ms"], col["mz_t3_cell_Nm"])
    after = t >= 83.0
    ratio = mean[after] / cell[after]
    assert 0.5 < ratio.min() and ratio.max() < 0.75
    for a, b in ((83, 100), (100, 130), (130, 160), (160, 200)):
        s = (t >= a) & (t <= b)
        assert 0.58 < mean[s].mean() / cell[s].mean() < 0.69, (a, b)
    relax_model, relax_pmhs = 1.0 - mean[-1] / mean.max(), 1.0 - cell[-1] / cell.max()
    assert relax_model == pytest.approx(0.43, abs=0.03) and relax_pmhs == pytest.approx(0.45, abs=0.01)
    k = int(np.argmax(mean))
    assert t[k] == pytest.approx(88.0, abs=2.0) and 71.0 <= t[k] <= 89.0
    assert mean[k] == pytest.approx(20.7, abs=0.5)
    kc = int(np.argmax(h["moment_Nm"]))
    assert t[kc] == pytest.approx(99.0, abs=2.0) and h["moment_Nm"][kc] - mean[kc] > 1.0
