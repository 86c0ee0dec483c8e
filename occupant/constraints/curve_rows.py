"""The contact point pair of the higher-pair rows (CONSTRAINT_CURVE; ADAMS PTCV and CVCV) and
the part of their acceleration right side that the moving contact point adds.

Curves table (``ConstraintBlock.curves``, rows of 12, in the frame of the curve's link): a
header row [type, n_segments, closed, e (3), s_max, 0 ...] (e the unit reference axis of the
normal frame: for a planar curve the normal of its plane; s in [0, s_max)), then for
CURVE_SPLINE n_segments rows [a0, a1, a2, a3] (3-vectors) of c(s) = a0 + a1 tau + a2 tau^2 +
a3 tau^3, tau = s - i on segment i = floor(s); for CURVE_ELLIPSE one row [o, A, B, C] of
c(s) = o + A cos s + B sin s + C s (C = 0 an ellipse, else a helix).

The curve parameters are eliminated, not integrated (ADAMS adds them as coordinates): a row
finds them at every evaluation by Newton's method from the closest sample pair, so that the
solver sees an ordinary scalar row of the tree coordinates. For curve b with tangent
B' = dC_b/du and reference axis e_b (turned with b), and point a (a point, or curve a at s with
tangent A'), the parameters solve

    E1 = (A' x B') . e_b = 0        (tangents parallel; absent for a point)
    E2 = (p_a - p_b) . B' = 0       (p_a - p_b normal to curve b)

and the row is the gap g = (p_a - p_b) . n_b, d = p_a - p_b, along a normal of the frame fixed
in b: n_1 = m / |m|, m = B' x e_b, or (the second row of a point) n_2 = n_1 x B' / |B'|; e_b
keeps away from every tangent (``occupant.modeling.curves.Curve.reference_axis``), so the frame
is smooth. For a planar curve n_1 is the in-plane normal and n_2 = e_b the plane normal. As
n_b . B' = 0, dg/du = d . dn_b/du, which vanishes where the point is on the curve (d = 0) and,
for a planar curve, everywhere (d is normal to B', dn_1/du parallel to B', dn_2/du = 0); for a
curve, dg/ds = A' . n_b is proportional to E1. So the row's Jacobian is that of the distance
row between the material points p_a, p_b along n_b fixed in b (envelope theorem): exact on the
constraint surface, for a spatial curve a Newton direction off it. Its gamma is that
Jacobian's, g'' = Phi''_fixed + ((w_a - w_b) x A') . n_b s' + (dn_b/du . w) u', with
w = v_a - v_b(p_a) the velocity of p_a relative to the material point of b under it and
(s', u') from J (s', u') = -(dE1/dt, dE2/dt) at fixed parameters: dE1/dt = (((w_a - w_b) x A')
x B') . e_b, dE2/dt = B' . w, J = [[(A'' x B') . e_b, (A' x B'') . e_b], [A' . B', d . B'' -
B' . B']] (``curve_gamma``; a point: u' = -dE2/dt / J[1, 1]); it is the true g'' of every
motion along the curve (there w = B' u' and dg/du stays 0). The normals' rates:
dn_1/du = (dm/du - n_1 (n_1 . dm/du)) / |m|, dm/du = B'' x e_b, and with p = n_1 x B',
dp/du = dn_1/du x B' + n_1 x B'', dn_2/du = (dp/du - n_2 (n_2 . dp/du)) / |p|.
"""
import numpy as np
from numba import njit

from occupant.constraints.drivers import cross3
from occupant.jit import JIT_INLINE

CURVE_SPLINE, CURVE_ELLIPSE = 0, 1
SAMPLES_PER_SEGMENT, ELLIPSE_SAMPLES = 2, 32
NEWTON_MAXIT, PARAM_TOL = 30, 1e-13


@njit(**JIT_INLINE)
def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(**JIT_INLINE)
def _samples(curves, h):
    if int(curves[h, 0]) == CURVE_ELLIPSE:     # per turn
        return ELLIPSE_SAMPLES * int(np.ceil(curves[h, 6] / (2.0 * np.pi) - 1e-9))
    return SAMPLES_PER_SEGMENT * int(curves[h, 1])


@njit(**JIT_INLINE)
def _sample_param(curves, h, j):
    """Parameter of sample j (open curves: both ends included)."""
    n, s_max = _samples(curves, h), curves[h, 6]
    if curves[h, 2] > 0.5:
        return s_max * j / n
    return s_max * j / (n - 1)


@njit(**JIT_INLINE)
def _wrap(curves, h, s):
    s_max = curves[h, 6]
    if curves[h, 2] > 0.5:
        return s - s_max * np.floor(s / s_max)
    return min(max(s, 0.0), s_max)


