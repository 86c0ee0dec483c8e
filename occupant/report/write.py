"""``write(run, folder)``: the report of one run as ``folder/report.html`` (one self-contained
file: figures as embedded PNG, plotly.js inline) and ``folder/report.pdf`` (the same figures and
tables, one A4 landscape page each, matplotlib PdfPages)."""
import base64
import contextlib
import html as H
from pathlib import Path

import matplotlib.pyplot as plt
from matplotlib.backends.backend_pdf import PdfPages

from occupant.display import unjudged_heading
from occupant.report import data as D
from occupant.report import figures as F
from occupant.report import tables as T
from occupant.report.parallel import Background
from occupant.scenario.defects import run_defect_lines

CSS = """
body{font-family:Helvetica,Arial,sans-serif;margin:0 auto;max-width:1180px;padding:0 16px;color:#222}
h1{font-size:24px;margin:18px 0 4px} h2{font-size:18px;border-bottom:2px solid #3a70b0;padding-bottom:3px;margin-top:30px}
nav a{margin-right:12px;font-size:13px} table{border-collapse:collapse;font-size:13px;margin:6px 0}
td,th{border:1px solid #bbb;padding:3px 8px;text-align:left} td:last-child{overflow-wrap:anywhere} th{background:#e4e4e4}
img{max-width:100%;display:block;margin:6px 0} .caption{font-size:12px;color:#555;margin-bottom:10px}
.renders{display:grid;grid-template-columns:repeat(4,minmax(0,1fr));gap:8px} .renders figure{margin:0} figcaption{font-size:12px;text-align:center}
.verdict{font-weight:bold;padding:4px 10px;display:inline-block;border-radius:3px}
"""


DPI = 110   # of the figures: 1285 pixels across the A4 landscape width


class Page:
    """Sections of the report, each added to the HTML body and, as pages, to the PDF."""

    def __init__(self, pdf, dpi=DPI):
        self.pdf, self.dpi, self.parts, self.nav = pdf, dpi, [], []

    def section(self, anchor, title):
        self.nav.append(f'<a href="#{anchor}">{H.escape(title)}</a>')
        self.parts.append(f'<h2 id="{anchor}">{H.escape(title)}</h2>')

    def html(self, text):
        self.parts.append(text)

    def figure(self, fig, alt, caption="", pdf=True):
        """Embed a matplotlib figure (closed here), or one drawn already (``drawn``), as PNG
        and add its pixels as a PDF page."""
        rgba, png = fig if isinstance(fig, tuple) else drawn(fig, self.dpi)
        self.parts.append(f'<img alt="{H.escape(alt)}" src="data:image/png;base64,{_base64(png)}">')
        if caption:
            self.parts.append(f'<div class="caption">{H.escape(caption)}</div>')
        if pdf and self.pdf is not None:   # the same pixels on a page: as vectors it costs 2-3 times more
            for sheet in F.raster_pages(rgba, self.dpi, caption):
                self.pdf_page(sheet)

    def pdf_page(self, fig):
        if self.pdf is not None:
            self.pdf.savefig(fig)
        plt.close(fig)


def drawn(fig, dpi=DPI):
    """(RGBA pixels, PNG bytes) of a figure drawn at ``dpi`` (None for None); closes it."""
    if fig is None:
        return None
    rgba = F.pixels(fig, dpi)
    plt.close(fig)
    return rgba, F.png_bytes(rgba, dpi)


def _base64(png):
    return base64.b64encode(png).decode("ascii")


def _phases(page, later, key, alt, precrash, note=""):
    """Add the figure ``later[key]``: of the whole run, or of a run with a pre-crash phase
    (``precrash``: (start, crash's start) s) its crash, then ``later["precrash " + key]``, that
    phase at its own scale; either left out when None (nothing to draw in it)."""
    if precrash is None:
        page.figure(later[key], alt, note[:1].upper() + note[1:])
        return
    start, impact = (1e3 * t for t in precrash)
    tail = f"; {note}" if note else "."
    if later[key] is not None:
        page.figure(later[key], f"{alt} in the crash",
                    f"The crash, from its start at {impact:.0f} ms; the pre-crash phase below{tail}")
    if later["precrash " + key] is not None:
        page.html("<h3>Pre-crash phase</h3>")
        page.figure(later["precrash " + key], f"{alt} before the crash",
                    f"The pre-crash phase, {start:.0f}-{impact:.0f} ms, at its own scale{tail}")


