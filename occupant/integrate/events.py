"""Event functions g(t, y) evaluated inside the compiled fixed-step loops.

A compiled loop checks every event's g after each step through a first-class numba function of
the signature ``GUARD_SIGNATURE`` (t, pointer to y, len(y)) -> g; it stops at the first step over
which an event's g changes sign in its direction, and the driver then locates the event, applies
its handler and restarts (``simulate._run_compiled``). ``compile_event_function`` turns an
ordinary ``g(t, y)`` into such a function when numba can compile it; runs whose events cannot be
compiled use the Python driver (``driver.solve``) instead.
"""
import warnings

from numba import carray, cfunc, njit, types
from numba.core.errors import NumbaError, NumbaExperimentalFeatureWarning

GUARD_SIGNATURE = types.float64(types.float64, types.CPointer(types.float64), types.int64)

# first-class functions are marked experimental in numba; they are what lets one compiled loop
# call any event function without being compiled again for each
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)


@cfunc(GUARD_SIGNATURE, cache=True)
def never(t, y, n):
    """The event of a run without events: g never changes sign."""
    return 1.0


def compile_event_function(function):
    """``function(t, y) -> float`` as a compiled guard, or None when numba cannot compile it."""
    try:
        g = njit(function)

        @cfunc(GUARD_SIGNATURE)
        def guard(t, y, n):
            return g(t, carray(y, (n,)))
    except (NumbaError, TypeError, ValueError):
        return None
    return guard
