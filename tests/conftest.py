"""Fixtures shared by the test folders."""
import subprocess
import sys
import threading

import pytest


@pytest.fixture
def ran_alone(request):
    """For a test that forks, which the code under test refuses beside other threads (an earlier
    test's, in a whole-suite run): ``ran_alone()`` is False when this process has no other thread
    (the test goes on here); else it runs this test alone in a new interpreter, which has none,
    asserts it passed there and is True (the test returns)."""
    def ran():
        if threading.active_count() == 1:
            return False
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               request.node.nodeid], cwd=request.config.rootpath,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        return True
    return ran


@pytest.fixture(scope="session")
def pelvis_moments():
    """``pelvis_moments(model, results, contacts, lap_belt, lap_points)``: the moments on the
    pelvis about the hips by source (pelvis_moments_about_the_hips)."""
    return pelvis_moments_about_the_hips


def _belt_directions(model, results, belt, points):
    """Each segment's direction (B0, per sample: Data.belt_path, ``restraints.belt.path_lengths``)
    between the consecutive ``points`` of ``belt``: its tension T acts as T d at its first point
    and -T d at its last (along the tangent pieces), and its tangent pieces' couples per unit
    tension on its first and last points' wrap bodies (``belt_path._tangent_parts``), found by
    evaluating the model at each recorded state: (d, couple at the first, couple at the last)."""
    import numpy as np

    from occupant.integrate.pipeline import evaluate

    el, names = model.belts, model.output_names
    b = next(i for i in range(len(el.point_start) - 1)
             if names[el.out_start[i]].startswith(belt + "."))
    p0 = el.point_start[b]
    o_pts = el.out_start[b] + 4 * (el.point_start[b + 1] - p0 - 1)
    first = [p0 + (names.index(f"{belt}.{p}.x") - o_pts) // 3 for p in points[:-1]]
    bundle, data = model.bundle(base_table=None), model.make_data()
    d = np.zeros((len(first), len(results.t), 3))
    ma, mb = np.zeros_like(d), np.zeros_like(d)
    for n, t in enumerate(results.t):
        evaluate(bundle, data, t, results.q[n], results.v[n], results.z[n], 0.0)
        for s, k in enumerate(first):
            d[s, n] = data.belt_path[k, :3]
            ma[s, n], mb[s, n] = data.belt_path[k, 23:26], data.belt_path[k, 26:29]
    return d, ma, mb


def pelvis_moments_about_the_hips(model, results, contacts, lap_belt, lap_points):
    """The moments (N m, about the base's y axis through the H-point, the hips' axis; positive
    tilts the pelvis's top forward) on the pelvis of a run, each computed on its own, by source:
    the seat's normal forces and its friction on the pelvis's ``contacts`` ((ellipsoid, plane)
    pairs; the friction against the sliding of the pelvis's point at the contact, as the contact
    law takes it; a plane named seat_back counted apart), the lap belt's wraps (``lap_belt``'s
    outputs, ``lap_points`` its five points in order, the middle three on the pelvis), gravity,
    the hips' and the lumbar-pelvis joint's reactions on the pelvis (the lumbar joint's force at
    the joint and its moment apart), from the inverse dynamics of the bodies beyond each joint
    (load cells, occupant.sensors), and the pelvis's inertia, -(I alpha + omega x I omega + r_cg
    x m a_cg), from its recorded acceleration, in two: its mass decelerating with its hips, -r_cg
    x m a_H, and its turn about them (the rest). Returns (moments, {contact: sliding speed of the
    pelvis's point up the plane, forward, m/s}, times). Their sum is zero but for what none of
    them holds."""
    import numpy as np

    from occupant.constants import G0
    from occupant.sensors import evaluate
    from occupant.sensors.declarations import (Accelerometer, AngularAccelerationSensor,
                                               AngularVelocitySensor, LoadCell)

    res, t = results, results.t
    out, dt, body = res.outputs, float(t[1] - t[0]), model.body("pelvis")
    m, com, inertia = model.body_mass[body], model.body_com[body], model.body_inertia[body]
    P, R_base = res.body_poses[:, body], res.base_poses[:, :3, :3]

    def in_base(x):                  # world vectors in the base's axes (contact and belt points)
        return np.einsum("nji,nj->ni", R_base, x)
    H = in_base(P[:, :3, 3] - res.base_poses[:, :3, 3])
    R = np.einsum("nji,njk->nik", R_base, P[:, :3, :3])   # R_base_pelvis
    cg = R @ com + H
    g = in_base(np.tile([0.0, 0.0, -G0], (len(t), 1)))

    def moment(r, F):
        return r[:, 2] * F[:, 0] - r[:, 0] * F[:, 2]

    sensors = [LoadCell(name=f"{joint} {at}", body="pelvis", joint=joint, point=point)
               for joint, at, point in (("lumbar_pelvis", "H", (0.0, 0.0, 0.0)),
                                        ("lumbar_pelvis", "joint", None),
                                        ("left_hip", "H", (0.0, 0.0, 0.0)),
                                        ("right_hip", "H", (0.0, 0.0, 0.0)))]
    sensors += [Accelerometer(name="cg", body="pelvis", point="cg"),
                Accelerometer(name="H", body="pelvis", point=(0.0, 0.0, 0.0)),
                AngularAccelerationSensor(name="pelvis alpha", body="pelvis"),
                AngularVelocitySensor(name="pelvis omega", body="pelvis")]
    channels = {c.name: c.values for c in evaluate(model, res, sensors, rate=1.0 / dt)}

    def read(name):                  # J211 pelvis axes back to the model's (a half turn about x)
        return np.stack([channels[f"{name} {a}"] for a in "XYZ"], 1) * [1.0, -1.0, -1.0]

    omega = read("pelvis omega angular velocity")
    # the H-point's velocity relative to the base, pelvis axes: the free root joint's linear
    # velocity coordinates
    v_H = res.v[:, [model.dof(f"root_v{a}") for a in "xyz"]]
    M = {"seat normal": 0.0, "seat friction": 0.0, "seat back": 0.0}
    slides = {}
    for g_name, surface in contacts:
        n = np.asarray(model.source.geometries[surface].normal, float)   # the plane's, base axes
        c = f"{g_name}__{surface}"
        r = np.stack([out[f"{c}.point_{a}"] for a in "xyz"], 1) - H
        # the pelvis's point at the contact and its sliding on the plane
        v = np.einsum("nij,nj->ni", R, v_H + np.cross(omega, np.einsum("nji,nj->ni", R, r)))
        v_t = v - (v @ n)[:, None] * n
        slip = np.linalg.norm(v_t, axis=1)[:, None]
        toward = np.divide(v_t, slip, out=np.zeros_like(v_t), where=slip > 0.0)
        normal = moment(r, out[f"{c}.normal_force"][:, None] * n)
        friction = moment(r, -out[f"{c}.friction_force"][:, None] * toward)
        if surface == "seat_back":
            M["seat back"] = M["seat back"] + normal + friction
        else:
            M["seat normal"], M["seat friction"] = M["seat normal"] + normal, M["seat friction"] + friction
        slides[c] = v_t @ np.array([n[2], 0.0, -n[0]])
    X = [np.stack([out[f"{lap_belt}.{p}.{a}"] for a in "xyz"], 1) for p in lap_points]
    T = [out[f"{lap_belt}.{a}-{b}.force"] for a, b in zip(lap_points, lap_points[1:])]
    d, ma, mb = _belt_directions(model, res, lap_belt, lap_points)
    M["lap belt"] = 0.0
    for k in (1, 2, 3):      # the pulls at the wrap points, and the couples to the tangent points
        M["lap belt"] = M["lap belt"] + moment(X[k] - H, T[k][:, None] * d[k]
                                               - T[k - 1][:, None] * d[k - 1]) \
            + T[k] * ma[k][:, 1] + T[k - 1] * mb[k - 1][:, 1]
    M["gravity"] = moment(cg - H, m * g)

    def about_y(moment_pelvis):      # the base-y part of a moment in pelvis axes
        return np.einsum("nj,nj->n", R[:, 1], moment_pelvis)
    M["hips"] = about_y(read("left_hip H moment") + read("right_hip H moment"))
    M["lumbar joint moment"] = about_y(read("lumbar_pelvis joint moment"))
    M["lumbar joint force"] = about_y(read("lumbar_pelvis H moment")) - M["lumbar joint moment"]
    a_cg, a_H = (np.einsum("nij,nj->ni", R, read(f"{p} acceleration")) + g   # gravity back
                 for p in ("cg", "H"))
    spin = read("pelvis alpha angular acceleration") @ inertia + np.cross(omega, omega @ inertia)
    M["hips' deceleration"] = -moment(cg - H, m * a_H)
    M["pelvis turn"] = -(about_y(spin) + moment(cg - H, m * (a_cg - a_H)))
    return M, slides, t
