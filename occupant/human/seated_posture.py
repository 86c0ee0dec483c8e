"""A seated human against drivers' postures: UMTRI's regressions of the hip-to-eye, pelvis,
abdomen, thorax, neck and head angles and of the men's eye location (data/seated_posture.toml,
sources there) and the same lines on a parametric human.

A line's angle is measured in the side view (the x-z plane of B0) from the vertical, positive
when its upper end lies behind its lower one; the head line's, as UMTRI's, from the horizontal,
positive when the eye lies above the tragion (FROM_HORIZONTAL). The human's ends of the lines
[E]: the hips' midpoint is the pelvis frame's origin (the H-point); L5/S1 is Reed et al.'s place
on the pelvis (builder.l5s1_from_hips, sources there); T12/L1 lies half-way up the
lumbar segment (T10-L3: three of its six bodies, taken as equally tall, as
validation.LUMBAR_FRACTIONS); C7/T1 is the lower neck joint; the tragion (the neck line's top and
the head line's start, UMTRI's own point) lies at the survey's height below the vertex and
behind the head's centre of gravity by a cadaver mean (head_points, data/body_proportions.toml);
the eye of the head line lies at the eye's level behind the glabella; the hip-to-eye line's eye
is bounded by the glabella, the head shell's front at the eye's level (builder.head_shell): the
eye lies behind it, so the glabella's hip-to-eye angle is the eye's least.
"""
import math

import numpy as np

from occupant.dynamics import body_poses
from occupant.human.builder import l5s1_from_hips, proportions
from occupant.human.data_folder import read_data

LINES = ("hip_to_eye", "pelvis", "abdomen", "thorax", "neck", "head")
FROM_HORIZONTAL = ("head",)   # lines whose angle is the eye's elevation above the horizontal
T12L1_FRACTION = 3.0 / 6.0   # of the lumbar segment (T10-L3, six bodies) from L3/L4 [D, see above]


def _table():
    return read_data("seated_posture.toml")


def predicted_angle(line, sex, stature, mass, h30):
    """(angle, root-mean-square error), rad, of UMTRI's drivers' regression for ``line`` (one of
    LINES) for a ``sex`` ("male", "female") driver of ``stature`` (m) and ``mass`` (kg) whose
    H-point lies ``h30`` (m) above the heel point; sitting height ratio and age are the file's."""
    return (math.radians(_regression(sex, line, stature, mass, h30)),
            math.radians(_table()[sex][line]["rmse"]))


def predicted_eye(stature, mass, h30):
    """(forward, up), m: the mean eye of UMTRI's male drivers of ``stature`` (m) and ``mass`` (kg)
    whose H-point lies ``h30`` (m) above the heel point, from the middle of their hip joint
    centres in the side view (data/seated_posture.toml: the eye's and the hips' regressions on
    the H-point; men only, the women's eye needs the steering wheel's place)."""
    at = {k: _regression("male", k, stature, mass, h30) for k in ("eye_x", "eye_z", "hip_x", "hip_z")}
    return -1e-3 * (at["eye_x"] - at["hip_x"]), 1e-3 * (at["eye_z"] - at["hip_z"])


def _regression(sex, name, stature, mass, h30):
    """The value of the file's regression ``name`` for ``sex`` (its own unit: deg or mm): the
    constant and each term's coefficient times the product of the variables its name joins with
    "_", sitting height ratio and age the file's."""
    tab = _table()
    x = {"shs": tab["sitting_height_ratio"], "h30": 1000.0 * h30, "age": tab["age"],
         "bmi": mass / stature ** 2, "stature": 1000.0 * stature}
    terms = {k: v for k, v in tab[sex][name].items() if k != "rmse"}
    value = terms.pop("const")
    for term, coefficient in terms.items():
        value += coefficient * math.prod(x[v] for v in term.split("_"))
    return value


def head_points(model):
    """{"glabella", "tragion", "eye"}: link-frame points of a parametric human's head body (its
    head shell's frame, the vertex at the shell's top): the glabella, the shell's front at the
    eye's level; the tragion, tragion_below_vertex below the vertex and tragion_behind_head_com
    behind the head's centre of gravity; the eye, at the eye's level (the shell's centre),
    eye_behind_glabella behind the glabella (data/body_proportions.toml, sources there)."""
    prop, H = proportions(), model.source.header["stature"]
    shell = next(g for g in model.geometries if g.name == "head_shell")
    k = model.marker(shell.marker)
    c, R, a = model.marker_p[k], model.marker_R[k], shell.semi_axes
    vertex = c + R @ np.array([0.0, 0.0, a[2]])
    com = model.body_com[model.marker_body[k]]
    tragion = np.array([com[0] - prop["tragion_behind_head_com"] * H, 0.0,
                        vertex[2] - prop["tragion_below_vertex"] * H])
    glabella = c + R @ np.array([a[0], 0.0, 0.0])
    return {"glabella": glabella, "tragion": tragion,
            "eye": glabella - R @ np.array([prop["eye_behind_glabella"] * H, 0.0, 0.0])}


def line_ends(model, line):
    """((body, link-frame point), (body, link-frame point)): the lower and upper end of ``line``
    on a parametric human (module docstring); the head line's from the tragion to the eye."""
    if line not in LINES:
        raise ValueError(f"unknown line {line!r} (known: {', '.join(LINES)})")
    if line in ("pelvis", "abdomen", "thorax"):
        top = np.asarray(model.source.joints["thorax_lumbar"].placement.position, float)
        header = model.source.header
        hips, t12l1 = ("pelvis", np.zeros(3)), ("lumbar", T12L1_FRACTION * top)
        l5s1 = ("pelvis", l5s1_from_hips(header["stature"], proportions(), header["sex"]))
        return {"pelvis": (hips, l5s1), "abdomen": (l5s1, t12l1),
                "thorax": (t12l1, ("neck", np.zeros(3)))}[line]
    head = next(g for g in model.geometries if g.name == "head_shell")
    body = model.body_names[model.marker_body[model.marker(head.marker)]]
    p = head_points(model)
    if line == "hip_to_eye":
        return ("pelvis", np.zeros(3)), (body, p["glabella"])
    if line == "neck":
        return ("neck", np.zeros(3)), (body, p["tragion"])
    return (body, p["tragion"]), (body, p["eye"])


def vertical_angle(line, angle):
    """``line``'s angle (rad) from the vertical, + rearward, for its own ``angle`` (rad; module
    docstring): a head line's elevation a is a - 90 deg from the vertical (the eye ahead)."""
    return angle - math.pi / 2 if line in FROM_HORIZONTAL else angle


def line_angle(model, q, line):
    """Angle (rad) of ``line`` on the human in configuration ``q`` (module docstring): from the
    vertical, + rearward; the head line's from the horizontal, + the eye above the tragion."""
    X = body_poses(model, model.make_data(), q)
    (a, pa), (b, pb) = ((X[model.body(n)], p) for n, p in line_ends(model, line))
    d = b[:3, :3] @ pb + b[:3, 3] - a[:3, :3] @ pa - a[:3, 3]
    angle = math.atan2(-d[0], d[2])
    return angle + math.pi / 2 if line in FROM_HORIZONTAL else angle
