"""Scenario files (``scenarios/*.toml``, ``kind = "scenario"``): loading, overrides and
validation of everything a run needs before it starts (issue 13 section 1).

A scenario names the occupant (dummy, posture, H-point in the vehicle frame B0), the vehicle
(an interior file of contact surfaces on B0, ``occupant.scenario.interior``), the crash pulse
(``occupant.scenario.pulse``), the restraints (``occupant.scenario.restraints``), the contact
pairs between the occupant's ellipsoids and the interior's surfaces
(``occupant.modeling.contacts_toml``; the occupant's own pairs, chin on chest, hands on the
wheel, leg on leg, come from ``occupant.scenario.body_contacts``), sensors, criteria, solver
settings and outputs::

    kind = "scenario"
    name = "fmvss208_sled_48_unbelted"
    title = "FMVSS 208-style 48 km/h unbelted sled test"   # the test it represents
    [occupant]
    dummy = "hybrid3_50m"           # occupant.human.load_dummy: a shipped name or a path
    # or, instead of dummy, a parametric human (occupant.human.build), with [[sensor]] tables:
    # human = {sex = "male", percentile = 50}   # or stature (m), mass (kg); neck_activation;
    #   thoracic_spine = true: the upper torso split at T6/T7 (occupant.human.thoracic_spine)
    #   neck_mid = true: a third neck joint at C4 (occupant.human.neck_mid)
    #   face = true: a chin on the head (occupant.human.builder.chin)
    posture = "passenger_seated"    # occupant.human.position: a shipped name or a path
    posture_targets = {human_thorax = "file_angles"}   # the posture's [targets] keys replaced (points added;
                                    # one naming a body's point the posture targets replaces it)
    posture_angles = {elbow_deg = 60.0}   # the posture's [angles] keys replaced
    h_point = [0.0, 0.0, 0.0]       # m in B0: where the posture's H-point goes
    seat = "front_right"            # ISO-MME position (code character 2), see SEATS
    yaw_deg = 0.0                   # turns the posture about B0's z (a pedestrian's heading)
    settle = 0.3                    # s settling into the seat under gravity before the run
                                    # (occupant.scenario.settle; default 0: starts as postured)
    settle_belted = false           # the belts on the body throughout the settling (default:
                                    # buckled on the seated occupant for its last 0.1 s)
    [vehicle]
    interior = "sled_buck_passenger"
    # pedestrian scenarios: B0 is the road (the interior its surface) and the car a moving body
    # front = "sedan_front_midsize"   # occupant.scenario.vehicle_front
    # speed_kmh = 40.0                # the car's speed at t = 0
    # front_position = -0.10          # m, x in B0 of the car's foremost point at t = 0
    # pre-crash braking (occupant.scenario.precrash): B0 follows the full-car model's chassis
    # model = "midsize_sedan"         # vehicles/<model>.toml, with a [precrash] table
    # backset = 0.050                 # m: the head restraint placed this far behind the head of
                                      # the settled occupant (occupant.scenario.placement)
    # [[vehicle.intrusion]]           # interior surfaces pushed in by a velocity-time profile
                                      # (a side door: occupant.scenario.intrusion)
    [pulse]                         # occupant.scenario.pulse (none with a vehicle front)
    [restraints.airbag]             # occupant.scenario.restraints
    [restraints.knee_airbag]        # a second bag (kind = "knee": the driver's knee bag)
    [[contact]]                     # a = occupant ellipsoid(s), b = interior surface
    [sensors]
    standard = true                 # the dummy's standard channel set (occupant.sensors)
    belt = true                     # the belts' load cells B3-B6 (occupant.sensors.belt)
    [[sensor]]                      # more sensors (occupant.sensors.load_sensors form)
    [criteria]
    regulation = "fmvss208_hybrid3_50m"   # a protocol of occupant.injury.limits
    show = ["NIC", "Nkm"]           # more rows (occupant.scenario.criteria.OPTIONAL_ROWS)
    reference = "euroncap_whiplash_medium_biorid2"   # limits shown, never judged (other dummy)
    [solver]
    t_end = 0.15                    # s
    integrator = "euler"            # occupant.integrate.INTEGRATORS
    dt = 1e-5                       # s (optional: the integrator's default)
    [outputs]
    isomme = true                   # DIR/isomme/
    report = true                   # DIR/report.html, report.pdf (occupant.report)

Every error names the file, the key path, the bad value and what is accepted
(``InputFileError``); an override's error names the ``--set`` it came from.
"""
import dataclasses
import pathlib
import re

import numpy as np

from occupant.human.data_folder import reading_from
from occupant.injury.criteria import CRITERION_CFC
from occupant.injury.filters import nyquist_dt
from occupant.integrate.integrators import INTEGRATORS, whole_steps
from occupant.human.neck_bracket import BracketError, fit_bracket, has_bracket
from occupant.human.neck_levelling import share_neck_flexion
from occupant.human.neck_muscles import NO_NECK_MUSCLES
from occupant.human.posture import POSTURE_FOLDER
from occupant.io.toml_files import (
    FileChecker, InputFileError, given_as_path, located, read_toml, refused_name, resolve_shipped,
    shipped_names,
)
from occupant.modeling import Ellipsoid, Plane, Sphere
from occupant.modeling.contacts_toml import read_contacts
from occupant.scenario.body_contacts import body_pairs
from occupant.scenario.body_contacts import shipped_file as body_contacts_file
from occupant.scenario.human_swap import human_contacts
from occupant.scenario.interior import load_interior
from occupant.scenario.interior_hinge import frame_marker
from occupant.scenario.intrusion import read_intrusions
from occupant.scenario.keys import DEFAULT_PERCENTILE, KEYS, MAX_BACKSET, SEATS, SIDE_SPEED, names, read
from occupant.scenario.keys import pattern as keys_pattern
from occupant.scenario.overrides import apply_overrides, parse_overrides, replaced, replaced_notes
from occupant.scenario.overrides import check as check_overrides
from occupant.scenario.pulse import KMH, read_pulse, road_at_rest
from occupant.scenario.restraints import (BELT_ANCHORAGES, RESTRAINTS, belt_table, read_restraints,
                                         reference_dummy_file)
from occupant.scenario.vehicle_front import add_front, lift_onto, load_vehicle_front, turn_root, vehicle_indices
from occupant.sensors.defaults import human_stand_in

# the keys each table takes, their types, units, ranges and defaults: occupant.scenario.keys
# where a key the scenario file gives is taken away: --set replaces and adds keys only
NO_REMOVAL = "a --set cannot remove a key the file gives: edit a copy of the scenario file"
MAX_SAMPLES = 200_000   # recorded samples at most (t_end / output_dt): 20 s at the 1e-4 s default


