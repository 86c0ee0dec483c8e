"""The pre-crash AEB scenario (scenarios/aeb_precrash_frontal.toml): B0 follows the full-car
model's chassis during braking, then a half-sine crash takes the speed left; the occupant
leans forward before the crash. Slow: loading runs the full-car DAE (about 5 min of CPU on a
loaded 2-core machine, 0.1 s settle + 0.5 s braking) and the run simulates 0.65 s."""
import numpy as np
import pytest

from occupant.scenario import load
from occupant.vehicle.manoeuvre import G0, chassis_base_motion
from tests.scenario.test_scenario_fw_side_rear import (NECK_GRAZE, SHELL_GRAZE, _deepest_in_the_neck,
                                                       _past_rim, no_motion_defects)


@pytest.fixture(scope="module")
def scenario():
    return load("aeb_precrash_frontal")


@pytest.fixture(scope="module")
def aeb_run(scenario):
    return scenario.run()


def test_identity_aeb_base_motion_is_the_chassis_motion(scenario):
    """During braking B0's velocity, acceleration, attitude and angular velocity are those of
    the vehicle manoeuvre's chassis at the driver H-point (position shifted to start at 0)."""
    from occupant.scenario.precrash import braking_run
    p = scenario.pulse
    man = braking_run("midsize_sedan", p.speed0, p.impact)
    chassis, bm = chassis_base_motion(man), p.base_motion()
    for t in np.linspace(0.0, p.impact, 23):
        np.testing.assert_allclose(bm.velocity(t), chassis.velocity(t), atol=1e-9)
        np.testing.assert_allclose(bm.acceleration(t), chassis.acceleration(t), atol=1e-9)
        np.testing.assert_allclose(bm.rotation(t), chassis.rotation(t), atol=1e-12)
        np.testing.assert_allclose(bm.angular_velocity(t), chassis.angular_velocity(t), atol=1e-12)
        np.testing.assert_allclose(bm.position(t), chassis.position(t) - chassis.position(0.0), atol=1e-9)
    # the braking is AEB-like: near 1 g at the end (brakes sized for about 1 g, occupant.vehicle)
    assert 0.7 < -bm.acceleration(p.impact - 0.05)[0] / G0 < 1.2


def test_analytic_aeb_crash_continuous_in_velocity_and_stops_the_car(scenario):
    """Velocity continuous at the impact; the half-sine loses exactly the speed left
    (delta-v = 2 A T / pi, crash-domain-facts 4.2) and the car ends at rest."""
    p, bm = scenario.pulse, scenario.pulse.base_motion()
    tb, T = p.impact, p.crash_duration
    assert abs(bm.velocity(tb + 1e-6)[0] - bm.velocity(tb)[0]) < 1e-3
    assert abs(bm.velocity(tb + T + 0.01)[0]) < 1e-9
    crash = p.t >= tb
    lost = -np.trapezoid(p.a[crash], p.t[crash])
    assert abs(lost - p.impact_speed) < 1e-3 * p.impact_speed
    # speed left after 0.5 s of braking from 56 km/h: less than 56, more than with 1 g throughout
    assert 56 / 3.6 - G0 * tb < p.impact_speed < 56 / 3.6 - 0.3 * G0 * tb


def test_analytic_aeb_crash_keeps_the_chassis_rates_continuous(scenario):
    """At the impact the car still pitches into its dive (0.05 rad/s): its angular, lateral and
    vertical velocity fall to zero over the crash pulse instead of at once (dropped at once,
    the occupant's kinetic energy jumped 5 J with no work done); in the crash phase the rates
    are the derivatives of the attitude and position (central differences)."""
    p, bm = scenario.pulse, scenario.pulse.base_motion()
    tb, T = p.impact, p.crash_duration
    assert np.linalg.norm(bm.angular_velocity(tb)) > 0.02          # the test can fail
    np.testing.assert_allclose(bm.angular_velocity(tb + 1e-6), bm.angular_velocity(tb), atol=1e-6)
    np.testing.assert_allclose(bm.velocity(tb + 1e-6)[1:], bm.velocity(tb)[1:], atol=1e-6)
    assert not np.any(bm.angular_velocity(tb + T + 1e-6)) and not np.any(bm.velocity(tb + T + 0.01))
    h = 1e-5
    for s in tb + np.array([0.2, 0.5, 0.8]) * T:
        dR = (bm.rotation(s + h) - bm.rotation(s - h)) / (2 * h) @ bm.rotation(s).T
        w = np.array([dR[2, 1], dR[0, 2], dR[1, 0]])
        np.testing.assert_allclose(w, bm.angular_velocity(s), atol=1e-6)
        dw = (bm.angular_velocity(s + h) - bm.angular_velocity(s - h)) / (2 * h)
        np.testing.assert_allclose(dw, bm.angular_acceleration(s), atol=1e-6)
        dp = (bm.position(s + h) - bm.position(s - h)) / (2 * h)
        np.testing.assert_allclose(dp[1:], bm.velocity(s)[1:], atol=1e-6)


def _b0(res, body):
    """(n, 3) body centre of mass in B0 coordinates."""
    R, o = res.base_poses[:, :3, :3], res.base_poses[:, :3, 3]
    return np.einsum("nji,nj->ni", R, res.body_com[:, body] - o)


