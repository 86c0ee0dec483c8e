"""Ellipsoid-ellipsoid compliant contact: the Newton minimisation of the overlap along a
direction against the closed form of two spheres, a brute-force search over sampled directions
and, apart, the distance of sampled surface points; momentum and energy of two colliding bodies."""
import numpy as np
import pytest
from scipy.spatial import cKDTree

import occupant
from occupant.contact.compliant import signed_distances
from occupant.integrate.pipeline import evaluate
from occupant.modeling import (
    Assembly, Part, Joint, Pose, Marker, Sphere, Ellipsoid, ContactPair, ContactCharacteristic,
)
from occupant.spatial.rotation import matrix_to_quat, quat_exp, quat_to_matrix

AXES_A, AXES_B = np.array([0.12, 0.07, 0.05]), np.array([0.09, 0.08, 0.04])


def _rotation(rv):
    """Rotation matrix of the rotation vector rv (axis times angle, rad)."""
    return quat_to_matrix(quat_exp(np.asarray(rv, float)))


_quat = matrix_to_quat


def _pair(geo_a, geo_b, **characteristic):
    """Two free bodies, each carrying one geometry on an offset, rotated marker."""
    asm = Assembly("pair")
    for body, mass, geo, rv in (("a", 3.0, geo_a, [0.3, -0.5, 0.2]), ("b", 4.0, geo_b, [-0.4, 0.1, 0.6])):
        asm.add(Part(body, mass, inertia=(0.02, 0.03, 0.04)))
        asm.add(Joint(f"float_{body}", "free", None, body, Pose()))
        asm.add(Marker(f"m_{body}", body, (0.01, -0.02, 0.03), _rotation(rv)))
        geo.marker = f"m_{body}"
        asm.add(geo)
    char = dict(stiffness=1e5, friction=0.3, friction_speed=0.01)
    char.update(characteristic)
    asm.add(ContactPair("touch", geo_a.name, geo_b.name, ContactCharacteristic(**char)))
    return asm.compile()


def _state(model, poses):
    """q from [(position, rotation vector)] per body; the centres and Q = G A^2 G^T in B0."""
    q = np.concatenate([np.concatenate([x, _quat(_rotation(rv))]) for x, rv in poses])
    frames = []
    for (x, rv), body in zip(poses, "ab"):
        marker = model.source.markers[f"m_{body}"]
        frames.append((x + _rotation(rv) @ marker.position, _rotation(rv) @ marker.rotation))
    return q, frames


def _evaluate(model, q, v=None, bundle=None):
    data = model.make_data()
    v = np.zeros(model.nv) if v is None else v
    evaluate(bundle or model.bundle(), data, 0.0, q, v, np.zeros(model.nz), 0.0)
    return data, dict(zip(model.output_names, data.outputs))


def test_analytic_two_spheres():
    """Spheres: d = r_a + r_b - |c_b - c_a|, the contact point midway between the deepest points
    on the line of centres, the normal force k d."""
    model = _pair(Sphere("ball_a", "", 0.1), Sphere("ball_b", "", 0.07))
    q, ((ca, _), (cb, _)) = _state(model, [((0.0, 0.0, 0.0), (0.1, 0.2, 0.3)),
                                           ((0.09, -0.08, 0.11), (0.5, -0.2, 0.1))])
    data, out = _evaluate(model, q)
    dist = np.linalg.norm(cb - ca)
    u = (cb - ca) / dist
    d = 0.17 - dist
    assert d > 0
    assert out["touch.penetration"] == pytest.approx(d, abs=1e-15)
    point = np.array([out[f"touch.point_{a}"] for a in "xyz"])
    np.testing.assert_allclose(point, 0.5 * (ca + 0.1 * u + cb - 0.07 * u), rtol=0, atol=1e-15)
    assert out["touch.normal_force"] == pytest.approx(1e5 * d, rel=1e-12)


def _overlap(m, ca, Qa, cb, Qb):
    """f(m) = h_a(m) + h_b(-m) - m.(c_b - c_a) for unit rows m."""
    return (np.sqrt(np.einsum("ni,ij,nj->n", m, Qa, m)) + np.sqrt(np.einsum("ni,ij,nj->n", m, Qb, m))
            - m @ (cb - ca))


