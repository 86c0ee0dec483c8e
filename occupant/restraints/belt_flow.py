"""A seat belt's webbing (``occupant.restraints.belt``): segments merged into groups at wrap
points without contact or next to a short segment (``merge_weight``, ``group_of``), their
tension on the webbing's law (``span_tension``) and shared webbing (``share_across``), and the
webbing's flow through slip rings and over wraps with capstan friction (``flow_terms``),
linearly implicit in a short group's webbing (``flow_solve``).
"""
import numpy as np
from numba import njit

from occupant.contact.compliant import contact_law, elastic_force, elastic_slope
from occupant.jit import JIT_INLINE, JIT_STAGE, nonliteral
from occupant.model.bundle import BELT_ANCHOR, BELT_FLOW_TERMS, BELT_WRAP
from occupant.restraints.belt_path import path_turn
from occupant.restraints.belt_wraps import wrap_lag
from occupant.restraints.wrap_geometry import _norm

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
SHARE_TIME = 2.0e-5      # s [E]: time constant with which merged segments share their webbing
                         # in proportion to their lengths (explicit steps up to 2e-5 s; the
                         # scenarios' Euler steps are 1e-5 s)
STEP_FLOOR = 1.0e-9      # strain below which ``group_stiffness`` takes the slope ahead, not the
                         # secant (two tensions' difference over a vanishing step: rounding)
FLOW_TIME = 2.0e-5       # s [E]: shortest relaxation time of the webbing of a group between two
                         # points the webbing flows through (``flow_solve``: linearly implicit
                         # where it would be shorter): monotone under the scenarios' 1e-5 s
                         # Euler steps
FLOW_TOLERANCE = 1.0e-12  # m/s [E]: the largest change of any point's flow over the last of
                          # the sweeps of ``flow_solve``: rounding beside flows of 0.1-10 m/s
FLOW_SWEEPS = 1000        # [E]: at most so many sweeps (each takes the error to at most
                          # T (a + b) / (1 + T (a + b)) of what it was: 0.8 in the strap of
                          # tests/restraints/test_belt_flow.py)

# Helpers compiled as stages, the large ones ``jit.separate``, the small ones linked where LLVM
# inlines them: ``occupant.restraints.belt`` says why.


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
def flow_terms(drift, el, out, path, z, zs, os, s, ns, p0, o_pts, e, damping):
    """Point s's webbing flow terms (between segments s - 1 and s; segment law e: the belt's
    webbing; ``drift``: Data.belt_drift, the wraps' ``wrap_drift`` of this evaluation; ``path``:
    Data.belt_path): (stuck, up, down, ka, kb, ratio, flows). stuck (m/s): the webbing a wrap
    point moving over its body along the belt passes from one segment to the other without
    slip (``wrap_drift``; a frictionless wrap holds no webbing to the body: its webbing slides
    with the body's motion). up and down (m/s): the flow from segment s into s - 1 beyond the
    capstan ratio exp(mu theta) of the two tensions (theta the turn of the belt's path at the
    point, ``path_turn``), the excess tension over ``damping``: up = (T_in - ratio T_out) /
    damping where positive (slip towards s - 1), down = (ratio T_in - T_out) / damping where
    negative (towards s); within the ratio up <= 0 <= down. ka, kb (1/s): how fast the flow
    falls with the webbing of the group (``group_of``) before the point and rises with that of
    the group after it: their stiffnesses (``group_stiffness``) over the damping; the slipping
    side's slacker group weighs ratio times more (``flow_solve``). All but ratio times 1 - w at
    a point that merges its segments in part (``merge_weight`` w). flows: False at an anchor or
    a merged point (``merged``)."""
    k, j = p0 + s, o_pts + 3 * s
    la, lb = out[os + 4 * (s - 1) + 2], out[os + 4 * s + 2]
    if el.point_kind[k] == BELT_ANCHOR:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, False
    keep = 1.0 - merge_weight(el.point_kind, out, k, j, la, lb)
    if keep <= 0.0:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, False
    turn = path_turn(path, k) if la > 0.0 and lb > 0.0 else 0.0
    ratio = np.exp(el.point_friction[k] * turn)
    f_in, f_out = out[os + 4 * (s - 1)], out[os + 4 * s]
    ka = group_stiffness(el, out, z, zs, os, s - 1, ns, p0, o_pts, e) / damping
    kb = group_stiffness(el, out, z, zs, os, s, ns, p0, o_pts, e) / damping
    w = drift[k] if el.point_friction[k] > 0.0 else 0.0
    stuck = w / (1.0 + out[os + 4 * s + 1]) if w > 0.0 else w / (1.0 + out[os + 4 * (s - 1) + 1])
    return (keep * stuck, keep * (f_in - ratio * f_out) / damping,
            keep * (ratio * f_in - f_out) / damping, keep * ka, keep * kb, ratio, True)


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


