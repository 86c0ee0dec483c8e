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
kernel (``occupant.restraints.airbag.patch``) the unfolding bag's slack fabric pushes with the
lens until the last TAUT_WINDOW of its deployment, then blends to the dimple; each pair's cap is
its share of the face pi lambda^2 b c, in proportion to the bodies' pi r^2, fixed when the model
is built (``occupant.modeling.airbags.face_shares``).

Why it is not the default: it is the stiff limit of a fabric that does not stretch (a real
bag's does: it would soften the dimple, and is not modelled), the fixed face shares undershoot
the head and overshoot the knees (their dimples are not split by where the bodies actually
are), and a body already inside the untethered bag's full shape while it unfolds is pushed by
the dimple at once as the fabric turns taut. Measured [D: runs of this code with every bag of
the scenario on contact_law = "dimple"; in brackets the default law's, and NHTSA 11391's driver
as scenarios/README.md cites it]:
- us_ncap_frontal_56: HIC15 299 (lens 326, test 328), neck tension 0.99 kN (1.41, test 0.70),
  chest deflection 38.0 mm (37.5, test 26.6), femurs 2.53 / 2.37 kN (0.58 / 0.54, test
  1.13 / 1.49: the knee bag over-pushes);
- euro_ncap_full_width_50 (5F): HIC15 608 (192), head 3 ms 90.4 g (47.6; above its 80 g limit),
  chest deflection 37.8 mm (28.2; above 34): she sits inside the untethered bag's full shape
  while it unfolds;
- fmvss208_sled_48_unbelted: HIC15 479 (108), every criterion passes;
- aeb_precrash_frontal: HIC15 198 (92).
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


# The fabric of an unfolding bag is slack (its folds still open): a body it meets then only
# pushes the lens of the two surfaces in. It turns taut, and dimples, as the bag reaches its full
# shape: over the last TAUT_WINDOW of the deployment time [E].
TAUT_WINDOW = 0.1


@njit(**JIT)
def tautness(t_fire, td, t):
    """The taut share in [0, 1] of a bag's fabric at t, fired at t_fire, unfolding over td:
    0 until the last TAUT_WINDOW of the unfolding, then rising as a smoothstep to 1 at full
    shape (a step at t_fire for td = 0)."""
    if td <= 0.0:
        return 1.0 if t >= t_fire else 0.0
    u = min(max(((t - t_fire) / td - 1.0 + TAUT_WINDOW) / TAUT_WINDOW, 0.0), 1.0)
    return u * u * (3.0 - 2.0 * u)
