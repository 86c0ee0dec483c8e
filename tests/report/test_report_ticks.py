"""The report's figures make Tick objects only for the ticks they draw (figures._InView, branch
reportspeed): matplotlib's AutoLocator runs a step past each end of the view and its axis made a
Tick for those too, left undrawn. The pixels stay those of matplotlib's own locator."""
import matplotlib.pyplot as plt
import numpy as np

from occupant.report import figures as F


def _figure():
    """Panels of the kinds the report draws: time histories (one with an offset "1e4" y axis),
    an equal-aspect view (the strip's: limits set by the aspect at drawing), inner panels
    without labels, titled panels."""
    fig, axs = plt.subplots(2, 3, figsize=(F.PAGE[0], 4.5))
    t = np.linspace(0.0, 150.0, 301)
    axs[0, 0].plot(t, 40.0 * np.sin(t / 17.0))
    axs[0, 1].plot(t, 2.0e4 + 30.0 * np.cos(t / 9.0))
    axs[0, 2].plot([0.13, 0.71], [-2.7, 1.3])
    axs[1, 0].plot([-0.4, 0.9], [0.1, 1.2])
    axs[1, 0].set_aspect("equal")
    axs[1, 1].plot(t, t ** 1.5)
    axs[1, 1].tick_params(labelleft=False, labelbottom=False)
    axs[1, 2].set_xlim(0.1, 0.73)
    for k, ax in enumerate(axs.flat):
        ax.set_title(f"panel {k}", fontsize=9)
        ax.grid(alpha=0.3)
    return fig


def _matplotlibs(fig, dpi):
    """The pixels as figures.pixels drew them before _InView: matplotlib's own locators."""
    fig.set_dpi(dpi)
    F._titles_placed(fig)
    fig.canvas.draw()
    return np.asarray(fig.canvas.buffer_rgba()).copy()


def _ticks(fig):
    return sum(len(ax.xaxis.majorTicks) + len(ax.yaxis.majorTicks) for ax in fig.axes)


def test_a_figure_makes_only_the_ticks_it_draws_with_the_same_pixels():
    own, ours = _figure(), _figure()
    before, after = _matplotlibs(own, 110), F.pixels(ours, 110)
    assert np.array_equal(before, after)
    for ax in ours.axes:
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            locs = axis.get_majorticklocs()
            assert len(locs) >= 2 and np.all((locs >= lo - 1e-9 * (hi - lo)) & (locs <= hi + 1e-9 * (hi - lo)))
    assert _ticks(ours) < _ticks(own)
    plt.close(own)
    plt.close(ours)
