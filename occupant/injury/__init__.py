"""Injury assessment: SAE J211 / ISO 6487 filters, injury criteria, limits and scoring.

Pure functions on channels (time in s and values); this package never calls the solver
(conventions.md rule 12: ``occupant.injury`` does not import ``occupant.dynamics``).
"""

from occupant.injury.errors import InjuryInputError
from occupant.injury.filters import CFC_CLASSES, cfc_coefficients, cfc_filter
from occupant.injury.criteria import (
    BRIC_CRITICAL,
    CRITERION_CFC,
    NIJ_INTERCEPTS,
    TIBIA_CRITICAL,
    VC_CONSTANTS,
    CriterionResult,
    bric,
    chest_deflection,
    clip3ms,
    exceedance_curve,
    exceedance_level,
    femur_force,
    hic,
    moment_at_occipital_condyle,
    neck_peaks,
    nic,
    nij,
    nkm,
    NKM_INTERCEPTS,
    pelvis_acceleration,
    resultant,
    tibia_index,
    viscous_criterion,
)
from occupant.injury.limits import PROTOCOLS, Assessment, Limit, Protocol, assess, sliding_points
from occupant.injury import evaluate

__all__ = [
    "InjuryInputError",
    "CFC_CLASSES",
    "cfc_coefficients",
    "cfc_filter",
    "BRIC_CRITICAL",
    "CRITERION_CFC",
    "NIJ_INTERCEPTS",
    "TIBIA_CRITICAL",
    "VC_CONSTANTS",
    "CriterionResult",
    "bric",
    "chest_deflection",
    "clip3ms",
    "exceedance_curve",
    "exceedance_level",
    "femur_force",
    "hic",
    "moment_at_occipital_condyle",
    "neck_peaks",
    "nic",
    "nij",
    "nkm",
    "NKM_INTERCEPTS",
    "pelvis_acceleration",
    "resultant",
    "tibia_index",
    "viscous_criterion",
    "PROTOCOLS",
    "Assessment",
    "Limit",
    "Protocol",
    "assess",
    "sliding_points",
    "evaluate",
]
