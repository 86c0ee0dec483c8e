"""Compilation options of every numba kernel (design.md section 7).

Cached to disk; strict IEEE arithmetic (no fastmath): with contraction and reassociation allowed,
LLVM optimised the same function differently in each library that linked it, so a first run
(compiled fresh) and a later one (loaded from the cache) of us_ncap_frontal_56 differed from the
first sample on (4e-23 in a body pose, femur force 608 against 661 N at the end); without them
the two are bit-identical, at the same speed (warm run 1.88 against 1.90 s CPU). Division follows
numpy's error model (no Python checks). No C-callable wrapper is generated: numba makes one for
every function by default, for calls through first-class function values, which nothing here
uses (the event guards are ``cfunc``s); for a function taking the bundle it was the largest code
of its library (680 kB of LLVM IR of the loop's 1.4 MB), compiled on every first run."""
import copy
import functools
import hashlib
import importlib
import zlib
from pathlib import Path

import llvmlite.binding as llvm

from numba import njit, types
from numba.core import caching, cgutils
from numba.core.compiler import CompileResult
from numba.core.imputils import impl_ret_borrowed, user_function
from numba.core.registry import CPUDispatcher
from numba.core.sigutils import normalize_signature
from numba.core.target_extension import get_local_target
from numba.core.targetconfig import ConfigStack, TargetConfig
from numba.core.types.functions import BaseFunction
from numba.extending import intrinsic

import occupant.jit_codegen  # noqa: F401  (a linked-only stage's code emitted when needed)
import occupant.jit_inline  # noqa: F401  (JIT_INLINE's twins, with and without NRT)

# (a JIT function called from compiled code is compiled for it by a twin without CPython wrapper,
# with the caller's NRT flag: ``jit_inline``)
JIT = dict(cache=True, error_model="numpy", no_cfunc_wrapper=True, forceinline=False)

# For the stages called only from other compiled code: no CPython wrapper is generated (its boxing
# of the bundle's and Data's many arrays is most of a stage's compile time). Such a function has
# no Python entry: call it from Python and the process crashes, so anything a test or a user
# calls directly keeps JIT.
# Stages also run without numba's reference-counting runtime (NRT): they borrow every array from
# their caller, which keeps it alive, so counting references to the bundle's and Data's ~80 arrays
# on every call is pure cost (it was 40 % of the humanoid's step, tests/benchmarks). Without NRT a
# stage cannot allocate (numba refuses to compile np.empty and the like there) and must not
# return an array: the step's scratch lives in Data, allocated once. Large stages are
# ``separate`` (below); small ones, called many times per step, stay linked where LLVM inlines them.
JIT_STAGE = dict(JIT, no_cpython_wrapper=True, _nrt=False)

# For the loops called from Python that allocate nothing (their caller does): no reference
# counting either, which for the bundle's and Data's arrays was most of a loop's code.
JIT_LOOP = dict(JIT, _nrt=False)

# For the small stages of the step and the helpers of the producers: inlined into each caller by
# LLVM (``jit_inline``: compiled once per argument types and NRT flag of the callers), so that no
# call boundary is crossed in the step. (forceinline=False in JIT: a function a forceinline one
# calls would otherwise inherit the flag, numba's default, and be inlined too.)
JIT_INLINE = dict(JIT, forceinline=True)


