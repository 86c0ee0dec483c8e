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

A ``jit.JIT`` function (with a CPython wrapper, for tests and users calling it from Python) called
from compiled code is twinned the same way: numba would otherwise generate its wrapper, the boxing
of every argument, for compiled callers that never use it, and compile it with the NRT flag of
whichever caller came first. For us_ncap_frontal_56's compile jobs in one process (30 such
functions) 18.5-18.7 -> 17.3 s CPU, LLVM 6.4-6.5 -> 5.7 s (tests/benchmarks/bench_cold_compile.py,
two pairs alternated; coldstart13). A function Python also calls during a run would then be
compiled twice, a twin and itself, unless ``shared``.
"""
import types as pytypes

from numba import njit
from numba.core.registry import CPUDispatcher
from numba.core.targetconfig import ConfigStack

_numba_call_template = CPUDispatcher.get_call_template
_numba_get_overload = CPUDispatcher.get_overload


def shared(dispatcher):
    """``dispatcher`` (a ``jit.JIT`` one) compiled by itself for its compiled callers too, not by
    a twin: for a function Python also calls during a run, whose one version then serves both."""
    dispatcher._shared = True
    return dispatcher


def _twinned(dispatcher):
    """True for a dispatcher whose compiled callers call a twin: a ``jit.JIT_INLINE`` one, or a
    ``jit.JIT`` one (with a CPython wrapper, NRT as its caller) not ``shared``."""
    options = dispatcher.targetoptions
    if {"_twin_of", "_shared"} & dispatcher.__dict__.keys():
        return False
    return bool(options.get("forceinline")) or ("forceinline" in options and "_nrt" not in options
                                                 and not options.get("no_cpython_wrapper"))


def twin(dispatcher):
    """The twin that compiles ``dispatcher`` for the compiled caller being typed or lowered now
    (None: not ``_twinned``, or called from Python)."""
    caller = ConfigStack.top_or_none()
    if caller is None or not _twinned(dispatcher):
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
    """numba's, the twin's for a compiled caller of a ``_twinned`` function."""
    other = twin(self)
    return _numba_call_template(self if other is None else other, args, kws)


def _get_overload(self, sig):
    """numba's, the twin's for a compiled caller of a ``_twinned`` function."""
    other = twin(self)
    return _numba_get_overload(self if other is None else other, sig)


CPUDispatcher.get_call_template = _get_call_template
CPUDispatcher.get_overload = _get_overload
