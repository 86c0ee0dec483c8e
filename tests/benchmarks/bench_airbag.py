"""Cost of the airbag producer per evaluation of the step (issue 11 section 5). Not part of the
test suite: run ``python tests/benchmarks/bench_airbag.py``.

One free torso-sized body, with no airbag, a driver bag without contacts, with one contact pair
(out of contact and in contact) and with three pairs, in contact under the default "dimple" law
and under the "lens" law (``Airbag.contact_law``); each evaluation (loads and accelerations)
timed inside a compiled loop, the models interleaved and the best of 15 rounds kept, since this
machine's speed drifts. The producer's cost is the difference from the model without a bag.
"""
import time

import numpy as np
from numba import njit

from occupant.integrate.pipeline import accelerations, loads
from occupant.modeling import (
    AirbagContact, Assembly, Ellipsoid, Joint, Marker, Part, Pose, driver_airbag,
)

UP_X = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])  # bag x along B0 z


def build(n_bags, n_pairs, law):
    asm = Assembly("bench")
    asm.add(Part("torso", 12.0, inertia=(0.2, 0.15, 0.1)))
    asm.add(Joint("free", "free", None, "torso", Pose()))
    asm.add(Marker("centre", "torso"))
    for k in range(n_pairs):
        asm.add(Ellipsoid(f"chest{k}", "centre", (0.17, 0.2, 0.1)))
    for b in range(n_bags):
        asm.add(driver_airbag(f"bag{b}", None, rotation=UP_X, firing_time=-1.0,
                              **({} if law is None else {"contact_law": law})))
        for k in range(n_pairs):
            asm.add(AirbagContact(f"bag{b}_chest{k}", f"bag{b}", f"chest{k}"))
    return asm.compile()


@njit
def evaluations(bundle, data, q, v, z, n):
    for _ in range(n):
        loads(bundle, data, 0.05, q, v, z)
        accelerations(bundle, data, v, 0.0)


def main():
    cases = [("no airbag", 0, 0, 0.5, None), ("bag, no contact pairs", 1, 0, 0.5, None),
             ("bag, 1 pair apart", 1, 1, 0.5, None), ("bag, 1 pair in contact", 1, 1, 0.3, None),
             ("bag, 3 pairs in contact", 1, 3, 0.3, None),
             ("lens, 1 pair in contact", 1, 1, 0.3, "lens"),
             ("lens, 3 pairs in contact", 1, 3, 0.3, "lens")]
    setups = []
    for _, n_bags, n_pairs, height, law in cases:
        model = build(n_bags, n_pairs, law)
        q = model.neutral_configuration()
        q[2] = height   # the bag's front is at 0.26 m; the chest is 0.1 m deep
        args = (model.bundle(), model.make_data(), q, np.zeros(model.nv), np.zeros(model.nz))
        evaluations(*args, 10)
        setups.append(args)
    best = [np.inf] * len(cases)
    n = 5000
    for _ in range(15):
        for k, args in enumerate(setups):
            t0 = time.perf_counter()
            evaluations(*args, n)
            best[k] = min(best[k], (time.perf_counter() - t0) / n)
    for (name, *_), b in zip(cases, best):
        print(f"{name:26s} {b * 1e6:7.2f} us per evaluation, airbag part {(b - best[0]) * 1e6:6.2f} us")


if __name__ == "__main__":
    main()
