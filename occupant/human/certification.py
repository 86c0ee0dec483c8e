"""Runners of the Part 572 certification tests (scenarios/certification), one registry
``TESTS`` keyed by a scenario's ``test`` key: the neck pendulum here (issue 4 section 5), the
contact tests (head drop, thorax pendulum, knee impact) in ``occupant.human.impact_tests``.
``run_certification(name)`` runs any of them and ``report_lines`` prints its figures.

Neck pendulum (49 CFR 572.33 for the 50M, 572.133 for the 5F): the head-neck assembly hangs
head-down from the neck bracket at the lower end of the pendulum arm. The base B0 (the bracket)
swings with the arm about the pivot (``pendulum_motion``): the tabulated deceleration is the
tangential one at the pendulum accelerometer, so the arm's angular deceleration is it over the
accelerometer radius; the bracket, further out, decelerates more, and in the turning arm's frame
the head is also pulled outwards (down the arm) while the arm still swings.
Outputs: D-plane rotation of the head relative to the pendulum (flexion positive) and the moment
about the occipital condyles. Our upper-neck joint *is* the OC, so the OC moment is the joint's
resistance moment directly; M_OC = My - 0.01778 m Fx is the conversion the physical load cell
needs and is not applied here. ``evaluate`` reads the CFR figures off the response,
``pulse_checks`` checks the pulse against the CFR pulse tables; ``occupant certify`` prints both.
"""
from dataclasses import dataclass

import numpy as np
from scipy.integrate import cumulative_trapezoid

from occupant.constants import G0, STANDARD_GRAVITY
from occupant.human import impact_tests
from occupant.human.assemble import assemble
from occupant.human.loader import load_description
from occupant.io.toml_files import (
    FileChecker, InputFileError, given_as_path, located, read_toml, refused_name, resolve_shipped,
    shipped_names,
)
from occupant.model import BaseMotion
from occupant.modeling import ModelingError
from occupant.spatial import rot_y

SCENARIO_FOLDER = "scenarios/certification"


def available_scenarios():
    return shipped_names(SCENARIO_FOLDER)


def read_scenario(name_or_path):
    """(scenario dict, path) of a shipped certification scenario name or a .toml path, with the
    keys its test's runner reads validated; a dummy given by a relative path read from the
    scenario's folder (occupant.io.toml_files.located)."""
    path = resolve_shipped(name_or_path, SCENARIO_FOLDER, "certification scenario")
    scenario = read_toml(path)
    check = FileChecker(path)
    test = read_test_key(check, scenario, TESTS, "certification")
    check.keys(scenario, TOP_KEYS + TESTS[test].keys, "")
    TESTS[test].check(check, scenario)
    if isinstance(scenario.get("dummy"), str) and given_as_path(scenario["dummy"], path):
        scenario["dummy"] = str(located(scenario["dummy"], path))
    return scenario, path


# the top-level keys of every certification and validation scenario; each test adds its own
# (CertificationTest.keys, validation.Validation.keys): a key no runner reads is refused (a
# misspelt one ran the test with the runner's default, exit code 0)
TOP_KEYS = ("kind", "name", "title", "description", "test")


def read_test_key(check, scenario, tests, what):
    """The ``test`` key of a certification or validation (``what``) scenario, one of ``tests``; a
    crash scenario given instead (it read "test: missing") is told to go to ``occupant run``."""
    if "test" not in scenario and scenario.get("kind") == "scenario":
        check.fail("kind", f"a crash scenario, not a {what} test: run it with occupant run",
                   f"a {what} scenario with a test key: {', '.join(tests)}")
    if "test" not in scenario and "kind" in scenario:   # an interior, a dummy: "test: missing"
        check.fail("kind", f"a file of kind {scenario['kind']!r}, not a {what} test",
                   f"a {what} scenario: kind = \"scenario\" and a test key: {', '.join(tests)}")
    return check.string(scenario, "test", "", required=True, choices=tuple(tests), what=f"{what} test")


