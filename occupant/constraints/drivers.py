"""Time functions of the rheonomic constraint rows Phi(q, t) = 0 (joint and marker motions;
Haug 1989, section 3.5 "kinematic drivers"; ADAMS MOTION and GENERAL_MOTION).

A time function is f(t) = c0 + c1 t + c2 t^2 + c3 t^3 + A sin(w t + phase) (a row of
``ConstraintBlock.drives``); ``time_function`` gives f, f' and f''.

A driven DOT row's axis u_b turns with time: c(t) = Q(t) c0 in link b's frame, Q = Rot(n1, a)
Rot(n2, b) Rot(n3, c) (rotations about the fixed axes n1, n2, n3 = n2 x n1 of marker J, i.e.
J's z, y, x: Q = R_J Rz(a) Ry(b) Rx(c) R_J^T). With m2 = Rot(n1, a) n2 and m3 = Rot(n1, a)
Rot(n2, b) n3 the angular velocity of Q is omega = a' n1 + b' m2 + c' m3 and
omega' = a'' n1 + b'' m2 + b' a' (n1 x m2) + c'' m3 + c' (a' n1 + b' m2) x m3, so that
c' = omega x c and c'' = omega' x c + omega x c' (``turning_axis``).
"""
import numpy as np
from numba import njit

from occupant.jit import JIT_INLINE


@njit(**JIT_INLINE)
def time_function(drives, i, t, out):
    """out[0], out[1], out[2] = f(t), f'(t), f''(t) of time function i."""
    c = drives[i]
    s, co = np.sin(c[5] * t + c[6]), np.cos(c[5] * t + c[6])
    out[0] = c[0] + t * (c[1] + t * (c[2] + t * c[3])) + c[4] * s
    out[1] = c[1] + t * (2.0 * c[2] + 3.0 * t * c[3]) + c[4] * c[5] * co
    out[2] = 2.0 * c[2] + 6.0 * t * c[3] - c[4] * c[5] * c[5] * s


@njit(**JIT_INLINE)
def _rotate(n, angle, v):
    """v turned in place by ``angle`` about the unit axis n (Rodrigues)."""
    s, co = np.sin(angle), np.cos(angle)
    d = n[0] * v[0] + n[1] * v[1] + n[2] * v[2]
    x0 = n[1] * v[2] - n[2] * v[1]
    x1 = n[2] * v[0] - n[0] * v[2]
    x2 = n[0] * v[1] - n[1] * v[0]
    v[0] = v[0] * co + x0 * s + n[0] * d * (1.0 - co)
    v[1] = v[1] * co + x1 * s + n[1] * d * (1.0 - co)
    v[2] = v[2] * co + x2 * s + n[2] * d * (1.0 - co)


@njit(**JIT_INLINE)
def cross3(a, b, out):
    """out = a x b (3-vectors; also the constraint equations' cross product)."""
    out[0] = a[1] * b[2] - a[2] * b[1]
    out[1] = a[2] * b[0] - a[0] * b[2]
    out[2] = a[0] * b[1] - a[1] * b[0]


@njit(**JIT_INLINE)
def turning_axis(drives, d, t, n1, n2, c0, c, cd, cdd, f, m2, m3, w, wd, tmp):
    """c = Q(t) c0 and its first and second time derivatives cd, cdd (module docstring); the
    angles are time functions d, d + 1, d + 2. f (3, 3), m2, m3, w, wd, tmp (3,) are scratch."""
    for k in range(3):
        time_function(drives, d + k, t, f[k])
    cross3(n2, n1, tmp)          # n3 = x of J
    for k in range(3):
        c[k] = c0[k]
        m2[k] = n2[k]
        m3[k] = tmp[k]
    _rotate(tmp, f[2, 0], c)
    _rotate(n2, f[1, 0], c)
    _rotate(n1, f[0, 0], c)
    _rotate(n2, f[1, 0], m3)
    _rotate(n1, f[0, 0], m3)
    _rotate(n1, f[0, 0], m2)
    a1, b1, c1 = f[0, 1], f[1, 1], f[2, 1]
    for k in range(3):
        w[k] = a1 * n1[k] + b1 * m2[k] + c1 * m3[k]
    cross3(n1, m2, tmp)
    for k in range(3):
        wd[k] = f[0, 2] * n1[k] + f[1, 2] * m2[k] + b1 * a1 * tmp[k] + f[2, 2] * m3[k]
        tmp[k] = a1 * n1[k] + b1 * m2[k]
    cross3(tmp, m3, m2)          # m2 no longer needed: (a' n1 + b' m2) x m3
    for k in range(3):
        wd[k] += c1 * m2[k]
    cross3(w, c, cd)
    cross3(wd, c, cdd)
    cross3(w, cd, tmp)
    for k in range(3):
        cdd[k] += tmp[k]
