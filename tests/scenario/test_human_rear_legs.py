"""What the parametric human's legs do in the rear-impact sled (rear_whiplash with the 50th male;
issue 14 plausibility, branch rearfeet, scenarios/validation/HISTORY.md): its feet rest on the
sled floor with 38 N each, so the floor's friction (0.7) holds them with some tens of newtons
against the hundreds the sled's 10 g asks of a shank and foot; the legs are dragged rearward by
the thighs and the shanks swing rearward under the seat (this sled seat has no front face below
its cushion) about the relaxed knee, whose passive law (data/joint_passive.toml [knee.flexion])
resists with a few N m, so the knee reaches its 130 deg range end after the pulse, at 166.6 ms,
and its numerical stop takes the swing within 1.3 deg: 628 N m. That moment and the stop's force
are what the femur load cells read then, the run's femur peaks (1.23 kN, 628 N m, above the
458 N m the male femur breaks at in dynamic bending); the neck criteria are set before it.
The tests hold the mechanism until the knee's stop or the seat changes."""
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


@pytest.fixture(scope="module")
def rear():
    """rear_whiplash with the default 50th male, through the knee stop (166-177 ms)."""
    s = load("rear_whiplash", [HUMAN])
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


def test_reference_the_relaxed_knee_swings_to_its_stop_after_the_pulse(rear):
    """The knee flexes from 77.8 deg, resisted by at most 6 N m, and reaches its 130 deg range
    end at 166.6 ms, 76 ms after the pulse's end, still turning at 7.8 rad/s; the numerical stop
    takes the swing within 1.3 deg with 628 N m at 168.6 ms."""
    _, res = rear
    t = np.asarray(res.t)
    for side in ("left", "right"):
        deg = np.degrees(_out(res, f"{side}_knee_flexion.deflection"))
        load_ = np.abs(_out(res, f"{side}_knee_flexion.load"))
        rate = np.gradient(_out(res, f"{side}_knee_flexion.deflection"), t)
        i = int(np.argmax(deg > 130.0))
        assert deg[0] == pytest.approx(77.8, abs=1.0)
        assert t[i] == pytest.approx(0.1666, abs=0.003) and t[i] > PULSE_END + 0.07
        assert rate[i - 1] == pytest.approx(7.8, rel=0.1)
        assert load_[:i].max() < 6.0
        assert load_.max() == pytest.approx(628.0, rel=0.1)
        assert t[int(np.argmax(load_))] == pytest.approx(0.1686, abs=0.002)
        assert deg.max() - 130.0 == pytest.approx(1.3, abs=0.3)


def test_reference_the_humans_femur_peaks_are_the_knee_stops(rear):
    """The femur channels peak when the knee's stop does (168.6 ms): the moment is the stop's,
    628 N m, above the male femur's dynamic bending failure; the axial force 1.23 kN there, 0.49
    kN at most before 165 ms (the run stopped at 165 ms reports 493 N)."""
    _, res = rear
    knee = np.abs(_out(res, "left_knee_flexion.load"))
    t_stop = np.asarray(res.t)[int(np.argmax(knee))]
    for side in ("Left", "Right"):
        tm, my = _channel(res, f"{side} femur moment Y")
        tf, fz = _channel(res, f"{side} femur force Z")
        assert tm[int(np.argmax(np.abs(my)))] == pytest.approx(t_stop, abs=0.001)
        assert np.abs(my).max() == pytest.approx(knee.max(), rel=0.02)
        assert np.abs(my).max() > FEMUR_BENDING_FAILURE
        assert tf[int(np.argmax(np.abs(fz)))] == pytest.approx(t_stop, abs=0.001)
        assert np.abs(fz).max() == pytest.approx(1229.0, rel=0.05)
        assert np.abs(fz[tf < 0.165]).max() == pytest.approx(493.0, rel=0.1)
