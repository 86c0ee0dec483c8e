"""Closed kinematic loops (seed 001): the constraint equations of the cut joints, their Jacobian
and acceleration terms (``equations``), the LU coordinate partitioning (``partition``) and the
state-space reduction to independent coordinates (``state_space``) that the implicit integrators
(``occupant.integrate.implicit``) advance."""
