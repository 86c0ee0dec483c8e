"""Prescribed translation of surfaces fixed to the vehicle (a door's inner panel pushed in by the
barrier in a side impact: MADYMO and ATB side models give the door a velocity-time profile
relative to the vehicle, measured at the door in a full-scale test; a toe pan, or a steering
column pushed rearward, likewise).

``SurfaceMotion``: the geometries ``geometries`` fixed to B0 (planes, boxes, cylinders, spheres,
ellipsoids, meshes: any shape) move together along the unit ``direction`` (B0) with the
velocity ``velocity`` rows (t s, v m/s) relative to B0: at rest before the first row, linear
between rows, the last velocity kept after the last row (end the table with 0 to stop the
part). Their displacement, the integral of that velocity, is exact (piecewise quadratic). One
mechanism for every shape: the origin p_b of the frame each compiled pair places its geometry
b by is translated, so the contacts with them see the moved shape and its velocity
(``occupant.contact.compliant``); the work their contact forces do through this motion is the
``motions`` slot of Results.work (the work of prescribed motions).
"""
from dataclasses import dataclass

import numpy as np
from numba import njit

from occupant.jit import JIT_INLINE
from occupant.modeling.elements import ModelingError


@dataclass
class SurfaceMotion:
    name: str
    geometries: tuple                # names of geometries fixed to B0 (marker None), any shape
    direction: tuple = (0.0, 1.0, 0.0)    # B0, normalised
    velocity: np.ndarray = None      # (n, 2) rows (t s, v m/s), t strictly increasing from >= 0

    def __post_init__(self):
        what = f"surface motion '{self.name}'"
        if isinstance(self.geometries, str) or not len(self.geometries):
            raise ModelingError(f"{what}.geometries: expected a list of geometry names, got "
                                f"{self.geometries!r}")
        self.geometries = tuple(self.geometries)
        if len(set(self.geometries)) != len(self.geometries):
            raise ModelingError(f"{what}.geometries: a geometry is named twice in "
                                f"{self.geometries!r}")
        u = np.asarray(self.direction, dtype=float)
        if u.shape != (3,) or not np.all(np.isfinite(u)) or not np.linalg.norm(u) > 0.0:
            raise ModelingError(f"{what}.direction: expected a non-zero finite 3-vector (B0), got "
                                f"{self.direction!r}")
        self.direction = u / np.linalg.norm(u)
        v = np.asarray(self.velocity if self.velocity is not None else [], dtype=float)
        if v.ndim != 2 or v.shape[1] != 2 or len(v) < 1 or not np.all(np.isfinite(v)):
            raise ModelingError(f"{what}.velocity: expected rows [t s, v m/s] of finite numbers, "
                                f"got {self.velocity!r}")
        if v[0, 0] < 0.0 or np.any(np.diff(v[:, 0]) <= 0.0):
            raise ModelingError(f"{what}.velocity: times must start at 0 or later and increase "
                                f"strictly, got {v[:, 0].tolist()}")
        self.velocity = v

    @property
    def refs(self):
        return {f"geometries[{k}].geometry": g for k, g in enumerate(self.geometries)}

    @property
    def knots(self):
        """(n, 3) rows (t s, v m/s, displacement m at t): what ``translation_at`` reads."""
        t, v = self.velocity[:, 0], self.velocity[:, 1]
        s = np.concatenate([[0.0], np.cumsum(0.5 * (v[1:] + v[:-1]) * np.diff(t))])
        return np.column_stack([t, v, s])

    def __call__(self, t):
        """(displacement m, velocity m/s) at the times ``t`` (arrays of t's shape)."""
        t = np.asarray(t, dtype=float)
        knots = self.knots
        out = [translation_at(knots, 0, len(knots), x) for x in t.ravel()]
        return tuple(np.array([o[k] for o in out]).reshape(t.shape) for k in range(2))


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
