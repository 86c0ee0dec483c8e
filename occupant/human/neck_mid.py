"""The parametric human's optional three-joint neck (issue 14 sections 2 and 4): the rigid neck
link (C7/T1 to the occipital condyles) split at half its height, about C4 [D: seven cervical
bodies below the condyles, the fourth from the top at mid-height, bodies taken as equally tall],
into the ``neck`` (on the ``lower_neck`` joint, C7/T1: its frame unchanged) and an
``upper_cervical`` piece on a spherical ``mid_neck`` joint (frames parallel at zero angle), which
carries the head on the ``upper_neck`` joint.

Why: a head that translates forward before it turns, as the volunteers' does, was thought to
need more than two joints. Measured (scenarios/validation/HISTORY.md, "neckmid"): the onset and the
translation stay as with two joints (the fitted damping sets them), the PMHS checks are worse;
hence off by default.

Ranges and passive curves of the three joints: data/joint_rom.toml and data/joint_passive.toml,
sections ``lower_neck_of_three``, ``mid_neck`` and ``upper_neck_of_three`` (the chord argument of
the two-joint neck on the same per-level data, sources there); ``RANGE_TABLES`` names them.

What stays on the ``neck``: the ``neck_shell`` contact ellipsoid (the shoulder belt's bearing on
the neck's base; its centre is the joint) and the muscle attachments below the cut; those above
go to the ``upper_cervical`` piece (``attachment``).

Mass split [D]: the builder's neck is a uniform cylinder (its inertia), cut through its centre
of mass: two equal halves, each's centre of mass a quarter of the neck's length from the cut
(thoracic_spine.halves), so at zero angle the pair is the rigid neck exactly.
"""
import numpy as np

from occupant.human.description import Segment
from occupant.human.thoracic_spine import halves

JOINT = "mid_neck"
UPPER = "upper_cervical"
LEVEL_FRACTION = 0.5          # of the neck's length: C4 [D] (above)
HALF_COM = 0.25               # a half cylinder's centroid from the cut, of the neck's length [D]
# each neck joint's section in data/joint_rom.toml and data/joint_passive.toml with three joints
RANGE_TABLES = {"lower_neck": "lower_neck_of_three", JOINT: JOINT,
                "upper_neck": "upper_neck_of_three"}


def split_neck(segs):
    """The segment list with ``neck`` split at half its height (module docstring), the head
    re-hung on the upper piece. In place on the records; returns the new list (``upper_cervical``
    after ``neck``)."""
    i = next(k for k, s in enumerate(segs) if s.name == "neck")
    neck = segs[i]
    head = next(s for s in segs if s.parent == "neck" and s.joint_name == "upper_neck")
    length = head.location[2]
    zj = LEVEL_FRACTION * length
    if abs(neck.com[2] - zj) > 1e-9:
        raise ValueError("the neck's centre of mass is not at half its length")
    mh, c_lo, c_up, Ih = halves(neck.mass, neck.com, neck.inertia, HALF_COM * length)
    shift = np.array([0.0, 0.0, zj])
    upper = Segment(name=UPPER, parent="neck", mass=mh, com=c_up - shift, inertia=Ih.copy(),
                    joint_name=JOINT, joint_kind=neck.joint_kind, location=shift)
    neck.mass, neck.com, neck.inertia = mh, c_lo, Ih
    head.parent, head.location = UPPER, head.location - shift
    return segs[:i + 1] + [upper] + segs[i + 1:]


def range_table(segs, joint):
    """The data section of a neck joint of these segments (RANGE_TABLES with three joints), or
    None: the joint's own."""
    three = any(s.joint_name == JOINT for s in segs)
    return RANGE_TABLES.get(joint) if three else None


def attachment(segs, point):
    """(part, point in its frame) of a point given in the rigid neck's frame (origin C7/T1):
    the ``neck`` below the cut, ``upper_cervical`` at or above it (shifted to its frame)."""
    upper = next((s for s in segs if s.name == UPPER), None)
    if upper is None or point[2] < upper.location[2]:
        return "neck", point
    return UPPER, point - upper.location
