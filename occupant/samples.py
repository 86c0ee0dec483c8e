"""Built-in sample models: random trees for the identity tests, pendulums and a 15-body humanoid."""
import numpy as np

from occupant.constants import G0
from occupant.modeling import Assembly, Part, Joint, Marker, MDH, Pose, JointMotion, TimeFunction
from occupant.spatial.rotation import quat_to_matrix

ALL_JOINT_TYPES = ("revolute", "prismatic", "universal", "spherical", "euler", "free", "fixed")


def _random_part(name, rng):
    # principal moments drawn so that the triangle inequality holds, axes rotated at random
    a, b = rng.uniform(0.01, 0.2, 2)
    moments = np.array([a, b, rng.uniform(abs(a - b) + 1e-3, a + b)])
    quat = rng.normal(size=4)
    R = quat_to_matrix(quat / np.linalg.norm(quat))
    return Part(name, mass=rng.uniform(0.5, 5.0), com=rng.uniform(-0.2, 0.2, 3),
                inertia=R @ np.diag(moments) @ R.T)


def random_tree(n_bodies, seed, joint_types=("revolute",), floating_base=False):
    """A compiled Model of n_bodies bodies named b0, b1, ... joined in a random tree.

    Each body's parent is drawn uniformly from the earlier bodies (b0's parent is the base B0, or a
    free joint when ``floating_base``); joint kinds are drawn from ``joint_types``; placements are
    random modified-DH parameters, so every code path of the joint types is exercised."""
    rng = np.random.default_rng(seed)
    unknown = set(joint_types) - set(ALL_JOINT_TYPES)
    if unknown or not joint_types:
        raise ValueError(f"random_tree: joint_types {sorted(unknown) or '()'} unknown "
                         f"(accepted: {', '.join(ALL_JOINT_TYPES)})")
    if n_bodies < 1:
        raise ValueError(f"random_tree: n_bodies must be >= 1, got {n_bodies}")
    asm = Assembly(f"random_tree_{n_bodies}_{seed}")
    for i in range(n_bodies):
        asm.add(_random_part(f"b{i}", rng))
    for i in range(n_bodies):
        parent = None if i == 0 else f"b{int(rng.integers(0, i))}"
        kind = "free" if (i == 0 and floating_base) else str(rng.choice(joint_types))
        placement = MDH(gamma=rng.uniform(-np.pi, np.pi), b=rng.uniform(-0.3, 0.3),
                        alpha=rng.uniform(-np.pi, np.pi), d=rng.uniform(-0.3, 0.3),
                        theta=rng.uniform(-np.pi, np.pi), r=rng.uniform(-0.3, 0.3))
        axes = ()
        if kind in ("universal", "euler"):
            axes = tuple(MDH(alpha=rng.uniform(-np.pi, np.pi), d=rng.uniform(-0.1, 0.1),
                             theta=rng.uniform(-np.pi, np.pi)) for _ in range(1 if kind == "universal" else 2))
        asm.add(Joint(f"j{i}", kind, parent, f"b{i}", placement, axes=axes))
    return asm.compile()


def pendulum(length=1.0, mass=1.0, n_links=1, radius=0.01):
    """A planar chain of ``n_links`` rods (uniform slender cylinders) hinged about the world y axis,
    hanging along -z at q = 0."""
    asm = Assembly(f"pendulum_{n_links}")
    Iyy = mass * (3 * radius**2 + length**2) / 12 + 0.0
    Izz = 0.5 * mass * radius**2
    for i in range(n_links):
        # the joint frame has z along world y (alpha = -90 deg about x), so the rod hangs along the
        # frame's x axis rotated: centre of mass at -length/2 along the world z
        asm.add(Part(f"link{i}", mass, com=(length / 2, 0.0, 0.0),
                     inertia=(Izz, Iyy, Iyy)))
    for i in range(n_links):
        if i == 0:
            # link x along world -z, joint axis z along world +y
            placement = Pose(rotation=[[0, -1, 0], [0, 0, 1], [-1, 0, 0]])
            asm.add(Joint(f"hinge{i}", "revolute", None, f"link{i}", placement))
        else:
            asm.add(Joint(f"hinge{i}", "revolute", f"link{i-1}", f"link{i}", MDH(d=length)))
    return asm.compile()