def table_html(header, rows, colours=None):
    head = "".join(f"<th>{H.escape(h)}</th>" for h in header) if header else ""
    body = []
    for k, row in enumerate(rows):
        style = f' style="background:{colours[k]}"' if colours and colours[k] else ""
        body.append(f"<tr{style}>" + "".join(f"<td>{H.escape(str(c))}</td>" for c in row) + "</tr>")
    return f"<table>{'<tr>' + head + '</tr>' if head else ''}{''.join(body)}</table>"


def document(title, page):
    """The page's HTML. Nothing in it depends on when or how fast it was written: the same runs
    give the same file byte for byte."""
    nav = " ".join(page.nav)
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{H.escape(title)}</title><style>{CSS}</style></head><body>"
            f"<h1>{H.escape(title)}</h1><nav>{nav}</nav>{''.join(page.parts)}</body></html>")


def pdf_pages(path):
    """PdfPages of ``path`` without a creation date, so that the same runs give the same file."""
    return PdfPages(path, metadata={"CreationDate": None})


def write(run, folder, *, viewer=True, renders=True, frame_spacing=None, html=True, pdf=True, parallel=True,
          meanwhile=None):
    """Write ``folder/report.html`` and ``folder/report.pdf`` for ``run`` (module docstring of
    occupant.report.data lists its fields); ``html``/``pdf`` False leaves that one out. With
    ``parallel`` the figures and the viewer are made by this process and a second one, whichever
    is free (occupant.report.parallel; the same files either way); ``meanwhile``, a function of
    no arguments, runs here first, while that process draws (occupant.scenario.run.write_run
    writes the run's other files then). Returns (html path or None, pdf path or None)."""
    from occupant.report import viewer as V
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    res = run.results
    title = f"Occupant simulation report: {run.name}"
    header, crit_rows, crit_colours, verdicts = T.criteria_rows(run.criteria)
    impact = D.crash_start(run)   # a pre-crash phase: the channels from the crash on, that phase apart
    crash, precrash = (None, None) if impact is None else ((impact, res.t[-1]), (res.t[0], impact))
    times = D.strip_times(run, frame_spacing)
    # the figures, drawn by this process and a second one (occupant.report.parallel): the second
    # starts with the pulse while this one writes the run's other files (meanwhile) and renders
    # the 3D views; then each takes the next one: the kinematics (the next page), then the others
    # the longest first (CPU s of us_ncap_frontal_56 [E]: ~0.5-0.8 each of the strip, restraints
    # and channels, ~0.1-0.3 each of the last three), so that they end together; the viewer, in
    # the HTML only, last: asked for once the PDF is closed (~0.5 s: its images compressed), it
    # may be drawn meanwhile
    figures = {"pulse": lambda: drawn(F.pulse([run])),
               **{f"strip {view[0]}": lambda view=view: drawn(F.kinematics_strip(run, times, view))
                  for view in D.views(run)},
               "restraints": lambda: drawn(F.restraints(run, window=crash)),
               "channels": lambda: drawn(F.channels([run], window=crash)) if res.channels else None,
               "precrash restraints": lambda: drawn(F.restraints(run, window=precrash)) if precrash else None,
               "precrash channels": lambda: drawn(F.channels([run], window=precrash))
               if res.channels and precrash else None,
               "trajectories": lambda: drawn(F.trajectories([run])),
               "energy": lambda: drawn(F.energy(run)),
               "viewer": lambda: V.html(run) if viewer and html else None}
    with Background(figures, parallel) as later:
        with pdf_pages(folder / "report.pdf") if pdf else contextlib.nullcontext() as pages:
            if meanwhile is not None:
                meanwhile()
            instants, images = [], []
            if renders:   # (VTK imported only then; OpenGL in this process only)
                from occupant.report import render3d
                instants = render3d.key_instants(run)
                images = render3d.render(run, [i for _, i in instants])
            page = Page(pages)
            # summary
            page.section("summary", "Scenario summary")
            failed = sum(v is False for v in verdicts)
            judged = sum(v is not None for v in verdicts)
            verdict = (f"{failed} of {judged} criteria exceed their limits" if failed else
                       f"all {judged} judged criteria within their limits") if judged else "no criterion judged"
            page.html(f'<p class="verdict" style="background:{T.PASS_COLOURS[not failed if judged else None]}">'
                      f'{H.escape(verdict)}</p>')
            if res.status not in ("finished", "event"):
                page.html(f'<p class="verdict" style="background:{T.PASS_COLOURS[False]}">The run stopped early '
                          f'({H.escape(res.status)}): {H.escape(res.message)}. Everything below covers '
                          f'0-{1e3 * res.t[-1]:.1f} ms only.</p>')
            page.html(table_html(None, T.summary_rows(run)))
            scenario = T.with_units(T.flatten(run.scenario))
            if scenario:
                page.html("<h3>Scenario settings</h3>" + table_html(("key", "value"), scenario))
            for sheet in F.text_pages(title, [("Run", T.summary_rows(run) + [("verdict", verdict)]),
                                              ("Scenario settings", scenario)]):
                page.pdf_page(sheet)
            what = D.moving_object(run)
            page.figure(later["pulse"], f"{what} pulse",
                        "The car's motion along the road (B0, the road, stands still)." if what == "car"
                        else f"The {what}'s (B0) motion the occupant rides in, along each axis it moves on.")
            # criteria
            page.section("criteria", f"Injury criteria ({run.regulation or unjudged_heading(run.criteria)})")
            page.html(table_html(header, crit_rows, crit_colours))
            # the run's notes (why a limit is shown but not judged, what the run does not represent),
            # then why a criterion could not be computed: the table's legend points to them
            reasons = [*run_defect_lines(run), *(getattr(run, "notes", None) or []),
                       *T.criteria_notes(run.criteria),
                       *T.scale_notes(run.criteria)]
            for line in reasons:
                page.html(f'<div class="caption">{H.escape(line)}</div>')
            against = (f"Injury criteria against the limits of {run.regulation}" if run.regulation
                       else f"Injury criteria ({unjudged_heading(run.criteria)})")
            page.pdf_page(F.table_page(against, header,
                                       crit_rows, crit_colours, ("green: within the limit, red: exceeds it, "
                                                                  "grey: no limit in this protocol, or "
                                                                  "not judged (see the notes)", *reasons)))
            # kinematics
            page.section("kinematics", "Kinematics")
            for view in D.views(run):   # the plane(s) the pulse moves the occupant in
                page.figure(later[f"strip {view[0]}"], f"{view[0].lower()} kinematics")
            if renders:
                page.html('<h3>3D views at key instants</h3><div class="renders">' + "".join(
                    # at half their pixels (the PDF's 2 x 2 grid sharp), cut to what they draw as
                    # the PDF's are, four in a row (a 1180 px page wrapped the fourth, uncut,
                    # under a row's height of white)
                    f'<figure><img alt="3D view {H.escape(c)}" width="{img.shape[1] // 2}" '
                    f'src="data:image/png;base64,{_base64(F.png_bytes(img))}">'
                    f"<figcaption>{H.escape(c)}</figcaption></figure>"
                    for (c, _), img in zip(instants, F.cropped(images))) + "</div>")
                page.pdf_page(F.image_page(f"3D views (VTK) at key instants, in the {D.frame_name(run)}", images,
                                           [c for c, _ in instants]))
            at = len(page.parts)   # the viewer's place
            page.section("trajectories", f"Trajectories in the {D.frame_name(run)}")
            page.figure(later["trajectories"], "trajectories")
            # channels
            if res.channels:
                page.section("channels", "Sensor channels")
                _phases(page, later, "channels", "sensor channels", precrash,
                        "each channel filtered with the CFC class its criteria prescribe (SAE J211-1); "
                        "accelerations in g, forces in kN, moments in N m, displacements in mm.")
            if later["restraints"] is not None or later["precrash restraints"] is not None:
                page.section("restraints", "Restraints and contacts")
                _phases(page, later, "restraints", "restraint outputs", precrash)
            page.section("solver", "Solver statistics and energy balance")
            solver = T.solver_rows(run)
            page.html(table_html(("item", "value"), solver))
            if later["energy"] is not None:
                page.figure(later["energy"], "energy balance",
                            "E(t) - E(0) = W(t): kinetic plus potential change equals the work of all "
                            "force producers (negative: dissipated or absorbed); the residual closes it.")
            for sheet in F.text_pages("Solver statistics", [("Solver", solver)]):
                page.pdf_page(sheet)
            if pages is not None:
                pages.infodict()["Title"] = title
        if later["viewer"] is not None:
            page.parts.insert(at, "<h3>Interactive 3D view</h3>" + later["viewer"])
    if html:
        (folder / "report.html").write_text(document(title, page), encoding="utf-8")
    return (folder / "report.html") if html else None, (folder / "report.pdf") if pdf else None
