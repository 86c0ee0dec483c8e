"""Element families of seed 000 (table 1, figure 2) beyond parts, markers and the basic joints:
constraint primitives, further joints, couplers, forces between markers (single-, three- and
six-component, bushing, beam, field), gravity, materials and units; each against a closed form
or an independent construction."""
import numpy as np
import pytest

import occupant
from occupant.model import ModelError
from occupant.modeling import (Assembly, Box, Coupler, Cylinder, Ellipsoid, Frustum, Gravity,
                               Joint, Marker, MarkerForce, Material, ModelingError, Part, Pose,
                               Primitive, Sphere, Torus, Units)
from occupant.modeling.materials import part_mass_properties, solid_properties
from occupant.modeling.marker_forces import beam_stiffness
from occupant.spatial import rot_x

G = 9.81
ROD = dict(mass=2.0, com=(0.25, 0.0, 0.0), inertia=(1e-4, 2.0 * 0.5**2 / 12, 2.0 * 0.5**2 / 12))
PIVOT = np.array([0.1, 0.3, 0.0])


def _pendulum(variant):
    """A 0.5 m rod (2 kg) pinned at PIVOT about z under gravity -y, started horizontal, built
    as: a revolute joint (the reference); a planar joint plus an inpoint primitive at the pivot;
    a planar joint plus a cylindrical loop-closing joint; a universal joint whose second axis a
    parallel-axes primitive locks; a planar joint plus an inline and an inplane primitive."""
    asm = Assembly(f"pendulum_{variant}")
    asm.gravity = (0.0, -G, 0.0)
    asm.add(Part("rod", **ROD), Marker("pin", "rod"))
    if variant == "revolute":
        asm.add(Joint("hinge", "revolute", None, "rod", Pose(PIVOT)))
    elif variant == "planar_inpoint":
        asm.add(Joint("slide", "planar", None, "rod", Pose(PIVOT)),
                Primitive("pin_point", "inpoint", "pin", position_j=PIVOT))
    elif variant == "planar_cylindrical":
        asm.add(Joint("slide", "planar", None, "rod", Pose(PIVOT)),
                Joint("cut", "cylindrical", None, "rod", Pose(PIVOT), child_marker="pin"))
    elif variant == "universal_parallel":
        asm.add(Marker("axis", "rod", rotation=rot_x(-np.pi / 2)),
                Joint("cardan", "universal", None, "rod", Pose(PIVOT), child_marker="axis"),
                Primitive("keep_z", "parallel_axes", "pin", position_j=PIVOT))
    elif variant == "planar_inline_inplane":
        # the pin on the z line through the pivot (2 rows) and in the plane z = 0 (1 row)
        asm.add(Joint("slide", "planar", None, "rod", Pose(PIVOT)),
                Primitive("on_z", "inline", "pin", position_j=PIVOT),
                Primitive("in_xy", "inplane", "pin", position_j=PIVOT))
    return asm.compile()


VARIANTS = ("planar_inpoint", "planar_cylindrical", "universal_parallel", "planar_inline_inplane")


@pytest.fixture(scope="module")
def pendulum_runs():
    out = {"revolute": occupant.simulate(_pendulum("revolute"), t_end=1.0, integrator="radau",
                                         output_dt=0.01, rtol=1e-9, atol=1e-11)}
    for v in VARIANTS:
        out[v] = occupant.simulate(_pendulum(v), t_end=1.0, integrator="radau", output_dt=0.01,
                                   rtol=1e-9, atol=1e-11)
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_identity_primitives_and_joints_make_the_same_pendulum(pendulum_runs, variant):
    """Each construction swings as the revolute pendulum; its constraints hold below 1e-8."""
    ref, r = pendulum_runs["revolute"], pendulum_runs[variant]
    assert r.status == "finished", r.message
    assert np.ptp(ref.body_com[:, 0, 1]) > 0.2                  # it swings
    err = np.abs(r.body_com - ref.body_com).max()
    print(variant, f"com error {err:.1e} m, violation {r.constraint_violation.max():.1e}")
    assert err < 1e-6
    assert r.constraint_violation.max() < 1e-8
    assert r.constraint_velocity_violation.max() < 1e-8


