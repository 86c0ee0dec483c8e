"""Machine code of a linked-only stage emitted when something needs it, not when compiled.

numba emits the machine code of every function it compiles as soon as it is compiled
(``JITCodeLibrary._finalize_specific``), then once more inside every caller that links it. A
stage compiled with neither CPython nor C wrapper (``jit.JIT_STAGE``) is only ever linked into
its callers (its own machine code is never run), except the stages called by name or address
(``jit.separate``, ``jit.call_compiled``), whose address is taken: for us_ncap_frontal_56's cold
compilation 65 of 101 libraries, 1.9 of 34 s CPU of emitted code nobody ran. Here such a library
is optimised as before (its callers link the very same module, so their code does not change)
but its code is emitted only when its address is asked for (``get_pointer_to_function`` of a
symbol it defines); cached before that, it is saved as its optimised module (numba's 'bitcode'
form, which its callers link as they link the object form's module) and saved again as object
code if its address is asked for later in the same process (``materialize``; the compile jobs,
whose addresses a run asks for, are emitted at once: ``integrate.precompile.compile_job``). An
environment (``set_env``) whose global is not emitted yet is set when a library defining it is.
The compiled code is the same.

Nor is such a library's module optimised on its own: numba optimised each library's module with
its callees linked in, then again inside every caller linking it, so a stage four calls deep was
optimised five times. Its callers link it as lowered (after numba's function passes) and optimise
it with their own code; it is optimised itself only if its code is emitted (cached before that,
it is saved as such, ``UNOPTIMIZED``). For us_ncap_frontal_56's compile jobs in one process
17.3-17.7 -> 16.2-16.3 s CPU, LLVM 5.8-5.9 -> 4.8 s (tests/benchmarks/bench_cold_compile.py,
two pairs alternated); the run's results bit-identical (no fastmath: ``jit``), its warm
simulation 0.68-0.72 s before, 0.70-0.73 s after (bench_scenario.py, four pairs alternated)
[measured, coldstart13].
"""
import llvmlite.binding as ll
from numba.core import codegen, typed_passes
from numba.core.caching import Cache

_PENDING_ENVS = {}   # environment name -> environment, for code not yet emitted
_UNSAVED = []   # cache folders a save into failed (said once)
UNOPTIMIZED = "occupant-unoptimized-bitcode"   # a cached lazy library's form (its module as lowered)
_numba_finalize_module = codegen.CPUCodeLibrary._finalize_final_module
_numba_optimize_final_module = codegen.CPUCodeLibrary._optimize_final_module
_numba_finalize_specific = codegen.JITCodeLibrary._finalize_specific
_numba_unserialize = codegen.CPUCodeLibrary._unserialize.__func__
_numba_pointer = codegen.JITCodeLibrary.get_pointer_to_function
_numba_serialize = codegen.CPUCodeLibrary.serialize_using_object_code
_numba_set_env = codegen.JITCPUCodegen.set_env
_numba_lowering = typed_passes.BaseNativeLowering.run_pass
_numba_save = Cache._save_overload


def _lowering(self, state):
    """numba's native lowering, the library of a linked-only stage marked lazy."""
    flags = state.flags
    if (state.library is None and flags.no_cpython_wrapper and flags.no_cfunc_wrapper
            and not flags.no_compile):
        state.library = state.targetctx.codegen().create_library(state.func_id.func_qualname)
        state.library.enable_object_caching()
        state.library._lazy = True
    return _numba_lowering(self, state)


def _optimize_final_module(self):
    """numba's module optimisation, none for a library only linked into its callers (lazy;
    done if its code is emitted, ``materialize``)."""
    if getattr(self, "_lazy", False):
        self._unoptimized = True
    else:
        _numba_optimize_final_module(self)


def _finalize_module(self):
    if not getattr(self, "_lazy", False):
        return _numba_finalize_module(self)
    self._finalize_dynamic_globals()   # (numba's cache refuses a library holding one)
    self._verify_declare_only_symbols()
    self._pending = True
    self._finalized = True


