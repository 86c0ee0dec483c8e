"""Validated body description: the dict read from a dummy/human TOML file (design.md section 6)
checked key by key and turned into SI segment records, with left/right segments mirrored.

A description is a list of ``Segment`` records in parent-before-child order; ``assemble`` turns it
into a modeling Assembly. The parametric builder produces the same records, so both paths share
one validator and one assembler.
"""
from dataclasses import dataclass, field
import math

import numpy as np

from occupant.constants import G0
from occupant.human.errors import DummyFileError
from occupant.io.toml_files import FileChecker
from occupant.spatial import rot_x, rot_y, rot_z

CERVICALE = "cervicale"  # a parametric human's marker at C7's spinous process on the upper torso:
                         # the top of its torso line (posture.torso_angle)
DEFAULT_FRICTION_SPEED = 0.1  # rad/s, speed over which Coulomb friction is smoothed

TOP_KEYS = {"kind": str, "name": str, "description": str, "total_mass": float, "stature": float,
            "sitting_height": float, "segment": list}
SEGMENT_KEYS = {"name": str, "mirror": bool, "parent": str, "mass": float, "com": list,
                "principal_inertia": list, "principal_axes_deg": list, "joint": dict,
                "ellipsoid": list, "marker": list}
JOINT_KEYS = {"name": str, "kind": str, "location": list, "axis": list, "resistance": list}
RESIST_KEYS = {"dof": str, "stiffness": float, "table_deg": list, "damping": float,
               "friction": float, "friction_g": float, "friction_speed_deg": float,
               "reference_deg": float, "lower_deg": float, "upper_deg": float,
               "stop_stiffness": float, "stop_damping": float, "absorption": float,
               "recovers": bool, "table": list, "lower": float, "upper": float}
# a prismatic joint's resistance is given in m and N: these keys replace the *_deg ones
LINEAR_KEYS = ("table", "lower", "upper")
ANGULAR_ONLY = ("table_deg", "lower_deg", "upper_deg", "reference_deg", "friction_speed_deg",
                "friction_g")
ELLIPSOID_KEYS = {"name": str, "center": list, "semi_axes": list, "orientation_deg": list}
MARKER_KEYS = {"name": str, "position": list, "orientation_deg": list}
ROOT_KINDS = ("free", "fixed")
CHILD_KINDS = ("spherical", "revolute", "prismatic", "universal", "fixed")
AXIS_KINDS = ("revolute", "prismatic")  # joints that take an axis
SPHERICAL_DOFS = ("x", "y", "z")
# mirror image in the sagittal (x-z) plane: positions y -> -y; rotation vectors (pseudovectors)
# x -> -x, z -> -z
MIRROR = np.diag([1.0, -1.0, 1.0])
MIRROR_ROT = np.array([-1.0, 1.0, -1.0])


@dataclass
class Resistance:
    dof: int                    # 0, 1, 2: rotation-vector component of a spherical joint; 0 otherwise
    stiffness: float = 0.0      # N m/rad
    table: object = None        # (k, 2) rad, N m
    damping: float = 0.0        # N m s/rad
    friction: float = 0.0       # N m
    friction_g: float = 0.0     # friction given as an n-g limb setting (resolved by assemble)
    friction_speed: float = DEFAULT_FRICTION_SPEED  # rad/s
    reference: float = 0.0      # rad
    lower: float = -math.inf    # rad
    upper: float = math.inf     # rad
    stop_stiffness: float = 0.0  # N m/rad^2
    stop_damping: float = 0.0   # N m s/rad^2
    absorption: float = 0.0     # energy-absorption factor of the spring's hysteresis
    recovers: bool = False      # the hysteretic spring unloads to the origin (no permanent set)


@dataclass
class EllipsoidSpec:
    name: str
    center: np.ndarray          # (3,) m in the segment frame
    semi_axes: np.ndarray       # (3,) m
    R_segment_ellipsoid: np.ndarray = field(default_factory=lambda: np.eye(3))


@dataclass
class MarkerSpec:
    """A landmark on a segment (``[[segment.marker]]``): its origin (m) in the segment frame and,
    where the file gives ``orientation_deg``, its axes (a sensor mounted at an angle reads along
    them, occupant.sensors); None: the segment's axes."""
    position: np.ndarray                  # (3,) m in the segment frame
    R_segment_marker: np.ndarray | None = None


