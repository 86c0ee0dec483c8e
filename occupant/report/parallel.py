"""Work of the report shared with a second process: ``Background(jobs)`` forks a child (POSIX)
that runs ``jobs`` ({name: function of no arguments}) and hands each result back as soon as it
has it, pickled to a file of a temporary folder whose name it sends through a pipe (through the
pipe itself, a figure's pixels, 5-10 MB, held the child until this process read them: up to a
second when this one was busy); ``background[name]`` returns that one's result. The child starts
with the first job; the others are taken, in their order, by whichever process is free first: the
child after each job, this process whenever it asks for a result not delivered yet (it runs the
next job not taken instead of waiting, then asks again). So both processes draw until the last
job is done, whatever each one's other work and share of the machine. Each job runs once, in one
of them (a token per job in a pipe both read: a pipe's read is atomic, so a token goes to one
reader). The child starts as a copy of this process, so the jobs read the run as it is here
(nothing is pickled on the way in). Without fork, with one core, or when the child did not deliver
(it died), a job runs here when its result is asked for: the same function, the same result.

It pays on the report's matplotlib figures: drawing them takes most of the report's time, and two
processes get two cores, or twice the share of a loaded machine. Only the calling thread lives on
in a forked child, so it forks only from a process without other Python threads (a Dask worker
has several: one holding a lock at the fork would leave the child waiting for it for ever), and
the jobs should not start threads or touch OpenGL."""
import os
import pickle
import select
import shutil
import tempfile
import threading


class Background:
    """``jobs`` run in a forked child and here when ``enabled`` and this system can (module
    docstring); ``share`` False leaves every job to the child (this process only waits for it).
    Use it as a context manager: leaving it reaps the child, also when this process stops
    before it asked for every result (closing the pipe ends a child that is still writing)."""

    def __init__(self, jobs, enabled=True, share=True):
        self.jobs, self.done, self.pid, self._stream, self._tokens = dict(jobs), {}, None, None, None
        self._folder = None
        self._names = list(self.jobs)
        if not (enabled and self.jobs and hasattr(os, "fork") and (os.cpu_count() or 1) > 1
                and threading.active_count() == 1 and len(self._names) <= 256):
            return
        try:
            self._folder = tempfile.mkdtemp(prefix="occupant-report-")
        except OSError:   # no temporary folder: every job here
            return
        take = None
        if share:   # the tokens (one byte each: a job's index) of the jobs after the first, written
            # before the fork, the writing end then closed: reading past the last gives EOF
            take, put = os.pipe()
            os.write(put, bytes(range(1, len(self._names))))
            os.close(put)
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:   # the child: run the jobs, write (result,) of each to a file and send
            try:       # (name, its path), (name, None) when it failed
                os.close(read)
                with os.fdopen(write, "wb") as fh:
                    for k in self._taken(take):
                        path = os.path.join(self._folder, f"{k}.pickle")
                        try:
                            out = (self.jobs[self._names[k]](),)
                            with open(path, "wb") as result:
                                pickle.dump(out, result, protocol=pickle.HIGHEST_PROTOCOL)
                        except Exception:   # the parent runs it again and meets the error itself
                            path = None
                        pickle.dump((self._names[k], path), fh, protocol=pickle.HIGHEST_PROTOCOL)
                        fh.flush()
            finally:
                os._exit(0)
        os.close(write)
        self.pid, self._stream, self._tokens = pid, os.fdopen(read, "rb"), take

    def _taken(self, take):
        """The child's jobs (indices): the first, then each one whose token it takes (every one
        without tokens)."""
        yield 0
        if take is None:
            yield from range(1, len(self._names))
        else:
            while token := os.read(take, 1):
                yield token[0]

    def __getitem__(self, name):
        while name not in self.done:
            if self._stream is not None and not select.select([self._stream], [], [], 0)[0]:
                token = os.read(self._tokens, 1) if self._tokens is not None else b""
                if token:   # nothing delivered yet: this process runs the next job not taken
                    job = self._names[token[0]]
                    try:
                        self.done[job] = (self.jobs[job](),)
                    except Exception:   # raised again when asked for (as a child's failure)
                        self.done[job] = None
                    continue
            if self._stream is None:
                break
            try:
                got, path = pickle.load(self._stream)
            except Exception:   # EOFError: the child finished; else it died while it delivered
                self._close()
                break
            self.done[got] = self._result(path)
        got = self.done.get(name)
        return got[0] if got is not None else self.jobs[name]()

    @staticmethod
    def _result(path):
        """(result,) from the child's file at ``path``, removed then; None without one."""
        try:
            with open(path, "rb") as fh:
                return pickle.load(fh)
        except Exception:   # (None: the job failed) the job runs here when asked for
            return None
        finally:
            if path is not None and os.path.exists(path):
                os.remove(path)

    def _close(self):
        """Close the pipes (a child still writing then ends), reap the child and remove the
        folder of its results."""
        if self._tokens is not None:
            os.close(self._tokens)
            self._tokens = None
        if self._stream is not None:
            self._stream.close()
            self._stream = None
            os.waitpid(self.pid, 0)
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._close()
