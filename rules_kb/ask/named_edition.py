"""The edition a question names: "Règles 2011 : …", "en 2004", "avec la FAQ
Spirale temporelle".

Judges are asked about a given edition of the rules as often as about the
rules of the day: an old ruling, a tournament of that time, the rules text
someone quotes. A question that names an edition asks about that edition's
rules, as ``--edition`` does (which wins over it when both are given).

What names an edition, read from the corpus's manifest (nothing is listed
by hand):

- the **year** of a rules document's date (``2004``, ``2011``), after a
  word that introduces the rules' date — "règles (de) 2011", "règles
  complètes de 2004", "édition 2004", "version", "en", "selon",
  "depuis", "d'après", "avec", "FAQ" — in brackets ("(2011)") or as the
  question's first word ("2011 : …");
- the **title** of a FAQ document, its part after the dash ("Foire aux
  questions — Spirale temporelle" → « spirale temporelle »), and the
  year of its date after "FAQ".

A rules document's edition is asked for alone. A FAQ's edition only
completes the rules it changes (its own records are the rules it quotes as
changed), so naming it restricts nothing: the answer keeps every edition,
and the checker follows the FAQ's edition, which is already the newest it
knows.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from rules_kb.core.model import DocumentKind
from rules_kb.core.text import fold_aligned

#: Words that introduce a date of the rules, before a year (folded).
_BEFORE_YEAR = (
    r"(?:regles?|regle\s+de|edition|version|comprehensive\s+rules|rules|cr|en|selon|depuis|d'apres|dapres|avec"
    r"|faq|a\s+l'epoque|epoque|sous|pour)"
)


class NamedEdition(NamedTuple):
    """An edition named in a question: the corpus ``edition`` id, the
    question's ``text`` naming it at ``[start, end)``, ``restricts`` (True
    when the answer keeps only that edition's rules: a rules document;
    False for a FAQ, which only completes the rules it changes) and the
    ``title`` of its document."""

    edition: str
    text: str
    start: int
    end: int
    restricts: bool
    title: str

    @property
    def meaning(self) -> str:
        """What was understood, in French, for « Compris »."""
        if self.restricts:
            return f"« {self.text} » → règles de l'édition {self.edition} seulement"
        return f"« {self.text} » → édition {self.edition} ({self.title}) et les règles qu'elle complète"


def named_edition(kb, question: str) -> NamedEdition | None:
    """The edition ``question`` names (module docstring), the last named
    when several are, or None. ``kb`` is a
    :class:`rules_kb.loader.KnowledgeBase` (its manifest's documents)."""
    folded = fold_aligned(question)
    found: list[NamedEdition] = []
    for document in kb.documents:
        if document.edition not in kb.editions and document.kind is not DocumentKind.FAQ:
            continue
        is_faq = document.kind is DocumentKind.FAQ
        year = document.date[:4]
        if year.isdigit():
            lead = (
                r"faq\s+(?:de\s+|du\s+)?"
                if is_faq
                else (
                    rf"(?:regles?|edition|version|rules)\s+(?:[\w']+\s+){{0,3}}|{_BEFORE_YEAR}\s+(?:de\s+|du\s+|des\s+|la\s+|l'|les\s+)?"
                )
            )
            pattern = rf"(?:\b(?:{lead})|^\s*|\(\s*)\(?{year}\b"
            for match in re.finditer(pattern, folded):
                found.append(_named(document, question, match.start(), match.end(), is_faq))
        if is_faq and "—" in document.title:
            name = fold_aligned(document.title.split("—", 1)[1].strip())
            if name:
                for match in re.finditer(rf"\b{re.escape(name)}\b", folded):
                    found.append(_named(document, question, match.start(), match.end(), is_faq))
    if not found:
        return None
    return max(found, key=lambda named: (named.start, named.restricts))


def _named(document, question: str, start: int, end: int, is_faq: bool) -> NamedEdition:
    while start < end and not question[start].isalnum():
        start += 1
    return NamedEdition(document.edition, question[start:end], start, end, not is_faq, document.title)
