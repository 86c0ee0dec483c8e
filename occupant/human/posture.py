"""Initial postures and positioning (issue 4 section 4): a posture file gives joint angles, and
optionally targets (H-point location, torso angle, body points such as the hands on the steering
wheel rim or the heels on the floor) that a small inverse-kinematics step reaches.

Posture file (TOML, ``kind = "posture"``, in ``dummies/postures/``)::

    kind = "posture"
    name = "driver_seated"
    [root]                       # the pelvis (free joint): H-point position in B0 and rotation
    position = [0.0, 0.0, 0.0]   # m
    rotation_deg = [0.0, 0.0, 0.0]  # rotation vector of the pelvis frame in B0, deg
    [angles]                     # <joint>_deg: a number for revolute joints, three
    hip_deg = [0.0, -85.0, 0.0]  # rotation-vector components for spherical ones; a joint given
    right_knee_deg = 95.0        # without side applies to both, the right one mirrored
    [targets]
    torso_angle_deg = 25.0       # H-point -> torso top line (the lower neck joint, a human's
                                 # cervicale: torso_top), from vertical, + rearward
    human_thorax = "umtri_drivers"  # a parametric human only (dummies ignore it): its thorax
                                 # line (T12/L1 -> C7/T1) at UMTRI's drivers' mean for its body
                                 # (occupant.human.seated_posture; H30 from the right heel's target),
                                 # the trunk's two joints at one fraction of their flexion
                                 # ranges; "file_angles": no such target
    human_head = "umtri_drivers"    # likewise its head line (tragion -> eye, from the horizontal)
                                 # at UMTRI's drivers' mean, reached with the neck's joints
    h_point = [0.0, 0.0, 0.0]    # m in B0; or, instead, a seat track the H-point slides on:
    seat_track = {rear = [-0.12, 0.0, 0.0], front = [0.12, 0.0, 0.0]}
    [[targets.point]]
    body = "left_lower_arm"      # a body of the model
    point = "hand"               # hand, heel, heel_bottom, ball, origin; or offset = [x, y, z]
                                 # (link frame); heel_bottom: the heel's lowest point at the
                                 # solved pose (its ellipsoid's support point along -z), so
                                 # z = the floor's height seats every foot's heel on the floor
    position = [0.5, 0.18, 0.4]  # m in B0; or some of x = .., y = .., z = .. (e.g. z alone:
                                 # the point on a floor, free to slide on it); or, alone or
                                 # with some of x, y, z, a plane the point lies on (the ball of
                                 # a foot on a sloping toe board), m in B0:
    plane = {point = [0.9, 0.0, -0.2], normal = [-0.7071, 0.0, 0.7071]}

A seat track makes one posture file fit every occupant size, as the seat of a real test does:
the H-point lies on the segment from ``rear`` to ``front`` (its x is bounded by theirs) and
slides along it so that the point targets (hands on the wheel, foot on the pedal) are met with
the joint angles nearest the file's.

Angles follow the loader's joint conventions (dummies/README.md): spherical joints are rotation
vectors about the child axes, y positive = flexion of neck and torso, negative at hips and
shoulders; elbows and knees flex positive. Angles are checked against the joint's range of
motion (the stops of its resistance elements).

Inverse kinematics: ``scipy.optimize.least_squares`` (trust-region reflective) on the root
position, the root and spherical rotation vectors and the revolute angles, bounded by the ranges
of motion, with the analytic Jacobian from ``occupant.dynamics.point_jacobian`` (the rotation-
vector columns mapped through the right Jacobian of SO(3)) and a light pull towards the file's
angles so that redundant joints stay where the posture puts them.

The body is symmetric about its mid-sagittal plane, and so is a posture unless its targets ask
otherwise: the IK first solves with the out-of-plane dofs of the midline chain (root rotation
about x and z, the x and z rotation-vector components of the side-less spherical joints: lumbar,
thorax, neck) held at the file's angles, so the limbs alone reach asymmetric targets such as the
right foot on a pedal. Only if the targets are then not reached to TARGET_TOLERANCE are those dofs
freed (with the same light pull) and the solve repeated from there; ``info["sagittal"]`` says which.
Without this the pull alone let the spine bend sideways to reach the pedal (issue 10 section 1:
the 5F driver's head 146 mm right of the seat centreline).
"""
import math
import re

import numpy as np
from scipy.optimize import least_squares

