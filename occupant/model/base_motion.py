"""Prescribed motion of the base frame B0 (the vehicle) as functions of time.

The dynamics needs, in base coordinates, the spatial velocity of B0 and its spatial acceleration
with gravity folded in (Featherstone RBDA 2008, section 5.3: a_0 = a_B0 - g), so that every
recursion starts from the base as from a fixed root.
"""
import numpy as np


def _const(value):
    value = np.asarray(value, dtype=float)
    return lambda t: value


class BaseMotion:
    """Motion of B0 in the world frame. Each argument is a callable t -> value (world frame):
    ``position`` (3,) m, ``rotation`` R_world_base (3, 3), ``velocity`` (3,) m/s of the base
    origin, ``angular_velocity`` (3,) rad/s, ``acceleration`` (3,) m/s^2 of the base origin and
    ``angular_acceleration`` (3,) rad/s^2. Missing ones are constant (zero, identity). The caller
    is responsible for their consistency (velocity = d position/dt and so on); ``translational``
    builds a consistent motion from an acceleration pulse."""

    def __init__(self, position=None, rotation=None, velocity=None, angular_velocity=None,
                 acceleration=None, angular_acceleration=None):
        self._translation = None
        zero = np.zeros(3)
        self.position = position or _const(zero)
        self.rotation = rotation or _const(np.eye(3))
        self.velocity = velocity or _const(zero)
        self.angular_velocity = angular_velocity or _const(zero)
        self.acceleration = acceleration or _const(zero)
        self.angular_acceleration = angular_acceleration or _const(zero)

    @classmethod
    def translational(cls, t, acceleration, velocity0=(0.0, 0.0, 0.0), position0=(0.0, 0.0, 0.0)):
        """A base that only translates, with the tabulated world acceleration ``acceleration``
        ((n,) along world x, or (n, 3)) at times ``t`` (n,) s: linear between samples, held at
        the end values outside them; velocity and position are its exact integrals (quadratic
        and cubic between samples), so that a coarse table's velocity is the derivative of its
        position and its acceleration that of its velocity, as the energy balance needs."""
        t = np.asarray(t, dtype=float)
        acc = np.asarray(acceleration, dtype=float)
        if acc.ndim == 1:
            acc = np.column_stack([acc, np.zeros_like(acc), np.zeros_like(acc)])
        if acc.shape != (len(t), 3) or len(t) < 2 or np.any(np.diff(t) <= 0):
            raise ValueError("BaseMotion.translational: t must be increasing with >= 2 samples and "
                             "acceleration of shape (n,) or (n, 3) matching t")
        table = _PiecewiseLinear(t, acc, np.asarray(velocity0, float), np.asarray(position0, float))

        def component(order):
            return lambda s: table(s, order).T

        motion = cls(position=component(0), velocity=component(1), acceleration=component(2))
        motion._translation = table   # for the vectorised ``table``
        return motion

    def pose(self, t):
        """(R_world_base, p_world_base) at time t."""
        return np.asarray(self.rotation(t), float), np.asarray(self.position(t), float)

    def poses(self, t):
        """(n, 4, 4) homogeneous X_world_B0 at the times ``t`` (n,): a ``translational`` base
        (R = I) at all times at once, others by ``pose`` at each."""
        out = np.tile(np.eye(4), (len(t), 1, 1))
        if self._translation is not None:
            out[:, :3, 3] = self.position(np.asarray(t, dtype=float)).T
        else:
            for k, tk in enumerate(t):
                out[k, :3, :3], out[k, :3, 3] = self.pose(tk)
        return out

    def spatial_state(self, t, gravity):
        """(12,) array: base spatial velocity (omega, v) and spatial acceleration minus gravity
        (alpha, a - omega x v - g), all in base coordinates."""
        R = np.asarray(self.rotation(t), float)
        w = R.T @ np.asarray(self.angular_velocity(t), float)
        v = R.T @ np.asarray(self.velocity(t), float)
        alpha = R.T @ np.asarray(self.angular_acceleration(t), float)
        a = R.T @ (np.asarray(self.acceleration(t), float) - np.asarray(gravity, float))
        out = np.empty(12)
        out[0:3], out[3:6] = w, v
        out[6:9], out[9:12] = alpha, a - np.cross(w, v)
        return out

    def table(self, t0, dt, n, gravity):
        """Samples of spatial_state at t0 + k dt, k = 0..n-1, for the compiled loops: (n, 12).
        A ``translational`` base (R = I, no rotation: the state is (0, v(t), 0, a(t) - g)) is
        sampled for all times at once; others call spatial_state once per sample."""
        if self._translation is None:
            return np.array([self.spatial_state(t0 + k * dt, gravity) for k in range(n)])
        s = t0 + np.arange(n) * dt
        out = np.zeros((n, 12))
        out[:, 3:6] = self._translation(s, 1)
        out[:, 9:12] = self._translation(s, 2) - np.asarray(gravity, float)
        return out


class _PiecewiseLinear:
    """A translation whose acceleration is linear between the samples (t (n,) s, acc (n, 3)
    m/s^2) and held outside them, from velocity v0 and position p0 at t[0]: position, velocity
    and acceleration at any times, each the exact integral of the next."""

    def __init__(self, t, acc, v0, p0):
        h = np.diff(t)[:, None]                                      # (n-1, 1) s
        vel = v0 + np.concatenate([np.zeros((1, 3)), np.cumsum(h * (acc[:-1] + acc[1:]) / 2, axis=0)])
        step = h * vel[:-1] + h ** 2 * (2 * acc[:-1] + acc[1:]) / 6
        self.t, self.acc, self.vel = t, acc, vel                     # (n,), (n, 3), (n, 3)
        self.pos = p0 + np.concatenate([np.zeros((1, 3)), np.cumsum(step, axis=0)])   # (n, 3) m
        self.slope = np.concatenate([np.diff(acc, axis=0) / h, np.zeros((1, 3))])     # (n, 3) m/s^3

    def __call__(self, s, order):
        """Position (order 0), velocity (1) or acceleration (2) at the times ``s``: (..., 3)."""
        s = np.asarray(s, dtype=float)
        i = np.clip(np.searchsorted(self.t, s, side="right") - 1, 0, len(self.t) - 1)
        tau = (s - self.t[i])[..., None]
        slope = np.where((s >= self.t[0])[..., None], self.slope[i], 0.0)   # held before t[0]
        a, v, p = self.acc[i], self.vel[i], self.pos[i]
        if order == 2:
            return a + slope * tau
        if order == 1:
            return v + a * tau + slope * tau ** 2 / 2
        return p + v * tau + a * tau ** 2 / 2 + slope * tau ** 3 / 6


def fixed_base_state(gravity):
    """spatial_state of a base at rest in the world frame."""
    out = np.zeros(12)
    out[9:12] = -np.asarray(gravity, float)
    return out
