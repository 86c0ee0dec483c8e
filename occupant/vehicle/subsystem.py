"""Subsystems (seed 000, section 1.3): an Assembly with its own base frame, nested subsystems and
interface parts.

* View transform (seed 000, fig. 4): a subsystem's elements are entered in its base frame; the
  base frame sits in the parent's frame at ``base`` (X_parent_sub), so a point p of a nested
  subsystem is r = r_sub + A p in its parent, and up the chain to the vehicle frame.
* Interface parts (virtual parts): a subsystem stored alone refers to outside parts through
  named interfaces; joints, markers and force elements may use an interface wherever they take a
  part. When the subsystem is placed in a parent, each interface is bound to a real part
  (``bind``); an unbound interface, or one whose part was deleted, stands for the ground.
* Mirror: the elements of the left side (names starting "l_") are written once;
  ``mirror_left_to_right`` adds their images in the x-z plane, named "r_".

Part frames in vehicle subsystems coincide with the subsystem's base frame at the design
position (the ADAMS convention: centres of mass, markers and joints are given by their design
coordinates), so a joint's placement in its parent part is its design position.
"""
from dataclasses import dataclass, field, replace

import numpy as np

from occupant.modeling import Assembly, Joint, MDH, Marker, ModelingError, Part, Pose, VirtualPart
from occupant.modeling.elements import _vec3

MIRROR = np.diag([1.0, -1.0, 1.0])   # reflection in the vehicle's x-z plane


# An interface is the platform's virtual part (one class for the concept); in a subsystem its
# ``bound_to`` names the real part in the parent's namespace ("sub.part", a part of the parent,
# or one of the parent's interfaces), None: the ground.
Interface = VirtualPart


@dataclass
class Tyre:
    """A tyre on the wheel part ``part`` (centre and spin axis in the subsystem frame), with its
    brake on the spin joint ``joint``. See ``occupant.vehicle.tyre`` for the laws and units."""
    name: str
    part: str
    joint: str | None
    centre: tuple
    axis: tuple
    radius: float
    stiffness: float
    damping: float
    mf_long: tuple       # B, C, mu, E
    mf_lat: tuple        # B, C, mu, E
    slip_speed: float
    brake_torque: float
    brake_speed: float

    def __post_init__(self):
        what = f"tyre '{self.name}'"
        self.centre = _vec3(self.centre, f"{what}.centre")
        self.axis = _vec3(self.axis, f"{what}.axis")
        self.axis = self.axis / np.linalg.norm(self.axis)
        for key in ("radius", "stiffness", "slip_speed", "brake_speed"):
            if not getattr(self, key) > 0:
                raise ModelingError(f"{what}.{key}: must be > 0, got {getattr(self, key)!r}")
        self.mf_long, self.mf_lat = tuple(map(float, self.mf_long)), tuple(map(float, self.mf_lat))

    @property
    def refs(self):
        r = {"part": self.part}
        if self.joint is not None:
            r["joint"] = self.joint
        return r


@dataclass
class Coupler:
    """A compliant coupler r_a q_a + r_b q_b = target between the coordinates of two 1-dof
    joints (``joint_b`` None: a servo driving joint a along ``target``, (n, 2) rows of
    (t s, value))."""
    name: str
    joint_a: str
    ratio_a: float
    joint_b: str | None
    ratio_b: float
    stiffness: float
    damping: float
    target: object = None

    @property
    def refs(self):
        r = {"joints[0].joint": self.joint_a}
        if self.joint_b is not None:
            r["joints[1].joint"] = self.joint_b
        return r


