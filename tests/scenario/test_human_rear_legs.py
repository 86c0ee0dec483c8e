"""What the parametric human's legs do in the rear-impact sled (rear_whiplash with the 50th male;
issue 14 plausibility, branches rearfeet and kneestop, scenarios/validation/HISTORY.md): its feet
rest on the sled floor with 38 N each, so the floor's friction (0.7) holds them with some tens of
newtons against the hundreds the sled's 10 g asks of a shank and foot; the legs are dragged
rearward by the thighs and the shanks swing rearward under the seat (this sled seat has no front
face below its cushion) about the relaxed knee, whose passive law (data/joint_passive.toml
[knee.flexion]) resists with a few N m until the calf nears the thigh. The knee passes the
clinical ACTIVE flexion, 130 deg, after the pulse (164.6 ms, 8.1 rad/s), where the range ended
and a numerical stop took the swing with 628 N m (the femur peaks of the run, 1.23 kN and 628 N m,
over the 458 N m the male femur breaks at in dynamic bending); the range now ends at the PASSIVE
flexion, 150 deg (data/joint_rom.toml), and the law's rise (the thigh-calf approximation) ends the
swing short of it. The neck criteria are set before any of this."""
import numpy as np
import pytest

from occupant.scenario import load
from occupant.scenario.run import run_scenario

HUMAN = "occupant.human.sex=male"
#: the sled's pulse (scenarios/rear_whiplash.toml): 10 g peak, ending at 90.6 ms
PEAK_G, PULSE_END = 10.0, 0.0906
#: dynamic three-point bending failure moment of 15 isolated male femurs, 458 +- 95 N m, no
#: difference between loading directions (Funk, Kerrigan & Crandall 2004, "Dynamic bending
#: tolerance and elastic-plastic material properties of the human femur", Annu. Proc. AAAM 48:
#: 215-233 [S abstract])
FEMUR_BENDING_FAILURE = 458.0   # N m


#: the knee's passive law (Anderson & Pandy 1999, data/joint_passive.toml [knee.flexion], written
#: out here), our moment at our flexion theta (rad), reference subject (this human's m H)
KNEE_LAW = ((-6.09, 33.94, 11.03, -11.33), (-2.4, 0.13))
KNEE_DAMPING = 0.41     # N m s/rad, data/joint_passive.toml [knee.flexion]
#: the knee's passive flexion range end (data/joint_rom.toml, AMA [U]) and its active one
KNEE_PASSIVE_END, KNEE_ACTIVE_END = 150.0, 130.0   # deg
SHIPPED_END = 0.20      # s, scenarios/rear_whiplash.toml [solver] t_end


def _knee_law(theta):
    (k1, k2, k3, k4), (lo, hi) = KNEE_LAW
    phi = -np.asarray(theta)
    return -(k1 * np.exp(k2 * (phi - hi)) + k3 * np.exp(k4 * (phi - lo)))


@pytest.fixture(scope="module")
def rear():
    """rear_whiplash with the default 50th male, run on past its 200 ms to 350 ms, through the
    end of the shanks' swing (326.3 ms)."""
    s = load("rear_whiplash", [HUMAN, "solver.t_end=0.35"])
    return s, run_scenario(s).results


def _out(res, name):
    return np.asarray(res.outputs[name])


def _channel(res, name):
    c = next(c for c in res.channels if c.name == name)
    return np.asarray(c.t), np.asarray(c.values)


