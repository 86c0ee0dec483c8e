"""The user-facing errors of the human subpackage (conventions rule 9 and 14)."""
from occupant.io.toml_files import InputFileError


class DummyFileError(InputFileError):
    """A dummy, human or posture description that cannot be used: an InputFileError (message
    ``<file>: <key path>: <problem> (accepted: ...)``) raised by the human subpackage, so that
    ``except DummyFileError`` catches exactly its file errors."""


class HumanParameterError(ValueError):
    """Impossible or unsupported inputs to ``occupant.human.build``; the message names the
    parameter, the bad value and the accepted range."""

    def __init__(self, parameter, problem, accepted=None):
        self.parameter, self.problem, self.accepted = parameter, problem, accepted
        msg = f"build: {parameter}: {problem}"
        if accepted:
            msg += f" (accepted: {accepted})"
        super().__init__(msg)
