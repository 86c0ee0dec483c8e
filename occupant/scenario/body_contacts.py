"""The occupant's own contact pairs, the same for every scenario and occupant (issue 11 sections
1-2 and 6): the chin on the chest, the hands on the steering wheel's rim, and the legs on each
other, declared once in ``dummies/body_contacts.toml`` (its header gives the rules and sources).

``body_pairs(geometries, declared, characteristics, defaults)`` gives the ContactPairs of that
file for an assembly's geometries: a pair whose geometries the model lacks is left out (no
steering wheel in a passenger seat, no knee pads on the parametric human), and so is a pair the
scenario declares itself."""
import numpy as np

from occupant.io.toml_files import FileChecker, InputFileError, open_shipped
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


def body_pairs(geometries, declared=(), characteristics=None, defaults=None):
    """[ContactPair] of dummies/body_contacts.toml whose geometries are among ``geometries``,
    leaving out those whose (a, b) the pairs ``declared`` already join (either order);
    ``characteristics`` and ``defaults`` as ``read_contacts`` takes them (the interior's)."""
    path, data, c = open_shipped(FILE, "dummies", "body_contacts", "body contacts", TOP_KEYS,
                                 InputFileError)
    taken = {frozenset((p.geometry_a, p.geometry_b)) for p in declared}
    chosen = []
    for i, p in enumerate(c.tables(data, "contact", "", required=True)):
        a, b = (_present(c, p.get(k), f"contact[{i}].{k}", geometries) for k in ("a", "b"))
        if a is not None and b is not None and frozenset((a, b)) not in taken:
            chosen.append({**p, "a": a, "b": b})
    _, pairs = read_contacts(FileChecker(path, InputFileError),
                             {"contact_characteristic": data.get("contact_characteristic", {}),
                              "contact": chosen}, geometries,
                             characteristics=characteristics, defaults=defaults)
    return pairs


def shells_at(run, k, names):
    """{name: (centre, axes R, semi-axes)} of a run's ellipsoids ``names`` in B0 at sample k,
    placed by the compiled model's markers (a limb's link frame is not its segment's frame)."""
    model, src = run.model, run.model.source
    base = np.linalg.inv(run.results.base_poses[k])
    out = {}
    for name in names:
        i = model.marker(src.geometries[name].marker)
        P = base @ run.results.body_poses[k, model.marker_body[i]]
        out[name] = (P[:3, :3] @ model.marker_p[i] + P[:3, 3], P[:3, :3] @ model.marker_R[i],
                     np.asarray(src.geometries[name].semi_axes, float))
    return out
