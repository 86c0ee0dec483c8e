"""The Kang et al. 2018 PMHS's T1 load cell as figures of the Kang head-neck checks (branch
necktiming; issue 14 sections 1 and 4): the cells' moments as digitised in the SAFER HBM
validation repository (data/kang_2018_side.csv, _frontal.csv, _oblique.csv, headers), against the
moment the model's head-neck puts on a cell fixed to T1 47 mm below C7/T1
(``validation.t1_cell_moment_Nm``: the lower neck joint's load carried down by its shear). Checks,
compared and not fitted to."""
import numpy as np
import pytest

from occupant.io.toml_files import InputFileError
from occupant.dynamics.api import link_poses
from occupant.forces.joint_resistance import rotation_vector_row
from occupant.human.validation import read_columns, read_scenario, t1_cell_moment_Nm
from occupant.sensors.evaluate import joint_load_in_base

# The side PMHS's Mx at the cell read between the digitised points by branch kanglateral
# (tests/human/test_neck_lateral.py, PMHS_T1_MX [C]), N m (PMHS 1, PMHS 2)
SIDE_T1_MX = {30: (67.7, 36.9), 40: (121.2, 64.6), 60: (108.5, 45.9), 80: (88.9, 53.3)}
# The frontal corridor's moment read by branch neckpassive (HISTORY.md): 52-70 N m at 30 ms,
# 61-122 at 100 ms, 6-17 at 150 ms [C]
FRONTAL_T1_MY = {30: (52.0, 70.0), 100: (61.0, 122.0), 150: (6.0, 17.0)}


def _columns(name):
    sc, path = read_scenario(name)
    return read_columns(sc, path.parent)[1]


def test_reference_t1_cell_columns_are_the_digitised_moments():
    """The resampled columns give back what the two earlier branches read off the digitised
    points (each to 1 N m: the 1 ms resampling of PMHS 1's steep rise at 26-39 ms, 5 N m/ms)."""
    side = _columns("human_neck_kang_side_check")
    for ms, (one, two) in SIDE_T1_MX.items():
        k = int(np.flatnonzero(side["t_ms"] == ms)[0])
        assert side["t1_mx_Nm_pmhs1"][k] == pytest.approx(one, abs=1.0)
        assert side["t1_mx_Nm_pmhs2"][k] == pytest.approx(two, abs=1.0)
    front = _columns("human_neck_kang_frontal_check")
    for ms, (lo, hi) in FRONTAL_T1_MY.items():
        k = int(np.flatnonzero(front["t_ms"] == ms)[0])
        assert front["t1_my_Nm_lower"][k] == pytest.approx(lo, abs=1.0)
        assert front["t1_my_Nm_upper"][k] == pytest.approx(hi, abs=1.0)
    oblique = _columns("human_neck_kang_oblique_check")
    assert all(oblique[f"t1_m{a}_Nm_pmhs{p}"].max() > 55.0 for a in "xy" for p in (1, 2))


def test_t1_cell_moment_is_the_lower_neck_load_carried_down_by_its_shear(validated):
    """Identities on the side case's run: at C7/T1 (offset 0) the moment the neck bears is the
    lower neck joint's resistance (the joint carries no constraint moment about its axes), to
    round-off: its three rotation-vector loads as the torque conjugate to the child's angular
    velocity (J_r^-T load, joint_resistance.rotation_vector_row) turned into B0 with the neck
    link's rotation; the cell reads its lateral component, sign turned (the load on T1, not on
    the neck). Not the lateral load alone: with the head's centre of gravity ahead of the
    condyles (branch chancey) the head flexes and twists as it bends (rotation vector to 11.4
    and 11.6 deg beside 37.5 lateral), the joint's x axis leaves B0's and the lateral load alone
    is 0.40 N m off of 118.7 (it was within 1e-3 with the centre of gravity straight above the
    condyles, the bend lateral alone); at t = 0, from rest, the joint carries the head-neck's
    weight less its falling: Newton's law on the two coms, their vertical accelerations from
    their first 2 ms (from rest, a = 2 dz / dt^2; to 1 % of the weight, the horizontal loads
    too: the head starts at rest, not settled, its joints' springs not quite in balance with
    gravity). With the head's centre of gravity 26.4 mm ahead of the condyles the head starts
    to nod and its com to fall, 0.91 m/s^2: the joint carries 49.5 N of the 53.2 N weight (it
    carried the weight within 1 % with the centre of gravity above the condyles; branch
    chancey); moving the cell d below adds d times the shear along the push (M_p = M_o + (o - p)
    x F)."""
    out = validated("human_neck_kang_side_check")
    res, model = out["results"], out["model"]
    at_c7 = t1_cell_moment_Nm(model, res, 0.0, "lateral")
    link = model.joint_links[model.joint("lower_neck")][-1]
    k = model.tree.qidx[link]
    q = np.asarray(res.q)
    loads = np.array([res.outputs[f"lower_neck_{a}.load"] for a in "xyz"], float).T
    data = model.make_data()
    moment = np.empty_like(loads)
    for n in range(len(q)):
        rows = np.array([rotation_vector_row.py_func(q[n], k, c)[1:] for c in range(3)])
        moment[n] = link_poses(model, data, q[n])[0][link] @ (rows.T @ loads[n])
    assert np.abs(at_c7 + moment[:, 0]).max() < 1e-9 * np.abs(moment[:, 0]).max()
    force = joint_load_in_base(model, res, "lower_neck", (0.0, 0.0, 0.0))[0]
    weight = 9.80665 * sum(model.body_mass[model.body(b)] for b in ("neck", "head"))
    t, poses = np.asarray(res.t), np.asarray(res.body_poses)
    falling = 0.0
    for name in ("neck", "head"):
        b = model.body(name)
        z = poses[:2, b, 2, :3] @ np.asarray(model.body_com[b]) + poses[:2, b, 2, 3]
        falling += model.body_mass[b] * 2.0 * (z[1] - z[0]) / (t[1] - t[0]) ** 2
    assert force[0] == pytest.approx([0.0, 0.0, weight + falling], abs=1e-2 * weight)
    assert falling < -0.05 * weight
    d = 0.047
    below = t1_cell_moment_Nm(model, res, d, "lateral")
    assert np.allclose(below - at_c7, d * force[:, 1], atol=1e-6 * np.abs(below).max())
    assert np.abs(force[:, 1]).max() > 500.0       # the shear's part is not trivially small


