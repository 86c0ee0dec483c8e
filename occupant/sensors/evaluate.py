"""Evaluate virtual sensors on a simulation's results: ``evaluate(model, results, sensors)``.

Sampling: channels are produced on a uniform grid t0 + k / rate covering the results. When the
results are already sampled on that grid (``simulate(..., output_dt=1 / rate)``; the default
RK4 step 1e-4 s gives 10 kHz), their samples are used as they are. Otherwise q, v, vdot and the
base states are *linearly interpolated* (quaternions renormalised) and, if the results are
coarser than the requested rate, a ``SensorWarning`` says so: interpolation cannot restore what
the coarse sampling lost, and CFC 1000 channels want >= 10 kHz (crash-domain-facts.md 3.1).

At every sample one inverse-dynamics pass (RNEA, Featherstone RBDA 2008, ch. 5) with the base
state (gravity folded in: a_0 = a_B0 - g) gives every link's spatial velocity, acceleration minus
gravity and transmitted joint force at once; the sensors read from those arrays.
"""
from __future__ import annotations

import warnings

import numpy as np

from occupant.channel import Channel
from occupant.dynamics.api import inverse_dynamics_samples
from occupant.model.joint_motion import quaternion_slices
from occupant.sensors.declarations import (
    Accelerometer, AngularAccelerationSensor, AngularVelocitySensor, ArraySensor,
    DisplacementSensor, LoadCell, SensorError, check_code_part,
)

__all__ = ["evaluate", "load_cell_sources", "joint_load_in_base", "dummy_code", "channel_code", "segment_frame",
           "SensorWarning", "UNFILTERED", "DUMMY_CODES"]

#: model-frame (x fwd, y left, z up) -> J211 (x fwd, y right, z down): a half turn about x, the
#: same for forces, moments, accelerations and angular rates (proper rotation)
_TO_J211 = np.array([1.0, -1.0, -1.0])

#: ISO-MME fine location 3 (dummy type) by model name [S: crash-domain-facts.md 3.4]
DUMMY_CODES = {"hybrid3_50m": "H3", "hybrid3_05f": "HF", "hybrid3_95m": "HM"}

#: ISO-MME filter class of raw simulation output: "0" = unfiltered (crash-domain-facts.md 3.4);
#: the injury code filters with the class each criterion prescribes
UNFILTERED = "0"

_AXES = ("X", "Y", "Z")


class SensorWarning(UserWarning):
    """Channels were computed but with a caveat (e.g. results coarser than the channel rate)."""


def dummy_code(model_name: str) -> str:
    """ISO-MME dummy type code for a model name: H3 (Hybrid III 50M), HF (5F), HM (95M); models
    derived from them (``hybrid3_50m_head_neck``) keep their dummy's code; others "00"."""
    for name, code in DUMMY_CODES.items():
        if model_name == name or model_name.startswith(name + "_"):
            return code
    return "00"


def channel_code(test_object, position, sensor, dummy, dimension, direction, filter_class=UNFILTERED):
    """16-character ISO/TS 13499 channel code: test object, position, main location, fine
    locations 1 and 2, dummy type, physical dimension, direction, filter class."""
    return (f"{test_object}{position}{sensor.location}{sensor.fine1}{sensor.fine2}"
            f"{dummy}{dimension}{direction}{filter_class}")


def segment_frame(model, body):
    """(R_link_segment (3, 3), p_link_segment (3,)): the segment frame of the model file in the
    frame of the link that carries the body. They differ where a joint's child marker re-orients
    the link (revolute knees and elbows of the dummies: the link z is the hinge axis). Read from
    the editable assembly ``model.source`` when the model has one; identity otherwise."""
    b = model.body(body) if isinstance(body, str) else int(body)
    src = getattr(model, "source", None)
    if src is not None:
        jname = model.joint_names[list(model.joint_body).index(b)]
        joint = getattr(src, "joints", {}).get(jname)
        marker = getattr(joint, "child_marker", None)
        if marker is not None:
            X = np.linalg.inv(np.asarray(src.markers[marker].transform, float))
            return X[:3, :3], X[:3, 3]
    return np.eye(3), np.zeros(3)


# --------------------------------------------------------------------------- sampling

