"""Crush groups (``ContactPair.crush_group``): the pairs of one crushable part loaded by one
link's geometries crush it once, at the deepest of their penetrations, with one history, the
force shared in proportion to their penetrations (``occupant.contact.compliant``). Two spheres
on one ball, on a vertical prismatic joint, over the floor: the lower one d = -q deep, the other
S higher (d - S). Grouped, the ball meets the floor as the lower sphere alone would (the
closed forms of ``test_compliant_contact``'s bounces); not grouped, both pairs push, each its
own law."""
import numpy as np
import pytest

import occupant
from occupant.model import ModelError
from occupant.modeling import (
    Assembly, ContactCharacteristic, ContactPair, Joint, Marker, Part, Plane, Pose, Sphere,
)
from tests.contact.test_compliant_contact import K, M, R
from tests.contact.test_pair_work import _sums_to_the_contact_work

S = 0.003     # m, how much higher the second sphere's lowest point is


def _two_spheres(characteristic, group="pad", two_links=False, other=None):
    """The ball (and, ``two_links``, a second ball on its own joint carrying the upper sphere),
    its spheres "low" and "high" against the planes "floor_low" and "floor_high" (both z = -R,
    two faces of one part); pairs ``low`` and ``high`` in crush group ``group``."""
    asm = Assembly("two")
    asm.add(Part("ball", M, inertia=(0.002, 0.002, 0.002)))
    asm.add(Joint("lift", "prismatic", None, "ball", Pose()))
    asm.add(Marker("centre", "ball"))
    carrier = "ball"
    if two_links:
        asm.add(Part("ball2", M, inertia=(0.002, 0.002, 0.002)))
        asm.add(Joint("lift2", "prismatic", None, "ball2", Pose(position=(0.3, 0.0, 0.0))))
        carrier = "ball2"
    asm.add(Marker("side", carrier, position=(0.0 if two_links else 0.2, 0.0, 0.0)))
    asm.add(Sphere("low_ball", "centre", R))
    asm.add(Sphere("high_ball", "side", R - S))
    asm.add(Plane("floor_low", None, point=(0.0, 0.0, -R)))
    asm.add(Plane("floor_high", None, point=(0.0, 0.0, -R)))
    asm.add(ContactPair("low", "low_ball", "floor_low", characteristic, crush_group=group))
    asm.add(ContactPair("high", "high_ball", "floor_high", other or characteristic, crush_group=group))
    return asm.compile()


def _bounce(model, v0=1.0, t_end=0.06, dt=1e-5):
    q0 = [0.0, 0.0] if model.nq == 2 else [0.0]
    v = [-v0, -v0] if model.nq == 2 else [-v0]
    return occupant.simulate(model, t_end, q0=q0, v0=v, integrator="rk4", dt=dt,
                             gravity=(0, 0, 0), output_dt=dt)


def test_analytic_crush_group_loads_and_unloads_as_one_surface():
    """Linear loading k D (D = -q the lower sphere's depth, the group's deepest), straight-line
    unloading from d_m = v0 sqrt(m / k) to the permanent set eps d_m: the ball leaves at
    sqrt(1 - eps) v0 and the pairs' normal works sum to the loop's area eps m v0^2 / 2, as one
    pair's (``test_analytic_hysteresis_absorption_dissipates_its_loop_area``, its bound), though
    the upper sphere reaches the floor too; at every sample the pairs' forces sum to the group's
    law at D on its one history (the lower pair's state; the upper pair's stays 0) and share it
    as their depths do; the pairs' elastic energies sum to the group's, and their works to the
    contact slot's."""
    eps, v0, dt = 0.4, 1.0, 1e-5
    model = _two_spheres(ContactCharacteristic(stiffness=K, absorption=eps))
    res = _bounce(model, v0, dt=dt)
    bound = (np.sqrt(K / M) * dt) ** 2
    o = res.outputs
    d_low, d_high = o["low.penetration"], o["high.penetration"]
    D = np.maximum(-res.q[:, 0], 0.0)
    np.testing.assert_allclose(d_low, D, rtol=0, atol=1e-15)
    assert d_high.max() > 0.5 * D.max()        # the upper sphere does press the floor
    d_m = v0 * np.sqrt(M / K)
    z = res.z[:, model.z_names.index("low.max_penetration")]
    assert z[-1] == pytest.approx(d_m, rel=bound)
    assert np.all(res.z[:, model.z_names.index("high.max_penetration")] == 0.0)
    # the group's law at D on the shared history: loading k D, then the line to eps d_m
    d0 = eps * z
    law = np.where(D >= z * (1 - 1e-12), K * D,
                   np.where(D > d0, K * z * (D - d0) / np.maximum(z - d0, 1e-300), 0.0))
    total = o["low.normal_force"] + o["high.normal_force"]
    np.testing.assert_allclose(total, law, rtol=1e-9, atol=1e-9 * K * d_m)
    both = (d_high > 0) & (o["low.normal_force"] > 0)
    assert both.sum() > 100
    np.testing.assert_allclose(o["high.normal_force"][both] / o["low.normal_force"][both],
                               d_high[both] / d_low[both], rtol=1e-12)
    assert res.v[-1, 0] == pytest.approx(np.sqrt(1 - eps) * v0, rel=bound)
    work = o["low.normal_work"] + o["high.normal_work"]
    assert work[-1] == pytest.approx(eps * 0.5 * M * v0**2, rel=bound)
    absorbed = o["low.absorbed_energy"] + o["high.absorbed_energy"]
    assert absorbed[-1] == pytest.approx(eps * 0.5 * M * v0**2, rel=bound)
    # while touching: the group holds (k z^2 / 2)(D - d0)^2 / (z - d0)^2 (1 - eps) on unloading
    stored = o["low.elastic_energy"] + o["high.elastic_energy"]
    unloading = (D > d0) & (D < z * (1 - 1e-9))
    expected = 0.5 * K * z * (D - d0) ** 2 / np.maximum(z - d0, 1e-300)
    np.testing.assert_allclose(stored[unloading], expected[unloading], rtol=1e-9)
    _sums_to_the_contact_work(model, res)


