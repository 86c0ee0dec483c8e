"""Compile a vehicle (a Subsystem tree) to the runtime Model: flatten, compile the Assembly, add
the tyre and coupler blocks, and check every subsystem's mobility.

Mobility check (Grübler's count made exact by the rank of the constraint Jacobian G at the design
position): with its interface parts held, a subsystem's coordinates are those of its own tree
joints and its equations the rows of its own loop-closing joints; dof = columns - rank and
redundant rows = rows - rank. Redundant rows (over-constrained: the loop only closes because of
exact alignments) or a dof count other than its template's ``expected_dof`` (under- or
over-constrained) is an error naming the subsystem's file and the joints concerned.
"""
import numpy as np

from occupant.model.bundle import (COUPLER_OUTPUTS, CouplerBlock, TYRE_OUTPUTS, TyreBlock,
                                   freeze_block)
from occupant.model.joint_types import JointType
from occupant.modeling import ModelingError
from occupant.vehicle.subsystem import flatten

RANK_TOL = 1e-9


class VehicleError(ModelingError):
    """A vehicle or subsystem that cannot be compiled; the message names file, key and element."""


def compile_vehicle(vehicle, pedal=None, targets=None, check=True):
    """The runtime Model of ``vehicle``. ``pedal``: (n, 2) rows (t s, brake pedal 0-1) for every
    tyre's brake (default released); ``targets``: {coupler full name: (n, 2) rows (t s, target)}
    for servo couplers (default 0). ``vehicle``: a Vehicle or a Subsystem tree."""
    vehicle = getattr(vehicle, "root", vehicle)
    flat = flatten(vehicle)
    model = flat.assembly.compile()
    model.source_vehicle = vehicle
    model.flat = flat
    names, units = list(model.output_names), list(model.output_units)
    model.tyres = _tyre_block(model, flat.tyres, pedal, names, units)
    model.couplers = _coupler_block(model, flat.couplers, targets or {}, names, units)
    model.output_names, model.output_units = tuple(names), tuple(units)
    if check:
        check_mobility(vehicle, model, flat)
    return model


def _scalar_dof(model, joint, what):
    """(v index, q index) of the 1-dof joint ``joint``."""
    links = model.joint_links[model.joint(joint)]
    lk = links[-1]
    if len(links) != 1 or model.tree.jtype[lk] not in (JointType.REVOLUTE, JointType.PRISMATIC):
        raise VehicleError(f"{what}: joint '{joint}' must be a revolute or prismatic joint")
    return int(model.tree.vidx[lk]), int(model.tree.qidx[lk])


def _reserve(names, units, elements, quantities):
    start = len(names)
    for e in elements:
        for q, u in quantities:
            names.append(f"{e.name}.{q}")
            units.append(u)
    return start


def _tyre_block(model, tyres, pedal, names, units):
    cols = {k: [] for k in TyreBlock._fields if k not in ("pedal", "out_start")}
    for t in tyres:
        if t.part is None:
            raise VehicleError(f"tyre '{t.name}': its wheel is not bound to a part")
        b = model.body(t.part)
        lk = int(model.body_link[b])
        cols["link"].append(lk)
        R, p = _link_from_design(model, t.part)
        cols["centre"].append(R @ t.centre + p)
        cols["axis"].append(R @ t.axis)
        for k in ("radius", "stiffness", "damping", "mf_long", "mf_lat", "slip_speed",
                  "brake_torque", "brake_speed"):
            cols[k].append(getattr(t, k))
        cols["spin_dof"].append(-1 if t.joint is None else _scalar_dof(model, t.joint, f"tyre '{t.name}'")[0])
    values = {k: np.array(v, dtype=np.int64 if k in ("link", "spin_dof") else float)
              for k, v in cols.items()}
    for k, shape in (("centre", (-1, 3)), ("axis", (-1, 3)), ("mf_long", (-1, 4)), ("mf_lat", (-1, 4))):
        values[k] = values[k].reshape(shape)
    # the pedal table (>= 2 rows, as the interpolation needs): released by default
    values["pedal"] = np.array([[0.0, 0.0], [1.0, 0.0]]) if pedal is None \
        else np.asarray(pedal, float).reshape(-1, 2)
    if len(values["pedal"]) < 2:
        raise VehicleError(f"pedal: expected >= 2 rows of (t s, pedal), got {len(values['pedal'])}")
    values["out_start"] = _reserve(names, units, tyres, TYRE_OUTPUTS)
    return freeze_block(TyreBlock, values)


def _link_from_design(model, part):
    """(R, p): a point x of the part frame (the design frame of vehicle parts) is R x + p in the
    frame of the part's link (the inverse of its tree joint's child marker, as compile does)."""
    src = model.source
    for j in src.joints.values():
        if j.child == part and j.child_marker is not None and j.name not in model.topology.cut_joints:
            m = src.markers[j.child_marker]
            return m.rotation.T, -m.rotation.T @ m.position
    return np.eye(3), np.zeros(3)


