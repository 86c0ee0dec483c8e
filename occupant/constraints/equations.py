"""Constraint equations Phi(q) = 0 of the cut joints, their Jacobian G = dPhi/dq (velocity
constraints G v = 0) and the acceleration right side gamma = -(dG/dt) v (so that G vdot = gamma),
from the link poses of the kinematics stage (seed 001, eqs. 2.1-2.4; Haug, Computer Aided
Kinematics and Dynamics of Mechanical Systems, 1989, ch. 3 and 6).

Everything is in B0 coordinates and relative to B0. Each velocity coordinate j of link k moves
the tree as a screw: an angular coordinate turns everything outboard of k about the world axis
a_j through the link origin o_k, a linear one slides it along a_j. A point p on link L then has
dp/dv_j = a_j x (p - o_k) (angular) or a_j (linear) when k is L or one of its ancestors, and the
angular velocity of L has d(omega_L)/dv_j = a_j (angular). The velocity-product terms of gamma
come from a forward pass over the links at vdot = 0 (``link_motion``).

Rows (``occupant.model.bundle.ConstraintBlock``), with d = p_a - p_b and u's turned with their
links: distance Phi = d . u_b, G = u_b . (J_a - J_b) + (u_b x d) . W_b; dot Phi = u_a . u_b,
G = (u_a x u_b) . (W_a - W_b) (J point Jacobians, W angular-velocity Jacobians); dot difference
Phi = u_a . u_b - w_a . w_b (two such terms); screw (a loop-closing screw joint) Phi = s - k theta,
s = (p_b - p_a) . u_b the travel and theta the turn of x_b about u_b from x_a, unwrapped to the
turn nearest s / k (no state: Phi = -k wrap(theta - s / k)); coupler
Phi = c_a q_a + c_b q_b + c_0 (q the scalar coordinate of a revolute or prismatic link), G = c_a,
c_b in those coordinates' columns, gamma = 0; velocity row (non-holonomic, no Phi) G = u_a . (J_a(p_a) - J_b(p_a)), J_b(p_a) the Jacobian of the material
point of b at p_a, and gamma = -(d/dt G) v at vdot = 0 = -[(w_a x u_a) . (v_a - v_b)
+ u_a . (a_a - a_b - w_b x (v_a - v_b))] (a_b that material point's acceleration; the last term
because the point of b under p_a changes as p_a moves).

Rheonomic rows (``ConstraintBlock.drive`` >= 0; ``drivers``) at the time cw.time[0]: a distance or
coupler row Phi - f(t) (Phi_t = -f', gamma + f''); a dot row whose u_b turns with time, u_b =
R_b c(t): Phi_t = u_a . R_b c', and Phi'' gains 2 u_a' . R_b c' + u_a . (2 w_b x R_b c' + R_b c'')
(the mixed and time terms). cw.phit receives Phi_t (velocity constraints G v = -Phi_t).

A higher-pair row (CONSTRAINT_CURVE) is a distance row between the contact points of its curves
along the normal of curve b, found at each evaluation (``curve_rows``), whose gamma gains the
term of the moving contact point.
"""
import numpy as np
from numba import njit

from occupant.constraints.curve_rows import curve_gamma, curve_points
from occupant.constraints.drivers import cross3 as _cross, time_function, turning_axis
from occupant.jit import JIT, JIT_INLINE, JIT_STAGE
from occupant.model.bundle import (CONSTRAINT_DISTANCE, CONSTRAINT_DOT, CONSTRAINT_COUPLER,
                                   CONSTRAINT_VELOCITY, CONSTRAINT_DOT_DIFFERENCE,
                                   CONSTRAINT_SCREW, CONSTRAINT_CURVE)


