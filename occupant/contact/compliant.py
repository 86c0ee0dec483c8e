"""Compliant contact force of the declared pairs (``occupant.modeling.ContactPair``), a force
producer of the step: ATB/MADYMO-style force-penetration characteristic with hysteresis,
Hunt-Crossley damping and regularised Coulomb friction (crash-domain-facts 6.3).

Per pair, from the penetration d > 0, its rate d' and the normal n (``geometry_pairs``:
ellipsoid-plane in closed form, ellipsoid-ellipsoid by Newton iterations; ``convex_pairs``:
ellipsoid-box, -bounded plane (with its edges) and -cylinder by a walk over their features;
``mesh_pairs``: ellipsoid-triangle mesh through a uniform grid):
- loading curve F_L(d): k d, k d^n or a table;
- hysteresis: the maximum penetration reached, d_m, is a producer state z with
  z' = d' while d > 0, d >= z and d' > 0, else 0 (so z follows d on loading and stays put
  otherwise). The rate switches on inside a step where contact begins (or reloading passes
  the old maximum), so the integrated z lags d there by up to |d'| h: the force uses
  max(z, d) and stays continuous, but the unloading then starts from that lagged maximum, an
  error of first order in h in the dissipated energy (exactly located switches would remove it).
  Below d_m the elastic force is the unloading curve: the shifted ``unloading_table`` U with
  U(d - d_m + x*) where U(x*) = F_L(d_m), never above F_L(d) (no cycle returns more work than
  it took), or, with the energy-absorption factor eps, the straight
  line from (d_m, F_L(d_m)) to the permanent set d_0 = d_m - 2 (1 - eps) E_L(d_m) / F_L(d_m),
  E_L(d_m) the loading work, so that a load-unload cycle dissipates eps E_L(d_m) (d_0 >= 0
  clipped: then less); with ``recovers`` and eps the curve instead unloads to the origin, no
  permanent set, dissipating eps E_L(d_m) all the same (``joint_resistance.recovering_unload``,
  the Hybrid III chest's law: foam and padding that spring back); with neither, unloading
  follows F_L;
- normal force F = max(0, F_e + c d d') (Hunt & Crossley 1975 damping, zero at first touch);
- friction -mu F tanh(|v_t| / v_s) v_t / |v_t|, v_t the tangential sliding velocity at the
  contact point.
No velocity slope goes to data.slope: the contact's damping and friction couple the joints
along the path to the contact point, and taking only the diagonal of J^T C J implicitly changed
the dynamics (the FMVSS 208-style sled's lumbar joint loaded to 12 kN m, chest 3 ms 330 g
instead of 47 g); they stay explicit.
Forces act at the contact point, +F n + friction on geometry a's link, the opposite on b's.
Outputs per pair: ``CONTACT_OUTPUTS``; the power of the forces on the tree is the contact slot.
Per pair, the power of its forces F on the bodies' relative motion, F . w (w the velocity of
a's contact point relative to b's), splits as F_n n . w - g |w_t|^2: the friction's dissipated
power mu F tanh(|w_t| / v_s) |w_t| and the power the normal force takes (elastic, hysteresis and
damping); a surface on B0 adds F . v_b to the contact slot (velocities are absolute: the work
B0's own motion, the vehicle's, does on the bodies through the pair). The three are integrated
with the step into the pair's accumulators (``CONTACT_WORK``), whose sum over the pairs gives
work["contacts"] to round-off. The normal work less the elastic energy the pair holds
(``elastic_energy``: the integral of its current unloading curve up to d, in closed form) is the
energy it absorbed, by hysteresis and damping.
Crush groups (``ContactPair.crush_group``; ``bundle.ContactBlock`` crush_group, group_start,
group_pairs): the pairs of one crushable part whose geometries a are on one link (a knee on a
knee bolster's face and its shin on the bolster's lower edge) crush it once, as the one impactor
its characteristic was measured with. The group is one pair of depth D, a smooth maximum of its
touching pairs' penetrations, the p-norm D = (sum d_i^p)^(1/p) (p = ``CRUSH_P``; the p-norm as a
smooth stand-in for the maximum: Duysinx & Sigmund 1998, the p-norm stress measure of
topology optimisation [U]); its law is the pairs' one law in D, its history one state (its first
pair's z: the largest D; the others' stay 0), its damping c D D' with D' = sum w_i d_i', and
pair i takes F(D, history) w_i at its own contact point along its own normal (and its own
friction), w_i = dD/dd_i = (d_i / D)^(p-1). Why: the forces are then the gradient of one
energy, the loading law's in D, so that on a purely elastic law no cycle of the pairs' depths
returns more work than it took (sum F_i d_i' = F(D) D', one pair's power in D), and the
hysteresis acts on one scalar, D, exactly as on a pair (crushshare's share F(D_max) d_i /
sum d was not a gradient: a pair backing out while another loaded was pushed at its share of
the loading force). The alternative considered, a massless plate on the part's law pressed by
each body through a local stiffness k_c, is conservative too but changes a pair alone in its
group (k_c in series with the law) and needs a root per group per evaluation and a k_c with
no source. Properties: a pair alone in its group (the other apart) has D = d, w = 1, its force
the ungrouped pair's to the last bit; D lies between the deepest d and n^(1/p) times it, and the
group's total force F(D) sum w_i between F(D) and n^(1/p) F(D) (Hoelder; n the pairs
touching: for two, 2^(1/8) = 1.091 with p = 8), both at equal depths; the shallower pair's share
falls as (d_i / D)^(p-1) (a knee at 86 mm and its shin at 60 mm: weights 0.95 and 0.08), the
maximum's (a rigid plate's: only the deepest touches) as p grows. Each group's pairs' narrow
phases and D, D' and weights are found once per evaluation before the pair loop
(``group_pass``, into Data.contact_group). A grouped pair's outputs: its own penetration, rate
and point; its force F(D) w_i; its works as every pair's (the integrals of its own force's
power, so the energy balance closes as before); its elastic energy the share (d_i / D)^p
(summing to 1 by D's definition, = w_i d_i / D) of the group's, ``elastic_energy`` at D, and
its absorbed energy its normal work less that. The group's absorbed energy, the sum of its
pairs', is then its hysteresis and damping loss in D, never negative; one pair's alone can be
(energy passes from one pair to another through the part). Ungrouped pairs are computed exactly
as before.
A pair apart (not d > 0 with its point on the surface) records 0 in every output (but the
integrals: its works and absorbed energy keep their value), one rule for every kind, so that the
broad phase changes no output: its d < 0 is the exact clearance where the narrow phase runs
(planes, boxes, cylinders, discs, ellipsoids), but a pair the broad phase culls has only its
bounding spheres' gap and a mesh none.
A geometry on B0 under a prescribed motion (``occupant.modeling.surface_motions``:
displacement s(t) and velocity s'(t) along the unit u; a plane, box, cylinder, disc, ellipsoid,
sphere or mesh alike) is met where it has moved to, its frame's origin p_b + s u (every narrow
phase, the mesh's too, reads the moved p_b), and its points move at B0's velocity plus s' u (in
d' and the friction's sliding velocity); the power of its contact forces F (on the occupant)
through that motion, F . u s', goes to the motions slot (the work of prescribed motions), the
rest, F . (v_a - s' u), to the contact slot: together the power F . v_a on the tree, so the
energy balance closes as with a geometry at rest in B0. A motion that also turns the shape
(angle theta(t), omega, about an axis through a along k, B0) turns its frame too, (R_b, p_b) to
(Q R_b, a + Q (p_b - a) + s u) (its normals turn with it, in every narrow phase), and its point
c moves at omega k x (c - a - s u) + s' u, which takes the place of s' u above. A geometry on
a body's marker (an interior's hinged part) moves so relative to its link (u, a and k in the
link's frame: ``compile_contacts``): its points move at the link's velocity plus that motion's
(turned into B0), whose power goes to the motions slot as above. Outputs per motion:
``SURFACE_MOTION_OUTPUTS``; pairs with a moving geometry skip the broad phase.
Broad phase: the pairs are declared (in the model or the scenario); a pair whose bounding
spheres (one per geometry, centres moved with their links each evaluation) are apart skips the
narrow phase; a box pair whose spheres meet is tested once more, the body's sphere against the
box itself (``broad_phase.box_gap``). From ``broad_phase.SWEEP_PAIRS`` pairs a sweep along x
first finds the pairs whose spheres may overlap without testing each declared pair's
(``broad_phase``); only those cost their spheres' distance.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from occupant.jit import JIT, JIT_INLINE, JIT_STAGE, call_if, nonliteral, separate
from occupant.contact.broad_phase import box_gap, in_base as _in_base, sweep
from occupant.contact.convex_pairs import ellipsoid_box, ellipsoid_cylinder
from occupant.contact.geometry_pairs import (
    NO_CONTACT, PairGeometry, ellipsoid_ellipsoid, ellipsoid_plane, point_in_link, to_base,
)
from occupant.contact.mesh_pairs import ellipsoid_mesh
from occupant.contact.min_integral import line_power_min_integral
from occupant.forces.joint_resistance import (
    recovering_unload, recovery_shape, table_load, table_slope,
)
from occupant.forces.points import add_force_pair, point_data, point_state
from occupant.model.bundle import (
    CONTACT_ELLIPSOID_BOX, CONTACT_ELLIPSOID_CYLINDER, CONTACT_ELLIPSOID_ELLIPSOID,
    CONTACT_ELLIPSOID_MESH, CONTACT_ELLIPSOID_PLANE, CONTACT_LINEAR, CONTACT_OUTPUTS, CONTACT_POWER,
    CONTACT_WORK, POWER_CONTACTS, POWER_MOTIONS, SURFACE_MOTION_OUTPUTS,
)
from occupant.modeling.surface_motions import translation_at

N_OUTPUTS, N_WORK = len(CONTACT_OUTPUTS), len(CONTACT_WORK)
N_MOTION = len(SURFACE_MOTION_OUTPUTS)
PRESSED = 1e-9   # m [E]: a pair touching at t0 deeper than this starts on its loading history
                 # (``start_histories``); shallower is a touch (a ball placed on a floor reads
                 # 7e-18 m by round-off) and starts at 0 like a first contact in the run: started
                 # at d = d_m, a load from there holds z on the edge d = d_m, where round-off
                 # switches its rate off (a ball thrown in at 1 m/s from a touch lost 2.7e-4 of
                 # its hysteresis loop, measured); the settled pairs are pressed millimetres in

CRUSH_P = 8.0   # [E] the crush group's smooth maximum's exponent (see the module's docstring):
                # D exceeds the deepest penetration, and the group's force F(D) sum (d_i / D)^(p-1)
                # exceeds F(D), each by at most n^(1/p) (2^(1/8) = 1.09 for the two pairs of a
                # knee and shin); a larger p comes closer to the maximum (the rigid plate) with
                # a stiffer change of shares (d^2 D / dd^2 grows as (p - 1) / D)
CRUSH_FOLLOW = 2.0e-5   # s [E]: time constant with which a group's state z (its largest D)
                        # closes the gap to D while loading (``largest_rate``'s follow, as a
                        # belt segment's largest strain's, restraints.belt.LARGEST_FOLLOW): z
                        # integrates D' = sum w_i d_i' while D is a nonlinear function of the
                        # integrated configuration, so an integrator's stage finds D a little
                        # under z (by its truncation error, the p-norm's curvature) and stops z
                        # there (a pair's z and d are integrated alike and tie exactly): a
                        # two-sphere bounce's z fell 3.0e-6 m behind its peak D of 1e-2 m at one
                        # RK4 step of 1e-5 s, the ball leaving 2e-4 too fast; h / 2e-5 = 0.5 under
                        # the scenarios' 1e-5 s Euler steps (monotone). Only while two or more
                        # pairs touch: a pair alone keeps the ungrouped pair's arithmetic
NO_MEMBER = NO_CONTACT + (0.0, 0.0, 0.0, 0.0)   # ``group_member``'s type, for a model without groups

# The fields of a loading and unloading law (``bundle.ContactBlock``'s names, which the BeltBlock
# repeats for its webbing): what the contacts and the belts hand the law's functions, so that
# each is compiled once for both.
ContactLaw = namedtuple("ContactLaw", ["law", "stiffness", "exponent", "load_start", "load_len",
                                       "unload_start", "unload_len", "absorption", "tables"])


@njit(**JIT_INLINE)
def contact_law(el):
    """``el``'s (a ContactBlock's or BeltBlock's) loading and unloading laws."""
    return ContactLaw(el.law, el.stiffness, el.exponent, el.load_start, el.load_len,
                      el.unload_start, el.unload_len, el.absorption, el.tables)


