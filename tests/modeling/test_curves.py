"""Curve geometry and the higher pairs as model elements (issue 12 sections 1 and 2): what a
curve table holds, one clear error naming the element for each bad input, and the
relationships (deleting the part that owns a curve removes the curve and the pairs on it)."""
import numpy as np
import pytest

from occupant.model import ModelError
from occupant.modeling import (Assembly, Curve, CurveOnCurve, Joint, Marker, ModelingError, Part,
                               PointOnCurve, Pose, Sphere)
from occupant.spatial import rot_z


def test_analytic_curve_tables_reproduce_the_curves():
    """The flattened coefficients (in the link frame, through the marker's placement) give the
    ellipse exactly and the spline's own values at its control points."""
    X = np.eye(4)
    X[:3, :3], X[:3, 3] = rot_z(0.4), (0.1, -0.2, 0.3)
    ellipse = Curve("e", "m", semi_axes=(0.3, 0.1)).table(X)
    s = 0.9
    o, A, B = ellipse[1][0:3], ellipse[1][3:6], ellipse[1][6:9]
    np.testing.assert_allclose(o + A * np.cos(s) + B * np.sin(s),
                               X[:3, :3] @ (0.3 * np.cos(s), 0.1 * np.sin(s), 0.0) + X[:3, 3])
    pts = np.array([(0.0, 0.0), (1.0, 0.2), (1.5, 1.0), (0.5, 1.5), (-0.5, 0.8)])
    rows = Curve("s", "m", points=pts).table(X)
    assert rows[0][1] == 5 and rows[0][2] == 1.0        # five segments, closed
    for i, p in enumerate(pts):
        a0 = rows[1 + i][0:3]
        np.testing.assert_allclose(a0, X[:3, :3] @ (*p, 0.0) + X[:3, 3], atol=1e-12)
        end = rows[1 + i].reshape(4, 3).sum(axis=0)      # tau = 1: the next point
        np.testing.assert_allclose(end, X[:3, :3] @ (*pts[(i + 1) % 5], 0.0) + X[:3, 3],
                                   atol=1e-12)
    assert rows[0][3:6] == pytest.approx(X[:3, 2])      # planar: the reference axis is z
    helix = Curve("h", "m", semi_axes=(0.3, 0.1), lead=0.2, turns=2.5)
    header, row = helix.table(X)
    assert header[2] == 0 and header[6] == pytest.approx(5.0 * np.pi)     # open, 2.5 turns
    s = 7.0
    o, A, B, C = row.reshape(4, 3)
    np.testing.assert_allclose(o + A * np.cos(s) + B * np.sin(s) + C * s,
                               X[:3, :3] @ (0.3 * np.cos(s), 0.1 * np.sin(s), 0.2 * s / (2 * np.pi))
                               + X[:3, 3])
    axis, angle = helix.reference_axis        # the helix's axis, from its steepest tangent
    assert axis == pytest.approx((0.0, 0.0, 1.0)) and header[3:6] == pytest.approx(X[:3, 2])
    assert angle == pytest.approx(90.0 - np.degrees(np.arctan2(0.2 / (2 * np.pi), 0.1)))


def _two_bodies():
    asm = Assembly("pairs")
    asm.add(Part("ground_plate", 1.0), Part("slider", 1.0))
    asm.add(Joint("fix", "fixed", None, "ground_plate", Pose()),
            Joint("plane", "planar", None, "slider", Pose()))
    asm.add(Marker("guide_m", "ground_plate"), Marker("pin", "slider", position=(1.0, 0.0, 0.0)),
            Marker("cam_m", "slider"))
    asm.add(Curve("guide", "guide_m", radius=1.0), Curve("lobe", "cam_m", radius=0.2))
    return asm