def test_analytic_gear_turns_two_wheels_in_ratio():
    """Wheel a (I_a) driven by a constant torque T (a six-component force), meshing with wheel b
    (I_b) at q_b = -2 q_a: q_a = T t^2 / (2 (I_a + 4 I_b)); several turns; the torque's work
    equals the kinetic energy."""
    Ia, Ib, T = 0.02, 0.01, 0.3
    asm = Assembly("gears")
    asm.gravity = (0.0, 0.0, 0.0)
    asm.add(Part("a", 1.0, inertia=(0.01, 0.01, Ia)), Part("b", 1.0, inertia=(0.01, 0.01, Ib)),
            Marker("hub_a", "a"))
    asm.add(Joint("ja", "revolute", None, "a"), Joint("jb", "revolute", None, "b", Pose((0.3, 0, 0))))
    asm.add(Coupler.gear("mesh", "ja", "jb", -2.0))
    asm.add(MarkerForce.six_component("motor", "hub_a", None, [[0, 0, 0, 0, 0, 0, T],
                                                               [10, 0, 0, 0, 0, 0, T]]))
    model = asm.compile()
    r = occupant.simulate(model, t_end=3.0, integrator="radau", output_dt=0.02,
                          rtol=1e-9, atol=1e-11)
    assert r.status == "finished", r.message
    qa, qb = r.q[:, model.dof("ja")], r.q[:, model.dof("jb")]
    expect = T * r.t**2 / (2.0 * (Ia + 4.0 * Ib))
    assert qa[-1] > 4 * np.pi                                    # over two turns
    np.testing.assert_allclose(qa, expect, atol=1e-6)
    np.testing.assert_allclose(qb, -2.0 * qa, atol=1e-8)
    assert r.constraint_violation.max() < 1e-8
    np.testing.assert_allclose(r.work["marker_forces"], r.energy["kinetic"], atol=1e-6)


def test_analytic_rack_and_pinion_and_screw():
    """A pinion (radius 0.05 m) turned by a torque drives a rack of mass m: x = r q,
    q'' = T / (I + m r^2); a nut of mass m on a vertical screw of pitch p falls at
    g m / (m + I (2 pi / p)^2)."""
    I, m, r_p, T = 0.004, 2.0, 0.05, 0.5
    asm = Assembly("rack")
    asm.gravity = (0.0, 0.0, 0.0)
    asm.add(Part("pinion", 0.5, inertia=(0.01, 0.01, I)), Part("rack", m), Marker("hub", "pinion"))
    asm.add(Joint("turn", "revolute", None, "pinion"),
            Joint("slide", "prismatic", None, "rack", Pose((0, 0.05, 0), rot_x(np.pi / 2))))
    asm.add(Coupler.rack_and_pinion("rp", "turn", "slide", r_p),
            MarkerForce.six_component("drive", "hub", None, [[0, 0, 0, 0, 0, 0, T]]))
    model = asm.compile()
    res = occupant.simulate(model, t_end=1.0, integrator="radau", output_dt=0.05,
                            rtol=1e-9, atol=1e-11)
    alpha = T / (I + m * r_p**2)
    q, x = res.q[:, model.dof("turn")], res.q[:, model.dof("slide")]
    np.testing.assert_allclose(q, 0.5 * alpha * res.t**2, atol=1e-7)
    np.testing.assert_allclose(x, r_p * q, atol=1e-9)

    p, In = 0.01, 1e-4
    asm = Assembly("screw")
    asm.gravity = (0.0, 0.0, -G)
    asm.add(Part("nut", m, inertia=(1e-4, 1e-4, In)),
            Joint("thread", "screw", None, "nut", pitch=p))
    model = asm.compile()
    res = occupant.simulate(model, t_end=0.5, integrator="radau", output_dt=0.05,
                            rtol=1e-9, atol=1e-11)
    a = -G * m / (m + In * (2 * np.pi / p) ** 2)
    z, turn = res.q[:, model.dof("thread_z")], res.q[:, model.dof("thread_rz")]
    np.testing.assert_allclose(z, 0.5 * a * res.t**2, atol=1e-8)
    np.testing.assert_allclose(turn, z * 2 * np.pi / p, atol=1e-6)
    with pytest.raises(ModelingError, match="screw joint needs a finite non-zero pitch"):
        Joint("thread", "screw", None, "nut")


