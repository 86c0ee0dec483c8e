"""Crash pulses: the vehicle's (B0's) acceleration along one axis (x unless ``direction`` says
otherwise), from an analytic shape
(half-sine or trapezoid given by delta-v and duration or peak), a CSV table or an ISO-MME
channel; turned into an ``occupant.model.BaseMotion``.

Sign: J211 vehicle axes, a frontal crash decelerates the vehicle, so its x acceleration is
negative (crash-domain-facts.md 0.1). Shapes and their identities (crash-domain-facts.md 4.2
[D]): a half-sine A sin(pi t / T) loses delta-v = 2 A T / pi; a trapezoid with rise r, plateau
p and fall f at peak A loses A (p + (r + f) / 2).

Scenario table ``[pulse]`` (units at the edge, conventions rule 7: km/h and g in the file)::

    shape = "half_sine"     # half_sine | trapezoid | csv | isomme
    delta_v_kmh = 48.0      # half_sine: two of delta_v_kmh, peak_g, duration
    duration = 0.1          # s
    speed_kmh = 48.0        # vehicle speed when the pulse starts (default: delta-v)
    start = 0.0             # s, time of the pulse's start in the run
    # trapezoid: delta_v_kmh, peak_g, rise, fall (s); the plateau follows from delta-v
    # csv: file = "pulse.csv", header "time [s],acceleration [g]" (or [ms]; [m/s^2]; each unit
    #      in brackets or in parentheses: "Time (ms)", as EDR and CDR exports write it), J211 signs
    #      (a frontal crash's deceleration negative: a table that speeds the vehicle up is refused);
    #      or "time [ms],delta-v [km/h]" (or [m/s], [mph]): an EDR's velocity change, differentiated
    # isomme: file = "test folder or .mme", channel = "10VEHC0000..ACXD" (16-char code)
    scale = 1.0             # csv / isomme: factor on the acceleration (optional)
    direction = [1, 0, 0]   # B0 axis along which the vehicle loses delta-v (optional): a side
                            # impact struck on the left is [0, 1, 0] with speed_kmh = 0 (the car
                            # is pushed towards -y), a rear impact [-1, 0, 0] (pushed forward)
"""
import csv
import math
import pathlib
import re
from dataclasses import dataclass

import numpy as np

from occupant.constants import G0
from occupant.model import BaseMotion
from occupant.io.toml_files import located, missing_file
from occupant.scenario.keys import KEYS as _KEYS, MAX_DELTA_V, MAX_T_END, SIDE_SPEED, read

KMH = 1.0 / 3.6    # m/s per km/h
SAMPLE_DT = 1e-4   # s, the analytic shapes are tabulated at 10 kHz (the channel rate)
SHAPES = _KEYS["pulse.shape"].choices
KEYS = {   # the keys each shape takes (each key's type, unit and range: occupant.scenario.keys)
    "half_sine": ("shape", "delta_v_kmh", "peak_g", "duration", "speed_kmh", "start", "direction"),
    "trapezoid": ("shape", "delta_v_kmh", "peak_g", "rise", "fall", "speed_kmh", "start", "direction"),
    "csv": ("shape", "file", "speed_kmh", "start", "scale", "direction"),
    "isomme": ("shape", "file", "channel", "speed_kmh", "start", "scale", "direction"),
}
_UNITS = {"g": G0, "m/s^2": 1.0, "m/s2": 1.0, "m/(s*s)": 1.0, "m/s**2": 1.0}
# a CSV pulse's second column may be the vehicle's velocity change instead, as an event data
# recorder's (EDR) download gives it (delta-V against time at 10 ms, in km/h or mph: 49 CFR
# 563.7 Table I, "delta-V, longitudinal", 0-250 ms at 10 ms [U]); it was refused as a header
# without an acceleration (usercheck11). m/s per unit; 1 mph = 0.44704 m/s exactly (NIST SP 811)
_VELOCITY_UNITS = {"km/h": KMH, "kph": KMH, "m/s": 1.0, "mph": 0.44704}
# a CSV pulse's time column: s, or ms as a test's data acquisition exports it (was refused for the
# header alone, usercheck9)
_TIME_UNITS = {"s": 1.0, "ms": 1e-3}
# the same units as exports also abbreviate them: a CDR export's header "Time (msec),Longitudinal
# Delta-V (MPH)" (scenarios/HISTORY.md, usercheck11, left item 4) (usercheck12)
_TIME_ALIASES = {"sec": "s", "msec": "ms"}
# s: the shortest table a CSV pulse may span [E]: crash pulses last tens of ms (full-frontal rigid
# barrier 70-100 ms, crash-domain-facts 4.2 [U]; IIWPG rear ~90 ms, 4.3 [U]; FMVSS 213 sled
# 80-90 ms, 4.1 [C]), so a table of < 5 ms is one written in s under a [ms] header (a 100 ms
# pulse read as 0.1 ms)
MIN_PULSE_SPAN = 0.005
_CSV_HEADER = ("time [s] (or [ms]),acceleration [g] (or [m/s^2]); or time [ms],delta-v [km/h] (or [m/s], "
               "[mph]): an EDR's velocity change; each unit in brackets or parentheses")
