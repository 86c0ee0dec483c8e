"""Points of links for the force producers: their position and velocity in B0 from the kinematics
stage, and a force at a point added to the link's external spatial force ``data.f_ext``.
Link -1 is B0 itself (the vehicle, whose motion is prescribed: forces on it are not applied).
``line_between`` gives the line of a two-point element (spring-damper, muscle)."""
from collections import namedtuple

import numpy as np
from numba import njit

from occupant.jit import JIT_INLINE, JIT_STAGE

# What the point routines below (and the contact geometry routines) read of Data: the producers
# hand them this view, not Data's ~30 arrays (each array a compiled call passes is ~7 scalar
# arguments, and the cost of compiling a call grows with them).
PointData = namedtuple("PointData", ["base", "R_base_link", "p_base_link", "v", "f_ext"])


@njit(**JIT_INLINE)
def point_data(data):
    """``data``'s view for the point and geometry routines (``data`` itself works as well)."""
    return PointData(data.base, data.R_base_link, data.p_base_link, data.v, data.f_ext)


@njit(**JIT_STAGE)
def point_state(data, link, rx, ry, rz):
    """(position (3), velocity (3)) in B0 coordinates of the point r (link frame) of ``link``;
    velocities are absolute (B0's own motion included), as data.v."""
    if link < 0:
        w0, w1, w2 = data.base[0], data.base[1], data.base[2]
        vx = data.base[3] + w1 * rz - w2 * ry
        vy = data.base[4] + w2 * rx - w0 * rz
        vz = data.base[5] + w0 * ry - w1 * rx
        return rx, ry, rz, vx, vy, vz
    R, p, vel = data.R_base_link, data.p_base_link, data.v
    w0, w1, w2 = vel[link, 0], vel[link, 1], vel[link, 2]
    lx = vel[link, 3] + w1 * rz - w2 * ry     # point velocity in link axes
    ly = vel[link, 4] + w2 * rx - w0 * rz
    lz = vel[link, 5] + w0 * ry - w1 * rx
    px = p[link, 0] + R[link, 0, 0] * rx + R[link, 0, 1] * ry + R[link, 0, 2] * rz
    py = p[link, 1] + R[link, 1, 0] * rx + R[link, 1, 1] * ry + R[link, 1, 2] * rz
    pz = p[link, 2] + R[link, 2, 0] * rx + R[link, 2, 1] * ry + R[link, 2, 2] * rz
    vx = R[link, 0, 0] * lx + R[link, 0, 1] * ly + R[link, 0, 2] * lz
    vy = R[link, 1, 0] * lx + R[link, 1, 1] * ly + R[link, 1, 2] * lz
    vz = R[link, 2, 0] * lx + R[link, 2, 1] * ly + R[link, 2, 2] * lz
    return px, py, pz, vx, vy, vz


@njit(**JIT_STAGE)
def add_point_force(data, link, rx, ry, rz, fx, fy, fz):
    """Add the force (fx, fy, fz) (N, B0 coordinates) acting at the point r (link frame) of
    ``link`` to data.f_ext[link] (moment about the link origin, force; link coordinates)."""
    if link < 0:
        return
    R = data.R_base_link
    gx = R[link, 0, 0] * fx + R[link, 1, 0] * fy + R[link, 2, 0] * fz   # R^T f
    gy = R[link, 0, 1] * fx + R[link, 1, 1] * fy + R[link, 2, 1] * fz
    gz = R[link, 0, 2] * fx + R[link, 1, 2] * fy + R[link, 2, 2] * fz
    f = data.f_ext
    f[link, 0] += ry * gz - rz * gy
    f[link, 1] += rz * gx - rx * gz
    f[link, 2] += rx * gy - ry * gx
    f[link, 3] += gx
    f[link, 4] += gy
    f[link, 5] += gz


@njit(**JIT_INLINE)
def add_force_pair(data, la, rax, ray, raz, vax, vay, vaz, lb, rbx, rby, rbz, vbx, vby, vbz,
                   fx, fy, fz):
    """The force f (B0 coordinates) on the point r_a of link la and -f on the point r_b of lb
    (an element between two bodies, or a body and B0); returns their power on the tree from the
    points' absolute velocities v_a, v_b (a force on B0 does no work on the tree)."""
    add_point_force(data, la, rax, ray, raz, fx, fy, fz)
    add_point_force(data, lb, rbx, rby, rbz, -fx, -fy, -fz)
    power = 0.0
    if la >= 0:
        power += fx * vax + fy * vay + fz * vaz
    if lb >= 0:
        power -= fx * vbx + fy * vby + fz * vbz
    return power


@njit(**JIT_STAGE)
def line_between(data, la, ra, lb, rb):
    """The line of an element from the point ``ra`` (3,) of link ``la`` to ``rb`` of ``lb``:
    (length, its rate, the unit vector u from a to b (zero at zero length), the velocities of
    a and b), B0 coordinates."""
    ax, ay, az, vax, vay, vaz = point_state(data, la, ra[0], ra[1], ra[2])
    bx, by, bz, vbx, vby, vbz = point_state(data, lb, rb[0], rb[1], rb[2])
    dx, dy, dz = bx - ax, by - ay, bz - az
    length = np.sqrt(dx * dx + dy * dy + dz * dz)
    ux, uy, uz = 0.0, 0.0, 0.0
    if length > 0.0:
        ux, uy, uz = dx / length, dy / length, dz / length
    rate = ux * (vbx - vax) + uy * (vby - vay) + uz * (vbz - vaz)
    return length, rate, ux, uy, uz, vax, vay, vaz, vbx, vby, vbz
