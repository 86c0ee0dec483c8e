"""Belts and airbags in the report, from a run whose assembly carries them (declared here as the
belt and airbag modules declare theirs: Belt.points with names, Airbag mounting frame and
semi-axes) and whose outputs hold what their producers record (belt point positions in B0, bag
volume and pressure, belt forces)."""
import base64
import dataclasses
import types

import numpy as np
import pytest

from occupant.report import data as D
from occupant.report import figures as F
from occupant.report import viewer


class _Model:
    """The run's model with another editable source."""

    def __init__(self, model, source):
        self._model, self.source = model, source

    def __getattr__(self, name):
        return getattr(self._model, name)


@pytest.fixture(scope="module")
def restrained(run):
    res = run.results
    n = len(res.t)
    asm = run.model.source
    belt = types.SimpleNamespace(name="lap", points=[types.SimpleNamespace(name=k) for k in ("left", "pelvis", "right")])
    bag = types.SimpleNamespace(name="dab", marker=None, position=(0.45, 0.0, 0.45), rotation=np.diag([-1.0, -1.0, 1.0]),
                                semi_axes=(0.13, 0.3, 0.3), firing_time=0.01)
    # the bag's contacts with body parts, named as scenarios name them (<bag>_<geometry>)
    contacts = {f"dab_{g}": types.SimpleNamespace(name=f"dab_{g}", airbag="dab", geometry=g)
                for g in ("head_shell", "thorax")}
    source = types.SimpleNamespace(geometries=asm.geometries, markers=asm.markers, belts={"lap": belt},
                                   airbags={"dab": bag}, airbag_contacts=contacts)
    nominal = 4 / 3 * np.pi * 0.13 * 0.3 * 0.3
    volume = nominal * np.clip((res.t - 0.01) / 0.03, 0, 1)           # unfolds over 30 ms
    pts = {"left": (-0.1, 0.25, 0.0), "pelvis": (0.12, 0.0, 0.05), "right": (-0.1, -0.25, 0.0)}
    outputs = dict(res.outputs)
    for k, p in pts.items():
        for a, v in zip("xyz", p):
            outputs[f"lap.{k}.{a}"] = np.full(n, v)
    outputs["lap.segment_1.force"] = 3000 * np.sin(np.pi * res.t / res.t[-1])
    outputs["lap.segment_2.force"] = 2000 * np.sin(np.pi * res.t / res.t[-1])
    outputs["lap.payout"] = 0.02 * res.t / res.t[-1]
    outputs["dab.volume"] = volume
    outputs["dab.gauge_pressure"] = 5e4 * volume / nominal
    outputs["dab_head_shell.force"] = 1500 * volume / nominal
    outputs["dab_head_shell.penetration"] = 0.05 * volume / nominal   # not plotted
    outputs["dab_thorax.force"] = np.zeros(n)                          # never touched: left out
    units = dict(res.output_units, **{"lap.segment_1.force": "N", "lap.segment_2.force": "N", "lap.payout": "m",
                                      "dab.volume": "m^3", "dab.gauge_pressure": "Pa"})
    r = types.SimpleNamespace(**vars(run))
    r.model = _Model(run.model, source)
    r.results = dataclasses.replace(res, outputs=outputs, output_units=units)
    return r, nominal


def test_belt_points_and_airbag_size(restrained):
    r, nominal = restrained
    (name, P), = D.belt_routes(r.model, r.results)
    assert name == "lap" and P.shape == (len(r.results.t), 3, 3)
    assert np.allclose(P[0, 1], (0.12, 0.0, 0.05))
    (shape, scale), = D.airbags(r.model, r.results)
    # the bag's centre one semi-axis ahead of its mount along the mount's +x (here -x of B0)
    assert shape.body == -1 and np.allclose(shape.center, (0.45 - 0.13, 0.0, 0.45))
    assert np.all(scale[0] == 0.0) and scale[-1] == pytest.approx(np.ones(3))
    k = np.searchsorted(r.results.t, 0.025)
    assert np.all(scale[k] == scale[k, 0]) and scale[k, 0] ** 3 == pytest.approx(r.results.outputs["dab.volume"][k] / nominal)
    # the grown bag keeps its back on the mount
    for f in (0.5, (0.5, 0.2, 0.2)):
        s = D.scaled(shape, f)
        assert np.allclose(s.center - s.R[:, 0] * s.semi_axes[0], (0.45, 0.0, 0.45))


