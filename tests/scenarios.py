"""Writing small scenario files in tests: TOML values and tables from Python."""

from __future__ import annotations

import json


def toml_value(value) -> str:
    """A Python value (bool, int, str, list, dict) as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def table(kind: str = "permanent", **fields) -> str:
    """A ``[[kind]]`` table with these keys (None values left out)."""
    lines = [f"\n[[{kind}]]"] + [f"{key} = {toml_value(value)}" for key, value in fields.items() if value is not None]
    return "\n".join(lines) + "\n"


def unplaced(value):
    """A scenario (or any checker record) without what no scenario file
    holds: the line of each table set to 0 and the path to ``""``, to
    compare a scenario read with the one it was written from."""
    import dataclasses

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {field.name: unplaced(getattr(value, field.name)) for field in dataclasses.fields(value)}
        changes.update({key: empty for key, empty in (("line", 0), ("path", "")) if key in changes})
        return type(value)(**changes)
    if isinstance(value, tuple):
        return tuple(unplaced(item) for item in value)
    if isinstance(value, frozenset):
        return frozenset(unplaced(item) for item in value)
    if isinstance(value, dict):
        return {key: unplaced(item) for key, item in value.items()}
    return value
