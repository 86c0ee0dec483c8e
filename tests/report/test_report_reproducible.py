"""The report is reproducible (issue 13 section 5: identical inputs, identical results): two
reports of one run are the same files byte for byte, and a PDF page shows the very pixels of the
figure the HTML embeds."""
import os
import re
import shutil
import subprocess
import threading

import numpy as np
import pytest

from occupant.report import figures as F
from occupant.report import viewer, write
from occupant.report.parallel import Background


def test_two_reports_of_one_run_are_the_same_bytes(run, tmp_path):
    first = write(run, tmp_path / "a")
    second = write(run, tmp_path / "b", parallel=False)   # the figures drawn here, not in a child
    for a, b in zip(first, second):
        assert a.read_bytes() == b.read_bytes(), f"{a.name} differs between two writings"
    html = first[0].read_text()
    assert f'id="{viewer.DIV_ID}"' in html and run.name in html
    # nothing random (plotly's default div id is a uuid4) and no writing time
    assert not re.search(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}", html)
    assert b"/CreationDate" not in first[1].read_bytes()


def _figure():
    fig = F.plt.figure(figsize=(3.0, 2.0))
    ax = fig.add_axes((0.15, 0.15, 0.8, 0.75))
    ax.plot([0, 1, 2], [0, 2, 1], color="#d62728")
    ax.set_title("top")
    ax.fill_between([0, 1], 0, 0.5, color="#3a70b0")   # lower left: tells up from down
    return fig


def test_raster_pages_hold_the_figure_pixels_above_its_caption_on_an_a4_page():
    dpi = 80
    fig = _figure()
    rgba = F.pixels(fig, dpi)
    F.plt.close(fig)
    assert rgba.shape == (160, 240, 4)
    (page,) = F.raster_pages(rgba, dpi, "a caption")
    assert tuple(page.get_size_inches()) == F.PAGE             # A4 landscape
    out = F.pixels(page, dpi)
    F.plt.close(page)
    h, x0 = rgba.shape[0], (int(F.PAGE[0] * dpi) - rgba.shape[1]) // 2
    np.testing.assert_array_equal(out[:h, x0:x0 + 240], rgba)  # same pixels, same way up, at the top
    below = out[h:h + round(0.3 * dpi), :, :3]
    assert (below < 128).any()                                 # the caption's text below
    assert (out[h + round(0.3 * dpi):, :, :3] == 255).all()    # and nothing under it


def test_raster_pages_cut_a_tall_figure_at_white_rows_between_its_panels():
    """A figure two pages tall (the channels' 17 in, 15.4 of them drawn) on A4 landscape pages: each part cut in
    the white band between a row of panels and the next row's title, the parts together the
    figure; no page cuts a panel or parts a title from its panel."""
    dpi = 40
    fig, axes = F.plt.subplots(12, 1, figsize=(F.PAGE[0], 17.0))
    fig.subplots_adjust(hspace=0.6)
    for ax in axes:
        ax.plot([0, 1], [0, 1])
        ax.set_facecolor("#dddddd")
        ax.set_title("a title")
    rgba = F.pixels(fig, dpi)
    F.plt.close(fig)
    pages = F.raster_pages(rgba, dpi)
    assert len(pages) == 2 and all(tuple(p.get_size_inches()) == F.PAGE for p in pages)
    parts = [p.get_children()[-1].rgba[::-1] for p in pages]   # each page's pixels, top row first
    joined = np.concatenate(parts)                             # the figure, its white margin below cut
    np.testing.assert_array_equal(joined, rgba[:len(joined)])
    assert (rgba[len(joined):, :, :3] == 255).all()
    for part in parts[:-1]:
        assert (part[-1, :, :3] == 255).all()                  # cut on a white row
        assert part.shape[0] > 0.6 * F.PAGE[1] * dpi           # not a short page
    for part in parts[1:]:
        first = np.flatnonzero((part[:, :, :3] < 250).any(axis=(1, 2)))[0]
        panel = np.flatnonzero((part[:, :, :3] == 221).all(axis=2).any(axis=1))[0]
        assert 0 < panel - first < 0.5 * dpi                   # a title first, its panel under it
    for p in pages:
        F.plt.close(p)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_raster_page_in_the_pdf_is_the_figure_pixels(tmp_path):
    from matplotlib.backends.backend_pdf import PdfPages
    dpi = 80
    fig = _figure()
    rgba = F.pixels(fig, dpi)
    F.plt.close(fig)
    with PdfPages(tmp_path / "page.pdf") as pdf:
        (page,) = F.raster_pages(rgba, dpi)
        pdf.savefig(page)
        F.plt.close(page)
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-singlefile", str(tmp_path / "page.pdf"),
                    str(tmp_path / "page")], check=True)
    shown = F.plt.imread(tmp_path / "page.png")[:, :, :3] * 255.0
    assert np.allclose(shown.shape[:2], (F.PAGE[1] * dpi, F.PAGE[0] * dpi), atol=1)   # A4 landscape
    x0 = (int(F.PAGE[0] * dpi) - rgba.shape[1]) // 2
    shown = shown[:rgba.shape[0], x0:x0 + rgba.shape[1]]
    # the same image, not flipped or shifted: poppler smooths the image's edges (up to 235 of 255
    # on single pixels of the title's glyphs), so 8 x 8 pixel means are compared; they differ by
    # up to 25 (this figure), by 197 when the image is upside down and by 53 when 3 pixels off
    assert np.abs(_blocks(shown) - _blocks(rgba[:, :, :3])).max() < 40


