"""Validation of the parametric human against published human data (issue 14 section 4):
the scenarios of ``scenarios/validation`` (sources in each file and in its README), one registry
``VALIDATIONS`` keyed by a scenario's ``test`` key, as ``occupant.human.certification`` does for
the dummies; ``occupant validate NAME`` runs one and prints each figure against its corridor.

- ``thorax_pendulum``: the human, seated without back support, struck at mid-sternum by a rigid
  pendulum (the rig of ``impact_tests.thorax_model``); the figures are read off the probe force
  against the skeletal (sternum-to-spine) deflection, as Kroell et al. (1971) plotted them.
- ``head_neck_sled``: the human's head and neck on its T1, the T1 driven by the measured mean T1
  motion of a volunteer sled series (inertial x and z acceleration, sagittal rotation; the NBDL
  analyses prescribe T1 this way) or by the sled pulse of a head-neck potted at T1 (also
  lateral or oblique); the figures are the head's rotation in the sled frame (``rotation``:
  flexion or extension positive about y, lateral bending about x, axial turn about z; a list
  of them with one ``response_prefix`` each) read against the range of the runs' own figures
  computed from the same data file (the volunteers' runs, the specimens' runs, or a corridor's
  two boundaries); with ``[t1_cell]`` also the moment on a load cell fixed to T1 below C7/T1
  about each rotation's axis (``t1_cell_moment_Nm``), against the specimens' cells.
- ``head_neck_twist``: the same head-neck, its head clamped still (HEAD_HOLD_SCALE) while T1 turns
  about its vertical axis by a measured history; the figures are the neck's twisting moment at
  its base (peak, its time, last value) against the range of the measured moments.
- ``head_neck_bend``: the same head-neck, T1 fixed, gravity off, bent quasi-statically by a pure
  moment on the head ramped from zero (``neck_bend``); the figures are the head's flexion relative
  to T1 when the occipital condyles' moment first reaches each of ``read_at_Nm``, against the
  angles a moment-angle corridor's two boundaries give there.
- ``belted_sled``: the whole human in a belted sled scenario (``occupant.scenario``, the file
  named by ``sled``, its ``occupant.human`` replaced by the case's ``[human]``); the figures are
  the peak forward excursions of the head centre of gravity, of T1, T8, L2, L4 and of the hip (the
  H-point, midway between the hip joint centres) relative to the sled, the peak rises of T1, T8
  and the pelvis (at the sacral canal, where the case's source deck reads the PMHS's pelvis
  target: builder.sacral_canal), the peak chest deflection, the peak belt forces (upper shoulder belt:
  D-ring to shoulder; lower shoulder belt: its segment into the buckle; outboard lap belt:
  outboard hip to lap anchor) and the peak x
  decelerations of accelerometers at T1, T8 and L2 and the peak forward excursions of the two
  acromia (the torso's turn about the belted shoulder), read against the peaks of the published
  PMHS corridors' two boundaries.
"""
import pathlib
from dataclasses import dataclass

import numpy as np
from scipy.interpolate import CubicSpline

from occupant.constants import G0, STANDARD_GRAVITY
from occupant.human import impact_tests
from occupant.human.certification import (CFC_CLASSES, TOP_KEYS, _check_corridor, check_characteristic,
                                          corridor_checks, read_test_key)
from occupant.human.neck_muscles import ACTIVATIONS, DEFAULT_ACTIVATION, NO_NECK_MUSCLES
from occupant.io.toml_files import FileChecker, read_toml, resolve_shipped, shipped_names

SCENARIO_FOLDER = "scenarios/validation"
HUMAN_KEYS = ("percentile", "stature", "mass", "sex", "neck_activation", "neck_mid", "face", "heels")


def available_scenarios():
    return shipped_names(SCENARIO_FOLDER)


def read_scenario(name_or_path):
    """(scenario dict, path) of a shipped validation scenario name or a .toml path, with the keys
    its test's runner reads validated."""
    path = resolve_shipped(name_or_path, SCENARIO_FOLDER, "validation scenario")
    scenario = read_toml(path)
    check = FileChecker(path)
    test = read_test_key(check, scenario, VALIDATIONS, "validation")
    check.keys(scenario, TOP_KEYS + ("human",) + VALIDATIONS[test].keys, "")
    check.string(scenario, "name", "", required=True)
    _check_human(check, scenario)
    VALIDATIONS[test].check(check, scenario, pathlib.Path(path).parent)
    return scenario, path


def _check_human(check, scenario):
    """[human]: the body (occupant.human.build's arguments)."""
    human = check.table(scenario, "human", "", required=True,
                        accepted="a table with percentile or stature and mass, sex")
    check.keys(human, HUMAN_KEYS, "human")
    for key in ("percentile", "stature", "mass"):
        check.number(human, key, "human", positive=True)
    check.string(human, "sex", "human", choices=("male", "female"), what="sex")
    check.string(human, "neck_activation", "human", choices=(*ACTIVATIONS, NO_NECK_MUSCLES),
                 what="neck activation")
    check.boolean(human, "neck_mid", "human")
    check.boolean(human, "face", "human")
    check.boolean(human, "heels", "human")


def _human_args(scenario):
    h = scenario["human"]
    return {k: h[k] for k in ("percentile", "stature", "mass", "sex", "neck_mid", "face", "heels") if k in h}


# ------------------------------------------------------------------------------------------
# thorax pendulum (Kroell et al. 1971; corridor of Lobdell et al. 1972)
# ------------------------------------------------------------------------------------------
THORAX_FIGURES = ("peak_force_N", "peak_deflection_mm", "unloaded_deflection_mm")


