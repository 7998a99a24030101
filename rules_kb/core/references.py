"""References to rules and glossary entries in a French rules text.

Reads the ways the documents refer to rules and terms:

- one rule: ``Voir règle 420.``, ``(voir règle 503, "Copier des objets")``,
  ``Cf. règle 608.2g``, ``exception à la règle 103.4``;
- lists: ``Voir règle 419.6e et 419.6f``, ``Voir règles 405, "Capacités
  statiques", 418, "Effets continus" et 419``;
- ranges: ``409.1f-h``, ``règles 418.5b-418.5g``, ``409.1a à 409.1h``,
  ``règles 306-311``;
- chapters and sections: ``la section 4``, ``Section 110 dans les règles
  complètes``;
- glossary entries and FAQ parts: ``Voir aussi "Contrôleur" et
  "Propriétaire"``, ``Voir la partie « Cartes sans coût de mana »``.

A dotted number (``420.5c``) is a reference wherever it stands; a bare
number (``420``, ``4``) only after *règle*, *section*, *paragraphe*,
*chapitre*, *étape* or in a list that such a word began, so that "121
cartes" or "20 points de vie" are not references. The parser reports what is
printed; :meth:`Reference.expand` turns a range into the rules that exist in
it, and :mod:`rules_kb.graph` resolves references against an edition.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from typing import NamedTuple

from rules_kb.core.numbers import SUBRULE_LETTERS, Level, RuleNumber, RuleNumberError
from rules_kb.core.text import strip_accents


class ReferenceKind(enum.Enum):
    """What a reference points to."""

    RULE = "rule"
    """One rule, section or chapter (``règle 420.5c``, ``section 4``)."""
    RANGE = "range"
    """Every rule between two numbers (``409.1f-h``, ``règles 306-311``)."""
    TERM = "term"
    """A glossary entry or a part of the same document, by its quoted name."""


class Reference(NamedTuple):
    """One reference found in a text.

    ``text`` is the reference as printed (``"409.1f-h"``, ``"règle 420"``
    for the first of a list, ``"Contrôleur"`` for a term); ``start`` and
    ``end`` its 0-based character range in the text read. For rules,
    ``first`` and ``last`` are canonical numbers (equal unless a range);
    ``title`` is the quoted title printed after the number, if any
    (``"Copier des objets"``). For a term, ``first`` and ``last`` are
    ``""`` and ``title`` holds the quoted name. ``malformed`` is True when
    the number was printed in a form the rules never use (``410.10.c``) and
    was read as the nearest valid one (``410.10c``).
    """

    kind: ReferenceKind
    text: str
    start: int
    end: int
    first: str = ""
    last: str = ""
    title: str = ""
    malformed: bool = False

    @property
    def numbers(self) -> tuple[str, ...]:
        """The numbers printed: ``(first,)``, ``(first, last)`` for a range, ``()`` for a term."""
        if self.kind is ReferenceKind.TERM:
            return ()
        return (self.first,) if self.first == self.last else (self.first, self.last)

    def expand(self, existing: Iterable[str]) -> tuple[str, ...]:
        """The numbers among ``existing`` (canonical) that this reference designates.

        A rule reference gives its number if it exists; a range gives every
        existing number between ``first`` and ``last`` (inclusive, in rule
        order) at the level of ``first`` (``306-311`` gives the sections
        306 to 311, not their rules). A term gives ``()``.
        """
        if self.kind is ReferenceKind.TERM:
            return ()
        existing = set(existing)
        if self.kind is ReferenceKind.RULE:
            return (self.first,) if self.first in existing else ()
        low, high = RuleNumber.parse(self.first), RuleNumber.parse(self.last)
        found = []
        for number in existing:
            parsed = RuleNumber.parse(number)
            if low <= parsed <= high and parsed.level == low.level:
                found.append(parsed)
        return tuple(str(number) for number in sorted(found))


#: The words that introduce rule numbers ("règle 420", "paragraphes 409.1b et
#: 409.1f-h", "Section 110", "étape 3"), singular; the documents also print
#: them in the plural, capitalised, and without their accent.
REFERENCE_WORDS = ("règle", "paragraphe", "section", "chapitre", "étape")


def _word_pattern(word: str) -> str:
    """``"règle"`` → ``"r[èe]gles?"``: a reference word, accent optional, plural optional."""
    return "".join(f"[{char}{strip_accents(char)}]" if strip_accents(char) != char else char for char in word) + "s?"


#: A word of :data:`REFERENCE_WORDS`, as a regular expression (use with re.IGNORECASE).
KEYWORD = "(?:" + "|".join(_word_pattern(word) for word in REFERENCE_WORDS) + ")"
#: What stands right before a number that is a reference rather than the
#: start of a rule: a word of :data:`REFERENCE_WORDS`, "voir", a list
#: connector, or a range dash, comma or bracket (use with re.IGNORECASE).
REFERENCE_BEFORE = r"(?:\b(?:" + KEYWORD[3:-1] + r"|voir|et|à|ou)|[-,(–])\s*$"
#: A rule number as printed; group ``n``. Also the malformed ``410.10.c``.
_NUMBER = r"(?P<n>\d{3}(?:\.\d+(?:\.?[a-z](?![a-z]))?)?|\d(?![\d.]))"
#: A quoted title after a number: "…", « … », “…”, '…" (the sources mix them).
_TITLE = r"""(?:\s*,?\s*(?P<title>["«“'](?:[^"«»“”\n]{1,90})["»”]))"""

_TOKEN_RE = re.compile(
    r"(?<![\w.,/{+\-])"
    r"(?:(?P<keyword>" + KEYWORD + r")\s+(?:n°\s*)?)?" + _NUMBER + r"(?![\w/}])"
    r"(?:(?P<dash>\s*-\s*)(?P<to_letter>[a-z])(?!\w)"
    r"|(?P<to>\s*-\s*|\s+à\s+)(?P<m>\d{3}(?:\.\d+[a-z]?)?)(?![\w/}]))?"
    r"\.?(?:" + _TITLE + r")?",
    re.IGNORECASE,
)

#: What may stand between two items of one list ("et", ", ", "et la règle").
_LIST_GAP_RE = re.compile(
    r"^\s*(?:[,;]?\s*(?:et|ou)?\s*(?:(?:la|les|aux?|de la)\s+)?(?:" + KEYWORD + r")?\s*(?:n°\s*)?)$",
    re.IGNORECASE,
)

#: "Voir aussi "X" et "Y"", "voir la partie « X »": quoted names pointed to.
_POINTER_RE = re.compile(
    r"\b(?:[Vv]oir|[Cc]f\.)(?:\s+aussi)?(?:\s+(?:la partie|l'entrée|l’entrée|le glossaire,?))?\s*"
    r"(?P<names>[\"«“]\s*[^\"«»“”]{1,60}?\s*[\"»”](?:\s*(?:,\s*(?:et|ou)?|et|ou)\s*[\"«“]?\s*[^\"«»“”]{1,60}?\s*[\"»”])*)"
)
_NAME_RE = re.compile(r"[^\"«»“”]+")
_CONNECTORS = frozenset({"", ",", "et", "ou"})


def _canonical(printed: str) -> tuple[str, bool]:
    """``("410.10c", True)`` for ``"410.10.c"``; ``("420.5c", False)`` for ``"420.5C"``."""
    section, dot, rest = printed.partition(".")
    return (section + dot + rest.replace(".", "")).lower(), "." in rest


def _valid(number: str) -> bool:
    try:
        RuleNumber.parse(number)
    except RuleNumberError:
        return False
    return True


def find_references(text: str) -> tuple[Reference, ...]:
    """Every reference in ``text``, in order.

    Never raises: text that only looks like a reference (a date, a P/T, a
    count of cards) is not one. A term pointer ("Voir aussi "X"") gives
    one :class:`Reference` per quoted name.
    """
    references: list[Reference] = []
    previous_end = -1
    for match in _TOKEN_RE.finditer(text):
        printed = match["n"]
        bare = "." not in printed
        keyword = match["keyword"]
        if bare:
            in_list = previous_end >= 0 and _LIST_GAP_RE.match(text[previous_end : match.start()]) is not None
            if keyword is None and not in_list:
                continue
            if len(printed) == 1 and not (keyword and keyword.lower().startswith(("section", "chapitre"))):
                continue
        first, malformed = _canonical(printed)
        if not _valid(first):
            continue
        last = first
        kind = ReferenceKind.RULE
        if match["to_letter"]:
            letter = match["to_letter"].lower()
            if RuleNumber.parse(first).level is not Level.SUBRULE or letter not in SUBRULE_LETTERS:
                continue
            last = first[:-1] + letter
            kind = ReferenceKind.RANGE
        elif match["m"]:
            candidate = match["m"].lower()
            if _valid(candidate) and RuleNumber.parse(candidate) > RuleNumber.parse(first):
                last, kind = candidate, ReferenceKind.RANGE
        end = (
            match.end("to_letter")
            if match["to_letter"]
            else match.end("m")
            if kind is ReferenceKind.RANGE
            else match.end("n")
        )
        start = match.start("keyword") if keyword else match.start("n")
        title = match["title"][1:-1].strip() if match["title"] else ""
        references.append(Reference(kind, text[start:end], start, end, first, last, title, malformed))
        previous_end = match.end("title") if match["title"] else end
    for match in _POINTER_RE.finditer(text):
        names = match["names"]
        offset = match.start("names")
        for name in _NAME_RE.finditer(names):
            term = name.group(0).strip()
            if term.strip(" ,;") in _CONNECTORS:
                continue
            start = offset + name.start() + (len(name.group(0)) - len(name.group(0).lstrip()))
            references.append(Reference(ReferenceKind.TERM, term, start, start + len(term), title=term))
    references.sort(key=lambda reference: reference.start)
    return tuple(references)


def rule_numbers_in(text: str) -> tuple[str, ...]:
    """Rule numbers mentioned in ``text``, in order of first mention, without
    duplicates; a range gives its two ends (``"Voir règles 409.1e et 310.2."``
    → ``("409.1e", "310.2")``)."""
    seen: dict[str, None] = {}
    for reference in find_references(text):
        for number in reference.numbers:
            seen.setdefault(number, None)
    return tuple(seen)