@njit(**JIT)
def loading_force(el, e, d):
    """F_L(d), d >= 0."""
    if el.law[e] == CONTACT_LINEAR:
        return el.stiffness[e] * d
    if el.law[e] == CONTACT_POWER:
        return el.stiffness[e] * d ** el.exponent[e]
    return table_load(el.tables, el.load_start[e], el.load_len[e], d)


@njit(**JIT)
def loading_slope(el, e, d):
    """dF_L/dd at d >= 0, from the right (towards deeper): k, k n d^(n-1), or the table's
    (``table_slope``)."""
    if el.law[e] == CONTACT_LINEAR:
        return el.stiffness[e]
    if el.law[e] == CONTACT_POWER:
        return el.stiffness[e] * el.exponent[e] * d ** (el.exponent[e] - 1.0)
    return table_slope(el.tables, el.load_start[e], el.load_len[e], d)


@njit(**JIT)
def loading_work(el, e, d):
    """E_L(d) = integral of F_L from 0 to d: k d^2/2, k d^(n+1)/(n+1), or the trapezoids of the
    piecewise-linear table (exact, its end slope extended)."""
    if el.law[e] == CONTACT_LINEAR:
        return 0.5 * el.stiffness[e] * d * d
    if el.law[e] == CONTACT_POWER:
        n = el.exponent[e]
        return el.stiffness[e] * d ** (n + 1.0) / (n + 1.0)
    t, k, last = el.tables, el.load_start[e], el.load_start[e] + el.load_len[e] - 1
    work = 0.0
    while k < last and t[k + 1, 0] < d:
        work += 0.5 * (t[k, 1] + t[k + 1, 1]) * (t[k + 1, 0] - t[k, 0])
        k += 1
    return work + 0.5 * (t[k, 1] + loading_force(el, e, d)) * (d - t[k, 0])


