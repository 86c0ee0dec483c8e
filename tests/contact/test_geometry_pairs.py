"""Ellipsoid and sphere against boxes, bounded planes' edges, cylinders and triangle meshes:
closed forms for spheres (the distance to the nearest feature), the minimum over directions of
the overlap f(n) = h_E(n) + h_K(n) - n.c (brute force over sampled directions, refined) for
ellipsoids, meshes of a box and an icosphere against the analytic box and sphere, a ball on a
mesh floor against the ball on a plane, the broad phase against no broad phase, and the energy
balance with the new pairs."""
import numpy as np
import pytest
import trimesh
from scipy.optimize import minimize

import occupant
from occupant.integrate.pipeline import evaluate
from occupant.model.bundle import CONTACT_OUTPUTS
from occupant.modeling import (
    Assembly, Part, Joint, Pose, Marker, Sphere, Ellipsoid, Plane, Box, Cylinder, Mesh,
    ContactPair, ContactCharacteristic,
)
import occupant.modeling.compile_contacts as compile_contacts
from occupant.contact.compliant import signed_distances
from occupant.spatial.rotation import matrix_to_quat, quat_exp, quat_to_matrix

K, RADIUS = 1.0e5, 0.05
SEMI = np.array([0.07, 0.045, 0.03])
HALF = np.array([0.2, 0.15, 0.1])


def _rotation(rv):
    return quat_to_matrix(quat_exp(np.asarray(rv, float)))


R_B, P_B = _rotation([0.3, -0.2, 0.5]), np.array([0.1, -0.05, 0.02])   # geometry b in B0


def _model(geo_b, geo_a=None, **characteristic):
    """A free body carrying geometry a (default a sphere of RADIUS) on an offset, rotated
    marker, against geometry b."""
    geo_a = geo_a or Sphere("ball", "m", RADIUS)
    asm = Assembly("geo")
    asm.add(Part("body", 3.0, inertia=(0.02, 0.03, 0.04)))
    asm.add(Joint("float", "free", None, "body", Pose()))
    asm.add(Marker("m", "body", (0.01, -0.02, 0.03), _rotation([0.3, -0.5, 0.2])))
    asm.add(geo_a, geo_b)
    char = dict(stiffness=K)
    char.update(characteristic)
    asm.add(ContactPair("p", geo_a.name, geo_b.name, ContactCharacteristic(**char)))
    return asm.compile()


def _q(model, centre_local, R_local=np.eye(3)):
    """q placing geometry a's centre at centre_local and its axes at R_local, both in the frame
    of geometry b (R_B, P_B in B0)."""
    marker = model.source.markers["m"]
    R_geo = R_B @ R_local
    R_body = R_geo @ marker.rotation.T
    x_body = P_B + R_B @ centre_local - R_body @ marker.position
    return np.concatenate([x_body, matrix_to_quat(R_body)])


def _contact(model, q, bundle=None):
    """(penetration, force on a in b's frame, contact point in b's frame, outputs)."""
    data = model.make_data()
    evaluate(bundle or model.bundle(), data, 0.0, q, np.zeros(6), np.zeros(model.nz), 0.0)
    out = dict(zip(model.output_names, data.outputs))
    force = R_B.T @ data.R_base_link[0] @ data.f_ext[0, 3:]
    point = R_B.T @ (np.array([out[f"p.point_{a}"] for a in "xyz"]) - P_B)
    return out["p.penetration"], force, point, out


def _check_sphere(model, c, d, n):
    """Penetration d, force K d n, contact point midway between the sphere's and b's deepest."""
    pen, force, point, _ = _contact(model, _q(model, c))
    assert d > 0
    assert pen == pytest.approx(d, abs=1e-14)
    np.testing.assert_allclose(force, K * d * n, rtol=0, atol=1e-9)
    np.testing.assert_allclose(point, c - (RADIUS - 0.5 * d) * n, rtol=0, atol=1e-14)


def _unit(v):
    v = np.asarray(v, float)
    return v / np.linalg.norm(v)


@pytest.mark.parametrize("offset, normal", [
    ((0.05, 0.02, 0.14), (0, 0, 1)),                       # face
    ((-0.23, 0.01, 0.12), (-0.03, 0, 0.02)),               # edge
    ((0.22, -0.17, -0.12), (0.02, -0.02, -0.02)),          # corner
    ((0.03, 0.0, 0.08), (0, 0, 1)),                        # centre inside: nearest face
])
def test_analytic_sphere_box_face_edge_corner(offset, normal):
    """Sphere against a box: d = r - (distance from the centre to the box), along the line from
    the nearest point; centre inside: r + distance to the nearest face."""
    model = _model(Box("box", None, HALF, position=P_B, rotation=R_B))
    c = np.array(offset)
    nearest = np.clip(c, -HALF, HALF)
    if np.all(np.abs(c) < HALF):
        axis = np.argmin(HALF - np.abs(c))
        d = RADIUS + HALF[axis] - abs(c[axis])
    else:
        d = RADIUS - np.linalg.norm(c - nearest)
    _check_sphere(model, c, d, _unit(normal))


