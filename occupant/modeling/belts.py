"""Seat-belt declarations (issue 11 section 4) and their compile step to ``BeltBlock``.

A belt is an ordered list of points from one end to the other, joined by straight segments of
webbing, as MADYMO's multibody belt: ``Anchor`` at both ends (on B0 or on a part; the first may
carry a ``Retractor`` and a ``Pretensioner``), and between them ``SlipRing`` (D-ring, buckle
tongue, fixed in B0 or on a part) and ``Wrap`` points, where the webbing lies over an occupant's
contact ellipsoid: on its shortest path across it, or held there by friction (``Wrap.across``:
sliding once the belt's transverse force exceeds friction times its normal force, as MADYMO's
belt points). Webbing flows between neighbouring segments
through a slip ring or over a wrapped ellipsoid when the tension ratio exceeds the capstan ratio
exp(mu theta) (Euler-Eytelwein), theta the angle the belt turns through there. A lap belt is
anchor - wrap(s) over the pelvis - anchor; a two-point (diagonal) belt anchor - wrap(s) - anchor.
The compiled kernel is ``occupant.restraints.belt``.
"""
from dataclasses import dataclass

import numpy as np

from occupant.constants import G0
from occupant.model.bundle import (
    BELT_ANCHOR, BELT_OUTPUTS, BELT_POINT_OUTPUTS, BELT_SEGMENT_OUTPUTS, BELT_SEGMENT_STATES,
    BELT_SLIP_RING, BELT_STATES, BELT_WRAP, BELT_WRAP_STATES, CONTACT_TABLE, PRETENSIONER_FORCE, PRETENSIONER_NONE,
    PRETENSIONER_PULL_IN, BeltBlock, freeze_block, marker,
)
from occupant.model.model import ModelError
from occupant.modeling.carriers import carrier_link
from occupant.modeling.compile_contacts import geometry_frame
from occupant.modeling.contacts import _curve
from occupant.modeling.elements import ModelingError, _vec3
from occupant.modeling.geometry import Ellipsoid, Sphere


def _barrier_way(points, k):
    """The side barrier wrap points[k] is placed from (``BeltBlock.point_barrier``): 1 from the
    fixed point before it (an Anchor or SlipRing there), -1 from the one after it, 2 between the
    wraps on both sides of it (``restraints.wrap_chain.BETWEEN``: placed with them)."""
    if isinstance(points[k - 1], Wrap) and isinstance(points[k + 1], Wrap):
        return 2.0
    return 1.0 if not isinstance(points[k - 1], Wrap) else -1.0


def _nonnegative(value, what, unit, allow_inf=False):
    ok = (np.isfinite(value) or (allow_inf and value == np.inf)) and value >= 0
    if not ok:
        raise ModelingError(f"{what}: must be a number >= 0 {unit}, got {value!r}")
    return float(value)


@dataclass
class Webbing:
    """Force-strain characteristic of the webbing. ``loading``: rows (strain, N) from (0, 0), both
    increasing; ``unloading`` (optional): the shape of the unloading curve, rows (strain, N) from
    (0, 0), shifted along the strain axis to meet the loading curve at the largest strain reached
    (as LS-DYNA's *MAT_SEATBELT and MADYMO shift theirs); without it the webbing is elastic.
    Slack webbing (strain <= 0) carries no force."""
    loading: object
    unloading: object = None
    name: str = ""

    def __post_init__(self):
        what = f"webbing '{self.name}'" if self.name else "webbing"
        self.loading = _curve(self.loading, f"{what}.loading", strict=True)
        if self.unloading is not None:
            self.unloading = _curve(self.unloading, f"{what}.unloading", strict=True)