def _finalize_specific(self):
    """numba's (the code emitted), then the pending environments this library defines set."""
    _numba_finalize_specific(self)
    if _PENDING_ENVS:
        for gv in self._final_module.global_variables:
            if not gv.is_declaration and gv.name in _PENDING_ENVS:
                _numba_set_env(self.codegen, gv.name, _PENDING_ENVS.pop(gv.name))


@classmethod
def _unserialize(cls, codegen_, state):
    """numba's, a library cached as its module (a lazy one) loaded lazy again."""
    name, kind, data = state
    if kind not in ("bitcode", UNOPTIMIZED):
        return _numba_unserialize(cls, codegen_, state)
    self = codegen_.create_library(name)
    self._lazy = True
    self._unoptimized = kind == UNOPTIMIZED
    self._final_module = ll.parse_bitcode(data)
    self._finalize_final_module()
    return self


def materialize(library):
    """Emit the code of a lazy ``library`` (nothing if it is not lazy or already emitted), set
    the environments it defines, and save it again as object code if it was cached without."""
    if not getattr(library, "_pending", False):
        return
    library._pending = library._lazy = False
    if getattr(library, "_unoptimized", False):
        library._unoptimized = False
        _numba_optimize_final_module(library)
    library._dynamic_globals.clear()   # found again
    _numba_finalize_module(library)
    resave = getattr(library, "_resave", None)
    if resave is not None:
        library._resave = None
        resave()


def _pointer(self, name):
    """numba's, a lazy library's code emitted first if it defines ``name`` (else 0, as numba)."""
    if getattr(self, "_pending", False):
        try:
            fn = self._final_module.get_function(name)
        except NameError:
            return 0
        if fn.is_declaration:
            return 0
        materialize(self)
    return _numba_pointer(self, name)


def _serialize(self):
    """numba's object form, or a lazy library's optimised module while its code is not emitted."""
    if getattr(self, "_pending", False):
        self._saved_lazy = True
        kind = UNOPTIMIZED if getattr(self, "_unoptimized", False) else "bitcode"
        return (self.name, kind, self._final_module.as_bitcode())
    return _numba_serialize(self)


def _set_env(self, env_name, env):
    """numba's, kept for later where no emitted code defines the environment's global yet."""
    if not self._engine.is_symbol_defined(env_name):
        _PENDING_ENVS[env_name] = env
        return
    _numba_set_env(self, env_name, env)


def _save(self, sig, data):
    """numba's, and a lazy library saved as its module saved again once its code is emitted."""
    _save_or_say(self, sig, data)
    library = getattr(data, "library", None)
    if getattr(library, "_saved_lazy", False) and getattr(library, "_pending", False):
        library._resave = lambda: _save_or_say(self, sig, data)


def _save_or_say(cache, sig, data):
    """numba's save of compiled code in its cache; a cache that cannot be written (a full disk,
    a quota: "[Errno 27] File too large") is said once and the run goes on, compiling again next
    time. It stopped the run with the OSError alone, no file named, before anything of the run
    was written (usercheck9). numba writes each file to a temporary one, replaced only when
    written whole, and reads an index entry whose file is missing as not cached."""
    try:
        _numba_save(cache, sig, data)
    except OSError as err:
        if not _UNSAVED:
            import warnings
            warnings.warn(f"the compiled code could not be cached in {cache._cache_path}: "
                          f"{err.strerror or err}; it is compiled again in each new process", stacklevel=2)
        _UNSAVED.append(cache._cache_path)


typed_passes.BaseNativeLowering.run_pass = _lowering
codegen.CPUCodeLibrary._finalize_final_module = _finalize_module
codegen.CPUCodeLibrary._optimize_final_module = _optimize_final_module
codegen.JITCodeLibrary._finalize_specific = _finalize_specific
codegen.CPUCodeLibrary._unserialize = _unserialize
codegen.JITCodeLibrary.get_pointer_to_function = _pointer
codegen.CPUCodeLibrary.serialize_using_object_code = _serialize
codegen.JITCPUCodegen.set_env = _set_env
Cache._save_overload = _save
