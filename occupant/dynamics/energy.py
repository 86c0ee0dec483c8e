"""Energy, momentum and centre of mass of the whole tree."""
import numpy as np

from occupant.constants import STANDARD_GRAVITY
from occupant.dynamics.api import inverse_dynamics, body_com_positions, link_poses, _vec


def kinetic_energy(model, data, q, v, base=None):
    """T = 1/2 sum_i v_i . I_i v_i (J) over the links' spatial velocities; with ``base`` the
    velocities include the base's own (energy relative to the world)."""
    inverse_dynamics(model, data, q, v, np.zeros(model.nv), gravity=(0.0, 0.0, 0.0), base=base)
    return 0.5 * float(np.einsum("li,lij,lj->", data.v, model.tree.inertia, data.v))


def potential_energy(model, data, q, gravity=STANDARD_GRAVITY, base_pose=None):
    """V = -sum_b m_b g . c_b (J), centres of mass in the world frame."""
    com = body_com_positions(model, data, q, base_pose)
    return float(-np.sum(model.body_mass * (com @ np.asarray(gravity, float))))


def center_of_mass(model, data, q, base_pose=None):
    """Centre of mass of the whole model (m)."""
    com = body_com_positions(model, data, q, base_pose)
    return model.body_mass @ com / model.body_mass.sum()


def momentum(model, data, q, v):
    """(linear (3,) kg m/s, angular about the base origin (3,) kg m^2/s) in base coordinates,
    B0 at rest."""
    v = _vec(v, model.nv, "v")
    inverse_dynamics(model, data, q, v, np.zeros(model.nv), gravity=(0.0, 0.0, 0.0))
    R, p = link_poses(model, data, q)
    lin, ang = np.zeros(3), np.zeros(3)
    for i in range(model.nl):
        h = model.tree.inertia[i] @ data.v[i]          # (angular about link origin, linear)
        h_lin = R[i] @ h[3:]
        h_ang = R[i] @ h[:3] + np.cross(p[i], h_lin)
        lin += h_lin
        ang += h_ang
    return lin, ang
