"""The registry of scenario keys (occupant.scenario.keys) against the shipped scenario files, the
readers it describes, the loader's messages, the report's settings table and ``occupant list
--keys``."""
import math
import tomllib

import pytest

from occupant.scenario import load
from occupant.scenario.keys import KEYS, REQUIRED, entry, names, pattern, read
from occupant.scenario.load import ScenarioError
from occupant.shipped import shipped_dir


def _scenario_files():
    """Every shipped file the scenario loader reads: scenarios/*.toml and the validation cases'
    full scenarios (kind = "scenario" with a [solver] table), not the certification and
    validation case files of their own runners."""
    root = shipped_dir("scenarios")
    out = []
    for path in sorted(root.rglob("*.toml")):
        data = tomllib.loads(path.read_text())
        if data.get("kind") == "scenario" and "solver" in data:
            out.append((path, data))
    return out


FILES = _scenario_files()


def _leaves(table, path=""):
    """(key path, value) of every key in ``table``, into its tables and arrays of tables as far
    as the registry describes them (a table it leaves to another reader, e.g. a posture
    target's seat_track, is one key)."""
    for key, value in table.items():
        here = f"{path}.{key}" if path else key
        yield here, value
        deeper = any(p.startswith(pattern(here) + ".") or p.startswith(pattern(here) + "[].")
                     for p in KEYS)
        if isinstance(value, dict) and deeper:
            yield from _leaves(value, here)
        elif isinstance(value, list) and value and all(isinstance(x, dict) for x in value) and deeper:
            for i, t in enumerate(value):
                yield from _leaves(t, f"{here}[{i}]")


def test_reference_every_shipped_scenario_key_is_in_the_registry_and_passes_its_check():
    """Every key of every shipped scenario (8 in scenarios/, GS1's in validation/data) is a
    registry entry, and its value passes that entry's check."""
    assert len(FILES) >= 9, [p.name for p, _ in FILES]
    seen = set()
    for path, data in FILES:
        for key, value in _leaves(data):
            k = entry(key)
            assert k is not None, f"{path.name}: {key} is not in occupant.scenario.keys"
            assert k.check(value) is None, f"{path.name}: {key} = {value!r}: {k.check(value)}"
            seen.add(k.path)
    assert len(seen) > 100      # measured 103: the check walks the files' every table


def test_identity_every_default_passes_its_own_check():
    defaults = [k for k in KEYS.values() if k.default is not None and k.default is not REQUIRED]
    assert len(defaults) > 20
    for k in defaults:
        assert k.check(list(k.default) if isinstance(k.default, tuple) else k.default) is None, k.path


def test_identity_every_entry_is_whole():
    """A known kind, a meaning, a unit where the name says one (conventions rule 7: _kmh, _deg,
    _g; rows: their values' column, deg/s for an angular velocity's), choices only on strings,
    a range only on numbers, and a parent table for every key."""
    from occupant.scenario.keys import KINDS
    for p, k in KEYS.items():
        assert k.kind in KINDS and k.meaning and k.path == p, p
        for suffix, unit in (("_kmh", "km/h"), ("_deg", "deg"), ("_g", "g")):
            if k.name.endswith(suffix):
                values = k.unit.split(", ")[-1] if k.kind == "rows" else k.unit
                assert values in (unit, f"{unit}/s" if k.kind == "rows" else unit), p
        if k.kind == "number":
            assert k.unit, f"{p}: a number needs a unit (- for none)"
        assert k.choices is None or k.kind in ("string", "strings"), p
        assert (k.low is None and k.high is None) or k.kind == "number", p
        parent = p.rsplit(".", 1)[0].removesuffix("[]") if "." in p else None
        assert parent is None or parent in KEYS, p
        assert k.accepted(), p


