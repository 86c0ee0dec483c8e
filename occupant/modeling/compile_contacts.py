"""Compile the declared contact pairs (``ContactPair``) to the ContactBlock of the bundle: each
geometry in its link's frame, a bounding sphere per geometry for the broad phase, and the
triangle meshes as flat arrays with a uniform grid (``occupant.contact.mesh_pairs``)."""
import numpy as np

from occupant.contact.broad_phase import sweep_arrays
from occupant.model.bundle import (
    ContactBlock, CONTACT_OUTPUTS, CONTACT_ELLIPSOID_PLANE, CONTACT_ELLIPSOID_ELLIPSOID,
    CONTACT_ELLIPSOID_BOX, CONTACT_ELLIPSOID_CYLINDER, CONTACT_ELLIPSOID_MESH, CONTACT_LINEAR,
    CONTACT_POWER, CONTACT_TABLE, SURFACE_MOTION_OUTPUTS, freeze_block, marker, pair_kinds,
)
from occupant.model.model import ModelError
from occupant.modeling.geometry import Box, Cylinder, Ellipsoid, Mesh, Plane, Sphere, placement

ACCEPTED_A = (Ellipsoid, Sphere)
ACCEPTED_B = (Plane, Ellipsoid, Sphere, Box, Cylinder, Mesh)
# Cells of a mesh's grid along its longest side at most, and the cell at least this many times
# the median centroid-to-vertex distance (a face in a few cells' reach).
GRID_CELLS_MAX = 64
GRID_CELL_FACES = 2.0
# Faces of a contact patch (Mesh.patch_size) turn at most this far from its first face [E]: a
# seat's cushion and back (80-110 deg apart) or the flanks of a bolster fall in different patches.
PATCH_ANGLE = np.radians(30.0)


def geometry_frame(g, marker_index, marker_body, body_link, marker_R, marker_p):
    """(link, R, p): geometry ``g``'s frame (its marker's, with its own ``placement``) in its
    link's frame; link -1 and the frame in B0 for a geometry without a marker (fixed to the
    vehicle)."""
    if g.marker is None:
        link, R_m, p_m = -1, np.eye(3), np.zeros(3)
    else:
        m = marker_index[g.marker]
        link, R_m, p_m = body_link[marker_body[m]], marker_R[m], marker_p[m]
    R, p = placement(g)
    return link, R_m @ R, R_m @ p + p_m


def mesh_arrays(mesh, patch_size=None):
    """Flat arrays of a trimesh.Trimesh (its frame): vertices, faces, unit normals, the face
    across each edge, each vertex's first face and neighbours (CSR), and its contact patches:
    the faces grouped by their centroids into cubes of ``patch_size`` (m; None: one patch) and
    within a cube by their normals (``_by_normal``), each with its uniform grid (``_grid``) and
    bounding sphere (centre, radius). Faces of zero area
    are dropped."""
    V = np.asarray(mesh.vertices, dtype=float)
    F = np.asarray(mesh.faces, dtype=np.int64)
    cross = np.cross(V[F[:, 1]] - V[F[:, 0]], V[F[:, 2]] - V[F[:, 0]])
    area2 = np.linalg.norm(cross, axis=1)
    keep = area2 > 1e-12 * max(area2.max(initial=0.0), 1e-300)
    F, cross, area2 = F[keep], cross[keep], area2[keep]
    N = cross / area2[:, None]
    edge_faces = {}
    for f, tri in enumerate(F):
        for k in range(3):
            key = (min(tri[k], tri[(k + 1) % 3]), max(tri[k], tri[(k + 1) % 3]))
            edge_faces.setdefault(key, []).append((f, k))
    adjacent = np.full((len(F), 3), -1, dtype=np.int64)
    for sides in edge_faces.values():
        if len(sides) == 2:          # manifold edge; more faces on one edge: each a border
            (f, k), (g, m) = sides
            adjacent[f, k], adjacent[g, m] = g, f
    owner = np.full(len(V), -1, dtype=np.int64)
    for f in range(len(F) - 1, -1, -1):
        owner[F[f]] = f
    ring = [set() for _ in range(len(V))]
    for a, b in edge_faces:
        ring[a].add(b)
        ring[b].add(a)
    ring_start = np.cumsum([0] + [len(r) for r in ring]).astype(np.int64)
    ring = np.array([w for r in ring for w in sorted(r)], dtype=np.int64)
    centroid = V[F].mean(axis=1)
    reach = np.linalg.norm(V[F] - centroid[:, None, :], axis=2).max(axis=1)
    if patch_size is None:
        groups = [np.arange(len(F))]
    else:
        key = np.floor((centroid - V.min(axis=0)) / patch_size).astype(np.int64)
        _, label = np.unique(key, axis=0, return_inverse=True)
        label = label.reshape(-1)
        groups = [g for k in range(label.max() + 1)
                  for g in _by_normal(np.flatnonzero(label == k), N)]
    patches = []
    for faces in groups:
        W = V[np.unique(F[faces])]
        centre = 0.5 * (W.min(axis=0) + W.max(axis=0))
        patches.append((*_grid(W, faces, centroid, reach), centre,
                        float(np.linalg.norm(W - centre, axis=1).max())))
    return V, F, N, adjacent, owner, ring_start, ring, patches


