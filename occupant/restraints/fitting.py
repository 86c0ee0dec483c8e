"""Fitting belts at the initial configuration: each segment's unstretched webbing is its length
there shortened to the belt's pretension on the webbing's loading curve (MADYMO likewise takes
the initial belt lengths from the initial positions, with an optional initial strain)."""
import numpy as np


def fit_belts(model, q0, z0=None):
    """z0 (a copy; zeros by default) with every belt's webbing lengths fitted at q0 (with B0 and
    the occupant at rest): each segment's length L there over (1 + e), e the strain at which the
    webbing's loading curve gives the belt's pretension."""
    from occupant.integrate.fixed_step import outputs_at_rest   # the loop imports the belt kernel

    z = np.zeros(model.nz) if z0 is None else np.array(z0, dtype=float)
    el = model.belts
    if el is None or el.retractor.shape[0] == 0:
        return z
    slack = z.copy()
    n_belts = el.retractor.shape[0]
    for b in range(n_belts):
        for s in range(el.point_start[b + 1] - el.point_start[b] - 1):
            slack[el.z_start[b] + 2 * s] = 1e6          # slack webbing: positions only
    outputs = outputs_at_rest(model, q0, slack)
    for b in range(n_belts):
        for s in range(el.point_start[b + 1] - el.point_start[b] - 1):
            length = outputs[el.out_start[b] + 4 * s + 2]
            z[el.z_start[b] + 2 * s] = length / (1.0 + el.fit_strain[b])
    return z