def test_regression_kang_t1_cell_figures_the_neck_takes_the_push_late(validated):
    """As measured (branch necktiming, run once on main bc960fb; compared, not fitted): at 30 ms
    each case's model cell carries under half the PMHS's least moment (side 15.8 against
    36.9-67.7 N m, frontal 24.3 against 51.8-70.0, oblique lateral 9.3 against 25.5-39.0 and
    flexion 12.3 against 32.5-39.7); the side peak comes 16 ms after the PMHS's (165.9 N m at
    60 ms; PMHS 69.8-125.4 at 43-44 ms) and the frontal one is one spike, 302.6 N m at 48 ms
    (the corridor's boundaries 70.2-126.7 at 104-106 ms), with 34.9 N m left at 100 ms
    (60.5-121.7). The same lag as the lower neck joint's own moment (test_neck_lateral,
    kangrebound): the cell's offset (shear x 47 mm) does not close it. Of the 14 figures one is
    inside, the oblique flexion at 40 ms (42.3 against 36.3-48.7), passing on its way to a
    peak of 112.5 (71.5-72.6). Since the condyles below the tragion (the link 142.3 -> 114.8
    mm) and the head's com 26.4 mm ahead of them (branch chancey; run once, not fitted): at 30 ms
    side 21.1, frontal 35.5, oblique lateral 12.1 and flexion 17.4 N m, each still under the
    PMHS's least (57, 69, 48 and 54 % of it; under half before); the side peak 161.0 N m at
    100 ms, 56 ms after the PMHS's; the frontal spike 276.3 N m, 167.3 at 40 ms and 16.0 at
    100 ms; the oblique peaks 120.5 lateral and 95.3 flexion, its flexion at 40 ms 62.5 (over
    36.3-48.7): none of the 14 inside."""
    expected = {
        "human_neck_kang_side_check": {
            "peak_lateral_t1_moment_Nm": 161.0, "peak_lateral_t1_moment_time_ms": 100.0,
            "lateral_t1_moment_at_30ms_Nm": 21.1, "lateral_t1_moment_at_40ms_Nm": 53.1},
        "human_neck_kang_frontal_check": {
            "peak_flexion_t1_moment_Nm": 276.3, "flexion_t1_moment_at_30ms_Nm": 35.5,
            "flexion_t1_moment_at_40ms_Nm": 167.3, "flexion_t1_moment_at_100ms_Nm": 16.0},
        "human_neck_kang_oblique_check": {
            "peak_lateral_t1_moment_Nm": 120.5, "lateral_t1_moment_at_30ms_Nm": 12.1,
            "lateral_t1_moment_at_40ms_Nm": 26.6, "peak_flexion_t1_moment_Nm": 95.3,
            "flexion_t1_moment_at_30ms_Nm": 17.4, "flexion_t1_moment_at_40ms_Nm": 62.5}}
    for case, figures in expected.items():
        c, corridor = validated(case)["checks"], validated(case)["corridor"]
        for name, value in figures.items():
            tol = 2.0 if name.endswith("_ms") else max(1.0, 0.03 * abs(value))
            assert c[name][0] == pytest.approx(value, abs=tol), (case, name)
        at30 = [n for n in figures if n.endswith("_at_30ms_Nm")]
        for name in at30:
            assert c[name][0] < corridor[name][0], (case, name)
    inside = {(case, k) for case in expected for k, (_, ok) in validated(case)["checks"].items()
              if ok and "t1_moment" in k}
    assert inside == set()
    side = validated("human_neck_kang_side_check")
    name = "peak_lateral_t1_moment_time_ms"
    assert side["checks"][name][0] > side["corridor"][name][1] + 10.0


