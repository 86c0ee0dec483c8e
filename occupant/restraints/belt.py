"""Seat belts (``occupant.modeling.belts``), a force producer of the step: MADYMO-style multibody
belts of straight segments between points, with webbing flowing between segments.

Per belt, every evaluation:
1. points: anchors and slip rings where their link puts them; a wrap point in the middle of the
   belt's wrap over its ellipsoid (``wrap_point``): in the ellipsoid's scaled frame (the unit
   sphere; an affine map keeps lines, planes and tangency) the belt leaves the neighbour a at its
   tangent point, wraps the sphere in a plane through a and b, around the side where the belt
   lies (its place, a state that follows the point; at the fit the side the element names:
   ``wrap_chain.run_way``, so the belt never jumps through the body it is hooked round), and
   leaves at b's tangent point; P is the middle of that arc. The plane passes through
   the centre (the shortest path: the belt free to slide across the ellipsoid), or for a wrap
   held across the belt by friction (``Wrap.across``) through its place on the body, a state
   (``wrap_slide``): the place stays on the body while the belt's pull across itself (tension
   times the geodesic curvature of its path) is within the coefficient times its push into the
   body, and slides towards the shortest path at (excess force) / slip_damping beyond it
   (regularised Coulomb friction, as MADYMO's belt points slide). Unique and continuous (also as
   the wrap begins, where P is the touching point of the line a-b).
   Consecutive wraps on their shortest path over one ellipsoid share one wrap, equally spaced
   on its arc (``wrap_chain.place_run``: each the middle of the wrap between its neighbours, found
   directly); runs on neighbouring ellipsoids together on the belt's path over all of them
   (``wrap_chain.place_chain``: common tangents between their wraps, solved by Newton's
   method on the path's length). Where the line passes outside on that side, P lies on it (no
   force on the ellipsoid). The chords A-P and P-B cut a shallow chord into the body near P;
   the segments are measured along the belt's path (tangent pieces and arcs, ``path_lengths``),
   so its length is continuous as a wrap starts or stops touching.
   The force T (u_A + u_B) (u along the tangent pieces) acts at P on the ellipsoid's body (or on its carrier, a sternum on
   its prismatic chest joint: P found on the undeformed chest, then moved by the carrier's
   travel, ``modeling.belts.Wrap``); where it is not normal to the
   surface (only an unsymmetric wrap), the point's motion over the surface makes the work of the
   forces differ slightly from minus the webbing's strain energy: the energy balance, which
   counts the work done on the bodies, still closes.
2. segments: strain e = L / l - 1 of the length L (along the path) over the unstretched
   webbing l (a state), L counted to its end wraps' places, which the webbing follows (``wrap_lag``);
   tension F(e) from the webbing's loading table, below the largest strain reached (a state,
   tracked as the contact penetration history is, ``occupant.contact.compliant``) from the
   shifted unloading table; slack (e <= 0) carries none. The force acts on both end points'
   bodies along the segment (``forces.points.add_force_pair``). Segments joined at a wrap
   point without contact (on the line of its neighbours) or next to a segment shorter than
   MERGE_LENGTH (wrap points fallen together) act as one: strain from their summed length
   and webbing, the largest strain their webbing-weighted mean (``span_largest``), one
   tension, no flow at that point, their webbing shared in proportion to their lengths; so a
   wrap that lifts off or comes back keeps the tension continuous. Before they merge, in a
   band of the shorter segment's length (MERGE_BAND) and of the turn (MERGE_TURN_BAND), a
   point merges them in part (``merge_weight`` w, 0 to 1): each side's tension is blended by
   w towards the tension of the two as one, their webbing shared and their largest strains
   meeting (at that mean) at w / SHARE_TIME, the flow at the point faded by 1 - w; so the
   tension is continuous where the point merges them (GS1 with a barrier wrap on the upper
   arm: 5.4 kN -> 0 where shoulder-barrier fell under 20 mm).
3. webbing flow through a slip ring or over a wrap: when the tension ratio of the two segments
   exceeds the capstan ratio exp(mu theta) (Euler-Eytelwein; theta the angle the belt's path turns
   through at the point, its arcs included: ``path_turn``), webbing slides over the body towards
   the tighter side at (excess tension) / slip_damping, so the lengths' rates are -q and +q; within
   the ratio it sticks to the body. A wrap point moving over its body along the belt (the middle of
   a wrap that grows, shrinks or shifts as the body moves) lengthens the one segment as it shortens
   the other (the segments' length rates include it) and, with friction, passes the webbing lying
   there from one to the other besides, without slip (``wrap_drift``; a frictionless wrap holds no
   webbing to the body). Counted as slip, the chord between two wraps on one ellipsoid, lengthening
   as they spread, would be fed only through friction at both ends (US NCAP: shoulder-chest and
   lower diagonal 8.8 and 9.4 kN over B3 6.3 kN when it was). Linearly implicit in the webbing of a
   short segment between two such points, which would otherwise relax faster than the explicit step
   resolves (``flow_solve``).
4. retractor at the first point: payout p' = (F_0 - F_spool) / spool_damping; F_spool the rewind
   force while unlocked; once locked (``lock_delay`` after the vehicle- or webbing-sensitive
   sensor or the pretensioner's firing) rewind force + spool stiffness times the payout beyond
   where it locked or was since wound in to (a ratchet: a pretensioner's pull-in is held, the
   hold wound in beyond the webbing while the pretensioner holds more than the spring, until
   the spring carries the webbing's tension: at its end the spool keeps that tension), or
   with a series compliance (``Retractor.compliance``) the force of their combined table,
   capped by the load limit, where the limiter's payout is kept (a state) so the
   unloading spool does not wind it back; a yielding limiter pays out, besides that, the
   webbing that keeps the first segment's strain (its stretch rate over 1 + e, less what flows
   into it at the next point), so the belt force stays at the limit at any payout speed (the
   damping only corrects drift: a torsion bar twists at its level); a fired pretensioner raises the spool force to its
   table's (force) or its capacity, winding in no faster than its table's pull-in (pull-in,
   ``pretensioner_at``).
States per segment (webbing length, largest strain), per belt (payout, free payout (while
unlocked, or wound in since), limiter payout, lock timer), per wrap its place on the body
(``BELT_WRAP_STATES``, fitted by ``restraints.fit_belts``: held across the belt by friction, or
following the point, ``wrap_slide``); outputs ``BELT_*_OUTPUTS``; power into ``POWER_BELTS``.
"""
import numpy as np
from numba import njit

from occupant.jit import JIT_INLINE, JIT_STAGE, call_if, nonliteral, separate
from occupant.contact.compliant import (
    contact_law, elastic_force, elastic_slope, largest_rate,
)
from occupant.forces.joint_resistance import table_load
from occupant.forces.points import add_point_force, point_data, point_state
from occupant.model.bundle import (
    BELT_ANCHOR, BELT_WRAP, POWER_BELTS, PRETENSIONER_FORCE, PRETENSIONER_NONE,
    PRETENSIONER_PULL_IN,
)
from occupant.restraints.wrap_chain import (
    BARRIER_STILL, BARRIER_SWEEPS, barrier_start, carried_travel, chained, held_in_chain,
    held_hook, lifted, place_barrier, place_chain, place_held, place_run, run_length,
    same_ellipsoid, touching_ends, undeformed_point,
)
from occupant.restraints.wrap_geometry import (  # noqa: F401 (wrap_point: the belt's API)
    _norm, _to_base, _to_local, _unit, _wrap_plane, ellipsoid_frame, wrap_half, wrap_point,
)

NO_HOOK = (1.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))   # ``held_hook`` not compiled
WRAP_FOLLOW = 1.0e-3     # s [E]: time constant with which a held wrap's place follows its point
                         # (the middle of the wrap) within the wrap's plane, and off the body
MERGE_LENGTH = 0.02      # m [E]: a segment shorter than this next to a wrap is merged with the
                         # segment across the wrap (the time constant of its webbing flow,
                         # slip_damping l / EA, would be too short for the explicit steps:
                         # 12 us for 20 mm of GS1 webbing at 100 N s/m)
MERGE_TURN = 1.0e-9      # sine of the turn below which a wrap point has no contact (on the line)
MERGE_BAND = 0.5         # [E]: a wrap point next to a segment shorter than MERGE_LENGTH merges
                         # its segments in part (``merge_weight``), wholly under this fraction of
                         # it; below MERGE_LENGTH, not above: a 20-40 mm band changed the 31 mm
                         # chord of test_belt_flow (its Euler step off the fine one by 37 N, 7 N
                         # allowed) and the GS1 barrier probes did worse (scenarios/validation/
                         # HISTORY.md, mergeblend)
MERGE_TURN_BAND = 1.0e-3  # [E]: sine of the turn under which a wrap point merges its segments in
                          # part (capstan ratio within exp(0.001 mu) of 1: friction negligible)
SAME_POINT = 1.0e-12     # m: a segment shorter than this joins two points that coincide (a wrap
                         # that does not touch at the end of its straight piece, to rounding):
                         # it has no direction of its own (``_beside``)
SHARE_TIME = 2.0e-5      # s [E]: time constant with which merged segments share their webbing
                         # in proportion to their lengths (explicit steps up to 2e-5 s; the
                         # scenarios' Euler steps are 1e-5 s)
BARRIER_SHARE_TIME = 1.0e-4  # s [E]: SHARE_TIME of a group merged across a barrier wrap off
                         # its ellipsoid, always merged (``_off_barrier``): explicit steps up to
                         # 2e-4 s, so the settling's 5e-5 s (``scenario.settle.SETTLE_DT``; at
                         # SHARE_TIME US NCAP's settling diverged, scenarios/README.md, neckbarrier2)
INSIDE_BAND = 0.05       # [E]: a wrap's path to a neighbour counts its arc fully where the
                         # neighbour lies outside the wrap's ellipsoid by this fraction of its
                         # scaled radius, none inside it (``_piece_from``)
STEP_FLOOR = 1.0e-9      # strain below which ``group_stiffness`` takes the slope ahead, not the
                         # secant (two tensions' difference over a vanishing step: rounding)
LARGEST_FOLLOW = 2.0e-5  # s [E]: time constant with which a segment's largest strain closes the
                         # gap to its strain while loading (``compliant.largest_rate``): the
                         # length rate it integrates takes a wrap point's motion over the body
                         # from its place, WRAP_FOLLOW behind the point (US NCAP: 0.1-0.9 m/s
                         # off dL/dt), and the state fell up to 1.9e-3 behind the strain;
                         # h / 2e-5 = 0.5 under the scenarios' 1e-5 s Euler steps (monotone)
FLOW_TIME = 2.0e-5       # s [E]: shortest relaxation time of the webbing of a group between two
                         # points the webbing flows through (``flow_solve``: linearly implicit
                         # where it would be shorter): monotone under the scenarios' 1e-5 s
                         # Euler steps

