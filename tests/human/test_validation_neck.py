"""The human's head-neck against NBDL frontal volunteer sled series (issue 14 section 4), the head
and neck on T1 driven by the volunteers' mean measured T1 motion:
- 12 g series (10 runs): CALIBRATION of the neck's flexion/extension damping (joint_passive.toml);
- 15 g series (7 runs): the INDEPENDENT CHECK, not fitted; its figures are held as they came out
  (since the neck's progressive stops and the 12 g re-calibration, all inside the volunteers'
  range);
- 8 g series (10 runs): an INDEPENDENT CHECK at a lower level than calibrated, not fitted, held
  as it came out (the peak's time and the flexion at 298 ms out: xfail).
And in extension, the Stemper et al. (2004) PMHS head-neck rear impacts at 2.6 and 1.8 m/s (all
inside since a neck without muscles takes the passive tissue's damping), and in lateral bending,
the Kang et al. (2018) PMHS head-neck side mini-sled, and in combined flexion, lateral bending and
axial turn, its oblique mini-sled: INDEPENDENT CHECKS, held as they came out (figures out:
xfail)."""
import pathlib

import numpy as np
import pytest

from occupant.human.neck_muscles import neck_muscle_table
from occupant.forces.muscles import force_velocity
from occupant.human.neck_share import impulse_to_peak, muscle_groups, sagittal_share
from occupant.human.passive_joints import ligament_absorption
from occupant.human.validation import (head_neck_on_t1, head_rotation_deg, read_series,
                                       read_scenario, run_validation, sled_figures,
                                       sled_responses, t1_motion, volunteer_corridor)
from occupant.io.toml_files import InputFileError
from occupant.spatial import rot_x, rot_y, rot_z


def figures_out(out):
    """{figure: value} of a validation run's figures outside their corridor."""
    return {k: v for k, (v, ok) in out["checks"].items() if not ok}


def test_analytic_t1_motion_derivatives():
    """Constant 10 g along -x and a T1 rotation of 0.3 t^2 rad: position -g t^2 / 2 x 10,
    angular velocity 0.6 t, angular acceleration 0.6."""
    t = np.linspace(0.0, 0.2, 201)
    m = t1_motion(t, np.full_like(t, -10.0), np.zeros_like(t), 0.3 * t ** 2)
    s = 0.13
    np.testing.assert_allclose(m.position(s), [-0.5 * 98.0665 * s ** 2, 0, 0], rtol=1e-4)
    np.testing.assert_allclose(m.angular_velocity(s), [0, 0.6 * s, 0], rtol=1e-9)
    np.testing.assert_allclose(m.angular_acceleration(s), [0, 0.6, 0], rtol=1e-9)
    R = m.rotation(s)
    assert np.arctan2(R[0, 2], R[2, 2]) == pytest.approx(0.3 * s ** 2, rel=1e-9)


def test_reference_volunteer_corridor_is_the_range_of_the_runs():
    sc, path = read_scenario("human_neck_nbdl_12g_frontal")
    t, t1, runs = read_series(sc, pathlib.Path(path).parent)
    assert runs.shape[0] == 10
    corridor = volunteer_corridor(t, runs, sc["t_end"])
    peaks = [sled_figures(t, r)["peak_flexion_deg"] for r in runs]
    assert corridor["peak_flexion_deg"] == (min(peaks), max(peaks))
    assert 70.0 < min(peaks) < max(peaks) < 100.0          # the series' head flexion peaks


@pytest.fixture(scope="module")
def nbdl12():
    return run_validation("human_neck_nbdl_12g_frontal")


@pytest.fixture(scope="module")
def nbdl15():
    return run_validation("human_neck_nbdl_15g_frontal_check")


def test_reference_nbdl_12g_inside_the_volunteers_range(nbdl12):
    """Calibration: peak head flexion, its time and the flexion at 298 ms inside the range of
    the 10 volunteers (71.6-98.2 deg, 176-188 ms, 14.2-46.6 deg)."""
    bad = figures_out(nbdl12)
    assert not bad, bad
    # since the neck's hysteresis (passive_joints.ligament_absorption): the flexion at 298 ms
    # 17.0 -> 24.3 deg (the head returns more slowly), peak unchanged; not re-calibrated; with
    # the scalenes (neck_muscles.toml, lateral strength) 74.2 -> 74.3 and 24.3 -> 24.6 deg; since
    # flexion and extension split between the joints as the in vitro spine bends (joint_rom.toml:
    # flexion 12 deg at C7/T1, 33 at the condyles, was 22.5 / 22.5; not re-calibrated) 74.3 ->
    # 73.8 deg, 178 -> 176 ms (the volunteers' earliest), 24.6 -> 24.2 deg; with Vasavada et al.'s
    # neck muscle geometry and shares (neck_muscles.toml) and the upper neck's damping re-fitted
    # 1.0 -> 1.5 N m s/rad (at 1.0: 75.7 deg at 174 ms, out) 73.8 -> 73.5 deg, 176 ms, 24.2 -> 20.3;
    # with the hyoid chain (the capitis extensors' tone) and the upper damping re-fitted 1.5 ->
    # 1.25 (at 1.5: 70.7 deg, out; at 1.0: 174 ms, out) 73.5 -> 73.0 deg, 176 ms, 20.3 deg; with
    # the neck's extensors (capitis extensors from the neck, the cervicis extensors' added parts)
    # 73.0 -> 71.1 deg (out) at 1.25 / 9.5, re-fitted upper 1.25 -> 1.1 (72.5 deg, 174 ms, out),
    # then lower 9.5 -> 11 (at 12: 71.3 deg, out): 71.8 deg, 176 ms, 15.9 deg; with the
    # trapezius in the lateral group (not re-fitted): 71.9 deg, 176 ms, 15.6 deg; with the neck's
    # base at C7/T1 (builder.c7t1_from_cervicale: the neck link 32 mm longer, the muscles' points
    # scaled to it, neck_muscles.toml) 74.5 deg at 174 ms (out), lower damping re-fitted 11 ->
    # 11.5 (12 and 12.5 fit too): 74.4 deg, 176 ms, 14.8 deg; with the head's com placed for the
    # neck's com on that link (builder.build_segments) 77.0 deg at 172 ms, 14.2 deg (both out),
    # lower damping re-fitted 11.5 -> 14.5 (12-14: 174 ms): 75.6 deg, 176 ms, 15.2 deg; with the
    # condyles 31.0 mm below the tragion and the head's com 26.4 mm ahead of them (branch
    # chancey; at 1.1: 75.1 deg at 168 ms, out) the upper damping re-fitted 1.1 -> 2.0 (1.6:
    # 174 ms, out): 72.7 deg, 176 ms, 22.2 deg
    expected = {"peak_flexion_deg": 72.7, "peak_flexion_time_ms": 176.0, "final_flexion_deg": 22.2}
    for k, v in expected.items():
        assert nbdl12["checks"][k][0] == pytest.approx(v, abs=1.0), k


def test_reference_nbdl_12g_posture_neck_answers_the_pulse_as_the_reflex(nbdl12):
    """The human's default neck, "posture", on the calibration case (run with "reflex"): its
    controller holds the head until the pulse starts (the 1 g crossing, 52 ms; before it the
    T1's small motion moves the controller's muscles a little), then lets go, and the reflex
    answers the pulse as the "reflex" neck's does (the tone until 112 ms, then the reflex's
    step): the three figures inside, 72.3 deg at 178 ms and 22.3 deg (the reflex neck's 72.7 at
    176, 22.2), so the one damping fitted here serves both. Since the condyles stand below the
    tragion with the head's com 26.4 mm ahead of them (branch chancey) the reflex neck's head,
    its tone alone holding it, nods under its weight before the pulse (1.09 deg at 52 ms, the
    posture neck's 0.46, held by its controller) and leads the posture neck's by up to 3.65 deg
    at 120 ms; the two meet at the peak and stay within 1 deg from it on (0.79 measured). Before
    (the com straight above the condyles) the figures were within 0.1 deg / 0 ms and the
    flexion within 1 deg at every sample (0.84).
    While the controller acted until the reflex the head peaked at 39.6 deg at 184 ms and
    ended at 9.4 (out): its extensors driven to 0.5 activation by 110 ms; no re-fit of the
    damping brought that back inside with gains that hold the seated head (best peak 48.1 deg;
    scenarios/validation/HISTORY.md, posturedefault)."""
    from occupant.human.validation import VALIDATIONS
    sc, path = read_scenario("human_neck_nbdl_12g_frontal")
    assert sc["human"]["neck_activation"] == "reflex"
    sc["human"]["neck_activation"] = "posture"
    posture = VALIDATIONS[sc["test"]].run(sc, path, None)
    assert "head_posture.control.command" in posture["results"].outputs
    assert not figures_out(posture)
    expected = {"peak_flexion_deg": 72.3, "peak_flexion_time_ms": 178.0, "final_flexion_deg": 22.3}
    for k, v in expected.items():
        assert posture["checks"][k][0] == pytest.approx(v, abs=1.0), k
    t = np.asarray(nbdl12["t"])
    held, free = posture["history"]["head_flexion_deg"], nbdl12["history"]["head_flexion_deg"]
    k = int(np.argmin(np.abs(t - 0.052)))
    assert held[k] < 0.5 * free[k]                       # before the pulse: the controller holds
    lead = held - free
    assert lead.min() == pytest.approx(-3.65, abs=0.5) and t[np.argmin(lead)] < 0.176
    assert np.abs(lead[t >= 0.176]).max() < 1.0


