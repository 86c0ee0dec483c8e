"""The report's static figures (matplotlib, Agg backend): each function takes a run (and what
occupant.report.data extracted) and returns a Figure, saved once as PNG for the HTML page and
once into the PDF."""
import io
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Ellipse, Polygon  # noqa: E402
import numpy as np  # noqa: E402

from occupant.report import data as D  # noqa: E402

REGION_COLOURS = (("head", "#e6862e"), ("neck", "#e6862e"), ("thorax", "#3a70b0"), ("torso", "#3a70b0"),
                  ("abdomen", "#3a70b0"), ("pelvis", "#3a70b0"), ("arm", "#4f9a4f"), ("hand", "#4f9a4f"),
                  ("thigh", "#8a5aa8"), ("shank", "#8a5aa8"), ("leg", "#8a5aa8"), ("foot", "#8a5aa8"))
VEHICLE_COLOUR = "#7f7f7f"
AIRBAG_COLOUR = "#d9534f"
BELT_COLOUR = "#222222"
PAGE = (11.69, 8.27)   # A4 landscape, inches


def colour(name):
    return next((c for key, c in REGION_COLOURS if key in name), "#999999")


def png(fig, dpi=100):
    """PNG bytes of a figure. Its layout is then frozen, so that saving it again (to the PDF)
    does not lay it out a second time."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    fig.set_layout_engine("none")
    return buf.getvalue()


def _sideview(ax, rel, i, shapes, surfaces, bags, belts):
    for s in surfaces:
        X = D.pose_of(rel, s.body)[i]
        c = s.corners @ X[:3, :3].T + X[:3, 3]
        ax.add_patch(Polygon(c[:, [0, 2]], closed=True, fc=VEHICLE_COLOUR, ec=VEHICLE_COLOUR, lw=1.5, alpha=0.6))
    for s in sorted(shapes, key=lambda s: -s.center[1]):   # far side first
        (cx, cz), w, h, a = D.projected_ellipse(D.pose_of(rel, s.body)[i], s)
        ax.add_patch(Ellipse((cx, cz), w, h, angle=a, fc=colour(s.name), ec="k", lw=0.4, alpha=0.55))
    for shape, scale in bags:
        if scale[i] > 0.05:
            (cx, cz), w, h, a = D.projected_ellipse(D.pose_of(rel, shape.body)[i], D.scaled(shape, scale[i]))
            ax.add_patch(Ellipse((cx, cz), w, h, angle=a, fc=AIRBAG_COLOUR, ec=AIRBAG_COLOUR, alpha=0.35))
    for _, points in belts:
        ax.plot(points[i, :, 0], points[i, :, 2], color=BELT_COLOUR, lw=2.5, marker=".", ms=3)


def scene_limits(rel, shapes, surfaces, idx):
    """(xmin, xmax, zmin, zmax) m holding every shape and surface at the sample indices idx."""
    pts = []
    for s in shapes:
        X = D.pose_of(rel, s.body)[idx]
        c = np.einsum("tij,j->ti", X[:, :3, :3], s.center) + X[:, :3, 3]
        r = float(np.max(s.semi_axes))
        pts += [c - r, c + r]
    for s in surfaces:
        X = D.pose_of(rel, s.body)[idx]
        pts.append(np.einsum("tij,kj->tki", X[:, :3, :3], s.corners).reshape(-1, 3)
                   + np.repeat(X[:, :3, 3], 4, axis=0))
    p = np.concatenate(pts) if pts else np.zeros((1, 3))
    x0, x1, z0, z1 = p[:, 0].min(), p[:, 0].max(), p[:, 2].min(), p[:, 2].max()
    pad = 0.03
    return x0 - pad, x1 + pad, z0 - pad, z1 + pad


def kinematics_strip(run, times):
    """Side views (x-z plane of the vehicle, x forward, z up) at ``times``: the occupant's contact
    ellipsoids projected, the vehicle's surfaces, airbags and belts."""
    res, model = run.results, run.model
    rel = D.relative_poses(res)
    shapes, surfaces = D.shapes(model), D.surfaces(model)
    bags, belts = D.airbags(model, res), D.belt_routes(model, res)
    idx = D.sample_index(res.t, times)
    lim = scene_limits(rel, shapes, surfaces, idx)
    n = len(idx)
    ncol = min(n, 6)
    nrow = int(np.ceil(n / ncol))
    aspect = (lim[3] - lim[2]) / (lim[1] - lim[0])
    w = PAGE[0]
    fig, axes = plt.subplots(nrow, ncol, figsize=(w, min(PAGE[1], nrow * w / ncol * aspect + 0.6)),
                             squeeze=False)
    fig.subplots_adjust(left=0.05, right=0.99, bottom=0.08, top=0.9, wspace=0.08, hspace=0.22)
    for k, ax in enumerate(axes.flat):
        if k >= n:
            ax.axis("off")
            continue
        _sideview(ax, rel, idx[k], shapes, surfaces, bags, belts)
        ax.set_xlim(lim[0], lim[1])
        ax.set_ylim(lim[2], lim[3])
        ax.set_aspect("equal")
        ax.set_title(f"{1e3 * res.t[idx[k]]:.0f} ms", fontsize=9)
        ax.tick_params(labelsize=6)
        if k % ncol:
            ax.set_yticklabels([])
        if k < n - ncol:
            ax.set_xticklabels([])
    every = f" every {1e3 * (times[1] - times[0]):.0f} ms" if len(times) > 1 else ""
    fig.suptitle(f"Side view{every} in the vehicle frame: contact ellipsoids projected on x-z, vehicle "
                 "surfaces grey, airbags red, belts black", fontsize=10)
    fig.supxlabel("x (m, forward)", fontsize=8, y=0.005)
    fig.supylabel("z (m, up)", fontsize=8, x=0.005)
    return fig