# The helpers of ``belt`` and ``place_on_surfaces`` are compiled once each as stages (JIT_STAGE),
# not inlined (JIT_INLINE): inlined, ``merged`` alone was copied 14 times into ``belt`` (through
# ``group_of``, ``add_webbing``, ``group_rates``), and the belts' first compilation took 26 s CPU
# (numba's type inference and SSA passes grow faster than the function); as stages 9 s, the
# step's speed unchanged. A constant argument goes through ``jit.nonliteral``, else the stage
# is compiled once more for it. The large ones are ``jit.separate`` (called by name, their code not
# compiled again into each caller); the small ones stay linked, where LLVM inlines them.


@njit(**JIT_INLINE)
def link_velocity_at(data, link, x, y, z):
    """Velocity in B0 of the material point of ``link`` at the B0 position (x, y, z)."""
    if link < 0:
        w0, w1, w2 = data.base[0], data.base[1], data.base[2]
        return data.base[3] + w1 * z - w2 * y, data.base[4] + w2 * x - w0 * z, \
            data.base[5] + w0 * y - w1 * x
    R, p, vel = data.R_base_link, data.p_base_link, data.v
    w0 = R[link, 0, 0] * vel[link, 0] + R[link, 0, 1] * vel[link, 1] + R[link, 0, 2] * vel[link, 2]
    w1 = R[link, 1, 0] * vel[link, 0] + R[link, 1, 1] * vel[link, 1] + R[link, 1, 2] * vel[link, 2]
    w2 = R[link, 2, 0] * vel[link, 0] + R[link, 2, 1] * vel[link, 1] + R[link, 2, 2] * vel[link, 2]
    v0 = R[link, 0, 0] * vel[link, 3] + R[link, 0, 1] * vel[link, 4] + R[link, 0, 2] * vel[link, 5]
    v1 = R[link, 1, 0] * vel[link, 3] + R[link, 1, 1] * vel[link, 4] + R[link, 1, 2] * vel[link, 5]
    v2 = R[link, 2, 0] * vel[link, 3] + R[link, 2, 1] * vel[link, 4] + R[link, 2, 2] * vel[link, 5]
    rx, ry, rz = x - p[link, 0], y - p[link, 1], z - p[link, 2]
    return v0 + w1 * rz - w2 * ry, v1 + w2 * rx - w0 * rz, v2 + w0 * ry - w1 * rx


@njit(**JIT_STAGE)
def point_in_link(data, link, x, y, z):
    """The B0 position (x, y, z) in the frame of ``link`` (-1: B0)."""
    if link < 0:
        return x, y, z
    R, p = data.R_base_link, data.p_base_link
    dx, dy, dz = x - p[link, 0], y - p[link, 1], z - p[link, 2]
    return (R[link, 0, 0] * dx + R[link, 1, 0] * dy + R[link, 2, 0] * dz,
            R[link, 0, 1] * dx + R[link, 1, 1] * dy + R[link, 2, 1] * dz,
            R[link, 0, 2] * dx + R[link, 1, 2] * dy + R[link, 2, 2] * dz)


@njit(**JIT_STAGE)
def place_points(data, el, out, p0, p1, o_pts, z):
    """Every point's position in B0 into the outputs (anchors and rings, then the wraps on the
    undeformed ellipsoids, then carried wraps moved by their carriers' travel, and the wraps
    that do not touch with the straight piece they lie on, ``carry_lifted``)."""
    place_on_surfaces(data, el, out, p0, p1, o_pts, z)
    carried, off = carry_lifted(data, el, out, p0, p1, o_pts)
    if not carried:
        return
    for k in range(p0 + 1, p1 - 1):
        if el.point_carrier[k] != el.point_link[k] and not off & (1 << (k - p0)):
            j = o_pts + 3 * (k - p0)
            dx, dy, dz = carried_travel(data, el, k)
            out[j], out[j + 1], out[j + 2] = out[j] + dx, out[j + 1] + dy, out[j + 2] + dz


@njit(**JIT_STAGE)
def carry_lifted(data, el, out, p0, p1, o_pts):
    """Move each wrap that does not touch (``wrap_chain.lifted``, carried or not), lying at the
    fraction q of the straight piece between its ``touching_ends``, by (1 - q) the travel of the
    end before it and q that of the end after (read before the ends move), so it stays on that
    piece when a carried end moves; a carried wrap that does not touch is then not moved by its
    carrier (``place_points``). Before, a wrap beside a carried end stayed put, off the piece by
    the end's travel, and its segments turned there, pushing a body it does not touch; on the
    end itself its segment had no length and the direction of the carrier's travel (GS1 with a
    barrier on the upper arm: the arm pulled with the belt's 5.6 kN, the chest wrap's sternum
    unloaded); and a carried wrap that lifted off moved with its carrier, off the piece (GS1 at
    mid-clavicle, 148 ms: the three wraps off the body, 23 kN in one sample). Returns whether
    the belt has a carried wrap and the wraps that do not touch in runs with one (bit k - p0:
    up to 63 points, as ``wrap_chain.place_chain``'s runs)."""
    any_carried, off = False, 0
    k = p0 + 1
    while k < p1 - 1:        # each run of wraps between fixed points, if one of them is carried
        r, carried = k, False
        while el.point_kind[r] == BELT_WRAP:
            carried = carried or el.point_carrier[r] != el.point_link[r]
            r += 1
        any_carried = any_carried or carried
        for w in range(k, r if carried else k):
            if el.point_barrier[w] != 0.0 or not lifted(data, el, out, w, o_pts, p0, False):
                continue        # a barrier is placed from its ends as moved (place_barrier)
            off |= 1 << (w - p0)
            i, n = touching_ends(data, el, out, w, 1, o_pts, p0, False)
            ci = el.point_carrier[i] != el.point_link[i]
            cn = el.point_carrier[n] != el.point_link[n]
            if not (ci or cn):
                continue
            j, ja, jb = o_pts + 3 * (w - p0), o_pts + 3 * (i - p0), o_pts + 3 * (n - p0)
            d0, d1, d2 = out[jb] - out[ja], out[jb + 1] - out[ja + 1], out[jb + 2] - out[ja + 2]
            dd = d0 * d0 + d1 * d1 + d2 * d2
            q = ((out[j] - out[ja]) * d0 + (out[j + 1] - out[ja + 1]) * d1
                 + (out[j + 2] - out[ja + 2]) * d2) / dd if dd > 0.0 else 0.0
            q = min(max(q, 0.0), 1.0)
            ti, tn = (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)
            if ci:
                ti = carried_travel(data, el, i)
            if cn:
                tn = carried_travel(data, el, n)
            out[j] += (1.0 - q) * ti[0] + q * tn[0]
            out[j + 1] += (1.0 - q) * ti[1] + q * tn[1]
            out[j + 2] += (1.0 - q) * ti[2] + q * tn[2]
        k = max(r, k + 1)
    return any_carried, off


@separate
def place_on_surfaces(data, el, out, p0, p1, o_pts, z):
    """Anchors and rings, then every wrap point on its (undeformed) ellipsoid: each run of wraps
    on one ellipsoid placed together between the fixed points around it (``place_run``), and
    runs on neighbouring ellipsoids together on the belt's path over all of them
    (``place_chain``), or, where a wrap among them keeps its place across the belt,
    from their places (``place_held``); barrier wraps last (``place_barrier``), the wraps after
    each placed from the point before it (its slot holds that point's position meanwhile)."""
    for k in range(p0, p1):
        if el.point_kind[k] != BELT_WRAP:
            j = o_pts + 3 * (k - p0)
            x, y, z_, _, _, _ = point_state(data, el.point_link[k], el.point_r[k, 0],
                                            el.point_r[k, 1], el.point_r[k, 2])
            out[j], out[j + 1], out[j + 2] = x, y, z_
    call_if(el.barrier, _stand_in_barriers, None, el, out, p0, p1, o_pts)
    for k in range(p0 + 1, p1 - 1):
        if run_length(el, k) != 0 and not chained(el, k - 1):
            _place_wraps(data, el, out, k, o_pts, p0, z)
    call_if(el.barrier, _place_barriers, None, data, el, out, p0, p1, o_pts, z)


@njit(**JIT_STAGE)
def _place_wraps(data, el, out, k, o_pts, p0, z):
    """The wraps from k (the first after a fixed point or a barrier) to the next fixed point,
    from the points before and after them as they stand in the outputs: one run together
    (``place_run``), runs on neighbouring ellipsoids on the path over all (``place_chain``), or
    from their places where one keeps its place across the belt (``place_held``)."""
    m = run_length(el, k)
    if not chained(el, k + m):
        j, jb = o_pts + 3 * (k - 1 - p0), o_pts + 3 * (k + m - p0)
        place_run(data, el, out, k, m, o_pts, p0, z, (out[j], out[j + 1], out[j + 2]),
                  (out[jb], out[jb + 1], out[jb + 2]), -1.0)
    elif call_if(el.held, held_in_chain, False, el, k):   # compiled where a wrap is held
        call_if(el.held, place_held, None, data, el, out, k, o_pts, p0, z)
    else:
        place_chain(data, el, out, k, o_pts, p0, z)


@njit(**JIT_STAGE)
def _stand_in_barriers(el, out, p0, p1, o_pts):
    """Each barrier wrap's slot set to the fixed point before it (``place_on_surfaces``)."""
    for k in range(p0 + 1, p1 - 1):
        if el.point_barrier[k] != 0.0:
            j = o_pts + 3 * (k - p0)
            out[j], out[j + 1], out[j + 2] = out[j - 3], out[j - 2], out[j - 1]


@njit(**JIT_STAGE)
def _place_barriers(data, el, out, p0, p1, o_pts, z):
    """``place_barrier`` of each barrier wrap of the belt (points p0 to p1), the wraps after it
    placed again from ``barrier_start``'s point (the barrier's own where it touches, the fixed
    point before it far from touching), in turn, until that point moves less than BARRIER_STILL
    (BARRIER_SWEEPS at most): the wraps after a barrier that touches run from it, not on the
    line from the fixed point as if it were not there (GS1 with a barrier on the upper arm: the
    shoulder wrap off the shoulder, 52 mm in a sample; scenarios/README.md, wayround)."""
    for k in range(p0 + 1, p1 - 1):
        if el.point_barrier[k] == 0.0:
            continue
        j = o_pts + 3 * (k - p0)
        x = (out[j], out[j + 1], out[j + 2])     # the stand-in: the fixed point before it
        w = place_barrier(data, el, out, k, o_pts, p0, z)
        if run_length(el, k + 1) == 0:
            continue
        for _ in range(BARRIER_SWEEPS):
            y = barrier_start(data, el, out, k, o_pts, p0, w)
            if _norm(y[0] - x[0], y[1] - x[1], y[2] - x[2]) <= BARRIER_STILL:
                break
            out[j], out[j + 1], out[j + 2] = y
            _place_wraps(data, el, out, k + 1, o_pts, p0, z)
            x = y
            w = place_barrier(data, el, out, k, o_pts, p0, z)


