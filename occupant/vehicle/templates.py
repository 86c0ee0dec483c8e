"""Subsystem templates (conventions rule 8): one frozen parameter dataclass, one builder, one
registry entry each. Every number comes from the subsystem file (vehicles/*.toml), in the
subsystem's base frame (ISO 8855: x forward, y left, z up; metres, kg, N, s); the left side is
built and mirrored. Hard points follow the ADAMS/Car naming (lca: lower control arm, uca: upper).

Loops close with the joints the state-space solver takes: tree ball joints are "euler" joints
(three revolute axes, scalar coordinates), loop-closing ones spherical; tie rods, drop links and
multi-link links carry a universal joint at one end so that they cannot spin about their axis.
"""
from dataclasses import dataclass, fields

import numpy as np

from occupant.modeling import Joint, Marker, ModelingError, Part, Pose, SpringDamper
from occupant.vehicle.geometry import (FLOATING_PLACEMENT, frame_z, joint_at,
                                       link_part, unit, universal_frame)
from occupant.vehicle.subsystem import Coupler, Interface, Subsystem, Tyre, mirror_left_to_right

TEMPLATES = {}   # template name -> (parameter dataclass, builder)


def register(template):
    """Decorator: register ``build(p: Params) -> Subsystem`` under ``template``; the parameter
    class is the builder's annotation."""
    def wrap(build):
        TEMPLATES[template] = (build.__annotations__["p"], build)
        return build
    return wrap


V3 = type("V3", (tuple,), {})     # annotation: a 3-vector in the subsystem frame (m)
MF = type("MF", (tuple,), {})     # annotation: magic-formula coefficients B, C, mu, E

# quantity (occupant.modeling.Units) of the parameters that are neither masses nor inertias (by
# their name's end) nor points (V3, and the dicts of points): what a file's [units] converts
_QUANTITIES = {
    "wheel_rate": "stiffness", "mesh_stiffness": "stiffness", "vertical_stiffness": "stiffness",
    "wheel_damping": "damping", "mesh_damping": "damping", "vertical_damping": "damping",
    "shaft_stiffness": "rotational_stiffness", "driver_stiffness": "rotational_stiffness",
    "torsional_stiffness": "rotational_stiffness", "differential_stiffness": "rotational_stiffness",
    "shaft_damping": "rotational_damping", "driver_damping": "rotational_damping",
    "torsional_damping": "rotational_damping", "differential_damping": "rotational_damping",
    "corner_load": "force", "rack_gain": "length_per_angle",
    "slip_speed": "velocity", "brake_torque": "torque", "brake_speed": "angular_velocity",
}


def parameter_quantity(name, annotation):
    """The quantity of template parameter ``name`` (of type ``annotation``), for unit
    conversion: "mass", "inertia", "length" (points), a name in _QUANTITIES, else
    "dimensionless" (ratios, magic-formula coefficients, counts)."""
    if name.endswith("mass"):
        return "mass"
    if name.endswith("inertia"):
        return "inertia"
    if name.endswith("radius"):
        return "length"
    if annotation is V3 or name in ("mounting_points", "links_inner", "links_outer"):
        return "length"
    return _QUANTITIES.get(name, "dimensionless")


def _spring(sub, name, top_part, top, bottom_part, bottom, wheel_rate, wheel_damping,
            motion_ratio, corner_load):
    """A coil-over between two points: the wheel rate and damping turned into spring values by
    the motion ratio (k = k_wheel / MR^2), preloaded to carry ``corner_load`` (N) at the wheel."""
    sub.add(Marker(f"{name}_top", top_part, position=top))
    sub.add(Marker(f"{name}_bottom", bottom_part, position=bottom))
    k = wheel_rate / motion_ratio**2
    length = float(np.linalg.norm(np.asarray(top) - np.asarray(bottom)))
    sub.add(SpringDamper(name, f"{name}_top", f"{name}_bottom", stiffness=k,
                         damping=wheel_damping / motion_ratio**2,
                         free_length=length + corner_load / motion_ratio / k))


