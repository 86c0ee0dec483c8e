"""Vehicle interior files (``vehicles/*.toml``, ``kind = "interior"``): the contact surfaces of
one seating position, placed in the vehicle frame B0 and moving with it (seat cushion and back,
floor and toe pan, knee bolster, instrument panel, ...), and their contact characteristics.

Frame: B0, x forward, y left, z up (design.md section 5), origin at the seating position's
design H-point, where the scenario's posture puts the occupant's H-point (``occupant.h_point``
shifts it). File form::

    kind = "interior"
    name = "sled_buck_passenger"
    description = "..."
    test_object = "sled"                      # what carries it: vehicle (default) or sled; names
    #                                           the ISO-MME channels of B0's motion (S0SLED...)
    [contact_characteristic.seat_foam]        # occupant.modeling.contacts_toml
    ...
    [[surface]]
    name = "seat_cushion"
    shape = "plane"                           # plane (default), box, cylinder, sphere,
    #                                           ellipsoid or mesh (below)
    point = [0.1, 0.0, -0.12]                 # m, a point of the plane
    normal = [-0.26, 0.0, 0.97]               # towards the occupant (normalised on load)
    x_axis = [1.0, 0.0, 0.0]                  # in-plane direction of half_size[0] (optional)
    half_size = [0.35, 0.25]                  # m, bounded rectangle (optional: unbounded)
    # radius = 0.19                           # m, or a bounded disc (a steering wheel)
    thickness = 0.03                          # m, a plate behind the rectangle (optional)
    characteristic = "seat_foam"              # default characteristic of pairs with it
    crush_group = "knee_bolster"              # optional: the crushable part it is a face of
    [belt]                                    # the seat's belt anchorages (optional), m in B0
    retractor = [-0.35, 0.30, -0.10]          # also d_ring, buckle, lap_anchor
    ...

Other shapes (occupant.scenario.interior_shapes; each takes ``name``, ``shape``,
``characteristic`` and ``on``, and only its own keys)::

    shape = "box"                             # a block: an armrest, a console, a bolster
    point = [0.1, 0.3, 0.2]                   # m, its centre
    half_extents = [0.2, 0.03, 0.05]          # m, along its x, y, z axes
    x_axis = [1.0, 0.0, 0.0]                  # its axes in B0 (optional; z_axis default [0, 0, 1],
    z_axis = [0.0, 0.0, 1.0]                  # x_axis made orthogonal to it, y = z x x)

    shape = "cylinder"                        # a bar: a steering column, a rim segment, a grab handle
    point = [0.3, 0.0, 0.4]                   # m, its centre
    radius = 0.015                            # m
    length = 0.30                             # m, the straight part, along z_axis
    ends = "round"                            # "flat" (default) or "round": a capsule

    shape = "sphere"                          # a knob, a rounded stalk end
    point = [0.5, 0.2, 0.3]                   # m, its centre
    radius = 0.04                             # m

    shape = "ellipsoid"                       # a head restraint, a steering hub, a knee bolster
    point = [-0.25, 0.0, 0.62]                # m, its centre
    semi_axes = [0.06, 0.13, 0.11]            # m, along its x, y, z axes
    x_axis = [1.0, 0.0, 0.0]                  # its axes in B0 (optional, as a box's)

    shape = "mesh"                            # a CAD export: a seat, a whole interior
    file = "seat.stl"                         # read with trimesh (STL, OBJ, PLY, ...), a relative
    #                                           path from this file's folder
    units = "mm"                              # of the file's coordinates: m (default), mm, cm, in
    point = [0.0, 0.0, 0.0]                   # m, where the file's origin goes (optional)
    x_axis = [1.0, 0.0, 0.0]                  # the file's axes in B0 (optional, as a box's)
    patch_size = 0.1                          # m, optional: a contact point per patch of the faces

A mesh's faces are wound counter-clockwise seen from the side it pushes to (a closed mesh: from
outside); inconsistently wound faces, or a closed mesh wound inside out, are refused.
Intrusions (``[[vehicle.intrusion]]``, occupant.scenario.intrusion) move any surface, whatever
its shape (its frame is translated and turned): fixed to the vehicle, relative to the vehicle;
on a hinge, relative to its hinged part (an active head restraint coming forward on its seat
back). ``[vehicle] backset`` moves the ``head_restraint`` (a plane, box, cylinder, sphere or
ellipsoid; a mesh is refused there) horizontally, by the same translation of its frame (below).

``[[hinge]]`` tables add parts turning about a lateral axis (a seat back frame on its recliner,
``occupant.scenario.interior_hinge``); a surface with ``on = "<hinge name>"`` moves with that
part (its point, normal and x_axis given in B0 at t = 0). A surface named ``head_restraint`` is
the one a scenario's ``[vehicle] backset`` moves (occupant.scenario.placement).

Surfaces naming one ``crush_group`` are faces of one crushable part (a knee bolster's face and
its lower edge): the bodies of one link that meet them (a knee and its shin) crush the part once,
as one impactor did when its characteristic was measured (``ContactPair.crush_group``,
``occupant.contact.compliant``); its pairs need one force law.

A ``[belt]`` table gives the points a scenario's ``[restraints.belt]`` takes where it does not
give them itself (occupant.scenario.restraints.build_belt): the anchorages are the car's, so
every scenario in this seat shares one set. A file may start from another interior with
``base = "midsize_sedan_driver"`` (a shipped name, or a path: relative, to this file's
folder): it takes the base's characteristics, surfaces, hinges and belt anchorages, and its
own ``[contact_characteristic.*]``, ``[[surface]]``, ``[[hinge]]`` and ``[belt]`` entries
replace those of the same name or add to them (e.g. the same car with the seat moved on its
track for a smaller occupant).
"""
import pathlib
from dataclasses import dataclass, field

