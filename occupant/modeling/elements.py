"""Modeling elements. They refer to each other by name and are checked when added to an Assembly."""
import re
from dataclasses import dataclass, field

import numpy as np

from occupant.spatial.transforms import homogeneous, mdh_transform
from occupant.model.joint_types import JOINT_KINDS


class ModelingError(ValueError):
    """An element whose values are impossible, or that refers to something unknown.
    ``accepted`` (optional): what the value may be, appended as ``(accepted: ...)``, the form of
    the input files' messages (``occupant.io.toml_files.InputFileError``), so that a file loader
    passing the message on names the file, the key and what is accepted."""

    def __init__(self, message, accepted=None):
        self.accepted = accepted
        super().__init__(f"{message} (accepted: {accepted})" if accepted else message)


def element_kind(element):
    """What an element is, in words, for messages: "joint motion" for a JointMotion."""
    return re.sub(r"(?<!^)(?=[A-Z])", " ", type(element).__name__).lower()


def _vec3(value, what):
    a = np.asarray(value, dtype=float)
    if a.shape != (3,) or not np.all(np.isfinite(a)):
        raise ModelingError(f"{what}: expected 3 finite numbers, got {value!r}")
    return a


def _rotation(value, what):
    if value is None:
        return np.eye(3)
    R = np.asarray(value, dtype=float)
    if R.shape != (3, 3) or not np.allclose(R @ R.T, np.eye(3), atol=1e-9) or np.linalg.det(R) < 0:
        raise ModelingError(f"{what}: expected a proper 3x3 rotation matrix, got {value!r}")
    return R


_INERTIA = ("3 principal moments, (Ixx, Iyy, Izz, Ixy, Ixz, Iyz) or a 3x3 matrix, kg m^2: "
            "symmetric, positive-definite, each principal moment at most the sum of the others")


def inertia_tensor(value, what):
    """3x3 inertia from a 3x3 matrix, principal moments (3,) or (Ixx, Iyy, Izz, Ixy, Ixz, Iyz);
    checked symmetric positive-definite with principal moments obeying the triangle inequality."""
    a = np.asarray(value, dtype=float)
    if a.shape == (3,):
        I = np.diag(a)
    elif a.shape == (6,):
        xx, yy, zz, xy, xz, yz = a
        I = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    elif a.shape == (3, 3):
        I = a
    else:
        raise ModelingError(f"{what}: got shape {a.shape}", _INERTIA)
    if not np.all(np.isfinite(I)) or not np.allclose(I, I.T, rtol=1e-9, atol=1e-12):
        raise ModelingError(f"{what}: the inertia tensor is not finite and symmetric", _INERTIA)
    moments = np.linalg.eigvalsh(I)
    if moments[0] <= 0:
        raise ModelingError(f"{what}: the inertia tensor is not positive-definite (principal "
                            f"moments {moments.tolist()} kg m^2)", _INERTIA)
    tol = 1e-9 * moments.sum()
    if moments[0] + moments[1] < moments[2] - tol:
        raise ModelingError(f"{what}: principal moments {moments.tolist()} kg m^2 violate the "
                            f"triangle inequality I1 + I2 >= I3 (no rigid body has them)", _INERTIA)
    return 0.5 * (I + I.T)


class Connection:
    """Seed 000's connection (MbsConnection): an element defined by a marker I (``marker_i``) and
    a marker J (``marker_j``), or by I and a frame fixed in B0 (``position_j``, ``rotation_j``)
    when marker_j is None. Subclasses are dataclasses with those four fields."""

    def _check_markers(self, what):
        if self.marker_i == self.marker_j:
            raise ModelingError(f"{what}: marker_i and marker_j are both '{self.marker_i}'")
        self.position_j = _vec3(self.position_j, f"{what}.position_j")
        self.rotation_j = _rotation(self.rotation_j, f"{what}.rotation_j")

    @property
    def refs(self):
        r = {"marker_i": self.marker_i}
        if self.marker_j is not None:
            r["marker_j"] = self.marker_j
        return r