@njit(**JIT_STAGE)
def point_velocity(data, el, out, k, p0, o_pts):
    """Velocity (B0) of the material of belt point k's body (BeltBlock.point_carrier) where the
    point lies; the forces' power uses it, as it must. A carried wrap's point with a share c of
    its carrier's travel (``Wrap.share``) moves as (1 - c) the geometry's part's material plus c
    the carrier's, where its force acts in those shares (``add_point_share``). A
    wrap point's own motion over the surface along the belt is added to the segment length
    rates afterwards (``wrap_drift``, with the webbing it carries across)."""
    j = o_pts + 3 * (k - p0)
    v = link_velocity_at(data, el.point_carrier[k], out[j], out[j + 1], out[j + 2])
    c = el.point_share[k]
    if c != 1.0:
        w = link_velocity_at(data, el.point_link[k], out[j], out[j + 1], out[j + 2])
        v = (w[0] + c * (v[0] - w[0]), w[1] + c * (v[1] - w[1]), w[2] + c * (v[2] - w[2]))
    return v


@njit(**JIT_INLINE)
def add_point_share(data, el, k, x, y, z, fx, fy, fz):
    """The force f (B0) at belt point k (B0 position x, y, z): on its carrier (BeltBlock.
    point_carrier), or for a carried wrap with a share c < 1 (``Wrap.share``), c f on the
    carrier and (1 - c) f on the geometry's part at the same place."""
    c, lc = el.point_share[k], el.point_carrier[k]
    if c == 1.0:
        rx, ry, rz = point_in_link(data, lc, x, y, z)
        add_point_force(data, lc, rx, ry, rz, fx, fy, fz)
        return
    rx, ry, rz = point_in_link(data, lc, x, y, z)
    add_point_force(data, lc, rx, ry, rz, c * fx, c * fy, c * fz)
    ll, d = el.point_link[k], 1.0 - c
    rx, ry, rz = point_in_link(data, ll, x, y, z)
    add_point_force(data, ll, rx, ry, rz, d * fx, d * fy, d * fz)



@njit(**JIT_STAGE)
def _held_slide(data, el, out, k, j, o_pts, p0, c, E, P, u, f_in, f_out, damping, r):
    """``wrap_slide``'s rate ``r`` of the place of wrap k held across the belt, with its slide
    towards the shortest path where the belt's pull across itself exceeds the friction (``c``,
    ``E``: its ellipsoid's frame; ``P`` the point, ``u`` the place in it). The belt's plane is
    the one the wrap is placed in, through its ``touching_ends``: through the points beside it,
    a neighbour that does not touch (on the straight piece to the touching end, ending at this
    wrap's point, not at its tangent point) gave another plane, in which the slide that lowered
    |h| raised the placed plane's (GS1 at mid-clavicle, the chest wrap beside the lifted
    shoulder wrap, 115-129 ms: +2 to +7 /s): its circle shrank from r 0.45 to 0.01 and the
    belt went the long way round it until the wraps lifted off together (19.6 kN)."""
    mu = el.point_across[k]
    u0, u1, u2 = u
    r0, r1, r2 = r
    D0, D1, D2 = el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2]
    a0, a1, a2 = _unit(out[j - 3] - out[j], out[j - 2] - out[j + 1], out[j - 1] - out[j + 2])
    b0, b1, b2 = _unit(out[j + 3] - out[j], out[j + 4] - out[j + 1], out[j + 5] - out[j + 2])
    m0, m1, m2 = P[0] / (D0 * D0), P[1] / (D1 * D1), P[2] / (D2 * D2)   # outward normal
    n0, n1, n2 = _unit(E[0] * m0 + E[1] * m1 + E[2] * m2, E[3] * m0 + E[4] * m1 + E[5] * m2,
                       E[6] * m0 + E[7] * m1 + E[8] * m2)
    normal = -((f_in * a0 + f_out * b0) * n0 + (f_in * a1 + f_out * b1) * n1
               + (f_in * a2 + f_out * b2) * n2)
    i, m = touching_ends(data, el, out, k, 1, o_pts, p0, True)
    ja, jb = o_pts + 3 * (i - p0), o_pts + 3 * (m - p0)
    A = _to_local(c, E, out[ja], out[ja + 1], out[ja + 2])
    B = _to_local(c, E, out[jb], out[jb + 1], out[jb + 2])
    n, h, r = _wrap_plane((A[0] / D0, A[1] / D1, A[2] / D2),
                          (B[0] / D0, B[1] / D1, B[2] / D2), (u0, u1, u2))
    excess = normal * (abs(h) / r - mu) if r > 0.0 and normal > 0.0 else 0.0
    if excess > 0.0:
        # across the belt (the plane normal's part in the surface) towards the shortest
        # path on the wrap's side: the way |h| falls (tried a step of 1e-7 along it), or rises
        # where the place has passed to the other side or the belt is hooked (``_slides_up``)
        hu = n[0] * u0 + n[1] * u1 + n[2] * u2
        t0, t1, t2 = n[0] - hu * u0, n[1] - hu * u1, n[2] - hu * u2
        _, h2, _ = _wrap_plane((A[0] / D0, A[1] / D1, A[2] / D2),
                               (B[0] / D0, B[1] / D1, B[2] / D2),
                               (u0 + 1e-7 * t0, u1 + 1e-7 * t1, u2 + 1e-7 * t2))
        g = 1.0 if abs(h2) < abs(h) else -1.0
        if _slides_up(el, k, A, B, u):
            g = -g
        d0, d1, d2 = _unit(g * D0 * t0, g * D1 * t1, g * D2 * t2)
        v = excess / damping
        r0, r1, r2 = r0 + v * d0 / D0, r1 + v * d1 / D1, r2 + v * d2 / D2
    return flank_bound(el, k, u, (r0, r1, r2))


@njit(**JIT_STAGE)
def _slides_up(el, k, A, B, u):
    """Whether held wrap k's place u (unit sphere of the scaled frame; neighbours A and B in the
    ellipsoid frame) slides the way |h| rises: where the line A-B passes outside the ellipsoid
    (a touching wrap is hooked round it, the long way: its path shortens as its plane turns
    towards touching the ellipsoid, where it lifts off; towards h = 0 it lengthened, round the
    far side: GS1 at mid-clavicle, the chest wrap over the thorax's top once the belt had left
    the shoulder, 72 kN), or where the place lies past the smallest circle of its belt's planes,
    on the other side from the one the wrap declares (``Wrap.side``). Every plane of the belt
    passes through the line A-B; where the line passes through the ellipsoid, the planes' circles shrink from the great
    circle's half on one side of the line (through the centre) to the smallest (the plane
    normal to the centre's offset w from the line) and grow to the other half. The shortest
    path on the declared side, the held wrap's rest across the belt, is the half on that side;
    |h| falls towards either half, so a place that passed the smallest circle (the body turning
    under it while the belt was slack) slid round the other half: GS1's shoulder belt, fitted
    on the front of the shoulder shell, round its back and through the thorax (597 -> 729 mm
    from the anchorage to the chest in 4 ms, 24 kN). There the place slides the way |h|
    rises, back over the smallest circle."""
    D0, D1, D2 = el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2]
    sa0, sa1, sa2 = A[0] / D0, A[1] / D1, A[2] / D2
    d0, d1, d2 = _unit(B[0] / D0 - sa0, B[1] / D1 - sa1, B[2] / D2 - sa2)
    along = -(sa0 * d0 + sa1 * d1 + sa2 * d2)
    w0, w1, w2 = -sa0 - along * d0, -sa1 - along * d1, -sa2 - along * d2   # line -> centre
    if _norm(w0, w1, w2) >= 1.0:        # the line passes outside: hooked
        return True
    along = (u[0] - sa0) * d0 + (u[1] - sa1) * d1 + (u[2] - sa2) * d2
    v0, v1, v2 = u[0] - sa0 - along * d0, u[1] - sa1 - along * d1, u[2] - sa2 - along * d2
    c0, c1, c2 = (el.point_side[k, 0] * D0, el.point_side[k, 1] * D1,
                  el.point_side[k, 2] * D2)   # the declared side's scaled normal direction
    return (v0 * w0 + v1 * w1 + v2 * w2) * (c0 * w0 + c1 * w1 + c2 * w2) < 0.0


@njit(**JIT_STAGE)
def flank_bound(el, k, u, r):
    """The rate ``r`` of held wrap k's place ``u`` (unit sphere of its ellipsoid's scaled frame)
    kept to its flank (``Wrap.flank``: n . x >= d in the ellipsoid frame, g . u >= d with
    g = D n): within it unchanged; at or past its bound, the part of the rate that would take it
    further out is removed (the bound takes the belt's pull across itself beyond the friction)
    and the gap closes with time constant WRAP_FOLLOW, along t, the tangential part of g (the
    way g . u grows fastest on the sphere: d(g . u)/dt = r . t)."""
    g0, g1, g2, d = el.point_flank[k, 0], el.point_flank[k, 1], el.point_flank[k, 2], \
        el.point_flank[k, 3]
    gu = g0 * u[0] + g1 * u[1] + g2 * u[2]
    if (g0 == 0.0 and g1 == 0.0 and g2 == 0.0) or gu >= d:
        return r
    t0, t1, t2 = g0 - gu * u[0], g1 - gu * u[1], g2 - gu * u[2]
    tt = t0 * t0 + t1 * t1 + t2 * t2
    if tt == 0.0:
        return r
    rt = r[0] * t0 + r[1] * t1 + r[2] * t2
    c = (d - gu) / WRAP_FOLLOW / tt - min(rt, 0.0) / tt
    return r[0] + c * t0, r[1] + c * t1, r[2] + c * t2


@njit(**JIT_STAGE)
def wrap_slide(data, el, out, zdot, z, k, p0, o_pts, f_in, f_out, damping):
    """Rate of the place of wrap point k (its states). A wrap on its shortest path (no
    ``across``): the place follows the point with time constant WRAP_FOLLOW, a memory of where
    the belt lies that picks the way round (``wrap_chain.run_way``). A wrap held across the
    belt: the belt over the wrap lies in the plane
    through its neighbours and the place (``wrap_point``), at offset h from the centre in the
    scaled frame: a circle on the sphere whose geodesic curvature over its normal curvature is
    h / sqrt(1 - h^2), the belt's pull across itself over its push into the body. The place
    stays on the body while that ratio is within the friction coefficient; beyond it, it
    slides towards the shortest path (h = 0) at (excess force) / damping, the excess
    N (|h| / sqrt(1 - h^2) - mu), N the normal part of the belt's force T_in u_in + T_out u_out
    there (regularised Coulomb friction, as the webbing's flow; the shortest path on the side
    the wrap declares is the belt's rest across it). Along the belt, and where the belt left the
    body, the place follows the point (the middle of the wrap, in the plane: the plane stays)
    with time constant WRAP_FOLLOW; a hook being handed over to the line (``wrap_chain.held_hook``,
    its point off the body) follows its hook's point, not the point moved towards the line (which
    drew the place off the hook and the hand-over ran its course in 20 us: GS1, the abdomen wrap,
    142.34-142.36 ms)."""
    j, jz = o_pts + 3 * (k - p0), el.point_z[k]
    c, E = ellipsoid_frame(data, el, k)
    x, y, w = undeformed_point(data, el, out, k, j)
    if el.point_across[k] > 0.0:    # a hook being handed over: its place follows the hook
        hook, Ph, _, _ = call_if(el.held, held_hook, NO_HOOK, data, el, out, z, k, o_pts, p0)
        if 0.0 < hook < 1.0:
            x, y, w = Ph
    D0, D1, D2 = el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2]
    P = _to_local(c, E, x, y, w)
    s0, s1, s2 = z[jz], z[jz + 1], z[jz + 2]
    ns = _norm(s0, s1, s2)
    u0, u1, u2 = _unit(P[0] / D0, P[1] / D1, P[2] / D2) if ns == 0.0 else (s0 / ns, s1 / ns, s2 / ns)
    r0 = (P[0] / D0 - u0) / WRAP_FOLLOW
    r1 = (P[1] / D1 - u1) / WRAP_FOLLOW
    r2 = (P[2] / D2 - u2) / WRAP_FOLLOW
    if el.point_across[k] > 0.0:   # held across the belt (compiled where a wrap is held)
        r = (r0, r1, r2)
        r0, r1, r2 = call_if(el.held, _held_slide, r, data, el, out, k, j, o_pts, p0, c, E, P,
                             (u0, u1, u2), f_in,
                             f_out, damping, r)
    # on the sphere: the rate's tangential part, and the length drawn back to 1
    rs = r0 * u0 + r1 * u1 + r2 * u2
    grow = (1.0 - ns) / WRAP_FOLLOW
    zdot[jz] = r0 - rs * u0 + grow * u0
    zdot[jz + 1] = r1 - rs * u1 + grow * u1
    zdot[jz + 2] = r2 - rs * u2 + grow * u2


