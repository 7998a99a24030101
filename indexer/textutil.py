"""Small text helpers shared by the parsers: line offsets, re-joining, folding."""

from __future__ import annotations

import bisect
import re
import unicodedata

_SPACES_RE = re.compile(r"\s+")


def fold(text: str) -> str:
    """Lowercase and strip accents: ``"Table des Matières"`` → ``"table des matieres"``."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def rejoin(text: str) -> str:
    """Re-join hard-wrapped lines: every run of white space becomes one space."""
    return _SPACES_RE.sub(" ", text).strip()


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
