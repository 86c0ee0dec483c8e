"""The compiled bundle: one record of flat arrays that the frozen Model (plus a run's base-motion
table and applied forces) hands the compiled step (design.md section 4).

One block per force-producer family; a new family adds a block type here, a field to ``Bundle``,
a power slot and its entry in ``ELEMENT_FIELD``, never a kernel argument. Each block carries where its outputs start in
``Data.outputs`` and where its extra states start in z.
"""
from collections import namedtuple

import numpy as np

from occupant.byref import by_reference

# Slots of Data.power (and of the work accumulators at the end of z), in this order.
POWER_NAMES = ("base_motion", "applied_forces", "joint_resistance", "spring_dampers", "contacts",
               "airbags", "muscles", "belts", "tyres", "couplers", "marker_forces", "motions")
# "motions": the work of prescribed motions other than B0's, the rheonomic constraints' forces
# (occupant.constraints.state_space) and the contact forces of surfaces under a prescribed
# translation (occupant.contact.compliant); the forces stage zeroes it, each adds to it
(POWER_BASE, POWER_APPLIED, POWER_JOINT_RESISTANCE, POWER_SPRING_DAMPERS,
 POWER_CONTACTS, POWER_AIRBAGS, POWER_MUSCLES, POWER_BELTS, POWER_TYRES,
 POWER_COUPLERS, POWER_MARKER_FORCES, POWER_MOTIONS) = range(len(POWER_NAMES))

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
    "absorption",     # (ne,) energy-absorption factor of the spring's hysteresis (0: elastic)
    "recovers",       # (ne,) int, 1: the hysteretic spring unloads to the origin (no permanent set)
    "z_index",        # (ne,) int, first of the element's two states (largest deflection above and
                      # below the reference, both >= 0), -1 without hysteresis
])
JOINT_RESISTANCE_OUTPUTS = (("deflection", "rad"), ("load", "N m"))
JOINT_RESISTANCE_OUTPUTS_PRISMATIC = (("deflection", "m"), ("load", "N"))   # a sliding joint's

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
                      # half-length, 1 round ends / 0 flat), or a bounded plane's disc (radius,
                      # 0, -1), its plate (radius, half thickness, 0), its ring or ring plate
                      # (radius, 0 or half thickness, 2 + inner radius / radius); mesh (index
                      # into the mesh_* arrays, 0, 0)
    "bound_a",        # (nc,) m, radius of a sphere about p_a holding geometry a (broad phase)
    "centre_b",       # (nc, 3) m, centre of a sphere holding geometry b, link frame
    "bound_b",        # (nc,) m, its radius (inf: never culled)
    "broad_phase",    # int, 1: pairs whose bounding spheres are apart skip the narrow phase
    # the sweep over the bounding spheres (``occupant.contact.broad_phase``)
    "sweep",          # int, 1: the pairs' spheres are swept along x first
    "sweep_links",    # int, 1: some swept pair joins two links (the spheres on links meet)
    "sphere_link",    # (nmv,) int, link of each distinct bounding sphere on a link (not B0) of
                      #   the swept pairs (spheres 0 .. nmv - 1)
    "sphere_centre",  # (nmv, 3) m, its centre in that link's frame
    "sphere_radius",  # (nmv,) m
    "static_bounds",  # (nst, 7) m, the spheres on B0 sorted by x - r: x - r, x + r (r with
                      #   broad_phase.PAD), the running maximum of x + r, centre (3), r
    "static_sphere",  # (nst,) int, their numbers (nmv .. ns - 1)
    "sweep_keys",     # (nk,) int, sorted keys i ns + j (i < j) of the sphere pairs declared
    "sweep_key_start",# (nk + 1,) int, first row of each key's pairs in sweep_pairs
    "sweep_pairs",    # (nsw,) int, the swept pairs grouped by key
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
    "recovers",       # (nc,) int, 1: the absorption law unloads to the origin (no permanent set)
    "damping",        # (nc,) N s/m^2, force damping * d * d'
    "friction",       # (nc,) Coulomb coefficient
    "friction_speed", # (nc,) m/s, sliding speed scale of the tanh regularisation
    "tables",         # (nt, 2) (penetration m, force N) rows
    "z_start",        # int, first producer state: per pair the maximum penetration (m)
    "out_start",      # int, first output: per pair CONTACT_OUTPUTS
    "work_z_start",   # int, first per-pair work accumulator in z (CONTACT_WORK per pair, after
                      # the power slots' accumulators: set by the Model, -1 before)
    # prescribed motions of geometries on B0 (occupant.modeling.surface_motions), nm of them
    "mover_b",        # (nc,) int, the motion moving geometry b (-1: none)
    "mover_axis",     # (nm, 3) unit direction of its translation in B0
    "mover_start",    # (nm,) int, first row of its translation's knots in mover_table
    "mover_len",      # (nm,) int
    "mover_spin_start",  # (nm,) int, first row of its rotation's knots in mover_table
    "mover_spin_len", # (nm,) int (0: it does not rotate)
    "mover_table",    # (nk, 3) rows (t s, velocity m/s, displacement m at t) of the
                      #   translations, (t s, omega rad/s, angle rad at t) of the rotations
    "mover_hinge",    # (nm, 6) its rotation axis in B0: a point (m), the unit direction
    "mover_turns",    # int, 1: some motion rotates (the pairs' R_b are then moved each evaluation)
    "mover_out_start",# int, first output: per motion SURFACE_MOTION_OUTPUTS
    "kinds",          # PairKinds (``pair_kinds``): which pair types the block holds
    # crush groups (``occupant.contact.compliant``, ``ContactPair.crush_group``): pairs whose
    # surfaces are faces of one crushable part, loaded by one link's geometries, crush it once
    "crush_group",    # (nc,) int, the pair's crush group (-1: none, the pair crushes alone)
    "group_start",    # (ng + 1,) int, first row of each group's pairs in group_pairs
    "group_pairs",    # (ngp,) int, the pairs of each group, the first holding its state z
    "grouped",        # ``marker``: 1 if some pair is in a crush group
])
# Per grouped pair, the row the contacts' group pass fills (Data.contact_group): its narrow
# phase's d (m), d' (m/s), normal (3), point (3, B0), touching (1.0 / 0.0), the moving geometry's
# u (3) and rate (``compliant.pair_contact``), then its group's depth D (m), D' (m/s), the
# pair's weight dD/dd and the number of the group's pairs touching (``compliant.group_pass``)
CONTACT_GROUP_ROW = 17
# Per pair type (in CONTACT_ELLIPSOID_* order) a ``marker``: the compiled contacts hold the
# geometry routines of the types present only (``jit.call_if``).
PairKinds = namedtuple("PairKinds", ["plane", "ellipsoid", "box", "cylinder", "mesh"])
# per pair: the penetration (m, > 0 in contact) and its rate, the normal and friction force
# magnitudes and the contact point; all 0 while the pair is apart (never a gap: the narrow
# phase's negative d is the exact clearance for every kind but meshes, but pairs whose bounding
# spheres are apart skip it; ``contact.compliant``)
# Per pair, the work since t = 0 (``contact.compliant``) of its normal force and of its friction
# on the bodies' relative motion, both taken from them (the normal force's: the elastic energy the
# pair holds plus what its hysteresis and damping dissipated; the friction's: dissipated), and the
# work that B0's own motion (the vehicle's, a surface on B0) did on the bodies through the pair;
# quadratures at the end of z: base_work - normal_work - friction_work summed over the pairs is
# work["contacts"]. The outputs repeat them, then the elastic energy held (0 apart) and the energy
# absorbed, normal work minus elastic energy; the works and the absorbed energy keep their value
# while the pair is apart. A pair of a crush group: its normal force and elastic energy are its
# share (its penetration over the sum of the group's) of the group's, its max_penetration state
# the group's for its first pair, 0 for the others (``contact.compliant``).
CONTACT_WORK = (("normal_work", "J"), ("friction_work", "J"), ("base_work", "J"))
CONTACT_OUTPUTS = (("penetration", "m"), ("penetration_rate", "m/s"), ("normal_force", "N"),
                   ("friction_force", "N"), ("point_x", "m"), ("point_y", "m"), ("point_z", "m"),
                   ) + CONTACT_WORK + (("elastic_energy", "J"), ("absorbed_energy", "J"))
