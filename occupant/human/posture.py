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
    torso_angle_deg = 25.0       # H-point -> lower-neck joint line, from vertical, + rearward
    h_point = [0.0, 0.0, 0.0]    # m in B0; or, instead, a seat track the H-point slides on:
    seat_track = {rear = [-0.12, 0.0, 0.0], front = [0.12, 0.0, 0.0]}
    [[targets.point]]
    body = "left_lower_arm"      # a body of the model
    point = "hand"               # hand, heel, ball, origin; or offset = [x, y, z] (link frame)
    position = [0.5, 0.18, 0.4]  # m in B0; or some of x = .., y = .., z = .. (e.g. z alone:
                                 # the point on a floor, free to slide on it)

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
"""
import math
import pathlib

import numpy as np
from scipy.optimize import least_squares

from occupant.dynamics import body_poses, point_jacobian
from occupant.human.errors import DummyFileError
from occupant.human.loader import read_toml
from occupant.spatial.rotation import quat_exp, quat_log
from occupant.shipped import shipped_dir

POSTURE_DIR = shipped_dir("dummies") / "postures"
TOP_KEYS = ("kind", "name", "description", "root", "angles", "targets")
ROOT_KEYS = ("position", "rotation_deg")
TARGET_KEYS = ("torso_angle_deg", "h_point", "seat_track", "point")
TRACK_KEYS = ("rear", "front")
POINT_KEYS = ("body", "point", "offset", "position", "x", "y", "z")
NAMED_POINTS = ("hand", "heel", "ball", "origin")
REG_WEIGHT = 1e-3   # m per rad: pull of the file's angles against the targets in the IK
ROOT_PULL = 1e-6    # pull of the root position towards the file's, only to settle free directions
IK_FREE_RANGE = math.radians(15.0)  # rad, see _Layout.bounds [E]
SPINE_JOINTS = ("lumbar_pelvis", "thorax_lumbar", "lower_neck", "upper_neck")
TORSO_LENGTH = 0.5  # m, scale of the torso-angle residual (about the H-point -> C7 length)


def available_postures():
    return sorted(p.stem for p in POSTURE_DIR.glob("*.toml"))


def load_posture(name_or_path):
    """The posture file as a dict (validated for its own structure; angles are checked against a
    model by ``position``)."""
    p = pathlib.Path(name_or_path)
    if not (p.suffix == ".toml" or len(p.parts) > 1):
        p = POSTURE_DIR / f"{name_or_path}.toml"
        if not p.is_file():
            raise DummyFileError(name_or_path, "", "unknown posture",
                                 ", ".join(available_postures()) + ", or a path to a .toml file")
    elif not p.is_file():
        raise DummyFileError(p, "", "no such file", "an existing posture .toml file")
    data = read_toml(p)
    _check_keys(p, data, TOP_KEYS, "")
    if data.get("kind") != "posture":
        raise DummyFileError(p, "kind", f"expected 'posture', got {data.get('kind')!r}", "posture")
    for key, allowed in (("root", ROOT_KEYS), ("targets", TARGET_KEYS)):
        if key in data:
            if not isinstance(data[key], dict):
                raise DummyFileError(p, key, "expected a table", f"[{key}]")
            _check_keys(p, data[key], allowed, key)
    for k, pt in enumerate(data.get("targets", {}).get("point", [])):
        _check_keys(p, pt, POINT_KEYS, f"targets.point[{k}]")
    track = data.get("targets", {}).get("seat_track")
    if isinstance(track, dict):
        _check_keys(p, track, TRACK_KEYS, "targets.seat_track")
    data["_file"] = str(p)
    return data


def _check_keys(file, table, allowed, path):
    for key in table:
        if key in allowed:
            continue
        where = f"{path}.{key}" if path else key
        if f"{key}_deg" in allowed:
            raise DummyFileError(file, where, "angles are given in degrees with the _deg suffix",
                                 f"{key}_deg")
        raise DummyFileError(file, where, "unknown key", ", ".join(allowed))


def _vector(file, value, n, where, what="numbers"):
    ok = (isinstance(value, list) and len(value) == n and all(
        isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in value))
    if not ok:
        raise DummyFileError(file, where, f"expected a list of {n} finite {what}, got {value!r}",
                             f"[{', '.join(['x'] * n)}]")
    return np.array(value, float)


def _number(file, value, where):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise DummyFileError(file, where, f"expected a finite number, got {value!r}", "a number")
    return float(value)


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
            el = model.dof_forces
            for e in range(len(el.link)):
                if el.link[e] == lk and kind != "free":
                    lo[el.component[e]] = el.lower[e]
                    hi[el.component[e]] = el.upper[e]
            self.joints[name] = dict(kind=kind, link=lk, qi=int(t.qidx[lk]), vi=int(t.vidx[lk]),
                                     lower=lo, upper=hi)
        self.angle_joints = [n for n, j in self.joints.items() if j["kind"] != "free"]
        self.root = next(n for n, j in self.joints.items() if j["kind"] == "free")

    # parameter vector x: root position (3), root rotation vector (3), then per angle joint
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

    def bounds(self, x0):
        """IK bounds: the range of motion; spine and neck joints (SPINE_JOINTS) and a component
        without a range may move at most IK_FREE_RANGE either side of the posture's angle [E],
        within their range, so that the solver bends the spine no more than a seated or standing
        dummy does."""
        lo, hi = [np.full(6, -np.inf)], [np.full(6, np.inf)]
        k = 6
        for n in self.angle_joints:
            lo_j, hi_j = self.joints[n]["lower"].copy(), self.joints[n]["upper"].copy()
            free = ~np.isfinite(lo_j) & ~np.isfinite(hi_j)
            if n in SPINE_JOINTS:
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
    names = {"hand": "hand_shell", "heel": "foot_shell", "ball": "foot_shell"}
    geo_name = f"{side}_{names[point]}" if side else names[point]
    geo = next((g for g in model.geometries if g.name == geo_name), None)
    mk = model.marker(geo.marker) if geo is not None else None
    if geo is None or model.body_names[model.marker_body[mk]] != body:
        raise DummyFileError(file, where, f"body '{body}' has no '{point}' point",
                             "hand on the lower arms, heel and ball on the feet, origin on any body")
    c, R, a = model.marker_p[mk], model.marker_R[mk], geo.semi_axes
    if point == "hand":
        return c.copy()
    s = 1.0 / math.sqrt(2.0)
    # ellipsoid surface point half-way between its rearmost (heel) or foremost (ball) and lowest
    return c + R @ np.array([(-a[0] if point == "heel" else a[0]) * s, 0.0, -a[2] * s])


def _angles(model, layout, posture, file):
    """Nominal x from the file's root and angles, validated against the model."""
    x = np.zeros(layout.x_size())
    root = posture.get("root", {})
    if "position" in root:
        x[:3] = _vector(file, root["position"], 3, "root.position")
    if "rotation_deg" in root:
        x[3:6] = np.radians(_vector(file, root["rotation_deg"], 3, "root.rotation_deg"))
    offsets, k = {}, 6
    for n in layout.angle_joints:
        offsets[n] = k
        k += 3 if layout.joints[n]["kind"] == "spherical" else 1
    angles = posture.get("angles", {})
    if not isinstance(angles, dict):
        raise DummyFileError(file, "angles", "expected a table", "[angles]")
    for key, value in angles.items():
        where = f"angles.{key}"
        if not key.endswith("_deg"):
            raise DummyFileError(file, where, "angles are given in degrees with the _deg suffix",
                                 f"{key}_deg")
        jname = key[:-4]
        if jname == layout.root:
            raise DummyFileError(file, where, "the root is placed by [root] position and "
                                 "rotation_deg", "[root]")
        targets = [jname] if jname in layout.joints else [
            s + jname for s in ("left_", "right_") if s + jname in layout.joints]
        if not targets:
            raise DummyFileError(file, where, f"unknown joint '{jname}' in model '{model.name}'",
                                 ", ".join(layout.angle_joints) + " (or a side-less name for both)")
        for tname in targets:
            j = layout.joints[tname]
            if j["kind"] == "spherical":
                val = np.radians(_vector(file, value, 3, where, "angles in deg (rotation vector)"))
                if tname.startswith("right_") and tname != jname:
                    val = val * np.array([-1.0, 1.0, -1.0])  # mirror: rotation x and z change sign
            else:
                val = np.array([math.radians(_number(file, value, where))])
            bad = np.nonzero((val < j["lower"] - 1e-9) | (val > j["upper"] + 1e-9))[0]
            if len(bad):
                c = int(bad[0])
                comp = f" component {'xyz'[c]}" if j["kind"] == "spherical" else ""
                raise DummyFileError(
                    file, where, f"{tname}{comp} = {math.degrees(val[c]):.4g} deg is outside the "
                    f"joint's range of motion", f"{math.degrees(j['lower'][c]):.4g} to "
                    f"{math.degrees(j['upper'][c]):.4g} deg")
            x[offsets[tname]:offsets[tname] + len(val)] = val
    return x


