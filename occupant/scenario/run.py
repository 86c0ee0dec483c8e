"""Running a scenario and writing its run folder (issue 13 sections 2, 3, 6).

``Run`` is the record a run hands on (the report writer ``occupant.report.write(run, folder)``
reads exactly these fields). ``write_run(run, folder)`` writes::

    folder/results.h5      occupant.io.results_h5 (states, poses, outputs, energy, channels,
                           status) with the run's record (scenario as run, criteria, notes,
                           the pulse as run, a pre-crash scenario's braking as run), from
                           which ``read_run(folder)`` makes the Run again for a new report
    folder/scenario.toml   the scenario as run (file plus overrides)
    folder/inputs/         copies of every file the run read, named <key>-<file name>:
                           scenario-<its file>, dummy-, posture-, interior-, front- (a shipped
                           name's file too), the bases a dummy variant or an interior names
                           (dummy_base-, interior_base-, interior_base2- ...), the package's own
                           data it read (body_contacts-, the occupant's own contact pairs;
                           reference_dummy-, the dummy the lap belt's pelvis is drawn for),
                           pulse- (a CSV file, or an ISO-MME test's folder copied whole), a
                           pre-crash scenario's vehicle model (vehicle_model-, vehicle_model_sub1-
                           ... its subsystems) and a parametric human's data (human-data/, its
                           tables, human_stops-, the dummy its joint stops scale); the record
                           names them relative to the folder and read_run reads them (not the
                           files where they were), so that the folder, moved to another machine,
                           stands on its own (57-124 kB a shipped scenario), and ``occupant run RUN_DIR``
                           runs it again from them (folder_scenario: a parametric human
                           built from its tables' copies, a pre-crash braking run again from
                           the vehicle model's, so that an edit of a copy changes the run).
                           The pulse as run, a pre-crash braking too, is stored in results.h5
                           besides: read_run builds from it, not from the pulse's copy or the
                           vehicle model's
    folder/isomme/         ISO-MME test folder (``isomme_channels``): every sensor channel and
                           the vehicle's acceleration (raw, filter class 0); its test number,
                           which names its files, is the folder's name (``folder_test_number``), so
                           that runs written to two folders collect into one database
    folder/criteria.csv    criterion,value,unit,limit,pass (pass: true, false, or empty when
                           the regulation sets no limit or the run is not judged); written
                           after the files above, so that it marks a finished run
    folder/report.html     occupant.report, when that package is installed
"""
import csv
import importlib.util
import math
import os
import pathlib
import time
from dataclasses import dataclass, field


from occupant.scenario.criteria import criteria_rows
from occupant.scenario.defects import joint_failures
from occupant.scenario.toml_write import dumps


@dataclass
class Run:
    name: str                   # scenario name
    title: str                  # the test it represents
    scenario: dict              # the scenario as resolved (file plus overrides)
    model: object               # compiled Model; model.source is the Assembly with its geometry
    results: object             # occupant Results; sensor channels in results.channels
    criteria: list              # dict(criterion, value, unit, limit, pass), see scenario.criteria
    regulation: str             # title of the regulation judged against ("" when none)
    notes: list = field(default_factory=list)   # what the run does not represent
    judged: bool = True         # False: criteria are values only, never pass/fail
    pulse: object = None        # occupant.scenario.pulse.Pulse
    wall_time: float = 0.0      # s, simulation and criteria
    initial_state: object = None  # q0 (nq,)
    interior: object = None     # occupant.scenario.interior.Interior (its surfaces, hinges)
    test_object: str = "vehicle"   # what carries it (B0): its interior's test_object, vehicle or sled
    inputs: dict = field(default_factory=dict)   # {key: Path} the files it was loaded from:
    #                             "scenario" and Scenario.inputs (dummy, posture, interior, ...)
    defect_lines: list = None   # its defects' lines, once shown (defects.run_defect_lines)
    joint_failures: list = None  # its human joints' predicted injuries (defects.joint_failures)

    @property
    def ok(self):
        """True when the run finished and every judged criterion passes."""
        return self.results.status == "finished" and all(r["pass"] is not False for r in self.criteria)