@dataclass
class Segment:
    name: str
    parent: str | None
    mass: float                 # kg
    com: np.ndarray             # (3,) m in the segment frame
    inertia: np.ndarray         # (3, 3) kg m^2 about the com, segment axes
    joint_name: str
    joint_kind: str
    location: np.ndarray        # (3,) m, joint centre in the parent frame (base frame for the root)
    axis: np.ndarray | None = None  # (3,) unit axis of a revolute/prismatic joint, parent = child frame at q = 0
    resistances: list = field(default_factory=list)
    ellipsoids: list = field(default_factory=list)
    markers: dict = field(default_factory=dict)   # name -> MarkerSpec, a landmark on the segment


def rotation_xyz(angles):
    """R = Rx(a) Ry(b) Rz(c) from three angles in rad. The elementary rotations run as Python
    (``py_func``, the same doubles here): no compiled code calls them in a run, and compiling
    them for a dummy's few dozen frames took 0.7 s of a first run's load."""
    a, b, c = angles
    return rot_x.py_func(a) @ rot_y.py_func(b) @ rot_z.py_func(c)


def check_inertia(checker, principal, path):
    """Principal moments positive and obeying the triangle inequality."""
    p = np.sort(principal)
    if p[0] <= 0:
        checker.fail(path, f"inertia not positive-definite: principal moments {principal.tolist()} "
                           "kg m^2", "three positive principal moments")
    if p[0] + p[1] < p[2] * (1 - 1e-9):
        checker.fail(path, f"principal moments {principal.tolist()} kg m^2 violate the triangle "
                           "inequality (I1 + I2 >= I3 for any rigid body)",
                     "moments with each no larger than the sum of the other two")


def parse_description(data, file, kinds=("dummy", "human")):
    """Validate a parsed dummy/human file and return (header dict, [Segment, ...]) with every
    mirrored segment expanded into left_ and right_ segments, parents before children."""
    c = FileChecker(file, DummyFileError)
    if not isinstance(data, dict):
        c.fail("", "not a table of keys")
    kind = c.kind(data, kinds)
    c.keys(data, sorted(TOP_KEYS), "")
    name = c.string(data, "name", "", required=True)
    header = {"kind": kind, "name": name, "description": data.get("description", "")}
    for key in ("total_mass", "stature", "sitting_height"):
        header[key] = c.number(data, key, "", positive=True)
    raw = data.get("segment")
    if not isinstance(raw, list) or not raw or not all(isinstance(s, dict) for s in raw):
        c.fail("segment", "missing or not an array of tables", "[[segment]] tables")

    # first pass: names, mirror flags, parents
    names, mirrored = [], {}
    for i, s in enumerate(raw):
        p = f"segment[{i}]"
        c.keys(s, sorted(SEGMENT_KEYS), p)
        n = c.string(s, "name", p, required=True)
        if n in mirrored:
            c.fail(f"{p}.name", f"segment '{n}' is defined twice", "unique segment names")
        m = c.boolean(s, "mirror", p, default=False)
        names.append(n)
        mirrored[n] = m
    roots = [i for i, s in enumerate(raw) if "parent" not in s]
    if len(roots) != 1:
        c.fail("segment", f"{len(roots)} segments without a parent "
                          f"({', '.join(names[i] for i in roots) or 'none'})",
               "exactly one root segment (the pelvis) without 'parent'")
    for i, s in enumerate(raw):
        if "parent" in s:
            par = c.string(s, "parent", f"segment[{i}]", required=True)
            if par not in mirrored:
                c.fail(f"segment[{i}].parent", f"unknown segment '{par}'", ", ".join(names))
            if par == names[i]:
                c.fail(f"segment[{i}].parent", f"segment '{par}' cannot be its own parent",
                       ", ".join(n for n in names if n != par))
            if mirrored[par] and not mirrored[names[i]]:
                c.fail(f"segment[{i}].parent", f"'{names[i]}' is not mirrored but its parent '{par}' "
                       "is, so its side is undefined", "mirror = true, or a parent on the midline")
    # order parents before children, rejecting cycles
    order, placed = [], set()
    pending = list(range(len(raw)))
    while pending:
        progress = False
        for i in list(pending):
            par = raw[i].get("parent")
            if par is None or par in placed:
                order.append(i)
                placed.add(names[i])
                pending.remove(i)
                progress = True
        if not progress:
            c.fail(f"segment[{pending[0]}].parent", "the parents form a loop: "
                   + " -> ".join(names[i] for i in pending), "a tree rooted at one segment")

    segments = []
    for i in order:
        segs = _parse_segment(c, raw[i], f"segment[{i}]", root=(i == roots[0]))
        if mirrored[names[i]]:
            segments.extend(mirror_segment(segs, mirrored))
        else:
            segments.append(segs)
    return header, segments