def test_errors_speak_to_the_user():
    with pytest.raises(ModelingError, match=r"curve 'c'.points: a spline curve needs at least 4 "
                                            r"distinct points, got 3"):
        Curve("c", "m", points=[(0, 0), (1, 0), (0, 1)])
    with pytest.raises(ModelingError, match=r"curve 'c': give exactly one of points, radius, "
                                            r"semi_axes, got points, radius"):
        Curve("c", "m", points=[(0, 0), (1, 0), (1, 1), (0, 1)], radius=1.0)
    with pytest.raises(ModelingError, match=r"curve 'c'.radius: expected positive lengths"):
        Curve("c", "m", radius=-1.0)
    with pytest.raises(ModelingError, match=r"curve 'c'.turns: a helix needs a non-zero lead"):
        Curve("c", "m", radius=1.0, turns=2)
    with pytest.raises(ModelingError, match=r"curve 'c'.turns: expected a positive number of "
                                            r"turns of the helix, got None"):
        Curve("c", "m", radius=1.0, lead=0.1)
    with pytest.raises(ModelingError, match=r"curve 'c'.lead: expected a finite rise per turn"):
        Curve("c", "m", radius=1.0, lead="up", turns=2)
    with pytest.raises(ModelingError, match=r"curve 'c': lead and turns make a helix of a radius "
                                            r"or semi_axes, not of points"):
        Curve("c", "m", points=[(0, 0), (1, 0), (1, 1), (0, 1)], lead=0.1, turns=1)
    asm = _two_bodies()
    with pytest.raises(ModelingError, match=r"point on curve 'p'.curve: unknown 'nope' \(known: "
                                            r"guide, lobe\)"):
        asm.add(PointOnCurve("p", "pin", "nope"))
    asm.add(Sphere("ball", "cam_m", 0.1), PointOnCurve("p", "pin", "ball"))
    with pytest.raises(ModelError, match=r"point on curve 'p'.curve: 'ball' is a sphere, not a "
                                         r"curve"):
        asm.compile()
    asm.remove("p")
    warped = [(np.cos(s), np.sin(s), 0.1 * np.sin(2 * s)) for s in np.linspace(0, 6, 8)]
    asm.add(Curve("warped", "guide_m", points=warped), CurveOnCurve("cv", "lobe", "warped"))
    with pytest.raises(ModelError, match=r"curve on curve 'cv'.curve_b: curve 'warped' is not "
                                         r"planar"):
        asm.compile()
    asm.remove("cv")
    # a wire coiled 16 times round a ring: its tangents come near every direction
    s = np.linspace(0.0, 2.0 * np.pi, 192, endpoint=False)
    coil = np.column_stack([(1 + 0.4 * np.cos(16 * s)) * np.cos(s),
                            (1 + 0.4 * np.cos(16 * s)) * np.sin(s), 0.4 * np.sin(16 * s)])
    asm.add(Curve("coil", "guide_m", points=coil), Marker("bead", "slider"),
            PointOnCurve("threaded", "bead", "coil"))
    with pytest.raises(ModelError, match=r"point on curve 'threaded'.curve: curve 'coil' turns "
                                         r"its tangent within \d\.\d deg of every direction"):
        asm.compile()
    asm.remove("threaded")
    asm.add(Marker("bead", "slider"), PointOnCurve("on_warped", "bead", "warped"))
    asm.compile()                        # a spatial curve is accepted by point-on-curve
    asm.remove("on_warped")
    asm.add(Marker("pin2", "slider"), PointOnCurve("same", "pin2", "lobe"))
    with pytest.raises(ModelError, match=r"point on curve 'same': both sides move as one rigid "
                                         r"body \(parts 'slider' and 'slider'\)"):
        asm.compile()


def test_deleting_the_part_of_a_curve_removes_the_curve_and_its_pairs():
    asm = _two_bodies()
    asm.add(PointOnCurve("ptcv", "pin", "guide"), CurveOnCurve("cvcv", "lobe", "guide"))
    assert set(asm.dependents("guide")) == {"ptcv", "cvcv"}
    assert asm.removal_set("ground_plate") >= {"guide_m", "guide", "ptcv", "cvcv"}
    asm.remove("ground_plate")
    assert not asm.higher_pairs and "guide" not in asm.geometries
    assert "pin" not in asm.markers      # the pair's I marker, used by nothing else, went too
    assert "lobe" in asm.geometries and "slider" in asm.parts
    asm.check()
    asm = _two_bodies()
    asm.add(PointOnCurve("ptcv", "pin", "guide"))
    asm.relink("ptcv", "curve", "lobe")  # moved between the reverse lists
    assert asm.dependents("lobe") == ["ptcv"] and asm.dependents("guide") == []
    with pytest.raises(ModelingError, match=r"point on curve 'ptcv'.curve: unknown 'pin'"):
        asm.relink("ptcv", "curve", "pin")
    asm.relink("ptcv", "curve", "guide")
    asm.remove("slider")                 # the part of the point
    assert not asm.higher_pairs and "guide" in asm.geometries
    asm.check()