def _brute_force(Q, c, support):
    """min over unit n of f(n) = sqrt(n Q n) + support(n) - n.c: the best of 2e5 sampled
    directions, refined by Nelder-Mead on the tangent plane there."""
    rng = np.random.default_rng(0)
    n = rng.normal(size=(200000, 3))
    n /= np.linalg.norm(n, axis=1)[:, None]
    f = np.sqrt(np.einsum("ni,ij,nj->n", n, Q, n)) + support(n) - n @ c
    n0 = n[np.argmin(f)]
    t = _unit(np.cross(n0, [1, 0, 0] if abs(n0[0]) < 0.6 else [0, 1, 0]))
    u = np.cross(n0, t)

    def fun(x):
        m = _unit(n0 + x[0] * t + x[1] * u)[None, :]
        return (np.sqrt(m @ Q @ m.T) + support(m) - m @ c).item()

    best = minimize(fun, [0.0, 0.0], method="Nelder-Mead",
                    options=dict(xatol=1e-13, fatol=1e-16, maxiter=4000))
    return best.fun, _unit(n0 + best.x[0] * t + best.x[1] * u)


def _random_cases(shape_support, n_cases, scale, seed):
    """Random ellipsoid poses (centre, axes) around a shape with a positive brute-force depth."""
    rng = np.random.default_rng(seed)
    cases = []
    while len(cases) < n_cases:
        R = _rotation(rng.normal(size=3))
        Q = R @ np.diag(SEMI**2) @ R.T
        c = rng.uniform(-1, 1, 3) * scale
        d, n = _brute_force(Q, c, shape_support)
        if 0.001 < d < 0.02:
            cases.append((c, R, d, n))
    return cases


def _check_ellipsoid(model, cases, tol):
    kinds = set()
    for c, R, d, n in cases:
        pen, force, point, _ = _contact(model, _q(model, c, R))
        assert pen == pytest.approx(d, abs=tol)
        np.testing.assert_allclose(force / np.linalg.norm(force), n, atol=1e-4)
        assert np.linalg.norm(force) == pytest.approx(K * d, abs=K * tol)
        kinds.add(int(np.sum(np.abs(n) > 1e-6)))
    return kinds


def test_analytic_ellipsoid_box_against_minimum_over_directions():
    """Ellipsoid against a box, random poses touching faces, edges and corners: penetration and
    normal equal the minimum of h_E(n) + sum e_i |n_i| - n.c over unit n."""
    model = _model(Box("box", None, HALF, position=P_B, rotation=R_B),
                   Ellipsoid("egg", "m", SEMI))
    cases = _random_cases(lambda n: np.abs(n) @ HALF, 24, HALF + 0.06, 1)
    kinds = _check_ellipsoid(model, cases, 1e-9)
    assert kinds == {1, 2, 3}      # faces, edges and corners were all met


def test_analytic_sphere_against_bounded_plane_edge_and_continuity():
    """Beyond the rectangle of a bounded plane the sphere touches its edge (d = r - distance to
    the edge) or corner; the force is continuous across the border."""
    hu, hw = 0.2, 0.3
    model = _model(Plane("slab", None, point=P_B, normal=R_B[:, 2], x_axis=R_B[:, 0],
                         half_size=(hu, hw)))
    c = np.array([hu + 0.02, 0.1, 0.03])
    _check_sphere(model, c, RADIUS - np.hypot(0.02, 0.03), _unit([0.02, 0, 0.03]))
    c = np.array([-hu - 0.02, hw + 0.01, 0.02])
    _check_sphere(model, c, RADIUS - np.linalg.norm([0.02, 0.01, 0.02]), _unit([-0.02, 0.01, 0.02]))
    forces = [_contact(model, _q(model, np.array([hu + dx, 0.1, 0.03])))[1] for dx in (-1e-9, 1e-9)]
    np.testing.assert_allclose(forces[0], forces[1], rtol=0, atol=1e-9 * K)
    egg = _model(Plane("slab", None, point=P_B, normal=R_B[:, 2], x_axis=R_B[:, 0],
                       half_size=(hu, hw)), Ellipsoid("egg", "m", SEMI))
    R = _rotation([0.4, 0.9, -0.3])
    Q = R @ np.diag(SEMI**2) @ R.T
    for x in np.linspace(hu - 0.01, hu + 0.03, 9):       # across the border: the thin plate
        c = np.array([x, 0.1, 0.02])
        d, n = _brute_force(Q, c, lambda m: hu * np.abs(m[:, 0]) + hw * np.abs(m[:, 1]))
        pen, force, _, _ = _contact(egg, _q(egg, c, R))
        assert pen == pytest.approx(max(d, 0.0), abs=1e-9)      # 0 apart (CONTACT_OUTPUTS)


