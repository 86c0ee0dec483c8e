"""Closed loops and the state-space DAE solver (issue 12 section 4, seed 001 chapter 3): the
four-bar and the slider-crank under gravity.

The references are written here, independently of occupant: each mechanism in its one minimal
coordinate (the crank angle), with the loop closed in closed form, the generalized mass
m(theta) and the potential V(theta) from the link positions (their theta-derivatives by complex
step), Lagrange's equation m theta'' + m'(theta) theta'^2 / 2 + V'(theta) = 0, integrated by
scipy's Radau at rtol 1e-12.
"""
import numpy as np
import pytest
from scipy.integrate import solve_ivp

import occupant
from occupant.constraints.state_space import (choose_partition, evaluate_constraints,
                                               make_constraint_work)
from occupant.integrate.system import MultibodySystem
from occupant.model.model import ModelError
from occupant.modeling import Assembly, Joint, Part, Pose

G = 9.81
METHODS = ("radau", "bdf", "newmark")
# m: the accuracy each method is held to at the tolerances of ``runs`` (orders 5, up to 5, 2)
ACCURACY = {"radau": 1e-7, "bdf": 1e-5, "newmark": 3e-5}


# ---------------------------------------------------------------------------------------------
# independent references in minimal coordinates

def four_bar_links(theta):
    """Centres of mass (3, 2) and absolute angles (3,) of crank, coupler, rocker (complex-safe)."""
    l1, l2, l3, x2 = 0.2, 0.6, 0.5, 0.5
    a = np.array([l1 * np.cos(theta), l1 * np.sin(theta)])
    dx, dy = x2 - a[0], 0.0 - a[1]
    d2 = dx * dx + dy * dy
    # C = a + k (O2 - a) + s n, n the left normal of (O2 - a), upper solution
    k = (l2 * l2 - l3 * l3 + d2) / (2 * d2)
    s = np.sqrt(l2 * l2 / d2 - k * k)
    c = np.array([a[0] + k * dx - s * dy, a[1] + k * dy + s * dx])
    u2, u3 = (c - a) / l2, (c - np.array([x2, 0.0])) / l3
    com = np.array([a / 2, a + u2 * l2 / 2, np.array([x2, 0.0]) + u3 * l3 / 2])
    dirs = np.array([[np.cos(theta), np.sin(theta)], u2, u3])
    return com, dirs, np.array([1.0, 3.0, 2.0]), np.array([l1, l2, l3])


def slider_crank_links(theta):
    l1, l2 = 0.2, 0.6
    a = np.array([l1 * np.cos(theta), l1 * np.sin(theta)])
    xs = a[0] + np.sqrt(l2 * l2 - a[1] * a[1])
    u2 = (np.array([xs, 0.0]) - a) / l2
    com = np.array([a / 2, a + u2 * l2 / 2, np.array([xs, 0.0])])
    dirs = np.array([[np.cos(theta), np.sin(theta)], u2, [1.0, 0.0]])
    return com, dirs, np.array([1.0, 2.0, 1.0]), np.array([l1, l2, 0.0])


def _mass_and_potential(links, theta):
    """m(theta), V(theta), V'(theta): velocities per unit crank rate by complex step."""
    h = 1e-30
    com, dirs, mass, length = links(theta + 1j * h)
    dcom, ddir = com.imag / h, dirs.imag / h
    com, dirs = com.real, dirs.real
    # angular rate of a link: u x u' for its unit direction u (0 for the slider's fixed one)
    omega = dirs[:, 0] * ddir[:, 1] - dirs[:, 1] * ddir[:, 0]
    inertia = mass * length**2 / 12
    m = np.sum(mass * np.sum(dcom**2, axis=1) + inertia * omega**2)
    return m, np.sum(mass * G * com[:, 1]), np.sum(mass * G * dcom[:, 1])


