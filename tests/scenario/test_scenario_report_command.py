"""``occupant report RUN_DIR`` (issue 13 section 2): the report of a finished run written again
from its results.h5 alone (no simulation) is the report the run wrote, byte for byte."""
import numpy as np

from occupant.cli import main
from occupant.scenario import load, write_run
from occupant.scenario.run import read_run

SHORT = {"solver.t_end": 0.02}


def test_identity_report_from_results_h5_is_the_runs_report(tmp_path, capsys):
    run = load("fmvss208_sled_48_unbelted", overrides=SHORT).run()
    folder = write_run(run, tmp_path / "run")
    original = {name: (folder / name).read_bytes() for name in ("report.html", "report.pdf")}
    again = read_run(folder)
    assert again.criteria == run.criteria and again.notes == run.notes and again.judged == run.judged
    assert again.results.status == run.results.status == "finished"
    np.testing.assert_array_equal(again.results.body_poses, run.results.body_poses)
    assert again.model.nv == run.model.nv and again.model.contact_names == run.model.contact_names
    (folder / "report.html").unlink()
    (folder / "report.pdf").unlink()
    assert main(["report", str(folder), "--html"]) == 0
    assert f"{folder / 'report.html'}" in capsys.readouterr().out
    assert not (folder / "report.pdf").exists()
    assert (folder / "report.html").read_bytes() == original["report.html"]
    assert main(["report", str(folder), "--pdf"]) == 0
    assert (folder / "report.pdf").read_bytes() == original["report.pdf"]


def test_reference_report_of_a_folder_without_results_is_one_clear_error(tmp_path, capsys):
    assert main(["report", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("occupant: error:") and "no results.h5" in err and len(err.splitlines()) == 1


def test_identity_run_folder_rebuilt_from_its_start_without_settling(tmp_path, monkeypatch):
    """A settled run with a [vehicle] backset (rear_whiplash) is rebuilt from its folder at the
    configuration it started from: no second settling (it failed before: the loader settled
    again on every report), and the head restraint lands where the run had it."""
    import occupant.scenario.settle as settle_module
    run = load("rear_whiplash", overrides=SHORT).run()
    folder = write_run(run, tmp_path / "run")

    def no_settling(*args, **kwargs):
        raise AssertionError("the run folder's model was settled again")
    monkeypatch.setattr(settle_module, "settle", no_settling)
    again = read_run(folder)
    np.testing.assert_array_equal(again.initial_state, run.initial_state)
    plane = {m.source.geometries["head_restraint"].point.tobytes() for m in (run.model, again.model)}
    assert len(plane) == 1


def test_reference_run_files_written_when_the_report_fails_before_them(tmp_path, monkeypatch):
    """write_run hands the writing of results.h5, isomme/ and criteria.csv to the report, to do
    while its second process draws: a report failing before it got there leaves them written
    all the same, and its error reaches the caller."""
    import occupant.report
    run = load("fmvss208_sled_48_unbelted", overrides=SHORT).run()

    def broken(run, folder, **kwargs):
        raise RuntimeError("report broke")
    monkeypatch.setattr(occupant.report, "write", broken)
    try:
        write_run(run, tmp_path / "run")
    except RuntimeError as err:
        assert str(err) == "report broke"
    else:
        raise AssertionError("the report's error was swallowed")
    for name in ("results.h5", "criteria.csv", "scenario.toml"):
        assert (tmp_path / "run" / name).is_file()
    assert any((tmp_path / "run" / "isomme").iterdir())


def test_identity_run_folder_stands_on_its_own_when_the_scenario_and_its_pulse_are_gone(tmp_path):
    """A run of a scenario copied elsewhere with its CSV pulse (us_ncap_frontal_56's NHTSA test
    11391): both copies deleted, ``read_run`` of the folder still builds the Run, with bitwise
    the pulse the run had (stored in results.h5; before, the record named only the scenario
    file, against which the pulse's relative path was read again: "pulse.file: no such file")."""
    import shutil

    from occupant.scenario.load import resolve
    original = resolve("us_ncap_frontal_56")
    (tmp_path / "copy" / "data").mkdir(parents=True)
    scenario = tmp_path / "copy" / "us_ncap_frontal_56.toml"
    shutil.copyfile(original, scenario)
    csv = "us_ncap_56_nhtsa_11391.csv"
    shutil.copyfile(original.parent / "data" / csv, tmp_path / "copy" / "data" / csv)
    run = load(str(scenario), overrides={"solver.t_end": 0.005, "outputs.report": False}).run()
    folder = write_run(run, tmp_path / "run")
    shutil.rmtree(tmp_path / "copy")
    again = read_run(folder)
    assert again.pulse.source == run.pulse.source == f"CSV {csv}"
    assert np.array_equal(again.pulse.t, run.pulse.t) and np.array_equal(again.pulse.a, run.pulse.a)
    assert (again.pulse.speed0, again.pulse.direction) == (run.pulse.speed0, run.pulse.direction)
    assert again.name == "us_ncap_frontal_56" and again.results.status == "finished"
    assert again.model.nv == run.model.nv


def test_identity_run_folder_read_from_another_directory_reads_its_files_given_by_path(tmp_path, monkeypatch):
    """A run whose posture and interior are given by --set as relative paths (copies of the
    shipped files in the working directory): ``read_run`` from another working directory builds
    the same model (bodies, contact pairs). Before, the record kept the relative paths, read
    again against the new working directory: "vehicle.interior: no such file ..."; now a path
    given on the command line is made absolute where it is given (relpaths)."""
    import shutil

    from occupant.io.toml_files import resolve_shipped
    here = tmp_path / "here"
    here.mkdir()
    shutil.copyfile(resolve_shipped("passenger_seated", "dummies/postures", "posture"), here / "seat.toml")
    shutil.copyfile(resolve_shipped("sled_buck_passenger", "vehicles", "interior"), here / "buck.toml")
    monkeypatch.chdir(here)
    run = load("fmvss208_sled_48_belted", overrides={
        "solver.t_end": 0.002, "occupant.settle": 0.0, "outputs.report": False,
        "occupant.posture": "seat.toml", "vehicle.interior": "buck.toml"}).run()
    assert run.scenario["vehicle"]["interior"] == str(here / "buck.toml")   # where it was given
    folder = write_run(run, tmp_path / "run")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    again = read_run(folder)
    assert again.model.nb == run.model.nb and again.model.contact_names == run.model.contact_names
    assert len(again.model.contact_names) > 0 and again.interior.name == run.interior.name


def test_reference_report_of_a_sweeps_folder_names_its_variants(tmp_path, capsys):
    """(usercheck9) ``occupant report SWEEP_DIR`` read "no results.h5 in this folder (accepted: a
    run folder of occupant run or sweep)", while ``occupant compare SWEEP_DIR`` said it is a
    sweep's folder and named its variants: now both, from one test of what a sweep's folder is."""
    (tmp_path / "sweep.json").write_text("{}\n")
    for name in ("v0001", "v0002", "v0003"):
        (tmp_path / name).mkdir()
    assert main(["report", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        f"occupant: error: {tmp_path}: a sweep's folder (3 variants), not a run's: each variant is a run folder "
        f"(accepted: a variant's folder, {tmp_path / 'v0001'} {tmp_path / 'v0002'} ...)\n")
    assert main(["compare", str(tmp_path), str(tmp_path / "v0001")]) == 2
    assert f"a sweep's folder (3 variants): compare its variants' run folders (accepted: their folders, " \
           f"{tmp_path / 'v0001'} {tmp_path / 'v0002'} ...)" in capsys.readouterr().err