# Segment masses (kg) of the sample humanoid: the commonly quoted Hybrid III 50th male values,
# shared/reference/crash-domain-facts.md section 1.2 (tagged [U] there: unverified); the head/neck
# and torso split into five spine segments here. Inertias are those of uniform solid ellipsoids of
# the given semi-axes (I_x = m (b^2 + c^2) / 5), an approximation good enough for a benchmark and
# demo model; the calibrated dummies live in dummies/.
_HUMANOID_SEGMENTS = {
    # name: (mass kg, semi-axes m, centre of mass in the segment frame m)
    "pelvis": (11.5, (0.12, 0.17, 0.10), (0.0, 0.0, 0.05)),
    "abdomen": (11.54, (0.10, 0.15, 0.10), (0.0, 0.0, 0.10)),
    "thorax": (17.19, (0.12, 0.17, 0.18), (0.0, 0.0, 0.18)),
    "neck": (1.54, (0.05, 0.05, 0.06), (0.0, 0.0, 0.06)),
    "head": (4.54, (0.10, 0.08, 0.11), (0.02, 0.0, 0.08)),
    "upper_arm": (2.00, (0.045, 0.045, 0.15), (0.0, 0.0, -0.15)),
    "lower_arm": (2.30, (0.04, 0.04, 0.18), (0.0, 0.0, -0.18)),
    "thigh": (5.99, (0.075, 0.075, 0.21), (0.0, 0.0, -0.21)),
    "shank": (4.44, (0.05, 0.05, 0.21), (0.0, 0.0, -0.21)),
    "foot": (1.00, (0.12, 0.045, 0.04), (0.07, 0.0, -0.03)),
}


def _ellipsoid_part(name, mass, axes, com):
    a, b, c = axes
    moments = (mass * (b * b + c * c) / 5, mass * (a * a + c * c) / 5, mass * (a * a + b * b) / 5)
    return Part(name, mass, com=com, inertia=moments)


def humanoid(root="free"):
    """The 15-body, 38-dof sample humanoid (free pelvis, spherical spine, neck, shoulders and
    hips, revolute elbows and knees, universal ankles), standing upright at q = 0 with z up.
    ``root="fixed"`` bolts the pelvis to the base instead (32 dofs). Used by the demo and the
    benchmarks."""
    if root not in ("free", "fixed"):
        raise ValueError(f"humanoid: root must be 'free' or 'fixed', got {root!r}")
    asm = Assembly("humanoid")

    def seg(name, kind):
        m, axes, com = _HUMANOID_SEGMENTS[kind]
        asm.add(_ellipsoid_part(name, m, axes, com))

    for name in ("pelvis", "abdomen", "thorax", "neck", "head"):
        seg(name, name)
    for side in ("left", "right"):
        for kind in ("upper_arm", "lower_arm", "thigh", "shank", "foot"):
            seg(f"{side}_{kind}", kind)
    # joint locations (m, parent frame): sample geometry of a 1.75 m standing adult
    asm.add(Joint("root", root, None, "pelvis", Pose((0.0, 0.0, 0.95))))
    asm.add(Joint("lumbar", "spherical", "pelvis", "abdomen", Pose((0.0, 0.0, 0.10))))
    asm.add(Joint("thoracic", "spherical", "abdomen", "thorax", Pose((0.0, 0.0, 0.20))))
    asm.add(Joint("lower_neck", "spherical", "thorax", "neck", Pose((0.0, 0.0, 0.40))))
    asm.add(Joint("upper_neck", "spherical", "neck", "head", Pose((0.0, 0.0, 0.12))))
    # knee and elbow axes along the body's y (lateral) axis: joint frame z = parent y
    lateral = [[1, 0, 0], [0, 0, 1], [0, -1, 0]]
    for side, s in (("left", 1.0), ("right", -1.0)):
        # hinge markers on the lower segments, so their part frames stay parallel to the parent's
        asm.add(Marker(f"{side}_elbow_axis", f"{side}_lower_arm", rotation=lateral))
        asm.add(Marker(f"{side}_knee_axis", f"{side}_shank", rotation=lateral))
        # the universal joint's second axis frame is turned -90 deg about x (its default MDH)
        asm.add(Marker(f"{side}_ankle_axes", f"{side}_foot", rotation=[[1, 0, 0], [0, 0, 1], [0, -1, 0]]))
        asm.add(Joint(f"{side}_shoulder", "spherical", "thorax", f"{side}_upper_arm",
                      Pose((0.0, s * 0.20, 0.34))))
        asm.add(Joint(f"{side}_elbow", "revolute", f"{side}_upper_arm", f"{side}_lower_arm",
                      Pose((0.0, 0.0, -0.30), lateral), child_marker=f"{side}_elbow_axis"))
        asm.add(Joint(f"{side}_hip", "spherical", "pelvis", f"{side}_thigh", Pose((0.0, s * 0.09, -0.05))))
        asm.add(Joint(f"{side}_knee", "revolute", f"{side}_thigh", f"{side}_shank",
                      Pose((0.0, 0.0, -0.42), lateral), child_marker=f"{side}_knee_axis"))
        asm.add(Joint(f"{side}_ankle", "universal", f"{side}_shank", f"{side}_foot",
                      Pose((0.0, 0.0, -0.42)), child_marker=f"{side}_ankle_axes"))
    return asm.compile()


