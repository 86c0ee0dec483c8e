"""Uniform-pressure airbags (issue 11 section 5): the bag, its inflator and vents, and its contacts
with occupant ellipsoids; compiled to ``occupant.model.bundle.AirbagBlock`` by ``airbag_block``.
The kernel is ``occupant.restraints.airbag``, whose docstring states the equations.

The model is the control-volume (Wang-Nefske) airbag as LS-DYNA ``*AIRBAG_WANG_NEFSKE`` and
MADYMO's uniform-pressure bags define it (crash-domain-facts 6.2): one gas of constant heat
capacities, uniform pressure and temperature, fed by an inflator's mass flow and gas temperature
tables, emptied through vents and the fabric's leakage. Its shape is an ellipsoid on a mounting
frame (a marker of a part, e.g. the steering wheel, or B0, e.g. the dashboard) that unfolds
along the frame's +x over ``deployment_time`` after ``firing_time``: grown uniformly with its
volume, or, given the ``leading_edge_speed`` of its front, punched out along +x first and filled
across after (``unfolded_scales``).
"""
from dataclasses import dataclass

import numpy as np
from numba import njit

from occupant.jit import JIT
from occupant.jit_inline import shared
from occupant.model.bundle import (
    AIRBAG_CONTACT_OUTPUTS, AIRBAG_CONTACT_STATES, AIRBAG_OUTPUTS, AIRBAG_STATES, AirbagBlock,
    freeze_block, marker,
)
from occupant.model.model import ModelError
from occupant.modeling.carriers import carrier_link
from occupant.modeling.compile_contacts import geometry_frame
from occupant.modeling.contacts import _curve
from occupant.modeling.elements import ModelingError, _rotation, _vec3
from occupant.modeling.geometry import Ellipsoid, Sphere

# Ideal-gas data of the defaults. Nitrogen, the main product of pyrotechnic inflators
# (crash-domain-facts 6.2 [C] Autoliv): R = R_u / M = 8.314462618 / 0.0280134 = 296.8 J/(kg K)
# [D: CODATA R_u, molar mass of N2]; gamma = 1.40 for a diatomic gas near room temperature
# [S, and crash-domain-facts 6.4: 2430/1736 in the pydyna example]; so c_v = R / (gamma - 1)
# and c_p = gamma c_v [D].
N2_GAS_CONSTANT = 8.314462618 / 0.0280134   # J/(kg K) [D]
N2_GAMMA = 1.40                              # [S]
N2_CV = N2_GAS_CONSTANT / (N2_GAMMA - 1.0)   # J/(kg K) [D] 742.0
N2_CP = N2_GAMMA * N2_CV                     # J/(kg K) [D] 1038.8
STANDARD_PRESSURE = 101325.0                 # Pa, standard atmosphere [C ISO 2533]
ROOM_TEMPERATURE = 293.15                    # K, 20 C [E]

# Contact of the bag with the occupant. Friction: dummy-airbag 0.1-0.3 (crash-domain-facts 6.3
# [U]), the middle taken; regularised over FRICTION_SPEED as the compliant contacts are. It has
# been measured (pin-on-disc, PMHS skin and four dummy head skins on six bags' fabrics, ASME
# IMECE2020-V014T14A011; a headform's scalp, hair and skin on curtain fabric, SAE 2011 World
# Congress): dummy skin rubs harder than human skin on all but one fabric [S: abstracts], the
# coefficients not in them (scenarios/HISTORY.md, frictionsrc).
BAG_FRICTION = 0.2                           # [U] 6.3, middle of 0.1-0.3
FRICTION_SPEED = 0.01                        # m/s [E], as ContactCharacteristic's default
FRONT_ALIGNMENT = np.cos(np.radians(30.0))   # AirbagContact.front's x within 30 deg of its joint [E]
# Bottoming out: an occupant that flattens the bag against what it is mounted on meets that
# surface through the collapsed bag (direct steering-wheel contact of a "bottomed-out" driver
# bag, wbldb 10096620 [C abstract]). The backing plane lies the collapsed bag's thickness ahead of
# the mounting frame: two layers of fabric with the gas that cannot leave from between them,
# 20 mm [E]. Its loading table is that of a steering-wheel hub / panel under its cover:
# 250 kN/m at first, stiffening to 1 MN/m [E], the range of the knee-bolster-like trim of
# crash-domain-facts 6.3 [U] (100-300 kN/m) then stiffer, as a hub is; damping as the interior
# trim's (vehicles/*.toml, 1e3 N s/m^2 [E]).
BOTTOMING_THICKNESS = 0.02                   # m [E]
BOTTOMING_TABLE = ((0.0, 0.0), (0.01, 2500.0), (0.02, 6000.0), (0.04, 20000.0),
                   (0.06, 40000.0))          # (m, N) [E]
BOTTOMING_DAMPING = 1.0e3                    # N s/m^2 [E]
# The contact laws (occupant.restraints.airbag): "lens" the body's cross-section at the bag's
# surface (opt-in), "dimple" the taut, wrinkling fabric's dimple (occupant.restraints.
# airbag_dimple, the default: its docstring gives its scenario figures beside the lens').
CONTACT_LAWS = ("lens", "dimple")
DIMPLE_LAW = CONTACT_LAWS.index("dimple")