def _motion_ratio(pivot_a, pivot_b, spring_lower, spring_upper, wheel_point):
    """Spring travel per wheel travel of an arm turning about the axis pivot_a-pivot_b: (distance
    of the spring's lower point / of the wheel point from the axis) times the cosine between the
    spring line and that point's path."""
    axis = unit(np.subtract(pivot_b, pivot_a))

    def arm(p):
        r = np.subtract(p, pivot_a)
        return r - (r @ axis) * axis

    path = unit(np.cross(axis, arm(spring_lower)))
    cos = abs(path @ unit(np.subtract(spring_upper, spring_lower)))
    return np.linalg.norm(arm(spring_lower)) / np.linalg.norm(arm(wheel_point)) * cos


# chassis -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ChassisParams:
    mass: float               # kg, sprung body with what is bolted to it
    com: V3                   # m
    inertia: V3               # kg m^2, roll, pitch, yaw about the centre of mass
    mounting_points: dict     # name -> V3, interior mounting points (markers on the body)


@register("chassis")
def build_chassis(p: ChassisParams) -> Subsystem:
    """The vehicle body on a 6-dof floating joint (x, y, z, yaw, pitch, roll) from the ground."""
    sub = Subsystem("chassis", template="chassis", expected_dof=6)
    sub.add(Part("chassis", p.mass, p.com, p.inertia))
    joint_at(sub, "floating", "floating", None, "chassis", (0.0, 0.0, 0.0), FLOATING_PLACEMENT)
    for name, at in p.mounting_points.items():
        sub.add(Marker(name, "chassis", position=at))
    return sub


# double wishbone -------------------------------------------------------------------------------
@dataclass(frozen=True)
class DoubleWishboneParams:
    uca_front: V3
    uca_rear: V3
    uca_outer: V3
    lca_front: V3
    lca_rear: V3
    lca_outer: V3
    tierod_inner: V3
    tierod_outer: V3
    wheel_centre: V3
    damper_upper: V3          # on the body
    damper_lower: V3          # on the lower arm
    uca_mass: float
    lca_mass: float
    upright_mass: float
    upright_inertia: V3
    tierod_mass: float
    damper_upper_mass: float
    damper_lower_mass: float
    wheel_rate: float         # N/m at the wheel
    wheel_damping: float      # N s/m at the wheel
    corner_load: float        # N, sprung weight on the corner at the design position
    damper_upper_radius: float  # m, damper body as a tube (its inertia)
    damper_lower_radius: float  # m, damper tube


def _triangle_arm(name, mass, front, rear, outer):
    """An A-arm as a uniform triangle of three point masses (mass/3 at each corner)."""
    pts = np.array([front, rear, outer], float)
    c = pts.mean(axis=0)
    I = sum(mass / 3 * ((r @ r) * np.eye(3) - np.outer(r, r)) for r in pts - c)
    I = I + np.eye(3) * 1e-4 * mass   # the plate's thickness [E], keeps I positive-definite
    return Part(name, mass, com=c, inertia=I)


def _damper(sub, side, chassis, arm, p):
    """Damper body (upper, on a universal at the body) and tube (lower, on a ball joint at the
    arm) sliding on each other: 5 coordinates, 5 equations (points, masses and radii from the
    parameters ``p``)."""
    upper, lower = p.damper_upper, p.damper_lower
    axis = unit(np.subtract(upper, lower))
    mid = (np.asarray(upper) + np.asarray(lower)) / 2
    sub.add(link_part(f"{side}damper_upper", p.damper_upper_mass, mid, upper, p.damper_upper_radius))
    sub.add(link_part(f"{side}damper_lower", p.damper_lower_mass, lower, mid, p.damper_lower_radius))
    R = frame_z(axis)
    joint_at(sub, f"{side}damper_top", "universal", chassis, f"{side}damper_upper", upper,
             universal_frame((1.0, 0.0, 0.0), np.cross(axis, (1.0, 0.0, 0.0))))
    joint_at(sub, f"{side}damper_bottom", "euler", arm, f"{side}damper_lower", lower)
    return lambda: joint_at(sub, f"{side}damper_slide", "prismatic", f"{side}damper_upper",
                            f"{side}damper_lower", mid, R)


