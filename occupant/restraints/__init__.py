"""Restraints as force producers of the step (issue 11 sections 4 and 5): seat belts in ``belt``
(declared with ``occupant.modeling.belts``, fitted at the initial configuration by ``fitting``)
and uniform-pressure (control-volume) airbags in ``airbag`` (declared with
``occupant.modeling.Airbag`` and ``AirbagContact``)."""
from occupant.restraints.fitting import fit_belts

__all__ = ["fit_belts"]