@dataclass
class Part:
    """A rigid body: mass (kg), centre of mass (m) and inertia about it (kg m^2), in the part frame.

    ``cm_marker`` (seed 000's feature definition of a part): a marker of this part whose origin is
    the centre of mass (``com`` is then taken from it when compiled). ``material``: a Material
    whose density gives the part its mass properties from its geometry (mass None), as
    ``occupant.modeling.materials.part_mass_properties``."""
    name: str
    mass: float | None
    com: tuple = (0.0, 0.0, 0.0)
    inertia: object = (1e-3, 1e-3, 1e-3)
    cm_marker: str | None = None
    material: str | None = None

    def __post_init__(self):
        what = f"part '{self.name}'"
        if self.mass is None and self.material is None:
            raise ModelingError(f"{what}.mass: missing", "a positive mass in kg, or a material "
                                "whose density gives it from the part's geometry")
        if self.mass is not None:
            if not (np.isfinite(self.mass) and self.mass > 0):
                raise ModelingError(f"{what}.mass: got {self.mass!r}", "a positive number of kg")
            self.mass = float(self.mass)
            self.inertia = inertia_tensor(self.inertia, f"{what}.inertia")
        self.com = _vec3(self.com, f"{what}.com")

    @property
    def refs(self):
        r = {}
        if self.cm_marker is not None:
            r["cm_marker"] = self.cm_marker
        if self.material is not None:
            r["material"] = self.material
        return r


@dataclass
class VirtualPart:
    """Stands for a part outside the model (seed 000's MbsVirtualPart: the interface of a
    subsystem stored alone; ``occupant.vehicle.Interface`` is this class). Markers and joints may
    use it as a part. ``bound_to`` names the real part it stands for once assembled (in a vehicle
    subsystem, a part of the parent's namespace); None, or when that part is deleted: the
    ground (B0)."""
    name: str
    bound_to: str | None = None

    @property
    def refs(self):
        return {} if self.bound_to is None else {"bound_to": self.bound_to}


@dataclass
class Marker:
    """A named frame on a part: origin (m) and axes (rotation matrix) in the part frame."""
    name: str
    part: str
    position: tuple = (0.0, 0.0, 0.0)
    rotation: object = None

    def __post_init__(self):
        self.position = _vec3(self.position, f"marker '{self.name}'.position")
        self.rotation = _rotation(self.rotation, f"marker '{self.name}'.rotation")

    @property
    def transform(self):
        """X_part_marker (4, 4)."""
        return homogeneous(self.rotation, self.position)

    @property
    def refs(self):
        return {"part": self.part}


@dataclass
class MDH:
    """Modified Denavit-Hartenberg (Khalil-Kleinfinger) placement of a joint axis in its parent
    frame: Rot_z(gamma) Trans_z(b) Rot_x(alpha) Trans_x(d) Rot_z(theta) Trans_z(r); lengths m, angles
    rad. The joint variable adds to theta (revolute) or r (prismatic)."""
    gamma: float = 0.0
    b: float = 0.0
    alpha: float = 0.0
    d: float = 0.0
    theta: float = 0.0
    r: float = 0.0

    @property
    def transform(self):
        return mdh_transform(self.gamma, self.b, self.alpha, self.d, self.theta, self.r)


@dataclass
class Pose:
    """Placement of a joint frame by position (m) and rotation matrix in the parent frame."""
    position: tuple = (0.0, 0.0, 0.0)
    rotation: object = None

    def __post_init__(self):
        self.position = _vec3(self.position, "pose.position")
        self.rotation = _rotation(self.rotation, "pose.rotation")

    @property
    def transform(self):
        return homogeneous(self.rotation, self.position)


_EXTRA_AXES = {"universal": 1, "euler": 2, "floating": 5, "hooke": 1}
_DEFAULT_AXES = {
    # second axis along the first frame's -y (x-axis twist of -90 deg)
    "universal": (MDH(alpha=-np.pi / 2),),
    "hooke": (MDH(alpha=-np.pi / 2),),
    # z, then y, then x of the joint frame at q = 0 (yaw, pitch, roll), mutually perpendicular
    # there, so the neutral pose is far from the gimbal lock (which is at +-90 deg of the second)
    "euler": (MDH(alpha=-np.pi / 2), MDH(gamma=np.pi / 2, alpha=np.pi / 2)),
    # floating, placed with z along the parent's x: slides along x, y, z, then turns about z
    # (yaw), the new y (pitch) and the new x (roll). MDH(gamma=alpha=90 deg) turns a frame
    # (a, b, c) into (b, c, a), MDH(alpha=-90 deg) into (a, -c, b); the last frame's (x, y, z)
    # are the parent's (-z, y, x) at q = 0
    "floating": (MDH(gamma=np.pi / 2, alpha=np.pi / 2), MDH(gamma=np.pi / 2, alpha=np.pi / 2),
                 MDH(), MDH(alpha=-np.pi / 2), MDH(gamma=np.pi / 2, alpha=np.pi / 2)),
}


