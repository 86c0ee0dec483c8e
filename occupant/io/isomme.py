"""ISO-MME (ISO/TS 13499) export and import of channels.

Layout written by `write(channels, folder, test_number)` (the test folder is ``folder``)::

    folder/<test_number>.mme             test header, "name  :value" lines
    folder/Channel/<test_number>.chn     channel list: "Name of channel 001 :<code> / <name>"
    folder/Channel/<test_number>.001     one file per channel: header lines, then one sample
    folder/Channel/<test_number>.002     per line (shortest text that reads back to the
    ...                                  same binary64 value)

Header lines are ASCII "name :value", the name padded to 28 characters, a missing value is
``NOVALUE`` (ISO/TS 13499 RED A; field names and order follow the BASt example test
AK3T02SI, crash-domain-facts.md 3.4). Time is "implicit": ``Time of first sample`` plus
k times ``Sampling interval``, so channels must be uniformly sampled when written. Reading
also accepts "explicit" time (a named reference channel), upper- or lower-case file names,
and zipped tests.

Channel codes are the 16-character codes of ISO/TS 13499 RED B (e.g. ``11HEAD0000H3ACXA``);
their 16th character is the filter class (0 unfiltered, A CFC 1000, B CFC 600, C CFC 180,
D CFC 60, L CFC 20 ...), written out as ``Channel frequency class`` in the channel header.

Units: ISO-MME spells SI units ``m/(s*s)``, ``Nm``, ``rad/(s*s)``, ``m``, ``N``, ``g``, ... On
export the common spellings of a Channel's unit (``m/s^2``, ``N*m``, ``rad/s^2``) are written
in ISO-MME form; on import they are mapped back, so a round trip keeps ``Channel.unit``.
"""

from __future__ import annotations

import math
import os
import re
import zipfile
from pathlib import Path

import numpy as np

from occupant.channel import Channel
from occupant.io.timestamp import creation_time

__all__ = ["IsoMmeError", "write", "read", "FILTER_CLASS_CFC"]

_FORMAT_EDITION = "1.6"  # ISO/TS 13499 data format edition of the BASt example files [C]
_NAME_WIDTH = 28  # header name padding seen in real files [C: crash-domain-facts.md 3.4]

#: 16th code character -> channel frequency class (Hz); ISO/TS 13499 RED B via pyisomme
#: channel_codes.xml [S: crash-domain-facts.md 3.4]. "0" unfiltered, "X" single value.
FILTER_CLASS_CFC = {"A": 1000, "B": 600, "C": 180, "D": 60, "E": 1000, "F": 600, "G": 180, "H": 60, "L": 20}

# occupant spelling -> ISO-MME spelling (pyisomme channel_codes.xml default units)
_UNIT_TO_MME = {
    "m/s^2": "m/(s*s)",
    "m/s**2": "m/(s*s)",
    "m/s2": "m/(s*s)",
    "N*m": "Nm",
    "N m": "Nm",
    "N.m": "Nm",
    "rad/s^2": "rad/(s*s)",
    "rad/s**2": "rad/(s*s)",
    "m^2/s^2": "m*m/(s*s)",
    "m**2/s**2": "m*m/(s*s)",
}
_UNIT_FROM_MME = {"m/(s*s)": "m/s^2", "Nm": "N*m", "rad/(s*s)": "rad/s^2", "m*m/(s*s)": "m^2/s^2", "-": "1",
                  # spellings written by pyisomme (astropy's str of the unit)
                  "m / s2": "m/s^2", "N m": "N*m", "rad / s2": "rad/s^2", "m2 / s2": "m^2/s^2"}

_HEADER_LINE = re.compile(r"([^:]*[^:\s])\s*:(.*)")
_CODE = re.compile(r"[0-9A-Z]{16}")


class IsoMmeError(ValueError):
    """An ISO-MME test could not be written or read; the message names the file or channel."""