def _table(value, what, unit):
    t = np.asarray(value, dtype=float)
    if not (t.ndim == 2 and t.shape[1] == 2 and len(t) >= 2 and np.all(np.isfinite(t))
            and t[0, 0] >= 0 and np.all(np.diff(t[:, 0]) > 0) and np.all(t[:, 1] >= 0)):
        raise ModelingError(f"{what}: expected >= 2 finite rows of (time after firing s, {unit}) "
                            f"with times >= 0 and increasing and values >= 0, got {value!r}")
    return t


def _number(value, what, unit, minimum=0.0, strict=True, allow_inf=False):
    try:
        v = float(value)
    except (TypeError, ValueError):
        v = np.nan
    ok = (np.isfinite(v) or (allow_inf and v == np.inf)) and (v > minimum if strict else v >= minimum)
    if not ok:
        rel = ">" if strict else ">="
        raise ModelingError(f"{what}: must be a number {rel} {minimum:g} {unit}, got {value!r}")
    return v


@dataclass
class Airbag:
    """A uniform-pressure airbag.

    Mounting: the frame at ``position`` with axes ``rotation`` in the frame of ``marker`` (a
    marker of a part), or of B0 when ``marker`` is None; the bag unfolds along its +x.
    Shape: the ellipsoid with ``semi_axes`` (m) along the frame's (x, y, z), its back touching the
    frame origin (centre at x = semi_axes[0]); nominal volume 4/3 pi a b c. Before firing it is
    folded to ``folded_volume`` (m^3); from ``firing_time`` (s) it grows, scaled about the
    origin, to the nominal shape over ``deployment_time`` (s, 0: at once); uniformly, or, with
    ``leading_edge_speed`` (m/s, the peak speed of its front along +x in a free deployment), its
    depth first, reaching the full depth at ``depth_time`` while its width follows the volume
    (``unfolded_scales``).
    Inflator: ``mass_flow`` rows (time after firing s, kg/s), linear between rows and 0 outside
    them; ``gas_temperature`` (K) of the inflowing gas, a number or rows (time after firing s, K),
    held at its end values outside them.
    Gas: ``cp``, ``cv`` (J/(kg K), constant; default nitrogen, see N2_CP).
    Outflow: vents of total ``vent_area`` (m^2) with ``discharge_coefficient`` (None: Browning's
    0.9 - 0.3 p_a / p, crash-domain-facts 6.2) and fabric leakage as an effective orifice area
    ``leakage_area`` (m^2, discharge coefficient 1), isentropic orifice flow, choked or not;
    outflow stops at the ambient ``ambient_pressure`` (Pa), below which the fabric is slack
    (it holds no vacuum); ``ambient_temperature`` (K) is the initial temperature's default.
    Fabric stretch: ``fabric_stiffness`` (N/m, the fabric's membrane stiffness E t; 0: the
    inextensible fabric) makes the volume grow with the gauge pressure,
    V = f V_nominal (1 + c (p - p_a)) - displaced, c = ``fabric_compliance`` (1/Pa).
    Initial content: gas at ``initial_pressure`` (Pa, default ambient) and
    ``initial_temperature`` (K, default ambient) filling the volume at t = 0 (a pre-inflated
    bag: ``firing_time`` <= -``deployment_time`` and an initial pressure).
    Contact: the fabric rubs on the occupant with Coulomb ``friction``; an occupant geometry that
    pushes the bag flat against its mounting (the wheel hub, the panel) meets the backing plane
    ``bottoming_thickness`` (m, the collapsed bag) ahead of the mounting frame, with the loading
    table ``bottoming`` (rows penetration m, N) and Hunt-Crossley ``bottoming_damping``
    (N s/m^2): the bag "bottoming out" (``occupant.restraints.airbag``). ``contact_law``
    (``CONTACT_LAWS``): the area the gas pushes a body with, "lens" (opt-in: the body's
    cross-section where it crosses the bag's surface, which lets a head 0.26 m into a 0.33 m
    deep driver bag) or "dimple" (the default: the wider dimple of the taut, wrinkling fabric,
    fitted to the inextensible membrane; ``occupant.restraints.airbag_dimple`` gives both laws'
    scenario figures).
    """
    name: str
    marker: str | None = None
    position: tuple = (0.0, 0.0, 0.0)
    rotation: object = None
    semi_axes: tuple = (0.13, 0.33, 0.33)
    folded_volume: float = 1e-3
    firing_time: float = 0.0
    deployment_time: float = 0.03
    leading_edge_speed: float | None = None
    mass_flow: object = None
    gas_temperature: object = 800.0
    cp: float = N2_CP
    cv: float = N2_CV
    vent_area: float = 0.0
    discharge_coefficient: float | None = None
    leakage_area: float = 0.0
    fabric_stiffness: float = 0.0
    ambient_pressure: float = STANDARD_PRESSURE
    ambient_temperature: float = ROOM_TEMPERATURE
    initial_pressure: float | None = None
    initial_temperature: float | None = None
    friction: float = BAG_FRICTION
    bottoming: object = BOTTOMING_TABLE
    bottoming_thickness: float = BOTTOMING_THICKNESS
    bottoming_damping: float = BOTTOMING_DAMPING
    contact_law: str = "dimple"

    def __post_init__(self):
        what = f"airbag '{self.name}'"
        self.position = _vec3(self.position, f"{what}.position")
        self.rotation = _rotation(self.rotation, f"{what}.rotation")
        axes = np.asarray(self.semi_axes, dtype=float)
        if axes.shape != (3,) or not np.all(np.isfinite(axes)) or np.any(axes <= 0):
            raise ModelingError(f"{what}.semi_axes: expected 3 positive lengths in m, "
                                f"got {self.semi_axes!r}")
        self.semi_axes = axes
        self.folded_volume = _number(self.folded_volume, f"{what}.folded_volume", "m^3")
        if self.folded_volume >= self.volume:
            raise ModelingError(f"{what}.folded_volume: {self.folded_volume:.4g} m^3 is not below "
                                f"the nominal volume {self.volume:.4g} m^3",
                                f"a nominal volume above the folded {self.folded_volume:.4g} m^3")
        self.firing_time = _number(self.firing_time, f"{what}.firing_time", "s", -np.inf, False)
        self.deployment_time = _number(self.deployment_time, f"{what}.deployment_time", "s",
                                       strict=False)
        if self.leading_edge_speed is not None:
            self.leading_edge_speed = _number(self.leading_edge_speed,
                                              f"{what}.leading_edge_speed", "m/s")
            if self.depth_time > self.deployment_time:
                raise ModelingError(
                    f"{what}.leading_edge_speed: its front must reach the full depth within "
                    f"deployment_time {self.deployment_time:g} s (uniform unfolding at the "
                    f"least), got {self.leading_edge_speed!r} m/s: full depth at "
                    f"{self.depth_time:.4g} s")
        if self.mass_flow is None:
            self.mass_flow = np.array([[0.0, 0.0], [1.0, 0.0]])
        self.mass_flow = _table(self.mass_flow, f"{what}.mass_flow", "kg/s")
        if np.ndim(self.gas_temperature) == 0:
            temp = _number(self.gas_temperature, f"{what}.gas_temperature", "K")
            self.gas_temperature = np.array([[0.0, temp], [1.0, temp]])
        else:
            self.gas_temperature = _table(self.gas_temperature, f"{what}.gas_temperature", "K")
            if np.any(self.gas_temperature[:, 1] <= 0):
                raise ModelingError(f"{what}.gas_temperature: temperatures must be > 0 K")
        self.cv = _number(self.cv, f"{what}.cv", "J/(kg K)")
        self.cp = _number(self.cp, f"{what}.cp", "J/(kg K)", minimum=self.cv)
        self.vent_area = _number(self.vent_area, f"{what}.vent_area", "m^2", strict=False)
        if self.discharge_coefficient is not None:
            c = _number(self.discharge_coefficient, f"{what}.discharge_coefficient", "")
            if c > 1.0:
                raise ModelingError(f"{what}.discharge_coefficient: must be in (0, 1], got {c!r}")
            self.discharge_coefficient = c
        self.leakage_area = _number(self.leakage_area, f"{what}.leakage_area", "m^2", strict=False)
        self.fabric_stiffness = _number(self.fabric_stiffness, f"{what}.fabric_stiffness", "N/m",
                                        strict=False)
        self.ambient_pressure = _number(self.ambient_pressure, f"{what}.ambient_pressure", "Pa")
        self.ambient_temperature = _number(self.ambient_temperature,
                                           f"{what}.ambient_temperature", "K")
        p0 = self.ambient_pressure if self.initial_pressure is None else self.initial_pressure
        T0 = self.ambient_temperature if self.initial_temperature is None else self.initial_temperature
        self.initial_pressure = _number(p0, f"{what}.initial_pressure", "Pa")
        self.initial_temperature = _number(T0, f"{what}.initial_temperature", "K")
        self.friction = _number(self.friction, f"{what}.friction", "", strict=False)
        self.bottoming = _curve(self.bottoming, f"{what}.bottoming", strict=True)
        self.bottoming_thickness = _number(self.bottoming_thickness,
                                           f"{what}.bottoming_thickness", "m", strict=False)
        if self.bottoming_thickness >= 2.0 * self.semi_axes[0]:
            raise ModelingError(f"{what}.bottoming_thickness: must be below the bag's depth "
                                f"{2.0 * self.semi_axes[0]:.4g} m, got {self.bottoming_thickness!r}")
        self.bottoming_damping = _number(self.bottoming_damping, f"{what}.bottoming_damping",
                                         "N s/m^2", strict=False)
        if self.contact_law not in CONTACT_LAWS:
            raise ModelingError(f"{what}.contact_law: expected one of {', '.join(CONTACT_LAWS)}, "
                                f"got {self.contact_law!r}")

    @property
    def volume(self):
        """Nominal (deployed) volume, m^3."""
        a, b, c = self.semi_axes
        return 4.0 / 3.0 * np.pi * a * b * c

    @property
    def compliance(self):
        """The fabric's stretch, 1/Pa: the full bag's relative volume gained per Pa of gauge
        pressure (``fabric_compliance``; 0 without a ``fabric_stiffness``)."""
        return fabric_compliance(self.semi_axes, self.fabric_stiffness)

    @property
    def depth_time(self):
        """Time (s after firing) at which the front reaches the full depth 2 a: the smoothstep
        of ``unfolded_scales`` peaks at 1.5 times its mean speed, so 1.5 x its travel from the
        folded front, 2 a (1 - f0^(1/3)), over ``leading_edge_speed``; -1 without one (the
        depth grows with the volume)."""
        if self.leading_edge_speed is None:
            return -1.0
        travel = 2.0 * self.semi_axes[0] * (1.0 - (self.folded_volume / self.volume) ** (1.0 / 3.0))
        return 1.5 * travel / self.leading_edge_speed

    @property
    def refs(self):
        return {} if self.marker is None else {"marker": self.marker}