@njit(**JIT_INLINE)
def _off_barrier(data, el, out, k, p0, o_pts):
    """Whether belt point k is a barrier wrap off its ellipsoid (``wrap_chain.place_barrier``):
    a point on its neighbours' straight piece, its two segments merged."""
    return el.point_barrier[k] != 0.0 and lifted(data, el, out, k, o_pts, p0, False)


@njit(**JIT_STAGE)
def wrap_lag(data, el, out, z, k, p0, o_pts):
    """How far (m) wrap point k lies ahead of its place along the belt (towards the next point):
    the webbing's bookkeeping follows the place (``wrap_drift`` carries the webbing with the
    place's motion, WRAP_FOLLOW behind the point), so a segment's strain counts its length to
    its ends' places, continuous where the point jumps along the belt (GS1 at mid-clavicle,
    136.5 ms: the shoulder and chest wraps lift off, the abdomen wrap's point jumps 45 mm along
    the belt towards the D-ring, and the abdomen-buckle segment, 45 mm longer on the same
    webbing, went 1.3 -> 17.8 kN in one 1e-5 s step).
    Zero for a point that is not a wrap, or a frictionless one (it carries no webbing: its
    segments' webbing flows freely through it, each counted to the point)."""
    jz = el.point_z[k]
    if el.point_kind[k] != BELT_WRAP or jz < 0 or el.point_friction[k] == 0.0:
        return 0.0
    ns = _norm(z[jz], z[jz + 1], z[jz + 2])
    if ns == 0.0:
        return 0.0
    j = o_pts + 3 * (k - p0)
    x, y, w = undeformed_point(data, el, out, k, j)
    c, E = ellipsoid_frame(data, el, k)
    P = _to_local(c, E, x, y, w)
    d0 = P[0] - el.point_size[k, 0] * z[jz] / ns
    d1 = P[1] - el.point_size[k, 1] * z[jz + 1] / ns
    d2 = P[2] - el.point_size[k, 2] * z[jz + 2] / ns
    return _along_belt(E, out, j, d0, d1, d2)


@njit(**JIT_INLINE)
def _along_belt(E, out, j, d0, d1, d2):
    """The part along the belt at the point of output slot j (from the point before to the one
    after) of the vector d, given in the axes E of its wrap's ellipsoid."""
    t0, t1, t2 = _unit(out[j + 3] - out[j - 3], out[j + 4] - out[j - 2], out[j + 5] - out[j - 1])
    return ((E[0] * d0 + E[1] * d1 + E[2] * d2) * t0 + (E[3] * d0 + E[4] * d1 + E[5] * d2) * t1
            + (E[6] * d0 + E[7] * d1 + E[8] * d2) * t2)


@njit(**JIT_STAGE)
def wrap_drift(data, el, out, zdot, z, k, p0, o_pts):
    """Speed (m/s) at which wrap point k moves over its body along the belt, towards the next
    point: its place's rate (``wrap_slide``, within WRAP_FOLLOW of the point's own motion),
    tangential on the unit sphere, scaled to the ellipsoid and taken along the belt there
    (from the point before to the one after). Zero for a point that is not a wrap."""
    jz = el.point_z[k]
    if el.point_kind[k] != BELT_WRAP or jz < 0:
        return 0.0
    j = o_pts + 3 * (k - p0)
    ns = _norm(z[jz], z[jz + 1], z[jz + 2])
    if ns == 0.0:
        return 0.0
    u0, u1, u2 = z[jz] / ns, z[jz + 1] / ns, z[jz + 2] / ns
    r = zdot[jz] * u0 + zdot[jz + 1] * u1 + zdot[jz + 2] * u2
    w0 = el.point_size[k, 0] * (zdot[jz] - r * u0)
    w1 = el.point_size[k, 1] * (zdot[jz + 1] - r * u1)
    w2 = el.point_size[k, 2] * (zdot[jz + 2] - r * u2)
    _, E = ellipsoid_frame(data, el, k)
    return _along_belt(E, out, j, w0, w1, w2)


@njit(**JIT_STAGE)
def pretensioner_at(el, b, t, payout):
    """What a fired pretensioner does to the spool at t: the least spool force (N) and the
    fastest it winds webbing in (m/s). A force pretensioner: its table's force, while it has
    wound in less than its stroke, at any speed; a pull-in pretensioner: its capacity, no
    faster than its table's pull-in rate, until the table ends (so it stalls at its capacity
    once the belt is tight, and winds in at most the table's pull-in; through the spool's
    damping its force falls linearly with its speed, from the capacity at stall). Otherwise
    (0, inf)."""
    kind = el.pretensioner[b]
    tau, start, n = t - el.fire_time[b], el.pt_start[b], el.pt_len[b]
    tab = el.pt_tables
    if kind == PRETENSIONER_FORCE and tau >= 0.0 and payout > -el.stroke[b] \
            and tau <= tab[start + n - 1, 0]:
        return table_load(tab, start, n, tau), np.inf
    if kind != PRETENSIONER_PULL_IN or tau < 0.0 or tau > tab[start + n - 1, 0]:
        return 0.0, np.inf
    if tau < tab[start, 0]:
        return el.pt_capacity[b], 0.0
    k = start
    while k < start + n - 2 and tab[k + 1, 0] <= tau:
        k += 1
    return el.pt_capacity[b], (tab[k + 1, 1] - tab[k, 1]) / (tab[k + 1, 0] - tab[k, 0])


@njit(**JIT_STAGE)
def merge_weight(kind, out, k, j, la, lb):
    """How far wrap point k (``kind``: BeltBlock.point_kind; its position at outputs j; the
    segments' lengths la before it and lb after it) joins its two segments into one, 0 to 1: 1
    with no contact (the point on the line of its neighbours, sine of the turn within
    MERGE_TURN) or a segment shorter than MERGE_BAND times MERGE_LENGTH (two wrap points
    fallen together), falling linearly to 0 at MERGE_LENGTH and at a sine of MERGE_TURN_BAND. At
    1 the segments act as one (``merged``); between, in part (``belt``, ``flow_terms``)."""
    if kind[k] != BELT_WRAP:
        return 0.0
    short = min(la, lb)
    w = min(max((MERGE_LENGTH - short) / ((1.0 - MERGE_BAND) * MERGE_LENGTH), 0.0), 1.0)
    if w >= 1.0:
        return 1.0
    ax, ay, az = out[j] - out[j - 3], out[j + 1] - out[j - 2], out[j + 2] - out[j - 1]
    bx, by, bz = out[j + 3] - out[j], out[j + 4] - out[j + 1], out[j + 5] - out[j + 2]
    if ax * bx + ay * by + az * bz <= 0.0:
        return w
    cross = _norm(ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx)
    if cross >= MERGE_TURN_BAND * la * lb:   # turned past the band (most points): no division
        return w
    sine = cross / (la * lb)
    if sine <= MERGE_TURN:
        return 1.0
    return max(w, min(max((MERGE_TURN_BAND - sine) / (MERGE_TURN_BAND - MERGE_TURN), 0.0), 1.0))


@njit(**JIT_STAGE)
def merged(kind, out, k, j, la, lb):
    """Whether wrap point k joins its two segments into one (``merge_weight`` 1): they act as
    one segment of their summed length and webbing."""
    return merge_weight(kind, out, k, j, la, lb) >= 1.0


@njit(**JIT_STAGE)
def group_of(kind, out, s, ns, p0, o_pts, os):
    """First and last segment of the group of segment s: the segments joined by merged wrap
    points (``merged``), which act as one segment of their summed length and webbing (only the
    points' kinds of the belt block are passed: each array passed to a stage costs a call)."""
    g0 = s
    while g0 > 0 and merged(kind, out, p0 + g0, o_pts + 3 * g0, out[os + 4 * (g0 - 1) + 2],
                            out[os + 4 * g0 + 2]):
        g0 -= 1
    g1 = s
    while g1 < ns - 1 and merged(kind, out, p0 + g1 + 1, o_pts + 3 * (g1 + 1),
                                 out[os + 4 * g1 + 2], out[os + 4 * (g1 + 1) + 2]):
        g1 += 1
    return g0, g1


@njit(**JIT_STAGE)
def add_webbing(kind, out, zdot, zs, os, s, ns, p0, o_pts, rate):
    """Add the webbing rate to segment s, or to its group shared in proportion to the segments'
    lengths (the share they keep, ``belt``), so webbing that flows into merged segments leaves
    their strains equal."""
    g0, g1 = group_of(kind, out, s, ns, p0, o_pts, os)
    total = 0.0
    for g in range(g0, g1 + 1):
        total += out[os + 4 * g + 2]
    for g in range(g0, g1 + 1):
        w = out[os + 4 * g + 2] / total if total > 0.0 else 1.0 / (g1 - g0 + 1)
        zdot[zs + 2 * g] += w * rate


@njit(**JIT_STAGE)
def span_largest(z, zs, a, c):
    """The largest strain (hysteresis state) of segments a to c acting as one: the mean of
    theirs weighted by their webbing, so a merge spreads over the group only what its webbing
    went through (the sum of webbing times largest strain is kept; the largest of theirs gave
    a short segment's, 16 mm stretched 0.06 by a wrap point's 1 mm step, to 0.57 m of
    neighbours that never passed 0.02: the belt slack, tests/restraints/test_belt_merge.py).
    Pieces in series on a shifted unloading curve (``compliant._branch``) at one tension have
    the strains of its inverse plus each piece's shift, so their mean strain is that of one
    piece with the webbing-weighted mean shift: exact where the shift is affine in the largest
    strain (linear laws; piecewise for the GS1 table). The largest of them where the group has
    no webbing; a lone segment's own (not its webbing times it over its webbing: rounding)."""
    if a == c:
        return z[zs + 2 * a + 1]
    webbing, history, top = 0.0, 0.0, 0.0
    for g in range(a, c + 1):
        web = max(z[zs + 2 * g], 0.0)
        webbing += web
        history += web * z[zs + 2 * g + 1]
        top = max(top, z[zs + 2 * g + 1])
    return history / webbing if webbing > 0.0 else top


