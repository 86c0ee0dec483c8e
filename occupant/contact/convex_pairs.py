"""Ellipsoid against a box, a bounded plane (a rectangle) and a cylinder, in the frame of that
geometry, by walking over its features (faces, edges, vertices) with ``support``'s penetrations.

The penetration depth of two convex sets is the minimum over unit directions n of
f(n) = h_a(n) + h_b(n) - n.c (``support``). For a box h_b is linear where n keeps the signs of
its components, with kinks where a component changes sign: the minimum lies at a face normal,
on an edge's circle (n normal to the edge) or inside a vertex's octant, and it is the candidate
of that feature that is consistent with it (Lin & Canny's feature walk, 1991):
- a face (outward normal n): the ellipsoid's deepest point s along -n, moved onto the face
  plane, lies inside the face; else the walk goes to the edge (or vertex) on the side it left;
- an edge: the direction n normal to it lies between the normals of its two faces (the
  components along their axes have the faces' signs), else the walk goes to the face whose sign
  is violated; the contact point lies within the edge's length, else to the vertex beyond;
- a vertex: n lies in its octant, else to the edge along the violated axis.
The walk starts from the feature of the region holding the ellipsoid's centre (exact for a
sphere at once: it is the nearest feature) and takes a few steps at most (``WALK_STEPS``). With
the centre inside the box the smallest face penetration is taken (separating axes of the box).

A bounded plane is a rectangle of zero thickness whose front face is the plane: inside the
rectangle the one-sided plane contact, and beyond its border the contact of its edges and
corners (rounded edges of a thin plate), so that an ellipsoid sliding over the border keeps a
continuous force that fades as it leaves (the edge's penetration goes to zero), where cutting
the force off at the border would jump. A cylinder (axis z, radius r, half-length L) has flat
ends (side: the axis line with d + r; caps: faces; rims: circles, ``support.rim_depth``) or
hemispherical ends (a capsule: the
penetration of the axis segment plus r, exactly, since a capsule is a segment swept by a ball).
A bounded plane's disc (radius r) is the cylinder's +z cap with no thickness, as the rectangle:
inside the disc the one-sided plane contact, beyond its circle the circle's contact.
A ring (a disc with a round hole of radius r_i about its axis, or the plate of one: a steering
wheel's rim, open where a real wheel is; ``ring_local``) is not convex, and is taken feature by
feature from where the ellipsoid lies: where the solid disc's (or plate's) contact is a face's
whose deepest point lies over the ring or beyond it, that contact (so that everything met on
the ring or past its outer edge is the disc's contact, unchanged); where that deepest point
falls in the hole, the hole's edge, the circle of radius r_i, met at its point deepest in the
ellipsoid (``_hole_edge``); and, for a plate, an ellipsoid whose centre lies in the hole
within the plate's thickness meets the hole's wall, the inner cylinder, pushed towards the
axis (``_hole_wall``). The circle's own support function is its disc's (``support.rim_depth``
would close the hole), so the edge is the deepest of its points, a maximum over the angle.
"""
import numpy as np
from numba import njit

from occupant.jit import JIT_INLINE, JIT_STAGE, nonliteral
from occupant.contact.geometry_pairs import point_in_link, to_base
from occupant.contact.support import face_depth, line_depth, rim_depth, rim_depth_from, vertex_depth
from occupant.forces.points import point_state

# At most this many features visited by the walk (a walk visits 3 at most in the tests: face,
# edge, vertex).
WALK_STEPS = 8
# Relative slack of the inside-the-face and within-the-edge tests (against rounding).
SLACK = 1e-12
# rad, the tilt from a cylinder's cap normal of the rim's second start (``_rim_or_face``) [E:
# small against the 0.5 rad step limit of its iterations, the kink's side taken at once]
FACE_TILT = 0.01


