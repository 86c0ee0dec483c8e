"""Joint and marker motions as functions of time (issue 12 section 1: rheonomic constraints
Phi(q, t) = 0 with Phi_t in the velocity and Phi_tt in the acceleration equations), against
closed forms: the slider of a crank driven at constant speed, the driving torque from the
energy of the mechanism, a gimbal whose orientation is prescribed, a body whose planar pose is
prescribed, and the time terms of every driven row by finite differences."""
import numpy as np
import pytest

import occupant
from occupant.constraints.state_space import (choose_partition, evaluate_accelerations,
                                               evaluate_constraints, make_constraint_work)
from occupant.integrate.system import MultibodySystem
from occupant.model import ModelError
from occupant.modeling import (Assembly, Joint, JointMotion, Marker, MarkerMotion, ModelingError,
                               Part, Pose, TimeFunction)
from occupant.spatial import rot_x, rot_y, rot_z

G = 9.81
R_CRANK, L_ROD, M_CRANK, M_ROD, M_SLIDER = 0.2, 0.6, 1.0, 2.0, 1.0   # samples.slider_crank
THETA0, OMEGA = np.radians(60.0), 2.0 * np.pi


def slider_crank_closed_form(t):
    """Slider travel and mechanical energy (kinetic + potential, gravity -y) of the slider-crank
    with the crank at theta = THETA0 + OMEGA t, from the loop closed by hand."""
    th = THETA0 + OMEGA * t
    s, s_d = R_CRANK * np.sin(th), R_CRANK * np.cos(th) * OMEGA
    c = np.sqrt(1.0 - (s / L_ROD) ** 2)                       # cos of the rod angle
    c_d = -s * s_d / (L_ROD**2 * c)
    x = R_CRANK * np.cos(th) + L_ROD * c
    x_d = -R_CRANK * np.sin(th) * OMEGA + L_ROD * c_d
    phi_d = -s_d / (L_ROD * c)                                  # rod angle phi = -asin(s / l)
    rod_v2 = (-R_CRANK * np.sin(th) * OMEGA + 0.5 * L_ROD * c_d) ** 2 + (0.5 * s_d) ** 2
    kinetic = (0.5 * M_CRANK * R_CRANK**2 / 3.0 * OMEGA**2
               + 0.5 * M_ROD * rod_v2 + 0.5 * M_ROD * L_ROD**2 / 12.0 * phi_d**2
               + 0.5 * M_SLIDER * x_d**2)
    potential = G * (M_CRANK * 0.5 * R_CRANK * np.sin(th) + M_ROD * 0.5 * s)
    return x, kinetic + potential


@pytest.fixture(scope="module")
def driven_crank():
    model = occupant.samples.slider_crank(crank_speed=OMEGA)
    r = occupant.simulate(model, t_end=1.0, integrator="radau", output_dt=0.01, rtol=1e-9,
                          atol=1e-11)
    assert r.status == "finished", r.message
    return model, r


def test_analytic_slider_of_a_crank_driven_at_constant_speed(driven_crank):
    """Crank angle OMEGA t exactly; slider x = r cos th + sqrt(l^2 - r^2 sin^2 th); one turn."""
    model, r = driven_crank
    x, _ = slider_crank_closed_form(r.t)
    np.testing.assert_allclose(r.q[:, model.dof("O")], OMEGA * r.t, atol=1e-11)
    err = np.abs(r.q[:, model.dof("S")] - (x - x[0])).max()
    print(f"slider error {err:.1e} m over a stroke of {np.ptp(x):.3f} m")
    assert np.ptp(x) > 0.35 and err < 1e-9
    assert r.constraint_violation.max() < 1e-10
    assert r.constraint_velocity_violation.max() < 1e-9


def test_analytic_driving_torque_is_the_inverse_dynamics(driven_crank):
    """The driver's constraint torque tau (its multiplier) times OMEGA is dE/dt of the closed-
    form energy (inverse dynamics by the energy method); the work recorded for the motion is
    E(t) - E(0), so that the energy balance closes."""
    model, r = driven_crank
    _, E = slider_crank_closed_form(r.t)
    np.testing.assert_allclose(r.work["motions"], E - E[0], atol=1e-7)
    assert np.abs(r.energy["balance"]).max() < 1e-7
    system = MultibodySystem(model, gravity=(0.0, -G, 0.0))
    cw = make_constraint_work(model)
    row = model.constraint_names.index("drive")
    h, taus, expect = 1e-5, [], []
    for k in range(0, len(r.t), 10):
        q, v, z = r.q[k], r.v[k], r.z[k]
        choose_partition(system.bundle, system.data, cw, q, v)
        assert evaluate_accelerations(system.bundle, system.data, cw, r.t[k], q, v, z)
        taus.append(cw.lam[row])
        dE = (slider_crank_closed_form(r.t[k] + h)[1] - slider_crank_closed_form(r.t[k] - h)[1])
        expect.append(dE / (2 * h) / OMEGA)
    taus, expect = np.array(taus), np.array(expect)
    print("tau", np.round(taus, 4), "error", np.abs(taus - expect).max())
    assert np.ptp(expect) > 1.0
    np.testing.assert_allclose(taus, expect, atol=1e-6 * np.abs(expect).max())


