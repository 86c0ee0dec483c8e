"""Higher pairs of seed 000 (ADAMS PTCV and CVCV): a point sliding on a curve and a curve rolling
or sliding on a curve, both bilateral, on ``Curve`` geometry.

``PointOnCurve(name, marker_i, curve)``: the origin of marker I stays on ``curve`` (fixed to
another part, planar or spatial), free to slide along it: two CONSTRAINT_CURVE rows, the gaps
along the two normals of a frame fixed in the curve's part (``curve_rows``; for a planar curve
the in-plane normal and the plane's normal). A spatial curve needs a direction that keeps
``MIN_AXIS_ANGLE`` from all its tangents (a curve coiled so that its tangents point nearly
everywhere is refused).
``CurveOnCurve(name, curve, curve_b)``: the two curves stay in contact and tangent (a cam and
its follower): one CONSTRAINT_CURVE row, the gap along the common normal. As for ADAMS's CVCV,
the curves must lie in one plane and the other joints keep the motion in it. The contact must
stay within an open curve's ends (ADAMS stops there; here the end's parameter is held and the
row's acceleration term is no longer exact): give an open curve some length beyond the travel.

The curve parameters are eliminated (``occupant.constraints.curve_rows``): the contact point is
found by Newton's method inside each evaluation of the row, so the pairs add no coordinates and
the solver needs no special case; ADAMS instead integrates them as massless coordinates, which
would make the compiled tree carry coordinates that belong to no link.
"""
from dataclasses import dataclass

import numpy as np

from occupant.model.bundle import CONSTRAINT_CURVE
from occupant.model.model import ModelError
from occupant.modeling.curves import Curve
from occupant.modeling.elements import element_kind

MIN_AXIS_ANGLE = 10.0    # deg: the reference axis of a spatial curve's normal frame keeps this
                         # from every tangent ([E], chosen: |t x e| >= 0.17 keeps n_1 well defined)

@dataclass
class PointOnCurve:
    """The origin of ``marker_i`` stays on the curve ``curve`` (a Curve of another part)."""
    name: str
    marker_i: str
    curve: str

    @property
    def refs(self):
        return {"marker_i": self.marker_i, "curve": self.curve}


@dataclass
class CurveOnCurve:
    """The curves ``curve`` and ``curve_b`` (Curves of two parts) stay in contact, tangent."""
    name: str
    curve: str
    curve_b: str

    @property
    def refs(self):
        return {"curve": self.curve, "curve_b": self.curve_b}


def higher_pair_rows(model, asm, X_link_part, cols, names):
    """Append the rows of ``asm.higher_pairs`` to the ConstraintBlock columns ``cols`` (lists;
    the curves' tables to cols["curves"]) and their element names to ``names``."""
    headers = {}
    for pair in asm.higher_pairs.values():
        point = isinstance(pair, PointOnCurve)
        link_b, X_b, hb, part_b = _curve(model, asm, X_link_part, pair,
                                         "curve" if point else "curve_b", cols, headers)
        if point:
            marker = asm.markers[pair.marker_i]
            link_a, ha, part_a = int(model.body_link[model.body(marker.part)]), -1, marker.part
            point_a = (X_link_part[marker.part] @ marker.transform)[:3, 3]
        else:
            link_a, X_a, ha, part_a = _curve(model, asm, X_link_part, pair, "curve", cols, headers)
            point_a = X_a[:3, 3]
        if link_a == link_b:
            raise ModelError(f"{element_kind(pair)} '{pair.name}': both sides move as one rigid "
                             f"body (parts '{part_a}' and '{part_b}'); a pair joins two bodies")
        for h in ((-1, -2) if point else (ha,)):      # a point: the gaps along n_1, n_2
            _row(cols, names, pair.name, CONSTRAINT_CURVE, link_a, point_a, link_b, X_b[:3, 3],
                 X_b[:3, 2], (h, hb))


def _curve(model, asm, X_link_part, pair, key, cols, headers):
    """(link, curve frame in the link frame, header row in cols["curves"], part) of the curve
    named by ``pair.<key>``, which must be a Curve: planar for a curve-on-curve, with a
    reference axis for a point-on-curve."""
    name = getattr(pair, key)
    g = asm.geometries[name]
    what = f"{element_kind(pair)} '{pair.name}'.{key}"
    if not isinstance(g, Curve):
        raise ModelError(f"{what}: '{name}' is a {element_kind(g)}, not a curve")
    if isinstance(pair, CurveOnCurve) and not g.planar:
        rise = np.abs(g.sample(256)[:, 2]).max()
        raise ModelError(f"{what}: curve '{name}' is not planar (its points leave the x-y plane "
                         f"of marker '{g.marker}' by up to {rise:.3g} m); curve-on-curve takes "
                         f"curves in that plane")
    angle = g.reference_axis[1]
    if angle < MIN_AXIS_ANGLE:
        raise ModelError(f"{what}: curve '{name}' turns its tangent within {angle:.1f} deg of "
                         f"every direction, so no normal frame fixed in its part follows it "
                         f"smoothly; point-on-curve takes a curve whose tangents all keep "
                         f"{MIN_AXIS_ANGLE:g} deg from some direction")
    marker = asm.markers[g.marker]
    X = X_link_part[marker.part] @ marker.transform
    if name not in headers:
        headers[name] = len(cols["curves"])
        cols["curves"].extend(g.table(X))
    return int(model.body_link[model.body(marker.part)]), X, headers[name], marker.part


def _row(cols, names, name, kind, link_a, point_a, link_b, point_b, axis_b, curves):
    cols["curve"] += [(-1, -1)] * (len(cols["kind"]) - len(cols["curve"]))
    cols["kind"].append(kind)
    cols["link_a"].append(link_a)
    cols["point_a"].append(point_a)
    cols["axis_a"].append(np.zeros(3))
    cols["link_b"].append(link_b)
    cols["point_b"].append(point_b)
    cols["axis_b"].append(axis_b)
    cols["curve"].append(curves)
    names.append(name)
