"""The figures of ``occupant validate`` and ``occupant certify`` with --out
(occupant.report.validation_plots): each case's histories over the measured range, each figure's
read point on the history it was read from with its corridor, the cross-plots (force against
deflection, moment against angle) with their corridors, a failing figure red. Until validplots
--out wrote only CSVs, which a human-model researcher had to plot herself (usercheck8)."""
import numpy as np
import pytest

from occupant.report import validation_plots as V

RED, GREEN = V.OUTSIDE_COLOUR, V.INSIDE_COLOUR


def _kept(monkeypatch):
    """The figures write_case closes, kept to be read."""
    kept = []
    monkeypatch.setattr(V.plt, "close", kept.append)
    return kept


def _bars(ax):
    """{(x0, x1, y0, y1)} of the corridor bars drawn on ``ax``."""
    return {(*l.get_xdata(), *l.get_ydata()) for l in ax.lines
            if l.get_color() == V.CORRIDOR_COLOUR and len(l.get_xdata()) == 2}


def _points(ax):
    """[(x, y, colour)] of the read points on ``ax``."""
    return [(float(l.get_xdata()[0]), float(l.get_ydata()[0]), l.get_color()) for l in ax.lines
            if len(l.get_xdata()) == 1]


def _sled_case():
    """A head-neck sled case's result as the runner returns it (validation._run_sled), made up:
    the model's flexion a half sine peaking at 60 deg at 100 ms, the runs' range 40-80 deg
    around it; the peak read inside, its time outside (corridor 110-130 ms), the final value
    inside."""
    t = np.linspace(0.0, 0.2, 101)
    angle = 60.0 * np.sin(np.pi * t / 0.2)
    res = {"t": t, "history": {"head_flexion_deg": angle, "runs_min_deg": 40.0 / 60.0 * angle,
                               "runs_max_deg": 80.0 / 60.0 * angle},
           "corridor": {"peak_flexion_deg": (50.0, 70.0), "peak_flexion_time_ms": (110.0, 130.0),
                        "final_flexion_deg": (-1.0, 1.0), "flexion_at_50ms_deg": (0.0, 10.0)}}
    figures = {"peak_flexion_deg": 60.0, "peak_flexion_time_ms": 100.0,
               "final_flexion_deg": float(angle[-1]),
               "flexion_at_50ms_deg": float(np.interp(0.05, t, angle))}
    res["checks"] = {n: (v, res["corridor"][n][0] <= v <= res["corridor"][n][1])
                     for n, v in figures.items()}
    return res, {"name": "made_up_sled", "test": "head_neck_sled", "title": "a made-up series"}


