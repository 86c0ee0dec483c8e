"""What the 2D and 3D views draw of the shipped interiors: the occupant's pads in their body
region's colour, surfaces facing a view outlined, the camera away from a struck door, a hinged
seat back where its hinge has turned it."""
import types

import numpy as np
import pytest
from matplotlib.patches import Polygon

from occupant.dynamics import body_poses
from occupant.report import data as D
from occupant.report import figures as F
from occupant.report import viewer
from occupant.scenario.load import load


def test_regression_body_pads_take_their_region_colour():
    """The side barrier's occupant (sternum pad, knee pads, the scenario's knee spheres): every
    shape on the dummy is drawn in its body region's colour; grey, the vehicle's surfaces',
    had the sternum pad and the knee pads and spheres looking like interior parts."""
    model = load("side_barrier").model
    shapes = [s for s in D.shapes(model) if s.body >= 0]
    grey = [s.name for s in shapes if F.colour(s.name, s.segment) == "#999999"]
    assert len(shapes) > 20 and grey == []
    knee = next(s for s in shapes if s.name == "left_knee_contact")
    assert knee.segment == "left_lower_leg" and F.colour(knee.name, knee.segment) == F.colour("left_shank_shell")


def _polygons(ax):
    return [p for p in ax.patches if isinstance(p, Polygon)]


def test_regression_front_view_outlines_the_surfaces_facing_it(run):
    """The fixture's knee bolster and panel face the occupant (normal -x): edge-on in the side
    view, drawn filled (lines); in the front view outlined, not filled (filled, the side
    impact's dashboard, windshield and seat back covered the occupant); the floor, edge-on in
    both, filled in both."""
    times = np.array([0.0, 0.05])
    facing = {s.name: D.facing(s.outline, 0) for s in D.surfaces(run.model)}
    assert facing == {"floor": False, "knee_bolster": True, "panel": True}
    for view, outlined in ((D.SIDE_VIEW, 0), (D.FRONT_VIEW, 2)):
        fig = F.kinematics_strip(run, times, view)
        try:
            polys = _polygons(fig.axes[0])
            assert len(polys) == 3
            assert sum(not p.get_fill() for p in polys) == outlined
            title = fig._suptitle.get_text()
            assert ("outlined where they face the view" in title) == bool(outlined)
        finally:
            F.plt.close(fig)


def test_regression_every_view_draws_a_disc_as_its_outline(run, monkeypatch):
    """A disc-bounded plane (the shipped steering wheel) added to the fixture's surfaces: the side
    and front views draw it as one polygon of DISC_SIDES vertices (its enclosing square's 4
    before), the interactive view as DISC_SIDES vertices in DISC_SIDES - 2 triangles."""
    import base64
    from occupant.modeling.geometry import Plane
    wheel = Plane("wheel", None, (0.36, 0.0, 0.37), (-0.921, 0.0, 0.391), (0.391, 0.0, 0.921), radius=0.19)
    shipped = D.surfaces

    def with_wheel(model, results=None):
        return shipped(model, results) + [D.Surface("wheel", -1, D.plane_outline(wheel))]
    monkeypatch.setattr(D, "surfaces", with_wheel)
    outline = D.plane_outline(wheel)
    for view in (D.SIDE_VIEW, D.FRONT_VIEW):
        fig = F.kinematics_strip(run, np.array([0.0]), view)
        try:
            polys = _polygons(fig.axes[0])
        finally:
            F.plt.close(fig)
        assert len(polys) == 4, view   # floor, knee bolster, panel, then the wheel
        xy = polys[-1].get_xy()         # closed: the first vertex again at the end
        assert len(xy) == D.DISC_SIDES + 1 and np.allclose(xy[:-1], outline[:, list(view[1])]), view
    vehicle = viewer.figure(run, frame_dt=0.05)["data"][2]
    x = np.frombuffer(base64.b64decode(vehicle["x"]["bdata"]), vehicle["x"]["dtype"])
    i = np.frombuffer(base64.b64decode(vehicle["i"]["bdata"]), vehicle["i"]["dtype"])
    assert len(x) == 3 * 4 + D.DISC_SIDES
    assert len(i) == 3 * 2 + D.DISC_SIDES - 2 and i.max() < len(x)


