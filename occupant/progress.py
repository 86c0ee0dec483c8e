"""Progress of long work, on stderr: the one progress printer of the ``occupant`` commands.

A command opens a ``Progress`` and makes it the current one (``reporting``); every ``simulate``
called meanwhile, however deep (a scenario's run, each of a certification test's or validation
case's runs), reports to it the simulated time as it advances (``simulation``). On a terminal it
is a one-line bar redrawn in place; elsewhere (a pipe, a CI log, where a carriage return piles up
as one long line) a plain line at each tenth of the simulated time, at most one a second. ``after_s``: nothing is shown
of a simulation until that many wall seconds since the Progress began, so that a case done in a
second prints no bar. ``case`` writes the line saying what starts (``[i/n] name``);
``compiling``, once, the line saying a first run's compilation starts (nothing else shows
while numba compiles the step on a cold cache)."""
import contextlib
import contextvars
import sys
import time

_CURRENT = contextvars.ContextVar("occupant_progress", default=None)
COMPILING = "compiling the step (first run only) ..."


class Progress:
    """Progress lines on ``stream`` (default stderr). ``terminal``: redraw one line in place
    (default: when the stream is a terminal); ``clock``: wall time in seconds (tests pass
    their own)."""

    STEP = 10       # percent: a plain line each tenth of the simulated time,
    EVERY_S = 1.0   # s: and no closer in wall time than this (a simulation done in a blink after
                    # its compile wait prints its first tenth, not ten lines at once)

    def __init__(self, label="simulating", stream=None, after_s=0.0, terminal=None, clock=time.perf_counter):
        self.stream = sys.stderr if stream is None else stream
        isatty = getattr(self.stream, "isatty", None)
        self.terminal = bool(isatty and isatty()) if terminal is None else terminal
        self.label, self.after_s, self.clock = label, after_s, clock
        self.start = clock()
        self.open = False      # a bar drawn on a terminal and not yet ended by a newline
        self.last, self.t_end, self.shown_at = -1, None, None
        self.compile_said = False   # the compile line (``compiling``) written

    def _write(self, text):
        self.stream.write(text)
        self.stream.flush()

    def end_line(self):
        """End a bar left open (a run stopped before its end): the next line starts clean."""
        if self.open:
            self._write("\n")
            self.open = False

    def case(self, index, total, name, what="occupant"):
        """The line saying a case starts: ``{what}: [index/total] name``; the wall clock of
        ``after_s`` starts again."""
        self.end_line()
        self._write(f"{what}: [{index}/{total}] {name}\n")
        self.begin()

    def begin(self):
        """The wall clock of ``after_s`` and of the plain lines' seconds starts again now."""
        self.start, self.last = self.clock(), -1

    def compiling(self):
        """The line saying the step is being compiled (numba's cache is cold: a first run on a
        fresh install or after an update waits tens of seconds with nothing else to show),
        once per Progress, whatever its ``after_s`` (the wait is the long part)."""
        if self.compile_said:
            return
        self.compile_said = True
        self.end_line()
        self._write(f"  {COMPILING}\n")

    def simulation(self, t_end):
        """The callback of one simulation to ``t_end`` (s): it takes the fraction done."""
        self.end_line()
        self.last, self.t_end, self.shown_at = -1, t_end, None
        return self

    def __call__(self, fraction):
        pct = int(100 * min(max(fraction, 0.0), 1.0))
        step = pct if self.terminal else pct - pct % self.STEP   # (a plain 0 % line says nothing)
        now = self.clock()
        if step <= self.last or (step == 0 and not self.terminal) or now - self.start < self.after_s:
            return
        if not self.terminal and self.shown_at is not None and now - self.shown_at < self.EVERY_S:
            return
        self.last, self.shown_at = step, now
        simulated = f" ({1e3 * fraction * self.t_end:.1f} of {1e3 * self.t_end:.1f} ms)" if self.t_end else ""
        if self.terminal:
            bar = "#" * (pct // 5) + "." * (20 - pct // 5)
            self._write(f"\r  {self.label} [{bar}] {pct:3d} %{simulated}")
            self.open = pct < 100
            if not self.open:
                self._write("\n")
        else:
            self._write(f"  {self.label} {pct:3d} %{simulated}, {now - self.start:.0f} s\n")


@contextlib.contextmanager
def reporting(progress):
    """Make ``progress`` (a Progress, or None for silence) the current one in the block."""
    token = _CURRENT.set(progress)
    try:
        yield progress
    finally:
        _CURRENT.reset(token)
        if progress is not None:
            progress.end_line()


def simulation_progress(t_end):
    """The callback a ``simulate`` to ``t_end`` (s) reports to: the current Progress's, or None."""
    progress = _CURRENT.get()
    return None if progress is None else progress.simulation(t_end)


def current():
    """The current Progress, or None (silence)."""
    return _CURRENT.get()


def compiling():
    """Say on the current Progress (if any) that the step is being compiled (``Progress.compiling``):
    occupant.integrate.precompile calls it when numba's cache lacks what a run needs."""
    progress = _CURRENT.get()
    if progress is not None:
        progress.compiling()
