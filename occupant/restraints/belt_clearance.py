"""How deep a belt's path passes into ellipsoids (a check of a run's belt, outside the step):
the path rebuilt from the belt's points alone, as ``occupant.restraints.belt`` places them.

A run of m wraps on one ellipsoid on its shortest path (``wrap_geometry.wrap_arc_point`` with no
place across the belt) lies, in the ellipsoid's scaled frame (the unit sphere), on the great
circle through the centre and its points, and its points divide the arc from one tangent point
to the other at the fractions i / (m + 1). From the fixed point F beside the run (an anchor, a
slip ring) the arc starts at F's tangent point, acos(1 / |F|) from F's direction towards the
first point; the spacing of the points then gives the arc's other end, which is the point the
next run's arc is seen from (``belt_path``). So a chain of runs between fixed points (GS1's
shoulder belt: D-ring, neck, shoulder, chest, buckle) is rebuilt whole: its straight pieces,
the arcs and the straight joins between runs. A
point carried by a part deflecting into its ellipsoid (a sternum) is taken on the surface (the
scaled point's direction). ``belt_depths`` does this for a run's belt at one sample, from the
points its producer recorded and the ellipsoids' poses (``ellipsoids_at``)."""
import numpy as np


def _scaled(x, ell):
    c, R, D = ell
    return (R.T @ (np.asarray(x, float) - c)) / D


def _unscaled(u, ell):
    c, R, D = ell
    return c + R @ (u * D)


def _arc(f, p, m):
    """The arc of a run (unit sphere) beside the fixed point f (scaled) through its first point
    p (scaled, taken on the sphere) of m: (unit vectors u, e of its plane, angle of the tangent
    point, angle of the far end), angles from u towards e."""
    u = f / np.linalg.norm(f)
    e = p / np.linalg.norm(p) - (p / np.linalg.norm(p) @ u) * u
    e /= np.linalg.norm(e)
    start = np.arccos(min(1.0, 1.0 / np.linalg.norm(f)))
    first = np.arctan2(p @ e, p @ u)
    return u, e, start, start + (m + 1) * (first - start)


def _touches(x, ell):
    """Whether a wrap point lies on (or, carried by a deflecting part, in) its ellipsoid: a
    wrap that does not touch has its point on the straight line past it."""
    return np.linalg.norm(_scaled(x, ell)) < 1.0 + 1e-6


def belt_path(points, samples=40):
    """The belt's path through ``points``, in belt order, each (x in B0, ellipsoid) with the
    ellipsoid (centre (3), axes R (3 x 3, columns), semi-axes (3)) for a wrap on its shortest
    path, None for a fixed point: (polyline (n, 3), index of the first point of the run whose
    ellipsoid each sample lies on, -1 on straight pieces). Each run is rebuilt from the fixed
    point before it, else from the end of the run before it (its straight piece to this run is
    tangent to both when the chain is solved), and the last from the fixed point after it; a
    run that does not touch is passed straight."""
    n = len(points)
    runs, k = [], 0
    while k < n:                                     # runs that touch: (first, count)
        if points[k][1] is None:
            k += 1
            continue
        m = 1
        while k + m < n and points[k + m][1] is points[k][1]:
            m += 1
        if _touches(points[k][0], points[k][1]):
            runs.append((k, m))
        k += m
    path, on = [np.asarray(points[0][0], float)], [-1]

    def straight(x):
        a = path[-1]
        for s in np.linspace(0.0, 1.0, samples + 1)[1:]:
            path.append(a + s * (np.asarray(x, float) - a))
            on.append(-1)

    for r, (first, m) in enumerate(runs):
        ell = points[first][1]
        if r == len(runs) - 1 and points[first + m][1] is None:
            f, p = _scaled(points[first + m][0], ell), _scaled(points[first + m - 1][0], ell)
            u, e, a1, a0 = _arc(f, p, m)
        else:
            f, p = _scaled(path[-1], ell), _scaled(points[first][0], ell)
            u, e, a0, a1 = _arc(f, p, m)
        arc = [_unscaled(np.cos(a) * u + np.sin(a) * e, ell) for a in np.linspace(a0, a1, samples + 1)]
        straight(arc[0])
        path.extend(arc)
        on.extend([first] * len(arc))
    straight(points[-1][0])
    return np.array(path), np.array(on)


def depth(x, ell):
    """How far the point x (B0) lies inside the ellipsoid, along its scaled radius (0 outside)."""
    c, R, D = ell
    local = R.T @ (np.asarray(x, float) - c)
    rho = np.linalg.norm(local / D)
    return 0.0 if rho >= 1.0 else float(np.linalg.norm(local) * (1.0 / max(rho, 1e-12) - 1.0))


def deepest(path, on, points, ellipsoids):
    """{name: the deepest any sample of the path (``belt_path``) lies inside that ellipsoid}
    over ``ellipsoids`` ({name: ellipsoid}); the samples of an arc on an ellipsoid are not
    checked against that ellipsoid (they lie on it)."""
    out = {}
    for name, ell in ellipsoids.items():
        worst = 0.0
        for x, k in zip(path, on):
            if k >= 0 and points[k][1] is ell:
                continue
            worst = max(worst, depth(x, ell))
        out[name] = worst
    return out


def ellipsoids_at(run, k, names):
    """{name: (centre, axes R, semi-axes)} of a run's ellipsoids ``names`` in B0 at sample k
    (``run``: an ``occupant.scenario.run.Run``), placed by the compiled model's markers: a
    limb's link frame is not its segment's frame, so the Assembly's marker offsets are not used."""
    model, src = run.model, run.model.source
    base = np.linalg.inv(run.results.base_poses[k])
    out = {}
    for name in names:
        i = model.marker(src.geometries[name].marker)
        P = base @ run.results.body_poses[k, model.marker_body[i]]
        out[name] = (P[:3, :3] @ model.marker_p[i] + P[:3, 3], P[:3, :3] @ model.marker_R[i],
                     np.asarray(src.geometries[name].semi_axes, float))
    return out


def belt_depths(run, belt, k, names):
    """{ellipsoid: how deep the run's belt ``belt`` lies inside it} at sample k, over ``names``:
    its path rebuilt from its recorded points (``belt_path``: straight pieces and arcs over its
    wraps); the arcs on an ellipsoid the belt wraps are not checked against it (``deepest``)."""
    points = run.model.source.belts[belt].points
    wrapped = {p.geometry for p in points if hasattr(p, "geometry")}
    E = ellipsoids_at(run, k, set(names) | wrapped)
    out = run.results.outputs
    chain = [(np.array([out[f"{belt}.{p.name}.{a}"][k] for a in "xyz"]),
              E[p.geometry] if hasattr(p, "geometry") else None) for p in points]
    path, on = belt_path(chain)
    return deepest(path, on, chain, {n: E[n] for n in names})