@njit(**JIT)
def table_inverse(t, start, n, y):
    """x with table(x) = y for a strictly increasing piecewise-linear table (end slopes extended)."""
    if y <= t[start, 1]:
        k = start
    elif y >= t[start + n - 1, 1]:
        k = start + n - 2
    else:
        k = start
        while t[k + 1, 1] < y:
            k += 1
    return t[k, 0] + (t[k + 1, 0] - t[k, 0]) * (y - t[k, 1]) / (t[k + 1, 1] - t[k, 1])


_LOADING, _TABLE, _LINE, _RECOVERING, _ZERO = range(5)   # the laws' branches (``_branch``)


@njit(**JIT_INLINE)
def _branch(el, e, d, d_max, recovers):
    """Which curve of the law holds at d with the maximum d_max >= d: (branch, F_L(d_max), x):
    _LOADING; below d_max, _TABLE (x: d on the unloading table shifted to meet the loading
    curve at d_max), _LINE (absorption; x: the permanent set d_0), _RECOVERING (``recovers``),
    or _ZERO (F_L(d_max) = 0)."""
    if d >= d_max or (el.unload_start[e] < 0 and el.absorption[e] == 0.0):
        return _LOADING, 0.0, 0.0
    f_max = loading_force(el, e, d_max)
    if f_max <= 0.0:
        return _ZERO, f_max, 0.0
    if el.unload_start[e] >= 0:
        start, n = el.unload_start[e], el.unload_len[e]
        return _TABLE, f_max, d - d_max + table_inverse(el.tables, start, n, f_max)
    if recovers:
        return _RECOVERING, f_max, 0.0
    d0 = d_max - 2.0 * (1.0 - el.absorption[e]) * loading_work(el, e, d_max) / f_max
    return _LINE, f_max, max(d0, 0.0)


@njit(**JIT)
def elastic_force(el, e, d, d_max, recovers=False):
    """Elastic normal force at penetration d > 0 with the maximum penetration d_max >= d so far;
    ``recovers``: the absorption law unloads to the origin (no permanent set)."""
    branch, f_max, x = _branch(el, e, d, d_max, recovers)
    if branch == _LOADING:
        return loading_force(el, e, d)
    if branch == _TABLE:
        if x <= 0.0:
            return 0.0
        return min(table_load(el.tables, el.unload_start[e], el.unload_len[e], x),
                   loading_force(el, e, d))
    if branch == _RECOVERING:
        return recovering_unload(loading_force(el, e, d), f_max, d, d_max,
                                 loading_work(el, e, d_max), el.absorption[e])
    if branch == _LINE and d > x:
        return f_max * (d - x) / (d_max - x)
    return 0.0


@njit(**JIT_INLINE)
def _segment(t, start, n, x):
    """(intercept, slope) of the piecewise-linear table's piece holding x (between rows:
    ``table_slope``'s and ``table_load``'s)."""
    slope = table_slope(t, start, n, x)
    return table_load(t, start, n, x) - slope * x, slope


@njit(**JIT_INLINE)
def _next_row(t, start, n, offset, x):
    """The first row abscissa (plus ``offset``) beyond x, or inf."""
    for k in range(start, start + n):
        if t[k, 0] + offset > x:
            return t[k, 0] + offset
    return np.inf


