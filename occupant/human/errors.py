"""The user-facing error of the human subpackage (conventions rule 9 and 14)."""


class DummyFileError(ValueError):
    """A dummy, human or posture description that cannot be used.

    The message reads ``<file>: <key path>: <problem> (accepted: <what is accepted>)``, so that
    printed as ``DummyFileError: ...`` it names the file, the bad key and the fix."""

    def __init__(self, file, path, problem, accepted=None):
        self.file, self.path, self.problem, self.accepted = str(file), path, problem, accepted
        msg = f"{self.file}: {path}: {problem}" if path else f"{self.file}: {problem}"
        if accepted:
            msg += f" (accepted: {accepted})"
        super().__init__(msg)


class HumanParameterError(ValueError):
    """Impossible or unsupported inputs to ``occupant.human.build``; the message names the
    parameter, the bad value and the accepted range."""

    def __init__(self, parameter, problem, accepted=None):
        msg = f"build: {parameter}: {problem}"
        if accepted:
            msg += f" (accepted: {accepted})"
        super().__init__(msg)
