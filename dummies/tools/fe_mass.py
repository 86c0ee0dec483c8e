"""Mass, centre of mass and inertia of a body of an open FE Hybrid III deck (a Radioss .rad
file), summed from its elements and rigid bodies (run: python dummies/tools/fe_mass.py DECK.rad
05f [--segment lower_leg]); prints the figures that dummies/tools/derive_hybrid3.py carries for
the 5F's foot and lower leg (FOOT_05F_MASS, LOWER_LEG_05F_MASS) and checks the 95M's foot and
lower leg (95m: his rigid deck's cards). Not imported by the package; the decks are not in the
repository (OpenRadioss ModelExchange, CC BY-NC 4.0: facts only).

Lumped as Radioss lumps them [the deck's units mm, ms, kg]:
  - a brick: density x volume (the trilinear volume, 2 x 2 x 2 Gauss points, exact for it), an
    eighth to each of its eight node slots (a degenerate brick's repeated node takes its
    repeats' shares);
  - a shell: density x thickness x area, a quarter (a third for /SH3N) to each slot;
  - a truss or a beam: density x area x length, half to each end node (a beam's third node
    orients it: no mass, not in its part's nodes);
  - a general spring (/PROP/SPR_GENE): its mass and rotational inertia, half to each node;
  - a rigid body (/RBODY): its added mass on its main node (at the main node's place); its
    given inertia (zero in the 5F deck; the 95M rigid deck's foot and tibia carry theirs) about
    its centre, in its skew's axes (/SKEW/MOV: x along N1-N2, z = x cross N1-N3, y = z cross x)
    or the deck's, added to the body's tensor.
A body is a set of nodes (its rigid bodies' main and secondary nodes and the nodes of the parts
that move with them); its inertia sums the nodes as point masses, plus the rigid bodies' given
inertia. The general springs' nodal rotational inertia (250 kg mm^2 on 35 of the 5F deck's 36
joint springs alike, whatever the joint: a figure for the solver's time step, not the parts'
matter) is reported, not added.
"""
import argparse
import importlib.util
from pathlib import Path

import numpy as np


def _sibling(name):
    """A module of this folder (dummies/tools is no package), loaded by its path."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_fit_foot = _sibling("fit_foot")
foot_frame, read_cards = _fit_foot.foot_frame, _fit_foot.read_cards   # the foot's frame, the deck's cards

# The 5F's left foot: its rigid body 15000021 H305_RBODY_RG_LEFT_FOOT_INT (main node 15003794,
# 0.57 kg added; secondary nodes: the ankle's visual trusses (part 15000094, with the ankle
# springs' foot node 15004004) and 20 inner nodes of the foot skin), the foot skin (part
# 15000031, bricks) and the shoe over it (part 15000032, bricks) that its inner nodes carry.
# Frame: fit_foot's (about the ankle spring 15005374's leg node 15004034, the knee spring
# 15005372's node 15004033 straight above it).
# The 5F's left lower leg: what moves with her tibia between the knee and the ankle joint
# springs, her three lower-leg rigid bodies 15000015 / 15000016 / 15000017
# H305_RBODY_RG_LEFT_LOWLEG_INT_UP / _M / _LOW (0.7 / 1.29 / 0.6 kg added on main nodes 15003518 /
# 15003520 / 15003987; joined by the tibia load-cell springs, part 15000064, whose nodes they
# carry; their secondary nodes: the tibia bone shells (part 15000029, the rigid bodies' own
# mesh), the inner nodes of the leg skin, the knee's and ankle's visual trusses and the tibia
# nodes of the knee and ankle springs), the leg skin over them (part 15000027, bricks) and the
# bone shells. The knee-side half of the knee springs and the foot-side half of the ankle
# springs stay with the thigh and the foot. Frame: the foot's axes about the knee node.
# The 95M's left foot and lower leg (his rigid deck, RG_Articulated_Hybrid_III_95TH_0000.rad):
# the foot rigid body 15000009 POSIT_left_foot_rb (1.55 kg on main node 15005212, its inertia
# given in the ankle skew 15000004; secondary nodes: the foot shell, part 15000017 LEFT FEET,
# and the ankle's visual beams, part 15000045), and the tibia's rigid bodies 15000016 /
# 15000017 / 15000018 (1.70 / 2.68 / 1.09 kg, inertia in their skews), each about his ankle
# spring 15005178's node 15005211 and knee spring 15005176's node 15005210.
BODIES = {("05f", "foot"): dict(rbody=15000021, parts=(15000031, 15000032), ankle=15004034, knee=15004033),
          ("05f", "lower_leg"): dict(rbody=(15000015, 15000016, 15000017), parts=(15000027, 15000029),
                                     ankle=15004034, knee=15004033, origin="knee"),
          ("95m", "foot"): dict(rbody=15000009, parts=(15000017,), ankle=15005211, knee=15005210),
          ("95m", "lower_leg"): dict(rbody=(15000016, 15000017, 15000018), parts=(15000016,),
                                     ankle=15005211, knee=15005210, origin="knee")}

GAUSS = np.array([-1.0, 1.0]) / np.sqrt(3.0)
HEX = np.array([[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1],
                [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]], dtype=float)


def hex_volume(x):
    """Volume of the trilinear hexahedron with corners x (8, 3), Radioss's node order."""
    v = 0.0
    for a in GAUSS:
        for b in GAUSS:
            for c in GAUSS:
                g = np.array([a, b, c])
                # d N_i / d (xi, eta, zeta) for N_i = prod (1 + s_i g) / 8
                dn = np.empty((8, 3))
                for k in range(3):
                    f = 1.0 + HEX * g
                    f[:, k] = HEX[:, k]
                    dn[:, k] = f.prod(axis=1) / 8.0
                v += np.linalg.det(dn.T @ x)
    return abs(v)