@dataclass
class AirbagContact:
    """Contact of ``airbag`` with the occupant's ``geometry`` (an Ellipsoid or Sphere on a part):
    the bag pushes it with its gauge pressure over the contact area, and loses the penetrated
    volume (``occupant.restraints.airbag``). ``front`` (optional): an Ellipsoid on a part on a
    prismatic joint to the geometry's part, its x axis along the joint (the sternum pad on the
    sternum's chest joint): the share of the contact patch within its y-z outline, when the load
    pushes that part back, acts on that part and moves with its travel, so the bag's load on the
    ribcage's front passes through the chest spring while the rest (shoulders, flanks) stays on
    the rigid part (``occupant.contact.carrier``); the front itself is no contact of the bag."""
    name: str
    airbag: str
    geometry: str
    front: str | None = None

    @property
    def refs(self):
        out = {"airbag": self.airbag, "geometry": self.geometry}
        if self.front is not None:
            out["front.geometry"] = self.front
        return out


@shared   # the report calls it from Python (unfolded_scales.py_func, report.data)
@njit(**JIT)
def unfolded_fraction(f0, t_fire, td, t):
    """Volume fraction f at t of a bag folded to the fraction f0, fired at t_fire and unfolding
    over td: f0 + (1 - f0) s^2 (3 - 2 s), s = (t - t_fire) / td in [0, 1] (a step at t_fire for
    td = 0). Compiled, for the kernel (scalars: a call given the block would pay reference
    counting of each of its arrays)."""
    if td > 0.0:
        s = min(max((t - t_fire) / td, 0.0), 1.0)
    else:
        s = 1.0 if t >= t_fire else 0.0
    return f0 + (1.0 - f0) * s * s * (3.0 - 2.0 * s)


