"""jit.call_compiled: a compiled caller runs a stage through the entry ``compiled_entry`` gives,
without the stage's code in its own library, refuses an entry compiled for other argument types,
and links the stage as usual when the entry is None."""
import numpy as np
import pytest
from numba import njit, types

from occupant.jit import JIT, JIT_STAGE, call_compiled, compiled_entry

VECTOR = types.float64[::1]


@njit(**JIT_STAGE)
def _scale_into(x, a, out):
    for i in range(x.shape[0]):
        out[i] = a * x[i]


@njit(**JIT)
def _caller(entry, x, a, out):
    call_compiled(_scale_into, entry, x, a, out)


def _has_stage_code(dispatcher):
    """True if the caller's compiled code holds the stage's (its multiplication, the only one)."""
    return "fmul" in next(iter(dispatcher.overloads.values())).library.get_llvm_str()


def test_the_stage_runs_through_its_entry_and_is_not_compiled_into_the_caller():
    caller = njit(**dict(JIT, cache=False))(_caller.py_func)
    out = np.zeros(3)
    caller(compiled_entry(_scale_into, VECTOR, types.float64, VECTOR), np.arange(3.0), 2.0, out)
    assert out.tolist() == [0.0, 2.0, 4.0]
    assert not _has_stage_code(caller)


def test_an_entry_for_other_argument_types_is_refused():
    entry = compiled_entry(_scale_into, VECTOR, types.int64, VECTOR)
    out = np.zeros(3)
    with pytest.raises(TypeError, match="_scale_into: compiled entry for other argument types"):
        _caller(entry, np.arange(3.0), 2.0, out)
    assert out.tolist() == [0.0, 0.0, 0.0]


def test_without_an_entry_the_stage_is_linked():
    caller = njit(**dict(JIT, cache=False))(_caller.py_func)
    out = np.zeros(2)
    caller(None, np.array([1.5, -1.0]), 4.0, out)
    assert out.tolist() == [6.0, -4.0]
    assert _has_stage_code(caller)
