"""Figures of ``occupant validate`` and ``occupant certify`` (``--out DIR``): per case a PNG of
its time histories against the measured range (the volunteers' or specimens' runs, where the
case has them) with each figure's read point and corridor marked, its cross-plot where the
corridor is one (force against deflection of a thorax pendulum, moment against angle of a
quasi-static neck bend), and the table of its figures IN or OUT; and an index.html listing the
cases with their counts and images. The runners' results (occupant.human.validation,
occupant.human.certification) are read, never changed: views hold no physics."""
import html
import pathlib
import re

import numpy as np

from occupant.report import figures as F

plt = F.plt
UNITS = {"deg": "deg", "Nm": "N m", "mm": "mm", "kN": "kN", "N": "N", "g": "g"}
# what a history's name says besides its unit: the rotation (a sled case with several); one panel
# per (unit, rotation), split by axis when it would hold more than MAX_LINES (a belted sled's
# excursions and rises)
ROTATION_TAGS = ("flexion", "extension", "lateral", "axial")
AXIS_TAGS = ("_x_", "_y_", "_z_")
MAX_LINES = 5
# words of figure names that say how a figure is read, not what: a figure is read on a history
# that shares another word with it (peak_flexion_deg on head_flexion_deg)
READING_WORDS = {"peak", "final", "at", "time", "x", "y", "z", "excursion", "rise", "deceleration"}
BAND_LOW, BAND_HIGH = "runs_min_", "runs_max_"
INSIDE_COLOUR, OUTSIDE_COLOUR, CORRIDOR_COLOUR = "#2e8b3a", "#d62728", "#555555"
# time figures with no peak of their own: the history they are read on and its level there
# (49 CFR 572.33(b): the rotation's first zero in rebound, the moment's decay to decay_to_Nm)
CROSSINGS = {"rebound_zero_time_ms": ("rotation_deg", None),
             "decay_time_ms": ("oc_moment_Nm", "decay_to_Nm")}
THORAX_FORCE, THORAX_DEFLECTION = "probe_force_N", "deflection_mm"
BEND_MOMENT, BEND_ANGLE = "oc_moment_Nm", "head_flexion_deg"

# The time corridors of a shipped case whose figures are their peaks (the scenario's [corridor]
# holds the peaks only): drawn, never read. {case: (label, [(data file next to the case, format,
# {history: (lower, upper, sign)})])}; format "long": rows of (boundary, t ms, value), "wide": a
# "# t_ms,..." header naming its columns. Gold Standard 1: Shaw et al. (2009)'s boundaries as the
# SAFER HBM validation repository digitised them and Ash et al. (2012)'s corridors (the two files'
# headers say so); sign -1 where a file's axis is the opposite of the history's (SAE J211 z down
# against a rise; the sternum's x relative to T8, negative in, against a compression) [S]. The
# shoulder belts' corridors are the eight tests' own peaks (no boundary curves).
TIME_CORRIDORS = {
    "human_sled_gs1_40": ("PMHS corridor (Shaw 2009; Ash 2012)", [
        ("data/gs1_corridor_boundaries.csv", "long", {
            "head_x_mm": ("Head_x_disp_neg", "Head_x_disp_pos", 1.0),
            "t1_x_mm": ("T1_x_disp_neg", "T1_x_disp_pos", 1.0),
            "t8_x_mm": ("T8_x_disp_neg", "T8_x_disp_pos", 1.0),
            "hip_x_mm": ("Hip_x_disp_neg", "Hip_x_disp_pos", 1.0),
            "knee_x_mm": ("Knee_x_disp_neg", "Knee_x_disp_pos", 1.0),
            "t1_z_mm": ("T1_z_disp_neg", "T1_z_disp_pos", -1.0),
            "t8_z_mm": ("T8_z_disp_neg", "T8_z_disp_pos", -1.0),
            "chest_deflection_mm": ("Sternum_relT8_x_low", "Sternum_relT8_x_high", -1.0),
            "lap_belt_kN": ("Outer_lap_belt_neg", "Outer_lap_belt_pos", 1.0),
            "t1_x_g": ("T1_x_acc_neg", "T1_x_acc_pos", 1.0),
            "t8_x_g": ("T8_x_acc_neg", "T8_x_acc_pos", 1.0),
            "l2_x_g": ("L2_x_acc_neg", "L2_x_acc_pos", 1.0)}),
        ("data/gs1_ash_2012_corridors.csv", "wide", {
            "l2_x_mm": ("l2Xl", "l2Xu", 1.0), "l4_x_mm": ("l4Xl", "l4Xu", 1.0),
            "pelvis_z_mm": ("pZl", "pZu", -1.0),
            "right_acromion_x_mm": ("raXl", "raXu", 1.0),
            "left_acromion_x_mm": ("laXl", "laXu", 1.0)})]),
}


