"""Public entry points of the dynamics: thin wrappers that check shapes and call the compiled
recursions. Signatures follow conventions rule 1: (model, data, q, v, ...)."""
import numpy as np

from occupant.constants import STANDARD_GRAVITY
from occupant.dynamics.aba import forward_dynamics_aba
from occupant.dynamics.crba import crba
from occupant.dynamics.rnea import rnea
from occupant.dynamics.spatial_ops import forward_kinematics
from occupant.jit import FastCall
from occupant.model.base_motion import fixed_base_state
from occupant.model.data import CrbaData, ForwardData, RneaData, view
from occupant.model.model import ModelError

# the compiled algorithms, called without numba's per-call type dispatch (jit.FastCall)
_aba = FastCall(forward_dynamics_aba)
_crba = FastCall(crba)
_rnea = FastCall(rnea)
_forward_kinematics = FastCall(forward_kinematics)
_views = {}   # view type -> (the last Data, its view)


def _view(record_type, data):
    """``data``'s view of ``record_type`` (``model.data``), what the compiled algorithms are
    given: only the arrays each reads, each array passed costing time on every call."""
    last = _views.get(record_type)
    if last is None or last[0] is not data:
        last = _views[record_type] = data, view(record_type, data)
    return last[1]


def _vec(x, n, what):
    a = np.ascontiguousarray(x, dtype=np.float64)
    if a.shape != (n,):
        raise ModelError(f"{what}: expected shape ({n},), got {a.shape}")
    return a


_STANDARD_BASE = fixed_base_state(STANDARD_GRAVITY)


def _base(base, gravity):
    if base is None:
        return _STANDARD_BASE if gravity is STANDARD_GRAVITY else fixed_base_state(gravity)
    return _vec(base, 12, "base")


def _load(model, data, base, gravity, f_ext):
    """Put B0's state and the external forces where the compiled algorithms read them."""
    data.base[:] = _base(base, gravity)
    if f_ext is None:
        data.f_ext.fill(0.0)
        return
    f = np.asarray(f_ext, dtype=np.float64)
    if f.shape != (model.nl, 6):
        raise ModelError(f"f_ext: expected shape ({model.nl}, 6), got {f.shape}")
    data.f_ext[:] = f


def mass_matrix(model, data, q):
    """Joint-space mass matrix D(q) (nv, nv) by the composite-rigid-body algorithm."""
    q = _vec(q, model.nq, "q")
    _crba(model.tree, _view(CrbaData, data), q)
    return data.M.copy()


def inverse_dynamics(model, data, q, v, vdot, f_ext=None, gravity=STANDARD_GRAVITY, base=None):
    """tau = D(q) vdot + h(q, v) - J^T f_ext by the recursive Newton-Euler algorithm.

    ``f_ext`` (nl, 6): external spatial forces (moment, force) on each link about its origin, in
    link coordinates. ``base``: the (12,) spatial state of B0 from ``BaseMotion.spatial_state``
    (gravity folded in); without it, B0 is at rest and ``gravity`` acts. Afterwards ``data.f``
    holds the spatial force each joint transmits to its link (see ``joint_reactions``)."""
    q, v, vdot = _vec(q, model.nq, "q"), _vec(v, model.nv, "v"), _vec(vdot, model.nv, "vdot")
    _load(model, data, base, gravity, f_ext)
    _rnea(model.tree, _view(RneaData, data), q, v, vdot)
    return data.tau.copy()


def bias_forces(model, data, q, v, gravity=STANDARD_GRAVITY, base=None):
    """h(q, v): Coriolis, centrifugal, gravity and base-motion generalized forces."""
    return inverse_dynamics(model, data, q, v, np.zeros(model.nv), gravity=gravity, base=base)


def forward_dynamics(model, data, q, v, tau, f_ext=None, gravity=STANDARD_GRAVITY, base=None,
                     method="aba"):
    """vdot = D(q)^-1 (tau + J^T f_ext - h(q, v)); ``method`` "aba" (articulated-body algorithm)
    or "cholesky" (CRBA mass matrix and RNEA bias forces, Cholesky solve)."""
    q, v, tau = _vec(q, model.nq, "q"), _vec(v, model.nv, "v"), _vec(tau, model.nv, "tau")
    _load(model, data, base, gravity, f_ext)
    if method == "aba":
        data.armature[:] = 0.0
        _aba(model.tree, _view(ForwardData, data), q, v, tau)
        return data.vdot.copy()
    if method == "cholesky":
        import scipy.linalg
        _rnea(model.tree, _view(RneaData, data), q, v, np.zeros(model.nv))
        h = data.tau.copy()
        _crba(model.tree, _view(CrbaData, data), q)
        return scipy.linalg.cho_solve(scipy.linalg.cho_factor(data.M), tau - h)
    raise ModelError(f"forward_dynamics: unknown method '{method}' (accepted: aba, cholesky)")


