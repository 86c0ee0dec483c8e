"""Physical defects of a run's motion (issue 11, "plausible, not only converged"): what a crash
engineer looking at the kinematics would reject however well the integrator converged.

``motion_defects(model, results)`` reads the producers' recorded outputs (no step is evaluated
again) and lists, as ``Defect`` records with figures:

- a joint coordinate past its range end by more than its stop was sized to hold
  (``STOP_ALLOWANCE``): the largest excess past the end, and when;
- a compliant contact pair driven past the last row of its loading table (bottomed through its
  characteristic: the force beyond is an extrapolation nobody measured), or, for a linear or power
  law, deeper than the smallest half-size of its geometries (a body through a surface);
- an airbag contact deeper than the deployed bag's depth (a body through the bag), or a bottoming
  contact past the last row of its bag's bottoming table;
- an ellipsoid in no pair with a car surface that passes it deeper than its own segment's paired
  ellipsoids by more than ``UNPAIRED_ALLOWANCE`` (``unpaired_defects``: nothing records how deep
  an unpaired body goes; the human's shoulder went 48 mm into pedestrian_40's bonnet unseen).

A parametric human's joint past its range end carrying more than its published failure moment
(occupant.human.joint_failure, data/joint_failure.toml), with more energy than its stop or the
joint itself could hold, is a predicted injury, not a defect:
``joint_failures`` lists those (``JointFailure``: the run's notes say each, occupant.scenario.run),
and ``motion_defects`` leaves out a joint stop's excess at a range end that failed. The model's
joint does not fail: the motion after it is that of an intact joint. A dummy's joints have no
failure moments (a dummy's joint past its stop stays a defect).

A belt's wrap points lie on their ellipsoids by construction (``BELT_WRAP_STATES``: a direction on
its scaled unit sphere), and its path over them (their arcs) too, but nothing keeps its pieces out
of the bodies it does not wrap (a lap belt's legs through the thighs, a shoulder belt through the
neck): ``belt_defects`` rebuilds each belt's path from its recorded points
(occupant.restraints.belt_clearance) every ``BELT_SAMPLE`` and lists a belt whose loaded pieces lie
deeper than ``BELT_ALLOWANCE`` inside any of the occupant's ellipsoids, to its nearest surface
point (one line a belt: its deepest, naming the other bodies it passes through). Nor does
anything keep a shoulder belt in front of the neck: a loaded belt that crosses the neck's
midplane behind its axis, within its height, is a belt round the back of the neck
(``behind_the_neck``; one line a belt), however shallow it lies in the neck: the parametric
human's belt, on its shortest path over its thorax ellipsoid's crown, runs there from its fit
in the dummies' scenarios, and its neck barrier, which holds the belt on the neck's outboard
side, lets it through from behind (scenarios/HISTORY.md, neckside).
"""
import math
from dataclasses import dataclass

import numpy as np

from occupant.model.bundle import (CONTACT_ELLIPSOID_BOX, CONTACT_ELLIPSOID_ELLIPSOID, CONTACT_LINEAR,
                                   CONTACT_POWER, CONTACT_TABLE)
from occupant.model.joint_types import JointType
from occupant.modeling.poses import geometry_frame
from occupant.modeling.geometry import Ellipsoid, Plane
from occupant.modeling.lattice import sphere_lattice
from occupant.restraints.belt_clearance import belt_at, sample_depths, surface_depths

# The penetration past a range end a joint stop is sized to hold: the dummies' rotational stops
# hold the distal segments under 250 g within 5 deg [D] (dummies/README.md, "Every dof of every
# joint has a range of motion with a stop"; dummies/tools/derive_hybrid3.py STOP_PENETRATION_DEG,
# the same figure: tests/scenario/test_defects.py), the parametric human's stops scale the dummy's;
# the sternum's sliding stop is sized as 50 kN at 10 mm past it [E] (derive_hybrid3.py CHEST_STOP_K).
STOP_ALLOWANCE = {"rotation": math.radians(5.0), "translation": 0.010}   # rad, m

