"""The sweep over the contact pairs' bounding spheres (``occupant.contact.broad_phase``): on balls
and boxes along a line, with every ball declared against every box, the pairs it lets through
and the sphere pairs it meets are the n neighbours, not the n^2 declared pairs; on random
layouts, with every body declared against every surface, the forces, outputs, state rates and
powers are those of the declared-pair test of the spheres alone, to the bit."""
import numpy as np
import pytest

from occupant.contact.broad_phase import SWEEP_PAIRS, sweep
from occupant.integrate.pipeline import evaluate
from occupant.model.bundle import CONTACT_OUTPUTS
from occupant.modeling import (
    Assembly, Part, Joint, Pose, Marker, Sphere, Ellipsoid, Plane, Box, Cylinder,
    ContactPair, ContactCharacteristic,
)

STRIDE = len(CONTACT_OUTPUTS)

HALF = np.array([0.2, 0.15, 0.1])     # each box's half extents: bounding radius 0.27 m


def _line(n):
    """One free body carrying n balls (r 0.05 m) at x = 0, 1, .., n - 1 m, each 10 mm into a
    B0 box below it; every ball declared against every box (n^2 pairs)."""
    asm = Assembly("line")
    asm.add(Part("body", 3.0, inertia=(0.02, 0.03, 0.04)))
    asm.add(Joint("float", "free", None, "body", Pose()))
    char = ContactCharacteristic(stiffness=1e5)
    for k in range(n):
        asm.add(Marker(f"m{k}", "body", (float(k), 0.0, 0.0)), Sphere(f"ball{k}", f"m{k}", 0.05))
        asm.add(Box(f"box{k}", None, HALF, position=(float(k), 0.0, -0.14)))
    for i in range(n):
        for j in range(n):
            asm.add(ContactPair(f"p{i}_{j}", f"ball{i}", f"box{j}", char))
    return asm.compile()


def _swept(model, q, on=True):
    """(pairs let through, sphere pairs met, evaluation's Data) with the sweep on or off."""
    bundle = model.bundle()
    bundle = bundle._replace(contacts=bundle.contacts._replace(sweep=int(on)))
    data = model.make_data()
    evaluate(bundle, data, 0.0, q, np.zeros(model.nv), np.zeros(model.nz), 0.0)
    found = sweep(bundle.contacts, data.R_base_link, data.p_base_link, data.contact_sweep,
                  data.contact_order, data.contact_culled)
    through = int(np.sum(data.contact_culled == 0))
    return through, found, data


@pytest.mark.parametrize("n", [4, 8, 16])
def test_line_candidates_grow_linearly(n):
    """n balls over n boxes 1 m apart, n^2 pairs declared: the sweep lets through the n pairs
    of a ball and the box under it and meets n sphere pairs (the declared-pair test: n^2
    distances); each of those n pairs is in contact."""
    model = _line(n)
    q = np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0])
    through, found, data = _swept(model, q)
    assert model.contacts.sweep_pairs.shape[0] == n * n
    assert (through, found) == (n, n)
    pen = data.outputs[model.contacts.out_start::STRIDE][:n * n].reshape(n, n)
    np.testing.assert_allclose(np.diag(pen), 0.01, rtol=1e-9)
    assert np.all(pen[~np.eye(n, dtype=bool)] == 0.0)


