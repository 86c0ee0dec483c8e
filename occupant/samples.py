"""Built-in sample models: random trees for the identity tests, pendulums and a 15-body humanoid."""
import numpy as np

from occupant.modeling import Assembly, Part, Joint, MDH, Pose
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