SURFACE_MOTION_OUTPUTS = (("displacement", "m"), ("velocity", "m/s"), ("angle", "rad"),
                          ("angular_velocity", "rad/s"))

# Uniform-pressure airbags (occupant.restraints.airbag, declared with occupant.modeling.Airbag and
# AirbagContact). Per bag its mounting frame, shape, inflator tables, gas and orifices; per contact
# pair (grouped by bag, pair_start) the occupant ellipsoid (side a, the fields the contact
# geometry routines read) and the bag's mounting link and axes (side b; the bag's current centre
# and semi-axes are computed each evaluation into Data.airbag_pairs).
AirbagBlock = namedtuple("AirbagBlock", [
    "bag_link",       # (nbag,) int, link carrying the mounting frame (-1: B0)
    "bag_R",          # (nbag, 3, 3) mounting-frame axes in that link's frame; the bag unfolds along x
    "bag_p",          # (nbag, 3) m, mounting-frame origin in that link's frame
    "semi_axes",      # (nbag, 3) m, deployed ellipsoid, centre at x = semi_axes[0]
    "bag_radius",     # (nbag,) m, front-face radius of curvature (penetrated-volume estimate)
    "volume",         # (nbag,) m^3, nominal volume
    "folded_fraction",  # (nbag,) folded volume / nominal volume
    "firing_time",    # (nbag,) s
    "deployment_time",  # (nbag,) s
    "depth_time",     # (nbag,) s, full depth (Airbag.depth_time; -1: uniform with the volume)
    "contact_law",    # (nbag,) int, index in occupant.modeling.airbags.CONTACT_LAWS (0 lens, 1 dimple)
    "flow_start",     # (nbag,) int, first row of the mass-flow table (time after firing, kg/s)
    "flow_len",       # (nbag,) int
    "temperature_start",  # (nbag,) int, first row of the inflow temperature table (t, K)
    "temperature_len",    # (nbag,) int
    "tables",         # (nt, 2) rows of those tables
    "cp",             # (nbag,) J/(kg K)
    "gamma",          # (nbag,) cp / cv
    "gas_constant",   # (nbag,) J/(kg K), cp - cv
    "vent_area",      # (nbag,) m^2
    "discharge_coefficient",  # (nbag,) of the vents (< 0: Browning's 0.9 - 0.3 p_a / p)
    "leakage_area",   # (nbag,) m^2, effective fabric-leakage orifice (discharge coefficient 1)
    "compliance",     # (nbag,) m^3/Pa, the deployed bag's volume gained per Pa of gauge pressure
                      # by its fabric's stretch (modeling.airbags.fabric_compliance; 0: none)
    "ambient_pressure",     # (nbag,) Pa
    "mass0",          # (nbag,) kg, gas mass at z = 0 (initial content)
    "sigma0",         # (nbag,) Pa m^(3 gamma), p V^gamma at z = 0
    "pair_start",     # (nbag + 1,) int, the bag's contact pairs are pair_start[b]:pair_start[b+1]
    "pair_bag",       # (npair,) int, bag of each pair
    "link_a",         # (npair,) int, link carrying the occupant ellipsoid
    "carrier",        # (npair,) int, link carrying its front (occupant.contact.carrier; link_a: none)
    "carrier_r",      # (npair, 3) m, the carrier link's origin at rest in link_a's frame
    "front_R",        # (npair, 3, 3) the carrier's front ellipsoid's axes in the carrier's frame
    "front_p",        # (npair, 3) m, its centre in the carrier's frame
    "front_half",     # (npair, 2) m, its y and z semi-axes: the outline of the carried share
    "R_a",            # (npair, 3, 3) ellipsoid axes in that link's frame
    "p_a",            # (npair, 3) m, ellipsoid centre in that link's frame
    "size_a",         # (npair, 3) m, semi-axes
    "radius_a",       # (npair,) m, volume-equivalent radius of the ellipsoid
    "dimple",         # ``marker`` of bags on the "dimple" contact law
    "link_b",         # (npair,) int, the bag's mounting link
    "R_b",            # (npair, 3, 3) the bag's axes in that link's frame
    "z_start",        # int, first producer state: per bag AIRBAG_STATES
    "pair_z_start",   # int, first producer state: per pair AIRBAG_CONTACT_STATES
    "out_start",      # int, first output: per bag AIRBAG_OUTPUTS
    "pair_out_start", # int, first output: per pair AIRBAG_CONTACT_OUTPUTS
    "friction",       # (nbag,) Coulomb coefficient, bag fabric on the occupant
    "friction_speed", # (nbag,) m/s, sliding speed of the tanh regularisation
    "bottom_start",   # (nbag,) int, first row in tables of the bottoming loading table (m, N)
    "bottom_len",     # (nbag,) int
    "bottom_damping", # (nbag,) N s/m^2, Hunt-Crossley damping of the bottoming contact
    "R_bottom",       # (npair, 3, 3) the bag's axes (y, z, x) in the bag link's frame: the
                      # backing plane's in-plane axes and normal, for geometry_pairs.ellipsoid_plane
    "p_bottom",       # (npair, 3) m, a point of the backing plane (collapsed-bag thickness ahead
                      # of the mounting frame) in the bag link's frame
    "size_bottom",    # (npair, 3) m, the backing plane's half sizes (the bag's y and z semi-axes)
])
# per bag: z = (gas mass added, change of p V^gamma) since t = 0 (zero at the initial content)
AIRBAG_STATES = (("gas_mass_added", "kg"), ("sigma_added", "Pa m^(3 gamma)"))
# per pair: the depth the bag's unfolding put the body in (occupant.restraints.airbag)
AIRBAG_CONTACT_STATES = (("unfolded_depth", "m"),)
AIRBAG_OUTPUTS = (("pressure", "Pa"), ("gauge_pressure", "Pa"), ("volume", "m^3"),
                  ("gas_mass", "kg"), ("temperature", "K"), ("internal_energy", "J"),
                  ("mass_inflow", "kg/s"), ("mass_outflow", "kg/s"), ("enthalpy_inflow", "W"),
                  ("enthalpy_outflow", "W"), ("contact_force", "N"), ("contact_area", "m^2"),
                  ("fabric_energy", "J"))