def test_analytic_sphere_against_a_plate_with_thickness():
    """A bounded plane with a thickness t is the plate behind its rectangle: in front of the
    face and beyond its border the same contact as the thin rectangle's; behind the plate,
    within the rectangle, the back face pushes the sphere back (d = r - distance to the back,
    along -normal), where the thin rectangle's face pushes it through to the front (d = r +
    distance to the face)."""
    hu, hw, t = 0.2, 0.3, 0.03
    plane = dict(point=P_B, normal=R_B[:, 2], x_axis=R_B[:, 0], half_size=(hu, hw))
    thin, plate = _model(Plane("slab", None, **plane)), _model(Plane("slab", None, **plane, thickness=t))
    for c in ([0.05, 0.1, 0.03], [hu + 0.02, 0.1, 0.03], [-hu - 0.02, hw + 0.01, 0.02]):
        a, b = _contact(thin, _q(thin, np.array(c))), _contact(plate, _q(plate, np.array(c)))
        assert b[0] == pytest.approx(a[0], abs=1e-14)
        np.testing.assert_allclose(b[1], a[1], rtol=0, atol=1e-9)
    c = np.array([0.05, 0.1, -t - 0.03])                    # behind the plate
    _check_sphere(plate, c, RADIUS - 0.03, np.array([0.0, 0.0, -1.0]))
    assert _contact(thin, _q(thin, c))[0] == pytest.approx(RADIUS + t + 0.03, abs=1e-14)
    c = np.array([0.05, 0.1, -0.4 * t])                     # inside it: the nearer face
    _check_sphere(plate, c, RADIUS + 0.4 * t, np.array([0.0, 0.0, 1.0]))
    with pytest.raises(occupant.modeling.ModelingError, match="thickness"):
        Plane("slab", None, point=P_B, thickness=t)


# The US NCAP driver's left hand as it came back inboard behind the steering wheel's rim (main
# 6ac0d4c with restraints.belt.across = 0.3, the last sample before the run stopped, 99.7 ms):
# its shell's centre and axes in the rim's frame (x_axis, normal x x_axis, normal), and its
# velocity there (m/s) [D: scenarios/HISTORY.md, lapfriction]
HAND_CENTRE = np.array([0.0322, 0.1899, -0.1058])
HAND_AXES = np.array([[0.3651, 0.0947, -0.9261], [0.2158, 0.9591, 0.1832], [0.9056, -0.2667, 0.3297]])
HAND_VELOCITY = np.array([-1.27, -6.97, -0.36])
HAND_SEMI = (0.06154, 0.0401, 0.08112)     # m, hand_shell (dummies/hybrid3_50m.toml)


def test_reference_a_hand_behind_the_rim_is_not_pushed_through_it():
    """The hand that slid off the rim and swung past the wheel's face comes back
    inboard behind it (HAND_*): along its path, 1 mm a step over the 8 ms before and after it
    re-entered the square, the shipped rim (vehicles/midsize_sedan_driver.toml, a plate of the
    rim's thickness) never pushes it towards the driver through the wheel, and its penetration
    stays below the plate's thickness. Without the thickness (main 6ac0d4c) the face caught it
    from behind: 168.6 mm at once (beyond the 162.2 mm penetration guard), 58.5 kN."""
    from occupant.scenario.interior import load_interior
    rim = next(s for s in load_interior("midsize_sedan_driver").surfaces if s.name == "steering_wheel_rim")
    assert rim.thickness is not None
    axes = rim.axes
    plane = Plane("rim", None, point=P_B, normal=R_B @ axes.T @ rim.normal,
                  x_axis=R_B @ axes.T @ rim.x_axis, half_size=rim.half_size, thickness=rim.thickness,
                  radius=rim.radius)
    model = _model(plane, Ellipsoid("hand", "m", HAND_SEMI))
    worst = 0.0
    for s in np.linspace(-0.008, 0.008, 17):
        c = HAND_CENTRE + s * HAND_VELOCITY
        pen, force, _, _ = _contact(model, _q(model, c, HAND_AXES))
        worst = max(worst, pen)
        assert force[2] <= 1e-9, s                         # never towards the driver
    assert worst < rim.thickness


DISC = 0.19    # m, a steering wheel rim's radius (vehicles/midsize_sedan_driver.toml)


