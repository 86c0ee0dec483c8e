"""Restraints (design.md section 3): force producers of the step for belts and airbags.

``airbag``: uniform-pressure (control-volume) airbags, declared with
``occupant.modeling.Airbag`` and ``AirbagContact``."""
