"""The vehicle's own channels: B0's acceleration, as the vehicle accelerometer of a crash test
records it (the pulse every ISO-MME test carries beside its dummy's channels, which other tools
plot and integrate: delta-v, OLC), and its velocity, the speed the run used (the OLC reads it
without integrating from an unknown start).

B0 is the vehicle (the interior's frame, driven by the crash pulse; a sled in a sled test). Its
origin's acceleration is taken from the run's recorded base states (``results.base_states``:
spatial acceleration minus gravity, B0 axes; ``results.base_poses``): the motion the run used,
sampled where the run recorded it. It is the classical acceleration, gravity excluded: what a
vehicle accelerometer zeroed before the test reads on a level vehicle (the pulse itself; a
pre-crash braking's pitch would tilt gravity into a real car's accelerometer, this channel
leaves it out).

Channel code (ISO/TS 13499 RED B 1.6.2) ``10VEHCCG0000AC<axis>0``: test object 1 (vehicle 1),
position 0 (none: a structure channel), main location VEHC (vehicle), fine location 1 CG
(centre of gravity), fine locations 2 and 3 00, physical dimension AC, direction X, Y or Z,
filter class 0 (raw, as every channel of a run's export) [S: pyisomme channel_codes.xml (RED B
1.6.2); pyisomme's sample vehicle channel ``10VEHCCG0000ACXA`` (a pulse falling to -100 m/s^2)
and its OLC page, which reads ``10VEHCCG00??VEXA``]. CG: B0 is rigid and translates (a
pre-crash braking's pitch aside), so each of its points, its centre of gravity too, has its
origin's acceleration. The velocity: physical dimension VE (velocity, m/s), ``10VEHCCG0000VE<axis>0``.
A sled test's B0 is the sled (its interior file says ``test_object = "sled"``,
occupant.scenario.interior): test object S (sled), main location SLED (transducers mounted on
the sled), ``S0SLEDCG0000AC<axis>0`` and ``S0SLEDCG0000VE<axis>0`` [S: the same code list,
Test Object ``S???????????????`` "Sled", Main Location ``??SLED??????????`` "Sled: used for
transducers directly mounted on the sled"].

Polarity: SAE J211 vehicle axes, x forward, y right, z down [C: crash-domain-facts.md 0.1]; a
frontal crash's deceleration is negative along X, a car struck on its left is pushed towards +Y.
B0's axes are x forward, y left, z up (occupant.sensors.evaluate): y and z change sign.
"""
from __future__ import annotations

import numpy as np

from occupant.channel import Channel
from occupant.constants import G0
from occupant.sensors.evaluate import _TO_J211, UNFILTERED

__all__ = ["vehicle_acceleration", "vehicle_channels", "VEHICLE_CODE", "TEST_OBJECTS"]

#: the code of a test object's channel: its physical dimension (AC, VE) along ``axis`` (X, Y, Z)
VEHICLE_CODE = "{object}CG0000{dimension}{axis}" + UNFILTERED
#: what B0 is in a test -> the code's test object, position and main location (module docstring)
TEST_OBJECTS = {"vehicle": "10VEHC", "sled": "S0SLED"}

STANDARD_GRAVITY = (0.0, 0.0, -G0)   # m/s^2 in the world frame (occupant.simulate's default)


def vehicle_acceleration(results, gravity=STANDARD_GRAVITY):
    """(n, 3) m/s^2: the classical acceleration of B0's origin at ``results.t``, gravity
    excluded, in B0's axes (x forward, y left, z up). ``results.base_states[:, 9:12]`` holds
    R^T (a - g) - w x v (occupant.model.BaseMotion.spatial_state, R = R_world_B0, w and v B0's
    angular and linear velocity in its axes): R^T g and w x v are added back."""
    states = np.asarray(results.base_states, float)
    R = np.asarray(results.base_poses, float)[:, :3, :3]
    g_b0 = np.einsum("tji,j->ti", R, np.asarray(gravity, float))   # R^T g per sample
    return states[:, 9:12] + g_b0 + np.cross(states[:, 0:3], states[:, 3:6])


def vehicle_channels(results, t=None, gravity=STANDARD_GRAVITY, test_object="vehicle"):
    """The vehicle's acceleration channels (module docstring), in m/s^2, then its velocity
    channels, in m/s, with J211 polarity, on the times ``t`` (the run's other channels' grid;
    default ``results.t``), linearly interpolated from the recorded samples where the grids
    differ: X always, Y and Z where the vehicle moves along them (a side pulse, a braking's
    dive). ``test_object``: what B0 is, a key of TEST_OBJECTS (a sled: its channels are the
    sled's). [] when the results hold no base states (a run read from an older results file)."""
    if getattr(results, "base_states", None) is None or getattr(results, "base_poses", None) is None:
        return []
    t_rec = np.asarray(results.t, float)
    t = t_rec if t is None else np.asarray(t, float)
    states = np.asarray(results.base_states, float)
    # B0's origin's velocity in B0 axes: the linear part of its spatial velocity (results.Results)
    motions = (("acceleration", "AC", "m/s^2", vehicle_acceleration(results, gravity) * _TO_J211),
               ("velocity", "VE", "m/s", states[:, 3:6] * _TO_J211))
    out = []
    for what, dimension, unit, values in motions:
        for k, axis in enumerate("XYZ"):
            if axis != "X" and not np.any(values[:, k]):
                continue
            v = values[:, k] if t is t_rec else np.interp(t, t_rec, values[:, k])
            out.append(Channel(f"{test_object} {what} {axis.lower()}", t, v, unit,
                               code=VEHICLE_CODE.format(object=TEST_OBJECTS[test_object],
                                                        dimension=dimension, axis=axis)))
    return out
