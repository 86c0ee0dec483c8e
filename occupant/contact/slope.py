"""Velocity slope of a contact force for the semi-implicit Euler step (``data.slope``, the
diagonal the step adds h times to the joint-space inertia, as joint damping's).

The force on a at the contact point p is f(w) with w = v_a(p) - v_b(p) = sum_j J_j v_j its
relative velocity there, and -d(tau)/d(v) = J^T C J with C = -d(f)/d(w): along the normal the
damping c d (Hunt-Crossley, while the normal force is not clipped at 0), across it the
regularised friction mu F tanh(|w_t| / v_s) w_t / |w_t|, whose derivative is
mu F (1 - tanh^2) / v_s along the sliding direction and mu F tanh / |w_t| normal to it (the limit
mu F / v_s both at rest). Its diagonal, C's quadratic form on each column J_j, is added to
data.slope[j]. Column j is the velocity at p from a unit v_j of a link on the path from a's (or
b's) link to the base; links on both paths move both points alike and contribute nothing.
"""
from numba import njit

from occupant.jit import JIT_STAGE


@njit(**JIT_STAGE)
def _on_path(parent, link, i):
    """Whether link i is ``link`` or one of its ancestors."""
    while link >= 0:
        if link == i:
            return True
        link = parent[link]
    return False


@njit(**JIT_STAGE)
def add_contact_slope(tree, data, la, lb, px, py, pz, nx, ny, nz, c_n, tx, ty, tz, c_t, g):
    """Add the diagonal of J^T C J to data.slope, C = c_n n n^T + c_t t t^T
    + g (I - n n^T - t t^T), t the unit sliding direction (zero: isotropic, c_t unused)."""
    R, P, slope = data.R_base_link, data.p_base_link, data.slope
    for side in range(2):
        link, other = (la, lb) if side == 0 else (lb, la)
        i = link
        while i >= 0:
            if not _on_path(tree.parent, other, i):
                # p in link i's frame
                dx, dy, dz = px - P[i, 0], py - P[i, 1], pz - P[i, 2]
                rx = R[i, 0, 0] * dx + R[i, 1, 0] * dy + R[i, 2, 0] * dz
                ry = R[i, 0, 1] * dx + R[i, 1, 1] * dy + R[i, 2, 1] * dz
                rz = R[i, 0, 2] * dx + R[i, 1, 2] * dy + R[i, 2, 2] * dz
                for k in range(tree.nv[i]):
                    row = tree.srows[i, k]
                    if row == 0:
                        lx, ly, lz = 0.0, -rz, ry          # e_x x r
                    elif row == 1:
                        lx, ly, lz = rz, 0.0, -rx
                    elif row == 2:
                        lx, ly, lz = -ry, rx, 0.0
                    elif row == 3:
                        lx, ly, lz = 1.0, 0.0, 0.0
                    elif row == 4:
                        lx, ly, lz = 0.0, 1.0, 0.0
                    else:
                        lx, ly, lz = 0.0, 0.0, 1.0
                    jx = R[i, 0, 0] * lx + R[i, 0, 1] * ly + R[i, 0, 2] * lz
                    jy = R[i, 1, 0] * lx + R[i, 1, 1] * ly + R[i, 1, 2] * lz
                    jz = R[i, 2, 0] * lx + R[i, 2, 1] * ly + R[i, 2, 2] * lz
                    jn = jx * nx + jy * ny + jz * nz
                    jt = jx * tx + jy * ty + jz * tz
                    rest = jx * jx + jy * jy + jz * jz - jn * jn - jt * jt
                    slope[tree.vidx[i] + k] += c_n * jn * jn + c_t * jt * jt + g * rest
            i = tree.parent[i]