def _check_corridor(check, scenario, figures):
    """[corridor]: each figure the test computes, as [lower, upper]; at least one."""
    corridor = check.table(scenario, "corridor", "", required=True,
                           accepted="a table of [lower, upper] per figure")
    check.keys(corridor, sorted(figures), "corridor")
    if not corridor:
        check.fail("corridor", "no figure", ", ".join(figures))
    for key in corridor:
        lo, hi = check.vector(corridor, key, "corridor", n=2)
        if lo > hi:
            check.fail(f"corridor.{key}", f"lower {lo:g} above upper {hi:g}", "[lower, upper]")


def _check_dummy(check, scenario):
    """``dummy``: a shipped dummy or a dummy file (was found only when the test ran, in a message
    naming neither this file nor the key)."""
    name = check.string(scenario, "dummy", "", required=True, what="dummy name")
    try:
        resolve_shipped(name, "dummies", "dummy", kind="dummy", named_by=check.file)
    except InputFileError as err:
        check.fail("dummy", refused_name(err, name, check.file), err.accepted)


def check_characteristic(check, scenario, key):
    """[contact] or [seat_contact]: the characteristic's keys, and the characteristic they make
    (its own checks, ContactCharacteristic's, here at load with this file and key named)."""
    table = check.table(scenario, key, "", required=True, accepted="a table of contact characteristic keys")
    check.keys(table, list(impact_tests.CONTACT_KEYS), key)
    try:
        impact_tests.characteristic(table, key)
    except (ModelingError, TypeError) as err:   # "contact characteristic 'contact'.stiffness: ..."
        field, sep, problem = str(err).removeprefix(f"contact characteristic '{key}'.").partition(": ")
        if sep and field in impact_tests.CONTACT_KEYS:
            check.fail(f"{key}.{field}", problem)
        check.fail(key, str(err))


def _check_contact_test(check, scenario, numbers, figures, probe=False):
    """Keys of a contact test: dummy, t_end and ``numbers`` (positive), [contact] (the
    characteristic's keys), [probe] mass and face_radius, and the corridor of ``figures``."""
    _check_dummy(check, scenario)
    for key in ("t_end",) + tuple(numbers):
        check.number(scenario, key, "", positive=True, required=True)
    for key in ("cfc",) + (("deflection_cfc",) if "peak_deflection_mm" in figures else ()):
        cfc = check.number(scenario, key, "", required=True)
        if cfc not in CFC_CLASSES:
            check.fail(key, f"{cfc!r} is not an SAE J211 channel class",
                       ", ".join(map(str, CFC_CLASSES)))
    check_characteristic(check, scenario, "contact")
    if probe:
        table = check.table(scenario, "probe", "", required=True,
                            accepted="a table with mass (kg) and face_radius (m)")
        for key in ("mass", "face_radius"):
            check.number(table, key, "probe", positive=True, required=True)
    _check_corridor(check, scenario, figures)


def _check_neck_pendulum(check, scenario):
    """The keys the neck pendulum runner reads, with their accepted values."""
    check.string(scenario, "mode", "", required=True, choices=("flexion", "extension"),
                 what="test mode")
    for key in ("impact_speed", "t_end"):
        check.number(scenario, key, "", positive=True, required=True)
    pendulum = check.table(scenario, "pendulum", "", required=True,
                           accepted="a table with accelerometer_radius and neck_base_radius")
    for key in ("accelerometer_radius", "neck_base_radius"):
        check.number(pendulum, key, "pendulum", positive=True, required=True)
    _check_dummy(check, scenario)
    for key in ("pulse_ms_g", "corridor"):
        if key not in scenario:
            check.fail(key, "missing")


def _check_head_drop(check, scenario):
    _check_contact_test(check, scenario, ("drop_height",), HEAD_DROP_FIGURES)
    check.number(scenario, "pitch_deg", "", required=True)


