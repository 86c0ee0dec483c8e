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
    path = _side(tmp_path, edit(DOOR))
    with pytest.raises(ScenarioError) as err:
        load(path)
    text = str(err.value)
    assert text.startswith(f"{path}: {where}: ") and message in text, text
    assert "(accepted: " in text, text


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


def test_identity_intrusion_moves_a_box_and_holds_it_while_settling(tmp_path):
    """The armrest a block (a box whose inboard face is the shipped plane's), moved with the door
    panel: its pairs are the moved ones; at 10 ms, s = 0.01 m in (the ramp 0 -> 2 m/s
    integrated), the narrow phase meets it exactly as it meets a box placed 0.01 m further in
    at rest (an independent placement: the interior file's point); settling holds it."""
    from occupant.contact.compliant import signed_distances
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
    at_rest = [signed_distances(placed.model, scenario.q0, 0.0)[n] for n in armrest]
    before, moving = ([signed_distances(model, scenario.q0, t)[n] for n in armrest]
                      for t in (0.0, 0.01))
    assert np.isfinite(moving).all() and np.min(np.subtract(moving, before)) > 1e-3
    np.testing.assert_allclose(moving, at_rest, rtol=0, atol=1e-9)
    assert np.all(held(model).contacts.mover_b == -1)
