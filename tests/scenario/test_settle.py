"""Settling the seated occupant under gravity before the run (occupant.scenario.settle)."""
import numpy as np
import pytest

from occupant.scenario import load
from occupant.scenario.load import ScenarioError
from occupant.scenario.settle import held, settle
from occupant.simulate import simulate


@pytest.fixture(scope="module")
def ncap():
    return load("us_ncap_frontal_56")


def _motion_at_rest(model, q, t):
    """Largest displacement (m) of any body's centre of mass over t seconds under gravity alone,
    restraints held, from q at rest (belts fitted at q), and the largest kinetic energy (J)."""
    res = simulate(model, t, q0=q, integrator="euler")
    assert res.status == "finished"
    moved = np.linalg.norm(res.body_com - res.body_com[0], axis=2).max()
    return moved, res.energy["kinetic"].max()


def test_reference_settled_occupant_stays_at_rest(ncap):
    """From its posture the US NCAP driver is far from equilibrium: under gravity alone (no
    pulse, airbag and pretensioner held) a body moves 58 mm within 0.1 s (measured: the head
    falls back onto the reclined torso as the neck springs unload, the pelvis sinks into the
    cushion) with 8.5 J of kinetic energy. After 0.3 s of settling it stays put: over the next
    0.1 s no body moves more than 5 mm (measured 3.1 mm) and the kinetic energy stays below 0.1 J
    (measured 0.05 J), against ~5 J per 10 mm of fall for the 78 kg dummy."""
    model = held(ncap.model)
    moved0, ke0 = _motion_at_rest(model, ncap.q0, 0.1)
    q, info = settle(ncap.model, ncap.q0, 0.3)
    moved, ke = _motion_at_rest(model, q, 0.1)
    print(f"unsettled: {moved0 * 1e3:.1f} mm, {ke0:.2f} J; settled ({info}): {moved * 1e3:.1f} mm, {ke:.3f} J")
    assert moved0 > 0.04 and ke0 > 5.0      # the test can fail: without settling it does
    assert moved < 0.005 and ke < 0.1
    assert info["restarts"] >= 1


@pytest.fixture(scope="module")
def unbelted():
    return load("fmvss208_sled_48_unbelted")


