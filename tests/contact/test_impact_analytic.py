"""Closed-form impacts (issue 11 section 3): a rod striking the ground at an angle (frictionless,
sliding, sticking), Newton's cradle under the simultaneous impact law, a ball bouncing between
two walls of a wedge in a sequence of rounds, and a separating contact that gets no impulse."""
import numpy as np
import pytest

from occupant.contact import PointContact, solve_impact, velocity_jump
from occupant.dynamics import body_poses, mass_matrix
import impact_models as im

M_ROD, L_ROD = 2.0, 1.2   # kg, m
TOL = 1e-12               # relative, against the closed forms


def rod_closed_form(theta, v_centre, omega, e, mu):
    """Post-impact (centre velocity, omega_y, Px, Pz) of a uniform rod (mass m, length L,
    I = m L^2/12 about its centre) whose lower end A strikes the ground z = 0, derived by hand
    from the impulse-momentum equations. With s = sin(theta), c = cos(theta) and the rod axis
    u = (c, 0, s), A lies at r = -(L/2) u from the centre, so for omega about +y

        v_A = v_c + omega x r = (v_x - (L/2) omega s,  v_z + (L/2) omega c).

    An impulse P = (Px, Pz) at A gives m Delta v_c = P and I Delta omega = (r x P)_y
    = (L/2)(c Pz - s Px), so Delta omega = 6 (c Pz - s Px) / (m L) and

        Delta v_Ax = [(1 + 3 s^2) Px - 3 s c Pz] / m,
        Delta v_Az = [(1 + 3 c^2) Pz - 3 s c Px] / m.              (K P / m)

    Impact law (Moreau's, which is Newton's for the normal): v_Az+ = -e v_Az-. Friction:
    - none: Px = 0, so Pz = m (1 + e)(-v_Az-) / (1 + 3 c^2);
    - sliding (slip towards -x, friction Px = +mu Pz): Pz = m (1 + e)(-v_Az-) / (1 + 3 c^2 - 3 mu s c);
    - sticking: the tangential velocity of the weighted velocity vanishes, v_Ax+ = -e v_Ax-, so
      both components of A's velocity change are known: P = m K^-1 (Delta v_A).
    Sticking holds while |Px| <= mu Pz; from rest in x it needs mu >= 3 s c / (1 + 3 s^2)."""
    s, c, m, L = np.sin(theta), np.cos(theta), M_ROD, L_ROD
    vAx = v_centre[0] - L / 2 * omega * s
    vAz = v_centre[2] + L / 2 * omega * c
    if mu == 0.0:
        Px, Pz = 0.0, m * (1 + e) * (-vAz) / (1 + 3 * c * c)
    elif mu == "stick":
        K = np.array([[1 + 3 * s * s, -3 * s * c], [-3 * s * c, 1 + 3 * c * c]])
        Px, Pz = m * np.linalg.solve(K, [-(1 + e) * vAx, -(1 + e) * vAz])
    else:
        Pz = m * (1 + e) * (-vAz) / (1 + 3 * c * c - 3 * mu * s * c)
        Px = mu * Pz
    v_after = np.asarray(v_centre, float) + np.array([Px, 0.0, Pz]) / m
    return v_after, omega + 6 * (c * Pz - s * Px) / (m * L), Px, Pz


def _rod_impact(theta, v_centre, omega, e, mu):
    model = im.rod(M_ROD, L_ROD)
    data = model.make_data()
    q, v = im.rod_state(model, np.array([0.3, -0.2, 1.0]), theta, v_centre, omega)
    X = body_poses(model, data, q)[0]
    A = X[:3, :3] @ [-L_ROD / 2, 0.0, 0.0] + X[:3, 3]
    res = solve_impact(model, data, q, v, [PointContact("rod", A, (0.0, 0.0, 1.0))],
                       restitution=e, friction=mu)
    v_c, w = im.rod_motion(model, q, res.v)
    return res, v_c, w


