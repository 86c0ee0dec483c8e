"""Gaps between the occupant's contact ellipsoids and the interior's planes, and the head
restraint placed at a stated backset from the seated occupant's head (``[vehicle] backset``, m).

Backset: FMVSS 202a limits the distance from the headform of the head restraint measurement
device (HRMD) to the head restraint to 55 mm [C: Reed et al., Traffic Inj. Prev. 2018, doi
10.1080/15389588.2018.1524889, abstract], with the seat back at the manufacturer's design angle
and as the mean of three measurements [C: 72 FR 25484, May 2007, summary]. The HRMD is mounted on
the SAE J826 H-point machine installed in the seat, its neck joint set to level the headform, and
a probe measures the horizontal setback to the restraint [C: sae-j826.com HRMD page; Parkinson
2007: "SAE J826 + HRMD"]. The IIHS / RCAR geometry rating takes the backset from the back of an
average-size male's head to the front of the restraint [C: IIHS Status Report 38(9), 2003],
measured before the dynamic test [C: RCAR-IIWPG protocol v3, 2008, section 2]. The backset is
thus one of the loaded seat with a seated 50th male's head; how closely the dummy's own head
must match it in the dynamic tests was not read [U]. A posture places the occupant where no seat
holds it (occupant.scenario.settle): settled, the Hybrid III 50M sinks into the seat back and
its head moves 9 mm rearward and 28 mm down, so a restraint placed on the posture's head is
closer to the seated head than stated. Here the occupant's own head is the measuring headform:

- at the starting configuration q (settled under gravity when ``occupant.settle`` > 0), the
  backset b is the smallest horizontal distance from the occupant's ellipsoids paired with the
  interior surface ``head_restraint`` to its plane: an ellipsoid of centre c, axes R and
  semi-axes A lies g = n.(c - p) - |A R^T n| from the plane (n, p) (its support along -n), and
  the horizontal distance is g / |n_h| along n's horizontal part n_h (the shortest horizontal
  way to a plane is along n_h); the face is taken as unbounded (its rectangle is not checked);
- the plane is moved horizontally along -n_h by (target - b) in the frame it rides in (B0 or
  a hinged seat back, at the pose it has in q), which changes the backset by exactly that,
  forward (b > target) or rearward (b < target, also b < 0: a head placed inside the
  restraint): the compiled pairs' plane points and the assembly's plane (what renders draw)
  move alike.
The restraint is placed for whoever sits in the seat: while the occupant settles it is moved
CLEAR rearward (``cleared``), so a head postured into it (the parametric human's braincase, 125
mm inside rear_whiplash's as postured) is not shoved forward; an occupant that settles without
touching it settles exactly as with it in place.
"""
import copy

import numpy as np

from occupant.model.bundle import frozen
from occupant.modeling import Ellipsoid
from occupant.modeling.geometry import placement

HEAD_RESTRAINT = "head_restraint"   # the interior surface a [vehicle] backset places
CLEAR = 1.0         # m the restraint moves rearward while the occupant settles [E: more than a
                    # head's length (about 0.2 m) past any postured head inside it and any settling]


class PlacementError(ValueError):
    """The head restraint cannot be placed at the stated backset (the loader names the key)."""


def marker_frame(model, q, marker):
    """(R, p) of ``marker`` in B0 at configuration q (B0 itself when marker is None) and the
    orientation of the link it rides on (the frame of the compiled contact geometry)."""
    from occupant.dynamics.api import link_poses
    if marker is None:
        return np.eye(3), np.zeros(3), np.eye(3)
    k = model.marker(marker)
    R, p = link_poses(model, model.make_data(), q)
    link = model.body_link[model.marker_body[k]]
    return R[link] @ model.marker_R[k], R[link] @ model.marker_p[k] + p[link], R[link]


def plane_gap(model, q, geometry, normal, point):
    """Signed distance (m, negative: penetrating) from the ellipsoid or sphere ``geometry`` at
    configuration q to the plane through ``point`` with unit ``normal`` (both in B0): its
    centre's distance minus its support |A R^T n| along the normal."""
    R_m, c_m, _ = marker_frame(model, q, geometry.marker)
    R_g, p_g = placement(geometry)
    R, c = R_m @ R_g, R_m @ p_g + c_m
    axes = geometry.semi_axes if isinstance(geometry, Ellipsoid) else np.full(3, geometry.radius)
    return float(normal @ (c - point) - np.linalg.norm(axes * (R.T @ normal)))


def head_restraint(model):
    """The head restraint plane and the occupant geometries paired with it (PlacementError when
    the model has none)."""
    asm = model.source
    plane = asm.geometries.get(HEAD_RESTRAINT)
    heads = [asm.geometries[p.geometry_a] for p in asm.contact_pairs.values()
             if p.geometry_b == HEAD_RESTRAINT]
    if plane is None:
        raise PlacementError(f"the interior has no surface {HEAD_RESTRAINT!r} to place")
    if not heads:
        raise PlacementError(f"no [[contact]] pairs the occupant with {HEAD_RESTRAINT!r} (b = "
                             f"{HEAD_RESTRAINT!r}, a = the head), so no head to measure from")
    return plane, heads


def measure_backset(model, q):
    """Backset (m) at configuration q and the unit horizontal direction n_h (B0) it is measured
    along (module docstring)."""
    plane, heads = head_restraint(model)
    R, p, _ = marker_frame(model, q, plane.marker)
    n, point = R @ plane.normal, R @ plane.point + p
    horizontal = np.hypot(n[0], n[1])
    if horizontal < 0.5:           # [E] a face turned more than 60 deg from upright
        raise PlacementError(f"the {HEAD_RESTRAINT!r} face turns {np.degrees(np.arccos(horizontal)):.0f} "
                             f"deg from upright: no horizontal backset to measure")
    gap = min(plane_gap(model, q, g, n, point) for g in heads)
    return gap / horizontal, np.array([n[0], n[1], 0.0]) / horizontal


def _shifted(model, q, shift):
    """A shallow copy of ``model`` whose contact pairs with the head restraint have their plane
    points moved by ``shift`` (B0, at configuration q), and the frame's rotation R_m that maps
    the shift into the plane's marker frame (for the assembly's plane)."""
    plane, _ = head_restraint(model)
    R_m, _, R_link = marker_frame(model, q, plane.marker)
    block = model.contacts
    rows = [i for i, name in enumerate(model.contact_names)
            if getattr(model.source.contact_pairs.get(name), "geometry_b", None) == HEAD_RESTRAINT]
    p_b, centre_b = np.array(block.p_b), np.array(block.centre_b)
    p_b[rows] += R_link.T @ shift
    centre_b[rows] += R_link.T @ shift
    out = copy.copy(model)
    out.contacts = block._replace(p_b=frozen(p_b), centre_b=frozen(centre_b))
    return out, R_m


def cleared(model, q):
    """A shallow copy of ``model`` with the head restraint CLEAR m further from the head at q
    (to settle in; the assembly's plane is not moved)."""
    _, along = measure_backset(model, q)
    return _shifted(model, q, -CLEAR * along)[0]


def place_head_restraint(model, q, target):
    """(model, backset before) with the head restraint moved forward or rearward so that its
    backset at q is ``target`` m: a shallow copy whose contact pairs with the restraint have
    their plane points moved; the assembly's plane (model.source) is moved with them."""
    plane, _ = head_restraint(model)
    before, along = measure_backset(model, q)
    shift = -(target - before) * along                     # B0: away from the head to enlarge it
    out, R_m = _shifted(model, q, shift)
    plane.point = plane.point + R_m.T @ shift
    return out, before
