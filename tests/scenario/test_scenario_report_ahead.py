"""occupant.scenario.report_ahead: the report written by the process forked before the run is
the report this process writes, byte for byte, and this process writes it when that one fails."""
import os

import pytest

from occupant.scenario import load, write_run
from occupant.scenario.report_ahead import ReportAhead

SHORT = {"solver.t_end": 0.02}
REPORTS = ("report.html", "report.pdf")

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or (os.cpu_count() or 1) < 2,
                                reason="the report's process is forked, on a second core")


@pytest.fixture(scope="module")
def run():
    return load("fmvss208_sled_48_unbelted", overrides=SHORT).run()


def test_identity_report_of_the_process_ahead_is_this_processs(ran_alone, request, tmp_path,
                                                               monkeypatch):
    if ran_alone():   # (ReportAhead forks only where no other thread runs)
        return
    run = request.getfixturevalue("run")
    here = write_run(run, tmp_path / "here")
    ahead = ReportAhead()
    assert ahead.pid is not None
    waited = []
    wait = ReportAhead.wait
    monkeypatch.setattr(ReportAhead, "wait", lambda self: waited.append(wait(self)) or waited[-1])
    there = write_run(run, tmp_path / "there", ahead=ahead)
    assert waited == [True]   # the child wrote the report, this process did not
    for name in REPORTS:
        assert (there / name).read_bytes() == (here / name).read_bytes(), name
    assert (there / "criteria.csv").read_bytes() == (here / "criteria.csv").read_bytes()


def test_reference_report_written_here_when_the_process_ahead_fails(ran_alone, request, tmp_path,
                                                                     monkeypatch):
    """The child's report breaks (only there): this process writes it after the other files."""
    if ran_alone():
        return
    run = request.getfixturevalue("run")
    import occupant.report
    parent, write = os.getpid(), occupant.report.write

    def broken_in_the_child(*args, **kwargs):
        if os.getpid() != parent:
            raise RuntimeError("the child's report broke")
        return write(*args, **kwargs)
    monkeypatch.setattr(occupant.report, "write", broken_in_the_child)
    ahead = ReportAhead()
    assert ahead.pid is not None
    folder = write_run(run, tmp_path / "run", ahead=ahead)
    for name in (*REPORTS, "results.h5", "criteria.csv"):
        assert (folder / name).is_file(), name


def test_reference_closed_without_a_run_the_process_ends(ran_alone):
    if ran_alone():
        return
    ahead = ReportAhead()
    pid = ahead.pid
    assert pid is not None
    ahead.close()
    assert ahead.pid is None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)   # reaped


def test_regression_a_run_that_does_not_pickle_is_reported_here(ran_alone, tmp_path):
    """aeb_precrash_frontal's Run holds a local function (its braking table): pickling it raised
    AttributeError, not PicklingError, and occupant run stopped with a traceback after the run."""
    if ran_alone():
        return

    def local():   # pickle refuses a local function: AttributeError
        pass
    ahead = ReportAhead()
    assert ahead.pid is not None
    assert ahead.send(local, tmp_path) is False   # the caller writes the report itself
    assert ahead.pid is None and ahead.wait() is False


def test_regression_a_first_runs_compile_worker_leaves_the_report_process_forking(ran_alone):
    """A first run's compile worker (integrate.precompile, started before the load) had a thread
    read its reports, alive through the run: ReportAhead, which forks only without other
    threads, never forked on a first run, whose report was written after the run in this
    process (~1-2 s more than a later run's)."""
    if ran_alone():
        return
    from occupant.integrate import precompile
    worker = precompile._Worker(None)
    try:
        ahead = ReportAhead()
        assert ahead.pid is not None
        ahead.close()
    finally:
        worker.stop()