from occupant.dynamics import body_jacobian, body_poses, point_jacobian
from occupant.human.description import CERVICALE
from occupant.human.errors import DummyFileError
from occupant.human.seated_posture import line_angle, line_ends, predicted_angle, vertical_angle
from occupant.io.toml_files import FileChecker, read_toml, resolve_shipped, shipped_names
from occupant.spatial.rotation import quat_exp, quat_log

POSTURE_FOLDER = "dummies/postures"
TOP_KEYS = ("kind", "name", "description", "root", "angles", "targets")
ROOT_KEYS = ("position", "rotation_deg")
TARGET_KEYS = ("torso_angle_deg", "h_point", "seat_track", "point", "human_thorax", "human_head")
# a human's thorax (human_thorax) or head (human_head) line: UMTRI's drivers'
# (occupant.human.seated_posture), or none: the joints pulled to the file's angles
HUMAN_LINE_SOURCES = ("umtri_drivers", "file_angles")
HUMAN_LINES = {"human_thorax": ("thorax", "thorax_angle"), "human_head": ("head", "head_angle")}
TRACK_KEYS = ("rear", "front")
POINT_KEYS = ("body", "point", "offset", "position", "x", "y", "z", "plane")
PLANE_KEYS = ("point", "normal")
NAMED_POINTS = ("hand", "heel", "heel_bottom", "ball", "origin")
REG_WEIGHT = 1e-3   # m per rad: pull of the file's angles against the targets in the IK
ROOT_PULL = 1e-6    # pull of the root position towards the file's, only to settle free directions
IK_FREE_RANGE = math.radians(15.0)  # rad, see _Layout.bounds [E]
SPINE_JOINTS = ("lumbar_pelvis", "thorax_lumbar", "lower_neck", "upper_neck")
TRUNK_JOINTS = SPINE_JOINTS[:2]
TORSO_LENGTH = 0.5  # m, scale of the torso-angle residual (about the H-point -> C7 length)
TARGET_TOLERANCE = 1e-3  # m, a target residual counts as reached below this (the torso angle
                         # below TARGET_TOLERANCE / TORSO_LENGTH = 0.11 deg) [E]


def available_postures():
    return shipped_names(POSTURE_FOLDER)


def load_posture(name_or_path):
    """The posture file as a dict (validated for its own structure; angles are checked against a
    model by ``position``)."""
    p = resolve_shipped(name_or_path, POSTURE_FOLDER, "posture", error=DummyFileError)
    data = read_toml(p, DummyFileError)
    c = FileChecker(p, DummyFileError)
    c.kind(data, ("posture",))
    c.keys(data, TOP_KEYS, "")
    c.keys(c.table(data, "root", ""), ROOT_KEYS, "root")
    targets = c.table(data, "targets", "")
    c.keys(targets, TARGET_KEYS, "targets")
    for k, pt in enumerate(c.tables(targets, "point", "targets")):
        c.keys(pt, POINT_KEYS, f"targets.point[{k}]")
    if isinstance(targets.get("seat_track"), dict):
        c.keys(targets["seat_track"], TRACK_KEYS, "targets.seat_track")
    data["_file"] = str(p)
    return data


