"""byref: a namedtuple registered ``by_reference`` reaches compiled code as one pointer to the
record laid out in Python, and compiled code reads every field as Python does: arrays of any
dimension and layout, numbers, booleans, None and nested records; a stage gets it as one
argument; a record holding anything else is refused with its field named."""
import re
from collections import namedtuple

import numpy as np
import pytest
from numba import njit, typeof

from occupant import byref
from occupant.byref import Reference, by_reference
from occupant.jit import JIT, JIT_LOOP, separate

Inner = namedtuple("Inner", ["ids", "weight"])
Outer = namedtuple("Outer", ["vec", "table", "cube", "count", "scale", "on", "missing", "inner",
                             "column"])
Wrong = namedtuple("Wrong", ["vec", "pair"])
by_reference(Inner, Outer, Wrong)

NO_CACHE = dict(JIT, cache=False)


def _record():
    table = np.arange(12.0).reshape(3, 4) / 7.0
    table.setflags(write=False)
    return Outer(vec=np.array([0.5, -1.25, 3.0]), table=table,
                 cube=np.arange(24, dtype=np.int64).reshape(2, 3, 4), count=-7, scale=2.5e-3,
                 on=True, missing=None, inner=Inner(np.array([4, 5, 6]), 9.75),
                 column=np.arange(12.0).reshape(4, 3)[:, 1])


def _read(r):
    return (r.vec.sum(), r.table[2, 3], r.cube[1, 2, 3], r.cube.shape[2], r.count, r.scale, r.on,
            r.missing is None, r.inner.ids[2], r.inner.weight, r.column[3], r.column.strides[0])


@separate
def _stage(r, out):
    out[0] = r.vec[1] * r.inner.weight + r.table[1, 1] + r.cube[0, 1, 2] + r.count + r.column[2]


def _loop(r, out):
    _stage(r, out)


def test_compiled_code_reads_every_field_as_python_does():
    record = _record()
    assert isinstance(typeof(record), Reference) and isinstance(typeof(record.inner), Reference)
    assert njit(**NO_CACHE)(_read)(record) == _read(record)
    out = np.zeros(1)
    njit(**dict(JIT_LOOP, cache=False))(_loop)(record, out)
    r = record
    assert out[0] == r.vec[1] * r.inner.weight + r.table[1, 1] + r.cube[0, 1, 2] + r.count + \
        r.column[2]


def test_a_function_takes_the_record_as_one_pointer_only_read():
    read = njit(**NO_CACHE)(_read)
    read(_record())
    ir = next(iter(read.overloads.values())).library.get_llvm_str()
    define = next(line for line in ir.splitlines()
                  if line.startswith("define") and "_read" in line and "cpython" not in line)
    assert re.findall(r"(%[\w.]+)[,)]", define) == ["%retptr", "%excinfo", "%arg.r"]
    assert "noalias nonnull readonly captures(none) dereferenceable" in define


def test_a_record_laid_out_once_is_kept_while_in_use():
    record = _record()
    address = byref._address(record)
    assert byref._address(record) == address
    keep = byref._LAID_OUT.keep
    for _ in range(keep - 1):
        byref._address(_record())
    assert byref._address(record) == address      # the latest used are kept
    for _ in range(keep):
        byref._address(_record())
    assert (id(record), None) not in byref._LAID_OUT.entries
    assert len(byref._LAID_OUT.entries) == keep


def test_a_record_typed_once_is_not_typed_again_while_kept():
    record = _record()
    typed = typeof(record)
    assert typeof(record) is typed
    calls = []
    plain = byref._reference_type
    byref._reference_type = lambda *a: calls.append(a) or plain(*a)
    try:
        assert typeof(record) is typed and not calls             # kept: not typed again
        other = _record()
        assert typeof(other) is typed and len(calls) == 2        # a new one: it and its inner
    finally:
        byref._reference_type = plain


def test_step_entries_are_found_once_for_records_of_the_same_types():
    from occupant.integrate.fixed_step import _for_the_last_types
    found = []
    entries = _for_the_last_types(lambda *records: found.append(records) or len(found))
    first, second = _record(), _record()              # the same types, other records
    assert entries(first, first, first) == 1 and entries(first, first, first) == 1
    assert entries(second, second, second) == 1 and len(found) == 1
    other = Inner(np.array([1.5]), 2.0)               # other types: found again
    assert entries(other, second, second) == 2 and entries(first, first, first) == 3


def test_a_record_holding_other_values_is_refused():
    with pytest.raises(TypeError, match=r"Wrong\.pair: .* not UniTuple"):
        typeof(Wrong(np.zeros(2), (1, 2)))
