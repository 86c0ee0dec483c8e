"""Where the belted frontal dummies' shoulder belt first meets the torso at the start (issue 11;
scenarios/HISTORY.md, dummyclav)."""
import numpy as np
import pytest

from occupant.restraints.belt_clearance import ellipsoids_at
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
    "mm clear of the neck shell on US NCAP, 5.3 mm inside it on the sled): the ellipsoid's dome "
    "stands 46 mm above the neck's base at the midline and 35 mm above the shoulder shells, so "
    "the span from the D-ring clears the shoulder (110 mm above the thorax ellipsoid in the "
    "neck base's plane on US NCAP). Held where it is fitted (shoulder_at) the chest wrap on "
    "its shortest path jumps across the thorax (shoulder-chest 23.1 / 61.1 / 42.4 kN); the "
    "whole torso held (across 0.3) from heldacross2's fit over the clavicle it is sound and "
    "starts 62 / 84 / 54 mm out, from a fit 15 mm further out 75 mm on US NCAP: measured, "
    "not shipped (scenarios/HISTORY.md, heldacross2 and dummyclav)"))
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


@pytest.mark.parametrize("fit, measured", [
    ({"restraints.belt.shoulder_at": [0.069, 0.096, 0.141]}, 0.0849),
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
