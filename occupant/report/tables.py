"""The report's tables as rows of strings: scenario summary, criteria against limits, solver
statistics. Shared by the HTML page and the PDF."""
import numpy as np

from occupant.display import unit_text, value_text
from occupant.shipped import display_path

PASS_COLOURS = {True: "#c8ecc8", False: "#f6c6c6", None: "#eeeeee"}


def flatten(d, prefix=""):
    """[(dotted key, value text)] of a nested dict: a list of tables (``[[contact]]``) as
    ``contact[0].a``, ... (it was one line cut at 90 characters: which pairs a run had could not
    be read), a list of names whole, a long list of numbers shortened."""
    rows = []
    for k, v in (d or {}).items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            rows += flatten(v, key + ".")
        elif isinstance(v, (list, tuple)) and v and all(isinstance(x, dict) for x in v):
            for i, table in enumerate(v):
                rows += flatten(table, f"{key}[{i}].")
        elif isinstance(v, str):
            rows.append((key, v))
        elif isinstance(v, (bool, np.bool_)):   # as a scenario file and --set write it (True,
            # Python's, was no value either takes: --set outputs.report=True is refused)
            rows.append((key, "true" if v else "false"))
        elif isinstance(v, (list, tuple, np.ndarray)) and len(v) > 6 and not all(isinstance(x, str) for x in v):
            rows.append((key, f"[{len(v)} values: {', '.join(map(str, list(v)[:3]))}, ...]"))
        else:
            rows.append((key, repr(v)))
    return rows


def with_units(rows):
    """``flatten``'s rows with each value's unit after it (occupant.scenario.keys: "0.15 s",
    "[0.3, -0.2, 0.6] m"; a unit of two columns in brackets, "(m, N)"); keys without a unit or
    unknown to the registry as they are."""
    from occupant.scenario.keys import unit
    out = []
    for key, text in rows:
        u = unit_text(unit(key))
        out.append((key, text if not u else f"{text} ({u})" if "," in u else f"{text} {u}"))
    return out


def number(v):
    if v is None:
        return "-"
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    try:
        x = float(v)
    except (TypeError, ValueError):
        return str(v)
    if not np.isfinite(x):
        return str(x)
    return f"{x:.4g}" if abs(x) < 1e3 else f"{x:.0f}"


def criteria_rows(criteria):
    """(header, rows, colours, verdicts): the criteria table and its pass/fail colours."""
    sliding = any(c.get("scale") for c in criteria or [])   # Euro NCAP: its scales and points
    header = ("criterion", "value", "unit", "limit", "result") + (
        ("sliding scale", "points") if sliding else ())
    rows, colours, verdicts = [], [], []
    for c in criteria or []:
        verdict = c.get("pass")
        verdict = None if verdict is None else bool(verdict)
        text = {True: "pass", False: "FAIL",
                None: "no limit" if c.get("limit") is None else "not judged"}[verdict]
        if c.get("value") is None and c.get("note"):
            text = "not computable"   # the reason: criteria_notes
        unit = str(c.get("unit", ""))
        row = (str(c.get("criterion")), value_text(c.get("value"), unit), unit_text(unit),
               value_text(c.get("limit"), unit), text)
        if sliding:
            scale = c.get("scale")
            row += ((f"{value_text(scale[0], unit)} to {value_text(scale[1], unit)}" if scale else "-"),
                    (f"{c['points']:.2f} of {number(c['max_points'])}" if c.get("points") is not None else "-"))
        rows.append(row)
        colours.append(PASS_COLOURS[verdict])
        verdicts.append(verdict)
    return header, rows, colours, verdicts


def criteria_notes(criteria):
    """["names: reason"] of the criteria that are not computable, one line per reason."""
    reasons = {}
    for c in criteria or []:
        if c.get("value") is None and c.get("note"):
            reasons.setdefault(c["note"], []).append(str(c.get("criterion")))
    return [f"{', '.join(names)}: {note}" for note, names in reasons.items()]


def scale_notes(criteria):
    """The legend of a table with sliding scales (Euro NCAP), or []."""
    if not any(c.get("scale") for c in criteria or []):
        return []
    return ["sliding scale: from the higher performance limit (all the points) to the lower one "
            "(none), linear between; limit: the capping limit, or the lower performance limit "
            "without one, the value that fails the criterion"]


def summary_rows(run):
    """[(item, text)] describing the run: what it represents, occupant, status, duration."""
    res, model = run.results, run.model
    rows = [("run", run.name), ("represents", getattr(run, "title", "") or "-"),
            ("regulation / protocol", getattr(run, "regulation", "") or "-"),
            ("model", f"{getattr(model, 'name', '?')}: {model.nb} bodies, {model.nv} degrees of freedom"),
            ("simulated", f"{1e3 * (res.t[-1] - res.t[0]):.1f} ms, {len(res.t)} samples"),
            ("status", res.status + (f": {res.message}" if res.message else "")),
            ("sensor channels", str(len(res.channels)))]
    return rows


def solver_rows(run):
    """[(statistic, value)] of the solver and the energy balance closure."""
    from occupant.report.data import energy_terms
    res = run.results
    rows = [(str(k), number(v) if not isinstance(v, str) else v) for k, v in (res.stats or {}).items()]
    rows.append(("status", res.status))
    if res.message:
        rows.append(("message", res.message))
    terms, closing = energy_terms(res)
    if terms:
        e = res.energy
        rows += [("total energy at start / end (J)", f"{number(e['total'][0])} / {number(e['total'][-1])}"),
                 ("work done by producers (J)", number(e["work"][-1])),
                 ("balance residual at end (J)", number(e["balance"][-1])),
                 ("max |residual| / largest term", f"{100 * closing:.3g} %")]
    for k, v in (res.provenance or {}).items():
        # whole: the PDF's text pages and the HTML's cells wrap a long value (cut at 90 characters
        # before, a run's overrides JSON lost its end; usercheck13)
        rows.append((f"provenance: {k}", display_path(v) if k == "scenario_file" and v else str(v)))
    return rows
