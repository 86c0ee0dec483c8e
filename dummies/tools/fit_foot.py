"""Fits the Hybrid III foot's heel and forefoot ellipsoids to an open FE Hybrid III deck's foot
mesh (run: PYTHONPATH=. python dummies/tools/fit_foot.py DECK.rad {95m,05f}); prints the figures
that dummies/tools/derive_hybrid3.py carries (HEEL_CENTER / FOREFOOT_CENTER and the 5F's
HEEL_05F / FOREFOOT_05F). Not imported by the package; the decks are not in the repository
(OpenRadioss ModelExchange, CC BY-NC 4.0: facts only; where each deck and part lies is in
DECKS below and beside the figures in derive_hybrid3.py).

Method (footsplit, scenarios/HISTORY.md; written down here at branch fivefheel):
  1. The part's nodes about the ankle joint's node, in the foot frame of the dummy files: the
     knee-ankle line turned vertical (z up), y to the dummy's left, x = y cross z (forward).
  2. Cut at the arch, CUT mm ahead of the ankle: the nodes behind it are the heel's, the rest
     the forefoot's.
  3. Each part's ellipsoid minimises the rms of its nodes' distance to its surface, measured
     along the line from the centre (|p - c| (1 - 1/r), r the node's scaled radius); its lowest
     point lies on the part's lowest node (the sole is what touches the floor); the heel's
     front at most at the cut, the forefoot's rear at least at it, so the plane x = CUT parts
     them and no surface is crushed by both. The heel is not pitched; the forefoot is (about y).
  4. The lateral centre is fitted, then reported: the files put both on the ankle's line
     (y = 0), as the one foot shell was.
"""
import argparse
import math

import numpy as np
from scipy.optimize import minimize

# deck -> (parts whose outside is the foot's, ankle node, knee node, cut ahead of the ankle, mm:
# the 95M's at his arch, footsplit's; the 5F's between her shoe's heel and its shank, fivefheel's)
# 95M: OpenRadioss ModelExchange Safety/Hybrid_III_95th_RG_Articulated/
#   RG_Articulated_Hybrid_III_95TH_0000.rad: part 15000017 LEFT FEET (shell mesh, 565 nodes),
#   ankle spring 15005178's node 15005211, knee spring 15005176's node 15005210.
# 05F: OpenRadioss ModelExchange Safety/Hybrid_III_05th_Percentile/Hybrid_III_05TH_0000.rad
#   (commit 86dbea3): part 15000032 H305_PART_LEFT_SHOE (57 bricks, one layer over the foot skin
#   15000031, whose outer nodes it shares): its nodes not shared with the skin are the shoe's
#   outside; ankle spring 15005374's node 15004034, knee spring 15005372's node 15004033.
DECKS = {"95m": dict(parts=(15000017,), inner=(), ankle=15005211, knee=15005210, cut=35.0),
         "05f": dict(parts=(15000032,), inner=(15000031,), ankle=15004034, knee=15004033, cut=30.0)}


def read_cards(path):
    """{(keyword path, ...): [data lines]} of a Radioss deck: each card's header split at '/'
    (e.g. ('MAT', 'ELAST', '15000025')) and its lines, comments dropped, title kept."""
    cards, lines = {}, None
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            if line.startswith("/"):
                lines = cards.setdefault(tuple(line.strip().split("/")[1:]), [])
                continue
            if lines is not None and line.strip():
                lines.append(line.rstrip("\n"))
    return cards


def read_deck(path):
    """(nodes {id: (3,) mm}, elements {part id: [node ids per element]}) of a Radioss deck's
    /NODE block and its /SHELL, /SH3N and /BRICK blocks (``read_cards``)."""
    cards = read_cards(path)
    nodes = {int(l.split()[0]): np.array([float(v) for v in l.split()[1:4]]) for l in cards[("NODE",)]}
    elements = {}
    for key, lines in cards.items():
        if key[0] in ("SHELL", "SH3N", "BRICK") and len(key) > 1:
            elements.setdefault(int(key[1]), []).extend([int(v) for v in l.split()[1:]] for l in lines)
    return nodes, elements


def part_nodes(nodes, elements, parts, inner=()):
    """(n, 3) mm: the nodes of the parts' elements, less those of the inner parts' (the nodes a
    covering layer shares with what it covers)."""
    ids = {n for p in parts for e in elements[p] for n in e}
    ids -= {n for p in inner for e in elements[p] for n in e}
    return np.array([nodes[n] for n in sorted(ids) if n in nodes])


def foot_frame(points, ankle, knee):
    """points about the ankle in the foot frame (knee-ankle line along z, y to the dummy's
    left: the decks' Y points to the dummy's right)."""
    z = (knee - ankle) / np.linalg.norm(knee - ankle)
    left = np.array([0.0, -1.0, 0.0])
    y = left - (left @ z) * z
    y /= np.linalg.norm(y)
    return (points - ankle) @ np.vstack([np.cross(y, z), y, z]).T