# How deep a belt's path may lie inside a body's ellipsoid before it is a belt through the body
# [E]: the model's own error, not tissue it compresses (the belt lies on the surfaces it wraps, the
# bodies' contact laws do not see it). Its force acts along the straight pieces between its points,
# a chord s^2 / (8 r) inside the surface the webbing follows: 20 mm is the chord of 0.15 m over the
# human pelvis flesh's radius of about 0.14 m (tests/human/test_validation_sled.py PATH_DEPTH, the
# same figure: tests/scenario/test_defects.py), twice the 10 mm neck graze the dummies' shoulder
# belts are held to (tests/scenario/test_scenario_fw_side_rear.py NECK_GRAZE).
BELT_ALLOWANCE = 0.020      # m
# How often a belt's path is rebuilt (s): a belt piece moves at most the occupant's speed relative
# to its anchorages, under 15 m/s (a 56 km/h pulse), 15 mm a sample, and the deep states last tens
# of ms (the human's lap belt in the thighs: 60-80 ms).
BELT_SAMPLE = 1e-3
# A belt piece is loaded while its force is over this share of its own peak [E] (a slack piece's
# path is not checked: ``belt_loaded``)
BELT_LOADED = 0.1
# The ellipsoid whose back a shoulder belt must not pass (``behind_the_neck``): the occupant's
# neck shell, the name the belts' neck wraps and barriers take (occupant.scenario.restraints);
# its frame, the dummies' and the human's alike, x forward, y across, z along the neck
NECK = "neck_shell"
# How far behind the neck's axis a crossing of its midplane is a belt round the back of the neck,
# in the neck shell's fore-aft semi-axes [E]: on its back surface (1) plus a neck's radius for the
# belt standing off it; the belt's far pieces (the retractor's, behind the seat) cross a neck
# midplane turned in the crash 0.4 m behind it (the human in aeb_precrash_frontal, 589 ms)
BEHIND_REACH = 2.0
# How much deeper than its segment's paired ellipsoids an occupant's ellipsoid may pass a plane
# surface it is in no contact pair with, where no ellipsoid paired with that surface covers it
# (``unpaired_defects``) [E]: the model's own error
# of its bodies' ellipsoid fit, not tissue compressed (nothing pushes an unpaired body back), the
# belt's allowance (BELT_ALLOWANCE, the same figure); the human's shoulder, in no pedestrian pair,
# went 48 mm into pedestrian_40's bonnet outside the thorax and upper arm (scenarios/validation/
# HISTORY.md, branches pedhuman, pedshoulder), 28 mm past its thorax
UNPAIRED_ALLOWANCE = 0.020     # m
# How often the unpaired bodies are placed against the surfaces (s), as the belts (BELT_SAMPLE)
UNPAIRED_SAMPLE = 1e-3
# Points over an ellipsoid's surface whose depths beyond a plane are read: their spacing on the
# human shoulder (semi-axes up to 0.1 m) about 14 mm, the deepest depth's error under 0.3 mm
UNPAIRED_POINTS = 600
# The parts whose plane surfaces the unpaired check judges: a pedestrian scenario's car
# (occupant.scenario.vehicle_front.BODY) and B0 (None: the interiors' planes). Over B0's it
# found the belted sled's Hybrid III shanks 86 / 65 mm past the knee bolster's face at 148-149
# ms: the shins swung up under the bolster's lower edge into its body, which had no surface a
# shin met (scenarios/HISTORY.md, shinbolster); the sled buck's lower edge, in the bolster's
# crush group, now holds them (branch crushshare), and no shipped dummy scenario has a line there
UNPAIRED_ON = ("vehicle", None)