class _Layout:
    """Where each joint's coordinates live in q, and its range of motion per component."""

    def __init__(self, model):
        self.model = model
        t = model.tree
        self.joints = {}
        for j, (name, kind) in enumerate(zip(model.joint_names, model.joint_kind)):
            lk = model.joint_links[j][-1] if model.joint_links[j] else None
            if lk is None or kind == "fixed":
                continue
            n = {"free": 7, "spherical": 3, "revolute": 1}.get(kind)
            if n is None:
                continue
            lo, hi = np.full(3 if kind != "revolute" else 1, -np.inf), np.full(3 if kind != "revolute" else 1, np.inf)
            el = model.joint_resistance
            for e in range(len(el.link)):
                if el.link[e] == lk and kind != "free":
                    lo[el.component[e]] = el.lower[e]
                    hi[el.component[e]] = el.upper[e]
            self.joints[name] = dict(kind=kind, link=lk, qi=int(t.qidx[lk]), vi=int(t.vidx[lk]),
                                     lower=lo, upper=hi)
        self.angle_joints = [n for n, j in self.joints.items() if j["kind"] != "free"]
        self.root = next(n for n, j in self.joints.items() if j["kind"] == "free")

    # parameter vector x: root position (3), root rotation vector (3), then per angle joint
    def offset(self, name):
        """Index in x of joint ``name``'s first coordinate."""
        k = 6
        for n in self.angle_joints:
            if n == name:
                return k
            k += 3 if self.joints[n]["kind"] == "spherical" else 1
        raise KeyError(name)

    def x_size(self):
        return 6 + sum(3 if self.joints[n]["kind"] == "spherical" else 1 for n in self.angle_joints)

    def to_q(self, x):
        q = self.model.neutral_configuration().copy()
        r = self.joints[self.root]
        q[r["qi"]:r["qi"] + 3] = x[:3]
        q[r["qi"] + 3:r["qi"] + 7] = quat_exp(x[3:6])
        k = 6
        for n in self.angle_joints:
            j = self.joints[n]
            if j["kind"] == "spherical":
                q[j["qi"]:j["qi"] + 4] = quat_exp(x[k:k + 3])
                k += 3
            else:
                q[j["qi"]] = x[k]
                k += 1
        return q

    def from_q(self, q):
        r = self.joints[self.root]
        x = [q[r["qi"]:r["qi"] + 3], quat_log(q[r["qi"] + 3:r["qi"] + 7])]
        for n in self.angle_joints:
            j = self.joints[n]
            x.append(quat_log(q[j["qi"]:j["qi"] + 4]) if j["kind"] == "spherical" else q[j["qi"]:j["qi"] + 1])
        return np.concatenate(x)

    def out_of_plane(self):
        """(nx,) bool: the components of x that move the midline chain out of its sagittal plane:
        root rotation about x (roll) and z (yaw), and the x and z rotation-vector components of
        the spherical joints without a side (lumbar, thorax, neck)."""
        mask = np.zeros(self.x_size(), bool)
        mask[[3, 5]] = True
        k = 6
        for n in self.angle_joints:
            kind = self.joints[n]["kind"]
            if kind == "spherical" and not n.startswith(("left_", "right_")):
                mask[[k, k + 2]] = True
            k += 3 if kind == "spherical" else 1
        return mask

    def bounds(self, x0, trunk_in_range=False):
        """IK bounds: the range of motion; spine and neck joints (SPINE_JOINTS) and a component
        without a range may move at most IK_FREE_RANGE either side of the posture's angle [E],
        within their range, so that the solver bends the spine no more than a seated or standing
        dummy does; with ``trunk_in_range`` (a human's thorax target) the trunk's joints
        (TRUNK_JOINTS) are bounded by their ranges alone."""
        lo, hi = [np.full(6, -np.inf)], [np.full(6, np.inf)]
        k = 6
        for n in self.angle_joints:
            lo_j, hi_j = self.joints[n]["lower"].copy(), self.joints[n]["upper"].copy()
            free = ~np.isfinite(lo_j) & ~np.isfinite(hi_j)
            if n in SPINE_JOINTS and not (trunk_in_range and n in TRUNK_JOINTS):
                free[:] = True
            x_j = x0[k:k + len(lo_j)]
            lo_j[free] = np.maximum(lo_j[free], x_j[free] - IK_FREE_RANGE)
            hi_j[free] = np.minimum(hi_j[free], x_j[free] + IK_FREE_RANGE)
            lo.append(lo_j)
            hi.append(hi_j)
            k += len(lo_j)
        return np.concatenate(lo), np.concatenate(hi)

    def v_map(self, x, q):
        """(nv, nx) matrix M with J_x = J_v M: d(v-space motion)/dx at x."""
        m = self.model
        M = np.zeros((m.nv, len(x)))
        r = self.joints[self.root]
        R = _quat_matrix(q[r["qi"] + 3:r["qi"] + 7])
        M[r["vi"]:r["vi"] + 3, 0:3] = R.T        # linear velocity in the link frame
        M[r["vi"] + 3:r["vi"] + 6, 3:6] = right_jacobian(x[3:6])
        k = 6
        for n in self.angle_joints:
            j = self.joints[n]
            if j["kind"] == "spherical":
                M[j["vi"]:j["vi"] + 3, k:k + 3] = right_jacobian(x[k:k + 3])
                k += 3
            else:
                M[j["vi"], k] = 1.0
                k += 1
        return M