def test_t1_cell_prefix_must_name_a_rotation_of_the_case(edited_case):
    bad = edited_case("human_neck_kang_side_check", 'prefix = {lateral = "t1_mx_Nm_"}',
                      'prefix = {flexion = "t1_mx_Nm_"}')
    with pytest.raises(InputFileError, match=r"bad\.toml.*t1_cell\.prefix"):
        read_scenario(bad)


# (case, lower neck coordinate, rotation of the figure) of the four 30 ms cell figures
AT_30MS = [("human_neck_kang_side_check", "x", "lateral"),
           ("human_neck_kang_frontal_check", "y", "flexion"),
           ("human_neck_kang_oblique_check", "x", "lateral"),
           ("human_neck_kang_oblique_check", "y", "flexion")]


def test_regression_kang_t1_cell_gap_at_30ms_beyond_the_sourced_rate_factor(validated):
    """Why no sourced rate dependence closes the 30 ms gap (branch necktake, measured on main
    ebfdf79; diagnosis, the model unchanged). At 30 ms the lower neck (C7/T1) is 9.1-12.9 deg
    into its in-range curve, bending at 12.3-17.4 rad/s (700-1000 deg/s), its curve carrying
    2.3-11.7 N m. The only crash-rate figure of cervical joints found, Voo et al. 1998's dynamic
    / quasi-static stiffness (1.50 / 1.03 N m/deg, joint_passive.toml [reference]), adds its
    rate-dependent share, 0.46 of the curve's moment, 1.0-5.4 N m at the same angle [D]: the cell
    would carry 10.4-29.7 N m against the PMHS's least 25.5-51.8. The gap is 5-15 times that share;
    at the same angle and rate it would take the in-range curve times 3.3-8.0, or a lumped damping
    of 1.2-1.6 N m s/rad at C7/T1 (the passive tissue's 0.1 as built) [D]. Run once each, not
    kept (scenarios/validation/HISTORY.md Stop 44, necktake): the in-range curves of both neck joints x 1.46
    (flexion and lateral) give 30.6 / 18.8 / 10.8 / 15.0 N m at 30 ms (24.3 / 15.8 / 9.3 / 12.3),
    the NBDL 12 g final flexion going out (13.1 deg); a damping of 1.4 N m s/rad at C7/T1 gives
    42.5 / 36.9 / 25.0 / 27.0, each still just under the PMHS's least. Since the condyles stand
    below the tragion with the head's com 26.4 mm ahead of them (branch chancey; run once, not
    fitted): at 30 ms the lower neck is 10.6-14.9 deg into its curve (the frontal case's 14.9
    past its 12 deg flexion range), bending at 13.7-19.1 rad/s,
    the curve carrying 3.2-17.6 N m; Voo's share adds 1.5-8.0 N m: the cell would carry 13.6-43.5
    against the PMHS's least 25.5-51.8, still under; the gap is 2.0-9.1 times that share and would
    take a damping of 0.83-1.05 N m s/rad at C7/T1, 8-10 times the passive tissue's."""
    from occupant.human.passive_joints import passive_table
    from occupant.human.validation import head_neck_on_t1
    ref, _ = passive_table()
    share = ref["neck_stiffness_dynamic"] / ref["neck_stiffness_quasi_static"] - 1.0
    assert share == pytest.approx(0.456, abs=1e-3)
    for case, coord, rot in AT_30MS:
        out = validated(case)
        res, t = out["results"], out["t"]
        r = head_neck_on_t1(read_scenario(case)[0]).joint_resistances[f"lower_neck_{coord}"]
        theta = np.asarray(res.outputs[f"lower_neck_{coord}.deflection"])
        k = int(np.argmin(np.abs(t - 0.030)))
        rate = abs(np.gradient(theta, t)[k])
        curve = abs(np.interp(theta[k], *r.table.T))
        name = f"{rot}_t1_moment_at_30ms_Nm"
        cell, least = out["checks"][name][0], out["corridor"][name][0]
        assert 10.5 < np.degrees(abs(theta[k])) < 15.0, case             # frontal: past 12 deg
        assert 13.5 < rate < 19.5, case                                  # 770-1100 deg/s
        gap = least - cell
        assert cell + share * curve < least, (case, rot)   # Voo's factor does not reach the PMHS
        assert gap > 2.0 * share * curve, (case, rot)
        assert 0.8 < gap / rate < 1.1, (case, rot)         # the damping it would take, N m s/rad
        assert gap / rate > 8.0 * ref["damping"], (case, rot)
