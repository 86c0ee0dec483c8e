"""The numba cache shared by processes that compile at once (a sweep's workers, a cluster's on one
install): an entry is never loaded as another's, and an entry that cannot be loaded is compiled
again, never a traceback (usercheck9: every ``occupant certify`` failed with a KeyError in
``jit._load`` after a local pool, Dask workers and pytest had shared a worktree's cache).

numba named a new entry's data file by the first number its index left free: two processes
compiling a function for different types at once both took number 1, and where the index was
written last by one and the data by the other, the index named the other's code. The file
copies below leave the cache exactly so: the index (and data files) of a process that compiled
for floats, the data files of one that compiled for integers written over them."""
import shutil
import subprocess
import sys
import time

MODULE = '''
from numba import njit
from occupant.jit import JIT, separate

@separate
def stage(x, out):
    for i in range(x.shape[0]):
        out[i] = 3 * x[i]

@njit(**JIT)
def top(x, out):
    stage(x, out)
    return out.sum()
'''

CALL = '''
import numpy as np, cached
for dtype in {dtypes!r}:
    x = np.arange(1, 4).astype(dtype)
    print(dtype, cached.top(x, np.zeros(3, x.dtype)), sum(cached.top._cache_hits.values()))
'''


def _run(folder, *dtypes):
    """Lines printed by ``top`` of MODULE called on [1, 2, 3] of each dtype in a new process:
    dtype, result (18), cache hits of ``top`` so far."""
    path = [str(folder)] + [p for p in sys.path if p]
    done = subprocess.run([sys.executable, "-c", CALL.format(dtypes=dtypes)], capture_output=True,
                          text=True, env={"PYTHONPATH": ":".join(path), "PATH": ""}, cwd=folder)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.split("\n")[:-1]


def _cache_of(folder, dtype):
    """The cache of MODULE written in ``folder`` by a process calling ``top`` on ``dtype``."""
    folder.mkdir(exist_ok=True)
    (folder / "cached.py").write_text(MODULE)
    assert _run(folder, dtype) == [f"{dtype} 18.0 0" if "float" in dtype else f"{dtype} 18 0"]
    return folder / "__pycache__"


def test_an_index_written_by_one_process_and_data_by_another_is_never_loaded_wrong(tmp_path):
    floats = _cache_of(tmp_path / "a", "float64")
    ints = _cache_of(tmp_path / "b", "int64")
    for data in ints.glob("*.nbc"):   # the integer process's data written last, its index not
        shutil.copy(data, floats / data.name)
    # the float entry loaded (from the cache: one hit), or compiled again: never the integer code
    # (numba: a KeyError in jit._load, the stage's integer code added under its own types)
    lines = _run(tmp_path / "a", "float64", "int64")
    assert [line.rsplit(" ", 1)[0] for line in lines] == ["float64 18.0", "int64 18"]
    assert _run(tmp_path / "a", "float64", "int64") == ["float64 18.0 1", "int64 18 2"]


def test_an_index_entry_naming_another_entrys_data_is_not_cached(tmp_path):
    """(as numba's numbering left it, or a process of numba without this module wrote it)"""
    import pickle
    cache = _cache_of(tmp_path, "float64")
    _run(tmp_path, "int64")
    index = next(cache.glob("cached.stage-*.nbi"))
    version, stamp, overloads = _index(index)
    names = sorted(set(overloads.values()))
    assert len(overloads) == 2 and len(names) == 2
    crossed = dict(zip(overloads, reversed(list(overloads.values()))))
    with open(index, "wb") as f:
        pickle.dump(version, f, protocol=-1)
        f.write(pickle.dumps((stamp, crossed)))
    assert _run(tmp_path, "float64", "int64") == ["float64 18.0 1", "int64 18 2"]


def _index(path):
    import pickle
    with open(path, "rb") as f:
        version, (stamp, overloads) = pickle.load(f), pickle.loads(f.read())
    return version, stamp, overloads


