"""The human's chest compliance (issue 14 section 3) and its pendulum case (section 4):
scenarios/validation/human_thorax_kroell_16mph.toml against the Lobdell et al. (1972) corridor
of Kroell et al.'s (1971) PMHS tests, the quasi-static stiffness against Cavanaugh et al. (1988),
the sternum's mass bookkeeping, and the figure reader on a loop with known figures.
The pendulum corridor is the CALIBRATION of the chest (data/thorax.toml): these tests hold the
calibrated figures, they do not validate them."""
import numpy as np
import pytest

from occupant.human.builder import _check_inputs, build_segments, segment_table, thorax_table
from occupant.human.validation import read_scenario, run_validation, thorax_figures
from occupant.io.toml_files import InputFileError


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
def kroell():
    return run_validation("human_thorax_kroell_16mph")


def test_reference_kroell_16mph_inside_the_lobdell_corridor(kroell):
    """Every figure inside the corridor (calibration; see the scenario's sources)."""
    bad = {k: v for k, (v, ok) in kroell["checks"].items() if not ok}
    assert not bad, bad
    assert len(kroell["checks"]) == 6


def test_regression_kroell_16mph_figures(kroell):
    """The calibrated figures as measured (scenarios/validation/README.md), 1 % tolerance."""
    expected = {"force_at_6.35mm_N": 4013.3, "force_at_25.4mm_N": 3664.8,
                "force_at_38.1mm_N": 3715.3, "peak_force_N": 4614.0,
                "peak_deflection_mm": 68.05, "unloaded_deflection_mm": 64.47}
    for k, v in expected.items():
        assert kroell["checks"][k][0] == pytest.approx(v, rel=0.01), k


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
