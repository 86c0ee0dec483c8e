"""Prescribed motion of geometries on B0 (occupant.modeling.SurfaceMotion, a door pushed in by a
velocity-time profile, or turned about its hinge line): a plane, and each other shape (box,
cylinder, sphere, ellipsoid, mesh), moving at constant speed strikes a ball at rest through a
linear contact law, against the closed form of the impact (penetration, force, momentum and
energy the motion gives the ball); a flat top turning about a hinge line strikes it, against
the exact equation integrated independently; the displacement and angle outputs against
profiles integrated by hand, and each shape's clearance and drawn pose following them; the work
of the moving surface booked in its own slot; bad input."""
import numpy as np
import pytest

import occupant
from occupant.contact.compliant import signed_distances
from occupant.model import ModelError
from occupant.modeling import (
    Assembly, Box, ContactCharacteristic, ContactPair, Cylinder, Ellipsoid, Joint, Marker, Mesh,
    ModelingError, Part, Plane, Pose, Sphere, SurfaceMotion,
)

M, K, R = 2.0, 2.0e4, 0.05


# A horizontal axis: the cylinder's own z along B0's x (columns: its axes in B0)
ALONG_X = np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]])


def _floor(shape):
    """A geometry "floor" fixed to B0 whose highest point is (0, 0, -R), straight below the ball's
    centre, its outward normal there +z."""
    import trimesh
    if shape == "plane":
        return Plane("floor", None, point=(0.0, 0.0, -R), half_size=(1.0, 1.0))
    if shape == "box":
        return Box("floor", None, (0.3, 0.2, 0.04), position=(0.0, 0.0, -R - 0.04))
    if shape == "cylinder":      # a steering column lying along x, the ball on its side
        return Cylinder("floor", None, 0.03, 0.4, position=(0.0, 0.0, -R - 0.03), rotation=ALONG_X)
    if shape == "sphere":
        return Sphere("floor", None, 0.08, position=(0.0, 0.0, -R - 0.08))
    if shape == "ellipsoid":
        return Ellipsoid("floor", None, (0.2, 0.15, 0.06), position=(0.0, 0.0, -R - 0.06))
    return Mesh("floor", None, trimesh.creation.box(extents=(0.6, 0.4, 0.08)),
                position=(0.0, 0.0, -R - 0.04))


SHAPES = ("plane", "box", "cylinder", "sphere", "ellipsoid", "mesh")


def _ball_and_floor(*motions, characteristic=None, shape="plane", floor=None):
    """A ball of radius R on a vertical prismatic joint, touching the B0 floor (``_floor``: a
    bounded plane z = -R, or a solid whose top is there; or ``floor``) at q = 0; ``motions``
    SurfaceMotions (of the floor: geometries ("floor",))."""
    asm = Assembly("struck")
    asm.add(Part("ball", M, inertia=(0.002, 0.002, 0.002)))
    asm.add(Joint("lift", "prismatic", None, "ball", Pose()))
    asm.add(Marker("centre", "ball"))
    asm.add(Sphere("shell", "centre", R))
    asm.add(floor or _floor(shape))
    asm.add(ContactPair("ball_floor", "shell", "floor",
                        characteristic or ContactCharacteristic(stiffness=K)))
    asm.add(*motions)
    return asm.compile()


