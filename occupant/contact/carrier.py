"""Contact surfaces carried by a deformable front: an ellipsoid of a part whose front is another
part on a prismatic joint (the dummy's thorax with its sternum on the chest-deflection joint).

A load on the front must pass through the joint's spring, as a real chest's does: the contact is
found on the undeformed ellipsoid, then, when its force pushes the carrier back (n . z_c < 0,
z_c the joint's axis, the carrier link's z), moved by the carrier's travel t (B0) and applied to
the carrier: d -> d - n . t, d' -> d' - n . t' (t' = v_carrier - v_link at any point: the
prismatic joint adds no rotation), the contact point moved by t / 2 (midway between the moved
surface and the other body). At n . z_c = 0 the correction n . t vanishes (t lies along z_c), so
the depth is continuous where the load leaves the carrier for the rigid part. The belt's chest
wrap is carried in the same way (``occupant.restraints.belt``).

A contact patch (an airbag's) need not lie on the carrier whole: only the share over the
deformable front (a ribcage's front, not the shoulders beside and above it) loads the carrier.
``carried_share`` takes the patch as a disk of radius rho in the plane of the front's outline (the
y-z semi-axes (w, h) of a front ellipsoid on the carrier, its x axis along the joint) and gives
the fraction of the disk within |y| <= w times that within |z| <= h: a disk's fraction within a
band of half-width w about u (u, w in units of rho) is G((w - u)) - G((-w - u)),
G(s) = (asin s + s sqrt(1 - s^2)) / pi on [-1, 1] (the area of a circular segment over pi);
exact for a band, the product an approximation for the rectangle's corners [E].
"""
import numpy as np
from numba import njit

from occupant.jit import JIT_INLINE, JIT_STAGE
from occupant.contact.geometry_pairs import point_in_link
from occupant.forces.points import point_state


@njit(**JIT_INLINE)
def carrier_travel(data, link, carrier, r):
    """Travel (B0) of the carrier link's origin from its rest place r in the frame of link."""
    R, p = data.R_base_link, data.p_base_link
    return (p[carrier, 0] - p[link, 0] - R[link, 0, 0] * r[0] - R[link, 0, 1] * r[1] - R[link, 0, 2] * r[2],
            p[carrier, 1] - p[link, 1] - R[link, 1, 0] * r[0] - R[link, 1, 1] * r[1] - R[link, 1, 2] * r[2],
            p[carrier, 2] - p[link, 2] - R[link, 2, 0] * r[0] - R[link, 2, 1] * r[1] - R[link, 2, 2] * r[2])


@njit(**JIT_INLINE)
def _segment(s):
    """G(s): the fraction of the unit disk's area below the chord at s (clipped to [-1, 1]),
    minus one half."""
    s = min(max(s, -1.0), 1.0)
    return (np.arcsin(s) + s * np.sqrt(1.0 - s * s)) / np.pi


@njit(**JIT_INLINE)
def band_share(u, w, rho):
    """The fraction of a disk of radius rho centred at u within the band |y| <= w (a point,
    rho = 0: 1 inside, 0 outside)."""
    if rho <= 0.0:
        return 1.0 if abs(u) <= w else 0.0
    return _segment((w - u) / rho) - _segment((-w - u) / rho)


@njit(**JIT_INLINE)
def carried_share(data, carrier, R_f, p_f, w, h, cx, cy, cz, rho):
    """The share of a contact patch (disk of radius rho centred at the B0 point c) over the front
    of ``carrier``: its outline the rectangle |y| <= w, |z| <= h of the front's axes R_f
    (columns, in the carrier's frame) about p_f (module docstring)."""
    x, y, z = point_in_link(data, carrier, cx, cy, cz)
    x, y, z = x - p_f[0], y - p_f[1], z - p_f[2]
    u = R_f[0, 1] * x + R_f[1, 1] * y + R_f[2, 1] * z
    v = R_f[0, 2] * x + R_f[1, 2] * y + R_f[2, 2] * z
    return band_share(u, w, rho) * band_share(v, h, rho)


@njit(**JIT_INLINE)
def bearer(data, link, carrier, nx, ny, nz):
    """The link a force along n on ``link``'s carried ellipsoid acts on: the carrier when it
    pushes the carrier back (n . z_c < 0), else ``link``."""
    if carrier == link:
        return link
    R = data.R_base_link
    if nx * R[carrier, 0, 2] + ny * R[carrier, 1, 2] + nz * R[carrier, 2, 2] >= 0.0:
        return link
    return carrier


@njit(**JIT_STAGE)
def carried(data, link, carrier, r, d, d_rate, nx, ny, nz, cx, cy, cz):
    """A contact (d, d', normal n of the force on ``link``'s ellipsoid, contact point c, B0) found
    on the undeformed ellipsoid of ``link``, carried by ``carrier`` (rest origin r in link's
    frame; ``carrier == link``: none): (link the force acts on, d, d', c)."""
    if bearer(data, link, carrier, nx, ny, nz) == link:
        return link, d, d_rate, cx, cy, cz
    tx, ty, tz = carrier_travel(data, link, carrier, r)
    cx, cy, cz = cx + 0.5 * tx, cy + 0.5 * ty, cz + 0.5 * tz
    rx, ry, rz = point_in_link(data, link, cx, cy, cz)
    _, _, _, vax, vay, vaz = point_state(data, link, rx, ry, rz)
    rx, ry, rz = point_in_link(data, carrier, cx, cy, cz)
    _, _, _, vcx, vcy, vcz = point_state(data, carrier, rx, ry, rz)
    return (carrier, d - (nx * tx + ny * ty + nz * tz),
            d_rate - (nx * (vcx - vax) + ny * (vcy - vay) + nz * (vcz - vaz)), cx, cy, cz)
