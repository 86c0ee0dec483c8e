"""jit.call_if and the blocks' markers (bundle.MARKERS): a function behind a None marker is
neither typed nor compiled (the caller gets the fallback), behind a present one it runs; a
contact block marks exactly the pair types it holds, a belt block its held wraps, and the
step's pattern (jit.FastCall's key) tells apart bundles that differ only in their markers."""
import numpy as np
from numba import njit

from occupant.jit import JIT, JIT_STAGE, call_if
from occupant.model.bundle import (
    CONTACT_ELLIPSOID_BOX, CONTACT_ELLIPSOID_ELLIPSOID, PairKinds, pair_kinds, step_pattern,
)

NO_RESULT = (-1.0, False)


def _fresh(py_func, options):
    """A new dispatcher of ``py_func``, uncached, so that its signatures are this test's."""
    return njit(**dict(options, cache=False))(py_func)


def _double(x):
    return 2.0 * x, True


def _callee_and_caller():
    """A new callee (``_double``) and a caller of it behind a marker."""
    double = _fresh(_double, JIT_STAGE)

    def caller(marker, x):
        return call_if(marker, double, NO_RESULT, x)
    return double, _fresh(caller, JIT)


def test_a_function_behind_an_absent_marker_is_not_compiled():
    double, caller = _callee_and_caller()
    assert caller(None, 3.0) == NO_RESULT
    assert double.signatures == []


def test_a_function_behind_a_present_marker_runs():
    double, caller = _callee_and_caller()
    assert caller(1, 3.0) == (6.0, True)
    assert len(double.signatures) == 1


def test_pair_kinds_marks_the_types_present():
    kinds = pair_kinds(np.array([CONTACT_ELLIPSOID_BOX, CONTACT_ELLIPSOID_ELLIPSOID,
                                 CONTACT_ELLIPSOID_BOX]))
    assert kinds == PairKinds(plane=None, ellipsoid=1, box=1, cylinder=None, mesh=None)
    assert pair_kinds(np.zeros(0, np.int64)) == PairKinds(None, None, None, None, None)


def test_the_step_pattern_tells_apart_bundles_with_other_markers():
    from occupant.scenario import load
    bundle = load("us_ncap_frontal_56").model.bundle()
    # its bags on the default "dimple" law (marked); a model with only "lens" bags is not; its lap
    # wraps held across the belt by friction (restraints.belt.lap_across, branch lapfriction;
    # None before); the steering wheel's discs are cylinder pairs (branch roundrim; None before)
    # (contact kinds, crush groups (none in US NCAP: branch crushshare), held wraps, barrier
    # wraps, dimple bags)
    assert step_pattern(bundle)[1] == (PairKinds(None, 1, 1, 1, None), None, 1, None, 1)
    plane_only = bundle._replace(contacts=bundle.contacts._replace(
        kinds=PairKinds(1, None, None, None, None)))
    held = bundle._replace(belts=bundle.belts._replace(held=None))   # none held
    barrier = bundle._replace(belts=bundle.belts._replace(barrier=1))
    lens = bundle._replace(airbags=bundle.airbags._replace(dimple=None))   # no bag on the dimple
    grouped = bundle._replace(contacts=bundle.contacts._replace(grouped=1))   # crush groups
    assert len({step_pattern(b) for b in (bundle, plane_only, held, barrier, lens, grouped)}) == 6


def test_the_belts_mark_wraps_held_across_the_belt():
    from occupant.scenario import load
    assert load("side_barrier").model.bundle().belts.held == 1   # its held lap wraps