def _quat_matrix(qt):
    w, x, y, z = qt
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def right_jacobian(phi):
    """J_r(phi): body angular velocity = J_r(phi) d(phi)/dt for R = exp([phi]) (e.g. Sola et al.,
    "A micro Lie theory for state estimation in robotics", 2018, eq. 143)."""
    th = float(np.linalg.norm(phi))
    K = np.array([[0.0, -phi[2], phi[1]], [phi[2], 0.0, -phi[0]], [-phi[1], phi[0], 0.0]])
    if th < 1e-6:
        return np.eye(3) - 0.5 * K + K @ K / 6.0
    return (np.eye(3) - (1.0 - math.cos(th)) / th ** 2 * K
            + (th - math.sin(th)) / th ** 3 * K @ K)


def _named_point(model, body, point, file, where):
    """Link-frame coordinates of a named point of a body."""
    side = body.split("_", 1)[0] if body.startswith(("left_", "right_")) else ""
    if point == "origin":
        return np.zeros(3)
    # the heel point on the foot's heel where it has one (the Hybrid III's heel and forefoot:
    # dummies/tools/derive_hybrid3.py HEEL_CENTER), else on the foot shell
    names = {"hand": ("hand_shell",), "heel": ("heel", "foot_shell"),
             "heel_bottom": ("heel", "foot_shell"), "ball": ("foot_shell",)}
    prefix = f"{side}_" if side else ""
    geo = next((g for n in names[point] for g in model.geometries if g.name == prefix + n), None)
    mk = model.marker(geo.marker) if geo is not None else None
    if geo is None or model.body_names[model.marker_body[mk]] != body:
        raise DummyFileError(file, where, f"body '{body}' has no '{point}' point",
                             "hand on the lower arms, heel and ball on the feet, origin on any body")
    c, R, a = model.marker_p[mk], model.marker_R[mk], geo.semi_axes
    if point == "hand":
        return c.copy()
    if point == "heel_bottom":
        return _LowestPoint(np.array(c, float), np.array(R, float), np.array(a, float))
    s = 1.0 / math.sqrt(2.0)
    # ellipsoid surface point half-way between its rearmost (heel) or foremost (ball) and lowest
    return c + R @ np.array([(-a[0] if point == "heel" else a[0]) * s, 0.0, -a[2] * s])


class _LowestPoint:
    """A body's ellipsoid (centre ``c``, axes ``R`` and semi-axes ``a`` in the link frame) whose
    named point is its lowest in B0: the support point along -z, which moves on the surface as
    the body turns. Called with the body's rotation (B0 from link) it gives that point in the
    link frame: with Q = R_body R, e = Q^T (-z), the point is c + R a^2 e / sqrt(e . a^2 e)
    (the support point of an ellipsoid)."""

    def __init__(self, c, R, a):
        self.c, self.R, self.a2 = c, R, a * a

    def __call__(self, R_body):
        e = -(R_body @ self.R)[2]
        return self.c + self.R @ (self.a2 * e) / math.sqrt(e @ (self.a2 * e))

    def jacobian(self, R_body, J):
        """(3, nv) Jacobian of the point in B0 from the body's (6, nv) ``J`` (body_jacobian at
        the point): the material point's velocity plus the point's slide on the surface,
        Q S Q^T [d]x omega with d = -z, S = (A2 - A2 e (A2 e)^T / (e . A2 e)) / sqrt(e . A2 e)
        the derivative of the support point in e (de = Q^T (d x omega) as Q turns by omega)."""
        Q = R_body @ self.R
        e = -Q[2]
        g = self.a2 * e
        h = e @ g
        S = (np.diag(self.a2) - np.outer(g, g) / h) / math.sqrt(h)
        dx = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 0.0]])  # [d]x, d = -z
        return J[3:] + Q @ S @ Q.T @ dx @ J[:3]


def _local(local, R_body):
    """Link-frame coordinates of a target's point: fixed, or a _LowestPoint at this rotation."""
    return local(R_body) if callable(local) else local