# --------------------------------------------------------------------------------------
# writing


def _fmt(value) -> str:
    if value is None:
        return "NOVALUE"
    if isinstance(value, float):
        return "NOVALUE" if not math.isfinite(value) else repr(value)
    return str(value)


def _header(items) -> str:
    return "".join(f"{name:<{_NAME_WIDTH}}:{_fmt(value)}\n" for name, value in items)


def _check_test_number(test_number) -> str:
    if not isinstance(test_number, str) or not re.fullmatch(r"[A-Za-z0-9_\-]+", test_number or ""):
        raise IsoMmeError(
            f"test_number: expected letters, digits, '_' or '-' (it names the files), got {test_number!r}"
        )
    return test_number


def write(channels, folder, test_number: str = "OCCUPANT", *, title: str | None = None,
          test_type: str = "Simulation", laboratory: str = "occupant (simulation)") -> Path:
    """Write ``channels`` as a complete ISO-MME test in ``folder``; returns the .mme path.

    Every channel needs a 16-character ``code`` and uniform sampling. Channel files are
    numbered in the order given.
    """
    test_number = _check_test_number(test_number)
    channels = list(channels)
    if not channels:
        raise IsoMmeError("channels: nothing to write (give at least one Channel)")
    for i, ch in enumerate(channels):
        if not isinstance(ch, Channel):
            raise IsoMmeError(f"channels[{i}]: expected an occupant Channel, got {type(ch).__name__}")
        if ch.code is None:
            raise IsoMmeError(
                f"channels[{i}] ({ch.name!r}): ISO-MME needs a 16-character channel code; "
                f"build the Channel with code='...' (e.g. '11HEAD0000H3ACXA')"
            )
        if len(ch) > 1:
            steps = np.diff(ch.t)
            if np.max(np.abs(steps - np.mean(steps))) > 1e-6 * np.mean(steps):
                raise IsoMmeError(
                    f"channels[{i}] ({ch.name!r}): ISO-MME implicit time needs uniform sampling; "
                    f"resample the channel first"
                )
    folder = Path(folder)
    chan_dir = folder / "Channel"
    chan_dir.mkdir(parents=True, exist_ok=True)
    now = creation_time()

    mme = [
        ("Data format edition number", _FORMAT_EDITION),
        ("Laboratory name", laboratory),
        ("Laboratory contact name", None),
        ("Laboratory test ref. number", test_number),
        ("Customer name", None),
        ("Customer test ref. number", None),
        ("Title", title or f"occupant simulation {test_number}"),
        ("Medium No./number of media", "1/1"),
        ("Timestamp", now.isoformat()),
        ("Type of the test", test_type),
        ("Subtype of the test", None),
        ("Regulation", None),
        ("Reference temperature", None),
        ("Relative air humidity", None),
        ("Date of the test", now.date().isoformat()),
        ("Number of test objects", 1),
        ("Name of test object 1", "occupant model"),
        ("Ref. number of test object 1", None),
    ]
    (folder / f"{test_number}.mme").write_text(_header(mme), encoding="utf-8")

    chn = [("Instrumentation standard", "ISO/TS 13499"), ("Number of channels", len(channels))]
    chn += [(f"Name of channel {i:03d}", f"{ch.code} / {ch.name}") for i, ch in enumerate(channels, 1)]
    (chan_dir / f"{test_number}.chn").write_text(_header(chn), encoding="utf-8")

    for i, ch in enumerate(channels, 1):
        (chan_dir / f"{test_number}.{i:03d}").write_text(_channel_text(ch), encoding="utf-8")
    # a test written again into its folder with fewer channels (a rear sled run where a frontal
    # one was, 57 channels over 58) kept the earlier test's last files beside the new .chn
    # (usercheck8): the channel files of this test number past the ones written go
    for stale in chan_dir.glob(f"{test_number}.[0-9][0-9][0-9]"):
        if int(stale.suffix[1:]) > len(channels):
            stale.unlink()
    return folder / f"{test_number}.mme"


