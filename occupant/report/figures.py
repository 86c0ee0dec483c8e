"""The report's static figures (matplotlib, Agg backend): each function takes a run (and what
occupant.report.data extracted) and returns a Figure, drawn once (pixels): its pixels are the
HTML page's PNG and, as they are, the PDF's pages (raster_pages)."""
import io
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.artist import Artist  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.patches import Ellipse, PathPatch, Polygon  # noqa: E402
from matplotlib.path import Path  # noqa: E402
from matplotlib import ticker as mticker  # noqa: E402
from matplotlib import transforms as mtransforms  # noqa: E402
import numpy as np  # noqa: E402

from occupant.report import data as D  # noqa: E402

REGION_COLOURS = (("head", "#e6862e"), ("neck", "#e6862e"), ("thorax", "#3a70b0"), ("torso", "#3a70b0"),
                  ("sternum", "#3a70b0"), ("abdomen", "#3a70b0"), ("pelvis", "#3a70b0"), ("arm", "#4f9a4f"),
                  ("hand", "#4f9a4f"), ("thigh", "#8a5aa8"), ("knee", "#8a5aa8"), ("shank", "#8a5aa8"),
                  ("leg", "#8a5aa8"), ("foot", "#8a5aa8"))
VEHICLE_COLOUR = "#7f7f7f"
AIRBAG_COLOUR = "#d9534f"
BELT_COLOUR = "#222222"
PAGE = (11.69, 8.27)   # A4 landscape, inches


def colour(name, segment=""):
    """The body region's colour of a shape by its name, else by its segment's (a scenario's
    knee sphere on the lower leg); grey, the vehicle's, only for what names neither."""
    return next((c for n in (name, segment) for key, c in REGION_COLOURS if key in n), "#999999")


def pixels(fig, dpi=100):
    """(h, w, 4) uint8 RGBA of a figure drawn by Agg at ``dpi``, top row first: the one drawing
    the HTML's PNG (png_bytes) and the PDF's pages (raster_pages) share. Its layout is then frozen."""
    fig.set_dpi(dpi)
    _ticks_in_view(fig)
    _titles_placed(fig)
    fig.canvas.draw()
    fig.set_layout_engine("none")
    return np.asarray(fig.canvas.buffer_rgba()).copy()


class _InView(mticker.AutoLocator):
    """matplotlib's default tick locator (AutoLocator) returning only the ticks its axis draws:
    the locator's list runs a step past each end of the view, and the axis made a Tick (two
    lines, a grid line and two texts: ~3 ms) for each of those too, to leave it undrawn. The
    same positions inside the view, the same test (matplotlib's Axis._update_ticks), the same
    pixels: a fifth fewer ticks made (us_ncap_frontal_56's report, branch reportspeed)."""

    def __call__(self):
        locs = super().__call__()
        scale = self.axis.get_transform()
        view = scale.transform(sorted(self.axis.get_view_interval()))
        return locs[[mtransforms._interval_contains_close(view, x) for x in scale.transform(locs)]]


def _ticks_in_view(fig):
    """Each axis of ``fig`` on matplotlib's default locator given _InView instead."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if type(axis.get_major_locator()) is mticker.AutoLocator:
                default = axis.isDefault_majloc
                axis.set_major_locator(_InView())
                axis.isDefault_majloc = default


def _titles_placed(fig):
    """Place each panel's title where matplotlib's drawing would (y = 1: above the panel) when
    nothing can push it higher: no tick labels or axis label on top, no offset text ("1e3")
    above the y axis. Left to itself matplotlib measures every y tick label at each drawing to
    find that offset text: a quarter of the time a panel takes to draw."""
    for ax in fig.axes:
        ax_y = ax.yaxis
        if (ax.get_title() and ax.xaxis.get_ticks_position() == "bottom"
                and ax.xaxis.get_label_position() == "bottom"):
            formatter = ax_y.get_major_formatter()
            formatter.set_locs(ax_y.get_majorticklocs())   # as the drawing sets them
            if not formatter.get_offset():
                ax.set_title(ax.get_title(), fontsize=ax.title.get_fontsize(), y=1.0)


def png_bytes(rgba, dpi=100):
    """PNG bytes of an RGBA (or RGB) array, ``dpi`` recorded in it: RGB when it is opaque (the
    figures: a tenth smaller), zlib level 3 (a third faster than the default 6, and the RGB file
    still smaller than the RGBA one at 6: us_ncap_frontal_56's figures)."""
    from PIL import Image
    if rgba.shape[2] == 4 and (rgba[:, :, 3] == 255).all():
        rgba = rgba[:, :, :3]
    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(rgba)).save(buf, format="png", compress_level=3, dpi=(dpi, dpi))
    return buf.getvalue()