def excursion_direction(scenario):
    """The way the occupant is thrown, in the vehicle frame: the pulse's direction (forward in
    a frontal test, rearward in a rear one, towards the struck side in a side one); None for a
    pedestrian, whose B0 is the road."""
    if getattr(scenario, "front", None) is not None:
        return None
    return tuple(getattr(getattr(scenario, "pulse", None), "direction", (1.0, 0.0, 0.0)))


def run_scenario(scenario, progress=None):
    """Simulate a loaded Scenario, evaluate its sensors and criteria: a Run."""
    from occupant.sensors import evaluate
    from occupant.simulate import initial_states, simulate

    start = time.perf_counter()
    q0, settled = scenario.q0, getattr(scenario, "settled_z", None)
    if getattr(scenario, "settle", 0.0) and not getattr(scenario, "settled", False):
        # settled into the seat (unless the loader did, to place the head restraint); belts
        # fitted there by simulate
        from occupant.scenario.settle import settle_scenario
        q0, info = settle_scenario(scenario.file, scenario.model, q0, scenario.settle,
                                   getattr(scenario, "settle_belted", False))
        settled = info["z"]
    # the muscles go on as the settling left them (their posture controllers' holding effort)
    z0 = None if settled is None else initial_states(scenario.model, q0, settled)
    res = simulate(scenario.model, scenario.t_end, dt=scenario.dt, q0=q0, z0=z0,
                   v0=getattr(scenario, "v0", None),
                   integrator=scenario.integrator, base_motion=scenario.pulse.base_motion(),
                   output_dt=scenario.output_dt, progress=progress)
    res.provenance.update(provenance(scenario))
    notes = list(scenario.notes)
    judged = scenario.judged
    stopped = res.status != "finished"
    if stopped:
        judged = False
        notes.append(f"the run stopped early ({res.status}: {res.message}); no criterion is given "
                     f"(its states had stopped being physical), the channels of the "
                     f"{res.t[-1] * 1e3:.1f} ms computed are in results.h5 and isomme/")
    rows, failures = [], None
    if len(res.t) >= 2:
        res.channels = evaluate(scenario.model, res, scenario.sensors, rate=1.0 / scenario.output_dt,
                                position=scenario.position_code)
        rows = criteria_rows(res.channels, scenario.criteria_dummy, scenario.protocol, judged,
                             scenario.not_judged, show=getattr(scenario, "show", ()), results=res,
                             model=scenario.model, reference=getattr(scenario, "reference", None),
                             direction=excursion_direction(scenario))
        if getattr(scenario, "front", None) is not None:   # a pedestrian: HIT, WAD, head speed
            from occupant.scenario.pedestrian import pedestrian_rows
            extra, extra_notes = pedestrian_rows(scenario, res)
            rows.extend(extra)
            notes.extend(extra_notes)
        # a human joint past its range end with more than its failure moment: an injury the
        # model's intact joint does not carry out (occupant.scenario.defects.joint_failures)
        failures = joint_failures(scenario.model, res)
        notes.extend(f"predicted injury: {f.text()}" for f in failures)
        if stopped:   # the names and limits stay, so that tables keep their rows; no value is claimed
            rows = [{**r, "value": None, "pass": None} for r in rows]
    interior = getattr(scenario, "interior", None)
    return Run(name=scenario.name, title=scenario.title, scenario=scenario.data, model=scenario.model,
               results=res, criteria=rows,
               regulation=scenario.protocol.title if scenario.protocol else "",
               notes=notes, judged=judged, pulse=scenario.pulse,
               wall_time=time.perf_counter() - start, initial_state=q0,
               interior=interior, test_object=getattr(interior, "test_object", "vehicle"),
               inputs=_inputs(scenario), joint_failures=failures)


def _inputs(scenario):
    """Run.inputs: the scenario's file and the files it read (Scenario.inputs)."""
    return {"scenario": pathlib.Path(scenario.file).absolute(), **scenario.inputs}


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v) if math.isfinite(v) else "nan"
    return str(v)