def _close(a, b):
    return np.linalg.norm(np.asarray(a) - np.asarray(b)) <= TOL * max(np.linalg.norm(b), 1.0)


@pytest.mark.parametrize("e", [0.0, 0.5, 1.0])
def test_analytic_rod_strikes_frictionless_ground(e):
    """Any pre-impact centre velocity and spin: centre velocity, spin and impulse to 1e-12."""
    theta, v_c0, w0 = 0.6, np.array([0.7, 0.0, -3.0]), 1.3
    res, v_c, w = _rod_impact(theta, v_c0, w0, e, 0.0)
    v_ref, w_ref, _, Pz = rod_closed_form(theta, v_c0, w0, e, 0.0)
    assert _close(v_c, v_ref) and _close(w, [0.0, w_ref, 0.0]) and _close(res.normal_impulse, [Pz])
    assert np.all(res.friction_impulse == 0.0)
    before, after = res.kinetic_energy
    assert after <= before * (1 + 1e-12) and (e < 1.0 or abs(after - before) <= 1e-13 * before)


@pytest.mark.parametrize("e", [0.0, 0.5, 1.0])
def test_analytic_rod_slides_on_the_ground(e):
    """Dropped without spin or slip, friction below 3 s c / (1 + 3 s^2): A slides, P_t = mu P_n."""
    theta, mu = 0.6, 0.2
    s, c = np.sin(theta), np.cos(theta)
    assert mu < 3 * s * c / (1 + 3 * s * s)
    res, v_c, w = _rod_impact(theta, [0.0, 0.0, -3.0], 0.0, e, mu)
    v_ref, w_ref, Px, Pz = rod_closed_form(theta, [0.0, 0.0, -3.0], 0.0, e, mu)
    assert _close(v_c, v_ref) and _close(w, [0.0, w_ref, 0.0])
    assert _close(res.normal_impulse, [Pz]) and _close(res.friction_impulse, [[Px, 0.0, 0.0]])
    assert res.kinetic_energy[1] < res.kinetic_energy[0]


