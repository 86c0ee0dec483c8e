"""The standard channel set of the Hybrid III dummies: ``default_sensors(model)``.

Head CG, chest (thoracic spine, at the upper-torso centre of mass) and pelvis accelerometers,
the chest (sternum-to-spine) deflection,
the upper-neck six-axis load cell, the left and right femur load cells and the upper and lower
tibia load cells of each lower leg (49 CFR 572 subpart E instrumentation; FMVSS 208, Euro NCAP
and UN R94 frontal criteria read these channels); the parametric human's stand-in for it
(``human_sensors``).
"""
from __future__ import annotations

import functools

import numpy as np

from occupant.sensors.declarations import Accelerometer, DisplacementSensor, LoadCell, SensorError
from occupant.sensors.evaluate import DUMMY_CODES, dummy_code

__all__ = ["default_sensors", "UPPER_NECK_LOAD_CELL_OFFSET", "FEMUR_LOAD_CELL_MARKER",
           "TIBIA_LOAD_CELL_MARKER"]

#: The upper-neck load cell sits this far above the occipital condyle along the head z axis, so
#: that M_OC = My - Fx * d [S: crash-domain-facts.md 2.1, pyisomme; Oasys T/HIS Nij] (HIII 5F,
#: 50M and 95M alike, as occupant.injury.criteria.OC_OFFSET).
UPPER_NECK_LOAD_CELL_OFFSET = 0.01778  # m

#: The femur cells' measuring point and axes: the upper leg's marker of that name in the dummy
#: files (dummies/tools/derive_hybrid3.py FEMUR_LOAD_CELL and FEMUR_CELL_NODES give its place,
#: its orientation and their sources).
FEMUR_LOAD_CELL_MARKER = "{side}_femur_load_cell"

#: The tibia cells' measuring points: the lower leg's markers of that name in the dummy files,
#: ``level`` upper (below the knee) or lower (above the ankle) (dummies/tools/derive_hybrid3.py
#: TIBIA_LOAD_CELLS gives their places and sources); their axes the lower leg's.
TIBIA_LOAD_CELL_MARKER = "{side}_{level}_tibia_load_cell"
#: (level, ISO-MME fine location 2, the joint it is read across) of the tibia cells
TIBIA_CELLS = (("upper", "UP", "knee"), ("lower", "LO", "ankle"))
#: the dummy whose tibia cells' places the parametric human's are scaled from (human_sensors)
TIBIA_REFERENCE = "hybrid3_50m"


def default_sensors(model):
    """Sensor declarations for a Hybrid III model (``hybrid3_50m``, ``hybrid3_05f``,
    ``hybrid3_95m``). The dummy files place the head frame's origin at the occipital condyle
    and the femur's distal end at the knee; the femur cells are read across the knee (the load
    of the lower leg on the femur) with moments about each upper leg's ``femur_load_cell``
    marker, on the femur d above the knee's pivot (the open FE decks' cell, the dummy files),
    and components along that marker's axes (the decks' cell skews: the 50M's turned 3.6 deg
    about the femur's y and -1.3 deg about its x from the hip-knee line, the 5F's -8.6 deg about
    y, the 95M's along the line). In the femur's axes the moment about y there is the knee
    hinge's own torque (friction, damping) plus d times the shear Fx; the cell reads that load
    along its own axes (its My the femur's for a pure pitch, the 5F's). The tibia cells read
    the load on the part above each cell in the lower leg's J211 axes (Fz < 0 compression), about
    the lower leg's ``upper_tibia_load_cell`` / ``lower_tibia_load_cell`` markers: the lower one
    across the ankle (the foot's load on the lower leg), the upper one across the knee as the
    reaction (the lower leg's load on the femur) less the loads on the lower leg itself (its
    contacts counted at the knee, above the cell: the sled scenarios' knee spheres), the tibia's
    mass between each cell and its joint neglected."""
    if getattr(getattr(model, "source", None), "header", {}).get("kind") == "human":
        return human_sensors(model)
    if dummy_code(model.name) == "00":
        raise SensorError(f"default_sensors: no default sensor set for model '{model.name}' "
                          f"(known: {', '.join(DUMMY_CODES)})")
    sensors = _trunk_sensors() + (
        LoadCell("Left femur", location="FEMR", fine1="LE", body="left_upper_leg", joint="left_knee",
                 marker=FEMUR_LOAD_CELL_MARKER.format(side="left")),
        LoadCell("Right femur", location="FEMR", fine1="RI", body="right_upper_leg", joint="right_knee",
                 marker=FEMUR_LOAD_CELL_MARKER.format(side="right")),
    ) + tuple(
        _tibia_cell(side, fine1, level, fine2, joint,
                    marker=TIBIA_LOAD_CELL_MARKER.format(side=side, level=level))
        for side, fine1 in (("left", "LE"), ("right", "RI"))
        for level, fine2, joint in TIBIA_CELLS)
    missing = _missing(model, sensors)
    if missing:
        raise SensorError(f"default_sensors: model '{model.name}' lacks {', '.join(missing)}; "
                          f"the Hybrid III set needs the full dummy")
    return sensors


def _tibia_cell(side, fine1, level, fine2, joint, **where):
    """One tibia cell (``default_sensors``: the upper one read across the knee as the
    reaction less the lower leg's own loads, the lower one across the ankle), at a marker or a
    point of the lower leg (``where``)."""
    return LoadCell(f"{side.title()} {level} tibia", location="TIBI", fine1=fine1, fine2=fine2,
                    body=f"{side}_lower_leg", joint=f"{side}_{joint}", reaction=level == "upper",
                    body_loads_above=level == "upper", **where)