def test_identity_registry_lists_the_shared_readers_keys():
    """The tables read by a reader shared with other files hold that reader's keys, no more,
    no fewer; the pulse's shapes take keys of the registry only, every one of them by some
    shape."""
    from occupant.human.posture import TARGET_KEYS
    from occupant.modeling.contacts_toml import CHARACTERISTIC_KEYS, PAIR_KEYS
    from occupant.scenario.pulse import KEYS as PULSE_KEYS
    from occupant.sensors.loader import _KEYS as SENSOR_KEYS
    assert set(names("contact[]")) == set(PAIR_KEYS)
    assert set(names("contact_characteristic.foam")) == set(CHARACTERISTIC_KEYS)
    assert set(names("occupant.posture_targets")) == set(TARGET_KEYS)
    assert set(names("sensor[]")) == set().union(*SENSOR_KEYS.values())
    assert set(names("pulse")) == set().union(*PULSE_KEYS.values())


def test_analytic_pattern_and_names():
    assert pattern("contact[12].a") == "contact[].a"
    assert pattern("contact_characteristic.seat_foam.table") == "contact_characteristic.*.table"
    assert pattern("restraints.belt.barriers.neck_shell") == "restraints.belt.barriers.*"
    assert entry("restraints.colour") is None and entry("solver.t_end").unit == "s"
    assert names("solver") == ("t_end", "integrator", "dt", "output_dt")
    assert names("occupant.ellipsoid[3]") == ("name", "segment", "center", "semi_axes")


@pytest.mark.parametrize("key, value, accepted", [
    ("solver.t_end", 0.0, True), ("solver.t_end", 10.0, False), ("solver.t_end", 10.01, True),
    ("solver.t_end", math.inf, True), ("solver.t_end", True, True), ("solver.t_end", "0.1", True),
    ("occupant.settle", 0.0, False), ("occupant.settle", -1e-9, True),
    ("occupant.seat", "front_right", False), ("occupant.seat", "boot", True),
    ("occupant.h_point", [0, 0, 0], False), ("occupant.h_point", [0, 0], True),
    ("restraints.belt.chest_flank", [0, 1, 0, 0.02], False), ("restraints.belt.chest_flank", [0, 1, 0], True),
    ("criteria.show", ["NIC"], False), ("criteria.show", ["NIC2"], True), ("criteria.show", [], True),
    ("contact[0].a", "chin", False), ("contact[0].a", ["chin", "head"], False), ("contact[0].a", 3, True),
])
def test_analytic_check_refuses_what_is_not_accepted(key, value, accepted):
    assert (entry(key).check(value) is not None) == accepted


class _Checker:
    """A FileChecker's fail and where, raising the message."""
    file = "f.toml"

    @staticmethod
    def where(path, key):
        return f"{path}.{key}" if path else key

    def fail(self, path, problem, accepted=None):
        raise ScenarioError(self.file, path, problem, accepted)


@pytest.mark.parametrize("table, key, message", [
    ({}, "t_end", "f.toml: solver.t_end: missing (accepted: a number, 0 < t_end <= 10 s)"),
    ({"t_end": -1}, "t_end", "f.toml: solver.t_end: must be > 0 s, got -1 (accepted: a number, 0 < t_end <= 10 s)"),
    ({"t_end": 11}, "t_end", "f.toml: solver.t_end: 11 s is outside the range accepted (accepted: a number, "
                             "0 < t_end <= 10 s)"),
    ({"integrator": "leapfrog"}, "integrator", "f.toml: solver.integrator: unknown integrator 'leapfrog' "
                                               "(accepted: {integrators})"),
    ({"dt": "small"}, "dt", "f.toml: solver.dt: expected a finite number, got 'small' (accepted: a number, "
                            "dt > 0 s)"),
])
def test_regression_read_names_file_key_and_what_is_accepted(table, key, message):
    with pytest.raises(ScenarioError) as err:
        read(_Checker(), table, "solver", key)
    assert str(err.value) == message.format(integrators="euler, rk4, dopri5, newmark, radau, bdf")