def _targets(model, posture, extra, file):
    tg = dict(posture.get("targets", {}))
    if extra:
        for key in extra:
            if key not in TARGET_KEYS:
                raise DummyFileError("targets", key, "unknown target", ", ".join(TARGET_KEYS))
        points = list(tg.get("point", [])) + list(extra.get("point", []))
        tg.update(extra)
        tg["point"] = points
    out = {"points": []}
    if "torso_angle_deg" in tg:
        out["torso_angle"] = math.radians(_number(file, tg["torso_angle_deg"], "targets.torso_angle_deg"))
    if "h_point" in tg and "seat_track" in tg:
        raise DummyFileError(file, "targets", "give h_point or seat_track, not both",
                             "one of h_point, seat_track")
    if "h_point" in tg:
        out["h_point"] = _vector(file, tg["h_point"], 3, "targets.h_point")
    if "seat_track" in tg:
        out["seat_track"] = _seat_track(file, tg["seat_track"])
    for k, pt in enumerate(tg.get("point", [])):
        where = f"targets.point[{k}]"
        body = pt.get("body")
        if body not in model.body_names:
            raise DummyFileError(file, f"{where}.body", f"unknown body {body!r}", ", ".join(model.body_names))
        if "offset" in pt and "point" in pt:
            raise DummyFileError(file, where, "give point or offset, not both", "one of point, offset")
        if "offset" in pt:
            local = _vector(file, pt["offset"], 3, f"{where}.offset")
        else:
            name = pt.get("point", "origin")
            if name not in NAMED_POINTS:
                raise DummyFileError(file, f"{where}.point", f"unknown point {name!r}", ", ".join(NAMED_POINTS))
            local = _named_point(model, body, name, file, f"{where}.point")
        target, mask = _point_target(file, pt, where)
        out["points"].append((model.body(body), local, target, mask))
    return out


