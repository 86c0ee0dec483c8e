"""Shared fixtures of the human's tests."""
import pytest


@pytest.fixture(scope="session")
def validated():
    """``validated(name)``: the result of ``run_validation(name)``, run once per session."""
    from occupant.human.validation import run_validation

    runs = {}

    def get(name):
        if name not in runs:
            runs[name] = run_validation(name)
        return runs[name]
    return get