# why a Hybrid III in a lateral pulse (no regulation named) is shown against no limits, in its
# run's notes: FMVSS 214's barrier test judges the ES-2re on rib, abdomen and pubic loads [C:
# crash-domain-facts.md 2.3], Euro NCAP's AE-MDB test the WorldSID-50M's chest compression [S:
# 2.4], UN R95 the ES-2's rib deflection, VC and abdomen [S: 2.5]: loads the Hybrid III, built
# for frontal tests, has no sensor for
# a parametric human's criteria (occupant.sensors.defaults.human_stand_in)
STAND_IN_NOTE = ("this parametric human's criteria are computed as the {}'s, the Hybrid III of its "
                 "sex nearest its stature: no human injury criterion")
SIDE_DUMMY_NOTE = ("no limits shown: side-impact tests judge side dummies (ES-2re in FMVSS 214's barrier "
                   "test, WorldSID-50M in Euro NCAP's, ES-2 in UN R95) on rib, abdomen and pubic loads a "
                   "Hybrid III does not measure; its chest deflection is the sternum's, fore-aft")

SEATED_PEDESTRIAN_NOTE = ("the {} is a seated Hybrid III (its lumbar spine a curved column, its pelvis "
                          "moulded sitting): stood in the walking stance it keeps that shape; only the 50th "
                          "male has a standing variant, hybrid3_50m_pedestrian (dummies/hybrid3_50m_pedestrian.toml)")


def _test_not_crash(c, test):
    """Refuse a certification or validation test (a ``test`` key) given to ``occupant run``,
    saying which command runs it, as ``occupant certify`` and ``validate`` say of a crash
    scenario (occupant.human.certification.read_test_key)."""
    from occupant.human.certification import TESTS
    from occupant.human.validation import VALIDATIONS
    for tests, what, command in ((TESTS, "certification", "certify"), (VALIDATIONS, "validation", "validate")):
        if isinstance(test, str) and test in tests:
            c.fail("test", f"a {what} test ({test!r}), not a crash scenario: run it with occupant {command}",
                   "a crash scenario: occupant, vehicle, pulse, ... without a test key (occupant list)")


class ScenarioError(InputFileError):
    """A scenario that cannot run: names the file (or the --set), the key path, the bad value
    and what is accepted. An unknown key that is a key of other tables says which (``key_homes``)."""

    def __init__(self, file, path, problem, accepted=None):
        if problem == "unknown key" and path:
            accepted = key_homes(path, accepted)
        super().__init__(file, path, problem, accepted)


def key_homes(path, accepted):
    """``accepted`` (the keys of the table at ``path``) and, when the unknown key's name is a key
    of other tables, which: ``load_limit`` written under [pulse] (or above the first table) was
    "unknown key (accepted: shape, delta_v_kmh, ...)", leaving the user to find that it belongs
    under [restraints.belt] (usercheck9)."""
    leaf = path.rpartition(".")[2].partition("[")[0]
    if ("barrier" in leaf.lower() or "mdb" in leaf.lower()) and "speed" in leaf.lower():
        # (--set pulse.barrier_speed_kmh on side_barrier: "unknown key" and the pulse's keys,
        # none saying where the barrier's speed goes; usercheck12)
        barrier = (f"no key takes a striking barrier's speed: it enters as the struck car's "
                   f"pulse.delta_v_kmh, {SIDE_SPEED}")
        return f"{accepted}; {barrier}" if accepted else barrier
    homes = [p.rpartition(".")[0] for p in KEYS if p.rpartition(".")[2] == leaf and p != keys_pattern(path)]
    if not homes or (accepted and "is a key of" in accepted):   # (an error made again from another)
        return accepted
    # as a file writes the table: [restraints.belt], [[contact]], [contact_characteristic.NAME]
    shown = [f"[[{h[:-2]}]]" if h.endswith("[]") else f"[{h.replace('*', 'NAME')}]" for h in homes]
    where = ", ".join(shown[:4]) + (f" and {len(shown) - 4} more" if len(shown) > 4 else "")
    return f"{accepted}; {leaf} is a key of {where}" if accepted else f"{leaf} is a key of {where}"


def available_scenarios():
    return shipped_names("scenarios", kind="scenario")


def resolve(name_or_path):
    """The path of a shipped scenario's name (``scenarios/<name>.toml``) or of a .toml path."""
    return resolve_shipped(name_or_path, "scenarios", "scenario", kind="scenario", error=ScenarioError)


# the keys whose value is a shipped file's name or a file's path, read by ``Scenario._named``
# (a relative path from the scenario file's folder, as every file a file names:
# occupant.io.toml_files.located), with the shipped folder and file kind a name is looked up in
# (the loader's own: occupant.io.toml_files.resolve_shipped)
NAMED_FILES = (("occupant", "dummy", "dummies", "dummy"),
               ("occupant", "posture", POSTURE_FOLDER, None),
               ("vehicle", "interior", "vehicles", "interior"),
               ("vehicle", "front", "vehicles", "vehicle_front"))
PATH_KEYS = tuple(f"{t}.{k}" for t, k, _, _ in NAMED_FILES) + ("pulse.file",)   # a file's path
# the tables of the crash a scenario's title describes (its speed, pulse, vehicle): a run that
# overrides a key of theirs says so in its title
CRASH_TABLES = ("vehicle", "pulse", "precrash")


def base_chain(path, resolve):
    """[(value, Path)]: the files the ``base`` key of the file at ``path`` names in turn (a
    dummy variant's base; an interior's base, its base...), ``resolve(value, depth, named_by)``
    giving the file of a value the file ``named_by`` names (None: the chain is not followed
    further)."""
    out, seen = [], {pathlib.Path(path).resolve()}
    value, named_by = read_toml(path).get("base"), path
    while isinstance(value, str):
        file = resolve(value, len(out) + 1, named_by)
        if file is None or pathlib.Path(file).resolve() in seen:
            break
        seen.add(pathlib.Path(file).resolve())
        out.append((value, pathlib.Path(file).absolute()))
        value, named_by = read_toml(file).get("base"), file
    return out


VEHICLE_MODEL = "vehicle_model"   # the inputs key of a pre-crash scenario's vehicle model file
#                                  (its subsystems': vehicle_model_sub1, _sub2, ...)


def base_key(key, depth):
    """The inputs key of the base at ``depth`` of the file of ``key``: interior_base,
    interior_base2, ..."""
    return f"{key}_base{depth if depth > 1 else ''}"


def sub_key(i):
    """The inputs key of the pre-crash vehicle model's file ``i``: VEHICLE_MODEL (0), then its
    subsystems' vehicle_model_sub1, _sub2, ..."""
    return f"{VEHICLE_MODEL}_sub{i}" if i else VEHICLE_MODEL