# per pair; as CONTACT_OUTPUTS, the penetration and its rate read 0 while the body is out of
# the bag and the bottoming penetration 0 while it has not bottomed through (the signed gap to
# the bag: ``contact.compliant.signed_distances``); ``pull`` the bridging fabric's lateral pull
# on the body, a vector in B0 (the "dimple" law's link dimple, airbag_dimple._link_dimple: 0
# for a body alone on its link or under another's fabric)
AIRBAG_CONTACT_OUTPUTS = (("penetration", "m"), ("penetration_rate", "m/s"), ("force", "N"),
                          ("area", "m^2"), ("displaced_volume", "m^3"), ("friction_force", "N"),
                          ("bottoming_penetration", "m"), ("bottoming_force", "N"),
                          ("carried_force", "N"), ("pull_x", "N"), ("pull_y", "N"),
                          ("pull_z", "N"))
# Line muscles (occupant.forces.muscles): Hill-type force along the line between two points, with
# first-order activation dynamics; z holds each muscle's activation minus its preset excitation (so
# that z = 0 starts it at its preset).
MuscleBlock = namedtuple("MuscleBlock", [
    "link_a",         # (nm,) int, link carrying the origin (-1: B0)
    "point_a",        # (nm, 3) m, origin in that link's frame
    "link_b",         # (nm,) int, link carrying the insertion (-1: B0)
    "point_b",        # (nm, 3) m
    "max_force",      # (nm,) N, maximum isometric force F_max
    "optimal_length", # (nm,) m, fibre length of maximum active force
    "tendon_length",  # (nm,) m, rigid tendon (path length minus fibre length)
    "max_velocity",   # (nm,) optimal lengths/s, maximum shortening velocity
    "width",          # (nm,) force-length Gaussian width (normalized length^2)
    "passive_strain", # (nm,) fibre strain at which the passive force reaches F_max
    "passive_shape",  # (nm,) exponential shape factor of the passive force
    "damping",        # (nm,) N s/m, parallel viscous damping
    "excitation",     # (nm,) preset excitation (0-1); the activation starts there
    "reflex_excitation",  # (nm,) excitation from reflex_time on (when larger than the preset)
    "reflex_time",    # (nm,) s, time the reflex excitation starts (+inf: never)
    "control_end",    # (nm,) s, time the posture controller lets go of the excitation (+inf: never)
    "activation_time",    # (nm,) s, activation time constant
    "deactivation_time",  # (nm,) s, deactivation time constant
    "z_start",        # int, first producer state: per muscle activation - excitation
    "out_start",      # int, first output: per muscle MUSCLE_OUTPUTS
    "controller",     # (nm,) int, the muscle's posture controller (-1: none)
    "control_gain",   # (nm,) excitation per unit of its controller's command (+ extends, - flexes)
    "control_link",   # (nk,) int, per controller: link of the marker whose pitch it holds
    "control_R",      # (nk, 3, 3) that marker's axes in its link's frame
    "control_kp",     # (nk,) 1/rad, proportional gain
    "control_ki",     # (nk,) 1/(rad s), integral gain
    "control_kd",     # (nk,) s/rad, derivative gain
    "control_delay",  # (nk,) s, neural delay (as CONTROL_LAGS first-order lags in series)
    "control_z_start",    # int, first controller state: per controller CONTROL_STATES
    "control_out_start",  # int, first controller output: per controller CONTROL_OUTPUTS
])
MUSCLE_OUTPUTS = (("length", "m"), ("length_rate", "m/s"), ("activation", "1"), ("force", "N"))
# A posture controller (occupant.forces.muscles.posture_commands): the pitch it holds at t = 0
# (its reference, a state of zero rate set by ``start_controls``), the delayed error's integral
# and the CONTROL_LAGS lags the sensed error passes through.
CONTROL_LAGS = 3
CONTROL_STATES = (("reference", "rad"), ("error_integral", "rad s")) \
    + tuple((f"error_lag{i + 1}", "rad") for i in range(CONTROL_LAGS))