@njit(**JIT_INLINE)
def _loading_curve(el, e, x):
    """F_L near x as b + c x^n: (0, k, 1), (0, k, n), or the table's piece (intercept, slope, 1)."""
    if el.law[e] == CONTACT_LINEAR:
        return 0.0, el.stiffness[e], 1.0
    if el.law[e] == CONTACT_POWER:
        return 0.0, el.stiffness[e], el.exponent[e]
    b, c = _segment(el.tables, el.load_start[e], el.load_len[e], x)
    return b, c, 1.0


@njit(**JIT)
def _power_min_integral(d, k, p, c, n):
    """Integral over [0, d] of min(k x^p, c x^n): the curves cross once, at (k / c)^(1 / (n - p))."""
    cross = (k / c) ** (1.0 / (n - p)) if n != p and c > 0.0 else np.inf
    total, lo = 0.0, 0.0
    for hi in (min(cross, d), d):
        if hi > lo:
            mid = 0.5 * (lo + hi)
            kk, q = (k, p) if k * mid ** p <= c * mid ** n else (c, n)
            total += kk * (hi ** (q + 1.0) - lo ** (q + 1.0)) / (q + 1.0)
            lo = hi
    return total


@njit(**JIT)
def _capped_power_integral(el, e, d, c, n):
    """Integral over [0, d] of min(F_L(x), c x^n) (the ``recovers`` law's drop)."""
    if el.law[e] == CONTACT_POWER:
        return _power_min_integral(d, el.stiffness[e], el.exponent[e], c, n)
    if el.law[e] == CONTACT_LINEAR:
        return line_power_min_integral(0.0, d, 0.0, el.stiffness[e], 0.0, c, n)
    t, start, rows = el.tables, el.load_start[e], el.load_len[e]
    total, u = 0.0, 0.0
    while u < d:
        v = min(_next_row(t, start, rows, 0.0, u), d)
        a, s = _segment(t, start, rows, 0.5 * (u + v))
        total += line_power_min_integral(u, v, a, s, 0.0, c, n)
        u = v
    return total


@njit(**JIT)
def _capped_table_integral(el, e, d, shift):
    """Integral over [max(shift, 0), d] of min(U(x - shift), F_L(x)), U the unloading table."""
    t, start, rows = el.tables, el.unload_start[e], el.unload_len[e]
    total, u = 0.0, max(shift, 0.0)
    while u < d:
        v = min(_next_row(t, start, rows, shift, u), d)
        if el.law[e] != CONTACT_LINEAR and el.law[e] != CONTACT_POWER:
            v = min(v, _next_row(t, el.load_start[e], el.load_len[e], 0.0, u))
        mid = 0.5 * (u + v)
        a, s = _segment(t, start, rows, mid - shift)
        b, c, n = _loading_curve(el, e, mid)
        total += line_power_min_integral(u, v, a - s * shift, s, b, c, n)
        u = v
    return total


@njit(**JIT)
def elastic_energy(el, e, d, d_max, recovers=False):
    """The elastic energy the pair holds at penetration 0 <= d <= d_max: the integral of
    ``elastic_force``(x, d_max) over x from 0 to d, what unloading along the current curve
    returns; at the peak (d = d_max) that is the unloading curve's from there (not E_L(d)):
    (1 - eps) E_L(d_max) for the absorption laws, f_max (d - d_0)^2 / (2 (d_max - d_0)) below
    it on the straight line; E_L(d) without hysteresis."""
    if el.unload_start[e] < 0 and el.absorption[e] == 0.0:
        return loading_work(el, e, d)
    m = max(d, d_max)
    f_max = loading_force(el, e, m)
    if f_max <= 0.0 or d <= 0.0:
        return 0.0
    if el.unload_start[e] >= 0:
        start, n = el.unload_start[e], el.unload_len[e]
        return _capped_table_integral(el, e, d, m - table_inverse(el.tables, start, n, f_max))
    work = loading_work(el, e, m)
    if recovers:
        # recovering_unload: r F(a) + (1 - r) min(f_max (a / m)^n, F(a)), the same r and n
        if el.absorption[e] >= 1.0:
            return 0.0
        r, n = recovery_shape(f_max, m, work, el.absorption[e])
        return (r * loading_work(el, e, d)
                + (1.0 - r) * _capped_power_integral(el, e, d, f_max / m ** n, n))
    d0 = max(m - 2.0 * (1.0 - el.absorption[e]) * work / f_max, 0.0)
    if d <= d0:
        return 0.0
    return 0.5 * f_max * (d - d0) ** 2 / (m - d0)


@njit(**JIT)
def elastic_slope(el, e, d, d_max):
    """The slope in d of ``elastic_force`` (without ``recovers``) at penetration d >= 0, d_max
    >= d, from the right: towards deeper, the maximum following d once d reaches it. At a kink
    of the law (a table's row; d = d_max, where unloading meets loading; where the unloading
    curve leaves zero; where it meets the loading curve it is capped by) the slope beyond it,
    as a forward difference with a vanishing step."""
    branch, f_max, x = _branch(el, e, d, d_max, nonliteral(False))
    if branch == _LOADING:
        return loading_slope(el, e, d)
    if branch == _TABLE and x >= 0.0:
        start, n = el.unload_start[e], el.unload_len[e]
        unload, load = table_load(el.tables, start, n, x), loading_force(el, e, d)
        if unload < load:
            return table_slope(el.tables, start, n, x)
        if load < unload:
            return loading_slope(el, e, d)
        return min(table_slope(el.tables, start, n, x), loading_slope(el, e, d))
    if branch == _LINE and d >= x:
        return f_max / (d_max - x)
    return 0.0


