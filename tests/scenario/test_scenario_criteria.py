"""Criteria rows of a run from its channels (occupant.scenario.criteria): found by ISO-MME code,
named as the regulations name them, in display units, judged against the regulation's limits."""
import numpy as np
import pytest

from occupant import Channel
from occupant.injury.limits import PROTOCOLS
from occupant.scenario.criteria import criteria_rows

G0 = 9.80665


def _channels(head_peak_g=60.0, deflection=None):
    t = np.arange(0.0, 0.1, 1e-4)
    pulse = np.where(t < 0.03, head_peak_g * G0 * np.sin(np.pi * t / 0.03), 0.0)  # 30 ms half-sine
    zero = np.zeros_like(t)
    out = [Channel(f"Head CG acceleration {a}", t, pulse if a == "X" else zero, "m/s^2",
                   code=f"11HEAD0000H3AC{a}0") for a in "XYZ"]
    if deflection is not None:
        out.append(Channel("Chest deflection X", t, -deflection * np.sin(np.pi * t / 0.1), "m",
                           code="11CHST0000H3DSX0"))
    return out


def test_analytic_head_rows_of_a_half_sine():
    """crash-domain-facts.md 4.2 [D]: a 60 g, 30 ms half-sine head pulse gives HIC15 about 322
    and HIC36 about 347 (the CFC 1000 filter barely touches a 33 Hz pulse)."""
    rows = {r["criterion"]: r for r in criteria_rows(_channels(), "hybrid3_50m", PROTOCOLS["fmvss208_hybrid3_50m"])}
    assert rows["HIC15"]["value"] == pytest.approx(322, rel=0.01)
    assert rows["HIC36"]["value"] == pytest.approx(347, rel=0.01)
    assert rows["HIC15"]["limit"] == 700.0 and rows["HIC15"]["pass"] is True and rows["HIC15"]["unit"] == "-"
    assert rows["HIC36"]["limit"] is None and rows["HIC36"]["pass"] is None   # FMVSS 208 S6 has none
    assert rows["head 3 ms"]["unit"] == "g" and rows["head 3 ms"]["value"] < 60.0
    assert "chest deflection" not in rows and "Nij" not in rows   # no such channels


def test_reference_chest_deflection_row_in_mm_and_verdicts():
    rows = criteria_rows(_channels(head_peak_g=120.0, deflection=0.07), "hybrid3_50m",
                         PROTOCOLS["fmvss208_hybrid3_50m"])
    by = {r["criterion"]: r for r in rows}
    assert by["chest deflection"]["unit"] == "mm" and by["chest deflection"]["limit"] == pytest.approx(63.0)
    assert by["chest deflection"]["value"] == pytest.approx(70.0, rel=0.01) and by["chest deflection"]["pass"] is False
    assert by["HIC15"]["pass"] is False    # 120 g over 30 ms is far beyond 700
    unjudged = criteria_rows(_channels(head_peak_g=120.0, deflection=0.07), "hybrid3_50m",
                             PROTOCOLS["fmvss208_hybrid3_50m"], judged=False)
    assert all(r["pass"] is None for r in unjudged)
    assert [r["value"] for r in unjudged] == [r["value"] for r in rows]


def _short(channels, t_end):
    """The channels cut to their first ``t_end`` s (a run stopped or diverged early)."""
    return [Channel(c.name, c.t[c.t <= t_end], c.values[c.t <= t_end], c.unit, code=c.code)
            for c in channels]


def test_regression_record_shorter_than_a_window_is_not_computable():
    """A 2 ms record is shorter than the 3 ms clip (and a chest deflection row needs VC's 5
    samples): those criteria are rows with no value, no verdict and the reason, never an
    InjuryInputError; the criteria a longer record allows keep their values."""
    rows = {r["criterion"]: r for r in criteria_rows(_short(_channels(deflection=0.07), 0.002),
                                                      "hybrid3_50m", PROTOCOLS["fmvss208_hybrid3_50m"])}
    for name in ("HIC15", "head 3 ms"):
        assert rows[name]["value"] is None and rows[name]["pass"] is None
        assert rows[name]["note"].startswith("not computable: ") and "record" in rows[name]["note"]
    assert rows["HIC15"]["limit"] == 700.0   # the limit is still shown
    full = {r["criterion"]: r for r in criteria_rows(_channels(deflection=0.07), "hybrid3_50m",
                                                      PROTOCOLS["fmvss208_hybrid3_50m"])}
    assert all("note" not in r and r["value"] is not None for r in full.values())


