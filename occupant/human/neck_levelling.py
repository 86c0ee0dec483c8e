"""The head of a seated human levelled by its whole neck.

The seated postures (dummies/postures/*_seated.toml) level the head with the lower neck's
flexion alone, as the Hybrid III's adjustable neck bracket does (occupant.human.neck_bracket).
A person has no bracket: the head is levelled by the cervical spine, each of the human's two
neck joints taking the share of the turn that it takes of the neck's range of motion in that
direction (data/joint_rom.toml: flexion 12.0 deg at C7/T1 and 33.0 deg at the condyles,
extension 8.4 and 36.6 deg [D, from the per-level in vitro ranges of Panjabi et al. 2001]).
Given to the lower joint alone, the 20 deg of the seated postures lay 8 deg past its flexion
range and started the run with ~48 N m in the neck's ligamentous branch. The two joints' passive
curves take the same moment at the same fraction of their ranges (joint_passive.toml: 10 N m
at either end, one shape), so this split is where the neck's two joints in series rest without
muscles: their moments equal, but for the ~1.6 N m the head's weight adds at C7/T1 over the
neck link's lean [E]. A seated person's own split differs (C2-C7 taking 16.6 / 12.8 of
the trunk's tilt, Hey et al. 2017 [S abstract]; 13.0 / 7.0 deg here by joint_rom.toml's chord
argument): it clears the chin but is not at rest on a passive neck, which in GS1 swung back
11 deg at each joint in 40 ms (scenarios/validation/HISTORY.md Stop 39, branch neckposture).

Only the flexion components (rotation-vector y) are shared: two turns about one axis add, so
the head's orientation is unchanged whenever the neck joints turn about y alone (the shipped
postures); the head's position moves with the neck's curve. A neck of three joints
(neck_mid.py) shares the turn among the three in the same way, by their own ranges.
"""
import numpy as np

from occupant.human.neck_mid import JOINT as MID_JOINT, RANGE_TABLES
from occupant.spatial.rotation import quat_exp, quat_log

NECK_JOINTS = ("lower_neck", "upper_neck")
FLEXION_DOF = 1                  # rotation-vector component y: flexion (+) / extension (-)
HUMAN_PREFIX = "human_"          # occupant.human.builder's model names


def is_human(model):
    return model.name.startswith(HUMAN_PREFIX) and all(
        j in model.joint_names for j in NECK_JOINTS)


def _q_index(model, joint):
    link = model.joint_links[model.joint_names.index(joint)][-1]
    return int(model.tree.qidx[link])


def share_neck_flexion(model, q):
    """q with the neck's flexion (lower + upper, rotation-vector y) shared between the lower and
    upper neck joints in proportion to their ranges of motion in its direction (module
    docstring); q itself is left unchanged. Models other than the human's are returned as
    given."""
    if not is_human(model):
        return q
    from occupant.human.builder import human_range
    q = np.array(q, float)
    three = MID_JOINT in model.joint_names
    joints = NECK_JOINTS + (MID_JOINT,) if three else NECK_JOINTS
    idx = [_q_index(model, j) for j in joints]
    rotvec = [quat_log(q[k:k + 4]) for k in idx]
    total = sum(r[FLEXION_DOF] for r in rotvec)
    ranges = [human_range(j, FLEXION_DOF, "spherical", RANGE_TABLES[j] if three else None)
              for j in joints]
    reach = [hi if total >= 0.0 else -lo for lo, hi in ranges]
    for k, r, share in zip(idx, rotvec, reach):
        r = np.array(r, float)
        r[FLEXION_DOF] = total * share / sum(reach)
        q[k:k + 4] = quat_exp(r)
    return q
