"""A run's first compilation in two processes (issue 13: the first run of a fresh install).

The kernels a run compiles are mostly independent: each force producer, the step stages the
compiled loops call by address (``jit.call_compiled``) and the RNEA of the sensors. Before the
run, ``ahead`` splits those missing from numba's on-disk cache between this process and one
worker process (a fresh interpreter, ``serve``), each compiling its share into the cache; the run
then loads them from there, as a second run would. numba's own cache locator decides where the
cache lives (beside the sources, or the user's cache directory for a read-only install), so the
worker writes where the run reads. Nothing depends on the worker: whatever it did not compile
(it failed, was slow or could not start) the run compiles itself, as without it; the compiled
code is the same whichever process compiled it (no fastmath, ``jit``).

Two processes saving overloads of one function at once could give two signatures the same data
file (numba names it by the first free number in the index each has just read): the worker's
files are numbered from ``WORKER_FILES`` on, so that an index names only files holding its own
signature's code (at worst an index loses an entry, compiled again when next needed).
``OCCUPANT_COMPILE_PROCESSES=1`` turns the worker off; a process of a pool (a sweep's workers)
starts none, its siblings already using the cores.

A command that is about to load a model calls ``standby`` first: on an empty cache the worker is
started then, so that its start (a new interpreter importing numba and the compiled modules,
~1.5 s) overlaps the model's loading instead of delaying its first job. A scenario hands it its
jobs (``early``) as soon as its model is built, so that it compiles while the posture is fitted
(~1-2 s on a first run); ``ahead`` compiles this process's share when the run needs them (else,
nothing handed early, it hands the worker its share then). The split is the one whose estimated
end is the earliest (``split``).
"""
import atexit
import contextlib
import gc
import multiprocessing
import os
import pickle
import select
import subprocess
import sys

from numba import typeof, types

# s CPU of each job's cold compilation in us_ncap_frontal_56, to split the work evenly: measured
# in the two processes of a cold ``occupant run`` (this machine, loaded, median of two to five
# runs with each job on either side: a job compiles its callees that the other process compiled;
# coldstart10); the RK4 jobs from tests/benchmarks/bench_cold_compile.py before the typing memo
# (jit._get_call_type); other producers ~1 s; normalize_quaternions 0.16-0.44 s in this process
# (coldstart11); _relax_euler 0.40-0.41 s in this process, its stages compiled (settleloop).
COST = dict(belts=10.4, contacts=5.9, _euler_advance=4.7, loads=2.0, _rk4_advance=10.8,
            _run_euler=0.5, _run_rk4=0.4, _relax_euler=0.4, airbags=2.7, rnea=1.3,
            joint_resistance=0.7, normalize_quaternions=0.3)
WORKER_FILES = 1000   # first number of the cache files the worker writes
TIMEOUT = 600.0       # s without news from the worker after which it is stopped
# s CPU the worker given its jobs ``early`` starts before this process: a scenario's load after
# its model is built (neck bracket and posture fit, the latter compiling the forward kinematics:
# ~1.5 s CPU on a first run) less the worker's start not over then (a new interpreter importing
# numba and the compiled modules) [E from timelines of cold us_ncap_frontal_56 runs: the worker
# had its jobs 2.0 s wall before this process's ``ahead`` on a loaded machine; coldstart10]
HEAD_START = 1.0


