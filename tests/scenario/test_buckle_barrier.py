"""The shoulder belt's barrier before the buckle as a scenario names it (``[restraints.belt]
buckle_barriers``, occupant.scenario.restraints.barrier_wraps): one barrier wrap on an occupant
ellipsoid on the shoulder belt's last piece, placed from the buckle (``Wrap.barrier`` before a
fixed point: tests/restraints/test_belt_barrier.py), so the straight piece from the chest wrap
to the buckle can be kept out of the pelvis or abdomen it otherwise cuts (scenarios/HISTORY.md,
beltdefect, beltabdomen, buckbar); bad input named by its key. None shipped (buckbar: the
dummies' runs step or jump with it)."""
import pytest

from occupant.modeling.belts import Wrap
from occupant.scenario import load
from occupant.scenario.load import ScenarioError

NCAP = "us_ncap_frontal_56"        # no barrier on its shoulder belt
AEB = "aeb_precrash_frontal"       # neck_barrier on: its D-ring..buckle run has a barrier
PELVIS = {"pelvis_flesh": [0.0, -1.0, 1.0]}   # its inboard top (the driver's inboard is -y)
TWO_POINT = {"kind": "two_point", "d_ring": [-0.30, 0.25, 0.60], "buckle": [-0.10, -0.22, -0.15]}


def _points(name, overrides):
    return load(name, overrides=overrides).model.source.belts["belt"].points


def test_reference_buckle_barrier_stands_before_the_buckle():
    """Three-point belt: the barrier, named after its ellipsoid, is the last wrap of the
    shoulder belt, between the chest wrap and the buckle's slip ring, from the side given
    (normalised); the lap belt's wraps and the other points are unchanged."""
    points = _points(NCAP, {"restraints.belt.buckle_barriers": PELVIS})
    plain = [p.name for p in _points(NCAP, {})]
    names = [p.name for p in points]
    k = plain.index("buckle")
    assert names == plain[:k] + ["pelvis_flesh"] + plain[k:]
    wrap = points[k]
    assert isinstance(wrap, Wrap) and wrap.barrier and wrap.geometry == "pelvis_flesh"
    assert tuple(wrap.side) == pytest.approx((0.0, -2 ** -0.5, 2 ** -0.5), abs=1e-15)
    assert not any(getattr(p, "barrier", False) for p in _points(NCAP, {}))


def test_reference_buckle_barrier_of_a_two_point_belt_precedes_its_buckle():
    """A two-point belt (from its D-ring over the torso to the buckle): the barrier is its last
    wrap, before the buckle anchor."""
    names = [p.name for p in _points(NCAP, {"restraints.belt": {
        **TWO_POINT, "buckle_barriers": {"abdomen": [1.0, 0.0, 0.0]}}})]
    assert names[-2:] == ["abdomen", "buckle"] and names[0] == "d_ring"


@pytest.mark.parametrize("barriers, match", [
    ({"knee": [1.0, 0.0, 0.0]}, r"restraints.belt.buckle_barriers.knee: unknown ellipsoid.*pelvis_flesh"),
    ({"pelvis_flesh": [0.0, 0.0, 0.0]}, r"buckle_barriers.pelvis_flesh: the side must be a non-zero "
                                        r"direction"),
    ({"pelvis_flesh": [1.0, 0.0]}, r"buckle_barriers.pelvis_flesh: expected a list of 3"),
    ({"pelvis_flesh": [1.0, 0.0, 0.0], "abdomen": [1.0, 0.0, 0.0]},
     r"restraints.belt.buckle_barriers: one barrier at most \(it lies on the straight piece from "
     r"the chest to the buckle\)"),
    ({"thorax": [1.0, 0.0, 0.0]}, r"buckle_barriers.thorax: the belt wraps this ellipsoid already"),
])
def test_bad_buckle_barrier_names_its_key(barriers, match):
    """A buckle barrier on no ellipsoid, from no side, a second one, or on the ellipsoid the
    shoulder belt wraps: one message with the key's path."""
    with pytest.raises(ScenarioError, match=match):
        load(NCAP, overrides={"restraints.belt.buckle_barriers": barriers})


@pytest.mark.parametrize("name, overrides, upper", [
    (AEB, {}, "neck_shell"),                                              # its neck_barrier
    (NCAP, {"restraints.belt.barriers": {"abdomen": [1.0, 0.0, 0.0]}}, "abdomen"),
])
def test_reference_buckle_barrier_beside_an_upper_barrier_ends_the_same_run(name, overrides, upper):
    """A barrier after the D-ring (``neck_barrier``, ``barriers``) and the buckle's lie on one
    run of wraps, D-ring to buckle, one at each end (``Belt`` places each from its fixed point:
    tests/restraints/test_belt_two_barriers.py), the chest wraps between them."""
    points = _points(name, {**overrides, "restraints.belt.buckle_barriers": PELVIS})
    names = [p.name for p in points]
    run = points[names.index("d_ring") + 1:names.index("buckle")]
    assert [p.geometry for p in run if p.barrier] == [upper, "pelvis_flesh"]
    assert run[0].barrier and run[-1].barrier and not any(p.barrier for p in run[1:-1])


def test_reference_lap_belt_takes_a_barrier_at_each_end():
    """``lap_buckle_barriers`` on the lap belt's first piece (after the buckle's slip ring) and
    ``lap_barriers`` on its last (before the lap anchorage): its pelvis wraps between them."""
    points = _points(NCAP, {   # the driver's inboard (buckle) side is his right
        "restraints.belt.lap_buckle_barriers": {"right_thigh_shell": [1.0, 0.0, 0.0]},
        "restraints.belt.lap_barriers": {"left_thigh_shell": [1.0, 0.0, 0.0]}})
    names = [p.name for p in points]
    lap = points[names.index("buckle") + 1:-1]
    assert [p.geometry for p in lap if p.barrier] == ["right_thigh_shell", "left_thigh_shell"]
    assert lap[0].barrier and lap[-1].barrier and len(lap) == 5


def test_bad_buckle_barrier_on_a_lap_belt():
    """A lap belt has no shoulder belt: its buckle barrier is refused as its other shoulder
    keys are."""
    with pytest.raises(ScenarioError, match=r"restraints.belt.buckle_barriers: a lap belt does not use it"):
        load(NCAP, overrides={"restraints.belt": {"kind": "lap", "buckle": [-0.10, -0.22, -0.15],
                                                  "lap_anchor": [-0.15, 0.25, -0.20],
                                                  "buckle_barriers": PELVIS}})
