"""Uniform-pressure (control-volume) airbags as a force producer of the step (issue 11 section 5;
declared with ``occupant.modeling.Airbag`` and ``AirbagContact``).

Gas (Wang and Nefske's CAL3D model, as LS-DYNA ``*AIRBAG_WANG_NEFSKE``; crash-domain-facts 6.2):
one ideal gas of constant c_p, c_v (gamma = c_p / c_v, R = c_p - c_v), uniform pressure p and
temperature T in the volume V, p V = m R T, internal energy U = m c_v T = p V / (gamma - 1).
- mass: m' = mdot_in(t) - mdot_out;
- energy (first law of an open, adiabatic control volume):
  U' = c_p T_in mdot_in - h_out mdot_out - p V', h_out = c_p T.
Written for sigma = p V^gamma, the energy equation loses the volume rate:
  sigma' = (gamma - 1) V^(gamma - 1) (c_p T_in mdot_in - h_out mdot_out),
so V is taken from the geometry at each evaluation and p = sigma / V^gamma (for a sealed bag
sigma is constant: the adiabat p V^gamma = const). The fabric holds no vacuum: where the gas
would fill the geometry below p_a (the bag re-expanding as the occupant leaves it, or unfolding
faster than it is filled) the bag is slack, p = p_a and V = (sigma / p_a)^(1 / gamma), the
volume its gas fills at ambient pressure, less than the geometry's. The z states are m - m_0
and sigma - sigma_0, zero at the initial content.
- outflow through vents (area A, discharge coefficient C_d or Browning's 0.9 - 0.3 p_a / p) and
  fabric leakage (effective area) by the isentropic orifice law, choked below the critical
  pressure ratio (2 / (gamma + 1))^(gamma / (gamma - 1)) and made linear within 1 % of p_a
  (``LINEAR_RATIO``); it stops at p = p_a (a slack bag draws no ambient gas in).

Shape: the ellipsoid with semi-axes (alpha a, beta b, beta c) on the mounting frame's axes,
centre at x = alpha a (back face on the frame origin), alpha beta^2 = f, the volume fraction
f = f_0 + (1 - f_0) s^2 (3 - 2 s), s = (t - t_fire) / t_deploy clipped to [0, 1]; grown
uniformly, alpha = beta = f^(1/3), or punched out along x first (a bag given its front's speed,
``modeling.airbags.unfolded_scales``), alpha reaching 1 before f.

Contact with an occupant ellipsoid: its penetration d into the bag ellipsoid and the normal
(``occupant.contact.geometry_pairs.ellipsoid_in_bag``). The displaced volume V_c(d) and the
area A(d) = dV_c/dd the gas pushes with (``patch``) follow the bag's ``contact_law``, for a body
of the occupant ellipsoid's volume-equivalent radius r pressed into the bag's front face,
curvature radius (beta b)(beta c) / (alpha a):
- "lens" (opt-in): the lens where the two spheres overlap by d, A the area of its rim circle
  (exact for spheres); past the depth where the rim reaches the smaller sphere's great circle, A
  stays at that circle and V_c grows by A per metre (the fabric wraps the body). The body's
  cross-section where it crosses the bag's surface: 1.7-7.8 times less than the inextensible,
  wrinkling membrane's dimple once it is deep (tests/restraints/test_airbag_membrane.py);
- "dimple" (the default): where the fabric is taut (``airbag_dimple.tautness``: the share out of its
  folds, the unfolded share of the bag) the dimple the wrinkling fabric turns around the body,
  much wider than the body (``airbag_dimple.dimple``, fitted to that membrane reference, within
  2 %), its area at most the face, pi beta^2 b c; bodies whose dimples overlap share them
  (``airbag_dimple.dimple_shares``: one disc per link, the pairs of a link, a head shell and its
  chin, pressing one dimple; each point of the discs' union shared by the discs covering it, so
  one region of fabric pushes once); where it is slack (still
  folded), the lens: a blend at the taut share. The dimple covers only the depth the body
  pushed in itself: the depth the unfolding bag put it in (the pair's state G,
  ``_unfolded_depth``: the bag's surface moving into the body as it unfolds) is met by fabric
  still coming out of its folds, held on the body, the lens (``patch``; euro_ncap_full_width_50's
  5th female, 0.10 m inside the full shape, had 65 mm of her head's depth from the unfolding and
  her head pushed out of the bag with 3.7 kN as a dimple; us_ncap_frontal_56's 50th male 6 mm).
  Its scenario figures beside the lens': ``airbag_dimple``.
V = f V_nominal (1 + c (p - p_a)) - sum V_c: a fabric of membrane stiffness E t
(``Airbag.fabric_stiffness``; c = ``modeling.airbags.fabric_compliance``, 0 for the inextensible
fabric: then exactly the geometry's volume) stretches with the gauge pressure, p and V solved
together with p V^gamma = sigma (``stretched``), its strain energy f V_nominal c (p - p_a)^2 / 2
(output ``fabric_energy``). The force (p - p_a)^+ A acts along the normal on the occupant
at the contact point, its reaction on the mounting link; with it the fabric's regularised Coulomb
friction (``contact.compliant.normal_and_friction``; dummy-airbag mu 0.1-0.3, crash-domain-facts
6.3). Pressure alone cannot hold a body whose load exceeds (p - p_a) times its area:
it flattens the bag against its mounting, and a uniform-pressure bag has no thickness left to
show it. As MADYMO and ATB users model that "bottoming out" (a driver bag's occupant then meets
the steering wheel through the collapsed fabric), a pair whose occupant geometry is in the bag
also meets the backing plane, the bag's mounting plane moved ahead by the collapsed bag's
thickness, within the bag's y-z footprint: an ellipsoid-plane contact
(``geometry_pairs.ellipsoid_plane``) with the bag's bottoming loading table and Hunt-Crossley
damping, its reaction on the mounting link. Only a body that came through the bag's front meets
it: its depth into the plane counts as far as its depth in the bag exceeds the bag's height over
the plane where it meets the plane (``_flattened``), so that a body beside or behind the bag
within its footprint (the driver's hands on the steering-wheel rim, which the unfolding bag
reaches) is not thrown off the plane (measured before, with the hands in contact with the
driver bag: 50 kN on each hand at 22 ms in us_ncap_frontal_56).

A pair with a ``front`` (a dummy's thorax, its front the sternum pad on the chest joint) splits
its patch (``occupant.contact.carrier``): the share s of the body's own contact patch (the
lens' rim, under either law: the dimple's wider rim lies off the body) within the front's
outline, while the load
pushes the carrier back, lies at the carried depth d_s = d - n . t on the carrier (t its travel)
and the rest on the rigid part, V_c = (1 - s) V_c(d) + s V_c(d_s), forces (p - p_a)(1 - s) A(d)
and (p - p_a) s A(d_s) (output ``carried_force``); the bottoming force is shared alike. The
ribcage's front so loads the chest spring while the shoulders and flanks of the thorax
ellipsoid do not (carrying the whole patch overloaded the chest: unbelted FMVSS 208 sled 58 mm).

Energy: the "airbags" power slot is the power of those forces on the bodies,
-(p - p_a) A d' with d' the penetration rate from the bodies' motion, so the mechanical balance
closes with it (friction and bottoming add their power to the same slot). Because A = dV_c/dd, the gas gives up exactly that work in its p dV term: for a
deployed bag without inflow and outflow, kinetic + potential + U + p_a V (+ the fabric's strain
energy) is constant (the
p_a V term is the work done on the atmosphere), exactly while each pair's share s is constant
(V_c does not depend on the unfolded depth G where G moves after the deployment: there G >= d)
(a changing share exchanges p (V_c(d) - V_c(d_s)) s'). Not in that sum: the gas's work on unfolding the
bag (p V' of the prescribed shape), the enthalpy of the in- and outflows (outputs
``enthalpy_inflow``/``outflow``), and the difference between the power at the contact point and
-F d' when the bodies rotate (d' is taken at the deepest points).
"""
import numpy as np
from numba import njit