def test_regression_nbdl_15g_independent_check(nbdl15):
    """Independent check, as it came out after the 12 g re-calibration with the neck's
    progressive stops (passive_joints.ligament_branch): every figure inside the 7 volunteers'
    range, the peak 87.4 deg (77.9-93.5) at 168 ms (156-170) and 14.7 deg at 298 ms (2.7-32.3;
    14.4 before the scalenes, 5.5 deg with the elastic branch, before its hysteresis); before,
    with the quadratic branch and the bottoming stop, 93.6 deg at 174 ms (both out). Since the
    sagittal split of the neck's range (joint_rom.toml; run once, not fitted): 87.1 deg at 168 ms,
    14.3 deg at 298 ms. Since Vasavada et al.'s neck muscles and the 12 g re-fit (run once, not
    fitted): 85.9 deg at 170 ms (the volunteers' latest), 10.5 deg at 298 ms. Since the hyoid
    chain and the 12 g re-fit of the upper damping (run once, not fitted): 85.7 deg at 168 ms,
    13.7 deg at 298 ms. Since the neck's extensors and the 12 g re-fit of both dampings (run once,
    not fitted): 84.9 deg at 168 ms, 9.5 deg at 298 ms. Since the trapezius (lateral group; 12 g
    not re-fitted): 84.9 deg at 168 ms, 9.1 deg at 298 ms. Since the neck's base at C7/T1 and the
    12 g re-fit of the lower damping (run once, not fitted): 87.3 deg at 168 ms, 7.5 deg. Since
    the head's com on the C7/T1 link and the 12 g re-fit (not fitted): 88.4 deg at 168 ms, 7.6.
    Since the condyles below the tragion, the head's com 26.4 mm ahead of them and the 12 g
    re-fit of the upper damping 1.1 -> 2.0 (branch chancey; run once, not fitted): 84.5 deg at
    172 ms, 2 ms after the volunteers' latest (out), 14.9 deg at 298 ms."""
    c = nbdl15["checks"]
    assert {k for k, (_, ok) in c.items() if not ok} == {"peak_flexion_time_ms"}, c
    assert c["final_flexion_deg"][0] == pytest.approx(14.9, abs=1.0)
    assert c["peak_flexion_deg"][0] == pytest.approx(84.5, abs=1.0)
    assert c["peak_flexion_time_ms"][0] == pytest.approx(172.0, abs=2.0)
    lo, hi = nbdl15["corridor"]["peak_flexion_deg"]
    assert (lo, hi) == pytest.approx((77.91, 93.52), abs=0.01)


NBDL_8G_CASE = "human_neck_nbdl_8g_frontal_check"
NBDL_8G_OUT = (
    "finding of the independent check at a lower level than the 12 g calibration (run once, as it "
    "came out): the head peaks early, 62.5 deg at 194 ms (the 10 volunteers 58.3-86.1 deg at "
    "202-224 ms), and returns to 31.6 deg at 298 ms (29.8-61.3, inside; 26.1, out, before the "
    "condyles stood below the tragion with the head's com ahead of them, branch chancey, "
    "when it fell 36.3 deg from its peak): it starts 6 ms before "
    "the earliest volunteer (the known early onset), peaks near the low end of their range "
    "and falls 30.9 deg from its peak by 298 ms where they fall 19.3-34.5 "
    "(test_regression_nbdl_8g_return); neither the reflex nor its clock sets it (relaxed, "
    "braced, onset_g 0.5 or 2 g: 194-198 ms, 22.0-26.2 deg; scenarios/validation/HISTORY.md "
    "Stop 46, nbdl8g); the neck's elastic return does, chiefly at the condyles, the capitis "
    "extensors' passive tension and the joint's spring (test_regression_nbdl_8g_return_mechanism): "
    "no sourced dissipation found to change it (neckreturn)")


def test_reference_nbdl_8g_series_as_converted():
    """The 8 g data as converted from ARCGen (header): 10 runs, the volunteers' peak head flexion
    58.3-86.1 deg, and the mean T1 rotation read as rad (peak 0.195 rad = 11 deg; in degrees
    T1 would turn 0.2 deg while the head turns 58 deg or more)."""
    sc, path = read_scenario(NBDL_8G_CASE)
    t, t1, runs = read_series(sc, pathlib.Path(path).parent)
    assert runs.shape[0] == 10
    corridor = volunteer_corridor(t, runs, sc["t_end"])
    assert corridor["peak_flexion_deg"] == pytest.approx((58.30, 86.14), abs=0.01)
    assert t1["rot_y_rad"].max() == pytest.approx(0.195, abs=0.001)
    assert t1["ax_g"].min() == pytest.approx(-16.69, abs=0.01)     # the 12 g series' -21.95


def test_regression_nbdl_8g_independent_check(validated):
    """Independent check at 8 g, run once after the 12 g calibration (nothing fitted, nothing
    changed after it): peak 62.4 deg (58.3-86.1) inside, at 196 ms (202-224) and 26.1 deg at
    298 ms (29.8-61.3) out (NBDL_8G_OUT). Since the condyles below the tragion, the head's com
    26.4 mm ahead of them and the 12 g re-fit of the upper damping 1.1 -> 2.0 (branch chancey;
    run once, not fitted): 62.5 deg inside at 194 ms out, 31.6 deg at 298 ms inside."""
    out = validated(NBDL_8G_CASE)
    c = out["checks"]
    assert c["peak_flexion_deg"] == (pytest.approx(62.5, abs=1.0), True)
    assert c["peak_flexion_time_ms"] == (pytest.approx(194.0, abs=2.0), False)
    assert c["final_flexion_deg"] == (pytest.approx(31.6, abs=1.0), True)
    assert out["corridor"]["peak_flexion_time_ms"] == (202.0, 224.0)
    assert out["corridor"]["final_flexion_deg"] == pytest.approx((29.825, 61.285), abs=0.01)


def test_regression_nbdl_8g_return(validated):
    """The 8 g head's return: it falls 30.9 deg from its peak by 298 ms, inside the 10
    volunteers' falls (19.3-34.5 deg), and peaks 8 ms before the earliest of them; its peak,
    62.5 deg, lies below their mean (68.5). Before the condyles stood below the tragion with the
    head's com ahead of them (branch chancey) it fell 36.3 deg, more than any volunteer: the
    end figure was out."""
    out = validated(NBDL_8G_CASE)
    sc, path = read_scenario(NBDL_8G_CASE)
    t, _, runs = read_series(sc, pathlib.Path(path).parent)
    runs = runs[:, t <= sc["t_end"] + 1e-9]
    angle = out["history"]["head_flexion_deg"]
    drop = angle.max() - angle[-1]
    drops = runs.max(axis=1) - runs[:, -1]
    assert drop == pytest.approx(30.9, abs=1.0)
    assert (drops.min(), drops.max()) == pytest.approx((19.3, 34.5), abs=0.1)
    assert drops.min() < drop < drops.max()
    assert angle.max() < runs.max(axis=1).mean() == pytest.approx(68.5, abs=0.1)


def test_regression_nbdl_8g_return_mechanism(validated):
    """What the 8 g head's 30.9 deg fall from its peak to 298 ms is made of (branch neckreturn):
    the measured T1 turning back 12.9 deg, the lower neck (C7/T1) 4.1 deg and the upper neck
    (condyles) 13.9 deg; the work given back from the peak on, by the springs (with their 31 %
    hysteresis, Voo 1998) 2.26 J of 5.25 stored at C7/T1 and 0.97 of 1.75 at the condyles, and at
    the condyles by the capitis extensors' passive (elastic, Thelen 2003) tension 1.24 of 1.67 J:
    the springs and the muscles' passive part drive the return, the damping resists it. Before
    the condyles stood below the tragion with the head's com ahead of them and the upper damping
    1.1 -> 2.0 (branch chancey): a 36.3 deg fall, T1 12.5, C7/T1 4.9, condyles 18.8 deg; springs
    3.0 of 6.4 J and 1.0 of 1.6, the passive tension 1.44 of 1.64: the condyles' share of the
    return fell most."""
    out = validated(NBDL_8G_CASE)
    t, head = np.asarray(out["t"]), out["history"]["head_flexion_deg"]
    kp = int(np.argmax(head))
    share = sagittal_share(out["model"], out["results"])
    fall = {j: share[j]["angle_deg"][kp] - share[j]["angle_deg"][-1] for j in ("lower", "upper")}
    t1 = head[kp] - head[-1] - fall["lower"] - fall["upper"]
    assert (fall["lower"], fall["upper"], t1) == pytest.approx((4.1, 13.9, 12.9), abs=0.5)

    def work(j, part):
        """(stored to the head's peak, given back after it), J, of one part of joint j."""
        s = share[j]
        moment = s[part] if part != "passive" else sum(p for _, p in s["muscles"].values())
        power = np.asarray(moment) * np.gradient(np.radians(s["angle_deg"]), t)
        return (np.trapezoid(power[:kp + 1], t[:kp + 1]), -np.trapezoid(power[kp:], t[kp:]))

    assert work("lower", "spring") == pytest.approx((5.25, 2.26), abs=0.1)
    assert work("upper", "spring") == pytest.approx((1.75, 0.97), abs=0.1)
    assert work("upper", "passive") == pytest.approx((1.67, 1.24), abs=0.1)
    assert work("lower", "passive")[1] < 0.2                     # slack below the condyles
    assert work("upper", "damping")[1] < 0 and work("lower", "damping")[1] < 0   # resists the return


@pytest.mark.xfail(strict=True, reason=NBDL_8G_OUT)
def test_reference_nbdl_8g_inside_the_volunteers_range(validated):
    """Every figure of the 8 g independent check inside the 10 volunteers' range."""
    bad = figures_out(validated(NBDL_8G_CASE))
    assert not bad, bad


def _hybrid3_head_flexion(case):
    """Head flexion figures of the Hybrid III 50M's own head-neck (dummies/hybrid3_50m.toml, its
    lower neck joint at B0's origin) on the T1 motion of ``case``, as its human is driven
    (validation._run_sled: RK4 at the case's step, gravity)."""
    from occupant import simulate
    from occupant.constants import STANDARD_GRAVITY
    from occupant.human.head_neck import head_neck_assembly
    from occupant.human.loader import load_dummy

    sc, path = read_scenario(case)
    t, t1, _ = read_series(sc, pathlib.Path(path).parent)
    dummy = load_dummy("hybrid3_50m")
    c7 = dummy.source.joints["lower_neck"].placement.position
    model = head_neck_assembly(dummy, t1_location=-np.asarray(c7, float)).compile()
    res = simulate(model, sc["t_end"], base_motion=t1_motion(t, t1["ax_g"], t1["az_g"],
                                                             t1["rot_y_rad"]),
                   integrator="rk4", dt=sc["dt"], output_dt=2e-3, gravity=STANDARD_GRAVITY)
    angle = head_rotation_deg(res.body_poses[:, model.body("head"), :3, :3], "flexion")
    return sled_figures(res.t, angle)


