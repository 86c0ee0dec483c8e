"""``compare(runs, folder)``: two or more runs overlaid in ``folder/comparison.html`` and
``folder/comparison.pdf``: criteria side by side, the vehicle pulses, trajectories and channels
overlaid, and the ISO/TS 18571 rating of each channel of every run against the first (the
reference: a physical test or the baseline design)."""
import html as H
from pathlib import Path

from occupant.display import unit_text, value_text
from occupant.report import figures as F
from occupant.report import tables as T
from occupant.report.write import Page, document, pdf_pages, table_html

GRADE_COLOURS = {"excellent": "#b9e4b9", "good": "#dcf0c8", "fair": "#f7e7b4", "poor": "#f6c6c6", None: "#eeeeee"}


def criteria_side_by_side(runs):
    """(header, rows, per-cell colours) of every criterion of any run: its limit and each run's value."""
    names = []
    for run in runs:
        names += [c["criterion"] for c in run.criteria if c["criterion"] not in names]
    header = ["criterion", "unit", "limit"] + [r.name for r in runs]
    rows, colours = [], []
    for name in names:
        found = [next((c for c in r.criteria if c["criterion"] == name), None) for r in runs]
        first = next(c for c in found if c is not None)
        unit = str(first.get("unit", ""))
        rows.append([name, unit_text(unit), value_text(first.get("limit"), unit)]
                    + [value_text(c["value"], unit) if c else "-" for c in found])
        colours.append([None, None, None] + [T.PASS_COLOURS[None if c is None or c.get("pass") is None
                                                            else bool(c["pass"])] for c in found])
    return header, rows, colours


def _cells_html(header, rows, colours):
    head = "".join(f"<th>{H.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(
        f'<td{f" style=background:{c}" if c else ""}>{H.escape(v)}</td>' for v, c in zip(row, cs)) + "</tr>"
        for row, cs in zip(rows, colours))
    return f"<table><tr>{head}</tr>{body}</table>"


def compare(runs, folder, *, rating=True):
    """Write ``folder/comparison.html`` and ``folder/comparison.pdf``; returns their paths."""
    from occupant.report.correlation import grade, rate_runs
    if len(runs) < 2:
        raise ValueError(f"compare: give two or more runs, got {len(runs)}")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    title = "Comparison: " + " / ".join(r.name for r in runs)
    with pdf_pages(folder / "comparison.pdf") as pdf:
        page = Page(pdf)
        page.section("runs", "Runs")
        rows = [(r.name, getattr(r, "title", ""), getattr(r, "regulation", ""), r.results.status,
                 f"{1e3 * (r.results.t[-1] - r.results.t[0]):.0f} ms") for r in runs]
        header = ("run", "represents", "regulation", "status", "simulated")
        page.html(table_html(header, rows) + "<p>The first run is the reference of the ratings.</p>")
        page.pdf_page(F.table_page(title, header, rows))
        page.figure(F.pulse(runs), "vehicle pulses")
        page.section("criteria", "Criteria side by side")
        ch, cr, cc = criteria_side_by_side(runs)
        page.html(_cells_html(ch, cr, cc))
        page.pdf_page(F.table_page("Criteria side by side (green: within the limit, red: exceeds it)",
                                   ch, cr, [None] * len(cr), cell_colours=cc))
        page.section("trajectories", "Trajectories relative to the vehicle")
        page.figure(F.trajectories(runs), "trajectories", "Line style per run: " + ", ".join(
            f"{s} {r.name}" for s, r in zip(("solid", "dashed", "dotted", "dash-dot"), runs)))
        if runs[0].results.channels:
            page.section("channels", "Sensor channels")
            page.figure(F.channels(runs), "channels", "Line style per run as above; each channel filtered "
                                                      "with the CFC class its criteria prescribe.")
        if rating:
            page.section("rating", "ISO/TS 18571 correlation with the reference")
            ratings = rate_runs(runs[0], runs[1:])
            rows = [(name, other, "-" if r is None else f"{r:.3f}", "not rated" if r is None else grade(r))
                    for name, other, r in ratings]
            colours = [GRADE_COLOURS.get(row[3]) for row in rows]
            header = ("channel", "compared run", "ISO/TS 18571 rating", "grade")
            note = (f"Reference: {runs[0].name}. Overall rating (0.4 corridor, 0.2 phase, 0.2 magnitude, "
                    "0.2 slope); grades excellent > 0.94, good > 0.80, fair > 0.58. Not rated: a reference "
                    "channel whose peak is below 1 % of its X, Y, Z group's largest (noise).")
            page.html(f"<p>{H.escape(note)}</p>" + table_html(header, rows, colours))
            for k in range(0, len(rows), 28):
                page.pdf_page(F.table_page("ISO/TS 18571 ratings" + (" (continued)" if k else ""), header,
                                           rows[k:k + 28], colours[k:k + 28], (note,)))
    (folder / "comparison.html").write_text(document(title, page), encoding="utf-8")
    return folder / "comparison.html", folder / "comparison.pdf"
