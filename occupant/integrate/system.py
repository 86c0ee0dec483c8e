"""MultibodySystem: a Model with its applied loads and base motion for one run, seen as the
first-order ODE y' = f(t, y), y = (q, v, z), that every integrator advances. It owns the run's
compiled bundle (``Model.bundle``) and the one Data the step fills."""
import numpy as np

from occupant.constants import STANDARD_GRAVITY
from occupant.integrate.pipeline import state_derivative
from occupant.jit import FastCall
from occupant.model.base_motion import fixed_base_state
from occupant.model.joint_motion import normalize_quaternions


class MultibodySystem:
    """``tau`` (nv,) constant applied generalized forces; ``base_motion`` sampled every
    ``base_dt`` seconds over [t0, t_end] into the table the compiled step interpolates."""

    def __init__(self, model, gravity=STANDARD_GRAVITY, base_motion=None, tau=None,
                 t0=0.0, t_end=0.0, base_dt=1e-4):
        self.model = model
        self.gravity = np.asarray(gravity, float)
        self.base_motion = base_motion
        if base_motion is None:
            table, table_dt = fixed_base_state(self.gravity)[None, :], 1.0
        else:
            n = int(np.ceil((t_end - t0) / base_dt)) + 2
            table, table_dt = base_motion.table(t0, base_dt, n, self.gravity), base_dt
        self.bundle = model.bundle(table, t0, table_dt, tau)
        self.data = model.make_data()
        self.n = model.nq + model.nv + model.nz
        self.nfev = 0
        self._state_derivative = FastCall(state_derivative)

    def initial_state(self, q, v, z=None):
        """y = (q, v, z) with unit quaternions; z defaults to zeros (no work done yet)."""
        z = np.zeros(self.model.nz) if z is None else np.asarray(z, float)
        return self.project(np.concatenate([np.asarray(q, float), np.asarray(v, float), z]))

    def rhs(self, t, y, out=None):
        if out is None:
            out = np.empty(self.n)
        self._state_derivative(self.bundle, self.data, float(t), np.ascontiguousarray(y, dtype=float), out)
        self.nfev += 1
        return out

    def jacobian(self, t, y):
        """df/dy (n, n) by forward differences of ``rhs``, each column stepped by
        sqrt(eps) max(|y_j|, 1) (Hairer & Wanner, Solving ODEs II, 1996, section IV.8); the
        hook implicit methods call (``Integrator.jacobian``). Quaternion columns are
        differentiated in the embedding space, without projection."""
        y = np.array(y, dtype=float)
        f0 = self.rhs(t, y).copy()
        J = np.empty((self.n, self.n))
        for j in range(self.n):
            step = np.sqrt(np.finfo(float).eps) * max(abs(y[j]), 1.0)
            yj = y[j]
            y[j] = yj + step
            J[:, j] = (self.rhs(t, y) - f0) / step
            y[j] = yj
        return J

    def project(self, y):
        """Return quaternions to unit length (in place)."""
        normalize_quaternions(self.model.tree, y[:self.model.nq])
        return y