@dataclass(frozen=True)
class Defect:
    kind: str        # "joint stop", "contact table", "contact depth", "airbag depth",
    #                  "airbag bottoming", "belt depth", "belt behind the neck", "unpaired depth"
    element: str     # the joint resistance, contact pair or airbag contact; a belt's piece
    #                  ("belt.d_ring-shoulder": between two of its points)
    value: float     # the largest penetration (rad or m)
    limit: float     # what it was sized or tabulated for (rad or m)
    unit: str        # "rad" or "m"
    t: float         # s, when the largest penetration was reached
    body: str = ""   # a belt's: the ellipsoid its piece lies in (behind the neck: the neck's)
    also: tuple = ()  # a belt's other ellipsoids past the limit, deepest first:
    #                   (ellipsoid, depth m, piece, t s); behind the neck: (first t s, last t s);
    #                   unpaired: (its depth m, its segment's deepest paired ellipsoid)

    def text(self):
        """One line: element, figure against its limit, time (a belt's: its other bodies too)."""
        scale, unit = (180.0 / math.pi, "deg") if self.unit == "rad" else (1e3, "mm")
        at = f"at {1e3 * self.t:.1f} ms"
        if self.kind == "joint stop":
            fig = (f"{scale * self.value:.1f} {unit} past its range end (stop sized for "
                   f"{scale * self.limit:.0f} {unit})")
        elif self.kind == "belt behind the neck":
            first, last = self.also
            fig = (f"crosses the midline {scale * self.value:.1f} {unit} behind the axis of "
                   f"{self.body} (a shoulder belt crosses in front of the neck; behind it "
                   f"{1e3 * first:.1f}-{1e3 * last:.1f} ms)")
        elif self.kind == "unpaired depth":
            depth, by = self.also
            fig = (f"{scale * depth:.1f} {unit} past the surface, in no contact pair with it, "
                   f"outside every body paired with it and {scale * self.value:.1f} {unit} deeper "
                   + (f"than {by}, its segment's paired body" if by else "than its segment's paired bodies")
                   + f" (allowed {scale * self.limit:.0f} {unit})")
        elif self.kind == "belt depth":
            fig = (f"{scale * self.value:.1f} {unit} inside {self.body} (a belt's path is allowed "
                   f"{scale * self.limit:.0f} {unit} into a body)")
            if self.also:
                at += "; also " + "; ".join(f"{body} {scale * d:.1f} {unit} ({piece} at "
                                            f"{1e3 * t:.1f} ms)" for body, d, piece, t in self.also)
        else:
            what = {"contact table": "its loading table ends at",
                    "contact depth": "its geometry's smallest half-size",
                    "airbag depth": "the deployed bag's depth",
                    "airbag bottoming": "its bottoming table ends at"}[self.kind]
            fig = f"{scale * self.value:.1f} {unit} deep ({what} {scale * self.limit:.1f} {unit})"
        return f"{self.kind}: {self.element.replace('__', ' / ')} {fig} {at}"


@dataclass(frozen=True)
class JointFailure:
    element: str     # the joint resistance
    end: str         # "lower" or "upper": the range end it was driven past
    motion: str      # the anatomical motion that end limits ("eversion", ...)
    moment: float    # N m, the largest moment it carried past that end
    t: float         # s, when
    t_past: float    # s, when it went past the end
    work: float      # J, the work it took past the end, to the deepest point
    failure: float   # N m, its failure moment
    source: str      # the failure moment's

    def text(self):
        """One line: joint, motion, when, peak moment against the failure moment and its source."""
        return (f"{self.element.replace('_', ' ')} ({self.motion}) past its range end at "
                f"{1e3 * self.t_past:.1f} ms: up to {self.moment:.0f} N m at {1e3 * self.t:.1f} ms "
                f"({self.work:.1f} J taken past the end), {self.moment / self.failure:.1f} x its "
                f"{self.motion} failure moment {self.failure:g} N m ({self.source}): a predicted "
                f"injury; the motion after it is that of an intact joint")