# a header cell's unit: in brackets ("time [ms]", "acceleration [m/(s*s)]"), else the last one
# in parentheses ("Time (ms)", "Delta-V, longitudinal (km/h)", as EDR and CDR exports write
# them: refused for the parentheses alone before, usercheck12). Read without regard to case
# ("Time (MS)", "(MPH)", "(G)"): no two units it reads differ only in case
_UNIT_IN_BRACKETS = re.compile(r"\[(.*)\]")
_UNIT_IN_PARENTHESES = re.compile(r"\(([^()]*)\)")


def _header_unit(cell):
    """The unit a CSV header ``cell`` names (lower case, spaces round it dropped), or None when
    it names none."""
    found = _UNIT_IN_BRACKETS.search(cell)
    unit = found[1] if found else (_UNIT_IN_PARENTHESES.findall(cell) or [None])[-1]
    return None if unit is None else unit.strip().lower()


@dataclass
class Pulse:
    t: np.ndarray        # (n,) s, from 0
    a: np.ndarray        # (n,) m/s^2, vehicle acceleration along ``direction`` (deceleration negative)
    speed0: float        # m/s, vehicle speed along ``direction`` at t = 0
    source: str          # what it is, for the summary and the report
    direction: tuple = (1.0, 0.0, 0.0)   # unit vector in B0 (= world at t = 0)
    file: object = None  # what it was read from: the CSV file, the ISO-MME test's folder (or its
    #                      .zip) (None: from its table, stored)
    start: float = 0.0   # s: the run time the crash starts: a [pulse]'s ``start`` key (its table's
    #                      t = 0), a pre-crash pulse's impact (occupant.scenario.precrash); the
    #                      human's neck holds its posture until then and its reflex counts from it

    @property
    def delta_v(self):
        """Velocity lost (m/s): minus the trapezoidal integral of a."""
        return float(-np.trapezoid(self.a, self.t))

    @property
    def peak(self):
        """Peak deceleration (m/s^2, positive)."""
        return float(np.max(-self.a))

    @property
    def duration(self):
        """From the first to the last time |a| exceeds 1 % of its peak (s), the table linear
        between its rows as the run reads it (a triangle of three rows lasts its base's length,
        not the 0 s between its one row above the level and itself)."""
        mag = np.abs(self.a)
        level = 0.01 * np.max(mag)
        big = np.nonzero(mag > level)[0]
        if not len(big):
            return 0.0

        def crossing(k, j):   # where a, linear between rows k (|a| at or below the level) and j,
            #                   reaches the level on row j's side (a row on the other side of 0
            #                   is not mirrored: the line crosses 0 first)
            reach = np.copysign(level, self.a[j])
            return self.t[k] + (reach - self.a[k]) / (self.a[j] - self.a[k]) * (self.t[j] - self.t[k])

        first, last = big[0], big[-1]
        start = self.t[first] if first == 0 else crossing(first - 1, first)
        end = self.t[last] if last == len(mag) - 1 else crossing(last + 1, last)
        return float(end - start)

    def base_motion(self):
        """The vehicle's motion: B0 translating along ``direction``."""
        d = np.asarray(self.direction, float)
        return BaseMotion.translational(self.t, np.outer(self.a, d), velocity0=self.speed0 * d)

    def record(self):
        """The pulse as run, as a run folder stores it (occupant.scenario.run): (JSON values,
        {name: 1-D array}); ``stored`` builds it again from them."""
        return ({"speed0": float(self.speed0), "source": self.source, "start": float(self.start),
                 "direction": [float(x) for x in self.direction]}, {"t": self.t, "a": self.a})

    @classmethod
    def stored(cls, values, arrays):
        """The Pulse a record holds (``record``), or None when its arrays are not there."""
        if "t" not in arrays or "a" not in arrays:
            return None
        # (a record written before the start was kept: its run's human was built with 0)
        return cls(arrays["t"], arrays["a"], values["speed0"], values["source"], tuple(values["direction"]),
                   start=values.get("start", 0.0))

    def describe(self):
        if not np.any(self.a) and self.speed0 == 0:
            return f"{self.source}: no motion"
        return (f"{self.source}: delta-v {self.delta_v / KMH:.1f} km/h, peak {self.peak / G0:.1f} g, "
                f"duration {self.duration * 1e3:.0f} ms, vehicle {self.speed0 / KMH:.1f} -> "
                f"{(self.speed0 - self.delta_v) / KMH:.1f} km/h")