def _cloud(seed, n_balls=6, n_surfaces=30):
    """Two free bodies carrying n_balls balls and ellipsoids between them, and n_surfaces
    random B0 boxes, cylinders, rectangles and discs in a 2 m x 1 m x 0.6 m
    region, plus an unbounded floor; every ball against every surface and against the other
    body's balls."""
    rng = np.random.default_rng(seed)
    asm = Assembly("cloud")
    balls = {0: [], 1: []}
    for b in (0, 1):
        asm.add(Part(f"body{b}", 3.0, inertia=(0.02, 0.03, 0.04)))
        asm.add(Joint(f"float{b}", "free", None, f"body{b}", Pose()))
        for k in range(n_balls // 2):
            name = f"m{b}_{k}"
            asm.add(Marker(name, f"body{b}", tuple(rng.uniform(-0.25, 0.25, 3))))
            geo = (Sphere(f"ball{b}_{k}", name, rng.uniform(0.03, 0.08)) if k % 2 == 0 else
                   Ellipsoid(f"ball{b}_{k}", name, tuple(rng.uniform(0.03, 0.09, 3))))
            asm.add(geo)
            balls[b].append(geo.name)
    surfaces = ["floor"]
    asm.add(Plane("floor", None, point=(0.0, 0.0, -0.45)))
    for k in range(n_surfaces):
        where = tuple(rng.uniform((-1.0, -0.5, -0.3), (1.0, 0.5, 0.3)))
        size = rng.uniform(0.03, 0.2, 3)
        asm.add((Box(f"s{k}", None, size, position=where),
                 Cylinder(f"s{k}", None, size[0], 2 * size[1], position=where),
                 Plane(f"s{k}", None, point=where, half_size=(size[0], size[1])),
                 Plane(f"s{k}", None, point=where, radius=size[0]))[k % 4])
        surfaces.append(f"s{k}")
    char = ContactCharacteristic(stiffness=1e5, damping=300.0, friction=0.3)
    for a in balls[0] + balls[1]:
        for s in surfaces:
            asm.add(ContactPair(f"{a}_{s}", a, s, char))
    for a in balls[0]:
        for b in balls[1]:
            asm.add(ContactPair(f"{a}_{b}", a, b, char))
    return asm.compile()


def test_random_layouts_match_the_declared_pair_test():
    """Two bodies among 30 random surfaces, all pairs declared, at 20 random poses (the bodies
    within 0.05 m of each other along each axis) evaluated in a row into one Data (the sort's kept order carried from pose to pose): forces, outputs,
    state rates and powers with the sweep equal those of the declared-pair test alone, to the
    bit; some pairs touch, and the sweep passes over most pairs."""
    model = _cloud(3)
    assert model.contacts.sweep_pairs.shape[0] >= SWEEP_PAIRS
    rng = np.random.default_rng(11)
    bundle = model.bundle()
    on = bundle._replace(contacts=bundle.contacts._replace(sweep=1))
    off = bundle._replace(contacts=bundle.contacts._replace(sweep=0))
    kept = model.make_data()
    touching, passed, between = 0, 0, 0
    for _ in range(20):
        q = np.zeros(model.nq)
        for b in range(2):
            q[7 * b:7 * b + 3] = rng.uniform((-0.9, -0.4, -0.3), (0.9, 0.4, 0.3))
            quat = rng.normal(size=4)
            q[7 * b + 3:7 * b + 7] = quat / np.linalg.norm(quat)
        q[7:10] = q[:3] + rng.uniform(-0.05, 0.05, 3)     # the bodies close: their balls meet
        v = rng.normal(size=model.nv)
        z = np.abs(rng.normal(scale=0.005, size=model.nz))
        fresh = model.make_data()
        evaluate(on, kept, 0.0, q, v, z, 0.0)
        evaluate(off, fresh, 0.0, q, v, z, 0.0)
        for field in ("f_ext", "outputs", "zdot", "power", "tau"):
            np.testing.assert_array_equal(getattr(kept, field), getattr(fresh, field), field)
        pen = kept.outputs[model.contacts.out_start::STRIDE][:len(model.contact_names)]
        touching += int(np.sum(pen > 0.0))
        between += int(np.sum(pen[-9:] > 0.0))        # the last 9 pairs join the two bodies
        passed += int(np.sum(kept.contact_culled[model.contacts.sweep_pairs] != 0))
    assert touching >= 12 and between >= 3
    assert passed > 0.5 * 20 * model.contacts.sweep_pairs.shape[0]


def test_sweep_threshold():
    """The sweep is on from SWEEP_PAIRS swept pairs (bench_contact_pairs.py: below, the
    declared-pair test alone is cheaper)."""
    for n in (2, 7, 9, 12):
        assert _line(n).contacts.sweep == int(n * n >= SWEEP_PAIRS)


def test_position_gone_to_nan_culls_nothing():
    """A link's position not finite: the sweep culls no pair (each keeps the declared-pair test,
    whose nan distance does not cull either, as before the sweep)."""
    model = _line(9)
    through, _, data = _swept(model, np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]))
    assert through == 9
    p = data.p_base_link.copy()
    p[:, 0] = np.nan
    found = sweep(model.bundle().contacts._replace(sweep=1), data.R_base_link, p,
                  data.contact_sweep, data.contact_order, data.contact_culled)
    assert found == 0 and np.all(data.contact_culled == 0)


