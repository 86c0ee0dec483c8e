"""Data: scratch arrays for one Model, filled by the algorithms in named stages."""
import numpy as np


class Data:
    """Scratch space. Every field can be recomputed from Model and State; nothing here persists
    between steps. Spatial vectors are (angular, linear) in link coordinates."""

    def __init__(self, model):
        nl, nv = model.nl, model.nv
        # kinematics
        self.X_up = np.zeros((nl, 6, 6))       # Plücker transform parent -> link
        self.R_up = np.zeros((nl, 3, 3))       # rotation of the link frame in its parent link
        self.p_up = np.zeros((nl, 3))          # m, link origin in the parent link frame
        self.R_world = np.zeros((nl, 3, 3))    # link axes in the base (B0) frame
        self.p_world = np.zeros((nl, 3))       # m, link origin in the base frame
        # velocities and accelerations
        self.v = np.zeros((nl, 6))             # link spatial velocity
        self.a = np.zeros((nl, 6))             # link spatial acceleration
        self.c = np.zeros((nl, 6))             # velocity-product acceleration
        # forces
        self.f = np.zeros((nl, 6))             # N m, N: force transmitted by each link's joint
        self.f_ext = np.zeros((nl, 6))         # external spatial force on each link, link frame
        self.tau = np.zeros(nv)                # generalized forces
        # articulated-body and composite inertias
        self.I_A = np.zeros((nl, 6, 6))
        self.p_A = np.zeros((nl, 6))
        self.U = np.zeros((nl, 6, 6))
        self.D_inv = np.zeros((nl, 6, 6))
        self.u = np.zeros((nl, 6))
        self.I_C = np.zeros((nl, 6, 6))
        self.work = np.zeros((3, 6, 12))       # small temporaries of the ABA
        self.armature = np.zeros(nv)           # joint-space diagonal added in the ABA (none here)
        # joint-space quantities
        self.M = np.zeros((nv, nv))            # mass matrix D(q)
        self.h = np.zeros(nv)                  # bias forces h(q, v)
        self.vdot = np.zeros(nv)               # accelerations
        # base motion: spatial velocity and acceleration (gravity folded in) of B0, base frame
        self.base = np.zeros(12)
