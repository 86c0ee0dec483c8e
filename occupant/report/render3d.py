"""3D views of the occupant in its vehicle rendered off-screen with VTK (it falls back to EGL or
OSMesa when there is no display): the contact ellipsoids, the vehicle's surfaces, airbags and
belts, at chosen instants, as RGB image arrays."""
import numpy as np
# the VTK modules render uses, not ``import vtk`` (every module of VTK: 0.3-0.6 s more)
import vtkmodules.vtkRenderingOpenGL2  # noqa: F401 (registers the OpenGL render window)
from vtkmodules.util.numpy_support import numpy_to_vtk, numpy_to_vtkIdTypeArray, vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkLogger, vtkPoints
from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
from vtkmodules.vtkCommonMath import vtkMatrix4x4
from vtkmodules.vtkFiltersSources import vtkSphereSource
from vtkmodules.vtkRenderingCore import (vtkActor, vtkPolyDataMapper, vtkRenderer, vtkRenderWindow,
                                         vtkWindowToImageFilter)

from occupant.report import data as D
from occupant.report.figures import AIRBAG_COLOUR, BELT_COLOUR, VEHICLE_COLOUR, colour, scene_box


def _rgb(hex_colour):
    return tuple(int(hex_colour[k:k + 2], 16) / 255 for k in (1, 3, 5))


