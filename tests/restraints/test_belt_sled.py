"""A Hybrid III 50th male held by a three-point belt (retractor, D-ring, a wrap over the thorax
ellipsoid, buckle tongue, a wrap over the pelvis ellipsoid, lap anchor) on a seat pan, in the
demo's frontal sled pulse (20 g, 100 ms half-sine, 45 km/h delta-v): the shoulder belt's peak
force against belted sled tests, the belt staying on the body (its points on or outside the
ellipsoids), the energy balance, and plausible kinematics.

Published comparison (crash-domain-facts 6.1, 2.4): belted Hybrid III 50M frontal tests at
48-56 km/h load the upper shoulder belt (the B3 load cell, D-ring to chest) to a few kN, about
4-8 kN at the peak without a load limiter [U: the range the issue states; quantitative test
tables were not retrieved, facts section 9]; load limiters of 4 kN are used in research sleds
and 2-6 kN in production, and Euro NCAP's full-width test penalises shoulder-belt forces above
6 kN [S]. The belt geometry (anchorages relative to the H-point) is an engineering estimate [E]
within the FMVSS 210 lap-belt angle range of 30-75 deg [U]."""
import numpy as np
import pytest

import occupant
from occupant.samples import sled_pulse
from occupant.dynamics import body_poses
from occupant.human import load_dummy, position
from occupant.modeling import ContactCharacteristic, ContactPair, Plane
from occupant.modeling.belts import Anchor, Belt, Retractor, SlipRing, Wrap, gs1_webbing

# Belt anchorages in B0 relative to the H-point (origin of the seated posture), x forward,
# y left (outboard), z up [E]: retractor at the B-pillar foot, D-ring above and behind the
# outboard shoulder, buckle inboard beside the hip, lap anchor outboard behind and below the
# H-point (lap belt angle atan(0.20 / 0.15) = 53 deg from horizontal).
ANCHORAGES = {"retractor": (-0.35, 0.30, -0.10), "d_ring": (-0.30, 0.25, 0.60),
              "buckle": (-0.10, -0.22, -0.15), "lap_anchor": (-0.15, 0.25, -0.20)}
BELT_FRICTION = 0.3     # belt-body and buckle: GS1 deck (facts 6.4) [S]
D_RING_FRICTION = 0.1   # [E]: a capstan ratio exp(0.1 pi) = 1.37 over the D-ring's ~180 deg turn
# seat pan: cushion stiffness 10-50 kN/m stiffening past 100 kN/m, friction 0.3-0.6 (facts 6.3)
# [U]; a linear 100 kN/m with half the loading work absorbed [E]
SEAT = dict(stiffness=1.0e5, absorption=0.5, friction=0.3)


def belted_dummy(load_limit=np.inf):
    """(model, q0): the Hybrid III 50M in the passenger posture, pelvis ellipsoid on a B0 seat
    plane touching it at q0, held by a three-point belt of the GS1 webbing with a retractor
    (and a load limiter at ``load_limit`` N)."""
    base = load_dummy("hybrid3_50m")
    q0 = position(base, "passenger_seated")
    asm = base.source
    poses = body_poses(base, base.make_data(), q0)
    g = asm.geometries["pelvis_flesh"]
    marker = asm.markers[g.marker]
    pose = poses[base.body(marker.part)]
    R = pose[:3, :3] @ marker.rotation
    centre = pose[:3, :3] @ marker.position + pose[:3, 3]
    lowest = centre[2] - np.sqrt(R[2] @ np.diag(g.semi_axes ** 2) @ R[2])
    asm.add(Plane("seat_pan", None, point=(0.0, 0.0, lowest)))
    asm.add(ContactPair("pelvis_seat", "pelvis_flesh", "seat_pan",
                        ContactCharacteristic(name="seat", **SEAT)))
    a = ANCHORAGES
    asm.add(Belt("belt", [Anchor("retractor", a["retractor"]),
                          SlipRing("d_ring", a["d_ring"], friction=D_RING_FRICTION),
                          Wrap("shoulder", "thorax", friction=BELT_FRICTION),
                          Wrap("chest", "thorax", friction=BELT_FRICTION),
                          SlipRing("buckle", a["buckle"], friction=BELT_FRICTION),
                          Wrap("hip_inboard", "pelvis_flesh", BELT_FRICTION, side=(1, -1, -0.4)),
                          Wrap("pelvis", "pelvis_flesh", BELT_FRICTION, side=(1, 0, -0.4)),
                          Wrap("hip_outboard", "pelvis_flesh", BELT_FRICTION, side=(1, 1, -0.4)),
                          Anchor("lap_anchor", a["lap_anchor"])],
                 gs1_webbing(), retractor=Retractor(load_limit=load_limit)))
    return asm.compile(), q0