@pytest.mark.parametrize("kind", ["box", "rectangle", "plate"])
def test_identity_box_test_culls_only_pairs_the_narrow_phase_finds_apart(kind):
    """The box test after the spheres' (``broad_phase.box_gap``) against the narrow phase run on
    every pair (broad phase off): an ellipsoid (semi-axes 70, 45, 30 mm) at 400 random poses
    about a box, a rectangle (its face one-sided: behind it over the rectangle counts as through
    it) and a plate, within the box's bounding sphere: forces, outputs, state rates and powers
    equal to the bit; the test culls at least a fifth of the poses the spheres let through,
    and at least a tenth touch. Without the test (main), nothing is culled there."""
    from occupant.contact.broad_phase import box_gap
    from occupant.contact.compliant import bounding_gap
    frame = dict(point=(0.1, -0.05, 0.02), normal=(0.2, -0.1, 1.0), x_axis=(1.0, 0.3, 0.0))
    geometry = {"box": Box("b", None, HALF, position=(0.1, -0.05, 0.02),
                           rotation=_turned([0.3, -0.2, 0.5])),
                "rectangle": Plane("b", None, **frame, half_size=(0.2, 0.15)),
                "plate": Plane("b", None, **frame, half_size=(0.2, 0.15), thickness=0.04)}[kind]
    asm = Assembly("box_cull")
    asm.add(Part("body", 3.0, inertia=(0.02, 0.03, 0.04)))
    asm.add(Joint("float", "free", None, "body", Pose()))
    asm.add(Marker("m", "body", (0.01, -0.02, 0.03)), Ellipsoid("e", "m", (0.07, 0.045, 0.03)))
    asm.add(geometry)
    asm.add(ContactPair("p", "e", "b", ContactCharacteristic(stiffness=1e5)))
    model = asm.compile()
    on = model.bundle()
    assert on.contacts.broad_phase == 1
    off = on._replace(contacts=on.contacts._replace(broad_phase=0))
    reach = on.contacts.bound_a[0] + on.contacts.bound_b[0]
    rng = np.random.default_rng(5)
    culled, passed, touching = 0, 0, 0
    for _ in range(400):
        q = np.zeros(model.nq)
        q[:3] = np.array((0.1, -0.05, 0.02)) + rng.uniform(-1.0, 1.0, 3) * reach / np.sqrt(3)
        quat = rng.normal(size=4)
        q[3:7] = quat / np.linalg.norm(quat)
        v = rng.normal(size=model.nv)
        z = np.abs(rng.normal(scale=0.005, size=model.nz))
        a, b = model.make_data(), model.make_data()
        evaluate(on, a, 0.0, q, v, z, 0.0)
        evaluate(off, b, 0.0, q, v, z, 0.0)
        for field in ("f_ext", "outputs", "zdot", "power", "tau"):
            np.testing.assert_array_equal(getattr(a, field), getattr(b, field), field)
        if bounding_gap(on.contacts, a.R_base_link, a.p_base_link, 0) <= 0.0:
            passed += 1
            culled += box_gap(on.contacts, a.R_base_link, a.p_base_link, 0) > 0.0
        touching += a.outputs[on.contacts.out_start] > 0.0
    assert passed >= 200 and culled >= 0.2 * passed and touching >= 40


def _turned(rv):
    from occupant.spatial.rotation import quat_exp, quat_to_matrix
    return quat_to_matrix(quat_exp(np.asarray(rv, float)))
