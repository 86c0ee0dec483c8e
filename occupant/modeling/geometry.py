"""Geometry attached to markers, for contact (a later stage) and for export and display."""
from dataclasses import dataclass

import numpy as np

from occupant.modeling.elements import ModelingError, _vec3


def _positive(values, what):
    a = np.atleast_1d(np.asarray(values, dtype=float))
    if not np.all(np.isfinite(a)) or np.any(a <= 0):
        raise ModelingError(f"{what}: must be positive lengths in m, got {values!r}")
    return a


@dataclass
class Ellipsoid:
    name: str
    marker: str
    semi_axes: tuple

    def __post_init__(self):
        self.semi_axes = _positive(self.semi_axes, f"ellipsoid '{self.name}'.semi_axes")
        if self.semi_axes.shape != (3,):
            raise ModelingError(f"ellipsoid '{self.name}'.semi_axes: expected 3 values")

    @property
    def refs(self):
        return {"marker": self.marker}


@dataclass
class Sphere:
    name: str
    marker: str
    radius: float

    def __post_init__(self):
        self.radius = float(_positive(self.radius, f"sphere '{self.name}'.radius")[0])

    @property
    def refs(self):
        return {"marker": self.marker}


@dataclass
class Cylinder:
    """Axis along the marker's z, centred on the marker origin."""
    name: str
    marker: str
    radius: float
    length: float

    def __post_init__(self):
        self.radius = float(_positive(self.radius, f"cylinder '{self.name}'.radius")[0])
        self.length = float(_positive(self.length, f"cylinder '{self.name}'.length")[0])

    @property
    def refs(self):
        return {"marker": self.marker}


@dataclass
class Box:
    name: str
    marker: str
    half_extents: tuple

    def __post_init__(self):
        self.half_extents = _positive(self.half_extents, f"box '{self.name}'.half_extents")
        if self.half_extents.shape != (3,):
            raise ModelingError(f"box '{self.name}'.half_extents: expected 3 values")

    @property
    def refs(self):
        return {"marker": self.marker}


@dataclass
class Plane:
    """The plane through ``point`` with unit ``normal`` (towards the side contacts push to), in the
    marker's frame, or in the vehicle frame B0 when ``marker`` is None (floor, seat pan, knee
    bolster face). Default: the marker's x-y plane, normal along its +z. ``half_size`` (m, m)
    bounds it to the rectangle |(x - point).u| <= half_size[0], |(x - point).w| <= half_size[1],
    u = ``x_axis`` made orthogonal to the normal, w = normal x u; None: unbounded."""
    name: str
    marker: str | None = None
    point: tuple = (0.0, 0.0, 0.0)
    normal: tuple = (0.0, 0.0, 1.0)
    x_axis: tuple = (1.0, 0.0, 0.0)
    half_size: tuple | None = None

    def __post_init__(self):
        what = f"plane '{self.name}'"
        self.point = _vec3(self.point, f"{what}.point")
        n = _vec3(self.normal, f"{what}.normal")
        if np.linalg.norm(n) == 0:
            raise ModelingError(f"{what}.normal: must be a non-zero vector, got {self.normal!r}")
        self.normal = n / np.linalg.norm(n)
        x = _vec3(self.x_axis, f"{what}.x_axis")
        u = x - (x @ self.normal) * self.normal
        if np.linalg.norm(u) < 1e-9 * max(np.linalg.norm(x), 1e-300):
            raise ModelingError(f"{what}.x_axis: must not be parallel to the normal, got {self.x_axis!r}")
        self.x_axis = u / np.linalg.norm(u)
        if self.half_size is not None:
            self.half_size = _positive(self.half_size, f"{what}.half_size")
            if self.half_size.shape != (2,):
                raise ModelingError(f"{what}.half_size: expected 2 values (m), got {self.half_size!r}")

    @property
    def axes(self):
        """(3, 3) columns u, w, normal, in the marker frame (B0 when marker is None)."""
        return np.column_stack([self.x_axis, np.cross(self.normal, self.x_axis), self.normal])

    @property
    def refs(self):
        return {} if self.marker is None else {"marker": self.marker}


@dataclass
class Mesh:
    """A triangle mesh (trimesh.Trimesh, or a path trimesh can load), in marker coordinates."""
    name: str
    marker: str
    mesh: object

    def __post_init__(self):
        import trimesh
        if not isinstance(self.mesh, trimesh.Trimesh):
            try:
                self.mesh = trimesh.load(self.mesh, force="mesh")
            except Exception as exc:  # trimesh raises many kinds
                raise ModelingError(f"mesh '{self.name}'.mesh: cannot load {self.mesh!r}: {exc}") from None

    @property
    def refs(self):
        return {"marker": self.marker}