# The force-deflection corridors of a thorax pendulum case as their boundaries' polylines (the
# case's force_at and [corridor] figures are read off them: tests/human/test_validation_thorax.py
# reads them again): drawn, never read. {case: (label, data file next to the case, {column:
# value} of the rows kept)}; the file's last comment line names its columns, among them curve,
# deflection_mm and force_N.
FORCE_CORRIDORS = {
    "human_thorax_kroell_16mph": ("Lobdell 1972", "data/lobdell_1972_thorax_16mph.csv", {}),
    "human_thorax_hub_4_3ms_check": ("Lebarbe & Petit 2012", "data/lebarbe_2012_thorax_hub.csv",
                                     {"speed_mps": "4.3"}),
    "human_thorax_hub_6_7ms_check": ("Lebarbe & Petit 2012", "data/lebarbe_2012_thorax_hub.csv",
                                     {"speed_mps": "6.7"}),
}


def force_corridor(scenario, path):
    """(label, {curve: (n, 2) deflection mm, force N}) of the case's force-deflection corridor
    (FORCE_CORRIDORS) in the order digitised, ("", {}) when it has none."""
    if scenario.get("name") not in FORCE_CORRIDORS:
        return "", {}
    label, name, keep = FORCE_CORRIDORS[scenario["name"]]
    lines = (pathlib.Path(path).parent / name).read_text().splitlines()
    header = [ln for ln in lines if ln.startswith("#")][-1].lstrip("# ").split(",")
    out = {}
    for line in lines:
        if line.strip() and not line.startswith("#"):
            row = dict(zip(header, line.split(",")))
            if all(row[k] == v for k, v in keep.items()):
                out.setdefault(row["curve"], []).append((float(row["deflection_mm"]),
                                                         float(row["force_N"])))
    return label, {k: np.array(v) for k, v in out.items()}


def _read_curves(path, fmt):
    """{name: (n, 2) of t ms, value} of a time corridor file (TIME_CORRIDORS' formats)."""
    if fmt == "long":
        out = {}
        for line in pathlib.Path(path).read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                name, t, v = line.split(",")
                out.setdefault(name, []).append((float(t), float(v)))
        return {k: np.array(v) for k, v in out.items()}
    lines = pathlib.Path(path).read_text().splitlines()
    names = [ln for ln in lines if ln.startswith("# t_ms,")][-1][2:].split(",")
    data = np.loadtxt(path, delimiter=",", comments="#")
    return {n: np.column_stack([data[:, 0], data[:, i]]) for i, n in enumerate(names) if i}


def time_corridors(scenario, path):
    """(label, {history: [(n, 2) lower, (n, 2) upper] of t ms, value in the history's sense}) of
    the case's time corridors (TIME_CORRIDORS), ("", {}) when it has none."""
    label, files = TIME_CORRIDORS.get(scenario.get("name"), ("", []))
    out = {}
    for name, fmt, columns in files:
        curves = _read_curves(pathlib.Path(path).parent / name, fmt)
        for column, (lower, upper, sign) in columns.items():
            out[column] = [curves[b] * (1.0, sign) for b in (lower, upper)]
    return label, out