from occupant.jit import JIT, JIT_INLINE, JIT_STAGE, call_if, readonly, separate
from occupant.contact.broad_phase import PAD, in_base
from occupant.contact.carrier import bearer, carried, carried_share
from occupant.contact.compliant import normal_and_friction
from occupant.contact.geometry_pairs import (
    PairGeometry, ellipsoid_in_bag, ellipsoid_plane, point_in_link, to_link,
)
from occupant.forces.joint_resistance import table_load
from occupant.forces.points import add_force_pair, point_data, point_state
from occupant.model.bundle import AIRBAG_CONTACT_OUTPUTS, AIRBAG_OUTPUTS, POWER_AIRBAGS
from occupant.modeling.airbags import DIMPLE_LAW, unfolded_scales
from occupant.restraints.airbag_dimple import dimple, dimple_shares, tautness

N_PAIR_OUTPUTS = len(AIRBAG_CONTACT_OUTPUTS)
N_BAG_OUTPUTS = len(AIRBAG_OUTPUTS)

@njit(**JIT)
def lens(d, r1, r2):
    """(volume m^3, rim area m^2) of the lens where spheres of radii r1, r2 overlap by d >= 0;
    beyond the depth d* = r1 + r2 - sqrt|r2^2 - r1^2| where the rim is the smaller sphere's great
    circle, the area stays pi r_min^2 and the volume grows linearly (area = dV/dd throughout)."""
    if d <= 0.0:
        return 0.0, 0.0
    r_min = min(r1, r2)
    d_star = r1 + r2 - np.sqrt(abs(r2 * r2 - r1 * r1))
    dd = min(d, d_star)
    D = r1 + r2 - dd
    if D > 0.0:
        x1 = (D * D + r1 * r1 - r2 * r2) / (2.0 * D)
    else:
        x1 = 0.0
    x2 = D - x1
    h1, h2 = r1 - x1, r2 - x2
    volume = np.pi / 3.0 * (h1 * h1 * (3.0 * r1 - h1) + h2 * h2 * (3.0 * r2 - h2))
    if d >= d_star:
        area = np.pi * r_min * r_min
        return volume + area * (d - d_star), area
    return volume, np.pi * (r1 * r1 - x1 * x1)


