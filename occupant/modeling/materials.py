"""Materials and the mass properties they give a part from its geometry (seed 000's "material"
element: a part made of a material gets mass, centre of mass and inertia from the solids placed
on its markers).

Volume and inertia per unit density of each solid, about its centroid in its own frame (standard
results, e.g. Meriam & Kraige, Engineering Mechanics: Dynamics, appendix D): ellipsoid V = 4/3 pi
abc, I = V/5 (b^2 + c^2, ...); box of half extents (a, b, c) V = 8abc, I = V/3 (b^2 + c^2, ...);
cylinder V = pi r^2 L, I = V (3r^2 + L^2)/12 across, V r^2/2 along (plus two hemispherical caps
for round ends); ring torus V = 2 pi^2 R r^2, I = V (R^2 + 3r^2/4) about its axis, V (R^2/2 +
5r^2/8) across; a frustum by Gauss-Legendre quadrature over its discs (exact: the integrands are
polynomials of degree 4 in z); a mesh by trimesh's divergence-theorem integrals (closed meshes).
"""
from dataclasses import dataclass

import numpy as np

from occupant.modeling.elements import ModelingError, element_kind, inertia_tensor
from occupant.modeling.geometry import (Box, Curve, Cylinder, Ellipsoid, Frustum, Link, Mesh,
                                        Plane, Sphere, Torus, placement)
from occupant.spatial.transforms import homogeneous


@dataclass
class Material:
    """A material: ``density`` kg/m^3; optional ``youngs_modulus`` Pa and ``poisson`` ratio
    (for beams and contact stiffness estimates)."""
    name: str
    density: float
    youngs_modulus: float | None = None
    poisson: float | None = None

    def __post_init__(self):
        what = f"material '{self.name}'"
        if not (np.isfinite(self.density) and self.density > 0):
            raise ModelingError(f"{what}.density: must be a positive number of kg/m^3, got "
                                f"{self.density!r}")
        if self.youngs_modulus is not None and not (np.isfinite(self.youngs_modulus)
                                                    and self.youngs_modulus > 0):
            raise ModelingError(f"{what}.youngs_modulus: must be a positive number of Pa, got "
                                f"{self.youngs_modulus!r}")
        if self.poisson is not None and not -1.0 < self.poisson < 0.5:
            raise ModelingError(f"{what}.poisson: must be in (-1, 0.5), got {self.poisson!r}")

    @property
    def refs(self):
        return {}


def _frustum(g):
    """(V, centroid z, I_axial, I_across about the centroid) per unit density."""
    x, w = np.polynomial.legendre.leggauss(8)
    z = 0.5 * g.length * (x + 1.0)
    dz = 0.5 * g.length * w
    r = g.bottom_radius + (g.top_radius - g.bottom_radius) * z / g.length
    dm = np.pi * r**2 * dz
    V = dm.sum()
    zc = (dm * z).sum() / V
    return V, zc, (0.5 * r**2 * dm).sum(), ((0.25 * r**2 + (z - zc) ** 2) * dm).sum()


