"""Pre-crash braking then a frontal crash: B0 follows the vehicle model's chassis at the driver
H-point during an emergency-braking manoeuvre (occupant.vehicle.manoeuvre.chassis_base_motion:
longitudinal, vertical and pitch), then loses the speed left as a half-sine crash pulse that
starts where braking ends, continuous in velocity.

Scenario tables (units at the edge: km/h in the file)::

    [vehicle]
    interior = "midsize_sedan_driver"
    model = "midsize_sedan"          # vehicles/<model>.toml, the full-car model (occupant.vehicle)
    [precrash]
    manoeuvre = "hard_brake"         # the manoeuvres: occupant.scenario.keys
    speed_kmh = 56.0                 # vehicle speed when the braking starts
    duration = 0.5                   # s of braking before the crash (the crash starts here)
    crash_duration = 0.080           # s, half-sine length; delta-v = the speed left at impact

In the crash phase only the longitudinal half-sine acts; the chassis' lateral and vertical
velocity and its angular velocity at impact (the car still pitching into its dive) fall
linearly to zero over the crash pulse, so that B0's velocity stays continuous there (dropped at
once, the 0.05 rad/s pitch rate left made the occupant's kinetic energy jump by 5 J with no
work done: the energy balance's step at the impact). The vehicle
runs are kept in memory per (model, manoeuvre, speed, duration) for the life of the process.

A run folder stores the braking as run (PrecrashPulse.record: the chassis tables and the crash's
length, in results.h5 beside the pulse's table): read again (occupant.scenario.run.read_run), the
scenario takes it instead of running the vehicle model, which need not be installed.
"""
import math
import pathlib

import numpy as np

from occupant.constants import G0
from occupant.scenario.keys import names, read
from occupant.scenario.pulse import KMH, SAMPLE_DT, Pulse

SETTLE = 0.1          # s: the settle run before braking (tests/vehicle/test_manoeuvres.py: static
                      # loads within 1 % after 0.1 s)
VEHICLE_DT = 1e-3     # s, output step of the vehicle run (the chassis motion is interpolated)
_RUNS = {}            # in-memory cache of vehicle runs, never written to disk


def model_file(model):
    """The path of vehicles/<model>.toml, the vehicle model a braking runs."""
    from occupant.shipped import shipped_dir
    return shipped_dir("vehicles") / f"{model}.toml"


def model_files(model, copies=()):
    """(the model file, ``locate`` of occupant.vehicle.files.vehicle_files) of the vehicle model
    a braking runs: vehicles/<model>.toml, or ``copies`` of its files (a run folder's, in
    vehicle_files' order) read in their place."""
    if copies:
        from occupant.vehicle.files import copies_locator
        return pathlib.Path(copies[0]), copies_locator(copies)
    return model_file(model), None


def braking_run(model, speed, duration, copies=()):
    """The ``hard_brake`` Manoeuvre of vehicles/<model>.toml (or of ``copies`` of its files:
    model_files) from ``speed`` (m/s) over ``duration`` s, after settling; cached in memory by
    the files read and their modification times."""
    from occupant.vehicle.files import vehicle_files
    file, locate = model_files(model, copies)
    read = tuple((str(f), f.stat().st_mtime_ns) for f in vehicle_files(file, locate))
    key = (read, "hard_brake", float(speed), float(duration))
    if key not in _RUNS:
        from occupant.vehicle import manoeuvre as M
        from occupant.vehicle.files import load_vehicle
        vehicle = load_vehicle(file, locate)
        settled = M.settle(vehicle, t_end=SETTLE, output_dt=0.005)
        _RUNS[key] = M.hard_brake(vehicle, settled.results.q[-1], speed=speed, t_end=duration,
                                  output_dt=VEHICLE_DT)
    return _RUNS[key]


