"""Pieces of the comparison report (occupant.report.compare) and of ``occupant compare``'s
labels (occupant.display.distinct_labels) that need no run."""
import types

from occupant.display import distinct_labels
from occupant.report.compare import run_rows, settings_that_differ


def test_distinct_labels_keep_distinct_names_and_tell_alike_folders_apart(tmp_path):
    """Distinct labels stay as they are (the printed table unchanged); two run folders named
    alike take their parents' names, as many as differ (a/x/run, b/x/run); the same folder
    twice, or a scenario named as a folder, numbered."""
    assert distinct_labels(["ll3000", "ll6000"], [tmp_path / "ll3000", tmp_path / "ll6000"]) == ["ll3000", "ll6000"]
    assert distinct_labels(["run", "run"], [tmp_path / "a" / "run", tmp_path / "b" / "run"]) == ["a/run", "b/run"]
    assert distinct_labels(["run", "run"], [tmp_path / "a" / "x" / "run", tmp_path / "b" / "x" / "run"]) == \
        ["a/x/run", "b/x/run"]
    assert distinct_labels(["run", "run"], [tmp_path / "run", tmp_path / "run"]) == ["run", "run_2"]
    assert distinct_labels(["sled", "sled", "sled"], [None, tmp_path / "sled", None]) == ["sled", "sled_2", "sled_3"]
    assert distinct_labels(["x", "x", "x_2"]) == ["x", "x_2", "x_2_2"]


def test_settings_that_differ_names_the_overrides_between_designs():
    """Only the keys whose values differ, each run's value with its unit (occupant.scenario.keys),
    "-" where a run has no such key."""
    def run(**belt):
        return types.SimpleNamespace(scenario={"name": "s", "solver": {"t_end": 0.15},
                                               "restraints": {"belt": belt}})
    rows = settings_that_differ([run(load_limit=3000.0), run(load_limit=6000.0), run()])
    assert rows == [("restraints.belt.load_limit", "3000.0 N", "6000.0 N", "-")]
    assert settings_that_differ([run(load_limit=3000.0), run(load_limit=3000.0)]) == []


def test_settings_that_differ_match_a_list_of_tables_by_its_tables():
    """A contact added at the front of ``[[contact]]`` (the 5F's buttocks before her other pairs,
    branch dummyfit) is one row naming it, not every later pair as changed (contact[1].a, ...);
    the same tables in another order differ in nothing."""
    pairs = [{"a": "head_shell", "b": "airbag"}, {"a": "pelvis_flesh", "b": "seat_back"}]
    added = {"a": ["left_buttock", "right_buttock"], "b": "seat_cushion"}

    def run(contacts, t_end=0.15):
        return types.SimpleNamespace(scenario={"solver": {"t_end": t_end}, "contact": contacts})
    rows = settings_that_differ([run(pairs), run([added] + pairs, 0.1)])
    assert rows == [("solver.t_end", "0.15 s", "0.1 s"),
                    ("contact (tables not in every run)", "-",
                     "a = ['left_buttock', 'right_buttock'], b = seat_cushion")]
    assert settings_that_differ([run(pairs), run(pairs[::-1])]) == []


def test_regression_report_compare_is_the_function_after_its_module_is_imported():
    """``occupant.report.compare`` stays callable once occupant.report.compare (the module) is
    imported: it was a wrapper importing that module on its first call, which set the module as
    the package's attribute, so a second comparison in one process (``occupant compare --html``
    then ``--pdf`` in a test) met "'module' object is not callable"."""
    import importlib

    import occupant.report
    importlib.import_module("occupant.report.compare")
    assert callable(occupant.report.compare) and occupant.report.compare.__name__ == "compare"


def test_regression_the_runs_table_names_each_runs_occupant():
    """A dummy's run and the parametric human's in its place (``--set occupant.human.sex=male``)
    share scenario and title: the runs' table names the occupant each carried, and "-" where no
    regulation judged it (usercheck6: the human's was blank and neither named its occupant)."""
    def run(occupant, regulation):
        return types.SimpleNamespace(name="us_ncap_frontal_56", title="US NCAP", regulation=regulation,
                                     model=types.SimpleNamespace(name=occupant),
                                     results=types.SimpleNamespace(status="finished", t=[0.0, 0.15]))
    rows = run_rows([run("hybrid3_50m", "FMVSS 208"), run("human_male_1.753m_78.2kg", "")], ["a", "b"])
    assert rows == [("a", "us_ncap_frontal_56", "US NCAP", "hybrid3_50m", "FMVSS 208", "finished", "150 ms"),
                    ("b", "us_ncap_frontal_56", "US NCAP", "human_male_1.753m_78.2kg", "-", "finished", "150 ms")]
