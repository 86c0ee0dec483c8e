"""Intrusion of interior surfaces (``[[vehicle.intrusion]]`` of a scenario): surfaces of the
interior pushed in relative to the vehicle by a velocity-time profile, as MADYMO and ATB
side-impact models move the door's inner panel by the door velocity measured in a full-scale
test, and/or turned about an axis by an angular velocity-time profile, as MADYMO's prescribed
motion of a vehicle-fixed system gives it a translation and an orientation history (a door
turning about its front hinge line, a toe pan or instrument panel rotating rearward and up)
(occupant.modeling.surface_motions). Any surface of the interior moves, whatever its shape
(plane, box, cylinder, sphere, ellipsoid, mesh): its frame is turned and translated, its
normals with it. A surface fixed to the vehicle moves relative to the vehicle; a surface on a
hinge (``on``) relative to its hinged part, whose frame is B0's at t = 0 (an active head
restraint coming forward and up on its seat back in a rear impact): the directions and the
axis are given in B0 as the interior gives the surface, and turn with the part. One intrusion
moves surfaces of one frame (all on the vehicle or all on one hinge). File form::

    [[vehicle.intrusion]]
    name = "door"                                  # outputs: door.displacement, .velocity,
                                                   # .angle, .angular_velocity
    surfaces = ["door_panel", "armrest"]           # surfaces of the interior
    direction = [0.0, -1.0, 0.0]                   # B0, towards the occupant (normalised)
    velocity = [[0.0, 0.0], [0.01, 5.0], [0.04, 0.0]]   # rows (t s, m/s) relative to the vehicle
    axis_point = [0.9, 0.45, 0.3]                  # m, B0: a point of the hinge line
    axis = [0.0, 0.0, 1.0]                         # B0, turning right-handed about it
    angular_velocity_deg = [[0.0, 0.0], [0.02, 200.0], [0.04, 0.0]]   # rows (t s, deg/s)

``direction`` with ``velocity``, ``axis_point`` and ``axis`` with ``angular_velocity_deg``; one of
the two profiles at least. A point p of a surface is at R(theta) (p - a) + a + s u: turned about
the axis where it stands in the vehicle, then translated. Each profile is at rest before its
first row, linear between rows and kept after the last one.
"""
import numpy as np

from occupant.modeling import ModelingError, SurfaceMotion
from occupant.modeling.contacts_toml import curve_rows
from occupant.scenario.keys import names as keys_of, read

# the file's key and what it accepts, per field of SurfaceMotion
FIELDS = {"geometries": ("surfaces", "a list of the interior's surfaces"),
          "direction": ("direction", "a non-zero [x, y, z] in B0"),
          "velocity": ("velocity", "rows [t s, v m/s] with t from 0 on, strictly increasing"),
          "axis_point": ("axis_point", "[x, y, z] m in B0"),
          "axis": ("axis", "a non-zero [x, y, z] in B0"),
          "angular_velocity": ("angular_velocity_deg",
                               "rows [t s, omega deg/s] with t from 0 on, strictly increasing")}
# the keys that come together: (keys, the profile's key)
GROUPS = ((("direction", "velocity"), "velocity"),
          (("axis_point", "axis", "angular_velocity_deg"), "angular_velocity_deg"))


def read_intrusions(c, vehicle, surfaces):
    """The SurfaceMotions of ``vehicle``'s (the scenario's [vehicle] table) ``intrusion``
    tables; ``surfaces`` {name: hinge} of the interior's surfaces (None: fixed to B0; else the
    name of the hinged part it is on) (checker ``c``)."""
    out = []
    for i, table in enumerate(c.tables(vehicle, "intrusion", "vehicle")):
        p = f"vehicle.intrusion[{i}]"
        c.keys(table, keys_of(p), p)
        name = read(c, table, p, "name")
        if any(m.name == name for m in out):
            c.fail(f"{p}.name", f"intrusion {name!r} is declared twice", "unique names")
        names = c.strings(table, "surfaces", p, required=True, choices=list(surfaces),
                          what="surface")
        frames = {surfaces[n] for n in names}
        if len(frames) > 1:
            where = ", ".join(f"{n!r} {_frame(surfaces[n])}" for n in names)
            c.fail(f"{p}.surfaces", f"its surfaces are on different frames ({where})",
                   "surfaces all fixed to the vehicle or all on one hinge (one intrusion each)")
        taken = [s for m in out for s in m.geometries if s in names]
        if taken:
            c.fail(f"{p}.surfaces", f"{taken[0]!r} is moved by another intrusion already",
                   "each surface in one intrusion")
        for keys, profile in GROUPS:
            given = [k for k in keys if k in table]
            if given and len(given) < len(keys):
                missing = next(k for k in keys if k not in table)
                c.fail(f"{p}.{missing}", f"missing (given with {', '.join(given)})",
                       f"{', '.join(keys)} together")
        if not any(profile in table for _, profile in GROUPS):
            c.fail(f"{p}.velocity", "missing (neither a velocity nor an angular_velocity_deg "
                   "profile)", "[[t s, v m/s], ...] with direction, or [[t s, omega deg/s], "
                   "...] with axis_point and axis, or both")
        motion = {}
        if "velocity" in table:
            motion.update(direction=c.vector(table, "direction", p),
                          velocity=curve_rows(c, table, "velocity", p, x="time s",
                                              y="velocity m/s"))
        if "angular_velocity_deg" in table:
            rows = curve_rows(c, table, "angular_velocity_deg", p, x="time s",
                              y="angular velocity deg/s")
            motion.update(axis_point=c.vector(table, "axis_point", p),
                          axis=c.vector(table, "axis", p),
                          angular_velocity=[[t, np.radians(w)] for t, w in rows])
        try:
            out.append(SurfaceMotion(name, names, **motion))
        except ModelingError as err:     # "surface motion '<name>'.<field>: <problem>"
            field, _, problem = str(err).partition(": ")
            key, accepted = FIELDS[field.rsplit(".", 1)[-1]]
            c.fail(f"{p}.{key}", problem, accepted)
    return out


def _frame(hinge):
    """Where a surface on ``hinge`` (None: fixed to the vehicle) is, in words."""
    return "on the vehicle" if hinge is None else f"on hinge {hinge!r}"