MESH_KEY = "interior_mesh_"   # + a surface's name: the inputs key of an interior's mesh file


def owner_key(key):
    """The inputs key whose file brought in ``key``'s: interior for interior_base2 (base_key)
    and interior_mesh_<surface> (MESH_KEY), vehicle_model for vehicle_model_sub3 (sub_key),
    else ``key`` itself."""
    return re.sub(r"_(base\d*|sub\d+|mesh_.+)$", "", key)


def anchored(data, named_by=None):
    """A copy of the scenario ``data`` whose NAMED_FILES given as relative paths are absolute,
    read from the folder of the file ``named_by`` (the scenario's), as the loader reads them: a
    run's record, read again from another directory (occupant.scenario.run.read_run), reads the
    same files (its pulse is stored as run)."""
    out = {k: dict(v) if isinstance(v, dict) else v for k, v in data.items()}
    for table, key, _, _ in NAMED_FILES:
        value = out[table].get(key) if isinstance(out.get(table), dict) else None
        if isinstance(value, str) and given_as_path(value, named_by):
            out[table][key] = str(located(value, named_by).absolute())
    return out


def on_command_line(keys):
    """The overrides ``keys`` ({dotted key: value}) with a file's path (PATH_KEYS) given
    relative made absolute against the working directory: a path on a command line (or in a
    call) is read from where it is given, one in a scenario file from the file's folder. A path
    inside a table given whole (``--set 'pulse={shape="csv", file="p.csv"}'``) is one too."""
    def absolute(key, v):
        if isinstance(v, dict):
            return {k: absolute(f"{key}.{k}", x) for k, x in v.items()}
        if key in PATH_KEYS and isinstance(v, str) and (key == "pulse.file" or given_as_path(v)):
            return str(pathlib.Path(v).absolute())
        return v
    return {k: absolute(k, v) for k, v in keys.items()}


