"""The keys of a scenario file in one place: for each, its type, unit, accepted range or
choices, default and a one-line meaning (``KEYS``).

The loader (``occupant.scenario.load`` and the readers it calls for the pulse, the pre-crash
braking, the intrusions and the restraints) checks a table's keys against ``names`` and reads a
value through ``read``; ``--set`` and ``--vary`` values are checked by ``value_problem`` before the
scenario loads (``occupant.scenario.overrides.check``), so that every error names the file, the key and what is accepted in
the same words; the report's settings table takes each key's unit from ``unit``; ``occupant
list --keys`` prints ``describe``. Tables read by a reader shared with other files (contact
characteristics and pairs, sensors, posture targets) are described here and checked there
(``Key.reader``); tests/scenario/test_keys.py holds both lists together.

Key paths are dotted: ``[]`` stands for any entry of an array of tables (``contact[].a``),
``*`` for any name (``contact_characteristic.*.stiffness``, the name of a characteristic).
Units are SI except where the key's name says otherwise (``_kmh``, ``_deg``, ``_g``: conventions
rule 7, units at the edge).
"""
import math
import re
from dataclasses import dataclass

import numpy as np

from occupant.human.neck_muscles import ACTIVATIONS, DEFAULT_ACTIVATION, NO_NECK_MUSCLES
from occupant.human.posture import HUMAN_LINE_SOURCES
from occupant.scenario.interior_shapes import SHAPES

# bounds of the values a run accepts
# the least load limiter and pretensioner stall force [E]: half the lowest production limiter
# level (2-6 kN) and a third of the lowest stall force (1.5-3 kN) [U: crash-domain-facts.md 6.1];
# below them the retractor pays out under the belt's fitting and settling loads, and a value in
# kN (load_limit = 4) ran a 4 N limiter, the belt paying out from the start
MIN_LOAD_LIMIT = 1000.0          # N
MIN_PRETENSIONER_FORCE = 500.0   # N
# the most a value in the wrong unit could pass for [E]: above them a bag, vent or pull-in is no
# longer one of its kind (usercheck6: vent_area = 20, cm^2 meant, ran a bag that held nothing, the
# head 429 mm forward instead of 189; volume = 60, litres meant, failed on its unfolding speed
# without naming the volume; pretensioner_pull = 80, mm meant, ran, the stall force ending it)
MAX_AIRBAG_VOLUME = 0.3          # m^3: twice the largest passenger bag, 150 L [C: crash-domain-facts.md 6.2]
MAX_VENT_AREA = 0.02             # m^2: six times the passenger preset's two 45 mm vents, 3.2e-3 m^2
                                 # (driver vents 2 x 25-40 mm [U: crash-domain-facts.md 6.2])
MAX_PRETENSIONER_PULL = 0.3      # m: 2.5 times the longest retractor pull-in, 120 mm [C: crash-domain-facts.md 6.1]
MAX_T_END = 10.0        # s: solver.t_end at most [E: a crash ~0.2 s, with pre-crash braking ~1 s]
MAX_DELTA_V = 200.0     # km/h: a pulse's speed change at most [E: regulatory and consumer crash tests
                        # run at 48-64 km/h (crash-domain-facts.md 4), reconstructed crashes rarely
                        # past 100; m/s^2 read as g makes a 56 km/h pulse one of 550 km/h]
MAX_SPEED = 300.0       # km/h: a vehicle's speed at most [E: past any road car's top speed a crash is
                        # studied at; m/s read as km/h is no error, km/h as m/h (48000) is]
MAX_SETTLE = 2.0        # s: the longest settling accepted [E: the seated 50M sinks into the seat
                        # within ~0.1 s, then creeps under the regularised friction, 1.6 mm
                        # from 0.3 to 2 s; scenarios/HISTORY.md, settlefast]
MAX_BACKSET = 0.3       # m [E: well past any seat; IIHS links backsets past about 4 in to more neck
                        # symptoms [C: IIHS Status Report 38(9), 2003]]
MAX_BRAKING = 3.0       # s of pre-crash braking at most [E: the full-car model takes about 13 s of
                        # CPU per second simulated; 0.5-0.8 s is AEB's last phase]

#: the value types of a key, and what a value of each is in words
KINDS = {"number": "a number", "bool": "true or false", "string": "a string",
         "strings": "a list of strings", "name_or_names": "a name or a list of names",
         "vector": "a list of 3 numbers", "vector4": "a list of 4 numbers",
         "point": "\"cg\", a joint's name or a list of 3 numbers",
         "rows": "rows [[x, y], ...]", "table": "a table", "tables": "an array of tables"}
REQUIRED = "required"   # Key.default of a key that must be given


