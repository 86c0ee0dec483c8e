"""The HTML report opened in headless Chromium: no console error, every image decoded, the 3D
viewer started (a WebGL canvas) and its time slider moves the occupant; the PDF has its pages."""
import re
from html.parser import HTMLParser

import numpy as np
import pytest

from occupant.report import write
from browser import CHROMIUM, Page

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")


class _Links(HTMLParser):
    """Every src/href of the page's tags (script bodies are not parsed as tags)."""

    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        self.links += [(tag, v) for k, v in attrs if k in ("src", "href") and v]


@pytest.fixture(scope="module")
def report(run, tmp_path_factory):
    return write(run, tmp_path_factory.mktemp("report"))


def test_html_opens_without_errors_and_the_viewer_starts(report):
    html_path, _ = report
    text = html_path.read_text()
    # self-contained: nothing fetched from elsewhere
    links = _Links()
    links.feed(text)
    external = [(tag, v[:40]) for tag, v in links.links if not v.startswith(("data:", "#"))]
    assert external == [] and sum(tag == "img" for tag, _ in links.links) >= 8
    with Page(html_path.as_uri()) as page:
        state = page.wait_for("document.body.getAttribute('data-viewer')", timeout=90)
        assert state == "ready", f"3D viewer did not start: {state!r}; errors {page.errors}"
        n_img = page.evaluate("document.images.length")
        broken = page.evaluate("Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0))"
                               ".map(i => i.alt)")
        assert n_img >= 8 and broken == []
        assert page.evaluate("document.querySelectorAll('.js-plotly-plot canvas').length") >= 1
        # the slider's frames move the occupant: the mesh differs between the first and last frame
        moved = page.evaluate(
            "(async () => { const gd = document.querySelector('.js-plotly-plot');"
            " const x0 = Array.from(gd._fullData[0].x);"
            " const names = gd._transitionData._frames.map(f => f.name);"
            " await Plotly.animate(gd, [names[names.length - 1]], {mode: 'immediate',"
            " frame: {duration: 0, redraw: true}, transition: {duration: 0}});"
            " const x1 = Array.from(gd._fullData[0].x);"
            " return [names.length, x0.length, Math.max(...x0.map((v, k) => Math.abs(v - x1[k])))]; })()",
            await_promise=True)
        assert page.errors == [], page.errors
    n_frames, n_vertices, max_shift = moved
    assert n_frames >= 20 and n_vertices > 100
    assert 0.05 < max_shift < 2.0   # m: the head moves tens of cm in a frontal sled test


def test_pdf_has_the_sections(report, run):
    _, pdf_path = report
    data = pdf_path.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b", data)) >= 8


def test_report_states_the_criteria_verdicts(report, run):
    text = report[0].read_text()
    failed = [c for c in run.criteria if c["pass"] is False]
    assert failed, "the fixture must have failing criteria to show the colours"
    for c in run.criteria:
        assert c["criterion"] in text
    rows = re.findall(r'<tr style="background:(#[0-9a-f]{6})"><td>([^<]+)</td>(?:<td>[^<]*</td>){3}'
                      r'<td>([^<]+)</td></tr>', text)
    shown = {name: (bg, verdict) for bg, name, verdict in rows}
    for c in run.criteria:
        expect = {True: ("#c8ecc8", "pass"), False: ("#f6c6c6", "FAIL"), None: ("#eeeeee", "no limit")}[c["pass"]]
        assert shown[c["criterion"]] == expect
    assert f"{len(failed)} of {sum(c['pass'] is not None for c in run.criteria)} criteria exceed" in text
    assert np.isfinite([c["value"] for c in run.criteria]).all()


def test_the_browser_check_sees_errors_and_broken_images(tmp_path):
    """The harness can fail: a page with a console error, an exception and an undecodable image."""
    page_file = tmp_path / "bad.html"
    page_file.write_text('<html><body><img alt="bad" src="data:image/png;base64,AAAA">'
                         '<script>console.error("boom"); undefined_function();</script></body></html>')
    with Page(page_file.as_uri()) as page:
        broken = page.wait_for("(() => { const b = Array.from(document.images).filter(i => i.complete && "
                               "i.naturalWidth === 0).map(i => i.alt); return b.length ? b : null; })()", 20)
        assert page.evaluate("document.body.getAttribute('data-viewer')") is None
    assert broken == ["bad"]
    assert any("boom" in e for e in page.errors) and any("undefined_function" in e for e in page.errors)


