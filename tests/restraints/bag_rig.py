"""The ball-in-a-bag rig of the airbag tests: a deployed bag on B0 with its x axis up (its front
pole at z = 2 a) and a ball on a vertical prismatic joint (q = the height of its centre), so the
ball's penetration through the front is d = 2 a + R - q."""
import numpy as np

from occupant.contact import signed_distances
from occupant.modeling import Airbag, AirbagContact, Assembly, Joint, Marker, Part, Pose, Sphere

P_A = 101325.0                        # Pa, the ambient pressure the rig's bags start at
SEMI_AXES = (0.13, 0.33, 0.33)        # m, a driver bag of 59 L (crash-domain-facts 6.2: 30-60 L)
UP_X = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])   # bag x along B0 z


def bag_and_ball(mass, radius, vent_area=0.0, p0=P_A, semi_axes=SEMI_AXES, **bag):
    """The compiled rig: a solid ball of ``mass`` and ``radius``, a bag of ``semi_axes`` deployed
    (fired at -1 s, unfolded at once) at gauge-free pressure ``p0``; ``bag`` are further Airbag
    options (contact law, friction, bottoming, fabric stiffness, deployment)."""
    asm = Assembly("drop")
    asm.add(Part("ball", mass, inertia=(0.4 * mass * radius**2,) * 3))
    asm.add(Joint("lift", "prismatic", None, "ball", Pose()))
    asm.add(Marker("centre", "ball"))
    asm.add(Sphere("shell", "centre", radius))
    bag = {"firing_time": -1.0, "deployment_time": 0.0, "initial_pressure": p0,
           "vent_area": vent_area, **bag}
    asm.add(Airbag("bag", None, rotation=UP_X, semi_axes=semi_axes, **bag))
    asm.add(AirbagContact("bag_ball", "bag", "shell"))
    return asm.compile()


def assert_bag_depth(model, res, pair, d, atol=0.0, rtol=0.0):
    """The recorded ``pair.penetration`` against the closed-form signed depth d (m, one per
    sample), under the rule that a pair apart records 0 (``AIRBAG_CONTACT_OUTPUTS``): where it
    records a depth, d at the tolerance; elsewhere exactly 0, and there the query
    ``signed_distances`` (the step's own narrow phase at that sample's q and t) gives d, the gap
    negative, at the same tolerance, and the rate reads 0. So every sample's d is checked, in or
    out of the bag; returns where the pair records a depth."""
    out = res.outputs[f"{pair}.penetration"]
    inside = out > 0.0
    np.testing.assert_allclose(out[inside], d[inside], atol=atol, rtol=rtol)
    assert np.all(out[~inside] == 0.0)
    assert np.all(res.outputs[f"{pair}.penetration_rate"][~inside] == 0.0)
    gap = [signed_distances(model, q, t)[pair] for q, t in zip(res.q[~inside], res.t[~inside])]
    np.testing.assert_allclose(gap, d[~inside], atol=atol, rtol=rtol)
    return inside