@dataclass(frozen=True)
class Key:
    """One key of a scenario file.

    ``low``/``high``: the accepted range of a number (None: unbounded), ``low`` excluded when
    ``low_open``; ``choices``: the accepted strings (a tuple, or a function giving them, for
    lists known only once their module is imported); ``default``: the value taken when the key
    is absent (``REQUIRED``: it must be given; None: none, the meaning says what then);
    ``reader``: the module that checks it (a table shared with other files), else this one."""
    path: str
    kind: str
    unit: str
    meaning: str
    default: object = None
    low: float = None
    high: float = None
    low_open: bool = False
    choices: object = None
    reader: str = ""
    label: str = ""     # the key's name in a message ("belt kind"; default: the key's name)
    always: object = None   # names in effect whatever the key lists (a callable): said so, not "unknown"

    @property
    def name(self):
        return self.path.rsplit(".", 1)[-1]

    @property
    def what(self):
        """The key's name in a message: "integrator", "belt kind" (a ``kind`` says whose)."""
        if self.label:
            return self.label
        parts = self.path.replace("[]", "").split(".")
        return f"{parts[-2].replace('_', ' ')} kind" if parts[-1] == "kind" and len(parts) > 1 \
            else parts[-1].replace("_", " ")

    def names(self):
        """The accepted strings (a tuple), or None."""
        return self.choices() if callable(self.choices) else self.choices

    def accepted(self):
        """What is accepted, in words: "a number, 0 < t_end <= 10 s", "euler, rk4, ...", "a list
        of 3 numbers (m)"."""
        unit = f" {self.unit}" if self.unit and self.unit != "-" else ""
        if self.kind == "number" and self.high is not None:
            low = "" if self.low is None else f"{self.low:g} {'<' if self.low_open else '<='} "
            return f"a number, {low}{self.name} <= {self.high:g}{unit}"
        if self.kind == "number" and self.low is not None:
            return f"a number, {self.name} {'>' if self.low_open else '>='} {self.low:g}{unit}"
        names = self.names() if self.kind in ("string", "strings") else None
        if names:
            return ", ".join(names)
        return f"{KINDS[self.kind]}{f' ({self.unit})' if unit else ''}"

    def check(self, value):
        """The problem with ``value`` for this key (a string), or None when it is accepted
        (the checks ``read`` makes of a value given in the file)."""
        if self.kind == "number":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                return f"expected a finite number, got {value!r}"
            unit = f" {self.unit}" if self.unit not in ("", "-") else ""
            if self.low is not None and (value <= self.low if self.low_open else value < self.low):
                return f"must be {'>' if self.low_open else '>='} {self.low:g}{unit}, got {value!r}"
            if self.high is not None and value > self.high:
                return f"{value!r}{unit} is outside the range accepted"
            return None
        if self.kind == "bool":
            return None if isinstance(value, bool) else f"expected true or false, got {value!r}"
        if self.kind == "string":
            if not isinstance(value, str) or not value.strip():
                return f"expected a non-empty string, got {value!r}"
            names = self.names()
            return f"unknown {self.what} {value!r}" if names and value not in names else None
        if self.kind in ("strings", "name_or_names"):
            items = [value] if self.kind == "name_or_names" and isinstance(value, str) else value
            if not isinstance(items, list) or not items or not all(
                    isinstance(x, str) and x.strip() for x in items):
                return f"expected {KINDS[self.kind]}, got {value!r}"
            names = self.names()
            bad = [x for x in items if names and x not in names]
            always = self.always() if self.always else ()
            if bad and bad[0] in always:   # (criteria.show = ["HIC15"] was "unknown criterion 'HIC15'")
                return f"{self.what} {bad[0]!r} is in every run's table already: {self.name} adds others"
            return f"unknown {self.what} {bad[0]!r}" if bad else None
        if self.kind == "point" and isinstance(value, str) and value.strip():
            return None     # "cg" or a joint's name (the sensor loader checks it on the model)
        if self.kind in ("vector", "vector4", "point"):
            n = 4 if self.kind == "vector4" else 3
            ok = (isinstance(value, (list, tuple, np.ndarray)) and len(value) == n
                  and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                          and math.isfinite(x) for x in value))
            return None if ok else f"expected a list of {n} finite numbers, got {value!r}"
        if self.kind == "rows":
            ok = isinstance(value, list) and len(value) >= 2 and all(
                isinstance(r, list) and len(r) == 2 for r in value)
            return None if ok else f"expected >= 2 rows [x, y], got {value!r}"
        if self.kind == "table":
            return None if isinstance(value, dict) else f"expected a table, got {value!r}"
        if self.kind == "tables":
            ok = isinstance(value, list) and all(isinstance(x, dict) for x in value)
            return None if ok else "expected an array of tables"
        raise AssertionError(self.kind)


# lists known once their module is imported (kept out of this module's import)
def _integrators():
    from occupant.integrate.integrators import INTEGRATORS
    return tuple(INTEGRATORS)


def _protocols():
    from occupant.injury.limits import PROTOCOLS
    return tuple(PROTOCOLS)


def _optional_rows():
    from occupant.scenario.criteria import OPTIONAL_ROWS
    return tuple(r[0] for r in OPTIONAL_ROWS)


def _rows():
    from occupant.scenario.criteria import ROWS
    return tuple(r[0] for r in ROWS)


def _sexes():
    from occupant.human.builder import SEXES
    return tuple(SEXES)


def _neck_activations():
    return (*ACTIVATIONS, NO_NECK_MUSCLES)


def _vehicle_models():
    from occupant.io.toml_files import shipped_names
    return tuple(shipped_names("vehicles", kind="vehicle"))


def _contact_laws():
    from occupant.modeling.airbags import CONTACT_LAWS
    return CONTACT_LAWS