@pytest.mark.parametrize("shape", SHAPES)
def test_analytic_surface_at_constant_speed_strikes_a_ball_at_rest(shape):
    """The floor (each shape, its top under the ball) moves up at V from t = 0 under the ball at
    rest (no gravity): the penetration d = s - q obeys m d'' = -k d, so d = V/w sin(w t),
    w = sqrt(k/m), for t_c = pi/w; the ball leaves at 2 V (an elastic impact on a body of
    infinite mass), the impulse 2 m V, the work of the moving floor its kinetic energy
    2 m V^2, the contact's own work back to 0."""
    V, dt = 1.5, 1e-5
    model = _ball_and_floor(SurfaceMotion("lift_floor", ("floor",), (0, 0, 1), [[0.0, V]]),
                            shape=shape)
    res = occupant.simulate(model, 0.05, q0=[0.0], v0=[0.0], integrator="rk4", dt=dt,
                            gravity=(0, 0, 0), output_dt=dt)
    w = np.sqrt(K / M)
    t_c = np.pi / w
    during = (res.t > 0.0) & (res.t < t_c - 2 * dt)    # at t = 0, d = 0: not yet in contact
    d = res.outputs["ball_floor.penetration"]
    np.testing.assert_allclose(d[during], V / w * np.sin(w * res.t[during]), rtol=0,
                               atol=1e-6 * V / w)
    np.testing.assert_allclose(res.outputs["ball_floor.penetration_rate"][during],
                               V * np.cos(w * res.t[during]), rtol=0, atol=1e-5 * V)
    np.testing.assert_allclose(res.outputs["ball_floor.normal_force"], K * np.maximum(d, 0.0),
                               rtol=1e-12, atol=1e-9)
    assert d.max() == pytest.approx(V / w, rel=(w * dt) ** 2)
    # the floor's position follows its profile exactly: s = V t
    np.testing.assert_allclose(res.outputs["lift_floor.displacement"], V * res.t, rtol=1e-13,
                               atol=1e-15)
    np.testing.assert_array_equal(res.outputs["lift_floor.velocity"], V)
    # momentum: the impulse of the contact is 2 m V; the ball flies off at 2 V
    impulse = np.trapezoid(res.outputs["ball_floor.normal_force"], res.t)
    assert impulse == pytest.approx(2 * M * V, rel=1e-6)
    assert res.v[-1, 0] == pytest.approx(2 * V, rel=(w * dt) ** 2)
    # energy: the moving floor did the work, the elastic contact kept none of it
    E = 0.5 * M * res.v[:, 0] ** 2
    np.testing.assert_allclose(res.work["motions"][-1], 2 * M * V**2, rtol=1e-6)
    assert abs(res.work["contacts"][-1]) < 1e-6 * M * V**2
    assert np.max(np.abs(res.energy["balance"])) < 1e-6 * E.max()


def test_analytic_displacement_integrates_the_velocity_rows():
    """Rows (0.01, 0), (0.02, 3), (0.04, 3), (0.05, 0) m/s: at rest before 10 ms, then by hand
    s = 150 (t - 0.01)^2 to 15 mm at 20 ms, + 3 (t - 0.02) to 75 mm at 40 ms, then
    75 mm + 3 (t - 0.04) - 150 (t - 0.04)^2 to 90 mm at 50 ms, where it stays (last velocity 0).
    The floor starts 1 m below the ball, which never touches it."""
    motion = SurfaceMotion("door", ("floor",), (0, 0, 2.0),
                           [[0.01, 0.0], [0.02, 3.0], [0.04, 3.0], [0.05, 0.0]])
    model = _ball_and_floor(motion)
    res = occupant.simulate(model, 0.06, q0=[1.0], v0=[0.0], integrator="rk4", dt=1e-4,
                            gravity=(0, 0, 0), output_dt=1e-3)
    t = res.t

    def by_hand(x):
        if x < 0.01:
            return 0.0, 0.0
        if x < 0.02:
            return 150.0 * (x - 0.01) ** 2, 300.0 * (x - 0.01)
        if x < 0.04:
            return 0.015 + 3.0 * (x - 0.02), 3.0
        if x < 0.05:
            return 0.075 + 3.0 * (x - 0.04) - 150.0 * (x - 0.04) ** 2, 3.0 - 300.0 * (x - 0.04)
        return 0.09, 0.0
    s, v = np.array([by_hand(x) for x in t]).T
    np.testing.assert_allclose(res.outputs["door.displacement"], s, rtol=0, atol=1e-15)
    np.testing.assert_allclose(res.outputs["door.velocity"], v, rtol=0, atol=1e-12)
    assert res.output_units["door.displacement"] == "m"
    np.testing.assert_allclose(motion(t)[0], s, rtol=0, atol=1e-15)
    # the floor moved 0.09 m up, short of the ball: apart throughout, the pair's outputs 0
    assert np.all(res.outputs["ball_floor.normal_force"] == 0.0)
    assert np.all(res.outputs["ball_floor.penetration"] == 0.0)