def _gimbal(yaw, pitch, roll, rotation_j=None, marker_rotation=None):
    """Three revolute joints about B0's z, then the new y, then the newest x (so that the
    coordinates are yaw, pitch, roll: R = Rz Ry Rx), the orientation of the last part's marker
    ``m`` prescribed relative to the frame ``rotation_j`` fixed in B0."""
    asm = Assembly("gimbal")
    asm.gravity = (0.0, 0.0, -G)
    asm.add(Part("yoke", 0.5, inertia=(0.01, 0.02, 0.03)), Part("ring", 0.4, inertia=(0.02, 0.01, 0.02)),
            Part("body", 2.0, com=(0.1, 0.05, -0.02), inertia=(0.05, 0.08, 0.1)))
    asm.add(Marker("ring_y", "ring", rotation=rot_x(-np.pi / 2)),
            Marker("body_x", "body", rotation=rot_y(np.pi / 2)),
            Marker("m", "body", position=(0.3, 0.0, 0.1), rotation=marker_rotation))
    asm.add(Joint("yaw", "revolute", None, "yoke"),
            Joint("pitch", "revolute", "yoke", "ring", Pose(rotation=rot_x(-np.pi / 2)),
                  child_marker="ring_y"),
            Joint("roll", "revolute", "ring", "body", Pose(rotation=rot_y(np.pi / 2)),
                  child_marker="body_x"))
    asm.add(MarkerMotion("attitude", "m", rotation=(yaw, pitch, roll), rotation_j=rotation_j))
    return asm.compile()


def test_analytic_gimbal_follows_a_prescribed_orientation():
    """Yaw, pitch and roll prescribed as functions of time (polynomial and harmonic): the joint
    angles, rates and accelerations are the functions and their derivatives (the accelerations
    check Phi_tt and the mixed terms of the turning rows)."""
    f = (TimeFunction((0.1, 0.8, -0.3)), TimeFunction((0.2,), 0.4, 3.0, 0.5),
         TimeFunction((0.0, 0.0, 0.0, 0.2), 0.3, 5.0))
    model = _gimbal(*f)
    r = occupant.simulate(model, t_end=1.0, integrator="radau", output_dt=0.05)
    assert r.status == "finished", r.message
    for k, name in enumerate(("yaw", "pitch", "roll")):
        j = model.dof(name)
        np.testing.assert_allclose(r.q[:, j], f[k](r.t), atol=1e-10)
        np.testing.assert_allclose(r.v[:, j], f[k](r.t, 1), atol=1e-9)
        np.testing.assert_allclose(r.vdot[:, j], f[k](r.t, 2), atol=1e-8)
    np.testing.assert_allclose(r.energy["balance"], 0.0, atol=1e-7)


def test_marker_motion_relative_to_a_turned_frame():
    """The same gimbal with the marker and the reference frame both turned: the body's attitude
    holds R_part R_m = R_j Rz(a) Ry(b) Rx(c) at every output time."""
    Rj, Rm = rot_z(0.3) @ rot_x(0.2), rot_y(0.25) @ rot_z(-0.4)
    f = (TimeFunction((0.0, 1.0)), TimeFunction((0.1,), 0.2, 4.0), TimeFunction((-0.1, 0.5)))
    model = _gimbal(*f, rotation_j=Rj, marker_rotation=Rm)
    r = occupant.simulate(model, t_end=0.5, integrator="radau", output_dt=0.05)
    assert r.status == "finished", r.message
    body = model.body("body")
    assert r.constraint_violation.max() < 1e-10
    for k in range(len(r.t)):
        target = Rj @ rot_z(f[0](r.t[k])) @ rot_y(f[1](r.t[k])) @ rot_x(f[2](r.t[k]))
        # the body frame is the joint's moving frame, the marker body_x: part = body R_x^T
        R_part = r.body_poses[k, body, :3, :3] @ rot_y(np.pi / 2).T
        np.testing.assert_allclose(R_part @ Rm, target, atol=1e-9)