def test_a_data_file_holding_another_signatures_code_is_not_loaded(tmp_path):
    """(whatever wrote it there: a file copied, a name's digest shared) The code of ``top`` for
    integers, loaded for floats, ran on the floats' bits (numba: 4604930618986332160)."""
    cache = _cache_of(tmp_path, "float64")
    _run(tmp_path, "int64")
    for index in cache.glob("*.nbi"):
        names = {repr(key[0]).count("float64") > 0: name for key, name in _index(index)[2].items()}
        shutil.copy(cache / names[False], cache / names[True])
    assert _run(tmp_path, "float64") == ["float64 18.0 0"]   # compiled again, saved again
    assert _run(tmp_path, "float64", "int64") == ["float64 18.0 1", "int64 18 2"]


def test_damaged_cached_code_is_compiled_again(tmp_path):
    cache = _cache_of(tmp_path, "float64")
    for data in cache.glob("*.nbc"):
        data.write_bytes(data.read_bytes()[:100])   # (numba: an UnpicklingError traceback)
    assert _run(tmp_path, "float64") == ["float64 18.0 0"]
    for index in cache.glob("*.nbi"):   # read when loading and when saving (numba: EOFError)
        index.write_bytes(index.read_bytes()[:40])
    assert _run(tmp_path, "float64") == ["float64 18.0 0"]
    assert _run(tmp_path, "float64") == ["float64 18.0 1"]   # saved again, whole


def test_the_cache_of_one_process_is_loaded_by_the_next(tmp_path):
    """Each data file is named by its entry: no process's entry replaces another's."""
    cache = _cache_of(tmp_path, "float64")
    assert _run(tmp_path, "int64") == ["int64 18 0"]
    assert _run(tmp_path, "float64", "int64") == ["float64 18.0 1", "int64 18 2"]
    assert len(list(cache.glob("cached.stage-*.nbc"))) == 2


STAGES = 20
MANY = ("from numba import njit\nfrom occupant.jit import JIT, separate\n"
        + "".join(f"""
@separate
def stage{k}(x, out):
    for i in range(x.shape[0]):
        out[i] = out[i] + {k + 1} * x[i]
""" for k in range(STAGES))
        + "\n@njit(**JIT)\ndef top(x, out):\n"
        + "".join(f"    stage{k}(x, out)\n" for k in range(STAGES)) + "    return out.sum()\n")

AT_ONCE = """
import sys, time, numpy as np, cached
while time.time() < float(sys.argv[1]):   # all start compiling together
    time.sleep(0.001)
for dtype in sys.argv[2:]:
    x = np.arange(1, 4).astype(dtype)
    print(dtype, cached.top(x, np.zeros(3, x.dtype)))
"""


def test_processes_compiling_at_once_for_different_types_share_the_cache(tmp_path):
    """Four processes compile MODULE's 20 stages and their caller at once, each for its own
    types, then again from what they wrote, then one loads all four. Before: in 2 of 6 such
    rounds (40 stages) a stage's index named another type's code, and the processes of the second
    start and the last one stopped with the KeyError of usercheck9 (jit._load)."""
    (tmp_path / "cached.py").write_text(MANY)
    path = [str(tmp_path)] + [p for p in sys.path if p]
    env = {"PYTHONPATH": ":".join(path), "PATH": ""}
    dtypes = ("float64", "int64", "int32", "float32")
    total = 3 * sum(range(1, STAGES + 1)) * 2   # sum of k * [1, 2, 3] over the stages
    for start in ("cold", "from the cache"):
        t0 = time.time() + 3.0
        workers = [subprocess.Popen([sys.executable, "-c", AT_ONCE, str(t0), dtype], cwd=tmp_path,
                                    env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True) for dtype in dtypes]
        for dtype, worker in zip(dtypes, workers):
            out, err = worker.communicate()
            assert worker.returncode == 0, (start, err[-2000:])
            assert float(out.split()[1]) == total, (start, out)
    done = subprocess.run([sys.executable, "-c", AT_ONCE, "0", *dtypes], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert [float(line.split()[1]) for line in done.stdout.split("\n")[:-1]] == [total] * 4
