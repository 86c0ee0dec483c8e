"""The compiled bundle: one record of flat arrays that the frozen Model (plus a run's base-motion
table and applied forces) hands the compiled step (design.md section 4).

One block per force-producer family; a new family adds a block type here, a field to ``Bundle``
and a power slot, never a kernel argument. Each block carries where its outputs start in
``Data.outputs`` and where its extra states start in z.
"""
from collections import namedtuple

import numpy as np

# Slots of Data.power (and of the work accumulators at the end of z), in this order.
POWER_NAMES = ("base_motion", "applied_forces", "joint_resistance", "spring_dampers", "contacts")
(POWER_BASE, POWER_APPLIED, POWER_JOINT_RESISTANCE, POWER_SPRING_DAMPERS,
 POWER_CONTACTS) = range(len(POWER_NAMES))

JointResistanceBlock = namedtuple("JointResistanceBlock", [
    "link",           # (ne,) int, link whose coordinate the element acts on
    "component",      # (ne,) int, 0 for 1-dof links; rotation-vector component of a spherical link
    "stiffness",      # (ne,) N m/rad or N/m, linear stiffness inside the range of motion
    "reference",      # (ne,) rad or m, neutral position of the spring
    "damping",        # (ne,) N m s/rad or N s/m, viscous damping
    "friction",       # (ne,) N m or N, Coulomb friction torque/force
    "friction_speed", # (ne,) rad/s or m/s, speed at which friction reaches its full value
    "lower",          # (ne,) rad or m, lower end of the range of motion (-inf: none)
    "upper",          # (ne,) rad or m, upper end of the range of motion (+inf: none)
    "stop_stiffness", # (ne,) N m/rad^2 or N/m^2, quadratic stiffness beyond the stop
    "stop_damping",   # (ne,) N m s/rad^2, damping beyond the stop, times penetration
    "table_start",    # (ne,) int, first row of the element's stiffness table in tables (-1: none)
    "table_len",      # (ne,) int, rows of that table
    "tables",         # (nt, 2) (deflection, load) rows of all tabulated stiffness curves
    "out_start",      # int, first output: per element (deflection, load)
])
JOINT_RESISTANCE_OUTPUTS = (("deflection", "rad"), ("load", "N m"))

SpringDamperBlock = namedtuple("SpringDamperBlock", [
    "link_a",         # (ns,) int, link carrying end a (-1: B0)
    "point_a",        # (ns, 3) m, end a in that link's frame
    "link_b",         # (ns,) int, link carrying end b (-1: B0)
    "point_b",        # (ns, 3) m
    "stiffness",      # (ns,) N/m, linear spring (unused where a table is given)
    "damping",        # (ns,) N s/m
    "free_length",    # (ns,) m, length at zero spring force
    "table_start",    # (ns,) int, first row of the element's force-elongation table (-1: none)
    "table_len",      # (ns,) int
    "tables",         # (nt, 2) (elongation m, tension N) rows
    "out_start",      # int, first output: per element (length, length rate, tension)
])
SPRING_DAMPER_OUTPUTS = (("length", "m"), ("length_rate", "m/s"), ("tension", "N"))

# Compliant contact pairs (occupant.contact.compliant): geometry a is an ellipsoid (a sphere has
# equal semi-axes), geometry b a plane, an ellipsoid, a box (or the rectangle of a bounded plane),
# a cylinder or a triangle mesh; each geometry on a link (-1: B0) with its axes and origin in that
# link's frame.
(CONTACT_ELLIPSOID_PLANE, CONTACT_ELLIPSOID_ELLIPSOID, CONTACT_ELLIPSOID_BOX,
 CONTACT_ELLIPSOID_CYLINDER, CONTACT_ELLIPSOID_MESH) = range(5)   # pair types
