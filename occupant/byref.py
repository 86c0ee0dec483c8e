"""Records passed by reference in compiled code (issue 13: a first run's compilation).

numba passes a namedtuple of arrays by value: every function taking the bundle takes its ~200
arrays as ~1500 scalar arguments, every variable holding it is a stack slot of that size, and
LLVM's scalar replacement splits each of them again (most of the optimisation of ``loads``).
A class registered here is typed ``Reference``: the same fields and attribute access, held as
one pointer to the record, which is built once where it enters compiled code from Python
(unboxed into the entry function's frame, alive for the whole call) and never written.
"""
from numba.core import cgutils, types
from numba.core.callconv import CPUCallConv
from numba.core.imputils import impl_ret_borrowed, lower_getattr_generic
from numba.extending import NativeValue, models, register_model, typeof_impl, unbox


class Reference(types.NamedTuple):
    """A namedtuple held by pointer: typed as the namedtuple (its fields, their types)."""

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
    """The record unboxed as numba unboxes a namedtuple, kept in the entry function's frame."""
    native = c.unbox(typ.plain(), obj)
    slot = cgutils.alloca_once(c.builder, native.value.type)
    c.builder.store(native.value, slot)

    def cleanup():
        if native.cleanup is not None:
            native.cleanup()
        if c.context.enable_nrt:
            c.context.nrt.decref(c.builder, typ.plain(), c.builder.load(slot))
    return NativeValue(slot, is_error=native.is_error, cleanup=cleanup)


def by_reference(*classes):
    """Type instances of the namedtuple ``classes`` as ``Reference`` in compiled code."""
    for cls in classes:
        typeof_impl.register(cls)(_typeof)


def _typeof(value, context):
    return Reference([typeof_impl(v, context) for v in value], type(value))


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