def _pad(t, a, start, t_end):
    """Shift by ``start`` and extend with zeros to cover [0, t_end] and beyond."""
    t = np.asarray(t, float) + start
    a = np.asarray(a, float)
    if t[0] > 0:
        t, a = np.concatenate([[0.0], t]), np.concatenate([[0.0], a])
    end = max(t_end, t[-1]) + 0.05
    if t[-1] < end:
        t, a = np.concatenate([t, [t[-1] + SAMPLE_DT, end]]), np.concatenate([a, [0.0, 0.0]])
    return t, a


def half_sine(c, p, path):
    """(t, a) of A sin(pi t / T), from two of delta-v, peak and duration (delta-v = 2 A T / pi)."""
    dv, peak, T = (read(c, p, path, k) for k in ("delta_v_kmh", "peak_g", "duration"))
    given = [k for k, v in (("delta_v_kmh", dv), ("peak_g", peak), ("duration", T)) if v is not None]
    if len(given) != 2:
        c.fail(path, f"a half-sine takes exactly two of delta_v_kmh, peak_g, duration; got "
               f"{', '.join(given) or 'none'}", "two of delta_v_kmh, peak_g, duration")
    dv = None if dv is None else dv * KMH
    peak = None if peak is None else peak * G0
    if T is None:
        T = math.pi * dv / (2.0 * peak)
    elif peak is None:
        peak = math.pi * dv / (2.0 * T)
    n = max(int(round(T / SAMPLE_DT)), 10)
    t = np.linspace(0.0, T, n + 1)
    return t, -peak * np.sin(np.pi * t / T), f"half-sine {peak / G0:.1f} g, {T * 1e3:.0f} ms"


def trapezoid(c, p, path):
    """(t, a): linear rise to the peak A, plateau, linear fall; plateau from delta-v."""
    for k in ("delta_v_kmh", "peak_g", "rise", "fall"):   # each required with a trapezoid
        if k not in p:
            c.fail(c.where(path, k), "missing", _KEYS[f"pulse.{k}"].accepted())
    dv = read(c, p, path, "delta_v_kmh") * KMH
    peak = read(c, p, path, "peak_g") * G0
    rise = read(c, p, path, "rise")
    fall = read(c, p, path, "fall")
    plateau = dv / peak - 0.5 * (rise + fall)
    if plateau < 0:
        c.fail(f"{path}.peak_g", f"rise {rise} s and fall {fall} s at {peak / G0:g} g already lose "
               f"more than delta-v {dv / KMH:g} km/h", "a higher peak or shorter rise and fall")
    corners = np.array([0.0, rise, rise + plateau, rise + plateau + fall])
    t, keep = np.unique(corners, return_index=True)
    a = np.array([0.0, -peak, -peak, 0.0])[keep]
    # tabulated at the channel rate as the half-sine (corners kept, so delta-v stays exact):
    # the base's position and velocity are interpolated from this table, and four corners
    # 45 ms apart gave a base whose position did not follow its velocity
    fine = np.union1d(np.linspace(0.0, t[-1], max(int(round(t[-1] / SAMPLE_DT)), 10) + 1), t)
    return fine, np.interp(fine, t, a), f"trapezoid {peak / G0:.1f} g, rise {rise * 1e3:.0f} ms, plateau {plateau * 1e3:.0f} ms"


