"""Injury criteria of a run from its sensor channels, named as the regulations name them, each
judged against the limit of the scenario's regulation (occupant.injury.limits) when it has one.

Channels are found by their ISO-MME codes (location, fine location, dimension, direction), so
any sensor set that measures the same quantity at the same place is used. Each criterion is a
row ``dict(criterion, value, unit, limit, pass)`` in display units (g, mm, N, "-" for
dimensionless); ``pass`` is True/False, or None when the regulation sets no limit for it or the
run is not judged (restraints declared but not modelled, occupant.scenario.restraints).
"""
from occupant.injury import evaluate as injury
from occupant.injury.limits import assess

#: (criterion as the regulations name it, key in occupant.injury.limits, display unit, factor
#: from the limits module's unit to the display unit)
ROWS = (
    ("HIC15", "hic15", "-", 1.0),
    ("HIC36", "hic36", "-", 1.0),
    ("head 3 ms", "head_a3ms_g", "g", 1.0),
    ("chest 3 ms", "chest_a3ms_g", "g", 1.0),
    ("chest deflection", "chest_deflection", "mm", 1e3),
    ("Nij", "nij", "-", 1.0),
    ("neck tension", "neck_tension", "N", 1.0),
    ("neck compression", "neck_compression", "N", 1.0),
    ("femur force left", "femur_compression", "N", 1.0),
    ("femur force right", "femur_compression", "N", 1.0),
)


def find(channels, location, fine1, dimension, direction):
    """The channel whose code has this main location, fine location 1, dimension and direction."""
    for ch in channels:
        code = ch.code or ""
        if (len(code) == 16 and code[2:6] == location and code[6:8] == fine1
                and code[12:14] == dimension and code[14] == direction):
            return ch
    return None


def _values(channels, dummy):
    """{criterion name: CriterionResult} for every criterion the channels allow."""
    out = {}
    head = [find(channels, "HEAD", "00", "AC", a) for a in "XYZ"]
    if all(head):
        r = injury.head(*head)
        out.update({"HIC15": r["hic15"], "HIC36": r["hic36"], "head 3 ms": r["head_a3ms_g"]})
    chest = [find(channels, "CHST", "00", "AC", a) for a in "XYZ"]
    if all(chest):
        out["chest 3 ms"] = injury.chest(*chest)["chest_a3ms_g"]
    deflection = find(channels, "CHST", "00", "DS", "X")
    if deflection is not None:
        out["chest deflection"] = injury.chest(deflection=deflection, dummy=dummy)["chest_deflection"]
    neck = [find(channels, "NECK", "UP", d, a) for d, a in (("FO", "X"), ("FO", "Z"), ("MO", "Y"))]
    if all(neck):
        r = injury.neck(*neck, dummy=dummy)
        out.update({"Nij": r["nij"], "neck tension": r["neck_tension"],
                    "neck compression": r["neck_compression"]})
    for side, fine in (("left", "LE"), ("right", "RI")):
        f = find(channels, "FEMR", fine, "FO", "Z")
        if f is not None:
            out[f"femur force {side}"] = injury.femur(f)["femur_compression"]
    return out


def criteria_rows(channels, dummy, protocol=None, judged=True, not_judged=()):
    """Rows for the criteria the channels allow, in ROWS order; those named in ``not_judged``
    keep their value and limit but get no verdict."""
    values = _values(channels, dummy)
    limits = {lim.criterion: lim for lim in protocol.limits} if protocol else {}
    rows = []
    for name, key, unit, factor in ROWS:
        if name not in values:
            continue
        value = float(values[name].value)
        limit, passed = None, None
        lim = limits.get(key)
        if lim is not None and lim.kind == "max":
            limit = abs(lim.limit) * factor
            if judged and name not in not_judged:
                passed = assess(protocol.name, {key: value})[0].passed
        rows.append(dict(criterion=name, value=value * factor, unit=unit, limit=limit, **{"pass": passed}))
    return rows