def _check_thorax(check, scenario, base_dir):
    for key in ("impact_speed", "t_end"):
        check.number(scenario, key, "", positive=True, required=True)
    corridor = scenario.get("corridor")
    check.number(scenario, "unload_level_N", "", positive=True,
                 required=isinstance(corridor, dict) and "unloaded_deflection_mm" in corridor)
    for key in ("cfc", "deflection_cfc"):
        cfc = check.number(scenario, key, "", required=True)
        if cfc not in CFC_CLASSES:
            check.fail(key, f"{cfc!r} is not an SAE J211 channel class",
                       ", ".join(map(str, CFC_CLASSES)))
    for key in ("contact", "seat_contact"):
        check_characteristic(check, scenario, key)
    probe = check.table(scenario, "probe", "", required=True,
                        accepted="a table with mass (kg) and face_radius (m)")
    for key in ("mass", "face_radius"):
        check.number(probe, key, "probe", positive=True, required=True)
    _check_corridor(check, scenario, THORAX_FIGURES)
    rows = scenario.get("force_at")
    if not isinstance(rows, list) or not rows or any(
            not isinstance(r, list) or len(r) != 3 or not all(isinstance(v, (int, float)) for v in r)
            or r[1] > r[2] for r in rows):
        check.fail("force_at", f"{rows!r}", "rows [deflection mm, lower N, upper N], lower <= upper")


def thorax_figures(force_N, deflection_mm, readings_mm, unload_level_N):
    """Figures of a force-deflection loop (compression positive): the force while loading at
    each deflection of ``readings_mm`` (first sample at or past it), the peak force, the peak
    deflection, and the deflection at which the unloading force first falls to
    ``unload_level_N`` after the peak deflection (the corridor's unloading leg)."""
    k = int(np.argmax(deflection_mm))
    out = {}
    for d in readings_mm:
        i = int(np.searchsorted(np.maximum.accumulate(deflection_mm[:k + 1]), d))
        out[f"force_at_{d:g}mm_N"] = float(force_N[i]) if i <= k else float("nan")
    out["peak_force_N"] = float(np.max(force_N))
    out["peak_deflection_mm"] = float(deflection_mm[k])
    after = np.flatnonzero(force_N[k:] <= unload_level_N)
    out["unloaded_deflection_mm"] = float(deflection_mm[k + after[0]]) if len(after) else float("nan")
    return out


def _run_thorax(scenario, path, dt):
    from occupant.human.builder import _check_inputs, build_segments

    a = _human_args(scenario)
    sex = a.get("sex", "male")
    stature, mass, prop = _check_inputs(a.get("stature"), a.get("mass"), sex, a.get("percentile"))
    segs = build_segments(stature, mass, sex, prop)
    out = impact_tests.run_thorax_pendulum(scenario, dt=dt, segments=(scenario["name"], segs))
    f, d = out["history"]["probe_force_N"], out["history"]["deflection_mm"]
    rows = scenario["force_at"]
    out["figures"] = thorax_figures(f, d, [r[0] for r in rows], scenario.get("unload_level_N", 0.0))
    corridor = {f"force_at_{r[0]:g}mm_N": (r[1], r[2]) for r in rows}
    corridor.update(scenario["corridor"])
    out["corridor"] = corridor
    out["checks"] = corridor_checks(out["figures"], corridor)
    return out


# ------------------------------------------------------------------------------------------
# head-neck on a measured T1 motion (NBDL volunteer sled series)
# ------------------------------------------------------------------------------------------
ROTATIONS = ("flexion", "extension", "lateral", "axial")


def sled_responses(scenario):
    """[(rotation, column prefix of its runs)] of a head_neck_sled case: ``rotation`` and
    ``response_prefix`` each a string, or lists of equal length."""
    rotation = scenario.get("rotation", "flexion")
    prefix = scenario["response_prefix"]
    if isinstance(rotation, str):
        return [(rotation, prefix)]
    return list(zip(rotation, prefix))


def _check_data(check, scenario, base_dir):
    """``data``: a CSV file next to the scenario."""
    data = check.string(scenario, "data", "", required=True, what="CSV file of the series")
    if not (base_dir / data).is_file():
        check.fail("data", f"no file {data!r} next to the scenario", "a CSV file path relative to it")


def _check_sled(check, scenario, base_dir):
    _check_data(check, scenario, base_dir)
    for key in ("t_end", "onset_g"):
        check.number(scenario, key, "", positive=True, required=True)
    check.number(scenario, "dt", "", positive=True)
    inputs = check.table(scenario, "inputs", "", required=True,
                         accepted="columns of the T1 motion: ax_g, az_g, rot_y_rad (ay_g)")
    check.keys(inputs, ["ax_g", "ay_g", "az_g", "rot_y_rad"], "inputs")
    for key in ("ax_g", "az_g", "rot_y_rad"):
        check.string(inputs, key, "inputs", required=True, what="column name")
    if isinstance(scenario.get("rotation"), list):        # several rotations, a prefix each
        rotations = check.strings(scenario, "rotation", "", choices=ROTATIONS,
                                  what="head rotation")
        prefixes = check.strings(scenario, "response_prefix", "", required=True,
                                 what="column prefix of the runs")
        if len(prefixes) != len(rotations):
            check.fail("response_prefix",
                       f"{len(prefixes)} prefixes for {len(rotations)} rotations",
                       "one column prefix per rotation")
    else:
        check.string(scenario, "response_prefix", "", required=True,
                     what="column prefix of the runs")
        rotations = [check.string(scenario, "rotation", "", choices=ROTATIONS,
                                  what="head rotation") or "flexion"]
    times = scenario.get("read_at_ms", [])
    if not isinstance(times, list) or not all(
            isinstance(v, (int, float)) and 0 < v <= 1e3 * scenario["t_end"] for v in times):
        check.fail("read_at_ms", f"{times!r}", "a list of times in ms, each in (0, t_end]")
    cell = _check_t1_cell(check, scenario, rotations)
    check.strings(scenario, "figures", "", what="figure",
                  choices=[n for r in rotations for n in sled_figure_names(r, times)] + cell)


# The PMHS's own neck load (Kang et al. 2018): a load cell under the potting, fixed to T1 (B0),
# some way below C7/T1 (B0's origin, ``head_neck_on_t1``); its moment about the axis of each
# rotation, positive in the rotation's sense (the moment the head-neck puts on the cell while the
# head bends that way) [D]. ``[t1_cell]``: offset_m (the cell below C7/T1 along B0's -z), read_at_ms,
# prefix {rotation: column prefix of the runs' moments, N m}.
T1_CELL_AXES = {"lateral": (0, 1.0), "flexion": (1, 1.0), "extension": (1, -1.0), "axial": (2, 1.0)}


def t1_cell_figure_names(rotation, read_at_ms=()):
    """Names of the T1 load cell's figures about ``rotation``'s axis (``sled_figures``')."""
    return sled_figure_names(f"{rotation}_t1_moment", read_at_ms, "Nm")


