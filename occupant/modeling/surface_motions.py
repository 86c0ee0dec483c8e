"""Prescribed motion of surfaces fixed to the vehicle (a door's inner panel pushed in by the
barrier in a side impact: MADYMO and ATB side models give the door a velocity-time profile
relative to the vehicle, measured at the door in a full-scale test, or, as MADYMO's prescribed
motion of a vehicle-fixed system, a translation and an orientation history: the door turning
about its hinge line as it translates; a toe pan, or a steering column pushed rearward and
tilted up, likewise).

``SurfaceMotion``: the geometries ``geometries`` fixed to B0 (planes, boxes, cylinders, spheres,
ellipsoids, meshes: any shape) move together along the unit ``direction`` (B0) with the
velocity ``velocity`` rows (t s, v m/s) relative to B0: at rest before the first row, linear
between rows, the last velocity kept after the last row (end the table with 0 to stop the
part). Their displacement, the integral of that velocity, is exact (piecewise quadratic).
Geometries on a marker (an interior's hinged part) move so relative to it, the direction and
the axis given in that marker's frame (``compile_contacts``).
Optionally they also turn about the axis through ``axis_point`` (m, B0) along the unit ``axis``
(B0, right-handed) with the ``angular_velocity`` rows (t s, omega rad/s), read as the velocity
rows are (their integral the angle theta(t), exact). The rotation is about the axis where it
stands in B0, then the translation: a point p of the shape is at
R(theta) (p - a) + a + s u, its velocity relative to B0 omega k x (x - a - s u) + s' u. Without
``angular_velocity`` a motion translates only (``velocity`` then required); without
``velocity`` it turns only. One mechanism for every shape: the frame (R_b, p_b) each compiled
pair places its geometry b by is moved so, so the contacts with them see the moved shape and
its velocity (``occupant.contact.compliant``); the work their contact forces do through this
motion is the ``motions`` slot of Results.work (the work of prescribed motions).
"""
from dataclasses import dataclass

import numpy as np
from numba import njit

from occupant.jit import JIT_INLINE
from occupant.modeling.elements import ModelingError


@dataclass
class SurfaceMotion:
    name: str
    geometries: tuple                # names of geometries on B0 or on one marker, any shape
    direction: tuple = (0.0, 1.0, 0.0)    # B0, normalised
    velocity: np.ndarray = None      # (n, 2) rows (t s, v m/s), t strictly increasing from >= 0
    axis_point: tuple = (0.0, 0.0, 0.0)   # m, B0: a point of the rotation axis
    axis: tuple = (0.0, 0.0, 1.0)    # B0, normalised: the rotation axis (right-handed)
    angular_velocity: np.ndarray = None   # (n, 2) rows (t s, omega rad/s); None: no rotation

    def __post_init__(self):
        what = f"surface motion '{self.name}'"
        if isinstance(self.geometries, str) or not len(self.geometries):
            raise ModelingError(f"{what}.geometries: expected a list of geometry names, got "
                                f"{self.geometries!r}")
        self.geometries = tuple(self.geometries)
        if len(set(self.geometries)) != len(self.geometries):
            raise ModelingError(f"{what}.geometries: a geometry is named twice in "
                                f"{self.geometries!r}")
        self.direction = _vector(what, "direction", self.direction, unit=True)
        if self.velocity is None and self.angular_velocity is not None:
            self.velocity = [[0.0, 0.0]]               # turns only
        self.velocity = _rows(what, "velocity", self.velocity, "v m/s")
        if self.angular_velocity is not None:
            self.axis_point = _vector(what, "axis_point", self.axis_point, unit=False)
            self.axis = _vector(what, "axis", self.axis, unit=True)
            self.angular_velocity = _rows(what, "angular_velocity", self.angular_velocity,
                                          "omega rad/s")

    @property
    def turns(self):
        """Whether it rotates (an ``angular_velocity`` profile)."""
        return self.angular_velocity is not None

    @property
    def refs(self):
        return {f"geometries[{k}].geometry": g for k, g in enumerate(self.geometries)}

    @property
    def knots(self):
        """(n, 3) rows (t s, v m/s, displacement m at t): what ``translation_at`` reads."""
        return _knots(self.velocity)

    @property
    def spin_knots(self):
        """(n, 3) rows (t s, omega rad/s, angle rad at t) of the rotation (0 rows: none)."""
        return _knots(self.angular_velocity) if self.turns else np.zeros((0, 3))

    def __call__(self, t):
        """(displacement m, velocity m/s) at the times ``t`` (arrays of t's shape)."""
        return _profile(self.knots, t)

    def angle(self, t):
        """(angle rad, angular velocity rad/s) at the times ``t`` (0 without a rotation)."""
        if not self.turns:
            t = np.asarray(t, dtype=float)
            return np.zeros(t.shape), np.zeros(t.shape)
        return _profile(self.spin_knots, t)

    def poses(self, t):
        """(n, 4, 4) the rigid motion in B0 at the times ``t`` (n,): x -> R x + c with
        R = R(theta) about ``axis`` and c = a - R a + s u (a = ``axis_point``)."""
        t = np.atleast_1d(np.asarray(t, dtype=float))
        s, _ = self(t)
        theta, _ = self.angle(t)
        X = np.zeros((len(t), 4, 4))
        X[:, 3, 3] = 1.0
        for i, th in enumerate(theta):
            R = rotation_about(self.axis, th)
            X[i, :3, :3] = R
            X[i, :3, 3] = (self.axis_point - R @ self.axis_point if self.turns else 0.0) \
                + s[i] * self.direction
        return X


