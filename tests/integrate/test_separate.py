"""jit.separate: a compiled caller calls the stage by name, without the stage's code in its own
library, and a caller loaded from the JIT cache in a new process finds the stage, also when it
reaches it through a function linked into it that was itself loaded from the cache."""
import subprocess
import sys
import textwrap

import numpy as np
from numba import njit

from occupant.jit import JIT, separate

MODULE = '''
from numba import njit
from occupant.jit import JIT, separate
from occupant.jit_inline import shared

@separate
def stage(x, out):
    for i in range(x.shape[0]):
        out[i] = 3.0 * x[i]
    return x.shape[0]

@shared   # the very version compiled and cached for Python, linked into top (not a twin)
@njit(**JIT)
def middle(x, out):   # calls the stage; linked into top
    return stage(x, out) + 1

@njit(**JIT)
def top(x, out):
    return middle(x, out) + 10
'''


@separate
def _tripled(x, out):
    for i in range(x.shape[0]):
        out[i] = 3.0 * x[i]


def _caller(x, out):
    _tripled(x, out)


def test_the_caller_runs_the_stage_without_its_code():
    caller = njit(**dict(JIT, cache=False))(_caller)
    out = np.zeros(3)
    caller(np.array([1.0, -2.0, 0.5]), out)
    assert out.tolist() == [3.0, -6.0, 1.5]
    ir = next(iter(caller.overloads.values())).library.get_llvm_str()
    assert "fmul" not in ir   # the stage's multiplication, its only one
    assert "@occupant.stage." in ir and "_tripled" in ir


def _run(folder, call):
    """Output of ``call`` (``top`` or ``middle`` of MODULE on [1, 2]) in a new process."""
    code = textwrap.dedent(f"""
        import numpy as np, cached
        out = np.zeros(2)
        print(cached.{call}(np.array([1.0, 2.0]), out), out.tolist())
    """)
    path = [str(folder)] + [p for p in sys.path if p]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"PYTHONPATH": ":".join(path), "PATH": ""}, cwd=folder)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_cached_callers_find_the_stage_in_a_new_process(tmp_path):
    (tmp_path / "cached.py").write_text(MODULE)
    # middle compiled and cached; then top compiled in a new process, linking middle loaded from
    # the cache; then top loaded from the cache in a third one, where nothing else is loaded yet
    assert _run(tmp_path, "middle") == "3 [3.0, 6.0]"
    assert _run(tmp_path, "top") == "13 [3.0, 6.0]"
    assert _run(tmp_path, "top") == "13 [3.0, 6.0]"
    cached = sorted(p.name.split("-")[0] for p in (tmp_path / "__pycache__").glob("*.nbi"))
    assert cached == ["cached.middle", "cached.stage", "cached.top"]
