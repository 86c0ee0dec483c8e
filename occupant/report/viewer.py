"""The interactive 3D view of the HTML report: plotly (plotly.js embedded, so the page works
offline) with one animation frame every FRAME_DT and a time slider. The occupant's ellipsoids form
one opaque Mesh3d, the airbags and vehicle surfaces a see-through one, whose vertices the frames
move; belts are lines.

The figure and its frames are plain dicts whose coordinates are plotly.js typed arrays (float32:
the vertices are rounded to the mm anyway), not graph objects: validating some hundred graph
objects took longer than drawing the report's figures (the first frame and the layout alone,
half the viewer's time), and float64 doubled the page's size. The viewer's div
has a fixed id (DIV_ID), so that the same run gives the same page byte for byte."""
import base64

import numpy as np
import plotly.io as pio

from occupant.report import data as D
from occupant.report.figures import AIRBAG_COLOUR, BELT_COLOUR, VEHICLE_COLOUR, colour, scene_box

FRAME_DT = 0.002   # s between viewer frames (the results are downsampled to this)
_NU, _NV = 12, 8   # ellipsoid tessellation: longitudes, latitudes
DIV_ID = "occupant-viewer"   # one viewer per page


def _unit_sphere():
    """Vertices (m, 3) and triangles (k, 3) of a unit sphere of _NU x _NV points plus poles."""
    u = np.linspace(0, 2 * np.pi, _NU, endpoint=False)
    v = np.linspace(0, np.pi, _NV + 2)[1:-1]
    ring = np.stack([np.outer(np.sin(v), np.cos(u)), np.outer(np.sin(v), np.sin(u)),
                     np.outer(np.cos(v), np.ones_like(u))], axis=-1).reshape(-1, 3)
    verts = np.vstack([[0, 0, 1], ring, [0, 0, -1]])
    tri = []
    for j in range(_NU):
        k = (j + 1) % _NU
        tri.append((0, 1 + j, 1 + k))
        for i in range(_NV - 1):
            a, b = 1 + i * _NU + j, 1 + i * _NU + k
            tri += [(a, a + _NU, b), (b, a + _NU, b + _NU)]
        last = 1 + (_NV - 1) * _NU
        tri.append((len(verts) - 1, last + k, last + j))
    return verts, np.array(tri)


def _scene_vertices(rel, i, shapes, surfaces, bags, sphere):
    parts = []
    for s in shapes:
        X = D.pose_of(rel, s.body)[i]
        parts.append((sphere * s.semi_axes) @ (X[:3, :3] @ s.R).T + X[:3, :3] @ s.center + X[:3, 3])
    for shape, scale in bags:
        X = D.pose_of(rel, shape.body)[i]
        s = D.scaled(shape, np.maximum(scale[i], 1e-3))
        parts.append((sphere * s.semi_axes) @ (X[:3, :3] @ s.R).T + X[:3, :3] @ s.center + X[:3, 3])
    for s in surfaces:
        X = D.surface_pose(rel, s)[i]
        parts.append(s.outline @ X[:3, :3].T + X[:3, 3])
    return np.vstack(parts) if parts else np.zeros((0, 3))


def _belt_points(rel, i, belts):
    pts = []
    for _, points in belts:
        pts += list(points[i]) + [(np.nan, np.nan, np.nan)]   # NaN breaks the line between belts
    return np.array(pts, float) if pts else np.zeros((0, 3))