def joint_reactions(model, data):
    """Reaction load of every joint after ``inverse_dynamics``: (nj, 6) array of (Fx, Fy, Fz, Mx,
    My, Mz) in N and N m that the parent exerts on the child through the joint, at the origin of
    the joint's last moving frame and in its axes (the child part frame unless a child marker
    offsets it)."""
    out = np.zeros((len(model.joint_names), 6))
    for j, links in enumerate(model.joint_links):
        f = data.f[links[-1]]
        out[j, :3], out[j, 3:] = f[3:], f[:3]
    return out


def link_poses(model, data, q):
    """(R_base_link (nl, 3, 3), p_base_link (nl, 3)) of every link in the base frame B0."""
    q = _vec(q, model.nq, "q")
    _forward_kinematics(model.tree, _view(ForwardData, data), q)
    return data.R_base_link.copy(), data.p_base_link.copy()


def inverse_dynamics_samples(model, data, q, v, vdot, base, f_ext=None):
    """``inverse_dynamics`` and ``link_poses`` at each of n samples, as a sensor reads them:
    (v, a, f) each (n, nl, 6), the link spatial velocities, accelerations and transmitted forces
    (``data.v``, ``data.a``, ``data.f``), and (R_base_link (n, nl, 3, 3), p_base_link (n, nl,
    3)). ``q`` (n, nq), ``v``, ``vdot`` (n, nv), ``base`` (n, 12) B0's states, ``f_ext`` (n, nl,
    6) or None. The shapes are checked once and each sample goes straight to the compiled
    recursions (the same calls as ``inverse_dynamics`` then ``link_poses``, hence the same
    numbers), without their per-call checks and copies."""
    n = len(q)
    arrays = []
    for x, width, what in ((q, model.nq, "q"), (v, model.nv, "v"), (vdot, model.nv, "vdot"),
                           (base, 12, "base")):
        a = np.ascontiguousarray(x, dtype=np.float64)
        if a.shape != (n, width):
            raise ModelError(f"{what}: expected shape ({n}, {width}), got {a.shape}")
        arrays.append(a)
    q, v, vdot, base = arrays
    if f_ext is not None:
        f_ext = np.asarray(f_ext, dtype=np.float64)
        if f_ext.shape != (n, model.nl, 6):
            raise ModelError(f"f_ext: expected shape ({n}, {model.nl}, 6), got {f_ext.shape}")
    nl = model.nl
    V, A, F = np.empty((n, nl, 6)), np.empty((n, nl, 6)), np.empty((n, nl, 6))
    R, P = np.empty((n, nl, 3, 3)), np.empty((n, nl, 3))
    tree, rnea_data, forward_data = model.tree, _view(RneaData, data), _view(ForwardData, data)
    data.f_ext.fill(0.0)
    for k in range(n):
        data.base[:] = base[k]
        if f_ext is not None:
            data.f_ext[:] = f_ext[k]
        _rnea(tree, rnea_data, q[k], v[k], vdot[k])
        V[k], A[k], F[k] = data.v, data.a, data.f
        _forward_kinematics(tree, forward_data, q[k])
        R[k], P[k] = data.R_base_link, data.p_base_link
    return V, A, F, R, P


def body_poses(model, data, q, base_pose=None):
    """(nb, 4, 4) transforms of the body (link) frames; in the world frame when ``base_pose``
    (R_world_base, p_world_base) is given, otherwise in the base frame B0."""
    R, p = link_poses(model, data, q)
    out = np.zeros((model.nb, 4, 4))
    out[:, 3, 3] = 1.0
    out[:, :3, :3] = R[model.body_link]
    out[:, :3, 3] = p[model.body_link]
    if base_pose is not None:
        Rb, pb = base_pose
        out[:, :3, :3] = Rb @ out[:, :3, :3]
        out[:, :3, 3] = out[:, :3, 3] @ Rb.T + pb
    return out


def body_com_positions(model, data, q, base_pose=None):
    """(nb, 3) centre-of-mass positions (world frame with ``base_pose``, else base frame)."""
    X = body_poses(model, data, q, base_pose)
    return np.einsum("bij,bj->bi", X[:, :3, :3], model.body_com) + X[:, :3, 3]