def _relaxed_chunk_by_chunk(model, q0, duration, dt):
    """The kinetic-damped motion as ``settle._relax`` drove it before branch settleloop: chunk
    by chunk from Python through ``fixed_step.run_euler``, every sample fully recorded (its
    explicit accelerations and outputs too). (configuration, times (s) of the samples it
    restarted from)."""
    import occupant.scenario.settle as S
    from occupant.integrate.events import never
    from occupant.integrate.fixed_step import FINISHED, run_euler
    from occupant.integrate.pipeline import make_recording
    from occupant.integrate.system import MultibodySystem
    from occupant.simulate import initial_states, model_gravity
    stride = max(1, int(round(S.SAMPLE / dt)))
    chunk = stride * max(1, int(round(S.CHUNK / (stride * dt))))
    n_steps = chunk * int(np.ceil(duration / (chunk * dt) - 1e-9))
    system = MultibodySystem(model, model_gravity(model), None, None, 0.0, n_steps * dt,
                             base_dt=min(dt, 1e-4))
    nq, nv = model.nq, model.nv
    y = system.initial_state(q0, np.zeros(nv), initial_states(model, q0))
    rec = make_recording(model, n_steps // stride + 1)
    y_last = np.zeros((2, len(y)))
    done, first, peaks = 0, 0, []
    while done < n_steps:
        _, code = run_euler(system.bundle, system.data, done, y, dt, chunk, stride, rec, False,
                            (never,), np.zeros(1), np.ones(1), y_last)
        assert code == FINISHED
        done += chunk
        peak = first + int(np.argmax(rec.kinetic[first:done // stride]))
        if peak < done // stride - 1:
            y = rec.y[peak].copy()
            y[nq:nq + nv] = 0.0
            first = done // stride
            peaks.append(peak)
        else:
            y = y_last[1].copy()
    return y[:nq], np.array(peaks, dtype=np.int64) * stride * dt


def test_regression_compiled_settling_restarts_at_the_samples_the_chunk_by_chunk_one_did():
    """The settling's chunks, peak checks and restarts run as one compiled call
    (``fixed_step.relax_euler``, branch settleloop), recording only the states and their kinetic
    energy: a double pendulum released at (1.0, -0.5) rad, settled 2 s, restarts from the same
    samples (six: 0.455, 0.639, 1.073, 1.239, 1.662, 1.819 s) as when driven chunk by chunk
    from Python through the run's loop with full records (above), and ends in the same
    configuration to the bit. Fails if the peak detection or the restart differs."""
    import occupant.scenario.settle as S
    from occupant import samples
    model, q0 = samples.pendulum(length=0.5, n_links=2), np.array([1.0, -0.5])
    before, before_peaks = _relaxed_chunk_by_chunk(model, q0, 2.0, S.SETTLE_DT)
    q, info = S._relax(model, q0, 2.0, S.SETTLE_DT)
    print(f"restarted from {before_peaks} s (before), {info['peaks']} s (compiled)")
    assert len(before_peaks) >= 5      # several restarts to compare (6)
    assert np.array_equal(info["peaks"], before_peaks) and info["restarts"] == len(before_peaks)
    assert q.tobytes() == before.tobytes()


def test_identity_coarse_settling_step_rests_where_the_run_step_does(unbelted):
    """Settled at the largest stable step (SETTLE_DT, 5x the run's 1e-5 s) the unbelted sled's
    passenger (no belt: a belted model settles at the belts' step, below) rests where the run's
    step puts it: the H-point within 0.2 mm and every other coordinate within 0.01 (rad, or
    quaternion part) (measured 0.16 mm and 0.0026). The US NCAP driver, belted, measured
    0.05 mm and 0.0034 when it still settled at SETTLE_DT."""
    import occupant.scenario.settle as S
    fine, _ = S._relax(held(unbelted.model), unbelted.q0, 0.3, 1e-5)
    q, info = settle(unbelted.model, unbelted.q0, 0.3)
    print(f"H-point {np.abs(q[:3] - fine[:3]).max() * 1e3:.3f} mm, rest {np.abs(q[3:] - fine[3:]).max():.4f}")
    assert info["dt"] == S.SETTLE_DT > 1e-5
    assert np.abs(q[:3] - fine[:3]).max() < 2e-4 and np.abs(q[3:] - fine[3:]).max() < 0.01


def test_regression_settling_diverged_at_the_coarse_step_is_done_at_the_run_step(unbelted,
                                                                                 monkeypatch):
    """A settling that diverges at the coarse step is not an error: it is done again at the
    run's step (here the coarse one made to diverge)."""
    import occupant.scenario.settle as S
    relax, steps = S._relax, []

    def diverging(model, q0, duration, dt, settled=None):
        steps.append(dt)
        if dt == S.SETTLE_DT:
            raise S.SettleError("diverged")
        return relax(model, q0, duration, dt, settled)
    monkeypatch.setattr(S, "_relax", diverging)
    q, info = settle(unbelted.model, unbelted.q0, 0.01)
    assert steps == [S.SETTLE_DT, 1e-5] and info["dt"] == 1e-5 and np.all(np.isfinite(q))


def test_identity_belted_settling_step_rests_where_the_run_step_does(ncap):
    """Settled with its belts on (``belts=True``, occupant.settle_belted), a model settles at the
    belts' explicit step (restraints.belt.EXPLICIT_STEP, 2e-5 s:
    h / tau = 1 for the webbing's flow, sharing and largest strain, at rest in one step), twice
    the run's 1e-5 s, and rests where the run's step puts it: the US NCAP driver's H-point within
    0.05 mm and every other coordinate within 0.002 (rad, or quaternion part) (measured 0.003 mm
    and 0.00012; euro_ncap_full_width_50, side_barrier and aeb_precrash_frontal 0.001-0.011 mm,
    the belted sled, not yet at rest, 0.21 mm and 0.0021). Fails where the belts settle at the
    run's step (h / tau = 0.5, branch gs1settle to beltstep): twice the steps."""
    import occupant.scenario.settle as S
    from occupant.restraints.belt import EXPLICIT_STEP
    fine, _ = S._relax(held(ncap.model), ncap.q0, 0.3, 1e-5)
    q, info = settle(ncap.model, ncap.q0, 0.3, belts=True)
    print(f"H-point {np.abs(q[:3] - fine[:3]).max() * 1e3:.4f} mm, rest {np.abs(q[3:] - fine[3:]).max():.5f}")
    assert info["dt"] == EXPLICIT_STEP > 1e-5
    assert np.abs(q[:3] - fine[:3]).max() < 5e-5 and np.abs(q[3:] - fine[3:]).max() < 0.002


def _largest_change(model, q_a, q_b):
    """(m, rad): the largest translation (the free joint's position: the H-point; a prismatic
    joint's travel) and the largest joint rotation (a revolute joint's angle; a spherical or free
    joint's rotation) from q_a to q_b."""
    from occupant.model.joint_motion import quaternion_index
    from occupant.model.joint_types import JointType
    tree, move, turn = model.tree, 0.0, 0.0
    for i, kind in enumerate(tree.jtype):
        k, kq = tree.qidx[i], quaternion_index(tree, i)
        if kind == JointType.REVOLUTE:
            turn = max(turn, abs(q_b[k] - q_a[k]))
        elif kind == JointType.PRISMATIC:
            move = max(move, abs(q_b[k] - q_a[k]))
        elif kind == JointType.FREE:
            move = max(move, np.linalg.norm(q_b[k:k + 3] - q_a[k:k + 3]))
        if kq >= 0:
            cos = min(1.0, abs(np.dot(q_a[kq:kq + 4], q_b[kq:kq + 4])))
            turn = max(turn, 2.0 * np.arccos(cos))
    return move, turn


def test_identity_settling_buckled_at_its_end_rests_where_belted_throughout_does(ncap):
    """By default the occupant settles with its belts off, buckled on it for the last BUCKLED s:
    the US NCAP driver then rests within 0.5 mm (H-point) and 0.5 deg (any joint) of where 0.3 s
    with its belts on throughout (their 10 N pre-load; ``belts=True``) put it (measured 0.205 mm,
    0.210 deg; the belted settling's own last 50 ms moved it 0.237 mm, 0.204 deg, and it creeps
    0.78 mm, 2.5 deg from 0.3 to 0.6 s: scenarios/HISTORY.md, settlefast)."""
    q, info = settle(ncap.model, ncap.q0, 0.3)
    belted, _ = settle(ncap.model, ncap.q0, 0.3, belts=True)
    move, turn = _largest_change(ncap.model, belted, q)
    print(f"buckled at the end -> belted throughout: {move * 1e3:.3f} mm, {np.degrees(turn):.3f} deg")
    assert move < 5e-4 and turn < np.radians(0.5)


def test_regression_settling_is_unbelted_at_the_coarse_step_then_buckled(ncap, monkeypatch):
    """The default settling of a belted model: duration - BUCKLED s without its belts at the
    coarse SETTLE_DT (2.5 times the belts' step), then BUCKLED s with them at their
    EXPLICIT_STEP; a divergence in the second part counts its time from the settling's start.
    Before branch settlefast: one part, the belts on, at EXPLICIT_STEP."""
    import occupant.scenario.settle as S
    from occupant.restraints.belt import EXPLICIT_STEP
    relax, parts = S._relax, []

    def recording(model, q0, duration, dt, settled=None):
        parts.append((round(duration, 9), dt, len(model.belts.retractor)))
        return relax(model, q0, 0.002, dt, settled)     # short: only the parts matter here
    monkeypatch.setattr(S, "_relax", recording)
    settle(ncap.model, ncap.q0, 0.3)
    assert parts == [(round(0.3 - S.BUCKLED, 9), S.SETTLE_DT, 0),
                     (round(S.BUCKLED, 9), EXPLICIT_STEP, len(ncap.model.belts.retractor))]

    def diverging_belted(model, q0, duration, dt, settled=None):
        if len(model.belts.retractor):
            raise S.SettleError("diverged", after=0.012)
        return q0, {"restarts": 0, "peaks": np.zeros(0), "z": None}
    monkeypatch.setattr(S, "_relax", diverging_belted)
    with pytest.raises(S.SettleError) as err:
        settle(ncap.model, ncap.q0, 0.3)
    assert err.value.after == pytest.approx(0.3 - S.BUCKLED + 0.012)
    assert "diverged after 0.212 s" in str(err.value)


@pytest.mark.parametrize("belted", [False, True])
def test_regression_settle_belted_key_puts_the_belts_on_while_settling(belted, monkeypatch):
    """occupant.settle_belted (default false) is what the run's settling gets as ``belts``."""
    import occupant.scenario.settle as S
    calls = []

    def recording(model, q0, duration, belts=False):
        calls.append((duration, belts))
        return q0.copy(), {"z": None}
    monkeypatch.setattr(S, "settle", recording)
    over = {"solver.t_end": 0.001}
    if belted:
        over["occupant.settle_belted"] = True
    load("us_ncap_frontal_56", over).run()
    assert calls == [(0.3, belted)]


# the most a belt segment's tension may change from one settling step to the next while the
# occupant settles from rest [E]: a tenth of the GS1 lap belt's 100 N pre-load
BELT_STEP_CHANGE = 10.0   # N


def test_regression_settling_step_keeps_the_belts_flow_from_flipping():
    """Settled with its belts on, a model settles at the belts' explicit step
    (restraints.belt.EXPLICIT_STEP): at the step the settling takes, from GS1's posture at rest under gravity (belts held as the
    settling holds them), no belt segment's tension changes by more than BELT_STEP_CHANGE from one
    step to the next (measured over the first 10 ms: 4.2 N at EXPLICIT_STEP, 2e-5 s, the
    shoulder-chest segment's first step; 1.4 N at 1e-5 s, the step before branch beltstep; 79 N
    at 2.5e-5 s, 281 N at 5e-5 s). At SETTLE_DT (5e-5 s, h / FLOW_TIME = 2.5) the
    webbing's flow flipped every step: the lap belt's middle segments between 0 and 0.4 kN,
    GS1's shoulder-chest segment between 0 and 37-130 N (scenarios/validation/README.md,
    gs1settle); a record sampled every second step showed a steady pull."""
    import pathlib

    from occupant.human.validation import read_scenario
    from occupant.restraints.belt import EXPLICIT_STEP
    sc, path = read_scenario("human_sled_gs1_40")
    over = {"occupant.human." + k: v for k, v in sc["human"].items()}
    scenario = load(pathlib.Path(path).parent / sc["sled"], {**over, "solver.t_end": 0.001})
    _, info = settle(scenario.model, scenario.q0, 0.001, belts=True)
    assert info["dt"] <= EXPLICIT_STEP
    res = simulate(held(scenario.model), 0.01, dt=info["dt"], q0=scenario.q0, integrator="euler",
                   output_dt=info["dt"], energy=False)
    assert res.status == "finished"
    forces = np.array([v for k, v in res.outputs.items() if "belt." in k and k.endswith(".force")])
    change = np.abs(np.diff(forces, axis=1)).max()
    print(f"largest step-to-step change {change:.2f} N at dt {info['dt']:g} s")
    assert change < BELT_STEP_CHANGE


def test_identity_held_model_keeps_frozen_arrays_and_never_fires(ncap):
    """``held`` changes only the firing times (to inf), and its arrays stay read-only like the
    model's (else the compiled step would be compiled again for writable array types)."""
    model = ncap.model
    h = held(model)
    assert np.all(np.isinf(h.airbags.firing_time)) and np.all(np.isinf(h.belts.fire_time))
    assert np.all(np.isfinite(model.airbags.firing_time)) and np.isfinite(model.belts.fire_time).any()
    assert not h.airbags.firing_time.flags.writeable and not h.belts.fire_time.flags.writeable
    for name in model.belts._fields:
        if name != "fire_time":
            assert getattr(h.belts, name) is getattr(model.belts, name)


def test_identity_held_human_muscles_never_reflex():
    """The human's neck reflex answers the pulse (pulse_start + its delay) and its posture
    controller lets go at the pulse (pulse_start): ``held`` starts the one and ends the other
    never, as it fires no airbag, so that the settling's muscles stay at their tone and the
    controller holds the head all through it (neckpid; posturedefault); the reflex fired 60 ms
    into the settling, which has no pulse, before. The model's own times stay as they were."""
    model = load("us_ncap_frontal_56", ["occupant.human.sex=male"]).model
    h = held(model)
    for name in ("reflex_time", "control_end"):
        assert np.all(np.isinf(getattr(h.muscles, name)))
        assert not getattr(h.muscles, name).flags.writeable
        assert np.all(np.isfinite(getattr(model.muscles, name)))
    for name in model.muscles._fields:
        if name not in ("reflex_time", "control_end"):
            assert getattr(h.muscles, name) is getattr(model.muscles, name)


def test_regression_run_starts_from_the_settled_posture(ncap):
    """With occupant.settle the run starts from the settled configuration (the pelvis lower in
    the cushion than placed) and records it as its initial state."""
    sc = load("us_ncap_frontal_56", {"occupant.settle": 0.1, "solver.t_end": 0.002})
    run = sc.run()
    assert run.results.status == "finished"
    np.testing.assert_allclose(run.initial_state, run.results.q[0], atol=1e-12)
    print(f"H-point sank {(sc.q0[2] - run.initial_state[2]) * 1e3:.1f} mm")
    assert run.initial_state[2] < sc.q0[2] - 0.01     # the H-point sank > 10 mm (measured 19 mm)


@pytest.mark.parametrize("scenario, value, words", [
    ("us_ncap_frontal_56", -0.1, "0 <= settle <= 2 s"),
    ("us_ncap_frontal_56", 5.0, "0 <= settle <= 2 s"),
    ("pedestrian_40", "long", "a number"),   # a file without the key: the loader's own check
    ("pedestrian_40", 0.2, "no seat"),
])
def test_regression_settle_bad_input_names_the_key(scenario, value, words):
    """A bad occupant.settle fails at load, naming the key, the value and what is accepted."""
    with pytest.raises(ScenarioError) as err:
        load(scenario, overrides={"occupant.settle": value})
    assert err.value.path == "occupant.settle" and words in str(err.value)


def test_regression_settle_of_wrong_type_over_a_shipped_value_names_the_key():
    """Over a file that sets settle (us_ncap_frontal_56: 0.3) a value of another type is
    refused before the scenario loads, naming the override, the key and what is accepted (by
    the --set's check against the key registry since branch keyslate, a ScenarioError; by the
    override's type check before, an OverrideError)."""
    with pytest.raises(ScenarioError) as err:
        load("us_ncap_frontal_56", overrides={"occupant.settle": "long"})
    assert str(err.value).endswith("us_ncap_frontal_56.toml (--set occupant.settle): occupant.settle: expected a "
                                   "finite number, got 'long' (accepted: a number, 0 <= settle <= 2 s)")


PELVIS_ON_THE_CUSHION = ("pelvis_flesh", "left_buttock", "right_buttock")
SETTLED = ("us_ncap_frontal_56", "euro_ncap_full_width_50", "fmvss208_sled_48_belted",
           "fmvss208_sled_48_unbelted", "side_barrier")


@pytest.mark.parametrize("name", SETTLED)
def test_reference_seated_scenarios_start_settled(name):
    """The shipped seated scenarios settle 0.3 s before the pulse (rear_whiplash does not: its
    backset is set on the placed head). Placed by the posture the pelvis only touches the
    cushion (0 mm); settled it starts 8-30 mm in it (measured 18.5-19.8 mm for the 50M, 12.5 mm
    for the lighter 5F, whose buttocks bear on it since branch dummyfit: 11.5 on her pelvis flesh
    before), no contact runs past its table, and the belt is fitted there at its
    10 N pre-load on every segment (no slack, no pull)."""
    sc = load(name, {"solver.t_end": 0.002})
    assert sc.settle == 0.3
    run = sc.run()
    out, model = run.results.outputs, run.model
    assert run.results.status == "finished"
    # the pelvis's surfaces on the cushion: its flesh, or the 5F's buttocks (branch dummyfit)
    sunk = max(out[f"{p.name}.penetration"][0] for p in model.source.contact_pairs.values()
               if p.geometry_b == "seat_cushion" and p.geometry_a in PELVIS_ON_THE_CUSHION)
    print(f"{name}: pelvis {sunk * 1e3:.1f} mm into the cushion at t = 0")
    assert 0.008 < sunk < 0.030
    for pair_name, pair in model.source.contact_pairs.items():
        table = pair.characteristic.table
        if table is not None:
            assert out[f"{pair_name}.penetration"][0] < table[-1, 0], pair_name
    forces = [out[k][0] for k in out if k.startswith("belt.") and k.endswith(".force")]
    if forces:
        np.testing.assert_allclose(forces, 10.0, atol=0.5)


H_POINT_TOLERANCE = 0.013   # m, vertically and fore-aft: a test seats the dummy's H-point this
# close to (6 mm below) the H-point the SAE J826 machine finds in that seat [S: the European
# frontal-impact directive's dummy installation text, read as a bilingual FR/NL copy; FMVSS 208
# S10.4.2.1 is commonly quoted with the same 13 mm, not read: U]
SUNK = ("the 50M's settled H-point sinks 20.1 mm (US NCAP driver; 21.2 before the seat back's trim "
        "friction 0.3, frontback; the sled passenger 12.7 since, inside the tolerance, 13.4 since "
        "its cushion carries the thighs, sledcushion, 18.8-19.2 before) "
        "into the cushion, placed tangent to its flesh (scenarios/HISTORY.md, hpoint, hpoint2): a "
        "cushion whose free surface stands above the placed pelvis by the foam's seated compression "
        "meets the tolerance (branch hpoint2: -6.8 mm US NCAP, -9.3 the sled, heels on the floor, "
        "belt off the neck) but US NCAP HIC15 443 -> 568 (test 328: the head, 16 mm higher and 8 mm "
        "further back, meets the bag later and harder) and 12 checks fitted on the sunk seating fail")


@pytest.mark.parametrize("name", [
    pytest.param("us_ncap_frontal_56", marks=pytest.mark.xfail(strict=True, reason=SUNK)),
    "euro_ncap_full_width_50",
    "fmvss208_sled_48_belted"])
def test_reference_settled_h_point_meets_the_posture_target(name):
    """Settled (occupant.settle 0.3 s), the occupant's H-point (the pelvis frame's origin) stays
    within the dummy positioning tolerance (13 mm vertically and fore-aft) of where the posture
    placed it (the scenario's H-point, or its seat track's). Measured on main 18fa545: the 50M
    driver -21.2 mm up, +0.5 fore-aft (AEB and side: the same seat and figures); the 5F -11.5,
    -1.1; the sled passenger -18.8 to -19.1, +3.6 to +3.7 over two runs (unbelted -18.9 to
    -19.2; rear_whiplash's seat -18.5, +3.7); with the sled's cushion under the thighs (branch
    sledcushion) -13.4, +1.9. Re-measured on main 82dace1 (branch hpoint2): the 50M driver and
    the sled the same, the 5F -11.3, -1.0. With the seat backs' trim friction 0.3 (branch
    frontback; main ea890f2 -> the branch), the trunk held from sliding down the back as it
    settles: the 50M driver -21.2 -> -20.1, +0.5 -> +0.3; the 5F -11.3 -> -10.6, -1.1; the sled
    passenger -13.45 -> -12.70, +1.9 -> +1.8 (unbelted -13.5 -> -12.8): inside the tolerance, by
    0.3 mm."""
    from occupant.human.posture import point_position
    sc = load(name)
    q, _ = settle(sc.model, sc.q0, sc.settle)
    miss = (point_position(sc.model, q, "pelvis", np.zeros(3))
            - point_position(sc.model, sc.q0, "pelvis", np.zeros(3)))
    print(f"{name}: settled H-point {miss[0] * 1e3:+.1f} mm fore-aft, {miss[2] * 1e3:+.1f} mm up")
    assert abs(miss[0]) < H_POINT_TOLERANCE and abs(miss[2]) < H_POINT_TOLERANCE


def test_regression_settling_with_the_neck_barrier_does_not_diverge():
    """With the belt's barrier on the neck (``neck_barrier``), off the neck its two segments
    stay merged and share their webbing at restraints.belt.BARRIER_SHARE_TIME: settling with the
    belts on, at their step (EXPLICIT_STEP), does not diverge (at SHARE_TIME and the coarse 5e-5 s it did at
    5.4 ms; scenarios/README.md, neckbarrier2)."""
    from occupant.restraints.belt import EXPLICIT_STEP
    sc = load("us_ncap_frontal_56", overrides={"restraints.belt.neck_barrier": True})
    q, info = settle(sc.model, sc.q0, 0.05, belts=True)
    assert info["dt"] == EXPLICIT_STEP and np.all(np.isfinite(q))


def test_regression_settle_divergence_is_one_line_naming_file_key_and_what_to_try(monkeypatch, capsys):
    """A settling that diverges (made to here: the step itself is not needed) ends ``occupant
    run`` with exit code 2 and one line naming the scenario file, occupant.settle and what is
    accepted, no traceback. Before: "occupant.settle: settling under gravity diverged ..."
    without the file, its advice not in the accepted part."""
    import occupant.scenario.settle as S
    from occupant.cli import main

    def diverging(model, q0, duration, belts=False):
        raise S.SettleError("settling under gravity diverged after 0.012 s (a posture deep "
                            "inside the seat or interior?)", after=0.012)
    monkeypatch.setattr(S, "settle", diverging)
    code = main(["run", "us_ncap_frontal_56", "--quiet", "--set", "solver.t_end=0.002"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert err.strip().endswith(
        "us_ncap_frontal_56.toml: occupant.settle: settling under gravity diverged after 0.012 s "
        "(a posture deep inside the seat or interior?) (accepted: settle < 0.012 s, or 0 to run "
        "from the posture as placed)"), err
    assert err.startswith("occupant: error: ")


def test_regression_belted_sled_hic_does_not_jump_with_the_settling_length():
    """fmvss208_sled_48_belted settled 0.28 and 0.29 s (0.13 mm and 0.08 deg apart) reads one
    HIC15: 180.67 and 180.70 (0.30-0.32 s: 180.64-180.67). Its lap belt's outboard hip wrap
    slips at its capstan ratio from 54 ms, the tensions within 1e-4 of it at 57.3 ms; the
    webbing's flow, implicit in the 0.10 m lap segment's webbing, was decided slipping or stuck
    by the excess tension now, and its implicit part (0.4 of the 0.47 m/s) came and went with
    it: settled 0.29 s the wrap stopped there, the lap segment's webbing rate stepping 0.6 m/s
    in one step, settled 0.28 s it slipped on, and HIC15 read 180.3 or 200.7 (head 3 ms 45.7 or
    47.3 g; scenarios/HISTORY.md, bistable; restraints.belt_flow.flow_solve)."""
    hic = []
    for duration in (0.28, 0.29):
        run = load("fmvss208_sled_48_belted", {"occupant.settle": duration}).run()
        assert run.results.status == "finished"
        hic.append(next(r["value"] for r in run.criteria if r["criterion"] == "HIC15"))
    print(f"HIC15 {hic[0]:.2f} / {hic[1]:.2f}")
    assert abs(hic[0] - hic[1]) < 0.01 * hic[1]