def _interp_columns(t_new, t_old, arr):
    arr = np.asarray(arr, float)
    flat = arr.reshape(len(t_old), -1)
    out = np.empty((len(t_new), flat.shape[1]))
    for k in range(flat.shape[1]):
        out[:, k] = np.interp(t_new, t_old, flat[:, k])
    return out.reshape((len(t_new),) + arr.shape[1:])


def _grid(results, rate):
    if not (isinstance(rate, (int, float)) and np.isfinite(rate) and rate > 0):
        raise SensorError(f"evaluate: rate must be a positive number of samples per second, got {rate!r}")
    t = np.asarray(results.t, float)
    if t.ndim != 1 or t.size < 2:
        raise SensorError(f"evaluate: results need at least two samples, got t of shape {t.shape}")
    n = int(np.floor((t[-1] - t[0]) * rate + 1e-6)) + 1
    grid = t[0] + np.arange(n) / rate
    same = grid.size == t.size and np.allclose(grid, t, rtol=0.0, atol=1e-9 / rate * 1e3)
    return t, grid, same


def _sample_states(model, results, t, grid, same):
    names = ("q", "v", "vdot", "base_states")
    arrays = {}
    for name in names:
        a = getattr(results, name, None)
        if a is None:
            raise SensorError(f"evaluate: results.{name} is missing; sensors need q, v, vdot and "
                              f"base_states at the samples (occupant.simulate records them)")
        a = np.asarray(a, float)
        if a.shape[0] != t.size:
            raise SensorError(f"evaluate: results.{name} has {a.shape[0]} rows, t has {t.size}")
        arrays[name] = a
    if same:
        return arrays["q"], arrays["v"], arrays["vdot"], arrays["base_states"]
    step = float(np.max(np.diff(t)))
    if grid.size > 1 and step > (grid[1] - grid[0]) * (1 + 1e-6):
        warnings.warn(f"results are sampled every {step:.3g} s, coarser than the channel rate "
                      f"{1 / (grid[1] - grid[0]):.6g} Hz; channels are linear interpolations "
                      f"(run simulate with output_dt = 1/rate for full content)", SensorWarning,
                      stacklevel=3)
    q = arrays["q"].copy()
    quats = quaternion_slices(model.tree)
    for s in quats:  # sign continuity before interpolating (q and -q are the same rotation)
        dots = np.einsum("ij,ij->i", q[1:, s], q[:-1, s])
        flips = np.cumprod(np.where(dots < 0.0, -1.0, 1.0))
        q[1:, s] *= flips[:, None]
    q = _interp_columns(grid, t, q)
    for s in quats:
        q[:, s] /= np.linalg.norm(q[:, s], axis=1, keepdims=True)
    return (q, _interp_columns(grid, t, arrays["v"]), _interp_columns(grid, t, arrays["vdot"]),
            _interp_columns(grid, t, arrays["base_states"]))


def _link_states(model, q, v, vdot, base, f_ext):
    """Per sample: link spatial velocity, acceleration (gravity folded in) and transmitted force,
    all (n, nl, 6) (angular, linear) in link coordinates; link rotations (n, nl, 3, 3) and
    origins (n, nl, 3) in B0."""
    return inverse_dynamics_samples(model, model.make_data(), q, v, vdot, base, f_ext)


# --------------------------------------------------------------------------- sensors

def _body(model, sensor, body, what):
    try:
        return model.body(body)
    except ValueError as err:
        raise SensorError(f"sensor '{sensor.name}'.{what}: {err}") from None


def _point_in_link(model, sensor, b, point, marker, what):
    """Sensor point in the coordinates of body b's link (m)."""
    if marker is not None:
        try:
            m = model.marker(marker)
        except ValueError as err:
            raise SensorError(f"sensor '{sensor.name}'.{what}marker: {err}") from None
        if model.marker_body[m] != b:
            raise SensorError(f"sensor '{sensor.name}'.{what}marker: marker '{marker}' is on segment "
                              f"'{model.body_names[model.marker_body[m]]}', not on '{model.body_names[b]}'")
        return np.array(model.marker_p[m])
    if point is None:
        return None
    if isinstance(point, str):  # "cg"
        return np.array(model.body_com[b])
    R_ls, p_ls = segment_frame(model, b)
    return R_ls @ np.asarray(point, float) + p_ls