def unit_of(name):
    """The unit word ending a figure's or history's name ("peak_force_N" -> "N")."""
    return name.rsplit("_", 1)[-1]


def _tag(name, tags=ROTATION_TAGS):
    return next((t for t in tags if t in name), "")


def panels(history, own=()):
    """[(unit, tag, [model columns], [(low, high) band columns])] of a case's histories: one
    panel per unit and tag, a measured range (runs_min_X, runs_max_X) in the panel of its unit
    and tag; a history of ``own`` (one with a time corridor) on its own panel, tagged its name."""
    out = {}
    for name in history:
        if name.startswith(BAND_HIGH):
            continue
        key = (unit_of(name), name if name in own else
               _tag(name[len(BAND_LOW):] if name.startswith(BAND_LOW) else name))
        cols, bands = out.setdefault(key, ([], []))
        if name.startswith(BAND_LOW):
            bands.append((name, BAND_HIGH + name[len(BAND_LOW):]))
        else:
            cols.append(name)
    for (u, tag), (cols, bands) in list(out.items()):   # a case's one range, its runs untagged
        if not cols:
            del out[(u, tag)]
            for (u2, _), (cols2, bands2) in out.items():
                if u2 == u and not bands2:
                    bands2.extend(bands)
    result = []
    for (u, tag), (cols, bands) in out.items():
        if len(cols) <= MAX_LINES:
            result.append((u, tag, cols, bands))
            continue
        axes = {}
        for c in cols:
            axes.setdefault(_tag(c, AXIS_TAGS), []).append(c)
        result += [(u, f"{tag} {a.strip('_')}".strip(), these, bands) for a, these in axes.items()]
    return result


def _words(name):
    return set(name.split("_")[:-1]) - READING_WORDS


def _close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


def _peaks(t_ms, y):
    """[(value, x ms, y drawn, sign)] a peak figure of history ``y`` can be: its max, its min
    negated (a deceleration, a rotation of the test's negative sense: drawn below zero) or its
    min (a signed peak)."""
    hi, lo = int(np.nanargmax(y)), int(np.nanargmin(y))
    return [(float(y[hi]), float(t_ms[hi]), 1.0), (-float(y[lo]), float(t_ms[lo]), -1.0),
            (float(y[lo]), float(t_ms[lo]), 1.0)]


def read_point(name, value, t_ms, history, columns):
    """(x ms, y, column, sign) where the figure ``name`` of ``value`` was read on one of
    ``columns`` (the panel's) sharing a word of its name: its peak (``_peaks``), its last value
    (final_*) or its value at a time (*_at_<t>ms_*); a peak refined between samples
    (certification._peak) on the panel's one such column at its nearest reading; None when no
    column gives it."""
    at = re.search(r"_at_([0-9.]+)ms_", name)
    columns = [c for c in columns if _words(c) & _words(name)]
    for c in columns:
        y = np.asarray(history[c], float)
        if at:
            x = float(at.group(1))
            if _close(float(np.interp(x, t_ms, y)), value):
                return x, value, c, 1.0
        elif name.startswith("final_"):
            if _close(float(y[-1]), value):
                return float(t_ms[-1]), value, c, 1.0
        else:
            for v, x, sign in _peaks(t_ms, y):
                if _close(v, value):
                    return x, sign * value, c, sign
    if len(columns) == 1 and name.startswith("peak_"):
        v, x, sign = min(_peaks(t_ms, np.asarray(history[columns[0]], float)),
                         key=lambda p: abs(p[0] - value))
        return x, sign * value, columns[0], sign
    return None


def _mark(ax, x, y, ok, yspan=None, xspan=None, label=None):
    """A read point (green inside, red outside) with its corridor as grey bars."""
    if yspan is not None:
        ax.plot([x, x], yspan, color=CORRIDOR_COLOUR, lw=4, alpha=0.45, solid_capstyle="butt",
                label=label)
        label = None
    if xspan is not None:
        ax.plot(xspan, [y, y], color=CORRIDOR_COLOUR, lw=4, alpha=0.45, solid_capstyle="butt",
                label=label)
    ax.plot([x], [y], "o" if ok else "X", ms=7, color=INSIDE_COLOUR if ok else OUTSIDE_COLOUR,
            mec="black", mew=0.6, zorder=5)


