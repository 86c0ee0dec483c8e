"""Tabulated (nonlinear) bushing characteristics (issue 12 section 1, flexible forces "with
linear and tabulated characteristics"): a mass on a bilinear (hardening) bushing oscillates
with the closed-form period of a piecewise-linear spring."""
import numpy as np
import pytest

import occupant
from occupant.modeling import (Assembly, Joint, Marker, MarkerForce, ModelingError, Part, Pose)
from occupant.spatial import rot_y

M, K1, K2, X1 = 1.0, 100.0, 900.0, 0.02      # kg, N/m inside |x| < X1, N/m beyond, m


def bilinear_table():
    """(deflection, restoring load) of the hardening spring, odd, with rows beyond X1 that the
    end-slope extrapolation continues."""
    x = np.array([-0.1, -X1, 0.0, X1, 0.1])
    f = np.where(np.abs(x) <= X1, K1 * x, np.sign(x) * (K1 * X1 + K2 * (np.abs(x) - X1)))
    return np.stack([x, f], axis=1)


def bilinear_period(amplitude):
    """Period of m x'' = -f(x) for the bilinear f from rest at ``amplitude`` > X1: a quarter is
    the time through |x| < X1 (harmonic at sqrt(K1/M), energy E) plus the time beyond (harmonic
    at sqrt(K2/M) about the centre c = X1 - K1 X1 / K2)."""
    E = 0.5 * K1 * X1**2 + K1 * X1 * (amplitude - X1) + 0.5 * K2 * (amplitude - X1) ** 2
    t_in = np.sqrt(M / K1) * np.arcsin(X1 / np.sqrt(2 * E / K1))
    c = X1 - K1 * X1 / K2
    t_out = np.sqrt(M / K2) * (np.pi / 2 - np.arcsin((X1 - c) / (amplitude - c)))
    return 4 * (t_in + t_out)


def test_analytic_bilinear_bushing_period():
    """Released from rest at 0.05 m (2.5 X1) along the bushing's x: the upward zero crossings
    are one closed-form period apart (0.30 s against 0.63 s for the inner stiffness alone);
    the energy balance closes."""
    asm = Assembly("bushing_mass")
    asm.gravity = (0.0, 0.0, 0.0)
    asm.add(Part("block", M), Marker("centre", "block", rotation=rot_y(np.pi / 2).T))
    asm.add(Joint("slide", "prismatic", None, "block", Pose(rotation=rot_y(np.pi / 2))))
    table = bilinear_table()
    asm.add(MarkerForce.bushing("mount", "centre", None, (table, 0, 0, 0, 0, 0)))
    model = asm.compile()
    A = 0.05
    r = occupant.simulate(model, t_end=1.0, integrator="dopri5", q0=[A], output_dt=1e-4,
                          rtol=1e-10, atol=1e-12)
    assert r.status == "finished", r.message
    x = r.q[:, 0]
    up = np.nonzero((x[:-1] < 0) & (x[1:] >= 0))[0]
    t_up = r.t[up] - x[up] * (r.t[up + 1] - r.t[up]) / (x[up + 1] - x[up])
    period = np.diff(t_up)
    T = bilinear_period(A)
    print(f"period {period} s, closed form {T:.6f} s")
    assert len(period) >= 2 and T < 0.5 * 2 * np.pi * np.sqrt(M / K1)
    np.testing.assert_allclose(period, T, rtol=1e-5)
    assert np.abs(x).max() == pytest.approx(A, rel=1e-6)
    assert np.abs(r.energy["balance"]).max() < 1e-6
    u = r.outputs["mount.dx"]
    np.testing.assert_allclose(r.outputs["mount.fx"], -np.interp(u, table[:, 0], table[:, 1]),
                               atol=1e-9)


def test_tabulated_components_are_checked():
    with pytest.raises(ModelingError, match=r"springs\[0\]"):
        MarkerForce.bushing("b", "i", None, ([[0.0, 0.0], [-1.0, 5.0]], 0, 0, 0, 0, 0))
    with pytest.raises(ModelingError, match=r"bushing 'b'.stiffness: expected 6 entries"):
        MarkerForce.bushing("b", "i", None, (1.0, 2.0))