def write_criteria(rows, path):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        # the public columns; a "note" column (why a criterion is not computable: its value is
        # empty) follows only when a row has one
        note = any(r.get("note") for r in rows)
        w.writerow(["criterion", "value", "unit", "limit", "pass"] + ["note"] * note)
        for r in rows:
            w.writerow([_cell(r[k]) for k in ("criterion", "value", "unit", "limit", "pass")]
                       + [_cell(r.get("note"))] * note)


def folder_test_number(folder):
    """The ISO-MME test number (the stem of the isomme/ folder's files and its "Laboratory test
    ref. number") of a run written to ``folder``: the folder's name, each character other than a
    letter, digit, '_' or '-' made '_' (occupant.io.isomme accepts these). Two runs of a
    scenario written to two folders (``--out ll3000``, ``--out ll6000``; a sweep's variants:
    occupant.scenario.sweep) so get distinct numbers."""
    name = pathlib.Path(folder).absolute().name
    return "".join(ch if ch.isascii() and (ch.isalnum() or ch in "_-") else "_" for ch in name) or "OCCUPANT"


def on_the_road(run):
    """True when the run's B0 is the road, not a vehicle: a pedestrian scenario, whose
    [vehicle] table names a front (occupant/scenario/pedestrian.py)."""
    vehicle = (getattr(run, "scenario", None) or {}).get("vehicle", {})
    return isinstance(vehicle, dict) and "front" in vehicle


def isomme_channels(run):
    """The channels of a run's ISO-MME export: its sensor channels, then the vehicle's (or the
    sled's: its interior's test_object) acceleration and velocity on their grid
    (occupant.sensors.vehicle; none in a pedestrian run, whose B0 is the road, not a vehicle)."""
    from occupant.simulate import model_gravity
    from occupant.sensors.vehicle import vehicle_channels
    channels = list(run.results.channels)
    if channels and not on_the_road(run):
        channels += vehicle_channels(run.results, channels[0].t, model_gravity(run.model), run.test_object)
    return channels


def make_folder(folder, option="--out"):
    """``folder`` made with its parents, as a Path; one that cannot be (a file there, a parent
    that is a file or not writable) is a ScenarioError naming ``option`` and the folder. Called
    before a run, so that a mistyped --out ends the command at once, not after the simulation."""
    from occupant.scenario.load import ScenarioError
    folder = pathlib.Path(folder)
    accepted = "a folder to write into, new or existing"
    if folder.exists() and not folder.is_dir():
        raise ScenarioError(option, str(folder), "a file, not a folder", accepted)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ScenarioError(option, str(folder), f"cannot make this folder: {err.strerror}", accepted) from None
    # an existing folder this user cannot write into failed only when the run wrote its first file
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ScenarioError(option, str(folder), "cannot write into this folder: permission denied",
                            "a folder this user can write into, new or existing")
    return folder


def write_run(run, folder, out=None, ahead=None, test_number=None):
    """Write the run folder (module docstring); ``out`` receives progress lines; ``ahead``, an
    occupant.scenario.report_ahead.ReportAhead, writes the report while this process writes the
    other files (else, or when it fails, this process writes it); ``test_number``: the ISO-MME
    test number (default: the folder's, ``folder_test_number``). Returns the folder as a Path."""
    folder = make_folder(folder)
    try:
        return _write_folder(run, folder, out, ahead, test_number)
    except OSError as err:
        if err.errno is None:
            raise
        # a write that failed part way (a full disk) names no file (the folder is named then),
        # and the folder holds some of the run's files, a report cut short among them: said
        raise OSError(err.errno, f"{err.strerror}: the run folder was not written in full (accepted: "
                      f"a folder that can be written, on a disk with room for the run)",
                      err.filename or str(folder)) from None
    except KeyboardInterrupt:   # Ctrl-C while writing: the folder is named, and what it is
        raise KeyboardInterrupt(f"{folder}: the run folder was not written in full") from None


