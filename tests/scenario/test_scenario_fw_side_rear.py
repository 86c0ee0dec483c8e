"""The Euro NCAP full-width, side-barrier and rear-whiplash scenarios (issue 13 section 1): the
pieces they added (pulse direction, finely tabulated trapezoids, interiors built on a base
interior, extra and reference criteria rows) and their shipped runs held against what crash
engineers expect of such tests."""
import numpy as np
import pytest

from occupant.contact.compliant import signed_distances
from occupant.io.toml_files import FileChecker
from occupant.restraints.belt_clearance import belt_depths, depth, ellipsoids_at
from occupant.scenario import ScenarioError, load
from occupant.scenario.criteria import com_in_vehicle
from occupant.scenario.defects import motion_defects
from occupant.scenario.interior import InteriorFileError, load_interior
from occupant.constants import G0
from occupant.scenario.pulse import KMH, read_pulse


def test_analytic_pulse_direction_and_triangle():
    """A side pulse pushes the struck car along -y by its delta-v; a rear pulse (a trapezoid
    without plateau, 10 g over 2 x 45.3 ms) pushes the sled forward by 16 km/h, and its table is
    fine enough that the base's position follows the closed form x(t) = A t^3 / (6 r) of the
    rising ramp."""
    c = FileChecker("s.toml", ScenarioError)
    side = read_pulse(c, {"shape": "half_sine", "delta_v_kmh": 29.0, "duration": 0.06, "speed_kmh": 0.0,
                          "direction": [0.0, 2.0, 0.0]}, "pulse", ".", 0.12)
    m = side.base_motion()
    # the trapezoidal rule on a 60 ms half-sine at 10 kHz loses (pi dt / T)^2 / 12 = 2.3e-6 of it
    np.testing.assert_allclose(m.velocity(0.1), [0.0, -29.0 * KMH, 0.0], rtol=0, atol=3e-6 * 29.0 * KMH)
    rear = read_pulse(c, {"shape": "trapezoid", "delta_v_kmh": 16.0, "peak_g": 10.0, "rise": 0.0453,
                          "fall": 0.0453, "speed_kmh": 0.0, "direction": [-1.0, 0.0, 0.0]}, "pulse", ".", 0.2)
    assert rear.delta_v == pytest.approx(16.0 * KMH, rel=1e-12) and rear.peak == pytest.approx(10 * G0)
    m = rear.base_motion()
    np.testing.assert_allclose(m.velocity(0.15), [16.0 * KMH, 0.0, 0.0], atol=1e-9)
    a, r, t = 10 * G0, 0.0453, 0.03
    assert m.position(t)[0] == pytest.approx(a * t**3 / (6 * r), rel=1e-4)
    assert np.max(np.diff(rear.t[rear.t <= 0.0906])) <= 1.001e-4      # about 10 kHz
    with pytest.raises(ScenarioError, match=r"pulse.direction: must not be zero"):
        read_pulse(c, {"shape": "half_sine", "delta_v_kmh": 29.0, "duration": 0.06, "direction": [0.0, 0.0, 0.0]},
                   "pulse", ".", 0.12)


def test_reference_seat_backs_are_trimmed_but_the_gs1_rig_backrest():
    """Every shipped seat back is a trimmed one, friction 0.3 [S: the open FE Hybrid III sled
    examples' dummy on their foam-and-fabric seat and back rest, vehicles/midsize_sedan_driver.toml;
    branch frictionsrc]; the SAFER deck's backrest 0.05 [C] is the GS1 frontal rig's back support and stays with it alone (vehicles/gs1_sled_buck.toml, on the
    passenger buck's base, has its own characteristic). At 0.05 the rear occupant slid up the
    25 deg back and off the seat (scenarios/HISTORY.md, rearramp); the frontal seats kept it
    until branch frontback."""
    from occupant.scenario.interior import available_interiors
    backs = {}
    for name in available_interiors():
        interior = load_interior(name)
        if "seat_back" in interior.defaults:
            backs[name] = interior.characteristics[interior.defaults["seat_back"]].friction
    assert backs.pop("gs1_sled_buck") == 0.05
    assert {"midsize_sedan_driver", "midsize_sedan_driver_05f", "sled_buck_passenger",
            "whiplash_sled_seat"} <= set(backs)
    assert all(mu == 0.3 for mu in backs.values()), backs


def test_reference_interior_on_a_base_replaces_and_keeps_surfaces(tmp_path):
    base = load_interior("midsize_sedan_driver")
    fifth = load_interior("midsize_sedan_driver_05f")
    assert {s.name for s in fifth.surfaces} == {s.name for s in base.surfaces} | {"head_restraint"}
    seat = {s.name: s for s in fifth.surfaces}["seat_cushion"]
    assert seat.point[0] == pytest.approx(0.2238)                      # the 5F's, not the base's
    assert fifth.defaults["windshield"] == "windshield" and set(base.characteristics) <= set(fifth.characteristics)
    door = {"door_panel", "armrest", "b_pillar", "side_window", "kick_panel"}
    assert door <= {s.name for s in base.surfaces} and door <= {s.name for s in fifth.surfaces}
    # the door side's former interior: an alias of the base, so that earlier run folders read
    side = load_interior("midsize_sedan_driver_side")
    assert [s.name for s in side.surfaces] == [s.name for s in base.surfaces]
    (tmp_path / "x.toml").write_text('kind = "interior"\nname = "x"\nbase = "no_such_car"\n')
    with pytest.raises(InteriorFileError, match=r"x.toml: base: 'no_such_car'"):
        load_interior(tmp_path / "x.toml")
    (tmp_path / "x.toml").write_text('kind = "interior"\nname = "x"\nbase = "midsize_sedan_driver"\n'
                                     '[[surface]]\nname = "steering_wheel"\npoint = [0.36, 0.0, 0.37]\n'
                                     'normal = [-0.921, 0.0, 0.391]\nhalf_size = [0.19, 0.19]\n'
                                     'radius = 0.19\n')
    with pytest.raises(InteriorFileError, match=r"x.toml: surface\[0\].radius: given with half_size"
                                                r".*half_size \(a rectangle\) or radius \(a disc\)"):
        load_interior(tmp_path / "x.toml")
    wheel = {s.name: s for s in fifth.surfaces}
    assert wheel["steering_wheel"].radius == wheel["steering_wheel_rim"].radius == 0.19   # round


# A medium car's package widths, mm [C: Macey and Wardle, "H-Point", ch. 6 table "Approximate
# reference dimensions", row "medium car"; vehicles/midsize_sedan_driver.toml]: front hip room
# W5, shoulder room W3 and the seating reference point's distance from the car's centreline W20
HIP_ROOM_W5, SHOULDER_ROOM_W3, SEAT_Y_W20 = 1400.0, 1475.0, 350.0


def test_reference_driver_door_is_placed_from_the_package_widths():
    """The driver's door side is the car's (vehicles/midsize_sedan_driver.toml, issue 11
    section 6): the door trim W5 / 2 - W20 = 0.350 m from the seat centreline, the side glass at
    the beltline W3 / 2 - W20 = 0.3875 m, both facing the occupant; the Hybrid III 5F's seat
    (moved on its track) has the same door; the frontal scenarios in this seat pair the outboard
    arm, shoulder, pelvis and thigh with it (dummies/body_contacts.toml) with the door's own
    characteristics, and side_barrier keeps its own 62 pairs (the body-contact ones are among
    them; 50 before the Hybrid III's heels, branch footsplit: each heel with floor, toe pan,
    door and kick panel, and 4 heel pairs of dummies/body_contacts.toml), and takes the head
    shell's and chin's pairs with the wheel's rim from that file (64, branch headwheel) and the
    head shell's and chin's with the roof (66, branch interiorshapes)."""
    for name in ("midsize_sedan_driver", "midsize_sedan_driver_05f"):
        interior = load_interior(name)
        planes = {p.name: p for p in interior.surfaces}
        for surface, y in (("door_panel", HIP_ROOM_W5 / 2 - SEAT_Y_W20),
                           ("b_pillar", HIP_ROOM_W5 / 2 - SEAT_Y_W20),
                           ("side_window", SHOULDER_ROOM_W3 / 2 - SEAT_Y_W20)):
            assert planes[surface].point[1] == pytest.approx(y * 1e-3, abs=1e-9), (name, surface)
            np.testing.assert_allclose(planes[surface].normal, [0.0, -1.0, 0.0])
        assert planes["armrest"].point[1] == pytest.approx(planes["door_panel"].point[1] - 0.05)
        assert interior.defaults["door_panel"] == "door_trim" and interior.defaults["armrest"] == "armrest"
    for name in ("us_ncap_frontal_56", "euro_ncap_full_width_50", "aeb_precrash_frontal"):
        pairs = load(name).model.source.contact_pairs
        door = {k for k in pairs if k.endswith(("__door_panel", "__armrest", "__side_window", "__b_pillar"))}
        assert door == {f"{a}__{b}" for a, b in (
            ("left_upper_arm_shell", "door_panel"), ("left_forearm_shell", "door_panel"),
            ("left_hand_shell", "door_panel"), ("thorax", "door_panel"), ("pelvis_flesh", "door_panel"),
            ("left_thigh_shell", "door_panel"), ("left_forearm_shell", "armrest"), ("thorax", "armrest"),
            ("left_upper_arm_shell", "side_window"), ("left_forearm_shell", "side_window"),
            ("left_hand_shell", "side_window"), ("left_upper_arm_shell", "b_pillar"),
            ("thorax", "b_pillar"))}, name
        assert pairs["left_forearm_shell__door_panel"].characteristic.name == "door_trim"
    # 66 before branch wheelring: the head shell and chin on the wheel's hub (the rim a ring),
    # the forearms on its rim and hub
    assert len(load("side_barrier").model.source.contact_pairs) == 72


# SAE J1100(a)'s hip room: the least lateral width between the trimmed surfaces on the X plane
# through the SgRP, within 1.0 in (25 mm) below and 3.0 in (76 mm) above the SgRP and 3.0 in
# fore and aft of it [S: as NHTSA quotes it, interpretation aiam3071, 1979]; B0's origin is the
# seat's design H-point (x, z in m)
HIP_ROOM_BOX_X, HIP_ROOM_BOX_Z = (-0.076, 0.076), (-0.025, 0.076)


def _x_z_extent(plane):
    """The x and z ranges (m, B0) of a bounded plane's rectangle."""
    u, w = plane.x_axis, np.cross(plane.normal, plane.x_axis)
    corners = [plane.point + a * plane.half_size[0] * u + b * plane.half_size[1] * w
               for a in (-1, 1) for b in (-1, 1)]
    xs, zs = [c[0] for c in corners], [c[2] for c in corners]
    return (min(xs), max(xs)), (min(zs), max(zs))


def test_reference_driver_hip_room_is_bounded_by_the_door_trim():
    """The door trim is placed at W5 / 2 - W20 from the seat centreline (test above), so it must
    be the surface J1100's hip room is measured to: it covers the whole hip-room box about the
    H-point, and no other door-side surface (the armrest 0.05 m proud of it, the B-pillar, the
    kick panel, the glass) reaches into that box nearer the occupant. Lowering the armrest into
    the box (its lower edge 0.15 m above the H-point now) would make the hip room 0.05 m
    narrower than the medium car's 1400 mm, and fails here."""
    for name in ("midsize_sedan_driver", "midsize_sedan_driver_05f"):
        planes = {p.name: p for p in load_interior(name).surfaces}
        door = planes["door_panel"]
        (x0, x1), (z0, z1) = _x_z_extent(door)
        assert x0 <= HIP_ROOM_BOX_X[0] and x1 >= HIP_ROOM_BOX_X[1], name
        assert z0 <= HIP_ROOM_BOX_Z[0] and z1 >= HIP_ROOM_BOX_Z[1], name
        for other in planes.values():
            if other.name == "door_panel" or other.half_size is None or other.normal[1] > -0.99:
                continue       # not a door-side (+y) surface facing the occupant
            (x0, x1), (z0, z1) = _x_z_extent(other)
            inside = (x0 < HIP_ROOM_BOX_X[1] and x1 > HIP_ROOM_BOX_X[0]
                      and z0 < HIP_ROOM_BOX_Z[1] and z1 > HIP_ROOM_BOX_Z[0])
            assert not inside or other.point[1] >= door.point[1] - 1e-9, (name, other.name)


# How far a D-ring's webbing slot stands inboard of the B-pillar trim it is bolted through [E]:
# a turning loop on its bracket or height adjuster, a few cm proud of the trim
D_RING_STANDOFF = 0.03    # m


def _on_the_pillar(pillar, d_ring):
    """Whether the point d_ring lies within the plane surface pillar's rectangle (x and z) and
    no more than D_RING_STANDOFF in front of its face (on the side its normal faces)."""
    (x0, x1), (z0, z1) = _x_z_extent(pillar)
    inboard = float(np.dot(d_ring - pillar.point, pillar.normal))   # the normal faces the occupant
    return x0 <= d_ring[0] <= x1 and z0 <= d_ring[2] <= z1 and 0.0 <= inboard <= D_RING_STANDOFF


def test_reference_driver_d_ring_is_on_its_b_pillar():
    """The driver's D-ring ([belt] of midsize_sedan_driver) is mounted on the car's B-pillar:
    within the pillar trim's rectangle (x and z) and no more than D_RING_STANDOFF inboard of
    its face; so is the one euro_ncap_full_width_50 gives the 5F (lower, on the same pillar: her
    interior is built on his). A D-ring off the pillar, inside the cabin, lets a near-side
    occupant slide under it: at y 0.25 m, 0.10 m inboard of the trim, side_barrier's neck
    reached 4 mm inboard of it at 63 ms and loaded it with 3.61 kN (scenarios/HISTORY.md,
    sidedring; dringpillar put it on the pillar). The check fails on the old place."""
    interior = load_interior("midsize_sedan_driver")
    pillar = {p.name: p for p in interior.surfaces}["b_pillar"]
    assert _on_the_pillar(pillar, np.asarray(interior.belt["d_ring"], float))
    assert not _on_the_pillar(pillar, np.array([-0.30, 0.25, 0.60]))     # main c806109's place
    her = {p.name: p for p in load_interior("midsize_sedan_driver_05f").surfaces}["b_pillar"]
    belt = {p.name: p for p in load("euro_ncap_full_width_50").model.source.find("belt").points}
    assert _on_the_pillar(her, np.asarray(belt["d_ring"].point, float))


def test_reference_belt_slip_rings_take_the_fe_decks_pulley_friction():
    """The webbing slides through the D-ring and the buckle's tongue at 0.2, the open FE Hybrid
    III sled examples' belt pulleys at both [S: OpenRadioss ModelExchange, /PROP/SPR_PUL Fric],
    and lies on the body at the GS1 deck's 0.3 [C] (scenarios/HISTORY.md, frictionsrc). Until
    then the buckle took the belt-body coefficient, read as GS1's "buckle" 0.3, which is that
    deck's body-on-buckle contact (its shoulder and lap belts are separate, no slip ring). A
    scenario's buckle_friction sets the buckle's alone."""
    for name in ("us_ncap_frontal_56", "euro_ncap_full_width_50"):
        points = load(name).model.source.find("belt").points
        belt = {p.name: p for p in points}
        assert (belt["d_ring"].friction, belt["buckle"].friction) == (0.2, 0.2), name
        assert all(p.friction == 0.3 for p in points if hasattr(p, "carrier")), name
    points = load("us_ncap_frontal_56", overrides={"restraints.belt.buckle_friction": 0.35}).model.source.find(
        "belt").points
    belt = {p.name: p for p in points}
    assert (belt["d_ring"].friction, belt["buckle"].friction) == (0.2, 0.35)
    assert all(p.friction == 0.3 for p in points if hasattr(p, "carrier"))


def test_reference_driver_belt_anchorages_are_the_seats_and_shared(tmp_path):
    """The driver's belt anchorages live once, in the seat's interior ([belt] of
    midsize_sedan_driver): the door-side interior built on it has them, and a scenario whose
    [restraints.belt] names no point (side_barrier, us_ncap_frontal_56) routes its belt through
    them; a point the scenario gives replaces the seat's; an unknown key is named, and a neck
    barrier on a belt that wraps the neck its own way is refused."""
    seat = load_interior("midsize_sedan_driver").belt
    assert seat == {"retractor": [-0.35, 0.30, -0.10], "d_ring": [-0.375, 0.33, 0.60],
                    "buckle": [-0.10, -0.22, -0.15], "lap_anchor": [-0.15, 0.25, -0.20]}
    assert load_interior("midsize_sedan_driver_side").belt == seat
    for name in ("side_barrier", "us_ncap_frontal_56"):
        belt = {p.name: p for p in load(name).model.source.find("belt").points}
        np.testing.assert_allclose(belt["d_ring"].point, seat["d_ring"])
        np.testing.assert_allclose(belt["lap_anchor"].point, seat["lap_anchor"])
    moved = load("side_barrier", overrides={"restraints.belt.d_ring": [-0.30, 0.25, 0.52]})
    d_ring = {p.name: p for p in moved.model.source.find("belt").points}["d_ring"]
    np.testing.assert_allclose(d_ring.point, [-0.30, 0.25, 0.52])
    (tmp_path / "x.toml").write_text('kind = "interior"\nname = "x"\nbase = "midsize_sedan_driver"\n'
                                     '[belt]\nd_rings = [0.0, 0.0, 0.0]\n')
    with pytest.raises(InteriorFileError, match=r"x.toml: belt.d_rings: unknown key.*retractor, d_ring"):
        load_interior(tmp_path / "x.toml")
    with pytest.raises(ScenarioError, match=r"restraints.belt.across"):
        load("side_barrier", overrides={"restraints.belt.across": -0.3})
    # the neck barrier with a belt that wraps the neck its own way (the shoulder option)
    with pytest.raises(ScenarioError, match=r"restraints.belt: neck_barrier: a three-point or two-point belt "
                                            r"with no shoulder or shoulder_center"):
        load("us_ncap_frontal_56", overrides={"restraints.belt.neck_barrier": True,
                                              "restraints.belt.shoulder": "thorax"})
    # the clavicle route beside a key that places the shoulder wrap itself: refused; off by
    # default (branch humanroute)
    with pytest.raises(ScenarioError, match=r"restraints.belt.clavicle: the shoulder wrap is placed by "
                                            r"\['shoulder_at'\] already"):
        load("us_ncap_frontal_56", overrides={"occupant.human.sex": "male",
                                              "restraints.belt.clavicle": True,
                                              "restraints.belt.shoulder_at": [0.09, 0.10, 0.05]})
    wraps = {p.name: p for p in load("us_ncap_frontal_56", overrides={
        "occupant.human.sex": "male", "restraints.belt.shoulder_at": [0.09, 0.10, 0.05]}
        ).model.source.find("belt").points}
    assert wraps["shoulder"].flank is None and "abdomen" not in wraps


def test_reference_criteria_show_and_reference_are_checked():
    with pytest.raises(ScenarioError, match=r"criteria.show: unknown criterion 'NIC2'.*NIC, Nkm"):
        load("rear_whiplash", overrides={"criteria.show": ["NIC2"]})
    with pytest.raises(ScenarioError, match=r"criteria.reference: unknown regulation 'whiplash'"):
        load("rear_whiplash", overrides={"criteria.reference": "whiplash"})


def _closes_and_stays_out(run):
    """The energy balance closes to 1 % of the energy exchanged at every sample (measured on
    main 647b827: at most 0.05 % US NCAP, 0.09 % side, 0.05 % Euro 5F, 0.03 % rear), and the
    motion has no physical defect (``no_motion_defects``)."""
    res = run.results
    assert res.status == "finished"
    assert np.abs(res.energy["balance"]).max() < 0.01 * np.max(np.abs(res.energy["work"]))
    no_motion_defects(run)


def no_motion_defects(run, known=()):
    """No joint past its stop by more than the stop was sized for, no contact pair past the end
    of its characteristic's table (nothing passes through a surface), no body through a bag
    (occupant.scenario.defects; branch motioncheck measured every shipped scenario: none); its
    belt through the dummy's bodies only where it is known to pass (the lower shoulder belt's
    piece to the buckle, no wrap holding it on the pelvis: tests/scenario/test_defects.py
    DUMMY_BELT_DEFECTS, branch beltdefect). ``known``: (kind, element) of lines a caller
    expects, each of which must be there."""
    from tests.scenario.test_defects import DUMMY_BELT_DEFECTS, belt_lines
    found = motion_defects(run.model, run.results)
    lines = {(d.kind, d.element) for d in found}
    assert set(known) <= lines, lines
    assert [d.text() for d in found if d.kind != "belt depth" and (d.kind, d.element) not in known] == []
    assert belt_lines(found) <= DUMMY_BELT_DEFECTS.get(run.name, set()), [d.text() for d in found]


def _rows(run):
    return {r["criterion"]: r for r in run.criteria}


@pytest.fixture(scope="module")
def full_width():
    return load("euro_ncap_full_width_50").run()


