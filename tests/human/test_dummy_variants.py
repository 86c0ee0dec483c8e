"""Dummy variants (occupant.human.variants): a file naming a ``base`` dummy and only what differs,
here the pedestrian Hybrid III 50th male (dummies/hybrid3_50m_pedestrian.toml)."""
import math

import numpy as np
import pytest

from occupant.dynamics import body_poses
from occupant.human import DummyFileError, load_dummy
from occupant.human.loader import load_description
from occupant.spatial import rot_y
from tests.dummy_tools import dummy_tool

from test_dummies import _ellipsoid_extremes

PED, BASE = "hybrid3_50m_pedestrian", "hybrid3_50m"
STATURE = 1.753            # m, Hybrid III 50th male [C] (crash-domain-facts.md 1.1)
TILT = math.radians(18.3)  # pelvic tilt change sitting -> standing, Endo et al. 2012 [S]
EAR_BEHIND_HIP = 0.003     # m, standing alignment, Woodhull et al. 1985 [S]
TURNED = ("upper_torso", "sternum", "neck")        # contents turned back with the thorax
CHANGED = ("pelvis", "lumbar", *TURNED, "head", "left_upper_arm", "right_upper_arm")
ADDUCTION = ("lower", "upper")   # the hips' x range: adduction 30 deg [U rom-hindawi]


@pytest.fixture(scope="module")
def described():
    return {n: dict((s.name, s) for s in load_description(n)[1]) for n in (PED, BASE)}


@pytest.fixture(scope="module")
def derived():
    """The derivation record's figures (dummies/tools/derive_pedestrian.py)."""
    return dummy_tool("derive_pedestrian").derive()


def test_identity_variant_keeps_every_value_of_its_base_it_does_not_give(described):
    ped, base = described[PED], described[BASE]
    assert list(ped) == list(base)
    for name, b in base.items():
        p = ped[name]
        assert p.mass == b.mass and p.parent == b.parent and p.joint_kind == b.joint_kind
        assert np.array_equal(p.inertia, b.inertia) or name in ("pelvis", *TURNED)
        assert len(p.resistances) == len(b.resistances)
        for r, q in zip(p.resistances, b.resistances):
            keys = [k for k in vars(r) if not (name.endswith("upper_leg") and k in ADDUCTION)]
            assert all(np.array_equal(getattr(r, k), getattr(q, k)) for k in keys), name
        if name in CHANGED:
            continue
        assert np.array_equal(p.com, b.com) and np.array_equal(p.location, b.location), name
        for e, f in zip(p.ellipsoids, b.ellipsoids):
            assert np.array_equal(e.center, f.center) and np.array_equal(e.semi_axes, f.semi_axes)
    header = load_description(PED)[0]
    assert header["base"] == BASE and header["name"] == PED and header["stature"] == STATURE


def test_identity_standing_pelvis_is_the_seated_pelvis_turned_forward(described):
    """Every pelvis figure of the variant is the base's turned 18.3 deg about the hip axis (y
    through the H-point), to the file's rounding; the lumbar column is straight."""
    ped, base = described[PED], described[BASE]
    R = rot_y(TILT)
    p, b = ped["pelvis"], base["pelvis"]
    assert np.allclose(p.com, R @ b.com, atol=1e-6)
    assert np.allclose(p.inertia, R @ b.inertia @ R.T, atol=1e-9)
    e, f = p.ellipsoids[0], b.ellipsoids[0]
    assert np.allclose(e.center, R @ f.center, atol=1e-6)
    assert np.allclose(e.R_segment_ellipsoid, R @ f.R_segment_ellipsoid, atol=1e-12)
    assert np.array_equal(e.semi_axes, f.semi_axes)
    assert np.allclose(ped["lumbar"].location, R @ base["lumbar"].location, atol=1e-6)
    w = ped["upper_torso"].location
    assert w[0] == 0.0 and w[1] == 0.0


