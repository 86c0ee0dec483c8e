"""A run folder carries every file its run read (occupant.scenario.run.copy_inputs): its
scenario file, dummy, posture, interior, pulse file or ISO-MME test and the package's own data
it read copied into DIR/inputs/, named by the record relative to the folder and read by
``read_run``, ``occupant report DIR`` and ``occupant run DIR`` (run again), so that the folder,
moved to another machine, needs none of them where they were."""
import shutil

import numpy as np
import pytest

from occupant.cli import main
from occupant.io.toml_files import read_toml, resolve_shipped
from occupant.scenario import load, write_run
from occupant.scenario import run as run_module
from occupant.scenario.load import resolve
from occupant.scenario.run import read_run
from occupant.scenario.toml_write import dumps

SHORT = {"solver.t_end": 0.002, "occupant.settle": 0.0, "outputs.report": False}


def _sources(folder):
    """Copies of fmvss208_sled_48_belted's files in ``folder``: the scenario (its pulse a CSV
    beside it, the half-sine it gives sampled), its posture and its interior by path."""
    folder.mkdir()
    data = read_toml(resolve("fmvss208_sled_48_belted"))
    t = np.linspace(0.0, 0.1, 101)
    rows = "\n".join(f"{x:.6g},{-21.4 * np.sin(np.pi * x / 0.1):.6g}" for x in t)
    (folder / "pulse.csv").write_text(f"time [s],acceleration [g]\n{rows}\n", encoding="utf-8")
    data["pulse"] = {"shape": "csv", "file": "pulse.csv", "speed_kmh": 48.0}
    shutil.copyfile(resolve_shipped("passenger_seated", "dummies/postures", "posture"), folder / "seat.toml")
    shutil.copyfile(resolve_shipped("sled_buck_passenger", "vehicles", "interior"), folder / "buck.toml")
    data["occupant"]["posture"] = str(folder / "seat.toml")
    data["vehicle"]["interior"] = str(folder / "buck.toml")
    (folder / "sled.toml").write_text(dumps(data), encoding="utf-8")
    return folder / "sled.toml"


def _same_build(again, run):
    """The Run read from a folder builds the model, interior and pulse the run had."""
    assert again.model.nb == run.model.nb and again.model.nv == run.model.nv
    np.testing.assert_array_equal(again.model.body_mass, run.model.body_mass)
    assert again.model.contact_names == run.model.contact_names and len(run.model.contact_names) > 0
    assert again.interior.name == run.interior.name
    assert [s.name for s in again.interior.surfaces] == [s.name for s in run.interior.surfaces]
    np.testing.assert_array_equal(again.initial_state, run.initial_state)
    assert np.array_equal(again.pulse.t, run.pulse.t) and np.array_equal(again.pulse.a, run.pulse.a)
    np.testing.assert_array_equal(again.results.q, run.results.q)


def test_identity_run_folder_moved_reads_its_copies_with_its_files_gone(tmp_path, monkeypatch, capsys):
    """Run, the folder moved, the scenario, posture, interior and pulse files deleted and the
    working directory changed: read_run and ``occupant report DIR`` build the same bodies,
    contact pairs, interior and pulse from DIR/inputs/. Before (runsolid2), the record named
    the files where they were: "vehicle.interior: no such file ..."."""
    scenario = _sources(tmp_path / "src")
    run = load(str(scenario), overrides=SHORT).run()
    folder = write_run(run, tmp_path / "run")
    copies = read_run(folder).inputs
    assert sorted(copies) == ["body_contacts", "dummy", "interior", "posture", "pulse",
                              "reference_dummy", "scenario"]
    for key, name in (("scenario", "sled.toml"), ("posture", "seat.toml"), ("interior", "buck.toml"),
                      ("pulse", "pulse.csv")):
        assert (folder / "inputs" / f"{key}-{name}").read_bytes() == (tmp_path / "src" / name).read_bytes()
    moved = tmp_path / "elsewhere" / "moved"
    moved.parent.mkdir()
    shutil.move(folder, moved)
    shutil.rmtree(tmp_path / "src")
    monkeypatch.chdir(moved.parent)
    again = read_run(moved)
    _same_build(again, run)
    assert again.scenario == run.scenario   # the scenario as given (its paths where they were)
    assert all(p.parent == moved / "inputs" for p in again.inputs.values())
    assert main(["report", str(moved), "--html"]) == 0
    assert (moved / "report.html").is_file() and "occupant report:" in capsys.readouterr().out