def test_reference_euro_ncap_full_width_5f_driver_is_plausible(full_width):
    """The belted 5F driver at 50 km/h, judged on the Euro NCAP sliding scales: every judged
    criterion passes (Euro NCAP full-width results of current cars mostly score in the upper
    part of the scales, 2.4 [S]); HIC15 well below the 500 higher limit with an airbag, chest
    3 ms 30-60 g (belted frontal tests [U]), upper-neck tension within 2.9 kN and femur loads
    within 6.2 kN; the belt carries load without reaching the 6 kN shoulder-belt modifier
    (2.4 [S]); the airbag takes the head."""
    run = full_width
    _closes_and_stays_out(run)
    rows = _rows(run)
    assert run.regulation.startswith("Euro NCAP full-width 50 km/h")
    assert all(r["pass"] is not False for r in run.criteria)
    assert rows["HIC15"]["pass"] is True and 50 < rows["HIC15"]["value"] < 500
    assert 30 < rows["chest 3 ms"]["value"] < 60
    assert 300 < rows["neck tension"]["value"] < 2900 and rows["neck tension"]["pass"] is True
    assert rows["neck shear"]["limit"] == 2700.0 and rows["neck extension"]["limit"] == -57.0
    assert max(rows["femur force left"]["value"], rows["femur force right"]["value"]) < 6200
    # the belt's chest wrap and the bag's patch over the ribcage ride on the sternum: deflection
    # judged, 27.9 mm measured settled in the 0.333 m deep driver bag with the open model's
    # sternum outline (31.0 with the 214 mm outline [E]; 29.2 before the chest
    # wraps' motion over the body carried their webbing, restraints.belt.wrap_drift; 29.7
    # unsettled in the 0.26 m bag; there 25.1 with the bag on the rigid thorax, 36.2 with its
    # whole thorax patch carried), between the 5F's higher (18 mm) and lower (34 mm, capping) limits
    # (crash-domain-facts 2.4 [S])
    assert 10 < rows["chest deflection"]["value"] < 34 and rows["chest deflection"]["pass"] is True
    # its Euro NCAP points: 4 at the higher limit (18 mm), 0 at the lower (34 mm), linear between
    chest = rows["chest deflection"]
    assert chest["scale"] == pytest.approx([18.0, 34.0]) and chest["max_points"] == 4.0
    assert chest["points"] == pytest.approx(4.0 * (34.0 - chest["value"]) / 16.0, rel=1e-9)
    belt = run.results.outputs["belt.d_ring-shoulder.force"]
    assert 1000 < belt.max() < 6000
    assert run.results.outputs["driver_airbag_head_shell.force"].max() > 300


def test_reference_euro_ncap_5f_stands_on_her_heels(full_width):
    """Her foot is a heel and a forefoot fitted to her FE shoe (dummies/tools/derive_hybrid3.py
    HEEL_05F, branch fivefheel), both paired wherever her one foot shell was: floor, toe pan and
    footwell top, and the heels with the other leg's shank, heel and forefoot (dummies/
    body_contacts.toml): 77 pairs with her head shell's and chin's on the wheel's hub and her
    forearms' on its rim and hub (branch wheelring; 71 before), 71 with her head shell's and
    chin's on the roof (branch interiorshapes; 69 before, with theirs on the wheel's rim, branch headwheel; 67 before that, 66 before her cushion bore on her two buttocks in place of her pelvis
    flesh, branch dummyfit), 56 before the heels. Her heels start on the floor (driver_seated's
    heel_bottom targets, sideheels: 0.0 mm in as placed, left / right 0.4 / 0.1 mm settled; before,
    her own left heel target put it 0.4 mm in and her right started 1.7 mm above the floor) and
    the left bears the floor's load (0.74 kN at 58 ms, 3.7 mm deep at most; 0.75 kN, 3.8 mm
    before); her forefeet never touch the floor (they meet the toe pan: left 1.39 kN at 59 ms,
    1.41 kN before). Before,
    her shell's floor contact lay under the ball's rear (0.63 kN at 26 ms, 3.2 mm)."""
    run = full_width
    pairs = run.model.source.contact_pairs
    assert len(pairs) == 77
    for side in ("left", "right"):
        for g in ("heel", "foot_shell"):
            for surface in ("floor", "toe_pan", "footwell_top"):
                assert f"{side}_{g}__{surface}" in pairs, (side, g, surface)
    out = run.results.outputs
    # the signed distances: the outputs read 0 apart (CONTACT_OUTPUTS, branch gapoutput)
    signed = signed_distances(run.model, run.results.q[0])
    assert -0.002 < signed["left_heel__floor"] < 0.002
    assert -0.002 < signed["right_heel__floor"] < 0.002
    assert out["left_heel__floor.penetration"][0] == pytest.approx(
        max(signed["left_heel__floor"], 0.0), abs=1e-12)
    assert 300.0 < out["left_heel__floor.normal_force"].max() < 1500.0            # 737 N
    assert out["left_heel__floor.penetration"].max() < 0.006                         # 3.7 mm
    for side in ("left", "right"):
        assert out[f"{side}_foot_shell__floor.normal_force"].max() == 0.0, side
    assert out["left_foot_shell__toe_pan.normal_force"].max() > 500.0                # 1.39 kN


# The open FE Hybrid III sleds' toe board: a 45 deg ramp rising 353.6 mm from the flat floor [S:
# OpenRadioss ModelExchange, Safety/Hybrid_III_*_sled, part "Floor", measured from the mesh nodes,
# scenarios/HISTORY.md `toeboard`], m
SLED_TOE_BOARD_RISE = 0.3536


def _edges(plane):
    """The two ends of a surface's half_size[0] in B0's x-z plane."""
    p, u = np.asarray(plane.point), np.asarray(plane.x_axis)
    return p - plane.half_size[0] * u, p + plane.half_size[0] * u


def test_reference_driver_toe_board_rises_as_the_open_sleds_and_the_closeout_meets_it():
    """The driver's toe board (vehicles/midsize_sedan_driver.toml) rises from the floor as far as
    the one measured footwell's, the open FE sleds' 353.6 mm, and the lower dashboard's underside
    (footwell_top) runs from its top edge to the knee bolster's bottom edge, leaving no gap a foot
    could pass through. Before (branch footwelltop) the board stopped 271 mm above the floor and
    the closeout sloped down to meet it, a wedge into which the 5F's right foot was driven."""
    surf = {s.name: s for s in load_interior("midsize_sedan_driver").surfaces}
    floor_z = surf["floor"].point[2]
    low, high = sorted(_edges(surf["toe_pan"]), key=lambda e: e[2])
    assert low[2] <= floor_z                                        # starts at (under) the floor
    assert high[2] - floor_z == pytest.approx(SLED_TOE_BOARD_RISE, abs=1e-3)
    front, rear = sorted(_edges(surf["footwell_top"]), key=lambda e: -e[0])
    assert np.linalg.norm(front - high) < 1e-3
    bolster_bottom = min(_edges(surf["knee_bolster"]), key=lambda e: e[2])
    assert np.linalg.norm(rear - bolster_bottom) < 1e-3


def test_reference_euro_ncap_5f_right_foot_rises_off_the_toe_board_to_the_closeout(full_width):
    """The 5F's right foot (issue 11, branches footwelltop, ankle5f): struck against the toe board
    (0.85 kN at 30 ms), it leaves it as her knee straightens and swings up with the shank, then
    meets the lower dashboard's underside (from 81.6 ms, 1.82 kN at 84.5 ms, 9.1 mm in). Her ankle
    carries her FE deck's pitch law (dummies/tools/derive_hybrid3.py OWN_RESIST, branch ankle5f:
    994 N m/rad beyond 29.8 deg of plantar flexion), so it plantar-flexes to 33.4 deg at 87.7 ms
    (77 N m) and the right lower tibia reads -93 N m at 86.7 ms. Before, with a free ankle and a
    stop at 45 deg [E], the foot flapped to the stop at 76.6 ms (46.3 deg; 138 N m): the lower
    tibia -175 N m and the femur 1.77 kN tension at 77 ms, the closeout met only at 93 ms.
    Re-measured when her knee bag's dimple came to be shared by the lever rule over each knee
    sphere and shank shell (branch baglever2; main 25816b95's run -> the branch's): her right
    leg swings up 5 ms later (the bag's push on her right knee 0.42 -> 0.34 kN at 42 ms, on its
    shank 0.53 -> 0.46 kN at 78 ms), the foot meets the closeout from 82.5 -> 87.9 ms, 1.87 ->
    1.53 kN at 85.4 -> 90.8 ms, the ankle peaks at 33.1 -> 30.5 deg at 88.7 -> 97.0 ms (on its
    deck law's stop from 29.8 deg, a plateau of 30.4-30.5 deg from 96 to 98 ms) and the lower
    tibia reads -86 -> -43 N m: bounds on the times 95 -> 100 ms (the peak) and 88 -> 92 ms
    (the first touch), on the tibia -60 -> -30 N m (still far from the old stop's -175)."""
    out = full_width.results.outputs
    t = full_width.results.t
    ankle = np.degrees(out["right_ankle_y.deflection"])
    k = int(np.argmax(ankle))
    assert 30.0 < ankle[k] < 36.0 and 0.080 < t[k] < 0.100         # 30.5 deg at 97.0 ms (46.3)
    top = out["right_foot_shell__footwell_top.normal_force"]
    first = t[int(np.argmax(top > 0.0))]
    assert top.max() > 0.0 and 0.078 < first < 0.092                # from 87.9 ms (93 before)
    assert 300.0 < top.max() < 3000.0 and 0.080 < t[np.argmax(top)] < 0.110   # 1.53 kN at 90.8 ms
    lower = next(c for c in full_width.results.channels if c.code == "11TIBIRILOHFMOY0")
    assert -120.0 < np.min(lower.values) < -30.0                     # -43 N m (-175 at the stop)


def test_reference_euro_ncap_5f_knee_airbag_is_the_cars(full_width):
    """The 5F drives the US NCAP scenario's car (the GV80's pulse scaled), which carries a driver
    knee bag as standard (scenarios/HISTORY.md, branch fivefknee [S]), and Euro NCAP rates the car
    as sold: her scenario has the bag, mounted where the car has it, at the knee bolster of her
    interior, which is the base car's (only her seat moves forward on its track), unfolding along
    the bolster's normal. Her knees sit 70-130 mm below the bag's axis (the 50M's on it), so they
    meet its thinner lower part: her left knee (foot on the toe board) 46 mm in, 0.72 kN at 41 ms,
    her right (foot on the accelerator, knee bent) 36 mm in, 0.30 kN, later (56 ms); neither
    knee reaches the bolster behind the bag, nor flattens it. Her left femur reads -0.67 kN at
    43 ms (-0.06 kN without the bag, the knees stopping 124-131 mm short of the bolster), her
    right -0.04 kN: both well under Euro NCAP's 2.6 kN higher performance limit. Since her heels
    and forefeet (branch fivefheel, her knees higher): the bag on her left knee 0.66 kN at 42 ms,
    on her right 0.33 kN at 41 ms (0.76 / 0.48 kN at 42 / 61 ms on main 97e82ed), her left femur
    -0.60 kN at 42 ms (-0.68)."""
    run = full_width
    res, asm = run.results, run.model.source
    out, t = res.outputs, res.t
    bolster = next(x for x in load_interior("midsize_sedan_driver_05f").surfaces
                   if x.name == "knee_bolster")
    car = next(x for x in load_interior("midsize_sedan_driver").surfaces if x.name == "knee_bolster")
    np.testing.assert_allclose(bolster.point, car.point, atol=1e-12)
    bag = asm.airbags["knee_airbag"]
    np.testing.assert_allclose(bag.position, bolster.point, atol=5e-4)   # the file's 3 decimals
    np.testing.assert_allclose(np.asarray(bag.rotation)[:, 0], bolster.normal, atol=5e-4)
    for side, low in (("left", 500.0), ("right", 150.0)):               # measured 660 / 334 N
        assert out[f"knee_airbag_{side}_knee_contact.force"].max() > low, side
        assert out[f"{side}_knee_contact__knee_bolster.normal_force"].max() == 0.0, side
        for g in ("knee_contact", "shank_shell"):
            assert out[f"knee_airbag_{side}_{g}.bottoming_force"].max() == 0.0, (side, g)
    rows = _rows(run)
    left = next(c for c in res.channels if c.code == "11FEMRLE00HFFOZ0")
    fz, ft = np.asarray(left.values), np.asarray(left.t)
    k = int(np.argmin(fz))
    assert 0.030 <= ft[k] <= 0.050 and -1.0e3 < fz[k] < -0.4e3, (ft[k], fz[k])   # -598 N, 41.6 ms
    assert rows["femur force left"]["value"] == pytest.approx(-fz[k], rel=0.02)
    assert max(rows["femur force left"]["value"], rows["femur force right"]["value"]) < 2600.0


@pytest.fixture(scope="module")
def side():
    return load("side_barrier").run()


def test_reference_side_barrier_near_side_driver_is_plausible(side):
    """Near-side 50M driver, belted, car pushed sideways by 29 km/h: the door, armrest and kick
    panel stop the torso, pelvis and legs within their tables (nothing passes through the door);
    the chest and pelvis are loaded through the door at several kN; pelvis acceleration within
    the 130 g FMVSS 214 SID limit and chest (upper-torso) 3 ms within 100 g, the range of
    side tests without side airbags [U]; HIC15 within the 1000 of HIC36 side-impact limits
    [U]. Not judged: no regulation applies to a Hybrid III in a side test."""
    run = side
    _closes_and_stays_out(run)
    assert run.regulation == "" and all(r["pass"] is None for r in run.criteria)
    rows = _rows(run)
    out = run.results.outputs
    assert out["thorax__door_panel.normal_force"].max() > 2000
    assert out["pelvis_flesh__door_panel.normal_force"].max() > 2000
    assert 30 < rows["pelvis acceleration"]["value"] < 130
    assert 30 < rows["chest 3 ms"]["value"] < 100
    assert 50 < rows["HIC15"]["value"] < 1000
    # the occupant moves towards the door (+y) relative to the car, by about the room it had
    rel = run.results.body_com[:, :, 1] - run.results.base_poses[:, None, 1, 3]
    pelvis = run.model.body("pelvis")
    assert 0.08 < rel[:, pelvis].max() - rel[0, pelvis] < 0.25


def test_reference_side_barrier_lower_diagonal_under_2_kN(side):
    """The side-test driver's lower shoulder belt (chest-buckle) stays under 2 kN: the belt holds
    its torso little as it slides outboard under it (test below). 1.43 kN at 50 ms with the
    D-ring on its B-pillar (branch dringpillar); 2.12 kN at 60 ms, the D-ring segment's peak
    passed down the belt, while the D-ring stood 0.10 m inboard of the pillar (a strict xfail
    then; scenarios/HISTORY.md, sidedring)."""
    assert side.results.outputs["belt.chest-buckle.force"].max() < 2000


def test_reference_side_barrier_belt_stays_on_the_shoulder(side):
    """The side-test driver is belted (NHTSA's side NCAP fits the car's belt), and the occupant
    slides towards the belt's outboard anchorages, so the belt holds its torso little; the
    shoulder belt is loaded by the neck, which bears on it as the driver slides outboard under
    it (the neck barrier, test below; its bound at the D-ring, the US-SID's 2.5 kN of SAE 902313
    since branch doorsource, is a strict xfail, test_reference_side_barrier_shoulder_belt_load_
    on_the_neck): it was under 3 kN at the D-ring, half the 6.25 kN the same belt over the same
    anchorages carries in us_ncap_frontal_56 [E], before the door's hip-room place (2.24 kN measured at 63 ms,
    where the belt's path is 32 mm longer than without the neck in its way; 0.85 kN when the
    belt passed through the neck; no published near-side belt load was found: the 2 kN of this
    bound was set at 0.94 kN measured without a source, scenarios/HISTORY.md, forceline and
    sidebelt; that the belted shoulder on the struck side loads the shoulder belt on the neck,
    more as the impact turns lateral, is reported without a figure: Horsch, SAE 801310, 1980
    [S abstract]). The
    lap belt engages (3.2 kN at the buckle, 5.84 kN at the lap anchor, 4.26 before its wrap's
    crown stood at the dummy's ASIS, scenarios/HISTORY.md, hiiipelvis; the pelvis slides past the anchor,
    dragging its webbing along, restraints.belt.wrap_drift); the door still stops the
    pelvis and thorax (over 5 kN each). The lap belt's three wraps keep their places on one ellipsoid
    (the pelvis): placed by the joint solve for wraps on neighbouring ellipsoids
    (restraints.wrap_chain.place_chain) they jumped 73 mm in a sample and the lap belt spiked
    to 50 kN: no lap segment reaches 6.5 kN nor steps by more than 0.5 kN between samples (0.15
    kN measured). Cause of the bound: with the belt free to slide across the body (shortest
    path over the thorax) it slid off the shoulder as the torso passed the D-ring and wrapped
    the thorax's door-side flank: 7.0 kN at the D-ring, 11.2 kN on the lower diagonal, the
    door's load on the pelvis 3.5 kN; held on the body by the GS1 belt-body friction across it
    (restraints.belt.across), it stays on the shoulder. The lower diagonal's 2 kN bound is its
    own test above since branch torsoheld (a strict xfail: 2002.8 N, main 1995.6)."""
    out = side.results.outputs
    for segment in ("buckle-hip_inboard", "hip_inboard-lap", "lap-hip_outboard",
                    "hip_outboard-lap_anchor"):
        assert out[f"belt.{segment}.force"].max() < 6500, segment
        assert np.abs(np.diff(out[f"belt.{segment}.force"])).max() < 500, segment
    assert out["belt.buckle-hip_inboard.force"].max() > 500
    assert out["pelvis_flesh__door_panel.normal_force"].max() > 5000
    assert out["thorax__door_panel.normal_force"].max() > 5000


# The shoulder belt's load when the occupant slides towards its upper anchorage and bears on it
# with the neck: 2.5 kN on average on the US-SID, 1.6 kN on the cadavers, in seven 50 km/h
# car-to-car lateral collisions of belted far-side rear occupants with an inboard-anchored
# shoulder belt [S: SAE 902313, 1990, abstract (sae.org)], the near-side driver's geometry
# mirrored (the belt over the shoulder on the side it slides to). There the belt holds the
# torso alone; here the door takes most of it, so the dummy's 2.5 kN bounds the near side from
# above [E: the argument, not a measurement]
NEAR_SIDE_SHOULDER_BELT = 2500.0    # N


def test_reference_side_barrier_shoulder_belt_load_on_the_neck(side):
    """The shoulder belt at the D-ring under NEAR_SIDE_SHOULDER_BELT, the US-SID's average in
    far-side car-to-car tests where the occupant slid towards the shoulder belt's upper
    anchorage and bore on it with the neck (SAE 902313 [S]), as this driver does sliding
    towards the door under its outboard D-ring; before branch doorsource the bound was half
    the 6.25 kN of us_ncap_frontal_56's belt [E] (2.24 kN measured at 63 ms when it was set,
    2.04 kN at main 4fda862, 3.36 kN with the door 20 mm further out, 3.41 kN at main
    a8232fa, 3.61 kN with the heels on the floor, sideheels, a strict xfail while the D-ring
    stood 0.10 m inboard of its B-pillar and the neck slid under it: sidedring). 1.03 kN at
    66 ms with the D-ring on the pillar (dringpillar). No near-side figure was found
    (scenarios/HISTORY.md, doorsource)."""
    assert side.results.outputs["belt.d_ring-neck.force"].max() < NEAR_SIDE_SHOULDER_BELT


# How far a belt's path may lie inside the neck shell, a belt it does not wrap [E]: a graze,
# a quarter of the Hybrid III neck shell's 44 mm half-width (dummies/hybrid3_50m.toml)
NECK_GRAZE = 0.010      # m


def _deepest_in_the_neck(run):
    """The deepest the run's belt path (restraints.belt_clearance) lies in the neck shell,
    sampled every millisecond."""
    ks = range(0, len(run.results.t), 10)
    return max(belt_depths(run, "belt", k, ("neck_shell",))["neck_shell"] for k in ks)


def test_reference_side_barrier_shoulder_belt_stays_out_of_the_neck(side):
    """As the driver slides towards the door under the shoulder belt, the belt's path (rebuilt
    from its points, restraints.belt_clearance) lies no more than NECK_GRAZE inside the neck
    shell, sampled every millisecond: a belt against the neck loads it, it does not pass
    through it. The scenario's barrier wrap on the neck (``neck_barrier``, restraints.wrap_chain.
    place_barrier) holds it there: 0.8 mm measured; without it 54.5 mm at 49 ms (read 0.0 mm
    while the rebuilt path skipped the D-ring, scenarios/HISTORY.md, forceline)."""
    assert "belt.d_ring-neck.force" in side.results.outputs
    assert _deepest_in_the_neck(side) < NECK_GRAZE


@pytest.mark.parametrize("which", ["ncap", "belted", "full_width"])
def test_reference_frontal_shoulder_belt_stays_out_of_the_neck(request, which):
    """The belted frontal drivers' shoulder belt, with no barrier on the neck, lies no more than
    NECK_GRAZE inside the neck shell over the run, sampled every millisecond (its path rebuilt
    from its points, ``_deepest_in_the_neck``). Measured (main 1593cde, scenarios/HISTORY.md,
    beltneck): US NCAP 2.0 mm, the shortest-path belt from the D-ring over the neck's base at
    0.957 of the shell's scaled radius for the first 10 ms, clear after (1.17-2.22 radii); 0.0
    mm since the D-ring stands on its B-pillar, behind the thorax (dringpillar); the
    belted sled 0.0 mm (1.006 at the start, its least), 5.3 mm on main 647b827 (across the
    neck's front for its first 10 ms; 0.1 mm with ``neck_barrier``, the criteria within 1 %:
    scenarios/HISTORY.md, dummyclav); the 5F 0.0 mm (1.69 at least). The
    torso held across from its shortest-path fit (``across = 0.3``, heldacross2's run A) ran
    the belt 47.3 mm into the US NCAP neck: this fails on it. aeb_precrash_frontal's rebound:
    tests/scenario/test_aeb.py."""
    run = request.getfixturevalue(which)
    assert "belt.d_ring-shoulder.force" in run.results.outputs     # no neck barrier
    assert _deepest_in_the_neck(run) < NECK_GRAZE


def test_reference_side_barrier_belt_force_lines_stay_out_of_the_neck(side):
    """Each straight belt segment between two consecutive points (the lines the belt's forces
    act along) lies no more than NECK_GRAZE inside the neck shell, sampled every millisecond
    (restraints.belt_clearance.depth at 50 points a segment): 6.7 mm measured at 72 ms, the
    chord of the barrier's own wrap round the neck; without the barrier the chord from the
    D-ring to the held shoulder wrap's point cut 59.4 mm into it (49 ms)."""
    names = [p.name for p in side.model.source.belts["belt"].points]
    out, worst = side.results.outputs, 0.0
    for k in range(0, len(side.results.t), 10):
        neck = ellipsoids_at(side, k, ("neck_shell",))["neck_shell"]
        X = [np.array([out[f"belt.{n}.{a}"][k] for a in "xyz"]) for n in names]
        for a, b in zip(X, X[1:]):
            worst = max(worst, max(depth(a + s * (b - a), neck) for s in np.linspace(0, 1, 50)))
    assert worst < NECK_GRAZE