def test_identity_friction_and_damping_see_the_moving_plane():
    """The floor slides along x at constant speed under a ball pressed into it by gravity on a
    linear, damped contact with friction: the ball's own energy and the work of the slots
    balance (the friction of the moving floor drags the free ball along: its work is the
    motions slot), and d' counts the floor's motion along its normal only (none here)."""
    asm = Assembly("dragged")
    asm.add(Part("ball", M, inertia=(0.002, 0.002, 0.002)))
    asm.add(Joint("free", "free", None, "ball", Pose()))
    asm.add(Marker("centre", "ball"))
    asm.add(Sphere("shell", "centre", R))
    asm.add(Plane("floor", None, point=(0.0, 0.0, -R)))
    asm.add(ContactPair("ball_floor", "shell", "floor",
                        ContactCharacteristic(stiffness=K, damping=200.0, friction=0.4)))
    asm.add(SurfaceMotion("belt", ("floor",), (1, 0, 0), [[0.0, 0.0], [0.02, 2.0]]))
    model = asm.compile()
    q0 = np.zeros(model.nq)
    q0[3] = 1.0                                 # unit quaternion (w first)
    q0[2] = -M * 9.81 / K                       # resting on the floor
    res = occupant.simulate(model, 0.1, q0=q0, integrator="rk4", dt=1e-5, gravity=(0, 0, -9.81))
    assert res.work["motions"][-1] > 0.0
    E = res.energy["kinetic"]
    assert np.max(np.abs(res.energy["balance"])) < 1e-4 * max(E.max(), res.work["motions"][-1])
    assert res.body_com[-1, 0, 0] - res.body_com[0, 0, 0] > 0.0       # dragged along +x
    np.testing.assert_allclose(res.outputs["ball_floor.penetration_rate"][-50:], 0.0, atol=1e-6)


def test_reference_bad_input_says_what_is_wrong():
    with pytest.raises(ModelingError, match="direction: expected a non-zero"):
        SurfaceMotion("door", ("floor",), (0, 0, 0), [[0.0, 1.0]])
    with pytest.raises(ModelingError, match="times must start at 0 or later and increase"):
        SurfaceMotion("door", ("floor",), (0, 1, 0), [[0.0, 1.0], [0.0, 2.0]])
    with pytest.raises(ModelingError, match="times must start at 0 or later"):
        SurfaceMotion("door", ("floor",), (0, 1, 0), [[-0.01, 1.0]])
    with pytest.raises(ModelingError, match="velocity: expected rows"):
        SurfaceMotion("door", ("floor",), (0, 1, 0), [[0.0, np.nan]])
    with pytest.raises(ModelingError, match="expected a list of geometry names"):
        SurfaceMotion("door", "floor", (0, 1, 0), [[0.0, 1.0]])
    with pytest.raises(ModelingError, match="unknown|no geometr|does not exist|not found"):
        _ball_and_floor(SurfaceMotion("door", ("roof",), (0, 1, 0), [[0.0, 1.0]]))
    with pytest.raises(ModelError, match="'shell' is a Sphere that contact pair 'ball_floor' "
                       "takes as its geometry_a; a surface motion moves the geometry_b"):
        _ball_and_floor(SurfaceMotion("door", ("shell",), (0, 1, 0), [[0.0, 1.0]]))
    with pytest.raises(ModelError, match="moved by 'one' already"):
        _ball_and_floor(SurfaceMotion("one", ("floor",), (0, 1, 0), [[0.0, 1.0]]),
                        SurfaceMotion("two", ("floor",), (0, 1, 0), [[0.0, 1.0]]))


