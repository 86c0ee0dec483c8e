"""occupant.jit_inline: the untyped IR of an inlined function built once and copied per call site
is numba's own, each copy named apart; one inlining's block copies share one scope copy, never
another inlining's; a function inlining another twice computes as in Python."""
import numpy as np
from numba import njit
from numba.core import inline_closurecall
from numba.core.compiler import Flags
from numba.core.registry import cpu_target

import occupant.jit  # noqa: F401  (installs the patches)
from occupant import jit_inline


def _callee(a, x):
    s = 0.0
    for k in range(a.shape[0]):
        if a[k] > x:
            s += a[k] - x
        else:
            s -= 0.5 * a[k]
    return s


def _worker():
    ctx = cpu_target
    return inline_closurecall.InlineWorker(ctx.typing_context, ctx.target_context, {}, object(),
                                           Flags(), validator=None)


def _statements(func_ir):
    return {label: [str(stmt) for stmt in block.body] for label, block in func_ir.blocks.items()}


def test_installed_over_numba():
    assert inline_closurecall.InlineWorker.run_untyped_passes is jit_inline._run_untyped_passes
    assert inline_closurecall.InlineWorker.inline_ir is jit_inline._inline_ir
    assert inline_closurecall.copy is jit_inline._BLOCK_COPY


def test_untyped_ir_built_once_is_numbas_own_under_new_identities():
    numba_run = jit_inline._run_untyped_passes.__defaults__[1]
    first, second = _worker().run_untyped_passes(_callee), _worker().run_untyped_passes(_callee)
    own = numba_run(_worker(), _callee)
    assert first.func_id.unique_name != second.func_id.unique_name
    assert first.blocks is not second.blocks
    assert _statements(first) == _statements(second) == _statements(own)


def test_block_copies_share_one_scope_within_an_inlining_only():
    func_ir = _worker().run_untyped_passes(_callee)
    assert len(func_ir.blocks) > 2
    copier = jit_inline._BLOCK_COPY
    copier.reset()
    copies = [copier.deepcopy(block) for block in func_ir.blocks.values()]
    scopes = {id(block.scope) for block in copies}
    assert len(scopes) == 1 and copies[0].scope is not func_ir.blocks[0].scope
    assert copies[0].scope.localvars._con.keys() == func_ir.blocks[0].scope.localvars._con.keys()
    copier.reset()
    again = copier.deepcopy(func_ir.blocks[0])
    assert again.scope is not copies[0].scope
    copier.reset()


@njit(inline="always", cache=False)
def _inlined(a, x):
    return _callee_jit(a, x)


_callee_jit = njit(inline="always", cache=False)(_callee)


@njit(cache=False)
def _twice(a, x, y):
    return _inlined(a, x) + 2.0 * _inlined(a, y)


def test_function_inlining_another_twice_computes_as_python():
    a = np.linspace(-1.0, 2.0, 9)
    assert _twice(a, 0.25, 1.5) == _callee(a, 0.25) + 2.0 * _callee(a, 1.5)
    assert _twice(a, -3.0, 3.0) == _callee(a, -3.0) + 2.0 * _callee(a, 3.0)