def test_regression_not_computable_row_in_csv_summary_and_report_table(tmp_path):
    import csv
    from occupant.report import tables as T
    from occupant.report.tables import criteria_rows as table_rows
    from occupant.scenario.run import write_criteria
    rows = criteria_rows(_short(_channels(), 0.002), "hybrid3_50m", PROTOCOLS["fmvss208_hybrid3_50m"])
    write_criteria(rows, tmp_path / "criteria.csv")
    with open(tmp_path / "criteria.csv", encoding="utf-8") as fh:
        csv_rows = {r["criterion"]: r for r in csv.DictReader(fh)}
    assert csv_rows["HIC15"]["value"] == "" and csv_rows["HIC15"]["pass"] == ""
    assert csv_rows["HIC15"]["note"].startswith("not computable: ")
    _, table, _, verdicts = table_rows(rows)
    hic = next(r for r in table if r[0] == "HIC15")
    assert hic[1] == "-" and hic[4] == "not computable" and None in verdicts
    reasons = T.criteria_notes(rows)
    assert any(r.startswith("HIC15, HIC36, head 3 ms") and "not computable: " in r for r in reasons)


def test_regression_csv_keeps_its_public_columns_when_every_criterion_is_computable(tmp_path):
    import csv
    from occupant.scenario.run import write_criteria
    write_criteria(criteria_rows(_channels(), "hybrid3_50m", PROTOCOLS["fmvss208_hybrid3_50m"]),
                   tmp_path / "criteria.csv")
    with open(tmp_path / "criteria.csv", encoding="utf-8") as fh:
        assert next(csv.reader(fh)) == ["criterion", "value", "unit", "limit", "pass"]


def _neck_channels(fx_forward=100.0, fx_backward=-300.0, tension=500.0):
    """Upper-neck load cell (ISO-MME NECK UP): Fx a 40 ms half-sine of ``fx_forward`` N (the neck
    pushing the head forward, J211) then one of ``fx_backward`` N, Fz a 80 ms half-sine of
    ``tension`` N, My zero."""
    t = np.arange(0.0, 0.1, 1e-4)
    first, second = np.sin(np.pi * t / 0.04) * (t < 0.04), np.sin(np.pi * (t - 0.04) / 0.04) * ((t >= 0.04) & (t < 0.08))
    fx = fx_forward * first + abs(fx_backward) * -second
    fz = tension * np.sin(np.pi * t / 0.08) * (t < 0.08)
    return [Channel("Upper neck force X", t, fx, "N", code="11NECKUP00H3FOX0"),
            Channel("Upper neck force Z", t, fz, "N", code="11NECKUP00H3FOZ0"),
            Channel("Upper neck moment Y", t, np.zeros_like(t), "N*m", code="11NECKUP00H3MOY0")]


def test_reference_a_references_optional_rows_are_shown_unjudged():
    """A protocol given as the reference (a parametric human's regulation, branch humanrear)
    shows the optional rows it has limits for, as judging it adds them: the Euro NCAP 5F's VC
    with its value and limit, no verdict. Before, a human's Euro NCAP run lost its neck shear,
    neck extension and VC rows."""
    channels, euro = _channels(deflection=0.03), PROTOCOLS["euroncap_fw50_hybrid3_05f"]
    judged = {r["criterion"]: r for r in criteria_rows(channels, "hybrid3_05f", euro)}
    shown = {r["criterion"]: r for r in criteria_rows(channels, "hybrid3_05f", reference=euro)}
    assert list(shown) == list(judged) and "VC" in shown
    assert shown["VC"]["value"] == judged["VC"]["value"] and judged["VC"]["pass"] is not None
    assert shown["VC"]["limit"] == judged["VC"]["limit"] == pytest.approx(1.0)
    assert all(r["pass"] is None for r in shown.values())