def _vector(what, field, value, unit):
    """``value`` as a finite 3-vector (B0, or its marker's frame); with ``unit`` non-zero and
    normalised (a direction), else as given (a point, m)."""
    v = np.asarray(value, dtype=float)
    if v.shape != (3,) or not np.all(np.isfinite(v)) or (unit and not np.linalg.norm(v) > 0.0):
        raise ModelingError(f"{what}.{field}: expected a {'non-zero ' if unit else ''}finite "
                            f"3-vector ({'B0' if unit else 'm, B0'}), got {value!r}")
    return v / np.linalg.norm(v) if unit else v


def _rows(what, field, rows, column):
    v = np.asarray(rows if rows is not None else [], dtype=float)
    if v.ndim != 2 or v.shape[1] != 2 or len(v) < 1 or not np.all(np.isfinite(v)):
        raise ModelingError(f"{what}.{field}: expected rows [t s, {column}] of finite numbers, "
                            f"got {rows!r}")
    if v[0, 0] < 0.0 or np.any(np.diff(v[:, 0]) <= 0.0):
        raise ModelingError(f"{what}.{field}: times must start at 0 or later and increase "
                            f"strictly, got {v[:, 0].tolist()}")
    return v


def _knots(rows):
    t, v = rows[:, 0], rows[:, 1]
    s = np.concatenate([[0.0], np.cumsum(0.5 * (v[1:] + v[:-1]) * np.diff(t))])
    return np.column_stack([t, v, s])


def _profile(knots, t):
    t = np.asarray(t, dtype=float)
    out = [translation_at(knots, 0, len(knots), x) for x in t.ravel()]
    return tuple(np.array([o[k] for o in out]).reshape(t.shape) for k in range(2))


def rotation_about(k, angle):
    """(3, 3) the rotation by ``angle`` (rad) about the unit axis ``k`` (Rodrigues)."""
    c, s = np.cos(angle), np.sin(angle)
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + s * K + (1.0 - c) * (K @ K)


@njit(**JIT_INLINE)
def translation_at(table, start, n, t):
    """(displacement, velocity) at t of the ``SurfaceMotion.knots`` rows start..start + n of
    ``table``: 0 before the first row, the velocity linear between rows (its integral exact),
    the last velocity kept after the last row."""
    if t < table[start, 0]:
        return 0.0, 0.0
    i = start
    while i + 1 < start + n and table[i + 1, 0] <= t:
        i += 1
    dt = t - table[i, 0]
    if i + 1 == start + n:
        return table[i, 2] + table[i, 1] * dt, table[i, 1]
    slope = (table[i + 1, 1] - table[i, 1]) / (table[i + 1, 0] - table[i, 0])
    return table[i, 2] + dt * (table[i, 1] + 0.5 * slope * dt), table[i, 1] + slope * dt