def jobs(model, loop):
    """[(name, dispatcher, argument types, names it needs first)] a run of ``model`` whose
    compiled ``loop`` is ``loop`` (``fixed_step.run_euler``, ``run_rk4``, ``relax_euler`` for
    the settling, or None) compiles:
    the producers of its families, the loop and its stages (and the Euler loop's, which fitting
    the belts runs), the sensors' RNEA and the quaternions' normalisation of the initial state."""
    from occupant.dynamics.rnea import rnea
    from occupant.integrate.fixed_step import loop_types, run_euler, stage_types
    from occupant.integrate.pipeline import PRODUCERS, make_recording, producer_view
    from occupant.model.data import RneaData, view
    from occupant.model.joint_motion import normalize_quaternions
    bundle, data = model.bundle(), model.make_data()
    bundle_t, data_t, vector = typeof(bundle), typeof(data), types.float64[::1]
    out = [(family, producer, (producer_view(bundle_t, family), data_t, types.float64,
                               vector, vector, vector), ())
           for family, producer in PRODUCERS.items() if getattr(bundle, family) is not None]
    producers = tuple(name for name, *_ in out)
    rec = make_recording(model, 1)
    # fitting the belts runs the Euler loop (fixed_step.outputs_at_rest), whatever the integrator
    loops = dict.fromkeys([loop] + ([run_euler] if bundle.belts is not None else []))
    for each in (lp for lp in loops if lp is not None):
        for stage, argtypes in stage_types(each, bundle, data, rec):
            if any(job[1] is stage and job[2] == argtypes for job in out):
                continue   # the Euler stages, of both the settling's loop and run_euler
            name = stage.py_func.__name__
            # loads and the RK4 stage call the producers (compiled first, else compiled here
            # too); the Euler stage calls loads by address
            out.append((name, stage, argtypes, producers if name != "_euler_advance" else ()))
        compiled, argtypes = loop_types(each, bundle, data, rec)
        out.append((compiled.py_func.__name__, compiled, argtypes, ()))   # stages by address
    out.append(("rnea", rnea, (typeof(model.tree), typeof(view(RneaData, data)), vector, vector,
                               vector), ()))
    # the state's quaternions made unit from Python (integrate.system: the initial state)
    out.append(("normalize_quaternions", normalize_quaternions, (typeof(model.tree), vector), ()))
    return out


_CACHED = set()   # (dispatcher, argument types) found in the cache by this process


def _cached(dispatcher, argtypes):
    """True if numba's cache holds ``dispatcher`` for ``argtypes`` (or it is compiled here)."""
    if argtypes in dispatcher.overloads or (dispatcher, argtypes) in _CACHED:
        return True
    cache = getattr(dispatcher, "_cache", None)
    try:
        key = cache._index_key(argtypes, dispatcher.targetctx.codegen())
        if key in cache._cache_file._load_index():
            _CACHED.add((dispatcher, argtypes))
            return True
        return False
    except Exception:   # no cache (NullCache), or numba's internals moved: compile as usual
        return cache is None or type(cache).__name__ == "NullCache"


def order(todo):
    """The jobs in the order a process compiles them: the producers, then the rest, the
    costliest first; the jobs needing others last."""
    from occupant.integrate.pipeline import PRODUCERS
    return sorted(todo, key=lambda j: (bool(j[3]), j[0] not in PRODUCERS, -COST.get(j[0], 1.0)))


def split(todo, head=0.0):
    """(this process's jobs, the worker's), each in ``order``: of the splits that keep every
    job needing others in this process, the one whose estimated end (``COST``) is the earliest,
    this process waiting for the worker's share of the jobs it needs; ``head``: s the worker
    starts before this process. A few jobs (8 for us_ncap_frontal_56): every split is tried.
    (A greedy split, which did not see the wait, left this process ~3 s CPU more than the
    worker in us_ncap_frontal_56.)"""
    free = order(job for job in todo if not job[3])
    needing = [job for job in todo if job[3]]
    best = None
    for pick in range(2 ** len(free)):
        theirs = [job for k, job in enumerate(free) if pick >> k & 1]
        mine = [job for k, job in enumerate(free) if not pick >> k & 1] + needing
        done, t = {}, -head
        for job in theirs:
            t += COST.get(job[0], 1.0)
            done[job[0]] = t
        end = 0.0
        for job in mine:
            end = max([end] + [done.get(name, 0.0) for name in job[3]]) + COST.get(job[0], 1.0)
        key = (max(end, t), len(theirs))
        if best is None or key < best[0]:
            best = key, mine, theirs
    return best[1], best[2]


def _off():
    """True where no worker is started: turned off, or in a process of a pool (a sweep's),
    whose siblings compile too."""
    return os.environ.get("OCCUPANT_COMPILE_PROCESSES") == "1" or multiprocessing.parent_process()


_STANDBY = []   # the worker ``standby`` started, until ``ahead`` takes it


def cold():
    """True if numba's cache holds no compiled loop for this version of the code (a first run,
    on a fresh install or after an update: tens of seconds of compiling ahead)."""
    from occupant.integrate.fixed_step import _run_euler
    return _never_compiled(_run_euler)