CONTROL_OUTPUTS = (("error", "rad"), ("delayed_error", "rad"), ("command", "1"))
# Constraint equations of the cut joints and constraint primitives (occupant.constraints): each
# row is one scalar equation between a frame on link a and a frame on link b (-1: B0), both given
# in their link's frame: CONSTRAINT_DISTANCE (p_a - p_b) . u_b = 0 (u_b = axis_b turned with link b),
# CONSTRAINT_DOT u_a . u_b = 0.
# CONSTRAINT_COUPLER (couplers, screw joints): c_a q_a + c_b q_b + c_0 = 0 between the scalar
# coordinates of link_a and link_b (revolute angle or prismatic travel), the coefficients
# (c_a, c_b, c_0) held in point_a (the other fields unused).
# The velocity (non-holonomic) rows, after all the others:
# CONSTRAINT_VELOCITY u_a . (v_a(p_a) - v_b(p_a)) = 0, the velocity of point a relative to the
# material point of link b at p_a along u_a (axis_a turned with link a).
# Rheonomic rows (joint and marker motions, occupant.modeling.motions) have drive >= 0, the first
# row of their time functions f(t) = c0 + c1 t + c2 t^2 + c3 t^3 + A sin(w t + phase) in drives:
# a DISTANCE or COUPLER row becomes Phi - f(t) = 0; a DOT row's u_b turns with time by the angles
# f_0, f_1, f_2 (rows drive, drive + 1, drive + 2) about n1 = point_a, n2 = point_b and n2 x n1
# (link b's frame), applied in that order (occupant.constraints.drivers).
CONSTRAINT_DISTANCE, CONSTRAINT_DOT, CONSTRAINT_COUPLER, CONSTRAINT_VELOCITY = range(4)
# CONSTRAINT_DOT_DIFFERENCE u_a . u_b - w_a . w_b = 0, w_a = point_a and w_b = point_b read as
# axes (a constant-velocity joint's x_a . y_b - y_a . x_b = 0: occupant.modeling.compile_constraints)
CONSTRAINT_DOT_DIFFERENCE = 4
# CONSTRAINT_SCREW (a loop-closing screw joint): travel s = (p_b - p_a) . u_b minus k theta, theta
# the turn about u_b of x_b (drives[drive, 1:4], link b's frame) from x_a (axis_a), k = pitch / 2 pi
# in drives[drive, 0] (that row holds these parameters, not a time function)
CONSTRAINT_SCREW = 5
# CONSTRAINT_CURVE (higher pairs, occupant.modeling.higher_pairs): the gap (p_a - p_b) . n_b
# between point a (point_a when curve[row, 0] < 0, or the point of the planar curve curve[row, 0])
# and the point p_b of the curve curve[row, 1] on link b at the pair of curve parameters where
# the tangents are parallel and p_a - p_b is normal to curve b; n_b a normal of curve b in the
# frame fixed in b (n_2 when curve[row, 0] = -2, else n_1; occupant.constraints.curve_rows,
# which also gives the layout of the curves table)
CONSTRAINT_CURVE = 6
ConstraintBlock = namedtuple("ConstraintBlock", [
    "kind",           # (nc,) int, CONSTRAINT_DISTANCE, _DOT, _COUPLER or _VELOCITY
    "link_a",         # (nc,) int, link carrying point/axis a (-1: B0)
    "point_a",        # (nc, 3) m, point a in that link's frame
    "axis_a",         # (nc, 3) unit vector u_a in that link's frame (DOT rows)
    "link_b",         # (nc,) int
    "point_b",        # (nc, 3) m
    "axis_b",         # (nc, 3) unit vector u_b in link b's frame
    "drive",          # (nc,) int, first row of the row's time functions in drives (-1: none)
    "drives",         # (nf, 7) c0, c1, c2, c3, A, w (rad/s), phase (rad) of f(t)
    "curve",          # (nc, 2) int, first row in curves of the curve of a and of b (-1: none)
    "curves",         # (ncr, 12) curve headers and coefficients in their link's frame
])
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
    "point_across",   # (np,) a wrap's Coulomb coefficient across the belt (0: shortest path)
    "point_barrier",  # (np,) 1: a barrier wrap (``Wrap.barrier``) placed after the others
                      # from the fixed point before it, -1: from the fixed point after it
    "point_carrier",  # (np,) int, link the point's force acts on: point_link, or for a carried
                      # wrap a child link of it on a prismatic joint (a sternum)
    "point_carrier_r",    # (np, 3) m, the carrier link's origin at rest in point_link's frame
    "point_share",    # (np,) share of a carried wrap's force its carrier bears (1: all; the rest
                      # on point_link) and of the carrier's travel its point moves by (Wrap.share)
    "point_z",        # (np,) int, a wrap's first BELT_WRAP_STATES state (-1 for the others)
    "point_fit",      # (np, 3) a wrap's fitted place, scaled frame (0: its shortest wrap; fitting)
    "point_flank",    # (np, 4) a held wrap's bound g . u >= d on its place u (scaled frame; g = 0:
                      # none; ``Wrap.flank``, ``restraints.belt_wraps.flank_bound``)
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
    "pt_capacity",    # (nbelt,) N, spool force of a pull-in pretensioner (its pull-in stalls there)
    "pt_start",       # (nbelt,) int, first row of the pretensioner table in pt_tables
    "pt_len",         # (nbelt,) int
    "spool_start",    # (nbelt,) int, first row of the locked spool's table in pt_tables (-1: linear)
    "spool_len",      # (nbelt,) int (0: the spool is linear, spool_stiffness)
    "pt_tables",      # (nt, 2) pretensioner rows (time since firing s, N or m) and spool rows
                      # (payout beyond the lock m, N: Retractor.spool_curve)
    "z_start",        # (nbelt,) int, first state of each belt: BELT_STATES layout
    "out_start",      # (nbelt,) int, first output of each belt: BELT_*_OUTPUTS layout
    "held",           # ``marker`` of wraps held across the belt (point_across > 0)
    "barrier",        # ``marker`` of barrier wraps (point_barrier != 0)
])
# per segment, then per point, then per belt (in this order for each belt)
BELT_SEGMENT_OUTPUTS = (("force", "N"), ("strain", "1"), ("length", "m"), ("length_rate", "m/s"))
BELT_POINT_OUTPUTS = (("x", "m"), ("y", "m"), ("z", "m"))
BELT_OUTPUTS = (("payout", "m"), ("pull_in", "m"), ("locked", "1"))
# per segment the unstretched webbing length (m) and the largest strain so far, then per belt
BELT_SEGMENT_STATES = (("webbing", "m"), ("max_strain", "1"))
BELT_STATES = (("payout", "m"), ("free_payout", "m"), ("limiter_payout", "m"), ("lock_timer", "s"))
# per wrap point where it lies on its ellipsoid: a direction in the ellipsoid's scaled frame (the
# unit sphere; zero: not yet placed, the middle of its shortest wrap)
BELT_WRAP_STATES = (("surface_x", "1"), ("surface_y", "1"), ("surface_z", "1"))
# Data.belt_flow's columns per belt point: its webbing flow's terms and their solution
# (occupant.restraints.belt_flow.flow_solve)
BELT_FLOW_TERMS = ("flows", "stuck", "up", "down", "ka", "kb", "ratio", "t_before", "t_after",
                   "u_before", "u_after", "way", "q", "prev", "next", "c", "d")

