"""Geometry attached to markers, for contact (``ContactPair``; occupant.contact) and for export
and display. Each is built from plain values (lengths in m, a mesh file path), so that a model
or scenario file reader can construct it directly: ``Ellipsoid(name, marker, semi_axes)``,
``Sphere(name, marker, radius)``, ``Cylinder(name, marker, radius, length, ends="flat")``,
``Box(name, marker, half_extents)``, ``Plane(name, marker=None, point, normal, x_axis,
half_size)``, ``Mesh(name, marker, mesh)``, and seed 000's ``Link(name, marker, marker_b, width,
depth)``, ``Frustum(name, marker, length, bottom_radius, top_radius)``, ``Torus(name, marker,
major_radius, minor_radius)``, ``Curve`` (``curves``: the path of the higher pairs) (stored,
validated, given mass properties by a material; contact pairs accept the types
``occupant.modeling.compile_contacts`` lists). An ellipsoid, sphere, cylinder, box or mesh
(``PLACED``) may also be placed by ``position`` (m) and ``rotation`` (matrix) in its marker's
frame, or in the vehicle frame B0 when ``marker`` is None (an interior part fixed to the
vehicle: a head-restraint or knee-bolster ellipsoid, a B-pillar cylinder); ``placement(g)``
gives that frame."""


def _placement(g, what):
    g.position = _vec3(g.position, f"{what}.position")
    g.rotation = _rotation(g.rotation, f"{what}.rotation")


def _marker_refs(g):
    return {} if g.marker is None else {"marker": g.marker}
from dataclasses import dataclass

import numpy as np

from occupant.modeling.curves import Curve
from occupant.modeling.elements import ModelingError, _rotation, _vec3


def _positive(values, what):
    a = np.atleast_1d(np.asarray(values, dtype=float))
    if not np.all(np.isfinite(a)) or np.any(a <= 0):
        raise ModelingError(f"{what}: got {np.asarray(values, float).tolist()}", "lengths > 0, m")
    return a


@dataclass
class Ellipsoid:
    """Centred on the marker origin, ``semi_axes`` (m) along the marker's x, y, z (its own
    ``position`` and ``rotation`` applied)."""
    name: str
    marker: str | None
    semi_axes: tuple
    position: tuple = (0.0, 0.0, 0.0)
    rotation: object = None

    def __post_init__(self):
        _placement(self, f"ellipsoid '{self.name}'")
        self.semi_axes = _positive(self.semi_axes, f"ellipsoid '{self.name}'.semi_axes")
        if self.semi_axes.shape != (3,):
            raise ModelingError(f"ellipsoid '{self.name}'.semi_axes: expected 3 values")

    @property
    def refs(self):
        return _marker_refs(self)


@dataclass
class Sphere:
    """Centred on the marker origin (its own ``position`` applied; ``rotation`` turns the
    frame its contacts and drawings use)."""
    name: str
    marker: str | None
    radius: float
    position: tuple = (0.0, 0.0, 0.0)
    rotation: object = None

    def __post_init__(self):
        _placement(self, f"sphere '{self.name}'")
        self.radius = float(_positive(self.radius, f"sphere '{self.name}'.radius")[0])

    @property
    def refs(self):
        return _marker_refs(self)


@dataclass
class Cylinder:
    """Axis along the marker's z, centred on the marker origin; ``length`` (m) the whole length
    of the straight part. ``ends``: "flat" (a right circular cylinder) or "round" (hemispherical
    caps of the same radius beyond each end: a capsule, e.g. a steering-wheel rim segment)."""
    name: str
    marker: str | None
    radius: float
    length: float
    ends: str = "flat"
    position: tuple = (0.0, 0.0, 0.0)
    rotation: object = None

    def __post_init__(self):
        _placement(self, f"cylinder '{self.name}'")
        self.radius = float(_positive(self.radius, f"cylinder '{self.name}'.radius")[0])
        self.length = float(_positive(self.length, f"cylinder '{self.name}'.length")[0])
        if self.ends not in ("flat", "round"):
            raise ModelingError(f"cylinder '{self.name}'.ends: expected \"flat\" or \"round\", "
                                f"got {self.ends!r}")

    @property
    def refs(self):
        return _marker_refs(self)


@dataclass
class Box:
    """Centred on the marker origin, edges along the marker's axes; ``half_extents`` (m)."""
    name: str
    marker: str | None
    half_extents: tuple
    position: tuple = (0.0, 0.0, 0.0)
    rotation: object = None

    def __post_init__(self):
        _placement(self, f"box '{self.name}'")
        self.half_extents = _positive(self.half_extents, f"box '{self.name}'.half_extents")
        if self.half_extents.shape != (3,):
            raise ModelingError(f"box '{self.name}'.half_extents: expected 3 values")

    @property
    def refs(self):
        return _marker_refs(self)