def test_reference_side_barrier_head_meets_nothing_and_neck_stays_off_its_stops(side):
    """Without the door's intrusion the head meets neither window nor B-pillar (its shell
    reaches 0.33 m from the seat centreline, the window is at 0.40 m, the B-pillar behind it):
    its motion is the neck's. The neck bends laterally within the open model's tabulated
    curve (32 deg at C7/T1, 810 N m/rad [S]; its stop is at the curve's end, 57.3 deg [D]):
    before, the human half-range of 22.5 deg [U] was its stop, struck with 1.2 kN m, and made
    HIC15 567 (unbelted) / 482 (belted) out of the stop's spike; now HIC15 270 comes from the
    lateral bending spring carrying the head (50-55 g for 15 ms). The head yaws towards the
    door (its centre of gravity ahead of the neck's axis) and reaches the twist stop at the
    curve's end, 57.3 deg, after the HIC15 window (80 ms): no Hybrid III twist range was
    found (scenarios/side_barrier.toml)."""
    out = side.results.outputs
    for pair in ("head_shell__side_window", "head_shell__b_pillar"):
        assert out[f"{pair}.normal_force"].max() == 0.0, pair
    lateral = np.degrees(np.abs(out["lower_neck_x.deflection"]))
    assert 20 < lateral.max() < 57.3
    assert np.abs(out["lower_neck_x.load"]).max() < 810.7 * np.radians(57.3)   # the spring alone
    hic = _rows(side)["HIC15"]["value"]
    assert 150 < hic < 400


@pytest.fixture(scope="module")
def rear():
    return load("rear_whiplash").run()


def test_reference_rear_whiplash_is_plausible(rear):
    """16 km/h medium pulse, 50M settled with 50 mm backset (occupant.scenario.placement, from the
    back of the head: the occiput, the dummy's real shell, paired with the restraint): the
    head meets the restraint 40-80 ms into the pulse (the Euro NCAP contact-time scale runs
    53-80 ms [U]); HIC15 within FMVSS 202a's 500 (the head-to-torso rotation: the test below);
    NIC, Nkm and the T1 acceleration are of the order of whiplash tests (NIC 5-60 m^2/s^2, Nkm
    0.1-1.5, T1 5-30 g [U]) and are shown beside the BioRID limits without a verdict; the head
    rebounds forward at 1-5 m/s. The seat back frame turns rearward on its recliner, carrying
    the head restraint: 11.02 deg at 100 ms, 2.0 deg left at 200 ms (0.3 deg settled at the
    start; 10.07 deg at 98 ms and 3.0 deg before the back's trim held the torso, branch
    rearramp). No published turn of production seat backs in 16 km/h sled tests was found (the
    10-20 deg this test asked before was unsourced [U]), so the recliner is held against its
    load instead: its peak moment, 1.33 kN m at 97 ms (1.22 kN m before rearramp; 1.221 -> 1.224
    kN m with the occiput),
    lies between half and twice the
    quasi-static moment of the sled's 10 g on the upper body about the recliner, 1.01 kN m [D]
    (an undamped oscillator's peak under a one-signed pulse is at most twice its static
    response [D]; the half is [E]), and below 1.7 kN m, where the body-block strength of most
    2000s seats begins [S: Viano & White 2016, Traffic Inj. Prev. 17(5):502-507, abstract]: the
    back turns within its elastic branch, short of the 20 deg where the seat's table reaches
    the dual-recliner mean strength, 2.3 kN m [S: same] (before 1.6 kN m [E]; the run unchanged:
    10.04 deg, 1.22 kN m), and well short of the 32 deg seat back deflection past which Euro
    NCAP caps a seat's score in its harsher 24 km/h pulse (none at 16 km/h) [S: Euro NCAP's
    2026 rating code, github.com/Euro-NCAP/euroncap_rating_2026, whiplash capping table in
    tests/crash_protection/test_file_score.py]. Settled, the head reaches the restraint at 67.3 ms (49.9 ms
    unsettled, where the restraint was 21.0 mm from the back of the head as postured instead of
    50 mm from the settled head): HIC15 33 (20), NIC 14.7 (16.7), Nkm 0.68 (0.42), T1 12.9 g
    (11.9 g), rebound 1.8 m/s (1.2). Measured from the head shell, 26 mm inside the real back of
    the head, the real head lay 24 mm from the restraint and these were 66.8 ms, HIC15 31, NIC
    15.1, Nkm 0.99, T1 13.1 g, rebound 1.7 m/s (scenarios/HISTORY.md, branch occiput). Before the
    back frame was hinged, T1 reached 22 g and the torso sank 0.09 m past the restraint."""
    run = rear
    _closes_and_stays_out(run)
    rows = _rows(run)
    assert 40 < rows["head restraint contact time"]["value"] < 80
    assert rows["HIC15"]["pass"] is True and rows["HIC15"]["value"] < 500
    assert 5 < rows["NIC"]["value"] < 60 and rows["NIC"]["limit"] == 27.0 and rows["NIC"]["pass"] is None
    assert 0.1 < rows["Nkm"]["value"] < 1.5 and rows["Nkm"]["pass"] is None
    assert any("BioRID II are shown beside the criteria" in n for n in run.notes)
    # the upper neck beside the whiplash table's capping limits, by Fx's sign (branch
    # whiplashlimits): 42 N forward (the head lagging, at contact), 279 N backward (the restraint
    # pushing the head off, 120 ms), tension 31 N
    assert [rows[n]["limit"] for n in ("neck shear Fx+", "neck shear Fx-", "neck tension")] == [290.0, 360.0, 900.0]
    assert all(rows[n]["pass"] is None for n in ("neck shear Fx+", "neck shear Fx-", "neck tension"))
    assert rows["neck shear Fx+"]["value"] < rows["neck shear Fx-"]["value"]
    assert 5 < rows["T1 acceleration"]["value"] < 30
    assert 1.0 < rows["rebound velocity"]["value"] < 5.0
    # the torso loads the seat back, the pelvis stays on the cushion
    out = run.results.outputs
    assert out["thorax__seat_back.normal_force"].max() > 1000
    turn = np.degrees(out["seat_back_frame_resistance.deflection"])
    assert 0.0 < turn[-1] < turn.max() < 20.0
    moment = -out["seat_back_frame_resistance.load"]           # restoring, N m
    static = _upper_body_moment_about_recliner(run, 10 * G0)
    assert 0.5 * static < moment.max() < min(2.0 * static, 1700.0)
    # the head restraint rides on the frame: at the largest turn the head pushes on it further
    # behind its face at t = 0 (as placed) than its table's whole depth (0.09 m), a fixed
    # restraint could not
    k = int(np.argmax(turn))
    assert out["occiput__head_restraint.normal_force"][k] > 0
    face = run.model.source.geometries["head_restraint"]      # on the frame, B0 at t = 0
    z = out["occiput__head_restraint.point_z"][k]
    face_x0 = face.point[0] - face.normal[2] / face.normal[0] * (z - face.point[2])
    assert out["occiput__head_restraint.point_x"][k] < face_x0 - 0.09
    z = run.results.body_com[:, run.model.body("pelvis"), 2] - run.results.base_poses[:, 2, 3]
    assert z.min() > z[0] - 0.03



def test_reference_rear_whiplash_seat_back_unloads_from_its_true_peak(rear):
    """The seat back frame's recliner (a yielding hysteretic hinge, absorption 0.7,
    vehicles/whiplash_sled_seat.toml) starts turned 0.29 deg rearward under the settled 50M, so
    it starts on its loading history (``joint_resistance.start_histories``): its largest
    rearward turn, a state, is that turn at t0, and is the running maximum of the turn after it,
    so the back unloads along its unloading line from its true peak, 10.63 deg. Started at 0
    (before branch hysstart), the state lagged the turn by those 0.29 deg all along (10.34 deg
    read as the peak): the back sprang back down its loading curve over them, 1.12 deg left at
    200 ms (now 1.56), and the head rebounded at 2.56 m/s (now 2.44; NIC 12.9 -> 12.6)."""
    out, res = rear.results.outputs, rear.results
    turn = out["seat_back_frame_resistance.deflection"]          # rad, rearward
    largest = res.z[:, rear.model.z_names.index("seat_back_frame_resistance.max_deflection_above")]
    assert 0.004 < turn[0] < 0.007
    assert largest[0] == turn[0]
    # the state is the running maximum (semi-implicit Euler's z lags q by a step's motion, which
    # max(state, turn) covers while it grows); without the start 5.1e-3 off
    assert np.abs(np.maximum(largest, turn) - np.maximum.accumulate(turn)).max() < 1e-6


def _in_b0(run, body, point):
    """(n, 3) path in B0 of ``point`` fixed in ``body``'s frame."""
    res = run.results
    pose = np.linalg.inv(res.base_poses) @ res.body_poses[:, run.model.body(body)]
    return (pose @ np.append(point, 1.0))[:, :3]


def test_reference_rear_whiplash_occupant_ramps_but_stays_in_the_seat(rear):
    """The 50M ramps up the seat back but stays in the seat and under the head restraint's top.
    The back leans 25 deg: the sled's horizontal push on the torso has a component up the back of
    tan 25 deg = 0.47 times its normal one [D], so a back whose friction is below 0.47 lets the
    torso slide up it, as volunteers and dummies do in rear sled tests (volunteers' H-point rises
    by ramping up the seat, torso and head rise [S: Davidsson et al. 1998, abstract,
    wbldb.lievers.net/10085851]; no published ramp of a Hybrid III in mm was found [U]). With the
    GS1 rig's backrest friction, 0.05 (the SAFER deck's, a frontal rig's plate), the 50M slid up
    and left the seat: pelvis, T1 and head 189 / 216 / 220 mm up at 200 ms, the head's centre of
    gravity over the restraint's top from 122 ms, 119 mm over it at 200 ms (scenarios/HISTORY.md,
    branch rearramp). With the trimmed back's 0.3 [E: crash-domain-facts.md 6.3, dummy-seat
    0.3-0.6 [U]] T1 still rises 60 mm along the back by 159 ms; pelvis, T1 and head rise 77 / 45 /
    46 mm at most, the head's centre of gravity at least 59 mm under the restraint's top (the
    restraint's top edge carried by the seat back frame)."""
    run = rear
    pair = run.model.source.contact_pairs["thorax__seat_back"]
    assert pair.characteristic.friction < np.tan(np.radians(25.0))      # the torso may slide up
    rise = {}
    for body, point in (("pelvis", (0.0, 0.0, 0.0)), ("upper_torso", (0.06341, 0.0, 0.276)),
                        ("head", (0.0, 0.0, 0.0))):      # pelvis and head frames, T1 (the sensor)
        path = _in_b0(run, body, np.array(point))
        rise[body] = path[:, 2] - path[0, 2]
    assert max(r.max() for r in rise.values()) < 0.100
    # T1 along the seat back as it turns on its recliner (the back's plane and the head
    # restraint are given in B0 at no turn; the frame's origin is the recliner axis): the ramp
    turn = run.results.outputs["seat_back_frame_resistance.deflection"]     # rad, rearward
    pivot = (np.linalg.inv(run.results.base_poses[0])
             @ run.results.body_poses[0, run.model.body("seat_back_frame")])[:3, 3]

    def turned(v):                      # (x, z) of B0 vector v turned rearward about the axis
        return (v[0] * np.cos(turn) - v[2] * np.sin(turn), v[0] * np.sin(turn) + v[2] * np.cos(turn))

    up = turned(run.model.source.geometries["seat_back"].x_axis)          # up the back
    t1 = _in_b0(run, "upper_torso", np.array([0.06341, 0.0, 0.276])) - pivot
    along = t1[:, 0] * up[0] + t1[:, 2] * up[1]
    assert 0.020 < (along - along[0]).max() < 0.100
    face = run.model.source.geometries["head_restraint"]
    top = pivot[2] + turned(face.point + face.half_size[0] * face.x_axis - pivot)[1]
    head = com_in_vehicle(run.results, run.model.body("head"))[:, 2]
    assert (top - head).min() > 0.030


def _upper_body_moment_about_recliner(run, accel):
    """The moment about the seat back's recliner axis of ``accel`` (forward, m/s^2) on the
    occupant's parts above the lumbar joint at the run's start: sum of m a (z - z_pivot)."""
    parts = ("upper_torso", "sternum", "neck", "head", "left_upper_arm", "right_upper_arm",
             "left_lower_arm", "right_lower_arm")
    z_pivot = -0.02                                  # vehicles/whiplash_sled_seat.toml, in B0
    z = run.results.body_com[0, :, 2] - run.results.base_poses[0, 2, 3]
    mass = np.asarray(run.model.body_mass)
    return sum(mass[i] * accel * (z[i] - z_pivot) for i in map(run.model.body, parts))


def test_analytic_head_rotation_is_head_relative_to_torso_from_its_start():
    """FMVSS 202a's posterior rotation between head and torso (S4.3.1(a) [C: LII text]; the
    dummy's angular rate sensors integrate from the test's start [U]): the head's pitch relative
    to the upper torso minus its initial value, rearward positive, up to the end of the first
    head-restraint contact. Here the torso turns 10 deg rearward and the head 25 deg rearward
    from a head 20 deg flexed at the start, in a vehicle pitched 5 deg and moving: 15 deg; a
    later 30 deg past the window does not count, and a head that only flexes gives 0."""
    from types import SimpleNamespace
    from occupant.scenario.criteria import _head_motion
    from occupant.spatial.rotation import rot_y

    t = np.linspace(0.0, 0.2, 5)
    torso = np.radians([0.0, -5.0, -10.0, -10.0, -10.0])      # pitch about +y: rearward negative
    head = np.radians([20.0, 10.0, -5.0, -5.0, -40.0])
    base = np.array([np.eye(4)] * 5)
    base[:, :3, :3] = rot_y(np.radians(5.0))
    base[:, 0, 3] = 0.5 * t
    poses = np.array([np.eye(4)] * 5)[:, None].repeat(2, axis=1)
    for k in range(5):
        poses[k, 0, :3, :3] = base[k, :3, :3] @ rot_y(torso[k])
        poses[k, 1, :3, :3] = base[k, :3, :3] @ rot_y(head[k])
    com = np.zeros((5, 2, 3))
    com[:, 1, 0] = -0.05 * np.sin(np.linspace(0, np.pi, 5))
    results = SimpleNamespace(t=t, base_poses=base, body_poses=poses, body_com=com)
    model = SimpleNamespace(body_names=["upper_torso", "head"], body=["upper_torso", "head"].index)
    assert _head_motion(results, model, t_end=0.12)["head rotation"].value == pytest.approx(15.0)
    assert _head_motion(results, model)["head rotation"].value == pytest.approx(50.0)
    flexing = poses.copy()                       # the head flexes 0 to 20 deg on the torso
    for k in range(5):
        flexing[k, 1, :3, :3] = poses[k, 0, :3, :3] @ rot_y(np.radians(5.0 * k))
    results.body_poses = flexing
    assert _head_motion(results, model)["head rotation"].value == 0.0


def test_reference_rear_whiplash_head_extension_grows_with_backset(rear):
    """FMVSS 202a limits the posterior rotation between the Hybrid III's head and torso to 12
    deg (S4.3.1(a) [C: LII text]); its static option limits the backset to 55 mm [C: 72 FR
    25484]. At the shipped 50 mm, set on the settled dummy's back of the head (the occiput),
    the head meets the restraint at 65.6 ms (67.3 ms before the seat back's trim held the torso,
    branch rearramp) level with the upper torso and extends on it while
    compressing its foam, 4.3 deg (3.5 deg at 106 ms before rearramp) (6.5 deg at 113 ms when the head shell, 26 mm inside
    the real back of the head, met the restraint below the head's centre of gravity, its push
    along the restraint's leaning normal a little extending; the occiput meets it level with it
    and 32 mm further back, where that push flexes the head with a 21-24 mm lever:
    scenarios/HISTORY.md, branch occiput). Unsettled (the restraint 21.0 mm from the
    postured back of the head) the head meets it at 49.9 ms and stays flexed on the torso
    through the contact (0.0 deg); settled with the restraint left 8.9 mm away it arrives at
    43.3 ms, 0.0 deg.
    The measure and the model respond to the backset as the Hybrid III does in sled tests of
    OEM seats, whose rearward head-to-T1 rotation grows with backset [U: abstract,
    wbldb.lievers.net/10257124]: 100 mm gives 16.7 deg, 150 mm 28.1 deg (16.0 and 23.2 before
    rearramp; 17.5 and 24.1 from the head shell before that), past 202a's 12 deg (a restraint twice the static limit fails the dynamic
    one)."""
    rotation = [_rows(rear)["head rotation"]] + [
        _rows(load("rear_whiplash", overrides={"vehicle.backset": b}).run())["head rotation"]
        for b in (0.100, 0.150)]
    assert 2.0 < rotation[0]["value"] < 12.0 and rotation[0]["pass"] is True
    assert rotation[0]["value"] < rotation[1]["value"] < rotation[2]["value"]
    assert rotation[1]["value"] > 12.0 and rotation[1]["pass"] is False


def test_reference_run_summary_counts_the_interiors_hinged_surfaces(rear):
    """The command's summary counts the interior's surfaces: the whiplash seat's cushion and
    floor on B0 and its seat back and head restraint on the hinged back frame, 4 (before, only
    the surfaces fixed to B0 were counted: 2), and the contact pairs: the scenario's 13 and
    the occupant's own 12 (dummies/body_contacts.toml: head shell and chin on the chest, the
    chin on the sternum's jacket, thighs, knee pads, shanks, foot-shank, feet, and the heels':
    11 and 8, 19 in all, before the Hybrid III's heels, branch footsplit)."""
    from occupant.scenario.command import summary_lines
    assert len(rear.interior.surfaces) == 4
    assert "interior whiplash_sled_seat (4 surfaces, 25 contact pairs)" in summary_lines(rear)[2]


def test_reference_rear_whiplash_femur_moment_is_the_knee_friction(rear):
    """The rear femur My is the knee's friction moment, about 19 N m, less the shear's share:
    the cell reads its moment d up the femur from the knee's pivot
    (occupant.sensors.defaults, the dummy file's femur_load_cell marker: 107.9 mm, the open FE
    50M's cell), so My = the knee's torque + d Fx. The knee's part is its limb-setting friction
    (1.5 g x 5.5 kg lower leg and foot x 0.236 m = 19.0 N m [C wording 572.116(h)]) plus its
    damping, its sign following the knee's turn: after the rebound the pelvis slides forward on
    the cushion with the feet on the floor and the knees flex 23 deg (60-160 ms), the cell
    reaching -26 N m (friction and damping at 9.8 rad/s) and +1.8 N m. Until the seat back held
    the torso (branch rearramp: trim friction 0.3, was 0.05) the occupant rose off the seat and
    its lower legs swung back and forth as the feet, dragged forward by the sled floor, bounced
    on it: +-21 N m (the "chatter" a review found). No contact
    stick-slip or filter: the cell less d Fx equals the knee resistance's moment, bounded by
    friction + damping x rate, and reaches the friction level. The cell reads
    along its own axes (the marker's, the open FE 50M's skew): its load is turned back into the
    femur's J211 axes first, P R P (R the marker's rotation in the femur's frame, P = J211's
    flip)."""
    run = rear
    out, model = run.results.outputs, run.model
    knee = model.source.find("left_knee_flexion")
    ch = {c.code: np.asarray(c.values) for c in run.results.channels}
    P = np.diag([1.0, -1.0, -1.0])
    turn = P @ model.source.markers["left_femur_load_cell"].rotation @ P
    assert np.degrees(np.arccos(turn[2, 2])) > 1.0             # the cell is not along the femur
    my = (np.stack([ch[f"11FEMRLE00H3MO{a}0"] for a in "XYZ"], 1) @ turn.T)[:, 1]
    fx = (np.stack([ch[f"11FEMRLE00H3FO{a}0"] for a in "XYZ"], 1) @ turn.T)[:, 0]
    d = np.linalg.norm(model.source.markers["left_femur_load_cell"].position
                       - model.source.joints["left_knee"].placement.position)
    assert d == pytest.approx(0.1079, abs=1e-4)
    assert np.abs(d * fx).max() > 1.0
    np.testing.assert_allclose(my - d * fx, out["left_knee_flexion.load"], atol=1e-9)
    my = my - d * fx
    rate = run.results.v[:, run.results.dof_names.index("left_knee")]
    assert np.all(np.abs(my) <= knee.friction + knee.damping * np.abs(rate) + 1e-9)
    assert knee.friction == pytest.approx(19.0, abs=0.1)
    assert my.min() < -0.95 * knee.friction


@pytest.fixture(scope="module")
def ncap():
    return load("us_ncap_frontal_56").run()