def figure(run, frame_dt=FRAME_DT):
    """The plotly figure as a dict (data, layout, frames): one Mesh3d (and one belt line trace)
    animated over time; ``plotly.graph_objects.Figure(...)`` of it makes a Figure."""
    res, model = run.results, run.model
    rel = D.relative_poses(res)
    shapes, surfaces = D.shapes(model), D.surfaces(model, res)
    bags, belts = D.airbags(model, res), D.belt_routes(model, res)
    sphere, tri = _unit_sphere()
    # two meshes: the occupant's ellipsoids opaque, and the bags and vehicle surfaces seen through
    # (opaque, the knee bolster and panel hid the far leg and the lap, as the VTK views do not)
    faces, colours = [[], []], [[], []]
    for s in shapes:
        faces[0].append(tri + len(sphere) * len(faces[0]))
        colours[0] += [colour(s.name, s.segment)] * len(tri)
    offset = 0
    for _ in bags:
        faces[1].append(tri + offset)
        colours[1] += [AIRBAG_COLOUR] * len(tri)
        offset += len(sphere)
    for s in surfaces:   # a fan of triangles over a plane's convex outline, a solid's triangles
        faces[1].append(s.faces + offset)
        colours[1] += [VEHICLE_COLOUR] * len(s.faces)
        offset += len(s.outline)
    faces = [np.vstack(f) if f else np.zeros((0, 3), int) for f in faces]
    n_occupant = len(shapes) * len(sphere)   # the occupant's vertices come first (_scene_vertices)
    idx = D.sample_index(res.t, np.arange(res.t[0], res.t[-1] + 1e-9, frame_dt))
    idx = np.unique(np.append(idx, len(res.t) - 1))
    lo, hi = scene_box(rel, shapes, surfaces, idx)
    surfaces = D.spanned(surfaces, rel, lo, hi, idx[0])   # the road across the scene

    def coords(i):   # (mesh vertices, belt points) at sample i, float32 rounded to the mm
        v = np.round(_scene_vertices(rel, i, shapes, surfaces, bags, sphere), 3)
        return v.astype(np.float32), _belt_points(rel, i, belts).astype(np.float32)

    def traces(i):   # occupant, belts, bags and vehicle (the belts second, as before the split)
        v, b = coords(i)
        return [dict(type="mesh3d", **{a: _typed(v[:n_occupant, k]) for k, a in enumerate("xyz")}),
                dict(type="scatter3d", mode="lines", **{a: _typed(b[:, k]) for k, a in enumerate("xyz")}),
                dict(type="mesh3d", **{a: _typed(v[n_occupant:, k]) for k, a in enumerate("xyz")})]

    mesh, line, vehicle = traces(idx[0])
    for trace, f, c, name in ((mesh, faces[0], colours[0], "occupant"),
                              (vehicle, faces[1], colours[1], "airbags and vehicle")):
        trace.update(i=_typed(f[:, 0], "i4"), j=_typed(f[:, 1], "i4"), k=_typed(f[:, 2], "i4"),
                     facecolor=c, flatshading=False, lighting=dict(ambient=0.55, diffuse=0.7, specular=0.1),
                     name=name, hoverinfo="skip")
    vehicle.update(opacity=0.45)   # the VTK views' 0.55 for surfaces, bags a little clearer
    line.update(line=dict(color=BELT_COLOUR, width=6), name="belts", hoverinfo="skip")
    names = [f"{1e3 * res.t[i]:.0f} ms" for i in idx]
    slider = dict(active=0, currentvalue=dict(prefix="t = "), pad=dict(t=40), len=0.87, x=0.1,
                  steps=[dict(method="animate", label=n,
                              args=[[n], dict(mode="immediate", frame=dict(duration=0, redraw=True),
                                              transition=dict(duration=0))]) for n in names])
    play = dict(type="buttons", showactive=False, x=0.0, y=0.0, xanchor="left", yanchor="top",
                pad=dict(t=40, r=10),
                buttons=[dict(label="Play", method="animate",
                              args=[None, dict(frame=dict(duration=60, redraw=True), fromcurrent=True,
                                               transition=dict(duration=0))]),
                         dict(label="Pause", method="animate",
                              args=[[None], dict(mode="immediate", frame=dict(duration=0, redraw=False))])])
    axis = dict(aspectmode="data", camera=dict(eye=dict(x=1.5, y=1.75 * D.camera_side(run), z=0.75),
                                               up=dict(x=0, y=0, z=1)))
    # fixed ranges: the scene box over every frame, so that no frame leaves the view
    for k, (a, title) in enumerate(zip("xyz", ("x (m, forward)", "y (m, left)", "z (m, up)"))):
        axis[f"{a}axis"] = dict(title=dict(text=title), range=[float(lo[k]), float(hi[k])])
    layout = dict(
        template=pio.templates[pio.templates.default].to_plotly_json(),   # as a Figure's to_dict has it
        height=620, margin=dict(l=0, r=0, t=30, b=20), showlegend=False, sliders=[slider],
        updatemenus=[play], uirevision="keep", scene=axis,
        title=dict(text=f"Occupant in the {D.frame_name(run)} (drag to rotate, slider for time)", font=dict(size=13)))
    return dict(data=[mesh, line, vehicle], layout=layout,
                frames=[dict(data=traces(i), name=n, traces=[0, 1, 2]) for i, n in zip(idx, names)])


def _typed(a, dtype="f4"):
    """A plotly.js typed array (its "dtype"/"bdata" form) of a numpy array, as ``dtype`` ("f4":
    float32, "i4": int32)."""
    return dict(dtype=dtype, bdata=base64.b64encode(np.ascontiguousarray(a, "<" + dtype).tobytes()).decode("ascii"))


# after the plot is drawn, the page records that the WebGL scene started (the test reads it)
_READY = ("var gd = document.getElementById('{plot_id}');"
          "var ok = !!(gd && gd._fullLayout && gd._fullLayout.scene && gd._fullLayout.scene._scene"
          " && gd.querySelector('canvas'));"
          "document.body.setAttribute('data-viewer', ok ? 'ready' : 'failed');")


def html(run, frame_dt=FRAME_DT, include_js=True):
    """An HTML fragment: the viewer's div and script, plotly.js inline when ``include_js``."""
    return pio.to_html(figure(run, frame_dt), include_plotlyjs=include_js, full_html=False, validate=False,
                       auto_play=False, post_script=_READY, config=dict(displaylogo=False), div_id=DIV_ID)