def test_regression_hybrid3_on_nbdl_12g_turns_less_and_sooner_than_the_human(nbdl12):
    """Issue 14's complaint: driven on the volunteers' T1 motion the Hybrid III came out as the
    "human" did, whose joints were then the dummy's (the human with the Hybrid III's two neck
    resistances and no muscles, measured on branch audit14: 70.6 deg at 148 ms, -41.8 deg at
    298 ms). Its own neck, stiffer than the human's (test_human_joints.py::
    test_reference_human_neck_is_softer_than_the_hybrid3), turns the head less and sooner than
    the human's and than every volunteer's: 69.0 deg at 152 ms (human 75.6 at 176; volunteers
    71.6-98.2 at 176-188), then springs back into extension, -46.4 deg at 298 ms, where the human
    stays flexed as the volunteers do (15.2; 14.2-46.6). The dummy's figures are its file's model
    as it came out, not checked against a Hybrid III sled test (none read)."""
    h3, human, corridor = _hybrid3_head_flexion("human_neck_nbdl_12g_frontal"), nbdl12["checks"], \
        nbdl12["corridor"]
    assert h3["peak_flexion_deg"] < min(human["peak_flexion_deg"][0], corridor["peak_flexion_deg"][0])
    assert h3["peak_flexion_time_ms"] < min(human["peak_flexion_time_ms"][0],
                                            corridor["peak_flexion_time_ms"][0])
    assert h3["final_flexion_deg"] < 0.0 < corridor["final_flexion_deg"][0] <= \
        human["final_flexion_deg"][0]
    assert (h3["peak_flexion_deg"], h3["peak_flexion_time_ms"], h3["final_flexion_deg"]) == \
        pytest.approx((69.0, 152.0, -46.4), abs=1.0)


def test_identity_sled_energy_balance_and_muscles_work(nbdl12):
    res = nbdl12["results"]
    e = res.energy
    exchanged = max(np.abs(e["total"] - e["total"][0]).max(), np.abs(e["work"]).max())
    assert np.abs(e["balance"]).max() < 1e-4 * exchanged
    assert res.work["muscles"][-1] < 0.0


def test_analytic_neck_share_relaxed_tone(nbdl12):
    """At the start (upright, relaxed tone, no motion) the flexion group spanning C7/T1 pulls with
    the relaxed level times the flexion strength it was sized on, 0.05 x 30 = 1.5 N m
    (data/neck_muscles.toml), the lateral group (scalenes, trapezius) with its sagittal arms
    besides, and the extensors, balanced, as much the other way; about the condyles the longus
    capitis its share of 1.5 N m: neck_share reads each joint's centre and each muscle's moment
    arm as neck_muscles sized them."""
    table = neck_muscle_table()
    tone = table["activation"]["relaxed"] * table["reference"]["flexion_strength"]
    lower = sagittal_share(nbdl12["model"], nbdl12["results"])["lower"]["muscles"]
    group = {m["name"]: m["group"] for m in table["muscle"]}
    groups = {n: group[n.split("_", 1)[1]] for n in lower}      # "left_<muscle>"
    flexion = sum(a[0] + p[0] for n, (a, p) in lower.items() if groups[n] == "flexion")
    flexors = sum(a[0] + p[0] for n, (a, p) in lower.items()
                  if not groups[n].startswith("extension"))
    extensors = sum(a[0] + p[0] for n, (a, p) in lower.items()
                    if groups[n].startswith("extension"))
    assert flexion == pytest.approx(-tone, rel=1e-3)      # resisting flexion positive
    assert extensors == pytest.approx(-flexors, rel=1e-3)
    assert not any("longus_capitis" in n for n in lower)   # spans the condyles only
    share = {m["name"]: m["share"] for m in table["muscle"]}["longus_capitis"]
    upper = sagittal_share(nbdl12["model"], nbdl12["results"])["upper"]["muscles"]
    capitis = sum(a[0] + p[0] for n, (a, p) in upper.items() if "longus_capitis" in n)
    assert capitis == pytest.approx(-share * tone, rel=1e-3)


def test_regression_nbdl_12g_neck_share(nbdl12):
    """Who carries the living neck's flexion moment (issue 14; HISTORY.md, NBDL, "Who carries"): at
    C7/T1 the joint's spring (Mertz branch) and its fitted damping, the muscle elements 1.6 % of
    the angular impulse to the joint's largest flexion (spring 3.58, damping 4.02, muscles 0.12
    N m s; since Vasavada et al.'s muscles and the upper neck's re-fit 3.70, 4.04, -0.01, the
    scalenes and the sternocleidomastoid's reflex now as strong as the extensors' there; about the
    condyles 0.50 -> 0.21; since the hyoid chain and the upper damping's re-fit 3.80, 4.02, 0.15,
    condyles 0.39, the capitis extensors' tone and reflex resisting there; since the neck's
    extensors and both dampings' re-fit (lower 9.5 -> 11) 3.41, 4.62, 0.18, condyles 0.55, their
    passive part 0.16 -> 0.33; since the neck's base at C7/T1 and the lower damping's re-fit 4.32,
    5.15, 0.17, condyles 0.54; since the head's com on that link and the lower damping's re-fit
    3.96, 6.44, 0.24, condyles 0.55; since the condyles below the tragion, the head's com ahead of
    them and the upper damping's re-fit 1.1 -> 2.0, branch chancey: 3.22, 6.11, 0.24, condyles
    0.62): the muscles' resistance is not counted twice in any amount that
    matters. Strengthening
    the muscles without taking their share out of the joint would fail here."""
    t = nbdl12["results"].t
    share = sagittal_share(nbdl12["model"], nbdl12["results"])
    low = impulse_to_peak(t, share["lower"])
    muscles = low["muscle_active"] + low["muscle_passive"]
    assert low["spring"] == pytest.approx(3.22, abs=0.1)
    assert low["damping"] == pytest.approx(6.11, abs=0.1)
    assert muscles == pytest.approx(0.24, abs=0.05)
    assert abs(muscles) < 0.05 * (low["spring"] + low["damping"] + muscles)
    up = impulse_to_peak(t, share["upper"])
    assert up["muscle_active"] + up["muscle_passive"] == pytest.approx(0.62, abs=0.05)
    # after the peak the balanced reflex pulls towards flexion at C7/T1 (eccentric flexors): at
    # most -11.2 N m before the neck's extensors, -9.4 since, -9.0 since the trapezius, -10.0
    # since the neck's base at C7/T1, -8.75 since the head's com on its link and the lower
    # damping's re-fit, -7.95 since the condyles below the tragion and the head's com ahead of
    # them (chancey) (measured, not traced)
    net = sum(a + p for a, p in share["lower"]["muscles"].values())
    late = (t > 0.18) & (t < 0.28)
    assert net[late].max() == pytest.approx(-7.95, abs=0.5)


def test_regression_nbdl_12g_muscle_groups(nbdl12):
    """Why the muscles carry 2 % of C7/T1's resistance to its largest flexion (HISTORY.md, "How
    much the neck's muscles carry"): (1) until the reflex (activation above the tone from 114 ms,
    the 1 g onset at 52 ms + 60 ms) the joint's damping carries 2.97 of the 3.13 N m s; (2) after
    it the flexors co-contract (balanced for a zero isometric moment upright): extensors +1.02
    N m s (active 0.91, passive 0.12), flexors -0.76, lateral group -0.03; (3) with flexion the
    extensors' arms shrink and the flexors' grow: at f_V = 1 the active net would pull into
    flexion (-0.38 N m s); (4) Hill's force-velocity (extensors lengthening, flexors shortening)
    turns it to +0.12. At the joint's peak (176 ms) the flexors pull with 18.3 N m, the extensors
    resist with 12.5: net into flexion, against the spring's 109 N m. Since the condyles below
    the tragion, the head's com ahead of them and the upper damping's re-fit (branch chancey):
    the damping's share before the reflex 2.97 -> 2.78 N m s, the spring at the peak 141 ->
    109 N m (C7/T1 bends less: the upper joint takes more of the flexion); the muscles' figures
    within their bands."""
    res, model = nbdl12["results"], nbdl12["model"]
    t = np.asarray(res.t)
    lower = sagittal_share(model, res)["lower"]
    groups = muscle_groups(lower)
    total = sum(a + p for a, p in groups.values())
    np.testing.assert_allclose(total, sum(a + p for a, p in lower["muscles"].values()),
                               atol=1e-9)                       # identity: every muscle counted once
    k = int(np.argmax(lower["angle_deg"])) + 1
    imp = {g: (np.trapezoid(a[:k], t[:k]), np.trapezoid(p[:k], t[:k]))
           for g, (a, p) in groups.items()}
    assert imp["flexion"][0] == pytest.approx(-0.76, abs=0.05)
    assert imp["flexion"][1] == pytest.approx(0.0, abs=1e-3)    # shortening: no passive force
    assert imp["extension"][0] == pytest.approx(0.91, abs=0.05)
    assert imp["extension"][1] == pytest.approx(0.12, abs=0.03)
    assert imp["lateral"][0] + imp["lateral"][1] == pytest.approx(-0.03, abs=0.01)
    # (1) the reflex's arrival and the damping before it
    act = np.asarray(res.outputs["left_sternocleidomastoid.activation"], float)
    tone = neck_muscle_table()["activation"]["relaxed"]
    r = int(np.argmax(act > tone + 1e-3))
    assert t[r] == pytest.approx(0.114, abs=0.003)
    before = {key: np.trapezoid(lower[key][:r + 1], t[:r + 1]) for key in ("spring", "damping")}
    assert before["damping"] == pytest.approx(2.78, abs=0.1)
    assert np.trapezoid(total[:r + 1], t[:r + 1]) == pytest.approx(0.05, abs=0.03)
    # (3), (4) the active moments with the force-velocity factor taken out
    mb = model.muscles
    iso = 0.0
    for e, name in enumerate(model.muscle_names):
        if name not in lower["muscles"]:
            continue
        rate = np.asarray(res.outputs[f"{name}.length_rate"], float)
        fv = np.array([force_velocity(x) for x in rate / (mb.max_velocity[e] *
                                                          mb.optimal_length[e])])
        iso = iso + lower["muscles"][name][0] / fv
    assert np.trapezoid(iso[:k], t[:k]) == pytest.approx(-0.38, abs=0.05)
    assert sum(a for a, _ in imp.values()) == pytest.approx(0.12, abs=0.05)
    # at the joint's peak
    peak = k - 1
    assert sum(groups["flexion"])[peak] == pytest.approx(-18.3, abs=1.0)
    assert sum(groups["extension"])[peak] == pytest.approx(12.5, abs=1.0)
    assert lower["spring"][peak] == pytest.approx(109.2, abs=5.0)


