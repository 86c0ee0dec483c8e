"""What the report draws, against closed forms: ellipsoid shadows, poses in the vehicle frame,
vehicle planes, filter classes and the energy identity."""
import numpy as np
import pytest

from occupant.report import data as D
from occupant.spatial.rotation import rot_y as _rot_y


def test_shadow_of_a_sphere_is_a_circle():
    s = D.Shape("ball", 0, np.array([0.1, 0.2, 0.3]), _rot_y(0.7), np.full(3, 0.05))
    X = np.eye(4)
    X[:3, 3] = (1.0, 2.0, 3.0)
    (cx, cz), w, h, _ = D.projected_ellipse(X, s)
    assert (cx, cz) == pytest.approx((1.1, 3.3))
    assert w == pytest.approx(0.1) and h == pytest.approx(0.1)


@pytest.mark.parametrize("theta", [0.0, 0.4, -1.1])
def test_shadow_of_an_ellipsoid_turned_about_y(theta):
    # an ellipsoid turned about the viewing axis y keeps its x-z section as its shadow: semi-axes
    # a (x) and c (z) turned by theta in the x-z plane; y's semi-axis plays no part
    a, b, c = 0.2, 0.5, 0.08
    s = D.Shape("e", 0, np.zeros(3), np.eye(3), np.array([a, b, c]))
    X = np.eye(4)
    X[:3, :3] = _rot_y(theta)
    (cx, cz), w, h, angle = D.projected_ellipse(X, s)
    assert sorted([w, h]) == pytest.approx([2 * c, 2 * a])
    major = np.radians(angle) if w >= h else np.radians(angle) + np.pi / 2
    # rotation about y by theta turns x towards -z: the major axis at -theta in the (x, z) plane
    assert np.sin(major + theta) == pytest.approx(0.0, abs=1e-9)


def test_shadow_matches_sampled_outline():
    rng = np.random.default_rng(3)
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    s = D.Shape("e", 0, np.array([0.05, -0.1, 0.2]), q, np.array([0.3, 0.1, 0.15]))
    (cx, cz), w, h, angle = D.projected_ellipse(np.eye(4), s)
    # sample the ellipsoid's surface, project, and compare the extreme extents along x and z
    u = rng.normal(size=(200000, 3))
    p = (u / np.linalg.norm(u, axis=1)[:, None] * s.semi_axes) @ q.T + s.center
    t = np.radians(angle)
    ex = np.sqrt((w / 2 * np.cos(t)) ** 2 + (h / 2 * np.sin(t)) ** 2)   # half-extent along x
    ez = np.sqrt((w / 2 * np.sin(t)) ** 2 + (h / 2 * np.cos(t)) ** 2)
    assert p[:, 0].max() - cx == pytest.approx(ex, rel=2e-3)
    assert p[:, 2].max() - cz == pytest.approx(ez, rel=2e-3)


def test_poses_and_planes_in_the_vehicle_frame(run):
    res = run.results
    rel = D.relative_poses(res)
    k = len(res.t) // 2
    Binv = np.linalg.inv(res.base_poses[k])
    assert np.allclose(rel[k], Binv @ res.body_poses[k], atol=1e-12)
    # the sled moves ~1.2 m during the run, the occupant relative to it far less
    head = run.model.body_names.index("head")
    assert np.ptp(res.body_poses[:, head, 0, 3]) > 1.0 > np.ptp(rel[:, head, 0, 3])
    planes = {s.name: s for s in D.surfaces(run.model)}
    assert set(planes) == {"floor", "knee_bolster", "panel"} and all(s.body == -1 for s in planes.values())
    # the knee bolster: x = 0.52 facing -x, 0.12 m high and 0.3 m wide each side of its centre
    c = planes["knee_bolster"].outline
    assert np.allclose(c[:, 0], 0.52) and np.allclose(sorted(set(np.round(c[:, 2], 9))), [-0.04, 0.20])
    assert np.allclose(sorted(set(np.round(c[:, 1], 9))), [-0.3, 0.3])
    shapes = {s.name: s for s in D.shapes(run.model)}
    # 17 + chin, occiput, sternum, knee pads, heels, shoulder shells (22 before footsplit, 24
    # before shoulderheld)
    assert len(shapes) == 26 and shapes["head_shell"].body == head
    assert {"left_shoulder_shell", "right_shoulder_shell"} <= set(shapes)


def test_analytic_disc_outline_is_a_circle_of_its_radius_in_its_plane():
    """A plane bounded by a disc (a steering wheel) is drawn as the regular DISC_SIDES-gon
    inscribed in its circle: every vertex at the radius from its centre, in its plane, a turn
    of 2 pi / DISC_SIDES apart counter-clockwise about its normal (the vector area along +normal,
    of size n/2 r^2 sin(2 pi/n)); it was the enclosing square (4 vertices 0.19 sqrt 2 out)."""
    from occupant.modeling.geometry import Plane
    r, centre = 0.19, np.array([0.36, 0.0, 0.37])
    n = np.array([-0.921, 0.0, 0.391]) / np.hypot(0.921, 0.391)
    disc = Plane("wheel", None, centre, n, (0.391, 0.0, 0.921), radius=r)
    p = D.plane_outline(disc)
    k = D.DISC_SIDES
    assert p.shape == (k, 3) and k >= 32
    d = p - centre
    assert np.allclose(np.linalg.norm(d, axis=1), r, atol=1e-12) and np.allclose(d @ n, 0.0, atol=1e-12)
    turn = np.arctan2(np.cross(d, np.roll(d, -1, axis=0)) @ n, np.einsum("ij,ij->i", d, np.roll(d, -1, axis=0)))
    assert np.allclose(turn, 2 * np.pi / k, atol=1e-12)
    area = 0.5 * np.cross(p, np.roll(p, -1, axis=0)).sum(axis=0)
    assert np.allclose(area, 0.5 * k * r**2 * np.sin(2 * np.pi / k) * n, atol=1e-12)
    assert D.facing(p, 0) and not D.facing(p, 1)   # seen from the front, edge-on from the side


