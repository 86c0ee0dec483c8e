"""Criteria from raw channels: each body region's channels filtered with the class its
criteria prescribe, resultants formed after filtering, then the criteria computed.

Channels come in with their units (``m/s^2`` or ``g``; ``N`` or ``kN``; ``N*m``; ``m`` or
``mm``) and must be uniformly sampled. The returned dicts are keyed by the criterion keys of
`occupant.injury.limits`, so they can go straight to `assess`.

Filter classes: `occupant.injury.criteria.CRITERION_CFC` (SAE J211-1, FMVSS 208, Euro NCAP).
"""

from __future__ import annotations

import numpy as np

from occupant.channel import Channel
from occupant.injury import criteria as C
from occupant.injury.errors import InjuryInputError
from occupant.injury.filters import cfc_filter

__all__ = ["head", "chest", "neck", "femur", "tibia", "pelvis", "rear"]

# factor to SI per accepted unit spelling
_TO_SI = {
    "m/s^2": 1.0, "m/s**2": 1.0, "m/(s*s)": 1.0, "g": C.G0,
    "N": 1.0, "kN": 1000.0,
    "N*m": 1.0, "Nm": 1.0, "N m": 1.0,
    "m": 1.0, "mm": 1.0e-3,
}
_KIND = {"m/s^2": "acceleration", "m/s**2": "acceleration", "m/(s*s)": "acceleration", "g": "acceleration",
         "N": "force", "kN": "force", "N*m": "moment", "Nm": "moment", "N m": "moment", "m": "length", "mm": "length"}


def _si(ch, kind: str, label: str, cfc: int, t_ref=None):
    if not isinstance(ch, Channel):
        raise InjuryInputError(f"{label}: expected an occupant Channel, got {type(ch).__name__}")
    if _KIND.get(ch.unit) != kind:
        accepted = ", ".join(u for u, k in _KIND.items() if k == kind)
        raise InjuryInputError(f"{label}: unit {ch.unit!r} is not a {kind} unit (accepted: {accepted})")
    if t_ref is not None and not (ch.t.shape == t_ref.shape and np.allclose(ch.t, t_ref, rtol=0, atol=1e-12)):
        raise InjuryInputError(f"{label}: its time axis differs from the region's first channel")
    try:
        dt = ch.dt
    except ValueError as err:
        raise InjuryInputError(f"{label}: {err}") from None
    return cfc_filter(ch.values * _TO_SI[ch.unit], dt, cfc)


def head(ax, ay, az) -> dict:
    """HIC15, HIC36 (with t1, t2) and the cumulative 3 ms clip from head-CG accelerations,
    each axis CFC 1000, resultant after filtering, converted to g for the criteria."""
    cfc = C.CRITERION_CFC["hic"]
    x = _si(ax, "acceleration", "ax", cfc)
    y = _si(ay, "acceleration", "ay", cfc, ax.t)
    z = _si(az, "acceleration", "az", cfc, ax.t)
    a_g = C.resultant(x, y, z) / C.G0  # g, at the API edge of HIC / 3 ms clip
    return {"hic15": C.hic(ax.t, a_g, 0.015), "hic36": C.hic(ax.t, a_g, 0.036), "head_a3ms_g": C.clip3ms(ax.t, a_g)}


def chest(ax=None, ay=None, az=None, deflection=None, dummy: str = "hybrid3_50m") -> dict:
    """Chest 3 ms clip (spine accelerations CFC 180), peak deflection (CFC 600) and VC
    (deflection CFC 180); give the accelerations, the deflection (J211 polarity), or both."""
    out = {}
    if ax is not None:
        cfc = C.CRITERION_CFC["chest_a3ms"]
        if ay is None or az is None:
            raise InjuryInputError("ay, az: the chest 3 ms clip needs all three acceleration components")
        a_g = C.resultant(_si(ax, "acceleration", "ax", cfc), _si(ay, "acceleration", "ay", cfc, ax.t),
                          _si(az, "acceleration", "az", cfc, ax.t)) / C.G0
        out["chest_a3ms_g"] = C.clip3ms(ax.t, a_g)
    if deflection is not None:
        d600 = _si(deflection, "length", "deflection", C.CRITERION_CFC["chest_deflection"])
        d180 = _si(deflection, "length", "deflection", C.CRITERION_CFC["viscous_criterion"])
        out["chest_deflection"] = C.chest_deflection(deflection.t, d600)
        out["vc"] = C.viscous_criterion(deflection.t, d180, dummy)
    if not out:
        raise InjuryInputError("ax, deflection: give the chest accelerations, the deflection, or both")
    return out