@register("double_wishbone")
def build_double_wishbone(p: DoubleWishboneParams) -> Subsystem:
    """Double-wishbone suspension: upper and lower arms hinged to the body, upright on ball
    joints, tie rod from the steering rack, coil-over damper on the lower arm; 1 dof per side
    (wheel travel; steering comes through the rack). Interfaces: chassis, steering_rack."""
    sub = Subsystem("double_wishbone", template="double_wishbone", expected_dof=2)
    sub.add(Interface("chassis"), Interface("steering_rack"))
    s = "l_"
    sub.add(_triangle_arm(f"{s}upper_arm", p.uca_mass, p.uca_front, p.uca_rear, p.uca_outer))
    sub.add(_triangle_arm(f"{s}lower_arm", p.lca_mass, p.lca_front, p.lca_rear, p.lca_outer))
    sub.add(Part(f"{s}upright", p.upright_mass, p.wheel_centre, p.upright_inertia))
    sub.add(link_part(f"{s}tierod", p.tierod_mass, p.tierod_inner, p.tierod_outer))
    mid = lambda a, b: (np.asarray(a) + np.asarray(b)) / 2
    joint_at(sub, f"{s}uca_pivot", "revolute", "chassis", f"{s}upper_arm",
             mid(p.uca_front, p.uca_rear), frame_z(np.subtract(p.uca_front, p.uca_rear)))
    joint_at(sub, f"{s}lca_pivot", "revolute", "chassis", f"{s}lower_arm",
             mid(p.lca_front, p.lca_rear), frame_z(np.subtract(p.lca_front, p.lca_rear)))
    joint_at(sub, f"{s}lower_ball", "euler", f"{s}lower_arm", f"{s}upright", p.lca_outer)
    rod = np.subtract(p.tierod_outer, p.tierod_inner)
    joint_at(sub, f"{s}tierod_inner", "universal", "steering_rack", f"{s}tierod", p.tierod_inner,
             universal_frame((0.0, 0.0, 1.0), np.cross((0.0, 0.0, 1.0), rod)))
    slide = _damper(sub, s, "chassis", f"{s}lower_arm", p)
    # loop-closing joints last (occupant.topology takes the first joint reaching a body)
    joint_at(sub, f"{s}upper_ball", "spherical", f"{s}upper_arm", f"{s}upright", p.uca_outer)
    joint_at(sub, f"{s}tierod_outer", "spherical", f"{s}tierod", f"{s}upright", p.tierod_outer)
    slide()
    mr = _motion_ratio(p.lca_front, p.lca_rear, p.damper_lower, p.damper_upper, p.lca_outer)
    _spring(sub, f"{s}spring", "chassis", p.damper_upper, f"{s}lower_arm", p.damper_lower,
            p.wheel_rate, p.wheel_damping, mr, p.corner_load)
    return mirror_left_to_right(sub)


# MacPherson strut ----------------------------------------------------------------------------
@dataclass(frozen=True)
class MacPhersonParams:
    lca_front: V3
    lca_rear: V3
    lca_outer: V3
    strut_top: V3             # top mount on the body
    strut_lower: V3           # strut axis point on the upright
    tierod_inner: V3
    tierod_outer: V3
    wheel_centre: V3
    lca_mass: float
    upright_mass: float       # knuckle with the strut tube
    upright_inertia: V3
    strut_rod_mass: float
    tierod_mass: float
    wheel_rate: float
    wheel_damping: float
    corner_load: float
    strut_rod_radius: float   # m, strut rod as a tube (its inertia)