def test_identity_run_folder_carries_an_interiors_bases(tmp_path, monkeypatch):
    """An interior that names its base by a relative path (read from the interior's folder, as
    the loader reads it), whose base names the shipped sled buck: both bases are copied
    (interior_base-, interior_base2-) and read from the copies, the sources gone and the working
    directory another."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "buck.toml").write_text('kind = "interior"\nname = "buck"\nbase = "middle.toml"\n', encoding="utf-8")
    (src / "middle.toml").write_text('kind = "interior"\nname = "middle"\nbase = "sled_buck_passenger"\n',
                                     encoding="utf-8")
    monkeypatch.chdir(src)
    run = load("fmvss208_sled_48_belted", overrides={**SHORT, "vehicle.interior": "buck.toml"}).run()
    folder = write_run(run, tmp_path / "run")
    names = sorted(p.name for p in (folder / "inputs").iterdir())
    assert names == ["body_contacts-body_contacts.toml", "dummy-hybrid3_50m.toml", "interior-buck.toml",
                     "interior_base-middle.toml", "interior_base2-sled_buck_passenger.toml",
                     "posture-passenger_seated.toml", "reference_dummy-hybrid3_50m.toml",
                     "scenario-fmvss208_sled_48_belted.toml"]
    shutil.rmtree(src)
    monkeypatch.chdir(tmp_path)
    again = read_run(folder)
    _same_build(again, run)
    assert again.interior.name == "buck" and again.inputs["interior_base2"].parent == folder / "inputs"


def test_identity_run_folder_reads_its_copy_of_a_shipped_dummy(tmp_path):
    """A shipped name's file is copied too (dummy-hybrid3_50m.toml) and the folder reads its
    copy, not the installed file: a copy whose head mass is changed builds a model with that
    mass (the same occupant version reads the same model; another reads the run's)."""
    run = load("fmvss208_sled_48_belted", overrides=SHORT).run()
    folder = write_run(run, tmp_path / "run")
    copy = folder / "inputs" / "dummy-hybrid3_50m.toml"
    assert copy.read_bytes() == resolve_shipped("hybrid3_50m", "dummies", "dummy").read_bytes()
    _same_build(read_run(folder), run)
    text = copy.read_text(encoding="utf-8")
    line = 'name = "head"\nparent = "neck"\nmass = 4.5651'
    assert text.count(line) == 1
    copy.write_text(text.replace(line, line.replace("4.5651", "9.1302")), encoding="utf-8")
    again = read_run(folder)
    i = run.model.body("head")
    assert run.model.body_mass[i] == 4.5651 and again.model.body_mass[i] == 9.1302
    assert again.scenario["occupant"]["dummy"] == "hybrid3_50m"   # still judged as that dummy


def test_identity_run_folder_without_copies_reads_as_before(tmp_path, monkeypatch):
    """A folder written before the copies (its record with no "inputs", no inputs/ folder)
    reads the files its record names, as before; so does a folder whose inputs/ is gone."""
    run = load("fmvss208_sled_48_belted", overrides=SHORT).run()
    record = run_module._record

    def old_record(run, inputs):
        rec = record(run, inputs)
        del rec["inputs"]
        return rec
    monkeypatch.setattr(run_module, "_record", old_record)
    monkeypatch.setattr(run_module, "copy_inputs", lambda inputs, folder: {})
    old = write_run(run, tmp_path / "old")
    assert not (old / "inputs").exists()
    again = read_run(old)
    _same_build(again, run)
    assert again.inputs["dummy"] == resolve_shipped("hybrid3_50m", "dummies", "dummy").absolute()
    monkeypatch.undo()
    folder = write_run(run, tmp_path / "new")
    shutil.rmtree(folder / "inputs")
    _same_build(read_run(folder), run)


def test_identity_run_folder_record_names_the_files_a_scenario_names_relative_to_its_folder(
        tmp_path, monkeypatch):
    """(relpaths) A scenario naming its posture and interior relative to its own folder, run
    from another working directory: the record names them by absolute path in that folder (the
    loader's rule, occupant.scenario.load.anchored), so that a folder without copies (inputs/
    gone) read from a third directory reads the same files; before, the record anchored them
    to the working directory of the run."""
    src = _sources(tmp_path / "src")
    data = read_toml(src)
    data["occupant"]["posture"], data["vehicle"]["interior"] = "seat.toml", "buck.toml"
    src.write_text(dumps(data), encoding="utf-8")
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    run = load(str(src), overrides=SHORT).run()
    folder = write_run(run, tmp_path / "run")
    record = read_run(folder).scenario
    assert (record["occupant"]["posture"], record["vehicle"]["interior"]) == (
        str(tmp_path / "src" / "seat.toml"), str(tmp_path / "src" / "buck.toml"))
    shutil.rmtree(folder / "inputs")
    (tmp_path / "third").mkdir()
    monkeypatch.chdir(tmp_path / "third")
    again = read_run(folder)
    _same_build(again, run)
    assert again.inputs["interior"] == tmp_path / "src" / "buck.toml"


def test_reference_run_folder_written_again_into_itself(tmp_path):
    """A run written twice into the same folder, and a Run read from a folder written back
    into it: its copies are its own inputs (not copied onto themselves), the record the same."""
    run = load("fmvss208_sled_48_belted", overrides=SHORT).run()
    folder = write_run(run, tmp_path / "run")
    before = {p.name: p.read_bytes() for p in (folder / "inputs").iterdir()}
    write_run(read_run(folder), folder)
    assert {p.name: p.read_bytes() for p in (folder / "inputs").iterdir()} == before
    assert {p.name for p in read_run(folder).inputs.values()} == set(before)


# aeb_precrash_frontal cut short: 5 ms of braking, a 2 ms crash (the vehicle model settles
# 0.1 s first, occupant.scenario.precrash.SETTLE)
PRECRASH = {"precrash.duration": 0.005, "precrash.crash_duration": 0.002, "solver.t_end": 0.008,
            "occupant.settle": 0.0, "outputs.report": False, "outputs.isomme": False}


def _same_motion(again, run):
    """The two runs' B0 motions are the same, bit for bit, in braking, crash and after."""
    a, b = again.pulse.base_motion(), run.pulse.base_motion()
    for s in np.linspace(0.0, 0.012, 25):
        for f in ("position", "velocity", "acceleration", "rotation", "angular_velocity",
                  "angular_acceleration"):
            assert np.array_equal(getattr(a, f)(s), getattr(b, f)(s)), (f, s)


def test_identity_precrash_run_folder_stores_its_braking(tmp_path, monkeypatch):
    """A pre-crash run folder stores its braking as run (the chassis tables beside the pulse in
    results.h5): read_run, the folder moved, does not run the vehicle model (braking_run
    fails here) and needs none of its files (this occupant made to ship no vehicle model: the
    record's ``midsize_sedan`` is not checked against the installed ones), and builds the same
    model, pulse and B0 motion. Before (runcarry), read_run ran the braking again from
    vehicles/midsize_sedan.toml and its subsystem files."""
    from occupant.io import toml_files
    from occupant.scenario import precrash
    run = load("aeb_precrash_frontal", overrides=PRECRASH).run()
    assert isinstance(run.pulse, precrash.PrecrashPulse) and run.pulse.impact == 0.005
    folder = write_run(run, tmp_path / "run")
    moved = tmp_path / "elsewhere" / "moved"
    moved.parent.mkdir()
    shutil.move(folder, moved)

    def no_braking(*args):
        raise AssertionError("the braking was run again")
    shipped = toml_files.shipped_names
    monkeypatch.setattr(precrash, "braking_run", no_braking)
    monkeypatch.setattr(toml_files, "shipped_names", lambda folder, kind=None: (
        [] if kind == "vehicle" else shipped(folder, kind)))
    monkeypatch.chdir(moved.parent)
    again = read_run(moved)
    _same_build(again, run)
    _same_motion(again, run)
    assert isinstance(again.pulse, precrash.PrecrashPulse)
    assert (again.pulse.impact, again.pulse.impact_speed, again.pulse.crash_duration) == (
        run.pulse.impact, run.pulse.impact_speed, run.pulse.crash_duration)
    assert again.pulse.describe() == run.pulse.describe()
    # without the stored braking (shipped names as installed) the scenario runs it: it fails here
    monkeypatch.setattr(toml_files, "shipped_names", shipped)
    with pytest.raises(AssertionError, match="the braking was run again"):
        load("aeb_precrash_frontal", overrides=PRECRASH)


def test_identity_precrash_run_folder_without_its_braking_reads_as_before(tmp_path, monkeypatch):
    """A pre-crash folder written before its braking was stored (the pulse's table only, as
    runsolid2 stored it) reads as before: the braking run again from the vehicle model, the
    same pulse and B0 motion."""
    from occupant.scenario import precrash
    from occupant.scenario.pulse import Pulse
    run = load("aeb_precrash_frontal", overrides=PRECRASH).run()
    monkeypatch.setattr(precrash.PrecrashPulse, "record", Pulse.record)
    folder = write_run(run, tmp_path / "old")
    monkeypatch.undo()
    calls = []
    braking = precrash.braking_run
    monkeypatch.setattr(precrash, "_RUNS", {})
    monkeypatch.setattr(precrash, "braking_run", lambda *args: calls.append(args) or braking(*args))
    again = read_run(folder)
    assert len(calls) == 1 and isinstance(again.pulse, precrash.PrecrashPulse)
    _same_build(again, run)
    _same_motion(again, run)


# a script run in its own process (no file read earlier is cached there): every regular file
# the load and run of a scenario open, but the Python modules, numba's caches, the
# interpreter's own files, packages' metadata (numba's entry points) and the reads of
# occupant.io.toml_files._kind_of (the look-up of a shipped name's kind among its folder's
# files, not a file the run uses), then Run.inputs
_TRACE = r"""
import json, os, sys
opened, on = [], [False]
def hook(event, args):
    if on[0] and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        f = sys._getframe(1)
        while f is not None:
            if f.f_code.co_name == "_kind_of":
                return
            f = f.f_back
        opened.append(os.fsdecode(args[0]))
sys.addaudithook(hook)
from occupant.scenario import load
name, overrides = sys.argv[1], json.loads(sys.argv[2])
on[0] = True
run = load(name, overrides=overrides).run()
on[0] = False
skip = (sys.prefix, sys.base_prefix, os.path.realpath(sys.prefix))
print(json.dumps({"opened": sorted({os.path.realpath(p) for p in opened if os.path.isfile(p)
                                    and not p.endswith((".py", ".pyc", ".nbi", ".nbc", ".so"))
                                    and not any(d.endswith((".egg-info", ".dist-info"))
                                                for d in p.split(os.sep))
                                    and not os.path.realpath(p).startswith(skip)}),
                  "inputs": {k: os.path.realpath(v) for k, v in run.inputs.items()}}))
"""


def _reads(name, overrides):
    """(files the load and run of ``name`` opened, its Run.inputs), traced in a new process."""
    import json
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", _TRACE, name, json.dumps(overrides)],
                          capture_output=True, text=True, check=True)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return out["opened"], out["inputs"]