@njit(**JIT)
def patch(d, r, R, taut, face, share, slack=0.0):
    """(volume m^3, area m^2, the lens' rim area m^2) the bag loses to a body of radius r at
    depth d (bag face curvature radius R): the taut share ``taut`` in [0, 1] of the fabric turns
    the wrinkled dimple (``airbag_dimple.dimple``, its area at most ``face``) over the depth
    x = d - ``slack`` the body pushed in itself (the first ``slack`` metres, where the unfolding
    bag met the body, stay the lens: V = V_lens(d) - V_lens(x) + share V_dimple(x)), of which
    the body takes ``share`` (``airbag_dimple.dimple_shares``: the rest is other bodies' where
    their dimples overlap), the slack rest only gives way by the lens of the two spheres (all of
    it at ``taut`` = 0: the "lens" law); area = dV/dd at any fixed ``taut``, ``share`` and
    ``slack``."""
    vol_l, area_l = lens(d, r, R)
    if taut <= 0.0:
        return vol_l, area_l, area_l
    return _blend(vol_l, area_l, d, r, R, taut, face, share, slack, 0.0, r, 1.0)


@njit(**JIT)
def _blend(vol_l, area_l, d, r, R, taut, face, share, slack, lift, r_link, part):
    """``patch`` of a taut share ``taut`` > 0 from the lens' volume and area already known, the
    dimple its link's (``airbag_dimple.dimple_shares``): of body radius ``r_link`` at the link's
    depth, ``lift`` below the pair's own, the pair taking ``part`` of it (0.0, r, 1.0: its own)."""
    x = max(d - slack, 0.0)
    vol_d, area_d = dimple(x + lift, r_link, R, max(face, area_l))
    vol_x, area_x = (vol_l, area_l) if x >= d else lens(x, r, R)
    share = share * part
    return ((1.0 - taut) * vol_l + taut * (vol_l - vol_x + share * vol_d),
            (1.0 - taut) * area_l + taut * (area_l - area_x + share * area_d), area_l)


@njit(**JIT)
def _patch(dimple, d, r, R, taut, face, share, slack, lift, r_link, part):
    """``patch`` where the model has a bag on the "dimple" law (the block's marker ``dimple``),
    else the lens alone: a model without it compiles nothing of the dimple (``jit.call_if``);
    the link's dimple as ``_blend`` takes it."""
    vol, area = lens(d, r, R)
    if taut > 0.0:
        return call_if(dimple, _blend, (vol, area, area), vol, area, d, r, R, taut, face, share,
                       slack, lift, r_link, part)
    return vol, area, area


@njit(**JIT)
def table_value(tables, start, n, x, outside):
    """Linear interpolation of a (x, y) table at x; ``outside`` < 0: hold the end values,
    else that value outside the table's range. A one-row table is its value at its x."""
    if n == 1 and x == tables[start, 0]:
        return tables[start, 1]
    if x < tables[start, 0] or x > tables[start + n - 1, 0]:
        if outside >= 0.0:
            return outside
        return tables[start, 1] if x < tables[start, 0] else tables[start + n - 1, 1]
    k = start
    while k < start + n - 2 and tables[k + 1, 0] < x:
        k += 1
    x0, x1 = tables[k, 0], tables[k + 1, 0]
    return tables[k, 1] + (tables[k + 1, 1] - tables[k, 1]) * (x - x0) / (x1 - x0)


# Pressure ratio above which the orifice flow is taken linear in the pressure difference, matched
# to the isentropic flow at this ratio [E]: the isentropic law's sqrt(1 - r) has an infinite slope
# at r = 1, so explicit steps chatter about p = p_a, exchanging hot gas for ambient gas at each
# reversal (measured: 5e-5 of the gas mass in 0.1 s of a settled blowdown at 20 us steps). At 1 %
# (about 1 kPa in a bag at ambient pressure) the difference from the isentropic law is confined
# to the last kPa of a blowdown.
LINEAR_RATIO = 0.99


@njit(**JIT)
def _flow_function(r, gamma):
    """psi(r), the orifice flow per C_d A sqrt(rho_up p_up) at the pressure ratio r <= 1."""
    r_crit = (2.0 / (gamma + 1.0)) ** (gamma / (gamma - 1.0))
    if r < r_crit:
        return np.sqrt(gamma * (2.0 / (gamma + 1.0)) ** ((gamma + 1.0) / (gamma - 1.0)))
    return np.sqrt(2.0 * gamma / (gamma - 1.0) * (r ** (2.0 / gamma) - r ** ((gamma + 1.0) / gamma)))


@njit(**JIT)
def orifice_flow(cda, p_up, rho_up, p_down, gamma):
    """Mass flow (kg/s) of an ideal gas through an orifice of effective area cda (discharge
    coefficient times area, m^2) from upstream (p_up, rho_up) to p_down <= p_up:
    cda psi(r) sqrt(rho_up p_up), r = p_down / p_up, isentropic nozzle flow, choked below the
    critical pressure ratio (crash-domain-facts 6.2); linear in 1 - r above LINEAR_RATIO."""
    if cda <= 0.0 or p_up <= p_down:
        return 0.0
    r = p_down / p_up
    if r > LINEAR_RATIO:
        psi = _flow_function(LINEAR_RATIO, gamma) * (1.0 - r) / (1.0 - LINEAR_RATIO)
    else:
        psi = _flow_function(r, gamma)
    return cda * psi * np.sqrt(rho_up * p_up)


# Newton's iterations of ``stretched`` stop at this relative change of the pressure [E: a few
# units of the last place of a double].
STRETCH_TOLERANCE = 1e-14