def test_reference_us_ncap_driver_is_held_by_lap_belt_and_cushion(ncap):
    """The shipped US NCAP 56 km/h belted driver (issue 13 section 1): the lap belt starts on
    the front of the pelvis, up to the ASIS (within 0.12 m above the H-point and ahead of it in
    the vehicle's axes: 85-109 mm up, 56-74 mm ahead measured, the wrap's crown at the dummy's
    ASIS, test_reference_lap_belt_stays_below_the_asis), not on the abdomen (it lay 0.18 m up
    before, wrapped over the pelvis flesh's top); it then restrains
    the pelvis mostly forward, so the pelvis stays within the cushion's table (no pair runs
    past the end of its table) and the energy balance closes; head and neck figures pass
    FMVSS 208 and femur loads stay below its 10 kN. The belt loads the sternum (its chest wrap
    rides on it, as does the bag's patch over the ribcage): chest deflection 35 mm (37 before the
    hands held the rim, dummies/body_contacts.toml), inside FMVSS 208's 63 mm, and the chest
    recovers once the belt unloads (the Hybrid III's ribs spring back: under a quarter of the
    peak is left at 150 ms; the earlier unloading line to a permanent set kept 30 mm, 0.72 of
    it). On the
    vehicle pulse of a real NCAP test (NHTSA 11391) chest 3 ms is 45 g (48 before the hands held
    the rim), inside FMVSS 208's
    60 g (54 g unsettled; 67.7 g on the idealised 80 ms half-sine with an 80 mm pull-in
    prescribed without a force limit); the Hybrid III 50M drivers of NHTSA 11391 and 14084
    measured HIC15 328 / 278, head 3 ms 58 / 55 g, chest deflection 27 / 31 mm (pyisomme
    docs/report.ipynb on NHTSA's data [C]); here, settled, HIC15 429 and head 3 ms 62.3 g with
    the hands on the rim and the locked spool keeping the pretensioner's stall tension
    (restraints.belt; 438 and 62.7 g before that, 546 and 69.1 g without the hands; test_reference_us_ncap_head_matches_nhtsa_11391,
    a strict xfail). The figures from here on were measured before the hands held the rim: the
    37 mm of chest deflection (36.8; 36.4 while the webbing's largest strain lagged behind its
    strain, restraints.belt.LARGEST_FOLLOW) are the belt's and the bag's on the sternum: the
    limiter holds 4.0 kN at the retractor, the D-ring's capstan factor exp(0.2 x 114 deg) = 1.49
    and its regularisation make B3 6.3 kN, the lower diagonal 6.6 kN (6.8 kN while the state
    lagged; then 28.5 mm with the bag's patch on the rigid thorax; the bag's share within the
    sternum's outline, 1.1 of its 3.0 kN on the
    thorax at the peak, adds 8 mm; 1.5 of 2.9 kN and 38.8 mm with the 214 mm outline [E]
    before the open model's 194 x 166 mm, dummies/hybrid3_50m.toml). The lower diagonal stays
    near B3, as lower shoulder belt loads in tests do (similar to or below the upper [U]): its webbing, stuck to the chest, is no longer stretched
    by the chest wraps' own motion over the body (restraints.belt.wrap_drift; before, 9.4 kN,
    1.51 B3, with the shoulder-chest chord at 8.8 kN). The settled head stops 0.087 m into the
    driver bag (0.26 m with the lens law), short of the collapsed bag: no bottoming force (in
    the 0.26 m deep bag used before it bottomed with 6.8 kN on the hub, HIC15 1052). Since a
    segment's strain counts its length to its wraps' places (restraints.belt.wrap_lag): HIC15
    545.1 -> 545.8, chest deflection 36.79 -> 36.68 mm, lower diagonal 6.55 -> 6.51 kN, the lap
    belt's segments 5.59 / 5.11 -> 5.33 / 5.35 kN, neck compression 59 -> 67 N."""
    run = ncap
    _closes_and_stays_out(run)
    out, rows = run.results.outputs, _rows(run)
    for point in ("hip_inboard", "lap", "hip_outboard"):
        assert 0.0 < out[f"belt.{point}.z"][0] < 0.12, point       # B0 origin at the H-point
        assert out[f"belt.{point}.x"][0] > 0.05, point
    assert out["pelvis_flesh__seat_cushion.penetration"].max() < 0.12   # short of the pan row
    assert rows["HIC15"]["pass"] is True and 100 < rows["HIC15"]["value"] < 700
    assert rows["Nij"]["pass"] is True
    assert max(rows["femur force left"]["value"], rows["femur force right"]["value"]) < 10000
    assert out["driver_airbag_head_shell.bottoming_force"].max() == 0.0
    chest = -out["chest_translation.deflection"]                  # compression positive
    assert 30e-3 < chest.max() < 63e-3 and chest[-1] < 0.25 * chest.max()
    assert out["belt.chest-buckle.force"].max() < 1.15 * out["belt.d_ring-shoulder.force"].max()
    assert rows["chest 3 ms"]["pass"] is True and 40 < rows["chest 3 ms"]["value"] < 60


def _outboard_reach(run, shell):
    """(n,) m: how far out (+y, the door's side) the ellipsoid ``shell`` reaches in B0."""
    reach = np.empty(len(run.results.t))
    for k in range(len(reach)):
        c, R, semi = ellipsoids_at(run, k, [shell])[shell]
        reach[k] = c[1] + np.sqrt(np.sum((R[1, :] * semi) ** 2))
    return reach


def test_reference_us_ncap_outboard_arm_stays_inside_the_door(ncap):
    """The belted 50M driver's outboard arm swings out by the seat as the torso rolls out of the
    shoulder belt (issue 11 section 6): without a door (main 4fda862) the hand's shell reached
    0.393 m from the seat centreline at 87 ms and stayed 0.37 m out, the forearm's 0.357 m,
    past where the door trim stands (0.350 m). With the door side of vehicles/
    midsize_sedan_driver.toml the forearm meets the armrest (2.37 kN at 68 ms, 19.2 mm into
    its 0.09 m table) and the hand the door trim (0.28 kN, 3.8 mm): measured, the hand reaches
    0.354 m, the forearm 0.327 m, the elbow 0.252 m and the elbow is back at 0.201 m at 150 ms
    (0.246 m without the door). Measured since the seat back's trim friction 0.3 (branch
    frontback): the armrest 2.68 kN at 66 ms, 21.2 mm in (main ea890f2: 2.69 kN, 21.2 mm), the
    hand 0.32 kN, 4.3 mm into the trim (0.30 kN, 4.0 mm), the hand's shell reaching 0.354 m and
    the forearm's 0.3302 m (0.3299 m): its outermost point at z 0.287 m, over the armrest's top
    edge (0.25 m), 20 mm short of the trim. Bounds: the hand within 10 mm of the trim, the
    forearm within the armrest's first 30 mm (its 4 kN row; its reach past the armrest's face
    bounded by that before, 0.330 m, which the part over the armrest's edge now passes) and
    short of the trim, the armrest carrying the arm."""
    out = ncap.results.outputs
    door = 0.350
    assert _outboard_reach(ncap, "left_hand_shell").max() < door + 0.010
    assert _outboard_reach(ncap, "left_forearm_shell").max() < door
    assert out["left_forearm_shell__armrest.penetration"].max() < 0.030
    assert 0.5e3 < out["left_forearm_shell__armrest.normal_force"].max() < 4e3
    assert out["left_hand_shell__door_panel.penetration"].max() < 0.010


def test_reference_us_ncap_head_matches_nhtsa_11391(ncap):
    """The US NCAP driver's head against NHTSA 11391's own Hybrid III 50M (pyisomme docs on
    NHTSA's data, scenarios/README.md): HIC15 within 25 % of its 328 and head 3 ms within 10 %
    of its 57.6 g (the lens law met both, 315 and 55.4 g, by letting the head 259 mm into the
    bag). Met since the head link's dimple is shared by the lever rule with its lateral pull
    (baglever: HIC15 432 -> 375, head 3 ms 61.9 -> 58.6 g, the head 89 mm in; the chin, 80-100
    mm under the head's face, takes its part of the one dimple while it presses the fabric out
    beyond the head's paraboloid, the deepest pair took it all before). It was a strict xfail:
    HIC15 431 and head 3 ms 61.9 g, the head pulse near the test's shape (HIC15 / (0.015 s
    a_3ms^2.5) 0.93, the test's 0.87), the history of its figures in scenarios/HISTORY.md."""
    rows = _rows(ncap)
    assert rows["HIC15"]["value"] == pytest.approx(328.0, rel=0.25)
    assert rows["head 3 ms"]["value"] == pytest.approx(57.6, rel=0.10)


# When the US NCAP driver's heels, off the floor from 28-37 ms, strike the toe pan [measured]:
# after it the right femur reads the foot's push (test_reference_us_ncap_femur_peak_is_the_knee_
# bag_less_the_lower_leg_deceleration), before it the knee bag's
HEELS_STRIKE = 0.050    # s


def test_reference_us_ncap_knee_airbag_loads_the_femurs(ncap):
    """The driver knee bag of us_ncap_frontal_56 (occupant.modeling.airbags.KNEE_BAG, 18 L [S],
    fired with the driver bag at 15 ms): full at 35 ms, its volume then the nominal 18 L less
    what the knees and shins displace while it holds pressure (to 122 ms); it meets the knees
    and shins while unfolding (about 27 ms) and loads the femurs in compression at 30-45 ms,
    when NHTSA 11391's own driver's femurs carried 1.13 / 1.49 kN (left / right, pyisomme docs
    on NHTSA's data, scenarios/README.md): here -0.69 / -0.62 kN at 40.3 / 40.7 ms along the
    cells' own axes (-0.70 / -0.64 kN along the femur's before `markers50m`; -0.69 / -0.65 at 41
    ms before `beltarcs`; traced in
    test_reference_us_ncap_femur_peak_is_the_knee_bag_less_the_lower_leg_deceleration) since the knee sphere and the shank shell press one dimple of their link
    (-1.06 / -0.96 kN at 40 / 39 ms with the
    two dimples' union, scenarios/HISTORY.md `chinlink`;
    test_reference_us_ncap_knee_airbag_femur_loads_near_nhtsa_11391; 0.04 / 0.08 kN without the
    bag, the knees never reaching the bolster). The taut fabric's dimple
    (occupant.restraints.airbag_dimple, the default law) pushes each leg's knee sphere and shank
    shell, one dimple of their link, with up to 0.040 / 0.042 m^2 (left / right; the knee
    sphere's own dimple 0.020 m^2 before `chinlink`), past the knee sphere's great circle (pi
    0.065^2 = 0.0133 m^2, the bound of the lens law, which gave -0.58 / -0.54 kN), within the bag's face (pi 0.25 x 0.172 m^2). Neither knee nor
    shin flattens the bag (no bottoming force, the bag 0.2 m deep) or reaches the bolster
    behind it."""
    from occupant.modeling.airbags import KNEE_BAG
    res = ncap.results
    out, t = res.outputs, res.t
    bag = ncap.model.source.airbags["knee_airbag"]
    # deployed and not yet slack (at ambient pressure the fabric holds no vacuum: the gas fills
    # less than the geometry, occupant.restraints.airbag)
    full = (t >= 0.015 + KNEE_BAG["deployment_time"]) & (out["knee_airbag.gauge_pressure"] > 0.0)
    pairs = [f"knee_airbag_{side}_{g}" for side in ("left", "right")
             for g in ("knee_contact", "shank_shell")]
    displaced = sum(out[f"{p}.displaced_volume"] for p in pairs)
    np.testing.assert_allclose(out["knee_airbag.volume"][full] + displaced[full], bag.volume,
                               rtol=1e-9)
    for p in pairs:
        assert out[f"{p}.force"].max() > 300.0, p
        assert out[f"{p}.bottoming_force"].max() == 0.0, p
    for side in ("left", "right"):
        assert out[f"{side}_knee_contact__knee_bolster.normal_force"].max() == 0.0
        area = (out[f"knee_airbag_{side}_knee_contact.area"]
                + out[f"knee_airbag_{side}_shank_shell.area"]).max()
        assert np.pi * 0.065**2 < area <= np.pi * 0.25 * 0.172
    for side, code in (("left", "11FEMRLE00H3FOZ0"), ("right", "11FEMRRI00H3FOZ0")):
        cell = next(c for c in res.channels if c.code == code)
        fz, ft = np.asarray(cell.values), np.asarray(cell.t)
        # the bag's peak: compression negative (J211), before the heels strike the toe pan
        k = int(np.argmin(np.where(ft <= HEELS_STRIKE, fz, 0.0)))
        assert 0.030 <= ft[k] <= 0.045, (side, ft[k])   # within the test's 30-45 ms


def test_reference_us_ncap_femur_peak_is_the_knee_bag_less_the_lower_leg_deceleration(ncap):
    """What the US NCAP femur cells read at their compression peak (40.3 / 40.7 ms, left /
    right), split by source (occupant.sensors.evaluate.load_cell_sources; scenarios/HISTORY.md
    `kneefemur`): the knee bag's push on the knee sphere and the shank shell (their lower leg's
    external loads) -1.24 / -1.15 kN along the cell's axis (its 0.45 / 0.47 kN on the knee and
    0.86 / 0.81 kN on the shin at 44 kPa, pressure times each dimple's area), of which the lower
    leg and foot (5.47 kg) take +0.55 / +0.69 kN to decelerate with the car (10-13 g along the
    femur), the feet on the toe pan 0 / -0.16 kN (lifted off it from 40 ms: the shins pushed back
    below the knees flex them), the knee bolster behind the bag untouched (the knees 33 mm into
    its 0.2 m). So the femur reads the bag's excess over the lower leg's own deceleration; NHTSA
    11391's 1.13 / 1.49 kN would need 1.7-2.2 kN of bag push along the femur. The parts sum to
    the cell's reading. Since the Hybrid III's heels and forefeet (heelfoot) the peak is read
    before HEELS_STRIKE: -1.13 / -0.92 kN at 40.7 / 40.1 ms (the lower legs' -1.77 / -1.63 kN,
    inertia +0.64 / +0.70, the feet 0 / 0; stop 44's merged whole), and the right femur's largest
    compression comes later, -0.95 kN at 53.8 ms, its heel and forefoot struck on the toe pan
    (2.59 / 1.03 kN): its foot's part -2.88 kN, inertia +3.11, the lower leg -1.18."""
    from occupant.sensors.defaults import default_sensors
    from occupant.sensors.evaluate import evaluate, load_cell_sources
    res, model = ncap.results, ncap.model
    out, t = res.outputs, res.t
    rate = 1.0 / float(t[1] - t[0])
    for cell in (s for s in default_sensors(model) if "femur" in s.name.lower()):
        side = cell.name.split()[0].lower()
        key = f"{cell.name} force Z"
        fz = next(c for c in evaluate(model, res, [cell], rate=rate) if c.name == key).values
        parts = {k: v[key] for k, v in load_cell_sources(model, res, cell, rate=rate).items()}
        k = int(np.argmin(np.where(t <= HEELS_STRIKE, fz, 0.0)))      # the bag's peak
        assert sum(v[k] for v in parts.values()) == pytest.approx(fz[k], abs=1e-6)
        assert 0.030 <= t[k] <= 0.045
        late = int(np.argmin(fz))          # later, the foot's push on the toe pan, if larger
        if t[late] > HEELS_STRIKE:
            assert parts[f"{side}_foot"][late] < -1.0e3, (side, t[late])   # measured -2884
        leg, foot = parts[f"{side}_lower_leg"][k], parts.get(f"{side}_foot", np.zeros(1))[k]
        assert leg < -1.0e3 and leg < fz[k] - 300.0, (side, leg)      # measured -1243 / -1154
        assert 300.0 < parts["inertia"][k] < 1.0e3, side                # measured +553 / +687
        assert foot > -250.0, (side, foot)                               # measured 0 / -156
        assert out[f"{side}_knee_contact__knee_bolster.normal_force"][k] == 0.0
        push = (out[f"knee_airbag_{side}_knee_contact.force"][k]
                + out[f"knee_airbag_{side}_shank_shell.force"][k])
        area = (out[f"knee_airbag_{side}_knee_contact.area"][k]
                + out[f"knee_airbag_{side}_shank_shell.area"][k])
        assert push == pytest.approx(out["knee_airbag.gauge_pressure"][k] * area, rel=1e-6)


def test_reference_us_ncap_knee_airbag_femur_loads_near_nhtsa_11391(ncap):
    """The US NCAP driver's femur compression peaks from the knee bag between -1.3 and -0.8 kN,
    near NHTSA 11391's -1.13 / -1.49 kN at 30-45 ms (pyisomme docs on NHTSA's data,
    scenarios/README.md). Measured -1.19 / -0.90 kN at 40 ms since the lap belt is held on the
    pelvis by the belt-body friction (branch lapfriction, restraints.belt.lap_across): the
    pelvis, less held by the lap belt's middle (9.8 -> 4.7 kN), loads the knees more. Before, a
    strict xfail: -0.69 / -0.62 kN at 40 ms along the cells' own axes, the knee bag's push, 43 kPa
    on 0.030 m^2 a leg, less the lower leg's deceleration (+0.55 / +0.69 kN), the feet off the
    toe pan (scenarios/HISTORY.md kneefemur; -0.70 / -0.64 along the femur's axis, markers50m;
    -1.06 / -0.96 kN with the knee sphere's and shank shell's dimples' union, chinlink).
    Re-pinned when the knee sphere and the shank shell (one link, the lower leg) came to share
    its dimple by the lever rule (branch baglever2): -1.30 / -1.01 -> -1.39 / -1.08 kN at 41 /
    39 ms, the one paraboloid holding knee and shin 5 % wider than the depth law's dimple (the
    bag on the left leg 1.97 -> 2.10 kN at 40 ms, 52 kPa), its knee's part 47 -> 43 %, the
    fabric's pull 0.10 kN a body, a couple on the leg. The upper bound, -1.3 kN, was the old
    law's figure with a margin and excluded the test's own right femur (-1.49); each femur is
    now held within the test's two readings, to -1.5 kN, and the two together near the test's
    2.62 kN (2.47, 6 % under; 2.31 before, 12 %)."""
    total = 0.0
    for code in ("11FEMRLE00H3FOZ0", "11FEMRRI00H3FOZ0"):
        fz = np.asarray(next(c for c in ncap.results.channels if c.code == code).values)
        assert -1.5e3 < fz.min() < -0.8e3, (code, fz.min())
        total -= fz.min()
    assert total == pytest.approx(1.13e3 + 1.49e3, rel=0.10)


def _ankle_cells(run):
    """The US NCAP driver's lower tibia cells (occupant.sensors.defaults: read across each
    ankle, the foot's load on the lower leg in the lower leg's J211 axes, Fz < 0 compression,
    the few cm of tibia between the cell and the ankle neglected), each with its reading's split
    by source (occupant.sensors.evaluate.load_cell_sources)."""
    from occupant.sensors.defaults import default_sensors
    from occupant.sensors.evaluate import evaluate, load_cell_sources
    res, model = run.results, run.model
    rate = 1.0 / float(res.t[1] - res.t[0])
    cells = {}
    for side in ("left", "right"):
        cell = next(s for s in default_sensors(model) if s.name == f"{side.title()} lower tibia")
        key = f"{cell.name} force Z"
        fz = next(c for c in evaluate(model, res, [cell], rate=rate) if c.name == key).values
        parts = {k: v[key] for k, v in load_cell_sources(model, res, cell, rate=rate).items()}
        cells[side] = (fz, parts)
    return cells


