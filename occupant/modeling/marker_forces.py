"""Forces between two markers (seed 000's force and flexible-force families), compiled to one
producer block (``occupant.forces.marker_forces`` has the law and its sign conventions).

One element type, built by the family's constructor:
  ``MarkerForce.single_component(name, i, j, table)``   f(t) along the line J -> I (+: apart)
  ``MarkerForce.three_component(name, i, j, table)``    (fx, fy, fz)(t) on I in J's axes
  ``MarkerForce.six_component(name, i, j, table)``      (fx, fy, fz, tx, ty, tz)(t)
  ``MarkerForce.bushing(name, i, j, stiffness, damping, preload)``   6 uncoupled springs, each
        linear (a number, N/m or N m/rad) or tabulated (rows of deflection, restoring load)
  ``MarkerForce.beam(name, i, j, length, E, G, area, Ixx, Iyy, Izz, ...)``   linear beam
  ``MarkerForce.field(name, i, j, stiffness, damping, reference, preload)``  6x6 matrices
``table``: rows (t s, load ...), linear in t, held beyond its ends. ``marker_j`` None: J is the
frame ``position_j``/``rotation_j`` fixed in B0.
"""
from dataclasses import dataclass

import numpy as np

from occupant.modeling.elements import Connection, ModelingError, _load_table

KINDS = ("single_component", "three_component", "six_component", "bushing", "beam", "field")
_TABLE_COLUMNS = {"single_component": 1, "three_component": 3, "six_component": 6}


def _matrix(value, what):
    a = np.asarray(value, dtype=float)
    if a.shape == (6,):
        a = np.diag(a)
    if a.shape != (6, 6) or not np.all(np.isfinite(a)):
        raise ModelingError(f"{what}: expected 6 numbers (a diagonal) or a 6x6 matrix, got "
                            f"shape {a.shape}")
    return a


def _vec6(value, what):
    a = np.asarray(value, dtype=float)
    if a.shape != (6,) or not np.all(np.isfinite(a)):
        raise ModelingError(f"{what}: expected 6 finite numbers, got {value!r}")
    return a


