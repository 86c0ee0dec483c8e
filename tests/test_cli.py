"""The occupant command: version, demo, and clear errors with non-zero exit codes."""
import subprocess
import sys

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


def test_bad_parameter_gives_message_not_traceback():
    proc = _run("demo", "--t-end", "-1")
    assert proc.returncode == 2
    assert "t_end must be a positive number" in proc.stderr and "Traceback" not in proc.stderr
    proc = _run("demo", "--integrator", "leapfrog")
    assert proc.returncode == 2 and "invalid choice" in proc.stderr
