"""Run MuJoCo and Pinocchio on our exported models and bring their answers back to our coordinates.

Each engine's velocity coordinates relate to ours by v_engine = P(q) v with P orthogonal (a
permutation, with rotation blocks on the linear rows of free joints). Then, from the engine's
own outputs M_e, h_e, a_e:

    M = P^T M_e P,   h = P^T (h_e + M_e Pdot v),   vdot = P^T (a_e - Pdot v),

and tau_e = P tau. For the rotation blocks, Pdot v = P w with w = (omega x v_lin) on the linear
rows of each free joint that P rotates (R' = R [omega]x).
"""
import numpy as np

from occupant.io import export_mjcf, export_urdf
from occupant.io.mjcf import _mujoco_layout, mujoco_state, mujoco_velocity_jacobian
from occupant.model.joint_types import JointType


def _free_links(model):
    return [l for l in range(model.nl) if model.tree.jtype[l] == JointType.FREE]


def _rotating_w(model, v, links):
    w = np.zeros(model.nv)
    for l in links:
        kv = model.tree.vidx[l]
        w[kv:kv + 3] = np.cross(v[kv + 3:kv + 6], v[kv:kv + 3])
    return w


def _to_ours(P, Pdv, M_e, h_e, a_e):
    return P.T @ M_e @ P, P.T @ (h_e + M_e @ Pdv), P.T @ (a_e - Pdv)


# ---------------------------------------------------------------------------------------------
# MuJoCo

def mujoco_engine(model, tmp_path, q_export, gravity):
    import mujoco
    path = export_mjcf(model, tmp_path / f"{model.name}.xml", q_export, gravity=gravity)
    mjm = mujoco.MjModel.from_xml_path(str(path))
    return mjm, mujoco.MjData(mjm)


def mujoco_reference(model, engine, q, v, tau, q_export):
    """(M, h, vdot) in our coordinates from MuJoCo's mj_fullM, qfrc_bias and qacc."""
    import mujoco
    mjm, mjd = engine
    qpos, qvel = mujoco_state(model, q, v, q_export)
    P = mujoco_velocity_jacobian(model, q)
    Pdv = P @ _rotating_w(model, v, _free_links(model))
    mjd.qpos[:] = qpos
    mjd.qvel[:] = qvel
    mjd.qfrc_applied[:] = P @ tau
    mujoco.mj_forward(mjm, mjd)
    M_e = np.zeros((mjm.nv, mjm.nv))
    mujoco.mj_fullM(mjm, mjd, M_e)
    return _to_ours(P, Pdv, M_e, mjd.qfrc_bias.copy(), mjd.qacc.copy())


def mujoco_joint_names(engine):
    import mujoco
    mjm = engine[0]
    return [mujoco.mj_id2name(mjm, mujoco.mjtObj.mjOBJ_JOINT, i) for i in range(mjm.njnt)]


def expected_mujoco_joint_names(model):
    return [name for name, _, _, _ in _mujoco_layout(model)]


# ---------------------------------------------------------------------------------------------
# Pinocchio from the URDF export (joints matched by name)

def pinocchio_urdf_engine(model, tmp_path, gravity):
    import pinocchio as pin
    path = export_urdf(model, tmp_path / f"{model.name}.urdf")
    pm = pin.buildModelFromUrdf(str(path))
    pm.gravity = pin.Motion(np.asarray(gravity, float), np.zeros(3))
    return pm, pm.createData()


