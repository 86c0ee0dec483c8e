"""The creation time written into output files (results.h5 ``created``, the ISO-MME header's
"Timestamp" and "Date of the test").

The clock by default; when the environment variable ``SOURCE_DATE_EPOCH`` (seconds since
1970-01-01 UTC, the reproducible-builds convention: reproducible-builds.org/specs/source-date-epoch)
is set, that instant instead, so that the same inputs give byte-identical files."""
import datetime as _dt
import os


def creation_time():
    """The files' creation instant, UTC, whole seconds (``SOURCE_DATE_EPOCH`` when set)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch:
        try:
            return _dt.datetime.fromtimestamp(int(epoch), _dt.timezone.utc)
        except (ValueError, OverflowError, OSError):
            raise ValueError(f"environment variable SOURCE_DATE_EPOCH={epoch!r}: expected a whole "
                             f"number of seconds since 1970-01-01 UTC, e.g. 1767225600") from None
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0)
