"""``compare(runs, folder)``: two or more runs overlaid in ``folder/comparison.html`` and
``folder/comparison.pdf``: criteria side by side, the vehicle pulses, trajectories and channels
overlaid, and the ISO/TS 18571 rating of each channel of every run against the first (the
reference: a physical test or the baseline design)."""
import contextlib
import html as H
from collections import Counter
from pathlib import Path

from occupant.display import distinct_labels, unit_text, value_text
from occupant.report import figures as F
from occupant.report import tables as T
from occupant.report.write import Page, document, pdf_pages, table_html

#: matplotlib line styles of the 1st, 2nd... run in the overlaid figures (occupant.report.figures),
#: as the captions name them
LINE_STYLES = ("solid", "dashed", "dotted", "dash-dot")
GRADE_COLOURS = {"excellent": "#b9e4b9", "good": "#dcf0c8", "fair": "#f7e7b4", "poor": "#f6c6c6", None: "#eeeeee"}


def criteria_side_by_side(runs, labels=None):
    """(header, rows, per-cell colours) of every criterion of any run: its limit and each run's
    value, a column per run headed by its label (default: its name)."""
    names = []
    for run in runs:
        names += [c["criterion"] for c in run.criteria if c["criterion"] not in names]
    header = ["criterion", "unit", "limit"] + list(labels or [r.name for r in runs])
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


def settings_that_differ(runs):
    """[(dotted key, each run's value with its unit)] of the scenario settings (file plus
    overrides, as run) that are not the same in every run: what the compared designs differ in
    (``--set restraints.belt.load_limit=3000`` against 6000); "-" where a run has no such key.
    A list of tables (``[[contact]]``) is compared by its tables, not their places in it: one row,
    "KEY (tables not in every run)", each run's tables that the others lack ("-" for none), so
    that a table added or removed does not show every later one as changed."""
    scenarios = [getattr(r, "scenario", None) or {} for r in runs]
    lists = [_table_lists(s) for s in scenarios]
    rows = []
    for key in dict.fromkeys(k for found in lists for k in found):
        entries = [[_table_text(t) for t in found.get(key, [])] for found in lists]
        common = Counter(entries[0])
        for e in entries[1:]:
            common &= Counter(e)
        extra = [list((Counter(e) - common).elements()) for e in entries]
        if any(extra):
            rows.append((f"{key} (tables not in every run)", *("; ".join(x) or "-" for x in extra)))
    tables = [dict(T.with_units(T.flatten(_without(s, found)))) for s, found in zip(scenarios, lists)]
    keys = list(dict.fromkeys(k for table in tables for k in table))
    plain = [(k, *(table.get(k, "-") for table in tables)) for k in keys]
    return [row for row in plain if len(set(row[1:])) > 1] + rows


def _table_lists(d, prefix=""):
    """{dotted key: list of tables} of the lists of tables in a nested dict."""
    found = {}
    for k, v in d.items():
        if isinstance(v, dict):
            found.update(_table_lists(v, f"{prefix}{k}."))
        elif isinstance(v, (list, tuple)) and v and all(isinstance(x, dict) for x in v):
            found[f"{prefix}{k}"] = list(v)
    return found


def _without(d, found, prefix=""):
    """``d`` without the lists of tables ``found`` (_table_lists)."""
    return {k: _without(v, found, f"{prefix}{k}.") if isinstance(v, dict) else v
            for k, v in d.items() if f"{prefix}{k}" not in found}


def _table_text(table):
    """One table of a list, as its keys and values read (``a = ..., b = ...``)."""
    return ", ".join(f"{k} = {v}" for k, v in T.with_units(T.flatten(table)))


RUN_HEADER = ("run", "scenario", "represents", "occupant", "regulation", "status", "simulated")


def run_rows(runs, labels):
    """A row per run (RUN_HEADER): its scenario, what the scenario represents, the occupant it
    carried (a dummy, or the parametric human that replaced the scenario's: usercheck6, the
    comparison of a dummy and a human named neither), its regulation ("-": none judged) and
    status."""
    return [(label, r.name, getattr(r, "title", ""), getattr(r.model, "name", "?"),
             getattr(r, "regulation", "") or "-", r.results.status,
             f"{1e3 * (r.results.t[-1] - r.results.t[0]):.0f} ms") for label, r in zip(labels, runs)]


