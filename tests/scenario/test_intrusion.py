"""``[[vehicle.intrusion]]`` of a scenario (occupant.scenario.intrusion): interior surfaces moved
by a velocity-time profile, planes and solids alike; errors name the key, the bad value and what
is accepted; the surfaces are held at rest while the occupant settles."""
import numpy as np
import pytest

from occupant.scenario import ScenarioError, load
from occupant.scenario.load import resolve
from occupant.scenario.settle import held

DOOR = '''[vehicle]
interior = "midsize_sedan_driver"

[[vehicle.intrusion]]
name = "door"
surfaces = ["door_panel", "armrest"]
direction = [0.0, -1.0, 0.0]
velocity = [[0.0, 0.0], [0.01, 2.0], [0.02, 0.0]]
'''


def _side(tmp_path, intrusion=DOOR):
    text = resolve("side_barrier").read_text()
    text = text.replace('[vehicle]\ninterior = "midsize_sedan_driver"\n', intrusion)
    path = tmp_path / "side_barrier.toml"
    path.write_text(text)
    return path


def _refused(path, where, message):
    """Loading ``path`` stops with one line naming the file, the key ``where``, ``message`` and
    what is accepted."""
    with pytest.raises(ScenarioError) as err:
        load(path)
    text = str(err.value)
    assert text.startswith(f"{path}: {where}: ") and message in text, text
    assert "(accepted: " in text, text


@pytest.mark.parametrize("edit, where, message", [
    (lambda s: s.replace('"door_panel", "armrest"', '"door_panel", "dor"'),
     "vehicle.intrusion[0].surfaces", "unknown surface 'dor'"),
    (lambda s: s.replace("[[0.0, 0.0], [0.01, 2.0], [0.02, 0.0]]", "[[0.0, 0.0], [0.0, 2.0]]"),
     "vehicle.intrusion[0].velocity", "times must start at 0 or later and increase strictly"),
    (lambda s: s.replace("[[0.0, 0.0], [0.01, 2.0], [0.02, 0.0]]", "[[0.0, 0.0]]"),
     "vehicle.intrusion[0].velocity", "expected >= 2 rows [time s, velocity m/s]"),
    (lambda s: s.replace("[0.0, -1.0, 0.0]", "[0.0, 0.0, 0.0]"),
     "vehicle.intrusion[0].direction", "expected a non-zero"),
    (lambda s: s.replace('name = "door"\n', 'name = "door"\ncolour = 1\n'),
     "vehicle.intrusion[0].colour", "unknown key"),
    (lambda s: s + s[s.index("[[vehicle.intrusion]]"):].replace('"door"', '"window"'),
     "vehicle.intrusion[1].surfaces", "'door_panel' is moved by another intrusion already"),
])
def test_reference_intrusion_errors_name_the_key(tmp_path, edit, where, message):
    _refused(_side(tmp_path, edit(DOOR)), where, message)


def test_reference_intrusion_moves_its_surfaces_and_is_held_while_settling(tmp_path):
    scenario = load(_side(tmp_path))
    contacts = scenario.model.contacts
    assert len(contacts.mover_axis) == 1
    np.testing.assert_allclose(contacts.mover_axis[0], [0.0, -1.0, 0.0])
    model = scenario.model
    moved = {n for n, m in zip(model.contact_names, contacts.mover_b) if m >= 0}
    pairs = model.source.contact_pairs
    door = {n for n in model.contact_names if pairs[n].geometry_b in ("door_panel", "armrest")}
    assert moved and moved == door
    assert "door.displacement" in model.output_names
    assert np.all(held(model).contacts.mover_b == -1)


BOX_ARMREST = """kind = "interior"
name = "sedan_box_armrest"
base = "midsize_sedan_driver"

[[surface]]
name = "armrest"
shape = "box"
point = [0.10, 0.325, 0.20]
half_extents = [0.20, 0.025, 0.05]
characteristic = "armrest"
"""


def _moves_as_placed(model, placed, q0, names):
    """The pairs ``names`` of ``model``, its intrusion 10 ms in, meet the occupant at q0 as those
    of ``placed`` (the surfaces written where the intrusion has them then) at rest, to 1e-9 m,
    having moved more than 1 mm; settling holds the intrusion (held: no pair moved)."""
    from occupant.contact.compliant import signed_distances
    at_rest = [signed_distances(placed, q0, 0.0)[n] for n in names]
    before, moving = ([signed_distances(model, q0, t)[n] for n in names] for t in (0.0, 0.01))
    assert np.isfinite(moving).all() and np.min(np.subtract(moving, before)) > 1e-3
    np.testing.assert_allclose(moving, at_rest, rtol=0, atol=1e-9)
    assert np.all(held(model).contacts.mover_b == -1)


