"""Carriers of contact surfaces (``occupant.contact.carrier``): a part on a prismatic joint to the
part of an ellipsoid, carrying the ellipsoid's front (a sternum on the chest joint of a thorax)."""
import numpy as np

from occupant.model.joint_types import JointType
from occupant.model.model import ModelError


def carrier_link(what, carrier, geometry, link, tree, body_index, body_link):
    """(link, rest origin in the geometry link's frame) of the ``carrier`` part of ``geometry``
    on ``link`` (``what``: the declaring key, for the message); (link, 0) for no carrier."""
    if carrier is None:
        return link, np.zeros(3)
    parent, jtype, p_pj = tree[0], tree[1], tree[6]
    c = body_link[body_index[carrier]] if carrier in body_index else -1
    if c < 0 or parent[c] != link or jtype[c] != JointType.PRISMATIC:
        raise ModelError(f"{what}: '{carrier}' must be a part on a prismatic joint to the part of "
                         f"'{geometry}' (as a sternum on the chest joint)")
    return c, np.array(p_pj[c], float)
