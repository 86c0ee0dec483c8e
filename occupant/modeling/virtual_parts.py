"""Compile-time resolution of virtual parts (seed 000's MbsVirtualPart, the interface parts of a
subsystem): a virtual part bound to a real part is that part (its markers are placed in that
part's frame); an unbound one is the ground B0 (joints to it are joints to B0, the J markers of
primitives and marker forces on it are frames fixed in B0)."""
import copy
import dataclasses

from occupant.model.model import ModelError
from occupant.modeling.assembly import element_refs
from occupant.modeling.elements import Pose, element_kind


def resolve_virtual_parts(asm):
    """A copy of ``asm`` without virtual parts (``asm`` itself when it has none)."""
    if not asm.virtual_parts:
        return asm
    out = copy.copy(asm)
    for table in ("markers", "joints", "primitives", "marker_forces"):
        setattr(out, table, dict(getattr(asm, table)))
    bound = {v.name: v.bound_to for v in asm.virtual_parts.values()}
    ground_markers = {}
    for name, m in asm.markers.items():
        if m.part in bound:
            if bound[m.part] is None:
                ground_markers[name] = out.markers.pop(name)
            else:
                out.markers[name] = dataclasses.replace(m, part=bound[m.part])
    for name, j in asm.joints.items():
        changes = {}
        if j.child in bound:
            if bound[j.child] is None:
                raise ModelError(f"assembly '{asm.name}': joint '{name}' moves the virtual part "
                                 f"'{j.child}', which is bound to nothing (the ground); bind it "
                                 f"to a part or make it the joint's parent")
            changes["child"] = bound[j.child]
        if j.parent in bound:
            changes["parent"] = bound[j.parent]
            if bound[j.parent] is None and j.parent_marker is not None:
                X = ground_markers[j.parent_marker].transform @ j.placement.transform
                changes.update(parent_marker=None, placement=Pose(X[:3, 3], X[:3, :3]))
        if changes:
            out.joints[name] = dataclasses.replace(j, **changes)
    for table in ("primitives", "marker_forces"):
        elements = getattr(out, table)
        for name, e in list(elements.items()):
            if e.marker_j in ground_markers:
                m = ground_markers[e.marker_j]
                elements[name] = dataclasses.replace(e, marker_j=None, position_j=m.position,
                                                     rotation_j=m.rotation)
    used = {}
    for e in out.elements():
        if e.name in asm.virtual_parts:
            continue
        for key, ref in element_refs(e).items():
            if ref in ground_markers:
                used.setdefault(ref, f"{element_kind(e)} '{e.name}'.{key}")
    if used:
        ref, where = next(iter(used.items()))
        raise ModelError(f"assembly '{asm.name}': {where} uses marker '{ref}' of the unbound "
                         f"virtual part '{ground_markers[ref].part}' (the ground); only joints, "
                         f"primitives and marker forces may")
    out.virtual_parts = {}
    return out

