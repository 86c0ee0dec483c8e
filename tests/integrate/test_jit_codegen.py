"""jit_codegen: a stage only ever linked into its callers has no code of its own emitted; its
callers compute the same; its address asked for, its code is emitted (and cached as such); in a
new process a caller compiled against it loaded from the cache (as its module) links it, and a
stage called by address loaded from the cache is usable."""
import subprocess
import sys
import textwrap

MODULE = '''
import numpy as np
from numba import njit
from occupant.jit import JIT, JIT_STAGE, call_compiled, compiled_entry

@njit(**JIT_STAGE)
def stage(x, out):
    for i in range(x.shape[0]):
        out[i] = 3.0 * x[i] - 1.0

@njit(**JIT)
def top(x, out):
    stage(x, out)
    return out.sum()

@njit(**JIT)
def by_address(entry, x, out):
    call_compiled(stage, entry, x, out)
    return out.sum()
'''


def _run(folder, code):
    """The last line ``code`` prints, run in a new process beside MODULE (``cached``)."""
    path = [str(folder)] + [p for p in sys.path if p]
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env={"PYTHONPATH": ":".join(path), "PATH": ""}, cwd=folder)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1]


def test_a_linked_only_stage_is_emitted_only_when_its_address_is_asked_for(tmp_path):
    (tmp_path / "cached.py").write_text(MODULE)
    first = _run(tmp_path, """
        import numpy as np, cached
        from numba import typeof
        from occupant.jit import compiled_entry
        x, out = np.array([1.0, 2.0]), np.zeros(2)
        total = cached.top(x, out)
        lib = cached.stage.overloads[(typeof(x), typeof(out))].library
        print(total, out.tolist(), lib._pending)
        entry = compiled_entry(cached.stage, typeof(x), typeof(out))
        print(total, out.tolist(), cached.by_address(entry, x, np.zeros(2)), lib._pending,
              entry[0] != 0)
    """)
    assert first == "7.0 [2.0, 5.0] 7.0 False True"
    # the stage was cached as object code once its address was asked for: a new process loads
    # it, a new caller links it, and its address calls it
    again = _run(tmp_path, """
        import numpy as np, cached
        from numba import typeof
        from occupant.jit import compiled_entry
        x, out = np.array([1.0, 2.0]), np.zeros(2)
        entry = compiled_entry(cached.stage, typeof(x), typeof(out))
        print(sum(cached.stage._cache_hits.values()), cached.by_address(entry, x, out),
              out.tolist())
    """)
    assert again == "1 7.0 [2.0, 5.0]"


def test_a_stage_cached_before_its_code_is_linked_from_the_cache(tmp_path):
    (tmp_path / "cached.py").write_text(MODULE)
    assert _run(tmp_path, """
        import numpy as np, cached
        print(cached.top(np.array([1.0, 2.0]), np.zeros(2)))
    """) == "7.0"
    # a new caller in a new process: the stage comes from the cache as its module, lazy
    assert _run(tmp_path, """
        import numpy as np, cached
        from numba import typeof
        from occupant.jit import compiled_entry
        x, out = np.array([1.0, 2.0]), np.zeros(2)
        lib_hits = cached.stage._cache_hits
        cached.stage.compile((typeof(x), typeof(out)))
        lib = cached.stage.overloads[(typeof(x), typeof(out))].library
        unoptimized = lib._unoptimized   # cached before its code was emitted: as lowered
        entry = compiled_entry(cached.stage, typeof(x), typeof(out))
        print(sum(lib_hits.values()), cached.by_address(entry, x, out), out.tolist(),
              unoptimized, lib._unoptimized)
    """) == "1 7.0 [2.0, 5.0] True False"


def test_a_cache_that_cannot_be_written_is_said_once_and_the_code_runs(tmp_path):
    """(usercheck9) A full disk or a quota while the compiled code was cached stopped the run
    with "occupant: error: [Errno 27] File too large", no file named, before anything was
    written (a sweep's every variant alike). The save failing is said once, naming the cache
    folder, and the code runs; a new process finds nothing cached and compiles again."""
    (tmp_path / "cached.py").write_text(MODULE)
    said = _run(tmp_path, """
        import errno, warnings
        import numpy as np
        import occupant.jit_codegen as codegen

        def full(*args):
            raise OSError(errno.ENOSPC, "No space left on device")
        codegen._numba_save = full
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import cached
            total = cached.top(np.array([1.0, 2.0]), np.zeros(2))
        print(total, len(caught), str(caught[0].message) if caught else "")
    """)
    assert said == (f"7.0 1 the compiled code could not be cached in {tmp_path / '__pycache__'}: No space left "
                    "on device; it is compiled again in each new process")
    assert _run(tmp_path, """
        import numpy as np, cached
        print(cached.top(np.array([1.0, 2.0]), np.zeros(2)), sum(cached.top._cache_hits.values()))
    """) == "7.0 0"
