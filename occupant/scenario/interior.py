"""Vehicle interior files (``vehicles/*.toml``, ``kind = "interior"``): the contact surfaces of
one seating position, placed in the vehicle frame B0 and moving with it (seat cushion and back,
floor and toe pan, knee bolster, instrument panel, ...), and their contact characteristics.

Frame: B0, x forward, y left, z up (design.md section 5), origin at the seating position's
design H-point, where the scenario's posture puts the occupant's H-point (``occupant.h_point``
shifts it). File form::

    kind = "interior"
    name = "sled_buck_passenger"
    description = "..."
    [contact_characteristic.seat_foam]        # occupant.modeling.contacts_toml
    ...
    [[surface]]
    name = "seat_cushion"
    shape = "plane"                           # plane (ellipsoids on B0 come with the geometry work)
    point = [0.1, 0.0, -0.12]                 # m, a point of the plane
    normal = [-0.26, 0.0, 0.97]               # towards the occupant (normalised on load)
    x_axis = [1.0, 0.0, 0.0]                  # in-plane direction of half_size[0] (optional)
    half_size = [0.35, 0.25]                  # m, bounded rectangle (optional: unbounded)
    # radius = 0.19                           # m, or a bounded disc (a steering wheel)
    thickness = 0.03                          # m, a plate behind the rectangle (optional)
    characteristic = "seat_foam"              # default characteristic of pairs with it
    [belt]                                    # the seat's belt anchorages (optional), m in B0
    retractor = [-0.35, 0.30, -0.10]          # also d_ring, buckle, lap_anchor
    ...

``[[hinge]]`` tables add parts turning about a lateral axis (a seat back frame on its recliner,
``occupant.scenario.interior_hinge``); a surface with ``on = "<hinge name>"`` moves with that
part (its point, normal and x_axis given in B0 at t = 0). A surface named ``head_restraint`` is
the one a scenario's ``[vehicle] backset`` moves (occupant.scenario.placement).

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
from occupant.modeling import ModelingError, Plane
from occupant.modeling.contacts_toml import read_contacts
from occupant.scenario.interior_hinge import frame_marker, read_hinges

TOP_KEYS = ("kind", "name", "description", "contact_characteristic", "surface", "base", "hinge",
            "belt")
BELT_KEYS = ("retractor", "d_ring", "buckle", "lap_anchor")
SURFACE_KEYS = ("name", "shape", "point", "normal", "x_axis", "half_size", "radius", "thickness",
                "characteristic", "on")
SHAPES = ("plane",)


class InteriorFileError(InputFileError):
    """A vehicle interior file that cannot be used (names the file, key path and what is accepted)."""


@dataclass
class Interior:
    name: str
    description: str
    file: str
    surfaces: list                                       # occupant.modeling.Plane on B0 or a hinge
    characteristics: dict                                # name -> ContactCharacteristic
    defaults: dict = field(default_factory=dict)         # surface name -> characteristic name
    hinges: dict = field(default_factory=dict)           # hinged part name -> modeling elements
    belt: dict = field(default_factory=dict)             # belt anchorage name -> [x, y, z] m in B0

    @property
    def elements(self):
        """The hinged parts' modeling elements, to add to the assembly before the surfaces."""
        return [e for elements in self.hinges.values() for e in elements]


def available_interiors():
    return shipped_names("vehicles", kind="interior")


def load_interior(name_or_path, bases=None, named_by=None):
    """The validated Interior of a shipped name (``vehicles/<name>.toml``) or a path (relative:
    to the folder of the file ``named_by`` that names it, occupant.io.toml_files.located);
    ``bases``: {a ``base`` value: the file read for it} (a run folder's copies,
    occupant.scenario.load), else a base is named by this file."""
    path, data, c = open_shipped(name_or_path, "vehicles", "interior", "vehicle interior",
                                 TOP_KEYS, InteriorFileError, named_by=named_by)
    name = c.string(data, "name", "", required=True)
    base = None
    if "base" in data:
        base_name = c.string(data, "base", "", required=True)
        if base_name == name or located(base_name, path).resolve() == pathlib.Path(path).resolve():
            c.fail("base", f"{base_name!r} names this interior itself", "another interior")
        try:
            base = (load_interior(str(bases[base_name]), bases) if base_name in (bases or {})
                    else load_interior(base_name, bases, named_by=path))
        except InputFileError as err:
            c.fail("base", f"{base_name!r}: {err.problem}", err.accepted)
    characteristics, _ = read_contacts(c, {"contact_characteristic": data.get("contact_characteristic", {})}, ())
    if base is not None:
        characteristics = {**base.characteristics, **characteristics}
    hinges = {**(base.hinges if base is not None else {}), **read_hinges(c, data)}
    surfaces, defaults = [], {}
    for i, s in enumerate(c.tables(data, "surface", "", required=base is None)):
        p = f"surface[{i}]"
        c.keys(s, SURFACE_KEYS, p)
        sname = c.string(s, "name", p, required=True)
        if sname in defaults or any(x.name == sname for x in surfaces):
            c.fail(f"{p}.name", f"surface {sname!r} is declared twice", "unique surface names")
        shape = s.get("shape", "plane")
        if shape == "ellipsoid":
            c.fail(f"{p}.shape", "ellipsoids fixed to the vehicle are not available yet (the "
                   "modeling layer places ellipsoids on parts only)", ", ".join(SHAPES))
        c.string(s, "shape", p, choices=SHAPES, what="shape")
        half = s.get("half_size")
        if half is not None:
            half = c.vector(s, "half_size", p, n=2, positive=True)
        radius = c.number(s, "radius", p, positive=True)
        if half is not None and radius is not None:
            c.fail(f"{p}.radius", "given with half_size: a surface is bounded by a rectangle or "
                   "by a disc", "half_size (a rectangle) or radius (a disc), not both")
        thickness = c.number(s, "thickness", p, positive=True)   # only a bounded one's: Plane's check
        on = c.string(s, "on", p)
        if on is not None and on not in hinges:
            c.fail(f"{p}.on", f"unknown hinge {on!r}", ", ".join(hinges) or "a [[hinge]] of this file")
        try:
            surfaces.append(Plane(sname, on and frame_marker(on), c.vector(s, "point", p, required=True),
                                  c.vector(s, "normal", p, required=True),
                                  c.vector(s, "x_axis", p, default=(1.0, 0.0, 0.0)), half, thickness,
                                  radius))
        except ModelingError as err:
            c.fail(p, str(err))
        cname = c.string(s, "characteristic", p)
        if cname is not None:
            if cname not in characteristics:
                c.fail(f"{p}.characteristic", f"unknown contact characteristic {cname!r}",
                       ", ".join(characteristics) or "a [contact_characteristic.<name>] table")
            defaults[sname] = cname
    if base is not None:   # the base's surfaces this file does not replace, in the base's order
        own = {x.name for x in surfaces}
        surfaces = [x for x in base.surfaces if x.name not in own] + surfaces
        defaults = {**{k: v for k, v in base.defaults.items() if k not in own}, **defaults}
    belt = dict(base.belt) if base is not None else {}
    own = c.table(data, "belt", "")
    if own:
        c.keys(own, BELT_KEYS, "belt")
        belt.update({k: [float(x) for x in c.vector(own, k, "belt")] for k in BELT_KEYS if k in own})
    return Interior(name, data.get("description", ""), str(path), surfaces, characteristics, defaults,
                    hinges, belt)