@shared   # as unfolded_fraction
@njit(**JIT)
def unfolding_rate(f0, t_fire, td, t):
    """df/dt (1/s) of ``unfolded_fraction``: (1 - f0) 6 s (1 - s) / td while it unfolds, else 0."""
    if td <= 0.0:
        return 0.0
    s = (t - t_fire) / td
    if s <= 0.0 or s >= 1.0:
        return 0.0
    return (1.0 - f0) * 6.0 * s * (1.0 - s) / td


@njit(**JIT)
def unfolded_scales(f0, t_fire, td, tx, t):
    """(f, alpha, beta, f', alpha', beta') at t: the volume fraction f (``unfolded_fraction``)
    and the scales of the bag's shape, its depth alpha a along x and its width beta (b, c), with
    their rates (1/s). Grown uniformly (tx < 0): alpha = beta = f^(1/3). Punched out (tx > 0, the
    ``depth_time``): the depth is the smoothstep from the folded bag's f0^(1/3) to 1 over tx,
    alpha = l0 + (1 - l0) u^2 (3 - 2 u), u = (t - t_fire) / tx in [0, 1], l0 = f0^(1/3), its
    front's peak speed 1.5 (1 - l0) 2 a / tx at u = 1/2; the width holds the volume,
    alpha beta^2 = f, beta' = beta (f' / f - alpha' / alpha) / 2 (beta <= 1 while tx <= td:
    the depth leads the volume). Compiled, for the kernel."""
    f = unfolded_fraction(f0, t_fire, td, t)
    rate = unfolding_rate(f0, t_fire, td, t)
    if tx < 0.0:
        lam = f ** (1.0 / 3.0)
        lam_rate = lam * rate / (3.0 * f)
        return f, lam, lam, rate, lam_rate, lam_rate
    l0 = f0 ** (1.0 / 3.0)
    u = min(max((t - t_fire) / tx, 0.0), 1.0)
    alpha = l0 + (1.0 - l0) * u * u * (3.0 - 2.0 * u)
    alpha_rate = (1.0 - l0) * 6.0 * u * (1.0 - u) / tx
    beta = np.sqrt(f / alpha)
    return f, alpha, beta, rate, alpha_rate, 0.5 * beta * (rate / f - alpha_rate / alpha)