def _airbag_keys(path):
    return [
        Key(f"{path}.enabled", "bool", "", "false: declared but left out of the run (said in its notes)", True),
        Key(f"{path}.kind", "string", "", "the preset bag: its shape, inflator and vents",
            REQUIRED, choices=("driver", "passenger", "knee"), label="airbag kind"),
        Key(f"{path}.fire_time", "number", "s", "when the inflator fires", REQUIRED, low=0.0),
        Key(f"{path}.volume", "number", "m^3", "the bag's volume, its preset shape scaled (default: the preset's)",
            low=0.0, low_open=True, high=MAX_AIRBAG_VOLUME),
        Key(f"{path}.vent_area", "number", "m^2", "the vents' area (default: the preset's)", low=0.0,
            high=MAX_VENT_AREA),
        Key(f"{path}.fabric_stiffness", "number", "N/m", "the fabric's membrane stiffness E t, its "
            "stretch under pressure (default: the preset's, 0: inextensible)", low=0.0),
        Key(f"{path}.inflator_mass", "number", "kg", "the gas mass the inflator delivers, its preset flow "
            "scaled (default: the preset's)", low=0.0, low_open=True),
        Key(f"{path}.position", "vector", "m", "the bag's mount in the vehicle frame B0", REQUIRED),
        Key(f"{path}.direction", "vector", "-", "the direction the bag unfolds along, in B0", REQUIRED),
        Key(f"{path}.contact", "strings", "", "the occupant ellipsoids the bag pushes", REQUIRED),
        Key(f"{path}.contact_law", "string", "", "the area the gas pushes a body with "
            "(default: occupant.modeling.Airbag.contact_law's)", choices=_contact_laws, label="airbag contact law"),
    ]


#: ISO-MME position (second code character) of a seat [S: crash-domain-facts.md 3.4]
SEATS = {"front_left": "1", "front_middle": "2", "front_right": "3", "second_left": "4",
         "second_middle": "5", "second_right": "6"}