def _by_normal(faces, N):
    """The faces split into groups whose normals lie within PATCH_ANGLE of the group's first
    face's (greedy, in face order): the two sides of a bight in one cube stay apart."""
    groups, seeds = [], []
    for f in faces:
        for g, seed in zip(groups, seeds):
            if N[f] @ seed >= np.cos(PATCH_ANGLE):
                g.append(f)
                break
        else:
            groups.append([f])
            seeds.append(N[f])
    return [np.array(g, dtype=np.int64) for g in groups]


def _grid(W, faces, centroid, reach):
    """Uniform grid over the vertices W of the faces ``faces`` (indices into the mesh), each face
    in the cell of its centroid: (faces sorted by cell, cell starts, (nx, ny, nz), origin, cell
    size, largest centroid-to-vertex distance)."""
    lo, hi = W.min(axis=0), W.max(axis=0)
    extent = max((hi - lo).max(), 1e-9)
    cell = max(extent / GRID_CELLS_MAX, GRID_CELL_FACES * np.median(reach[faces]))
    dims = np.maximum(np.ceil((hi - lo) / cell).astype(np.int64), 1)
    ijk = np.clip(np.floor((centroid[faces] - lo) / cell).astype(np.int64), 0, dims - 1)
    flat = (ijk[:, 0] * dims[1] + ijk[:, 1]) * dims[2] + ijk[:, 2]
    order = np.argsort(flat, kind="stable")
    start = np.searchsorted(flat[order], np.arange(int(np.prod(dims)) + 1))
    return faces[order], start, dims, lo, cell, reach[faces].max()


def _geometry(pair, key, accepted, asm, geo, meshes):
    """(type of b, link, R, p, size, bounding centre, bounding radius) in the link's frame."""
    name = getattr(pair, key)
    g = asm.geometries[name]
    if not isinstance(g, accepted):
        raise ModelError(f"contact pair '{pair.name}'.{key}: '{name}' is a {type(g).__name__} "
                         f"(accepted: {', '.join(c.__name__ for c in accepted)})")
    if key == "geometry_a" and g.marker is None:   # (the a side is the body's: criteria, placement)
        raise ModelError(f"contact pair '{pair.name}'.{key}: '{name}' is fixed to the vehicle (no "
                         f"marker); the pair's geometry_a is the one on a body, the vehicle's its "
                         f"geometry_b")
    link, R_m, p_m = geometry_frame(g, *geo)
    if isinstance(g, Plane):
        axes, point = R_m @ g.axes, R_m @ g.point + p_m
        if g.radius is not None:      # a disc: a flat-ended cylinder along the normal
            r = g.radius
            # a ring (Plane.inner_radius): the flag 2 + inner radius / radius (bundle's size_b)
            ring = None if g.inner_radius is None else 2.0 + g.inner_radius / r
            if g.thickness is not None:   # the plate behind the disc (Plane.thickness)
                half = 0.5 * g.thickness
                centre = point - half * axes[:, 2]
                return (CONTACT_ELLIPSOID_CYLINDER, link, axes, centre,
                        np.array([r, half, 0.0 if ring is None else ring]), centre,
                        float(np.hypot(r, half)))
            return (CONTACT_ELLIPSOID_CYLINDER, link, axes, point,
                    np.array([r, 0.0, -1.0 if ring is None else ring]), point, r)
        if g.half_size is None:
            return (CONTACT_ELLIPSOID_PLANE, link, axes, point, np.array([np.inf, np.inf, 0.0]),
                    point, np.inf)
        hu, hw = g.half_size
        if g.thickness is not None:   # a plate: the box behind the rectangle (Plane.thickness)
            half = 0.5 * g.thickness
            centre = point - half * axes[:, 2]
            return (CONTACT_ELLIPSOID_BOX, link, axes, centre, np.array([hu, hw, half]), centre,
                    float(np.linalg.norm((hu, hw, half))))
        return (CONTACT_ELLIPSOID_BOX, link, axes, point, np.array([hu, hw, -1.0]), point,
                float(np.hypot(hu, hw)))
    if isinstance(g, (Ellipsoid, Sphere)):
        size = g.semi_axes if isinstance(g, Ellipsoid) else np.full(3, g.radius)
        return CONTACT_ELLIPSOID_ELLIPSOID, link, R_m, p_m, size, p_m, float(size.max())
    if isinstance(g, Box):
        return (CONTACT_ELLIPSOID_BOX, link, R_m, p_m, np.array(g.half_extents, float), p_m,
                float(np.linalg.norm(g.half_extents)))
    if isinstance(g, Cylinder):
        half, rnd = 0.5 * g.length, g.ends == "round"
        bound = half + g.radius if rnd else float(np.hypot(half, g.radius))
        return (CONTACT_ELLIPSOID_CYLINDER, link, R_m, p_m,
                np.array([g.radius, half, 1.0 if rnd else 0.0]), p_m, bound)
    # Mesh: stored once however many pairs use it; a pair per patch (mesh_arrays), each patch a
    # grid row of its own (the size's first entry) with its bounding sphere
    if name not in meshes:
        row = sum(len(arrays[-1]) for _, arrays in meshes.values())
        meshes[name] = (row, mesh_arrays(g.mesh, g.patch_size))
    row, arrays = meshes[name]
    return [(CONTACT_ELLIPSOID_MESH, link, R_m, p_m, np.array([row + k, 0.0, 0.0]),
             R_m @ patch[-2] + p_m, patch[-1]) for k, patch in enumerate(arrays[-1])]