def _time_panel(ax, unit, tag, cols, bands, t_ms, history, checks, corridor, scenario, corridors,
                done):
    label, curves = corridors
    for lo, hi in bands:
        ax.fill_between(t_ms, history[lo], history[hi], color="#f0b050", alpha=0.35, lw=0,
                        label="measured range")
    for c in cols:
        line, = ax.plot(t_ms, history[c], lw=1.4, label=c)
        for b in curves.get(c, []):
            ax.plot(b[:, 0], b[:, 1], "--", lw=0.9, color=line.get_color(), alpha=0.8, label=label)
            label = None
    span = t_ms[-1] - t_ms[0]      # the run's time (a time corridor may go on past it), a read
    ax.set_xlim(t_ms[0] - 0.01 * span, t_ms[-1] + 0.02 * span)   # point at the last sample whole
    labelled = False
    for name, (value, ok) in checks.items():
        if name in done or unit_of(name) != unit or not np.isfinite(value):
            continue
        found = read_point(name, value, t_ms, history, cols)
        if found is None:
            continue
        x, y, col, sign = found
        lo, hi = corridor[name]
        yspan = sorted((sign * lo, sign * hi))
        timing = name[:-len(unit)] + "time_ms" if name.startswith("peak_") else None
        xspan = None
        if timing in checks and timing in corridor:   # the peak and its time: one point, red if either is out
            x, timing_ok = checks[timing]
            ok, xspan = ok and timing_ok, corridor[timing]
            done.add(timing)
        _mark(ax, x, y, ok, yspan, xspan, None if labelled else "corridor")
        labelled = True
        done.add(name)
    for name, (col, level_key) in CROSSINGS.items():
        if name in checks and col in cols and name in corridor:
            level = float(scenario.get("corridor", {}).get(level_key, 0.0)) if level_key else 0.0
            _mark(ax, checks[name][0], level, checks[name][1], None, corridor[name],
                  None if labelled else "corridor")
            labelled = True
            done.add(name)
    # (an untagged panel named by its histories: a pendulum's "[N]" alone said nothing)
    what = tag or ", ".join(c.removesuffix(f"_{unit}").replace("_", " ") for c in cols)
    _finish(ax, "time (ms)", UNITS.get(unit, unit), f"{what} [{UNITS.get(unit, unit)}]".strip())