@dataclass
class Joint:
    """A joint moving part ``child`` relative to ``parent`` (a part name, or None for the base B0).

    ``placement`` (MDH or Pose) puts the joint frame in the parent part frame, or in the frame of
    ``parent_marker`` when given. Revolute and prismatic joints act about/along the joint frame's z
    axis; universal and euler joints add one or two more revolute axes, each placed by an MDH in
    ``axes`` relative to the previous axis' moving frame. The child part frame coincides with the
    joint's moving frame, or, when ``child_marker`` is given, that marker of the child does.
    (Seed 000: the joint is defined by its I and J markers, ``child_marker`` and ``parent_marker``.)
    ``hooke`` is ``universal``; ``cylindrical`` slides along and turns about z; ``planar`` slides
    along x and y and turns about z; ``screw`` is cylindrical with the translation tied to the
    rotation, ``pitch`` m per turn (a coupler row: the model needs a constrained integrator);
    ``constant_velocity`` joins two shafts along the z axes of its two frames with equal spin
    at any bend (in a loop a ball joint plus one row; in the tree three turns, about x, y and x,
the outer two held equal by a coupler row: ``compile_constraints``).
    """
    name: str
    kind: str
    parent: str | None
    child: str
    placement: object = field(default_factory=Pose)
    axes: tuple = ()
    parent_marker: str | None = None
    child_marker: str | None = None
    pitch: float = 0.0

    def __post_init__(self):
        if self.kind == "screw" and not (np.isfinite(self.pitch) and self.pitch != 0):
            raise ModelingError(f"joint '{self.name}'.pitch: a screw joint needs a finite non-zero "
                                f"pitch (m of travel per turn), got {self.pitch!r}")
        if self.kind not in JOINT_KINDS:
            raise ModelingError(f"joint '{self.name}'.kind: unknown joint kind '{self.kind}' "
                                f"(accepted: {', '.join(JOINT_KINDS)})")
        if not isinstance(self.placement, (MDH, Pose)):
            raise ModelingError(f"joint '{self.name}'.placement: expected MDH or Pose")
        n_extra = _EXTRA_AXES.get(self.kind, 0)
        if not self.axes:
            self.axes = _DEFAULT_AXES.get(self.kind, ())
        self.axes = tuple(self.axes)
        if len(self.axes) != n_extra or not all(isinstance(a, MDH) for a in self.axes):
            raise ModelingError(f"joint '{self.name}'.axes: a {self.kind} joint takes {n_extra} "
                                f"further MDH axes, got {len(self.axes)}")
        if self.parent == self.child:
            raise ModelingError(f"joint '{self.name}': parent and child are the same part '{self.child}'")

    @property
    def refs(self):
        r = {"child": self.child}
        if self.parent is not None:
            r["parent"] = self.parent
        return r

    @property
    def marker_refs(self):
        return {k: m for k, m in (("parent_marker", self.parent_marker),
                                  ("child_marker", self.child_marker)) if m is not None}


