"""The integrators' registry names every method whatever has been imported: the implicit ones
(occupant.integrate.implicit) are named from the start and their module is imported when one is
first looked up (occupant.integrate.integrators)."""
import pathlib
import subprocess
import sys

import occupant
from occupant.integrate import INTEGRATORS

ALL = ["euler", "rk4", "dopri5", "newmark", "radau", "bdf"]


def _fresh(code):
    """Run ``code`` in a new interpreter (nothing imported yet); its stdout."""
    root = pathlib.Path(occupant.__file__).parents[1]   # this checkout's occupant, not another
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=root)
    return out.stdout.strip()


def test_identity_a_fresh_process_accepts_every_integrator_before_the_implicit_module_loads():
    """On main the scenario keys accepted euler, rk4 and dopri5 alone until something imported
    occupant.integrate.implicit (a sweep varying solver.integrator=euler,radau: "unknown
    integrator 'radau'"); now every name, the implicit module imported only once one is used."""
    code = """
import sys
from occupant.scenario.keys import KEYS
from occupant.integrate.integrators import INTEGRATORS
key = KEYS["solver.integrator"]
print(key.check("radau"), key.check("leapfrog"), list(INTEGRATORS), "radau" in INTEGRATORS, len(INTEGRATORS))
print("occupant.integrate.implicit" in sys.modules)
print(INTEGRATORS["bdf"].__name__, "occupant.integrate.implicit" in sys.modules)
"""
    listed, before, after = _fresh(code).splitlines()
    assert listed == f"None unknown integrator 'leapfrog' {ALL} True 6"
    assert before == "False"          # naming them imported nothing
    assert after == "BDF True"        # looking one up imported its module


def test_identity_importing_the_constraints_first_keeps_the_registry_whole():
    """occupant.constraints.state_space imports this package and the implicit module imports it:
    imported first, it leaves the registry with every name and every class (not a circle)."""
    code = """
import occupant.constraints.state_space
from occupant.integrate.integrators import INTEGRATORS
print([(k, v.__name__) for k, v in INTEGRATORS.items()])
"""
    assert _fresh(code) == str([("euler", "SemiImplicitEuler"), ("rk4", "RK4"), ("dopri5", "DormandPrince5"),
                                ("newmark", "Newmark"), ("radau", "RadauIIA"), ("bdf", "BDF")])


def test_identity_registry_gives_classes_by_name():
    from occupant.integrate.implicit import RadauIIA
    assert list(INTEGRATORS) == ALL
    assert INTEGRATORS["radau"] is RadauIIA and INTEGRATORS.get("radau") is RadauIIA
    assert INTEGRATORS.get("leapfrog") is None and "leapfrog" not in INTEGRATORS
    assert all(isinstance(cls, type) and cls.name == name for name, cls in INTEGRATORS.items())