def _check_t1_cell(check, scenario, rotations):
    """The ``[t1_cell]`` table's keys; the names of its figures."""
    if "t1_cell" not in scenario:
        return []
    cell = check.table(scenario, "t1_cell", "", accepted="offset_m, read_at_ms, prefix")
    check.keys(cell, ["offset_m", "read_at_ms", "prefix"], "t1_cell")
    check.number(cell, "offset_m", "t1_cell", required=True)
    times = cell.get("read_at_ms", [])
    if not isinstance(times, list) or not all(
            isinstance(v, (int, float)) and 0 < v <= 1e3 * scenario["t_end"] for v in times):
        check.fail("t1_cell.read_at_ms", f"{times!r}", "a list of times in ms, each in (0, t_end]")
        times = []
    prefix = check.table(cell, "prefix", "t1_cell", required=True,
                         accepted="{rotation: column prefix of the runs' moments}")
    check.keys(prefix, list(rotations), "t1_cell.prefix")
    for r in prefix:
        check.string(prefix, r, "t1_cell.prefix", required=True, what="column prefix")
    return [n for r in prefix for n in t1_cell_figure_names(r, times)]


def t1_cell_moment_Nm(model, res, offset_m, rotation):
    """The moment (N m, (n,)) the head-neck puts on a cell fixed to T1 ``offset_m`` below C7/T1,
    about ``rotation``'s axis in B0, positive in its sense: the lower neck joint's load carried
    down by its shear (``joint_load_in_base``)."""
    from occupant.sensors.evaluate import joint_load_in_base

    axis, sign = T1_CELL_AXES[rotation]
    moment = joint_load_in_base(model, res, "lower_neck", (0.0, 0.0, -float(offset_m)))[1]
    return -sign * moment[:, axis]


def sled_figure_names(rotation="flexion", read_at_ms=(), unit="deg"):
    """Names of the figures ``sled_figures`` reads (``unit``: the quantity's, in the names)."""
    return [f"peak_{rotation}_{unit}", f"peak_{rotation}_time_ms", f"final_{rotation}_{unit}"] + [
        f"{rotation}_at_{ms:g}ms_{unit}" for ms in read_at_ms]


def read_columns(scenario, base_dir):
    """(column names, {name: (n,) values}) of the case's CSV ``data``: its last comment line
    names the columns."""
    path = pathlib.Path(base_dir) / scenario["data"]
    with open(path) as fh:
        header = [ln for ln in fh if ln.startswith("#")][-1].lstrip("# ").strip().split(",")
    A = np.loadtxt(path, delimiter=",", comments="#")
    return header, {name: A[:, i] for i, name in enumerate(header)}


def read_series(scenario, base_dir, prefix=None):
    """(t s, T1 columns {ax_g, az_g, rot_y_rad}, (runs, n) head rotation deg) of the CSV, the runs
    those whose column starts with ``prefix`` (default: the case's first ``response_prefix``)."""
    header, col = read_columns(scenario, base_dir)
    t = col["t_ms"] * 1e-3
    t1 = {k: col[v] for k, v in scenario["inputs"].items()}
    prefix = sled_responses(scenario)[0][1] if prefix is None else prefix
    runs = np.array([col[n] for n in header if n.startswith(prefix)])
    return t, t1, runs


def _turn(t, angle, axis, at_rest=False):
    """{rotation, angular_velocity, angular_acceleration} (BaseMotion's callables) of a turn by
    ``angle`` (rad at times ``t``, through a cubic spline: its derivatives give the angular
    velocity and acceleration; with ``at_rest`` its rate zero at t[0]) about the fixed world axis
    ``axis`` (0, 1, 2: x, y, z)."""
    from occupant.spatial import rot_x, rot_y, rot_z

    spline = CubicSpline(t, angle, bc_type=((1, 0.0), "not-a-knot") if at_rest else "not-a-knot")
    d1, d2 = spline.derivative(1), spline.derivative(2)
    R, e = (rot_x, rot_y, rot_z)[axis], np.eye(3)[axis]
    return {"rotation": lambda s: R(float(spline(s))),
            "angular_velocity": lambda s: float(d1(s)) * e,
            "angular_acceleration": lambda s: float(d2(s)) * e}


def t1_motion(t, ax_g, az_g, rot_y, ay_g=None):
    """BaseMotion of T1 from its inertial x, z (and y) acceleration (g) and sagittal rotation
    (rad, flexion positive about y); velocity and position as ``BaseMotion.translational``
    integrates them (zero at t[0]), the rotation as ``_turn``."""
    from occupant.model import BaseMotion

    ay_g = np.zeros_like(ax_g) if ay_g is None else ay_g
    acc = np.column_stack([ax_g, ay_g, az_g]) * G0
    lin = BaseMotion.translational(t, acc)
    return BaseMotion(position=lin.position, velocity=lin.velocity, acceleration=lin.acceleration,
                      **_turn(t, rot_y, 1))


def head_rotation_deg(R, rotation):
    """The head's rotation (deg) from its orientation ``R`` (n, 3, 3) in the sled frame: about y,
    flexion positive (negated for extension), about x for lateral bending (positive when the
    head's top moves towards -y, away from a T1 pushed along +y), or its axial turn: the heading
    of its x axis about z (positive when the nose turns towards +y)."""
    if rotation == "lateral":
        return np.degrees(np.arctan2(R[:, 2, 1], R[:, 2, 2]))
    if rotation == "axial":
        return np.degrees(np.arctan2(R[:, 1, 0], R[:, 0, 0]))
    flexion = np.degrees(np.arctan2(R[:, 0, 2], R[:, 2, 2]))
    return -flexion if rotation == "extension" else flexion


def sled_figures(t, angle_deg, rotation="flexion", read_at_ms=(), unit="deg"):
    """Peak head rotation (deg, ``rotation`` positive; or another quantity in ``unit``) and its
    time (ms), the value at the last sample and (linear between samples) at each time of
    ``read_at_ms``."""
    k = int(np.argmax(angle_deg))
    values = [float(angle_deg[k]), float(t[k] * 1e3), float(angle_deg[-1])] + [
        float(np.interp(1e-3 * ms, t, angle_deg)) for ms in read_at_ms]
    return dict(zip(sled_figure_names(rotation, read_at_ms, unit), values))