def test_analytic_sphere_against_a_disc_not_its_square():
    """A plane bounded by a disc of radius R (``radius``): within it the one-sided plane contact
    (in front d = r - z, behind d = r + |z|, pushed to the front), beyond its circle the
    circle's (d = r - distance to the circle, along the line from its nearest point). In the
    corner region of the square of half-size R, outside the circle, a sphere behind the plane
    meets only the circle, where the square's face pushed it through to the front."""
    disc = _model(Plane("wheel", None, point=P_B, normal=R_B[:, 2], x_axis=R_B[:, 0], radius=DISC))
    square = _model(Plane("wheel", None, point=P_B, normal=R_B[:, 2], x_axis=R_B[:, 0],
                          half_size=(DISC, DISC)))
    _check_sphere(disc, np.array([0.1, -0.08, 0.03]), RADIUS - 0.03, np.array([0.0, 0.0, 1.0]))
    _check_sphere(disc, np.array([0.1, -0.08, -0.02]), RADIUS + 0.02, np.array([0.0, 0.0, 1.0]))
    for c in ([0.16, 0.16, -0.02], [-0.17, 0.15, 0.01]):       # the square's corner region
        c = np.array(c)
        edge = np.array([*(DISC * _unit(c[:2])), 0.0])
        _check_sphere(disc, c, RADIUS - np.linalg.norm(c - edge), _unit(c - edge))
        assert np.all(np.abs(c[:2]) < DISC)
    c = np.array([0.16, 0.16, -0.02])
    _check_sphere(square, c, RADIUS + 0.02, np.array([0.0, 0.0, 1.0]))
    pen, force, _, _ = _contact(disc, _q(disc, np.array([0.2, 0.2, -0.02])))   # clear of it
    assert pen == 0.0 and np.all(force == 0.0)
    rim = np.array([*(DISC * _unit([0.3, 0.4])), 0.03])        # across the circle: continuous
    forces = [_contact(disc, _q(disc, rim * (1.0 + dx)))[1] for dx in (-1e-9, 1e-9)]
    np.testing.assert_allclose(forces[0], forces[1], rtol=0, atol=1e-6 * K)


def test_analytic_ellipsoid_against_a_disc_against_minimum_over_directions():
    """Ellipsoid in front of a disc, across its circle: the minimum over n of
    h_E(n) + R |n_xy| - n.c (the disc's support function)."""
    egg = _model(Plane("wheel", None, point=P_B, normal=R_B[:, 2], x_axis=R_B[:, 0], radius=DISC),
                 Ellipsoid("egg", "m", SEMI))
    R = _rotation([0.4, 0.9, -0.3])
    Q = R @ np.diag(SEMI**2) @ R.T
    direction = _unit([0.6, 0.8, 0.0])
    for x in np.linspace(DISC - 0.01, DISC + 0.03, 9):
        c = x * direction + np.array([0.0, 0.0, 0.02])
        d, n = _brute_force(Q, c, lambda m: DISC * np.hypot(m[:, 0], m[:, 1]))
        pen, force, _, _ = _contact(egg, _q(egg, c, R))
        assert pen == pytest.approx(max(d, 0.0), abs=1e-9)      # 0 apart (CONTACT_OUTPUTS)
        if d > 1e-6:
            np.testing.assert_allclose(force / np.linalg.norm(force), n, atol=1e-4)


def test_analytic_sphere_against_a_disc_plate_and_bad_bounds():
    """A disc with a thickness t is the flat cylinder behind it: behind it the back face pushes
    the sphere back (d = r - distance to the back), in front the thin disc's contact; a plane
    takes half_size or radius, not both."""
    t = 0.03
    plane = dict(point=P_B, normal=R_B[:, 2], x_axis=R_B[:, 0], radius=DISC)
    thin, plate = _model(Plane("w", None, **plane)), _model(Plane("w", None, **plane, thickness=t))
    for c in ([0.05, 0.1, 0.03], [0.16, 0.16, 0.02]):
        a, b = _contact(thin, _q(thin, np.array(c))), _contact(plate, _q(plate, np.array(c)))
        assert b[0] == pytest.approx(a[0], abs=1e-14)
        np.testing.assert_allclose(b[1], a[1], rtol=0, atol=1e-9)
    _check_sphere(plate, np.array([0.05, 0.1, -t - 0.03]), RADIUS - 0.03, np.array([0.0, 0.0, -1.0]))
    with pytest.raises(occupant.modeling.ModelingError, match="half_size or radius, not both"):
        Plane("w", None, point=P_B, half_size=(0.1, 0.1), radius=0.1)
    for bad in (-0.1, (0.1, 0.2)):
        with pytest.raises(occupant.modeling.ModelingError, match="radius"):
            Plane("w", None, point=P_B, radius=bad)


HEAD = 0.09    # m, a head-sized ball (the 50M's head shell: semi-axes 79-101 mm)


