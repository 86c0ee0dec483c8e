"""Reference for airbag contact laws: an inflated bag of inextensible fabric, a sphere of radius R
when free, pressed by a rigid indenter (a sphere of radius r, or a flat plate) along its axis, solved as an axisymmetric membrane with scipy.

The fabric is inextensible and free to wrinkle: the relaxed (tension-field) membrane of Pipkin
(1986, "The relaxed energy density for isotropic elastic membranes", IMA J. Appl. Math. 36,
85-99; used for the indentation of curved membranes by a convex rigid indenter by Pearce, King
and Holdsworth 2011, Int. J. Non-Linear Mech. 46, 1128-1138, www.cpib.ac.uk abstract), whose
admissible deformations stretch no fibre: each material point keeps its parallel no wider than
it was (rho(s) <= R sin(s / R)) and each meridian element no longer than it was. Such a membrane
stores no energy; under a uniform pressure p the equilibrium shape maximises the enclosed volume
V (the potential -p V; with the gas at fixed mass, p V^gamma = const, any decreasing function of
V: the same shapes, only p differs) among admissible shapes that keep out of the indenter. The
half of the bag below its equator is held (its mounting: the contact law measures the depth
from the undisturbed bag). The meridian is a polygon of N material segments (arc s from the held
pole), the volume that of the polygon revolved (frusta), maximised by SLSQP.

Identities that hold for the exact solution and are checked by the tests, not used to solve:
- virtual work at constant p: F = -p dV/dd (d the indenter's travel);
- axial equilibrium of the membrane and indenter inside the parallel where the meridian is
  perpendicular to the axis (the dimple's rim, radius rho_rim): the meridian tension there has
  no axial component, so F = p pi rho_rim^2 whatever the tensions inside (the axial balance of
  an axisymmetric membrane cut at a parallel, as in Yang and Hsu 1971, "Indentation of a
  circular membrane", J. Appl. Mech. 38, 227-230); for a flat plate the rim is the contact
  patch's edge: F = p x contact area;
- the mirror-buckled bag (the cap above a plane reflected in it, an isometry: Pogorelov's
  mirror buckling, as in Knoche and Kierfeld 2014, arXiv 1408.0946) is admissible for a sphere
  no larger than the bag, so the reference's volume loss is no larger than the reflected cap's.
"""
import numpy as np
from scipy.optimize import minimize


def frustum_volume(rho, z):
    """Volume enclosed by the polygonal meridian (rho_i, z_i) revolved about the z axis, taken
    positive for a meridian running up the outside (sum of signed frusta)."""
    r0, r1 = rho[:-1], rho[1:]
    return float(np.sum(np.pi / 3.0 * (r0 * r0 + r0 * r1 + r1 * r1) * np.diff(z)))


def _volume_gradient(rho, z):
    """(dV/drho, dV/dz) of frustum_volume."""
    r0, r1, dz = rho[:-1], rho[1:], np.diff(z)
    g_rho = np.zeros_like(rho)
    g_rho[:-1] += np.pi / 3.0 * (2.0 * r0 + r1) * dz
    g_rho[1:] += np.pi / 3.0 * (r0 + 2.0 * r1) * dz
    w = np.pi / 3.0 * (r0 * r0 + r0 * r1 + r1 * r1)
    g_z = np.zeros_like(z)
    g_z[:-1] -= w
    g_z[1:] += w
    return g_rho, g_z