def volunteer_corridor(t, runs, t_end, rotation="flexion", read_at_ms=(), unit="deg"):
    """{figure: (min, max)} of the runs' own figures, each run read up to ``t_end``."""
    keep = t <= t_end + 1e-9
    figs = [sled_figures(t[keep], r[keep], rotation, read_at_ms, unit) for r in runs]
    return {k: (min(f[k] for f in figs), max(f[k] for f in figs)) for k in figs[0]}


def head_neck_on_t1(scenario, pulse_start=0.0, head_scale=1.0):
    """The case's human (``[human]``) cut to its head-neck on T1 (``head_neck_assembly``), B0 at
    C7/T1 (the lower neck joint at B0's origin), an Assembly; the head's mass and inertia times
    ``head_scale``."""
    from dataclasses import replace

    from occupant.human.builder import build
    from occupant.human.head_neck import head_neck_assembly

    act = scenario["human"].get("neck_activation", DEFAULT_ACTIVATION)
    human = build(**_human_args(scenario), neck_activation=None if act == NO_NECK_MUSCLES else act,
                  pulse_start=float(pulse_start))
    # B0 at C7/T1: the upper torso frame's origin sits the lower neck joint's offset below it
    c7 = human.source.joints["lower_neck"].placement.position
    asm = head_neck_assembly(human, t1_location=-np.asarray(c7, float))
    head = asm.parts["head"]
    asm.parts["head"] = replace(head, mass=head.mass * head_scale,
                                inertia=np.asarray(head.inertia) * head_scale)
    return asm


def _run_sled(scenario, path, dt):
    from occupant import simulate

    base_dir = pathlib.Path(path).parent
    t, t1, _ = read_series(scenario, base_dir)
    onset = t[np.argmax(np.abs(t1["ax_g"]) >= scenario["onset_g"])]
    model = head_neck_on_t1(scenario, onset).compile()
    base = t1_motion(t, t1["ax_g"], t1["az_g"], t1["rot_y_rad"], t1.get("ay_g"))
    step = dt or scenario.get("dt", 2e-5)
    res = simulate(model, scenario["t_end"], base_motion=base, integrator="rk4", dt=step,
                   output_dt=2e-3, gravity=STANDARD_GRAVITY)
    times = scenario.get("read_at_ms", [])
    keep = t <= scenario["t_end"] + 1e-9
    responses = sled_responses(scenario)
    figures, corridor, history = {}, {}, {}
    for rotation, prefix in responses:
        runs = read_series(scenario, base_dir, prefix)[2]
        angle = head_rotation_deg(res.body_poses[:, model.body("head"), :3, :3], rotation)
        figures.update(sled_figures(res.t, angle, rotation, times))
        corridor.update(volunteer_corridor(t, runs, scenario["t_end"], rotation, times))
        tag = "" if len(responses) == 1 else f"{rotation}_"   # one rotation: the names as before
        history.update({f"head_{rotation}_deg": angle,
                        f"runs_min_{tag}deg": np.interp(res.t, t[keep], runs[:, keep].min(axis=0)),
                        f"runs_max_{tag}deg": np.interp(res.t, t[keep], runs[:, keep].max(axis=0))})
    cell = scenario.get("t1_cell")
    for rotation, prefix in (cell or {}).get("prefix", {}).items():
        runs = read_series(scenario, base_dir, prefix)[2]
        quantity, cell_times = f"{rotation}_t1_moment", cell.get("read_at_ms", [])
        moment = t1_cell_moment_Nm(model, res, cell["offset_m"], rotation)
        figures.update(sled_figures(res.t, moment, quantity, cell_times, "Nm"))
        corridor.update(volunteer_corridor(t, runs, scenario["t_end"], quantity, cell_times, "Nm"))
        history.update({f"{quantity}_Nm": moment,
                        f"runs_min_{quantity}_Nm": np.interp(res.t, t[keep], runs[:, keep].min(axis=0)),
                        f"runs_max_{quantity}_Nm": np.interp(res.t, t[keep], runs[:, keep].max(axis=0))})
    corridor = {k: corridor[k] for k in scenario.get("figures", corridor)}
    return {"t": res.t, "scenario": str(path), "results": res, "model": model,
            "history": history, "figures": figures, "corridor": corridor,
            "checks": corridor_checks(figures, corridor), "onset_s": float(onset)}


# ------------------------------------------------------------------------------------------
# head-neck twist: T1 turned about its vertical axis under a clamped head (Kang et al. 2018)
# ------------------------------------------------------------------------------------------
# The clamp holds the head still in the inertial frame while B0 (T1) turns: by the large-mass
# method of prescribed motion (the head's mass and inertia times HEAD_HOLD_SCALE, gravity off,
# as the clamp carried the head's weight) [E]. An inertial clamp needs no new element: a spring
# or motion to B0 would turn with T1, and a tabulated motion of the head relative to B0 is not
# among the drivers' time functions (occupant.constraints.drivers). The head then turns by
# about M t^2 / (2 I_zz HEAD_HOLD_SCALE): under 1e-3 deg for 50 N m over 0.1 s [D]
HEAD_HOLD_SCALE = 1e6
TWIST_QUANTITY, TWIST_UNIT = "axial_moment", "Nm"
TWIST_JOINT = "lower_neck"     # the neck's base, C7/T1: the twisting moment's reading [E]


def twist_figure_names():
    """Names of the twist case's figures (``sled_figures`` of the moment)."""
    return sled_figure_names(TWIST_QUANTITY, unit=TWIST_UNIT)


def _check_twist(check, scenario, base_dir):
    _check_data(check, scenario, base_dir)
    check.number(scenario, "t_end", "", positive=True, required=True)
    check.number(scenario, "dt", "", positive=True)
    inputs = check.table(scenario, "inputs", "", required=True,
                         accepted="the column of T1's turn about its vertical axis: rot_z_deg")
    check.keys(inputs, ["rot_z_deg"], "inputs")
    check.string(inputs, "rot_z_deg", "inputs", required=True, what="column name")
    check.string(scenario, "response_prefix", "", required=True,
                 what="column prefix of the measured moments")
    check.strings(scenario, "figures", "", what="figure", choices=twist_figure_names())