def solid_properties(g, markers):
    """(volume m^3, centroid (3,), inertia per unit density about the centroid (3, 3)) of the
    geometry ``g`` in the frame of its marker; ``markers`` name -> Marker (for a link's J)."""
    X = homogeneous(*placement(g))
    if isinstance(g, (Ellipsoid, Sphere)):
        a, b, c = g.semi_axes if isinstance(g, Ellipsoid) else np.full(3, g.radius)
        V = 4.0 / 3.0 * np.pi * a * b * c
        I = V / 5.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
        c_local = np.zeros(3)
    elif isinstance(g, Box):
        a, b, c = g.half_extents
        V = 8.0 * a * b * c
        I = V / 3.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
        c_local = np.zeros(3)
    elif isinstance(g, Cylinder):
        r, L = g.radius, g.length
        Vc = np.pi * r * r * L
        across, along = Vc * (3 * r * r + L * L) / 12.0, Vc * r * r / 2.0
        V = Vc
        if g.ends == "round":
            Vs = 4.0 / 3.0 * np.pi * r**3
            V += Vs
            across += Vs * (0.4 * r * r + L * L / 4.0 + 3.0 * L * r / 8.0)
            along += 0.4 * Vs * r * r
        I = np.diag([across, across, along])
        c_local = np.zeros(3)
    elif isinstance(g, Torus):
        R, r = g.major_radius, g.minor_radius
        V = 2.0 * np.pi**2 * R * r * r
        across = V * (R * R / 2.0 + 5.0 * r * r / 8.0)
        I = np.diag([across, across, V * (R * R + 0.75 * r * r)])
        c_local = np.zeros(3)
    elif isinstance(g, Frustum):
        V, zc, along, across = _frustum(g)
        I = np.diag([across, across, along])
        c_local = np.array([0.0, 0.0, zc])
    elif isinstance(g, Link):
        mi, mj = markers[g.marker], markers[g.marker_b]
        if mi.part != mj.part:
            raise ModelingError(f"link '{g.name}': markers '{mi.name}' and '{mj.name}' are on "
                                f"different parts ('{mi.part}', '{mj.part}')")
        d = mi.rotation.T @ (mj.position - mi.position)       # J in I's frame
        L = np.linalg.norm(d)
        if L == 0:
            raise ModelingError(f"link '{g.name}': markers '{mi.name}' and '{mj.name}' coincide")
        ex = d / L
        ey = np.array([0.0, 1.0, 0.0]) - ex[1] * ex
        if np.linalg.norm(ey) < 1e-9:
            ey = np.array([0.0, 0.0, 1.0]) - ex[2] * ex
        ey /= np.linalg.norm(ey)
        R = np.column_stack([ex, ey, np.cross(ex, ey)])
        V = L * g.width * g.depth
        Ib = V / 12.0 * np.diag([g.width**2 + g.depth**2, L * L + g.depth**2, L * L + g.width**2])
        return V, 0.5 * d, R @ Ib @ R.T
    elif isinstance(g, Mesh):
        if not g.mesh.is_volume:
            raise ModelingError(f"mesh '{g.name}': a material needs a closed (watertight, "
                                f"consistently wound) mesh to have a volume")
        V = float(g.mesh.volume)
        c_local = np.asarray(g.mesh.center_mass, float)
        I = np.asarray(g.mesh.moment_inertia, float) / g.mesh.density
    elif isinstance(g, (Plane, Curve)):
        return 0.0, np.zeros(3), np.zeros((3, 3))
    else:
        raise ModelingError(f"{element_kind(g)} '{g.name}': no mass properties known")
    R, p = X[:3, :3], X[:3, 3]
    return V, R @ c_local + p, R @ I @ R.T


def part_mass_properties(part, markers, geometries, materials):
    """(mass kg, centre of mass (3,) m, inertia about it (3, 3) kg m^2) of ``part`` in its
    frame: its own values, or those of the solids on its markers made of its material; with a
    ``cm_marker`` the centre of mass is that marker's origin (with a material it must agree with
    the solids' centre of mass)."""
    if part.material is None:
        mass, com, inertia = part.mass, part.com, part.inertia
    else:
        rho = materials[part.material].density
        own = {n: m for n, m in markers.items() if m.part == part.name}
        mass, first, second = 0.0, np.zeros(3), np.zeros((3, 3))
        for g in geometries.values():
            marker = own.get(getattr(g, "marker", None))
            if marker is None:
                continue
            V, c, I = solid_properties(g, markers)
            m = rho * V
            c_part = marker.rotation @ c + marker.position
            mass += m
            first += m * c_part
            # inertia about the part origin: I_c + m (|c|^2 1 - c c^T)
            second += rho * marker.rotation @ I @ marker.rotation.T + m * (
                c_part @ c_part * np.eye(3) - np.outer(c_part, c_part))
        if mass <= 0:
            raise ModelingError(f"part '{part.name}'.material: the part has no solid geometry "
                                f"on its markers to take a mass from")
        com = first / mass
        inertia = second - mass * (com @ com * np.eye(3) - np.outer(com, com))
        inertia = inertia_tensor(inertia, f"part '{part.name}' (from material "
                                          f"'{part.material}')")
    if part.cm_marker is not None:
        at = markers[part.cm_marker].position
        if part.material is not None and np.linalg.norm(at - com) > 1e-6:
            raise ModelingError(f"part '{part.name}'.cm_marker: '{part.cm_marker}' is at "
                                f"{at.tolist()} m but the part's solids put the centre of mass "
                                f"at {np.round(com, 6).tolist()} m")
        com = at.copy()
    return mass, np.asarray(com, float), inertia