@njit(**JIT_INLINE)
def largest_rate(d, d_rate, d_max, follow):
    """Rate of the hysteresis state d_max, the largest d (> 0) reached: d' while d >= d_max and
    d' > 0, else 0 (it follows d on loading, stays put otherwise); with ``follow`` > 0 (s) it
    also closes the gap d - d_max >= 0 with that time constant, for a d' that is not the exact
    derivative of d (a belt's length rate: ``restraints.belt``), so d_max stays within
    (error of d') x follow of the running maximum instead of drifting behind it."""
    if d <= 0.0 or d < d_max:
        return 0.0
    rate = max(d_rate, 0.0)
    if follow > 0.0:
        rate += (d - d_max) / follow
    return rate


@njit(**JIT_INLINE)
def bounding_gap(el, R, p, e):
    """Distance between the pair's bounding spheres (negative: they overlap; -inf for an
    unbounded plane)."""
    if not np.isfinite(el.bound_b[e]):
        return -np.inf
    ax, ay, az = _in_base(R, p, el.link_a[e], el.p_a[e, 0], el.p_a[e, 1], el.p_a[e, 2])
    bx, by, bz = _in_base(R, p, el.link_b[e], el.centre_b[e, 0], el.centre_b[e, 1],
                          el.centre_b[e, 2])
    dist = np.sqrt((ax - bx) ** 2 + (ay - by) ** 2 + (az - bz) ** 2)
    return dist - el.bound_a[e] - el.bound_b[e]


@njit(**JIT_INLINE)
def sliding_speed(nx, ny, nz, wx, wy, wz):
    """|w_t|, the part of the relative velocity w tangent to the unit normal n."""
    wn = wx * nx + wy * ny + wz * nz
    tx, ty, tz = wx - wn * nx, wy - wn * ny, wz - wn * nz
    return np.sqrt(tx * tx + ty * ty + tz * tz)


@njit(**JIT_INLINE)
def normal_and_friction(normal, mu, v_s, nx, ny, nz, wx, wy, wz):
    """(friction magnitude, force (3) on a): the normal force along n and the regularised
    Coulomb friction -mu F tanh(|w_t| / v_s) w_t / |w_t| against w_t, the part of a's velocity
    relative to b (w) tangent to n."""
    wn = wx * nx + wy * ny + wz * nz
    tx, ty, tz = wx - wn * nx, wy - wn * ny, wz - wn * nz     # sliding velocity of a on b
    slip = np.sqrt(tx * tx + ty * ty + tz * tz)
    mu_f = mu * normal
    friction = 0.0
    if slip > 0.0:
        friction = mu_f * np.tanh(slip / v_s)
        g = friction / slip
    else:
        g = mu_f / v_s                        # the limit of tanh(s / v_s) / s
    return friction, normal * nx - g * tx, normal * ny - g * ty, normal * nz - g * tz


@njit(**JIT_INLINE)
def narrow_phase(el, points, geo, e, kind):
    """Pair e's geometry routine (the tuple of ``geometry_pairs.ellipsoid_plane``), each type's
    compiled only where the block holds pairs of it (``el.kinds``)."""
    if kind == CONTACT_ELLIPSOID_PLANE:
        return call_if(el.kinds.plane, ellipsoid_plane, NO_CONTACT, points, geo, e)
    if kind == CONTACT_ELLIPSOID_ELLIPSOID:
        return call_if(el.kinds.ellipsoid, ellipsoid_ellipsoid, NO_CONTACT, points, geo, e)
    if kind == CONTACT_ELLIPSOID_BOX:
        return call_if(el.kinds.box, ellipsoid_box, NO_CONTACT, points, geo, e)
    if kind == CONTACT_ELLIPSOID_CYLINDER:
        return call_if(el.kinds.cylinder, ellipsoid_cylinder, NO_CONTACT, points, geo, e)
    return call_if(el.kinds.mesh, ellipsoid_mesh, NO_CONTACT, points, el, geo, e)


@njit(**JIT)
def _signed_distances(bundle, data, out):
    """``out`` (nc,) filled with each pair's narrow-phase d at the state last evaluated into
    ``data``."""
    el = bundle.contacts
    geo = PairGeometry(el.link_a, el.R_a, el.p_a, el.size_a, el.link_b, data.contact_R_b,
                       data.contact_p_b, el.size_b)
    points = point_data(data)
    for e in range(out.shape[0]):
        d, _, _, _, _, _, _, _, inside = narrow_phase(el, points, geo, e, el.pair_type[e])
        out[e] = d if inside else np.nan
    return out


def signed_distances(model, q, t=0.0):
    """{pair name: d (m)}: each contact pair's narrow phase with the model at configuration q
    and time t (a moving surface where it has moved to), with no broad phase: > 0 the
    penetration, < 0 minus the clearance, exact for planes, rectangles, discs, plates, boxes,
    cylinders and ellipsoids (the minimum of the overlap function, ``support``); a mesh apart
    gives nan (its search looks only near the ellipsoid). Each airbag contact pair's likewise:
    its body's depth in the bag as unfolded at t, < 0 minus its clearance to the bag
    (``geometry_pairs.ellipsoid_in_bag``, as the step evaluates it). The query behind the rule
    that a pair apart records 0 in its outputs (``CONTACT_OUTPUTS``,
    ``AIRBAG_CONTACT_OUTPUTS``)."""
    from occupant.integrate.pipeline import evaluate
    if not model.contact_names and not model.airbag_contact_names:
        return {}
    bundle, data = model.bundle(), model.make_data()
    evaluate(bundle, data, float(t), np.ascontiguousarray(q, float), np.zeros(model.nv),
             np.zeros(model.nz), 0.0)
    out = {}
    if model.contact_names:
        out.update(zip(model.contact_names, _signed_distances(
            bundle, data, np.zeros(len(model.contact_names)))))
    if model.airbag_contact_names:   # the bags as the step unfolded them into data
        from occupant.restraints.airbag import bag_distances
        out.update(zip(model.airbag_contact_names, bag_distances(
            bundle, data, np.zeros(len(model.airbag_contact_names))).tolist()))
    return out


