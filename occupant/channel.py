"""One measured or computed time history: the `Channel` type.

A channel is what a crash engineer reads off a test: a name, a time axis in seconds, values
in a stated unit and, optionally, the 16-character ISO/TS 13499 (ISO-MME) channel code that
says what was measured where (e.g. ``11HEAD0000H3ACXA``: vehicle 1, driver seat, head, Hybrid III
50th male, acceleration, x, CFC 1000).

Values keep the unit they are given in (``"m/s^2"``, ``"N"``, ``"N*m"``, ``"m"``, ...); SI is the
convention inside the package. Channels are immutable: the arrays are copied and made
read-only, so a channel handed to a criterion cannot be changed behind its back.
"""

from __future__ import annotations

import re

import numpy as np

__all__ = ["Channel", "ChannelError"]

# ISO/TS 13499 RED B channel codes are 16 characters of digits and upper-case letters
# (test object, position, 4-char main location, 3 x 2-char fine locations, 2-char physical
# dimension, direction, filter class) [S: pyisomme code.py / channel_codes.xml, RED B 1.6.2].
_CODE_LENGTH = 16
_CODE_PATTERN = re.compile(r"[0-9A-Z]{16}")


class ChannelError(ValueError):
    """A channel was given inconsistent or invalid data."""


class Channel:
    """One channel: ``Channel(name, t, values, unit, code=None)``.

    Parameters
    ----------
    name : str
        Free-text name (``"head acceleration x"``).
    t : array_like, shape (n,)
        Time in s, strictly increasing, finite.
    values : array_like, shape (n,)
        Samples in ``unit``.
    unit : str
        Unit of ``values`` (``"m/s^2"``, ``"N"``, ``"N*m"``, ``"m"``, ``"rad/s"``, ``"1"``, ...).
    code : str or None
        Optional 16-character ISO-MME channel code (digits and upper-case letters).
    """

    __slots__ = ("name", "t", "values", "unit", "code")

    def __init__(self, name, t, values, unit, code=None):
        if not isinstance(name, str) or not name:
            raise ChannelError(f"Channel name: expected a non-empty string, got {name!r}")
        t_arr = np.array(t, dtype=float)  # (n,) s, a private copy
        v_arr = np.array(values, dtype=float)  # (n,) unit
        if t_arr.ndim != 1 or t_arr.size < 1:
            raise ChannelError(
                f"Channel {name!r}: t must be a 1-D array with at least one sample, "
                f"got shape {t_arr.shape}"
            )
        if v_arr.shape != t_arr.shape:
            raise ChannelError(
                f"Channel {name!r}: values must have the shape of t {t_arr.shape}, "
                f"got {v_arr.shape}"
            )
        if not np.all(np.isfinite(t_arr)):
            raise ChannelError(f"Channel {name!r}: t must be finite")
        if t_arr.size > 1 and not np.all(np.diff(t_arr) > 0.0):
            raise ChannelError(f"Channel {name!r}: t must be strictly increasing")
        if not isinstance(unit, str) or not unit.strip():
            raise ChannelError(
                f"Channel {name!r}: unit must be a non-empty string such as 'm/s^2', 'N', "
                f"'N*m', 'm' or '1', got {unit!r}"
            )
        if code is not None:
            if not isinstance(code, str) or not _CODE_PATTERN.fullmatch(code):
                raise ChannelError(
                    f"Channel {name!r}: code must be a {_CODE_LENGTH}-character ISO-MME "
                    f"channel code of digits and upper-case letters "
                    f"(e.g. '11HEAD0000H3ACXA'), got {code!r}"
                )
        t_arr.setflags(write=False)
        v_arr.setflags(write=False)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "t", t_arr)
        object.__setattr__(self, "values", v_arr)
        object.__setattr__(self, "unit", unit.strip())
        object.__setattr__(self, "code", code)

    def __setattr__(self, key, value):
        raise AttributeError("Channel is immutable; build a new one with Channel(...)")

    def __reduce__(self):
        # immutable with __slots__: rebuild through the constructor (pickling for process
        # pools and Dask sweeps)
        return (Channel, (self.name, self.t, self.values, self.unit, self.code))

    def __len__(self) -> int:
        return int(self.t.size)

    def __repr__(self) -> str:
        code = f", code={self.code!r}" if self.code else ""
        return (
            f"Channel({self.name!r}, n={self.t.size}, t=[{self.t[0]:g}, {self.t[-1]:g}] s, "
            f"unit={self.unit!r}{code})"
        )

    @property
    def dt(self) -> float:
        """Sampling interval in s; raises ChannelError if the sampling is not uniform."""
        if self.t.size < 2:
            raise ChannelError(f"Channel {self.name!r}: a single sample has no sampling interval")
        steps = np.diff(self.t)
        dt = float(np.mean(steps))
        # Uniform to within rounding of the stored time values (1e-6 of a step).
        if np.max(np.abs(steps - dt)) > 1e-6 * dt:
            raise ChannelError(f"Channel {self.name!r}: sampling is not uniform")
        return dt

    def replace(self, **changes) -> "Channel":
        """A copy with some of name, t, values, unit, code replaced."""
        fields = {k: getattr(self, k) for k in self.__slots__}
        unknown = set(changes) - set(fields)
        if unknown:
            raise ChannelError(
                f"Channel.replace: unknown field(s) {sorted(unknown)} "
                f"(known: {', '.join(self.__slots__)})"
            )
        fields.update(changes)
        return Channel(**fields)
