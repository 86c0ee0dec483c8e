"""Line muscles: a Hill-type force element between two markers (issue 14 section 2), and its
compile step to the flat ``MuscleBlock`` (occupant.model.bundle) that the kernel
``occupant.forces.muscles`` reads.

The muscle pulls its two ends together with the tension (Hill 1938; Zajac 1989, Crit. Rev. Biomed.
Eng. 17:359, rigid tendon)

    T = F_max (a f_L(l) f_V(v) + f_P(l)) + c L',   l = (L - L_t) / L_opt,   v = L' / (v_max L_opt)

L the distance between the markers' origins, L_t a rigid tendon, a the activation, a state with
first-order dynamics towards the excitation u(t): da/dt = (u - a) / tau, tau the activation
time constant while u > a and the deactivation one otherwise (Zajac 1989, eq. 3 simplified as in
Thelen 2003, J. Biomech. Eng. 125:70). u is the preset ``excitation`` (relaxed or braced) until
``reflex_time``, then the larger of it and ``reflex_excitation`` (a reflex after the pulse starts,
as the volunteer-based active neck models model it: a delayed step of excitation). A muscle
with a ``control_marker`` adds ``control_gain`` times the command of the posture controller that
holds that marker's pitch (PID gains ``control_kp``, ``_ki``, ``_kd`` on the error delayed by
``control_delay``; occupant.forces.muscles, posture_commands) until ``control_end`` (from then the
preset, then the reflex): muscles naming the same marker share one controller, and must give it
the same gains and delay.
The curves f_L, f_V, f_P are in ``occupant.forces.muscles``.
"""
import math
from dataclasses import dataclass

import numpy as np

from occupant.model.bundle import (CONTROL_OUTPUTS, CONTROL_STATES, MuscleBlock, MUSCLE_OUTPUTS,
                                   freeze_block)
from occupant.modeling.elements import ModelingError

# Defaults of the curves (each also a field of Muscle):
MAX_VELOCITY = 10.0       # optimal lengths/s, v_max of adult muscle [S Thelen 2003, Zajac 1989]
WIDTH = 0.45              # gamma of f_L = exp(-(l - 1)^2 / gamma) [S Thelen 2003, eq. 3]
PASSIVE_STRAIN = 0.6      # strain at which f_P = 1 (young adults) [S Thelen 2003, eq. 2]
PASSIVE_SHAPE = 4.0       # k_PE of f_P [S Thelen 2003, eq. 2]
ACTIVATION_TIME = 0.015   # s [S Thelen 2003, tau_act 15 ms]
DEACTIVATION_TIME = 0.050  # s [S Thelen 2003, tau_deact 50 ms]


@dataclass
class Muscle:
    """Hill-type line muscle from ``marker_a`` (origin) to ``marker_b`` (insertion); lengths in m,
    forces in N, times in s (module docstring for the law)."""
    name: str
    marker_a: str
    marker_b: str
    max_force: float
    optimal_length: float
    tendon_length: float = 0.0
    max_velocity: float = MAX_VELOCITY
    width: float = WIDTH
    passive_strain: float = PASSIVE_STRAIN
    passive_shape: float = PASSIVE_SHAPE
    damping: float = 0.0
    excitation: float = 0.0
    reflex_excitation: float = 0.0
    reflex_time: float = math.inf
    control_end: float = math.inf
    activation_time: float = ACTIVATION_TIME
    deactivation_time: float = DEACTIVATION_TIME
    control_marker: str = ""
    control_gain: float = 0.0
    control_kp: float = 0.0
    control_ki: float = 0.0
    control_kd: float = 0.0
    control_delay: float = 0.0

    def __post_init__(self):
        what = f"muscle '{self.name}'"
        for key in ("max_force", "tendon_length", "damping"):
            val = getattr(self, key)
            if not (isinstance(val, (int, float)) and math.isfinite(val) and val >= 0):
                raise ModelingError(f"{what}.{key}: must be a finite number >= 0, got {val!r}")
        for key in ("optimal_length", "max_velocity", "width", "passive_strain", "passive_shape",
                    "activation_time", "deactivation_time"):
            val = getattr(self, key)
            if not (isinstance(val, (int, float)) and math.isfinite(val) and val > 0):
                raise ModelingError(f"{what}.{key}: must be a finite number > 0, got {val!r}")
        for key in ("excitation", "reflex_excitation"):
            val = getattr(self, key)
            if not (isinstance(val, (int, float)) and 0.0 <= val <= 1.0):
                raise ModelingError(f"{what}.{key}: must be a number in [0, 1], got {val!r}")
        for key, never in (("reflex_time", "no reflex"), ("control_end", "never")):
            val = getattr(self, key)
            if not (isinstance(val, (int, float)) and not math.isnan(val)):
                raise ModelingError(f"{what}.{key}: must be a time in s (inf: {never}), "
                                    f"got {val!r}")
        if not isinstance(self.control_marker, str):
            raise ModelingError(f"{what}.control_marker: must be a marker name (\"\": no "
                                f"posture control), got {self.control_marker!r}")
        for key in ("control_gain", "control_kp", "control_ki", "control_kd", "control_delay"):
            val = getattr(self, key)
            if not (isinstance(val, (int, float)) and math.isfinite(val)
                    and (val >= 0 or key == "control_gain")):
                raise ModelingError(f"{what}.{key}: must be a finite number"
                                    f"{'' if key == 'control_gain' else ' >= 0'}, got {val!r}")
        if self.control_marker and self.control_delay <= 0:
            raise ModelingError(f"{what}.control_delay: must be > 0 s with a control_marker, "
                                f"got {self.control_delay!r}")

    @property
    def refs(self):
        refs = {"marker": self.marker_a, "marker_b": self.marker_b}
        if self.control_marker:
            refs["control_marker"] = self.control_marker
        return refs

    def control(self):
        """The posture controller's parameters (kp, ki, kd, delay), shared by its muscles."""
        return (self.control_kp, self.control_ki, self.control_kd, self.control_delay)


