"""Crash dummies and parametric human bodies (issue 4): the dummy loader with validation, the
anthropometry tables and parametric builder, joint resistance values, postures and the Part 572
certification runners."""
from occupant.human.errors import DummyFileError, HumanParameterError
from occupant.human.loader import load_dummy, available_dummies
from occupant.human.builder import build
from occupant.human.posture import position, load_posture, joint_angles, torso_angle

__all__ = ["DummyFileError", "HumanParameterError", "load_dummy", "available_dummies", "build",
           "position", "load_posture", "joint_angles", "torso_angle"]