def _parse_segment(c, s, p, root):
    name = s["name"]
    mass = c.number(s, "mass", p, required=True)
    if mass <= 0:
        c.fail(f"{p}.mass", f"segment '{name}' mass must be > 0 kg, got {mass!r}", "a positive mass in kg")
    com = c.vector(s, "com", p, required=True)
    principal = c.vector(s, "principal_inertia", p, required=True)
    check_inertia(c, principal, f"{p}.principal_inertia")
    axes = c.vector(s, "principal_axes_deg", p, default=(0.0, 0.0, 0.0))
    R = rotation_xyz(np.radians(axes))
    inertia = R @ np.diag(principal) @ R.T

    if "joint" not in s:
        c.fail(f"{p}.joint", f"segment '{name}' has no joint", "a [segment.joint] table with name, "
               "kind and location")
    j = c.table(s, "joint", p, accepted="[segment.joint]")
    jp = f"{p}.joint"
    c.keys(j, sorted(JOINT_KEYS), jp)
    jname = c.string(j, "name", jp, required=True)
    kinds = ROOT_KINDS if root else CHILD_KINDS
    jkind = c.string(j, "kind", jp, required=True, choices=kinds)
    location = c.vector(j, "location", jp, required=True)
    axis = None
    if jkind in AXIS_KINDS:
        axis = c.vector(j, "axis", jp, required=True)
        nrm = np.linalg.norm(axis)
        if nrm < 1e-9:
            c.fail(f"{jp}.axis", "the axis has zero length", "a non-zero direction")
        axis = axis / nrm
    elif "axis" in j:
        c.fail(f"{jp}.axis", f"a {jkind} joint takes no axis", "axis only for revolute and prismatic joints")
    resist = []
    seen = set()
    for k, r in enumerate(c.tables(j, "resistance", jp)):
        rp = f"{jp}.resistance[{k}]"
        res = _parse_resistance(c, r, rp, jkind)
        if res.dof in seen:
            c.fail(f"{rp}.dof", "this coordinate already has a resistance", "one entry per dof")
        seen.add(res.dof)
        resist.append(res)
    ells = []
    for k, e in enumerate(c.tables(s, "ellipsoid", p)):
        ep = f"{p}.ellipsoid[{k}]"
        c.keys(e, sorted(ELLIPSOID_KEYS), ep)
        ename = c.string(e, "name", ep, required=True)
        center = c.vector(e, "center", ep, required=True)
        semi = c.vector(e, "semi_axes", ep, required=True)
        if np.any(semi <= 0):
            c.fail(f"{ep}.semi_axes", f"ellipsoid '{ename}' has a non-positive semi-axis "
                   f"{semi.tolist()}", "three positive lengths in m")
        ells.append(EllipsoidSpec(ename, center, semi, _axes(c, e, ep, default=(0.0, 0.0, 0.0))))
    markers = {}
    for k, m in enumerate(c.tables(s, "marker", p)):
        mp = f"{p}.marker[{k}]"
        c.keys(m, sorted(MARKER_KEYS), mp)
        mname = c.string(m, "name", mp, required=True)
        if mname in markers:
            c.fail(f"{mp}.name", f"marker '{mname}' is defined twice", "unique marker names")
        markers[mname] = MarkerSpec(c.vector(m, "position", mp, required=True), _axes(c, m, mp))
    return Segment(name=name, parent=s.get("parent"), mass=mass, com=com, inertia=inertia,
                   joint_name=jname, joint_kind=jkind, location=location, axis=axis,
                   resistances=resist, ellipsoids=ells, markers=markers)


def _axes(c, table, path, default=None):
    """The rotation segment <- axes of an ellipsoid's or a marker's ``orientation_deg`` (x-y-z
    angles in degrees, ``rotation_xyz``); absent, that of ``default`` angles, or None."""
    angles = c.vector(table, "orientation_deg", path, default=default)
    return None if angles is None else rotation_xyz(np.radians(angles))


