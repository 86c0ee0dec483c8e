"""The occupant command: version, demo, and clear errors with non-zero exit codes."""
import math
import re
import subprocess
import sys

import pytest

import occupant


def _run(*args):
    return subprocess.run([sys.executable, "-m", "occupant.cli", *args], capture_output=True, text=True)


def test_version():
    proc = _run("--version")
    assert proc.returncode == 0 and proc.stdout.strip() == f"occupant {occupant.__version__}"


def test_demo_runs_and_summarises():
    proc = _run("demo", "--t-end", "0.02")
    assert proc.returncode == 0, proc.stderr
    assert "simulated 0.0200 s" in proc.stdout and "head forward excursion" in proc.stdout


def test_reference_demo_states_the_pulse_it_applies_and_judges_nothing():
    """Issue 10 section 4. The stated delta-v is the pulse's: a half-sine of peak A and duration
    T loses 2 A T / pi (crash-domain-facts.md 4.2), 45.0 km/h for 20 g and 100 ms, and the sled
    ends at its start speed minus that (before: "from 50 km/h" for a sled left at 5 km/h). An
    unrestrained occupant is no regulatory test: no pass/FAIL or limit line (before: four FMVSS
    208 "pass" lines), and no injury criterion either: an occupant held only by its joint stops
    gives head and neck loads that mean nothing (HIC15 near 5000 with the stops); the spine's
    peak flexion against its stops is shown instead."""
    from occupant import demo
    proc = _run("demo", "--t-end", "0.02")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    m = re.search(r"sled pulse: delta-v ([\d.]+) km/h, peak ([\d.]+) g, duration (\d+) ms "
                  r"\(sled ([\d.]+) -> ([\d.]+) km/h\)", out)
    assert m, out
    delta_v = 2 * demo.PULSE_PEAK * demo.PULSE_DURATION / math.pi * 3.6  # km/h
    assert float(m[1]) == pytest.approx(delta_v, abs=0.05)
    assert float(m[2]) == pytest.approx(demo.PULSE_PEAK / 9.80665, abs=0.05)
    assert int(m[3]) == round(demo.PULSE_DURATION * 1e3)
    assert float(m[4]) == pytest.approx(demo.SLED_SPEED0 * 3.6, abs=0.05)
    assert float(m[5]) == pytest.approx(demo.SLED_SPEED0 * 3.6 - delta_v, abs=0.05)
    assert not re.search(r"\b(pass|fail)\b|limit +[\d.]", out, re.IGNORECASE)
    assert "no injury criteria" in out and "no belt, airbag or contact" in out
    assert not re.search(r"\b(hic\d*|nij|neck_tension)\b", out, re.IGNORECASE)
    assert re.search(r"lumbar_pelvis_y +peak flexion +[\d.]+ deg \(stop +37.5\)", out)


def test_demo_help_names_what_it_simulates():
    for args in (("--help",), ("demo", "--help")):
        out = " ".join(_run(*args).stdout.split())
        assert "Hybrid III 50th male" in out and "no belt, airbag or contact" in out
        assert "sled pulse" in out


def test_bad_parameter_gives_message_not_traceback():
    proc = _run("demo", "--t-end", "-1")
    assert proc.returncode == 2
    assert "t_end must be a positive number" in proc.stderr and "Traceback" not in proc.stderr
    proc = _run("demo", "--integrator", "leapfrog")
    assert proc.returncode == 2 and "invalid choice" in proc.stderr


def test_certify_prints_figures_against_corridors_and_writes_csv(tmp_path):
    """`occupant certify NAME --out DIR`: each pulse and response figure with its corridor and
    PASS/FAIL, exit 0 when all pass, the time history as CSV."""
    proc = _run("certify", "hybrid3_05f_neck_flexion", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "peak_rotation_deg" in proc.stdout and "[77, 91]  PASS" in proc.stdout
    assert "delta_v_m_s@10ms" in proc.stdout and "FAIL" not in proc.stdout
    rows = (tmp_path / "hybrid3_05f_neck_flexion.csv").read_text().splitlines()
    assert rows[0] == "t_s,rotation_deg,oc_moment_Nm" and len(rows) == 1602


def _scenario_copy(tmp_path, old, new):
    """The shipped 50M flexion scenario with the line ``old`` replaced by ``new``, in tmp_path."""
    from occupant.human.certification import read_scenario
    text = read_scenario("hybrid3_50m_neck_flexion")[1].read_text()
    assert old in text
    path = tmp_path / "edited.toml"
    path.write_text(text.replace(old, new))
    return path


def test_certify_exit_code_reports_a_figure_outside(tmp_path):
    """A corridor the response cannot meet (peak rotation 10-20 deg): FAIL on that line, exit
    code 1."""
    path = _scenario_copy(tmp_path, "peak_rotation_deg = [64.0, 78.0]",
                          "peak_rotation_deg = [10.0, 20.0]")
    proc = _run("certify", str(path))
    assert proc.returncode == 1
    assert any("peak_rotation_deg" in ln and ln.endswith("FAIL") for ln in proc.stdout.splitlines())


def test_certify_bad_scenario_file_names_file_and_key(tmp_path):
    """A pendulum radius that is not a positive number, an unknown test mode, a missing key or
    broken TOML: one line naming the file (and the key), exit code 2, no traceback."""
    path = _scenario_copy(tmp_path, "neck_base_radius = 1.680", "neck_base_radius = -1.68")
    proc = _run("certify", str(path))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    expected = f"{path}: pendulum.neck_base_radius: must be > 0, got -1.68 (accepted: a positive number)"
    assert expected in proc.stderr
    path = _scenario_copy(tmp_path, 'mode = "flexion"', 'mode = "lateral"')
    proc = _run("certify", str(path))
    assert proc.returncode == 2
    assert "mode: unknown test mode 'lateral' (accepted: flexion, extension)" in proc.stderr
    path = _scenario_copy(tmp_path, 'dummy = "hybrid3_50m"', "")
    proc = _run("certify", str(path))
    assert proc.returncode == 2 and f"{path}: dummy: missing" in proc.stderr
    path = _scenario_copy(tmp_path, "t_end = 0.16", "t_end = ")
    proc = _run("certify", str(path))
    assert proc.returncode == 2 and f"{path}: not valid TOML" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_certify_unknown_scenario_is_a_clear_error():
    proc = _run("certify", "hybrid3_50m_pelvis_drop")   # knee is a shipped scenario now
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "unknown certification scenario (accepted: hybrid3_05f_head_drop" in proc.stderr