def _angles(model, layout, posture, c):
    """Nominal x from the file's root and angles, validated against the model (checker ``c``)."""
    x = np.zeros(layout.x_size())
    root = c.table(posture, "root", "")
    x[:3] = c.vector(root, "position", "root", default=(0.0, 0.0, 0.0))
    x[3:6] = np.radians(c.vector(root, "rotation_deg", "root", default=(0.0, 0.0, 0.0)))
    offsets, k = {}, 6
    for n in layout.angle_joints:
        offsets[n] = k
        k += 3 if layout.joints[n]["kind"] == "spherical" else 1
    angles = c.table(posture, "angles", "")
    for key in angles:
        where = f"angles.{key}"
        if not key.endswith("_deg"):
            c.fail(where, "angles are given in degrees with the _deg suffix", f"{key}_deg")
        jname = key[:-4]
        if jname == layout.root:
            c.fail(where, "the root is placed by [root] position and rotation_deg", "[root]")
        targets = [jname] if jname in layout.joints else [
            s + jname for s in ("left_", "right_") if s + jname in layout.joints]
        if not targets:
            c.fail(where, f"unknown joint '{jname}' in model '{model.name}'",
                   ", ".join(layout.angle_joints) + " (or a side-less name for both)")
        for tname in targets:
            j = layout.joints[tname]
            if j["kind"] == "spherical":
                val = np.radians(c.vector(angles, key, "angles"))
                if tname.startswith("right_") and tname != jname:
                    val = val * np.array([-1.0, 1.0, -1.0])  # mirror: rotation x and z change sign
            else:
                val = np.array([math.radians(c.number(angles, key, "angles"))])
            bad = np.nonzero((val < j["lower"] - 1e-9) | (val > j["upper"] + 1e-9))[0]
            if len(bad):
                i = int(bad[0])
                comp = f" component {'xyz'[i]}" if j["kind"] == "spherical" else ""
                c.fail(where, f"{tname}{comp} = {math.degrees(val[i]):.4g} deg is outside the "
                       f"joint's range of motion", f"{math.degrees(j['lower'][i]):.4g} to "
                       f"{math.degrees(j['upper'][i]):.4g} deg")
            x[offsets[tname]:offsets[tname] + len(val)] = val
    return x


def _targets(model, posture, extra, c):
    tg = dict(c.table(posture, "targets", ""))
    if extra:
        FileChecker("position() targets argument", DummyFileError).keys(extra, TARGET_KEYS, "")
        # an added point target replaces the file's for the same body's named point (one
        # occupant's own heel height in a posture shared by every size)
        points = _merged_points(tg.get("point", []), extra.get("point", []))
        tg.update(extra)
        tg["point"] = points
    out = {"points": []}
    if "torso_angle_deg" in tg:
        out["torso_angle"] = math.radians(c.number(tg, "torso_angle_deg", "targets"))
    if "h_point" in tg and "seat_track" in tg:
        c.fail("targets", "give h_point or seat_track, not both", "one of h_point, seat_track")
    if "h_point" in tg:
        out["h_point"] = c.vector(tg, "h_point", "targets")
    if "seat_track" in tg:
        out["seat_track"] = _seat_track(c, tg)
    for key, (line, name) in HUMAN_LINES.items():
        if key in tg:
            source = c.string(tg, key, "targets", choices=HUMAN_LINE_SOURCES, what=key)
            if source == "umtri_drivers" and CERVICALE in model.index["marker"]:   # a parametric human
                out[name] = _human_line_angle(model, tg, c, key, line)
    for k, pt in enumerate(c.tables(tg, "point", "targets")):
        where = f"targets.point[{k}]"
        c.keys(pt, POINT_KEYS, where)
        body = pt.get("body")
        if body not in model.body_names:
            c.fail(f"{where}.body", f"unknown body {body!r}", ", ".join(model.body_names))
        if "offset" in pt and "point" in pt:
            c.fail(where, "give point or offset, not both", "one of point, offset")
        if "offset" in pt:
            local = c.vector(pt, "offset", where)
        else:
            name = c.string(pt, "point", where, choices=NAMED_POINTS, what="point") or "origin"
            local = _named_point(model, body, name, c.file, f"{where}.point")
        rows, target = _point_target(c, pt, where)
        out["points"].append((model.body(body), local, rows, target))
    return out


def _merged_points(own, added):
    """The point targets of a posture's own ``own`` with those ``added`` by its caller: an added
    one replaces the posture's for the same body's named point (one occupant's own heel height
    in a posture shared by every size); the added ones come last."""
    named = {_slot(p) for p in added if "point" in p}
    return [p for p in own if "point" not in p or _slot(p) not in named] + list(added)


def _caller_key(err, posture, targets, angles, given_in):
    """The key path in the caller's file (``given_in``: its FileChecker and the paths of its
    targets and angles tables) of the error ``err`` a posture check raised, when the value came
    from the caller's ``targets`` or ``angles``, not the posture file; else None."""
    _, targets_path, angles_path = given_in
    m = re.fullmatch(r"(angles|targets)(?:\.(\w+))?(?:\[(\d+)\])?(.*)", err.path or "")
    if m is None or m[2] is None:
        return None
    table, key, index, rest = m[1], m[2], m[3], m[4]
    if table == "angles":
        return f"{angles_path}.{key}{rest}" if key in (angles or {}) else None
    if key not in (targets or {}):
        return None
    if key != "point" or index is None:
        return f"{targets_path}.{key}{'' if index is None else f'[{index}]'}{rest}"
    added = targets["point"]
    first = len(_merged_points(_own_table(posture, "targets").get("point", []), added)) - len(added)
    k = int(index) - first
    return f"{targets_path}.point[{k}]{rest}" if k >= 0 else None


