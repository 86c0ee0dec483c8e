"""Load cells from the inverse dynamics against Newton-Euler for the subtree beyond the joint,
on random states of the Hybrid III 50M; results read back from HDF5 give the same channels."""
import numpy as np
import pytest

from occupant.dynamics import body_jacobian, link_poses, point_acceleration
from occupant.human import load_dummy
from occupant.sensors import LoadCell, evaluate, segment_frame

J211 = np.array([1.0, -1.0, -1.0])
CELLS = [("upper_neck", "head"), ("lower_neck", "neck"), ("lumbar_pelvis", "lumbar"),
         ("left_hip", "left_upper_leg"), ("right_knee", "right_upper_leg"), ("left_ankle", "left_lower_leg")]


def subtree(model, b):
    out = []
    for i in range(model.nb):
        k = i
        while k >= 0 and k != b:
            k = model.body_parent[k]
        if k == b:
            out.append(i)
    return out


def one_sample(model, q, v, vdot, base):
    import types
    return types.SimpleNamespace(t=np.array([0.0, 1e-4]), q=np.array([q, q]), v=np.array([v, v]),
                                 vdot=np.array([vdot, vdot]), base_states=np.array([base, base]))


def newton_euler(model, q, v, vdot, base, child, point_b0):
    """Force and moment about point_b0 (B0 coords) that the rest of the tree exerts on the
    subtree of body ``child``: sum of m (a - g) and of (c - P) x m (a - g) + I alpha + w x I w."""
    data = model.make_data()
    R, p = link_poses(model, data, q)
    F, M = np.zeros(3), np.zeros(3)
    for i in subtree(model, child):
        lk = model.body_link[i]
        c = p[lk] + R[lk] @ model.body_com[i]
        a = point_acceleration(model, data, q, v, vdot, i, model.body_com[i], base=base)
        J = body_jacobian(model, data, q, i)
        w = J[:3] @ v + base[:3]
        alpha = J[:3] @ vdot + base[6:9]      # exact when v = 0 and the base does not turn
        I = R[lk] @ model.body_inertia[i] @ R[lk].T
        F += model.body_mass[i] * a
        M += np.cross(c - point_b0, model.body_mass[i] * a) + I @ alpha + np.cross(w, I @ w)
    return F, M


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_identity_load_cell_force_is_newton_for_the_subtree(seed):
    m = load_dummy("hybrid3_50m")
    rng = np.random.default_rng(seed)
    q, v, vdot = m.random_configuration(rng), rng.normal(size=m.nv), rng.normal(size=m.nv) * 10
    base = rng.normal(size=12) * [1, 1, 1, 5, 5, 5, 10, 10, 10, 100, 100, 100]
    sensors = [LoadCell(f"C{k}", joint=j, body=b) for k, (j, b) in enumerate(CELLS)]
    ch = {c.name: c for c in evaluate(m, one_sample(m, q, v, vdot, base), sensors)}
    R, p = link_poses(m, m.make_data(), q)
    for k, (j, b) in enumerate(CELLS):
        child = m.joint_body[m.joint(j)]
        sign = 1.0 if m.body(b) == child else -1.0     # on the child, or on the parent
        F_ref, _ = newton_euler(m, q, v, vdot, base, child, np.zeros(3))
        bi = m.body(b)
        R_b0_seg = R[m.body_link[bi]] @ segment_frame(m, bi)[0]
        F_cell = R_b0_seg @ (J211 * [ch[f"C{k} force {a}"].values[0] for a in "XYZ"])
        np.testing.assert_allclose(F_cell, sign * F_ref, rtol=1e-9, atol=1e-9 * np.abs(F_ref).max())