@pytest.mark.parametrize("e", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("v_x", [0.0, 0.4])
def test_analytic_rod_sticks_on_the_ground(e, v_x):
    """Friction above the sticking limit: A's velocity after is (-e v_Ax-, e |v_Az-|), which for
    a rod dropped without slip (v_x = 0) is Newton's law with sticking friction. With e = 1 the
    whole relative velocity at A reverses and the strike is elastic."""
    theta, mu = 0.6, 5.0
    res, v_c, w = _rod_impact(theta, [v_x, 0.0, -3.0], 0.0, e, mu)
    v_ref, w_ref, Px, Pz = rod_closed_form(theta, [v_x, 0.0, -3.0], 0.0, e, "stick")
    assert abs(Px) <= mu * Pz
    assert _close(v_c, v_ref) and _close(w, [0.0, w_ref, 0.0])
    assert _close(res.normal_impulse, [Pz]) and _close(res.friction_impulse, [[Px, 0.0, 0.0]])
    before, after = res.kinetic_energy
    assert after <= before * (1 + 1e-12) and (e < 1.0 or abs(after - before) <= 1e-13 * before)


def _cradle_contacts(n, radius):
    """Contacts between neighbours: ball i+1 touched by ball i at their common point, normal +x
    (from ball i into ball i+1)."""
    return [PointContact(f"ball{i + 1}", ((2 * i + 1) * radius, 0.0, 0.0), (1.0, 0.0, 0.0),
                         other=f"ball{i}") for i in range(n - 1)]


@pytest.mark.parametrize("n", [2, 3, 5])
def test_analytic_newtons_cradle_simultaneous(n):
    """n equal balls in a touching row, the first moving at v0, e = 1, all contacts solved
    together. Every contact active: v2 - v1 = v0 (restitution at the approaching contact),
    v_{i+1} = v_i at the resting ones, and momentum v1 + (n - 1) w = v0 give w = 2 v0 / n for
    balls 2..n and v1 = (2 - n) v0 / n (impulses m w (n - i) > 0, so all active indeed). This is
    what simultaneous impact predicts: the textbook "last ball leaves" (0, ..., 0, v0) needs
    pairwise sequential impacts (small gaps), which only n = 2 reproduces. Energy: (2 - n)^2/n^2
    + 4 (n - 1)/n^2 = 1, conserved exactly, and momentum too."""
    m, radius, v0 = 0.3, 0.025, 1.7
    model = im.cradle([m] * n, radius)
    data = model.make_data()
    q, v = np.zeros(n), np.zeros(n)
    v[0] = v0
    res = solve_impact(model, data, q, v, _cradle_contacts(n, radius), restitution=1.0)
    w = 2 * v0 / n
    expected = np.full(n, w)
    expected[0] = (2 - n) * v0 / n
    assert np.allclose(res.v, expected, rtol=0, atol=TOL * v0)
    assert np.allclose(res.normal_impulse, m * w * (n - 1 - np.arange(n - 1)), rtol=0, atol=TOL * m * v0)
    assert abs(m * res.v.sum() - m * v0) <= TOL * m * v0
    before, after = res.kinetic_energy
    assert abs(after - before) <= TOL * before


def test_analytic_cradle_unequal_masses_conserves_momentum_and_loses_energy():
    """Unequal balls, e = 0.7: momentum conserved exactly, energy lost, and the impact law holds
    at every contact (relative normal speed >= e x approach speed, impulses >= 0, complementary)."""
    masses, radius, e = [0.5, 0.2, 0.9, 0.4], 0.02, 0.7
    model = im.cradle(masses, radius)
    data = model.make_data()
    v = np.array([2.0, 0.5, 0.0, 0.0])
    res = solve_impact(model, data, np.zeros(4), v, _cradle_contacts(4, radius), restitution=e)
    assert abs(np.dot(masses, res.v) - np.dot(masses, v)) <= TOL * np.dot(masses, v)
    assert res.kinetic_energy[1] < res.kinetic_energy[0]
    rel_before, rel_after = np.diff(v), np.diff(res.v)
    target = -e * np.minimum(rel_before, 0.0)
    assert np.all(rel_after >= target - 1e-12) and np.all(res.normal_impulse >= 0.0)
    assert np.all(np.abs(res.normal_impulse * (rel_after - target)) <= 1e-12)


def _reflect_sequence(v, normals, e):
    """Reference: a point mass meeting walls one at a time, v <- v - (1 + e)(n.v) n for the wall
    it approaches, until it approaches none."""
    v = np.array(v, float)
    count = 0
    while True:
        approaching = [n for n in normals if n @ v < -1e-14]
        if not approaching:
            return v, count
        assert len(approaching) == 1, "the reference handles one wall at a time"
        n = approaching[0]
        v = v - (1 + e) * (n @ v) * n
        count += 1


@pytest.mark.parametrize("e", [1.0, 0.8])
def test_analytic_ball_in_a_wedge_takes_rounds(e):
    """A ball (contacts at its centre) in a narrow wedge between the floor and a wall tilted
    11 deg over it: bouncing off the floor drives it into the wall, and so on; each round is one
    reflection, so the result is the sequence of reflections of a point mass."""
    from occupant.modeling import Assembly, Joint, Part, Pose
    asm = Assembly("ball")
    asm.add(Part("ball", 0.8, com=(0.0, 0.0, 0.0), inertia=(1e-3, 1e-3, 1e-3)))
    asm.add(Joint("free", "free", None, "ball", Pose()))
    model = asm.compile()
    data = model.make_data()
    q = model.neutral_configuration()
    floor = np.array([0.0, 0.0, 1.0])
    wall = np.array([0.2, 0.0, -0.98]) / np.linalg.norm([0.2, 0.0, -0.98])
    v_before = np.array([1.0, 0.0, -1.0, 0.0, 0.0, 0.0])  # rod frame = B0 at the neutral pose
    contacts = [PointContact("ball", (0.0, 0.0, 0.0), floor), PointContact("ball", (0.0, 0.0, 0.0), wall)]
    res = solve_impact(model, data, q, v_before, contacts, restitution=e)
    v_ref, count = _reflect_sequence(v_before[:3], [floor, wall], e)
    assert count >= 3 and res.rounds == count
    assert np.allclose(res.v[:3], v_ref, rtol=0, atol=TOL) and np.all(res.v[3:] == 0.0)
    before, after = res.kinetic_energy
    assert after <= before * (1 + 1e-12) and (e < 1 or abs(after - before) <= TOL * before)


def test_analytic_separating_contact_gets_no_impulse():
    """A level rod spinning about its centre, one end going down onto the ground and the other
    up: the rising end gets no impulse and the result equals the impact of the falling end alone."""
    model = im.rod(M_ROD, L_ROD)
    data = model.make_data()
    q, v = im.rod_state(model, np.zeros(3), 0.0, [0.0, 0.0, 0.0], 2.0)  # end at -L/2 rises
    ends = [PointContact("rod", (s * L_ROD / 2, 0.0, 0.0), (0.0, 0.0, 1.0)) for s in (-1, 1)]
    both = solve_impact(model, data, q, v, ends, restitution=0.5, friction=0.3)
    alone = solve_impact(model, data, q, v, ends[1:], restitution=0.5, friction=0.3)
    assert both.normal_impulse[0] == 0.0 and np.all(both.friction_impulse[0] == 0.0)
    assert both.normal_impulse[1] > 0.0
    assert np.array_equal(both.v, alone.v)
    D = mass_matrix(model, data, q)
    assert 0.5 * both.v @ D @ both.v < 0.5 * v @ D @ v


def test_analytic_no_contact_approaching_leaves_velocity():
    model = im.rod(M_ROD, L_ROD)
    data = model.make_data()
    q, v = im.rod_state(model, np.zeros(3), 0.3, [0.0, 0.0, 1.0], 0.0)
    out = velocity_jump(model, data, q, v, [PointContact("rod", (0.0, 0.0, 0.0), (0.0, 0.0, 1.0))], 0.5)
    assert np.array_equal(out, v)


def test_analytic_kanes_example_no_energy_from_friction():
    """Why friction acts on the weighted velocity: a rod striking with e = 1 while its end slips
    (theta = 0.9, v_Ax- = 0.5, v_Az- = -1) and sticks. Newton's law with friction on v+ would set
    v_A+ = (0, 1), P = m K^-1 (v_A+ - v_A-) with K of rod_closed_form: the hand computation below
    gives 18 % more kinetic energy after than before (Kane's paradox). This module's law sets
    v_A+ = -v_A- instead and conserves energy exactly."""
    theta, m, L = 0.9, M_ROD, L_ROD
    s, c = np.sin(theta), np.cos(theta)
    K = np.array([[1 + 3 * s * s, -3 * s * c], [-3 * s * c, 1 + 3 * c * c]]) / m
    v_A = np.array([0.5, -1.0])
    Px, Pz = np.linalg.solve(K, np.array([0.0, 1.0]) - v_A)
    v_c = v_A + np.array([Px, Pz]) / m
    w = 6 * (c * Pz - s * Px) / (m * L)
    gain = (m * v_c @ v_c + m * L * L / 12 * w * w) / (m * v_A @ v_A)
    assert gain > 1.18
    res, _, _ = _rod_impact(theta, [0.5, 0.0, -1.0], 0.0, 1.0, 10.0)
    _, _, Px_ref, Pz_ref = rod_closed_form(theta, [0.5, 0.0, -1.0], 0.0, 1.0, "stick")
    assert abs(Px_ref) <= 10.0 * Pz_ref  # it sticks
    before, after = res.kinetic_energy
    assert abs(after - before) <= 1e-13 * before
