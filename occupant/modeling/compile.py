"""Compile an Assembly to the frozen runtime Model: regular numbering (seed 004), expansion of
multi-axis joints into primitive links, and flat arrays in link coordinates."""
import numpy as np

from occupant.model.bundle import (
    JointResistanceBlock, SpringDamperBlock, JOINT_RESISTANCE_OUTPUTS, JOINT_RESISTANCE_OUTPUTS_PRISMATIC,
    SPRING_DAMPER_OUTPUTS,
    freeze_block,
)
from occupant.model.joint_types import JointType, LINK_NQ, LINK_NV, SPATIAL_ROWS
from occupant.model.model import Model, ModelError, neutral_q_of_links
from occupant.modeling.airbags import airbag_block
from occupant.modeling.compile_constraints import compile_constraints
from occupant.modeling.compile_contacts import contact_block
from occupant.modeling.belts import belt_block
from occupant.modeling.elements import Joint, Pose
from occupant.modeling.muscles import muscle_block
from occupant.modeling.marker_force_block import marker_force_block
from occupant.modeling.materials import part_mass_properties
from occupant.modeling.virtual_parts import resolve_virtual_parts
from occupant.spatial.rotation import rot_x, rot_y
from occupant.spatial.transforms import homogeneous, invert_homogeneous
from occupant.topology import build_topology

_LINKS_OF_KIND = {
    "revolute": (JointType.REVOLUTE,),
    "prismatic": (JointType.PRISMATIC,),
    "universal": (JointType.REVOLUTE, JointType.REVOLUTE),
    "euler": (JointType.REVOLUTE, JointType.REVOLUTE, JointType.REVOLUTE),
    "spherical": (JointType.SPHERICAL,),
    "free": (JointType.FREE,),
    "fixed": (JointType.FIXED,),
    "floating": (JointType.PRISMATIC,) * 3 + (JointType.REVOLUTE,) * 3,
    "hooke": (JointType.REVOLUTE, JointType.REVOLUTE),
    "cylindrical": (JointType.PRISMATIC, JointType.REVOLUTE),
    "screw": (JointType.PRISMATIC, JointType.REVOLUTE),
    "planar": (JointType.PRISMATIC, JointType.PRISMATIC, JointType.REVOLUTE),
    # bend about the input's x, about the middle frame's y, about the output's x (held equal to
    # the first by a coupler row, compile_constraints), then back to the shaft axes
    "constant_velocity": (JointType.REVOLUTE,) * 3 + (JointType.FIXED,),
}
# link frames of the kinds expanded without MDH axes: the first relative to the joint frame, the
# others relative to the previous link (planar: slide along x, then y, then turn about z)
# (rot_x, rot_y as Python, py_func: compiling them for these two took 0.6 s of a first run)
_TO_X = homogeneous(rot_y.py_func(np.pi / 2), np.zeros(3))
_TO_Y = homogeneous(rot_x.py_func(-np.pi / 2), np.zeros(3))
_LINK_FRAMES = {
    "cylindrical": (np.eye(4), np.eye(4)),
    "screw": (np.eye(4), np.eye(4)),
    "planar": (_TO_X, _TO_Y, invert_homogeneous(_TO_X @ _TO_Y)),
    "constant_velocity": (_TO_X, _TO_Y, invert_homogeneous(_TO_Y), invert_homogeneous(_TO_X)),
}
_DOF_SUFFIX = {
    "spherical": ("wx", "wy", "wz"),
    "free": ("vx", "vy", "vz", "wx", "wy", "wz"),
    "universal": ("1", "2"),
    "euler": ("1", "2", "3"),
    "floating": ("x", "y", "z", "yaw", "pitch", "roll"),
    "hooke": ("1", "2"),
    "cylindrical": ("z", "rz"),
    "screw": ("z", "rz"),
    "planar": ("x", "y", "rz"),
    "constant_velocity": ("rx_in", "ry", "rx_out"),
}


def spatial_inertia(mass, com, I_com):
    """6x6 spatial inertia about the frame origin, (angular, linear) order (RBDA eq. 2.63)."""
    c = np.asarray(com, float)
    cx = np.array([[0, -c[2], c[1]], [c[2], 0, -c[0]], [-c[1], c[0], 0]])
    out = np.zeros((6, 6))
    out[:3, :3] = I_com + mass * (cx @ cx.T)
    out[:3, 3:] = mass * cx
    out[3:, :3] = mass * cx.T
    out[3:, 3:] = mass * np.eye(3)
    return out


