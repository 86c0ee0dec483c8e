"""The belt's load cells B3-B6 (occupant.sensors.belt, ISO-MME main location SEBE) are drawn in
one "Seat belt" panel of the channels figure, four traces in kN with a legend naming each cell;
they were four single-line panels named after the channels."""
import numpy as np
import pytest

from occupant.report import data as D
from occupant.report import figures as F
from occupant.scenario.load import load

SHORT = {"solver.t_end": 0.004, "occupant.settle": 0.0, "outputs.report": False}
CELLS = ["B3 upper shoulder belt", "B4 lower shoulder belt", "B5 inboard lap belt", "B6 outboard lap belt"]


@pytest.fixture(scope="module")
def belted():
    return load("fmvss208_sled_48_belted", overrides=SHORT).run()


def _belt_panel(fig):
    panels = [ax for ax in fig.axes if ax.get_title().startswith("Seat belt")]
    assert len(panels) == 1
    return panels[0]


def test_regression_belt_cells_share_one_panel_with_a_legend(belted):
    """One panel "Seat belt" holds the four cells, in kN (the channels' N / 1000), each named
    in its legend; no channel of theirs has a panel of its own, the others' panels unchanged."""
    channels = belted.results.channels
    groups = D.channel_groups(channels)
    assert [D.channel_label(c) for c in groups["Seat belt"]] == CELLS
    assert not any("belt force" in g for g in groups)
    fig = F.channels([belted])
    ax = _belt_panel(fig)
    assert ax.get_title() == "Seat belt (raw)" and ax.get_ylabel() == "kN"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == CELLS
    assert len({ln.get_color() for ln in ax.lines}) == 4
    cells = [c for c in channels if (c.code or "")[2:6] == "SEBE"]
    for line, ch in zip(ax.lines, cells):
        np.testing.assert_allclose(line.get_ydata(), 1e-3 * np.asarray(ch.values), rtol=0, atol=1e-12)
    assert len(fig.axes) == len(groups)
    head = next(a for a in fig.axes if a.get_title().startswith("Head CG acceleration"))
    assert [t.get_text() for t in head.get_legend().get_texts()] == ["X", "Y", "Z"]


def test_regression_compared_runs_keep_a_colour_per_cell(belted):
    """Two runs compared: each cell one colour in both (the runs told apart by line style), the
    panel's legend a colour per cell."""
    fig = F.channels([belted, belted], labels=["a", "b"])
    ax = _belt_panel(fig)
    colours = [ln.get_color() for ln in ax.lines]
    assert len(ax.lines) == 8 and colours[:4] == colours[4:] and len(set(colours)) == 4
    assert [t.get_text() for t in ax.get_legend().get_texts()] == CELLS