_TOP = [
    Key("kind", "string", "", "what the file is", REQUIRED, choices=("scenario",), label="kind"),
    Key("name", "string", "", "the scenario's name (its run folder's default name)", REQUIRED),
    Key("title", "string", "", "the test it represents, for the summary and the report", REQUIRED),
    Key("description", "string", "", "free text"),
    Key("occupant", "table", "", "the occupant: a dummy or a parametric human, its posture and place", REQUIRED),
    Key("vehicle", "table", "", "the interior's surfaces, a vehicle front or a full-car model", REQUIRED),
    Key("pulse", "table", "", "the vehicle's (B0's) crash pulse (occupant.scenario.pulse)"),
    Key("precrash", "table", "", "braking before the crash with the full-car model (occupant.scenario.precrash)"),
    Key("restraints", "table", "", "belt and airbags (occupant.scenario.restraints)"),
    Key("contact_characteristic", "table", "", "contact characteristics by name, beside the interior's"),
    Key("contact", "tables", "", "contact pairs between occupant ellipsoids and surfaces"),
    Key("sensors", "table", "", "the dummy's standard channel set"),
    Key("sensor", "tables", "", "more sensors (occupant.sensors' form)", reader="occupant.sensors.loader"),
    Key("criteria", "table", "", "the injury protocol the criteria are judged against"),
    Key("solver", "table", "", "the integrator and the run's length", REQUIRED),
    Key("outputs", "table", "", "the files a run writes"),
]
_SOLVER = [
    Key("solver.t_end", "number", "s", "the run's length", REQUIRED, low=0.0, low_open=True, high=MAX_T_END),
    Key("solver.integrator", "string", "", "the integrator (occupant.integrate.INTEGRATORS)", "euler",
        choices=_integrators),
    Key("solver.dt", "number", "s", "the time step (default: the integrator's)", low=0.0, low_open=True),
    Key("solver.output_dt", "number", "s", "the interval between recorded samples", 1e-4, low=0.0, low_open=True),
]
#: the parametric human's percentile when a scenario gives none of percentile, stature and mass
#: (``--set occupant.human.sex=female`` on a dummy's scenario): the Hybrid III 50M's and 5F's own
#: (occupant/human/data/body_proportions.toml [percentile])
DEFAULT_PERCENTILE = 50
_OCCUPANT = [
    Key("occupant.dummy", "string", "", "a shipped dummy (occupant list) or a path (relative: to the "
        "scenario's folder); or human"),
    Key("occupant.human", "table", "", "a parametric human (occupant.human.build) instead of a dummy"),
    Key("occupant.posture", "string", "", "a shipped posture (occupant list) or a path (relative: "
        "to the scenario's folder)", REQUIRED),
    Key("occupant.posture_targets", "table", "", "the posture's [targets] keys replaced (points "
        "added; one naming a body's point the posture targets replaces it)", reader="occupant.human.posture"),
    Key("occupant.posture_angles", "table", "", "the posture's [angles] keys replaced (<joint>_deg; a "
        "joint without side both, the right mirrored)", reader="occupant.human.posture"),
    Key("occupant.h_point", "vector", "m", "where the posture's H-point goes, in B0", (0.0, 0.0, 0.0)),
    Key("occupant.seat", "string", "", "the seating position (ISO-MME position code)", "front_left",
        choices=tuple(SEATS), label="seat"),
    Key("occupant.yaw_deg", "number", "deg", "the posture turned about B0's z (a pedestrian's heading)", 0.0),
    Key("occupant.settle", "number", "s", "settling into the seat under gravity before the run "
        "(0: starts as postured)", 0.0, low=0.0, high=MAX_SETTLE),
    Key("occupant.settle_belted", "bool", "", "the belts on the body throughout the settling, "
        "unlocked at their pre-load (the SAFER GS1 deck's procedure); false: buckled on the seated "
        "occupant for its last 0.1 s (occupant.scenario.settle.BUCKLED)", False),
    Key("occupant.ellipsoid", "tables", "", "contact ellipsoids added to the occupant's segments"),
    Key("occupant.ellipsoid[].name", "string", "", "the ellipsoid's name (its frame: <name>_frame)", REQUIRED),
    Key("occupant.ellipsoid[].segment", "string", "", "the segment it is fixed to", REQUIRED),
    Key("occupant.ellipsoid[].center", "vector", "m", "its centre in the segment frame", REQUIRED),
    Key("occupant.ellipsoid[].semi_axes", "vector", "m", "its semi-axes (each > 0)", REQUIRED),
    Key("occupant.human.sex", "string", "", "the human's sex", "male", choices=_sexes),
    Key("occupant.human.percentile", "number", "-", "the stature and mass percentile, one its sex "
        "has tabulated (the Hybrid III family's sizes: occupant/human/data/body_proportions.toml "
        f"[percentile]; or stature and mass; {DEFAULT_PERCENTILE} when none of the three is given)",
        low=0.0, low_open=True),
    Key("occupant.human.stature", "number", "m", "the human's standing height", low=0.0, low_open=True),
    Key("occupant.human.mass", "number", "kg", "the human's mass", low=0.0, low_open=True),
    Key("occupant.human.neck_activation", "string", "", "the neck muscles' activation (posture: a "
        "closed-loop controller holding the head's pitch until the pulse, then the reflex; none: no "
        "muscles, a PMHS)", DEFAULT_ACTIVATION, choices=_neck_activations, label="neck activation"),
    Key("occupant.human.thoracic_spine", "bool", "", "the upper torso split at T6/T7", False),
    Key("occupant.human.neck_mid", "bool", "", "a third neck joint at C4", False),
    # the face on unless said: a scenario's head meets a chest, a bag, a panel (without its chin
    # GS1's head flexed 95-100 deg on the upper torso, the chin's region 38 mm inside the thorax:
    # scenarios/validation/HISTORY.md, gs1chin), and the shipped frontal scenarios' pairs name
    # the chin (occupant.human.build's own default stays off, for the validation's head-neck cases)
    Key("occupant.human.face", "bool", "", "a chin on the head", True),
    # on unless said: the shipped frontal scenarios' floor and toe-pan pairs name the heels
    Key("occupant.human.heels", "bool", "", "a heel on each foot", True),
]
_TARGETS = [
    Key("occupant.posture_targets.torso_angle_deg", "number", "deg", "the torso line's angle from vertical",
        reader="occupant.human.posture"),
    Key("occupant.posture_targets.h_point", "vector", "m", "the H-point target", reader="occupant.human.posture"),
    Key("occupant.posture_targets.seat_track", "table", "", "the seat track the H-point slides on",
        reader="occupant.human.posture"),
    Key("occupant.posture_targets.point", "tables", "", "point targets (a foot on a pedal, hands on the wheel)",
        reader="occupant.human.posture"),
    Key("occupant.posture_targets.human_thorax", "string", "", "a human's thorax line",
        reader="occupant.human.posture", choices=HUMAN_LINE_SOURCES),
    Key("occupant.posture_targets.human_head", "string", "", "a human's head line (tragion -> eye)",
        reader="occupant.human.posture", choices=HUMAN_LINE_SOURCES),
]
_VEHICLE = [
    Key("vehicle.interior", "string", "", "the interior's surfaces on B0 or its hinged parts (its "
        f"[[surface]] shapes: {', '.join(SHAPES)}; occupant.scenario.interior): "
        "a shipped one (occupant list) or a path (relative: to the scenario's folder)", REQUIRED),
    Key("vehicle.front", "string", "", "a vehicle front striking a pedestrian (B0 the road): a shipped "
        "one or a path (relative: to the scenario's folder)"),
    Key("vehicle.speed_kmh", "number", "km/h", "the vehicle front's speed at t = 0", low=0.0, low_open=True,
        high=MAX_SPEED),
    Key("vehicle.front_position", "number", "m", "x in B0 of the car's foremost point at t = 0"),
    Key("vehicle.model", "string", "", "the full-car model of a pre-crash scenario (vehicles/<model>.toml)",
        choices=_vehicle_models, label="vehicle model"),
    Key("vehicle.backset", "number", "m", "the head restraint placed this far behind the head of the "
        "settled occupant", low=0.0, low_open=True, high=MAX_BACKSET),
    Key("vehicle.intrusion", "tables", "", "interior surfaces pushed in by a velocity-time profile, "
        "turned about an axis by an angular velocity-time profile, or both"),
    Key("vehicle.intrusion[].name", "string", "", "its name (outputs <name>.displacement, .velocity, "
        ".angle, .angular_velocity)", REQUIRED),
    Key("vehicle.intrusion[].surfaces", "strings", "", "the interior's surfaces it moves (all on the vehicle or all on one hinge)", REQUIRED),
    Key("vehicle.intrusion[].direction", "vector", "-", "towards the occupant, in B0 (normalised; with velocity)"),
    Key("vehicle.intrusion[].velocity", "rows", "s, m/s", "rows (t, v) relative to the vehicle (none: it turns only)"),
    Key("vehicle.intrusion[].axis_point", "vector", "m", "a point of the rotation axis in B0 (a door's "
        "hinge line; with angular_velocity_deg)"),
    Key("vehicle.intrusion[].axis", "vector", "-", "the rotation axis in B0 (normalised; turning "
        "right-handed about it; with angular_velocity_deg)"),
    Key("vehicle.intrusion[].angular_velocity_deg", "rows", "s, deg/s", "rows (t, omega) of the turning "
        "about the axis relative to the vehicle, before the translation (none: it translates only)"),
]
# how a side impact's striking barrier speed enters a scenario (usercheck12: side_barrier had no
# key for the barrier's speed a researcher looked for): through the struck car's delta-v. No
# barrier-speed key: the pulse is the struck car's (an idealised half-sine, or a recorded table
# that no speed scales), and the delta-v a speed gives depends on the two masses and the
# impact's restitution; a perfectly plastic impact's momentum balance gives the formula [D], with
# side_barrier.toml's figures (60 km/h [S], 1400 kg [U], 1500 kg [E]: its [pulse] comment)
SIDE_SPEED = ("for a plastic impact v_barrier x m_barrier / (m_barrier + m_car) (side_barrier: 60 km/h "
              "x 1400 / (1400 + 1500) kg = 29.0 km/h; its duration 60 ms does not follow from the speed)")
