"""occupant: occupant dynamics in vehicle crashes."""
__version__ = "0.1.0"

from occupant.simulate import simulate  # noqa: E402


def __getattr__(name):
    # Channel lives with the post-processing; import it lazily so the core loads without it
    if name == "Channel":
        from occupant.channel import Channel
        return Channel
    raise AttributeError(f"module 'occupant' has no attribute '{name}'")


__all__ = ["simulate", "Channel", "__version__"]
