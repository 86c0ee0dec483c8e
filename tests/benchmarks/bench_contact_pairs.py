"""Time per step evaluation of the contact pairs (not a test: run it as a script from the
repository root). A free body carrying a ball or an ellipsoid against one geometry of each type
in contact, and the broad phase: 1 and 100 declared pairs apart, with and without it; then every
one of 10 balls declared against every one of M surfaces (all pairs), with the sweep
(``contact.broad_phase``), with the declared-pair test of the bounding spheres alone, and with
no broad phase.

    python tests/benchmarks/bench_contact_pairs.py [--all-pairs]
"""
import sys
import time
from pathlib import Path

import numpy as np
import trimesh
from numba import njit

sys.path.insert(0, str(Path(__file__).parents[1] / "contact"))   # its rigs: test_geometry_pairs
from test_geometry_pairs import HALF, K, RADIUS, SEMI, many_pairs  # noqa: E402

from occupant.integrate.pipeline import evaluate  # noqa: E402
from occupant.modeling import (  # noqa: E402
    Assembly, Part, Joint, Pose, Marker, Sphere, Ellipsoid, Plane, Box, Cylinder, Mesh,
    ContactPair, ContactCharacteristic,
)


@njit(cache=True)
def _repeat(bundle, data, q, v, z, n):
    for _ in range(n):
        evaluate(bundle, data, 0.0, q, v, z, 0.0)


def per_evaluation(model, q, bundle=None, n=20000, repeats=7):
    """Best of ``repeats`` of n evaluations, in microseconds per evaluation."""
    bundle = bundle or model.bundle()
    data = model.make_data()
    v = np.array([0.3, -0.2, -0.5, 1.0, -2.0, 0.5])
    z = np.zeros(model.nz)
    _repeat(bundle, data, q, v, z, 10)
    best = np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        _repeat(bundle, data, q, v, z, n)
        best = min(best, time.perf_counter() - t0)
    return 1e6 * best / n


def one(geo_b, geo_a=None):
    asm = Assembly("one")
    asm.add(Part("body", 3.0, inertia=(0.02, 0.03, 0.04)))
    asm.add(Joint("float", "free", None, "body", Pose()))
    asm.add(Marker("m", "body"))
    if geo_b is None:
        asm.add(Sphere("ball", "m", RADIUS))
        return asm.compile()
    geo_a = geo_a or Ellipsoid("egg", "m", SEMI)
    asm.add(geo_a, geo_b)
    asm.add(ContactPair("p", geo_a.name, geo_b.name, ContactCharacteristic(stiffness=1e5)))
    return asm.compile()


def all_pairs(n_balls, n_surfaces, seed=0):
    """A free body carrying n_balls balls spread over 1 m along x, among n_surfaces B0 boxes
    spread over 4 m along x (a vehicle's interior strung out), one ball resting on the first;
    every ball declared against every box."""
    rng = np.random.default_rng(seed)
    asm = Assembly("all")
    asm.add(Part("body", 3.0, inertia=(0.02, 0.03, 0.04)))
    asm.add(Joint("float", "free", None, "body", Pose()))
    char = ContactCharacteristic(stiffness=K)
    for k in range(n_balls):
        asm.add(Marker(f"m{k}", "body", (k / max(n_balls - 1, 1) - 0.5, 0.0, 0.0)),
                Sphere(f"ball{k}", f"m{k}", RADIUS))
    asm.add(Box("s0", None, HALF, position=(-0.5, 0.0, -0.14)))
    for k in range(1, n_surfaces):
        where = rng.uniform((-2.0, -0.6, -0.6), (2.0, 0.6, 0.6))
        asm.add(Box(f"s{k}", None, 0.3 * HALF, position=where))
    for i in range(n_balls):
        for j in range(n_surfaces):
            asm.add(ContactPair(f"p{i}_{j}", f"ball{i}", f"s{j}", char))
    return asm.compile()


def main_all_pairs():
    q = np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0])
    print(f"{'10 balls x M surfaces, all pairs':34s} {'sweep':>8s} {'spheres':>8s} "
          f"{'none':>8s}  us per evaluation")
    for m in (1, 2, 5, 10, 20, 50, 100, 200):
        model = all_pairs(10, m)
        base = model.bundle()
        cols = [base._replace(contacts=base.contacts._replace(sweep=1)),
                base._replace(contacts=base.contacts._replace(sweep=0)),
                base._replace(contacts=base.contacts._replace(broad_phase=0))]
        n = max(200, 200000 // (10 * m))
        times = [np.inf] * 3
        for _ in range(3):       # alternated: the machine's load moves between the columns
            times = [min(t, per_evaluation(model, q, b, n=n, repeats=3))
                     for t, b in zip(times, cols)]
        print(f"{f'M = {m}, {10 * m} pairs':34s} " + " ".join(f"{t:8.2f}" for t in times))


def main():
    q = np.array([0.02, -0.01, 0.0, 1.0, 0.0, 0.0, 0.0])
    ico = trimesh.creation.icosphere(subdivisions=3, radius=0.1)
    rows = [
        ("no contact pair", one(None), q),
        ("plane", one(Plane("g", None, point=(0, 0, -0.025))), q),
        ("bounded plane, edge", one(Plane("g", None, point=(-0.1, 0, -0.025),
                                          half_size=(0.1, 0.1))), q),
        ("box, face", one(Box("g", None, HALF, position=(0, 0, -0.12))), q),
        ("box, edge", one(Box("g", None, HALF, position=(-0.2, 0, -0.12))), q),
        ("box, corner", one(Box("g", None, HALF, position=(-0.2, -0.17, -0.12))), q),
        ("cylinder, side", one(Cylinder("g", None, 0.04, 0.3, position=(0, 0, -0.06),
                                        rotation=[[1, 0, 0], [0, 0, -1], [0, 1, 0]])), q),
        ("cylinder, rim", one(Cylinder("g", None, 0.04, 0.3, position=(-0.04, 0, -0.17))), q),
        ("cylinder, round end", one(Cylinder("g", None, 0.04, 0.3, ends="round",
                                             position=(0, 0, -0.2))), q),
        ("mesh: icosphere, 1280 faces", one(Mesh("g", None, ico, position=(0, 0, -0.12))), q),
    ]
    print(f"{'case':40s} us per evaluation")
    for name, model, qq in rows:
        print(f"{name:40s} {per_evaluation(model, qq):8.2f}")
    for n, contact in ((1, False), (100, False), (100, True)):
        model = many_pairs(n, contact)
        on = model.bundle()
        off = on._replace(contacts=on.contacts._replace(broad_phase=0))
        label = f"{n} pairs apart" + (" + 1 in contact" if contact else "")
        print(f"{label + ', broad phase':40s} {per_evaluation(model, q, on):8.2f}")
        print(f"{label + ', no broad phase':40s} {per_evaluation(model, q, off):8.2f}")


if __name__ == "__main__":
    main_all_pairs() if "--all-pairs" in sys.argv else main()
