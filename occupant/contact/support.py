"""Penetration of an ellipsoid by the features of another geometry, in that geometry's frame:
a half-space (face), a straight line (edge) and a point (vertex), in closed form or by Newton
iterations over scalars (no allocation).

The ellipsoid is given by its centre c and Q = G A^2 G^T (G its axes, A its semi-axes, all in the
frame of the other geometry), its support function h(n) = sqrt(n^T Q n) and the support point
along -n, s = c - Q n / h(n). The penetration of a convex set K by the ellipsoid along the unit
direction n (n points from K towards the ellipsoid: the force on the ellipsoid acts along +n)
is f(n) = h(n) + h_K(n) - n.c, and the penetration depth (minimum translation distance) is its
minimum over n (the separating-axis duality of convex sets: minus the distance when apart):
- a half-space {x : n.x <= n.p}: n fixed, d = h(n) - n.(c - p) (closed form);
- a point v: minimise h(n) - n.(c - v) over the unit sphere;
- a line through v along u: h_K is infinite unless n is normal to u, so minimise
  h(n) - n.(c - v) over the unit circle normal to u;
- a circle of radius r about v normal to z (a cylinder's rim): h_K(n) = n.v + r |n_xy|,
  minimise h(n) + r |n_xy| - n.(c - v) over the unit sphere.
For a point or a line the deepest point of K is s + d n (on the line, by the optimality
condition Q n / h - (c - v) = -d n + mu u).
"""
import numpy as np
from numba import njit

from occupant.contact.geometry_pairs import sphere_newton_step, unit_normal_basis
from occupant.jit import JIT_STAGE

# Newton iterations at most (as ellipsoid_ellipsoid's NEWTON_ITERATIONS); a step below
# STEP_TOL rad ends them (quadratic convergence: the next step would be below rounding).
NEWTON_ITERATIONS = 16
STEP_TOL = 1e-12


@njit(**JIT_STAGE)
def q_times(Q, x, y, z):
    """Q (x, y, z) for the symmetric Q = (q00, q01, q02, q11, q12, q22)."""
    return (Q[0] * x + Q[1] * y + Q[2] * z, Q[1] * x + Q[3] * y + Q[4] * z,
            Q[2] * x + Q[4] * y + Q[5] * z)


@njit(**JIT_STAGE)
def face_depth(Q, cx, cy, cz, nx, ny, nz, px, py, pz):
    """Half-space of outward normal n through p: (d, s) with s the ellipsoid's deepest point."""
    qx, qy, qz = q_times(Q, nx, ny, nz)
    h = np.sqrt(nx * qx + ny * qy + nz * qz)
    d = h - (nx * (cx - px) + ny * (cy - py) + nz * (cz - pz))
    return d, cx - qx / h, cy - qy / h, cz - qz / h


@njit(**JIT_STAGE)
def vertex_depth(Q, cx, cy, cz, vx, vy, vz):
    """Point v: (d, n, s) minimising h(n) - n.(c - v) (``rim_depth`` with a zero radius);
    d > 0 iff v is inside the ellipsoid."""
    return rim_depth(Q, cx, cy, cz, vx, vy, vz, 0.0)


@njit(**JIT_STAGE)
def rim_depth(Q, cx, cy, cz, vx, vy, vz, radius):
    """Circle of ``radius`` about v normal to z (a cylinder's rim; a point for radius 0), whose
    support function is n.v + radius |n_xy|: (d, n, s) minimising
    h(n) + radius |n_xy| - n.(c - v) by Riemannian Newton iterations on the unit sphere from
    the direction from the circle's point nearest c (exact at once for a sphere), the Hessian
    shifted to stay positive-definite and the step limited to 0.5 rad."""
    px, py, pz = cx - vx, cy - vy, cz - vz
    rho = np.sqrt(px * px + py * py)
    if radius > 0.0 and rho > 0.0:
        px0, py0 = px - radius * px / rho, py - radius * py / rho
    else:
        px0, py0 = px, py
    norm = np.sqrt(px0 * px0 + py0 * py0 + pz * pz)
    if norm > 0.0:
        m0, m1, m2 = px0 / norm, py0 / norm, pz / norm
    else:
        m0, m1, m2 = 0.0, 0.0, 1.0
    return rim_depth_from(Q, cx, cy, cz, vx, vy, vz, radius, m0, m1, m2)