def _stack_meshes(meshes):
    cols = {k: [] for k in ("mesh_vertices", "mesh_faces", "mesh_normals", "mesh_adjacent",
                            "mesh_owner", "mesh_ring_start", "mesh_ring", "mesh_cell_faces",
                            "mesh_cell_start", "mesh_grid_int", "mesh_grid")}
    nv = nf = ncell = nring = 0
    for _, arrays in sorted(meshes.values(), key=lambda m: m[0]):
        V, F, N, adjacent, owner, ring_start, ring, patches = arrays
        cols["mesh_owner"].append(np.where(owner >= 0, owner + nf, -1))
        cols["mesh_ring_start"].append(ring_start[:-1] + nring)
        cols["mesh_ring"].append(ring + nv)
        nring += len(ring)
        cols["mesh_vertices"].append(V)
        cols["mesh_faces"].append(F + nv)
        cols["mesh_normals"].append(N)
        cols["mesh_adjacent"].append(np.where(adjacent >= 0, adjacent + nf, -1))
        ncf = nf                     # each face in one patch: the patches' lists fill nf..
        for order, start, dims, lo, cell, reach, _, _ in patches:
            cols["mesh_cell_faces"].append(order + nf)
            cols["mesh_cell_start"].append(start[:-1] + ncf)
            cols["mesh_grid_int"].append([ncell, *dims])
            cols["mesh_grid"].append([*lo, cell, reach])
            ncf, ncell = ncf + len(order), ncell + int(np.prod(dims))
        nv, nf = nv + len(V), nf + len(F)
    out = {
        "mesh_vertices": np.concatenate(cols["mesh_vertices"]) if meshes else np.zeros((0, 3)),
        "mesh_faces": (np.concatenate(cols["mesh_faces"]) if meshes
                       else np.zeros((0, 3), dtype=np.int64)),
        "mesh_normals": np.concatenate(cols["mesh_normals"]) if meshes else np.zeros((0, 3)),
        "mesh_adjacent": (np.concatenate(cols["mesh_adjacent"]) if meshes
                          else np.zeros((0, 3), dtype=np.int64)),
        "mesh_owner": (np.concatenate(cols["mesh_owner"]) if meshes
                       else np.zeros(0, dtype=np.int64)),
        "mesh_ring_start": np.concatenate(cols["mesh_ring_start"] + [[nring]]).astype(np.int64),
        "mesh_ring": (np.concatenate(cols["mesh_ring"]) if meshes
                      else np.zeros(0, dtype=np.int64)),
        "mesh_cell_faces": (np.concatenate(cols["mesh_cell_faces"]) if meshes
                            else np.zeros(0, dtype=np.int64)),
        "mesh_cell_start": np.concatenate(cols["mesh_cell_start"] + [[nf]]).astype(np.int64),
        "mesh_grid_int": np.array(cols["mesh_grid_int"], dtype=np.int64).reshape(-1, 4),
        "mesh_grid": np.array(cols["mesh_grid"], dtype=float).reshape(-1, 5),
    }
    return out