@register("macpherson")
def build_macpherson(p: MacPhersonParams) -> Subsystem:
    """MacPherson strut: lower arm hinged to the body, knuckle with the strut tube on the arm's
    ball joint, strut rod on the top mount sliding in the tube, tie rod from the rack; 1 dof per
    side. Interfaces: chassis, steering_rack."""
    sub = Subsystem("macpherson", template="macpherson", expected_dof=2)
    sub.add(Interface("chassis"), Interface("steering_rack"))
    s = "l_"
    axis = unit(np.subtract(p.strut_top, p.strut_lower))
    mid = (np.asarray(p.strut_top) + np.asarray(p.strut_lower)) / 2
    sub.add(_triangle_arm(f"{s}lower_arm", p.lca_mass, p.lca_front, p.lca_rear, p.lca_outer))
    sub.add(Part(f"{s}upright", p.upright_mass, p.wheel_centre, p.upright_inertia))
    sub.add(link_part(f"{s}strut_rod", p.strut_rod_mass, mid, p.strut_top, p.strut_rod_radius))
    sub.add(link_part(f"{s}tierod", p.tierod_mass, p.tierod_inner, p.tierod_outer))
    joint_at(sub, f"{s}lca_pivot", "revolute", "chassis", f"{s}lower_arm",
             (np.asarray(p.lca_front) + np.asarray(p.lca_rear)) / 2,
             frame_z(np.subtract(p.lca_front, p.lca_rear)))
    joint_at(sub, f"{s}lower_ball", "euler", f"{s}lower_arm", f"{s}upright", p.lca_outer)
    joint_at(sub, f"{s}top_mount", "euler", "chassis", f"{s}strut_rod", p.strut_top)
    rod = np.subtract(p.tierod_outer, p.tierod_inner)
    joint_at(sub, f"{s}tierod_inner", "universal", "steering_rack", f"{s}tierod", p.tierod_inner,
             universal_frame((0.0, 0.0, 1.0), np.cross((0.0, 0.0, 1.0), rod)))
    joint_at(sub, f"{s}strut_slide", "prismatic", f"{s}strut_rod", f"{s}upright", mid, frame_z(axis))
    joint_at(sub, f"{s}tierod_outer", "spherical", f"{s}tierod", f"{s}upright", p.tierod_outer)
    # spring along the strut: the strut's own travel per wheel travel is about the cosine of its
    # inclination (the upright moves nearly vertically) [D]
    mr = abs(axis[2])
    _spring(sub, f"{s}spring", "chassis", p.strut_top, f"{s}upright", p.strut_lower,
            p.wheel_rate, p.wheel_damping, mr, p.corner_load)
    return mirror_left_to_right(sub)


# multi-link ----------------------------------------------------------------------------------
_LINKS = ("upper_front", "upper_rear", "lower_front", "lower_rear", "toe_link")


@dataclass(frozen=True)
class MultiLinkParams:
    links_inner: dict         # link name -> V3 on the body
    links_outer: dict         # link name -> V3 on the knuckle
    link_mass: dict           # link name -> kg
    wheel_centre: V3
    knuckle_mass: float
    knuckle_inertia: V3
    damper_upper: V3
    damper_lower: V3          # on the lower_rear (spring) link
    damper_upper_mass: float
    damper_lower_mass: float
    wheel_rate: float
    wheel_damping: float
    corner_load: float
    damper_upper_radius: float  # m, damper body as a tube (its inertia)
    damper_lower_radius: float  # m, damper tube


@register("multi_link")
def build_multi_link(p: MultiLinkParams) -> Subsystem:
    """Five-link rear suspension: five links on universal joints at the body, the knuckle on the
    first link's outer ball joint and on the other four's (13 coordinates, 12 equations: 1 dof
    per side), coil-over on the lower rear link. Interfaces: chassis."""
    sub = Subsystem("multi_link", template="multi_link", expected_dof=2)
    sub.add(Interface("chassis"))
    s = "l_"
    sub.add(Part(f"{s}knuckle", p.knuckle_mass, p.wheel_centre, p.knuckle_inertia))
    for name in _LINKS:
        a, b = p.links_inner[name], p.links_outer[name]
        sub.add(link_part(f"{s}{name}", p.link_mass[name], a, b))
        d = np.subtract(b, a)
        joint_at(sub, f"{s}{name}_inner", "universal", "chassis", f"{s}{name}", a,
                 universal_frame(np.cross(d, (1.0, 0.0, 0.0)) if abs(unit(d)[0]) < 0.9
                                 else (0.0, 0.0, 1.0),
                                 np.cross(d, np.cross(d, (1.0, 0.0, 0.0)))))
    first = _LINKS[0]
    joint_at(sub, f"{s}{first}_outer", "euler", f"{s}{first}", f"{s}knuckle", p.links_outer[first])
    slide = _damper(sub, s, "chassis", f"{s}lower_rear", p)
    for name in _LINKS[1:]:
        joint_at(sub, f"{s}{name}_outer", "spherical", f"{s}{name}", f"{s}knuckle", p.links_outer[name])
    slide()
    mr = _motion_ratio(p.links_inner["lower_rear"], p.links_inner["lower_front"],
                       p.damper_lower, p.damper_upper, p.links_outer["lower_rear"])
    _spring(sub, f"{s}spring", "chassis", p.damper_upper, f"{s}lower_rear", p.damper_lower,
            p.wheel_rate, p.wheel_damping, mr, p.corner_load)
    return mirror_left_to_right(sub)