def sled_pulse(peak_g=20.0, duration=0.1, speed0=50 / 3.6, t_end=0.3):
    """The reference frontal sled pulse of the tests and benchmarks: B0 translating along x with
    a half-sine deceleration of ``peak_g`` (g) over ``duration`` (s), starting at ``speed0`` (m/s),
    sampled every 0.1 ms to ``t_end``. The default 20 g, 100 ms from 50 km/h has a delta-v of
    2 A T / pi = 45 km/h: an idealised full-width barrier pulse (crash-domain-facts.md 4.2 [D])."""
    from occupant.model.base_motion import BaseMotion
    t = np.linspace(0.0, t_end, int(round(t_end / 1e-4)) + 1)
    a = np.where(t < duration, -peak_g * G0 * np.sin(np.pi * t / duration), 0.0)
    return BaseMotion.translational(t, a, velocity0=(speed0, 0.0, 0.0))


def _rod(name, length, mass):
    """A uniform slender rod along its part frame's x axis from the origin: centre of mass at
    length/2, I = m L^2 / 12 about the transverse axes (1e-6 kg m^2 about its own axis, which the
    planar mechanisms never turn about, to keep the inertia positive-definite)."""
    Ir = mass * length**2 / 12.0
    return Part(name, mass, com=(length / 2, 0.0, 0.0), inertia=(1e-6, Ir, Ir))