def gs1_webbing():
    """The webbing of the SAFER HBM validation "Gold Standard 1" sled case (Shaw et al. 2009),
    crash-domain-facts 6.4 [S, LS-DYNA deck, units inferred]: loading 1.3 kN at 1.1 %, 3.5 kN at
    2.1 %, 5.5 kN at 3.2 %, 7.2 kN at 4.3 %, 8.8 kN at 5.3 %, 9.9 kN at 6.1 % strain. Unloading:
    the deck's two points (3.2 %, 3.0 kN) and (4.5 %, 9.4 kN) give a line of 492 kN per unit
    strain reaching zero force at 2.59 % [D: extended linearly to zero force]; its shape from
    (0, 0) is the unloading table."""
    loading = [(0.0, 0.0), (0.011, 1300.0), (0.021, 3500.0), (0.032, 5500.0), (0.043, 7200.0),
               (0.053, 8800.0), (0.061, 9900.0)]
    slope = (9400.0 - 3000.0) / (0.045 - 0.032)           # N per unit strain [D]
    unloading = [(0.0, 0.0), (3000.0 / slope, 3000.0), (3000.0 / slope + 0.013, 9400.0)]
    return Webbing(loading, unloading, name="gs1")


def gs1_end_spring():
    """One belt-end spring of the Gold Standard 1 rig as the SAFER HBM validation deck models it
    [S: github.com/saferhbm/validation commit 53cd691ce5fef876f62e9443a03a704c0bea2311,
    validation/Shaw-2009-gold-standard-1/dyna/GS1_belt_V11.key: *MAT_SPRING_INELASTIC 90001019
    "Lap belt slack" (tension only, CTF -1) on curve 90000009 "RIGHT ANCH END PART" with its
    abscissa scale SFA 2 (mm, kN): 9.6 mm at 1 kN, 12.8 at 2, 14.08 at 3, 16.0 at 8, 17.6 at
    20; the deck's discrete elements 91001541 (shoulder belt to buckle tongue), 92001542 (in
    the shoulder belt by its upper anchorage, in place of a belt element) and 91001542 (lap
    belt to buckle tongue) use it]: rows (N, m), the spring's extension at the belt force."""
    return np.array([(0.0, 0.0), (1000.0, 0.0096), (2000.0, 0.0128), (3000.0, 0.01408),
                     (8000.0, 0.0160), (20000.0, 0.0176)])


@dataclass
class Retractor:
    """Retractor at a belt's first point. Unlocked, it pays webbing out against ``rewind_force``
    (N) and winds slack in; it locks ``lock_delay`` (s) after the vehicle's horizontal
    acceleration reaches ``lock_acceleration`` (m/s^2; vehicle-sensitive sensor) or the payout
    speed reaches ``lock_speed`` (m/s; webbing-sensitive sensor, which real retractors trigger on
    webbing acceleration: a speed threshold stands in for it), or when the pretensioner fires.
    Locked, the spool gives ``spool_stiffness`` (N/m, film-spool effect) beyond the webbing it
    had paid out when it locked (or was wound in to since: the spool's ratchet holds what a
    pretensioner wound in, under the tension it wound in against), up to ``load_limit`` (N;
    inf: none), at which a torsion-bar load limiter pays out at constant force (plastically:
    the limiter's payout is kept). The spool
    moves at speed (tension - spool force) / ``spool_damping`` (N s/m), a regularisation; a
    yielding limiter also pays out what keeps the belt's strain, so the belt force stays at the
    limit whatever the payout speed (``occupant.restraints.belt``). ``compliance`` (optional):
    rows (N, m) from (0, 0), both increasing, the payout that parts in series with the locked
    spool add at the belt force (a rig's belt-end springs or load cells, e.g. ``gs1_end_spring``):
    the locked spool's force is then the force at which spool and compliance together give its
    payout beyond the lock (``spool_curve``), extrapolated with its last slope."""
    rewind_force: float = 10.0          # N: the GS1 deck's 10 N shoulder pre-load (facts 6.4) [S]
    lock_acceleration: float = 0.45 * G0   # m/s^2 [U]: the vehicle-sensitive threshold quoted for
                                        # UN R16 / FMVSS 209 (0.45-0.7 g; standards not read)
    lock_speed: float = 0.6             # m/s [D]: 0.7 g of webbing acceleration over 25 mm of
                                        # payout, the webbing-sensitive test quoted for FMVSS 209
                                        # [U], reaches sqrt(2 * 0.7 g * 0.025 m) = 0.59 m/s
    lock_delay: float = 0.010           # s [E]: sensor and pawl engagement
    spool_stiffness: float = 1.1e6      # N/m: GS1 deck, about 1.1 kN per mm (facts 6.4) [S]
    load_limit: float = np.inf          # N; 4 kN in research sleds, 2-6 kN in production (6.1)
    spool_damping: float = 100.0        # N s/m [E]: regularisation (see above)
    compliance: object = None           # rows (N, m): series compliance (see above)

    def __post_init__(self):
        for key, unit in (("rewind_force", "N"), ("lock_acceleration", "m/s^2"),
                          ("lock_speed", "m/s"), ("lock_delay", "s"), ("spool_stiffness", "N/m")):
            setattr(self, key, _nonnegative(getattr(self, key), f"retractor.{key}", unit,
                                            allow_inf=key.startswith("lock_")))
        self.load_limit = _nonnegative(self.load_limit, "retractor.load_limit", "N", allow_inf=True)
        if not (np.isfinite(self.spool_damping) and self.spool_damping > 0):
            raise ModelingError(f"retractor.spool_damping: must be a number > 0 N s/m, "
                                f"got {self.spool_damping!r}")
        if self.compliance is not None:
            self.compliance = _curve(self.compliance, "retractor.compliance", strict=True)
            if not self.spool_stiffness > 0.0:
                raise ModelingError("retractor.compliance: needs a spool_stiffness > 0 N/m")

    def spool_curve(self):
        """Rows (payout beyond the lock m, spool force above the rewind force N) of the locked
        spool in series with ``compliance``: at each of its forces F, F / spool_stiffness +
        compliance(F); None without a compliance (the spool is linear)."""
        if self.compliance is None:
            return None
        force, extra = self.compliance[:, 0], self.compliance[:, 1]
        return np.column_stack([force / self.spool_stiffness + extra, force])