def png(fig, dpi=100):
    """PNG bytes of a figure (the savefig of it)."""
    return png_bytes(pixels(fig, dpi), dpi)


def _view(ax, rel, i, shapes, surfaces, bags, belts, axes=(0, 2)):
    """Draw sample ``i`` projected on the B0 plane of ``axes`` (data.SIDE_VIEW, data.FRONT_VIEW).
    The caller sets the panel's limits (scene_box on its plane): the patches are added without updating
    the data limits (add_patch's update took 2/3 of the strip's build time)."""
    depth = 3 - sum(axes)             # the axis the view looks along
    sign = -1.0 if depth == 1 else 1.0   # side view seen from +y, front view from +x: far side first
    add = ax.add_artist
    for s in surfaces:
        X = D.surface_pose(rel, s)[i]
        c = s.outline @ X[:3, :3].T + X[:3, 3]
        if s.triangles is not None:   # a box, cylinder or mesh: its shadow, lightly, and its outline
            _solid(ax, *D.shadow(c, s.triangles, axes))
        elif D.facing(c, depth):   # outlined: filled, the dashboard and seat back of a front view hid the occupant
            add(Polygon(c[:, list(axes)], closed=True, fill=False, ec=VEHICLE_COLOUR, lw=0.8, alpha=0.6))
        else:
            add(Polygon(c[:, list(axes)], closed=True, fc=VEHICLE_COLOUR, ec=VEHICLE_COLOUR, lw=1.5, alpha=0.6))
    for s in sorted(shapes, key=lambda s: sign * s.center[depth]):
        (cx, cz), w, h, a = D.projected_ellipse(D.pose_of(rel, s.body)[i], s, axes)
        add(Ellipse((cx, cz), w, h, angle=a, fc=colour(s.name, s.segment), ec="k", lw=0.4, alpha=0.55))
    for shape, scale in bags:
        if scale[i].min() > 0.05:
            (cx, cz), w, h, a = D.projected_ellipse(D.pose_of(rel, shape.body)[i], D.scaled(shape, scale[i]),
                                                    axes)
            add(Ellipse((cx, cz), w, h, angle=a, fc=AIRBAG_COLOUR, ec=AIRBAG_COLOUR, alpha=0.35))
    for _, points in belts:
        ax.plot(points[i, :, axes[0]], points[i, :, axes[1]], color=BELT_COLOUR, lw=2.5, marker=".", ms=3)


SOLID_ALPHA = 0.3   # a solid's shadow: lighter than an edge-on plane's, the occupant seen through it [E]


def _solid(ax, fill, edges):
    """A solid's shadow (data.shadow): its projected triangles filled once (one path, non-zero
    rule: where they overlap no darker) and its outline's segments."""
    if len(fill):
        codes = np.tile([Path.MOVETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY], len(fill))
        verts = np.concatenate([fill, fill[:, :1]], axis=1).reshape(-1, 2)
        ax.add_artist(PathPatch(Path(verts, codes), fc=VEHICLE_COLOUR, ec="none", alpha=SOLID_ALPHA))
    if len(edges):
        ax.add_artist(LineCollection(edges, colors=VEHICLE_COLOUR, linewidths=0.8, alpha=0.8))


def scene_box(rel, shapes, surfaces, idx, pad=0.03):
    """((3,) min, (3,) max) m in B0 of every shape and bounded surface over the sample indices
    idx (the framing follows the bodies over all the instants shown; an unbounded plane, the
    road, is then drawn across it: data.spanned)."""
    pts = []
    for s in shapes:
        X = D.pose_of(rel, s.body)[idx]
        c = np.einsum("tij,j->ti", X[:, :3, :3], s.center) + X[:, :3, 3]
        r = float(np.max(s.semi_axes))
        pts += [c - r, c + r]
    for s in surfaces:
        if s.unbounded:
            continue
        X = D.surface_pose(rel, s)[idx]
        pts.append((np.einsum("tij,kj->tki", X[:, :3, :3], s.outline) + X[:, None, :3, 3]).reshape(-1, 3))
    p = np.concatenate(pts) if pts else np.zeros((1, 3))
    return p.min(axis=0) - pad, p.max(axis=0) + pad