def test_reference_a_head_on_the_wheel_rim_takes_the_rims_law():
    """A head-sized ball pressed into the driver's wheel as shipped (vehicles/
    midsize_sedan_driver.toml: steering_wheel_rim, a disc plate, and its characteristic, the
    column's stroke), at rest, by a depth d: the force is the law's F(d) along the line from the
    plate's nearest point to the ball's centre, d = r - that distance. On the face inside the
    rim (where the bag-less 50M's head meets it, 80-110 mm from the axis): along the wheel's
    normal. Over the rim's top, beside the plate: outward, away from the axis, so a head
    coming over the top is pushed up and out, not through the wheel; over the face's edge:
    from the edge's circle."""
    from dataclasses import asdict

    from occupant.scenario.interior import load_interior
    interior = load_interior("midsize_sedan_driver")
    rim = next(s for s in interior.surfaces if s.name == "steering_wheel_rim")
    law = interior.characteristics[interior.defaults["steering_wheel_rim"]]
    assert law.name == "steering_wheel"
    R, t = rim.radius, rim.thickness
    model = _model(Plane("rim", None, point=P_B, normal=R_B[:, 2], x_axis=R_B[:, 0], radius=R,
                         thickness=t), Sphere("head", "m", HEAD), **asdict(law))
    table = np.asarray(law.table, float)
    u = _unit([0.6, 0.8, 0.0])                               # a radial direction in the face
    for c, d, n in (
            (0.09 * u + [0.0, 0.0, HEAD - 0.03], 0.03, [0.0, 0.0, 1.0]),          # the face
            ((R + HEAD - 0.04) * u + [0.0, 0.0, -0.5 * t], 0.04, u),              # the rim's side
            ((R + 0.03) * u + [0.0, 0.0, 0.04], HEAD - 0.05, _unit([*(0.03 * u[:2]), 0.04]))):
        pen, force, _, _ = _contact(model, _q(model, np.asarray(c, float)))
        assert pen == pytest.approx(d, abs=1e-12)
        np.testing.assert_allclose(force, np.interp(d, table[:, 0], table[:, 1]) * np.asarray(n),
                                   rtol=1e-9, atol=1e-6)


@pytest.mark.parametrize("ends", ["flat", "round"])
def test_analytic_sphere_cylinder_side_cap_rim(ends):
    """Sphere against a cylinder of radius 0.04 and length 0.3: side d = r + R - rho; flat cap
    d = r - (z - L/2); rim d = r - distance to the rim circle; round end (capsule)
    d = r + R - |c - end|."""
    R_c, L = 0.04, 0.15
    model = _model(Cylinder("rim", None, R_c, 2 * L, ends=ends, position=P_B, rotation=R_B))
    c = np.array([0.06, 0.03, 0.05])                                       # side
    rho = np.hypot(c[0], c[1])
    _check_sphere(model, c, RADIUS + R_c - rho, _unit([c[0], c[1], 0]))
    if ends == "flat":
        c = np.array([0.01, -0.02, L + 0.03])                              # cap
        _check_sphere(model, c, RADIUS - 0.03, np.array([0, 0, 1.0]))
        c = np.array([0.05, 0.02, L + 0.02])                               # rim
        rim = np.array([*(R_c * _unit(c[:2])), L])
        _check_sphere(model, c, RADIUS - np.linalg.norm(c - rim), _unit(c - rim))
    else:
        c = np.array([0.03, 0.02, L + 0.05])                               # hemispherical end
        end = np.array([0, 0, L])
        _check_sphere(model, c, RADIUS + R_c - np.linalg.norm(c - end), _unit(c - end))


@pytest.mark.parametrize("ends", ["flat", "round"])
def test_analytic_ellipsoid_cylinder_against_minimum_over_directions(ends):
    """Ellipsoid against a cylinder: the minimum over n of h_E(n) + h_C(n) - n.c with
    h_C = L |n_z| + R |n_xy| (flat ends) or L |n_z| + R (round ends)."""
    R_c, L = 0.04, 0.15
    model = _model(Cylinder("rim", None, R_c, 2 * L, ends=ends, position=P_B, rotation=R_B),
                   Ellipsoid("egg", "m", SEMI))
    if ends == "flat":
        support = lambda n: L * np.abs(n[:, 2]) + R_c * np.hypot(n[:, 0], n[:, 1])
    else:
        support = lambda n: L * np.abs(n[:, 2]) + R_c
    cases = _random_cases(support, 16, np.array([0.12, 0.12, L + 0.08]), 2)
    _check_ellipsoid(model, cases, 1e-9)


def _box_mesh():
    return trimesh.creation.box(extents=2 * HALF)


