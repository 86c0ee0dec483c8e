"""Results of a simulation: sampled states, body motion, energy, channels, events, statistics
and provenance. Written to HDF5 by ``occupant.io.results_h5``."""
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Results:
    t: np.ndarray              # (n,) s
    q: np.ndarray              # (n, nq)
    v: np.ndarray              # (n, nv)
    z: np.ndarray              # (n, nz) extra states (producer states, then work accumulators)
    vdot: np.ndarray           # (n, nv) accelerations at the samples
    f_ext: np.ndarray          # (n, nl, 6) producers' spatial forces on the links (link frames)
    body_com: np.ndarray       # (n, nb, 3) m, world frame
    body_poses: np.ndarray     # (n, nb, 4, 4) world transforms of the body (link) frames: each
    #                            joint's moving frame, the part frame unless it names a child_marker
    base_poses: np.ndarray     # (n, 4, 4) world transform of the base frame B0 (the vehicle)
    base_states: np.ndarray    # (n, 12) B0 spatial velocity and acceleration minus gravity, B0 axes
    energy: dict               # name -> (n,) J: kinetic, potential, total, work, balance
    work: dict                 # power slot (Model.power_names) -> (n,) J, work done since t = 0
    outputs: dict              # "<element>.<quantity>" -> (n,) producer outputs (Model.output_names)
    output_units: dict         # the same names -> unit
    body_names: list
    dof_names: list
    channels: list = field(default_factory=list)   # occupant.Channel
    events: list = field(default_factory=list)     # dicts {name, t}
    stats: dict = field(default_factory=dict)      # solver statistics
    provenance: dict = field(default_factory=dict)
    status: str = "finished"                       # finished | event | diverged
    message: str = ""
    constraint_violation: np.ndarray = None           # (n,) largest |Phi| of the closed loops (m, or
                                                      # the sine of an angle); zeros for trees
    constraint_velocity_violation: np.ndarray = None  # (n,) largest |G v| (m/s, rad/s)

    def __post_init__(self):
        for name in ("constraint_violation", "constraint_velocity_violation"):
            if getattr(self, name) is None:
                setattr(self, name, np.zeros(len(self.t)))

    def summary(self):
        """A few lines for the terminal."""
        lines = [f"simulated {self.t[-1] - self.t[0]:.4f} s in {len(self.t)} samples ({self.status})"]
        if self.message:
            lines.append(f"  {self.message}")
        lines.append("  solver: " + ", ".join(f"{k} {v}" for k, v in self.stats.items()))
        if self.energy:
            e = self.energy["total"]
            lines.append(f"  total energy: start {e[0]:.6g} J, end {e[-1]:.6g} J; work done "
                         f"{self.energy['work'][-1]:.6g} J; balance {self.energy['balance'][-1]:.3g} J")
        return "\n".join(lines)
