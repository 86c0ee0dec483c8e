"""Contact (design.md section 3): compliant contact of ellipsoids, spheres and planes as a force
producer of the step (``compliant``, ``geometry_pairs``; declared with
``occupant.modeling.ContactPair``), and impulsive impacts with velocity jumps.

``velocity_jump(model, data, q, v, contacts, restitution, friction)`` gives the generalized
velocities after simultaneous strikes of ``PointContact``s, ``solve_impact`` also the impulses,
and ``impact_event`` an integrator event for a body point striking a plane.
``signed_distances(model, q, t)`` gives each declared pair's exact signed distance, an airbag
contact pair's too (the clearance, negative, that its outputs, 0 apart, do not carry;
``compliant``)."""
from occupant.contact.errors import ContactError, ImpactSolverError
from occupant.contact.impact import ImpactResult, solve_impact, velocity_jump
from occupant.contact.point_contact import PointContact

__all__ = ["ContactError", "ImpactSolverError", "ImpactResult", "PointContact", "impact_event",
           "signed_distances", "solve_impact", "velocity_jump"]


def __getattr__(name):
    # The step (occupant.integrate) registers contact force producers from this package
    # (design.md section 4), so importing the package must not import occupant.integrate;
    # impact_event builds an occupant.integrate.Event and is loaded on first use (PEP 562).
    if name == "impact_event":
        from occupant.contact.event import impact_event
        return impact_event
    if name == "signed_distances":
        from occupant.contact.compliant import signed_distances
        return signed_distances
    raise AttributeError(f"module 'occupant.contact' has no attribute '{name}'")