def test_reference_us_ncap_feet_roll_up_the_toe_board_on_the_free_ankle(ncap):
    """Why the US NCAP driver's tibias carry little at 30 ms (scenarios/HISTORY.md, feetload):
    each foot touches the toe board with its shell's toe and the floor with its heel, and the
    toe slides up the 45 deg board at the carpet's friction limit (0.7 [P]) from 15 ms while the
    ankle, which resists with its 1.5 g friction alone (1.0 N m; the Hybrid III's ankle turns
    freely to its 45 deg dorsiflexion bumper [S: SAE J2949 summary, README]), lets the foot
    pitch up: 10.8 / 12.0 deg of dorsiflexion from 15 to 35 ms (left / right), the heels off the
    floor at 32.4 / 29.0 ms. The ankle cell (the foot's load on the lower leg) peaks early,
    -0.82 / -0.51 kN at 23 ms, and holds -0.64 / -0.22 kN at most from 25 to 35 ms (-0.27 /
    +0.01 kN at 30 ms); NHTSA 11391's tibias read -2.1 to -2.85 kN at 30 ms. With the
    dorsiflexion blocked from 10 deg (a scratch dummy file, not the Hybrid III) the heels stay
    down to 74-77 ms and the cells read -1.11 / -1.31 kN at 30 ms: the foot's free rolling is
    the cause. Why the heel does not hold the foot: the shell's lowest point, its floor contact,
    lies 14.2 / 12.8 mm ahead of the ankle at the start, 84.6 / 84.0 mm below it, and rises as
    the foot pitches up (82.8 / 81.4 mm below at 30 ms), so the floor's push turns the foot toe up
    as the board's does (a heel behind the ankle would resist; a scratch heel sphere there gave
    -2.2 / -2.0 kN at 23-25 ms). Bounds measured on main 76f1358's run; the heels' lift
    re-measured with the lap belt held on the pelvis by friction (branch lapfriction): 32.4 /
    29.0 -> 39.3 / 31.1 ms, bound 36 -> 42 ms (the pelvis, less held by the lap belt, pushes the
    thighs and knees forward harder, femurs -0.69 / -0.62 -> -1.19 / -0.90 kN, and the left heel
    stays down longer), the dorsiflexion 10.8 / 12.0 -> 12.2 / 13.5 deg, the ankle cells' early
    peak -815 / -506 -> -932 / -599 N, from 25 to 35 ms -642 / -221 -> -952 / -429 N at most
    (bound -800 -> -1100 N), -0.62 / -0.11 kN at 30 ms (-0.27 / +0.01 before; the test's -2.1 to
    -2.85 kN).
    Since the foot is a heel and a forefoot (branch heelfoot, task footsplit: dummies/tools/
    derive_hybrid3.py HEEL_CENTER; scenarios/HISTORY.md), its floor contact is the heel's lowest
    point and the forefoot (the foot_shell) meets the toe board; re-measured on main ebfdf79 merged
    (heelmerge), main's reference run -> the merge, no bound changed: floor contact 14.2 / 12.8 (76f1358)
    -> 10.7 / 11.8 mm ahead of the ankle at the start (the Hybrid III's heel lies under the ankle at
    this foot angle), rising 1.7 / 3.3 mm by 30 ms; dorsiflexion 15-35 ms 12.2 / 13.5 -> 11.2 /
    12.1 deg; heels off the floor 39.1 / 31.1 -> 37.4 / 28.1 ms; early cell -933 / -598 -> -1000 /
    -456 N; 25-35 ms -951 / -430 -> -933 / -153 N; -0.61 / -0.11 -> -0.58 / +0.06 kN at 30 ms; the
    forefoot never on the floor. Re-measured with both heels starting on the floor (branch
    heeltarget: the right was 5.5 mm above it, the left 1.6 mm in; main a8232fa's run -> the
    branch's, no bound changed): floor contact 10.7 / 11.8 -> 10.8 / 12.1 mm ahead of the ankle,
    rising 1.8 / 3.4 mm by 30 ms; dorsiflexion 11.2 / 12.1 -> 11.2 / 11.9 deg; heels off 37.4 /
    28.1 -> 36.9 / 27.8 ms; early cell -1000 / -456 -> -1004 / -445 N; 25-35 ms -933 / -153 ->
    -935 / -120 N; -0.58 / +0.06 -> -0.50 / +0.06 kN at 30 ms. Re-measured with the heels placed
    by their lowest points (branch sideheels: driver_seated's heel_bottom targets, the scenario's
    own targets gone; main 9e54fda's run -> the branch's, no bound changed): floor contact 10.8 /
    12.1 -> 10.7 / 12.2 mm ahead of the ankle, rising 1.7 / 3.4 mm by 30 ms; dorsiflexion 11.2 /
    11.9 -> 11.0 / 11.9 deg; heels off 36.9 / 27.8 -> 37.5 / 27.6 ms; early cell -1004 / -445 ->
    -1029 / -430 N; 25-35 ms -935 / -120 -> -986 / -108 N; -0.50 / +0.06 -> -0.61 / +0.06 kN at 30
    ms. The heels' lift re-measured when the knee bag's dimple came to be shared by the lever
    rule over the knee sphere and the shank shell (branch baglever2; main 25816b95's own run,
    where the left heel already lifted at 41.5 ms, not 37.5, -> the branch's): 41.5 / 30.2 ->
    42.6 / 30.2 ms, the bag pushing the left leg harder as its knee bag loads it (1.97 -> 2.10
    kN at 40 ms, the heel's floor force then 54 -> 75 N): bound 42 -> 45 ms, the lift still
    after the toe's slide up the board (to 33 ms) and before the foot's rebound onto it (48 ms);
    nothing at 30 ms moved (dorsiflexion, cells)."""
    res, model = ncap.results, ncap.model
    out, t = res.outputs, res.t
    at = lambda ms: int(np.argmin(np.abs(t - ms / 1e3)))
    to_b0 = np.linalg.inv(res.base_poses)
    for side in ("left", "right"):
        geo = next(g for g in model.geometries if g.name == f"{side}_heel")      # the floor contact
        mk = model.marker(geo.marker)
        c, R, a = model.marker_p[mk], model.marker_R[mk], np.asarray(geo.semi_axes)
        pose = to_b0 @ res.body_poses[:, res.body_names.index(f"{side}_foot")]
        lowest = []
        for k in (at(0), at(30)):
            rb = pose[k, :3, :3]                       # the foot's origin is the ankle's centre
            e = R.T @ (rb.T @ np.array([0.0, 0.0, -1.0]))
            lowest.append(rb @ (c + R @ (a ** 2 * e / np.sqrt(np.sum(a ** 2 * e ** 2)))))
        assert lowest[0][0] > 0.008, (side, lowest[0])             # measured +10.7 / +12.2 mm
        assert lowest[1][2] > lowest[0][2] + 0.001, (side, lowest)  # rises 1.7 / 3.4 mm
    for side, (fz, parts) in _ankle_cells(ncap).items():
        k = at(30)
        assert sum(v[k] for v in parts.values()) == pytest.approx(fz[k], abs=1e-6)
        normal = out[f"{side}_foot_shell__toe_pan.normal_force"]
        friction = out[f"{side}_foot_shell__toe_pan.friction_force"]
        sliding = (t >= 0.015) & (t <= 0.033) & (normal > 100.0)
        assert sliding.sum() > 50
        assert np.allclose(friction[sliding] / normal[sliding], 0.7, atol=0.005), side
        moment = out[f"{side}_ankle_y.load"][(t > 0.012) & (t < 0.045)]
        assert np.abs(moment).max() < 1.05, side                      # measured 1.00 N m
        turn = np.degrees(out[f"{side}_ankle_y.deflection"][at(15)] - out[f"{side}_ankle_y.deflection"][at(35)])
        assert turn > 8.0, (side, turn)                                # measured 11.0 / 11.9 deg
        assert out[f"{side}_foot_shell__floor.normal_force"].max() == 0.0, side   # the heel's floor
        floor = out[f"{side}_heel__floor.normal_force"]
        heel_off = t[(t > 0.02) & (floor == 0.0)][0]
        assert 0.025 < heel_off < 0.045, (side, heel_off)              # measured 42.6 / 30.2 ms
        early = (t >= 0.015) & (t <= 0.025)
        assert fz[early].min() < -400.0, side                          # measured -1029 / -430 N
        late = (t >= 0.025) & (t <= 0.035)
        assert fz[late].min() > -1250.0, (side, fz[late].min())        # measured -1122 / -231 N
        # (-973 / -174 N, bound -1100, before the pairs pressed in at t0 started on their
        # loading history, branch settlez: early peak -1008 / -450 -> -1145 / -603 N)


def _us_ncap_ankle_stops(res):
    """What the 50M's ankle stops do in a US NCAP run (scenarios/HISTORY.md, ankle50), from its
    joint outputs alone: per side, the pitch (y) range (deg), the pitch moment's largest size
    (N m), the inversion/eversion (x) range (deg), and the x moment's peak (N m) and its time."""
    out, t = res.outputs, res.t
    facts = {}
    for side in ("left", "right"):
        qy = np.degrees(out[f"{side}_ankle_y.deflection"])
        qx = np.degrees(out[f"{side}_ankle_x.deflection"])
        mx = np.abs(out[f"{side}_ankle_x.load"])
        facts[side] = dict(y=(qy.min(), qy.max()), my=np.abs(out[f"{side}_ankle_y.load"]).max(),
                           x=(qx.min(), qx.max()), mx=mx.max(), mx_t=t[mx.argmax()])
    return facts


def _us_ncap_ankles_stay_off_their_pitch_stops_and_the_left_sits_on_its_x_stop(res):
    """The assertions of the test below, on any US NCAP run's results."""
    facts = _us_ncap_ankle_stops(res)
    for side, f in facts.items():
        assert -20.0 < f["y"][0] and f["y"][1] < 20.0, (side, f["y"])  # -10.7..12.5 / -5.9..11.4
        assert f["my"] < 1.05, (side, f["my"])                          # measured 1.00 N m
    left, right = facts["left"], facts["right"]
    assert 23.5 < left["x"][1] < 28.6, left["x"]                      # measured 25.1 deg
    assert left["mx"] > 120.0 and 0.064 < left["mx_t"] < 0.072, left  # 192 N m at 68.2 ms
    assert right["x"][1] < 22.9 and right["mx"] < 1.05, right         # 21.6 deg, friction only
    return facts


def test_reference_us_ncap_ankles_stay_off_their_pitch_stops(ncap):
    """Does the 50M's ankle snap on a pitch stop, as the 5F's did in Euro NCAP (scenarios/
    HISTORY.md, ankle5f, ankle50)? Not in US NCAP: each ankle turns within -10.7..+12.5 /
    -5.9..+11.4 deg (left / right; 12.5 / 11.4 deg of plantar flexion settled), far from its
    +-45 deg stops, and its pitch moment never exceeds the 1.5 g limb friction (1.00 N m). What acts is the inversion/eversion law, his open FE deck's
    (dummies/tools/derive_hybrid3.py ANKLE_50M_RZ_DECK, branch ankle50: free to 22.9 deg, then
    5000 N m/rad): the left foot rolls to 25.1 deg and the law's moment peaks at 192 N m at 68.2
    ms, as the left lower tibia cell's compression peaks (-4.06 kN at 67.7 ms unfiltered, -4.07
    kN CFC 600); the right rolls to 21.6 deg, inside the free zone. With main's [E] +-15 deg x
    stop (quadratic) the left foot stopped at 18.5 deg, 111 N m at 67.0 ms, and the cell read
    -6.09 kN (main 7524893; that fails here); with no x stop before 45 deg (a scratch file) the
    foot rolled to 45.3 deg and the cell read -3.85 kN (main 1ab4114)."""
    facts = _us_ncap_ankles_stay_off_their_pitch_stops_and_the_left_sits_on_its_x_stop(ncap.results)
    fz, _ = _ankle_cells(ncap)["left"]
    t = ncap.results.t
    assert abs(t[np.argmin(fz)] - facts["left"]["mx_t"]) < 0.002      # 67.7 / 68.2 ms (unfiltered)


def test_reference_us_ncap_right_forefoot_rests_on_the_toe_board(ncap):
    """The interior has no accelerator pedal (vehicles/midsize_sedan_driver.toml, toe_pan): the
    settled 50M's right forefoot already rests on the 45 deg toe board at the pulse's start (16 N
    measured, c806109), the posture's ball target 13 mm off the board, so the board stands for
    the pedal on its stop. A pedal added in front of it with an accelerator's travel (15 mm at
    50 N [E]) left the right ankle cell at +0.05 kN at 30 ms and the right femur at 0.91 kN; the
    same pad stiff at 55 deg, or the board itself at 50-60 deg, held the foot (scenarios/
    HISTORY.md, `pedal`)."""
    out = ncap.results.outputs
    assert out["right_foot_shell__toe_pan.normal_force"][0] > 5.0      # measured 16 N


@pytest.mark.xfail(strict=True, reason="issue 11: the ankle cells read -0.61 / +0.06 kN at 30 ms "
                   "(left / right; -0.50 / +0.06 with the scenario's own heel targets, heeltarget, "
                   "before the posture placed the heels by their lowest points, sideheels; -0.58 / "
                   "+0.06 before both heels started on the floor, heeltarget; -0.61 / -0.11 with the one foot shell, main ebfdf79; -0.27 / "
                   "+0.01 before the lap belt was held by friction, lapfriction): the feet roll up "
                   "the toe board on the free ankle and the heels leave the floor at 28-37 ms: the "
                   "Hybrid III heel's floor contact lies 11-12 mm ahead of the ankle at the settled "
                   "foot angle (heelfoot, footsplit: the heel fitted to the open FE 95M foot); with the "
                   "dorsiflexion blocked (scratch) -1.11 / -1.31 kN, with a scratch [E] heel -0.46 / "
                   "-0.69 kN at 30 ms after -2.2 / -2.0 kN at 23-25 ms (scenarios/HISTORY.md, feetload); both "
                   "contacts of each foot slide at the carpet's 0.7 from 15 ms and the knee bag pushes "
                   "across the shins (tibia30: the heel's grip 1.0 on the floor, scratch, gives -1.56 / "
                   "-0.75 kN)")
def test_reference_us_ncap_tibias_near_nhtsa_11391_at_30_ms(ncap):
    """The US NCAP driver's lower tibias (the ankle cells of
    test_reference_us_ncap_feet_roll_up_the_toe_board_on_the_free_ankle) carry -1.8 to -3.0 kN
    at 30 ms, about NHTSA 11391's -2.1 to -2.85 kN (pyisomme docs on NHTSA's data,
    scenarios/README.md)."""
    t = ncap.results.t
    k = int(np.argmin(np.abs(t - 0.030)))
    for side, (fz, _) in _ankle_cells(ncap).items():
        assert -3.0e3 < fz[k] < -1.8e3, (side, fz[k])


def _us_ncap_feet_slide_and_the_knee_bag_pushes_across_the_shins(run):
    """The assertions of the test below, on any US NCAP run (scenarios/HISTORY.md, tibia30)."""
    res = run.results
    out, t = res.outputs, res.t
    at = lambda ms: int(np.argmin(np.abs(t - ms / 1e3)))
    to_b0 = np.linalg.inv(res.base_poses)
    bag = np.asarray(run.scenario["restraints"]["knee_airbag"]["direction"], float)
    bag /= np.linalg.norm(bag)
    pose = lambda body: np.einsum("nij,njk->nik", to_b0, res.body_poses[:, res.body_names.index(body)])
    cells = _ankle_cells(run)
    for side in ("left", "right"):
        normal = out[f"{side}_heel__floor.normal_force"]
        friction = out[f"{side}_heel__floor.friction_force"]
        sliding = (t >= 0.015) & (t <= 0.030) & (normal > 100.0)
        assert sliding.sum() > 20, side                                  # measured 151 / 93 samples
        assert np.allclose(friction[sliding] / normal[sliding], 0.7, atol=0.005), side
        ankle = pose(f"{side}_foot")[:, :3, 3]
        assert ankle[at(30), 0] - ankle[at(0), 0] > 0.020, side         # measured 29 / 40 mm
        knee = pose(f"{side}_lower_leg")[:, :3, 3]
        axis = (ankle - knee) / np.linalg.norm(ankle - knee, axis=1)[:, None]
        for ms in (30, 35, 40):
            along = float(bag @ axis[at(ms)])
            assert -0.5 < along < 0.0, (side, ms, along)     # measured -0.35 to -0.46: across it
        fz, _ = cells[side]
        assert fz[at(30)] > -1.0e3, (side, fz[at(30)])                   # measured -0.61 / +0.06 kN


def test_reference_us_ncap_feet_slide_on_the_carpet_and_the_knee_bag_pushes_across_the_shins(ncap):
    """Why the US NCAP lower tibias carry -0.61 / +0.06 kN at 30 ms (-0.50 / +0.06 with the
    scenario's own heel targets, heeltarget, before the posture's heel_bottom targets, sideheels;
    -0.58 / +0.06 before both heels started on the floor; the rest of the figures here as measured
    then and again there, within 0.01 and 1 mm, the heel's sliding samples 151 / 93) against NHTSA 11391's -1.65 /
    -2.84 (lower) and -2.20 / -2.26 kN (upper) (scenarios/HISTORY.md, tibia30): from 15 ms both of
    each foot's contacts slide at the carpet's friction limit (0.7 [P]), the heel forward along
    the floor as the forefoot up the toe pan (test_reference_us_ncap_feet_roll_up_the_toe_board_
    on_the_free_ankle), the ankles 29 / 40 mm forward of where they started by 30 ms (left /
    right), so the foot passes on only what the sliding lets through; and the knee bag, from 27
    ms, pushes each leg mostly across its tibia (its axis's cosine with the knee-to-ankle line
    -0.35 to -0.45 at 30-40 ms, pulling the knee away from the ankle, not pressing the shin onto the foot). With
    the carpet's friction 1.0 (a scratch sensitivity, unsourced) the feet stay put (ankles 4-6 mm)
    and this fails: the friction is what lets the feet go."""
    _us_ncap_feet_slide_and_the_knee_bag_pushes_across_the_shins(ncap)


def _heels_on_the_floor_settled(run):
    """Each heel's push on the floor (N) at the run's start, after the settling."""
    out = run.results.outputs
    return {side: float(out[f"{side}_heel__floor.normal_force"][0]) for side in ("left", "right")}


def test_reference_us_ncap_heels_stay_on_the_floor_through_the_settling(ncap):
    """The heels placed on the floor (driver_seated's heel_bottom targets, scenarios/HISTORY.md
    sideheels; the scenario's own heel targets before, heeltarget)
    are still on it when the pulse starts, after the 0.3 s settling: a target met at placement
    can be lost in the settling (tibia30: heels placed in the floor / toe-board corner or on a
    lowered floor hung 35-43 mm above it, settled). Each bears more than 50 N (measured 156 / 98
    N, left / right, with driver_seated's heel_bottom targets, sideheels; 154 / 104 N with the
    scenario's own targets, heeltarget; 181 / 112 N with driver_seated's former heights, the right
    heel settling onto the floor from 5.5 mm above it)."""
    for side, force in _heels_on_the_floor_settled(ncap).items():
        assert force > 50.0, (side, force)


def test_regression_seat_foam_springs_back(ncap):
    """The seat cushion's foam recovers (vehicles/midsize_sedan_driver.toml: polyurethane seat
    foam loses 21-40 % of a slow cycle's work, 45 % of an impact's, and regains its height): after
    the pulse the 50M's pelvis, pulled 0.090 m into the cushion by the lap belt at 60 ms, is
    followed up by the foam, which pushes it with more than 0.1 kN wherever it is still more than
    10 mm in, until the pelvis rises off it in the rebound (148 ms; the driver bag's dimple, the
    default law, pushes the torso back harder than the lens did, which left the pelvis 12 mm in
    with 0.15 kN at 150 ms). The straight line to a permanent set it had (absorption 0.6) left
    the pelvis 79 mm deep with no force at all."""
    out = ncap.results.outputs
    force = out["pelvis_flesh__seat_cushion.normal_force"]
    depth = out["pelvis_flesh__seat_cushion.penetration"]
    assert depth.max() > 0.085   # deep in the foam, so that the recovery below means something
    after = np.arange(depth.size) > np.argmax(depth)
    assert force[after & (depth > 0.010)].min() > 100.0   # measured 112 N (lens: 148 N)
    assert depth[-1] < 0.6 * depth.max()


@pytest.mark.parametrize("which", ["ncap", "full_width"])
def test_regression_driver_feet_stay_under_the_dashboard(request, which):
    """The drivers' feet and shins stay in the footwell: every foot and shank shell centre under
    the lower dashboard's underside stays on its cabin side (footwell_top of
    vehicles/midsize_sedan_driver.toml). Without that surface the 50M's right foot, swinging up
    after the pulse, went on into the dashboard: 0.24 m above the H-point and 0.17 m behind the
    closeout at 150 ms; with it the foot is stopped under it (1.2 kN at 90 ms when it was added;
    on main e160d8f 136 N at 139 ms; none since the closeout is level, branch footwelltop; the
    5F's right foot 1.44 kN at 93 ms)."""
    run = request.getfixturevalue(which)
    res, asm = run.results, run.model.source
    top = next(x for x in load_interior("midsize_sedan_driver").surfaces if x.name == "footwell_top")
    point, normal = np.asarray(top.point), np.asarray(top.normal)
    to_b0 = np.linalg.inv(res.base_poses)
    for name in ("left_foot_shell", "right_foot_shell", "left_shank_shell", "right_shank_shell"):
        marker = asm.markers[asm.geometries[name].marker]
        pose = np.einsum("nij,njk->nik", to_b0, res.body_poses[:, res.body_names.index(marker.part)])
        centre = pose[:, :3, :3] @ np.asarray(marker.position) + pose[:, :3, 3]
        under = np.abs((centre - point) @ np.asarray(top.x_axis)) <= top.half_size[0]
        assert ((centre - point) @ normal)[under].min(initial=1.0) > 0.0, name


@pytest.mark.parametrize("which, low", [("ncap", 1000.0), ("full_width", 330.0)])
def test_regression_driver_left_foot_starts_on_the_toe_board(request, which, low):
    """The belted drivers' left feet start on the toe board (dummies/postures/driver_seated.toml,
    FMVSS 208's placement [U]) and are pressed into it by the leg at the pulse's peak: the 50M's
    lower leg and foot (5.5 kg) at the 52 g peak is 2.8 kN, with a share of the thigh's load
    through the knee 3-5 kN [E] (NHTSA 11391's driver: 1.9-3.0 kN at the tibias, scenarios/
    README.md); the 5F's (4.06 kg, dummies/hybrid3_05f.toml [C]) at her 37.5 g peak 1.5 kN, of
    which the foot takes at least its own 0.33 kN [E]. Before, the left foot rested on its heel
    with the ball 79 mm short of the toe pan (71 and 95 mm gaps at t = 0), slid forward and
    struck it: 6.8 kN on the 50M (US NCAP) and 4.6 kN on the 5F (Euro NCAP). Placed on the toe
    board but not settled, the feet touched it unloaded and the 5F's slid 0.13 m up it before
    striking it at 70 ms: 4.0 kN (50M) and 1.8 kN (5F). Settled (occupant.settle) they start
    pressed on it (0.5 and 0.2 mm in) and are loaded progressively: measured 3.6 kN at 58 ms on
    the 50M, 0.87 kN at 51 ms on the 5F (the dimple law, the driver bag punched out; under the lens
    law 2.8 kN at 61 ms and 0.78 kN at 49 ms, 0.5-0.7 kN from 50 to 80 ms)."""
    run = request.getfixturevalue(which)
    out = run.results.outputs
    toe = out["left_foot_shell__toe_pan.penetration"]
    assert -0.005 < toe[0] < 0.005                        # touching at the start, not 79 mm short
    assert low < out["left_foot_shell__toe_pan.normal_force"].max() < 5000


