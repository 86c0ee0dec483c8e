"""A wrap held across the belt and kept to its flank (``Wrap.flank``,
occupant.restraints.belt.flank_bound): over a sphere whose shortest wrap between the anchors is
known in closed form, the held place slides across the belt towards it where the friction
cannot hold it, and stops at the flank's bound instead of passing it."""
import numpy as np
import pytest

from occupant.integrate.pipeline import evaluate
from occupant.model.bundle import BELT_WRAP
from occupant.modeling import Assembly, Ellipsoid, Joint, Marker, ModelingError, Part, Pose
from occupant.modeling.belts import Anchor, Belt, Webbing, Wrap
from occupant.restraints import fit_belts

LINEAR = Webbing([(0.0, 0.0), (0.1, 16000.0)])
R = 0.1                                          # m: the sphere's radius
# anchors behind the sphere's centre, level with it: the shortest wrap between them lies in the
# plane through them and the centre, z = 0, over the sphere's front
A, B = np.array([-0.05, 0.3, 0.0]), np.array([-0.05, -0.3, 0.0])


def _belt(across, flank=None, a=A, b=B, carried=False):
    """A belt from a (default A) over one wrap on a sphere of radius R at the origin, held across
    the belt by friction ``across`` (and kept to ``flank``), to b (B); the wrap's place is a
    state. ``carried``: the wrap carried by a plate on a prismatic joint along the sphere's z
    (``Wrap.carrier``, the whole share), its point moving with the plate's travel."""
    asm = Assembly("flank")
    asm.add(Part("body", 10.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("slide", "prismatic", None, "body", Pose()))
    asm.add(Marker("centre", "body"))
    asm.add(Ellipsoid("shell", "centre", (R, R, R)))
    if carried:
        asm.add(Part("plate", 0.5, inertia=(1e-3, 1e-3, 1e-3)))
        asm.add(Joint("drop", "prismatic", "body", "plate", Pose()))
    asm.add(Belt("belt", [Anchor("a", a), Wrap("w", "shell", friction=0.3, across=across,
                                                flank=flank, carrier="plate" if carried else None),
                          Anchor("b", b)],
                 LINEAR, pretension=10.0))
    return asm.compile()


def _slide(model, angle, time=0.05, dt=1e-5, q=(0.0,)):
    """The place (unit sphere) of the wrap, started at ``angle`` above the sphere's equator on its
    front, after ``time`` of its rate (``belt.wrap_slide``) with the belt at 1 kN and the sphere
    held still at the coordinates ``q`` (Euler); the lowest height (z / R) its place reached on
    the way; and the wrap's point (B0) at the end and its lowest height (z / R) after the first
    tenth of the time."""
    el = model.belts
    jz = [el.point_z[k] for k in range(len(el.point_kind)) if el.point_kind[k] == BELT_WRAP][0]
    q = np.array(q, dtype=float)
    z = fit_belts(model, q)
    bundle, data = model.bundle(base_table=None), model.make_data()
    z[jz:jz + 3] = np.cos(angle), 0.0, np.sin(angle)
    zs = el.z_start[0]
    lowest, point_lowest = np.inf, np.inf
    i = model.output_names.index
    steps = int(round(time / dt))
    for step in range(steps):
        evaluate(bundle, data, 0.0, q, np.zeros(len(q)), z, 0.0)
        if step == 0:   # webbing shortened to 1 kN of tension (strain 1/160), kept
            for s, name in enumerate(("belt.a-w", "belt.w-b")):
                z[zs + 2 * s] = data.outputs[i(f"{name}.length")] / (1.0 + 1000.0 / 160000.0)
            continue
        if step > steps // 10:
            point_lowest = min(point_lowest, data.outputs[i("belt.w.z")] / R)
        z[jz:jz + 3] += dt * data.zdot[jz:jz + 3]
        u = z[jz:jz + 3] / np.linalg.norm(z[jz:jz + 3])
        lowest = min(lowest, u[2])
    point = np.array([data.outputs[i(f"belt.w.{c}")] for c in "xyz"])
    return z[jz:jz + 3] / np.linalg.norm(z[jz:jz + 3]), lowest, point, point_lowest


def _held_height(mu, a=A):
    """Closed form: the height u_z of the place, come from above, where friction mu holds it.
    The belt lies in the plane through the line of the anchors (through a, along y) and the
    place R (cos t, 0, sin t); the plane's distance h from the centre over the radius r of its
    circle on the sphere (h / r: the geodesic over the normal curvature, ``belt.wrap_slide``)
    is mu there, above the shortest wrap (h = 0, at t0 = atan2(-a_z, -a_x))."""
    from scipy.optimize import brentq

    def ratio(t):
        p = R * np.array([np.cos(t), 0.0, np.sin(t)])
        n = np.cross([0.0, 1.0, 0.0], p - a)
        n /= np.linalg.norm(n)
        h = abs(n @ a) / R
        return h / np.sqrt(1.0 - h * h) - mu
    return np.sin(brentq(ratio, np.arctan2(-a[2], -a[0]) + 1e-9, 1.2))


def test_analytic_held_place_slides_to_where_friction_holds_it():
    """Started 70 deg above the shortest wrap (the plane z = 0), the place held by friction 0.3
    slides down to where the belt's pull across itself is 0.3 of its push into the sphere
    (``_held_height``, closed form: 52 deg), and with friction 0.001 to the shortest wrap
    (z = 0)."""
    u, *_ = _slide(_belt(0.3), np.radians(70.0), time=0.2)
    assert u[1] == pytest.approx(0.0, abs=1e-9)
    assert u[2] == pytest.approx(_held_height(0.3), abs=1e-4)
    u, *_ = _slide(_belt(0.001), np.radians(70.0), time=0.2)
    assert u[2] == pytest.approx(_held_height(0.001), abs=1e-4)
    assert abs(u[2]) < 0.01


@pytest.mark.parametrize("bound", [0.3, 0.5])
def test_analytic_flank_stops_the_place_at_its_bound(bound):
    """Kept to the flank z >= bound R (``Wrap.flank`` (0, 0, 1, bound R)) and nearly free across
    the belt (0.001), the place started 60 deg up slides down to the bound and stops there (its
    height bound to 1e-3), not to the shortest wrap at z = 0; on the way it passes the bound by
    no more than 1e-3 R."""
    u, lowest, *_ = _slide(_belt(0.001, (0.0, 0.0, 1.0, bound * R)), np.radians(60.0))
    assert u[2] == pytest.approx(bound, abs=1e-3)
    assert lowest > bound - 1e-3


def test_analytic_flank_keeps_the_wrap_off_the_other_flank():
    """Anchors 0.03 m above the centre, behind it: the shortest wrap lies in the plane through
    them and the centre, over the sphere's front below its equator (the place's height
    -0.6 / sqrt(1.36) = -0.514); nearly free across the belt (0.001) the place started 60 deg
    up slides past the equator to just above it (``_held_height``, -0.512). Kept to the upper
    flank (z >= 0) it stops at the equator (to 1e-3) and passes below it by no more than
    2e-3 R (the bound acts once the place is past it: about one 1e-5 s step of its slide, here
    faster than above, 1.3e-3 R measured)."""
    high = np.array([0.0, 0.0, 0.03])
    u, *_ = _slide(_belt(0.001, a=A + high, b=B + high), np.radians(60.0), time=0.2)
    assert u[2] == pytest.approx(_held_height(0.001, A + high), abs=1e-4)
    assert u[2] < -0.5
    u, lowest, *_ = _slide(_belt(0.001, (0.0, 0.0, 1.0, 0.0), a=A + high, b=B + high),
                       np.radians(60.0))
    assert u[2] == pytest.approx(0.0, abs=1e-3)
    assert lowest > -2e-3


def test_analytic_flank_stops_the_carried_point_not_its_place():
    """The wrap carried by a plate dropped 0.2 R below the sphere's centre plane (``Wrap.carrier``:
    its point lies 0.2 R under the wrap's arc on the sphere), kept to z >= 0.3 R and nearly free
    across the belt: the point, where the belt presses on the body, stops at the bound (its
    height 0.3 to 1e-3, after the first tenth of the slide passing it by no more than 1e-3 R),
    its place above it by the plate's drop (0.5 to 1e-3: the place on the sphere is the arc's
    middle, level anchors). Bounded at the place instead (``restraints.belt_wraps.flank_bound``
    before branch clavstop), the place stopped at 0.3 and the point lay 0.2 R under the bound:
    GS1's shoulder point 2.2 mm under the clavicle while taut."""
    drop = -0.2 * R
    model = _belt(0.001, (0.0, 0.0, 1.0, 0.3 * R), carried=True)
    u, _, point, point_lowest = _slide(model, np.radians(60.0), q=(0.0, drop))
    assert point[2] / R == pytest.approx(0.3, abs=1e-3)
    assert point_lowest > 0.3 - 1e-3
    assert u[2] == pytest.approx(0.5, abs=1e-3)


def test_identity_flank_within_its_bound_changes_nothing():
    """A bound the place never reaches (z >= -0.5 R, below the shortest wrap) leaves its slide as
    it is without one (to the last bit)."""
    free, *_ = _slide(_belt(0.3), np.radians(70.0), time=0.01)
    kept, *_ = _slide(_belt(0.3, (0.0, 0.0, 1.0, -0.5 * R)), np.radians(70.0), time=0.01)
    np.testing.assert_array_equal(free, kept)


def test_flank_needs_a_held_wrap_and_a_direction():
    with pytest.raises(ModelingError, match="across"):
        Wrap("w", "shell", flank=(0.0, 0.0, 1.0, 0.0))
    with pytest.raises(ModelingError, match="flank"):
        Wrap("w", "shell", across=0.3, flank=(0.0, 0.0, 0.0, 0.0))
    with pytest.raises(ModelingError, match="flank"):
        Wrap("w", "shell", across=0.3, flank=(0.0, 0.0, 1.0))
