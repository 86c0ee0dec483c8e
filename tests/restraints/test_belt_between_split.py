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
rates). Rig: tests/restraints/test_belt_between_held.py's, the post sliding along the piece.
"""
import numpy as np
import pytest

from occupant.integrate.pipeline import evaluate
from tests.restraints.test_belt_between_held import _rig

POST_X = 0.15   # m: the post's centre 5 mm clear of the piece over the spheres' tops


def test_identity_split_across_a_between_barrier_off_its_ellipsoid_follows_the_lengths():
    """The post 5 mm over the piece, sliding along it at 1 m/s: the barrier's point slides with
    it, w0-w1 lengthens as w1-w2 shortens (their rates measured by moving the post 1 um). The
    rate of the webbing in each (its part that the post's speed adds, the speed 0 and 1 m/s
    compared) is the group's webbing over its length times the segment's length rate less its
    share of the group's (w L_g' - w L_g L' / L, summing to none), to 5e-3 of that (the kernel's
    length rate, from its points' velocities, 0.24 % under the geometry's: the held wrap's point
    moves over its sphere as the barrier's does); on main none (0): the split trailed the
    lengths'."""
    model, z = _rig(POST_X, barrier=True, along=True)
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