def _to_j211(model, b, vec_link, marker=None):
    """(n, 3) link-coordinate vectors of body b -> segment axes with J211 polarity; with
    ``marker`` (a marker on b) that marker's axes instead (a sensor mounted at an angle; a
    marker given no axes has its segment's)."""
    R_ls = segment_frame(model, b)[0] if marker is None else model.marker_R[model.marker(marker)]
    return (vec_link @ R_ls) * _TO_J211


def _accelerometer(model, s, st):
    V, A = st[0], st[1]
    b = _body(model, s, s.body, "body")
    lk = model.body_link[b]
    r = _point_in_link(model, s, b, s.point, s.marker, "")
    w, vo, alpha, ao = V[:, lk, :3], V[:, lk, 3:], A[:, lk, :3], A[:, lk, 3:]
    v_p = vo + np.cross(w, r)
    a = ao + np.cross(alpha, r) + np.cross(w, v_p)   # classical acceleration minus gravity
    return [("acceleration", "m/s^2", "AC", _AXES, _to_j211(model, b, a, s.marker))]


def _angular(model, s, st, which):
    b = _body(model, s, s.body, "body")
    lk = model.body_link[b]
    if s.marker is not None:
        _point_in_link(model, s, b, None, s.marker, "")   # the marker is on the body
    vec = (st[0] if which == "velocity" else st[1])[:, lk, :3]
    unit, dim = ("rad/s", "AV") if which == "velocity" else ("rad/s^2", "AA")
    return [(f"angular {which}", unit, dim, _AXES, _to_j211(model, b, vec, s.marker))]


def _load_cell(model, s, st):
    F, R, P = st[2], st[3], st[4]
    try:
        j = model.joint(s.joint)
    except ValueError as err:
        raise SensorError(f"sensor '{s.name}'.joint: {err}") from None
    b = _body(model, s, s.body, "body")
    child = int(model.joint_body[j])
    parent = int(model.body_parent[child])
    c = model.joint_links[j][-1]
    n_c, f_c = F[:, c, :3], F[:, c, 3:]   # parent -> child, at the child link origin, child axes
    if s.body_loads_above and b != child:
        raise SensorError(f"sensor '{s.name}'.body_loads_above: body must be joint '{s.joint}''s child")
    if s.body_loads_above and st[5] is not None:   # the child's own external loads: on the joint's side
        n_c, f_c = n_c + st[5][:, c, :3], f_c + st[5][:, c, 3:]
    if b == child:
        lk = c
        moment, force = n_c, f_c
        origin = np.zeros_like(f_c)
    elif b == parent:
        lk = model.body_link[b]
        R_pc = np.einsum("nji,njk->nik", R[:, lk], R[:, c])          # R_parent_child
        origin = np.einsum("nji,nj->ni", R[:, lk], P[:, c] - P[:, lk])
        moment = -np.einsum("nij,nj->ni", R_pc, n_c)
        force = -np.einsum("nij,nj->ni", R_pc, f_c)
    else:
        names = [model.body_names[child]] + ([model.body_names[parent]] if parent >= 0 else [])
        raise SensorError(f"sensor '{s.name}'.body: joint '{s.joint}' connects "
                          f"{' and '.join(names)}, not '{s.body}' (accepted: {', '.join(names)})")
    r = _point_in_link(model, s, b, s.point, s.marker, "")
    if r is not None:  # M_r = M_o + (o - r) x F
        moment = moment + np.cross(origin - r, force)
    if s.reaction:     # the load body exerts on the other side: the same about the same point, negated
        force, moment = -force, -moment
    return [("force", "N", "FO", _AXES, _to_j211(model, b, force, s.marker)),
            ("moment", "N*m", "MO", _AXES, _to_j211(model, b, moment, s.marker))]