def test_reference_the_floor_cannot_hold_the_humans_feet(rear):
    """The heels start on the floor with 38 N (the Hybrid III's 119 N), bear 156 N at most and
    leave it at 98.8 ms; their friction, at most 109 N, is a fraction of the force that would
    carry the shank and foot (4.4 kg) with the sled at its 10 g (430 N)."""
    s, res = rear
    t = np.asarray(res.t)
    m = s.model
    leg = sum(m.body_mass[list(m.body_names).index(f"left_{b}")] for b in ("lower_leg", "foot"))
    for side in ("left", "right"):
        heel = _out(res, f"{side}_heel__floor.normal_force")
        friction = np.abs(_out(res, f"{side}_heel__floor.friction_force"))
        assert heel[0] == pytest.approx(38.0, abs=8.0)
        assert heel.max() == pytest.approx(156.0, rel=0.1)
        assert friction.max() <= 0.7 * heel.max() + 1e-6
        assert friction.max() < 0.3 * leg * PEAK_G * 9.81
        assert t[heel > 0.0][-1] == pytest.approx(0.0988, abs=0.003)
        # the forefoot stays off the floor through the pulse
        assert _out(res, f"{side}_foot_shell__floor.normal_force")[t < 0.15].max() == 0.0


def test_reference_the_relaxed_knee_swings_past_the_active_range_to_the_thigh_calf_rise(rear):
    """The knee flexes from 77.8 deg and passes the active 130 deg (the old range end) at 164.6
    ms, 74 ms after the pulse's end, at 8.1 rad/s, then slows in the passive law's rise (the calf
    nearing the thigh): 144.2 deg at the shipped run's 200 ms (44 N m), its largest flexion 148.3
    deg at 326.3 ms with 94 N m, 1.7 deg short of the passive range end; the stop never acts:
    throughout, the knee's moment is the law's plus its damping (the tabulated law within 0.5 %).
    (Before the condyles stood below the tragion, branch chanceyship: 130 deg passed at 166.6 ms,
    143.3 deg at 200 ms, the largest 147.3 deg at 224.6 ms with 77 N m.)"""
    _, res = rear
    t = np.asarray(res.t)
    for side in ("left", "right"):
        theta = _out(res, f"{side}_knee_flexion.deflection")
        load_ = _out(res, f"{side}_knee_flexion.load")
        deg, rate = np.degrees(theta), np.gradient(theta, t)
        i = int(np.argmax(deg > KNEE_ACTIVE_END))
        assert deg[0] == pytest.approx(77.8, abs=1.0)
        assert t[i] == pytest.approx(0.1646, abs=0.003) and t[i] > PULSE_END + 0.07
        assert rate[i - 1] == pytest.approx(8.05, rel=0.1)
        top = int(np.argmax(deg))
        assert deg.max() == pytest.approx(148.3, abs=1.0) and deg.max() < KNEE_PASSIVE_END
        assert t[top] == pytest.approx(0.3263, abs=0.005)
        assert np.abs(load_).max() == pytest.approx(94.0, rel=0.1)
        assert deg[t <= SHIPPED_END].max() == pytest.approx(144.2, abs=1.0)
        np.testing.assert_allclose(load_, _knee_law(theta) - KNEE_DAMPING * rate,
                                   rtol=0.006, atol=0.5)


def test_reference_the_humans_femur_peaks_are_no_knee_stop(rear):
    """In the shipped 200 ms the femur's axial force peaks at 496 N at 96.7 ms, when the heels
    leave the floor (the run's criteria table: 1229 N before kneestop, the stop's); its bending
    moment is the knee's passive moment, 44 N m at 200 ms and 94 N m at the swing's end, under a
    fourth of the male femur's dynamic bending failure (before kneestop: 628 N m, the stop's;
    before chanceyship: 493 N at 98.9 ms, 37 and 77 N m)."""
    _, res = rear
    knee = np.abs(_out(res, "left_knee_flexion.load"))
    for side in ("Left", "Right"):
        tm, my = _channel(res, f"{side} femur moment Y")
        tf, fz = _channel(res, f"{side} femur force Z")
        shipped = tf <= SHIPPED_END
        assert np.abs(fz[shipped]).max() == pytest.approx(496.0, rel=0.05)
        assert tf[shipped][int(np.argmax(np.abs(fz[shipped])))] == pytest.approx(0.0967, abs=0.002)
        assert np.abs(my).max() == pytest.approx(knee.max(), rel=0.02)
        assert np.abs(my).max() < FEMUR_BENDING_FAILURE / 4.0
        assert np.abs(my[tm <= SHIPPED_END]).max() == pytest.approx(44.0, rel=0.1)