def polygon_area(x):
    """Area of the (planar or nearly) polygon with corners x (n, 3)."""
    c = x.mean(axis=0)
    return 0.5 * sum(np.linalg.norm(np.cross(x[i] - c, x[(i + 1) % len(x)] - c)) for i in range(len(x)))


def field(line, start, end):
    """The fixed-width field line[start:end] as a float (blank: 0)."""
    s = line[start:end].strip()
    return float(s) if s else 0.0


ELEMENTS = ("BRICK", "SHELL", "SH3N", "TRUSS", "BEAM", "SPRING")   # the element cards summed


def element_nodes(kind, line):
    """The node ids of one element card line (a beam's two ends, not its orientation node)."""
    conn = [int(v) for v in line.split()[1:]]
    return conn[:2] if kind == "BEAM" else conn


def ids(lines):
    return [int(v) for line in lines for v in line.split()]


def lumped(cards):
    """(nodes {id: (3,) mm}, nodal mass {id: kg}, nodal rotational inertia {id: kg mm^2},
    part of each element's node {node: set(part ids)})."""
    nodes = {int(l.split()[0]): np.array([float(v) for v in l.split()[1:4]]) for l in cards[("NODE",)]}
    part = {int(k[1]): [int(v) for v in lines[1].split()[:2]] for k, lines in cards.items()
            if k[0] == "PART" and len(k) == 2}
    rho = {int(k[2]): field(lines[1], 0, 20) for k, lines in cards.items() if k[0] == "MAT"}
    props = {int(k[2]): (k[1], lines[1:]) for k, lines in cards.items() if k[0] == "PROP"}
    mass, spin, owner = {}, {}, {}

    def add(n, m, j=0.0, p=None):
        mass[n] = mass.get(n, 0.0) + m
        spin[n] = spin.get(n, 0.0) + j
        if p is not None:
            owner.setdefault(n, set()).add(p)
    for key, lines in cards.items():
        kind = key[0]
        if kind not in ELEMENTS or len(key) < 2:
            continue
        p = int(key[1])
        pid, mid = part[p]
        for line in lines:
            conn = element_nodes(kind, line)
            if kind == "BRICK":
                m = rho[mid] * hex_volume(np.array([nodes[n] for n in conn[:8]]))
                for n in conn[:8]:
                    add(n, m / 8.0, p=p)
            elif kind in ("SHELL", "SH3N"):
                k = 4 if kind == "SHELL" else 3
                m = rho[mid] * field(props[pid][1][2], 20, 40) * polygon_area(np.array([nodes[n] for n in conn[:k]]))
                for n in conn[:k]:
                    add(n, m / k, p=p)
            elif kind in ("TRUSS", "BEAM"):
                area = field(props[pid][1][0 if kind == "TRUSS" else 2], 0, 20)
                m = rho[mid] * area * np.linalg.norm(nodes[conn[0]] - nodes[conn[1]])
                for n in conn[:2]:
                    add(n, m / 2.0, p=p)
            else:
                m, j = field(props[pid][1][0], 0, 20), field(props[pid][1][0], 20, 40)
                for n in conn[:2]:
                    add(n, m / 2.0, j / 2.0, p=p)
    for key, lines in cards.items():
        if key[0] == "RBODY":
            add(int(lines[1][0:10]), field(lines[1], 40, 60))
    return nodes, mass, spin, owner