@pytest.mark.parametrize("offset, normal", [
    ((0.05, 0.02, 0.14), (0, 0, 1)),                       # face
    ((-0.12, 0.07, 0.13), (0, 0, 1)),                      # face, across a face diagonal
    ((-0.23, 0.01, 0.12), (-0.03, 0, 0.02)),               # edge
    ((0.22, -0.17, -0.12), (0.02, -0.02, -0.02)),          # corner
])
def test_analytic_sphere_against_box_mesh(offset, normal):
    """The 12-triangle mesh of the box gives the analytic box's face, edge and corner contacts."""
    model = _model(Mesh("box", None, _box_mesh(), position=P_B, rotation=R_B))
    c = np.array(offset)
    _check_sphere(model, c, RADIUS - np.linalg.norm(c - np.clip(c, -HALF, HALF)), _unit(normal))


def test_identity_ellipsoid_on_box_mesh_equals_box():
    """Random ellipsoid poses over the box's faces, edges and corners: the box mesh gives the
    minimum over directions of the analytic box, except where the ellipsoid's deepest points
    along two faces' normals both fall inside those faces (an elongated ellipsoid across an
    edge): the mesh then takes the deeper face, checked in closed form, the box the minimum."""
    mesh = _model(Mesh("box", None, _box_mesh(), position=P_B, rotation=R_B),
                  Ellipsoid("egg", "m", SEMI))
    cases = _random_cases(lambda n: np.abs(n) @ HALF, 24, HALF + 0.06, 1)
    same, deeper = [], []
    for case in cases:
        c, R, d, n = case
        pen = _contact(mesh, _q(mesh, c, R))[0]
        if abs(pen - d) <= 1e-9:
            same.append(case)
            continue
        Q = R @ np.diag(SEMI**2) @ R.T
        faces = []
        for i in range(3):
            for sign in (-1.0, 1.0):
                nf = sign * np.eye(3)[i]
                h = np.sqrt(nf @ Q @ nf)
                s = c - Q @ nf / h
                if np.all(np.abs(np.delete(s, i)) <= np.delete(HALF, i)):
                    faces.append(h - nf @ (c - sign * HALF[i] * np.eye(3)[i]))
        assert len(faces) >= 2 and pen == pytest.approx(max(faces), abs=1e-12) and pen > d
        deeper.append(case)
    assert len(deeper) <= 2
    assert _check_ellipsoid(mesh, same, 1e-9) == {1, 2, 3}


def test_identity_sphere_against_icosphere_mesh_and_its_grid():
    """Sphere against an icosphere mesh (radius 0.1, 1280 faces, inscribed in the sphere):
    d_sphere - R (1 - cos t) <= d_mesh <= d_sphere, R cos t the faces' least distance from the
    centre; the grid finds what a single cell holding every face finds."""
    R_ico = 0.1
    ico = trimesh.creation.icosphere(subdivisions=3, radius=R_ico)
    inner = np.min(np.einsum("ij,ij->i", ico.face_normals, ico.vertices[ico.faces[:, 0]]))
    model = _model(Mesh("ico", None, ico, position=P_B, rotation=R_B))
    cells = compile_contacts.GRID_CELLS_MAX
    compile_contacts.GRID_CELLS_MAX = 1
    try:
        one_cell = _model(Mesh("ico", None, ico, position=P_B, rotation=R_B))
    finally:
        compile_contacts.GRID_CELLS_MAX = cells
    assert one_cell.contacts.mesh_grid_int[0, 1:].tolist() == [1, 1, 1]
    assert np.prod(model.contacts.mesh_grid_int[0, 1:]) > 100
    rng = np.random.default_rng(4)
    for _ in range(40):
        u = _unit(rng.normal(size=3))
        c = (R_ico + RADIUS - rng.uniform(0.002, 0.02)) * u
        d = R_ico + RADIUS - np.linalg.norm(c)
        pen, force, _, _ = _contact(model, _q(model, c))
        assert d - (R_ico - inner) - 1e-14 <= pen <= d + 1e-14
        assert np.linalg.norm(force) == pytest.approx(K * pen, rel=1e-12)
        assert pen == _contact(one_cell, _q(one_cell, c))[0]


def _floor_mesh(z, half=1.0, n=8):
    """A square of n x n cells of two triangles each at height z, normals up."""
    x = np.linspace(-half, half, n + 1)
    X, Y = np.meshgrid(x, x, indexing="ij")
    V = np.column_stack([X.ravel(), Y.ravel(), np.full(X.size, z)])
    F = []
    for i in range(n):
        for j in range(n):
            a, b, c, d = i * (n + 1) + j, (i + 1) * (n + 1) + j, (i + 1) * (n + 1) + j + 1, i * (n + 1) + j + 1
            F += [(a, b, c), (a, c, d)]
    return trimesh.Trimesh(V, np.array(F), process=False)