def standby():
    """Start the worker now, before the model exists, if the cache is ``cold`` (a first run: a
    later one would find its jobs cached and have started its worker for nothing); ``ahead``
    gives it its jobs."""
    if _off() or _STANDBY or not cold():
        return
    with contextlib.suppress(Exception):   # (as before: a worker that cannot start, no standby)
        _STANDBY.append(_Worker(None))
        # not left compiling (given its jobs ``early``) if this process ends before ``ahead``
        atexit.register(lambda: _STANDBY and _STANDBY.pop().stop())


def early(model, loop):
    """Give the worker on standby its share of the jobs of ``model`` with ``loop`` now, while
    this process goes on loading (a scenario's posture fit, ~1 s on a first run); ``ahead``
    compiles this process's share, and whatever else is missing, when the run needs them.
    Nothing if no worker is on standby, or it was given its jobs already."""
    if _off() or not _STANDBY or _STANDBY[0].given:
        return
    todo = [job for job in jobs(model, loop) if not _cached(job[1], job[2])]
    _, theirs = split(todo, head=HEAD_START)
    if theirs:
        _STANDBY[0].give(theirs)


def _never_compiled(dispatcher):
    """True if numba's cache holds no version of ``dispatcher`` and none is compiled here (an
    implicit integrator's loop, compiled for the model when the run starts: one whose cache
    holds another model's version is not told apart from a warm one)."""
    if dispatcher.overloads:
        return False
    try:
        return not dispatcher._cache._cache_file._load_index()
    except Exception:   # no cache (NullCache), or numba's internals moved: say nothing
        return False


def ahead(model, loop, others=()):
    """Compile what a run of ``model`` with ``loop`` needs, here and in one worker process (the
    one ``standby`` started, else a new one): the jobs it was given ``early`` (those of the
    same argument types) left to it, the rest compiled here; else the jobs split. When any is
    missing from the cache, or ``others`` (dispatchers the run compiles itself: the implicit
    loop) were never compiled, the current Progress says so (``occupant.progress.compiling``)."""
    from occupant.progress import compiling, current
    waiting = _STANDBY.pop() if _STANDBY else None
    off = _off()
    if off and current() is None:
        return
    todo = [job for job in jobs(model, loop) if not _cached(job[1], job[2])]
    if todo or any(_never_compiled(d) for d in others):
        compiling()
    if off:
        return
    if waiting is not None and waiting.given:
        mine, worker = [job for job in order(todo) if (job[0], job[2]) not in waiting.given], waiting
    else:
        mine, theirs = split(todo)
        if not theirs:
            if waiting is not None:
                waiting.stop()
            return
        worker = waiting if waiting is not None and waiting.give(theirs) else _Worker(theirs)
    try:
        with frozen_heap():
            for name, dispatcher, argtypes, needs in mine:
                worker.wait_for(needs)
                compile_job(dispatcher, argtypes)
        # all it was given: jobs given early for another loop are needed later in the run
        worker.wait_for([name for name, _ in worker.given])
    finally:
        worker.stop()


def compile_job(dispatcher, argtypes):
    """Compile a job, its code emitted and cached as such (a stage called by address is
    otherwise cached before its address is asked for, ``jit_codegen``, and a later run would
    emit its code again on every start)."""
    from occupant.jit_codegen import materialize
    dispatcher.compile(argtypes)
    materialize(dispatcher.overloads[argtypes].library)


def _refreeze(phase, info):
    """After a full collection, its survivors frozen too (``frozen_heap``)."""
    if phase == "stop" and info["generation"] == 2:
        gc.freeze()


@contextlib.contextmanager
def frozen_heap():
    """The objects alive on entry, and those surviving a full collection, left out of the garbage
    collector's later full collections until exit: compiling allocates millions of objects, each
    full collection triggered then went through the whole heap of the imported libraries (30
    collections, 4.3 of a cold run's 48 s CPU in one process), and without the survivors
    refrozen, through numba's caches and compiled functions grown since (us_ncap_frontal_56's
    cold ``ahead`` in the run's process: 8 full collections, 0.50 -> 0.17 s; the process's
    collections in all 0.88 -> 0.46 s [measured, coldstart13]). Garbage among the survivors
    waits for the first full collection after exit."""
    gc.freeze()
    gc.callbacks.append(_refreeze)
    try:
        yield
    finally:
        gc.callbacks.remove(_refreeze)
        gc.unfreeze()