def _blocks(a, n=8):
    h, w = a.shape[0] // n * n, a.shape[1] // n * n
    return a[:h, :w].astype(float).reshape(h // n, n, w // n, n, -1).mean(axis=(1, 3))


def _fails():
    raise ValueError("job failed")


@pytest.mark.skipif(not hasattr(os, "fork") or (os.cpu_count() or 1) < 2, reason="no fork, or one core")
def test_background_jobs_run_in_another_process_and_failures_reach_the_caller(ran_alone):
    if ran_alone():
        return
    me = os.getpid()
    jobs = {"pid": os.getpid, "array": lambda: np.arange(300000.0), "fails": _fails}
    with Background(jobs, share=False) as later:
        assert later.pid is not None and later["pid"] not in (me, None)   # ran in the child
        np.testing.assert_array_equal(later["array"], np.arange(300000.0))   # 2.4 MB through the pipe
        with pytest.raises(ValueError, match="job failed"):   # run again here, where it raises
            later["fails"]
    with Background({"first": _fails, **jobs}) as later:   # shared: each job fails where it ran
        with pytest.raises(ValueError, match="job failed"):
            later["fails"]
        np.testing.assert_array_equal(later["array"], np.arange(300000.0))
    with Background({"pid": os.getpid}, enabled=False) as here:
        assert here.pid is None and here["pid"] == me


def _released(flag):
    """A job waiting (10 s at most) for the parent to create ``flag``."""
    import time
    for _ in range(1000):
        if flag.exists():
            return "released"
        time.sleep(0.01)
    return "timed out"


@pytest.mark.skipif(not hasattr(os, "fork") or (os.cpu_count() or 1) < 2, reason="no fork, or one core")
def test_background_delivers_each_result_as_soon_as_it_has_it(tmp_path, ran_alone):
    """The parent gets the first job's result while the child still works on the next (the report
    embeds one figure while the child draws the next): the second job waits for a file the parent
    creates only once it has the first result."""
    if ran_alone():
        return
    flag = tmp_path / "flag"
    with Background({"first": os.getpid, "second": lambda: _released(flag)}, share=False) as later:
        assert later.pid is not None and later["first"] != os.getpid()
        flag.touch()
        assert later["second"] == "released"


def _pid_after(flag):
    """This process's id, once ``flag`` exists (10 s at most)."""
    _released(flag)
    return os.getpid()


@pytest.mark.skipif(not hasattr(os, "fork") or (os.cpu_count() or 1) < 2, reason="no fork, or one core")
def test_background_parent_draws_the_next_jobs_while_the_child_is_busy(tmp_path, ran_alone):
    """Asked for the child's first job, still running, the parent runs the jobs after it itself
    (the report's two processes draw until the last figure), each job once; the child, released,
    finds none left."""
    if ran_alone():
        return
    flag = tmp_path / "flag"
    ran = tmp_path / "ran"

    def counted(name):
        with open(ran, "a") as fh:
            fh.write(f"{name} {os.getpid()}\n")
        if name == "last":
            flag.touch()   # the parent releases the child's first job once it ran every other one
        return os.getpid()
    jobs = {"first": lambda: _pid_after(flag), **{n: (lambda n=n: counted(n)) for n in ("b", "c", "last")}}
    with Background(jobs) as later:
        child = later.pid
        assert child is not None
        assert later["first"] == child
        assert [later[n] for n in ("b", "c", "last")] == [os.getpid()] * 3
    assert sorted(ran.read_text().split("\n")[:-1]) == [f"{n} {os.getpid()}" for n in ("b", "c", "last")]


def test_background_left_early_reaps_its_child():
    with Background({"big": lambda: np.zeros(2_000_000), "next": os.getpid}) as later:   # 16 MB
        pid, folder = later.pid, later._folder
    if pid is not None:
        with pytest.raises(ChildProcessError):   # reaped: no such child any more
            os.waitpid(pid, os.WNOHANG)
        assert not os.path.exists(folder)   # the folder of its results removed


def test_background_does_not_fork_beside_other_threads():
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        with Background({"pid": os.getpid}) as later:
            assert later.pid is None and later["pid"] == os.getpid()
    finally:
        stop.set()
        other.join()


def test_solver_table_names_a_shipped_scenario_by_its_shipped_path(run, tmp_path, monkeypatch):
    """The report names no folder of the machine it was written on for a shipped scenario file
    (it used to show the absolute path of the installed file); a user's file below the working
    directory is named relative to it."""
    from occupant.report.tables import solver_rows
    from occupant.shipped import display_path, shipped_dir
    shipped = shipped_dir("scenarios") / "us_ncap_frontal_56.toml"
    monkeypatch.setitem(run.results.provenance, "scenario_file", str(shipped))
    rows = dict(solver_rows(run))
    assert rows["provenance: scenario_file"] == "scenarios/us_ncap_frontal_56.toml"
    monkeypatch.chdir(tmp_path)
    assert display_path(tmp_path / "mine" / "sled.toml") == "mine/sled.toml"
    assert display_path("/elsewhere/sled.toml") == "/elsewhere/sled.toml"