def _pedestrian_human(folder):
    """pedestrian_40 with the parametric human in place of its dummy (its foot one shell: no
    heels, no knee pads, no chin; a head accelerometer), a file in ``folder``."""
    sensors = ('[sensors]\nstandard = false\n\n[[sensor]]\nkind = "accelerometer"\n'
               'name = "Head CG"\nbody = "head"\npoint = "cg"\n')
    text = (resolve("pedestrian_40").read_text(encoding="utf-8")
            .replace('dummy = "hybrid3_50m_pedestrian"', 'human = {sex = "male", percentile = 50}')
            .replace('"left_knee_pad", "right_knee_pad",', "").replace('"chin", ', "")
            .replace(', "left_heel"', "").replace(', "right_heel"', "")
            .replace("[sensors]\nstandard = true\n", sensors))
    (folder / "walker.toml").write_text(text, encoding="utf-8")
    return str(folder / "walker.toml")


@pytest.mark.parametrize("name, overrides", [
    ("us_ncap_frontal_56", {}),      # a CSV pulse, the belt's reference dummy, the airbag
    ("pedestrian_40", {}),           # a dummy variant and its base, a vehicle front
    ("aeb_precrash_frontal", PRECRASH),   # the vehicle model and its subsystems
    (_pedestrian_human, {}),         # a parametric human's data
])
def test_identity_every_file_a_run_reads_is_among_its_inputs(tmp_path, name, overrides):
    """Every file a run opens (audited by Python's "open" event, in a process of its own) is
    one of Run.inputs or inside one of them (an ISO-MME test's folder, a parametric human's
    data folder): write_run copies them all into DIR/inputs/. Before (runcarry2), the
    occupant's own contacts (dummies/body_contacts.toml), the dummy the lap belt is drawn for,
    a pre-crash scenario's vehicle model files and a human's data were read and not copied."""
    import os
    opened, inputs = _reads(name if isinstance(name, str) else name(tmp_path), {**SHORT, **overrides})
    assert opened and any(p.endswith("body_contacts.toml") for p in opened)
    # (a folder only where a reader takes one whole: no inputs key holds all of dummies/)
    assert all(os.path.isfile(v) or k in ("pulse", "human") for k, v in inputs.items())

    def carried(p):
        return any(p == v or p.startswith(v + os.sep) for v in inputs.values())
    assert [p for p in opened if not carried(p)] == []