@njit(**JIT_STAGE)
def rim_depth_from(Q, cx, cy, cz, vx, vy, vz, radius, m0, m1, m2):
    """``rim_depth``'s iterations from the unit direction m."""
    px, py, pz = cx - vx, cy - vy, cz - vz
    for _ in range(NEWTON_ITERATIONS):
        qx, qy, qz = q_times(Q, m0, m1, m2)
        h = np.sqrt(m0 * qx + m1 * qy + m2 * qz)
        g0, g1, g2 = qx / h - px, qy / h - py, qz / h - pz      # Euclidean gradient
        r_xy = np.sqrt(m0 * m0 + m1 * m1)
        if radius > 0.0 and r_xy > 0.0:
            g0 += radius * m0 / r_xy
            g1 += radius * m1 / r_xy
        gn = g0 * m0 + g1 * m1 + g2 * m2
        tx, ty, tz, ux, uy, uz = unit_normal_basis(m0, m1, m2)
        r0 = g0 * tx + g1 * ty + g2 * tz
        r1 = g0 * ux + g1 * uy + g2 * uz
        qtx, qty, qtz = q_times(Q, tx, ty, tz)
        qux, quy, quz = q_times(Q, ux, uy, uz)
        qt, qu = qx * tx + qy * ty + qz * tz, qx * ux + qy * uy + qz * uz
        # Riemannian Hessian: Q / h - (Q m)(Q m)^T / h^3 (+ the rim's
        # radius / r_xy (P_xy - m_xy m_xy^T / r_xy^2)) - (m.g) I on the tangent plane
        h00 = (tx * qtx + ty * qty + tz * qtz) / h - qt * qt / h**3 - gn
        h11 = (ux * qux + uy * quy + uz * quz) / h - qu * qu / h**3 - gn
        h01 = (tx * qux + ty * quy + tz * quz) / h - qt * qu / h**3
        if radius > 0.0 and r_xy > 0.0:
            mt, mu = (m0 * tx + m1 * ty) / r_xy, (m0 * ux + m1 * uy) / r_xy
            k = radius / r_xy
            h00 += k * (tx * tx + ty * ty - mt * mt)
            h11 += k * (ux * ux + uy * uy - mu * mu)
            h01 += k * (tx * ux + ty * uy - mt * mu)
        m0, m1, m2, step = sphere_newton_step(m0, m1, m2, tx, ty, tz, ux, uy, uz, r0, r1,
                                              h00, h11, h01)
        if step < STEP_TOL:
            break
    qx, qy, qz = q_times(Q, m0, m1, m2)
    h = np.sqrt(m0 * qx + m1 * qy + m2 * qz)
    d = h + radius * np.sqrt(m0 * m0 + m1 * m1) - (m0 * px + m1 * py + m2 * pz)
    return d, m0, m1, m2, cx - qx / h, cy - qy / h, cz - qz / h


@njit(**JIT_STAGE)
def line_depth(Q, cx, cy, cz, vx, vy, vz, ux, uy, uz):
    """Line through v along the unit u: (d, n, s) minimising h(n) - n.(c - v) over the unit
    circle n = cos(a) e1 + sin(a) e2 normal to u by Newton iterations on a (from the direction
    of c - v normal to u, exact at once for a sphere; second derivative floored positive,
    steps limited to 0.5 rad)."""
    # basis e1, e2 of the plane normal to u
    e1x, e1y, e1z, e2x, e2y, e2z = unit_normal_basis(ux, uy, uz)
    # the 2x2 problem: Q2 = E^T Q E, p2 = E^T (c - v)
    px, py, pz = cx - vx, cy - vy, cz - vz
    a1x, a1y, a1z = q_times(Q, e1x, e1y, e1z)
    a2x, a2y, a2z = q_times(Q, e2x, e2y, e2z)
    k11 = e1x * a1x + e1y * a1y + e1z * a1z
    k12 = e1x * a2x + e1y * a2y + e1z * a2z
    k22 = e2x * a2x + e2y * a2y + e2z * a2z
    p1 = e1x * px + e1y * py + e1z * pz
    p2 = e2x * px + e2y * py + e2z * pz
    angle = np.arctan2(p2, p1) if (p1 != 0.0 or p2 != 0.0) else 0.0
    for _ in range(NEWTON_ITERATIONS):
        co, si = np.cos(angle), np.sin(angle)
        qn = k11 * co * co + 2.0 * k12 * co * si + k22 * si * si    # n Q n
        qt = k11 * si * si - 2.0 * k12 * co * si + k22 * co * co    # t Q t, t = (-si, co)
        tqn = (k22 - k11) * co * si + k12 * (co * co - si * si)     # t Q n
        h = np.sqrt(qn)
        g1 = tqn / h - (-si * p1 + co * p2)
        g2 = (qt - qn) / h - tqn * tqn / h**3 + (co * p1 + si * p2)
        g2 = max(g2, 1e-3 * (qt + qn) / h + 1e-300)
        step = -g1 / g2
        if step > 0.5:
            step = 0.5
        elif step < -0.5:
            step = -0.5
        angle += step
        if abs(step) < STEP_TOL:
            break
    co, si = np.cos(angle), np.sin(angle)
    nx, ny, nz = co * e1x + si * e2x, co * e1y + si * e2y, co * e1z + si * e2z
    qx, qy, qz = q_times(Q, nx, ny, nz)
    h = np.sqrt(nx * qx + ny * qy + nz * qz)
    d = h - (nx * px + ny * py + nz * pz)
    return d, nx, ny, nz, cx - qx / h, cy - qy / h, cz - qz / h