def test_restraints_drawn_and_plotted(restrained, tmp_path):
    r, _ = restrained
    panels = D.restraint_outputs(r.model, r.results)
    # belt point positions are drawn, not plotted; forces in kN, payout in mm, volume in litres
    # the bag's contact forces in one panel per bag, by body part (not as webbing forces)
    # payout: the panel says its sign (test_regression_pretensioner_pull_in_drawn_once)
    assert set(panels) == {"lap: webbing force", "lap: payout (below 0: pulled in)", "dab: volume", "dab: gauge pressure",
                           "dab: force on each body part"}
    unit, series = panels["dab: force on each body part"]
    assert unit == "kN" and set(series) == {"head_shell"} and series["head_shell"].max() == pytest.approx(1.5)
    unit, series = panels["lap: webbing force"]
    assert unit == "kN" and set(series) == {"segment_1", "segment_2"} and series["segment_1"].max() == pytest.approx(3.0, rel=1e-3)
    assert panels["dab: volume"][1]["volume"].max() == pytest.approx(1e3 * 4 / 3 * np.pi * 0.13 * 0.09)
    assert panels["lap: payout (below 0: pulled in)"][1]["payout"].max() == pytest.approx(20.0)
    fig = F.restraints(r)
    titles = [ax.get_title() for ax in fig.axes]
    assert {"lap: webbing force", "dab: gauge pressure", "contact normal forces"} <= set(titles)
    F.png(fig)
    fig.savefig(tmp_path / "restraints.png")
    F.plt.close(fig)
    strip = F.kinematics_strip(r, np.array([0.0, 0.05]))
    first, later = strip.axes[0], strip.axes[1]
    # the belt's line in both frames; the bag (red patch) only once it has fired
    assert any(np.allclose(line.get_xdata(), (-0.1, 0.12, -0.1)) for line in first.lines)
    red = [p for p in later.patches if np.allclose(p.get_facecolor()[:3], F.matplotlib.colors.to_rgb(F.AIRBAG_COLOUR))]
    assert len(red) == 1 and not any(np.allclose(p.get_facecolor()[:3], F.matplotlib.colors.to_rgb(F.AIRBAG_COLOUR))
                                     for p in first.patches)
    F.png(strip)
    strip.savefig(tmp_path / "strip.png")
    fig3d = viewer.figure(r)
    belt_x = fig3d["data"][1]["x"]   # a plotly.js typed array
    assert np.sum(np.isfinite(np.frombuffer(base64.b64decode(belt_x["bdata"]), belt_x["dtype"]))) == 3
    last = fig3d["frames"][-1]["data"][1]["x"]
    assert np.sum(np.isfinite(np.frombuffer(base64.b64decode(last["bdata"]), last["dtype"]))) == 3


def test_regression_many_contacts_keep_a_readable_legend():
    """25 contacts that touched (a side impact has as many): the panel draws the 10 largest, each
    in its own colour, and its legend lies inside the figure beside the curves, not over them
    (all 25 once hid the curves and ran off the page)."""
    import matplotlib.pyplot as plt
    t = np.linspace(0.0, 0.1, 201)
    outputs = {f"part{k}__door.normal_force": (1000.0 + 100 * k) * np.sin(np.pi * t / 0.1) for k in range(25)}
    run = types.SimpleNamespace(results=types.SimpleNamespace(t=t, outputs=outputs),
                                model=types.SimpleNamespace(source=None))
    fig = F.restraints(run)
    fig.canvas.draw()
    ax = next(a for a in fig.axes if a.get_title().startswith("contact normal forces"))
    legend = ax.get_legend()
    labels = [x.get_text() for x in legend.get_texts()]
    assert labels == [f"part{k} / door" for k in range(24, 14, -1)]
    colours = [line.get_color() for line in ax.get_lines()]
    assert len(set(colours)) == len(colours) == 10
    box, frame, plot = legend.get_window_extent(), fig.bbox, ax.get_window_extent()
    assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1
    assert box.x0 >= plot.x1
    plt.close(fig)