def test_identity_intrusion_moves_a_box_and_holds_it_while_settling(tmp_path):
    """The armrest a block (a box whose inboard face is the shipped plane's), moved with the door
    panel: its pairs are the moved ones; at 10 ms, s = 0.01 m in (the ramp 0 -> 2 m/s
    integrated), the narrow phase meets it exactly as it meets a box placed 0.01 m further in
    at rest (an independent placement: the interior file's point); settling holds it."""
    (tmp_path / "box_armrest.toml").write_text(BOX_ARMREST)
    intrusion = DOOR.replace('interior = "midsize_sedan_driver"', 'interior = "box_armrest.toml"')
    scenario = load(_side(tmp_path, intrusion))
    model = scenario.model
    assert type(model.source.geometries["armrest"]).__name__ == "Box"
    contacts, pairs = model.contacts, model.source.contact_pairs
    moved = {n for n, m in zip(model.contact_names, contacts.mover_b) if m >= 0}
    door = {n for n in model.contact_names if pairs[n].geometry_b in ("door_panel", "armrest")}
    armrest = sorted(n for n in door if pairs[n].geometry_b == "armrest")
    assert armrest and moved == door
    s = 0.5 * 2.0 * 0.01
    (tmp_path / "box_armrest.toml").write_text(BOX_ARMREST.replace("0.325", repr(0.325 - s)))
    placed = load(_side(tmp_path, '[vehicle]\ninterior = "box_armrest.toml"\n'))
    assert not placed.model.contacts.mover_axis.size
    _moves_as_placed(model, placed.model, scenario.q0, armrest)


HINGED = '''[vehicle]
interior = "midsize_sedan_driver"

[[vehicle.intrusion]]
name = "door"
surfaces = ["door_panel", "armrest"]
axis_point = [0.55, 0.35, 0.0]
axis = [0.0, 0.0, 1.0]
angular_velocity_deg = [[0.0, 0.0], [0.01, 400.0], [0.02, 0.0]]
'''
ROWS = "[[0.0, 0.0], [0.01, 400.0], [0.02, 0.0]]"


@pytest.mark.parametrize("edit, where, message", [
    (lambda s: s.replace("angular_velocity_deg", "angular_velocity"),
     "vehicle.intrusion[0].angular_velocity", "angles are given in degrees with the _deg suffix"),
    (lambda s: s.replace("[0.0, 0.0, 1.0]", "[0.0, 0.0, 0.0]"),
     "vehicle.intrusion[0].axis", "expected a non-zero finite 3-vector"),
    (lambda s: s.replace(ROWS, "[[0.0, 0.0], [0.02, 400.0], [0.01, 0.0]]"),
     "vehicle.intrusion[0].angular_velocity_deg",
     "times must start at 0 or later and increase strictly, got [0.0, 0.02, 0.01]"),
    (lambda s: s.replace(ROWS, "[[0.0, 0.0]]"),
     "vehicle.intrusion[0].angular_velocity_deg",
     "expected >= 2 rows [time s, angular velocity deg/s]"),
    (lambda s: s.replace("axis_point = [0.55, 0.35, 0.0]\n", ""),
     "vehicle.intrusion[0].axis_point", "missing (given with axis, angular_velocity_deg)"),
    (lambda s: s.replace("angular_velocity_deg = " + ROWS, "direction = [0.0, -1.0, 0.0]"),
     "vehicle.intrusion[0].velocity", "missing (given with direction)"),
    (lambda s: s.replace(s[s.index("axis_point"):], ""),
     "vehicle.intrusion[0].velocity", "missing (neither a velocity nor an angular_velocity_deg"),
])
def test_reference_turning_intrusion_errors_name_the_key(tmp_path, edit, where, message):
    _refused(_side(tmp_path, edit(HINGED)), where, message)