def _check_thorax(check, scenario):
    _check_contact_test(check, scenario, ("impact_speed",), THORAX_FIGURES, probe=True)
    check_characteristic(check, scenario, "seat_contact")


def _check_knee(check, scenario):
    _check_contact_test(check, scenario, ("impact_speed",), KNEE_FIGURES, probe=True)
    check.string(scenario, "side", "", choices=("left", "right"))


def head_neck_model(dummy, modify=None):
    """The neck and head of a dummy, the lower neck joint fixed in place on the base B0.
    ``modify``: optional callable receiving the two segment records (neck, head) before assembly,
    used by the tuning record ``dummies/tools/tune_neck.py`` to try joint characteristics."""
    header, segs = load_description(dummy)
    keep = [s for s in segs if s.name in ("neck", "head")]
    keep[0].parent = None
    keep[0].location = np.zeros(3)
    if modify is not None:
        modify(keep)
    return assemble(f"{header['name']}_head_neck", keep).compile()


def pendulum_pulse(scenario):
    """(t s, deceleration m/s^2) scaled to integrate to the impact speed."""
    tab = np.array(scenario["pulse_ms_g"], float)
    t, a = tab[:, 0] * 1e-3, tab[:, 1] * G0
    scale = scenario["impact_speed"] / np.trapezoid(a, t)
    return t, a * scale, scale


def pulse_limits(scenario):
    """{figure: (kind, time s or None, lower, upper)} of the scenario's [pulse_corridor]."""
    pc = scenario.get("pulse_corridor", {})
    limits = {f"deceleration_g@{t_ms:g}ms": ("deceleration", t_ms * 1e-3, lo, hi)
              for t_ms, lo, hi in pc.get("deceleration_g", [])}
    if "max_after_30ms_g" in pc:
        limits["max_after_30ms_g"] = ("max_after_30ms", None, 0.0, pc["max_after_30ms_g"])
    if "through_5g_ms" in pc:
        limits["through_5g_ms"] = ("through_5g", None, *pc["through_5g_ms"])
    limits.update({f"delta_v_m_s@{t_ms:g}ms": ("delta_v", t_ms * 1e-3, lo, hi)
                   for t_ms, lo, hi in pc.get("delta_v_m_s", [])})
    return limits


def pulse_checks(scenario):
    """The scaled pendulum pulse against the scenario's [pulse_corridor] (49 CFR 572.33(c)(4)
    Tables A/B: deceleration at given times, its maximum after 30 ms, the time it first falls
    through 5 g; 572.133(c)(4)(ii): velocity change at given times). {figure: (value, inside)}."""
    t, a, _ = pendulum_pulse(scenario)
    out = {}
    for name, (kind, at, lo, hi) in pulse_limits(scenario).items():
        if kind == "deceleration":
            value = float(np.interp(at, t, a)) / G0
        elif kind == "max_after_30ms":
            # the piecewise-linear pulse on (30 ms, end]: its points there and its 30 ms limit
            value = float(max(np.interp(0.030, t, a), a[t > 0.030].max(initial=0.0))) / G0
        elif kind == "through_5g":
            value = _first_crossing_ms(t, a / G0, int(np.argmax(a)), 5.0)
        else:  # velocity change: the integral of the piecewise-linear pulse (exact by trapezoids)
            tk = np.append(t[t < at], at)
            value = float(np.trapezoid(np.interp(tk, t, a), tk))
        out[name] = (value, lo <= value <= hi)
    return out