def fabric_compliance(semi_axes, stiffness):
    """c (1/Pa) of a bag of ``semi_axes`` (m) whose fabric has the membrane stiffness
    ``stiffness`` = E t (N/m; 0: inextensible, c = 0): its volume V_0 (1 + c p_g) at the gauge
    pressure p_g. The closed membrane as the sphere of the bag's volume, radius
    r = (a b c)^(1/3) [D]: tension p_g r / 2 in every direction, the strain of a biaxially loaded
    sheet p_g r (1 - nu) / (2 E t), taken at nu = 0 [E: the woven fabric's Poisson ratio left out,
    the larger stretch], and the volume 3 times the strain to first order:
    c = 3 r / (2 E t). The ellipsoid's own tensions differ: on ``DRIVER_BAG``'s (a = 0.167 m,
    b = c = 0.290 m, r = 0.241 m) face, curvature radius b^2 / a, 2.1 times the sphere's; along
    its equator's meridians, p_g b / 2, 1.2 times; its equator's hoop, p_g b (1 - b^2 / (2 a^2)),
    compressed (wrinkled) since b > a sqrt(2) [D, the equilibrium of a membrane of revolution]:
    the sphere stands for their mean."""
    if stiffness <= 0.0:
        return 0.0
    return 1.5 * _equivalent_radius(semi_axes) / stiffness


def _equivalent_radius(semi_axes):
    """Radius of the sphere of the same volume, (a b c)^(1/3), m: the occupant geometry's size in
    the penetrated-volume estimate [E]."""
    return float(np.prod(semi_axes) ** (1.0 / 3.0))


def _front(asm, contact, link, geo, tree, body_index, body_link):
    """(carrier link, its rest origin in link's frame, the front's axes and centre in the
    carrier's frame, its y and z semi-axes) of the contact's ``front``; the link itself and a
    zero outline without one."""
    what = f"airbag contact '{contact.name}'.front"
    if contact.front is None:
        return link, np.zeros(3), np.eye(3), np.zeros(3), np.zeros(2)
    g = asm.geometries[contact.front]
    if not isinstance(g, Ellipsoid) or g.marker is None:
        raise ModelError(f"{what}: '{contact.front}' is a {type(g).__name__}"
                         f"{' fixed to the vehicle' if g.marker is None else ''} (accepted: an "
                         f"Ellipsoid on a part)")
    _, R_f, p_f = geometry_frame(g, *geo)
    carrier, carrier_r = carrier_link(what, asm.markers[g.marker].part, contact.geometry, link,
                                      tree, body_index, body_link)
    R_f = np.asarray(R_f, float)
    if abs(R_f[2, 0]) < FRONT_ALIGNMENT:   # the carrier's joint axis is its frame's z
        raise ModelError(f"{what}: the x axis of '{contact.front}' must lie along the joint its "
                         f"part slides on (within {np.degrees(np.arccos(FRONT_ALIGNMENT)):.0f} "
                         f"deg): its y-z outline bounds the carried share")
    return carrier, carrier_r, R_f, np.asarray(p_f, float), np.asarray(g.semi_axes[1:], float)


