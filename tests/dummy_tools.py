"""The dummies' derivation tools (dummies/tools/*.py: scripts, not a package), loaded by path
for the tests that check their figures."""
import importlib.util
import pathlib

TOOLS = pathlib.Path(__file__).resolve().parents[1] / "dummies" / "tools"


def dummy_tool(name):
    """The module dummies/tools/<name>.py, executed afresh."""
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
