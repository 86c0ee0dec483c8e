"""Compile the cut joints of closed loops into constraint equations (seed 001, section 2).

The topology layer (seed 004) keeps a spanning tree of the joints and lists the joints that close
loops as cut joints. The tree is simulated in relative coordinates; each cut joint becomes
scalar equations Phi(q) = 0 between a frame J_a on its parent part (the joint frame: parent
marker, then placement) and a frame J_b on its child part (the child marker, or the part frame),
built from two primitives of seed 000 (ADAMS's joint primitives):

    distance  (p_a - p_b) . u_b = 0   (u_b an axis of J_b: the "inpoint"/"inline"/"inplane" rows)
    dot       u_a . u_b = 0           (perpendicular axes: the "parallel axes"/"orientation" rows)

revolute (about z): p_a = p_b (3 rows) and z_a parallel to z_b (z_a . x_b = z_a . y_b = 0);
prismatic (along z): p_a on the z line of J_b (2 rows) and the orientations equal (3 rows);
spherical: p_a = p_b; fixed: p_a = p_b and the orientations equal.
In a planar loop some of these rows are redundant; the solver keeps an independent subset
(``occupant.constraints.partition``).
"""
import numpy as np

from occupant.model.bundle import (ConstraintBlock, CONSTRAINT_DISTANCE, CONSTRAINT_DOT,
                                   freeze_block)
from occupant.model.model import ModelError
from occupant.modeling.velocity_constraints import velocity_constraint_rows

_X, _Y, _Z = np.eye(3)
# rows of each accepted cut-joint kind: ("distance", axis of J_b) or ("dot", axis of J_a, of J_b)
_ROWS = {
    "revolute": (("distance", _X), ("distance", _Y), ("distance", _Z),
                 ("dot", _Z, _X), ("dot", _Z, _Y)),
    "prismatic": (("distance", _X), ("distance", _Y),
                  ("dot", _Z, _X), ("dot", _Z, _Y), ("dot", _X, _Y)),
    "spherical": (("distance", _X), ("distance", _Y), ("distance", _Z)),
    "fixed": (("distance", _X), ("distance", _Y), ("distance", _Z),
              ("dot", _Z, _X), ("dot", _Z, _Y), ("dot", _X, _Y)),
}


def compile_constraints(model, asm, topo, X_link_part):
    """Give ``model`` (compiled from ``asm``) the ConstraintBlock of the cut joints of ``topo``;
    ``X_link_part`` maps each part name to its frame in the frame of its link; the rows of the
    velocity constraints (``velocity_constraints``) follow those of the cut joints. Returns model."""
    if not topo.cut_joints and not asm.velocity_constraints:
        return model
    cols = {k: [] for k in ConstraintBlock._fields}
    names = []
    for name in topo.cut_joints:
        joint = asm.joints[name]
        rows = _ROWS.get(joint.kind)
        if rows is None:
            raise ModelError(f"assembly '{asm.name}': joint '{name}' closes a kinematic loop and is "
                             f"a {joint.kind} joint; loop-closing joints may be "
                             f"{', '.join(_ROWS)}")
        if joint.parent is None:
            link_a, X_a = -1, np.eye(4)
        else:
            link_a = int(model.body_link[model.body(joint.parent)])
            X_a = X_link_part[joint.parent]
        if joint.parent_marker is not None:
            X_a = X_a @ asm.markers[joint.parent_marker].transform
        X_a = X_a @ joint.placement.transform
        X_b = X_link_part[joint.child]
        if joint.child_marker is not None:
            X_b = X_b @ asm.markers[joint.child_marker].transform
        link_b = int(model.body_link[model.body(joint.child)])
        for row in rows:
            cols["kind"].append(CONSTRAINT_DISTANCE if row[0] == "distance" else CONSTRAINT_DOT)
            cols["link_a"].append(link_a)
            cols["point_a"].append(X_a[:3, 3])
            cols["axis_a"].append(X_a[:3, :3] @ (row[1] if row[0] == "dot" else _Z))
            cols["link_b"].append(link_b)
            cols["point_b"].append(X_b[:3, 3])
            cols["axis_b"].append(X_b[:3, :3] @ row[-1])
            names.append(name)
    velocity_constraint_rows(model, asm, X_link_part, cols, names)
    for k in ("kind", "link_a", "link_b"):
        cols[k] = np.array(cols[k], dtype=np.int64)
    for k in ("point_a", "axis_a", "point_b", "axis_b"):
        cols[k] = np.array(cols[k], dtype=float).reshape(-1, 3)
    model.constraints = freeze_block(ConstraintBlock, cols)
    model.constraint_names = tuple(names)
    return model
