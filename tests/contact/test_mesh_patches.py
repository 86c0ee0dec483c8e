"""Several contact points per mesh pair (``Mesh.patch_size``): a ball resting in a seat's bight,
a V-shaped open mesh, is held by both of its faces at once, at the closed-form equilibrium, and
moves as against the two planes of those faces; the patching keeps a flat floor's single point
(a ball on a patched floor mesh moves as on the plane)."""
import numpy as np
import pytest
import trimesh

import occupant
from test_geometry_pairs import _floor_mesh   # the tests' rootdir-relative imports (rootdir tests/contact)
from occupant.modeling import (
    Assembly, ContactCharacteristic, ContactPair, Joint, Marker, Mesh, ModelingError, Part,
    Plane, Pose, Sphere,
)

K = 1.0e5            # N/m, linear contact stiffness [E]
DAMPING = 1.0e6      # N s/m^2: c d = 700 N s/m at the rest penetration, about 0.35 of critical
MASS, RADIUS = 10.0, 0.1
G = 9.81
S = np.sqrt(0.5)     # sin 45 deg = cos 45 deg


def _bight(length=0.3, width=0.4, n=3):
    """Two walls of n x n cells (two triangles each) meeting at 90 deg along the y axis: the
    left one z = -x (x < 0), normal (1, 0, 1)/sqrt 2, the right one z = x, normal (-1, 0, 1)/sqrt 2,
    both facing up into the valley (a cushion and a back, turned symmetric)."""
    u = np.linspace(0.0, length, n + 1)
    y = np.linspace(-width / 2, width / 2, n + 1)
    V, F = [], []
    for side in (-1.0, 1.0):
        base = len(V)
        for a in u:
            for b in y:
                V.append((side * a * S, b, a * S))
        for i in range(n):
            for j in range(n):
                p, q = base + i * (n + 1) + j, base + (i + 1) * (n + 1) + j
                tri = [(p, q, q + 1), (p, q + 1, p + 1)]
                F += tri if side > 0 else [t[::-1] for t in tri]
    mesh = trimesh.Trimesh(np.array(V), np.array(F), process=False)
    normals = mesh.face_normals
    assert np.allclose(normals[normals[:, 0] > 0], [S, 0, S]) and np.all(normals[:, 2] > 0)
    return mesh


def _ball_in(*walls, names):
    asm = Assembly("bight")
    asm.add(Part("ball", MASS, inertia=(0.04,) * 3))
    asm.add(Joint("float", "free", None, "ball", Pose()))
    asm.add(Marker("m", "ball"), Sphere("shell", "m", RADIUS), *walls)
    for w in names:
        asm.add(ContactPair(f"p_{w}", "shell", w, ContactCharacteristic(stiffness=K,
                                                                        damping=DAMPING)))
    return asm.compile()


def _settle(model, t_end=0.5):
    q0 = [0.01, 0.0, RADIUS / S + 0.002, 1.0, 0.0, 0.0, 0.0]   # off the middle, just above
    return occupant.simulate(model, t_end, q0=q0, integrator="rk4", dt=1e-4,
                             gravity=(0, 0, -G), output_dt=1e-3)


def test_analytic_ball_rests_in_a_mesh_bight_on_both_faces():
    """With patches the two walls push at once: at rest on the symmetry plane, each with
    k d, 2 k d cos 45 = m g, d = m g / (sqrt 2 k); the ball's centre at (R - d) / cos 45."""
    model = _ball_in(Mesh("seat", None, _bight(), patch_size=0.15), names=["seat"])
    names = [n for n in model.contact_names if n.startswith("p_seat")]
    assert len(names) > 2                                   # one pair per patch
    res = _settle(model)
    d_rest = MASS * G / (np.sqrt(2.0) * K)
    forces = np.array([res.outputs[f"{n}.normal_force"][-1] for n in names])
    pens = np.array([res.outputs[f"{n}.penetration"][-1] for n in names])
    touching = forces > 0
    assert touching.sum() == 2                              # one patch of each wall
    np.testing.assert_allclose(pens[touching], d_rest, rtol=1e-6)
    np.testing.assert_allclose(forces.sum() * S, MASS * G, rtol=1e-6)
    assert res.q[-1, 0] == pytest.approx(0.0, abs=1e-9)
    assert res.q[-1, 2] == pytest.approx((RADIUS - d_rest) / S, rel=1e-9)


