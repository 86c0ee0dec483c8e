"""Part 572 certification tests with contact (issue 11 section 7): head drop (572.32/.132),
thorax pendulum (572.34/.134), knee impact (572.35/.136). Corridors [C] from the CFR text (see
scenarios/certification/README.md). The 50M head skin, chest and both knees are fitted to their
tests (calibrations); the 5F head drop and thorax are checks of the 50M fits."""
import numpy as np
import pytest

import occupant
from occupant.human import impact_tests as it
from occupant.human.certification import (TESTS, available_scenarios, read_scenario,
                                          run_certification)
from occupant.io.toml_files import InputFileError

G0 = 9.80665
CONTACT_SCENARIOS = ["hybrid3_50m_head_drop", "hybrid3_05f_head_drop", "hybrid3_50m_thorax",
                     "hybrid3_05f_thorax", "hybrid3_50m_knee", "hybrid3_05f_knee"]


def test_reference_registry_and_shipped_scenarios():
    """One runner per test key; every shipped scenario names one of them."""
    assert set(TESTS) == {"neck_pendulum", "head_drop", "thorax_pendulum", "knee_impact"}
    names = available_scenarios()
    assert set(CONTACT_SCENARIOS) <= set(names)
    assert {read_scenario(n)[0]["test"] for n in names} == set(TESTS)


@pytest.mark.parametrize("name", CONTACT_SCENARIOS)
def test_reference_every_figure_inside_its_cfr_corridor(name):
    """Measured (CFC-filtered): 50M head 250.2 g, 5F head 271.2 g, 50M thorax 5532 N / 68.1 mm /
    77.0 %, 5F thorax 57.3 mm / 4079 N / 3612 N / 77.7 % (with her stop-45 neck fit; 57.0 mm /
    4053 N / 3613 N / 77.5 % with the issue-10 fit on her FE-deck neck; the sternum pad with the
    open model's outline; 5568 N / 68.4 mm, 5F 57.6 mm with the 214 mm pad [E]; with the 160 mm
    pad the chest was fitted to: 5528 N / 68.0 mm, 5F 57.2 mm / 4074 N),
    50M knee 5254 N, 5F knee 3759 N."""
    out = run_certification(name)
    sc, _ = read_scenario(name)
    assert set(out["checks"]) == set(sc["corridor"])
    assert all(ok for _, ok in out["checks"].values()), out["checks"]
    assert out["results"].status == "finished"


def test_analytic_head_drop_peak_is_the_hertz_energy_balance():
    """Unfiltered: the head (a rigid body whose contact normal passes through its CG when face
    down) meets the plate at sqrt(2 g h); at the deepest point m v^2/2 + m g d = k d^2.5 / 2.5
    and the accelerometer reads k d^1.5 / m."""
    sc, _ = read_scenario("hybrid3_50m_head_drop")
    model, q0, v0 = it.head_drop_model(sc)
    res = occupant.simulate(model, 0.006, dt=1e-6, q0=q0, v0=v0, output_dt=1e-6)
    k, m = sc["contact"]["stiffness"], model.body_mass[0]
    v2 = 2 * G0 * sc["drop_height"]
    from scipy.optimize import brentq
    d = brentq(lambda d: 0.5 * m * v2 + m * G0 * d - k * d ** 2.5 / 2.5, 1e-6, 0.05)
    peak = res.outputs["head_plate.normal_force"].max() / m / G0
    assert peak == pytest.approx(k * d ** 1.5 / m / G0, rel=1e-4)
    assert peak == pytest.approx(250.0, rel=2e-3)   # the fit's target
    # no rotation: the head translates (its angular velocity stays zero)
    assert np.abs(res.v[:, 3:]).max() < 1e-9


@pytest.mark.parametrize("name", ["hybrid3_50m_knee", "hybrid3_05f_knee"])
def test_analytic_knee_peak_is_v_sqrt_km(name):
    """Unfiltered: a linear elastic contact struck by the guided probe peaks at v sqrt(k m)."""
    sc, _ = read_scenario(name)
    model, q0, v0 = it.knee_model(sc)
    res = occupant.simulate(model, 0.006, dt=1e-6, q0=q0, v0=v0, gravity=(0, 0, 0), output_dt=1e-6)
    exact = sc["impact_speed"] * np.sqrt(sc["contact"]["stiffness"] * sc["probe"]["mass"])
    assert res.outputs["probe_knee.normal_force"].max() == pytest.approx(exact, rel=1e-5)


@pytest.mark.parametrize("name", ["hybrid3_50m_thorax", "hybrid3_05f_thorax", "hybrid3_50m_knee",
                                  "hybrid3_05f_knee"])
def test_probe_face_is_a_disc_of_the_cfr_radius(name):
    """572.36(a), (b) and 572.137(a), (b): the probes are rigid cylinders with a flat face of the
    scenario's face_radius; the face compiles as that disc (the flat-ended cylinder pair, zero
    thickness), not the square around it, whose corners reach sqrt(2) times as far."""
    from occupant.model.bundle import CONTACT_ELLIPSOID_CYLINDER
    sc, _ = read_scenario(name)
    model = (it.knee_model if "knee" in name else it.thorax_model)(sc)[0]
    k = model.contact_names.index("probe_knee" if "knee" in name else "probe_sternum")
    r = sc["probe"]["face_radius"]
    assert model.contacts.pair_type[k] == CONTACT_ELLIPSOID_CYLINDER
    np.testing.assert_array_equal(model.contacts.size_b[k], [r, 0.0, -1.0])
    assert model.contacts.bound_b[k] == r


