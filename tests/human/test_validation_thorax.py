"""The human's chest compliance (issue 14 section 3) and its pendulum case (section 4):
scenarios/validation/human_thorax_kroell_16mph.toml against the Lobdell et al. (1972) corridor
of Kroell et al.'s (1971) PMHS tests, the quasi-static stiffness against Cavanaugh et al. (1988),
the sternum's mass bookkeeping, and the figure reader on a loop with known figures.
The 16 mph corridor is the CALIBRATION of the chest (data/thorax.toml): those tests hold the
calibrated figures, they do not validate them. The hub impacts at 4.3 and 6.7 m/s against the
Lebarbe & Petit (2012) corridors (PMHS of Kroell et al. 1974 and later) are INDEPENDENT CHECKS,
held as they came out (one figure out, xfail)."""
import pathlib

import numpy as np
import pytest

from occupant.human.builder import _check_inputs, build_segments, segment_table, thorax_table
from occupant.human.validation import read_scenario, thorax_figures
from occupant.io.toml_files import InputFileError
from occupant.report.validation_plots import force_corridor


def _segments(percentile=50, sex="male"):
    st, m, prop = _check_inputs(None, None, sex, percentile)
    return st, m, build_segments(st, m, sex, prop)


def test_reference_quasi_static_sternum_stiffness_is_human():
    """Cavanaugh et al. 1988: human quasi-static sternum stiffness 6-10 N/mm (Hybrid III 26-44).
    The chest spring's first segment (the loading slope up to 25 mm) for the 50th male."""
    _, _, segs = _segments()
    r = next(s for s in segs if s.name == "sternum").resistances[0]
    rows = r.table[np.argsort(r.table[:, 0])]
    zero = int(np.flatnonzero(rows[:, 0] == 0.0)[0])
    slope = (rows[zero, 1] - rows[zero - 1, 1]) / (rows[zero, 0] - rows[zero - 1, 0])  # N/m
    assert 6.0e3 <= slope <= 10.0e3
    assert slope == pytest.approx(thorax_table()["chest"]["quasi_static_stiffness"], rel=1e-12)
    assert rows[zero - 1, 0] <= -0.025                       # over the first 25 mm at least


def test_identity_sternum_keeps_body_mass_and_centre_of_mass():
    """The sternum's mass comes out of the upper torso at the sternum: total mass and the upper
    torso + sternum centre of mass are de Leva's."""
    st, m, segs = _segments()
    assert sum(s.mass for s in segs) == pytest.approx(m, rel=1e-12)
    by = {s.name: s for s in segs}
    ut, sn = by["upper_torso"], by["sternum"]
    row = segment_table("male")["upper_trunk"]
    L = row["length"] * st
    assert ut.mass + sn.mass == pytest.approx(row["mass"] * m, rel=1e-12)
    com = (ut.mass * ut.com + sn.mass * (sn.location + sn.com)) / (ut.mass + sn.mass)
    np.testing.assert_allclose(com, [0.0, 0.0, (1 - row["com"]) * L], atol=1e-12)
    assert sn.joint_kind == "prismatic" and sn.joint_name == "chest"
    assert [e.name for e in sn.ellipsoids] == ["sternum_pad"]


def test_analytic_thorax_figures_of_a_known_loop():
    """A loop loading linearly to 4000 N at 60 mm, unloading linearly to zero force at 40 mm:
    force at 30 mm 2000 N, peak 4000 N at 60 mm, 889.6 N reached at 60 - 20 x 0.2224 mm."""
    d = np.concatenate([np.linspace(0.0, 60.0, 601), np.linspace(60.0, 40.0, 201)[1:]])
    f = np.concatenate([np.linspace(0.0, 4000.0, 601), np.linspace(4000.0, 0.0, 201)[1:]])
    fig = thorax_figures(f, d, [30.0], 889.6)
    assert fig["force_at_30mm_N"] == pytest.approx(2000.0, rel=1e-9)
    assert fig["peak_force_N"] == 4000.0 and fig["peak_deflection_mm"] == 60.0
    assert fig["unloaded_deflection_mm"] == pytest.approx(60.0 - 20.0 * (1 - 889.6 / 4000.0), abs=0.1)


@pytest.fixture(scope="module")
def kroell(validated):
    return validated("human_thorax_kroell_16mph")


