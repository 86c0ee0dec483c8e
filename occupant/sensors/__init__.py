"""Virtual sensors (issue 3 section 1): accelerometers, angular rate and acceleration sensors,
six-axis load cells from joint reactions, displacement sensors and a hook for recorded force
arrays (the seat belt's load cells read through it: ``belt_sensors``), declared in TOML or Python and evaluated on simulation Results into ``occupant.Channel``
objects with units, J211 polarity and ISO-MME codes. The injury package takes these channels;
it never imports this one."""
from occupant.sensors.declarations import (
    SENSOR_KINDS, Accelerometer, AngularAccelerationSensor, AngularVelocitySensor, ArraySensor,
    DisplacementSensor, LoadCell, SensorError,
)
from occupant.sensors.evaluate import SensorWarning, channel_code, dummy_code, evaluate, segment_frame
from occupant.sensors.loader import SensorFileError, load_sensors
from occupant.sensors.defaults import UPPER_NECK_LOAD_CELL_OFFSET, default_sensors
from occupant.sensors.belt import belt_sensors
from occupant.sensors.vehicle import vehicle_acceleration, vehicle_channels

__all__ = [
    "SENSOR_KINDS", "Accelerometer", "AngularAccelerationSensor", "AngularVelocitySensor",
    "ArraySensor", "DisplacementSensor", "LoadCell", "SensorError", "SensorWarning",
    "SensorFileError", "channel_code", "dummy_code", "evaluate", "segment_frame",
    "load_sensors", "default_sensors", "belt_sensors", "UPPER_NECK_LOAD_CELL_OFFSET",
    "vehicle_acceleration", "vehicle_channels",
]
