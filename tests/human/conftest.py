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


@pytest.fixture
def edited_case(tmp_path):
    """``edited_case(name, old, new)``: a copy of validation case ``name`` (tmp_path/bad.toml)
    with ``old`` replaced by ``new``, its data paths still pointing at the shipped data; returns
    its path."""
    return lambda name, old, new: _edited(tmp_path, name, old, new)


def _edited(tmp_path, name, old, new):
    import pathlib

    from occupant.human.validation import read_scenario
    src = read_scenario(name)[1]
    text = open(src).read()
    assert old in text, old
    text = text.replace(old, new).replace(
        'data = "data/', 'data = "' + str(pathlib.Path(src).parent / "data") + "/")
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    return str(bad)
