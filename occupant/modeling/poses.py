"""Where a model's geometries were during a run: their frames at a recorded sample, from the
results' body poses and the compiled model's markers (a limb's link frame is not its segment's
frame, so the Assembly's marker offsets are not used)."""
import numpy as np

from occupant.modeling.geometry import placement


def geometry_frame(model, results, name, k):
    """(R (3, 3), p (3,)): the frame of geometry ``name`` of ``model.source`` in B0 (the
    vehicle's frame when the results record ``base_poses``, else the world's) at sample k:
    its marker's body pose, the marker's placement on that body, then the geometry's own
    ``placement`` (its position and rotation on the marker); a geometry on no marker sits
    fixed in B0."""
    g = model.source.geometries[name]
    Rg, pg = placement(g)
    Rg, pg = np.asarray(Rg, float), np.asarray(pg, float)
    if g.marker is None:
        return Rg, pg
    m = model.marker(g.marker)
    P = results.body_poses[k, model.marker_body[m]]
    R, p = P[:3, :3], P[:3, 3]
    base = getattr(results, "base_poses", None)
    if base is not None:                 # into B0: the inverse of its rigid pose
        Rb, pb = base[k][:3, :3], base[k][:3, 3]
        R, p = Rb.T @ R, Rb.T @ (p - pb)
    Rm = R @ model.marker_R[m]
    return Rm @ Rg, R @ model.marker_p[m] + p + Rm @ pg