class Bag:
    """The bag's meridian of ``n`` (even) material segments, radius R, pole at z = 0 and s = 0,
    its top pole at z = 2 R when free. The half below the equator is held (the bag's mounting:
    the contact law measures the depth from the undisturbed bag), the upper half is free."""

    def __init__(self, R, n=120):
        self.R, self.n = R, n                    # solved in units of R, scaled on return
        self.s = np.linspace(0.0, np.pi, n + 1)
        self.ds = self.s[1] - self.s[0]
        self.rho_max = np.sin(self.s)
        self.rho_max[[0, -1]] = 0.0
        self.free = (self.rho_max.copy(), 1.0 - np.cos(self.s))
        self.m = n // 2 + 1                      # first free node, above the equator

    def _unpack(self, x):
        rho, z = self.free[0].copy(), self.free[1].copy()
        k = self.n - self.m                      # free rho: nodes m..n-1; free z: nodes m..n
        rho[self.m:self.n] = x[:k]
        z[self.m:] = x[k:]
        return rho, z

    def _pack_gradient(self, g_rho, g_z):
        return np.concatenate([g_rho[self.m:self.n], g_z[self.m:]])

    def solve(self, top, indenter_r=None, start=None):
        """The equilibrium shape with the indenter's lowest point at height ``top``: a sphere of
        radius ``indenter_r`` (centre at top + r on the axis) or, with None, a flat plate at
        z = top. ``start`` (rho, z) seeds the optimiser (continuation in depth).
        Returns (rho, z, V)."""
        n, m, ds, R = self.n, self.m, self.ds, self.R
        k = n - m
        top = top / R
        indenter_r = None if indenter_r is None else indenter_r / R
        rho0, z0 = (start[0] / R, start[1] / R) if start is not None else self.free
        x0 = np.concatenate([rho0[m:n], np.minimum(z0[m:], top)])   # under the indenter
        z_up = top if indenter_r is None else None          # the plate bounds every node
        bounds = [(0.0, b) for b in self.rho_max[m:n]] + [(None, z_up)] * (k + 1)
        # segments m-1..n-1 (node i to i+1) have a free end
        seg = np.arange(m - 1, n)

        def objective(x):
            rho, z = self._unpack(x)
            g_rho, g_z = _volume_gradient(rho, z)
            return -frustum_volume(rho, z), -self._pack_gradient(g_rho, g_z)

        def lengths(x):          # ds^2 - |segment|^2 >= 0: no meridian element stretched
            rho, z = self._unpack(x)
            return ds * ds - np.diff(rho)[seg] ** 2 - np.diff(z)[seg] ** 2

        def lengths_jac(x):
            rho, z = self._unpack(x)
            dr, dz = np.diff(rho)[seg], np.diff(z)[seg]
            J = np.zeros((seg.size, x.size))
            for row, i in enumerate(seg):
                g_rho, g_z = np.zeros(n + 1), np.zeros(n + 1)
                g_rho[i], g_rho[i + 1] = 2.0 * dr[row], -2.0 * dr[row]
                g_z[i], g_z[i + 1] = 2.0 * dz[row], -2.0 * dz[row]
                J[row] = self._pack_gradient(g_rho, g_z)
            return J

        constraints = [dict(type="ineq", fun=lengths, jac=lengths_jac)]
        if indenter_r is not None:
            zc = top + indenter_r
            near = np.arange(m, n + 1)

            def outside(x):      # |x_i - c|^2 - r^2 >= 0
                rho, z = self._unpack(x)
                return rho[near] ** 2 + (z[near] - zc) ** 2 - indenter_r ** 2

            def outside_jac(x):
                rho, z = self._unpack(x)
                J = np.zeros((near.size, x.size))
                for row, i in enumerate(near):
                    if i < n:
                        J[row, i - m] = 2.0 * rho[i]
                    J[row, k + i - m] = 2.0 * (z[i] - zc)
                return J
            constraints.append(dict(type="ineq", fun=outside, jac=outside_jac))
        res = minimize(objective, x0, jac=True, bounds=bounds, constraints=constraints,
                       method="SLSQP", options=dict(maxiter=3000, ftol=1e-10))
        if res.status == 8 and _optimal(objective, res, bounds, constraints):
            res.success = True
        if not res.success:
            raise RuntimeError(f"membrane reference did not converge: {res.message}")
        rho, z = self._unpack(res.x)
        return R * rho, R * z, -res.fun * R ** 3


def _optimal(objective, res, bounds, constraints):
    """Whether SLSQP's stop on "positive directional derivative for linesearch" (status 8) is at
    the optimum: scipy >= 1.16's SLSQP (its C rewrite; 1.17.1 in the plate case at 0.16 m) stops
    so where earlier ones converged. Accepted when its point is feasible (constraints within
    1e-9) and trust-constr, started there, finds no larger volume by 1e-9 of it."""
    if min(np.min(c["fun"](res.x)) for c in constraints) < -1e-9:
        return False
    check = minimize(objective, res.x, jac=True, bounds=bounds, constraints=constraints,
                     method="trust-constr", options=dict(maxiter=2000, gtol=1e-10, xtol=1e-12))
    better = check.constr_violation <= 1e-9 and check.fun < res.fun - 1e-9 * abs(res.fun)
    return not better


def rim_radius(rho, z, top, plate):
    """Radius of the parallel where the meridian is perpendicular to the axis beside the
    indenter: for a flat plate the contact edge (the outermost node at the plate's height), for
    a sphere the dimple's rim, its highest point, by a parabola through the highest node and
    its neighbours."""
    if plate:
        return float(rho[z >= top - 1e-7 * top].max())
    i = int(np.argmax(z))
    zl, zm, zr = z[i - 1], z[i], z[i + 1]
    t = 0.5 * (zl - zr) / (zl - 2.0 * zm + zr)          # vertex offset in node spacings
    return float(rho[i] + 0.5 * t * (rho[i + 1] - rho[i - 1])
                 + 0.5 * t * t * (rho[i + 1] - 2.0 * rho[i] + rho[i - 1]))


def sweep(R, depths, indenter_r=None, n=120):
    """(V(d), rho_rim(d), shapes) along increasing depths, by continuation."""
    bag = Bag(R, n)
    _, _, v_free = bag.solve(2.0 * R + 1.0, indenter_r)   # out of reach: the free bag
    volumes, rims, shapes = [], [], []
    start = None
    for d in depths:
        top = 2.0 * R - d
        rho, z, v = bag.solve(top, indenter_r, start)
        start = (rho, z)
        volumes.append(v)
        rims.append(rim_radius(rho, z, top, indenter_r is None))
        shapes.append((rho, z))
    return v_free, np.array(volumes), np.array(rims), shapes
