"""A seat fitted to the occupant a posture places: the rule the seat files state ("the cushion
tangent to both [pelvis flesh and thighs] at N deg, its point kept at x = ...; the back moved
along its normal to touch the pelvis flesh"), as one procedure every seat file uses.

The cushion is a plane through the seat's lateral axis (y), its normal n(a) = (-sin a, 0, cos a)
for a cushion rising a toward the front. An ellipsoid's lowest point along n lies at
s(a) = n.c - |A R^T n| (occupant.scenario.placement.plane_gap with the plane through the
origin); the plane n.x = d lies under every ellipsoid when d <= s for each and touches one where
d = s. Tangent to the pelvis flesh and the thighs means s_pelvis(a) = min over the thighs of
s_thigh(a) = d: the thighs lie ahead of the pelvis (larger x), so s_pelvis - s_thigh grows with a
and the root is one (Brent's method). The thigh that sets the minimum touches; the other lies
on or above the plane. The plane's point keeps its x and takes z = (d - n_x x) / n_z. The back
keeps its angle and moves along its normal to touch the pelvis flesh. Where the cushion bears on
other surfaces of the pelvis than its flesh (the 5F's buttocks, branch dummyfit: the scenario's
contact pairs with ``seat_cushion``), the seat's lowest point is the lowest of theirs.

The parametric human (occupant.human.build) in a dummy's seat: its ``pelvis_flesh`` (the lower
trunk's volume) ends at the hip joint centres, and what it sits on is its ``buttock``, the tissue
under the ischial tuberosities, reaching 0.108 m below the hips as the Hybrid III 50M's pelvis
flesh reaches 0.110 m below its H-point (occupant/human/data/body_proportions.toml). A dummy's
scenario pairs the cushion with the pelvis flesh; a human in its place (``human_cushion``) has
its buttock paired there too, as GS1's deck pairs it (scenarios/validation/data/
gs1_sled_40_human.toml). Without it the human, placed with the buttock 2.8 mm into US NCAP's
cushion, sank until its pelvis flesh (92 mm above the cushion) and thighs took its weight: its
hips settled 57 mm below the dummy's (scenarios/validation/HISTORY.md, humanseat).

Command line (prints the planes' lines for the seat file):
``python -m occupant.scenario.seat_fit SCENARIO``; the scenario is loaded unsettled
(``occupant.settle = 0``), as the posture places its occupant.
"""
import sys

import numpy as np
from scipy.optimize import brentq

from occupant.scenario.placement import plane_gap

PELVIS = "pelvis_flesh"
HUMAN_BUTTOCK = "buttock"    # the parametric human's seat (occupant.human.builder)
SEAT_SURFACES = (PELVIS, HUMAN_BUTTOCK, "left_buttock", "right_buttock")   # the pelvis's, that a cushion may bear on
CUSHION = "seat_cushion"
THIGHS = ("left_thigh_shell", "right_thigh_shell")
ANGLE_RANGE = (np.radians(-10.0), np.radians(40.0))   # rad [E] cushions from tipped back to steep


def cushion_normal(angle):
    """Unit normal of a cushion rising ``angle`` (rad) toward the front (+x)."""
    return np.array([-np.sin(angle), 0.0, np.cos(angle)])


def lowest(model, q, geometry, normal):
    """s = n.c - |A R^T n|: the ellipsoid's lowest point along ``normal`` (m, plane through 0)."""
    return plane_gap(model, q, geometry, normal, np.zeros(3))


def tangent_cushion(seat, legs):
    """(angle rad, d) of the cushion n(angle).x = d tangent to ``seat`` and the lowest of ``legs``,
    each a function of a unit normal giving the body's lowest point s(n) along it (module
    docstring). ValueError when no angle in ANGLE_RANGE makes it tangent to both."""
    def difference(angle):
        n = cushion_normal(angle)
        return seat(n) - min(leg(n) for leg in legs)
    lo, hi = ANGLE_RANGE
    if difference(lo) * difference(hi) > 0:
        raise ValueError(f"no cushion between {np.degrees(lo):.0f} and {np.degrees(hi):.0f} deg "
                         "is tangent to both the seat and the legs")
    angle = brentq(difference, lo, hi, xtol=1e-12)
    return angle, seat(cushion_normal(angle))