def _runs_text(labels, rows, differ):
    """The PDF's first page (occupant.report.figures.text_pages sections): each run's scenario,
    what it represents, occupant, regulation and status, then the settings that differ (a table
    of a column per run cut the long titles to a column's width)."""
    sections = [(f"Run {label}" + (" (the reference of the ratings)" if k == 0 else ""),
                 list(zip(RUN_HEADER[1:], row[1:])))
                for k, (label, row) in enumerate(zip(labels, rows))]
    settings = [(key, "; ".join(f"{label}: {v}" for label, v in zip(labels, values)))
                for key, *values in differ] or [("(none)", "every run has the same scenario settings")]
    return sections + [("Settings that differ", settings)]


def compare(runs, folder, *, labels=None, rating=True, html=True, pdf=True):
    """Write ``folder/comparison.html`` and ``folder/comparison.pdf`` (``html``/``pdf`` False
    leaves that one out); ``labels`` name the runs in tables and legends (default: their names,
    made distinct: occupant.display.distinct_labels). Returns (html path or None, pdf path or None)."""
    from occupant.report.correlation import grade, rate_runs
    if len(runs) < 2:
        raise ValueError(f"compare: give two or more runs, got {len(runs)}")
    labels = distinct_labels(list(labels) if labels is not None else [r.name for r in runs])
    if len(labels) != len(runs):
        raise ValueError(f"compare: {len(labels)} labels for {len(runs)} runs")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    title = "Comparison: " + " / ".join(labels)
    with pdf_pages(folder / "comparison.pdf") if pdf else contextlib.nullcontext() as pages:
        page = Page(pages)
        page.section("runs", "Runs")
        rows = run_rows(runs, labels)
        page.html(table_html(RUN_HEADER, rows) + "<p>The first run is the reference of the ratings.</p>")
        differ = settings_that_differ(runs)
        differ_header = ("setting", *labels)
        page.html("<h3>Settings that differ</h3>" + (table_html(differ_header, differ) if differ else
                                                      "<p>None: every run has the same scenario settings.</p>"))
        for sheet in F.text_pages(title, _runs_text(labels, rows, differ)):
            page.pdf_page(sheet)
        page.html("<h3>Vehicle pulses</h3>")
        page.figure(F.pulse(runs, labels), "vehicle pulses")
        page.section("criteria", "Criteria side by side")
        ch, cr, cc = criteria_side_by_side(runs, labels)
        page.html(_cells_html(ch, cr, cc))
        page.pdf_page(F.table_page("Criteria side by side (green: within the limit, red: exceeds it)",
                                   ch, cr, [None] * len(cr), cell_colours=cc))
        styles = ", ".join(f"{LINE_STYLES[k % len(LINE_STYLES)]} {label}" for k, label in enumerate(labels))
        page.section("trajectories", "Trajectories relative to the vehicle")
        page.figure(F.trajectories(runs, labels), "trajectories", f"Line style per run: {styles}.")
        if runs[0].results.channels:
            page.section("channels", "Sensor channels")
            page.figure(F.channels(runs, labels=labels), "channels",
                        f"Line style per run: {styles}; each channel filtered with the CFC class its "
                        "criteria prescribe.")
        if rating:
            page.section("rating", "ISO/TS 18571 correlation with the reference")
            ratings = rate_runs(runs[0], runs[1:], labels=labels[1:])
            rows = [(name, other, "-" if r is None else f"{r:.3f}", "not rated" if r is None else grade(r))
                    for name, other, r in ratings]
            colours = [GRADE_COLOURS.get(row[3]) for row in rows]
            header = ("channel", "compared run", "ISO/TS 18571 rating", "grade")
            note = (f"Reference: {labels[0]}. Overall rating (0.4 corridor, 0.2 phase, 0.2 magnitude, "
                    "0.2 slope); grades excellent > 0.94, good > 0.80, fair > 0.58. Not rated: a reference "
                    "channel whose peak is below 1 % of its X, Y, Z group's largest (noise).")
            page.html(f"<p>{H.escape(note)}</p>" + table_html(header, rows, colours))
            for k in range(0, len(rows), 28):
                page.pdf_page(F.table_page("ISO/TS 18571 ratings" + (" (continued)" if k else ""), header,
                                           rows[k:k + 28], colours[k:k + 28], (note,)))
        if pages is not None:
            pages.infodict()["Title"] = title
    if html:
        (folder / "comparison.html").write_text(document(title, page), encoding="utf-8")
    return (folder / "comparison.html") if html else None, (folder / "comparison.pdf") if pdf else None
