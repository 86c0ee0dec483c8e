"""Records passed by reference in compiled code (issue 13: a first run's compilation).

numba passes a namedtuple of arrays by value: every function taking the bundle takes its ~200
arrays as ~1500 scalar arguments, every variable holding it is a stack slot of that size, and
LLVM's scalar replacement splits each of them again (most of the optimisation of ``loads``).
A class registered here is typed ``Reference``: the same fields and attribute access, held as
one pointer to the record, which is never written. A record entering compiled code from Python
is laid out in memory once, in Python (``_address``), not unboxed array by array by code
compiled into every function called from Python (1.1 s of compilation for the bundle and Data).
"""
import collections
import functools
import struct

import llvmlite.binding as llvm
import numpy as np
from numba import typeof
from numba.core import cgutils, types
from numba.core.callconv import CPUCallConv
from numba.core.imputils import impl_ret_borrowed, lower_getattr_generic
from numba.core.registry import cpu_target
from numba.extending import NativeValue, models, register_model, typeof_impl, unbox


class Reference(types.NamedTuple):
    """A namedtuple held by pointer: typed as the namedtuple (its fields, their types). Nothing
    is kept on an instance beyond numba's own state: numba pickles a type's ``__dict__`` into
    its cache index, and a hash kept there (string hashing is salted per process) made every
    lookup of the step's stages miss, 4.4 s of compilation in each warm ``occupant run``."""

    def __init__(self, types_, cls):
        super().__init__(types_, cls)
        self.name = "&" + self.name

    def plain(self):
        """The namedtuple type of the record the pointer points to."""
        return types.NamedTuple(self.types, self.instance_class)


@register_model(Reference)
class _ReferenceModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        record = dmm.lookup(fe_type.plain()).get_value_type()
        super().__init__(dmm, fe_type, record.as_pointer())


@lower_getattr_generic(Reference)
def _field(context, builder, typ, value, attr):
    index = typ.fields.index(attr)
    field = builder.load(cgutils.gep_inbounds(builder, value, 0, index))
    return impl_ret_borrowed(context, builder, typ[index], field)


@unbox(Reference)
def _unbox(typ, obj, c):
    """The record's address from ``_address`` (one call, however many arrays it holds)."""
    address_of = c.pyapi.unserialize(c.pyapi.serialize_object(_address))
    address = c.pyapi.call_function_objargs(address_of, [obj])
    c.pyapi.decref(address_of)
    failed = cgutils.is_null(c.builder, address)
    pointer = cgutils.alloca_once_value(c.builder, c.context.get_value_type(typ)(None))
    with c.builder.if_then(c.builder.not_(failed), likely=True):
        value = c.pyapi.long_as_voidptr(address)
        c.builder.store(c.builder.bitcast(value, pointer.type.pointee), pointer)
        c.pyapi.decref(address)
    return NativeValue(c.builder.load(pointer), is_error=failed)


class _Recent:
    """Values computed for the ``keep`` records used last, by id of the record (each entry keeps
    its record alive, so that the id is not reused while the value is kept). A record's arrays
    and their flags are set when it is built (``model.bundle.frozen``), so that a value computed
    from them holds for as long as the record lives."""

    def __init__(self, keep):
        self.keep, self.entries = keep, collections.OrderedDict()

    def get(self, record, key, make):
        """The value for (``record``, ``key``): ``make()`` the first time."""
        full = (id(record), key)
        entry = self.entries.get(full)
        if entry is None:
            entry = self.entries[full] = (record, make())
            if len(self.entries) > self.keep:
                self.entries.popitem(last=False)
        else:
            self.entries.move_to_end(full)
        return entry[1]


# Records laid out in memory as compiled code reads them: (their buffers and their members',
# address). Few: a run's recording is large, and more than a call takes.
_LAID_OUT = _Recent(8)
# numba types of records: typing a bundle's ~200 arrays took ~1.5 ms at each run of a step loop
# (fitting the belts runs it ten times); as many as a bundle holds (8 in the Hybrid III's) and
# the Data and Recording a loop takes with it
_TYPED = _Recent(16)


def _address(record):
    """Address of ``record`` laid out as numba's value of its ``Reference.plain`` type (each
    array as numba unboxes it without reference counting: its PyObject as parent)."""
    def lay_out():
        buffers = []
        return buffers, _lay_out(typeof(record), record, buffers)
    return _LAID_OUT.get(record, None, lay_out)[1]


def _lay_out(typ, record, buffers):
    offsets, size = _offsets(typ)
    buffer = np.zeros(size, np.uint8)
    for offset, member_type, value in zip(offsets, typ.types, record):
        if isinstance(member_type, Reference):
            struct.pack_into("P", buffer, offset, _lay_out(member_type, value, buffers))
        elif isinstance(member_type, types.Array):
            struct.pack_into(f"PPqqP{2 * value.ndim}q", buffer, offset, 0, id(value), value.size,
                             value.itemsize, value.ctypes.data, *value.shape, *value.strides)
        elif not isinstance(member_type, types.NoneType):
            struct.pack_into(np.dtype(str(member_type)).char, buffer, offset, value)
    buffers.append(buffer)
    return buffer.ctypes.data


@functools.lru_cache(maxsize=None)
def _offsets(typ):
    """(byte offset of each field, size) of the value of ``typ.plain()`` (LLVM's layout)."""
    context = cpu_target.target_context
    text = f"@record = global {context.get_value_type(typ.plain())} zeroinitializer"
    lltype = llvm.parse_assembly(text).get_global_variable("record").global_value_type
    return ([context.target_data.get_element_offset(lltype, i) for i in range(len(typ))],
            context.target_data.get_abi_size(lltype))


def by_reference(*classes):
    """Type instances of the namedtuple ``classes`` as ``Reference`` in compiled code."""
    for cls in classes:
        typeof_impl.register(cls)(_typeof)


def _typeof(value, context):
    return _TYPED.get(value, context.purpose, lambda: _reference_type(value, context))


def _reference_type(value, context):
    member_types = [typeof_impl(v, context) for v in value]
    for name, member_type in zip(value._fields, member_types):
        if not isinstance(member_type, (Reference, types.Array, types.Integer, types.Float,
                                        types.Boolean, types.NoneType)):
            raise TypeError(f"{type(value).__name__}.{name}: a record passed by reference holds "
                            f"arrays, real numbers, booleans, None and such records, not "
                            f"{member_type}")
    return Reference(member_types, type(value))


def _mark(context, fe_type, value):
    """Attributes of the argument ``value`` (of numba type ``fe_type``, flattened as the calling
    convention passes it) that is or holds a ``Reference``: the record it points to is only read
    and not reached through any other pointer, so LLVM keeps its fields out of loops that write
    arrays (loaded again on every pass otherwise)."""
    if isinstance(fe_type, Reference):
        value.add_attribute("noalias")
        value.add_attribute("captures(none)")
        value.add_attribute("nonnull")
        value.attributes.dereferenceable = context.get_abi_sizeof(value.type.pointee)
    elif isinstance(fe_type, types.BaseTuple) and isinstance(value, (tuple, list)):
        for member_type, member in zip(fe_type, value):
            _mark(context, member_type, member)


def _decorate_function(self, fn, args, fe_argtypes, noalias=False,
                       _numba_decorate=CPUCallConv.decorate_function):
    _numba_decorate(self, fn, args, fe_argtypes, noalias)
    values = self._get_arg_packer(fe_argtypes)._unflattener.unflatten(self.get_arguments(fn))
    for fe_type, value in zip(fe_argtypes, values):
        _mark(self.context, fe_type, value)


CPUCallConv.decorate_function = _decorate_function
