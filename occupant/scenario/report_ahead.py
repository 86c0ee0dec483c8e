"""The run folder's report written by a process started before the run (issue 13: the wall time
of ``occupant run``).

``ReportAhead()``, made once the scenario is loaded, forks a child that imports the report's
modules (matplotlib, plotly, VTK: ~1 s) and waits for the Run. Imported in this process, by a
thread while the run goes on, they would only lengthen the run: the simulation holds the GIL.
In the child they take the second core. ``send(run, folder)`` pickles the Run to it (~0.05 s,
14 MB, for us_ncap_frontal_56); the child writes report.html and report.pdf with
occupant.report.write (whose own second process draws meanwhile) while this one writes
results.h5, isomme/ and criteria.csv; ``wait()`` reaps it, True when it wrote the report.

The child is a copy of this process, so only what the Run holds crosses (the report reads nothing
else); the report is the same function of the same Run, so the same files. Without fork, with
one core, with other threads alive (a thread holding a lock at the fork would leave the child
waiting for it for ever), or when the child failed, ``send`` or ``wait`` is False and the caller
writes the report itself."""
import gc
import os
import pickle
import threading


class ReportAhead:
    """The report's process, started now when this system can (module docstring). ``close()``
    (also when the run failed) ends and reaps it; ``wait`` does after a ``send``."""

    def __init__(self):
        self.pid, self._pipe, self._sent = None, None, None
        if not (hasattr(os, "fork") and (os.cpu_count() or 1) > 1 and threading.active_count() == 1):
            return
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:   # the child: import, wait for (run, folder), write the report; exit 0 when written
            written = False
            try:
                os.close(write)
                from occupant import report
                report.preload()
                # what it holds now (this process's heap at the fork and the report's modules) left
                # out of its garbage collections: full ones while writing the report went through
                # all of it (0.11-0.13 s each, here and in the drawing process it forks; a cold
                # us_ncap_frontal_56 run [measured, coldstart13]); it ends by os._exit
                gc.freeze()
                with os.fdopen(read, "rb") as fh:
                    run, folder = pickle.load(fh)   # EOFError: closed without a run
                    if getattr(run, "defect_lines", None) is None:   # sent by ``lines``, later
                        run.defect_lines = _LinesLater(run, fh)
                    report.write(run, folder)
                written = True
            except BaseException:   # the parent writes the report itself and meets the error there
                pass
            finally:
                os._exit(0 if written else 1)
        os.close(read)
        self.pid, self._pipe = pid, os.fdopen(write, "wb")

    def send(self, run, folder):
        """Hand the child the Run and the folder: True when it has them (also when sent before).
        A Run whose defect lines are not computed yet (occupant.scenario.defects.run_defect_lines:
        ~2.6 s CPU of us_ncap_frontal_56's, measured usercheck13) is sent without them, so that the
        report starts while this process computes them for the summary; ``lines`` sends them
        (the report needs them only at its criteria section), else ``wait`` does."""
        if self._sent is not None:
            return True
        if self._pipe is None:
            return False
        try:
            pickle.dump((run, str(folder)), self._pipe, protocol=pickle.HIGHEST_PROTOCOL)
            self._pipe.flush()
        except Exception:   # the child died (BrokenPipeError), or the Run does not pickle (a local
            # function in it, as aeb_precrash_frontal's braking table: AttributeError)
            self.close()
            return False
        self._sent = run
        if getattr(run, "defect_lines", None) is not None:   # the child has them: nothing follows
            self._end_pipe()
        return True

    def lines(self, lines):
        """Send the child the sent Run's defect lines (``send``), once."""
        if self._pipe is None:
            return
        try:
            pickle.dump(list(lines), self._pipe, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:   # the child died: ``wait`` says it wrote nothing, this process writes it
            pass
        self._end_pipe()

    def _end_pipe(self):
        if self._pipe is not None:
            try:
                self._pipe.close()
            except OSError:
                pass
            self._pipe = None

    def wait(self):
        """Reap the child: True when it wrote the report."""
        if self.pid is None:
            return False
        if self._sent is not None and self._pipe is not None:   # its defect lines not sent yet
            from occupant.scenario.defects import run_defect_lines
            self.lines(run_defect_lines(self._sent))
        self._end_pipe()
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0

    def close(self):
        """End the child without a report (closing the pipe ends its wait) and reap it."""
        self._end_pipe()
        if self.pid is not None:
            self.wait()


class _LinesLater:
    """A sent Run's defect lines in the report's process, read from the pipe when the report
    first reads them (ReportAhead.send, lines): the Run's ``defect_lines`` until then."""

    def __init__(self, run, pipe):
        self.run, self.pipe = run, pipe

    def __iter__(self):
        lines = pickle.load(self.pipe)   # EOFError: none sent (the parent failed): no report here
        self.run.defect_lines = lines
        return iter(lines)