def _resolve(c, p, path, named_by, copy=None):
    """The path of the table's ``file``, a relative one read from the folder of the scenario
    file ``named_by`` (occupant.io.toml_files.located); ``copy``: a run folder's copy of what it
    names (read_pulse), read instead."""
    f = c.string(p, "file", path, required=True)
    if copy is not None:   # an ISO-MME .mme: the copy is its test folder (isomme_source)
        copy = pathlib.Path(copy)
        return copy / pathlib.PurePath(f).name if copy.is_dir() and f.lower().endswith(".mme") else copy
    fp = located(f, named_by)
    if not fp.exists():
        # a path given by --set arrives made absolute against the working directory (load.on_command_line)
        c.fail(f"{path}.file", missing_file(f, named_by),
               "an existing file: a relative path is read from the scenario file's folder, one given by "
               "--set from the working directory")
    return fp


def from_velocity_change(t, v, start=0.0):
    """(t, a) of the acceleration table whose run (linear between rows, as BaseMotion reads it)
    changes the velocity by ``v`` (m/s, from its first row) at the times ``t`` (s): the velocity
    linear between rows, the acceleration held at each interval's (v[k+1] - v[k]) / (t[k+1] -
    t[k]) and, at each row, a ramp of 2 h to the next (h = 0.1 ms, or a quarter of the shortest
    interval) centred on the row, whose area is the two held values' over it: the velocity is
    the table's from h after each row on, and within h |a[k+1] - a[k]| h / 4 of it at the row.
    The first row steps to the first interval's value: a ramp ending h after it when the run
    has h before it (``start``, the [pulse]'s), at once otherwise; after the last row, 0."""
    t = np.asarray(t, float)
    a = np.diff(np.asarray(v, float)) / np.diff(t)   # (n - 1,) the held accelerations
    h = min(SAMPLE_DT, 0.25 * float(np.min(np.diff(t))))
    before = np.concatenate([[0.0], a])   # each row's value before it and after it
    after = np.concatenate([a, [0.0]])
    rows_t, rows_a = [], []
    for k, tk in enumerate(t):
        if k == 0 and tk + start < h:   # no room before the run's start: the step at once
            rows_t.append(tk), rows_a.append(after[0])
            continue
        rows_t += [tk - h, tk + h]
        rows_a += [before[k], after[k]]
    return np.array(rows_t), np.array(rows_a)