@njit(**JIT_INLINE)
def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(**JIT_STAGE)
def link_motion(tree, data, v, cw):
    """World axes of every velocity coordinate (cw.axis, cw.angular), and for every link its
    angular velocity cw.w, origin velocity cw.od and, at vdot = 0, angular and origin
    accelerations cw.al, cw.ad, all in B0 relative to B0 (data.R_base_link, p_base_link filled)."""
    R, o = data.R_base_link, data.p_base_link
    w_rel, vl_rel, r, rd, t1, t2 = (cw.tmp[0], cw.tmp[1], cw.tmp[2], cw.tmp[3], cw.tmp[4],
                                    cw.tmp[5])
    for k in range(tree.parent.shape[0]):
        par = tree.parent[k]
        w_rel[:] = 0.0
        vl_rel[:] = 0.0
        for d in range(tree.nv[k]):
            j = tree.vidx[k] + d
            row = tree.srows[k, d]
            col = row if row < 3 else row - 3
            for c in range(3):
                cw.axis[j, c] = R[k, c, col]
            cw.angular[j] = 1 if row < 3 else 0
            cw.dof_link[j] = k
            for c in range(3):
                if row < 3:
                    w_rel[c] += cw.axis[j, c] * v[j]
                else:
                    vl_rel[c] += cw.axis[j, c] * v[j]
        if par < 0:
            for c in range(3):
                r[c] = o[k, c]
            _cross(w_rel, vl_rel, t1)   # omega_p = 0: only omega_k x vl_rel = w_rel x vl_rel
            for c in range(3):
                cw.w[k, c] = w_rel[c]
                cw.od[k, c] = vl_rel[c]
                cw.al[k, c] = 0.0
                cw.ad[k, c] = t1[c]
        else:
            for c in range(3):
                r[c] = o[k, c] - o[par, c]
            wp = cw.w[par]
            _cross(wp, r, rd)
            for c in range(3):
                rd[c] += vl_rel[c]           # r' = omega_p x r + relative sliding
                cw.w[k, c] = wp[c] + w_rel[c]
                cw.od[k, c] = cw.od[par, c] + rd[c]
            _cross(wp, w_rel, t1)
            for c in range(3):
                cw.al[k, c] = cw.al[par, c] + t1[c]
            _cross(cw.al[par], r, t1)
            _cross(wp, rd, t2)
            for c in range(3):
                cw.ad[k, c] = cw.ad[par, c] + t1[c] + t2[c]
            _cross(cw.w[k], vl_rel, t1)
            for c in range(3):
                cw.ad[k, c] += t1[c]


@njit(**JIT_INLINE)
def _frame_point(R, o, link, local, out):
    """A point given in link coordinates, in B0."""
    if link < 0:
        for c in range(3):
            out[c] = local[c]
        return
    for c in range(3):
        out[c] = o[link, c] + R[link, c, 0] * local[0] + R[link, c, 1] * local[1] + R[link, c, 2] * local[2]


@njit(**JIT_INLINE)
def _frame_axis(R, link, local, out):
    if link < 0:
        for c in range(3):
            out[c] = local[c]
        return
    for c in range(3):
        out[c] = R[link, c, 0] * local[0] + R[link, c, 1] * local[1] + R[link, c, 2] * local[2]


@njit(**JIT_INLINE)
def _point_motion(o, w_all, od, al, ad, link, p, vel, acc, t1, t2):
    """Velocity and (vdot = 0) acceleration of the point p (B0) fixed on link."""
    if link < 0:
        vel[:] = 0.0
        acc[:] = 0.0
        return
    s = t2
    for c in range(3):
        s[c] = p[c] - o[link, c]
    w = w_all[link]
    _cross(w, s, t1)
    for c in range(3):
        vel[c] = od[link, c] + t1[c]
    _cross(w, t1, acc)          # omega x (omega x s)
    _cross(al[link], s, t1)
    for c in range(3):
        acc[c] += ad[link, c] + t1[c]


@njit(**JIT_INLINE)
def _angular(w_all, al_all, link, w, al):
    if link < 0:
        w[:] = 0.0
        al[:] = 0.0
    else:
        for c in range(3):
            w[c] = w_all[link, c]
            al[c] = al_all[link, c]


