"""occupant: occupant dynamics in vehicle crashes."""
__version__ = "0.1.0"

import importlib  # noqa: E402

from occupant.channel import Channel  # noqa: E402
from occupant.simulate import simulate  # noqa: E402
from occupant import samples  # noqa: E402

__all__ = ["Channel", "simulate", "samples", "__version__"]

#: subpackages reachable as attributes of ``occupant`` without importing them by hand; each is
#: imported on first use (PEP 562 module __getattr__, as numpy and scipy do), so ``import
#: occupant`` does not pay for them
SUBPACKAGES = ("contact", "dynamics", "forces", "human", "injury", "integrate", "io", "model",
               "modeling", "report", "restraints", "scenario", "sensors", "spatial", "topology",
               "vehicle")


def __getattr__(name):
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
    return sorted(set(globals()) | set(SUBPACKAGES))
