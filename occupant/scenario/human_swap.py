"""A dummy's scenario run with the parametric human (``--set occupant.human.sex=...``): the
geometries its ``[[contact]]`` tables name that only a dummy has, given the human's.

Two tables, ``DUMMY_ONLY`` (a dummy's geometry -> the human's) and ``COVERED`` (a dummy's
geometry the human's leg shells stand for), and one function, ``human_contacts``, that the
scenario loader applies to every human's contact tables, after which the seat's own rule
(occupant.scenario.seat_fit.human_cushion: a cushion pair naming the pelvis flesh names the
human's buttock too) runs on them. Why each name maps as it does:

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
- ``left_knee_pad``, ``right_knee_pad``: left out of a pair that names that leg's shank or
  thigh shell too, and only there. The Hybrid III's knee pad is the flesh over the front of its
  knee, a part of its own; the human's knee has no separate surface: its front is the ends of
  its thigh and shank shells (pedestrian_40's bumper pair lists the shanks beside the pads). A
  pair naming the pad alone (a knee bolster's) would lose the knee: there the pad stays, and the
  loader refuses it in one line naming the pair and the human's geometries (the frontal
  scenarios give their knees ``*_knee_contact`` spheres of their own, which resolve on the
  human as on the dummy).

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
}
#: a dummy's geometry the human has no counterpart of -> the human's geometries that stand for it
#: where the same pair names one of them (it is then left out; module docstring)
COVERED = {
    "left_knee_pad": ("left_shank_shell", "left_thigh_shell"),
    "right_knee_pad": ("right_shank_shell", "right_thigh_shell"),
}


def human_contacts(contacts):
    """(tables, notes): the scenario's ``[[contact]]`` tables for the parametric human in the
    dummy's place, each ``a`` with DUMMY_ONLY's names given the human's and COVERED's left out
    where covered (each name once, in order), then the cushion rule (seat_fit.human_cushion);
    and one note per table changed."""
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
            elif n in COVERED and any(g in names for g in COVERED[n]):
                covering = " and ".join(g for g in COVERED[n] if g in names)
                said.append(f"{n!r} left out (the human's {covering} in the pair)")
                continue
            if n not in mapped:
                mapped.append(n)
        if said:
            notes.append(f"contact[{i}].a: {', '.join(said)}: the dummy's geometries, the "
                         f"parametric human's counterparts (occupant.scenario.human_swap)")
            table = {**table, "a": mapped}
        out.append(table)
    return human_cushion(out), notes
