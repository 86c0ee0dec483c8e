"""An interior file's surfaces of every shape (occupant.scenario.interior_shapes): boxes,
cylinders, spheres, ellipsoids and triangle meshes read from a file (a CAD export) placed on B0
(or on a hinged part) and contacted as the modeling layer's own geometry, and bad input named
by file and key."""
import numpy as np
import pytest
import trimesh

import occupant
from occupant.constants import G0
from occupant.integrate.pipeline import evaluate
from occupant.modeling import (Assembly, ContactCharacteristic, ContactPair, Joint, Marker, Part,
                               Pose, Sphere)
from occupant.model.model import ModelError
from occupant.scenario.interior import InteriorFileError, load_interior

RADIUS = 0.05          # m, the ball
K = 1.0e5              # N/m
# a seat cushion's block, tilted 15 deg nose-up about y (its x forward, z up, y = z x x)
TILT = np.radians(15.0)
Z_AXIS = [-np.sin(TILT), 0.0, np.cos(TILT)]
X_AXIS = [np.cos(TILT), 0.0, np.sin(TILT)]
CENTRE = [0.1, 0.0, -0.2]
HALF = (0.2, 0.15, 0.05)   # m: in mm 400 x 300 x 100, exact in an STL's float32


def _vec(v):
    return "[" + ", ".join(repr(float(x)) for x in v) + "]"


def _interior(tmp_path, surface, name="x"):
    path = tmp_path / f"{name}.toml"
    path.write_text(f'kind = "interior"\nname = "{name}"\n[[surface]]\nname = "s"\n{surface}',
                    encoding="utf-8")
    return path


def _cushion_stl(tmp_path, units=1e3):
    """The cushion block as a closed STL mesh in its own frame, in mm."""
    box = trimesh.creation.box(extents=2 * np.array(HALF) * units)
    box.export(tmp_path / "cushion.stl")
    return "cushion.stl"


CUSHIONS = {
    "box": f'shape = "box"\npoint = {_vec(CENTRE)}\nhalf_extents = {_vec(HALF)}\n'
           f'x_axis = {_vec(X_AXIS)}\nz_axis = {_vec(Z_AXIS)}\n',
    "mesh": f'shape = "mesh"\nfile = "cushion.stl"\nunits = "mm"\npoint = {_vec(CENTRE)}\n'
            f'x_axis = {_vec(X_AXIS)}\nz_axis = {_vec(Z_AXIS)}\n',
    # the block's top face: a plane bounded to it, half its thickness above its centre
    "plane": f'point = {_vec(np.array(CENTRE) + HALF[2] * np.array(Z_AXIS))}\n'
             f'normal = {_vec(Z_AXIS)}\nx_axis = {_vec(X_AXIS)}\nhalf_size = {_vec(HALF[:2])}\n',
}


def _drop(surface):
    """A spinning ball dropped with friction onto ``surface`` (an interior's geometry on B0)."""
    asm = Assembly("drop")
    asm.add(Part("ball", 2.0, inertia=(0.002, 0.002, 0.002)))
    asm.add(Joint("float", "free", None, "ball", Pose()))
    asm.add(Marker("m", "ball"), Sphere("shell", "m", RADIUS), surface)
    asm.add(ContactPair("p", "shell", surface.name, ContactCharacteristic(
        stiffness=2e4, absorption=0.3, damping=500.0, friction=0.4, friction_speed=0.02)))
    top = np.array(CENTRE) + (HALF[2] + RADIUS + 0.02) * np.array(Z_AXIS)
    return occupant.simulate(asm.compile(), 0.25, q0=[*top, 1, 0, 0, 0],
                             v0=[0.3, 0.2, -1.0, 2.0, -3.0, 1.0], integrator="rk4", dt=1e-4,
                             gravity=(0, 0, -9.81), output_dt=1e-3)


