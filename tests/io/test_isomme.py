"""ISO-MME export/import: round trip, and the written test read by the independent pyisomme."""

import shutil
import zipfile

import numpy as np
import pytest

from occupant.channel import Channel, ChannelError
from occupant.io import isomme


def sample_channels():
    dt = 1.0e-4
    t = -0.01 + dt * np.arange(1201)  # 10 kHz from -10 ms, like the BASt example header
    rng = np.random.default_rng(7)
    return [
        Channel("head acceleration x", t, 300.0 * np.sin(60 * t) + rng.normal(size=t.size), "m/s^2", code="11HEAD0000H3ACXA"),
        Channel("upper neck force z", t, 1500.0 * np.exp(-(((t - 0.05) / 0.01) ** 2)), "N", code="11NECKUP00H3FOZA"),
        Channel("upper neck moment y", t, -30.0 * np.tanh(t / 0.02), "N*m", code="11NECKUP00H3MOYB"),
        Channel("chest deflection", t, -0.04 * np.clip(t, 0, None) / 0.12, "m", code="11CHST0000H3DSXC"),
        Channel("head angular velocity y", t, 20.0 * np.sin(30 * t), "rad/s", code="11HEAD0000H3AVYL"),
    ]


def test_identity_round_trip_keeps_values_units_codes(tmp_path):
    chans = sample_channels()
    mme = isomme.write(chans, tmp_path / "T001", test_number="T001")
    assert mme == tmp_path / "T001" / "T001.mme"
    assert (tmp_path / "T001" / "Channel" / "T001.chn").is_file()
    assert (tmp_path / "T001" / "Channel" / "T001.005").is_file()
    back = isomme.read(tmp_path / "T001")
    assert [c.code for c in back] == [c.code for c in chans]
    for a, b in zip(chans, back):
        assert b.name == a.name
        assert b.unit == a.unit
        np.testing.assert_array_equal(b.values, a.values)  # shortest repr: exact
        np.testing.assert_allclose(b.t, a.t, rtol=0, atol=1e-15)
    # reading through the .mme path and from a zip gives the same
    assert [c.code for c in isomme.read(mme)] == [c.code for c in chans]
    zpath = tmp_path / "T001.zip"
    with zipfile.ZipFile(zpath, "w") as z:
        for p in (tmp_path / "T001").rglob("*"):
            z.write(p, p.relative_to(tmp_path))
    np.testing.assert_array_equal(isomme.read(zpath)[1].values, chans[1].values)


def test_reference_files_are_iso_mme_headers(tmp_path):
    isomme.write(sample_channels(), tmp_path, test_number="T002")
    chn = (tmp_path / "Channel" / "T002.chn").read_text().splitlines()
    assert chn[1] == f"{'Number of channels':<28}:5"
    assert chn[2] == f"{'Name of channel 001':<28}:11HEAD0000H3ACXA / head acceleration x"
    head = (tmp_path / "Channel" / "T002.001").read_text().splitlines()
    fields = dict(line.split(":", 1) for line in head if ":" in line)
    fields = {k.strip(): v for k, v in fields.items()}
    assert fields["Channel code"] == "11HEAD0000H3ACXA"
    assert fields["Unit"] == "m/(s*s)"  # ISO-MME spelling
    assert fields["Channel frequency class"] == "1000"  # filter letter A
    assert fields["Sampling interval"] == "0.0001"   # as given, not 9.999999999999999e-05
    assert float(fields["Time of first sample"]) == pytest.approx(-0.01, rel=1e-12)
    assert fields["Number of samples"] == "1201"
    neck_moment = (tmp_path / "Channel" / "T002.003").read_text()
    assert f"{'Unit':<28}:Nm\n" in neck_moment
    assert f"{'Channel frequency class':<28}:600\n" in neck_moment


def test_reference_pyisomme_reads_written_test(tmp_path):
    pyisomme = pytest.importorskip("pyisomme")
    chans = sample_channels()
    isomme.write(chans, tmp_path / "SIM01", test_number="SIM01")
    for source in (tmp_path / "SIM01", tmp_path / "SIM01" / "SIM01.mme"):
        iso = pyisomme.Isomme().read(source)
        assert iso.test_number == "SIM01"
        assert len(iso.channels) == len(chans)
        si = {"m/s^2": "m/s**2", "N": "N", "N*m": "N*m", "m": "m", "rad/s": "rad/s"}
        for ours in chans:
            theirs = iso.get_channel(ours.code)
            assert theirs is not None, ours.code
            assert str(theirs.code) == ours.code
            # same values in the same unit: ask pyisomme for the data in our unit
            values = np.asarray(theirs.get_data(unit=si[ours.unit])).ravel()
            np.testing.assert_allclose(values, ours.values, rtol=1e-12, atol=0)
            time = np.asarray(theirs.data.index, dtype=float)
            np.testing.assert_allclose(time, ours.t, rtol=0, atol=1e-12)
            assert theirs.unit.is_equivalent(pyisomme.unit.Unit(si[ours.unit]))
            assert theirs.unit.to(si[ours.unit]) == pytest.approx(1.0)


