"""Output samples of a constrained run: the accelerations with the constraint forces and the
constraint violations at every recorded state."""
import numpy as np
from numba import njit

from occupant.constraints.state_space import (choose_partition, constrained_accelerations,
                                               make_constraint_work, violations)
from occupant.jit import JIT


@njit(**JIT)
def _accelerations(bundle, data, cw, t, Y, vdot):
    nq, nv = cw.q.shape[0], cw.v.shape[0]
    for k in range(t.shape[0]):
        q, v, z = Y[k, :nq].copy(), Y[k, nq:nq + nv].copy(), Y[k, nq + nv:].copy()
        choose_partition(bundle, data, cw, q, v)
        constrained_accelerations(bundle, data, cw, t[k], q, v, z)
        for j in range(nv):
            vdot[k, j] = cw.vdot[j]


def constrained_samples(system, t, Y, rec):
    """Replace rec.vdot (the tree's accelerations) by those of the constrained system and return
    the largest position and velocity constraint violations (n,), (n,) at the states Y."""
    cw = make_constraint_work(system.model)
    t = np.ascontiguousarray(t, dtype=float)
    Y = np.ascontiguousarray(Y, dtype=float)
    _accelerations(system.bundle, system.data, cw, t, Y, rec.vdot)
    pos, vel = np.zeros(len(t)), np.zeros(len(t))
    violations(system.bundle, system.data, cw, Y, pos, vel)
    return pos, vel