def test_analytic_ungrouped_pairs_crush_each_their_own():
    """The same ball with no crush group: each pair its own law and history, the total force
    k d + k (d - S) while both touch (twice the crush the group gives), each pair's state its
    own largest depth."""
    model = _two_spheres(ContactCharacteristic(stiffness=K, absorption=0.4), group="")
    res = _bounce(model)
    o = res.outputs
    d_low, d_high = o["low.penetration"], o["high.penetration"]
    both = (d_high > 0) & (o["low.normal_force"] > 0)
    loading = np.arange(len(d_low)) < np.argmax(d_low)
    sel = both & loading
    assert sel.sum() > 50
    np.testing.assert_allclose(o["low.normal_force"][sel], K * d_low[sel], rtol=1e-9)
    np.testing.assert_allclose(o["high.normal_force"][sel], K * d_high[sel], rtol=1e-9)
    assert res.z[-1, model.z_names.index("high.max_penetration")] == pytest.approx(
        d_low.max() - S, rel=1e-3)
    _sums_to_the_contact_work(model, res)


def test_identity_crush_group_is_per_link():
    """Two links' spheres in one crush group crush it each at its own place (two knees on one
    bolster): each pair's force is its own law, as without the group; the bundle holds two
    groups of one pair."""
    char = ContactCharacteristic(stiffness=K, absorption=0.4)
    grouped = _two_spheres(char, two_links=True)
    alone = _two_spheres(char, group="", two_links=True)
    el = grouped.bundle().contacts
    assert list(el.crush_group) == [0, 1] and list(el.group_start) == [0, 1, 2]
    a, b = _bounce(grouped, t_end=0.03, dt=1e-4), _bounce(alone, t_end=0.03, dt=1e-4)
    for name in ("low.normal_force", "high.normal_force"):
        assert a.outputs[name].max() > 0.0
        np.testing.assert_array_equal(a.outputs[name], b.outputs[name])


def test_reference_crush_group_needs_one_force_law():
    """A group's pairs with different force laws are refused at compile, naming both pairs."""
    with pytest.raises(ModelError, match="'high'.*crush group 'pad'.*'low'.*stiffness"):
        _two_spheres(ContactCharacteristic(stiffness=K),
                     other=ContactCharacteristic(stiffness=2 * K))


def test_reference_sled_buck_knee_bolster_is_one_crush_group_per_leg():
    """The sled buck's knee bolster face and its lower edge are one crushable part
    (``crush_group``, vehicles/sled_buck_passenger.toml): in the FMVSS 208 sled the left knee
    sphere and left shank shell (one link, the left lower leg) form one group, the right ones
    another; no other pair is grouped."""
    from occupant.scenario import load
    from occupant.scenario.interior import load_interior
    buck = load_interior("sled_buck_passenger")
    assert buck.crush_groups == {"knee_bolster": "knee_bolster",
                                 "knee_bolster_lower": "knee_bolster"}
    model = load("fmvss208_sled_48_unbelted").model
    el, names = model.bundle().contacts, model.contact_names
    groups = {}
    for e, name in enumerate(names):
        if el.crush_group[e] >= 0:
            groups.setdefault(int(el.crush_group[e]), []).append(name)
    assert sorted(groups.values()) == [
        ["left_knee_contact__knee_bolster", "left_shank_shell__knee_bolster_lower"],
        ["right_knee_contact__knee_bolster", "right_shank_shell__knee_bolster_lower"]]