def twist_moment_Nm(res, turn_sign=1.0):
    """The neck's twisting moment at TWIST_JOINT (N m): the axial load of its joint resistance,
    the torque T1 puts on the neck about z, positive in the sense of T1's turn (``turn_sign``)."""
    return turn_sign * np.asarray(res.outputs[f"{TWIST_JOINT}_z.load"])


def twist_run(model, t, turn, t_end, dt):
    """Results of ``model`` (a head-neck on T1 from ``head_neck_on_t1``, its head held by
    HEAD_HOLD_SCALE) with B0 turned about its z by ``turn`` (rad at times ``t`` s, at rest at
    t[0]: the sled starts at rest), gravity off, RK4 at ``dt``, sampled every ms."""
    from occupant import simulate
    from occupant.model import BaseMotion

    return simulate(model, t_end, base_motion=BaseMotion(**_turn(t, turn, 2, at_rest=True)),
                    integrator="rk4", dt=dt, output_dt=1e-3, gravity=(0.0, 0.0, 0.0))


def _run_twist(scenario, path, dt):
    base_dir = pathlib.Path(path).parent
    header, col = read_columns(scenario, base_dir)
    t = col["t_ms"] * 1e-3
    turn = np.radians(col[scenario["inputs"]["rot_z_deg"]])
    model = head_neck_on_t1(scenario, head_scale=HEAD_HOLD_SCALE).compile()
    res = twist_run(model, t, turn, scenario["t_end"], dt or scenario.get("dt", 2e-5))
    sign = float(np.sign(turn[np.argmax(np.abs(turn))]))
    moment = twist_moment_Nm(res, sign)
    runs = np.array([col[n] for n in header if n.startswith(scenario["response_prefix"])])
    figures = sled_figures(res.t, moment, TWIST_QUANTITY, unit=TWIST_UNIT)
    corridor = volunteer_corridor(t, runs, scenario["t_end"], TWIST_QUANTITY, unit=TWIST_UNIT)
    corridor = {k: corridor[k] for k in scenario.get("figures", corridor)}
    keep = t <= scenario["t_end"] + 1e-9
    head = head_rotation_deg(res.body_poses[:, model.body("head"), :3, :3], "axial")
    history = {"t1_turn_deg": np.degrees(np.interp(res.t, t, turn)), "moment_Nm": moment,
               "upper_moment_Nm": sign * np.asarray(res.outputs["upper_neck_z.load"]),
               "head_heading_deg": head,
               "runs_min_Nm": np.interp(res.t, t[keep], runs[:, keep].min(axis=0)),
               "runs_max_Nm": np.interp(res.t, t[keep], runs[:, keep].max(axis=0))}
    return {"t": res.t, "results": res, "model": model, "history": history, "figures": figures,
            "corridor": corridor, "checks": corridor_checks(figures, corridor)}


# ------------------------------------------------------------------------------------------
# whole human in a belted sled scenario (Gold Standard 1, Shaw et al. 2009)
# ------------------------------------------------------------------------------------------
BELTED_SLED_FIGURES = ("head_x_excursion_mm", "t1_x_excursion_mm", "t8_x_excursion_mm",
                       "l2_x_excursion_mm", "l4_x_excursion_mm", "hip_x_excursion_mm",
                       "knee_x_excursion_mm",
                       "t1_z_rise_mm", "t8_z_rise_mm", "pelvis_z_rise_mm",
                       "chest_deflection_mm", "shoulder_belt_force_kN",
                       "lower_shoulder_belt_force_kN", "lap_belt_force_kN",
                       "t1_x_deceleration_g", "t8_x_deceleration_g", "l2_x_deceleration_g",
                       "right_acromion_x_excursion_mm", "left_acromion_x_excursion_mm")
SHOULDER_SEGMENT, LAP_SEGMENT = "belt.d_ring-shoulder", "belt.hip_outboard-lap_anchor"
LAP_SEGMENT_SEPARATE = "lap_belt.lap_anchor-hip_outboard"   # a belt of kind "separate"
# the lower shoulder belt: the shoulder belt's segment into the buckle (its last torso wrap to the
# buckle's anchor or slip ring), where GS1's lower shoulder belt load cell sat
LOWER_SHOULDER_SUFFIX = "-buckle.force"
CHEST_OUTPUT = "chest_translation.deflection"   # the human's sternum travel (m, to the spine < 0)
# Where the vertebrae lie on the human's trunk segments. The builder's trunk segments are de
# Leva's (1996) (occupant/human/data/deleva1996.toml), cut at the omphalion (the navel) and the
# xiphion (the sterno-xiphoid junction [U]); the umbilical plane lies level with the L3/L4 disc and
# the sterno-xiphoid plane with the T9/T10 disc (L.B. Rawling, "Landmarks and Surface Markings of
# the Human Body", "Other transverse planes with their corresponding vertebral levels"; Gray's
# Anatomy (1918), surface anatomy of the abdomen: the umbilicus at the L3/L4 disc, the
# sterno-xiphoid junction at T10) [S]. So the upper torso carries T1-T9 (its frame's origin the
# T9/T10 level at the xiphion, T1 its lower neck joint), the lumbar segment T10-L3 (six bodies,
# its origin the L3/L4 level) and the pelvis L4, L5 and the sacrum; the bodies taken as equally
# tall [E]. The lumbar-pelvis joint, L3/L4, stands the pelvis's two levels above Reed et al.'s
# L5/S1 (builder.lumbar_pelvis_height; at the omphalion to stop 44, 41 mm lower for the 50th
# male). T8's centre lies 1.5 of the upper torso's nine bodies above its origin (read before as
# 4.5 of twelve above T12/L1)
UPPER_TORSO_BODIES, LUMBAR_BODIES = 9, 6     # T1-T9, T10-L3 [D] of the levels above
PELVIS_LEVELS = 2                            # L4, L5 (L5/S1 -> L3/L4) [D] of the levels above
T8_FRACTION = 1.5 / UPPER_TORSO_BODIES
# The acromia read at the shoulder shells' outboard ends on the upper torso (builder.shoulder_shells:
# ANSUR II's acromion, 0.1184 H from the midline, 0.0436 H below C7) [D]. Read before at the
# shoulder joints' centres, which stand at about the acromion's height (the Hybrid III's, 0.0441 H
# below C7) but 0.0088 H (15 mm) inboard of it; a real glenohumeral centre lies well below the
# acromion (scenarios/validation/HISTORY.md, GS1 'The shoulder joints below the acromia')


