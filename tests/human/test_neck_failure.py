"""The human's upper neck past its flexion range with more than the PMHS ligament-damage moment
is a predicted injury (data/joint_failure.toml [upper_neck.y.upper], Mertz & Patrick 1971; branch
neckflex, scenarios/validation/HISTORY.md). The neck's joints have no stop (their ligamentous
branch is the tissue's, data/joint_passive.toml), so occupant.scenario.defects.joint_failures
reads them past the range end of data/joint_rom.toml that the failure level carries and counts
an episode by its moment alone, where a stopped joint also needs its stop overrun."""
import math
from types import SimpleNamespace

import numpy as np
import pytest

from occupant.human import build
from occupant.human.builder import neck_circumference, proportions
from occupant.human.data_folder import HumanDataError, SHIPPED, read_data, reading_from
from occupant.human.joint_failure import FILE, failure_levels, read_levels
from occupant.scenario.defects import joint_failures, motion_defects

#: the upper neck's flexion range end (deg): data/joint_rom.toml, two joints / three joints
#: (neck_mid: the condyles take M/2 + U)
UPPER_FLEXION_END = {False: read_data("joint_rom.toml")["upper_neck"]["y"][1],
                     True: read_data("joint_rom.toml")["upper_neck_of_three"]["y"][1]}
#: the upper neck's extension range end (deg, negative), two joints
UPPER_EXTENSION_END = read_data("joint_rom.toml")["upper_neck"]["y"][0]
#: the published levels at the condyles (N m): flexion, PMHS ligament damage (Mertz & Patrick
#: 1971); extension, the level quoted as theirs for it (data/joint_failure.toml [mertz1971-ext])
FLEXION_LEVEL, EXTENSION_LEVEL = 190.0, 57.0


@pytest.fixture(scope="module")
def human():
    return build(sex="male", percentile=50)


def test_reference_upper_neck_flexion_failure_is_the_branch_level(human):
    """The failure level is the PMHS ligament-damage moment that the flexion branch is built to
    reach 15 deg past the range (the same figure and source in data/joint_passive.toml), at the
    flexion (upper) end of the condyles' range; its extension end has its own level (branch
    neckext, below), and so has its lateral bending (branch necklateral, below); C7/T1 and the
    neck's axial rotation have none."""
    levels = failure_levels(human)
    assert sorted(k for k in levels if "neck" in k) == ["upper_neck_x", "upper_neck_y"]
    level = levels["upper_neck_y"]["upper"]
    assert (level.motion, level.moment, level.angle) == ("flexion", 190.0, None)
    assert level.moment == read_data("joint_passive.toml")["upper_neck"]["y"]["stop_upper"]
    assert "Mertz & Patrick 1971" in level.source
    assert math.degrees(level.range_end) == pytest.approx(UPPER_FLEXION_END[False], abs=1e-12)
    assert sorted(levels["upper_neck_y"]) == ["lower", "upper"]
    e = human.joint_resistance_names.index("upper_neck_y")
    assert math.isinf(human.joint_resistance.upper[e])      # no stop: the branch is the tissue's


def test_reference_three_joint_neck_reads_its_own_range_end():
    """With the neck's third joint (neck_mid) the condyles' range is their own section's
    (upper_neck_of_three), and so is the failure level's range end."""
    level = failure_levels(build(sex="male", percentile=50, neck_mid=True))["upper_neck_y"]["upper"]
    assert UPPER_FLEXION_END[True] != UPPER_FLEXION_END[False]
    assert math.degrees(level.range_end) == pytest.approx(UPPER_FLEXION_END[True], abs=1e-12)


def _swing(past_deg, peak, extension=False):
    """Outputs of the upper neck turned at a constant rate into its flexion (``extension``: its
    extension) range end at 5 ms, ``past_deg`` beyond it at 10 ms and back at 15 ms, its
    resisting moment rising linearly from 0 at the range end to ``peak`` (N m) at the deepest
    point (the joint's load is minus the resisting moment past the upper end, plus it past the
    lower); samples every 1e-4 s, N = 50 of them from the range end to the deepest point."""
    end, sign = (UPPER_EXTENSION_END, -1.0) if extension else (UPPER_FLEXION_END[False], 1.0)
    t = np.linspace(0.0, 0.02, 201)
    deg = end + sign * past_deg * (1.0 - np.abs(t - 0.01) / 0.005)
    resisting = peak * np.clip(sign * (deg - end), 0.0, None) / past_deg
    return SimpleNamespace(t=t, outputs={"upper_neck_y.deflection": np.radians(deg),
                                         "upper_neck_y.load": -sign * resisting})