def _isomme_sled(folder, file):
    """fmvss208_sled_48_belted in ``folder``, its 48 km/h half-sine as the x channel of an
    ISO-MME test (folder/sled_test, a y channel beside) that its pulse names by ``file``."""
    from occupant import Channel
    from occupant.io import isomme
    folder.mkdir()
    t = np.arange(0.0, 0.1001, 1e-4)
    a = -21.4 * np.sin(np.pi * t / 0.1)   # g
    isomme.write([Channel("sled x", t, a, "g", code="S0SLED000000ACXD"),
                  Channel("sled y", t, 0.0 * t, "g", code="S0SLED000000ACYD")],
                 folder / "sled_test", "T1")
    data = read_toml(resolve("fmvss208_sled_48_belted"))
    data["pulse"] = {"shape": "isomme", "file": file, "channel": "S0SLED000000ACXD", "speed_kmh": 48.0}
    (folder / "sled.toml").write_text(dumps(data), encoding="utf-8")
    return folder / "sled.toml"


@pytest.mark.parametrize("file", ["sled_test", "sled_test/T1.mme"])
def test_identity_run_folder_runs_again_from_its_inputs_alone(tmp_path, monkeypatch, capsys, file):
    """A run whose pulse is an ISO-MME test (its folder, or its .mme file, named), run again
    from its folder (``occupant run RUN_DIR``) with the test gone and the package's shipped
    data (dummies/, vehicles/, scenarios/) made empty: the same criteria, the same motion
    bit for bit, from DIR/inputs/ alone (the test's folder copied whole as pulse-sled_test/,
    body_contacts-, reference_dummy-). Before (runcarry2), the test was not copied and the
    occupant's own contacts were read from the installed dummies/body_contacts.toml."""
    from occupant import shipped
    from occupant.io import toml_files
    from occupant.io.results_h5 import read_results
    scenario = _isomme_sled(tmp_path / "src", file)
    run = load(str(scenario), overrides=SHORT).run()
    folder = write_run(run, tmp_path / "run")
    names = sorted(p.name for p in (folder / "inputs").iterdir())
    assert names == ["body_contacts-body_contacts.toml", "dummy-hybrid3_50m.toml",
                     "interior-sled_buck_passenger.toml", "posture-passenger_seated.toml",
                     "pulse-sled_test", "reference_dummy-hybrid3_50m.toml", "scenario-sled.toml"]
    test = tmp_path / "src" / "sled_test"
    copied = sorted(p.relative_to(test) for p in test.rglob("*") if p.is_file())
    assert len(copied) >= 4 and copied == sorted(
        p.relative_to(folder / "inputs" / "pulse-sled_test")
        for p in (folder / "inputs" / "pulse-sled_test").rglob("*") if p.is_file())
    shutil.rmtree(tmp_path / "src")
    empty = tmp_path / "no_data"
    monkeypatch.setattr(shipped, "shipped_dir", lambda name: empty / name)
    monkeypatch.setattr(toml_files, "shipped_dir", lambda name: empty / name)
    monkeypatch.chdir(tmp_path)
    assert main(["run", str(folder), "--out", str(tmp_path / "again"), "--quiet"]) == 0
    capsys.readouterr()
    assert (tmp_path / "again" / "criteria.csv").read_bytes() == (folder / "criteria.csv").read_bytes()
    np.testing.assert_array_equal(read_results(tmp_path / "again" / "results.h5").q, run.results.q)
    assert sorted(p.name for p in (tmp_path / "again" / "inputs").iterdir()) == names
    _same_build(read_run(tmp_path / "again"), run)