def _write_folder(run, folder, out, ahead, test_number):
    """``write_run``'s writing, into the folder made."""
    from occupant.io import isomme
    from occupant.io.results_h5 import write_results

    outputs = run.scenario.get("outputs", {})
    number = test_number or folder_test_number(folder)

    started = []

    def files():
        started.append(True)
        record = _record(run, copy_inputs(run.inputs, folder))
        if outputs.get("results", True):   # (outputs.results = false was read and not heeded)
            write_results(run.results, folder / "results.h5", record=record,
                          record_arrays=_pulse_arrays(run.pulse))
        (folder / "scenario.toml").write_text(
            f"# the scenario as run (file plus overrides)\n{dumps(run.scenario)}", encoding="utf-8")
        if outputs.get("isomme", True) and run.results.channels:
            isomme.write(isomme_channels(run), folder / "isomme", number,
                         title=run.title, test_type="Simulation")
        write_criteria(run.criteria, folder / "criteria.csv")   # last: it marks a finished run (sweeps)

    if outputs.get("report", True) and importlib.util.find_spec("occupant.report") is not None:
        if ahead is not None and ahead.send(run, folder):
            try:
                files()
            finally:
                written = ahead.wait()
            if written:
                return folder
        from occupant import report
        try:
            # the files while its second process draws (unless written already, above)
            report.write(run, folder, meanwhile=None if started else files)
        finally:   # a report that failed before it wrote them leaves the results written
            if not started:
                files()
        return folder
    files()
    if outputs.get("report", True) and out:
        out("  report: not written (the occupant.report package is not part of this version); "
            "results.h5, criteria.csv and isomme/ hold the results")
    return folder



RECORD_FIELDS = ("name", "title", "scenario", "criteria", "regulation", "notes", "judged", "wall_time")


INPUTS = "inputs"   # the folder of a run folder that holds the files it was loaded from


def copy_inputs(inputs, folder):
    """The files of ``inputs`` (Run.inputs) copied into ``folder``/inputs/ as <key>-<file name>:
    {key: the copy's path relative to the folder, with /}. A file that is not there (a run
    read again from a folder of an older version) is left out; nothing else in inputs/ is
    touched (a copy an earlier run into the same folder left under another name stays, not
    named by this run's record)."""
    import shutil
    out = {}
    for key, src in inputs.items():
        src = pathlib.Path(src)
        if not src.exists():
            continue
        # a copy in a run folder's inputs/ (a Run read from a folder, written again) keeps its name
        name = src.name.removeprefix(f"{key}-") if src.parent.name == INPUTS else src.name
        target = folder / INPUTS / f"{key}-{name}"
        target.parent.mkdir(exist_ok=True)
        if not (target.exists() and target.samefile(src)):
            if src.is_dir():   # an ISO-MME test folder: copied whole, in place of an earlier copy
                shutil.rmtree(target, ignore_errors=True)
                shutil.copytree(src, target)
            else:
                shutil.copyfile(src, target)
        out[key] = f"{INPUTS}/{target.name}"
    return out


def provenance(scenario):
    """What a run of ``scenario`` (a Scenario) was run from, for results.h5's /provenance
    (occupant.io.results_h5 documents the keys): its name, its file, the overrides applied to
    it, and the pulse it ran. ``scenario_file`` alone named the shipped file of a run whose
    pulse --set replaced (usercheck12)."""
    import json
    pulse = getattr(scenario, "pulse", None)
    file = getattr(pulse, "file", None)
    return {"scenario": scenario.name, "scenario_file": scenario.file,
            "overrides": json.dumps(getattr(scenario, "overrides", {}) or {}, default=str),
            "pulse": "" if pulse is None else pulse.source,
            "pulse_file": "" if file is None else str(pathlib.Path(file).absolute())}


def _record(run, inputs):
    """What a Run adds to its Results, as JSON values (stored in results.h5 /run); ``inputs``:
    {key: path relative to the folder} of the copies of the files it was loaded from
    (copy_inputs)."""
    import json

    from occupant.scenario.load import anchored
    rec = {k: getattr(run, k) for k in RECORD_FIELDS}
    # its files (dummy, posture, interior, pulse...) by absolute path when given by a relative
    # one, read from the scenario file's folder
    rec["scenario"] = json.loads(json.dumps(anchored(rec["scenario"], run.inputs.get("scenario")),
                                            default=str))
    rec["scenario_file"] = str(run.results.provenance.get("scenario_file", ""))
    rec["inputs"] = inputs
    rec["initial_state"] = None if run.initial_state is None else [float(x) for x in run.initial_state]
    if run.pulse is not None:   # its arrays beside (_pulse_arrays)
        rec["pulse"] = run.pulse.record()[0]
    return rec


