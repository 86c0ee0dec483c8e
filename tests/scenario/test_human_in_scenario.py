"""The parametric human in a dummy's crash scenario (issue 14, branch humanswap): ``--set
occupant.human.*`` on a dummy's scenario replaces its dummy (occupant.scenario.overrides
ALTERNATIVES), the human has the heels and chin the shipped frontal pairs name, its channels
stand in for the Hybrid III set and it is never judged against a dummy's regulation."""
import shutil

import pytest

from occupant.scenario import ScenarioError, apply_overrides, load
from occupant.scenario.load import scenario_file
from occupant.io.toml_files import read_toml


CSV = "us_ncap_56_nhtsa_11391.csv"   # us_ncap_frontal_56's pulse, beside a copy of the file


def _raw(name="us_ncap_frontal_56"):
    return read_toml(scenario_file(name))


def test_reference_a_set_of_the_human_replaces_the_files_dummy_and_back():
    """One of occupant.dummy and occupant.human set on the command line takes the file's other
    away; the file's dict is untouched."""
    raw = _raw()
    out = apply_overrides(raw, ["occupant.human.sex=male"])
    assert "dummy" not in out["occupant"] and out["occupant"]["human"] == {"sex": "male"}
    assert raw["occupant"]["dummy"] == "hybrid3_50m"
    out = apply_overrides(raw, {"occupant.human": {"sex": "male", "percentile": 50}})
    assert "dummy" not in out["occupant"] and out["occupant"]["human"]["percentile"] == 50
    back = apply_overrides(out, ["occupant.dummy=hybrid3_05f"])
    assert back["occupant"]["dummy"] == "hybrid3_05f" and "human" not in back["occupant"]


def test_reference_a_human_on_a_dummys_scenario_is_said_and_not_judged():
    """``--set occupant.human.sex=male`` alone loads us_ncap_frontal_56 with the 50th male (the
    default percentile), its heels and chin in the file's pairs; the notes say the dummy was
    replaced and that FMVSS 208's limits are shown, not judged, the criteria computed with the
    Hybrid III 50M's constants."""
    s = load("us_ncap_frontal_56", ["occupant.human.sex=male"])
    assert s.human and s.dummy == "human_male_1.753m_78.2kg"
    assert s.notes[0] == "--set occupant.human.sex replaces the file's occupant.dummy = 'hybrid3_50m'"
    assert s.protocol is None and s.reference.dummy == "hybrid3_50m" == s.criteria_dummy
    assert any("not judged" in n and "parametric human" in n for n in s.notes)
    geometries = s.model.source.geometries
    assert {"left_heel", "right_heel", "chin"} <= set(geometries)
    assert {x.name for x in s.sensors} >= {"Head CG", "Upper neck", "Chest deflection", "Left femur"}


def test_reference_a_woman_without_a_percentile_gets_one_message():
    """The default percentile (50) is not tabulated for women: one line naming the file, the
    --set and what is accepted."""
    with pytest.raises(ScenarioError) as err:
        load("us_ncap_frontal_56", ["occupant.human.sex=female"])
    text = str(err.value)
    assert text.endswith("us_ncap_frontal_56.toml (--set occupant.human.sex): occupant.human: none of "
                         "percentile, stature and mass given, so percentile 50: percentile: 50 is not "
                         "tabulated for female (accepted: 5; or give stature and mass)"), text


@pytest.mark.parametrize("value", ["tense", "Reflex", "None"])
def test_reference_a_neck_activation_that_does_not_exist_names_the_words_a_file_takes(value):
    """An unknown neck activation is the key's own error, naming the words a scenario file
    takes (``none`` for no muscles, not build's Python None) and not the default percentile,
    which has nothing to do with it (usercheck6: it said "none of percentile, stature and mass
    given, so percentile 50: neck_activation: unknown value 'tense' (accepted: relaxed, braced,
    reflex, posture, or None for no neck muscles)")."""
    with pytest.raises(ScenarioError) as err:
        load("us_ncap_frontal_56", [f"occupant.human.neck_activation={value}"])
    text = str(err.value)
    assert text.endswith("us_ncap_frontal_56.toml (--set occupant.human.neck_activation): "
                         f"occupant.human.neck_activation: unknown neck activation {value!r} "
                         "(accepted: relaxed, braced, reflex, posture, none)"), text