def start_histories(model, q0, z0):
    """z0 (a copy) with each compliant pair touching at q0 (t = 0) started on its loading
    history: its largest penetration d_m is its penetration d there (a pair pressed in, by a
    settled occupant's weight or a posture, sits on its loading curve, so that unloading
    follows the unloading curve from d, not the loading one), and its normal work is the
    elastic energy it then holds (``elastic_energy``(d, d)), the work that pressed it in less
    what that absorbed, so that its absorbed energy counts the run's from 0. The pairs apart,
    those touching within PRESSED, and a state z0 already sets (non-zero), keep theirs."""
    z = np.array(z0, dtype=float)
    if not model.contact_names:
        return z
    el = model.bundle().contacts
    d = signed_distances(model, q0, 0.0)
    pressed = np.array([d[name] if d[name] > PRESSED else 0.0 for name in model.contact_names])
    for e, name in enumerate(model.contact_names):
        zk, zw = el.z_start + e, el.work_z_start + N_WORK * e
        if not pressed[e] > 0.0 or z[zk] != 0.0 or el.crush_group[e] >= 0:
            continue
        z[zk] = d[name]
        z[zw] = elastic_energy(el, e, d[name], d[name], el.recovers[e] != 0)
    for g in range(len(el.group_start) - 1):
        # a crush group: its state its depth D (the smooth maximum of its pairs' pressed
        # depths, as ``group_pass``), the energy the group then holds shared among them as
        # its elastic energy output is, (d / D)^p
        rows = np.asarray(el.group_pairs[el.group_start[g]:el.group_start[g + 1]])
        zk, deepest = el.z_start + rows[0], pressed[rows].max()
        if not deepest > 0.0 or np.any(z[el.z_start + rows] != 0.0):
            continue
        depth = deepest * np.sum((pressed[rows] / deepest) ** CRUSH_P) ** (1.0 / CRUSH_P)
        held = elastic_energy(el, rows[0], depth, depth, el.recovers[rows[0]] != 0)
        for e in rows:
            z[el.work_z_start + N_WORK * e] = held * (pressed[e] / depth) ** CRUSH_P
        z[zk] = depth
    return z


@separate
def contacts(bundle, data, t, q, v, z):
    el = bundle.contacts
    power, moving_power = 0.0, 0.0
    R_links, p_links = data.R_base_link, data.p_base_link
    p_b, R_b = moved_points(el, data.contact_p_b, data.contact_R_b, data.outputs, t)
    # what the geometry, point and force routines read
    geo = PairGeometry(el.link_a, el.R_a, el.p_a, el.size_a, el.link_b, R_b, p_b, el.size_b)
    law, points = contact_law(el), point_data(data)
    if el.broad_phase:
        sweep(el, R_links, p_links, data.contact_sweep, data.contact_order, data.contact_culled)
    # the crush groups' pairs, each narrow phase once, and each group's depth (``group_pass``)
    call_if(el.grouped, group_pass, 0, el, points, geo, R_links, p_links, data)
    for e in range(el.link_a.shape[0]):
        la, lb = el.link_a[e], el.link_b[e]
        mover = el.mover_b[e]
        if el.crush_group[e] >= 0:                  # found by the group pass
            d, d_rate, nx, ny, nz, cx, cy, cz, inside, ux, uy, uz, rate = call_if(
                el.grouped, group_member, NO_MEMBER, data, e)
        else:
            d, d_rate, nx, ny, nz, cx, cy, cz, inside, ux, uy, uz, rate = pair_contact(
                el, points, geo, R_links, p_links, data, e)
        normal, friction, stored = 0.0, 0.0, 0.0
        zw = el.work_z_start + N_WORK * e           # the pair's work accumulators
        # the crush: the pair's own, or its group's (its state, depth D and rate D', and the
        # pair's weight dD/dd, its share of the group's force)
        zk, depth, depth_rate, weight, follow = el.z_start + e, d, d_rate, 1.0, 0.0
        if d > 0.0 and inside:
            if el.crush_group[e] >= 0:
                zk, depth, depth_rate, weight, follow = call_if(
                    el.grouped, group_state, (zk, depth, depth_rate, weight, follow), el, data,
                    e)
            data.zdot[zk] = largest_rate(depth, depth_rate, z[zk], follow)
            normal = (elastic_force(law, e, depth, max(z[zk], depth), el.recovers[e] != 0)
                      + el.damping[e] * depth * depth_rate)
            normal = max(normal, 0.0)
            if el.crush_group[e] >= 0:
                normal *= weight                     # F(D) dD/dd: the group's energy's gradient
            rax, ray, raz = point_in_link(points, la, cx, cy, cz)
            rbx, rby, rbz = point_in_link(points, lb, cx, cy, cz)
            _, _, _, vax, vay, vaz = point_state(points, la, rax, ray, raz)
            _, _, _, lvx, lvy, lvz = point_state(points, lb, rbx, rby, rbz)   # its link's
            vbx, vby, vbz = lvx + rate * ux, lvy + rate * uy, lvz + rate * uz  # + the motion's
            friction, fx, fy, fz = normal_and_friction(normal, el.friction[e],
                                                       el.friction_speed[e], nx, ny, nz,
                                                       vax - vbx, vay - vby, vaz - vbz)
            # the power on the tree: b's link moves at lv (its motion is not the tree's)
            pair_power = add_force_pair(points, la, rax, ray, raz, vax, vay, vaz, lb, rbx, rby,
                                        rbz, lvx, lvy, lvz, fx, fy, fz)
            if mover >= 0:
                driven = rate * (fx * ux + fy * uy + fz * uz)
                moving_power += driven
                pair_power -= driven
            power += pair_power
            # on the relative velocity w = v_a - v_b, F . w = F_n n . w - g |w_t|^2: the friction
            # dissipates friction x slip, the normal force takes the rest; pair_power is F . w
            # plus, for a surface on B0, F . v_b (B0's motion)
            wx, wy, wz = vax - vbx, vay - vby, vaz - vbz
            rubbed = friction * sliding_speed(nx, ny, nz, wx, wy, wz)
            relative = fx * wx + fy * wy + fz * wz
            data.zdot[zw] = -relative - rubbed
            data.zdot[zw + 1] = rubbed
            data.zdot[zw + 2] = pair_power - relative
        if data.record_outputs[0] == 0:   # outputs only from here
            continue
        if d > 0.0 and inside:
            stored = elastic_energy(law, e, depth, max(z[zk], depth), el.recovers[e] != 0)
            if el.crush_group[e] >= 0:
                stored *= weight * (d / depth)       # (d / D)^p: the shares sum to 1
        k = el.out_start + N_OUTPUTS * e
        # apart, every output reads 0 (``CONTACT_OUTPUTS``) but the integrals: d there is the
        # true gap only for some kinds, and only once the broad phase lets the pair through
        touching = d > 0.0 and inside
        data.outputs[k] = d if touching else 0.0
        data.outputs[k + 1] = d_rate if touching else 0.0
        data.outputs[k + 2] = normal
        data.outputs[k + 3] = friction
        data.outputs[k + 4] = cx if touching else 0.0
        data.outputs[k + 5] = cy if touching else 0.0
        data.outputs[k + 6] = cz if touching else 0.0
        for j in range(N_WORK):
            data.outputs[k + 7 + j] = z[zw + j]
        data.outputs[k + 7 + N_WORK] = stored
        data.outputs[k + 8 + N_WORK] = z[zw] - stored
    data.power[POWER_CONTACTS] = power
    data.power[POWER_MOTIONS] += moving_power


