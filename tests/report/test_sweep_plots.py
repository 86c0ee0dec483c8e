"""The plots of a sweep (occupant.report.sweep_plots): each varied key's axis as a restraint
engineer reads it, a switch (pretensioner on or off) as two categories, a number with its unit."""
import pytest

from occupant.report import sweep_plots


def test_reference_a_switch_is_two_categories_and_a_number_has_its_unit(tmp_path, monkeypatch):
    """Until sweepcheck a varied true/false key was drawn on a number axis from 0.00 to 1.00 (the
    variants at 0 and 1, Python's bool being a number) and a varied key's axis had no unit."""
    rows = [{"variant": f"v{i + 1:04d}", "status": "ok", "restraints.belt.load_limit": limit,
             "restraints.belt.pretensioner": on, "HIC15": hic}
            for i, (limit, on, hic) in enumerate([(3000, True, 484.0), (3000, False, 530.0),
                                                  (4000, True, 443.0), (4000, False, 514.0)])]
    figures = []
    monkeypatch.setattr(sweep_plots.plt, "close", figures.append)   # keep the figure to read it
    paths = sweep_plots.write_plots(rows, ["restraints.belt.load_limit", "restraints.belt.pretensioner"],
                                    tmp_path, limits={"HIC15": 700.0})
    assert [p.name for p in paths] == ["HIC15.png"] and len(figures) == 1
    number, switch = figures[0].axes
    assert number.get_xlabel() == "restraints.belt.load_limit (N)"
    assert switch.get_xlabel() == "restraints.belt.pretensioner"   # no unit: none is made up
    assert [t.get_text() for t in switch.get_xticklabels()] == ["true", "false"]
    assert switch.get_xlim() == pytest.approx((-0.5, 1.5))
    # each variant at its category: pretensioner on at 0 (HIC15 484, 443), off at 1 (530, 514)
    placed = sorted((float(x), float(y)) for c in switch.collections for x, y in c.get_offsets())
    assert placed == [(0.0, 443.0), (0.0, 484.0), (1.0, 514.0), (1.0, 530.0)]


def test_reference_a_criterions_sign_stays_in_its_plots_file_name(tmp_path):
    """(usercheck7) rear_whiplash's "neck shear Fx+" was plotted to neck_shear_Fx_.png beside
    "neck shear Fx-"'s neck_shear_Fx-.png: the + is a file name's character on every system."""
    rows = [{"variant": f"v{i + 1:04d}", "status": "ok", "vehicle.backset": b, "neck shear Fx+": p,
             "neck shear Fx-": m} for i, (b, p, m) in enumerate([(0.03, 17.2, 250.5), (0.05, 43.9, 250.8)])]
    paths = sweep_plots.write_plots(rows, ["vehicle.backset"], tmp_path)
    assert [p.name for p in paths] == ["neck_shear_Fx+.png", "neck_shear_Fx-.png"]


def test_reference_a_table_varied_whole_is_drawn_as_numbered_values_inside_the_figure(tmp_path, monkeypatch):
    """(usercheck8) A knee bolster's characteristic varied whole (--vary 'contact_characteristic.
    knee_bolster=[{table=...}, {table=...}]') put its ~150-character values on the ticks: the
    axes were pushed out of the figure (no ticks, no axis labels drawn) and matplotlib warned
    "Tight layout not applied" for every criterion. Such values are "value 1", "value 2" in the
    order met, the axis label saying so, and every label lies inside the figure."""
    import warnings
    soft = {"table": [[0.0, 0.0], [0.01, 2500.0], [0.03, 6000.0], [0.13, 7500.0]], "absorption": 0.8,
            "damping": 1000.0, "friction": 0.7}
    stiff = {**soft, "table": [[0.0, 0.0], [0.01, 5000.0], [0.03, 12000.0], [0.13, 15000.0]]}
    rows = [{"variant": f"v{i + 1:04d}", "status": "ok", "contact_characteristic.knee_bolster": v,
             "femur force left": f} for i, (v, f) in enumerate([(soft, 6893.0), (stiff, 11421.0)])]
    figures = []
    monkeypatch.setattr(sweep_plots.plt, "close", figures.append)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # "Tight layout not applied" fails the test
        sweep_plots.write_plots(rows, ["contact_characteristic.knee_bolster"], tmp_path,
                                limits={"femur force left": 10000.0}, units={"femur force left": "N"})
    (ax,) = figures[0].axes
    assert [t.get_text() for t in ax.get_xticklabels()] == ["value 1", "value 2"]
    assert ax.get_xlabel() == "contact_characteristic.knee_bolster\n(value n: its n-th value met in sweep.csv)"
    figure = figures[0]
    renderer = figure.canvas.get_renderer()
    box = figure.bbox
    for text in [ax.xaxis.label, ax.yaxis.label, *ax.get_xticklabels()]:
        extent = text.get_window_extent(renderer)
        assert box.x0 <= extent.x0 and extent.x1 <= box.x1 and box.y0 <= extent.y0 and extent.y1 <= box.y1