def _pin_urdf_maps(model, pm, q):
    """Pinocchio q and the permutation P (v_pin = P v) for the URDF export."""
    t = model.tree
    q_pin = np.zeros(pm.nq)
    P = np.zeros((pm.nv, model.nv))
    for j in range(1, pm.njoints):
        name, jm = pm.names[j], pm.joints[j]
        iq, iv, kind = jm.idx_q, jm.idx_v, jm.shortname()
        if name in model.index["dof"] and kind != "JointModelFreeFlyer":
            kv = model.dof(name)
            link = next(l for l in range(model.nl) if t.vidx[l] == kv and t.nv[l] == 1)
            angle = q[t.qidx[link]]
            if kind == "JointModelRUBZ":
                q_pin[iq:iq + 2] = np.cos(angle), np.sin(angle)
            elif kind in ("JointModelRZ", "JointModelPZ"):
                q_pin[iq] = angle
            else:
                raise AssertionError(f"unexpected Pinocchio joint {kind} for dof {name}")
            P[iv, kv] = 1.0
        else:
            assert kind == "JointModelFreeFlyer", (name, kind)
            link = model.joint_links[model.joint(name)][0]
            k, kv = t.qidx[link], t.vidx[link]
            q_pin[iq:iq + 3] = q[k:k + 3]
            q_pin[iq + 3:iq + 6], q_pin[iq + 6] = q[k + 4:k + 7], q[k + 3]
            P[iv:iv + 6, kv:kv + 6] = np.eye(6)
    assert np.allclose(P.T @ P, np.eye(model.nv))
    return q_pin, P


def pinocchio_urdf_reference(model, engine, q, v, tau):
    """(M, h, vdot) in our coordinates from pin.crba, pin.rnea (zero acceleration) and pin.aba."""
    pm, pd = engine
    q_pin, P = _pin_urdf_maps(model, pm, q)
    return _pin_outputs(pm, pd, q_pin, P, np.zeros(model.nv), v, tau)


def _pin_outputs(pm, pd, q_pin, P, Pdv, v, tau):
    import pinocchio as pin
    v_pin = P @ v
    M_e = pin.crba(pm, pd, q_pin).copy()
    M_e = np.triu(M_e) + np.triu(M_e, 1).T
    h_e = pin.rnea(pm, pd, q_pin, v_pin, np.zeros(pm.nv)).copy()
    a_e = pin.aba(pm, pd, q_pin, v_pin, P @ tau).copy()
    return _to_ours(P, Pdv, M_e, h_e, a_e)


# ---------------------------------------------------------------------------------------------
# Pinocchio from the MJCF export. Pinocchio's q is MuJoCo's qpos with quaternions as (x, y, z, w)
# and its v MuJoCo's qvel (multi-joint bodies become composite joints), except for free joints:
# there v is Pinocchio's local (body-frame) velocity, and Pinocchio 4.1's MJCF reader gives the
# free joint of a body whose reference pose (p0, R0) is rotated a placement translation
# p0 - R0 p0 (rotation identity), which the translation in q has to make up for.

def pinocchio_mjcf_engine(model, tmp_path, q_export, gravity):
    import pinocchio as pin
    path = export_mjcf(model, tmp_path / f"{model.name}_pin.xml", q_export, gravity=gravity)
    pm = pin.buildModelFromMJCF(str(path))
    pm.gravity = pin.Motion(np.asarray(gravity, float), np.zeros(3))
    return pm, pm.createData()


def pinocchio_mjcf_reference(model, engine, q, v, tau, q_export):
    pm, pd = engine
    qpos, _ = mujoco_state(model, q, v, q_export)
    P = mujoco_velocity_jacobian(model, q)
    q_pin = np.array(qpos)
    nested_free = []
    iq = iv = 0
    for name, mtype, link, role in _mujoco_layout(model):
        if mtype in ("ball", "free"):
            o = 3 if mtype == "free" else 0
            q_pin[iq + o:iq + o + 4] = np.r_[qpos[iq + o + 1:iq + o + 4], qpos[iq + o]]
        if mtype == "free":
            placement = pm.jointPlacements[pm.getJointId(name)]
            assert np.allclose(placement.rotation, np.eye(3), atol=1e-12)
            q_pin[iq:iq + 3] -= placement.translation
            kv = model.tree.vidx[link]
            P[iv:iv + 3, kv:kv + 3] = np.eye(3)
        elif role == "ball" and model.tree.jtype[link] == JointType.FREE:
            nested_free.append(link)
        iq += {"hinge": 1, "slide": 1, "ball": 4, "free": 7}[mtype]
        iv += {"hinge": 1, "slide": 1, "ball": 3, "free": 6}[mtype]
    assert q_pin.shape == (pm.nq,)
    Pdv = P @ _rotating_w(model, v, nested_free)
    return _pin_outputs(pm, pd, q_pin, P, Pdv, v, tau)