_PULSE = [
    Key("pulse.shape", "string", "", "the pulse's form", REQUIRED,
        choices=("half_sine", "trapezoid", "csv", "isomme"), label="pulse shape"),
    Key("pulse.delta_v_kmh", "number", "km/h", "the speed change (half_sine: two of delta_v_kmh, peak_g, "
        "duration; trapezoid: required); a side impact's is the struck car's, not the barrier's speed: "
        f"{SIDE_SPEED}; no key takes the barrier's speed", low=0.0, low_open=True, high=MAX_DELTA_V),
    Key("pulse.peak_g", "number", "g", "the peak deceleration", low=0.0, low_open=True),
    Key("pulse.duration", "number", "s", "the half-sine's length", low=0.0, low_open=True),
    Key("pulse.rise", "number", "s", "the trapezoid's rise", low=0.0),
    Key("pulse.fall", "number", "s", "the trapezoid's fall", low=0.0),
    Key("pulse.speed_kmh", "number", "km/h", "the vehicle's speed along direction when the pulse starts "
        "(default: delta-v; a struck car at rest: 0; not a striking barrier's: it moves B0 and the "
        "occupant together; a side pulse, direction mostly along y, takes only 0)",
        low=0.0, high=MAX_SPEED),
    Key("pulse.start", "number", "s", "the pulse's start in the run (a csv or isomme table's t = 0; "
        "its rows before t = 0 need pulse.start as long)", 0.0, low=0.0),
    Key("pulse.file", "string", "", "csv: a table time [s], acceleration [g] (SAE J211 signs: a frontal "
        "crash's deceleration negative), or time [ms], delta-v [km/h] (or [m/s], [mph]: an EDR's velocity "
        "change, negative in a frontal crash); isomme: a test folder or .mme (relative: to the scenario's folder)"),
    Key("pulse.channel", "string", "", "isomme: the channel's 16-character code"),
    Key("pulse.scale", "number", "-", "csv, isomme: a factor on the acceleration", 1.0),
    Key("pulse.direction", "vector", "-", "the B0 axis along which the vehicle loses delta-v",
        (1.0, 0.0, 0.0)),
]
_PRECRASH = [
    Key("precrash.manoeuvre", "string", "", "the braking manoeuvre", REQUIRED, choices=("hard_brake",)),
    Key("precrash.speed_kmh", "number", "km/h", "the vehicle's speed when braking starts", REQUIRED,
        low=0.0, low_open=True, high=MAX_SPEED),
    Key("precrash.duration", "number", "s", "braking before the crash (the crash starts here)", REQUIRED,
        low=0.0, low_open=True, high=MAX_BRAKING),
    Key("precrash.crash_duration", "number", "s", "the crash half-sine's length (delta-v: the speed left)",
        REQUIRED, low=0.0, low_open=True),
]
_BELT = "restraints.belt"
#: the belt's barrier keys (occupant.scenario.restraints.barrier_wraps): (key, the belt it keeps,
#: the piece it lies on)
_BARRIER_KEYS = (("barriers", "the belt", ""),
                 ("lap_barriers", "the lap belt", "the lap belt's piece to its lap anchorage"),
                 ("lap_buckle_barriers", "the lap belt", "the lap belt's piece from the buckle"),
                 ("buckle_barriers", "the shoulder belt", "the shoulder belt's piece to the buckle"),
                 ("between_barriers", "the shoulder belt", "the shoulder belt's piece from its shoulder "
                  "wrap to its chest wrap, placed with those two (e.g. {right_upper_arm_shell = [1, 1, 0]}: "
                  "the human's arm; not default, scenarios/HISTORY.md, barrierkey)"))
