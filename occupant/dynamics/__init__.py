"""Kinematics and dynamics of tree systems (seed 003): forward kinematics, Jacobians, RNEA,
CRBA, ABA, inverse dynamics with joint reactions, energy and momentum. The literal
Lagrange-Euler implementation in ``lagrange_euler`` checks the recursive ones."""
from occupant.dynamics.api import (
    STANDARD_GRAVITY, mass_matrix, bias_forces, forward_dynamics, inverse_dynamics,
    joint_reactions, link_poses, body_poses, body_com_positions,
)
from occupant.dynamics.kinematics import body_jacobian, point_jacobian, point_velocity, point_acceleration
from occupant.dynamics.energy import kinetic_energy, potential_energy, center_of_mass, momentum

__all__ = [
    "body_jacobian", "point_jacobian", "point_velocity", "point_acceleration",
    "kinetic_energy", "potential_energy", "center_of_mass", "momentum",
    "STANDARD_GRAVITY", "mass_matrix", "bias_forces", "forward_dynamics", "inverse_dynamics",
    "joint_reactions", "link_poses", "body_poses", "body_com_positions",
]