def test_regression_read_gives_defaults():
    c = _Checker()
    assert read(c, {}, "solver", "output_dt") == 1e-4 and read(c, {}, "solver", "dt") is None
    assert list(read(c, {}, "pulse", "direction")) == [1.0, 0.0, 0.0]
    assert read(c, {}, "restraints.belt", "load_limit", default=math.inf) == math.inf
    assert read(c, {"t_end": 1}, "solver", "t_end") == 1.0 and isinstance(read(c, {"t_end": 1}, "solver", "t_end"), float)


@pytest.mark.parametrize("overrides, message", [
    ({"restraints.belt.friction": -0.1}, "restraints.belt.friction: must be >= 0, got -0.1 (accepted: a number, "
                                         "friction >= 0)"),
    ({"restraints.belt.load_limit": 0}, "restraints.belt.load_limit: must be >= 1000 N, got 0 (accepted: a "
                                        "number, load_limit >= 1000 N)"),
    # kN meant: a 4 N limiter paid the belt out from the start, unsaid
    ({"restraints.belt.load_limit": 4}, "restraints.belt.load_limit: must be >= 1000 N, got 4 (accepted: a "
                                        "number, load_limit >= 1000 N)"),
    ({"restraints.belt.pretensioner_force": 2}, "restraints.belt.pretensioner_force: must be >= 500 N, got 2 "
                                                "(accepted: a number, pretensioner_force >= 500 N)"),
    ({"pulse.start": -1}, "pulse.start: must be >= 0 s, got -1 (accepted: a number, start >= 0 s)"),
    # mm meant (usercheck6): ran, the stall force ending the pull
    ({"restraints.belt.pretensioner_pull": 80},
     "restraints.belt.pretensioner_pull: 80 m is outside the range accepted (accepted: a number, "
     "0 <= pretensioner_pull <= 0.3 m)"),
    # m/h meant (usercheck9): a 48000 km/h sled ran
    ({"pulse.speed_kmh": 48000}, "pulse.speed_kmh: 48000 km/h is outside the range accepted (accepted: "
                                 "a number, 0 <= speed_kmh <= 300 km/h)"),
    ({"pulse.delta_v_kmh": 4800}, "pulse.delta_v_kmh: 4800 km/h is outside the range accepted (accepted: "
                                  "a number, 0 < delta_v_kmh <= 200 km/h)"),
    ({"solver.colour": 1}, "solver.colour: unknown key (accepted: t_end, integrator, dt, output_dt)"),
    # (usercheck7) "unknown criterion 'HIC15'": it is computed in every run
    ({"criteria.show": ["NIC", "HIC15"]}, "criteria.show: criterion 'HIC15' is in every run's table already: "
                                          "show adds others (accepted: neck shear, "),
])
def test_regression_loader_messages_come_from_the_registry(overrides, message):
    """A bad value of a shipped scenario, given by --set: one line naming the --set, the key and
    what the registry accepts."""
    with pytest.raises(ScenarioError) as err:
        load("fmvss208_sled_48_belted", overrides=overrides)
    assert f"(--set {next(iter(overrides))}): {message}" in str(err.value)


@pytest.mark.parametrize("overrides, message", [
    # cm^2 meant: a bag that held nothing, the head 429 mm forward (189 as shipped), unsaid
    ({"restraints.airbag.vent_area": 20}, "restraints.airbag.vent_area: 20 m^2 is outside the range "
                                          "accepted (accepted: a number, 0 <= vent_area <= 0.02 m^2)"),
    # litres meant: refused by the bag's unfolding speed ("leading_edge_speed ... got 69.3 m/s"),
    # the volume unnamed
    ({"restraints.knee_airbag.volume": 18}, "restraints.knee_airbag.volume: 18 m^3 is outside the range "
                                            "accepted (accepted: a number, 0 < volume <= 0.3 m^3)"),
])
def test_regression_an_airbag_value_in_another_unit_is_refused_naming_it(overrides, message):
    """A bag's volume in litres or its vents in cm^2, given by --set: one line naming the key and
    its range (usercheck6)."""
    with pytest.raises(ScenarioError) as err:
        load("us_ncap_frontal_56", overrides=overrides)
    assert str(err.value).endswith(f"(--set {next(iter(overrides))}): {message}"), str(err.value)


