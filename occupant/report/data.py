"""What the report shows, taken out of a run: the occupant's contact ellipsoids and the vehicle's
surfaces as drawable shapes, motion relative to the vehicle, filtered channels, restraint outputs
and the energy terms. Pure numpy; the figure modules draw what this module returns.

A run (occupant/scenario/run.py) carries ``name``, ``title``, ``scenario``, ``model`` (its
``source`` is the modeling Assembly), ``results`` (occupant.results.Results), ``criteria`` (dicts
criterion, value, unit, limit, pass) and ``regulation``.
"""
from dataclasses import dataclass

import numpy as np

from occupant.injury.criteria import CRITERION_CFC, G0
from occupant.display import unit_text
from occupant.injury.filters import cfc_filter
from occupant.modeling.geometry import Box, Cylinder, Ellipsoid, Mesh, Plane, Sphere, placement
from occupant.scenario.criteria import T1_CODE, com_in_vehicle
from occupant.scenario.run import on_the_road

PLANE_EXTENT = 0.4   # m, half size of an unbounded plane's outline until a view spans it (spanned)
DISC_SIDES = 32      # sides of the regular polygon a disc-bounded plane is drawn as [E]
SOLIDS = (Box, Cylinder, Mesh)   # the interior's shapes drawn by their triangles (solid_triangles),
#                                 and its ellipsoids and spheres (on_vehicle)


@dataclass
class Shape:
    """An ellipsoid (a sphere has equal semi-axes) fixed to body ``body`` (-1: the vehicle B0):
    centre ``center`` (3,) and axes ``R`` (3, 3, columns) in that body's frame; ``segment`` the
    body's name."""
    name: str
    body: int
    center: np.ndarray
    R: np.ndarray
    semi_axes: np.ndarray
    segment: str = ""


@dataclass
class Surface:
    """A surface of the vehicle or of a body, in the frame of ``body`` (-1: B0). A plane:
    ``outline`` (m, 3) its boundary polygon (plane_outline), counter-clockwise about its normal,
    ``triangles`` None. A box, cylinder or mesh (SOLIDS), or the vehicle's ellipsoid or sphere
    (on_vehicle): ``outline`` (m, 3) its vertices and
    ``triangles`` (k, 3) the vertex indices of its faces (solid_triangles), counter-clockwise
    seen from outside. ``moved`` (n, 4, 4) per sample the rigid motion, in its body's frame, of a
    surface under a prescribed motion (an intrusion: occupant.modeling.surface_motions, its
    translation and rotation), else None. ``unbounded``: a
    plane without bounds (the road), its outline a stand-in square that does not frame a view and
    that each view makes span its scene (``spanned``)."""
    name: str
    body: int
    outline: np.ndarray
    moved: np.ndarray | None = None
    unbounded: bool = False
    triangles: np.ndarray | None = None

    @property
    def faces(self):
        """(k, 3) vertex indices of its triangles: a solid's, or a fan over a plane's convex
        outline."""
        if self.triangles is not None:
            return self.triangles
        m = len(self.outline)
        return np.array([(0, k, k + 1) for k in range(1, m - 1)], int).reshape(-1, 3)


def _marker_frame(asm, model, marker):
    """(body index, -1 for B0; X_body_marker (4, 4)) of a marker name, or of B0 for None: the
    compiled model's marker frame in its body (link) frame, which differs from the part frame
    when a joint places the link by a marker. A marker on a part that is not a body of the model
    (a part named like the base) is on B0."""
    X = np.eye(4)
    if marker is None:
        return -1, X
    if marker in model.marker_names:
        k = model.marker(marker)
        X[:3, :3], X[:3, 3] = model.marker_R[k], model.marker_p[k]
        return int(model.marker_body[k]), X
    m = asm.markers[marker]
    body = model.body_names.index(m.part) if m.part in model.body_names else -1
    return body, m.transform


def on_vehicle(asm, g):
    """Whether the Ellipsoid or Sphere ``g`` is the vehicle interior's (drawn as its surfaces
    are, not as the occupant's): fixed to B0 (no marker) or on an interior hinged part's frame
    marker (occupant.scenario.interior_hinge.frame_marker: the marker its surfaces take)."""
    from occupant.scenario.interior_hinge import frame_marker
    return g.marker is None or g.marker == frame_marker(asm.markers[g.marker].part)


