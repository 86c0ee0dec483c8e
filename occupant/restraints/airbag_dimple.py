"""The dimple a rigid body presses into a taut airbag (issue 11 section 5), the contact law of a
bag declared with ``Airbag()`` (``contact_law="dimple"``, the default; scenario key
``[restraints.airbag] contact_law``): the volume the bag loses and the area the gas pushes the
body with, A = dV/dd, of a sphere of radius r pressed to depth d into a bag face of curvature
radius R whose fabric neither stretches nor holds compression (it wrinkles); the default law of
every bag. The opt-in "lens" (``occupant.restraints.airbag.lens``) pushes with the body's
cross-section where it crosses the bag's surface, at most pi r^2: 1.7-7.8 times less than this
reference's dimple once it is deep (tests/restraints/test_airbag_membrane.py).

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
``cap`` (the bag's face: the dimple's rim cannot pass the face's edge), A stays at the cap and V
grows by the cap per metre. In the kernel (``occupant.restraints.airbag.patch``) the unfolding
bag's fabric blends from the slack lens to the dimple as it unfolds (``tautness``: the taut
share is the unfolded share), and bodies whose dimples overlap share them (``dimple_shares``,
which replaced fixed shares of the face in proportion to the bodies' pi r^2: those did not
follow where the bodies were, and capped the head of a driver bag at about a seventh of the
face whether the other bodies were in the bag or not).

Its figures [D: runs of this code, the default law of every bag, the forearms and hands in
contact with the bag; in brackets the opt-in lens', and NHTSA 11391's driver as
scenarios/README.md cites it], with the driver bag grown uniformly (since it punches out along
its axis first, issue 11 `bagunfold`, scenarios/README.md gives the driver-bag scenarios' new
figures: us_ncap_frontal_56 HIC15 545, euro_ncap_full_width_50 384, aeb_precrash_frontal 240). The depth the unfolding bag puts a body in is met by slack
fabric, the lens (``occupant.restraints.airbag.patch``):
- us_ncap_frontal_56: HIC15 592 (315; test 328), head 3 ms 73.0 g (55.4; 57.6), the bag on the
  head 4.1 kN at 63 ms, 95 mm in (1.4 kN, 259 mm in, its centre past the bag's; the test's head
  balance 3.3-3.5 kN), the neck holding the head forward (upper-neck Fx up to +0.85 kN; -0.61;
  test +1.05), neck tension 1.16 kN at 75 ms (1.38 at 84 ms; 0.70 at 75 ms), the head pitched
  14-19 deg at 70-75 ms by its z / x acceleration (41-45; 15-25), chest deflection 37.1 mm (38.5;
  26.6), femurs 1.06 / 0.96 kN (0.57 / 0.54; 1.13 / 1.49), peak gauge pressure 48 kPa (53).
- euro_ncap_full_width_50 (5F): HIC15 447 (177), head 3 ms 68.5 g (46.2), within Euro NCAP's
  capping limits (700, 80 g: crash-domain-facts 2.4 [S]); chest deflection 27.7 mm (28.0), neck
  tension 1.62 kN (1.51); her head 100 mm in with 2.2 kN (125 mm, 1.1 kN). The settled 5th
  female (her chest about 0.30 m from the hub, where drivers of her size sit:
  vehicles/midsize_sedan_driver_05f.toml) is 0.10 m inside the full shape of the untethered
  driver bag (``modeling.airbags.DRIVER_BAG``, 0.333 m deep).
- fmvss208_sled_48_unbelted: HIC15 498 (94), head 3 ms 67.0 g (33.9), neck tension 2.28 kN
  (1.26), Nij 0.74 (0.44), every criterion passes; the head 132 mm (290) and the thorax 242 mm
  (305) into the 0.5 m deep bag.
- aeb_precrash_frontal: HIC15 270 (88), head 3 ms 55.0 g (33.7); the head 91 mm in (131).
Why us_ncap_frontal_56's HIC15 is 1.8 times the test's (measured, issue 11 `bagdimple`): not the
pulse's shape. HIC15 / (0.015 s x a_3ms^2.5) is 0.87 for this head pulse and 0.87 for the
test's (0.92 under the lens): the head's pulse has the test's shape, and the excess is its
level, 73.0 against 57.6 g, which HIC's power 2.5 turns into 1.8 times. The bag pushes the
head with 4.1 kN, 15-20 % above the test's balance, and the neck holds it forward with 0.85 kN
(1.05 in the test). No defect was found behind it: the force rises over 20 ms (at most 30 N
per 0.1 ms sample, no step), the pressure is lower than under the lens (48 against 53 kPa:
the bodies displace 7.4 L at most against 13.0, nothing counted twice), no body bottoms, the
head meets the bag at 41 ms with the fabric 97 % taut and 6 mm of its depth the unfolding's.
The level is the gauge pressure times the inextensible fabric's dimple; the pressure rests on
an inflator fitted to a free fill [D] and vents of 2 x 30 mm [U: 2 x 25-40 mm,
crash-domain-facts 6.2] (no driver-bag pressure measured in a test was found: 30-60 kPa [U]),
and the fabric's stretch is not modelled (probed, scenarios/README.md `bagstretch`: the bag's
push on this head moved 0 to -3 %). Sensitivity (not
kept, not to be tuned to): vents 2 x 40 mm, the top of that range, give HIC15 370, head 3 ms
59.5 g, the bag on the head 3.2 kN, 36 kPa, neck tension 0.89 kN; an inflator of 40 g (47)
gives HIC15 570 at 38 kPa. The lens matches HIC15 by letting the head 259 mm into the bag
(the neck in with it) and loading the neck the other way; the dimple stops the head 95 mm in
and loads the neck as the test did. No deployed depth or tether length of a driver bag was
found in public sources (NHTSA DOT HS 807 869 and 810 685, abstracts only); a tethered bag
0.25 / 0.22 m deep [E] gave the 5th female HIC15 364 / 258 and the 50th male 473 / 463 (with
the fixed face shares used before ``dimple_shares``).
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


# A depth whose uncapped area is below the cap by this share lies below the cap's depth by far
# more than the bisection's resolution: the area rises with slope at most c pi R, so the depth lies
# at least 1e-9 cap / (c pi R) below the cap's, and the bisection's depth is within 2^-51 D_MAX R
# (and the area's rounding, about 1e-16 relative) of the cap's; for a cap above 2e-6 R^2 (a bag's
# face is 0.3-1 R^2) the bisection's depth cannot fall below it, so ``dimple`` returns the
# uncapped law as the bisection would, bit for bit, without running it (the bisection cost 860
# ns of each call's 880; tests/restraints/test_airbag_contact.py holds the two equal).
CAP_MARGIN = 1e-9


@njit(**JIT)
def cap_depth(R, c, k, cap):
    """The depth (m) in [0, D_MAX R] where the uncapped area reaches ``cap``, by bisection (the
    area rises over that range), D_MAX R when it stays below it."""
    d_top = D_MAX * R
    if _uncapped(d_top, R, c, k)[1] <= cap:
        return d_top
    lo, hi = 0.0, d_top
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        if _uncapped(mid, R, c, k)[1] < cap:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@njit(**JIT)
def dimple(d, r, R, cap, margin=CAP_MARGIN):
    """(volume m^3, area m^2) of the dimple a sphere of radius r pressed to depth d >= 0 makes in
    a bag face of curvature radius R, the area held at ``cap`` (m^2) once it reaches it (and at
    its value at d = D_MAX R past that depth); area = dV/dd throughout. ``margin``: the share
    below the cap under which the cap's depth is not sought (``CAP_MARGIN``; tests pass 1.0 to
    force the search, and 0 to show a margin is needed)."""
    if d <= 0.0:
        return 0.0, 0.0
    x = min(r / R, 1.0)
    c = C0 + (1.0 - C0) * x ** N_EXP
    k = K_DEPTH * (1.0 - x)
    if d <= D_MAX * R:
        volume, area = _uncapped(d, R, c, k)
        if area < cap * (1.0 - margin):
            return volume, area
    d_top = cap_depth(R, c, k, cap)
    if d <= d_top:
        return _uncapped(d, R, c, k)
    v_top, a_top = _uncapped(d_top, R, c, k)
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


@njit(**JIT)
def disc_overlap(r1, r2, s):
    """Area (m^2) common to two discs of radii r1, r2 >= 0 whose centres are s >= 0 apart (the
    circles' lens: two circular segments)."""
    if s >= r1 + r2:
        return 0.0
    r_min = min(r1, r2)
    if s <= abs(r1 - r2):
        return np.pi * r_min * r_min
    c1 = min(max((s * s + r1 * r1 - r2 * r2) / (2.0 * s * r1), -1.0), 1.0)
    c2 = min(max((s * s + r2 * r2 - r1 * r1) / (2.0 * s * r2), -1.0), 1.0)
    k = (-s + r1 + r2) * (s + r1 - r2) * (s - r1 + r2) * (s + r1 + r2)
    return r1 * r1 * np.arccos(c1) + r2 * r2 * np.arccos(c2) - 0.5 * np.sqrt(max(k, 0.0))


# Bodies side by side in one bag (the knee and the top of the shin, the head and the neck) each
# turn a dimple much wider than themselves; where the dimples overlap the fabric forms one surface,
# so the gas pushes them together with the union of the dimples, not their sum (each body's
# counted alone took that region twice: the knee sphere and the shank shell of one leg, at one
# place on the knee bag). The dimple of a pair is taken as the disc of its area about its contact
# point, across the pair's normal (one per link: the pairs of a link press one dimple, below),
# and each point of the union is shared evenly by the links whose discs cover it [E: the shared
# fabric's push split evenly between the bodies]. A link's share of its own dimple is the mean
# of its part over its disc; its dimple's volume and area are scaled alike. The shares sum to the
# union for any number of overlapping discs: giving up half of each pairwise overlap, as the
# law did before, took a region three dimples share more than once (three bodies at one place
# pushed nothing), and where the head's, the neck's and the thorax's dimples meet in the
# passenger bag of fmvss208_sled_48_unbelted it lost their common fabric (scenarios/HISTORY.md
# `unbeltedneck`). The shares follow the bodies as they move; area = dV/dd holds at fixed
# shares (the gas's work and the bodies' close while they are constant, as for the carried
# share of occupant.restraints.airbag).
# The pairwise law, in closed form (disc_overlap), is exact where no three discs meet; where they
# do, what the parts exceed it by (zero wherever at most two discs cover a point, so it grows
# from zero as a third disc comes to meet two) is integrated over N_RINGS rings of equal area,
# exactly along each ring (its arcs inside the other discs), at the ring's middle radius across
# it: within 5e-4 of a quadrature in slices (tests/restraints/test_airbag_contact.py).
N_RINGS = 32


@njit(**JIT)
def _offset(geo, k, j):
    """Pair j's contact point from pair k's across their mean normal: the vector (B0, m)."""
    nx, ny, nz = geo[2, k, 0] + geo[2, j, 0], geo[2, k, 1] + geo[2, j, 1], \
        geo[2, k, 2] + geo[2, j, 2]
    norm = np.sqrt(nx * nx + ny * ny + nz * nz)
    if norm > 0.0:
        nx, ny, nz = nx / norm, ny / norm, nz / norm
    dx, dy, dz = geo[3, j, 0] - geo[3, k, 0], geo[3, j, 1] - geo[3, k, 1], \
        geo[3, j, 2] - geo[3, k, 2]
    along = dx * nx + dy * ny + dz * nz
    return dx - along * nx, dy - along * ny, dz - along * nz


@njit(**JIT)
def _place_discs(geo, start, end, k, basis):
    """Write the other pairs' discs into pair k's plane (``basis``: two unit vectors across k's
    normal), scratch rows of Data.airbag_pairs that ``airbags`` fills after the shares: the
    centre (u, v) at its distance across their mean normal (``_offset``) and the radius into
    geo[5, j], 1.0 into geo[6, j, 0] where the disc meets k's (else 0.0); ``_ring_arcs`` uses
    geo[6, j, 1:3]."""
    rho = np.sqrt(geo[7, k, 1] / np.pi)
    for j in range(start, end):
        geo[6, j, 0] = 0.0
        if j == k or geo[7, j, 1] <= 0.0:
            continue
        dx, dy, dz = _offset(geo, k, j)
        s = np.sqrt(dx * dx + dy * dy + dz * dz)
        u = dx * basis[0] + dy * basis[1] + dz * basis[2]
        v = dx * basis[3] + dy * basis[4] + dz * basis[5]
        w = np.sqrt(u * u + v * v)
        if w > 0.0:
            u, v = u * s / w, v * s / w
        r = np.sqrt(geo[7, j, 1] / np.pi)
        geo[5, j, 0], geo[5, j, 1], geo[5, j, 2] = u, v, r
        if s < rho + r:
            geo[6, j, 0] = 1.0


@njit(**JIT)
def _covers(geo, k, j, x, y):
    """Whether pair j's disc covers the point (x, y) of pair k's plane (k's disc: always), the
    discs as ``_place_discs`` left them."""
    if j == k:
        return True
    return geo[6, j, 0] > 0.0 and (x - geo[5, j, 0]) ** 2 + (y - geo[5, j, 1]) ** 2 \
        < geo[5, j, 2] ** 2


@njit(**JIT)
def _excess(geo, start, end, k, x, y):
    """Pair k's part of the point (x, y) of its disc (one disc per link, ``_link_dimple``), 1
    over the discs that cover it, less what the pairwise law leaves it there (1 less half to each
    other disc covering it): 0 where at most one other disc covers the point."""
    covering, pairwise = 0, 1.0
    for j in range(start, end):
        if _covers(geo, k, j, x, y):
            covering += 1
            if j != k:
                pairwise -= 0.5
    return 1.0 / covering - pairwise


NO_ARC = 4.0   # an arc end beyond pi: no arc


@njit(**JIT)
def _ring_arcs(geo, start, end, r):
    """Write into geo[6, j, 1:3] the ends (in (-pi, pi]) of the arc the circle of radius r about
    pair k's point has inside pair j's disc, for the discs ``_place_discs`` left meeting k's;
    NO_ARC for none."""
    for j in range(start, end):
        geo[6, j, 1], geo[6, j, 2] = NO_ARC, NO_ARC
        if geo[6, j, 0] <= 0.0:
            continue
        u, v, rj = geo[5, j, 0], geo[5, j, 1], geo[5, j, 2]
        s = np.sqrt(u * u + v * v)
        if s <= 0.0:
            continue
        c = (r * r + s * s - rj * rj) / (2.0 * r * s)
        if -1.0 < c < 1.0:
            phi, half = np.arctan2(v, u), np.arccos(c)
            geo[6, j, 1] = (phi - half + np.pi) % (2.0 * np.pi) - np.pi
            geo[6, j, 2] = (phi + half + np.pi) % (2.0 * np.pi) - np.pi


@njit(**JIT)
def _next_end(geo, start, end, after):
    """The first arc end (``_ring_arcs``) above ``after``, pi if none."""
    first = np.pi
    for j in range(start, end):
        for e in (geo[6, j, 1], geo[6, j, 2]):
            if after < e < first:
                first = e
    return first


@njit(**JIT)
def _excess_share(geo, start, end, k):
    """What pair k's share of its dimple exceeds the pairwise law's: ``_excess`` averaged over
    its disc, on N_RINGS rings of equal area, exactly along each ring between the ends of its
    arcs in other discs."""
    nx, ny, nz = geo[2, k, 0], geo[2, k, 1], geo[2, k, 2]
    ax, ay, az = (1.0, 0.0, 0.0) if abs(nx) < 0.9 else (0.0, 1.0, 0.0)
    ux, uy, uz = ay * nz - az * ny, az * nx - ax * nz, ax * ny - ay * nx
    norm = np.sqrt(ux * ux + uy * uy + uz * uz)
    ux, uy, uz = ux / norm, uy / norm, uz / norm
    _place_discs(geo, start, end, k, (ux, uy, uz, ny * uz - nz * uy, nz * ux - nx * uz,
                                      nx * uy - ny * ux))
    rho = np.sqrt(geo[7, k, 1] / np.pi)
    total = 0.0
    for i in range(N_RINGS):
        r = rho * np.sqrt((i + 0.5) / N_RINGS)
        _ring_arcs(geo, start, end, r)
        a = -np.pi
        while a < np.pi:
            b = _next_end(geo, start, end, a)
            mid = 0.5 * (a + b)
            total += (b - a) * _excess(geo, start, end, k, r * np.cos(mid),
                                       r * np.sin(mid))
            a = b
    return total / (2.0 * np.pi * N_RINGS)


@njit(**JIT)
def _meet(geo, k, j):
    """Whether pair j's disc overlaps pair k's (both of positive area)."""
    if j == k or geo[7, j, 1] <= 0.0 or geo[7, k, 1] <= 0.0:
        return False
    dx, dy, dz = _offset(geo, k, j)
    return np.sqrt(dx * dx + dy * dy + dz * dz) < np.sqrt(geo[7, k, 1] / np.pi) \
        + np.sqrt(geo[7, j, 1] / np.pi)


@njit(**JIT)
def _three_meet(geo, start, end, k):
    """Whether two of the discs meeting pair k's meet each other (else no point of k's disc lies
    in three and the pairwise law is exact)."""
    for j in range(start, end):
        if not _meet(geo, k, j):
            continue
        for i in range(start, j):
            if _meet(geo, k, i) and _meet(geo, i, j):
                return True
    return False


# One rigid surface of several bodies (a dummy's head shell and its chin, a knee sphere and the
# shank shell of its leg: pairs of one link) presses one dimple, the fabric drawn over the link's
# bodies (scenarios/HISTORY.md `chinunion`: pairwise, the chin 66 mm in turned a dimple nearly as
# wide as the head's, 80-100 mm lower, and took 27 % of the head's push). The link's dimple is
# that of its widest body; its profile is taken as the mirror-buckled cap's, the paraboloid
# D - s^2 / kappa about its apex (D its depth there, s the distance across the normal from the
# apex), kappa = c(x) R = rho^2 / D to first order in D / R (rho the rim's radius, A = pi rho^2):
# the profile whose volume pi rho^2 D / 2 has the rim's disc for its depth derivative, as the
# law's A = dV/dd (Yang and Hsu's axial equilibrium) has while rho^2 grows as D; at x = 1 it is
# the inverted cap, D - s^2 / R to second order in s / R. A body of the link x deep whose point
# lies s from the apex is under that fabric when x <= D - s^2 / kappa, so the link's dimple is
# the shallowest that holds all its bodies: D = min over the apex u of the largest
# y_k(u) = x_k + phi_k |q_k - u|^2 / kappa (x_k the depth pair k pushed in itself; q_k the point
# of its body's axis segment nearest the apex across the bag's axis: the ellipsoid as a sphere
# swept along its longest axis, the segment that axis less the middle semi-axis, so q_k is a
# point of the body, its centre for a sphere, and a long body, a shank shell, is placed by its
# end nearest the apex, not by its centre 0.1-0.2 m off; phi_k ``_reach``, 0 to 1 over the first
# LINK_ENTRY of its depth), taken smooth: S(y), with w_k = max(0, y_k - S + band),
# sum_k w_k^2 = band^2 (band LINK_BAND, at most the deepest's x: the level S - band never lies
# below the bag's surface, so a body entering, y = 0, takes no part at once), is the largest y
# while the others lie a band or more below it, and at most band (1 - 1/sqrt(n)) above it when
# n are equal. With part_k = dS/dy_k = w_k / sum w, dS/du = (2 / kappa) sum part_k phi_k
# (u - q_k) vanishes at the minimum: the apex is the weighted point of the q_k, the lever rule
# putting the link's resultant there, and (the envelope theorem, over u and over the segments'
# places) dD/dx_k = part_k (1 + phi_k' |q_k - u|^2 / kappa) (+ 1 - band / sum w for the
# deepest while it is less than LINK_BAND deep) and dD/dq_k = part_k phi_k 2 (q_k - u) / kappa.
# So the link's dimple, split among its pairs in those parts at their own contact points along
# their normals (the entry's rest there too), and the bridging fabric's lateral pull,
# -p A_k dD/dq_k on body k at its point q_k toward the apex (A_k its area of the link's dimple;
# the pulls sum to zero, the bag's link taking their reactions), push with the power the gas
# does on the link's dimple: p dV = sum of the pairs' F_k . v_k exactly, as
# tests/restraints/test_airbag_contact.py's drops of one link on a sealed bag show (1e-7-1e-6
# of the work exchanged; bagface's law, the places the contact points and no pull, 7e-3:
# scenarios/validation/HISTORY.md `bagface`, scenarios/HISTORY.md `baglever`; the shares
# between links, above, are held fixed in it as before). A body inside another's dimple takes
# none (the dummy's chin, 80-100 mm under its head shell, while it lies more than
# s^2 / kappa + band less deep); one that presses the fabric out beyond it bears its part of
# the one dimple (the human's chin and
# braincase, no face between them: the braincase in the bag 30 mm and 85 mm above the chin
# while the chin, 8 mm deeper, took the whole dimple; the depth law before took a body's place
# across the normal into no account, so the deepest pair took all until another passed it:
# scenarios/validation/HISTORY.md `neckhigh`, `bagface`). One body reduces to that depth law bit
# for bit (D = x); bodies at one place past LINK_ENTRY to its smooth maximum. S(y(u)) is convex
# in u (S convex and nondecreasing, y_k convex: a squared distance to a segment) and has a
# Lipschitz gradient, so u is found by safeguarded Newton steps on it (``_apex``; nested
# bisections on the sign of u - the weighted point cost the US NCAP run +50 %, baglever2).
# The link's disc (its dimple's area about the parts' weighted contact point, across their
# weighted normal) shares the union with other links' (above).
LINK_BAND = 0.005   # m [E: a few mm, below the chin's 20-60 mm under the head's depth in the
#                     driver bag (chinunion), above a step's motion]
LINK_ENTRY = 0.01  # m [E: the depth over which a body entering the bag beside its link's dimple
#                     comes to demand all of its distance from the apex, so that it joins the
#                     dimple continuously: taken whole at once, a chin entering 90 mm from a
#                     head 12 mm in lifts the link's dimple 3.5 mm in one step (a 0.16 J step
#                     of the gas ledger in the drop of tests/restraints/test_airbag_contact.py);
#                     two band widths, below the chin's 20-60 mm in the driver bag]
APEX_STEPS = 60     # Newton steps of the apex at most, and halvings of each (3-6 steps taken)
APEX_TOL = 1e-15    # m, the apex's Newton steps stop below this [E: far below a step's motion,
#                     near the coordinates' rounding; the parts then hold to 1e-14 (1e-12 left
#                     them 1e-11 off), the envelope's dD/dx_k = part_k with them]
APEX_QUADRATIC = 1e-9   # m, a Newton step below this is taken whole [E: S (about 0.05 m) then
#                         falls by about 10 m^-1 x step^2, below its rounding, 1e-17 m]
APEX_LIFT = 1e-12   # of the Hessian's trace added to its diagonal [E: keeps the Hessian of one
#                     body above the level whose segment runs through the apex (no curvature
#                     along it) invertible, far below the trace's other share]
# Rows of Data.airbag_pairs the link law adds: (D - x_k, the link's dimple's body radius, the
# pair's part) in row 8 (``occupant.restraints.airbag._blend`` reads them), the link's lead
# pair's own normal and point kept in rows 9 and 10 while its rows 2 and 3 hold the link's, and
# row 11 the apex search's scratch: the pair's point across the axis (u, v) and its y; the
# inputs ``occupant.restraints.airbag.airbags`` writes: row 12 the body's centre (B0) less its
# part along the bag's axis, row 13 the bag's axis (B0, unit); row 14 the output, dD/dc_k across
# the axis (the lateral pull's direction and size per m^2 of dimple and Pa), row 15's first the
# part of dD/dx_k beyond part_k (``_reach``'s, while the body enters), which
# ``occupant.restraints.airbag._lateral_pull`` turns into the pull (N, B0) and the entry's push
# (N) for the pair's outputs; row 16 (input) the half
# of the body's axis segment (B0) across the bag's axis, row 17 the search's scratch: that half
# segment in the plane's basis (u, v) and the segment's point nearest the apex, t in [-1, 1].
ROWS = 18


@njit(**JIT)
def _across(geo, k, j):
    """Pair j's body centre from pair k's across the bag's axis (rows 12: B0, m)."""
    return geo[12, j, 0] - geo[12, k, 0], geo[12, j, 1] - geo[12, k, 1], \
        geo[12, j, 2] - geo[12, k, 2]


@njit(**JIT)
def _pushed(geo, k):
    """The depth (m) pair k's body pushed into the bag itself: its depth less the unfolding's."""
    return max(geo[4, k, 0] - geo[7, k, 2], 0.0)


@njit(**JIT)
def _member(geo, link, lead, j):
    """Whether pair j is of ``lead``'s link and pushed into the bag."""
    return link[j] == link[lead] and _pushed(geo, j) > 0.0


@njit(**JIT)
def _smooth_level(geo, lo, hi, link, lead, row, band):
    """(level s = S - band, how many lie above it, the largest's pair) of the values v_k of the
    pairs of ``lead``'s link pushed in (among lo..hi - 1), x_k (``_pushed``, ``row`` -1) or y_k
    (geo[11, k, 2], ``row`` 11): taken largest first (ties: lower index first), s the smaller
    root of sum (v_k - s)^2 = band^2 over them, until the next lies at or below s."""
    top, top_k, largest = np.inf, -1, -1
    m, s1, s2, level = 0, 0.0, 0.0, -np.inf
    while True:
        best, best_k = 0.0, -1
        for j in range(lo, hi):
            if not _member(geo, link, lead, j):
                continue
            x = _pushed(geo, j) if row < 0 else geo[11, j, 2]
            if (x < top or (x == top and j > top_k)) and (best_k < 0 or x > best):
                best, best_k = x, j
        if best_k < 0 or (m > 0 and best <= level):
            break
        m += 1
        s1 += best
        s2 += best * best
        top, top_k = best, best_k
        if m == 1:
            largest, level = best_k, best - band
        else:
            level = (s1 - np.sqrt(max(s1 * s1 - m * (s2 - band * band), 0.0))) / m
    return level, m, largest


@njit(**JIT)
def _reach(x):
    """(phi, dphi/dx) of a body x deep in the bag: the part of its distance from the apex it
    demands of the link's dimple, rising smoothly (3 t^2 - 2 t^3, t = x / LINK_ENTRY) from 0 as
    it enters the bag to 1 once LINK_ENTRY deep."""
    if x >= LINK_ENTRY:
        return 1.0, 0.0
    t = max(x, 0.0) / LINK_ENTRY
    return t * t * (3.0 - 2.0 * t), 6.0 * t * (1.0 - t) / LINK_ENTRY


@njit(**JIT)
def _nearest(geo, j, a, b):
    """(u, v) of the point of pair j's body segment (centre geo[11, j, 0:2], half segment
    geo[17, j, 0:2]) nearest the apex (a, b) across the axis, and its place t in [-1, 1]."""
    cu, cv, eu, ev = geo[11, j, 0], geo[11, j, 1], geo[17, j, 0], geo[17, j, 1]
    e2 = eu * eu + ev * ev
    t = 0.0
    if e2 > 0.0:
        t = min(max(((a - cu) * eu + (b - cv) * ev) / e2, -1.0), 1.0)
    return cu + t * eu, cv + t * ev, t


@njit(**JIT)
def _heights(geo, lo, hi, link, lead, kappa, band, a, b):
    """With the apex at (a, b), over the link's pairs pushed in (among lo..hi - 1):
    y_k = x_k + phi_k |q_k - (a, b)|^2 / kappa into geo[11, k, 2] (q_k the body segment's point
    nearest the apex, ``_nearest``, its place t into geo[17, k, 2]; phi_k ``_reach``); returns
    ``_smooth_level``'s (level, how many above it)."""
    for j in range(lo, hi):
        if not _member(geo, link, lead, j):
            continue
        qu, qv, geo[17, j, 2] = _nearest(geo, j, a, b)
        geo[11, j, 2] = _pushed(geo, j) + _reach(_pushed(geo, j))[0] * (
            (qu - a) ** 2 + (qv - b) ** 2) / kappa
    level, m, _ = _smooth_level(geo, lo, hi, link, lead, 11, band)
    return level, m


@njit(**JIT)
def _weighted_point(geo, lo, hi, link, lead, kappa, band, a, b):
    """(sum part_k phi_k q_k over sum part_k phi_k, the level, how many above it) with the apex
    at (a, b) (``_heights``, whose rows it leaves)."""
    level, m = _heights(geo, lo, hi, link, lead, kappa, band, a, b)
    total, pu, pv = 0.0, 0.0, 0.0
    for j in range(lo, hi):
        if not _member(geo, link, lead, j):
            continue
        w = max(geo[11, j, 2] - level, 0.0) * _reach(_pushed(geo, j))[0]
        qu, qv, _ = _nearest(geo, j, a, b)
        total += w
        pu += w * qu
        pv += w * qv
    return pu / total, pv / total, level, m


@njit(**JIT)
def _objective(geo, lo, hi, link, lead, kappa, band, a, b):
    """(S, its gradient (g_u, g_v) and Hessian (h_uu, h_uv, h_vv)) of the smooth maximum
    S = level + band of the y_k at the apex (a, b) (``_heights``). With w_k = max(y_k - level, 0),
    W their sum, part_k = w_k / W and g_k = grad y_k = 2 phi_k (u - q_k) / kappa (the squared
    distance to a segment has the gradient 2 (u - q_k)): grad S = sum part_k g_k; the Hessian of
    S in the y, (delta_kj - part_j - part_k + n part_j part_k) / W over the n above the level
    (from sum w_k^2 = band^2), gives sum part_k (2 phi_k / kappa) M_k
    + sum (g_k - grad S)(g_k - grad S)^T / W, M_k the identity, less the projection on the
    segment where q_k is inside it (the distance's Hessian): positive semi-definite."""
    level, _ = _heights(geo, lo, hi, link, lead, kappa, band, a, b)
    total = 0.0
    for j in range(lo, hi):
        if _member(geo, link, lead, j):
            total += max(geo[11, j, 2] - level, 0.0)
    gu, gv, huu, huv, hvv = 0.0, 0.0, 0.0, 0.0, 0.0
    for j in range(lo, hi):
        w = max(geo[11, j, 2] - level, 0.0) if _member(geo, link, lead, j) else 0.0
        if w <= 0.0:
            continue
        part, c = w / total, 2.0 * _reach(_pushed(geo, j))[0] / kappa
        qu, qv, t = _nearest(geo, j, a, b)
        gu += part * c * (a - qu)
        gv += part * c * (b - qv)
        eu, ev = geo[17, j, 0], geo[17, j, 1]
        e2 = eu * eu + ev * ev
        if e2 > 0.0 and -1.0 < t < 1.0:   # inside the segment: no curvature along it
            huu += part * c * (1.0 - eu * eu / e2)
            huv -= part * c * eu * ev / e2
            hvv += part * c * (1.0 - ev * ev / e2)
        else:
            huu += part * c
            hvv += part * c
    for j in range(lo, hi):
        w = max(geo[11, j, 2] - level, 0.0) if _member(geo, link, lead, j) else 0.0
        if w <= 0.0:
            continue
        c = 2.0 * _reach(_pushed(geo, j))[0] / kappa
        qu, qv, _ = _nearest(geo, j, a, b)
        du, dv = c * (a - qu) - gu, c * (b - qv) - gv
        huu += du * du / total
        huv += du * dv / total
        hvv += dv * dv / total
    return level + band, gu, gv, huu, huv, hvv


@njit(**JIT)
def _apex(geo, lo, hi, link, lead, kappa, band):
    """The apex (a, b) minimising the smooth maximum S of the y_k (above), convex in the apex:
    Newton steps from the deepest's centre (the origin), each halved until S falls by at least
    a ten-thousandth of what the step's slope promises (Armijo) unless it is shorter than
    APEX_QUADRATIC (the decrease then lies below S's rounding), the Hessian lifted by
    APEX_LIFT of its trace where it is singular (a body alone above the level whose segment
    runs through the apex: any point along it is a minimum); until a step is below APEX_TOL."""
    a, b = 0.0, 0.0
    s, gu, gv, huu, huv, hvv = _objective(geo, lo, hi, link, lead, kappa, band, a, b)
    for _ in range(APEX_STEPS):
        lift = APEX_LIFT * (huu + hvv)
        huu, hvv = huu + lift, hvv + lift
        det = huu * hvv - huv * huv
        du, dv = -(hvv * gu - huv * gv) / det, -(huu * gv - huv * gu) / det
        slope = gu * du + gv * dv
        step, na, nb, trial = 1.0, a, b, (s, gu, gv, huu, huv, hvv)
        for _ in range(APEX_STEPS):
            na, nb = a + step * du, b + step * dv
            trial = _objective(geo, lo, hi, link, lead, kappa, band, na, nb)
            if trial[0] <= s + 1e-4 * step * slope or \
                    step * np.sqrt(du * du + dv * dv) <= APEX_QUADRATIC:
                break
            step *= 0.5
        a, b = na, nb
        s, gu, gv, huu, huv, hvv = trial
        if step * np.sqrt(du * du + dv * dv) <= APEX_TOL:
            break
    return a, b


@njit(**JIT)
def _link_dimple(geo, start, end, radius, R, face, link, lead, band):
    """Write the link law's row 8 for the pairs of ``lead``'s link (the first of them in the bag)
    and the link's disc into its deepest pair (its area into geo[7, k, 1], the weighted point
    and normal into rows 2 and 3, its own kept in rows 9 and 10); the others' areas 0. Returns
    the deepest pair, -1 if none pushed in."""
    r_w = 0.0
    for j in range(start, end):
        if link[j] == link[lead]:
            r_w = max(r_w, radius[j])
    n = 0   # the link's pairs pushed in
    for j in range(start, end):
        if link[j] == link[lead]:
            geo[7, j, 1] = 0.0
            geo[8, j, 0], geo[8, j, 1], geo[8, j, 2] = 0.0, r_w, 0.0
            geo[11, j, 0], geo[11, j, 1], geo[11, j, 2] = 0.0, 0.0, _pushed(geo, j)
            geo[14, j, 0], geo[14, j, 1], geo[14, j, 2] = 0.0, 0.0, 0.0
            geo[15, j, 0] = 0.0
            geo[17, j, 0], geo[17, j, 1], geo[17, j, 2] = 0.0, 0.0, 0.0
            if _member(geo, link, lead, j):
                n += 1
    lo, hi = end, start   # the link's pairs pushed in lie in lo..hi - 1 (the searches' range)
    for j in range(start, end):
        if _member(geo, link, lead, j):
            lo, hi = min(lo, j), j + 1
    deepest = _smooth_level(geo, lo, hi, link, lead, -1, band)[2]
    if deepest < 0:
        return -1
    # the band at most the deepest's depth: the level S - band then never lies below the bag's
    # surface, so a body entering (y_k = 0 at x_k = 0) joins with no part, continuously
    shallow = _pushed(geo, deepest) < band
    band = min(band, _pushed(geo, deepest))
    level, m, a, b = 0.0, 1, 0.0, 0.0
    ex, ey, ez, fx, fy, fz = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    if n > 1:
        # the bodies' centres (row 12, across the bag's axis, row 13: material points, so the
        # lateral pull below does the gas's work exactly) from the deepest's, in a basis across
        # the axis whose first vector points to the first other pair pushed in (two pairs: on
        # the line v = 0)
        other = -1
        for j in range(start, end):
            if other < 0 and j != deepest and _member(geo, link, lead, j):
                other = j
        nx, ny, nz = geo[13, deepest, 0], geo[13, deepest, 1], geo[13, deepest, 2]
        ex, ey, ez = _across(geo, deepest, other)
        norm = np.sqrt(ex * ex + ey * ey + ez * ez)
        if norm == 0.0:   # the centres at one place across the axis: any vector across it
            ex, ey, ez = (ny, -nx, 0.0) if abs(nz) < 0.9 else (0.0, nz, -ny)
            norm = np.sqrt(ex * ex + ey * ey + ez * ez)
        ex, ey, ez = ex / norm, ey / norm, ez / norm
        fx, fy, fz = ny * ez - nz * ey, nz * ex - nx * ez, nx * ey - ny * ex
        norm = np.sqrt(fx * fx + fy * fy + fz * fz)
        fx, fy, fz = fx / norm, fy / norm, fz / norm
        for j in range(start, end):
            if _member(geo, link, lead, j):
                dx, dy, dz = _across(geo, deepest, j)
                geo[11, j, 0] = dx * ex + dy * ey + dz * ez
                geo[11, j, 1] = dx * fx + dy * fy + dz * fz
                dx, dy, dz = geo[16, j, 0], geo[16, j, 1], geo[16, j, 2]
                geo[17, j, 0] = dx * ex + dy * ey + dz * ez
                geo[17, j, 1] = dx * fx + dy * fy + dz * fz
        x_w = min(r_w / R, 1.0)
        kappa = (C0 + (1.0 - C0) * x_w ** N_EXP) * R   # rho^2 / D of the link's dimple
        # the others under the deepest's own fabric (a band or more below it with the apex at
        # its centre): that apex is a minimum (S >= y_deepest >= x_deepest everywhere), no search
        _, _, level, m = _weighted_point(geo, lo, hi, link, lead, kappa, band, 0.0, 0.0)
        under = True
        for j in range(lo, hi):
            if j != deepest and _member(geo, link, lead, j) and \
                    geo[11, j, 2] > _pushed(geo, deepest) - band:
                under = False
        if not under:
            a, b = _apex(geo, lo, hi, link, lead, kappa, band)
            _, _, level, m = _weighted_point(geo, lo, hi, link, lead, kappa, band, a, b)
    for r in range(3):
        geo[9, deepest, r], geo[10, deepest, r] = geo[2, deepest, r], geo[3, deepest, r]
    if m == 1:   # the deepest's own dimple: the others under its fabric
        depth = _pushed(geo, deepest)
        geo[8, deepest, 2] = 1.0
    else:
        depth = level + band
        total = 0.0   # over the pairs above the level
        for j in range(start, end):
            if _member(geo, link, lead, j):
                total += max(geo[11, j, 2] - level, 0.0)
        nx, ny, nz, px, py, pz = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
        for j in range(start, end):
            if not _member(geo, link, lead, j) or geo[11, j, 2] <= level:
                continue
            part = (geo[11, j, 2] - level) / total
            geo[8, j, 0], geo[8, j, 2] = depth - _pushed(geo, j), part
            # dD/dc_k across the axis, part_k phi_k 2 (u_k - u) / kappa (B0): the bridging
            # fabric's lateral pull on the body is -p (its area of the link's dimple) times it;
            # and dD/dx_k's part beyond part_k, part_k phi_k' |u_k - u|^2 / kappa, pushing along
            # the pair's normal as its part does
            phi, slope = _reach(_pushed(geo, j))
            qu, qv, geo[17, j, 2] = _nearest(geo, j, a, b)
            du, dv = qu - a, qv - b
            geo[15, j, 0] = part * slope * (du * du + dv * dv) / kappa
            du, dv = 2.0 * part * phi * du / kappa, 2.0 * part * phi * dv / kappa
            geo[14, j, 0], geo[14, j, 1], geo[14, j, 2] = du * ex + dv * fx, du * ey + dv * fy, \
                du * ez + dv * fz
            nx, ny, nz = nx + part * geo[2, j, 0], ny + part * geo[2, j, 1], \
                nz + part * geo[2, j, 2]
            px, py, pz = px + part * geo[3, j, 0], py + part * geo[3, j, 1], \
                pz + part * geo[3, j, 2]
        if shallow:   # dD/dband (1 - band / sum w) times dband/dx of the deepest, 1
            geo[15, deepest, 0] += 1.0 - band / total
        norm = np.sqrt(nx * nx + ny * ny + nz * nz)
        geo[2, deepest, 0], geo[2, deepest, 1], geo[2, deepest, 2] = nx / norm, ny / norm, \
            nz / norm
        geo[3, deepest, 0], geo[3, deepest, 1], geo[3, deepest, 2] = px, py, pz
    geo[7, deepest, 1] = dimple(depth, r_w, R, face)[1]
    return deepest


@njit(**JIT)
def dimple_shares(geo, start, end, radius, R, face, link):
    """Each pair's share of its link's dimple, for the bag whose pairs are start..end - 1, into
    geo[7, k, 0], and the link law's row 8 (``_link_dimple``): one dimple per link (``link``,
    the pairs' links) in the bag, of its widest body (``radius``) at the depth of the
    shallowest paraboloid holding the link's bodies (``_link_dimple``, smoothed by
    ``LINK_BAND``), split among its pairs by their parts, the lever rule about its apex, with
    its lateral pull's and entry's rows 14 and 15 (``airbags`` applies them: ``_lateral_pull``;
    it writes the inputs, rows 12, 13 and 16, first). The links' dimples are discs of their
    areas (``dimple``, face curvature radius R, at most the bag's ``face`` m^2) about
    their weighted contact points (geo[3]) across their mean normal (geo[2]), depths geo[4, k, 0]
    less the unfolded depths geo[7, k, 2] (the depth the body pushed in itself,
    ``occupant.restraints.airbag.patch``); the link's area is left in geo[7, k, 1] of its deepest
    pair (0 in the others'). The share: the mean over the disc of 1 over the links whose discs
    cover each point, in closed form each disc keeping its area less half of each common area
    with another (``disc_overlap``), exact where no three discs meet; where they
    do, what the parts exceed that is integrated (``_excess_share``; geo[5] and geo[6] serve it
    as scratch, ``airbags`` writes them after). Returns 0.0."""
    for k in range(start, end):
        geo[7, k, 1] = -1.0
    for k in range(start, end):
        if geo[7, k, 1] < 0.0:
            _link_dimple(geo, start, end, radius, R, face, link, k, LINK_BAND)
    for k in range(start, end):
        area = geo[7, k, 1]
        geo[7, k, 0] = 1.0
        if area <= 0.0:
            continue
        rho = np.sqrt(area / np.pi)
        kept, meeting = area, 0
        for j in range(start, end):
            if j == k or geo[7, j, 1] <= 0.0:
                continue
            dx, dy, dz = _offset(geo, k, j)
            common = disc_overlap(rho, np.sqrt(geo[7, j, 1] / np.pi),
                                  np.sqrt(dx * dx + dy * dy + dz * dz))
            if common > 0.0:
                kept -= 0.5 * common
                meeting += 1
        share = kept / area
        if meeting > 1 and _three_meet(geo, start, end, k):
            share += _excess_share(geo, start, end, k)
        geo[7, k, 0] = max(share, 0.0)
    # the link's share to all its pairs, the deepest's own normal and point back
    for k in range(start, end):
        if geo[7, k, 1] <= 0.0:
            continue
        for j in range(start, end):
            if link[j] == link[k] and j != k:
                geo[7, j, 0] = geo[7, k, 0]
        for r in range(3):
            geo[2, k, r], geo[3, k, r] = geo[9, k, r], geo[10, k, r]
    return 0.0