def test_analytic_facing_follows_the_angle_from_edge_on():
    """A square turned by a from edge-on to a view along x faces it once sin a > sin 20 deg."""
    for a, expected in ((0.0, False), (15.0, False), (25.0, True), (90.0, True)):
        r = np.radians(a)
        u, w = np.array([np.cos(r), np.sin(r), 0.0]), np.array([0.0, 0.0, 1.0])
        corners = np.array([-u - w, u - w, u + w, -u + w])
        assert D.facing(corners, 0) is expected, a


@pytest.mark.parametrize("direction, side", [((1.0, 0.0, 0.0), 1.0), ((-1.0, 0.0, 0.0), 1.0),
                                             ((0.0, 1.0, 0.0), -1.0), ((0.0, -1.0, 0.0), 1.0)])
def test_regression_camera_stands_away_from_the_struck_side(run, direction, side):
    """A side pulse along +y throws the occupant towards the door at +y: the 3D views look from
    -y (from +y, as for a frontal, the door and window stood between camera and occupant)."""
    r = types.SimpleNamespace(**vars(run))
    r.pulse = types.SimpleNamespace(direction=direction)
    assert D.camera_side(r) == side
    eye = viewer.figure(r, frame_dt=0.05)["layout"]["scene"]["camera"]["eye"]
    assert np.sign(eye["y"]) == side and eye["x"] > 0


def test_analytic_hinged_seat_back_is_drawn_turned_by_its_hinge():
    """The rear whiplash seat's back and head restraint ride on a hinged frame: posed by the
    model's kinematics with the hinge turned 0.2 rad rearward, the drawn surfaces are those at
    t = 0 turned by 0.2 rad about the hinge's axis (B0 y through its pivot), top rearward."""
    model = load("rear_whiplash").model
    surfaces = {s.name: s for s in D.surfaces(model)}
    frame = model.body("seat_back_frame")
    assert surfaces["seat_back"].body == frame and surfaces["head_restraint"].body == frame
    j = model.joint_names.index("seat_back_frame_hinge")
    link = model.joint_links[j][0]
    theta = 0.2
    data = model.make_data()
    q0 = model.neutral_configuration()
    q1 = q0.copy()
    q1[model.tree.qidx[link]] = theta
    rel = np.stack([body_poses(model, data, q) for q in (q0, q1)])
    pivot = np.asarray(model.source.markers["seat_back_frame_axis"].transform)[:3, 3]
    c, s = np.cos(theta), np.sin(theta)
    Ry = np.array([[c, 0.0, -s], [0.0, 1.0, 0.0], [s, 0.0, c]])   # +z towards -x: rearward
    for name in ("seat_back", "head_restraint"):
        sf = surfaces[name]
        start, turned = (sf.outline @ D.pose_of(rel, sf.body)[i, :3, :3].T + D.pose_of(rel, sf.body)[i, :3, 3]
                         for i in (0, 1))
        assert np.allclose(turned, (start - pivot) @ Ry.T + pivot, atol=1e-9), name
        assert turned[:, 0].min() < start[:, 0].min() - 0.01   # the top went rearward


def test_regression_viewer_figure_is_what_plotly_makes_of_it(run):
    """The viewer's figure is built as plain dicts (validating graph objects took half its time):
    plotly's graph objects accept every property of it and give back the same figure, so nothing
    in it is misspelt or dropped by plotly.js."""
    import base64
    import plotly.graph_objects as go

    def plain(o):   # typed arrays as lists (plotly may pick another dtype for the same values)
        if isinstance(o, dict):
            if set(o) == {"dtype", "bdata"}:
                return np.frombuffer(base64.b64decode(o["bdata"]), o["dtype"]).tolist()
            return {k: plain(v) for k, v in o.items()}
        if isinstance(o, (list, tuple)):
            return [plain(x) for x in o]
        return plain(o.tolist()) if isinstance(o, np.ndarray) else o
    fig = viewer.figure(run)
    checked = go.Figure(fig).to_dict()   # raises on a property plotly does not know
    assert plain(checked) == plain(fig)
    assert fig["layout"]["template"] and len(fig["frames"]) > 10


