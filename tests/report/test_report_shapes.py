"""The reports draw an interior's boxes, cylinders and meshes (occupant.scenario.interior_shapes)
as they draw its planes: in the 2D strips their shadows (data.shadow) and outlines, in the 3D
views and the interactive viewer their triangles, each where its interior file puts it, on the
vehicle. Before (stop 50's interiorshapes) only planes were drawn."""
import base64

import numpy as np
import pytest
import trimesh
from matplotlib.collections import LineCollection
from matplotlib.patches import PathPatch

from occupant.report import data as D
from occupant.report import figures as F
from occupant.report import viewer
from occupant.scenario.load import load

# three parts added to the sled buck [E] (dummies/body_contacts.toml pairs an armrest with the
# occupant: a characteristic of the buck's for it)
ARMREST = dict(point=(0.0, -0.30, 0.10), half_extents=(0.15, 0.04, 0.03))   # a box on B0's axes
HANDLE = dict(point=(0.20, -0.35, 0.75), radius=0.015, length=0.20)         # a capsule along x
CONSOLE = dict(point=(0.10, 0.30, -0.10), extents_mm=(300.0, 100.0, 150.0))  # an STL box in mm
SHORT = {"solver.t_end": 0.004, "occupant.settle": 0.0, "outputs.report": False}


def _vec(v):
    return "[" + ", ".join(repr(float(x)) for x in v) + "]"


@pytest.fixture(scope="module")
def shapes_run(tmp_path_factory):
    """The unbelted sled (4 ms) in the sled buck with an armrest box, a grab-handle cylinder and
    a console mesh read from an STL in mm."""
    folder = tmp_path_factory.mktemp("buck")
    trimesh.creation.box(extents=CONSOLE["extents_mm"]).export(folder / "console.stl")
    (folder / "buck.toml").write_text(
        'kind = "interior"\nname = "buck"\nbase = "sled_buck_passenger"\n'
        f'[[surface]]\nname = "armrest"\ncharacteristic = "instrument_panel"\nshape = "box"\n'
        f'point = {_vec(ARMREST["point"])}\n'
        f'half_extents = {_vec(ARMREST["half_extents"])}\n'
        f'[[surface]]\nname = "grab_handle"\nshape = "cylinder"\npoint = {_vec(HANDLE["point"])}\n'
        f'radius = {HANDLE["radius"]}\nlength = {HANDLE["length"]}\nends = "round"\nz_axis = [1.0, 0.0, 0.0]\n'
        f'[[surface]]\nname = "console"\nshape = "mesh"\nfile = "console.stl"\nunits = "mm"\n'
        f'point = {_vec(CONSOLE["point"])}\n', encoding="utf-8")
    return load("fmvss208_sled_48_unbelted", overrides={**SHORT, "vehicle.interior": str(folder / "buck.toml")}).run()


def _solids(run):
    return {s.name: s for s in D.surfaces(run.model, run.results) if s.triangles is not None}


def test_analytic_solids_are_drawn_where_their_interior_puts_them(shapes_run):
    """The box's vertices are its 8 corners point +- half_extents; the capsule's lie on its
    radius about its axis (x) within its length + 2 radii, its caps' tips on the axis; the
    mesh's are its STL's corners in m about its point. All on the vehicle (body -1)."""
    solids = _solids(shapes_run)
    # with the buck's own box, its knee bolster's lower edge (branch crushshare)
    assert set(solids) == {"armrest", "grab_handle", "console", "knee_bolster_lower"}
    assert all(s.body == -1 and len(s.faces) >= 12 for s in solids.values())
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], float)
    box = solids["armrest"]
    expected = ARMREST["point"] + corners * ARMREST["half_extents"]
    assert len(box.outline) == 8
    assert np.allclose(np.sort(box.outline, axis=0), np.sort(expected, axis=0), atol=1e-12)
    bar = solids["grab_handle"].outline - HANDLE["point"]
    r, half = HANDLE["radius"], 0.5 * HANDLE["length"]
    radial = np.hypot(bar[:, 1], bar[:, 2])
    assert radial.max() == pytest.approx(r, abs=1e-12)
    assert np.abs(bar[:, 0]).max() == pytest.approx(half + r, abs=1e-12)
    straight = np.abs(bar[:, 0]) <= half + 1e-12
    assert np.allclose(radial[straight], r, atol=1e-12)    # the straight part's rings on the radius
    mesh = solids["console"].outline
    expected = CONSOLE["point"] + corners * 0.5e-3 * np.array(CONSOLE["extents_mm"])
    assert np.allclose(np.sort(mesh, axis=0), np.sort(expected, axis=0), atol=1e-9)


