"""Small text helpers shared by the parsers: line offsets, re-joining, folding."""

from __future__ import annotations

import bisect
import re

from rules_kb.core.model import SourceSpan
from rules_kb.core.text import fold, rejoin

__all__ = ["LineIndex", "fold", "rejoin"]


class LineIndex:
    """Maps character offsets of a text to 1-based line numbers."""

    def __init__(self, text: str) -> None:
        self.starts = [0]
        for match in re.finditer("\n", text):
            self.starts.append(match.end())

    def line_of(self, offset: int) -> int:
        """1-based line holding the character at ``offset``."""
        return bisect.bisect_right(self.starts, offset)

    def line_start(self, line: int) -> int:
        """Offset of the first character of 1-based ``line``."""
        return self.starts[line - 1]

    def span(self, text: str, document: str, start: int, end: int) -> SourceSpan:
        """The :class:`SourceSpan` of ``text[start:end]``: its lines run from
        the line of ``start`` to the line of its last non-blank character."""
        last = max(start, end - 1)
        while last > start and text[last].isspace():
            last -= 1
        return SourceSpan(document, self.line_of(start), self.line_of(last), start, end)