def test_analytic_rectangle_and_unbounded_outlines_are_their_four_corners():
    """A rectangle keeps its four corners point +- h_u u +- h_w w, counter-clockwise about its
    normal; an unbounded plane is drawn as the square of half size PLANE_EXTENT."""
    from occupant.modeling.geometry import Plane
    bolster = Plane("bolster", None, (0.52, 0.0, 0.08), (-1.0, 0.0, 0.0), (0.0, 1.0, 0.0), half_size=(0.3, 0.12))
    u, w = np.array([0.0, 1.0, 0.0]), np.array([0.0, 0.0, -1.0])   # w = normal x u
    c = np.array([0.52, 0.0, 0.08])
    assert np.allclose(D.plane_outline(bolster), [c - 0.3 * u - 0.12 * w, c + 0.3 * u - 0.12 * w,
                                                  c + 0.3 * u + 0.12 * w, c - 0.3 * u + 0.12 * w], atol=1e-15)
    floor = D.plane_outline(Plane("floor"))
    e = D.PLANE_EXTENT
    assert np.allclose(floor, [(-e, -e, 0.0), (e, -e, 0.0), (e, e, 0.0), (-e, e, 0.0)], atol=1e-15)


def test_regression_shipped_steering_wheel_is_drawn_round():
    """us_ncap_frontal_56's steering wheel (vehicles/midsize_sedan_driver.toml: its face, a disc
    of radius 0.19 m, and its hub, one of 0.08 m, drawn as circles of that radius; its rim a
    ring 0.16-0.19 m from the axis, branch wheelring, drawn as the band of triangles between two
    circles, its hole open); its other surfaces keep four corners."""
    from occupant.scenario.load import load
    model = load("us_ncap_frontal_56").model
    planes = {g.name: g for g in model.source.geometries.values() if type(g).__name__ == "Plane"}
    discs = {name for name, g in planes.items() if g.radius is not None and g.inner_radius is None}
    rings = {name for name, g in planes.items() if g.inner_radius is not None}
    assert discs == {"steering_wheel", "steering_wheel_hub"} and rings == {"steering_wheel_rim"}
    for s in D.surfaces(model):
        if s.name in discs:
            assert len(s.outline) == D.DISC_SIDES and s.triangles is None
            assert np.allclose(np.linalg.norm(s.outline - s.outline.mean(axis=0), axis=1), planes[s.name].radius)
        elif s.name in rings:
            g = planes[s.name]
            radial = np.linalg.norm(s.outline - s.outline.mean(axis=0), axis=1)
            assert np.allclose(radial[:D.DISC_SIDES], g.radius)
            assert np.allclose(radial[D.DISC_SIDES:], g.inner_radius)
            assert len(s.triangles) == 2 * D.DISC_SIDES
            # every triangle spans the band (one or two vertices on each circle): none over the hole
            outer = (s.triangles < D.DISC_SIDES).sum(axis=1)
            assert np.all((outer == 1) | (outer == 2))
            # counter-clockwise about the ring's normal
            V = s.outline[s.triangles]
            normal = np.cross(V[:, 1] - V[:, 0], V[:, 2] - V[:, 0]) @ g.normal
            assert np.all(normal > 0)
        else:
            assert len(s.outline) == 4, s.name


def test_channels_filtered_as_their_criteria_prescribe(run):
    ch = {c.name: c for c in run.results.channels}
    expect = {"Head CG acceleration X": 1000, "Chest acceleration X": 180, "Upper neck force Z": 600,
              "Left femur force Z": 600, "Left femur moment Y": 600, "Pelvis acceleration X": 1000}
    for name, cfc in expect.items():
        t, v, unit, got = D.filtered_channel(ch[name])
        assert got == cfc
    t, v, unit, _ = D.filtered_channel(ch["Head CG acceleration X"])
    assert unit == "g"
    raw = ch["Head CG acceleration X"].values / 9.80665
    assert np.max(np.abs(v)) <= np.max(np.abs(raw)) * 1.05   # a low-pass filter does not amplify


def test_energy_terms_close(run):
    terms, closing = D.energy_terms(run.results)
    work = sum(v for k, v in terms.items() if k.startswith("work: "))
    # E(t) - E(0) - W(t) is the balance (occupant.simulate), term by term
    assert np.allclose(terms["kinetic"] + terms["potential"] - work, terms["balance"], atol=1e-6)
    assert closing < 1e-3


def test_frame_times():
    assert np.allclose(D.frame_times(np.linspace(0, 0.1, 1001)), np.arange(0, 0.1001, 0.01))
    assert np.allclose(D.frame_times(np.linspace(0, 0.15, 1501)), np.arange(0, 0.1501, 0.015))
    assert len(D.frame_times(np.linspace(0, 0.2, 2001))) == 11


def test_a_run_with_nothing_optional_still_reports(run, tmp_path):
    """No channels, no criteria, no energy: the report says so instead of failing."""
    import dataclasses
    import types

    from occupant.report import write
    bare = types.SimpleNamespace(**vars(run))
    bare.results = dataclasses.replace(run.results, channels=[], energy={}, work={}, outputs={},
                                       status="diverged", message="non-finite state at t = 0.05 s")
    bare.criteria = []
    html_path, pdf_path = write(bare, tmp_path, viewer=False, renders=False)
    text = html_path.read_text()
    assert "no criterion judged" in text and "diverged: non-finite state at t = 0.05 s" in text
    assert "The run stopped early (diverged)" in text and 'id="channels"' not in text and pdf_path.stat().st_size > 1000


