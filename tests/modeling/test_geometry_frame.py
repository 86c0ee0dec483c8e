"""``occupant.modeling.poses.geometry_frame``, the one place that says where a geometry was at a
recorded sample (the belt clearance's ellipsoids, the unpaired-body check's surfaces): against
the compiled contact's own placement of the same ellipsoid, through the depth of an ellipsoid on a
limb into a plane fixed in B0 (``contact.compliant.signed_distances``), with the ellipsoid given a
position and rotation of its own on an offset, rotated marker, in B0 and from world poses."""
import numpy as np

from occupant.contact.compliant import signed_distances
from occupant.dynamics.api import body_poses
from occupant.modeling.poses import geometry_frame
from occupant.modeling import (Assembly, ContactCharacteristic, ContactPair, Ellipsoid, Joint, Marker,
                               Part, Plane, Pose)


def _rot(axis, angle):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * K @ K


def _limb():
    """Two parts on revolute joints; on the second an ellipsoid placed off an offset, turned marker; a floor."""
    asm = Assembly("limb")
    asm.add(Part("upper", 2.0, inertia=(0.01, 0.01, 0.01)), Part("lower", 1.5, inertia=(0.01, 0.01, 0.01)))
    asm.add(Joint("shoulder", "revolute", None, "upper", Pose((0.0, 0.0, 1.0), _rot((1, 0, 0), 0.3))),
            Joint("elbow", "revolute", "upper", "lower", Pose((0.0, 0.0, -0.3), _rot((0, 1, 0), -0.4))))
    asm.add(Marker("cuff", "lower", (0.02, -0.03, -0.2), _rot((1, 1, 0), 0.7)),
            Ellipsoid("forearm", "cuff", (0.05, 0.04, 0.12), position=(0.01, 0.02, -0.05),
                      rotation=_rot((0, 1, 1), 0.5)),
            Plane("floor", None, point=(0.0, 0.0, 0.45)))
    asm.add(ContactPair("forearm_floor", "forearm", "floor", ContactCharacteristic(stiffness=1e4)))
    return asm.compile()


def _depth(R, p, D, point, normal):
    """Closed form: how far the ellipsoid (R, p, semi-axes D) passes the plane."""
    return float((np.asarray(point) - p) @ normal + np.linalg.norm((R.T @ normal) * D))


class _Results:
    def __init__(self, poses, base=None):
        self.body_poses, self.base_poses = poses[None], None if base is None else base[None]


def test_geometry_frame_places_the_ellipsoid_where_the_compiled_contact_does():
    model = _limb()
    data = model.make_data()
    D = np.array([0.05, 0.04, 0.12])
    depths = []
    for q in ([0.2, -0.9], [1.1, 0.4], [-0.6, 1.3]):
        q = np.array(q)
        R, p = geometry_frame(model, _Results(body_poses(model, data, q)), "forearm", 0)
        expected = signed_distances(model, q)["forearm_floor"]
        assert abs(_depth(R, p, D, (0, 0, 0.45), np.array([0.0, 0.0, 1.0])) - expected) < 1e-12
        assert np.allclose(R.T @ R, np.eye(3), atol=1e-12)
        depths.append(expected)
    assert np.ptp(depths) > 0.05          # the three postures place it differently


def test_geometry_frame_reads_world_poses_into_the_vehicle_frame():
    model = _limb()
    data = model.make_data()
    q = np.array([0.7, -0.5])
    Rb, pb = _rot((0.3, -1.0, 0.4), 1.1), np.array([2.0, -1.0, 0.5])
    base = np.eye(4)
    base[:3, :3], base[:3, 3] = Rb, pb
    in_b0 = geometry_frame(model, _Results(body_poses(model, data, q)), "forearm", 0)
    from_world = geometry_frame(model, _Results(body_poses(model, data, q, (Rb, pb)), base),
                                "forearm", 0)
    assert np.allclose(in_b0[0], from_world[0], atol=1e-12)
    assert np.allclose(in_b0[1], from_world[1], atol=1e-12)
    floor = geometry_frame(model, _Results(body_poses(model, data, q), base), "floor", 0)
    assert np.allclose(floor[0], np.eye(3)) and np.allclose(floor[1], 0.0)   # B0's own