def group_nodes(cards, gid):
    """The node ids of a /GRNOD group (NODE, PART or GRNOD of groups)."""
    for kind in ("NODE", "PART", "GRNOD"):
        lines = cards.get(("GRNOD", kind, str(gid)))
        if lines is None:
            continue
        members = ids(lines[1:])
        if kind == "NODE":
            return set(members)
        if kind == "GRNOD":
            return set().union(*(group_nodes(cards, g) for g in members))
        return {n for p in members for key in cards if key[0] in ELEMENTS and len(key) > 1
                and int(key[1]) == p for line in cards[key] for n in element_nodes(key[0], line)}
    raise KeyError(gid)


def rbody_nodes(cards, rid):
    """Main and secondary node ids of rigid body ``rid``."""
    line = cards[("RBODY", str(rid))][1]
    return {int(line[0:10])} | group_nodes(cards, int(line[60:70]))


def skew_axes(cards, nodes, sid):
    """(3, 3) rows x, y, z (deck axes) of /SKEW/MOV ``sid``: x along N1-N2, z = x cross N1-N3,
    y = z cross x (its Dir field blank: x first); the deck's axes for 0."""
    if sid == 0:
        return np.eye(3)
    n1, n2, n3 = (int(v) for v in cards[("SKEW", "MOV", str(sid))][1].split()[:3])
    x = nodes[n2] - nodes[n1]
    x /= np.linalg.norm(x)
    z = np.cross(x, nodes[n3] - nodes[n1])
    z /= np.linalg.norm(z)
    return np.vstack([x, np.cross(z, x), z])


def rbody_inertia(cards, nodes, rid):
    """Rigid body ``rid``'s given inertia tensor about its centre (kg mm^2, deck axes): its
    JXX JYY JZZ / JXY JYZ JXZ card lines in its skew's axes, JXY... taken as the tensor's
    off-diagonal terms (0 in every rigid body of the 5F and 95M decks)."""
    lines = cards[("RBODY", str(rid))]
    jxx, jyy, jzz = (field(lines[2], 20 * i, 20 * i + 20) for i in range(3))
    jxy, jyz, jxz = (field(lines[3], 20 * i, 20 * i + 20) for i in range(3))
    local = np.array([[jxx, jxy, jxz], [jxy, jyy, jyz], [jxz, jyz, jzz]])
    r = skew_axes(cards, nodes, int(lines[1][20:30])).T   # columns: the skew's axes
    return r @ local @ r.T


def body_properties(points, m):
    """(mass kg, centre (3,), inertia tensor (3, 3) about it) of point masses m at points (n, 3)
    (units as given)."""
    total = m.sum()
    c = (m[:, None] * points).sum(axis=0) / total
    r = points - c
    tensor = (m[:, None, None] * ((r * r).sum(axis=1)[:, None, None] * np.eye(3)
                                  - r[:, :, None] * r[:, None, :])).sum(axis=0)
    return total, c, tensor


def foot(cards, kind="05f"):
    """The foot of dummy ``kind``'s deck (BODIES), as body()."""
    return segment(cards, kind, "foot")