def test_reference_a_size_out_of_range_names_its_own_key_and_the_option_giving_it(tmp_path, capsys):
    """A stature in cm is the stature key's error, said as the option that gave it: a --set, or
    the sweep's --vary, before any run (usercheck6: the sweep said "(--set occupant.human.mass):
    occupant.human: stature: 165.0 m is not a human stature", blaming the mass's --set)."""
    from occupant.cli import main
    with pytest.raises(ScenarioError) as err:
        load("us_ncap_frontal_56", ["occupant.human.mass=78", "occupant.human.stature=165"])
    assert str(err.value).endswith("(--set occupant.human.stature): occupant.human.stature: 165.0 m is not a "
                                   "human stature (accepted: 0.7-2.3 m)"), str(err.value)
    with pytest.raises(ScenarioError) as err:
        load("us_ncap_frontal_56", ["occupant.human.stature=1.75", "occupant.human.mass=250"])
    assert str(err.value).endswith("(--set occupant.human.mass): occupant.human.mass: 250.0 kg at 1.75 m gives "
                                   "a BMI of 81.6 kg/m^2, outside any population (accepted: BMI 11.0-70.0 "
                                   "kg/m^2)"), str(err.value)
    assert main(["sweep", "us_ncap_frontal_56", "--set", "occupant.human.mass=78", "--vary",
                 "occupant.human.stature=165:185:3", "--out", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.endswith(
        "(--vary occupant.human.stature): occupant.human.stature: 165.0 m is not a human stature (accepted: "
        "0.7-2.3 m)\n"), captured.err
    assert not list(tmp_path.glob("v*"))


def test_reference_no_neck_muscles_is_said_none_in_a_scenario():
    """``neck_activation = "none"`` loads the human without neck muscles (a PMHS)."""
    s = load("us_ncap_frontal_56", ["occupant.human.neck_activation=none", "occupant.settle=0"])
    assert s.human and not s.model.muscle_names


def test_reference_a_pair_naming_what_the_human_lacks_names_pair_and_geometry(tmp_path):
    """A name with no human counterpart (the Hybrid III's ``lap_belt_pelvis``, the ellipsoid its
    lap belt wraps; its knee pads are the human's knee shells: occupant.scenario.human_swap)
    stays one error naming the pair and the geometry."""
    text = scenario_file("us_ncap_frontal_56").read_text().replace(
        'a = ["left_knee_contact", "right_knee_contact"]\nb = "knee_bolster"',
        'a = ["lap_belt_pelvis", "right_knee_contact"]\nb = "knee_bolster"')
    path = tmp_path / "us_ncap_frontal_56.toml"
    path.write_text(text)
    (tmp_path / "data").mkdir()
    shutil.copy(scenario_file("us_ncap_frontal_56").parent / "data" / CSV, tmp_path / "data" / CSV)
    with pytest.raises(ScenarioError, match=r"contact\[5\]\.a: unknown geometry 'lap_belt_pelvis'"):
        load(path, ["occupant.human.sex=male"])


def test_reference_a_short_us_ncap_run_with_the_human_steps():
    """20 ms of us_ncap_frontal_56 with the parametric 50th male (settled as shipped) runs to
    its end and gives its head, chest and femur channels."""
    s = load("us_ncap_frontal_56", ["occupant.human.sex=male", "solver.t_end=0.02"])
    run = s.run()
    assert run.results.status == "finished" and run.results.t[-1] == pytest.approx(0.02)
    rows = {r["criterion"]: r for r in run.criteria}
    assert {"HIC15", "chest deflection", "femur force left"} <= set(rows)
    assert all(r["pass"] is None for r in rows.values())   # shown, never judged


def test_reference_the_human_in_the_dummys_place_runs_the_dummys_compiled_step():
    """us_ncap_frontal_56 with its Hybrid III and with the parametric human in its place: one
    numba type of their step bundles (the human's muscles an empty family in the dummy's step,
    ``bundle.ALWAYS_PASSED``), so that a human run after the dummy's compiles no step of its
    own (that took 10.5 s CPU: its first run 26.4 s, its second 6.1 s; humanspeed)."""
    from numba import typeof
    dummy, human = (load("us_ncap_frontal_56", sets).model for sets in (None, ["occupant.human.sex=male"]))
    assert not dummy.muscle_names and human.muscle_names
    assert typeof(dummy.bundle()) == typeof(human.bundle())


def test_reference_a_percentile_beside_both_stature_and_mass_is_refused():
    """(usercheck8) occupant.human.build's percentile gives the stature or mass not given: beside
    both, ``{sex="male", percentile=95, stature=1.60, mass=78}`` ran the 1.60 m, 78 kg man and
    dropped the 95th percentile unsaid. Refused at the percentile's key; with one of the two it
    fills the other, as before."""
    with pytest.raises(ScenarioError) as err:
        load("us_ncap_frontal_56", ['occupant.human={sex="male", percentile=95, stature=1.60, mass=78.0}'])
    assert str(err.value).endswith(
        "us_ncap_frontal_56.toml (--set occupant.human): occupant.human.percentile: has no effect beside "
        "both stature and mass (it gives the stature or mass that is not given) (accepted: percentile "
        "alone or with one of stature and mass, or stature and mass without it)"), str(err.value)
    s = load("us_ncap_frontal_56", ['occupant.human={sex="male", percentile=95, stature=1.60}'])
    assert s.dummy.startswith("human_male_1.600m_") and s.dummy != "human_male_1.600m_78.0kg"


def test_reference_a_humans_unjudged_criteria_are_headed_as_such_not_as_unregulated(tmp_path, capsys):
    """(usercheck8) The parametric human in us_ncap_frontal_56 (a file naming FMVSS 208) printed
    "criteria (no regulation named: values only):" above rows that carry FMVSS 208's limits,
    as its report's criteria page did: the limits are the dummy's, shown for reference
    (occupant.display.unjudged_heading); a run without any limit keeps "values only"."""
    from occupant.cli import main
    from occupant.display import unjudged_heading
    out = tmp_path / "h"
    assert main(["run", "us_ncap_frontal_56", "--set", "occupant.human.sex=male", "--set", "solver.t_end=0.005",
                 "--set", "outputs.report=false", "--set", "outputs.isomme=false", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "  criteria (not judged: limits shown for reference, see the notes):\n" in printed
    assert "no regulation named" not in printed
    assert unjudged_heading([{"criterion": "HIC15", "limit": None}]) == "no regulation named: values only"