@pytest.mark.parametrize("past_deg, peak, predicted", [
    (3.0, 250.0, True), (15.0, 364.0, True), (15.0, 150.0, False), (3.0, 189.0, False)])
# 3 deg: within the STOP_ALLOWANCE a stopped joint would have to overrun
def test_analytic_the_stopless_neck_fails_by_its_moment_alone(human, past_deg, peak, predicted):
    """Past the range end by ``past_deg`` with ``peak`` N m: over the failure moment a predicted
    injury whatever the depth (3 deg lies within the 5 deg a stop is allowed, which a stopped
    joint would need overrun), with the peak, its time, the time past the end and the work
    (closed form: the linear ramp's triangle, read from the first sample past the end: its
    first of N = 50 slices missing, a fraction 1 / N^2); under it none."""
    res = _swing(past_deg, peak)
    found = joint_failures(human, res)
    if not predicted:
        assert found == []
        return
    (f,) = found
    assert (f.element, f.end, f.motion, f.failure) == ("upper_neck_y", "upper", "flexion", 190.0)
    assert f.moment == pytest.approx(peak, rel=1e-12) and f.t == pytest.approx(0.01, abs=1e-12)
    assert f.t_past == pytest.approx(0.0051, abs=1e-12)
    assert f.work == pytest.approx(peak * math.radians(past_deg) / 2.0 * (1.0 - 1.0 / 50 ** 2),
                                   rel=1e-9)
    assert "upper neck y (flexion) past its range end" in f.text()


def test_analytic_the_stopless_neck_makes_no_joint_stop_defect(human):
    """Far past its flexion range end (30 deg) the neck, which has no stop, makes no joint stop
    defect line; its failure, when the moment passes the level, is the run's note instead."""
    res = _swing(30.0, 500.0)
    res.outputs.update({f"{n}.deflection": np.zeros_like(res.t)
                        for n in human.joint_resistance_names if n != "upper_neck_y"})
    assert [d for d in motion_defects(human, res, []) if d.kind == "joint stop"] == []


def test_reference_upper_neck_extension_failure_is_the_extension_branch_level(human):
    """The extension level (data/joint_failure.toml [upper_neck.y.lower], the level quoted as
    Mertz & Patrick's for ligamentous damage in extension) at the extension (lower) end of the
    condyles' range, read from the file; it is the extension branch's own level (data/
    joint_passive.toml stop_lower), which the branch reaches 25 deg past the range; the neck has
    no stop there either; the 50th male's, unscaled."""
    row = read_data(FILE)["upper_neck"]["y"]["lower"]
    level = failure_levels(human)["upper_neck_y"]["lower"]
    assert (level.motion, level.moment, level.angle, level.scale) == (
        row["motion"], row["moment"], None, 1.0)
    assert (level.motion, level.moment) == ("extension", EXTENSION_LEVEL)
    assert level.moment == read_data("joint_passive.toml")["upper_neck"]["y"]["stop_lower"]
    assert level.source == row["source"] and "Mertz & Patrick 1971" in level.source
    assert math.degrees(level.range_end) == pytest.approx(UPPER_EXTENSION_END, abs=1e-12)
    assert UPPER_EXTENSION_END < 0.0
    e = human.joint_resistance_names.index("upper_neck_y")
    assert math.isinf(human.joint_resistance.lower[e])


@pytest.mark.parametrize("past_deg, peak, predicted", [
    (3.0, 60.0, True), (25.0, 90.0, True), (25.0, 56.0, False), (3.0, 56.9, False)])
