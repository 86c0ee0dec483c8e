"""Physical defects of a run's motion (issue 11, "plausible, not only converged"): what a crash
engineer looking at the kinematics would reject however well the integrator converged.

``motion_defects(model, results)`` reads the producers' recorded outputs (no step is evaluated
again) and lists, as ``Defect`` records with figures:

- a joint coordinate past its range end by more than its stop was sized to hold
  (``STOP_ALLOWANCE``): the largest excess past the end, and when;
- a compliant contact pair driven past the last row of its loading table (bottomed through its
  characteristic: the force beyond is an extrapolation nobody measured), or, for a linear or power
  law, deeper than the smallest half-size of its geometries (a body through a surface);
- an airbag contact deeper than the deployed bag's depth (a body through the bag), or a bottoming
  contact past the last row of its bag's bottoming table.

A belt wrap point lies on its ellipsoid by construction (``BELT_WRAP_STATES``: a direction on its
scaled unit sphere) and no output records a wrap leaving its body, so belts are not checked.
"""
import math
from dataclasses import dataclass

import numpy as np

from occupant.model.bundle import (CONTACT_ELLIPSOID_BOX, CONTACT_ELLIPSOID_ELLIPSOID, CONTACT_LINEAR,
                                   CONTACT_POWER, CONTACT_TABLE)
from occupant.model.joint_types import JointType

# The penetration past a range end a joint stop is sized to hold: the dummies' rotational stops
# hold the distal segments under 250 g within 5 deg [D] (dummies/README.md, "Every dof of every
# joint has a range of motion with a stop"; dummies/tools/derive_hybrid3.py STOP_PENETRATION_DEG,
# the same figure: tests/scenario/test_defects.py), the parametric human's stops scale the dummy's;
# the sternum's sliding stop is sized as 50 kN at 10 mm past it [E] (derive_hybrid3.py CHEST_STOP_K).
STOP_ALLOWANCE = {"rotation": math.radians(5.0), "translation": 0.010}   # rad, m


@dataclass(frozen=True)
class Defect:
    kind: str        # "joint stop", "contact table", "contact depth", "airbag depth", "airbag bottoming"
    element: str     # the joint resistance, contact pair or airbag contact
    value: float     # the largest penetration (rad or m)
    limit: float     # what it was sized or tabulated for (rad or m)
    unit: str        # "rad" or "m"
    t: float         # s, when the largest penetration was reached

    def text(self):
        """One line: element, figure against its limit, time."""
        scale, unit = (180.0 / math.pi, "deg") if self.unit == "rad" else (1e3, "mm")
        if self.kind == "joint stop":
            fig = (f"{scale * self.value:.1f} {unit} past its range end (stop sized for "
                   f"{scale * self.limit:.0f} {unit})")
        else:
            what = {"contact table": "its loading table ends at",
                    "contact depth": "its geometry's smallest half-size",
                    "airbag depth": "the deployed bag's depth",
                    "airbag bottoming": "its bottoming table ends at"}[self.kind]
            fig = f"{scale * self.value:.1f} {unit} deep ({what} {scale * self.limit:.1f} {unit})"
        return f"{self.kind}: {self.element.replace('__', ' / ')} {fig} at {1e3 * self.t:.1f} ms"


def motion_defects(model, results):
    """The run's physical defects (``Defect`` list, each element's worst, in the order: joints,
    contacts, airbags). ``model`` the compiled Model the run used, ``results`` its Results."""
    out = results.outputs
    t = np.asarray(results.t)
    found = []

    def worst(name, depth, limit, kind, unit):
        depth = np.asarray(depth, float)
        if depth.size and np.isfinite(limit) and np.max(depth) > limit:
            k = int(np.argmax(depth))
            found.append(Defect(kind, name, float(depth[k]), float(limit), unit, float(t[k])))

    el, tree = model.joint_resistance, model.tree
    for e, name in enumerate(model.joint_resistance_names):
        x = out.get(f"{name}.deflection")
        if x is None:
            continue
        x = np.asarray(x, float)
        past = np.maximum(x - el.upper[e], el.lower[e] - x)
        slides = tree.jtype[el.link[e]] == int(JointType.PRISMATIC)
        worst(name, past, STOP_ALLOWANCE["translation" if slides else "rotation"], "joint stop",
              "m" if slides else "rad")

    c = model.contacts
    for k, name in enumerate(model.contact_names if c is not None else ()):
        d = out.get(f"{name}.penetration")
        if d is None:
            continue
        if c.law[k] == CONTACT_TABLE:
            worst(name, d, c.tables[c.load_start[k] + c.load_len[k] - 1, 0], "contact table", "m")
        elif c.law[k] in (CONTACT_LINEAR, CONTACT_POWER):
            worst(name, d, _geometry_size(c, k), "contact depth", "m")

    bags = model.airbags
    for p, name in enumerate(model.airbag_contact_names):
        b = bags.pair_bag[p]
        d = out.get(f"{name}.penetration")
        if d is not None:
            worst(name, d, 2.0 * bags.semi_axes[b, 0], "airbag depth", "m")
        d = out.get(f"{name}.bottoming_penetration")
        if d is not None and bags.bottom_len[b] > 0:
            worst(name, d, bags.tables[bags.bottom_start[b] + bags.bottom_len[b] - 1, 0],
                  "airbag bottoming", "m")
    return found


def _geometry_size(c, k):
    """The smallest half-size of pair k's geometries that have one (the ellipsoid's semi-axes;
    an ellipsoid's or a box's b side): deeper than that, a body has gone through."""
    sizes = list(c.size_a[k])
    if c.pair_type[k] in (CONTACT_ELLIPSOID_ELLIPSOID, CONTACT_ELLIPSOID_BOX):
        sizes += [s for s in c.size_b[k] if s > 0]
    return float(min(sizes))
