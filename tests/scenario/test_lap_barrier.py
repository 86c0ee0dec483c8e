"""The lap belt's barrier as a scenario names it (``[restraints.belt] lap_barriers``,
occupant.scenario.restraints.barrier_wraps): one barrier wrap on an occupant ellipsoid on the lap
belt's piece to its outboard anchorage, placed from it (``Wrap.barrier`` before a fixed point:
tests/restraints/test_belt_barrier.py), e.g. the parametric human's outboard thigh, which the
lap belt otherwise passes through (scenarios/HISTORY.md, lapthigh, lapbarrier, thighkey); bad
input named by its key. None shipped."""
import pytest

from occupant.modeling.belts import Wrap
from occupant.scenario import load
from occupant.scenario.load import ScenarioError

SLED = "fmvss208_sled_48_belted"   # its outboard side -y: the occupant's right
HUMAN = {"occupant.human.sex": "male"}
THIGH = {"right_thigh_shell": [1.0, 0.0, 0.0]}   # its top, seated (x forward when standing)


def _points(overrides):
    sc = load(SLED, overrides={**HUMAN, **overrides})
    return sc.model.source.belts, sc.model.source.geometries


def test_reference_lap_barrier_stands_before_the_lap_anchorage():
    """Three-point belt: the barrier, named after its ellipsoid, is the last wrap, between the
    pelvis's outboard hip wrap and the lap anchorage, from the side given; the shoulder belt's
    wraps are unchanged."""
    belts, _ = _points({"restraints.belt.lap_barriers": THIGH})
    plain, _ = _points({})
    names = [p.name for p in belts["belt"].points]
    assert names == [p.name for p in plain["belt"].points][:-1] + ["right_thigh", "lap_anchor"]
    wrap = belts["belt"].points[-2]
    assert isinstance(wrap, Wrap) and wrap.barrier
    assert wrap.geometry == "right_thigh_shell" and tuple(wrap.side) == (1.0, 0.0, 0.0)
    assert not any(getattr(p, "barrier", False) for p in plain["belt"].points)


def test_reference_lap_barrier_of_a_lap_belt_follows_its_anchorage():
    """A lap belt (``kind = "lap"``, listed from its outboard anchorage): the barrier is its first
    wrap, after the lap anchorage."""
    belts, _ = _points({"restraints.belt": {"kind": "lap", "lap_across": 0.3, "lap_barriers": THIGH,
                                            "buckle": [-0.10, 0.22, -0.15],
                                            "lap_anchor": [-0.15, -0.25, -0.20]}})
    assert [p.name for p in belts["belt"].points] == [
        "lap_anchor", "right_thigh", "hip_outboard", "lap", "hip_inboard", "buckle"]
    assert belts["belt"].points[1].barrier


@pytest.mark.parametrize("barriers, match", [
    ({"knee": [1.0, 0.0, 0.0]}, r"restraints.belt.lap_barriers.knee: unknown ellipsoid.*right_thigh_shell"),
    ({"right_thigh_shell": [0.0, 0.0, 0.0]}, r"lap_barriers.right_thigh_shell: the side must be a "
                                             r"non-zero direction"),
    ({"right_thigh_shell": [1.0, 0.0]}, r"lap_barriers.right_thigh_shell: expected a list of 3"),
    ({"right_thigh_shell": [1.0, 0.0, 0.0], "left_thigh_shell": [1.0, 0.0, 0.0]},
     r"restraints.belt.lap_barriers: one barrier at most \(it lies on the straight piece from the "
     r"lap anchorage\)"),
    ({"lap_belt_pelvis": [1.0, 0.0, 0.0]}, r"lap_barriers.lap_belt_pelvis: the belt wraps this "
                                           r"ellipsoid already"),
])
def test_bad_lap_barrier_names_its_key(barriers, match):
    """A lap barrier on no ellipsoid, from no side, a second one, or on the ellipsoid the lap belt
    wraps: one message with the key's path."""
    with pytest.raises(ScenarioError, match=match):
        load(SLED, overrides={**HUMAN, "restraints.belt.lap_barriers": barriers})


def test_bad_lap_barrier_on_a_two_point_belt():
    """A two-point belt has no lap belt: its lap barrier is refused as its other lap keys are."""
    with pytest.raises(ScenarioError, match=r"restraints.belt.lap_barriers: a two_point belt does not use it"):
        load(SLED, overrides={"restraints.belt": {"kind": "two_point", "d_ring": [-0.30, -0.25, 0.60],
                                                  "buckle": [-0.10, 0.22, -0.15], "lap_barriers": THIGH}})


@pytest.mark.parametrize("segment", ["belt.hip_outboard-lap_anchor", "belt.right_thigh-lap_anchor",
                                     "lap_belt.lap_anchor-hip_outboard", "lap_belt.lap_anchor-right_thigh"])
def test_reference_validation_reads_the_lap_belt_beside_its_anchorage(segment):
    """The belted sled validation's lap belt force is the segment at the outboard lap anchorage
    (B6's) whichever wrap stands beside it: with a lap barrier GS1's validation read the fixed
    name lap_anchor-hip_outboard and stopped with a KeyError (branch thighkey)."""
    from occupant.human.validation import _lap_anchor_segment
    outputs = {f"{s}.force": None for s in ("belt.d_ring-shoulder", "belt.buckle-hip_inboard",
                                             "belt.lap-hip_outboard", segment)}
    outputs[f"{segment}.length"] = None
    assert _lap_anchor_segment(outputs) == segment
