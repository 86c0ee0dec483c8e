"""Compliant contact declarations: a force-penetration characteristic and the pairs of geometries
it acts between (ATB/MADYMO contact model: force from penetration with hysteresis, damping and
Coulomb friction; crash-domain-facts 6.3). The compiled kernel is ``occupant.contact.compliant``.
"""
from dataclasses import dataclass, replace

import numpy as np

from occupant.modeling.elements import ModelingError, hysteresis_checks


@dataclass
class ContactCharacteristic:
    """Normal force F(d) >= 0 of penetration d (m) and friction of a contact.

    Loading: ``table`` (rows (d m, F N) from (0, 0), F non-decreasing), else F = ``stiffness``
    d^``exponent`` (N/m^n; n = 1 linear). Unloading (below the maximum penetration reached):
    ``unloading_table``, the shape of the unloading curve shifted along d to meet the loading
    curve at the maximum (MADYMO's shifted unloading function); or the energy-absorption factor
    ``absorption`` in [0, 1), the fraction of the loading work a load-unload cycle dissipates,
    with straight-line unloading from the peak to the permanent set, or with ``recovers`` to the
    origin (no permanent set: foam and padding that spring back); with neither the contact is
    elastic (unloads along the loading curve). Damping adds ``damping`` d d' (N s/m^2,
    Hunt-Crossley form: zero at first touch, so the force is continuous); the total is clipped at
    0 (contacts only push). Friction: ``friction`` mu times the normal force, against the sliding
    velocity, smoothed by tanh(|v_t| / ``friction_speed``) as joint friction is. ``name`` (optional)
    is used in error messages. ``membrane`` (with a table): the surface bulges as a whole round
    what presses it (laminated glass on its interlayer once cracked) rather than crushing under
    it, so a shape pressed deeper than its own size lies in the bulge, not through the surface:
    the penetration guard (occupant.integrate.divergence) takes the table's last row as its limit
    for the pairs of such a surface; the force law is the same.
    """
    stiffness: float = 0.0
    exponent: float = 1.0
    table: object = None
    unloading_table: object = None
    absorption: float = 0.0
    damping: float = 0.0
    friction: float = 0.0
    friction_speed: float = 0.01
    name: str = ""
    recovers: bool = False
    membrane: bool = False

    def __post_init__(self):
        what = f"contact characteristic '{self.name}'" if self.name else "contact characteristic"
        for key in ("stiffness", "damping", "friction"):
            val = getattr(self, key)
            if not (np.isfinite(val) and val >= 0):
                raise ModelingError(f"{what}.{key}: got {val!r}", "a finite number >= 0")
        if not (np.isfinite(self.exponent) and self.exponent > 0):
            raise ModelingError(f"{what}.exponent: got {self.exponent!r}", "a finite number > 0")
        if not (np.isfinite(self.friction_speed) and self.friction_speed > 0):
            raise ModelingError(f"{what}.friction_speed: got {self.friction_speed!r}",
                                "a finite number > 0, m/s")
        hysteresis_checks(self, what)
        if self.table is None and self.stiffness == 0:
            raise ModelingError(f"{what}: neither a stiffness nor a loading table",
                                "stiffness > 0, or a loading table")
        if self.table is not None:
            # the table loads: a power law given beside it would be silently left out
            law = []
            if self.stiffness != 0:
                law.append(f"stiffness {self.stiffness!r}")
            if self.exponent != 1.0:
                law.append(f"exponent {self.exponent!r}")
            if law:
                raise ModelingError(f"{what}: both a loading table and {' and '.join(law)} given",
                                    "a loading table, or stiffness (and exponent)")
        if self.membrane and self.table is None:
            raise ModelingError(f"{what}.membrane: a membrane's bulge is its loading table's depth, "
                                f"and it has none", "a loading table with membrane = true")
        if self.table is not None:
            self.table = _curve(self.table, f"{what}.table")
        if self.unloading_table is not None:
            if self.absorption > 0:
                raise ModelingError(f"{what}: both unloading_table and absorption "
                                    f"{self.absorption!r} given", "one of them")
            self.unloading_table = _curve(self.unloading_table, f"{what}.unloading_table",
                                          strict=True)

    def shared(self, share):
        """This characteristic with its forces (loading and unloading curves, stiffness, damping)
        times ``share`` in (0, 1]: one of several surfaces of a body part against one surface,
        which together press as the part's one surface did at the same penetration; friction is
        a coefficient and stays."""
        if not (np.isfinite(share) and 0.0 < share <= 1.0):
            raise ModelingError(f"share: got {share!r}", "a number in (0, 1]")
        scaled = {k: None if getattr(self, k) is None else getattr(self, k) * np.array([1.0, share])
                  for k in ("table", "unloading_table")}
        return replace(self, stiffness=self.stiffness * share, damping=self.damping * share, **scaled)


@dataclass
class ContactPair:
    """Compliant contact between geometry ``geometry_a`` (an Ellipsoid or Sphere on a part) and
    ``geometry_b`` (one of the types ``occupant.modeling.compile_contacts.ACCEPTED_B``, on a part
    or on B0); equal and opposite forces act on both at the contact point. ``characteristic``:
    a ContactCharacteristic. ``crush_group`` (optional): the crushable part geometry b is a face
    of (an interior's ``crush_group``): the pairs of one crush group whose geometries a are on
    one link crush that part once, its characteristic's law at the deepest of their
    penetrations with one history, the force shared among them (``occupant.contact.compliant``);
    they need one characteristic's force law."""
    name: str
    geometry_a: str
    geometry_b: str
    characteristic: ContactCharacteristic
    crush_group: str = ""

    def __post_init__(self):
        if not isinstance(self.characteristic, ContactCharacteristic):
            raise ModelingError(f"contact pair '{self.name}'.characteristic: expected a "
                                f"ContactCharacteristic, got {type(self.characteristic).__name__}")
        if self.geometry_a == self.geometry_b:
            raise ModelingError(f"contact pair '{self.name}': geometry_a and geometry_b are the "
                                f"same geometry '{self.geometry_a}'")

    @property
    def refs(self):
        return {"geometry": self.geometry_a, "geometry_b": self.geometry_b}


def _curve(table, what, strict=False):
    t = np.asarray(table, dtype=float)
    ok = (t.ndim == 2 and t.shape[1] == 2 and len(t) >= 2 and np.all(np.isfinite(t))
          and np.all(np.diff(t[:, 0]) > 0) and t[0, 0] == 0 and t[0, 1] == 0)
    slopes_ok = ok and (np.all(np.diff(t[:, 1]) > 0) if strict else np.all(np.diff(t[:, 1]) >= 0))
    if not slopes_ok:
        rises = "increasing" if strict else "non-decreasing"
        raise ModelingError(f"{what}: got {np.asarray(table).tolist()}",
                            f">= 2 finite rows of (penetration m, force N) starting at (0, 0), "
                            f"penetration increasing and force {rises}")
    return t