def test_analytic_the_neck_past_its_extension_end_fails_by_its_moment(human, past_deg, peak,
                                                                      predicted):
    """Past the extension range end by ``past_deg`` with ``peak`` N m: over the extension level a
    predicted injury at the lower end, with its peak, time and closed-form work (the ramp's
    triangle less its first of N = 50 slices, as in flexion); under it none (and no flexion
    note: the flexion end is not reached)."""
    found = joint_failures(human, _swing(past_deg, peak, extension=True))
    if not predicted:
        assert found == []
        return
    (f,) = found
    assert (f.element, f.end, f.motion, f.failure) == ("upper_neck_y", "lower", "extension",
                                                       EXTENSION_LEVEL)
    assert f.moment == pytest.approx(peak, rel=1e-12) and f.t == pytest.approx(0.01, abs=1e-12)
    assert f.t_past == pytest.approx(0.0051, abs=1e-12)
    assert f.work == pytest.approx(peak * math.radians(past_deg) / 2.0 * (1.0 - 1.0 / 50 ** 2),
                                   rel=1e-9)
    assert "upper neck y (extension) past its range end" in f.text()


#: ANSUR II (Gordon et al. 2014, NATICK/TR-15/007, public data): the mean neck circumference
#: at its base (mm) and the mean stature (mm) of its 4082 men and 1986 women
#: (body_proportions.toml, neck_base_radius and neck_base_radius_female)
ANSUR_NECK_BASE = {"male": (434.6, 1756.2), "female": (371.2, 1628.5)}
#: the means of each subject's own ratio lie within this of the ratio of the means (the file keeps
#: the former; 0.03 % for the men, 0.06 % for the women)
NECK_RATIOS = 2e-3


def _neck_ratio(sex, percentile):
    """The human's neck circumference over the 50th male's: each sex's own ratio to stature
    (body_proportions.toml) at its stature."""
    prop = proportions()
    stature = prop["percentile"][sex][str(percentile)][0]
    reference = prop["percentile"]["male"]["50"][0]
    radius = prop["neck_base_radius_female" if sex == "female" else "neck_base_radius"]
    return radius * stature / (prop["neck_base_radius"] * reference)


@pytest.mark.parametrize("sex", ["male", "female"])
def test_reference_the_neck_circumference_is_the_surveys_for_each_sex(sex):
    """The neck circumference the levels scale with is ANSUR II's mean at the base of the neck of
    its sex, at the survey's mean stature: a woman's is her own (371.2 mm at 1628.5 mm), not the
    men's ratio (which gives her 403 mm there)."""
    girth, stature = ANSUR_NECK_BASE[sex]
    assert 1e3 * neck_circumference(stature / 1e3, proportions(), sex) == pytest.approx(
        girth, rel=NECK_RATIOS)


@pytest.mark.parametrize("sex, percentile", [("male", 95), ("female", 5)])
def test_analytic_the_neck_levels_scale_with_the_neck_circumference_cubed(sex, percentile):
    """Another size's neck levels are the 50th male's times (its neck circumference over his)
    cubed (data/joint_failure.toml [size.neck], Mertz et al. 2003), each sex's circumference its
    own fraction of stature (ANSUR II): the 95th male's factor the statures' ratio cubed (1.2335),
    the 5th female's (0.03630 x 1.501 / (0.0394 x 1.753))^3 = 0.4909; the note's source says the
    factor; the ankle's levels (no size rule) stay the file's."""
    prop = proportions()
    stature = prop["percentile"][sex][str(percentile)][0]
    reference = prop["percentile"]["male"]["50"][0]
    ratio = neck_circumference(stature, prop, sex) / neck_circumference(reference, prop)
    assert ratio == pytest.approx(_neck_ratio(sex, percentile), rel=1e-12)
    if sex == "male":
        assert ratio == pytest.approx(stature / reference, rel=1e-12)
    levels = failure_levels(build(sex=sex, percentile=percentile))
    for end, published in (("upper", FLEXION_LEVEL), ("lower", EXTENSION_LEVEL)):
        level = levels["upper_neck_y"][end]
        assert level.scale == pytest.approx(ratio ** 3, rel=1e-12)
        assert level.moment == pytest.approx(published * ratio ** 3, rel=1e-12)
        assert f"x {level.scale:.3f}" in level.source and "Mertz et al. 2003" in level.source
    assert levels["left_ankle_y"]["lower"].moment == 33.1
    assert levels["left_ankle_y"]["lower"].scale == 1.0