def test_reference_us_ncap_upper_neck_holds_the_head_forward_against_the_bag(ncap):
    """The upper-neck cell of the US NCAP driver (issue 11) reads NHTSA 11391's kind of load: the
    bag's dimple (the default law, occupant.restraints.airbag_dimple) holds the head with up to
    3.5 kN (3.8 before the hands held the rim, dummies/body_contacts.toml; the test's head-frame
    balance puts 3.3-3.5 kN on its face) and the neck holds the head forward against it, +Fx as
    the test's +1.05 kN at 78 ms (here +1.00 kN at 80 ms, CFC 600, with the chin in the bag,
    `chinlink`; 0.86, 0.81 and 0.85 before), its tension peaking at 76 ms (1.10 kN; 1.32 kN at
    79 ms before `chinlink`, 1.02 at 77 ms before the lap belt's wrap stood at the dummy's ASIS,
    1.10 before that; the test's 0.70 kN at 75 ms) with the head 7.8 deg nose down
    (test_reference_us_ncap_head_pitched_nose_down_at_the_neck_peak; level before `chinlink`,
    9 deg before the ASIS wrap; 14-19 deg at 70-75 ms by the ratio of its CG's z to x
    acceleration, the test's 15-25): the neck pulls the head down and forward in the vehicle,
    not back (down 1.23, forward 0.77 kN; 1.31 and 0.11 before `chinlink`).
    With the lens law (the body's cross-section, 1.3 kN at most on the head) the belted torso
    pulled the head rearward through the neck (1.4 kN rearward, 0.5 kN down, Fx -0.61 kN) in a
    head pitched 45 deg, the head 259 mm into the 333 mm deep bag. The cell is right: the load
    it reports in the head's J211 axes (tension +, the load of the neck on the head, 17.78 mm
    above the occipital condyle) closes the head's equation of motion with the head-CG
    accelerometer, m (a - g) - F_neck = the bag's load on the head (its normal force and fabric
    friction), to rounding all through the bag contact, and is m (a - g) alone before it (no
    other load on the head); the neck's load taken in the vehicle's axes instead would miss it
    by up to 150 %.
    Since the head link's dimple is shared by the lever rule (branch baglever2) both pairs push
    together throughout the contact (56.8 ms; no sample with one alone, where the check above
    was exact), and the bridging fabric pulls each across the bag's axis toward the dimple's
    apex (``pull_x/y/z``, up to 255 N a pair): the two pulls on the one head sum to nothing
    (1.5e-10 N), a couple, so the head's force balance is the two pushes and their friction,
    whose sum the neck cell's rest stays within 0.8 % of (0.992-0.9993 of it: the shell's and
    the chin's normals a few degrees apart), never above it. Measured: the bag on the head
    shell up to 3.02 kN (3.37 before), the upper neck's tension peak 0.93 kN at 77.4 ms (1.18),
    down 1.04 and forward 0.26 kN in the vehicle, Fx up to +0.82 kN (+0.68)."""
    res, model = ncap.results, ncap.model
    t = res.t
    ch = {c.name: np.interp(t, c.t, c.values) for c in res.channels}
    acc = np.stack([ch[f"Head CG acceleration {ax}"] for ax in "XYZ"], axis=1)
    neck = np.stack([ch[f"Upper neck force {ax}"] for ax in "XYZ"], axis=1)
    head = model.body("head")
    rest = np.linalg.norm(model.body_mass[head] * acc - neck, axis=1)
    out = res.outputs
    # the head link's two pairs (head shell and chin) press one dimple (airbag_dimple): the
    # outputs give each one's push and friction as sizes, its lateral pull as a vector (B0)
    loads = [np.hypot(out[f"driver_airbag_{g}.force"], out[f"driver_airbag_{g}.friction_force"])
             for g in ("head_shell", "chin")]
    pulls = [np.stack([out[f"driver_airbag_{g}.pull_{a}"] for a in "xyz"], axis=1)
             for g in ("head_shell", "chin")]
    largest = np.maximum(*(np.linalg.norm(p, axis=1) for p in pulls))
    assert largest.max() > 100.0                                         # 255 N
    assert np.all(np.linalg.norm(pulls[0] + pulls[1], axis=1) <= 1e-9 * largest.max())
    bag = loads[0] + loads[1]
    both = bag > 200.0
    assert both.sum() * (t[1] - t[0]) > 0.03                    # 30 ms or more on the bag
    assert np.all(rest[both] <= bag[both] * (1 + 1e-9))
    assert np.all(rest[both] >= np.abs(loads[0] - loads[1])[both] * (1 - 1e-9))
    assert np.all(rest[both] >= 0.99 * bag[both])                # 0.992 at least
    first = np.argmax(bag > 0.0)
    assert 0 < first and rest[:first].max() < 1e-6
    assert 3.0e3 < out["driver_airbag_head_shell.force"].max() < 5.0e3   # measured 3.02 kN (3.37)
    k, R = _head_at_neck_tension_peak(ncap, neck)
    assert 0.070 < t[k] < 0.080 and neck[k, 0] > 0.0       # 77.4 ms, +0.63 kN (76.4, +0.94)
    pull = R @ (neck[k] * np.array([1.0, -1.0, -1.0]))                 # J211 -> segment axes
    assert pull[2] < -abs(pull[0]) and pull[0] > 0.0        # down 1.04, x +0.26 kN (1.23, 0.77)


def _head_at_neck_tension_peak(run, neck):
    """(sample, the head's axes in the vehicle's) at the upper neck's tension peak; ``neck`` the
    upper-neck force channels (J211, N) on the run's time grid."""
    res = run.results
    k = int(np.argmax(neck[:, 2]))
    head = run.model.body("head")
    return k, res.base_poses[k, :3, :3].T @ res.body_poses[k, head, :3, :3]


def test_reference_us_ncap_head_pitched_nose_down_at_the_neck_peak(ncap):
    """At the upper neck's tension peak the US NCAP driver's head is pitched nose down, as
    NHTSA 11391's was (15-25 deg at 70-75 ms by the ratio of its CG's z to x acceleration):
    between 0 and 25 deg. Measured 7.8 deg at 76 ms with the chin in the bag (`chinlink`); level
    (-0.1 deg) without it once the lap belt's wrap crown stood at the Hybrid III's ASIS
    (`hiiipelvis`), 8.8 deg before that (scenarios/HISTORY.md, hiiipelvis)."""
    t = ncap.results.t
    neck = np.stack([np.interp(t, c.t, c.values) for ax in "XYZ" for c in ncap.results.channels
                     if c.name == f"Upper neck force {ax}"], axis=1)
    R = _head_at_neck_tension_peak(ncap, neck)[1]
    pitch = np.degrees(np.arctan2(-R[2, 0], R[0, 0]))                   # nose down positive
    assert 0.0 < pitch < 25.0                                           # 7.8 deg (-0.1, 8.8)


@pytest.fixture(scope="module")
def belted():
    return load("fmvss208_sled_48_belted").run()


# How far one outer shell may lie inside another it meets [E]: a graze, the skins pressed
SHELL_GRAZE = 0.005     # m


# What lies between the Hybrid III's skull and its chest's rigid parts where the chin meets the
# chest: the head skin under the chin, 10.1-11.9 mm, and the jacket's foam over the upper
# sternum, 25.9-29.5 mm [S: the open FE Hybrid III 5th, OpenRadioss ModelExchange (CC BY-NC,
# facts only); the thinnest of each, as dummies/body_contacts.toml's chin_chest law takes them]
CHIN_PADDING = 0.036    # m
# what the foam keeps when pressed flat [E: about a fifth of its 26 mm]
FOAM_BOTTOMED = 0.005   # m


def test_reference_belted_sled_chin_stays_off_the_chests_rigid_parts(belted):
    """The belted passenger's head, flexing forward over the held chest, stops on it before the
    skull meets the chest's rigid parts: no chin-chest pair of dummies/body_contacts.toml (the
    chin on the sternum's jacket and on the upper chest, the head shell on the chest) presses
    deeper than CHIN_PADDING less FOAM_BOTTOMED. The bound is the padding, derived, not a graze:
    the shells are the skin's and the jacket's outer surfaces (the chin the open 95M head shell's,
    dummies/hybrid3_50m.toml), so a chin pressing the padding flat lies that deep inside them.
    Before the chin, the head shell lay 14 mm inside the chest shell, and the open 95M head
    shell's own chin, carried by that head, 44 mm (scenarios/HISTORY.md, branch chinpad)."""
    out = belted.results.outputs
    pairs = ("chin__sternum_pad", "chin__thorax", "head_shell__thorax")
    deepest = {p: float(np.max(out[f"{p}.penetration"])) for p in pairs}    # 22, 19, 0.5 mm
    assert max(deepest.values()) < CHIN_PADDING - FOAM_BOTTOMED, deepest


# FMVSS 210 (49 CFR 571.210) S4.3.1.1(a): in side view, a line from the seating reference point
# to the belt's nearest contact point with the lap belt anchorage extends forward from it at 30-75
# deg to the horizontal (as NHTSA's 1995 letter to Busick quotes it, nhtsa.gov/interpretations/
# 10694) [C]
FMVSS210_LAP_ANGLE = (30.0, 75.0)     # deg


@pytest.mark.parametrize("which", ["belted", "ncap", "full_width"])
def test_reference_lap_belt_anchorages_meet_fmvss210(request, which):
    """The belted frontal scenarios' buckle and lap anchor, seen from the side from the seated
    dummy's H-point at t = 0 (the seating reference point it stands for), lie behind and below it
    at FMVSS210_LAP_ANGLE (49.5-53.4 deg measured, scenarios/README.md, 'Where the lap belt bears
    on the dummy's pelvis')."""
    run = request.getfixturevalue(which)
    res, out = run.results, run.results.outputs
    H = res.base_poses[0, :3, :3].T @ (res.body_poses[0, run.model.body("pelvis"), :3, 3]
                                       - res.base_poses[0, :3, 3])
    for point in ("buckle", "lap_anchor"):
        d = np.array([out[f"belt.{point}.{a}"][0] for a in "xyz"]) - H
        angle = np.degrees(np.arctan2(-d[2], -d[0]))
        assert FMVSS210_LAP_ANGLE[0] < angle < FMVSS210_LAP_ANGLE[1], (point, angle)


# The Hybrid III 50th's anterior superior iliac spines in its pelvis frame (origin the H-point), m:
# the pelvis bone's anterior-superior corners, 8.9 mm ahead, 108.4 mm either side and 108.8 mm
# above [S: the open FE Hybrid III 50th, OpenRadioss ModelExchange (SISW 2026, CC BY-NC 4.0),
# part H350_PART_LOW_TORSO_PELVIS_BONE_RG, node 15000280, from the H-point nodes 15040160/4]
HYBRID3_50M_ASIS = (0.0089, 0.1084, 0.1088)
# The Hybrid III 5th female's, likewise: 4.7 mm ahead, 98.3 mm either side and 76.2 mm above
# [S: the open FE Hybrid III 5th, the same source, Hybrid_III_05TH_0000.rad, part
# H305_PART_PELVIS_BONE_RGBD, node 15004103 (the corner's node on the wing's outer face 15004104
# at 2.1, 107.9, 74.1 mm), from the H-point node 15003990 in the axes of its /HPOINT skew
# 15000031 (x forward 9.8 deg above the deck's), scenarios/HISTORY.md 'The 5th female's lap belt
# under her own iliac spines']
HYBRID3_05F_ASIS = (0.0047, 0.0983, 0.0762)
ASIS = {"fmvss208_sled_48_belted": HYBRID3_50M_ASIS, "euro_ncap_full_width_50": HYBRID3_05F_ASIS}


@pytest.mark.parametrize("scenario", sorted(ASIS))
def test_reference_lap_belt_pelvis_crown_at_the_hybrid3_asis(scenario):
    """The Hybrid III's lap belt wraps an ellipsoid (lap_belt_pelvis) on its pelvis whose crown
    stands at the height of the dummy's own ASIS (ASIS, within 0.1 mm; the 5F's from her file's
    left_asis marker, no longer the 50M's scaled by her pelvis flesh, 96.9 mm), the ASIS
    themselves outside it: the belt can lie on the front of the pelvis up to the ASIS, not above."""
    asm = load(scenario).model.source
    shape = asm.geometries["lap_belt_pelvis"]
    frame = asm.markers[shape.marker]
    assert frame.part == "pelvis" and np.allclose(frame.rotation, np.eye(3))
    assert frame.position[1] == 0.0
    assert frame.position[2] + shape.semi_axes[2] == pytest.approx(ASIS[scenario][2], abs=1e-4)
    x, y, z = ASIS[scenario]
    for side in (1.0, -1.0):
        r = (np.array([x, side * y, z]) - np.asarray(frame.position)) / np.asarray(shape.semi_axes)
        assert r @ r > 1.0


@pytest.mark.parametrize("own", [True, False])
def test_reference_lap_belt_pelvis_crown_at_the_own_or_the_50m_scaled_asis(own):
    """The ASIS lives in the dummy files only: lap_belt_pelvis puts its crown at the occupant's
    own left_asis height (the 95M's, the 50M's scaled in its file by the 95M/50M length ratio:
    116.7 mm) and sizes it by that height over the 50M's, and without one (the parametric human)
    at the 50M file's marker (reference_asis, HYBRID3_50M_ASIS) scaled by the pelvis flesh's
    depth over LAP_BELT_PELVIS's 0.165 m (its half-extents' 0.177: 116.71 mm; its shell fit's
    0.1471, derive_hybrid3.py PELVIS_FROM_SHELL, would give 97.0)."""
    from occupant.human import load_dummy
    from occupant.scenario.restraints import LAP_BELT_PELVIS, lap_belt_pelvis, reference_asis
    assert reference_asis() == HYBRID3_50M_ASIS
    asm = load_dummy("hybrid3_95m").source
    if not own:
        del asm.markers["left_asis"]
    shape = asm.geometries[lap_belt_pelvis(asm, None, "restraints.belt")]
    frame = asm.markers[shape.marker]
    depth = asm.geometries["pelvis_flesh"].semi_axes[0]
    scale = 0.1167 / HYBRID3_50M_ASIS[2] if own else depth / LAP_BELT_PELVIS["flesh_depth"]
    expected = 0.1167 if own else scale * HYBRID3_50M_ASIS[2]
    assert frame.part == "pelvis"
    assert frame.position[2] + shape.semi_axes[2] == pytest.approx(expected, abs=1e-9)
    assert np.allclose(shape.semi_axes, scale * np.asarray(LAP_BELT_PELVIS["semi_axes"]), atol=1e-12)


@pytest.mark.parametrize("which", ["belted", "ncap", "full_width"])
def test_reference_lap_belt_stays_below_the_asis(request, which):
    """Over the whole run the lap belt's three wraps on the pelvis lie below the height of the
    dummy's own ASIS in the pelvis frame (HYBRID3_50M_ASIS, HYBRID3_05F_ASIS) and ahead of the
    ASIS: the belt stays on the front of the pelvis. Measured 46-94 mm above the H-point for the
    50M, 22-46 mm for the 5F, 30 mm below her ASIS (17-46, 30 below, before her own pelvis flesh
    and thigh shells and her seat fitted to them, branch fivefflesh; 36-59 mm, 17 below, before her own lap belt
    pelvis, branch hiii5fhips) (scenarios/HISTORY.md, 'The lap belt under the
    Hybrid III's iliac spines', 'The 5th female's lap belt under her own iliac spines'; with the
    50M's crown scaled to her the middle wrap rose to 83 mm, 7 mm above her ASIS)."""
    run = request.getfixturevalue(which)
    asis = HYBRID3_05F_ASIS if which == "full_width" else HYBRID3_50M_ASIS
    res, out = run.results, run.results.outputs
    pelvis = run.model.body("pelvis")
    R = np.einsum("nji,njk->nik", res.base_poses[:, :3, :3], res.body_poses[:, pelvis, :3, :3])
    H = np.einsum("nji,nj->ni", res.base_poses[:, :3, :3],
                  res.body_poses[:, pelvis, :3, 3] - res.base_poses[:, :3, 3])
    for point in ("hip_inboard", "lap", "hip_outboard"):
        X = np.stack([out[f"belt.{point}.{a}"] for a in "xyz"], 1)
        local = np.einsum("nji,nj->ni", R, X - H)
        assert local[:, 2].max() < asis[2], point
        assert local[:, 0].min() > asis[0], point