def pendulum_motion(scenario, dt=1e-5):
    """BaseMotion of the neck bracket B0 on the swinging pendulum arm.

    World: pivot at the origin, the arm hanging along -z at time zero (impact) and swinging in the
    x-z plane, towards +x for flexion (the face leads) and -x for extension (s = +1, -1). The arm
    angle phi (from the vertical, positive towards +x) obeys r_a phi' = s v(t) with
    v(0) = impact_speed and r_a phi'' = -s a(t), the scaled pulse a at the accelerometer radius
    r_a (572.33(c)(4): speed and pulse are those of the accelerometer). The bracket at radius r_b
    then decelerates tangentially at r_b a / r_a, with the centripetal r_b phi'^2 towards the
    pivot. B0's z axis points down the arm (head below it), its x axis along the direction the
    face points. phi' (exactly: the pulse is linear between its points) and phi are integrated by
    trapezoids on a ``dt`` grid that holds the pulse's points, then interpolated linearly."""
    t_p, decel, _ = pendulum_pulse(scenario)
    arm = scenario["pendulum"]
    r_a, r_b = arm["accelerometer_radius"], arm["neck_base_radius"]
    sign = 1.0 if scenario["mode"] == "flexion" else -1.0
    t = np.union1d(np.arange(0.0, scenario["t_end"] + 2 * dt, dt), t_p)  # pulse corners kept
    acc = np.interp(t, t_p, decel, right=0.0)
    w = sign * (scenario["impact_speed"] - cumulative_trapezoid(acc, t, initial=0.0)) / r_a
    phi = cumulative_trapezoid(w, t, initial=0.0)
    wdot = -sign * acc / r_a
    flip = np.diag([1.0, -1.0, -1.0])  # B0: z down the arm, y so that the frame is right-handed

    def at(table):
        return lambda s: float(np.interp(s, t, table))
    phi_, w_, wdot_ = at(phi), at(w), at(wdot)

    def radial(s):  # unit vector pivot -> bracket
        return np.array([np.sin(phi_(s)), 0.0, -np.cos(phi_(s))])

    def tangential(s):  # unit vector of increasing phi
        return np.array([np.cos(phi_(s)), 0.0, np.sin(phi_(s))])

    return BaseMotion(
        position=lambda s: r_b * radial(s),
        rotation=lambda s: rot_y(-phi_(s)) @ flip,
        velocity=lambda s: r_b * w_(s) * tangential(s),
        angular_velocity=lambda s: np.array([0.0, -w_(s), 0.0]),
        acceleration=lambda s: r_b * (wdot_(s) * tangential(s) - w_(s) ** 2 * radial(s)),
        angular_acceleration=lambda s: np.array([0.0, -wdot_(s), 0.0]))


def run_neck_pendulum(scenario="hybrid3_50m_neck_flexion", dt=1e-4, modify=None, **options):
    """Run one neck pendulum test; returns a dict of time (s), rotation_deg, moment_Nm, the pulse
    and the corridor checks. ``modify`` is passed to ``head_neck_model``, ``options`` (integrator,
    rtol, ...) to ``simulate``; the run's work counters are in "stats"."""
    from occupant import simulate  # late import: simulate sits above this package

    sc, path = read_scenario(scenario)
    model = head_neck_model(sc["dummy"], modify)
    base = pendulum_motion(sc)
    res = simulate(model, sc["t_end"], dt=dt, base_motion=base, gravity=STANDARD_GRAVITY, **options)
    # head orientation relative to the pendulum (B0), then relative to its start; the pitch about
    # the head's y (left) axis is positive for a nod towards the face (flexion), as the D-plane
    # rotation of the flexion test
    head = np.einsum("tji,tjk->tik", res.base_poses[:, :3, :3],
                     res.body_poses[:, model.body("head"), :3, :3])
    rel = np.einsum("ji,tjk->tik", head[0], head)
    rotation = np.degrees(np.arctan2(rel[:, 0, 2], rel[:, 0, 0]))
    # the OC moment: the load of the upper neck's flexion/extension resistance, as recorded
    moment = -res.outputs["upper_neck_y.load"]
    out = {"scenario": str(path), "t": res.t, "rotation_deg": rotation, "moment_Nm": moment,
           "pulse_scale": pendulum_pulse(sc)[2], "status": getattr(res, "status", None),
           "stats": res.stats}
    out["checks"] = evaluate(out, sc["corridor"], sc["mode"])
    return out