@njit(**JIT)
def stretched(sigma, volume, stretch, p_a, gamma):
    """(p Pa, V m^3) of gas of sigma = p V^gamma in a bag of unstretched volume ``volume`` whose
    fabric stretches by ``stretch`` (m^3/Pa) per Pa of gauge pressure, V = volume +
    stretch (p - p_a), given sigma >= p_a volume^gamma (the gauge pressure >= 0): the root of
    h(p) = ln p + gamma ln V(p) - ln sigma by Newton's method from the unstretched pressure
    sigma / volume^gamma (h is increasing and concave: the first step lands at or below the root,
    the next ones climb to it), held at p_a or above."""
    log_sigma = np.log(sigma)
    p = sigma / volume ** gamma
    for _ in range(50):
        v = volume + stretch * (p - p_a)
        h = np.log(p) + gamma * np.log(v) - log_sigma
        step = h / (1.0 / p + gamma * stretch / v)
        p_new = max(p - step, p_a)
        done = abs(p_new - p) <= STRETCH_TOLERANCE * p
        p = p_new
        if done:
            break
    return p, volume + stretch * (p - p_a)


@njit(**JIT_STAGE)
def _push(data, la, lb, force, mu, v_s, nx, ny, nz, cx, cy, cz):
    """The normal force along n with the fabric's friction on the occupant's link la at the
    contact point c (B0), the reaction on the bag's link lb: (their power, the friction force)."""
    rax, ray, raz = point_in_link(data, la, cx, cy, cz)
    rbx, rby, rbz = point_in_link(data, lb, cx, cy, cz)
    _, _, _, vax, vay, vaz = point_state(data, la, rax, ray, raz)
    _, _, _, vbx, vby, vbz = point_state(data, lb, rbx, rby, rbz)
    friction, fx, fy, fz = normal_and_friction(force, mu, v_s, nx, ny, nz, vax - vbx,
                                               vay - vby, vaz - vbz)
    return add_force_pair(data, la, rax, ray, raz, vax, vay, vaz, lb, rbx, rby, rbz, vbx, vby,
                          vbz, fx, fy, fz), friction


@njit(**JIT_INLINE)
def _bottoming(el, b, d, d_rate):
    """The backing plane's force at depth d > 0 and its rate: bag b's bottoming loading table
    with Hunt-Crossley damping, never pulling."""
    if d <= 0.0:
        return 0.0
    return max(table_load(el.tables, el.bottom_start[b], el.bottom_len[b], d)
               + el.bottom_damping[b] * d * d_rate, 0.0)


# The unfolded depth follows the body out of the bag within this time [E: short beside the
# tens of ms a body spends in a bag, long beside the integration steps of 10-20 us].
SLACK_TIME = 1e-3


@njit(**JIT_INLINE)
def _unfolded_depth(data, el, b, k, growth_x, growth_r, d, nx, ny, nz, cx, cy, cz, z, zdot):
    """Pair k's state G (m), the depth the unfolding bag b put its body in, returned at most the
    current depth, with its rate into zdot: while the body is in the bag, the speed along the
    normal n (B0) of the bag's deepest surface point in the body, p = c + (d / 2) n (c the
    contact point midway between the deepest points), as the bag unfolds about its mounting
    frame's origin o (axes e_x, e_y, e_z), its depth at the rate growth_x = alpha' / alpha and
    its width at growth_r = beta' / beta: growth_r (p - o) . n + (growth_x - growth_r)
    ((p - o) . e_x)(n . e_x), at least 0; G falls to the depth within SLACK_TIME once the body
    is less deep."""
    zk = el.pair_z_start + k
    slack = max(z[zk], 0.0)
    rate = 0.0
    if d > 0.0 and (growth_x != 0.0 or growth_r != 0.0):   # still unfolding
        x, y, w = point_in_link(data, el.link_b[k], cx, cy, cz)
        mx, my, mz = to_link(data, el.link_b[k], nx, ny, nz)
        ux = x - el.bag_p[b, 0] + 0.5 * d * mx
        uy = y - el.bag_p[b, 1] + 0.5 * d * my
        uz = w - el.bag_p[b, 2] + 0.5 * d * mz
        R = el.bag_R[b]
        along = ux * R[0, 0] + uy * R[1, 0] + uz * R[2, 0]
        normal_x = mx * R[0, 0] + my * R[1, 0] + mz * R[2, 0]
        rate = max(growth_r * (ux * mx + uy * my + uz * mz)
                   + (growth_x - growth_r) * along * normal_x, 0.0)
    zdot[zk] = rate - max(slack - max(d, 0.0), 0.0) / SLACK_TIME
    return min(slack, max(d, 0.0))