CONTACT_LINEAR, CONTACT_POWER, CONTACT_TABLE = range(3)   # loading laws
ContactBlock = namedtuple("ContactBlock", [
    "pair_type",      # (nc,) int, CONTACT_ELLIPSOID_*
    "link_a",         # (nc,) int, link carrying geometry a (-1: B0)
    "R_a",            # (nc, 3, 3) ellipsoid axes in that link's frame
    "p_a",            # (nc, 3) m, ellipsoid centre in that link's frame
    "size_a",         # (nc, 3) m, semi-axes
    "link_b",         # (nc,) int, link carrying geometry b (-1: B0)
    "R_b",            # (nc, 3, 3) axes of geometry b in its link's frame (plane: u, w, normal)
    "p_b",            # (nc, 3) m, plane point, ellipsoid or box centre, cylinder centre, mesh origin
    "size_b",         # (nc, 3) m, per type: unbounded plane (inf, inf, 0); semi-axes; box half
                      # extents, or a bounded plane's half sizes (hu, hw, -1); cylinder (radius,
                      # half-length, 1 round ends / 0 flat); mesh (index into the mesh_* arrays, 0, 0)
    "bound_a",        # (nc,) m, radius of a sphere about p_a holding geometry a (broad phase)
    "centre_b",       # (nc, 3) m, centre of a sphere holding geometry b, link frame
    "bound_b",        # (nc,) m, its radius (inf: never culled)
    "broad_phase",    # int, 1: pairs whose bounding spheres are apart skip the narrow phase
    "mesh_vertices",  # (nmv, 3) m, vertices of all meshes, each in its marker's frame
    "mesh_faces",     # (nmf, 3) int, vertex rows of each triangle (counter-clockwise: outward)
    "mesh_normals",   # (nmf, 3) unit outward normals
    "mesh_adjacent",  # (nmf, 3) int, face across edge k (vertices k, k+1) (-1: border)
    "mesh_owner",     # (nmv,) int, the first face holding each vertex (-1: none)
    "mesh_ring_start",# (nmv + 1,) int, first row of each vertex's neighbours in mesh_ring
    "mesh_ring",      # (nring,) int, the vertices sharing an edge with each vertex
    "mesh_cell_faces",# (nmf,) int, faces ordered by grid cell (the cell of the centroid)
    "mesh_cell_start",# (ncell + 1,) int, first row of each cell in mesh_cell_faces
    "mesh_grid_int",  # (nmesh, 4) int, first cell, cells along x, y, z
    "mesh_grid",      # (nmesh, 5) m, grid origin (3), cell size, largest centroid-vertex distance
    "law",            # (nc,) int, CONTACT_LINEAR, CONTACT_POWER or CONTACT_TABLE
    "stiffness",      # (nc,) N/m^n
    "exponent",       # (nc,) n of the power law
    "load_start",     # (nc,) int, first row of the loading table in tables (-1: none)
    "load_len",       # (nc,) int
    "unload_start",   # (nc,) int, first row of the unloading table (-1: none)
    "unload_len",     # (nc,) int
    "absorption",     # (nc,) energy-absorption factor (0 and no unloading table: elastic)
    "damping",        # (nc,) N s/m^2, force damping * d * d'
    "friction",       # (nc,) Coulomb coefficient
    "friction_speed", # (nc,) m/s, sliding speed scale of the tanh regularisation
    "tables",         # (nt, 2) (penetration m, force N) rows
    "z_start",        # int, first producer state: per pair the maximum penetration (m)
    "out_start",      # int, first output: per pair CONTACT_OUTPUTS
])
# per pair: signed penetration (negative: the gap; where no contact is found, for pairs culled
# by the broad phase and meshes, minus the gap between the bounding spheres, 0 if they overlap)
# and its rate, the normal and friction force magnitudes (0 out of contact), the contact point
CONTACT_OUTPUTS = (("penetration", "m"), ("penetration_rate", "m/s"), ("normal_force", "N"),
                   ("friction_force", "N"), ("point_x", "m"), ("point_y", "m"), ("point_z", "m"))

Bundle = namedtuple("Bundle", [
    "tree",             # KinTree
    "joint_resistance", # JointResistanceBlock
    "spring_dampers",   # SpringDamperBlock
    "contacts",         # ContactBlock
    "base_table",       # (n, 12) B0 spatial states sampled every base_dt from base_t0
    "base_t0",          # s
    "base_dt",          # s
    "tau_applied",      # (nv,) constant applied generalized forces
    "work_start",       # int, index in z of the first work accumulator (one per POWER_NAMES)
])


def frozen(a, integer=False):
    """A read-only float64 (or int64) copy."""
    a = np.array(a, dtype=np.int64 if integer else np.float64)
    a.setflags(write=False)
    return a


def freeze_block(block_type, values):
    """Block of read-only arrays from a dict (ints stay Python ints)."""
    out = {}
    for name in block_type._fields:
        val = values[name]
        if isinstance(val, (int, np.integer)):
            out[name] = int(val)
        else:
            arr = np.asarray(val)
            out[name] = frozen(arr, integer=arr.dtype.kind in "iu")
    return block_type(**out)
