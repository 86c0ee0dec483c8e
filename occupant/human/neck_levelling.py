"""The head of a seated human levelled by its whole neck.

The seated postures (dummies/postures/*_seated.toml) level the head with the lower neck's
flexion alone, as the Hybrid III's adjustable neck bracket does (occupant.human.neck_bracket).
A person has no bracket: the head is levelled by the cervical spine. How a seated person shares
the turn: from standing to natural sitting the T1 slope rose 12.8 deg (17.4 -> 30.2) and the
C2-C7 lordosis 16.6 deg (-0.6 -> -17.2), 26 people on whole-spine radiographs (Hey et al. 2017,
Spine 42:1614, "Cervical alignment variations in different postures" [S abstract]): the subaxial
spine takes SUBAXIAL_SHARE of the trunk's tilt and the upper cervical spine (C0-C2) turns the
rest back, the head's pitch held [E: the abstract gives no head angle]. A reclined trunk is
levelled alike the other way (more lower-cervical flexion, C1-C2 extending: Douglas & Gallagher
2018, Appl Ergon 70:104 [S abstract]; the share read as the same [E]).

On the model's joints by the chord argument of data/joint_rom.toml ("Neck split" [D]): an arc
turning uniformly by B leans its chord by B/2, so of a turn T with B = SUBAXIAL_SHARE T and
C0-C2's U = T - B, C7/T1 takes B/2 and the condyles B/2 + U; with three joints (neck_mid.py)
C7/T1 takes L/2, the mid joint (L + M)/2 and the condyles M/2 + U, where L and M are B spread
evenly over C2-C7's five levels [E], three below C4 and two above.

Only the flexion components (rotation-vector y) are shared: two turns about one axis add, so
the head's orientation is unchanged whenever the neck joints turn about y alone (the shipped
postures); the head's position moves with the neck's curve.
"""
import numpy as np

from occupant.human.neck_mid import JOINT as MID_JOINT
from occupant.spatial.rotation import quat_exp, quat_log

NECK_JOINTS = ("lower_neck", "upper_neck")
FLEXION_DOF = 1                  # rotation-vector component y: flexion (+) / extension (-)
HUMAN_PREFIX = "human_"          # occupant.human.builder's model names
SUBAXIAL_SHARE = 16.6 / 12.8     # C2-C7 turn per trunk (T1) tilt, Hey et al. 2017 [S abstract] (module docstring)
LEVELS_BELOW_MID = 3 / 5         # of C2-C7's five levels, those in the three-joint neck's lower link [E]


def is_human(model):
    return model.name.startswith(HUMAN_PREFIX) and all(
        j in model.joint_names for j in NECK_JOINTS)


def _q_index(model, joint):
    link = model.joint_links[model.joint_names.index(joint)][-1]
    return int(model.tree.qidx[link])


def levelling_shares(three=False):
    """{joint: fraction of the levelling turn} of the two- or three-joint neck (module
    docstring); the fractions add up to one."""
    b = SUBAXIAL_SHARE
    if not three:
        return {"lower_neck": b / 2, "upper_neck": 1.0 - b / 2}
    low, mid = LEVELS_BELOW_MID * b, (1.0 - LEVELS_BELOW_MID) * b
    return {"lower_neck": low / 2, MID_JOINT: (low + mid) / 2, "upper_neck": 1.0 - low - mid / 2}


def share_neck_flexion(model, q):
    """q with the neck's flexion (lower + upper, rotation-vector y) shared among the neck joints
    as a seated person levels the head (levelling_shares); q itself is left unchanged. Models
    other than the human's are returned as given."""
    if not is_human(model):
        return q
    q = np.array(q, float)
    shares = levelling_shares(MID_JOINT in model.joint_names)
    idx = {j: _q_index(model, j) for j in shares}
    total = sum(quat_log(q[k:k + 4])[FLEXION_DOF] for k in idx.values())
    for joint, k in idx.items():
        r = np.array(quat_log(q[k:k + 4]), float)
        r[FLEXION_DOF] = total * shares[joint]
        q[k:k + 4] = quat_exp(r)
    return q