class FastCall:
    """A compiled function called from Python without numba's per-call type dispatch.

    numba types every argument on each call to find the compiled version; for the step's nested
    records (the bundle and Data) that costs tens of microseconds, more than the work itself. The
    first call for a kind of model resolves the compiled entry point for the argument types;
    later calls go straight to it. Callers pass arguments of the same types every time (the
    model's frozen arrays, a Data from ``make_data``, float64 C-contiguous arrays, floats), except
    for the one thing that varies between models: a bundle as first argument types each producer
    family the model lacks as None (``bundle.step_bundle``) and marks the contact pair types it
    holds, so the entry is kept per such pattern (the first argument's class's ``step_pattern``:
    ``bundle.step_pattern``, reached through the argument so that this low layer imports no
    model)."""

    def __init__(self, dispatcher):
        self.dispatcher = dispatcher
        self.entries = {}
        self.last = (None, None)    # (first argument, its entry): the same model called again

    def __call__(self, *args):
        first = args[0] if args else None
        if first is self.last[0]:
            return self.last[1](*args)
        pattern = getattr(type(first), "step_pattern", None)   # the step bundle's
        key = pattern(first) if pattern is not None else ()
        entry = self.entries.get(key)
        if entry is None:
            from numba import typeof
            sig = tuple(typeof(a) for a in args)
            entry = self.dispatcher.compile(sig)
            if not callable(entry):  # older numba returns the overload's result record
                entry = self.dispatcher.overloads[sig].entry_point
            self.entries[key] = entry
        self.last = (first, entry)
        return entry(*args)


@intrinsic
def nonliteral(typingctx, x):
    """``x`` typed as its plain type (a constant 0 as int64, not Literal[int](0)): a compiled
    function called with a constant is otherwise compiled once more, for that constant."""
    if not isinstance(x, types.Literal):
        return None
    plain = types.unliteral(x)
    return plain(x), lambda context, builder, sig, args: context.cast(builder, args[0], x, plain)


@intrinsic
def readonly(typingctx, a):
    """The array ``a`` typed read-only (a view, nothing copied): a routine compiled for the
    model's read-only arrays, called with a writable one, is otherwise compiled once more."""
    if not isinstance(a, types.Array) or not a.mutable:
        return None
    ro = a.copy(readonly=True)
    return ro(a), lambda context, builder, sig, args: impl_ret_borrowed(context, builder, ro,
                                                                        args[0])


@intrinsic
def call_if(typingctx, marker, func, otherwise, *args):
    """``func(*args)`` where ``marker`` is not None, else ``otherwise``, and then nothing of
    ``func`` typed or compiled: the marker's type decides (a block's marker, ``bundle.MARKERS``:
    None for what a model lacks), not its value, so that no code is compiled for a branch the model
    never takes. The result has ``otherwise``'s type (``func``'s cast to it)."""
    if not isinstance(func, types.Dispatcher):
        return None
    sig = otherwise(marker, func, otherwise, types.StarArgTuple(args))
    if isinstance(marker, types.NoneType):
        return sig, lambda context, builder, sig, llargs: llargs[2]
    call = typingctx.resolve_function_type(func, args, {})

    def codegen(context, builder, sig, llargs):
        values = [builder.extract_value(llargs[3], i) for i in range(len(args))]
        result = context.get_function(func, call)(builder, values)
        return context.cast(builder, result, call.return_type, otherwise)
    return sig, codegen


# Separately compiled stages called through their address. numba links the whole code of every
# compiled function a function calls into that function's library, and LLVM then optimises and
# emits all of it again there: the step's stages, nested (run_euler -> _euler_advance -> loads ->
# producers), were optimised and emitted three and four times on a first run. A stage called with
# ``call_compiled`` is not linked: the caller takes the stage's entry (from ``compiled_entry``,
# in Python, where the stage is compiled or loaded from the cache) as an argument and calls it as
# numba calls any compiled function; the cached caller holds no address. Such stages return
# nothing. With ``entry`` None the call is an ordinary (linked) one, for callers driven from
# Python step by step, which have no entry to pass.

def _entry_key(argtypes):
    """Checksum of a stage's argument types: the caller, compiled for them, compares it on each
    call with the entry's, so that an entry compiled for other types is refused, never run."""
    return zlib.crc32(repr(tuple(argtypes)).encode()) & 0x7FFFFFFF