def acromion_points(source):
    """{side: the acromion, m in the upper torso frame}: each shoulder shell's outboard end on its
    lateral semi-axis (``source``: the human's Assembly)."""
    points = {}
    for side, sgn in (("right", -1.0), ("left", 1.0)):
        shell = source.geometries.get(f"{side}_shoulder_shell")
        if shell is not None:
            frame = source.markers[shell.marker]
            lateral = np.array([0.0, sgn * shell.semi_axes[1], 0.0])
            points[side] = np.asarray(frame.position, float) + np.asarray(frame.rotation, float) @ lateral
    return points


# L2 and L4 as fractions of the lumbar segment's length (its origin the lumbar-pelvis joint,
# L3/L4; its top the thorax-lumbar joint, T9/T10; above): L2's centre 1.5 of its six bodies above
# L3/L4; L4's half a body below it, on the pelvis (negative: read on the pelvis, from the
# lumbar-pelvis joint along the pelvis's z; at the posture's zero joint angle the two frames are
# parallel). Read before at 3.5 and 1.5 of five bodies above the joint taken for L5/S1: two
# vertebrae too high (branch gs1pelvis, scenarios/validation/HISTORY.md)
LUMBAR_FRACTIONS = {"l2": 1.5 / LUMBAR_BODIES, "l4": -0.5 / LUMBAR_BODIES}
# The spine accelerometers' channel class: the corridors' source (the SAFER GS1 folder's
# T1/T8/L2_x_acc files) states none; SAE J211's class for spine accelerations, CFC 180 (49 CFR
# 572.200: T1, T12 and pelvis accelerations; crash-domain-facts.md) [E: not stated for GS1]
SPINE_ACCEL_CFC = 180


def spine_accelerometers(t1_point, lumbar_top=None, t8=None):
    """The GS1 spine accelerometers as occupant sensors: T1 (``t1_point`` on the upper torso),
    T8 (``t8``: (body, point), by default T8_FRACTION of ``t1_point`` on the upper torso;
    thoracic_spine.t8_point) and, with ``lumbar_top``, L2 (LUMBAR_FRACTIONS["l2"] of it on the
    lumbar segment), each reading in its segment's J211 axes as a bone-mounted one does [E]."""
    from occupant.sensors import Accelerometer

    t1 = np.asarray(t1_point, float)
    t8_body, t8_at = t8 if t8 is not None else ("upper_torso", T8_FRACTION * t1)
    out = [Accelerometer("t1", body="upper_torso", point=tuple(t1)),
           Accelerometer("t8", location="THSP", body=t8_body,
                         point=tuple(np.asarray(t8_at, float)))]
    if lumbar_top is not None:
        out.append(Accelerometer("l2", body="lumbar",
                                 point=tuple(LUMBAR_FRACTIONS["l2"] * np.asarray(lumbar_top, float))))
    return out


def spine_channels(model, res):
    """The channels (X, Y, Z, m/s^2, each in its bone's J211 axes) of the GS1 spine
    accelerometers (``spine_accelerometers``) of the human ``model`` on its results ``res``: T1 at
    the lower neck joint (C7/T1), T8 (thoracic_spine.t8_point), L2 on the lumbar segment."""
    from occupant.human.thoracic_spine import t8_point
    from occupant.sensors import evaluate

    joints = model.source.joints
    sensors = spine_accelerometers(joints["lower_neck"].placement.position,
                                   joints["thorax_lumbar"].placement.position, t8_point(model))
    return evaluate(model, res, sensors, rate=1.0 / float(res.t[1] - res.t[0]))


def peak_deceleration_g(t, ax, cfc=SPINE_ACCEL_CFC):
    """The peak x deceleration (g, positive) of an x acceleration channel ``ax`` (m/s^2, J211: x
    forward) sampled at ``t`` (s, uniform), filtered at channel class ``cfc``; with the filtered
    channel (g)."""
    from occupant.injury.filters import cfc_filter

    a = cfc_filter(np.asarray(ax, float), float(t[1] - t[0]), cfc) / G0
    return float(-a.min()), a


def _check_belted_sled(check, scenario, base_dir):
    sled = check.string(scenario, "sled", "", required=True, what="crash scenario file of the sled")
    if not (base_dir / sled).is_file():
        check.fail("sled", f"no file {sled!r} next to the scenario", "a scenario path relative to it")
    check.number(scenario, "t_end", "", positive=True)
    check.number(scenario, "dt", "", positive=True)
    _check_corridor(check, scenario, BELTED_SLED_FIGURES)


def _lap_anchor_segment(outputs):
    """The lap belt's segment at its outboard anchorage (B6's, occupant.sensors.belt; e.g.
    LAP_SEGMENT, or LAP_SEGMENT_SEPARATE for a belt of kind "separate"), whichever wrap stands
    beside the anchorage: the pelvis's outboard hip, or a lap barrier (``restraints.belt.
    lap_barriers``)."""
    return next(k.removesuffix(".force") for k in outputs if k.endswith(".force") and (
        k.split(".")[-2].startswith("lap_anchor-") or k.split(".")[-2].endswith("-lap_anchor")))


def _first_segment(outputs, prefix):
    """The force output of the belt segment from the point that ``prefix`` names (the shoulder
    belt's from the upper anchorage, where GS1's upper shoulder belt load cell sat, whichever
    wrap follows it: the shoulder's, or the neck's before the shoulder's)."""
    return next(k for k in outputs if k.startswith(prefix) and k.endswith(".force"))


def _lower_shoulder_segment(outputs):
    """The force output of the shoulder belt's segment into the buckle (LOWER_SHOULDER_SUFFIX),
    or None when the run has none."""
    return next((k for k in outputs if k.startswith("belt.") and k.endswith(LOWER_SHOULDER_SUFFIX)),
                None)