@njit(**JIT_INLINE)
def pair_contact(el, points, geo, R_links, p_links, data, e):
    """Pair e's (d, d', n (3), contact point c (3), inside, u (3), rate): the narrow phase past
    the broad phase (a pair whose bounding spheres are apart: d minus their gap, not inside),
    d' with a moving geometry's velocity, and that velocity's u and rate
    (``motion_velocity``; 0 for a geometry that does not move)."""
    kind = el.pair_type[e]
    mover = el.mover_b[e]
    culled = el.sweep != 0 and data.contact_culled[e] != 0   # spheres apart along x
    gap = np.inf if culled else bounding_gap(el, R_links, p_links, e)
    if kind == CONTACT_ELLIPSOID_BOX and el.broad_phase and gap <= 0.0 and mover < 0:
        gap = box_gap(el, R_links, p_links, e)   # its spheres meet: the box itself?
    if el.broad_phase and gap > 0.0 and mover < 0:
        d, d_rate, nx, ny, nz, cx, cy, cz, inside = (-gap, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0,
                                                     False)
    else:
        d, d_rate, nx, ny, nz, cx, cy, cz, inside = narrow_phase(el, points, geo, e, kind)
    ux, uy, uz, rate = 0.0, 0.0, 0.0, 0.0       # the moving geometry's velocity s' u
    if mover >= 0:
        ux, uy, uz, rate = motion_velocity(el, points, data.outputs, mover, el.link_b[e], cx,
                                           cy, cz)
        d_rate += rate * (nx * ux + ny * uy + nz * uz)
    return d, d_rate, nx, ny, nz, cx, cy, cz, inside, ux, uy, uz, rate


@njit(**JIT)
def group_pass(el, points, geo, R_links, p_links, data):
    """Data.contact_group filled for every crush group's pairs (rows by pair): each pair's
    ``pair_contact`` (one narrow phase per pair and evaluation; the pair loop reads it back,
    ``group_member``), then its group's depth D = (sum d_i^p)^(1/p) over its pairs touching
    (``CRUSH_P``; computed as m (sum (d_i / m)^p)^(1/p), m the deepest, so that a pair alone gives
    D = d to the last bit), its rate D' = sum w_i d_i', each pair's weight w_i = dD/dd_i =
    (d_i / D)^(p - 1) (1 alone; 0 where no pair touches) and the number of pairs touching.
    Returns 0."""
    rows = data.contact_group
    for g in range(el.group_start.shape[0] - 1):
        first, last = el.group_start[g], el.group_start[g + 1]
        deepest = 0.0
        for j in range(first, last):
            e = el.group_pairs[j]
            d, d_rate, nx, ny, nz, cx, cy, cz, inside, ux, uy, uz, rate = pair_contact(
                el, points, geo, R_links, p_links, data, e)
            touching = d > 0.0 and inside
            rows[e, 0], rows[e, 1] = d, d_rate
            rows[e, 2], rows[e, 3], rows[e, 4] = nx, ny, nz
            rows[e, 5], rows[e, 6], rows[e, 7] = cx, cy, cz
            rows[e, 8] = 1.0 if inside else 0.0
            rows[e, 9], rows[e, 10], rows[e, 11], rows[e, 12] = ux, uy, uz, rate
            if touching and d > deepest:
                deepest = d
        depth, depth_rate, touching = 0.0, 0.0, 0.0
        if deepest > 0.0:
            total = 0.0
            for j in range(first, last):
                e = el.group_pairs[j]
                if rows[e, 0] > 0.0 and rows[e, 8] != 0.0:
                    total += (rows[e, 0] / deepest) ** CRUSH_P
                    touching += 1.0
            depth = deepest * total ** (1.0 / CRUSH_P)
        for j in range(first, last):
            e = el.group_pairs[j]
            weight = 0.0
            if deepest > 0.0 and rows[e, 0] > 0.0 and rows[e, 8] != 0.0:
                weight = (rows[e, 0] / depth) ** (CRUSH_P - 1.0)
                depth_rate += weight * rows[e, 1]
            rows[e, 15] = weight
        for j in range(first, last):
            e = el.group_pairs[j]
            rows[e, 13], rows[e, 14], rows[e, 16] = depth, depth_rate, touching
    return 0