def test_analytic_head_drop_figures_on_a_synthetic_pulse():
    """A 250 g half-sine (3 ms) along x, then a 20 g ringing, and 12 g lateral: peak 250,
    lateral 12, oscillation after the pulse 20/250 = 8 %."""
    t = np.linspace(0.0, 0.01, 10001)
    a = np.zeros((len(t), 3))
    a[:, 0] = np.where(t < 0.003, 250.0 * np.sin(np.pi * t / 0.003), 0.0)
    a[:, 0] += np.where((t > 0.005) & (t < 0.006), 20.0 * np.sin(np.pi * (t - 0.005) / 0.001), 0.0)
    a[:, 1] = np.where(t < 0.003, 12.0 * np.sin(np.pi * t / 0.003), 0.0)
    fig = it.head_drop_figures(t, a)
    assert fig["peak_resultant_g"] == pytest.approx(np.hypot(250.0, 12.0), rel=1e-6)
    assert fig["peak_lateral_g"] == pytest.approx(12.0, rel=1e-6)
    assert fig["oscillation_percent"] == pytest.approx(100 * 20.0 / np.hypot(250.0, 12.0), rel=1e-4)


def test_analytic_hysteresis_of_a_triangle_loop():
    """Loading F = k d to d_m, unloading on the straight line from (d_m, k d_m) to d0: the lost
    work over the loading work is 1 - (d_m - d0) / d_m; here d0 = 0.6 d_m, so 60 %; the thorax
    figures also read peak force, peak deflection and (572.134) the force between 18 and 50 mm."""
    dm, k, d0 = 0.07, 8.0e4, 0.042
    up = np.linspace(0.0, dm, 701)
    down = np.linspace(dm, d0, 301)[1:]
    d = np.concatenate([up, down])
    f = np.concatenate([k * up, k * dm * (down - d0) / (dm - d0)])
    assert it.hysteresis_percent(f, d) == pytest.approx(60.0, rel=1e-9)
    fig = it.thorax_figures(np.arange(len(d)) * 1e-5, f, d)
    assert fig["peak_force_N"] == pytest.approx(k * dm)
    assert fig["peak_deflection_mm"] == pytest.approx(70.0)
    assert fig["peak_force_18_to_50mm_N"] == pytest.approx(k * 0.05, rel=2e-3)


def test_reference_thorax_energy_balance_and_chest_channel():
    """The thorax run (hysteretic chest joint, jacket and seat contacts): the energy balance
    closes to 0.5 % of the probe's kinetic energy; the default sensors' chest deflection channel
    is the chest joint's travel (J211: compression negative) and peaks near the CFR's 68 mm; the
    contact point stays on the probe face, well inside its rim (measured: at most 31.6 mm off the
    probe's axis, face radius 76.2 mm), so the face's outline does not shape the figures."""
    from occupant.sensors import default_sensors, evaluate
    sc, _ = read_scenario("hybrid3_50m_thorax")
    out = it.run_thorax_pendulum(sc)
    res, model = out["results"], out["model"]
    ke = 0.5 * sc["probe"]["mass"] * sc["impact_speed"] ** 2
    assert np.abs(res.energy["balance"]).max() < 5e-3 * ke
    chans = {c.name: c for c in evaluate(model, res, default_sensors(model), rate=20000.0)}
    ch = chans["Chest deflection displacement X"]
    travel = np.interp(ch.t, res.t, res.outputs["chest_translation.deflection"])
    np.testing.assert_allclose(ch.values, travel, atol=1e-9)
    assert ch.code.endswith("DSX0") and -0.075 < ch.values.min() < -0.060
    on = res.outputs["probe_sternum.normal_force"] > 0
    y, z = (res.outputs[f"probe_sternum.point_{c}"][on] for c in "yz")
    assert np.hypot(y - y[0], z - z[0]).max() < 0.5 * sc["probe"]["face_radius"]


def test_bad_contact_scenario_names_file_and_key(tmp_path):
    """An unknown test, a channel class that is not J211's, a corridor figure the test does not
    compute: one message naming the file and the key."""
    text = read_scenario("hybrid3_50m_knee")[1].read_text()
    for old, new, key in (('test = "knee_impact"', 'test = "knee_drop"', "test"),
                          ("cfc = 600", "cfc = 500", "cfc"),
                          ("peak_force_N = [4715.0, 5783.0]", "peak_g = [1.0, 2.0]", "corridor")):
        path = tmp_path / "bad.toml"
        path.write_text(text.replace(old, new))
        with pytest.raises(InputFileError, match=key) as err:
            read_scenario(str(path))
        assert str(path) in str(err.value)


def test_certify_command_runs_contact_tests_and_writes_their_histories(tmp_path):
    """`occupant certify` picks each scenario's runner by its test key: figures with corridors
    and PASS, exit 0, and each test's own channels in its CSV."""
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, "-m", "occupant.cli", "certify", "hybrid3_50m_knee",
                           "hybrid3_05f_head_drop", "--out", str(tmp_path)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "hybrid3_50m_knee: hybrid3_50m knee impact" in proc.stdout
    assert "peak_force_N" in proc.stdout and "[4715, 5783]  PASS" in proc.stdout
    assert "peak_resultant_g" in proc.stdout and "FAIL" not in proc.stdout
    knee = (tmp_path / "hybrid3_50m_knee.csv").read_text().splitlines()
    head = (tmp_path / "hybrid3_05f_head_drop.csv").read_text().splitlines()
    assert knee[0] == "t_s,probe_force_N" and len(knee) > 100
    assert head[0] == "t_s,accel_x_g,accel_y_g,accel_z_g,plate_force_N"
