"""Impact: the jump of the generalized velocities when bodies strike (issue 11 section 3).

Impulse-momentum over the vanishing impact time (seed 003, eqs. 4 to 23: the impulse potential
of the collision impulses gives the generalized impulse B = J^T P, and D (v+ - v-) = B, so
Delta qd = D^-1 B), with D the mass matrix and J = [J_n; J_t] the contacts' normal and
tangential Jacobians, all at the impact configuration q.

Impact law: Newton's inequality law with one coefficient e for the normal and the tangential
(friction) directions, i.e. Coulomb friction on Moreau's weighted velocity (Moreau, "Unilateral
contact and dry friction in finite freedom dynamics", CISM Courses 302, 1988; Glocker, "Energetic
consistency conditions for standard impacts", Part I, Multibody Syst. Dyn., 2013). With
u = (v+ + e v-) / (1 + e), every contact in the problem obeys

    J_n u >= 0,  P_n >= 0,  P_n J_n u = 0      i.e. post normal velocity >= -e x pre (Newton),
    |P_t| <= mu P_n, and P_t opposes the slip J_t u where it slides (stick: J_t u = 0).

Since u = v- + D^-1 J^T p with p = P / (1 + e), p is the plastic (e = 0) impact from v-, and
v+ = (1 + e) u - e v-. Energy (D-norm): |v+|^2 = (1 - e^2)|u|^2 + e^2|v-|^2 + 2e(1 + e) p.J u,
with p.J u <= 0 (friction dissipates) and |u| <= |v-| (a plastic impact dissipates), so the
kinetic energy never increases for e in [0, 1], mu >= 0. Newton's law with friction on v+
instead (a zero tangential coefficient) can create energy (Kane's example; Glocker 2013, Part
I); the two laws agree when e = 0 or there is no slip before the impact. A sticking contact with
e > 0 reverses its slip: v_t+ = -e v_t-.

Friction cone: the pyramid of m directions d_j = cos(2 pi j/m) t1 + sin(2 pi j/m) t2 of Stewart &
Trinkle (1996) and Anitescu & Potra (1997): P_t = sum_j beta_j d_j, beta >= 0, as an LCP

    [w_n]   [G_nn  G_nd  0] [p_n ]   [J_n v-]
    [w_d] = [G_dn  G_dd  E] [beta] + [J_d v-],   G = J D^-1 J^T (Delassus matrix),
    [w_l]   [mu I  -E^T  0] [lam ]   [  0   ]

solved by Lemke's algorithm (``lcp.lemke``), impulses scaled by max diag(G_nn). Should
round-off in a degenerate problem (many more contact rows than freedoms) end Lemke on a ray,
the problem is solved again with G + delta I, delta = 1e-12, 1e-10, 1e-8 x max diag(G) in turn
(``ImpactResult.regularization``; about 1 % of random frictional multi-contact cases need
1e-12, none more). The pyramid is inscribed in Coulomb's cone: friction
reaches mu P_n along the m directions and only mu cos(pi/m) P_n midway between them, and a slip
between two directions is resisted along those two. t1 lies along the slip before the impact,
so a planar slip is exact. Without friction the LCP is the normal block alone.

Simultaneous contacts are solved together. Contacts already separating (J_n v- > 0) get no
impulse; should the others' impulses drive one into its obstacle, a further round treats it as
an impact from the velocities reached (each round dissipates, so the sequence does). A sequence
still going after MAX_ROUNDS (jammed contacts, as a body clamped between opposite walls, or an
inelastic collapse) is closed by a plastic impact of all contacts, after which none approaches.
"""
from dataclasses import dataclass

import numpy as np
import scipy.linalg

from occupant.contact.errors import ContactError, ImpactSolverError
from occupant.contact.lcp import LCPError, lemke
from occupant.contact.point_contact import PointContact, check_contact, relative_jacobian, tangent_basis
from occupant.dynamics import mass_matrix

SEPARATION_TOLERANCE = 1e-12  # normal speeds within this fraction of the largest count as resting
ENERGY_TOLERANCE = 1e-12      # relative kinetic-energy increase taken for round-off
MAX_ROUNDS = 50               # impact rounds before a plastic impact closes the sequence
REGULARIZATION = (0.0, 1e-12, 1e-10, 1e-8)  # delta / max diag(G) tried in turn (_lemke)


