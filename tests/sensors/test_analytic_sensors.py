"""Virtual sensors against closed-form answers: accelerometers at rest and on a pulsed base,
spinning bodies, a hanging mass on a load cell, the upper-neck load cell of a rigidly carried
head, chest deflection from two markers."""
import types

import numpy as np
import pytest

from occupant.human import load_dummy
from occupant.injury import moment_at_occipital_condyle
from occupant.model import BaseMotion
from occupant.modeling import Assembly, Joint, Marker, Part, Pose
from occupant.sensors import (
    Accelerometer, AngularAccelerationSensor, AngularVelocitySensor, DisplacementSensor, LoadCell,
    SensorWarning, UPPER_NECK_LOAD_CELL_OFFSET, evaluate,
)
from occupant.sensors.evaluate import load_cell_sources

G = 9.81
GRAVITY = (0.0, 0.0, -G)


def results_of(model, t, q, v, vdot, base_motion=None):
    """A stand-in for occupant.results.Results with what the sensors read."""
    n = len(t)
    bm = base_motion or BaseMotion()
    return types.SimpleNamespace(
        t=np.asarray(t, float),
        q=np.broadcast_to(np.asarray(q, float), (n, model.nq)).copy(),
        v=np.broadcast_to(np.asarray(v, float), (n, model.nv)).copy(),
        vdot=np.broadcast_to(np.asarray(vdot, float), (n, model.nv)).copy(),
        base_states=np.array([bm.spatial_state(tk, GRAVITY) for tk in t]),
    )


def by_name(channels):
    return {c.name: c for c in channels}


def block(rotation=None, joint="fixed", mass=2.0):
    """One 0.2 m block on B0; its frame rotated by ``rotation`` in B0."""
    asm = Assembly("block")
    asm.add(Part("block", mass, com=(0.05, 0.0, 0.1), inertia=(0.01, 0.02, 0.03)))
    asm.add(Joint("mount", joint, None, "block", Pose(rotation=rotation)))
    return asm.compile()


def test_analytic_accelerometer_at_rest_reads_minus_one_g_along_j211_z():
    # An accelerometer reads specific force a - g. At rest that is +9.81 m/s^2 up; J211 z points
    # down, so an upright sensor reads -9.81 in z, and an upside-down one (head-down pendulum
    # attitude, segment z along world -z) reads +9.81.
    t = np.arange(5) * 1e-4
    for rotation, expected_z in ((None, -G), (np.diag([1.0, -1.0, -1.0]), +G)):
        m = block(rotation)
        ch = by_name(evaluate(m, results_of(m, t, [], [], []), [Accelerometer("Box", body="block", point=(0.1, 0.2, 0.3), location="CHST")]))
        np.testing.assert_allclose(ch["Box acceleration X"].values, 0.0, atol=1e-12)
        np.testing.assert_allclose(ch["Box acceleration Y"].values, 0.0, atol=1e-12)
        np.testing.assert_allclose(ch["Box acceleration Z"].values, expected_z, rtol=1e-12)
        assert ch["Box acceleration Z"].unit == "m/s^2"
        assert ch["Box acceleration Z"].code == "11CHST000000ACZ0"