class Subsystem(Assembly):
    """An Assembly with a base frame ``base`` (X_parent_sub, (4, 4)), interface parts and nested
    subsystems. ``template``, ``source`` and ``expected_dof`` say where it came from and how
    many degrees of freedom it has with its interfaces held (checked at compile)."""

    def __init__(self, name, base=None, template=None, source=None, expected_dof=None):
        super().__init__(name)
        self.base = np.eye(4) if base is None else np.array(base, float)
        self.subsystems = {}
        self.tyres = {}
        self.couplers = {}
        self.template = template
        self.source = source
        self.expected_dof = expected_dof

    # elements ----------------------------------------------------------------------------
    @property
    def interfaces(self):
        """The interface parts (the Assembly's virtual parts), by name."""
        return self.virtual_parts

    def _table(self, element):
        if isinstance(element, Tyre):
            return self.tyres
        if isinstance(element, Coupler):
            return self.couplers
        return super()._table(element)

    def _tables(self):
        return super()._tables() + (self.tyres, self.couplers)

    def _check_refs(self, element, lookup):
        # an interface's binding names a part of the parent's namespace: checked when bound
        # (``add_subsystem``), not against this subsystem's elements
        if not isinstance(element, VirtualPart):
            super()._check_refs(element, lookup)

    def add_subsystem(self, sub, bind=None):
        """Nest ``sub`` and bind its interfaces: {interface: part in this namespace}."""
        if sub.name in self.subsystems or sub.name in set(self._all_names()):
            raise ModelingError(f"subsystem '{self.name}': the name '{sub.name}' is taken")
        for itf, target in (bind or {}).items():
            if itf not in sub.interfaces:
                raise ModelingError(f"subsystem '{sub.name}': no interface '{itf}' to bind "
                                    f"(interfaces: {', '.join(sub.interfaces) or 'none'})")
            if self.resolve_part(target) is False:
                raise ModelingError(f"subsystem '{sub.name}': interface '{itf}' bound to unknown "
                                    f"part '{target}' (known: {', '.join(self.all_part_names())})")
            sub.interfaces[itf].bound_to = target
        self.subsystems[sub.name] = sub
        return sub

    def resolve_part(self, name):
        """True if ``name`` ("part", "interface" or "sub.part") names a part or interface here,
        else False."""
        if name in self.parts or name in self.interfaces:
            return True
        head, _, rest = name.partition(".")
        return bool(rest) and head in self.subsystems and self.subsystems[head].resolve_part(rest)

    def all_part_names(self, prefix=""):
        out = [prefix + n for n in self.parts]
        for s in self.subsystems.values():
            out += s.all_part_names(f"{prefix}{s.name}.")
        return out

    def remove(self, name):
        """Remove an element (``"sub.element"`` inside a nested subsystem) and what depends on
        it; interfaces bound to a removed part fall back to the ground (seed 000, 1.3.2)."""
        head, _, rest = name.partition(".")
        if rest and head in self.subsystems:
            self.subsystems[head].remove(rest)
        elif name in self.subsystems:
            del self.subsystems[name]
        else:
            super().remove(name)
        for sub in self.subsystems.values():
            for itf in sub.interfaces.values():
                if itf.bound_to is not None and (itf.bound_to == name
                                                 or itf.bound_to.startswith(name + ".")):
                    itf.bound_to = None

    # views -------------------------------------------------------------------------------
    def walk(self, prefix="", X_world=None):
        """(prefix, subsystem, X_world_sub) of this subsystem and every nested one, depth first."""
        X = (np.eye(4) if X_world is None else X_world) @ self.base
        yield prefix, self, X
        for s in self.subsystems.values():
            yield from s.walk(f"{prefix}{s.name}.", X)

    @property
    def parts_all(self):
        return {p + n: e for p, s, _ in self.walk() for n, e in s.parts.items()}

    def __repr__(self):
        return (f"Subsystem('{self.name}', parts={len(self.parts)}, joints={len(self.joints)}, "
                f"interfaces={len(self.interfaces)}, subsystems={len(self.subsystems)})")


# mirror -------------------------------------------------------------------------------------
def _side(name):
    return "r_" + name[2:] if isinstance(name, str) and name.startswith("l_") else name


def _reflect_R(R):
    return MIRROR @ R @ MIRROR


def _reflect_mdh(a):
    """S MDH S with S = diag(1, -1, 1) in the frame: the turns about z and x change sign."""
    return MDH(-a.gamma, a.b, -a.alpha, a.d, -a.theta, a.r)


def mirror_left_to_right(sub):
    """Add to ``sub`` the mirror image (y -> -y) of each element named "l_...", named "r_...";
    references to other left elements turn into the right ones, shared ones stay."""
    S = MIRROR
    left = lambda table: [e for n, e in table.items() if n.startswith("l_")]
    for itf in left(sub.interfaces):
        sub.add(Interface(_side(itf.name)))
    for p in left(sub.parts):
        sub.add(Part(_side(p.name), p.mass, S @ p.com, S @ p.inertia @ S))
    for m in left(sub.markers):
        sub.add(Marker(_side(m.name), _side(m.part), S @ m.position, _reflect_R(m.rotation)))
    for j in left(sub.joints):
        pl = j.placement
        sub.add(Joint(_side(j.name), j.kind, _side(j.parent), _side(j.child),
                      Pose(S @ pl.position, _reflect_R(pl.rotation)),
                      axes=tuple(_reflect_mdh(a) for a in j.axes),
                      parent_marker=_side(j.parent_marker), child_marker=_side(j.child_marker)))
    for s in left(sub.spring_dampers):
        sub.add(replace(s, name=_side(s.name), marker_a=_side(s.marker_a),
                        marker_b=_side(s.marker_b), point_b=S @ s.point_b))
    for r in left(sub.joint_resistances):
        sub.add(replace(r, name=_side(r.name), joint=_side(r.joint)))
    for t in left(sub.tyres):
        sub.add(replace(t, name=_side(t.name), part=_side(t.part), joint=_side(t.joint),
                        centre=S @ t.centre, axis=S @ t.axis))
    for c in left(sub.couplers):
        sub.add(replace(c, name=_side(c.name), joint_a=_side(c.joint_a), joint_b=_side(c.joint_b)))
    return sub


