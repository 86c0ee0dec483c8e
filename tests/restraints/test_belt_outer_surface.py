"""A belt fitted at a point of a body lies on the body's outer surface there
(``modeling.outer_surface.outer_place``): over two overlapping spheres on one part, a wrap
fitted on the inner one where the outer one stands over it lies on the outer one, its point the
closed-form middle of its wrap there and its path inside neither sphere; fitted on the inner
sphere as given, it runs 40 mm inside the outer one (GS1's shoulder belt under the shoulder
shell, scenarios/validation/HISTORY.md)."""
import numpy as np
import pytest

from occupant.integrate.pipeline import evaluate
from occupant.modeling import Assembly, Ellipsoid, Joint, Marker, Part, Pose
from occupant.modeling.belts import Anchor, Belt, Webbing, Wrap
from occupant.modeling.outer_surface import outer_place, plane_in
from occupant.restraints import fit_belts
from occupant.restraints.belt_clearance import belt_path, deepest

LINEAR = Webbing([(0.0, 0.0), (0.1, 16000.0)])
R_IN, R_OUT = 0.10, 0.06                 # m: the inner sphere at the origin, the outer one at C
C = np.array([0.08, 0.0, 0.0])          # (its front, x = 0.14, stands 40 mm over the inner's)
# anchors behind the spheres, level with their centres, symmetric about y = 0: the wrap over
# the outer sphere in the plane z = 0 is symmetric, its middle on the x axis at its front
A, B = np.array([-0.05, 0.3, 0.0]), np.array([-0.05, -0.3, 0.0])


def _body(outer=(R_OUT,) * 3):
    asm = Assembly("outer")
    asm.add(Part("body", 10.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("slide", "prismatic", None, "body", Pose()))
    asm.add(Marker("inner_frame", "body"))
    asm.add(Marker("outer_frame", "body", tuple(C)))
    asm.add(Ellipsoid("inner", "inner_frame", (R_IN,) * 3))
    asm.add(Ellipsoid("outer", "outer_frame", tuple(outer)))
    return asm


def test_analytic_outer_place_leaves_the_ellipsoids_over_the_point():
    """From the inner sphere's front (0.1, 0, 0) along its normal (x) the point leaves the outer
    sphere at its front, x = 0.14 (C + R_OUT), and an ellipsoid there of x semi-axis 0.06 at the
    same place; a point on the inner sphere's back, under no other, stays where it is."""
    name, local = outer_place(_body(), "inner", (0.2, 0.0, 0.0))
    assert name == "outer"
    assert np.allclose(local, (R_OUT, 0.0, 0.0), atol=1e-12)
    name, local = outer_place(_body((0.06, 0.05, 0.04)), "inner", (0.1, 0.0, 0.0))
    assert name == "outer" and np.allclose(local, (0.06, 0.0, 0.0), atol=1e-12)
    name, local = outer_place(_body(), "inner", (-0.3, 0.1, 0.0))
    assert name == "inner"
    assert np.allclose(local, R_IN * np.array([-3.0, 1.0, 0.0]) / np.sqrt(10.0), atol=1e-12)


def test_regression_outer_place_skips_planes_and_cylinders_with_a_radius():
    """A disc-bounded plane (``Plane(radius=...)``, the round steering wheel, branch roundrim)
    and a cylinder have a radius but are no ellipsoid: beside them the place is found among the
    body's ellipsoids as before. Before, a geometry with a radius was taken for a sphere and the
    disc, on no marker, failed (KeyError: None; GS1 fitted at mid-clavicle on the buck's floor)."""
    from occupant.modeling.geometry import Cylinder, Plane
    asm = _body()
    asm.add(Plane("wheel", radius=0.19))
    asm.add(Cylinder("rim", "outer_frame", 0.05, 0.02))
    name, local = outer_place(asm, "inner", (0.2, 0.0, 0.0))
    assert name == "outer" and np.allclose(local, (R_OUT, 0.0, 0.0), atol=1e-12)


def _fitted(geometry, at):
    """The belt from A over one wrap on ``geometry`` held across the belt, fitted at ``at``
    (its scaled frame), to B: (the wrap point (B0) after the fit, the belt's path depths
    {sphere: m})."""
    asm = _body()
    asm.add(Belt("belt", [Anchor("a", tuple(A)), Wrap("w", geometry, across=0.3, at=at),
                          Anchor("b", tuple(B))], LINEAR, pretension=10.0))
    model = asm.compile()
    z = fit_belts(model, [0.0])
    data = model.make_data()
    evaluate(model.bundle(base_table=None), data, 0.0, np.zeros(1), np.zeros(1), z, 0.0)
    i = model.output_names.index
    P = np.array([data.outputs[i(f"belt.w.{c}")] for c in "xyz"])
    spheres = {"inner": (np.zeros(3), np.eye(3), np.full(3, R_IN)),
               "outer": (C, np.eye(3), np.full(3, R_OUT))}
    chain = [(A, None), (P, spheres[geometry]), (B, None)]
    path, on, _ = belt_path(chain)
    return P, deepest(path, on, chain, spheres)


def test_analytic_belt_fitted_on_the_inner_sphere_lies_on_the_outer_one():
    """Fitted at the inner sphere's front, the wrap goes on the outer sphere there
    (``outer_place``) and the belt's point is the middle of its wrap over it, (0.14, 0, 0) (the
    plane through the anchors and the place is z = 0, the wrap symmetric about y = 0); its path
    (straight pieces tangent to the outer sphere and the arc over it) lies in neither sphere
    (the pieces pass the inner sphere's centre 0.126 m off, closed form). Left on the inner
    sphere, the point lies at its front, 40 mm inside the outer sphere: the fault."""
    name, local = outer_place(_body(), "inner", (R_IN, 0.0, 0.0))
    P, deep = _fitted(name, tuple(local / R_OUT))
    assert np.allclose(P, C + (R_OUT, 0.0, 0.0), atol=1e-9)
    assert max(deep.values()) < 1e-9, deep
    P, deep = _fitted("inner", (1.0, 0.0, 0.0))
    assert np.allclose(P, (R_IN, 0.0, 0.0), atol=1e-9)
    assert deep["outer"] == pytest.approx(0.04, abs=1e-3)


def test_analytic_plane_in_the_outer_ellipsoids_frame():
    """A plane n . x >= d given in the inner sphere's frame (the torso's, as a flank is given) is
    the same set of points in the outer ellipsoid's frame (``plane_in``): the outer's centre at
    C = (0.08, 0, 0), its axes turned 90 deg about z (its x along the inner's y, its y along -x).
    Closed form: z >= 0.02 stays z >= 0.02; x >= 0.10 is -y_o >= 0.10 - 0.08 = 0.02; and a point
    of the outer frame on either side of each plane lies on the same side of the given one."""
    asm = _body()
    turn = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    asm.markers["outer_frame"].rotation = turn
    assert np.allclose(plane_in(asm, "inner", "outer", (0.0, 0.0, 1.0, 0.02)), (0, 0, 1, 0.02))
    assert np.allclose(plane_in(asm, "inner", "outer", (1.0, 0.0, 0.0, 0.10)), (0, -1, 0, 0.02))
    rng = np.random.default_rng(1)
    for plane in rng.normal(size=(5, 4)):
        m = plane_in(asm, "inner", "outer", plane)
        for x_o in rng.normal(scale=0.1, size=(20, 3)):
            x = C + turn @ x_o
            assert (plane[:3] @ x >= plane[3]) == (np.asarray(m[:3]) @ x_o >= m[3])
