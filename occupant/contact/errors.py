"""Errors of the contact package: bad input (a ValueError, conventions rule 14) and a solver that
could not finish."""


class ContactError(ValueError):
    """A contact or impact parameter out of its accepted range; the message names the parameter,
    the bad value and what is accepted."""


class ImpactSolverError(RuntimeError):
    """The impact problem could not be solved (the LCP ended on a ray, the sequence of impact
    rounds did not close, or the result would create kinetic energy)."""
