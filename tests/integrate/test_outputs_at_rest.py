"""``fixed_step.outputs_at_rest`` keeps one bundle, Data and Recording for the model it was last
called with (branch benchpy: new records cost their typing and layout at each of a belt fit's
calls): its outputs are those of new records, whatever the order of the calls and models."""
import copy

import numpy as np

from occupant.integrate.events import never
from occupant.integrate.fixed_step import outputs_at_rest, run_euler
from occupant.integrate.pipeline import make_recording
from occupant.modeling import Assembly, Ellipsoid, Joint, Marker, Part, Pose
from occupant.modeling.belts import Anchor, Belt, Webbing, Wrap
from occupant.restraints import fit_belts


def _torso(pretension, stiffness):
    """A belt from an anchor round an ellipsoid on a vertical slider to a buckle (the GS1
    shoulder belt's geometry, tests/restraints/test_belt_wraps.py); ``stiffness`` N per unit
    strain."""
    asm = Assembly("carrier")
    asm.add(Part("body", 30.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("slide", "prismatic", None, "body", Pose(rotation=np.eye(3))))
    asm.add(Marker("centre", "body"))
    asm.add(Ellipsoid("thorax", "centre", (0.123, 0.189, 0.122)))
    asm.add(Belt("belt", [Anchor("d_ring", (-0.283, -0.239, 0.136)), Wrap("shoulder", "thorax"),
                          Wrap("chest", "thorax"), Anchor("buckle", (0.086, 0.070, -0.701))],
                 Webbing([(0.0, 0.0), (0.1, 0.1 * stiffness)]), pretension=pretension))
    return asm.compile()


def _with_new_records(model, q, z):
    """outputs_at_rest as it was: a new bundle, Data and Recording."""
    y = np.concatenate([np.asarray(q, float), np.zeros(model.nv), np.asarray(z, float)])
    rec = make_recording(model, 1)
    run_euler(model.bundle(), model.make_data(), 0, y, 1.0, 0, 1, rec, True, (never,),
              np.zeros(1), np.ones(1), np.zeros((2, len(y))))
    return rec.outputs[0]


def test_identity_outputs_at_rest_with_kept_records_equal_those_of_new_records():
    a, b = _torso(10.0, 160000.0), _torso(200.0, 80000.0)
    c = copy.copy(a)   # a's blocks but its belts, b's
    c.belts = b.belts
    z = {m: fit_belts(m, [0.0]) for m in (a, b, c)}
    calls = [(a, 0.0), (a, 0.004), (b, 0.004), (a, 0.004), (c, 0.004), (a, -0.003), (a, -0.003),
             (b, 0.0), (c, 0.0)]
    seen = []
    for m, q in calls:
        got = outputs_at_rest(m, [q], z[m])
        assert np.array_equal(got, _with_new_records(m, [q], z[m]))
        seen.append(got)
    assert not np.array_equal(seen[1], seen[2]) and not np.array_equal(seen[3], seen[4])
    seen[0][:] = np.nan   # a copy: the kept Recording is the caller's no more
    assert np.array_equal(outputs_at_rest(a, [0.0], z[a]), _with_new_records(a, [0.0], z[a]))
    before = outputs_at_rest(a, [0.004], z[a])
    a.belts = b.belts   # the same model object with another block: its bundle is made again
    after = outputs_at_rest(a, [0.004], z[a])
    assert np.array_equal(after, _with_new_records(a, [0.004], z[a]))
    assert not np.array_equal(before, after)
