"""Where the belted frontal dummies' shoulder belt first meets the torso at the start (issue 11;
scenarios/HISTORY.md, dummyclav, dummyshoulder and beltlow)."""
import numpy as np
import pytest

from occupant.restraints.belt_clearance import belt_depths, ellipsoids_at
from occupant.scenario import load

# Half the webbing's width: its centreline this far outboard of the neck keeps its inboard edge
# off it. 38 mm webbing [S: Park et al. 2018, Traffic Inj. Prev. 19(S1) S65-S69, abstract: "the
# belt width in this study was 38 mm"; the narrowest found, so the smallest clearance]
HALF_WEBBING = 0.019    # m


def _in_b0(run, body, k=0):
    """4x4 pose of ``body`` in the vehicle frame B0 at sample k."""
    res = run.results
    return np.linalg.inv(res.base_poses[k]) @ res.body_poses[k, res.body_names.index(body)]


def first_touch(run, k=0):
    """The point (B0, m) where the shoulder belt from the D-ring first meets the thorax
    ellipsoid at sample k. In the ellipsoid's scaled frame (the unit sphere) the shoulder wrap
    lies on a circle of the sphere: on its shortest path (no ``across``: the shipped frontal
    belts) the great circle through the centre, the D-ring and the wrap's middle (its recorded
    point, ``modeling.belts.Wrap``); held (``across``, ``shoulder_at``) the circle in the plane
    through the D-ring, its middle and the next point, the chest wrap's (``restraints.fitting``:
    a held wrap's point lies in the plane through its neighbours and its place). The belt meets
    the sphere where the line from the D-ring is tangent to that circle, on its middle's side."""
    out = run.results.outputs
    d_ring, middle, chest = (np.array([out[f"belt.{n}.{a}"][k] for a in "xyz"])
                             for n in ("d_ring", "shoulder", "chest"))
    wrap = next(p for p in run.model.source.belts["belt"].points if p.name == "shoulder")
    c, R, semi = ellipsoids_at(run, k, ["thorax"])["thorax"]
    d, m, nxt = (R.T @ (p - c) / semi for p in (d_ring, middle, chest))
    n = np.cross(m - d, (nxt if wrap.across is not None else np.zeros(3)) - d)
    n /= np.linalg.norm(n)
    q = (n @ d) * n                                    # the circle's centre and radius
    r = np.sqrt(1.0 - q @ q)
    v = d - q
    length = np.linalg.norm(v)
    side = np.cross(n, v / length)
    side *= np.sign(side @ (m - q))                    # towards the wrap's middle
    cos = r / length
    return c + R @ (semi * (q + r * (cos * v / length + np.sqrt(1.0 - cos ** 2) * side)))


def crossing(run, k=0):
    """(how far outboard of the neck's base the belt first meets the thorax, the inboard bound,
    the outboard bound) m at sample k, across the upper torso (its y axis, + towards the
    D-ring): the bounds are the neck shell's side plus half the webbing and the outboard
    shoulder joint (the upper arm's origin)."""
    torso = _in_b0(run, "upper_torso", k)
    across = torso[:3, 1] * np.sign(run.results.outputs["belt.d_ring.y"][k])
    base = _in_b0(run, "neck", k)[:3, 3]
    joints = [_in_b0(run, arm, k)[:3, 3] for arm in ("left_upper_arm", "right_upper_arm")]
    shoulder = max((j - base) @ across for j in joints)
    neck_side = run.model.source.geometries["neck_shell"].semi_axes[1]
    return (first_touch(run, k) - base) @ across, neck_side + HALF_WEBBING, shoulder


@pytest.fixture(scope="module", params=["us_ncap_frontal_56", "euro_ncap_full_width_50",
                                        "fmvss208_sled_48_belted"])
def fitted(request):
    """A belted frontal scenario's first half millisecond: its belt as fitted."""
    return load(request.param, {"solver.t_end": 0.0005}).run()