# The pelvis's moments about the hips (tests/conftest.py pelvis_moments), N m, top forward
# positive, as measured (branch lumbarstop; branch bodycontacts, with the occupant's own pairs,
# dummies/body_contacts.toml: the hands on the rim moved US NCAP's, re-measured, and the 5F's
# within the tolerances, left; branch pretlock, the locked spool keeping the pretensioner's stall
# tension, both re-measured, same tolerances: it moved them by 4 N m at most; branch
# hiiipelvis, the lap belt's wrap with its crown at the Hybrid III's ASIS, re-measured: the lap
# belt's term changed sign, +210..+254 -> -137..-242 N m on the 50M; branch hiii5fpelvis, the 5F's
# crown at her own ASIS, 76.2 mm above her H-point instead of the 50M's scaled to her, 96.9 mm:
# her lap belt's term -57 / -101 -> +13 / +14 N m, its line 13-17 mm above her hips -> 2-4 mm
# below them; branch beltarcs, the belt measured along its path and pulling along its tangent
# pieces, re-measured, same tolerances and bands: it moved them by 20 N m at most, the tilt's
# peaks 8.2 -> 8.3, 6.3 -> 5.8 at 88 -> 85 ms, 18.3 -> 17.5 deg at 71 -> 70 ms; branch hiii5fhips,
# the 5F's own lap belt pelvis, its front on her FE skin (dummies/tools/derive_hybrid3.py
# ELLIPSOIDS_05F) and her hips 163.7 mm apart, her row re-measured (before: lap 21 / 23, seat 173
# / 106, hips -53 / 52, lumbar force -75 / -104, moment -115 / -116, tilt 17.5 deg at 70 ms, the
# lap belt's line 4.0-6.5 mm below her hips, band 0-10 mm below; the hips alone moved every mean
# by 3 N m at most): the belt's wraps 30 mm further back and 10-15 mm lower, its line 0.2-2.9 mm
# above her hips, band 6 mm above to 2 below); branch fivefflesh, the 5F's pelvis flesh and thigh
# shells her own, fitted to her FE skin (dummies/tools/derive_hybrid3.py PELVIS_FLESH_05F,
# THIGH_05F), her seat fitted to them again (vehicles/midsize_sedan_driver_05f.toml: the cushion
# at 6.6 deg, was 0.6), her row re-measured (before, main 4fda862: lap -6 / -9, seat 173 / 135,
# hips -52 / 48, lumbar force -66 / -111, moment -101 / -109, tilt 16.0 deg at 71 ms, the lap
# belt's line 0.1-2.9 mm above her hips): the seat's bearing on her pelvis's ellipsoid, centred
# 26 mm behind her hips instead of 7.5, tips it forward harder (its 60-90 ms mean 135 -> 167 N m;
# 188 with the cushion kept at 0.6 deg), the lap belt's line 0.4-2.6 mm above her hips; branch
# fivefleg, the 5F's femur and shank her own (342.0 / 341.5 mm from the open FE 5F's joint
# springs, were 337.9 / 333.3: dummies/tools/derive_hybrid3.py JOINTS_05F), her H-point 8 mm
# further back on the seat track and her seat fitted to her again (the cushion at 7.7 deg), her
# row re-measured (before, main 09f90cd: lap -5 / -7, seat 192 / 154, hips -42 / 49, lumbar
# force -83 / -113, moment -116 / -127, tilt 17.3 deg at 71 ms, the line 1.2-2.9 mm above her
# hips; the stored row's seat 167 had drifted to 154 on main): the seat's 60-90 ms mean 154 ->
# 132 N m (125 with the legs alone, the seat not refitted), the hips' 30-60 ms mean -42 -> -59,
# the lumbar moment -116 / -127 -> -101 / -111, the tilt 17.3 -> 17.0 deg, the line 1.0-2.5 mm
# above her hips: means over 30-60
# and 60-90 ms of the lap belt, the seat cushion (normal and friction), the hips and the
# lumbar-pelvis joint's force and moment; the tilt's peak (deg) and its time (ms); the band (m,
# + below the hips) of the lap belt's line from 30 to 75 ms.
# Branch lapfriction, the lap belt held on the pelvis by the belt-body friction 0.3 across it
# (restraints.belt.lap_across), all three rows re-measured, same tolerances; the lever bands
# re-drawn about the measured lines: the held belt stays where it lies on the pelvis's front
# (its lap point 20-25 mm below the ASIS, 89 mm above the 50M's hips) where the shortest path
# slid down it, so its resultant passes higher. Before (main 6ac0d4c's runs): belted lap -214 /
# -235, seat 143 / 70, hips -155 / 146, lumbar force 70 / -98, moment 99 / 76, tilt 8.4 deg at
# 63 ms, line 20-26 mm above the hips (band 10-30); ncap lap -137 / -161, seat 231 / 75, hips
# -153 / 55, lumbar force -100 / -125, moment 105 / 97, tilt 6.1 at 85 ms, line 20-26 mm above
# (band 10-30); full_width lap -5 / -7, seat 192 / 154, hips -42 / 49, lumbar force -83 / -113,
# moment -115 / -127, tilt 17.3 at 71 ms, line 1.2-2.9 mm above (band 6 above to 2 below).
# After: lines 26-66 mm above the 50M's hips on the sled, 31-48 in US NCAP, 6.0-11.1 mm above
# the 5F's.
# Re-measured at stop 43 with lapfriction merged after the tangent-point couple (tangentcouple) and
# the 5F's own legs (fivefleg), same tolerances; lapfriction's own runs, before them: belted lap
# -271 / -233, seat 234 / 345, hips -156 / 27, lumbar force 55 / -189, moment 117 / 8, tilt 8.0
# deg at 85 ms; ncap lap -194 / -366, seat 314 / 137, hips -155 / 104, lumbar force -99 / -73,
# moment 92 / 116, tilt 7.3 at 64 ms; full_width lap -21 / -47, seat 197 / 170, hips -44 / 51,
# lumbar force -80 / -109, moment -103 / -108, tilt 16.5 at 71 ms. Lines now 25-64 mm above the
# 50M's hips on the sled, 30-46 in US NCAP, 5.3-10.1 mm above the 5F's (bands unchanged).
# Branch fivefspine, the 5F's spine joints at the open FE 5F's joint springs (dummies/tools/
# derive_hybrid3.py SPINE_05F: her lumbar joint 29.5 mm further back), her seat refitted to her
# (vehicles/midsize_sedan_driver_05f.toml), her row re-measured, same tolerances and band
# (before, main ebfdf79's reference run: lap -19 / -41, seat 197 / 149, hips -55 / 47, lumbar
# force -79 / -102, moment -98 / -96, tilt 16.6 deg at 72 ms, the line 5.3-10.1 mm above her
# hips): the lumbar joint's force acts at the moved joint (its term -79 / -102 -> -127 / -149),
# the joint's moment -98 / -96 -> -72 / -65; the tilt's plateau (15.4 deg at 49 ms, 16.6 at 72 on
# main) now peaks at 49 ms, 14.5 deg (14.1 at 72); the line 5.2-12.5 mm above her hips.
# Re-measured at stop 44 (branch torsoheld: the lap belt's three held wraps slide across it as
# judged in the planes they are placed in, through the buckle and the anchor, not through their
# neighbouring wraps; same tolerances): main ebfdf79's runs -> the branch's, belted lap -266 /
# -250 -> -317 / -247, seat 235 / 334 -> 239 / 272, hips -156 / 41 -> -156 / 70, lumbar force
# 52 / -184 -> 78 / -178, moment 114 / 8 -> 122 / 43, tilt 8.9 deg at 84 ms -> 6.5 at 82 ms,
# line 25-64 -> 25-54 mm above the hips; ncap lap -189 / -361 -> -196 / -346, seat 307 / 128 ->
# 300 / 115, hips -155 / 108 -> -155 / 113, lumbar force -98 / -71 -> -92 / -76, moment 90 /
# 114 -> 91 / 119, tilt 7.9 at 64 ms -> 7.2 at 63 ms, line 30-46 -> 30-43 mm; full_width the
# same to the digit (its lap places never pass the friction).
# Branch heelfoot (task footsplit, merged onto main ebfdf79 in heelmerge): the 50M's foot a heel
# and a forefoot on the floor and toe board (dummies/tools/derive_hybrid3.py HEEL_CENTER), the
# posture's heel point on the heel, the sled floor under it. The belted row re-measured, same
# tolerances and band (before, main ebfdf79: lap -266 / -250, seat 235 / 334, hips -156 / 41,
# lumbar force 52 / -184, moment 114 / 8, tilt 8.9 deg at 84 ms): the feet bear more of the legs'
# load (femurs 0.09 / 0.14 -> 0.32 / 0.24 kN), so the seat's 60-90 ms mean falls 334 -> 261 N m
# and the lumbar force's -184 -> -136; the tilt holds 8.7 deg from 70 to 80 ms (8.71 / 8.67 /
# 8.68 at 70 / 75 / 80), its peak at 70 ms (84 before: the peak's time sits on a plateau); the
# line 25-56 mm above the hips. US NCAP within its row (lap -193 / -370, seat 319 /
# 116, hips -156 / 119, lumbar force -108 / -62, moment 92 / 120, tilt 7.9 at 64 ms), unchanged.
# Stop 44's merged whole (torsoheld, heelfoot and fivefspine together, main 2344eac's runs; same
# tolerances): belted lap -317 / -247 (torsoheld) -> -304 / -248, seat 239 / 272 -> 225 / 235 (the
# heels bear the legs, as heelfoot's row found: 334 -> 261 without torsoheld), hips -156 / 70 ->
# -155 / 66, lumbar force 78 / -178 -> 78 / -152, moment 122 / 43 -> 113 / 54, tilt 6.5 deg at 82
# ms -> 6.4 at 79, the line 25-50 mm above the hips; ncap lap -196 / -346 -> -200 / -354, seat
# 300 / 115 -> 310 / 95, hips -155 / 113 -> -152 / 130, lumbar force -92 / -76 -> -102 / -69,
# moment 91 / 119 -> 93 / 125, tilt 7.2 at 63 ms -> 7.2 at 64, the line 30-44 mm.
# Branch fivefheel (the 5F's heels and forefeet from her FE shoe, her seat refitted to them,
# vehicles/midsize_sedan_driver_05f.toml): her row re-measured, same tolerances and band (before,
# main 97e82ed: lap -22 / -51, seat 218 / 171, hips -52 / 51, lumbar force -127 / -149, moment
# -72 / -65, tilt 14.5 deg at 49 ms): her seat's 60-90 ms mean falls 171 -> 135 N m (her feet
# bear more of her legs' load: the left heel 0.75 kN on the floor at 58 ms, the left forefoot
# 1.41 kN on the toe pan at 53 ms, 0.86 at 77 before; her cushion now 11.4 deg, was 6.5), the
# rest within their tolerances: lap -19 / -45, hips -52 / 47, lumbar force -139 / -133, moment
# -57 / -45, tilt 14.0 deg at 53 ms (its plateau 13.8-13.9 from 49 to 65 ms), the line 5.7-11.6
# mm above her hips. Stop 45's merged whole (fivefheel with fivefneck, her neck refitted; main
# a3abcf8's run; same tolerances): lap -19 / -45 -> -19 / -48, seat 214 / 135 -> 215 / 120, hips
# -52 / 47 -> -53 / 47, lumbar force -139 / -133 -> -140 / -118, moment -57 / -45 -> -56 / -43,
# tilt 14.0 deg at 53 ms -> 13.9 at 53, the line 5.7-11.6 mm above her hips. Her foot's mass,
# centre and inertia from her own FE deck (branch fivefmass: the foot 0.896 -> 1.150 kg, its
# centre 24 mm further forward, the lower leg 3.164 -> 2.910 kg; main 7168433's run -> the
# branch's; same tolerances): lap -19 / -48 -> -19 / -50, seat 215 / 120 -> 215 / 122, hips
# -53 / 47 -> -56 / 60, lumbar force -140 / -118 -> -139 / -127, moment -56 / -43 -> -53 / -48,
# tilt 13.9 deg at 53 ms -> 13.5 at 63, the line 5.7-11.8 mm above her hips. The tilt's peak
# is a plateau, within 0.1 deg of it from 52 to 70 ms in both runs (main's 13.84 deg at 52 ms,
# 13.79 at 64; the branch's 13.37 at 52, 13.45 at 64): its time moved along the plateau.
# Branch heeltarget (the 50M driver's heels start on the floor: the scenario's heel targets; main
# a8232fa's run -> the branch's; same tolerances and band): ncap lap -200 / -354 -> -200 / -356,
# seat 310 / 95 -> 307 / 95, hips -152 / 130 -> -151 / 130, lumbar force -102 / -69 -> -99 / -64,
# moment 93 / 125 -> 92 / 124, tilt 7.2 deg at 64 ms -> 7.3 at 64, the line 30-44 mm above the
# hips as before.
# Branch sideheels (the heels placed by their lowest points: driver_seated's heel_bottom targets,
# the 5F's seat refitted; main 9e54fda's figures above -> the branch's; same tolerances and
# bands): ncap lap -200 / -356 -> -200 / -358, seat 307 / 95 -> 308 / 97, hips -151 / 130 ->
# -150 / 130, lumbar force -99 / -64 -> -100 / -66, moment 92 / 124 -> 92 / 123, tilt 7.3 deg at
# 64 ms -> 7.4 at 65, the line 30-44 mm above the hips; full_width hips -56 / 60 -> -57 / 59,
# lumbar force -139 / -127 -> -137 / -126, tilt 13.5 deg at 63 ms -> 13.5 at 62 (the plateau),
# the rest and the line (5.7-11.8 mm above her hips) as before.
# Branch sledcushion (the sled buck's cushion fitted tangent to the 50M's pelvis flesh and thighs,
# 18.3 deg, was 15: the thighs now rest on it; the row before is the table's, inside its
# tolerances on main 62a71a8; the branch's run, same tolerances and band): belted lap -304 / -248
# -> -276 / -229, seat 225 / 235 -> 191 / 214, hips -155 / 66 -> -150 / 53, lumbar force 78 /
# -152 -> 72 / -145, moment 113 / 54 -> 119 / 71, tilt 6.4 deg at 79 ms -> 4.6 at 68, the line
# 24-50 mm above the hips.
# Branch dummyfit (the 5F's cushion bears on her buttocks, fitted to her FE skin's flat underside
# under and ahead of her hips, in place of her pelvis flesh, whose lowest point stands 26 mm
# behind them; her cushion refitted to them; main 6dc091a's run -> the branch's; same
# tolerances): her full_width row re-measured: lap -19 / -50 -> -30 / -73, seat 215 / 122 -> 88 /
# 118 (the cushion's push now acts under and ahead of her hips, not behind them), hips -57 / 59
# -> 6 / 77, lumbar force -137 / -126 -> -91 / -136, moment -53 / -48 -> -22 / -14, tilt 13.5 deg
# at 62 ms -> 8.3 at 43 (within 0.1 deg of it 41-44 ms), the line 5.7-11.8 -> 5.8-19.5 mm above
# her hips (its band 3-15 -> 3-23 mm, the same 3-4 mm beyond the measured ends).
# Branch dringpillar (the driver's D-ring on its B-pillar, (-0.30, 0.25) -> (-0.375, 0.33) m, the
# 5F's likewise; main 6704bae's runs -> the branch's; same tolerances and bands): ncap lap -200 /
# -358 -> -187 / -341, seat 308 / 97 -> 347 / 128, hips -150 / 130 -> -149 / 136, lumbar force
# -100 / -66 -> -153 / -112, moment 92 / 123 -> 95 / 118, tilt 7.4 deg at 65 ms -> 6.3 at 65, the
# line 30-44 -> 30-46 mm above the hips; full_width lap -30 / -73 -> -30 / -72, seat 88 / 118 ->
# 102 / 141, hips 6 / 77 -> 6 / 80, lumbar force -91 / -136 -> -109 / -164, moment -22 / -14 ->
# -17 / -13, tilt 8.3 deg at 43 ms -> 7.5 at 42, the line 5.8-19.5 -> 6.1-20.4 mm above her hips.
# Branch frontback (the frontal seat backs' friction 0.05 -> 0.3; main ea890f2's runs -> the
# branch's; same tolerances and bands): belted lap -276 / -229 -> -277 / -223, seat 191 / 214 ->
# 190 / 220, hips -150 / 53 -> -149 / 52, lumbar force 72 / -145 -> 75 / -152, moment 119 / 71 ->
# 119 / 69, tilt 4.6 deg at 68 ms -> 4.6 at 83 (two peaks, 4.58 / 4.59 deg at 67 / 83 ms before,
# 4.53 / 4.61 after: the later one now the higher), the line 24-50 -> 24-51 mm above the hips;
# ncap (main -188 / -343, 346 / 125, -149 / 137, -152 / -109, 96 / 119, 6.4 deg at 65 ms) lap ->
# -187 / -339, seat 344 / 127, hips -150 / 137, lumbar force -150 / -112, moment 95 / 117, tilt
# 6.5 at 65, the line 30-46 mm; full_width lap -30 / -72, seat 102 / 141 -> 100 / 142, hips 6 / 80
# -> 5 / 81, lumbar force -109 / -165 -> -107 / -166, moment -17 / -13 -> -17 / -12, tilt 7.6 ->
# 7.5 deg at 42 ms, the line 6.1-20.4 -> 6.1-20.7 mm above her hips.
# Branch frictionsrc (the buckle's tongue 0.3 -> 0.2, the legs on each other 0.3 -> 0.2; main
# 647b827's values -> the branch's; same tolerances and bands): belted lap -277 / -223 -> -286 /
# -222, seat 190 / 220 -> 192 / 241, hips -149 / 52 -> -147 / 41, lumbar force 75 / -152 -> 77 /
# -165, moment 119 / 69 -> 117 / 92, tilt 4.6 deg at 83 ms -> 3.0 at 87, the line 24-57 mm above
# the hips; ncap lap -187 / -339 -> -205 / -329, seat 344 / 127 -> 350 / 162 (failed: 35 N m),
# hips -150 / 137 -> -150 / 107, lumbar force -150 / -112 -> -141 / -125, moment 95 / 117 -> 101 /
# 116, tilt 6.5 deg at 65 ms -> 4.9 at 72 (failed: 7 ms), the line 30-48 mm; full_width lap -30 /
# -72 -> -29 / -80, seat 100 / 142 -> 103 / 166, hips 5 / 81 -> 8 / 77, lumbar force -107 / -166
# -> -113 / -172, moment -17 / -12 -> -17 / -19, tilt 7.5 -> 7.6 deg at 42 ms, the line 6.3-20.7
# mm above her hips.
PELVIS_MOMENTS = {
    # belted and ncap re-measured when the pairs pressed in at t0 started on their loading
    # history (branch settlez; the cushion unloads along its unloading line from 60 ms): belted
    # seat 241, hips 41, lumbar force -165 and moment 92, tilt 3.0 before; ncap lap -329, seat
    # 162, lumbar force -125 and moment 116, tilt 4.9 / 72 ms before
    "belted": dict(lap=(-282, -210), seat=(193, 225), hips=(-147, 30), lumbar_force=(74, -139),
                   lumbar_moment=(116, 78), tilt=(4.0, 88), lever=(-0.075, -0.020)),
    "ncap": dict(lap=(-207, -313), seat=(356, 130), hips=(-151, 112), lumbar_force=(-142, -101),
                 lumbar_moment=(101, 104), tilt=(5.6, 71), lever=(-0.055, -0.025)),
    "full_width": dict(lap=(-29, -80), seat=(103, 166), hips=(8, 77), lumbar_force=(-113, -172),
                       lumbar_moment=(-17, -19), tilt=(7.6, 42), lever=(-0.023, -0.003)),
}


@pytest.mark.parametrize("which", ["belted", "ncap", "full_width"])
def test_regression_frontal_what_tilts_the_pelvis(request, which, pelvis_moments):
    """What turns the belted dummies' pelvis (scenarios/README.md, 'What tips the frontal pelvis';
    scenarios/HISTORY.md, 'The lap belt under the Hybrid III's iliac spines' and 'The 5th
    female's lap belt under her own iliac spines'): the balance about the hips closes within a millionth of its largest term;
    the lap belt's resultant on the wraps passes within its band (PELVIS_MOMENTS lever) from 30
    to 75 ms: 20-75 mm above the 50M's hips on the sled and 25-55 in US NCAP, holding the
    pelvis's top back (26-66 and 31-48 measured since the lap belt is held on the pelvis by
    friction, branch lapfriction, the sled's 24-50 since its cushion met the thighs,
    sledcushion; 13-26 before, band 10-30; 31-35 mm below them before its wrap's crown stood
    at the ASIS), 3-23 mm above the 5F's, whose ASIS stand 33 mm lower
    (5.8-19.5 measured since her cushion bears on her buttocks, branch dummyfit; 6.0-11.1
    before, band 3-15, branch lapfriction; before it 0.2-2.9 mm above, band 6 above to 2 below,
    since her own lap belt pelvis, branch hiii5fhips; 0-10 mm below before, 4.0-6.5 measured);
    the seat's load tips it forward. Means as measured (PELVIS_MOMENTS), within 25 N m, the tilt's peak within
    2 deg and 5 ms."""
    run, want = request.getfixturevalue(which), PELVIS_MOMENTS[which]
    on_seat = [(a, b) for a, b in (("pelvis_flesh", "seat_cushion"), ("left_buttock", "seat_cushion"),
                                   ("right_buttock", "seat_cushion"), ("pelvis_flesh", "seat_back"))
               if f"{a}__{b}" in run.model.source.contact_pairs]
    M, _, t = pelvis_moments(run.model, run.results, on_seat,
                             "belt", ("buckle", "hip_inboard", "lap", "hip_outboard", "lap_anchor"))
    assert np.abs(sum(M.values())).max() < 1e-6 * max(np.abs(v).max() for v in M.values())
    windows = [(t >= 0.03) & (t <= 0.06), (t >= 0.06) & (t <= 0.09)]
    got = {key: [float(np.mean(sum(M[n] for n in names)[w])) for w in windows]
           for key, names in (("lap", ["lap belt"]), ("seat", ["seat normal", "seat friction"]),
                              ("hips", ["hips"]), ("lumbar_force", ["lumbar joint force"]),
                              ("lumbar_moment", ["lumbar joint moment"]))}
    for key, means in got.items():
        assert means == pytest.approx(want[key], abs=25.0), key
    w = (t >= 0.03) & (t <= 0.09)
    assert np.mean((M["seat normal"] + M["seat friction"])[w]) > 0.0
    out = run.results.outputs
    X = {p: np.stack([out[f"belt.{p}.{a}"] for a in "xyz"], 1)
         for p in ("buckle", "hip_inboard", "hip_outboard", "lap_anchor")}
    # the webbing's pull on the wraps: its two end segments, towards the buckle and the anchor
    F = sum(out[segment][:, None] * (X[a] - X[b]) / np.linalg.norm(X[a] - X[b], axis=1)[:, None]
            for segment, a, b in (("belt.buckle-hip_inboard.force", "buckle", "hip_inboard"),
                                  ("belt.hip_outboard-lap_anchor.force", "lap_anchor", "hip_outboard")))
    w = (t >= 0.03) & (t <= 0.075)
    lever = M["lap belt"][w] / np.hypot(F[w, 0], F[w, 2])     # m, + where the line passes below
    assert want["lever"][0] < lever.min() and lever.max() < want["lever"][1]
    R = np.einsum("nji,njk->nik", run.results.base_poses[:, :3, :3],
                  run.results.body_poses[:, run.model.body("pelvis"), :3, :3])
    tilt = np.degrees(np.arctan2(R[:, 0, 2], R[:, 2, 2]))
    tilt = tilt - tilt[0]
    assert tilt.max() == pytest.approx(want["tilt"][0], abs=2.0)
    assert 1e3 * t[tilt.argmax()] == pytest.approx(want["tilt"][1], abs=5.0)


def test_reference_body_pairs_follow_the_occupant_and_the_seat():
    """dummies/body_contacts.toml gives every occupant its own pairs where it has the geometry:
    the chin on the chest and the legs on each other everywhere, the scenario's knee spheres
    before the dummy's knee pads, the hands on the rim only in a driver's seat, and a pair the
    scenario declares itself (the pedestrian's thighs) stays the scenario's; the thighs on each
    other for the dummies only (the parametric human's thigh shells overlap at rest)."""
    from occupant.scenario.body_contacts import body_pairs
    driver, passenger = load("us_ncap_frontal_56"), load("fmvss208_sled_48_belted")
    for sc in (driver, passenger):
        pairs = sc.model.source.contact_pairs
        assert "head_shell__thorax" in pairs and "right_foot_shell__left_foot_shell" in pairs
        assert "right_knee_contact__left_knee_contact" in pairs
        assert "right_knee_pad__left_knee_pad" not in pairs
    assert "left_hand_shell__steering_wheel_rim" in driver.model.source.contact_pairs
    assert not any("steering_wheel" in n for n in passenger.model.source.contact_pairs)
    # the human's knees are its knee shells, after a scenario's knee spheres (branch humanknee)
    knees = ["right_knee_shell", "left_knee_shell"]
    human = body_pairs(knees, occupant="human_male_1.753m_77.3kg")
    assert [(p.geometry_a, p.geometry_b) for p in human] == [tuple(knees)]
    human = body_pairs(knees + ["right_knee_contact", "left_knee_contact"],
                       occupant="human_male_1.753m_77.3kg")
    assert [(p.geometry_a, p.geometry_b) for p in human] == [("right_knee_contact", "left_knee_contact")]
    # without knees the human has no knee pair, nor a thigh pair
    geometries = ["head_shell", "thorax", "right_thigh_shell", "left_thigh_shell"]
    both = {("head_shell", "thorax"), ("right_thigh_shell", "left_thigh_shell")}
    assert {(p.geometry_a, p.geometry_b) for p in body_pairs(geometries, occupant="hybrid3_50m")
            } == both
    human = body_pairs(geometries, occupant="human_male_1.753m_77.3kg")
    assert [(p.geometry_a, p.geometry_b) for p in human] == [("head_shell", "thorax")]
    dummy = body_pairs(geometries, occupant="hybrid3_50m")
    own = body_pairs(geometries, occupant="hybrid3_50m",
                     declared=[p for p in dummy if p.geometry_a == "right_thigh_shell"])
    assert [(p.geometry_a, p.geometry_b) for p in own] == [("head_shell", "thorax")]


def test_reference_driver_head_meets_the_wheel_behind_the_bag():
    """Every driver scenario pairs the head shell and the chin with the steering wheel's rim
    (dummies/body_contacts.toml, branch headwheel) under the rim's own law, a plate as thick as
    the rim (a head coming over its top meets its edge); the passenger sled has no wheel. The
    rim's face lies behind the driver bag's backing plane (the bag's bottoming, the hub met
    through the collapsed bag) by 0.05 m, where that law already pushes a head that came through
    the bag back with more than the column's stroke force (8 kN at 0.10 m): the pair adds nothing
    to a head the bag stops."""
    for name in ("us_ncap_frontal_56", "euro_ncap_full_width_50", "aeb_precrash_frontal", "side_barrier"):
        sc = load(name)
        pairs, rim = sc.model.source.contact_pairs, sc.model.source.geometries["steering_wheel_rim"]
        for head in ("head_shell", "chin"):
            assert pairs[f"{head}__steering_wheel_rim"].characteristic.name == "steering_wheel", (name, head)
        assert rim.thickness is not None and rim.radius is not None
        column = sc.interior.characteristics["steering_wheel"].table
        bags = [b for n, b in sc.model.source.airbags.items() if n == "driver_airbag"]
        assert len(bags) == (name != "side_barrier"), name
        for bag in bags:
            axis = np.asarray(bag.rotation, float)[:, 0]
            backing = np.asarray(bag.position, float) + bag.bottoming_thickness * axis
            depth = (backing - np.asarray(rim.point, float)) @ axis     # the rim's face behind it
            assert depth == pytest.approx(0.05, abs=1e-3), name
            table = np.asarray(bag.bottoming, float)
            assert np.interp(depth, table[:, 0], table[:, 1]) > np.interp(0.10, column[:, 0], column[:, 1])
    assert not any("steering_wheel" in n for n in load("fmvss208_sled_48_belted").model.source.contact_pairs)


def _past_rim(run, hand):
    """(depth m, inside the rim's disc, or square) per millisecond: how far the hand's centre lies past
    the rim's plane (steering_wheel_rim, towards the dashboard), and whether it lies within
    the plane's bounds there (outside them the hand passes beside the wheel)."""
    rim = run.model.source.geometries["steering_wheel_rim"]
    n = np.asarray(rim.normal, float) / np.linalg.norm(rim.normal)
    x = np.asarray(rim.x_axis, float)
    y = np.cross(n, x)
    out = []
    for k in range(0, len(run.results.t), 10):
        d = ellipsoids_at(run, k, [hand])[hand][0] - np.asarray(rim.point, float)
        inside = (np.hypot(d @ x, d @ y) < rim.radius if rim.radius is not None
                  else abs(d @ x) < rim.half_size[0] and abs(d @ y) < rim.half_size[1])
        out.append((-(d @ n), inside))
    return out


@pytest.mark.parametrize("which", ["ncap", "full_width"])
def test_reference_driver_hands_do_not_pass_through_the_wheel(request, which):
    """The drivers' hands hold the rim (dummies/body_contacts.toml): no hand centre lies more
    than SHELL_GRAZE past the rim's plane while within its disc; past it they go beside the
    wheel (before the pair the 50M's right hand passed 140 mm through it, the 5F's 162 mm; with
    the rim a 0.38 m square, the square's corner, 259 mm from the hub, caught the 50M's left hand
    from behind at 126-130 ms, 96-100 mm past its plane, 1.41 kN: main 4da9e38)."""
    run = request.getfixturevalue(which)
    for hand in ("left_hand_shell", "right_hand_shell"):
        rows = _past_rim(run, hand)
        assert max(d for d, inside in rows if inside) < SHELL_GRAZE, hand
        assert run.results.outputs[f"{hand}__steering_wheel_rim.normal_force"].max() > 100.0


