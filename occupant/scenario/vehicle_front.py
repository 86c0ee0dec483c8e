"""Vehicle fronts for pedestrian scenarios (``vehicles/*.toml``, ``kind = "vehicle_front"``): the
outer profile of a car's front (bumper, bonnet leading edge, bonnet, windscreen) as contact
surfaces on a rigid vehicle body that moves along the road.

How the scenario models the moving car: B0 is the road (at rest, gravity along -z), the
pedestrian's root is free and stands on the road's surfaces (the scenario's interior), and the
vehicle is one more body on a prismatic joint along B0's x axis, started at its impact speed.
It has its real mass, so it takes the pedestrian's momentum as a car does (a 1450 kg car loses
about 0.5 km/h to a 78 kg pedestrian carried at its speed); nothing brakes it. Every surface is
a bounded plane on that body (ellipsoid-rectangle contact with edges,
``occupant.contact.convex_pairs``), so it moves with the car.

File form (frame V of the vehicle: x forward = direction of travel, y left, z up; origin on the
ground under the foremost point of the bumper)::

    kind = "vehicle_front"
    name = "sedan_front_midsize"
    mass = 1450.0                    # kg
    half_width = 0.75                # m, half width of every surface
    [contact_characteristic.bumper]  # occupant.modeling.contacts_toml
    ...
    [[surface]]                      # in order from the ground up and over the front
    name = "bumper"
    from = [0.0, 0.30]               # m, (x, z) of the segment's lower/front end in V
    to = [0.0, 0.53]                 # m, its upper/rear end
    characteristic = "bumper"

    [[structure]]                    # optional: a surface under the skin (the scuttle under the
    name = "scuttle"                 # windscreen's base): an interior file's surface kinds
    shape = "plane"                  # (occupant.scenario.interior_shapes; not a mesh) in frame V
    point = [-1.2353, 0.0, 0.8841]   # m, (x, y, z), on the vehicle body
    normal = [0.5, 0.0, 0.8656]
    x_axis = [-0.8656, 0.0, 0.5]
    half_size = [0.05, 0.75]
    characteristic = "scuttle"

The surfaces' chain is the vehicle's centreline profile; the wrap-around distance of a point on
it is the length of a tape from the ground below the first surface's start up along the chain
(Euro NCAP pedestrian protocol definition of WAD [U: protocol not read here]). A structure is
not part of the profile: it lies behind it and pushes what presses the skin in that far.
"""
import copy
from dataclasses import dataclass

import numpy as np

from occupant.io.toml_files import InputFileError, open_shipped, shipped_names
from occupant.modeling import Joint, Marker, ModelingError, Part, Plane, Pose
from occupant.modeling.contacts_toml import read_contacts
from occupant.scenario.interior_shapes import COMMON, SHAPE_KEYS, SHAPES, read_surface

TOP_KEYS = ("kind", "name", "description", "mass", "half_width", "contact_characteristic", "surface",
            "structure")
SURFACE_KEYS = ("name", "from", "to", "characteristic")
BODY = "vehicle"                         # the vehicle's part in the assembly
JOINT = "vehicle_travel"                 # its prismatic joint along B0's x
FRAME = f"{BODY}_frame"                  # the marker of frame V on it
# a structure: an interior surface but a mesh (whose file a run folder would not copy), without
# ``on`` (the front has no hinged parts)
STRUCTURE_SHAPES = tuple(s for s in SHAPES if s != "mesh")
STRUCTURE_KEYS = tuple(dict.fromkeys(k for k in COMMON + sum((SHAPE_KEYS[s] for s in STRUCTURE_SHAPES), ())
                                     if k != "on"))
# the joint frame's z axis (a prismatic joint's axis) along B0's x: a rotation about y by +90 deg
R_TRAVEL = np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]])


class VehicleFrontError(InputFileError):
    """A vehicle front file that cannot be used (names the file, key path and what is accepted)."""


