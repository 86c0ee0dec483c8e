"""The pedestrian car front's windscreen struck by the adult headform of the pedestrian subsystem
tests (vehicles/sedan_front_midsize.toml, issue 11 section 6): a free rigid sphere of 4.5 kg and
165 mm diameter (crash-domain-facts.md 2.6) at 11.1 m/s, 65 deg below the horizontal, rearward
(Euro NCAP / GTR 9 adult headform [U: protocols not read]), onto the front's own surfaces on its
moving body (``VehicleFront.build``), once at the glass's centre and once on its base over the
scuttle. Headform tests read HIC high at the cowl and the lower windscreen frame, low away from
them, under 500 at the windscreen's centre [S: Mizuno, Yonezawa and Kajzer, ESV 2001, paper
2001-06-0185, abstract]. The check of the structures' loader errors is here too."""
import numpy as np
import pytest

import occupant
from occupant.constants import G0, STANDARD_GRAVITY
from occupant.injury.criteria import hic
from occupant.io.toml_files import resolve_shipped
from occupant.modeling import Assembly, ContactPair, Joint, Marker, Part, Pose, Sphere
from occupant.scenario.vehicle_front import VehicleFrontError, load_vehicle_front

FRONT = "sedan_front_midsize"
MASS, RADIUS, SPEED, ANGLE = 4.5, 0.0825, 11.1, np.radians(65.0)
# [E] a uniform sphere's 2/5 m r^2; the headform's own inertia does not act in a centred strike
INERTIA = 0.4 * MASS * RADIUS ** 2
DT, T_END = 1e-5, 0.03


def _glass(front):
    """(lower end (x, z), unit direction u, outward normal n) of the windscreen in V."""
    _, p0, p1, _ = next(s for s in front.surfaces if s[0] == "windscreen")
    p0, p1 = np.asarray(p0), np.asarray(p1)
    u = (p1 - p0) / np.linalg.norm(p1 - p0)
    return p0, u, np.array([u[1], -u[0]])


def strike(front, s):
    """Results of the headform fired at the point ``s`` m up the windscreen from its lower edge
    (y = 0), touching it at t = 0; its centre's acceleration (g) from its path."""
    asm = Assembly("headform_test")
    front.build(asm, 0.0)
    asm.add(Part("headform", MASS, inertia=(INERTIA, INERTIA, INERTIA)))
    asm.add(Joint("flight", "free", None, "headform", Pose()))
    asm.add(Marker("headform_centre", "headform"))
    asm.add(Sphere("headform_skin", "headform_centre", RADIUS))
    for name, characteristic in front.surface_characteristics.items():
        asm.add(ContactPair(f"headform__{name}", "headform_skin", name,
                            front.characteristics[characteristic]))
    model = asm.compile()
    p0, u, n = _glass(front)
    x, z = p0 + s * u + RADIUS * n
    link = model.joint_links[model.joint_names.index("flight")][-1]
    qi, vi = int(model.tree.qidx[link]), int(model.tree.vidx[link])
    q0 = np.zeros(model.nq)                        # the vehicle's travel 0: its front at x = 0
    q0[qi:qi + 7] = [x, 0.0, z, 1.0, 0.0, 0.0, 0.0]
    v0 = np.zeros(model.nv)
    v0[vi:vi + 3] = SPEED * np.array([-np.cos(ANGLE), 0.0, -np.sin(ANGLE)])   # its frame is B0's at t = 0
    res = occupant.simulate(model, T_END, q0=q0, v0=v0, integrator="rk4", dt=DT, output_dt=DT,
                            gravity=STANDARD_GRAVITY)
    a = np.gradient(np.gradient(res.q[:, qi:qi + 3], res.t, axis=0), res.t, axis=0)
    a[:, 2] += G0                    # the accelerometer reads the contact forces
    return res, np.linalg.norm(a, axis=1) / G0


@pytest.fixture(scope="module")
def front():
    return load_vehicle_front(FRONT)


@pytest.fixture(scope="module")
def centre(front):
    _, p0, p1, _ = next(s for s in front.surfaces if s[0] == "windscreen")
    return strike(front, 0.5 * np.hypot(p1[0] - p0[0], p1[1] - p0[1]))


def test_reference_headform_at_the_windscreen_centre_reads_hic_under_500(front, centre):
    """At the glass's centre, away from the scuttle, the headform stops on the PVB membrane:
    HIC15 under 500 [S: Mizuno et al. 2001], the glass bulging past its fracture but short of the
    table's last rise (the instrument panel below it), the scuttle untouched. With the single
    table of main before branch windscreen (3.5 kN at 60 mm, the scuttle's 20 kN at 90 mm over
    the whole glass) it read HIC15 3505, 253 g, 74 mm (1929 on one degree of freedom, loading
    branch only)."""
    res, a = centre
    value = hic(res.t, a).value
    table = np.asarray(front.characteristics["windscreen"].table)
    pen = res.outputs["headform__windscreen.penetration"]
    assert value < 500.0, value
    assert table[1, 0] < pen.max() < table[-2, 0], pen.max()
    assert res.outputs["headform__scuttle.normal_force"].max() == 0.0


def test_reference_headform_on_the_windscreen_base_meets_the_scuttle(front, centre):
    """On the glass's base (50 mm up it, over the scuttle's strip) the headform presses the glass
    past the scuttle's 60 mm clearance and stops on the cowl: HIC15 high, as headform tests read
    at the cowl and the lower windscreen frame [S: Mizuno et al. 2001]: above the 1000 of the
    regulations' head limit and more than three times the centre's."""
    res, a = strike(front, 0.05)
    value = hic(res.t, a).value
    at_centre = hic(centre[0].t, centre[1]).value
    assert res.outputs["headform__scuttle.normal_force"].max() > 1000.0
    assert value > max(1000.0, 3.0 * at_centre), (value, at_centre)


@pytest.mark.parametrize("edit, where, message", [
    (lambda s: s.replace('shape = "plane"\npoint', 'shape = "mesh"\npoint'), "structure[0].shape",
     "plane, box, cylinder, sphere, ellipsoid"),
    (lambda s: s.replace('characteristic = "scuttle"\n', 'characteristic = "cowl"\n'),
     "structure[0].characteristic", "unknown contact characteristic 'cowl'"),
    (lambda s: s.replace('name = "scuttle"', 'name = "bonnet"'), "structure[0].name",
     "is taken"),
    (lambda s: s.replace('name = "scuttle"', 'name = "scuttle"\non = "bonnet_hinge"'),
     "structure[0].on", "unknown key"),
])
def test_reference_vehicle_front_structure_errors_name_file_and_key(tmp_path, edit, where, message):
    src = resolve_shipped(FRONT, "vehicles", "vehicle front", kind="vehicle_front")
    path = tmp_path / "front.toml"
    text = edit(src.read_text())
    assert text != src.read_text()
    path.write_text(text)
    with pytest.raises(VehicleFrontError) as err:
        load_vehicle_front(path)
    assert str(err.value).startswith(f"{path}: {where}") and message in str(err.value), str(err.value)
