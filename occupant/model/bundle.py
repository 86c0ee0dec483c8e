"""The compiled bundle: one record of flat arrays that the frozen Model (plus a run's base-motion
table and applied forces) hands the compiled step (design.md section 4).

One block per force-producer family; a new family adds a block type here, a field to ``Bundle``
and a power slot, never a kernel argument. Each block carries where its outputs start in
``Data.outputs`` and where its extra states start in z.
"""
from collections import namedtuple

import numpy as np

# Slots of Data.power (and of the work accumulators at the end of z), in this order.
POWER_NAMES = ("base_motion", "applied_forces", "joint_resistance", "spring_dampers", "contacts",
               "belts")
(POWER_BASE, POWER_APPLIED, POWER_JOINT_RESISTANCE, POWER_SPRING_DAMPERS,
 POWER_CONTACTS, POWER_BELTS) = range(len(POWER_NAMES))

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
# equal semi-axes), geometry b a plane or an ellipsoid; each geometry on a link (-1: B0) with its
# axes and origin in that link's frame.
CONTACT_ELLIPSOID_PLANE, CONTACT_ELLIPSOID_ELLIPSOID = range(2)   # pair types
CONTACT_LINEAR, CONTACT_POWER, CONTACT_TABLE = range(3)   # loading laws
ContactBlock = namedtuple("ContactBlock", [
    "pair_type",      # (nc,) int, CONTACT_ELLIPSOID_PLANE or CONTACT_ELLIPSOID_ELLIPSOID
    "link_a",         # (nc,) int, link carrying geometry a (-1: B0)
    "R_a",            # (nc, 3, 3) ellipsoid axes in that link's frame
    "p_a",            # (nc, 3) m, ellipsoid centre in that link's frame
    "size_a",         # (nc, 3) m, semi-axes
    "link_b",         # (nc,) int, link carrying geometry b (-1: B0)
    "R_b",            # (nc, 3, 3) plane axes (u, w, normal) or ellipsoid axes, link frame
    "p_b",            # (nc, 3) m, plane point or ellipsoid centre in that link's frame
    "size_b",         # (nc, 3) m, plane half sizes along u, w (inf: unbounded) and 0, or semi-axes
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
# per pair: signed penetration (negative: the gap) and its rate, the normal and friction force
# magnitudes (0 out of contact or off a bounded plane), the contact point in B0
CONTACT_OUTPUTS = (("penetration", "m"), ("penetration_rate", "m/s"), ("normal_force", "N"),
                   ("friction_force", "N"), ("point_x", "m"), ("point_y", "m"), ("point_z", "m"))

# Seat belts (occupant.restraints.belt): each belt an ordered list of points joined by straight
# segments; the webbing's characteristic per segment in the fields of ContactBlock's loading and
# unloading laws, so that occupant.contact.compliant's hysteresis functions serve both.
BELT_ANCHOR, BELT_SLIP_RING, BELT_WRAP = range(3)               # point kinds
PRETENSIONER_NONE, PRETENSIONER_FORCE, PRETENSIONER_PULL_IN = range(3)
BeltBlock = namedtuple("BeltBlock", [
    "point_start",    # (nbelt + 1,) int, first point of each belt (the last entry: all points)
    "point_kind",     # (np,) int, BELT_ANCHOR, BELT_SLIP_RING or BELT_WRAP
    "point_link",     # (np,) int, link carrying the point or the wrapped ellipsoid (-1: B0)
    "point_r",        # (np, 3) m, anchor or ring position, or ellipsoid centre, link frame
    "point_R",        # (np, 3, 3) ellipsoid axes in the link frame (identity for the others)
    "point_size",     # (np, 3) m, ellipsoid semi-axes (0 for the others)
    "point_side",     # (np, 3) side of the ellipsoid the belt lies on, ellipsoid frame
    "point_friction", # (np,) Coulomb coefficient of the webbing sliding through the point
    "law",            # (ns,) int, per segment (ns = np - nbelt): CONTACT_TABLE (strain -> N)
    "stiffness",      # (ns,) unused by tables (ContactBlock layout)
    "exponent",       # (ns,)
    "load_start",     # (ns,) int, first row of the loading table (strain, N) in tables
    "load_len",       # (ns,) int
    "unload_start",   # (ns,) int, first row of the unloading table shape (-1: elastic)
    "unload_len",     # (ns,) int
    "absorption",     # (ns,) 0 (unused)
    "tables",         # (nt, 2) (strain, N) rows
    "fit_strain",     # (nbelt,) webbing strain at the belt's pretension (fitting, not the step)
    "slip_damping",   # (nbelt,) N s/m, webbing flow through a point per N of excess tension
    "retractor",      # (nbelt,) int, 1: a retractor at the belt's first point
    "rewind_force",   # (nbelt,) N, retractor spring force winding the webbing in
    "spool_damping",  # (nbelt,) N s/m, spool payout resistance per m/s
    "lock_acceleration",  # (nbelt,) m/s^2, vehicle-sensitive locking: horizontal B0 acceleration
    "lock_speed",     # (nbelt,) m/s, webbing-sensitive locking: payout speed
    "lock_delay",     # (nbelt,) s, from sensing to the locked spool
    "spool_stiffness",    # (nbelt,) N/m, locked spool (film-spool effect)
    "load_limit",     # (nbelt,) N, load limiter force (inf: none)
    "pretensioner",   # (nbelt,) int, PRETENSIONER_NONE, _FORCE or _PULL_IN
    "fire_time",      # (nbelt,) s
    "stroke",         # (nbelt,) m, largest pull-in of a force pretensioner
    "pt_start",       # (nbelt,) int, first row of the pretensioner table in pt_tables
    "pt_len",         # (nbelt,) int
    "pt_tables",      # (nt, 2) (time since firing s, N or m) rows
    "z_start",        # (nbelt,) int, first state of each belt: BELT_STATES layout
    "out_start",      # (nbelt,) int, first output of each belt: BELT_*_OUTPUTS layout
])
# per segment, then per point, then per belt (in this order for each belt)
BELT_SEGMENT_OUTPUTS = (("force", "N"), ("strain", "1"), ("length", "m"), ("length_rate", "m/s"))
BELT_POINT_OUTPUTS = (("x", "m"), ("y", "m"), ("z", "m"))
BELT_OUTPUTS = (("payout", "m"), ("pull_in", "m"), ("locked", "1"))
# per segment the unstretched webbing length (m) and the largest strain so far, then per belt
BELT_SEGMENT_STATES = (("webbing", "m"), ("max_strain", "1"))
BELT_STATES = (("payout", "m"), ("free_payout", "m"), ("limiter_payout", "m"), ("lock_timer", "s"))

Bundle = namedtuple("Bundle", [
    "tree",             # KinTree
    "joint_resistance", # JointResistanceBlock
    "spring_dampers",   # SpringDamperBlock
    "contacts",         # ContactBlock
    "belts",            # BeltBlock
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