def reference(links, theta0, t_eval):
    def rhs(t, y):
        th, w = y
        m, _, dV = _mass_and_potential(links, th)
        e = 1e-5
        dm = (_mass_and_potential(links, th + e)[0] - _mass_and_potential(links, th - e)[0]) / (2 * e)
        return [w, -(dV + 0.5 * dm * w * w) / m]
    sol = solve_ivp(rhs, (0.0, t_eval[-1]), [theta0, 0.0], method="Radau", t_eval=t_eval,
                    rtol=1e-12, atol=1e-12)
    coms = np.array([links(th)[0] for th in sol.y[0]])
    return sol.y[0], coms


CASES = {"four_bar": (occupant.samples.four_bar, four_bar_links, ("crank", "coupler", "rocker")),
         "slider_crank": (occupant.samples.slider_crank, slider_crank_links, ("crank", "rod", "slider"))}


@pytest.fixture(scope="module")
def runs():
    out = {}
    for name, (build, _, _) in CASES.items():
        model = build()
        for method in METHODS:
            # the second-order Newmark gets a tighter tolerance for the same accuracy
            rtol = 1e-9 if method == "newmark" else 1e-8
            out[name, method] = occupant.simulate(model, t_end=2.0, integrator=method,
                                                  output_dt=0.01, rtol=rtol, atol=rtol * 1e-2)
    return out


# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", CASES)
def test_reference_matches_minimal_coordinates(runs, name):
    """2 s under gravity: every body's centre of mass within ACCURACY of the minimal-coordinate
    reference, for every integrator; the crank swings through more than 90 degrees."""
    _, links, bodies = CASES[name]
    for method in METHODS:
        r = runs[name, method]
        assert r.status == "finished", r.message
        theta, coms = reference(links, np.radians(60.0), r.t)
        assert np.ptp(theta) > np.radians(90.0)
        for b, body in enumerate(bodies):
            got = r.body_com[:, r.body_names.index(body), :2]
            err = np.abs(got - coms[:, b]).max()
            print(name, method, body, f"largest com error {err:.2e} m")
            assert err < ACCURACY[method], (name, method, body, err)
        assert np.all(np.abs(r.body_com[:, :, 2]) < 1e-12)   # stays in the x-y plane


@pytest.mark.parametrize("name", CASES)
def test_analytic_constraints_hold_and_energy_is_kept(runs, name):
    for method in METHODS:
        r = runs[name, method]
        assert r.constraint_violation.shape == r.t.shape
        assert r.constraint_violation.max() < 1e-8
        assert r.constraint_velocity_violation.max() < 1e-8
        e = r.energy["total"]
        drift = np.abs(e - e[0]).max() / abs(e[0])
        print(name, method, f"violation {r.constraint_violation.max():.1e}, energy drift {drift:.1e}", s if False else r.stats)
        assert drift < {"radau": 1e-6, "bdf": 1e-5, "newmark": 1e-4}[method], (method, drift)
        # work counters: adaptive steps, inner Newton iterations and LU factorisations done
        s = r.stats
        assert 50 < s["steps"] < 20000 and s["lu_factorizations"] > s["steps"]
        assert s["position_newton_iterations"] > 0 and s["partitions"] >= 1


def test_analytic_four_bar_100_s():
    """The seed's long run: 100 s of the undamped four-bar with Radau IIA; constraint violation
    below 1e-8 at every output time and total energy within 1e-6 (relative) of its start."""
    r = occupant.simulate(occupant.samples.four_bar(), t_end=100.0, integrator="radau",
                          output_dt=0.05, rtol=1e-8, atol=1e-10)
    assert r.status == "finished" and r.t[-1] == pytest.approx(100.0)
    assert r.constraint_violation.max() < 1e-8
    assert r.constraint_velocity_violation.max() < 1e-8
    e = r.energy["total"]
    assert np.abs(e - e[0]).max() / abs(e[0]) < 1e-6
    # it keeps swinging: the rocker tip (coupler-rocker joint) still moves in the last 10 s
    assert np.ptp(r.body_com[r.t > 90, r.body_names.index("rocker"), 1]) > 0.01