def _displacement(model, s, st, first_only=False):
    R, P = st[3], st[4]
    a = _body(model, s, s.body, "body")
    bb = _body(model, s, s.to_body, "to_body")
    la, lb = model.body_link[a], model.body_link[bb]
    ra = _point_in_link(model, s, a, s.point, s.marker, "")
    rb = _point_in_link(model, s, bb, s.to_point, s.to_marker, "to_")
    ra = np.zeros(3) if ra is None else ra
    rb = np.zeros(3) if rb is None else rb
    pa = P[:, la] + R[:, la] @ ra
    pb = P[:, lb] + R[:, lb] @ rb
    d_link = np.einsum("nji,nj->ni", R[:, la], pb - pa)      # in a's link axes
    d = _to_j211(model, a, d_link)
    dist = np.linalg.norm(d, axis=1)
    if s.relative:
        d = d - d[0]
        dist = dist - dist[0]
    cols = {"x": d[:, 0], "y": d[:, 1], "z": d[:, 2], "r": dist}
    values = np.column_stack([cols[k] for k in s.directions])
    return [("displacement", "m", "DS", tuple(k.upper() for k in s.directions), values)]


def _array(s, results, t, grid):
    attr, _, key = s.source.partition("/")
    src = getattr(results, attr, None)
    if src is None:
        raise SensorError(f"sensor '{s.name}'.source: results have no array '{attr}'")
    if key:
        if not isinstance(src, dict) or key not in src:
            known = ", ".join(map(str, src)) if isinstance(src, dict) else "not a dict"
            raise SensorError(f"sensor '{s.name}'.source: results.{attr} has no entry '{key}' (known: {known})")
        src = src[key]
    arr = np.asarray(src, float)
    if arr.ndim == 2 and s.index is not None:
        if s.index >= arr.shape[1]:
            raise SensorError(f"sensor '{s.name}'.index: {s.index} is out of range for results.{s.source} "
                              f"with {arr.shape[1]} columns")
        arr = arr[:, s.index]
    if arr.shape != t.shape:
        raise SensorError(f"sensor '{s.name}'.source: results.{s.source} must give one value per sample "
                          f"(shape {t.shape}{', use index for a column' if arr.ndim == 2 else ''}), got {arr.shape}")
    return np.interp(grid, t, arr)


def evaluate(model, results, sensors, rate=10000.0, *, f_ext=None, test_object="1", position="1",
             dummy=None):
    """Channels of ``sensors`` on ``results`` of ``model``, sampled at ``rate`` (Hz).

    Returns a list of ``occupant.Channel``, per sensor in declaration order: accelerometers,
    angular sensors and displacement sensors give X, Y, Z (displacement: its ``directions``),
    load cells Fx, Fy, Fz then Mx, My, Mz. Names read ``"<sensor name> <quantity> <axis>"``
    (``"Head CG acceleration X"``); units m/s^2, rad/s, rad/s^2, N, N*m, m; codes are ISO-MME
    16-character codes with ``test_object`` (default "1", vehicle 1), ``position`` (default
    "1", driver), ``dummy`` (default from the model name, see ``dummy_code``) and filter class
    "0" (unfiltered). ``f_ext``: (n_results, nl, 6) external spatial forces on the links (as
    ``inverse_dynamics`` takes them) at the results' samples, so that load cells see contact,
    spring and belt loads; by default the ones the force producers applied (``results.f_ext``,
    recorded by ``simulate``).
    """
    check_code_part(str(test_object), 1, "evaluate: test_object")
    check_code_part(str(position), 1, "evaluate: position")
    dummy = dummy_code(model.name) if dummy is None else check_code_part(dummy, 2, "evaluate: dummy")
    sensors = list(sensors)
    names = [s.name for s in sensors]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise SensorError(f"evaluate: sensor names must be unique, repeated: {', '.join(dup)}")
    t, grid, same = _grid(results, rate)
    kinematic = [s for s in sensors if not isinstance(s, ArraySensor)]
    st = None
    if kinematic:
        q, v, vdot, base = _sample_states(model, results, t, grid, same)
        fe = None
        if f_ext is None:
            f_ext = getattr(results, "f_ext", None)
        if f_ext is not None:
            fe = np.asarray(f_ext, float)
            if fe.shape != (t.size, model.nl, 6):
                raise SensorError(f"evaluate: f_ext must have shape ({t.size}, {model.nl}, 6), got {fe.shape}")
            fe = fe if same else _interp_columns(grid, t, fe)
        st = _link_states(model, q, v, vdot, base, fe) + (fe,)
    out = []
    for s in sensors:
        if isinstance(s, ArraySensor):
            out.append(Channel(f"{s.name}", grid, _array(s, results, t, grid), s.unit,
                               code=channel_code(test_object, position, s, s.fine3 or dummy, s.dimension,
                                                 s.direction)))
            continue
        if isinstance(s, Accelerometer):
            groups = _accelerometer(model, s, st)
        elif isinstance(s, AngularVelocitySensor):
            groups = _angular(model, s, st, "velocity")
        elif isinstance(s, AngularAccelerationSensor):
            groups = _angular(model, s, st, "acceleration")
        elif isinstance(s, LoadCell):
            groups = _load_cell(model, s, st)
        elif isinstance(s, DisplacementSensor):
            groups = _displacement(model, s, st)
        else:
            raise SensorError(f"evaluate: {type(s).__name__} is not a sensor declaration")
        for quantity, unit, dim, axes, values in groups:
            for k, axis in enumerate(axes):
                out.append(Channel(f"{s.name} {quantity} {axis}", grid, values[:, k], unit,
                                   code=channel_code(test_object, position, s, dummy, dim, axis)))
    return out