class Scenario:
    """A validated scenario, ready to run: ``load(...)`` builds it, ``run()`` simulates it.

    ``data``: the scenario as resolved (file plus overrides); ``model``: the compiled occupant
    with the interior's surfaces and the contact pairs (``model.source`` the Assembly);
    ``q0``: its initial configuration; ``pulse``; ``sensors``; ``protocol`` (or None);
    ``notes``: what the run does not represent (restraints not modelled, ...); ``judged``:
    False when the criteria must not be judged against the regulation's limits.

    ``start``: the configuration a run of this scenario started from (its record's initial
    state), taken as q0 so that a run folder's model is rebuilt without settling again;
    ``pulse``: the Pulse it ran with (its record's), taken for the ``[pulse]`` table, whose
    CSV or ISO-MME file may have moved since (a run folder stands on its own), and, a
    PrecrashPulse, for the ``[precrash]`` braking, not run again;
    ``files``: {key: path} read for a NAMED_FILES key ("dummy", "posture", "interior",
    "front") instead of the file its value names, for the bases that file names (keys
    ``base_key``: "interior_base", ...), for the package's own data ("body_contacts",
    "reference_dummy"), for "pulse" (the CSV file or ISO-MME test a [pulse] table names), for
    a parametric human's data ("human", its tables' folder; "human_stops":
    occupant.human.data_folder) and for a pre-crash scenario's vehicle model (VEHICLE_MODEL
    and its subsystems', ``sub_key``): a run folder's copies of them
    (occupant.scenario.run.read_run, folder_scenario).

    ``inputs``: {key: Path} of every file it read: those of NAMED_FILES (a shipped name's file
    too), the bases they name ("dummy_base", "interior_base", "interior_base2"...), the
    package's data ("body_contacts"; "reference_dummy" when the lap belt's pelvis is drawn
    from it), "pulse" (a CSV file, an ISO-MME test's folder), a pre-crash scenario's vehicle
    model (VEHICLE_MODEL and its subsystems) and a parametric human's data
    (occupant.human.builder.data_files); occupant.scenario.run copies them into its folder.

    ``before_compile``: called once (if given) when every table it reads before building its
    model has been read and checked, before the first work that compiles (the model's build
    and posture, a pre-crash scenario's braking run): ``occupant run`` says there that a cold
    cache compiles, so that a refused input (a pulse's CSV file) is one error line, not one
    after "compiling the step" (usercheck12)."""

    def __init__(self, data, file, start=None, pulse=None, files=None, before_compile=None):
        self.data, self.file = data, str(file)
        self.inputs, self._files = {}, dict(files or {})
        self._before_compile = before_compile
        # {dotted key: value} applied to ``file``'s data to make ``data`` (load's overrides, as
        # given: paths made absolute), recorded in results.h5's provenance (occupant.scenario.run)
        self.overrides = {}
        c = FileChecker(self.file, ScenarioError)
        # a parametric human's tables and stops dummy: files' copies of them, while it is built,
        # postured and belted (the readers take their paths from occupant.human.data_folder)
        with reading_from(self._files.get("human"), self._files.get("human_stops")):
            self._check(c, data, start, pulse)

    def _compiling(self):
        """``before_compile``, once."""
        said, self._before_compile = self._before_compile, None
        if said is not None:
            said()

    def _named(self, c, table, key, path, loader):
        """Load what ``table[key]`` names (or the file ``files`` gives for ``key``); an unknown
        name becomes this file's error at this key. The file read goes in ``inputs``."""
        value = c.string(table, key, path, required=True)
        source = str(self._files.get(key, value))
        named_by = None if key in self._files else self.file   # a copy's path is absolute
        folder, kind = next((f, k) for t, n, f, k in NAMED_FILES if (t, n) == (path, key))
        try:   # an unknown name or a missing file: said as this file's error at this key
            file = resolve_shipped(source, folder, key, kind=kind, named_by=named_by)
        except InputFileError as err:
            c.fail(c.where(path, key), refused_name(err, source, named_by), err.accepted)
        bases = {}   # a copy's bases read from their copies (only dummy and interior files have one)
        if key in self._files:
            bases = dict(base_chain(source, lambda v, depth, _: self._files.get(base_key(key, depth))))
        # a path as read (from the scenario's folder); a shipped name as given
        named = str(file) if given_as_path(source, named_by) else source
        loaded = loader(named, bases) if bases else loader(named)

        def resolved(value, depth, named_by):   # a base as its loader reads it
            if value in bases:
                return bases[value]
            try:
                return resolve_shipped(value, folder, key, kind=kind, named_by=named_by)
            except InputFileError:
                return None
        self.inputs[key] = file.absolute()
        for depth, (_, file) in enumerate(base_chain(self.inputs[key], resolved), 1):
            self.inputs[base_key(key, depth)] = file
        return loaded

    def _data(self, key, shipped):
        """The path of the package's own data file ``key`` the run reads ("body_contacts",
        "reference_dummy"): ``files``' copy of it, else ``shipped()``; noted in ``inputs``."""
        self.inputs[key] = pathlib.Path(self._files.get(key) or shipped()).absolute()
        return self.inputs[key]

    def _check(self, c, data, start=None, pulse=None):
        from occupant.human import load_dummy, load_posture, position
        from occupant.injury.limits import PROTOCOLS
        from occupant.integrate.integrators import INTEGRATORS

        read(c, data, "", "kind")   # first: another kind of file is said to be one
        if "test" in data:   # a certification or validation test ("test: unknown key" said nothing)
            _test_not_crash(c, data["test"])
        c.keys(data, names(""), "")
        self.name = read(c, data, "", "name")
        # the default run folder is reports/<name>: a name with a path in it would write elsewhere
        if any(ch in self.name for ch in '/\\') or self.name.strip() in (".", "..") \
                or self.name != self.name.strip():
            c.fail("name", f"{self.name!r} is not a folder name", "a name without / or \\, "
                   "not . or .., without leading or trailing spaces")
        self.title = read(c, data, "", "title")
        # solver first: the pulse table needs t_end
        solver = c.table(data, "solver", "", required=True)
        c.keys(solver, names("solver"), "solver")
        # (keys.MAX_T_END: a longer run is a typo, and t_end = 1e9 went on to allocate 728 TiB
        # for the pulse table)
        self.t_end = read(c, solver, "solver", "t_end")
        self.integrator = read(c, solver, "solver", "integrator")
        self.dt = read(c, solver, "solver", "dt")
        if self.dt is not None and self.dt > self.t_end:
            c.fail("solver.dt", f"the step {self.dt} s is longer than t_end {self.t_end} s",
                   "0 < dt <= t_end")
        if self.dt is not None and INTEGRATORS[self.integrator].default_dt is not None \
                and whole_steps(self.t_end, self.dt) is None:   # (simulate refused it after the settling)
            c.fail("solver.dt", f"t_end {self.t_end} s is not a whole number of steps of {self.dt} s "
                   f"(t_end / dt = {self.t_end / self.dt:.6g})", f"a dt that divides t_end for the "
                   f"fixed-step {self.integrator}, or leave dt out")
        self.output_dt = read(c, solver, "solver", "output_dt")
        if self.output_dt > self.t_end:   # one sample, at t = 0: nothing to judge the crash by
            c.fail("solver.output_dt", f"the interval {self.output_dt} s is longer than t_end "
                   f"{self.t_end} s", f"t_end / {MAX_SAMPLES} <= output_dt <= t_end")
        finest = max(CRITERION_CFC.values())   # (a coarser run ran to its end, then said every
        # criterion filtered at it "not computable")
        if self.output_dt >= nyquist_dt(finest):
            c.fail("solver.output_dt", f"the interval {self.output_dt:g} s is too coarse for the "
                   f"criteria's CFC {finest} channels (SAE J211-1: their filter's design frequency "
                   f"must lie below the samples' Nyquist frequency)",
                   f"output_dt < {nyquist_dt(finest):.3g} s; J211-1 asks for {0.1 / finest:g} s (10 x "
                   f"CFC), the default")
        if self.t_end / self.output_dt > MAX_SAMPLES:
            c.fail("solver.output_dt", f"{self.output_dt} s over t_end {self.t_end} s is more than "
                   f"{MAX_SAMPLES} samples", f"output_dt >= t_end / {MAX_SAMPLES}")

        occ = c.table(data, "occupant", "", required=True)
        c.keys(occ, names("occupant"), "occupant")
        if ("dummy" in occ) == ("human" in occ):
            # (a --set of one replaces the file's other: occupant.scenario.overrides.ALTERNATIVES)
            c.fail("occupant", "give exactly one of dummy and human", "dummy = a dummy name, or "
                   "human = {sex, percentile or stature and mass}; a --set of either replaces the other")
        self.human = "human" in occ
        if "dummy" in occ:
            dummy = self._named(c, occ, "dummy", "occupant", load_dummy)
            # a dummy file given by its path (a copy of a shipped one, changed) is the dummy its
            # name key names: its criteria's constants and the regulations that judge it
            self.dummy = dummy.name if given_as_path(occ["dummy"], self.file) else occ["dummy"]
            # a dummy variant (occupant.human.variants) takes its base dummy's injury criteria
            self.criteria_dummy = getattr(dummy.source, "header", {}).get("base", self.dummy)
        h_point = read(c, occ, "occupant", "h_point")
        seat = read(c, occ, "occupant", "seat")
        self.position_code = SEATS[seat]

        veh = c.table(data, "vehicle", "", required=True)
        c.keys(veh, names("vehicle"), "vehicle")
        copies = {k.removeprefix(MESH_KEY): v for k, v in self._files.items() if k.startswith(MESH_KEY)}
        self.interior = self._named(c, veh, "interior", "vehicle",
                                    lambda named, bases=None: load_interior(named, bases, meshes=copies))
        self.inputs.update({MESH_KEY + s: pathlib.Path(p).absolute()
                            for s, p in self.interior.mesh_files.items()})
        self.front = self._front(c, veh, data)
        if "precrash" in data:   # braking with the full-car model, then the crash
            if pulse is None:   # (its braking runs the vehicle model: compiled on a cold cache)
                self._compiling()
            self.pulse = self._precrash(c, veh, data, pulse)
        elif "model" in veh:
            c.fail("vehicle.model", "a vehicle model drives B0 only in a pre-crash scenario",
                   "a [precrash] table, or leave vehicle.model out")
        elif self.front is None:
            self.pulse = pulse if pulse is not None else read_pulse(
                c, c.table(data, "pulse", "", required=True), "pulse", self.file, self.t_end,
                self._files.get("pulse"))
        else:
            self.pulse = road_at_rest(self.t_end)
        if getattr(self.pulse, "file", None) is not None:   # a CSV pulse, an ISO-MME test
            self.inputs["pulse"] = pathlib.Path(self.pulse.file).absolute()
        if self.human:   # built once the pulse is read: its neck is timed by the crash's start
            from occupant.human.builder import data_files
            dummy = self._human(c, c.table(occ, "human", "occupant"), self.pulse.start)
            self.dummy = dummy.name
            self.inputs.update(data_files())   # as read: installed, or files' copies

        crit = c.table(data, "criteria", "")
        c.keys(crit, names("criteria"), "criteria")
        ref = read(c, crit, "criteria", "reference")
        self.reference = PROTOCOLS[ref] if ref else None
        reg = read(c, crit, "criteria", "regulation")
        self.protocol = PROTOCOLS[reg] if reg else None
        if self.human:
            # its channels read as the dummy's (occupant.sensors.defaults.human_sensors), the
            # criteria's constants (M_OC's offset, Nij's intercepts, VC's) the Hybrid III's of its
            # sex nearest its stature, whichever dummy the regulation judges: a 5th-percentile
            # woman in a 50th male's test is read with the 5th female's intercepts
            self.criteria_dummy = human_stand_in(dummy.source.header, lambda name: self._data(
                f"stand_in_{name}", lambda: resolve_shipped(name, "dummies", "dummy", kind="dummy")))
        if self.protocol is not None and self.human:
            # a human has no regulation of its own: the dummy's limits shown beside, not judged
            # (the note below says so), rather than a verdict on a dummy's limits
            self.reference = self.reference or self.protocol
            self.protocol = None
        if self.protocol is not None and not self.dummy.startswith(self.protocol.dummy):
            c.fail("criteria.regulation", f"{reg} judges the {self.protocol.dummy}, the occupant is "
                   f"{self.dummy}", ", ".join(k for k, p in PROTOCOLS.items() if self.dummy.startswith(p.dummy))
                   or f"no regulation for this occupant: leave criteria.regulation out ({NO_REMOVAL})")
        self.show = tuple(read(c, crit, "criteria", "show") or ())
        twice = sorted({x for x in self.show if self.show.count(x) > 1})
        if twice:   # (its row was shown once: the second was a slip)
            c.fail("criteria.show", f"{twice[0]!r} is named twice", "each criterion once")
        self.restraints, self.notes, self.judged = read_restraints(c, data, self.title)
        # a restraint or the pulse timed at or after the run's end: a time written in ms
        # (fire_time = 15) ran the whole crash without it, unsaid; a note, not a refusal: a run
        # shortened for a quick look (--set solver.t_end=0.005) ends before the shipped bags fire
        pulse = data.get("pulse") if isinstance(data.get("pulse"), dict) else {}
        timed = [("pulse.start", pulse.get("start"), "the pulse does not start")]
        for kind, table in self.restraints.items():
            if table.get("pretensioner") is True:
                timed.append((f"restraints.{kind}.pretensioner_time", table.get("pretensioner_time"),
                              "the pretensioner does not fire"))
            timed.append((f"restraints.{kind}.fire_time", table.get("fire_time"), "the bag does not fire"))
        for key, at, what in timed:
            if at is not None and at >= self.t_end:
                self.notes.append(f"{key} = {at:g} s is not before the run's end (solver.t_end = "
                                  f"{self.t_end:g} s): {what} in this run (times are in s from its start)")
        if self.reference is not None:
            self.notes.append(f"the limits of {self.reference.title} are shown beside the criteria "
                              f"they cover, not judged: that protocol's dummy is the "
                              f"{self.reference.dummy}, this occupant the {self.dummy}"
                              + (f" ({STAND_IN_NOTE.format(self.criteria_dummy)})" if self.human else ""))
        elif self.human:
            self.notes.append(f"no regulation named: {STAND_IN_NOTE.format(self.criteria_dummy)}")
        if self.protocol is None and self.front is None and self.dummy.startswith("hybrid3") \
                and abs(self.pulse.direction[1]) > abs(self.pulse.direction[0]):
            self.notes.append(SIDE_DUMMY_NOTE)
        if self.front is not None and self.dummy.startswith("hybrid3") and not self.dummy.endswith("_pedestrian"):
            self.notes.append(SEATED_PEDESTRIAN_NOTE.format(self.dummy))   # (stood unsaid, usercheck7)
        self.not_judged = ()

        # the occupant with its added ellipsoids, the interior's surfaces and the contact pairs
        asm = dummy.source
        self._ellipsoids(c, occ, asm)
        for element in self.interior.elements:   # hinged parts (a seat back on its recliner)
            if asm.find(element.name) is not None:
                c.fail("vehicle.interior", f"hinge element {element.name!r} of {self.interior.name} "
                       f"has the name of an element of {self.dummy}", "distinct names")
            asm.add(element)
        for surface in self.interior.surfaces:
            if asm.find(surface.name) is not None:
                c.fail("vehicle.interior", f"surface {surface.name!r} of {self.interior.name} has "
                       f"the name of an element of {self.dummy}", "distinct names")
            asm.add(surface)
        hinge_of = {frame_marker(h): h for h in self.interior.hinges}   # a surface's hinge
        for motion in read_intrusions(c, veh, {s.name: hinge_of.get(s.marker)
                                               for s in self.interior.surfaces}):
            if asm.find(motion.name) is not None:
                c.fail("vehicle.intrusion", f"intrusion {motion.name!r} has the name of an "
                       f"element of the model", "distinct names")
            asm.add(motion)
        characteristics, defaults = dict(self.interior.characteristics), dict(self.interior.defaults)
        if self.front is not None:
            add_front(self.front, asm, self.front_position, c, "vehicle.front")
            characteristics.update(self.front.characteristics)
            defaults.update(self.front.surface_characteristics)
        if self.human:   # the dummy's geometries the pairs name, the human's (human_swap)
            contacts, said = human_contacts(c.tables(data, "contact", ""))
            if self.front is not None:   # its shoulders outside its thorax (pedestrian.shoulder_caps)
                from occupant.scenario.pedestrian import shoulder_caps
                contacts, capped = shoulder_caps(asm, contacts, set(self.front.surface_names))
                said = said + capped
            data = {**data, "contact": contacts}
            self.notes.extend(said)
        own = c.table(data, "contact_characteristic", "")
        known, pairs = read_contacts(c, data, list(asm.geometries), characteristics=characteristics,
                                 defaults=defaults, bodies=[
                                     n for n, g in asm.geometries.items()
                                     if isinstance(g, (Ellipsoid, Sphere)) and g.marker is not None])
        self.notes.extend(replaced_characteristic_notes(own, characteristics, known, self.interior.name))
        # a pair with an interior surface of a crushable part crushes it with the part's others
        pairs = [dataclasses.replace(x, crush_group=self.interior.crush_groups.get(x.geometry_b, ""))
                 for x in pairs]
        for pair in pairs + body_pairs(list(asm.geometries), pairs, characteristics, defaults,
                                       occupant=asm.name,
                                       file=self._data("body_contacts", body_contacts_file)):
            asm.add(pair)
        for kind, table in self.restraints.items():
            if kind == "belt":   # the seat's anchorages where the scenario gives none; on a
                # parametric human the belt loads the ribcage (restraints.build_belt)
                anchors = BELT_ANCHORAGES[read(c, table, "restraints.belt", "kind")]
                if not self.interior.belt and not all(k in table for k in anchors[-3:]):   # (a
                    # belt --set into a scenario whose seat has none read "retractor: missing")
                    c.fail("restraints.belt", f"the interior {self.interior.name} has no belt "
                           "anchorages (no [belt] table) and this belt does not give them",
                           f"an interior with a [belt] table, or {', '.join(anchors[:-1])} and "
                           f"{anchors[-1]} (m in B0) in [restraints.belt]")
                table = belt_table(table, self.interior.belt, self.human,
                                   lambda: self._data("reference_dummy", reference_dummy_file))
            RESTRAINTS[kind](asm, table, c, f"restraints.{kind}")
        targets = c.table(occ, "posture_targets", "occupant")   # (checked before the compile too)
        c.keys(targets, names("occupant.posture_targets"), "occupant.posture_targets")
        angles = c.table(occ, "posture_angles", "occupant")
        # the rest of the file read and checked before the compile line too (the posture file, its
        # keys; yaw, settle, [sensors], [outputs]): they were refused after it (usercheck13); the
        # posture's angles and targets are fitted to the model, and the [[sensor]] tables read
        # against it, after its build
        posture_file = self._named(c, occ, "posture", "occupant", load_posture)
        yaw = read(c, occ, "occupant", "yaw_deg")
        self.settle = self._settle(c, occ)
        self.settle_belted = read(c, occ, "occupant", "settle_belted")
        sensors = c.table(data, "sensors", "")
        c.keys(sensors, names("sensors"), "sensors")
        standard, belt_cells = read(c, sensors, "sensors", "standard"), read(c, sensors, "sensors", "belt")
        outputs = c.table(data, "outputs", "")
        c.keys(outputs, names("outputs"), "outputs")
        self.outputs = {k: read(c, outputs, "outputs", k) for k in names("outputs")}
        self._compiling()
        self.model = asm.compile()
        # a first run's compile worker (integrate.precompile) given its jobs now: it compiles
        # while the posture is fitted
        from occupant.integrate import precompile
        method = INTEGRATORS[self.integrator]
        precompile.early(self.model, method.loop if method.default_dt is not None else None)

        # with a vehicle front (the car) or hinged seat parts the model has more bodies than the
        # dummy: posture the whole model
        posed = dummy if self.front is None and not self.interior.hinges else self.model
        posture = position(posed, posture_file, targets=targets or None, angles=angles or None,
                           given_in=(c, "occupant.posture_targets", "occupant.posture_angles"))
        self.q0 = np.array(posture, float)
        if yaw:
            turn_root(self.q0, np.radians(yaw))
        self.q0[0:3] += h_point     # the free root's position: the H-point moves with the seat
        self.neck_bracket = None
        if self.front is None and has_bracket(self.model):   # seated: bracket levels the head
            try:
                self.model, self.neck_bracket = fit_bracket(self.model, self.q0)
            except BracketError as err:
                c.fail("occupant.posture", str(err), "a posture whose lower neck flexion is "
                       "inside the bracket's range")
        else:   # a human has no bracket: its whole neck levels the head
            self.q0 = share_neck_flexion(self.model, self.q0)
        self.v0 = None
        if self.front is not None:
            self.v0 = np.zeros(self.model.nv)
            self.v0[vehicle_indices(self.model)[1]] = self.speed
            lift_onto(self.model, self.q0, [x.name for x in self.interior.surfaces
                                            if isinstance(x, Plane)])

        self.sensors = self._sensors(c, data, standard, belt_cells)
        self.settled = False     # True: q0 is settled already (for the backset, or a run's start)
        self.settled_z = None    # the z the loader's settling ended with (the run goes on from it)
        if start is not None and np.shape(start) == self.q0.shape:
            self.q0, self.settled = np.array(start, float), bool(self.settle)
        self.backset_before = None   # m, the backset measured before the restraint was moved
        if "backset" in veh:     # last: it settles the occupant, the longest check
            self._backset(c, veh)

    def _backset(self, c, veh):
        """``vehicle.backset``: the head restraint moved so that its backset from the occupant
        at the start (settled when occupant.settle > 0) is this (occupant.scenario.placement)."""
        from occupant.scenario.placement import PlacementError, cleared, place_head_restraint
        from occupant.scenario.settle import settle_scenario
        accepted = (f"0 < backset <= {MAX_BACKSET} m, with a head_restraint surface (a plane, box, "
                "cylinder, sphere or ellipsoid) paired with the head")
        value = read(c, veh, "vehicle", "backset")
        if self.front is not None:
            c.fail("vehicle.backset", "a pedestrian scenario has no seat", "leave backset out "
                   "in a scenario with a vehicle front")
        try:
            clear = cleared(self.model, self.q0)   # a missing surface or pair fails before settling
            if self.settle and not self.settled:    # the head settles clear of the restraint
                self.q0, info = settle_scenario(self.file, clear, self.q0, self.settle,
                                                self.settle_belted)
                self.settled_z = info["z"]
                self.settled = True
            self.model, self.backset_before = place_head_restraint(self.model, self.q0, value)
        except PlacementError as err:
            c.fail("vehicle.backset", str(err), accepted)

    def _settle(self, c, occ):
        """``occupant.settle``: seconds of settling under gravity before the run (0: none)."""
        value = read(c, occ, "occupant", "settle")
        if value and self.front is not None:
            c.fail("occupant.settle", "a pedestrian stands on the road: there is no seat to settle "
                   "into", "leave settle out (0) in a scenario with a vehicle front")
        return value

    @staticmethod
    def _human(c, h, pulse_start):
        """``occupant.human``: the parametric human of occupant.human.build, its neck's posture
        controller holding until ``pulse_start`` (s, the crash's start: Pulse.start) and its
        reflex timed from it."""
        from occupant.human import HumanParameterError, build
        c.keys(h, names("occupant.human"), "occupant.human")
        kwargs = {k: read(c, h, "occupant.human", k) for k in names("occupant.human")}
        # (--set occupant.human.sex=female alone on a dummy's scenario)
        defaulted = kwargs["percentile"] is kwargs["stature"] is kwargs["mass"] is None
        if None not in (kwargs["percentile"], kwargs["stature"], kwargs["mass"]):
            # build's percentile fills only the stature or mass not given: with both, it was
            # dropped unsaid (percentile = 95 with a 1.60 m, 78 kg body ran that body)
            c.fail("occupant.human.percentile", "has no effect beside both stature and mass (it "
                   "gives the stature or mass that is not given)", "percentile alone or with one of "
                   "stature and mass, or stature and mass without it")
        if defaulted:
            kwargs["percentile"] = DEFAULT_PERCENTILE
        if kwargs["neck_activation"] == NO_NECK_MUSCLES:     # a PMHS, as build's None
            kwargs["neck_activation"] = None
        try:
            return build(**kwargs, pulse_start=pulse_start)
        except HumanParameterError as err:
            if err.parameter in h:   # a value given: its key (and the --set or --vary giving it)
                c.fail(f"occupant.human.{err.parameter}", err.problem, err.accepted)
            said = str(err).removeprefix("build: ")   # one missing, or the default percentile's
            if defaulted and err.parameter == "percentile":
                said = f"none of percentile, stature and mass given, so percentile {DEFAULT_PERCENTILE}: {said}"
            c.fail("occupant.human", said)

    def _front(self, c, veh, data):
        """``[vehicle] front``: the VehicleFront of a pedestrian scenario (B0 the road), with its
        speed (m/s) and start position (m); None without one."""
        if "front" not in veh:
            for key in ("speed_kmh", "front_position"):
                if key in veh:
                    # (a side_barrier run at another speed, --set vehicle.speed_kmh=50, was told
                    # to leave it out, the pulse's keys unnamed, usercheck11)
                    pulse = ("; an occupant's crash speed is its pulse's: pulse.speed_kmh (the vehicle's at "
                             "the start), pulse.delta_v_kmh (its change; a side impact's barrier speed "
                             "enters through it: occupant list --keys)") if key == "speed_kmh" else ""
                    c.fail(f"vehicle.{key}", "only a scenario with a vehicle front (a pedestrian "
                           "scenario) takes it", f"vehicle.front = a vehicle front, or leave it out{pulse}")
            return None
        front = self._named(c, veh, "front", "vehicle", load_vehicle_front)
        if "pulse" in data:
            c.fail("pulse", "a scenario with a vehicle front has B0 at rest on the road; the car's "
                   "motion is its speed_kmh", "no [pulse] table with vehicle.front")
        for key in ("speed_kmh", "front_position"):   # required with a front
            if key not in veh:
                c.fail(f"vehicle.{key}", "missing", "a number")
        self.speed = read(c, veh, "vehicle", "speed_kmh") * KMH
        self.front_position = read(c, veh, "vehicle", "front_position")
        return front

    def _precrash(self, c, veh, data, stored=None):
        """``[precrash]`` with ``[vehicle] model``: occupant.scenario.precrash; ``stored``: the
        pulse a run of it stored (read_run), its braking as run when a PrecrashPulse (then the
        model is a name on record, which this occupant need not ship). Without it, the braking
        runs the vehicle model's copies ``files`` gives (VEHICLE_MODEL, then its subsystems'
        sub_key: a run folder's, folder_scenario), else vehicles/<model>.toml."""
        from occupant.scenario.precrash import PrecrashPulse, model_files, read_precrash
        if self.front is not None or "pulse" in data:
            c.fail("precrash", "a pre-crash scenario makes its own crash pulse from the speed left "
                   "after braking", "no [pulse] table and no vehicle.front with [precrash]")
        if "model" not in veh:
            c.fail("vehicle.model", "missing", "a vehicle model of vehicles/ with [precrash]")
        from occupant.vehicle.files import vehicle_files
        stored = stored if isinstance(stored, PrecrashPulse) else None
        copies = []   # in sub_key order, up to the first missing
        while sub_key(len(copies)) in self._files:
            copies.append(self._files[sub_key(len(copies))])
        # a name on record: its files stored or copied, this occupant need not ship it
        named = stored is not None or bool(copies)
        model = c.string(veh, "model", "vehicle") if named else read(c, veh, "vehicle", "model")
        pulse = read_precrash(c, c.table(data, "precrash", ""), "precrash", model, self.t_end, stored,
                              copies)
        if stored is None:   # the files braking_run read: VEHICLE_MODEL, then its subsystems'
            for i, file in enumerate(vehicle_files(*model_files(model, copies))):
                self.inputs[sub_key(i)] = pathlib.Path(file).absolute()
        else:   # the braking stored: a run folder's copies of them carried on, not read
            self.inputs.update({k: pathlib.Path(v) for k, v in self._files.items()
                                if owner_key(k) == VEHICLE_MODEL})
        return pulse

    @staticmethod
    def _ellipsoids(c, occ, asm):
        """``[[occupant.ellipsoid]]``: contact ellipsoids added to the occupant's segments
        (e.g. a knee on the lower leg, so that a knee bolster's load passes through the knee into
        the femur and its load cell), centre in the segment frame (m)."""
        from occupant.modeling import Marker, ModelingError
        for i, e in enumerate(c.tables(occ, "ellipsoid", "occupant")):
            p = f"occupant.ellipsoid[{i}]"
            c.keys(e, names(p), p)
            name = read(c, e, p, "name")
            seg = read(c, e, p, "segment")
            if seg not in asm.parts:
                c.fail(f"{p}.segment", f"unknown segment {seg!r}", ", ".join(asm.parts))
            if asm.find(name) is not None or asm.find(f"{name}_frame") is not None:
                c.fail(f"{p}.name", f"{name!r} is taken by an element of the occupant", "a new name")
            try:
                asm.add(Marker(f"{name}_frame", seg, read(c, e, p, "center")))
                semi_axes = read(c, e, p, "semi_axes")
                if np.any(semi_axes <= 0):
                    c.fail(f"{p}.semi_axes", f"every value must be > 0, got {semi_axes.tolist()}",
                           "3 positive lengths in m")
                asm.add(Ellipsoid(name, f"{name}_frame", semi_axes))
            except ModelingError as err:
                c.fail(p, str(err))

    def _sensors(self, c, data, standard, belt):
        from occupant.sensors import (SensorError, SensorFileError, belt_sensors, default_sensors,
                                      load_sensors)
        out = []
        if standard:
            try:
                out.extend(default_sensors(self.model))
            except SensorError as err:
                c.fail("sensors.standard", str(err), "false, with [[sensor]] tables")
        if belt:   # the belts' load cells (none without a belt)
            try:
                out.extend(belt_sensors(self.model))
            except SensorError as err:
                c.fail("sensors.belt", str(err), "false, with [[sensor]] tables")
        try:
            out.extend(load_sensors({"sensor": data.get("sensor", [])}, self.model))
        except SensorFileError as err:
            c.fail(err.path, err.problem, err.accepted)
        given = [s.name for s in out]
        dup = sorted({n for n in given if given.count(n) > 1})
        if dup:
            c.fail("sensor", f"sensor name {dup[0]!r} is used twice (the standard set has it)",
                   "names not in the standard set: " + ", ".join(s.name for s in out[:6]))
        if not out:
            c.fail("sensors", "no sensors: nothing to measure", "standard = true, or [[sensor]] tables")
        return tuple(out)

    def run(self, progress=None):
        """Simulate and evaluate: an ``occupant.scenario.run.Run``."""
        from occupant.scenario.run import run_scenario
        return run_scenario(self, progress=progress)

    def __repr__(self):
        return f"Scenario('{self.name}', {self.file})"