@njit(**JIT_STAGE)
def span_tension(data, el, out, z, zs, os, a, c, p0, o_pts, s0):
    """(strain, tension) of segments a to c acting as one: their summed length, counted to the
    places of its end points (``wrap_lag``), over their summed webbing (at least 1e-6 m), on
    the webbing's law below their largest strain (``span_largest``)."""
    length, webbing = 0.0, 0.0
    for g in range(a, c + 1):
        length += out[os + 4 * g + 2]
        webbing += z[zs + 2 * g]
    largest = span_largest(z, zs, a, c)
    webbing = max(webbing, 1e-6)
    length += wrap_lag(data, el, out, z, p0 + a, p0, o_pts) \
        - wrap_lag(data, el, out, z, p0 + c + 1, p0, o_pts)
    strain = length / webbing - 1.0
    if strain <= 0.0:
        return strain, 0.0
    return strain, elastic_force(contact_law(el), s0 + a, strain, max(largest, strain),
                                 nonliteral(False))


@njit(**JIT_STAGE)
def share_across(kind, out, zdot, z, zs, os, s, ns, p0, o_pts, w):
    """Share the webbing of the groups before and after point s (``group_of``; point s merges
    them in part, ``merge_weight`` w) towards their summed webbing W in proportion to their
    lengths as their strains count them (to their end wraps' places, ``wrap_lag``), i.e. equal
    strains, as merged segments share theirs (``belt``): towards W La / (La + Lb) at
    w / SHARE_TIME. Webbing goes to the more strained side."""
    g0 = group_of(kind, out, s - 1, ns, p0, o_pts, os)[0]
    g1 = group_of(kind, out, s, ns, p0, o_pts, os)[1]
    wa, wb = 0.0, 0.0
    for g in range(g0, s):
        wa += z[zs + 2 * g]
    for g in range(s, g1 + 1):
        wb += z[zs + 2 * g]
    la = (1.0 + out[os + 4 * (s - 1) + 1]) * max(wa, 1e-6)
    lb = (1.0 + out[os + 4 * s + 1]) * max(wb, 1e-6)
    total = la + lb
    q = w * (la * (wa + wb) / total - wa) / SHARE_TIME
    add_webbing(kind, out, zdot, zs, os, s - 1, ns, p0, o_pts, q)
    add_webbing(kind, out, zdot, zs, os, s, ns, p0, o_pts, -q)


@njit(**JIT_STAGE)
def group_rates(kind, out, zdot, z, zs, os, s, ns, p0, o_pts):
    """Of the group of segment s (``group_of``): its length rate, the webbing flowing into it
    (zdot, the sharing within it adds up to zero) and its webbing (at least 1e-6 m)."""
    g0, g1 = group_of(kind, out, s, ns, p0, o_pts, os)
    rate, inflow, webbing = 0.0, 0.0, 0.0
    for g in range(g0, g1 + 1):
        rate += out[os + 4 * g + 3]
        inflow += zdot[zs + 2 * g]
        webbing += z[zs + 2 * g]
    return rate, inflow, max(webbing, 1e-6)


@njit(**JIT_STAGE)
def group_stiffness(el, out, z, zs, os, s, ns, p0, o_pts, e):
    """How fast the tension of segment s's group (``group_of``) rises as it loses webbing
    (N/m): its webbing's secant dF/de over the strain its stretch alone moves it through in
    FLOW_TIME, the longest the flow is implicit over (``_implicit_time``): Delta = FLOW_TIME
    L' / l (L' its length rate, l its webbing), along the law with its hysteresis (towards more
    strain the largest strain follows; ``elastic_force``), so a group at the corner where
    unloading meets loading takes the slope of the way it moves, and a group crossing it within
    the horizon a blend, continuous in the state (at Delta = 0 the slope ahead,
    ``elastic_slope``); zero while slack; times (1 + e) over its webbing. The slope decides
    whether a short group's flow is implicit (``flow_solve``), and how much the length rate it
    predicts with (off the exact one by the wraps' drift, taken from places WRAP_FOLLOW behind
    their points) weighs: one side's slope at the corner (loading within a band of 0, 1e-6 or
    1e-4 of the largest strain) moved US NCAP's shoulder-chest peak by 5 % and the HIII sled's
    lap belt by 1.9 %; the secant holds the sled's within 0.25 % of a run without implicit flow
    (1e-6 s steps). A group whose strain the flow alone moves (no stretch) takes the slope
    ahead still."""
    g0, g1 = group_of(el.point_kind, out, s, ns, p0, o_pts, os)
    webbing, rate = 0.0, 0.0
    for g in range(g0, g1 + 1):
        webbing += z[zs + 2 * g]
        rate += out[os + 4 * g + 3]
    largest = span_largest(z, zs, g0, g1)
    webbing = max(webbing, 1e-6)
    strain = out[os + 4 * s + 1]
    if strain < 0.0:
        return 0.0
    law, top = contact_law(el), max(largest, strain)
    step = FLOW_TIME * rate / webbing
    if abs(step) < STEP_FLOOR:
        slope = elastic_slope(law, e, strain, top)
    else:
        ahead = strain + step
        force = elastic_force(law, e, ahead, max(top, ahead), nonliteral(False)) \
            if ahead > 0.0 else 0.0
        slope = (force - out[os + 4 * s]) / step      # the group's tension (``belt``)
    return max(slope, 0.0) * (1.0 + strain) / webbing


@njit(**JIT_STAGE)
def path_turn(path, k):
    """The angle (rad) the belt's path turns through at point k (``path``: Data.belt_path,
    ``path_lengths``): between its straight piece reaching k (segment k - 1's) and the one
    leaving it (segment k's). At a wrap it holds the arcs on either side of the point (to the
    tangent points of its neighbours, or to the chord's middle of a run's arc between two wraps
    on one ellipsoid): the wrap's whole turn, which the chords A-P-B cut short (a quarter wrap
    of a ball 0.1 m in radius between pieces of 0.2 and 0.15 m: 76.3 deg between the chords,
    tests/restraints/test_belt_path.py); at a slip ring, the turn between those pieces. The
    capstan angle theta of exp(mu theta) (Euler-Eytelwein: ``flow_terms``)."""
    a0, a1, a2 = path[k - 1, 20], path[k - 1, 21], path[k - 1, 22]
    b0, b1, b2 = path[k, 17], path[k, 18], path[k, 19]
    n = _norm(a0, a1, a2) * _norm(b0, b1, b2)
    if n == 0.0:
        return 0.0
    return np.arccos(min(max((a0 * b0 + a1 * b1 + a2 * b2) / n, -1.0), 1.0))


@njit(**JIT_STAGE)
def flow_terms(drift, el, out, path, z, zs, os, s, ns, p0, o_pts, e, damping):
    """Point s's webbing flow (between segments s - 1 and s; segment law e: the belt's webbing;
    ``drift``: Data.belt_drift, the wraps' ``wrap_drift`` of this evaluation; ``path``:
    Data.belt_path): (q0, a, b, flows). q0 (m/s): the explicit flow, webbing moving from
    segment s into s - 1: beyond the capstan ratio exp(mu theta) of the two tensions (theta the
    turn of the belt's path at the point, ``path_turn``), the
    excess tension over ``damping``, towards the tighter side; within it none. a, b (1/s): how
    fast q0 falls with the webbing of the group (``group_of``) before the point and rises with
    that of the group after it: the tighter side's stiffness (``group_stiffness``), the
    slacker side's times the ratio, over the damping; all three times 1 - w at a point that
    merges its segments in part (``merge_weight`` w). flows: False at an anchor or a merged
    point (``merged``)."""
    k, j = p0 + s, o_pts + 3 * s
    la, lb = out[os + 4 * (s - 1) + 2], out[os + 4 * s + 2]
    if el.point_kind[k] == BELT_ANCHOR:
        return 0.0, 0.0, 0.0, False
    keep = 1.0 - merge_weight(el.point_kind, out, k, j, la, lb)
    if keep <= 0.0:
        return 0.0, 0.0, 0.0, False
    turn = path_turn(path, k) if la > 0.0 and lb > 0.0 else 0.0
    ratio = np.exp(el.point_friction[k] * turn)
    f_in, f_out = out[os + 4 * (s - 1)], out[os + 4 * s]
    ka = group_stiffness(el, out, z, zs, os, s - 1, ns, p0, o_pts, e) / damping
    kb = group_stiffness(el, out, z, zs, os, s, ns, p0, o_pts, e) / damping
    # a wrap point moving over the body along the belt passes the webbing lying there from one
    # segment to the other without slip: the stuck webbing's flow (``wrap_drift``); a
    # frictionless wrap holds no webbing to the body (its webbing slides with the body's motion)
    w = drift[k] if el.point_friction[k] > 0.0 else 0.0
    stuck = w / (1.0 + out[os + 4 * s + 1]) if w > 0.0 else w / (1.0 + out[os + 4 * (s - 1) + 1])
    if f_in > ratio * f_out:
        return keep * (stuck + (f_in - ratio * f_out) / damping), keep * ka, keep * ratio * kb, True
    if f_out > ratio * f_in:
        return keep * (stuck - (f_out - ratio * f_in) / damping), keep * ratio * ka, keep * kb, True
    return keep * stuck, 0.0, 0.0, True


@njit(**JIT_INLINE)
def _implicit_time(rate):
    """How long (s) the flow is implicit in a group's webbing whose explicit relaxation rate
    (1/s) is ``rate``: what lengthens its relaxation time 1 / rate to FLOW_TIME, none if it
    is longer."""
    return max(FLOW_TIME - 1.0 / rate, 0.0) if rate > 0.0 else 0.0


@njit(**JIT_STAGE)
def _stretch_rate(el, out, zdot, z, zs, os, s, ns, p0, o_pts):
    """The webbing rate that keeps the strain of segment s's group: its length rate / (1 + e)."""
    return group_rates(el.point_kind, out, zdot, z, zs, os, s, ns, p0, o_pts)[0] / (
        1.0 + out[os + 4 * s + 1])


