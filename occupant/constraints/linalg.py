"""Small dense LU factorisations in place, for the compiled solver (no allocation per call).

Gaussian elimination with partial pivoting (Golub & Van Loan, Matrix Computations, 4th ed.,
algorithm 3.4.1) and with complete pivoting (algorithm 3.4.3); the latter ranks the rows and
columns of the constraint Jacobian for the coordinate partitioning (seed 001, section 2.2).
"""
import numpy as np
from numba import njit

from occupant.jit import JIT


@njit(**JIT)
def lu_factor(A, n, piv):
    """LU of A[:n, :n] in place with row pivots piv[:n]; returns False if A is singular."""
    for k in range(n):
        p, big = k, abs(A[k, k])
        for i in range(k + 1, n):
            if abs(A[i, k]) > big:
                p, big = i, abs(A[i, k])
        piv[k] = p
        if big == 0.0:
            return False
        if p != k:
            for c in range(n):
                A[k, c], A[p, c] = A[p, c], A[k, c]
        inv = 1.0 / A[k, k]
        for i in range(k + 1, n):
            A[i, k] *= inv
            f = A[i, k]
            if f != 0.0:
                for c in range(k + 1, n):
                    A[i, c] -= f * A[k, c]
    return True


@njit(**JIT)
def lu_solve(A, n, piv, b):
    """Solve A x = b in place (b becomes x) with the factors of ``lu_factor``."""
    for k in range(n):
        p = piv[k]
        if p != k:
            b[k], b[p] = b[p], b[k]
    for i in range(n):
        s = b[i]
        for c in range(i):
            s -= A[i, c] * b[c]
        b[i] = s
    for i in range(n - 1, -1, -1):
        s = b[i]
        for c in range(i + 1, n):
            s -= A[i, c] * b[c]
        b[i] = s / A[i, i]


@njit(**JIT)
def lu_solve_transposed(A, n, piv, b):
    """Solve A^T x = b in place with the factors of ``lu_factor`` (P A = L U, so
    A^T = U^T L^T P: forward with U^T, backward with the unit L^T, then the swaps undone)."""
    for i in range(n):
        s = b[i]
        for c in range(i):
            s -= A[c, i] * b[c]
        b[i] = s / A[i, i]
    for i in range(n - 1, -1, -1):
        s = b[i]
        for c in range(i + 1, n):
            s -= A[c, i] * b[c]
        b[i] = s
    for k in range(n - 1, -1, -1):
        p = piv[k]
        if p != k:
            b[k], b[p] = b[p], b[k]


@njit(**JIT)
def full_pivot_rank(A, m, n, allowed, rows, cols, tol):
    """Gaussian elimination with complete pivoting of A[:m, :n] in place, pivots only in the
    columns where ``allowed`` is nonzero. rows[:m] and cols[:n] receive the row and column
    orders (pivot rows and columns first). Returns (rank r, smallest/largest pivot magnitude):
    the elimination stops when no pivot exceeds tol times the first one."""
    for i in range(m):
        rows[i] = i
    for j in range(n):
        cols[j] = j
    first, last = 0.0, 0.0
    r = 0
    for k in range(min(m, n)):
        bi, bj, big = -1, -1, 0.0
        for i in range(k, m):
            for j in range(k, n):
                if allowed[cols[j]] and abs(A[rows[i], cols[j]]) > big:
                    bi, bj, big = i, j, abs(A[rows[i], cols[j]])
        if bi < 0 or big <= tol * first or big == 0.0:
            break
        if k == 0:
            first = big
        last = big
        rows[k], rows[bi] = rows[bi], rows[k]
        cols[k], cols[bj] = cols[bj], cols[k]
        pr, pc = rows[k], cols[k]
        for i in range(k + 1, m):
            ri = rows[i]
            f = A[ri, pc] / A[pr, pc]
            if f != 0.0:
                for j in range(k, n):
                    A[ri, cols[j]] -= f * A[pr, cols[j]]
        r += 1
    return r, (last / first if first > 0.0 else 1.0)