# steering ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RackPinionParams:
    steering_wheel_centre: V3
    column_lower: V3          # lower end of the column (first universal joint)
    pinion: V3                # pinion centre (end of the intermediate shaft)
    rack_centre: V3
    steering_wheel_mass: float
    steering_wheel_inertia: V3
    column_mass: float
    shaft_mass: float
    pinion_mass: float
    rack_mass: float
    rack_gain: float          # m of rack travel per rad of pinion
    mesh_stiffness: float     # N/m, rack-pinion mesh and shaft torsion seen at the rack
    mesh_damping: float       # N s/m
    shaft_stiffness: float    # N m/rad, column and intermediate-shaft torsion
    shaft_damping: float      # N m s/rad
    driver_stiffness: float   # N m/rad, the driver's hands holding the steering-wheel angle
    driver_damping: float     # N m s/rad
    column_radius: float      # m, steering column as a tube (its inertia)
    intermediate_shaft_radius: float   # m
    rack_radius: float        # m


@register("rack_pinion")
def build_rack_pinion(p: RackPinionParams) -> Subsystem:
    """Rack-and-pinion steering with column: steering wheel fixed to the column, column,
    intermediate shaft and pinion on revolute joints in the body, rack on a prismatic joint;
    the universal joints' and the mesh's kinematics as compliant couplers (ratio 1 shaft to shaft,
    ``rack_gain`` pinion to rack) and the driver as a servo on the column (target: the steering-
    wheel angle of the manoeuvre). Interfaces: chassis."""
    sub = Subsystem("rack_pinion", template="rack_pinion", expected_dof=4)
    sub.add(Interface("chassis"))
    col = np.subtract(p.steering_wheel_centre, p.column_lower)
    shaft = np.subtract(p.column_lower, p.pinion)
    sub.add(Part("steering_wheel", p.steering_wheel_mass, p.steering_wheel_centre,
                 frame_z(col) @ np.diag(p.steering_wheel_inertia) @ frame_z(col).T))
    sub.add(link_part("column", p.column_mass, p.column_lower, p.steering_wheel_centre,
                      p.column_radius))
    sub.add(link_part("intermediate_shaft", p.shaft_mass, p.pinion, p.column_lower,
                      p.intermediate_shaft_radius))
    # the pinion with the lower universal joint and half the intermediate shaft: 1e-3 kg m^2 [E]
    sub.add(Part("pinion", p.pinion_mass, p.pinion, (1e-3, 1e-3, 1e-3)))
    rack_end = np.asarray(p.rack_centre) + (0.0, 0.35, 0.0)
    sub.add(link_part("rack", p.rack_mass, 2 * np.asarray(p.rack_centre) - rack_end, rack_end,
                      p.rack_radius))
    joint_at(sub, "column_bearing", "revolute", "chassis", "column", p.column_lower, frame_z(col))
    joint_at(sub, "steering_wheel_hub", "fixed", "column", "steering_wheel", p.steering_wheel_centre,
             frame_z(col))
    joint_at(sub, "shaft_bearing", "revolute", "chassis", "intermediate_shaft", p.pinion, frame_z(shaft))
    joint_at(sub, "pinion_bearing", "revolute", "chassis", "pinion", p.pinion, frame_z(shaft))
    joint_at(sub, "rack_slide", "prismatic", "chassis", "rack", p.rack_centre,
             frame_z((0.0, 1.0, 0.0)))
    sub.add(Coupler("column_to_shaft", "column_bearing", 1.0, "shaft_bearing", -1.0,
                    p.shaft_stiffness, p.shaft_damping))
    sub.add(Coupler("shaft_to_pinion", "shaft_bearing", 1.0, "pinion_bearing", -1.0,
                    p.shaft_stiffness, p.shaft_damping))
    # rack moves to the left (+y) when the pinion turns positively about its axis [E convention]
    sub.add(Coupler("rack_and_pinion", "pinion_bearing", p.rack_gain, "rack_slide", -1.0,
                    p.mesh_stiffness, p.mesh_damping))
    sub.add(Coupler("driver", "column_bearing", 1.0, None, 0.0, p.driver_stiffness, p.driver_damping))
    return sub