def _finish(ax, xlabel, ylabel, title):
    """A panel's labels, title, grid and legend."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6, loc="best")


def _force_deflection(ax, history, checks, corridor, scenario, path, done):
    """Force (N) against deflection (mm) over the case's corridor boundaries (``force_corridor``)
    with the force read at deflections, the peaks and the unloading deflection
    (occupant.human.validation.thorax_figures; certification's 572.34)."""
    f, d = np.asarray(history[THORAX_FORCE]), np.asarray(history[THORAX_DEFLECTION])
    label, curves = force_corridor(scenario, path)
    shown = set()
    for name, xy in curves.items():   # one legend entry for the boundaries, one for a mean
        what = "mean" if name == "mean" else "boundaries"
        ax.plot(xy[:, 0], xy[:, 1], color=CORRIDOR_COLOUR, lw=1.0, ls="--" if name == "mean" else "-",
                gid=name, label=f"_{label}" if what in shown else f"{label} {what}")
        shown.add(what)
    ax.plot(d, f, lw=1.4, color="C0", label="model")
    labelled = False
    for name, (value, ok) in checks.items():
        lo, hi = corridor[name]
        if not np.isfinite(value):
            continue
        at = re.fullmatch(r"force_at_([0-9.]+)mm_N", name)
        band = re.fullmatch(r"peak_force_([0-9.]+)_to_([0-9.]+)mm_N", name)
        if at:
            _mark(ax, float(at.group(1)), value, ok, (lo, hi), None, None if labelled else "corridor")
        elif band:
            a, b = float(band.group(1)), float(band.group(2))   # the force's peak between a and b mm
            ax.fill_between([a, b], lo, hi, color=CORRIDOR_COLOUR, alpha=0.15, lw=0)
            within = np.flatnonzero((d >= a) & (d <= b))
            _mark(ax, float(d[within[np.argmax(f[within])]]) if len(within) else 0.5 * (a + b), value, ok)
        elif name == "peak_force_N":
            _mark(ax, float(d[int(np.argmax(f))]), value, ok, (lo, hi), None,
                  None if labelled else "corridor")
        elif name == "peak_deflection_mm":
            _mark(ax, value, float(f[int(np.argmax(d))]), ok, None, (lo, hi),
                  None if labelled else "corridor")
        elif name == "unloaded_deflection_mm":
            _mark(ax, value, float(scenario.get("unload_level_N", 0.0)), ok, None, (lo, hi),
                  None if labelled else "corridor")
        else:
            continue
        labelled = True
        done.add(name)
    _finish(ax, "deflection (mm)", "force (N)", "force against deflection")


def _moment_angle(ax, history, checks, corridor, scenario, path, done):
    """Head flexion (deg) against the condyles' moment (N m) over the corridor's boundaries
    (the case's data file, neck_bend.read_corridor), the angles read at read_at_Nm marked."""
    from occupant.human import neck_bend
    from occupant.human.validation import read_columns

    bounds = neck_bend.read_corridor(read_columns(scenario, pathlib.Path(path).parent)[1])
    for b, style in zip(neck_bend.BOUNDARIES, ("--", ":")):
        ax.plot(bounds[b][:, 1], bounds[b][:, 0], style, color=CORRIDOR_COLOUR, lw=1.6,
                label=f"corridor {b} boundary")
    ax.plot(history[BEND_ANGLE], history[BEND_MOMENT], lw=1.4, color="C0", label="model")
    for m in scenario.get("read_at_Nm", []):
        name = neck_bend.figure_name(m)
        if name in checks and np.isfinite(checks[name][0]):
            _mark(ax, checks[name][0], m, checks[name][1], None, corridor[name])
            done.add(name)
    _finish(ax, "head flexion relative to T1 (deg)", "occipital condyle moment (N m)",
            "moment against angle")


def source_line(scenario, path):
    """The case's title key, else its file's first comment line (where the scenarios of
    scenarios/certification name their 49 CFR section)."""
    if scenario.get("title"):
        return scenario["title"]
    first = pathlib.Path(path).read_text().lstrip().splitlines()[0]
    return first.lstrip("# ").strip() if first.startswith("#") else ""


def case_figure(res, scenario, path, words=("IN", "OUT")):
    """The figure of one case (``res``: its runner's result: t, history, checks, corridor,
    input_checks / input_limits of a certification), its panels as ``panels`` and the
    cross-plots, the table of every figure below them; failing figures in red."""
    history = {k: np.asarray(v, float) for k, v in res["history"].items()}
    t_ms = 1e3 * np.asarray(res["t"], float)
    checks = res["checks"]
    corridor = {**scenario.get("corridor", {}), **res.get("corridor", {})}   # (a certification's: the file's)
    label, curves = time_corridors(scenario, path)
    groups = panels(history, own=curves)
    cross = ["force"] if THORAX_FORCE in history and THORAX_DEFLECTION in history else []
    if scenario.get("test") == "head_neck_bend":   # (the certification neck's moment is against time)
        cross.append("bend")
    rows = [(f"{section} {n}" if section else n, v, *limits[n], ok)
            for section, these, limits in (("pulse", res.get("input_checks", {}), res.get("input_limits", {})),
                                           ("", checks, corridor))
            for n, (v, ok) in these.items()]
    n = len(groups) + len(cross)
    ncol = min(3 if n <= 9 else 4, max(n, 1))
    nrow = int(np.ceil(n / ncol))
    table_h = 0.25 * (len(rows) + 1) + 0.3
    fig = plt.figure(figsize=(F.PAGE[0], 0.9 + 3.0 * nrow + table_h))
    grid = fig.add_gridspec(nrow + 1, ncol, height_ratios=[3.0] * nrow + [table_h],
                            left=0.07, right=0.98, top=1 - 0.75 / fig.get_figheight(),
                            bottom=0.02, hspace=0.45, wspace=0.25)
    axes = [fig.add_subplot(grid[k // ncol, k % ncol]) for k in range(n)]
    inside = sum(bool(ok) for *_, ok in rows)
    fig.suptitle(f"{scenario['name']}: {inside} of {len(rows)} figures inside\n{source_line(scenario, path)}",
                 fontsize=10, x=0.01, ha="left", y=1 - 0.08 / fig.get_figheight(), va="top")
    done = set()
    k = 0
    for kind in cross:
        if kind == "force":
            _force_deflection(axes[k], history, checks, corridor, scenario, path, done)
        else:
            _moment_angle(axes[k], history, checks, corridor, scenario, path, done)
        k += 1
    for unit, tag, cols, bands in groups:
        _time_panel(axes[k], unit, tag, cols, bands, t_ms, history, checks, corridor, scenario,
                    (label, curves), done)
        k += 1
    table_ax = fig.add_subplot(grid[nrow, :])
    table_ax.axis("off")
    if rows:
        text = [[name, f"{v:.4g}", f"[{lo:g}, {hi:g}]", words[0] if ok else words[1]]
                for name, v, lo, hi, ok in rows]
        tab = table_ax.table(cellText=text, colLabels=["figure", "model", "corridor", "verdict"],
                             loc="upper center", cellLoc="left", colWidths=[0.45, 0.15, 0.25, 0.1])
        tab.auto_set_font_size(False)
        tab.set_fontsize(8)
        for (r, c), cell in tab.get_celld().items():
            cell.set_height(1.0 / (len(rows) + 1))
            if r == 0:
                cell.set_facecolor("#dddddd")
            elif not rows[r - 1][-1]:
                cell.set_facecolor("#f6c6c6")
    return fig


def write_case(out_dir, res, scenario, path, words=("IN", "OUT")):
    """DIR/<name>.png of the case; (name, inside, figures) for the index."""
    fig = case_figure(res, scenario, path, words)
    try:
        (pathlib.Path(out_dir) / f"{scenario['name']}.png").write_bytes(F.png(fig))
    finally:
        plt.close(fig)
    checks = [*res["checks"].values(), *res.get("input_checks", {}).values()]
    return scenario["name"], sum(bool(ok) for _, ok in checks), len(checks)


def write_index(out_dir, cases, title):
    """DIR/index.html: each case (name, inside, figures) with its count, its CSV and its image."""
    items = "\n".join(
        f'<h2 id="{html.escape(n)}">{html.escape(n)}: {i} of {m} figures inside</h2>\n'
        f'<p><a href="{html.escape(n)}.csv">{html.escape(n)}.csv</a></p>\n'
        f'<img src="{html.escape(n)}.png" alt="{html.escape(n)}" style="max-width:100%">'
        for n, i, m in cases)
    rows = "\n".join(f'<tr><td><a href="#{html.escape(n)}">{html.escape(n)}</a></td>'
                     f'<td style="color:{INSIDE_COLOUR if i == m else OUTSIDE_COLOUR}">{i} of {m}</td></tr>'
                     for n, i, m in cases)
    (pathlib.Path(out_dir) / "index.html").write_text(
        f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title></head>"
        f"<body>\n<h1>{html.escape(title)}</h1>\n<table>\n<tr><th>case</th><th>figures inside</th></tr>\n"
        f"{rows}\n</table>\n{items}\n</body></html>\n")