def test_regression_viewer_shows_the_occupant_through_the_vehicle(run):
    """The interactive view drew the vehicle's surfaces opaque in the occupant's mesh: the knee
    bolster and panel hid the far leg and the lap of us_ncap_frontal_56's driver. The surfaces
    (and bags) are now a see-through mesh of their own, the occupant's ellipsoids opaque."""
    import base64
    from occupant.report import data as D
    fig = viewer.figure(run, frame_dt=0.05)
    occupant, belts, vehicle = fig["data"]

    def n_vertices(trace):
        return len(np.frombuffer(base64.b64decode(trace["x"]["bdata"]), trace["x"]["dtype"]))
    assert occupant.get("opacity", 1.0) == 1.0 and 0.0 < vehicle["opacity"] < 1.0
    assert n_vertices(occupant) == len(D.shapes(run.model)) * len(viewer._unit_sphere()[0])
    assert n_vertices(vehicle) == sum(len(s.outline) for s in D.surfaces(run.model, run.results)) > 0
    assert belts["type"] == "scatter3d"
    assert all(f["traces"] == [0, 1, 2] and len(f["data"]) == 3 for f in fig["frames"])


def test_regression_image_page_fills_the_page_two_by_two():
    """Four renders: a 2 x 2 grid, each cut to the box of what any of them draws (in one row
    at their rendered size they filled a third of the PDF page)."""
    import matplotlib.pyplot as plt
    import numpy as np
    from occupant.report import figures as F
    images = [np.full((66, 60, 3), 255, np.uint8) for _ in range(4)]
    for k, img in enumerate(images):
        img[20:40, 10 + k:30 + k] = 0   # a dark square moving right by a pixel each instant
    fig = F.image_page("views", images, list("abcd"))
    shown = [ax for ax in fig.axes if ax.images]
    boxes = [ax.get_position() for ax in shown]
    sizes = [ax.images[0].get_array().shape for ax in shown]
    plt.close(fig)
    assert len({round(b.y0, 3) for b in boxes}) == 2 and len({round(b.x0, 3) for b in boxes}) == 2
    assert sizes == [(20, 23, 3)] * 4


def test_analytic_unbounded_road_spans_the_box_a_view_frames():
    """The road (an unbounded plane) does not frame a view, and each view draws it as the
    rectangle in its plane under the scene box: a pedestrian's strip drew a 0.8 m stub at the
    feet (PLANE_EXTENT) while the body was thrown 2 m along it. A bounded plane keeps its outline."""
    from occupant.modeling.geometry import Plane
    road = Plane("road")
    bolster = Plane("bolster", None, (0.5, 0.0, 0.1), (-1.0, 0.0, 0.0), (0.0, 1.0, 0.0), half_size=(0.3, 0.1))
    surfaces = [D.Surface("road", -1, D.plane_outline(road), unbounded=True),
                D.Surface("bolster", -1, D.plane_outline(bolster))]
    rel = np.tile(np.eye(4), (2, 1, 1, 1))
    ball = D.Shape("ball", 0, np.zeros(3), np.eye(3), np.full(3, 0.25))
    rel[1, 0, 0, 3] = 2.0                        # the ball thrown 2 m along x
    rel[:, 0, 2, 3] = 1.0
    lo, hi = F.scene_box(rel, [ball], surfaces, np.array([0, 1]), pad=0.0)
    # the ball and the bolster (x 0.5, y +-0.3, z 0-0.2), not the road
    assert lo == pytest.approx((-0.25, -0.3, 0.0)) and hi == pytest.approx((2.25, 0.3, 1.25))
    drawn = D.spanned(surfaces, rel, lo, hi)
    assert drawn[1] is surfaces[1]
    assert np.allclose(drawn[0].outline, [(-0.25, -0.3, 0.0), (2.25, -0.3, 0.0), (2.25, 0.3, 0.0),
                                          (-0.25, 0.3, 0.0)], atol=1e-12)
    # a tilted unbounded plane: its rectangle lies in it, about the box centre's foot on it
    slope = Plane("slope", None, (0.0, 0.0, 0.0), (0.0, np.sin(0.3), np.cos(0.3)))
    tilted = D.spanned([D.Surface("slope", -1, D.plane_outline(slope), unbounded=True)], rel, lo, hi)[0]
    n = np.array((0.0, np.sin(0.3), np.cos(0.3)))
    assert np.allclose(tilted.outline @ n, 0.0, atol=1e-12)
    middle = 0.5 * (lo + hi)
    assert tilted.outline.mean(axis=0) == pytest.approx(middle - (middle @ n) * n)


