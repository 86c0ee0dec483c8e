"""The head-neck system of a human or dummy alone, its upper torso (T1) fixed to the vehicle
frame B0: the configuration of the volunteer sled analyses (NBDL: head response to the measured
T1 motion) and of component tests. Copies the upper torso, neck and head with their joints,
joint resistance, markers, contact ellipsoids and neck muscles from a body's Assembly."""
from occupant.human.neck_mid import UPPER
from occupant.modeling import Assembly, Joint, Pose

KEEP = ("upper_torso", "neck", UPPER, "head")      # UPPER: with three neck joints (neck_mid.py)


def head_neck_assembly(source, name=None, t1_location=(0.0, 0.0, 0.0)):
    """Assembly of ``source``'s (an Assembly, or a Model with ``source``) upper torso, neck and
    head, the upper torso fixed to B0 at ``t1_location`` (m, its frame origin) in the reference
    posture (upright, axes parallel to B0)."""
    asm_in = getattr(source, "source", None) or source
    out = Assembly(name or f"{asm_in.name}_head_neck")
    for p in KEEP:
        if p in asm_in.parts:
            out.add(asm_in.parts[p])
    out.add(Joint("t1_fixed", "fixed", None, "upper_torso", Pose(tuple(t1_location))))
    markers = [m for m in asm_in.markers.values() if m.part in KEEP]
    out.add(*markers)
    joints = [j for j in asm_in.joints.values() if j.parent in KEEP and j.child in KEEP]
    out.add(*joints)
    names = {j.name for j in joints}
    out.add(*[r for r in asm_in.joint_resistances.values() if r.joint in names])
    marker_names = {m.name for m in markers}
    out.add(*[g for g in asm_in.geometries.values()
              if getattr(g, "marker", None) in marker_names])
    out.add(*[m for m in asm_in.muscles.values()
              if m.marker_a in marker_names and m.marker_b in marker_names])
    return out