def trajectories(runs, labels=None):
    """Paths of head, chest, pelvis and knees relative to the vehicle: side view (x-z) and x, z
    against time; several runs overlaid (solid, dashed, dotted...)."""
    styles = ("-", "--", ":", "-.")
    fig = plt.figure(figsize=(PAGE[0], 5.2))
    gs = fig.add_gridspec(2, 2, width_ratios=(1.2, 1), left=0.07, right=0.98, bottom=0.1, top=0.93,
                          wspace=0.18, hspace=0.15)
    side, ax_x, ax_z = fig.add_subplot(gs[:, 0]), fig.add_subplot(gs[0, 1]), fig.add_subplot(gs[1, 1])
    cmap = plt.get_cmap("tab10")
    for r, run in enumerate(runs):
        tr = D.trajectories(run.model, run.results)
        t_ms = 1e3 * run.results.t
        for k, (label, p) in enumerate(tr.items()):
            name = label if len(runs) == 1 else f"{label} ({(labels or [x.name for x in runs])[r]})"
            style = dict(color=cmap(k), ls=styles[r % len(styles)], lw=1.4)
            side.plot(1e3 * p[:, 0], 1e3 * p[:, 2], label=name, **style)
            side.plot(1e3 * p[0, 0], 1e3 * p[0, 2], "o", color=cmap(k), ms=3)
            ax_x.plot(t_ms, 1e3 * (p[:, 0] - p[0, 0]), **style)
            ax_z.plot(t_ms, 1e3 * (p[:, 2] - p[0, 2]), **style)
    side.set_aspect("equal", adjustable="datalim")
    side.set_xlabel("x in vehicle (mm, forward)")
    side.set_ylabel("z in vehicle (mm, up)")
    side.set_title("Paths in the vehicle's side view (dot: start)", fontsize=10)
    side.legend(fontsize=7, loc="upper left")
    side.grid(alpha=0.3)
    ax_x.set_ylabel("forward excursion (mm)")
    ax_z.set_ylabel("vertical excursion (mm)")
    ax_z.set_xlabel("time (ms)")
    for ax in (ax_x, ax_z):
        ax.grid(alpha=0.3)
    return fig


def _grid(n, ncol=3, row_height=2.3):
    nrow = max(1, int(np.ceil(n / ncol)))
    fig, axes = plt.subplots(nrow, ncol, figsize=(PAGE[0], 0.6 + row_height * nrow), squeeze=False)
    fig.subplots_adjust(left=0.06, right=0.99, bottom=0.55 / fig.get_figheight() + 0.02,
                        top=1 - 0.35 / fig.get_figheight(), wspace=0.22, hspace=0.42)
    for ax in axes.flat[n:]:
        ax.axis("off")
    return fig, list(axes.flat)


def channels(runs, groups=None, labels=None):
    """Time histories of the sensor channels, one panel per quantity (axes X, Y, Z overlaid),
    each filtered with the class its criteria prescribe; several runs overlaid (line styles)."""
    styles = ("-", "--", ":", "-.")
    groups = groups or list(D.channel_groups(runs[0].results.channels))
    fig, axes = _grid(len(groups))
    colours = {"X": "#1f77b4", "Y": "#2ca02c", "Z": "#d62728"}
    for ax, group in zip(axes, groups):
        cfcs = set()
        unit = ""
        for r, run in enumerate(runs):
            for ch in D.channel_groups(run.results.channels).get(group, []):
                t, v, unit, cfc = D.filtered_channel(ch)
                cfcs.add(cfc)
                axis = ch.name.rsplit(" ", 1)[-1]
                name = axis if len(runs) == 1 else f"{axis} {(labels or [x.name for x in runs])[r]}"
                ax.plot(1e3 * t, v, ls=styles[r % len(styles)], color=colours.get(axis), lw=1.1, label=name)
        filt = ", ".join("raw" if c is None else f"CFC {c}" for c in sorted(cfcs, key=lambda c: c or 0))
        ax.set_title(f"{group} ({filt})", fontsize=9)
        ax.set_ylabel(unit, fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=6, loc="upper left", ncol=len(runs))
    for ax in list(axes)[-3:]:
        ax.set_xlabel("time (ms)", fontsize=8)
    return fig


