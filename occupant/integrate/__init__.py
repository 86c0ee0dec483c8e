"""Time integration: one interface (step, dense output, reset, events, work counters), a registry
of methods by name (RK4, Dormand-Prince 5(4), semi-implicit Euler), compiled fixed-step loops
that record output samples for the hot path."""
from occupant.integrate.integrators import (
    INTEGRATORS, Integrator, RK4, DormandPrince5, SemiImplicitEuler, register,
)
from occupant.integrate.driver import Event, Solution, solve
from occupant.integrate.system import MultibodySystem

__all__ = ["INTEGRATORS", "Integrator", "RK4", "DormandPrince5", "SemiImplicitEuler", "register",
           "Event", "Solution", "solve", "MultibodySystem"]
