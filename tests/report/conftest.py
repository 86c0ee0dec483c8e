"""Run objects as occupant/scenario/run.py makes them, built here from existing pieces: the Hybrid
III 50th male of the demo (pelvis welded to the sled seat, now in the driver posture) on the demo's
frontal sled pulse, with a floor, a knee bolster and an instrument panel as contact Planes on the
vehicle B0, its standard sensors and the FMVSS 208 criteria. Two variants (knee bolster
stiffness) feed the comparison report. The occupant is unbelted with its pelvis welded to the
seat, so its head and chest strike the panel hard (HIC15 ~1700, chest 3 ms ~125 g): a fixture to
exercise the report (failing and passing criteria), not a physical test."""
import types

import numpy as np
import pytest

import occupant
from occupant import samples
from occupant.dynamics import body_poses
from occupant.human.assemble import assemble
from occupant.human.loader import load_description
from occupant.human.posture import position
from occupant.injury import assess, evaluate as injury
from occupant.modeling import ContactCharacteristic, ContactPair, Plane, Pose
from occupant.sensors import default_sensors, evaluate

T_END = 0.1      # s: the pulse (100 ms) and the occupant's forward excursion into the bolster
REGULATION = "fmvss208_hybrid3_50m"
# Contact characteristics are illustrative [E], only to give the report something to show: a
# padded knee bolster of the order of 100 kN/m, the panel and floor stiffer.
FLOOR = ContactCharacteristic(stiffness=2e5, damping=2e3, friction=0.5, name="floor")
VERTICAL = dict(normal=(-1.0, 0.0, 0.0), x_axis=(0.0, 0.0, 1.0))   # facing the occupant (-x)


def _q_sizes(model):
    """(nl,) number of coordinates of each link in q."""
    qidx = np.asarray(model.tree.qidx)
    order = np.argsort(qidx, kind="stable")
    sizes = np.empty(len(qidx), int)
    sizes[order] = np.diff(np.append(qidx[order], model.nq))
    return sizes


def _transfer(src, q_src, dst):
    """dst's configuration with every joint it shares with src (same name) set as in q_src."""
    q = dst.neutral_configuration()
    n_src, n_dst = _q_sizes(src), _q_sizes(dst)
    for name, links in zip(dst.joint_names, dst.joint_links):
        if name not in src.joint_names or src.joint_kind[src.joint_names.index(name)] != \
                dst.joint_kind[dst.joint_names.index(name)]:
            continue   # the root: free in src, welded in dst
        for ls, ld in zip(src.joint_links[src.joint_names.index(name)], links):
            assert n_src[ls] == n_dst[ld]
            q[dst.tree.qidx[ld]:dst.tree.qidx[ld] + n_dst[ld]] = q_src[src.tree.qidx[ls]:src.tree.qidx[ls] + n_src[ls]]
    return q


def build_run(name, bolster_stiffness=1.0e5, panel_stiffness=2.0e5, t_end=T_END):
    """A run namespace with the fields of occupant/scenario/run.py's run object."""
    header, segments = load_description("hybrid3_50m")
    free = assemble(header["name"], segments).compile()
    q_free = position(free, "driver_seated")
    pelvis = body_poses(free, free.make_data(), q_free)[free.body("pelvis")]
    segments[0].joint_kind = "fixed"           # pelvis welded to the seat in its seated pose
    asm = assemble(header["name"], segments)
    asm.joints["root"].placement = Pose(pelvis[:3, 3], pelvis[:3, :3])
    # vehicle surfaces on B0 (marker None), placed from the seated posture (H-point at the
    # origin): feet bottoms near z = -0.29 m, knee fronts near x = 0.47 m, head at z = 0.63 m
    asm.add(Plane("floor", None, point=(0.6, 0.0, -0.29), half_size=(0.3, 0.35)))
    asm.add(Plane("knee_bolster", None, point=(0.52, 0.0, 0.08), half_size=(0.12, 0.3), **VERTICAL))
    asm.add(Plane("panel", None, point=(0.40, 0.0, 0.58), half_size=(0.15, 0.35), **VERTICAL))
    panel = ContactCharacteristic(stiffness=panel_stiffness, damping=1e3, absorption=0.5, name="panel")
    bolster = ContactCharacteristic(stiffness=bolster_stiffness, damping=1e3, absorption=0.4,
                                    name="bolster")
    for side in ("left", "right"):
        asm.add(ContactPair(f"{side}_foot_floor", f"{side}_foot_shell", "floor", FLOOR))
        asm.add(ContactPair(f"{side}_knee_bolster", f"{side}_knee_pad", "knee_bolster", bolster))
        asm.add(ContactPair(f"{side}_shank_bolster", f"{side}_shank_shell", "knee_bolster", bolster))
    asm.add(ContactPair("head_panel", "head_shell", "panel", panel))
    asm.add(ContactPair("thorax_panel", "thorax", "panel", panel))
    model = asm.compile()
    q0 = _transfer(free, q_free, model)
    res = occupant.simulate(model, t_end, q0=q0, base_motion=samples.sled_pulse(), output_dt=1e-4)
    res.channels = evaluate(model, res, default_sensors(model))
    ch = {c.name: c for c in res.channels}
    head = injury.head(*(ch[f"Head CG acceleration {a}"] for a in "XYZ"))
    values = dict(head)
    values.update(injury.chest(*(ch[f"Chest acceleration {a}"] for a in "XYZ")))
    values.update(injury.neck(ch["Upper neck force X"], ch["Upper neck force Z"], ch["Upper neck moment Y"]))
    femur = [injury.femur(ch[f"{s} femur force Z"])["femur_compression"] for s in ("Left", "Right")]
    values["femur_compression"] = max(femur, key=lambda r: abs(r.value))
    values = {k: v for k, v in values.items() if k in {"hic15", "chest_a3ms_g", "nij", "neck_tension",
                                                        "neck_compression", "femur_compression"}}
    criteria = [dict(criterion=a.criterion, value=a.value, unit=a.unit, limit=a.limit, **{"pass": a.passed})
                for a in assess(REGULATION, values)]
    # a criterion this protocol does not limit: reported with no limit and no verdict
    criteria.append(dict(criterion="hic36", value=head["hic36"].value, unit="1", limit=None, **{"pass": None}))
    return types.SimpleNamespace(
        name=name, title="Frontal sled, 20 g 100 ms half-sine, welded pelvis (report test fixture)",
        scenario={"occupant": {"dummy": "hybrid3_50m", "posture": "driver_seated"},
                  "pulse": {"shape": "half-sine", "peak_g": 20.0, "duration": 0.1, "speed_kmh": 50.0},
                  "contacts": {"knee_bolster.stiffness": bolster_stiffness, "panel.stiffness": panel_stiffness},
                  "solver": {"t_end": t_end, "integrator": "rk4"}},
        model=model, results=res, criteria=criteria, regulation=REGULATION, test_object="sled")


@pytest.fixture(scope="session")
def run():
    return build_run("bolster 100, panel 200 kN/m")


@pytest.fixture(scope="session")
def soft_run():
    return build_run("bolster 200, panel 60 kN/m", bolster_stiffness=2.0e5, panel_stiffness=6.0e4)
