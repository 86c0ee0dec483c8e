"""The ``[restraints]`` section of a scenario: which restraint kinds exist, which keys they take,
and how each is built into the occupant's assembly before it is compiled (``build_belt``,
``build_airbag``). A declared restraint that is disabled is said in the run's notes.
"""
import functools

import numpy as np

from occupant.scenario.keys import KEYS, names, read

#: how each restraint kind of [restraints] is built into the occupant's assembly:
#: callable(assembly, table, checker, path); its keys are occupant.scenario.keys'
RESTRAINTS = {}


def build_airbag(asm, table, c, path):
    """``[restraints.airbag]`` (and ``[restraints.knee_airbag]``, a second bag): a uniform-pressure
    bag of ``kind`` (driver, passenger or knee: ``occupant.modeling.driver_airbag`` /
    ``passenger_airbag`` / ``knee_airbag``, their cited presets), named ``<kind>_airbag``,
    mounted at ``position`` (m, vehicle frame B0) unfolding along ``direction`` (B0; its frame's
    z is kept as close to B0's z as the direction allows), fired at ``fire_time`` (s), in
    contact with the occupant ellipsoids listed in ``contact``; on the part an occupant's
    ``sternum`` slides on, the share of the patch within the outline of the sternum's ellipsoid
    (the sternum pad) is carried by the sternum (``AirbagContact.front``). ``volume`` (m^3)
    scales the preset's shape, ``inflator_mass`` (kg) its inflator's mass flow, ``vent_area``
    (m^2) replaces its vents, ``fabric_stiffness`` (N/m) gives its fabric a stretch
    (``occupant.modeling.Airbag.fabric_stiffness``). ``contact_law`` ("dimple", the default, or "lens"): the area the
    gas pushes a body with (``occupant.modeling.Airbag.contact_law``;
    ``occupant.restraints.airbag_dimple`` gives both laws' figures)."""
    import numpy as np
    from occupant.modeling import (AirbagContact, Ellipsoid, ModelingError, driver_airbag,
                                   knee_airbag, passenger_airbag)
    from occupant.modeling.airbags import DRIVER_BAG, KNEE_BAG, PASSENGER_BAG
    kind = read(c, table, path, "kind")
    preset, make = {"driver": (DRIVER_BAG, driver_airbag), "knee": (KNEE_BAG, knee_airbag),
                    "passenger": (PASSENGER_BAG, passenger_airbag)}[kind]
    position = read(c, table, path, "position")
    x = read(c, table, path, "direction")
    if not np.linalg.norm(x) > 0:
        c.fail(c.where(path, "direction"), "must not be zero", "a vector in the vehicle frame")
    x /= np.linalg.norm(x)
    up = np.array([0.0, 0.0, 1.0]) if abs(x[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
    y = np.cross(up, x)
    y /= np.linalg.norm(y)
    rotation = np.column_stack([x, y, np.cross(x, y)])
    contacts = c.strings(table, "contact", path, required=True, choices=list(asm.geometries),
                         what="occupant geometry")
    options = dict(position=position, rotation=rotation,
                   firing_time=read(c, table, path, "fire_time"))
    semi_axes = np.array(preset["semi_axes"], float)
    volume = read(c, table, path, "volume")
    if volume is not None:
        options["semi_axes"] = semi_axes * (volume / (4 / 3 * np.pi * semi_axes.prod())) ** (1 / 3)
    mass = read(c, table, path, "inflator_mass")
    if mass is not None:
        flow = np.array(preset["mass_flow"], float)
        delivered = np.trapezoid(flow[:, 1], flow[:, 0])
        options["mass_flow"] = np.column_stack([flow[:, 0], flow[:, 1] * mass / delivered])
    law = read(c, table, path, "contact_law")
    if law is not None:
        options["contact_law"] = law
    vent = read(c, table, path, "vent_area")
    if vent is not None:
        options["vent_area"] = vent
    stiffness = read(c, table, path, "fabric_stiffness")
    if stiffness is not None:
        options["fabric_stiffness"] = stiffness
    name = f"{kind}_airbag"
    # the ribcage's front (the sternum pad's outline) is carried by the sternum on its chest joint
    chest = [j.parent for j in asm.joints.values() if j.child == "sternum"]
    pad = next((n for n, g in asm.geometries.items() if isinstance(g, Ellipsoid)
                and g.marker is not None and asm.markers[g.marker].part == "sternum"), None)
    try:
        asm.add(make(name, None, **options))
        for g in contacts:
            marker = asm.geometries[g].marker   # (None: the vehicle's, which the bag refuses)
            on_chest = marker is not None and asm.markers[marker].part in chest
            asm.add(AirbagContact(f"{name}_{g}", name, g, pad if on_chest else None))
    except ModelingError as err:
        c.fail(path, str(err))


RESTRAINTS["airbag"] = RESTRAINTS["knee_airbag"] = build_airbag

PRETENSIONER_STROKE_TIME = 0.008   # s, pull-in completed 8 ms after firing: Autoliv pretensioners
                                   # are done in 5-10 ms (occupant.modeling.belts.Pretensioner) [U]


# The front of a Hybrid III 50th male's pelvis under the lap belt, in the pelvis frame (origin the
# H-point, between the hip joint centres). Wrapped over the whole pelvis flesh (then its
# half-extents' ellipsoid, its top 0.2 m above the H-point) the lap belt's shortest path ran over
# that ellipsoid's top, on the abdomen, and pressed the pelvis down into the cushion
# (us_ncap_frontal_56: 10 kN downward, the pelvis sank 92 mm and bottomed the cushion): the belt
# wraps this smaller ellipsoid instead, whose crown stands at the height of the dummy's anterior
# superior iliac spines (ASIS), so that the belt lies on the front of the pelvis and never above
# the ASIS. The ASIS: the pelvis's ASIS_MARKER in the dummy file (the 50M's 108.8 mm above its
# H-point, from the open FE Hybrid III 50th, the 5F's from hers: dummies/tools/derive_hybrid3.py
# gives each with its source); the open FE 50M's sled example lays its lap belt across them with
# its middle 8-12 mm below and 55-66 mm in front of them [S: OpenRadioss ModelExchange
# Safety/Hybrid_III_50th_Percentile, example_h350_sled_belt_0000.inc, CC BY-NC 4.0, facts only]:
# that belt's nodes over the pelvis (|y| < 200 mm) lie on or outside this ellipsoid (0.07 mm
# inside at most) and up to 44.8 mm inside the 50M's pelvis_flesh, the 95M pelvis shell's
# half-extents, whose front stands 45-50 mm ahead of the shell's (dummies/tools/
# derive_hybrid3.py PELVIS_FROM_SHELL; scenarios/HISTORY.md lapflesh). Fore-aft place and
# semi-axes [E] (the earlier ellipsoid, centred 30 mm below the H-point, kept its crown near a
# human-regression ASIS 0.07 m above the hips, Bell, Pedersen and Brand, J Biomech 23 (1990) 617
# [C]). Other occupants: a dummy with its own ASIS on the pelvis (the 95M) takes it scaled by
# that ASIS's height over the REFERENCE_DUMMY's, its crown there, so that a refit of its pelvis
# flesh leaves it be; one without (the parametric human) by its pelvis flesh's fore-aft
# semi-axis over "flesh_depth", the 50M's pelvis_flesh's (dummies/hybrid3_50m.toml), its crown
# at the REFERENCE_DUMMY's ASIS scaled likewise (0.795: the human's lap belt was measured with
# it, scenarios/HISTORY.md lapthigh, thighkey; tests/scenario/test_human_trunk_fold.py; over the
# shell fit's 0.1372 m its ellipsoid would grow 20 % and its lap belt cut its thighs 9-11 mm
# deeper, fmvss208_sled_48_belted 90.7 / 87.5 -> 99.7 / 98.2 mm, lapflesh).
LAP_BELT_PELVIS = {"ahead": 0.02, "semi_axes": (0.15, 0.17, 0.08), "flesh_depth": 0.165}
ASIS_MARKER = "left_asis"
REFERENCE_DUMMY = "hybrid3_50m"   # the dummy LAP_BELT_PELVIS is drawn for
REFERENCE = "reference_dummy"     # a belt table's entry the scenario loader gives (no file key):
#                                   the callable giving REFERENCE_DUMMY's file (lap_belt_pelvis)


def reference_dummy_file():
    """The path of the REFERENCE_DUMMY's shipped dummy file."""
    from occupant.io.toml_files import resolve_shipped
    return resolve_shipped(REFERENCE_DUMMY, "dummies", "dummy", kind="dummy")


@functools.lru_cache(maxsize=None)
def reference_asis(file=REFERENCE_DUMMY):
    """The REFERENCE_DUMMY's ASIS_MARKER (m, in its pelvis frame), read from its dummy file (or
    from ``file``, a path: a run folder's copy of it)."""
    from occupant.human.loader import load_description
    _, segments = load_description(str(file))
    return tuple(next(s for s in segments if s.name == "pelvis").markers[ASIS_MARKER].position)


def lap_belt_pelvis(asm, c, path, reference=reference_dummy_file):
    """The name of the ellipsoid the lap belt wraps: ``lap_belt_pelvis`` when the occupant (or
    the scenario's [[occupant.ellipsoid]]) has it, else one added to the part of the occupant's
    ``pelvis_flesh`` from LAP_BELT_PELVIS: with the occupant's own ASIS_MARKER on that part,
    scaled by its height over the REFERENCE_DUMMY's and its crown there, else scaled by that
    flesh's depth over LAP_BELT_PELVIS's and its crown at the REFERENCE_DUMMY's ASIS scaled;
    ``reference()`` gives the REFERENCE_DUMMY's file, called only when it is read (the scenario
    loader notes it among the run's inputs: occupant.scenario.load.Scenario)."""
    from occupant.modeling import Ellipsoid, Marker
    name = "lap_belt_pelvis"
    if name in asm.geometries:
        return name
    flesh = asm.geometries.get("pelvis_flesh")
    if flesh is None:
        c.fail(c.where(path, "pelvis"), "the occupant has no pelvis_flesh ellipsoid to place the "
               "lap belt's pelvis on", "pelvis = the ellipsoid the lap belt wraps")
    part = asm.markers[flesh.marker].part
    asis = asm.markers.get(ASIS_MARKER)
    reference_z, semi_z = reference_asis(str(reference()))[2], LAP_BELT_PELVIS["semi_axes"][2]
    if asis is not None and asis.part == part:   # a dummy: its own ASIS sizes it, its crown there
        scale = asis.position[2] / reference_z
        z = asis.position[2] - scale * semi_z
    else:                                        # the REFERENCE_DUMMY's ASIS scaled holds its crown
        scale = flesh.semi_axes[0] / LAP_BELT_PELVIS["flesh_depth"]
        z = scale * (reference_z - semi_z)
    centre = (scale * LAP_BELT_PELVIS["ahead"], 0.0, z)
    asm.add(Marker(f"{name}_frame", part, tuple(centre)))
    asm.add(Ellipsoid(name, f"{name}_frame", tuple(scale * x for x in LAP_BELT_PELVIS["semi_axes"])))
    return name


def shoulder_wraps(asm, table, c, path, torso, centre, outboard, mu):
    """The shoulder belt's wraps above the chest with ``shoulder_center`` (m, in the frame of the
    torso ellipsoid's part, y towards the belt's outboard side): a wrap on the neck shell's
    outboard side (a barrier: no force while the belt passes outboard of the neck), the shoulder
    wrap on a shoulder ellipsoid there (``shoulder_semi_axes``, its default in keys.KEYS), and
    a clavicle wrap on the rigid torso ellipsoid before the chest wrap; the wraps on the neck,
    shoulder and torso are placed together (``restraints.wrap_chain``)."""
    from occupant.modeling import Ellipsoid, Marker
    from occupant.modeling.belts import Wrap
    if "neck_shell" not in asm.geometries:
        c.fail(c.where(path, "shoulder_center"), "the occupant has no neck_shell ellipsoid to "
               "keep the shoulder belt off the neck", "an occupant with a neck_shell")
    size = tuple(float(x) for x in read(c, table, path, "shoulder_semi_axes"))
    if min(size) <= 0.0:
        c.fail(c.where(path, "shoulder_semi_axes"), f"must be positive, got {list(size)}",
               "three semi-axes in m")
    part = asm.markers[asm.geometries[torso].marker].part
    asm.add(Marker("belt_shoulder_frame", part, (centre[0], outboard * centre[1], centre[2])))
    asm.add(Ellipsoid("belt_shoulder", "belt_shoulder_frame", tuple(size)))
    return [Wrap("neck", "neck_shell", friction=mu, side=(0.0, outboard, 0.0)),
            Wrap("shoulder", "belt_shoulder", friction=mu, side=(0.0, 0.0, 1.0)),
            Wrap("clavicle", torso, friction=mu)]


def barrier_wraps(asm, table, c, path, outboard, mu, wraps, key="barriers"):
    """The belt's barrier wrap beside a fixed point (``Wrap.barrier``: no force while the belt
    passes outside the ellipsoid, kept out of it from ``side``), as a list of none or one:
    ``key`` = ``barriers`` (after the upper anchorage: {occupant ellipsoid: side, a direction in
    its frame}, or ``neck_barrier``, the ``neck_shell``'s outboard side, (0, outboard, 0)),
    ``lap_barriers`` (the same table, before the lap anchorage), ``lap_buckle_barriers`` (the
    same, on the lap belt's first piece, after the buckle) or ``buckle_barriers`` (the same, on
    the shoulder belt's last piece, before the buckle) or ``between_barriers`` (the same, on the
    shoulder belt's piece from its shoulder wrap to its chest wrap, placed with those two:
    ``modeling.belts`` BETWEEN). One at most per key: a barrier is placed from the fixed point
    beside it (``Belt``: with a wrap between, a run of wraps takes one at each end) or, between
    two wraps, with them, and none on an ellipsoid one of ``wraps`` (the belt's other wraps in
    its run) lies on."""
    from occupant.modeling import Ellipsoid, Sphere
    from occupant.modeling.belts import Wrap
    where = c.where(path, key)
    sides = dict(c.table(table, key, path))
    piece = BARRIER_PIECES[key]
    if key == "barriers" and c.boolean(table, "neck_barrier", path, default=False):
        if "neck_shell" in sides:
            c.fail(c.where(where, "neck_shell"), "the neck barrier is set twice (neck_barrier)",
                   "neck_barrier or barriers.neck_shell")
        sides["neck_shell"] = [0.0, outboard, 0.0]
    if len(sides) > 1:
        c.fail(where, f"one barrier at most (it lies on the straight piece {piece}), got "
                      f"{sorted(sides)}", "one occupant ellipsoid")
    out = []
    for name in sides:
        ellipsoids = [n for n, g in asm.geometries.items()
                      if isinstance(g, (Ellipsoid, Sphere)) and g.marker is not None]
        if name not in ellipsoids:   # (the vehicle's have no marker)
            c.fail(c.where(where, name), "unknown ellipsoid", ", ".join(ellipsoids))
        if any(w.geometry == name for w in wraps):
            c.fail(c.where(where, name), "the belt wraps this ellipsoid already",
                   "an ellipsoid the belt does not wrap")
        side = c.vector(sides, name, where)
        if not np.any(side):
            c.fail(c.where(where, name), "the side must be a non-zero direction",
                   "three numbers, not all 0")
        out.append(Wrap(name.removesuffix("_shell"), name, friction=mu, side=tuple(side),
                        barrier=True))
    return out


#: where each key's barrier lies (``barrier_wraps``' messages)
BARRIER_PIECES = {"barriers": "from the upper anchorage", "lap_barriers": "from the lap anchorage",
                  "lap_buckle_barriers": "from the buckle to the lap belt's pelvis",
                  "buckle_barriers": "from the chest to the buckle",
                  "between_barriers": "from the shoulder wrap to the chest wrap"}


GS1_LAP_PRELOAD = 100.0   # N: the GS1 deck's lap belt pre-load (crash-domain-facts 6.4) [S]; the
# deck pulls it by its lap retractor until the trigger (GS1_belt_V11.key: force-time pretensioner
# 90000013 on retractor 90000001, 0.1 kN to 300 ms) [S], so it is the lap retractor's rewind
# force as well: fitted at 100 N against the default 10 N, the webbing-sensitive sensor read the
# 90 N excess as a payout of 0.9 m/s and locked the lap belt 10 ms into any run or settling


def held_on(asm, table, c, path, torso, name, mu, across):
    """(geometry, ``Wrap`` keywords) of the wrap ``name`` ("shoulder" or "chest") on the
    ellipsoid ``torso``: with ``<name>_at`` (a point in the ellipsoid's frame, m) the wrap is
    fitted there on the body's outer surface (``modeling.outer_surface.outer_place``: on the
    ellipsoid of ``torso``'s part that stands over the point, if one does, e.g. the human's
    shoulder shell over its thorax at mid-clavicle; the wrap's geometry is then that one), at its
    direction in the scaled frame, and with it or ``<name>_flank`` ((n_x, n_y, n_z, d) in
    ``torso``'s frame, carried into the outer ellipsoid's when the wrap lies on one: its point
    kept to n . x >= d, ``Wrap.flank``) it is held across the belt
    by friction (``across``, default ``friction``); else ``across`` as given on ``torso``."""
    from occupant.modeling.outer_surface import outer_place, plane_in
    at = c.vector(table, f"{name}_at", path)
    flank = c.vector(table, f"{name}_flank", path, n=4)
    if at is None and flank is None:
        return torso, {"across": across}
    geometry = torso
    if at is not None:
        geometry, at = outer_place(asm, torso, at)
        if flank is not None and geometry != torso:
            flank = plane_in(asm, torso, geometry, flank)
    g = asm.geometries[geometry]
    size = np.asarray(g.semi_axes if hasattr(g, "semi_axes") else (g.radius,) * 3, float)
    return geometry, {"across": mu if across is None else across, "flank": flank,
                      "at": None if at is None else tuple(np.asarray(at) / size)}


#: the anchorages (points m in B0) each belt kind needs, from [restraints.belt] or else the
#: interior's [belt] (``belt_table``); a lap or two-point belt's ``retractor`` is optional and
#: only its own (without one its webbing is fixed at both ends)
BELT_ANCHORAGES = {"three_point": ("retractor", "d_ring", "buckle", "lap_anchor"),
                   "separate": ("d_ring", "buckle", "lap_anchor"),
                   "lap": ("buckle", "lap_anchor"),
                   "two_point": ("d_ring", "buckle")}
_SHOULDER_KEYS = ("d_ring", "d_ring_friction", "torso", "abdomen", "groin", "ribcage", "clavicle",
                  "neck_barrier",
                  "barriers", "shoulder", "shoulder_center", "shoulder_semi_axes", "shoulder_at",
                  "shoulder_flank", "chest_at", "chest_flank", "buckle_barriers",
                  "between_barriers")
_LAP_KEYS = ("lap_anchor", "pelvis", "lap_across", "lap_barriers", "lap_buckle_barriers")
_GS1_KEYS = ("end_springs", "lap_end_springs")
_RETRACTOR_KEYS = ("load_limit", "pretensioner", "pretensioner_time", "pretensioner_pull",
                   "pretensioner_force")
#: the [restraints.belt] keys a lap or two-point belt has no use for (refused, ``check_belt_keys``)
_BUCKLE_RING_KEYS = ("buckle_friction",)   # a lap or two-point belt ends at its buckle
BELT_UNUSED = {"lap": _SHOULDER_KEYS + _GS1_KEYS + _BUCKLE_RING_KEYS,
               "two_point": _LAP_KEYS + _GS1_KEYS + _BUCKLE_RING_KEYS}


def check_belt_keys(c, table, path):
    """Refuse the keys of the scenario's own ``[restraints.belt]`` its ``kind`` does not use:
    a lap belt's shoulder keys, a two-point belt's lap keys, and without a ``retractor`` point
    the load limiter's and pretensioner's (and the D-ring's friction: without a retractor the
    two-point belt is fixed at its D-ring)."""
    kind = read(c, table, path, "kind")
    unused = BELT_UNUSED.get(kind, ())
    bare = kind in BELT_UNUSED and "retractor" not in table
    if bare:
        unused += _RETRACTOR_KEYS + ("d_ring_friction",)
    for key in table:
        if key in unused:
            why = ("the load limiter, pretensioner and D-ring friction sit in a retractor; give "
                   "retractor (m in B0) or drop it") if bare and key not in BELT_UNUSED[kind] else \
                "drop it or choose another kind"
            c.fail(c.where(path, key), f"a {kind} belt does not use it ({why})",
                   ", ".join(k for k in names(path) if k not in unused))


#: the keys that place the shoulder wrap themselves: with any of them ``clavicle`` is refused
CLAVICLE_PLACED = ("shoulder", "shoulder_center", "shoulder_at", "shoulder_flank")


def belt_table(table, interior_belt, human, reference):
    """The table ``build_belt`` reads: the scenario's ``[restraints.belt]`` over the interior's
    anchorages its kind takes (BELT_ANCHORAGES), ``ribcage`` on for a parametric ``human``
    whose belt crosses the torso, and the REFERENCE entry (the callable giving the reference
    dummy's file, read only for a lap belt's pelvis). ``clavicle`` on for a parametric human
    whose belt crosses the torso unless the scenario sets it or places the shoulder wrap itself
    (CLAVICLE_PLACED): on its shortest path over the thorax alone the human's shoulder belt was
    fitted round the back of its neck (scenarios/HISTORY.md, neckside, humanroute; made the
    default in clavdefault); GS1's validation sled sets ``clavicle = false`` (its own fit)."""
    kind = table.get("kind", KEYS["restraints.belt.kind"].default)
    shoulder = kind != "lap"
    own = human and shoulder and "clavicle" not in table and not any(k in table for k in CLAVICLE_PLACED)
    return {**{k: v for k, v in interior_belt.items() if k in BELT_ANCHORAGES.get(kind, ())},
            **({"ribcage": True} if human and shoulder else {}),
            **({"clavicle": True} if own else {}), **table, REFERENCE: reference}


def clavicle_fit(asm, c, path, torso, outboard):
    """(``shoulder_at``, ``shoulder_flank``, ``chest_at``) in the frame of the ``torso``
    ellipsoid (``clavicle``): the chest wrap at mid-sternum (the torso's front at its centre's
    height, as GS1's MID_CLAVICLE_FIT, tests/human/test_validation_sled.py [E]) and the
    shoulder wrap fitted at the mid-clavicle of the occupant's outboard shoulder and held on its
    clavicle, from the occupant's own ``<side>_shoulder_shell`` on the torso's
    part (the parametric human's: ``human.builder.shoulder_shells``, centred at mid-clavicle at
    the acromion's height). The point: on the torso's front at the shell centre's breadth and
    height (``held_on`` carries it out onto the shell standing over it,
    ``modeling.outer_surface``); the flank: the plane through the shell's centre normal to its
    vertical axis, the clavicle's level (ANSUR II men: the acromion 0.0436 H and the
    suprasternale 0.0448 H below the cervicale [S], data/body_proportions.toml: the clavicle
    runs level from the notch to the acromion within 2 mm), kept at or above it
    (``Wrap.flank``, a ridge of no force of its own [E]; GS1's figures with it:
    scenarios/validation/HISTORY.md, gs1clavicle). Where a human-body-model user routes the belt
    (over the mid-clavicle, in front of the neck); its shortest path over the thorax alone runs
    over the thorax's crown behind the neck (scenarios/HISTORY.md, neckside and humanroute)."""
    from occupant.modeling.outer_surface import placed_ellipsoid
    side = "left" if outboard > 0.0 else "right"
    shell = f"{side}_shoulder_shell"
    here = placed_ellipsoid(asm, torso)
    there = placed_ellipsoid(asm, shell) if shell in asm.geometries else None
    if here is None or there is None or there[0] != here[0]:
        c.fail(c.where(path, "clavicle"), f"the torso's part has no {shell} ellipsoid to fit the "
               "shoulder belt on its clavicle", "a parametric human's torso, or clavicle = false")
    _, ct, Rt, Dt = here
    _, cs, Rs, _ = there
    y, z = (Rt.T @ (cs - ct))[1:]
    x = Dt[0] * np.sqrt(max(0.0, 1.0 - (y / Dt[1]) ** 2 - (z / Dt[2]) ** 2))
    n = Rt.T @ Rs[:, 2]
    return (x, y, z), (*n, float(n @ (Rt.T @ (cs - ct)))), (Dt[0], 0.0, 0.0)


def build_belt(asm, table, c, path):
    """``[restraints.belt]``: ``kind = "three_point"`` (default): a three-point belt of the GS1
    webbing (``gs1_webbing``) from the ``retractor`` (with its load limiter at ``load_limit`` N)
    through the ``d_ring``, over the ``torso`` ellipsoid (shoulder and chest), through the
    ``buckle`` tongue and over the ``pelvis`` ellipsoid (inboard hip, front, outboard hip;
    default ``lap_belt_pelvis``, the front of the pelvis) to the ``lap_anchor`` (all points m in
    the vehicle frame B0; the outboard side is the D-ring's side of the occupant's midplane
    y = 0). ``neck_barrier`` (default off; not with ``shoulder`` or ``shoulder_center``, which
    wrap the neck their own way): a barrier wrap on the occupant's ``neck_shell`` after the
    D-ring (``Wrap.barrier``: no force while the belt passes outboard of the neck; on in
    side_barrier, whose shoulder belt passes through the neck without it: scenarios/HISTORY.md,
    forceline). ``barriers`` ({occupant ellipsoid: side}, e.g. ``{right_upper_arm_shell = [0,
    1, 0]}``): such a barrier on any ellipsoid, from ``side`` (a direction in its frame); one
    per key, neck_barrier's included (``barrier_wraps``; none shipped but the neck's: GS1's upper
    arm measured, scenarios/validation/HISTORY.md, armbarrier). ``lap_barriers`` (the same
    table, e.g. ``{right_thigh_shell = [1, 0, 0]}``): one such barrier on the lap belt's piece
    to its ``lap_anchor``, placed from it, and ``lap_buckle_barriers`` one on its piece from the
    buckle (the inboard thigh) (not shipped: the human's thighs measured, scenarios/HISTORY.md,
    lapbarrier, barrierstep, thighkey, twobar: its lap belt steps 9-24 kN). ``buckle_barriers``
    (the same table, e.g. a driver's ``{abdomen = [0, -1, 1]}``, its inboard top): one such
    barrier on the shoulder belt's last piece, placed from the ``buckle``, so the straight piece
    from the chest (or abdomen, groin) wrap to a buckle beside the hip is kept out of the belly
    or pelvis instead of cutting through it (scenarios/HISTORY.md, beltdefect, beltabdomen); its
    side is the one the piece comes to the ellipsoid from (from the front, (1, 0, 0), the
    Hybrid III's piece, entering at the inboard top, passed through it); with ``barriers`` or
    ``neck_barrier`` the run from the D-ring to the buckle has one at each end (``Belt``) (not
    shipped: with it the Hybrid III's shoulder and chest wraps jump between paths or its lap belt
    slides in, scenarios/HISTORY.md, buckbar, twobar). ``between_barriers`` (the same table,
    e.g. the human's ``{right_upper_arm_shell = [1, 1, 0]}``): one barrier on the shoulder
    belt's piece from its shoulder wrap to its chest wrap, placed with those two (not shipped:
    scenarios/HISTORY.md, beltheld, barrierkey). An occupant with
    a ``sternum`` part (on its chest joint to the torso's part) carries the chest wrap on it, so
    the belt loads the chest through the chest joint
    (``modeling.belts.Wrap``). ``ribcage`` (on by default for a parametric human occupant,
    ``scenario.load``; off for a dummy): both wraps on the torso, the shoulder's
    too, carried by the sternum, each bearing the human's belt share of their force
    (``Wrap.share``; occupant/human/data/thorax.toml ``[belt]``, sources there): a belt lying
    on the front of the thorax loads the ribcage, whose sternum spring is calibrated under a
    hub. ``friction``: belt on body, ``d_ring_friction`` and ``buckle_friction``: at the
    D-ring and through the buckle's tongue. ``across`` (optional): the belt keeps its place on
    the body while its pull across itself is within ``across`` times its push into it
    (``modeling.belts.Wrap``; the same Coulomb
    coefficient as ``friction`` for a belt whose friction is isotropic); without it the belt
    lies on its shortest path over each ellipsoid. ``lap_across``: the same for the lap belt's
    three wraps on the pelvis only (default ``across``). With ``pretensioner`` the retractor winds in
    up to ``pretensioner_pull`` m over 8 ms from ``pretensioner_time`` s, stalling where the belt
    at the retractor reaches ``pretensioner_force`` N (default ``modeling.belts.Pretensioner.capacity``).
    ``kind = "lap"``: a lap belt only (a rear centre seat, an older car): from the outboard
    ``lap_anchor`` over the ``pelvis`` ellipsoid (outboard hip, front, inboard hip) to the
    ``buckle``, fixed at both (no retractor) unless a ``retractor`` point is given: then the
    webbing runs from it through a guide at ``lap_anchor`` (friction ``friction``) and the load
    limiter and pretensioner keys apply. ``kind = "two_point"``: a shoulder belt only (a
    two-point, e.g. automatic, belt): from the ``d_ring`` over the ``torso`` (the three-point
    belt's shoulder wraps and their keys) to the ``buckle``, fixed at both unless a ``retractor``
    point is given (then through the D-ring, ``d_ring_friction``). The interior's ``retractor``
    is not taken by either; keys a kind has no use for are refused (``check_belt_keys``).
    ``kind = "separate"``: the Gold Standard sled's belt (SAFER HBM validation deck
    GS1_belt_V11.key [S]: two retractors, no slip ring): a shoulder belt ``belt`` from a
    retractor at the upper anchorage ``d_ring`` over the torso to the ``buckle``, and a lap belt
    ``lap_belt`` from a retractor at ``lap_anchor`` over the pelvis to the ``buckle``, both
    fixed there (no ``retractor`` point; the lap belt pre-loaded to GS1_LAP_PRELOAD).
    ``end_springs``, ``lap_end_springs`` (``kind = "separate"``): how many of the GS1 rig's
    belt-end springs (``modeling.belts.gs1_end_spring``) lie in series with the shoulder and the
    lap belt, their compliance added to the locked spool's (``Retractor.compliance``; 0: none).
    ``shoulder`` (an occupant ellipsoid, e.g. the human's ``right_shoulder_shell``): the
    shoulder wrap lies on it, over its top, before the chest wrap on the torso, after a wrap on
    the outboard side of the occupant's ``neck_shell`` (if it has one: the belt cannot slide
    through the neck), all placed together on their shortest path (``restraints.wrap_chain``;
    no ``across``; in GS1's crash this path jumps between two locally shortest ones, so no
    shipped case uses it: scenarios/validation/HISTORY.md). ``abdomen`` (an occupant ellipsoid,
    e.g. ``abdomen``): a further wrap on it after the chest wrap, so the shoulder belt's lower part lies over the belly on its way to the
    buckle instead of cutting through it (``restraints.belt_clearance``), held across the belt
    by friction (``across``, default ``friction``): on their shortest path the wraps over the
    thorax and the abdomen have two of almost equal length, around the thorax's inboard and
    outboard flanks, and the chest wrap flipped between them from one step to the next.
    ``groin`` (an occupant ellipsoid, e.g. ``pelvis_flesh``): a last wrap on it before the
    buckle, on its shortest path round its front-inboard side (no ``across``), so the piece
    from the abdomen to a buckle beside the hip lies over the pelvis, not through it (GS1's cut
    34 mm into the pelvis flesh; with this wrap 0 mm, but its lower shoulder belt left its PMHS
    corridor, so none shipped: scenarios/HISTORY.md, gs1belly).
    ``shoulder_at``, ``chest_at`` (points in the wrapped ellipsoid's frame, m) and
    ``shoulder_flank``, ``chest_flank`` ((n_x, n_y, n_z, d) there): the shoulder or chest wrap
    fitted at that point (on the body's outer surface there: the ellipsoid of the same part
    standing over it, ``modeling.outer_surface``) and held across the belt by friction, its
    point kept to n . x >= d (``held_on``, ``Wrap.flank``; carried into that ellipsoid's frame);
    none shipped (GS1 measured with them: scenarios/validation/HISTORY.md, "The shoulder belt held
    where it is fitted"; GS1 held on the clavicle: scenarios/validation/HISTORY.md Stop 40,
    gs1clavicle). ``clavicle`` (on for a parametric human, off for a dummy: ``belt_table``;
    not with one of CLAVICLE_PLACED): the shoulder belt routed as a human body model's
    user routes it, ``shoulder_at`` and ``shoulder_flank`` at and on the outboard
    shoulder's mid-clavicle, ``chest_at`` at mid-sternum and an ``abdomen`` wrap on the
    occupant's ``abdomen`` (those two unless given; ``clavicle_fit``): on its shortest path
    over the thorax alone the human's belt ran over the thorax's crown behind its neck
    (scenarios/HISTORY.md, neckside, humanroute)."""
    import numpy as np
    from occupant.modeling import ModelingError
    from occupant.modeling.belts import Pretensioner, Retractor, Wrap
    kind = read(c, table, path, "kind")
    point = {}
    for k in BELT_ANCHORAGES[kind]:   # (the interior's: belt_table)
        if k not in table:
            c.fail(c.where(path, k), "missing", KEYS[f"restraints.belt.{k}"].accepted())
        point[k] = read(c, table, path, k)
    spool = read(c, table, path, "retractor") if kind in BELT_UNUSED else None   # optional there
    mu = read(c, table, path, "friction")
    mu_ring = read(c, table, path, "d_ring_friction")
    mu_buckle = read(c, table, path, "buckle_friction")
    across = read(c, table, path, "across")
    # the outboard side: the D-ring's side of the occupant's midplane y = 0 (a lap belt's: its
    # outboard anchorage's)
    outboard = 1.0 if point["d_ring" if "d_ring" in point else "lap_anchor"][1] >= 0.0 else -1.0
    retractor = Retractor(load_limit=read(c, table, path, "load_limit", default=np.inf))
    pretensioner = None
    if read(c, table, path, "pretensioner"):
        for k in ("pretensioner_pull", "pretensioner_time"):   # required with a pretensioner
            if k not in table:
                c.fail(c.where(path, k), "missing", KEYS[f"restraints.belt.{k}"].accepted())
        pull = read(c, table, path, "pretensioner_pull")
        pretensioner = Pretensioner(
            read(c, table, path, "pretensioner_time"),
            pull_in=[[0.0, 0.0], [PRETENSIONER_STROKE_TIME, pull]],
            capacity=read(c, table, path, "pretensioner_force", default=Pretensioner.capacity))
    upper, lower, lap = [], [], []
    if kind != "two_point":   # (the pelvis's ellipsoid added before the shoulder's: their order
        # in the model kept)
        pelvis = (c.string(table, "pelvis", path, choices=list(asm.geometries), what="geometry")
                  or lap_belt_pelvis(asm, c, path, table.get(REFERENCE, reference_dummy_file)))
        lap_across = read(c, table, path, "lap_across", default=across)
        lap = [Wrap("hip_inboard", pelvis, mu, side=(1.0, -outboard, -0.4), across=lap_across),
               Wrap("lap", pelvis, mu, side=(1.0, 0.0, -0.4), across=lap_across),
               Wrap("hip_outboard", pelvis, mu, side=(1.0, outboard, -0.4), across=lap_across)]
        lap = (barrier_wraps(asm, table, c, path, outboard, mu, lap, key="lap_buckle_barriers") + lap
               + barrier_wraps(asm, table, c, path, outboard, mu, lap, key="lap_barriers"))
    if kind != "lap":
        upper, lower = _shoulder_belt_wraps(asm, table, c, path, kind, outboard, mu, across)
        lower += barrier_wraps(asm, table, c, path, outboard, mu, upper + lower, key="buckle_barriers")
    try:
        asm.add(*_belts(kind, point, spool, upper, lower, lap, retractor, pretensioner,
                        (mu, mu_ring, mu_buckle), lambda key: read(c, table, path, key)))
    except ModelingError as err:
        c.fail(path, str(err))


def _belts(kind, point, spool, upper, lower, lap, retractor, pretensioner, frictions, value):
    """The belts of ``build_belt`` (``value(key)``: a key's value) through the anchorages
    ``point`` and ``spool`` (a lap or two-point belt's retractor, or None), over the shoulder
    belt's ``upper`` and ``lower`` wraps and the lap belt's ``lap`` (from the buckle out);
    ``frictions``: (belt on body, at the D-ring, at the buckle's tongue)."""
    mu, mu_ring, mu_buckle = frictions
    from occupant.modeling.belts import (Anchor, Belt, Retractor, SlipRing, gs1_end_spring,
                                         gs1_webbing)
    if kind == "separate":
        def springs(key):   # n of the GS1 rig's belt-end springs in series [D]
            n = value(key)
            return None if n == 0.0 else gs1_end_spring() * [1.0, n]
        return [Belt("belt", [
                     Anchor("d_ring", point["d_ring"])] + upper + lower + [
                     Anchor("buckle", point["buckle"])],
                     gs1_webbing(), retractor=Retractor(load_limit=retractor.load_limit,
                                                        compliance=springs("end_springs")),
                     pretensioner=pretensioner),
                 Belt("lap_belt", [Anchor("lap_anchor", point["lap_anchor"])] + lap[::-1]
                      + [Anchor("buckle", point["buckle"])], gs1_webbing(),
                      retractor=Retractor(rewind_force=GS1_LAP_PRELOAD,
                                          compliance=springs("lap_end_springs")),
                      pretension=GS1_LAP_PRELOAD)]
    elif kind in BELT_UNUSED:   # one webbing from its upper or outboard end to the buckle
        end = "d_ring" if kind == "two_point" else "lap_anchor"
        start = [Anchor(end, point[end])] if spool is None else [
            Anchor("retractor", spool),
            SlipRing(end, point[end], friction=mu_ring if kind == "two_point" else mu)]
        return [Belt("belt", start + upper + lower + lap[::-1] + [Anchor("buckle", point["buckle"])],
                     gs1_webbing(), retractor=None if spool is None else retractor,
                     pretensioner=pretensioner)]
    return [Belt("belt", [
        Anchor("retractor", point["retractor"]),
        SlipRing("d_ring", point["d_ring"], friction=mu_ring)] + upper + lower + [
        SlipRing("buckle", point["buckle"], friction=mu_buckle)] + lap + [
        Anchor("lap_anchor", point["lap_anchor"])],
        gs1_webbing(), retractor=retractor, pretensioner=pretensioner)]


def _shoulder_belt_wraps(asm, table, c, path, kind, outboard, mu, across):
    """(upper, lower): the shoulder belt's wraps from its upper anchorage to the chest (barrier,
    neck, shoulder) and from the chest to the buckle (chest, abdomen, groin), as ``build_belt``
    describes them."""
    from occupant.modeling.belts import Wrap
    torso = (c.string(table, "torso", path, choices=list(asm.geometries), what="geometry")
             or KEYS["restraints.belt.torso"].default)
    sternum = "sternum" if "sternum" in asm.parts else None
    carried = {"carrier": sternum}
    if read(c, table, path, "ribcage"):
        if sternum is None:
            c.fail(path, "ribcage: the occupant has no sternum to carry the torso's wraps")
        from occupant.human.builder import thorax_table
        carried["share"] = thorax_table()["belt"]["sternum_share"]
    if read(c, table, path, "clavicle"):   # fitted at mid-clavicle, held on the clavicle
        placed = [k for k in CLAVICLE_PLACED if k in table]
        if placed:
            c.fail(c.where(path, "clavicle"), f"the shoulder wrap is placed by {placed} already",
                   "clavicle or those keys")
        # the chest wrap at mid-sternum and over the abdomen: fitted at mid-clavicle with the chest
        # wrap on its shortest path the 50th male's piece to the buckle ran 86.5 mm through its
        # abdomen at the fit (us_ncap_frontal_56), at mid-sternum alone 60.8 mm, with both none
        # over 20 mm (scenarios/HISTORY.md, humanroute)
        at, flank, sternum = clavicle_fit(asm, c, path, torso, outboard)
        table = {"chest_at": list(sternum),
                 **({"abdomen": "abdomen"} if "abdomen" in asm.geometries else {}),
                 **table, "shoulder_at": list(at), "shoulder_flank": list(flank)}
    on, held = held_on(asm, table, c, path, torso, "shoulder", mu, across)
    upper = [Wrap("shoulder", on, friction=mu, **held, **(carried if "share" in carried else {}))]
    shoulder = c.string(table, "shoulder", path, choices=list(asm.geometries), what="geometry")
    if shoulder is not None:   # the occupant's own shoulder, the wraps placed together
        on, held = held_on(asm, table, c, path, shoulder, "shoulder", mu, None)
        upper = [Wrap("shoulder", on, friction=mu, side=(0.0, 0.0, 1.0), **held)]
        if "neck_shell" in asm.geometries:   # a barrier: no force while the belt is off the neck
            upper.insert(0, Wrap("neck", "neck_shell", friction=mu, side=(0.0, outboard, 0.0)))
    centre = c.vector(table, "shoulder_center", path)
    if centre is not None:   # placed together on their shortest path (no ``across``)
        upper = shoulder_wraps(asm, table, c, path, torso, centre, outboard, mu)
    if read(c, table, path, "neck_barrier"):  # kept out of the neck
        if kind not in ("three_point", "two_point") or shoulder is not None or centre is not None \
                or "neck_shell" not in asm.geometries:
            c.fail(path, "neck_barrier: a three-point or two-point belt with no shoulder or "
                         "shoulder_center over an occupant with a neck_shell")
    belly = c.string(table, "abdomen", path, choices=list(asm.geometries), what="geometry")
    on, held = held_on(asm, table, c, path, torso, "chest", mu, across)
    lower = [Wrap("chest", on, friction=mu, **carried, **held)] + (
        [] if belly is None else [Wrap("abdomen", belly, friction=mu,
                                       across=mu if across is None else across)])
    groin = c.string(table, "groin", path, choices=list(asm.geometries), what="geometry")
    if groin is not None:   # the last wrap before the buckle, on its shortest path round
        # its front-inboard side (the buckle's) [E]; without a side it went round the back
        lower.append(Wrap("groin", groin, friction=mu, side=(1.0, -outboard, 0.0)))
    upper = barrier_wraps(asm, table, c, path, outboard, mu, upper + lower) + upper
    # between the shoulder's wraps and the chest's (the human's upper arm on that piece: placed
    # with them, scenarios/HISTORY.md, beltheld and barrierkey)
    upper += barrier_wraps(asm, table, c, path, outboard, mu, upper + lower, key="between_barriers")
    return upper, lower


RESTRAINTS["belt"] = build_belt


def read_restraints(c, data, test_title):
    """(enabled {kind: table}, notes [str], judged bool) from the scenario's ``[restraints]``."""
    section = c.table(data, "restraints", "")
    c.keys(section, names("restraints"), "restraints")
    enabled, notes, judged = {}, [], True
    for kind, table in section.items():
        path = f"restraints.{kind}"
        table = c.table(section, kind, "restraints")
        c.keys(table, names(path), path)
        if kind == "belt":   # the keys its kind has no use for (the scenario's own, not the interior's)
            check_belt_keys(c, table, path)
        for key in names(path):   # every value's type and range first (the builders read them)
            if key in table:
                read(c, table, path, key)
        if not read(c, table, path, "enabled"):
            notes.append(f"{path} is disabled: this run has no {KEYS[path].meaning.split(' ', 1)[1]}")
            continue
        enabled[kind] = table
        notes += limiter_notes(table, path)
    return enabled, notes, judged


def limiter_notes(table, path):
    """A note when a belt's load limiter is below its pretensioner's stall force: the retractor
    then holds the pretensioner's force while it fires (restraints.belt.pretensioner_at: the
    spool force is the larger of the two), above the level the user set, and the limiter's only
    after; a note, not a refusal (no source says such a retractor is not built)."""
    from occupant.modeling.belts import Pretensioner
    limit = table.get("load_limit")
    if limit is None or table.get("pretensioner") is not True:
        return []
    force = table.get("pretensioner_force", Pretensioner.capacity)
    if limit >= force:
        return []
    return [f"{path}.load_limit = {limit:g} N is below pretensioner_force = {force:g} N: the belt at "
            f"the retractor carries up to {force:g} N while the pretensioner fires ({PRETENSIONER_STROKE_TIME * 1e3:g} "
            f"ms from pretensioner_time), {limit:g} N only after"]