def test_analytic_prescribed_planar_pose():
    """A plate on a planar joint, its marker 0.2 m off the centre driven along x(t) harmonic,
    y(t) parabolic and turned at constant speed about z: the plate's coordinates follow in
    closed form and the motion's work is the plate's energy change."""
    asm = Assembly("plate")
    asm.gravity = (0.0, -G, 0.0)
    asm.add(Part("plate", 3.0, inertia=(0.05, 0.05, 0.08)), Marker("corner", "plate", (0.2, 0.0, 0.0)))
    asm.add(Joint("xy", "planar", None, "plate"))
    fx, fy, fa = TimeFunction((0.2,), 0.1, 6.0), TimeFunction((0.0, 0.5, -2.0)), TimeFunction((0.0, 3.0))
    asm.add(MarkerMotion("path", "corner", translation=(fx, fy, None), rotation=(fa, 0.0, 0.0)))
    model = asm.compile()
    r = occupant.simulate(model, t_end=0.8, integrator="radau", output_dt=0.02)
    assert r.status == "finished", r.message
    a = fa(r.t)
    centre = np.stack([fx(r.t) - 0.2 * np.cos(a), fy(r.t) - 0.2 * np.sin(a)], axis=1)
    np.testing.assert_allclose(r.body_com[:, 0, :2], centre, atol=1e-10)
    vc = np.stack([fx(r.t, 1) + 0.2 * np.sin(a) * 3.0, fy(r.t, 1) - 0.2 * np.cos(a) * 3.0], axis=1)
    E = 0.5 * 3.0 * (vc**2).sum(axis=1) + 0.5 * 0.08 * 3.0**2 + 3.0 * G * centre[:, 1]
    np.testing.assert_allclose(r.work["motions"], E - E[0], atol=1e-7)


def test_driven_rows_time_terms_by_finite_differences():
    """On a generic 3-D configuration (a prismatic, the gimbal, frames turned): d/dt Phi along
    q + v t is G v + Phi_t, and the second difference is -gamma (vdot = 0), for the joint-
    motion, translation and turning rows."""
    asm = Assembly("fd")
    rng = np.random.default_rng(7)
    for name in ("slide", "yoke", "ring", "body"):
        asm.add(Part(name, 1.0, com=rng.uniform(-0.1, 0.1, 3), inertia=(0.02, 0.03, 0.04)))
    asm.add(Marker("m", "body", position=(0.2, -0.1, 0.3), rotation=rot_y(0.3) @ rot_x(-0.5)),
            Marker("j", "slide", position=(0.1, 0.2, 0.0), rotation=rot_z(0.7) @ rot_y(0.2)))
    asm.add(Joint("p", "prismatic", None, "slide", Pose((0.1, 0.0, 0.2), rot_x(0.4))),
            Joint("a", "revolute", "slide", "yoke", Pose((0.0, 0.3, 0.0), rot_y(0.6))),
            Joint("b", "revolute", "yoke", "ring", Pose((0.2, 0.0, 0.1), rot_x(1.1))),
            Joint("c", "revolute", "ring", "body", Pose((0.0, 0.1, 0.1), rot_z(0.4) @ rot_y(1.0))))
    asm.add(JointMotion("push", "p", TimeFunction((0.1, 0.3, 0.2, -0.1), 0.05, 7.0, 0.3)),
            MarkerMotion("pose", "m", "j", translation=(TimeFunction((0.3, 0.1)), None, 0.2),
                         rotation=(TimeFunction((0.2, 0.5, 0.3)), TimeFunction((0.1,), 0.2, 5.0, 1.0),
                                   TimeFunction((-0.2, 0.3, 0.0, 0.4)))))
    model = asm.compile()
    system = MultibodySystem(model)
    cw = make_constraint_work(model)
    q, v, t, eps = rng.normal(size=model.nq), rng.normal(size=model.nv), 0.37, 1e-4

    def terms(s):
        cw.time[0] = t + s
        evaluate_constraints(system.bundle, system.data, cw, q + s * v, v)
        return cw.phi.copy(), cw.G @ v + cw.phit, cw.gamma.copy()

    phi0, rate0, gamma0 = terms(0.0)
    (p1, _, _), (m1, _, _) = terms(eps), terms(-eps)
    assert np.abs(phi0).max() > 1e-2 and np.abs(cw.phit).max() > 1e-2
    np.testing.assert_allclose((p1 - m1) / (2 * eps), rate0, atol=1e-7)
    np.testing.assert_allclose(-(p1 - 2 * phi0 + m1) / eps**2, gamma0, atol=2e-5)


def test_errors_speak_to_the_user():
    with pytest.raises(ModelingError, match=r"time function.polynomial"):
        TimeFunction((1, 2, 3, 4, 5))
    with pytest.raises(ModelingError, match=r"joint motion 'd'.function"):
        JointMotion("d", "O", "fast")
    with pytest.raises(ModelingError, match=r"marker motion 'mm': prescribes nothing"):
        MarkerMotion("mm", "m")
    asm = Assembly("bad")
    asm.add(Part("p", 1.0), Joint("s", "spherical", None, "p"))
    with pytest.raises(ModelingError, match=r"joint motion 'd'.joint: unknown 'nope'"):
        asm.add(JointMotion("d", "nope", 1.0))
    asm.add(JointMotion("d", "s", 1.0, dof=0))
    with pytest.raises(ModelError, match=r"joint motion 'd'.joint: joint 's' has 0 revolute"):
        asm.compile()
