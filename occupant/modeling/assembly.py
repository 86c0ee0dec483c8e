"""Assembly: the container of modeling elements with relationship management (seed 000, 1.2).

Elements refer to each other by name. The Assembly keeps the four associations of the seed:
membership (a part owns its markers, a marker its geometry), feature definition (a joint is
defined by its I and J markers, a part by its centre-of-mass marker), model (every element is in
one of its tables) and reverse associations (``dependents``: what refers to an element). Every
operation is checked before anything changes (atomic): ``add`` (unknown reference, duplicate name,
marker on the wrong part, cycle of ownership), ``remove`` (recursive cascade through the reverse
associations; the I/J markers of a deleted connection go with it unless something else uses them;
a virtual part bound to a deleted part falls back to the ground) and ``relink`` (change one
reference; the joints defined by a moved marker follow it, and a joint moved to another part takes
its marker on that side along).
"""
import dataclasses

from occupant.modeling.elements import (element_kind, Part, VirtualPart, Marker, Joint, JointResistance,
                                        SpringDamper, ModelingError)
from occupant.modeling.geometry import GEOMETRY_TYPES
from occupant.modeling.contacts import ContactPair
from occupant.modeling.airbags import Airbag, AirbagContact
from occupant.modeling.muscles import Muscle
from occupant.modeling.belts import Belt
from occupant.modeling.materials import Material
from occupant.modeling.constraint_elements import Primitive, Coupler
from occupant.modeling.marker_forces import MarkerForce
from occupant.modeling.environment import Gravity
from occupant.modeling.velocity_constraints import KnifeEdge
from occupant.modeling.motions import JointMotion, MarkerMotion
from occupant.modeling.higher_pairs import PointOnCurve, CurveOnCurve
from occupant.modeling.surface_motions import SurfaceMotion

# reference key (last component of an element's ``refs`` key) -> the tables it may name
_TARGETS = {
    "part": ("parts", "virtual_parts"), "parent": ("parts", "virtual_parts"),
    "child": ("parts", "virtual_parts"), "bound_to": ("parts",),
    "marker": ("markers",), "marker_b": ("markers",), "control_marker": ("markers",),
    "marker_i": ("markers",), "marker_j": ("markers",), "cm_marker": ("markers",), "parent_marker": ("markers",),
    "child_marker": ("markers",), "joint": ("joints",), "joint_b": ("joints",),
    "geometry": ("geometries",), "geometry_b": ("geometries",), "airbag": ("airbags",),
    "material": ("materials",), "curve": ("geometries",), "curve_b": ("geometries",),
}
# the I/J markers of a connection (feature definition): deleted with it unless used elsewhere
_FEATURE_MARKERS = ("parent_marker", "child_marker", "marker_i", "marker_j")
# references that do not make the referrer depend on the target: deleting the target unbinds
_SOFT = ("bound_to",)
# references that do not count as ownership (a part and its own centre-of-mass marker)
_NOT_OWNERSHIP = ("cm_marker",)

# (table, element type), in the order of ``_tables`` (new families appended at the end)
_FAMILIES = (
    ("parts", Part), ("markers", Marker), ("geometries", GEOMETRY_TYPES), ("joints", Joint),
    ("joint_resistances", JointResistance), ("spring_dampers", SpringDamper),
    ("contact_pairs", ContactPair), ("airbags", Airbag), ("airbag_contacts", AirbagContact),
    ("muscles", Muscle), ("belts", Belt), ("virtual_parts", VirtualPart),
    ("materials", Material), ("primitives", Primitive), ("couplers", Coupler),
    ("marker_forces", MarkerForce), ("gravity_fields", Gravity),
    ("velocity_constraints", KnifeEdge),   # linear non-holonomic constraints
    ("motions", (JointMotion, MarkerMotion)),   # rheonomic constraints
    ("higher_pairs", (PointOnCurve, CurveOnCurve)),
    ("surface_motions", SurfaceMotion),   # prescribed motions of geometries on B0
)


def element_refs(element):
    """Every reference of an element, {key: name} (a joint's markers included)."""
    refs = dict(element.refs)
    if isinstance(element, Joint):
        refs.update(element.marker_refs)
    return refs