# Data.belt_flow's columns, per point (``flow_solve``; their names BELT_FLOW_TERMS)
(_FLOWS, _STUCK, _UP, _DOWN, _KA, _KB, _RATIO, _T_BEFORE, _T_AFTER, _U_BEFORE, _U_AFTER, _WAY,
 _Q, _PREV, _NEXT, _C, _D) = range(len(BELT_FLOW_TERMS))


@njit(**JIT_INLINE)
def _way_terms(work, k, way):
    """(A, B, x) of point k's row slipping ``way`` (1: towards the segment before it, -1:
    towards the one after, 0: stuck, none): the implicit weights of the groups before and after
    it and its explicit excess flow (``flow_solve``)."""
    if way > 0.0:
        return (work[k, _T_BEFORE] * work[k, _KA],
                work[k, _T_AFTER] * work[k, _RATIO] * work[k, _KB], work[k, _UP])
    if way < 0.0:
        return (work[k, _T_BEFORE] * work[k, _RATIO] * work[k, _KA],
                work[k, _T_AFTER] * work[k, _KB], work[k, _DOWN])
    return 0.0, 0.0, 0.0


@njit(**JIT_STAGE)
def _flow_at(work, p0, k):
    """Point k's flow given its neighbours' solved flows (``_Q``), and the way it slips (1, -1,
    0 stuck): its stuck flow plus, each way, its excess T ahead where that is beyond the
    capstan ratio, over 1 + T a + T b (its row of ``flow_solve``). Continuous in its terms and
    its neighbours' flows, rising with these at rates that sum to under 1."""
    prev, nxt = int(work[k, _PREV]), int(work[k, _NEXT])
    q_prev = work[p0 + prev, _Q] if prev >= 0 else 0.0
    q_next = work[p0 + nxt, _Q] if nxt >= 0 else 0.0
    stuck = work[k, _STUCK]
    before = work[k, _U_BEFORE] + q_prev - stuck
    after = work[k, _U_AFTER] - q_next + stuck
    a, b, x = _way_terms(work, k, 1.0)
    up = max(x + a * before - b * after, 0.0) / (1.0 + a + b)
    a, b, x = _way_terms(work, k, -1.0)
    down = min(x + a * before - b * after, 0.0) / (1.0 + a + b)
    return stuck + up + down, 1.0 if up > 0.0 else (-1.0 if down < 0.0 else 0.0)