def joint_failures(model, results, levels=None):
    """The human joints driven past a range end with more than its failure moment
    (``JointFailure`` list, one per joint and end, in the joints' order; of the episodes past the
    end that count, the one that took the most work). The moment is the joint's recorded load
    resisting the excess; the work, that moment over the excess from the end to the deepest
    point. A numerical stop's moment is set by its stiffness (a graze on it reads a high moment
    with little energy, which a real joint's tissue past its clinical range end would take below
    failure), so an episode counts only if, besides, either the stop was overrun (the excess past
    its allowance, STOP_ALLOWANCE: the limb came in with more than the stop was sized to hold,
    the defect line this replaces) or, where the failure angle is known, the stop took more work
    than the joint could between its range end and that angle holding at most its failure moment.
    A joint resistance with no stop at that end (the neck's ligamentous branch, whose moment is
    the tissue's: data/joint_passive.toml) is read past the range end its failure level carries
    (``FailureLevel.range_end``, data/joint_rom.toml) and counts by its moment alone.
    ``levels``: {joint resistance name: {end: occupant.human.joint_failure.FailureLevel}}
    (default: the model's, none for a dummy)."""
    if levels is None:
        from occupant.human.joint_failure import failure_levels
        levels = failure_levels(model)
    out, t, el = results.outputs, np.asarray(results.t), model.joint_resistance
    found = []
    for e, name in enumerate(model.joint_resistance_names):
        x, load = out.get(f"{name}.deflection"), out.get(f"{name}.load")
        if name not in levels or x is None or load is None:
            continue
        x, load = np.asarray(x, float), np.asarray(load, float)
        for end, level in sorted(levels[name].items()):
            range_end = el.lower[e] if end == "lower" else el.upper[e]
            # no stop at that end (the neck's ligamentous branch): its moment past the range end
            # of data/joint_rom.toml is the tissue's, not a stop's, and counts by itself
            stopless = not math.isfinite(range_end)
            if stopless:
                if level.range_end is None:
                    continue
                range_end = level.range_end
            depth = range_end - x if end == "lower" else x - range_end
            resisting = load if end == "lower" else -load
            # the most work the joint could take past the range end before failing
            capacity = (np.inf if level.angle is None
                        else level.moment * (math.radians(level.angle) - abs(range_end)))
            past = np.flatnonzero(depth > 0.0)
            worst = None
            for run in np.split(past, np.flatnonzero(np.diff(past) > 1) + 1) if past.size else ():
                deepest = run[0] + int(np.argmax(depth[run]))
                loading = slice(run[0], deepest + 1)
                work = float(np.trapezoid(resisting[loading], depth[loading]))
                k = run[int(np.argmax(resisting[run]))]
                overrun = (stopless or depth[deepest] > STOP_ALLOWANCE["rotation"]
                           or work > capacity)
                if resisting[k] > level.moment and overrun and (worst is None or work > worst.work):
                    worst = JointFailure(name, end, level.motion, float(resisting[k]), float(t[k]),
                                         float(t[run[0]]), work, level.moment, level.source)
            if worst is not None:
                found.append(worst)
    return found