def test_regression_override_of_another_type_says_what_the_key_accepts():
    from occupant.scenario.overrides import OverrideError, apply_overrides
    with pytest.raises(OverrideError, match=r"^--set pulse.speed_kmh='fast': pulse.speed_kmh: the scenario "
                                            r"has a number here \(56.0\), got 'fast' \(accepted: a number, "
                                            r"0 <= speed_kmh <= 300 km/h\)$"):
        apply_overrides({"pulse": {"speed_kmh": 56.0}}, ["pulse.speed_kmh=fast"])


@pytest.mark.parametrize("key, value, found", [
    ("pulse.duration", -0.1, ("pulse.duration", "must be > 0 s, got -0.1", "a number, duration > 0 s")),
    ("solver.integrator", "leapfrog", ("solver.integrator", "unknown integrator 'leapfrog'",
                                       "euler, rk4, dopri5, newmark, radau, bdf")),
    ("solver.colour", 1, ("solver.colour", "unknown key", "t_end, integrator, dt, output_dt")),
    ("solvr.t_end", 0.1, ("solvr", "unknown key", ", ".join(names("")))),       # its first unknown part
    ("occupant.yaw", 3.0, ("occupant.yaw", "angles are given in degrees with the _deg suffix", "yaw_deg")),
    ("solver.t_end.x", 1, ("solver.t_end", "is a number, not a table of keys", "a key path through tables")),
    ("solver", 3, ("solver", "expected a table, got 3", "a table")),
    # a table given whole: key by key
    ("restraints", {"belt": {"load_limit": -3}}, ("restraints.belt.load_limit", "must be >= 1000 N, got -3",
                                                   "a number, load_limit >= 1000 N")),
    ("contact_characteristic.foam.colour", 1, ("contact_characteristic.foam.colour", "unknown key",
                                               ", ".join(names("contact_characteristic.foam")))),
    ("contact[0].a", "head", ("contact[0]", "an entry of an array of tables is not given by its index",
                              "the whole array, contact=[{...}, ...]")),
    ("solver.integrator", "radau", None),
    ("contact_characteristic.foam", {"stiffness": 1e5, "exponent": 1.5}, None),
])
def test_analytic_value_problem_names_the_key_at_fault(key, value, found):
    from occupant.scenario.keys import value_problem
    assert value_problem(key, value) == found


@pytest.mark.parametrize("path, data", FILES, ids=[p.stem for p, _ in FILES])
def test_reference_every_shipped_table_given_whole_passes_the_override_check(path, data):
    """Each shipped scenario's every top-level value, given as one --set, passes the check that
    refuses a --set or --vary before the scenario loads (it refuses nothing the loader takes)."""
    from occupant.scenario.keys import value_problem
    assert [value_problem(k, v) for k, v in data.items()] == [None] * len(data)


def test_regression_settings_table_prints_units():
    """The report's settings table printed values without units (reportlook2): each value now
    carries its key's unit."""
    from occupant.report import tables as T
    rows = dict(T.with_units(T.flatten({
        "solver": {"t_end": 0.15, "integrator": "euler"}, "pulse": {"delta_v_kmh": 56.0, "scale": 1.0},
        "occupant": {"h_point": [0.0, 0.0, 0.1]}, "restraints": {"belt": {"load_limit": 4000.0}},
        "contact_characteristic": {"foam": {"table": [[0.0, 0.0], [0.02, 600.0]], "damping": 2e3}},
        "colour": "red"})))
    assert rows == {"solver.t_end": "0.15 s", "solver.integrator": "euler", "pulse.delta_v_kmh": "56.0 km/h",
                    "pulse.scale": "1.0", "occupant.h_point": "[0.0, 0.0, 0.1] m",
                    "restraints.belt.load_limit": "4000.0 N",
                    "contact_characteristic.foam.table": "[[0.0, 0.0], [0.02, 600.0]] (m, N)",
                    "contact_characteristic.foam.damping": "2000.0 N s/m^2", "colour": "red"}


