"""Contact (design.md section 3): impulsive impacts with velocity jumps (issue 11 section 3).

``velocity_jump(model, data, q, v, contacts, restitution, friction)`` gives the generalized
velocities after simultaneous strikes of ``PointContact``s, ``solve_impact`` also the impulses,
and ``impact_event`` an integrator event for a body point striking a plane."""
from occupant.contact.errors import ContactError, ImpactSolverError
from occupant.contact.event import impact_event
from occupant.contact.impact import ImpactResult, solve_impact, velocity_jump
from occupant.contact.point_contact import PointContact

__all__ = ["ContactError", "ImpactSolverError", "ImpactResult", "PointContact", "impact_event",
           "solve_impact", "velocity_jump"]