def motion_defects(model, results, failures=None):
    """The run's physical defects (``Defect`` list, each element's worst, in the order: joints,
    contacts, unpaired bodies through surfaces: ``unpaired_defects``, airbags, belts:
    ``belt_defects``). ``model`` the compiled Model the run used,
    ``results`` its Results; ``failures`` its ``joint_failures`` (default: computed): a joint
    whose worst excess lies past a range end that failed is left out (a predicted injury, not a
    defect)."""
    out = results.outputs
    t = np.asarray(results.t)
    found = []
    failed = {(f.element, f.end) for f in (joint_failures(model, results) if failures is None
                                           else failures)}

    def worst(name, depth, limit, kind, unit):
        depth = np.asarray(depth, float)
        if depth.size and np.isfinite(limit) and np.max(depth) > limit:
            k = int(np.argmax(depth))
            found.append(Defect(kind, name, float(depth[k]), float(limit), unit, float(t[k])))

    el, tree = model.joint_resistance, model.tree
    for e, name in enumerate(model.joint_resistance_names):
        x = out.get(f"{name}.deflection")
        if x is None:
            continue
        x = np.asarray(x, float)
        past = np.maximum(x - el.upper[e], el.lower[e] - x)
        if past.size and (name, "upper" if x[np.argmax(past)] > el.upper[e] else "lower") in failed:
            continue
        slides = tree.jtype[el.link[e]] == int(JointType.PRISMATIC)
        worst(name, past, STOP_ALLOWANCE["translation" if slides else "rotation"], "joint stop",
              "m" if slides else "rad")

    c = model.contacts
    for k, name in enumerate(model.contact_names if c is not None else ()):
        d = out.get(f"{name}.penetration")
        if d is None:
            continue
        if c.law[k] == CONTACT_TABLE:
            worst(name, d, c.tables[c.load_start[k] + c.load_len[k] - 1, 0], "contact table", "m")
        elif c.law[k] in (CONTACT_LINEAR, CONTACT_POWER):
            worst(name, d, _geometry_size(c, k), "contact depth", "m")
    found += unpaired_defects(model, results)

    bags = model.airbags
    for p, name in enumerate(model.airbag_contact_names):
        b = bags.pair_bag[p]
        d = out.get(f"{name}.penetration")
        if d is not None:
            worst(name, d, 2.0 * bags.semi_axes[b, 0], "airbag depth", "m")
        d = out.get(f"{name}.bottoming_penetration")
        if d is not None and bags.bottom_len[b] > 0:
            worst(name, d, bags.tables[bags.bottom_start[b] + bags.bottom_len[b] - 1, 0],
                  "airbag bottoming", "m")
    return found + belt_defects(model, results)


def belt_defects(model, results, allowance=BELT_ALLOWANCE, every=BELT_SAMPLE):
    """Each belt whose path lies deeper than ``allowance`` inside any of the occupant's
    ellipsoids (the geometries carried by its bodies) at any sample ``every`` s apart: a
    ``Defect`` a belt, its deepest (the piece, between two of its points, the ellipsoid, the
    depth and when; the other ellipsoids past ``allowance``, each its deepest, in ``also``),
    over the pieces loaded then (``belt_loaded``). The path is rebuilt from the belt's recorded
    points (``belt_clearance.belt_at``: its straight pieces and its arcs over its wraps, which
    are not checked against the ellipsoid they lie on); its depth in a body is to the body's
    nearest surface point (``belt_clearance.surface_depths``: what the belt would have to move
    to be out; along the scaled radius, ``belt_depths``' measure, the Hybrid III's shoulder belt
    read 73-82 mm inside its chest pad, up to the pad's 90 mm half-width, where it lies 23 mm
    behind its face). Cost: about 3 ms of CPU a sample (us_ncap_frontal_56: 0.5 s)."""
    src = getattr(model, "source", None)
    belts = getattr(src, "belts", None) or {}
    t = np.asarray(results.t)
    if not belts or len(t) < 2:
        return []
    names = [n for n, g in src.geometries.items()
             if isinstance(g, Ellipsoid) and g.marker is not None]
    step = max(1, int(round(every / float(np.median(np.diff(t))))))
    run = _RunView(model, results)
    found = []
    for belt, spec in belts.items():
        if f"{belt}.{spec.points[0].name}.x" not in results.outputs:
            continue
        loaded = belt_loaded(results, belt, [p.name for p in spec.points])
        taut = belt_taut(results, belt, [p.name for p in spec.points])
        deep = {}                                   # ellipsoid: (depth, sample, piece)
        behind = []                                 # (distance, sample, piece) behind the neck
        for k in range(0, len(t), step):
            # (a diverged run's last samples carry overflowing poses: their paths are not judged)
            with np.errstate(all="ignore"):
                path, on, piece, chain, E = belt_at(run, belt, k, names)
                depths = sample_depths(path, on, chain, E, loaded[piece, k], surface_depths)
                if NECK in E:
                    d, i = behind_the_neck(path, taut[piece, k], E[NECK])
                    if d > 0.0 and np.isfinite(d):
                        behind.append((d, k, int(piece[i])))
            for name, d in depths.items():
                if not np.all(np.isfinite(d)):
                    continue
                i = int(np.argmax(d))
                if d[i] > deep.get(name, (0.0,))[0]:
                    deep[name] = (float(d[i]), k, int(piece[i]))
        past = sorted(((d, name, k, i) for name, (d, k, i) in deep.items() if d > allowance),
                      reverse=True)
        if past:
            piece = {i: f"{spec.points[i].name}-{spec.points[i + 1].name}" for _, _, _, i in past}
            (d, name, k, i), rest = past[0], past[1:]
            found.append(Defect("belt depth", f"{belt}.{piece[i]}", d, allowance, "m",
                                float(t[k]), name,
                                tuple((n, e, piece[j], float(t[m])) for e, n, m, j in rest)))
        if behind:
            d, k, i = max(behind, key=lambda b: (b[0], -b[1]))   # its first sample that far
            found.append(Defect("belt behind the neck",
                                f"{belt}.{spec.points[i].name}-{spec.points[i + 1].name}", d, 0.0,
                                "m", float(t[k]), NECK,
                                (float(t[behind[0][1]]), float(t[behind[-1][1]]))))
    return found