def test_identity_ball_on_mesh_floor_equals_ball_on_plane():
    """A spinning ball dropped with sliding friction onto a 128-triangle floor mesh moves as on
    the plane z = -0.1: the same states to rounding."""
    results = []
    for floor in (Plane("floor", None, point=(0.0, 0.0, -0.1)),
                  Mesh("floor", None, _floor_mesh(-0.1))):
        asm = Assembly("drop")
        asm.add(Part("ball", 2.0, inertia=(0.002, 0.002, 0.002)))
        asm.add(Joint("float", "free", None, "ball", Pose()))
        asm.add(Marker("m", "ball"), Sphere("shell", "m", RADIUS), floor)
        asm.add(ContactPair("p", "shell", "floor", ContactCharacteristic(
            stiffness=2e4, absorption=0.3, damping=500.0, friction=0.4, friction_speed=0.02)))
        results.append(occupant.simulate(asm.compile(), 0.25, q0=[0.1, -0.2, 0, 1, 0, 0, 0],
                                         v0=[0.8, 0.3, -1.0, 2.0, -3.0, 1.0], integrator="rk4",
                                         dt=1e-4, gravity=(0, 0, -9.81), output_dt=1e-3))
    plane, mesh = results
    assert plane.outputs["p.normal_force"].max() > 50.0
    np.testing.assert_allclose(mesh.q, plane.q, rtol=0, atol=1e-12)
    np.testing.assert_allclose(mesh.outputs["p.normal_force"], plane.outputs["p.normal_force"],
                               rtol=0, atol=1e-8)


@pytest.mark.parametrize("geometry", ["box", "cylinder", "mesh"])
def test_identity_energy_balance_new_pairs(geometry):
    """A spinning ellipsoid thrown at a box edge, a cylinder's rim or an icosphere mesh with
    hysteresis, damping and friction: kinetic + potential - initial = the producers' work to
    1e-6 of the energy exchanged (RK4, 1e-5 s)."""
    if geometry == "box":
        geo = Box("target", None, (0.1, 0.1, 0.1), position=(-0.07, 0.0, -0.2))
    elif geometry == "cylinder":
        geo = Cylinder("target", None, 0.05, 0.2, position=(0.0, 0.0, -0.2))
    else:
        geo = Mesh("target", None, trimesh.creation.icosphere(subdivisions=2, radius=0.1),
                   position=(0.0, 0.0, -0.2))
    asm = Assembly("throw")
    asm.add(Part("body", 3.0, inertia=(0.02, 0.03, 0.04)))
    asm.add(Joint("float", "free", None, "body", Pose()))
    asm.add(Marker("m", "body", (0.01, -0.02, 0.03), _rotation([0.3, -0.5, 0.2])))
    asm.add(Ellipsoid("egg", "m", SEMI), geo)
    asm.add(ContactPair("p", "egg", "target", ContactCharacteristic(
        stiffness=5e4, absorption=0.3, damping=2e4, friction=0.5, friction_speed=0.02)))
    res = occupant.simulate(asm.compile(), 0.2, q0=[0.06, 0.04, 0, 1, 0, 0, 0],
                            v0=[0.2, 0.1, -1.5, 3.0, -5.0, 8.0], integrator="rk4", dt=1e-5,
                            gravity=(0, 0, -9.81), output_dt=1e-3)
    e = res.energy
    exchanged = max(np.abs(e["total"] - e["total"][0]).max(), np.abs(e["work"]).max())
    assert np.abs(e["balance"]).max() < 1e-6 * exchanged
    assert res.work["contacts"][-1] < -0.05 * exchanged
    assert res.outputs["p.penetration"].max() > 0.0005


def many_pairs(n_apart, contact=True):
    """A body carrying a ball, one B0 box it rests in (if ``contact``) and n_apart B0 boxes,
    spheres, cylinders and meshes 1 m and more away, one declared pair each."""
    asm = Assembly("many")
    asm.add(Part("body", 3.0, inertia=(0.02, 0.03, 0.04)))
    asm.add(Joint("float", "free", None, "body", Pose()))
    asm.add(Marker("m", "body"), Sphere("ball", "m", RADIUS))
    char = ContactCharacteristic(stiffness=K)
    if contact:
        asm.add(Box("near", None, HALF, position=(0.0, 0.0, -0.14)))
        asm.add(ContactPair("p", "ball", "near", char))
    ico = trimesh.creation.icosphere(subdivisions=2, radius=0.1)
    for k in range(n_apart):
        where = (1.0 + 0.3 * k, 0.5, 0.2)
        geo = (Box(f"g{k}", None, HALF, position=where),
               Cylinder(f"g{k}", None, 0.04, 0.3, position=where),
               Mesh(f"g{k}", None, ico, position=where))[k % 3]
        asm.add(geo)
        asm.add(ContactPair(f"p{k}", "ball", f"g{k}", char))
    return asm.compile()