def test_analytic_front_view_shadow_of_an_ellipsoid():
    """Seen along x (front view, B0 axes y-z) an axis-aligned ellipsoid's shadow has the y and z
    semi-axes; its centre is (y, z) of the centre."""
    s = D.Shape("e", 0, np.array([0.1, 0.2, 0.3]), np.eye(3), np.array([0.2, 0.5, 0.08]))
    (cy, cz), w, h, _ = D.projected_ellipse(np.eye(4), s, D.FRONT_VIEW[1])
    assert (cy, cz) == pytest.approx((0.2, 0.3))
    assert sorted([w, h]) == pytest.approx([0.16, 1.0])


@pytest.mark.parametrize("direction, names", [((1.0, 0.0, 0.0), ["Side view"]),
                                              ((-1.0, 0.0, 0.0), ["Side view"]),
                                              ((0.0, -1.0, 0.0), ["Front view"]),
                                              ((0.7, 0.7, 0.0), ["Side view", "Front view"])])
def test_regression_view_follows_the_pulse_direction(direction, names):
    from types import SimpleNamespace
    run = SimpleNamespace(pulse=SimpleNamespace(direction=direction), scenario={})
    assert [v[0] for v in D.views(run)] == names
    assert D.frame_name(run) == "vehicle frame"


def test_regression_pedestrian_frame_is_the_road():
    from types import SimpleNamespace
    run = SimpleNamespace(pulse=None, scenario={"vehicle": {"interior": "road", "front": "sedan_front_midsize"}})
    assert D.frame_name(run) == "road frame" and [v[0] for v in D.views(run)] == ["Side view"]


def test_analytic_scene_box_holds_a_body_over_every_instant():
    """A unit-radius ball moving 2 m along y between two instants: the box spans both places."""
    from occupant.report.figures import scene_box
    n = 3
    rel = np.tile(np.eye(4), (n, 1, 1, 1))
    rel[:, 0, 1, 3] = (0.0, 1.0, 2.0)
    ball = D.Shape("ball", 0, np.zeros(3), np.eye(3), np.full(3, 1.0))
    lo, hi = scene_box(rel, [ball], [], np.array([0, 2]), pad=0.0)
    assert lo == pytest.approx((-1.0, -1.0, -1.0)) and hi == pytest.approx((1.0, 3.0, 1.0))


def _moving_run(a_b0, v_b0, R=None, scenario=None, direction=(1.0, 0.0, 0.0)):
    """A run namespace whose B0 has the kinematic acceleration a_b0 (n, 3) and velocity v_b0
    (n, 3) in its own axes, turned by R (n, 3, 3), stored as results.base_states holds them
    (acceleration minus gravity)."""
    from types import SimpleNamespace
    n = len(a_b0)
    R = np.broadcast_to(np.eye(3), (n, 3, 3)) if R is None else R
    poses = np.broadcast_to(np.eye(4), (n, 4, 4)).copy()
    poses[:, :3, :3] = R
    states = np.zeros((n, 12))
    states[:, 3:6] = v_b0
    states[:, 9:12] = a_b0 - np.einsum("tji,j->ti", R, (0.0, 0.0, -D.G0))
    res = SimpleNamespace(t=np.linspace(0.0, 0.06, n), base_states=states, base_poses=poses)
    return SimpleNamespace(name="r", results=res, scenario=scenario or {}, test_object="vehicle",
                           pulse=SimpleNamespace(direction=direction))


def test_regression_side_pulse_is_shown_along_y():
    """A side pulse (B0 pushed along -y) is drawn along y, and the 1 g that base_states holds in
    z (acceleration minus gravity) is not taken for a vertical motion."""
    n = 61
    t = np.linspace(0.0, 0.06, n)
    a = np.zeros((n, 3))
    a[:, 1] = -21.5 * D.G0 * np.sin(np.pi * t / 0.06)
    v = np.zeros((n, 3))
    v[:, 1] = -21.5 * D.G0 * 0.06 / np.pi * (1 - np.cos(np.pi * t / 0.06))
    what, series = D.vehicle_motion(_moving_run(a, v, direction=(0.0, 1.0, 0.0)))
    assert what == "vehicle" and list(series) == ["y"]
    assert series["y"][0].min() == pytest.approx(-21.5, rel=1e-3)
    assert series["y"][1][-1] == pytest.approx(-3.6 * 2 * 21.5 * D.G0 * 0.06 / np.pi)   # delta-v, km/h


def test_regression_sled_pulse_is_named_the_sled():
    """A sled test's B0 is the sled (its interior's test_object, as its ISO-MME channels say
    S0SLED): the pulse figure names the sled, not a vehicle (it said "Vehicle" for every run)."""
    from types import SimpleNamespace
    from occupant.report import figures as F
    n = 11
    a = np.zeros((n, 3))
    a[:, 0] = -20.0 * D.G0
    run = _moving_run(a, np.zeros((n, 3)))
    run.test_object = "sled"
    what, series = D.vehicle_motion(run)
    assert what == "sled" and list(series) == ["x"]
    fig = F.pulse([run])
    assert fig.axes[0].get_title() == "Sled acceleration along the sled's x (B0)"
    F.plt.close(fig)


def test_analytic_pitched_vehicle_at_rest_does_not_move():
    """B0 pitched by 5 deg and still: gravity in its axes is not a motion; the figure falls back
    to the pulse's axis, flat."""
    from occupant.spatial.rotation import rot_y
    n = 5
    R = np.broadcast_to(rot_y(np.radians(5.0)), (n, 3, 3))
    what, series = D.vehicle_motion(_moving_run(np.zeros((n, 3)), np.zeros((n, 3)), R=R))
    assert list(series) == ["x"]
    assert np.abs(series["x"][0]).max() < 1e-12 and np.abs(series["x"][1]).max() == 0.0


