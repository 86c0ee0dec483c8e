"""The dimple a rigid body presses into a taut airbag (issue 11 section 5), the contact law of a
bag declared with ``Airbag(contact_law="dimple")`` (scenario key ``[restraints.airbag]
contact_law = "dimple"``): the volume the bag loses and the area the gas pushes the body with,
A = dV/dd, of a sphere of radius r pressed to depth d into a bag face of curvature radius R whose
fabric neither stretches nor holds compression (it wrinkles). The default law, "lens"
(``occupant.restraints.airbag.lens``), pushes with the body's cross-section where it crosses the
bag's surface, at most pi r^2: 1.7-7.8 times less than this reference's dimple once it is deep
(tests/restraints/test_airbag_membrane.py holds the lens to it as a strict xfail).

Such a fabric cannot follow the body's tighter curvature: the bag's equilibrium, the admissible
shape of largest volume, turns a dimple much wider than the body (Pogorelov's mirror buckling in
the limit r = R), and the force is the gauge pressure times the whole dimple inside the parallel
where the meridian turns back, p pi rho_rim^2 (axial equilibrium of the membrane cut there;
Yang and Hsu 1971, J. Appl. Mech. 38, 227-230). The area is fitted [D] to the wrinkling-membrane
reference of tests/restraints/membrane_reference.py (maximal volume, 60 meridian segments) as a
fraction c(r / R) of the mirror-buckled cap's pi (R d - d^2 / 4), with a slow decline in depth:

    A(d) = c(x) pi (R d - d^2 / 4) (1 - K (1 - x) d / R),  c(x) = C0 + (1 - C0) x^N,
    x = min(r / R, 1).

At x = 1 the law is the mirror-buckled cap, two caps of height d / 2 (the inverted cap wraps a
sphere of the bag's own radius), which is also the lens of two equal spheres; the fit's constants
and its error are stated beside them. Past the depth where A reaches the
pair's ``cap`` (the part of the bag's face the dimple may take: its rim cannot pass the face's
edge nor a neighbour's dimple), A stays at the cap and V grows by the cap per metre. In the
kernel (``occupant.restraints.airbag.patch``) the unfolding bag's fabric blends from the slack
lens to the dimple as it unfolds (``tautness``: the taut share is the unfolded share); each
pair's cap is its share of the face pi lambda^2 b c, in proportion to the bodies' pi r^2, fixed
when the model is built (``occupant.modeling.airbags.face_shares``).

Why it is not the default: it is the stiff limit of a fabric that does not stretch (a real
bag's does: it would soften the dimple, and is not modelled), the fixed face shares undershoot
the head and overshoot the knees (their dimples are not split by where the bodies actually
are), and the driver bag is the untethered two-panel shape (``modeling.airbags.DRIVER_BAG``: no
tether length found in public sources), 0.333 m deep, so the settled 5th female of
euro_ncap_full_width_50 (her chest about 0.30 m from the hub, where drivers of her size sit:
vehicles/midsize_sedan_driver_05f.toml) is 0.10 m inside its full shape as it unfolds and the
dimple, deepening with the bag, pushes her head with up to 2.3 kN. A tethered bag is shallower;
0.25 / 0.22 m deep [E], 0.58 m across (45 / 39 L, its inflator's gas scaled with the volume),
it gives her HIC15 364 / 258 and chest 26.6 / 25.2 mm, but US NCAP's 50th male HIC15 473 / 463
(test 328) [D: runs of this code with DRIVER_BAG so changed]; 0.25 m deep with the 59 L (0.67 m
across, a flatter face) it gives her HIC15 797. Measured [D: runs of this
code with every bag of the scenario on contact_law = "dimple"; in brackets the default law's,
and NHTSA 11391's driver as scenarios/README.md cites it]:
- us_ncap_frontal_56: HIC15 291 (lens 326, test 328), neck tension 0.98 kN (1.41, test 0.70),
  chest deflection 37.6 mm (37.5, test 26.6), femurs 2.43 / 2.23 kN (0.58 / 0.54, test
  1.13 / 1.49: the knee bag over-pushes);
- euro_ncap_full_width_50 (5F): HIC15 584 (192), head 3 ms 75.3 g (47.6), chest deflection
  33.8 mm (28.2): all three between Euro NCAP's higher and lower limits (HIC15 500 / 700, 72 /
  80 g, 18 / 34 mm, crash-domain-facts 2.4 [S]), the chest 0.2 mm short of no points;
- fmvss208_sled_48_unbelted: HIC15 422 (108), every criterion passes;
- aeb_precrash_frontal: HIC15 173 (92).
With the former taut window (slack until the last 10 % of the deployment) the push jumped as the
fabric turned taut: euro_ncap_full_width_50 HIC15 608, head 3 ms 90.4 g, chest 37.8 mm; US NCAP
HIC15 299, neck 0.99 kN, chest 38.0 mm, femurs 2.53 / 2.37 kN; the unbelted sled HIC15 479; AEB
198.
"""
import numpy as np
from numba import njit

