"""A small TOML writer for the resolved scenario (what ``tomllib`` reads back to the same dict):
scalars, arrays, tables and arrays of tables. Python's standard library reads TOML but does not
write it; this covers the value kinds scenario files use."""
import math


def _key(k):
    k = str(k)
    return k if k and all(ch.isalnum() or ch in "_-" for ch in k) else _string(k)


def _string(s):
    out = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{out}"'


def _value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def _is_table_array(v):
    return isinstance(v, list) and v and all(isinstance(x, dict) for x in v)


def _emit(table, prefix, lines):
    for k, v in table.items():
        if not isinstance(v, dict) and not _is_table_array(v):
            lines.append(f"{_key(k)} = {_value(v)}")
    for k, v in table.items():
        name = f"{prefix}.{_key(k)}" if prefix else _key(k)
        if isinstance(v, dict):
            lines.append("")
            lines.append(f"[{name}]")
            _emit(v, name, lines)
        elif _is_table_array(v):
            for item in v:
                lines.append("")
                lines.append(f"[[{name}]]")
                _emit(item, name, lines)


def dumps(data):
    """TOML text of a dict."""
    lines = []
    _emit(data, "", lines)
    return "\n".join(lines) + "\n"