@dataclass
class Plane:
    """The plane through ``point`` with unit ``normal`` (towards the side contacts push to), in the
    marker's frame, or in the vehicle frame B0 when ``marker`` is None (floor, seat pan, knee
    bolster face). Default: the marker's x-y plane, normal along its +z. ``half_size`` (m, m)
    bounds it to the rectangle |(x - point).u| <= half_size[0], |(x - point).w| <= half_size[1],
    u = ``x_axis`` made orthogonal to the normal, w = normal x u; None: unbounded. ``radius``
    (m, instead of ``half_size``) bounds it to the disc |(x - point) - ((x - point).normal)
    normal| <= radius (a steering wheel). ``thickness`` (m, bounded planes only): the rectangle
    or disc is the face of a plate of that thickness behind it (the box, or the flat-ended
    cylinder, over -thickness <= (x - point).normal <= 0), so that a shape which went round the
    plate's edge and comes back behind it meets the plate's back face; None: a rectangle or
    disc of no thickness, whose face pushes out whatever lies behind it within its bounds
    (``contact.convex_pairs``). ``inner_radius`` (m, with ``radius`` only, below it): the disc
    has a round hole of that radius about ``point``, a ring (a steering wheel's rim, open where
    a real wheel is), and with a thickness the plate is that ring's (an annular plate)."""
    name: str
    marker: str | None = None
    point: tuple = (0.0, 0.0, 0.0)
    normal: tuple = (0.0, 0.0, 1.0)
    x_axis: tuple = (1.0, 0.0, 0.0)
    half_size: tuple | None = None
    thickness: float | None = None
    radius: float | None = None
    inner_radius: float | None = None

    def __post_init__(self):
        what = f"plane '{self.name}'"
        self.point = _vec3(self.point, f"{what}.point")
        n = _vec3(self.normal, f"{what}.normal")
        if np.linalg.norm(n) == 0:
            raise ModelingError(f"{what}.normal: a zero vector, got "
                                f"{np.asarray(self.normal, float).tolist()}", "a non-zero vector")
        self.normal = n / np.linalg.norm(n)
        x = _vec3(self.x_axis, f"{what}.x_axis")
        u = x - (x @ self.normal) * self.normal
        if np.linalg.norm(u) < 1e-9 * max(np.linalg.norm(x), 1e-300):
            raise ModelingError(f"{what}.x_axis: zero or parallel to the normal, got "
                                f"{np.asarray(self.x_axis, float).tolist()}",
                                "a vector not parallel to the normal (default [1, 0, 0])")
        self.x_axis = u / np.linalg.norm(u)
        if self.half_size is not None:
            self.half_size = _positive(self.half_size, f"{what}.half_size")
            if self.half_size.shape != (2,):
                raise ModelingError(f"{what}.half_size: expected 2 values (m), got {self.half_size!r}")
        if self.radius is not None:
            if self.half_size is not None:
                raise ModelingError(f"{what}.radius: given with half_size: a plane is bounded by "
                                    "a rectangle or by a disc", "half_size or radius, not both")
            radius = _positive(self.radius, f"{what}.radius")
            if radius.shape != (1,):
                raise ModelingError(f"{what}.radius: expected one value (m), got "
                                    f"{radius.tolist()}", "a length > 0, m")
            self.radius = float(radius[0])
        if self.inner_radius is not None:
            if self.radius is None:
                raise ModelingError(f"{what}.inner_radius: given without radius: only a disc has "
                                    "a hole", "an inner_radius with radius, or no inner_radius")
            inner = _positive(self.inner_radius, f"{what}.inner_radius")
            if inner.shape != (1,) or not inner[0] < self.radius:
                raise ModelingError(f"{what}.inner_radius: must be one length below the radius "
                                    f"{self.radius:.4g} m (the ring's inner edge inside its outer "
                                    f"one), got {inner.tolist()}", "0 < inner_radius < radius, m")
            self.inner_radius = float(inner[0])
        if self.thickness is not None:
            if self.half_size is None and self.radius is None:
                raise ModelingError(f"{what}.thickness: given without half_size or radius: only a "
                                    "bounded plane has a thickness",
                                    "a thickness with half_size or radius, or no thickness")
            self.thickness = float(_positive(self.thickness, f"{what}.thickness")[0])

    @property
    def axes(self):
        """(3, 3) columns u, w, normal, in the marker frame (B0 when marker is None)."""
        return np.column_stack([self.x_axis, np.cross(self.normal, self.x_axis), self.normal])

    @property
    def refs(self):
        return {} if self.marker is None else {"marker": self.marker}