# anti-roll bar -------------------------------------------------------------------------------
@dataclass(frozen=True)
class AntiRollBarParams:
    bushing: V3               # left bar bushing on the body (the bar turns about y there)
    arm_end: V3               # left bar arm end (drop link upper end)
    droplink_lower: V3        # drop link lower end on the suspension
    bar_mass: float           # kg per half
    droplink_mass: float
    torsional_stiffness: float  # N m/rad, twist of one half against the other
    torsional_damping: float    # N m s/rad
    bar_radius: float         # m, the bar as a tube (its inertia)
    droplink_radius: float    # m


@register("anti_roll_bar")
def build_anti_roll_bar(p: AntiRollBarParams) -> Subsystem:
    """Anti-roll bar: two halves in bushings on the body, their relative twist resisted by a
    torsion coupler (q_l + q_r, the right axis mirrored), drop links (universal at the
    suspension arm, spherical at the bar); 0 dof with its interfaces held. Interfaces: chassis, l_arm
    (r_arm)."""
    sub = Subsystem("anti_roll_bar", template="anti_roll_bar", expected_dof=0)
    sub.add(Interface("chassis"), Interface("l_arm"))
    s = "l_"
    centre = np.array([p.bushing[0], 0.0, p.bushing[2]])
    sub.add(link_part(f"{s}bar", p.bar_mass, centre, p.arm_end, p.bar_radius))
    sub.add(link_part(f"{s}droplink", p.droplink_mass, p.arm_end, p.droplink_lower, p.droplink_radius))
    joint_at(sub, f"{s}bar_bushing", "revolute", "chassis", f"{s}bar", p.bushing,
             frame_z((0.0, 1.0, 0.0)))
    # universal at the arm (listed first: the drop link hangs from the arm in the spanning
    # tree, whether the arm is a suspension part or, stored alone, the ground), ball at the bar
    d = np.subtract(p.arm_end, p.droplink_lower)
    joint_at(sub, f"{s}droplink_lower", "universal", "l_arm", f"{s}droplink", p.droplink_lower,
             universal_frame((0.0, 1.0, 0.0), np.cross((0.0, 1.0, 0.0), d)))
    joint_at(sub, f"{s}droplink_upper", "spherical", f"{s}droplink", f"{s}bar", p.arm_end)
    mirror_left_to_right(sub)
    sub.add(Coupler("torsion", "l_bar_bushing", 1.0, "r_bar_bushing", 1.0,
                    p.torsional_stiffness, p.torsional_damping))
    return sub


