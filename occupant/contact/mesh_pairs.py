"""Ellipsoid against a triangle mesh (a vehicle interior or a seat from a CAD export, loaded with
trimesh; ``occupant.modeling.compile_contacts`` stores it as flat arrays with a uniform grid).

The deepest penetration over the mesh's features near the ellipsoid:
- each face (outward normal n by its winding) with the ellipsoid's centre in front of it:
  the ellipsoid's deepest point s along -n (``support.face_depth``) moved onto the face plane
  must lie inside the triangle;
- each convex edge (the faces meet at an outward angle) and each border edge of an open mesh
  that enters the ellipsoid (tested with Q^-1 before any iteration): the penetration of its line (``support.line_depth``), with the direction n between the
  normals of its faces (n.(w - a) <= 0 for the opposite vertex w of each face) and the contact
  point within the edge;
- each vertex inside the ellipsoid (``support.vertex_depth``) with the direction n in its
  normal cone (n.(w - v) <= 0 for every neighbour w: it is the mesh's deepest point along -n);
so that an ellipsoid sliding over a convex edge or corner keeps a continuous force. The deepest
of these is taken: for a sphere against a convex mesh it is the nearest feature, the exact
penetration of the polyhedron (as ``convex_pairs`` for a box); for an ellipsoid too, unless its
deepest points along two faces' normals both fall inside those faces (an elongated ellipsoid
across a convex edge), where the deeper face is taken rather than the least push-out (measured:
1 of 24 random poses about a box); in a concave corner (a seat's bight) the deeper face pushes.
The front rule makes a closed mesh (outward normals)
and a one-sided surface (the seat's front) the same case; penetrations beyond the ellipsoid's
centre are not seen. Faces are found through a uniform grid in the mesh frame, each face in the
cell of its centroid: the cells overlapping the ellipsoid's bounding box grown by the largest
centroid-to-vertex distance hold every face that can touch it, so the cost grows with the faces
near the ellipsoid, not with the mesh.
Several points per pair: a mesh with ``patch_size`` is compiled as one grid per patch (faces
grouped by centroid) over the shared vertices, faces and adjacency, and its pair as one pair per
patch (``modeling.compile_contacts``), so each patch pushes at its own deepest feature. Every
face, edge (taken by the face that owns it) and vertex belongs to one patch, and flat edges and
vertices stay covered by their faces: a flat or convex stretch still gives one point, while the
two sides of a concave bight (cushion and back) push at once.
"""
import numpy as np
from numba import njit

from occupant.jit import JIT_STAGE, separate
from occupant.contact.convex_pairs import ellipsoid_in_b, finish
from occupant.contact.geometry_pairs import NO_CONTACT
from occupant.contact.support import face_depth, line_depth, q_times, vertex_depth

# Relative tolerance of the inside-the-triangle test (rounding on shared edges).
INSIDE_TOL = 1e-12


@njit(**JIT_STAGE)
def _cell_range(c, half, origin, cell, n):
    lo = int(np.floor((c - half - origin) / cell))
    hi = int(np.floor((c + half - origin) / cell))
    return max(lo, 0), min(hi, n - 1)