def _first_crossing_ms(t, y, start, level):
    """Time (ms) at which y, from sample ``start`` on, first falls to ``level`` (linear
    interpolation between samples), or nan."""
    after = np.nonzero(y[start:] <= level)[0]
    if not len(after):
        return float("nan")
    k = start + after[0]
    if k == 0:
        return float(t[0] * 1e3)
    y0, y1 = y[k - 1], y[k]
    frac = (y0 - level) / (y0 - y1) if y0 != y1 else 1.0
    return float((t[k - 1] + frac * (t[k] - t[k - 1])) * 1e3)


def _peak(t, y, k):
    """(value, time s) of the peak of samples y around index k, refined by the parabola through
    samples k-1, k, k+1 (equal steps), so that peak times are not quantised to the step."""
    if k == 0 or k == len(y) - 1:
        return float(y[k]), float(t[k])
    y0, y1, y2 = y[k - 1], y[k], y[k + 1]
    curvature = y0 - 2.0 * y1 + y2
    shift = 0.5 * (y0 - y2) / curvature if curvature < 0 else 0.0
    return float(y1 - 0.25 * (y0 - y2) * shift), float(t[k] + shift * (t[k + 1] - t[k]))


def evaluate(out, corridor, mode):
    """The response against the corridor of the test (49 CFR 572.33(b) / 572.133(b)): peak D-plane
    rotation and its time, the time the rotation first crosses zero in rebound, the peak OC
    moment (over the whole test, or only while the rotation is inside its corridor, as 572.133
    words it) and its time, and the time the moment first decays to a level. Every figure the
    corridor names is returned as (value, inside); signs are those of the test direction."""
    s = 1.0 if mode == "flexion" else -1.0
    rot, mom, t = s * out["rotation_deg"], s * out["moment_Nm"], out["t"]
    k_rot = int(np.argmax(rot))
    lo, hi = corridor["peak_rotation_deg"]
    peak, at = _peak(t, rot, k_rot)
    figures = {"peak_rotation_deg": peak, "peak_rotation_time_ms": at * 1e3,
               "rebound_zero_time_ms": _first_crossing_ms(t, rot, k_rot, 0.0)}
    window = np.ones(len(t), bool)
    if corridor.get("peak_moment_within_rotation_corridor", False):
        window = (rot >= lo) & (rot <= hi)
    if window.any():
        k_mom = int(np.flatnonzero(window)[np.argmax(mom[window])])
        inner = window[max(k_mom - 1, 0):k_mom + 2].all()  # refine only off the window's edges
        peak, at = _peak(t, mom, k_mom) if inner else (float(mom[k_mom]), float(t[k_mom]))
        figures["peak_moment_Nm"] = s * peak
        figures["peak_moment_time_ms"] = at * 1e3
    else:
        k_mom = int(np.argmax(mom))
        figures["peak_moment_Nm"] = figures["peak_moment_time_ms"] = float("nan")
    figures["decay_time_ms"] = _first_crossing_ms(t, mom, k_mom, s * corridor["decay_to_Nm"])
    return {name: (value, bool(corridor[name][0] <= value <= corridor[name][1]))
            for name, value in figures.items() if name in corridor}


def corridor_checks(figures, corridor):
    """{figure: (value, inside)} for every figure the corridor names."""
    return {name: (float(figures[name]), bool(lo <= figures[name] <= hi))
            for name, (lo, hi) in corridor.items() if name in figures}


def _run_contact(run):
    def runner(scenario, path, dt):
        out = run(scenario) if dt is None else run(scenario, dt=dt)
        out["scenario"] = str(path)
        out["checks"] = corridor_checks(out["figures"], scenario["corridor"])
        return out
    return runner


