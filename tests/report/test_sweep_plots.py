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
