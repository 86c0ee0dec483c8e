"""Point and body Jacobians, point velocities and accelerations (base frame B0).

A velocity coordinate k of link j with spatial row r moves the link about its own origin: an
angular unit velocity about axis r (r < 3) or a linear unit velocity along axis r - 3; its
column of a point's Jacobian follows from rigid-body kinematics (Siciliano et al., Robotics,
2009, eq. 3.30)."""
import numpy as np

from occupant.dynamics.api import link_poses, inverse_dynamics, _vec


def _path_links(model, link):
    out = []
    while link >= 0:
        out.append(link)
        link = model.tree.parent[link]
    return out[::-1]


def body_jacobian(model, data, q, body, point=(0.0, 0.0, 0.0)):
    """(6, nv) Jacobian of the body's angular velocity and of the velocity of ``point`` (body
    frame, m) both in base coordinates: (omega, v_point) = J v."""
    R, p = link_poses(model, data, q)
    b = model.body(body) if isinstance(body, str) else int(body)
    lk = model.body_link[b]
    r_point = p[lk] + R[lk] @ np.asarray(point, float)
    J = np.zeros((6, model.nv))
    t = model.tree
    for j in _path_links(model, lk):
        for k in range(t.nv[j]):
            row, col = t.srows[j, k], t.vidx[j] + k
            if row < 3:
                w = R[j][:, row]
                J[:3, col] = w
                J[3:, col] = np.cross(w, r_point - p[j])
            else:
                J[3:, col] = R[j][:, row - 3]
    return J


def point_jacobian(model, data, q, body, point=(0.0, 0.0, 0.0)):
    """(3, nv) Jacobian of the base-frame velocity of ``point`` (body frame, m)."""
    return body_jacobian(model, data, q, body, point)[3:]


def point_velocity(model, data, q, v, body, point=(0.0, 0.0, 0.0)):
    """Base-frame velocity (m/s) of ``point`` of ``body`` (B0 at rest)."""
    return point_jacobian(model, data, q, body, point) @ _vec(v, model.nv, "v")


def point_acceleration(model, data, q, v, vdot, body, point=(0.0, 0.0, 0.0), base=None):
    """Acceleration (m/s^2, base coordinates) of ``point`` of ``body``: with ``base`` None, relative
    to a B0 at rest; with a base spatial state it is the acceleration relative to the inertial
    frame minus gravity (what an accelerometer reads), since the base state carries -g."""
    inverse_dynamics(model, data, q, v, vdot, gravity=(0.0, 0.0, 0.0), base=base)
    b = model.body(body) if isinstance(body, str) else int(body)
    lk = model.body_link[b]
    r = np.asarray(point, float)
    w, vo = data.v[lk, :3], data.v[lk, 3:]
    alpha, ao = data.a[lk, :3], data.a[lk, 3:]
    v_p = vo + np.cross(w, r)
    a_link = ao + np.cross(alpha, r) + np.cross(w, v_p)
    R, _ = link_poses(model, data, q)
    return R[lk] @ a_link
