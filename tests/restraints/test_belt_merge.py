"""The largest strain (webbing hysteresis state) of belt segments acting as one
(occupant.restraints.belt.span_largest): merged, or merging in part over the band."""
import numpy as np
import pytest

import occupant
from occupant.integrate.driver import Event
from occupant.integrate.pipeline import evaluate
from occupant.modeling import Assembly, Part, Joint, Pose, Marker, Ellipsoid
from occupant.modeling.belts import Anchor, Belt, Webbing, Wrap, gs1_webbing
from occupant.restraints.belt_flow import MERGE_BAND, MERGE_LENGTH, SHARE_TIME

MU = 0.3                     # belt-body Coulomb coefficient (GS1, crash-domain-facts 6.4)
SEGMENTS = ("left-w0", "w0-w1", "w1-right")


def _twin(radius=0.006, gap=0.016, depth=0.01):
    """A strap of GS1 webbing (3 kN) between anchors 0.3 m to each side of the origin over two
    balls (``radius``, friction MU) pushing it ``depth`` up, their centres ``gap`` apart: a fixed
    one, then one on a heavy slider along the strap. The segment between their wraps is 16.2 mm,
    in the merge band (``merge_weight`` 0.38)."""
    asm = Assembly("twin")
    asm.add(Part("post", 1.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("base", "fixed", None, "post", Pose()))
    asm.add(Marker("a_centre", "post", position=(-gap / 2, 0.0, depth - radius)))
    asm.add(Ellipsoid("a", "a_centre", (radius, radius, radius)))
    asm.add(Part("sled", 1e6, inertia=(1e3, 1e3, 1e3)))
    turn = np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]])          # the slider along B0 x
    asm.add(Joint("slide", "prismatic", None, "sled", Pose(rotation=turn)))
    asm.add(Marker("b_centre", "sled", position=turn.T @ np.array([gap / 2, 0.0, depth - radius])))
    asm.add(Ellipsoid("b", "b_centre", (radius, radius, radius)))
    asm.add(Belt("belt", [Anchor("left", (-0.3, 0.0, 0.0)),
                          Wrap("w0", "a", friction=MU, side=(0.0, 0.0, 1.0)),
                          Wrap("w1", "b", friction=MU, side=(0.0, 0.0, 1.0)),
                          Anchor("right", (0.3, 0.0, 0.0))], gs1_webbing(), pretension=3000.0))
    return asm.compile()


def _gs1_unloading_slope():
    """The GS1 webbing's unloading slope (N per unit strain): its table is a line through the
    origin (``modeling.belts.gs1_webbing``)."""
    table = np.array(gs1_webbing().unloading)
    return table[-1, 1] / table[-1, 0]


def _gs1_loading(e):
    """The GS1 webbing's loading force (N) at strain e, its table's end slope extended."""
    table = np.array(gs1_webbing().loading)
    x, f = table[:, 0], table[:, 1]
    end = (f[-1] - f[-2]) / (x[-1] - x[-2])
    return np.where(e <= x[-1], np.interp(e, x, f), f[-1] + end * (e - x[-1]))


def test_physical_a_short_segments_jump_is_not_given_to_its_neighbours():
    """The second ball steps 1 mm along the strap (an event, as a wrap point's step): the 16 mm
    segment between the wraps stretches from 0.019 to 0.082 and the one after it shortens, the
    path's length unchanged. Webbing flows into the short segment and it unloads, its largest
    strain (the state) at what it reached; its neighbours never pass 0.02. Afterwards (4 ms)
    (1) the segments' webbing times largest strain sums to no more than their webbing times the
    largest strain each reached, the history the material went through; (2) every tension lies
    between the 3 kN before (the same length, no set) and the tension of the three pieces in
    series, each on the GS1 unloading line (492 kN, through the origin) from the largest strain
    it reached, at the run's summed stretched length (closed form, linear in T): 2.66 kN
    against 2.32. With the merge taking the largest of the largest strains the neighbours
    took the short segment's 0.057 (the sum 0.034 m against 0.012) and the belt went slack
    (0 N from 2.04 ms)."""
    model = _twin()
    zs = model.bundle(base_table=None).belts.z_start[0]

    def step(t, y):
        y = y.copy()
        y[0] += 0.001
        return y
    res = occupant.simulate(model, 0.006, q0=[0.0], v0=[0.0], integrator="euler", dt=1e-5,
                            gravity=(0, 0, 0), output_dt=1e-5,
                            events=[Event("step", lambda t, y: t - 0.002, direction=1,
                                          handler=step)])
    assert res.status == "finished"
    out, z = res.outputs, res.z[-1]
    before = out["belt.left-w0.force"][0]
    assert before == pytest.approx(3000.0, rel=1e-3)
    strain = np.array([out[f"belt.{s}.strain"] for s in SEGMENTS])
    reached = strain.max(axis=1)
    assert reached[1] > 0.08 and reached[[0, 2]].max() < 0.02   # the jump is the short one's
    webbing, largest = z[zs:zs + 6:2], z[zs + 1:zs + 6:2]
    assert webbing @ largest <= webbing @ reached
    # pieces in series at one tension T: e_i = r_i - (F_L(r_i) - T) / k, their stretched lengths
    # summing to the run's
    k, r = _gs1_unloading_slope(), reached
    series = k * (webbing @ strain[:, -1] - webbing @ (r - _gs1_loading(r) / k)) / webbing.sum()
    assert 2000.0 < series < before
    tension = np.array([out[f"belt.{s}.force"][-1] for s in SEGMENTS])
    assert tension.min() >= series and tension.max() <= before