def neck(fx, fz, my, dummy: str = "hybrid3_50m") -> dict:
    """Upper-neck criteria, all channels CFC 600: Nij from Fz and the occipital-condyle moment
    M_OC = My - Fx d; tension, compression, shear (|Fx|, and Fx's positive and negative peaks
    apart, as the whiplash tables judge them) peaks with exceedance curves (also under
    the ``*_duration`` keys for duration-dependent limits); extension moment at the OC."""
    cfc = C.CRITERION_CFC["nij"]
    x = _si(fx, "force", "fx", cfc)
    z = _si(fz, "force", "fz", cfc, fx.t)
    m = _si(my, "moment", "my", cfc, fx.t)
    m_oc = C.moment_at_occipital_condyle(x, m, dummy)
    peaks = C.neck_peaks(fx.t, x, z, m_oc)
    return {
        "nij": C.nij(fx.t, z, m_oc, dummy),
        "neck_tension": peaks["tension"],
        "neck_compression": peaks["compression"],
        "neck_shear": peaks["shear"],
        "neck_shear_positive": peaks["shear_positive"],
        "neck_shear_negative": peaks["shear_negative"],
        "neck_extension": peaks["extension"],
        "neck_tension_duration": peaks["tension"],
        "neck_shear_duration": peaks["shear"],
    }


def femur(fz) -> dict:
    """Femur axial compression (CFC 600), peak and exceedance curve."""
    f = C.femur_force(fz.t, _si(fz, "force", "fz", C.CRITERION_CFC["femur_force"]))
    return {"femur_compression": f, "femur_compression_duration": f}


def tibia(mx, my, fz, dummy: str = "hybrid3_50m") -> dict:
    """Tibia index and tibia axial compression (CFC 600)."""
    cfc = C.CRITERION_CFC["tibia_index"]
    x = _si(mx, "moment", "mx", cfc)
    y = _si(my, "moment", "my", cfc, mx.t)
    z = _si(fz, "force", "fz", cfc, mx.t)
    comp = C.femur_force(mx.t, z)  # same definition: peak of -Fz
    return {"tibia_index": C.tibia_index(mx.t, x, y, z, dummy),
            "tibia_compression": C.CriterionResult("tibia_compression", comp.value, "N", t=comp.t)}


def pelvis(ax, ay, az) -> dict:
    """Peak resultant pelvis acceleration (g; CFC 1000, resultant after filtering), with its
    cumulative 3 ms clip in ``details["a3ms"]``."""
    cfc = C.CRITERION_CFC["pelvis_acceleration"]
    a_g = C.resultant(_si(ax, "acceleration", "ax", cfc), _si(ay, "acceleration", "ay", cfc, ax.t),
                      _si(az, "acceleration", "az", cfc, ax.t)) / C.G0
    return {"pelvis_acceleration_g": C.pelvis_acceleration(ax.t, a_g)}


def rear(head_ax, t1_ax, fx=None, my=None, dummy: str = "hybrid3_50m", t_end=None) -> dict:
    """Rear-impact (whiplash) criteria: NIC from the head-CG and T1 x accelerations (CFC 60) up
    to ``t_end`` (s, end of head-restraint contact; None: the whole record), the peak T1 x
    acceleration (g, CFC 60, forward positive) and, with the upper-neck shear ``fx`` and moment
    ``my``, Nkm at the occipital condyle (CFC 600)."""
    cfc = C.CRITERION_CFC["nic"]
    a_h = _si(head_ax, "acceleration", "head_ax", cfc)
    a_t1 = _si(t1_ax, "acceleration", "t1_ax", cfc, head_ax.t)
    k = int(np.argmax(a_t1))
    out = {"nic": C.nic(head_ax.t, a_t1, a_h, t_end=t_end),
           "t1_acceleration_g": C.CriterionResult("t1_acceleration", float(a_t1[k] / C.G0), "g",
                                                  t=float(head_ax.t[k]))}
    if fx is not None and my is not None:
        cfc = C.CRITERION_CFC["nkm"]
        x = _si(fx, "force", "fx", cfc)
        m = _si(my, "moment", "my", cfc, fx.t)
        out["nkm"] = C.nkm(fx.t, x, C.moment_at_occipital_condyle(x, m, dummy))
    return out