def _own_table(table, key):
    """``table[key]`` when it is a table, else {} (the posture's own tables, read leniently)."""
    value = table.get(key)
    return value if isinstance(value, dict) else {}


def _slot(pt):
    """(body, point) a point target holds: heel and heel_bottom are one slot (the heel), so a
    target for either replaces one for the other."""
    return pt.get("body"), "heel" if pt.get("point") == "heel_bottom" else pt.get("point")


def _trunk_share(layout):
    """(nx,) row s with s @ x = 0 when the trunk's joints (TRUNK_JOINTS) flex by the same
    fraction of their flexion ranges: their passive curves are one chain's, each at its share of
    the chain's angle (data/joint_passive.toml), so there they rest with equal moments, as the
    neck's two joints do at neck_levelling's split."""
    s = np.zeros(layout.x_size())
    (a, b) = TRUNK_JOINTS
    for n, sign in ((a, 1.0), (b, -1.0)):
        s[layout.offset(n) + 1] = sign / layout.joints[n]["upper"][1]
    return s


def _human_line_angle(model, tg, c, key, line):
    """The target (rad, from the vertical: seated_posture.vertical_angle) of ``line`` asked by
    target ``key``: UMTRI's drivers' mean for the human's sex, stature and mass, H30 the
    H-point's height (``h_point`` or the seat track's rear end) above the right heel's target,
    the accelerator heel point's stand-in (the heel's lowest point on the floor covering, as
    SAE J1100's accelerator heel point, with point = "heel_bottom")."""
    heel = next((p["z"] for p in tg.get("point", []) if p.get("body") == "right_foot"
                 and p.get("point") in ("heel", "heel_bottom") and "z" in p), None)
    if heel is None:
        c.fail(f"targets.{key}", "needs the right heel's target with z (its height gives "
               "H30)", "a [[targets.point]] with body = \"right_foot\", point = \"heel_bottom\" (or "
               "\"heel\") and z")
    hz = tg["h_point"][2] if "h_point" in tg else tg["seat_track"]["rear"][2]
    header = model.source.header
    return vertical_angle(line, predicted_angle(line, header["sex"], header["stature"],
                                                header["total_mass"], hz - heel)[0])


def _seat_track(c, tg):
    """(rear, unit direction, front) of the targets' seat track; its x extent must be positive."""
    where = "targets.seat_track"
    track = c.table(tg, "seat_track", "targets", accepted="{rear = [x, y, z], front = [x, y, z]}")
    c.keys(track, TRACK_KEYS, where)
    rear, front = (c.vector(track, k, where, required=True) for k in TRACK_KEYS)
    if front[0] - rear[0] <= 0.0:
        c.fail(where, f"front x {front[0]:g} m is not ahead of rear x {rear[0]:g} m",
               "a track running forward (+x) from rear to front")
    d = front - rear
    return rear, d / np.linalg.norm(d), front


def _point_target(c, pt, where):
    """(A, b): the target as linear conditions A p = b on the point p (m, B0): all three
    components for ``position``, else those of ``x``, ``y``, ``z`` that are given, and one row
    n . p = n . p0 for a ``plane`` through p0 with normal n."""
    parts = [k for k in "xyz" if k in pt]
    accepted = "position = [x, y, z], or some of x, y, z and/or plane = {point, normal}"
    if "position" in pt and (parts or "plane" in pt):
        c.fail(where, "give position or x/y/z components and a plane, not both", accepted)
    if "position" in pt:
        return np.eye(3), c.vector(pt, "position", where)
    if not parts and "plane" not in pt:
        c.fail(where, "no target position", accepted)
    rows = [np.eye(3)[i] for i, k in enumerate("xyz") if k in pt]
    b = [c.number(pt, k, where) for k in parts]
    if "plane" in pt:
        w = f"{where}.plane"
        plane = c.table(pt, "plane", where, accepted="{point = [x, y, z], normal = [x, y, z]}")
        c.keys(plane, PLANE_KEYS, w)
        p0, n = (c.vector(plane, k, w, required=True) for k in PLANE_KEYS)
        if not np.linalg.norm(n) > 0.0:
            c.fail(f"{w}.normal", "a zero vector", "a non-zero normal [x, y, z]")
        n = n / np.linalg.norm(n)
        rows.append(n)
        b.append(float(n @ p0))
    return np.array(rows), np.array(b)