def shapes(model):
    """Shape for every Ellipsoid and Sphere of the model's Assembly (``model.source``) but the
    vehicle's (on_vehicle: those are surfaces)."""
    asm = getattr(model, "source", None)
    out = []
    if asm is None:
        return out
    for g in asm.geometries.values():
        if isinstance(g, (Ellipsoid, Sphere)) and not on_vehicle(asm, g):
            body, X = _marker_frame(asm, model, g.marker)
            R, p = placement(g)
            semi = np.asarray(g.semi_axes, float) if isinstance(g, Ellipsoid) else np.full(3, g.radius)
            segment = model.body_names[body] if body >= 0 else ""
            out.append(Shape(g.name, body, X[:3, :3] @ p + X[:3, 3], X[:3, :3] @ R, semi, segment))
    return out


def plane_outline(plane):
    """(m, 3) boundary of a Plane in its marker's frame, counter-clockwise about its normal, in
    its axes u, w (Plane.axes): a disc (``radius``) the regular DISC_SIDES-gon inscribed in its
    circle, point + r (cos a u + sin a w); a rectangle its four corners point +- h_u u +- h_w w;
    an unbounded plane the square of half size PLANE_EXTENT."""
    u, w = plane.axes[:, 0], plane.axes[:, 1]
    if plane.radius is not None:
        a = 2 * np.pi * np.arange(DISC_SIDES) / DISC_SIDES
        su, sw = plane.radius * np.cos(a), plane.radius * np.sin(a)
    else:
        half = np.full(2, PLANE_EXTENT) if plane.half_size is None else np.asarray(plane.half_size, float)
        su, sw = half[0] * np.array([-1, 1, 1, -1]), half[1] * np.array([-1, -1, 1, 1])
    return plane.point + su[:, None] * u + sw[:, None] * w


def ring_triangles(plane):
    """((2 DISC_SIDES, 3) vertices, (2 DISC_SIDES, 3) triangles) of a Plane's ring (``radius``
    and ``inner_radius``: a steering wheel's rim, open within) in its marker's frame: the
    DISC_SIDES-gons inscribed in its outer circle (vertices 0 .. DISC_SIDES - 1) and in its inner
    one (the next DISC_SIDES) as plane_outline places them, the band between them split into
    triangles counter-clockwise about its normal; the hole left open."""
    u, w = plane.axes[:, 0], plane.axes[:, 1]
    a = 2 * np.pi * np.arange(DISC_SIDES) / DISC_SIDES
    radii = np.repeat([plane.radius, plane.inner_radius], DISC_SIDES)
    a = np.tile(a, 2)
    V = plane.point + (radii * np.cos(a))[:, None] * u + (radii * np.sin(a))[:, None] * w
    k = np.arange(DISC_SIDES)
    nxt = (k + 1) % DISC_SIDES
    F = np.concatenate([np.column_stack([k, nxt, DISC_SIDES + nxt]),
                        np.column_stack([k, DISC_SIDES + nxt, DISC_SIDES + k])])
    return V, F