def compiled_entry(dispatcher, *argtypes):
    """(address, key) of ``dispatcher``'s native entry for the numba types ``argtypes``,
    compiled (or loaded from the cache) if need be: the ``entry`` of ``call_compiled``."""
    dispatcher.compile(argtypes)
    cres = dispatcher.overloads[argtypes]
    return cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name), _entry_key(argtypes)


@intrinsic
def call_compiled(typingctx, stage, entry, *args):
    """``stage(*args)`` through ``entry`` = ``compiled_entry(stage, <numba types of args>)``,
    or linked as usual where ``entry`` is None."""
    if not isinstance(stage, types.Dispatcher):
        return None
    sig = types.none(stage, entry, types.StarArgTuple(args))
    if isinstance(entry, types.NoneType):
        call = typingctx.resolve_function_type(stage, args, {})

        def linked(context, builder, sig, llargs):
            values = [builder.extract_value(llargs[2], i) for i in range(len(args))]
            context.get_function(stage, call)(builder, values)
            return context.get_dummy_value()
        return sig, linked
    key = _entry_key(args)

    def codegen(context, builder, sig, llargs):
        address, given = builder.extract_value(llargs[1], 0), builder.extract_value(llargs[1], 1)
        wrong = builder.icmp_signed("!=", given, context.get_constant(types.intp, key))
        with cgutils.if_unlikely(builder, wrong):
            context.call_conv.return_user_exc(builder, TypeError, (
                f"{stage.dispatcher.py_func.__name__}: compiled entry for other argument types",))
        fn = builder.inttoptr(address, context.call_conv.get_function_type(types.none, args)
                              .as_pointer())
        values = [builder.extract_value(llargs[2], i) for i in range(len(args))]
        status, _ = context.call_conv.call_function(builder, fn, types.none, args, values)
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return context.get_dummy_value()
    return sig, codegen


# Stages compiled once and called by name (``separate``). numba links the library of every
# compiled function a function calls into the caller's library, where LLVM optimises and emits all
# of it again: a stage four calls deep was optimised and emitted five times on a first run. A
# separate stage's callers only declare it, under a name fixed by the stage and its types
# (``_symbol``; numba's own names number functions in the order a process met them), and the JIT
# resolves that name to the stage's own code, registered when the stage is compiled or loaded
# from the cache; a caller loaded from the cache loads the stage first (``_load``, among numba's
# reload hooks of the caller's cached result).

def _symbol(func, argtypes, restype):
    """The name callers call ``func`` compiled for ``argtypes`` (returning ``restype``) by."""
    digest = hashlib.sha1(repr((tuple(argtypes), restype)).encode()).hexdigest()[:16]
    return f"occupant.stage.{func.__module__}.{func.__qualname__}.{digest}"


def _load(module, qualname, argtypes, name):
    """The stage ``module.qualname`` compiled (or loaded from the cache) for ``argtypes`` and
    defined as ``name``, a caller's call of it, before the caller's code is loaded (a failure
    here makes the caller not cached: ``_load_overload``)."""
    stage = importlib.import_module(module)
    for part in qualname.split("."):
        stage = getattr(stage, part)
    stage.compile(argtypes)
    cres = stage.overloads[argtypes]
    if _symbol(stage.py_func, argtypes, cres.signature.return_type) != name:
        # the caller's cached code calls another name: it is compiled again (``_load_overload``)
        raise RuntimeError(f"{module}.{qualname} returns another type than when its caller's "
                           "cached code was compiled")
    _define(name, cres)


def _define(name, cres):
    """``name`` resolved by the JIT to the compiled function of ``cres``."""
    llvm.add_symbol(name, cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name))


def _rebuild(cls, *payload, _numba_rebuild=CompileResult._rebuild.__func__):
    """numba's rebuild of a cached compiled function, its library keeping the reload hooks (its
    callers by name's ``_load``) for the functions that link it: numba leaves them out of a
    library loaded from the cache, so a function compiled later that linked it lost them."""
    cres = _numba_rebuild(cls, *payload)
    cres.library._reload_init.update(cres.reload_init or ())
    return cres