@dataclass
class Pretensioner:
    """Pretensioner in the retractor, fired at ``fire_time`` (s): either ``force`` rows
    (time since firing s, N), the spool force winding webbing in (at most ``stroke`` m of
    webbing, counted from the start of the run), or ``pull_in`` rows (time since firing s, m),
    the most webbing it winds in against time: the spool force ``capacity`` (N) winding in no
    faster than the table, so the pull-in stops short where the belt at the retractor is as
    tight as ``capacity`` (MADYMO's pull-in pretensioner with a force limit; a pyrotechnic
    piston stalls at its force once the slack is gone). Firing also locks the retractor.
    Autoliv: pyrotechnic, winding in up to 120 mm (facts 6.1) [C]; fired about 10-20 ms into
    the crash, done in 5-10 ms, 1.5-3 kN [U]."""
    fire_time: float
    force: object = None
    pull_in: object = None
    stroke: float = 0.12                # m, Autoliv ball-in-tube retractor pretensioner [C]
    capacity: float = 2000.0            # N [U]: within the 1.5-3 kN of crash-domain-facts 6.1

    def __post_init__(self):
        if (self.force is None) == (self.pull_in is None):
            raise ModelingError("pretensioner: give either force (rows: time s, N) or pull_in "
                                "(rows: time s, m), not both or neither")
        self.fire_time = _nonnegative(self.fire_time, "pretensioner.fire_time", "s")
        self.stroke = _nonnegative(self.stroke, "pretensioner.stroke", "m")
        self.capacity = _nonnegative(self.capacity, "pretensioner.capacity", "N", allow_inf=True)
        key = "force" if self.force is not None else "pull_in"
        t = np.asarray(getattr(self, key), dtype=float)
        if not (t.ndim == 2 and t.shape[1] == 2 and len(t) >= 2 and np.all(np.isfinite(t))
                and np.all(np.diff(t[:, 0]) > 0) and t[0, 0] >= 0 and np.all(t[:, 1] >= 0)):
            raise ModelingError(f"pretensioner.{key}: expected >= 2 finite rows (time s >= 0, "
                                f"value >= 0), time increasing, got {getattr(self, key)!r}")
        if key == "pull_in" and (t[0, 1] != 0.0 or np.any(np.diff(t[:, 1]) < 0)):
            raise ModelingError(f"pretensioner.pull_in: expected a pull-in from 0 m that never "
                                f"decreases (a spool winds in at a finite rate), got {self.pull_in!r}")
        setattr(self, key, t)


