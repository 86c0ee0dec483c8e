"""Work of the report done in a second process while this one goes on: ``Background(jobs)``
forks a child (POSIX) that runs ``jobs`` ({name: function of no arguments}) one after the other
and sends their results back pickled through a pipe; ``background[name]`` waits for them. The
child starts as a copy of this process, so the jobs read the run as it is here (nothing is
pickled on the way in). Without fork, with one core, or when the child did not deliver (it
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
        self.jobs, self.done, self.pid = dict(jobs), None, None
        if not (enabled and self.jobs and hasattr(os, "fork") and (os.cpu_count() or 1) > 1
                and threading.active_count() == 1):
            return
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:   # the child: run the jobs, send {name: result} (None when a job failed)
            try:
                os.close(read)
                out = {}
                for name, job in self.jobs.items():
                    try:
                        out[name] = (job(),)
                    except Exception:   # the parent runs it again and meets the error itself
                        out[name] = None
                with os.fdopen(write, "wb") as fh:
                    pickle.dump(out, fh, protocol=pickle.HIGHEST_PROTOCOL)
            finally:
                os._exit(0)
        os.close(write)
        self.pid, self._read = pid, read

    def __getitem__(self, name):
        if self.pid is not None and self.done is None:
            with os.fdopen(self._read, "rb") as fh:
                data = fh.read()
            os.waitpid(self.pid, 0)
            try:
                self.done = pickle.loads(data)
            except (pickle.UnpicklingError, EOFError, ValueError):
                self.done = {}   # the child died before it delivered
        got = (self.done or {}).get(name)
        return got[0] if got is not None else self.jobs[name]()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.pid is not None and self.done is None:
            os.close(self._read)
            os.waitpid(self.pid, 0)
            self.done = {}