def test_identity_patched_bight_equals_its_two_planes():
    """The ball settling into the patched bight moves as against the two unbounded planes of
    its walls (the ball never leaves them): the same states to rounding."""
    mesh = _ball_in(Mesh("seat", None, _bight(), patch_size=0.15), names=["seat"])
    planes = _ball_in(Plane("left", None, point=(0.0, 0.0, 0.0), normal=(S, 0.0, S)),
                      Plane("right", None, point=(0.0, 0.0, 0.0), normal=(-S, 0.0, S)),
                      names=["left", "right"])
    a, b = _settle(mesh, 0.2), _settle(planes, 0.2)
    assert b.outputs["p_left.normal_force"].max() > 50 and b.outputs["p_right.normal_force"].max() > 50
    np.testing.assert_allclose(a.q, b.q, rtol=0, atol=1e-12)


def test_identity_one_point_bight_is_pushed_by_one_face_at_a_time():
    """Without patches the pair has one point, the deeper face's: at every sample at most one
    wall pushes, so the ball is never held as on the two planes (the defect patches remove)."""
    model = _ball_in(Mesh("seat", None, _bight()), names=["seat"])
    assert [n for n in model.contact_names] == ["p_seat"]
    res = _settle(model, 0.2)
    f = res.outputs["p_seat.normal_force"]
    planes = _ball_in(Plane("left", None, point=(0.0, 0.0, 0.0), normal=(S, 0.0, S)),
                      Plane("right", None, point=(0.0, 0.0, 0.0), normal=(-S, 0.0, S)),
                      names=["left", "right"])
    b = _settle(planes, 0.2)
    assert np.abs(res.q[:, 2] - b.q[:, 2]).max() > 1e-4


def test_identity_patched_floor_keeps_one_point():
    """A ball dropped on a floor mesh cut into 0.1 m patches moves as on the plane: coplanar
    patches give one contact point, the one under the ball (their shared edges are flat)."""
    results = []
    for floor in (Plane("floor", None, point=(0.0, 0.0, -0.1)),
                  Mesh("floor", None, _floor_mesh(-0.1), patch_size=0.1)):
        asm = Assembly("drop")
        asm.add(Part("ball", 2.0, inertia=(0.002, 0.002, 0.002)))
        asm.add(Joint("float", "free", None, "ball", Pose()))
        asm.add(Marker("m", "ball"), Sphere("shell", "m", 0.05), floor)
        asm.add(ContactPair("p", "shell", "floor", ContactCharacteristic(
            stiffness=2e4, absorption=0.3, damping=500.0, friction=0.4, friction_speed=0.02)))
        model = asm.compile()
        res = occupant.simulate(model, 0.25, q0=[0.1, -0.2, 0, 1, 0, 0, 0],
                                v0=[0.8, 0.3, -1.0, 2.0, -3.0, 1.0], integrator="rk4",
                                dt=1e-4, gravity=(0, 0, -9.81), output_dt=1e-3)
        results.append((model, res))
    (_, plane), (model, mesh) = results
    assert len(model.contact_names) > 10
    np.testing.assert_allclose(mesh.q, plane.q, rtol=0, atol=1e-12)
    total = sum(mesh.outputs[f"{n}.normal_force"] for n in model.contact_names)
    np.testing.assert_allclose(total, plane.outputs["p.normal_force"], rtol=0, atol=1e-8)


def test_bad_patch_size_names_the_mesh():
    with pytest.raises(ModelingError, match=r"mesh 'seat'.patch_size"):
        Mesh("seat", None, _bight(), patch_size=-0.1)