def compile_assembly(asm):
    asm.check()
    source, asm = asm, resolve_virtual_parts(asm)
    parts = list(asm.parts)
    if not parts:
        raise ModelError(f"assembly '{asm.name}': no parts to compile")
    topo = build_topology(parts, [(j.name, j.parent, j.child) for j in asm.joints.values()])
    joints = dict(asm.joints)
    if topo.virtual_root_joint:
        root = topo.body_order[0]
        joints[topo.virtual_root_joint] = Joint(topo.virtual_root_joint, "free", None, root, Pose())
    for name, reversed_ in zip(topo.joint_order, topo.joint_reversed):
        if reversed_:
            j = joints[name]
            raise ModelError(f"assembly '{asm.name}': joint '{name}' points towards the base "
                             f"(parent '{j.parent}', child '{j.child}'); swap parent and child")

    # X_link_part: the part frame in the frame of the link that carries it
    X_link_part = {}
    for name in topo.body_order:
        X_link_part[name] = np.eye(4)
    for j in joints.values():
        if j.child_marker is not None and j.name not in topo.cut_joints:
            X_link_part[j.child] = invert_homogeneous(asm.markers[j.child_marker].transform)

    body_names = list(topo.body_order)
    bidx = {n: i for i, n in enumerate(body_names)}
    nb = len(body_names)
    body_parent = np.full(nb, -1)
    body_mass = np.zeros(nb)
    body_com = np.zeros((nb, 3))
    body_inertia = np.zeros((nb, 3, 3))
    body_link = np.zeros(nb, int)
    link = {k: [] for k in ("parent", "jtype", "R_pj", "p_pj", "inertia", "body")}
    joint_names, joint_kind, joint_body, joint_links = [], [], [], []
    dof_names, dof_joint = [], []

    for b, (body, jname) in enumerate(zip(body_names, topo.joint_order)):
        joint = joints[jname]
        mass, com, inertia = part_mass_properties(asm.parts[body], asm.markers, asm.geometries,
                                                  asm.materials)
        if joint.parent is None:
            parent_link, X = -1, np.eye(4)
        else:
            body_parent[b] = bidx[joint.parent]
            parent_link = body_link[bidx[joint.parent]]
            X = X_link_part[joint.parent]
        if joint.parent_marker is not None:
            X = X @ asm.markers[joint.parent_marker].transform
        X = X @ joint.placement.transform
        kinds = _LINKS_OF_KIND[joint.kind]
        frames = _LINK_FRAMES.get(joint.kind)
        first = len(link["parent"])
        for a, jtype in enumerate(kinds):
            if a == 0 and frames is not None:
                X = X @ frames[0]
            if a > 0:
                X = frames[a] if frames is not None else joint.axes[a - 1].transform
                parent_link = len(link["parent"]) - 1
            link["parent"].append(parent_link)
            link["jtype"].append(int(jtype))
            link["R_pj"].append(X[:3, :3])
            link["p_pj"].append(X[:3, 3])
            link["inertia"].append(np.zeros((6, 6)))
            link["body"].append(-1)
        last = len(link["parent"]) - 1
        Xlp = X_link_part[body]
        com_link = Xlp[:3, :3] @ com + Xlp[:3, 3]
        I_link = Xlp[:3, :3] @ inertia @ Xlp[:3, :3].T
        link["inertia"][last] = spatial_inertia(mass, com_link, I_link)
        link["body"][last] = b
        body_link[b] = last
        body_mass[b], body_com[b], body_inertia[b] = mass, com_link, I_link
        joint_names.append(jname)
        joint_kind.append(joint.kind)
        joint_body.append(b)
        joint_links.append(list(range(first, last + 1)))
        nv_joint = sum(LINK_NV[k] for k in kinds)
        if nv_joint == 1:
            dof_names.append(jname)
        elif nv_joint > 1:
            dof_names.extend(f"{jname}_{s}" for s in _DOF_SUFFIX[joint.kind])
        dof_joint.extend([len(joint_names) - 1] * nv_joint)

    nl = len(link["parent"])
    jtypes = np.array(link["jtype"], int)
    qidx, vidx, nvs = np.zeros(nl, int), np.zeros(nl, int), np.zeros(nl, int)
    srows = np.full((nl, 6), -1, int)
    nq = nv = 0
    for i, jt in enumerate(jtypes):
        jt = JointType(jt)
        qidx[i], vidx[i], nvs[i] = nq, nv, LINK_NV[jt]
        srows[i, :LINK_NV[jt]] = SPATIAL_ROWS[jt]
        nq += LINK_NQ[jt]
        nv += LINK_NV[jt]
    tree = (np.array(link["parent"], int), jtypes, qidx, vidx, nvs, np.array(link["R_pj"]).reshape(nl, 3, 3),
            np.array(link["p_pj"]).reshape(nl, 3), np.array(link["inertia"]).reshape(nl, 6, 6), srows)

    # markers and geometry, in link coordinates of their part's link
    marker_names = list(asm.markers)
    marker_body = [bidx[m.part] for m in asm.markers.values()]
    marker_X = [X_link_part[m.part] @ m.transform for m in asm.markers.values()]
    marker_R = np.array([X[:3, :3] for X in marker_X]).reshape(-1, 3, 3)
    marker_p = np.array([X[:3, 3] for X in marker_X]).reshape(-1, 3)

    outputs = _Outputs()
    states = _Outputs()   # the producers' z states, laid out as the outputs are
    joint_resistance = _joint_resistance_block(asm, joint_names, joint_links, jtypes, outputs)
    joint_resistance = freeze_block(JointResistanceBlock, {
        **joint_resistance._asdict(), "z_index": _hysteresis_states(asm, states)})
    marker_index = {n: i for i, n in enumerate(marker_names)}
    springs = _spring_damper_block(asm, marker_index, marker_body, body_link, marker_p, outputs)
    contacts, contact_names = contact_block(asm, marker_index, marker_body, body_link, marker_R, marker_p,
                             outputs, states)
    airbags, airbag_contacts = airbag_block(asm, marker_index, marker_body, body_link, marker_R,
                                            marker_p, outputs, states, tree, bidx)
    muscles = muscle_block(asm, marker_index, marker_body, body_link, marker_R, marker_p,
                           outputs, states)
    belts = belt_block(asm, marker_index, marker_body, body_link, marker_R, marker_p, outputs, states,
                       tree=tree, body_index=bidx)
    marker_forces = marker_force_block(asm, marker_index, marker_body, body_link, marker_R,
                                       marker_p, outputs)
    model = Model(name=asm.name, body_names=body_names, body_parent=body_parent, body_mass=body_mass,
                 body_com=body_com, body_inertia=body_inertia, body_link=body_link,
                 joint_names=joint_names, joint_kind=joint_kind, joint_body=joint_body,
                 joint_links=joint_links, link_body=link["body"], tree=tree, nq=nq, nv=nv,
                 dof_names=dof_names, dof_joint=dof_joint, q_neutral=neutral_q_of_links(jtypes),
                 marker_names=marker_names, marker_body=marker_body, marker_R=marker_R,
                 marker_p=marker_p, geometries=list(asm.geometries.values()),
                 joint_resistance=joint_resistance,
                 joint_resistance_names=list(asm.joint_resistances), spring_dampers=springs,
                 spring_damper_names=list(asm.spring_dampers), contacts=contacts,
                 contact_names=contact_names, output_names=outputs.names,
                 output_units=outputs.units, producer_z_names=states.names, topology=topo,
                 source=source, airbags=airbags, airbag_names=list(asm.airbags),
                 airbag_contact_names=airbag_contacts, muscles=muscles,
                 muscle_names=list(asm.muscles), belts=belts, belt_names=list(asm.belts),
                 marker_forces=marker_forces, marker_force_names=list(asm.marker_forces))
    model.gravity = None if asm.gravity is None else np.array(asm.gravity, float)
    return compile_constraints(model, asm, topo, X_link_part)


