"""The default tibia load cells of the Hybrid III lower legs (occupant.sensors.defaults; the dummy
files' ``upper_tibia_load_cell`` / ``lower_tibia_load_cell`` markers) against a static load by
hand: no gravity, no motion, the standing leg (the neutral configuration) pushed at the ankle's
centre by a force P = (Px, 0, Pz) in B0 on the foot. Each cell then carries the whole of P (the
lower leg and foot do not accelerate), read as the load on the part above the cell in the lower
leg's J211 axes (x forward, y right, z down): Fx = Px, Fz = -Pz (an upward push is compression,
negative), and about its own point, d above the ankle, My = d Px (the push ahead of the ankle's
line turns the part above, about J211 y, by r x F with r = (0, 0, -d) in B0, y flipped). A load on the
lower leg itself counts at the knee, above the upper cell (the sled scenarios' knee contact
spheres at the knee's centre): a 5 kN push there leaves both cells' readings as they were (the
femur takes it)."""
import numpy as np
import pytest

from occupant.dynamics import link_poses
from occupant.human import load_dummy
from occupant.sensors import evaluate, segment_frame
from occupant.sensors.defaults import default_sensors

# each cell's height above the ankle's centre, m: the knee-ankle length of the file (50M 405.6,
# 5F 341.5 (its own, fivefleg), 95M 435.0 mm) less the upper cell's distance below the knee (50M 100.0 [D], 5F 86.8
# [S], 95M 106.0 mm [S]), and the lower cell's above the ankle (78.0 [D], 72.3 [S], 80.6 mm [S];
# the open FE decks' cells, dummies/tools/derive_hybrid3.py TIBIA_LOAD_CELLS)
ABOVE_ANKLE = {"hybrid3_50m": {"upper": 0.4056 - 0.1000, "lower": 0.0780},
               "hybrid3_05f": {"upper": 0.3415 - 0.0868, "lower": 0.0723},
               "hybrid3_95m": {"upper": 0.4350 - 0.1060, "lower": 0.0806}}


def _static(model, f_foot):
    import types
    q = model.neutral_configuration()
    z = np.zeros(model.nv)
    return types.SimpleNamespace(t=np.array([0.0, 1e-4]), q=np.array([q, q]), v=np.array([z, z]),
                                 vdot=np.array([z, z]), base_states=np.zeros((2, 12)),
                                 f_ext=np.array([f_foot, f_foot]))


@pytest.mark.parametrize("dummy", sorted(ABOVE_ANKLE))
def test_closed_form_tibia_cells_under_a_push_at_the_ankle(dummy):
    m = load_dummy(dummy)
    P = np.array([200.0, 0.0, 1000.0])         # N in B0: 0.2 kN forward, 1 kN up
    data = m.make_data()
    R, p = link_poses(m, data, m.neutral_configuration())
    f = np.zeros((m.nl, 6))
    for side in ("left", "right"):
        lk = m.body_link[m.body(f"{side}_foot")]
        ankle = p[m.joint_links[m.joint(f"{side}_ankle")][-1]]
        f[lk] = np.concatenate([R[lk].T @ np.cross(ankle - p[lk], P), R[lk].T @ P])
        b = m.body(f"{side}_lower_leg")
        np.testing.assert_allclose(R[m.body_link[b]] @ segment_frame(m, b)[0], np.eye(3),
                                   atol=1e-12)                         # the standing leg
    cells = [s for s in default_sensors(m) if "tibia" in s.name]
    assert len(cells) == 4
    ch = {c.name: c for c in evaluate(m, _static(m, f), cells)}
    knee = f.copy()
    for side in ("left", "right"):
        lk = m.body_link[m.body(f"{side}_lower_leg")]
        at = p[m.joint_links[m.joint(f"{side}_knee")][-1]]
        push = np.array([-5000.0, 0.0, 0.0])
        knee[lk] = np.concatenate([R[lk].T @ np.cross(at - p[lk], push), R[lk].T @ push])
    pushed = {c.name: c.values[0] for c in evaluate(m, _static(m, knee), cells)}
    for name, c in ch.items():
        assert pushed[name] == pytest.approx(c.values[0], abs=1e-6), name
    for side in ("Left", "Right"):
        for level in ("upper", "lower"):
            d = ABOVE_ANKLE[dummy][level]
            name = f"{side} {level} tibia"
            read = {k: ch[f"{name} {q} {a}"].values[0] for q, k0 in (("force", "F"), ("moment", "M"))
                    for a in "XYZ" for k in [k0 + a.lower()]}
            assert read["Fx"] == pytest.approx(200.0, abs=1e-6)
            assert read["Fz"] == pytest.approx(-1000.0, abs=1e-6)      # compression
            assert read["My"] == pytest.approx(d * 200.0, abs=1e-6)
            for k in ("Fy", "Mx", "Mz"):
                assert read[k] == pytest.approx(0.0, abs=1e-6)
            code = ch[f"{name} force Z"].code
            assert code[2:10] == f"TIBI{side[:2].upper()}{'UP' if level == 'upper' else 'LO'}", code