@njit(**JIT_INLINE)
def _add_point_row(parent, nvs, vidx, o, axis, angular, G, row, link, p, coef, sign):
    """G[row] += sign coef . dp/dv for the point p (B0) fixed on link."""
    k = link
    while k >= 0:
        for d in range(nvs[k]):
            j = vidx[k] + d
            a = axis[j]
            if angular[j]:
                s0, s1, s2 = p[0] - o[k, 0], p[1] - o[k, 1], p[2] - o[k, 2]
                c0 = a[1] * s2 - a[2] * s1
                c1 = a[2] * s0 - a[0] * s2
                c2 = a[0] * s1 - a[1] * s0
                G[row, j] += sign * (coef[0] * c0 + coef[1] * c1 + coef[2] * c2)
            else:
                G[row, j] += sign * (coef[0] * a[0] + coef[1] * a[1] + coef[2] * a[2])
        k = parent[k]


@njit(**JIT_INLINE)
def _add_angular_row(parent, nvs, vidx, axis, angular, G, row, link, coef, sign):
    """G[row] += sign coef . d(omega_link)/dv."""
    k = link
    while k >= 0:
        for d in range(nvs[k]):
            j = vidx[k] + d
            if angular[j]:
                a = axis[j]
                G[row, j] += sign * (coef[0] * a[0] + coef[1] * a[1] + coef[2] * a[2])
        k = parent[k]


@njit(**JIT_INLINE)
def link_coordinate(tree, data, k):
    """The scalar coordinate of revolute or prismatic link k at the configuration the kinematics
    were last computed for (``forward_kinematics`` keeps it in data.q_unit)."""
    return data.q_unit[tree.qidx[k]]


