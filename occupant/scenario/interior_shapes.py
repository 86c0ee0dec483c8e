"""The shapes of an interior file's ``[[surface]]`` tables (``occupant.scenario.interior``): each
read into the modeling layer's geometry (``occupant.modeling.geometry``) on B0, or on a hinged
part's frame marker (which coincides with B0 at t = 0), with the keys of its shape:

- ``plane``: ``point``, ``normal``, ``x_axis``, ``half_size`` or ``radius`` (with
  ``inner_radius``: a ring, open within it, as a steering wheel's rim), ``thickness`` (``Plane``);
- ``box``: ``point`` (its centre), ``half_extents`` (m, along its x, y, z axes), ``x_axis``,
  ``z_axis`` (``Box``);
- ``cylinder``: ``point`` (its centre), ``radius``, ``length`` (the straight part), ``z_axis``
  (its axis), ``x_axis``, ``ends`` ("flat", or "round": a capsule) (``Cylinder``);
- ``sphere``: ``point`` (its centre), ``radius`` (``Sphere``);
- ``ellipsoid``: ``point`` (its centre), ``semi_axes`` (m, along its x, y, z axes), ``x_axis``,
  ``z_axis`` (``Ellipsoid``): a head-restraint, steering-hub or knee-bolster ellipsoid, as
  ATB and MADYMO place them on the vehicle;
- ``mesh``: ``file`` (a triangle mesh trimesh reads: STL, OBJ, PLY, ...; a relative path from
  the interior file's folder), ``units`` of its coordinates ("m", "mm", "cm", "in"), ``point``
  (where the file's origin goes), ``x_axis``, ``z_axis`` (the file's x and z axes in B0),
  ``patch_size`` (m, ``Mesh.patch_size``: the mesh pushes at the deepest point of each patch,
  so that a seat's cushion and back hold a pelvis at once). Its faces' winding gives the side
  it pushes to (counter-clockwise seen from the occupant); a closed mesh pushes out of its
  volume.

A solid's axes: ``z_axis`` (default [0, 0, 1]) normalised, ``x_axis`` (default [1, 0, 0], or
[0, 0, 1] for a z_axis within 26 deg of B0's x) made orthogonal to it, y = z x x. A sphere
or ellipsoid meets the occupant's ellipsoids through the ellipsoid-ellipsoid pair
(``occupant.contact.geometry_pairs``) and, like the solids, stands in a pair's ``b``."""
import pathlib

import numpy as np

from occupant.io.toml_files import located, missing_file
from occupant.modeling import ModelingError
from occupant.modeling.geometry import Box, Cylinder, Ellipsoid, Mesh, Plane, Sphere

COMMON = ("name", "shape", "characteristic", "on", "crush_group")
SHAPE_KEYS = {
    "plane": ("point", "normal", "x_axis", "half_size", "radius", "inner_radius", "thickness"),
    "box": ("point", "half_extents", "x_axis", "z_axis"),
    "cylinder": ("point", "radius", "length", "ends", "x_axis", "z_axis"),
    "sphere": ("point", "radius"),
    "ellipsoid": ("point", "semi_axes", "x_axis", "z_axis"),
    "mesh": ("file", "units", "point", "x_axis", "z_axis", "patch_size"),
}
SHAPES = tuple(SHAPE_KEYS)
ALL_KEYS = COMMON + tuple(dict.fromkeys(k for keys in SHAPE_KEYS.values() for k in keys))
UNITS = {"m": 1.0, "mm": 1e-3, "cm": 1e-2, "in": 0.0254}   # m per unit; the inch exact (1959)
ENDS = ("flat", "round")


def _axes(c, s, p):
    """(3, 3) rotation, columns x, y, z, of a solid's ``x_axis`` and ``z_axis``."""
    z = c.vector(s, "z_axis", p, default=(0.0, 0.0, 1.0))
    if np.linalg.norm(z) == 0:
        c.fail(f"{p}.z_axis", f"a zero vector, got {z.tolist()}", "a non-zero vector")
    z = z / np.linalg.norm(z)
    x = c.vector(s, "x_axis", p, default=(1.0, 0.0, 0.0) if abs(z[0]) < 0.9 else (0.0, 0.0, 1.0))
    u = x - (x @ z) * z
    if np.linalg.norm(u) < 1e-9 * max(np.linalg.norm(x), 1e-300):
        c.fail(f"{p}.x_axis", f"zero or parallel to z_axis, got {x.tolist()}",
               "a vector not parallel to z_axis")
    u = u / np.linalg.norm(u)
    return np.column_stack([u, np.cross(z, u), z])