def test_reference_kroell_16mph_inside_the_lobdell_corridor(kroell):
    """Every figure inside the corridor (calibration; see the scenario's sources)."""
    bad = {k: v for k, (v, ok) in kroell["checks"].items() if not ok}
    assert not bad, bad
    assert len(kroell["checks"]) == 6


def test_identity_thorax_run_energy_balance(kroell):
    e = kroell["results"].energy
    exchanged = max(np.abs(e["total"] - e["total"][0]).max(), np.abs(e["work"]).max())
    assert np.abs(e["balance"]).max() < 0.01 * exchanged


def test_bad_validation_scenario_names_file_and_key(tmp_path):
    src = read_scenario("human_thorax_kroell_16mph")[1]
    text = open(src).read().replace("mass = 22.68", "mass = -1.0")
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    with pytest.raises(InputFileError, match=r"bad\.toml.*probe\.mass"):
        read_scenario(str(bad))


def test_cli_validate_unknown_name_is_a_clear_error(capsys):
    from occupant.cli import main
    assert main(["validate", "no_such_case"]) == 2
    err = capsys.readouterr().err
    assert "no_such_case" in err and "human_thorax_kroell_16mph" in err and "Traceback" not in err


# ------------------------------------------------------------------------------------------
# INDEPENDENT CHECKS: Lebarbe & Petit (2012) hub corridors at 4.3 and 6.7 m/s (23.4 kg), from
# PMHS tests of Kroell et al. 1974 and later; nothing of the chest was fitted to them.
# ------------------------------------------------------------------------------------------
def _corridor_read_off_its_boundaries(name):
    """The case and its boundaries (occupant.report.validation_plots.force_corridor: the data file
    the plot draws), with each figure of its corridor read off them again: the force of each
    boundary's loading leg (up to its largest deflection) at the force_at deflections, the
    boundaries' peak forces and largest deflections."""
    sc, path = read_scenario(name)
    curves = force_corridor(sc, path)[1]
    legs = {c: a[:int(np.argmax(a[:, 0])) + 1] for c, a in curves.items()}
    for d, lo, hi in sc["force_at"]:
        assert lo == pytest.approx(np.interp(d, legs["lower"][:, 0], legs["lower"][:, 1]), abs=0.1)
        assert hi == pytest.approx(np.interp(d, legs["upper"][:, 0], legs["upper"][:, 1]), abs=0.1)
        assert d <= legs["lower"][-1, 0]                    # inside both loading legs
    c = sc["corridor"]
    assert c["peak_force_N"] == pytest.approx([curves["lower"][:, 1].max(),
                                               curves["upper"][:, 1].max()], abs=0.1)
    assert c["peak_deflection_mm"] == pytest.approx([curves["lower"][:, 0].max(),
                                                     curves["upper"][:, 0].max()], abs=0.01)
    return sc, curves


def test_reference_kroell_16mph_corridor_numbers_are_lobdells_boundaries():
    """The 16 mph case's corridor is Lobdell's two polylines (data/lobdell_1972_thorax_16mph.csv,
    the vertices its header quotes): the figures as the hub cases', and the unloaded deflection
    where each boundary's unloading leg ends, at the case's unload_level_N (200 lbf)."""
    sc, curves = _corridor_read_off_its_boundaries("human_thorax_kroell_16mph")
    assert set(curves) == {"lower", "upper"}
    assert [a[-1, 1] for a in curves.values()] == pytest.approx([sc["unload_level_N"]] * 2, abs=0.1)
    assert sc["corridor"]["unloaded_deflection_mm"] == pytest.approx(
        [curves["lower"][-1, 0], curves["upper"][-1, 0]], abs=0.01)


@pytest.mark.parametrize("name, speed", [("human_thorax_hub_4_3ms_check", "4.3"),
                                         ("human_thorax_hub_6_7ms_check", "6.7")])
def test_reference_hub_corridor_numbers_are_the_data_files(name, speed):
    """The scenario's corridor numbers are read off the digitised boundaries again
    (``_corridor_read_off_its_boundaries``); the mean lies between them."""
    sc, curves = _corridor_read_off_its_boundaries(name)
    assert sc["impact_speed"] == float(speed) and sc["probe"]["mass"] == 23.4
    c = sc["corridor"]
    mean = curves["mean"]                                   # the mean lies between the boundaries
    assert c["peak_force_N"][0] < mean[:, 1].max() < c["peak_force_N"][1]
    assert c["peak_deflection_mm"][0] < mean[:, 0].max() < c["peak_deflection_mm"][1]