@njit(**JIT_STAGE)
def constraint_terms(tree, cons, data, v, cw):
    """Fill cw.phi (nc,), cw.G (nc, nv) and cw.gamma (nc,) at the poses in data (after
    ``forward_kinematics``) and the velocities v."""
    link_motion(tree, data, v, cw)
    pa, pb, ua, ub, d, va, vb, aa, ab = (cw.vec[0], cw.vec[1], cw.vec[2], cw.vec[3], cw.vec[4],
                                         cw.vec[5], cw.vec[6], cw.vec[7], cw.vec[8])
    wa, wb, ala, alb, t1, t2, t3 = (cw.vec[9], cw.vec[10], cw.vec[11], cw.vec[12], cw.vec[13],
                                    cw.vec[14], cw.vec[15])
    # the arrays the helpers need, unpacked once: passing the records to every helper call
    # would cost the reference counting of all their arrays each time
    R, o, G, phi, gamma = data.R_base_link, data.p_base_link, cw.G, cw.phi, cw.gamma
    w_all, od, al, ad, axis, angular = cw.w, cw.od, cw.al, cw.ad, cw.axis, cw.angular
    parent, nvs, vidx = tree.parent, tree.nv, tree.vidx
    t, phit, drive, drives, fd = cw.time[0], cw.phit, cons.drive, cons.drives, cw.vec[16]
    G[:, :] = 0.0
    for row in range(cons.kind.shape[0]):
        la, lb = cons.link_a[row], cons.link_b[row]
        phit[row] = 0.0
        if cons.kind[row] == CONSTRAINT_COUPLER:
            ca, cb, c0 = cons.point_a[row, 0], cons.point_a[row, 1], cons.point_a[row, 2]
            phi[row] = ca * link_coordinate(tree, data, la) + cb * link_coordinate(tree, data, lb) + c0
            G[row, vidx[la]] += ca
            G[row, vidx[lb]] += cb
            gamma[row] = 0.0
            if drive[row] >= 0:
                _subtract_drive(drives, drive[row], t, fd, phi, phit, gamma, row)
            continue
        turning = cons.kind[row] == CONSTRAINT_DOT and drive[row] >= 0
        if turning:     # u_b(t) = R_b c(t); e = R_b c', f2 = R_b c''
            cv, cd, cdd, e, f2 = cw.vec[17], cw.vec[18], cw.vec[19], cw.vec[20], cw.vec[21]
            turning_axis(drives, drive[row], t, cons.point_a[row], cons.point_b[row],
                         cons.axis_b[row], cv, cd, cdd, cw.vec[22:25], cw.vec[25], cw.vec[26],
                         cw.vec[27], cw.vec[28], cw.vec[29])
            _frame_axis(R, lb, cv, ub)
            _frame_axis(R, lb, cd, e)
            _frame_axis(R, lb, cdd, f2)
        else:
            _frame_axis(R, lb, cons.axis_b[row], ub)
        _angular(w_all, al, la, wa, ala)
        _angular(w_all, al, lb, wb, alb)
        curve = cons.kind[row] == CONSTRAINT_CURVE
        if cons.kind[row] == CONSTRAINT_DISTANCE or cons.kind[row] == CONSTRAINT_SCREW or curve:
            if curve:       # the contact points and normal (u_b) of a higher pair
                curve_points(cons.curves, cons.curve[row, 0], cons.curve[row, 1], R, o, la, lb,
                             cons.point_a[row], pa, pb, ub, cw.vec[17:30])
            else:
                _frame_point(R, o, la, cons.point_a[row], pa)
                _frame_point(R, o, lb, cons.point_b[row], pb)
            _point_motion(o, w_all, od, al, ad, la, pa, va, aa, t1, t2)
            _point_motion(o, w_all, od, al, ad, lb, pb, vb, ab, t1, t2)
            sign = -1.0 if cons.kind[row] == CONSTRAINT_SCREW else 1.0   # screw: s = -that
            for c in range(3):
                d[c] = pa[c] - pb[c]
            phi[row] = sign * _dot(d, ub)
            _add_point_row(parent, nvs, vidx, o, axis, angular, G, row, la, pa, ub, sign)
            _add_point_row(parent, nvs, vidx, o, axis, angular, G, row, lb, pb, ub, -sign)
            _cross(ub, d, t1)
            _add_angular_row(parent, nvs, vidx, axis, angular, G, row, lb, t1, sign)
            # Phi'' at vdot = 0: (a_a - a_b).u + 2 d'.(w_b x u) + d.(al_b x u + w_b x (w_b x u))
            _cross(wb, ub, t1)           # u'
            _cross(wb, t1, t2)           # w_b x u'
            _cross(alb, ub, t3)
            acc = 0.0
            for c in range(3):
                acc += (aa[c] - ab[c]) * ub[c] + 2.0 * (va[c] - vb[c]) * t1[c] + d[c] * (t3[c] + t2[c])
            if curve:
                acc += curve_gamma(cons.curve[row, 0], wa, wb, va, vb, d, ub, cw.vec[17:30])
            gamma[row] = -sign * acc
            if cons.kind[row] == CONSTRAINT_SCREW:
                _frame_axis(R, la, cons.axis_a[row], ua)
                _frame_axis(R, lb, drives[drive[row], 1:4], pb)     # x_b
                _cross(ub, pb, d)                                    # y_b
                _screw_angle(parent, nvs, vidx, axis, angular, G, row, la, lb, ua, pb, d, wa, ala,
                             wb, alb, t1, t2, t3, drives[drive[row], 0], phi, gamma)
            elif drive[row] >= 0:
                _subtract_drive(drives, drive[row], t, fd, phi, phit, gamma, row)
        elif cons.kind[row] == CONSTRAINT_VELOCITY:
            _frame_axis(R, la, cons.axis_a[row], ua)
            _frame_point(R, o, la, cons.point_a[row], pa)
            _point_motion(o, w_all, od, al, ad, la, pa, va, aa, t1, t2)
            _point_motion(o, w_all, od, al, ad, lb, pa, vb, ab, t1, t2)
            phi[row] = 0.0
            _add_point_row(parent, nvs, vidx, o, axis, angular, G, row, la, pa, ua, 1.0)
            _add_point_row(parent, nvs, vidx, o, axis, angular, G, row, lb, pa, ua, -1.0)
            for c in range(3):
                d[c] = va[c] - vb[c]
            _cross(wa, ua, t1)           # u_a'
            _cross(wb, d, t2)
            acc = _dot(t1, d)
            for c in range(3):
                acc += ua[c] * (aa[c] - ab[c] - t2[c])
            gamma[row] = -acc
        else:        # CONSTRAINT_DOT, CONSTRAINT_DOT_DIFFERENCE
            _frame_axis(R, la, cons.axis_a[row], ua)
            phi[row], acc = _dot_row(parent, nvs, vidx, axis, angular, G, row, la, lb, ua, ub,
                                     wa, ala, wb, alb, t1, t2, t3, 1.0)
            if turning:      # t1 = u_a'
                phit[row] = _dot(ua, e)
                _cross(wb, e, t3)
                acc += 2.0 * _dot(t1, e) + _dot(ua, f2) + 2.0 * _dot(ua, t3)
            if cons.kind[row] == CONSTRAINT_DOT_DIFFERENCE:
                _frame_axis(R, la, cons.point_a[row], ua)
                _frame_axis(R, lb, cons.point_b[row], ub)
                p2, a2 = _dot_row(parent, nvs, vidx, axis, angular, G, row, la, lb, ua, ub,
                                  wa, ala, wb, alb, t1, t2, t3, -1.0)
                phi[row] -= p2
                acc -= a2
            gamma[row] = -acc


