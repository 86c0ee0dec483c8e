"""A held wrap next to a run of wraps on their shortest path is placed from the run's tangent
point towards it (``wrap_chain.held_end``), not from the run's point, the middle of its arc."""
import numpy as np
import pytest

from occupant.integrate.pipeline import evaluate
from occupant.modeling import Assembly, Ellipsoid, Joint, Marker, Part, Pose
from occupant.modeling.belts import Anchor, Belt, Webbing, Wrap
from occupant.restraints import fit_belts

LINEAR = Webbing([(0.0, 0.0), (0.1, 16000.0)])
R_THORAX, THORAX = 0.12, np.array([0.0, 0.0, 0.25])
R_ABDOMEN, ABDOMEN = 0.12, np.array([0.08, 0.02, 0.0])
D_RING, BUCKLE = np.array([-0.25, -0.33, 0.45]), np.array([0.15, 0.10, -0.2])


def _spheres():
    """GS1's shoulder belt in miniature on spheres: from an anchor behind and above over two wraps
    on their shortest path on a thorax and a wrap held across the belt on an abdomen below it,
    to an anchor below and in front."""
    asm = Assembly("held_end")
    asm.add(Part("body", 10.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("slide", "prismatic", None, "body", Pose()))
    asm.add(Marker("upper", "body", tuple(THORAX)))
    asm.add(Marker("lower", "body", tuple(ABDOMEN)))
    asm.add(Ellipsoid("thorax", "upper", (R_THORAX,) * 3))
    asm.add(Ellipsoid("abdomen", "lower", (R_ABDOMEN,) * 3))
    asm.add(Belt("belt", [Anchor("d_ring", tuple(D_RING)),
                          Wrap("shoulder", "thorax"), Wrap("chest", "thorax"),
                          Wrap("abdomen", "abdomen", across=0.3),
                          Anchor("buckle", tuple(BUCKLE))], LINEAR, pretension=10.0))
    return asm.compile()


def _tangent_point(a, b):
    """The tangent point seen from b of the wrap from a to b over the thorax sphere round its
    front (the side the wraps declare, +x; the short way runs over its back): in the plane
    through a, b and the centre, at the angle arccos(R / |b - c|) from b's direction, away from
    a's [closed form]."""
    ub = (b - THORAX) / np.linalg.norm(b - THORAX)
    e = (a - THORAX) - ((a - THORAX) @ ub) * ub
    e /= np.linalg.norm(e)
    alpha = np.arccos(R_THORAX / np.linalg.norm(b - THORAX))
    return THORAX + R_THORAX * (np.cos(alpha) * ub - np.sin(alpha) * e)


def test_analytic_held_wrap_lies_in_the_plane_through_the_runs_tangent_point():
    """The held abdomen wrap, its place turned off its point (across the belt), lies on the
    abdomen in the plane through its place, the buckle and the thorax run's tangent point
    towards it (closed form on the sphere, from the D-ring and the abdomen wrap as placed), to
    1e-12 m. Placed from the chest wrap's point (the run's second point, two thirds along its
    arc) it lay 3.0e-5 m off this plane (main 93f7a72, measured)."""
    model = _spheres()
    z = fit_belts(model, [0.0])
    jz = model.belts.point_z[3]
    u = z[jz:jz + 3] + np.array([0.0, 0.0, 0.1])     # the place turned up, across the belt
    z[jz:jz + 3] = u / np.linalg.norm(u)
    bundle, data = model.bundle(base_table=None), model.make_data()
    evaluate(bundle, data, 0.0, np.zeros(1), np.zeros(1), z, 0.0)
    i = model.output_names.index
    P = {n: np.array([data.outputs[i(f"belt.{n}.{a}")] for a in "xyz"])
         for n in ("d_ring", "chest", "abdomen")}
    place = ABDOMEN + R_ABDOMEN * z[jz:jz + 3]
    T = _tangent_point(P["d_ring"], P["abdomen"])
    assert T[0] > THORAX[0] and np.linalg.norm(T - P["chest"]) > 0.02
    normal = np.cross(T - place, BUCKLE - place)
    normal /= np.linalg.norm(normal)
    assert np.linalg.norm(P["abdomen"] - ABDOMEN) == pytest.approx(R_ABDOMEN, abs=1e-12)
    assert abs((P["abdomen"] - place) @ normal) < 1e-12
