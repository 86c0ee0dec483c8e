"""Intrusion of interior surfaces (``[[vehicle.intrusion]]`` of a scenario): surfaces of the
interior pushed in relative to the vehicle by a velocity-time profile, as MADYMO and ATB
side-impact models move the door's inner panel by the door velocity measured in a full-scale
test (occupant.modeling.surface_motions). Any surface of the interior fixed to the vehicle
moves, whatever its shape (plane, box, cylinder, sphere, ellipsoid, mesh): its frame is
translated; a surface on a hinge (``on``) is not one of them. File form::

    [[vehicle.intrusion]]
    name = "door"                                  # its outputs: door.displacement, door.velocity
    surfaces = ["door_panel", "armrest"]           # surfaces of the interior fixed to B0
    direction = [0.0, -1.0, 0.0]                   # B0, towards the occupant (normalised)
    velocity = [[0.0, 0.0], [0.01, 5.0], [0.04, 0.0]]   # rows (t s, m/s) relative to the vehicle

At rest before the first row, the velocity linear between rows and kept after the last one.
"""
from occupant.modeling import ModelingError, SurfaceMotion
from occupant.modeling.contacts_toml import curve_rows
from occupant.scenario.keys import names as keys_of, read

# the file's key and what it accepts, per field of SurfaceMotion
FIELDS = {"geometries": ("surfaces", "a list of the interior's surfaces"),
          "direction": ("direction", "a non-zero [x, y, z] in B0"),
          "velocity": ("velocity", "rows [t s, v m/s] with t from 0 on, strictly increasing")}


def read_intrusions(c, vehicle, surfaces):
    """The SurfaceMotions of ``vehicle``'s (the scenario's [vehicle] table) ``intrusion``
    tables; ``surfaces`` the names of the interior's surfaces on B0 (checker ``c``)."""
    out = []
    for i, table in enumerate(c.tables(vehicle, "intrusion", "vehicle")):
        p = f"vehicle.intrusion[{i}]"
        c.keys(table, keys_of(p), p)
        name = read(c, table, p, "name")
        if any(m.name == name for m in out):
            c.fail(f"{p}.name", f"intrusion {name!r} is declared twice", "unique names")
        names = c.strings(table, "surfaces", p, required=True, choices=surfaces, what="surface")
        taken = [s for m in out for s in m.geometries if s in names]
        if taken:
            c.fail(f"{p}.surfaces", f"{taken[0]!r} is moved by another intrusion already",
                   "each surface in one intrusion")
        if "velocity" not in table:
            c.fail(f"{p}.velocity", "missing", "[[t s, v m/s], ...]")
        try:
            out.append(SurfaceMotion(name, names, c.vector(table, "direction", p, required=True),
                                     curve_rows(c, table, "velocity", p, x="time s",
                                                y="velocity m/s")))
        except ModelingError as err:     # "surface motion '<name>'.<field>: <problem>"
            field, _, problem = str(err).partition(": ")
            key, accepted = FIELDS[field.rsplit(".", 1)[-1]]
            c.fail(f"{p}.{key}", problem, accepted)
    return out