def test_analytic_mass_on_a_bushing_oscillates_at_sqrt_k_over_m():
    """A free body (com at its marker) displaced 10 mm along x on a bushing to B0: x(t) = x0
    cos(sqrt(k/m) t); a rotation about z oscillates at sqrt(k_rz / I_zz); energy balance
    closes through the producer's reported work."""
    m, k, Izz, kr = 2.0, 800.0, 0.05, 12.0
    asm = Assembly("bushing")
    asm.gravity = (0.0, 0.0, 0.0)
    asm.add(Part("mass", m, inertia=(0.04, 0.045, Izz)), Marker("c", "mass"),
            Joint("free", "free", None, "mass"),
            MarkerForce.bushing("mount", "c", None, stiffness=(k, k, k, kr, kr, kr)))
    model = asm.compile()
    q0 = model.neutral_configuration()
    q0[0] = 0.01
    th = 0.02
    q0[3:7] = (np.cos(th / 2), 0.0, 0.0, np.sin(th / 2))
    r = occupant.simulate(model, t_end=1.0, dt=1e-4, q0=q0, integrator="rk4", output_dt=1e-3)
    w, wr = np.sqrt(k / m), np.sqrt(kr / Izz)
    np.testing.assert_allclose(r.q[:, 0], 0.01 * np.cos(w * r.t), atol=1e-7)
    angle = 2 * np.arctan2(r.q[:, 6], r.q[:, 3])
    np.testing.assert_allclose(angle, th * np.cos(wr * r.t), atol=2e-7)
    e = r.energy
    potential = -e["work"]            # no gravity: the bushing's work is minus its energy
    assert np.abs(e["kinetic"] + potential - e["kinetic"][0] - potential[0]).max() < 1e-8
    np.testing.assert_allclose(r.outputs["mount.fx"], -k * r.q[:, 0], atol=1e-6)


def test_analytic_beam_tip_deflection_under_static_load():
    """A cantilever (Euler-Bernoulli) with a damped tip body settles under a tip load P at the
    deflection P L^3 / 3 E I; the Timoshenko matrix adds P L a_s / (G A) (static condensation)."""
    L, E, Gs, A, I, P = 1.0, 2.0e5, 8.0e4, 1e-3, 5e-4, 0.5
    asm = Assembly("cantilever")
    asm.gravity = (0.0, 0.0, 0.0)
    asm.add(Part("tip", 0.2, inertia=(1e-3, 1e-3, 1e-3)), Marker("end", "tip"),
            Joint("free", "free", None, "tip", Pose((L, 0, 0))),
            MarkerForce.beam("beam", "end", None, L, E, Gs, A, 2 * I, I, I, damping_ratio=0.02),
            MarkerForce.three_component("load", "end", None, [[0.0, 0.0, P, 0.0]]))
    r = occupant.simulate(asm.compile(), t_end=4.0, dt=2e-4, integrator="rk4", output_dt=0.01)
    expect = P * L**3 / (3 * E * I)
    y = r.q[:, 1]
    print(f"tip deflection {y[-1]:.6e} m, expected {expect:.6e} m")
    assert abs(y[-1] - expect) < 2e-3 * expect
    assert np.ptp(y[-20:]) < 1e-4 * expect                        # settled
    K = beam_stiffness(L, E, Gs, A, 2 * I, I, I, asy=1.2)
    sub = K[np.ix_([1, 5], [1, 5])]
    np.testing.assert_allclose(np.linalg.solve(sub, [P, 0.0])[0],
                               expect + P * L * 1.2 / (Gs * A), rtol=1e-12)