def test_analytic_shadow_of_a_box_is_its_rectangle_covered_twice():
    """A box seen along y (side view, x-z): its outline's segments are the rectangle's four
    edges (each twice: the front and back faces'), and its projected triangles, the front's and
    back's (the four faces edge-on cast none), cover the rectangle's area twice."""
    h = np.array([0.15, 0.04, 0.03])
    m = trimesh.creation.box(extents=2 * h)
    points = np.asarray(m.vertices) + (0.1, 0.2, 0.3)
    fill, edges = D.shadow(points, np.asarray(m.faces), (0, 2))
    assert len(fill) == 4
    a, b = fill[:, 1] - fill[:, 0], fill[:, 2] - fill[:, 0]
    area = 0.5 * (a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0])
    assert np.all(area > 0)   # counter-clockwise
    assert area.sum() == pytest.approx(2 * 4 * h[0] * h[2], rel=1e-12)
    assert len(edges) == 8
    lengths = sorted(np.round(np.linalg.norm(edges[:, 1] - edges[:, 0], axis=1), 12))
    assert lengths == [2 * h[2]] * 4 + [2 * h[0]] * 4
    assert np.allclose(edges.reshape(-1, 2).min(axis=0), (0.1 - h[0], 0.3 - h[2]))
    assert np.allclose(edges.reshape(-1, 2).max(axis=0), (0.1 + h[0], 0.3 + h[2]))


def test_regression_side_view_draws_each_solids_shadow_where_it_stands(shapes_run):
    """The side strip draws each solid's shadow (a filled path) and outline (segments) spanning
    its x-z extent; the strip's title names them."""
    fig = F.kinematics_strip(shapes_run, np.array([0.0, 0.004]))
    ax = fig.axes[0]
    fills = [p for p in ax.patches if isinstance(p, PathPatch)]
    lines = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert len(fills) == len(lines) == 4       # the three added and the buck's knee_bolster_lower
    for s in _solids(shapes_run).values():
        lo, hi = s.outline[:, [0, 2]].min(axis=0), s.outline[:, [0, 2]].max(axis=0)
        drawn = [f for f in fills if np.allclose(f.get_path().vertices.min(axis=0), lo, atol=1e-9)
                 and np.allclose(f.get_path().vertices.max(axis=0), hi, atol=1e-9)]
        outlined = [c for c in lines if np.allclose(np.vstack(c.get_segments()).min(axis=0), lo, atol=1e-9)
                    and np.allclose(np.vstack(c.get_segments()).max(axis=0), hi, atol=1e-9)]
        assert drawn and outlined, s.name
    assert "solids' shadows" in fig._suptitle.get_text()


def test_regression_viewer_and_3d_views_hold_the_solids_triangles(shapes_run):
    """The interactive viewer's see-through mesh holds the airbag's sphere, then every surface's
    vertices, the solids' among them, and their triangles; the VTK views render (their polygons
    from the same triangles)."""
    fig = viewer.figure(shapes_run, frame_dt=0.002)
    vehicle = fig["data"][2]
    surfaces = D.surfaces(shapes_run.model, shapes_run.results)
    sphere, tri = viewer._unit_sphere()
    bags = len(D.airbags(shapes_run.model, shapes_run.results))
    x = np.frombuffer(base64.b64decode(vehicle["x"]["bdata"]), vehicle["x"]["dtype"])
    i = np.frombuffer(base64.b64decode(vehicle["i"]["bdata"]), vehicle["i"]["dtype"])
    assert len(x) == bags * len(sphere) + sum(len(s.outline) for s in surfaces)
    assert len(i) == bags * len(tri) + sum(len(s.faces) for s in surfaces)
    box = _solids(shapes_run)["armrest"]
    k = [s.name for s in surfaces].index("armrest")
    offset = bags * len(sphere) + sum(len(s.outline) for s in surfaces[:k])
    assert np.allclose(np.sort(x[offset:offset + 8]), np.sort(box.outline[:, 0]), atol=1e-3)
    from occupant.report import render3d
    images = render3d.render(shapes_run, [0], size=(120, 130))
    assert images[0].shape == (130, 120, 3) and (images[0] < 250).any()