@dataclass(frozen=True)
class ImpactResult:
    v: np.ndarray                  # (nv,) generalized velocities after the impact
    normal_impulse: np.ndarray     # (k,) N s, P_n of each contact, summed over rounds
    friction_impulse: np.ndarray   # (k, 3) N s, P_t of each contact in B0, summed over rounds
    kinetic_energy: tuple          # (before, after) J
    rounds: int                    # impact rounds taken (0: no contact approaching)
    pivots: int                    # Lemke pivots over all rounds
    closed_plastically: bool       # the rounds did not end and a plastic impact closed them
    regularization: float          # largest delta / max diag(G) a round needed (0: none)


def _state_vector(x, n, what):
    a = np.asarray(x, dtype=float)
    if a.shape != (n,) or not np.all(np.isfinite(a)):
        raise ContactError(f"{what}: expected {n} finite numbers, got shape {a.shape}")
    return a


def _check_parameters(restitution, friction, friction_directions):
    if not (isinstance(restitution, (int, float, np.floating, np.integer))
            and 0.0 <= restitution <= 1.0):
        raise ContactError(f"restitution: expected one number in [0, 1], got {restitution!r}")
    if not (isinstance(friction, (int, float, np.floating, np.integer))
            and np.isfinite(friction) and friction >= 0.0):
        raise ContactError(f"friction: expected a finite number >= 0, got {friction!r}")
    if not (isinstance(friction_directions, (int, np.integer)) and friction_directions >= 4
            and friction_directions % 4 == 0):
        raise ContactError(f"friction_directions: expected a multiple of 4, at least 4, "
                           f"got {friction_directions!r}")


def _friction_lcp(Gnn, Gnd, Gdd, mu, m, qn, qd):
    """The Stewart-Trinkle LCP matrix and vector for ka contacts of m directions each."""
    ka = len(qn)
    E = np.kron(np.eye(ka), np.ones((m, 1)))
    M = np.block([[Gnn, Gnd, np.zeros((ka, ka))],
                  [Gnd.T, Gdd, E],
                  [mu * np.eye(ka), -E.T, np.zeros((ka, ka))]])
    return M, np.concatenate([qn, qd, np.zeros(ka)])


def _plastic_round(chol, Jn, Minv_Jn, J_rel, normals, v, active, mu, m):
    """The plastic impact (e = 0) of the ``active`` contacts from ``v``: (Delta u (nv,), normal
    impulses (ka,), friction impulses (ka, 3) in B0, Lemke pivots, regularization used)."""
    ka = len(active)
    vn = Jn[active] @ v
    Gnn = Jn[active] @ Minv_Jn[:, active]
    # impulses in units of s = max diag(G_nn), so that the Delassus blocks are O(1) next to the
    # unit entries of E and mu in Lemke's relative pivot tests
    s = max(np.diag(Gnn).max(), np.finfo(float).tiny)
    if mu == 0.0:
        sol, delta = _lemke(Gnn / s, vn, ka, ka)
        p_n = sol.z / s
        return Minv_Jn[:, active] @ p_n, p_n, np.zeros((ka, 3)), sol.pivots, delta
    angles = 2.0 * np.pi * np.arange(m) / m
    dirs = np.zeros((ka, m, 3))
    for i, a in enumerate(active):
        t1, t2 = tangent_basis(normals[a], J_rel[a] @ v)
        dirs[i] = np.cos(angles)[:, None] * t1 + np.sin(angles)[:, None] * t2
    Jd = np.vstack([dirs[i] @ J_rel[a] for i, a in enumerate(active)])
    Minv_Jd = scipy.linalg.cho_solve(chol, Jd.T)
    M, b = _friction_lcp(Gnn / s, Jn[active] @ Minv_Jd / s, Jd @ Minv_Jd / s, mu, m, vn, Jd @ v)
    sol, delta = _lemke(M, b, ka, ka + ka * m)
    p_n, beta = sol.z[:ka] / s, sol.z[ka:ka + ka * m] / s
    du = Minv_Jn[:, active] @ p_n + Minv_Jd @ beta
    return du, p_n, np.einsum("aj,ajx->ax", beta.reshape(ka, m), dirs), sol.pivots, delta