def _parse_resistance(c, r, rp, jkind):
    c.keys(r, sorted(RESIST_KEYS), rp)
    if jkind == "spherical":
        dof = SPHERICAL_DOFS.index(c.string(r, "dof", rp, required=True, choices=SPHERICAL_DOFS))
    elif jkind in AXIS_KINDS:
        if "dof" in r:
            c.fail(f"{rp}.dof", f"a {jkind} joint has one coordinate; leave dof out", "no dof key")
        dof = 0
    else:
        c.fail(rp, f"a {jkind} joint takes no resistance",
               "resistances on spherical, revolute or prismatic joints")
    linear = jkind == "prismatic"
    for key in (ANGULAR_ONLY if linear else LINEAR_KEYS):
        if key in r and linear:
            c.fail(f"{rp}.{key}", f"a prismatic joint's resistance does not take '{key}'",
                   "table, lower, upper in m and N")
        if key in r:
            c.fail(f"{rp}.{key}", "angles are given in degrees with the _deg suffix", f"{key}_deg")
    out = Resistance(dof=dof)
    ab = c.number(r, "absorption", rp, nonneg=True)
    if ab is not None:
        if ab >= 1.0:
            c.fail(f"{rp}.absorption", f"{ab!r} is not a fraction of the loading work below 1",
                   "0 <= absorption < 1")
        out.absorption = ab
    if c.boolean(r, "recovers", rp, default=False):
        if not ab:
            c.fail(f"{rp}.recovers", "unloading to the origin is a hysteresis law; give absorption",
                   "recovers with 0 < absorption < 1")
        out.recovers = True
    for key in ("stiffness", "damping", "friction", "friction_g", "stop_stiffness", "stop_damping"):
        v = c.number(r, key, rp, nonneg=True)
        if v is not None:
            setattr(out, key, v)
    if "friction" in r and "friction_g" in r:
        c.fail(f"{rp}.friction_g", "give friction (N m) or friction_g (limb setting), not both",
               "one of friction, friction_g")
    fs = c.number(r, "friction_speed_deg", rp, positive=True)
    if fs is not None:
        out.friction_speed = math.radians(fs)
    ref = c.number(r, "reference_deg", rp)
    if ref is not None:
        out.reference = math.radians(ref)
    sfx, unit = ("", 1.0) if linear else ("_deg", math.pi / 180.0)
    lo, hi = c.number(r, f"lower{sfx}", rp), c.number(r, f"upper{sfx}", rp)
    if lo is not None:
        out.lower = lo * unit
    if hi is not None:
        out.upper = hi * unit
    if lo is not None and hi is not None and lo >= hi:
        c.fail(f"{rp}.lower{sfx}", f"joint limits reversed: lower{sfx} {lo} >= upper{sfx} {hi}",
               f"lower{sfx} < upper{sfx}")
    key = f"table{sfx}"
    rows = "[[m, N], ...] with increasing deflections" if linear else \
        "[[deg, N m], ...] with increasing angles"
    if key in r:
        t = r[key]
        ok = (isinstance(t, list) and len(t) >= 2 and all(
            isinstance(row, list) and len(row) == 2 and all(
                isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in row)
            for row in t))
        if not ok:
            c.fail(f"{rp}.{key}", "expected >= 2 rows of " + ("[deflection_m, force_N]" if linear
                                                              else "[angle_deg, moment_Nm]"), rows)
        a = np.array(t, float)
        if np.any(np.diff(a[:, 0]) <= 0):
            c.fail(f"{rp}.{key}", "the first column must increase from row to row", rows)
        a[:, 0] = a[:, 0] * unit
        out.table = a
    return out


def mirror_segment(seg, mirrored):
    """The left_ and right_ copies of a segment given once (design.md section 6)."""
    out = []
    for side in ("left", "right"):
        s = Segment(**{k: getattr(seg, k) for k in seg.__dataclass_fields__})
        s.name = f"{side}_{seg.name}"
        s.joint_name = f"{side}_{seg.joint_name}"
        if seg.parent is not None and mirrored.get(seg.parent):
            s.parent = f"{side}_{seg.parent}"
        s.ellipsoids = [EllipsoidSpec(f"{side}_{e.name}", e.center.copy(), e.semi_axes.copy(),
                                      e.R_segment_ellipsoid.copy()) for e in seg.ellipsoids]
        s.resistances = [Resistance(**vars(r)) for r in seg.resistances]
        s.markers = {f"{side}_{k}": (MarkerSpec(MIRROR @ m.position, None if m.R_segment_marker is None
                                                else MIRROR @ m.R_segment_marker @ MIRROR)
                                     if side == "right" else MarkerSpec(m.position.copy(), m.R_segment_marker))
                     for k, m in seg.markers.items()}
        if side == "right":
            s.com = MIRROR @ seg.com
            s.location = MIRROR @ seg.location
            s.inertia = MIRROR @ seg.inertia @ MIRROR
            if seg.axis is not None:  # a rotation axis is a pseudovector, a slide axis a vector
                s.axis = (MIRROR @ seg.axis if seg.joint_kind == "prismatic"
                          else MIRROR_ROT * seg.axis)
            for e in s.ellipsoids:
                e.center = MIRROR @ e.center
                e.R_segment_ellipsoid = MIRROR @ e.R_segment_ellipsoid @ MIRROR
            if seg.joint_kind == "spherical":
                for r in s.resistances:
                    if MIRROR_ROT[r.dof] < 0:
                        r.lower, r.upper = -r.upper, -r.lower
                        r.reference = -r.reference
                        if r.table is not None:
                            r.table = -r.table[::-1].copy()
        out.append(s)
    return out
