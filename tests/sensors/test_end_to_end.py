"""Simulate the Hybrid III 50M on a sled pulse, evaluate the standard sensors and the injury
criteria on their channels.

There is no belt, seat or contact model yet, so a free pelvis would be in free flight and every
accelerometer would read ~0; the pelvis is therefore welded to the sled (joint kind "fixed")
here, which makes the pelvis accelerometer an exact check of the pipeline. RK4 at 2e-5 s (the
dummy's regularised joint friction is too stiff for 1e-4 s), output every 1e-4 s = the 10 kHz
channel grid, so no interpolation happens.
"""
import numpy as np

import occupant
from occupant.constants import STANDARD_GRAVITY
from occupant.human.assemble import assemble
from occupant.human.loader import load_description
from occupant.injury import evaluate as injury
from occupant.model import BaseMotion
from occupant.sensors import default_sensors, evaluate

G0 = 9.80665


def test_sled_pulse_channels_and_criteria():
    header, segments = load_description("hybrid3_50m")
    segments[0].joint_kind = "fixed"
    model = assemble(header["name"], segments).compile()
    tp = np.linspace(0.0, 0.1, 1001)
    pulse = np.where(tp < 0.08, -20 * G0 * np.sin(np.pi * tp / 0.08), 0.0)   # 20 g, 80 ms half-sine
    res = occupant.simulate(model, 0.1, dt=2e-5, output_dt=1e-4,
                            base_motion=BaseMotion.translational(tp, pulse, velocity0=(13.9, 0, 0)))
    assert res.status == "finished"
    chans = evaluate(model, res, default_sensors(model))
    ch = {c.name: c for c in chans}
    assert len(chans) == 3 + 6 + 3 + 1 + 3 + 6 + 6 + 4 * 6     # and the four tibia cells
    assert all(len(c) == 1001 and np.all(np.isfinite(c.values)) for c in chans)
    assert ch["Head CG acceleration X"].code == "11HEAD0000H3ACX0"
    assert ch["Upper neck moment Y"].code == "11NECKUP00H3MOY0"
    assert ch["Left femur force Z"].code == "11FEMRLE00H3FOZ0"
    assert ch["Left upper tibia force Z"].code == "11TIBILEUPH3FOZ0"
    assert ch["Right lower tibia moment Y"].code == "11TIBIRILOH3MOY0"
    # welded pelvis: it reads the pulse and -1 g (J211 z down)
    np.testing.assert_allclose(ch["Pelvis acceleration X"].values, np.interp(res.t, tp, pulse), atol=1e-8)
    np.testing.assert_allclose(ch["Pelvis acceleration Z"].values, STANDARD_GRAVITY[2], atol=1e-8)
    # symmetric pulse, symmetric dummy: nothing lateral
    for name in ("Head CG acceleration Y", "Upper neck force Y", "Upper neck moment X", "Upper neck moment Z"):
        assert np.max(np.abs(ch[name].values)) < 1e-6
    head = injury.head(ch["Head CG acceleration X"], ch["Head CG acceleration Y"], ch["Head CG acceleration Z"])
    a_max_g = np.max(np.linalg.norm([ch[f"Head CG acceleration {a}"].values for a in "XYZ"], axis=0)) / G0
    hic15 = head["hic15"].value
    # HIC15 <= 0.015 s x (peak resultant)^2.5 since the mean never exceeds the peak (definition);
    # the head of a torso flung forward by 20 g is accelerated: HIC15 > 0
    assert 0.0 < hic15 <= 0.015 * a_max_g**2.5
    assert head["hic36"].value >= hic15
    assert 0.0 < head["head_a3ms_g"].value <= a_max_g
    neck = injury.neck(ch["Upper neck force X"], ch["Upper neck force Z"], ch["Upper neck moment Y"])
    assert np.isfinite(neck["nij"].value) and neck["nij"].value > 0.0
    # the torso pitches forward about the welded pelvis: the neck pulls the head back and down
    # (shear Fx < 0, tension Fz > 0 at their peaks)
    assert ch["Upper neck force X"].values.min() < -100.0 and ch["Upper neck force Z"].values.max() > 100.0
    femur = injury.femur(ch["Left femur force Z"])
    assert np.isfinite(femur["femur_compression"].value)
    print(f"HIC15 {hic15:.1f}  HIC36 {head['hic36'].value:.1f}  a3ms {head['head_a3ms_g'].value:.1f} g  "
          f"Nij {neck['nij'].value:.3f}  neck tension {neck['neck_tension'].value:.0f} N")