# Tyres on flat ground (occupant.vehicle.tyre): per wheel its link, hub centre and spin axis in
# the link frame, vertical spring-damper, Pacejka magic-formula coefficients, and the brake
# torque on its spin coordinate (capacity times the run's pedal table).
TyreBlock = namedtuple("TyreBlock", [
    "link",           # (nt,) int, link of the wheel
    "centre",         # (nt, 3) m, wheel centre in that link's frame
    "axis",           # (nt, 3) unit spin axis in that link's frame
    "radius",         # (nt,) m, unloaded radius
    "stiffness",      # (nt,) N/m, vertical (radial) stiffness
    "damping",        # (nt,) N s/m, vertical damping
    "mf_long",        # (nt, 4) B, C, mu (D = mu Fz), E of the longitudinal magic formula
    "mf_lat",         # (nt, 4) B, C, mu, E of the lateral magic formula
    "slip_speed",     # (nt,) m/s, lowest speed in the slip denominators
    "spin_dof",       # (nt,) int, velocity index of the wheel's spin coordinate (-1: none)
    "brake_torque",   # (nt,) N m, brake torque at pedal 1
    "brake_speed",    # (nt,) rad/s, spin rate of the tanh regularisation of brake friction
    "pedal",          # (np >= 2, 2) (t s, pedal 0-1) rows, linear between, constant outside
    "out_start",      # int, first output: per tyre TYRE_OUTPUTS
])
TYRE_OUTPUTS = (("vertical_force", "N"), ("longitudinal_force", "N"), ("lateral_force", "N"),
                ("slip_ratio", "1"), ("slip_angle", "rad"), ("deflection", "m"),
                ("brake_torque", "N m"))