def test_regression_nbdl_12g_what_the_muscles_do_to_the_head(nbdl12, monkeypatch):
    """The neck's muscles as forces on the head (HISTORY.md, "How much the neck's muscles
    carry"): the same case with every neck muscle at a micronewton of strength (a diagnostic; the
    muscles stay, so the joints keep their damping fitted with muscles, which neck_activation =
    "none" would swap for the passive tissue's) peaks 4.3 deg further and 2 ms sooner, 76.9 deg
    at 174 ms against 72.7 at 176 (out of the volunteers' 176-188 ms), and ends at 26.9 deg
    against 22.2: the muscles hold the head back by 6 % of its flexion. Before the condyles stood
    below the tragion with the head's com ahead of them and the upper damping 1.1 -> 2.0 (branch
    chancey): 80.1 deg at 170 ms against 75.6 at 176, 19.0 against 15.2."""
    import occupant.human.neck_muscles as neck_muscles
    from occupant.modeling import Muscle

    monkeypatch.setattr(neck_muscles, "Muscle",
                        lambda *a, **k: Muscle(*a, **{**k, "max_force": 1e-6}))
    weak = run_validation("human_neck_nbdl_12g_frontal")["checks"]
    shipped = nbdl12["checks"]
    assert shipped["peak_flexion_deg"][0] == pytest.approx(72.7, abs=0.3)
    assert weak["peak_flexion_deg"][0] == pytest.approx(76.9, abs=0.5)
    assert weak["peak_flexion_time_ms"][0] == pytest.approx(174.0, abs=1.0)
    assert not weak["peak_flexion_time_ms"][1]
    assert weak["final_flexion_deg"][0] == pytest.approx(26.9, abs=1.0)


# ------------------------------------------------------------------------------------------
# INDEPENDENT CHECKS of the neck in extension: Stemper et al. (2004) PMHS head-necks potted at
# T1, rear impacts at 2.6 and 1.8 m/s (no muscles); the corridor's boundaries are the two "runs"
# ------------------------------------------------------------------------------------------
def test_analytic_sled_figures_extension_read_at_times():
    """A head extending as 1000 t^2 deg (flexion -1000 t^2): extension 2.5 deg at 50 ms, peak
    at the last sample; the figure names carry the rotation read."""
    t = np.linspace(0.0, 0.1, 101)
    fig = sled_figures(t, 1000.0 * t ** 2, "extension", [50])
    assert fig["extension_at_50ms_deg"] == pytest.approx(2.5, rel=1e-3)
    assert fig["peak_extension_deg"] == pytest.approx(10.0) == fig["final_extension_deg"]
    assert fig["peak_extension_time_ms"] == pytest.approx(100.0)


@pytest.mark.parametrize("name", ["human_neck_stemper_rear_2_6ms_check",
                                  "human_neck_stemper_rear_1_8ms_check"])
def test_reference_stemper_corridor_is_the_two_boundaries(name):
    """The data file holds the corridor's lower and upper boundaries (lower below upper at
    every time) and a forward T1 pulse of the stated velocity change; each figure's corridor is
    [lower, upper] read at that time."""
    sc, path = read_scenario(name)
    t, t1, runs = read_series(sc, pathlib.Path(path).parent)
    assert runs.shape[0] == 2 and np.all(runs[0] <= runs[1])
    dv = np.trapezoid(t1["ax_g"][t <= 0.110], t[t <= 0.110]) * 9.80665
    # the decks' curves integrate to 2.39 and 1.83 m/s (the first is titled 2.58 m/s)
    assert dv == pytest.approx(2.385 if "2_6ms" in name else 1.830, abs=0.005)
    c = volunteer_corridor(t, runs, sc["t_end"], "extension", sc["read_at_ms"])
    for ms in sc["read_at_ms"]:
        k = int(np.flatnonzero(np.isclose(t, 1e-3 * ms))[0])
        assert c[f"extension_at_{ms:g}ms_deg"] == pytest.approx((runs[0, k], runs[1, k]))
    assert c["peak_extension_deg"] == pytest.approx((runs[0].max(), runs[1].max()))


@pytest.mark.parametrize("case", ["human_neck_stemper_rear_2_6ms_check",
                                  "human_neck_stemper_rear_1_8ms_check"])
def test_reference_stemper_checks_inside_the_corridor(case, validated):
    """Inside at every reading since a neck without muscles takes the passive tissue's damping
    (joint_passive.toml "Damping"; with the NBDL-calibrated damping the peak up to 126 ms was
    22.3 deg at 2.6 m/s against 25.3-62.5, 17.4 deg at 1.8 m/s against 20.6-55.3)."""
    out = validated(case)
    bad = figures_out(out)
    assert not bad, bad


@pytest.mark.parametrize("case, expected", [
    ("human_neck_stemper_rear_2_6ms_check", {"peak_extension_deg": 53.29, "extension_at_40ms_deg": -0.34,
                   "extension_at_60ms_deg": 3.25, "extension_at_80ms_deg": 14.69,
                   "extension_at_100ms_deg": 32.32, "extension_at_120ms_deg": 49.82}),
    ("human_neck_stemper_rear_1_8ms_check", {"peak_extension_deg": 40.21, "extension_at_40ms_deg": -0.66,
                   "extension_at_60ms_deg": 2.26, "extension_at_80ms_deg": 9.65,
                   "extension_at_100ms_deg": 22.51, "extension_at_120ms_deg": 36.66})])
def test_regression_stemper_figures(case, expected, validated):
    """The figures as measured (HISTORY.md), 0.5 deg: the passive neck (no muscles, reference
    damping and Voo et al.'s hysteresis). With the equal sagittal split it extended in the upper
    half of the corridor from 100 ms (2.6 m/s peak 59.5 deg against 25.3-62.5; 1.8 m/s 44.4
    against 20.6-55.3); since extension splits 8.4 deg at C7/T1 and 36.6 deg at the condyles
    (joint_rom.toml, from Panjabi et al. 2001's per-level curves) the lower neck meets its
    ligamentous branch sooner: peaks 50.8 and 39.3 deg, nearer the middle (run once, not fitted).
    Since the neck's base at C7/T1 (the neck link 32 mm longer, T1's motion applied there; run
    once): peaks 47.6 and 35.3 deg, every reading lower. Since the head's com keeps de Leva's
    head+neck com on that link (5.5 mm higher; run once): peaks 50.4 and 37.6 deg. Since the
    condyles below the tragion (the link 142.3 -> 114.8 mm) and the head's com 26.4 mm ahead of
    them (branch chancey; run once, no damping of this passive neck re-fitted): peaks 53.3 and
    40.2 deg, from 40 ms every reading 1-7 deg higher (at 2.6 / 1.8 m/s: 40 ms 0.44 -> -0.34 /
    0.33 -> -0.66, 80 ms 11.24 -> 14.69 / 8.10 -> 9.65, 100 ms 25.62 -> 32.32 / 18.65 -> 22.51,
    120 ms 44.75 -> 49.82 / 33.05 -> 36.66), still inside."""
    out = validated(case)
    for k, v in expected.items():
        assert out["checks"][k][0] == pytest.approx(v, abs=0.5), k


def test_bad_head_rotation_names_file_and_key(edited_case):
    bad = edited_case("human_neck_stemper_rear_2_6ms_check", 'rotation = "extension"',
                      'rotation = "twist"')
    with pytest.raises(InputFileError, match=r"bad\.toml.*rotation.*twist"):
        read_scenario(bad)


# ------------------------------------------------------------------------------------------
# INDEPENDENT CHECK of the neck in lateral bending: Kang et al. (2018) PMHS head-necks potted at
# T1, side mini-sled (two specimens: their range stands as the corridor)
# ------------------------------------------------------------------------------------------
def test_analytic_head_rotation_reads_each_axis():
    """A head rotated 0.3 rad about x reads 17.19 deg lateral and no flexion; 0.3 rad about y
    reads 17.19 deg flexion, -17.19 deg extension and no lateral bending."""
    Rx, Ry = np.array([rot_x(0.3)]), np.array([rot_y(0.3)])
    deg = np.degrees(0.3)
    assert head_rotation_deg(Rx, "lateral")[0] == pytest.approx(deg)
    assert head_rotation_deg(Rx, "flexion")[0] == pytest.approx(0.0, abs=1e-12)
    assert head_rotation_deg(Ry, "flexion")[0] == pytest.approx(deg)
    assert head_rotation_deg(Ry, "extension")[0] == pytest.approx(-deg)
    assert head_rotation_deg(Ry, "lateral")[0] == pytest.approx(0.0, abs=1e-12)
    assert rot_x(0.3)[1, 2] < 0.0        # the head's top (z) moves towards -y: lateral positive


def test_analytic_t1_motion_lateral():
    t = np.linspace(0.0, 0.2, 201)
    m = t1_motion(t, np.zeros_like(t), np.zeros_like(t), np.zeros_like(t), np.full_like(t, 5.0))
    np.testing.assert_allclose(m.position(0.1), [0.0, 0.5 * 5 * 9.80665 * 0.01, 0.0], rtol=1e-4)


def test_reference_kang_side_corridor_is_the_two_specimens():
    sc, path = read_scenario("human_neck_kang_side_check")
    t, t1, runs = read_series(sc, pathlib.Path(path).parent)
    assert runs.shape[0] == 2 and t1["ay_g"].max() == pytest.approx(11.49, abs=0.01)
    c = volunteer_corridor(t, runs, sc["t_end"], "lateral")
    assert c["peak_lateral_deg"] == pytest.approx((45.85, 65.97), abs=0.01)
    assert c["peak_lateral_time_ms"] == (76.0, 97.0)


def test_regression_kang_side_figures(validated):
    """As measured (HISTORY.md): the peak's time and the bending at 200 ms inside, the peak out.
    Since the lateral range splits between the joints as the in vitro spine bends (joint_rom.toml:
    17.5 deg at C7/T1, 27.5 deg at the condyles) the peak is 67.7 deg and the bending at 200 ms
    -10.0 deg (0.1 deg inside); with the equal split 73.0 and -29.0 deg, and with the elastic
    branch before the neck's hysteresis (passive_joints.ligament_absorption) -63.7 deg. Since
    the split is read one side from the digitised per-level curves (16.2 / 28.8 deg; the
    abstract's 7.9 deg per level is left plus right): peak 66.5 deg (0.5 deg out), bending at
    200 ms -11.6 deg (1.5 deg out). Since the neck's base at C7/T1 (run once): peak 72.5 deg at
    90 ms, bending at 200 ms -20.4 deg (10.3 deg out). Since the head's com keeps de Leva's
    head+neck com on that link (5.5 mm higher; run once): peak 73.9 deg at 90 ms, bending at 200 ms
    -1.9 deg, inside. Since the condyles below the tragion, the link 142.3 -> 114.8 mm, and the
    head's com 26.4 mm ahead of them (branch chancey; run once, not fitted): peak 68.4 deg (2.4
    over the PMHS's), at 116 ms (76-97: out), bending at 200 ms 18.5 deg, inside."""
    c = validated("human_neck_kang_side_check")["checks"]
    assert c["peak_lateral_deg"][0] == pytest.approx(68.4, abs=1.0)
    assert c["peak_lateral_time_ms"][0] == pytest.approx(116.0, abs=2.0)
    assert c["final_lateral_deg"][0] == pytest.approx(18.5, abs=1.0)
    assert not c["peak_lateral_deg"][1] and not c["peak_lateral_time_ms"][1]
    assert c["final_lateral_deg"][1]