def _seat_track(file, track):
    """(rear, unit direction, front) of a seat track table; its x extent must be positive."""
    if not isinstance(track, dict):
        raise DummyFileError(file, "targets.seat_track", "expected a table", "{rear = [x, y, z], front = [x, y, z]}")
    _check_keys(file, track, TRACK_KEYS, "targets.seat_track")
    rear, front = (_vector(file, track.get(k), 3, f"targets.seat_track.{k}") for k in TRACK_KEYS)
    if front[0] - rear[0] <= 0.0:
        raise DummyFileError(file, "targets.seat_track", f"front x {front[0]:g} m is not ahead of "
                             f"rear x {rear[0]:g} m", "a track running forward (+x) from rear to front")
    d = front - rear
    return rear, d / np.linalg.norm(d), front


def _point_target(file, pt, where):
    """Target position and the mask of its constrained components: all three for ``position``,
    else those of ``x``, ``y``, ``z`` that are given."""
    parts = [c for c in "xyz" if c in pt]
    if "position" in pt and parts:
        raise DummyFileError(file, where, "give position or x/y/z components, not both",
                             "position = [x, y, z], or some of x, y, z")
    if "position" in pt:
        return _vector(file, pt["position"], 3, f"{where}.position"), np.ones(3, bool)
    if not parts:
        raise DummyFileError(file, where, "no target position", "position = [x, y, z], or some of x, y, z")
    target, mask = np.zeros(3), np.zeros(3, bool)
    for i, c in enumerate("xyz"):
        if c in pt:
            target[i], mask[i] = _number(file, pt[c], f"{where}.{c}"), True
    return target, mask