def test_identity_first_touch_is_on_the_thorax_and_its_span_tangent(fitted):
    """The first touch lies on the thorax ellipsoid, the span from the D-ring meets it there at
    a right angle to its normal (tangent), and it lies between the D-ring and the wrap's
    recorded middle on the wrap's great circle (closer to the middle than the D-ring is)."""
    out = fitted.results.outputs
    p = first_touch(fitted)
    c, R, semi = ellipsoids_at(fitted, 0, ["thorax"])["thorax"]
    local = R.T @ (p - c)
    assert np.linalg.norm(local / semi) == pytest.approx(1.0, abs=1e-9)
    normal = R @ (local / semi ** 2)
    d_ring, middle = (np.array([out[f"belt.{n}.{a}"][0] for a in "xyz"])
                      for n in ("d_ring", "shoulder"))
    span = (p - d_ring) / np.linalg.norm(p - d_ring)
    assert abs(span @ normal) / np.linalg.norm(normal) < 1e-9
    assert np.linalg.norm(p - middle) < np.linalg.norm(d_ring - middle)


@pytest.mark.xfail(strict=True, reason=(
    "the belt, fitted on its shortest path over the thorax ellipsoid, first meets it in front "
    "of the neck's base, -7 / +43 / -40 mm outboard of it (US NCAP 50M, Euro NCAP 5F, FMVSS 208 "
    "sled 50M; the zone 64-192 / 59-164 / 64-192 mm), its path across the neck's front (4.6 "
    "mm clear of the neck shell on US NCAP, 5.3 mm inside it on the sled). Not the body's "
    "shape: the shortest path from the D-ring to the buckle over the dummy's own thorax, "
    "sternum pad, abdomen, pelvis and thighs first meets the torso 117 / 148 / 98 mm out, "
    "18-26 mm shorter than the fitted path; the fit wraps the thorax only and runs straight on "
    "to the buckle, which pulls its chest wrap up to 124 mm below the neck's base on US NCAP "
    "(the open FE 5F's own sled belt crosses her midline 120 mm below hers and her shoulder 118 "
    "mm out: scenarios/HISTORY.md, dummyshoulder). Held where it is fitted (shoulder_at) the "
    "chest wrap on its shortest path jumps across the thorax (shoulder-chest 23.1 / 61.1 / "
    "42.4 kN); the whole torso held (across 0.3) from heldacross2's fit over the clavicle it is "
    "sound and starts 62 / 84 / 54 mm out, from a fit 15 mm further out 75 mm on US NCAP: "
    "measured, not shipped (scenarios/HISTORY.md, heldacross2 and dummyclav)"))
def test_reference_dummy_shoulder_belt_crosses_between_neck_and_shoulder(fitted):
    """As fitted, the shoulder belt first meets the torso on the shoulder between the neck and
    the shoulder joint: its centreline outboard of the neck shell's side by half the webbing
    (its inboard edge off the neck) and inboard of the shoulder joint (on the shoulder).
    The rule is the fitting guidance's, "on the shoulder ... close to, but not contacting, the
    neck" [S: GM owner's manuals]; the test procedures prescribe no crossing (FMVSS 208 S10.9
    and NHTSA's NCAP procedure: the belt placed round the dummy, its upper torso webbing pulled
    out and let retract four times [S]), so the belt lies where its retraction puts it, as the
    model's shortest-path fit does, and the crossing rests on the body's shape."""
    at, inboard, outboard = crossing(fitted)
    assert inboard <= at <= outboard


def test_reference_dummy_shoulder_belt_is_fitted_in_front_of_the_neck(fitted):
    """As fitted, no shoulder belt of the dummies lies round the back of the neck: none
    crosses the neck's midplane behind its axis (``defects.behind_the_neck``; their belts cross
    80 / 72 / 86 mm ahead of the neck's base: scenarios/HISTORY.md, dummyclav)."""
    from occupant.scenario.defects import belt_defects
    assert [d.text() for d in belt_defects(fitted.model, fitted.results)
            if d.kind == "belt behind the neck"] == []


@pytest.fixture(scope="module")
def human_fitted():
    """us_ncap_frontal_56 with the 50th male human, his shoulder belt on its shortest path over
    the thorax (``clavicle = false``: the human's default route before branch clavdefault, kept
    here because this test holds that route's geometry): its first half millisecond."""
    return load("us_ncap_frontal_56", {"occupant.human.sex": "male", "solver.t_end": 0.0005,
                                       "restraints.belt.clavicle": False}).run()


