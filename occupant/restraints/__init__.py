"""Restraints as force producers of the step (issue 11 section 4): seat belts in ``belt``
(declared with ``occupant.modeling.belts``), their fitting at the initial configuration in
``fitting``."""
from occupant.restraints.fitting import fit_belts

__all__ = ["fit_belts"]