def test_regression_pedestrian_pulse_is_the_car_on_the_road():
    """In a pedestrian run B0 (the road) is still: the figure shows the car's travel coordinate."""
    from types import SimpleNamespace
    from occupant.scenario.vehicle_front import JOINT
    n = 4
    run = _moving_run(np.zeros((n, 3)), np.zeros((n, 3)),
                      scenario={"vehicle": {"interior": "road", "front": "sedan_front_midsize"}})
    run.model = SimpleNamespace(joint_names=["root", JOINT], joint_links=[[0], [1]],
                                tree=SimpleNamespace(qidx=[0, 7], vidx=[0, 6]))
    run.results.v = np.zeros((n, 7))
    run.results.v[:, 6] = 40 / 3.6
    run.results.vdot = np.zeros((n, 7))
    run.results.vdot[:, 6] = -0.5 * D.G0
    what, series = D.vehicle_motion(run)
    assert what == "car"
    assert series["x"][1] == pytest.approx(np.full(n, 40.0)) and series["x"][0] == pytest.approx(np.full(n, -0.5))


def test_regression_pulse_figure_draws_a_side_pulse():
    """The pulse figure of a side run draws its 21.5 g (the old figure drew B0's x only: flat)."""
    import matplotlib.pyplot as plt
    from occupant.report import figures as F
    n = 61
    t = np.linspace(0.0, 0.06, n)
    a = np.zeros((n, 3))
    a[:, 1] = -21.5 * D.G0 * np.sin(np.pi * t / 0.06)
    fig = F.pulse([_moving_run(a, np.zeros((n, 3)), direction=(0.0, 1.0, 0.0))])
    drawn = [np.abs(line.get_ydata()).max() for line in fig.axes[0].get_lines()]
    plt.close(fig)
    assert max(drawn) == pytest.approx(21.5, rel=1e-3)


def test_regression_t1_accelerometer_is_filtered_as_nic_reads_it():
    """The rear-impact T1 channel (THSP, fine location 01) is drawn at CFC 60, the class NIC and
    the peak T1 acceleration read it with (it was drawn raw: the lookup wanted a "T1" location,
    which no ISO-MME code carries); a T12 accelerometer is not NIC's."""
    from occupant.channel import Channel
    from occupant.injury.criteria import CRITERION_CFC
    t = np.arange(0.0, 0.05, 1e-4)
    t1 = Channel("T1 acceleration X", t, np.sin(400 * t), "m/s^2", code="11THSP0100H3ACX0")
    t12 = Channel("T12 acceleration X", t, np.sin(400 * t), "m/s^2", code="11THSP1200H3ACX0")
    assert D.channel_cfc(t1) == CRITERION_CFC["nic"] == 60
    assert D.channel_cfc(t12) is None


def test_regression_precrash_strip_keeps_the_crash_sampled():
    """A 650 ms AEB run whose crash starts at 500 ms: three instants of the braking, then the
    crash every 15 ms (the whole run every 65 ms gave the crash three frames)."""
    from types import SimpleNamespace
    t = np.linspace(0.0, 0.65, 6501)
    run = SimpleNamespace(results=SimpleNamespace(t=t), pulse=SimpleNamespace(impact=0.5))
    times = D.strip_times(run)
    assert np.allclose(times[:3], [0.0, 0.5 / 3, 1.0 / 3])
    assert np.allclose(times[3:], np.arange(0.5, 0.6501, 0.015))
    plain = SimpleNamespace(results=SimpleNamespace(t=t[:1501]), pulse=SimpleNamespace(direction=(1, 0, 0)))
    assert np.allclose(D.strip_times(plain), D.frame_times(t[:1501]))


@pytest.mark.parametrize("view", [D.SIDE_VIEW, D.FRONT_VIEW])
def test_regression_strip_title_names_what_is_drawn_and_clears_the_panels(run, view):
    """The fixture has surfaces but neither airbag nor belt: the title's key names only what
    the panels show, and it stays above the first row's panel titles (the side impact's
    three-row front view had them overlapping)."""
    from occupant.report.figures import kinematics_strip, plt
    times = np.linspace(0.0, run.results.t[-1], 13)   # three rows of six, as the side impact
    fig = kinematics_strip(run, times, view)
    try:
        title = fig._suptitle
        # the front view outlines the bolster and panel, which face it (test_report_views)
        key = "surfaces grey" + (" (outlined where they face the view)" if view == D.FRONT_VIEW else "")
        assert title.get_text().endswith(key) and "airbag" not in title.get_text()
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        top = title.get_window_extent(renderer)
        panel = fig.axes[0].title.get_window_extent(renderer)
        assert top.y0 > panel.y1, (top, panel)
    finally:
        plt.close(fig)


def test_analytic_sliding_scale_columns_only_where_a_protocol_has_them():
    """A Euro NCAP row adds its sliding scale and points (and the table its legend); an FMVSS
    table keeps its five columns."""
    from occupant.report import tables as T
    fmvss = [dict(criterion="HIC15", value=377.0, unit="-", limit=700.0, **{"pass": True})]
    assert T.criteria_rows(fmvss)[0] == ("criterion", "value", "unit", "limit", "result")
    assert T.scale_notes(fmvss) == []
    ncap = fmvss + [dict(criterion="chest deflection", value=25.0, unit="mm", limit=34.0, scale=[18.0, 34.0],
                         points=1.75, max_points=4.0, **{"pass": True})]
    header, rows, _, _ = T.criteria_rows(ncap)
    assert header[-2:] == ("sliding scale", "points")
    assert rows[0][-2:] == ("-", "-") and rows[1][-2:] == ("18.0 to 34.0", "1.75 of 4")
    assert T.scale_notes(ncap)[0].startswith("sliding scale: from the higher performance limit")


