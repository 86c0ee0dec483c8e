"""Cheaper inlining of ``inline="always"`` functions (``jit.JIT_INLINE``) by numba 0.68.

numba inlines such a function at each call site by running its untyped passes again (bytecode
to IR, rewrites, its own inlining) and deep-copying the resulting IR twice, each block with a
deep copy of its own of the function's whole variable scope: for us_ncap_frontal_56, 117
inlinings of 49 functions, 4.2 of 33 s CPU of the cold compilation. Here the untyped IR is built
once per function and compile flags (each call site still gets its own copy, under a function
identity of its own so that its variables are named apart from another copy's, as before), and
the blocks of one IR are deep-copied with one shared memo (the scope copied once, the variables
shared between blocks as in the IR copied). The IR inlined is the same; tests/integrate/
test_jit_inline.py checks both against numba's own."""
import copy

from numba.core import bytecode, inline_closurecall, ir

_UNTYPED = {}   # (function, flags (a copy), locals) -> its IR after the untyped passes


def _run_untyped_passes(self, func, enable_ssa=False,
                        _numba_run=inline_closurecall.InlineWorker.run_untyped_passes):
    """numba's ``InlineWorker.run_untyped_passes``, the IR built once and copied (shallowly:
    ``inline_ir`` deep-copies what it changes) under a new function identity."""
    self.flags.enable_ssa = enable_ssa   # as numba's run does, to the caller's flags
    try:
        key = (func, self.flags.copy(), tuple(sorted(self.locals.items())))
        hit = _UNTYPED.get(key)
    except TypeError:   # something unhashable: as numba does
        return _numba_run(self, func, enable_ssa)
    if hit is None:
        hit = _UNTYPED[key] = _numba_run(self, func, enable_ssa)
    out = hit.copy()
    out.func_id = bytecode.FunctionIdentity.from_function(func)
    return out


class _BlockCopy:
    """``copy`` as seen by numba's inliner: within one inlining (``reset`` at its start), a deep
    copy of an IR block shares its memo with the previous block's if both belong to the same
    scope (the same IR), so that the scope and its variables are copied once per IR instead of
    once per block."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.scope, self.memo = None, {}

    def deepcopy(self, x, memo=None):
        if memo is not None or not isinstance(x, ir.Block):
            return copy.deepcopy(x, memo)
        if x.scope is not self.scope or id(x) in self.memo:
            self.scope, self.memo = x.scope, {}
        return copy.deepcopy(x, self.memo)

    copy = staticmethod(copy.copy)


_BLOCK_COPY = _BlockCopy()


def _inline_ir(self, *args, _numba_inline_ir=inline_closurecall.InlineWorker.inline_ir,
               **kwargs):
    """numba's ``InlineWorker.inline_ir``, its block copies sharing memos (``_BlockCopy``)
    within this inlining only."""
    _BLOCK_COPY.reset()
    try:
        return _numba_inline_ir(self, *args, **kwargs)
    finally:
        _BLOCK_COPY.reset()


inline_closurecall.InlineWorker.run_untyped_passes = _run_untyped_passes
inline_closurecall.InlineWorker.inline_ir = _inline_ir
inline_closurecall.copy = _BLOCK_COPY