@dataclass
class VehicleFront:
    name: str
    description: str
    file: str
    mass: float                  # kg
    half_width: float            # m
    profile: np.ndarray          # (k, 2) m, the chain (x, z) in V, from the ground point up
    surfaces: list               # (name, (x, z) from, (x, z) to, characteristic name)
    characteristics: dict        # name -> ContactCharacteristic
    structures: list = ()        # (geometry on FRAME, characteristic name), behind the profile

    @property
    def surface_names(self):
        """The profile's surfaces, then the structures."""
        return [s[0] for s in self.surfaces] + [g.name for g, _ in self.structures]

    @property
    def surface_characteristics(self):
        """name -> characteristic name of every surface and structure (a pair's default)."""
        return {**{s[0]: s[3] for s in self.surfaces}, **{g.name: c for g, c in self.structures}}

    def build(self, asm, x0):
        """Add the vehicle body, its prismatic joint (front at x = ``x0`` m of B0 when its
        coordinate is 0) and its surfaces to the Assembly ``asm``."""
        # a box of 4.7 x 1.8 x 1.4 m for the inertia [E]; on a prismatic joint only the mass acts
        a, b, c = 4.7, 1.8, 1.4
        m = self.mass
        com = (-a / 2 + 0.0, 0.0, 0.6)   # [E] about mid-length, 0.6 m up
        asm.add(Part(BODY, m, com, (m * (b * b + c * c) / 12, m * (a * a + c * c) / 12,
                                    m * (a * a + b * b) / 12)))
        asm.add(Marker(f"{BODY}_travel_frame", BODY, (0.0, 0.0, 0.0), R_TRAVEL))
        asm.add(Marker(FRAME, BODY))
        asm.add(Joint(JOINT, "prismatic", None, BODY, Pose((x0, 0.0, 0.0), R_TRAVEL),
                      child_marker=f"{BODY}_travel_frame"))
        for name, p0, p1, _ in self.surfaces:
            d = np.array([p1[0] - p0[0], 0.0, p1[1] - p0[1]])
            length = float(np.linalg.norm(d))
            u = d / length
            normal = (u[2], 0.0, -u[0])    # the chain's outward side (forward and up)
            mid = (0.5 * (p0[0] + p1[0]), 0.0, 0.5 * (p0[1] + p1[1]))
            asm.add(Plane(name, FRAME, mid, normal, tuple(u), (0.5 * length, self.half_width)))
        for geometry, _ in self.structures:
            asm.add(copy.deepcopy(geometry))

    def wrap_around_distance(self, x, z):
        """WAD (m) of the point (x, z) of V: the tape length from the ground up along the profile
        to the point of the profile nearest to it."""
        P = self.profile
        best, wad, run = np.inf, 0.0, 0.0
        for a, b in zip(P[:-1], P[1:]):
            d = b - a
            L = float(np.hypot(*d))
            s = float(np.clip(np.dot((x, z) - a, d) / (L * L), 0.0, 1.0))
            dist = float(np.hypot(*((x, z) - (a + s * d))))
            if dist < best:
                best, wad = dist, run + s * L
            run += L
        return wad


def available_fronts():
    return shipped_names("vehicles", kind="vehicle_front")


def _characteristic(c, s, p, characteristics):
    """The name of one of ``characteristics`` that the table ``s`` at ``p`` names."""
    name = c.string(s, "characteristic", p, required=True)
    if name not in characteristics:
        c.fail(f"{p}.characteristic", f"unknown contact characteristic {name!r}",
               ", ".join(characteristics) or "a [contact_characteristic.<name>] table")
    return name


