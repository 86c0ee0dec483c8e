"""A run's ISO-MME export as other tools collect it (branch isommeid): its test number, which
names its files, is the run folder's name (two designs of one scenario written to two folders
do not clash in one database), and it carries the vehicle's acceleration, the pulse the run
used, as the vehicle channels 10VEHCCG0000AC?0 with J211 polarity (a sled's S0SLEDCG0000AC?0),
and its velocity (VE?0), read back by pyisomme."""
import math
from types import SimpleNamespace

import numpy as np
import pytest

from occupant.channel import Channel
from occupant.constants import G0
from occupant.io import isomme
from occupant.model import BaseMotion
from occupant.scenario import load, write_run
from occupant.scenario.pulse import KMH, Pulse
from occupant.scenario.run import folder_test_number, isomme_channels
from occupant.sensors.vehicle import vehicle_acceleration, vehicle_channels
from occupant.spatial.rotation import rot_z

pyisomme = pytest.importorskip("pyisomme")

T_END = 0.02   # s: the sled has lost 4.6 of its 48 km/h (12.6 g at 20 ms); cheap and enough here


@pytest.fixture(scope="module")
def sled_run():
    """The shipped unbelted sled (half-sine 48 km/h, 100 ms along x), 20 ms."""
    return load("fmvss208_sled_48_unbelted", overrides={"solver.t_end": T_END, "outputs.report": False}).run()


def _mme_field(path, name):
    for line in path.read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition(":")
        if key.strip() == name:
            return value.strip()
    return None


def test_reference_two_run_folders_give_two_test_numbers(sled_run, tmp_path):
    """One scenario written to ``ll3000`` and ``ll6000`` (two designs a restraint engineer
    collects): each export is its folder's test (its files' stem, the .mme's laboratory test
    number, pyisomme's test_number); before, both were the scenario's name and clashed."""
    numbers = []
    for name in ("ll3000", "ll6000"):
        write_run(sled_run, tmp_path / name)
        test = tmp_path / name / "isomme"
        assert (test / f"{name}.mme").exists() and (test / "Channel" / f"{name}.chn").exists()
        assert _mme_field(test / f"{name}.mme", "Laboratory test ref. number") == name
        iso = pyisomme.Isomme().read(test)
        numbers.append(iso.test_number)
    assert numbers == ["ll3000", "ll6000"]
    # a folder name with characters a test number does not take: each made '_'
    assert folder_test_number(tmp_path / "design 2.b") == "design_2_b"
    write_run(sled_run, tmp_path / "a", test_number="SLED_A_7")   # a caller's own number
    assert (tmp_path / "a" / "isomme" / "SLED_A_7.mme").exists()


def test_analytic_the_vehicle_channel_is_the_half_sine_the_run_used(sled_run, tmp_path):
    """The sled's x acceleration in the export is the scenario's half-sine, -A sin(pi t / T),
    A = pi dv / (2 T) (J211: deceleration negative), on the dummy channels' grid, raw, in
    m/(s*s), coded as the sled's (test object S, main location SLED: its interior's
    test_object; before, 10VEHC); no y or z channel (the sled moves along x only). pyisomme reads
    it, filters it (CFC 60 from the raw channel) and integrates it to the velocity lost:
    dv (1 - cos(pi t/T)) / 2. The sled's own velocity channel is the speed the run used,
    v0 - dv (1 - cos(pi t/T)) / 2 (v0 = 48 km/h, forward positive)."""
    write_run(sled_run, tmp_path / "run")
    chans = {c.code: c for c in isomme.read(tmp_path / "run" / "isomme")}
    assert not [c for c in chans if c.startswith("10VEHC")]
    assert [c for c in chans if c.startswith("S0SLED")] == ["S0SLEDCG0000ACX0", "S0SLEDCG0000VEX0"]
    ch, head = chans["S0SLEDCG0000ACX0"], chans["13HEAD0000H3ACX0"]
    assert ch.unit == "m/s^2" and np.array_equal(ch.t, head.t)
    dv, T = 48.0 * KMH, 0.100
    A = math.pi * dv / (2 * T)
    np.testing.assert_allclose(ch.values, -A * np.sin(np.pi * ch.t / T), rtol=0, atol=1e-9 * A)
    assert ch.values.min() < -0.5 * A   # (12.6 g of 21.4 g at 20 ms)
    speed = chans["S0SLEDCG0000VEX0"]
    assert speed.unit == "m/s" and np.array_equal(speed.t, head.t)
    np.testing.assert_allclose(speed.values, 48.0 * KMH - dv * (1 - np.cos(np.pi * speed.t / T)) / 2,
                               rtol=0, atol=1e-6 * dv)

    iso = pyisomme.Isomme().read(tmp_path / "run" / "isomme")
    raw = iso.get_channel("S0SLEDCG0000ACX0")
    assert str(raw.unit) in ("m / s2", "m/(s*s)") and raw.data.iloc[:, 0].min() == pytest.approx(ch.values.min())
    assert iso.get_channel("S0SLEDCG0000ACXD") is not None   # filtered by pyisomme, CFC 60
    lost = dv * (1 - math.cos(math.pi * T_END / T)) / 2
    v = iso.get_channel("S0SLEDCG0000VEX0")                  # the run's own, read by pyisomme
    assert str(v.unit) in ("m / s", "m/s") and float(v.data.iloc[0, 0]) == pytest.approx(48.0 * KMH)
    assert float(v.data.iloc[-1, 0] - v.data.iloc[0, 0]) == pytest.approx(-lost, rel=1e-3)
    # and it is the raw acceleration pyisomme reads, integrated (trapezoids) from the start speed
    t, a = raw.data.index.to_numpy(float), raw.data.iloc[:, 0].to_numpy(float)
    integrated = 48.0 * KMH + np.concatenate(([0.0], np.cumsum(np.diff(t) * (a[1:] + a[:-1]) / 2)))
    np.testing.assert_allclose(v.data.iloc[:, 0].to_numpy(float), integrated, rtol=0, atol=1e-4 * dv)