@njit(**JIT_STAGE)
def flow_solve(drift, work, el, out, path, zdot, z, zs, os, ns, p0, o_pts, e, damping):
    """Add the webbing flow through the belt's slip rings and wraps (capstan friction) to the
    segments' webbing rates, linearly implicit (a Rosenbrock-Euler step) in the webbing of each
    group between two flowing points over T_g = FLOW_TIME - 1 / rate_g (``_implicit_time``;
    rate_g the group's explicit relaxation rate were both its ends slipping, its ends' ratio kb
    and ratio ka, the largest), so no group relaxes faster than FLOW_TIME and slower ones keep
    the explicit flow. A point i slipping towards the group before it has flow q solving
    (1 + T_(g-1) a_i + T_g b_i) q_i - T_(g-1) a_i q_(i-1) - T_g b_i q_(i+1)
        = s_i + x_i + T_(g-1) a_i u_(g-1) - T_g b_i u_g
    (``flow_terms``: s_i its stuck flow, x_i = up, a_i = ka, b_i = ratio kb; towards the group
    after it x_i = down, a_i = ratio ka, b_i = kb; group g between points i and i + 1 gains
    q_(i+1) - q_i, and u_g, its length rate / (1 + e), keeps its strain: ``_stretch_rate``,
    from the points' material velocities and the wraps' motion over their surfaces along the
    belt); a stuck point q_i = s_i. Tridiagonal, by the Thomas algorithm. Which way each point
    slips is the way its excess T ahead, (1 + T a + T b) (q_i - s_i) with its neighbours' flows,
    is beyond the ratio (``_flow_at``), so q_i - s_i goes through 0 where a point starts or
    stops slipping: ways taken from the excess now and corrected until they hold (an active
    set); where they cycle (two points draining the short group between them: each stops if
    the other slips), sweeps of ``_flow_at`` (each point's flow given its neighbours', a
    contraction) until no flow moves by more than FLOW_TOLERANCE. Decided by the excess now,
    the implicit terms (most of a slipping short group's flow) came and went with it: the
    belted sled's outboard hip wrap, its tensions within 1e-4 of the ratio, stopped slipping
    at 57.3 ms or not, its lap belt's flow stepping 0.6 m/s in one step, and HIC15 180 or 201
    from settled states 0.13 mm apart (scenarios/HISTORY.md, bistable). A
    group at the belt's end (an anchor, or the retractor's payout beyond it) keeps the explicit
    flow. Explicit everywhere (q = s + x), a 40 mm segment on the GS1 unloading slope (492 kN)
    between two wraps relaxed in 3-4 us at 100 N s/m, under the 1e-5 s Euler step: its tension
    alternated every step between 0 and 1.5 kN (the side barrier's shoulder-chest segment,
    issue 11). ``work``: Data.belt_flow, the points' terms (BELT_FLOW_TERMS)."""
    prev = -1
    for s in range(1, ns):
        k = p0 + s
        stuck, up, down, ka, kb, ratio, flows = flow_terms(drift, el, out, path, z, zs, os, s, ns,
                                                           p0, o_pts, e, damping)
        work[k, _FLOWS] = 1.0 if flows else 0.0
        work[k, _STUCK], work[k, _UP], work[k, _DOWN] = stuck, up, down
        work[k, _KA], work[k, _KB], work[k, _RATIO] = ka, kb, ratio
        work[k, _T_BEFORE], work[k, _T_AFTER], work[k, _U_BEFORE], work[k, _U_AFTER] = \
            0.0, 0.0, 0.0, 0.0
        work[k, _PREV], work[k, _NEXT], work[k, _Q] = -1.0, -1.0, 0.0
        work[k, _WAY] = 1.0 if up > 0.0 else (-1.0 if down < 0.0 else 0.0)
        if not flows:
            if el.point_kind[k] == BELT_ANCHOR:
                prev = -1
            continue
        if prev >= 0:     # the group between them: implicit where it would relax too fast
            i = p0 + prev
            t = _implicit_time(work[i, _RATIO] * work[i, _KB] + ratio * ka)
            work[i, _NEXT], work[k, _PREV] = s, prev
            if t > 0.0:
                work[i, _T_AFTER], work[k, _T_BEFORE] = t, t
                work[i, _U_AFTER] = _stretch_rate(el, out, zdot, z, zs, os, prev, ns, p0, o_pts)
                work[k, _U_BEFORE] = _stretch_rate(el, out, zdot, z, zs, os, s - 1, ns, p0, o_pts)
        prev = s
    for _ in range(2 * ns + 2):
        cp, dp = 0.0, 0.0
        for s in range(1, ns):
            k = p0 + s
            if work[k, _FLOWS] == 0.0:
                continue
            a, b, x = _way_terms(work, k, work[k, _WAY])
            den = 1.0 + a + b + a * cp
            dp = (work[k, _STUCK] + x + a * work[k, _U_BEFORE] - b * work[k, _U_AFTER]
                  + a * dp) / den
            cp = -b / den
            work[k, _C], work[k, _D] = cp, dp
        q = 0.0
        for s in range(ns - 1, 0, -1):
            k = p0 + s
            if work[k, _FLOWS] != 0.0:
                q = work[k, _D] - work[k, _C] * q
                work[k, _Q] = q
        settled = True
        for s in range(1, ns):
            k = p0 + s
            if work[k, _FLOWS] != 0.0:
                way = _flow_at(work, p0, k)[1]
                if way != work[k, _WAY]:
                    work[k, _WAY], settled = way, False
        if settled:
            break
    for _ in range(FLOW_SWEEPS):   # the ways cycled (or a point slips both ways): sweeps
        moved = 0.0
        for s in range(1, ns):
            k = p0 + s
            if work[k, _FLOWS] != 0.0:
                q = _flow_at(work, p0, k)[0]
                moved = max(moved, abs(q - work[k, _Q]))
                work[k, _Q] = q
        if moved <= FLOW_TOLERANCE:
            break
    for s in range(1, ns):
        q = work[p0 + s, _Q]
        if work[p0 + s, _FLOWS] != 0.0 and q != 0.0:
            add_webbing(el.point_kind, out, zdot, zs, os, s - 1, ns, p0, o_pts, q)
            add_webbing(el.point_kind, out, zdot, zs, os, s, ns, p0, o_pts, -q)