def solid_triangles(g):
    """((m, 3) vertices, (k, 3) triangles) of a Box, Cylinder, Mesh, Ellipsoid or Sphere in its
    marker's frame (its ``rotation`` and ``position`` applied, as
    occupant.modeling.compile_contacts places it), faces counter-clockwise seen from outside: a
    box its 8 corners +- half_extents on its axes and 12 triangles; a cylinder the DISC_SIDES-gon
    prism inscribed in it (flat ends) or the capsule of the same polygon with hemispherical caps
    (round ends), its axis z, the straight part ``length`` long; an ellipsoid or sphere the
    UV sphere of DISC_SIDES meridians and DISC_SIDES / 2 parallels scaled by its semi-axes; a
    mesh its own faces (its file's, scaled to m)."""
    import trimesh
    if isinstance(g, (Ellipsoid, Sphere)):
        semi = np.asarray(g.semi_axes, float) if isinstance(g, Ellipsoid) else np.full(3, g.radius)
        m = trimesh.creation.uv_sphere(radius=1.0, count=[DISC_SIDES, DISC_SIDES // 2])
        m = trimesh.Trimesh(m.vertices * semi, m.faces, process=False)
    elif isinstance(g, Box):
        m = trimesh.creation.box(extents=2 * np.asarray(g.half_extents, float))
    elif isinstance(g, Cylinder) and g.ends == "round":
        m = trimesh.creation.capsule(height=g.length, radius=g.radius, count=[DISC_SIDES, DISC_SIDES // 2])
    elif isinstance(g, Cylinder):
        m = trimesh.creation.cylinder(radius=g.radius, height=g.length, sections=DISC_SIDES)
    else:
        m = g.mesh
    V, F = np.asarray(m.vertices, float), np.asarray(m.faces, int)
    return V @ np.asarray(g.rotation, float).T + np.asarray(g.position, float), F


def surfaces(model, results=None):
    """Surface for every Plane (half size PLANE_EXTENT when unbounded; a ring its band's
    triangles, ring_triangles), Box, Cylinder and Mesh,
    and the vehicle's Ellipsoids and Spheres (on_vehicle) (solid_triangles) of the model's
    Assembly, with ``results`` the motion of those a SurfaceMotion moves (at its displacement
    output's samples: ``SurfaceMotion.poses``)."""
    asm = getattr(model, "source", None)
    out = []
    if asm is None:
        return out
    moved = {}
    for m in getattr(asm, "surface_motions", {}).values():   # an Assembly has the table
        if results is not None and f"{m.name}.displacement" in results.outputs:
            # given in its geometries' marker frame (B0, or a hinged part's frame): in the body's
            _, X = _marker_frame(asm, model, asm.geometries[m.geometries[0]].marker)
            moved.update(dict.fromkeys(m.geometries, X @ m.poses(results.t) @ np.linalg.inv(X)))
    for g in asm.geometries.values():
        if isinstance(g, Plane) and g.inner_radius is not None:   # a ring: its band's triangles
            body, X = _marker_frame(asm, model, g.marker)
            local, triangles = ring_triangles(g)
            out.append(Surface(g.name, body, local @ X[:3, :3].T + X[:3, 3], moved.get(g.name),
                               triangles=triangles))
        elif isinstance(g, Plane):
            body, X = _marker_frame(asm, model, g.marker)
            local = plane_outline(g)
            out.append(Surface(g.name, body, local @ X[:3, :3].T + X[:3, 3], moved.get(g.name),
                               unbounded=g.half_size is None and g.radius is None))
        elif isinstance(g, SOLIDS) or isinstance(g, (Ellipsoid, Sphere)) and on_vehicle(asm, g):
            body, X = _marker_frame(asm, model, g.marker)
            local, triangles = solid_triangles(g)
            out.append(Surface(g.name, body, local @ X[:3, :3].T + X[:3, 3], moved.get(g.name),
                               triangles=triangles))
    return out


def shadow(points, triangles, axes=(0, 2)):
    """The shadow of a solid (its vertices ``points`` (m, 3) in B0 and ``triangles`` (k, 3)) on
    the plane of B0 ``axes``: ((j, 3, 2) its triangles projected, each turned counter-clockwise
    in that plane, so that filled with the non-zero rule they cover their union once;
    (e, 2, 2) its outline's segments). The outline: the edges of one face only (an open mesh's
    border) and those between faces turned to different sides of the view (normal along the
    viewing axis of different signs, edge-on the third): a solid's silhouette and folds; a box
    seen along an axis its rectangle. Triangles seen edge-on cast no area and are left out."""
    depth = 3 - sum(axes)
    P = points[:, list(axes)]
    T = P[triangles]                                          # (k, 3, 2)
    area = ((T[:, 1, 0] - T[:, 0, 0]) * (T[:, 2, 1] - T[:, 0, 1])
            - (T[:, 2, 0] - T[:, 0, 0]) * (T[:, 1, 1] - T[:, 0, 1]))
    n = np.cross(points[triangles[:, 1]] - points[triangles[:, 0]],
                 points[triangles[:, 2]] - points[triangles[:, 0]])
    scale = np.linalg.norm(n, axis=1)
    side = np.where(np.abs(n[:, depth]) > 1e-9 * np.maximum(scale, 1e-300), np.sign(n[:, depth]), 0.0)
    keep = side != 0
    fill = np.where((area[keep] < 0)[:, None, None], T[keep][:, ::-1], T[keep])
    edges = np.sort(np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]]), axis=1)
    sides = np.tile(side, 3)
    order = np.lexsort((edges[:, 1], edges[:, 0]))
    edges, sides = edges[order], sides[order]
    key = edges[:, 0] * (len(points) + 1) + edges[:, 1]
    start = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    count = np.diff(np.r_[start, len(key)])
    lo = np.minimum.reduceat(sides, start)
    hi = np.maximum.reduceat(sides, start)
    drawn = (count == 1) | (lo != hi)
    return fill, P[edges[start[drawn]]]


def spanned(surfaces, rel, lo, hi, i=0):
    """``surfaces`` with each unbounded one's outline (a square of half size PLANE_EXTENT about
    its point, Surface.unbounded) made the rectangle in its plane, along the same axes, that
    covers the box ``lo``-``hi`` (m, B0: the scene a view frames) seen along its normal, its
    place taken at sample ``i``: the road under a pedestrian thrown 2 m along it was drawn as a
    0.8 m stub at the feet. The others as they are."""
    from dataclasses import replace
    corners = np.array([[(lo, hi)[k >> j & 1][j] for j in range(3)] for k in range(8)], float)
    out = []
    for s in surfaces:
        if not s.unbounded:
            out.append(s)
            continue
        X = surface_pose(rel, s)[i]
        c = s.outline @ X[:3, :3].T + X[:3, 3]           # plane_outline's corners (-,-), (+,-), (+,+), (-,+)
        u, w = c[1] - c[0], c[3] - c[0]
        u, w = u / np.linalg.norm(u), w / np.linalg.norm(w)
        n = np.cross(u, w)
        middle = 0.5 * (np.asarray(lo, float) + np.asarray(hi, float))
        foot = middle - ((middle - c.mean(axis=0)) @ n) * n   # the box's centre on the plane
        hu, hw = (np.max(np.abs((corners - foot) @ a)) for a in (u, w))
        world = foot + np.outer((-hu, hu, hu, -hu), u) + np.outer((-hw, -hw, hw, hw), w)
        out.append(replace(s, outline=(world - X[:3, 3]) @ X[:3, :3]))   # back into its body's frame
    return out


def surface_pose(rel, surface):
    """(n, 4, 4) pose of ``surface``'s frame in B0 (pose_of its body, moved by its motion)."""
    X = pose_of(rel, surface.body)
    if surface.moved is None:
        return X
    return X @ surface.moved


# a surface turned more than 20 deg from edge-on to a view faces it: its shadow is no line [E]
FACING_SIN = np.sin(np.radians(20.0))


def facing(outline, depth):
    """Whether a surface (its outline (m, 3) in B0) faces a view looking along B0 axis ``depth``:
    drawn filled it would cover what lies behind or in front of it. Its normal is the polygon's
    vector area, 1/2 sum p_k x p_k+1 (Newell), whatever its number of vertices."""
    n = np.cross(outline, np.roll(outline, -1, axis=0)).sum(axis=0)
    return bool(abs(n[depth]) > FACING_SIN * np.linalg.norm(n))


def relative_poses(results):
    """(n, nb, 4, 4) body poses in the vehicle frame B0: X_B0^-1 X_body."""
    B = results.base_poses
    R0t = np.swapaxes(B[:, :3, :3], 1, 2)                            # (n, 3, 3)
    out = np.empty_like(results.body_poses)
    out[:, :, :3, :3] = np.einsum("tij,tbjk->tbik", R0t, results.body_poses[:, :, :3, :3])
    out[:, :, :3, 3] = np.einsum("tij,tbj->tbi", R0t, results.body_poses[:, :, :3, 3] - B[:, None, :3, 3])
    out[:, :, 3, :] = (0.0, 0.0, 0.0, 1.0)
    return out


def pose_of(rel, body):
    """(n, 4, 4) pose of body index ``body`` in B0 (identity for -1)."""
    if body < 0:
        return np.broadcast_to(np.eye(4), (rel.shape[0], 4, 4))
    return rel[:, body]


def projected_ellipse(X, shape, axes=(0, 2)):
    """(centre (2,), width, height, angle deg) of the ellipsoid's shadow on the plane of B0 axes
    ``axes`` (x-z: side view; y-z: front view), for a matplotlib Ellipse. The ellipsoid
    {p: (p-c)' M^-1 (p-c) <= 1}, M = R diag(a^2) R' in the frame of X; its orthogonal projection
    keeps that 2x2 block of M (the shadow of an ellipsoid is the ellipse of the marginal
    quadratic form)."""
    R = X[:3, :3] @ shape.R
    c = X[:3, :3] @ shape.center + X[:3, 3]
    M = (R * shape.semi_axes**2) @ R.T
    S = M[np.ix_(axes, axes)]
    w, V = np.linalg.eigh(S)
    w = np.sqrt(np.maximum(w, 0.0))
    angle = np.degrees(np.arctan2(V[1, 1], V[0, 1]))
    return c[list(axes)], 2 * w[1], 2 * w[0], angle


def frame_name(run):
    """What B0, the frame the report's motion is drawn in, is: the road for a pedestrian run
    (its vehicle is a body sliding on B0, occupant/scenario/pedestrian.py), else the vehicle."""
    return "road frame" if on_the_road(run) else "vehicle frame"


def pulse_direction(run):
    """(3,) unit B0 axis along which the vehicle loses its delta-v (the pulse's ``direction``,
    x when it names none)."""
    d = np.asarray(getattr(getattr(run, "pulse", None), "direction", None) or (1.0, 0.0, 0.0), float)
    n = np.linalg.norm(d)
    return d / n if n > 0 else np.array([1.0, 0.0, 0.0])


def vehicle_motion(run):
    """(what moves, {axis: ((n,) acceleration in g, (n,) speed in km/h)}) of the vehicle the
    occupant meets. What moves: the interior's test object ("vehicle" or "sled",
    occupant.scenario.interior), or "car" in the road frame. In the vehicle frame: B0's acceleration (gravity excluded:
    occupant.sensors.vehicle_acceleration, the ISO-MME export's vehicle channels) and velocity
    along each B0 axis that carries motion (a side pulse moves along y, a pre-crash pitch adds
    z), the pulse's axis when none does. In the road frame (pedestrian): the car body's travel coordinate along the road's x
    (occupant.scenario.vehicle_front.vehicle_indices), since B0, the road, does not move."""
    res = run.results
    if moving_object(run) == "car":
        from occupant.scenario.vehicle_front import vehicle_indices
        _, iv = vehicle_indices(run.model)
        return "car", {"x": (res.vdot[:, iv] / G0, 3.6 * res.v[:, iv])}
    from occupant.sensors.vehicle import vehicle_acceleration
    a = vehicle_acceleration(res)
    v = res.base_states[:, 3:6]
    moving = [k for k in range(3) if np.max(np.abs(a[:, k])) > MOTION_G * G0
              or np.max(np.abs(v[:, k])) > MOTION_KMH / 3.6]
    if not moving:
        moving = [int(np.argmax(np.abs(pulse_direction(run))))]
    return moving_object(run), {"xyz"[k]: (a[:, k] / G0, 3.6 * v[:, k]) for k in moving}


def moving_object(run):
    """What the pulse figure shows moving (vehicle_motion): "car" in the road frame (a
    pedestrian's), else the run's test object ("vehicle" or "sled")."""
    return "car" if frame_name(run) == "road frame" else run.test_object


# below these peaks a B0 axis is taken as still in the pulse figure (vehicle_motion) [E]
MOTION_G = 0.05
MOTION_KMH = 0.5


#: (name, B0 axes drawn horizontally and vertically, axis labels) of the 2D views
SIDE_VIEW = ("Side view", (0, 2), ("x (m, forward)", "z (m, up)"))
FRONT_VIEW = ("Front view", (1, 2), ("y (m, left)", "z (m, up)"))


def camera_side(run):
    """The sign of B0's y on which the 3D views' camera stands: the vehicle's left (+1) unless a
    lateral pulse throws the occupant towards it (the struck side's door and window would stand
    between the camera and the occupant)."""
    return -1.0 if pulse_direction(run)[1] > 0.2 else 1.0


def views(run):
    """The 2D views that show the motion the pulse causes: the side view (x-z) for a pulse along
    x (frontal, rear), the front view (y-z) for a lateral pulse (side impact), both when the
    pulse is oblique."""
    d = np.abs(pulse_direction(run))
    if d[1] < 0.2:
        return [SIDE_VIEW]
    return [FRONT_VIEW] if d[0] < 0.2 else [SIDE_VIEW, FRONT_VIEW]


# points whose motion relative to the vehicle the report plots: (label, body, what)
# "com": the body's centre of mass; "origin": its frame's origin (the knee for a lower leg)
TRACKED = (("head", "head", "com"), ("chest", "upper_torso", "com"), ("pelvis", "pelvis", "com"),
           ("left knee", "left_lower_leg", "origin"), ("right knee", "right_lower_leg", "origin"))


def trajectories(model, results, rel=None):
    """{label: (n, 3) m} positions of TRACKED points in B0 (those the model has)."""
    rel = relative_poses(results) if rel is None else rel
    out = {}
    for label, body, what in TRACKED:
        if body not in model.body_names:
            continue
        b = model.body_names.index(body)
        if what == "com":
            out[label] = com_in_vehicle(results, b)
        else:
            out[label] = rel[:, b, :3, 3].copy()
    return out


# filter class per ISO-MME main location and physical dimension, as the criteria that read the
# channel prescribe (occupant.injury.criteria.CRITERION_CFC; SAE J211-1 / FMVSS 208)
_CFC_BY_CODE = {
    ("HEAD", "AC"): CRITERION_CFC["hic"], ("CHST", "AC"): CRITERION_CFC["chest_a3ms"],
    ("PELV", "AC"): CRITERION_CFC["pelvis_acceleration"], ("NECK", "FO"): CRITERION_CFC["nij"],
    ("NECK", "MO"): CRITERION_CFC["nij"], ("FEMR", "FO"): CRITERION_CFC["femur_force"],
    # femur moments as its forces ("femur and tibia loads CFC 600", occupant.injury.criteria), as
    # the tibia's moments: drawn raw they carried the 10 kHz chatter of the knee contacts
    ("FEMR", "MO"): CRITERION_CFC["femur_force"],
    ("TIBI", "FO"): CRITERION_CFC["tibia_index"], ("TIBI", "MO"): CRITERION_CFC["tibia_index"],
    ("CHST", "DS"): CRITERION_CFC["chest_deflection"],
}
# by main and fine location 1 where the fine location decides: the T1 accelerometer
# (occupant.scenario.criteria.T1_CODE) is filtered as NIC and the peak T1 acceleration read it
_CFC_BY_FINE_CODE = {("".join(T1_CODE), "AC"): CRITERION_CFC["nic"]}
# display unit per SI unit: (unit, factor); the others as occupant.display spells them
_DISPLAY = {"m/s^2": ("g", 1.0 / G0), "N": ("kN", 1e-3), "m": ("mm", 1e3)}


def channel_cfc(channel):
    """The filter class the criteria apply to this channel (by its ISO-MME code), or None."""
    code = channel.code or ""
    if len(code) != 16:
        return None
    # RED B: test object, position, main location (4), fine locations (3 x 2), dimension, direction, filter
    return (_CFC_BY_FINE_CODE.get((code[2:8], code[12:14])) or _CFC_BY_CODE.get((code[2:6], code[12:14]))
            or _CFC_BY_CODE.get((code[2:4], code[12:14])))


def filtered_channel(channel):
    """(t s, values in display unit, display unit, cfc or None) of a channel, filtered with the
    class its criteria prescribe (raw when none does or the channel is not uniformly sampled)."""
    cfc = channel_cfc(channel)
    values = np.asarray(channel.values, float)
    if cfc is not None and len(values) > 10:
        try:
            values = cfc_filter(values, channel.dt, cfc)
        except ValueError:
            cfc = None
    unit, factor = _DISPLAY.get(channel.unit, (unit_text(channel.unit), 1.0))
    return np.asarray(channel.t), values * factor, unit, cfc


# channels drawn in one panel by their ISO-MME main location, whatever their names: the belt's
# load cells B3-B6 (occupant.sensors.belt), one panel "Seat belt" of four traces
_GROUP_BY_LOCATION = {"SEBE": "Seat belt"}


def _location(channel):
    code = getattr(channel, "code", None) or ""
    return code[2:6] if len(code) == 16 else ""


def channel_groups(channels):
    """Channels grouped by the quantity they measure: {group title: [channel, ...]}, in the order
    met. The group is the name without its trailing axis letter ("Head CG acceleration X" ->
    "Head CG acceleration"); the belt's load cells (ISO-MME main location SEBE) "Seat belt"."""
    groups = {}
    for ch in channels:
        parts = ch.name.rsplit(" ", 1)
        key = _GROUP_BY_LOCATION.get(_location(ch)) or (
            parts[0] if len(parts) == 2 and parts[1] in ("X", "Y", "Z", "R") else ch.name)
        groups.setdefault(key, []).append(ch)
    return groups


def channel_label(channel):
    """A channel's trace label within its group's panel: its axis letter ("X"), or a belt load
    cell's fine location 3 and name ("B3 upper shoulder belt"), else its name."""
    if _location(channel) in _GROUP_BY_LOCATION:
        name = channel.name.removesuffix(" force")
        return f"{channel.code[10:12]} {name[:1].lower()}{name[1:]}"
    last = channel.name.rsplit(" ", 1)[-1]
    return last if last in ("X", "Y", "Z", "R") else channel.name


RESTRAINT_WORDS = ("belt", "airbag", "retractor", "pretension", "load_limit")
# quantities of belts and airbags the report plots, and how: (panel title, display unit, factor)
RESTRAINT_QUANTITIES = {
    "force": ("webbing force", "kN", 1e-3), "payout": ("payout (below 0: pulled in)", "mm", 1e3),
    "pull_in": ("pull-in", "mm", 1e3), "gauge_pressure": ("gauge pressure", "kPa", 1e-3),
    "volume": ("volume", "L", 1e3), "contact_force": ("force on the occupant", "kN", 1e-3),
}


def _restraint_names(model):
    asm = getattr(model, "source", None)
    return set(getattr(asm, "belts", {})) | set(getattr(asm, "airbags", {}))


def restraint_outputs(model, results):
    """{panel title: (display unit, {series label: (n,) values})} of the belts' and airbags'
    outputs (those of the model's belts and airbags, or named with a RESTRAINT_WORDS word):
    webbing forces per segment, payout (a belt's pull-in only where it has no payout: it is the
    payout below 0), gauge pressure, volume and force on the occupant per bag, and one panel per bag of its force on each body part (its contacts,
    ``<contact>.force``); identically zero series left out."""
    names = _restraint_names(model)
    bag_contacts = getattr(getattr(model, "source", None), "airbag_contacts", {})
    panels = {}
    for key, values in results.outputs.items():
        parts = key.split(".")
        if parts[0] in bag_contacts:   # a bag's contact with one body part (not a webbing force)
            c = bag_contacts[parts[0]]
            if parts[1:] == ["force"] and np.any(np.asarray(values) != 0):
                panel = panels.setdefault(f"{c.airbag}: force on each body part", ("kN", {}))
                panel[1][c.geometry] = 1e-3 * np.asarray(values)
            continue
        if len(parts) < 2 or not (parts[0] in names or any(w in parts[0].lower() for w in RESTRAINT_WORDS)):
            continue
        how = RESTRAINT_QUANTITIES.get(parts[-1])
        if how is None or not np.any(np.asarray(values) != 0):
            continue
        if parts[-1] == "pull_in" and ".".join(parts[:-1] + ["payout"]) in results.outputs:
            continue   # the belt's pull-in is its payout below 0 (max(0, -payout)): drawn once, there
        title, unit, factor = how
        label = ".".join(parts[1:-1]) or parts[-1]
        panel = panels.setdefault(f"{parts[0]}: {title}", (unit, {}))
        panel[1][label] = np.asarray(values) * factor
    return panels


def hinge_outputs(model, results):
    """{panel title: (display unit, {series label: (n,) values})} of the interior's hinged parts
    (occupant.scenario.interior_hinge: a seat back frame on its recliner): the rotation of each
    (deg, rearward positive: its joint's coordinate) and the moment its recliner holds (N m,
    the restoring moment of its table: minus the load the resistance applies), from the
    resistance's outputs ``<name>.deflection`` and ``.load``."""
    from occupant.scenario.interior_hinge import frame_marker
    asm = getattr(model, "source", None)
    panels = {}
    for r in getattr(asm, "joint_resistances", {}).values():
        joint = asm.joints.get(r.joint)
        x, f = (results.outputs.get(f"{r.name}.{k}") for k in ("deflection", "load"))
        if joint is None or frame_marker(joint.child) not in asm.markers or x is None or f is None:
            continue
        panels[f"{joint.child}: rotation on its hinge"] = ("deg", {"rearward": np.degrees(np.asarray(x))})
        panels[f"{joint.child}: moment on its hinge"] = ("N m", {"restoring": -np.asarray(f)})
    return panels


def contact_forces(results):
    """{pair name: (n,) N} normal forces of the contacts that touched."""
    out = {}
    for name, values in results.outputs.items():
        if name.endswith(".normal_force") and np.any(np.asarray(values) != 0):
            out[name[:-len(".normal_force")]] = np.asarray(values)
    return out


def energy_terms(results):
    """The energy balance E(t) - E(0) = sum of producer work (occupant.simulate): {"kinetic",
    "potential", work per power slot ("work: <slot>", only those non-zero), "balance"} in J, and
    the closing error max|balance| / max(E_kin, |work|) as a fraction."""
    e, w = results.energy, results.work
    if not e:
        return {}, None
    terms = {"kinetic": e["kinetic"] - e["kinetic"][0], "potential": e["potential"] - e["potential"][0]}
    for slot, values in w.items():
        if np.any(np.asarray(values) != 0):
            terms[f"work: {slot}"] = np.asarray(values)
    terms["balance"] = e["balance"]
    scale = max(np.max(np.abs(e["kinetic"])), np.max(np.abs(e["work"])), 1e-12)
    return terms, float(np.max(np.abs(e["balance"])) / scale)


def frame_times(t, spacing=None):
    """Instants of the kinematic strip: every 10, 15 or 20 ms (the one giving 7-13 frames), from
    the first sample to the last."""
    duration = t[-1] - t[0]
    if spacing is None:
        spacing = next((s for s in (0.010, 0.015, 0.020) if duration / s <= 12), duration / 10)
    return np.arange(t[0], t[-1] + 1e-9, spacing)


def crash_start(run):
    """The crash's start (s) of a run with a pre-crash phase (its pulse's ``impact``:
    occupant.scenario.precrash) that lies inside the record, else None: where the report's
    time histories and kinematic strip zoom in, so that the crash (150 ms of a 650 ms AEB run)
    is not squeezed into the last quarter."""
    t = run.results.t
    impact = getattr(getattr(run, "pulse", None), "impact", None)
    return float(impact) if impact is not None and t[0] < impact < t[-1] else None


def in_window(t, window):
    """(n,) bool: the samples of ``t`` within ``window`` (start, end) s, all of them for None."""
    t = np.asarray(t)
    if window is None:
        return np.ones(t.shape, bool)
    return (t >= window[0] - 1e-12) & (t <= window[1] + 1e-12)


def strip_times(run, spacing=None):
    """Instants of the kinematic strip: frame_times over the run; a run with a pre-crash phase
    (crash_start) shows that phase at its start, a third and two thirds into it, then
    frame_times from the impact on."""
    t = run.results.t
    impact = crash_start(run)
    if impact is None:
        return frame_times(t, spacing)
    return np.concatenate([t[0] + (impact - t[0]) * np.arange(3) / 3, frame_times(t[t >= impact], spacing)])


def sample_index(t, times):
    """Indices of the samples nearest to ``times``."""
    return np.clip(np.searchsorted(t, times - 1e-12), 0, len(t) - 1)


def airbags(model, results):
    """[(Shape on its mounting body, (n, 3) scales of its semi-axes)] of the model's airbags: the
    bag's ellipsoid (its back at the mounting frame's origin, unfolding along +x,
    occupant.modeling.airbags.Airbag) scaled to its volume fraction v (the output
    ``<name>.volume`` over the nominal volume): by v^(1/3), or, for a bag punched out along +x
    (its ``leading_edge_speed``), its depth by the law's alpha(t) (``unfolded_scales``) and its
    width by (v / alpha)^(1/2); without that output shown full from firing; not drawn before it
    fires (its folded volume is in its module, not a bag in front of it)."""
    asm = getattr(model, "source", None)
    out = []
    for bag in getattr(asm, "airbags", {}).values():
        try:
            body, X = _marker_frame(asm, model, bag.marker)
            R_mount = X[:3, :3] @ np.asarray(bag.rotation if bag.rotation is not None else np.eye(3), float)
            origin = X[:3, :3] @ np.asarray(bag.position, float) + X[:3, 3]
            semi = np.asarray(bag.semi_axes, float)
            volume = results.outputs.get(f"{bag.name}.volume")
            fired = results.t >= getattr(bag, "firing_time", 0.0)   # folded in its module before
            if volume is not None:
                v = np.clip(np.asarray(volume) / (4 / 3 * np.pi * np.prod(semi)), 0, None)
                alpha = beta = np.cbrt(v)
                if getattr(bag, "leading_edge_speed", None) is not None:
                    from occupant.modeling.airbags import unfolded_scales
                    alpha = np.array([unfolded_scales.py_func(
                        bag.folded_volume / bag.volume, bag.firing_time, bag.deployment_time,
                        bag.depth_time, x)[1] for x in results.t])
                    beta = np.sqrt(np.minimum(v, alpha) / np.maximum(alpha, 1e-12))
                scale = fired[:, None] * np.column_stack([alpha, beta, beta])
            else:
                scale = np.repeat(fired.astype(float)[:, None], 3, axis=1)
            out.append((Shape(bag.name, body, origin + R_mount[:, 0] * semi[0], R_mount, semi), scale))
        except (AttributeError, KeyError, TypeError, ValueError):
            continue   # a bag this module cannot read is left out of the drawings, not guessed
    return out


def belt_routes(model, results):
    """[(belt name, (n, k, 3) m)] the positions in B0 of each belt's k points (anchors, slip
    rings, wraps in the belt's order), from the outputs ``<belt>.<point>.x/y/z`` the belt
    producer records (occupant.modeling.belts); belts without them are left out."""
    asm = getattr(model, "source", None)
    out = []
    for belt in getattr(asm, "belts", {}).values():
        keys = [f"{belt.name}.{getattr(p, 'name', p)}" for p in getattr(belt, "points", ())]
        if len(keys) >= 2 and all(f"{k}.{a}" in results.outputs for k in keys for a in "xyz"):
            out.append((belt.name, np.stack([np.column_stack([results.outputs[f"{k}.{a}"] for a in "xyz"])
                                             for k in keys], axis=1)))
    return out


def scaled(shape, s):
    """The shape grown by ``s`` (a number, or one per semi-axis) about its mounting point (the
    back of the bag)."""
    s = np.broadcast_to(np.asarray(s, float), (3,))
    back = shape.center - shape.R[:, 0] * shape.semi_axes[0]
    return Shape(shape.name, shape.body, back + s[0] * (shape.center - back), shape.R,
                 np.maximum(s * shape.semi_axes, 1e-6))