def point_position(model, q, body, local, data=None):
    """Position in B0 of a link-frame point of a body (or of a named point that moves on it, such
    as heel_bottom's lowest point, as _named_point gives it)."""
    X = body_poses(model, data or model.make_data(), q)[model.body(body) if isinstance(body, str) else body]
    return X[:3, :3] @ _local(local, X[:3, :3]) + X[:3, 3]


def torso_top(model):
    """(body, link-frame point) of the torso line's top: a parametric human's cervicale (its
    marker, C7's spinous process), else the lower neck joint, the neck's origin (a dummy's)."""
    if CERVICALE in model.index["marker"]:
        k = model.marker(CERVICALE)
        return model.marker_body[k], np.asarray(model.marker_p[k], float)
    return model.body("neck"), np.zeros(3)


def torso_angle(model, q, data=None):
    """Angle (rad) from vertical of the H-point -> torso top (torso_top) line in the x-z plane
    of B0, positive when the torso leans rearward (towards -x)."""
    X = body_poses(model, data or model.make_data(), q)
    b, local = torso_top(model)
    d = X[b, :3, :3] @ local + X[b, :3, 3] - X[model.body("pelvis"), :3, 3]
    return math.atan2(-d[0], d[2])


def joint_angles(model, q):
    """{joint: angle in deg (revolute) or rotation vector in deg (spherical)} of a configuration;
    the inverse of the [angles] table."""
    layout = _Layout(model)
    out = {}
    for n in layout.angle_joints:
        j = layout.joints[n]
        if j["kind"] == "spherical":
            out[n] = np.degrees(quat_log(q[j["qi"]:j["qi"] + 4]))
        else:
            out[n] = math.degrees(q[j["qi"]])
    return out


