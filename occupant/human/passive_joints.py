"""Human passive joint resistance (issue 14 section 1): the moment-angle laws of
data/joint_passive.toml (sources there) sampled into tables over the human range of motion of
data/joint_rom.toml, with damping and stops, scaled with the body (mass x stature [E]; GEBOD
scales no joint resistance with the body: data/joint_passive.toml "Sizes")."""
import functools
import math

import numpy as np

from occupant.human.data_folder import data_path, read_data, stamp
from occupant.human.description import Resistance

TABLE = "joint_passive.toml"
STOP_SPAN = 25.0                 # deg, neck: the ligamentous branch reaches its level this far past the range [E]
STOP_CAP = 2.0                   # neck: the branch is tabulated up to this multiple of its level, then its end slope [E]
MEASURED_STOP = 2.0              # a measured side's numerical stop: at this multiple of the range end [E]
GRID = math.radians(0.1)         # the curve is evaluated this finely ...
REL_TOL, ABS_TOL = 0.005, 0.01   # ... and kept where linear interpolation misses by more (-, N m)


def passive_table():
    """data/joint_passive.toml with ``same_as`` entries resolved: a joint's own coordinate
    replaces the named joint's, or, without a ``law`` of its own, overrides only the keys it
    gives (read once per file read and edit, data_folder.stamp; do not modify)."""
    return _passive_table(stamp(TABLE))


@functools.lru_cache(maxsize=None)
def _passive_table(_stamp):
    raw = read_data(TABLE)
    out = {}
    for joint, spec in raw.items():
        if joint == "reference":
            continue
        if "same_as" not in spec:
            out[joint] = spec
            continue
        base = raw[spec["same_as"]]
        out[joint] = dict(base)
        for coord, own in spec.items():
            if coord != "same_as":
                out[joint][coord] = own if "law" in own else {**base[coord], **own}
    return raw["reference"], out


def passive_moment(spec, theta, lower, upper, shape):
    """Passive moment (N m, reference subject) of one joint coordinate at theta (rad, array),
    ``lower``/``upper`` the range of motion (rad)."""
    theta = np.asarray(theta, float)
    sides = spec.get("table_sides", "")
    if sides not in ("", "lower", "upper", "both"):
        raise ValueError(f"{data_path(TABLE)}: unknown table_sides {sides!r} "
                         "(accepted: lower, upper, both)")
    # a coordinate measured on both sides needs no law
    out = np.zeros_like(theta) if sides == "both" else _law_moment(spec, theta, lower, upper, shape)
    if sides in ("lower", "both"):
        out = np.where(theta < 0.0, measured_moment(spec, -np.minimum(theta, 0.0)), out)
    if sides in ("upper", "both"):
        out = np.where(theta > 0.0, -measured_moment(spec, np.maximum(theta, 0.0)), out)
    return out


def measured_moment(spec, magnitude):
    """The restoring moment (N m, reference subject) of ``spec``'s measured "table" at the joint
    angle ``magnitude`` (rad, >= 0): its rows (whole-chain deg, N m) read at chain x magnitude,
    linear between rows and past the last with the end slope, scaled from the tested subjects'
    m H (``table_subject``) to the reference subject's (data/joint_passive.toml)."""
    ref, _ = passive_table()
    rows = np.asarray(spec["table"], float)
    x = spec.get("chain", 1.0) * np.degrees(np.asarray(magnitude, float))
    slope = (rows[-1, 1] - rows[-2, 1]) / (rows[-1, 0] - rows[-2, 0])
    m = np.where(x <= rows[-1, 0], np.interp(x, rows[:, 0], rows[:, 1]),
                 rows[-1, 1] + slope * (x - rows[-1, 0]))
    mass, stature = spec["table_subject"]
    return m * (ref["mass_kg"] * ref["stature_m"]) / (mass * stature)


def _law_moment(spec, theta, lower, upper, shape):
    """Passive moment (N m, reference subject) of spec's law at theta (rad, array)."""
    if spec["law"] == "double_exponential":
        k1, k2, k3, k4 = spec["k"]
        lo, hi = spec["theta"]
        s, n = spec["sign"], spec.get("chain", 1.0)
        phi = s * n * theta
        return s * (k1 * np.exp(k2 * (phi - hi)) + k3 * np.exp(k4 * (phi - lo)))
    if spec["law"] == "end_moment":
        m, d = spec["end_moment"], math.expm1(shape)
        out = np.zeros_like(theta)
        if upper > 0.0:   # a side of zero extent (the elbow's extension) has no curve
            out -= m * np.expm1(shape * np.maximum(theta, 0.0) / upper) / d
        if lower < 0.0:
            out += m * np.expm1(shape * np.minimum(theta, 0.0) / lower) / d
        return out
    if spec["law"] == "linear":
        return -math.degrees(spec["stiffness_deg"]) * theta
    raise ValueError(f"{data_path(TABLE)}: unknown law {spec['law']!r} "
                     "(accepted: double_exponential, end_moment, linear)")


def ligament_branch(spec, m_end, end):
    """Moment beyond the ``end`` ("upper" or "lower") of the range: (excess angle, moment) rows of
    a progressive stop, restoring (negative beyond the upper end). The moment grows
    exponentially from the end moment and reaches the level ``stop_<end>`` ``stop_span_<end>``
    deg (default STOP_SPAN) past the end; the rows go on to STOP_CAP x the level, past which the
    table's end slope acts: no bottoming stop."""
    level, m0 = spec[f"stop_{end}"], abs(m_end)
    span = math.radians(spec.get(f"stop_span_{end}", STOP_SPAN))
    x0 = span / math.log(level / m0)
    x = np.union1d(np.linspace(0.0, x0 * math.log(STOP_CAP * level / m0), 25)[1:], [span])
    sign = -1.0 if end == "upper" else 1.0
    return x, sign * m0 * np.exp(x / x0)