# Couplers between joint coordinates (occupant.vehicle.tyre): e = r_a q_a + r_b q_b - target(t),
# generalized forces -(k e + c e') r_a on q_a and r_b on q_b: a gear or rack-and-pinion mesh
# (compliant), or with dof_b = -1 a servo driving q_a along the target table.
CouplerBlock = namedtuple("CouplerBlock", [
    "dof_a",          # (ncp,) int, velocity index of coordinate a (a revolute or prismatic link)
    "q_a",            # (ncp,) int, its position index
    "ratio_a",        # (ncp,)
    "dof_b",          # (ncp,) int (-1: none)
    "q_b",            # (ncp,) int (-1: none)
    "ratio_b",        # (ncp,)
    "stiffness",      # (ncp,) N m/rad or N/m
    "damping",        # (ncp,) N m s/rad or N s/m
    "target_start",   # (ncp,) int, first row of the target table in targets (-1: zero)
    "target_len",     # (ncp,) int
    "targets",        # (nrow, 2) (t s, target) rows
    "out_start",      # int, first output: per coupler COUPLER_OUTPUTS
])
COUPLER_OUTPUTS = (("error", "rad or m"), ("force", "N m or N"))
# Forces between two markers (occupant.forces.marker_forces; occupant.modeling.MarkerForce):
# single-component (LINE) or a linear 6x6 law plus time functions (LINEAR: bushing, beam, field,
# three- and six-component forces).
MARKER_FORCE_LINE, MARKER_FORCE_LINEAR = range(2)
MarkerForceBlock = namedtuple("MarkerForceBlock", [
    "link_i",         # (ne,) int, link carrying marker I (-1: B0)
    "R_i",            # (ne, 3, 3) axes of I in that link's frame
    "p_i",            # (ne, 3) m, origin of I in that link's frame
    "link_j",         # (ne,) int, link carrying marker J (-1: B0)
    "R_j",            # (ne, 3, 3)
    "p_j",            # (ne, 3) m
    "law",            # (ne,) int, MARKER_FORCE_LINE or MARKER_FORCE_LINEAR
    "stiffness",      # (ne, 6, 6) N/m, N/rad, N m/m, N m/rad: K of (F, T) = -K u - C udot + ...
    "damping",        # (ne, 6, 6) the same per m/s and rad/s
    "reference",      # (ne, 6) m, rad: u at zero elastic load (a beam's (L, 0, ...))
    "preload",        # (ne, 6) N, N m on I in J's axes
    "table_start",    # (ne,) int, first row of the element's time table in tables (-1: none)
    "table_len",      # (ne,) int
    "table_cols",     # (ne,) int, load columns of the table (1: line, 3: forces, 6: and torques)
    "tables",         # (nt, 7) rows (t s, load columns ...; unused columns 0)
    "out_start",      # int, first output: per element MARKER_FORCE_OUTPUTS
    "spring_start",   # (ne, 6) int, first row in springs of component c's tabulated elastic
                      # load, subtracted from load c (-1: none; K alone)
    "spring_len",     # (ne, 6) int
    "springs",        # (ns, 2) rows (u_c m or rad, restoring load N or N m), linear between,
                      # extrapolated with the end slopes
])
MARKER_FORCE_OUTPUTS = tuple((f"{q}", u) for q, u in (
    ("dx", "m"), ("dy", "m"), ("dz", "m"), ("ax", "rad"), ("ay", "rad"), ("az", "rad"),
    ("fx", "N"), ("fy", "N"), ("fz", "N"), ("tx", "N m"), ("ty", "N m"), ("tz", "N m")))

