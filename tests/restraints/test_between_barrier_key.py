"""The barrier between the shoulder belt's shoulder and chest wraps as a scenario names it
(``[restraints.belt] between_barriers``, occupant.scenario.restraints.barrier_wraps): one
barrier wrap on an occupant ellipsoid placed with the two wraps on either side of it
(``modeling.belts`` point_barrier 2, BETWEEN: tests/restraints/test_belt_between_held.py), the
human's upper arm on that piece (scenarios/HISTORY.md, beltheld, barrierkey); bad input named by
its key. Not shipped: no scenario sets it."""
import pytest

from occupant.modeling.belts import Wrap
from occupant.restraints.wrap_chain import BETWEEN
from occupant.scenario import load
from occupant.scenario.load import ScenarioError

SLED = "fmvss208_sled_48_belted"
HUMAN = {"occupant.human.sex": "male"}
ARM = {"right_upper_arm_shell": [1.0, 1.0, 0.0]}
KEY = "restraints.belt.between_barriers"


def _points(name, overrides):
    return load(name, overrides=overrides).model.source.belts["belt"].points


def test_between_barrier_stands_between_the_shoulder_and_chest_wraps():
    """The human's sled belt: the barrier, named after its ellipsoid, right after the shoulder
    wrap and before the chest wrap, from the side given (normalised); every other point as
    without the key; the model marks it BETWEEN."""
    plain = [p.name for p in _points(SLED, HUMAN)]
    run = load(SLED, overrides={**HUMAN, KEY: ARM})
    points = run.model.source.belts["belt"].points
    names = [p.name for p in points]
    k = plain.index("chest")
    assert plain[k - 1] == "shoulder"
    assert names == plain[:k] + ["right_upper_arm"] + plain[k:]
    wrap = points[k]
    assert isinstance(wrap, Wrap) and wrap.barrier and wrap.geometry == "right_upper_arm_shell"
    assert tuple(wrap.side) == pytest.approx((2 ** -0.5, 2 ** -0.5, 0.0), abs=1e-15)
    assert not any(getattr(p, "barrier", False) for p in _points(SLED, HUMAN))
    block = run.model.bundle().belts
    assert list(block.point_barrier).count(BETWEEN) == 1


@pytest.mark.parametrize("barriers, message", [
    ({"elbow": [1.0, 0.0, 0.0]}, r"restraints.belt.between_barriers.elbow: unknown ellipsoid"),
    ({"right_upper_arm_shell": [0.0, 0.0, 0.0]},
     r"between_barriers.right_upper_arm_shell: the side must be a non-zero direction"),
    ({"right_upper_arm_shell": [1.0, 0.0]}, r"between_barriers.right_upper_arm_shell: expected a list of 3"),
    ({"right_upper_arm_shell": [1.0, 1.0, 0.0], "left_upper_arm_shell": [1.0, 1.0, 0.0]},
     r"restraints.belt.between_barriers: one barrier at most \(it lies on the straight piece from "
     r"the shoulder wrap to the chest wrap\)"),
    ({"thorax": [1.0, 0.0, 0.0]}, r"between_barriers.thorax: the belt wraps this ellipsoid already"),
])
def test_bad_between_barriers_are_refused_by_their_key(barriers, message):
    with pytest.raises(ScenarioError, match=message):
        load(SLED, overrides={**HUMAN, KEY: barriers})


def test_a_lap_belt_refuses_between_barriers():
    with pytest.raises(ScenarioError, match=r"restraints.belt.between_barriers: a lap belt does not use it"):
        load(SLED, overrides={"restraints.belt": {"kind": "lap", "between_barriers": ARM}})
