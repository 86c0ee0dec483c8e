"""The occupant's own contact pairs, the same for every scenario and occupant (issue 11 sections
1-2 and 6): the chin on the chest, the hands, head and chin on the steering wheel's rim, the
legs on each other and the outboard arm, shoulder, pelvis and thigh on the driver's door,
declared once in ``dummies/body_contacts.toml`` (its header gives the rules and sources).

``body_pairs(geometries, declared, characteristics, defaults)`` gives the ContactPairs of that
file for an assembly's geometries: a pair whose geometries the model lacks is left out (no
steering wheel in a passenger seat, no knee pads on the parametric human), and so is a pair the
scenario declares itself."""
from occupant.io.toml_files import FileChecker, InputFileError, open_shipped, resolve_shipped
from occupant.modeling.contacts_toml import read_contacts

FILE = "body_contacts"          # dummies/body_contacts.toml
TOP_KEYS = ("kind", "contact_characteristic", "contact")


def _present(c, value, where, geometries):
    """The first of ``value`` (a geometry name or a list of alternatives) the model has, or
    None."""
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        c.fail(where, f"expected a geometry name or a list of alternatives, got {value!r}",
               "a name, or [first choice, second choice, ...]")
    return next((n for n in names if n in geometries), None)


def _applies(c, value, where, occupant):
    """Whether a pair's ``occupants`` (model name prefixes; absent: every occupant) take in the
    occupant named ``occupant``."""
    if value is None:
        return True
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        c.fail(where, f"expected a list of occupant name prefixes, got {value!r}",
               'e.g. ["hybrid3_"]')
    return any(occupant.startswith(n) for n in value)


def shipped_file():
    """The path of the shipped dummies/body_contacts.toml."""
    return resolve_shipped(FILE, "dummies", "body contacts", kind="body_contacts")


def body_pairs(geometries, declared=(), characteristics=None, defaults=None, occupant="", file=FILE):
    """[ContactPair] of dummies/body_contacts.toml (or of ``file``, a path: a run folder's copy
    of it) whose geometries are among ``geometries`` and whose ``occupants`` (if given) take in
    the model named ``occupant``, leaving out those whose (a, b) the pairs ``declared`` already
    join (either order); ``characteristics`` and ``defaults`` as ``read_contacts`` takes them
    (the interior's)."""
    path, data, c = open_shipped(file, "dummies", "body_contacts", "body contacts", TOP_KEYS,
                                 InputFileError)
    taken = {frozenset((p.geometry_a, p.geometry_b)) for p in declared}
    chosen = []
    for i, p in enumerate(c.tables(data, "contact", "", required=True)):
        p = dict(p)
        if not _applies(c, p.pop("occupants", None), f"contact[{i}].occupants", occupant):
            continue
        a, b = (_present(c, p.get(k), f"contact[{i}].{k}", geometries) for k in ("a", "b"))
        if a is not None and b is not None and frozenset((a, b)) not in taken:
            chosen.append({**p, "a": a, "b": b})
    _, pairs = read_contacts(FileChecker(path, InputFileError),
                             {"contact_characteristic": data.get("contact_characteristic", {}),
                              "contact": chosen}, geometries,
                             characteristics=characteristics, defaults=defaults)
    return pairs