def test_reference_a_small_table_varied_whole_is_drawn_by_its_values(tmp_path, monkeypatch):
    """(usercheck8) --vary 'occupant.human=[{sex="male", percentile=50}, {sex="female",
    percentile=5}]': each variant's tick is its table's values ("male, 50"), the key's name
    being the axis's label."""
    rows = [{"variant": f"v{i + 1:04d}", "status": "ok", "occupant.human": h, "NIC": n}
            for i, (h, n) in enumerate([({"sex": "male", "percentile": 50}, 26.1),
                                        ({"sex": "female", "percentile": 5}, 24.0)])]
    figures = []
    monkeypatch.setattr(sweep_plots.plt, "close", figures.append)
    sweep_plots.write_plots(rows, ["occupant.human"], tmp_path)
    (ax,) = figures[0].axes
    assert [t.get_text() for t in ax.get_xticklabels()] == ["male, 50", "female, 5"]
    assert ax.get_xlabel() == "occupant.human"


def test_reference_a_full_factorial_joins_the_variants_sharing_the_other_keys_values(tmp_path, monkeypatch):
    """(usercheck9) A 4 x 5 sweep of load limit and delta-v was drawn as 20 points in 4 columns
    per panel: which delta-v a point had, hence how the limiter's effect changes with it, was
    unsaid. Each panel now joins the variants sharing the other key's value, a line per value
    labelled by it at its right end, its points in the key's order; a Latin hypercube (no values
    shared) and a single key draw points alone."""
    limits, speeds = (3000.0, 4000.0, 5000.0), (40.0, 48.0)
    rows = [{"variant": f"v{i + 1:04d}", "status": "ok", "restraints.belt.load_limit": ll,
             "pulse.delta_v_kmh": dv, "head excursion": 500.0 - ll / 20 + dv}
            for i, (ll, dv) in enumerate((ll, dv) for ll in limits[::-1] for dv in speeds)]
    figures = []
    monkeypatch.setattr(sweep_plots.plt, "close", figures.append)
    sweep_plots.write_plots(rows, ["restraints.belt.load_limit", "pulse.delta_v_kmh"], tmp_path)
    by_limit, by_speed = figures[0].axes

    def lines(ax):
        return {t.get_text(): [tuple(map(float, p)) for p in zip(*line.get_data())]
                for t, line in zip(ax.texts, ax.get_lines())}
    assert lines(by_limit) == {f"{dv:g}": [(ll, 500.0 - ll / 20 + dv) for ll in limits] for dv in speeds}
    assert lines(by_speed) == {f"{ll:g}": [(dv, 500.0 - ll / 20 + dv) for dv in speeds] for ll in limits[::-1]}
    assert by_limit.get_title() == "lines: same pulse.delta_v_kmh"
    lhs = [dict(r, **{"pulse.delta_v_kmh": 40.0 + i, "restraints.belt.load_limit": 3000.0 + 100 * i})
           for i, r in enumerate(rows)]   # no value shared
    sweep_plots.write_plots(lhs, ["restraints.belt.load_limit", "pulse.delta_v_kmh"], tmp_path)
    sweep_plots.write_plots(rows, ["restraints.belt.load_limit"], tmp_path)
    assert all(not ax.get_lines() and not ax.texts for fig in figures[1:] for ax in fig.axes)
