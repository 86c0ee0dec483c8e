"""Models of the impact tests: a free rod and a row of balls on slides along the base x axis."""
import numpy as np

from occupant.dynamics import body_poses
from occupant.modeling import Assembly, Joint, Part, Pose

ROD_AXIAL_INERTIA = 1e-4  # kg m^2 about the rod's own axis (any positive value: no torque about it)


def rod(mass, length):
    """A uniform slender rod (transverse inertia m L^2 / 12 about its centre) along its frame's x
    axis, centre of mass at the frame origin, on a free joint."""
    asm = Assembly("rod")
    I_t = mass * length ** 2 / 12
    asm.add(Part("rod", mass, com=(0.0, 0.0, 0.0), inertia=(ROD_AXIAL_INERTIA, I_t, I_t)))
    asm.add(Joint("free", "free", None, "rod", Pose()))
    return asm.compile()


def rod_state(model, centre, angle, v_centre, omega_y):
    """(q, v): the rod's axis at ``angle`` (rad) above the base x axis in the x-z plane, rising
    towards +x, centre at ``centre``; centre velocity ``v_centre`` and angular velocity omega_y
    about the base y axis, both in B0. The free joint's velocity is in the rod frame
    (joint_types: linear velocity of the frame origin, then angular velocity)."""
    quat = np.array([np.cos(-angle / 2), 0.0, np.sin(-angle / 2), 0.0])  # turn -angle about y
    q = np.concatenate([centre, quat])
    R = body_poses(model, model.make_data(), q)[0, :3, :3]
    assert np.allclose(R[:, 0], [np.cos(angle), 0.0, np.sin(angle)], atol=1e-15)
    return q, np.concatenate([R.T @ np.asarray(v_centre, float), R.T @ np.array([0.0, omega_y, 0.0])])


def rod_motion(model, q, v):
    """(centre velocity, angular velocity) in B0 from the free joint's (rod-frame) velocity."""
    R = body_poses(model, model.make_data(), q)[0, :3, :3]
    return R @ v[:3], R @ v[3:]


# slide axis: the joint frame's z along the base x axis (a turn of +90 deg about y)
SLIDE_ALONG_X = [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]]


def cradle(masses, radius):
    """Balls of ``masses`` (kg) and ``radius`` (m) on prismatic joints along the base x axis,
    touching in a row at q = 0: ball i centred at x = 2 radius i."""
    asm = Assembly("cradle")
    for i, m in enumerate(masses):
        I = 0.4 * m * radius ** 2
        asm.add(Part(f"ball{i}", m, com=(0.0, 0.0, 0.0), inertia=(I, I, I)))
        asm.add(Joint(f"slide{i}", "prismatic", None, f"ball{i}",
                      Pose((2.0 * radius * i, 0.0, 0.0), SLIDE_ALONG_X)))
    return asm.compile()
