"""integrate.precompile: the jobs it compiles ahead are the very specialisations a run compiles
(else the work is wasted and the run compiles them again), the split puts the loop's stages that
link the producers after them in this process, and the worker reports every job, done or failed,
and ends, so that the run never waits for it in vain."""
import numpy as np
import pytest
from numba import typeof, types

from occupant.integrate import precompile
from occupant.integrate.fixed_step import run_euler
from occupant.integrate.pipeline import PRODUCERS, producer_view
from occupant.scenario import load
from occupant.simulate import simulate


@pytest.fixture(scope="module")
def frontal():
    return load("us_ncap_frontal_56")


def test_a_run_compiles_the_jobs_specialisations(frontal, monkeypatch):
    """The stages and the RNEA, called from Python, are compiled (or loaded) for the jobs' types;
    the producers, compiled inside loads, for loads' (data, t, q, v, z) and their tree-and-block
    view (what ``pipeline.produce`` hands them)."""
    monkeypatch.setenv("OCCUPANT_COMPILE_PROCESSES", "1")   # the run compiles all itself
    jobs = {name: (dispatcher, argtypes) for name, dispatcher, argtypes, _ in
            precompile.jobs(frontal.model, run_euler)}
    assert {"belts", "contacts", "airbags", "joint_resistance", "loads", "_euler_advance",
            "_run_euler", "rnea"} <= set(jobs)
    simulate(frontal.model, 2e-5, dt=1e-5, q0=frontal.q0, integrator="euler",
             base_motion=frontal.pulse.base_motion())
    called = [name for name in ("loads", "_euler_advance", "_run_euler", "rnea")
              if jobs[name][1] in jobs[name][0].overloads]
    assert called == ["loads", "_euler_advance", "_run_euler", "rnea"]
    loads = jobs["loads"][1]
    assert typeof(frontal.model.make_data().q_unit) == loads[3]   # forces' q: data.q_unit
    for family in PRODUCERS:
        if family in jobs:
            assert jobs[family][1] == (producer_view(loads[0], family),) + loads[1:]


def test_split_puts_the_job_needing_others_last_in_this_process(frontal):
    mine, theirs = precompile.split(precompile.jobs(frontal.model, run_euler))
    assert [name for name, *_ in mine][-1] == "loads"
    assert all(not needs for _, _, _, needs in theirs)
    assert {name for name, *_ in mine} | {name for name, *_ in theirs} == \
        {name for name, *_ in precompile.jobs(frontal.model, run_euler)}
    cost = [sum(precompile.COST.get(j[0], 1.0) for j in side) for side in (mine, theirs)]
    assert abs(cost[0] - cost[1]) < 0.25 * sum(cost)


def test_split_waits_for_what_the_job_needing_others_needs_and_counts_a_head_start(monkeypatch):
    """The split's estimate sees this process wait for the worker's share of what ``loads``
    needs. us_ncap_frontal_56's costs: the greedy split of before, not seeing the wait, kept
    contacts, airbags and the Euler stage here (15.3 s against the worker's 12.9); now the
    belts, the RNEA and the loop (12.2 s, then loads once the worker's producers are done at
    9.3 s: 14.2 s against 14.0). A worker starting ahead (``early``) takes a larger share."""
    cost = dict(belts=10.4, contacts=5.9, _euler_advance=4.7, loads=2.0, _run_euler=0.5,
                airbags=2.7, rnea=1.3, joint_resistance=0.7)
    monkeypatch.setattr(precompile, "COST", cost)
    producers = ("belts", "contacts", "airbags", "joint_resistance")
    todo = [(name, None, (name,), producers if name == "loads" else ()) for name in cost]
    mine, theirs = precompile.split(todo)
    assert [j[0] for j in mine] == ["belts", "rnea", "_run_euler", "loads"]
    assert [j[0] for j in theirs] == ["contacts", "airbags", "joint_resistance", "_euler_advance"]
    share = lambda jobs: sum(cost[j[0]] for j in jobs)   # noqa: E731
    for head in (1.0, 3.0):
        mine_h, theirs_h = precompile.split(todo, head=head)
        assert share(theirs_h) > share(theirs) and mine_h[-1][0] == "loads"


def test_jobs_given_early_stay_the_workers_and_this_process_compiles_the_others(monkeypatch):
    """``early`` hands the worker on standby its share before the model's load is over; ``ahead``
    then compiles only the jobs not given (a job given for other argument types is compiled
    here too) and waits for the worker's."""
    from occupant.spatial.rotation import rot_x, rot_y, rot_z
    monkeypatch.delenv("OCCUPANT_COMPILE_PROCESSES", raising=False)
    monkeypatch.setattr(precompile, "COST", dict(rot_x=1.0, rot_y=5.0, rot_z=1.0))
    todo = [("rot_x", rot_x, (types.float64,), ()), ("rot_y", rot_y, (types.float64,), ()),
            ("rot_z", rot_z, (types.float64,), ())]
    monkeypatch.setattr(precompile, "jobs", lambda model, loop: todo)
    monkeypatch.setattr(precompile, "_cached", lambda dispatcher, argtypes: False)
    compiled = []
    monkeypatch.setattr(precompile, "compile_job",
                        lambda dispatcher, argtypes: compiled.append(dispatcher.py_func.__name__))
    worker = precompile._Worker(None)
    monkeypatch.setattr(precompile, "_STANDBY", [worker])
    precompile.early(None, None)
    assert {name for name, _ in worker.given} == {"rot_y"}
    todo[1] = ("rot_y", rot_y, (types.int64,), ())   # the model's types changed since
    precompile.ahead(None, None)
    assert sorted(compiled) == ["rot_x", "rot_y", "rot_z"]
    assert precompile._STANDBY == [] and worker.process.poll() is not None
    todo[1] = ("rot_y", rot_y, (types.float64,), ())
    compiled.clear()
    worker = precompile._Worker(None)
    precompile._STANDBY.append(worker)
    precompile.early(None, None)
    precompile.ahead(None, None)
    assert sorted(compiled) == ["rot_x", "rot_z"] and worker.reports == ["rot_y"]


