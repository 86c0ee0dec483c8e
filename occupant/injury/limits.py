"""Regulatory and consumer-test limits, and scoring of criteria against them.

Tables, one `Protocol` per regulation or protocol and dummy, each `Limit` with its source and
a confidence tag (crash-domain-facts.md legend): **C** confirmed in a primary source, **S**
secondary (open-source implementation or manual citing the primary document), **U**
unverified -- check against the named document before using it as a pass/fail limit.

Criterion keys and units (SI, except accelerations, which the criteria define in g):

==============================  =======  ============================================
key                             unit     value from
==============================  =======  ============================================
hic15, hic36                    1        `hic` (window 0.015 / 0.036 s)
head_a3ms_g, chest_a3ms_g,      g        `clip3ms` (cumulative)
t12_a3ms_g
chest_deflection,               m        `chest_deflection` (compression, positive)
rib_deflection,
abdomen_deflection, knee_slider
vc                              m/s      `viscous_criterion`
nij                             1        `nij`
neck_tension, neck_compression, N        `neck_peaks`
neck_shear
neck_shear_positive,            N        `neck_peaks`: Fx's peaks apart, Fx (+) and Fx (-)
neck_shear_negative                      (max Fx >= 0, max -Fx >= 0)
neck_extension                  N*m      `neck_peaks` (negative, as in the protocols)
femur_compression,              N        `femur_force` and peak load cells
tibia_compression,
acetabulum_force, pubic_force,
abdominal_force, shoulder_force
tibia_index                     1        `tibia_index`
nic                             m^2/s^2  `nic` (rear impact)
nkm                             1        `nkm` (rear impact)
t1_acceleration_g,              g        peak T1 x acceleration (CFC 60), peak resultant
pelvis_acceleration_g                    pelvis acceleration (CFC 1000)
rebound_velocity                m/s      head's forward velocity relative to the sled
head_restraint_contact_time     s        first head-to-head-restraint contact
head_rotation_deg               deg      head-to-torso rearward rotation
*_duration                      N        a CriterionResult with
                                         ``details["exceedance"] = (durations, levels)``
==============================  =======  ============================================

Scoring. A ``max`` limit passes when |value| <= |limit|. A ``sliding`` limit (Euro NCAP) gives
``max_points`` at or better than the higher performance limit, 0 at or worse than the lower
one, and interpolates linearly between them [C: sliding-scale principle, old Euro NCAP
assessment text; S: pyisomme protocol v9.3]; the result "passes" unless it is capped (value
beyond the capping limit, which zeroes the body region) or, with no capping limit, worse
than the lower limit. A ``curve`` limit (UN R94, duration dependent) passes when the level
exceeded for every cumulative duration stays at or below the limit curve, linearly
interpolated between its points and constant after the last. All comparisons use magnitudes,
so extension moments given as negative numbers compare the same way as positive loads.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from occupant.injury.criteria import CriterionResult
from occupant.injury.errors import InjuryInputError

__all__ = ["Limit", "Protocol", "Assessment", "PROTOCOLS", "assess", "sliding_points"]

EURO_NCAP_MAX_POINTS = 4.0  # points per criterion before region minimum [S: pyisomme v9.3 reports]


@dataclass(frozen=True)
class Limit:
    criterion: str
    unit: str
    kind: str  # "max", "sliding" or "curve"
    limit: float | None = None  # max: pass/fail threshold
    higher: float | None = None  # sliding: higher performance limit (full points)
    lower: float | None = None  # sliding: lower performance limit (0 points)
    capping: float | None = None  # sliding: capping limit (region to 0)
    max_points: float | None = None
    curve: tuple = ()  # curve: ((duration s, level), ...)
    source: str = ""
    tag: str = "U"


@dataclass(frozen=True)
class Protocol:
    name: str
    dummy: str
    title: str
    limits: tuple
    source: str


@dataclass(frozen=True)
class Assessment:
    """One criterion judged against one limit: value, limit, pass/fail and points."""

    criterion: str
    value: float
    unit: str
    limit: float | None
    passed: bool
    points: float | None = None
    max_points: float | None = None
    capped: bool = False
    higher: float | None = None
    lower: float | None = None
    source: str = ""
    tag: str = ""
    details: dict = field(default_factory=dict)


def _max(criterion, unit, limit, source, tag):
    return Limit(criterion, unit, "max", limit=limit, source=source, tag=tag)


def _slide(criterion, unit, higher, lower, source, tag="S", capping=None):
    return Limit(criterion, unit, "sliding", higher=higher, lower=lower, capping=capping,
                 max_points=EURO_NCAP_MAX_POINTS, source=source, tag=tag)


def _curve(criterion, unit, points, source, tag):
    return Limit(criterion, unit, "curve", limit=points[0][1], curve=tuple(points), source=source, tag=tag)


_CFR208 = "49 CFR 571.208 (FMVSS 208)"
_EN_FW = "Euro NCAP full-width 50 km/h assessment protocol v9.3 (Dec 2023) via pyisomme"
_EN_MPDB = "Euro NCAP MPDB assessment protocol v9.3 (Dec 2023) via pyisomme"
_EN_SIDE = "Euro NCAP side (AE-MDB / pole) assessment protocol v9.3 via pyisomme"
_EN_WHIPLASH = ("Euro NCAP assessment protocol, adult occupant protection, rear impact (whiplash), "
                "medium-severity pulse, BioRID II; higher and lower performance limits from "
                "recollection of the v6.0 (2013) table, not read here")
_EN_WHIPLASH_2026 = ("Euro NCAP 2026 rating code (github.com/Euro-NCAP/euroncap_rating_2026, commit "
                     "94b1035, tests/crash_protection/test_file_score.py, the Rear-Mid rows of its "
                     "whiplash scoring table, higher / lower performance / capping limit: NIC 11 / "
                     "24 / 27, upper neck Fx (+) 30 / 190 / 290 N, upper neck Fz 360 / 750 / 900 N; "
                     "capping only for the others, upper neck Fx (-) 360 N among them)")
_CFR202A = "49 CFR 571.202a S5.3 (FMVSS 202a dynamic head-restraint option), via crash-domain-facts.md 2.3"

PROTOCOLS = {
    p.name: p
    for p in (
        Protocol(
            "fmvss208_hybrid3_50m", "hybrid3_50m", "FMVSS 208, Hybrid III 50th male (S6)",
            (
                _max("hic15", "1", 700.0, f"{_CFR208} S6.2", "C"),
                _max("chest_a3ms_g", "g", 60.0, f"{_CFR208} S6.3", "C"),
                _max("chest_deflection", "m", 0.063, f"{_CFR208} S6.4 (63 mm)", "U"),
                _max("femur_compression", "N", 10000.0, f"{_CFR208} S6.5 (2250 lbf)", "C"),
                _max("nij", "1", 1.0, f"{_CFR208} S6.6", "S"),
                _max("neck_tension", "N", 4170.0, f"{_CFR208} S6.6", "U"),
                _max("neck_compression", "N", 4000.0, f"{_CFR208} S6.6", "U"),
            ),
            _CFR208,
        ),
        Protocol(
            "fmvss208_hybrid3_05f", "hybrid3_05f", "FMVSS 208, Hybrid III 5th female (S15)",
            (
                _max("hic15", "1", 700.0, f"{_CFR208} S15.3.1", "U"),
                _max("chest_a3ms_g", "g", 60.0, f"{_CFR208} S15.3.2", "U"),
                _max("chest_deflection", "m", 0.052, f"{_CFR208} S15.3.3 (52 mm)", "U"),
                _max("femur_compression", "N", 6805.0, f"{_CFR208} S15.3.4", "U"),
                _max("nij", "1", 1.0, f"{_CFR208} S15.3.6", "S"),
                _max("neck_tension", "N", 2620.0, f"{_CFR208} S15.3.6", "U"),
                _max("neck_compression", "N", 2520.0, f"{_CFR208} S15.3.6", "U"),
            ),
            _CFR208,
        ),
        Protocol(
            "euroncap_fw50_hybrid3_05f", "hybrid3_05f",
            "Euro NCAP full-width 50 km/h rigid wall, Hybrid III 5th female",
            (
                _slide("hic15", "1", 500.0, 700.0, _EN_FW, capping=700.0),
                _slide("head_a3ms_g", "g", 72.0, 80.0, _EN_FW, capping=80.0),
                _slide("neck_tension", "N", 1700.0, 2620.0, _EN_FW, capping=2900.0),
                _slide("neck_shear", "N", 1200.0, 1950.0, _EN_FW, capping=2700.0),
                _slide("neck_extension", "N*m", -36.0, -49.0, _EN_FW, capping=-57.0),
                _slide("chest_deflection", "m", 0.018, 0.034, _EN_FW, capping=0.034),
                _slide("vc", "m/s", 0.5, 1.0, _EN_FW, capping=1.0),
                _slide("femur_compression", "N", 2600.0, 6200.0, _EN_FW),
            ),
            _EN_FW,
        ),
        Protocol(
            "euroncap_mpdb_thor_50m", "thor_50m", "Euro NCAP MPDB 50+50 km/h, THOR-50M driver",
            (
                _slide("hic15", "1", 500.0, 700.0, _EN_MPDB),
                _slide("head_a3ms_g", "g", 72.0, 80.0, _EN_MPDB),
                _slide("neck_tension", "N", 2700.0, 3300.0, _EN_MPDB),
                _slide("neck_shear", "N", 1900.0, 3100.0, _EN_MPDB),
                _slide("neck_extension", "N*m", -42.0, -57.0, _EN_MPDB),
                _slide("chest_deflection", "m", 0.035, 0.060, _EN_MPDB, capping=0.060),
                _max("abdomen_deflection", "m", 0.088, _EN_MPDB, "S"),
                _slide("acetabulum_force", "N", 3280.0, 4100.0, _EN_MPDB),
                _slide("femur_compression", "N", 3800.0, 9070.0, _EN_MPDB),
                # lower limit falls from 9.07 kN (0 ms) to 7.56 kN (>= 10 ms) [S]
                _curve("femur_compression_duration", "N", ((0.0, 9070.0), (0.010, 7560.0)), _EN_MPDB, "S"),
                _slide("knee_slider", "m", 0.006, 0.015, _EN_MPDB),
                _slide("tibia_index", "1", 0.4, 1.3, _EN_MPDB),
            ),
            _EN_MPDB,
        ),
        Protocol(
            "euroncap_side_aemdb_worldsid_50m", "worldsid_50m", "Euro NCAP AE-MDB 60 km/h, WorldSID-50M",
            (
                _slide("rib_deflection", "m", 0.028, 0.050, _EN_SIDE, capping=0.050),
            ),
            _EN_SIDE,
        ),
        Protocol(
            "euroncap_side_pole_worldsid_50m", "worldsid_50m", "Euro NCAP oblique pole 32 km/h, WorldSID-50M",
            (
                _max("hic15", "1", 700.0, f"{_EN_SIDE} (capping only)", "S"),
                _max("head_a3ms_g", "g", 80.0, f"{_EN_SIDE} (capping only)", "S"),
                _slide("rib_deflection", "m", 0.028, 0.050, _EN_SIDE, capping=0.055),
                _slide("abdomen_deflection", "m", 0.047, 0.065, _EN_SIDE),
                _slide("pubic_force", "N", 1700.0, 2800.0, _EN_SIDE),
            ),
            _EN_SIDE,
        ),
        Protocol(
            # the dynamic head-restraint test of FMVSS 202a: Hybrid III 50M on a rear-impact sled
            "fmvss202a_hybrid3_50m", "hybrid3_50m", "FMVSS 202a dynamic head restraint, Hybrid III 50th male",
            (
                _max("hic15", "1", 500.0, _CFR202A, "C"),
                _max("head_rotation_deg", "deg", 12.0, f"{_CFR202A} (head-to-torso rearward rotation)", "C"),
            ),
            _CFR202A,
        ),
        Protocol(
            # Euro NCAP whiplash seat test, medium pulse (16 km/h): sliding scales between the
            # higher and lower performance limits, [U] but those of NIC and the upper neck's
            # Fx (+) and Fz; capping limits [S] from _EN_WHIPLASH_2026; the dummy is the BioRID
            # II, so a Hybrid III run shows these values without being judged
            "euroncap_whiplash_medium_biorid2", "biorid2",
            "Euro NCAP whiplash, medium pulse, BioRID II",
            (
                _slide("nic", "m^2/s^2", 11.0, 24.0, _EN_WHIPLASH_2026, capping=27.0),
                # upper neck shear, the neck pushing the head forward (Fx (+), the head lagging
                # behind the torso) and backward (Fx (-), capping only), and tension (Fz) [the
                # signs read as J211's, the load on the head, U: the table names the sign only]
                _slide("neck_shear_positive", "N", 30.0, 190.0, _EN_WHIPLASH_2026, capping=290.0),
                _max("neck_shear_negative", "N", 360.0, f"{_EN_WHIPLASH_2026} (capping only)", "S"),
                _slide("neck_tension", "N", 360.0, 750.0, _EN_WHIPLASH_2026, capping=900.0),
                _slide("nkm", "1", 0.15, 0.55, _EN_WHIPLASH, tag="U", capping=0.69),
                _slide("rebound_velocity", "m/s", 3.2, 4.8, _EN_WHIPLASH, tag="U", capping=5.2),
                _slide("t1_acceleration_g", "g", 9.3, 13.1, _EN_WHIPLASH, tag="U", capping=15.55),
                _slide("head_restraint_contact_time", "s", 0.053, 0.080, _EN_WHIPLASH, tag="U",
                       capping=0.092),
            ),
            _EN_WHIPLASH,
        ),
        Protocol(
            "un_r137_hybrid3_50m", "hybrid3_50m", "UN R137 full-width 50 km/h, Hybrid III 50M driver",
            (
                # R137 uses HPC36 (HIC36 while the head is in contact) [S: pyisomme report/un]
                _max("hic36", "1", 1000.0, "UN R137 (HPC36) via pyisomme", "S"),
                _max("head_a3ms_g", "g", 80.0, "UN R137 via pyisomme", "S"),
                _max("neck_tension", "N", 3300.0, "UN R137 via pyisomme", "S"),
                _max("neck_shear", "N", 3100.0, "UN R137 via pyisomme", "S"),
                _max("neck_extension", "N*m", -57.0, "UN R137 via pyisomme", "S"),
                _max("chest_deflection", "m", 0.042, "UN R137 via pyisomme", "S"),
                _max("vc", "m/s", 1.0, "UN R137 via pyisomme", "S"),
                _max("femur_compression", "N", 9070.0, "UN R137 via pyisomme", "S"),
            ),
            "UN Regulation No. 137",
        ),
        Protocol(
            "un_r137_hybrid3_05f", "hybrid3_05f", "UN R137 full-width 50 km/h, Hybrid III 5F passenger",
            (
                _max("hic36", "1", 1000.0, "UN R137 (HPC36), as for the 50M", "U"),
                _max("head_a3ms_g", "g", 80.0, "UN R137, as for the 50M", "U"),
                _max("neck_tension", "N", 2900.0, "UN R137 via pyisomme", "S"),
                # shear 2.9 kN: verify against the R137 series in force
                _max("neck_shear", "N", 2900.0, "UN R137 via pyisomme", "U"),
                # 34 mm in the later series (42 mm in the 2016 series)
                _max("chest_deflection", "m", 0.034, "UN R137 later series via pyisomme", "S"),
                _max("femur_compression", "N", 7000.0, "UN R137 via pyisomme", "S"),
            ),
            "UN Regulation No. 137",
        ),
        Protocol(
            "un_r94_hybrid3_50m", "hybrid3_50m", "UN R94 offset deformable barrier 56 km/h, Hybrid III 50M",
            (
                _max("hic36", "1", 1000.0, "UN R94 (HPC36) via pyisomme", "S"),
                _max("head_a3ms_g", "g", 80.0, "UN R94 via pyisomme", "S"),
                _curve("neck_tension_duration", "N", ((0.0, 3300.0), (0.035, 2900.0), (0.060, 1100.0)),
                       "UN R94 neck tension criterion via pyisomme", "S"),
                _curve("neck_shear_duration", "N",
                       ((0.0, 3100.0), (0.025, 1500.0), (0.035, 1500.0), (0.045, 1100.0)),
                       "UN R94 neck shear criterion via pyisomme", "S"),
                _max("neck_extension", "N*m", -57.0, "UN R94 via pyisomme", "S"),
                _max("chest_deflection", "m", 0.042, "UN R94 (ThCC) via pyisomme", "S"),
                _max("vc", "m/s", 1.0, "UN R94 via pyisomme", "S"),
                _curve("femur_compression_duration", "N", ((0.0, 9070.0), (0.010, 7580.0)),
                       "UN R94 femur force criterion via pyisomme", "S"),
                _max("tibia_compression", "N", 8000.0, "UN R94 via pyisomme", "S"),
                _max("tibia_index", "1", 1.3, "UN R94 via pyisomme", "S"),
                _max("knee_slider", "m", 0.015, "UN R94 via pyisomme", "S"),
            ),
            "UN Regulation No. 94",
        ),
        Protocol(
            "un_r95_es2", "es2", "UN R95 mobile deformable barrier 50 km/h, ES-2",
            (
                _max("rib_deflection", "m", 0.042, "UN R95 via pyisomme", "S"),
                _max("vc", "m/s", 1.0, "UN R95 via pyisomme", "S"),
                _max("abdominal_force", "N", 2500.0, "UN R95 via pyisomme", "S"),
            ),
            "UN Regulation No. 95",
        ),
        Protocol(
            "un_r135_worldsid_50m", "worldsid_50m", "UN R135 pole 32 km/h, WorldSID-50M",
            (
                _max("hic36", "1", 1000.0, "UN R135 via pyisomme", "S"),
                _max("shoulder_force", "N", 3000.0, "UN R135 via pyisomme", "S"),
                _max("rib_deflection", "m", 0.055, "UN R135 via pyisomme", "S"),
                _max("abdomen_deflection", "m", 0.065, "UN R135 via pyisomme", "S"),
                _max("t12_a3ms_g", "g", 75.0, "UN R135 via pyisomme", "S"),
                _max("pubic_force", "N", 3360.0, "UN R135 via pyisomme", "S"),
            ),
            "UN Regulation No. 135",
        ),
    )
}


def sliding_points(value: float, higher: float, lower: float, max_points: float = EURO_NCAP_MAX_POINTS) -> float:
    """Points on a linear sliding scale: ``max_points`` at |value| <= |higher|, 0 at
    |value| >= |lower|, linear in between."""
    v, hi, lo = abs(value), abs(higher), abs(lower)
    if lo <= hi:
        raise InjuryInputError(f"lower: the lower performance limit {lower!r} must be worse (larger in magnitude) than the higher one {higher!r}")
    return float(np.clip(max_points * (lo - v) / (lo - hi), 0.0, max_points))


def _curve_at(curve, durations):
    d = np.array([p[0] for p in curve])
    lv = np.array([p[1] for p in curve])
    return np.interp(durations, d, lv, left=lv[0], right=lv[-1])


def _value_of(item):
    if isinstance(item, CriterionResult):
        return float(item.value)
    try:
        return float(item)
    except (TypeError, ValueError):
        raise InjuryInputError(f"values: expected numbers or CriterionResult objects, got {item!r}")


def assess(protocol: str, values: dict) -> list:
    """Judge criterion values against a protocol's limits.

    ``values`` maps criterion keys (module docstring) to numbers or CriterionResults; for
    ``*_duration`` keys give a CriterionResult with ``details["exceedance"]`` (from
    `neck_peaks` or `femur_force`). Criteria not in ``values`` are skipped. Returns one
    `Assessment` per judged limit.
    """
    if protocol not in PROTOCOLS:
        raise InjuryInputError(f"protocol: unknown protocol {protocol!r} (accepted: {', '.join(PROTOCOLS)})")
    if not isinstance(values, dict):
        raise InjuryInputError("values: expected a dict criterion key -> value")
    proto = PROTOCOLS[protocol]
    known = {lim.criterion for lim in proto.limits}
    unknown = set(values) - known
    if unknown:
        raise InjuryInputError(
            f"values: criterion {sorted(unknown)[0]!r} has no limit in {protocol} "
            f"(accepted: {', '.join(sorted(known))})"
        )
    out = []
    for lim in proto.limits:
        if lim.criterion not in values:
            continue
        item = values[lim.criterion]
        common = dict(criterion=lim.criterion, unit=lim.unit, source=lim.source, tag=lim.tag)
        if lim.kind == "curve":
            if not isinstance(item, CriterionResult) or "exceedance" not in item.details:
                raise InjuryInputError(
                    f"values[{lim.criterion!r}]: a duration-dependent limit needs a CriterionResult "
                    f"with details['exceedance'] (from neck_peaks or femur_force)"
                )
            durations, levels = item.details["exceedance"]
            allowed = _curve_at(lim.curve, np.asarray(durations))
            margin = allowed - np.abs(np.asarray(levels))
            worst = int(np.argmin(margin)) if margin.size else 0
            out.append(Assessment(value=float(item.value), limit=lim.limit, passed=bool(np.all(margin >= 0.0)),
                                  details={"worst_duration": float(durations[worst]) if margin.size else None,
                                           "worst_margin": float(margin[worst]) if margin.size else None},
                                  **common))
            continue
        v = _value_of(item)
        if lim.kind == "max":
            out.append(Assessment(value=v, limit=lim.limit, passed=abs(v) <= abs(lim.limit), **common))
        else:
            pts = sliding_points(v, lim.higher, lim.lower, lim.max_points)
            capped = lim.capping is not None and abs(v) > abs(lim.capping)
            passed = (not capped) if lim.capping is not None else abs(v) <= abs(lim.lower)
            out.append(Assessment(value=v, limit=lim.lower, passed=passed, points=pts, max_points=lim.max_points,
                                  capped=capped, higher=lim.higher, lower=lim.lower, **common))
    return out
