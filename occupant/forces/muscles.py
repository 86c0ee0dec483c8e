"""Hill-type line muscles (``occupant.modeling.muscles.Muscle``, law in that module's docstring),
a force producer of the compiled step.

Curves, in normalized fibre length l = L_fibre / L_opt and velocity v = L_fibre' / (v_max L_opt)
(v > 0 lengthening):
- active force-length: f_L = exp(-(l - 1)^2 / gamma) (Thelen 2003, J. Biomech. Eng. 125:70, eq. 3);
- force-velocity: shortening, Hill's (1938) hyperbola f_V = (1 + v) / (1 - v / A), A = 0.25
  (Hill's a/F0), 0 below v = -1; lengthening, f_V = 1 + (F_ecc - 1) v / (v + b) rising to
  F_ecc = 1.8 (Katz 1939, the eccentric plateau Thelen 2003 uses), b set so that both branches
  have the same slope 1 + 1/A at v = 0;
- passive: f_P = (exp(k_PE (l - 1) / e0) - 1) / (exp(k_PE) - 1) for l > 1, else 0 (Thelen 2003,
  eq. 2).
A producer: reads ``bundle.muscles``, adds the force pair to ``data.f_ext``
(``points.add_force_pair``, the spring-dampers' line geometry), writes the activation rate to
``data.zdot``, (length, length rate, activation, tension) per muscle to ``data.outputs`` and the
power of its forces on the tree to ``data.power``.
"""
import numpy as np
from numba import njit

from occupant.jit import JIT_INLINE, JIT_STAGE
from occupant.forces.points import add_force_pair, line_between
from occupant.model.bundle import POWER_MUSCLES

HILL_A = 0.25          # a/F0 of Hill's (1938) hyperbola [S]
ECCENTRIC_MAX = 1.8    # lengthening force plateau, F_max multiples [S Thelen 2003; Katz 1939]
ECCENTRIC_B = (ECCENTRIC_MAX - 1.0) / (1.0 + 1.0 / HILL_A)   # slope continuity at v = 0 [D]


@njit(**JIT_INLINE)
def force_length(l, width):
    """Active force-length factor at normalized fibre length l."""
    d = l - 1.0
    return np.exp(-d * d / width)


@njit(**JIT_INLINE)
def force_velocity(v):
    """Force-velocity factor at normalized fibre velocity v (lengthening positive)."""
    if v >= 0.0:
        return 1.0 + (ECCENTRIC_MAX - 1.0) * v / (v + ECCENTRIC_B)
    if v <= -1.0:
        return 0.0
    return (1.0 + v) / (1.0 - v / HILL_A)


@njit(**JIT_INLINE)
def passive_force(l, strain, shape):
    """Passive force factor at normalized fibre length l."""
    if l <= 1.0:
        return 0.0
    return (np.exp(shape * (l - 1.0) / strain) - 1.0) / (np.exp(shape) - 1.0)


@njit(**JIT_INLINE)
def excitation_at(el, e, t):
    """Excitation of muscle e at time t: the preset, and the reflex from reflex_time on."""
    u = el.excitation[e]
    if t >= el.reflex_time[e] and el.reflex_excitation[e] > u:
        u = el.reflex_excitation[e]
    return u


@njit(**JIT_STAGE)
def muscles(bundle, data, t, q, v, z):
    el = bundle.muscles
    power = 0.0
    for e in range(el.link_a.shape[0]):
        la, lb = el.link_a[e], el.link_b[e]
        length, rate, ux, uy, uz, vax, vay, vaz, vbx, vby, vbz = line_between(
            data, la, el.point_a[e], lb, el.point_b[e])
        # activation dynamics (z holds activation - preset excitation)
        k = el.z_start + e
        a = el.excitation[e] + z[k]
        u = excitation_at(el, e, t)
        tau = el.activation_time[e] if u > a else el.deactivation_time[e]
        data.zdot[k] = (u - a) / tau
        if a < 0.0:
            a = 0.0
        elif a > 1.0:
            a = 1.0
        lopt = el.optimal_length[e]
        l = (length - el.tendon_length[e]) / lopt
        vn = rate / (el.max_velocity[e] * lopt)
        tension = el.max_force[e] * (a * force_length(l, el.width[e]) * force_velocity(vn)
                                     + passive_force(l, el.passive_strain[e],
                                                     el.passive_shape[e]))
        tension += el.damping[e] * rate
        fx, fy, fz = tension * ux, tension * uy, tension * uz
        power += add_force_pair(data, la, el.point_a[e, 0], el.point_a[e, 1], el.point_a[e, 2],
                                vax, vay, vaz, lb, el.point_b[e, 0], el.point_b[e, 1],
                                el.point_b[e, 2], vbx, vby, vbz, fx, fy, fz)
        o = el.out_start + 4 * e
        data.outputs[o] = length
        data.outputs[o + 1] = rate
        data.outputs[o + 2] = a
        data.outputs[o + 3] = tension
    data.power[POWER_MUSCLES] = power