@dataclass
class MarkerForce(Connection):
    """A force/torque between marker I and marker J (see the module docstring)."""
    name: str
    kind: str
    marker_i: str
    marker_j: str | None = None
    stiffness: object = None
    damping: object = None
    reference: object = None
    preload: object = None
    table: object = None
    position_j: tuple = (0.0, 0.0, 0.0)
    rotation_j: object = None
    springs: tuple = (None,) * 6    # per component: None or (k, 2) rows (u, restoring load)

    def __post_init__(self):
        what = f"{self.kind.replace('_', '-')} force '{self.name}'"
        if self.springs is None or len(self.springs) != 6:
            raise ModelingError(f"{what}.springs: expected 6 entries (None or a table), got "
                                f"{self.springs!r}")
        self.springs = tuple(None if t is None else _load_table(
            t, f"{what}.springs[{c}]", "(deflection, restoring load)")
            for c, t in enumerate(self.springs))
        if self.kind not in KINDS:
            raise ModelingError(f"marker force '{self.name}'.kind: unknown {self.kind!r} "
                                f"(accepted: {', '.join(KINDS)})")
        self._check_markers(what)
        self.stiffness = _matrix(np.zeros(6) if self.stiffness is None else self.stiffness,
                                 f"{what}.stiffness")
        self.damping = _matrix(np.zeros(6) if self.damping is None else self.damping,
                               f"{what}.damping")
        for key in ("stiffness", "damping"):
            M = getattr(self, key)
            if np.any(np.linalg.eigvalsh(0.5 * (M + M.T)) < -1e-9 * max(np.abs(M).max(), 1e-300)):
                raise ModelingError(f"{what}.{key}: must be positive semi-definite (its "
                                    f"symmetric part); a negative {key} adds energy")
        self.reference = _vec6(np.zeros(6) if self.reference is None else self.reference,
                               f"{what}.reference")
        self.preload = _vec6(np.zeros(6) if self.preload is None else self.preload,
                             f"{what}.preload")
        cols = _TABLE_COLUMNS.get(self.kind)
        if cols is not None:
            t = np.asarray(self.table, dtype=float) if self.table is not None else None
            if (t is None or t.ndim != 2 or t.shape[1] != cols + 1 or len(t) < 1
                    or not np.all(np.isfinite(t)) or np.any(np.diff(t[:, 0]) <= 0)):
                raise ModelingError(f"{what}.table: expected rows of (t s, {cols} load "
                                    f"value{'s' if cols > 1 else ''}) with increasing finite t")
            self.table = t
        elif self.table is not None:
            raise ModelingError(f"{what}.table: a {self.kind} takes no time table")

    @property
    def table_columns(self):
        return _TABLE_COLUMNS.get(self.kind, 0)

    # the families ----------------------------------------------------------------------------
    @classmethod
    def single_component(cls, name, marker_i, marker_j, table, **kw):
        return cls(name, "single_component", marker_i, marker_j, table=table, **kw)

    @classmethod
    def three_component(cls, name, marker_i, marker_j, table, **kw):
        return cls(name, "three_component", marker_i, marker_j, table=table, **kw)

    @classmethod
    def six_component(cls, name, marker_i, marker_j, table, **kw):
        return cls(name, "six_component", marker_i, marker_j, table=table, **kw)

    @classmethod
    def bushing(cls, name, marker_i, marker_j, stiffness, damping=(0.0,) * 6,
                preload=(0.0,) * 6, **kw):
        """Translational (N/m) and rotational (N m/rad) stiffness and damping along/about J's
        axes (ADAMS BUSHING), each 6 entries; a stiffness entry may instead be a table of
        (deflection m or rad, restoring load N or N m) rows, increasing deflection: a nonlinear
        characteristic. I and J coincide at zero load."""
        if len(stiffness) != 6:
            raise ModelingError(f"bushing '{name}'.stiffness: expected 6 entries, got "
                                f"{len(stiffness)}")
        tabulated = [np.ndim(k) > 0 for k in stiffness]
        springs = tuple(k if t else None for k, t in zip(stiffness, tabulated))
        linear = np.array([0.0 if t else k for k, t in zip(stiffness, tabulated)], dtype=float)
        for key, val in (("stiffness", linear), ("damping", damping)):
            if np.any(np.asarray(val, float) < 0):
                raise ModelingError(f"bushing '{name}'.{key}: must be >= 0, got {val!r}")
        return cls(name, "bushing", marker_i, marker_j, stiffness=np.diag(linear),
                   damping=np.diag(np.asarray(damping, float)), preload=preload, springs=springs,
                   **kw)

    @classmethod
    def field(cls, name, marker_i, marker_j, stiffness, damping=None, reference=None,
              preload=None, **kw):
        """A general linear field (ADAMS FIELD): 6x6 stiffness and damping of (F, T) on I
        against u (translation of I in J's axes minus ``reference``, rotation vector)."""
        return cls(name, "field", marker_i, marker_j, stiffness=stiffness, damping=damping,
                   reference=reference, preload=preload, **kw)

    @classmethod
    def beam(cls, name, marker_i, marker_j, length, youngs_modulus, shear_modulus, area,
             ixx, iyy, izz, shear_area_y=0.0, shear_area_z=0.0, damping_ratio=0.0, **kw):
        """A straight uniform beam from J (root) along J's x to I (tip) at ``length`` (m),
        as ADAMS BEAM: E, G Pa, A m^2, polar (torsion) ``ixx`` and area moments ``iyy``,
        ``izz`` m^4; ``shear_area_y``/``_z`` the shear-deflection factors (0: Euler-Bernoulli,
        e.g. 1.2 for a rectangle: Timoshenko); damping C = damping_ratio K."""
        what = f"beam '{name}'"
        vals = dict(length=length, youngs_modulus=youngs_modulus, shear_modulus=shear_modulus,
                    area=area, ixx=ixx, iyy=iyy, izz=izz)
        for key, val in vals.items():
            if not (np.isfinite(val) and val > 0):
                raise ModelingError(f"{what}.{key}: must be positive, got {val!r}")
        for key, val in (("shear_area_y", shear_area_y), ("shear_area_z", shear_area_z),
                         ("damping_ratio", damping_ratio)):
            if not (np.isfinite(val) and val >= 0):
                raise ModelingError(f"{what}.{key}: must be >= 0, got {val!r}")
        K = beam_stiffness(length, youngs_modulus, shear_modulus, area, ixx, iyy, izz,
                           shear_area_y, shear_area_z)
        return cls(name, "beam", marker_i, marker_j, stiffness=K, damping=damping_ratio * K,
                   reference=(length, 0, 0, 0, 0, 0), **kw)


def beam_stiffness(L, E, G, A, ixx, iyy, izz, asy=0.0, asz=0.0):
    """6x6 stiffness of the tip of a cantilever against its tip displacement and rotation in the
    root frame (x along the beam): the ADAMS BEAM matrix (Timoshenko; Przemieniecki, Theory of
    Matrix Structural Analysis, 1968, eq. 5.116 with the shear parameters P_y = 12 E Izz asy /
    (G A L^2), P_z = 12 E Iyy asz / (G A L^2); 0 gives Euler-Bernoulli)."""
    py = 12.0 * E * izz * asy / (G * A * L * L)
    pz = 12.0 * E * iyy * asz / (G * A * L * L)
    K = np.zeros((6, 6))
    K[0, 0] = E * A / L
    K[1, 1] = 12.0 * E * izz / (L**3 * (1.0 + py))
    K[1, 5] = K[5, 1] = -6.0 * E * izz / (L**2 * (1.0 + py))
    K[2, 2] = 12.0 * E * iyy / (L**3 * (1.0 + pz))
    K[2, 4] = K[4, 2] = 6.0 * E * iyy / (L**2 * (1.0 + pz))
    K[3, 3] = G * ixx / L
    K[4, 4] = (4.0 + pz) * E * iyy / (L * (1.0 + pz))
    K[5, 5] = (4.0 + py) * E * izz / (L * (1.0 + py))
    return K