KANG_MECHANISM_MOVED = (
    "the mechanism this test traced moved with the condyles placed below the tragion and the "
    "head's com 26.4 mm ahead of them (branch chancey, taken by chanceyship; measured, not yet "
    "re-traced): {}")


def test_regression_kang_side_mechanism(validated):
    """What makes the peak (branch chanceyship: measured on the condyles placed below the tragion
    with the head's com 26.4 mm ahead of them, branch chancey; run once, not fitted): the sled's
    pulse is over at 67 ms and the head peaks after it, at 116 ms, C7/T1 having loaded twice.
    First the lower neck bends past its 16.2 deg range into the ligamentous branch (32.8 deg, 69
    N m at 52 ms) while the head lags 21 deg about the condyles (44 ms); the head then swings
    over them freely, at up to 47 rad/s under less than 10 N m, into the upper branch
    (46.0 deg, 73 N m at 82 ms: about twice the 27-38 N m at which PMHS atlases broke in lateral
    bending, Yoganandan et al. 2024). Its recoil bends C7/T1 again, further (37.5 deg, 119 N m at
    100 ms), and the head swings into the upper branch once more: the peak, 68.4 deg, the
    condyles at 43.6 deg. Before (the com above the condyles, the link 142.3 mm): one loading of
    C7/T1 (39.0 deg, 137 N m at 60 ms), its recoil by 15 deg to the peak, the swing stopped at
    50.4 deg with 122 N m, the peak 73.9 deg at 90 ms."""
    out = validated("human_neck_kang_side_check")
    res, t = out["results"], out["t"] * 1e3
    head = out["history"]["head_lateral_deg"]
    peak = int(np.argmax(head))
    assert t[peak] > 67.0 and t[peak] == pytest.approx(116.0, abs=2.0)
    deg = {j: np.degrees(res.outputs[f"{j}_neck_x.deflection"]) for j in ("lower", "upper")}
    load = {j: np.abs(res.outputs[f"{j}_neck_x.load"]) for j in ("lower", "upper")}
    early = np.flatnonzero(t <= 60.0)
    first = early[np.argmax(deg["lower"][early])]
    assert t[first] == pytest.approx(52.0, abs=2.0) and deg["lower"][first] == pytest.approx(32.7, abs=1.5)
    assert load["lower"][first] == pytest.approx(68.6, rel=0.05)
    assert deg["upper"][np.argmin(np.abs(t - 44.0))] < -20.0            # the head lagging
    rate = np.gradient(np.radians(deg["upper"]), out["t"])
    swing = np.flatnonzero((t > 50.0) & (t <= 80.0))
    k = swing[np.argmax(rate[swing])]
    assert rate[k] == pytest.approx(47.5, abs=2.0) and load["upper"][k] < 10.0
    ku = int(np.argmax(load["upper"]))
    assert t[ku] == pytest.approx(82.0, abs=2.0) and load["upper"][ku] == pytest.approx(73.1, rel=0.05)
    late = np.flatnonzero((t > 80.0) & (t < t[peak]))
    second = late[np.argmax(deg["lower"][late])]
    assert t[second] == pytest.approx(100.0, abs=2.0) and deg["lower"][second] > deg["lower"][first]
    assert load["lower"][second] == pytest.approx(118.7, rel=0.05)
    assert deg["upper"][peak] == pytest.approx(43.6, abs=1.5)


def test_missing_t1_input_column_names_file_and_key(edited_case):
    bad = edited_case("human_neck_kang_side_check", 'az_g = "t1_az_g"\n', "")
    with pytest.raises(InputFileError, match=r"bad\.toml.*inputs\.az_g.*missing"):
        read_scenario(bad)


def test_reference_kang_frontal_corridor_is_the_two_boundaries():
    """The frontal case's pulse is the side case's, along -x; its runs are the boundaries of the
    five PMHS's corridor: peaks 52.9 and 75.0 deg, 22.1 and 45.5 deg at 200 ms."""
    sc, path = read_scenario("human_neck_kang_frontal_check")
    t, t1, runs = read_series(sc, pathlib.Path(path).parent)
    side, side_path = read_scenario("human_neck_kang_side_check")
    np.testing.assert_array_equal(t1["ax_g"], -read_series(side, pathlib.Path(side_path).parent)[1]["ay_g"])
    assert runs.shape[0] == 2 and np.all(runs[1] >= runs[0])
    c = volunteer_corridor(t, runs, sc["t_end"], "flexion", sc["read_at_ms"])
    assert c["peak_flexion_deg"] == pytest.approx((52.91, 74.95), abs=0.01)
    assert c["final_flexion_deg"] == pytest.approx((22.11, 45.45), abs=0.01)


def _cumulative(x, y):
    """Trapezoidal running integral of y over x (starting at 0)."""
    return np.concatenate([[0.0], np.cumsum(0.5 * np.diff(x) * (y[1:] + y[:-1]))])


def sagittal_ledger(out, case):
    """Per sagittal neck joint (lower: C7/T1, upper: the condyles) of a head-neck validation run:
    its flexion (deg), moment on the child (N m) and that moment split into the damping part
    (-c theta', c the joint's damping as built) and the spring's (the rest: the loading curve,
    or below it where the hysteresis unloads), the loading curve's moment at the same angle
    (``curve``: the table as built, which an elastic neck would carry), the spring's net work
    taken from the motion (``stored``, J: the loading work less what unloading returned, so
    after a cycle the work the hysteresis dissipated) and the damping's dissipated work
    (``damped``, J), against the run's time."""
    res, t = out["results"], out["t"]
    asm = head_neck_on_t1(read_scenario(case)[0])
    ledger = {}
    for j in ("lower", "upper"):
        r = asm.joint_resistances[f"{j}_neck_y"]
        theta = np.asarray(res.outputs[f"{j}_neck_y.deflection"])
        load = np.asarray(res.outputs[f"{j}_neck_y.load"])
        rate = np.gradient(theta, t)
        damping = -r.damping * rate
        spring = load - damping
        ledger[j] = {"deg": np.degrees(theta), "load": load, "spring": spring,
                     "damping": damping, "curve": -np.interp(theta, *r.table.T),
                     "stored": -_cumulative(theta, spring),
                     "damped": _cumulative(t, r.damping * rate ** 2), "rate": rate}
    return ledger


KANG_SIDE_OUT = (
    "since the condyles below the tragion and the head's com 26.4 mm ahead of them (branch "
    "chancey): peak 68.4 deg at 116 ms (both out), 18.5 deg at 200 ms (inside), C7/T1 loading "
    "twice, at 52 and 100 ms, the head swinging over the condyles between "
    "(test_regression_kang_side_mechanism); what follows was traced before it. "
    "finding of the independent check: the human's head bends "
    "sideways as the PMHS's up to about 65 ms, then on to 73.9 deg (45.8-66.0) "
    "(it ends at -1.9 deg at 200 ms, inside -10.1-33.3): lagging "
    "26 deg about the condyles at 50 ms, the head swings through the upper "
    "joint's soft range at up to 49 rad/s, resisted by neither its curve (< 10 N m) nor "
    "its passive damping (5 N m), and is stopped by the ligamentous branch at "
    "122 N m; "
    "the lower neck's recoil and the hysteresis do not set the peak (HISTORY.md); no "
    "published lateral damping or crash-level lateral curve to correct it with "
    "(test_regression_kang_side_mechanism); the T1 cell's moment rises 16 ms after the PMHS's "
    "(16 N m at 30 ms against 37-68: test_neck_t1_cell)")
KANG_FRONTAL_OUT = (
    "since the condyles below the tragion and the head's com 26.4 mm ahead of them (branch "
    "chancey): peak 63.6 deg at 102 ms, 40.3 / 59.7 deg at 60 / 80 ms (over), 63.1 at 100 ms "
    "(inside), 21.8 / -14.1 deg at 150 / 200 ms (under): C7/T1 loads twice, at 44 and 90 ms "
    "(test_regression_kang_frontal_mechanism); what follows was traced before it (the ledger "
    "test, now a strict xfail). "
    "finding of the independent check: the human's head flexes "
    "as the PMHS's to about 80 ms (inside at 60 and 80 ms, its peak 56.1 deg at 76 ms; the "
    "PMHS 52.9-75.0 at 89-116 ms) and springs back into extension (-34.1 deg at "
    "200 ms; the PMHS stay flexed, 22-45 deg): the lower neck, bent into its "
    "ligamentous branch at 48 ms (28 deg, 232 N m, 21 J) while the head lags, "
    "returns that work (test_regression_kang_frontal_mechanism; over time, with the upper "
    "neck's recoil and the late swing about C7/T1: test_regression_kang_frontal_rebound_ledger): "
    "at most 69 % of it under the "
    "neck's sourced hysteresis (Voo et al. 1998), no less when unloading to Panjabi et "
    "al. 2001's residual set; to stay flexed the head needs 20-40 % (HISTORY.md). The "
    "stored work is the living neck's branch, 6-34 times the ligamentous column's moment "
    "at these angles; a ligament-only branch folds the head to 116 deg: the PMHS neck "
    "(passive muscle, skin) lies between, its crash-level curve not sourced; the T1 cell's "
    "moment is one spike, 303 N m at 48 ms, 24 at 30 ms and 35 at 100 ms against the corridor's "
    "52-70 and 61-122 (test_neck_t1_cell)")


KANG_OBLIQUE_OUT = (
    "since the condyles below the tragion and the head's com 26.4 mm ahead of them (branch "
    "chancey): peaks 83.9 / 85.9 deg at 122 ms, 26.1 / -0.7 deg at 200 ms, axial peak 24.9 deg "
    "(inside) and -39.6 deg at 200 ms; before it: "
    "finding of the independent check (run once, as it came out): the head bends and flexes "
    "further than the two PMHS (peaks 80.7 and 78.3 deg at 100-102 ms; PMHS 36.0-50.3 and "
    "40.3-54.7 deg) and springs back to 3.1 deg of flexion at 200 ms (PMHS 20-36); its axial "
    "turn peaks at 30.3 deg (19.6-26.7) and ends at -28.4 deg, towards the side the head lags "
    "to, where both PMHS end turned 19.6-26.7 deg the other way: the upper neck's axial joint "
    "turns freely in its soft range (test_regression_kang_oblique_axial_mechanism); the T1 "
    "cell's moments at 30 ms are a third of the PMHS's (test_neck_t1_cell)")