def test_regression_human_shoulder_belt_fitted_behind_the_neck_is_a_defect(human_fitted):
    """The parametric human's shoulder belt in a dummy's scenario, on its shortest path over its
    thorax ellipsoid (whose crown stands behind the neck; ``clavicle = false``, the default
    before branch clavdefault), is fitted round the back of its neck
    and over its inboard shoulder, and its run says so: one line, the belt's piece from the
    D-ring crossing the neck's midplane 59 mm behind the neck's axis (its back 73 mm behind it;
    the same 59.3 mm in aeb_precrash_frontal after settling, 63.3 at 224 ms of braking, where
    its neck barrier, holding the belt outboard of the neck, lets it through the neck's back
    11.7 mm deep; scenarios/HISTORY.md, neckside). Before, no line: the belt lay 3.6 mm inside
    the neck, within the 20 mm a belt's path is allowed."""
    from occupant.scenario.defects import belt_defects
    (d,) = [d for d in belt_defects(human_fitted.model, human_fitted.results)
            if d.kind == "belt behind the neck"]
    assert (d.element, d.body) == ("belt.d_ring-shoulder", "neck_shell")
    assert 1e3 * d.value == pytest.approx(59.3, abs=3.0)


@pytest.fixture(scope="module")
def human_on_the_clavicle():
    """us_ncap_frontal_56 with the 50th male human as shipped (no belt key: his belt routed over
    his clavicle by default since branch clavdefault): its first half millisecond."""
    return load("us_ncap_frontal_56", {"occupant.human.sex": "male", "solver.t_end": 0.0005}).run()


def test_regression_human_shoulder_belt_fitted_on_the_clavicle_in_front_of_the_neck(human_on_the_clavicle):
    """The parametric human's shoulder belt in a dummy's scenario fitted as a human body
    model's user routes it (``restraints.belt.clavicle``, branch humanroute; the human's default
    since branch clavdefault, scenarios/HISTORY.md): its shoulder wrap on its outboard (left) shoulder shell
    at mid-clavicle, ahead of the neck's axis and outboard of the neck by more than half the
    webbing, at or above the clavicle's plane (the shell's centre height); its run has no
    "belt behind the neck" line and no belt-depth line at the fit. Without it (the test above)
    on its shortest path over the thorax alone, over
    the thorax's crown (at the cervicale, 81 mm behind the neck's base) to its inboard side:
    belt.d_ring-shoulder crossing the neck's midplane 59.3 mm behind its axis, the shoulder
    wrap 95 mm inboard of the midline, the path 35.2 mm in the right shoulder shell."""
    from occupant.scenario.defects import belt_defects
    run = human_on_the_clavicle
    lines = [d for d in belt_defects(run.model, run.results)
             if d.kind in ("belt behind the neck", "belt depth")]
    assert lines == [], [d.text() for d in lines]
    wrap = next(p for p in run.model.source.belts["belt"].points if p.name == "shoulder")
    assert wrap.geometry == "left_shoulder_shell"
    out = run.results.outputs
    at = np.array([out[f"belt.shoulder.{a}"][0] for a in "xyz"])
    neck = _in_b0(run, "neck")
    local = neck[:3, :3].T @ (at - neck[:3, 3])      # the neck's base frame: x ahead, y left
    radius = run.model.source.geometries["neck_shell"].semi_axes[1]
    assert local[0] > 0.0 and local[1] > radius + HALF_WEBBING, local
    shell, = ellipsoids_at(run, 0, ["left_shoulder_shell"]).values()
    c, R, _ = shell
    assert (R.T @ (at - c))[2] >= -1e-6