def test_reference_the_small_females_factor_is_the_dummies_intercept_ratio():
    """The 5th female's neck factor, 0.491, lies within 0.02 of FMVSS 208's Nij moment intercepts
    for the 5th female dummy over the 50th male's (155 / 310 flexion, 67 / 135 extension: 0.50,
    crash-domain-facts.md 2.2), which scale the dummies' necks the same way; 0.02 is the spread
    of the survey itself (its women's 5th percentile over its men's median, 340 / 433 mm, gives
    0.484). The men's ratio to stature gave her 0.628."""
    scale = failure_levels(build(sex="female", percentile=5))["upper_neck_y"]["upper"].scale
    for fifth, fiftieth in ((155.0, 310.0), (67.0, 135.0)):
        assert abs(scale - fifth / fiftieth) < 0.02


@pytest.mark.parametrize("peak, noted", [(150.0, True), (110.0, True), (90.0, False)])
def test_analytic_the_small_females_neck_fails_under_the_50th_males_level(human, peak, noted):
    """``peak`` N m 15 deg past the flexion end: under the 50th male's 190 N m (no note); over the
    5th female's scaled level, 190 x 0.4909 = 93.3 N m, a note naming it (110 N m: under the 119.3
    the men's ratio to stature gave her); under it (90 N m) none."""
    res = _swing(15.0, peak)
    assert joint_failures(human, res) == []
    female = build(sex="female", percentile=5)
    found = joint_failures(female, res)
    if not noted:
        assert found == []
        return
    (f,) = found
    level = failure_levels(female)["upper_neck_y"]["upper"]
    assert (f.element, f.end, f.failure) == ("upper_neck_y", "upper", level.moment)
    assert f.failure == pytest.approx(FLEXION_LEVEL * _neck_ratio("female", 5) ** 3, rel=1e-12)
    assert f.moment / f.failure == pytest.approx(peak / f.failure, rel=1e-12)


def test_reference_an_unknown_size_rule_is_named_with_its_file_and_key(tmp_path):
    """A copied data folder whose neck row names a size rule the file does not give: the reader
    names the copy, the key and the rules it accepts."""
    text = (SHIPPED / FILE).read_text()
    row = '\nsize = "neck"'     # the flexion row's, the first
    assert text.count(row) == 4     # flexion, extension, lateral bending both ways
    (tmp_path / FILE).write_text(text.replace(row, '\nsize = "nose"', 1))
    with reading_from(tmp_path), pytest.raises(HumanDataError) as err:
        read_levels(["upper_neck_y"], size_ratios={"neck": 1.0})
    assert str(tmp_path / FILE) in str(err.value)
    assert "upper_neck.y.upper.size" in str(err.value) and "'nose'" in str(err.value)
    assert "(accepted: neck)" in str(err.value)


#: the upper neck's lateral bending range (deg): data/joint_rom.toml, two joints
UPPER_LATERAL_RANGE = read_data("joint_rom.toml")["upper_neck"]["x"]
#: PMHS head-necks bent laterally (heads pre-rotated): peak coronal moments at the condyles 27-38
#: N m, atlas fractures in 4 of 5 (Yoganandan et al. 2024, abstract); the level is the top
LATERAL_LEVEL = 38.0
#: a range end's index in joint_rom.toml's [lower, upper]
ENDS_INDEX = {"lower": 0, "upper": 1}


def _lateral_swing(end, past_deg, peak):
    """Outputs of the upper neck bent at a constant rate past its lateral range end ``end``
    ("upper": x positive, to the right; "lower": to the left) by ``past_deg`` and back, its
    resisting moment rising linearly to ``peak`` N m (as ``_swing``, about x)."""
    sign = 1.0 if end == "upper" else -1.0
    edge = UPPER_LATERAL_RANGE[1 if end == "upper" else 0]
    t = np.linspace(0.0, 0.02, 201)
    deg = edge + sign * past_deg * (1.0 - np.abs(t - 0.01) / 0.005)
    resisting = peak * np.clip(sign * (deg - edge), 0.0, None) / past_deg
    return SimpleNamespace(t=t, outputs={"upper_neck_x.deflection": np.radians(deg),
                                         "upper_neck_x.load": -sign * resisting})