@njit(**JIT_STAGE)
def ellipsoid_in_b(data, el, e):
    """The ellipsoid a of pair e in the frame of geometry b: (Q (6), c (3)), and b's frame in
    B0: its axes w0, w1, w2 (3 each) and origin o (3)."""
    la, lb = el.link_a[e], el.link_b[e]
    R_a, R_b = el.R_a, el.R_b
    w0x, w0y, w0z = to_base(data, lb, R_b[e, 0, 0], R_b[e, 1, 0], R_b[e, 2, 0])
    w1x, w1y, w1z = to_base(data, lb, R_b[e, 0, 1], R_b[e, 1, 1], R_b[e, 2, 1])
    w2x, w2y, w2z = to_base(data, lb, R_b[e, 0, 2], R_b[e, 1, 2], R_b[e, 2, 2])
    ox, oy, oz, _, _, _ = point_state(data, lb, el.p_b[e, 0], el.p_b[e, 1], el.p_b[e, 2])
    cx, cy, cz, _, _, _ = point_state(data, la, el.p_a[e, 0], el.p_a[e, 1], el.p_a[e, 2])
    q00 = q01 = q02 = q11 = q12 = q22 = 0.0
    for j in range(3):
        gx, gy, gz = to_base(data, la, R_a[e, 0, j], R_a[e, 1, j], R_a[e, 2, j])
        l0 = w0x * gx + w0y * gy + w0z * gz
        l1 = w1x * gx + w1y * gy + w1z * gz
        l2 = w2x * gx + w2y * gy + w2z * gz
        a2 = el.size_a[e, j] ** 2
        q00 += a2 * l0 * l0
        q01 += a2 * l0 * l1
        q02 += a2 * l0 * l2
        q11 += a2 * l1 * l1
        q12 += a2 * l1 * l2
        q22 += a2 * l2 * l2
    dx, dy, dz = cx - ox, cy - oy, cz - oz
    return ((q00, q01, q02, q11, q12, q22),
            w0x * dx + w0y * dy + w0z * dz, w1x * dx + w1y * dy + w1z * dz,
            w2x * dx + w2y * dy + w2z * dz,
            (w0x, w0y, w0z), (w1x, w1y, w1z), (w2x, w2y, w2z), (ox, oy, oz))


@njit(**JIT_STAGE)
def finish(data, el, e, frame, d, nx, ny, nz, sx, sy, sz):
    """From the local penetration d, normal n and the ellipsoid's deepest point s: the tuple of
    ``ellipsoid_plane`` in B0, with the contact point midway between s and the deepest point of
    b, s + d n, and d' = n.(v_b(s + d n) - v_a(s)) (the envelope theorem at the optimum)."""
    w0, w1, w2, o = frame
    Nx = w0[0] * nx + w1[0] * ny + w2[0] * nz
    Ny = w0[1] * nx + w1[1] * ny + w2[1] * nz
    Nz = w0[2] * nx + w1[2] * ny + w2[2] * nz
    Sx = o[0] + w0[0] * sx + w1[0] * sy + w2[0] * sz
    Sy = o[1] + w0[1] * sx + w1[1] * sy + w2[1] * sz
    Sz = o[2] + w0[2] * sx + w1[2] * sy + w2[2] * sz
    la, lb = el.link_a[e], el.link_b[e]
    rx, ry, rz = point_in_link(data, la, Sx, Sy, Sz)
    _, _, _, vax, vay, vaz = point_state(data, la, rx, ry, rz)
    rx, ry, rz = point_in_link(data, lb, Sx + d * Nx, Sy + d * Ny, Sz + d * Nz)
    _, _, _, vbx, vby, vbz = point_state(data, lb, rx, ry, rz)
    d_rate = Nx * (vbx - vax) + Ny * (vby - vay) + Nz * (vbz - vaz)
    return (d, d_rate, Nx, Ny, Nz, Sx + 0.5 * d * Nx, Sy + 0.5 * d * Ny, Sz + 0.5 * d * Nz, True)


@njit(**JIT_STAGE)
def _axis(i):
    if i == 0:
        return 1.0, 0.0, 0.0
    if i == 1:
        return 0.0, 1.0, 0.0
    return 0.0, 0.0, 1.0