LOAD_LIMIT = 4000.0   # N: the load limiter of the HIII/THOR/PMHS research sleds (facts 6.1) [C]


def _run(load_limit):
    model, q0 = belted_dummy(load_limit)
    res = occupant.simulate(model, 0.15, integrator="euler", base_motion=sled_pulse(), q0=q0,
                            output_dt=1e-4)
    return model, res


@pytest.fixture(scope="module")
def sled():
    """The belt with a 4 kN load limiter."""
    return _run(LOAD_LIMIT)


@pytest.fixture(scope="module")
def sled_standard():
    """The same belt without a load limiter."""
    return _run(np.inf)


SHOULDER = "belt.d_ring-shoulder"     # the B3 load cell's segment: D-ring to the occupant
LAP = "belt.hip_outboard-lap_anchor"  # B6: the outboard lap belt


def _b0(res, k, x):
    """World point x at sample k in B0 coordinates."""
    R, p = res.base_poses[k, :3, :3], res.base_poses[k, :3, 3]
    return R.T @ (x - p)


def test_reference_shoulder_belt_force_in_the_range_of_belted_sled_tests(sled, sled_standard):
    """With the 4 kN load limiter the shoulder belt (B3) peaks in the 4-8 kN of belted sled
    tests (above the limit by the D-ring's friction), the limiter pays out webbing; without
    it the belt is stiffer, the B3 force higher and the payout only the locked spool's."""
    peaks = {}
    for label, (model, res) in (("4 kN load limiter", sled), ("standard", sled_standard)):
        assert res.status == "finished"
        shoulder, lap = res.outputs[f"{SHOULDER}.force"], res.outputs[f"{LAP}.force"]
        peaks[label] = shoulder.max(), res.outputs["belt.payout"].max()
        print(f"{label}: peak shoulder (B3) {shoulder.max():.0f} N at "
              f"{1e3 * res.t[shoulder.argmax()]:.0f} ms, lap (B6) {lap.max():.0f} N at "
              f"{1e3 * res.t[lap.argmax()]:.0f} ms, payout {1e3 * peaks[label][1]:.1f} mm")
        for name in model.output_names:
            if name.endswith(".force"):
                print(f"  {name:40s} peak {res.outputs[name].max():8.0f} N")
        assert 2000.0 < lap.max() < 10000.0
        # the retractor locked in the first 20 ms (vehicle-sensitive at 0.45 g plus 10 ms)
        locked = res.t[np.argmax(res.outputs["belt.locked"] > 0)]
        assert 0.0 < locked < 0.02
    limited, standard = peaks["4 kN load limiter"], peaks["standard"]
    assert 4000.0 < limited[0] < 8000.0
    retractor_side = sled[1].outputs["belt.retractor-d_ring.force"]
    assert retractor_side.max() < LOAD_LIMIT * 1.01      # the limiter holds its level
    assert limited[1] > 0.05                             # the limiter paid out
    assert limited[0] < standard[0] < 15000.0
    assert standard[1] < 0.02                            # the locked spool's film effect only