class _Outputs:
    """Layout of Data.outputs: each family reserves its rows, named "<element>.<quantity>"."""

    def __init__(self):
        self.names, self.units = [], []

    def reserve(self, elements, quantities):
        start = len(self.names)
        for name in elements:
            for quantity, unit in quantities:
                self.names.append(f"{name}.{quantity}")
                self.units.append(unit)
        return start


def _tables(elements):
    """(table_start, table_len, stacked rows) of the elements' optional tables."""
    start, length, rows = [], [], []
    for e in elements:
        if e.table is None:
            start.append(-1)
            length.append(0)
        else:
            start.append(sum(len(t) for t in rows))
            length.append(len(e.table))
            rows.append(e.table)
    return start, length, (np.concatenate(rows) if rows else np.zeros((0, 2)))


def _joint_resistance_block(asm, joint_names, joint_links, jtypes, outputs):
    jidx = {n: i for i, n in enumerate(joint_names)}
    elements = list(asm.joint_resistances.values())
    cols = {k: [] for k in ("link", "component", "stiffness", "reference", "damping", "friction",
                            "friction_speed", "lower", "upper", "stop_stiffness", "stop_damping")}
    for e in elements:
        links = joint_links[jidx[e.joint]]
        if len(links) > 1:  # universal / euler: one revolute link per axis (a trailing fixed link
            links = [k for k in links if jtypes[k] != int(JointType.FIXED)]   # has none)
            n_coord, lk, comp = len(links), links[min(e.dof, len(links) - 1)], 0
        else:
            lk = links[0]
            n_coord = {int(JointType.SPHERICAL): 3, int(JointType.REVOLUTE): 1,
                       int(JointType.PRISMATIC): 1}.get(int(jtypes[lk]), 0)
            comp = e.dof
        if not 0 <= e.dof < n_coord:
            raise ModelError(f"joint resistance '{e.name}'.dof: joint '{e.joint}' has "
                             f"{n_coord} resisted coordinates, got dof {e.dof}")
        cols["link"].append(lk)
        cols["component"].append(comp)
        for k in list(cols)[2:]:
            cols[k].append(getattr(e, k))
    cols["link"] = np.array(cols["link"], dtype=int)
    cols["component"] = np.array(cols["component"], dtype=int)
    cols["table_start"], cols["table_len"], cols["tables"] = _tables(elements)
    cols["table_start"] = np.array(cols["table_start"], dtype=int)
    cols["table_len"] = np.array(cols["table_len"], dtype=int)
    # (a prismatic coordinate's deflection is in m and its load in N: the sternum's slider was
    # written to results.h5 as rad and N m)
    cols["out_start"] = len(outputs.names)
    for name, lk in zip(asm.joint_resistances, cols["link"]):
        outputs.reserve([name], JOINT_RESISTANCE_OUTPUTS_PRISMATIC if int(jtypes[lk]) == int(JointType.PRISMATIC)
                        else JOINT_RESISTANCE_OUTPUTS)
    cols["absorption"] = np.array([e.absorption for e in elements], dtype=float)
    cols["recovers"] = np.array([e.recovers for e in elements], dtype=int)
    cols["z_index"] = np.full(len(elements), -1, dtype=int)
    return freeze_block(JointResistanceBlock, cols)


