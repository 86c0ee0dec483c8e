"""HDF5 results file and CSV export."""

import csv
import types
from pathlib import Path

import h5py
import numpy as np
import pytest

from occupant.channel import Channel
from occupant.io.results_h5 import ResultsFileError, read_results, write_csv, write_results


def stand_in_results(n=400, nb=3, nq=7, nv=6):
    """A stand-in with the attribute names of occupant.results.Results."""
    rng = np.random.default_rng(11)
    t = np.linspace(0.0, 0.12, n)
    poses = np.tile(np.eye(4), (n, nb, 1, 1))
    poses[:, :, :3, 3] = rng.normal(size=(n, nb, 3))
    return types.SimpleNamespace(
        t=t,
        q=rng.normal(size=(n, nq)),
        v=rng.normal(size=(n, nv)),
        vdot=rng.normal(size=(n, nv)),
        base_poses=np.tile(np.eye(4), (n, 1, 1)),
        base_states=rng.normal(size=(n, 12)),
        body_com=rng.normal(size=(n, nb, 3)),
        body_poses=poses,
        energy={"kinetic": rng.random(n), "potential": rng.random(n)},
        channels=[
            Channel("head acceleration x", t, rng.normal(size=n), "m/s^2", code="11HEAD0000H3ACXA"),
            Channel("belt force", t[::2], rng.random(n // 2), "N"),
        ],
        events=[{"name": "airbag_fire", "t": 0.015}, {"name": "head_contact", "t": 0.062, "body": "head"}],
        stats={"steps": 1234, "rhs_evaluations": 7404, "max_step": 1.0e-4, "integrator": "euler"},
        provenance={"occupant": "0.1.0", "scenario_sha256": "ab" * 32},
        body_names=["pelvis", "thorax", "head"],
        dof_names=[f"dof{i}" for i in range(nv)],
    )


def test_identity_results_round_trip(tmp_path):
    r = stand_in_results()
    path = write_results(r, tmp_path / "run.h5")
    b = read_results(path)
    for name in ("t", "q", "v", "vdot", "body_com", "body_poses", "base_poses", "base_states"):
        np.testing.assert_array_equal(getattr(b, name), getattr(r, name))
    assert b.energy.keys() == r.energy.keys()
    for k in r.energy:
        np.testing.assert_array_equal(b.energy[k], r.energy[k])
    assert [c.name for c in b.channels] == [c.name for c in r.channels]
    assert [c.unit for c in b.channels] == [c.unit for c in r.channels]
    assert [c.code for c in b.channels] == [c.code for c in r.channels]
    for x, y in zip(b.channels, r.channels):
        np.testing.assert_array_equal(x.t, y.t)
        np.testing.assert_array_equal(x.values, y.values)
    assert b.events == r.events
    assert b.stats == r.stats and isinstance(b.stats["steps"], int)
    assert b.provenance == r.provenance
    assert b.body_names == r.body_names and b.dof_names == r.dof_names


def test_reference_layout_readable_with_plain_h5py(tmp_path):
    r = stand_in_results()
    write_results(r, tmp_path / "run.h5")
    with h5py.File(tmp_path / "run.h5", "r") as f:
        assert f.attrs["format"] == "occupant-results" and f.attrs["format_version"] == 1
        assert f["t"].attrs["unit"] == "s"
        assert f["body_com"].shape == (400, 3, 3) and f["body_com"].attrs["unit"] == "m"
        assert f["body_poses"].shape == (400, 3, 4, 4)
        assert f["energy/kinetic"].attrs["unit"] == "J"
        ch = f["channels/000"]
        assert ch.attrs["name"] == "head acceleration x" and ch.attrs["unit"] == "m/s^2"
        assert ch.attrs["code"] == "11HEAD0000H3ACXA"
        np.testing.assert_array_equal(ch["values"][()], r.channels[0].values)
        assert f["channels/001"].attrs["code"] == ""
        assert [s.decode() for s in f["events/name"][()]] == ["airbag_fire", "head_contact"]
        np.testing.assert_array_equal(f["events/t"][()], [0.015, 0.062])
        assert f["stats"].attrs["steps"] == 1234
        assert f["provenance"].attrs["scenario_sha256"] == "ab" * 32
        assert [s.decode() for s in f["body_names"][()]] == ["pelvis", "thorax", "head"]


def test_identity_optional_parts_may_be_missing(tmp_path):
    r = types.SimpleNamespace(t=np.linspace(0, 1, 5), q=None, v=None, body_com=None, body_poses=None,
                              energy=None, channels=[], events=[], stats={}, provenance={},
                              body_names=[], dof_names=[])
    b = read_results(write_results(r, tmp_path / "min.h5"))
    assert b.q is None and b.energy is None and b.channels == [] and b.events == []
    np.testing.assert_array_equal(b.t, r.t)


def test_identity_csv_round_trip(tmp_path):
    t = np.arange(0, 100) * 1e-4
    chans = [Channel("head acceleration x", t, np.sin(t * 300), "m/s^2"),
             Channel("neck force, z", t, 1e3 * np.cos(t * 300), "N")]
    path = write_csv(chans, tmp_path / "out.csv")
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["time [s]", "head acceleration x [m/s^2]", "neck force, z [N]"]
    data = np.array(rows[1:], dtype=float)
    np.testing.assert_array_equal(data[:, 0], t)
    np.testing.assert_array_equal(data[:, 1], chans[0].values)
    np.testing.assert_array_equal(data[:, 2], chans[1].values)


def test_invalid_input_is_rejected_with_clear_message(tmp_path):
    r = stand_in_results()
    r.q = r.q[:-1]
    with pytest.raises(ResultsFileError, match=r"results\.q"):
        write_results(r, tmp_path / "bad.h5")
    r = stand_in_results()
    r.stats["converged"] = [True]
    with pytest.raises(ResultsFileError, match="stats"):
        write_results(r, tmp_path / "bad.h5")
    t = np.arange(10) * 1e-3
    with pytest.raises(ResultsFileError, match="time axis"):
        write_csv([Channel("a", t, t, "m"), Channel("b", t[:-1], t[:-1], "m")], tmp_path / "x.csv")
    with h5py.File(tmp_path / "other.h5", "w") as f:
        f["x"] = 1
    with pytest.raises(ResultsFileError, match="not an occupant results file"):
        read_results(tmp_path / "other.h5")
    assert issubclass(ResultsFileError, ValueError)


def test_identity_channel_pickles_and_stays_immutable():
    import pickle

    t = np.arange(5) * 1e-3
    ch = Channel("head acceleration x", t, t * 2, "m/s^2", code="11HEAD0000H3ACXA")
    back = pickle.loads(pickle.dumps(ch))
    assert (back.name, back.unit, back.code) == (ch.name, ch.unit, ch.code)
    np.testing.assert_array_equal(back.values, ch.values)
    with pytest.raises(AttributeError):
        back.unit = "g"
    with pytest.raises(ValueError):
        back.values[0] = 1.0  # read-only array
    assert back.dt == pytest.approx(1e-3)


def test_identity_status_message_and_record_round_trip(tmp_path):
    res = types.SimpleNamespace(t=np.linspace(0.0, 0.01, 11), status="diverged",
                                message="the state stopped being finite at t = 0.01 s")
    record = {"name": "x", "criteria": [{"criterion": "HIC15", "value": 12.5, "pass": None}], "judged": False}
    back = read_results(write_results(res, tmp_path / "r.h5", record=record))
    assert (back.status, back.message, back.record) == (res.status, res.message, record)
    plain = read_results(write_results(types.SimpleNamespace(t=res.t), tmp_path / "p.h5"))
    assert (plain.status, plain.message, plain.record) == ("finished", "", None)


EPOCH = 1767225600   # 2026-01-01T00:00:00Z


def test_identity_same_bytes_under_source_date_epoch(tmp_path, monkeypatch):
    """Identical inputs, identical files (issue 13 section 5): SOURCE_DATE_EPOCH fixes `created`."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
    r = stand_in_results()
    assert write_results(r, tmp_path / "a.h5").read_bytes() == write_results(r, tmp_path / "b.h5").read_bytes()
    with h5py.File(tmp_path / "a.h5") as f:
        assert f.attrs["created"] == "2026-01-01T00:00:00+00:00"


def test_creation_time_is_the_clock_without_source_date_epoch(monkeypatch):
    import datetime as dt

    from occupant.io.timestamp import creation_time
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    before = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    assert before <= creation_time() <= dt.datetime.now(dt.timezone.utc)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    with pytest.raises(ValueError, match="SOURCE_DATE_EPOCH='yesterday': expected a whole number of seconds"):
        creation_time()


def test_reference_a_full_disk_fails_once_naming_the_file_and_leaves_no_partial_file(tmp_path):
    """(usercheck8) A run folder on a full disk (here: past a file-size limit, which fails the
    same write) made HDF5 fail again at every object it released: thousands of traceback lines,
    then the interpreter crashed at exit (exit 139). The file is now built in memory and written
    in one piece: one OSError naming it, no file left, a clean exit."""
    import subprocess
    import sys
    script = (
        "import resource, sys, errno\n"
        "sys.path[:0] = [%r, %r]\n"
        "from test_results_h5 import stand_in_results\n"
        "from occupant.io.results_h5 import write_results\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (100000, 100000))\n"
        "try:\n"
        "    write_results(stand_in_results(n=4000), %r)\n"
        "except OSError as err:\n"
        "    print('refused', errno.errorcode[err.errno], err.filename)\n"
        % (str(Path(__file__).parent), str(Path(__file__).parents[2]), str(tmp_path / "run.h5")))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == f"refused EFBIG {tmp_path / 'run.h5'}"
    assert done.stderr == ""
    assert not (tmp_path / "run.h5").exists()
