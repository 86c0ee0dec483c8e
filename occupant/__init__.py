"""occupant: occupant dynamics in vehicle crashes."""
__version__ = "0.1.0"

import importlib  # noqa: E402
import sys  # noqa: E402
import types  # noqa: E402

from occupant.channel import Channel  # noqa: E402

__all__ = ["Channel", "simulate", "samples", "__version__"]

#: subpackages reachable as attributes of ``occupant`` without importing them by hand; each is
#: imported on first use (PEP 562 module __getattr__, as numpy and scipy do), so ``import
#: occupant`` does not pay for them
SUBPACKAGES = ("contact", "dynamics", "forces", "human", "injury", "integrate", "io", "model",
               "modeling", "report", "restraints", "scenario", "sensors", "spatial", "topology",
               "vehicle", "samples")
#: the function ``occupant.simulate``, loaded on first use too: its module brings numba and the
#: compiled core (seconds), which ``occupant --version`` or ``occupant list`` need not wait for
LAZY_FUNCTIONS = {"simulate": "occupant.simulate"}


class _Package(types.ModuleType):
    """The package module. Importing the submodule ``occupant.simulate`` (by any path) makes the
    import system set the package's attribute ``simulate`` to that module; the package keeps
    the function of that name there instead, as an eager ``from occupant.simulate import
    simulate`` would."""

    def __setattr__(self, name, value):
        if name in LAZY_FUNCTIONS and isinstance(value, types.ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name):
    if name in LAZY_FUNCTIONS:
        module = importlib.import_module(LAZY_FUNCTIONS[name])   # sets it (_Package.__setattr__)
        return globals().setdefault(name, getattr(module, name))
    if name in SUBPACKAGES:
        try:
            module = importlib.import_module(f"occupant.{name}")
        except ModuleNotFoundError as err:
            if err.name != f"occupant.{name}":
                raise
            raise AttributeError(f"module 'occupant' has no attribute '{name}' (occupant.{name} is "
                                 f"not part of this version)") from None
        globals()[name] = module
        return module
    raise AttributeError(f"module 'occupant' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(SUBPACKAGES) | set(LAZY_FUNCTIONS))