def _ankle(model, side):
    """(3,) m: the ankle's centre in the lower leg's frame (its foot's joint location)."""
    return np.asarray(model.source.joints[f"{side}_ankle"].placement.position, float)


def _missing(model, sensors):
    """Sorted names of the bodies, joints and markers ``sensors`` read that ``model`` lacks."""
    return sorted({s.body for s in sensors if s.body not in model.index["body"]}
                  | {s.joint for s in sensors if isinstance(s, LoadCell) and s.joint not in model.index["joint"]}
                  | {s.marker for s in sensors if s.marker is not None and s.marker not in model.index["marker"]})


def _trunk_sensors():
    """Head, upper neck, chest (acceleration, deflection) and pelvis, as the Hybrid III's and
    the parametric human's sets place them."""
    return (
        Accelerometer("Head CG", location="HEAD", body="head", point="cg"),
        LoadCell("Upper neck", location="NECK", fine1="UP", body="head", joint="upper_neck",
                 point=(0.0, 0.0, UPPER_NECK_LOAD_CELL_OFFSET)),
        Accelerometer("Chest", location="CHST", body="upper_torso", point="cg"),
        # the sternum's travel on its chest joint relative to the spine box, in the chest's J211 x
        # (compression negative, crash-domain-facts 0.1); change since t0, so the torso point
        # does not matter
        DisplacementSensor("Chest deflection", location="CHST", body="upper_torso", point="cg",
                           to_body="sternum", to_point=(0.0, 0.0, 0.0), directions=("x",)),
        Accelerometer("Pelvis", location="PELV", body="pelvis", point="cg"),
    )


@functools.lru_cache(maxsize=None)
def tibia_cell_fractions(dummy=TIBIA_REFERENCE):
    """{level: the ``dummy``'s tibia cell's depth below the knee as a fraction of its knee-ankle
    length}, read from its dummy file (the left lower leg's TIBIA_LOAD_CELL_MARKER markers and
    the ankle's place in the lower leg's frame, both on the knee-ankle line): the 50M's upper
    cell 100.0 mm and lower cell 327.6 mm below the knee of 405.6 mm, 0.2465 and 0.8077."""
    from occupant.human.loader import load_description
    _, segments = load_description(dummy)
    leg = next(s for s in segments if s.name == "left_lower_leg")
    ankle = next(s for s in segments if s.parent == leg.name).location
    return {level: float(leg.markers[TIBIA_LOAD_CELL_MARKER.format(side="left", level=level)]
                         .position @ ankle / (ankle @ ankle))
            for level in ("upper", "lower")}


#: the Hybrid IIIs a parametric human's channels are read as when no regulation names a dummy:
#: of its sex, the one nearest its stature (their headers' statures, dummies/*.toml)
HUMAN_STAND_INS = {"male": ("hybrid3_50m", "hybrid3_95m"), "female": ("hybrid3_05f",)}


def human_stand_in(header, dummy_file=None):
    """The dummy whose criteria constants (M_OC's offset, Nij's intercepts, VC's) a parametric
    human of ``header`` (occupant.human.build's: sex, stature) is evaluated with where no
    regulation names one (HUMAN_STAND_INS): a measuring convention, as ``human_sensors``.
    ``dummy_file(name)``: the path each candidate's stature is read from (default: its shipped
    file; a run reads its own copies, occupant.scenario.load)."""
    from occupant.human.loader import load_description
    read = dummy_file or (lambda name: name)
    return min(HUMAN_STAND_INS[header["sex"]],
               key=lambda name: abs(load_description(str(read(name)))[0]["stature"]
                                    - header["stature"]))


def human_sensors(model):
    """The parametric human's stand-in for the Hybrid III set (occupant.human.build: its head
    frame's origin is the occipital condyles and its sternum rides a chest joint, as the
    dummies'): the head, upper-neck, chest and pelvis channels at the Hybrid III's places, the
    neck read UPPER_NECK_LOAD_CELL_OFFSET above the condyles so that the dummy's M_OC transfer
    holds; femur loads across each knee at its centre, in the upper leg's axes (a human has no
    load cell: no marker, no cell's skew); upper and lower tibia loads at the TIBIA_REFERENCE's
    cells' places scaled by the human's knee-ankle length (``tibia_cell_fractions``, on its
    knee-ankle line, in the lower leg's axes), read from the knee's and ankle's reactions as
    the dummy's are (``default_sensors``). A measuring convention, not a human injury
    criterion: scenarios/README.md."""
    fractions = tibia_cell_fractions()
    sensors = _trunk_sensors() + tuple(
        LoadCell(f"{side.title()} femur", location="FEMR", fine1=fine1, body=f"{side}_upper_leg",
                 joint=f"{side}_knee")
        for side, fine1 in (("left", "LE"), ("right", "RI"))) + tuple(
        _tibia_cell(side, fine1, level, fine2, joint,
                    point=tuple(float(x) for x in fractions[level] * _ankle(model, side)))
        for side, fine1 in (("left", "LE"), ("right", "RI"))
        for level, fine2, joint in TIBIA_CELLS)
    missing = _missing(model, sensors)
    if missing:
        raise SensorError(f"default_sensors: model '{model.name}' lacks {', '.join(missing)}")
    return sensors