def test_analytic_field_and_single_component_forces():
    """A field with an off-diagonal stiffness couples x and y as its matrix says; a single-
    component force f(t) = 3 N t between B0 and a body on a prismatic joint gives x = t^3/(2m)."""
    Kf = np.diag([100.0, 100.0, 100.0, 1.0, 1.0, 1.0])
    Kf[0, 1] = Kf[1, 0] = 40.0
    asm = Assembly("field")
    asm.gravity = (0.0, 0.0, 0.0)
    asm.add(Part("b", 1.0), Marker("c", "b"), Joint("free", "free", None, "b"),
            MarkerForce.field("f", "c", None, Kf))
    model = asm.compile()
    q0 = model.neutral_configuration()
    q0[0] = 0.01
    r = occupant.simulate(model, t_end=1e-3, dt=1e-4, q0=q0, integrator="rk4", output_dt=1e-3)
    np.testing.assert_allclose([r.outputs["f.fx"][0], r.outputs["f.fy"][0]], [-1.0, -0.4],
                               rtol=1e-9)

    m = 2.0
    asm = Assembly("push")
    asm.gravity = (0.0, 0.0, 0.0)
    asm.add(Part("b", m), Marker("c", "b", (0.0, 0.0, 0.0)),
            Joint("s", "prismatic", None, "b",     # slides along x
                  Pose((1.0, 0, 0), np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]]))),
            MarkerForce.single_component("push", "c", None, [[0.0, 0.0], [10.0, 30.0]]))
    r = occupant.simulate(asm.compile(), t_end=0.5, dt=1e-3, integrator="rk4", output_dt=0.05)
    np.testing.assert_allclose(r.q[:, 0], r.t**3 / (2 * m), atol=1e-9)


def test_identity_solid_mass_properties_against_trimesh_meshes():
    """Each solid's volume and inertia (per unit density) against a fine trimesh mesh of it."""
    import trimesh
    cases = [
        (Box("b", "m", (0.1, 0.2, 0.3)), trimesh.creation.box((0.2, 0.4, 0.6)), 1e-9),
        (Ellipsoid("e", "m", (0.1, 0.1, 0.1)), trimesh.creation.icosphere(6, 0.1), 2e-3),
        (Cylinder("c", "m", 0.05, 0.3), trimesh.creation.cylinder(0.05, 0.3, sections=512), 2e-4),
        (Cylinder("k", "m", 0.05, 0.3, ends="round"),
         trimesh.creation.capsule(0.3, 0.05, count=[128, 128]), 2e-3),
        (Torus("t", "m", 0.2, 0.03), trimesh.creation.torus(0.2, 0.03, 256, 128), 2e-3),
    ]
    cone = trimesh.creation.cone(0.1, 0.25, sections=512)          # apex at z = 0.25
    cases.append((Frustum("f", "m", 0.25, 0.1, 0.0), cone, 2e-4))
    for g, mesh, tol in cases:
        V, c, Ig = solid_properties(g, {})
        assert V == pytest.approx(mesh.volume, rel=tol), g.name
        np.testing.assert_allclose(c, mesh.center_mass, atol=tol * 0.3)
        np.testing.assert_allclose(Ig, mesh.moment_inertia, rtol=tol, atol=tol * np.abs(Ig).max())


def test_analytic_material_gives_a_part_its_mass():
    """A steel (7850 kg/m^3) sphere of radius 0.1 m on a marker 0.2 m along x plus a box: mass,
    centre of mass and inertia by the parallel-axis theorem."""
    asm = Assembly("m")
    asm.add(Material("steel", 7850.0, youngs_modulus=210e9, poisson=0.3),
            Part("p", None, material="steel"), Marker("s", "p", (0.2, 0, 0)),
            Marker("o", "p"), Sphere("ball", "s", 0.1), Box("block", "o", (0.05, 0.05, 0.05)))
    m1, m2 = 7850 * 4 / 3 * np.pi * 0.1**3, 7850 * 0.1**3
    mass, com, I = part_mass_properties(asm.parts["p"], asm.markers, asm.geometries, asm.materials)
    assert mass == pytest.approx(m1 + m2, rel=1e-12)
    np.testing.assert_allclose(com, (0.2 * m1 / (m1 + m2), 0, 0), atol=1e-12)
    d1, d2 = 0.2 - com[0], com[0]
    Iyy = 0.4 * m1 * 0.1**2 + m1 * d1**2 + m2 * (0.1**2 + 0.1**2) / 12 + m2 * d2**2
    assert I[1, 1] == pytest.approx(Iyy, rel=1e-12)
    with pytest.raises(ModelingError, match=r"mass: missing \(accepted: a positive mass in kg, or a material"):
        Part("q", None)
    with pytest.raises(ModelingError, match="density: must be a positive"):
        Material("air", 0.0)
    with pytest.raises(ModelingError, match="material: unknown 'wood'"):
        asm.add(Part("q", None, material="wood"))