def test_regression_folded_bag_is_not_drawn_before_it_fires():
    """A bag folded to 1 L of its 59 L until it fires at 15 ms: nothing drawn before (its cube
    root, 0.26, drew a quarter-size bag in front of the wheel from 0 ms), its volume after."""
    t = np.linspace(0.0, 0.05, 51)
    semi = (0.12, 0.33, 0.33)
    nominal = 4 / 3 * np.pi * np.prod(semi)
    volume = np.where(t < 0.015, 0.001, np.minimum(nominal, 0.001 + (t - 0.015) * 2.0))
    bag = types.SimpleNamespace(name="dab", marker=None, position=(0.36, 0.0, 0.37), rotation=None,
                                semi_axes=semi, firing_time=0.015)
    model = types.SimpleNamespace(source=types.SimpleNamespace(airbags={"dab": bag}, markers={}),
                                  marker_names=[], body_names=[])
    results = types.SimpleNamespace(t=t, outputs={"dab.volume": volume})
    (_, scale), = D.airbags(model, results)
    assert np.all(scale[t < 0.015] == 0.0)
    after = t >= 0.015
    assert scale[after, 0] ** 3 == pytest.approx(volume[after] / nominal)
    # punched out along its axis (occupant.modeling.airbags.unfolded_scales): drawn as deep as
    # the law makes it, as wide as its volume allows
    from occupant.modeling.airbags import unfolded_scales
    bag.leading_edge_speed, bag.deployment_time, bag.depth_time = 60.0, 0.03, 0.004
    bag.folded_volume, bag.volume = 0.001, nominal
    (shape, scale), = D.airbags(model, results)
    alpha = np.array([unfolded_scales.py_func(0.001 / nominal, 0.015, 0.03, 0.004, x)[1] for x in t])
    np.testing.assert_allclose(scale[after, 0], alpha[after], rtol=1e-12)
    np.testing.assert_allclose(scale[after, 0] * scale[after, 1] ** 2, volume[after] / nominal, rtol=1e-12)
    s = D.scaled(shape, scale[np.searchsorted(t, 0.02)])
    assert s.semi_axes[0] == pytest.approx(semi[0]) and s.semi_axes[1] < 0.5 * semi[1]


def _belt_run(outputs, t, source=None):
    belt = types.SimpleNamespace(name="belt", points=[])
    source = source or types.SimpleNamespace(belts={"belt": belt}, airbags={}, airbag_contacts={})
    return types.SimpleNamespace(results=types.SimpleNamespace(t=t, outputs=outputs),
                                 model=types.SimpleNamespace(source=source))


def test_regression_belt_segments_keep_their_legend_beside_the_curves():
    """A three-point belt's eight segment forces: their panel has a row of its own with the
    legend beside the curves (inside, at "best", it lay over the side barrier's peaks); a panel
    of two series keeps its legend inside."""
    import matplotlib.pyplot as plt
    t = np.linspace(0.0, 0.1, 201)
    outputs = {f"belt.seg{k}.force": (1000.0 + 500 * k) * np.sin(np.pi * t / 0.1) for k in range(8)}
    outputs.update({"lap_belt.seg0.force": 1000.0 * t, "lap_belt.seg1.force": 2000.0 * t})
    fig = F.restraints(_belt_run(outputs, t))
    try:
        fig.canvas.draw()
        force = next(a for a in fig.axes if a.get_title() == "belt: webbing force")
        box, frame, plot = force.get_legend().get_window_extent(), fig.bbox, force.get_window_extent()
        assert len(force.get_legend().get_texts()) == 8
        assert box.x0 >= plot.x1 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1
        two = next(a for a in fig.axes if a.get_title() == "lap_belt: webbing force")
        legend, plot = two.get_legend().get_window_extent(), two.get_window_extent()
        assert plot.x0 <= legend.x0 and legend.x1 <= plot.x1
    finally:
        plt.close(fig)


