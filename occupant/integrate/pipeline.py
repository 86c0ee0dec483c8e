"""The compiled time step as a pipeline of named stages (conventions rule 10, design.md section 4):

    base motion -> kinematics -> forces (every producer) -> accelerations (ABA) -> rates

``evaluate(bundle, data, t, q, v, z, h_implicit)`` runs them once (``loads`` then
``accelerations``), leaving every stage's output in ``data``; ``state_derivative`` packs
y' = (q', vdot, zdot) for the integrators, and ``record_evaluated`` stores one output sample
from an evaluation the compiled loops made anyway.

Force producers all have the signature ``(bundle, data, t, q, v, z)``: they read their block of
the bundle and the kinematics in data, add generalized forces to data.tau or spatial forces to
data.f_ext (``forces.points.add_point_force``), their velocity slope to data.slope, and write
their z rates, outputs and power. ``forces`` below calls each registered producer: adding one is
one line there (and one in ``bundle.ELEMENT_FIELD``: the step is then compiled only for models
with elements of the family, and the producer is handed the tree and its block alone).
"""
from collections import namedtuple

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from occupant.byref import by_reference
from occupant.jit import JIT, JIT_INLINE, separate

from occupant.dynamics.aba import aba, base_power
from occupant.dynamics.spatial_ops import kinematics
from occupant.contact.compliant import contacts
from occupant.forces.joint_resistance import joint_resistance
from occupant.forces.spring_damper import spring_dampers
from occupant.restraints.airbag import airbags
from occupant.forces.muscles import muscles
from occupant.restraints.belt import belts
from occupant.vehicle.tyre import couplers, tyres
from occupant.forces.marker_forces import marker_forces
from occupant.model.bundle import POWER_APPLIED, POWER_BASE, POWER_MOTIONS, PRODUCER_BUNDLE
from occupant.model.data import forward_data
from occupant.model.joint_motion import normalize_quaternions, q_derivative

# Output samples recorded inside the compiled loops (n samples).
Recording = namedtuple("Recording", [
    "y",          # (n, nq + nv + nz) states
    "vdot",       # (n, nv) accelerations
    "poses",      # (n, nb, 4, 4) body frames in B0
    "base",       # (n, 12) B0 spatial state the step used
    "outputs",    # (n, nout) producer outputs
    "f_ext",      # (n, nl, 6) external spatial forces on the links from the producers
    "power",      # (n, npower) W
    "kinetic",    # (n,) J, kinetic energy relative to the world (B0's motion included)
    "body_link",  # (nb,) int, link of each body (input)
])
by_reference(Recording)


def make_recording(model, n):
    ny = model.nq + model.nv + model.nz
    return Recording(np.zeros((n, ny)), np.zeros((n, model.nv)), np.zeros((n, model.nb, 4, 4)),
                     np.zeros((n, 12)), np.zeros((n, len(model.output_names))),
                     np.zeros((n, model.nl, 6)),
                     np.zeros((n, len(model.power_names))), np.zeros(n),
                     np.ascontiguousarray(model.body_link))


@njit(**JIT_INLINE)
def base_state_at(bundle, t, out):
    """B0's spatial state at t: linear interpolation of the bundle's table (rows at t0 + k dt)."""
    table = bundle.base_table
    n = table.shape[0]
    if n == 1:
        for r in range(12):
            out[r] = table[0, r]
        return
    s = (t - bundle.base_t0) / bundle.base_dt
    k = int(np.floor(s))
    if k < 0:
        k, s = 0, 0.0
    if k >= n - 1:
        for r in range(12):
            out[r] = table[n - 1, r]
        return
    w = s - k
    for r in range(12):
        out[r] = (1.0 - w) * table[k, r] + w * table[k + 1, r]