_RESTRAINTS = [
    Key(_BELT, "table", "", "a seat belt (three-point, lap or two-point: kind) with its retractor, "
        "pretensioner and load limiter"),
    Key("restraints.airbag", "table", "", "an airbag"),
    # a second bag beside the frontal one (the driver's knee bag), declared as [restraints.airbag]
    Key("restraints.knee_airbag", "table", "", "a knee airbag"),
    Key(f"{_BELT}.enabled", "bool", "", "false: declared but left out of the run (said in its notes)", True),
    Key(f"{_BELT}.kind", "string", "", "three_point (one webbing, slip rings), separate (GS1's two belts), "
        "lap (lap_anchor over the pelvis to the buckle) or two_point (d_ring over the torso to the buckle; "
        "lap and two_point: a retractor only where retractor is given)",
        "three_point", choices=("three_point", "separate", "lap", "two_point")),
    Key(f"{_BELT}.load_limit", "number", "N", "the retractor's load limiter (default: none; production "
        "levels 2-6 kN)", low=MIN_LOAD_LIMIT),
    Key(f"{_BELT}.pretensioner", "bool", "", "a pretensioner winds the retractor in", False),
    Key(f"{_BELT}.pretensioner_time", "number", "s", "when the pretensioner fires (with pretensioner)", low=0.0),
    Key(f"{_BELT}.pretensioner_pull", "number", "m", "the webbing it winds in over 8 ms (with pretensioner)",
        low=0.0, high=MAX_PRETENSIONER_PULL),
    Key(f"{_BELT}.pretensioner_force", "number", "N", "the belt force at the retractor where it stalls "
        "(default: occupant.modeling.belts.Pretensioner.capacity; 1.5-3 kN)", low=MIN_PRETENSIONER_FORCE),
    # belt on body: the GS1 deck's 0.3 [C: SAFER HBM validation deck, Boundary_conditions_V11.key,
    # "SAFER to shoulder/lap belt" FS]; the open FE Hybrid III sled examples (OpenRadioss
    # ModelExchange) take 0.2 [S], not taken (scenarios/HISTORY.md, frictionsrc). D-ring and
    # buckle tongue: those examples' belt pulleys, Fric 0.2 at both [S: /PROP/SPR_PUL cards]
    Key(f"{_BELT}.friction", "number", "-", "Coulomb coefficient of the belt on the body", 0.3, low=0.0),
    Key(f"{_BELT}.d_ring_friction", "number", "-", "Coulomb coefficient at the D-ring", 0.2, low=0.0),
    Key(f"{_BELT}.buckle_friction", "number", "-", "Coulomb coefficient at the buckle's tongue", 0.2, low=0.0),
    Key(f"{_BELT}.across", "number", "-", "the belt keeps its place while its pull across itself is within "
        "this times its push (default: shortest path)", low=0.0),
    Key(f"{_BELT}.lap_across", "number", "-", "as across, for the lap belt's wraps on the pelvis only "
        "(default: across)", low=0.0),
    Key(f"{_BELT}.retractor", "vector", "m", "the retractor in B0 (default: the interior's; lap and "
        "two_point: none, the webbing fixed)"),
    Key(f"{_BELT}.d_ring", "vector", "m", "the D-ring (upper anchorage) in B0 (default: the interior's)"),
    Key(f"{_BELT}.buckle", "vector", "m", "the buckle in B0 (default: the interior's)"),
    Key(f"{_BELT}.lap_anchor", "vector", "m", "the outboard lap anchorage in B0 (default: the interior's)"),
    Key(f"{_BELT}.torso", "string", "", "the occupant ellipsoid the shoulder belt wraps", "thorax"),
    Key(f"{_BELT}.pelvis", "string", "", "the occupant ellipsoid the lap belt wraps "
        "(default: lap_belt_pelvis, the front of the pelvis)"),
    Key(f"{_BELT}.abdomen", "string", "", "an occupant ellipsoid the shoulder belt wraps after the chest"),
    Key(f"{_BELT}.groin", "string", "", "an occupant ellipsoid the shoulder belt wraps last, on its "
        "way to the buckle (its shortest path)"),
    Key(f"{_BELT}.ribcage", "bool", "", "the torso's wraps carried by the sternum, with the human's belt "
        "share (default: on for a human, off for a dummy)"),
    Key(f"{_BELT}.clavicle", "bool", "", "the shoulder wrap fitted at the outboard shoulder shell's "
        "mid-clavicle and held on the clavicle, the chest wrap at mid-sternum, over the abdomen (a human "
        "body model's route; not with shoulder, shoulder_center, shoulder_at, shoulder_flank; default: on "
        "for a human unless one of those is given, off for a dummy)"),
    Key(f"{_BELT}.neck_barrier", "bool", "", "a barrier wrap keeps the belt outboard of the neck_shell", False),
    *[key for name, belt, piece in _BARRIER_KEYS for key in (
        Key(f"{_BELT}.{name}", "table", "", "{occupant ellipsoid: side}: one barrier wrap on any ellipsoid"
            + (f", on {piece}" if piece else "")),
        Key(f"{_BELT}.{name}.*", "vector", "-", f"the side {belt} is kept on, in the ellipsoid's frame"))],
    Key(f"{_BELT}.end_springs", "number", "-", "separate: GS1 belt-end springs in series with the shoulder "
        "belt (count)", 0.0, low=0.0),
    Key(f"{_BELT}.lap_end_springs", "number", "-", "separate: GS1 belt-end springs in series with the lap "
        "belt (count)", 0.0, low=0.0),
    Key(f"{_BELT}.shoulder", "string", "", "an occupant ellipsoid the shoulder wrap lies on, before the chest"),
    Key(f"{_BELT}.shoulder_center", "vector", "m", "a shoulder ellipsoid's centre in the torso's part frame"),
    # [E]: the Hybrid III 50th's shoulder between its neck shell and shoulder joint (validation HISTORY.md)
    Key(f"{_BELT}.shoulder_semi_axes", "vector", "m", "that shoulder ellipsoid's semi-axes",
        (0.06, 0.07, 0.06)),
    Key(f"{_BELT}.shoulder_at", "vector", "m", "the shoulder wrap fitted at this point of its ellipsoid"),
    Key(f"{_BELT}.shoulder_flank", "vector4", "-, m", "(n_x, n_y, n_z, d): the shoulder wrap's point kept "
        "to n . x >= d"),
    Key(f"{_BELT}.chest_at", "vector", "m", "the chest wrap fitted at this point of its ellipsoid"),
    Key(f"{_BELT}.chest_flank", "vector4", "-, m", "(n_x, n_y, n_z, d): the chest wrap's point kept to "
        "n . x >= d"),
    *_airbag_keys("restraints.airbag"),
    *_airbag_keys("restraints.knee_airbag"),
]
_CONTACTS = "occupant.modeling.contacts_toml"
_CONTACT = [
    Key("contact[].a", "name_or_names", "", "occupant ellipsoid(s) (one pair each)", REQUIRED, reader=_CONTACTS),
    Key("contact[].b", "string", "", "an interior surface or another ellipsoid", REQUIRED, reader=_CONTACTS),
    Key("contact[].characteristic", "string", "", "the contact characteristic (default: the surface's)",
        reader=_CONTACTS),
    Key("contact[].name", "string", "", "the pair's name (default <a>__<b>)", reader=_CONTACTS),
    Key("contact[].share", "number", "-", "the fraction of the characteristic's force each pair bears "
        "(several surfaces of one body part against one surface)", 1.0, low=0.0, high=1.0, low_open=True,
        reader=_CONTACTS),
    Key("contact_characteristic.*", "table", "", "a contact characteristic, by name", reader=_CONTACTS),
    Key("contact_characteristic.*.stiffness", "number", "N/m^exponent", "force = stiffness x "
        "penetration^exponent (or table)", reader=_CONTACTS),
    Key("contact_characteristic.*.exponent", "number", "-", "the exponent of the stiffness law", reader=_CONTACTS),
    Key("contact_characteristic.*.table", "rows", "m, N", "the loading curve, rows (penetration, force)",
        reader=_CONTACTS),
    Key("contact_characteristic.*.unloading_table", "rows", "m, N", "the unloading curve", reader=_CONTACTS),
    Key("contact_characteristic.*.absorption", "number", "-", "the share of energy absorbed on unloading",
        low=0.0, reader=_CONTACTS),
    Key("contact_characteristic.*.damping", "number", "N s/m^2", "Hunt-Crossley damping", reader=_CONTACTS),
    Key("contact_characteristic.*.friction", "number", "-", "Coulomb coefficient", reader=_CONTACTS),
    Key("contact_characteristic.*.friction_speed", "number", "m/s", "the sliding speed friction is full at",
        reader=_CONTACTS),
    Key("contact_characteristic.*.recovers", "bool", "", "absorption unloads to the origin", False,
        reader=_CONTACTS),
    Key("contact_characteristic.*.membrane", "bool", "",
        "the surface bulges round what presses it to its table's depth", False, reader=_CONTACTS),
]
_SENSORS = "occupant.sensors.loader"
_SENSOR = [
    Key("sensors.standard", "bool", "", "the dummy's standard channel set (occupant.sensors)", True),
    Key("sensors.belt", "bool", "", "the belts' load cells B3-B6 as SEBE channels "
        "(occupant.sensors.belt_sensors)", True),
    Key("sensor[].kind", "string", "", "accelerometer, angular_velocity, angular_acceleration, load_cell, "
        "displacement or array", REQUIRED, reader=_SENSORS),
    Key("sensor[].name", "string", "", "the channel's name", REQUIRED, reader=_SENSORS),
    Key("sensor[].location", "string", "", "the ISO-MME location code", reader=_SENSORS),
    Key("sensor[].fine1", "string", "", "the ISO-MME fine location 1", reader=_SENSORS),
    Key("sensor[].fine2", "string", "", "the ISO-MME fine location 2", reader=_SENSORS),
    Key("sensor[].body", "string", "", "the segment it is on", reader=_SENSORS),
    Key("sensor[].point", "point", "m", "its place in the segment frame (cg: the segment's centre of mass; "
        "a joint's name: that joint's centre, the segment its parent)", "cg", reader=_SENSORS),
    Key("sensor[].marker", "string", "", "its place and axes: a marker (read in its axes; a displacement "
        "sensor in its segment's)", reader=_SENSORS),
    Key("sensor[].joint", "string", "", "load_cell: the joint it measures", reader=_SENSORS),
    Key("sensor[].reaction", "bool", "", "load_cell: read the load body exerts across the joint (a cell "
        "inside body beyond it)", reader=_SENSORS),
    Key("sensor[].body_loads_above", "bool", "", "load_cell with reaction: body's own contacts count on "
        "the joint's side", reader=_SENSORS),
    Key("sensor[].to_body", "string", "", "displacement: the other segment", reader=_SENSORS),
    Key("sensor[].to_point", "point", "m", "displacement: the point on it (as point)", "cg", reader=_SENSORS),
    Key("sensor[].to_marker", "string", "", "displacement: the marker on it", reader=_SENSORS),
    Key("sensor[].directions", "strings", "", "displacement: the components (x, y, z, r)", reader=_SENSORS),
    Key("sensor[].relative", "bool", "", "displacement: measured from the start", reader=_SENSORS),
    Key("sensor[].source", "string", "", "array: the recorded output it reads", reader=_SENSORS),
    Key("sensor[].unit", "string", "", "array: the output's unit", reader=_SENSORS),
    Key("sensor[].dimension", "string", "", "array: the ISO-MME dimension code", reader=_SENSORS),
    Key("sensor[].direction", "string", "", "array: the ISO-MME direction code", reader=_SENSORS),
    Key("sensor[].index", "number", "-", "array: the output's column", reader=_SENSORS),
    Key("sensor[].fine3", "string", "", "array: the ISO-MME fine location 3 (default: the dummy type; "
        "a belt load cell's B1-B6)", reader=_SENSORS),
]
_CRITERIA = [
    Key("criteria.regulation", "string", "", "the protocol the criteria are judged against "
        "(occupant.injury.limits)", choices=_protocols, label="regulation"),
    Key("criteria.show", "strings", "", "more criteria rows", choices=_optional_rows, label="criterion",
        always=_rows),
    Key("criteria.reference", "string", "", "a protocol whose limits are shown, never judged", choices=_protocols,
        label="regulation"),
]
_OUTPUTS = [
    Key("outputs.results", "bool", "", "DIR/results.h5", True),
    Key("outputs.isomme", "bool", "", "DIR/isomme/", True),
    Key("outputs.report", "bool", "", "DIR/report.html, report.pdf (occupant.report)", True),
]

