"""Bad input to velocity_jump ends in one ContactError (a ValueError) naming the parameter, the
bad value and what is accepted."""
import numpy as np
import pytest

from occupant.contact import ContactError, PointContact, velocity_jump
import impact_models as im


@pytest.fixture(scope="module")
def rod():
    model = im.rod(2.0, 1.2)
    q, v = im.rod_state(model, np.zeros(3), 0.3, [0.0, 0.0, -1.0], 0.0)
    return model, model.make_data(), q, v


GOOD = PointContact("rod", (0.0, 0.0, 0.0), (0.0, 0.0, 1.0))


@pytest.mark.parametrize("kwargs, message", [
    (dict(restitution=-0.1), r"restitution: expected one number in \[0, 1\], got -0.1"),
    (dict(restitution=float("nan")), r"restitution: expected one number in \[0, 1\], got nan"),
    (dict(restitution=[0.5]), r"restitution: expected one number in \[0, 1\], got \[0.5\]"),
    (dict(friction=-1.0), r"friction: expected a finite number >= 0, got -1.0"),
    (dict(friction=float("inf")), r"friction: expected a finite number >= 0, got inf"),
    (dict(friction_directions=6), r"friction_directions: expected a multiple of 4, at least 4, got 6"),
])
def test_bad_parameters(rod, kwargs, message):
    model, data, q, v = rod
    with pytest.raises(ContactError, match=message):
        velocity_jump(model, data, q, v, [GOOD], **kwargs)


@pytest.mark.parametrize("contacts, message", [
    (GOOD, r"contacts: expected a list of PointContact, got PointContact\("),
    ([("rod", (0, 0, 0), (0, 0, 1))], r"contacts\[0\]: expected an occupant.contact.PointContact"),
    ([GOOD, PointContact("head", (0, 0, 0), (0, 0, 1))], r"contacts\[1\].body: unknown body 'head' \(known: rod\)"),
    ([PointContact("rod", (0, 0), (0, 0, 1))], r"contacts\[0\].point: expected 3 finite numbers, got \(0, 0\)"),
    ([PointContact("rod", (0, 0, 0), (0, 0, 0.5))], r"contacts\[0\].normal: expected a unit vector, got \(0, 0, 0.5\) \(length 0.5\)"),
    ([PointContact("rod", (0, 0, 0), (0, 0, 1), other="rod")], r"contacts\[0\].other: a body cannot touch itself"),
])
def test_bad_contacts(rod, contacts, message):
    model, data, q, v = rod
    with pytest.raises(ContactError, match=message):
        velocity_jump(model, data, q, v, contacts)


def test_contact_error_is_a_value_error():
    assert issubclass(ContactError, ValueError)


def test_bad_state(rod):
    model, data, q, v = rod
    with pytest.raises(ContactError, match=r"v: expected 6 finite numbers, got shape \(5,\)"):
        velocity_jump(model, data, q, v[:5], [GOOD])
