"""occupant.jit_inline: a JIT_INLINE function called from compiled code is compiled by the twin
with its caller's NRT flag (without a CPython wrapper, cached under a name of its own), marked
alwaysinline and inlined by LLVM into its caller; called from Python it is itself, with its
wrapper; either way it computes as in Python.

The functions here are not cached: callers loaded from a warm cache would type nothing, so no
twin would be made and the second run of this file against the same cache would fail."""
import numpy as np
import pytest
from numba import njit

from occupant import jit_inline
from occupant.jit import JIT, JIT_INLINE, JIT_LOOP


def _scaled(a, x):
    s = 0.0
    for k in range(a.shape[0]):
        s += a[k] * x if a[k] > 0.0 else -0.5 * a[k]
    return s


scaled = njit(**dict(JIT_INLINE, cache=False))(_scaled)


@njit(**dict(JIT_LOOP, cache=False))   # without NRT
def _borrowing_caller(a):
    return scaled(a, 2.0) + scaled(a, 3.0)


@njit(**dict(JIT, cache=False))   # with NRT
def _counting_caller(a):
    return scaled(a[1:], 2.0)


def test_twins_with_their_callers_nrt_flag():
    a = np.array([1.0, -2.0, 3.0, 0.5])
    assert _borrowing_caller(a) == _scaled(a, 2.0) + _scaled(a, 3.0)
    assert _counting_caller(a) == _scaled(a[1:], 2.0)
    twins = scaled._twins
    assert set(twins) == {False, True}
    for nrt, twin in twins.items():
        assert twin._twin_of is scaled
        assert twin.targetoptions["_nrt"] is nrt and twin.targetoptions["no_cpython_wrapper"]
        assert twin.targetoptions["forceinline"]
        assert twin.py_func.__qualname__ == "_scaled." + ("nrt" if nrt else "borrowing")
        assert twin.py_func.__code__ is _scaled.__code__
    # compiled once per argument types, whatever the number of call sites
    assert len(twins[False].signatures) == 1
    assert not scaled.signatures   # the function itself compiled nothing for compiled callers
    assert scaled(a, 2.0) == _scaled(a, 2.0)   # from Python: itself, with its wrapper
    assert len(scaled.signatures) == 1


def test_inlined_by_llvm():
    a = np.ones(3)
    _borrowing_caller(a)
    twin = scaled._twins[False]
    cres = twin.overloads[twin.signatures[0]]
    fn = cres.library._final_module.get_function(cres.fndesc.llvm_func_name)
    assert any(b"alwaysinline" in attribute for attribute in fn.attributes)
    caller = _borrowing_caller.overloads[_borrowing_caller.signatures[0]]
    # the twin's module is optimised only where it is inlined (jit_codegen), the caller's is
    assert cres.library._unoptimized and not getattr(caller.library, "_unoptimized", False)
    body = caller.library.get_llvm_str()
    name = cres.fndesc.llvm_func_name
    assert f"call i32 @{name}" not in body and f'call i32 @"{name}"' not in body


def test_not_forceinline_left_alone():
    assert jit_inline.twin(_borrowing_caller) is None
    assert jit_inline.twin(scaled) is None   # called from Python: no compiled caller


plain = njit(**dict(JIT, cache=False))(_scaled)   # a JIT function: with a CPython wrapper


@njit(**dict(JIT_LOOP, cache=False))
def _plain_caller(a):
    return plain(a, 2.0)


def test_jit_function_twinned_without_wrapper():
    a = np.array([1.0, -2.0, 3.0])
    assert _plain_caller(a) == _scaled(a, 2.0)
    twin = plain._twins[False]
    assert twin.targetoptions["no_cpython_wrapper"] and not twin.targetoptions["forceinline"]
    assert len(twin.signatures) == 1 and not plain.signatures
    cres = twin.overloads[twin.signatures[0]]
    with pytest.raises(NameError):   # no wrapper generated
        cres.library._final_module.get_function(cres.fndesc.llvm_cpython_wrapper_name)
    assert plain(a, 2.0) == _scaled(a, 2.0)   # from Python: itself, with its wrapper


common = jit_inline.shared(njit(**dict(JIT, cache=False))(_scaled))


@njit(**dict(JIT_LOOP, cache=False))
def _common_caller(a):
    return common(a, 2.0)


def test_shared_not_twinned():
    a = np.array([1.0, -2.0, 3.0])
    assert _common_caller(a) == _scaled(a, 2.0)
    assert not getattr(common, "_twins", None) and len(common.signatures) == 1
    assert common(a, 2.0) == _scaled(a, 2.0)   # the same version, with its wrapper
    assert len(common.signatures) == 1