def airbag_block(asm, marker_index, marker_body, body_link, marker_R, marker_p, outputs, states,
                 tree, body_index):
    """The AirbagBlock of the assembly's airbags and airbag contacts (flat arrays, link frames);
    reserves their outputs and z states (``tree``, ``body_index``: for the contacts' carriers,
    ``occupant.modeling.carriers``)."""
    bags = list(asm.airbags.values())
    bag_index = {name: k for k, name in enumerate(asm.airbags)}
    # pairs grouped by bag (a stable sort keeps their order of declaration within a bag)
    contacts = sorted(asm.airbag_contacts.values(), key=lambda c: bag_index[c.airbag])
    cols = {k: [] for k in AirbagBlock._fields}
    rows = []

    def table(t):
        start = sum(len(r) for r in rows)
        rows.append(t)
        return start, len(t)

    for bag in bags:
        if bag.marker is None:
            link, R_m, p_m = -1, np.eye(3), np.zeros(3)
        else:
            m = marker_index[bag.marker]
            link, R_m, p_m = body_link[marker_body[m]], marker_R[m], marker_p[m]
        cols["bag_link"].append(link)
        cols["bag_R"].append(R_m @ bag.rotation)
        cols["bag_p"].append(R_m @ bag.position + p_m)
        cols["semi_axes"].append(bag.semi_axes)
        a, b, c = bag.semi_axes
        cols["bag_radius"].append(b * c / a)   # mean radius of curvature of the front face [D]
        cols["volume"].append(bag.volume)
        cols["folded_fraction"].append(bag.folded_volume / bag.volume)
        cols["firing_time"].append(bag.firing_time)
        cols["deployment_time"].append(bag.deployment_time)
        cols["depth_time"].append(bag.depth_time)
        cols["contact_law"].append(CONTACT_LAWS.index(bag.contact_law))
        for key, t in (("flow", bag.mass_flow), ("temperature", bag.gas_temperature)):
            start, n = table(t)
            cols[f"{key}_start"].append(start)
            cols[f"{key}_len"].append(n)
        gas_constant = bag.cp - bag.cv
        gamma = bag.cp / bag.cv
        cols["cp"].append(bag.cp)
        cols["gamma"].append(gamma)
        cols["gas_constant"].append(gas_constant)
        cols["vent_area"].append(bag.vent_area)
        cd = bag.discharge_coefficient
        cols["discharge_coefficient"].append(-1.0 if cd is None else cd)
        cols["leakage_area"].append(bag.leakage_area)
        cols["ambient_pressure"].append(bag.ambient_pressure)
        cols["compliance"].append(bag.volume * bag.compliance)
        # as Python (py_func, the same double): compiled here it cost a first run's load 0.1-0.4 s
        v0 = bag.volume * unfolded_fraction.py_func(bag.folded_volume / bag.volume, bag.firing_time,
                                                    bag.deployment_time, 0.0)
        # an initial over-pressure stretches the fabric as the kernel's volume does
        v0 *= 1.0 + bag.compliance * max(bag.initial_pressure - bag.ambient_pressure, 0.0)
        cols["mass0"].append(bag.initial_pressure * v0 / (gas_constant * bag.initial_temperature))
        cols["sigma0"].append(bag.initial_pressure * v0 ** gamma)
        cols["friction"].append(bag.friction)
        cols["friction_speed"].append(FRICTION_SPEED)
        start, n = table(bag.bottoming)
        cols["bottom_start"].append(start)
        cols["bottom_len"].append(n)
        cols["bottom_damping"].append(bag.bottoming_damping)
    starts = np.searchsorted([bag_index[c.airbag] for c in contacts], np.arange(len(bags) + 1))
    cols["pair_start"] = np.asarray(starts, dtype=int)
    for contact in contacts:
        g = asm.geometries[contact.geometry]
        if not isinstance(g, (Ellipsoid, Sphere)):
            raise ModelError(f"airbag contact '{contact.name}'.geometry: '{contact.geometry}' is a "
                             f"{type(g).__name__} (accepted: Ellipsoid, Sphere)")
        if g.marker is None:
            raise ModelError(f"airbag contact '{contact.name}'.geometry: '{contact.geometry}' is "
                             f"fixed to the vehicle (no marker); a bag meets ellipsoids on bodies")
        link, R_a, p_a = geometry_frame(g, marker_index, marker_body, body_link, marker_R, marker_p)
        size = g.semi_axes if isinstance(g, Ellipsoid) else np.full(3, g.radius)
        k = bag_index[contact.airbag]
        if link == cols["bag_link"][k]:
            raise ModelError(f"airbag contact '{contact.name}': geometry '{contact.geometry}' is "
                             f"on the link that carries airbag '{contact.airbag}'")
        cols["pair_bag"].append(k)
        cols["link_a"].append(link)
        front = _front(asm, contact, link, (marker_index, marker_body, body_link, marker_R, marker_p),
                       tree, body_index, body_link)
        for key, value in zip(("carrier", "carrier_r", "front_R", "front_p", "front_half"), front):
            cols[key].append(value)
        cols["R_a"].append(R_a)
        cols["p_a"].append(p_a)
        cols["size_a"].append(size)
        cols["radius_a"].append(_equivalent_radius(size))
        cols["link_b"].append(cols["bag_link"][k])
        cols["R_b"].append(cols["bag_R"][k])
        R_bag = cols["bag_R"][k]
        cols["R_bottom"].append(R_bag[:, [1, 2, 0]])      # in-plane y, z; normal x
        cols["p_bottom"].append(cols["bag_p"][k] + bags[k].bottoming_thickness * R_bag[:, 0])
        cols["size_bottom"].append((bags[k].semi_axes[1], bags[k].semi_axes[2], 0.0))
    nb, nc = len(bags), len(contacts)
    cols["dimple"] = marker(DIMPLE_LAW in cols["contact_law"])
    for key in ("bag_link", "flow_start", "flow_len", "temperature_start", "temperature_len",
                "contact_law", "pair_bag", "link_a", "carrier", "link_b", "bottom_start", "bottom_len"):
        cols[key] = np.array(cols[key], dtype=int)
    for key, n in (("bag_R", nb), ("R_a", nc), ("R_b", nc), ("R_bottom", nc), ("front_R", nc)):
        cols[key] = np.array(cols[key], dtype=float).reshape(n, 3, 3)
    for key, n in (("bag_p", nb), ("semi_axes", nb), ("p_a", nc), ("size_a", nc), ("carrier_r", nc),
                   ("p_bottom", nc), ("size_bottom", nc), ("front_p", nc)):
        cols[key] = np.array(cols[key], dtype=float).reshape(n, 3)
    cols["front_half"] = np.array(cols["front_half"], dtype=float).reshape(nc, 2)
    cols["tables"] = np.concatenate(rows) if rows else np.zeros((0, 2))
    cols["out_start"] = outputs.reserve(asm.airbags, AIRBAG_OUTPUTS)
    cols["pair_out_start"] = outputs.reserve([c.name for c in contacts], AIRBAG_CONTACT_OUTPUTS)
    cols["z_start"] = states.reserve(asm.airbags, AIRBAG_STATES)
    cols["pair_z_start"] = states.reserve([c.name for c in contacts], AIRBAG_CONTACT_STATES)
    return freeze_block(AirbagBlock, cols), [c.name for c in contacts]