@njit(**JIT_STAGE)
def _sign(x):
    return 1 if x > 0.0 else -1


@njit(**JIT_INLINE)   # called with no constant (nonliteral): one compiled copy, not five
def _set(f, j, value):
    """The integer triple f with f[j] = value (tuples: no allocation)."""
    if j == 0:
        return (value, f[1], f[2])
    if j == 1:
        return (f[0], value, f[2])
    return (f[0], f[1], value)


@njit(**JIT_STAGE)
def box_local(Q, cx, cy, cz, e0, e1, e2, plate):
    """(d, n, s) of the ellipsoid (Q, c) against the box |x_i| <= e_i (``plate``: the rectangle
    z = 0, |x| <= e0, |y| <= e1, whose front is +z), by the feature walk of the module doc."""
    c = (cx, cy, cz)
    e = (e0, e1, e2)
    zero = nonliteral(0)
    f = (zero, zero, zero)          # the feature: signs of its fixed axes (0: free)
    for i in range(3):
        if abs(c[i]) > e[i]:
            f = _set(f, i, _sign(c[i]))
    if plate:
        f = _set(f, nonliteral(2), nonliteral(1))
    if f[0] == 0 and f[1] == 0 and f[2] == 0:
        # centre inside: the least face penetration (separating axes of the box)
        best, bn, bs = np.inf, (0.0, 0.0, 1.0), (cx, cy, cz)
        for i in range(3):
            for sg in (-1.0, 1.0):
                nx, ny, nz = _axis(i)
                nx, ny, nz = sg * nx, sg * ny, sg * nz
                d, sx, sy, sz = face_depth(Q, cx, cy, cz, nx, ny, nz, nx * e[i], ny * e[i], nz * e[i])
                if d < best:
                    best, bn, bs = d, (nx, ny, nz), (sx, sy, sz)
        return best, bn[0], bn[1], bn[2], bs[0], bs[1], bs[2]
    d, nx, ny, nz, sx, sy, sz = 0.0, 0.0, 0.0, 1.0, cx, cy, cz
    for _ in range(WALK_STEPS):
        k = abs(f[0]) + abs(f[1]) + abs(f[2])
        v0, v1, v2 = f[0] * e0, f[1] * e1, f[2] * e2       # a point of the feature
        moved = False
        if k == 1:                                         # face
            nx, ny, nz = float(f[0]), float(f[1]), float(f[2])
            d, sx, sy, sz = face_depth(Q, cx, cy, cz, nx, ny, nz, v0, v1, v2)
            s = (sx, sy, sz)
            for j in range(3):
                if f[j] == 0 and abs(s[j]) > e[j] * (1.0 + SLACK):
                    f = _set(f, j, _sign(s[j]))
                    moved = True
        elif k == 2:                                       # edge along the free axis
            free = 0 if f[0] == 0 else (1 if f[1] == 0 else 2)
            ux, uy, uz = _axis(free)
            d, nx, ny, nz, sx, sy, sz = line_depth(Q, cx, cy, cz, v0, v1, v2, ux, uy, uz)
            n, s = (nx, ny, nz), (sx, sy, sz)
            for j in range(3):
                if f[j] != 0 and n[j] * f[j] < 0.0 and not (plate and j == 2):
                    f = _set(f, j, nonliteral(0))
                    moved = True
                    break
            if not moved and abs(s[free]) > e[free] * (1.0 + SLACK):
                f = _set(f, free, _sign(s[free]))
                moved = True
        else:                                              # vertex
            d, nx, ny, nz, sx, sy, sz = vertex_depth(Q, cx, cy, cz, v0, v1, v2)
            n = (nx, ny, nz)
            for j in range(3):
                if n[j] * f[j] < 0.0 and not (plate and j == 2):
                    f = _set(f, j, nonliteral(0))
                    moved = True
                    break
        if not moved:
            break
    return d, nx, ny, nz, sx, sy, sz