def kinematics_strip(run, times, view=D.SIDE_VIEW):
    """Views of ``view`` (data.SIDE_VIEW: x-z plane of B0, data.FRONT_VIEW: y-z) at ``times``:
    the occupant's contact ellipsoids projected, the surfaces, airbags and belts."""
    res, model = run.results, run.model
    name, axes, labels = view
    rel = D.relative_poses(res)
    shapes, surfaces = D.shapes(model), D.surfaces(model, res)
    bags, belts = D.airbags(model, res), D.belt_routes(model, res)
    idx = D.sample_index(res.t, times)
    box = scene_box(rel, shapes, surfaces, idx)
    lim = box[0][axes[0]], box[1][axes[0]], box[0][axes[1]], box[1][axes[1]]
    surfaces = D.spanned(surfaces, rel, *box, idx[0])   # the road across every panel
    n = len(idx)
    ncol = min(n, 6)
    nrow = int(np.ceil(n / ncol))
    aspect = (lim[3] - lim[2]) / (lim[1] - lim[0])
    w = PAGE[0]
    height = min(PAGE[1], nrow * (w / ncol * aspect + 0.3) + 0.8)   # inches: panels, their titles, margins
    fig, axs = plt.subplots(nrow, ncol, figsize=(w, height), squeeze=False)
    fig.subplots_adjust(left=0.05, right=0.99, bottom=0.4 / height, top=1 - 0.45 / height, wspace=0.08,
                        hspace=0.3 * nrow / height + 0.1)
    for k, ax in enumerate(axs.flat):
        if k >= n:
            ax.axis("off")
            continue
        _view(ax, rel, idx[k], shapes, surfaces, bags, belts, axes)
        ax.set_xlim(lim[0], lim[1])
        ax.set_ylim(lim[2], lim[3])
        ax.set_aspect("equal")
        ax.set_title(f"{1e3 * res.t[idx[k]]:.0f} ms", fontsize=9)
        ax.tick_params(labelsize=6)
        ax.tick_params(labelleft=k % ncol == 0, labelbottom=k >= n - ncol)   # outer panels only
    gaps = np.diff(times)
    every = ("" if len(times) < 2 else f" every {1e3 * gaps[0]:.0f} ms" if np.allclose(gaps, gaps[0])
             else f" (the crash every {1e3 * gaps[-1]:.0f} ms)")
    plane = "xyz"[axes[0]] + "-" + "xyz"[axes[1]]
    outlined = any(D.facing(s.outline @ D.pose_of(rel, s.body)[idx[0], :3, :3].T, 3 - sum(axes))
                   for s in surfaces if s.triangles is None)
    solid = any(s.triangles is not None for s in surfaces)
    key = [text for present, text in ((surfaces, "surfaces grey" + (" (outlined where they face the view)"
                                                                    if outlined else "")
                                       + (", solids' shadows light" if solid else "")), (bags, "airbags red"),
                                      (belts, "belts black")) if len(present)]
    # pinned 0.08 inch below the top edge: at the default y = 0.98 a tall strip (the side view's
    # three rows) put it on the first row's panel titles
    fig.suptitle(f"{name}{every} in the {D.frame_name(run)}: contact ellipsoids projected on {plane}"
                 + "".join(f", {k}" for k in key), fontsize=10, y=1 - 0.08 / height, va="top")
    fig.supxlabel(labels[0], fontsize=8, y=0.005)
    fig.supylabel(labels[1], fontsize=8, x=0.005)
    return fig


def mark_crash(ax, run, label=True):
    """A dashed line at the crash's start (data.crash_start) on a time axis (ms) of a run with a
    pre-crash phase, so that a figure spanning the whole run shows where its phases meet."""
    impact = D.crash_start(run)
    if impact is not None:
        ax.axvline(1e3 * impact, color="0.4", ls="--", lw=0.9, zorder=0)
        if label:
            ax.annotate(" crash", (1e3 * impact, 1.0), xycoords=("data", "axes fraction"), va="top",
                        fontsize=7, color="0.3")


