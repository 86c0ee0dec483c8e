"""jit's faster ``TargetConfig.values``: the same dict as numba's definition (each option read
through its property, in the options' order), so flags hash and compare as before."""
from numba.core.compiler import Flags

import occupant.jit  # noqa: F401  (installs the faster values)


def by_property(flags):
    """numba's own definition of ``TargetConfig.values``."""
    return {k: getattr(flags, k) for k in flags.options}


def test_values_match_numba_definition():
    plain, set_ = Flags(), Flags()
    set_.nrt, set_.error_model, set_.no_cpython_wrapper, set_.fastmath = True, "numpy", True, True
    for flags in (plain, set_):
        fast, ref = flags.values(), by_property(flags)
        assert list(fast) == list(ref)
        assert all(fast[k] is ref[k] or fast[k] == ref[k] for k in ref)
    assert plain.values() != set_.values()


def test_flags_compare_and_hash_by_value():
    a, b = Flags(), Flags()
    a.nrt = b.nrt = True
    assert a == b and hash(a) == hash(b)
    b.error_model = "numpy"
    assert a != b