def test_reference_aeb_occupant_out_of_position_at_impact(aeb_run, scenario):
    """At impact the occupant has moved forward in the car: relaxed volunteers in 1.1 g braking
    moved their head about 100-200 mm forward (Östh et al. 2013; Carlsson and Davidsson 2011 [U]);
    held at 5-200 mm (measured as shipped, settled before braking: head 126 mm, chest 43 mm from
    t = 0; unsettled they were 174 and 63 mm, after first falling back 66 mm into the seat); the
    chest less than the head. The run
    finishes and its energy balance closes to 1 % of the energy exchanged."""
    res, model = aeb_run.results, aeb_run.model
    assert res.status == "finished"
    k = np.searchsorted(res.t, scenario.pulse.impact)
    head, chest = _b0(res, model.body("head")), _b0(res, model.body("upper_torso"))
    dx_head, dx_chest = head[k, 0] - head[0, 0], chest[k, 0] - chest[0, 0]
    print(f"head excursion at impact {dx_head * 1e3:.1f} mm, chest {dx_chest * 1e3:.1f} mm")
    assert 0.005 < dx_head < 0.2
    assert dx_chest < dx_head
    exchanged = np.max(np.abs(res.energy["work"]))
    assert abs(res.energy["balance"][-1]) < 0.01 * exchanged


def test_reference_aeb_motion_has_no_defects(aeb_run):
    """Braking, then the crash out of position: no joint past its stop, no body through a
    surface or the bag (``no_motion_defects``)."""
    no_motion_defects(aeb_run)


def test_reference_aeb_head_does_not_move_rearward_under_braking(aeb_run):
    """Braking pushes the occupant forward: its head must not move rearward in the car. Placed
    by its posture and not settled, the head moved 62 mm rearward (centre of mass) in the first
    130 ms of braking, 66 mm at most, as the dummy fell back into its seat (occupant.settle = 0);
    settled 0.3 s under gravity first, it moves back at most 5 mm (measured: 0.01 mm) over the
    first 0.2 s and is 31 mm forward at 0.2 s."""
    res, model = aeb_run.results, aeb_run.model
    head = _b0(res, model.body("head"))
    early = res.t <= 0.2
    back = head[early, 0].min() - head[0, 0]
    print(f"head rearward at most {-back * 1e3:.1f} mm, at 0.2 s {(head[early, 0][-1] - head[0, 0]) * 1e3:.1f} mm")
    assert back > -0.005
    assert head[early, 0][-1] > head[0, 0]


# The largest spring force of an undamped mass on a spring whose base takes a half-sine pulse,
# in units of the mass times the pulse's peak: 1.77, at a natural frequency of 0.8 / duration
# [D: the half-sine's shock response spectrum, integrated over frequency ratios 0.05-5]
HALF_SINE_AMPLIFICATION = 1.77


def test_reference_aeb_hands_held_by_the_rim_carry_only_the_arms(aeb_run, scenario):
    """The hands on the steering wheel's rim (dummies/body_contacts.toml) hold in the crash
    after braking: no hand centre more than SHELL_GRAZE past the rim's plane within its
    square (57 mm short of it at most; the rim lets go of them at 539 / 544 ms and they pass
    beside the wheel). The rim carries the arms, not the torso behind them: each hand's rim
    force stays below the arm (upper and lower arm with the hand, 4.32 kg) on the rim's
    spring under the crash's half-sine, HALF_SINE_AMPLIFICATION x m_arm x peak (1.83 kN at
    24.4 g), and its impulse in the crash below m_arm x the impact speed (52.6 N s), the most
    that stopping the arm takes. Measured: 0.58 / 1.11 kN (left / right, 536 / 540 ms; the
    arms' own mass times their deceleration along the rim's normal, 0.65 / 1.17 kN, then),
    10.7 / 17.6 N s (scenarios/HISTORY.md, sideknees)."""
    res, model, p = aeb_run.results, aeb_run.model, scenario.pulse
    peak = np.pi * p.impact_speed / (2.0 * p.crash_duration)      # delta-v = 2 A T / pi
    crash = res.t >= p.impact
    for side in ("left", "right"):
        hand = f"{side}_hand_shell"
        assert max(d for d, inside in _past_rim(aeb_run, hand) if inside) < SHELL_GRAZE, side
        arm = sum(model.body_mass[model.body(f"{side}_{s}")] for s in ("upper_arm", "lower_arm"))
        force = res.outputs[f"{hand}__steering_wheel_rim.normal_force"]
        assert 100.0 < force.max() < HALF_SINE_AMPLIFICATION * arm * peak, side
        assert np.trapezoid(force[crash], res.t[crash]) < arm * p.impact_speed, side


def test_reference_aeb_shoulder_belt_stays_out_of_the_neck(aeb_run):
    """The shoulder belt lies no more than NECK_GRAZE inside the neck shell over the braking and
    the crash, sampled every millisecond (its path rebuilt from its points, as the side barrier's
    and the belted frontal runs' are checked in test_scenario_fw_side_rear.py): a belt against
    the neck loads it, it does not pass through it. On its shortest path, without the neck
    barrier, the belt entered it 1.0-2.3 mm over the braking and 16.6 mm at 650 ms, in the
    rebound (main 1593cde; scenarios/HISTORY.md, beltneck)."""
    assert _deepest_in_the_neck(aeb_run) < NECK_GRAZE


@pytest.mark.parametrize("override, path, words", [
    ({"vehicle.model": "nope"}, "vehicle.model", "nope"),
    ({"precrash.manoeuvre": "slalom"}, "precrash.manoeuvre", "hard_brake"),
    ({"precrash.duration": 0.6}, "precrash.duration", "t_end"),
    ({"precrash.brake": 1}, "precrash", "brake"),
])
def test_regression_aeb_bad_input_names_the_key(override, path, words):
    """Bad [precrash] / [vehicle] values fail before the vehicle run, naming key and value."""
    from occupant.scenario.load import ScenarioError
    with pytest.raises(ScenarioError) as err:
        load("aeb_precrash_frontal", overrides=override)
    assert err.value.path.startswith(path) and words in str(err.value)
