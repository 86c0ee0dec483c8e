"""Belt kinds of a scenario file (``[restraints.belt] kind``: lap and two_point beside
three_point and separate) and the belts' load cells B3-B6 as ISO-MME channels of a run
(occupant.sensors.belt). The runs are the shipped belted sled (FMVSS 208-style, 48 km/h, Hybrid
III 50th male) with its [restraints.belt] replaced, cut at 85 ms: the lap-belted dummy's head
reaches the panel top at about 90 ms and, a lap belt giving no torso restraint, passes through it
by 93 ms (the chin-panel contact's limit, not the belt's)."""
import re

import numpy as np
import pytest

from occupant.io import isomme
from occupant.scenario import load
from occupant.scenario.load import ScenarioError
from occupant.sensors.belt import BELT_LOAD_CELLS
from occupant.shipped import shipped_dir

SLED = "fmvss208_sled_48_belted"
T_END = 0.085   # s
# the sled's own anchorages (scenarios/fmvss208_sled_48_belted.toml), m in B0
D_RING, BUCKLE, LAP_ANCHOR = "[-0.30, -0.25, 0.60]", "[-0.10, 0.22, -0.15]", "[-0.15, -0.25, -0.20]"
# each cell's segment (occupant.modeling.belts.Belt.segment_names): the three-point belt's, from
# its retractor to its lap anchor (the lap part from the buckle out), and the lap belt's, from its
# lap anchor to the buckle
SEGMENTS = {"B3": "d_ring-shoulder", "B4": "chest-buckle", "B5": "buckle-hip_inboard",
            "B6": "hip_outboard-lap_anchor"}
LAP_SEGMENTS = {"B5": "hip_inboard-buckle", "B6": "lap_anchor-hip_outboard"}
BELTS = {
    "lap": f'kind = "lap"\nlap_across = 0.3\nbuckle = {BUCKLE}\nlap_anchor = {LAP_ANCHOR}\n',
    "two_point": f'kind = "two_point"\nd_ring = {D_RING}\nbuckle = {BUCKLE}\n',
    "none": "enabled = false\n",
}


def sled_with(tmp_path, name, belt):
    """The belted sled's file with its [restraints.belt] table's body replaced by ``belt``."""
    text = (shipped_dir("scenarios") / f"{SLED}.toml").read_text()
    text, n = re.subn(r"(?ms)^\[restraints\.belt\].*?(?=^\[)", f"[restraints.belt]\n{belt}\n", text, count=1)
    assert n == 1
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """{kind: (scenario, run)} of the sled with a lap belt, a two-point belt and none, to T_END."""
    folder = tmp_path_factory.mktemp("belt_kinds")
    out = {}
    for kind, belt in BELTS.items():
        sc = load(str(sled_with(folder, kind, belt)), overrides={"solver.t_end": T_END})
        out[kind] = sc, sc.run()
    return out


def forward_excursion(sc, run, label):
    """The peak forward travel (m) of a body's centre of mass relative to the sled."""
    from occupant.report.data import trajectories
    x = trajectories(sc.model, run.results)[label][:, 0]
    return float(np.max(x - x[0]))


def belt_on_body(res, belt):
    """(n, 3) N in B0: the net force ``belt`` puts on the occupant through its wraps: its
    tension pulls its first wrap towards the point before it and its last wrap towards the point
    after it (between wraps the tension of each piece pulls both its ends equally and cancels)."""
    from occupant.modeling.belts import Wrap
    pts = [p.name for p in belt.points]
    where = {p: np.column_stack([res.outputs[f"{belt.name}.{p}.{a}"] for a in "xyz"]) for p in pts}
    wraps = [k for k, p in enumerate(belt.points) if isinstance(p, Wrap)]
    first, last = wraps[0], wraps[-1]

    def pull(a, b):   # the tension of segment a-b (or b-a) along a -> b at a
        seg = f"{a}-{b}" if f"{a}-{b}" in belt.segment_names else f"{b}-{a}"
        d = where[b] - where[a]
        return res.outputs[f"{belt.name}.{seg}.force"][:, None] * d / np.linalg.norm(d, axis=1)[:, None]
    return pull(pts[first], pts[first - 1]) + pull(pts[last], pts[last + 1])


def test_reference_a_lap_belt_holds_the_pelvis_and_nothing_on_the_torso(runs):
    sc, run = runs["lap"]
    belt = sc.model.source.belts["belt"]
    assert [p.name for p in belt.points] == ["lap_anchor", "hip_outboard", "lap", "hip_inboard", "buckle"]
    assert belt.retractor is None      # no retractor point given: the webbing is fixed at both ends
    geometries = sc.model.source.geometries
    parts = {sc.model.source.markers[geometries[p.geometry].marker].part for p in belt.points[1:-1]}
    assert parts == {"pelvis"}         # every wrap on the pelvis: no belt load on the torso
    codes = sorted(c.code[10:12] for c in run.results.channels if c.code[2:6] == "SEBE")
    assert codes == ["B5", "B6"]       # a lap belt's cells only
    # the pelvis stays within a third of the unbelted sled's forward travel (85 vs 237 mm
    # measured, sebe), held by the lap belt's 10 kN
    lap, free = (forward_excursion(*runs[k], "pelvis") for k in ("lap", "none"))
    assert lap < free / 2.0, (lap, free)
    force = belt_on_body(run.results, belt)
    peak = np.argmax(np.linalg.norm(force, axis=1))
    assert force[peak, 0] < -5000.0    # rearward on the pelvis, kN
    assert run.results.status == "finished"