def test_identity_door_turning_about_its_hinge_meets_the_occupant_as_a_door_placed_there(
        tmp_path):
    """The door panel and armrest turning about the door's front hinge line (vertical, at
    x = 0.55 m on the panel's plane): at 10 ms, theta = 0.5 x 400 deg/s x 0.01 s = 2 deg (the
    ramp integrated, in radians in the model), the narrow phase meets the armrest exactly as it
    meets an armrest placed there at rest (its point, normal and x_axis turned by hand in an
    interior file); settling holds it."""
    scenario = load(_side(tmp_path, HINGED))
    model = scenario.model
    contacts, pairs = model.contacts, model.source.contact_pairs
    assert contacts.mover_turns == 1 and contacts.mover_spin_len[0] == 3
    np.testing.assert_allclose(contacts.mover_hinge[0], [0.55, 0.35, 0.0, 0.0, 0.0, 1.0])
    moved = {n for n, m in zip(model.contact_names, contacts.mover_b) if m >= 0}
    door = {n for n in model.contact_names if pairs[n].geometry_b in ("door_panel", "armrest")}
    armrest = sorted(n for n in door if pairs[n].geometry_b == "armrest")
    assert armrest and moved == door
    th = np.radians(2.0)
    c, s = float(np.cos(th)), float(np.sin(th))
    point = np.array([0.55, 0.35, 0.0]) + np.array([c * -0.45 - s * -0.05, s * -0.45 + c * -0.05,
                                                     0.20])
    placed_armrest = f'''kind = "interior"
name = "sedan_turned_armrest"
base = "midsize_sedan_driver"

[[surface]]
name = "armrest"
shape = "plane"
point = {point.tolist()}
normal = {[s, -c, 0.0]}
x_axis = {[c, s, 0.0]}
half_size = [0.20, 0.05]
characteristic = "armrest"
'''
    (tmp_path / "turned.toml").write_text(placed_armrest)
    placed = load(_side(tmp_path, '[vehicle]\ninterior = "turned.toml"\n'))
    _moves_as_placed(model, placed.model, scenario.q0, armrest)


ACTIVE = '''interior = "whiplash_sled_seat"

[[vehicle.intrusion]]
name = "active_head_restraint"
surfaces = ["head_restraint"]
direction = [0.9848, 0.0, 0.1736]
velocity = [[0.0, 0.0], [0.02, 2.0], [0.04, 0.0]]
'''


def _rear(tmp_path, intrusion):
    """rear_whiplash without its backset placement (which would move a restraint placed by
    hand back to 50 mm from the head), with ``intrusion`` for its [vehicle] interior line."""
    text = resolve("rear_whiplash").read_text()
    head = 'interior = "whiplash_sled_seat"\n'
    assert head in text and "\nbackset = 0.050\n" in text
    path = tmp_path / "rear_whiplash.toml"
    path.write_text(text.replace("\nbackset = 0.050\n", "\n").replace(head, intrusion))
    return path


def _restraint_at(path, point):
    """An interior file at ``path``: the whiplash seat with its head restraint's plane at
    ``point`` (its marker frame, as vehicles/whiplash_sled_seat.toml gives it)."""
    path.write_text(f'''kind = "interior"
name = "seat_moved_restraint"
base = "whiplash_sled_seat"

[[surface]]
name = "head_restraint"
shape = "plane"
point = {np.asarray(point).tolist()}
normal = [0.9848, 0.0, 0.1736]
x_axis = [-0.1736, 0.0, 0.9848]
half_size = [0.0914, 0.125]
characteristic = "head_restraint"
on = "seat_back_frame"
''')


def test_identity_hinged_surface_moves_relative_to_its_part(tmp_path):
    """A surface on a hinge (the rear seat's head restraint on the seat back frame) moved by an
    intrusion relative to its part (an active head restraint coming forward and up along its
    normal, the ramp to 2 m/s at 20 ms: s(10 ms) = 0.5 x 1 m/s x 0.01 s = 5 mm): its pairs are
    the moved ones, its direction held in the hinged part's link frame; at 10 ms the narrow
    phase meets it as it meets a restraint placed 5 mm further along its normal at rest (an
    interior file); settling holds it. Surfaces of different frames in one intrusion are
    refused."""
    scenario = load(_rear(tmp_path, ACTIVE))
    model = scenario.model
    contacts, pairs = model.contacts, model.source.contact_pairs
    moved = {n for n, m in zip(model.contact_names, contacts.mover_b) if m >= 0}
    restraint = sorted(n for n in model.contact_names if pairs[n].geometry_b == "head_restraint")
    assert restraint and moved == set(restraint)
    k = model.marker("seat_back_frame_frame")
    u = np.array([0.9848, 0.0, 0.1736]) / np.linalg.norm([0.9848, 0.0, 0.1736])
    np.testing.assert_allclose(contacts.mover_axis[0], model.marker_R[k] @ u, rtol=0, atol=1e-15)
    assert not np.allclose(contacts.mover_axis[0], u)     # the link's frame is not B0's
    point = np.array([-0.2564, 0.0, 0.61]) + 0.5 * 1.0 * 0.01 * u
    _restraint_at(tmp_path / "forward.toml", point)
    placed = load(_rear(tmp_path, 'interior = "forward.toml"\n'))
    q0 = scenario.q0
    _moves_as_placed(model, placed.model, q0, restraint)
    mixed = ACTIVE.replace('["head_restraint"]', '["head_restraint", "floor"]')
    with pytest.raises(ScenarioError) as err:
        load(_rear(tmp_path, mixed))
    assert ("vehicle.intrusion[0].surfaces: its surfaces are on different frames "
            "('head_restraint' on hinge 'seat_back_frame', 'floor' on the vehicle)") in str(err.value)