@dataclass
class Anchor:
    """A belt end fixed at ``point`` (m) in the frame of ``marker`` (None: B0)."""
    name: str
    point: tuple = (0.0, 0.0, 0.0)
    marker: str | None = None

    def __post_init__(self):
        self.point = _vec3(self.point, f"anchor '{self.name}'.point")


@dataclass
class SlipRing:
    """A D-ring, buckle tongue or belt guide at ``point`` (m) in the frame of ``marker`` (None:
    B0) that the webbing slides through with Coulomb coefficient ``friction`` (the open FE
    Hybrid III sled examples' D-ring and buckle pulleys: 0.2 [S], scenarios/HISTORY.md,
    frictionsrc; the GS1 deck's "buckle" 0.3 is the body on the buckle, its belts separate)."""
    name: str
    point: tuple = (0.0, 0.0, 0.0)
    marker: str | None = None
    friction: float = 0.0

    def __post_init__(self):
        self.point = _vec3(self.point, f"slip ring '{self.name}'.point")
        self.friction = _nonnegative(self.friction, f"slip ring '{self.name}'.friction", "")


@dataclass
class Wrap:
    """The belt over the Ellipsoid or Sphere ``geometry`` of an occupant, wrapping it around
    the side the direction ``side`` (ellipsoid frame; default forward) points to. Along the
    belt the webbing slides through the point with Coulomb coefficient ``friction`` (belt-body
    0.3 in GS1, 0.2-0.4 quoted; facts 6.4 [S], 6.3 [U]). Across the belt: with ``across`` (a
    Coulomb coefficient) the belt keeps its place on the body (a state) while its pull across
    itself is within ``across`` times its push into the body and slides towards its shortest
    path beyond that, as MADYMO's belt points; ``at`` (optional) is where it is fitted, a
    direction in the ellipsoid's scaled frame (the unit sphere; (0, 1, 0): the end of its y
    semi-axis), by default the middle of its shortest wrap at the initial configuration.
    Without ``across`` the belt lies on its shortest path across the ellipsoid (free to slide
    across it). The point is the middle of the wrap (``occupant.restraints.belt``).
    ``carrier`` (optional): a part on a
    prismatic joint to the geometry's part (a dummy's sternum on its ``chest`` joint) that the
    belt bears on there: the wrap is found on the geometry (the undeformed chest), the point
    then moves with the carrier's travel on its joint (the chest's deflection) and the belt's
    force at it acts on the carrier, so it loads the joint's spring (the ribcage), as the
    belt loads a Hybrid III's sternum through its jacket. ``share`` (a carried wrap, (0, 1]):
    the carrier bears this share of the wrap's force and the rest acts on the geometry's part,
    the point moving by the share of the carrier's travel (so the work of the forces is the
    belt's: a human ribcage under a belt, whose sternum spring is a hub's and which a belt
    loads over more of its structure than the sternum, ``restraints.belt``). ``flank`` (optional, a wrap with
    ``across``): (n_x, n_y, n_z, d), a half-space of the ellipsoid's frame (n a direction, d in
    m) that the wrap's point (where the belt presses on the body, moved by its carrier) keeps to,
    n . x >= d: the side of the surface the webbing lies on. Within it the place is held by
    friction as above; with the point at its bound the place slides no further across the belt
    the way that would take the point past it (the bound, a stop, takes the belt's pull across
    itself beyond the friction: the body's shape the ellipsoid lacks, e.g. a ridge on a shoulder
    where the ellipsoid is a dome, ``restraints.belt_wraps.flank_bound``). ``barrier`` (a wrap right after an anchor or slip ring,
    placed from it, or right before one, placed from that one: a human's thigh before the lap
    anchorage; one at each end of a run of wraps at most, with a wrap between them, the
    wraps between placed between the two: the human's lap belt over both thighs; or between
    two wraps on other ellipsoids, placed with them: an arm on a shoulder belt's piece; with no
    ``across`` or carrier): the wrap only keeps the belt out of its
    ellipsoid, from the side ``side`` points to; it lies on the straight piece of its
    neighbours (no force) until that piece would enter the ellipsoid on that side
    (``restraints.wrap_chain.place_barrier``)."""
    name: str
    geometry: str
    friction: float = 0.3
    side: tuple = (1.0, 0.0, 0.0)
    carrier: str | None = None
    across: float | None = None
    at: tuple | None = None
    flank: tuple | None = None
    share: float = 1.0
    barrier: bool = False

    def __post_init__(self):
        self.friction = _nonnegative(self.friction, f"wrap '{self.name}'.friction", "")
        s = _vec3(self.side, f"wrap '{self.name}'.side")
        if np.linalg.norm(s) == 0:
            raise ModelingError(f"wrap '{self.name}'.side: must be a non-zero vector")
        self.side = s / np.linalg.norm(s)
        if self.across is not None:
            self.across = _nonnegative(self.across, f"wrap '{self.name}'.across", "")
        if self.at is not None:
            self.at = _vec3(self.at, f"wrap '{self.name}'.at")
            if np.linalg.norm(self.at) == 0:
                raise ModelingError(f"wrap '{self.name}'.at: must be a non-zero vector")
        if self.flank is not None:
            f = np.asarray(self.flank, dtype=float).reshape(-1)
            if f.shape != (4,) or not np.all(np.isfinite(f)) or np.linalg.norm(f[:3]) == 0:
                raise ModelingError(f"wrap '{self.name}'.flank: must be (n_x, n_y, n_z, d) with a "
                                    f"non-zero direction n, got {self.flank!r}")
            if not self.across:
                raise ModelingError(f"wrap '{self.name}'.flank: bounds a place held across the "
                                    "belt; set across > 0")
            self.flank = np.concatenate([f[:3] / np.linalg.norm(f[:3]), f[3:]])
        if self.barrier and (self.across or self.carrier is not None):
            raise ModelingError(f"wrap '{self.name}'.barrier: a barrier keeps no place across "
                                "the belt and has no carrier; drop across and carrier")
        if not (np.isfinite(self.share) and 0.0 < self.share <= 1.0):
            raise ModelingError(f"wrap '{self.name}'.share: must lie in (0, 1], got {self.share!r}")
        if self.share != 1.0 and self.carrier is None:
            raise ModelingError(f"wrap '{self.name}'.share: a share of the force on a carrier; "
                                "name its carrier")
        self.share = float(self.share)