def test_identity_ball_on_mesh_cushion_equals_ball_on_box_and_plane(tmp_path):
    """A ball dropped on a tilted seat cushion given as an STL file (mm) moves as on the same
    cushion given as a box and as its top face given as a bounded plane: the same states to
    rounding (the STL's vertices are exact in float32, the faces' depths those of the box's)."""
    _cushion_stl(tmp_path)
    runs = {k: _drop(load_interior(_interior(tmp_path, v, k)).surfaces[0])
            for k, v in CUSHIONS.items()}
    box = runs["box"]
    assert box.outputs["p.normal_force"].max() > 50.0
    assert np.linalg.norm(box.q[-1, :2] - box.q[0, :2]) > 0.05    # it rolled and slid on it
    for other in ("mesh", "plane"):
        np.testing.assert_allclose(runs[other].q, box.q, rtol=0, atol=1e-9)
        np.testing.assert_allclose(runs[other].outputs["p.normal_force"],
                                   box.outputs["p.normal_force"], rtol=0, atol=1e-5)


def _penetration(surface, centre):
    """The ball's penetration (m) into ``surface`` with its centre at ``centre`` (B0)."""
    asm = Assembly("touch")
    asm.add(Part("ball", 2.0, inertia=(0.002, 0.002, 0.002)))
    asm.add(Joint("float", "free", None, "ball", Pose()))
    asm.add(Marker("m", "ball"), Sphere("shell", "m", RADIUS), surface)
    asm.add(ContactPair("p", "shell", surface.name, ContactCharacteristic(stiffness=K)))
    model = asm.compile()
    data = model.make_data()
    evaluate(model.bundle(), data, 0.0, np.array([*centre, 1, 0, 0, 0], float), np.zeros(6),
             np.zeros(model.nz), 0.0)
    return dict(zip(model.output_names, data.outputs))["p.penetration"]