def _channel_text(ch: Channel) -> str:
    code = ch.code
    v = ch.values
    # the step as the run's output_dt reads (1e-4, not the mean of the times' differences,
    # 9.999999999999999e-05: usercheck9); 12 digits keep any step a run can be given
    dt = float(f"{(ch.t[-1] - ch.t[0]) / (len(ch) - 1):.12g}") if len(ch) > 1 else None
    cfc = FILTER_CLASS_CFC.get(code[15])
    finite = np.isfinite(v)
    if np.any(finite):
        k_max = int(np.nanargmax(np.where(finite, v, -np.inf)))
        k_min = int(np.nanargmin(np.where(finite, v, np.inf)))
        extrema = [("First global maximum value", float(v[k_max])), ("Time of maximum value", float(ch.t[k_max])),
                   ("First global minimum value", float(v[k_min])), ("Time of minimum value", float(ch.t[k_min]))]
    else:
        extrema = [("First global maximum value", None), ("Time of maximum value", None),
                   ("First global minimum value", None), ("Time of minimum value", None)]
    unit = _UNIT_TO_MME.get(ch.unit, ch.unit)
    items = [
        ("Channel code", code),
        ("Laboratory channel code", None),
        ("Customer channel code", None),
        ("Reference channel", "implicit"),
        ("Reference channel name", None),
        ("Data source", "Simulation"),
        ("Test object number", code[0] if code[0].isdigit() else None),
        ("Name of the channel", ch.name),
        ("Location", code[2:6]),
        ("Direction", code[14]),
        ("Pre-filter type", None),
        ("Channel frequency class", cfc),
        ("Cut off frequency", None),
        ("Reference system", None),
        ("Transducer type", None),
        ("Transducer id", None),
        ("Channel amplitude class", None),
        ("Sampling interval", dt),
        ("Unit", unit),
        ("Time of first sample", float(ch.t[0])),
        ("Number of samples", len(ch)),
        *extrema,
        ("Dimension", code[12:14]),
        ("Data status", "OK"),
    ]
    data = "\n".join("NOVALUE" if not math.isfinite(x) else repr(x) for x in v.tolist())
    return _header(items) + data + "\n"


# --------------------------------------------------------------------------------------
# reading


class _Source:
    """Files of a test in a folder or a zip archive, looked up case-insensitively."""

    def __init__(self, path: Path):
        self.path = path
        self.zip = None
        if path.is_file() and path.suffix.lower() == ".zip":
            try:
                self.zip = zipfile.ZipFile(path)
            except zipfile.BadZipFile:   # (a traceback: "File is not a zip file")
                raise IsoMmeError(f"{path.name}: not a zip archive") from None
            self.names = [n for n in self.zip.namelist() if not n.endswith("/")]
            self.root = ""
        else:
            root = path if path.is_dir() else path.parent
            self.root = root
            self.names = [str(p.relative_to(root)).replace(os.sep, "/") for p in root.rglob("*") if p.is_file()]
        self._lower = {n.lower(): n for n in self.names}

    def find(self, name: str) -> str | None:
        return self._lower.get(name.lower())

    def text(self, name: str) -> str:
        raw = self.zip.read(name) if self.zip else (Path(self.root) / name).read_bytes()
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw.decode("latin-1")  # older ISO-MME files are often Latin-1


def _parse_header(text: str, where: str):
    """Header dict (first occurrence of each name) and the remaining lines."""
    lines = text.splitlines()
    info = {}
    k = 0
    for k, line in enumerate(lines):
        s = line.strip()
        if not s:
            continue
        m = _HEADER_LINE.fullmatch(s)
        if m is None:
            break
        name, value = m.group(1).strip(), m.group(2).strip()
        info.setdefault(name, None if value.upper() in ("NOVALUE", "") else value)
    else:
        k = len(lines)
    return info, lines[k:]


