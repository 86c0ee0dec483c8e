"""File input and output: model files, results files, ISO-MME and URDF/MJCF export.

``export_mjcf`` and ``export_urdf`` are loaded on first use (PEP 562), so that a light module
of this package (``occupant.io.timestamp``, which the command checks before anything else) does
not import the models and scipy with it."""
import importlib

_LAZY = {"export_mjcf": "occupant.io.mjcf", "export_urdf": "occupant.io.urdf"}
__all__ = list(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'occupant.io' has no attribute {name!r}")