def test_analytic_vehicle_spheres_and_ellipsoids_are_drawn_as_its_surfaces(tmp_path):
    """An interior's sphere on B0 and ellipsoid on a hinged part are drawn with the vehicle's
    surfaces, not among the occupant's ellipsoids: their triangles' vertices lie on them (each
    vertex v of the ellipsoid centred c with axes R and semi-axes a: |R^T (v - c) / a| = 1),
    where the interior puts them at t = 0 (the hinged one in its part's frame); the ball's
    sphere stays the occupant's shape."""
    from occupant.dynamics import body_poses
    from occupant.modeling import (Assembly, ContactCharacteristic, ContactPair, Joint, Marker,
                                   Part, Pose, Sphere)
    from occupant.scenario.interior import load_interior
    knob, pad = dict(point=(0.4, 0.2, 0.3), radius=0.04), dict(point=(-0.25, 0.0, 0.62),
                                                               semi_axes=(0.06, 0.13, 0.11))
    (tmp_path / "x.toml").write_text(
        'kind = "interior"\nname = "x"\n[[hinge]]\nname = "frame"\npivot = [-0.22, 0.0, -0.02]\n'
        'mass = 10.0\ncom = [-0.3, 0.0, 0.3]\ninertia = [0.6, 0.6, 0.1]\n'
        'moment = [[0.0, 0.0], [0.1, 1500.0]]\n'
        f'[[surface]]\nname = "knob"\nshape = "sphere"\npoint = {_vec(knob["point"])}\n'
        f'radius = {knob["radius"]}\n'
        f'[[surface]]\nname = "pad"\non = "frame"\nshape = "ellipsoid"\npoint = {_vec(pad["point"])}\n'
        f'semi_axes = {_vec(pad["semi_axes"])}\nx_axis = [1.0, 0.0, 0.2]\n', encoding="utf-8")
    interior = load_interior(tmp_path / "x.toml")
    asm = Assembly("x")
    asm.add(*interior.elements)
    asm.add(Part("ball", 2.0, inertia=(0.002, 0.002, 0.002)), Joint("float", "free", None, "ball", Pose()),
            Marker("m", "ball"), Sphere("shell", "m", 0.05), *interior.surfaces)
    for g in ("knob", "pad"):
        asm.add(ContactPair(f"p_{g}", "shell", g, ContactCharacteristic(stiffness=1e5)))
    model = asm.compile()
    assert [s.name for s in D.shapes(model)] == ["shell"]
    solids = _solids_of(model)
    assert set(solids) == {"knob", "pad"}
    assert solids["knob"].body == -1 and solids["pad"].body == model.body("frame")
    X = body_poses(model, model.make_data(), model.neutral_configuration())[model.body("frame")]
    for s, g in ((solids["knob"], interior.surfaces[0]), (solids["pad"], interior.surfaces[1])):
        v = s.outline if s.body < 0 else s.outline @ X[:3, :3].T + X[:3, 3]
        semi = np.full(3, g.radius) if g.name == "knob" else np.array(pad["semi_axes"])
        local = (v - g.position) @ g.rotation / semi
        np.testing.assert_allclose(np.linalg.norm(local, axis=1), 1.0, atol=1e-12)
        assert len(s.faces) >= 100 and np.ptp(local, axis=0).min() > 1.99   # the whole of it


def _solids_of(model):
    return {s.name: s for s in D.surfaces(model) if s.triangles is not None}