# A driver bag is sewn from two circular fabric panels [U]; untethered and inflated, two
# inextensible discs take the shape of the "Mylar balloon" (Paulsen, Am. Math. Monthly 101 (1994)
# 953 [C]; the lemniscate constants as stated on Wikipedia "Mylar balloon (geometry)" [C]): of
# equatorial radius r it is TWO_PANEL_THICKNESS r thick at the axis and holds TWO_PANEL_VOLUME r^3.
TWO_PANEL_THICKNESS = 2.0 * 0.5990701174    # thickness / radius, twice the 2nd lemniscate constant
TWO_PANEL_VOLUME = 2.7458122499             # volume / radius^3 [C, and integrated from the profile]


def two_panel_semi_axes(volume):
    """Semi-axes (depth / 2, radius, radius) in m of the ellipsoid that holds ``volume`` (m^3)
    and is as deep as the two-panel bag of that volume (TWO_PANEL_*): the depth is the bag's
    stroke in front of its mounting; the ellipsoid's diameter comes out 4.6 % above the balloon's,
    whose rim is not elliptical."""
    r = (volume / TWO_PANEL_VOLUME) ** (1.0 / 3.0)
    a = 0.5 * TWO_PANEL_THICKNESS * r
    b = float(np.sqrt(volume / (4.0 / 3.0 * np.pi * a)))
    return (float(a), b, b)


# Typical bags, for a first model before a supplier's tank test and bag drawing are at hand.
# Fitted [D] so that the free deployment fills the bag with about 44 g of N2 per 60 L at about
# 1.3 bar absolute and 600-650 K, crash-domain-facts 6.4 [D] (measured with these values: driver
# 42 g, 1.35 bar, 650 K at 30 ms; passenger 85 g in 119 L, 1.36 bar, 651 K at 40 ms).
DRIVER_BAG = dict(
    # 59 L [D], near the top of the 30-60 L of driver bags (6.2 [C] Autoliv), shaped as the
    # untethered two-panel bag of that volume [D]: 0.333 m deep, 0.58 m across (the balloon
    # 0.556 m, from panels 0.73 m across). A tether would make it flatter (NHTSA DOT HS 810 685
    # [C abstract]: tethers reduce the bag's rearward extent; NHTSA's static deployments of
    # production driver bags, DOT HS 807 869 [C abstract]: the leading edge's largest
    # displacement differs between tethered and untethered bags); no tether length is sourced,
    # so the depth is the untethered one (1993 driver bags' leading edges still moved at
    # abrasion speed 286 mm from the wheel: Powell and Lund, IIHS 1995, "Leading edge
    # deployment speed of production air bags" [C abstract, swov.nl]). Capacity, by hand: the
    # gas's work on a body is the gauge pressure times the volume it displaces; the head's
    # patch is pi R^2 = 0.026 m^2 (R = 0.091 m,
    # the head shell's volume-equivalent radius; 1.04 kN at 40 kPa, 1.0-1.3 kN measured), so over
    # a penetration s it takes about p 0.026 m^2 (s - R / 3). The 0.26 m deep bag [E] used before
    # is 0.21 m deep where the settled US NCAP 50M head meets it (above the hub's axis): about
    # 200 J at the 37-43 kPa it held, short of the head's 118 J at contact (7.2 m/s) plus what
    # the torso pushed into it through the neck (8.7 m/s inside the bag, still 3.9 m/s at 0.21 m):
    # it bottomed, 6.8 kN on the hub, HIC15 1052. In this bag the head stops at 0.26 m (270 J at
    # 45 kPa), short of the collapsed bag: HIC15 347.
    semi_axes=two_panel_semi_axes(0.059),
    folded_volume=1e-3,              # m^3, the folded bag in its module [E]
    deployment_time=0.03,            # s [E], within the about 50 ms of 6.2 [C] (owner's
                                     # information: "fully inflate in about 50 to 70 ms" [U])
    # m/s: the front punches out along the wheel's axis first (issue 11, bagunfold). Static
    # deployments of 1993 driver bags peaked at 171-328 km/h (47.5-91.1 m/s) [C abstract:
    # Powell and Lund, IIHS 1995, swov.nl]; the middle taken [S, D]: full depth 5.4 ms after
    # firing (``Airbag.depth_time``), the peak at 2.7 ms. Checked, not fitted: its front still
    # moves at 56 m/s at 286 mm from the hub, where Powell and Lund found many bags still at
    # their abrasion reference speed, and within the 50-70 m/s fabric impact speeds above which
    # Sugimoto, Shindo and Reed (ESV 1994, 94-S4-W-23 [C abstract, swov.nl]) predict abrasion.
    # Those bags preceded the 1998-99 depowering (NHTSA DOT HS 810 685 [C abstract]), which no
    # public figure reached here quantifies; uniform unfolding over 30 ms peaked at 15.8 m/s.
    leading_edge_speed=0.5 * (171.0 + 328.0) / 3.6,
    # In a closed 60 L tank [U] it raises 212 kPa, at most 90 kPa in 10 ms (adiabatic [D],
    # test_reference_driver_inflator_in_a_60_L_tank), under the 160-180 kPa / 10 ms above
    # which driver modules abraded skin (Sugimoto, Shindo and Reed, ESV 1994 [C abstract]); no
    # driver inflator's tank curve was reached (scenarios/HISTORY.md, `airbagdeck`).
    mass_flow=((0.0, 0.0), (0.008, 2.0), (0.02, 2.0), (0.035, 0.0)),   # kg/s, 47 g [D, fitted]
    gas_temperature=650.0,           # K [D, fitted to the 600 K of 6.4]
    vent_area=2 * np.pi * 0.015**2,  # m^2, two 30 mm vents (6.2: 2 x 25-40 mm [U])
)
PASSENGER_BAG = dict(
    semi_axes=(0.25, 0.30, 0.38),    # m: 119 L [D], passenger bags 90-150 L (6.2 [C] Autoliv)
    folded_volume=2e-3,              # m^3 [E]
    deployment_time=0.04,            # s [E], within the about 50 ms of 6.2 [C]
    mass_flow=((0.0, 0.0), (0.008, 3.0), (0.03, 3.0), (0.045, 0.0)),   # kg/s, 100 g [D, fitted]
    gas_temperature=650.0,           # K [D, fitted as the driver bag's]
    vent_area=2 * np.pi * 0.0225**2, # m^2, two 45 mm vents (6.2: "larger" than the driver's [U])
)