def test_regression_criteria_table_writes_values_as_the_summary_does():
    """The report's criteria table wrote a rear run's head rotation 8.429e-06 deg as
    "8.429e-06" where the printed summary says 0.0: both now write values, limits and scales
    with occupant.display.value_text, never with an exponent. VC to two decimals: at one
    decimal 0.31 m/s read "0.3" beside a 0.5 to 1.0 m/s scale."""
    from occupant import display
    from occupant.report import tables as T
    from occupant.scenario import command
    rows = [dict(criterion="head rotation", value=8.429e-06, unit="deg", limit=None, **{"pass": None}),
            dict(criterion="Nkm", value=-2e-05, unit="-", limit=1.0, **{"pass": True}),
            dict(criterion="neck tension", value=1234.56, unit="N", limit=4170.0, **{"pass": True}),
            dict(criterion="HIC15", value=377.4, unit="-", limit=700.0, **{"pass": True}),
            dict(criterion="VC", value=0.3149, unit="m/s", limit=1.0, **{"pass": True})]
    _, table, _, _ = T.criteria_rows(rows)
    assert [(r[1], r[3]) for r in table] == [("0.0", "-"), ("0.000", "1"), ("1235", "4170"), ("377", "700"),
                                             ("0.31", "1.00")]
    assert command.value_text is display.value_text   # the summary's formatter, not a second one
    assert not any("e" in r[1] for r in table)


def test_regression_moments_read_n_m_in_summary_criteria_csv_and_report():
    """Neck extension's row said "N*m" (summary, criteria.csv, report table) where the channel
    plots say "N m": every criterion row's unit is now the displayed spelling, the one a moment
    channel is plotted with; a criteria.csv written before still shows "N m" in the report.
    ISO-MME keeps its own code for both spellings."""
    from occupant.channel import Channel
    from occupant.display import unit_text
    from occupant.io.isomme import _UNIT_TO_MME
    from occupant.report import tables as T
    from occupant.scenario.criteria import OPTIONAL_ROWS, ROWS
    assert all(unit_text(unit) == unit for _, _, unit, _ in ROWS + OPTIONAL_ROWS)
    extension = next(unit for name, _, unit, _ in OPTIONAL_ROWS if name == "neck extension")
    t = np.linspace(0.0, 0.01, 101)
    moment = Channel("Upper neck moment Y", t, np.zeros_like(t), "N*m", code="11NECKUP00H3MOYB")
    assert D.filtered_channel(moment)[2] == extension == "N m"
    old = dict(criterion="neck extension", value=-36.51, unit="N*m", limit=-57.0, **{"pass": True})
    assert T.criteria_rows([old])[1][0][1:4] == ("-36.5", "N m", "-57.0")
    assert _UNIT_TO_MME["N*m"] == _UNIT_TO_MME["N m"] == "Nm"


def test_regression_precrash_channels_show_the_crash_and_the_braking_apart(run):
    """A 650 ms AEB run drew its channels over 0-650 ms, the 150 ms crash in the last quarter:
    a run with a pre-crash phase (data.crash_start, the strip's) draws them from the crash's
    start, and the pre-crash phase in a figure of its own; each channel filtered over its whole
    record first (the same samples as the whole-run drawing)."""
    from types import SimpleNamespace

    from occupant.report.figures import channels, plt
    t = run.results.t
    aeb = SimpleNamespace(**vars(run))
    aeb.pulse = SimpleNamespace(impact=0.04)
    assert D.crash_start(aeb) == 0.04 and D.crash_start(run) is None
    assert D.crash_start(SimpleNamespace(results=run.results, pulse=SimpleNamespace(impact=t[-1]))) is None
    whole = channels([run])
    crash = channels([aeb], window=(0.04, t[-1]))
    before = channels([aeb], window=(t[0], 0.04))
    try:
        for fig, (lo, hi) in ((crash, (40.0, 1e3 * t[-1])), (before, (0.0, 40.0))):
            drawn = [ax for ax in fig.axes if ax.lines]
            assert len(drawn) == len([ax for ax in whole.axes if ax.lines])
            for ax, full in zip(drawn, [ax for ax in whole.axes if ax.lines]):
                assert np.allclose(ax.get_xlim(), (lo, hi))
                for line, ref in zip(ax.lines, full.lines):
                    x, y = line.get_xdata(), line.get_ydata()
                    assert x.min() >= lo - 1e-9 and x.max() <= hi + 1e-9 and len(x) > 10
                    keep = (ref.get_xdata() >= lo - 1e-9) & (ref.get_xdata() <= hi + 1e-9)
                    np.testing.assert_array_equal(y, ref.get_ydata()[keep])
    finally:
        for fig in (whole, crash, before):
            plt.close(fig)


def test_regression_precrash_restraints_show_the_crash_and_the_braking_apart(run):
    """The restraint and contact forces of a run with a pre-crash phase, as its channels: each
    phase in a figure of its own, the contacts ranked by their peak within it, those that never
    push in it left out."""
    from occupant.report.figures import plt, restraints
    t = run.results.t
    forces = D.contact_forces(run.results)
    for lo, hi in ((0.0, 0.04), (0.04, t[-1])):
        fig = restraints(run, window=(lo, hi))
        try:
            keep = D.in_window(t, (lo, hi))
            active = {name for name, f in forces.items() if np.any(f[keep] != 0)}
            ax = next(ax for ax in fig.axes if ax.lines)
            assert np.allclose(ax.get_xlim(), (1e3 * lo, 1e3 * hi))
            assert {line.get_label().replace(" / ", "__") for line in ax.lines} == active
            for line in ax.lines:
                name = line.get_label().replace(" / ", "__")
                assert np.array_equal(line.get_xdata(), 1e3 * t[keep])
                np.testing.assert_array_equal(line.get_ydata(), 1e-3 * forces[name][keep])
        finally:
            plt.close(fig)