def belt_taut(results, belt, names):
    """Whether each piece of the belt (between its points ``names`` i and i + 1) is taut at each
    sample (pieces x samples): its force over 0, its webbing stretched between its points, so
    its straight line is where it lies. ``belt_loaded``'s share of the peak is for depths (a
    lightly loaded piece read deep); a belt's route is where it lies under any tension: the
    human's in aeb_precrash_frontal carries 150-350 N over the braking, under 10 % of its
    5.5 kN crash peak (scenarios/HISTORY.md, neckside)."""
    F = np.array([np.asarray(results.outputs[f"{belt}.{a}-{b}.force"], float)
                  for a, b in zip(names, names[1:])])
    return F > 0.0


def behind_the_neck(path, checked, neck):
    """(how far behind the neck's axis the belt's path crosses the neck's midplane, m; the index
    of the path sample the crossing follows): the largest such distance over the path's pieces
    between two ``checked`` samples (a flag per sample: taut, ``belt_taut``) that cross the midplane (the
    neck ellipsoid's x-z plane, through its centre) within the neck's height (|z| within its
    semi-axis), behind its centre (x < 0) by up to BEHIND_REACH times its x semi-axis; (0, 0)
    where none does. A shoulder belt from an
    outboard upper anchorage to an inboard buckle crosses the occupant's midline once, in front
    of the neck (across the chest); one crossing behind it lies round the back of the neck,
    where no worn belt can (the parametric human's, fitted over its thorax's crown: 57 mm behind
    its neck's axis in us_ncap_frontal_56 and aeb_precrash_frontal; scenarios/HISTORY.md,
    neckside). ``neck``: (centre, axes R (3 x 3, columns), semi-axes) in the path's frame."""
    c, R, D = neck
    local = (np.asarray(path, float) - c) @ R
    y = local[:, 1]
    cross = np.flatnonzero((np.sign(y[:-1]) != np.sign(y[1:])) & checked[:-1] & checked[1:])
    best, at = 0.0, 0
    for i in cross:
        f = y[i] / (y[i] - y[i + 1]) if y[i] != y[i + 1] else 0.0
        x, _, z = local[i] + f * (local[i + 1] - local[i])
        if abs(z) <= D[2] and BEHIND_REACH * D[0] >= -x > best:
            best, at = -x, int(i)
    return best, at


def belt_loaded(results, belt, names):
    """Whether each piece of the belt (between its points ``names`` i and i + 1) is loaded at each
    sample (pieces x samples): its own force over ``BELT_LOADED`` of its own peak. A slack piece's
    straight line is where the model draws it, not where its webbing hangs, and acts on nothing;
    judged by one force for the whole belt a lower shoulder belt read loaded while slack and
    slack while it carried 0.97 kN (tests/human/test_validation_sled.py gs1_belt_depths, the same
    rule)."""
    F = np.array([np.asarray(results.outputs[f"{belt}.{a}-{b}.force"], float)
                  for a, b in zip(names, names[1:])])
    return F > BELT_LOADED * F.max(axis=1, keepdims=True)


