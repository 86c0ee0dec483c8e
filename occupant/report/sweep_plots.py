"""Plots of a sweep (occupant.scenario.sweep): for each criterion one PNG with a panel per varied
key, the criterion's value of every finished variant against that key's value, its limit as a
dashed line, the variants beyond it in red. Variants without a value (those that could not run
or stopped early, which claim no criteria: occupant.scenario.run) are left out and counted in
the title."""
from pathlib import Path

from matplotlib.ticker import MaxNLocator

from occupant.report.figures import plt   # the Agg backend, set once there
from occupant.display import count_text
from occupant.scenario.keys import unit as key_unit

CORE = ("variant", "status")
# characters of the longest category drawn as its own tick label; a longer one (a table varied
# whole: --vary 'contact_characteristic.knee_bolster=[{table=...}, ...]') pushed the axes out of
# the figure, ticks, labels and all, with a "Tight layout not applied" warning each: such values
# are drawn as "value 1", "value 2", ... in the order met, sweep.csv's rows giving them
CATEGORY_CHARS = 24
# lines of variants sharing the other keys' values drawn in a panel at most [E: a figure's
# readable count of labelled lines in a 3.6-inch panel]
MAX_SERIES = 8


def _number(v):
    """A value as a number, None for a category: a text, and true/false (drawn at 1.0 and 0.0 on a
    number axis from 0 to 1 until stop 49)."""
    if isinstance(v, bool):
        return None
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def _category(v):
    """A category's label as the scenario file writes it: true/false, not Python's True/False."""
    return str(v).lower() if isinstance(v, bool) else str(v)


def _tick(v):
    """A category's tick label: a table's values alone (``{sex="male", percentile=50}``: "male,
    50"; the key's name is the axis's), anything else as ``_category``."""
    if isinstance(v, dict):
        return ", ".join(_category(x) for x in v.values())
    return _category(v)


def _draw_series(ax, rows, name, key, others, categories):
    """The variants that share the values of the ``others`` keys joined by a thin line along
    ``key``, each line labelled at its right end by those values, where that makes a readable
    figure: a full factorial of two or more keys (a Latin hypercube shares no values), at most
    MAX_SERIES lines. Without them a 4 x 5 sweep's panel was 20 points in 4 columns, which
    delta-v each was unsaid (usercheck9)."""
    series = {}
    for r in rows:
        y = _number(r[name])
        if y is not None:
            x = categories.index(_category(r[key])) if categories else _number(r[key])
            label = ", ".join(_tick(r[k]) if _number(r[k]) is None else f"{_number(r[k]):g}" for k in others)
            series.setdefault(label, []).append((x, y))
    if not others or not 1 < len(series) <= MAX_SERIES or any(len(p) < 2 for p in series.values()) \
            or max(len(label) for label in series) > CATEGORY_CHARS:
        return
    for label, pts in series.items():
        x, y = zip(*sorted(pts))
        ax.plot(x, y, color="#9aa7b5", lw=0.8, zorder=2)
        ax.annotate(label, (x[-1], y[-1]), xytext=(3, 0), textcoords="offset points", fontsize=6,
                    color="#5a6775", va="center")
    ax.margins(x=0.12)   # room for the labels at the lines' right ends
    ax.set_title(f"lines: same {', '.join(others)}", fontsize=7, color="#5a6775")


def criterion_names(rows, keys):
    return [k for k in (rows[0] if rows else {}) if k not in CORE and k not in keys]


def write_plots(rows, keys, folder, limits=None, units=None, dpi=90):
    """One ``folder/<criterion>.png`` per criterion of the sweep's table ``rows``; returns the
    paths. A key whose values are not numbers is drawn as categories in the order met.
    ``limits`` and ``units``: {criterion: limit} and {criterion: display unit} (criteria.csv's)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    limits, units = limits or {}, units or {}
    paths = []
    for name in criterion_names(rows, keys):
        fig, axes = plt.subplots(1, len(keys), figsize=(3.6 * len(keys) + 0.6, 3.4), squeeze=False,
                                 sharey=True)
        missing = sum(_number(r[name]) is None for r in rows)
        for ax, key in zip(axes[0], keys):
            xs = [r[key] for r in rows]
            categories = None
            if any(_number(x) is None for x in xs):
                categories = list(dict.fromkeys(_category(x) for x in xs))
            pts = [((categories.index(_category(r[key])) if categories else _number(r[key])), _number(r[name]))
                   for r in rows if _number(r[name]) is not None]
            _draw_series(ax, rows, name, key, [k for k in keys if k != key], categories)
            limit = limits.get(name)
            within = [p for p in pts if limit is None or abs(p[1]) <= abs(limit)]   # as limits.assess
            beyond = [p for p in pts if p not in within]
            for group, colour, label in ((within, "#3a70b0", "variant"), (beyond, "#c0392b", "beyond the limit")):
                if group:
                    x, y = zip(*group)
                    ax.scatter(x, y, s=22, c=colour, label=label, zorder=3)
            label = f"{key} ({key_unit(key)})" if key_unit(key) else key
            if categories:
                ticks = list(dict.fromkeys(_tick(x) for x in xs))
                if len(ticks) != len(categories) or max(len(c) for c in ticks) > CATEGORY_CHARS:
                    ticks = [f"value {i + 1}" for i in range(len(categories))]
                    label = f"{key}\n(value n: its n-th value met in sweep.csv)"
                ax.set_xticks(range(len(categories)), ticks, rotation=20, fontsize=8)
                ax.set_xlim(-0.5, len(categories) - 0.5)
            else:   # at most 5 ticks: 0.0125-step labels of a 3.6-inch panel ran into each other
                ax.xaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
            if limit is not None:
                ax.axhline(limit, color="#c0392b", ls="--", lw=1, label="limit")
            ax.set_xlabel(label, fontsize=9)
            ax.grid(alpha=0.3)
        unit = units.get(name, "")
        axes[0][0].set_ylabel(f"{name} ({unit})" if unit else name, fontsize=9)
        handles, labels = axes[0][0].get_legend_handles_labels()
        if len(labels) > 1:
            axes[0][0].legend(fontsize=7)
        title = f"{name} against the varied keys ({len(rows) - missing} of {count_text(len(rows), 'variant')})"
        fig.suptitle(title, fontsize=10)
        fig.tight_layout()
        # (a sign kept: "neck shear Fx+" was neck_shear_Fx_.png beside neck_shear_Fx-.png)
        path = folder / f"{''.join(c if c.isalnum() or c in '-_.+' else '_' for c in name)}.png"
        fig.savefig(path, dpi=dpi)
        plt.close(fig)
        paths.append(path)
    return paths