def human_cushion(contacts):
    """The scenario's ``[[contact]]`` tables for a parametric human in the seat (module
    docstring): a pair of the cushion with the pelvis flesh (b = CUSHION, no name) names the
    human's buttock too, after it, unless it names it already."""
    out = []
    for table in contacts:
        a = table.get("a")
        a = [a] if isinstance(a, str) else a
        if (table.get("b") == CUSHION and "name" not in table
                and isinstance(a, list) and PELVIS in a and HUMAN_BUTTOCK not in a):
            at = a.index(PELVIS) + 1
            table = {**table, "a": a[:at] + [HUMAN_BUTTOCK] + a[at:]}
        out.append(table)
    return out


def on_cushion(model):
    """The pelvis's surfaces the model's ``seat_cushion`` bears on (SEAT_SURFACES paired with it;
    the pelvis flesh when none is)."""
    pairs = model.source.contact_pairs.values()
    found = [g for g in SEAT_SURFACES
             if any(p.geometry_a == g and p.geometry_b == CUSHION for p in pairs)]
    return tuple(found) or (PELVIS,)


def fit_cushion(model, q, x_point, seat=None, thighs=THIGHS):
    """(angle rad, point, normal) of the cushion tangent to the lowest of the ``seat``
    geometries (default ``on_cushion``) and the lowest of the ``thighs`` at configuration q, its
    point at x = ``x_point``."""
    geos = model.source.geometries
    support = lambda name: (lambda n: lowest(model, q, geos[name], n))    # noqa: E731
    seats = [support(g) for g in (seat or on_cushion(model))]
    angle, d = tangent_cushion(lambda n: min(f(n) for f in seats), [support(t) for t in thighs])
    n = cushion_normal(angle)
    return angle, np.array([x_point, 0.0, (d - n[0] * x_point) / n[2]]), n


def fit_back(model, q, point, normal, pelvis=PELVIS):
    """The back's point moved along its unit ``normal`` to touch the ``pelvis`` geometry."""
    normal = np.asarray(normal, float) / np.linalg.norm(normal)
    point = np.asarray(point, float)
    return point + plane_gap(model, q, model.source.geometries[pelvis], normal, point) * normal


def fitted_seat(scenario):
    """The seat of ``scenario`` (a loaded Scenario, unsettled) fitted by the rule: a dict of
    angle (deg), cushion point, normal, x_axis, back point, and the gaps (m) before and after."""
    m, q = scenario.model, scenario.q0
    surfaces = {s.name: s for s in scenario.interior.surfaces}
    cushion, back = surfaces[CUSHION], surfaces["seat_back"]
    angle, point, n = fit_cushion(m, q, float(cushion.point[0]))

    def gaps(p, normal, names=(*on_cushion(m), *THIGHS)):
        normal = np.asarray(normal, float) / np.linalg.norm(normal)
        geos = m.source.geometries
        return {g: plane_gap(m, q, geos[g], normal, np.asarray(p, float)) for g in names}
    return {"angle": np.degrees(angle), "point": point, "normal": n,
            "x_axis": np.array([n[2], 0.0, -n[0]]),
            "back_point": fit_back(m, q, back.point, back.normal),
            "before": gaps(cushion.point, cushion.normal), "after": gaps(point, n),
            "back_gap": gaps(back.point, back.normal, (PELVIS,))[PELVIS]}


def main(argv=None):
    from occupant.scenario.load import load
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m occupant.scenario.seat_fit SCENARIO", file=sys.stderr)
        return 2
    scenario = load(argv[0], overrides={"occupant.settle": 0.0})
    fit = fitted_seat(scenario)
    row = lambda v: "[" + ", ".join(f"{x:.4f}" for x in v) + "]"     # noqa: E731
    print(f"# cushion tangent to the seat ({', '.join(on_cushion(scenario.model))}) and thighs at "
          f"{fit['angle']:.2f} deg")
    for when in ("before", "after"):
        print(f"# gaps {when} (mm): "
              + ", ".join(f"{k} {1e3 * v:.2f}" for k, v in fit[when].items()))
    print(f"# back: pelvis flesh {1e3 * fit['back_gap']:.2f} mm off, moved along its normal")
    print(f"seat_cushion point = {row(fit['point'])}\nnormal = {row(fit['normal'])}\n"
          f"x_axis = {row(fit['x_axis'])}\nseat_back point = {row(fit['back_point'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