def test_identity_standing_thorax_is_the_seated_one_turned_back_about_w(described, derived):
    """Upper torso, sternum and neck: every figure is the base's turned back by the derived
    angle about W (rot_y(-beta)), to the file's rounding; the shoulders and the OC move with
    them, the head and arms keep their orientation; the column has the fitted length."""
    ped, base = described[PED], described[BASE]
    R = derived["R_torso"]
    for name in TURNED:
        p, b = ped[name], base[name]
        assert np.allclose(p.com, R @ b.com, atol=1e-6), name
        assert np.allclose(p.inertia, R @ b.inertia @ R.T, atol=2e-6), name   # angle to 0.001 deg
        for e, f in zip(p.ellipsoids, b.ellipsoids):
            assert np.allclose(e.center, R @ f.center, atol=1e-6), name
            assert np.allclose(e.R_segment_ellipsoid, R @ f.R_segment_ellipsoid, atol=1e-5), name
    for name in ("sternum", "neck", "head", "left_upper_arm", "right_upper_arm"):
        assert np.allclose(ped[name].location, R @ base[name].location, atol=1e-6), name
    assert np.allclose(ped["sternum"].axis, R @ base["sternum"].axis, atol=1e-6)
    assert ped["upper_torso"].location[2] == pytest.approx(derived["lumbar_length"], abs=1e-6)
    assert 0.0 < math.degrees(derived["beta"]) < 14.0     # less than the seated lean of W -> OC


def test_identity_pedestrian_head_is_the_base_head(described):
    """The variant moves the head's joint (the OC turned with the neck) and gives nothing of its
    shape, so the head carries the base's head shell, chin and occiput, one definition
    (dummies/hybrid3_50m.toml), placed alike in the head's frame: what the seated dummies'
    contacts with chin and occiput rest on holds for the pedestrian's."""
    p, b = described[PED]["head"], described[BASE]["head"]
    assert [e.name for e in p.ellipsoids] == [e.name for e in b.ellipsoids] == ["head_shell", "chin", "occiput"]
    for e, f in zip(p.ellipsoids, b.ellipsoids):
        for key in ("center", "semi_axes", "R_segment_ellipsoid"):
            assert np.array_equal(getattr(e, key), getattr(f, key)), (e.name, key)
    assert np.array_equal(p.com, b.com) and np.array_equal(p.inertia, b.inertia)


def test_identity_pedestrian_hips_adduct_the_human_range(described):
    """The hips' adduction limit is the human 30 deg of occupant/human/data/joint_rom.toml
    (mirrored on the right); abduction stays the base's 45 deg."""
    for side, sign in (("left", 1.0), ("right", -1.0)):
        p = described[PED][f"{side}_upper_leg"].resistances[0]
        b = described[BASE][f"{side}_upper_leg"].resistances[0]
        limit, kept = (p.lower, p.upper) if sign > 0 else (p.upper, p.lower)
        assert math.degrees(limit) == pytest.approx(-30.0 * sign)
        assert kept == (b.upper if sign > 0 else b.lower)


def _heights(name):
    """(vertex, head CG, hip) heights above the soles in the reference posture (legs straight)."""
    m = load_dummy(name)
    X = body_poses(m, m.make_data(), m.neutral_configuration())
    _, vertex = _ellipsoid_extremes(m, "head")
    sole, _ = _ellipsoid_extremes(m, "left_foot")
    i = m.body("head")
    cg = X[i, :3, :3] @ m.body_com[i] + X[i, :3, 3]
    return vertex - sole, cg[2] - sole, -sole


def test_reference_pedestrian_stands_at_the_50th_male_stature():
    """The Hybrid III 50th male's published stature 1.753 m [C] is its standing height; the
    pedestrian variant stands it within 5 mm (0.3 %). The seated-spine dummy stands 1.690 m
    and the variant with only the standing pelvis and the chord-long straight column stood
    1.716 m (both fail this bound). Head moves without turning: its CG rises as much as the
    vertex. Legs and hips are the base's."""
    v0, cg0, hip0 = _heights(BASE)
    v1, cg1, hip1 = _heights(PED)
    assert abs(v0 - STATURE) > 0.05
    assert abs(v1 - STATURE) < 0.005, v1
    assert cg1 - cg0 == pytest.approx(v1 - v0, abs=1e-9)
    assert hip1 == pytest.approx(hip0, abs=1e-12)


