"""Functions inlined by LLVM, not by numba (``jit.JIT_INLINE``: numba's ``forceinline``).

numba's ``inline="always"`` puts a function's IR into every caller before typing, so its body is
typed and lowered again at each call site (for us_ncap_frontal_56's cold compilation 117
inlinings of 49 functions). A ``forceinline`` function is typed and lowered once per argument
types, marked ``alwaysinline``, and LLVM inlines it into each caller that links it: the code run
is the same (results bit-identical, warm run as fast). The compile jobs of us_ncap_frontal_56 in
one process (155 functions compiled instead of 100): 32.1 -> 31.0 s CPU, mean of five pairs
alternated on a loaded machine (the front end's lowering shrinks, LLVM does ~1.3 s more: each
function's own library is optimised before its callers link it).

What numba's inlining gave for free is the caller's reference counting: an inlined body was
lowered with its caller's flags, with or without NRT (``jit.JIT_STAGE``), whereas numba compiles
a called function once per argument types, with the NRT flag of whichever caller asked first
(a function compiled without it, returning arrays to a caller with it, would hand them over
uncounted). So a ``forceinline`` function called from compiled code is compiled by one of two
twins, with and without NRT, as its caller; neither has a CPython wrapper (only compiled code
calls them); the function itself keeps its wrapper for calls from Python. A twin compiles a copy
of the function named ``<name>.nrt`` or ``<name>.borrowing``, so that each is cached apart.
"""
import types as pytypes

from numba import njit
from numba.core.registry import CPUDispatcher
from numba.core.targetconfig import ConfigStack

_numba_call_template = CPUDispatcher.get_call_template
_numba_get_overload = CPUDispatcher.get_overload


def twin(dispatcher):
    """The twin that compiles ``dispatcher`` for the compiled caller being typed or lowered now
    (None: not a ``forceinline`` dispatcher, a twin itself, or called from Python)."""
    caller = ConfigStack.top_or_none()
    if caller is None or not dispatcher.targetoptions.get("forceinline") \
            or "_twin_of" in dispatcher.__dict__:
        return None
    twins = dispatcher.__dict__.setdefault("_twins", {})
    nrt = bool(caller.nrt)
    found = twins.get(nrt)
    if found is None:
        f = dispatcher.py_func
        copy = pytypes.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__,
                                    f.__closure__)
        copy.__kwdefaults__, copy.__doc__ = f.__kwdefaults__, f.__doc__
        copy.__qualname__ = f"{f.__qualname__}.{'nrt' if nrt else 'borrowing'}"
        options = dict(dispatcher.targetoptions, no_cpython_wrapper=True, _nrt=nrt)
        options.pop("nopython", None)
        found = twins[nrt] = njit(cache=dispatcher._cache.__class__.__name__ != "NullCache",
                                  **options)(copy)
        found._twin_of = dispatcher
    return found


def _get_call_template(self, args, kws):
    """numba's, the twin's for a compiled caller of a ``forceinline`` function."""
    other = twin(self)
    return _numba_call_template(self if other is None else other, args, kws)


def _get_overload(self, sig):
    """numba's, the twin's for a compiled caller of a ``forceinline`` function."""
    other = twin(self)
    return _numba_get_overload(self if other is None else other, sig)


CPUDispatcher.get_call_template = _get_call_template
CPUDispatcher.get_overload = _get_overload