@pytest.mark.parametrize("ends", ["flat", "round"])
@pytest.mark.parametrize("axis", [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
def test_analytic_cylinder_placed_by_its_axes(tmp_path, ends, axis):
    """A bar along B0's y or x (z_axis, x_axis left to its default) centred at (0.3, 0, 0.4): a
    ball of radius r whose centre lies s from the axis beside its middle penetrates r + R - s;
    past its end by e along the axis, a flat end's face: r - e, a round end's cap: r + R - e."""
    R, L, c = 0.015, 0.30, np.array([0.3, 0.0, 0.4])
    bar = load_interior(_interior(tmp_path, f'shape = "cylinder"\npoint = {_vec(c)}\nradius = {R}\n'
                                  f'length = {L}\nends = "{ends}"\nz_axis = {_vec(axis)}\n'))
    bar = bar.surfaces[0]
    along = np.array(axis)
    s = 0.055
    assert _penetration(bar, c + 0.1 * along + [0.0, 0.0, s]) == pytest.approx(RADIUS + R - s,
                                                                               abs=1e-12)
    e = 0.04
    tip = c + (0.5 * L + e) * along
    expected = RADIUS - e + (R if ends == "round" else 0.0)
    assert _penetration(bar, tip) == pytest.approx(expected, abs=1e-9)


def test_analytic_box_and_mesh_depths_on_a_face_and_beside_an_end(tmp_path):
    """The tilted cushion (box, and its STL in mm): a ball whose centre lies h above the middle
    of its top face along the face's normal penetrates r - h; one beside its end face along
    x_axis, r - g."""
    _cushion_stl(tmp_path)
    z, x = np.array(Z_AXIS), np.array(X_AXIS)
    for kind in ("box", "mesh"):
        g = load_interior(_interior(tmp_path, CUSHIONS[kind], kind)).surfaces[0]
        h = 0.03
        assert _penetration(g, CENTRE + (HALF[2] + h) * z) == pytest.approx(RADIUS - h, abs=1e-12)
        gap = 0.01
        assert _penetration(g, CENTRE + (HALF[0] + gap) * x) == pytest.approx(RADIUS - gap,
                                                                              abs=1e-12)


# a head restraint's pad as an ellipsoid [E], its axes turned off B0's (x_axis, z_axis below)
PAD = dict(point=(-0.25, 0.02, 0.62), semi_axes=(0.06, 0.13, 0.11))
PAD_X, PAD_Z = (1.0, 0.1, 0.3), (-0.2, 0.0, 1.0)
ROUND = {
    "sphere": f'shape = "sphere"\npoint = {_vec(PAD["point"])}\nradius = 0.04\n',
    "ellipsoid": f'shape = "ellipsoid"\npoint = {_vec(PAD["point"])}\n'
                 f'semi_axes = {_vec(PAD["semi_axes"])}\nx_axis = {_vec(PAD_X)}\nz_axis = {_vec(PAD_Z)}\n',
}


def _loads(model, q):
    """(outputs by name, data) of one evaluation of ``model`` at ``q`` at rest."""
    data = model.make_data()
    evaluate(model.bundle(), data, 0.0, np.asarray(q, float), np.zeros(model.nv),
             np.zeros(model.nz), 0.0)
    return dict(zip(model.output_names, data.outputs)), data


def _ball_against(surface, elements=()):
    """A compiled model of the ball (free) paired with ``surface`` (linear law K), beside the
    interior's ``elements`` (a hinged part)."""
    asm = Assembly("press")
    asm.add(*elements)
    asm.add(Part("ball", 2.0, inertia=(0.002, 0.002, 0.002)))
    asm.add(Joint("float", "free", None, "ball", Pose()))
    asm.add(Marker("m", "ball"), Sphere("shell", "m", RADIUS), surface)
    asm.add(ContactPair("p", "shell", surface.name, ContactCharacteristic(stiffness=K)))
    return asm.compile()


def _q_index(model, joint):
    return int(model.tree.qidx[model.joint_links[model.joint(joint)][0]])


@pytest.mark.parametrize("shape", ["sphere", "ellipsoid"])
def test_analytic_ball_pressed_into_a_vehicle_sphere_and_ellipsoid(tmp_path, shape):
    """A ball of radius r whose centre lies s from the centre c of a sphere of radius R fixed to
    the vehicle (B0), along any direction u, penetrates d = r + R - s; one s from an ellipsoid's
    centre along its axis j (x_axis, z_axis and y = z x x in B0: u = that axis) penetrates
    r + a_j - s (outside the ellipsoid its axis's tip is its point nearest the ball's centre).
    The linear law pushes the ball with k d along u (its acceleration less gravity, times its
    mass) at the point midway between the deepest points, c + (R + s - r) u / 2."""
    g = load_interior(_interior(tmp_path, ROUND[shape])).surfaces[0]
    assert g.marker is None
    c = np.array(PAD["point"])
    if shape == "sphere":
        u, R = np.array([0.2, -0.5, 0.8]) / np.linalg.norm([0.2, -0.5, 0.8]), 0.04
        cases = [(u, R)]
    else:
        z = np.array(PAD_Z) / np.linalg.norm(PAD_Z)
        x = np.array(PAD_X) - (np.array(PAD_X) @ z) * z
        x /= np.linalg.norm(x)
        cases = list(zip((x, np.cross(z, x), z), PAD["semi_axes"]))
    model = _ball_against(g)
    iq = _q_index(model, "float")
    for u, R in cases:
        s = R + RADIUS - 0.012
        q = model.neutral_configuration()
        q[iq:iq + 3] = c + s * u
        out, data = _loads(model, q)
        d = RADIUS + R - s
        assert out["p.penetration"] == pytest.approx(d, abs=1e-12)
        assert out["p.normal_force"] == pytest.approx(K * d, rel=1e-9)
        force = 2.0 * (data.vdot[:3] + (0.0, 0.0, G0))      # the ball at rest, its axes B0's
        np.testing.assert_allclose(force, K * d * u, rtol=0, atol=1e-6 * K * d)
        point = [out[f"p.point_{a}"] for a in "xyz"]
        np.testing.assert_allclose(point, c + 0.5 * (R + s - RADIUS) * u, atol=1e-12)


def test_analytic_ellipsoid_on_a_hinged_part_turns_with_it_and_loads_it(tmp_path):
    """An ellipsoid on a hinged part (``on``; given in B0 at t = 0) turned theta rearward about
    the pivot (B0's y) is met where the turn carried it: a ball s along its turned x axis from
    its turned centre penetrates r + a - s, and the ball at that place with the part unturned
    touches nothing. The pair's force k d (-u on the part, at the contact point P) turns the
    part with (P - pivot) x F . (-y) / I_pivot more than without the ball."""
    pivot, com, mass, inertia = np.array([-0.22, 0.0, -0.02]), np.array([-0.3, 0.0, 0.3]), 10.0, 0.6
    text = (f'[[hinge]]\nname = "frame"\npivot = {_vec(pivot)}\nmass = {mass}\ncom = {_vec(com)}\n'
            f'inertia = [{inertia}, {inertia}, 0.1]\nmoment = [[0.0, 0.0], [0.1, 1500.0]]\n'
            f'[[surface]]\nname = "pad"\non = "frame"\n{ROUND["ellipsoid"]}')
    path = tmp_path / "hinged.toml"
    path.write_text(f'kind = "interior"\nname = "hinged"\n{text}', encoding="utf-8")
    seat = load_interior(path)
    g = seat.surfaces[0]
    model = _ball_against(g, seat.elements)
    ih, ib = _q_index(model, "frame_hinge"), _q_index(model, "float")
    theta = np.radians(20.0)
    turn = np.array([[np.cos(theta), 0.0, -np.sin(theta)], [0.0, 1.0, 0.0],
                     [np.sin(theta), 0.0, np.cos(theta)]])   # +z towards -x: rearward
    c = pivot + turn @ (np.array(PAD["point"]) - pivot)
    u = turn @ g.rotation[:, 0]
    a, s = PAD["semi_axes"][0], PAD["semi_axes"][0] + RADIUS - 0.015
    q = model.neutral_configuration()
    q[ih] = theta
    q[ib:ib + 3] = c + s * u
    out, data = _loads(model, q)
    d = RADIUS + a - s
    assert out["p.penetration"] == pytest.approx(d, abs=1e-12)
    accel = data.vdot[model.dof("frame_hinge")]
    q_apart = q.copy()
    q_apart[ib:ib + 3] += (0.0, 0.0, 1.0)
    apart, data = _loads(model, q_apart)
    assert apart["p.normal_force"] == 0.0
    P = c + 0.5 * (a + s - RADIUS) * u
    moment = np.cross(P - pivot, -K * d * u) @ (0.0, -1.0, 0.0)
    i_pivot = inertia + mass * ((com[0] - pivot[0]) ** 2 + (com[2] - pivot[2]) ** 2)
    assert accel - data.vdot[model.dof("frame_hinge")] == pytest.approx(moment / i_pivot, rel=1e-9)
    q0 = q.copy()
    q0[ih] = 0.0
    unturned, _ = _loads(model, q0)
    assert unturned["p.normal_force"] == 0.0   # the part's 20 deg carried the pad 0.2 m there


def test_bad_vehicle_ellipsoid_as_a_pairs_first_geometry(tmp_path):
    """A pair's geometry_a is the body's (criteria and placement read its marker): the vehicle's
    ellipsoid there is refused, named."""
    g = load_interior(_interior(tmp_path, ROUND["ellipsoid"])).surfaces[0]
    asm = Assembly("press")
    asm.add(Part("ball", 2.0, inertia=(0.002, 0.002, 0.002)))
    asm.add(Joint("float", "free", None, "ball", Pose()))
    asm.add(Marker("m", "ball"), Sphere("shell", "m", RADIUS), g)
    asm.add(ContactPair("p", g.name, "shell", ContactCharacteristic(stiffness=K)))
    with pytest.raises(ModelError, match=r"contact pair 'p'.geometry_a: 's' is fixed to the vehicle"):
        asm.compile()


def test_identity_mesh_file_read_from_the_interior_files_folder(tmp_path, monkeypatch):
    """A relative mesh file is read from the interior file's folder, wherever the working
    directory is; ``units`` scales its coordinates (mm, cm, in) to m."""
    folder = tmp_path / "car"
    folder.mkdir()
    _cushion_stl(folder)
    monkeypatch.chdir(tmp_path)
    sizes = {}
    for units, factor in (("mm", 1e-3), ("cm", 1e-2), ("in", 0.0254), ("m", 1.0)):
        text = CUSHIONS["mesh"].replace('units = "mm"', f'units = "{units}"')
        i = load_interior(_interior(folder, text, f"x_{units}"))
        assert i.mesh_files == {"s": folder / "cushion.stl"}
        sizes[units] = i.surfaces[0].mesh.extents / factor
    for units in sizes:
        np.testing.assert_allclose(sizes[units], 2e3 * np.array(HALF), rtol=1e-12)


def test_identity_base_interior_keeps_its_mesh(tmp_path):
    """An interior on a base takes the base's mesh surface (and its file) unless it replaces it."""
    _cushion_stl(tmp_path)
    _interior(tmp_path, CUSHIONS["mesh"], "base")
    (tmp_path / "car.toml").write_text('kind = "interior"\nname = "car"\nbase = "base.toml"\n',
                                       encoding="utf-8")
    i = load_interior(tmp_path / "car.toml")
    assert [type(s).__name__ for s in i.surfaces] == ["Mesh"]
    assert i.mesh_files == {"s": tmp_path / "cushion.stl"}


BAD = [
    ('shape = "cone"\n',
     r"surface\[0\].shape: unknown shape 'cone'.*plane, box, cylinder, sphere, ellipsoid, mesh"),
    ('shape = "sphere"\npoint = [0.0, 0.0, 0.0]\n', r"surface\[0\].radius: missing"),
    ('shape = "sphere"\npoint = [0.0, 0.0, 0.0]\nradius = 0.0\n', r"surface\[0\].radius: must be > 0"),
    ('shape = "sphere"\npoint = [0.0, 0.0, 0.0]\nradius = 0.1\nz_axis = [0.0, 0.0, 1.0]\n',
     r"surface\[0\].z_axis: not a key of a sphere \(accepted: name, shape, characteristic, on, "
     r"crush_group, point, radius\)"),
    ('shape = "sphere"\nradius = 0.1\n', r"surface\[0\].point: missing"),
    ('shape = "ellipsoid"\npoint = [0.0, 0.0, 0.0]\n', r"surface\[0\].semi_axes: missing"),
    ('shape = "ellipsoid"\npoint = [0.0, 0.0, 0.0]\nsemi_axes = [0.1, 0.0, 0.1]\n',
     r"surface\[0\].semi_axes: every value must be > 0"),
    ('shape = "ellipsoid"\npoint = [0.0, 0.0, 0.0]\nsemi_axes = [0.1, 0.1]\n',
     r"surface\[0\].semi_axes: expected a list of 3 finite numbers, got \[0.1, 0.1\]"),
    ('shape = "ellipsoid"\npoint = [0.0, 0.0, 0.0]\nsemi_axes = [0.1, 0.1, 0.1]\nradius = 0.1\n',
     r"surface\[0\].radius: not a key of an ellipsoid.*semi_axes, x_axis, z_axis"),
    ('shape = "ellipsoid"\npoint = [0.0, 0.0, 0.0]\nsemi_axes = [0.1, 0.1, 0.1]\n'
     'x_axis = [0.0, 0.0, 1.0]\n', r"surface\[0\].x_axis: zero or parallel to z_axis"),
    ('shape = "box"\npoint = [0.0, 0.0, 0.0]\n', r"surface\[0\].half_extents: missing"),
    ('shape = "box"\npoint = [0.0, 0.0, 0.0]\nhalf_extents = [0.1, -0.1, 0.1]\n',
     r"surface\[0\].half_extents: every value must be > 0"),
    ('shape = "box"\npoint = [0.0, 0.0, 0.0]\nhalf_extents = [0.1, 0.1, 0.1]\nnormal = [0.0, 0.0, 1.0]\n',
     r"surface\[0\].normal: not a key of a box.*z_axis"),
    ('shape = "box"\npoint = [0.0, 0.0, 0.0]\nhalf_extents = [0.1, 0.1, 0.1]\nz_axis = [0.0, 0.0, 0.0]\n',
     r"surface\[0\].z_axis: a zero vector"),
    ('shape = "box"\npoint = [0.0, 0.0, 0.0]\nhalf_extents = [0.1, 0.1, 0.1]\nx_axis = [0.0, 0.0, 2.0]\n',
     r"surface\[0\].x_axis: zero or parallel to z_axis"),
    ('shape = "cylinder"\npoint = [0.0, 0.0, 0.0]\nradius = -0.01\nlength = 0.2\n',
     r"surface\[0\].radius: must be > 0"),
    ('shape = "cylinder"\npoint = [0.0, 0.0, 0.0]\nradius = 0.01\n', r"surface\[0\].length: missing"),
    ('shape = "cylinder"\npoint = [0.0, 0.0, 0.0]\nradius = 0.01\nlength = 0.2\nends = "square"\n',
     r"surface\[0\].ends: unknown ends 'square'.*flat, round"),
    ('shape = "cylinder"\npoint = [0.0, 0.0, 0.0]\nradius = 0.01\nlength = 0.2\nhalf_size = [0.1, 0.1]\n',
     r"surface\[0\].half_size: not a key of a cylinder"),
    ('shape = "mesh"\n', r"surface\[0\].file: missing"),
    ('shape = "mesh"\nfile = "seat.stl"\n', r"surface\[0\].file: no such file '.*seat.stl'"),
    ('shape = "mesh"\nfile = "cushion.stl"\nunits = "ft"\n',
     r"surface\[0\].units: unknown unit 'ft'.*m, mm, cm, in"),
    ('shape = "mesh"\nfile = "cushion.stl"\npatch_size = 0.0\n', r"surface\[0\].patch_size: must be > 0"),
    ('shape = "mesh"\nfile = "junk.stl"\n',
     r"surface\[0\].file: '.*junk.stl' is not a triangle mesh with at least one face"),
    ('shape = "mesh"\nfile = "flipped.stl"\n',
     r"surface\[0\].file: .*flipped.stl'?: a closed mesh wound inside out"),
    ('shape = "mesh"\nfile = "mixed.stl"\n', r"surface\[0\].file: .*not wound consistently"),
    ('shape = "plane"\npoint = [0.0, 0.0, 0.0]\nnormal = [0.0, 0.0, 1.0]\nlength = 0.2\n',
     r"surface\[0\].length: not a key of a plane"),
    # a ring (branch wheelring): its hole within its disc
    ('shape = "plane"\npoint = [0.0, 0.0, 0.0]\nnormal = [0.0, 0.0, 1.0]\nradius = 0.19\n'
     'inner_radius = 0.19\n', r"surface\[0\].inner_radius: 0.19 m is not below the radius 0.19 m"),
    ('shape = "plane"\npoint = [0.0, 0.0, 0.0]\nnormal = [0.0, 0.0, 1.0]\nradius = 0.19\n'
     'inner_radius = 0.25\n', r"surface\[0\].inner_radius: 0.25 m is not below the radius"),
    ('shape = "plane"\npoint = [0.0, 0.0, 0.0]\nnormal = [0.0, 0.0, 1.0]\nradius = 0.19\n'
     'inner_radius = 0.0\n', r"surface\[0\].inner_radius: must be > 0"),
    ('shape = "plane"\npoint = [0.0, 0.0, 0.0]\nnormal = [0.0, 0.0, 1.0]\nhalf_size = [0.1, 0.1]\n'
     'inner_radius = 0.05\n', r"surface\[0\].inner_radius: given without radius"),
]


@pytest.mark.parametrize("text, match", BAD)
def test_bad_surface_names_file_key_and_what_is_accepted(tmp_path, text, match):
    _cushion_stl(tmp_path)
    (tmp_path / "junk.stl").write_text("not a mesh\n", encoding="utf-8")
    flipped = trimesh.creation.box(extents=(0.1, 0.1, 0.1))
    flipped.invert()
    flipped.export(tmp_path / "flipped.stl")
    mixed = trimesh.creation.box(extents=(0.1, 0.1, 0.1))
    faces = mixed.faces.copy()
    faces[0] = faces[0][::-1]
    trimesh.Trimesh(mixed.vertices, faces, process=False).export(tmp_path / "mixed.stl")
    with pytest.raises(InteriorFileError, match=r"x.toml: " + match):
        load_interior(_interior(tmp_path, text))


# issue 11 section 6's list of a driver's interior, by the surface names the interiors give them
SECTION_6 = {"seat cushion": ("seat_cushion",), "seat back": ("seat_back",), "floor": ("floor",),
             "toe pan": ("toe_pan",), "knee bolster": ("knee_bolster",),
             "instrument panel": ("instrument_panel",),
             "steering wheel rim and hub": ("steering_wheel_rim", "steering_wheel_hub", "steering_wheel"),
             "windscreen": ("windshield",), "roof": ("roof",), "door": ("door_panel",),
             "B-pillar": ("b_pillar",)}


def test_reference_every_driver_interior_has_issue_11_section_6_surfaces():
    """Every shipped driver interior has each surface issue 11 section 6 names."""
    from occupant.scenario.interior import available_interiors
    drivers = [n for n in available_interiors() if "driver" in n]
    assert len(drivers) >= 3
    for name in drivers:
        have = {s.name for s in load_interior(name).surfaces}
        missing = {k: v for k, v in SECTION_6.items() if not set(v) <= have}
        assert not missing, f"{name} lacks {missing}"


def test_reference_roof_stands_where_its_comment_derives_it():
    """vehicles/midsize_sedan_driver.toml's roof: its front edge at the roof header (0.25, 0.80),
    the windshield's top edge; it passes 873 mm from the SgRP (0.05 m behind the seat's origin)
    along the line 8 deg rear of vertical (a medium car's H61 975 mm less J1100's 102 mm), faces
    down, and is paired with the head shell and chin (dummies/body_contacts.toml)."""
    from occupant.io.toml_files import read_toml
    from occupant.scenario.body_contacts import shipped_file
    surfaces = {s.name: s for s in load_interior("midsize_sedan_driver").surfaces}
    roof, screen = surfaces["roof"], surfaces["windshield"]
    front = roof.point - roof.half_size[0] * roof.x_axis
    np.testing.assert_allclose(front, [0.25, 0.0, 0.80], atol=2e-4)
    top = screen.point + screen.half_size[0] * screen.x_axis   # its x_axis runs up the glass
    np.testing.assert_allclose(front, top, atol=2e-3)
    a = np.radians(8.0)
    sgrp, line = np.array([-0.05, 0.0, 0.0]), np.array([-np.sin(a), 0.0, np.cos(a)])
    along = roof.normal @ (roof.point - sgrp) / (roof.normal @ line)
    assert along == pytest.approx(0.975 - 0.102, abs=5e-4)
    assert roof.normal[2] < -0.98
    pairs = read_toml(shipped_file())["contact"]
    assert {p["a"] for p in pairs if p["b"] == "roof"} == {"head_shell", "chin"}


def _sled_with_knee_pad(tmp_path, a='["left_knee_contact", "right_knee_contact"]'):
    """The unbelted sled's scenario in the sled buck with its knee bolster's face given as an
    ellipsoid (its front on the bolster plane [E]), paired with ``a``."""
    from occupant.scenario.load import resolve
    (tmp_path / "buck.toml").write_text(
        'kind = "interior"\nname = "buck"\nbase = "sled_buck_passenger"\n[[surface]]\n'
        'name = "knee_pad"\nshape = "ellipsoid"\npoint = [0.6265, 0.0, 0.155]\n'
        'semi_axes = [0.05, 0.30, 0.09]\nx_axis = [0.971, 0.0, 0.240]\n'
        'characteristic = "knee_bolster"\n', encoding="utf-8")
    text = resolve("fmvss208_sled_48_unbelted").read_text(encoding="utf-8")
    knees = 'a = ["left_knee_contact", "right_knee_contact"]\nb = "knee_bolster"'
    assert knees in text
    text = text.replace('interior = "sled_buck_passenger"', 'interior = "buck.toml"')
    (tmp_path / "sled.toml").write_text(text.replace(knees, f'a = {a}\nb = "knee_pad"'),
                                        encoding="utf-8")
    return tmp_path / "sled.toml"


def test_regression_scenario_pairs_the_knees_with_a_vehicle_ellipsoid(tmp_path):
    """A scenario pairs the occupant's knees with the interior's ellipsoid: compiled as
    ellipsoid-ellipsoid pairs against B0 (link -1)."""
    from occupant.model.bundle import CONTACT_ELLIPSOID_ELLIPSOID
    from occupant.scenario.load import load
    model = load(_sled_with_knee_pad(tmp_path), overrides={"occupant.settle": 0.0}).model
    for side in ("left", "right"):
        k = model.contact_names.index(f"{side}_knee_contact__knee_pad")
        assert model.contacts.pair_type[k] == CONTACT_ELLIPSOID_ELLIPSOID
        assert model.contacts.link_b[k] == -1


def test_bad_scenario_pair_with_the_vehicle_ellipsoid_as_a(tmp_path):
    """A pair's a is the body's ellipsoid: the vehicle's there is refused, named by file and key,
    with the body's ellipsoids listed."""
    from occupant.io.toml_files import InputFileError
    from occupant.scenario.load import load
    with pytest.raises(InputFileError, match=r"sled.toml: contact\[4\].a: 'knee_pad' is not an "
                       r"ellipsoid or sphere on a body .*accepted: pelvis_flesh, .*right_knee_contact"):
        load(_sled_with_knee_pad(tmp_path, a='["knee_pad"]'))