Bundle = namedtuple("Bundle", [
    "tree",             # KinTree
    "joint_resistance", # JointResistanceBlock
    "spring_dampers",   # SpringDamperBlock
    "contacts",         # ContactBlock
    "airbags",          # AirbagBlock
    "muscles",          # MuscleBlock
    "constraints",      # ConstraintBlock
    "belts",            # BeltBlock
    "base_table",       # (n, 12) B0 spatial states sampled every base_dt from base_t0
    "base_t0",          # s
    "base_dt",          # s
    "tau_applied",      # (nv,) constant applied generalized forces
    "work_start",       # int, index in z of the first work accumulator (one per POWER_NAMES)
    "tyres",            # TyreBlock
    "couplers",         # CouplerBlock
    "marker_forces",    # MarkerForceBlock
])


# The field whose length is each producer family's number of elements. A family a model lacks
# goes to the compiled step as None, a type of its own: the step is compiled for the families
# the model has (``integrate.pipeline.produce``), not for all of them (most of a first run's
# compilation went to families the model lacks). A family not listed is always passed.
ELEMENT_FIELD = dict(joint_resistance="link", spring_dampers="link_a", contacts="pair_type",
                     airbags="bag_link", muscles="link_a", belts="retractor", tyres="link",
                     couplers="dof_a", marker_forces="link_i")
# Families passed even without elements: the parametric human's muscles (occupant.human), so that
# the human put in a dummy's place (``--set occupant.human.sex=male``) runs the step compiled for
# the dummy, its muscle loop empty there, instead of compiling a step of its own: its first run
# after the dummy's took 26.4 s where the second took 6.1 s (us_ncap_frontal_56, its own step
# 10.5 s CPU to compile; scenarios/validation/HISTORY.md, humanspeed). An empty family costs
# the step one empty loop.
ALWAYS_PASSED = ("muscles",)


# What a producer family's function is handed in place of the whole bundle (pipeline.produce):
# the tree and its own block (two records by reference, ``occupant.byref``), so that it is
# compiled for its family's block alone, whatever other families the model has.
PRODUCER_BUNDLE = {}
for _family in ELEMENT_FIELD:
    _name = "".join(w.title() for w in _family.split("_")) + "Bundle"
    PRODUCER_BUNDLE[_family] = globals()[_name] = namedtuple(_name, ["tree", _family])

by_reference(Bundle, JointResistanceBlock, SpringDamperBlock, ContactBlock, PairKinds,
             AirbagBlock, MuscleBlock, ConstraintBlock, BeltBlock, TyreBlock, CouplerBlock,
             MarkerForceBlock)


# A block's markers: fields telling whether the model has something a producer handles in a
# branch of its own (a kind of contact pair, a held belt wrap, a bag on the "dimple" contact
# law), 1 if it has, None if not: a type
# of its own, so that the compiled producer holds the code of what the model has only
# (``jit.call_if``: us_ncap_frontal_56's contacts compile in 0.7 of the CPU time without the
# routines of its absent plane, cylinder and mesh pairs; the plane's, which the airbags also
# call, is now compiled with them).
MARKERS = dict(contacts=("kinds", "grouped"), belts=("held", "barrier"), airbags=("dimple",))


def marker(present):
    """The marker of something the model has (``present``) or lacks."""
    return 1 if present else None


def pair_kinds(pair_type):
    """The PairKinds of the pair types ``pair_type`` (an int array)."""
    return PairKinds(*(marker(np.any(pair_type == k)) for k in range(len(PairKinds._fields))))