@njit(**JIT_INLINE)
def _flattened(data, el, b, k, alpha, beta, d, cx, cy, cz):
    """How far pair k's body, d deep in bag b (unfolded to the scales alpha, beta of its depth
    and width, ``modeling.airbags.unfolded_scales``), has pushed past the
    backing plane through the bag: d less the bag's height over the plane where the body meets
    the plane (at the contact point c, B0; the front of the bag's ellipsoid there, at most
    2 alpha a less the collapsed thickness; -1 m where c lies outside the unfolding bag's
    footprint: no bag there to flatten). A body that came through the bag's front has
    flattened it, d - height its depth into the plane; one beside or behind the bag inside its
    footprint (a hand on the steering-wheel rim, which the unfolding bag only grazes) has not."""
    x, y, z = point_in_link(data, el.link_b[k], cx, cy, cz)
    ux, uy, uz = x - el.bag_p[b, 0], y - el.bag_p[b, 1], z - el.bag_p[b, 2]
    R = el.bag_R[b]
    u1 = ux * R[0, 1] + uy * R[1, 1] + uz * R[2, 1]
    u2 = ux * R[0, 2] + uy * R[1, 2] + uz * R[2, 2]
    thickness = ((el.p_bottom[k, 0] - el.bag_p[b, 0]) * R[0, 0]
                 + (el.p_bottom[k, 1] - el.bag_p[b, 1]) * R[1, 0]
                 + (el.p_bottom[k, 2] - el.bag_p[b, 2]) * R[2, 0])
    a = alpha * el.semi_axes[b, 0]
    off = (u1 / (beta * el.semi_axes[b, 1])) ** 2 + (u2 / (beta * el.semi_axes[b, 2])) ** 2
    if off >= 1.0:   # no bag between the body and the plane there
        return -1.0
    return d - (a * (1.0 + np.sqrt(1.0 - off)) - thickness)


@njit(**JIT)
def _centres_across(R, p, el, b, geo):
    """Bag b's axis (B0) into Data.airbag_pairs row 13 of its pairs and their bodies' centres
    less their parts along it into row 12 (``airbag_dimple._link_dimple`` places its lever rule
    by them). ``R``, ``p``: the kinematics' R_base_link, p_base_link. Returns 0.0."""
    ax, ay, az = el.bag_R[b, 0, 0], el.bag_R[b, 1, 0], el.bag_R[b, 2, 0]
    lb = el.bag_link[b]
    if lb >= 0:
        ax, ay, az = (R[lb, 0, 0] * ax + R[lb, 0, 1] * ay + R[lb, 0, 2] * az,
                      R[lb, 1, 0] * ax + R[lb, 1, 1] * ay + R[lb, 1, 2] * az,
                      R[lb, 2, 0] * ax + R[lb, 2, 1] * ay + R[lb, 2, 2] * az)
    for k in range(el.pair_start[b], el.pair_start[b + 1]):
        cx, cy, cz, hx, hy, hz = _segment(R, p, el, k)
        along = cx * ax + cy * ay + cz * az
        geo[12, k, 0], geo[12, k, 1], geo[12, k, 2] = cx - along * ax, cy - along * ay, \
            cz - along * az
        along = hx * ax + hy * ay + hz * az
        geo[16, k, 0], geo[16, k, 1], geo[16, k, 2] = hx - along * ax, hy - along * ay, \
            hz - along * az
        geo[13, k, 0], geo[13, k, 1], geo[13, k, 2] = ax, ay, az
    return 0.0


@njit(**JIT)
def _segment(R, p, el, k):
    """Pair k's body as a swept sphere: its centre and the half of its axis segment (B0), the
    ellipsoid's longest semi-axis a along it less its middle one b (a - b: 0 for a sphere)."""
    cx, cy, cz = in_base(R, p, el.link_a[k], el.p_a[k, 0], el.p_a[k, 1], el.p_a[k, 2])
    s = el.size_a[k]
    i = 0 if s[0] >= s[1] and s[0] >= s[2] else (1 if s[1] >= s[2] else 2)
    half = s[i] - max(min(s[0], s[1]), min(max(s[0], s[1]), s[2]))   # longest less middle
    ex, ey, ez = el.R_a[k, 0, i] * half, el.R_a[k, 1, i] * half, el.R_a[k, 2, i] * half
    la = el.link_a[k]
    if la >= 0:
        ex, ey, ez = (R[la, 0, 0] * ex + R[la, 0, 1] * ey + R[la, 0, 2] * ez,
                      R[la, 1, 0] * ex + R[la, 1, 1] * ey + R[la, 1, 2] * ez,
                      R[la, 2, 0] * ex + R[la, 2, 1] * ey + R[la, 2, 2] * ez)
    return cx, cy, cz, ex, ey, ez


@njit(**JIT)
def _lateral_pull(data, el, b, k, geo, gauge, taut, R, face):
    """The bridging fabric's pull on pair k's body toward its link's dimple's apex
    (``airbag_dimple._link_dimple``): -gauge times its area of the link's dimple (the taut
    share of its share at the link's depth; over a carrier's front, at the carried depth, as its
    push) times dD/dc_k (row 14), on its centre, the reaction on the bag's link; and the
    entry's push beyond its part along its normal (row 15). Returns its power; leaves the pull
    (N, B0) in row 14 and the entry's push (N) in row 15's first (the pair's outputs)."""
    gx, gy, gz = geo[14, k, 0], geo[14, k, 1], geo[14, k, 2]
    g = np.sqrt(gx * gx + gy * gy + gz * gz)
    if g <= 0.0 and geo[15, k, 0] <= 0.0:
        return 0.0
    slack, lift, r_link = geo[7, k, 2], geo[8, k, 0], geo[8, k, 1]
    share, d_s = geo[5, k, 0], geo[5, k, 1]
    cap = max(face, lens(geo[4, k, 0], el.radius_a[k], R)[1])
    area = (1.0 - share) * dimple(max(geo[4, k, 0] - slack, 0.0) + lift, r_link, R, cap)[1]
    if share > 0.0:
        area += share * dimple(max(d_s - slack, 0.0) + lift, r_link, R,
                               max(face, lens(d_s, el.radius_a[k], R)[1]))[1]
    la, lb = el.link_a[k], el.link_b[k]
    force = gauge * taut * geo[7, k, 0] * area
    power = 0.0
    if geo[15, k, 0] > 0.0:   # entering: dD/dx_k beyond its part, along its normal
        power += _push(data, la, lb, force * geo[15, k, 0], 0.0, 1.0, geo[2, k, 0], geo[2, k, 1],
                       geo[2, k, 2], geo[3, k, 0], geo[3, k, 1], geo[3, k, 2])[0]
    if g > 0.0:   # at the body's segment point nearest the apex (a point of the body)
        cx, cy, cz, hx, hy, hz = _segment(data.R_base_link, data.p_base_link, el, k)
        t = geo[17, k, 2]
        cx, cy, cz = cx + t * hx, cy + t * hy, cz + t * hz
        power += _push(data, la, lb, force * g, 0.0, 1.0, -gx / g, -gy / g, -gz / g, cx, cy,
                       cz)[0]
    geo[14, k, 0], geo[14, k, 1], geo[14, k, 2] = -force * gx, -force * gy, -force * gz
    geo[15, k, 0] *= force
    return power