def from_csv(c, fp, path, start=0.0):
    """(t, a, what) of the CSV file ``fp`` of the [pulse] table at ``path``: a header row naming
    the two columns with units, then rows of two numbers, times increasing (lines starting with
    # and blank lines skipped), t as the file gives it (t = 0 the crash's start: ``read_pulse``
    places it at the [pulse]'s ``start``). A bad row is named by its line in the file. A second
    column in a velocity unit is the velocity change (an EDR's delta-V, J211 signs as the
    accelerations': a frontal crash's negative), turned into accelerations by
    ``from_velocity_change``."""
    where = f"{path}.file"
    try:
        with open(fp, newline="", encoding="utf-8") as fh:
            reader = csv.reader(fh)
            rows = [(reader.line_num, r) for r in reader if r and not r[0].lstrip().startswith("#")]
    except OSError as exc:
        c.fail(where, f"cannot read {str(fp)!r}: {exc.strerror}", "a CSV file")
    except UnicodeDecodeError:   # a binary file (an .xlsx, a .mat): not a CSV text
        c.fail(where, f"{fp.name}: not a UTF-8 text file", "a CSV text file")
    if not rows:   # (an empty file was "the first row must name the columns with units, got []")
        c.fail(where, f"{fp.name}: an empty file (no header, no rows)",
               f"a header {_CSV_HEADER}, then rows of time, acceleration")
    head = rows[0][1]
    named = [_header_unit(h) for h in head]
    if len(head) != 2 or None in named:
        c.fail(where, f"{fp.name}: the first row must name the columns with units, got {head!r}", _CSV_HEADER)
    named[0] = _TIME_ALIASES.get(named[0], named[0])
    for column, known, what, accepted in (
            (0, _TIME_UNITS, "time", ", ".join([*_TIME_UNITS, *_TIME_ALIASES])),
            (1, {**_UNITS, **_VELOCITY_UNITS}, "second", f"{', '.join(_UNITS)} (an acceleration) or "
             f"{', '.join(_VELOCITY_UNITS)} (a velocity change)")):
        if named[column] not in known:   # a unit named but not one it reads ("Delta-V (ft/s)")
            c.fail(where, f"{fp.name}: header {head[column]!r}: unit {named[column]!r} is not one it "
                   f"reads for the {what} column", f"{accepted}, in brackets or parentheses")
    time_unit, value_unit = named
    data = []
    for line, r in rows[1:]:
        try:
            if len(r) != 2:
                raise ValueError
            data.append([float(x) for x in r])
        except ValueError:
            c.fail(where, f"{fp.name}: line {line}: {','.join(r)!r} is not two numbers",
                   "rows of time, acceleration")
        if not all(math.isfinite(x) for x in data[-1]):
            c.fail(where, f"{fp.name}: line {line}: {','.join(r)!r} is not finite",
                   "finite times and accelerations")
        if len(data) > 1 and data[-1][0] <= data[-2][0]:
            c.fail(where, f"{fp.name}: line {line}: time {data[-1][0]:g} {time_unit} does not increase "
                   f"(the row before: {data[-2][0]:g} {time_unit})", "rows of time, acceleration, times increasing")
    if len(data) < 2:
        c.fail(where, f"{fp.name}: {len(data)} row(s) of data", ">= 2 rows of time, acceleration")
    data = np.array(data, float)
    t = data[:, 0] * _TIME_UNITS[time_unit]
    span = t[-1] - t[0]
    if span > MAX_T_END:   # (times in ms under a [s] header: a 100 ms pulse read as 100 s, unsaid)
        c.fail(where, f"{fp.name}: its times span {span:g} s, longer than any run (solver.t_end <= "
               f"{MAX_T_END:g} s): times in {'ms' if time_unit == 's' else 'us'}?",
               f"times in {time_unit}, as the header time [{time_unit}] says (or a header time [ms])")
    if span < MIN_PULSE_SPAN:   # (times in s under a [ms] header: a 100 ms pulse read as 0.1 ms, unsaid)
        c.fail(where, f"{fp.name}: its times span {span * 1e3:g} ms, shorter than any crash pulse (a "
               f"vehicle's or a sled's lasts tens of ms){': times in s?' if time_unit == 'ms' else ''}",
               f"a pulse spanning >= {MIN_PULSE_SPAN * 1e3:g} ms, times in {time_unit} as the header "
               f"time [{time_unit}] says (or a header time [{'s' if time_unit == 'ms' else 'ms'}])")
    if value_unit in _VELOCITY_UNITS:
        t, a = from_velocity_change(t, data[:, 1] * _VELOCITY_UNITS[value_unit], start)
        return t, a, f"CSV {fp.name} (velocity change)"
    return t, data[:, 1] * _UNITS[value_unit], f"CSV {fp.name}"


def isomme_source(fp):
    """What occupant.io.isomme.read reads of the ISO-MME pulse ``fp``: a test folder, the
    folder of a .mme file (all of it), or a .zip."""
    fp = pathlib.Path(fp)
    return fp.parent if fp.is_file() and fp.suffix.lower() == ".mme" else fp


def from_isomme(c, fp, p, path):
    from occupant.io import isomme
    code = c.string(p, "channel", path, required=True)
    try:
        channels = isomme.read(fp)
    except (isomme.IsoMmeError, ValueError) as err:
        c.fail(f"{path}.file", str(err),
               "an ISO-MME test folder (one .mme file), its .mme file or a .zip of it")
    if not channels:   # a text file that is no .mme: nothing read from it
        c.fail(f"{path}.file", f"{fp.name}: no channels read from it", "an ISO-MME test folder or its .mme file")
    match = [ch for ch in channels if ch.code == code]
    if not match:
        c.fail(f"{path}.channel", f"no channel {code!r} in {fp.name}",
               ", ".join(ch.code for ch in channels if ch.code) or "none found")
    ch = match[0]
    if ch.unit not in _UNITS:
        c.fail(f"{path}.channel", f"channel {code!r} has unit {ch.unit!r}, not an acceleration",
               ", ".join(_UNITS))
    return ch.t, ch.values * _UNITS[ch.unit], f"ISO-MME {fp.name} {code}"


