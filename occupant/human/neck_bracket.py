"""The Hybrid III's adjustable lower neck bracket, set to the seated posture.

The Hybrid III's neck is bolted to the thorax through a lower neck bracket whose pitch is
adjustable; FMVSS 208 levels the seated dummy's head with it: the H-point and the pelvis angle
are adjusted first, then the neck bracket "the minimum amount necessary from the non-adjusted
'0' setting" until the head's transverse instrumentation platform is level within 0.5 deg
[U: 49 CFR 571.208 S10.1 as commonly quoted; the regulation's text was not found in the
stored sources]. The neck's rubber column is thus unloaded in the seated posture: the bracket
turns its base, not the column. A posture that levels the head by flexing the lower neck joint
of the model without this would leave the neck spring loaded (~20 N m at 20 deg, the
[[segment.joint.resistance]] table of dummies/hybrid3_50m.toml), and under gravity alone the
head springs back ~19 deg (occupant.scenario.settle).

``fit_bracket`` sets the bracket to the posture: the lower neck's flexion (rotation-vector
component y) in the configuration becomes the neutral of its spring and the centre of its
stops, so the bracket angle offsets ``reference``, ``lower`` and ``upper`` of that element.
Bracket range BRACKET_RANGE_DEG [E: the bracket's range and step were not found in a source;
the range accepted spans the head levelling of the shipped seated postures]. The bracket angle
is applied as set (no steps). The Part 572 neck certification tests mount the neck at the
neutral bracket (occupant.human.certification builds its own model) and are unchanged.
"""
import math

import numpy as np

from occupant.model.bundle import frozen
from occupant.spatial.rotation import quat_log

BRACKET_JOINT = "lower_neck"
BRACKET_DOF = 1                  # rotation-vector component y: flexion (+) / extension (-)
BRACKET_RANGE_DEG = (-30.0, 30.0)  # [E] see the module docstring
BRACKETED = ("hybrid3_",)        # dummies with the adjustable lower neck bracket (name prefix)


class BracketError(ValueError):
    """The posture asks for a bracket angle outside BRACKET_RANGE_DEG."""


def has_bracket(model):
    return model.name.startswith(BRACKETED) and BRACKET_JOINT in model.joint_names


def bracket_elements(model):
    """Indices of the joint resistance elements of the lower neck's flexion coordinate, and the
    joint's position in q."""
    j = model.joint_names.index(BRACKET_JOINT)
    link = model.joint_links[j][-1]
    el = model.joint_resistance
    rows = np.nonzero((np.asarray(el.link) == link) & (np.asarray(el.component) == BRACKET_DOF))[0]
    return rows, int(model.tree.qidx[link])


def bracket_angle(model, q):
    """rad: the lower neck's flexion in configuration q (its rotation-vector component y)."""
    _, k = bracket_elements(model)
    return float(quat_log(q[k:k + 4])[BRACKET_DOF])


def fit_bracket(model, q):
    """A shallow copy of ``model`` with its lower neck bracket set to the flexion of the lower
    neck in q (module docstring): that element's spring neutral and stops offset by it, so the
    neck column carries no spring moment in q. Arrays stay read-only (``bundle.frozen``), as
    the compiled step was compiled for. Returns (model, angle in rad)."""
    import copy
    angle = bracket_angle(model, q)
    lo, hi = BRACKET_RANGE_DEG
    if not lo <= math.degrees(angle) <= hi:
        raise BracketError(f"the posture's lower neck flexion {math.degrees(angle):.3g} deg is "
                           f"outside the neck bracket's range {lo:g} to {hi:g} deg")
    rows, _ = bracket_elements(model)
    el = model.joint_resistance
    shifted = {}
    for name in ("reference", "lower", "upper"):
        a = np.array(getattr(el, name), float)
        a[rows] += angle
        shifted[name] = frozen(a)
    out = copy.copy(model)
    out.joint_resistance = el._replace(**shifted)
    return out, angle