from occupant.io.toml_files import InputFileError, located, open_shipped, shipped_names
from occupant.modeling.contacts_toml import read_contacts
from occupant.scenario.interior_hinge import frame_marker, read_hinges
from occupant.scenario.interior_shapes import ALL_KEYS, read_surface
from occupant.sensors.vehicle import TEST_OBJECTS

TOP_KEYS = ("kind", "name", "description", "test_object", "contact_characteristic", "surface", "base",
            "hinge", "belt")
BELT_KEYS = ("retractor", "d_ring", "buckle", "lap_anchor")


class InteriorFileError(InputFileError):
    """A vehicle interior file that cannot be used (names the file, key path and what is accepted)."""


@dataclass
class Interior:
    name: str
    description: str
    file: str
    surfaces: list                                       # Plane, Box, Cylinder, Sphere, Ellipsoid or
    #                                                      Mesh on B0 or a hinge
    characteristics: dict                                # name -> ContactCharacteristic
    defaults: dict = field(default_factory=dict)         # surface name -> characteristic name
    hinges: dict = field(default_factory=dict)           # hinged part name -> modeling elements
    belt: dict = field(default_factory=dict)             # belt anchorage name -> [x, y, z] m in B0
    mesh_files: dict = field(default_factory=dict)       # mesh surface name -> the Path it was read from
    test_object: str = "vehicle"                         # what carries it (B0): vehicle or sled
    crush_groups: dict = field(default_factory=dict)     # surface name -> its crush group

    @property
    def elements(self):
        """The hinged parts' modeling elements, to add to the assembly before the surfaces."""
        return [e for elements in self.hinges.values() for e in elements]


def available_interiors():
    return shipped_names("vehicles", kind="interior")


def load_interior(name_or_path, bases=None, named_by=None, meshes=None):
    """The validated Interior of a shipped name (``vehicles/<name>.toml``) or a path (relative:
    to the folder of the file ``named_by`` that names it, occupant.io.toml_files.located);
    ``bases``: {a ``base`` value: the file read for it} and ``meshes``: {a mesh surface's
    name: the file read for its ``file``} (a run folder's copies, occupant.scenario.load),
    else a base or mesh file is named by this file."""
    path, data, c = open_shipped(name_or_path, "vehicles", "interior", "vehicle interior",
                                 TOP_KEYS, InteriorFileError, named_by=named_by)
    name = c.string(data, "name", "", required=True)
    base = None
    if "base" in data:
        base_name = c.string(data, "base", "", required=True)
        if base_name == name or located(base_name, path).resolve() == pathlib.Path(path).resolve():
            c.fail("base", f"{base_name!r} names this interior itself", "another interior")
        try:
            base = (load_interior(str(bases[base_name]), bases, meshes=meshes)
                    if base_name in (bases or {})
                    else load_interior(base_name, bases, named_by=path, meshes=meshes))
        except InputFileError as err:
            c.fail("base", f"{base_name!r}: {err.problem}", err.accepted)
    characteristics, _ = read_contacts(c, {"contact_characteristic": data.get("contact_characteristic", {})}, ())
    if base is not None:
        characteristics = {**base.characteristics, **characteristics}
    hinges = {**(base.hinges if base is not None else {}), **read_hinges(c, data)}
    surfaces, defaults, crush_groups = [], {}, {}
    mesh_files = {}
    for i, s in enumerate(c.tables(data, "surface", "", required=base is None)):
        p = f"surface[{i}]"
        c.keys(s, ALL_KEYS, p)
        sname = c.string(s, "name", p, required=True)
        if sname in defaults or any(x.name == sname for x in surfaces):
            c.fail(f"{p}.name", f"surface {sname!r} is declared twice", "unique surface names")
        on = c.string(s, "on", p)
        if on is not None and on not in hinges:
            c.fail(f"{p}.on", f"unknown hinge {on!r}", ", ".join(hinges) or "a [[hinge]] of this file")
        geometry, mesh_file = read_surface(c, s, p, sname, on and frame_marker(on), path,
                                           (meshes or {}).get(sname))
        surfaces.append(geometry)
        if mesh_file is not None:
            mesh_files[sname] = mesh_file
        cname = c.string(s, "characteristic", p)
        if cname is not None:
            if cname not in characteristics:
                c.fail(f"{p}.characteristic", f"unknown contact characteristic {cname!r}",
                       ", ".join(characteristics) or "a [contact_characteristic.<name>] table")
            defaults[sname] = cname
        group = c.string(s, "crush_group", p)
        if group is not None:
            if not group:
                c.fail(f"{p}.crush_group", "an empty name", "the crushable part's name")
            crush_groups[sname] = group
    if base is not None:   # the base's surfaces this file does not replace, in the base's order
        own = {x.name for x in surfaces}
        surfaces = [x for x in base.surfaces if x.name not in own] + surfaces
        defaults = {**{k: v for k, v in base.defaults.items() if k not in own}, **defaults}
        mesh_files = {**{k: v for k, v in base.mesh_files.items() if k not in own}, **mesh_files}
        crush_groups = {**{k: v for k, v in base.crush_groups.items() if k not in own},
                        **crush_groups}
    belt = dict(base.belt) if base is not None else {}
    own = c.table(data, "belt", "")
    if own:
        c.keys(own, BELT_KEYS, "belt")
        belt.update({k: [float(x) for x in c.vector(own, k, "belt")] for k in BELT_KEYS if k in own})
    test_object = c.string(data, "test_object", "", choices=tuple(TEST_OBJECTS), what="test object") \
        or (base.test_object if base is not None else "vehicle")
    return Interior(name, data.get("description", ""), str(path), surfaces, characteristics, defaults,
                    hinges, belt, mesh_files, test_object, crush_groups)