@dataclass
class Mesh:
    """A triangle mesh (trimesh.Trimesh, or a file path trimesh can load: STL, OBJ, PLY, ...), in
    marker coordinates (m). For contact the faces' winding gives their outward normals
    (counter-clockwise seen from outside): a closed mesh pushes out of its volume, an open one
    (a seat's surface) towards its front side. ``patch_size`` (m): the faces are grouped by
    their centroids into cubes of that edge and, within a cube, by their normals (30 deg), and
    a contact pair with the mesh pushes at the
    deepest point of each patch (``occupant.contact.mesh_pairs``), so that a seat's cushion and
    back, or both sides of its bight, hold a pelvis at once; None: one point, the deepest."""
    name: str
    marker: str | None
    mesh: object
    position: tuple = (0.0, 0.0, 0.0)
    rotation: object = None
    patch_size: float | None = None

    def __post_init__(self):
        _placement(self, f"mesh '{self.name}'")
        if self.patch_size is not None:
            try:
                size = float(self.patch_size)
            except (TypeError, ValueError):
                size = np.nan
            if not (np.isfinite(size) and size > 0):
                raise ModelingError(f"mesh '{self.name}'.patch_size: must be a length > 0 m or "
                                    f"None, got {self.patch_size!r}")
            self.patch_size = size
        import trimesh
        if not isinstance(self.mesh, trimesh.Trimesh):
            try:
                self.mesh = trimesh.load(self.mesh, force="mesh")
            except Exception as exc:  # trimesh raises many kinds
                raise ModelingError(f"mesh '{self.name}'.mesh: cannot load {self.mesh!r}: {exc}") from None
        if (not isinstance(self.mesh, trimesh.Trimesh) or len(self.mesh.faces) == 0
                or not np.all(np.isfinite(self.mesh.vertices))):
            raise ModelingError(f"mesh '{self.name}'.mesh: expected a triangle mesh with at least "
                                f"one face and finite vertices, got {self.mesh!r}")

    @property
    def refs(self):
        return _marker_refs(self)


@dataclass
class Link:
    """Seed 000's "link" (ADAMS LINK): a bar of rectangular section from marker I (``marker``) to
    marker J (``marker_b``) of the same part, ``width`` (m) along I's y and ``depth`` (m) along
    its z; the length is the distance between the markers."""
    name: str
    marker: str
    marker_b: str
    width: float
    depth: float

    def __post_init__(self):
        self.width = float(_positive(self.width, f"link '{self.name}'.width")[0])
        self.depth = float(_positive(self.depth, f"link '{self.name}'.depth")[0])
        if self.marker == self.marker_b:
            raise ModelingError(f"link '{self.name}': marker and marker_b are both "
                                f"'{self.marker}'; a link joins two markers")

    @property
    def refs(self):
        return {"marker": self.marker, "marker_b": self.marker_b}


@dataclass
class Frustum:
    """A truncated cone along the marker's z from the marker origin: ``bottom_radius`` (m) at
    z = 0, ``top_radius`` (m, 0 for a cone) at z = ``length`` (m)."""
    name: str
    marker: str
    length: float
    bottom_radius: float
    top_radius: float

    def __post_init__(self):
        what = f"frustum '{self.name}'"
        self.length = float(_positive(self.length, f"{what}.length")[0])
        self.bottom_radius = float(_positive(self.bottom_radius, f"{what}.bottom_radius")[0])
        if not (np.isfinite(self.top_radius) and self.top_radius >= 0):
            raise ModelingError(f"{what}.top_radius: must be a length >= 0 in m, got "
                                f"{self.top_radius!r}")
        self.top_radius = float(self.top_radius)

    @property
    def refs(self):
        return {"marker": self.marker}


@dataclass
class Torus:
    """A ring torus in the marker's x-y plane centred on its origin: the tube's centre circle
    ``major_radius`` (m), the tube ``minor_radius`` (m) < major_radius (a steering-wheel rim)."""
    name: str
    marker: str
    major_radius: float
    minor_radius: float

    def __post_init__(self):
        what = f"torus '{self.name}'"
        self.major_radius = float(_positive(self.major_radius, f"{what}.major_radius")[0])
        self.minor_radius = float(_positive(self.minor_radius, f"{what}.minor_radius")[0])
        if self.minor_radius >= self.major_radius:
            raise ModelingError(f"{what}: minor_radius {self.minor_radius} m must be below "
                                f"major_radius {self.major_radius} m (a ring torus)")

    @property
    def refs(self):
        return {"marker": self.marker}


GEOMETRY_TYPES = (Ellipsoid, Sphere, Cylinder, Box, Plane, Mesh, Link, Frustum, Torus, Curve)
PLACED = (Ellipsoid, Sphere, Cylinder, Box, Mesh)   # the types with a position and rotation of their own


def placement(g):
    """(R (3, 3), p (3,)): the frame of geometry ``g`` in its marker's frame (B0 when its
    marker is None): its ``rotation`` and ``position`` for the PLACED types, else the marker's
    own (identity, origin)."""
    if isinstance(g, PLACED):
        return g.rotation, g.position
    return np.eye(3), np.zeros(3)
