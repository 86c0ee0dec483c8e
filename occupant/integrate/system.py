"""MultibodySystem: a Model with its applied loads and base motion, seen as the first-order ODE
y' = f(t, y), y = (q, v), that every integrator advances."""
import numpy as np

from occupant.integrate.pipeline import make_workspace, state_derivative, normalize_quaternions
from occupant.model.base_motion import BaseMotion, fixed_base_state


class MultibodySystem:
    """``tau`` (nv,) constant applied generalized forces; ``base_motion`` sampled every
    ``base_dt`` seconds over [t0, t_end] into the table the compiled step interpolates."""

    def __init__(self, model, gravity=(0.0, 0.0, -9.81), base_motion=None, tau=None,
                 t0=0.0, t_end=0.0, base_dt=1e-4):
        self.model = model
        self.gravity = np.asarray(gravity, float)
        self.base_motion = base_motion
        self.tau = np.zeros(model.nv) if tau is None else np.ascontiguousarray(tau, float)
        self.ws = make_workspace(model)
        if base_motion is None:
            self.table, self.table_t0, self.table_dt = fixed_base_state(self.gravity)[None, :], t0, 1.0
        else:
            n = int(np.ceil((t_end - t0) / base_dt)) + 2
            self.table = base_motion.table(t0, base_dt, n, self.gravity)
            self.table_t0, self.table_dt = t0, base_dt
        self.n = model.nq + model.nv
        self.nfev = 0

    @property
    def kernel_args(self):
        """The leading arguments of the compiled step kernels."""
        return (self.model.tree, self.model.dof_forces, self.tau, self.table, self.table_t0, self.table_dt)

    def rhs(self, t, y, out=None):
        if out is None:
            out = np.empty(self.n)
        state_derivative(*self.kernel_args, t, y, self.ws, out)
        self.nfev += 1
        return out

    def project(self, y):
        """Return quaternions to unit length (in place)."""
        normalize_quaternions(self.model.tree, y[:self.model.nq])
        return y

    def base_pose(self, t):
        if self.base_motion is None:
            return np.eye(3), np.zeros(3)
        return self.base_motion.pose(t)
