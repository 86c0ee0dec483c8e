"""A barrier wrap (``Wrap.barrier``, occupant.restraints.wrap_chain.place_barrier): over a sphere
between two anchors whose straight line passes a distance c from its centre, the wrap lies on
that line with no force while the line clears the sphere or enters it from the far side, and
on the sphere, at the middle of the wrap round the declared side, when the line enters it from
that side."""
import numpy as np
import pytest

from occupant.integrate.pipeline import evaluate
from occupant.modeling import Assembly, Ellipsoid, Joint, Marker, ModelingError, Part, Pose
from occupant.modeling.belts import Anchor, Belt, Webbing, Wrap
from occupant.restraints import fit_belts

LINEAR = Webbing([(0.0, 0.0), (0.1, 16000.0)])
R = 0.1                                          # m: the sphere's radius


def _belt(c, before=()):
    """A belt from (c, 0.3, 0) over a barrier on a sphere of radius R at the origin (side +x)
    to (c, -0.3, 0); ``before``: points put before the barrier."""
    asm = Assembly("barrier")
    asm.add(Part("body", 10.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("slide", "prismatic", None, "body", Pose()))
    asm.add(Marker("centre", "body"))
    asm.add(Ellipsoid("shell", "centre", (R, R, R)))
    asm.add(Belt("belt", [Anchor("a", (c, 0.3, 0.0)), *before,
                          Wrap("w", "shell", friction=0.3, side=(1.0, 0.0, 0.0), barrier=True),
                          Anchor("b", (c, -0.3, 0.0))], LINEAR, pretension=10.0))
    return asm.compile()


def _point_and_forces(c):
    """The barrier's point and its two segments' forces, the belt stretched 1 % on its fit."""
    model = _belt(c)
    z = fit_belts(model, [0.0])
    bundle, data = model.bundle(base_table=None), model.make_data()
    evaluate(bundle, data, 0.0, np.zeros(1), np.zeros(1), z, 0.0)
    i = model.output_names.index
    zs = model.belts.z_start[0]
    for s, name in enumerate(("belt.a-w", "belt.w-b")):
        z[zs + 2 * s] = data.outputs[i(f"{name}.length")] / 1.01
    evaluate(bundle, data, 0.0, np.zeros(1), np.zeros(1), z, 0.0)
    p = np.array([data.outputs[i(f"belt.w.{a}")] for a in "xyz"])
    return p, [data.outputs[i(f"belt.{s}.force")] for s in ("a-w", "w-b")]


@pytest.mark.parametrize("c", [1.2 * R, -0.5 * R])
def test_analytic_barrier_lies_on_the_line_that_clears_it_or_enters_from_the_far_side(c):
    """Line clear of the sphere (c = 1.2 R), or entering it behind the centre (c = -0.5 R): the
    point is the line's nearest to the centre, (c, 0, 0), and the belt one straight piece."""
    p, (fa, fb) = _point_and_forces(c)
    assert np.allclose(p, (c, 0.0, 0.0), atol=1e-12)
    assert fa > 0.0 and fa == pytest.approx(fb, rel=1e-12)


def test_analytic_barrier_wraps_the_side_the_line_enters_from():
    """Line entering the sphere ahead of its centre (c = 0.5 R): the belt wraps its front, the
    point at the middle of that wrap, (R, 0, 0) by symmetry."""
    p, _ = _point_and_forces(0.5 * R)
    assert np.allclose(p, (R, 0.0, 0.0), atol=1e-12)


def test_reference_barrier_follows_a_fixed_point():
    """A barrier is placed from the fixed point before it: after a wrap it is refused."""
    with pytest.raises(ModelingError, match="barrier wrap follows an Anchor"):
        _belt(1.2 * R, before=(Wrap("v", "shell", friction=0.3),))
