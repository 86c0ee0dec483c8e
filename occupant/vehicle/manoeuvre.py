"""Vehicle manoeuvres on level ground: static settle, straight-line braking, step steer; and the
chassis motion of a run as the prescribed base motion B0 of an occupant.

Runs use the state-space implicit integrators (occupant.simulate, integrator "radau" by default)
since the vehicle has closed loops. Chassis coordinates are those of the chassis' floating
joint: x, y, z of the body frame's origin in the world, then yaw, pitch, roll (intrinsic z-y-x,
ISO 8855 axes: x forward, y left, z up; positive pitch is nose down).
"""
from dataclasses import dataclass

import numpy as np

import occupant
from occupant.constants import G0
from occupant.dynamics.api import mass_matrix
from occupant.model.base_motion import BaseMotion
from occupant.vehicle.compile import compile_vehicle, constraint_jacobian

CHASSIS = "chassis.floating"


@dataclass
class Manoeuvre:
    """A run and its chassis channels (world frame, SI): ``t`` (n,) s, ``position`` (n, 3) m of
    the chassis frame origin, ``angles`` (n, 3) rad (yaw, pitch, roll), ``velocity`` (n, 3) m/s,
    ``acceleration`` (n, 3) m/s^2 (of the origin), and the Results."""
    t: np.ndarray
    position: np.ndarray
    angles: np.ndarray
    velocity: np.ndarray
    acceleration: np.ndarray
    results: object
    model: object

    @property
    def pitch_deg(self):
        """Nose-down pitch, deg."""
        return np.degrees(self.angles[:, 1])

    @property
    def deceleration_g(self):
        """Longitudinal deceleration along the heading, g (positive when slowing down)."""
        yaw = self.angles[:, 0]
        return -(self.acceleration[:, 0] * np.cos(yaw) + self.acceleration[:, 1] * np.sin(yaw)) / G0


def _chassis_dofs(model):
    return [model.dof(f"{CHASSIS}_{s}") for s in ("x", "y", "z", "yaw", "pitch", "roll")]


def rolling_state(model, q, speed):
    """Velocities of the vehicle at configuration q rolling straight ahead at ``speed`` (m/s):
    chassis x rate, each wheel's spin rate speed / (wheel centre height) about its axis, and the
    rest (a driveline turning with the wheels) the velocities of least kinetic energy relative to
    those (Kelvin's minimum-energy theorem) that satisfy the constraint rows and the couplers
    between two joints."""
    v = np.zeros(model.nv)
    v[_chassis_dofs(model)[0]] = speed
    data = model.make_data()
    from occupant.dynamics.spatial_ops import forward_kinematics
    forward_kinematics(model.tree, data, q)
    tyres = model.tyres
    for e in range(len(tyres.link)):
        R, p = data.R_base_link[tyres.link[e]], data.p_base_link[tyres.link[e]]
        centre, axis = R @ tyres.centre[e] + p, R @ tyres.axis[e]
        # forward rolling: omega = speed / r about +y of the world, seen along the spin axis
        v[tyres.spin_dof[e]] = speed / centre[2] * axis[1]
    return _consistent(model, q, v, _chassis_dofs(model) + list(tyres.spin_dof))


def _consistent(model, q, v, held):
    """v with its entries other than ``held`` minimising 1/2 v_f^T M_ff v_f (the mass matrix at
    q) subject to G v = 0 (the constraint rows at q) and r_a v_a + r_b v_b = 0 (each coupler
    between two joints): the KKT system, solved in the least-squares sense (rows may be
    redundant)."""
    _, G = constraint_jacobian(model, q)
    c = model.couplers
    pairs = np.flatnonzero(c.dof_b >= 0)
    C = np.zeros((len(pairs), model.nv))
    C[np.arange(len(pairs)), c.dof_a[pairs]] = c.ratio_a[pairs]
    C[np.arange(len(pairs)), c.dof_b[pairs]] = c.ratio_b[pairs]
    A = np.vstack([G, C])
    free = np.setdiff1d(np.arange(model.nv), held)
    if len(free) and len(A):
        M = mass_matrix(model, model.make_data(), q)[np.ix_(free, free)]
        K = np.block([[M, A[:, free].T], [A[:, free], np.zeros((len(A), len(A)))]])
        rhs = np.concatenate([np.zeros(len(free)), -A[:, held] @ v[held]])
        v[free] = np.linalg.lstsq(K, rhs, rcond=None)[0][:len(free)]
    return v


def run(vehicle, t_end, q0=None, speed=0.0, pedal=None, steering=None, integrator="radau",
        rtol=1e-4, atol=1e-6, output_dt=1e-3, **kwargs):
    """Simulate ``vehicle`` (an editable Subsystem tree) from q0 (default the design position)
    rolling at ``speed``; ``pedal``: (n, 2) (t s, brake pedal 0-1); ``steering``: (n, 2) (t s,
    steering-wheel angle rad) for the driver servo. Returns a Manoeuvre."""
    targets = {} if steering is None else {"steering.driver": np.asarray(steering, float)}
    model = compile_vehicle(vehicle, pedal=pedal, targets=targets, check=False)
    q0 = model.neutral_configuration() if q0 is None else np.asarray(q0, float)
    v0 = rolling_state(model, q0, speed)
    r = occupant.simulate(model, t_end=t_end, q0=q0, v0=v0, integrator=integrator, rtol=rtol,
                          atol=atol, output_dt=output_dt, **kwargs)
    dofs = _chassis_dofs(model)
    q, v, vdot = r.q[:, dofs], r.v[:, dofs], r.vdot[:, dofs]
    return Manoeuvre(r.t, q[:, :3], q[:, 3:], v[:, :3], vdot[:, :3], r, model)