def test_identity_broad_phase_gives_the_same_forces():
    """100 pairs apart and one in contact: the forces and every output are those of the narrow
    phase run on every pair (apart, a pair's outputs are all 0, culled or not: before branch
    gapoutput a culled pair read minus its bounding spheres' gap, the narrow phase the true
    one)."""
    model = many_pairs(100)
    q = np.array([0.02, -0.01, 0.0, 1.0, 0.0, 0.0, 0.0])
    v = np.array([0.3, -0.2, -0.5, 1.0, -2.0, 0.5])
    on = model.bundle()
    off = on._replace(contacts=on.contacts._replace(broad_phase=0))
    datas = []
    for bundle in (on, off):
        data = model.make_data()
        evaluate(bundle, data, 0.0, q, v, np.zeros(model.nz), 0.0)
        datas.append(data)
    assert np.abs(datas[0].f_ext).max() > 100.0
    np.testing.assert_array_equal(datas[0].f_ext, datas[1].f_ext)
    assert datas[0].outputs[0] > 0.0
    np.testing.assert_array_equal(datas[0].outputs, datas[1].outputs)
    assert np.all(datas[0].outputs[len(CONTACT_OUTPUTS):] == 0.0)    # the pairs after the first


def _rect_distance(c, hu, hw):
    return np.linalg.norm(c - [np.clip(c[0], -hu, hu), np.clip(c[1], -hw, hw), 0.0])


def _disc_distance(c, r):
    rho = np.hypot(c[0], c[1])
    return np.hypot(max(rho - r, 0.0), c[2])


def _cylinder_distance(c, r, half):
    return np.hypot(max(np.hypot(c[0], c[1]) - r, 0.0), max(abs(c[2]) - half, 0.0))


@pytest.mark.parametrize("kind", ["plane", "rectangle", "disc", "rim plate", "box", "cylinder",
                                  "capsule", "mesh"])
@pytest.mark.parametrize("offset", [(0.05, 0.02, 0.3), (0.33, -0.21, 0.12), (0.04, 0.1, 0.2)])
def test_analytic_sphere_apart_outputs_zero_and_distance_query(kind, offset):
    """A sphere apart from each kind of geometry, culled by the broad phase or not: every output
    of the pair is 0 (``CONTACT_OUTPUTS``; before branch gapoutput a culled pair read minus its
    bounding spheres' gap: 4.8 mm above a rectangle for 250 mm); ``signed_distances`` is minus
    the closed-form distance from the centre to the geometry plus r (a mesh apart: nan; two
    ellipsoids: tests/contact/test_ellipsoid_pairs.py)."""
    frame = dict(point=P_B, normal=R_B[:, 2], x_axis=R_B[:, 0])
    placed = dict(position=P_B, rotation=R_B)
    geometry, distance = {
        "plane": (Plane("b", None, **frame), lambda c: c[2]),
        "rectangle": (Plane("b", None, **frame, half_size=(0.2, 0.15)),
                      lambda c: _rect_distance(c, 0.2, 0.15)),
        "disc": (Plane("b", None, **frame, radius=0.19), lambda c: _disc_distance(c, 0.19)),
        "rim plate": (Plane("b", None, **frame, radius=0.19, thickness=0.03),
                      lambda c: _cylinder_distance(c + [0.0, 0.0, 0.015], 0.19, 0.015)),
        "box": (Box("b", None, HALF, **placed), lambda c: np.linalg.norm(c - np.clip(c, -HALF, HALF))),
        "cylinder": (Cylinder("b", None, 0.05, 0.2, **placed), lambda c: _cylinder_distance(c, 0.05, 0.1)),
        "capsule": (Cylinder("b", None, 0.05, 0.2, ends="round", **placed),
                    lambda c: np.linalg.norm(c - [0.0, 0.0, np.clip(c[2], -0.1, 0.1)]) - 0.05),
        "mesh": (Mesh("b", None, _box_mesh(), **placed), lambda c: np.nan),
    }[kind]
    model = _model(geometry)
    c = np.array(offset)
    gap = distance(c) - RADIUS
    assert np.isnan(gap) or gap > 0.01
    on = model.bundle()
    for bundle in (on, on._replace(contacts=on.contacts._replace(broad_phase=0))):
        data = model.make_data()
        evaluate(bundle, data, 0.0, _q(model, c), np.array([0.1, -0.2, -0.5, 1.0, 0.5, 0.2]),
                 np.zeros(model.nz), 0.0)
        assert np.all(data.outputs == 0.0) and np.all(data.f_ext == 0.0)
    d = signed_distances(model, _q(model, c))["p"]
    if kind == "mesh":
        assert np.isnan(d)
    else:
        assert d == pytest.approx(-gap, abs=1e-12)
