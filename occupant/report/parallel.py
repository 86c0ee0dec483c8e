"""Work of the report done in a second process while this one goes on: ``Background(jobs)``
forks a child (POSIX) that runs ``jobs`` ({name: function of no arguments}) one after the other
and sends each result back pickled through a pipe as soon as it has it; ``background[name]``
waits for that one (so the jobs go in the order they are asked for: this process goes on with
the first while the child makes the next). The child starts as a copy of this process, so the
jobs read the run as it is here (nothing is pickled on the way in). Without fork, with one core, or when the child did not deliver (it
died), a job runs here when its result is asked for: the same function, the same result.

It pays on the report's matplotlib figures: drawing them takes about as long as the rest of the
report (VTK views, viewer, PDF pages), and two processes get two cores, or twice the share of
a loaded machine. Only the calling thread lives on in a forked child, so it forks only from a
process without other Python threads (a Dask worker has several: one holding a lock at the fork
would leave the child waiting for it for ever), and the jobs should not start threads or touch
OpenGL."""
import os
import pickle
import threading


class Background:
    """``jobs`` run in a forked child when ``enabled`` and this system can (module docstring).
    Use it as a context manager: leaving it reaps the child, also when this process stops
    before it asked for every result (closing the pipe ends a child that is still writing)."""

    def __init__(self, jobs, enabled=True):
        self.jobs, self.done, self.pid, self._stream = dict(jobs), {}, None, None
        if not (enabled and self.jobs and hasattr(os, "fork") and (os.cpu_count() or 1) > 1
                and threading.active_count() == 1):
            return
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:   # the child: run the jobs, send (name, (result,)) each ((name, None): failed)
            try:
                os.close(read)
                with os.fdopen(write, "wb") as fh:
                    for name, job in self.jobs.items():
                        try:
                            out = (job(),)
                        except Exception:   # the parent runs it again and meets the error itself
                            out = None
                        pickle.dump((name, out), fh, protocol=pickle.HIGHEST_PROTOCOL)
                        fh.flush()
            finally:
                os._exit(0)
        os.close(write)
        self.pid, self._stream = pid, os.fdopen(read, "rb")

    def __getitem__(self, name):
        while name not in self.done and self._stream is not None:
            try:
                got, out = pickle.load(self._stream)
            except Exception:   # EOFError: the child finished; else it died while it delivered
                self._close()
                break
            self.done[got] = out
        got = self.done.get(name)
        return got[0] if got is not None else self.jobs[name]()

    def _close(self):
        """Close the pipe (a child still writing then ends) and reap the child."""
        if self._stream is not None:
            self._stream.close()
            self._stream = None
            os.waitpid(self.pid, 0)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._close()
