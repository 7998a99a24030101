"""Text normalisation shared by the parsers and the lookups (no heavy imports)."""

from __future__ import annotations

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


def normalise_term(text: str) -> str:
    """Key under which a glossary headword, form or query is matched: folded,
    one space between words, each word of more than three letters without
    a final plural ``s``/``x`` (``"Blessures fatales"`` → ``"blessure fatale"``)."""
    words = re.findall(r"[\w'’-]+", fold(text))
    return " ".join(word[:-1] if len(word) > 3 and word[-1] in "sx" else word for word in words)
