"""The wrapped-membrane reference (membrane_reference: an inflated bag of inextensible, wrinkling
fabric pressed by a rigid sphere or plate) against closed forms and its own equilibrium
identities, and the contact laws against it: the default "dimple" law of the taut fabric
(occupant.restraints.airbag_dimple, fitted to it) and the lens (occupant.restraints.airbag.lens,
the slack fabric's and the opt-in "lens" law: it pushes with the body's cross-section, short of
the reference).

The force at constant pressure is p A with A = -dV/dd (virtual work); the tests compare areas."""
from functools import lru_cache

import numpy as np
import pytest

from occupant.modeling import Airbag
from occupant.restraints.airbag import lens, patch
from occupant.restraints.airbag_dimple import dimple

from membrane_reference import sweep

N = 80                                   # meridian segments (80 and 160 agree to 0.1 %)
HEAD = (0.30, 0.09, 0.20)                # bag R, head r, deepest d (m): issue 11's head case [E]
DRIVER = (0.505, 0.091, 0.20)            # the driver bag's front-face radius (b c / a of
                                         # DRIVER_BAG) and the head shell's equivalent radius
KNEE = (0.43, 0.055, 0.10)               # KNEE_BAG's front-face radius and the knee's radius


@lru_cache(maxsize=None)
def _areas(R, r, d_max, n=N, steps=10):
    """(depths, -dV/dd by central differences, the reference's rim radii, volume losses) at the
    interior depths of a sweep to d_max."""
    depths = np.linspace(0.0, d_max, steps + 1)[1:]
    v_free, volumes, rims, _ = sweep(R, depths, r, n)
    area = -(volumes[2:] - volumes[:-2]) / (depths[2:] - depths[:-2])
    return depths[1:-1], area, rims[1:-1], (v_free - volumes)[1:-1]


def test_free_bag_is_the_inscribed_sphere():
    R = 0.3
    v_free = sweep(R, [0.0], None, N)[0]
    exact = 4.0 / 3.0 * np.pi * R**3
    assert v_free < exact                                   # the polygon is inscribed
    assert v_free == pytest.approx(exact, rel=1e-3)        # ... and converges to it


def test_plate_truncates_the_sphere_and_pushes_with_its_contact_area():
    """A flat plate: the held bag loses the cap beyond the plate, pi d^2 (3R - d) / 3, and
    F = p x contact area (the fabric meets the plate tangentially): -dV/dd = pi (2 R d - d^2);
    the contact patch's edge read from the nodes, within one node spacing."""
    R = 0.3
    depths = np.linspace(0.0, 0.2, 11)[1:]
    v_free, volumes, rims, _ = sweep(R, depths, None, N)
    loss = v_free - volumes
    polygon = 4.0 / 3.0 * np.pi * R**3 - v_free             # the inscribed polygon's shortfall
    np.testing.assert_allclose(loss, np.pi * depths**2 * (3 * R - depths) / 3, rtol=1e-2,
                               atol=polygon)
    area = -(volumes[2:] - volumes[:-2]) / (depths[2:] - depths[:-2])
    d = depths[1:-1]
    np.testing.assert_allclose(area, np.pi * (2 * R * d - d**2), rtol=1e-2)
    spacing = np.pi * R / N
    np.testing.assert_array_less(np.abs(rims - np.sqrt(2 * R * depths - depths**2)), spacing)


@pytest.mark.parametrize("case", [HEAD, KNEE], ids=["head", "knee"])
def test_sphere_force_is_pressure_over_the_dimple(case):
    """A sphere: -dV/dd (virtual work) equals pi rho_rim^2 (axial equilibrium at the dimple's
    rim), two measures of the force that only agree at equilibrium; both beyond the body's own
    cross-section pi r^2 once the dimple is deep."""
    d, area, rims, _ = _areas(*case)
    np.testing.assert_allclose(area, np.pi * rims**2, rtol=1.5e-2)
    R, r, _ = case
    assert area[-1] > 2.0 * np.pi * r**2


def test_sphere_loses_no_more_than_the_mirror_buckled_cap():
    """Reflecting the bag's cap in a plane (Pogorelov's mirror buckling) is an admissible
    shape that clears a sphere no larger than the bag at depth d: the reference, the largest
    admissible volume, loses at most the two caps of height d / 2; and it loses more than the
    lens of the two overlapping spheres (the shipped law's volume), the fabric being unable to
    follow the indenter's tighter curvature."""
    R, r, _ = HEAD
    d, _, _, loss = _areas(*HEAD)
    h = d / 2
    np.testing.assert_array_less(loss, 2 * np.pi * h**2 * (3 * R - h) / 3)
    assert np.all(loss > np.array([lens(x, r, R)[0] for x in d]))


def test_reference_converges_with_the_meridian_resolution():
    R, r, d_max = HEAD
    coarse = _areas(R, r, d_max, n=N, steps=4)
    fine = _areas(R, r, d_max, n=2 * N, steps=4)
    np.testing.assert_allclose(coarse[1], fine[1], rtol=2e-3)


@pytest.mark.parametrize("case", [HEAD, DRIVER, KNEE], ids=["head", "driver", "knee"])
def test_shipped_law_pushes_with_the_dimple(case):
    """The shipped law (an Airbag's default contact_law, the kernel's patch of a deployed, taut
    bag, occupant.restraints.airbag.patch) against the reference's -dV/dd, within 15 % over
    the depths of the case. It was a strict xfail while the lens was the default (1.7-3.9 times
    short for the head at R 0.3 m, 2.6-6.5 at R 0.505 m, 3.3-7.8 for the knee at R 0.43 m)."""
    assert Airbag("bag").contact_law == "dimple"
    R, r, _ = case
    d, area, _, _ = _areas(*case)
    shipped = np.array([patch(x, r, R, 1.0, np.inf, 1.0)[1] for x in d])
    np.testing.assert_allclose(shipped, area, rtol=0.15)


@pytest.mark.parametrize("case", [HEAD, DRIVER, KNEE], ids=["head", "driver", "knee"])
def test_dimple_law_pushes_with_the_dimple(case):
    """The "dimple" law's taut bag (occupant.restraints.airbag_dimple, fitted at 60 segments on
    a grid of r / R and d / R) against this reference at 80 segments over the depths of the
    issue's cases (d / R up to 0.6, past the fit's 0.55 for the head): the area -dV/dd and the
    volume lost within 2 % (measured: 0.7 %, 0.7 %, 1.1 % for the area; 0.3 %, 0.8 %, 1.0 % for
    the volume)."""
    d, area, _, loss = _areas(*case)
    R, r = case[0], case[1]
    law = np.array([dimple(x, r, R, np.inf) for x in d])
    np.testing.assert_allclose(law[:, 1], area, rtol=0.02)
    np.testing.assert_allclose(law[:, 0], loss, rtol=0.02)


@pytest.mark.parametrize("case", [HEAD, DRIVER, KNEE], ids=["head", "driver", "knee"])
def test_lens_law_falls_short_of_the_dimple(case):
    """The lens (the slack fabric's while the bag unfolds, and the opt-in "lens" law) pushes
    with the body's cross-section where it crosses the bag surface, at most pi r^2: short of the wrinkled fabric's dimple at every depth, and well
    short once the dimple is deep (1.7-7.8 times at the deepest depths of the cases)."""
    d, area, _, _ = _areas(*case)
    slack = np.array([lens(x, case[1], case[0])[1] for x in d])
    assert np.all(slack < area)
    assert area[-1] / slack[-1] > 1.7