# driveline -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class DrivelineParams:
    engine_com: V3
    engine_mass: float
    engine_inertia: V3
    gearbox_com: V3
    gearbox_mass: float
    gearbox_inertia: V3
    propshaft_front: V3
    propshaft_rear: V3
    propshaft_mass: float
    differential_com: V3
    differential_mass: float  # housing, on the body
    differential_inertia: V3
    carrier_mass: float       # carrier with the ring gear, turning in the housing about y
    carrier_inertia: V3
    side_gear_mass: float     # side gear with the inner joint's housing (tulip)
    tripod_mass: float        # the inner joint's tripod, plunging in the tulip
    halfshaft_outer: V3       # left halfshaft outer end at design (outer joint centre, in the wheel)
    halfshaft_mass: float
    final_drive_ratio: float
    shaft_stiffness: float    # N m/rad, propeller shaft to carrier (final drive coupler)
    shaft_damping: float      # N m s/rad
    differential_stiffness: float   # N m/rad, side gears against each other (differential coupler)
    differential_damping: float     # N m s/rad
    halfshaft_inner: V3       # left halfshaft inner end at design (inner joint centre, side-gear axis)
    propshaft_radius: float   # m, propeller shaft as a tube (its inertia)
    halfshaft_radius: float   # m


@register("driveline")
def build_driveline(p: DrivelineParams) -> Subsystem:
    """Rear-wheel driveline: engine and gearbox bolted to the body, propeller shaft, differential
    housing on the body with the carrier turning in it, and per side a side gear on the carrier,
    a plunging constant-velocity joint (the tripod sliding along the side-gear axis, joined to
    the halfshaft by a constant-velocity joint) and a fixed constant-velocity joint between the
    halfshaft and the wheel: a loop through the suspension. The final drive
    (propshaft to carrier, ``final_drive_ratio``) and the open differential (the side gears
    turning equally and oppositely on the carrier: wheel speeds averaging to the carrier's) are
    compliant couplers. Interfaces: chassis, l_wheel (r_wheel). With them held: propshaft and
    carrier free (2 dof; the couplers are forces)."""
    sub = Subsystem("driveline", template="driveline", expected_dof=2)
    sub.add(Interface("chassis"), Interface("l_wheel"))
    sub.add(Part("engine", p.engine_mass, p.engine_com, p.engine_inertia))
    sub.add(Part("gearbox", p.gearbox_mass, p.gearbox_com, p.gearbox_inertia))
    sub.add(link_part("propshaft", p.propshaft_mass, p.propshaft_front, p.propshaft_rear,
                      p.propshaft_radius))
    sub.add(Part("differential", p.differential_mass, p.differential_com, p.differential_inertia))
    sub.add(Part("carrier", p.carrier_mass, p.differential_com, p.carrier_inertia))
    joint_at(sub, "engine_mounts", "fixed", "chassis", "engine", p.engine_com)
    joint_at(sub, "gearbox_bolts", "fixed", "engine", "gearbox", p.gearbox_com)
    joint_at(sub, "propshaft_bearing", "revolute", "chassis", "propshaft", p.propshaft_front,
             frame_z(np.subtract(p.propshaft_front, p.propshaft_rear)))
    joint_at(sub, "differential_mounts", "fixed", "chassis", "differential", p.differential_com)
    y = frame_z((0.0, 1.0, 0.0))
    joint_at(sub, "carrier_bearing", "revolute", "differential", "carrier", p.differential_com, y)
    inner, outer = p.halfshaft_inner, p.halfshaft_outer
    if abs(unit(np.subtract(outer, inner))[1]) < 1.0 - 1e-9:
        raise ModelingError(f"halfshaft_inner {tuple(inner)} to halfshaft_outer {tuple(outer)}: "
                            f"the halfshaft must lie along the wheel axis y at design (same x "
                            f"and z at both ends)")
    # side gear and tripod as short rods on the side-gear axis, 0.1 m and 0.05 m long [E]
    sub.add(link_part("l_side_gear", p.side_gear_mass, np.subtract(inner, (0.0, 0.1, 0.0)), inner,
                      p.halfshaft_radius))
    sub.add(link_part("l_tripod", p.tripod_mass, np.subtract(inner, (0.0, 0.05, 0.0)), inner,
                      p.halfshaft_radius))
    sub.add(link_part("l_halfshaft", p.halfshaft_mass, inner, outer, p.halfshaft_radius))
    # the halfshaft on the wheel axis at design (both joints straight): the shafts' axes are y.
    # Every joint of the chain points towards the tripod (side gear -> tripod <- halfshaft <-
    # wheel), so the spanning tree closes the loop at one of the tripod's two joints whichever
    # side it reaches first (the wheel through the suspension, or held as an interface)
    joint_at(sub, "l_side_gear_bearing", "revolute", "carrier", "l_side_gear", inner, y)
    joint_at(sub, "l_outer_cv", "constant_velocity", "l_wheel", "l_halfshaft", outer, y)
    joint_at(sub, "l_plunge", "prismatic", "l_side_gear", "l_tripod", inner, y)
    joint_at(sub, "l_inner_cv", "constant_velocity", "l_halfshaft", "l_tripod", inner, y)
    mirror_left_to_right(sub)
    sub.add(Coupler("final_drive", "propshaft_bearing", 1.0 / p.final_drive_ratio,
                    "carrier_bearing", -1.0, p.shaft_stiffness, p.shaft_damping))
    # the right axis is the mirror image (-y): equal and opposite turns on the carrier are equal
    # coordinates
    sub.add(Coupler("open_differential", "l_side_gear_bearing", 1.0, "r_side_gear_bearing", -1.0,
                    p.differential_stiffness, p.differential_damping))
    return sub


