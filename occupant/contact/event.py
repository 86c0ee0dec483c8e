"""An integrator event for a point of a body striking a plane fixed in B0: located where the
point's signed distance to the plane falls through zero, handled by the velocity jump of
``impact.velocity_jump``, after which the integration restarts (``integrate.driver.solve``)."""
import numpy as np

from occupant.contact.errors import ContactError
from occupant.contact.impact import _check_parameters, velocity_jump
from occupant.contact.point_contact import PointContact, _body_index, _vector3, unit_normal
from occupant.dynamics import body_poses
from occupant.integrate.driver import Event


def impact_event(model, body, point_in_body, plane_point, plane_normal, restitution=0.0,
                 friction=0.0, friction_directions=8, name=None):
    """An ``Event`` for ``simulate(..., events=[...])``: ``point_in_body`` (m, body frame) of
    ``body`` strikes the plane through ``plane_point`` with unit normal ``plane_normal`` (B0,
    pointing to the side the point comes from). The event function is the signed distance
    n.(r_point - r_plane) (m), falling; the handler replaces v in y = (q, v, z) by the velocity
    after the impact. The plane is fixed in B0 (an interior surface, say) and v is relative to
    B0, whose own motion is smooth over the instant of a strike, so the jump is the same with or
    without a base motion. It models strikes, not resting contact: a point left at zero distance and
    zero normal speed would strike again at once (use a compliant contact for resting)."""
    b = _body_index(model, body, "body")
    r_body = _vector3(point_in_body, "point_in_body")
    r_plane = _vector3(plane_point, "plane_point")
    n = unit_normal(plane_normal, "plane_normal")
    _check_parameters(restitution, friction, friction_directions)
    if name is not None and not isinstance(name, str):
        raise ContactError(f"name: expected a string or None, got {name!r}")
    data = model.make_data()
    nq, nv = model.nq, model.nv

    def point_world(q):
        X = body_poses(model, data, q)[b]
        return X[:3, :3] @ r_body + X[:3, 3]

    def distance(t, y):
        return float(n @ (point_world(y[:nq]) - r_plane))

    def strike(t, y):
        q = y[:nq]
        contact = PointContact(model.body_names[b], tuple(point_world(q)), tuple(n))
        out = np.array(y, dtype=float)
        out[nq:nq + nv] = velocity_jump(model, data, q, y[nq:nq + nv], [contact],
                                        restitution, friction, friction_directions)
        return out

    return Event(name or f"impact_{model.body_names[b]}", distance, direction=-1.0,
                 terminal=False, handler=strike)
