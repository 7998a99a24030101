"""Keywords of later rules: what players say today that the corpus's editions do not know.

``rules_kb/data/later-keywords.tsv`` lists the keywords players use that
appeared after the corpus's editions (*deathtouch*/contact mortel,
*lifelink*/lien de vie, *hexproof*…), each with the year and set it
appeared in, the nearest notion of the corpus (a glossary term) when there
is one, and its source (common player usage, the set that introduced it).
``ask``, ``define`` and ``search`` say such a keyword is absent from the
corpus's editions rather than drop it or read it as a typo.

English forms are read anywhere; French forms, which are often everyday
words (« une menace », « à portée »), only as an ability: after « a »
(not « à »), « avec », « gagne », « acquiert », « sans ».
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from rules_kb.core.text import fold, fold_aligned

#: The bundled list of later keywords.
LATER_KEYWORDS_FILE = Path(__file__).resolve().parent.parent / "data" / "later-keywords.tsv"
#: What comes before a French form of a later keyword read as an ability (folded).
_ABILITY_CUE = r"(?P<cue>\ba|\bavec|\bgagnent|\bgagne|\bacquiert|\bacquierent|\bsans|\bont|\bla capacite)\s+(?:la\s+|le\s+|l'|du\s+|de\s+)?"


class LaterKeyword(NamedTuple):
    """A keyword of later rules: its ``english`` and ``french`` forms, the
    ``year`` and ``set`` it appeared in, the ``nearest`` notion of the corpus
    (a glossary term, ``""`` if none), its ``source`` and ``line`` in the file."""

    english: tuple[str, ...]
    french: tuple[str, ...]
    year: int
    set: str
    nearest: str
    source: str
    line: int

    @property
    def name(self) -> str:
        """Its French name."""
        return self.french[0]

    @property
    def meaning(self) -> str:
        """What is said of it, in French: its name, when it appeared, that the corpus lacks it, its nearest notion."""
        said = f"{self.name}, mot-clé apparu en {self.year} ({self.set}), absent des éditions du corpus"
        return said + (f" ; notion la plus proche : {self.nearest}" if self.nearest else "")


class LaterKeywordsFileError(ValueError):
    """A line of the later keywords file is not valid; ``line`` from 1."""

    def __init__(self, message: str, path: str, line: int) -> None:
        super().__init__(f"{path}, ligne {line} : {message}")
        self.path = path
        self.line = line


def read_later_keywords(path: str | Path = LATER_KEYWORDS_FILE) -> tuple[LaterKeyword, ...]:
    """The later keywords of a TSV file (six columns, ``#`` comments). Raises
    :class:`LaterKeywordsFileError` for a line without six columns, without
    a French form or with a year that is not a number."""
    found = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        columns = line.split("\t")
        if len(columns) != 6:
            raise LaterKeywordsFileError(f"six colonnes attendues, {len(columns)} trouvées", str(path), number)
        english, french, year, set_name, nearest, source = (column.strip() for column in columns)
        forms = tuple(form.strip() for form in french.split("|") if form.strip())
        if not forms or not year.isdigit() or not source:
            raise LaterKeywordsFileError("forme française, année (nombre) et source attendues", str(path), number)
        found.append(LaterKeyword(
            tuple(form.strip() for form in english.split("|") if form.strip() and form.strip() != "—"),
            forms, int(year), set_name, "" if nearest == "—" else nearest, source, number,
        ))  # fmt: skip
    return tuple(found)


_bundled: tuple[LaterKeyword, ...] | None = None
_patterns: list[tuple[re.Pattern, LaterKeyword]] | None = None


def bundled_later_keywords() -> tuple[LaterKeyword, ...]:
    """The bundled later keywords, read once."""
    global _bundled
    if _bundled is None:
        _bundled = read_later_keywords()
    return _bundled


def _keyword_patterns() -> list[tuple[re.Pattern, LaterKeyword]]:
    global _patterns
    if _patterns is None:
        _patterns = []
        for keyword in bundled_later_keywords():
            for form in keyword.english:
                _patterns.append((re.compile(rf"\b{re.escape(fold(form))}s?\b"), keyword))
            for form in keyword.french:
                _patterns.append((re.compile(rf"{_ABILITY_CUE}({re.escape(fold(form))})\b"), keyword))
    return _patterns


def find_later_keywords(text: str) -> list[tuple[int, int, LaterKeyword]]:
    """``(start, end, keyword)`` of each later keyword ``text`` names (module
    docstring), each keyword once (where it is first named), in the text's order."""
    folded = fold_aligned(text)
    found: dict[LaterKeyword, tuple[int, int, LaterKeyword]] = {}
    for pattern, keyword in _keyword_patterns():
        for match in pattern.finditer(folded):
            if "cue" in pattern.groupindex and text[match.start("cue")] == "à":
                continue  # "à portée": a place, not the verb "a"
            start, end = match.span(match.lastindex or 0)
            if keyword not in found or start < found[keyword][0]:
                found[keyword] = (start, end, keyword)
    return sorted(found.values(), key=lambda item: item[0])


def later_keyword_named(term: str) -> LaterKeyword | None:
    """The later keyword ``term`` is, in one of its forms (any case or
    accents, a plural "s" allowed), or None: a term looked up alone is read
    as the keyword whatever the language of the form."""
    wanted = fold(term).strip()
    for keyword in bundled_later_keywords():
        for form in (*keyword.english, *keyword.french):
            folded = fold(form)
            if wanted in (folded, folded + "s"):
                return keyword
    return None


class LaterKeywords:
    """The bundled keywords of later rules as an engine: :meth:`find` and
    :meth:`named` (a :class:`rules_kb.loader.KnowledgeBase` hands out
    :data:`LATER_KEYWORDS`)."""

    @property
    def entries(self) -> tuple[LaterKeyword, ...]:
        """Every keyword of ``rules_kb/data/later-keywords.tsv``, in the file's order."""
        return bundled_later_keywords()

    def find(self, text: str) -> list[tuple[int, int, LaterKeyword]]:
        """:func:`find_later_keywords`: ``(start, end, keyword)`` of each keyword ``text`` names."""
        return find_later_keywords(text)

    def named(self, term: str) -> LaterKeyword | None:
        """:func:`later_keyword_named`: the keyword ``term`` is, or None."""
        return later_keyword_named(term)


#: The one table of later keywords.
LATER_KEYWORDS = LaterKeywords()
