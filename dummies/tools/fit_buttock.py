"""Fits the Hybrid III 5F's buttocks, the pair of ellipsoids on her pelvis the seat cushion bears
on, to the underside of her open FE deck's pelvis skin (run: PYTHONPATH=. python
dummies/tools/fit_buttock.py DECK.rad); prints the figures dummies/tools/derive_hybrid3.py
carries (BUTTOCK_05F). Not imported by the package; the deck is not in the repository
(OpenRadioss ModelExchange Safety/Hybrid_III_05th_Percentile/Hybrid_III_05TH_0000.rad, commit
86dbea3, CC BY-NC 4.0: facts only).

Method (branch dummyfit, scenarios/HISTORY.md):
  1. Her pelvis frame: origin the H-point node 15003990, axes those of the /HPOINT skew 15000031
     (x along N1-N2, forward), y to her left, z up (derive_hybrid3.py MARKERS_05F).
  2. The skin's underside: the lowest crossing of a downward line from (x, y, 0) with the faces
     of the pelvis skin, parts 15000037 (shell) and 15000058 (bricks), on a STEP mm grid (x from
     X_BACK to X_FRONT, y from 0 to Y_OUT: her left; the right its mirror image).
  3. One ellipsoid at (cx, cy, cz), pitched about y (+ front down, the dummy files' orient),
     and its mirror image at -cy: least squares on z of the lower of the two under each grid
     point (a point outside both footprints misses by its depth below the centre), the front
     at most at the skin's seam with the thighs (SEAM) and the outer side within the skin's
     greatest half-width (HALF_WIDTH).
"""
import argparse
import math

import numpy as np
from scipy.optimize import minimize

H_POINT, SKEW = 15003990, (15003990, 15004038, 15004039)   # node; /SKEW/MOV 15000031's N1 N2 N3
PARTS = (15000037, 15000058)     # pelvis skin, shell and solid
X_BACK, X_FRONT, Y_OUT, STEP = -100.0, 80.0, 140.0, 10.0   # mm: behind the ischia to the seam
SEAM, HALF_WIDTH = 92.0, 152.0   # mm: the skin's seam with the thighs' (x 87-92), its half-width
HEX_FACES = ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7))


def _sibling(name):
    """A module of this folder (dummies/tools is no package), loaded by its path."""
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def pelvis_triangles(path):
    """(n, 3, 3) mm: the pelvis skin's faces, triangulated, in her pelvis frame."""
    cards = _sibling("fit_foot").read_cards(path)
    nodes = {int(l.split()[0]): np.array([float(v) for v in l.split()[1:4]]) for l in cards[("NODE",)]}
    n1, n2, n3 = (nodes[i] for i in SKEW)
    x = (n2 - n1) / np.linalg.norm(n2 - n1)
    z = np.cross(x, n3 - n1)
    z /= np.linalg.norm(z)
    R = np.vstack([x, -np.cross(z, x), -z])        # the skew's y and z point right and down
    tris = []
    for key, lines in cards.items():
        if len(key) < 2 or key[0] not in ("SHELL", "SH3N", "BRICK") or int(key[1]) not in PARTS:
            continue
        for line in lines:
            ids = [int(v) for v in line.split()[1:]]
            for face in ([[ids[i] for i in f] for f in HEX_FACES] if key[0] == "BRICK" else [ids]):
                f = list(dict.fromkeys(face))
                tris += [[nodes[f[0]], nodes[f[k]], nodes[f[k + 1]]] for k in range(1, len(f) - 1)]
    return (np.array(tris) - nodes[H_POINT]) @ R.T


def lowest_crossings(tris, points):
    """z (mm) of the lowest crossing of a downward line from each (x, y, 0) with the triangles
    (Moller-Trumbore); nan where the line misses them."""
    e1, e2 = tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0]
    down = np.array([0.0, 0.0, -1.0])
    p = np.cross(down, e2)
    det = np.einsum("ij,ij->i", e1, p)
    ok = np.abs(det) > 1e-12
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    out = []
    for x, y in points:
        s = np.array([x, y, 0.0]) - tris[:, 0]
        u = np.einsum("ij,ij->i", s, p) * inv
        q = np.cross(s, e1)
        v = (q @ down) * inv
        t = np.einsum("ij,ij->i", e2, q) * inv
        hit = ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t >= 0)
        out.append(-t[hit].max() if hit.any() else np.nan)
    return np.array(out)


