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
  interior surface ``head_restraint`` to it;
- a plane: an ellipsoid of centre c, axes R and semi-axes A lies g = n.(c - p) - |A R^T n| from
  the plane (n, p) (its support along -n), and the horizontal distance is g / |n_h| along n's
  horizontal part n_h (the shortest horizontal way to a plane is along n_h); the face is taken
  as unbounded (its rectangle is not checked);
- a box, cylinder, sphere or ellipsoid (the shapes whiplash models give a head restraint): the
  distance along B0's x (forward, FORWARD) the restraint moves before it touches the ellipsoid,
  each pair's root s of its clearance c(s) = -d (d the pair's narrow-phase penetration at the
  restraint moved s along x, occupant.contact.compliant.signed_distances: exact for these
  shapes) by secant steps from CLEAR rearward, where no head reaches. c(s) is convex in s (the
  signed distance from s x to the Minkowski difference of the two convex sets), so the steps
  from two points before the root never pass it and stop at it (SWEPT_TOL); a restraint whose
  clearance stops falling never meets that ellipsoid moving forward (beside, above or in front
  of it). A mesh is refused (its narrow phase gives no distance while apart);
- the restraint is moved horizontally along -n_h (a plane) or -x (a solid) by (target - b) in
  the frame it rides in (B0 or a hinged seat back, at the pose it has in q), which changes the
  backset by exactly that, forward (b > target) or rearward (b < target, also b < 0: a head
  placed inside the restraint): the compiled pairs' points (the frame origin each narrow phase
  places its shape by, as an intrusion moves it: occupant.scenario.intrusion), their bounding
  spheres with the broad phase's sweep, and the assembly's surface (what renders draw) move
  alike; so does the hinge of an intrusion that turns the restraint alone (an active head
  restraint's own mechanism, ``_own_turns``), not one that turns other surfaces with it.
The restraint is placed for whoever sits in the seat: while the occupant settles it is moved
CLEAR rearward (``cleared``), so a head postured into it (the parametric human's braincase, 125
mm inside rear_whiplash's as postured) is not shoved forward; an occupant that settles without
touching it settles exactly as with it in place.
"""
import copy

import numpy as np

from occupant.model.bundle import frozen
from occupant.modeling import Ellipsoid, Mesh, Plane
from occupant.modeling.geometry import placement

HEAD_RESTRAINT = "head_restraint"   # the interior surface a [vehicle] backset places
CLEAR = 1.0         # m the restraint moves rearward while the occupant settles [E: more than a
                    # head's length (about 0.2 m) past any postured head inside it and any settling]
FORWARD = np.array([1.0, 0.0, 0.0])   # B0's x: a solid restraint's backset is measured along it
SWEPT_TOL = 1e-13   # m, a solid restraint's clearance at its backset [E: rounding of 1 m positions]
SWEPT_STEPS = 100   # secant steps at most [E: superlinear; 1 to 6 in tests/scenario/test_placement.py]


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
    """The head restraint surface and the occupant geometries paired with it (PlacementError when
    the model has none, or a mesh)."""
    asm = model.source
    surface = asm.geometries.get(HEAD_RESTRAINT)
    heads = [asm.geometries[p.geometry_a] for p in asm.contact_pairs.values()
             if p.geometry_b == HEAD_RESTRAINT]
    if surface is None:
        raise PlacementError(f"the interior has no surface {HEAD_RESTRAINT!r} to place")
    if isinstance(surface, Mesh):
        raise PlacementError(f"the {HEAD_RESTRAINT!r} surface is a mesh, whose contact gives no "
                             "distance to the head while apart: no backset to measure")
    if not heads:
        raise PlacementError(f"no [[contact]] pairs the occupant with {HEAD_RESTRAINT!r} (b = "
                             f"{HEAD_RESTRAINT!r}, a = the head), so no head to measure from")
    return surface, heads


def measure_backset(model, q):
    """Backset (m) at configuration q and the unit horizontal direction (B0) it is measured
    along (module docstring)."""
    surface, heads = head_restraint(model)
    if not isinstance(surface, Plane):
        return _swept_backset(model, q), FORWARD.copy()
    R, p, _ = marker_frame(model, q, surface.marker)
    n, point = R @ surface.normal, R @ surface.point + p
    horizontal = np.hypot(n[0], n[1])
    if horizontal < 0.5:           # [E] a face turned more than 60 deg from upright
        raise PlacementError(f"the {HEAD_RESTRAINT!r} face turns {np.degrees(np.arccos(horizontal)):.0f} "
                             f"deg from upright: no horizontal backset to measure")
    gap = min(plane_gap(model, q, g, n, point) for g in heads)
    return gap / horizontal, np.array([n[0], n[1], 0.0]) / horizontal


def _rows(model):
    """The compiled contact pairs' rows with the head restraint as their geometry b."""
    return [i for i, name in enumerate(model.contact_names)
            if getattr(model.source.contact_pairs.get(name), "geometry_b", None) == HEAD_RESTRAINT]


def _clearances(model, q, rows, shifts):
    """Each row's clearance (m, -d of its narrow phase) with the restraint of that row alone
    moved by its shift (rows, 3: B0)."""
    from occupant.contact.compliant import signed_distances
    moved, _ = _shifted(model, q, shifts, rows)
    d = signed_distances(moved, q)
    return -np.array([d[moved.contact_names[i]] for i in rows])


def _swept_backset(model, q):
    """A solid restraint's backset (module docstring): the smallest forward move along x that
    brings it onto one of the head's ellipsoids, by secant steps on each pair's clearance."""
    rows = _rows(model)
    s0, s1 = np.full(len(rows), -CLEAR), np.full(len(rows), -0.5 * CLEAR)
    c0 = _clearances(model, q, rows, s0[:, None] * FORWARD)
    c1 = _clearances(model, q, rows, s1[:, None] * FORWARD)
    live = np.ones(len(rows), bool)      # rows still stepping
    meets = np.ones(len(rows), bool)     # rows whose restraint meets their ellipsoid
    for _ in range(SWEPT_STEPS):
        slope = np.where(live, (c1 - c0) / np.where(live, s1 - s0, 1.0), -1.0)
        meets &= ~(live & (slope >= 0.0) & (c1 > SWEPT_TOL))   # its clearance stopped falling
        live &= meets & (np.abs(c1) > SWEPT_TOL)
        if not live.any():
            break
        step = np.where(live, -c1 / slope, 0.0)
        s0, c0 = np.where(live, s1, s0), np.where(live, c1, c0)
        s1 = s1 + step
        c1 = np.where(live, _clearances(model, q, rows, s1[:, None] * FORWARD), c1)
        live &= step != 0.0
    else:
        raise PlacementError(f"the {HEAD_RESTRAINT!r} surface's gap to the head did not converge "
                             f"in {SWEPT_STEPS} steps")
    if not meets.any():
        raise PlacementError(f"moved forward along x, the {HEAD_RESTRAINT!r} surface meets none of "
                             "the head's ellipsoids paired with it: it is not behind the head")
    return float(np.min(s1[meets]))


def _shifted(model, q, shift, rows=None):
    """A shallow copy of ``model`` whose contact pairs with the head restraint (or ``rows`` of
    them) have their geometry b moved by ``shift`` (3, or one per row: B0, at configuration q):
    its frame origin and bounding sphere, with the broad phase's sweep built again from them;
    and the frame's rotation R_m that maps the shift into the surface's marker frame (for the
    assembly's surface)."""
    from occupant.contact.broad_phase import sweep_arrays
    surface, _ = head_restraint(model)
    R_m, _, R_link = marker_frame(model, q, surface.marker)
    block = model.contacts
    rows = _rows(model) if rows is None else rows
    p_b, centre_b = np.array(block.p_b), np.array(block.centre_b)
    delta = (R_link.T @ np.transpose(shift)).T     # (3,) or (rows, 3): link frame
    p_b[rows] += delta
    centre_b[rows] += delta
    hinge = np.array(block.mover_hinge)
    if np.ndim(shift) == 1:                  # the whole restraint moved: its own hinges with it
        hinge[_own_turns(model, rows), :3] += delta
    sweep = sweep_arrays(block.link_a, block.p_a, block.bound_a, block.link_b, centre_b,
                         block.bound_b, block.mover_b, broad_phase=bool(block.sweep))
    sweep = {k: v if isinstance(v, int) else frozen(v, integer=v.dtype.kind == "i")
             for k, v in sweep.items()}
    out = copy.copy(model)
    out.contacts = block._replace(p_b=frozen(p_b), centre_b=frozen(centre_b),
                                  mover_hinge=frozen(hinge), **sweep)
    return out, R_m


def _own_turns(model, rows):
    """Indices of the turning surface motions that move the pairs ``rows`` and no other pair:
    an active head restraint's own mechanism, whose hinge the placement moves with it (a motion
    moving other surfaces too, a seat back turning with its restraint, turns about a hinge of
    the structure, which stays)."""
    block = model.contacts
    movers = np.asarray(block.mover_b)
    mine = set(movers[rows]) - {-1}
    return [int(m) for m in sorted(mine)
            if block.mover_spin_len[m] > 0 and set(np.flatnonzero(movers == m)) <= set(rows)]


def cleared(model, q):
    """A shallow copy of ``model`` with the head restraint CLEAR m further from the head at q
    (to settle in; the assembly's surface is not moved)."""
    surface, _ = head_restraint(model)
    along = measure_backset(model, q)[1] if isinstance(surface, Plane) else FORWARD
    return _shifted(model, q, -CLEAR * along)[0]


def place_head_restraint(model, q, target):
    """(model, backset before) with the head restraint moved forward or rearward so that its
    backset at q is ``target`` m: a shallow copy whose contact pairs with the restraint have
    their geometry b moved; the assembly's surface (model.source) is moved with them."""
    surface, _ = head_restraint(model)
    before, along = measure_backset(model, q)
    shift = -(target - before) * along                     # B0: away from the head to enlarge it
    out, R_m = _shifted(model, q, shift)
    motions = list(model.source.surface_motions.values())
    for m in _own_turns(model, _rows(model)):        # the report draws it turning there too
        motions[m].axis_point = motions[m].axis_point + R_m.T @ shift
    if isinstance(surface, Plane):
        surface.point = surface.point + R_m.T @ shift
    else:
        surface.position = surface.position + R_m.T @ shift
    return out, before