def test_regression_restraint_panel_flat_through_its_window_is_left_out(run, monkeypatch):
    """The AEB run's pre-crash page drew its bag's volume, 1 L and flat (the bag fires in the
    crash): a panel whose every series holds one value through the window is left out; in the
    crash, where it inflates, it is drawn."""
    from occupant.report.figures import plt, restraints
    t = run.results.t
    volume = np.where(t < 0.04, 1.0, 1.0 + 1e3 * (t - 0.04))
    monkeypatch.setattr(D, "restraint_outputs", lambda model, res: {"bag: volume": ("L", {"volume": volume})})
    for window, shown in (((0.0, 0.04), False), ((0.04, t[-1]), True)):
        fig = restraints(run, window=window)
        try:
            assert any(ax.get_title() == "bag: volume" for ax in fig.axes) == shown
        finally:
            plt.close(fig)


def test_regression_precrash_report_has_the_crash_and_the_pre_crash_channels(run, tmp_path):
    """The report of a run with a pre-crash phase shows its channels from the crash's start and,
    under them, the pre-crash phase; a run without one keeps its single whole-run figure."""
    from types import SimpleNamespace

    from occupant.report import write
    aeb = SimpleNamespace(**vars(run))
    aeb.pulse = SimpleNamespace(impact=0.04)
    text = write(aeb, tmp_path / "aeb", viewer=False, renders=False, pdf=False, parallel=False)[0].read_text()
    assert 'alt="sensor channels in the crash"' in text and 'alt="sensor channels before the crash"' in text
    assert "from its start at 40 ms" in text and "The pre-crash phase, 0-40 ms" in text
    assert 'alt="restraint outputs in the crash"' in text and 'alt="restraint outputs before the crash"' in text
    plain = write(run, tmp_path / "plain", viewer=False, renders=False, pdf=False, parallel=False)[0].read_text()
    assert 'alt="sensor channels"' in plain and "before the crash" not in plain


def test_regression_whole_run_figures_mark_the_crash_start(run):
    """Figures that span a whole run with a pre-crash phase (pulse, trajectories, energy) mark
    where the crash starts: a dashed line at data.crash_start on every time axis, a square on
    each path at that instant; a run without one has no mark."""
    from types import SimpleNamespace

    from occupant.report.figures import energy, plt, pulse, trajectories
    aeb = SimpleNamespace(**vars(run))
    aeb.pulse = SimpleNamespace(impact=0.04)
    for r, marks in ((aeb, 1), (run, 0)):
        figs = [pulse([r]), trajectories([r]), energy(r)]
        try:
            timed = [ax for fig in figs for ax in fig.axes if ax.get_xlabel() == "time (ms)"
                     or ax.get_ylabel().startswith(("along", "across", "vertical"))]
            assert len(timed) == 7      # pulse 2, excursions 3, energy 2
            for ax in timed:
                dashed = [ln for ln in ax.lines if ln.get_linestyle() == "--" and len(ln.get_xdata()) == 2]
                assert len(dashed) == marks
                assert all(np.allclose(ln.get_xdata(), 40.0) for ln in dashed)
            plane = figs[1].axes[0]
            squares = [ln for ln in plane.lines if ln.get_marker() == "s"]
            assert len(squares) == 5 * marks
            k = D.sample_index(run.results.t, np.array([0.04]))[0]
            head = D.trajectories(run.model, run.results)["head"]
            if marks:
                assert np.allclose([squares[0].get_xdata()[0], squares[0].get_ydata()[0]], 1e3 * head[k, [0, 2]])
        finally:
            for fig in figs:
                plt.close(fig)


def test_regression_settings_list_every_contact_pair_and_bag_contact():
    """The settings table wrote ``[[contact]]`` as one line cut at 90 characters ("[13 values:
    {'a': [...], 'b': 'seat...") and a bag's contact list as its first three names: each pair is
    now a row per key, and names are listed whole; long lists of numbers stay shortened."""
    from occupant.report import tables as T
    names = [f"body_{i}_shell" for i in range(11)]
    rows = T.flatten({"contact": [{"a": ["pelvis_flesh", "thorax"], "b": "seat_back"},
                                  {"a": "chin", "b": "windshield", "characteristic": "glass"}],
                      "restraints": {"airbag": {"contact": names}},
                      "pulse": {"table": list(range(20))}})
    assert rows == [("contact[0].a", "['pelvis_flesh', 'thorax']"), ("contact[0].b", "seat_back"),
                    ("contact[1].a", "chin"), ("contact[1].b", "windshield"),
                    ("contact[1].characteristic", "glass"),
                    ("restraints.airbag.contact", repr(names)),
                    ("pulse.table", "[20 values: 0, 1, 2, ...]")]