def _results(motion, t, gravity=(0.0, 0.0, -G0)):
    """Results as simulate records them: base_states (BaseMotion.spatial_state) and base_poses."""
    poses = np.tile(np.eye(4), (len(t), 1, 1))
    for k, tk in enumerate(t):
        poses[k, :3, :3], poses[k, :3, 3] = motion.pose(tk)
    states = np.array([motion.spatial_state(tk, gravity) for tk in t])
    return SimpleNamespace(t=t, base_states=states, base_poses=poses)


def test_analytic_a_side_pulse_pushes_the_car_towards_plus_y():
    """A car struck on its left (the pulse along B0's y, B0 y to the left) is pushed to its right:
    J211 y points right, so its Y channel is the pulse's magnitude, positive; its X channel is
    written, flat; no Z."""
    t = np.linspace(0.0, 0.06, 601)
    a = -20.0 * G0 * np.sin(np.pi * t / 0.06)
    res = _results(Pulse(t, a, 0.0, "side", direction=(0.0, 1.0, 0.0)).base_motion(), t)
    chans = {c.code: c for c in vehicle_channels(res)}
    assert list(chans) == ["10VEHCCG0000ACX0", "10VEHCCG0000ACY0", "10VEHCCG0000VEX0", "10VEHCCG0000VEY0"]
    assert not np.any(chans["10VEHCCG0000ACX0"].values)
    np.testing.assert_allclose(chans["10VEHCCG0000ACY0"].values, -a, rtol=0, atol=1e-9)


def test_analytic_a_turning_vehicle_reads_its_centripetal_acceleration():
    """B0 driven round a circle of radius r at rate w, turning with it (its x along the path):
    its origin accelerates w^2 r towards the centre, on its left: B0's +y (B0 y left), whatever
    gravity; J211 Y (right) reads -w^2 r. The w x v that base_states leaves
    out (spatial acceleration) is added back: without it the channel would read 0."""
    r, w = 20.0, 0.5
    motion = BaseMotion(
        position=lambda s: r * np.array([math.sin(w * s), 1.0 - math.cos(w * s), 0.0]),
        rotation=lambda s: rot_z(w * s),
        velocity=lambda s: r * w * np.array([math.cos(w * s), math.sin(w * s), 0.0]),
        angular_velocity=lambda s: np.array([0.0, 0.0, w]),
        acceleration=lambda s: r * w * w * np.array([-math.sin(w * s), math.cos(w * s), 0.0]))
    t = np.linspace(0.0, 1.0, 11)
    res = _results(motion, t)
    np.testing.assert_allclose(vehicle_acceleration(res), np.tile([0.0, w * w * r, 0.0], (len(t), 1)),
                               rtol=0, atol=1e-9)
    ch = {c.code: c for c in vehicle_channels(res)}
    np.testing.assert_allclose(ch["10VEHCCG0000ACY0"].values, -w * w * r, rtol=1e-12)


def test_reference_a_pedestrian_run_exports_no_vehicle_channel():
    """A pedestrian's B0 is the road at rest, not the car: no vehicle channel is made of it."""
    t = np.linspace(0.0, 0.01, 11)
    head = Channel("head acceleration x", t, np.zeros_like(t), "m/s^2", code="11HEAD0000H3ACX0")
    res = _results(BaseMotion(), t)
    res.channels = [head]
    run = SimpleNamespace(results=res, model=SimpleNamespace(gravity=None), test_object="vehicle",
                          scenario={"vehicle": {"interior": "road", "front": "sedan_front_midsize"}})
    assert isomme_channels(run) == [head]
    run.scenario = {"vehicle": {"interior": "midsize_sedan_driver"}}
    assert [c.code for c in isomme_channels(run)] == ["11HEAD0000H3ACX0", "10VEHCCG0000ACX0", "10VEHCCG0000VEX0"]


def test_reference_an_interior_says_whether_its_test_object_is_a_sled(tmp_path):
    """The sled bucks say test_object = "sled" (the GS1 buck through its base), a car's interior
    is a vehicle by default; a value outside vehicle, sled is one message naming file and key."""
    from occupant.scenario.interior import InteriorFileError, load_interior
    objects = {n: load_interior(n).test_object for n in ("sled_buck_passenger", "gs1_sled_buck",
                                                          "whiplash_sled_seat", "midsize_sedan_driver")}
    assert objects == {"sled_buck_passenger": "sled", "gs1_sled_buck": "sled", "whiplash_sled_seat": "sled",
                       "midsize_sedan_driver": "vehicle"}
    (tmp_path / "x.toml").write_text('kind = "interior"\nname = "x"\nbase = "midsize_sedan_driver"\n'
                                     'test_object = "boat"\n')
    with pytest.raises(InteriorFileError, match=r"x.toml: test_object: unknown test object 'boat' "
                                                r"\(accepted: vehicle, sled\)"):
        load_interior(tmp_path / "x.toml")