def _mesh(c, s, p, name, marker, file, copy=None):
    """A Mesh from ``s['file']`` (read from the folder of ``file``; ``copy``: the file read
    instead, a run folder's copy) in ``units``, placed."""
    value = c.string(s, "file", p, required=True)
    path = pathlib.Path(copy) if copy is not None else located(value, file)
    if not path.is_file():
        c.fail(f"{p}.file", missing_file(value, file), "a triangle mesh file (STL, OBJ, PLY, ...), "
               "a relative path from this interior file's folder")
    scale = UNITS[c.string(s, "units", p, choices=tuple(UNITS), what="unit") or "m"]
    patch = c.number(s, "patch_size", p, positive=True)
    try:
        g = Mesh(name, marker, str(path), c.vector(s, "point", p, default=(0.0, 0.0, 0.0)),
                 _axes(c, s, p), patch)
    except ModelingError as err:   # Mesh's own check: "mesh '<name>'.<key>: <problem>"
        c.fail(f"{p}.file", f"{str(path)!r} is not a triangle mesh with at least one face "
               f"({str(err).partition(': ')[2]})", "a triangle mesh file (STL, OBJ, PLY, ...)")
    m = g.mesh
    if not m.is_winding_consistent:
        c.fail(f"{p}.file", f"{str(path)!r}: its faces are not wound consistently (neighbours "
               "disagree on which side is outside)", "faces wound counter-clockwise seen from the "
               "side the surface pushes to")
    m.apply_scale(scale)
    if m.is_watertight and m.volume < 0:
        c.fail(f"{p}.file", f"{str(path)!r}: a closed mesh wound inside out (its volume "
               f"{m.volume:.3g} m^3 is negative: it would push into itself)",
               "faces wound counter-clockwise seen from outside")
    return g, path


def read_surface(c, s, p, name, marker, file, copy=None):
    """(the geometry of surface table ``s`` at key path ``p`` named ``name`` on ``marker``
    (None: B0), the mesh file it reads or None); ``file`` the interior file (checker ``c``),
    ``copy`` the file a mesh reads instead of its ``file`` (a run folder's copy)."""
    shape = c.string(s, "shape", p, choices=SHAPES, what="shape") or "plane"
    for key in s:
        if key not in COMMON and key not in SHAPE_KEYS[shape]:
            c.fail(f"{p}.{key}", f"not a key of {'an' if shape[0] in 'aeiou' else 'a'} {shape}",
                   ", ".join(COMMON + SHAPE_KEYS[shape]))
    if shape == "mesh":
        return _mesh(c, s, p, name, marker, file, copy)
    try:
        if shape == "box":
            return Box(name, marker, c.vector(s, "half_extents", p, required=True, positive=True),
                       c.vector(s, "point", p, required=True), _axes(c, s, p)), None
        if shape == "sphere":
            return Sphere(name, marker, c.number(s, "radius", p, required=True, positive=True),
                          c.vector(s, "point", p, required=True)), None
        if shape == "ellipsoid":
            return Ellipsoid(name, marker, c.vector(s, "semi_axes", p, required=True, positive=True),
                             c.vector(s, "point", p, required=True), _axes(c, s, p)), None
        if shape == "cylinder":
            return Cylinder(name, marker, c.number(s, "radius", p, required=True, positive=True),
                            c.number(s, "length", p, required=True, positive=True),
                            c.string(s, "ends", p, choices=ENDS, what="ends") or "flat",
                            c.vector(s, "point", p, required=True), _axes(c, s, p)), None
        half = s.get("half_size")
        if half is not None:
            half = c.vector(s, "half_size", p, n=2, positive=True)
        radius = c.number(s, "radius", p, positive=True)
        if half is not None and radius is not None:
            c.fail(f"{p}.radius", "given with half_size: a surface is bounded by a rectangle or "
                   "by a disc", "half_size (a rectangle) or radius (a disc), not both")
        inner = c.number(s, "inner_radius", p, positive=True)
        if inner is not None and radius is None:
            c.fail(f"{p}.inner_radius", "given without radius: only a disc has a hole",
                   "radius (the ring's outer edge) with inner_radius, or no inner_radius")
        if inner is not None and not inner < radius:
            c.fail(f"{p}.inner_radius", f"{inner:g} m is not below the radius {radius:g} m: the "
                   "ring's inner edge must lie inside its outer one",
                   f"0 < inner_radius < radius ({radius:g} m)")
        thickness = c.number(s, "thickness", p, positive=True)   # only a bounded one's: Plane's check
        return Plane(name, marker, c.vector(s, "point", p, required=True),
                     c.vector(s, "normal", p, required=True),
                     c.vector(s, "x_axis", p, default=(1.0, 0.0, 0.0)), half, thickness,
                     radius, inner), None
    except ModelingError as err:
        c.fail(p, str(err))