def test_reference_upper_neck_lateral_failure_levels_from_the_file(human):
    """The upper neck's lateral bending has a failure level at both ends of its range (data/
    joint_failure.toml [upper_neck.x], the PMHS lateral bending of Yoganandan et al. 2024, the
    top of its 27-38 N m), read from the file with its motion and source, at the range ends of
    data/joint_rom.toml (28.8 deg each way), where the neck has no stop (its lateral branch is
    the tissue's); the 50th male's, unscaled; below the branch's own 57 N m stop level (data/
    joint_passive.toml, [E]); none at C7/T1."""
    rows = read_data(FILE)["upper_neck"]["x"]
    levels = failure_levels(human)["upper_neck_x"]
    assert sorted(levels) == ["lower", "upper"]
    e = human.joint_resistance_names.index("upper_neck_x")
    for end, motion in (("upper", "right lateral bending"), ("lower", "left lateral bending")):
        level, row = levels[end], rows[end]
        assert (level.motion, level.moment, level.angle, level.scale) == (
            row["motion"], row["moment"], None, 1.0)
        assert (level.motion, level.moment) == (motion, LATERAL_LEVEL)
        assert level.source == row["source"] and "Yoganandan et al. 2024" in level.source
        assert math.degrees(level.range_end) == pytest.approx(
            UPPER_LATERAL_RANGE[ENDS_INDEX[end]], abs=1e-12)
        bounds = (human.joint_resistance.lower[e], human.joint_resistance.upper[e])
        assert math.isinf(bounds[ENDS_INDEX[end]])
    branch = read_data("joint_passive.toml")["upper_neck"]["x"]
    assert LATERAL_LEVEL < branch["stop_upper"] and LATERAL_LEVEL < branch["stop_lower"]
    assert "lower_neck_x" not in failure_levels(human)



@pytest.mark.parametrize("end, past_deg, peak, predicted", [
    ("lower", 22.0, 138.0, True),     # the belted sled's clavicle route: 51 deg, 138 N m (HISTORY)
    ("upper", 15.0, 57.0, True),      # to the branch's stop level
    ("lower", 3.0, 40.0, True),       # within the 5 deg a stopped joint may overrun
    ("upper", 15.0, 37.0, False), ("lower", 10.0, 37.9, False)])
def test_analytic_the_neck_bent_sideways_past_its_level_is_a_predicted_injury(
        human, end, past_deg, peak, predicted):
    """Bent sideways past its range end by ``past_deg`` with ``peak`` N m: over the lateral level
    a predicted injury at that end (the note names the side, the peak, its time, the time past
    the end and the closed-form work: the ramp's triangle less its first of N = 50 slices); under
    it none. On main (no lateral level) none at all."""
    found = joint_failures(human, _lateral_swing(end, past_deg, peak))
    if not predicted:
        assert found == []
        return
    (f,) = found
    motion = "right lateral bending" if end == "upper" else "left lateral bending"
    assert (f.element, f.end, f.motion, f.failure) == ("upper_neck_x", end, motion, LATERAL_LEVEL)
    assert f.moment == pytest.approx(peak, rel=1e-12) and f.t == pytest.approx(0.01, abs=1e-12)
    assert f.t_past == pytest.approx(0.0051, abs=1e-12)
    assert f.work == pytest.approx(peak * math.radians(past_deg) / 2.0 * (1.0 - 1.0 / 50 ** 2),
                                   rel=1e-9)
    assert f"upper neck x ({motion}) past its range end" in f.text()
    assert "Yoganandan et al. 2024" in f.text()


def test_analytic_the_lateral_level_scales_with_the_neck(human):
    """The lateral level scales as the neck's other levels (neck circumference ratio cubed): 45 N
    m 15 deg past the end is a note for the 50th male (38 N m) and none for the 95th male
    (38 x 1.2335 = 46.9 N m); 25 N m none for the 50th male and a note for the 5th female (38 x
    0.4909 = 18.7 N m)."""
    big, small = build(sex="male", percentile=95), build(sex="female", percentile=5)
    for model, ratio in ((big, _neck_ratio("male", 95)), (small, _neck_ratio("female", 5))):
        level = failure_levels(model)["upper_neck_x"]["lower"]
        assert level.moment == pytest.approx(LATERAL_LEVEL * ratio ** 3, rel=1e-12)
    res = _lateral_swing("lower", 15.0, 45.0)
    assert len(joint_failures(human, res)) == 1 and joint_failures(big, res) == []
    res = _lateral_swing("upper", 15.0, 25.0)
    assert joint_failures(human, res) == [] and len(joint_failures(small, res)) == 1
