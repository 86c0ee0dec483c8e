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
        self.pid, self._pipe = None, None
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
                report.write(run, folder)
                written = True
            except BaseException:   # the parent writes the report itself and meets the error there
                pass
            finally:
                os._exit(0 if written else 1)
        os.close(read)
        self.pid, self._pipe = pid, os.fdopen(write, "wb")

    def send(self, run, folder):
        """Hand the child the Run and the folder: True when it has them."""
        if self._pipe is None:
            return False
        try:
            pickle.dump((run, str(folder)), self._pipe, protocol=pickle.HIGHEST_PROTOCOL)
            self._pipe.close()
        except Exception:   # the child died (BrokenPipeError), or the Run does not pickle (a local
            # function in it, as aeb_precrash_frontal's braking table: AttributeError)
            self.close()
            return False
        finally:
            self._pipe = None
        return True

    def wait(self):
        """Reap the child: True when it wrote the report."""
        if self.pid is None:
            return False
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0

    def close(self):
        """End the child without a report (closing the pipe ends its wait) and reap it."""
        if self._pipe is not None:
            try:
                self._pipe.close()
            except OSError:
                pass
            self._pipe = None
        if self.pid is not None:
            self.wait()