def test_reference_only_a_human_in_a_dummys_seat_gets_the_clavicle_route():
    """The clavicle route is the parametric human's default in a dummy's scenario, not a
    dummy's (its belt on its thorax's shortest path, the crossings above) nor GS1's validation
    sled's (``clavicle = false`` in its file: the case's figures are measured on its own fit,
    scenarios/validation/HISTORY.md), nor a human's whose scenario places the shoulder wrap
    itself (``shoulder_at``; tests/scenario/test_scenario_fw_side_rear.py). Fails on main
    428902a3: the human's shoulder wrap there lies on the thorax, with no abdomen wrap."""
    from pathlib import Path

    from occupant.human.validation import read_scenario

    def wraps(scenario, overrides):
        return {p.name: p for p in load(scenario, overrides).model.source.belts["belt"].points}
    human = wraps("fmvss208_sled_48_belted", {"occupant.human.sex": "male"})
    assert human["shoulder"].geometry == "right_shoulder_shell"     # the sled's outboard side -y
    assert human["shoulder"].flank is not None and "abdomen" in human
    dummy = wraps("fmvss208_sled_48_belted", {})
    assert dummy["shoulder"].geometry == "thorax" and dummy["shoulder"].flank is None
    assert "abdomen" not in dummy
    case, path = read_scenario("human_sled_gs1_40")
    gs1 = wraps(Path(path).parent / case["sled"],
                {f"occupant.human.{k}": v for k, v in case["human"].items()})
    assert gs1["shoulder"].geometry == "thorax" and gs1["shoulder"].flank is None


@pytest.mark.parametrize("fit, measured", [
    pytest.param({"restraints.belt.shoulder_at": [0.069, 0.096, 0.141]}, 0.0849, marks=pytest.mark.xfail(
        strict=False, reason="bistable (the docstring): the same code ends the settling on this path "
        "on the machine of stops 52-58 and on the other, -0.0186 m, on an AMD EPYC (stop 59): "
        "floating-point differences between machines (CPU or library builds) choose the path")),
    ({"restraints.belt.shoulder_at": [0.069, 0.105, 0.137], "restraints.belt.across": 0.3},
     0.0754)])
def test_reference_crossing_measured_at_a_belt_fitted_on_the_shoulder(fit, measured):
    """The crossing's measure tells a belt fitted on the shoulder from the shipped one: US
    NCAP's shoulder wrap fitted at the 50M's mid-shoulder on the thorax (``shoulder_at``, 96 mm
    outboard of the midline at the neck's base's height; held there, the chest wrap free) first
    meets it 85 mm outboard of the neck's base, and with
    the whole torso held (``across``) from
    a fit 105 mm out 75 mm: inside the zone (64-192 mm) the shipped fit misses (-7 mm: the
    strict xfail above). The first fit is bistable: from the buckle's 0.2 (branch frictionsrc)
    its free chest wrap ended the settling on the other path across the thorax (the jump the
    xfail above names), 16 mm inboard of the neck's base (-0.0164 m; -0.0166 with the buckle at
    0.25), a strict xfail; with the belts' and joints' hysteresis started on their loading
    history (branch hysstart) or the 50M's ankle free to roll to 22.9 deg (his FE deck's law,
    branch ankle50), each alone, it ends on this path again, 0.0849 m: the jump rests on small
    differences of the settling. With the belts buckled for the settling's last 0.1 s only
    (branch settlefast) it ended on the other path again (-0.0176 m); with the webbing's flow
    then made continuous where a wrap starts or stops slipping (branch bistable) it ends on this
    path (0.0852 m), and settled belted throughout (``occupant.settle_belted``) on the other
    (-0.0164 m): measured at stop 52."""
    run = load("us_ncap_frontal_56", {"solver.t_end": 0.0005, **fit}).run()
    at, inboard, outboard = crossing(run)
    assert inboard <= at <= outboard
    assert at == pytest.approx(measured, abs=0.002)


# The body the whole-body shortest path goes over: the dummy's own torso, lower torso and thighs
# (the upper arms added leave it where it is: scenarios/HISTORY.md, dummyshoulder).
BODY = ("thorax", "sternum_pad", "abdomen", "pelvis_flesh", "left_thigh_shell", "right_thigh_shell")


# How hard the shortest path's points are kept evenly spaced along it, per mm^2 of a segment's
# length off their mean: the penalty holds the points alone, and without this they gathered at
# the path's corners and left a 262 mm chord from the abdomen's top to the pelvis's flank that
# passed 60 mm through the abdomen and 68 mm through the pelvis flesh (US NCAP; scenarios/
# HISTORY.md, beltlow). Zero at even spacing, so the taut string's shape is kept [E]
SPACING = 1.0   # 1/mm