@njit(**JIT_STAGE)
def flow_solve(drift, el, out, path, zdot, z, zs, os, ns, p0, o_pts, e, damping):
    """Add the webbing flow through the belt's slip rings and wraps (capstan friction) to the
    segments' webbing rates, linearly implicit (a Rosenbrock-Euler step) in the webbing of each
    group between two flowing points over T_g = FLOW_TIME - 1 / rate_g (``_implicit_time``;
    rate_g the group's explicit relaxation rate, the sum of its ends' a and b), so no group
    relaxes faster than FLOW_TIME and slower ones keep the explicit flow: the flows q solve
    (1 + T_(g-1) a_i + T_g b_i) q_i - T_(g-1) a_i q_(i-1) - T_g b_i q_(i+1)
        = q0_i + T_(g-1) a_i u_(g-1) - T_g b_i u_g
    (``flow_terms``; group g between points i and i + 1 gains q_(i+1) - q_i, and u_g, its
    length rate / (1 + e), keeps its strain: ``_stretch_rate``, from the points' material
    velocities and the wraps' motion over their surfaces along the belt), tridiagonal, by the Thomas
    algorithm. A group at the belt's end (an anchor, or the retractor's payout beyond it)
    keeps the explicit flow. Explicit everywhere (q = q0), a 40 mm segment on the GS1
    unloading slope (492 kN) between two wraps relaxed in 3-4 us at 100 N s/m, under the
    1e-5 s Euler step: its tension alternated every step between 0 and 1.5 kN (the side
    barrier's shoulder-chest segment, issue 11). The segments' webbing-rate slots (zeroed
    for each evaluation and not yet used) hold the elimination's coefficients: at point s,
    c' and d' in its segment s's two slots, then its flow in the second."""
    cp, dp, coupled, b_prev = 0.0, 0.0, False, 0.0
    ahead, ahead_terms = -1, (0.0, 0.0, 0.0, False)   # the next flowing point's terms, once
    for s in range(1, ns):
        if s == ahead:
            q0, a, b, flows = ahead_terms
        else:
            q0, a, b, flows = flow_terms(drift, el, out, path, z, zs, os, s, ns, p0, o_pts, e,
                                         damping)
        if not flows:
            coupled = coupled and el.point_kind[p0 + s] != BELT_ANCHOR
            continue
        ta = _implicit_time(a + b_prev) if coupled else 0.0
        n, tb = group_of(el.point_kind, out, s, ns, p0, o_pts, os)[1] + 1, 0.0
        if n < ns and el.point_kind[p0 + n] != BELT_ANCHOR:
            ahead, ahead_terms = n, flow_terms(drift, el, out, path, z, zs, os, n, ns, p0, o_pts,
                                               e, damping)
            tb = _implicit_time(b + ahead_terms[1])
        b_prev, a, b = b, ta * a, tb * b
        if a > 0.0:
            q0 += a * _stretch_rate(el, out, zdot, z, zs, os, s - 1, ns, p0, o_pts)
        if b > 0.0:
            q0 -= b * _stretch_rate(el, out, zdot, z, zs, os, s, ns, p0, o_pts)
        den = 1.0 + a + b + a * cp
        dp = (q0 + a * dp) / den
        cp = -b / den
        zdot[zs + 2 * s], zdot[zs + 2 * s + 1] = cp, dp
        coupled = True
    q = 0.0
    for s in range(ns - 1, 0, -1):
        if el.point_kind[p0 + s] == BELT_ANCHOR:
            q = 0.0
        elif not merged(el.point_kind, out, p0 + s, o_pts + 3 * s, out[os + 4 * (s - 1) + 2],
                        out[os + 4 * s + 2]):
            q = zdot[zs + 2 * s + 1] - zdot[zs + 2 * s] * q
            zdot[zs + 2 * s], zdot[zs + 2 * s + 1] = 0.0, q
    for s in range(1, ns):
        q = zdot[zs + 2 * s + 1]
        if q != 0.0:
            zdot[zs + 2 * s + 1] = 0.0
            add_webbing(el.point_kind, out, zdot, zs, os, s - 1, ns, p0, o_pts, q)
            add_webbing(el.point_kind, out, zdot, zs, os, s, ns, p0, o_pts, -q)


@njit(**JIT_STAGE)
def _piece_from(data, el, out, z, k, i, n, o_pts, p0):
    """Touching wrap k's path from its point on to point n, the belt coming from point i
    (``wrap_half``): round its ellipsoid in its plane (through the centre, or for a wrap held
    across the belt through i, n and its place, ``wrap_point``), in B0: (length, where it
    leaves the ellipsoid, moved as k's point is by its carrier's travel, and ``keep``), the
    length less the chord to n found on the undeformed ellipsoid (a carried wrap's arc does not
    move with the carrier: its chord does), times ``keep``: 1 where n lies outside k's
    ellipsoid by INSIDE_BAND of its scaled radius, falling to 0 as it comes to its surface and
    inside it (n on an overlapping body, which the belt reaches through the overlap: round k's
    section to n's nearest point the side barrier's shoulder wrap measured 39 mm more than its
    chord to the neck barrier inside the torso, 4.4 kN against 1.7 on main at 65 ms), as
    3 x^2 - 2 x^3 of x = (r - 1) / INSIDE_BAND, r n's scaled radius (its slope 0 at the band's
    ends: linear in x, side_barrier's belt length kinked there, its second difference 0.08 mm
    at 62.7 ms). The fourth value: that product's gradient in n's place from ``keep`` alone
    (B0, ``_fade_parts``). A held wrap's hook being handed over to the line
    (``wrap_chain.held_hook``, its point off the body) counts that weight of its hook's excess,
    measured from the hook's point and its ends as placed (from its own point, off the circle,
    the path stepped as that point passed the far end's tangent point: 8.8 mm in the rig of
    tests/restraints/test_belt_held_wraps.py), and its tangent piece's direction the same part
    (``keep`` times it); the weight's own gradient is left out of the force."""
    j, ji, jn = o_pts + 3 * (k - p0), o_pts + 3 * (i - p0), o_pts + 3 * (n - p0)
    c, E = ellipsoid_frame(data, el, k)
    x, y, w = undeformed_point(data, el, out, k, j)
    x0, y0, w0 = x, y, w
    D = (el.point_size[k, 0], el.point_size[k, 1], el.point_size[k, 2])
    bx, by, bz = out[jn], out[jn + 1], out[jn + 2]
    if same_ellipsoid(el, k, n):     # n on k's own surface: the arc between their places
        bx, by, bz = undeformed_point(data, el, out, n, jn)
    B = _to_local(c, E, bx, by, bz)
    o, r, hook = (0.0, 0.0, 0.0), 1.0, 1.0
    if el.point_across[k] > 0.0:
        jz = el.point_z[k]
        A = _to_local(c, E, out[ji], out[ji + 1], out[ji + 2])
        hook, Ph, ha, hb = call_if(el.held, held_hook, NO_HOOK, data, el, out, z, k, o_pts, p0)
        if hook < 1.0:    # a hook handed over to the line: from its hook's point, as placed
            x, y, w = Ph
            if not chained(el, i) or not same_ellipsoid(el, i, k):
                A = _to_local(c, E, ha[0], ha[1], ha[2])
            if not same_ellipsoid(el, k, n):
                bx, by, bz = hb
                B = _to_local(c, E, bx, by, bz)
        m, h, r = _wrap_plane((A[0] / D[0], A[1] / D[1], A[2] / D[2]),
                              (B[0] / D[0], B[1] / D[1], B[2] / D[2]),
                              (z[jz], z[jz + 1], z[jz + 2]))
        if r > 0.0:
            o = (h * m[0], h * m[1], h * m[2])
        else:
            r = 1.0
    length, t = wrap_half(D, _to_local(c, E, x, y, w), B, o, r)
    tx, ty, tz = _to_base(c, E, t[0], t[1], t[2])
    keep, g = 1.0, (0.0, 0.0, 0.0)
    excess = hook * (length - _norm(bx - x, by - y, bz - w))
    if not same_ellipsoid(el, k, n):
        sr = _norm(B[0] / D[0], B[1] / D[1], B[2] / D[2])
        keep = min(max((sr - 1.0) / INSIDE_BAND, 0.0), 1.0)
        if 0.0 < keep < 1.0:    # the fade's gradient in n's place: excess d(keep)/d(P_n)
            f = excess * 6.0 * keep * (1.0 - keep) / (INSIDE_BAND * sr)
            g = _to_base((0.0, 0.0, 0.0), E, f * B[0] / (D[0] * D[0]), f * B[1] / (D[1] * D[1]),
                         f * B[2] / (D[2] * D[2]))
            keep = keep * keep * (3.0 - 2.0 * keep)   # smooth at the band's ends: no kink
    return keep * excess, (tx + out[j] - x0, ty + out[j + 1] - y0, tz + out[j + 2] - w0), \
        keep * hook, g


@njit(**JIT_INLINE)
def _toward(x, y, fallback):
    """Unit vector from x to y, or ``fallback`` where they lie within SAME_POINT."""
    d0, d1, d2 = y[0] - x[0], y[1] - x[1], y[2] - x[2]
    n = _norm(d0, d1, d2)
    return (d0 / n, d1 / n, d2 / n) if n >= SAME_POINT else fallback


@njit(**JIT_INLINE)
def _faded(chord, piece, keep):
    """The direction of a tangent piece whose arc is faded by ``keep`` (``_piece_from``): the
    chord's, moved by keep towards the piece's."""
    return (chord[0] + keep * (piece[0] - chord[0]), chord[1] + keep * (piece[1] - chord[1]),
            chord[2] + keep * (piece[2] - chord[2]))