def test_reference_belted_kinematics_are_plausible(sled):
    """The belt holds the dummy: head forward excursion relative to the sled in the range of
    belted sled tests (a few hundred mm, e.g. 353-424 mm head excursion for a booster-seated
    child PMHS at 48 km/h, Lopez-Valdes et al. 2009-2010 [S]) and well short of an unbelted
    dummy's (the demo's, folded over its joint stops)."""
    model, res = sled
    head = model.body("head")
    x = np.array([_b0(res, k, res.body_com[k, head])[0] for k in range(len(res.t))])
    excursion = x.max() - x[0]
    print(f"head excursion {1e3 * excursion:.0f} mm")
    assert 0.15 < excursion < 0.6


def test_identity_belt_stays_on_the_body(sled):
    """Every wrap point lies on its ellipsoid and every anchor and ring outside the torso's
    ellipsoids at every sample. Through the loading (the first 100 ms) a wrap point lies inside
    another torso ellipsoid only as far as the dummy's own ellipsoids overlap, and the straight
    segments cut at most a shallow chord into the ellipsoids (one point per wrap). Measured, and
    a limitation: as the torso folds over the lap belt after 100 ms, the straight segment from
    the chest wrap to the buckle passes up to 69 mm deep through the abdomen and pelvis
    ellipsoids (a further wrap over the abdomen made the wrap points jump and the run diverge)."""
    model, res = sled
    asm = model.source
    belt = asm.belts["belt"]
    torso = ("thorax", "abdomen", "pelvis_flesh")
    depth, overlap, late_depth = 0.0, 0.0, 0.0
    for k in range(0, len(res.t), 10):
        loading = res.t[k] <= 0.1
        pose_b0 = np.linalg.inv(res.base_poses[k]) @ res.body_poses[k]
        frames = {}
        for g in torso:
            geo = asm.geometries[g]
            m = asm.markers[geo.marker]
            T = pose_b0[model.body(m.part)]
            frames[g] = (T[:3, :3] @ m.position + T[:3, 3], T[:3, :3] @ m.rotation, geo.semi_axes)
        pts = np.array([[res.outputs[f"belt.{p.name}.{a}"][k] for a in "xyz"] for p in belt.points])
        for p, x in zip(belt.points, pts):
            for g, (c, R, D) in frames.items():
                r = np.linalg.norm(((x - c) @ R) / D)
                if isinstance(p, Wrap) and p.geometry == g:
                    assert r == pytest.approx(1.0, abs=1e-9)
                elif isinstance(p, Wrap):
                    if loading:
                        overlap = max(overlap, (1.0 - r) * D.min())
                else:
                    assert r >= 1.0, (p.name, g, res.t[k])
        s = np.linspace(0.0, 1.0, 101)[:, None]
        for a, b in zip(pts[:-1], pts[1:]):
            seg = a + s * (b - a)
            for g, (c, R, D) in frames.items():
                r = np.linalg.norm(((seg - c) @ R) / D, axis=1)
                if loading:
                    depth = max(depth, (1.0 - r.min()) * D.min())
                late_depth = max(late_depth, (1.0 - r.min()) * D.min())
    print(f"deepest chord of a segment into a torso ellipsoid: {1e3 * depth:.1f} mm to 100 ms, "
          f"{1e3 * late_depth:.1f} mm in the whole run; wrap point inside another torso ellipsoid "
          f"by at most {1e3 * overlap:.1f} mm to 100 ms")
    assert depth < 0.04
    assert overlap < 0.005
    assert late_depth < 0.08


def test_identity_energy_balance_of_the_belted_sled_run(sled):
    """The energy balance closes to 1 % of the occupant's kinetic energy at the start (the sled
    moves at 50 km/h), and the belt took energy out of the occupant."""
    model, res = sled
    scale = res.energy["kinetic"][0]
    balance = np.abs(res.energy["balance"]).max()
    print(f"energy balance {balance:.2f} J of {scale:.0f} J; belt work {res.work['belts'][-1]:.0f} J")
    assert balance < 0.01 * scale
    assert res.work["belts"][-1] < -0.1 * scale
