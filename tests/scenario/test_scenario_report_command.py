"""``occupant report RUN_DIR`` (issue 13 section 2): the report of a finished run written again
from its results.h5 alone (no simulation) is the report the run wrote."""
import re

import numpy as np

from occupant.cli import main
from occupant.scenario import load, write_run
from occupant.scenario.run import read_run

SHORT = {"solver.t_end": 0.02}


def _without_timing(text):
    """The page without what differs between two writings of it: its timing and the random id
    plotly gives its figure's div."""
    text = re.sub(r"Written by occupant.report in [\d.]+ s", "", text)
    return re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>", text)


def test_identity_report_from_results_h5_is_the_runs_report(tmp_path, capsys):
    run = load("fmvss208_sled_48_unbelted", overrides=SHORT).run()
    folder = write_run(run, tmp_path / "run")
    original = _without_timing((folder / "report.html").read_text())
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
    assert _without_timing((folder / "report.html").read_text()) == original


def test_reference_report_of_a_folder_without_results_is_one_clear_error(tmp_path, capsys):
    assert main(["report", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("occupant: error:") and "no results.h5" in err and len(err.splitlines()) == 1