def scenario_file(path_or_name):
    """The file of a shipped scenario's name or a .toml path, None for a run folder
    (occupant.scenario.run.folder_scenario reads it); an unknown name, a missing file or a
    folder that is no run folder raises ScenarioError."""
    from occupant.scenario.run import is_run_folder
    if is_run_folder(path_or_name):
        return None
    if pathlib.Path(path_or_name).is_dir() and str(path_or_name) not in available_scenarios():
        raise ScenarioError(path_or_name, "", "a folder with no results.h5: not a run folder",
                            "a shipped scenario's name, a .toml file, or a run folder of occupant "
                            "run (with its results.h5 and inputs/)")
    return resolve(path_or_name)


def checked_source(path_or_name, overrides=None):
    """(file, its TOML data or None for a run folder, {dotted key: value}) of what ``load``
    loads, the name or path resolved (``scenario_file``) and the overrides parsed and checked
    against the file: the half of ``load`` that builds nothing, so that a command can refuse a
    misspelt name or --set before a first run says it compiles (occupant.scenario.command)."""
    keys = overrides if isinstance(overrides, dict) else parse_overrides(overrides)
    keys = on_command_line(keys)
    path = scenario_file(path_or_name)
    if path is None:
        return path_or_name, None, keys
    raw = read_toml(path, ScenarioError)
    check_overrides(path, keys.items(), error=ScenarioError)
    return path, raw, keys