TURNING = '''
[[vehicle.intrusion]]
name = "active_head_restraint"
surfaces = {surfaces}
axis_point = {axis_point}
axis = [0.0, 1.0, 0.0]
angular_velocity_deg = [[0.0, 0.0], [0.02, -200.0], [0.04, 0.0]]
'''
RESTRAINT_POINT = np.array([-0.2564, 0.0, 0.61])   # vehicles/whiplash_sled_seat.toml's
HINGE = [-0.30, 0.0, 0.50]                           # below the restraint, on the seat back [E]


def _turning_rear(tmp_path, surfaces, backset=True, hinge=HINGE, interior=None):
    """rear_whiplash with its head restraint (and ``surfaces``) turned forward about a hinge on
    the seat back frame; its backset placement kept or not; another interior file if given."""
    text = resolve("rear_whiplash").read_text()
    head, backset_line, pulse = 'interior = "whiplash_sled_seat"\n', "\nbackset = 0.050\n", "\n[pulse]"
    assert all(part in text for part in (head, backset_line, pulse))
    if interior:
        text = text.replace(head, f'interior = "{interior}"\n')
    if not backset:
        text = text.replace(backset_line, "\n")
    turning = TURNING.format(surfaces=list(surfaces), axis_point=[float(x) for x in hinge]).replace("'", '"')
    path = tmp_path / "rear_whiplash.toml"
    path.write_text(text.replace(pulse, turning + pulse))
    return load(path)


def test_identity_backset_placement_moves_an_active_restraints_hinge_with_it(tmp_path):
    """The backset placement moves a restraint that an intrusion turns on its own (an active
    head restraint's mechanism) with its hinge: at 30 ms (turned 3.5 deg) the placed restraint
    meets the head as the same restraint written at its placed point, its hinge moved alike, in
    an interior file without the placement (to 1e-9 m). Turning with another surface (the seat
    back, here), it turns about a hinge of the seat, which the placement leaves (the compiled
    hinge as without the placement)."""
    from occupant.contact.compliant import signed_distances
    placed = _turning_rear(tmp_path, ["head_restraint"])
    restraint = placed.model.source.geometries["head_restraint"]
    moved = restraint.point - RESTRAINT_POINT
    assert np.linalg.norm(moved) > 0.03                 # the placement moved it 40 mm rearward
    motion = placed.model.source.surface_motions["active_head_restraint"]
    np.testing.assert_allclose(motion.axis_point, np.add(HINGE, moved), rtol=0, atol=1e-15)
    _restraint_at(tmp_path / "written.toml", restraint.point)
    reference = _turning_rear(tmp_path, ["head_restraint"], backset=False,
                              hinge=np.add(HINGE, moved), interior="written.toml")
    names = [n for n in placed.model.contact_names
             if placed.model.source.contact_pairs[n].geometry_b == "head_restraint"]
    q, t = placed.q0, 0.03
    ours = [signed_distances(placed.model, q, t)[n] for n in names]
    theirs = [signed_distances(reference.model, q, t)[n] for n in names]
    at_rest = [signed_distances(placed.model, q, 0.0)[n] for n in names]
    assert np.max(np.abs(np.subtract(ours, at_rest))) > 1e-3     # it has turned
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9)
    with_seat = _turning_rear(tmp_path, ["head_restraint", "seat_back"])
    unplaced = _turning_rear(tmp_path, ["head_restraint", "seat_back"], backset=False)
    assert np.array_equal(with_seat.model.contacts.mover_hinge, unplaced.model.contacts.mover_hinge)