def test_identity_run_folder_runs_again_with_a_set(tmp_path):
    """``occupant run RUN_DIR --set ...``: the override goes on top of the scenario as run; one
    that names a file anew (occupant.posture) reads that file, not the folder's copy of the
    one it replaces (the other copies still read); a bad value is said as its --set's error."""
    from occupant.scenario.load import ScenarioError
    run = load("fmvss208_sled_48_belted", overrides=SHORT).run()
    folder = write_run(run, tmp_path / "run")
    sc = load(str(folder), overrides={"occupant.posture": "driver_seated", "solver.t_end": 0.004})
    assert sc.t_end == 0.004 and sc.data["occupant"]["settle"] == 0.0   # the run's own override kept
    assert sc.inputs["posture"] == resolve_shipped("driver_seated", "dummies/postures", "posture").absolute()
    assert sc.inputs["dummy"].parent == sc.inputs["body_contacts"].parent == folder / "inputs"
    with pytest.raises(ScenarioError, match=r"scenario-fmvss208_sled_48_belted.toml \(--set "
                       r"occupant.posture\): occupant.posture: unknown posture 'sitting'"):
        load(str(folder), overrides=["occupant.posture=sitting"])


def _gs1_human():
    """The GS1 sled scenario's file (scenarios/validation/data): a parametric human, belted."""
    from occupant.shipped import shipped_dir
    return str(shipped_dir("scenarios") / "validation" / "data" / "gs1_sled_40_human.toml")