@njit(**JIT_INLINE)
def _local(curves, h, s, c, c1, c2):
    """c(s), c'(s), c''(s) in the link frame."""
    if int(curves[h, 0]) == CURVE_ELLIPSE:
        r = curves[h + 1]
        cs, sn = np.cos(s), np.sin(s)
        for k in range(3):
            c[k] = r[k] + r[3 + k] * cs + r[6 + k] * sn + r[9 + k] * s
            c1[k] = -r[3 + k] * sn + r[6 + k] * cs + r[9 + k]
            c2[k] = -r[3 + k] * cs - r[6 + k] * sn
        return
    i = min(max(int(np.floor(s)), 0), int(curves[h, 1]) - 1)
    tau = s - i
    r = curves[h + 1 + i]
    for k in range(3):
        a0, a1, a2, a3 = r[k], r[3 + k], r[6 + k], r[9 + k]
        c[k] = a0 + tau * (a1 + tau * (a2 + tau * a3))
        c1[k] = a1 + tau * (2.0 * a2 + 3.0 * tau * a3)
        c2[k] = 2.0 * a2 + 6.0 * tau * a3


@njit(**JIT_INLINE)
def _turn(R, link, v, out):
    if link < 0:
        for k in range(3):
            out[k] = v[k]
    else:
        for k in range(3):
            out[k] = R[link, k, 0] * v[0] + R[link, k, 1] * v[1] + R[link, k, 2] * v[2]


@njit(**JIT_INLINE)
def _world(curves, h, R, o, link, s, p, p1, p2, tmp):
    """Point, first and second parameter derivatives of curve h (on link) at s, in B0."""
    _local(curves, h, s, tmp[0], tmp[1], tmp[2])
    _turn(R, link, tmp[0], p)
    if link >= 0:
        for k in range(3):
            p[k] += o[link, k]
    _turn(R, link, tmp[1], p1)
    _turn(R, link, tmp[2], p2)


@njit(**JIT_INLINE)
def _closest(curves, h, R, o, link, pa, pb, B1, B2, tmp):
    """The parameter u of curve h nearest the point pa (E2 = 0), curve data at u left in
    pb, B1, B2."""
    n = _samples(curves, h)
    u, best = 0.0, np.inf
    for j in range(n):
        _world(curves, h, R, o, link, _sample_param(curves, h, j), pb, B1, B2, tmp[3:])
        dist = (pa[0] - pb[0]) ** 2 + (pa[1] - pb[1]) ** 2 + (pa[2] - pb[2]) ** 2
        if dist < best:
            best, u = dist, _sample_param(curves, h, j)
    step_max = curves[h, 6] / n
    for _ in range(NEWTON_MAXIT):
        _world(curves, h, R, o, link, u, pb, B1, B2, tmp[3:])
        e2, j22 = 0.0, 0.0
        for k in range(3):
            e2 += (pa[k] - pb[k]) * B1[k]
            j22 += (pa[k] - pb[k]) * B2[k] - B1[k] * B1[k]
        if j22 >= 0.0:           # not a minimum of the distance: Gauss-Newton step
            j22 = -_dot(B1, B1)
        du = min(max(-e2 / j22, -step_max), step_max)
        u = _wrap(curves, h, u + du)
        if abs(du) < PARAM_TOL * curves[h, 6]:
            break
    _world(curves, h, R, o, link, u, pb, B1, B2, tmp[3:])
    return u


@njit(**JIT_INLINE)
def _pair(curves, ha, hb, R, o, la, lb, pa, A1, A2, pb, B1, B2, eb, tmp):
    """The parameters (s, u) of curves ha, hb solving E1 = E2 = 0 (module docstring), from the
    closest pair of samples; curve data at (s, u) left in pa, A1, A2, pb, B1, B2."""
    na, nb = _samples(curves, ha), _samples(curves, hb)
    s, u, best = 0.0, 0.0, np.inf
    for i in range(na):
        si = _sample_param(curves, ha, i)
        _world(curves, ha, R, o, la, si, pa, A1, A2, tmp[3:])
        for j in range(nb):
            uj = _sample_param(curves, hb, j)
            _world(curves, hb, R, o, lb, uj, pb, B1, B2, tmp[3:])
            dist = (pa[0] - pb[0]) ** 2 + (pa[1] - pb[1]) ** 2 + (pa[2] - pb[2]) ** 2
            if dist < best:
                best, s, u = dist, si, uj
    step_a, step_b = curves[ha, 6] / na, curves[hb, 6] / nb
    t1, d = tmp[0], tmp[1]
    for _ in range(NEWTON_MAXIT):
        _world(curves, ha, R, o, la, s, pa, A1, A2, tmp[3:])
        _world(curves, hb, R, o, lb, u, pb, B1, B2, tmp[3:])
        for k in range(3):
            d[k] = pa[k] - pb[k]
        cross3(A1, B1, t1)
        e1, e2 = _dot(t1, eb), _dot(d, B1)
        j11, j12, j21, j22 = _pair_jacobian(d, A1, A2, B1, B2, eb, t1)
        det = j11 * j22 - j12 * j21
        if abs(det) < 1e-300:
            break
        ds, du = _newton_step(j11, j12, j21, j22, det, e1, e2)
        ds, du = min(max(ds, -step_a), step_a), min(max(du, -step_b), step_b)
        s, u = _wrap(curves, ha, s + ds), _wrap(curves, hb, u + du)
        if abs(ds) < PARAM_TOL * curves[ha, 6] and abs(du) < PARAM_TOL * curves[hb, 6]:
            break
    _world(curves, ha, R, o, la, s, pa, A1, A2, tmp[3:])
    _world(curves, hb, R, o, lb, u, pb, B1, B2, tmp[3:])