def position(model, posture_or_path, targets=None, return_info=False, angles=None, given_in=None):
    """Configuration vector q (nq,) of ``model`` in a posture: a name in dummies/postures/, a path,
    or an already loaded posture dict. Targets in the file (or ``targets``, a dict with the same
    keys as the [targets] table, added to them; a point target there replaces the file's for the
    same body and named point) are reached by inverse kinematics; ``angles`` (a dict with the
    keys of the [angles] table) replaces the file's angles of the same keys; with
    ``return_info`` also a dict of the residual errors (m, rad), the solver's status and
    ``sagittal`` (True when the targets were reached with the midline in its plane).
    ``given_in``: (FileChecker, targets key path, angles key path) of the file ``targets`` and
    ``angles`` come from (a scenario's occupant.posture_targets): a bad value of theirs is that
    file's error at that key, not the posture file's."""
    posture = posture_or_path if isinstance(posture_or_path, dict) else load_posture(posture_or_path)
    original = posture
    if angles:
        posture = {**posture, "angles": {**posture.get("angles", {}), **angles}}
    c = FileChecker(posture.get("_file", "posture"), DummyFileError)
    layout = _Layout(model)
    try:
        x0 = _angles(model, layout, posture, c)
        tg = _targets(model, posture, targets, c)
    except DummyFileError as err:   # a value the caller gave: its file's error at its key
        where = None if given_in is None else _caller_key(err, original, targets, angles, given_in)
        if where is None:
            raise
        given_in[0].fail(where, err.problem, err.accepted)
    if not tg["points"] and not {"torso_angle", "thorax_angle", "head_angle", "h_point",
                                 "seat_track"} & tg.keys():
        q = layout.to_q(x0)
        return (q, {"max_point_error": 0.0, "status": "angles only", "sagittal": True}) if return_info else q
    data = model.make_data()
    ipelvis = model.body("pelvis")
    lines = []   # (target angle, lower end, upper end): the lines' angles from vertical
    if "torso_angle" in tg:
        lines.append((tg["torso_angle"], (ipelvis, np.zeros(3)), torso_top(model)))
    for line, name in HUMAN_LINES.values():
        if name in tg:
            lines.append((tg[name], *((model.body(b), p) for b, p in line_ends(model, line))))
    share = _trunk_share(layout) if "thorax_angle" in tg else None
    reg = np.full(len(x0), REG_WEIGHT)
    reg[:3] = ROOT_PULL  # the targets place the body; the pull only settles what they leave free
    track = tg.get("seat_track")
    if track is not None:
        off_track = np.eye(3) - np.outer(track[1], track[1])  # projector across the track

    def residual(x):
        q = layout.to_q(x)
        X = body_poses(model, data, q)
        r = []
        if "h_point" in tg:
            r.append(X[ipelvis, :3, 3] - tg["h_point"])
        if track is not None:
            r.append(off_track @ (X[ipelvis, :3, 3] - track[0]))
        for angle, (a, pa), (b, pb) in lines:
            d = X[b, :3, :3] @ pb + X[b, :3, 3] - X[a, :3, :3] @ pa - X[a, :3, 3]
            r.append([TORSO_LENGTH * (math.atan2(-d[0], d[2]) - angle)])
        for b, local, A, target in tg["points"]:
            r.append(A @ (X[b, :3, :3] @ _local(local, X[b, :3, :3]) + X[b, :3, 3]) - target)
        if share is not None:
            r.append([TORSO_LENGTH * (share @ x)])
        r.append(reg * (x - x0))
        return np.concatenate(r)

    def jacobian(x):
        q = layout.to_q(x)
        M = layout.v_map(x, q)
        rows = []
        if "h_point" in tg:
            rows.append(point_jacobian(model, data, q, ipelvis) @ M)
        if track is not None:
            rows.append(off_track @ point_jacobian(model, data, q, ipelvis) @ M)
        X = body_poses(model, data, q)
        for _, (a, pa), (b, pb) in lines:
            d = X[b, :3, :3] @ pb + X[b, :3, 3] - X[a, :3, :3] @ pa - X[a, :3, 3]
            Jd = (point_jacobian(model, data, q, b, pb) - point_jacobian(model, data, q, a, pa)) @ M
            rows.append(TORSO_LENGTH * (-d[2] * Jd[0] + d[0] * Jd[2])[None, :] / (d[0] ** 2 + d[2] ** 2))
        for b, local, A, _ in tg["points"]:
            if callable(local):
                R_b = X[b, :3, :3]
                J = local.jacobian(R_b, body_jacobian(model, data, q, b, local(R_b)))
            else:
                J = point_jacobian(model, data, q, b, local)
            rows.append(A @ J @ M)
        if share is not None:
            rows.append(TORSO_LENGTH * share[None, :])
        rows.append(np.diag(reg))
        return np.vstack(rows)

    lo, hi = layout.bounds(x0, trunk_in_range="thorax_angle" in tg)
    if track is not None:  # the H-point (root origin) stays between the track's ends
        lo[0], hi[0] = track[0][0], track[2][0]
        x0[0] = min(max(x0[0], lo[0]), hi[0])
    n_rows = (3 * (("h_point" in tg) + (track is not None)) + len(lines) + (share is not None)
              + sum(len(p[2]) for p in tg["points"]))

    def solve(x_start, free):
        """least_squares over the components ``free`` of x, the others held at x_start."""
        def full(xf):
            x = x_start.copy()
            x[free] = xf
            return x
        sol = least_squares(lambda xf: residual(full(xf)), x_start[free],
                            jac=lambda xf: jacobian(full(xf))[:, free], bounds=(lo[free], hi[free]),
                            xtol=1e-12, ftol=1e-12, gtol=1e-10, max_nfev=400)
        errs = sol.fun[:n_rows]
        return full(sol.x), sol, float(np.max(np.abs(errs))) if len(errs) else 0.0

    in_plane = ~layout.out_of_plane()
    x, sol, err = solve(np.clip(x0, lo, hi), in_plane)
    sagittal = err <= TARGET_TOLERANCE
    if not sagittal:  # the targets ask for a lean or twist: free the midline's out-of-plane dofs
        x, sol, err = solve(x, np.ones(len(x), bool))
    q = layout.to_q(x)
    info = {"status": sol.message, "nfev": sol.nfev, "max_point_error": err, "sagittal": sagittal,
            "h_point": point_position(model, q, ipelvis, np.zeros(3), data)}
    if "torso_angle" in tg:
        info["torso_angle_error"] = torso_angle(model, q, data) - tg["torso_angle"]
    for line, name in HUMAN_LINES.values():
        if name in tg:
            info[f"{name}_error"] = vertical_angle(line, line_angle(model, q, line)) - tg[name]
    return (q, info) if return_info else q