def test_regression_pedestrian_strip_draws_the_road_across_every_panel():
    """The shipped road under the walking pedestrian: in the strip's panels it spans the panel's
    width (drawn as a filled polygon edge-on: a line)."""
    from types import SimpleNamespace
    sc = load("pedestrian_40")
    res = SimpleNamespace(t=np.array([0.0]), outputs={}, channels=[],
                          body_poses=body_poses(sc.model, sc.model.make_data(), sc.q0)[None],
                          base_poses=np.eye(4)[None])
    run = SimpleNamespace(name="p", model=sc.model, results=res, scenario=sc.data, pulse=sc.pulse)
    fig = F.kinematics_strip(run, np.array([0.0]), D.SIDE_VIEW)
    try:
        ax = fig.axes[0]
        road = [p for p in _polygons(ax) if np.allclose(p.get_xy()[:, 1], 0.0, atol=1e-9)]
        assert len(road) == 1
        x = road[0].get_xy()[:, 0]
        assert x.min() <= ax.get_xlim()[0] + 1e-9 and x.max() >= ax.get_xlim()[1] - 1e-9
    finally:
        F.plt.close(fig)


def test_regression_key_instants_show_the_crash_start_of_a_precrash_run(run):
    """The 3D views of an AEB run showed 275 ms, halfway through its braking, as the way to the
    head's peak: a run with a pre-crash phase shows the crash's start, and halfway from there."""
    from types import SimpleNamespace

    from occupant.report.render3d import key_instants
    aeb = SimpleNamespace(**vars(run))
    aeb.pulse = SimpleNamespace(impact=0.04)
    plain, pre = key_instants(run), key_instants(aeb)
    assert not any(c.startswith("crash's start") for c, _ in plain)
    crash = D.sample_index(run.results.t, np.array([0.04]))[0]
    labels = [c.split(",")[0] for c, _ in pre]
    assert pre[1] == ("crash's start, 40 ms", crash) and labels[2].startswith("halfway to ")
    target = next(i for c, i in pre if c.split(",")[0] == labels[2][len("halfway to "):])
    assert pre[2][1] == (crash + target) // 2


def test_regression_key_instants_show_the_head_strike_when_its_excursion_peaks_at_the_end(run, monkeypatch):
    """A pedestrian's head moves along the road to the end of the run: its "peak excursion" was
    the end view twice (three views); the head's first contact (the panel here) is shown instead."""
    from occupant.report import render3d
    from occupant.scenario.pedestrian import CONTACT_ON
    t = run.results.t
    monkeypatch.setattr(D, "trajectories", lambda model, results: {"head": np.outer(t, (1.0, 0.0, 0.0))})
    views = render3d.key_instants(run)
    first = int(np.nonzero(run.results.outputs["head_panel.normal_force"] > CONTACT_ON)[0][0])
    assert (f"head on the panel, {1e3 * t[first]:.0f} ms", first) in views
    assert views[-1] == (f"end, {1e3 * t[-1]:.0f} ms", len(t) - 1) and len(views) == 4