@pytest.mark.parametrize("seed", [3, 4])
def test_identity_load_cell_moment_is_euler_for_the_subtree(seed):
    # v = 0 and a non-turning base, so the reference's angular accelerations are exactly J vdot
    # + alpha_base; moments about a load-cell point off the joint exercise the transfer
    m = load_dummy("hybrid3_50m")
    rng = np.random.default_rng(seed)
    q, v, vdot = m.random_configuration(rng), np.zeros(m.nv), rng.normal(size=m.nv) * 10
    base = np.zeros(12)
    base[6:] = rng.normal(size=6) * [10, 10, 10, 100, 100, 100]
    point = np.array([0.01, -0.02, 0.03])
    sensors = [LoadCell(f"C{k}", joint=j, body=b, point=point) for k, (j, b) in enumerate(CELLS)]
    ch = {c.name: c for c in evaluate(m, one_sample(m, q, v, vdot, base), sensors)}
    R, p = link_poses(m, m.make_data(), q)
    for k, (j, b) in enumerate(CELLS):
        child = m.joint_body[m.joint(j)]
        sign = 1.0 if m.body(b) == child else -1.0
        bi = m.body(b)
        lk = m.body_link[bi]
        R_ls, p_ls = segment_frame(m, bi)
        P = p[lk] + R[lk] @ (R_ls @ point + p_ls)
        _, M_ref = newton_euler(m, q, v, vdot, base, child, P)
        M_cell = R[lk] @ R_ls @ (J211 * [ch[f"C{k} moment {a}"].values[0] for a in "XYZ"])
        np.testing.assert_allclose(M_cell, sign * M_ref, rtol=1e-9, atol=1e-9 * np.abs(M_ref).max())


def test_identity_channels_from_results_read_back_from_hdf5(tmp_path):
    from occupant.io.results_h5 import read_results, write_results
    from occupant.sensors import default_sensors
    m = load_dummy("hybrid3_50m")
    rng = np.random.default_rng(5)
    n = 20
    import types
    r = types.SimpleNamespace(t=np.arange(n) * 1e-4, q=np.array([m.random_configuration(rng) for _ in range(n)]),
                              v=rng.normal(size=(n, m.nv)), vdot=rng.normal(size=(n, m.nv)),
                              base_states=rng.normal(size=(n, 12)), base_poses=np.tile(np.eye(4), (n, 1, 1)))
    back = read_results(write_results(r, tmp_path / "run.h5"))
    a = evaluate(m, r, default_sensors(m))
    b = evaluate(m, back, default_sensors(m))
    assert [c.code for c in a] == [c.code for c in b]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x.values, y.values)


@pytest.mark.parametrize("dummy, seed", [("hybrid3_50m", 6), ("hybrid3_50m", 7), ("hybrid3_05f", 8),
                                         ("hybrid3_95m", 9)])