def _axes(pitch):
    """Rotation (columns: the ellipsoid's axes in the foot frame) turned pitch (rad) about y,
    positive toe down (the dummy files' orient)."""
    c, s = math.cos(pitch), math.sin(pitch)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def extents(semi, pitch):
    """Half-extents along the foot frame's x and z of an ellipsoid pitched about y."""
    a, _, c = semi
    s, k = math.sin(pitch), math.cos(pitch)
    return math.hypot(a * k, c * s), math.hypot(a * s, c * k)


def radial_misses(points, center, semi, pitch=0.0):
    """Each point's distance to the ellipsoid's surface along the line from its centre."""
    d = points - center
    r = np.linalg.norm((d @ _axes(pitch)) / semi, axis=1)
    return np.linalg.norm(d, axis=1) * (1.0 - 1.0 / r)


def fit_part(points, side, cut, pitched):
    """The ellipsoid (center, semi, pitch rad, rms mm) of the method above for the points on one
    side of the cut: side 'heel' (front at most at the cut) or 'forefoot' (rear at least at it)."""
    lowest = points[:, 2].min()

    def unpack(v):
        cx, cy, a, b, c = v[:5]
        pitch = v[5] if pitched else 0.0
        ez = extents((a, b, c), pitch)[1]
        return np.array([cx, cy, lowest + ez]), np.array([a, b, c]), pitch

    def cost(v):
        center, semi, pitch = unpack(v)
        return np.mean(radial_misses(points, center, semi, pitch) ** 2)

    def apart(v):
        center, semi, pitch = unpack(v)
        ex = extents(semi, pitch)[0]
        return cut - (center[0] + ex) if side == "heel" else (center[0] - ex) - cut

    lo, hi = points.min(axis=0), points.max(axis=0)
    v0 = [*(0.5 * (lo[:2] + hi[:2])), *(0.5 * (hi - lo))] + ([0.0] if pitched else [])
    bounds = [(None, None), (None, None), (5.0, None), (5.0, None), (5.0, None)] + (
        [(-0.6, 0.6)] if pitched else [])
    best = minimize(cost, v0, method="SLSQP", bounds=bounds,
                    constraints=[dict(type="ineq", fun=apart)], options=dict(maxiter=500, ftol=1e-10))
    center, semi, pitch = unpack(best.x)
    return center, semi, pitch, math.sqrt(cost(best.x))


def fit_foot(points, cut):
    """{'heel': fit, 'forefoot': fit} (fit_part's tuples) of the foot points cut at x = cut."""
    return {"heel": fit_part(points[points[:, 0] < cut], "heel", cut, pitched=False),
            "forefoot": fit_part(points[points[:, 0] >= cut], "forefoot", cut, pitched=True)}


def sole(points, step=10.0):
    """(x bin start, lowest z) of the points in bins of step mm along x: the sole's profile."""
    x0 = math.floor(points[:, 0].min() / step) * step
    rows = []
    while x0 <= points[:, 0].max():
        inside = (points[:, 0] >= x0) & (points[:, 0] < x0 + step)
        if inside.any():
            rows.append((x0, points[inside, 2].min()))
        x0 += step
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("deck")
    ap.add_argument("kind", choices=sorted(DECKS))
    ap.add_argument("--cut", type=float, help="mm ahead of the ankle (the deck's default else)")
    args = ap.parse_args()
    d = DECKS[args.kind]
    nodes, elements = read_deck(args.deck)
    pts = foot_frame(part_nodes(nodes, elements, d["parts"], d["inner"]), nodes[d["ankle"]], nodes[d["knee"]])
    tilt = foot_frame(nodes[d["knee"]][None, :], nodes[d["ankle"]], nodes[d["knee"]])
    print(f"{len(pts)} nodes; x {pts[:, 0].min():.1f} to {pts[:, 0].max():.1f}, "
          f"y {pts[:, 1].min():.1f} to {pts[:, 1].max():.1f}, z {pts[:, 2].min():.1f} to "
          f"{pts[:, 2].max():.1f} mm about the ankle (knee at {np.round(tilt[0], 2)})")
    print("sole (x bin, lowest z, mm):", ", ".join(f"{x:.0f}: {z:.1f}" for x, z in sole(pts)))
    cut = args.cut if args.cut is not None else d["cut"]
    fits = fit_foot(pts, cut)
    for name, (center, semi, pitch, rms) in fits.items():
        ex, ez = extents(semi, pitch)
        n = int(np.sum(pts[:, 0] < cut) if name == "heel" else np.sum(pts[:, 0] >= cut))
        print(f"{name} ({n} nodes): centre ({center[0]:.1f}, {center[1]:.1f}, {center[2]:.1f}) mm, "
              f"semi-axes {semi[0]:.1f} / {semi[1]:.1f} / {semi[2]:.1f} mm, pitch "
              f"{math.degrees(pitch):.1f} deg toe down; x {center[0] - ex:.1f} to {center[0] + ex:.1f}, "
              f"lowest {center[2] - ez:.1f}; rms {rms:.1f} mm, largest miss "
              f"{np.abs(radial_misses(pts[(pts[:, 0] < cut) == (name == 'heel')], center, semi, pitch)).max():.1f}")


if __name__ == "__main__":
    main()
