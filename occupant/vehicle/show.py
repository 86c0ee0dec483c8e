"""``occupant show`` for vehicle and subsystem files: the subsystem tree (with base frames and
interface bindings), parts, joints and degrees of freedom."""
import pathlib

import numpy as np

from occupant.io.toml_files import read_toml


def is_vehicle_file(name_or_path):
    p = pathlib.Path(name_or_path)
    if p.suffix != ".toml" or not p.is_file():
        return False
    return read_toml(p).get("kind") in ("vehicle", "subsystem")


def show_vehicle(path, out=print):
    from occupant.vehicle import load
    from occupant.vehicle.compile import compile_vehicle, constraint_jacobian
    vehicle = load(path)
    model = compile_vehicle(vehicle, check=False)
    rank = np.linalg.matrix_rank(constraint_jacobian(model)[1]) if model.constraint_names else 0
    dof = model.nv - rank
    cut = set(model.topology.cut_joints)   # (tree constant-velocity joints have a row too)
    out(f"vehicle {vehicle.name}: {len(vehicle.parts)} parts, {len(vehicle.constraints)} "
        f"constraints ({len(model.joint_names)} tree joints, {len(cut)} loop-closing joints, "
        f"{len(model.constraint_names)} constraint equations, "
        f"{len(model.flat.couplers)} couplers), {len(model.flat.tyres)} tyres, mass "
        f"{model.total_mass:.1f} kg, {model.nv} coordinates, {dof} degrees of freedom")
    out("subsystems (template, base frame origin, interfaces -> bound parts):")
    for prefix, sub, X in vehicle.root.walk():
        depth = prefix.count(".")
        label = prefix.rstrip(".") or sub.name
        binds = ", ".join(f"{n} -> {i.bound_to or 'ground'}" for n, i in sub.interfaces.items())
        out(f"  {'  ' * depth}{label} ({sub.template or 'assembly'}, at "
            f"{np.array2string(X[:3, 3], precision=3)}){': ' + binds if binds else ''}")
    out("parts (mass, centre of mass in its subsystem's base frame (the view transform, seed 000 "
        "fig. 4), then in the vehicle frame):")
    for prefix, sub, X in vehicle.root.walk():
        for name, p in sub.parts.items():
            com = X[:3, :3] @ p.com + X[:3, 3]
            out(f"  {prefix + name:<40} {p.mass:8.2f} kg  {np.array2string(p.com, precision=3)}"
                f"  vehicle {np.array2string(com, precision=3)}")
    out("joints (kind, parent -> child, coordinates):")
    for name, j in model.source.joints.items():
        n = sum(1 for jj in model.dof_joint if model.joint_names[jj] == name) if name in model.index["joint"] else 0
        role = "loop-closing" if name in cut else f"{n} coordinate{'s' if n != 1 else ''}"
        out(f"  {name:<44} {j.kind:<10} {j.parent or 'ground'} -> {j.child} ({role})")
    for c in model.flat.couplers:
        out(f"  {c.name:<44} coupler    {c.joint_a} ~ {c.joint_b or 'target'}")
    return 0