@pytest.mark.parametrize("case", [
    pytest.param("human_neck_kang_side_check",
                 marks=pytest.mark.xfail(strict=True, reason=KANG_SIDE_OUT)),
    pytest.param("human_neck_kang_frontal_check",
                 marks=pytest.mark.xfail(strict=True, reason=KANG_FRONTAL_OUT)),
    pytest.param("human_neck_kang_oblique_check",
                 marks=pytest.mark.xfail(strict=True, reason=KANG_OBLIQUE_OUT))])
def test_reference_kang_check_inside_the_pmhs_range(case, validated):
    """Every figure of a Kang et al. 2018 independent check inside the PMHS's range (the side and
    oblique cases: the two specimens' figures; the frontal case: the corridor's boundaries)."""
    bad = figures_out(validated(case))
    assert not bad, bad


def test_regression_kang_frontal_figures(validated):
    """As measured when the case was written (HISTORY.md), every figure out: the flexion above the
    corridor at 60 ms (it rises 5-10 ms early), below it from 80 ms on (peak 50.0, 60 ms 35.2,
    80 ms 45.0 deg). Since the neck's base at C7/T1 (run once): the peak and the flexion at 60
    and 80 ms inside, below the corridor from 100 ms on. Since the head's com keeps de Leva's
    head+neck com on that link (run once): peak 56.1, 60 / 80 / 100 / 150 / 200 ms 30.8 / 54.4 /
    27.2 / -9.5 / -34.1 deg. Since the condyles below the tragion (the link 142.3 -> 114.8 mm)
    and the head's com 26.4 mm ahead of them (branch chancey; run once, not fitted): peak 63.6
    at 102 ms (inside), 60 / 80 / 100 / 150 / 200 ms 40.3 / 59.7 / 63.1 / 21.8 / -14.1 deg: the
    100 ms figure inside, the rebound into extension halved, 60 and 80 ms now over the
    corridor."""
    c = validated("human_neck_kang_frontal_check")["checks"]
    expected = {"peak_flexion_deg": 63.6, "flexion_at_60ms_deg": 40.3,
                "flexion_at_80ms_deg": 59.7, "flexion_at_100ms_deg": 63.1,
                "flexion_at_150ms_deg": 21.8, "final_flexion_deg": -14.1}
    for name, value in expected.items():
        assert c[name][0] == pytest.approx(value, abs=1.0), name


def test_regression_kang_frontal_mechanism(validated):
    """What the frontal head does (branch chanceyship: measured on the condyles placed below the
    tragion with the head's com 26.4 mm ahead of them, branch chancey; run once, not fitted):
    C7/T1 loads twice. First the lower neck bends past its 12 deg range into the ligamentous
    branch (25.0 deg, 131 N m at 43-44 ms, 11 J) while the head lags about the condyles (-18.8 deg
    at 40 ms); it springs back to 12 deg by 70 ms as the head swings over the condyles into the
    upper branch (43.7 deg, 84 N m at 70 ms): the head's first peak, 59.7 deg at 80 ms, over the
    corridor at 60 and 80 ms. The upper neck's recoil then bends C7/T1 again, further (27.2 deg,
    197 N m at 90 ms, 17 J), and the head swings into the upper branch once more: its peak,
    63.6 deg at 102 ms (the condyles 44.8 deg), inside. Both joints then return the head through
    upright, -14.1 deg at 200 ms (the PMHS 22-45 flexed), half the rebound before. Before (the
    com above the condyles, the link 142.3 mm): one loading of C7/T1, 28.0 deg at 48 ms with 232
    N m, the head peaking at 76 ms (56.1 deg) after the recoil, -34.1 deg at 200 ms."""
    out = validated("human_neck_kang_frontal_check")
    t = out["t"] * 1e3
    head = out["history"]["head_flexion_deg"]
    ledger = sagittal_ledger(out, "human_neck_kang_frontal_check")
    deg = {j: ledger[j]["deg"] for j in ledger}
    load = {j: -ledger[j]["load"] for j in ledger}
    at = {ms: int(np.argmin(np.abs(t - ms))) for ms in (40, 70, 80, 200)}
    first = np.flatnonzero(t <= 60.0)[np.argmax(deg["lower"][t <= 60.0])]
    assert t[first] == pytest.approx(44.0, abs=2.0) and deg["lower"][first] == pytest.approx(25.0, abs=1.5)
    assert load["lower"][first] == pytest.approx(131.0, rel=0.05)
    assert deg["upper"][at[40]] < -15.0                                  # the head lagging
    assert deg["lower"][at[70]] < 15.0 and deg["upper"][at[70]] == pytest.approx(43.7, abs=1.5)
    assert head[at[80]] == pytest.approx(59.7, abs=1.0)
    late = (t >= 80.0) & (t <= 100.0)
    second = np.flatnonzero(late)[np.argmax(deg["lower"][late])]
    assert t[second] == pytest.approx(90.0, abs=2.0) and deg["lower"][second] > deg["lower"][first]
    assert load["lower"][second] == pytest.approx(197.0, rel=0.05)
    peak = int(np.argmax(head))
    assert t[peak] == pytest.approx(102.0, abs=2.0) and t[peak] > t[second]
    assert deg["upper"][peak] == pytest.approx(44.8, abs=1.5)
    assert head[at[200]] == pytest.approx(-14.1, abs=1.0)


@pytest.mark.xfail(strict=True, reason=KANG_MECHANISM_MOVED.format(
    "frontal ledger: the peak at 102 ms (76), the lower neck's loading 17.4 J (20.5) with its "
    "most at 90 ms (48), the upper branch 12.5 J at the peak (16.3), the re-bending at C7/T1 "
    "27.2 deg at 90 ms on the loading curve (spring / curve 1.00, was 0.59 on the reloading "
    "line), -11.3 deg at C7/T1 at 200 ms with 12.7 N m (-22.1, 26.6), the condyles' load up "
    "to 128 N m after 100 ms (under 3), the damping 6.9 J at the condyles (8.4), still "
    "turning at -15.2 rad/s at 200 ms (-11.5)"))
def test_regression_kang_frontal_rebound_ledger(validated):
    """Why the head springs back into extension where the PMHS stay flexed (issue 14; branch
    kangrebound, scenarios/validation/HISTORY.md Stop 43), the sagittal neck's work over time. What cannot
    contribute, as built: T1 is held on the sled (the case's T1 rotation input is zero
    throughout: no torso rebound), the neck has no muscles (a PMHS: no muscle element, passive
    or active) and no bottoming stop at either joint (the ligamentous branches are the stops:
    range +-inf, no stop spring). What does: the head's flexion is the two joints' sum (planar
    motion, to 0.01 deg), and their springs return 69 % of the work they take (the hysteresis,
    31 % by Voo et al. 1998, as built) while the passive tissue's damping (0.1 N m s/rad) takes
    little:
    - 0-48 ms: the lower neck takes 20.5 J into its branch (28.0 deg, 232 N m at 48 ms);
    - 48-76 ms: it returns 14 J (6.5 J kept, 31 % of 20.5) and the head swings over the condyles
      (up to 49 rad/s) into the upper branch, 16.3 J at its peak (47.3 deg, 76 ms);
    - 76-112 ms: the upper neck returns 11 J (5.3 J kept) and the head rotates back to 12 deg at
      114 ms while the neck link, pushed by that recoil, bends again at C7/T1 to 22.0 deg (41.6
      N m, on the hysteresis' reloading line, 58 % of the loading curve's 71.2 N m): the 100 ms
      figure (27.2 deg) is the lower joint's 19 deg and the upper's 8;
    - 112-200 ms: the whole head-neck swings back about C7/T1 through its lax range (12 deg
      flexion, 8.4 extension, 10 N m at the ends) into the extension branch, -22.1 deg at 200 ms
      with 26.6 N m, the condyles 10-17 deg extended under 3 N m: the 150 and 200 ms figures
      (-9.5, -34.1 deg). Damping takes 0.7 J of it; the head still turns into extension at
      11.5 rad/s at 200 ms. Over the run the branches take 36.8 J, the hysteresis keeps 11.8,
      the damping 10.5 (8.4 of it at the condyles while the head swings over them).
    Per joint, measured once each (diagnostic, not kept; peak / 60 / 80 / 100 / 150 / 200 ms):
    the lower neck keeping 80 % of its work puts 100 and 150 ms inside (51.9, 43.1), 200 ms not
    (8.8); the upper's, none of them (39.6, 16.2, 0.5); both, all six. The PMHS's own T1 moment
    (HISTORY.md, neckpassive: 61-122 N m at 100 ms, 0 at 200 ms) says their neck is still
    loaded in flexion at 100 ms where this one has let the head go."""
    case = "human_neck_kang_frontal_check"
    out = validated(case)
    sc, path = read_scenario(case)
    _, t1, _ = read_series(sc, pathlib.Path(path).parent)
    assert np.all(t1["rot_y_rad"] == 0.0)                     # T1 held: no torso rotation
    asm = head_neck_on_t1(sc)
    assert len(asm.muscles) == 0                               # no neck muscles
    for j in ("lower", "upper"):
        r = asm.joint_resistances[f"{j}_neck_y"]
        assert r.lower == -np.inf and r.upper == np.inf and r.stop_stiffness == 0.0
        assert r.recovers and r.absorption == pytest.approx(ligament_absorption())
        assert r.damping == pytest.approx(0.1, rel=0.05)       # passive tissue's, m H scaled
    t = out["t"] * 1e3
    head = out["history"]["head_flexion_deg"]
    ledger = sagittal_ledger(out, case)
    lower, upper = ledger["lower"], ledger["upper"]
    np.testing.assert_allclose(head, lower["deg"] + upper["deg"], atol=0.01)
    at = {ms: int(np.argmin(np.abs(t - ms))) for ms in (48, 76, 100, 112, 200)}
    peak = int(np.argmax(head))
    assert t[peak] == pytest.approx(76.0, abs=2.0)
    # the two branch loadings, and what their springs keep: the hysteresis as built (31 %)
    k = int(np.argmax(lower["stored"][:peak + 1]))
    assert t[k] == pytest.approx(48.0, abs=2.0)
    assert lower["stored"][k] == pytest.approx(20.5, abs=1.5)
    kept = ligament_absorption()                              # 0.313
    assert lower["stored"][peak] == pytest.approx(kept * lower["stored"][k], rel=0.1)
    ku = int(np.argmax(upper["stored"]))
    assert ku == peak and upper["stored"][ku] == pytest.approx(16.3, abs=1.5)
    assert upper["stored"][at[100]] == pytest.approx(kept * upper["stored"][ku], rel=0.1)
    # the damping's share: small at C7/T1, the head's swing over the condyles at the upper
    assert lower["damped"][-1] == pytest.approx(2.0, abs=0.5)
    assert upper["damped"][-1] == pytest.approx(8.4, abs=1.0)
    assert np.abs(lower["damping"]).max() < 3.0 and np.abs(upper["damping"]).max() < 6.0
    # the re-bending at C7/T1 under the upper neck's recoil, on the reloading line
    late = (t >= 85.0) & (t <= 140.0)
    kl = np.flatnonzero(late)[np.argmax(lower["deg"][late])]
    assert t[kl] == pytest.approx(112.0, abs=4.0) and lower["deg"][kl] == pytest.approx(22.0, abs=1.5)
    assert lower["spring"][kl] / lower["curve"][kl] == pytest.approx(0.59, abs=0.05)
    assert lower["deg"][at[100]] > upper["deg"][at[100]] > 0.0
    # the late swing: into extension at C7/T1, the condyles lax, still turning at 200 ms
    assert lower["deg"][at[200]] == pytest.approx(-22.1, abs=1.5)
    assert lower["load"][at[200]] == pytest.approx(26.6, abs=3.0)
    assert np.all(upper["deg"][t >= 120.0] < -9.0)
    assert np.abs(upper["load"][t >= 100.0]).max() < 3.0
    assert lower["damped"][-1] - lower["damped"][at[112]] < 1.0
    assert lower["rate"][-1] + upper["rate"][-1] == pytest.approx(-11.5, abs=1.0)