PULSE = "pulse_"   # the prefix of the pulse's arrays in results.h5 /run (pulse_t, pulse_a, ...)


def _pulse_arrays(pulse):
    """The pulse as run (its table after scale, start and padding; a pre-crash pulse's braking
    as run too: occupant.scenario.precrash), stored in results.h5 beside the record: read_run
    takes it instead of reading the scenario's pulse file again, which may have moved, or
    running the braking again (a run folder stands on its own)."""
    return {} if pulse is None else {f"{PULSE}{k}": v for k, v in pulse.record()[1].items()}


def _read_pulse(rec, arrays):
    """The Pulse a record stored (``_record``, ``_pulse_arrays``), or None (a results.h5 written
    before it was stored: the scenario's pulse file is read again, a pre-crash scenario's
    braking run again)."""
    from occupant.scenario.precrash import PrecrashPulse
    from occupant.scenario.pulse import Pulse
    p = rec.get("pulse")
    if p is None:
        return None
    kind = PrecrashPulse if p.get("kind") == PrecrashPulse.KIND else Pulse
    return kind.stored(p, {k.removeprefix(PULSE): v for k, v in arrays.items() if k.startswith(PULSE)})


def _read_folder(folder):
    """(Results, its run record, {key: Path} of the folder's copies of its inputs, the file the
    scenario is read as from) of a run folder's results.h5 (read_run, folder_scenario)."""
    from occupant.io.results_h5 import read_results
    from occupant.scenario.load import ScenarioError
    folder = pathlib.Path(folder)
    path = folder / "results.h5"
    if not path.is_file():
        variants = sweep_variants(folder)
        if variants:   # (was "no results.h5 in this folder": compare named a sweep's, report did not)
            raise ScenarioError(str(folder), "", f"a sweep's folder ({len(variants)} variants), not a run's: "
                                "each variant is a run folder", f"a variant's folder, {shown(variants)}")
        problem = ("no results.h5 in this folder" if folder.is_dir() else
                   "a file, not a folder" if folder.exists() else "no such folder")
        raise ScenarioError(str(folder), "", problem, "a run folder of occupant run or sweep")
    try:
        res = read_results(path)
    except OSError as err:   # h5py's message names neither the file nor what it is
        raise ScenarioError(str(path), "", f"cannot read as HDF5 ({err})",
                            "the results.h5 occupant run wrote") from None
    rec = res.record
    if rec is None:
        raise ScenarioError(str(path), "run", "the file has no run record (written by an older version "
                            "or by occupant.io directly)", "a results.h5 written by occupant run")
    copies = {k: folder / v for k, v in rec.get("inputs", {}).items() if (folder / v).exists()}
    file = copies.pop("scenario", None) or rec["scenario_file"] or path
    return res, rec, copies, file


def sweep_variants(folder):
    """The variants' run folders of a sweep's folder (its sweep.json; v0001, v0002 ...), in
    order; [] for any other folder."""
    folder = pathlib.Path(folder)
    return sorted(folder.glob("v[0-9][0-9][0-9][0-9]")) if (folder / "sweep.json").is_file() else []


def shown(folders):
    """The first two of ``folders`` and "..." for more: an example of what a message accepts."""
    return " ".join(str(f) for f in folders[:2]) + (" ..." if len(folders) > 2 else "")


def is_run_folder(path):
    """True when ``path`` is a folder with a results.h5 (a run folder: folder_scenario)."""
    return pathlib.Path(path).is_dir() and (pathlib.Path(path) / "results.h5").is_file()