#: every key of a scenario file, by path
KEYS = {k.path: k for k in (_TOP + _SOLVER + _OCCUPANT + _TARGETS + _VEHICLE + _PULSE + _PRECRASH
                            + _RESTRAINTS + _CONTACT + _SENSOR + _CRITERIA + _OUTPUTS)}


def pattern(path):
    """The registry path of a key path as a file or a message spells it:
    ``contact[3].a`` -> ``contact[].a``; a name under a by-name table becomes ``*``
    (``contact_characteristic.foam.table`` -> ``contact_characteristic.*.table``)."""
    parts = re.sub(r"\[\d+\]", "[]", path).split(".")
    out = []
    for part in parts:
        here = ".".join(out + [part])
        star = ".".join(out + ["*"])
        out.append(part if here in KEYS or any(p.startswith(here + ".") for p in KEYS)
                   or not any(p == star or p.startswith(star + ".") for p in KEYS) else "*")
    return ".".join(out)


def entry(path):
    """The Key of a key path (``contact[0].a`` as well as ``contact[].a``), or None."""
    return KEYS.get(pattern(path))


def names(path):
    """The keys a table at ``path`` accepts, in the registry's order (``""``: the top level)."""
    base = pattern(path) if path else ""
    prefix = f"{base}." if base else ""
    return tuple(p[len(prefix):] for p in KEYS
                 if p.startswith(prefix) and "." not in p[len(prefix):].replace("[]", ""))


