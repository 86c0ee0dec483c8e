"""Prescribed translation of geometries on B0 (occupant.modeling.SurfaceMotion, a door pushed in
by a velocity-time profile): a plane, and each other shape (box, cylinder, sphere, ellipsoid,
mesh), moving at constant speed strikes a ball at rest through a linear contact law, against
the closed form of the impact (penetration, force, momentum and energy the motion gives the
ball); the displacement output against a profile integrated by hand, and each shape's clearance
and drawn pose following it; the work of the moving surface booked in its own slot; bad input."""
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


def _ball_and_floor(*motions, characteristic=None, shape="plane"):
    """A ball of radius R on a vertical prismatic joint, touching the B0 floor (``_floor``: a
    bounded plane z = -R, or a solid whose top is there) at q = 0; ``motions`` SurfaceMotions
    (of the floor: geometries ("floor",))."""
    asm = Assembly("struck")
    asm.add(Part("ball", M, inertia=(0.002, 0.002, 0.002)))
    asm.add(Joint("lift", "prismatic", None, "ball", Pose()))
    asm.add(Marker("centre", "ball"))
    asm.add(Sphere("shell", "centre", R))
    asm.add(_floor(shape))
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
    with pytest.raises(ModelError, match="'shell' is a Sphere on a marker; a surface motion moves "
                       "geometries fixed to B0"):
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
    assert D.surfaces(model)[0].shift is None


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
    assert D.surfaces(model)[0].shift is None
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