def test_reference_a_sled_case_shows_the_runs_range_and_each_read_point(tmp_path, monkeypatch):
    kept = _kept(monkeypatch)
    res, scenario = _sled_case()
    name, inside, total = V.write_case(tmp_path, res, scenario, tmp_path / "x.toml")
    assert (name, inside, total) == ("made_up_sled", 2, 4)
    assert (tmp_path / "made_up_sled.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    fig = kept[0]
    ax, table = fig.axes
    assert ax.get_xlabel() == "time (ms)" and ax.get_ylabel() == "deg"
    assert "a made-up series" in fig._suptitle.get_text() and "2 of 4" in fig._suptitle.get_text()
    # the runs' range as a band between runs_min and runs_max
    band = ax.collections[0].get_paths()[0].vertices
    assert band[:, 1].max() == pytest.approx(80.0)
    # the peak at its time (100 ms) with its corridor both ways, red: its time is outside; the
    # final value at the last sample, green; the value at 50 ms there, red (42.4 deg > 10)
    assert _points(ax) == [(100.0, 60.0, RED), (200.0, pytest.approx(0.0, abs=1e-9), GREEN),
                           (50.0, pytest.approx(60.0 * np.sin(np.pi / 4)), RED)]
    assert {(100.0, 100.0, 50.0, 70.0), (110.0, 130.0, 60.0, 60.0), (200.0, 200.0, -1.0, 1.0),
            (50.0, 50.0, 0.0, 10.0)} == _bars(ax)
    # the table: every figure, the failing ones red
    cells = table.tables[0].get_celld()
    failing = [cells[r, 0].get_text().get_text() for r in range(1, 5)
               if cells[r, 3].get_text().get_text() == "OUT"]
    assert failing == ["peak_flexion_time_ms", "flexion_at_50ms_deg"]
    assert all(cells[r, 0].get_facecolor()[:3] != (1.0, 1.0, 1.0) for r in (2, 4))


def test_reference_a_read_point_sits_on_the_history_it_was_read_from():
    """Two histories of one unit: the figure is placed on the one whose peak it is and which
    shares a word of its name (not on another that happens to reach the same value)."""
    t_ms = np.array([0.0, 1.0, 2.0])
    history = {"moment_Nm": np.array([0.0, 5.0, 1.0]), "upper_moment_Nm": np.array([0.0, 2.0, 7.0]),
               "other_Nm": np.array([7.0, 0.0, 0.0])}
    assert V.read_point("peak_axial_moment_Nm", 7.0, t_ms, history, list(history)) == (
        2.0, 7.0, "upper_moment_Nm", 1.0)
    # a deceleration: the negative peak, drawn below zero
    assert V.read_point("t1_x_deceleration_g", 3.0, t_ms, {"t1_x_g": np.array([0.0, -3.0, 1.0])},
                        ["t1_x_g"]) == (1.0, -3.0, "t1_x_g", -1.0)
    assert V.read_point("peak_lateral_g", 0.0, t_ms, {"accel_x_g": np.zeros(3)}, ["accel_x_g"]) is None
    # a signed peak (49 CFR 572.133's extension moment, -59 N m) at the minimum, not the maximum;
    # a peak refined between samples (-59.4) on the one moment history, at its nearest reading
    moment = {"oc_moment_Nm": np.array([40.0, -59.0, 10.0])}
    for value in (-59.0, -59.4):
        assert V.read_point("peak_moment_Nm", value, t_ms, moment, ["oc_moment_Nm"]) == (
            1.0, value, "oc_moment_Nm", 1.0)


def test_reference_kroells_thorax_pendulum_writes_its_figure_and_index(tmp_path, monkeypatch):
    """``occupant validate human_thorax_kroell_16mph --out DIR`` (a few seconds): the CSV, the
    PNG and index.html; the force-deflection plot holds the corridor's forces at its three
    deflections (Lobdell 1972) and the peaks' and unloading's corridors."""
    from occupant.cli import main
    from occupant.human.validation import read_scenario

    kept = _kept(monkeypatch)
    assert main(["validate", "human_thorax_kroell_16mph", "--out", str(tmp_path), "--quiet"]) == 0
    assert {p.name for p in tmp_path.iterdir()} == {
        "human_thorax_kroell_16mph.csv", "human_thorax_kroell_16mph.png", "index.html"}
    index = (tmp_path / "index.html").read_text()
    assert "human_thorax_kroell_16mph: 6 of 6 figures inside" in index
    assert '<img src="human_thorax_kroell_16mph.png"' in index
    force = kept[0].axes[0]
    assert (force.get_xlabel(), force.get_ylabel()) == ("deflection (mm)", "force (N)")
    scenario = read_scenario("human_thorax_kroell_16mph")[0]
    bars = _bars(force)
    for d, lo, hi in scenario["force_at"]:
        assert (d, d, lo, hi) in bars
    unload = scenario["unload_level_N"]
    assert (*scenario["corridor"]["unloaded_deflection_mm"], unload, unload) in bars
    assert [c for *_, c in _points(force)] == [GREEN] * 6
    lines = {ln.get_gid(): ln.get_xydata() for ln in force.get_lines()}   # the boundaries, whole
    lower, upper = lines["lower"], lines["upper"]
    assert "Lobdell 1972 boundaries" in [t.get_text() for t in force.get_legend().get_texts()]
    assert len(lower) == len(upper) == 6
    assert upper[:, 1].max() == pytest.approx(scenario["corridor"]["peak_force_N"][1], abs=0.1)
    assert lower[-1, 0] == pytest.approx(scenario["corridor"]["unloaded_deflection_mm"][0], abs=0.01)


def test_reference_the_neck_bend_is_drawn_over_mertzs_corridor(tmp_path, monkeypatch):
    """The moment-angle plot of the Mertz case carries the corridor's two boundaries from its
    data file, and each angle read at a moment at that moment (a made-up neck, its moment the
    square of its angle / 25 deg^2 per N m: 120 and 258 N m read outside the corridor (54.8 and
    80.3 deg), the other four inside), red or green as its check."""
    from occupant.human import neck_bend
    from occupant.human.validation import read_columns, read_scenario

    scenario, path = read_scenario("human_neck_mertz_flexion_95m")
    bounds = neck_bend.read_corridor(read_columns(scenario, path.parent)[1])
    angle = np.linspace(0.0, 90.0, 91)
    res = {"t": angle / 90.0, "history": {"oc_moment_Nm": angle ** 2 / 25.0, "head_flexion_deg": angle}}
    res["corridor"] = {neck_bend.figure_name(m): neck_bend.corridor_angles(bounds, m)
                       for m in scenario["read_at_Nm"]}
    res["checks"] = {n: (float(np.sqrt(25.0 * m)), lo <= np.sqrt(25.0 * m) <= hi) for m, (n, (lo, hi))
                     in zip(scenario["read_at_Nm"], res["corridor"].items())}
    kept = _kept(monkeypatch)
    V.write_case(tmp_path, res, scenario, path)
    ax = kept[0].axes[0]
    assert ax.get_xlabel() == "head flexion relative to T1 (deg)"
    drawn = [(l.get_xdata(), l.get_ydata()) for l in ax.lines if l.get_label().startswith("corridor")]
    for (x, y), b in zip(drawn, neck_bend.BOUNDARIES):
        assert np.array_equal(x, bounds[b][:, 1]) and np.array_equal(y, bounds[b][:, 0])
    points = _points(ax)
    assert [(x, y) for x, y, _ in points] == [(pytest.approx(np.sqrt(25.0 * m)), m)
                                              for m in scenario["read_at_Nm"]]
    assert [c for *_, c in points] == [GREEN, GREEN, GREEN, RED, GREEN, RED]


# GS1's histories, the figure of each (the scenario's [corridor]) and how it is read on them
GS1_FIGURES = {"head_x_mm": "head_x_excursion_mm", "t1_x_mm": "t1_x_excursion_mm",
               "t8_x_mm": "t8_x_excursion_mm", "hip_x_mm": "hip_x_excursion_mm",
               "knee_x_mm": "knee_x_excursion_mm", "l2_x_mm": "l2_x_excursion_mm",
               "l4_x_mm": "l4_x_excursion_mm", "t1_z_mm": "t1_z_rise_mm", "t8_z_mm": "t8_z_rise_mm",
               "pelvis_z_mm": "pelvis_z_rise_mm", "chest_deflection_mm": "chest_deflection_mm",
               "lap_belt_kN": "lap_belt_force_kN", "t1_x_g": "t1_x_deceleration_g",
               "t8_x_g": "t8_x_deceleration_g", "l2_x_g": "l2_x_deceleration_g",
               "right_acromion_x_mm": "right_acromion_x_excursion_mm",
               "left_acromion_x_mm": "left_acromion_x_excursion_mm"}


def test_reference_gs1s_time_corridors_are_drawn_in_each_historys_sense(tmp_path, monkeypatch):
    """The GS1 case's PMHS boundaries (Shaw 2009 as SAFER digitised them, Ash 2012) over the
    history each bounds, in its sense: their peaks (the decelerations' minima negated) are the
    case's corridor for that history's figure (a z-down or sternum-in boundary drawn unturned
    would peak elsewhere); each on its own panel."""
    from occupant.human.validation import read_scenario

    scenario, path = read_scenario("human_sled_gs1_40")
    label, curves = V.time_corridors(scenario, path)
    assert set(curves) == set(GS1_FIGURES) and "Shaw 2009" in label
    for history, figure in GS1_FIGURES.items():
        peaks = sorted(-b[:, 1].min() if history.endswith("_g") else b[:, 1].max() for b in curves[history])
        assert peaks == pytest.approx(scenario["corridor"][figure], abs=0.051), history
    t = np.linspace(0.0, 0.15, 76)
    res = {"t": t, "history": {h: np.sin(20 * t) for h in GS1_FIGURES}, "checks": {}, "corridor": {}}
    kept = _kept(monkeypatch)
    V.write_case(tmp_path, res, scenario, path)
    for ax in kept[0].axes[:-1]:
        (history,) = [l.get_label() for l in ax.lines if l.get_linestyle() == "-"]
        dashed = [l for l in ax.lines if l.get_linestyle() == "--"]
        assert [np.array_equal(l.get_ydata(), b[:, 1]) for l, b in zip(dashed, curves[history])] == [True, True]
