"""Every shipped scenario with the parametric human in its dummy's place (issue 14, branch
humanrear): the geometries a scenario names that only a dummy has given the human's
(occupant.scenario.human_swap), the T1 accelerometer at each occupant's own lower neck joint,
the reference's optional rows shown for a human (its regulation as reference); rear_whiplash's
head restraint placed at its backset from the human's head: tests/scenario/test_placement.py."""
import pytest

from occupant.scenario import available_scenarios, load
from occupant.scenario.human_swap import human_contacts
from occupant.scenario.placement import head_restraint
from occupant.sensors.loader import SensorFileError, load_sensors

#: the two humans a user swaps in: the 50th male (the default percentile) and the only
#: tabulated woman, the 5th (occupant/human/data/body_proportions.toml [percentile])
HUMANS = {"male": ["occupant.human.sex=male"],
          "female": ["occupant.human.sex=female", "occupant.human.percentile=5"]}


def test_reference_the_dummy_only_names_become_the_humans():
    """occiput -> head_shell, both buttocks -> the one buttock (named once), each knee pad ->
    that leg's knee shell (wherever the pair names it, beside a shank or alone); other tables
    as given; a note per changed table; the cushion rule after."""
    tables = [
        {"a": ["occiput"], "b": "head_restraint"},
        {"a": ["head_shell", "occiput", "chin"], "b": "head_restraint"},
        {"a": ["left_buttock", "right_buttock"], "b": "seat_cushion"},
        {"a": ["left_shank_shell", "right_shank_shell", "left_knee_pad", "right_knee_pad"],
         "b": "bumper"},
        {"a": ["left_knee_pad", "right_knee_contact"], "b": "knee_bolster"},
        {"a": ["pelvis_flesh", "left_thigh_shell"], "b": "seat_cushion"},
        {"a": "occiput", "b": "head_restraint", "characteristic": "foam"},
    ]
    out, notes = human_contacts(tables)
    assert [t["a"] for t in out] == [
        ["head_shell"], ["head_shell", "chin"], ["buttock"],
        ["left_shank_shell", "right_shank_shell", "left_knee_shell", "right_knee_shell"],
        ["left_knee_shell", "right_knee_contact"],
        ["pelvis_flesh", "buttock", "left_thigh_shell"],     # seat_fit.human_cushion's rule
        ["head_shell"]]
    assert out[6]["characteristic"] == "foam"
    assert [n.split(":")[0] for n in notes] == ["contact[0].a", "contact[1].a", "contact[2].a",
                                               "contact[3].a", "contact[4].a", "contact[6].a"]
    assert "'left_buttock' -> 'buttock', 'right_buttock' -> 'buttock'" in notes[2]
    assert "'left_knee_pad' -> 'left_knee_shell', 'right_knee_pad' -> 'right_knee_shell'" in notes[3]
    assert tables[0]["a"] == ["occiput"]       # the scenario's own tables untouched


@pytest.mark.parametrize("sex", sorted(HUMANS))
@pytest.mark.parametrize("name", sorted(available_scenarios()))
def test_reference_every_shipped_scenario_loads_with_either_human(name, sex):
    """Each shipped scenario loads with the human in its dummy's place (unsettled, as posed:
    the settling is the run's), every pair on the human's own geometries."""
    s = load(name, HUMANS[sex] + ["occupant.settle=0"])
    assert s.human and s.model.name.startswith(f"human_{sex}")
    pairs = s.model.source.contact_pairs.values()
    assert not {p.geometry_a for p in pairs} & {"occiput", "left_buttock", "right_buttock",
                                                "left_knee_pad", "right_knee_pad"}


def test_reference_the_human_in_the_dummys_head_restraint_and_cushion_pairs():
    """rear_whiplash and the 5F's Euro NCAP: the restraint bears on the human's head shell,
    the 5F's cushion on the woman's buttock (said in the notes); the pedestrian's bumper on
    the shanks and the human's knee shells in the dummy's knee pads' place, the knees on each
    other as the dummy's pads are (dummies/body_contacts.toml)."""
    rear = load("rear_whiplash", HUMANS["male"] + ["occupant.settle=0"])
    assert [g.name for g in head_restraint(rear.model)[1]] == ["head_shell"]
    assert any("'occiput' -> 'head_shell'" in n for n in rear.notes)
    euro = load("euro_ncap_full_width_50", HUMANS["female"] + ["occupant.settle=0"])
    cushion = {p.geometry_a for p in euro.model.source.contact_pairs.values()
               if p.geometry_b == "seat_cushion"}
    assert "buttock" in cushion and [g.name for g in head_restraint(euro.model)[1]] == ["head_shell"]
    ped = load("pedestrian_40", HUMANS["male"])
    bumper = {p.geometry_a for p in ped.model.source.contact_pairs.values() if p.geometry_b == "bumper"}
    assert {"left_shank_shell", "right_shank_shell", "left_knee_shell", "right_knee_shell"} <= bumper
    knees = [(p.geometry_a, p.geometry_b) for p in ped.model.source.contact_pairs.values()
             if p.geometry_b.endswith("knee_shell")]
    assert knees == [("right_knee_shell", "left_knee_shell")]


