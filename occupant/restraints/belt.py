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

Modules: this one the producer (``belts``, ``belt``: the steps above in order, the retractor and
``pretensioner_at``); ``belt_points`` placing the points (step 1: ``place_points``, with
``wrap_chain`` and ``wrap_geometry``) and a point's velocity and forces on its bodies;
``belt_wraps`` the wraps' states (``wrap_slide``, ``wrap_lag``, ``wrap_drift``); ``belt_path``
the segments' lengths along the path and their directions (``path_lengths``) and the path's turn
(``path_turn``); ``belt_flow`` merged segments and the webbing's flow with capstan friction
(steps 2 and 3: ``merge_weight``, ``span_tension``, ``flow_solve``).
"""
import numpy as np
from numba import njit

from occupant.contact.compliant import largest_rate
from occupant.forces.joint_resistance import table_load
from occupant.jit import JIT_STAGE, nonliteral, separate
from occupant.model.bundle import (
    BELT_WRAP, POWER_BELTS, PRETENSIONER_FORCE, PRETENSIONER_NONE, PRETENSIONER_PULL_IN,
)
from occupant.restraints.belt_flow import (
    FLOW_TIME, SHARE_TIME, add_webbing, flow_solve, group_of, group_rates, merge_weight, merged,
    share_across, span_largest, span_tension,
)
from occupant.restraints.belt_path import (
    _beside, _carried_parts, _fade_parts, _tangent_parts, path_lengths,
)
from occupant.restraints.belt_points import (
    add_point_share, belt_point_data, place_points, point_velocity,
)
from occupant.restraints.belt_wraps import _off_barrier, wrap_drift, wrap_lag, wrap_slide
from occupant.restraints.wrap_chain import BETWEEN
from occupant.restraints.wrap_geometry import _unit

# A group merged across a barrier between two wraps off its ellipsoid (``BETWEEN``, the human's
# arm on the shoulder-chest piece; its point slides along the piece as the arm moves) also moves
# its webbing with its segments' length rates (the split's own rate, summing to none over the
# group: webbing kept), so the split follows the lengths' split and does not trail it by
# BARRIER_SHARE_TIME times its rate: trailing, the 50M human's belted sled stepped the split at
# the first touch, shoulder-arm 2941 -> 2027 N and arm-chest 2941 -> 4521 N for one sample at
# 79.3 ms (scenarios/HISTORY.md, barrierkey). Not applied to the other barriers (the dummies'
# runs kept as they were).
BARRIER_SHARE_TIME = 1.0e-4  # s [E]: SHARE_TIME of a group merged across a barrier wrap off
                         # its ellipsoid, always merged (``_off_barrier``): explicit steps up to
                         # 2e-4 s (at SHARE_TIME US NCAP's settling at 5e-5 s diverged,
                         # scenarios/README.md, neckbarrier2; belts now settle at EXPLICIT_STEP)
LARGEST_FOLLOW = 2.0e-5  # s [E]: time constant with which a segment's largest strain closes the
                         # gap to its strain while loading (``compliant.largest_rate``): the
                         # length rate it integrates takes a wrap point's motion over the body
                         # from its place, WRAP_FOLLOW behind the point (US NCAP: 0.1-0.9 m/s
                         # off dL/dt), and the state fell up to 1.9e-3 behind the strain;
                         # h / 2e-5 = 0.5 under the scenarios' 1e-5 s Euler steps (monotone)
EXPLICIT_STEP = min(FLOW_TIME, SHARE_TIME, LARGEST_FOLLOW)
                         # s: the longest step at which the webbing's flow, sharing and largest
                         # strain, explicit with those time constants, relax monotonely: Euler on
                         # x' = -x / tau gives x_(n+1) = (1 - h / tau) x_n, at h / tau = 1 at rest
                         # in one step, beyond it overshooting every step, from 2 no longer
                         # decaying [D]. The settling keeps to it (``scenario.settle``). From
                         # GS1's posture (tests/scenario/test_settle.py) a segment's tension
                         # changed at most 1.4 N from one step to the next at 1e-5 s, 4.2 N at
                         # 2e-5 s (the first step: at rest in one), 79 N at 2.5e-5 s (the lap belt
                         # 100 -> 21 N in its first step, the shoulder-chest segment still
                         # flipping 7.5 <-> 10.4 N at 10 ms: some group relaxes a little faster
                         # than these time constants, so there is little margin beyond 2e-5 s),
                         # 281 N at 5e-5 s (h / tau = 2.5, ``scenario.settle.SETTLE_DT``), where
                         # GS1's short shoulder-chest segment and its lap belt's wraps flipped
                         # every step (0 <-> 37 N, 0 <-> 430 N: a period-2 cycle of the flow,
                         # hidden in a record sampled every second step; scenarios/validation/
                         # HISTORY.md Stop 46, gs1settle). Half of this (h / tau = 0.5, the run's
                         # 1e-5 s) from gs1settle to beltstep: settled at 2e-5 s the shipped
                         # scenarios rest within 0.011 mm and 2e-4 of where 1e-5 s put them (the
                         # belted sled, not yet at rest, 0.21 mm), in half the steps

# The helpers of ``belt`` and ``place_on_surfaces`` are compiled once each as stages (JIT_STAGE),
# not inlined (JIT_INLINE): inlined, ``merged`` alone was copied 14 times into ``belt`` (through
# ``group_of``, ``add_webbing``, ``group_rates``), and the belts' first compilation took 26 s CPU
# (numba's type inference and SSA passes grow faster than the function); as stages 9 s, the
# step's speed unchanged. A constant argument goes through ``jit.nonliteral``, else the stage
# is compiled once more for it. The large ones are ``jit.separate`` (called by name, their code not
# compiled again into each caller); the small ones stay linked, where LLVM inlines them.


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


@separate
def belt(el, points, out, zdot, drift, flow, path, t, z, b):
    """One belt's forces, outputs (into ``out``, Data.outputs), state rates (``zdot``); returns
    the power of its forces on the tree (``points``: ``belt_points.belt_point_data``; ``drift``:
    Data.belt_drift, each wrap's ``wrap_drift``, found once for the length rates and the flow;
    ``flow``: Data.belt_flow, the flow's terms, ``flow_solve``;
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
            + _fade_parts(points, el, out, path, s, p0, o_pts, 0.0, False)[0] \
            + _tangent_parts(points, el, path, s, p0, 0.0, False)[0]
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
                + _fade_parts(points, el, out, path, s, p0, o_pts, tension, True)[1] \
                + _tangent_parts(points, el, path, s, p0, tension, True)[1]
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
    flow_solve(drift, flow, el, out, path, zdot, z, zs, os, ns, p0, o_pts, s0,
               el.slip_damping[b])
    g1 = -1
    for s in range(ns):
        if s > g1:
            g0, g1 = group_of(el.point_kind, out, s, ns, p0, o_pts, os)
            if g1 > g0:
                # each in proportion to its length as its strain would count it, to its ends'
                # places (``wrap_lag``; as ``share_across``, so the strains meet where it
                # parts); each point's lag found once a pass, carried to the next segment
                length, webbing, share = 0.0, 0.0, SHARE_TIME
                rate, between = 0.0, False
                lag = wrap_lag(points, el, out, z, p0 + g0, p0, o_pts)
                for g in range(g0, g1 + 1):
                    after = wrap_lag(points, el, out, z, p0 + g + 1, p0, o_pts)
                    length += max(out[os + 4 * g + 2] + lag - after, 0.0)
                    webbing += z[zs + 2 * g]
                    rate += out[os + 4 * g + 3]
                    lag = after
                    if g > g0 and _off_barrier(points, el, out, p0 + g, p0, o_pts):
                        share = BARRIER_SHARE_TIME
                        between = between or el.point_barrier[p0 + g] == BETWEEN
                length = max(length, 1e-9)
                lag = wrap_lag(points, el, out, z, p0 + g0, p0, o_pts)
                for g in range(g0, g1 + 1):
                    after = wrap_lag(points, el, out, z, p0 + g + 1, p0, o_pts)
                    counted = max(out[os + 4 * g + 2] + lag - after, 0.0)
                    zdot[zs + 2 * g] += (counted * webbing / length - z[zs + 2 * g]) / share
                    if between:
                        zdot[zs + 2 * g] += webbing / length * (out[os + 4 * g + 3]
                                                                - counted * rate / length)
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
    points = belt_point_data(data)   # what the point and geometry routines read
    power = 0.0
    for b in range(el.retractor.shape[0]):
        power += belt(el, points, data.outputs, data.zdot, data.belt_drift, data.belt_flow,
                      data.belt_path, t, z, b)
    data.power[POWER_BELTS] = power