def key_instants(run):
    """[(label, sample index)]: the start; of a run with a pre-crash phase the crash's start
    (data.crash_start: the AEB run's second view was 275 ms into its braking); the peak
    excursion of the head relative to B0 along the pulse (forward in a frontal test, towards
    the struck side in a side one) and halfway to it from the crash's start; and the end. A head
    whose excursion peaks at the end (a pedestrian thrown along the road, its peak the end
    view twice over) has its first contact (occupant.scenario.pedestrian.first_head_contact:
    the windscreen) instead. Instants closer than 5 % of the run are shown once."""
    from occupant.scenario.pedestrian import first_head_contact
    t = run.results.t
    n = len(t)
    gap = max(1, n // 20)
    tr = D.trajectories(run.model, run.results)
    peak = int(np.argmax(tr["head"] @ D.pulse_direction(run))) if "head" in tr else n // 2
    label = "peak head excursion"
    hit = first_head_contact(run.model.source, run.results) \
        if n - 1 - peak < gap and getattr(run.model, "source", None) is not None else None
    if hit is not None:
        peak, label = hit[1], f"head on the {hit[2].geometry_b.replace('_', ' ')}"
    impact = D.crash_start(run)
    crash = 0 if impact is None else int(D.sample_index(t, np.array([impact]))[0])
    picks = [("start", 0), *([("crash's start", crash)] if crash else []),
             (f"halfway to {label}", (crash + peak) // 2 if peak > crash else peak // 2),
             (label, peak), ("end", n - 1)]
    seen, out = [], []
    for text, i in picks:
        if all(abs(i - j) >= gap for j in seen):
            seen.append(i)
            out.append((f"{text}, {1e3 * t[i]:.0f} ms", i))
    return out


def render(run, indices, size=(600, 660)):
    """RGB arrays (h, w, 3) uint8, one per sample index, of the scene seen from the front above
    and one side (data.camera_side), in B0 (data.frame_name), one camera framing the bounding
    box of every body and surface over all the instants."""
    # off screen without a display VTK falls back from X to EGL, warning on stderr as it does:
    # only errors reach the user's terminal
    vtkLogger.SetStderrVerbosity(vtkLogger.VERBOSITY_ERROR)
    res, model = run.results, run.model
    rel = D.relative_poses(res)
    shapes, surfaces = D.shapes(model), D.surfaces(model, res)
    bags, belts = D.airbags(model, res), D.belt_routes(model, res)
    # one camera for all instants, framed on the scene over all of them; the road across it
    lo, hi = scene_box(rel, shapes, surfaces, np.asarray(indices, int), pad=0.0)
    surfaces = D.spanned(surfaces, rel, lo, hi, indices[0] if len(indices) else 0)
    ren = vtkRenderer()
    ren.SetBackground(1.0, 1.0, 1.0)
    win = vtkRenderWindow()
    win.SetOffScreenRendering(1)
    win.AddRenderer(ren)
    win.SetSize(*size)
    sphere = vtkSphereSource()
    sphere.SetThetaResolution(20)
    sphere.SetPhiResolution(14)
    unit_mapper = vtkPolyDataMapper()
    unit_mapper.SetInputConnection(sphere.GetOutputPort())

    def ellipsoid_actor(rgb, opacity=1.0):
        a = vtkActor()
        a.SetMapper(unit_mapper)
        a.GetProperty().SetColor(*rgb)
        a.GetProperty().SetOpacity(opacity)
        ren.AddActor(a)
        return a

    def set_matrix(actor, X, shape):
        M = np.eye(4)
        M[:3, :3] = X[:3, :3] @ shape.R * (2 * shape.semi_axes)   # the source has radius 0.5
        M[:3, 3] = X[:3, :3] @ shape.center + X[:3, 3]
        m = vtkMatrix4x4()
        m.DeepCopy(M.ravel())
        actor.SetUserMatrix(m)

    shape_actors = [ellipsoid_actor(_rgb(colour(s.name, s.segment))) for s in shapes]
    bag_actors = [ellipsoid_actor(_rgb(AIRBAG_COLOUR), 0.45) for _ in bags]
    polygons = []
    for s in surfaces:
        pts = vtkPoints()
        pts.SetData(numpy_to_vtk(np.ascontiguousarray(s.outline, float), deep=True))   # a mesh's thousands at once
        poly = vtkPolyData()
        poly.SetPoints(pts)
        cells = vtkCellArray()
        if s.triangles is None:
            cells.InsertNextCell(len(s.outline), list(range(len(s.outline))))   # one convex polygon
        else:   # a box's, cylinder's or mesh's triangles: offsets 0, 3, 6, ... and the vertex indices
            offsets = np.arange(0, 3 * len(s.triangles) + 1, 3, dtype=np.int64)
            cells.SetData(numpy_to_vtkIdTypeArray(offsets, deep=True),
                          numpy_to_vtkIdTypeArray(np.ascontiguousarray(s.triangles, np.int64).ravel(), deep=True))
        poly.SetPolys(cells)
        mapper = vtkPolyDataMapper()
        mapper.SetInputData(poly)
        a = vtkActor()
        a.SetMapper(mapper)
        a.GetProperty().SetColor(*_rgb(VEHICLE_COLOUR))
        a.GetProperty().SetOpacity(0.55)
        ren.AddActor(a)
        polygons.append((s, a))
    belt_lines = []
    for _, route in belts:
        pts = vtkPoints()
        pts.SetNumberOfPoints(route.shape[1])
        poly = vtkPolyData()
        poly.SetPoints(pts)
        cells = vtkCellArray()
        cells.InsertNextCell(route.shape[1], list(range(route.shape[1])))
        poly.SetLines(cells)
        mapper = vtkPolyDataMapper()
        mapper.SetInputData(poly)
        a = vtkActor()
        a.SetMapper(mapper)
        a.GetProperty().SetColor(*_rgb(BELT_COLOUR))
        a.GetProperty().SetLineWidth(4)
        ren.AddActor(a)
        belt_lines.append((route, pts, poly))

    images = []
    for n, i in enumerate(indices):
        for s, a in zip(shapes, shape_actors):
            set_matrix(a, D.pose_of(rel, s.body)[i], s)
        for (shape, scale), a in zip(bags, bag_actors):
            a.SetVisibility(bool(scale[i].min() > 0.05))
            set_matrix(a, D.pose_of(rel, shape.body)[i], D.scaled(shape, np.maximum(scale[i], 0.05)))
        for s, a in polygons:
            X = D.surface_pose(rel, s)[i]
            m = vtkMatrix4x4()
            m.DeepCopy(X.ravel())
            a.SetUserMatrix(m)
        for route, pts, poly in belt_lines:
            for k in range(route.shape[1]):
                pts.SetPoint(k, *route[i, k])
            pts.Modified()
        if n == 0:   # the camera, framed on the scene box (lo, hi above)
            cam = ren.GetActiveCamera()
            ren.ResetCamera(lo[0], hi[0], lo[1], hi[1], lo[2], hi[2])
            focal = np.array(cam.GetFocalPoint())
            dist = cam.GetDistance()
            cam.SetFocalPoint(*focal)
            cam.SetPosition(*(focal + dist * 1.1 * np.array([0.75, 0.55 * D.camera_side(run), 0.35])))
            cam.SetViewUp(0.0, 0.0, 1.0)
            cam.Dolly(1.35)   # ResetCamera frames the bounding sphere; the occupant fills less
            ren.ResetCameraClippingRange()
        win.Render()
        grab = vtkWindowToImageFilter()
        grab.SetInput(win)
        grab.ReadFrontBufferOff()
        grab.Update()
        out = grab.GetOutput()
        w, h, _ = out.GetDimensions()
        arr = vtk_to_numpy(out.GetPointData().GetScalars()).reshape(h, w, -1)[::-1, :, :3]
        images.append(np.ascontiguousarray(arr))
    win.Finalize()
    return images