@pytest.mark.parametrize("occupant", [[], HUMANS["male"], HUMANS["female"]])
def test_reference_the_t1_accelerometer_sits_at_each_occupants_lower_neck_joint(occupant):
    """rear_whiplash's T1 accelerometer (``point = "lower_neck"``) is at the occupant's own
    C7/T1 joint centre on its upper torso: the Hybrid III's [0.06341, 0, 0.276] m (as the file
    gave it before, so the dummy's run is unchanged), the human's wherever its builder puts it;
    its criteria computed with the constants of the Hybrid III of its sex nearest its size."""
    s = load("rear_whiplash", occupant + ["occupant.settle=0"])
    t1 = next(x for x in s.sensors if x.name == "T1")
    joint = s.model.source.joints["lower_neck"]
    assert t1.body == joint.parent == "upper_torso"
    assert t1.point == tuple(joint.placement.position)
    if not occupant:
        assert t1.point == (0.06341, 0.0, 0.276)
    else:
        assert s.criteria_dummy == ("hybrid3_05f" if occupant == HUMANS["female"] else "hybrid3_50m")


def test_reference_a_sensor_point_naming_a_joint_elsewhere_is_one_message():
    """A joint whose parent is another body: one message with the key and the joints accepted;
    a displacement's ``to_point`` names a joint of its ``to_body`` alike."""
    s = load("rear_whiplash", ["occupant.settle=0"])
    table = {"sensor": [{"kind": "accelerometer", "name": "T1", "body": "upper_torso",
                         "point": "upper_neck", "location": "THSP"}]}
    with pytest.raises(SensorFileError) as err:
        load_sensors(table, s.model)
    text = str(err.value)
    assert "sensor[0].point" in text and "'upper_neck' is not a joint of segment 'upper_torso'" in text
    assert "lower_neck" in text
    table = {"sensor": [{"kind": "displacement", "name": "neck", "body": "upper_torso",
                         "point": "lower_neck", "to_body": "neck", "to_point": "upper_neck",
                         "location": "NECK"}]}
    sensor, = load_sensors(table, s.model)
    assert sensor.to_point == tuple(s.model.source.joints["upper_neck"].placement.position)
    assert sensor.point == (0.06341, 0.0, 0.276)


@pytest.mark.parametrize("human, stand_in", [
    (HUMANS["male"], "hybrid3_50m"), (HUMANS["female"], "hybrid3_05f"),
    (["occupant.human.sex=male", "occupant.human.percentile=95"], "hybrid3_95m"),
    (["occupant.human.sex=male", "occupant.human.stature=1.80", "occupant.human.mass=85"],
     "hybrid3_50m")])
def test_reference_a_human_without_a_regulation_is_read_as_its_nearest_hybrid3(human, stand_in):
    """pedestrian_40 names no regulation: the human's chest deflection, Nij and neck forces are
    computed with the constants of the Hybrid III of its sex nearest its stature (50M 1.753 m,
    95M 1.88, 5F 1.501: the dummy files' headers; a 1.80 m man is nearer the 50M), and the
    run's notes say so; before, those rows were not computable (no dummy's constants)."""
    s = load("pedestrian_40", human)
    assert s.protocol is None and s.reference is None
    assert s.criteria_dummy == stand_in
    assert any(f"computed as the {stand_in}'s, the Hybrid III of its sex nearest" in n
               for n in s.notes)


@pytest.mark.parametrize("scenario, human, stand_in", [
    ("us_ncap_frontal_56", HUMANS["female"], "hybrid3_05f"),
    ("euro_ncap_full_width_50", HUMANS["male"], "hybrid3_50m")])
def test_reference_a_human_under_a_regulation_is_read_as_its_nearest_hybrid3(scenario, human,
                                                                              stand_in):
    """A human in a regulated scenario has its criteria computed with the constants of the
    Hybrid III of its sex nearest its stature, not those of the dummy the regulation judges:
    the 5th-percentile woman in US NCAP (a 50th male's test) with the 5F's Nij intercepts, the
    50th man in Euro NCAP's 5F test with the 50M's (before: the regulation's dummy's). The
    title says the occupant was replaced, in the data a run folder keeps too."""
    s = load(scenario, human + ["occupant.settle=0"])
    assert s.protocol is None and s.reference is not None
    assert s.criteria_dummy == stand_in
    assert any(f"computed as the {stand_in}'s, the Hybrid III of its sex nearest" in n
               for n in s.notes)
    assert s.title.endswith(f"(occupant replaced by --set: {s.dummy})")
    assert s.data["title"] == s.title