def test_analytic_rigid_model_accelerometer_equals_the_pulse():
    # Bodies welded to a base carrying a 20 g half-sine deceleration: every accelerometer reads
    # the pulse along x (vehicle decelerating: negative x, crash-domain-facts 0.1) and -g along z.
    asm = Assembly("hybrid3_50m_rigid")
    asm.add(Part("torso", 30.0, com=(0.0, 0.0, 0.3)))
    asm.add(Part("head", 4.5, com=(0.05, 0.0, 0.05)))
    asm.add(Joint("seat", "fixed", None, "torso", Pose((0.0, 0.0, 0.1))))
    asm.add(Joint("neck", "fixed", "torso", "head", Pose((0.05, 0.0, 0.6))))
    m = asm.compile()
    tp = np.linspace(0.0, 0.1, 2001)
    pulse = np.where(tp < 0.08, -20 * 9.80665 * np.sin(np.pi * tp / 0.08), 0.0)
    bm = BaseMotion.translational(tp, pulse, velocity0=(15.6, 0.0, 0.0))
    t = np.arange(1001) * 1e-4
    chans = evaluate(m, results_of(m, t, [], [], [], bm), [Accelerometer("Head CG", body="head")])
    ch = by_name(chans)
    np.testing.assert_allclose(ch["Head CG acceleration X"].values, np.interp(t, tp, pulse), atol=1e-9)
    np.testing.assert_allclose(ch["Head CG acceleration Y"].values, 0.0, atol=1e-12)
    np.testing.assert_allclose(ch["Head CG acceleration Z"].values, -G, atol=1e-9)
    assert ch["Head CG acceleration X"].code == "11HEAD0000H3ACX0"  # dummy code from the model name
    assert len(ch["Head CG acceleration X"]) == 1001 and ch["Head CG acceleration X"].dt == pytest.approx(1e-4)


def test_analytic_spinning_body_angular_velocity_and_centripetal_acceleration():
    # A base turning about world z at w0 with angular acceleration alpha0, a block spinning on a
    # revolute joint (axis z) at w1 relative to it: the block reads omega = (0, 0, w0 + w1) in
    # its axes, J211 (z down) gives -(w0 + w1); angular acceleration -(alpha0 + w1dot).
    w0, alpha0, w1, w1dot = 3.0, 2.0, 5.0, -4.0
    t = np.arange(4) * 1e-3
    rot = lambda s: np.array([[np.cos(w0 * s + alpha0 * s * s / 2), -np.sin(w0 * s + alpha0 * s * s / 2), 0],
                              [np.sin(w0 * s + alpha0 * s * s / 2), np.cos(w0 * s + alpha0 * s * s / 2), 0],
                              [0, 0, 1.0]])
    bm = BaseMotion(rotation=rot, angular_velocity=lambda s: np.array([0, 0, w0 + alpha0 * s]),
                    angular_acceleration=lambda s: np.array([0, 0, alpha0]))
    m = block(joint="revolute")
    r = results_of(m, t, [0.0], [w1], [w1dot], bm)
    r.q[:, 0] = w1 * t + w1dot * t * t / 2
    r.v[:, 0] = w1 + w1dot * t
    sensors = [AngularVelocitySensor("Spin", body="block", location="HEAD"),
               AngularAccelerationSensor("Spin rate", body="block", location="HEAD"),
               Accelerometer("Rim", body="block", point=(0.3, 0.0, 0.0), location="HEAD")]
    ch = by_name(evaluate(m, r, sensors, rate=1000.0))
    w = w0 + alpha0 * t + w1 + w1dot * t
    np.testing.assert_allclose(ch["Spin angular velocity Z"].values, -w, rtol=1e-12)
    np.testing.assert_allclose(ch["Spin angular velocity X"].values, 0.0, atol=1e-12)
    np.testing.assert_allclose(ch["Spin rate angular acceleration Z"].values, -(alpha0 + w1dot), rtol=1e-12)
    assert ch["Spin angular velocity Z"].unit == "rad/s" and ch["Spin angular velocity Z"].code[12:14] == "AV"
    # point 0.3 m out on the block's x axis: centripetal -w^2 r along x, tangential alpha r along
    # y (model y left -> J211 y right: negated), specific force -g along z
    np.testing.assert_allclose(ch["Rim acceleration X"].values, -w**2 * 0.3, rtol=1e-12)
    np.testing.assert_allclose(ch["Rim acceleration Y"].values, -(alpha0 + w1dot) * 0.3, rtol=1e-12)
    np.testing.assert_allclose(ch["Rim acceleration Z"].values, -G, rtol=1e-12)