def point_position(model, q, body, local, data=None):
    """Position in B0 of a link-frame point of a body."""
    X = body_poses(model, data or model.make_data(), q)[model.body(body) if isinstance(body, str) else body]
    return X[:3, :3] @ local + X[:3, 3]


def torso_angle(model, q, data=None):
    """Angle (rad) from vertical of the H-point -> lower-neck-joint line in the x-z plane of B0,
    positive when the torso leans rearward (towards -x)."""
    X = body_poses(model, data or model.make_data(), q)
    d = X[model.body("neck"), :3, 3] - X[model.body("pelvis"), :3, 3]
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


def position(model, posture_or_path, targets=None, return_info=False):
    """Configuration vector q (nq,) of ``model`` in a posture: a name in dummies/postures/, a path,
    or an already loaded posture dict. Targets in the file (or ``targets``, a dict with the same
    keys as the [targets] table, added to them) are reached by inverse kinematics; with
    ``return_info`` also a dict of the residual errors (m, rad) and the solver's status."""
    posture = posture_or_path if isinstance(posture_or_path, dict) else load_posture(posture_or_path)
    file = posture.get("_file", "posture")
    layout = _Layout(model)
    x0 = _angles(model, layout, posture, file)
    tg = _targets(model, posture, targets, file)
    if not tg["points"] and not {"torso_angle", "h_point", "seat_track"} & tg.keys():
        q = layout.to_q(x0)
        return (q, {"max_point_error": 0.0, "status": "angles only"}) if return_info else q
    data = model.make_data()
    ipelvis, ineck = model.body("pelvis"), model.body("neck")
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
        if "torso_angle" in tg:
            d = X[ineck, :3, 3] - X[ipelvis, :3, 3]
            r.append([TORSO_LENGTH * (math.atan2(-d[0], d[2]) - tg["torso_angle"])])
        for b, local, target, mask in tg["points"]:
            r.append((X[b, :3, :3] @ local + X[b, :3, 3] - target)[mask])
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
        if "torso_angle" in tg:
            X = body_poses(model, data, q)
            d = X[ineck, :3, 3] - X[ipelvis, :3, 3]
            Jd = (point_jacobian(model, data, q, ineck) - point_jacobian(model, data, q, ipelvis)) @ M
            rows.append(TORSO_LENGTH * (-d[2] * Jd[0] + d[0] * Jd[2])[None, :] / (d[0] ** 2 + d[2] ** 2))
        for b, local, _, mask in tg["points"]:
            rows.append((point_jacobian(model, data, q, b, local) @ M)[mask])
        rows.append(np.diag(reg))
        return np.vstack(rows)

    lo, hi = layout.bounds(x0)
    if track is not None:  # the H-point (root origin) stays between the track's ends
        lo[0], hi[0] = track[0][0], track[2][0]
        x0[0] = min(max(x0[0], lo[0]), hi[0])
    sol = least_squares(residual, np.clip(x0, lo, hi), jac=jacobian, bounds=(lo, hi),
                        xtol=1e-12, ftol=1e-12, gtol=1e-10, max_nfev=400)
    q = layout.to_q(sol.x)
    n_rows = (3 * (("h_point" in tg) + (track is not None)) + ("torso_angle" in tg)
              + sum(int(p[3].sum()) for p in tg["points"]))
    errs = sol.fun[:n_rows]
    info = {"status": sol.message, "nfev": sol.nfev,
            "max_point_error": float(np.max(np.abs(errs))) if len(errs) else 0.0,
            "h_point": point_position(model, q, ipelvis, np.zeros(3), data)}
    if "torso_angle" in tg:
        info["torso_angle_error"] = torso_angle(model, q, data) - tg["torso_angle"]
    return (q, info) if return_info else q