@njit(**JIT_STAGE)
def mesh_local(el, mesh, Q, cx, cy, cz, bound):
    """(found, d, n, s): the deepest penetration of the ellipsoid (Q, c) into mesh ``mesh``
    (module doc); ``bound`` the ellipsoid's largest semi-axis."""
    V, F, N, adj = el.mesh_vertices, el.mesh_faces, el.mesh_normals, el.mesh_adjacent
    gi, gf = el.mesh_grid_int[mesh], el.mesh_grid[mesh]
    base, nx_, ny_, nz_ = gi[0], gi[1], gi[2], gi[3]
    cell, grow = gf[3], gf[4]
    i0, i1 = _cell_range(cx, np.sqrt(Q[0]) + grow, gf[0], cell, nx_)
    j0, j1 = _cell_range(cy, np.sqrt(Q[3]) + grow, gf[1], cell, ny_)
    k0, k1 = _cell_range(cz, np.sqrt(Q[5]) + grow, gf[2], cell, nz_)
    # Q^-1 (cofactors): edges and vertices that do not enter the ellipsoid are skipped before
    # their Newton iterations
    i00, i01, i02 = Q[3] * Q[5] - Q[4] * Q[4], Q[2] * Q[4] - Q[1] * Q[5], Q[1] * Q[4] - Q[2] * Q[3]
    det = Q[0] * i00 + Q[1] * i01 + Q[2] * i02
    i00, i01, i02 = i00 / det, i01 / det, i02 / det
    i11 = (Q[0] * Q[5] - Q[2] * Q[2]) / det
    i12 = (Q[1] * Q[2] - Q[0] * Q[4]) / det
    i22 = (Q[0] * Q[3] - Q[1] * Q[1]) / det
    Qi = (i00, i01, i02, i11, i12, i22)
    found = False
    best, bn, bs = -np.inf, (0.0, 0.0, 1.0), (cx, cy, cz)
    for i in range(i0, i1 + 1):
        for j in range(j0, j1 + 1):
            for k in range(k0, k1 + 1):
                c_idx = base + (i * ny_ + j) * nz_ + k
                for r in range(el.mesh_cell_start[c_idx], el.mesh_cell_start[c_idx + 1]):
                    f = el.mesh_cell_faces[r]
                    fx, fy, fz = N[f, 0], N[f, 1], N[f, 2]
                    a = F[f, 0]
                    ax, ay, az = V[a, 0], V[a, 1], V[a, 2]
                    front = fx * (cx - ax) + fy * (cy - ay) + fz * (cz - az)
                    if 0.0 < front <= bound:
                        d, sx, sy, sz = face_depth(Q, cx, cy, cz, fx, fy, fz, ax, ay, az)
                    else:
                        d, sx, sy, sz = -np.inf, 0.0, 0.0, 0.0
                    if d > best:
                        px, py, pz = sx + d * fx, sy + d * fy, sz + d * fz
                        inside = True
                        for m in range(3):
                            p, q = F[f, m], F[f, (m + 1) % 3]
                            ex, ey, ez = V[q, 0] - V[p, 0], V[q, 1] - V[p, 1], V[q, 2] - V[p, 2]
                            rx, ry, rz = px - V[p, 0], py - V[p, 1], pz - V[p, 2]
                            cross = (fx * (ey * rz - ez * ry) + fy * (ez * rx - ex * rz)
                                     + fz * (ex * ry - ey * rx))
                            if cross < -INSIDE_TOL * (ex * ex + ey * ey + ez * ez):
                                inside = False
                                break
                        if inside:
                            found, best, bn, bs = True, d, (fx, fy, fz), (sx, sy, sz)
                    for m in range(3):     # the face's convex or border edges, each once
                        g = adj[f, m]
                        if g >= 0 and g < f:
                            continue
                        p, q, w = F[f, m], F[f, (m + 1) % 3], F[f, (m + 2) % 3]
                        bx, by, bz = V[p, 0], V[p, 1], V[p, 2]
                        ux, uy, uz = V[q, 0] - bx, V[q, 1] - by, V[q, 2] - bz
                        length = np.sqrt(ux * ux + uy * uy + uz * uz)
                        ux, uy, uz = ux / length, uy / length, uz / length
                        # the segment b + t u, 0 <= t <= length, must enter the ellipsoid:
                        # (x - c)^T Q^-1 (x - c) < 1 somewhere on it
                        rx, ry, rz = bx - cx, by - cy, bz - cz
                        qx, qy, qz = q_times(Qi, ux, uy, uz)
                        uqu = ux * qx + uy * qy + uz * qz
                        uqr = rx * qx + ry * qy + rz * qz
                        sx, sy, sz = q_times(Qi, rx, ry, rz)
                        inner = rx * sx + ry * sy + rz * sz - uqr * uqr / uqu
                        if inner >= 1.0:
                            continue
                        t_mid, t_half = -uqr / uqu, np.sqrt((1.0 - inner) / uqu)
                        if t_mid + t_half <= 0.0 or t_mid - t_half >= length:
                            continue
                        w2 = -1
                        if g >= 0:
                            for mm in range(3):
                                if F[g, mm] != p and F[g, mm] != q:
                                    w2 = F[g, mm]
                            if (fx * (V[w2, 0] - bx) + fy * (V[w2, 1] - by)
                                    + fz * (V[w2, 2] - bz)) >= 0.0:
                                continue               # flat or concave: the faces cover it
                        d, nx, ny, nz, sx, sy, sz = line_depth(Q, cx, cy, cz, bx, by, bz, ux, uy, uz)
                        if d <= best:
                            continue
                        along = (sx - bx) * ux + (sy - by) * uy + (sz - bz) * uz
                        if along < 0.0 or along > length:
                            continue
                        if (nx * (V[w, 0] - bx) + ny * (V[w, 1] - by) + nz * (V[w, 2] - bz)) > 0.0:
                            continue
                        if w2 >= 0 and (nx * (V[w2, 0] - bx) + ny * (V[w2, 1] - by)
                                        + nz * (V[w2, 2] - bz)) > 0.0:
                            continue
                        found, best, bn, bs = True, d, (nx, ny, nz), (sx, sy, sz)
                    for m in range(3):     # the face's vertices, each from its first face
                        p = F[f, m]
                        if el.mesh_owner[p] != f:
                            continue
                        bx, by, bz = V[p, 0], V[p, 1], V[p, 2]
                        rx, ry, rz = bx - cx, by - cy, bz - cz
                        sx, sy, sz = q_times(Qi, rx, ry, rz)
                        if rx * sx + ry * sy + rz * sz >= 1.0:
                            continue               # outside the ellipsoid
                        d, nx, ny, nz, sx, sy, sz = vertex_depth(Q, cx, cy, cz, bx, by, bz)
                        if d <= best:
                            continue
                        cone = True                # n in the normal cone: n.(w - v) <= 0
                        for nb in range(el.mesh_ring_start[p], el.mesh_ring_start[p + 1]):
                            w = el.mesh_ring[nb]
                            if nx * (V[w, 0] - bx) + ny * (V[w, 1] - by) + nz * (V[w, 2] - bz) > 0.0:
                                cone = False
                                break
                        if cone:
                            found, best, bn, bs = True, d, (nx, ny, nz), (sx, sy, sz)
    return found, best, bn[0], bn[1], bn[2], bs[0], bs[1], bs[2]


@separate
def ellipsoid_mesh(data, el, geo, e):
    """Pair e, ellipsoid against the mesh size_b[e, 0] of ``el`` (a ContactBlock: the mesh
    arrays) placed by ``geo`` (its PairGeometry: the mesh's frame where a prescribed
    translation has moved it): the tuple of ``ellipsoid_plane``, the last entry False when no
    face or edge is in contact (d then -inf)."""
    Q, cx, cy, cz, w0, w1, w2, o = ellipsoid_in_b(data, geo, e)
    found, d, nx, ny, nz, sx, sy, sz = mesh_local(el, int(el.size_b[e, 0]), Q, cx, cy, cz,
                                                  el.bound_a[e])
    if not found:
        return NO_CONTACT
    return finish(data, geo, e, (w0, w1, w2, o), d, nx, ny, nz, sx, sy, sz)
