"""jit's remembered call typing (``BaseFunction.get_call_type``): a repeated resolution returns
numba's own signature and restores the implementation key it recorded, the compile flags are
part of the key, a failed resolution still raises, and compiled code is unchanged by it."""
import operator

import numpy as np
import pytest
from numba import njit, types
from numba.core import errors
from numba.core.compiler import Flags
from numba.core.registry import cpu_target
from numba.core.targetconfig import ConfigStack
from numba.core.types.functions import BaseFunction

from occupant import jit


def numba_resolution(fnty, context, args):
    """numba's own resolution, without the memo."""
    return jit._get_call_type.__defaults__[0](fnty, context, args, {})


def test_installed_over_numba():
    assert BaseFunction.get_call_type is jit._get_call_type


def test_repeat_returns_numba_signature_and_implementation():
    context = cpu_target.typing_context
    context.refresh()
    add = context.resolve_value_type(operator.add)
    args = (types.float64[::1], types.float64)
    first = context.resolve_function_type(add, args, {})
    impl = add._impl_keys[first.args]
    add._impl_keys[first.args] = "overwritten"   # what another resolution could leave there
    again = context.resolve_function_type(add, args, {})
    assert add._impl_keys[first.args] is impl
    assert again == first == numba_resolution(add, context, args)
    assert any(k[0] is add and k[2] == args for k in jit._CALL_TYPES)


def test_flags_are_part_of_the_key():
    context = cpu_target.typing_context
    context.refresh()
    mul = context.resolve_value_type(operator.mul)
    args = (types.int64, types.float64)
    plain, numpy_errors = Flags(), Flags()
    numpy_errors.error_model = "numpy"
    for flags in (plain, numpy_errors):
        with ConfigStack().enter(flags):
            assert (context.resolve_function_type(mul, args, {})
                    == numba_resolution(mul, context, args) == types.float64(types.float64,
                                                                              types.float64))
    assert len([k for k in jit._CALL_TYPES if k[0] is mul and k[2] == args]) >= 2


def test_failed_resolution_raises_every_time():
    context = cpu_target.typing_context
    context.refresh()
    add = context.resolve_value_type(operator.add)
    args = (types.unicode_type, types.float64)
    for _ in range(2):
        with pytest.raises(errors.TypingError):
            add.get_call_type(context, args, {})
    assert not any(k[0] is add and k[2] == args for k in jit._CALL_TYPES)


def test_compiled_results_match_python():
    def kernel(a, i, x):
        s = 0.0
        for k in range(a.shape[0]):
            s += a[k] * x + a[i] - np.sqrt(abs(a[k]))
        return s

    a = np.linspace(-2.0, 3.0, 7)
    compiled = njit(**dict(jit.JIT, cache=False))(kernel)
    assert compiled(a, 2, 0.3) == kernel(a, 2, 0.3)
    assert compiled(a, 0, -1.5) == kernel(a, 0, -1.5)