# wheels and tyres ----------------------------------------------------------------------------
@dataclass(frozen=True)
class WheelParams:
    wheel_centre: V3
    mass: float
    spin_inertia: float
    tilt_inertia: float
    radius: float
    vertical_stiffness: float
    vertical_damping: float
    magic_formula_longitudinal: MF
    magic_formula_lateral: MF
    slip_speed: float         # m/s, lowest speed in the slip denominators
    brake_torque: float       # N m at full pedal
    brake_speed: float        # rad/s, spin rate over which brake friction builds up


@register("wheels")
def build_wheels(p: WheelParams) -> Subsystem:
    """A pair of wheels spinning on their uprights (revolute about y), each with a tyre and a
    brake. Interfaces: l_upright (r_upright)."""
    sub = Subsystem("wheels", template="wheels", expected_dof=2)
    sub.add(Interface("l_upright"))
    R = frame_z((0.0, 1.0, 0.0))
    sub.add(Part("l_wheel", p.mass, p.wheel_centre,
                 R @ np.diag([p.tilt_inertia, p.tilt_inertia, p.spin_inertia]) @ R.T))
    joint_at(sub, "l_spin", "revolute", "l_upright", "l_wheel", p.wheel_centre, R)
    sub.add(Tyre("l_tyre", "l_wheel", "l_spin", p.wheel_centre, (0.0, 1.0, 0.0), p.radius,
                 p.vertical_stiffness, p.vertical_damping, p.magic_formula_longitudinal,
                 p.magic_formula_lateral, p.slip_speed, p.brake_torque, p.brake_speed))
    return mirror_left_to_right(sub)


def build(template, values):
    """The Subsystem of ``template`` from a dict of parameter values."""
    params, builder = TEMPLATES[template]
    p = params(**values)
    sub = builder(p)
    sub.parameters = p
    return sub


def parameter_fields(template):
    """(name, type) of the template's parameters, in order."""
    return [(f.name, f.type) for f in fields(TEMPLATES[template][0])]


# custom ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CustomParams:
    parts: tuple     # of (name, mass kg, com V3, principal inertia V3)
    joints: tuple    # of (name, kind, parent or None (ground), child, position V3, axis V3)
    interfaces: tuple  # of names
    dof: float       # degrees of freedom with the interfaces held


@register("custom")
def build_custom(p: CustomParams) -> Subsystem:
    """A subsystem written out part by part and joint by joint (design coordinates; a joint's
    axis is its z: the revolute or prismatic axis). Joints are taken in the order given, so
    loop-closing joints go last."""
    sub = Subsystem("custom", template="custom", expected_dof=int(p.dof))
    for name in p.interfaces:
        sub.add(Interface(name))
    for name, mass, com, inertia in p.parts:
        sub.add(Part(name, mass, com, inertia))
    for name, kind, parent, child, position, axis in p.joints:
        joint_at(sub, name, kind, parent, child, position, frame_z(axis))
    return sub