@njit(**JIT_STAGE)
def path_lengths(data, el, out, path, z, p0, p1, o_pts, os):
    """Each segment's length along the belt's path, into its output, and the direction its
    tension acts in (``path``, by its first point; zero where it has none: ``_beside``).
    Between two points the belt reaches straight from each other (a and b: ``touching_ends``,
    the wraps between them lying on their chord, ``wrap_chain.lifted``) the path is
    h_a + h_b - |P_a P_b|: h of a touching wrap the path from its point (the middle of its
    arc) round its ellipsoid to the other's tangent point and straight on to the other
    (``_piece_from``; h_b not counted again where both wrap one ellipsoid: the arc between
    their places on it, its tension along the chord), of any other point the chord. So the
    belt's summed length is its path's (tangent pieces and arcs) where its wraps lie at their
    arcs' middles between tangent points, and continuous as a wrap starts or stops touching; before, chords from point to point, it stepped as a wrap started to touch
    (GS1 with a barrier on the upper arm: 5.7 mm at 81.6 ms; scenarios/validation/HISTORY.md,
    firsttouch). Its rate is d . (v_b - v_a) for d = u1 + u2 - u3 (units along the straight
    pieces from a's tangent point to P_b and from P_a to b's, and the chord), so the tension
    acts as T d at P_a and -T d at P_b: the force pairs of those three lengths, with each
    tangent point's force moved to its wrap's point on the same body (where the two balance
    about the centre of a circular section, exact; the arcs move with the body). The wraps
    between share a and b's d (no force on them: they do not touch); each segment between
    counts its chord, the first also h_a less the chord a-b, the last h_b less it (a wrap's
    part stays next to it as a wrap between starts to touch: shared in proportion to the
    chords, a barrier's segment from its anchor stepped 9.9 mm as it came onto its sphere,
    tests/restraints/test_belt_barrier.py)."""
    k = p0
    while k < p1 - 1:
        n = k + 1
        while n < p1 - 1 and lifted(data, el, out, n, o_pts, p0, True):
            n += 1
        ja, jb = o_pts + 3 * (k - p0), o_pts + 3 * (n - p0)
        pa = (out[ja], out[ja + 1], out[ja + 2])
        pb = (out[jb], out[jb + 1], out[jb + 2])
        chord = _norm(pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2])
        ea, eb, d = 0.0, 0.0, (0.0, 0.0, 0.0)
        u1 = u2 = u3 = ga = gb = d
        if chord >= SAME_POINT:
            u3 = ((pb[0] - pa[0]) / chord, (pb[1] - pa[1]) / chord, (pb[2] - pa[2]) / chord)
            u1, u2 = u3, u3
            if el.point_kind[k] == BELT_WRAP:
                i = touching_ends(data, el, out, k, 1, o_pts, p0, True)[0]
                ea, ta, keep, ga = _piece_from(data, el, out, z, k, i, n, o_pts, p0)
                if not same_ellipsoid(el, k, n):   # else along the chord, on one body
                    u1 = _faded(u3, _toward(ta, pb, u3), keep)
            if el.point_kind[n] == BELT_WRAP and not same_ellipsoid(el, k, n):
                m = touching_ends(data, el, out, n, 1, o_pts, p0, True)[1]
                eb, tb, keep, gb = _piece_from(data, el, out, z, n, m, k, o_pts, p0)
                u2 = _faded(u3, _toward(pa, tb, u3), keep)
            d = (u1[0] + u2[0] - u3[0], u1[1] + u2[1] - u3[1], u1[2] + u2[2] - u3[2])
        # the path's straight piece as it leaves k and as it reaches n (``path_turn``): from a
        # touching wrap's tangent point (u1 at k, u2 at n), else towards the other's (u2 from
        # k, u1 into n); between two wraps on one ellipsoid the chord (u1 = u2 = u3 there);
        # the lifted points between lie on the chord, which neither turns at
        leave = u1 if el.point_kind[k] == BELT_WRAP else u2
        arrive = u2 if el.point_kind[n] == BELT_WRAP else u1
        for g in range(k, n):
            jg = o_pts + 3 * (g - p0)
            length = _norm(out[jg + 3] - out[jg], out[jg + 4] - out[jg + 1],
                           out[jg + 5] - out[jg + 2])
            if g == k:
                length += ea
            if g == n - 1:
                length += eb
            out[os + 4 * (g - p0) + 2] = length if length >= SAME_POINT else 0.0
            path[g, 0], path[g, 1], path[g, 2] = d
            for c in range(3, 17):
                path[g, c] = 0.0
            path[g, 17], path[g, 18], path[g, 19] = leave if g == k else u3
            path[g, 20], path[g, 21], path[g, 22] = arrive if g == n - 1 else u3
        # a carried end: the parts of its tangent piece off the chord (u1 - u3 at a,
        # u2 - u3 at b) act on its geometry's part, whose motion moves them (the wrap found on
        # the undeformed ellipsoid), the rest shared with its carrier (``_carried_parts``)
        if d[0] != 0.0 or d[1] != 0.0 or d[2] != 0.0:
            if el.point_carrier[k] != el.point_link[k]:
                path[k, 3], path[k, 4], path[k, 5] = u1[0] - u3[0], u1[1] - u3[1], u1[2] - u3[2]
            if el.point_carrier[n] != el.point_link[n]:
                path[n - 1, 6], path[n - 1, 7], path[n - 1, 8] = \
                    u2[0] - u3[0], u2[1] - u3[1], u2[2] - u3[2]
        # a fading arc (``_piece_from``'s keep): its excess's change with the far end's place
        # in the wrap's ellipsoid, between that end's point and the wrap's body (``_fade_parts``)
        if ga[0] != 0.0 or ga[1] != 0.0 or ga[2] != 0.0:
            path[k, 9], path[k, 10], path[k, 11], path[k, 15] = ga[0], ga[1], ga[2], n
        if gb[0] != 0.0 or gb[1] != 0.0 or gb[2] != 0.0:
            path[n - 1, 12], path[n - 1, 13], path[n - 1, 14], path[n - 1, 16] = \
                gb[0], gb[1], gb[2], k
        k = n


@njit(**JIT_STAGE)
def _moved_to(data, el, out, m, j, link, fx, fy, fz):
    """The force f (B0) moved from belt point m (its place at out[j]) to ``link`` at that
    place: -f on m's carrier and geometry in their shares (``add_point_share``), f on link
    (``_carried_parts``, ``_fade_parts``)."""
    add_point_share(data, el, m, out[j], out[j + 1], out[j + 2], -fx, -fy, -fz)
    rx, ry, rz = point_in_link(data, link, out[j], out[j + 1], out[j + 2])
    add_point_force(data, link, rx, ry, rz, fx, fy, fz)


@njit(**JIT_STAGE)
def _carried_parts(data, el, out, path, s, p0, o_pts, tension, va, vb, apply):
    """Segment s's carried ends (``path_lengths``: ca at its first point a, cb at its last b):
    the length rate they add, -ca . (w_a - v_a) + cb . (w_b - v_b) (w the geometry's part's
    material at the point, v the point's: ``point_velocity``), and with ``apply`` the forces
    T ca at a and -T cb at b moved from the point (carrier and geometry in their shares) to
    the geometry's part; returns (rate, power)."""
    k = p0 + s
    rate, power = 0.0, 0.0
    for end in range(2):
        c0, c1, c2 = path[k, 3 + 3 * end], path[k, 4 + 3 * end], path[k, 5 + 3 * end]
        if c0 == 0.0 and c1 == 0.0 and c2 == 0.0:
            continue
        m, v, sign = (k, va, -1.0) if end == 0 else (k + 1, vb, 1.0)
        j = o_pts + 3 * (m - p0)
        w = link_velocity_at(data, el.point_link[m], out[j], out[j + 1], out[j + 2])
        part = c0 * (w[0] - v[0]) + c1 * (w[1] - v[1]) + c2 * (w[2] - v[2])
        rate += sign * part
        if apply:
            f = -sign * tension
            _moved_to(data, el, out, m, j, el.point_link[m], f * c0, f * c1, f * c2)
            power += f * part
    return rate, power


@njit(**JIT_STAGE)
def _fade_parts(data, el, out, path, s, p0, o_pts, tension, apply):
    """Segment s's fading arcs (``path_lengths``: the excess of its first point's wrap faded by
    the place of the run's far end m in that wrap's ellipsoid, g at columns 9-11, m at 15; its
    last point's by the run's first, 12-14, 16): the length rate g . (v_m - w) (w the wrap's
    body's material at m; the fade is that body's frame's alone), and with ``apply`` the forces
    -T g at m (``add_point_share``) and T g on the wrap's body there; returns (rate, power)."""
    k = p0 + s
    rate, power = 0.0, 0.0
    for end in range(2):
        g0, g1, g2 = path[k, 9 + 3 * end], path[k, 10 + 3 * end], path[k, 11 + 3 * end]
        if g0 == 0.0 and g1 == 0.0 and g2 == 0.0:
            continue
        m, link = int(path[k, 15 + end]), el.point_link[k + end]
        j = o_pts + 3 * (m - p0)
        v = point_velocity(data, el, out, m, p0, o_pts)
        w = link_velocity_at(data, link, out[j], out[j + 1], out[j + 2])
        part = g0 * (v[0] - w[0]) + g1 * (v[1] - w[1]) + g2 * (v[2] - w[2])
        rate += part
        if apply:
            f = tension
            _moved_to(data, el, out, m, j, link, f * g0, f * g1, f * g2)
            if el.point_carrier[m] >= 0:
                power -= f * (g0 * v[0] + g1 * v[1] + g2 * v[2])
            if link >= 0:
                power += f * (g0 * w[0] + g1 * w[1] + g2 * w[2])
    return rate, power


@njit(**JIT_STAGE)
def _beside(out, os, o_pts, s, ns):
    """Output slots of the ends of the segment nearest segment s of no length (SAME_POINT; the
    first after it, else before it, of the belt's ns) that has one: the direction s's tension
    acts and its length changes in (a segment of no length is merged with its neighbours,
    ``merged``, so that one is in its group). A wrap point that does not touch lies on the
    straight piece of its neighbours (``wrap_chain``), possibly at its end, on a wrap point that
    does touch: there, to rounding, its segment's direction was noise, carrying the full
    tension (GS1 with a barrier on the upper arm: the belt pulled the arm, and its shoulder
    wrap with no push into the shoulder)."""
    for g in range(s + 1, ns):
        if out[os + 4 * g + 2] > 0.0:
            return o_pts + 3 * g, o_pts + 3 * g + 3
    for g in range(s - 1, -1, -1):
        if out[os + 4 * g + 2] > 0.0:
            return o_pts + 3 * g, o_pts + 3 * g + 3
    return o_pts + 3 * s, o_pts + 3 * s + 3