class Assembly:
    """Editable model: add parts, markers, geometry, joints and force elements, then ``compile()``."""

    def __init__(self, name="model"):
        self.name = name
        for table, _ in _FAMILIES:
            setattr(self, table, {})

    # the gravity field is an element (seed 000's environment); ``gravity`` reads and sets it
    @property
    def gravity(self):
        """(3,) m/s^2 in B0 of the model's gravity field, None without one (simulate's default)."""
        for g in self.gravity_fields.values():
            return g.acceleration
        return None

    @gravity.setter
    def gravity(self, value):
        self.gravity_fields.clear()
        if value is not None:
            g = Gravity("gravity", value)
            self.gravity_fields[g.name] = g

    # membership --------------------------------------------------------------------------
    def _table(self, element):
        for table, kind in _FAMILIES:
            if isinstance(element, kind):
                return getattr(self, table)
        raise ModelingError(f"assembly '{self.name}': cannot hold a {type(element).__name__}")

    def _tables(self):
        return tuple(getattr(self, table) for table, _ in _FAMILIES)

    def _all_names(self):
        for table in self._tables():
            yield from table

    def elements(self):
        """Every element (the model association), table by table."""
        for table in self._tables():
            yield from table.values()

    def add(self, *elements):
        """Add elements (in any order within one call: a part and its centre-of-mass marker may
        come together). Nothing is added if any of them is invalid. Returns the last one."""
        names = set(self._all_names())
        batch = {}
        for element in elements:
            self._table(element)
            if element.name in names or element.name in batch:
                raise ModelingError(f"assembly '{self.name}': the name '{element.name}' is taken")
            if isinstance(element, Gravity) and (self.gravity_fields or any(
                    isinstance(e, Gravity) for e in batch.values())):
                raise ModelingError(f"gravity '{element.name}': the model has a gravity field "
                                    f"already ('{next(iter(self.gravity_fields), '')}')")
            batch[element.name] = element
        lookup = self._lookup(batch)
        for element in elements:
            self._check_refs(element, lookup)
        self._check_ownership(lookup, list(batch))
        for element in elements:
            self._table(element)[element.name] = element
        return elements[-1] if elements else None

    def _lookup(self, changed=None, removed=()):
        """name -> element of the model with the elements of ``changed`` added or replacing and
        those of ``removed`` gone (a trial state, checked before it is committed)."""
        view = {n: e for n, e in ((e.name, e) for e in self.elements()) if n not in removed}
        view.update(changed or {})
        return view

    def _check_refs(self, element, lookup):
        kind = element_kind(element)
        for key, ref in element_refs(element).items():
            target = lookup.get(ref)
            tables = _TARGETS[key.rsplit(".", 1)[-1]]   # "points[2].marker" refers to a marker
            if target is None or not any(isinstance(target, dict(_FAMILIES)[t]) for t in tables):
                known = ", ".join(n for n, e in lookup.items()
                                  if any(isinstance(e, dict(_FAMILIES)[t]) for t in tables))
                raise ModelingError(f"{kind} '{element.name}'.{key}: unknown '{ref}' "
                                    f"(known: {known or 'none'})")
        if isinstance(element, Joint):
            for key, ref in element.marker_refs.items():
                side = element.parent if key == "parent_marker" else element.child
                if lookup[ref].part != side:
                    raise ModelingError(f"joint '{element.name}'.{key}: '{ref}' is not a marker "
                                        f"of part '{side}'")
        if isinstance(element, Part) and element.cm_marker is not None:
            if lookup[element.cm_marker].part != element.name:
                raise ModelingError(f"part '{element.name}'.cm_marker: '{element.cm_marker}' is a "
                                    f"marker of '{lookup[element.cm_marker].part}', not of "
                                    f"'{element.name}'")

    def _check_ownership(self, lookup, start):
        """No cycle of ownership: following references (but a part's centre-of-mass marker)
        from the elements ``start`` never comes back."""
        state = {}

        def visit(name, path):
            if state.get(name) == 2:
                return
            if state.get(name) == 1:
                cycle = " -> ".join(path[path.index(name):] + [name])
                raise ModelingError(f"assembly '{self.name}': cycle of ownership {cycle}")
            state[name] = 1
            element = lookup.get(name)
            if element is not None:
                for key, ref in element_refs(element).items():
                    if key not in _NOT_OWNERSHIP:
                        visit(ref, path + [name])
            state[name] = 2

        for name in start:
            visit(name, [])

    def check(self):
        """Raise ModelingError if any reference dangles or is inconsistent (a consistency check
        of the whole model: what ``add``, ``remove`` and ``relink`` keep true)."""
        lookup = self._lookup()
        for element in lookup.values():
            self._check_refs(element, lookup)
        self._check_ownership(lookup, list(lookup))

    # reverse references and cascade delete -----------------------------------------------------
    def dependents(self, name, _lookup=None, soft=True):
        """Names of the elements that refer to ``name`` directly (its reverse associations)."""
        lookup = self._lookup() if _lookup is None else _lookup
        return [e.name for e in lookup.values()
                if any(ref == name and (soft or key not in _SOFT)
                       for key, ref in element_refs(e).items())]

    def references(self, name):
        """{key: name} of what the element ``name`` refers to (its owner and feature definition)."""
        element = self.find(name)
        if element is None:
            raise ModelingError(f"assembly '{self.name}': nothing called '{name}'")
        return element_refs(element)

    def members(self, part):
        """Names of the markers of ``part`` and the geometry placed on them (membership)."""
        markers = [m.name for m in self.markers.values() if m.part == part]
        return markers + [g.name for g in self.geometries.values()
                          if getattr(g, "marker", None) in markers
                          or getattr(g, "marker_b", None) in markers]

    def removal_set(self, name):
        """The names ``remove(name)`` would delete: ``name``, what depends on it, recursively,
        and the I/J markers of deleted connections that nothing else uses."""
        lookup = self._lookup()
        if name not in lookup:
            raise ModelingError(f"assembly '{self.name}': nothing called '{name}' to remove")
        doomed, stack = set(), [name]
        while True:
            while stack:
                n = stack.pop()
                if n not in doomed:
                    doomed.add(n)
                    stack.extend(self.dependents(n, lookup, soft=False))
            for n in list(doomed):
                for key, ref in element_refs(lookup[n]).items():
                    if key in _FEATURE_MARKERS and ref not in doomed and all(
                            d in doomed for d in self.dependents(ref, lookup)):
                        stack.append(ref)
            if not stack:
                return doomed

    def remove(self, name):
        """Remove an element and, recursively, everything that depends on it (``removal_set``);
        virtual parts bound to a removed part are bound to the ground instead."""
        doomed = self.removal_set(name)
        for table in self._tables():
            for n in [n for n in table if n in doomed]:
                del table[n]
        for v in self.virtual_parts.values():
            if v.bound_to in doomed:
                v.bound_to = None

    def relink(self, name, key, new_ref):
        """Point the reference ``key`` (a field name, e.g. "child", "part", "marker_i") of the
        element ``name`` at ``new_ref``, updating every association: a moved marker takes the
        joints it defines along (their part on that side follows); a joint moved to another part
        takes its marker on that side along (when nothing else uses that marker). Nothing changes
        if the result would be inconsistent."""
        element = self.find(name)
        if element is None:
            raise ModelingError(f"assembly '{self.name}': nothing called '{name}' to relink")
        fields = {f.name for f in dataclasses.fields(element)}
        ref_fields = sorted(f for f in fields if f in _TARGETS or f in ("marker_a",))
        if key not in ref_fields:
            raise ModelingError(f"{element_kind(element)} '{name}'.{key}: not a "
                                f"reference (references: {', '.join(ref_fields) or 'none'})")
        changed = {name: dataclasses.replace(element, **{key: new_ref})}
        lookup = self._lookup()
        if isinstance(element, Marker):
            for j in self.joints.values():
                side = {"parent_marker": "parent", "child_marker": "child"}
                for mkey, pkey in side.items():
                    if getattr(j, mkey) == name:
                        changed[j.name] = dataclasses.replace(changed.get(j.name, j),
                                                              **{pkey: new_ref})
        if isinstance(element, Joint) and key in ("parent", "child"):
            marker = getattr(element, f"{key}_marker")
            if marker is not None:
                others = [d for d in self.dependents(marker, lookup) if d != name]
                if others:
                    raise ModelingError(f"joint '{name}'.{key}: its marker '{marker}' is also used "
                                        f"by {', '.join(others)}; relink that marker's part instead")
                changed[marker] = dataclasses.replace(self.markers[marker], part=new_ref)
        trial = self._lookup(changed)
        for e in changed.values():
            self._check_refs(e, trial)
        for e in trial.values():                 # what refers to the changed elements
            if any(r in changed for r in element_refs(e).values()):
                self._check_refs(e, trial)
        self._check_ownership(trial, list(changed))
        for n, e in changed.items():
            self._table(e)[n] = e
        return changed[name]

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
        counts = ", ".join(f"{table}={len(getattr(self, table))}" for table, _ in _FAMILIES
                           if table != "gravity_fields")
        g = None if self.gravity is None else tuple(float(x) for x in self.gravity)
        return f"Assembly('{self.name}', {counts}, gravity={g})"