def test_reference_whiplash_neck_rows_beside_the_biorid_limits():
    """A rear run (rear_whiplash: FMVSS 202a judges, Euro NCAP's BioRID table is its reference)
    shows the upper neck's shear by sign and its tension beside the capping limits of Euro
    NCAP's medium-pulse whiplash table [S: occupant.injury.limits, the 2026 rating code]: Fx (+)
    290 N, Fx (-) 360 N, Fz 900 N; a Hybrid III is not judged by them. Each row its own signed
    peak (the CFC 600 filter barely touches a 12.5 Hz half-sine): 100 N forward, 300 N backward,
    where the unsigned neck shear is 300 N."""
    ch = _channels() + _neck_channels()
    rows = {r["criterion"]: r for r in criteria_rows(
        ch, "hybrid3_50m", PROTOCOLS["fmvss202a_hybrid3_50m"], show=("neck shear Fx+", "neck shear Fx-"),
        reference=PROTOCOLS["euroncap_whiplash_medium_biorid2"])}
    assert rows["neck shear Fx+"]["value"] == pytest.approx(100.0, rel=0.01)
    assert rows["neck shear Fx-"]["value"] == pytest.approx(300.0, rel=0.01)
    assert rows["neck tension"]["value"] == pytest.approx(500.0, rel=0.01)
    assert [rows[n]["limit"] for n in ("neck shear Fx+", "neck shear Fx-", "neck tension")] == [290.0, 360.0, 900.0]
    assert all(rows[n]["pass"] is None and rows[n]["unit"] == "N"
               for n in ("neck shear Fx+", "neck shear Fx-", "neck tension"))
    assert "neck shear" not in rows and rows["HIC15"]["pass"] is True   # FMVSS 202a still judges
    # without the reference the rows are there with no limit (a frontal table: no such rows)
    bare = {r["criterion"]: r for r in criteria_rows(ch, "hybrid3_50m", PROTOCOLS["fmvss202a_hybrid3_50m"],
                                                     show=("neck shear Fx+",))}
    assert bare["neck shear Fx+"]["limit"] is None and bare["neck tension"]["limit"] is None
    frontal = {r["criterion"] for r in criteria_rows(ch, "hybrid3_50m", PROTOCOLS["fmvss208_hybrid3_50m"])}
    assert not frontal & {"neck shear Fx+", "neck shear Fx-"}


def _tibia_channels(fz_peak=-3000.0, my_peak=100.0):
    """Upper and lower tibia cells of both legs (ISO-MME TIBI LE/RI UP/LO): a 20 ms half-sine of
    compression fz_peak (N) with My my_peak (N m) at the left upper cell, half of both elsewhere."""
    t = np.arange(0.0, 0.1, 1e-4)
    shape = np.where(t < 0.02, np.sin(np.pi * t / 0.02), 0.0)
    out = []
    for side in ("LE", "RI"):
        for level in ("UP", "LO"):
            k = 1.0 if (side, level) == ("LE", "UP") else 0.5
            for dim, a, peak in (("MO", "X", 0.0), ("MO", "Y", my_peak), ("FO", "Z", fz_peak)):
                out.append(Channel(f"{side} {level} {dim} {a}", t, k * peak * shape,
                                   "N*m" if dim == "MO" else "N", code=f"11TIBI{side}{level}H3{dim}{a}0"))
    return out


