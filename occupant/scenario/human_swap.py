"""A dummy's scenario run with the parametric human (``--set occupant.human.sex=...``): the
geometries its ``[[contact]]`` tables name that only a dummy has, given the human's.

One table, ``DUMMY_ONLY`` (a dummy's geometry -> the human's), and one function,
``human_contacts``, that the scenario loader applies to every human's contact tables, after
which the seat's own rule (occupant.scenario.seat_fit.human_cushion: a cushion pair naming the
pelvis flesh names the human's buttock too) runs on them. Why each name maps as it does:

- ``occiput`` -> ``head_shell``. The dummies' occiput is the real back of their head, 25-45 mm
  behind their head shell (dummies/hybrid3_50m.toml; scenarios/HISTORY.md, branch occiput), so
  rear_whiplash and euro_ncap_full_width_50 pair it with the head restraint. The human's
  ``head_shell`` is itself the braincase from ANSUR II (head length deep, head breadth wide,
  vertex to the eye's level: occupant.human.builder.head_shell); the human's own ``occiput`` was
  that same ellipsoid and was dropped as a duplicate (scenarios/validation/HISTORY.md, branch
  humanhead). So the human's back of the head is its head shell, and the backset
  (occupant.scenario.placement) is measured from it.
- ``left_buttock``, ``right_buttock`` -> ``buttock``. The Hybrid III 5F's pelvis bears on the
  cushion through two buttocks (euro_ncap_full_width_50's cushion pair, branch dummyfit); the
  human's pelvis through one, ``buttock``, the tissue under the ischial tuberosities
  (occupant.human.builder; seat_fit's module docstring). Both names become the one.
- ``left_knee_pad``, ``right_knee_pad`` -> ``left_knee_shell``, ``right_knee_shell``. The
  Hybrid III's knee pad is the flesh over the front of its knee, on its femur; the human's knee
  is a sphere on the knee joint centre, on its upper leg too (occupant.human.builder.knee_shell,
  sized by ANSUR II's girth above the patella). Before it, the human's knee was the thin ends of
  its thigh and shank shells, and a 5th female's knee below pedestrian_40's bumper top met
  nothing (scenarios/HISTORY.md, branches pedlower and humanknee). The frontal scenarios give
  their knees ``*_knee_contact`` spheres of their own, which resolve on the human as on the
  dummy.

A name mapped onto one the table already names (both buttocks; an occiput beside the head
shell) is named once (a surface is crushed by each body region once: tests/scenario/
test_scenario_files.py, test_reference_one_body_region_crushes_a_surface_once). Each change is
said in the run's notes. Any other name the human lacks stays the loader's one error line (the
human's names listed).
"""
from occupant.scenario.seat_fit import human_cushion

#: a dummy's geometry a scenario's contact pair may name -> the parametric human's (module
#: docstring)
DUMMY_ONLY = {
    "occiput": "head_shell",
    "left_buttock": "buttock",
    "right_buttock": "buttock",
    "left_knee_pad": "left_knee_shell",
    "right_knee_pad": "right_knee_shell",
}


def human_contacts(contacts):
    """(tables, notes): the scenario's ``[[contact]]`` tables for the parametric human in the
    dummy's place, each ``a`` with DUMMY_ONLY's names given the human's (each name once, in
    order), then the cushion rule (seat_fit.human_cushion); and one note per table changed."""
    out, notes = [], []
    for i, table in enumerate(contacts):
        a = table.get("a")
        names = [a] if isinstance(a, str) else a
        if not isinstance(names, list):     # the loader says what a is
            out.append(table)
            continue
        mapped, said = [], []
        for n in names:
            if n in DUMMY_ONLY:
                said.append(f"{n!r} -> {DUMMY_ONLY[n]!r}")
                n = DUMMY_ONLY[n]
            if n not in mapped:
                mapped.append(n)
        if said:
            notes.append(f"contact[{i}].a: {', '.join(said)}: the dummy's geometries, the "
                         f"parametric human's counterparts (occupant.scenario.human_swap)")
            table = {**table, "a": mapped}
        out.append(table)
    return human_cushion(out), notes