def test_identity_jacobian_and_gamma_on_a_spatial_loop():
    """G against central differences of Phi and gamma against those of G v, for a loop that does
    not stay in a plane (every distance and dot row is active)."""
    asm = Assembly("spatial_loop")
    rng = np.random.default_rng(3)
    for i in range(4):
        asm.add(Part(f"b{i}", 1.0 + i, com=rng.uniform(-0.1, 0.1, 3), inertia=(0.02, 0.03, 0.04)))
    R = lambda: np.linalg.qr(rng.normal(size=(3, 3)))[0] * np.array([1, 1, 1])
    def rot():
        Q = R()
        return Q if np.linalg.det(Q) > 0 else -Q
    asm.add(Joint("j0", "revolute", None, "b0", Pose(rng.uniform(-0.3, 0.3, 3), rot())))
    asm.add(Joint("j1", "prismatic", "b0", "b1", Pose(rng.uniform(-0.3, 0.3, 3), rot())))
    asm.add(Joint("j2", "revolute", "b1", "b2", Pose(rng.uniform(-0.3, 0.3, 3), rot())))
    asm.add(Joint("j3", "revolute", None, "b3", Pose(rng.uniform(-0.3, 0.3, 3), rot())))
    asm.add(Joint("j4", "revolute", "b3", "b2", Pose(rng.uniform(-0.3, 0.3, 3), rot())))
    model = asm.compile()
    assert model.constraint_names == ("j2",) * 5     # the breadth-first tree cuts j2
    system = MultibodySystem(model)
    cw = make_constraint_work(model)
    q, v = rng.normal(size=model.nq), rng.normal(size=model.nv)
    evaluate_constraints(system.bundle, system.data, cw, q, v)
    G0, gamma0 = cw.G.copy(), cw.gamma.copy()
    assert np.abs(cw.phi).max() > 1e-3 and np.abs(G0[3:]).max() > 1e-3
    eps = 1e-6
    for j in range(model.nv):
        dq = np.zeros(model.nq)
        dq[j] = eps
        evaluate_constraints(system.bundle, system.data, cw, q + dq, v)
        p1 = cw.phi.copy()
        evaluate_constraints(system.bundle, system.data, cw, q - dq, v)
        assert np.abs((p1 - cw.phi) / (2 * eps) - G0[:, j]).max() < 1e-8
    evaluate_constraints(system.bundle, system.data, cw, q + eps * v, v)
    Gp = cw.G @ v
    evaluate_constraints(system.bundle, system.data, cw, q - eps * v, v)
    assert np.abs(-(Gp - cw.G @ v) / (2 * eps) - gamma0).max() < 1e-7
    # generic configuration: 5 rows on 4 coordinates, the Jacobian has full column rank 4
    assert choose_partition(system.bundle, system.data, cw, q, v) == model.nv == 4


def test_identity_partition_drops_redundant_planar_rows():
    model = occupant.samples.four_bar()
    cw = make_constraint_work(model)
    system = MultibodySystem(model)
    rank = choose_partition(system.bundle, system.data, cw, model.neutral_configuration(),
                            np.zeros(model.nv))
    assert rank == 2 and cw.sizes[1] == 1      # one degree of freedom


def test_errors_speak_to_the_user():
    model = occupant.samples.four_bar()
    with pytest.raises(ValueError, match="closed loops.*'rk4' ignores constraints"):
        occupant.simulate(model, t_end=0.1, integrator="rk4")
    asm = Assembly("bad_loop")
    asm.add(Part("a", 1.0), Part("b", 1.0))
    asm.add(Joint("ja", "revolute", None, "a"), Joint("jb", "revolute", "a", "b"),
            Joint("loop", "euler", "a", "b"))
    with pytest.raises(ModelError, match="joint 'loop' closes a kinematic loop and is a euler"):
        asm.compile()