def test_reference_tibia_rows_where_the_regulation_judges_them():
    """UN R94 judges the tibia compression (8 kN) and tibia index (1.3) [S: pyisomme, limits]:
    its rows are there, each cell's compression its peak -Fz and each leg's index the worse
    cell's, |My| / 225 N m + |Fz| / 35.9 kN for the 50M [S: TIBIA_CRITICAL] (the CFC 600 filter
    barely touches a 25 Hz half-sine); FMVSS 208 judges neither, and its table has no tibia row
    unless the scenario's ``show`` names it."""
    ch = _channels() + _tibia_channels()
    rows = {r["criterion"]: r for r in criteria_rows(ch, "hybrid3_50m", PROTOCOLS["un_r94_hybrid3_50m"])}
    assert rows["tibia compression left upper"]["value"] == pytest.approx(3000.0, rel=0.01)
    for name in ("left lower", "right upper", "right lower"):
        assert rows[f"tibia compression {name}"]["value"] == pytest.approx(1500.0, rel=0.01)
    assert rows["tibia compression left upper"]["limit"] == 8000.0
    assert rows["tibia compression left upper"]["pass"] is True
    assert rows["tibia index left"]["value"] == pytest.approx(100.0 / 225.0 + 3.0 / 35.9, rel=0.01)
    assert rows["tibia index right"]["value"] == pytest.approx(0.5 * (100.0 / 225.0 + 3.0 / 35.9), rel=0.01)
    assert rows["tibia index left"]["limit"] == 1.3 and rows["tibia index left"]["unit"] == "-"
    fmvss = {r["criterion"] for r in criteria_rows(ch, "hybrid3_50m", PROTOCOLS["fmvss208_hybrid3_50m"])}
    assert not any(name.startswith("tibia") for name in fmvss)
    shown = {r["criterion"]: r for r in criteria_rows(ch, "hybrid3_50m", PROTOCOLS["fmvss208_hybrid3_50m"],
                                                      show=("tibia index left",))}
    assert shown["tibia index left"]["limit"] is None and shown["tibia index left"]["pass"] is None
    assert "tibia index right" not in shown


def test_analytic_head_excursion_in_a_diving_vehicle():
    """The "head excursion" row (criteria.show, sweepcheck): the head CG's largest excursion
    relative to the vehicle along the pulse, in the vehicle's frame. Closed form: a head moving
    forward in the vehicle by 0.15 sin(pi t / 0.1) m (peak 150 mm at 50 ms) while the vehicle
    travels and dives (pitch 2 rad/s about y): 150 mm at 50 ms. Projected in the world's axes,
    as ``occupant run`` printed it, the dive added the head's height times the pitch's sine
    (about 0.6 m x sin 0.1 = 60 mm at 50 ms): the AEB run printed 179 mm where the vehicle frame has
    155 mm."""
    import types
    t = np.linspace(0.0, 0.1, 1001)
    pitch = 2.0 * t
    c, s = np.cos(pitch), np.sin(pitch)
    R = np.zeros((len(t), 3, 3))
    R[:, 0, 0], R[:, 0, 2], R[:, 1, 1], R[:, 2, 0], R[:, 2, 2] = c, s, 1.0, -s, c
    base = np.stack([15.0 * t - 40.0 * t ** 2, 0.0 * t, -0.2 * t], axis=1)
    poses = np.zeros((len(t), 4, 4))
    poses[:, :3, :3], poses[:, :3, 3], poses[:, 3, 3] = R, base, 1.0
    in_vehicle = np.stack([0.1 + 0.15 * np.sin(np.pi * t / 0.1), 0.0 * t, 0.6 + 0.0 * t], axis=1)
    com = np.zeros((len(t), 2, 3))
    com[:, 1] = base + np.einsum("tij,tj->ti", R, in_vehicle)
    results = types.SimpleNamespace(t=t, base_poses=poses, body_com=com, outputs={})
    names = ["pelvis", "head"]
    model = types.SimpleNamespace(body_names=names, body=names.index)
    rows = criteria_rows(_channels(), "hybrid3_50m", None, show=("head excursion",), results=results,
                         model=model, direction=(1.0, 0.0, 0.0))
    row = {r["criterion"]: r for r in rows}["head excursion"]
    assert row["value"] == pytest.approx(150.0, abs=1e-9) and row["unit"] == "mm" and row["limit"] is None
    from occupant.scenario.criteria import head_excursion
    assert head_excursion(results, model, (2.0, 0.0, 0.0)).t == pytest.approx(0.05)   # any length of d
    # no row unless asked, nor without a pulse's direction (a pedestrian's B0 is the road)
    for kwargs in ({}, {"show": ("head excursion",), "direction": None}):
        rows = criteria_rows(_channels(), "hybrid3_50m", None, results=results, model=model,
                             **{"direction": (1.0, 0.0, 0.0), **kwargs})
        assert "head excursion" not in {r["criterion"] for r in rows}
