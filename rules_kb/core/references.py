"""References to rules and glossary entries in a French rules text.

Reads the ways the documents refer to rules and terms:

- one rule: ``Voir règle 420.``, ``(voir règle 503, "Copier des objets")``,
  ``Cf. règle 608.2g``, ``exception à la règle 103.4``;
- lists: ``Voir règle 419.6e et 419.6f``, ``Voir règles 405, "Capacités
  statiques", 418, "Effets continus" et 419``;
- ranges: ``409.1f-h``, ``règles 418.5b-418.5g``, ``409.1a à 409.1h``,
  ``règles 306-311``, with any dash French typography prints (``409.1f–h``,
  ``306—311``) and a letter after *à* (``409.1a à h``);
- letters of one rule: ``règle 420.5a, b et c``, ``419.6e et f``;
- chapters and sections: ``la section 4``, ``Section 110 dans les règles
  complètes``;
- glossary entries and FAQ parts: ``Voir aussi "Contrôleur" et
  "Propriétaire"``, ``Voir la partie « Cartes sans coût de mana »``.

A dotted number (``420.5c``) is a reference wherever it stands; a bare
number (``420``, ``4``) only after *règle*, *section*, *paragraphe*,
*chapitre*, *étape* or in a list that such a word began, and a bare
section (``420``) right after *voir* or *cf.*, so that "121 cartes" or "20
points de vie" are not references. A letter read as a subrule ("à h", ", b
et c") comes after the first letter and is no elided word ("à d'autres").
The parser reports what is printed; :meth:`Reference.expand` turns a range into the rules that exist in
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
#: The dashes a range is printed with: hyphen, non-breaking hyphen, figure
#: dash, en dash, em dash, minus sign (French typography prints ranges with an en dash).
DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2212"
_DASH = re.escape(DASHES)  # inside a character class: the hyphen escaped
#: What stands right before a number that is a reference rather than the
#: start of a rule: a word of :data:`REFERENCE_WORDS`, "voir", a list
#: connector, or a range dash (:data:`DASHES`), comma or bracket (use with re.IGNORECASE).
REFERENCE_BEFORE = r"(?:\b(?:" + KEYWORD[3:-1] + r"|voir|et|à|ou)|[,(" + _DASH + r"])\s*$"
#: A rule number as printed; group ``n``. Also the malformed ``410.10.c``.
_NUMBER = r"(?P<n>\d{3}(?:\.\d+(?:\.?[a-z](?![a-z]))?)?|\d(?!\d|\.\d))"
#: A quoted title after a number: "…", « … », “…”, '…" (the sources mix them).
_TITLE = r"""(?:\s*,?\s*(?P<title>["«“'](?:[^"«»“”\n]{1,90})["»”]))"""
#: Between the two ends of a range: a dash, or "à".
_TO = r"(?:\s*[" + _DASH + r"]\s*|\s+à\s+)"
#: A subrule letter standing alone: not the start of a word nor an elided one ("d'un").
_LETTER = r"[a-z](?![\w'’/])"

_TOKEN_RE = re.compile(
    r"(?<![\w.,/{+" + _DASH + r"])"
    r"(?:(?P<keyword>" + KEYWORD + r")\s+(?:n°\s*)?|(?P<see>\b(?:voir|cf\.))\s+)?" + _NUMBER + r"(?![\w/}])"
    r"(?:(?P<dash>" + _TO + r")(?P<to_letter>" + _LETTER + r")"
    r"|(?P<to>" + _TO + r")(?P<m>\d{3}(?:\.\d+[a-z]?)?)(?![\w/}]))?"
    r"\.?(?:" + _TITLE + r")?",
    re.IGNORECASE,
)

#: One more letter of the same rule after a subrule ("420.5a, b et c", "419.6e et f").
_NEXT_LETTER_RE = re.compile(r"(?:\s*,\s*(?:(?:et|ou)\s+)?|\s+(?:et|ou)\s+)(?P<letter>" + _LETTER + r")", re.IGNORECASE)

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


def _follows(number: str, letter: str) -> bool:
    """True when ``letter`` is a subrule letter after the last letter of the subrule ``number``."""
    return (
        RuleNumber.parse(number).level is Level.SUBRULE
        and letter in SUBRULE_LETTERS
        and SUBRULE_LETTERS.index(letter) > SUBRULE_LETTERS.index(number[-1])
    )


def _next_letters(text: str, position: int, first: str, references: list[Reference]) -> int:
    """Add a reference for each further letter of ``first``'s rule printed
    from ``position`` ("420.5a, b et c": 420.5b, 420.5c), each after the
    one before; returns where the last one ends (``position`` if none)."""
    number = first
    while (match := _NEXT_LETTER_RE.match(text, position)) and _follows(number, match["letter"].lower()):
        number = number[:-1] + match["letter"].lower()
        references.append(
            Reference(ReferenceKind.RULE, match["letter"], match.start("letter"), match.end(), number, number)
        )
        position = match.end()
    return position


def find_references(text: str) -> tuple[Reference, ...]:
    """Every reference in ``text``, in order.

    Never raises: text that only looks like a reference (a date, a P/T, a
    count of cards) is not one. A term pointer ("Voir aussi "X"") gives
    one :class:`Reference` per quoted name.
    """
    references: list[Reference] = []
    previous_end = -1
    listed_by = ""  # the reference word that began the current list ("sections 3 et 4")
    for match in _TOKEN_RE.finditer(text):
        printed = match["n"]
        bare = "." not in printed
        in_list = previous_end >= 0 and _LIST_GAP_RE.match(text[previous_end : match.start()]) is not None
        keyword = match["keyword"] or (listed_by if in_list else "")
        listed_by = keyword.lower()
        if bare:
            seen_section = match["see"] is not None and len(printed) == 3
            if not keyword and not in_list and not seen_section:
                continue
            if len(printed) == 1 and not keyword.lower().startswith(("section", "chapitre")):
                continue
        first, malformed = _canonical(printed)
        if not _valid(first):
            continue
        last = first
        kind = ReferenceKind.RULE
        end = match.end("n")
        if match["to_letter"]:
            letter = match["to_letter"].lower()
            if _follows(first, letter):
                last, kind, end = first[:-1] + letter, ReferenceKind.RANGE, match.end("to_letter")
        elif match["m"]:
            candidate = match["m"].lower()
            if _valid(candidate) and RuleNumber.parse(candidate) > RuleNumber.parse(first):
                last, kind, end = candidate, ReferenceKind.RANGE, match.end("m")
        start = match.start("keyword") if match["keyword"] else match.start("n")
        misread_range = kind is ReferenceKind.RULE and (match["to_letter"] or match["m"])
        title = match["title"][1:-1].strip() if match["title"] and not misread_range else ""
        references.append(Reference(kind, text[start:end], start, end, first, last, title, malformed))
        previous_end = match.end("title") if title else end
        if kind is ReferenceKind.RULE and not title:
            previous_end = _next_letters(text, previous_end, first, references)
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
