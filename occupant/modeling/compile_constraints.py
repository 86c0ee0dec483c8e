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
spherical: p_a = p_b; fixed: p_a = p_b and the orientations equal; universal (hooke): p_a = p_b
and z_a perpendicular to z_b (the two spin axes, one on each part); cylindrical: p_a on the z line
of J_b and z_a parallel to z_b; planar: p_a in the x-y plane of J_b and z_a parallel to z_b.
The constraint primitives (``constraint_elements.Primitive``) give the same rows between their
markers I (a) and J (b). Couplers and screw joints give CONSTRAINT_COUPLER rows c_a q_a + c_b q_b
+ c_0 = 0 between two scalar joint coordinates (a screw: travel - pitch angle / 2 pi = 0).
Joint and marker motions (``motions``) give rheonomic rows: a joint motion a coupler row
q - f(t) = 0, a marker motion distance rows (p_I - p_J) . u_J - f(t) = 0 and dot rows against J's
axes turned by the time functions (the ``drive`` and ``drives`` of the ConstraintBlock).
In a planar loop some of these rows are redundant; the solver keeps an independent subset
(``occupant.constraints.partition``).
"""
import numpy as np

from occupant.model.bundle import (ConstraintBlock, CONSTRAINT_DISTANCE, CONSTRAINT_DOT,
                                   CONSTRAINT_COUPLER, freeze_block)
from occupant.model.joint_types import JointType
from occupant.model.model import ModelError
from occupant.modeling.constraint_elements import PRIMITIVE_ROWS
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
    "universal": (("distance", _X), ("distance", _Y), ("distance", _Z), ("dot", _Z, _Z)),
    "hooke": (("distance", _X), ("distance", _Y), ("distance", _Z), ("dot", _Z, _Z)),
    "cylindrical": (("distance", _X), ("distance", _Y), ("dot", _Z, _X), ("dot", _Z, _Y)),
    "planar": (("distance", _Z), ("dot", _Z, _X), ("dot", _Z, _Y)),
}


def compile_constraints(model, asm, topo, X_link_part):
    """Give ``model`` (compiled from ``asm``) the ConstraintBlock of the cut joints of ``topo``,
    the constraint primitives, the couplers, the screw joints and, after all of those, the
    velocity constraints (``velocity_constraints``); ``X_link_part`` maps each part
    name to its frame in the frame of its link. Returns model."""
    screws = [j for j in asm.joints.values() if j.kind == "screw" and j.name not in topo.cut_joints]
    if not (topo.cut_joints or asm.primitives or asm.couplers or screws
            or asm.velocity_constraints or asm.motions):
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
        _add_rows(cols, names, name, rows, link_a, X_a, link_b, X_b)
    for p in asm.primitives.values():
        link_a, X_a = _marker_frame(model, asm, X_link_part, p.marker_i)
        if p.marker_j is None:
            X_b = np.eye(4)
            X_b[:3, :3], X_b[:3, 3] = p.rotation_j, p.position_j
            link_b = -1
        else:
            link_b, X_b = _marker_frame(model, asm, X_link_part, p.marker_j)
        _add_rows(cols, names, p.name, PRIMITIVE_ROWS[p.kind], link_a, X_a, link_b, X_b)
    for c in asm.couplers.values():
        la = _coordinate_link(model, topo, c, c.joint, c.dof, "joint")
        lb = _coordinate_link(model, topo, c, c.joint_b, c.dof_b, "joint_b")
        _add_coupler(cols, names, c.name, la, lb, (*c.coefficients, c.offset))
    for j in screws:
        la, lb = model.joint_links[model.joint(j.name)]
        _add_coupler(cols, names, j.name, la, lb, (1.0, -j.pitch / (2.0 * np.pi), 0.0))
    for m in asm.motions.values():
        _add_motion(cols, names, model, asm, topo, X_link_part, m)
    velocity_constraint_rows(model, asm, X_link_part, cols, names)
    cols["drive"] += [-1] * (len(cols["kind"]) - len(cols["drive"]))
    for k in ("kind", "link_a", "link_b", "drive"):
        cols[k] = np.array(cols[k], dtype=np.int64)
    for k in ("point_a", "axis_a", "point_b", "axis_b"):
        cols[k] = np.array(cols[k], dtype=float).reshape(-1, 3)
    cols["drives"] = np.array(cols["drives"], dtype=float).reshape(-1, 7)
    model.constraints = freeze_block(ConstraintBlock, cols)
    model.constraint_names = tuple(names)
    return model


def _add_rows(cols, names, name, rows, link_a, X_a, link_b, X_b):
    """The distance/dot rows between frame X_a of link_a and X_b of link_b (link frames)."""
    for row in rows:
        cols["kind"].append(CONSTRAINT_DISTANCE if row[0] == "distance" else CONSTRAINT_DOT)
        cols["link_a"].append(link_a)
        cols["point_a"].append(X_a[:3, 3])
        cols["axis_a"].append(X_a[:3, :3] @ (row[1] if row[0] == "dot" else _Z))
        cols["link_b"].append(link_b)
        cols["point_b"].append(X_b[:3, 3])
        cols["axis_b"].append(X_b[:3, :3] @ row[-1])
        names.append(name)


def _add_motion(cols, names, model, asm, topo, X_link_part, m):
    """The rheonomic rows of a JointMotion or MarkerMotion (module docstring)."""
    def drive(*functions, first=None):
        """The next row's drive: new rows of ``functions`` in drives, or the row ``first``."""
        cols["drive"] += [-1] * (len(cols["kind"]) - len(cols["drive"]))
        cols["drive"].append(len(cols["drives"]) if first is None else first)
        cols["drives"].extend(f.row for f in functions)

    if m.kind == "joint_motion":
        link = _coordinate_link(model, topo, m, m.joint, m.dof, "joint")
        drive(m.function)
        _add_coupler(cols, names, m.name, link, link, (1.0, 0.0, 0.0))
        return
    link_a, X_a = _marker_frame(model, asm, X_link_part, m.marker_i)
    if m.marker_j is None:
        X_b = np.eye(4)
        X_b[:3, :3], X_b[:3, 3] = m.rotation_j, m.position_j
        link_b = -1
    else:
        link_b, X_b = _marker_frame(model, asm, X_link_part, m.marker_j)
    for axis, f in zip(np.eye(3), m.translation):
        if f is not None:
            drive(f)
            _add_rows(cols, names, m.name, (("distance", axis),), link_a, X_a, link_b, X_b)
    if m.rotation is not None:
        first = len(cols["drives"])
        cols["drives"].extend(f.row for f in m.rotation)
        for row in PRIMITIVE_ROWS["orientation"]:
            drive(first=first)
            _add_rows(cols, names, m.name, (row,), link_a, X_a, link_b, X_b)
            # the axes the angles turn about, J's z and y in link b's frame (ConstraintBlock)
            cols["point_a"][-1], cols["point_b"][-1] = X_b[:3, 2], X_b[:3, 1]