def ligament_absorption():
    """Fraction of a loading cycle's work the neck's resistance dissipates: the rate-dependent
    share of the cervical joints' dynamic bending stiffness, 1 - k_quasi-static / k_dynamic
    (data/joint_passive.toml [reference], Voo et al. 1998)."""
    ref, _ = passive_table()
    return 1.0 - ref["neck_stiffness_quasi_static"] / ref["neck_stiffness_dynamic"]


def thin(x, y):
    """The fewest rows of (x, y) (first and last kept) from which linear interpolation
    reproduces every row within REL_TOL of its value or ABS_TOL."""
    keep, i, n = [0], 0, len(x)
    while i < n - 1:
        j = i + 1
        while j + 1 < n:
            xs, ys = x[i:j + 2], y[i:j + 2]
            chord = y[i] + (y[j + 1] - y[i]) * (xs - x[i]) / (x[j + 1] - x[i])
            if np.any(np.abs(chord - ys) > np.maximum(REL_TOL * np.abs(ys), ABS_TOL)):
                break
            j += 1
        keep.append(j)
        i = j
    return x[keep], y[keep]


def left_table(spec, lower, upper, ref):
    """(angle rad, moment N m) rows of the left joint, reference subject."""
    n = max(2, int(math.ceil((upper - lower) / GRID)) + 1)
    theta = np.unique(np.concatenate([np.linspace(lower, upper, n), [0.0]]))
    m = passive_moment(spec, theta, lower, upper, ref["shape"])
    keep = np.abs(m) <= ref["moment_cap"]
    keep |= theta == 0.0
    # the contiguous run around zero, where the curve is below the cap
    i0 = int(np.argmin(np.abs(theta)))
    lo_i, hi_i = i0, i0
    while lo_i > 0 and keep[lo_i - 1]:
        lo_i -= 1
    while hi_i < len(theta) - 1 and keep[hi_i + 1]:
        hi_i += 1
    theta, m = theta[lo_i:hi_i + 1], m[lo_i:hi_i + 1]
    theta, m = thin(theta, m)
    if "stop_upper" in spec:
        xu, mu = ligament_branch(spec, m[-1], "upper")
        xl, ml = ligament_branch(spec, m[0], "lower")
        theta = np.concatenate([theta[0] - xl[::-1], theta, theta[-1] + xu])
        m = np.concatenate([ml[::-1], m, mu])
    return np.column_stack([theta, m])


def _reference_rows(base, key, lower, upper):
    """left_table of one joint coordinate (cached: the same for every body size)."""
    return _rows(stamp(TABLE), base, key, lower, upper)


@functools.lru_cache(maxsize=None)
def _rows(_stamp, base, key, lower, upper):
    ref, table = passive_table()
    rows = left_table(table[base][key], lower, upper, ref)
    rows.setflags(write=False)
    return rows


def human_resistance(joint, dof, kind, lower, upper, scale, stop=None, neck_muscles=True,
                     table_name=None):
    """Resistance record of one coordinate of a left/right/midline human joint. ``lower``,
    ``upper``: the range (rad, this side); ``scale``: m H / (m H)_reference; ``stop``:
    (stop_stiffness, stop_damping) of the stop at the end of the range, not used where the table
    has a ligamentous branch (the neck), which is a progressive stop of its own and dissipates
    ligament_absorption() of each loading cycle's work. ``neck_muscles``: False for a body
    without neck muscles (a PMHS), whose joints take the reference (passive tissue) damping in
    place of the ``damping_with_muscles`` calibrated on the living neck. ``table_name``: the
    data section to read in place of the joint's own (a neck joint of three)."""
    ref, table = passive_table()
    side, _, base = joint.partition("_")
    if side not in ("left", "right"):
        base, side = joint, "mid"
    base = table_name or base
    key = "flexion" if kind == "revolute" else "xyz"[dof]
    spec = table[base][key]
    mirror = side == "right" and key in ("x", "z")
    lo, hi = (-upper, -lower) if mirror else (lower, upper)
    rows = _reference_rows(base, key, lo, hi)
    if mirror:
        rows = -rows[::-1]
    # the joint-resistance table holds the spring's load, signed as the deflection (the kernel
    # applies minus it): minus the passive moment
    rows = rows * np.array([1.0, -scale])
    # a coordinate's own passive damping (data/joint_passive.toml ``damping``, sources there) or
    # the [reference] one; the neck's fitted ``damping_with_muscles`` only with neck muscles
    passive = spec.get("damping", ref["damping"])
    damping = spec.get("damping_with_muscles", passive) if neck_muscles else passive
    r = Resistance(dof=dof, table=rows, damping=damping * scale)
    if "stop_upper" in spec:
        # the neck's discs and ligaments: viscoelastic, recovering (no permanent set)
        r.absorption, r.recovers = ligament_absorption(), True
    if stop is not None and "stop_upper" not in spec:
        # the stop at the end of the range; the neck's ligamentous branch is its own stop; on a
        # side with a measured table (its end slope carries the moment past the range) only a
        # numerical stop, far beyond, at MEASURED_STOP x the range end
        sides = spec.get("table_sides", "")
        far_lo, far_hi = sides in ("lower", "both"), sides in ("upper", "both")
        if mirror:
            far_lo, far_hi = far_hi, far_lo
        r.lower = lower * (MEASURED_STOP if far_lo else 1.0)
        r.upper = upper * (MEASURED_STOP if far_hi else 1.0)
        r.stop_stiffness, r.stop_damping = stop
    return r