@dataclass
class JointResistance:
    """Resistance of one joint coordinate, as ATB's joint force elements: inside the range of
    motion a linear (or tabulated) spring about ``reference``, viscous damping and Coulomb friction
    (smoothed over ``friction_speed``); beyond ``lower``/``upper`` a quadratic stop with damping
    proportional to penetration (Hunt-Crossley form), which dissipates energy on unloading.

    ``dof`` selects the coordinate within the joint (0 for 1-dof joints; 0, 1, 2 for the
    rotation-vector components of a spherical joint). Units: rad, N m, s (m, N for prismatic).
    ``table`` is an optional (k, 2) array of (deflection from reference, restoring load) replacing
    the linear stiffness; it is interpolated linearly and extrapolated with its end slopes.
    ``absorption`` in [0, 1): loading/unloading hysteresis of the spring (MADYMO/ATB hysteresis
    with an energy-absorption factor, as ``ContactCharacteristic.absorption``): below the largest
    deflection reached on each side of the reference the spring unloads along the straight line
    from that peak to the permanent set, so that a load-unload cycle dissipates that fraction of
    the loading work; 0 (default) is elastic. ``recovers``: the spring unloads from that peak to
    the origin instead, with no permanent set (``occupant.forces.joint_resistance``), as an elastic
    structure whose hysteresis comes from damping material (the Hybrid III chest).
    """
    name: str
    joint: str
    dof: int = 0
    stiffness: float = 0.0
    reference: float = 0.0
    damping: float = 0.0
    friction: float = 0.0
    friction_speed: float = 0.01
    lower: float = -np.inf
    upper: float = np.inf
    stop_stiffness: float = 0.0
    stop_damping: float = 0.0
    table: object = None
    absorption: float = 0.0
    recovers: bool = False

    def __post_init__(self):
        what = f"joint resistance '{self.name}'"
        hysteresis_checks(self, what)
        for key in ("stiffness", "damping", "friction", "stop_stiffness", "stop_damping"):
            val = getattr(self, key)
            if not (np.isfinite(val) and val >= 0):
                raise ModelingError(f"{what}.{key}: got {val!r}", "a finite number >= 0")
        if not self.friction_speed > 0:
            raise ModelingError(f"{what}.friction_speed: got {self.friction_speed!r}", "a number > 0")
        if not self.lower < self.upper:
            raise ModelingError(f"{what}: range of motion reversed or empty (lower {self.lower!r} "
                                f">= upper {self.upper!r})", "lower < upper")
        if self.table is not None:
            self.table = _load_table(self.table, f"{what}.table", "(deflection, load)")

    @property
    def refs(self):
        return {"joint": self.joint}


@dataclass
class SpringDamper:
    """Translational spring-damper between two markers (seed 000's flexible force element): the
    tension T = k (L - free_length) + c L' (linear) or T = table(L - free_length) + c L', L the
    distance between the markers' origins, pulls the two ends together when positive (pushes
    them apart when negative). ``table``: optional (k, 2) rows of (elongation m, tension N),
    interpolated linearly and extrapolated with its end slopes. ``marker_b`` None anchors end b
    at ``point_b`` (m) in the base frame B0."""
    name: str
    marker_a: str
    marker_b: str | None = None
    stiffness: float = 0.0
    damping: float = 0.0
    free_length: float = 0.0
    table: object = None
    point_b: tuple = (0.0, 0.0, 0.0)

    def __post_init__(self):
        what = f"spring-damper '{self.name}'"
        for key in ("stiffness", "damping", "free_length"):
            val = getattr(self, key)
            if not (np.isfinite(val) and val >= 0):
                raise ModelingError(f"{what}.{key}: must be a finite number >= 0, got {val!r}")
        self.point_b = _vec3(self.point_b, f"{what}.point_b")
        if self.table is not None:
            self.table = _load_table(self.table, f"{what}.table", "(elongation, tension)")

    @property
    def refs(self):
        r = {"marker": self.marker_a}
        if self.marker_b is not None:
            r["marker_b"] = self.marker_b
        return r


def _load_table(table, what, columns):
    t = np.asarray(table, dtype=float)
    if t.ndim != 2 or t.shape[1] != 2 or len(t) < 2 or np.any(np.diff(t[:, 0]) <= 0) \
            or not np.all(np.isfinite(t)):
        raise ModelingError(f"{what}: got {np.asarray(table).tolist()}",
                            f">= 2 finite rows of {columns} with increasing first column")
    return t


def hysteresis_checks(element, what):
    """The absorption (a share of a load-unload cycle's work, in [0, 1)) and ``recovers`` (to
    the origin, a hysteresis law: with 0 < absorption < 1) of a joint resistance or contact
    characteristic."""
    if not (np.isfinite(element.absorption) and 0 <= element.absorption < 1):
        raise ModelingError(f"{what}.absorption: got {element.absorption!r}", "0 <= absorption < 1")
    if element.recovers and not element.absorption > 0:
        raise ModelingError(f"{what}.recovers: unloading to the origin is a hysteresis law, and "
                            f"absorption is {element.absorption!r}",
                            "recovers with 0 < absorption < 1, or recovers = false")
