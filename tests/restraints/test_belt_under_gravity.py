"""A belt on an occupant that only settles under gravity: nothing but the body's weight loads it.

GS1's parametric human (scenarios/validation/human_sled_gs1_40.toml, its sled and belt in
data/gs1_sled_40_human.toml: a shoulder belt from its anchorage over two wraps on the thorax, on
their shortest path, and a wrap held across by friction on the abdomen, to the buckle) left at
its posture under gravity alone, restraints held as the settling holds them
(``occupant.scenario.settle.held``), at the run's step.
"""
import pathlib

import numpy as np
import pytest

from occupant.human.validation import read_scenario
from occupant.scenario.load import load
from occupant.scenario.settle import held
from occupant.simulate import simulate

G0 = 9.80665
DURATION = 0.2      # s under gravity: past the belt's runaway at 0.155-0.175 s (measured)


@pytest.mark.xfail(strict=True, reason=(
    "21.1 kN on the shoulder belt at 0.180 s against a weight of 767 N (branch gs1settle merged "
    "with main 655afeb, whose bound on a hooked held wrap's slide, lapblowup, does not reach it; "
    "23.6 kN at 0.175 s on main a8232fa): on a8232fa, from 0.155 s the abdomen wrap's held place slides across the belly (170 mm from "
    "the midline at 0.15 s, 135 at 0.170 s, -29 at 0.175 s) while the two thorax wraps roll back "
    "round the thorax's inboard flank (the shoulder wrap's x -229 -> -274 mm in B0) over nearly "
    "antipodal ends (in the kinetic-damped settling the line from the anchorage to the abdomen "
    "wrap passes 0.19-0.24 of the thorax's size from its centre, and the belt lengthens 15.6 mm "
    "in 12 ms from rest); with the abdomen wrap held fast (scratch) the belt stays under 46 N "
    "over 0.6 s of settling (scenarios/validation/HISTORY.md Stop 46, gs1settle). Cause measured "
    "(branch gravitybelt, not merged): the held abdomen wrap is placed from the chest wrap's "
    "point, the middle of the thorax run's arc, which swings far for a small move of the run's "
    "nearly antipodal ends; placed from the run's tangent point towards it, the belt peaks at "
    "48.5 N (judging the slide there alone: 19.6 kN), but the GS1 case's belt fit on the settled "
    "body then runs round the flanks and two GS1 reference tests fail (issue 11 note, stop 46)"))
def test_reference_gs1_shoulder_belt_under_gravity_carries_at_most_the_body_weight():
    """Under gravity alone no segment of the shoulder belt carries more than the occupant's whole
    weight (m g [D]: the pan and the seat back carry most of it; the belt's own retractor pulls
    10 N) over DURATION."""
    sc, path = read_scenario("human_sled_gs1_40")
    over = {"occupant.human." + k: v for k, v in sc["human"].items()}
    scenario = load(pathlib.Path(path).parent / sc["sled"], {**over, "solver.t_end": 0.001})
    model = held(scenario.model)
    res = simulate(model, DURATION, dt=1e-5, q0=scenario.q0, integrator="euler",
                   output_dt=1e-4, energy=False)
    assert res.status == "finished"
    forces = np.array([v for k, v in res.outputs.items()
                       if k.startswith("belt.") and k.endswith(".force")])
    assert len(forces) == 4
    weight = scenario.model.total_mass * G0
    print(f"largest {forces.max():.1f} N at {res.t[np.argmax(forces.max(axis=0))]:.4f} s; "
          f"weight {weight:.1f} N")
    assert forces.max() < weight