def taut_path(a, b, ellipsoids, start):
    """The shortest path from point a to point b (mm) outside ``ellipsoids`` [(centre, axes R,
    semi-axes), mm] from the polyline ``start`` ((n, 3), its inner points): the points move to
    the polyline's least length plus k times the sum of each point's squared depth inside each
    ellipsoid (along its scaled radius, times the smallest semi-axis), k raised from 1e1 to 1e5
    per mm (a depth left of about 1 / (2 k) mm at unit tension), plus SPACING times the sum of
    the squared differences of its segments' lengths from their mean (the points evenly spaced,
    so no chord between them passes through a body). A frictionless taut string,
    independent of the model's fit (``restraints.fitting``): no wraps, no order of contact."""
    from scipy.optimize import minimize

    def cost(v, k):
        x = np.vstack([a, v.reshape(-1, 3), b])
        seg = np.diff(x, axis=0)
        length = np.linalg.norm(seg, axis=1)
        grad = np.zeros_like(x)
        unit = seg / length[:, None]
        grad[:-1] -= unit
        grad[1:] += unit
        value = length.sum()
        even = length - length.mean()               # the points kept evenly spaced
        value += SPACING * (even ** 2).sum()
        grad[:-1] -= (2.0 * SPACING * even)[:, None] * unit
        grad[1:] += (2.0 * SPACING * even)[:, None] * unit
        for c, R, s in ellipsoids:
            q = ((x - c) @ R) / s
            r = np.linalg.norm(q, axis=1)
            depth = (1.0 - r) * s.min()
            inside = depth > 0.0
            value += k * (depth[inside] ** 2).sum()
            grad[inside] -= (2.0 * k * depth[inside] * s.min() / r[inside])[:, None] \
                * ((q[inside] / s) @ R.T)
        return value, grad[1:-1].ravel()

    v = np.asarray(start, float).ravel()
    for k in (1e1, 1e2, 1e3, 1e4, 1e5):
        v = minimize(cost, v, args=(k,), jac=True, method="L-BFGS-B",
                     options={"maxiter": 30000}).x
    return np.vstack([a, v.reshape(-1, 3), b])


def _depth(x, ellipsoid):
    c, R, s = ellipsoid
    return (1.0 - np.linalg.norm(((x - c) @ R) / s, axis=-1)) * s.min()


@pytest.mark.parametrize("a, b", [((30.0, 0.0, 200.0), (30.0, 0.0, -200.0)),
                                  ((-50.0, 80.0, 250.0), (120.0, -60.0, -180.0))])
def test_identity_taut_path_over_a_sphere_is_its_closed_form(a, b):
    """Over a sphere of radius R the shortest path from a to b is the two tangents and the arc
    between their points on the great circle through a and b: sqrt(|a|^2 - R^2) + sqrt(|b|^2 -
    R^2) + R (angle(a, b) - acos(R / |a|) - acos(R / |b|))."""
    a, b, R = np.array(a), np.array(b), 100.0
    t = np.linspace(0.0, 1.0, 102)[1:-1, None]
    start = a + (b - a) * t + np.array([150.0, 0.0, 0.0]) * np.sin(np.pi * t)
    sphere = (np.zeros(3), np.eye(3), np.full(3, R))
    x = taut_path(a, b, [sphere], start)
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    exact = (np.sqrt(na ** 2 - R ** 2) + np.sqrt(nb ** 2 - R ** 2)
             + R * (np.arccos(a @ b / (na * nb)) - np.arccos(R / na) - np.arccos(R / nb)))
    assert np.linalg.norm(np.diff(x, axis=0), axis=1).sum() == pytest.approx(exact, abs=0.05)
    assert _depth(x, sphere).max() < 0.01