_FLOATS = ("max_force", "optimal_length", "tendon_length", "max_velocity", "width",
           "passive_strain", "passive_shape", "damping", "excitation", "reflex_excitation",
           "reflex_time", "control_end", "activation_time", "deactivation_time")


def muscle_block(asm, marker_index, marker_body, body_link, marker_R, marker_p, outputs, states):
    """The MuscleBlock of the assembly's muscles (compile step; ``outputs``/``states`` are the
    compiler's layouts of Data.outputs and z)."""
    elements = list(asm.muscles.values())
    controls = {}                                   # control marker -> (kp, ki, kd, delay)
    for e in elements:
        if e.control_marker:
            first = controls.setdefault(e.control_marker, e.control())
            if first != e.control():
                raise ModelingError(f"muscle '{e.name}': control_kp, _ki, _kd, _delay "
                                    f"{e.control()} differ from {first}, given by another muscle "
                                    f"of the controller of marker '{e.control_marker}'")
    order = list(controls)
    cols = {k: [] for k in ("link_a", "point_a", "link_b", "point_b") + _FLOATS}
    for e in elements:
        for end, marker in (("a", e.marker_a), ("b", e.marker_b)):
            m = marker_index[marker]
            cols[f"link_{end}"].append(body_link[marker_body[m]])
            cols[f"point_{end}"].append(marker_p[m])
        for k in _FLOATS:
            cols[k].append(float(getattr(e, k)))
    for end in "ab":
        cols[f"link_{end}"] = np.array(cols[f"link_{end}"], dtype=int)
        cols[f"point_{end}"] = np.array(cols[f"point_{end}"], dtype=float).reshape(-1, 3)
    for k in _FLOATS:
        cols[k] = np.array(cols[k], dtype=float)
    cols["out_start"] = outputs.reserve(asm.muscles, MUSCLE_OUTPUTS)
    cols["z_start"] = states.reserve(asm.muscles, (("activation_change", "1"),))
    cols["controller"] = np.array([order.index(e.control_marker) if e.control_marker else -1
                                   for e in elements], dtype=int)
    cols["control_gain"] = np.array([e.control_gain for e in elements], dtype=float)
    cols["control_link"] = np.array([body_link[marker_body[marker_index[m]]] for m in order],
                                    dtype=int)
    cols["control_R"] = np.array([marker_R[marker_index[m]] for m in order],
                                 dtype=float).reshape(-1, 3, 3)
    for i, key in enumerate(("control_kp", "control_ki", "control_kd", "control_delay")):
        cols[key] = np.array([controls[m][i] for m in order], dtype=float)
    names = [f"{m}.control" for m in order]
    cols["control_out_start"] = outputs.reserve(names, CONTROL_OUTPUTS)
    cols["control_z_start"] = states.reserve(names, CONTROL_STATES)
    return freeze_block(MuscleBlock, cols)