class _Worker:
    """The worker process (a new interpreter: ``serve``) and what it reported: ``reports``, the
    job names in order (``!name``: failed); ``pending``, those still awaited (none once it ended
    or fell silent). Started with its jobs, or with None and given them later (``give``).

    No thread reads its reports: this process reads them when it waits for them (``wait_for``),
    so that it stays free to fork (the report's process, occupant.scenario.report_ahead, forks
    only without other threads: a reader thread kept it from forking on every first run).
    (A fork of this process as the worker, its modules imported already, was tried: no faster
    over alternated cold runs, its copy-on-write faults costing what the imports saved.)"""

    def __init__(self, jobs):
        self.pending, self.reports, self.ended = set(), [], False
        self.given = set()   # (name, argument types) of the jobs it was given
        self.inbox, self._unread = None, b""
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", "from occupant.integrate.precompile import serve; serve()"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        except OSError:
            self.process, self.ended = None, True
            return
        self.inbox = self.process.stdin
        if jobs is not None:
            self.give(jobs)

    def give(self, jobs):
        """Send the worker its jobs; False if it cannot take them (it ended, or never started)."""
        payload = pickle.dumps([(name, d.py_func.__module__, d.py_func.__name__, argtypes)
                                for name, d, argtypes, _ in jobs])
        if self.ended or self.inbox is None:
            return False
        self.pending = {name for name, *_ in jobs}
        self.given = {(name, argtypes) for name, _, argtypes, _ in jobs}
        try:
            self.inbox.write(payload)
            self.inbox.close()
        except (OSError, ValueError):   # it ended (a broken pipe), or was given jobs already
            self.pending, self.given = set(), set()
            return False
        return True

    def _hear(self, timeout):
        """Read what the worker reported within ``timeout`` s (a line per job; at its end,
        nothing more is awaited); False if it was silent. (Without ``poll``, as on Windows,
        the read waits as long as the worker is silent.)"""
        news = self.process.stdout.fileno()
        if hasattr(select, "poll"):   # (select.select fails on a descriptor numbered >= 1024)
            waiting = select.poll()
            waiting.register(news, select.POLLIN)
            if not waiting.poll(1e3 * timeout):
                return False
        chunk = os.read(news, 4096)
        if not chunk:   # the worker ended
            self.pending, self.ended = set(), True
            return True
        *lines, self._unread = (self._unread + chunk).split(b"\n")
        for line in lines:
            self.reports.append(line.decode().strip())
            self.pending.discard(self.reports[-1].lstrip("!"))
        return True

    def wait_for(self, names):
        """Until the worker has reported each of ``names`` (done or failed), ended, or been
        silent for ``TIMEOUT`` (then nothing more is awaited: the run compiles the rest)."""
        while self.pending & set(names):
            if not self._hear(TIMEOUT):
                self.pending = set()

    def stop(self):
        """End the worker (killed if still running) and close its pipes."""
        self.pending, self.ended = set(), True
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                pipe.close()


def serve():
    """The worker: compile the pickled jobs read from stdin into numba's cache, printing each
    job's name when done (``!name`` if it failed). The modules of the jobs are imported before
    the jobs are read (a worker on standby does it while its parent loads the model); no jobs
    (stdin closed empty: the parent ended or had nothing for it), nothing done."""
    from numba.core.caching import IndexDataCacheFile
    own_name = IndexDataCacheFile._data_name
    IndexDataCacheFile._data_name = lambda self, number: own_name(self, number + WORKER_FILES)
    import importlib
    for module in ("occupant.integrate.pipeline", "occupant.integrate.fixed_step",
                   "occupant.dynamics.rnea"):
        importlib.import_module(module)
    try:
        todo = pickle.load(sys.stdin.buffer)
    except EOFError:
        return
    for name, module, function, argtypes in todo:
        try:
            dispatcher = getattr(importlib.import_module(module), function)
            with frozen_heap():
                compile_job(dispatcher, argtypes)
            print(name, flush=True)
        except Exception:
            print("!" + name, flush=True)