def belted_sled_figures(res, model, t1_point, lumbar_top=None, accelerations=(), t8=None,
                        acromia=None, lumbar_base=None, pelvis_point=(0.0, 0.0, 0.0)):
    """Figures of a belted sled run: peak forward (x) excursions (mm) of the head's centre of
    gravity, of T1 (``t1_point``, m in the upper torso frame), of T8 (T8_FRACTION of the way from
    the upper torso frame's origin to T1), of L2 and L4 (LUMBAR_FRACTIONS of ``lumbar_top``, the
    thorax-lumbar joint in the lumbar frame, when given: a negative one on the pelvis below
    ``lumbar_base``, the lumbar-pelvis joint in the pelvis frame) and of the hip (the pelvis frame's
    origin, the H-point between the hip joint centres) and of the knees (the midpoint of the
    lower legs' frame origins, the knee joint centres, when the run has lower legs) relative to
    the sled (B0); the peak rises (up positive, mm) of T1, T8 and of the pelvis at
    ``pelvis_point`` (m in the pelvis frame; the H-point when not given) relative to the sled;
    the peak chest deflection (mm, the sternum's travel towards the spine, when the body
    has one, CHEST_OUTPUT); the peak shoulder belt forces at the upper anchorage and, when the
    belt has a segment into the buckle, there (the lower shoulder belt), and the peak lap belt
    force (kN); and the peak x
    decelerations (g) of the x channels ``accelerations`` (occupant Channels of
    ``spine_accelerometers``, m/s^2) at SPINE_ACCEL_CFC; with their histories. ``t8``: (body,
    point) of T8 where it is not T8_FRACTION of T1 on the upper torso (thoracic_spine.t8_point).
    ``acromia`` ({side: point, m in the upper torso frame}, acromion_points): the peak forward
    excursions of the right and left acromia relative to the sled (mm), which show the torso's
    turn about the belted shoulder."""
    sled = res.base_poses[:, :3, 3]
    head = res.body_com[:, model.body("head"), 0] - sled[:, 0]
    def on_body(body, point):  # (n, 3) of a point of a body relative to the sled
        P = res.body_poses[:, model.body(body)]
        return P[:, :3, :3] @ np.asarray(point, float) + P[:, :3, 3] - sled

    t1 = on_body("upper_torso", t1_point)
    t8 = on_body(*(t8 if t8 is not None else ("upper_torso", T8_FRACTION * np.asarray(t1_point, float))))
    hip = res.body_poses[:, model.body("pelvis"), :3, 3] - sled
    pelvis = on_body("pelvis", pelvis_point)
    lap = _lap_anchor_segment(res.outputs)
    hist = {"head_x_mm": 1e3 * (head - head[0]), "t1_x_mm": 1e3 * (t1[:, 0] - t1[0, 0]),
            "t8_x_mm": 1e3 * (t8[:, 0] - t8[0, 0]), "hip_x_mm": 1e3 * (hip[:, 0] - hip[0, 0]),
            "t1_z_mm": 1e3 * (t1[:, 2] - t1[0, 2]), "t8_z_mm": 1e3 * (t8[:, 2] - t8[0, 2]),
            "pelvis_z_mm": 1e3 * (pelvis[:, 2] - pelvis[0, 2]),
            "shoulder_belt_kN": res.outputs[_first_segment(res.outputs, "belt.d_ring-")] / 1e3,
            "lap_belt_kN": res.outputs[f"{lap}.force"] / 1e3}
    peaks = {"head_x_excursion_mm": "head_x_mm", "t1_x_excursion_mm": "t1_x_mm",
             "t8_x_excursion_mm": "t8_x_mm", "hip_x_excursion_mm": "hip_x_mm",
             "t1_z_rise_mm": "t1_z_mm", "t8_z_rise_mm": "t8_z_mm",
             "pelvis_z_rise_mm": "pelvis_z_mm",
             "shoulder_belt_force_kN": "shoulder_belt_kN", "lap_belt_force_kN": "lap_belt_kN"}
    if lumbar_top is not None:
        top = np.asarray(lumbar_top, float)
        if lumbar_base is None and min(LUMBAR_FRACTIONS.values()) < 0.0:
            raise ValueError("lumbar_base (the lumbar-pelvis joint in the pelvis frame) is needed "
                             "to read L4 on the pelvis")
        for name, f in LUMBAR_FRACTIONS.items():
            x = (on_body("lumbar", f * top) if f >= 0.0 else
                 on_body("pelvis", np.asarray(lumbar_base, float) + f * top))[:, 0]
            hist[f"{name}_x_mm"] = 1e3 * (x - x[0])
            peaks[f"{name}_x_excursion_mm"] = f"{name}_x_mm"
    for side, point in (acromia or {}).items():
        x = on_body("upper_torso", point)[:, 0]
        hist[f"{side}_acromion_x_mm"] = 1e3 * (x - x[0])
        peaks[f"{side}_acromion_x_excursion_mm"] = f"{side}_acromion_x_mm"
    if "left_lower_leg" in getattr(res, "body_names", ()):
        x = 0.5 * sum(res.body_poses[:, model.body(f"{side}_lower_leg"), 0, 3]
                      for side in ("left", "right")) - sled[:, 0]
        hist["knee_x_mm"] = 1e3 * (x - x[0])
        peaks["knee_x_excursion_mm"] = "knee_x_mm"
    lower = _lower_shoulder_segment(res.outputs)
    if lower is not None:
        hist["lower_shoulder_belt_kN"] = res.outputs[lower] / 1e3
        peaks["lower_shoulder_belt_force_kN"] = "lower_shoulder_belt_kN"
    if CHEST_OUTPUT in res.outputs:
        hist["chest_deflection_mm"] = -1e3 * np.asarray(res.outputs[CHEST_OUTPUT])   # compression +
        peaks["chest_deflection_mm"] = "chest_deflection_mm"
    figures = {name: float(hist[h].max()) for name, h in peaks.items()}
    for ch in accelerations:
        name = ch.name.split()[0]
        figures[f"{name}_x_deceleration_g"], hist[f"{name}_x_g"] = peak_deceleration_g(ch.t, ch.values)
    return figures, hist