def _surface_motions(asm, geo):
    """(the assembly's SurfaceMotions, {geometry name: index of the one moving it}, per motion
    its translation direction and rotation axis (point, direction) in its geometries' link
    frame); each moves geometries fixed to B0 or on one marker (its axes given in that marker's
    frame: an interior's hinged part's frame marker, B0's at t = 0), any shape (the frame a
    pair's geometry b is placed by, its R_b and p_b, is what moves), and only as the geometry b
    of its pairs; none moved twice."""
    movers, moved, frames = list(asm.surface_motions.values()), {}, []
    b_only = {p.geometry_a: p.name for p in asm.contact_pairs.values()}
    for i, m in enumerate(movers):
        markers = {asm.geometries[name].marker for name in m.geometries}
        if len(markers) > 1:
            raise ModelError(f"surface motion '{m.name}': its geometries are on different "
                             f"markers ({', '.join(sorted(map(str, markers)))}); one motion "
                             f"moves geometries of one frame (B0 or one marker)")
        for name in m.geometries:
            if name in b_only:
                g = asm.geometries[name]
                raise ModelError(f"surface motion '{m.name}': '{name}' is a {type(g).__name__} "
                                 f"that contact pair '{b_only[name]}' takes as its geometry_a; "
                                 f"a surface motion moves the geometry_b of its pairs only")
            if name in moved:
                raise ModelError(f"surface motion '{m.name}': '{name}' is moved by "
                                 f"'{movers[moved[name]].name}' already (one motion per geometry)")
            moved[name] = i
        marker = markers.pop()
        a, k = (m.axis_point, m.axis) if m.turns else (np.zeros(3), np.zeros(3))
        if marker is None:
            frames.append((m.direction, a, k))
        else:
            R_m, p_m = geo[3][geo[0][marker]], geo[4][geo[0][marker]]
            frames.append((R_m @ m.direction, R_m @ a + (p_m if m.turns else 0.0), R_m @ k))
    return movers, moved, frames