@njit(**JIT_INLINE)
def _screw_angle(parent, nvs, vidx, axis, angular, G, row, la, lb, xa, xb, yb, wa, ala, wb, alb,
                 t1, t2, t3, k, phi, gamma):
    """Row ``row`` holds s (travel, with its G and gamma) on entry; it becomes the screw row
    Phi = s - k theta = -k wrap(theta - s / k), theta = atan2(S, C), S = -x_a . y_b,
    C = x_a . x_b (the turn of b about z_b; k = pitch / 2 pi): G -= k (C dS - S dC) / n and
    theta'' = ((C S'' - S C'') n - (C S' - S C') 2 (S S' + C C')) / n^2 at vdot = 0, n = S^2 + C^2."""
    S, C = -_dot(xa, yb), _dot(xa, xb)
    n = S * S + C * C
    for c in range(3):
        t3[c] = wa[c] - wb[c]
    _cross(xa, yb, t1)
    Sd = -_dot(t1, t3)
    _cross(xa, xb, t1)
    Cd = _dot(t1, t3)
    _, Sdd = _dot_row(parent, nvs, vidx, axis, angular, G, row, la, lb, xa, yb, wa, ala, wb, alb,
                      t1, t2, t3, k * C / n)
    _, Cdd = _dot_row(parent, nvs, vidx, axis, angular, G, row, la, lb, xa, xb, wa, ala, wb, alb,
                      t1, t2, t3, k * S / n)
    Sdd = -Sdd
    theta_dd = ((C * Sdd - S * Cdd) * n - (C * Sd - S * Cd) * 2.0 * (S * Sd + C * Cd)) / (n * n)
    w = np.arctan2(S, C) - phi[row] / k
    w -= 2.0 * np.pi * np.floor(w / (2.0 * np.pi) + 0.5)
    phi[row] = -k * w
    gamma[row] += k * theta_dd


@njit(**JIT_INLINE)
def _dot_row(parent, nvs, vidx, axis, angular, G, row, la, lb, ua, ub, wa, ala, wb, alb, t1, t2,
             t3, sign):
    """G[row] += sign (u_a x u_b) . (W_a - W_b); returns u_a . u_b and its second derivative at
    vdot = 0, u_a''.u_b + 2 u_a'.u_b' + u_a.u_b'' (u' = w x u), leaving u_a' in t1."""
    _cross(ua, ub, t1)
    _add_angular_row(parent, nvs, vidx, axis, angular, G, row, la, t1, sign)
    _add_angular_row(parent, nvs, vidx, axis, angular, G, row, lb, t1, -sign)
    _cross(wa, ua, t1)           # u_a'
    _cross(wb, ub, t2)           # u_b'
    acc = 2.0 * _dot(t1, t2)
    _cross(wa, t1, t3)
    acc += _dot(t3, ub)
    _cross(ala, ua, t3)
    acc += _dot(t3, ub)
    _cross(wb, t2, t3)
    acc += _dot(ua, t3)
    _cross(alb, ub, t3)
    acc += _dot(ua, t3)
    return _dot(ua, ub), acc


@njit(**JIT_INLINE)
def _subtract_drive(drives, i, t, f, phi, phit, gamma, row):
    """Row ``row`` becomes Phi - f(t) (f time function i): Phi_t = -f', gamma + f''."""
    time_function(drives, i, t, f)
    phi[row] -= f[0]
    phit[row] = -f[1]
    gamma[row] += f[2]