@njit(**JIT_INLINE)
def _bag_gap(R, p, el, geo, k):
    """Distance (m) between the bounding spheres of pair k's body (its largest semi-axis about
    its centre) and of its bag as unfolded now (Data.airbag_pairs rows 0 and 1: its centre on
    its link and semi-axes), less PAD; 0 where they may meet. A pair apart skips the narrow
    phase (``ellipsoid_in_bag``, ~0.7 us, the bag's cost: US NCAP's 15 pairs, 2 of them within
    their spheres while the bag is folded, 12 once it has unfolded), as the contacts' broad
    phase: nothing the step computes reads its depth there but as d <= 0 (its outputs 0, no
    force, its dimple's and unfolded depth's max(d, 0)); ``bag_distances`` is its exact clearance.
    ``R``, ``p``: the kinematics' R_base_link, p_base_link."""
    ax, ay, az = in_base(R, p, el.link_a[k], el.p_a[k, 0], el.p_a[k, 1], el.p_a[k, 2])
    bx, by, bz = in_base(R, p, el.link_b[k], geo[0, k, 0], geo[0, k, 1], geo[0, k, 2])
    ra = max(el.size_a[k, 0], el.size_a[k, 1], el.size_a[k, 2])
    rb = max(geo[1, k, 0], geo[1, k, 1], geo[1, k, 2])
    dist = np.sqrt((ax - bx) ** 2 + (ay - by) ** 2 + (az - bz) ** 2)
    return max(dist - ra - rb - PAD, 0.0)


@njit(**JIT)
def bag_distances(bundle, data, out):
    """``out`` (npair,) filled with each airbag contact pair's narrow-phase d
    (``ellipsoid_in_bag``: > 0 its depth in the bag, < 0 minus its clearance) at the state last
    evaluated into ``data``, its bag as unfolded there, whether or not the step's bounding
    spheres (``_bag_gap``) left it apart (``contact.compliant.signed_distances``)."""
    el = bundle.airbags
    geo = data.airbag_pairs
    pairs = PairGeometry(el.link_a, el.R_a, el.p_a, el.size_a, el.link_b, el.R_b,
                         readonly(geo[0]), readonly(geo[1]))
    points = point_data(data)
    for k in range(out.shape[0]):
        out[k] = ellipsoid_in_bag(points, pairs, k)[0]
    return out


