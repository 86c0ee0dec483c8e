"""Webbing flow through a belt's points (occupant.restraints.belt.flow_solve) under the
scenarios' explicit Euler step: a short segment between two points the webbing slides over."""
import numpy as np
import pytest

import occupant
from occupant.modeling import Assembly, Part, Joint, Pose, Marker, Ellipsoid, JointResistance
from occupant.modeling.belts import Anchor, Belt, Webbing, Wrap

G = 9.81
R = 0.06                     # m, radius of the fixed ball
MASS = 50.0                  # kg, the hanging mass
MU = 0.3                     # belt-body Coulomb coefficient (GS1, crash-domain-facts 6.4)
STIFF = Webbing([(0.0, 0.0), (0.1, 49200.0)])   # EA = 492 kN: the GS1 unloading slope


def _strap():
    """A strap from a wall anchor 1 m away over the top of a fixed ball (radius R, its right
    side above the slider's line) down to a mass on a vertical slider (damped 2000 N s/m),
    with two wraps on the ball (friction MU): they share its quarter-circle wrap at 1/3 and
    2/3 of the arc, so the segment between them is a 31 mm chord, which exchanges webbing at
    both ends."""
    asm = Assembly("strap_rig")
    asm.add(Part("mass", MASS, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("slide", "prismatic", None, "mass", Pose()))
    asm.add(Marker("hook", "mass"))
    asm.add(JointResistance("slide_damper", "slide", damping=2000.0))
    asm.add(Part("post", 1.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("base", "fixed", None, "post", Pose()))
    asm.add(Marker("centre", "post", position=(-R, 0.0, 1.0)))
    asm.add(Ellipsoid("ball", "centre", (R, R, R)))
    asm.add(Belt("strap", [Anchor("wall", (-1.0, 0.0, 1.0 + R)),
                           Wrap("w1", "ball", friction=MU, side=(1.0, 0.0, 1.0)),
                           Wrap("w2", "ball", friction=MU, side=(1.0, 0.0, 1.0)),
                           Anchor("hook", marker="hook")], STIFF, pretension=10.0))
    return asm.compile()


def _turn(o, a, p, b):
    """Angle (rad) the belt turns through at point p between a and b, at the run's end."""
    x = {n: np.array([o[f"strap.{n}.{c}"][-1] for c in "xyz"]) for n in (a, p, b)}
    u, w = x[p] - x[a], x[b] - x[p]
    return np.arccos(u @ w / np.linalg.norm(u) / np.linalg.norm(w))


def test_identity_short_segment_between_sliding_wraps_is_smooth_under_euler_steps():
    """The mass thrown down at 3 m/s stretches the strap to 8 kN, webbing sliding over both
    wraps towards it, bounces and comes to rest under gravity. With the scenarios' Euler step
    (1e-5 s) the middle segment's tension is the one of a four times finer step within 0.1 %
    of its peak, sample to sample as smooth (explicit, the flow relaxed the 31 mm chord's
    webbing in 3 us and its tension alternated every step by up to 1.3 kN, 14 % of the
    peak off the fine step's); at rest the hook side carries m g and each point holds the
    tensions within its capstan ratio exp(mu theta) (Euler-Eytelwein, theta the turn there)."""
    model = _strap()
    runs = {dt: occupant.simulate(model, 0.6, integrator="euler", dt=dt, gravity=(0, 0, -G),
                                  v0=[-3.0], output_dt=1e-5) for dt in (1e-5, 2.5e-6)}
    coarse, fine = (runs[dt].outputs for dt in (1e-5, 2.5e-6))
    assert all(r.status == "finished" for r in runs.values())
    middle, reference = coarse["strap.w1-w2.force"], fine["strap.w1-w2.force"]
    assert reference.max() > 5000.0
    assert np.abs(middle - reference).max() < 1e-3 * reference.max()
    assert np.abs(np.diff(middle)).max() < 1.1 * np.abs(np.diff(reference)).max()
    wall, hook = coarse["strap.wall-w1.force"][-1], coarse["strap.w2-hook.force"][-1]
    assert abs(runs[1e-5].v[-1, 0]) < 1e-4
    assert hook == pytest.approx(MASS * G, rel=1e-3)
    for low, high, turn in ((wall, middle[-1], _turn(coarse, "wall", "w1", "w2")),
                            (middle[-1], hook, _turn(coarse, "w1", "w2", "hook"))):
        assert 0.5 < turn < 1.0
        assert np.exp(-MU * turn) <= high / low <= np.exp(MU * turn)



def _ball_in_strap(radius=0.15, webbing=None):
    """A ball (``radius``, 20 kg on a slider along B0 x) square to a strap of LINEAR webbing
    touching its front between two anchors 0.3 m to each side, with two wraps on it (friction
    MU along the belt)."""
    from tests.restraints.test_belt_wraps import LINEAR, _carrier
    asm = _carrier(20.0, "x")
    asm.add(Ellipsoid("ball", "centre", (radius, radius, radius)))
    asm.add(Belt("belt", [Anchor("left", (radius, 0.3, 0.0)), Wrap("w0", "ball", friction=MU),
                          Wrap("w1", "ball", friction=MU), Anchor("right", (radius, -0.3, 0.0))],
                 LINEAR if webbing is None else webbing, pretension=200.0))
    return asm.compile()


def test_physical_webbing_stuck_on_a_ball_is_not_stretched_by_its_wraps_spreading():
    """A ball (radius 0.15 m, 20 kg at 4 m/s) runs square into a strap of LINEAR webbing
    touching its front between two anchors 0.3 m to each side, with two wraps on it (friction
    MU along the belt): as the ball goes in, the wrap arc grows and its two wrap points (the
    middles of their wraps) move apart over the ball (from one point to 35 mm apart). The
    webbing between them lies on the rigid ball and, the push being symmetric, does not slide
    over it; webbing stuck to a rigid body keeps its strain, so it is loaded only through the
    spans and never carries more than they do at their peak. The points' own motion over the
    ball moves the webbing lying there from one segment into the next without slip
    (restraints.belt.wrap_drift): the middle peaks at 0.90 of the spans. Treated as slip, the
    middle segment, fed only through friction at both ends while its chord lengthened, peaked
    at 1.11 times the spans' tension (10.2 against 9.2 kN)."""
    res = occupant.simulate(_ball_in_strap(), 0.06, v0=[4.0], integrator="euler", dt=1e-5)
    assert res.status == "finished"
    out = res.outputs
    left, middle, right = (out[f"belt.{s}.force"] for s in ("left-w0", "w0-w1", "w1-right"))
    assert left.max() > 5000.0                                   # the ball was caught
    assert out["belt.w0-w1.length"].max() > 0.03                 # the wraps moved apart
    np.testing.assert_allclose(left, right, atol=1e-6 * left.max())    # symmetric
    assert middle.max() <= left.max()


def test_identity_wrap_drift_found_once_is_the_one_in_the_length_rates():
    """Mid-run, the wraps spreading over the ball (``_ball_in_strap`` at 4 m/s): one evaluation
    keeps each point's drift over its body in Data.belt_drift, once, for the segments' length
    rates and for the webbing the flow carries across (``flow_terms``; the test above fails
    without it): the place's rate (its state's, tangential on the unit sphere) times the radius,
    along the belt from the point before to the one after (``wrap_drift``, here with the
    ball's axes those of B0); equal and opposite at the two wraps (symmetric); what each segment's length rate has beyond the material one (the anchors
    fixed, the wraps on the ball: u . v_ball for the outer ones, u along the tangent piece from
    the anchor to its tangent point on the ball, closed form, ``belt.path_lengths``)."""
    from occupant.integrate.pipeline import evaluate
    radius = 0.15
    model = _ball_in_strap(radius)
    res = occupant.simulate(model, 0.012, v0=[4.0], integrator="euler", dt=1e-5)
    assert res.status == "finished"
    bundle, data = model.bundle(base_table=None), model.make_data()
    data.belt_drift[:] = np.nan                 # every slot read is written by the evaluation
    z = res.z[-1]
    evaluate(bundle, data, res.t[-1], res.q[-1], res.v[-1], z, 0.0)
    out, i = data.outputs, model.output_names.index
    x = {n: np.array([out[i(f"belt.{n}.{c}")] for c in "xyz"])
         for n in ("left", "w0", "w1", "right")}
    for k, (before, after) in ((1, ("left", "w1")), (2, ("w0", "right"))):
        jz = bundle.belts.point_z[k]
        u = z[jz:jz + 3] / np.linalg.norm(z[jz:jz + 3])
        rate = data.zdot[jz:jz + 3]
        along = (x[after] - x[before]) / np.linalg.norm(x[after] - x[before])
        assert data.belt_drift[k] == pytest.approx(radius * (rate - (rate @ u) * u) @ along,
                                                   rel=1e-12)
    w0, w1 = data.belt_drift[1], data.belt_drift[2]
    assert w0 < -0.01 and w1 == pytest.approx(-w0, rel=1e-6)     # spreading, symmetric
    v_ball = np.array([res.v[-1, 0], 0.0, 0.0])
    centre = np.array([res.q[-1, 0], 0.0, 0.0])

    def tangent_piece(anchor, point):
        """Unit from the anchor to its tangent point on the ball, in the plane of the centre,
        the anchor and the wrap's point."""
        u = (anchor - centre) / np.linalg.norm(anchor - centre)
        w = point - centre - ((point - centre) @ u) * u
        alpha = np.arccos(radius / np.linalg.norm(anchor - centre))
        t = centre + radius * (np.cos(alpha) * u + np.sin(alpha) * w / np.linalg.norm(w))
        return (t - anchor) / np.linalg.norm(t - anchor)

    for a, b, material, w in (("left", "w0", 1.0, w0), ("w0", "w1", 0.0, w1 - w0),
                              ("w1", "right", -1.0, -w1)):
        u = {"left": tangent_piece(x["left"], x["w0"]), "w0": np.zeros(3),
             "w1": -tangent_piece(x["right"], x["w1"])}[a]
        assert out[i(f"belt.{a}-{b}.length_rate")] == pytest.approx(material * u @ v_ball + w,
                                                                     abs=1e-12)


def test_identity_flow_is_continuous_across_the_corner_of_the_webbing_hysteresis():
    """The ball run into a strap of GS1 webbing (``_ball_in_strap``; loading curve, 492 kN
    unloading slope), its wraps spreading: at each millisecond, the segments' largest strains
    (states) set at their strains, then 2e-6 above them (the integrated state sits within about
    1e-5 of the strain), change the webbing rates of one evaluation by no more than twice the
    tension they change over the damping (492 kN x 2e-6 / 100 N s/m = 10 mm/s): the flow's
    linearisation (``group_stiffness``: the law's secant over the group's stretch) is
    continuous at the corner where unloading meets loading. Taken as the slope at the corner
    (loading within 1e-6 of the largest strain, else the 2-4 times steeper unloading slope),
    it switched the short middle segment's flow between explicit and implicit
    (``flow_solve``) and its webbing rate by up to 6 m/s; US NCAP's shoulder-chest peak moved
    5 % with that 1e-6."""
    from occupant.integrate.pipeline import evaluate
    from occupant.modeling.belts import gs1_webbing
    model = _ball_in_strap(webbing=gs1_webbing())
    res = occupant.simulate(model, 0.06, v0=[4.0], integrator="euler", dt=1e-5,
                            output_dt=1e-3)
    assert res.status == "finished"
    bundle, data = model.bundle(base_table=None), model.make_data()
    zs, names = bundle.belts.z_start[0], model.output_names
    strains = [names.index(f"belt.{s}.strain") for s in ("left-w0", "w0-w1", "w1-right")]
    above, worst, loaded = 2e-6, 0.0, 0
    for k in range(1, len(res.t)):
        z = res.z[k].copy()
        evaluate(bundle, data, res.t[k], res.q[k], res.v[k], z, 0.0)
        e = data.outputs[strains].copy()
        if e.min() <= 0.0:
            continue
        loaded += 1
        rates = []
        for gap in (0.0, above):
            z[zs + 1:zs + 6:2] = e + gap
            evaluate(bundle, data, res.t[k], res.q[k], res.v[k], z, 0.0)
            rates.append(data.zdot[zs:zs + 6:2].copy())
        worst = max(worst, np.abs(rates[1] - rates[0]).max())
    assert loaded >= 30
    assert worst <= 2.0 * 492e3 * above / 100.0


def _ball_pushed_into_strap():
    """A 0.1 m ball on a heavy vertical slider (1e4 kg, a spring of period 0.2 s about the middle
    of its travel) pushed up into a strap of GS1 webbing between anchors 0.3 m to each side at
    the height of its top, over two wraps on it (friction MU), from 20 to 100 mm past the
    anchors' line and back: the chord between the wraps (a third of the wrap's arc) grows from
    4.5 to 22.5 mm and shrinks again, crossing MERGE_LENGTH (20 mm) both ways."""
    from tests.restraints.test_belt_wraps import _carrier
    from occupant.modeling.belts import gs1_webbing
    radius, low, high, mass, omega = 0.1, 0.02, 0.1, 1.0e4, 2.0 * np.pi / 0.2
    asm = _carrier(mass, "z")
    asm.add(JointResistance("spring", "slide", stiffness=mass * omega**2,
                            reference=0.5 * (low + high) - radius))
    asm.add(Ellipsoid("ball", "centre", (radius, radius, radius)))
    asm.add(Belt("belt", [Anchor("left", (-0.3, 0.0, 0.0)),
                          Wrap("w0", "ball", friction=MU, side=(0.0, 0.0, 1.0)),
                          Wrap("w1", "ball", friction=MU, side=(0.0, 0.0, 1.0)),
                          Anchor("right", (0.3, 0.0, 0.0))], gs1_webbing(), pretension=200.0))
    return asm.compile(), low - radius


def test_physical_tension_does_not_step_where_a_short_segment_merges():
    """The chord between the wraps crosses MERGE_LENGTH as the ball rises into the strap (8 kN)
    and falls back, the scenarios' Euler step: its tension, sample to sample (0.1 ms), steps no
    more than three times the largest step the motion gives the long side segment. With the
    merge a switch at MERGE_LENGTH, the chord's own strain (webbing held by friction, GS1
    hysteresis) went over to the group's where it merged: 0.62 kN, 6.7 times the side's
    largest (0.09 kN); merged in part over a band (``belt.merge_weight``) 1.7 times."""
    model, start = _ball_pushed_into_strap()
    res = occupant.simulate(model, 0.19, q0=[start], v0=[0.0], integrator="euler", dt=1e-5,
                            gravity=(0, 0, 0), output_dt=1e-4)
    assert res.status == "finished"
    chord = res.outputs["belt.w0-w1.length"]
    assert chord.min() < 0.01 and chord.max() > 0.02   # MERGE_LENGTH, both ways
    steps = {s: np.abs(np.diff(res.outputs[f"belt.{s}.force"])).max() for s in ("left-w0", "w0-w1")}
    assert steps["w0-w1"] < 3.0 * steps["left-w0"]


def _largest_step(rates, low, high, halvings=50):
    """The step of ``rates`` (a vector function of one number) left after ``halvings`` halvings
    of [low, high], each keeping the half over which the rates change the most: one that goes
    to zero with the interval where they are continuous, their jump where they are not."""
    r_low, r_high = rates(low), rates(high)
    for _ in range(halvings):
        mid = 0.5 * (low + high)
        r_mid = rates(mid)
        if np.abs(r_mid - r_low).max() >= np.abs(r_high - r_mid).max():
            high, r_high = mid, r_mid
        else:
            low, r_low = mid, r_mid
    return np.abs(r_high - r_low).max(), high - low


def test_identity_flow_is_continuous_where_a_point_starts_or_stops_slipping():
    """The strap over the ball (``_strap``, GS1's 492 kN unloading slope: its 31 mm chord
    between the wraps relaxes faster than FLOW_TIME, so the flow is implicit in its webbing,
    ``flow_solve``) thrown down, stretched and released: every 2 ms to 44 ms, the wall
    segment's webbing moved from 8 mm less to 8 mm more, which takes the wraps' tensions across
    their capstan ratios (a wrap slipping, then stuck, then slipping the other way, the two
    wraps each way), changes the webbing rates of one evaluation continuously: in each 1 mm of
    it, halving 50 times towards the largest change leaves under 1e-9 m/s over 1e-17 m of
    webbing (9e-13 m/s). Deciding the way a point slips by its excess now (not the excess the
    implicit step foresees, ``_flow_at``), the implicit terms came and went with it: the rates
    stepped by up to 0.45 m/s (the belted sled's lap belt 0.6 m/s at the outboard hip, its
    HIC15 180 or 201 with the settling 10 ms longer: tests/scenario/test_settle.py); with the
    ways found by an active set alone, they cycled where both wraps drained the chord (each
    stopping if the other slipped): 10 m/s."""
    from occupant.integrate.pipeline import evaluate
    model = _strap()
    res = occupant.simulate(model, 0.044, integrator="euler", dt=1e-5, gravity=(0, 0, -G),
                            v0=[-3.0], output_dt=2e-3)
    assert res.status == "finished"
    bundle, data = model.bundle(base_table=None), model.make_data()
    zs, ns = bundle.belts.z_start[0], 3
    worst, changed = 0.0, 0.0
    for k in range(1, len(res.t)):

        def rates(shift):
            z = res.z[k].copy()
            z[zs] += shift                                      # the wall segment's webbing
            evaluate(bundle, data, res.t[k], res.q[k], res.v[k], z, 0.0)
            return data.zdot[zs:zs + 2 * ns:2].copy()

        changed = max(changed, np.abs(rates(8e-3) - rates(-8e-3)).max())
        for low in np.arange(-8e-3, 8e-3, 1e-3):
            step, width = _largest_step(rates, low, low + 1e-3)
            assert width < 1e-17
            worst = max(worst, step)
    assert changed > 1.0                                        # the flows do change
    assert worst < 1e-9