def test_reference_pedestrian_head_stands_over_the_hips():
    """Standing alignment (Woodhull et al. 1985 [S]): the ear about 3 mm behind the hip joint;
    the variant's occipital condyle lies there within 1 mm. Turning the pelvis forward alone
    (the variant before the thorax stood) put it 41 mm ahead of the hips."""
    def oc_ahead(name):
        m = load_dummy(name)
        X = body_poses(m, m.make_data(), m.neutral_configuration())
        return X[m.body("head"), 0, 3] - X[m.body("pelvis"), 0, 3]
    assert oc_ahead(PED) == pytest.approx(-EAR_BEHIND_HIP, abs=0.001)


def test_reference_pedestrian_upper_body_stands_over_the_hips():
    """Standing, the centre of mass of everything above the hips lies over the hip joints
    (Woodhull et al. 1985 [S]: 1.0 +- 1.6 cm behind the trochanter): the seated pelvis puts it
    38 mm behind them, the pedestrian variant 19 mm; the bound 30 mm fails the seated dummy."""
    def ahead(name):
        m = load_dummy(name)
        X = body_poses(m, m.make_data(), m.neutral_configuration())
        upper = [b for b in m.body_names if "leg" not in b and "foot" not in b]
        com = sum(m.body_mass[m.body(b)] * (X[m.body(b), :3, :3] @ m.body_com[m.body(b)]
                                            + X[m.body(b), :3, 3]) for b in upper)
        return com[0] / sum(m.body_mass[m.body(b)] for b in upper)
    assert abs(ahead(BASE)) > 0.03
    assert abs(ahead(PED)) < 0.03, ahead(PED)


def _variant(tmp_path, text):
    path = tmp_path / "variant.toml"
    path.write_text('kind = "dummy"\nname = "v"\n' + text)
    return path


@pytest.mark.parametrize("text, where, message", [
    ('base = "hybrid3_5m"\n', "base", "'hybrid3_5m': unknown dummy"),
    ('base = "hybrid3_50m"\n[[segment]]\nname = "lumbr"\nmass = 2.0\n', "segment[0].name",
     "unknown segment 'lumbr'"),
    ('base = "hybrid3_50m"\n[[segment]]\nname = "lumbar"\nmass = -2.0\n', "segment[1].mass",
     "must be > 0 kg"),
    ('base = "hybrid3_50m_pedestrian"\n', "base", "is itself a variant"),
])
def test_reference_variant_errors_name_file_and_key(tmp_path, text, where, message):
    path = _variant(tmp_path, text)
    with pytest.raises(DummyFileError) as err:
        load_dummy(path)
    assert str(err.value).startswith(f"{path}: {where}: ") and message in str(err.value), str(err.value)


def test_analytic_variant_merges_resistances_by_dof_and_adds_new_items(tmp_path):
    """A resistance given with its dof changes only the keys given; an ellipsoid of a new name
    is added beside the base's."""
    path = _variant(tmp_path, 'base = "hybrid3_50m"\n[[segment]]\nname = "lumbar"\n'
                    '[segment.joint]\n[[segment.joint.resistance]]\ndof = "y"\ndamping = 5.0\n'
                    '[[segment.ellipsoid]]\nname = "extra"\ncenter = [0.0, 0.0, 0.0]\n'
                    'semi_axes = [0.01, 0.01, 0.01]\n')
    seg = dict((s.name, s) for s in load_description(path)[1])["lumbar"]
    base = dict((s.name, s) for s in load_description(BASE)[1])["lumbar"]
    assert [r.damping for r in seg.resistances] == [base.resistances[0].damping, 5.0,
                                                    base.resistances[2].damping]
    assert np.array_equal(seg.resistances[1].table, base.resistances[1].table)
    assert [e.name for e in seg.ellipsoids] == ["abdomen", "extra"]


def test_reference_variant_base_path_is_read_from_the_variants_folder(tmp_path, monkeypatch):
    """(relpaths) A base given by a relative path is read from the variant file's folder, the
    working directory another; before, from the working directory: "base: 'bases/h50.toml': no
    such file"."""
    from occupant.io.toml_files import resolve_shipped
    (tmp_path / "variants" / "bases").mkdir(parents=True)
    (tmp_path / "variants" / "bases" / "h50.toml").write_bytes(resolve_shipped(BASE, "dummies", "dummy").read_bytes())
    path = _variant(tmp_path / "variants", 'base = "bases/h50.toml"\n')
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    header, segments = load_description(path)
    assert header["base"] == "hybrid3_50m" and len(segments) == len(load_description(BASE)[1])