def test_reference_a_two_point_belt_holds_the_torso_over_its_wraps(runs):
    sc, run = runs["two_point"]
    belt = sc.model.source.belts["belt"]
    assert [p.name for p in belt.points] == ["d_ring", "shoulder", "chest", "buckle"]
    geometries = sc.model.source.geometries
    assert {geometries[p.geometry].marker for p in belt.points[1:-1]} <= {
        g.marker for n, g in geometries.items() if n == "thorax"}
    assert "lap_belt_pelvis" not in geometries     # no lap belt, no ellipsoid for it
    codes = sorted(c.code[10:12] for c in run.results.channels if c.code[2:6] == "SEBE")
    assert codes == ["B3", "B4"]
    chest, free = (forward_excursion(*runs[k], "chest") for k in ("two_point", "none"))
    assert chest < free / 2.0, (chest, free)
    force = belt_on_body(run.results, belt)
    peak = np.argmax(np.linalg.norm(force, axis=1))
    assert force[peak, 0] < -5000.0    # rearward on the torso
    assert run.results.status == "finished"


def test_identity_belt_channels_are_the_segment_forces_and_read_back(runs, tmp_path):
    """Each SEBE channel is its segment's recorded force, raw (filter class 0), on the run's
    grid; the exported test reads back the same with occupant's reader and pyisomme's."""
    short = load(SLED, overrides={"solver.t_end": 0.02, "occupant.settle": 0.0})
    three = short, short.run()
    checked = set()
    for sc, run in (three, runs["lap"], runs["two_point"]):
        res = run.results
        sebe = [c for c in res.channels if c.code[2:6] == "SEBE"]
        for ch in sebe:
            cell = ch.code[10:12]
            assert ch.code == f"1{sc.position_code}SEBE0000{cell}FO00" and ch.unit == "N"
            name = (LAP_SEGMENTS if run is runs["lap"][1] else SEGMENTS)[cell]
            # the channel grid t0 + k / rate is the recorded one to round-off (resampled there)
            np.testing.assert_allclose(ch.t, res.t, rtol=0, atol=1e-12)
            np.testing.assert_allclose(ch.values, res.outputs[f"belt.{name}.force"], rtol=1e-9, atol=1e-6)
            checked.add(cell)
        isomme.write(sebe, tmp_path / run.name, test_number="BELT")
        back = {c.code: c for c in isomme.read(tmp_path / run.name)}
        for ch in sebe:
            np.testing.assert_array_equal(back[ch.code].values, ch.values)
        pyisomme = pytest.importorskip("pyisomme")
        iso = pyisomme.Isomme().read(tmp_path / run.name)
        for ch in sebe:
            theirs = np.asarray(iso.get_channel(ch.code).get_data(unit="N")).ravel()
            np.testing.assert_allclose(theirs, ch.values, rtol=1e-12, atol=0)
    assert checked == {cell for cell, *_ in BELT_LOAD_CELLS}
    sebe = [c.code[10:12] for c in three[1].results.channels if c.code[2:6] == "SEBE"]
    assert sebe == ["B3", "B4", "B5", "B6"]    # the three-point belt: all four


@pytest.mark.parametrize("kind, key, value, message", [
    ("lap", "d_ring", D_RING, "restraints.belt.d_ring: a lap belt does not use it"),
    ("lap", "torso", '"thorax"', "restraints.belt.torso: a lap belt does not use it"),
    ("two_point", "lap_anchor", LAP_ANCHOR, "restraints.belt.lap_anchor: a two_point belt does not use it"),
    ("two_point", "end_springs", "1.0", "restraints.belt.end_springs: a two_point belt does not use it"),
    ("lap", "load_limit", "4000.0", "restraints.belt.load_limit: a lap belt does not use it "
     r"\(the load limiter, pretensioner and D-ring friction sit in a retractor"),
    ("two_point", "d_ring_friction", "0.2", "restraints.belt.d_ring_friction: a two_point belt does not use "
     r"it \(the load limiter"),
    # the buckle is an anchorage at either kind's end, not a slip ring
    ("lap", "buckle_friction", "0.2", "restraints.belt.buckle_friction: a lap belt does not use it"),
    ("two_point", "buckle_friction", "0.2", "restraints.belt.buckle_friction: a two_point belt does not use it"),
])
def test_reference_a_belt_kind_refuses_the_keys_it_does_not_use(tmp_path, kind, key, value, message):
    path = sled_with(tmp_path, kind, BELTS[kind] + f"{key} = {value}\n")
    with pytest.raises(ScenarioError, match=message):
        load(str(path))


def test_reference_lap_and_two_point_belts_take_a_retractor_where_given(tmp_path):
    """With a retractor point the webbing runs from it through a guide at the outboard or upper
    anchorage, and the load limiter applies; the interior's retractor is never taken."""
    sc = load(str(sled_with(tmp_path, "lap", BELTS["lap"] + "retractor = [-0.35, -0.30, -0.10]\n"
                            "load_limit = 4000.0\n")))
    belt = sc.model.source.belts["belt"]
    assert [p.name for p in belt.points][:2] == ["retractor", "lap_anchor"]
    assert belt.retractor.load_limit == 4000.0
    path = sled_with(tmp_path, "two", BELTS["two_point"])
    belt = load(str(path)).model.source.belts["belt"]
    assert [p.name for p in belt.points][0] == "d_ring" and belt.retractor is None
