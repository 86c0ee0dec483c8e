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
of J_b and z_a parallel to z_b; planar: p_a in the x-y plane of J_b and z_a parallel to z_b;
constant velocity: p_a = p_b and x_a . y_b - y_a . x_b = 0, a dot-difference row: R_xy = R_yx
of the relative rotation R = Rot(n, angle), i.e. n . z_a = 0. For shafts along z_a and z_b, bent
by beta about a common perpendicular and turned by s_a, s_b about their axes, the quaternion of R
has n . z_a proportional to cos(beta / 2) sin((s_b - s_a) / 2): the row holds s_b = s_a, equal
speeds at any bend (a Hooke joint's output fluctuates). As a tree joint: the relative rotation
R = Rx(a) Ry(b) Rx(a') (turns about the input's x, the middle frame's y and the output's x: the
two crosses of a double Cardan joint laid out symmetrically) with one coupler row a' = a. The
palindrome with a' = a is its own reverse under the half turn H about z (H R H = R^T), so R's
axis lies in the x-y plane: equal spin, with no spurious root (the dot-difference row above also
holds at a half turn about z). The bend is regular (rank 2) up to b = pi: near straight it is
the rotation vector (2a, b, 0); the three free coordinates alone are degenerate at b = 0 (a and
a' about the same axis), which the coupler row removes.
The constraint primitives (``constraint_elements.Primitive``) give the same rows between their
markers I (a) and J (b). Couplers and screw joints of the tree give CONSTRAINT_COUPLER rows c_a q_a + c_b q_b
+ c_0 = 0 between two scalar joint coordinates (a screw: travel - pitch angle / 2 pi = 0); a
screw joint closing a loop gives the cylindrical rows and a CONSTRAINT_SCREW row, which holds
the travel modulo the pitch (the relative turn is known modulo 2 pi: there is no turn counter), so
the solver keeps the branch it starts on while the travel per step stays below half a pitch
(limit the step, ``dt``, for a fast screw).
Joint and marker motions (``motions``) give rheonomic rows: a joint motion a coupler row
q - f(t) = 0, a marker motion distance rows (p_I - p_J) . u_J - f(t) = 0 and dot rows against J's
axes turned by the time functions (the ``drive`` and ``drives`` of the ConstraintBlock).
In a planar loop some of these rows are redundant; the solver keeps an independent subset
(``occupant.constraints.partition``). The higher pairs (``higher_pairs``) come after the motions.
"""
import numpy as np

from occupant.model.bundle import (ConstraintBlock, CONSTRAINT_DISTANCE, CONSTRAINT_DOT,
                                   CONSTRAINT_COUPLER, CONSTRAINT_DOT_DIFFERENCE, CONSTRAINT_SCREW,
                                   freeze_block)
from occupant.model.joint_types import JointType
from occupant.model.model import ModelError
from occupant.modeling.constraint_elements import PRIMITIVE_ROWS
from occupant.modeling.higher_pairs import higher_pair_rows
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
    "constant_velocity": (("distance", _X), ("distance", _Y), ("distance", _Z),
                          ("dot_difference", _X, _Y)),
    # cylindrical, then the travel along z_b tied to the turn (a CONSTRAINT_SCREW row, _add_screw)
    "screw": (("distance", _X), ("distance", _Y), ("dot", _Z, _X), ("dot", _Z, _Y)),
}
_ROW_KINDS = {"distance": CONSTRAINT_DISTANCE, "dot": CONSTRAINT_DOT,
              "dot_difference": CONSTRAINT_DOT_DIFFERENCE}


def compile_constraints(model, asm, topo, X_link_part):
    """Give ``model`` (compiled from ``asm``) the ConstraintBlock of the cut joints of ``topo``,
    the constraint primitives, the couplers, the screw joints and, after all of those, the
    velocity constraints (``velocity_constraints``); ``X_link_part`` maps each part
    name to its frame in the frame of its link. Returns model."""
    screws = [j for j in asm.joints.values() if j.kind == "screw" and j.name not in topo.cut_joints]
    cvs = [j for j in asm.joints.values()
           if j.kind == "constant_velocity" and j.name not in topo.cut_joints]
    if not (topo.cut_joints or asm.primitives or asm.couplers or screws or cvs
            or asm.velocity_constraints or asm.motions or asm.higher_pairs):
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
        link_a, X_a = _joint_frame(model, asm, X_link_part, joint)
        X_b = X_link_part[joint.child]
        if joint.child_marker is not None:
            X_b = X_b @ asm.markers[joint.child_marker].transform
        link_b = int(model.body_link[model.body(joint.child)])
        _add_rows(cols, names, name, rows, link_a, X_a, link_b, X_b)
        if joint.kind == "screw":
            _add_screw(cols, names, name, link_a, X_a, link_b, X_b, joint.pitch)
    for p in asm.primitives.values():
        _add_rows(cols, names, p.name, PRIMITIVE_ROWS[p.kind],
                  *_connection_frames(model, asm, X_link_part, p))
    for c in asm.couplers.values():
        la = _coordinate_link(model, topo, c, c.joint, c.dof, "joint")
        lb = _coordinate_link(model, topo, c, c.joint_b, c.dof_b, "joint_b")
        _add_coupler(cols, names, c.name, la, lb, (*c.coefficients, c.offset))
    for j in screws:
        la, lb = model.joint_links[model.joint(j.name)]
        _add_coupler(cols, names, j.name, la, lb, (1.0, -j.pitch / (2.0 * np.pi), 0.0))
    for j in cvs:      # rx_out = rx_in: the first and the third of its links
        links = model.joint_links[model.joint(j.name)]
        _add_coupler(cols, names, j.name, links[0], links[2], (1.0, -1.0, 0.0))
    for m in asm.motions.values():
        _add_motion(cols, names, model, asm, topo, X_link_part, m)
    higher_pair_rows(model, asm, X_link_part, cols, names)
    velocity_constraint_rows(model, asm, X_link_part, cols, names)
    cols["drive"] += [-1] * (len(cols["kind"]) - len(cols["drive"]))    # the rows after
    cols["curve"] += [(-1, -1)] * (len(cols["kind"]) - len(cols["curve"]))
    for k in ("kind", "link_a", "link_b", "drive"):
        cols[k] = np.array(cols[k], dtype=np.int64)
    for k in ("point_a", "axis_a", "point_b", "axis_b"):
        cols[k] = np.array(cols[k], dtype=float).reshape(-1, 3)
    cols["drives"] = np.array(cols["drives"], dtype=float).reshape(-1, 7)
    cols["curve"] = np.array(cols["curve"], dtype=np.int64).reshape(-1, 2)
    cols["curves"] = np.array(cols["curves"], dtype=float).reshape(-1, 12)
    model.constraints = freeze_block(ConstraintBlock, cols)
    model.constraint_names = tuple(names)
    return model


def _joint_frame(model, asm, X_link_part, joint):
    """(link, frame in the link frame) of a joint's frame on its parent (parent marker, then
    placement; link -1 and B0 for the base)."""
    if joint.parent is None:
        link_a, X_a = -1, np.eye(4)
    else:
        link_a = int(model.body_link[model.body(joint.parent)])
        X_a = X_link_part[joint.parent]
    if joint.parent_marker is not None:
        X_a = X_a @ asm.markers[joint.parent_marker].transform
    return link_a, X_a @ joint.placement.transform


def _add_rows(cols, names, name, rows, link_a, X_a, link_b, X_b):
    """The distance/dot rows between frame X_a of link_a and X_b of link_b (link frames); a
    dot difference ("dot_difference", e1, e2) is e1_a . e2_b - e2_a . e1_b."""
    for row in rows:
        cols["kind"].append(_ROW_KINDS[row[0]])
        cols["link_a"].append(link_a)
        cols["point_a"].append(X_a[:3, 3] if row[0] != "dot_difference" else X_a[:3, :3] @ row[2])
        cols["axis_a"].append(X_a[:3, :3] @ (row[1] if row[0] != "distance" else _Z))
        cols["link_b"].append(link_b)
        cols["point_b"].append(X_b[:3, 3] if row[0] != "dot_difference" else X_b[:3, :3] @ row[1])
        cols["axis_b"].append(X_b[:3, :3] @ row[-1])
        names.append(name)


def _drive_last_row(cols, rows):
    """The last row added takes its parameters from new rows ``rows`` of drives (an int: the
    existing row of that index); the rows before it without one get -1."""
    cols["drive"] += [-1] * (len(cols["kind"]) - 1 - len(cols["drive"]))
    if isinstance(rows, int):
        cols["drive"].append(rows)
    else:
        cols["drive"].append(len(cols["drives"]))
        cols["drives"].extend(rows)


def _add_motion(cols, names, model, asm, topo, X_link_part, m):
    """The rheonomic rows of a JointMotion or MarkerMotion (module docstring)."""
    if m.kind == "joint_motion":
        link = _coordinate_link(model, topo, m, m.joint, m.dof, "joint")
        _add_coupler(cols, names, m.name, link, link, (1.0, 0.0, 0.0))
        _drive_last_row(cols, [m.function.row])
        return
    link_a, X_a, link_b, X_b = _connection_frames(model, asm, X_link_part, m)
    for axis, f in zip(np.eye(3), m.translation):
        if f is not None:
            _add_rows(cols, names, m.name, (("distance", axis),), link_a, X_a, link_b, X_b)
            _drive_last_row(cols, [f.row])
    if m.rotation is not None:
        first = None
        for row in PRIMITIVE_ROWS["orientation"]:
            _add_rows(cols, names, m.name, (row,), link_a, X_a, link_b, X_b)
            # the axes the angles turn about, J's z and y in link b's frame (ConstraintBlock)
            cols["point_a"][-1], cols["point_b"][-1] = X_b[:3, 2], X_b[:3, 1]
            _drive_last_row(cols, [f.row for f in m.rotation] if first is None else first)
            first = cols["drive"][-1]


def _add_screw(cols, names, name, link_a, X_a, link_b, X_b, pitch):
    """The screw row of a loop-closing screw joint (travel along z_b = pitch turns of x_b from
    x_a about z_b / 2 pi): CONSTRAINT_SCREW, its parameters a row of drives."""
    _add_rows(cols, names, name, (("distance", _Z),), link_a, X_a, link_b, X_b)
    cols["kind"][-1] = CONSTRAINT_SCREW
    cols["axis_a"][-1] = X_a[:3, 0]
    _drive_last_row(cols, [np.array([pitch / (2.0 * np.pi), *X_b[:3, 0], 0.0, 0.0, 0.0])])


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


def _connection_frames(model, asm, X_link_part, element):
    """(link_a, X_a, link_b, X_b) of a Connection: marker I's, and marker J's or the frame
    fixed in B0 (link -1) when it has no marker J."""
    link_a, X_a = _marker_frame(model, asm, X_link_part, element.marker_i)
    if element.marker_j is None:
        X_b = np.eye(4)
        X_b[:3, :3], X_b[:3, 3] = element.rotation_j, element.position_j
        return link_a, X_a, -1, X_b
    return (link_a, X_a, *_marker_frame(model, asm, X_link_part, element.marker_j))


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
