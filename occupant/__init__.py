"""occupant: occupant dynamics in vehicle crashes."""
__version__ = "0.1.0"

from occupant.channel import Channel  # noqa: E402
from occupant.simulate import simulate  # noqa: E402
from occupant import samples  # noqa: E402

__all__ = ["Channel", "simulate", "samples", "__version__"]
