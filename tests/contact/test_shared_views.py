"""The contact geometry and force-law routines are compiled once for every producer that uses
them: each hands them a view of its block (``geometry_pairs.PairGeometry``,
``compliant.ContactLaw``) whose numba type is the same whatever block it comes from. A dtype,
layout or read-only flag differing between the blocks would compile a second copy on a first
run (each ~1 s)."""
import pytest
from numba import typeof

from occupant.contact.compliant import ContactLaw
from occupant.contact.geometry_pairs import PairGeometry
from occupant.scenario import load


@pytest.fixture(scope="module")
def ncap():
    """The bundle of us_ncap_frontal_56: contacts, a driver airbag and a belt."""
    return load("us_ncap_frontal_56").model.bundle()


def test_contact_pairs_and_airbag_backing_give_the_geometry_routines_one_type(ncap):
    bundle = ncap
    c, a = bundle.contacts, bundle.airbags
    assert len(c.link_a) > 0 and len(a.bag_link) > 0
    contact_view = PairGeometry(c.link_a, c.R_a, c.p_a, c.size_a, c.link_b, c.R_b, c.p_b, c.size_b)
    backing_view = PairGeometry(a.link_a, a.R_a, a.p_a, a.size_a, a.link_b, a.R_bottom,
                                a.p_bottom, a.size_bottom)
    assert typeof(contact_view) == typeof(backing_view)


def test_contacts_and_belts_give_the_force_law_routines_one_type(ncap):
    bundle = ncap
    views = [ContactLaw(*(getattr(block, f) for f in ContactLaw._fields))
             for block in (bundle.contacts, bundle.belts)]
    assert len(bundle.contacts.law) > 0 and len(bundle.belts.law) > 0
    assert typeof(views[0]) == typeof(views[1])

