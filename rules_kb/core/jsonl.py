"""Reading JSON-lines data files: one JSON object a line, blank lines skipped
(the situations of :mod:`rules_kb.engines.situations`, the evaluation
questions of ``bench/evaluation.py``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path


class JsonLinesError(ValueError):
    """A line of a JSON-lines file is not what it should be: ``path``, ``line``
    (from 1) and a French message naming both."""

    def __init__(self, message: str, path: str, line: int) -> None:
        self.path = path
        self.line = line
        super().__init__(f"{path}, ligne {line} : {message}")


def read_json_lines(path: str | Path, error: type[JsonLinesError] = JsonLinesError) -> Iterator[tuple[int, object]]:
    """``(line number, value)`` for every non-blank line of the UTF-8 file
    ``path``; raises ``error`` (a :class:`JsonLinesError`) for a line that
    is not JSON. The caller checks each value's shape and raises ``error``
    with the line number when it is wrong."""
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as failure:
            raise error(f"JSON invalide ({failure.msg})", str(path), number) from None
        except (ValueError, RecursionError):  # a number of over 4 300 digits, lists nested thousands deep
            raise error("JSON illisible (nombre démesuré ou imbrication trop profonde)", str(path), number) from None
        yield number, value