@njit(**JIT_INLINE)
def forces(bundle, data, t, q, v, z):
    """Forces stage: applied generalized forces, then every registered force producer."""
    for j in range(data.tau.shape[0]):
        data.tau[j] = bundle.tau_applied[j]
        data.slope[j] = 0.0
    data.f_ext[:, :] = 0.0
    data.zdot[:] = 0.0
    data.power[POWER_MOTIONS] = 0.0     # the contacts and the constraints add to it
    # the registered producers, one line each (a family the model lacks is None in the bundle,
    # model.bundle.step_bundle, and compiles to nothing; but those of bundle.ALWAYS_PASSED)
    produce(joint_resistance, bundle.joint_resistance, bundle, data, t, q, v, z)
    produce(spring_dampers, bundle.spring_dampers, bundle, data, t, q, v, z)
    produce(contacts, bundle.contacts, bundle, data, t, q, v, z)
    produce(airbags, bundle.airbags, bundle, data, t, q, v, z)
    produce(muscles, bundle.muscles, bundle, data, t, q, v, z)
    produce(belts, bundle.belts, bundle, data, t, q, v, z)
    produce(tyres, bundle.tyres, bundle, data, t, q, v, z)
    produce(couplers, bundle.couplers, bundle, data, t, q, v, z)
    produce(marker_forces, bundle.marker_forces, bundle, data, t, q, v, z)


# Each family's producer, as ``forces`` calls it (for ``integrate.precompile``).
PRODUCERS = dict(joint_resistance=joint_resistance, spring_dampers=spring_dampers,
                 contacts=contacts, airbags=airbags, muscles=muscles, belts=belts, tyres=tyres,
                 couplers=couplers, marker_forces=marker_forces)


def producer_view(bundle, family):
    """numba type of what ``produce`` hands the producer of ``family``, for the numba type
    ``bundle`` of a step bundle: the tree and the family's block (``bundle.PRODUCER_BUNDLE``)."""
    return types.NamedTuple([bundle.types[bundle.fields.index("tree")],
                             bundle.types[bundle.fields.index(family)]], PRODUCER_BUNDLE[family])


@intrinsic
def produce(typingctx, producer, block, bundle, data, t, q, v, z):
    """``producer(bundle, data, t, q, v, z)`` where its ``block`` is in the bundle, the bundle
    cut to the tree and that block (``bundle.PRODUCER_BUNDLE``); nothing, and nothing compiled,
    where the block is None. Chosen by type, the call emitted in the caller (an intrinsic: a
    function in between would cost ~1 s of compilation for the arrays it passes on)."""
    sig = types.none(producer, block, bundle, data, t, q, v, z)
    if isinstance(block, types.NoneType):
        return sig, lambda context, builder, sig, args: context.get_dummy_value()
    family = next(name for name, ty in zip(bundle.fields, bundle.types) if ty == block)
    view = producer_view(bundle, family)
    call = typingctx.resolve_function_type(producer, (view,) + sig.args[3:], {})

    def codegen(context, builder, sig, args):
        tree = context.get_getattr(bundle, "tree")(context, builder, bundle, args[2], "tree")
        cut = context.make_tuple(builder, view, [tree, args[1]])
        context.get_function(producer, call)(builder, [cut] + list(args[3:]))
        return context.get_dummy_value()
    return sig, codegen


@njit(**JIT_INLINE)
def rates(bundle, data, v):
    """Rates stage: power of B0's motion and of the applied forces; the work accumulators at the
    end of z integrate every power slot."""
    data.power[POWER_BASE] = base_power(bundle.tree, data)
    p = 0.0
    for j in range(v.shape[0]):
        p += bundle.tau_applied[j] * v[j]
    data.power[POWER_APPLIED] = p
    for k in range(data.power.shape[0]):
        data.zdot[bundle.work_start + k] = data.power[k]


@separate
def loads(bundle, data, t, q, v, z):
    """The stages up to the loads at (t, q, v, z): base motion, kinematics, forces."""
    tree = bundle.tree
    base_state_at(bundle, t, data.base)
    for k in range(q.shape[0]):
        data.q_unit[k] = q[k]
    normalize_quaternions(tree, data.q_unit)
    kinematics(tree, forward_data(data), data.q_unit, v)
    forces(bundle, data, t, data.q_unit, v, z)


@njit(**JIT_INLINE)
def accelerations(bundle, data, v, h_implicit):
    """The stages after the loads: accelerations (ABA) and rates. With ``h_implicit`` = h > 0
    the diagonal velocity slopes C of the producers (joint damping) are taken implicitly,
    (M + h C) vdot = f(q, v), as MuJoCo treats joint damping in its Euler step; 0 for the
    explicit accelerations."""
    for j in range(data.armature.shape[0]):
        data.armature[j] = h_implicit * data.slope[j]
    aba(bundle.tree, forward_data(data), data.tau, data.vdot)
    rates(bundle, data, v)