def test_analytic_sensors_on_a_turned_marker_read_in_its_axes():
    """Sensors mounted at an angle (given by a marker with axes, a dummy file's orientation_deg)
    read in the marker's J211 axes. A block carried by a base accelerating at A along x, with
    gravity: the specific force is (A, 0, g) in the block's axes. A marker pitched by b about y
    (its x forward and down) reads X = A cos b - g sin b, Z = -(A sin b + g cos b); one rolled
    90 deg about x (its y along the block's z, its z along the block's -y) reads (A, -g, 0). The
    block spinning at w about its z: the rolled marker's rate sensor reads (0, -w, 0) where the
    block's reads (0, 0, -w). A marker given no axes reads as its segment. Read in the segment's
    axes (as before branch keyslate), the pitched marker read (A, 0, -g)."""
    A, b, w = -150.0, np.radians(30.0), 7.0
    c_, s_ = np.cos(b), np.sin(b)
    pitch = np.array([[c_, 0.0, s_], [0.0, 1.0, 0.0], [-s_, 0.0, c_]])   # R_block_marker, about y
    roll = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])  # 90 deg about x
    asm = Assembly("block")
    asm.add(Part("block", 2.0, com=(0.05, 0.0, 0.1), inertia=(0.01, 0.02, 0.03)))
    asm.add(Joint("mount", "revolute", None, "block", Pose()))
    asm.add(Marker("pitched", "block", (0.0, 0.0, 0.0), pitch), Marker("rolled", "block", (0.0, 0.0, 0.0), roll),
            Marker("plain", "block", (0.0, 0.0, 0.0)))
    m = asm.compile()
    t = np.arange(4) * 1e-3
    bm = BaseMotion.translational(np.array([0.0, 1.0]), np.array([A, A]))
    r = results_of(m, t, [0.0], [0.0], [0.0], bm)
    sensors = [Accelerometer(name, body="block", marker=name, location="CHST")
               for name in ("pitched", "rolled", "plain")]
    sensors.append(Accelerometer("segment", body="block", point=(0.0, 0.0, 0.0), location="CHST"))
    ch = by_name(evaluate(m, r, sensors, rate=1000.0))

    def read(name, what="acceleration"):
        return np.array([ch[f"{name} {what} {a}"].values for a in "XYZ"]).T

    np.testing.assert_allclose(read("pitched"), [[A * c_ - G * s_, 0.0, -(A * s_ + G * c_)]] * len(t),
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(read("rolled"), [[A, -G, 0.0]] * len(t), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(read("plain"), read("segment"), rtol=0.0, atol=1e-12)
    np.testing.assert_allclose(read("segment"), [[A, 0.0, -G]] * len(t), rtol=1e-12, atol=1e-12)
    # spinning at w about the block's z (the revolute axis): the rate in the rolled marker's axes
    r = results_of(m, t, [0.0], [w], [0.0])
    r.q[:, 0] = w * t
    sensors = [AngularVelocitySensor("rolled", body="block", marker="rolled", location="CHST"),
               AngularVelocitySensor("segment", body="block", location="CHST")]
    ch = by_name(evaluate(m, r, sensors, rate=1000.0))
    np.testing.assert_allclose(read("rolled", "angular velocity"), [[0.0, -w, 0.0]] * len(t), atol=1e-12)
    np.testing.assert_allclose(read("segment", "angular velocity"), [[0.0, 0.0, -w]] * len(t), atol=1e-12)


def hanging_mass(mass=3.0, length=0.4):
    asm = Assembly("hanging")
    asm.add(Part("support", 1.0))
    asm.add(Part("bob", mass, com=(0.0, 0.0, -length), inertia=(0.01, 0.01, 0.01)))
    asm.add(Joint("bracket", "fixed", None, "support"))
    asm.add(Joint("hinge", "spherical", "support", "bob", Pose((0.0, 0.0, -0.05))))
    return asm.compile()


def test_analytic_hanging_mass_load_cell_reads_m_g():
    # The load on the support by the hanging bob (the part above the cell, J211): m g pulling
    # down = +z (tension positive); on the bob by the support: -m g. Moment about a point of the
    # support 0.1 m forward of the hinge: (o - P) x F in model axes, then y and z negated.
    mass = 3.0
    m = hanging_mass(mass)
    t = np.arange(3) * 1e-4
    r = results_of(m, t, m.neutral_configuration(), np.zeros(m.nv), np.zeros(m.nv))
    sensors = [LoadCell("Cell", joint="hinge", body="support", location="NECK", fine1="LO"),
               LoadCell("Cell on bob", joint="hinge", body="bob", location="NECK", fine1="LO"),
               LoadCell("Cell offset", joint="hinge", body="support", point=(0.1, 0.0, -0.05), location="NECK")]
    ch = by_name(evaluate(m, r, sensors))
    np.testing.assert_allclose(ch["Cell force Z"].values, mass * G, rtol=1e-12)
    np.testing.assert_allclose(ch["Cell on bob force Z"].values, -mass * G, rtol=1e-12)
    for name in ("Cell force X", "Cell force Y", "Cell moment X", "Cell moment Y", "Cell moment Z"):
        np.testing.assert_allclose(ch[name].values, 0.0, atol=1e-12)
    F_model = np.array([0.0, 0.0, -mass * G])               # on the support, model axes
    M_model = np.cross(np.array([-0.1, 0.0, 0.0]), F_model)  # (o - P) x F
    np.testing.assert_allclose(ch["Cell offset moment Y"].values, -M_model[1], rtol=1e-12)
    assert ch["Cell force Z"].unit == "N" and ch["Cell moment Y"].unit == "N*m"
    assert ch["Cell force Z"].code == "11NECKLO0000FOZ0"


def test_analytic_load_cell_sources_split_weight_and_an_external_pull():
    # The hanging bob pulled down by P at its hinge besides its weight: the cell on the support
    # reads m g + P (tension, J211 +z); load_cell_sources gives m g as "inertia" (the motion with
    # no external load: the bob at rest under gravity) and P as the bob's own, the support's link
    # (above the cell) not among them; the parts sum to evaluate's reading.
    mass, pull = 3.0, 250.0
    m = hanging_mass(mass)
    t = np.arange(3) * 1e-4
    r = results_of(m, t, m.neutral_configuration(), np.zeros(m.nv), np.zeros(m.nv))
    f_ext = np.zeros((len(t), m.nl, 6))
    f_ext[:, m.body_link[m.body("bob")], 5] = -pull      # (moment, force) at the link's origin
    r.f_ext = f_ext
    cell = LoadCell("Cell", joint="hinge", body="support", location="NECK", fine1="LO")
    parts = load_cell_sources(m, r, cell)
    assert list(parts) == ["inertia", "bob"]
    np.testing.assert_allclose(parts["inertia"]["Cell force Z"], mass * G, rtol=1e-12)
    np.testing.assert_allclose(parts["bob"]["Cell force Z"], pull, rtol=1e-12)
    whole = by_name(evaluate(m, r, [cell]))
    for name, c in whole.items():
        np.testing.assert_allclose(parts["inertia"][name] + parts["bob"][name], c.values,
                                   atol=1e-9)
    with pytest.raises(Exception, match="not a LoadCell"):
        load_cell_sources(m, r, Accelerometer("Acc", body="bob", location="HEAD"))


def test_analytic_upper_neck_load_cell_and_occipital_condyle_moment():
    # The whole Hybrid III 50M carried rigidly by a base with specific force s = a - g = (sx, 0, sz)
    # (q neutral, v = vdot = 0: every segment moves with the base). The neck holds the head:
    # F = m s, moment about the OC N = m r x s (r: head CG from the OC). J211: Fz = -m sz,
    # Fx = m sx, My = -N_y = m (rx sz - rz sx); the load cell sits d = 17.78 mm above the OC,
    # so My_cell = My_oc + d Fx, and the injury code's M_OC = My - Fx d gives My_oc back.
    m = load_dummy("hybrid3_50m")
    head = m.body("head")
    mh = m.body_mass[head]
    rx, _, rz = m.body_com[head]
    for sx, sz in ((0.0, G), (-20 * 9.80665, G)):
        t = np.arange(3) * 1e-4
        r = results_of(m, t, m.neutral_configuration(), np.zeros(m.nv), np.zeros(m.nv))
        r.base_states[:, 9], r.base_states[:, 11] = sx, sz
        sensors = [LoadCell("Upper neck", joint="upper_neck", body="head", location="NECK", fine1="UP",
                            point=(0.0, 0.0, UPPER_NECK_LOAD_CELL_OFFSET)),
                   LoadCell("OC", joint="upper_neck", body="head", location="NECK", fine1="UP", fine2="01")]
        ch = by_name(evaluate(m, r, sensors))
        fx, fz = ch["Upper neck force X"].values, ch["Upper neck force Z"].values
        np.testing.assert_allclose(fx, mh * sx, atol=1e-9)
        np.testing.assert_allclose(fz, -mh * sz, rtol=1e-12)
        my_oc = mh * (rx * sz - rz * sx)
        np.testing.assert_allclose(ch["OC moment Y"].values, my_oc, rtol=1e-10)
        np.testing.assert_allclose(ch["Upper neck moment Y"].values, my_oc + UPPER_NECK_LOAD_CELL_OFFSET * mh * sx, rtol=1e-10)
        np.testing.assert_allclose(moment_at_occipital_condyle(fx, ch["Upper neck moment Y"].values),
                                   my_oc, rtol=1e-10)
    # at rest the head CG ahead of the OC makes the neck hold a flexion moment (My > 0) and the
    # head's weight compresses it (Fz < 0): 4.57 kg x 9.81 x 0.0229 m (the head CG 22.9 mm ahead
    # of the OC, dummies/README.md) = 1.03 N m, -44.8 N
    assert my_oc != 0 and mh * rx * G == pytest.approx(1.025, abs=0.01)


def test_analytic_chest_deflection_from_two_markers():
    # A sternum on a prismatic joint along the spine's x axis, pushed back 30 mm: deflection X
    # (sternum marker relative to the spine marker, spine axes, change since t0) is -0.030 m,
    # compression negative as J211; the distance shrinks by the same amount.
    asm = Assembly("chest")
    asm.add(Part("spine", 10.0))
    asm.add(Part("sternum", 0.5))
    asm.add(Marker("spine_ref", "spine", (0.02, 0.0, 0.1)))
    asm.add(Marker("sternum_ref", "sternum", (0.0, 0.0, 0.0)))
    asm.add(Joint("mount", "fixed", None, "spine"))
    R_y90 = [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]]  # joint z along the spine's x
    asm.add(Joint("slide", "prismatic", "spine", "sternum", Pose((0.12, 0.0, 0.1), R_y90)))
    m = asm.compile()
    t = np.arange(101) * 1e-4
    r = results_of(m, t, [0.0], [0.0], [0.0])
    r.q[:, 0] = -0.030 * t / t[-1]
    sensor = DisplacementSensor("Chest", body="spine", marker="spine_ref", to_body="sternum",
                                to_marker="sternum_ref", directions=("x", "r"), location="CHST")
    ch = by_name(evaluate(m, r, [sensor]))
    assert set(ch) == {"Chest displacement X", "Chest displacement R"}
    np.testing.assert_allclose(ch["Chest displacement X"].values, -0.030 * t / t[-1], atol=1e-15)
    np.testing.assert_allclose(ch["Chest displacement R"].values, -0.030 * t / t[-1], atol=1e-15)
    assert ch["Chest displacement X"].unit == "m" and ch["Chest displacement X"].code == "11CHST000000DSX0"


def test_analytic_coarse_results_are_interpolated_with_a_warning():
    # results at 1 kHz, channels at 10 kHz: linear interpolation of a linear-in-time state is
    # exact; the caveat is reported
    m = block(joint="revolute")
    t = np.arange(11) * 1e-3
    r = results_of(m, t, [0.0], [0.0], [0.0])
    r.v[:, 0] = 2.0 + 50.0 * t
    r.vdot[:, 0] = 50.0
    with pytest.warns(SensorWarning, match="coarser"):
        ch = by_name(evaluate(m, r, [AngularVelocitySensor("Spin", body="block", location="HEAD")]))
    c = ch["Spin angular velocity Z"]
    assert len(c) == 101
    np.testing.assert_allclose(c.values, -(2.0 + 50.0 * c.t), rtol=1e-12)
