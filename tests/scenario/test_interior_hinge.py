"""Hinged interior parts (``[[hinge]]``, occupant.scenario.interior_hinge): the whiplash seat's
back frame on its recliner, its surfaces carried with it, and bad input named by file and key."""
import numpy as np
import pytest

from occupant.dynamics import body_poses
from occupant.modeling import Assembly
from occupant.scenario.interior import InteriorFileError, load_interior
from occupant.scenario.interior_hinge import frame_marker


def test_reference_whiplash_seat_back_and_restraint_ride_on_the_recliner():
    seat = load_interior("whiplash_sled_seat")
    assert set(seat.hinges) == {"seat_back_frame"}
    on = {s.name: s.marker for s in seat.surfaces}
    assert on == {"seat_cushion": None, "floor": None, "seat_back": frame_marker("seat_back_frame"),
                  "head_restraint": frame_marker("seat_back_frame")}


def test_analytic_hinge_coordinate_turns_the_frame_rearward_about_the_pivot():
    """At q = 0 the hinged part's frame is B0; at q = theta a point h above the pivot has moved
    h sin(theta) rearward (-x) and h (1 - cos(theta)) down: the coordinate is the rearward turn
    about B0's y through the pivot."""
    seat = load_interior("whiplash_sled_seat")
    asm = Assembly("seat")
    for element in seat.elements:
        asm.add(element)
    model = asm.compile()
    pivot = np.array([-0.22, 0.0, -0.02])          # vehicles/whiplash_sled_seat.toml
    h, theta = 0.6, np.radians(15.0)
    # body poses: the joint's moving frame at the pivot, fixed to the part
    X0, X1 = (body_poses(model, model.make_data(), np.array([q]))[0] for q in (0.0, theta))
    top = pivot + [0.0, 0.0, h]
    local = X0[:3, :3].T @ (top - X0[:3, 3])
    moved = X1[:3, :3] @ local + X1[:3, 3]
    np.testing.assert_allclose(moved - top, [-h * np.sin(theta), 0.0, -h * (1 - np.cos(theta))],
                               atol=1e-12)


@pytest.mark.parametrize("text, match", [
    ('[[surface]]\nname = "s"\npoint = [0.0, 0.0, 0.0]\nnormal = [0.0, 0.0, 1.0]\non = "frame"\n',
     r"x.toml: surface\[0\].on: unknown hinge 'frame'"),
    ('[[hinge]]\nname = "f"\npivot = [0.0, 0.0, 0.0]\nmass = 10.0\ncom = [0.0, 0.0, 0.3]\n'
     'inertia = [0.5, 0.5, 0.2]\nmoment = [[0.0, 0.0]]\n',
     r"x.toml: hinge\[0\].moment: expected >= 2 rows"),
    ('[[hinge]]\nname = "f"\npivot = [0.0, 0.0, 0.0]\nmass = -1.0\n',
     r"x.toml: hinge\[0\].com: missing"),
])
def test_bad_hinge_names_file_and_key(tmp_path, text, match):
    (tmp_path / "x.toml").write_text(f'kind = "interior"\nname = "x"\n{text}')
    with pytest.raises(InteriorFileError, match=match):
        load_interior(tmp_path / "x.toml")