@njit(**JIT)
def evaluate(bundle, data, t, q, v, z, h_implicit):
    """One evaluation of the step at (t, q, v, z): vdot in data.vdot, z rates in data.zdot and
    every stage's output in data (``h_implicit``: see ``accelerations``)."""
    loads(bundle, data, t, q, v, z)
    accelerations(bundle, data, v, h_implicit)


@njit(**JIT_INLINE)
def derivative(bundle, data, t, y, ydot):
    """ydot for y = (q, v, z): (q', vdot, zdot) (inlined where it is called)."""
    nq, nv = data.q_unit.shape[0], data.vdot.shape[0]
    v = y[nq:nq + nv]
    loads(bundle, data, t, y[:nq], v, y[nq + nv:])
    accelerations(bundle, data, v, 0.0)
    q_derivative(bundle.tree, data.q_unit, v, ydot[:nq])
    for j in range(nv):
        ydot[nq + j] = data.vdot[j]
    for j in range(data.zdot.shape[0]):
        ydot[nq + nv + j] = data.zdot[j]


@njit(**JIT)
def state_derivative(bundle, data, t, y, ydot):
    """ydot for y = (q, v, z): (q', vdot, zdot), for the integrators driven from Python."""
    derivative(bundle, data, t, y, ydot)


@separate
def record(bundle, data, t, y, rec, k):
    """Store output sample k of the state y at t (``record_evaluated`` after an evaluation)."""
    nq, nv = data.q_unit.shape[0], data.vdot.shape[0]
    v = y[nq:nq + nv]
    loads(bundle, data, t, y[:nq], v, y[nq + nv:])
    accelerations(bundle, data, v, 0.0)
    record_evaluated(bundle.tree.inertia, data, y, rec, k)


@separate
def record_evaluated(inertia, data, y, rec, k):
    """Store output sample k of the state y from data evaluated at it (explicit accelerations):
    the state, accelerations, body poses in B0, B0's state, producer outputs, forces and power,
    and the kinetic energy (1/2 sum v_i . I_i v_i, ``inertia`` the tree's, passed alone: every array
    passed costs compilation)."""
    nv = data.vdot.shape[0]
    for j in range(y.shape[0]):
        rec.y[k, j] = y[j]
    for j in range(nv):
        rec.vdot[k, j] = data.vdot[j]
    for r in range(12):
        rec.base[k, r] = data.base[r]
    for j in range(data.outputs.shape[0]):
        rec.outputs[k, j] = data.outputs[j]
    for i in range(data.f_ext.shape[0]):
        for r in range(6):
            rec.f_ext[k, i, r] = data.f_ext[i, r]
    for j in range(data.power.shape[0]):
        rec.power[k, j] = data.power[j]
    R, p = data.R_base_link, data.p_base_link
    for b in range(rec.body_link.shape[0]):
        lk = rec.body_link[b]
        for r in range(3):
            for c in range(3):
                rec.poses[k, b, r, c] = R[lk, r, c]
            rec.poses[k, b, r, 3] = p[lk, r]
            rec.poses[k, b, 3, r] = 0.0
        rec.poses[k, b, 3, 3] = 1.0
    rec.kinetic[k] = kinetic_energy(inertia, data.v)


@njit(**JIT_INLINE)
def kinetic_energy(inertia, vel):
    """1/2 sum v_i . I_i v_i (J) of the links' spatial velocities ``vel`` (nl, 6) and spatial
    inertias ``inertia`` (nl, 6, 6), in link coordinates."""
    energy = 0.0
    for i in range(vel.shape[0]):
        for r in range(6):
            s = 0.0
            for c in range(6):
                s += inertia[i, r, c] * vel[i, c]
            energy += vel[i, r] * s
    return 0.5 * energy


@njit(**JIT)
def record_samples(bundle, data, t, Y, rec):
    """``record`` every state Y[k] at t[k] (the samples of a run driven from Python)."""
    for k in range(t.shape[0]):
        record(bundle, data, t[k], Y[k], rec, k)