# A driver knee airbag (issue 11), deploying from the lower instrument panel under the steering
# column (behind the column opening cover: FCA service information, 2012 Chrysler 300 and 2022
# Jeep Compass "Knee Airbag" pages [S]; "housed under the steering column", Acura owner's
# information, acurinfo.com tech-628 [S]) between the knee bolster and the knees and shins. Fired
# with the driver bag ("when the driver's front airbag inflates, the driver's knee airbag also
# inflates", Acura [S]).
KNEE_BAG = dict(
    # 18 L [S]: the knee airbag module tested by Schroeder and Bosch (BASt, "Is the kneebag safe in
    # out of position situations?", abstract, bast.opus.hbz-nrw.de docId 436: a folded 18 L bag
    # below the lower section of the instrument panel). Shape [E]: a flat cushion over the
    # bolster, 0.20 m deep (the 0.2 m between a seated 50M's knees and the bolster of
    # vehicles/midsize_sedan_driver.toml, so that the full bag reaches the knees), 0.50 m across
    # (both knees and the column between them) and 0.34 m tall along the bolster (the knees and
    # the tops of the shins): 4/3 pi 0.10 x 0.25 x 0.172 = 18.0 L [D].
    semi_axes=(0.10, 0.25, 0.172),
    folded_volume=0.5e-3,            # m^3, the folded bag in its module [E]
    # s [E]: 20 ms is what Ford quote for their injection-moulded glove-box knee bladder (press
    # accounts of the 2015 Mustang [U]); a knee bag must be full before the knees, 0.2 m away,
    # reach it
    deployment_time=0.02,
    # kg/s, 12.8 g [D, fitted as the driver bag's]: the free deployment's gas per volume and its
    # pressure at full volume those of the driver and passenger presets (44 g of N2 per 60 L at
    # about 1.3 bar absolute, crash-domain-facts 6.4 [D]; measured with these values 12.8 g,
    # 1.34 bar at 20 ms, tests/restraints/test_airbag_presets.py)
    mass_flow=((0.0, 0.0), (0.004, 0.85), (0.014, 0.85), (0.022, 0.0)),
    gas_temperature=650.0,           # K [D, fitted as the driver bag's]
    # no vent holes: the bag deflates through the loose weave of the fabric of its panel side (FCA
    # service manuals above [S]), an effective orifice of 3e-4 m^2 (a 20 mm hole) [E]: deployed
    # free, its 33 kPa gauge at full volume falls to 15 kPa 30 ms later and to ambient by about
    # 80 ms (the driver bag's vents: 1.4e-3 m^2)
    vent_area=0.0,
    leakage_area=3.0e-4,
)


def driver_airbag(name, marker=None, **overrides):
    """A driver airbag (``DRIVER_BAG``) on ``marker`` (the steering wheel hub, x towards the
    driver), any Airbag field overridden (``firing_time``, ``position``, ``rotation``, ...)."""
    return Airbag(name, marker, **{**DRIVER_BAG, **overrides})


def passenger_airbag(name, marker=None, **overrides):
    """A passenger airbag (``PASSENGER_BAG``) on ``marker`` or B0 (the instrument panel, x
    towards the passenger), any Airbag field overridden."""
    return Airbag(name, marker, **{**PASSENGER_BAG, **overrides})


def knee_airbag(name, marker=None, **overrides):
    """A driver knee airbag (``KNEE_BAG``) on ``marker`` or B0 (the lower instrument panel, x
    towards the knees), any Airbag field overridden."""
    return Airbag(name, marker, **{**KNEE_BAG, **overrides})
