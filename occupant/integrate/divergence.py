"""When a run has stopped being physical (issue 13 section 5): a contact penetration far beyond
any physical value, and where a diverging run went wrong.

Penetration guard: a contact between an occupant ellipsoid (or sphere) and a surface or another
ellipsoid whose penetration exceeds twice the largest semi-axis of the smaller of its two shapes
has that shape wholly inside the surface: the segment has passed through the vehicle (or through
another segment), which no compliant contact of a crash represents. The limit is geometric, not
tuned, and far from the physical range: flesh, foam and trim crush by centimetres, so the shipped
scenarios reach at most 0.61 of it (pedestrian_40's 59 mm knee spheres into the bumper foam;
0.48 for the unbelted FMVSS 208 knee into its bolster, 0.28-0.31 for the others). A pair without an ellipsoid or sphere (meshes) is not
guarded.

A membrane surface (``ContactCharacteristic.membrane``: laminated glass bulging on its interlayer)
does not crush under what presses it but bulges round it, so a shape smaller than the bulge lies
in it, not through the surface: its pairs' limit is the larger of the geometric one and its
table's last row (past which the defect check, occupant.scenario.defects, names the pair). The
pedestrian human's fist (a 100 mm ellipsoid) pressed 100 mm into the sedan's windscreen, whose
table bulges to 200 mm before the instrument panel, stopped a run at 99.6 mm with the glass
still holding it at 3 kN (scenarios/validation/HISTORY.md, branch pedhand).
"""
from dataclasses import dataclass

import numpy as np

from occupant.modeling.geometry import Ellipsoid, Sphere


@dataclass
class PenetrationGuard:
    names: tuple          # contact pair names
    columns: np.ndarray   # (k,) column of each pair's ``<pair>.penetration`` output
    limits: np.ndarray    # (k,) m

    def first_violation(self, outputs, k0, k1):
        """(sample, pair, penetration m, limit m) of the first sample in [k0, k1) of the
        recorded ``outputs`` (n, n_outputs) where a guarded pair is beyond its limit, or None."""
        if k1 <= k0 or not len(self.columns):
            return None
        over = outputs[k0:k1, self.columns] > self.limits
        rows = np.flatnonzero(over.any(axis=1))
        if not len(rows):
            return None
        k = int(rows[0])
        j = int(np.argmax(outputs[k0 + k, self.columns] - self.limits))
        return k0 + k, self.names[j], float(outputs[k0 + k, self.columns[j]]), float(self.limits[j])


def _size(geometry):
    """Largest semi-axis (m) of an ellipsoid or sphere, else None."""
    if isinstance(geometry, Ellipsoid):
        return float(np.max(geometry.semi_axes))
    if isinstance(geometry, Sphere):
        return float(geometry.radius)
    return None


def penetration_guard(model):
    """The PenetrationGuard of a compiled model's contact pairs (module docstring)."""
    asm = getattr(model, "source", None)
    names, columns, limits = [], [], []
    pairs = getattr(asm, "contact_pairs", None) or {}
    for name, pair in pairs.items():
        key = f"{name}.penetration"
        if key not in model.output_names:
            continue
        sizes = [s for s in (_size(asm.geometries.get(pair.geometry_a)), _size(asm.geometries.get(pair.geometry_b)))
                 if s is not None]
        if sizes:
            c = pair.characteristic
            bulge = float(c.table[-1, 0]) if c.membrane else 0.0
            names.append(name)
            columns.append(model.output_names.index(key))
            limits.append(max(2.0 * min(sizes), bulge))
    return PenetrationGuard(tuple(names), np.array(columns, int), np.array(limits, float))


def penetration_message(t, pair, depth, limit):
    return (f"contact {pair.replace('__', ' / ')} penetrated {1e3 * depth:.1f} mm at t = {t:.6g} s, "
            f"beyond the {1e3 * limit:.1f} mm at which the contact shape is wholly inside the "
            f"surface: the segment has passed through it (a contact far too soft for this load, or "
            f"a diverging run)")


def where(model, vdot, outputs, k):
    """Where a run was going wrong at recorded sample k: the degree of freedom with the largest
    acceleration (its joint and body) and the contact with the largest normal force."""
    parts = []
    if vdot is not None and len(vdot) > k and model.nv:
        a = np.abs(np.nan_to_num(vdot[k], nan=np.inf))
        d = int(np.argmax(a))
        j = int(model.dof_joint[d])
        parts.append(f"largest acceleration {a[d]:.3g} in dof {model.dof_names[d]} (joint "
                     f"{model.joint_names[j]}, body {model.body_names[int(model.joint_body[j])]})")
    forces = [(float(outputs[k, model.output_names.index(f"{c}.normal_force")]), c)
              for c in model.contact_names if f"{c}.normal_force" in model.output_names]
    forces = [(f, c) for f, c in forces if np.isfinite(f)]
    if forces and max(forces)[0] > 0:
        f, c = max(forces)
        parts.append(f"largest contact force {f / 1e3:.3g} kN in {c.replace('__', ' / ')}")
    return "; ".join(parts)
