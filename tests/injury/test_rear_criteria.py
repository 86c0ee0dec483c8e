"""Rear-impact criteria: Nkm (Schmitt et al. 2002) on constructed loads, NIC and the T1 peak
through the channel evaluation against closed forms, and the whiplash / FMVSS 202a limits."""
import numpy as np
import pytest

from occupant.channel import Channel
from occupant.injury import NKM_INTERCEPTS, assess, evaluate, nij, nkm


def test_analytic_nkm_each_quadrant_and_its_intercepts():
    """Nkm(t) = |Fx| / 845 N + |M_OC| / (88.1 flexion or 47.5 extension) N*m: a load at half
    of each intercept gives 1.0 in its quadrant, and the largest quadrant is reported."""
    f_int, _, m_flex, m_ext = NKM_INTERCEPTS
    t = np.linspace(0.0, 0.04, 401)
    quarter = len(t) // 4
    fx = np.concatenate([np.full(quarter, 0.5 * f_int), np.full(quarter, 0.5 * f_int),
                         np.full(quarter, -0.25 * f_int), np.full(len(t) - 3 * quarter, -0.5 * f_int)])
    m = np.concatenate([np.full(quarter, 0.5 * m_flex), np.full(quarter, -0.3 * m_ext),
                        np.full(quarter, 0.25 * m_flex), np.full(len(t) - 3 * quarter, -0.6 * m_ext)])
    r = nkm(t, fx, m)
    assert r.details["modes"]["NFA"][0] == pytest.approx(1.0, rel=1e-12)
    assert r.details["modes"]["NEA"][0] == pytest.approx(0.8, rel=1e-12)
    assert r.details["modes"]["NFP"][0] == pytest.approx(0.5, rel=1e-12)
    assert r.details["modes"]["NEP"][0] == pytest.approx(1.1, rel=1e-12)
    assert r.details["mode"] == "NEP" and r.value == pytest.approx(1.1, rel=1e-12)
    assert r.t >= t[3 * quarter]


def test_identity_nij_and_nkm_share_the_quadrant_rule():
    """With Nij's intercepts passed to nkm, the two give the same value and time: one rule."""
    rng = np.random.default_rng(7)
    t = np.linspace(0.0, 0.1, 1001)
    f, m = rng.normal(0.0, 2000.0, t.size), rng.normal(0.0, 80.0, t.size)
    a = nij(t, f, m, "hybrid3_50m")
    b = nkm(t, f, m, intercepts=(6806.0, 6160.0, 310.0, 135.0))
    assert a.value == b.value and a.t == b.t


def test_analytic_nic_and_t1_peak_from_channels():
    """T1 x acceleration A sin(pi t / T) with T = 0.1 s (5 Hz, far below CFC 60's 100 Hz corner,
    so the filter leaves it within 0.1 %), head x acceleration zero: a_rel = A sin, v_rel =
    A T / pi (1 - cos), NIC(t) = 0.2 A sin + v_rel^2, maximised up to t_end."""
    dt, amp, dur = 1e-4, 100.0, 0.1
    t = np.arange(0.0, 0.2 + dt / 2, dt)
    a_t1 = np.where(t <= dur, amp * np.sin(np.pi * t / dur), 0.0)
    head = Channel("head", t, np.zeros_like(t), "m/s^2")
    t1 = Channel("t1", t, a_t1, "m/s^2")
    s = np.clip(t, 0.0, dur)
    closed = 0.2 * amp * np.sin(np.pi * s / dur) + (amp * dur / np.pi * (1 - np.cos(np.pi * s / dur))) ** 2
    for t_end in (0.03, None):
        r = evaluate.rear(head, t1, t_end=t_end)
        upto = t <= (t_end if t_end is not None else t[-1])
        assert r["nic"].value == pytest.approx(closed[upto].max(), rel=2e-3)
    assert r["t1_acceleration_g"].value == pytest.approx(amp / 9.80665, rel=1e-3)


def test_reference_nkm_from_channels_uses_the_occipital_condyle_moment():
    """Constant Fx = 422.5 N and load-cell My = 44.05 + 422.5 x 0.01778 N*m: M_OC = 44.05 N*m,
    half the flexion intercept, so Nkm = 0.5 + 0.5 = 1.0 (mode NFA)."""
    t = np.arange(0.0, 0.05, 1e-4)
    zero = Channel("a", t, np.zeros_like(t), "m/s^2")
    fx = Channel("fx", t, np.full(t.size, 422.5), "N")
    my = Channel("my", t, np.full(t.size, 44.05 + 422.5 * 0.01778), "N*m")
    r = evaluate.rear(zero, zero, fx, my)
    assert r["nkm"].value == pytest.approx(1.0, rel=1e-6) and r["nkm"].details["mode"] == "NFA"


def test_reference_whiplash_and_head_restraint_limits():
    """Euro NCAP whiplash sliding scales (BioRID II, medium pulse) give full points at the
    higher limit and none at the lower; FMVSS 202a holds the Hybrid III 50M to HIC15 500 and
    12 deg of head-to-torso rotation."""
    best = {a.criterion: a for a in assess("euroncap_whiplash_medium_biorid2",
                                           {"nic": 11.0, "nkm": 0.15, "rebound_velocity": 3.2,
                                            "t1_acceleration_g": 9.3, "head_restraint_contact_time": 0.053})}
    assert all(a.points == pytest.approx(4.0) for a in best.values()) and len(best) == 5
    worst = assess("euroncap_whiplash_medium_biorid2", {"nic": 24.0, "nkm": 0.55})
    assert all(a.points == pytest.approx(0.0) for a in worst)
    mid = assess("euroncap_whiplash_medium_biorid2", {"nic": 17.5})[0]
    assert mid.points == pytest.approx(2.0)
    # the capping limits of the 2026 rating code's medium-pulse table: past them the region is
    # capped (a contact later than 92 ms likewise)
    capped = {a.criterion: a.capped for a in assess("euroncap_whiplash_medium_biorid2",
                                                    {"nic": 27.5, "nkm": 0.68, "rebound_velocity": 5.3,
                                                     "t1_acceleration_g": 15.5, "head_restraint_contact_time": 0.093})}
    assert capped == {"nic": True, "nkm": False, "rebound_velocity": True, "t1_acceleration_g": False,
                      "head_restraint_contact_time": True}
    # the upper neck [S: the same table]: Fx (+) 30 / 190 N, capping 290 N; Fz 360 / 750 N,
    # capping 900 N; Fx (-) capping only, 360 N
    neck = {a.criterion: a for a in assess("euroncap_whiplash_medium_biorid2",
                                           {"neck_shear_positive": 110.0, "neck_tension": 360.0,
                                            "neck_shear_negative": 359.0})}
    assert neck["neck_shear_positive"].points == pytest.approx(2.0)
    assert neck["neck_tension"].points == pytest.approx(4.0) and neck["neck_shear_negative"].passed
    assert assess("euroncap_whiplash_medium_biorid2", {"neck_tension": 750.0})[0].points == pytest.approx(0.0)
    capped = {a.criterion: a.passed for a in assess("euroncap_whiplash_medium_biorid2",
                                                    {"neck_shear_positive": 291.0, "neck_tension": 899.0,
                                                     "neck_shear_negative": 361.0})}
    assert capped == {"neck_shear_positive": False, "neck_tension": True, "neck_shear_negative": False}
    fmvss = {a.criterion: a.passed for a in assess("fmvss202a_hybrid3_50m", {"hic15": 499.0, "head_rotation_deg": 12.5})}
    assert fmvss == {"hic15": True, "head_rotation_deg": False}