def test_comparison_report(run, soft_run, tmp_path):
    from occupant.report import compare
    html_path, pdf_path = compare([run, soft_run], tmp_path)
    text = html_path.read_text()
    assert run.name in text and soft_run.name in text
    assert pdf_path.read_bytes().startswith(b"%PDF")
    rows = re.findall(r"<tr[^>]*><td>([^<]+)</td><td>([^<]+)</td><td>([0-9.]+|-)</td><td>([a-z ]+)</td></tr>", text)
    rated = {name: float(r) for name, other, r, g in rows if r != "-" and other == soft_run.name}
    assert len(rows) == len(run.results.channels) and len(rated) >= 20
    assert all(0.0 <= r <= 1.0 for r in rated.values())
    # the variants differ in the knee bolster and the panel: the femur loads differ (rated below
    # excellent), the pelvis welded to the sled rides the same pulse in both (rated 1)
    assert rated["Pelvis acceleration X"] > 0.999
    assert min(rated[f"Left femur force {a}"] for a in "XZ") < 0.94
    with Page(html_path.as_uri()) as page:
        broken = page.evaluate("Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0)).length")
    assert broken == 0 and page.errors == []


def test_regression_run_notes_are_under_the_criteria_table(run, tmp_path):
    """The table's legend says 'not judged (see the notes)': the run's notes (a rear run's BioRID
    limits shown beside a Hybrid III, unjudged) are in the HTML and on the PDF's criteria page
    (they were only printed on the terminal)."""
    import shutil
    import subprocess
    import types
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    note = "the limits of a protocol for another dummy are shown beside the criteria, not judged"
    noted = types.SimpleNamespace(**vars(run))
    noted.notes = [note]
    html_path, pdf_path = write(noted, tmp_path, viewer=False, renders=False, parallel=False)
    assert f'<div class="caption">{note}</div>' in html_path.read_text()
    text = subprocess.run(["pdftotext", "-layout", str(pdf_path), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert note in " ".join(text.split())


def test_regression_run_defects_are_in_the_report(run, tmp_path, monkeypatch):
    """A run's defect lines (a belt through a body, a joint past its stop: defects.motion_defects)
    were printed on the terminal only: the report's HTML and its PDF criteria page show them
    with the notes, computed once for the summary and the report (run_defect_lines)."""
    import shutil
    import subprocess
    import types

    from occupant.scenario import defects
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    line = "belt: belt lap-hip_outboard 88 mm inside left_thigh_shell at 72 ms"
    calls = []

    def found(model, results, failures=None):
        calls.append(1)
        return [types.SimpleNamespace(text=lambda: line)]
    monkeypatch.setattr(defects, "motion_defects", found)
    flawed = types.SimpleNamespace(**vars(run))
    flawed.defect_lines = None              # (the session's run may have had its lines shown)
    html_path, pdf_path = write(flawed, tmp_path, viewer=False, renders=False, parallel=False)
    assert f'<div class="caption">defect: {line}</div>' in html_path.read_text()
    text = subprocess.run(["pdftotext", "-layout", str(pdf_path), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert f"defect: {line}" in " ".join(text.split())
    assert defects.run_defect_lines(flawed) == [f"defect: {line}"] and len(calls) == 1


def test_regression_3d_views_stand_in_one_row_cut_to_what_they_draw(report):
    """The HTML's four 3D views wrapped the fourth onto a second row, each with its render's
    white margins: they stand in one row, cut to the box of what any of them draws (as the
    PDF's page: figures.cropped)."""
    html_path, _ = report
    with Page(html_path.as_uri()) as page:
        tops = page.evaluate("Array.from(document.querySelectorAll('.renders figure'))"
                             ".map(f => Math.round(f.getBoundingClientRect().top))")
        sizes = page.evaluate("Array.from(document.querySelectorAll('.renders img'))"
                              ".map(i => [i.naturalWidth, i.naturalHeight])")
    assert len(tops) >= 3 and len(set(tops)) == 1, tops
    assert all(w < 600 and h < 660 for w, h in sizes) and len({tuple(s) for s in sizes}) == 1, sizes