def _straight(law):
    """A strap of ``law`` between anchors 0.6 m apart over a wrap on a ball it does not touch
    (the wrap on the line: its two segments merged)."""
    asm = Assembly("straight")
    asm.add(Part("post", 1.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("base", "fixed", None, "post", Pose()))
    asm.add(Marker("centre", "post", position=(0.0, 0.0, -0.2)))
    asm.add(Ellipsoid("ball", "centre", (0.1, 0.1, 0.1)))
    asm.add(Belt("belt", [Anchor("left", (-0.3, 0.0, 0.0)), Wrap("w", "ball", friction=MU),
                          Anchor("right", (0.3, 0.0, 0.0))], law, pretension=100.0))
    return asm.compile()


def test_analytic_merged_segments_unload_as_pieces_in_series():
    """Two merged segments of a webbing with linear loading (k) and unloading (k_u > k), their
    webbing 0.1 and 0.47 m and largest strains 0.08 and 0.05, stretched to 0.6 m: pieces in
    series at one tension T each lie on their shifted unloading lines,
    T = k_u (e_i - (1 - k / k_u) r_i) (while T <= k r_i), so their webbing-weighted mean strain
    e gives T = k_u (e - (1 - k / k_u) r), r the webbing-weighted mean largest strain: the
    group's tension exactly (to rounding), 4.47 kN. Below the largest of them (0.08) the group
    was slack."""
    k, ku = 100e3, 400e3
    law = Webbing([(0.0, 0.0), (0.1, 0.1 * k)], [(0.0, 0.0), (0.1, 0.1 * ku)])
    model = _straight(law)
    res = occupant.simulate(model, 1e-5, integrator="euler", dt=1e-5, gravity=(0, 0, 0))
    bundle, data = model.bundle(base_table=None), model.make_data()
    zs, z = bundle.belts.z_start[0], res.z[-1].copy()
    webbing, largest = np.array([0.1, 0.47]), np.array([0.08, 0.05])
    z[zs:zs + 4:2], z[zs + 1:zs + 4:2] = webbing, largest
    evaluate(bundle, data, res.t[-1], res.q[-1], res.v[-1], z, 0.0)
    names = model.output_names
    e = 0.6 / webbing.sum() - 1.0                               # 0.6 m between the anchors
    assert data.outputs[names.index("belt.left-w.strain")] == pytest.approx(e, rel=1e-12)
    r = webbing @ largest / webbing.sum()
    expected = ku * (e - (1.0 - k / ku) * r)
    assert 0.0 < expected < k * min(e, largest.min())
    for s in ("left-w", "w-right"):
        assert data.outputs[names.index(f"belt.{s}.force")] == pytest.approx(expected, rel=1e-12)


def test_analytic_largest_strains_meet_at_their_webbing_weighted_mean_in_the_band():
    """The twin balls' strap (``_twin``) at rest, its 16.2 mm middle segment in the merge band
    at both its ends (w = (MERGE_LENGTH - L) / ((1 - MERGE_BAND) MERGE_LENGTH)), its largest
    strain set to 0.06 and the sides' 1e-3 above their strains (all unloading: the state
    follows no strain): at each end point the two segments' largest strains' rates are
    w (r - r_i) / SHARE_TIME, r their webbing-weighted mean, so the sum of webbing times largest
    strain is kept. Towards the largest of them the sides rose 19 times as fast."""
    model = _twin()
    res = occupant.simulate(model, 1e-3, q0=[0.0], integrator="euler", dt=1e-5,
                            gravity=(0, 0, 0))
    bundle, data = model.bundle(base_table=None), model.make_data()
    zs, z, names = bundle.belts.z_start[0], res.z[-1].copy(), model.output_names
    evaluate(bundle, data, res.t[-1], res.q[-1], res.v[-1], z, 0.0)
    strain = np.array([data.outputs[names.index(f"belt.{s}.strain")] for s in SEGMENTS])
    length = data.outputs[names.index("belt.w0-w1.length")]
    w = (MERGE_LENGTH - length) / ((1.0 - MERGE_BAND) * MERGE_LENGTH)
    assert 0.3 < w < 0.5
    largest = strain + 1e-3
    largest[1] = 0.06
    z[zs + 1:zs + 6:2] = largest
    evaluate(bundle, data, res.t[-1], res.q[-1], res.v[-1], z, 0.0)
    webbing, rate = z[zs:zs + 6:2], data.zdot[zs + 1:zs + 6:2]
    expected = np.zeros(3)
    for pair in ([0, 1], [1, 2]):            # the points w0 and w1
        r = webbing[pair] @ largest[pair] / webbing[pair].sum()
        expected[pair] += w * (r - largest[pair]) / SHARE_TIME
    np.testing.assert_allclose(rate, expected, rtol=1e-9)
    assert abs(webbing @ rate) <= 1e-9 * webbing.sum() * np.abs(rate).max()
