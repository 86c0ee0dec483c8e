"""occupant: occupant dynamics in vehicle crashes."""
__version__ = "0.1.0"