def unpaired_defects(model, results, allowance=UNPAIRED_ALLOWANCE, every=UNPAIRED_SAMPLE,
                     points=UNPAIRED_POINTS, on=UNPAIRED_ON):
    """The occupant's ellipsoids that pass a plane surface they are in no contact pair with
    deeper, by more than ``allowance``, than their own segment's ellipsoids that are paired with
    it (``Defect`` "unpaired depth" per ellipsoid and surface, at its largest excess; element
    "ellipsoid__surface"; ``also``: (its own depth then, m; the segment's paired ellipsoid that
    went deepest then, or "")). A contact pair's depth is recorded and judged against its table
    (``motion_defects``); an ellipsoid in no pair with a surface is never pushed back by it, and
    nothing recorded says how deep it went: the human's shoulder shells, in no pedestrian pair,
    went 48 mm into pedestrian_40's bonnet, 28 mm past its thorax then (scenarios/validation/
    HISTORY.md, pedhuman, pedshoulder). Checked: each ellipsoid on a segment that meets the
    surface through another of its ellipsoids (a segment meant to touch it: the shoulder shell
    beside the thorax on the upper torso; a shank never paired with the bonnet is not judged
    against the bonnet's plane, which runs on under the car's front), against each plane surface
    (``Plane``, bounded or not) on the part ``on`` (or parts: a tuple; UNPAIRED_ON: the car's
    and B0's) of the run's pairs,
    every ``every`` s. Its depth: the deepest of
    ``points`` points spread over its surface (a Fibonacci lattice) that lie past the plane within
    its bounds (a plate's: within its thickness), inside no ellipsoid paired with that surface
    and past the plane of no other surface the ellipsoid itself is paired with (those push it
    back there, the latter within its bounds or over its rounded edges); its excess, that depth
    less the deepest of its segment's paired ellipsoids' (the same measure): where those go as
    deep the surface pushes the segment back there (the Hybrid III's shoulder shell, on its
    thorax's surface, goes as deep into the bonnet as its thorax)."""
    src = getattr(model, "source", None)
    t = np.asarray(results.t)
    poses = getattr(results, "body_poses", None)
    if src is None or poses is None or len(t) < 2:
        return []
    geos, markers = src.geometries, src.markers
    parts = on if isinstance(on, tuple) else (on,)   # one part (None: B0) or several
    part = {n: markers[g.marker].part for n, g in geos.items()
            if g.marker is not None and g.marker in markers}
    paired = {}                                      # surface: the ellipsoids paired with it
    own = {}                                         # ellipsoid: the plane surfaces it is paired with
    for p in src.contact_pairs.values():
        if isinstance(geos.get(p.geometry_b), Plane) and isinstance(geos.get(p.geometry_a), Ellipsoid):
            paired.setdefault(p.geometry_b, set()).add(p.geometry_a)
            own.setdefault(p.geometry_a, []).append(p.geometry_b)
    checks = {s: sorted(n for n, g in geos.items() if isinstance(g, Ellipsoid) and n in part
                        and n not in names and part[n] in {part.get(m) for m in names})
              for s, names in paired.items() if part.get(s) in parts}
    checks = {s: names for s, names in checks.items() if names}
    if not checks:
        return []
    step = max(1, int(round(every / float(np.median(np.diff(t))))))
    unit = sphere_lattice(points)

    def frame(name, k):
        return geometry_frame(model, results, name, k)     # (R, p) in B0 at sample k

    def past(s, k, X, bounded=True):
        """(depth of the points X past plane surface s at sample k, m; whether past it, and
        within its bounds when ``bounded``)."""
        plane = geos[s]
        R, p = frame(s, k)
        n = R @ plane.normal
        rel = X - (R @ plane.point + p)
        d = -(rel @ n)
        on = d > 0.0
        if not bounded:
            return d, on
        if plane.thickness is not None:
            on &= d <= plane.thickness
        inplane = rel + np.outer(d, n)
        if plane.radius is not None:
            radial = np.linalg.norm(inplane, axis=1)
            on &= radial <= plane.radius
            if plane.inner_radius is not None:     # a ring: open within its hole
                on &= radial >= plane.inner_radius
        elif plane.half_size is not None:
            u = R @ plane.x_axis
            u = u - (u @ n) * n
            u /= np.linalg.norm(u)
            w = np.cross(n, u)
            on &= (np.abs(inplane @ u) <= plane.half_size[0]) & (np.abs(inplane @ w) <= plane.half_size[1])
        return d, on

    def surface(name, k):
        R, p = frame(name, k)
        return p + (unit * np.asarray(geos[name].semi_axes, float)) @ R.T

    deep = {}                                        # (ellipsoid, surface): (excess, sample, depth, by)
    for k in range(0, len(t), step):
        with np.errstate(all="ignore"):
            for s, names in checks.items():
                covers, reach = [], {}
                for m in paired[s]:
                    Rm, pm = frame(m, k)
                    covers.append((Rm, pm, np.asarray(geos[m].semi_axes, float)))
                R, p = frame(s, k)
                n, c = R @ geos[s].normal, R @ geos[s].point + p
                for name in names:
                    Re, pe = frame(name, k)          # its deepest point short of the plane: skip
                    if (c - pe) @ n + np.linalg.norm((Re.T @ n) * geos[name].semi_axes) <= 0.0:
                        continue
                    X = surface(name, k)
                    d, on = past(s, k, X)
                    # a point past the plane of a surface the ellipsoid is paired with is pushed
                    # back by that one, within its bounds or over its rounded edges (a knee on
                    # the bumper, over its top corner, lies past the bonnet leading edge's plane
                    # too: pedestrian_40 pairs each leg region with one of the two)
                    for other in own.get(name, ()):
                        if on.any():
                            on &= ~past(other, k, X, bounded=False)[1]
                    for Rm, pm, D in covers:
                        if not on.any():
                            break
                        local = ((X - pm) @ Rm) / D
                        on &= np.einsum("ij,ij->i", local, local) > 1.0
                    if not on.any():
                        continue
                    depth = float(d[on].max())
                    by, level = "", 0.0              # the segment's paired ellipsoids' deepest
                    for m in sorted(paired[s]):
                        if part.get(m) != part[name]:
                            continue
                        if m not in reach:
                            dm, onm = past(s, k, surface(m, k))
                            reach[m] = float(dm[onm].max()) if onm.any() else 0.0
                        if reach[m] > level:
                            by, level = m, reach[m]
                    if depth - level > deep.get((name, s), (0.0,))[0]:
                        deep[(name, s)] = (depth - level, k, depth, by)
    return [Defect("unpaired depth", f"{name}__{s}", e, allowance, "m", float(t[k]), also=(d, by))
            for (name, s), (e, k, d, by) in sorted(deep.items()) if e > allowance]


@dataclass(frozen=True)
class _RunView:
    """What ``belt_clearance`` reads of a run: its model and results."""
    model: object
    results: object


def _geometry_size(c, k):
    """The smallest half-size of pair k's geometries that have one (the ellipsoid's semi-axes;
    an ellipsoid's or a box's b side): deeper than that, a body has gone through."""
    sizes = list(c.size_a[k])
    if c.pair_type[k] in (CONTACT_ELLIPSOID_ELLIPSOID, CONTACT_ELLIPSOID_BOX):
        sizes += [s for s in c.size_b[k] if s > 0]
    return float(min(sizes))


def run_defect_lines(run):
    """The lines a run's summary and report show for its defects ("defect: ..."; none for a run
    of fewer than two samples), computed once per Run (the belt check rebuilds its paths every
    millisecond) and kept on it."""
    lines = getattr(run, "defect_lines", None)
    if lines is None:
        res = run.results
        failures = getattr(run, "joint_failures", None)
        lines = ([f"defect: {d.text()}" for d in motion_defects(run.model, res, failures=failures)]
                 if len(res.t) > 1 else [])
        run.defect_lines = lines
    return lines