def test_closed_form_the_standing_humans_tibia_cells_carry_the_weight_above_them():
    """The parametric human's tibia cells (occupant.sensors.defaults.human_sensors: the Hybrid III
    50M's cells' places, 100.0 and 327.6 mm below its knee of its 405.6 mm knee-ankle length,
    scaled by the human's own) on the standing 50th male (the neutral configuration) at rest
    under gravity, each ankle's centre pushed up by half the body weight W / 2 (the floor's
    reaction on a standing body): the lower cell, read across the ankle, carries W / 2 less the
    foot's weight, the upper one, read across the knee, W / 2 less the foot's and the lower
    leg's (the few cm of tibia between the knee and the cell neglected, as the dummy's), both
    in compression (Fz < 0), with no shear; the one moment is the foot's weight's, its centre
    of mass x_f ahead of the ankle: My = -m_foot g x_f (J211 y points right). Then, without
    gravity, a 200 N forward push at the ankle: each cell's My is 200 N times its height
    above the ankle."""
    from occupant.human import build
    from occupant.model.base_motion import fixed_base_state
    from occupant.sensors.defaults import tibia_cell_fractions
    assert tibia_cell_fractions() == pytest.approx({"upper": 100.0 / 405.6, "lower": 327.6 / 405.6},
                                                   abs=1e-12)
    m = build(sex="male", percentile=50)
    g = 9.81
    parts = m.source.parts
    W = g * sum(p.mass for p in parts.values())
    shank = -m.source.joints["left_ankle"].placement.position[2]      # the knee-ankle length
    data = m.make_data()
    R, p = link_poses(m, data, m.neutral_configuration())

    def at_ankles(P):
        f = np.zeros((m.nl, 6))
        for side in ("left", "right"):
            lk = m.body_link[m.body(f"{side}_foot")]
            ankle = p[m.joint_links[m.joint(f"{side}_ankle")][-1]]
            f[lk] = np.concatenate([R[lk].T @ np.cross(ankle - p[lk], P), R[lk].T @ P])
        return f

    cells = [s for s in default_sensors(m) if "tibia" in s.name]
    assert len(cells) == 4
    standing = _static(m, at_ankles(np.array([0.0, 0.0, W / 2])))
    standing.base_states = np.array([fixed_base_state((0.0, 0.0, -g))] * 2)
    ch = {c.name: c.values[0] for c in evaluate(m, standing, cells)}
    pushed = {c.name: c.values[0] for c in evaluate(m, _static(m, at_ankles(np.array([200.0, 0, 0]))),
                                                     cells)}
    for side in ("left", "right"):
        foot, leg = parts[f"{side}_foot"].mass * g, parts[f"{side}_lower_leg"].mass * g
        for level, carried in (("lower", W / 2 - foot), ("upper", W / 2 - foot - leg)):
            name = f"{side.title()} {level} tibia"
            assert ch[f"{name} force Z"] == pytest.approx(-carried, rel=1e-12)
            for k in ("force X", "force Y", "moment X", "moment Z"):
                assert ch[f"{name} {k}"] == pytest.approx(0.0, abs=1e-9), k
            x_f = parts[f"{side}_foot"].com[0]
            assert x_f > 0.05                                   # ahead of the ankle
            assert ch[f"{name} moment Y"] == pytest.approx(-foot * x_f, rel=1e-12)
            above = (1.0 - tibia_cell_fractions()[level]) * shank
            assert pushed[f"{name} moment Y"] == pytest.approx(200.0 * above, rel=1e-12)
            assert pushed[f"{name} force X"] == pytest.approx(200.0, rel=1e-12)
