"""Curve geometry (ADAMS CURVE), the path of the higher pairs (``higher_pairs``): a closed or
open curve through control points, a circle, an ellipse or a helix, in the frame of its marker.

``Curve(name, marker, points=...)``: an interpolating cubic spline through ``points`` (n >= 4
rows of (x, y) or (x, y, z), m), periodic when ``closed`` (the first point is not repeated),
not-a-knot when open, on chord-length knots (de Boor, A Practical Guide to Splines, 1978,
ch. IV). ``Curve(name, marker, radius=r)``: the circle of radius r about the marker origin in
its x-y plane; ``Curve(name, marker, semi_axes=(a, b))``: the ellipse x = a cos s, y = b sin s;
either with ``lead=h, turns=n``: the open helix that rises h (m) along z per turn,
z = h s / (2 pi), s in [0, 2 pi n]. A curve is planar when it lies in its marker's x-y plane
(curve-on-curve needs that). It is massless (no volume for a material). ``table`` flattens it
into rows of the constraint block's curves table (layout: ``occupant.constraints.curve_rows``),
its header carrying the ``reference_axis`` of the normal frame of point-on-curve: the marker's
z for a planar curve, else the direction farthest from all the curve's tangents (sampled).
"""
from dataclasses import dataclass
from functools import cached_property
from numbers import Real

import numpy as np

from occupant.constraints.curve_rows import CURVE_ELLIPSE, CURVE_SPLINE
from occupant.modeling.elements import ModelingError
from occupant.modeling.lattice import sphere_lattice

PLANAR_TOL = 1e-9      # out-of-plane extent, as a fraction of the curve's size, still planar
# reference-axis search: candidate directions, tangents per spline segment and per turn
AXIS_CANDIDATES, SEGMENT_TANGENTS, TURN_TANGENTS = 4000, 8, 64