@njit(**JIT_STAGE)
def cylinder_local(Q, cx, cy, cz, r, half, round_ends, disc):
    """(d, n, s) of the ellipsoid (Q, c) against the cylinder of axis z, radius r and
    half-length ``half``: a capsule with ``round_ends``, else flat ends (module doc); ``disc``:
    the disc z = 0, radius r, whose front is +z (a bounded plane's, ``half`` unused)."""
    if disc:
        # the face wherever the ellipsoid's deepest point along -z lies within the circle (a
        # sphere: its centre within it), else the circle (the walk of ``box_local``'s plate)
        d, sx, sy, sz = face_depth(Q, cx, cy, cz, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0)
        if sx * sx + sy * sy <= (r * (1.0 + SLACK)) ** 2:
            return d, 0.0, 0.0, 1.0, sx, sy, sz
        return _rim_or_face(Q, cx, cy, cz, 0.0, r, d, 1.0, sx, sy, sz)
    if round_ends:
        d, nx, ny, nz, sx, sy, sz = line_depth(Q, cx, cy, cz, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
        if abs(sz) > half:
            d, nx, ny, nz, sx, sy, sz = vertex_depth(Q, cx, cy, cz, 0.0, 0.0, _sign(sz) * half)
        return d + r, nx, ny, nz, sx, sy, sz
    radial = np.sqrt(cx * cx + cy * cy)
    side = radial > r
    end = _sign(cz) if abs(cz) > half else 0
    if not side and end == 0:
        # centre inside: the least of the side's and the caps' penetrations
        d, nx, ny, nz, sx, sy, sz = line_depth(Q, cx, cy, cz, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
        d += r
        for sg in (-1.0, 1.0):
            dc, tx, ty, tz = face_depth(Q, cx, cy, cz, 0.0, 0.0, sg, 0.0, 0.0, sg * half)
            if dc < d:
                d, nx, ny, nz, sx, sy, sz = dc, 0.0, 0.0, sg, tx, ty, tz
        return d, nx, ny, nz, sx, sy, sz
    # centre outside: the cap, the side or else the rim, whichever is consistent (the walk of
    # the module doc, the cap and side tested first since they are cheap)
    face, fx, fy, fz = np.inf, 0.0, 0.0, 0.0
    if end != 0:
        face, fx, fy, fz = face_depth(Q, cx, cy, cz, 0.0, 0.0, float(end), 0.0, 0.0, end * half)
        if fx * fx + fy * fy <= (r * (1.0 + SLACK)) ** 2:
            return face, 0.0, 0.0, float(end), fx, fy, fz
    if side:
        d, nx, ny, nz, sx, sy, sz = line_depth(Q, cx, cy, cz, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
        if abs(sz) <= half * (1.0 + SLACK):
            return d + r, nx, ny, nz, sx, sy, sz
        if end == 0:
            end = _sign(sz)
    return _rim_or_face(Q, cx, cy, cz, end * half, r, face, float(end), fx, fy, fz)


@njit(**JIT_STAGE)
def _rim_or_face(Q, cx, cy, cz, z, r, face, nz, fx, fy, fz):
    """The rim circle's (d, n, s) at height z (``support.rim_depth``), or the cap's face (normal
    (0, 0, nz), penetration ``face``, deepest point f) where that is less: all are values of
    the function the rim's minimises, so the least is the nearest its minimum. That function
    has a cone's kink at the face normal, and the rim's iterations from their start (the
    direction from the circle's point nearest c) stall on its far side when the ellipsoid's
    centre lies within the circle and its deepest point beyond it: as that point crossed a
    wheel's disc, 9 mm deep, they gave 23-103 mm (US NCAP's hands, branch roundrim). So they
    are run again from the face normal tilted FACE_TILT towards f, the side of the minimum."""
    d, nx, ny, n_z, sx, sy, sz = rim_depth(Q, cx, cy, cz, 0.0, 0.0, z, r)
    rho = np.sqrt(fx * fx + fy * fy)
    if face < np.inf and rho > 0.0:     # again from the face normal tilted towards f
        t = np.sin(FACE_TILT) / rho
        e, mx, my, mz, tx, ty, tz = rim_depth_from(Q, cx, cy, cz, 0.0, 0.0, z, r, t * fx,
                                                   t * fy, nz * np.cos(FACE_TILT))
        if e < d:
            d, nx, ny, n_z, sx, sy, sz = e, mx, my, mz, tx, ty, tz
    if face < d:
        return face, 0.0, 0.0, nz, fx, fy, fz
    return d, nx, ny, n_z, sx, sy, sz


# Secant iterations at most over the hole edge's angle (``_hole_edge``), from the angle of the
# ellipsoid's centre (exact at once for a sphere); EDGE_START rad its first step [E: small
# against the 0.5 rad step limit]; an angular slope below EDGE_TOL m/rad ends them.
EDGE_ITERATIONS = 8
EDGE_START = 0.01
EDGE_TOL = 1e-12


@njit(**JIT_STAGE)
def _edge_point(Q, cx, cy, cz, ri, z, phi):
    """``support.vertex_depth`` of the hole edge's point at angle phi (d, n, s) and its slope
    dd/dphi = n . dv/dphi (the envelope theorem: d(v) = min_n h(n) - n.(c - v))."""
    co, si = np.cos(phi), np.sin(phi)
    d, nx, ny, nz, sx, sy, sz = vertex_depth(Q, cx, cy, cz, ri * co, ri * si, z)
    return d, nx, ny, nz, sx, sy, sz, ri * (ny * co - nx * si)


@njit(**JIT_STAGE)
def _hole_edge(Q, cx, cy, cz, ri, z):
    """(d, n, s) of the ellipsoid (Q, c) against the circle of radius ri about the z axis at
    height z (a ring's hole edge): the circle's point deepest in the ellipsoid, the maximum of
    its vertex depth over the angle, by secant iterations on the slope from the angle of c (a
    sphere: the circle's point nearest its centre, d = radius - that distance); the deepest
    point met is kept."""
    a = np.arctan2(cy, cx) if (cx != 0.0 or cy != 0.0) else 0.0
    d, nx, ny, nz, sx, sy, sz, ga = _edge_point(Q, cx, cy, cz, ri, z, a)
    if abs(ga) <= EDGE_TOL:
        return d, nx, ny, nz, sx, sy, sz
    b = a + (EDGE_START if ga > 0.0 else -EDGE_START)
    for _ in range(EDGE_ITERATIONS):
        db, mx, my, mz, tx, ty, tz, gb = _edge_point(Q, cx, cy, cz, ri, z, b)
        if db > d:
            d, nx, ny, nz, sx, sy, sz = db, mx, my, mz, tx, ty, tz
        if abs(gb) <= EDGE_TOL or gb == ga:
            break
        step = -gb * (b - a) / (gb - ga)
        step = min(max(step, -0.5), 0.5)
        a, ga, b = b, gb, b + step
    return d, nx, ny, nz, sx, sy, sz


@njit(**JIT_STAGE)
def _hole_wall(Q, cx, cy, cz, ri, rho):
    """(d, n, s) of the ellipsoid (Q, c) whose centre lies in a ring plate's hole (rho from the
    axis) against the hole's wall, the cylinder of radius ri: pushed towards the axis along
    n = -u, u the radial direction of c, by its reach past the wall along u,
    d = h(u) + rho - ri (exact for a sphere; for an ellipsoid the wall's curvature, 1 / ri,
    is not taken into account along the other directions)."""
    if rho > 0.0:
        ux, uy = cx / rho, cy / rho
    else:
        ux, uy = 1.0, 0.0
    d, sx, sy, sz = face_depth(Q, cx, cy, cz, -ux, -uy, 0.0, ri * ux, ri * uy, 0.0)
    return d, -ux, -uy, 0.0, sx, sy, sz


@njit(**JIT_STAGE)
def ring_local(Q, cx, cy, cz, r, ri, half):
    """(d, n, s) of the ellipsoid (Q, c) against the ring ri <= |x_xy| <= r: ``half`` 0, the
    ring z = 0 whose front is +z (a bounded plane's, as the disc of ``cylinder_local``), else
    the ring plate |z| <= half (the module doc)."""
    thin = half <= 0.0
    rho = np.sqrt(cx * cx + cy * cy)
    if rho >= ri:
        # the solid disc's or plate's contact unless a face's falls in the hole
        d, nx, ny, nz, sx, sy, sz = cylinder_local(Q, cx, cy, cz, r, half, False, thin)
        if nx == 0.0 and ny == 0.0 and sx * sx + sy * sy < ri * ri:
            d, nx, ny, nz, sx, sy, sz = _hole_edge(Q, cx, cy, cz, ri, 0.0 if thin else nz * half)
        if not thin and abs(cz) <= half and rho <= r:     # centre inside the plate: the wall too
            dw, wx, wy, wz, tx, ty, tz = _hole_wall(Q, cx, cy, cz, ri, rho)
            if dw < d:
                return dw, wx, wy, wz, tx, ty, tz
        return d, nx, ny, nz, sx, sy, sz
    # centre over the hole
    if not thin and abs(cz) <= half:          # within the plate's thickness: the wall or its edge
        d, nx, ny, nz, sx, sy, sz = _hole_wall(Q, cx, cy, cz, ri, rho)
        if abs(sz) <= half * (1.0 + SLACK):
            return d, nx, ny, nz, sx, sy, sz
        return _hole_edge(Q, cx, cy, cz, ri, _sign(sz) * half)
    end = 1.0 if thin else float(_sign(cz))
    z = 0.0 if thin else end * half
    d, sx, sy, sz = face_depth(Q, cx, cy, cz, 0.0, 0.0, end, 0.0, 0.0, z)
    radial = sx * sx + sy * sy
    if radial < ri * ri:
        return _hole_edge(Q, cx, cy, cz, ri, z)
    if radial <= (r * (1.0 + SLACK)) ** 2:
        return d, 0.0, 0.0, end, sx, sy, sz
    return _rim_or_face(Q, cx, cy, cz, z, r, d, end, sx, sy, sz)


@njit(**JIT_STAGE)
def ellipsoid_box(data, el, e):
    """Pair e, ellipsoid against a box (half extents size_b) or, with size_b[2] < 0, against
    the rectangle of a bounded plane (half sizes size_b[0:2]): the tuple of ``ellipsoid_plane``."""
    Q, cx, cy, cz, w0, w1, w2, o = ellipsoid_in_b(data, el, e)
    plate = el.size_b[e, 2] < 0.0
    d, nx, ny, nz, sx, sy, sz = box_local(Q, cx, cy, cz, el.size_b[e, 0], el.size_b[e, 1],
                                          max(el.size_b[e, 2], 0.0), plate)
    return finish(data, el, e, (w0, w1, w2, o), d, nx, ny, nz, sx, sy, sz)


@njit(**JIT_STAGE)
def ellipsoid_cylinder(data, el, e):
    """Pair e, ellipsoid against a cylinder (size_b: radius, half-length, 1 for round ends) or,
    with size_b[2] < 0, against the disc of a bounded plane (radius size_b[0]), or with
    size_b[2] = 2 + inner radius / radius, against a bounded plane's ring (half-length 0) or
    ring plate (``ring_local``)."""
    Q, cx, cy, cz, w0, w1, w2, o = ellipsoid_in_b(data, el, e)
    r, half, flag = el.size_b[e, 0], el.size_b[e, 1], el.size_b[e, 2]
    if flag > 1.5:
        d, nx, ny, nz, sx, sy, sz = ring_local(Q, cx, cy, cz, r, (flag - 2.0) * r, half)
    else:
        d, nx, ny, nz, sx, sy, sz = cylinder_local(Q, cx, cy, cz, r, half, flag > 0.5,
                                                   flag < -0.5)
    return finish(data, el, e, (w0, w1, w2, o), d, nx, ny, nz, sx, sy, sz)