def _float(info, key, where):
    value = info.get(key)
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        raise IsoMmeError(f"{where}: '{key}' is not a number: {value!r}")


def read(path) -> list:
    """Channels of an ISO-MME test: ``path`` is the test folder, its ``.mme`` file, or a
    ``.zip`` holding the test. Returns a list of `Channel` in channel-list order."""
    path = Path(path)
    if not path.exists():
        raise IsoMmeError(f"path: {path} does not exist (give a test folder, .mme file or .zip)")
    if path.is_file() and path.suffix.lower() not in (".mme", ".zip"):
        # (it was read as its folder: a CSV beside two tests "held 2 .mme files")
        raise IsoMmeError(f"{path.name}: a {path.suffix or 'file without a suffix'} file, neither a "
                          ".mme file nor a .zip")
    src = _Source(path)
    if path.is_file() and path.suffix.lower() == ".mme":
        mme_name = src.find(path.name)
    else:
        mmes = sorted(n for n in src.names if n.lower().endswith(".mme"))
        if len(mmes) != 1:
            found = f" ({', '.join(mmes[:4])}{', ...' if len(mmes) > 4 else ''})" if mmes else ""
            raise IsoMmeError(f"{path.name}: {'a folder' if path.is_dir() else 'an archive'} holding "
                              f"{len(mmes)} .mme files{found}, not one")
        mme_name = mmes[0]
    test_number = Path(mme_name).stem
    base = str(Path(mme_name).parent).replace(os.sep, "/")
    prefix = "" if base in ("", ".") else base + "/"
    chn_name = src.find(f"{prefix}Channel/{test_number}.chn")
    if chn_name is None:
        return []
    chn, _ = _parse_header(src.text(chn_name), chn_name)
    entries = []
    for key, value in chn.items():
        m = re.fullmatch(r"Name of channel (\d+)", key)
        if m and value:
            entries.append((int(m.group(1)), m.group(1), value))
    entries.sort()

    raw = []  # (number string, info, values, chn label)
    for _, number, label in entries:
        file_name = src.find(f"{prefix}Channel/{test_number}.{number}")
        if file_name is None:
            raise IsoMmeError(f"{chn_name}: channel file {test_number}.{number} is missing")
        info, data_lines = _parse_header(src.text(file_name), file_name)
        values = np.array([np.nan if s.strip().upper() == "NOVALUE" else float(s) for s in data_lines if s.strip()],
                          dtype=float)
        raw.append((file_name, info, values, label))

    by_code = {}
    for file_name, info, values, _ in raw:
        if info.get("Channel code"):
            by_code.setdefault(info["Channel code"], values)

    channels = []
    for file_name, info, values, label in raw:
        code = info.get("Channel code") or label.split("/")[0].strip()
        n = values.size
        ref = (info.get("Reference channel") or "").lower()
        t0 = _float(info, "Time of first sample", file_name)
        dt = _float(info, "Sampling interval", file_name)
        if ref == "explicit" or (dt is None and info.get("Reference channel name")):
            ref_code = info.get("Reference channel name")
            if ref_code not in by_code or by_code[ref_code].size != n:
                raise IsoMmeError(f"{file_name}: explicit time channel {ref_code!r} missing or of another length")
            t = by_code[ref_code]
        else:
            if dt is None:
                raise IsoMmeError(f"{file_name}: no 'Sampling interval' and no reference time channel")
            t = (0.0 if t0 is None else t0) + dt * np.arange(n)
        if code[2:6] == "TIRS":
            continue  # a time reference channel, not a measurement
        name = info.get("Name of the channel")
        if not name:
            name = label.split("/", 1)[1].strip() if "/" in label else code
        unit = info.get("Unit") or "1"
        unit = _UNIT_FROM_MME.get(unit, unit)
        channels.append(Channel(name, t, values, unit, code=code if _CODE.fullmatch(code or "") else None))
    return channels