@separate
def belt(el, points, out, zdot, drift, path, t, z, b):
    """One belt's forces, outputs (into ``out``, Data.outputs), state rates (``zdot``); returns
    the power of its forces on the tree (``points``: ``forces.points.point_data``; ``drift``:
    Data.belt_drift, each wrap's ``wrap_drift``, found once for the length rates and the flow;
    ``path``: Data.belt_path, each segment's direction, ``path_lengths``)."""
    p0, p1 = el.point_start[b], el.point_start[b + 1]
    n = p1 - p0
    ns = n - 1
    s0 = p0 - b                      # the belt's first segment
    zs, os = el.z_start[b], el.out_start[b]
    o_pts = os + 4 * ns
    o_belt = o_pts + 3 * n
    zb = zs + 2 * ns                 # payout, free payout, limiter payout, lock timer
    place_points(points, el, out, p0, p1, o_pts, z)

    # segments: lengths and rates, then tensions and forces on the bodies; segments joined at a
    # merged wrap point (``merged``) act as one of their summed length and webbing, at one
    # tension, so a wrap's lift-off or two wraps falling together neither creates nor loses
    # webbing, and merged segments share their webbing in proportion to their lengths (time
    # constant SHARE_TIME), so each has the group's strain when the wrap separates them again
    path_lengths(points, el, out, path, z, p0, p1, o_pts, os)
    prev = point_velocity(points, el, out, p0, p0, o_pts)
    for s in range(ns):
        vel = point_velocity(points, el, out, p0 + s + 1, p0, o_pts)
        ux, uy, uz = path[p0 + s, 0], path[p0 + s, 1], path[p0 + s, 2]
        out[os + 4 * s + 3] = ux * (vel[0] - prev[0]) + uy * (vel[1] - prev[1]) \
            + uz * (vel[2] - prev[2]) \
            + _carried_parts(points, el, out, path, s, p0, o_pts, 0.0, prev, vel, False)[0] \
            + _fade_parts(points, el, out, path, s, p0, o_pts, 0.0, False)[0]
        prev = vel
    for s in range(ns):   # a segment with no direction: its rate along the piece beside it
        if path[p0 + s, 0] == 0.0 and path[p0 + s, 1] == 0.0 and path[p0 + s, 2] == 0.0:
            ja, jb = _beside(out, os, o_pts, s, ns)
            ux, uy, uz = _unit(out[jb] - out[ja], out[jb + 1] - out[ja + 1],
                               out[jb + 2] - out[ja + 2])
            va = point_velocity(points, el, out, p0 + s, p0, o_pts)
            vb = point_velocity(points, el, out, p0 + s + 1, p0, o_pts)
            out[os + 4 * s + 3] = ux * (vb[0] - va[0]) + uy * (vb[1] - va[1]) + uz * (vb[2] - va[2])
    power = 0.0
    g0, g1 = -1, -1
    tension, strain = 0.0, 0.0
    w = 0.0           # the merge weight of the point after the last group: the next one's start
    partial = False   # whether a point merges its segments in part (each such ends a group)
    prev = point_velocity(points, el, out, p0, p0, o_pts)
    for s in range(ns):
        k = p0 + s
        if s > g1:
            g0, g1 = group_of(el.point_kind, out, s, ns, p0, o_pts, os)
            strain, own = span_tension(points, el, out, z, zs, os, g0, g1, p0, o_pts, s0)
            tension = own
            # at an end point that merges its segments in part (``merge_weight`` w), the
            # tension blended by w towards the one of the group the point would merge it into:
            # continuous where it merges them
            if g0 > 0 and 0.0 < w < 1.0:   # w: its start's, found as the last group's end
                a = group_of(el.point_kind, out, g0 - 1, ns, p0, o_pts, os)[0]
                tension += w * (span_tension(points, el, out, z, zs, os, a, g1, p0, o_pts,
                                             s0)[1] - own)
            if g1 < ns - 1:
                w = merge_weight(el.point_kind, out, p0 + g1 + 1, o_pts + 3 * (g1 + 1),
                                 out[os + 4 * g1 + 2], out[os + 4 * (g1 + 1) + 2])
                if 0.0 < w < 1.0:
                    partial = True
                    c = group_of(el.point_kind, out, g1 + 1, ns, p0, o_pts, os)[1]
                    tension += w * (span_tension(points, el, out, z, zs, os, g0, c, p0, o_pts,
                                                 s0)[1] - own)
        vel = point_velocity(points, el, out, k + 1, p0, o_pts)
        ja, jb = o_pts + 3 * s, o_pts + 3 * s + 3
        j = os + 4 * s
        ux, uy, uz = path[k, 0], path[k, 1], path[k, 2]
        if tension > 0.0 and ux == 0.0 and uy == 0.0 and uz == 0.0:
            ja, jb = _beside(out, os, o_pts, s, ns)   # along its group's straight piece next to it
            ux, uy, uz = _unit(out[jb] - out[ja], out[jb + 1] - out[ja + 1],
                               out[jb + 2] - out[ja + 2])
        if tension > 0.0 and (ux != 0.0 or uy != 0.0 or uz != 0.0):
            fx, fy, fz = tension * ux, tension * uy, tension * uz
            ja, jb = o_pts + 3 * s, o_pts + 3 * s + 3
            add_point_share(points, el, k, out[ja], out[ja + 1], out[ja + 2], fx, fy, fz)
            add_point_share(points, el, k + 1, out[jb], out[jb + 1], out[jb + 2], -fx, -fy, -fz)
            pw = 0.0   # the points' power (as forces.points.add_force_pair: none on B0)
            if el.point_carrier[k] >= 0:
                pw += fx * prev[0] + fy * prev[1] + fz * prev[2]
            if el.point_carrier[k + 1] >= 0:
                pw -= fx * vel[0] + fy * vel[1] + fz * vel[2]
            power += pw + _carried_parts(points, el, out, path, s, p0, o_pts, tension, prev, vel,
                                         True)[1] \
                + _fade_parts(points, el, out, path, s, p0, o_pts, tension, True)[1]
        out[j], out[j + 1] = tension, strain
        prev = vel

    # wrap points' places: held on the body by friction across the belt, or following the point
    for s in range(1, ns):
        k = p0 + s
        w = 0.0
        if el.point_kind[k] == BELT_WRAP:
            wrap_slide(points, el, out, zdot, z, k, p0, o_pts, out[os + 4 * (s - 1)],
                       out[os + 4 * s], el.slip_damping[b])
            # the point's own motion over the body lengthens one segment, shortens the other
            # (kept for the webbing it carries, ``flow_terms``)
            w = wrap_drift(points, el, out, zdot, z, k, p0, o_pts)
            out[os + 4 * (s - 1) + 3] += w
            out[os + 4 * s + 3] -= w
        drift[k] = w

    # webbing flow through slip rings and over wraps (capstan friction), then the merged
    # segments' sharing of their webbing
    flow_solve(drift, el, out, path, zdot, z, zs, os, ns, p0, o_pts, s0, el.slip_damping[b])
    g1 = -1
    for s in range(ns):
        if s > g1:
            g0, g1 = group_of(el.point_kind, out, s, ns, p0, o_pts, os)
            if g1 > g0:
                # each in proportion to its length as its strain would count it, to its ends'
                # places (``wrap_lag``; as ``share_across``, so the strains meet where it
                # parts); each point's lag found once a pass, carried to the next segment
                length, webbing, share = 0.0, 0.0, SHARE_TIME
                lag = wrap_lag(points, el, out, z, p0 + g0, p0, o_pts)
                for g in range(g0, g1 + 1):
                    after = wrap_lag(points, el, out, z, p0 + g + 1, p0, o_pts)
                    length += max(out[os + 4 * g + 2] + lag - after, 0.0)
                    webbing += z[zs + 2 * g]
                    lag = after
                    if g > g0 and _off_barrier(points, el, out, p0 + g, p0, o_pts):
                        share = BARRIER_SHARE_TIME
                length = max(length, 1e-9)
                lag = wrap_lag(points, el, out, z, p0 + g0, p0, o_pts)
                for g in range(g0, g1 + 1):
                    after = wrap_lag(points, el, out, z, p0 + g + 1, p0, o_pts)
                    counted = max(out[os + 4 * g + 2] + lag - after, 0.0)
                    zdot[zs + 2 * g] += (counted * webbing / length - z[zs + 2 * g]) / share
                    lag = after
    # a wrap point that merges its segments in part (``merge_weight`` between 0 and 1): the
    # groups on its two sides share their webbing at its weight's share of that rate, so their
    # strains meet by the time it merges them
    for s in range(1, ns if partial else 1):
        w = merge_weight(el.point_kind, out, p0 + s, o_pts + 3 * s, out[os + 4 * (s - 1) + 2],
                         out[os + 4 * s + 2])
        if 0.0 < w < 1.0:
            share_across(el.point_kind, out, zdot, z, zs, os, s, ns, p0, o_pts, w)

    # retractor and pretensioner at the first point
    locked = 0.0
    if el.retractor[b]:
        f0 = out[os]
        payout, free, limited, timer = z[zb], z[zb + 1], z[zb + 2], z[zb + 3]
        fired = t >= el.fire_time[b]
        accel = np.sqrt(points.base[9] ** 2 + points.base[10] ** 2)
        sensed = (timer > 0.0 or accel >= el.lock_acceleration[b]
                  or (f0 - el.rewind_force[b]) / el.spool_damping[b] >= el.lock_speed[b])
        if sensed:
            zdot[zb + 3] = 1.0
        is_locked = fired or (sensed and timer >= el.lock_delay[b])
        spool = el.rewind_force[b]
        yielding = False
        if is_locked:
            locked = 1.0
            beyond = max(payout - free - limited, 0.0)
            if el.spool_len[b] > 0:     # the spool in series with the rig's compliance
                spool += table_load(el.pt_tables, el.spool_start[b], el.spool_len[b], beyond)
            else:
                spool += el.spool_stiffness[b] * beyond
            if spool >= el.load_limit[b]:
                spool, yielding = el.load_limit[b], True
        spring = spool              # the spool's own force, without the pretensioner's
        pt_force, pt_speed = pretensioner_at(el, b, t, payout)
        spool = max(spool, pt_force)
        speed = max((f0 - spool) / el.spool_damping[b], -pt_speed)
        if yielding and f0 >= spool:
            # the limiter pays out what keeps the first segment's (group's) strain: its stretch
            # rate less the webbing flowing into it at the next point (the damping only corrects)
            rate, inflow, _ = group_rates(el.point_kind, out, zdot, z, zs, os, nonliteral(0),
                                          ns, p0, o_pts)
            speed += max(rate / (1.0 + out[os + 1]) - inflow, 0.0)
        zdot[zb] = speed
        add_webbing(el.point_kind, out, zdot, zs, os, nonliteral(0), ns, p0, o_pts, speed)
        if is_locked and pt_force > spring and not yielding:
            # the pretensioner, not the spring, holds the webbing: the hold winds in with the
            # webbing and beyond it, at the spool's damping, until the spring carries the
            # webbing's tension (at most the pretensioner's force), so at its end the spool
            # keeps the tension it stalled at
            zdot[zb + 1] = min(speed, 0.0) - max(min(pt_force, f0) - spring, 0.0) \
                / el.spool_damping[b]
        elif not is_locked or (speed < 0.0 and payout <= free):
            zdot[zb + 1] = speed    # the locked spool's ratchet: winding in moves its hold
        elif yielding and speed > 0.0:
            zdot[zb + 2] = speed
    out[o_belt] = z[zb]
    out[o_belt + 1] = max(-z[zb], 0.0) if el.pretensioner[b] != PRETENSIONER_NONE else 0.0
    out[o_belt + 2] = locked

    # the largest strain reached follows the (group's) strain while it grows (contact history
    # rule), closing the gap its rate leaves (a wrap's length rate is not the exact derivative)
    strain_rate = 0.0
    for s in range(ns):
        strain = out[os + 4 * s + 1]
        if s == 0 or not merged(el.point_kind, out, p0 + s, o_pts + 3 * s, out[os + 4 * s - 2],
                                out[os + 4 * s + 2]):
            rate, inflow, webbing = group_rates(el.point_kind, out, zdot, z, zs, os, s, ns, p0,
                                                o_pts)
            strain_rate = (rate - (1.0 + strain) * inflow) / webbing
        zdot[zs + 2 * s + 1] = largest_rate(strain, strain_rate, z[zs + 2 * s + 1],
                                            LARGEST_FOLLOW)
    # at a point that merges its segments in part, the largest strains on its two sides meet
    # too, at the one they would have merged (``span_largest``: webbing-weighted, so the
    # meeting keeps the sum of webbing times largest strain): each towards it at w / SHARE_TIME
    for s in range(1, ns if partial else 1):
        w = merge_weight(el.point_kind, out, p0 + s, o_pts + 3 * s, out[os + 4 * (s - 1) + 2],
                         out[os + 4 * s + 2])
        if 0.0 < w < 1.0:
            g0 = group_of(el.point_kind, out, s - 1, ns, p0, o_pts, os)[0]
            g1 = group_of(el.point_kind, out, s, ns, p0, o_pts, os)[1]
            mean = span_largest(z, zs, g0, g1)
            for g in range(g0, g1 + 1):
                zdot[zs + 2 * g + 1] += w * (mean - z[zs + 2 * g + 1]) / SHARE_TIME
    return power


@separate
def belts(bundle, data, t, q, v, z):
    el = bundle.belts
    points = point_data(data)   # what the point routines read
    power = 0.0
    for b in range(el.retractor.shape[0]):
        power += belt(el, points, data.outputs, data.zdot, data.belt_drift, data.belt_path, t, z,
                      b)
    data.power[POWER_BELTS] = power