def trajectories(runs, labels=None):
    """Paths of head, chest, pelvis and knees relative to B0 (the vehicle, or the road of a
    pedestrian run) in the plane of the first run's view (side view x-z, front view y-z for a
    lateral pulse), and their excursions along the pulse, across it (horizontal) and vertically
    against time; several runs overlaid (solid, dashed, dotted...). A run with a pre-crash phase
    has its crash's start marked (square on the paths, dashed line on the time axes)."""
    styles = ("-", "--", ":", "-.")
    name, axes, axis_labels = D.views(runs[0])[-1]
    frame = D.frame_name(runs[0])
    along = D.pulse_direction(runs[0])
    across = np.cross((0.0, 0.0, 1.0), along)
    across = across / np.linalg.norm(across) if np.linalg.norm(across) > 0 else np.array([0.0, 1.0, 0.0])
    # B0's +y (+x for a side pulse) whichever way the pulse points: the rear sled's read "across
    # (0, -1, 0)" (z x its pulse), its left knee's outward motion drawn below 0
    across = across if across[np.argmax(np.abs(across))] > 0 else -across
    fig = plt.figure(figsize=(PAGE[0], 6.0))
    gs = fig.add_gridspec(3, 2, width_ratios=(1.2, 1), left=0.07, right=0.98, bottom=0.09, top=0.94,
                          wspace=0.18, hspace=0.12)
    plane = fig.add_subplot(gs[:, 0])
    panels = [fig.add_subplot(gs[k, 1]) for k in range(3)]
    directions = (along, across, np.array([0.0, 0.0, 1.0]))
    cmap = plt.get_cmap("tab10")
    for r, run in enumerate(runs):
        tr = D.trajectories(run.model, run.results)
        t_ms = 1e3 * run.results.t
        for k, (label, p) in enumerate(tr.items()):
            style = dict(color=cmap(k), ls=styles[r % len(styles)], lw=1.4)
            plane.plot(1e3 * p[:, axes[0]], 1e3 * p[:, axes[1]], label=label, **style)
            plane.plot(1e3 * p[0, axes[0]], 1e3 * p[0, axes[1]], "o", color=cmap(k), ms=3)
            impact = D.crash_start(run)
            if impact is not None:
                j = D.sample_index(run.results.t, np.array([impact]))[0]
                plane.plot(1e3 * p[j, axes[0]], 1e3 * p[j, axes[1]], "s", color=cmap(k), ms=3, mfc="none")
            for ax, d in zip(panels, directions):
                ax.plot(t_ms, 1e3 * (p - p[0]) @ d, **style)
        for ax in panels:
            mark_crash(ax, run, label=ax is panels[0] and r == 0)
    plane.set_aspect("equal", adjustable="datalim")
    plane.set_xlabel(axis_labels[0].replace("(m,", "(mm,"))
    plane.set_ylabel(axis_labels[1].replace("(m,", "(mm,"))
    crash = ", square: the crash's start" if any(D.crash_start(x) is not None for x in runs) else ""
    plane.set_title(f"Paths, {name.lower()} in the {frame} (dot: start{crash})", fontsize=10)
    if len(runs) == 1:
        plane.legend(fontsize=7, loc="best")
    else:   # a colour per body, a line style per run: n + 5 entries, not 5 n
        from matplotlib.lines import Line2D
        names = labels or [x.name for x in runs]
        handles = [Line2D([], [], color=cmap(k), lw=1.4, label=label) for k, label in enumerate(tr)]
        handles += [Line2D([], [], color="0.3", lw=1.4, ls=styles[r % len(styles)], label=names[r])
                    for r in range(len(runs))]
        plane.legend(handles=handles, fontsize=7, loc="best")
    plane.grid(alpha=0.3)
    vec = lambda d: "(" + ", ".join(f"{x:.2g}" for x in d + 0.0) + ")"   # noqa: E731
    lead = "along the car" if frame == "road frame" else "along pulse"   # a pedestrian's road: no pulse
    panels[0].set_ylabel(f"{lead} {vec(along)}\n(mm)", fontsize=8)
    panels[1].set_ylabel(f"across {vec(across)}\n(mm)", fontsize=8)
    panels[2].set_ylabel("vertical (mm)", fontsize=8)
    panels[2].set_xlabel("time (ms)")
    panels[0].set_title(f"Excursions from the start in the {frame}", fontsize=10)
    for ax in panels:
        ax.grid(alpha=0.3)
        ax.tick_params(labelsize=7)
    for ax in panels[:2]:
        ax.tick_params(labelbottom=False)
    return fig