def load_cell_sources(model, results, sensor, rate=10000.0):
    """What makes ``sensor``'s reading (a ``LoadCell``): its channels split by source, as a dict
    {source: {channel name: values}}. The joint's reaction is linear in the external loads at
    fixed motion, so the reading is the sum of "inertia" (the recorded motion with no external
    load: the subtree's mass accelerating, gravity and B0's motion included) and, for each link
    of the joint's subtree (its child and what hangs on it) on which the force producers acted
    (``results.f_ext``), that link's external loads alone, keyed by its bodies' names joined by
    "+". The parts sum to ``evaluate``'s channels (to round-off). Sources on one link (two
    contacts on one segment) stay together: f_ext is recorded per link."""
    if not isinstance(sensor, LoadCell):
        raise SensorError(f"load_cell_sources: '{getattr(sensor, 'name', sensor)}' is not a LoadCell")
    f_ext = getattr(results, "f_ext", None)
    if f_ext is None:
        raise SensorError("load_cell_sources: results.f_ext is missing (occupant.simulate records it)")
    fe = np.asarray(f_ext, float)
    j = model.joint(sensor.joint)
    child = int(model.joint_body[j])
    beyond, grown = {child}, True      # the joint's subtree, whose loads its reaction carries
    while grown:
        more = {b for b in range(model.nb) if int(model.body_parent[b]) in beyond} - beyond
        beyond |= more
        grown = bool(more)
    links = sorted({int(model.body_link[b]) for b in beyond})

    def read(loads):
        return {c.name: np.asarray(c.values) for c in evaluate(model, results, [sensor], rate=rate,
                                                               f_ext=loads)}
    inertia = read(np.zeros_like(fe))
    parts = {"inertia": inertia}
    for lk in links:
        if not np.any(fe[:, lk]):
            continue
        only = np.zeros_like(fe)
        only[:, lk] = fe[:, lk]
        name = "+".join(model.body_names[b] for b in sorted(beyond) if int(model.body_link[b]) == lk)
        parts[name] = {k: v - inertia[k] for k, v in read(only).items()}
    return parts


def joint_load_in_base(model, results, joint, point):
    """(force, moment), each (n, 3) in B0's axes at the results' own samples: the load the parent
    side of ``joint`` puts on its child (the subtree's inertia, gravity, B0's motion and the
    recorded external loads, as ``evaluate``'s load cells), the moment about ``point`` (m, fixed in
    B0), M_p = M_o + (o - p) x F with o the child link's origin. A load cell bolted to B0 (a
    specimen potted on a sled) reads minus these."""
    t = np.asarray(results.t, float)
    q, v, vdot, base = _sample_states(model, results, t, t, True)
    fe = getattr(results, "f_ext", None)
    F, R, P = _link_states(model, q, v, vdot, base, None if fe is None else np.asarray(fe, float))[2:]
    c = model.joint_links[model.joint(joint)][-1]
    force = np.einsum("nij,nj->ni", R[:, c], F[:, c, 3:])
    moment = np.einsum("nij,nj->ni", R[:, c], F[:, c, :3])
    return force, moment + np.cross(P[:, c] - np.asarray(point, float), force)