def read_pulse(c, p, path, named_by, t_end, copy=None):
    """The validated Pulse of a scenario's [pulse] table (checker ``c``, key path ``path``);
    ``named_by``: the scenario file (a relative ``file`` is read from its folder); ``copy``: a
    run folder's copy of its CSV file or ISO-MME test (Pulse.file), read instead of the one the
    table names."""
    shape = read(c, p, path, "shape")
    c.keys(p, KEYS[shape], path)
    file = None   # what a CSV or ISO-MME pulse was read from (the run folder copies it)
    if shape == "half_sine":
        t, a, what = half_sine(c, p, path)
    elif shape == "trapezoid":
        t, a, what = trapezoid(c, p, path)
    elif shape == "csv":
        file = _resolve(c, p, path, named_by, copy)
        t, a, what = from_csv(c, file, path, start=read(c, p, path, "start"))
    else:
        fp = _resolve(c, p, path, named_by, copy)
        t, a, what = from_isomme(c, fp, p, path)
        file = isomme_source(fp)
    scale = read(c, p, path, "scale")
    start = read(c, p, path, "start")
    if t[0] + start < 0:
        # (a test's pre-trigger rows, from t = -0.05 s say, were shifted to the run's start: the
        # crash, the table's t = 0, ran 50 ms late and the human's neck let go 50 ms before it)
        c.fail(c.where(path, "file" if shape == "csv" else "channel"),
               f"{what}: its first row is at t = {t[0]:g} s, before the run's start (the table's "
               f"t = 0 is the crash's start, pulse.start = {start:g} s into the run)",
               f"times from -pulse.start on: pulse.start = {-t[0]:g} runs the rows before t = 0 "
               "too (solver.t_end as much longer), or a table without them")
    t, a = _pad(t, a * scale, start, t_end)
    gain = float(np.trapezoid(a, t))   # m/s: the speed the table adds along direction
    if shape in ("csv", "isomme") and gain > 0:
        # (a table of positive decelerations ran the sled from 48 to 96 km/h, unsaid)
        c.fail(c.where(path, "file" if shape == "csv" else "channel"),
               f"{what}: the vehicle gains {gain / KMH:.1f} km/h along direction over the pulse; a crash "
               "pulse slows it: its accelerations are signed as SAE J211's, a frontal crash's x "
               "acceleration negative (as in ISO-MME vehicle channels)",
               "decelerations negative, or scale = -1 for a table of positive decelerations")
    if -gain > MAX_DELTA_V * KMH:
        # (a table in m/s^2 under an [g] header ran a 56 km/h pulse as one of 550 km/h, unsaid)
        key = {"csv": "file", "isomme": "channel"}.get(shape, "shape")
        c.fail(c.where(path, key), f"{what}: the vehicle loses {-gain / KMH:.0f} km/h over the pulse, "
               f"past any crash test's" + (": accelerations in m/s^2 under a [g] header?"
                                           if shape in ("csv", "isomme") else ""),
               f"a speed change up to {MAX_DELTA_V:g} km/h, accelerations in the unit the table names")
    d = read(c, p, path, "direction")
    if not np.linalg.norm(d) > 0:
        c.fail(c.where(path, "direction"), "must not be zero", "a vector in the vehicle frame B0")
    pulse = Pulse(t, a, 0.0, what, tuple(float(x) for x in d / np.linalg.norm(d)), file=file,
                  start=float(start))
    speed = read(c, p, path, "speed_kmh")
    if speed and abs(d[1]) > abs(d[0]):
        # a side impact's pulse is the struck car's, at rest before it: a speed along a lateral
        # direction moved car and occupant sideways together, the crash unchanged, and changed
        # only the printed speeds ("vehicle 50.0 -> 21.0 km/h"; usercheck12, usercheck13)
        c.fail(c.where(path, "speed_kmh"), f"{speed:g} km/h along a side pulse's direction "
               f"{[float(x) for x in d]} would move the struck car and the occupant sideways "
               "together before the impact: it changes only the printed speeds, not the crash",
               "0 (the struck car at rest); a striking barrier's speed enters as "
               f"the struck car's pulse.delta_v_kmh, {SIDE_SPEED}")
    pulse.speed0 = pulse.delta_v if speed is None else speed * KMH
    return pulse


def road_at_rest(t_end):
    """The Pulse of a B0 at rest (a pedestrian scenario's road): no acceleration, no speed."""
    return Pulse(np.array([0.0, t_end + 0.05]), np.zeros(2), 0.0, "road at rest (B0)")