def test_analytic_units_convert_to_si():
    u = Units(length="mm", mass="t", time="ms", angle="deg", force="kN")
    assert u.si(1500.0, "length") == pytest.approx(1.5)
    assert u.si(1.0, "stiffness") == pytest.approx(1e6)                 # kN/mm -> N/m
    assert u.si(90.0, "angle") == pytest.approx(np.pi / 2)
    assert u.si(1.0, "density") == pytest.approx(1e3 / 1e-9)            # t/mm^3
    assert u.si(1.0, "acceleration") == pytest.approx(1e-3 / 1e-6)
    with pytest.raises(ModelingError, match="units.length: unknown unit 'furlong'"):
        Units(length="furlong")


@pytest.mark.parametrize("build,message", [
    (lambda: Primitive("p", "atpoint", "m"), "unknown primitive 'atpoint'"),
    (lambda: Primitive("p", "inline", "m", "m"), "marker_i and marker_j are both 'm'"),
    (lambda: Coupler.gear("g", "a", "b", 0.0), "ratio: must be finite and non-zero"),
    (lambda: Coupler("c", "a", "a"), "with itself"),
    (lambda: MarkerForce.bushing("b", "i", "j", (1, 1, -1, 0, 0, 0)), "stiffness: must be >= 0"),
    (lambda: MarkerForce.field("f", "i", "j", -np.eye(6)), "positive semi-definite"),
    (lambda: MarkerForce.three_component("f", "i", "j", [[0, 1, 2]]), r"rows of \(t s, 3 load"),
    (lambda: MarkerForce.beam("b", "i", "j", 1.0, 0.0, 1, 1, 1, 1, 1), "youngs_modulus: must be"),
    (lambda: Torus("t", "m", 0.1, 0.2), "minor_radius 0.2 m must be below"),
    (lambda: Frustum("f", "m", 0.1, 0.1, -0.1), "top_radius: must be a length >= 0"),
    (lambda: Gravity("g", (0, 0)), "expected 3 finite numbers"),
])
def test_validation_names_element_key_and_value(build, message):
    with pytest.raises(ModelingError, match=message):
        build()


def test_regression_compile_errors_name_the_element():
    asm = Assembly("c")
    asm.add(Part("a", 1.0), Part("b", 1.0), Joint("ja", "spherical", None, "a"),
            Joint("jb", "revolute", None, "b"), Coupler("c", "ja", "jb"))
    with pytest.raises(ModelError, match="coupler 'c'.joint: joint 'ja' has 0 revolute or "
                                         "prismatic coordinates, got dof 0"):
        asm.compile()
    asm = Assembly("g")
    asm.add(Gravity("down", (0, 0, -9.81)))
    with pytest.raises(ModelingError, match="has a gravity field already"):
        asm.add(Gravity("up", (0, 0, 9.81)))
    assert asm.gravity[2] == -9.81


def test_analytic_placed_ellipsoid_mass_properties():
    """An ellipsoid placed by its own ``position`` p and ``rotation`` R in its marker's frame:
    volume 4/3 pi a b c, centroid p, inertia per unit density R diag(V (b^2 + c^2) / 5, ...) R^T."""
    a, b, c = 0.06, 0.13, 0.11
    t = np.radians(30.0)
    R = np.array([[np.cos(t), 0.0, np.sin(t)], [0.0, 1.0, 0.0], [-np.sin(t), 0.0, np.cos(t)]])
    p = np.array([0.3, -0.1, 0.2])
    V, centre, I = solid_properties(Ellipsoid("e", "m", (a, b, c), position=p, rotation=R), {})
    V0 = 4.0 / 3.0 * np.pi * a * b * c
    assert V == pytest.approx(V0, rel=1e-14)
    np.testing.assert_allclose(centre, p, atol=1e-15)
    np.testing.assert_allclose(I, R @ np.diag(V0 / 5 * np.array([b * b + c * c, a * a + c * c, a * a + b * b]))
                               @ R.T, atol=1e-18)