def test_the_worker_reports_done_and_failed_jobs_and_ends():
    from occupant.spatial.rotation import rot_x
    worker = precompile._Worker([("rot_x", rot_x, (types.float64,), ()),
                                 ("wrong", rot_x, (types.unicode_type,), ())])
    worker.wait_for(["rot_x", "wrong"])
    assert worker.process.wait(timeout=60) == 0
    worker.stop()
    assert worker.reports == ["rot_x", "!wrong"]
    assert np.allclose(rot_x(0.0), np.eye(3))


def test_an_rk4_run_with_belts_also_gets_the_euler_loop_that_fits_them(frontal):
    from occupant.integrate.fixed_step import run_rk4
    names = [name for name, *_ in precompile.jobs(frontal.model, run_rk4)]
    assert {"_rk4_advance", "_run_rk4", "_euler_advance", "_run_euler", "loads"} <= set(names)
    assert len(names) == len(set(names))


def test_a_worker_started_before_its_jobs_takes_them_later_or_ends_without():
    """``standby``'s worker: started with no jobs, it compiles those given later (``give``);
    its parent ending or having nothing for it (stdin closed empty), it ends at once."""
    from occupant.spatial.rotation import rot_y
    worker = precompile._Worker(None)
    assert worker.give([("rot_y", rot_y, (types.float64,), ())])
    worker.wait_for(["rot_y"])
    assert worker.process.wait(timeout=60) == 0
    worker.stop()
    assert worker.reports == ["rot_y"]
    idle = precompile._Worker(None)
    idle.process.stdin.close()
    assert idle.process.wait(timeout=60) == 0
    idle.stop()
    assert idle.reports == [] and not idle.give([("rot_y", rot_y, (types.float64,), ())])


def test_standby_starts_no_worker_once_the_loop_is_cached(monkeypatch):
    """A run whose loop the cache holds (any run after the first) starts no worker ahead: it
    would have nothing to compile; a first run (the cache empty, nothing compiled in this
    process: the suite's earlier tests compiled the loop here, so that is set too) starts one."""
    from occupant.integrate.fixed_step import _run_euler
    monkeypatch.setattr(precompile, "_STANDBY", [])
    monkeypatch.setattr(type(_run_euler._cache._cache_file), "_load_index", lambda self: {1: 2})
    precompile.standby()
    assert precompile._STANDBY == []
    monkeypatch.setattr(type(_run_euler._cache._cache_file), "_load_index", lambda self: {})
    monkeypatch.setattr(_run_euler, "overloads", {})
    monkeypatch.delenv("OCCUPANT_COMPILE_PROCESSES", raising=False)
    precompile.standby()
    assert len(precompile._STANDBY) == 1
    precompile._STANDBY.pop().stop()


def test_no_thread_reads_the_workers_reports():
    """Its reports are read when waited for: no thread of this process is left alive by the
    worker (one kept the report's process, scenario.report_ahead, from forking on first runs)."""
    import threading
    from occupant.spatial.rotation import rot_z
    alive = threading.active_count()
    worker = precompile._Worker([("rot_z", rot_z, (types.float64,), ())])
    assert threading.active_count() == alive
    worker.wait_for(["rot_z"])
    assert threading.active_count() == alive and worker.reports == ["rot_z"]
    worker.stop()


def test_a_silent_worker_is_waited_for_no_longer_than_the_timeout(monkeypatch):
    """A worker that reports nothing for ``TIMEOUT`` (here one waiting for jobs it was never
    given) is no longer waited for: the run compiles the rest itself."""
    import time
    monkeypatch.setattr(precompile, "TIMEOUT", 0.2)
    worker = precompile._Worker(None)
    worker.pending = {"rot_x"}
    start = time.perf_counter()
    worker.wait_for(["rot_x"])
    assert worker.pending == set() and worker.reports == []
    assert 0.15 < time.perf_counter() - start < 30.0
    worker.stop()


def test_the_settling_gets_its_loop_and_each_stage_once_and_run_euler_only_to_fit_belts(frontal):
    """The settling's compiled loop (``fixed_step.relax_euler``) is a job like the run's, for
    the very types the settling calls it with (both its models: belts off, then buckled); the
    Euler stages both it and run_euler call are listed once, and run_euler only for the model
    whose belts are fitted (before branch settleloop the settling ran run_euler chunk by chunk
    for the model without belts too)."""
    from occupant.integrate.fixed_step import _relax_euler, relax_euler
    from occupant.scenario.settle import BUCKLED, held, settle, unbelted
    seated, buckled = unbelted(held(frontal.model)), held(frontal.model)
    off = {name: argtypes for name, _, argtypes, _ in precompile.jobs(seated, relax_euler)}
    on = [(name, argtypes) for name, _, argtypes, _ in precompile.jobs(buckled, relax_euler)]
    assert {"_relax_euler", "_euler_advance", "loads"} <= set(off) and "_run_euler" not in off
    names = [name for name, _ in on]
    assert {"_relax_euler", "_run_euler", "_euler_advance", "loads"} <= set(names)
    assert len(names) == len(set(names))
    settle(frontal.model, frontal.q0, BUCKLED + 0.004)
    assert off["_relax_euler"] in _relax_euler.overloads
    assert dict(on)["_relax_euler"] in _relax_euler.overloads