CompileResult._rebuild = classmethod(_rebuild)


# The disk cache shared by processes compiling at once: a sweep's workers, a cluster's sharing one
# install, two runs of different scenarios. numba names the data file of a new cache entry by the
# first number its function's index does not use yet: two processes compiling the function for
# different types at once read the same index, pick the same number, each writes the index with
# its own entry and then the data, and where the last index written and the last data written
# were of different processes the index named the other's code. Loaded, a function compiled for
# other types was added under those types: a caller's ``_load`` of its stage failed with a
# KeyError (usercheck9: every ``occupant certify`` in a worktree a local pool, Dask workers and
# pytest had shared), and a function called from Python would have been given code compiled for
# other arguments (or for another CPU, on a cluster's mixed nodes: the key holds the CPU).

# The stamp of a cache entry. numba keeps a function's entries while its own file's modification
# time and size stay the same, but a compiled function holds more than its file: the code of the
# functions it calls, inlined or linked, and the module constants they read, frozen at compile
# time. Edit a callee's module (a git pull or checkout in an editable install) and the caller's
# entry still loaded, with the old callee inside: on merged main us_ncap_frontal_56 gave HIC15
# 462 for the shipped 375 until the cache was removed by hand (scenarios/HISTORY.md, the stop 62
# note). An occupant function's entries are kept under the digest of every module of the package
# as well: any edit of the package compiles them again, once.

PACKAGE = Path(__file__).resolve().parent