def test_identity_report_draws_the_moving_plane_where_it_has_moved():
    """The report's surfaces (occupant.report.data) follow the displacement output."""
    from occupant.report import data as D
    model = _ball_and_floor(SurfaceMotion("lift_floor", ("floor",), (0, 0, 2.0),
                                          [[0.0, 0.0], [0.01, 1.0]]))
    res = occupant.simulate(model, 0.02, q0=[0.5], v0=[0.0], integrator="rk4", dt=1e-4,
                            gravity=(0, 0, 0), output_dt=1e-3)
    floor, = D.surfaces(model, res)
    s = res.outputs["lift_floor.displacement"]
    X = D.surface_pose(D.relative_poses(res), floor)
    np.testing.assert_array_equal(X[:, 2, 3], s)
    np.testing.assert_array_equal(X[:, :2, 3], 0.0)
    assert D.surfaces(model)[0].moved is None


@pytest.mark.parametrize("shape", ("box", "cylinder", "sphere", "ellipsoid"))
def test_analytic_each_shape_is_where_the_integrated_profile_put_it(shape, tmp_path):
    """The four-row profile of ``test_analytic_displacement_integrates_the_velocity_rows`` moves
    a box, a cylinder, a sphere and an ellipsoid 0.09 m up towards the ball held 0.5 m above
    their tops: at every output time the contact's exact clearance is 0.5 m less the integral
    s(t) (the narrow phase meets the shape where it has moved), the report's 3D view draws the
    shape's vertices translated by s(t) (its top at -R + s), and the model exports to MJCF."""
    import xml.etree.ElementTree as ET

    from occupant.io import export_mjcf
    from occupant.report import data as D
    motion = SurfaceMotion("door", ("floor",), (0, 0, 2.0),
                           [[0.01, 0.0], [0.02, 3.0], [0.04, 3.0], [0.05, 0.0]])
    model = _ball_and_floor(motion, shape=shape)
    res = occupant.simulate(model, 0.06, q0=[0.5], v0=[0.0], integrator="rk4", dt=1e-4,
                            gravity=(0, 0, 0), output_dt=1e-3)
    s = res.outputs["door.displacement"]
    assert s[-1] == pytest.approx(0.09, abs=1e-15)
    gap = np.array([-signed_distances(model, [0.5], t)["ball_floor"] for t in res.t])
    np.testing.assert_allclose(gap, 0.5 - s, rtol=0, atol=1e-9)
    floor, = D.surfaces(model, res)
    X = D.surface_pose(D.relative_poses(res), floor)
    top = np.max(np.einsum("nij,vj->nvi", X[:, :3, :3], floor.outline) + X[:, None, :3, 3],
                 axis=1)[:, 2]
    np.testing.assert_allclose(top, -R + s, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(X[:, :2, 3], 0.0)
    assert D.surfaces(model)[0].moved is None
    xml = ET.parse(export_mjcf(model, tmp_path / "struck.xml")).getroot()   # the ball's only:
    assert [g.get("name") for g in xml.find("worldbody").iter("geom")] == ["shell"]   # not B0's


def test_identity_moving_plane_and_a_joint_driver_share_the_motions_slot():
    """A second body on a prismatic joint driven by a JointMotion, q = c t^2 (a rheonomic
    constraint, integrated by radau in the constrained state space), beside the ball the
    floor strikes at V: the motions slot holds the driver's work, its body's kinetic energy
    2 m c^2 t^2, plus the floor's 2 m V^2 on the ball, and the balance closes."""
    from occupant.modeling import JointMotion
    V, c = 1.5, 3.0
    asm = _ball_and_floor(SurfaceMotion("lift_floor", ("floor",), (0, 0, 1), [[0.0, V]])).source
    asm.add(Part("sled", M, inertia=(0.002, 0.002, 0.002)))
    asm.add(Joint("rail", "prismatic", None, "sled", Pose()))
    asm.add(JointMotion("pull", "rail", {"polynomial": (0.0, 0.0, c)}))
    model = asm.compile()
    res = occupant.simulate(model, 0.05, q0=np.zeros(model.nq), v0=np.zeros(model.nv),
                            integrator="radau", rtol=1e-10, atol=1e-12, gravity=(0, 0, 0))
    assert res.status == "finished", res.message
    t = res.t[-1]
    np.testing.assert_allclose(res.q[-1, model.dof("rail")], c * t**2, rtol=1e-9)
    np.testing.assert_allclose(res.work["motions"][-1], 2 * M * c**2 * t**2 + 2 * M * V**2,
                               rtol=1e-6)
    assert np.max(np.abs(res.energy["balance"])) < 1e-6 * res.work["motions"][-1]


# A rotating floor: turning about the axis along -y through (-r, 0, -R), the line of its top r
# behind the ball (x < 0): the top under the ball rises at omega r
HINGE_R = 0.5
HINGE = {"axis_point": (-HINGE_R, 0.0, -R), "axis": (0.0, -1.0, 0.0)}


def _turning_plate_ode(W, K_stiff, t):
    """Independent of the library: the ball (mass M, radius R, on its vertical rail, at rest at
    y = 0 touching) struck by the plane through the axis point a = (-r, 0, -R) of normal
    n = (-sin wt, 0, cos wt) (the floor's top turned by theta = W t about -y): penetration
    d = R - n . (c - a) = R + r sin(theta) - (y + R) cos(theta), M y'' = K d n_z while d > 0,
    integrated by scipy's DOP853 to 1e-12. (y, y', d, d') at the times ``t``."""
    from scipy.integrate import solve_ivp

    def depth(tt, y):
        th = W * tt
        return R + HINGE_R * np.sin(th) - (y + R) * np.cos(th)

    def rhs(tt, s):
        d = depth(tt, s[0])
        return [s[1], K_stiff * max(d, 0.0) * np.cos(W * tt) / M]

    sol = solve_ivp(rhs, (0.0, t[-1]), [0.0, 0.0], method="DOP853", rtol=1e-12, atol=1e-15,
                    dense_output=True, max_step=1e-5)
    y, v = sol.sol(t)
    th = W * t
    d = depth(t, y)
    d_rate = W * HINGE_R * np.cos(th) + W * (y + R) * np.sin(th) - v * np.cos(th)
    return y, v, d, d_rate


@pytest.mark.parametrize("shape", ("plane", "box", "mesh"))
def test_analytic_plate_turning_about_its_hinge_strikes_a_ball_at_rest(shape):
    """The floor's flat top (a plane, a box's face, a box mesh's face) turns at constant W
    about a hinge line r = 0.5 m behind the ball at rest on it (no gravity, elastic linear
    law): the ball's height, the penetration and its rate (the hinge's omega x r counted)
    follow the exact equation integrated independently (``_turning_plate_ode``); the ball
    leaves at about 2 W r, the wall's normal speed there (within the angle turned during the
    contact, W pi / w), 1.5 mm deep at most; the turning floor's work is the ball's kinetic
    energy, the contact's own work back to 0, the balance closed."""
    K2, W, dt = 2.0e6, 3.0, 1e-5
    motion = SurfaceMotion("hinge", ("floor",), angular_velocity=[[0.0, W]], **HINGE)
    model = _ball_and_floor(motion, characteristic=ContactCharacteristic(stiffness=K2),
                            shape=shape)
    res = occupant.simulate(model, 0.006, q0=[0.0], v0=[0.0], integrator="rk4", dt=dt,
                            gravity=(0, 0, 0), output_dt=dt)
    y, v, d, d_rate = _turning_plate_ode(W, K2, res.t)
    V, w = W * HINGE_R, np.sqrt(K2 / M)
    # RK4 at w dt = 0.01 across the kinks where the contact starts and ends: the ball's path
    # to 1e-5 of the scales V / w (1.5 mm, the deepest penetration) and V (measured 3.4e-6 and
    # 1.2e-6, after the contact); d and d' during it to 1e-6 (measured 2.6e-10, 1.5e-10)
    np.testing.assert_allclose(res.q[:, 0], y, rtol=0, atol=1e-5 * V / w)
    np.testing.assert_allclose(res.v[:, 0], v, rtol=0, atol=1e-5 * V)
    touching = d > 1e-9
    np.testing.assert_allclose(res.outputs["ball_floor.penetration"][touching], d[touching],
                               rtol=0, atol=1e-6 * V / w)
    np.testing.assert_allclose(res.outputs["ball_floor.penetration_rate"][touching],
                               d_rate[touching], rtol=0, atol=1e-6 * V)
    assert res.v[-1, 0] == pytest.approx(2 * V, rel=W * np.pi / w)
    assert res.outputs["ball_floor.penetration"].max() == pytest.approx(V / w, rel=W * np.pi / w)
    np.testing.assert_allclose(res.outputs["hinge.angle"], W * res.t, rtol=1e-13, atol=1e-15)
    np.testing.assert_array_equal(res.outputs["hinge.angular_velocity"], W)
    np.testing.assert_array_equal(res.outputs["hinge.displacement"], 0.0)
    E = 0.5 * M * res.v[:, 0] ** 2
    np.testing.assert_allclose(res.work["motions"][-1], E[-1], rtol=1e-6)
    assert abs(res.work["contacts"][-1]) < 1e-6 * E[-1]
    assert np.max(np.abs(res.energy["balance"])) < 1e-6 * E.max()


def _rotation(axis, angle):
    """Independent of the library's Rodrigues: scipy's rotation vector."""
    from scipy.spatial.transform import Rotation
    return Rotation.from_rotvec(angle * np.asarray(axis, float)).as_matrix()


def _placed(shape, Q, c):
    """``_floor(shape)`` placed by the rigid motion x -> Q x + c (B0), at rest."""
    from dataclasses import replace
    g = _floor(shape)
    if shape == "plane":
        return replace(g, point=tuple(Q @ g.point + c), normal=tuple(Q @ g.normal),
                       x_axis=tuple(Q @ g.x_axis))
    R0 = np.eye(3) if g.rotation is None else np.asarray(g.rotation, float)
    return replace(g, position=tuple(Q @ np.asarray(g.position, float) + c), rotation=Q @ R0)


@pytest.mark.parametrize("shape", SHAPES)
def test_identity_each_shape_turned_and_translated_is_that_shape_placed_there(shape):
    """A floor turned about a tilted axis by an angular velocity profile and translated by a
    velocity profile: at each time its contact with the ball (held where it touches or is near)
    is that of the same shape placed at rest at x -> Q(theta) (x - a) + a + s u (Q from
    scipy's rotation vector, theta and s the profiles' integrals by hand) to 1e-12 m; the
    report draws its vertices there to 1e-12 m."""
    from occupant.report import data as D
    k = np.array([0.3, -1.0, 0.2]) / np.linalg.norm([0.3, -1.0, 0.2])
    a = np.array([-0.4, 0.1, -R])
    motion = SurfaceMotion("door", ("floor",), (0.0, 0.0, 1.0), [[0.0, 0.0], [0.02, 1.0]],
                           axis_point=tuple(a), axis=tuple(k),
                           angular_velocity=[[0.0, 0.0], [0.01, 4.0], [0.02, 4.0]])
    model = _ball_and_floor(motion, shape=shape)
    res = occupant.simulate(model, 0.03, q0=[0.3], v0=[0.0], integrator="rk4", dt=1e-4,
                            gravity=(0, 0, 0), output_dt=5e-3)
    t = res.t
    theta = np.where(t < 0.01, 200.0 * t**2, 0.02 + 4.0 * (t - 0.01))    # by hand
    s = np.where(t < 0.02, 25.0 * t**2, 0.01 + (t - 0.02))
    np.testing.assert_allclose(res.outputs["door.angle"], theta, rtol=0, atol=1e-15)
    np.testing.assert_allclose(res.outputs["door.displacement"], s, rtol=0, atol=1e-15)
    floor, = D.surfaces(model, res)
    X = D.surface_pose(D.relative_poses(res), floor)
    for i, ti in enumerate(t):
        Q = _rotation(k, theta[i])
        c = a - Q @ a + s[i] * np.array([0.0, 0.0, 1.0])
        np.testing.assert_allclose(floor.outline @ X[i, :3, :3].T + X[i, :3, 3],
                                   floor.outline @ Q.T + c, rtol=0, atol=1e-12)
        placed = _ball_and_floor(floor=_placed(shape, Q, c))
        for q in (0.0, -0.02, 0.05):      # touching, pressed in, apart (a mesh: nan apart)
            moved = signed_distances(model, [q], ti)["ball_floor"]
            there = signed_distances(placed, [q], 0.0)["ball_floor"]
            if np.isnan(there):
                assert np.isnan(moved)
            else:
                assert moved == pytest.approx(there, abs=1e-12)


def test_reference_bad_rotation_says_what_is_wrong():
    turn = {"axis_point": (0.0, 0.0, 0.0), "axis": (0.0, 0.0, 1.0),
            "angular_velocity": [[0.0, 1.0]]}
    with pytest.raises(ModelingError, match=r"door'\.axis: expected a non-zero finite"):
        SurfaceMotion("door", ("floor",), **{**turn, "axis": (0.0, 0.0, 0.0)})
    with pytest.raises(ModelingError, match=r"axis_point: expected a finite 3-vector"):
        SurfaceMotion("door", ("floor",), **{**turn, "axis_point": (0.0, np.nan, 0.0)})
    with pytest.raises(ModelingError, match=r"angular_velocity: times must start at 0 or later "
                       r"and increase strictly, got \[0.0, 0.02, 0.01\]"):
        SurfaceMotion("door", ("floor",), **{**turn, "angular_velocity": [
            [0.0, 0.0], [0.02, 1.0], [0.01, 0.0]]})
    with pytest.raises(ModelingError, match=r"velocity: expected rows \[t s, v m/s\]"):
        SurfaceMotion("door", ("floor",), (0, 1, 0))       # neither profile
    assert not SurfaceMotion("door", ("floor",), (0, 1, 0), [[0.0, 1.0]]).turns


def _ball_and_carrier(motion, floor=None, marker_rotation=None):
    """``_ball_and_floor``'s ball above a floor (``_floor("plane")``, or ``floor``) on the marker
    "deck" of a free carrier (mass MC, on its own vertical rail, dof 1), the deck's frame B0's
    at q = 0 (or turned by ``marker_rotation`` about the carrier's origin): a surface on a
    hinged part of an interior."""
    asm = Assembly("carried")
    asm.add(Part("ball", M, inertia=(0.002, 0.002, 0.002)))
    asm.add(Joint("lift", "prismatic", None, "ball", Pose()))
    asm.add(Marker("centre", "ball"))
    asm.add(Sphere("shell", "centre", R))
    asm.add(Part("carrier", MC, inertia=(0.01, 0.01, 0.01)))
    asm.add(Joint("rail", "prismatic", None, "carrier", Pose()))
    asm.add(Marker("deck", "carrier", rotation=marker_rotation))
    from dataclasses import replace
    asm.add(floor or replace(_floor("plane"), marker="deck"))
    asm.add(ContactPair("ball_floor", "shell", "floor", ContactCharacteristic(stiffness=K)))
    asm.add(motion)
    return asm.compile()


MC = 6.0


def test_analytic_surface_moving_on_its_body_pushes_ball_and_body_apart():
    """A floor on a free carrier (a surface on a hinged part) pushed up relative to it at V
    under the ball, both at rest: the penetration d obeys d'' = -k d (1/m + 1/m_c), so
    d = V/w sin(w t), w = sqrt(k/mu), mu = m m_c/(m + m_c); the relative speed reverses, the
    ball leaving at 2 V m_c/(m + m_c), the carrier recoiling at -2 V m/(m + m_c) (momentum
    kept); the motion's work is the kinetic energy 2 mu V^2, the balance closed."""
    V, dt = 1.5, 1e-5
    model = _ball_and_carrier(SurfaceMotion("push", ("floor",), (0, 0, 1), [[0.0, V]]))
    res = occupant.simulate(model, 0.05, q0=[0.0, 0.0], v0=[0.0, 0.0], integrator="rk4", dt=dt,
                            gravity=(0, 0, 0), output_dt=dt)
    mu = M * MC / (M + MC)
    w = np.sqrt(K / mu)
    t_c = np.pi / w
    during = (res.t > 0.0) & (res.t < t_c - 2 * dt)
    d = res.outputs["ball_floor.penetration"]
    np.testing.assert_allclose(d[during], V / w * np.sin(w * res.t[during]), rtol=0,
                               atol=1e-6 * V / w)
    np.testing.assert_allclose(res.outputs["ball_floor.penetration_rate"][during],
                               V * np.cos(w * res.t[during]), rtol=0, atol=1e-5 * V)
    ball, carrier = model.dof("lift"), model.dof("rail")
    assert res.v[-1, ball] == pytest.approx(2 * V * MC / (M + MC), rel=(w * dt) ** 2)
    assert res.v[-1, carrier] == pytest.approx(-2 * V * M / (M + MC), rel=(w * dt) ** 2)
    np.testing.assert_allclose(res.work["motions"][-1], 2 * mu * V**2, rtol=1e-6)
    E = res.energy["kinetic"]
    assert np.max(np.abs(res.energy["balance"])) < 1e-6 * E.max()


def test_identity_surface_turning_on_its_body_is_that_surface_placed_there():
    """The floor on the carrier's marker (turned 30 deg about x in the carrier) turned about a
    tilted axis and translated relative to it (axes given in the marker's frame), the carrier
    raised 0.1 m: at each time the contact is that of the floor placed at rest on the carrier
    where the motion has put it (placed by hand in the marker's frame), to 1e-12 m; the report
    draws it there (the carrier's pose, the marker, then the motion)."""
    from dataclasses import replace

    from occupant.report import data as D
    k = np.array([0.3, -1.0, 0.2]) / np.linalg.norm([0.3, -1.0, 0.2])
    a, u = np.array([-0.4, 0.1, -R]), np.array([0.0, 0.6, 0.8])
    Rm = _rotation((1.0, 0.0, 0.0), np.radians(30.0))
    floor = replace(_floor("plane"), marker="deck")
    motion = SurfaceMotion("door", ("floor",), tuple(u), [[0.0, 0.0], [0.02, 1.0]],
                           axis_point=tuple(a), axis=tuple(k),
                           angular_velocity=[[0.0, 0.0], [0.01, 4.0], [0.02, 4.0]])
    model = _ball_and_carrier(motion, floor, Rm)
    q = [0.3, 0.1]
    res = occupant.simulate(model, 0.03, q0=q, v0=[0.0, 0.0], integrator="rk4", dt=1e-4,
                            gravity=(0, 0, 0), output_dt=5e-3)
    t = res.t
    theta = np.where(t < 0.01, 200.0 * t**2, 0.02 + 4.0 * (t - 0.01))
    s = np.where(t < 0.02, 25.0 * t**2, 0.01 + (t - 0.02))
    surface, = D.surfaces(model, res)
    X = D.surface_pose(D.relative_poses(res), surface)
    for i, ti in enumerate(t):
        Q = _rotation(k, theta[i])
        c = a - Q @ a + s[i] * u
        placed = _ball_and_carrier(SurfaceMotion("still", ("floor",), (0, 0, 1), [[0.0, 0.0]]),
                                   replace(_placed("plane", Q, c), marker="deck"), Rm)
        for qb in (0.0, 0.25, 0.5):
            moved = signed_distances(model, [qb, q[1]], ti)["ball_floor"]
            assert moved == pytest.approx(signed_distances(placed, [qb, q[1]], 0.0)["ball_floor"],
                                          abs=1e-12)
        lift = [0.0, 0.0, res.q[i, model.dof("rail")]]       # the carrier's pose: raised only
        expected = (D.plane_outline(floor) @ Q.T + c) @ Rm.T + lift
        np.testing.assert_allclose(surface.outline @ X[i, :3, :3].T + X[i, :3, 3], expected,
                                   rtol=0, atol=1e-12)
