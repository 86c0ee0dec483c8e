"""Time per step evaluation of the contact pairs (not a test: run it as a script from the
repository root). A free body carrying a ball or an ellipsoid against one geometry of each type
in contact, and the broad phase: 1 and 100 declared pairs apart, with and without it.

    python tests/contact/bench_contact_pairs.py
"""
import sys
import time
from pathlib import Path

import numpy as np
import trimesh
from numba import njit

sys.path.insert(0, str(Path(__file__).parent))
from test_geometry_pairs import HALF, RADIUS, SEMI, many_pairs  # noqa: E402

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
    main()