def _head_clear_of_rim(run):
    """(n,) m: how far the head shell's nearest point lies in front of the rim's face (along
    its normal, towards the driver: no nearer to the plate than that) at every sample."""
    rim = run.model.source.geometries["steering_wheel_rim"]
    n = np.asarray(rim.normal, float) / np.linalg.norm(rim.normal)
    out = []
    for k in range(len(run.results.t)):
        c, R, s = ellipsoids_at(run, k, ["head_shell"])["head_shell"]
        out.append((c - np.asarray(rim.point, float)) @ n - np.sqrt(n @ (R * s**2) @ R.T @ n))
    return np.array(out)


@pytest.mark.parametrize("which", ["ncap", "full_width"])
def test_reference_driver_bag_keeps_the_head_off_the_wheel(request, which):
    """The head-rim pairs (dummies/body_contacts.toml, branch headwheel) do not load the settled
    driver (the 50M's head shell 0.46 m in front of the rim's face, the 5F's 0.37 m) and never
    fire in the shipped runs: the bag holds the head 0.27 m (50M, 66 ms) / 0.30 m (5F, 41 ms)
    short of it (main e160d8f's runs: the same figures)."""
    run = request.getfixturevalue(which)
    gap = _head_clear_of_rim(run)
    assert gap[0] > 0.35 and gap.min() > 0.2
    for head in ("head_shell", "chin"):
        assert run.results.outputs[f"{head}__steering_wheel_rim.normal_force"].max() == 0.0, head


@pytest.fixture(scope="module")
def ncap_no_bag():
    return load("us_ncap_frontal_56", overrides={"restraints.airbag.enabled": False}).run()


def test_reference_us_ncap_without_its_bag_the_head_meets_the_rim(ncap_no_bag):
    """Without the driver bag the belted 50M's head comes down onto the wheel, its centre 137 mm
    from the axis at its deepest: between the hub and the rim's ring (branch wheelring: the
    wheel open between them), it meets the ring's inner edge with 2.24 kN, 22.4 mm into the
    column's stroke (90-105 ms), and the hub's edge with 0.21 kN (89-94 ms); its shell's nearest
    point 28.1 mm past the rim's face at most. On the solid disc before (main cd5c30d0): 2.57
    kN, 25.7 mm, 87-104 ms, 25.7 mm past the face. Without the pair (main e160d8f) the head went
    on unresisted to 40.0 mm past it (105 ms), held only by the belt and the neck."""
    run = ncap_no_bag
    out, t = run.results.outputs, run.results.t
    force = out["head_shell__steering_wheel_rim.normal_force"]
    on = t[force > 0.0]
    assert 2.0e3 < force.max() < 4.0e3 and 0.080 < on[0] and on[-1] < 0.115
    assert out["head_shell__steering_wheel_rim.penetration"].max() < 0.06     # well short of bottoming
    assert 0.0 < out["head_shell__steering_wheel_hub.normal_force"].max() < 1.0e3
    assert _head_clear_of_rim(run).min() > -0.035


def test_reference_us_ncap_without_its_bag_the_forearm_meets_the_rim(ncap_no_bag):
    """The forearms are paired with the wheel's rim and hub (dummies/body_contacts.toml, branch
    wheelring): without the bag the 50M's right forearm, lying across the wheel, meets the rim's
    ring with 1.66 kN at 90 ms (82-94 ms, 16.6 mm), where unpaired it lay 30 mm into it at 85-115
    ms, 95-190 mm from the axis (NO_BAG_KNOWN's line before)."""
    out, t = ncap_no_bag.results.outputs, ncap_no_bag.results.t
    force = out["right_forearm_shell__steering_wheel_rim.normal_force"]
    on = t[force > 0.0]
    assert 1.0e3 < force.max() < 3.0e3 and 0.075 < on[0] and on[-1] < 0.100


# The flesh over a knee [E]: the knee sphere's 65 mm radius (scenarios' knee_contact) less half
# a male femur's bicondylar width, about 85-90 mm [U]; past twice this, bone meets bone
KNEE_FLESH = 0.020      # m


def test_reference_side_barrier_legs_do_not_pass_through_each_other(side):
    """The inboard leg swinging against the outboard one is stopped by it (dummies/
    body_contacts.toml): the knee spheres overlap by less than both knees' flesh, and neither
    foot's centre enters the other foot's shell (before the pairs: knees 60 mm, each foot's
    centre inside the other for 42-44 ms)."""
    u, v = np.meshgrid(np.linspace(0.0, np.pi, 13),
                       np.linspace(0.0, 2.0 * np.pi, 24, endpoint=False))
    unit = np.stack([np.sin(u) * np.cos(v), np.sin(u) * np.sin(v), np.cos(u)], -1).reshape(-1, 3)
    knees = ("left_knee_contact", "right_knee_contact")
    feet = ("left_foot_shell", "right_foot_shell")
    worst = 0.0
    for k in range(0, len(side.results.t), 10):
        s = ellipsoids_at(side, k, knees + feet)
        c, R, semi = s[knees[0]]
        worst = max(worst, max(depth(c + R @ (semi * p), s[knees[1]]) for p in unit))
        assert depth(s[feet[0]][0], s[feet[1]]) == 0.0 and depth(s[feet[1]][0], s[feet[0]]) == 0.0
    assert worst < 2 * KNEE_FLESH


def _knee_points(run, k, reach=(0.0, 0.0), knees=("right_knee_contact", "left_knee_contact")):
    """(n, J, data): the unit line from the second knee sphere's centre to the first's at
    sample k (B0) and, for each sphere, the (3, nv) velocity Jacobian of the point ``reach`` (m)
    from its centre towards the other along that line (0: the centre)."""
    from occupant.dynamics.api import link_poses
    from occupant.dynamics.kinematics import point_jacobian
    model, q = run.model, run.results.q[k]
    data = model.make_data()
    R, p = link_poses(model, data, q)
    s = ellipsoids_at(run, k, knees)
    n = s[knees[0]][0] - s[knees[1]][0]
    n = n / np.linalg.norm(n)
    J = []
    for name, toward, r in zip(knees, (-n, n), reach):
        body = model.marker_body[model.marker(model.source.geometries[name].marker)]
        link = model.body_link[body]
        J.append(point_jacobian(model, data, q, body, R[link].T @ (s[name][0] + r * toward - p[link])))
    return n, J, data


def _knee_pair_mass(run, k, knees=("right_knee_contact", "left_knee_contact")):
    """The knee spheres' effective mass at sample k along the line of their centres (B0),
    1 / (J_n D^-1 J_n^T): J_n that line's row of the centres' relative velocity Jacobian, D the
    joint-space mass matrix."""
    from occupant.dynamics.api import mass_matrix
    n, J, data = _knee_points(run, k, knees=knees)
    Jn = n @ (J[0] - J[1])
    q = run.results.q[k]
    return 1.0 / (Jn @ np.linalg.solve(mass_matrix(run.model, data, q), Jn))


def test_analytic_side_barrier_knee_on_knee_is_a_two_mass_impact(side):
    """The inboard knee thrown against the outboard one (dummies/body_contacts.toml, knee_knee:
    a linear spring k, two 572.35 knee fleshes in series) is an impact of two masses on a
    spring: peak F = v sqrt(k m), v the knees' closing speed at first touch and m the pair's
    effective mass there (mass matrix; each leg about half its 11.5 kg, the pair 2.8 kg). The
    closing speed lies between the car's delta-v (the outboard knee stopped by the door, the
    inboard one still at the delta-v the car took from under it) and delta-v (1 + e), e =
    sqrt(1 - absorption) the door trim's restitution (its law returns 1 - absorption of the
    loading work) as the outboard knee rebounds off the door; so the peak lies between
    delta-v sqrt(k m) and v sqrt(k m) at the measured v (the pair's hysteresis acts on
    unloading, its friction and damping only take energy). Measured on main e160d8f
    (sidefemur): 11.0 m/s (delta-v 8.06 m/s), m 2.93 kg, v sqrt(k m) 14.9 kN, peak 13.6 kN;
    at the neck barrier's merge 11.8 m/s, 2.84 kg, 15.7 and 14.3 kN; before it 12.0
    m/s (the outboard knee back off the door at 3.5 m/s), 2.78 kg, 15.8 and 14.8 kN
    (scenarios/HISTORY.md, sideknees, forceline)."""
    out, pairs = side.results.outputs, side.model.source.contact_pairs
    law = pairs["right_knee_contact__left_knee_contact"].characteristic
    door = pairs["left_knee_contact__door_panel"].characteristic
    force = out["right_knee_contact__left_knee_contact.normal_force"]
    touch = int(np.argmax(force > 0.0))
    assert touch > 0
    v = out["right_knee_contact__left_knee_contact.penetration_rate"][touch]
    dv = side.pulse.delta_v
    assert dv < v < dv * (1.0 + np.sqrt(1.0 - door.absorption))
    m = _knee_pair_mass(side, touch)
    # each leg between its thigh pinned at the hip, (m c^2 + I) / L^2 = 3.33 kg, and the whole
    # leg, 6.02 + 4.26 + 1.21 kg (dummies/hybrid3_50m.toml); the pair half of either
    assert 3.33 / 2 < m < 11.49 / 2
    assert dv * np.sqrt(law.stiffness * m) < force.max() < v * np.sqrt(law.stiffness * m)


def test_analytic_side_barrier_femurs_read_the_knee_blow_along_them(side):
    """The femur cells (read across the knees) take the knee-on-knee blow: its component along
    each femur cell's axis (the marker's; the inboard thigh swung 12 deg towards the door, so the
    blow is not square to it) and its friction (mu of the knee pair), so each femur's axial
    peak lies below the blow's peak times (largest |n . cell axis| over the blow + mu) and falls
    within the blow. Measured: 0.77 / 5.24 kN (left / right) under bounds of 7.0 / 8.4 kN on
    main e160d8f (the right peak as the friction turns: the test below); 1.64 / 3.22 kN under
    6.6 / 8.8 kN at branch markers50m (read along the femur's axis before, 1.38 / 3.29 kN under
    7.1 / 8.8; 0.96 / 3.40 under 7.7 / 9.4 at sideknees, 2.16 / 4.65 under 6.3 / 8.2 before the
    belt's neck barrier); the axial reading swings with the friction as the knees' sliding
    stops (scenarios/HISTORY.md, sideknees, forceline, markers50m, sidefemur)."""
    out, model = side.results.outputs, side.model
    law = side.model.source.contact_pairs["right_knee_contact__left_knee_contact"].characteristic
    force = out["right_knee_contact__left_knee_contact.normal_force"]
    blow = np.flatnonzero(force > 0.0)
    rows = _rows(side)
    for name in ("left", "right"):
        along = 0.0
        for k in blow:
            s = ellipsoids_at(side, k, ("right_knee_contact", "left_knee_contact"))
            n = s["right_knee_contact"][0] - s["left_knee_contact"][0]
            X = np.linalg.inv(side.results.base_poses[k]) @ side.results.body_poses[
                k, model.body(f"{name}_upper_leg")]
            axis = X[:3, :3] @ model.source.markers[f"{name}_femur_load_cell"].rotation[:, 2]
            along = max(along, abs(n @ axis) / np.linalg.norm(n))
        axial = next(c for c in side.results.channels if c.name == f"{name.title()} femur force Z")
        assert rows[f"femur force {name}"]["value"] < force.max() * (along + law.friction), name
        assert blow[0] <= np.abs(axial.values).argmax() <= blow[-1], name


def _knee_blow_along_right_femur(run, k):
    """(normal, friction): the knee-on-knee pair's push on the right knee at sample k along the
    right femur cell's axis (its marker's z, B0), N: the normal force along the line of the
    knee centres and the friction (its recorded magnitude) against the knees' sliding, the
    relative velocity of their contact points across that line."""
    pair = "right_knee_contact__left_knee_contact"
    res, model, out = run.results, run.model, run.results.outputs
    reach = model.source.geometries["right_knee_contact"].semi_axes[0] - out[f"{pair}.penetration"][k] / 2
    n, J, _ = _knee_points(run, k, (reach, reach))
    slip = (J[0] - J[1]) @ res.v[k]
    slip -= (slip @ n) * n
    X = np.linalg.inv(res.base_poses[k]) @ res.body_poses[k, model.body("right_upper_leg")]
    axis = X[:3, :3] @ model.source.markers["right_femur_load_cell"].rotation[:, 2]
    return (out[f"{pair}.normal_force"][k] * n @ axis,
            -out[f"{pair}.friction_force"][k] * slip @ axis / np.linalg.norm(slip))


def test_reference_side_barrier_right_femur_peaks_as_the_knees_friction_fades(side):
    """The far-side femur's 5.24 kN (scenarios/HISTORY.md, sidefemur): nothing but the left
    leg loads the right one (no interior surface but the cushion; no console is modelled, and
    the leg moves away from where one would be), and the cell reads the knee blow's push along
    it (`sideknees`). The knees slide across each other as they meet (4.5 m/s at first touch),
    so the blow's friction (0.3 of it) first pulls the right knee away from the hip: at the
    blow's 13.6 kN peak (68.4 ms) its normal force pushes 4.32 kN along the cell and its
    friction pulls 3.86 kN (the femur reads -1.45 kN). As the sliding stops (0.27 m/s at 69.3
    ms) the friction turns and pushes with the normal force: -5.31 kN unfiltered at 69.5 ms
    (5.24 kN filtered), the blow still at 9.8 kN, its normal force 3.14 and friction 1.16 kN
    along the cell, the shins' push the rest of the lower leg's -4.62 kN, its inertia -0.62.
    At stop 47 (c806109, the D-ring 0.10 m inboard of its pillar) the knees first slid at 5.7
    m/s, the friction turned at 69.9 ms with the blow down to 7.0 kN, and the femur read 3.74
    kN from the same 13.0 kN blow; with no friction on the pair, 5.58 kN at the blow's peak.
    Since the seat backs' trim friction 0.3 (branch frontback): the blow 13.63 kN at 68.3 ms
    (normal +4091 / friction -3902 N along the cell), the sliding turning sooner, the femur
    -5.72 kN unfiltered at 69.3 ms (5.68 filtered), the blow then 10.8 kN (normal +3260 /
    friction +1359 N), the lower leg's -4.97 kN. Since the legs rub each other at 0.2 and the
    buckle's tongue at 0.2 (branch frictionsrc): the blow 13.90 kN at 68.3 ms (normal +3590 /
    friction -2450 N along the cell), and the femur peaks before the friction turns, as its pull
    fades: -3.00 kN at 69.4 ms (2.99 filtered), the blow then 10.1 kN (normal +2645 / friction
    -676 N), the lower leg's -2.31 kN; the friction turns at 69.9 ms, the blow down to 6.4 kN."""
    from occupant.sensors.defaults import default_sensors
    from occupant.sensors.evaluate import evaluate, load_cell_sources
    res, model = side.results, side.model
    out, t = res.outputs, res.t
    rate = 1.0 / float(t[1] - t[0])
    cell = next(s for s in default_sensors(model) if s.name == "Right femur")
    key = "Right femur force Z"
    fz = next(c for c in evaluate(model, res, [cell], rate=rate) if c.name == key).values
    parts = {k: v[key] for k, v in load_cell_sources(model, res, cell, rate=rate).items()}
    k = int(np.argmin(fz))                                               # measured -5310 N
    blow = out["right_knee_contact__left_knee_contact.normal_force"]
    peak = int(np.argmax(blow))                                          # 13579 N at 68.4 ms
    assert 0.0 < t[k] - t[peak] <= 0.003 and blow[k] > 0.5 * blow[peak]  # 69.5 ms, 9824 N
    interior = {s.name for s in load_interior("midsize_sedan_driver").surfaces} - {"seat_cushion"}
    for name in model.source.contact_pairs:
        if name.startswith("right_") and name.split("__")[1] in interior:
            assert out[f"{name}.normal_force"][k] == 0.0, name
    normal, friction = _knee_blow_along_right_femur(side, peak)
    assert normal * friction < 0.0 and abs(friction) > 0.5 * abs(normal)   # +3590 / -2450 N
    normal, friction = _knee_blow_along_right_femur(side, k)
    assert normal * friction < 0.0 and abs(friction) < 0.3 * abs(normal)   # +2645 / -676 N
    turned = next(j for j in range(k, len(t)) if np.prod(_knee_blow_along_right_femur(side, j)) >= 0.0)
    assert t[turned] - t[k] <= 0.001                                        # 69.9 ms
    # the cell reads the lower leg's push on the femur: the blow's, opposite in sign
    assert -(normal + friction) == pytest.approx(parts["right_lower_leg"][k], abs=500.0)  # -2309


def _outboard(results):
    """+1 or -1: the sign of B0's y on the D-ring's side (the outboard side of a belted frontal
    occupant; the passenger's is -y, a driver's +y)."""
    return float(np.sign(results.outputs["belt.d_ring.y"][0]))


def _towards_the_d_ring(results, t):
    """(head, T1) m: how far the head's centre of gravity and T1 (the neck's lower joint, the
    neck link's origin) have moved towards the D-ring's side relative to the vehicle (B0) at ``t``
    s, from the start."""
    B = results.base_poses
    k = int(np.searchsorted(results.t, t))
    i, n = results.body_names.index("head"), results.body_names.index("neck")
    moved = []
    for p in (results.body_com[:, i], results.body_poses[:, n, :3, 3]):
        y = np.einsum("tj,tj->t", B[:, :3, 1], p - B[:, :3, 3])           # B0's y
        moved.append(_outboard(results) * (y[k] - y[0]))
    return tuple(moved)


def _shoulder_belt_pull_outboard(results):
    """N s: the lateral impulse, towards the D-ring's side, of the shoulder belt's two free spans
    on the occupant (their tensions along them: from its first wrap to the D-ring, from its last
    to the buckle) over the run. A belt over the body pulls it, whatever its wraps in between,
    with the sum of its end spans' tensions (its wraps' forces on the body add up to it)."""
    o = results.outputs
    def span(frm, to, force):
        d = np.stack([o[f"belt.{to}.{a}"] - o[f"belt.{frm}.{a}"] for a in "xyz"], axis=1)
        return o[force] * d[:, 1] / np.linalg.norm(d, axis=1)
    upper = next(k for k in o if k.startswith("belt.d_ring-") and k.endswith(".force"))
    lower = next(k for k in o if k.endswith("-buckle.force") and k != "belt.buckle.force")
    first, last = upper[len("belt.d_ring-"):-len(".force")], lower[len("belt."):-len("-buckle.force")]
    pull = span(first, "d_ring", upper) + span(last, "buckle", lower)   # B0 y (the fixed anchorages)
    return _outboard(results) * float(np.trapezoid(pull, results.t))


def _torso_lean_outboard_deg(results, t):
    """deg: the upper torso's roll about B0's x from the start at ``t`` s, its top towards the
    D-ring's side positive."""
    B = results.base_poses
    k = int(np.searchsorted(results.t, t))
    R = np.einsum("tji,tjk->tik", B[:, :3, :3], results.body_poses[:, results.body_names.index("upper_torso"), :3, :3])
    roll = np.degrees(np.arctan2(R[:, 2, 1], R[:, 2, 2]))      # about +x: the top towards -y
    return -_outboard(results) * (roll[k] - roll[0])


@pytest.mark.parametrize("which", ["belted", "ncap", "full_width"])
def test_regression_belted_frontal_head_moves_towards_the_d_ring(request, which):
    """The belted frontal occupants' heads move sideways towards the D-ring's (outboard) side, as
    GS1's PMHS's do (tests/human/test_validation_sled.py,
    test_data_gs1_pmhs_head_and_t1_move_towards_the_belted_shoulder), and why: the shoulder belt's
    span to the D-ring, far outboard of where the belt meets the chest, pulls the upper body
    towards it harder than its span to the buckle pulls it inboard, while the lap belt holds the
    pelvis; the upper body leans towards the D-ring and the head goes with T1. Measured (main
    ab1ff1b, the physics of e160d8f; scenarios/HISTORY.md, headlateral), at 150 ms: head 150 / 80 / 94 mm, T1 101 / 54 /
    72 mm, the torso leaning 11.6 / 5.3 / 8.9 deg; the belt's net lateral impulse towards the
    D-ring 37.4 / 49.1 / 29.5 N s (belted sled, US NCAP, Euro NCAP 5F). With the sled's D-ring
    moved from 0.25 to 0.10 m outboard (behind the shoulder) the belt pulls inboard (-41.4 N s),
    the torso leans 19.8 deg inboard and the head and T1 move 188 / 159 mm inboard: this fails
    on it."""
    run = request.getfixturevalue(which)
    res = run.results
    assert _shoulder_belt_pull_outboard(res) > 10.0
    head, t1 = _towards_the_d_ring(res, 0.150)
    assert head > 0.040 and t1 > 0.025
    assert _torso_lean_outboard_deg(res, 0.150) > 3.0


# US NCAP without its bag: once the unpaired check covered B0's planes (branch crushshare), its
# right forearm shell, in no pair with the steering wheel (then a solid disc), passed the disc's
# plate to its full 30 mm at 123 ms, 124 mm from the wheel's axis, a line kept here as known.
# Branch wheelring opened the wheel (the rim a ring 160-190 mm from the axis, a hub of 80 mm)
# and paired the forearms with rim and hub: inside the ring the forearm passes the open wheel,
# and across the ring (85-115 ms, 30 mm into it unpaired) the rim stops it. No known line left
NO_BAG_KNOWN = ()


@pytest.mark.parametrize("made_by", ["belted", "ncap_no_bag"])
def test_reference_motion_has_no_defects(made_by, request):
    """The runs this module makes that ``_closes_and_stays_out`` does not check (the belted
    sled; US NCAP without its bag, the head on the rim): ``no_motion_defects``."""
    no_motion_defects(request.getfixturevalue(made_by), NO_BAG_KNOWN if made_by == "ncap_no_bag" else ())
