"""A seated human against drivers' postures: UMTRI's regressions of the hip-to-eye, thorax and
neck angles (data/seated_posture.toml, sources there) and the same lines on a parametric human.

A line's angle is measured in the side view (the x-z plane of B0) from the vertical, positive
when its upper end lies behind its lower one. The human's ends of the lines [E]: the hips'
midpoint is the pelvis frame's origin (the H-point); T12/L1 lies half-way up the lumbar segment
(T10-L3: three of its six bodies, taken as equally tall, as validation.LUMBAR_FRACTIONS); C7/T1
is the lower neck joint, and the neck line's top, the tragion in UMTRI's, is taken at the upper
one, the occipital condyles, as the transcription's manikin takes its atlanto-axial joint; the eye
is bounded by the glabella, the head shell's front at the eye's level (builder.head_shell): the
eye lies behind it, so the glabella's hip-to-eye angle is the eye's least.
"""
import math
import pathlib

import numpy as np

from occupant.dynamics import body_poses
from occupant.io.toml_files import read_toml

DATA = pathlib.Path(__file__).resolve().parent / "data"
LINES = ("hip_to_eye", "thorax", "neck")
T12L1_FRACTION = 3.0 / 6.0   # of the lumbar segment (T10-L3, six bodies) from L3/L4 [D, see above]


def _table():
    return read_toml(DATA / "seated_posture.toml")


def predicted_angle(line, sex, stature, mass, h30):
    """(angle, root-mean-square error), rad, of UMTRI's drivers' regression for ``line`` (one of
    LINES) for a ``sex`` ("male", "female") driver of ``stature`` (m) and ``mass`` (kg) whose
    H-point lies ``h30`` (m) above the heel point; sitting height ratio and age are the file's."""
    tab = _table()
    x = {"shs": tab["sitting_height_ratio"], "h30": 1000.0 * h30, "age": tab["age"],
         "bmi": mass / stature ** 2, "stature": 1000.0 * stature}
    terms = dict(tab[sex][line])
    rmse, angle = terms.pop("rmse"), terms.pop("const")
    for name, coefficient in terms.items():
        angle += coefficient * math.prod(x[v] for v in name.split("_"))
    return math.radians(angle), math.radians(rmse)


def line_ends(model, line):
    """((body, link-frame point), (body, link-frame point)): the lower and upper end of ``line``
    on a parametric human (module docstring)."""
    if line == "hip_to_eye":
        shell = next(g for g in model.geometries if g.name == "head_shell")
        k = model.marker(shell.marker)
        glabella = model.marker_p[k] + model.marker_R[k] @ np.array([shell.semi_axes[0], 0.0, 0.0])
        return ("pelvis", np.zeros(3)), (model.body_names[model.marker_body[k]], glabella)
    if line == "thorax":
        top = np.asarray(model.source.joints["thorax_lumbar"].placement.position, float)
        return ("lumbar", T12L1_FRACTION * top), ("neck", np.zeros(3))
    if line == "neck":
        return ("neck", np.zeros(3)), ("head", np.zeros(3))
    raise ValueError(f"unknown line {line!r} (known: {', '.join(LINES)})")


def line_angle(model, q, line):
    """Angle (rad) of ``line`` on the human in configuration ``q`` (module docstring)."""
    X = body_poses(model, model.make_data(), q)
    (a, pa), (b, pb) = ((X[model.body(n)], p) for n, p in line_ends(model, line))
    d = b[:3, :3] @ pb + b[:3, 3] - a[:3, :3] @ pa - a[:3, 3]
    return math.atan2(-d[0], d[2])