def underside(tris):
    """(n, 3) mm: the skin's underside on the method's grid (its left half), misses dropped."""
    x, y = np.meshgrid(np.arange(X_BACK, X_FRONT + 0.5 * STEP, STEP), np.arange(0.0, Y_OUT + 0.5 * STEP, STEP),
                       indexing="ij")
    xy = np.c_[x.ravel(), y.ravel()]
    z = lowest_crossings(tris, xy)
    keep = ~np.isnan(z)
    return np.c_[xy[keep], z[keep]]


def bottom(center, semi, pitch, x, y):
    """z (mm) of the lower surface of an ellipsoid pitched about y (+ front down) over (x, y);
    nan outside its footprint."""
    axes = _sibling("fit_foot")._axes(pitch)
    A = axes.T / np.asarray(semi)[:, None]          # scaled local coordinates = A (p - centre)
    p0 = np.c_[x - center[0], y - center[1], np.full_like(x, -center[2])] @ A.T
    w = A[:, 2]
    a, b, c = w @ w, 2.0 * p0 @ w, np.einsum("ij,ij->i", p0, p0) - 1.0
    disc = b * b - 4.0 * a * c
    return np.where(disc >= 0.0, (-b - np.sqrt(np.clip(disc, 0.0, None))) / (2.0 * a), np.nan)


def pair_misses(center, semi, pitch, points):
    """Each underside point's miss (mm, + the pair's surface above the skin) by the lower of the
    ellipsoid and its mirror image; outside both footprints, the point's depth below the centre."""
    x, y, z = points.T
    zs = [bottom(center * np.array([1.0, s, 1.0]), semi, pitch, x, y) for s in (1.0, -1.0)]
    low = np.fmin(*zs)
    return np.where(np.isnan(low), center[2] - z, low - z)


def fit_pair(points):
    """(centre, semi, pitch rad, rms mm) of the pair fitted to the underside points."""
    def unpack(v):
        return np.array(v[:3]), np.array(v[3:6]), v[6]

    def cost(v):
        return np.mean(pair_misses(*unpack(v), points) ** 2)

    def front(v):
        c, s, p = unpack(v)
        return SEAM - (c[0] + math.hypot(s[0] * math.cos(p), s[2] * math.sin(p)))
    best = minimize(cost, [20.0, 75.0, -50.0, 80.0, 60.0, 40.0, 0.0], method="SLSQP",
                    bounds=[(None, None), (0.0, HALF_WIDTH), (None, None), (5.0, None), (5.0, HALF_WIDTH),
                            (5.0, None), (-0.5, 0.5)],
                    constraints=[dict(type="ineq", fun=front),
                                 dict(type="ineq", fun=lambda v: HALF_WIDTH - (v[1] + v[4]))],
                    options=dict(maxiter=3000, ftol=1e-12))
    return (*unpack(best.x), math.sqrt(cost(best.x)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("deck")
    args = ap.parse_args()
    pts = underside(pelvis_triangles(args.deck))
    print(f"{len(pts)} underside points, x {X_BACK:.0f} to {X_FRONT:.0f} mm, y 0 to {Y_OUT:.0f}; "
          f"lowest {pts[:, 2].min():.1f} mm at ({pts[pts[:, 2].argmin(), 0]:.0f}, {pts[pts[:, 2].argmin(), 1]:.0f})")
    center, semi, pitch, rms = fit_pair(pts)
    miss = pair_misses(center, semi, pitch, pts)
    print(f"left buttock: centre ({center[0]:.1f}, {center[1]:.1f}, {center[2]:.1f}) mm, semi-axes "
          f"{semi[0]:.1f} / {semi[1]:.1f} / {semi[2]:.1f} mm, pitch {math.degrees(pitch):.1f} deg front "
          f"down; rms {rms:.1f} mm, largest miss {np.abs(miss).max():.1f}, mean {miss.mean():.1f}")
    print("underside (x, y, skin z, pair's miss), mm:")
    for (x, y, z), m in zip(pts, miss):
        print(f"  {x:6.1f} {y:6.1f} {z:7.1f} {m:6.1f}")


if __name__ == "__main__":
    main()
