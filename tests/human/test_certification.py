"""Part 572 subpart E neck pendulum (49 CFR 572.33) with the Hybrid III 50M head and neck.
The corridors are [U] (recalled, see scenarios/certification/README.md)."""
import numpy as np
import pytest

from occupant.human.certification import pendulum_pulse, read_scenario, run_neck_pendulum

SCEN = ["hybrid3_50m_neck_flexion", "hybrid3_50m_neck_extension"]


@pytest.mark.parametrize("name", SCEN)
def test_analytic_pulse_integrates_to_impact_speed(name):
    """The corridor-middle deceleration and the impact speed are consistent: the pulse needs
    less than 5 % scaling to stop the pendulum from the impact speed (measured 0.975 flexion,
    0.960 extension), and after scaling its integral is the impact speed."""
    sc, _ = read_scenario(name)
    t, a, scale = pendulum_pulse(sc)
    assert abs(scale - 1.0) < 0.05
    assert np.trapezoid(a, t) == pytest.approx(sc["impact_speed"], rel=1e-12)


@pytest.fixture(scope="module")
def results():
    return {n: run_neck_pendulum(n) for n in SCEN}


def test_reference_neck_responds_in_the_test_direction(results):
    """Flexion test: the head nods towards the face with a flexion (positive) moment; extension
    test: the opposite, and the moment decays to its 10 N m threshold inside the [U] window."""
    fl, ex = results[SCEN[0]], results[SCEN[1]]
    assert fl["rotation_deg"].max() > 30 and fl["moment_Nm"].max() > 50
    assert ex["rotation_deg"].min() < -30 and ex["moment_Nm"].min() < -50
    assert fl["checks"]["decay_time_ms"][1] and ex["checks"]["decay_time_ms"][1]


@pytest.mark.xfail(strict=True, reason=(
    "model not tuned to 572.33: with the 95M open-model neck curves scaled to the 50M, the peak "
    "D-plane rotation is 45.6 deg in flexion (corridor 64-78) and 59.4 deg in extension (81-106); "
    "peak OC moment 71.2 N m (88-108) and -69.7 N m (-69..-53). The head-neck is too stiff "
    "(OC damping 90 N m s/rad from the open model locks the condyle joint)."))
@pytest.mark.parametrize("name", SCEN)
def test_reference_neck_pendulum_inside_corridors(results, name):
    checks = results[name]["checks"]
    assert all(ok for _, ok in checks.values()), checks