def folder_scenario(folder, overrides=None, before_compile=None):
    """The Scenario of a run folder, to run again (``occupant run RUN_DIR``): the scenario as
    run (its record: file plus overrides, ``overrides`` ({dotted key: value}) applied on top)
    read from the folder's copies of every file it read (inputs/: the dummy, posture,
    interior, the package's own data, a parametric human's tables, the CSV pulse or ISO-MME
    test, a pre-crash scenario's vehicle model, its braking run again), settled again. A pulse
    with no copy (a table's shape; a braking whose folder has no copy of its vehicle model) is
    the one stored in results.h5 unless ``overrides`` are given (then made again from the
    table: a braking from the installed vehicle model); ``before_compile``: Scenario's."""
    from occupant.scenario.load import VEHICLE_MODEL, Scenario, ScenarioError, said_by_override
    from occupant.scenario.overrides import apply_overrides, replaced_notes
    from occupant.scenario.overrides import check as check_overrides
    res, rec, copies, file = _read_folder(folder)
    keys = dict(overrides or {})
    check_overrides(file, keys.items(), error=ScenarioError)
    # the pulse made again from its copies (a CSV file or ISO-MME test; a pre-crash braking run
    # from the vehicle model's), or from the table's shape when overrides are given
    made = keys or "pulse" in copies or VEHICLE_MODEL in copies
    pulse = None if made else _read_pulse(rec, res.record_arrays)
    try:
        scenario = Scenario(apply_overrides(rec["scenario"], keys), file, pulse=pulse,
                            files=_still_read(copies, keys), before_compile=before_compile)
    except ScenarioError as err:
        raise said_by_override(err, keys, file) from None
    scenario.notes[:0] = replaced_notes(rec["scenario"], keys)
    # its file's data is the folder's record of the run (file plus the first run's overrides):
    # those overrides, then these on top (a folder written before they were recorded: these)
    import json
    try:
        first = json.loads(res.provenance.get("overrides", "{}"))
    except ValueError:
        first = {}
    scenario.overrides = {**(first if isinstance(first, dict) else {}), **keys}
    return scenario


def _still_read(copies, keys):
    """The ``copies`` a run again with the overrides ``keys`` reads: not those of a file an
    override names anew (--set occupant.dummy=... leaves out the dummy's copy and its bases',
    pulse.file the pulse's, vehicle.model the vehicle model's)."""
    from occupant.scenario.load import NAMED_FILES, VEHICLE_MODEL, owner_key
    named = {f"{t}.{k}": k for t, k, _, _ in NAMED_FILES}
    named.update({"pulse.file": "pulse", "vehicle.model": VEHICLE_MODEL})
    dropped = {named[k] for k in keys if k in named}
    return {k: v for k, v in copies.items() if owner_key(k) not in dropped}


def read_run(folder):
    """The Run of a run folder, from its results.h5 (no simulation): the results as stored and
    the model built again from the scenario as run (file plus overrides), with the pulse as
    run (stored there: the scenario's own file, and a CSV pulse beside it, need not exist; a
    pre-crash scenario's braking is not run again, its vehicle model need not be installed),
    from the folder's copies of the files it was loaded from (inputs/: the dummy, posture,
    interior... where they were need not exist). A folder written before it had copies (or
    one whose copy is gone) reads the files its record names, as before."""
    import numpy as np

    from occupant.scenario.load import Scenario
    res, rec, copies, file = _read_folder(folder)
    start = None if rec["initial_state"] is None else np.array(rec["initial_state"])
    sc = Scenario(rec["scenario"], file, start=start, pulse=_read_pulse(rec, res.record_arrays),
                  files={k: v for k, v in copies.items() if k != "pulse"})   # the pulse as run is stored
    results = pathlib.Path(folder) / "results.h5"
    # the copies it has, read or not (the pulse; the vehicle model of a braking stored)
    inputs = {**(_inputs(sc) if file != results else sc.inputs), **copies}
    return Run(name=rec["name"], title=rec["title"], scenario=rec["scenario"], model=sc.model, results=res,
               criteria=rec["criteria"], regulation=rec["regulation"], notes=rec["notes"],
               judged=rec["judged"], pulse=sc.pulse, wall_time=rec["wall_time"],
               initial_state=start,
               interior=sc.interior, test_object=sc.interior.test_object, inputs=inputs)