@njit(**JIT_INLINE)
def curve_points(curves, ha, hb, R, o, la, lb, point_a, pa, pb, nb, cv):
    """Contact points pa (on link a: point_a when ha < 0, or curve ha) and pb (curve hb on
    link b) and the row's unit normal nb of curve b there (n_1, or n_2 when ha = -2), in B0.
    cv (13, 3) scratch keeps for ``curve_gamma``: A', A'', B', B'', e_b in cv[0:5]."""
    A1, A2, B1, B2, eb, tmp = cv[0], cv[1], cv[2], cv[3], cv[4], cv[5:]
    _turn(R, lb, curves[hb, 3:6], eb)
    if ha < 0:
        _turn(R, la, point_a, pa)
        if la >= 0:
            for k in range(3):
                pa[k] += o[la, k]
        A1[:] = 0.0
        A2[:] = 0.0
        _closest(curves, hb, R, o, lb, pa, pb, B1, B2, tmp)
    else:
        _pair(curves, ha, hb, R, o, la, lb, pa, A1, A2, pb, B1, B2, eb, tmp)
    cross3(B1, eb, nb)
    _normalize(nb)
    if ha == -2:
        cross3(nb, B1, tmp[0])
        for k in range(3):
            nb[k] = tmp[0][k]
        _normalize(nb)


@njit(**JIT_INLINE)
def curve_gamma(ha, wa, wb, va, vb, d, nb, cv):
    """The term that the moving contact adds to Phi'' at vdot = 0 (module docstring):
    ((w_a - w_b) x A') . n_b s' + (dn_b/du . w) u'; ha the row's curve[0], va, vb the
    velocities of the material points p_a of a and p_b of b, d = p_a - p_b, cv as
    ``curve_points`` left it."""
    A1, A2, B1, B2, eb = cv[0], cv[1], cv[2], cv[3], cv[4]
    w, dn, t1, t2, n1, dn1 = cv[5], cv[6], cv[7], cv[8], cv[9], cv[10]
    cross3(wb, d, t1)
    for k in range(3):
        w[k] = va[k] - vb[k] - t1[k]
    cross3(B2, eb, t1)               # dm/du, m = B' x e_b
    cross3(B1, eb, t2)
    if ha == -2:                     # n_2 = p / |p|, p = n_1 x B'
        for k in range(3):
            n1[k] = t2[k]
        _normalize(n1)
        _unit_rate(t2, t1, n1, dn1)
        cross3(dn1, B1, t1)
        cross3(n1, B2, t2)
        for k in range(3):
            t1[k] += t2[k]           # dp/du
        cross3(n1, B1, t2)
    _unit_rate(t2, t1, nb, dn)
    e2t = _dot(B1, w)
    if ha < 0:
        return _dot(dn, w) * (-e2t / (_dot(d, B2) - _dot(B1, B1)))
    for k in range(3):
        t2[k] = wa[k] - wb[k]
    cross3(t2, A1, t1)               # (w_a - w_b) x A'
    f_s = _dot(t1, nb)
    cross3(t1, B1, t2)
    e1t = _dot(t2, eb)
    j11, j12, j21, j22 = _pair_jacobian(d, A1, A2, B1, B2, eb, t1)
    s_d, u_d = _newton_step(j11, j12, j21, j22, j11 * j22 - j12 * j21, e1t, e2t)
    return f_s * s_d + _dot(dn, w) * u_d


@njit(**JIT_INLINE)
def _normalize(v):
    norm = np.sqrt(_dot(v, v))
    for k in range(3):
        v[k] /= norm


@njit(**JIT_INLINE)
def _unit_rate(m, dm, n, out):
    """out = dn/du of the unit n = m / |m| from dm/du."""
    norm, proj = np.sqrt(_dot(m, m)), _dot(n, dm)
    for k in range(3):
        out[k] = (dm[k] - n[k] * proj) / norm


@njit(**JIT_INLINE)
def _pair_jacobian(d, A1, A2, B1, B2, eb, t1):
    """d(E1, E2)/d(s, u) (module docstring), d = p_a - p_b; t1 scratch."""
    cross3(A2, B1, t1)
    j11 = _dot(t1, eb)
    cross3(A1, B2, t1)
    return j11, _dot(t1, eb), _dot(A1, B1), _dot(d, B2) - _dot(B1, B1)


@njit(**JIT_INLINE)
def _newton_step(j11, j12, j21, j22, det, e1, e2):
    """-J^-1 (e1, e2) for the 2 x 2 J of determinant det."""
    return -(e1 * j22 - j12 * e2) / det, -(j11 * e2 - j21 * e1) / det
