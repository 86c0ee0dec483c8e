"""A point contact between a body and a fixed obstacle or a second body, and its Jacobian.

The relative velocity at the contact point is J_rel v with J_rel = J_body(point) - J_other(point)
(3, nv), the point Jacobians of the two bodies' material points at the contact point (Siciliano et
al., Robotics, 2009, eq. 3.30, in ``occupant.dynamics.point_jacobian``). All vectors are in the
base frame B0 of the model, in which obstacles are fixed.
"""
from dataclasses import dataclass

import numpy as np

from occupant.contact.errors import ContactError
from occupant.dynamics import body_poses, point_jacobian
from occupant.model.model import ModelError

UNIT_TOLERANCE = 1e-9  # |‖normal‖ - 1| accepted as a unit normal


@dataclass(frozen=True)
class PointContact:
    """``body`` (name) touches at ``point`` (m, base frame B0); ``normal`` (unit, B0) points from
    the obstacle, or from the body named ``other``, into ``body``."""
    body: str
    point: tuple
    normal: tuple
    other: str = None


def _vector3(value, what):
    try:
        a = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ContactError(f"{what}: expected 3 numbers, got {value!r}") from None
    if a.shape != (3,) or not np.all(np.isfinite(a)):
        raise ContactError(f"{what}: expected 3 finite numbers, got {value!r}")
    return a


def _body_index(model, name, what):
    try:
        return model.body(name)
    except (ModelError, TypeError):
        raise ContactError(f"{what}: unknown body {name!r} (known: {', '.join(model.body_names)})") from None


def unit_normal(value, what):
    """The normal as an array, checked to be a unit vector."""
    n = _vector3(value, what)
    if abs(np.linalg.norm(n) - 1.0) > UNIT_TOLERANCE:
        raise ContactError(f"{what}: expected a unit vector, got {value!r} "
                           f"(length {np.linalg.norm(n):.6g})")
    return n


def check_contact(model, contact, k):
    """(body index, other index or -1, point, normal) of ``contact`` number ``k``, validated."""
    where = f"contacts[{k}]"
    if not isinstance(contact, PointContact):
        raise ContactError(f"{where}: expected an occupant.contact.PointContact, got {contact!r}")
    b = _body_index(model, contact.body, f"{where}.body")
    o = -1 if contact.other is None else _body_index(model, contact.other, f"{where}.other")
    if o == b:
        raise ContactError(f"{where}.other: a body cannot touch itself ('{contact.other}'); "
                           f"accepted: another body's name or None for a fixed obstacle")
    return b, o, _vector3(contact.point, f"{where}.point"), unit_normal(contact.normal, f"{where}.normal")


def relative_jacobian(model, data, q, body, other, point):
    """(3, nv) Jacobian of the velocity of ``body``'s material point at ``point`` (B0) relative
    to ``other``'s (or to B0 when ``other`` is -1)."""
    X = body_poses(model, data, q)

    def material(b):
        R, o = X[b, :3, :3], X[b, :3, 3]
        return point_jacobian(model, data, q, b, R.T @ (point - o))

    J = material(body)
    if other >= 0:
        J = J - material(other)
    return J


def tangent_basis(normal, velocity):
    """Unit tangents (t1, t2), t2 = n x t1: t1 along the slip, the tangential part of the relative
    ``velocity``, when there is one (a planar slip then lies along friction directions of the
    pyramid), else along the projection of the base axis least aligned with the normal."""
    s = velocity - normal * (normal @ velocity)
    if np.linalg.norm(s) <= 1e-12 * np.linalg.norm(velocity) or not np.any(s):
        axis = np.eye(3)[np.argmin(np.abs(normal))]
        s = axis - normal * (normal @ axis)
    t1 = s / np.linalg.norm(s)
    return t1, np.cross(normal, t1)