def segment(cards, kind, name):
    """Segment ``name`` (foot, lower_leg) of dummy ``kind``'s deck (BODIES), as body()."""
    return body(cards, **BODIES[kind, name])


def body(cards, rbody, parts, ankle, knee, origin="ankle"):
    """A body's figures in fit_foot's foot frame (the line from node ``ankle`` to node ``knee``
    its z) about node ``origin`` ("ankle" or "knee": the foot's frame or the lower leg's) (mm,
    kg, kg mm^2): dict of mass, com, the inertia tensor about the com, its principal moments and
    axes, the rigid bodies' share, and the deck's total mass. The body: rigid body ``rbody``'s
    (an id or a tuple of ids) nodes and those of the ``parts``."""
    rbodies = tuple(rbody) if isinstance(rbody, (tuple, list)) else (rbody,)
    b = dict(parts=tuple(parts), ankle=ankle, knee=knee)
    nodes, mass, spin, owner = lumped(cards)
    rb = set().union(*(rbody_nodes(cards, r) for r in rbodies))
    members = rb | {n for n, ps in owner.items() if ps & set(b["parts"])}
    order = sorted(members)
    a, k = nodes[b["ankle"]], nodes[b["knee"]]
    pts = foot_frame(np.array([nodes[n] for n in order]), a, k)
    if origin == "knee":
        pts = pts - np.array([0.0, 0.0, np.linalg.norm(k - a)])
    m = np.array([mass.get(n, 0.0) for n in order])
    j = np.array([spin.get(n, 0.0) for n in order])
    total, com, tensor = body_properties(pts, m)
    axes_rows = foot_frame(np.vstack([a + np.eye(3), a]), a, k)   # the deck's unit axes, in the frame
    to_frame = (axes_rows[:3] - axes_rows[3]).T
    given = sum(to_frame @ rbody_inertia(cards, nodes, r) @ to_frame.T for r in rbodies)
    tensor = tensor + given
    moments, axes = np.linalg.eigh(tensor)
    shared = {n for n in members if owner.get(n, set()) - set(b["parts"]) - {None}
              and n not in rb}
    by_part = {p: sum(mass[n] for n in members if owner.get(n) == {p}) for p in b["parts"]}
    return dict(mass=total, com=com, tensor=tensor, moments=moments, axes=axes, given=given,
                rbody_mass=sum(mass.get(n, 0.0) for n in rb), nodes=len(members), shared=shared,
                spin=j.sum(), by_part=by_part, deck_total=sum(mass.values()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("deck")
    ap.add_argument("kind", choices=sorted({k for k, _ in BODIES}))
    ap.add_argument("--segment", default="foot", choices=sorted({s for _, s in BODIES}))
    a = ap.parse_args()
    f = segment(read_cards(a.deck), a.kind, a.segment)
    about = dict(BODIES[a.kind, a.segment]).get("origin", "ankle")
    print(f"deck total {f['deck_total']:.3f} kg")
    print(f"{a.segment} {f['mass']:.4f} kg over {f['nodes']} nodes (rigid bodies' nodes {f['rbody_mass']:.4f} kg; "
          f"parts' own nodes {', '.join(f'{p}: {v:.4f}' for p, v in f['by_part'].items())}); "
          f"nodes shared with other parts: {sorted(f['shared'])}")
    print(f"com (mm, foot frame: x forward, y left, z up the knee-ankle line, about the {about}):",
          np.round(f["com"], 2))
    print("inertia about the com (kg m^2):\n", np.round(f["tensor"] * 1e-6, 7))
    print("of which the rigid bodies' given inertia:\n", np.round(f["given"] * 1e-6, 7))
    print("principal (kg m^2):", np.round(f["moments"] * 1e-6, 7), "axes (columns):\n", np.round(f["axes"], 3))
    x = f["axes"][:, np.argmin(f["moments"])]
    print(f"least axis {np.degrees(np.arccos(abs(x[0]))):.1f} deg from x, "
          f"{np.degrees(np.arccos(abs(x[2]))):.1f} deg from z; the springs' nodal rotational "
          f"inertia, not added: {f['spin'] * 1e-6:.2e} kg m^2 on each axis")


if __name__ == "__main__":
    main()