def test_identity_femur_cell_moment_y_is_the_knee_torque_plus_shear_times_offset(dummy, seed):
    # the default femur cells are read across the knee hinge about the femur_load_cell marker, d
    # up the femur from the hinge: in the femur's axes (a cell at the marker's point read in its
    # segment's axes; the cells themselves read along the marker's axes, the next test) the
    # moment along the hinge axis is the torque the joint applies (its friction and damping,
    # scenarios/HISTORY.md "femurmy") plus d times the shear Fx; the forces and Mz are those about
    # the hinge, Mx takes -d Fy (J211 axes, y and z flipped)
    from occupant.dynamics import inverse_dynamics
    from occupant.sensors import default_sensors
    m = load_dummy(dummy)
    rng = np.random.default_rng(seed)
    q, v, vdot = m.random_configuration(rng), rng.normal(size=m.nv), rng.normal(size=m.nv) * 10
    base = rng.normal(size=12) * [1, 1, 1, 5, 5, 5, 10, 10, 10, 100, 100, 100]
    tau = inverse_dynamics(m, m.make_data(), q, v, vdot, base=base)
    sensors = [femur_axes_cell(m, side) for side in ("Left", "Right")]
    at_hinge = [LoadCell(f"{side} hinge", joint=f"{side}_knee", body=f"{side}_upper_leg")
                for side in ("left", "right")]
    ch = {c.name: c.values[0] for c in evaluate(m, one_sample(m, q, v, vdot, base), (*sensors, *at_hinge))}
    R, p = link_poses(m, m.make_data(), q)
    for side in ("left", "right"):
        mk, b = m.marker(f"{side}_femur_load_cell"), m.body(f"{side}_upper_leg")
        lk, knee = m.body_link[b], m.joint_links[m.joint(f"{side}_knee")][-1]
        point, hinge, hip = p[lk] + R[lk] @ m.marker_p[mk], p[knee], p[lk]
        d = np.linalg.norm(point - hinge)
        assert 0.05 < d < 0.5 * np.linalg.norm(hip - hinge)          # on the femur, near the knee
        np.testing.assert_allclose(np.cross(point - hinge, hip - hinge), 0.0, atol=1e-12)
        k = list(m.dof_names).index(f"{side}_knee")
        cap, F = side.capitalize(), {a: ch[f"{side} hinge force {a}"] for a in "XYZ"}
        assert abs(tau[k]) > 1.0 and abs(d * F["X"]) > 1.0
        np.testing.assert_allclose(ch[f"{side} hinge moment Y"], tau[k], rtol=1e-9)
        np.testing.assert_allclose(ch[f"{cap} femur moment Y"], tau[k] + d * F["X"], rtol=1e-9)
        np.testing.assert_allclose(ch[f"{cap} femur moment X"], ch[f"{side} hinge moment X"] - d * F["Y"],
                                   rtol=1e-9)
        for a in "XYZ":
            np.testing.assert_array_equal(ch[f"{cap} femur force {a}"], F[a])
        np.testing.assert_allclose(ch[f"{cap} femur moment Z"], ch[f"{side} hinge moment Z"], rtol=1e-12,
                                   atol=1e-12)


def femur_axes_cell(model, side):
    """The default femur cell of ``side`` ("Left", "Right") read at its marker's point but in
    the femur's (the segment's) axes, under the default cell's name."""
    from occupant.sensors import default_sensors
    cell = next(s for s in default_sensors(model) if s.name == f"{side} femur")
    point = model.source.markers[cell.marker].position
    return LoadCell(cell.name, location=cell.location, fine1=cell.fine1, body=cell.body,
                    joint=cell.joint, point=tuple(point))


# The femur load cells' axes against the femur's (the hip-knee line), from the open FE decks'
# cell skews [S: OpenRadioss ModelExchange, CC BY-NC 4.0; dummies/tools/derive_hybrid3.py
# FEMUR_CELL_NODES]: the angle between the cell's axis and the line, deg, and its pitch about
# the femur's y (+: the cell's hip end towards the femur's +x, the seated dummy's up).
FEMUR_CELL_TILT = {"hybrid3_50m": (3.84, 3.61), "hybrid3_05f": (8.56, -8.56), "hybrid3_95m": (0.0, 0.0)}