def value_problem(path, value):
    """What is wrong with ``value`` given at the dotted key path ``path`` (a ``--set`` or a
    ``--vary`` value), as the registry alone can tell: (the key path at fault, the problem, what
    is accepted), or None. An unknown key is named at its first unknown part, with the keys its
    table accepts; a table given whole is checked key by key. Checks that need the rest of the
    scenario (names of bodies, files, combinations of keys) are the loader's."""
    parts = path.split(".")
    for i, part in enumerate(parts):
        here, table = ".".join(parts[:i + 1]), ".".join(parts[:i])
        if "[" in part:   # (a --set writes into tables by name only)
            array = part.partition("[")[0]
            return here, "an entry of an array of tables is not given by its index", \
                f"the whole array, {'.'.join(parts[:i] + [array])}=[{{...}}, ...]"
        base = pattern(here)
        if base not in KEYS and not any(p.startswith(base + ".") for p in KEYS):
            leaf = KEYS.get(pattern(table)) if table else None
            if leaf is not None and leaf.kind != "table":
                return table, f"is {KINDS[leaf.kind]}, not a table of keys", "a key path through tables"
            known = names(table)
            if f"{part}_deg" in known:
                return here, "angles are given in degrees with the _deg suffix", f"{part}_deg"
            return here, "unknown key", ", ".join(known)
    base = pattern(path)
    if isinstance(value, dict) and any(p.startswith(base + ".") for p in KEYS):
        for key, item in value.items():   # a table given whole: each of its keys
            found = value_problem(f"{path}.{key}", item)
            if found:
                return found
        return None
    k = KEYS.get(base)
    if k is None:   # a table the registry knows only by its keys
        return path, f"expected a table, got {value!r}", "a table"
    found = k.check(value)
    return None if found is None else (path, found, k.accepted())


def read(c, table, path, key, *, default=None):
    """The value of ``key`` in ``table`` (at ``path``) checked as the registry says, with its
    default when absent (``default`` given here for a key whose default the caller knows, e.g.
    the interior's belt points); a bad value fails through the FileChecker ``c`` naming the key
    and what is accepted. Numbers come back as float, vectors as arrays."""
    k = KEYS[pattern(c.where(path, key))]
    where = c.where(path, key)
    if key not in table:
        if k.default is REQUIRED:
            c.fail(where, "missing", k.accepted())
        value = k.default if default is None else default
        return np.array(value, float) if k.kind in ("vector", "vector4") and value is not None else value
    problem = k.check(table[key])
    if problem:
        c.fail(where, problem, k.accepted())
    value = table[key]
    if k.kind == "number":
        return float(value)
    if k.kind in ("vector", "vector4"):
        return np.array(value, float)
    return value


def unit(path):
    """The unit of a key path (as the report's settings table spells it: ``contact[0].a``),
    "" for none or an unknown key."""
    k = entry(path)
    return "" if k is None or k.unit == "-" else k.unit


def describe():
    """Lines for ``occupant list --keys``: each key, its type, unit, default and meaning."""
    lines = []
    width = max(len(p) for p in KEYS)
    for p, k in KEYS.items():
        default = ("required" if k.default is REQUIRED else "" if k.default is None
                   else f"default {k.default!r}")
        lines.append(f"{p:<{width}}  {k.accepted()}" + (f"; {default}" if default else ""))
        lines.append(f"{'':<{width}}    {k.meaning}" + (f" (checked by {k.reader})" if k.reader else ""))
    return lines
