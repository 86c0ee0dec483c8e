"""Fitting (occupant.restraints.fit_belts): every wrap's place lies at its point, on its
shortest path or held across the belt (``Wrap.across``) next to one, so the belt starts at
rest: no wrap moves over the body along the belt and no webbing is carried between segments."""
import numpy as np

from occupant.integrate.pipeline import evaluate
from occupant.model.bundle import BELT_WRAP
from occupant.modeling import Assembly, Ellipsoid, Joint, Marker, Part, Pose
from occupant.modeling.belts import Anchor, Belt, Webbing, Wrap
from occupant.restraints import fit_belts

LINEAR = Webbing([(0.0, 0.0), (0.1, 16000.0)])


def _two_bodies():
    """A belt from an anchor behind and above over two wraps on their shortest path on an
    ellipsoid (a thorax, 0.12 x 0.19 x 0.12 m) and a held wrap on a second one below it (an
    abdomen) to an anchor below, inboard: GS1's shoulder belt in miniature."""
    asm = Assembly("fit")
    asm.add(Part("body", 10.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("slide", "prismatic", None, "body", Pose()))
    asm.add(Marker("upper", "body", (0.0, 0.0, 0.25)))
    asm.add(Marker("lower", "body", (0.02, 0.0, 0.0)))
    asm.add(Ellipsoid("thorax", "upper", (0.12, 0.19, 0.12)))
    asm.add(Ellipsoid("abdomen", "lower", (0.13, 0.20, 0.11)))
    asm.add(Belt("belt", [Anchor("d_ring", (-0.25, -0.33, 0.45)),
                          Wrap("shoulder", "thorax"), Wrap("chest", "thorax"),
                          Wrap("abdomen", "abdomen", across=0.3),
                          Anchor("buckle", (0.05, 0.21, -0.2))], LINEAR, pretension=10.0))
    return asm.compile()


def test_identity_fitted_places_of_shortest_path_wraps_lie_at_their_points():
    """After the fit each wrap's place (a direction in its ellipsoid's scaled frame) is its
    point's direction there (within 1e-9), and in the first evaluation no wrap drifts along the
    belt (``belt.wrap_drift``) and no segment's webbing changes faster than 1e-6 m/s. Before, the run
    of two wraps kept the places of the fit's first placement, made while the held wrap had
    no place (shoulder (0.89, 0.12, 0.44) where its point lay at (0.07, 0.81, 0.58) on GS1's
    thorax): from the first step they drifted towards their points and carried the webbing of
    the segment between them away."""
    model = _two_bodies()
    z = fit_belts(model, [0.0])
    bundle, data = model.bundle(base_table=None), model.make_data()
    evaluate(bundle, data, 0.0, np.zeros(1), np.zeros(1), z, 0.0)
    el, i = model.belts, model.output_names.index
    for k in range(len(el.point_kind)):
        if el.point_kind[k] != BELT_WRAP:
            continue
        name = model.source.belts["belt"].points[k].name
        x = np.array([data.outputs[i(f"belt.{name}.{a}")] for a in "xyz"])
        centre = np.array([0.0, 0.0, 0.25] if k < 3 else [0.02, 0.0, 0.0])
        u = (x - centre) / el.point_size[k]
        jz = el.point_z[k]
        np.testing.assert_allclose(z[jz:jz + 3], u / np.linalg.norm(u), atol=1e-9)
        assert abs(data.belt_drift[k]) < 1e-6, (name, data.belt_drift[k])
    zs = el.z_start[0]
    np.testing.assert_allclose(data.zdot[zs:zs + 8:2], 0.0, atol=1e-6)
