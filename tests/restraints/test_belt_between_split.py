"""The webbing split of a belt group merged across a barrier between two held wraps while the
barrier is off its ellipsoid (``Wrap.barrier`` between two wraps, point_barrier BETWEEN: the
parametric human's right upper arm on the shoulder belt's piece from the shoulder wrap to the
chest wrap, ``[restraints.belt] between_barriers``). Off the ellipsoid its point lies on the
straight piece between the wraps, the piece's point nearest it, so it slides along the piece as
the ellipsoid moves along it: one of its two segments lengthens as the other shortens. Their
webbing is shared in proportion to their lengths at BARRIER_SHARE_TIME; trailing the lengths'
split by that time constant times its rate, the split stepped the tensions when the barrier
touched and the segments parted (50M human, belted sled, 79.3 ms: shoulder-arm 2941 -> 2027 N,
arm-chest 2941 -> 4521 N for one sample; scenarios/HISTORY.md, barrierkey). The split's own
rate now follows the lengths' (``belt``: the group's webbing moved with its segments' length
rates). Rig as tests/restraints/test_belt_between_held.py, the post sliding along the piece.
"""
import numpy as np
import pytest

from occupant.integrate.pipeline import evaluate
from occupant.modeling import Assembly, Ellipsoid, Joint, Marker, Part, Pose
from occupant.modeling.belts import Anchor, Belt, Webbing, Wrap
from occupant.restraints import fit_belts

LINEAR = Webbing([(0.0, 0.0), (0.1, 16000.0)])
R = 0.1                     # m: the spheres' radius, centres (0, 0, 0) and (0.4, 0, 0)
POST = 0.03                 # m: the post's radius
POST_X, POST_Z = 0.15, 0.135  # m: its centre (5 mm clear of the piece over the spheres' tops)
A, B = (-0.3, 0.0, 0.0), (0.7, 0.0, 0.0)     # m: the anchors, level with the spheres' centres
ALONG = ((0.0, 0.0, 1.0), (0.0, 1.0, 0.0), (-1.0, 0.0, 0.0))   # the slider's z along B0's x


def _rig():
    """Anchor A over a wrap held on sphere 0, a barrier wrap round the post's underside, a wrap
    held on sphere 1, to anchor B; the post on a slider along x (the piece's direction)."""
    asm = Assembly("between_split")
    asm.add(Part("body", 10.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("slide", "prismatic", None, "body", Pose()))
    asm.add(Marker("c0", "body"))
    asm.add(Marker("c1", "body", (0.4, 0.0, 0.0)))
    asm.add(Ellipsoid("s0", "c0", (R, R, R)))
    asm.add(Ellipsoid("s1", "c1", (R, R, R)))
    asm.add(Part("stand", 1.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("stand_slide", "prismatic", None, "stand", Pose(rotation=ALONG)))
    asm.add(Marker("post_centre", "stand", (-POST_Z, 0.0, POST_X)))   # (POST_X, 0, POST_Z) in B0
    asm.add(Ellipsoid("post", "post_centre", (POST, POST, POST)))
    held = dict(friction=0.3, across=0.3, at=(0.0, 0.0, 1.0))
    asm.add(Belt("belt", [Anchor("a", A), Wrap("w0", "s0", **held),
                          Wrap("w1", "post", friction=0.3, side=(0.0, 0.0, -1.0), barrier=True),
                          Wrap("w2", "s1", **held), Anchor("b", B)],
                 LINEAR, pretension=10.0))
    model = asm.compile()
    return model, fit_belts(model, [0.0, 0.0])


def test_identity_split_across_a_between_barrier_off_its_ellipsoid_follows_the_lengths():
    """The post 5 mm over the piece, sliding along it at 1 m/s: the barrier's point slides with
    it, w0-w1 lengthens as w1-w2 shortens (their rates measured by moving the post 1 um). The
    rate of the webbing in each (its part that the post's speed adds, the speed 0 and 1 m/s
    compared) is the group's webbing over its length times the segment's length rate less its
    share of the group's (w L_g' - w L_g L' / L, summing to none), to 5e-3 of that (the kernel's
    length rate, from its points' velocities, 0.24 % under the geometry's: the held wrap's point
    moves over its sphere as the barrier's does); on main none (0): the split trailed the
    lengths'."""
    model, z = _rig()
    bundle, data = model.bundle(base_table=None), model.make_data()
    i = model.output_names.index
    names = ("w0-w1", "w1-w2")
    webbing = [model.z_names.index(f"belt.{s}.webbing") for s in names]

    def at(x, speed):
        evaluate(bundle, data, 0.0, np.array([0.0, x]), np.array([0.0, speed]), z, 0.0)
        lengths = np.array([data.outputs[i(f"belt.{s}.length")] for s in names])
        return lengths, data.zdot[webbing].copy(), data.outputs[i("belt.w1.x")]

    h = 1.0e-6
    L, still, p = at(0.0, 0.0)
    Lh, _, ph = at(h, 0.0)
    _, moving, _ = at(0.0, 1.0)
    assert (ph - p) / h == pytest.approx(1.0, rel=1e-3)          # the point slides with the post
    rate = (Lh - L) / h
    assert rate[0] > 0.5 and rate[1] < -0.5                       # one lengthens, one shortens
    w = z[webbing].sum()
    expected = w / L.sum() * (rate - L * rate.sum() / L.sum())
    assert moving - still == pytest.approx(expected, rel=5e-3)
