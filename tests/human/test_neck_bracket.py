"""The Hybrid III's lower neck bracket set to the seated posture (occupant.human.neck_bracket)."""
import math

import numpy as np
import pytest

from occupant.dynamics import body_poses
from occupant.human.neck_bracket import BRACKET_RANGE_DEG, bracket_elements, fit_bracket
from occupant.integrate.pipeline import evaluate
from occupant.scenario import load
from occupant.scenario.load import ScenarioError

SEATED = ("us_ncap_frontal_56", "euro_ncap_full_width_50", "fmvss208_sled_48_belted")


def _neck_moments(model, q):
    """{element: spring load, N m} of the neck's joint resistance elements at rest in q, from the
    compiled producers (occupant.integrate.pipeline.evaluate)."""
    data = model.make_data()
    evaluate(model.bundle(), data, 0.0, q, np.zeros(model.nv), np.zeros(model.nz), 0.0)
    el = model.joint_resistance
    return {n: float(data.outputs[el.out_start + 2 * e + 1])
            for e, n in enumerate(model.joint_resistance_names) if "neck" in n}


@pytest.mark.parametrize("name", SEATED)
def test_identity_seated_neck_carries_no_spring_moment_at_its_posture(name):
    """Seated, the bracket takes the posture's lower neck flexion (20 deg in the shipped
    postures): the neck's springs carry no moment there (< 1e-9 N m), where the neutral bracket
    (the model as compiled from the dummy file, as the Part 572 pendulum mounts it) carries the
    20 deg table load of dummies/hybrid3_*.toml (26 N m for the 50M, measured)."""
    sc = load(name)
    assert sc.neck_bracket == pytest.approx(math.radians(20.0), abs=1e-9)
    moments = _neck_moments(sc.model, sc.q0)
    assert max(abs(v) for v in moments.values()) < 1e-9, moments
    neutral = _neck_moments(sc.model.source.compile(), sc.q0)
    print(name, neutral["lower_neck_y"])
    assert neutral["lower_neck_y"] < -5.0          # the test can fail: without the bracket


def test_identity_bracket_offsets_neutral_and_stops_of_the_flexion_element_only():
    """The bracket adds its angle to the flexion element's reference and stops; every other
    array of the block is the same object, and the arrays stay read-only."""
    sc = load("us_ncap_frontal_56")
    base = sc.model.source.compile()
    fitted, angle = fit_bracket(base, sc.q0)
    rows, _ = bracket_elements(base)
    assert len(rows) == 1
    a, b = base.joint_resistance, fitted.joint_resistance
    for name in a._fields:
        if name in ("reference", "lower", "upper"):
            expect = np.array(getattr(a, name), float)
            expect[rows] += angle
            np.testing.assert_array_equal(getattr(b, name), expect)
            assert not getattr(b, name).flags.writeable
        else:
            assert getattr(b, name) is getattr(a, name)
    assert base.joint_resistance is a       # the model fitted from is unchanged


@pytest.mark.xfail(strict=True, reason="3.09 deg at 0.3 s since the seat back's trim friction 0.3 (branch frontback); "
                   "branch sideheels: 3.03 deg at 0.3 s (bound 3), 2.99 on main "
                   "5c8e13b (a pass by 0.01 deg) with the scenario's heel targets (heeltarget): the "
                   "heels' lowest points on the floor (driver_seated's heel_bottom), 0.02 / 0.05 mm "
                   "higher than those targets put them, give 3.03; at those targets' heights 3.02 "
                   "(scratch): a 0.01-0.04 deg sensitivity to the feet's seating at the bound, the "
                   "cause as measured below (the legs held on the floor as the pelvis sinks)")
def test_regression_settled_head_stays_level():
    """Settled under gravity (occupant.settle 0.3 s), the bracketed 50M driver's head stays where
    the posture put it: it pitches < 3 deg and moves < 10 mm rearward (before the bracket the
    neck springs tipped it back 19 deg and 64 mm, occupant.scenario.settle). Measured 2.99 deg
    (0.8 mm forward) since the belts settle at their own step (restraints.belt.EXPLICIT_STEP,
    branch gs1settle, with heeltarget's heels on the floor): a pass by 0.01 deg. Before, a strict
    xfail: 3.02 deg settled at 5e-5 s with the heels on the floor (heeltarget), 3.03 before
    (footsplit, heelmerge: 2.71 -> 3.03 deg, the upper torso standing +0.01 -> +0.37 deg as the
    legs settle; 2.61 deg at 0.6 s); the legs propped on the floor as the pelvis sinks 21 mm
    into the cushion: without the feet's floor and toe-pan pairs (scratch) the pelvis turns -0.7
    deg (-2.1 with them), the upper torso -0.01, the head 2.57 deg."""
    from occupant.scenario.settle import settle
    sc = load("us_ncap_frontal_56")
    q, _ = settle(sc.model, sc.q0, 0.3)
    ih = sc.model.body("head")
    X0 = body_poses(sc.model, sc.model.make_data(), sc.q0)[ih]
    X1 = body_poses(sc.model, sc.model.make_data(), q)[ih]
    pitch = math.degrees(math.atan2(X1[0, 2], X1[0, 0]) - math.atan2(X0[0, 2], X0[0, 0]))
    rearward = X0[0, 3] - X1[0, 3]
    print(f"head pitch change {pitch:.2f} deg, rearward {rearward * 1e3:.1f} mm")
    assert abs(pitch) < 3.0 and rearward < 0.010


def test_regression_bracket_outside_its_range_names_the_posture_key(tmp_path):
    """A posture flexing the lower neck beyond the bracket's range fails at load, naming
    occupant.posture and the range."""
    from occupant.shipped import shipped_dir
    text = (shipped_dir("dummies") / "postures" / "driver_seated.toml").read_text()
    bent = BRACKET_RANGE_DEG[1] + 5.0
    assert "lower_neck_deg = [0.0, 20.0, 0.0]" in text
    path = tmp_path / "bent.toml"
    path.write_text(text.replace("lower_neck_deg = [0.0, 20.0, 0.0]",
                                 f"lower_neck_deg = [0.0, {bent}, 0.0]"))
    with pytest.raises(ScenarioError) as err:
        load("us_ncap_frontal_56", {"occupant.posture": str(path)})
    assert err.value.path == "occupant.posture" and "bracket" in str(err.value)