def _coupler_block(model, couplers, targets, names, units):
    cols = {k: [] for k in CouplerBlock._fields if k not in ("targets", "out_start")}
    rows = []
    for c in couplers:
        a, qa = _scalar_dof(model, c.joint_a, f"coupler '{c.name}'")
        b, qb = (-1, -1) if c.joint_b is None else _scalar_dof(model, c.joint_b, f"coupler '{c.name}'")
        table = targets.get(c.name, c.target)
        for k, val in (("dof_a", a), ("q_a", qa), ("ratio_a", c.ratio_a), ("dof_b", b),
                       ("q_b", qb), ("ratio_b", c.ratio_b), ("stiffness", c.stiffness),
                       ("damping", c.damping)):
            cols[k].append(val)
        if table is None:
            cols["target_start"].append(-1)
            cols["target_len"].append(0)
        else:
            table = np.asarray(table, float).reshape(-1, 2)
            if len(table) < 2:
                raise VehicleError(f"coupler '{c.name}'.target: expected >= 2 rows of (t s, value)")
            cols["target_start"].append(sum(len(r) for r in rows))
            cols["target_len"].append(len(table))
            rows.append(table)
    values = {k: np.array(v, dtype=np.int64 if k in ("dof_a", "q_a", "dof_b", "q_b", "target_start",
                                                         "target_len") else float)
              for k, v in cols.items()}
    values["targets"] = np.concatenate(rows) if rows else np.zeros((0, 2))
    values["out_start"] = _reserve(names, units, couplers, COUPLER_OUTPUTS)
    return freeze_block(CouplerBlock, values)


def constraint_jacobian(model, q=None):
    """(Phi, G) of the model's constraint rows at q (default the design position)."""
    from occupant.constraints.state_space import evaluate_constraints, make_constraint_work
    q = model.neutral_configuration() if q is None else q
    cw = make_constraint_work(model)
    evaluate_constraints(model.bundle(), model.make_data(), cw, q, np.zeros(model.nv))
    return cw.phi.copy(), cw.G.copy()


def check_mobility(vehicle, model, flat):
    """Raise VehicleError for a subsystem whose loops are over- or under-constrained."""
    if not model.constraint_names:
        return
    phi, G = constraint_jacobian(model)
    row_joint = np.array(model.constraint_names)
    bad = np.abs(phi) > 1e-6
    if bad.any():
        j = row_joint[np.argmax(np.abs(phi))]
        raise VehicleError(_where(vehicle, flat.owner[j], "parameters") +
                           f"joint '{j}' does not close: the loop misses by {np.abs(phi).max():.3g} "
                           f"m (or rad) at the design position (hard points inconsistent)")
    dof_owner = [flat.owner.get(model.joint_names[j], "") for j in model.dof_joint]
    for prefix, sub, _ in vehicle.walk():
        rows = [i for i, n in enumerate(row_joint) if flat.owner[n] == prefix]
        cols = [i for i, o in enumerate(dof_owner) if o == prefix]
        if not cols and not rows:
            continue
        Gs = G[np.ix_(rows, cols)] if rows and cols else np.zeros((len(rows), len(cols)))
        sv = np.linalg.svd(Gs, compute_uv=False) if Gs.size else np.zeros(0)
        rank = int(np.sum(sv > RANK_TOL * max(1.0, sv.max(initial=0.0))))
        if rank < len(rows):
            redundant = _redundant_joints(Gs, row_joint[rows], rank)
            raise VehicleError(_where(vehicle, prefix, "template") +
                               f"over-constrained: {len(rows) - rank} of the {len(rows)} "
                               f"constraint equations of joint(s) {', '.join(redundant)} are "
                               f"redundant (the loop only closes by exact alignment); use joints "
                               f"that remove fewer degrees of freedom (e.g. spherical for revolute)")
        dof = len(cols) - rank
        if sub.expected_dof is not None and dof != sub.expected_dof:
            kind = "under" if dof > sub.expected_dof else "over"
            free = _free_joints(Gs, [model.joint_names[model.dof_joint[c]] for c in cols], rank)
            raise VehicleError(_where(vehicle, prefix, "template") +
                               f"{kind}-constrained: {dof} degrees of freedom with its interface "
                               f"parts held, its template '{sub.template}' expects "
                               f"{sub.expected_dof}; free motion in joint(s) {', '.join(free)}")


def _where(vehicle, prefix, key):
    sub = vehicle
    for name in filter(None, prefix.split(".")):
        sub = sub.subsystems[name]
    label = prefix.rstrip(".") or sub.name
    return f"{sub.source or vehicle.source or '<model>'}: {key}: subsystem '{label}': "


def _redundant_joints(Gs, row_names, rank):
    """Joints of the rows left over by a pivoted QR of G^T (the dependent equations)."""
    from scipy.linalg import qr
    _, _, perm = qr(Gs.T, pivoting=True)
    return list(dict.fromkeys(row_names[perm[rank:]]))


def _free_joints(Gs, col_names, rank):
    """Joints moving in the null space of the subsystem's G (largest components first)."""
    if Gs.size:
        _, _, vt = np.linalg.svd(Gs)
        null = vt[rank:]
    else:
        null = np.eye(len(col_names))
    weight = np.abs(null).max(axis=0)
    order = np.argsort(-weight)
    return list(dict.fromkeys(col_names[i] for i in order if weight[i] > 1e-6))[:4]
