"""The contact geometry and force-law routines are compiled once for every producer that uses
them: each hands them a view of its block (``geometry_pairs.PairGeometry``,
``compliant.ContactLaw``) whose numba type is the same whatever block it comes from. A dtype,
layout or read-only flag differing between the blocks would compile a second copy on a first
run (each ~1 s)."""
import numpy as np
import pytest
from numba import njit, typeof

from occupant.contact.compliant import ContactLaw
from occupant.contact.geometry_pairs import PairGeometry
from occupant.jit import readonly
from occupant.scenario import load


@pytest.fixture(scope="module")
def ncap():
    """The bundle of us_ncap_frontal_56: contacts, a driver airbag and a belt."""
    return load("us_ncap_frontal_56").model


def test_contact_pairs_and_airbag_backing_give_the_geometry_routines_one_type(ncap):
    bundle = ncap.bundle()
    c, a = bundle.contacts, bundle.airbags
    assert len(c.link_a) > 0 and len(a.bag_link) > 0
    contact_view = PairGeometry(c.link_a, c.R_a, c.p_a, c.size_a, c.link_b, c.R_b, c.p_b, c.size_b)
    backing_view = PairGeometry(a.link_a, a.R_a, a.p_a, a.size_a, a.link_b, a.R_bottom,
                                a.p_bottom, a.size_bottom)
    assert typeof(contact_view) == typeof(backing_view)


def test_contacts_and_belts_give_the_force_law_routines_one_type(ncap):
    bundle = ncap.bundle()
    views = [ContactLaw(*(getattr(block, f) for f in ContactLaw._fields))
             for block in (bundle.contacts, bundle.belts)]
    assert len(bundle.contacts.law) > 0 and len(bundle.belts.law) > 0
    assert typeof(views[0]) == typeof(views[1])



def test_airbag_bag_rows_read_only_have_the_contact_geometry_type(ncap):
    """The bag side of an airbag's pair view: rows of Data.airbag_pairs, each a contiguous
    (npair, 3) array, handed over ``jit.readonly``: the contact pairs' p_b and size_b type."""
    c, rows = ncap.bundle().contacts, ncap.make_data().airbag_pairs
    assert rows.shape[1] == len(ncap.bundle().airbags.link_a) > 0
    for r in (0, 1):
        assert typeof(rows[r]).copy(readonly=True) == typeof(c.p_b) == typeof(c.size_b)


@njit(cache=False)
def _weighted(a):
    return a[0, 0] + 2.0 * a[-1, 2]


@njit(cache=False)
def _weighted_writable(a):
    return _weighted(readonly(a))


def test_readonly_compiles_the_callee_once_and_reads_the_same_values():
    a = np.arange(12.0).reshape(4, 3)
    frozen_a = a.copy()
    frozen_a.setflags(write=False)
    assert _weighted(frozen_a) == _weighted_writable(a) == 0.0 + 2.0 * 11.0
    assert len(_weighted.signatures) == 1
