"""Crash scenarios (issue 13): ``load(path_or_name, overrides={...})`` validates a scenario file
(occupant, vehicle interior, pulse, restraints, contacts, sensors, criteria, solver, outputs)
and gives a Scenario; ``Scenario.run()`` gives a ``Run`` (results with channels, criteria);
``write_run(run, folder)`` writes results.h5, criteria.csv, isomme/, scenario.toml, inputs/
(copies of the files it was run from) and the report."""
from occupant.scenario.load import Scenario, ScenarioError, available_scenarios, load
from occupant.scenario.overrides import OverrideError, apply_overrides, parse_override
from occupant.scenario.run import Run, run_scenario, write_run
from occupant.scenario.interior import Interior, InteriorFileError, available_interiors, load_interior

__all__ = ["Scenario", "ScenarioError", "available_scenarios", "load", "OverrideError",
           "apply_overrides", "parse_override", "Run", "run_scenario", "write_run", "Interior",
           "InteriorFileError", "available_interiors", "load_interior"]
from occupant.scenario.sweep import sweep  # noqa: E402

__all__ += ["sweep"]