def contact_block(asm, marker_index, marker_body, body_link, marker_R, marker_p, outputs, states,
                  broad_phase=True):
    """(ContactBlock, compiled pair names) of the assembly's contact pairs (a mesh with patches
    gives a pair per patch); reserves their outputs and states."""
    pairs = list(asm.contact_pairs.values())
    geo = (marker_index, marker_body, body_link, marker_R, marker_p)
    cols = {k: [] for k in ContactBlock._fields}
    rows, meshes = [], {}

    def table(t):
        if t is None:
            return -1, 0
        start = sum(len(r) for r in rows)
        rows.append(t)
        return start, len(t)

    movers, moved, frames = _surface_motions(asm, geo)
    names, groups = [], {}
    for pair in pairs:
        _, la, R_a, p_a, size_a, _, bound_a = _geometry(pair, "geometry_a", ACCEPTED_A, asm, geo,
                                                        meshes)
        b = _geometry(pair, "geometry_b", ACCEPTED_B, asm, geo, meshes)
        c = pair.characteristic
        load, unload = table(c.table), table(c.unloading_table)
        # a mesh with patches: a compiled pair per patch, named <pair>, <pair>_patch1, ...
        for i, (kind, lb, R_b, p_b, size_b, centre_b, bound_b) in enumerate(
                b if isinstance(b, list) else [b]):
            if la == lb:
                raise ModelError(f"contact pair '{pair.name}': both geometries are on the same "
                                 f"rigid link {la} (-1: B0), so they cannot touch")
            names.append(pair.name if i == 0 else f"{pair.name}_patch{i}")
            if pair.crush_group:   # one crush per part and loading link (_crush_groups)
                groups.setdefault((pair.crush_group, la), []).append((len(names) - 1, pair))
            cols["pair_type"].append(kind)
            cols["mover_b"].append(moved.get(pair.geometry_b, -1))
            for k, val in (("link_a", la), ("R_a", R_a), ("p_a", p_a), ("size_a", size_a),
                           ("bound_a", bound_a), ("link_b", lb), ("R_b", R_b), ("p_b", p_b),
                           ("size_b", size_b), ("centre_b", centre_b), ("bound_b", bound_b)):
                cols[k].append(val)
            if c.table is not None:
                law = CONTACT_TABLE
            else:
                law = CONTACT_LINEAR if c.exponent == 1.0 else CONTACT_POWER
            cols["law"].append(law)
            cols["recovers"].append(int(c.recovers))
            for k in ("stiffness", "exponent", "absorption", "damping", "friction",
                      "friction_speed"):
                cols[k].append(getattr(c, k))
            for k, (start, length) in (("load", load), ("unload", unload)):
                cols[f"{k}_start"].append(start)
                cols[f"{k}_len"].append(length)
    n = len(names)
    for k in ("pair_type", "mover_b", "link_a", "link_b", "law", "load_start", "load_len",
              "unload_start", "unload_len", "recovers"):
        cols[k] = np.array(cols[k], dtype=np.int64)
    for k in ("R_a", "R_b"):
        cols[k] = np.array(cols[k], dtype=float).reshape(n, 3, 3)
    for k in ("p_a", "p_b", "size_a", "size_b", "centre_b"):
        cols[k] = np.array(cols[k], dtype=float).reshape(n, 3)
    for k in ("bound_a", "bound_b"):
        cols[k] = np.array(cols[k], dtype=float).reshape(n)
    cols["broad_phase"] = int(bool(broad_phase))
    cols.update(sweep_arrays(cols["link_a"], cols["p_a"], cols["bound_a"], cols["link_b"],
                             cols["centre_b"], cols["bound_b"], cols["mover_b"], broad_phase))
    cols.update(_stack_meshes(meshes))
    cols["tables"] = np.concatenate(rows) if rows else np.zeros((0, 2))
    cols["out_start"] = outputs.reserve(names, CONTACT_OUTPUTS)
    cols["z_start"] = states.reserve(names, (("max_penetration", "m"),))
    cols["work_z_start"] = -1        # the Model places the work accumulators (after its own)
    cols["mover_axis"] = np.array([u for u, _, _ in frames], dtype=float).reshape(-1, 3)
    # one table: each motion's translation knots, then each one's rotation knots (none: 0 rows)
    knots = [m.knots for m in movers] + [m.spin_knots for m in movers]
    lengths = np.array([len(k) for k in knots], dtype=np.int64)
    starts = np.cumsum(np.concatenate([[0], lengths]))[:-1].astype(np.int64)
    nm = len(movers)
    cols["mover_len"], cols["mover_spin_len"] = lengths[:nm], lengths[nm:]
    cols["mover_start"], cols["mover_spin_start"] = starts[:nm], starts[nm:]
    cols["mover_table"] = np.concatenate(knots) if knots else np.zeros((0, 3))
    cols["mover_hinge"] = np.array([np.concatenate([a, k]) for _, a, k in frames],
                                   dtype=float).reshape(-1, 6)
    cols["mover_turns"] = int(any(m.turns for m in movers))
    cols["mover_out_start"] = outputs.reserve([m.name for m in movers], SURFACE_MOTION_OUTPUTS)
    cols["kinds"] = pair_kinds(cols["pair_type"])
    cols.update(_crush_groups(groups, n))
    return freeze_block(ContactBlock, cols), names


# the fields of a characteristic's force law: a crush group's pairs must agree in them (friction
# may differ: each pair rubs with its own)
_LAW_FIELDS = ("stiffness", "exponent", "table", "unloading_table", "absorption", "damping",
               "recovers")


def _crush_groups(groups, n):
    """The ContactBlock's crush-group fields from {(crush group, link of geometry a): [(compiled
    pair, ContactPair), ...]}. A group is a crushable part (its surfaces' ``crush_group``) as one
    link's geometries load it: the knee and the shin of one lower leg press the knee bolster at
    one place, as the one impactor its force-deflection characteristic was measured with; the two
    knees press it at two places, each crushing its own (so the link is part of the key)."""
    crush_group = np.full(n, -1, dtype=np.int64)
    start, members = [0], []
    for g, ((name, _), rows) in enumerate(groups.items()):
        first = rows[0][1]
        for _, pair in rows[1:]:
            differs = [k for k in _LAW_FIELDS if not _same(getattr(pair.characteristic, k),
                                                           getattr(first.characteristic, k))]
            if differs:
                raise ModelError(f"contact pair '{pair.name}': crush group '{name}' is crushed "
                                 f"with one force law, and its characteristic differs from pair "
                                 f"'{first.name}''s in {', '.join(differs)}")
        for row, _ in rows:
            crush_group[row] = g
            members.append(row)
        start.append(len(members))
    return dict(crush_group=crush_group, group_start=np.array(start, dtype=np.int64),
                group_pairs=np.array(members, dtype=np.int64), grouped=marker(bool(groups)))


def _same(x, y):
    if x is None or y is None:
        return x is None and y is None
    return np.array_equal(np.asarray(x), np.asarray(y))