def test_regression_text_pages_continue_a_long_table_instead_of_cutting_it():
    """The PDF's first page cut the scenario settings at its foot with "..." (us_ncap_frontal_56:
    everything after restraints.knee_airbag.kind missing): a table longer than a page goes on
    to the next, each key once, every line on the page, a long value wrapped."""
    import matplotlib.pyplot as plt
    from occupant.report import figures as F
    rows = [(f"key_{i}", "x" * (250 if i == 7 else 5)) for i in range(70)]
    pages = F.text_pages("Title", [("Run", [("run", "r")]), ("Settings", rows)])
    texts = [(t.get_text(), t.get_position()[1]) for fig in pages for t in fig.texts]
    assert len(pages) == 3 and texts[0][0] == "Title" and pages[1].texts[0].get_text() == "Title (continued)"
    assert pages[1].texts[1].get_text() == "Settings (continued)"
    assert [s for s, _ in texts if s.startswith("key_")] == [k for k, _ in rows]
    assert sum(s.startswith("x") for s, _ in texts) == 70 + 2   # the 250 characters on 3 lines
    assert all(0.04 < y < 1.0 for _, y in texts) and not any(s == "..." for s, _ in texts)
    for fig in pages:
        plt.close(fig)


def _points_under_legend(ax):
    """Number of the axes' line vertices drawn inside its legend's box."""
    ax.figure.canvas.draw()
    box = ax.get_legend().get_window_extent()
    inside = 0
    for line in ax.lines:
        x, y = line.get_transform().transform(line.get_xydata()).T
        inside += int(np.sum((box.x0 <= x) & (x <= box.x1) & (box.y0 <= y) & (y <= box.y1)))
    return inside


def test_regression_energy_and_channel_legends_hide_no_curve():
    """The legends of the energy balance and of the first channel panel sat in the upper left,
    over 2044 points of us_ncap_frontal_56's energy terms (their first 20 ms) and 390 of
    fmvss208_sled_48_unbelted's head acceleration (its early rise): they now go where no curve
    is. Synthetic curves of those shapes."""
    import types
    import matplotlib.pyplot as plt
    from occupant import Channel
    from occupant.report import figures as F
    t = np.arange(0.0, 0.1501, 1e-4)
    ramp = np.clip((t - 0.02) / 0.05, 0.0, 1.0)   # zero for 20 ms, then falls as a crash's
    work = {"contacts": -3.4e3 * ramp, "airbags": -1.1e3 * ramp, "belts": -4.3e3 * ramp}
    kinetic = 9.7e3 - 8.8e3 * ramp
    energy = dict(kinetic=kinetic, potential=np.zeros_like(t), work=sum(work.values()),
                  balance=kinetic - kinetic[0] - sum(work.values()))
    run = types.SimpleNamespace(results=types.SimpleNamespace(t=t, energy=energy, work=work, channels=[]))
    fig = F.energy(run)
    assert _points_under_legend(fig.axes[0]) == 0
    plt.close(fig)
    def bump(g, start, end):   # a half-sine of g between start and end, m/s^2
        return g * 9.81 * np.sin(np.pi * np.clip((t - start) / (end - start), 0.0, 1.0))
    run.results.channels = [Channel(f"Head CG acceleration {a}", t, v, "m/s^2") for a, v in
                            zip("XYZ", (bump(-60, 0.03, 0.09), bump(3, 0.02, 0.1), bump(20, 0.01, 0.04)))]
    fig = F.channels([run])
    assert _points_under_legend(fig.axes[0]) == 0
    plt.close(fig)


def test_regression_the_energy_pages_titles_lie_inside_the_page():
    """(usercheck11) The balance residual's title, "Balance residual (max 0.0093 % of the largest
    term)", ran past the right edge of its A4 page: its ")" and part of "term" cut off. Every
    title of the figure now lies within the figure."""
    import types
    import matplotlib.pyplot as plt
    from occupant.report import figures as F
    t = np.arange(0.0, 0.1501, 1e-4)
    ramp = np.clip((t - 0.02) / 0.05, 0.0, 1.0)
    work = {"contacts": -1.6e3 * ramp, "belts": -1.3e3 * ramp}
    kinetic = 3.9e3 - 2.9e3 * ramp + 0.28 * ramp   # a residual of 0.28 J: 0.0097 % of the largest term
    energy = dict(kinetic=kinetic, potential=np.zeros_like(t), work=sum(work.values()),
                  balance=kinetic - kinetic[0] - sum(work.values()))
    run = types.SimpleNamespace(results=types.SimpleNamespace(t=t, energy=energy, work=work, channels=[]))
    fig = F.energy(run)
    renderer = fig.canvas.get_renderer()
    page = fig.bbox
    for ax in fig.axes:
        box = ax.title.get_window_extent(renderer)
        assert ax.get_title() and page.x0 <= box.x0 and box.x1 <= page.x1 and box.y1 <= page.y1, \
            (ax.get_title(), box, page)
    plt.close(fig)


@pytest.mark.parametrize("axes, legend", [("x", None), ("xz", ["x", "z"])])
def test_regression_pulse_legend_only_where_it_tells_curves_apart(axes, legend):
    """One run along one axis: no legend, the axis named in the titles (the frontal reports
    carried a one-entry legend "axis x"); two axes keep theirs."""
    import matplotlib.pyplot as plt
    from occupant.report import figures as F
    n = 61
    t = np.linspace(0.0, 0.06, n)
    a = np.zeros((n, 3))
    for k in axes:
        a[:, "xyz".index(k)] = -20.0 * D.G0 * np.sin(np.pi * t / 0.06)
    fig = F.pulse([_moving_run(a, np.zeros((n, 3)))])
    drawn = fig.axes[0].get_legend()
    titles = [ax.get_title() for ax in fig.axes]
    plt.close(fig)
    assert (drawn and [x.get_text() for x in drawn.get_texts()]) == legend
    if legend is None:
        assert titles == ["Vehicle acceleration along the vehicle's x (B0)",
                          "Vehicle speed along the vehicle's x (B0)"]


@pytest.mark.parametrize("direction, across", [((1.0, 0.0, 0.0), "(0, 1, 0)"), ((-1.0, 0.0, 0.0), "(0, 1, 0)"),
                                               ((0.0, 1.0, 0.0), "(1, 0, 0)"), ((0.0, -1.0, 0.0), "(1, 0, 0)")])
