"""Errors raised by the injury package."""

__all__ = ["InjuryInputError"]


class InjuryInputError(ValueError):
    """Invalid input to a filter, criterion or assessment; the message names the parameter
    and the accepted values."""