@pytest.mark.parametrize("offset", [(0.06, 0.01, 0.0), (0.0, 0.05, 0.03), (0.03, 0.02, -0.07)])
def test_identity_penetration_against_sampled_directions(offset):
    """Overlapping ellipsoids: the Newton minimum of the overlap equals the least overlap over
    4 10^5 random directions (which can only be larger, by the curvature times the squared
    spacing of the samples)."""
    model = _pair(Ellipsoid("egg_a", "", AXES_A), Ellipsoid("egg_b", "", AXES_B))
    q, ((ca, Ga), (cb, Gb)) = _state(model, [((0.0, 0.0, 0.0), (0.7, 0.2, -0.4)),
                                             (offset, (-0.3, 0.9, 0.2))])
    data, out = _evaluate(model, q)
    Qa, Qb = Ga @ np.diag(AXES_A**2) @ Ga.T, Gb @ np.diag(AXES_B**2) @ Gb.T
    m = np.random.default_rng(2).normal(size=(400000, 3))
    m /= np.linalg.norm(m, axis=1)[:, None]
    f = _overlap(m, ca, Qa, cb, Qb)
    d = out["touch.penetration"]
    assert d > 0
    assert d <= f.min() + 1e-15
    assert f.min() - d < 5e-5
    # the force on a (at rest: no friction) acts along minus the best sampled direction
    link_a = model.body_link[model.body("a")]
    force_a = data.R_base_link[link_a] @ data.f_ext[link_a, 3:]
    assert np.linalg.norm(force_a) == pytest.approx(out["touch.normal_force"], rel=1e-12)
    assert np.degrees(np.arccos(-force_a @ m[np.argmin(f)] / np.linalg.norm(force_a))) < 1.0


def test_identity_apart_every_output_is_zero_and_the_query_gives_the_distance():
    """Apart every output of the pair is 0, whether the broad phase culls it or the narrow phase
    runs (``CONTACT_OUTPUTS``: before branch gapoutput the narrow phase read the gap, -140.5 mm,
    but the culled pair minus the gap between its bounding spheres, -43.5 mm, neither 0 nor the
    gap); ``compliant.signed_distances``, minus the minimum of the overlap, is the distance
    between the surfaces: against the closest pair of 2 10^5 sampled surface points of each
    (larger by the sampling spacing)."""
    model = _pair(Ellipsoid("egg_a", "", AXES_A), Ellipsoid("egg_b", "", AXES_B))
    q, ((ca, Ga), (cb, Gb)) = _state(model, [((0.0, 0.0, 0.0), (0.7, 0.2, -0.4)),
                                             ((0.15, 0.12, 0.09), (-0.3, 0.9, 0.2))])
    _, culled = _evaluate(model, q)
    bundle = model.bundle()
    _, out = _evaluate(model, q, bundle=bundle._replace(
        contacts=bundle.contacts._replace(broad_phase=0)))
    rng = np.random.default_rng(3)
    clouds = []
    for c, G, axes in ((ca, Ga, AXES_A), (cb, Gb, AXES_B)):
        u = rng.normal(size=(200000, 3))
        clouds.append(c + (u / np.linalg.norm(u, axis=1)[:, None] * axes) @ G.T)
    gap = cKDTree(clouds[1]).query(clouds[0])[0].min()
    assert gap > 0.1
    for res in (culled, out):
        assert all(v == 0.0 for k, v in res.items() if k.startswith("touch.")), res
    d = signed_distances(model, q)["touch"]
    assert -d <= gap + 1e-15
    assert gap + d < 2e-3 * gap


def test_identity_collision_conserves_momentum_and_closes_energy():
    """Two spinning ellipsoids thrown at each other without gravity, with hysteresis, damping and
    friction: the total momentum stays what it was (the contact forces are equal and opposite),
    and kinetic energy lost equals minus the contact's work to 1e-6 of the energy exchanged
    (RK4, 1e-5 s)."""
    model = _pair(Ellipsoid("egg_a", "", AXES_A), Ellipsoid("egg_b", "", AXES_B),
                  absorption=0.4, damping=3e4, friction=0.4, friction_speed=0.02)
    q, _ = _state(model, [((0.0, 0.0, 0.0), (0.7, 0.2, -0.4)), ((0.28, 0.03, 0.02), (-0.3, 0.9, 0.2))])
    # free-joint velocities: the origin's velocity and the angular velocity, in body axes
    v = np.concatenate([_rotation((0.7, 0.2, -0.4)).T @ [1.5, 0.1, 0.0], [2.0, -3.0, 4.0],
                        _rotation((-0.3, 0.9, 0.2)).T @ [-1.0, 0.0, 0.2], [-5.0, 1.0, 2.0]])
    res = occupant.simulate(model, 0.15, q0=q, v0=v, integrator="rk4", dt=1e-5, gravity=(0, 0, 0),
                            output_dt=1e-3)
    mass = model.body_mass
    e = res.energy
    exchanged = max(np.abs(e["total"] - e["total"][0]).max(), np.abs(e["work"]).max())
    assert np.abs(e["balance"]).max() < 1e-6 * exchanged
    assert res.work["contacts"][-1] < -0.05 * e["total"][0]
    assert res.outputs["touch.friction_force"].max() > 1.0
    assert res.outputs["touch.penetration"].max() > 1e-3
    # momentum from the recorded link velocities: sum over bodies of m (v_origin + w x c)
    p = np.zeros((len(res.t), 3))
    for b in range(model.nb):
        R = res.body_poses[:, b, :3, :3]
        k = 6 * b
        v_lin, w = res.v[:, k:k + 3], res.v[:, k + 3:k + 6]
        p += mass[b] * np.einsum("nij,nj->ni", R, v_lin + np.cross(w, model.body_com[b]))
    np.testing.assert_allclose(p, np.broadcast_to(p[0], p.shape), rtol=0, atol=1e-9 * np.abs(p[0]).max())