# The compiled belt marks its points in one 64-bit word (restraints.belt_points.carry_lifted,
# restraints.wrap_chain.place_chain): bits 0-62, so at most 64 points with both anchors.
MAX_POINTS = 64
# m: the least distance between neighbouring points fixed in one frame (anchors, slip rings) [E]:
# at zero the segment has no direction (its force along it is undefined; a D-ring placed on the
# retractor diverged in the first step of the settling, badinput audit); a real belt's fixed
# points lie centimetres apart at least
MIN_FIXED_GAP = 1e-3


@dataclass
class Belt:
    """A belt through ``points`` (Anchor first and last; SlipRing and Wrap between) of
    ``webbing``. ``retractor`` (optional) sits at the first anchor, ``pretensioner`` (optional)
    in the retractor. ``pretension`` (N): the tension the belt is fitted with at the initial
    configuration (``occupant.restraints.fit_belts``). ``slip_damping`` (N s/m): webbing flows
    through a point at (excess tension) / slip_damping, a regularisation of Coulomb sliding [E].
    Outputs per segment (named "<belt>.<point a>-<point b>.force" etc.): force, strain, length,
    length rate; per point its position in B0; per belt payout, pull-in and locked."""
    name: str
    points: list
    webbing: Webbing
    retractor: Retractor | None = None
    pretensioner: Pretensioner | None = None
    pretension: float = 10.0            # N: GS1 deck pre-load, 10 N shoulder (facts 6.4) [S]
    slip_damping: float = 100.0         # N s/m [E]

    def __post_init__(self):
        what = f"belt '{self.name}'"
        self.points = list(self.points)
        if not 2 <= len(self.points) <= MAX_POINTS:
            raise ModelingError(f"{what}.points: a belt has 2 to {MAX_POINTS} points, got "
                                f"{len(self.points)}")
        for k, p in enumerate(self.points):
            end = k in (0, len(self.points) - 1)
            if end and not isinstance(p, Anchor):
                raise ModelingError(f"{what}.points[{k}]: a belt begins and ends at an Anchor, "
                                    f"got {type(p).__name__}")
            if not end and not isinstance(p, (SlipRing, Wrap)):
                raise ModelingError(f"{what}.points[{k}]: between the ends only SlipRing and "
                                    f"Wrap points are accepted, got {type(p).__name__}")
            if getattr(p, "barrier", False) and isinstance(self.points[k - 1], Wrap) \
                    and isinstance(self.points[k + 1], Wrap) \
                    and p.geometry in (self.points[k - 1].geometry, self.points[k + 1].geometry):
                raise ModelingError(f"{what}.points[{k}]: a barrier wrap follows or precedes an "
                                    f"Anchor or a SlipRing (it is placed from it), or lies "
                                    f"between two wraps on other ellipsoids (placed with them), "
                                    f"got a Wrap on both sides, one on its '{p.geometry}'")
        barriers = [k for k, p in enumerate(self.points) if getattr(p, "barrier", False)]
        for k, n in zip(barriers, barriers[1:]):
            if n == k + 1:
                raise ModelingError(f"{what}.points[{n}]: two barriers on one run of wraps need "
                                    f"a wrap between them (points[{k}] is the other); a run of "
                                    f"barriers alone is not written")
        names = [p.name for p in self.points]
        if len(set(names)) != len(names):
            raise ModelingError(f"{what}.points: point names must differ, got {names}")
        if not isinstance(self.webbing, Webbing):
            raise ModelingError(f"{what}.webbing: expected a Webbing, got "
                                f"{type(self.webbing).__name__}")
        if self.retractor is not None and not isinstance(self.retractor, Retractor):
            raise ModelingError(f"{what}.retractor: expected a Retractor or None")
        if self.pretensioner is not None:
            if not isinstance(self.pretensioner, Pretensioner):
                raise ModelingError(f"{what}.pretensioner: expected a Pretensioner or None")
            if self.retractor is None:
                raise ModelingError(f"{what}.pretensioner: a pretensioner needs the retractor "
                                    f"it sits in (give retractor=Retractor(...))")
        self.pretension = _nonnegative(self.pretension, f"{what}.pretension", "N")
        if self.retractor is not None and self.pretension > self.retractor.rewind_force:
            # the retractor would pay the excess out at once, which its webbing-sensitive
            # sensor reads as a pull and locks on (seen: GS1's lap belt locked at 10.1 ms)
            raise ModelingError(f"{what}.pretension: {self.pretension:g} N is above its "
                                f"retractor's rewind force {self.retractor.rewind_force:g} N; "
                                "fit the belt at most at the force its retractor pulls")
        if not (np.isfinite(self.slip_damping) and self.slip_damping > 0):
            raise ModelingError(f"{what}.slip_damping: must be a number > 0 N s/m, "
                                f"got {self.slip_damping!r}")
        for k, (a, b) in enumerate(zip(self.points[:-1], self.points[1:]), 1):
            fixed = all(isinstance(p, (Anchor, SlipRing)) for p in (a, b)) and a.marker == b.marker
            if fixed and np.linalg.norm(a.point - b.point) < MIN_FIXED_GAP:
                raise ModelingError(f"{what}.points[{k}]: '{b.name}' at {b.point.tolist()} m is "
                                    f"where '{a.name}' is (a segment of no length)",
                                    f"neighbouring anchors and slip rings at least "
                                    f"{MIN_FIXED_GAP * 1e3:g} mm apart")

    @property
    def segment_names(self):
        return [f"{a.name}-{b.name}" for a, b in zip(self.points[:-1], self.points[1:])]

    @property
    def refs(self):
        out = {}
        for k, p in enumerate(self.points):
            if isinstance(p, Wrap):
                out[f"points[{k}].geometry"] = p.geometry
                if p.carrier is not None:
                    out[f"points[{k}].carrier.part"] = p.carrier
            elif p.marker is not None:
                out[f"points[{k}].marker"] = p.marker
        return out