@pytest.mark.parametrize("dummy, seed", [("hybrid3_50m", 6), ("hybrid3_05f", 8), ("hybrid3_95m", 9)])
def test_identity_femur_cell_reads_along_its_own_axes(dummy, seed):
    """The default femur cells read along their marker's axes (the decks' cell skews,
    FEMUR_CELL_TILT, the right the left's mirror image): their forces and moments are the
    femur-axis readings at the same point turned into the cell's axes by hand (R the marker's
    rotation in the femur's frame; J211 flips y and z, so the J211 reading turns by P R^T P), and
    for the 5F's pure pitch b, Fx = cos b Fx_f + sin b Fz_f, Fz = cos b Fz_f - sin b Fx_f and
    My = My_f. Fails if the cell kept the femur's axes or turned the wrong way (Fx_f, Fz_f above
    10 N here)."""
    from occupant.sensors import default_sensors
    m = load_dummy(dummy)
    rng = np.random.default_rng(seed)
    q, v, vdot = m.random_configuration(rng), rng.normal(size=m.nv), rng.normal(size=m.nv) * 10
    base = rng.normal(size=12) * [1, 1, 1, 5, 5, 5, 10, 10, 10, 100, 100, 100]
    sample = one_sample(m, q, v, vdot, base)
    cells = default_sensors(m)
    femur = [femur_axes_cell(m, side) for side in ("Left", "Right")]
    own = {c.name: c.values[0] for c in evaluate(m, sample, cells) if "femur" in c.name}
    axes = {c.name: c.values[0] for c in evaluate(m, sample, femur)}
    P = np.diag(J211)
    angle, pitch = FEMUR_CELL_TILT[dummy]
    R_left = m.source.markers["left_femur_load_cell"].rotation
    for side in ("Left", "Right"):
        R = m.source.markers[f"{side.lower()}_femur_load_cell"].rotation
        if side == "Right":
            np.testing.assert_allclose(R, np.diag([1.0, -1.0, 1.0]) @ R_left @ np.diag([1.0, -1.0, 1.0]),
                                       atol=1e-15)
        assert np.degrees(np.arccos(R[2, 2])) == pytest.approx(angle, abs=0.01)
        assert np.degrees(np.arctan2(R[0, 2], R[2, 2])) == pytest.approx(pitch, abs=0.01)
        for kind in ("force", "moment"):
            f = np.array([axes[f"{side} femur {kind} {a}"] for a in "XYZ"])
            c = np.array([own[f"{side} femur {kind} {a}"] for a in "XYZ"])
            np.testing.assert_allclose(c, P @ R.T @ P @ f, rtol=1e-12, atol=1e-9 * np.abs(f).max())
        if dummy == "hybrid3_05f":
            b = np.radians(pitch)
            F = {a: axes[f"{side} femur force {a}"] for a in "XZ"}
            assert min(abs(F["X"]), abs(F["Z"])) > 10.0
            np.testing.assert_allclose(own[f"{side} femur force X"], np.cos(b) * F["X"] + np.sin(b) * F["Z"],
                                       rtol=1e-9)
            np.testing.assert_allclose(own[f"{side} femur force Z"], np.cos(b) * F["Z"] - np.sin(b) * F["X"],
                                       rtol=1e-9)
            np.testing.assert_allclose(own[f"{side} femur moment Y"], axes[f"{side} femur moment Y"], rtol=1e-9)


@pytest.mark.parametrize("loads", [True, False])
def test_identity_inverse_dynamics_over_samples_equals_the_per_sample_calls_to_the_bit(loads):
    # what the sensors read at every sample: the batch (shapes checked once) against
    # inverse_dynamics then link_poses at each sample, with and without external loads
    from occupant.dynamics import inverse_dynamics
    from occupant.dynamics.api import inverse_dynamics_samples
    m = load_dummy("hybrid3_50m")
    rng = np.random.default_rng(4)
    n = 6
    q = np.array([m.random_configuration(rng) for _ in range(n)])
    v, vdot = rng.normal(size=(n, m.nv)), rng.normal(size=(n, m.nv)) * 10
    base = rng.normal(size=(n, 12)) * [1, 1, 1, 5, 5, 5, 10, 10, 10, 100, 100, 100]
    f_ext = rng.normal(size=(n, m.nl, 6)) * 100 if loads else None
    data = m.make_data()
    got = inverse_dynamics_samples(m, data, q, v, vdot, base, f_ext)
    one = m.make_data()
    for k in range(n):
        inverse_dynamics(m, one, q[k], v[k], vdot[k], f_ext=None if f_ext is None else f_ext[k], base=base[k])
        R, p = link_poses(m, one, q[k])
        for array, expected in zip(got, (one.v, one.a, one.f, R, p)):
            assert np.array_equal(array[k], expected)