def restraints(run):
    """Belt and airbag outputs (webbing forces, payout, pressure, volume...) and the normal forces
    of the contacts that touched, against time. None when there is nothing to show."""
    res = run.results
    panels = D.restraint_outputs(run.model, res)
    contacts = D.contact_forces(res)
    if contacts:
        panels["contact normal forces"] = ("kN", {k: 1e-3 * v for k, v in contacts.items()})
    if not panels:
        return None
    fig, axes = _grid(len(panels))
    t_ms = 1e3 * res.t
    for ax, (title, (unit, series)) in zip(axes, panels.items()):
        for label, v in series.items():
            ax.plot(t_ms, v, lw=1.2, label=label)
        ax.set_title(title, fontsize=9)
        ax.set_ylabel(unit, fontsize=8)
        ax.grid(alpha=0.3)
        ax.tick_params(labelsize=7)
        ax.set_xlabel("time (ms)", fontsize=8)
        if len(series) > 1:
            ax.legend(fontsize=6, loc="upper left")
    return fig


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
    ax.legend(fontsize=7, loc="upper left")
    ax.grid(alpha=0.3)
    fig.subplots_adjust(left=0.06, right=0.99, bottom=0.16, top=0.9, wspace=0.18)
    axb.plot(t_ms, terms["balance"], color="k", lw=1.2)
    axb.set_title(f"Balance residual (max {100 * closing:.2g} % of the largest term)", fontsize=10)
    axb.set_ylabel("J")
    axb.set_xlabel("time (ms)")
    axb.grid(alpha=0.3)
    return fig


def table_page(title, header, rows, colours=None, notes=(), cell_colours=None):
    """A PDF page holding a table: ``rows`` of strings, ``colours`` per row (or None), or
    ``cell_colours`` per cell."""
    fig = plt.figure(figsize=PAGE)
    fig.text(0.05, 0.94, title, fontsize=15, weight="bold")
    ax = fig.add_axes((0.05, 0.1, 0.9, 0.78))
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


def image_page(title, images, captions):
    """A PDF page of rendered images (arrays) side by side with captions."""
    n = len(images)
    ncol = min(n, 4)
    nrow = int(np.ceil(n / ncol))
    fig, axes = plt.subplots(nrow, ncol, figsize=PAGE, squeeze=False)
    fig.subplots_adjust(left=0.01, right=0.99, bottom=0.02, top=0.88, wspace=0.02)
    for ax in axes.flat:
        ax.axis("off")
    for ax, img, cap in zip(axes.flat, images, captions):
        ax.imshow(img)
        ax.set_title(cap, fontsize=10)
    fig.suptitle(title, fontsize=13)
    return fig


def pulse(runs, labels=None):
    """The vehicle's (B0) acceleration along its x axis (g) and its speed (km/h) against time."""
    fig, (ax, axv) = plt.subplots(1, 2, figsize=(PAGE[0], 2.8))
    fig.subplots_adjust(left=0.06, right=0.99, bottom=0.17, top=0.88, wspace=0.15)
    styles = ("-", "--", ":", "-.")
    for r, run in enumerate(runs):
        res = run.results
        t_ms = 1e3 * res.t
        name = (labels or [x.name for x in runs])[r]
        # base_states: B0 spatial velocity (angular, linear) and acceleration minus gravity, B0 axes
        ax.plot(t_ms, res.base_states[:, 9] / D.G0, ls=styles[r % 4], label=name)
        axv.plot(t_ms, 3.6 * res.base_states[:, 3], ls=styles[r % 4], label=name)
    ax.set_title("Vehicle acceleration along x", fontsize=10)
    ax.set_ylabel("g")
    axv.set_title("Vehicle speed along x", fontsize=10)
    axv.set_ylabel("km/h")
    for a in (ax, axv):
        a.set_xlabel("time (ms)")
        a.grid(alpha=0.3)
    if len(runs) > 1:
        ax.legend(fontsize=7)
    return fig


def text_page(title, sections):
    """A PDF page of titled two-column tables: ``sections`` [(heading, [(key, text)])]."""
    fig = plt.figure(figsize=PAGE)
    fig.text(0.04, 0.95, title, fontsize=15, weight="bold")
    y = 0.90
    for heading, rows in sections:
        if y < 0.08:
            break
        fig.text(0.04, y, heading, fontsize=11, weight="bold")
        y -= 0.032
        for key, text in rows:
            if y < 0.05:
                fig.text(0.06, y, "...", fontsize=8)
                break
            fig.text(0.06, y, key, fontsize=8, family="monospace")
            fig.text(0.36, y, text, fontsize=8, family="monospace")
            y -= 0.024
        y -= 0.02
    return fig


def raster_page(png_bytes, dpi, caption=""):
    """A figure showing a PNG at its size (``dpi`` pixels per inch), a caption line below it."""
    img = plt.imread(io.BytesIO(png_bytes))
    extra = 0.3 if caption else 0.0   # inches
    fig = plt.figure(figsize=(img.shape[1] / dpi, img.shape[0] / dpi + extra), dpi=dpi)
    fig.figimage(img, 0, int(extra * dpi))
    if caption:
        fig.text(0.02, 0.1 / (img.shape[0] / dpi + extra), caption, fontsize=8, color="#444")
    return fig
