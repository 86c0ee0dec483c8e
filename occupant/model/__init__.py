"""The frozen runtime Model (flat arrays, name maps), joint types, State, Data and base motion."""
from occupant.model.joint_types import JointType
from occupant.model.model import Model, KinTree, ModelError
from occupant.model.data import Data
from occupant.model.base_motion import BaseMotion

__all__ = ["JointType", "Model", "KinTree", "ModelError", "Data", "BaseMotion"]