# flatten ------------------------------------------------------------------------------------
@dataclass
class Flat:
    """A subsystem tree flattened to one Assembly (full names "sub.element", vehicle-frame
    coordinates), with its tyres and couplers and where each element came from."""
    assembly: Assembly
    tyres: list = field(default_factory=list)
    couplers: list = field(default_factory=list)
    owner: dict = field(default_factory=dict)      # full element name -> subsystem prefix


GROUND = "ground"   # the stand-in part of unbound interfaces, fixed to B0


def _ground(flat):
    """The part GROUND, welded to B0, made when an interface first falls back to the ground (a
    part rather than B0 itself keeps the joint order, and so the loop-closing joints, of the
    subsystems that use it; its mass, 1 kg, never moves and does not enter the motion)."""
    asm = flat.assembly
    if GROUND not in asm.parts:
        asm.add(Part(GROUND, 1.0, inertia=(1.0, 1.0, 1.0)))
        asm.add(Joint(f"{GROUND}_weld", "fixed", None, GROUND, Pose()))
        flat.owner[f"{GROUND}_weld"] = ""
    return GROUND


def flatten(root):
    """The Flat of the subsystem tree ``root``."""
    flat = Flat(Assembly(root.name))
    _flatten_into(root, flat, "", np.eye(4) @ root.base, {})
    return flat


def _flatten_into(sub, flat, prefix, X, bindings):
    asm = flat.assembly
    R, p = X[:3, :3], X[:3, 3]

    def part_of(name):   # full name of a local part or interface (GROUND when unbound)
        if name is None:
            return None
        if name in sub.parts:
            return prefix + name
        return bindings.get(name) or _ground(flat)

    def own(element):
        flat.owner[element.name] = prefix
        return element

    for n, e in sub.parts.items():
        asm.add(own(Part(prefix + n, e.mass, R @ e.com + p, R @ e.inertia @ R.T)))
    for n, m in sub.markers.items():
        asm.add(own(Marker(prefix + n, part_of(m.part), R @ m.position + p, R @ m.rotation)))
    for n, j in sub.joints.items():
        if j.parent_marker is not None:
            raise ModelingError(f"joint '{prefix + n}': vehicle subsystems place joints by "
                                f"position, not by parent_marker")
        asm.add(own(Joint(prefix + n, j.kind, part_of(j.parent), part_of(j.child),
                          Pose(R @ j.placement.position + p, R @ j.placement.rotation), axes=j.axes,
                          child_marker=None if j.child_marker is None else prefix + j.child_marker)))
    for n, s in sub.spring_dampers.items():
        asm.add(own(replace(s, name=prefix + n, marker_a=prefix + s.marker_a,
                            marker_b=None if s.marker_b is None else prefix + s.marker_b,
                            point_b=R @ s.point_b + p)))
    for n, r in sub.joint_resistances.items():
        asm.add(own(replace(r, name=prefix + n, joint=prefix + r.joint)))
    for n, t in sub.tyres.items():
        flat.tyres.append(replace(t, name=prefix + n, part=part_of(t.part),
                                  joint=None if t.joint is None else prefix + t.joint,
                                  centre=R @ t.centre + p, axis=R @ t.axis))
        flat.owner[prefix + n] = prefix
    for n, c in sub.couplers.items():
        flat.couplers.append(replace(c, name=prefix + n, joint_a=prefix + c.joint_a,
                                     joint_b=None if c.joint_b is None else prefix + c.joint_b))
        flat.owner[prefix + n] = prefix
    for child in sub.subsystems.values():
        child_bind = {}
        for itf in child.interfaces.values():
            target = itf.bound_to
            if target is None:
                child_bind[itf.name] = None
            elif target in sub.parts:
                child_bind[itf.name] = prefix + target
            elif target in sub.interfaces:
                child_bind[itf.name] = bindings.get(target)
            else:
                child_bind[itf.name] = prefix + target
        _flatten_into(child, flat, f"{prefix}{child.name}.", X @ child.base, child_bind)


class Vehicle:
    """The editable vehicle: the Subsystem tree of a vehicle file, with every element of every
    subsystem in ``parts`` and ``constraints`` (joints and couplers) by full name ("sub.name")."""

    def __init__(self, root):
        self.root = root

    @property
    def name(self):
        return self.root.name

    @property
    def source(self):
        return self.root.source

    @property
    def subsystems(self):
        return self.root.subsystems

    @property
    def parts(self):
        return {p + n: e for p, s, _ in self.root.walk() for n, e in s.parts.items()}

    @property
    def constraints(self):
        out = {}
        for p, s, _ in self.root.walk():
            out.update({p + n: e for n, e in s.joints.items()})
            out.update({p + n: e for n, e in s.couplers.items()})
        return out

    def remove(self, name):
        """Remove an element by full name and what depends on it (``Subsystem.remove``)."""
        self.root.remove(name)

    def compile(self, **kwargs):
        from occupant.vehicle.compile import compile_vehicle
        return compile_vehicle(self, **kwargs)

    def __repr__(self):
        return (f"Vehicle('{self.name}', parts={len(self.parts)}, "
                f"constraints={len(self.constraints)}, subsystems={len(self.subsystems)})")