def settle(vehicle, t_end=1.0, **kwargs):
    """Static equilibrium on level ground: released at the design position, at rest."""
    return run(vehicle, t_end, **kwargs)


def hard_brake(vehicle, q0, speed=50 / 3.6, t_end=2.0, delay=0.05, rise=0.15, **kwargs):
    """Straight-line braking from ``speed`` (m/s) starting at the settled configuration q0: the
    pedal goes from 0 to 1 over ``rise`` s after ``delay`` s (brake torques at full pedal sized
    for about 1 g, vehicles/sedan_*_wheels.toml)."""
    pedal = np.array([[0.0, 0.0], [delay, 0.0], [delay + rise, 1.0], [t_end + 1.0, 1.0]])
    return run(vehicle, t_end, q0=q0, speed=speed, pedal=pedal, **kwargs)


def step_steer(vehicle, q0, speed=50 / 3.6, angle=np.radians(90.0), t_end=2.0, delay=0.1,
               rise=0.2, **kwargs):
    """Step steer (ISO 7401 style): steering-wheel angle ramped to ``angle`` (rad) over ``rise``
    s after ``delay`` s at constant ``speed`` (no drive: the speed drifts down slightly)."""
    steering = np.array([[0.0, 0.0], [delay, 0.0], [delay + rise, angle], [t_end + 1.0, angle]])
    return run(vehicle, t_end, q0=q0, speed=speed, steering=steering, **kwargs)


def _rotation_zyx(yaw, pitch, roll):
    cy, sy, cp, sp, cr, sr = np.cos(yaw), np.sin(yaw), np.cos(pitch), np.sin(pitch), np.cos(roll), np.sin(roll)
    Rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    Ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    Rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    return Rz @ Ry @ Rx


CHASSIS_TABLES = ("t", "angles", "position", "velocity", "acceleration", "angular_velocity",
                  "angular_acceleration")   # chassis_tables' keys, in the order stored (precrash)


def chassis_tables(man, marker="chassis.driver_h_point"):
    """The motion of the chassis frame at ``marker`` (its origin, axes of the chassis) during the
    manoeuvre ``man`` as tables at its output times (CHASSIS_TABLES): ``t`` (n,) s, ``angles``
    (n, 3) yaw, pitch, roll (rad), ``position``, ``velocity``, ``acceleration`` (n, 3) of the
    marker, ``angular_velocity``, ``angular_acceleration`` (n, 3), world frame. Position,
    velocity and acceleration from the floating joint's coordinates, rates and recorded
    accelerations; the angular acceleration by differentiating the angular velocity at the
    output times."""
    model, r = man.model, man.results
    dofs = _chassis_dofs(model)
    q, v, a = r.q[:, dofs], r.v[:, dofs], r.vdot[:, dofs]
    src = model.source.markers[marker]
    r_m = src.position - model.source.markers[f"{CHASSIS}.j"].position   # design frame offset
    n = len(r.t)
    R = np.array([_rotation_zyx(*q[k, 3:]) for k in range(n)])
    ez, ey, ex = np.eye(3)[2], np.eye(3)[1], np.eye(3)[0]
    omega = np.empty((n, 3))
    for k in range(n):
        Rz = _rotation_zyx(q[k, 3], 0.0, 0.0)
        Rzy = _rotation_zyx(q[k, 3], q[k, 4], 0.0)
        omega[k] = v[k, 3] * ez + v[k, 4] * (Rz @ ey) + v[k, 5] * (Rzy @ ex)
    alpha = np.gradient(omega, r.t, axis=0)
    arm = R @ r_m
    pos = q[:, :3] + arm
    vel = v[:, :3] + np.cross(omega, arm)
    acc = a[:, :3] + np.cross(alpha, arm) + np.cross(omega, np.cross(omega, arm))
    return dict(zip(CHASSIS_TABLES, (r.t, q[:, 3:], pos, vel, acc, omega, alpha)))


def tabled_motion(tables):
    """The BaseMotion of chassis_tables' ``tables``: linear interpolation between samples (the
    attitude's angles interpolated)."""
    t = tables["t"]

    def table(values):
        return lambda s: np.array([np.interp(s, t, values[:, k]) for k in range(values.shape[1])])

    angles = table(tables["angles"])
    return BaseMotion(position=table(tables["position"]), rotation=lambda s: _rotation_zyx(*angles(s)),
                      velocity=table(tables["velocity"]), angular_velocity=table(tables["angular_velocity"]),
                      acceleration=table(tables["acceleration"]),
                      angular_acceleration=table(tables["angular_acceleration"]))


def chassis_base_motion(man, marker="chassis.driver_h_point"):
    """The motion of the chassis frame at ``marker`` during the manoeuvre ``man`` as a BaseMotion:
    the prescribed B0 of an occupant whose interior is given in that frame (chassis_tables,
    tabled_motion)."""
    return tabled_motion(chassis_tables(man, marker))