@njit(**JIT_INLINE)
def group_member(data, e):
    """Grouped pair e's ``pair_contact`` tuple as ``group_pass`` stored it."""
    r = data.contact_group
    return (r[e, 0], r[e, 1], r[e, 2], r[e, 3], r[e, 4], r[e, 5], r[e, 6], r[e, 7],
            r[e, 8] != 0.0, r[e, 9], r[e, 10], r[e, 11], r[e, 12])


@njit(**JIT_INLINE)
def group_state(el, data, e):
    """Grouped pair e's crush: (its group's state index (its first pair's z: the largest D so
    far), D, D', the pair's weight dD/dd, the state's follow time: CRUSH_FOLLOW while two or
    more of the group's pairs touch, else 0 as an ungrouped pair's), from ``group_pass``."""
    first = el.group_pairs[el.group_start[el.crush_group[e]]]
    r = data.contact_group
    return (el.z_start + first, r[e, 13], r[e, 14], r[e, 15],
            CRUSH_FOLLOW if r[e, 16] > 1.0 else 0.0)


@separate
def motion_velocity(el, points, outputs, m, lb, cx, cy, cz):
    """(u (3), rate): the velocity rate u (B0) relative to its link lb (B0 or a body) of the
    point c (B0) of a geometry that motion m moves (moved_points wrote its s, s', theta and
    omega): s' u for a translation; omega k x (c - a - s u) + s' u, with rate 1, for a motion
    that turns (point a, unit k of its axis, c - a - s u in the link's frame). A call of its own,
    taken by the moved pairs only, so that the other pairs' loop is compiled as before."""
    o = el.mover_out_start + N_MOTION * m
    rate = outputs[o + 1]
    ux, uy, uz = el.mover_axis[m, 0], el.mover_axis[m, 1], el.mover_axis[m, 2]
    if el.mover_spin_len[m] > 0:
        s, omega = outputs[o], outputs[o + 3]
        lx, ly, lz = point_in_link(points, lb, cx, cy, cz)
        rx = lx - el.mover_hinge[m, 0] - s * ux
        ry = ly - el.mover_hinge[m, 1] - s * uy
        rz = lz - el.mover_hinge[m, 2] - s * uz
        kx, ky, kz = el.mover_hinge[m, 3], el.mover_hinge[m, 4], el.mover_hinge[m, 5]
        ux, uy, uz = (omega * (ky * rz - kz * ry) + rate * ux,
                      omega * (kz * rx - kx * rz) + rate * uy,
                      omega * (kx * ry - ky * rx) + rate * uz)
        rate = 1.0               # (ux, uy, uz) is then the velocity itself
    ux, uy, uz = to_base(points, lb, ux, uy, uz)   # (b on a link: its frame's axes in B0)
    return ux, uy, uz, rate


@njit(**JIT_INLINE)
def moved_points(el, p_b, R_b, outputs, t):
    """(``p_b``, ``R_b``) (Data.contact_p_b, contact_R_b) filled with each pair's frame of
    geometry b at t, moved by its prescribed motion (SurfaceMotion) if any: each motion is
    evaluated once, into its outputs (displacement, velocity, angle, angular velocity), which the
    pairs it moves then read. A turning motion (angle theta about the axis through a along k)
    places the frame (R, p) at (Q R, a + Q (p - a) + s u), Q the rotation by theta (Rodrigues);
    R_b is rewritten only in a block where some motion turns (make_data set it to the block's)."""
    o, turns = el.mover_out_start, el.mover_turns != 0
    for m in range(el.mover_axis.shape[0]):
        j = o + N_MOTION * m
        outputs[j], outputs[j + 1] = translation_at(el.mover_table, el.mover_start[m],
                                                    el.mover_len[m], t)
        if el.mover_spin_len[m] > 0:
            outputs[j + 2], outputs[j + 3] = translation_at(
                el.mover_table, el.mover_spin_start[m], el.mover_spin_len[m], t)
    for e in range(p_b.shape[0]):
        m = el.mover_b[e]
        for k in range(3):
            p_b[e, k] = el.p_b[e, k]
        if turns:
            for i in range(3):
                for k in range(3):
                    R_b[e, i, k] = el.R_b[e, i, k]
        if m >= 0:
            if el.mover_spin_len[m] > 0:
                _turn(el, m, outputs[o + N_MOTION * m + 2], p_b, R_b, e)
            for k in range(3):
                p_b[e, k] += outputs[o + N_MOTION * m] * el.mover_axis[m, k]
    return p_b, R_b


@njit(**JIT_INLINE)
def _turn(el, m, theta, p_b, R_b, e):
    """Row e of ``p_b``, ``R_b`` (holding the block's) turned by theta about motion m's axis."""
    ax, ay, az = el.mover_hinge[m, 0], el.mover_hinge[m, 1], el.mover_hinge[m, 2]
    kx, ky, kz = el.mover_hinge[m, 3], el.mover_hinge[m, 4], el.mover_hinge[m, 5]
    c, sn = np.cos(theta), np.sin(theta)
    q = 1.0 - c
    Q = ((c + q * kx * kx, q * kx * ky - sn * kz, q * kx * kz + sn * ky),
         (q * ky * kx + sn * kz, c + q * ky * ky, q * ky * kz - sn * kx),
         (q * kz * kx - sn * ky, q * kz * ky + sn * kx, c + q * kz * kz))
    rx, ry, rz = p_b[e, 0] - ax, p_b[e, 1] - ay, p_b[e, 2] - az
    p_b[e, 0] = ax + Q[0][0] * rx + Q[0][1] * ry + Q[0][2] * rz
    p_b[e, 1] = ay + Q[1][0] * rx + Q[1][1] * ry + Q[1][2] * rz
    p_b[e, 2] = az + Q[2][0] * rx + Q[2][1] * ry + Q[2][2] * rz
    for k in range(3):
        c0, c1, c2 = R_b[e, 0, k], R_b[e, 1, k], R_b[e, 2, k]
        for i in range(3):
            R_b[e, i, k] = Q[i][0] * c0 + Q[i][1] * c1 + Q[i][2] * c2
