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
Posture control (``posture_commands``): a muscle may take part of a closed-loop controller's
command, u = preset + control_gain x command, clipped to [0, 1], until its control_end.
The controller holds the pitch of a marker's x axis in B0 (theta = atan2(-x_z, x_x), positive
in flexion about +y) at its value at t = 0 (the reference, ``start_controls``; after a
settling, the one the settling held, carried with its other states: ``carry_states``): the error
theta - reference reaches it through CONTROL_LAGS first-order lags in series of delay/CONTROL_LAGS
each (a neural delay of mean ``delay``: its step response is the Erlang distribution's
cumulative function), and the command is PID on that delayed error e_d,
command = kp e_d + ki int(e_d dt) + kd de_d/dt, the derivative that of the last lag (its rate,
no numerical differencing). Positive commands extend: muscles with control_gain > 0 (extensors)
are excited, those with control_gain < 0 (flexors) relaxed below their preset. The controller
moves the excitation until the muscle's control_end (the pulse's start for the human's neck);
from then on the preset, and from its reflex_time the reflex's step, as without a controller
(the postural control holds the seated posture; the reflex answers the crash, and the neck's
damping was fitted with it).
A producer: reads ``bundle.muscles``, adds the force pair to ``data.f_ext``
(``points.add_force_pair``, the spring-dampers' line geometry), writes the activation rate to
``data.zdot``, (length, length rate, activation, tension) per muscle to ``data.outputs`` and the
power of its forces on the tree to ``data.power``.
"""
import numpy as np
from numba import njit

from occupant.jit import JIT_INLINE, JIT_STAGE
from occupant.forces.points import add_force_pair, line_between
from occupant.model.bundle import CONTROL_LAGS, CONTROL_OUTPUTS, CONTROL_STATES, POWER_MUSCLES

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
def excitation_at(el, e, t, outputs):
    """Excitation of muscle e at time t: the preset plus its share of its controller's command
    (read back from ``outputs``, where ``posture_commands`` wrote it) within [0, 1] until
    control_end; from then on the preset, and from reflex_time the reflex where larger (the
    reflex answering the pulse replaces the postural control)."""
    u = el.excitation[e]
    if t >= el.reflex_time[e]:
        return max(u, el.reflex_excitation[e])
    if t >= el.control_end[e]:
        return u
    k = el.controller[e]
    if k >= 0:
        u += el.control_gain[e] * outputs[el.control_out_start + len(CONTROL_OUTPUTS) * k + 2]
        u = min(max(u, 0.0), 1.0)
    return u


@njit(**JIT_INLINE)
def control_pitch(data, link, R):
    """Pitch (rad, flexion positive about +y of B0) of the x axis of the frame R (link frame)."""
    Rl = data.R_base_link[link]
    xx = Rl[0, 0] * R[0, 0] + Rl[0, 1] * R[1, 0] + Rl[0, 2] * R[2, 0]
    xz = Rl[2, 0] * R[0, 0] + Rl[2, 1] * R[1, 0] + Rl[2, 2] * R[2, 0]
    return np.arctan2(-xz, xx)


@njit(**JIT_INLINE)
def posture_commands(el, data, z):
    """Each posture controller's error, delayed error and command to data.outputs, its states'
    rates to data.zdot (module docstring)."""
    ns, no = len(CONTROL_STATES), len(CONTROL_OUTPUTS)
    for k in range(el.control_link.shape[0]):
        s = el.control_z_start + ns * k
        error = control_pitch(data, el.control_link[k], el.control_R[k]) - z[s]
        lag = el.control_delay[k] / CONTROL_LAGS
        before = error
        for i in range(CONTROL_LAGS):
            data.zdot[s + 2 + i] = (before - z[s + 2 + i]) / lag
            before = z[s + 2 + i]
        delayed = z[s + 1 + CONTROL_LAGS]
        data.zdot[s] = 0.0
        data.zdot[s + 1] = delayed
        o = el.control_out_start + no * k
        data.outputs[o] = error
        data.outputs[o + 1] = delayed
        data.outputs[o + 2] = (el.control_kp[k] * delayed + el.control_ki[k] * z[s + 1]
                               + el.control_kd[k] * data.zdot[s + 1 + CONTROL_LAGS])


def start_controls(model, q0, z0):
    """z0 (a copy) with each posture controller's reference the pitch it reads at q0 (t = 0),
    its integral and lags as z0 has them (zero: no error yet)."""
    from occupant.dynamics.api import link_poses
    z = np.array(z0, dtype=float)
    el = model.muscles
    if el is None or not len(el.control_link):
        return z
    R, _ = link_poses(model, model.make_data(), q0)
    for k in range(len(el.control_link)):
        s = el.control_z_start + len(CONTROL_STATES) * k
        x = R[el.control_link[k]] @ el.control_R[k][:, 0]
        z[s] = np.arctan2(-x[2], x[0])
    return z


def carry_states(model, z0, settled):
    """z0 (a copy) with the muscles' states, their activations and their posture controllers'
    (reference, error integral, lags), taken from ``settled`` (a z of the same model): the run
    goes on from the settling, and the settling's buckled part from its unbelted part, holding
    the posture the settling started from with the effort built to hold it
    (``simulate.initial_states``). Started afresh instead (reference the settled pitch, integral
    and lags zero, activations at their presets) the holding command was lost: with no pulse
    the posture-controlled human's head moved 2.6 deg in the run's first 60 ms, 1.0 carried
    (the reflex human's, at its presets, 0.8: the settled torso's own creep;
    scenarios/validation/HISTORY.md, neckcarry). Without controllers the settled activations
    are the presets (their states zero) and z0 comes back unchanged."""
    z = np.array(z0, dtype=float)
    el = model.muscles
    if el is None or not len(el.link_a):
        return z
    for a, b in ((el.z_start, el.z_start + len(el.link_a)),
                 (el.control_z_start,
                  el.control_z_start + len(CONTROL_STATES) * len(el.control_link))):
        z[a:b] = settled[a:b]
    return z


@njit(**JIT_STAGE)
def muscles(bundle, data, t, q, v, z):
    el = bundle.muscles
    posture_commands(el, data, z)
    power = 0.0
    for e in range(el.link_a.shape[0]):
        la, lb = el.link_a[e], el.link_b[e]
        length, rate, ux, uy, uz, vax, vay, vaz, vbx, vby, vbz = line_between(
            data, la, el.point_a[e], lb, el.point_b[e])
        # activation dynamics (z holds activation - preset excitation)
        k = el.z_start + e
        a = el.excitation[e] + z[k]
        u = excitation_at(el, e, t, data.outputs)
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