def test_regression_kang_frontal_energy_account(validated):
    """The frontal neck's work as built now (branch kangrebound, stop 59, issue 14 sections 1
    and 4; scenarios/validation/HISTORY.md; no model change, no published crash-level unloading
    of the PMHS neck found beyond Voo et al. 1998's 31 %): each sagittal joint keeps
    ligament_absorption() (31 %) of the loading work to its largest excursion, E(m), and nothing
    of its later excursions below m (the ``recovers`` unloading curve is reloaded and unloaded
    along the same path: elastic below the peak). C7/T1 loads twice (11.2 J at 44 ms, then to
    27.2 deg, E = 17.4 J at 90 ms, 197 N m), the condyles twice (8.4 J at 70 ms, then to 45.9
    deg, E = 12.5 J at 104 ms, 128 N m): 47.1 J of gross loading work, of which the springs keep
    31 % of 17.4 + 12.5 and the passive damping (0.1 N m s/rad) takes 2.0 J at C7/T1 and 6.9 J
    at the condyles (their swing). The rest comes back: the head passes upright at 184 ms and is
    still turning into extension at 15 rad/s at 200 ms (-14.1 deg; the PMHS 22-45 flexed)."""
    case = "human_neck_kang_frontal_check"
    out = validated(case)
    t = out["t"] * 1e3
    ledger = sagittal_ledger(out, case)
    lower, upper = ledger["lower"], ledger["upper"]
    kept = ligament_absorption()
    for joint, when, work in ((lower, 90.0, 17.4), (upper, 104.0, 12.5)):
        k = int(np.argmax(joint["stored"]))      # on the loading curve at its largest excursion
        assert t[k] == pytest.approx(when, abs=2.0) and joint["stored"][k] == pytest.approx(work, abs=0.5)
        assert joint["spring"][k] == pytest.approx(joint["curve"][k], rel=0.02)
        gross = np.clip(np.diff(joint["stored"]), 0.0, None).sum()
        assert gross > 1.5 * joint["stored"][k]  # loaded twice: more work in than E(m)
    # what the springs keep: absorption x E(m) and no more, the second cycles returned whole
    at170 = int(np.argmin(np.abs(t - 170.0)))   # C7/T1 back near upright (2 deg), before extension
    assert abs(lower["deg"][at170]) < 3.0
    assert lower["stored"][at170] == pytest.approx(kept * lower["stored"].max(), rel=0.05)
    assert upper["stored"][-1] == pytest.approx(kept * upper["stored"].max(), rel=0.05)
    assert lower["damped"][-1] == pytest.approx(2.0, abs=0.3)
    assert upper["damped"][-1] == pytest.approx(6.9, abs=0.5)
    head = out["history"]["head_flexion_deg"]
    assert t[np.flatnonzero(head < 0.0)[0]] == pytest.approx(184.0, abs=4.0)
    assert lower["rate"][-1] + upper["rate"][-1] == pytest.approx(-15.2, abs=1.0)


def test_regression_kang_frontal_return_is_not_gravity(validated, monkeypatch):
    """What returns the head is the springs' work, not its weight (branch kangrebound, stop 47,
    scenarios/HISTORY.md): the same case run with gravity off (a diagnostic) flexes nearly as far
    and swings back further, -20.8 deg at 200 ms against -14.1 with gravity, 60.3 against 63.6
    deg at the peak, 58.3 against 63.1 at 100 ms (before the condyles stood below the tragion
    with the head's com ahead of them, branch chancey: -36.6 against -34.1, the peaks within
    1 deg, 26.8 against 27.2 at 100 ms). The head's weight (its com above C7/T1, the head starting upright) pulls it on past
    upright once it has swung back, but does not drive the return; were it the driver, the run
    without it would end less extended."""
    import occupant.human.validation as validation

    case = "human_neck_kang_frontal_check"
    with_g = validated(case)["checks"]
    monkeypatch.setattr(validation, "STANDARD_GRAVITY", (0.0, 0.0, 0.0))
    without = validation.run_validation(case)["checks"]
    assert without["peak_flexion_deg"][0] == pytest.approx(60.3, abs=1.0)
    assert without["peak_flexion_deg"][0] < with_g["peak_flexion_deg"][0]
    assert without["flexion_at_100ms_deg"][0] == pytest.approx(58.3, abs=1.0)
    assert without["final_flexion_deg"][0] == pytest.approx(-20.8, abs=1.0)
    assert without["final_flexion_deg"][0] < with_g["final_flexion_deg"][0]


# ------------------------------------------------------------------------------------------
# INDEPENDENT CHECK of the neck in oblique loading: Kang et al. (2018) PMHS head-necks on the
# same mini-sled pulse at 45 deg (two specimens: their range stands as the corridor)
# ------------------------------------------------------------------------------------------
def test_analytic_head_rotation_reads_axial_turn():
    """A head turned 0.3 rad about z reads 17.19 deg axial and no lateral bending or flexion; one
    flexed 0.5 rad and then bent 0.5 rad about the sled's x reads the heading of its x axis,
    atan(sin 0.5 sin 0.5 / cos 0.5) = 14.67 deg towards +y, though it is not twisted."""
    R = np.array([rot_z(0.3)])
    assert head_rotation_deg(R, "axial")[0] == pytest.approx(np.degrees(0.3))
    assert head_rotation_deg(R, "lateral")[0] == pytest.approx(0.0, abs=1e-12)
    assert head_rotation_deg(R, "flexion")[0] == pytest.approx(0.0, abs=1e-12)
    assert rot_z(0.3)[1, 0] > 0.0        # the nose (x) turns towards +y: axial positive
    tilted = np.array([rot_x(0.5) @ rot_y(0.5)])
    heading = np.degrees(np.arctan2(np.sin(0.5) ** 2, np.cos(0.5)))
    assert head_rotation_deg(tilted, "axial")[0] == pytest.approx(heading)


def test_reference_kang_oblique_corridor_is_the_two_specimens():
    """The oblique case's pulse is the side case's times 0.7071 along -x and +y (the deck's
    BC_oblique.key); its runs are the two PMHS's head rotations, a prefix per rotation."""
    sc, path = read_scenario("human_neck_kang_oblique_check")
    base = pathlib.Path(path).parent
    t, t1, _ = read_series(sc, base)
    side, side_path = read_scenario("human_neck_kang_side_check")
    pulse = read_series(side, pathlib.Path(side_path).parent)[1]["ay_g"]
    np.testing.assert_allclose(t1["ax_g"], -0.7071 * pulse, atol=1e-5)
    np.testing.assert_allclose(t1["ay_g"], 0.7071 * pulse, atol=1e-5)
    expected = {
        "lateral": {"peak": (36.02, 50.27), "time": (77.0, 127.0), "final": (-15.85, 29.45)},
        "flexion": {"peak": (40.27, 54.74), "time": (92.0, 139.0), "final": (19.99, 36.19)},
        "axial": {"peak": (19.56, 26.74), "final": (19.56, 26.74)}}
    assert [r for r, _ in sled_responses(sc)] == list(expected)
    for rotation, prefix in sled_responses(sc):
        runs = read_series(sc, base, prefix)[2]
        assert runs.shape[0] == 2
        c = volunteer_corridor(t, runs, sc["t_end"], rotation)
        for figure, (lo, hi) in expected[rotation].items():
            name = f"peak_{rotation}_time_ms" if figure == "time" else f"{figure}_{rotation}_deg"
            assert c[name] == pytest.approx((lo, hi), abs=0.01), name


def test_rotations_without_a_prefix_each_name_file_and_key(edited_case):
    bad = edited_case("human_neck_kang_oblique_check",
                      'response_prefix = ["head_lat_deg_", "head_flex_deg_", "head_axial_deg_"]',
                      'response_prefix = ["head_lat_deg_", "head_flex_deg_"]')
    with pytest.raises(InputFileError, match=r"bad\.toml.*response_prefix.*2 prefixes for 3"):
        read_scenario(bad)


def test_regression_kang_oblique_figures(validated):
    """As measured when the case was written (run once, HISTORY.md), re-measured with the neck's
    axial curves from in vitro flexibility (branch necktwist; before: peaks 70.8 / 66.8 deg,
    200 ms 6.6 / 6.1 / -25.6 deg, axial peak 23.8): the peaks' times, the lateral bending at
    200 ms and the axial turn's peak inside; the lateral and flexion peaks over, the flexion at
    200 ms under, the axial turn at 200 ms of the other sign. Since the neck's base at C7/T1 the
    axial turn's peak is over too (28.2 deg against 19.6-26.7). Since the head's com keeps de
    Leva's head+neck com on that link (run once): peaks 80.7 / 78.3 / 30.3 deg, at 200 ms 19.2 /
    3.1 / -28.4 deg; the same three inside. Since the condyles below the tragion and the head's
    com 26.4 mm ahead of them (branch chancey; run once, not fitted): peaks 83.9 / 85.9 deg at
    122 / 122 ms, axial 24.9 deg (inside again), at 200 ms 26.1 / -0.7 / -39.6 deg; four
    inside."""
    c = validated("human_neck_kang_oblique_check")["checks"]
    # since the neck's base at C7/T1 (run once; before 70.5, 96, 7.9, 66.0, 94, 7.2, 23.0,
    # -25.1): the axial peak out
    expected = {"peak_lateral_deg": 83.9, "peak_lateral_time_ms": 122.0, "final_lateral_deg": 26.1,
                "peak_flexion_deg": 85.9, "peak_flexion_time_ms": 122.0, "final_flexion_deg": -0.7,
                "peak_axial_deg": 24.9, "final_axial_deg": -39.6}
    for name, value in expected.items():
        tol = 2.0 if name.endswith("_ms") else 1.0
        assert c[name][0] == pytest.approx(value, abs=tol), name
    inside = {k for k, (_, ok) in c.items() if ok and "t1_moment" not in k}  # head's figures;
    assert inside == {"peak_lateral_time_ms", "final_lateral_deg", "peak_flexion_time_ms",
                      "peak_axial_deg"}
    # the T1 cell's (necktiming): test_neck_t1_cell


