"""Contact characteristics and contact pairs read from a parsed TOML table: the one reader for
every file that declares contacts (a dummy file, a vehicle interior, a scenario), so that a
contact means the same wherever it is declared (design.md section 6, conventions rule 9).

File form::

    [contact_characteristic.seat_foam]       # one table per characteristic, by name
    table = [[0.0, 0.0], [0.02, 600.0]]      # loading curve, rows (penetration m, force N);
    # or stiffness = 5.0e4 (N/m^n) with exponent = 1.0
    absorption = 0.5                         # or unloading_table = [[m, N], ...]
    recovers = true                          # optional: absorption unloads to the origin
    membrane = true                          # optional: the surface bulges round what presses it
                                             # to the table's depth (ContactCharacteristic)
    damping = 2.0e3                          # N s/m^2 (Hunt-Crossley d d')
    friction = 0.5                           # Coulomb coefficient
    friction_speed = 0.01                    # m/s (optional)

    [[contact]]                              # one pair, or one per name when a is a list
    a = ["left_thigh_shell", "right_thigh_shell"]   # ellipsoids (or spheres) of the occupant
    b = "knee_bolster"                       # a plane on B0, or another ellipsoid
    characteristic = "knee_bolster_foam"     # optional when b's surface names a default
    name = "left_knee_bolster"               # optional; default "<a>__<b>" (only with one a)
    share = 0.5                              # optional: each pair bears this fraction of the
                                             # characteristic's force (ContactCharacteristic.shared)

The reader takes the caller's ``FileChecker`` (occupant.io.toml_files), so that errors name the
caller's file and key path without this layer importing occupant.io (pyproject import-linter
contracts); the characteristic's own checks (``ContactCharacteristic``) are reported the same way.
"""
from occupant.modeling.contacts import ContactCharacteristic, ContactPair
from occupant.modeling.elements import ModelingError

CHARACTERISTIC_KEYS = ("stiffness", "exponent", "table", "unloading_table", "absorption", "damping",
                       "friction", "friction_speed", "recovers", "membrane")
PAIR_KEYS = ("name", "a", "b", "characteristic", "share")


def curve_rows(checker, table, key, path, x="penetration m", y="force N"):
    """A curve given as [[x, y], ...] (at least two finite rows), or None when absent; ``x`` and
    ``y`` name the columns with their units in the message."""
    if key not in table:
        return None
    rows = table[key]
    ok = isinstance(rows, list) and len(rows) >= 2 and all(
        isinstance(r, list) and len(r) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in r) for r in rows)
    if not ok:
        checker.fail(checker.where(path, key), f"expected >= 2 rows [{x}, {y}], got {rows!r}",
                     f"[[0.0, 0.0], [{x.split()[-1]}, {y.split()[-1]}], ...]")
    return [[float(x) for x in r] for r in rows]


def _characteristic(checker, table, path, name):
    if not isinstance(table, dict):
        checker.fail(path, f"expected a table, got {table!r}", f"a [{path}] table")
    checker.keys(table, CHARACTERISTIC_KEYS, path)
    kwargs = {"name": name}
    for key in ("stiffness", "exponent", "absorption", "damping", "friction", "friction_speed"):
        v = checker.number(table, key, path)
        if v is not None:
            kwargs[key] = v
    for key in ("recovers", "membrane"):
        if checker.boolean(table, key, path, default=False):
            kwargs[key] = True
    for key in ("table", "unloading_table"):
        rows = curve_rows(checker, table, key, path)
        if rows is not None:
            kwargs[key] = rows
    try:
        return ContactCharacteristic(**kwargs)
    except ModelingError as err:  # "contact characteristic 'x'.key: problem" -> this key path
        text = str(err)
        head, _, problem = text.partition(": ")
        key = head.rpartition(".")[2] if "." in head.rpartition("'")[2] else ""
        where = checker.where(path, key) if key in CHARACTERISTIC_KEYS else path
        checker.fail(where, problem or text)


def read_contacts(checker, data, geometries, *, characteristics=None, defaults=None, path="",
                  bodies=None):
    """(characteristics, pairs) declared in the parsed table ``data``.

    ``checker``: the caller's FileChecker; ``geometries``: the geometry names pairs may use
    (an error lists them); ``characteristics``: characteristics already known (e.g. from the
    interior file) that pairs may name, extended by the ``[contact_characteristic.*]`` tables
    of ``data``; ``defaults``: {geometry b name: characteristic name} used when a pair gives
    none; ``bodies``: the names among ``geometries`` a pair's ``a`` may use (the ellipsoids and
    spheres on bodies, not the vehicle's: ``ContactPair``), None: any. Returns
    ({name: ContactCharacteristic}, [ContactPair, ...])."""
    known = dict(characteristics or {})
    where = checker.where(path, "contact_characteristic")
    for name, table in checker.table(data, "contact_characteristic", path).items():
        known[name] = _characteristic(checker, table, f"{where}.{name}", name)
    pairs, names = [], set()
    geometries = list(geometries)
    for i, p in enumerate(checker.tables(data, "contact", path)):
        pp = f"{checker.where(path, 'contact')}[{i}]"
        checker.keys(p, PAIR_KEYS, pp)
        a_list = p.get("a")
        if isinstance(a_list, str):
            a_list = [a_list]
        if not isinstance(a_list, list) or not a_list or not all(isinstance(x, str) for x in a_list):
            checker.fail(f"{pp}.a", f"expected a geometry name or a list of them, got {p.get('a')!r}",
                         ", ".join(geometries))
        b = checker.string(p, "b", pp, required=True)
        for key, value in [("a", x) for x in a_list] + [("b", b)]:
            if value not in geometries:
                checker.fail(f"{pp}.{key}", f"unknown geometry {value!r}", ", ".join(geometries))
            if key == "a" and bodies is not None and value not in bodies:
                checker.fail(f"{pp}.a", f"{value!r} is not an ellipsoid or sphere on a body (a "
                             "pair's a is the body's, the surface it meets its b)", ", ".join(bodies))
        if b in a_list:   # (read "characteristic: missing, and surface ... names no default")
            checker.fail(f"{pp}.b", f"{b!r} is also in a: a geometry cannot touch itself",
                         "another geometry than those of a")
        cname = checker.string(p, "characteristic", pp)
        if cname is None:
            cname = (defaults or {}).get(b)
            if cname is None:
                checker.fail(f"{pp}.characteristic", f"missing, and surface {b!r} names no default",
                             ", ".join(known) or "a [contact_characteristic.<name>] table")
        if cname not in known:
            checker.fail(f"{pp}.characteristic", f"unknown contact characteristic {cname!r}",
                         ", ".join(known) or "a [contact_characteristic.<name>] table")
        name = checker.string(p, "name", pp)
        if name is not None and len(a_list) > 1:
            checker.fail(f"{pp}.name", "a name needs a single geometry a (one pair)",
                         "no name with a list of geometries")
        characteristic = known[cname]
        share = checker.number(p, "share", pp)
        if share is not None:
            if not 0.0 < share <= 1.0:
                checker.fail(f"{pp}.share", f"got {share!r}", "a number in (0, 1]")
            characteristic = characteristic.shared(share)
        for a in a_list:
            pair_name = name or f"{a}__{b}"
            if pair_name in names:
                checker.fail(pp, f"contact pair {pair_name!r} is declared twice", "each pair once")
            names.add(pair_name)
            try:
                pairs.append(ContactPair(pair_name, a, b, characteristic))
            except ModelingError as err:
                checker.fail(pp, str(err))
    return known, pairs