def load(path_or_name, overrides=None, before_compile=None):
    """The validated Scenario of a shipped name (``scenarios/<name>.toml``), a path or a run
    folder (occupant.scenario.run.folder_scenario: run again from its inputs/), with
    ``overrides`` ({dotted key: value} or ["KEY=VALUE", ...]) applied first; ``before_compile``:
    Scenario's (called once its tables are checked, before what compiles)."""
    from occupant.scenario.run import folder_scenario
    path, raw, keys = checked_source(path_or_name, overrides)
    if raw is None:
        return folder_scenario(path, keys, before_compile=before_compile)
    data = apply_overrides(raw, keys)
    try:
        scenario = Scenario(data, path, before_compile=before_compile)
    except ScenarioError as err:
        raise said_by_override(err, keys, path) from None
    scenario.overrides = dict(keys)
    scenario.notes[:0] = replaced_notes(raw, keys)
    if scenario.title and "title" not in keys:
        # the title names the occupant and the crash the file was written for: the report's
        # "represents", the run's first line and the ISO-MME test title say which ran (the run
        # folder's scenario.toml keeps it, so a run again from there says it once)
        title = scenario.title
        file_dummy = raw["occupant"].get("dummy")   # (the file's tables checked by Scenario)
        if ({"occupant.dummy", "occupant.human"} & replaced(raw, keys).keys()
                or scenario.data["occupant"].get("dummy", file_dummy) != file_dummy):
            # (a dummy for the file's dummy, --set occupant.dummy=hybrid3_95m, kept the title's
            # "Hybrid III 50th male": only a human for a dummy or back was said)
            title += f" (occupant replaced by --set: {scenario.dummy})"
        # (a sweep's variant at the file's own value, pulse.delta_v_kmh = 48.0 where the file
        # gives 48, was titled "crash changed from the file's", usercheck9)
        crash = [k if isinstance(v, (dict, list)) else f"{k} = {v}" for k, v in keys.items()
                 if k.split(".")[0] in CRASH_TABLES and _file_value(raw, k) != v]
        if crash:   # (pedestrian_40 run at 30 km/h was "Pedestrian struck laterally at 40 km/h")
            title += f" (crash changed from the file's: {', '.join(crash)})"
        scenario.title = scenario.data["title"] = title
    return scenario