def package_digest(root=PACKAGE):
    """sha256 (24 hex digits) of the path and text of every ``*.py`` under ``root``."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:24]


_PACKAGE_DIGEST = package_digest()


class _SharedCacheFile(caching.IndexDataCacheFile):
    """numba's index and data files of one function, each data file named by its entry's key
    (the argument types, the CPU, the function's code): every process that writes it writes the
    same entry, the data first; an index entry naming another file (numba's numbering) is read as
    not cached: compiled again and saved under its own name. A concurrent writer can still drop
    another's index entry (the last index written wins): that entry is compiled again by the
    next process, never loaded wrong."""

    def _data_name_for(self, key):
        digest = hashlib.sha256(repr(key).encode()).hexdigest()[:24]
        return f"{self._index_name[:-len('.nbi')]}.{digest}.nbc"

    def _load_index(self):
        try:
            return super()._load_index()
        except Exception:   # damaged: as empty (written again whole by the next save)
            return {}

    def save(self, key, data):
        name = self._data_name_for(key)
        self._save_data(name, data)
        overloads = self._load_index()
        if overloads.get(key) != name:
            overloads[key] = name
            self._save_index(overloads)

    def load(self, key):
        name = self._load_index().get(key)
        if name is None or name != self._data_name_for(key):
            return None
        try:
            return self._load_data(name)
        except OSError:   # removed since the index was read
            return None


def _load_overload(self, sig, target_context, _numba_load=caching.Cache.load_overload):
    """numba's load of a function compiled for ``sig`` from its cache; an entry that cannot be
    loaded (its stages' ``_load`` failing, damaged data) or holds another signature's code is
    not cached: the function is compiled (the same code) and the entry saved again. numba reads
    only a missing data file so and let any other failure end the run with a traceback."""
    try:
        cres = _numba_load(self, sig, target_context)
    except Exception:
        return None
    if cres is not None and tuple(cres.signature.args) != tuple(normalize_signature(sig)[0]):
        return None
    return cres


def _cache_init(self, py_func, _numba_init=caching.Cache.__init__):
    """numba's cache of ``py_func``, an occupant function's index stamped with the package's
    digest beside numba's stamp of its own file (``package_digest``)."""
    _numba_init(self, py_func)
    if Path(py_func.__code__.co_filename).resolve().is_relative_to(PACKAGE):
        self._cache_file._source_stamp = (self._cache_file._source_stamp, _PACKAGE_DIGEST)


caching.IndexDataCacheFile = _SharedCacheFile   # (numba's Cache makes its file by this name)
caching.Cache.__init__ = _cache_init
caching.Cache.load_overload = _load_overload


_CONFIG_DEFAULTS = {}   # TargetConfig subclass -> {option: default}, built on first use


def _config_values(self):
    """numba's ``TargetConfig.values`` (every option's value, in the options' order), built from
    the stored values over the class's defaults instead of one property call per option: numba
    hashes and compares the compilation flags (22 options in numba 0.68) on every typing of an
    overloaded call (``templates._get_impl``'s cache key), 15 % of the belts' cold compilation
    in cProfile. The same dict as numba's, so the same keys and the same compiled code."""
    cls = type(self)
    defaults = _CONFIG_DEFAULTS.get(cls)
    if defaults is None:
        defaults = _CONFIG_DEFAULTS[cls] = {k: option.default for k, option in cls.options.items()}
    return {**defaults, **self._values}


TargetConfig.values = _config_values


_CALL_TYPES = {}   # (function type, args, kws, flags, target) -> (signature, implementation key)


def _get_call_type(self, context, args, kws, _numba_get_call_type=BaseFunction.get_call_type):
    """numba's ``BaseFunction.get_call_type`` (the signature of a call of a typed function:
    an operator, a builtin, an overload, an intrinsic), remembered: numba resolves the same call
    again at every call site and once more when lowering it, each time trying the function's
    templates in turn, most of them failing with an exception (26 000 resolutions for 400
    distinct ones, 4.7 of the 33 s CPU of us_ncap_frontal_56's cold compilation). The key holds
    what the resolution depends on besides the types: the typing context, the compile flags
    (an overload is compiled with its caller's) and the target; a hit restores the
    implementation key the resolution recorded, so lowering picks the same implementation.
    Failed resolutions are not remembered (they raise again)."""
    try:
        key = (self, context, tuple(args), tuple(kws.items()), ConfigStack.top_or_none(),
               get_local_target(context))
        hit = _CALL_TYPES.get(key)
    except TypeError:   # an unhashable argument type: resolve as numba does
        return _numba_get_call_type(self, context, args, kws)
    if hit is not None:
        sig, impl = hit
        self._impl_keys[sig.args] = impl
        return sig
    sig = _numba_get_call_type(self, context, args, kws)
    if sig is not None:
        _CALL_TYPES[key] = (sig, self._impl_keys[sig.args])
    return sig


BaseFunction.get_call_type = _get_call_type


class _Separate(CPUDispatcher):
    """A dispatcher whose compiled functions are called by name (``_symbol``), not linked."""

    def add_overload(self, cres):
        args = tuple(cres.signature.args)
        name = _symbol(self.py_func, args, cres.signature.return_type)
        _define(name, cres)
        renamed = copy.copy(cres.fndesc)
        renamed.mangled_name = name
        call = user_function(renamed, ())
        loader = functools.partial(_load, self.py_func.__module__, self.py_func.__qualname__,
                                   args, name)

        def by_name(context, builder, sig, args):
            context.active_code_library._reload_init.add(loader)
            return call(context, builder, sig, args)
        by_name.signature, by_name.libs = call.signature, ()
        overloads = self.targetctx._defns[cres.entry_point]
        overloads.versions = [(sig, by_name) for sig, _ in overloads.versions]
        overloads._cache.clear()
        super().add_overload(cres)


def separate(func):
    """``njit(**JIT_STAGE)`` of ``func``, compiled once: every compiled caller calls it by name
    instead of compiling its code again into its own."""
    dispatcher = njit(**JIT_STAGE)(func)
    dispatcher.__class__ = _Separate
    return dispatcher