def _lemke(M, b, ka, n_g):
    """Lemke on the LCP; if round-off in a degenerate problem (far more contact rows than
    freedoms) sends it onto a ray, retry with the Delassus block (the first ``n_g`` rows)
    regularized, G + delta I ("constraint force mixing"): w = J u + delta p, so p.J u stays <= 0
    and the impact still dissipates, at a normal velocity error of delta p_n. Returns
    (solution, relative delta used)."""
    scale = max(np.abs(np.diag(M)[:n_g]).max(initial=0.0), np.finfo(float).tiny)
    for delta in REGULARIZATION:
        Mr = M.copy()
        Mr[np.arange(n_g), np.arange(n_g)] += delta * scale
        try:
            return lemke(Mr, b), delta
        except LCPError as exc:
            error = exc
    raise ImpactSolverError(f"impact of {ka} contacts: {error}")


def solve_impact(model, data, q, v, contacts, restitution=0.0, friction=0.0, friction_directions=8):
    """The impact of ``contacts`` (``PointContact``) at configuration ``q`` with generalized
    velocities ``v`` before it: an ``ImpactResult`` with the velocities after, the impulses,
    the kinetic energy before and after and the solver's work. ``restitution`` e in [0, 1] and
    ``friction`` mu >= 0 hold for every contact; ``friction_directions`` m (a multiple of 4)
    facets the friction cone."""
    q, v = _state_vector(q, model.nq, "q"), _state_vector(v, model.nv, "v")
    _check_parameters(restitution, friction, friction_directions)
    if isinstance(contacts, PointContact) or not hasattr(contacts, "__len__"):
        raise ContactError(f"contacts: expected a list of PointContact, got {contacts!r}")
    checked = [check_contact(model, c, k) for k, c in enumerate(contacts)]
    k = len(checked)
    e, mu, m = float(restitution), float(friction), int(friction_directions)
    D = mass_matrix(model, data, q)
    chol = scipy.linalg.cho_factor(D)
    energy_before = 0.5 * v @ D @ v
    normals = np.array([c[3] for c in checked]).reshape(k, 3)
    J_rel = [relative_jacobian(model, data, q, b, o, p) for b, o, p, _ in checked]
    Jn = np.array([n @ J for n, J in zip(normals, J_rel)]).reshape(k, model.nv)
    Minv_Jn = scipy.linalg.cho_solve(chol, Jn.T)
    P_n, P_t = np.zeros(k), np.zeros((k, 3))
    resting = SEPARATION_TOLERANCE * max(np.abs(Jn @ v).max(initial=0.0), np.finfo(float).tiny)
    rounds = pivots = 0
    closed_plastically = False
    regularization = 0.0
    v_now = v.copy()
    while np.any(Jn @ v_now < -resting):
        # a sequence that does not end (jammed or collapsing contacts) ends in a plastic impact
        # of all contacts: the D-norm projection of v onto {J_n u >= 0}, which dissipates
        closed_plastically = rounds == MAX_ROUNDS
        active = np.arange(k) if closed_plastically else np.flatnonzero(Jn @ v_now <= resting)
        e_round = 0.0 if closed_plastically else e
        du, p_n, p_t, n_pivots, delta = _plastic_round(chol, Jn, Minv_Jn, J_rel, normals, v_now,
                                                        active, mu, m)
        regularization = max(regularization, delta)
        P_n[active] += (1.0 + e_round) * p_n
        P_t[active] += (1.0 + e_round) * p_t
        v_now = v_now + (1.0 + e_round) * du
        rounds += 1
        pivots += n_pivots
        if closed_plastically:
            break
    energy_after = 0.5 * v_now @ D @ v_now
    if energy_after > energy_before * (1.0 + ENERGY_TOLERANCE) + np.finfo(float).tiny:
        raise ImpactSolverError(f"the impact solution would raise the kinetic energy from "
                                f"{energy_before:.17g} J to {energy_after:.17g} J")
    return ImpactResult(v_now, P_n, P_t, (energy_before, energy_after), rounds, pivots,
                        closed_plastically, regularization)


def velocity_jump(model, data, q, v, contacts, restitution=0.0, friction=0.0, friction_directions=8):
    """Generalized velocities (nv,) just after the impact of ``contacts`` (a list of
    ``PointContact``) at ``q`` from ``v`` before it: Delta v = D^-1 J^T P with the impulses P of
    the impact law of this module (``solve_impact`` returns them too)."""
    return solve_impact(model, data, q, v, contacts, restitution, friction, friction_directions).v