def _edit(path, old, new):
    """``path``'s one ``old`` replaced by ``new``."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _tables(model):
    """{name: table} of a model's joint resistances (a human's passive moment-angle curves)."""
    return {n: e.table for n, e in model.source.joint_resistances.items()}


def test_identity_human_run_folder_runs_again_from_its_copied_data(tmp_path, monkeypatch, capsys):
    """A parametric human's run folder, run again (``occupant run RUN_DIR``) with the installed
    data made unreadable: the same criteria.csv bytes and states, from inputs/human-data/ and
    human_stops-; an edit of a copied value changes the re-run (a head-neck mass of de Leva's
    table, a hip flexion curve of joint_passive.toml, read through its cache). Before
    (paramcopy), the copies were a record only: the installed data built the human."""
    from occupant.human import data_folder
    from occupant.io.results_h5 import read_results
    run = load(_gs1_human(), overrides=SHORT).run()
    folder = write_run(run, tmp_path / "run")
    data = folder / "inputs" / "human-data"
    assert sorted(p.name for p in data.iterdir()) == sorted(p.name for p in data_folder.SHIPPED.iterdir()
                                                            if p.suffix == ".toml")
    monkeypatch.setattr(data_folder, "SHIPPED", tmp_path / "no_data")   # no installed file read
    monkeypatch.setattr(data_folder, "STOPS_DUMMY", "no_such_dummy")
    monkeypatch.setattr(data_folder, "check_copy", lambda *args: None)   # (it reads the installed)
    assert main(["run", str(folder), "--out", str(tmp_path / "again"), "--quiet"]) == 0
    capsys.readouterr()
    assert (tmp_path / "again" / "criteria.csv").read_bytes() == (folder / "criteria.csv").read_bytes()
    np.testing.assert_array_equal(read_results(tmp_path / "again" / "results.h5").q, run.results.q)
    monkeypatch.undo()
    _edit(data / "deleva1996.toml", "mass = 6.94\n", "mass = 8.94\n")   # the men's head + neck
    _edit(data / "joint_passive.toml", "k = [-2.44, 5.05, 1.51, -21.88]", "k = [-4.88, 5.05, 3.02, -21.88]")
    sc = load(str(folder))
    assert sc.inputs["human"] == data and sc.inputs["human_stops"].parent == folder / "inputs"
    head = run.model.body("head")
    assert sc.model.body_mass[head] > run.model.body_mass[head] + 1.0
    before, after = _tables(run.model), _tables(sc.model)
    changed = sorted(n for n in before if not np.array_equal(before[n], after[n]))
    assert changed and all("hip" in n for n in changed), changed
    assert not np.array_equal(sc.run().results.q, run.results.q)
    # the installed data as it was: a scenario loaded from its file builds the run's human
    again = load(_gs1_human(), overrides=SHORT)
    np.testing.assert_array_equal(again.model.body_mass, run.model.body_mass)
    assert all(np.array_equal(t, before[n]) for n, t in _tables(again.model).items())


def test_human_run_folder_bad_copied_data_is_one_clear_error(tmp_path, capsys):
    """A copied table that this version cannot read (a value of another kind, a key renamed)
    stops ``occupant run RUN_DIR`` with one message naming the copy, the key and what is
    accepted (its installed file's layout), not an error deep in the builder."""
    run = load(_gs1_human(), overrides=SHORT).run()
    folder = write_run(run, tmp_path / "run")
    copy = folder / "inputs" / "human-data" / "deleva1996.toml"
    text = copy.read_text(encoding="utf-8")
    _edit(copy, "mass = 6.94\n", 'mass = "heavy"\n')
    assert main(["run", str(folder), "--out", str(tmp_path / "again"), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"occupant: error: {copy}: male.head_neck.mass: expected a number, got 'heavy' "
                   "(accepted: a number, as in this version's deleva1996.toml)")
    copy.write_text(text, encoding="utf-8")
    _edit(folder / "inputs" / "human-data" / "joint_rom.toml", "[lower_neck]\n", "[lower_necks]\n")
    with pytest.raises(ValueError, match=r"inputs/human-data/joint_rom.toml: lower_neck: missing "
                       r"\(accepted: a table, as in this version's joint_rom.toml\)"):
        load(str(folder))


def test_identity_precrash_run_folder_brakes_again_from_its_copied_model(tmp_path, monkeypatch, capsys):
    """``occupant run RUN_DIR`` of a pre-crash folder runs the braking again from its copies of
    the vehicle model (the model file finds its subsystems among vehicle_model_sub1- ... by
    copies_locator), the installed vehicles/ made empty: the same criteria.csv bytes, states
    and B0 motion; an edit of a copied subsystem (the chassis' mass) changes the braking.
    A copy that cannot be read is one error naming it and the key. Before (paramcopy), the
    braking stored in results.h5 was taken and the copies were a record only."""
    from occupant import shipped
    from occupant.io import toml_files
    from occupant.io.results_h5 import read_results
    from occupant.scenario import precrash
    run = load("aeb_precrash_frontal", overrides=PRECRASH).run()
    folder = write_run(run, tmp_path / "run")
    calls = []
    braking = precrash.braking_run
    monkeypatch.setattr(precrash, "braking_run", lambda *args: calls.append(args) or braking(*args))
    empty, shipped_dir = tmp_path / "no_data", shipped.shipped_dir
    monkeypatch.setattr(shipped, "shipped_dir", lambda name: empty / name if name == "vehicles"
                        else shipped_dir(name))
    monkeypatch.setattr(toml_files, "shipped_dir", shipped.shipped_dir)
    assert main(["run", str(folder), "--out", str(tmp_path / "again"), "--quiet"]) == 0
    capsys.readouterr()
    assert len(calls) == 1 and all(p.parent == folder / "inputs" for p in calls[0][3])
    assert [p.name for p in calls[0][3]][:2] == ["vehicle_model-midsize_sedan.toml",
                                                 "vehicle_model_sub1-sedan_chassis.toml"]
    assert (tmp_path / "again" / "criteria.csv").read_bytes() == (folder / "criteria.csv").read_bytes()
    np.testing.assert_array_equal(read_results(tmp_path / "again" / "results.h5").q, run.results.q)
    _same_motion(read_run(tmp_path / "again"), run)
    chassis = folder / "inputs" / "vehicle_model_sub1-sedan_chassis.toml"
    mass = read_toml(chassis)["parameters"]["mass"]
    _edit(chassis, f"mass = {mass}", f"mass = {2.0 * mass}")
    edited = load(str(folder))
    assert len(calls) == 2 and edited.inputs["vehicle_model_sub1"] == chassis
    assert any(not np.array_equal(edited.pulse.tables[k], run.pulse.tables[k]) for k in run.pulse.tables)
    # a copy that cannot be read: its own file and key (the vehicle files' checks)
    _edit(chassis, f"mass = {2.0 * mass}", 'mass = "heavy"')
    with pytest.raises(ValueError, match=r"inputs/vehicle_model_sub1-sedan_chassis.toml: "
                       r"parameters.mass: expected a finite number, got .heavy."):
        load(str(folder))


def test_identity_run_folder_carries_an_interiors_mesh(tmp_path, monkeypatch):
    """An interior on the sled buck whose seat cushion is a mesh file beside it (an STL, mm):
    the mesh is copied (interior_mesh_seat_cushion-) and read from the copy, the sources gone;
    the model is the run's (occupant.scenario.interior_shapes)."""
    import trimesh
    src = tmp_path / "src"
    (src / "cad").mkdir(parents=True)
    trimesh.creation.box(extents=(700.0, 500.0, 100.0)).export(src / "cad" / "cushion.stl")
    (src / "buck.toml").write_text(
        'kind = "interior"\nname = "buck"\nbase = "sled_buck_passenger"\n[[surface]]\n'
        'name = "seat_cushion"\nshape = "mesh"\nfile = "cad/cushion.stl"\nunits = "mm"\n'
        'point = [0.1, 0.0, -0.17]\ncharacteristic = "seat_cushion_foam"\n', encoding="utf-8")
    monkeypatch.chdir(src)
    run = load("fmvss208_sled_48_belted", overrides={**SHORT, "vehicle.interior": "buck.toml"}).run()
    folder = write_run(run, tmp_path / "run")
    assert (folder / "inputs" / "interior_mesh_seat_cushion-cushion.stl").is_file()
    shutil.rmtree(src)
    monkeypatch.chdir(tmp_path)
    again = read_run(folder)
    _same_build(again, run)
    assert again.inputs["interior_mesh_seat_cushion"].parent == folder / "inputs"
    mesh = next(s for s in again.interior.surfaces if s.name == "seat_cushion").mesh
    np.testing.assert_allclose(mesh.extents, (0.7, 0.5, 0.1), rtol=1e-12)