def test_regression_pretensioner_pull_in_drawn_once():
    """A belt's pull-in is its payout below 0 (max(0, -payout)): drawn once, as the payout,
    whose panel says so (the US NCAP panel showed the pretensioner's 20 mm twice, as payout -20
    and pull-in +20); a pull-in recorded without a payout is drawn, named by it."""
    t = np.linspace(0.0, 0.1, 11)
    payout = 0.02 - 0.4 * t
    for outputs, title, label in (
            ({"belt.payout": payout, "belt.pull_in": np.maximum(0.0, -payout)}, "belt: payout (below 0: pulled in)",
             "payout"),
            ({"belt.payout": payout}, "belt: payout (below 0: pulled in)", "payout"),
            ({"belt.pull_in": np.maximum(0.0, -payout)}, "belt: pull-in", "pull_in")):
        run = _belt_run(outputs, t)
        panels = D.restraint_outputs(run.model, run.results)
        assert list(panels) == [title]
        assert list(panels[title][1]) == [label] and panels[title][0] == "mm"


def test_regression_hinged_seat_back_rotation_and_moment_plotted():
    """The rear whiplash seat back turns on its recliner ([[hinge]]): the restraints figure
    plots its rotation (deg, rearward) and the moment its table holds (N m, restoring: minus
    the load the resistance applies), and no joint resistance of the dummy (its neck, hips...)."""
    from occupant.scenario.load import load
    model = load("rear_whiplash").model
    t = np.linspace(0.0, 0.2, 201)
    theta = 0.19 * np.sin(np.pi * t / 0.2)            # rad, 10.9 deg at 100 ms
    outputs = {"seat_back_frame_resistance.deflection": theta,
               "seat_back_frame_resistance.load": -7000.0 * theta,
               "upper_neck_y.deflection": 0.3 * t, "upper_neck_y.load": -20.0 * t}
    results = types.SimpleNamespace(t=t, outputs=outputs)
    panels = D.hinge_outputs(model, results)
    assert list(panels) == ["seat_back_frame: rotation on its hinge", "seat_back_frame: moment on its hinge"]
    unit, series = panels["seat_back_frame: rotation on its hinge"]
    assert unit == "deg" and np.max(series["rearward"]) == pytest.approx(np.degrees(0.19), rel=1e-6)
    unit, series = panels["seat_back_frame: moment on its hinge"]
    assert unit == "N m" and np.max(series["restoring"]) == pytest.approx(7000.0 * 0.19, rel=1e-6)
    fig = F.restraints(types.SimpleNamespace(model=model, results=results))
    try:
        assert {"seat_back_frame: rotation on its hinge", "seat_back_frame: moment on its hinge"} <= \
            {a.get_title() for a in fig.axes}
    finally:
        F.plt.close(fig)


def test_regression_a_bag_with_eleven_contacts_tells_each_curve_apart():
    """The passenger bag of fmvss208_sled_48_unbelted meets eleven body parts: its panel drew the
    eleventh (right_hand_shell) in the first one's colour and line (head_shell); each curve now
    has its own colour and line style, and the legend says which."""
    import matplotlib.pyplot as plt
    t = np.linspace(0.0, 0.1, 201)
    parts = [f"part_{k}" for k in range(11)]
    contacts = {f"pab_{g}": types.SimpleNamespace(name=f"pab_{g}", airbag="pab", geometry=g) for g in parts}
    source = types.SimpleNamespace(belts={}, airbags={}, airbag_contacts=contacts)
    outputs = {f"pab_{g}.force": (1000.0 + 100 * k) * np.sin(np.pi * t / 0.1) for k, g in enumerate(parts)}
    fig = F.restraints(_belt_run(outputs, t, source))
    try:
        ax = next(a for a in fig.axes if a.get_title() == "pab: force on each body part")
        styles = [(line.get_color(), line.get_linestyle()) for line in ax.get_lines()]
        assert len(set(styles)) == len(styles) == 11
        legend = ax.get_legend()
        assert [(h.get_color(), h.get_linestyle()) for h in legend.legend_handles] == styles
        assert [x.get_text() for x in legend.get_texts()] == parts
    finally:
        plt.close(fig)