def test_reference_whole_body_shortest_path_crosses_on_the_shoulder(fitted):
    """Not the body's shape: the shortest path from the D-ring to the buckle over the dummy's own
    ellipsoids (BODY, where the fitted run has them at the start) first meets the torso (the
    thorax or the sternum pad) on the shoulder, inside the zone the strict xfail above holds
    the fit to, and is shorter than the fitted belt's path between them (the sum of its
    segments' lengths along the path): the fit wraps the thorax only and runs straight on to
    the buckle. Measured: US NCAP 117 mm out (the zone 64-192), 1076 mm against 1102; Euro
    NCAP 5F 148 (59-164), 1093 against 1111; the sled 98 (64-192, on the sternum pad), 988
    against 1007 (scenarios/HISTORY.md, beltlow; dummyshoulder's 126 / 151 / 74 mm and 1056 /
    1088 / 995 were of a path whose points gathered at its corners, its chords up to 60 mm
    through the abdomen and 68 through the pelvis flesh: the path, sampled between its points
    too, lies in no body). Of two starts (bulged 300 mm forward, and also 60 mm outboard and 60
    mm up) the shorter path is taken (both, and two starts more, reach one path to 0.1 mm)."""
    out = fitted.results.outputs
    d_ring, buckle = (1000.0 * np.array([out[f"belt.{n}.{a}"][0] for a in "xyz"])
                      for n in ("d_ring", "buckle"))
    body = [(1000.0 * c, R, 1000.0 * s) for c, R, s in ellipsoids_at(fitted, 0, BODY).values()]
    outboard = np.sign(out["belt.d_ring.y"][0])
    torso = _in_b0(fitted, "upper_torso")
    t = np.linspace(0.0, 1.0, 102)[1:-1, None]
    paths = [taut_path(d_ring, buckle, body, d_ring + (buckle - d_ring) * t
                       + torso[:3, :3] @ np.array(bulge) * np.sin(np.pi * t))
             for bulge in ((300.0, 0.0, 0.0), (300.0, 60.0 * outboard, 60.0))]
    length = [np.linalg.norm(np.diff(x, axis=0), axis=1).sum() for x in paths]
    x = paths[int(np.argmin(length))]
    touch = x[np.argmax(np.maximum(_depth(x, body[0]), _depth(x, body[1])) > -1.0)] / 1000.0
    at = (touch - _in_b0(fitted, "neck")[:3, 3]) @ (torso[:3, 1] * outboard)
    _, inboard, outboard_bound = crossing(fitted)
    fitted_length = 1000.0 * sum(out[f"belt.{s}.length"][0]
                                 for s in ("d_ring-shoulder", "shoulder-chest", "chest-buckle"))
    assert inboard <= at <= outboard_bound
    assert min(length) < fitted_length
    sampled = x[:-1, None] + np.diff(x, axis=0)[:, None] * np.linspace(0.0, 1.0, 10)[:, None]
    assert max(_depth(sampled.reshape(-1, 3), e).max() for e in body) < 0.5


@pytest.mark.parametrize("fit, at, body, deep", [
    ({"restraints.belt.abdomen": "abdomen"}, 0.1896, "pelvis_flesh", 0.1306),
    ({"restraints.belt.groin": "pelvis_flesh"}, 0.1818, "abdomen", 0.0125),
    ({"restraints.belt.abdomen": "abdomen", "restraints.belt.groin": "pelvis_flesh",
      "restraints.belt.across": 0.0}, 0.1561, "pelvis_flesh", 0.0107)])
def test_reference_lower_wraps_miss_the_whole_body_path_at_the_fit(fit, at, body, deep):
    """The shoulder belt's existing lower wraps, fitted on US NCAP, do not put it on the whole-
    body shortest path (117 mm out, 1076 mm, in no body; the test above): ``abdomen`` alone (held
    across the belt) is fitted low on the abdomen's front, 372 mm below the neck's base, the
    thorax's wraps then round its outboard flank (190 mm out) and the piece on to the buckle 131
    mm through the pelvis flesh; ``groin`` alone leaves the thorax run low and outboard (182 mm)
    and the piece to the pelvis 12.5 mm through the abdomen; both on their shortest path (``across
    = 0``) 156 mm out, 1083 mm long, 11 mm through the pelvis flesh, the thorax's wraps 54-62 mm
    off the whole-body path: placed together, the runs over the overlapping thorax, abdomen and
    pelvis stop short of it (scenarios/HISTORY.md, beltlow, with each one's jump in the run)."""
    run = load("us_ncap_frontal_56", {"solver.t_end": 0.0005, **fit}).run()
    names = [p.name for p in run.model.source.belts["belt"].points]
    pieces = range(names.index("d_ring"), names.index("buckle"))
    assert crossing(run)[0] == pytest.approx(at, abs=0.002)
    assert belt_depths(run, "belt", 0, [body], pieces)[body] == pytest.approx(deep, abs=0.002)