def _run_belted_sled(scenario, path, dt, changes=None):
    """``changes``: more overrides of the sled's scenario ({dotted key: value}; a variant of the
    case, e.g. the belt fitted elsewhere), its figures held against the case's corridors."""
    from occupant.scenario.load import load
    from occupant.scenario.run import run_scenario
    from occupant.human.builder import proportions, sacral_canal
    from occupant.human.thoracic_spine import t8_point

    human = {"occupant.human." + k: v for k, v in scenario["human"].items()}
    overrides = dict(human)
    for key in ("t_end", "dt"):
        if key in scenario or (key == "dt" and dt):
            overrides[f"solver.{key}"] = dt if key == "dt" and dt else scenario[key]
    overrides.update(changes or {})
    sled = load(pathlib.Path(path).parent / scenario["sled"], overrides)
    run = run_scenario(sled)
    model, res = run.model, run.results
    t1_point = model.source.joints["lower_neck"].placement.position
    lumbar_top = model.source.joints["thorax_lumbar"].placement.position
    t8 = t8_point(model)
    channels = spine_channels(model, res)
    acromia = acromion_points(model.source)
    figures, hist = belted_sled_figures(res, model, t1_point, lumbar_top,
                                        [c for c in channels if c.name.endswith(" X")], t8, acromia,
                                        model.source.joints["lumbar_pelvis"].placement.position,
                                        sacral_canal(model.source.header["stature"], proportions()))
    corridor = dict(scenario["corridor"])
    return {"t": res.t, "results": res, "model": model, "run": run, "history": hist,
            "figures": figures, "corridor": corridor, "checks": corridor_checks(figures, corridor)}


# ------------------------------------------------------------------------------------------
# head-neck bent quasi-statically by a pure moment on the head, against a moment-angle corridor
# (Mertz 1989; occupant.human.neck_bend)
# ------------------------------------------------------------------------------------------
def _check_bend(check, scenario, base_dir):
    from occupant.human import neck_bend

    _check_data(check, scenario, base_dir)
    for key in ("moment_max_Nm", "ramp_s"):
        check.number(scenario, key, "", positive=True, required=True)
    check.number(scenario, "dt", "", positive=True)
    moments = scenario.get("read_at_Nm")
    if not isinstance(moments, list) or not moments or not all(
            isinstance(v, (int, float)) and 0 < v <= scenario["moment_max_Nm"] for v in moments):
        check.fail("read_at_Nm", f"{moments!r}",
                   "a list of moments in N m, each in (0, moment_max_Nm]")
    header = read_columns(scenario, base_dir)[0]
    missing = [f"{b}_{q}" for b in neck_bend.BOUNDARIES for q in ("moment_Nm", "angle_deg")
               if f"{b}_{q}" not in header]
    if missing:
        check.fail("data", f"{scenario['data']!r} has no column {', '.join(missing)}",
                   "columns upper_moment_Nm, upper_angle_deg, lower_moment_Nm, lower_angle_deg")


def _run_bend(scenario, path, dt):
    from occupant import simulate
    from occupant.human import neck_bend

    corridor_pts = neck_bend.read_corridor(read_columns(scenario, pathlib.Path(path).parent)[1])
    m_max, ramp = scenario["moment_max_Nm"], scenario["ramp_s"]
    asm = neck_bend.hold_sagittal(head_neck_on_t1(scenario))
    model = neck_bend.add_head_moment(asm, m_max, ramp).compile()
    res = simulate(model, ramp, integrator="rk4", dt=dt or scenario.get("dt", 2e-5),
                   output_dt=1e-3, gravity=(0.0, 0.0, 0.0))
    history = neck_bend.bend_readings(model, res)
    figures, corridor = {}, {}
    for m in scenario["read_at_Nm"]:
        name = neck_bend.figure_name(m)
        figures[name] = neck_bend.angle_at_moment(history["oc_moment_Nm"],
                                                  history["head_flexion_deg"], m)
        corridor[name] = neck_bend.corridor_angles(corridor_pts, m)
    return {"t": res.t, "results": res, "model": model, "history": history, "figures": figures,
            "corridor": corridor, "checks": corridor_checks(figures, corridor)}


@dataclass(frozen=True)
class Validation:
    """One kind of validation case: ``check(checker, scenario, base_dir)`` validates its keys,
    ``run(scenario, path, dt)`` returns a dict with t, history, corridor and checks
    ({figure: (value, inside)}); ``title`` says what it is in the report; ``keys``: the
    top-level keys it takes besides certification.TOP_KEYS and human."""
    check: object
    run: object
    title: str
    keys: tuple


VALIDATIONS = {
    "thorax_pendulum": Validation(_check_thorax, _run_thorax, "thorax pendulum",
                                  ("t_end", "impact_speed", "cfc", "deflection_cfc", "contact", "probe",
                                   "seat_contact", "corridor", "force_at", "unload_level_N")),
    "head_neck_sled": Validation(_check_sled, _run_sled, "head-neck on the measured T1 motion",
                                 ("t_end", "dt", "data", "inputs", "response_prefix", "figures",
                                  "onset_g", "read_at_ms", "rotation", "t1_cell")),
    "head_neck_twist": Validation(_check_twist, _run_twist,
                                  "head-neck, T1 turned under the clamped head",
                                  ("t_end", "dt", "data", "inputs", "response_prefix", "figures")),
    "head_neck_bend": Validation(_check_bend, _run_bend,
                                 "head-neck bent by a pure moment on the head, quasi-static",
                                 ("dt", "data", "moment_max_Nm", "ramp_s", "read_at_Nm")),
    "belted_sled": Validation(_check_belted_sled, _run_belted_sled, "whole body, belted sled",
                              ("t_end", "sled", "corridor")),
}


def run_validation(name_or_path, dt=None):
    scenario, path = read_scenario(name_or_path)
    out = VALIDATIONS[scenario["test"]].run(scenario, path, dt)
    out["scenario"] = str(path)
    return out


def report_lines(out, scenario):
    """Printable lines: every figure against its corridor, IN or OUT."""
    lines = [f"{scenario['name']}: human {VALIDATIONS[scenario['test']].title} "
             f"({scenario.get('title', '')})"]
    for name, (value, ok) in out["checks"].items():
        lo, hi = out["corridor"][name]
        lines.append(f"  {name:28s} {value:9.2f} {f'[{lo:g}, {hi:g}]':>20s}  {'IN' if ok else 'OUT'}")
    return lines