def test_identity_pyisomme_written_test_reads_back(tmp_path):
    # the other direction: a test written by pyisomme is imported with the same values
    pyisomme = pytest.importorskip("pyisomme")
    import pandas as pd

    t = np.arange(0, 500) * 1e-4
    values = 40.0 * np.sin(2 * np.pi * 20 * t)
    ch = pyisomme.Channel("11CHST0000H3ACXC", pd.DataFrame(values, index=t), unit="m/(s*s)",
                          info={"Reference channel": "implicit"})
    iso = pyisomme.Isomme(test_number="PY01", channels=[ch])
    iso.write(tmp_path / "PY01" / "PY01.mme")
    back = isomme.read(tmp_path / "PY01")
    assert len(back) == 1
    assert back[0].code == "11CHST0000H3ACXC"
    assert back[0].unit == "m/s^2"
    # pyisomme prints samples with pandas' default 7 significant digits: half a unit of the last
    np.testing.assert_allclose(back[0].values, values, rtol=5e-7, atol=1e-12)
    np.testing.assert_allclose(back[0].t, t, atol=1e-12)


def test_invalid_input_is_rejected_with_clear_message(tmp_path):
    t = np.arange(10) * 1e-3
    with pytest.raises(isomme.IsoMmeError, match="code"):
        isomme.write([Channel("x", t, t, "m")], tmp_path)
    with pytest.raises(isomme.IsoMmeError, match="uniform"):
        isomme.write([Channel("x", t**2 + t, t, "m", code="11HEAD0000H3ACXA")], tmp_path)
    with pytest.raises(isomme.IsoMmeError, match="test_number"):
        isomme.write([Channel("x", t, t, "m", code="11HEAD0000H3ACXA")], tmp_path, test_number="a/b")
    with pytest.raises(isomme.IsoMmeError, match="does not exist"):
        isomme.read(tmp_path / "nothing")
    (tmp_path / "fake.zip").write_text("not a zip")   # (usercheck7: zipfile's BadZipFile, a traceback)
    with pytest.raises(isomme.IsoMmeError, match=r"^fake.zip: not a zip archive$"):
        isomme.read(tmp_path / "fake.zip")
    with pytest.raises(ChannelError, match="16-character"):
        Channel("x", t, t, "m", code="11HEAD")
    with pytest.raises(ChannelError, match="shape"):
        Channel("x", t, t[:-1], "m")
    assert issubclass(isomme.IsoMmeError, ValueError)


def test_identity_same_files_under_source_date_epoch(tmp_path, monkeypatch):
    """SOURCE_DATE_EPOCH fixes the header's Timestamp and test date: identical inputs, identical files."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")   # 2026-01-01T00:00:00Z
    isomme.write(sample_channels(), tmp_path / "a", "T1")
    isomme.write(sample_channels(), tmp_path / "b", "T1")
    header = (tmp_path / "a" / "T1.mme").read_text()
    assert "2026-01-01T00:00:00+00:00" in header
    assert header.split("Date of the test")[1].split("\n")[0].strip(" :") == "2026-01-01"
    for name in ("T1.mme", "Channel/T1.chn", "Channel/T1.001", "Channel/T1.005"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_reference_a_test_written_again_with_fewer_channels_leaves_none_of_the_earlier(tmp_path):
    """(usercheck8) A run folder reused for another scenario (US NCAP's 58 channels, then the
    rear sled's 57 into the same --out) kept the first test's last channel file beside the new
    .chn: a reader that takes the files it finds got a channel of another test. Only this test
    number's files past the new count go; another test's files in the folder stay."""
    chans = sample_channels()
    folder = tmp_path / "T001"
    isomme.write(chans, folder, test_number="T001")
    (folder / "Channel" / "T002.004").write_text("another test's file\n")   # (not touched)
    isomme.write(chans[:3], folder, test_number="T001")
    assert sorted(p.name for p in (folder / "Channel").iterdir()) == [
        "T001.001", "T001.002", "T001.003", "T001.chn", "T002.004"]
    assert [c.code for c in isomme.read(folder)] == [c.code for c in chans[:3]]
