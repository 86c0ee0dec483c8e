"""Physical constants shared across layers (this module imports nothing, so any layer may use it)."""

#: m/s^2, standard gravity: the "g" of accelerations stated in g (3rd CGPM 1901; ISO 80000-3;
#: used by SAE J211 and ISO 6487)
G0 = 9.80665

#: m/s^2, the default gravity field of every model and simulation: standard gravity along -z of the
#: world (B0; z up)
STANDARD_GRAVITY = (0.0, 0.0, -G0)