def _file_value(data, key):
    """The value the scenario's parsed file ``data`` gives at the dotted ``key`` (None if none)."""
    for part in key.split("."):
        data = data.get(part) if isinstance(data, dict) else None
    return data


def said_by_override(err, keys, file):
    """The ScenarioError ``err`` of the scenario ``file`` loaded with the overrides ``keys``,
    said as the error of the --set whose value it is, when one is (else ``err``)."""
    for key in keys:
        # (an array of tables given by --set, vehicle.intrusion=[{...}], blamed the file for its
        # item's bad value, "side_barrier.toml: vehicle.intrusion[0].surfaces", usercheck11)
        if err.path == key or err.path.startswith((f"{key}.", f"{key}[")) or key.startswith(f"{err.path}."):
            return ScenarioError(f"{file} (--set {key})", err.path, err.problem, err.accepted)
    for key in keys:
        # a --set of a table's shape or kind that makes a key the file gives beside it unknown
        # (pulse.shape=csv beside the file's delta_v_kmh) blamed the file alone
        table, _, name = key.rpartition(".")
        if err.problem == "unknown key" and name in ("shape", "kind") and err.path.rpartition(".")[0] == table:
            return ScenarioError(
                f"{file} (--set {key})", err.path,
                f"unknown key beside {key} = {keys[key]!r} (the file's, kept: {key} alone was "
                "overridden)", f"{err.accepted}; or [{table}] given whole: --set '{table}={{...}}'")
    return err