def _hysteresis_states(asm, states):
    """z index of each joint resistance with hysteresis (two states: its largest deflection above
    and below the reference), -1 for the others."""
    hyst = [n for n, e in asm.joint_resistances.items() if e.absorption > 0]
    start = states.reserve(hyst, (("max_deflection_above", "rad or m"),
                                  ("max_deflection_below", "rad or m")))
    index = {n: start + 2 * k for k, n in enumerate(hyst)}
    return np.array([index.get(n, -1) for n in asm.joint_resistances], dtype=int)


def _spring_damper_block(asm, marker_index, marker_body, body_link, marker_p, outputs):
    elements = list(asm.spring_dampers.values())
    cols = {k: [] for k in ("link_a", "point_a", "link_b", "point_b", "stiffness", "damping",
                            "free_length")}
    for e in elements:
        for end, marker, fixed in (("a", e.marker_a, None), ("b", e.marker_b, e.point_b)):
            if marker is None:
                cols[f"link_{end}"].append(-1)
                cols[f"point_{end}"].append(fixed)
            else:
                m = marker_index[marker]
                cols[f"link_{end}"].append(body_link[marker_body[m]])
                cols[f"point_{end}"].append(marker_p[m])
        for k in ("stiffness", "damping", "free_length"):
            cols[k].append(getattr(e, k))
    for end in "ab":
        cols[f"link_{end}"] = np.array(cols[f"link_{end}"], dtype=int)
        cols[f"point_{end}"] = np.array(cols[f"point_{end}"], dtype=float).reshape(-1, 3)
    start, length, rows = _tables(elements)
    cols["table_start"] = np.array(start, dtype=int)
    cols["table_len"] = np.array(length, dtype=int)
    cols["tables"] = rows
    cols["out_start"] = outputs.reserve(asm.spring_dampers, SPRING_DAMPER_OUTPUTS)
    return freeze_block(SpringDamperBlock, cols)