from occupant.jit import JIT

# Fitted [D] by least squares to the reference's -dV/dd (60 segments, central differences) at
# r / R 0.05, 0.1, 0.2, 0.3, 0.45, 0.6 and d / R 0.1-0.55: within 0.9 % of it there
# (tests/restraints/test_airbag_membrane.py holds the law to the reference).
C0 = 0.634
N_EXP = 1.38
K_DEPTH = 0.115
D_MAX = 1.0   # d / R beyond which the uncapped dimple is held (the fit reaches 0.55-0.6) [E]


@njit(**JIT)
def _uncapped(d, R, c, k):
    """(volume, area) of the uncapped dimple law at depth 0 <= d, k = K_DEPTH (1 - x)."""
    area = c * np.pi * (R * d - 0.25 * d * d) * (1.0 - k * d / R)
    volume = c * np.pi * (0.5 * R * d * d - d ** 3 / 12.0 - k * d ** 3 / 3.0
                          + k * d ** 4 / (16.0 * R))
    return volume, area


@njit(**JIT)
def dimple(d, r, R, cap):
    """(volume m^3, area m^2) of the dimple a sphere of radius r pressed to depth d >= 0 makes in
    a bag face of curvature radius R, the area held at ``cap`` (m^2) once it reaches it (and at
    its value at d = D_MAX R past that depth); area = dV/dd throughout."""
    if d <= 0.0:
        return 0.0, 0.0
    x = min(r / R, 1.0)
    c = C0 + (1.0 - C0) * x ** N_EXP
    k = K_DEPTH * (1.0 - x)
    d_top = D_MAX * R
    v_top, a_top = _uncapped(d_top, R, c, k)
    if a_top > cap:   # the depth where the area reaches the cap (the area rises over [0, d_top])
        lo, hi = 0.0, d_top
        for _ in range(50):
            mid = 0.5 * (lo + hi)
            if _uncapped(mid, R, c, k)[1] < cap:
                lo = mid
            else:
                hi = mid
        d_top = 0.5 * (lo + hi)
        v_top, a_top = _uncapped(d_top, R, c, k)
    if d <= d_top:
        return _uncapped(d, R, c, k)
    return v_top + a_top * (d - d_top), a_top


# The fabric of an unfolding bag is taut where it is out of its folds (the gas holds it) and slack
# where it is still folded: the surplus lets the fabric lie on a body it meets as the lens of the
# two surfaces. The taut share is taken as the unfolded share of the bag's volume [E: the share of
# the volume for the share of the fabric], so it grows with the bag, as smoothly: a body already
# inside the bag's full shape while it unfolds is pushed by a dimple that deepens and widens
# with the bag; the taut share rises at most at 1.5 / t_deploy (the smoothstep's steepest slope),
# where the former taut window, the last 10 % of the deployment [E], rose at 15 / t_deploy: the
# push jumped as the bag turned taut (euro_ncap_full_width_50's 5th female thorax 2.5 -> 7.0 kN
# at 42-46 ms, her head 0.94 -> 2.58 kN).


@njit(**JIT)
def tautness(f0, f):
    """The taut share in [0, 1] of the fabric of a bag folded to the volume fraction f0 and
    unfolded to f: (f - f0) / (1 - f0), 0 folded, 1 at full shape."""
    return min(max((f - f0) / (1.0 - f0), 0.0), 1.0)