class PrecrashPulse(Pulse):
    """The braking then crash motion of B0. ``t``, ``a``: the longitudinal (world x) acceleration
    of B0's origin (for summaries and plots); ``impact``: the crash's start (s);
    ``impact_speed`` (m/s); ``tables``: the chassis' motion during braking
    (occupant.vehicle.manoeuvre.chassis_tables), ``chassis`` its BaseMotion."""

    KIND = "precrash"   # its record's kind (record, stored)

    def __init__(self, tables, crash_duration, source):
        from occupant.vehicle.manoeuvre import tabled_motion
        s = tables["t"]
        tb = float(s[-1])
        chassis = tabled_motion(tables)
        self.tables, self.chassis, self.impact, self.crash_duration = tables, chassis, tb, crash_duration
        p0 = chassis.position(0.0)
        pos = np.array([chassis.position(x) - p0 for x in s])
        vel = np.array([chassis.velocity(x) for x in s])
        acc = np.array([chassis.acceleration(x) for x in s])
        self.impact_speed = float(vel[-1, 0])
        # crash: A sin(pi tau / T) with delta-v = 2 A T / pi = the speed left (pulse.py identity)
        peak = math.pi * self.impact_speed / (2.0 * crash_duration)
        n = max(int(round(crash_duration / SAMPLE_DT)), 10)
        tau = np.linspace(0.0, crash_duration, n + 1)[1:]
        ax = -peak * np.sin(np.pi * tau / crash_duration)
        vx = vel[-1, 0] + peak * crash_duration / np.pi * (np.cos(np.pi * tau / crash_duration) - 1.0)
        xx = pos[-1, 0] + vel[-1, 0] * tau + peak * crash_duration / np.pi * (
            crash_duration / np.pi * np.sin(np.pi * tau / crash_duration) - tau)
        tail = np.array([tb + crash_duration + SAMPLE_DT, tb + crash_duration + 10.0])
        self._t = np.concatenate([s, tb + tau, tail])
        after = self._t[len(s):] - tb
        shift, fading, slowing = (np.outer(f(after, crash_duration), vel[-1, 1:]) for f in _FADE)
        self._pos = np.vstack([pos, np.column_stack([np.concatenate([xx, [xx[-1], xx[-1]]]),
                                                     pos[-1, 1:] + shift])])
        self._vel = np.vstack([vel, np.column_stack([np.concatenate([vx, [0.0, 0.0]]), fading])])
        self._acc = np.vstack([acc, np.column_stack([np.concatenate([ax, [0.0, 0.0]]), slowing])])
        self._R_end = np.asarray(chassis.rotation(tb), float)
        self._w_end = np.asarray(chassis.angular_velocity(tb), float)
        # the crash starts at the impact: the human's neck holds its posture through the braking
        super().__init__(t=self._t, a=self._acc[:, 0], speed0=float(vel[0, 0]), source=source, start=tb)

    def record(self):
        """Pulse.record with the braking as run: its kind, the crash's length and the chassis
        tables (``chassis_<name>``, flattened)."""
        values, arrays = super().record()
        values.update(kind=self.KIND, crash_duration=float(self.crash_duration))
        arrays.update({f"chassis_{k}": np.asarray(v, float).ravel() for k, v in self.tables.items()})
        return values, arrays

    @classmethod
    def stored(cls, values, arrays):
        """The PrecrashPulse a record holds (``record``), or None when its tables are not all there."""
        from occupant.vehicle.manoeuvre import CHASSIS_TABLES
        if not all(f"chassis_{k}" in arrays for k in CHASSIS_TABLES):
            return None
        tables = {k: arrays[f"chassis_{k}"] if k == "t" else arrays[f"chassis_{k}"].reshape(-1, 3)
                  for k in CHASSIS_TABLES}
        return cls(tables, values["crash_duration"], values["source"])

    def base_motion(self):
        from scipy.spatial.transform import Rotation

        from occupant.model import BaseMotion
        t, tb, ch, T, w = self._t, self.impact, self.chassis, self.crash_duration, self._w_end

        def table(values):
            return lambda s: np.array([np.interp(s, t, values[:, k]) for k in range(3)])

        def phase(braking, crash):
            return lambda s: braking(s) if s <= tb else crash(s)

        turned, turning, slowing = _FADE
        return BaseMotion(position=table(self._pos), velocity=table(self._vel),
                          acceleration=table(self._acc),
                          rotation=phase(ch.rotation, lambda s: Rotation.from_rotvec(
                              turned(s - tb, T) * w).as_matrix() @ self._R_end),
                          angular_velocity=phase(ch.angular_velocity, lambda s: turning(s - tb, T) * w),
                          angular_acceleration=phase(ch.angular_acceleration, lambda s: slowing(s - tb, T) * w))

    def describe(self):
        return (f"{self.source}: braking {self.speed0 / KMH:.1f} -> {self.impact_speed / KMH:.1f} "
                f"km/h over {self.impact:.2f} s, then a half-sine crash, delta-v "
                f"{self.impact_speed / KMH:.1f} km/h, {math.pi * self.impact_speed / (2 * self.crash_duration) / G0:.1f} g, "
                f"{self.crash_duration * 1e3:.0f} ms, from t = {self.impact:.3f} s")


def _fade_shift(tau, T):
    """Displacement per unit initial rate after tau s of a rate falling linearly to 0 over T."""
    tau = np.minimum(tau, T)
    return tau - tau * tau / (2.0 * T)


def _fade_rate(tau, T):
    """Rate per unit initial rate after tau s (1 at tau = 0, 0 from T on)."""
    return np.maximum(1.0 - np.asarray(tau) / T, 0.0)


def _fade_slowing(tau, T):
    """Rate of change per unit initial rate after tau s (-1/T until T, then 0)."""
    return np.where(np.asarray(tau) < T, -1.0 / T, 0.0)


_FADE = (_fade_shift, _fade_rate, _fade_slowing)   # a rate falling linearly to zero over the crash


def read_precrash(c, table, path, model, t_end, stored=None, copies=()):
    """The PrecrashPulse of a ``[precrash]`` table for vehicles/<model>.toml (validated);
    ``stored``: the PrecrashPulse a run of this table stored (read_run), taken instead of
    running the vehicle model again; ``copies``: a run folder's copies of the model's files,
    run in its place (braking_run)."""
    c.keys(table, names(path), path)
    man = read(c, table, path, "manoeuvre")
    speed = read(c, table, path, "speed_kmh") * KMH
    duration = read(c, table, path, "duration")    # (keys.MAX_BRAKING at most)
    crash = read(c, table, path, "crash_duration")
    if duration + crash > t_end:
        c.fail(f"{path}.duration", f"braking {duration} s plus the crash {crash} s end after "
               f"solver.t_end {t_end} s", "solver.t_end >= duration + crash_duration")
    if stored is not None:
        return stored
    run = braking_run(model, speed, duration, copies)
    if run.results.status != "finished":
        c.fail(path, f"the vehicle run of {model} stopped: {run.results.message}")
    from occupant.vehicle.manoeuvre import chassis_tables
    if float(run.velocity[-1, 0]) <= 0.0:
        c.fail(f"{path}.duration", f"the car stops within {duration} s of braking from "
               f"{speed / KMH:g} km/h: nothing is left for a crash", "a shorter duration or higher speed")
    return PrecrashPulse(chassis_tables(run), crash,
                         f"{man} of {model} from {speed / KMH:g} km/h")
