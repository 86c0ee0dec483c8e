"""Time integration: one interface (step, dense output, events, work counters) for RK4,
Dormand-Prince 5(4) and semi-implicit Euler; compiled fixed-step loops for the hot path."""
from occupant.integrate.integrators import Integrator, RK4, DormandPrince5, SemiImplicitEuler
from occupant.integrate.driver import Event, Solution, solve
from occupant.integrate.system import MultibodySystem

__all__ = ["Integrator", "RK4", "DormandPrince5", "SemiImplicitEuler", "Event", "Solution",
           "solve", "MultibodySystem"]
