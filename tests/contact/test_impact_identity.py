"""Identities of the impact solution on random trees (samples.random_tree) with random
simultaneous contacts, body against obstacle and body against body: the kinetic energy never
increases; D (v+ - v-) = sum J_i^T P_i with the returned impulses and Jacobians built here from
point_jacobian; no contact is left approaching; the friction impulse lies in the (inscribed)
Coulomb cone; a frictionless impact with e = 1 conserves energy."""
import numpy as np
import pytest

from occupant.contact import PointContact, solve_impact
from occupant.dynamics import body_poses, mass_matrix, point_jacobian
from occupant.samples import random_tree

CASES = [(("revolute",), False), (("revolute", "prismatic", "universal"), True),
         (("spherical", "euler", "free", "fixed", "revolute"), False)]


def _random_contacts(model, data, q, rng, k):
    X = body_poses(model, data, q)
    contacts = []
    for _ in range(k):
        b = int(rng.integers(model.nb))
        point = X[b, :3, 3] + rng.uniform(-0.3, 0.3, 3)
        normal = rng.normal(size=3)
        other = None
        if model.nb > 1 and rng.random() < 0.3:
            other = model.body_names[(b + 1 + int(rng.integers(model.nb - 1))) % model.nb]
        contacts.append(PointContact(model.body_names[b], point, normal / np.linalg.norm(normal), other))
    return contacts


def _jacobian(model, data, q, c):
    X = body_poses(model, data, q)

    def at(name):
        b = model.body(name)
        return point_jacobian(model, data, q, b, X[b, :3, :3].T @ (np.asarray(c.point) - X[b, :3, 3]))

    return at(c.body) - (at(c.other) if c.other is not None else 0.0)


def _samples(n):
    rng = np.random.default_rng(2024)
    for s in range(n):
        types, floating = CASES[s % len(CASES)]
        model = random_tree(int(rng.integers(2, 7)), 100 + s, joint_types=types, floating_base=floating)
        if model.nv == 0:
            continue
        data = model.make_data()
        q = model.random_configuration(rng)
        v = rng.normal(size=model.nv)
        contacts = _random_contacts(model, data, q, rng, int(rng.integers(1, 7)))
        yield model, data, q, v, contacts, rng


@pytest.mark.parametrize("frictional, directions", [(False, 8), (True, 4), (True, 8), (True, 16)],
                         ids=["frictionless", "friction4", "friction8", "friction16"])
def test_identity_impact_energy_momentum_and_law_on_random_trees(frictional, directions):
    worst_energy, most_pivots, most_rounds, impacts, closed = -np.inf, 0, 0, 0, 0
    for model, data, q, v, contacts, rng in _samples(60):
        e = float(rng.uniform(0.0, 1.0))
        mu = float(rng.uniform(0.0, 1.5)) if frictional else 0.0
        res = solve_impact(model, data, q, v, contacts, restitution=e, friction=mu,
                           friction_directions=directions)
        before, after = res.kinetic_energy
        assert after <= before * (1 + 1e-12), (model.name, before, after)
        if res.rounds:
            worst_energy = max(worst_energy, (after - before) / before)
        most_pivots, most_rounds = max(most_pivots, res.pivots), max(most_rounds, res.rounds)
        impacts += res.rounds > 0
        closed += res.closed_plastically
        assert res.regularization <= 1e-12
        D = mass_matrix(model, data, q)
        Js = [_jacobian(model, data, q, c) for c in contacts]
        impulse = sum(J.T @ (Pn * np.asarray(c.normal) + Pt)
                      for J, c, Pn, Pt in zip(Js, contacts, res.normal_impulse, res.friction_impulse))
        scale = max(np.abs(D @ v).max(), 1.0)
        assert np.abs(D @ (res.v - v) - impulse).max() <= 1e-10 * scale
        speed = max(np.abs(J @ v).max() for J in Js)
        round_off = 1e-12 * max(res.normal_impulse.max(), np.abs(res.friction_impulse).max(), 1e-300)
        for J, c, Pn, Pt in zip(Js, contacts, res.normal_impulse, res.friction_impulse):
            n = np.asarray(c.normal)
            assert n @ J @ res.v >= -1e-9 * speed        # nothing left approaching
            assert Pn >= 0.0 and abs(Pt @ n) <= round_off
            assert np.linalg.norm(Pt) <= mu * Pn + round_off
    assert impacts >= 40  # most samples do strike
    print(f"max relative energy change {worst_energy:.3e}, pivots <= {most_pivots}, "
          f"rounds <= {most_rounds}, impacts {impacts}, closed plastically {closed}")


def test_identity_elastic_frictionless_impact_conserves_energy():
    """e = 1 without friction: |v+|_D = |v-|_D unless a plastic impact had to close the
    sequence (|v+|^2 = (1 - e^2)|u|^2 + e^2 |v-|^2 with u the plastic solution of each round,
    module docstring); jammed contact sets, which need that closure, lose energy."""
    elastic = closed = 0
    for model, data, q, v, contacts, rng in _samples(60):
        res = solve_impact(model, data, q, v, contacts, restitution=1.0)
        before, after = res.kinetic_energy
        if res.closed_plastically:
            assert after < before
            closed += 1
        else:
            assert abs(after - before) <= 1e-11 * before
            elastic += res.rounds > 0
    assert elastic >= 25 and closed >= 1
    print(f"elastic impacts {elastic}, closed plastically {closed}")