def test_regression_excursion_across_the_pulse_reads_along_a_positive_axis(run, direction, across):
    """The rear sled's excursions read "across (0, -1, 0)" (z x its pulse, -x): the axis across
    the pulse is B0's +y, or +x for a side pulse, whichever way the pulse points."""
    from types import SimpleNamespace

    from occupant.report.figures import plt, trajectories
    turned = SimpleNamespace(**vars(run))
    turned.pulse = SimpleNamespace(direction=direction)
    fig = trajectories([turned])
    try:
        assert [ax.get_ylabel() for ax in fig.axes if ax.get_ylabel().startswith("across")] == \
            [f"across {across}\n(mm)"]
    finally:
        plt.close(fig)


def test_regression_pedestrian_excursion_reads_along_the_car(run):
    """A pedestrian run's road frame has no pulse: its first excursion reads along the car's
    travel ("along pulse (1, 0, 0)" before); a vehicle-frame run keeps "along pulse"."""
    from types import SimpleNamespace

    from occupant.report.figures import plt, trajectories
    road = SimpleNamespace(**vars(run))
    road.scenario = {"vehicle": {"interior": "road", "front": "sedan_front_midsize"}}
    for r, lead in ((road, "along the car (1, 0, 0)"), (run, "along pulse (1, 0, 0)")):
        fig = trajectories([r])
        try:
            assert [ax.get_ylabel() for ax in fig.axes if ax.get_ylabel().startswith("along")] == [f"{lead}\n(mm)"]
        finally:
            plt.close(fig)


def test_regression_every_channel_panel_names_its_time_axis():
    """(usercheck12) The channels figure labelled "time (ms)" under its last row alone; the PDF
    cuts the figure into pages (raster_pages), and us_ncap_frontal_56's first page of channels
    (nine panels, head to right femur) had no label on its time axes. Every panel now names it,
    the label clear of the title of the panel under it."""
    import types
    import matplotlib.pyplot as plt
    from occupant import Channel
    from occupant.report import figures as F
    t = np.arange(0.0, 0.1001, 1e-4)
    names = ["Head CG acceleration", "Chest acceleration", "Pelvis acceleration", "Upper neck force",
             "Upper neck moment", "Left femur force", "Right femur force", "Left femur moment",
             "Right femur moment", "Left upper tibia force", "Right upper tibia force"]
    run = types.SimpleNamespace(results=types.SimpleNamespace(t=t, channels=[
        Channel(f"{n} {a}", t, np.sin(40 * t + k), "m/s^2" if "acceleration" in n else "N")
        for k, n in enumerate(names) for a in "XYZ"]))
    fig = F.channels([run])
    assert len(fig.axes) == len(names)
    assert [ax.get_xlabel() for ax in fig.axes] == ["time (ms)"] * len(names)
    fig.canvas.draw()   # (the labels placed)
    renderer = fig.canvas.get_renderer()
    for k, ax in enumerate(fig.axes[:-3]):
        label = ax.xaxis.label.get_window_extent(renderer)
        title = fig.axes[k + 3].title.get_window_extent(renderer)
        assert label.y0 > title.y1, (ax.get_title(), label, title)
    plt.close(fig)


def test_regression_settings_write_booleans_as_a_scenario_file_does():
    """(usercheck12) The settings table showed restraints.belt.pretensioner, sensors.standard and
    outputs.report as "True" (Python's), a value neither a scenario file nor --set takes (TOML's
    true): a student copying it into --set was refused. Now "true" and "false"."""
    from occupant.report import tables as T
    from occupant.scenario.load import ScenarioError
    assert T.flatten({"restraints": {"belt": {"pretensioner": True}}, "outputs": {"report": False},
                      "sensors": {"standard": np.bool_(True)}}) == [
        ("restraints.belt.pretensioner", "true"), ("outputs.report", "false"), ("sensors.standard", "true")]
    from occupant.scenario import load
    for shown in ("true", "false"):
        load("fmvss208_sled_48_unbelted", overrides=[f"outputs.report={shown}"])   # taken as shown
    with pytest.raises(ScenarioError):
        load("fmvss208_sled_48_unbelted", overrides=["outputs.report=True"])   # Python's: refused


def test_regression_provenance_rows_keep_a_long_value_whole(run):
    """(usercheck13) The solver table's provenance rows were cut at 90 characters: a run's
    ``overrides`` JSON (every --set) lost its end in the HTML and the PDF. The row holds the whole
    value; the PDF's text page wraps it over lines (every character of it there), the HTML's
    cells wrap a value without spaces (a path) instead of widening the page."""
    import dataclasses
    import json
    import types

    from occupant.report import figures as F
    from occupant.report import tables as T
    from occupant.report.write import CSS
    overrides = json.dumps({f"restraints.belt.setting_{i}": 1000 + i for i in range(12)})
    path = "/a/folder/" + "deep/" * 30 + "pulse.csv"
    assert len(overrides) > 300 and " " not in path
    bare = types.SimpleNamespace(**vars(run))
    bare.results = dataclasses.replace(run.results, provenance={"overrides": overrides, "pulse_file": path})
    rows = dict(T.solver_rows(bare))
    assert rows["provenance: overrides"] == overrides and rows["provenance: pulse_file"] == path
    pages = F.text_pages("Solver statistics", [("Solver", list(rows.items()))])
    drawn = "".join(t.get_text() for page in pages for t in page.texts)
    assert overrides.replace(" ", "") in drawn.replace(" ", "") and path in drawn
    # (the values' column only: on every cell, the key column broke its words too, looked at)
    assert "overflow-wrap:anywhere" in CSS.split("td:last-child{")[1].split("}")[0]
