"""The parametric human's optional flexible thoracic spine (issue 14): the rigid upper torso (its
base the thorax-lumbar joint, C7/T1 its top) split at half its height into a ``lower_thorax`` (on
the ``thorax_lumbar`` joint) and the ``upper_torso`` (on a spherical ``thoracic`` joint, as the
other torso joints: frames parallel at zero angle), with the passive resistance of the whole T1-T12
column lumped in that joint (data/joint_passive.toml, data/joint_rom.toml ``thoracic``, sources
there).

Level: the split was meant at T6/T7, the apex of the thoracic kyphosis in passive flexion (Morita
et al. 2014, Eur. Spine J. 23:673, 50 patients, CT [S abstract]), half-way up a segment read as
T12/L1 to C7/T1. The builder's thorax-lumbar joint lies at de Leva's xiphion, level with the T9/T10
disc (validation.py, UPPER_TORSO_BODIES), so the half-height plane lies in T5 [D, bodies taken as
equally tall]; kept there because the mass split below halves the thorax ellipsoid at its centre.

What stays on the ``upper_torso``: the neck, the arms, the sternum (chest deflection), the thorax
and shoulder contact ellipsoids (the thorax ellipsoid's centre is the joint: the upper piece turns
about the ellipsoid's own centre, so its surface moves as the rigid torso's would for the same
turn) and T1. On the ``lower_thorax``: T8 (validation.T8_FRACTION).

Mass split [D]: the rigid torso's mass taken as the uniform-density thorax ellipsoid's (the
builder sizes that ellipsoid from the mass and the body density), halved by the plane through its
centre: equal masses, each half's centre of mass 3/8 of the ellipsoid's half-height c from the
plane, both shifted along z so that the pair's centre of mass is the rigid torso's; each half
takes half of the rigid torso's central inertia less the pair's parallel-axis term, so that at
zero angle the two pieces are the rigid torso (mass, centre of mass and inertia) exactly.
"""
import numpy as np

from occupant.human.description import CERVICALE, Segment

JOINT = "thoracic"
LOWER = "lower_thorax"
LEVEL_FRACTION = 0.5          # of the upper torso's height: the thorax ellipsoid's centre (above)
HALF_COM = 3.0 / 8.0          # a half ellipsoid's centroid from its base, of the semi-axis [D]


def halves(mass, com, inertia, d):
    """(mass, lower centre of mass, upper centre of mass, central inertia) of each half of a body
    symmetric about the plane z = com_z, cut there, each half's centre of mass ``d`` from the
    plane: each takes half the mass and half of the body's central inertia less the pair's
    parallel-axis term, so that together, at zero angle, they are the body exactly [D]."""
    mh = 0.5 * mass
    par = mass * d * d                         # both halves' parallel-axis terms about x and y
    dz = np.array([0.0, 0.0, d])
    return mh, com - dz, com + dz, 0.5 * (np.asarray(inertia, float) - np.diag([par, par, 0.0]))


def split_upper_torso(segs, height):
    """The segment list with ``upper_torso`` split at half its ``height`` (m, the cervicale
    above its frame's origin; module docstring); the upper piece's children and ellipsoids
    re-expressed in its new frame (origin at the joint). In place on the records; returns the
    new list (``lower_thorax`` before ``upper_torso``)."""
    i = next(k for k, s in enumerate(segs) if s.name == "upper_torso")
    ut = segs[i]
    thorax = next(e for e in ut.ellipsoids if e.name == "thorax")
    zj = LEVEL_FRACTION * height
    if abs(thorax.center[2] - zj) > 1e-9:
        raise ValueError("the thorax ellipsoid's centre is not at half the upper torso's height")
    mh, c_lo, c_up, Ih = halves(ut.mass, ut.com, ut.inertia, HALF_COM * thorax.semi_axes[2])
    shift = np.array([0.0, 0.0, zj])
    lower = Segment(name=LOWER, parent=ut.parent, mass=mh, com=c_lo, inertia=Ih.copy(),
                    joint_name=ut.joint_name, joint_kind=ut.joint_kind,
                    location=ut.location.copy(), axis=ut.axis)
    ut.parent, ut.joint_name, ut.location = LOWER, JOINT, shift   # spherical, as the rigid torso's
    ut.mass, ut.com, ut.inertia = mh, c_up - shift, Ih
    for e in ut.ellipsoids:
        e.center = e.center - shift
    for s in segs:
        if s.parent == "upper_torso":
            s.location = s.location - shift
    return segs[:i] + [lower] + segs[i:]


def t8_point(model):
    """(body, point m in its frame) of T8 (validation.T8_FRACTION: 1.5 of the upper torso's nine
    bodies, thorax-lumbar joint -> cervicale, above that joint, level with the T9/T10 disc [E]):
    on the upper torso of a rigid one, on the lower thorax of a split one."""
    from occupant.human.validation import T8_FRACTION

    joints = model.source.joints
    c7 = np.asarray(model.source.markers[CERVICALE].position, float)
    if JOINT not in joints:
        return "upper_torso", T8_FRACTION * c7
    level = np.asarray(joints[JOINT].placement.position, float)
    return LOWER, T8_FRACTION * (c7 + level)
