"""The belt load cells' declarations (occupant.sensors.belt): on which segment each lies, by the
belt's named points; the runs' channels are tested in tests/scenario/test_belt_kinds.py."""
from types import SimpleNamespace as NS

import pytest

from occupant.modeling.belts import Anchor, Belt, SlipRing, Wrap, gs1_webbing
from occupant.sensors import SensorError, belt_sensors


def _belt(name, points):
    return Belt(name, points, gs1_webbing())


def test_analytic_each_cell_on_the_segment_next_to_its_point_towards_the_other():
    three = _belt("b", [Anchor("retractor", (-0.3, 0.3, 0.0)), SlipRing("d_ring", (-0.3, 0.3, 0.6)),
                        Wrap("shoulder", "thorax"), Wrap("chest", "thorax"), SlipRing("buckle", (0, -0.2, 0)),
                        Wrap("hip_inboard", "pelvis"), Wrap("hip_outboard", "pelvis"),
                        Anchor("lap_anchor", (-0.1, 0.3, -0.1))])
    cells = belt_sensors(NS(source=NS(belts={"b": three})))
    assert [(s.fine3, s.source) for s in cells] == [
        ("B3", "outputs/b.d_ring-shoulder.force"), ("B4", "outputs/b.chest-buckle.force"),
        ("B5", "outputs/b.buckle-hip_inboard.force"), ("B6", "outputs/b.hip_outboard-lap_anchor.force")]
    assert {(s.location, s.fine1, s.fine2, s.dimension, s.direction, s.unit) for s in cells} == {
        ("SEBE", "00", "00", "FO", "0", "N")}
    # a lap belt laid the other way (lap anchor first): the same cells on its own segments
    lap = _belt("lap", [Anchor("lap_anchor", (-0.1, 0.3, -0.1)), Wrap("lap", "pelvis"),
                        Anchor("buckle", (0, -0.2, 0))])
    assert [(s.fine3, s.source) for s in belt_sensors(NS(source=NS(belts={"lap": lap})))] == [
        ("B5", "outputs/lap.lap-buckle.force"), ("B6", "outputs/lap.lap_anchor-lap.force")]
    assert belt_sensors(NS()) == () and belt_sensors(NS(source=NS(belts={}))) == ()


def test_reference_two_belts_with_one_cell_are_refused_naming_both():
    def shoulder(name):
        return _belt(name, [Anchor("d_ring", (0, 0, 1)), Wrap("chest", "thorax"), Anchor("buckle", (0, 0, 0))])
    with pytest.raises(SensorError, match="belts 'a' and 'b' both have a B3 cell"):
        belt_sensors(NS(source=NS(belts={"a": shoulder("a"), "b": shoulder("b")})))
