"""Vehicle models: subsystems (seed 000, section 1.3) with their own base frames and interface
parts, templates of the usual suspension, steering and driveline subsystems, TOML files in
vehicles/, tyres and brakes, and manoeuvres whose chassis motion can drive an occupant's B0.

``occupant.vehicle.load(path)`` returns the editable vehicle (a Subsystem tree) whose ``.parts``
and ``.constraints`` hold every element, subsystems included.
"""


def load(path):
    """The editable vehicle model of a vehicle file (``kind = "vehicle"``) or a subsystem file."""
    from occupant.vehicle.files import load_vehicle
    return load_vehicle(path)


def __getattr__(name):   # the classes on first use (the tyre producer is imported by the pipeline)
    if name in ("Subsystem", "Vehicle", "Interface", "Tyre", "Coupler"):
        from occupant.vehicle import subsystem
        return getattr(subsystem, name)
    raise AttributeError(name)