@pytest.mark.xfail(strict=True, reason="finding of the independent check: at 6.7 m/s the human's "
                   "chest deflects 65.6 mm, 1.2 mm short of the corridor's lower boundary (66.8 mm; "
                   "mean 84.7 mm); the chest was calibrated on Kroell 1971 16 mph only")
def test_reference_hub_6_7ms_check_inside_the_corridor(validated):
    bad = {k: v for k, (v, ok) in validated("human_thorax_hub_6_7ms_check")["checks"].items()
           if not ok}
    assert not bad, bad


@pytest.mark.parametrize("case, expected, out", [
    ("human_thorax_kroell_16mph", {"force_at_6.35mm_N": 4016.2, "force_at_25.4mm_N": 3633.4,
                "force_at_38.1mm_N": 3663.5, "peak_force_N": 4614.9,
                "peak_deflection_mm": 68.29, "unloaded_deflection_mm": 64.65}, []),
    ("human_thorax_hub_4_3ms_check", {"force_at_10mm_N": 2295.9, "force_at_20mm_N": 2093.9, "force_at_30mm_N": 1954.5,
               "peak_force_N": 2574.4, "peak_deflection_mm": 48.45}, []),
    ("human_thorax_hub_6_7ms_check", {"force_at_10mm_N": 3637.7, "force_at_30mm_N": 3392.7, "force_at_50mm_N": 3357.4,
               "peak_force_N": 4287.2, "peak_deflection_mm": 65.93}, ["peak_deflection_mm"])])
def test_regression_thorax_figures(case, expected, out, validated):
    """The figures as measured (scenarios/validation/README.md), 1 %, and which are out: the
    16 mph calibration and the 4.3 m/s check all inside (the chest peaks early, 2573 N at 2 mm,
    and stops at 49 mm, short of the corridor mean's 68 mm); at 6.7 m/s the forces inside and
    the peak deflection out (short). Since the lumbar joints' extension is the PMHS lumbar
    spine's (Demetropoulos et al. 1998, joint_passive.toml; the body, struck unsupported, turns
    back over its lumbar spine): peak deflections 68.05 -> 68.73 mm (16 mph), 47.93 -> 49.05 mm
    (4.3 m/s), 65.56 -> 66.37 mm (6.7 m/s), unloaded 64.47 -> 65.05 mm, the forces within 1.3 %.
    Since the sternum sits at mid-sternum (thorax.toml: 0.34 of the upper trunk above the
    xiphion, 0.5 before; the probe strikes 39 mm lower on the body) and the body's proportions
    follow their sources (body_proportions.toml): peak deflections 68.73 -> 68.29 mm (16 mph),
    49.05 -> 48.45 mm (4.3 m/s), 66.37 -> 65.93 mm (6.7 m/s), unloaded 65.05 -> 64.65 mm, the
    plateau forces 1-2.5 % lower (16 mph at 38.1 mm 3726 -> 3663 N, 4.3 m/s at 30 mm 2005 -> 1955
    N, 6.7 m/s at 50 mm 3438 -> 3357 N), the peaks within 0.1 %."""
    run = validated(case)
    assert set(run["checks"]) == set(expected)
    for k, v in expected.items():
        assert run["checks"][k][0] == pytest.approx(v, rel=0.01), k
    assert [k for k, (_, ok) in run["checks"].items() if not ok] == out


def test_unload_level_required_only_when_its_figure_is_judged(tmp_path):
    """The 16 mph case judges the unloading figure: without unload_level_N it is refused; the
    hub checks do not judge it and need no level."""
    src = read_scenario("human_thorax_kroell_16mph")[1]
    text = "\n".join(ln for ln in open(src).read().splitlines() if not ln.startswith("unload_level_N"))
    bad = tmp_path / "bad.toml"
    bad.write_text(text + "\n")
    with pytest.raises(InputFileError, match=r"bad\.toml.*unload_level_N.*missing"):
        read_scenario(str(bad))
    assert "unload_level_N" not in read_scenario("human_thorax_hub_4_3ms_check")[0]


# ------------------------------------------------------------------------------------------
# INDEPENDENT CHECK beyond the 50th-percentile male (issue 14 section 4): the 5th-percentile
# female against the two female PMHS (12FF, 14FF) of Kroell et al.'s 1971 16 mph series.
# ------------------------------------------------------------------------------------------
SKIN_IN = 0.5          # in: total deflection = skeletal + 0.5 in, and
OFFSET_LBF = 150.0     # lbf: measured force = skeletal - 150 lbf (ARCGen's
                       # TestCase_KroellThoraxCorridors.m, relating the traces to Lobdell 1972)


