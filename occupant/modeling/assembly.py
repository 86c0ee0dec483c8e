"""Assembly: the container of modeling elements with relationship management (seed 000).

Elements refer to each other by name. The Assembly checks every reference when an element is
added (membership), keeps the reverse references (which markers sit on a part, which joints and
force elements use it) and removes dependents with their referent (cascade delete).
"""
from occupant.modeling.elements import Part, Marker, Joint, JointResistance, SpringDamper, ModelingError
from occupant.modeling.geometry import Ellipsoid, Sphere, Cylinder, Box, Plane, Mesh
from occupant.modeling.contacts import ContactPair
from occupant.modeling.airbags import Airbag, AirbagContact
from occupant.modeling.muscles import Muscle
from occupant.modeling.belts import Belt
from occupant.modeling.velocity_constraints import KnifeEdge

_GEOMETRY = (Ellipsoid, Sphere, Cylinder, Box, Plane, Mesh)


class Assembly:
    """Editable model: add parts, markers, geometry, joints and force elements, then ``compile()``."""

    def __init__(self, name="model"):
        self.name = name
        self.parts = {}
        self.markers = {}
        self.geometries = {}
        self.joints = {}
        # force producers, one table per family (compiled to one block each, occupant.model.bundle)
        self.joint_resistances = {}
        self.spring_dampers = {}
        self.contact_pairs = {}
        self.airbags = {}
        self.airbag_contacts = {}
        self.muscles = {}
        self.gravity = None   # (3,) m/s^2 in B0, the model's gravity field (None: simulate's default)
        self.belts = {}
        self.velocity_constraints = {}   # linear non-holonomic constraints (KnifeEdge)

    # membership --------------------------------------------------------------------------
    def _table(self, element):
        if isinstance(element, Part):
            return self.parts
        if isinstance(element, Marker):
            return self.markers
        if isinstance(element, _GEOMETRY):
            return self.geometries
        if isinstance(element, Joint):
            return self.joints
        if isinstance(element, JointResistance):
            return self.joint_resistances
        if isinstance(element, SpringDamper):
            return self.spring_dampers
        if isinstance(element, ContactPair):
            return self.contact_pairs
        if isinstance(element, Airbag):
            return self.airbags
        if isinstance(element, AirbagContact):
            return self.airbag_contacts
        if isinstance(element, Muscle):
            return self.muscles
        if isinstance(element, Belt):
            return self.belts
        if isinstance(element, KnifeEdge):
            return self.velocity_constraints
        raise ModelingError(f"assembly '{self.name}': cannot hold a {type(element).__name__}")

    def _tables(self):
        return (self.parts, self.markers, self.geometries, self.joints, self.joint_resistances,
                self.spring_dampers, self.contact_pairs, self.airbags, self.airbag_contacts,
                self.muscles, self.belts, self.velocity_constraints)

    def _all_names(self):
        for table in self._tables():
            yield from table

    def add(self, *elements):
        """Add elements (in dependency order: a marker after its part). Returns the last one."""
        for element in elements:
            table = self._table(element)
            if element.name in set(self._all_names()):
                raise ModelingError(f"assembly '{self.name}': the name '{element.name}' is taken")
            self._check_refs(element)
            table[element.name] = element
        return elements[-1] if elements else None

    def _check_refs(self, element):
        targets = {"part": self.parts, "parent": self.parts, "child": self.parts,
                   "marker": self.markers, "marker_b": self.markers, "joint": self.joints,
                   "geometry": self.geometries, "geometry_b": self.geometries,
                   "airbag": self.airbags}
        for key, ref in element.refs.items():
            target = targets[key.rsplit(".", 1)[-1]]   # "points[2].marker" refers to a marker
            if ref not in target:
                known = ", ".join(target) or "none"
                raise ModelingError(f"{type(element).__name__.lower()} '{element.name}'.{key}: "
                                    f"unknown '{ref}' (known: {known})")
        if isinstance(element, Joint):
            for key, ref in element.marker_refs.items():
                side = element.parent if key == "parent_marker" else element.child
                marker = self.markers.get(ref)
                if marker is None or marker.part != side:
                    raise ModelingError(f"joint '{element.name}'.{key}: '{ref}' is not a marker "
                                        f"of part '{side}'")

    # reverse references and cascade delete -----------------------------------------------------
    def dependents(self, name):
        """Names of the elements that refer to ``name`` directly."""
        out = []
        for table in self._tables()[1:]:
            for element in table.values():
                refs = dict(element.refs)
                if isinstance(element, Joint):
                    refs.update(element.marker_refs)
                if name in refs.values():
                    out.append(element.name)
        return out

    def remove(self, name):
        """Remove an element and, recursively, everything that refers to it."""
        for dependent in self.dependents(name):
            if self.find(dependent) is not None:
                self.remove(dependent)
        for table in self._tables():
            if name in table:
                del table[name]
                return
        raise ModelingError(f"assembly '{self.name}': nothing called '{name}' to remove")

    def find(self, name):
        for table in self._tables():
            if name in table:
                return table[name]
        return None

    def compile(self):
        """Freeze into a runtime ``occupant.model.Model`` (regular numbering, flat arrays)."""
        from occupant.modeling.compile import compile_assembly
        return compile_assembly(self)

    def __repr__(self):
        return (f"Assembly('{self.name}', parts={len(self.parts)}, joints={len(self.joints)}, "
                f"markers={len(self.markers)}, geometries={len(self.geometries)}, "
                f"joint_resistances={len(self.joint_resistances)}, "
                f"spring_dampers={len(self.spring_dampers)}, "
                f"contact_pairs={len(self.contact_pairs)})")