@separate
def airbags(bundle, data, t, q, v, z):
    el = bundle.airbags
    geo = data.airbag_pairs
    # the pair geometry: the occupant ellipsoid (a) from the block, the bag (b) with its current
    # centre and semi-axes from Data.airbag_pairs
    pairs = PairGeometry(el.link_a, el.R_a, el.p_a, el.size_a, el.link_b, el.R_b,
                         readonly(geo[0]), readonly(geo[1]))
    backing = PairGeometry(el.link_a, el.R_a, el.p_a, el.size_a, el.link_b, el.R_bottom,
                           el.p_bottom, el.size_bottom)
    points = point_data(data)   # what the geometry and point routines read
    power = 0.0
    for b in range(el.bag_link.shape[0]):
        # the shape's depth and width scales; its surface moves at alpha' / alpha along the
        # mounting frame's x and beta' / beta across, times the distance from its origin o
        f, alpha, beta, _, alpha_rate, beta_rate = unfolded_scales(
            el.folded_fraction[b], el.firing_time[b], el.deployment_time[b], el.depth_time[b], t)
        growth_x, growth_r = alpha_rate / alpha, beta_rate / beta
        depth = alpha * el.semi_axes[b, 0]
        radius_b = beta * beta / alpha * el.bag_radius[b]
        # the "dimple" law's fabric is taut as far as the bag has unfolded (slack while folded),
        # its pairs' dimples sharing the face's projected area; "lens": slack throughout
        taut, face = 0.0, 0.0
        if el.contact_law[b] == DIMPLE_LAW:
            taut = call_if(el.dimple, tautness, 0.0, el.folded_fraction[b], f)
            face = np.pi * beta * beta * el.semi_axes[b, 1] * el.semi_axes[b, 2]
        # geometry of every pair of the bag
        for k in range(el.pair_start[b], el.pair_start[b + 1]):
            for r in range(3):
                geo[0, k, r] = el.bag_p[b, r] + depth * el.bag_R[b, r, 0]
                geo[1, k, r] = (alpha if r == 0 else beta) * el.semi_axes[b, r]
            gap = _bag_gap(data.R_base_link, data.p_base_link, el, geo, k)
            if gap > 0.0:   # apart (as the contacts' broad phase takes a pair apart)
                d, d_rate, nx, ny, nz, cx, cy, cz = -gap, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0
            else:
                d, d_rate, nx, ny, nz, cx, cy, cz, _ = ellipsoid_in_bag(points, pairs, k)
            geo[2, k, 0], geo[2, k, 1], geo[2, k, 2] = nx, ny, nz
            geo[3, k, 0], geo[3, k, 1], geo[3, k, 2] = cx, cy, cz
            geo[4, k, 0], geo[4, k, 1] = d, d_rate
            # the depth the unfolding bag put the body in: the dimple law's only (the lens
            # takes no slack; a model without a dimple bag compiles none of it, jit.call_if)
            geo[7, k, 2] = 0.0
            if el.contact_law[b] == DIMPLE_LAW:
                geo[7, k, 2] = call_if(el.dimple, _unfolded_depth, 0.0, points, el, b, k,
                                       growth_x, growth_r, d, nx, ny, nz, cx, cy, cz, z,
                                       data.zdot)
        # the taut fabric's dimples share the face where they overlap (airbag_dimple.dimple_shares)
        if taut > 0.0:
            call_if(el.dimple, _centres_across, 0.0, data.R_base_link, data.p_base_link, el, b,
                    geo)
            call_if(el.dimple, dimple_shares, 0.0, geo, el.pair_start[b], el.pair_start[b + 1],
                    el.radius_a, radius_b, face, el.link_a)
        # the displaced volume
        displaced = 0.0
        for k in range(el.pair_start[b], el.pair_start[b + 1]):
            d, d_rate = geo[4, k, 0], geo[4, k, 1]
            nx, ny, nz = geo[2, k, 0], geo[2, k, 1], geo[2, k, 2]
            cx, cy, cz = geo[3, k, 0], geo[3, k, 1], geo[3, k, 2]
            share_k, slack = geo[7, k, 0], geo[7, k, 2]
            lift, r_link, part = geo[8, k, 0], geo[8, k, 1], geo[8, k, 2]
            vol_c, area, rim_area = _patch(el.dimple, d, el.radius_a[k], radius_b, taut, face,
                                           share_k, slack, lift, r_link, part)
            # the share over the carrier's front, at its own depth (occupant.contact.carrier)
            share, d_s, area_s, sx, sy, sz = 0.0, d, area, cx, cy, cz
            la, carrier = el.link_a[k], el.carrier[k]
            if area > 0.0 and bearer(points, la, carrier, nx, ny, nz) == carrier:
                # the share of the body's own contact patch (the lens' rim) over the front
                share = carried_share(points, carrier, el.front_R[k], el.front_p[k],
                                      el.front_half[k, 0], el.front_half[k, 1], cx, cy, cz,
                                      np.sqrt(rim_area / np.pi))
                _, d_s, _, sx, sy, sz = carried(points, la, carrier, el.carrier_r[k], d, d_rate,
                                                nx, ny, nz, cx, cy, cz)
                vol_s, area_s, _ = _patch(el.dimple, d_s, el.radius_a[k], radius_b, taut, face,
                                          share_k, slack, lift, r_link, part)
                vol_c = (1.0 - share) * vol_c + share * vol_s
            displaced += vol_c
            geo[4, k, 2] = area
            geo[5, k, 0], geo[5, k, 1], geo[5, k, 2] = share, d_s, area_s
            geo[6, k, 0], geo[6, k, 1], geo[6, k, 2] = sx, sy, sz
            o = el.pair_out_start + N_PAIR_OUTPUTS * k
            # apart, the pair's outputs read 0 as a contact pair's (``CONTACT_OUTPUTS``); the
            # signed gap is the query's (``contact.compliant.signed_distances``)
            data.outputs[o] = d if d > 0.0 else 0.0
            data.outputs[o + 1] = d_rate if d > 0.0 else 0.0
            data.outputs[o + 3] = (1.0 - share) * area + share * area_s
            data.outputs[o + 4] = vol_c
        # gas state
        gamma, R_gas, cp = el.gamma[b], el.gas_constant[b], el.cp[b]
        p_a = el.ambient_pressure[b]
        volume = max(f * el.volume[b] - displaced, 1e-3 * el.folded_fraction[b] * el.volume[b])
        zk = el.z_start + 2 * b
        mass = el.mass0[b] + z[zk]
        sigma = el.sigma0[b] + z[zk + 1]
        p = sigma / volume ** gamma
        stretch = f * el.compliance[b]   # m^3/Pa, the fabric's stretch (0: inextensible)
        if p < p_a:   # the fabric holds no vacuum: a slack bag at ambient pressure
            p = p_a
            volume = (sigma / p_a) ** (1.0 / gamma)
        elif stretch > 0.0:
            p, volume = stretched(sigma, volume, stretch, p_a, gamma)
        T = p * volume / (mass * R_gas)
        # inflator
        t_fire = t - el.firing_time[b]
        m_in = 0.0
        T_in = 0.0
        if t_fire >= 0.0:
            m_in = table_value(el.tables, el.flow_start[b], el.flow_len[b], t_fire, 0.0)
            T_in = table_value(el.tables, el.temperature_start[b], el.temperature_len[b],
                               t_fire, -1.0)
        # vents and leakage, outflow only (p >= p_a)
        cd = el.discharge_coefficient[b]
        if cd < 0.0:
            cd = 0.9 - 0.3 * p_a / p
        m_out = orifice_flow(cd * el.vent_area[b] + el.leakage_area[b], p, mass / volume, p_a,
                             gamma)
        h_out = cp * T * m_out
        h_in = cp * T_in * m_in
        data.zdot[zk] = m_in - m_out
        data.zdot[zk + 1] = (gamma - 1.0) * volume ** (gamma - 1.0) * (h_in - h_out)
        # contact forces: gauge pressure over the area, the fabric's friction, and bottoming out
        gauge = max(p - p_a, 0.0)
        mu, v_s = el.friction[b], el.friction_speed[b]
        force_total, area_total = 0.0, 0.0
        for k in range(el.pair_start[b], el.pair_start[b + 1]):
            d, area = geo[4, k, 0], geo[4, k, 2]
            share, area_s = geo[5, k, 0], geo[5, k, 2]
            la, carrier = el.link_a[k], el.carrier[k]
            force, carried_force, friction = 0.0, 0.0, 0.0
            d_bottom, f_bottom, f_carried = 0.0, 0.0, 0.0
            pull_x, pull_y, pull_z = 0.0, 0.0, 0.0
            if d > 0.0 and area > 0.0:
                nx, ny, nz = geo[2, k, 0], geo[2, k, 1], geo[2, k, 2]
                force = gauge * (1.0 - share) * area
                work, friction = _push(points, la, el.link_b[k], force, mu, v_s, nx, ny, nz,
                                       geo[3, k, 0], geo[3, k, 1], geo[3, k, 2])
                power += work
                if share > 0.0:
                    carried_force = gauge * share * area_s
                    work, carried_friction = _push(points, carrier, el.link_b[k], carried_force,
                                                   mu, v_s, nx, ny, nz, geo[6, k, 0],
                                                   geo[6, k, 1], geo[6, k, 2])
                    power += work
                    force += carried_force
                    friction += carried_friction
                if taut > 0.0:   # the link dimple's pull, and its entry's push in the force
                    power += call_if(el.dimple, _lateral_pull, 0.0, points, el, b, k, geo, gauge,
                                     taut, radius_b, face)
                    pull_x, pull_y, pull_z = geo[14, k, 0], geo[14, k, 1], geo[14, k, 2]
                    force += geo[15, k, 0]
                force_total += force
                area_total += (1.0 - share) * area + share * area_s
                # bottoming out on the backing plane, shared as the patch is
                d_bottom, d_rate, nx, ny, nz, cx, cy, cz, inside = ellipsoid_plane(
                    points, backing, k)
                d_bottom = min(d_bottom, _flattened(points, el, b, k, alpha, beta, d, cx,
                                                    cy, cz))
                if d_bottom > 0.0 and inside:
                    f_bottom = _bottoming(el, b, d_bottom, d_rate)
                    if share > 0.0 and bearer(points, la, carrier, nx, ny, nz) == carrier:
                        f_bottom *= 1.0 - share
                        _, d_b, rate_b, sx, sy, sz = carried(points, la, carrier, el.carrier_r[k],
                                                             d_bottom, d_rate, nx, ny, nz, cx,
                                                             cy, cz)
                        f_carried = share * _bottoming(el, b, d_b, rate_b)
                        work, _ = _push(points, carrier, el.link_b[k], f_carried, mu, v_s, nx,
                                        ny, nz, sx, sy, sz)
                        power += work
                        f_bottom += f_carried
                    work, _ = _push(points, la, el.link_b[k], f_bottom - f_carried, mu, v_s, nx,
                                    ny, nz, cx, cy, cz)
                    power += work
                else:
                    d_bottom = 0.0      # not bottomed through: its output reads 0
            o = el.pair_out_start + N_PAIR_OUTPUTS * k
            data.outputs[o + 2] = force
            data.outputs[o + 5] = friction
            data.outputs[o + 6] = d_bottom
            data.outputs[o + 7] = f_bottom
            data.outputs[o + 8] = carried_force
            data.outputs[o + 9], data.outputs[o + 10], data.outputs[o + 11] = pull_x, pull_y, \
                pull_z
        o = el.out_start + N_BAG_OUTPUTS * b
        data.outputs[o] = p
        data.outputs[o + 1] = p - p_a
        data.outputs[o + 2] = volume
        data.outputs[o + 3] = mass
        data.outputs[o + 4] = T
        data.outputs[o + 5] = p * volume / (gamma - 1.0)
        data.outputs[o + 6] = m_in
        data.outputs[o + 7] = m_out
        data.outputs[o + 8] = h_in
        data.outputs[o + 9] = h_out
        data.outputs[o + 10] = force_total
        data.outputs[o + 11] = area_total
        data.outputs[o + 12] = 0.5 * stretch * gauge * gauge
    data.power[POWER_AIRBAGS] = power