def _kroell_female_traces():
    _, path = read_scenario("human_thorax_kroell_16mph_female_check")
    rows = [ln.strip().split(",") for ln in open(pathlib.Path(path).parent / "data"
                                                 / "kroell_1971_16mph_female.csv")
            if not ln.startswith("#")]
    return {s: np.array([[float(r[1]), float(r[2])] for r in rows if r[0] == s])
            for s in ("12FF", "14FF")}


def test_reference_kroell_female_corridor_numbers_are_the_data_file():
    """The case's corridor is the range of the two female PMHS's figures, each trace put on the
    skeletal basis of Lobdell's corridor and read by the human's own figure reader."""
    sc, _ = read_scenario("human_thorax_kroell_16mph_female_check")
    assert sc["human"] == {"percentile": 5, "sex": "female"}
    assert sc["probe"]["mass"] == 22.68 and sc["impact_speed"] == 7.152
    readings = [r[0] for r in sc["force_at"]]
    figs = [thorax_figures(a[:, 1] + OFFSET_LBF * 4.44822, a[:, 0] - SKIN_IN * 25.4, readings,
                           sc["unload_level_N"]) for a in _kroell_female_traces().values()]
    expected = {f"force_at_{d:g}mm_N": [lo, hi] for d, lo, hi in sc["force_at"]}
    expected.update(sc["corridor"])
    assert set(expected) == set(figs[0])
    for name, (lo, hi) in expected.items():
        values = sorted(f[name] for f in figs)
        assert [lo, hi] == pytest.approx(values, abs=0.06), name


@pytest.mark.xfail(strict=True, reason="finding of the independent check: the 5th-percentile "
                   "female's chest forces are 17-30 % below the lower end of the two female "
                   "PMHS's (at 25.4 and 38.1 mm and the peak: 2835, 2915, 3477 N against "
                   "3703-4079, 3499-4588, 4938-5187 N); her peak deflection 64.5 mm, inside "
                   "(64.36; 64.4 with the men's C7/T1 rule; 64.3, out, with the neck's base at C7/T1 before the head's com kept "
                   "de Leva's head+neck com on it; 64.6 before that), her unloaded deflection inside; the PMHS's own size is not known")
def test_reference_kroell_female_check_inside_the_pmhs_range(validated):
    run = validated("human_thorax_kroell_16mph_female_check")
    bad = {k: v for k, (v, ok) in run["checks"].items() if not ok}
    assert not bad, bad


def test_regression_kroell_female_figures(validated):
    """The figures as measured (scenarios/validation/README.md), 1 %, and which are out. The
    chest's forces scale as lambda^2 (lambda = (49.0 / 78.2)^(1/3) = 0.856, thorax.toml): the
    5th female's peak 3462 N is 0.750 of the 50th male's 4615 N on the same probe. Since the
    neck's base at C7/T1 (the head and neck 81 mm further forward): the forces within 1 %, the
    peak deflection 64.64 -> 64.32 mm, now out by 0.04 mm, unloaded 61.13 -> 60.82 mm. Since the
    head's com keeps de Leva's head+neck com on that link (5.5 mm higher): peak 3470 N, deflection
    64.40 mm, in again (least 64.36), unloaded 60.87 mm. Since her C7/T1 stands at Reed et al.'s
    women's place (branch fivefc7: 8.2 mm higher, the neck link 122.4 -> 114.3 mm): peak 3470.2
    -> 3478.8 N, 25.4 / 38.1 mm 2839.0 / 2919.6 -> 2839.4 / 2920.5 N, deflection 64.40 -> 64.48
    mm, unloaded 60.87 -> 60.95 mm."""
    run = validated("human_thorax_kroell_16mph_female_check")
    expected = {"force_at_6.35mm_N": 3183.8, "force_at_25.4mm_N": 2839.4,
                "force_at_38.1mm_N": 2920.5, "peak_force_N": 3478.8,
                "peak_deflection_mm": 64.48, "unloaded_deflection_mm": 60.95}
    assert set(run["checks"]) == set(expected)
    for k, v in expected.items():
        assert run["checks"][k][0] == pytest.approx(v, rel=0.01), k
    assert [k for k, (_, ok) in run["checks"].items() if not ok] == [
        "force_at_25.4mm_N", "force_at_38.1mm_N", "peak_force_N"]