def _extrapolated_strain(loading, force):
    (e0, f0), (e1, f1) = loading[-2], loading[-1]
    return e1 + (force - f1) * (e1 - e0) / (f1 - f0)


def belt_block(asm, marker_index, marker_body, body_link, marker_R, marker_p, outputs, states,
               tree, body_index):
    """The compiled BeltBlock of the assembly's belts; reserves their outputs and states
    (``tree``: the model's link tree, ``body_index``: part name -> body, for wrap carriers)."""
    cols = {k: [] for k in BeltBlock._fields}
    rows, pt_rows = [], []
    cols["point_start"].append(0)
    for belt in asm.belts.values():
        for k, p in enumerate(belt.points):
            R, size, side, fit = np.eye(3), np.zeros(3), np.zeros(3), np.zeros(3)
            flank = np.zeros(4)
            if isinstance(p, Wrap):
                g = asm.geometries[p.geometry]
                if not isinstance(g, (Ellipsoid, Sphere)):
                    raise ModelError(f"belt '{belt.name}'.points[{k}].geometry: '{p.geometry}' is "
                                     f"a {type(g).__name__} (accepted: Ellipsoid, Sphere)")
                if g.marker is None:
                    raise ModelError(f"belt '{belt.name}'.points[{k}].geometry: '{p.geometry}' is "
                                     f"fixed to the vehicle (no marker); a belt wraps an "
                                     f"ellipsoid on a body")
                link, R, r = geometry_frame(g, marker_index, marker_body, body_link, marker_R,
                                            marker_p)
                size = g.semi_axes if isinstance(g, Ellipsoid) else np.full(3, g.radius)
                kind, side = BELT_WRAP, p.side
                if p.at is not None:
                    fit = p.at / np.linalg.norm(p.at)
                if p.flank is not None:   # n . x >= d as g . u >= d on the unit sphere, g = D n
                    flank = np.concatenate([size * p.flank[:3], p.flank[3:]])
                carrier, carrier_r = carrier_link(
                    f"belt '{belt.name}'.points[{k}].carrier", p.carrier, p.geometry, link, tree,
                    body_index, body_link)
            else:
                kind = BELT_ANCHOR if isinstance(p, Anchor) else BELT_SLIP_RING
                if p.marker is None:
                    link, r = -1, p.point
                else:
                    m = marker_index[p.marker]
                    link, r = body_link[marker_body[m]], marker_R[m] @ p.point + marker_p[m]
                carrier, carrier_r = link, np.zeros(3)
            cols["point_kind"].append(kind)
            cols["point_carrier"].append(carrier)
            cols["point_carrier_r"].append(carrier_r)
            cols["point_share"].append(p.share if isinstance(p, Wrap) else 1.0)
            cols["point_link"].append(link)
            cols["point_r"].append(r)
            cols["point_R"].append(R)
            cols["point_size"].append(size)
            cols["point_side"].append(side)
            cols["point_fit"].append(fit)
            cols["point_flank"].append(flank)
            cols["point_friction"].append(getattr(p, "friction", 0.0))
            cols["point_across"].append(getattr(p, "across", None) or 0.0)
            cols["point_barrier"].append(_barrier_way(belt.points, k) if getattr(p, "barrier", False)
                                         else 0.0)
        cols["point_start"].append(cols["point_start"][-1] + len(belt.points))
        w = belt.webbing
        load = (sum(len(r) for r in rows), len(w.loading))
        rows.append(w.loading)
        unload = (-1, 0)
        if w.unloading is not None:
            unload = (sum(len(r) for r in rows), len(w.unloading))
            rows.append(w.unloading)
        for _ in range(len(belt.points) - 1):
            cols["law"].append(CONTACT_TABLE)
            cols["stiffness"].append(0.0)
            cols["exponent"].append(1.0)
            cols["load_start"].append(load[0])
            cols["load_len"].append(load[1])
            cols["unload_start"].append(unload[0])
            cols["unload_len"].append(unload[1])
            cols["absorption"].append(0.0)
        r = belt.retractor or Retractor()
        cols["fit_strain"].append(np.interp(belt.pretension, w.loading[:, 1], w.loading[:, 0])
                                  if belt.pretension < w.loading[-1, 1] else
                                  _extrapolated_strain(w.loading, belt.pretension))
        cols["slip_damping"].append(belt.slip_damping)
        cols["retractor"].append(0 if belt.retractor is None else 1)
        for key in ("rewind_force", "spool_damping", "lock_acceleration", "lock_speed",
                    "lock_delay", "spool_stiffness", "load_limit"):
            cols[key].append(getattr(r, key))
        spool = r.spool_curve()
        cols["spool_start"].append(-1 if spool is None else sum(len(t) for t in pt_rows))
        cols["spool_len"].append(0 if spool is None else len(spool))
        if spool is not None:
            pt_rows.append(spool)
        pt = belt.pretensioner
        if pt is None:
            cols["pretensioner"].append(PRETENSIONER_NONE)
            cols["fire_time"].append(np.inf)
            cols["stroke"].append(0.0)
            cols["pt_capacity"].append(0.0)
            cols["pt_start"].append(-1)
            cols["pt_len"].append(0)
        else:
            table = pt.force if pt.force is not None else pt.pull_in
            cols["pretensioner"].append(PRETENSIONER_FORCE if pt.force is not None
                                        else PRETENSIONER_PULL_IN)
            cols["fire_time"].append(pt.fire_time)
            cols["stroke"].append(pt.stroke)
            cols["pt_capacity"].append(pt.capacity)
            cols["pt_start"].append(sum(len(t) for t in pt_rows))
            cols["pt_len"].append(len(table))
            pt_rows.append(table)
        segments = [f"{belt.name}.{s}" for s in belt.segment_names]
        cols["out_start"].append(outputs.reserve(segments, BELT_SEGMENT_OUTPUTS))
        outputs.reserve([f"{belt.name}.{p.name}" for p in belt.points], BELT_POINT_OUTPUTS)
        outputs.reserve([belt.name], BELT_OUTPUTS)
        cols["z_start"].append(states.reserve(segments, BELT_SEGMENT_STATES))
        states.reserve([belt.name], BELT_STATES)
        wraps = [f"{belt.name}.{p.name}" for p in belt.points if isinstance(p, Wrap)]
        first = states.reserve(wraps, BELT_WRAP_STATES)
        for p in belt.points:
            cols["point_z"].append(first if isinstance(p, Wrap) else -1)
            first += len(BELT_WRAP_STATES) if isinstance(p, Wrap) else 0
    n_pts, n_seg = len(cols["point_kind"]), len(cols["law"])
    for key in ("point_start", "point_kind", "point_link", "point_carrier", "point_z", "law", "load_start", "load_len",
                "unload_start", "unload_len", "retractor", "pretensioner", "pt_start", "pt_len",
                "spool_start", "spool_len", "z_start", "out_start"):
        cols[key] = np.array(cols[key], dtype=np.int64)
    for key in ("point_r", "point_size", "point_side", "point_carrier_r", "point_fit"):
        cols[key] = np.array(cols[key], dtype=float).reshape(n_pts, 3)
    cols["point_R"] = np.array(cols["point_R"], dtype=float).reshape(n_pts, 3, 3)
    cols["point_flank"] = np.array(cols["point_flank"], dtype=float).reshape(n_pts, 4)
    for key in ("point_friction", "point_across", "point_barrier", "point_share", "stiffness", "exponent", "absorption"):
        cols[key] = np.array(cols[key], dtype=float).reshape(-1)
    cols["tables"] = np.concatenate(rows) if rows else np.zeros((0, 2))
    cols["pt_tables"] = np.concatenate(pt_rows) if pt_rows else np.zeros((0, 2))
    cols["held"] = marker(np.any(cols["point_across"] > 0.0))
    cols["barrier"] = marker(np.any(cols["point_barrier"] != 0.0))
    assert len(cols["stiffness"]) == n_seg
    return freeze_block(BeltBlock, cols)
