"""Linear non-holonomic (velocity) constraints A(q) v = 0 (seed 001's "linear non-holonomic
constraints"; Neimark & Fufaev, Dynamics of Nonholonomic Systems, 1972, ch. I): conditions on
velocities that no position equation implies, such as a knife edge, a skate blade or a wheel
that cannot slide sideways.

``KnifeEdge``: the origin of a marker, moving with its part, has no velocity along the marker's
axis ``axis`` relative to the material point of ``part_b`` (None: B0) it passes over. Compiled
to one CONSTRAINT_VELOCITY row of the ConstraintBlock (after the cut-joint rows), which the
state-space solver uses to remove a velocity coordinate, not a position
(``occupant.constraints.state_space``).
"""
from dataclasses import dataclass

import numpy as np

from occupant.model.bundle import CONSTRAINT_VELOCITY
from occupant.modeling.elements import ModelingError


@dataclass
class KnifeEdge:
    """No velocity of marker ``marker``'s origin along ``axis`` (unit vector in the marker's
    frame, turned with its part) relative to ``part_b`` (None: the base B0)."""
    name: str
    marker: str
    axis: tuple = (0.0, 1.0, 0.0)
    part_b: str | None = None

    def __post_init__(self):
        a = np.asarray(self.axis, dtype=float)
        if a.shape != (3,) or not np.all(np.isfinite(a)) or np.linalg.norm(a) < 1e-12:
            raise ModelingError(f"knife edge '{self.name}'.axis: expected a nonzero vector of 3 "
                                f"finite numbers, got {self.axis!r}")
        self.axis = a / np.linalg.norm(a)

    @property
    def refs(self):
        r = {"marker": self.marker}
        if self.part_b is not None:
            r["part"] = self.part_b
        return r


def velocity_constraint_rows(model, asm, X_link_part, cols, names):
    """Append the rows of ``asm.velocity_constraints`` to the ConstraintBlock columns ``cols``
    (lists) and their element names to ``names``."""
    for element in asm.velocity_constraints.values():
        marker = asm.markers[element.marker]
        X_a = X_link_part[marker.part] @ marker.transform
        link_b = -1 if element.part_b is None else int(model.body_link[model.body(element.part_b)])
        cols["kind"].append(CONSTRAINT_VELOCITY)
        cols["link_a"].append(int(model.body_link[model.body(marker.part)]))
        cols["point_a"].append(X_a[:3, 3])
        cols["axis_a"].append(X_a[:3, :3] @ element.axis)
        cols["link_b"].append(link_b)
        cols["point_b"].append(np.zeros(3))
        cols["axis_b"].append(np.zeros(3))
        names.append(element.name)
