"""Fitting belts at the initial configuration: each wrap point's place on its ellipsoid (where
the wrap says it is fitted, ``modeling.belts.Wrap.at``, else the middle of its shortest wrap),
then each segment's unstretched webbing: its length there shortened to the belt's pretension on
the webbing's loading curve (MADYMO likewise takes the initial belt lengths from the initial
positions, with an optional initial strain)."""
import numpy as np

FIT_PASSES = 3   # placements that set the places where their points lie [E]: a held wrap's point
                 # moves as its neighbours' do; GS1's places then rest within 1e-9 (measured,
                 # tests/restraints/test_belt_fit_places.py)


def _wrap_places(model, q0, z, outputs, follow=False):
    """Set each wrap point's place state not yet set in z to where the outputs put it (B0, at
    q0): its direction in the ellipsoid's scaled frame, on the undeformed ellipsoid. With
    ``follow``, every wrap's place, set or not: a place follows its point (``belt.wrap_slide``),
    and a held wrap's point lies in the plane through its neighbours and its place, so the
    point's direction keeps that plane (the belt's path)."""
    from occupant.dynamics.api import link_poses
    el = model.belts
    R, p = link_poses(model, model.make_data(), q0)
    for b in range(el.retractor.shape[0]):
        p0, o_pts = el.point_start[b], el.out_start[b] + 4 * (el.point_start[b + 1] - el.point_start[b] - 1)
        for k in range(p0, el.point_start[b + 1]):
            jz = el.point_z[k]
            if jz < 0 or (np.any(z[jz:jz + 3] != 0.0) and not follow):
                continue
            link, carrier = el.point_link[k], el.point_carrier[k]
            x = outputs[o_pts + 3 * (k - p0):o_pts + 3 * (k - p0) + 3]
            if carrier != link:
                x = x - el.point_share[k] * (p[carrier] - p[link] - R[link] @ el.point_carrier_r[k])
            Rl, pl = (np.eye(3), np.zeros(3)) if link < 0 else (R[link], p[link])
            axes = Rl @ el.point_R[k]
            local = axes.T @ (x - pl - Rl @ el.point_r[k]) / el.point_size[k]
            z[jz:jz + 3] = local / np.linalg.norm(local)


def fit_belts(model, q0, z0=None):
    """z0 (a copy; zeros by default) with every belt fitted at q0 (with B0 and the occupant at
    rest): the wrap points' places not set in z0 (``Wrap.at``, else the middle of the shortest
    wrap) and the webbing lengths: each segment's length L there over (1 + e), e the strain at
    which the webbing's loading curve gives the belt's pretension; the webbing, pulled to e
    along its loading curve, starts on that history: each segment's largest strain (its
    hysteresis state) is e, or the larger one z0 gives."""
    from occupant.integrate.fixed_step import outputs_at_rest   # the loop imports the belt kernel

    z = np.zeros(model.nz) if z0 is None else np.array(z0, dtype=float)
    el = model.belts
    if el is None or el.retractor.shape[0] == 0:
        return z
    for k, jz in enumerate(el.point_z):
        if jz >= 0 and not np.any(z[jz:jz + 3] != 0.0):
            z[jz:jz + 3] = el.point_fit[k]
    slack = z.copy()
    n_belts = el.retractor.shape[0]
    for b in range(n_belts):
        for s in range(el.point_start[b + 1] - el.point_start[b] - 1):
            slack[el.z_start[b] + 2 * s] = 1e6          # slack webbing: positions only
    _wrap_places(model, q0, z, outputs_at_rest(model, q0, slack))
    for jz in el.point_z[el.point_z >= 0]:
        slack[jz:jz + 3] = z[jz:jz + 3]
    outputs = outputs_at_rest(model, q0, slack)
    # every place where its point now lies (FIT_PASSES placements): taken from the first
    # placement, where the held wraps had no place yet, a run next to a held wrap lay elsewhere,
    # and a held wrap's point is not its place; the places, following their points from the
    # first step (WRAP_FOLLOW), were read as the wraps moving over the body along the belt
    # (``belt.wrap_drift``), carrying its webbing across: GS1's shoulder-chest segment between
    # the thorax's two wraps, 44 mm long, was drained to 16.7 kN within 0.7 ms and pushed the
    # sternum 7.8 mm in before the pulse
    for _ in range(FIT_PASSES):
        _wrap_places(model, q0, z, outputs, follow=True)
        for jz in el.point_z[el.point_z >= 0]:
            slack[jz:jz + 3] = z[jz:jz + 3]
        outputs = outputs_at_rest(model, q0, slack)
    for b in range(n_belts):
        for s in range(el.point_start[b + 1] - el.point_start[b] - 1):
            length = outputs[el.out_start[b] + 4 * s + 2]
            z[el.z_start[b] + 2 * s] = length / (1.0 + el.fit_strain[b])
            largest = el.z_start[b] + 2 * s + 1
            z[largest] = max(z[largest], el.fit_strain[b])
    return z
