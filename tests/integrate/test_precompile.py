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
    would have nothing to compile."""
    from occupant.integrate.fixed_step import _run_euler
    monkeypatch.setattr(precompile, "_STANDBY", [])
    monkeypatch.setattr(type(_run_euler._cache._cache_file), "_load_index", lambda self: {1: 2})
    precompile.standby()
    assert precompile._STANDBY == []
    monkeypatch.setattr(type(_run_euler._cache._cache_file), "_load_index", lambda self: {})
    monkeypatch.delenv("OCCUPANT_COMPILE_PROCESSES", raising=False)
    precompile.standby()
    assert len(precompile._STANDBY) == 1
    precompile._STANDBY.pop().stop()
