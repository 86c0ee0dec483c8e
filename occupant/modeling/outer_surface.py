"""Where a belt fitted at a point of a body lies: on the body's outer surface there.

A body's contact surface is the union of its part's ellipsoids (a human's thorax with a shoulder
shell on it: ``human.builder.shoulder_shells``). A wrap fitted at a point of one of them
(``modeling.belts.Wrap.at``) where another ellipsoid of the same part stands over it would lie
inside the body's surface: GS1's shoulder belt fitted at mid-clavicle on the thorax lay 31 mm
inside the shoulder shell, on no surface of the shoulder, held there only by friction
(scenarios/validation/HISTORY.md, GS1). ``outer_place`` carries the fitted point out along the
surface's normal until it leaves every ellipsoid of the part, and names the ellipsoid it leaves
last: the surface the belt lies on there, and the point on it."""
import numpy as np

from occupant.modeling.geometry import Ellipsoid, Sphere, placement


def placed_ellipsoid(asm, name):
    """(part, centre, axes (columns: the ellipsoid's axes in the part frame), semi-axes) of the
    Ellipsoid or Sphere ``name`` on a part, or None for another geometry or one fixed to the
    vehicle."""
    g = asm.geometries[name]
    if isinstance(g, Ellipsoid):
        size = g.semi_axes
    elif isinstance(g, Sphere):
        size = (g.radius,) * 3
    else:   # (a cylinder or a disc-bounded plane has a radius too: by type, not by attribute)
        return None
    if g.marker is None:
        return None
    m = asm.markers[g.marker]
    R_m = np.eye(3) if m.rotation is None else np.asarray(m.rotation, float)
    R, p = placement(g)
    return m.part, R_m @ p + np.asarray(m.position, float), R_m @ R, np.asarray(size, float)


def _exit(x, n, c, R, D):
    """The distance t >= 0 along the unit direction n (part frame) at which the point x leaves
    the ellipsoid (centre c, axes R, semi-axes D), or None when x lies outside it."""
    p, d = R.T @ (x - c) / D, R.T @ n / D
    if p @ p >= 1.0:
        return None
    a, b, q = d @ d, p @ d, p @ p - 1.0
    return (-b + np.sqrt(b * b - a * q)) / a


def outer_place(asm, geometry, point):
    """(ellipsoid name, point in its frame, m) where a belt fitted at ``point`` (the frame of the
    ellipsoid ``geometry``, m: taken to its surface along the ray from its centre, as
    ``Wrap.at``) lies on the outer surface of the body, the union of the ellipsoids of
    ``geometry``'s part: from the point on ``geometry`` along its outward normal, out of each
    ellipsoid of the part that holds it, in turn; the last one left is the surface (``geometry``
    itself when no other stands over the point)."""
    part, c, R, D = placed_ellipsoid(asm, geometry)
    u = np.asarray(point, float) / D
    local = D * u / np.linalg.norm(u)
    x = c + R @ local
    n = R @ (local / D ** 2)
    n /= np.linalg.norm(n)
    others = {k: f for k in asm.geometries if k != geometry
              and (f := placed_ellipsoid(asm, k)) is not None and f[0] == part}
    name = geometry
    for _ in range(len(others)):
        step = {k: t for k, (_, ck, Rk, Dk) in others.items()
                if k != name and (t := _exit(x, n, ck, Rk, Dk)) is not None}
        if not step:
            break
        name = max(step, key=step.get)
        x = x + step[name] * n
    _, ck, Rk, _ = others.get(name, (part, c, R, D))
    return name, Rk.T @ (x - ck)


def plane_in(asm, geometry, other, plane):
    """The plane ``plane`` ((n_x, n_y, n_z, d): n . x >= d in the frame of the ellipsoid
    ``geometry``) in the frame of the ellipsoid ``other`` of the same part (a fixed change of
    frame: x = R^T (R_o x_o + c_o - c), so (R_o^T R n) . x_o >= d - (R n) . (c_o - c))."""
    _, c, R, _ = placed_ellipsoid(asm, geometry)
    _, co, Ro, _ = placed_ellipsoid(asm, other)
    n = R @ np.asarray(plane[:3], float)
    return (*(Ro.T @ n), float(plane[3]) - float(n @ (co - c)))