@dataclass
class Curve:
    """A curve in the frame of ``marker`` (module docstring): give one of ``points``,
    ``radius``, ``semi_axes``; ``lead`` and ``turns`` with the latter two make a helix."""
    name: str
    marker: str
    points: object = None
    closed: bool = True
    radius: float | None = None
    semi_axes: tuple | None = None
    lead: float = 0.0
    turns: float | None = None

    def __post_init__(self):
        what = f"curve '{self.name}'"
        given = [k for k in ("points", "radius", "semi_axes") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ModelingError(f"{what}: give exactly one of points, radius, semi_axes, got "
                                f"{', '.join(given) or 'none'}")
        if self.radius is not None:
            self.semi_axes = (self.radius, self.radius)
        if self.semi_axes is not None:
            a = np.asarray(self.semi_axes, dtype=float)
            key = "radius" if self.radius is not None else "semi_axes"
            if a.shape != (2,) or not np.all(np.isfinite(a)) or np.any(a <= 0):
                raise ModelingError(f"{what}.{key}: expected positive lengths in m, got "
                                    f"{getattr(self, key)!r}")
            self.semi_axes, self.closed = a, True
            self._helix(what)
            return
        if self.lead != 0.0 or self.turns is not None:
            raise ModelingError(f"{what}: lead and turns make a helix of a radius or semi_axes, "
                                f"not of points")
        p = np.asarray(self.points, dtype=float)
        if p.ndim != 2 or p.shape[1] not in (2, 3) or not np.all(np.isfinite(p)):
            raise ModelingError(f"{what}.points: expected rows of 2 or 3 finite numbers (m), got "
                                f"{self.points!r}")
        if p.shape[1] == 2:
            p = np.column_stack([p, np.zeros(len(p))])
        if self.closed and len(p) > 1 and np.allclose(p[0], p[-1]):
            p = p[:-1]
        if len(p) < 4:
            raise ModelingError(f"{what}.points: a spline curve needs at least 4 distinct points, "
                                f"got {len(p)}")
        ring = np.vstack([p, p[:1]]) if self.closed else p
        if np.any(np.linalg.norm(np.diff(ring, axis=0), axis=1) == 0):
            raise ModelingError(f"{what}.points: two consecutive points coincide")
        self.points = p

    def _helix(self, what):
        """Check lead and turns; a helix is open."""
        if not isinstance(self.lead, Real) or not np.isfinite(self.lead):
            raise ModelingError(f"{what}.lead: expected a finite rise per turn in m, got "
                                f"{self.lead!r}")
        if self.lead == 0.0:
            if self.turns is not None:
                raise ModelingError(f"{what}.turns: a helix needs a non-zero lead")
            return
        if not isinstance(self.turns, Real) or not 0 < self.turns < np.inf:
            raise ModelingError(f"{what}.turns: expected a positive number of turns of the "
                                f"helix, got {self.turns!r}")
        self.closed = False

    @property
    def s_max(self):
        """The end of the analytic curve's parameter s."""
        return 2.0 * np.pi * (self.turns if self.lead != 0.0 else 1.0)

    @property
    def size(self):
        """m, the largest extent (scale of the planarity tolerance)."""
        if self.points is None:
            return float(max(*self.semi_axes, abs(self.lead) * self.s_max / (2.0 * np.pi)))
        return float(np.ptp(self.points, axis=0).max())

    @property
    def planar(self):
        """True when the curve lies in its marker's x-y plane."""
        if self.points is None:
            return self.lead == 0.0
        return np.abs(self.points[:, 2]).max() <= PLANAR_TOL * self.size

    @cached_property
    def reference_axis(self):
        """(unit axis, deg): the direction of the marker frame that keeps the largest smallest
        angle to the curve's tangents, and that angle; the marker's z for a planar curve. The
        candidates: z, x, y, then a Fibonacci lattice on the half sphere."""
        if self.planar:
            return np.array([0.0, 0.0, 1.0]), 90.0
        axes = np.vstack([np.eye(3)[[2, 0, 1]], sphere_lattice(AXIS_CANDIDATES, half=True)])
        t = self._tangents()
        t /= np.linalg.norm(t, axis=1)[:, None]
        closest = np.zeros(len(axes))                  # cos of the smallest angle per candidate
        for chunk in np.array_split(t, -(-len(t) // 500)):
            closest = np.maximum(closest, np.abs(axes @ chunk.T).max(axis=1))
        k = int(np.argmin(closest))
        return axes[k], float(np.degrees(np.arccos(min(closest[k], 1.0))))

    def _tangents(self):
        """(n, 3) tangents dC/ds sampled along the curve (marker frame)."""
        if self.points is None:
            n = int(TURN_TANGENTS * np.ceil(self.s_max / (2.0 * np.pi)))
            s = np.linspace(0.0, self.s_max, n)
            a, b = self.semi_axes
            return np.column_stack([-a * np.sin(s), b * np.cos(s),
                                    np.full(n, self.lead / (2.0 * np.pi))])
        sp = self._spline()
        return sp(np.linspace(sp.x[0], sp.x[-1], SEGMENT_TANGENTS * (len(sp.x) - 1) + 1), 1)

    def _spline(self):
        from scipy.interpolate import CubicSpline
        ring = np.vstack([self.points, self.points[:1]]) if self.closed else self.points
        knots = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(ring, axis=0), axis=1))])
        return CubicSpline(knots, ring, bc_type="periodic" if self.closed else "not-a-knot")

    def table(self, X):
        """Rows (12,) of the curves table for this curve in the frame X (4, 4: the marker's
        frame in its link's frame): the header, then the coefficients."""
        R, o = X[:3, :3], X[:3, 3]
        axis = R @ self.reference_axis[0]
        if self.points is None:
            header = [CURVE_ELLIPSE, 1, float(self.closed), *axis, self.s_max, 0, 0, 0, 0, 0]
            a, b = self.semi_axes
            return [np.array(header, float), np.concatenate(
                [o, a * R[:, 0], b * R[:, 1], self.lead / (2.0 * np.pi) * R[:, 2]])]
        sp = self._spline()
        h = np.diff(sp.x)
        n = len(h)
        rows = [np.array([CURVE_SPLINE, n, float(self.closed), *axis, n, 0, 0, 0, 0, 0])]
        for i in range(n):      # local tau = (x - x_i) / h_i in [0, 1]
            c = sp.c[:, i, :]        # c[k] multiplies (x - x_i)^(3 - k)
            a = [R @ c[3] + o, R @ c[2] * h[i], R @ c[1] * h[i] ** 2, R @ c[0] * h[i] ** 3]
            rows.append(np.concatenate(a))
        return rows

    def sample(self, n):
        """(n, 3) points along the curve (m, marker frame), evenly in its parameter."""
        if self.points is None:
            s = np.linspace(0.0, self.s_max, n, endpoint=not self.closed)
            return np.column_stack([self.semi_axes[0] * np.cos(s), self.semi_axes[1] * np.sin(s),
                                    self.lead / (2.0 * np.pi) * s])
        sp = self._spline()
        return sp(np.linspace(sp.x[0], sp.x[-1], n, endpoint=not self.closed))

    @property
    def refs(self):
        return {"marker": self.marker}