def test_regression_kang_oblique_axial_mechanism(validated):
    """What the axial figures read (HISTORY.md): the heading of the head's x axis couples its
    flexion and bending (test_analytic_head_rotation_reads_axial_turn), so the axial peak is not
    a turn. Since the condyles stand below the tragion with the head's com 26.4 mm ahead of them
    (branch chancey; run once, not fitted) the head twists about its own vertical axis towards the
    side it lags to from 60 ms on (-20 deg at 80 ms, the upper neck's axial joint -17 deg under at
    most 4 N m, its soft range), and the heading's peak, 24.9 deg at 116 ms (inside the PMHS's
    19.6-26.7), comes with the head twisted -39 deg the other way: coupling, not a turn. At 200 ms
    the twist is -45.1 deg, the heading -39.6, the upper axial joint -39.2: the PMHS end turned
    the other way. Before (the com above the condyles): the twist -3 deg at 80 ms and the heading
    +17, the axial peak 30.3 deg (out), at 200 ms twist -31.5, heading -28.3, joint -25.8."""
    from scipy.spatial.transform import Rotation

    out = validated("human_neck_kang_oblique_check")
    res, t = out["results"], out["t"] * 1e3
    R = res.body_poses[:, out["model"].body("head"), :3, :3]
    q = Rotation.from_matrix(R).as_quat()                        # x, y, z, w
    twist = np.degrees(2.0 * np.arctan2(q[:, 2], q[:, 3]))
    heading = out["history"]["head_axial_deg"]
    k80 = int(np.argmin(np.abs(t - 80.0)))
    assert twist[k80] == pytest.approx(-20.1, abs=1.5)
    kp = int(np.argmax(heading))
    assert t[kp] == pytest.approx(116.0, abs=2.0) and heading[kp] == pytest.approx(24.9, abs=1.0)
    assert twist[kp] == pytest.approx(-39.0, abs=1.5)               # the other way: coupling
    assert twist[-1] == pytest.approx(-45.1, abs=1.5)
    assert heading[-1] == pytest.approx(-39.6, abs=1.5)
    upper = np.degrees(res.outputs["upper_neck_z.deflection"])
    assert upper[-1] == pytest.approx(-39.2, abs=1.5)
    assert np.abs(res.outputs["upper_neck_z.load"]).max() < 5.0


# ------------------------------------------------------------------------------------------
# INDEPENDENT CHECK of the neck in axial twist: Kang et al. (2018) PMHS twist test, the head
# clamped, T1 turned 87 deg about its vertical axis (one PMHS: its two moment records as range)
# ------------------------------------------------------------------------------------------
KANG_TWIST_OUT = (
    "finding of the independent check (run once, as it came out): the neck's twisting moment "
    "at C7/T1 peaks at 21.9 N m at 99 ms, below both records (T3 cell 33.9 N m at 89 ms, whole "
    "neck 53.0 N m at 71 ms), and reads 11.9 N m at 200 ms (18.7-21.7): the 87 deg turn exceeds "
    "the model's clinical axial range (70 deg: 9.2 lower + 60.8 upper); both joints sit in "
    "their stops from about 60 ms, the moment at C7/T1 ringing +-3 N m about their load (the "
    "neck link's axial mode; the condyles' moment peaks at 21.7 N m at 78 ms) "
    "(test_regression_kang_twist_mechanism)")


def test_reference_kang_twist_corridor_is_the_two_records():
    """The twist case's T1 turn is the test's (87.2 deg at 83 ms) and its corridor the range of
    its two moment records' figures: the T3 cell's 33.95 N m at 89 ms and the whole neck's 52.99
    N m at 71 ms (the notebook's 'combined response', digitised as 53.3 N m at 71.5 ms)."""
    from occupant.human.validation import read_columns

    sc, path = read_scenario("human_neck_kang_twist_check")
    header, col = read_columns(sc, pathlib.Path(path).parent)
    turn = col[sc["inputs"]["rot_z_deg"]]
    assert turn.max() == pytest.approx(87.23, abs=0.01) and col["t_ms"][turn.argmax()] == 83
    runs = np.array([col[n] for n in header if n.startswith(sc["response_prefix"])])
    assert runs.shape[0] == 2
    c = volunteer_corridor(col["t_ms"] * 1e-3, runs, sc["t_end"], "axial_moment", unit="Nm")
    assert c["peak_axial_moment_Nm"] == pytest.approx((33.95, 52.99), abs=0.01)
    assert c["peak_axial_moment_time_ms"] == pytest.approx((71.0, 89.0), abs=1e-9)
    assert c["final_axial_moment_Nm"] == pytest.approx((18.68, 21.75), abs=0.01)


def test_analytic_twist_rig_linear_springs():
    """The rig with linear axial springs k1 (C7/T1) and k2 (condyles) and no damping, T1 turned
    slowly (theta = 0.5 (1 - cos pi t) rad over 1 s): the head stays still in the inertial frame
    and the moment at C7/T1 is the two springs in series, k1 k2 / (k1 + k2) theta, within the
    neck's inertial torque I_zz theta'' (< 2 I_zz pi^2 / 2); the head turns by at most
    M t^2 / (2 I_zz) under the largest moment M over the run's 1 s (its inertia scaled)."""
    from occupant.human.validation import HEAD_HOLD_SCALE, head_neck_on_t1, twist_run
    from occupant.modeling import JointResistance

    sc, _ = read_scenario("human_neck_kang_twist_check")
    asm = head_neck_on_t1(sc, head_scale=HEAD_HOLD_SCALE)
    k1, k2 = 20.0, 5.0                                       # N m/rad
    for name, k in (("lower_neck", k1), ("upper_neck", k2)):
        asm.joint_resistances[f"{name}_z"] = JointResistance(f"{name}_z", name, dof=2, stiffness=k)
    model = asm.compile()
    t = np.linspace(0.0, 1.0, 1001)
    turn = 0.5 * (1.0 - np.cos(np.pi * t))
    res = twist_run(model, t, turn, 1.0, 2e-4)
    theta = 0.5 * (1.0 - np.cos(np.pi * res.t))
    moment = res.outputs["lower_neck_z.load"]
    bound = 2.0 * asm.parts["neck"].inertia[2, 2] * np.pi ** 2 / 2
    np.testing.assert_allclose(moment, k1 * k2 / (k1 + k2) * theta, atol=bound)
    assert bound < 0.01 * k1 * k2 / (k1 + k2)               # the check is not swamped
    R = res.body_poses[:, model.body("head"), :3, :3]
    held = np.degrees(np.abs(moment).max() / (2.0 * model.source.parts["head"].inertia[2, 2]))
    assert np.abs(head_rotation_deg(R, "axial")).max() < held < 0.01


def test_regression_kang_twist_figures(validated):
    """As measured when the case was written (run once, not tuned): every figure out (22.4 N m
    at 99 ms, 11.7 N m; 21.9, 99, 11.9 since the neck's base at C7/T1)."""
    c = validated("human_neck_kang_twist_check")["checks"]
    expected = {"peak_axial_moment_Nm": 21.9, "peak_axial_moment_time_ms": 99.0,
                "final_axial_moment_Nm": 11.9}
    for name, value in expected.items():
        tol = 2.0 if name.endswith("_ms") else 0.5
        assert c[name][0] == pytest.approx(value, abs=tol), name
    assert not any(ok for _, ok in c.values())


@pytest.mark.xfail(strict=True, reason=KANG_TWIST_OUT)
def test_reference_kang_twist_inside_the_records(validated):
    bad = figures_out(validated("human_neck_kang_twist_check"))
    assert not bad, bad


def test_regression_kang_twist_mechanism(validated):
    """What the rig and its figures read: the head held (its heading within 1e-3 deg of its
    start, validation.HEAD_HOLD_SCALE); at the moment's peak the twist split 13 deg at C7/T1
    and 74 deg at the condyles, each past its share of the clinical 70 deg (9.2 / 60.8 deg, joint_rom.toml): the stops carry the
    moment. The moments at C7/T1 and at the condyles differ by the neck link's axial ringing
    between the two (up to 11 N m at 25 ms, 4 N m from 100 ms on, their mean difference there
    under 0.1 N m): the condyles' moment peaks at 22.0 N m at 75 ms (21.7 N m at 78 ms since the
    neck's base at C7/T1, at 75 ms again since the condyles below the tragion, the link 142.3 ->
    114.8 mm, branch chancey)."""
    out = validated("human_neck_kang_twist_check")
    res, h, t = out["results"], out["history"], out["t"] * 1e3
    head = h["head_heading_deg"]
    assert np.abs(head - head[0]).max() < 1e-3
    k = int(np.argmax(h["moment_Nm"]))
    lower = -np.degrees(res.outputs["lower_neck_z.deflection"][k])
    upper = -np.degrees(res.outputs["upper_neck_z.deflection"][k])
    assert lower == pytest.approx(13.2, abs=1.0) and lower > 9.2
    assert upper == pytest.approx(73.9, abs=1.0) and upper > 60.8
    late = t >= 100.0
    ring = h["moment_Nm"] - h["upper_moment_Nm"]
    assert abs(ring[late].mean()) < 0.1 and np.abs(ring[late]).max() < 4.0
    k = int(np.argmax(h["upper_moment_Nm"]))
    assert h["upper_moment_Nm"][k] == pytest.approx(21.7, abs=0.5)
    assert t[k] == pytest.approx(75.0, abs=2.0)


def test_twist_without_its_turn_column_names_file_and_key(edited_case):
    bad = edited_case("human_neck_kang_twist_check", 'rot_z_deg = "t1_rotz_deg"', "")
    with pytest.raises(InputFileError, match=r"bad\.toml.*rot_z_deg"):
        read_scenario(bad)