def _run_neck(scenario, path, dt):
    out = run_neck_pendulum(str(path), dt=dt or 1e-4)
    out["history"] = {"rotation_deg": out["rotation_deg"], "oc_moment_Nm": out["moment_Nm"]}
    return out


@dataclass(frozen=True)
class CertificationTest:
    """One kind of certification test: ``check(checker, scenario)`` validates the scenario's
    keys, ``run(scenario, path, dt)`` returns a dict with t, history ({column: (n,) array}) and
    checks ({figure: (value, inside)}); ``title`` says what it is in the report; ``input_checks``
    (optional) returns the ({figure: (lower, upper)}, checks) of the test's input (a pulse);
    ``keys``: the top-level keys it takes besides TOP_KEYS."""
    check: object
    run: object
    title: str
    keys: tuple
    input_checks: object = None


def _neck_pulse(scenario):
    return ({name: lim[2:] for name, lim in pulse_limits(scenario).items()},
            pulse_checks(scenario))


CFC_CLASSES = (60, 180, 600, 1000)
HEAD_DROP_FIGURES = ("peak_resultant_g", "peak_lateral_g", "oscillation_percent")
THORAX_FIGURES = ("peak_force_N", "peak_deflection_mm", "hysteresis_percent",
                  "peak_force_18_to_50mm_N")
KNEE_FIGURES = ("peak_force_N",)
TESTS = {
    "neck_pendulum": CertificationTest(_check_neck_pendulum, _run_neck, "neck {mode} pendulum",
                                       ("dummy", "mode", "impact_speed", "t_end", "pendulum",
                                        "pulse_ms_g", "pulse_corridor", "corridor"),
                                       _neck_pulse),
    "head_drop": CertificationTest(_check_head_drop, _run_contact(impact_tests.run_head_drop),
                                   "head drop", ("dummy", "t_end", "drop_height", "pitch_deg", "cfc",
                                                 "contact", "corridor")),
    "thorax_pendulum": CertificationTest(_check_thorax,
                                         _run_contact(impact_tests.run_thorax_pendulum),
                                         "thorax pendulum",
                                         ("dummy", "t_end", "impact_speed", "cfc", "deflection_cfc",
                                          "contact", "probe", "seat_contact", "corridor")),
    "knee_impact": CertificationTest(_check_knee, _run_contact(impact_tests.run_knee_impact),
                                     "knee impact", ("dummy", "t_end", "impact_speed", "cfc", "contact",
                                                     "probe", "side", "corridor")),
}


def run_certification(name_or_path, dt=None):
    """Run one certification scenario (a shipped name or a .toml path) with the runner its
    ``test`` key selects; ``dt`` None: the runner's default step. With the test's input checks
    (a pulse's) as ``input_checks`` and their corridors as ``input_limits``: a test whose input
    is outside its corridor is no valid test, and fails as a response outside would."""
    scenario, path = read_scenario(name_or_path)
    test = TESTS[scenario["test"]]
    out = test.run(scenario, path, dt)
    out["input_limits"], out["input_checks"] = test.input_checks(scenario) if test.input_checks else ({}, {})
    return out


def report_lines(out, scenario):
    """Printable lines: every pulse and response figure against its corridor, PASS or FAIL."""
    test = TESTS[scenario["test"]]
    lines = [f"{scenario['name']}: {scenario['dummy']} {test.title.format(mode=scenario.get('mode', ''))}"]
    limits = {**scenario["corridor"], **out["input_limits"]}
    sections = [("pulse", out["input_checks"]), ("response", out["checks"])]
    for title, checks in sections:
        for name, (value, ok) in checks.items():
            span = f"[{limits[name][0]:g}, {limits[name][1]:g}]"
            lines.append(f"  {title:8s} {name:24s} {value:9.2f} {span:>16s}  {'PASS' if ok else 'FAIL'}")
    return lines
