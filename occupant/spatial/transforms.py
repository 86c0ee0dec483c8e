"""Homogeneous 4x4 transforms and modified Denavit-Hartenberg (Khalil-Kleinfinger) frames."""
import numpy as np


def homogeneous(R, p):
    """4x4 transform [[R, p], [0, 1]]."""
    X = np.eye(4)
    X[:3, :3] = R
    X[:3, 3] = p
    return X


def invert_homogeneous(X):
    """Inverse of a rigid 4x4 transform."""
    R, p = X[:3, :3], X[:3, 3]
    return homogeneous(R.T, -R.T @ p)


def mdh_transform(gamma=0.0, b=0.0, alpha=0.0, d=0.0, theta=0.0, r=0.0):
    """Khalil-Kleinfinger modified-DH frame transform X_parent_child (4x4).

    X = Rot_z(gamma) Trans_z(b) Rot_x(alpha) Trans_x(d) Rot_z(theta) Trans_z(r)
    (W. Khalil, J. Kleinfinger, "A new geometric notation for open and closed-loop robots",
    IEEE ICRA 1986). With gamma = b = 0 it is Craig's modified DH convention.
    """
    cg, sg = np.cos(gamma), np.sin(gamma)
    ca, sa = np.cos(alpha), np.sin(alpha)
    ct, st = np.cos(theta), np.sin(theta)
    Rz_g = np.array([[cg, -sg, 0], [sg, cg, 0], [0, 0, 1.0]])
    Rx_a = np.array([[1.0, 0, 0], [0, ca, -sa], [0, sa, ca]])
    Rz_t = np.array([[ct, -st, 0], [st, ct, 0], [0, 0, 1.0]])
    R = Rz_g @ Rx_a @ Rz_t
    p = np.array([0.0, 0.0, b]) + Rz_g @ (np.array([d, 0.0, 0.0]) + Rx_a @ np.array([0.0, 0.0, r]))
    return homogeneous(R, p)