def _grid(n, ncol=3, row_height=2.3, rows=None):
    """A figure of ``rows`` (default: enough for n) rows of ``ncol`` panels and its first ``n``
    panels (the places after them left empty), with the GridSpec they are on."""
    nrow = rows or max(1, int(np.ceil(n / ncol)))
    fig = plt.figure(figsize=(PAGE[0], 0.6 + row_height * nrow))
    fig.subplots_adjust(left=0.06, right=0.99, bottom=0.55 / fig.get_figheight() + 0.02,
                        top=1 - 0.35 / fig.get_figheight(), wspace=0.22, hspace=0.42)
    grid = fig.add_gridspec(nrow, ncol)
    return fig, [fig.add_subplot(grid[k // ncol, k % ncol]) for k in range(n)], grid


def channels(runs, groups=None, labels=None, window=None):
    """Time histories of the sensor channels, one panel per quantity (axes X, Y, Z overlaid),
    each filtered with the class its criteria prescribe; several runs overlaid (line styles).
    ``window`` (start, end) s: only that span drawn (the crash, or the pre-crash phase, of a run
    with one: data.crash_start), each channel filtered over its whole record first."""
    styles = ("-", "--", ":", "-.")
    groups = groups or list(D.channel_groups(runs[0].results.channels))
    fig, axes, grid = _grid(len(groups))
    colours = {"X": "#1f77b4", "Y": "#2ca02c", "Z": "#d62728"}
    own_legend = []   # panels whose traces are not axes X, Y, Z (the seat belt's cells): a legend each
    for ax, group in zip(axes, groups):
        cfcs = set()
        unit = ""
        traces = {}   # label -> colour: an axis its colour, the others tab10's in the order met
        for r, run in enumerate(runs):
            for ch in D.channel_groups(run.results.channels).get(group, []):
                t, v, unit, cfc = D.filtered_channel(ch)
                cfcs.add(cfc)
                keep = D.in_window(t, window)
                t, v = t[keep], v[keep]
                label = D.channel_label(ch)
                c = traces.setdefault(label, colours.get(label, f"C{len(traces) % 10}"))
                name = label if len(runs) == 1 else f"{label} {(labels or [x.name for x in runs])[r]}"
                ax.plot(1e3 * t, v, ls=styles[r % len(styles)], color=c, lw=1.1, label=name)
        if any(label not in colours for label in traces) and len(traces) > 1:
            own_legend.append((ax, traces))
        filt = ", ".join("raw" if c is None else f"CFC {c}" for c in sorted(cfcs, key=lambda c: c or 0))
        ax.set_title(f"{group} ({filt})", fontsize=9)
        ax.set_ylabel(unit, fontsize=8)
        if window is not None:
            ax.set_xlim(1e3 * window[0], 1e3 * window[1])
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    from matplotlib.lines import Line2D
    for ax, traces in own_legend:   # a colour per trace (the line styles: the runs, below)
        ax.legend(handles=[Line2D([], [], color=c, lw=1.1, label=label) for label, c in traces.items()],
                  fontsize=6, loc="best")
    if len(runs) == 1:
        if axes and axes[0] not in [ax for ax, _ in own_legend]:
            axes[0].legend(fontsize=6, loc="best")   # upper left hid the unbelted sled's head
    else:   # a colour per axis, a line style per run, under the panels: inside the first, 3 n
        # entries of a three-run comparison hid the head's X peak (comparecli)
        names = labels or [x.name for x in runs]
        handles = [Line2D([], [], color=c, lw=1.1, label=axis) for axis, c in colours.items()]
        handles += [Line2D([], [], color="0.3", lw=1.1, ls=styles[r % len(styles)], label=names[r])
                    for r in range(len(runs))]
        height = fig.get_figheight()
        fig.set_figheight(height + LEGEND_ROW)
        fig.subplots_adjust(bottom=(0.55 + LEGEND_ROW) / (height + LEGEND_ROW) + 0.02,
                            top=1 - 0.35 / (height + LEGEND_ROW))
        fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=8, frameon=False)
    for ax in axes:   # every panel's: the PDF cuts the grid into pages (raster_pages), and a
        # page of three rows had none, the last row's on the last page alone (usercheck12)
        ax.set_xlabel("time (ms)", fontsize=7, labelpad=1)
    return fig


LEGEND_ROW = 0.3   # inches under a figure's panels for a legend of its own


#: contact forces drawn in the restraints figure: those with the largest peaks, one colour each
CONTACTS_SHOWN = 10
#: series a restraint panel keeps its legend inside for; one with more (a belt's eight
#: segments) gets a row of its own with the legend beside it, where it hides no curve
LEGEND_INSIDE = 3


def restraints(run, window=None):
    """Belt and airbag outputs (webbing forces, payout, pressure, volume...), an interior hinge's
    rotation and moment and, on a row of its own with its legend beside it, the normal forces of
    the CONTACTS_SHOWN contacts that pushed hardest, against time; a panel of more than
    LEGEND_INSIDE series also on a row of its own. ``window`` (start, end) s: only that span
    drawn (as channels), contacts zero throughout it and panels whose every series holds one
    value throughout it (a bag not yet fired in a pre-crash phase: its 1 L volume, flat) left
    out. None when there is nothing to show."""
    res = run.results
    keep = D.in_window(res.t, window)
    panels = {title: (unit, {label: v[keep] for label, v in series.items()}) for title, (unit, series)
              in {**D.restraint_outputs(run.model, res), **D.hinge_outputs(run.model, res)}.items()
              if any(np.ptp(v[keep]) > 0 for v in series.values() if np.any(keep))}
    contacts = {name: f[keep] for name, f in D.contact_forces(res).items() if np.any(f[keep] != 0)}
    if not panels and not contacts:
        return None
    wide = [k for k, (_, series) in panels.items() if len(series) > LEGEND_INSIDE]
    small = [k for k in panels if k not in wide]
    ncol = 3
    first = int(np.ceil(len(small) / ncol))   # the first row of its own
    fig, axes, grid = _grid(len(small), ncol, rows=first + len(wide) + bool(contacts))
    t_ms = 1e3 * res.t[keep]
    for ax, title in zip(axes, small):
        unit, series = panels[title]
        for label, v in series.items():
            ax.plot(t_ms, v, lw=1.2, label=label)
        _restraint_axes(ax, title, unit, window)
        if len(series) > 1:
            ax.legend(fontsize=6, loc="best")
    rows = [(title, *panels[title], 1.0) for title in wide]
    if contacts:
        shown = sorted(contacts, key=lambda k: -np.max(contacts[k]))[:CONTACTS_SHOWN]
        more = f": the {len(shown)} largest of {len(contacts)}" if len(contacts) > len(shown) else ""
        rows.append((f"contact normal forces{more}", "kN", {name.replace("__", " / "): contacts[name]
                                                           for name in shown}, 1e-3))
    for k, (title, unit, series, factor) in enumerate(rows):
        ax = fig.add_subplot(grid[first + k, :ncol - 1])
        for j, (label, v) in enumerate(series.items()):   # past tab10's 10 colours, dashed: a bag's
            # 11th contact (right_hand_shell) was drawn as its 1st (head_shell), blue and solid
            ax.plot(t_ms, factor * v, lw=1.2, label=label, color=f"C{j % 10}", ls=("-", "--", ":")[j // 10 % 3])
        _restraint_axes(ax, title, unit, window)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    return fig


def _restraint_axes(ax, title, unit, window=None):
    if window is not None:
        ax.set_xlim(1e3 * window[0], 1e3 * window[1])
    ax.set_title(title, fontsize=9)
    ax.set_ylabel(unit, fontsize=8)
    ax.grid(alpha=0.3)
    ax.tick_params(labelsize=7)
    ax.set_xlabel("time (ms)", fontsize=8)


def energy(run):
    """Energy balance: changes of kinetic and potential energy, the work of each force producer
    (negative: dissipated or absorbed), and the residual E(t) - E(0) - W(t) that must stay ~0."""
    terms, closing = D.energy_terms(run.results)
    if not terms:
        return None
    fig, (ax, axb) = plt.subplots(1, 2, figsize=(PAGE[0], 3.6), gridspec_kw={"width_ratios": (2, 1)})
    t_ms = 1e3 * run.results.t
    for name, v in terms.items():
        if name != "balance":
            ax.plot(t_ms, 1e-3 * v, lw=1.3, label=name)
    ax.set_title("Energy change and work done since t = 0", fontsize=10)
    ax.set_ylabel("kJ")
    ax.set_xlabel("time (ms)")
    ax.legend(fontsize=7, loc="best")   # upper left hid the terms' first 20 ms (us_ncap_frontal_56)
    ax.grid(alpha=0.3)
    mark_crash(ax, run)
    fig.subplots_adjust(left=0.06, right=0.99, bottom=0.16, top=0.84, wspace=0.18)
    axb.plot(t_ms, terms["balance"], color="k", lw=1.2)
    # on two lines: on one, its third of the A4 page cut the title's end off (usercheck11)
    axb.set_title(f"Balance residual\n(max {100 * closing:.2g} % of the largest term)", fontsize=10)
    axb.set_ylabel("J")
    axb.set_xlabel("time (ms)")
    axb.grid(alpha=0.3)
    mark_crash(axb, run, label=False)
    return fig


def table_page(title, header, rows, colours=None, notes=(), cell_colours=None):
    """A PDF page holding a table: ``rows`` of strings, ``colours`` per row (or None), or
    ``cell_colours`` per cell."""
    fig = plt.figure(figsize=PAGE)
    lines = textwrap.wrap(title, 95) or [""]   # 95 characters of 15 pt bold fill the A4 width
    fig.text(0.05, 0.955, "\n".join(lines), fontsize=15, weight="bold", va="top")
    top = 0.90 - 0.035 * (len(lines) - 1)
    ax = fig.add_axes((0.05, 0.1, 0.9, top - 0.1))
    ax.axis("off")
    if rows:
        tab = ax.table(cellText=rows, colLabels=header, loc="upper left", cellLoc="left")
        tab.auto_set_font_size(False)
        tab.set_fontsize(9)
        tab.scale(1, 1.4)
        for (r, c), cell in tab.get_celld().items():
            if r == 0:
                cell.set_facecolor("#dddddd")
            elif cell_colours and cell_colours[r - 1][c]:
                cell.set_facecolor(cell_colours[r - 1][c])
            elif colours and colours[r - 1]:
                cell.set_facecolor(colours[r - 1])
    lines = [line for note in notes for line in textwrap.wrap(note, 170)]
    for k, line in enumerate(lines):
        fig.text(0.05, 0.025 * (len(lines) - k), line, fontsize=8)
    return fig


def cropped(images):
    """Rendered images (arrays) each cut to the box that holds every image's non-white pixels
    (the same box for all: they stay comparable); as they are when all are white."""
    if not len(images):
        return list(images)
    drawn = np.any(np.stack(images) < 250, axis=(0, 3))   # (h, w) any image not white there
    rows, cols = np.flatnonzero(drawn.any(axis=1)), np.flatnonzero(drawn.any(axis=0))
    if not len(rows):
        return list(images)
    return [img[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1] for img in images]


def image_page(title, images, captions):
    """A PDF page of rendered images (arrays) with captions, in a grid as near square as their
    number allows (2 x 2 for four: in one row four renders filled a third of the page), each cut
    to what any of them draws (cropped)."""
    n = len(images)
    ncol = int(np.ceil(np.sqrt(n)))
    nrow = int(np.ceil(n / ncol))
    images = cropped(images)
    fig, axes = plt.subplots(nrow, ncol, figsize=PAGE, squeeze=False)
    fig.subplots_adjust(left=0.01, right=0.99, bottom=0.01, top=0.9, wspace=0.02, hspace=0.1)
    for ax in axes.flat:
        ax.axis("off")
    for ax, img, cap in zip(axes.flat, images, captions):
        ax.imshow(img)
        ax.set_title(cap, fontsize=10)
    fig.suptitle(title, fontsize=13)
    return fig


def pulse(runs, labels=None):
    """The vehicle's acceleration (g) and speed (km/h) against time along each axis it moves on
    (data.vehicle_motion: B0's axes, or a pedestrian run's car along the road). A legend only
    where it tells curves apart: a single run along a single axis names the axis in the titles."""
    fig, (ax, axv) = plt.subplots(1, 2, figsize=(PAGE[0], 2.8))
    fig.subplots_adjust(left=0.06, right=0.99, bottom=0.17, top=0.88, wspace=0.15)
    styles = ("-", "--", ":", "-.")
    colours = {"x": "#1f77b4", "y": "#2ca02c", "z": "#d62728"}
    motions = [D.vehicle_motion(run) for run in runs]
    what = motions[-1][0]
    axes = sorted({axis for _, series in motions for axis in series})
    for r, (run, (_, series)) in enumerate(zip(runs, motions)):
        t_ms = 1e3 * run.results.t
        name = (labels or [x.name for x in runs])[r]
        for axis, (a, v) in series.items():
            label = axis if len(runs) == 1 else name if len(axes) == 1 else f"{axis} {name}"
            ax.plot(t_ms, a, ls=styles[r % 4], color=colours[axis], label=label)
            axv.plot(t_ms, v, ls=styles[r % 4], color=colours[axis], label=label)
        for a in (ax, axv):
            mark_crash(a, run, label=r == 0)
    where = ("along the road's x" if what == "car" else f"along the {what}'s {axes[0]} (B0)"
             if len(axes) == 1 else f"in the {what} axes (B0)")
    ax.set_title(f"{what.capitalize()} acceleration {where}", fontsize=10)
    ax.set_ylabel("g")
    axv.set_title(f"{what.capitalize()} speed {where}", fontsize=10)
    axv.set_ylabel("km/h")
    for a in (ax, axv):
        a.set_xlabel("time (ms)")
        a.grid(alpha=0.3)
    if len(ax.get_legend_handles_labels()[0]) > 1:   # one entry ("axis x") said what the title can
        ax.legend(fontsize=7, title="axis" if len(runs) == 1 else None, title_fontsize=7)
    return fig


TEXT_WIDTH = 100   # characters of a value's column in a text page (8 pt monospace, 0.36-0.97 of the width)


def text_pages(title, sections):
    """PDF pages of titled two-column tables: ``sections`` [(heading, [(key, text)])]; a long
    text wrapped over lines, a table longer than a page continued on the next (it was cut with
    "..." at the first page's foot: the settings after the airbag never reached the PDF)."""
    pages, y = [], 0.0

    def new_page(heading):
        nonlocal y
        fig = plt.figure(figsize=PAGE)
        lines = textwrap.wrap(title + (" (continued)" if pages else ""), 95) or [""]
        fig.text(0.04, 0.965, "\n".join(lines), fontsize=15, weight="bold", va="top")
        y = 0.90 - 0.035 * (len(lines) - 1)
        pages.append(fig)
        if heading:
            fig.text(0.04, y, f"{heading} (continued)", fontsize=11, weight="bold")
            y -= 0.032

    new_page(None)
    for heading, rows in sections:
        if y < 0.12:
            new_page(None)
        pages[-1].text(0.04, y, heading, fontsize=11, weight="bold")
        y -= 0.032
        for key, text in rows:
            lines = textwrap.wrap(str(text), TEXT_WIDTH) or [""]
            if y - 0.024 * (len(lines) - 1) < 0.05:
                new_page(heading)
            pages[-1].text(0.06, y, key, fontsize=8, family="monospace")
            for line in lines:
                pages[-1].text(0.36, y, line, fontsize=8, family="monospace")
                y -= 0.024
        y -= 0.02
    return pages


class _Pixels(Artist):
    """An RGBA array (top row first) drawn 1:1 at the figure's dpi with its lower left corner
    ``inches`` (x, y) from the figure's, handed to the renderer as it is: figimage would
    resample and mask it first, two thirds of a raster page's cost."""

    def __init__(self, rgba, inches):
        super().__init__()
        self.rgba, self.inches = rgba[::-1], inches   # renderers take the bottom row first

    def draw(self, renderer):
        x, y = np.round(self.get_figure().dpi_scale_trans.transform(self.inches))   # whole pixels
        gc = renderer.new_gc()
        renderer.draw_image(gc, x, y, self.rgba)
        gc.restore()


def _page_cut(white, lo, hi):
    """The row to cut a figure at between rows ``lo`` and ``hi``: the middle of the last of its
    widest bands of white rows there (within half the widest: the gap between a row of panels'
    axis labels and the next row's titles, not a title's gap above its panel); ``hi`` if none."""
    rows = np.flatnonzero(white[lo:hi]) + lo
    if not len(rows):
        return hi
    starts = np.r_[0, np.flatnonzero(np.diff(rows) > 1) + 1]
    ends = np.r_[starts[1:], len(rows)]
    widths = ends - starts
    k = np.flatnonzero(widths >= 0.5 * widths.max())[-1]
    return int(rows[starts[k]] + widths[k] // 2 + 1)


def raster_pages(rgba, dpi, caption=""):
    """A4 landscape pages (PAGE) showing an RGBA array (pixels) at its size (``dpi`` pixels per
    inch; narrower where it is wider than the page), from the page's top: a figure taller than a
    page is cut into pages in a white band between its panel rows (_page_cut), the caption line
    below its last part."""
    extra = 0.3 if caption else 0.0   # inches
    page_dpi = max(dpi, rgba.shape[1] / PAGE[0])   # the pixels per inch the page shows them at
    room = int(PAGE[1] * page_dpi)                  # rows a page holds
    white = (rgba[:, :, :3] >= 250).all(axis=(1, 2))
    drawn = np.flatnonzero(~white)
    end = drawn[-1] + 1 if len(drawn) else rgba.shape[0]   # its white margin below left out
    cuts, top = [], 0
    while end - top > room - extra * page_dpi:
        cuts.append(_page_cut(white, top + room // 3, top + room))
        top = cuts[-1]
    parts = np.split(rgba[:max(end, top)], cuts)
    pages = []
    width, height = int(PAGE[0] * page_dpi), int(PAGE[1] * page_dpi)   # the page's whole pixels
    for k, part in enumerate(parts):
        x0, y0 = (width - part.shape[1]) // 2, height - part.shape[0]   # its corner on a pixel
        fig = plt.figure(figsize=PAGE, dpi=page_dpi)
        fig.add_artist(_Pixels(part, (x0 / page_dpi, y0 / page_dpi)))
        if caption and k == len(parts) - 1:
            fig.text(0.02, (y0 / page_dpi - 0.2) / PAGE[1], caption, fontsize=8, color="#444")
        pages.append(fig)
    return pages
