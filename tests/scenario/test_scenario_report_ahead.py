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


def test_regression_the_report_starts_before_the_summarys_defect_lines(ran_alone, tmp_path, monkeypatch):
    """(usercheck13) ``occupant run`` computed the summary's defect lines (~2.6 s CPU of
    us_ncap_frontal_56's: the belt's paths rebuilt every millisecond) before it handed the run to
    the report's process, which waited meanwhile. The run is sent first now: the report has
    started (its write called in that process) before the summary is computed, its defect lines
    reach it afterwards, and the report holds them, as the one written here does."""
    if ran_alone():
        return
    import time

    import occupant.report
    from occupant.scenario import command
    parent, write, started = os.getpid(), occupant.report.write, tmp_path / "report started"

    def marked(*args, **kwargs):
        if os.getpid() != parent:
            started.write_text("")
        return write(*args, **kwargs)
    monkeypatch.setattr(occupant.report, "write", marked)
    seen, summary = [], command.summary_lines

    def summary_after_the_start(run):   # waits (at most 60 s) for the report's process to start
        deadline = time.monotonic() + 60.0
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        seen.append(started.exists())
        return summary(run)
    monkeypatch.setattr(command, "summary_lines", summary_after_the_start)
    lines = []
    assert command.run_command("fmvss208_sled_48_unbelted", tmp_path / "run", SHORT, progress=False,
                               out=lines.append) == 0
    assert seen == [True], "the report's process had not started when the summary was computed"
    defects = [ln.strip() for ln in lines if ln.strip().startswith("defect: ")]
    html = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    import html as H
    assert all(H.escape(d) in html for d in defects)
    here = load("fmvss208_sled_48_unbelted", overrides=SHORT).run()
    occupant.report.write(here, tmp_path / "here")
    assert (tmp_path / "here" / "report.pdf").read_bytes() == (tmp_path / "run" / "report.pdf").read_bytes()
