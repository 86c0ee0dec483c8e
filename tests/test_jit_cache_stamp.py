"""A compiled function's cache entry is not loaded once a module it depends on has changed
(``occupant.jit.package_digest``). numba keeps an entry while its own file's modification time
and size are unchanged, but the entry holds the code of what it calls, inlined: after an edit of
the callee's module alone, a later process loaded the caller with the old callee in it (merged
main gave us_ncap_frontal_56 HIC15 462 for the shipped 375 until its cache was removed by hand).

The probe: a copy of the package with two modules of its own, ``_probe_top`` calling
``_probe_callee``'s inlined function; the callee's module is edited and the caller's is not."""
import shutil
import subprocess
import sys
from pathlib import Path

import occupant
from occupant.jit import package_digest

TOP = '''
from numba import njit
from occupant.jit import JIT
from occupant._probe_callee import scale

@njit(**JIT)
def top(x):
    return scale(x)
'''

CALLEE = '''
from numba import njit
from occupant.jit import JIT_INLINE

@njit(**JIT_INLINE)
def scale(x):
    return {factor} * x
'''

CALL = "from occupant._probe_top import top; print(top(2.0), sum(top._cache_hits.values()))"


def _package_copy(folder):
    package = Path(occupant.__file__).parent
    shutil.copytree(package, folder / "occupant",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    (folder / "occupant" / "_probe_top.py").write_text(TOP)
    return folder / "occupant"


def _run(folder):
    """``top(2.0)`` in a new process importing the copy: (result, cache hits of ``top``)."""
    path = [str(folder)] + [p for p in sys.path if p and "occupant" not in Path(p).name]
    done = subprocess.run([sys.executable, "-c", CALL], capture_output=True, text=True,
                          env={"PYTHONPATH": ":".join(path), "PATH": ""}, cwd=folder)
    assert done.returncode == 0, done.stderr[-2000:]
    value, hits = done.stdout.split()
    return float(value), int(hits)


def test_an_edit_of_a_callee_module_alone_compiles_its_caller_again(tmp_path):
    package = _package_copy(tmp_path)
    callee = package / "_probe_callee.py"
    callee.write_text(CALLEE.format(factor=3.0))
    assert _run(tmp_path) == (6.0, 0)            # compiled and saved
    assert _run(tmp_path) == (6.0, 1)            # loaded from the cache
    callee.write_text(CALLEE.format(factor=5.0))  # the caller's file untouched
    assert _run(tmp_path) == (10.0, 0)           # numba alone loaded 6.0, the old callee's code
    assert _run(tmp_path) == (10.0, 1)


def test_the_digest_follows_every_module_text_and_name(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.py").write_text("A = 1\n")
    (tmp_path / "sub" / "b.py").write_text("B = 2\n")
    first = package_digest(tmp_path)
    assert package_digest(tmp_path) == first
    (tmp_path / "sub" / "b.py").write_text("B = 3\n")
    changed = package_digest(tmp_path)
    assert changed != first
    (tmp_path / "sub" / "b.py").rename(tmp_path / "sub" / "c.py")
    renamed = package_digest(tmp_path)
    assert renamed not in (first, changed)
    (tmp_path / "notes.txt").write_text("not a module")
    assert package_digest(tmp_path) == renamed
