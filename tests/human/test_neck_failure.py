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
from occupant.human.data_folder import read_data
from occupant.human.joint_failure import failure_levels
from occupant.scenario.defects import joint_failures, motion_defects

#: the upper neck's flexion range end (deg): data/joint_rom.toml, two joints / three joints
#: (neck_mid: the condyles take M/2 + U)
UPPER_FLEXION_END = {False: read_data("joint_rom.toml")["upper_neck"]["y"][1],
                     True: read_data("joint_rom.toml")["upper_neck_of_three"]["y"][1]}


@pytest.fixture(scope="module")
def human():
    return build(sex="male", percentile=50)


def test_reference_upper_neck_flexion_failure_is_the_branch_level(human):
    """The failure level is the PMHS ligament-damage moment that the flexion branch is built to
    reach 15 deg past the range (the same figure and source in data/joint_passive.toml), at the
    flexion (upper) end of the condyles' range; C7/T1 and the other neck coordinates have
    none."""
    levels = failure_levels(human)
    assert sorted(k for k in levels if "neck" in k) == ["upper_neck_y"]
    level = levels["upper_neck_y"]["upper"]
    assert (level.motion, level.moment, level.angle) == ("flexion", 190.0, None)
    assert level.moment == read_data("joint_passive.toml")["upper_neck"]["y"]["stop_upper"]
    assert "Mertz & Patrick 1971" in level.source
    assert math.degrees(level.range_end) == pytest.approx(UPPER_FLEXION_END[False], abs=1e-12)
    assert list(levels["upper_neck_y"]) == ["upper"]
    e = human.joint_resistance_names.index("upper_neck_y")
    assert math.isinf(human.joint_resistance.upper[e])      # no stop: the branch is the tissue's


def test_reference_three_joint_neck_reads_its_own_range_end():
    """With the neck's third joint (neck_mid) the condyles' range is their own section's
    (upper_neck_of_three), and so is the failure level's range end."""
    level = failure_levels(build(sex="male", percentile=50, neck_mid=True))["upper_neck_y"]["upper"]
    assert UPPER_FLEXION_END[True] != UPPER_FLEXION_END[False]
    assert math.degrees(level.range_end) == pytest.approx(UPPER_FLEXION_END[True], abs=1e-12)


def _swing(past_deg, peak):
    """Outputs of the upper neck turned at a constant rate into its flexion range end at 5 ms,
    ``past_deg`` beyond it at 10 ms and back at 15 ms, its resisting moment rising linearly from
    0 at the range end to ``peak`` (N m) at the deepest point (the joint's load is minus the
    resisting moment); samples every 1e-4 s, N = 50 of them from the range end to the deepest
    point."""
    end = UPPER_FLEXION_END[False]
    t = np.linspace(0.0, 0.02, 201)
    deg = end + past_deg * (1.0 - np.abs(t - 0.01) / 0.005)
    resisting = peak * np.clip(deg - end, 0.0, None) / past_deg
    return SimpleNamespace(t=t, outputs={"upper_neck_y.deflection": np.radians(deg),
                                         "upper_neck_y.load": -resisting})


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
