"""Sweeps (issue 13 section 4): one folder per variant with its criteria.csv, a table of inputs
and criteria, resuming without redoing finished variants, failures recorded while the rest go on."""
import csv

import pytest

from occupant.scenario import ScenarioError, sweep
from occupant.scenario.sweep import design, parse_vary


def test_analytic_design_and_vary_syntax():
    assert parse_vary("pulse.delta_v_kmh=40:56:3") == ("pulse.delta_v_kmh", [40.0, 48.0, 56.0])
    assert parse_vary("solver.integrator=euler,rk4") == ("solver.integrator", ["euler", "rk4"])
    assert design({"a": [1, 2], "b": ["x", "y", "z"]})[1] == {"a": 1, "b": "y"}
    assert len(design({"a": [1, 2], "b": ["x", "y", "z"]})) == 6
    with pytest.raises(ScenarioError, match=r"--vary a=1:2: a: cannot read '1:2'"):
        parse_vary("a=1:2")


def test_reference_sweep_writes_resumes_and_records_failures(tmp_path):
    vary = {"solver.t_end": [0.005], "pulse.duration": [0.1, -0.1, 0.08]}
    calls = []
    rows = sweep("fmvss208_sled_48_unbelted", vary, tmp_path, workers=1,
                 progress=lambda done, total: calls.append(done))
    assert [r["variant"] for r in rows] == ["v0001", "v0002", "v0003"] and len(calls) == 3
    assert rows[0]["status"] == "ok" and rows[2]["status"] == "ok"
    assert rows[1]["status"].startswith("error: ") and "pulse.duration: must be > 0" in rows[1]["status"]
    assert (tmp_path / "v0002" / "error.txt").exists() and not (tmp_path / "v0002" / "criteria.csv").exists()
    for v in ("v0001", "v0003"):
        assert (tmp_path / v / "criteria.csv").exists() and (tmp_path / v / "results.h5").exists()
    with open(tmp_path / "sweep.csv", newline="") as fh:
        table = list(csv.DictReader(fh))
    assert list(table[0])[:4] == ["variant", "status", "solver.t_end", "pulse.duration"]
    assert table[0]["pulse.duration"] == "0.1" and float(table[0]["HIC15"]) >= 0 and table[1]["HIC15"] == ""
    # again on the same folder: the finished variants are read back, only the failed one reruns
    stamp = (tmp_path / "v0001" / "results.h5").stat().st_mtime_ns
    calls.clear()
    again = sweep("fmvss208_sled_48_unbelted", vary, tmp_path, workers=1,
                  progress=lambda done, total: calls.append(done))
    assert calls == [3] and (tmp_path / "v0001" / "results.h5").stat().st_mtime_ns == stamp
    assert again[0]["HIC15"] == pytest.approx(rows[0]["HIC15"], rel=1e-12)


def test_reference_sweep_rejects_a_bad_key_before_running(tmp_path):
    with pytest.raises(ScenarioError, match=r"solver.colour: unknown key"):
        sweep("fmvss208_sled_48_unbelted", {"solver.colour": [1, 2]}, tmp_path, workers=1)
    assert not list(tmp_path.glob("v*"))