def step_pattern(bundle):
    """What a step bundle's numba type depends on besides its arrays' kinds: which families it
    lacks and its blocks' markers (``jit.FastCall``'s key)."""
    return (tuple(f is None for f in bundle),
            tuple(getattr(getattr(bundle, family), field) for family, fields in MARKERS.items()
                  if getattr(bundle, family) is not None for field in fields))


Bundle.step_pattern = step_pattern   # jit.FastCall keys its entries on it


def step_bundle(bundle):
    """``bundle`` as the compiled step gets it: each producer family without elements None
    (but those ``ALWAYS_PASSED``)."""
    return bundle._replace(**{family: None for family, field in ELEMENT_FIELD.items()
                              if family not in ALWAYS_PASSED
                              and len(getattr(getattr(bundle, family), field)) == 0})


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
        elif val is None or hasattr(val, "_fields"):   # a marker, or a record of them
            out[name] = val
        else:
            arr = np.asarray(val)
            out[name] = frozen(arr, integer=arr.dtype.kind in "iu")
    return block_type(**out)


def empty_airbag_block():
    """The AirbagBlock of a model without airbags."""
    values = {name: np.zeros(0) for name in AirbagBlock._fields}
    for name in ("bag_link", "flow_start", "flow_len", "temperature_start", "temperature_len",
                 "contact_law", "pair_bag", "link_a", "carrier", "link_b", "bottom_start",
                 "bottom_len"):
        values[name] = np.zeros(0, dtype=np.int64)
    values["pair_start"] = np.zeros(1, dtype=np.int64)
    for name, shape in (("bag_R", (0, 3, 3)), ("R_a", (0, 3, 3)), ("R_b", (0, 3, 3)),
                        ("bag_p", (0, 3)), ("semi_axes", (0, 3)), ("p_a", (0, 3)),
                        ("size_a", (0, 3)), ("carrier_r", (0, 3)), ("tables", (0, 2)),
                        ("front_R", (0, 3, 3)), ("front_p", (0, 3)), ("front_half", (0, 2)),
                        ("R_bottom", (0, 3, 3)),
                        ("p_bottom", (0, 3)), ("size_bottom", (0, 3))):
        values[name] = np.zeros(shape)
    for name in ("z_start", "pair_z_start", "out_start", "pair_out_start"):
        values[name] = 0
    values["dimple"] = None
    return freeze_block(AirbagBlock, values)
def empty_constraint_block():
    """The ConstraintBlock of a model without closed loops."""
    return freeze_block(ConstraintBlock, dict(
        kind=np.zeros(0, np.int64), link_a=np.zeros(0, np.int64), point_a=np.zeros((0, 3)),
        axis_a=np.zeros((0, 3)), link_b=np.zeros(0, np.int64), point_b=np.zeros((0, 3)),
        axis_b=np.zeros((0, 3)), drive=np.zeros(0, np.int64), drives=np.zeros((0, 7)),
        curve=np.zeros((0, 2), np.int64), curves=np.zeros((0, 12))))


def empty_tyre_block():
    """The TyreBlock of a model without tyres."""
    return freeze_block(TyreBlock, dict(
        link=np.zeros(0, np.int64), centre=np.zeros((0, 3)), axis=np.zeros((0, 3)),
        radius=np.zeros(0), stiffness=np.zeros(0), damping=np.zeros(0), mf_long=np.zeros((0, 4)),
        mf_lat=np.zeros((0, 4)), slip_speed=np.zeros(0), spin_dof=np.zeros(0, np.int64),
        brake_torque=np.zeros(0), brake_speed=np.zeros(0), pedal=np.array([[0.0, 0.0], [1.0, 0.0]]), out_start=0))


def empty_coupler_block():
    """The CouplerBlock of a model without couplers."""
    return freeze_block(CouplerBlock, dict(
        dof_a=np.zeros(0, np.int64), q_a=np.zeros(0, np.int64), ratio_a=np.zeros(0),
        dof_b=np.zeros(0, np.int64), q_b=np.zeros(0, np.int64),
        ratio_b=np.zeros(0), stiffness=np.zeros(0), damping=np.zeros(0),
        target_start=np.zeros(0, np.int64), target_len=np.zeros(0, np.int64),
        targets=np.zeros((0, 2)), out_start=0))
def empty_marker_force_block():
    """The MarkerForceBlock of a model without marker forces."""
    values = {name: np.zeros(0, dtype=np.int64) for name in
              ("link_i", "link_j", "law", "table_start", "table_len", "table_cols")}
    values.update(R_i=np.zeros((0, 3, 3)), p_i=np.zeros((0, 3)), R_j=np.zeros((0, 3, 3)),
                  p_j=np.zeros((0, 3)), stiffness=np.zeros((0, 6, 6)),
                  damping=np.zeros((0, 6, 6)), reference=np.zeros((0, 6)),
                  preload=np.zeros((0, 6)), tables=np.zeros((0, 7)), out_start=0,
                  spring_start=np.zeros((0, 6), np.int64), spring_len=np.zeros((0, 6), np.int64),
                  springs=np.zeros((0, 2)))
    return freeze_block(MarkerForceBlock, values)
