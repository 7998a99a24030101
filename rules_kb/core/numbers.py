"""Rule numbers of the comprehensive rules: parsing, ordering, succession.

The comprehensive rules number their text on four levels (2004 edition and
all later ones):

- chapter ``4`` (printed ``4. Sorts, capacités et effets``),
- section ``420`` (printed ``420.``),
- rule ``420.5`` (printed ``420.5.`` or ``420.5``),
- subrule ``420.5c`` (printed ``420.5c`` or ``420.5c.``).

Subrule letters skip *l* and *o*, which could be mistaken for digits.
"""

from __future__ import annotations

import enum
import re
from typing import NamedTuple

from rules_kb.core.errors import RulesKbError
from rules_kb.core.text import shortened

#: Subrule letters in order; *l* and *o* are never used.
SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz"

_NUMBER_RE = re.compile(
    r"^\s*(?:(?P<chapter>\d)|(?P<section>[1-9]\d{2})(?:\.(?P<rule>\d{1,6})(?P<letter>[a-z])?)?)\.?\s*$",
    re.IGNORECASE | re.ASCII,
)


class Level(enum.IntEnum):
    """Depth of a numbered rule in the rules tree."""

    CHAPTER = 0
    """``4``: a chapter heading."""
    SECTION = 1
    """``420``: a section, whose text is its title."""
    RULE = 2
    """``420.5``: a rule."""
    SUBRULE = 3
    """``420.5c``: a lettered subrule."""

    @property
    def label(self) -> str:
        """What a rule of this level is called in French (``"Sous-règle"``)."""
        return _LEVEL_LABELS[self][0]

    @property
    def children_label(self) -> str:
        """What its children are called (``"Sous-règles"``; ``""`` for a subrule)."""
        return _LEVEL_LABELS[self][1]


_LEVEL_LABELS = {
    Level.CHAPTER: ("Chapitre", "Sections"),
    Level.SECTION: ("Section", "Règles"),
    Level.RULE: ("Règle", "Sous-règles"),
    Level.SUBRULE: ("Sous-règle", ""),
}


class RuleNumberError(RulesKbError, ValueError):
    """A string is not a rule number; ``text`` holds it, ``suggestion`` the
    existing number it may stand for (``"420.5"`` for ``"42O.5"``; ``""``: none)."""

    def __init__(self, text: str, suggestion: str = "") -> None:
        self.text = text
        self.suggestion = suggestion
        shown = shortened(text, 40)
        if suggestion:
            super().__init__(f"« {shown} » n'est pas un numéro de règle : vouliez-vous dire {suggestion} ?")
            return
        super().__init__(
            f"« {shown} » n'est pas un numéro de règle. "
            "Formes acceptées : 4 (chapitre), 420 (section), 420.5 (règle), 420.5c (sous-règle)."
        )


class RuleNumber(NamedTuple):
    """A parsed rule number, ordered as the rules are printed.

    ``chapter`` is the chapter digit (1–9); ``section`` is the three-digit
    section (``-1`` for a chapter); ``rule`` is the number after the dot
    (``-1`` for a section or chapter); ``letter`` is the subrule letter
    (``""`` when there is none). Comparison follows document order.
    """

    chapter: int
    section: int = -1
    rule: int = -1
    letter: str = ""

    @classmethod
    def parse(cls, text: str) -> RuleNumber:
        """Parse ``"420.5c"``, ``"420.5."``, ``"420"``, ``"4"``.

        A trailing dot and surrounding spaces are ignored, letters are
        lowercased. Raises :class:`RuleNumberError` for anything else,
        including the unused letters *l* and *o*.
        """
        match = _NUMBER_RE.match(text)
        if not match:
            raise RuleNumberError(text)
        if match["chapter"]:
            return cls(int(match["chapter"]))
        section = int(match["section"])
        rule = int(match["rule"]) if match["rule"] else -1
        letter = (match["letter"] or "").lower()
        if letter and letter not in SUBRULE_LETTERS:
            raise RuleNumberError(text)
        return cls(section // 100, section, rule, letter)

    @property
    def level(self) -> Level:
        """The :class:`Level` of this number."""
        if self.section < 0:
            return Level.CHAPTER
        if self.rule < 0:
            return Level.SECTION
        return Level.SUBRULE if self.letter else Level.RULE

    @property
    def parent(self) -> RuleNumber | None:
        """The number one level up (``420.5c`` → ``420.5`` → ``420`` → ``4``), or None."""
        level = self.level
        if level is Level.SUBRULE:
            return RuleNumber(self.chapter, self.section, self.rule)
        if level is Level.RULE:
            return RuleNumber(self.chapter, self.section)
        if level is Level.SECTION:
            return RuleNumber(self.chapter)
        return None

    def successors(self) -> tuple[RuleNumber, ...]:
        """Numbers that may directly follow this one in a complete document.

        After ``420.5c``: ``420.5d``, ``420.6``, ``421``, and the first section
        of the next chapter (``5``, or ``500`` where chapter headings are not
        printed). After a section ``420``: ``420.1``. After
        a chapter ``4``: ``400``.
        """
        level = self.level
        if level is Level.CHAPTER:
            return (RuleNumber(self.chapter, self.chapter * 100),)
        if level is Level.SECTION:
            return (RuleNumber(self.chapter, self.section, 1),)
        following: list[RuleNumber] = []
        if level is Level.RULE:
            following.append(RuleNumber(self.chapter, self.section, self.rule, "a"))
        else:
            index = SUBRULE_LETTERS.index(self.letter)
            if index + 1 < len(SUBRULE_LETTERS):
                following.append(RuleNumber(self.chapter, self.section, self.rule, SUBRULE_LETTERS[index + 1]))
        following.append(RuleNumber(self.chapter, self.section, self.rule + 1))
        if (self.section + 1) // 100 == self.chapter:
            following.append(RuleNumber(self.chapter, self.section + 1))
        following.append(RuleNumber(self.chapter + 1))
        following.append(RuleNumber(self.chapter + 1, (self.chapter + 1) * 100))
        return tuple(following)

    def __str__(self) -> str:
        level = self.level
        if level is Level.CHAPTER:
            return str(self.chapter)
        if level is Level.SECTION:
            return str(self.section)
        return f"{self.section}.{self.rule}{self.letter}"


def sort_key(number: str) -> RuleNumber:
    """Sort key for a canonical rule number string (document order)."""
    return RuleNumber.parse(number)