def load_vehicle_front(name_or_path):
    """The validated VehicleFront of a shipped name (``vehicles/<name>.toml``) or a path."""
    path, data, c = open_shipped(name_or_path, "vehicles", "vehicle_front", "vehicle front",
                                 TOP_KEYS, VehicleFrontError)
    name = c.string(data, "name", "", required=True)
    mass = c.number(data, "mass", "", positive=True, required=True)
    half_width = c.number(data, "half_width", "", positive=True, required=True)
    characteristics, _ = read_contacts(c, {"contact_characteristic": data.get("contact_characteristic", {})}, ())
    surfaces, profile = [], []
    for i, s in enumerate(c.tables(data, "surface", "", required=True)):
        p = f"surface[{i}]"
        c.keys(s, SURFACE_KEYS, p)
        sname = c.string(s, "name", p, required=True)
        if sname in (x[0] for x in surfaces):
            c.fail(f"{p}.name", f"surface {sname!r} is declared twice", "unique surface names")
        p0 = c.vector(s, "from", p, n=2, required=True)
        p1 = c.vector(s, "to", p, n=2, required=True)
        if np.hypot(*(np.asarray(p1) - p0)) < 1e-3:
            c.fail(f"{p}.to", f"the segment from {list(p0)} to {list(p1)} is shorter than 1 mm",
                   "two distinct points (x, z) in m")
        if not profile:
            if p0[1] < 0:
                c.fail(f"{p}.from", f"z = {p0[1]} m is below the ground", "z >= 0")
            profile = [np.array([p0[0], 0.0]), np.asarray(p0, float)]
        elif np.hypot(*(np.asarray(p0) - profile[-1])) > 1e-6:
            c.fail(f"{p}.from", f"{list(p0)} is not where surface[{i - 1}] ends "
                   f"({list(profile[-1])}): the surfaces must form one chain", list(profile[-1]))
        profile.append(np.asarray(p1, float))
        surfaces.append((sname, tuple(p0), tuple(p1), _characteristic(c, s, p, characteristics)))
    structures = []
    for i, s in enumerate(c.tables(data, "structure", "")):
        p = f"structure[{i}]"
        c.keys(s, STRUCTURE_KEYS, p)
        sname = c.string(s, "name", p, required=True)
        if sname in (x[0] for x in surfaces) or sname in (g.name for g, _ in structures):
            c.fail(f"{p}.name", f"the name {sname!r} is taken by another surface or structure",
                   "unique surface names")
        c.string(s, "shape", p, choices=STRUCTURE_SHAPES, what="shape")
        cname = _characteristic(c, s, p, characteristics)
        geometry, _ = read_surface(c, s, p, sname, FRAME, path)
        structures.append((geometry, cname))
    return VehicleFront(name, data.get("description", ""), str(path), mass, half_width,
                        np.array(profile), surfaces, characteristics, structures)


def add_front(front, asm, x0, c, path):
    """Add ``front`` to ``asm`` (its front at x = ``x0`` m of B0 at t = 0), or fail at ``path``
    of the caller's checker ``c``."""
    for name in [BODY, JOINT, FRAME, f"{BODY}_travel_frame", *front.surface_names]:
        if asm.find(name) is not None:
            c.fail(path, f"{front.name}: the name {name!r} is taken by an element of the occupant "
                   "or the interior", "distinct names")
    try:
        front.build(asm, x0)
    except ModelingError as err:
        c.fail(path, str(err))


def vehicle_indices(model):
    """(index in q, index in v) of the vehicle's travel coordinate."""
    link = model.joint_links[model.joint_names.index(JOINT)][-1]
    return int(model.tree.qidx[link]), int(model.tree.vidx[link])


def turn_root(q, yaw):
    """Turn the posture ``q`` (in place) by ``yaw`` rad about B0's z through its origin: the free
    root's position and orientation (q[0:3], quaternion q[3:7], as ``Scenario`` assumes)."""
    from occupant.spatial.rotation import quat_exp, quat_multiply, rot_z
    q[0:3] = rot_z(yaw) @ q[0:3]
    q[3:7] = quat_multiply(quat_exp(np.array([0.0, 0.0, yaw])), q[3:7])


def lift_onto(model, q, planes):
    """Raise the free root of ``q`` (in place, along B0's z) so that no contact ellipsoid of a
    pair with one of the B0 ``planes`` (names) penetrates it: a posture that puts the heel and
    ball points on the road leaves the foot ellipsoids partly below it. Returns the lift (m)."""
    from occupant.scenario.placement import plane_gap
    asm = model.source
    lift = 0.0
    for pair in asm.contact_pairs.values():
        plane, g = asm.geometries.get(pair.geometry_b), asm.geometries[pair.geometry_a]
        if pair.geometry_b not in planes or plane.normal[2] <= 0:
            continue
        gap = plane_gap(model, q, g, plane.normal, plane.point)
        lift = max(lift, -gap / plane.normal[2])
    q[2] += lift
    return lift
