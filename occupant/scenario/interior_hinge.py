"""Hinged parts of a vehicle interior (``[[hinge]]`` in ``vehicles/*.toml``): a rigid part turning
about an axis along B0's y through ``pivot``, held by a moment-rotation table (a seat back frame
on its recliner, which yields rearward in a rear impact and carries the head restraint with it).
Surfaces name the part with ``on``; their point, normal and x_axis are given in B0 at t = 0,
where the part's frame coincides with B0. File form::

    [[hinge]]
    name = "seat_back_frame"
    pivot = [-0.25, 0.0, 0.0]          # m in B0, a point of the axis
    mass = 10.0                        # kg
    com = [-0.35, 0.0, 0.30]           # m in B0 at t = 0
    inertia = [0.6, 0.6, 0.1]          # kg m^2 about the com, B0 axes
    moment = [[0.0, 0.0], [0.1, 1500.0]]   # rows (rearward rotation rad, restoring moment N m)
    absorption = 0.7                   # share of the loading work a load-unload cycle keeps
    damping = 20.0                     # N m s/rad

The joint's coordinate is the rearward rotation (top of the part towards -x), 0 at the start.
"""
import numpy as np

from occupant.modeling import Joint, JointResistance, Marker, ModelingError, Part, Pose
from occupant.modeling.contacts_toml import curve_rows

KEYS = ("name", "pivot", "mass", "com", "inertia", "moment", "absorption", "damping")
# joint frame: z along -y of B0, so a positive turn moves +z of B0 towards -x (rearward)
R_HINGE = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])


def frame_marker(name):
    """The marker of hinged part ``name`` that coincides with B0 at t = 0 (its surfaces' frame)."""
    return f"{name}_frame"


def read_hinges(c, data):
    """{name: [modeling elements]} of the file's ``[[hinge]]`` tables (checker ``c``)."""
    out = {}
    for i, h in enumerate(c.tables(data, "hinge", "")):
        p = f"hinge[{i}]"
        c.keys(h, KEYS, p)
        name = c.string(h, "name", p, required=True)
        if name in out:
            c.fail(f"{p}.name", f"hinge {name!r} is declared twice", "unique hinge names")
        pivot = c.vector(h, "pivot", p, required=True)
        com = c.vector(h, "com", p, required=True)
        if "moment" not in h:
            c.fail(f"{p}.moment", "missing", "[[0.0, 0.0], [rad, N m], ...]")
        rows = curve_rows(c, h, "moment", p, x="rotation rad", y="moment N-m")
        try:
            out[name] = [
                Part(name, c.number(h, "mass", p, required=True, positive=True), tuple(com),
                     tuple(c.vector(h, "inertia", p, required=True, positive=True))),
                Marker(frame_marker(name), name),
                Marker(f"{name}_axis", name, tuple(pivot), R_HINGE),
                Joint(f"{name}_hinge", "revolute", None, name, Pose(tuple(pivot), R_HINGE),
                      child_marker=f"{name}_axis"),
                JointResistance(f"{name}_resistance", f"{name}_hinge", table=np.array(rows, float),
                                absorption=c.number(h, "absorption", p, default=0.0),
                                damping=c.number(h, "damping", p, default=0.0, nonneg=True)),
            ]
        except ModelingError as err:
            c.fail(p, str(err))
    return out