def test_reference_list_keys_prints_every_key():
    from occupant.scenario.command import list_command
    lines = []
    assert list_command(out=lines.append, keys=True) == 0
    text = "\n".join(lines)
    for p in KEYS:
        assert f"\n{p} " in text, p
    assert "solver.t_end" in text and "0 < t_end <= 10 s; required" in text
    # an interior file's shapes, the vehicle's spheres and ellipsoids among them
    assert "[[surface]] shapes: plane, box, cylinder, sphere, ellipsoid, mesh" in text


def test_reference_a_side_barriers_speed_is_said_to_enter_as_the_struck_cars_delta_v(capsys):
    """(usercheck12) A researcher changing side_barrier's barrier speed found no key for it
    (``occupant list --keys``) and --set pulse.barrier_speed_kmh was "unknown key" with the
    pulse's keys alone. The struck car's pulse is the input (a speed scales no recorded pulse,
    and the delta-v a speed gives depends on the masses): no key pretends, the key table and the
    refusal say how the speed enters, with side_barrier's own figures, which its pulse matches
    (60 x 1400 / 2900 = 28.97 km/h, the file's 29.0)."""
    from occupant.cli import main
    for key in ("pulse.barrier_speed_kmh", "barrier_speed_kmh", "pulse.mdb_speed_kmh"):
        with pytest.raises(ScenarioError, match=r"unknown key \(accepted: .*; no key takes a striking barrier's "
                                                r"speed: it enters as the struck car's pulse.delta_v_kmh, for a "
                                                r"plastic impact v_barrier x m_barrier / \(m_barrier \+ m_car\) "
                                                r"\(side_barrier: 60 km/h x 1400 / \(1400 \+ 1500\) kg = 29.0 km/h"):
            load("side_barrier", overrides={key: 50.0})
    assert 60.0 * 1400 / 2900 == pytest.approx(load("side_barrier").pulse.delta_v * 3.6, abs=0.05)
    assert main(["list", "--keys"]) == 0
    out = capsys.readouterr().out
    described = out[out.index("\npulse.delta_v_kmh "):out.index("\npulse.peak_g ")]
    assert "a side impact's is the struck car's, not the barrier's speed" in described
    assert "no key takes the barrier's speed" in described


@pytest.mark.parametrize("speed", [50.0, 60.0])
def test_regression_a_speed_on_a_side_pulse_is_refused_naming_what_the_side_case_takes(speed):
    """(usercheck13) ``--set pulse.speed_kmh=50`` on side_barrier ran: the struck car and the
    occupant moved sideways together at 50 km/h before the impact, and nothing changed but the
    printed speeds ("vehicle 50.0 -> 21.0 km/h"). A lateral pulse takes only 0 now; the refusal
    names the key, the accepted value and how a barrier's speed enters (its delta-v)."""
    with pytest.raises(ScenarioError, match=r"pulse\.speed_kmh: .*side pulse.*only the printed speeds.*"
                                            r"\(accepted: 0 \(the struck car at rest\); a striking barrier's "
                                            r"speed enters as the struck car's pulse\.delta_v_kmh, .*= 29\.0 km/h"):
        load("side_barrier", overrides={"pulse.speed_kmh": speed})
    assert load("side_barrier", overrides={"pulse.speed_kmh": 0.0}).pulse.speed0 == 0.0
    assert load("us_ncap_frontal_56", overrides={"pulse.speed_kmh": speed}).pulse.speed0 == pytest.approx(speed / 3.6)
