"""Dummy variants: a dummy file that names a ``base`` dummy and gives only what differs from it
(e.g. the pedestrian Hybrid III: the Hybrid III 50th male with a standing pelvis and a straight
lumbar spine), so that a variant never copies its base's data.

A variant file::

    kind = "dummy"
    name = "hybrid3_50m_pedestrian"
    base = "hybrid3_50m"           # a shipped dummy name or a path (relative: to this file's
                                   # folder); itself not a variant
    description = "..."            # top-level keys given here replace the base's
    [[segment]]
    name = "lumbar"                # a segment of the base, by name
    com = [0.0, 0.0, 0.09]         # keys given replace the base's
    [segment.joint]
    location = [0.0, 0.0, 0.2]     # tables are merged key by key
    [[segment.ellipsoid]]
    name = "pelvis_flesh"          # an item of an array of tables is merged with the base's item
    center = [0.0, 0.0, 0.04]      # of the same name (resistances: of the same dof); one the
                                   # base lacks is added; any other value is replaced whole

The merged table is validated as any dummy file (occupant.human.description); its messages name
the variant file, with the base's segment indices.
"""
from occupant.io.toml_files import FileChecker


IDENTITY = ("name", "dof")   # the key that pairs an item of an array of tables with the base's


def _is_tables(v):
    return isinstance(v, list) and all(isinstance(x, dict) for x in v)


def _merge_items(base, change):
    """Items of ``change`` merged into the base items they name (IDENTITY), others appended."""
    out = [dict(x) for x in base]
    for item in change:
        ident = next((k for k in IDENTITY if k in item), None)
        match = [i for i, x in enumerate(out) if ident is not None and x.get(ident) == item[ident]]
        if match:
            out[match[0]] = _merge(out[match[0]], item)
        else:
            out.append(item)
    return out


def _merge(base, change):
    """``base`` with the keys of ``change``: tables merged key by key, arrays of tables item by
    item, anything else replaced."""
    out = dict(base)
    for key, value in change.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        elif _is_tables(value) and _is_tables(out.get(key)):
            out[key] = _merge_items(out[key], value)
        else:
            out[key] = value
    return out


def apply_variant(data, file, read_base, error):
    """The dummy table of the variant ``data`` (read from ``file``) applied to its base, read by
    ``read_base(name_or_path) -> (table, path)``, and the base's ``name`` (None and ``data``
    itself when it names no base). Raises ``error`` (a DummyFileError class) naming ``file`` and
    the key at fault."""
    if not isinstance(data, dict) or "base" not in data:
        return data, None
    c = FileChecker(file, error)
    base_name = c.string(data, "base", "", required=True)
    base, base_path = read_base(base_name)
    if isinstance(base, dict) and "base" in base:
        c.fail("base", f"{base_name!r} is itself a variant (of {base['base']!r})",
               "a dummy file without a base")
    names = [s.get("name") for s in base.get("segment", []) if isinstance(s, dict)]
    segments = [dict(s) for s in base.get("segment", [])]
    for i, s in enumerate(c.tables(data, "segment", "")):
        name = c.string(s, "name", f"segment[{i}]", required=True)
        if name not in names:
            c.fail(f"segment[{i}].name", f"unknown segment {name!r} of {base_path}",
                   ", ".join(names))
        k = names.index(name)
        segments[k] = _merge(segments[k], s)
    out = _merge(base, {k: v for k, v in data.items() if k not in ("base", "segment")})
    out["segment"] = segments
    return out, base.get("name")