def _rz(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def four_bar(crank_angle=np.radians(60.0)):
    """The planar four-bar linkage of issue 12 (seed 001's test mechanism): ground pivots O1 =
    (0, 0, 0) and O2 = (0.5, 0, 0) m, crank 0.2 m (1 kg), coupler 0.6 m (3 kg), rocker 0.5 m
    (2 kg), uniform slender rods in the x-y plane, gravity -9.81 m/s^2 along y. At q = 0 the crank
    makes ``crank_angle`` with +x and the coupler-rocker joint is above the x axis (the released-
    at-rest configuration). Tree: crank and rocker hinged to B0, coupler hinged to the crank; the
    coupler-rocker hinge ``C`` closes the loop (a cut joint, compiled to constraint equations)."""
    crank, coupler, rocker, ground = 0.2, 0.6, 0.5, 0.5
    a = crank * np.array([np.cos(crank_angle), np.sin(crank_angle)])      # crank tip
    o2 = np.array([ground, 0.0])
    # C: intersection of the circles |C - a| = coupler and |C - O2| = rocker, the upper one
    d = np.linalg.norm(o2 - a)
    if not abs(coupler - rocker) < d < coupler + rocker:
        raise ValueError(f"four_bar: the linkage cannot be assembled at crank angle {crank_angle!r} rad")
    along = (coupler**2 - rocker**2 + d**2) / (2 * d)
    normal = np.array([-(o2 - a)[1], (o2 - a)[0]]) / d
    c_pt = a + along * (o2 - a) / d + np.sqrt(coupler**2 - along**2) * normal
    if c_pt[1] < 0:
        c_pt = a + along * (o2 - a) / d - np.sqrt(coupler**2 - along**2) * normal
    phi_coupler = np.arctan2(*(c_pt - a)[::-1])
    phi_rocker = np.arctan2(*(c_pt - o2)[::-1])
    asm = Assembly("four_bar")
    asm.gravity = (0.0, -9.81, 0.0)
    asm.add(_rod("crank", crank, 1.0), _rod("coupler", coupler, 3.0), _rod("rocker", rocker, 2.0))
    asm.add(Marker("rocker_tip", "rocker", position=(rocker, 0.0, 0.0)))
    asm.add(Joint("O1", "revolute", None, "crank", Pose(rotation=_rz(crank_angle))))
    asm.add(Joint("B", "revolute", "crank", "coupler",
                  Pose((crank, 0.0, 0.0), _rz(phi_coupler - crank_angle))))
    asm.add(Joint("O2", "revolute", None, "rocker", Pose((ground, 0.0, 0.0), _rz(phi_rocker))))
    asm.add(Joint("C", "revolute", "coupler", "rocker",
                  Pose((coupler, 0.0, 0.0), _rz(phi_rocker - phi_coupler)), child_marker="rocker_tip"))
    return asm.compile()


def slider_crank(crank_angle=np.radians(60.0), crank_speed=None):
    """A planar slider-crank (seed 001's second test mechanism; dimensions chosen here, [E]):
    crank 0.2 m (1 kg) hinged at the origin, connecting rod 0.6 m (2 kg), slider 1 kg on the x
    axis, uniform slender rods in the x-y plane, gravity -9.81 m/s^2 along y; at q = 0 the crank
    makes ``crank_angle`` with +x, released at rest. Tree: crank and slider (prismatic along x)
    on B0, rod hinged to the crank; the rod-slider hinge ``D`` closes the loop. ``crank_speed``
    (rad/s): the crank driven at that constant speed instead (the joint motion ``drive``)."""
    crank, rod = 0.2, 0.6
    a = crank * np.array([np.cos(crank_angle), np.sin(crank_angle)])
    x_slider = a[0] + np.sqrt(rod**2 - a[1]**2)
    phi_rod = np.arctan2(-a[1], x_slider - a[0])
    # slider frame: z (the sliding axis) along world x, x along world y, y along world z
    R_slider = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    asm = Assembly("slider_crank")
    asm.gravity = (0.0, -9.81, 0.0)
    asm.add(_rod("crank", crank, 1.0), _rod("rod", rod, 2.0),
            Part("slider", 1.0, inertia=(1e-3, 1e-3, 1e-3)))
    asm.add(Marker("slider_pin", "slider", rotation=R_slider.T))
    asm.add(Joint("O", "revolute", None, "crank", Pose(rotation=_rz(crank_angle))))
    asm.add(Joint("A", "revolute", "crank", "rod", Pose((crank, 0.0, 0.0), _rz(phi_rod - crank_angle))))
    asm.add(Joint("S", "prismatic", None, "slider", Pose((x_slider, 0.0, 0.0), R_slider)))
    asm.add(Joint("D", "revolute", "rod", "slider", Pose((rod, 0.0, 0.0), _rz(-phi_rod)),
                  child_marker="slider_pin"))
    if crank_speed is not None:
        asm.add(JointMotion("drive", "O", TimeFunction((0.0, crank_speed))))
    return asm.compile()


def knife_edge_sleigh(blade_offset=0.2, mass=2.0, inertia=0.05):
    """The Chaplygin sleigh (a linear non-holonomic system; Neimark & Fufaev 1972, ch. III): a
    body moving in the horizontal x-y plane on a knife edge whose blade, ``blade_offset`` (m)
    along the body's x axis from its centre of mass, cannot slide sideways (along the body's y).
    One planar joint carries it (coordinates x, y of the centre of mass and the heading rz, its
    slides massless, so that the body's mass ``mass`` kg moves the same along x and y; two
    prismatic joints through massive carriages would add the first carriage's mass along x
    only); ``inertia`` kg m^2 about the centre of mass (values [E], chosen for the closed-form
    test). At q = 0 every frame is aligned with B0. The blade is the velocity constraint
    ``blade``."""
    from occupant.modeling.velocity_constraints import KnifeEdge
    asm = Assembly("knife_edge_sleigh")
    asm.gravity = (0.0, 0.0, -9.81)
    asm.add(Part("sleigh", mass, inertia=(inertia, inertia, inertia)))
    asm.add(Marker("blade_point", "sleigh", position=(blade_offset, 0.0, 0.0)))
    asm.add(Joint("plane", "planar", None, "sleigh", Pose()))
    asm.add(KnifeEdge("blade", "blade_point", axis=(0.0, 1.0, 0.0)))
    return asm.compile()
