"""The seat belt's load cells as channels: ``belt_sensors(model)``.

ISO/TS 13499 names a belt force channel by the main location SEBE and, in fine location 3 (the
place the dummy type takes on a dummy's channels), where on the belt the cell sits [S: ISO/TS
13499 RED B via pyisomme channel_codes.xml, crash-domain-facts.md 3.4; e.g. the shoulder belt
force ``11SEBE0000B3FO0D``]: B1 at the retractor, B2 below the belt loop (the D-ring), B3 the
upper diagonal belt, B4 the lower diagonal belt, B5 the lap belt inside, B6 the lap belt
outside. A belt's force is a tension along the webbing: direction 0 (none).

The cells read the segment forces the belt producer records (``<belt>.<a>-<b>.force``,
occupant.modeling.belts.Belt), through ``ArraySensor`` (the sensors' one reader of recorded
outputs), raw (filter class 0, as every channel of a run's export; SAE J211 filters belt loads
at CFC 60 [S: crash-domain-facts.md 3.1]). A cell lies on the segment that leaves the point it is
named after towards the belt's other named point: B3 the segment after the upper anchorage
(``d_ring``) towards the ``buckle``, B4 the segment reaching the buckle from the D-ring's side,
B5 the segment leaving the buckle towards the outboard lap anchorage (``lap_anchor``), B6 the
segment reaching it (the scenario belts' point names, occupant.scenario.restraints.build_belt).
B1 and B2 are not written: the model's webbing from the retractor to the D-ring is one segment,
so both would read the spool's force, which the belt's outputs hold already.
"""
from __future__ import annotations

from occupant.sensors.declarations import ArraySensor, SensorError

__all__ = ["BELT_LOAD_CELLS", "belt_sensors"]

#: (fine location 3, channel name, the point the cell's segment leaves, the point it heads for)
BELT_LOAD_CELLS = (
    ("B3", "Upper shoulder belt force", "d_ring", "buckle"),
    ("B4", "Lower shoulder belt force", "buckle", "d_ring"),
    ("B5", "Inboard lap belt force", "buckle", "lap_anchor"),
    ("B6", "Outboard lap belt force", "lap_anchor", "buckle"),
)


def _segment(belt, start, towards):
    """The name of ``belt``'s segment that leaves point ``start`` towards point ``towards``, or
    None when the belt lacks either point."""
    names = [p.name for p in belt.points]
    if start not in names or towards not in names:
        return None
    i, j = names.index(start), names.index(towards)
    k = i + (1 if j > i else -1)
    a, b = sorted((i, k))
    return belt.segment_names[a]


def belt_sensors(model):
    """``ArraySensor`` declarations of the B3-B6 belt load cells of ``model``'s belts (read from
    its editable assembly ``model.source``; none without one or without belts), in
    BELT_LOAD_CELLS order, each on the first belt that has its segment. Two belts with the
    same cell (two occupants' shoulder belts) are refused: declare their cells by hand with
    fine location 2 apart."""
    belts = getattr(getattr(model, "source", None), "belts", {}) or {}
    out, seen = [], {}
    for fine3, name, start, towards in BELT_LOAD_CELLS:
        for belt in belts.values():
            segment = _segment(belt, start, towards)
            if segment is None:
                continue
            if fine3 in seen:
                raise SensorError(f"belt_sensors: belts '{seen[fine3]}' and '{belt.name}' both have "
                                  f"a {fine3} cell; declare their ArraySensors with fine2 apart")
            seen[fine3] = belt.name
            out.append(ArraySensor(name, location="SEBE", fine1="00", fine2="00", fine3=fine3,
                                   source=f"outputs/{belt.name}.{segment}.force", unit="N",
                                   dimension="FO", direction="0"))
    return tuple(out)
