"""Geometry attached to markers, for contact (a later stage) and for export and display."""
from dataclasses import dataclass

import numpy as np

from occupant.modeling.elements import ModelingError


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
    """The marker's x-y plane, normal along its +z."""
    name: str
    marker: str

    @property
    def refs(self):
        return {"marker": self.marker}


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
