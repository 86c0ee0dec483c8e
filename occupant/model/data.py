"""Data: the one scratch of one Model for the compiled code, filled by the step's named stages.

A record of flat arrays allocated once by ``make_data(model)`` (``model.make_data()``); every
field can be recomputed from Model and State, nothing in it persists between steps (conventions
rule 1, as MuJoCo's mjData and Pinocchio's Data). Spatial vectors are (angular, linear) in link
coordinates; "base" is the vehicle frame B0. Stages, in the order the step runs them
(``occupant.integrate.pipeline``):

1. base motion: ``base``;
2. kinematics: ``q_unit``, ``R_up``, ``p_up``, ``X_up``, ``R_base_link``, ``p_base_link``,
   ``v``, ``c``;
3. forces (every force producer adds to these): ``tau``, ``f_ext``, ``slope``, ``outputs``
   (left as they were where ``record_outputs`` is 0 and only they need the work),
   ``power``, ``zdot`` (producer states); a producer's own intermediate results
   (``airbag_pairs``, ``contact_p_b``, ``contact_R_b``, ``contact_culled``, ``contact_sweep``,
   ``contact_order``, ``contact_group``, ``belt_touch``, ``belt_drift``, ``belt_flow``, ``belt_path``);
4. accelerations (ABA): ``a``, ``I_A``, ``p_A``, ``U``, ``D_inv``, ``u``, ``armature``, ``vdot``;
   then the base-motion power and the work rates in ``zdot``.
Also used outside the step: ``f`` (RNEA joint forces), ``I_C`` and ``M`` (CRBA), ``scratch``.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from occupant.byref import by_reference
from occupant.jit import JIT_INLINE
from occupant.model.bundle import BELT_FLOW_TERMS, CONTACT_GROUP_ROW
from occupant.restraints.airbag_dimple import ROWS as AIRBAG_ROWS

Data = namedtuple("Data", [
    # base motion
    "base",         # (12,) B0 spatial velocity and acceleration minus gravity, B0 coordinates
    # kinematics
    "q_unit",       # (nq,) the configuration with unit quaternions
    "R_up",         # (nl, 3, 3) rotation of each link frame in its parent link
    "p_up",         # (nl, 3) m, link origin in the parent link frame
    "X_up",         # (nl, 6, 6) Plücker transform parent -> link
    "R_base_link",  # (nl, 3, 3) link axes in B0
    "p_base_link",  # (nl, 3) m, link origin in B0
    "v",            # (nl, 6) link spatial velocity (B0's own included)
    "c",            # (nl, 6) velocity-product acceleration v x vJ
    # forces
    "tau",          # (nv,) generalized forces: applied plus every producer's
    "f_ext",        # (nl, 6) N m, N: external spatial force on each link about its origin
    "slope",        # (nv,) N m s/rad: -d(tau)/d(v) of the diagonal producers (implicit damping)
    "outputs",      # (nout,) every producer's outputs (model.output_names)
    "power",        # (npower,) W: power of base motion, applied forces and each producer family
    "zdot",         # (nz,) rates of the extra states z
    "record_outputs",  # (1,) int, 0 while the fixed-step loops evaluate a state whose outputs
                    #   are not recorded: a producer may then skip what only its outputs need
                    #   (a pair's elastic energy); 1 otherwise (``integrate.fixed_step``)
    "airbag_pairs", # (ROWS, npair, 3) rows per airbag contact pair (each row one contiguous
                    #   (npair, 3) array, as the contact geometry's own): the bag's current centre and
                    #   semi-axes (mounting link frame), the normal and contact point (B0),
                    #   (penetration m, its rate m/s, contact area m^2), and of the share on a
                    #   carrier (share, penetration m, its rate m/s) and its contact point (B0),
                    #   (share of its dimple, the dimple's area m^2, the depth the unfolding
                    #   put the body in m) of the "dimple" law, and its link's dimple
                    #   (the link's depth less the pair's, its body radius, the pair's part;
                    #   the lever rule's scratch, inputs and pull: airbag_dimple.ROWS)
                    #   (occupant.restraints.airbag_dimple.dimple_shares)
                    #   (occupant.restraints.airbag)
    "contact_p_b",  # (nc, 3) m, each contact pair's point of geometry b (its link frame) as
                    #   moved by its prescribed motion, if any (occupant.contact.compliant)
    "contact_R_b",  # (nc, 3, 3) each pair's axes of geometry b (its link frame) as turned by its
                    #   prescribed motion: made the block's R_b by make_data and rewritten each
                    #   evaluation only where some motion rotates (ContactBlock.mover_turns)
    "contact_culled", # (nc,) int, 1: the sweep found the pair's bounding spheres apart
    "contact_sweep",  # (nmv, 6) m, each bounding sphere on a link: its interval along x of B0,
                      #   its centre in B0, its radius
    "contact_order",  # (nmv,) int, those spheres sorted by their intervals' lower ends; kept from
                      #   one evaluation to the next only to speed the sort
                      #   (occupant.contact.broad_phase)
    "contact_group",  # (nc, CONTACT_GROUP_ROW) per pair of a crush group, its narrow phase's
                      #   results and its group's depth, rate and the pair's weight, found once
                      #   per evaluation before the pairs' forces (0 rows: no crush group)
                      #   (occupant.contact.compliant.group_pass)
    "belt_touch",   # (np,) per barrier wrap, what its output slot holds: its own point, placed
                    #   touching its ellipsoid (1) or not, its piece clear of it (0) or through
                    #   it from the side it does not declare (2), ``wrap_chain.place_barrier``'s
                    #   verdict, which ``wrap_chain.lifted`` and ``belt_wraps.wrap_slide`` read
                    #   for it; -1 another point (the stand-in or ``barrier_start``'s, judged on
                    #   its ellipsoid's surface) (occupant.restraints.belt_points._place_barriers)
    "belt_drift",   # (np,) m/s per belt point: its wrap's motion over the body along the belt,
                    #   found once per evaluation for the segments' length rates and the
                    #   webbing it carries (occupant.restraints.belt_wraps.wrap_drift)
    "belt_flow",    # (np, len(BELT_FLOW_TERMS)) per belt point: its webbing flow's terms and
                    #   the flow solved from them (occupant.restraints.belt_flow.flow_solve)
    "belt_path",    # (np, 45) per belt segment (by its first point): the direction (B0, not
                    #   unit) its tension acts in at that point, the parts of it at its carried
                    #   ends that act on the geometry's part, its fading arcs' gradients and
                    #   points, and its path's directions as it leaves its first point and
                    #   reaches its last, its tangent pieces' couples per unit tension, a faded
                    #   piece's slide gradients, their points and its wrap, a barrier's onset
                    #   fade's gradients at the fixed point before it and that point
                    #   (occupant.restraints.belt_path.path_lengths)
    # accelerations
    "a",            # (nl, 6) link spatial acceleration (minus gravity)
    "I_A",          # (nl, 6, 6) articulated-body inertias
    "p_A",          # (nl, 6) articulated-body bias forces
    "U",            # (nl, 6, 6)
    "D_inv",        # (nl, 6, 6)
    "u",            # (nl, 6)
    "armature",     # (nv,) joint-space diagonal added in the ABA (h C for implicit damping)
    "vdot",         # (nv,) generalized accelerations
    # other algorithms
    "f",            # (nl, 6) spatial force each joint transmits to its link (RNEA)
    "I_C",          # (nl, 6, 6) composite inertias (CRBA)
    "M",            # (nv, nv) mass matrix D(q) (CRBA)
    "scratch",      # (3, 6, 12) small temporaries of the recursions
])


def make_data(model):
    """Allocate the scratch of ``model`` (one per thread or process)."""
    nl, nv, nq = model.nl, model.nv, model.nq
    z = np.zeros
    return Data(base=z(12), q_unit=z(nq), R_up=z((nl, 3, 3)), p_up=z((nl, 3)), X_up=z((nl, 6, 6)),
                R_base_link=z((nl, 3, 3)), p_base_link=z((nl, 3)), v=z((nl, 6)), c=z((nl, 6)),
                tau=z(nv), f_ext=z((nl, 6)), slope=z(nv), outputs=z(len(model.output_names)),
                power=z(len(model.power_names)), zdot=z(model.nz),
                record_outputs=np.ones(1, dtype=np.int64),
                airbag_pairs=z((AIRBAG_ROWS, len(model.airbags.pair_bag), 3)),
                contact_p_b=z((len(model.contacts.pair_type), 3)),
                contact_R_b=np.array(model.contacts.R_b, dtype=float).reshape(-1, 3, 3),
                contact_culled=np.zeros(len(model.contacts.pair_type), dtype=np.int64),
                contact_sweep=z((len(model.contacts.sphere_radius), 6)),
                contact_order=np.arange(len(model.contacts.sphere_radius), dtype=np.int64),
                contact_group=z((len(model.contacts.pair_type)
                                 if np.any(np.asarray(model.contacts.crush_group) >= 0) else 0,
                                 CONTACT_GROUP_ROW)),
                belt_touch=np.full(len(model.belts.point_kind), -1.0),
                belt_drift=z(len(model.belts.point_kind)),
                belt_flow=z((len(model.belts.point_kind), len(BELT_FLOW_TERMS))),
                belt_path=z((len(model.belts.point_kind), 45)), a=z((nl, 6)),
                I_A=z((nl, 6, 6)), p_A=z((nl, 6)), U=z((nl, 6, 6)), D_inv=z((nl, 6, 6)),
                u=z((nl, 6)), armature=z(nv), vdot=z(nv), f=z((nl, 6)), I_C=z((nl, 6, 6)),
                M=z((nv, nv)), scratch=z((3, 6, 12)))


# Views of Data: the arrays one recursion reads and writes, what the step and the dynamics API
# hand it rather than the whole Data (the forward recursions ``spatial_ops.kinematics`` and
# ``aba.aba``: 19 of the 28; ``rnea``, ``crba``). Data and the views made in Python are passed by
# reference (``occupant.byref``); ForwardData, made in compiled code, by value.
ForwardData = namedtuple("ForwardData", [
    "base", "q_unit", "R_up", "p_up", "X_up", "R_base_link", "p_base_link", "v", "c", "f_ext",
    "armature", "a", "I_A", "p_A", "U", "D_inv", "u", "vdot", "scratch"])
RneaData = namedtuple("RneaData", ["base", "R_up", "p_up", "X_up", "v", "a", "f", "f_ext", "tau",
                                   "scratch"])
CrbaData = namedtuple("CrbaData", ["R_up", "p_up", "X_up", "I_C", "M", "scratch"])
by_reference(Data, RneaData, CrbaData)   # built in Python only (ForwardData also in compiled code)


def view(record_type, data):
    """The ``record_type`` view of ``data`` (the same arrays), in Python."""
    return record_type(*(getattr(data, name) for name in record_type._fields))


@njit(**JIT_INLINE)
def forward_data(data):
    """The ForwardData of ``data``, in compiled code."""
    return ForwardData(data.base, data.q_unit, data.R_up, data.p_up, data.X_up, data.R_base_link,
                       data.p_base_link, data.v, data.c, data.f_ext, data.armature, data.a,
                       data.I_A, data.p_A, data.U, data.D_inv, data.u, data.vdot, data.scratch)
