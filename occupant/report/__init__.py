"""Reports of runs (issue 13 section 3): ``write(run, folder)`` makes ``report.html`` (one
self-contained file that works offline) and ``report.pdf`` with the same content;
``compare(runs, folder)`` overlays two or more runs and rates each channel pair by ISO/TS 18571.
Matplotlib draws the static figures and the PDF, VTK renders the 3D views, plotly the
interactive 3D view."""
from occupant.report.write import write
# the function, bound here: a wrapper importing the module on first call was replaced by that
# module (a package's submodule is set as its attribute on import), so that a second
# ``occupant.report.compare(...)`` in one process met "'module' object is not callable"
from occupant.report.compare import compare  # noqa: E402

__all__ = ["write", "compare", "preload"]


def preload():
    """Import what ``write`` imports when it runs (matplotlib with this package; plotly, VTK:
    ~1-2 s together), for a caller that has a wait to fill with it: ``occupant run`` does it in
    a thread while its first compilation waits on its worker (occupant.scenario.command)."""
    from occupant.report import render3d, viewer  # noqa: F401