def _add_coupler(cols, names, name, link_a, link_b, coefficients):
    cols["kind"].append(CONSTRAINT_COUPLER)
    cols["link_a"].append(link_a)
    cols["point_a"].append(np.array(coefficients, dtype=float))
    cols["axis_a"].append(np.zeros(3))
    cols["link_b"].append(link_b)
    cols["point_b"].append(np.zeros(3))
    cols["axis_b"].append(np.zeros(3))
    names.append(name)


def _marker_frame(model, asm, X_link_part, marker):
    """(link, marker frame in the link frame) of a marker."""
    m = asm.markers[marker]
    return int(model.body_link[model.body(m.part)]), X_link_part[m.part] @ m.transform


def _coordinate_link(model, topo, element, joint, dof, key):
    """The link of coordinate ``dof`` of a tree joint, which must be a revolute or prismatic link."""
    what = f"{element.kind.replace('_', ' ')} '{element.name}'.{key}"
    if joint in topo.cut_joints:
        raise ModelError(f"{what}: joint '{joint}' closes a kinematic loop (it has no coordinate "
                         f"of its own); couple joints of the spanning tree")
    links = model.joint_links[model.joint(joint)]
    scalar = [k for k in links if model.tree.jtype[k] in (int(JointType.REVOLUTE),
                                                          int(JointType.PRISMATIC))]
    if not 0 <= dof < len(scalar):
        raise ModelError(f"{what}: joint '{joint}' has {len(scalar)} revolute or prismatic "
                         f"coordinates, got dof {dof}")
    return int(scalar[dof])