# a characteristic's properties besides its loading curve (stiffness and exponent, or table)
CHARACTERISTIC_EXTRAS = ("unloading_table", "absorption", "damping", "friction", "friction_speed",
                         "recovers", "membrane")


def replaced_characteristic_notes(own, interior, known, interior_name):
    """Notes for the scenario's ``[contact_characteristic.<name>]`` tables (``own``: as parsed)
    that replace the interior's characteristic of that name (``interior``; ``known``: as read)
    and drop its properties besides the loading curve: a table replaces a characteristic whole,
    so ``--set contact_characteristic.knee_bolster.stiffness=3e5`` made the bolster linear and
    also took its absorption 0.8 and friction 0.7 to none, unsaid (usercheck8)."""
    notes = []
    for name in own:
        if name not in interior:
            continue
        old, new = interior[name], known[name]
        lost = [f"{k} {_shown(getattr(old, k))}" for k in CHARACTERISTIC_EXTRAS
                if k not in own[name] and not _same(getattr(old, k), getattr(new, k))]
        if lost:
            notes.append(f"contact_characteristic.{name} replaces the vehicle's characteristic of "
                         f"that name ({interior_name}) whole: its {', '.join(lost)} not kept (give "
                         f"them in the scenario's table to keep them)")
    return notes


def _same(a, b):
    if a is None or b is None:
        return a is b
    return np.array_equal(np.asarray(a, dtype=float), np.asarray(b, dtype=float))


def _shown(value):
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return f"{value:g}"
    return "(its table)"
