"""The offline rulebook's search index: every rule and glossary entry of the
book, with where it is and the words it holds, and the players' words that
name them, as a small JavaScript file.

From ``file://`` a browser refuses ``fetch()`` of a local JSON file, so the
index is a script that assigns a global (``window.RULES_KB_INDEX = {…}``),
loaded by a ``<script src>`` tag of each page, before the search script
(``static/livre.js``) that reads it. Its shape (format 2)::

    {"format": 2, "edition": "2004",            # the default edition (a typed number goes there first)
     "width": 2,                                # the digits (of DIGITS, base 64) of one word code
     "stop": ["les", …],                        # words never indexed (the script skips them in a query)
     "small": ["a", "au", …],                   # words a player's form or a name may leave out
     "typo": [5, 1, 8, 2],                      # typing errors tolerated: none under 5 letters, 1 under 8, else 2
     "pages": ["regles-2004-1.html", …],
     "words": ["abandon", …],                   # the folded vocabulary, sorted
     "entries": [["r", "420.5c", "", "2004", 3, "", "Si une créature…", "0a1B…"], …],
     "lexicon": [["trample", "", 1012], ["bounce", "main de son propriétaire"], …]}

An entry is ``[kind ("r" rule, "g" glossary), label (number or term), title,
edition ("" for the glossary), page (index in "pages"), anchor (``""``: the
usual one, ``r420-5c`` for 420.5c), first words, word codes]``: the codes
are the entry's distinct words (title and text; term, forms and
definition), each ``width`` digits of :data:`DIGITS` (base 64) giving its
place in ``"words"``. Words are folded as :func:`rules_kb.core.text.words` folds
them (lowercase, no accents) and the script folds a query the same way.

A lexicon row is a form of the players' lexicon (``rules_kb/data/lexicon.tsv``,
read through ``kb.lexicon`` when the book is exported; :func:`lexicon_rows`)
whose target names something: ``[key, label, entry…]`` — the form's key
(:func:`player_key`: folded words, :data:`~rules_kb.lookup.glossary.SMALL_WORDS`
left out, each in the singular), what the script says it understood
(``""``: the name of its first entry, a glossary term or a rule title) and
the positions in ``"entries"`` of what the target names (a glossary entry
and the entries its "Voir" leads to, or the rules of that title; none for
an expression of the texts, whose words the script searches). ``"small"``
and ``"typo"`` are ``define``'s own (:mod:`rules_kb.lookup.glossary`:
:data:`~rules_kb.lookup.glossary.SMALL_WORDS`,
:data:`~rules_kb.lookup.glossary.TYPO_LENGTH`,
:data:`~rules_kb.lookup.glossary.TYPO_EDITS`). For the bundled corpus (1 137
entries, 2 186 words, 545 lexicon rows) the file is about 190 KB
(``tests/test_book_search.py`` bounds it).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules_kb.core.model import GlossaryEntry, Rule
from rules_kb.core.text import first_sentence, singular, words
from rules_kb.engines.glossary import GlossaryIndex
from rules_kb.engines.lexicon import LexiconEntry
from rules_kb.export.excerpt import rule_anchor
from rules_kb.lookup.glossary import SMALL_WORDS, TYPO_EDITS, TYPO_LENGTH

#: File names of the index and of the script that searches it, in the book's folder.
INDEX_SCRIPT = "recherche-index.js"
SEARCH_SCRIPT = "livre.js"

#: Words too common to search for (folded); one-letter words are never indexed either.
STOP = frozenset(
    [
        "les",
        "des",
        "une",
        "aux",
        "est",
        "sont",
        "qui",
        "que",
        "quoi",
        "dont",
        "par",
        "pour",
        "sur",
        "dans",
        "avec",
        "sans",
        "ses",
        "son",
        "sa",
        "leur",
        "leurs",
        "cette",
        "cet",
        "ces",
        "elle",
        "elles",
        "ils",
        "lui",
        "ont",
        "peut",
        "etre",
        "ete",
        "fait",
        "ne",
        "pas",
        "plus",
        "ou",
        "et",
        "la",
        "le",
        "de",
        "du",
        "un",
        "en",
        "au",
        "il",
        "se",
        "ce",
    ]
)
#: Characters of an entry's first words shown in a result.
FIRST_WORDS = 60
#: The digits of the word codes (base 64; each is safe in a JSON string).
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_"
#: The lexicon's target of a form that names nothing on its own (:mod:`rules_kb.engines.lexicon`).
NAMES_NOTHING = "—"


@dataclass(frozen=True, slots=True)
class IndexEntry:
    """One searchable place of the book: ``kind`` (``"r"`` rule, ``"g"``
    glossary entry), ``label`` (rule number or term), ``title`` (a rule's,
    or ``""``), ``edition`` (``""`` for the glossary), ``page`` (file name)
    and ``anchor`` (id there), ``first`` (the first words of the text) and
    ``words`` (its distinct folded words, in text order)."""

    kind: str
    label: str
    title: str
    edition: str
    page: str
    anchor: str
    first: str
    words: tuple[str, ...]


def _indexed(*texts: str) -> tuple[str, ...]:
    found = (word for text in texts for word in words(text))
    return tuple(dict.fromkeys(word for word in found if word not in STOP and (len(word) > 1 or word.isdigit())))


def rule_entry(rule: Rule, page: str, anchor: str) -> IndexEntry:
    """The index entry of ``rule``, placed at ``page#anchor``."""
    return IndexEntry(
        "r", rule.number, rule.title, rule.edition, page, anchor,
        first_sentence(rule.text, FIRST_WORDS), _indexed(rule.title, rule.text),
    )  # fmt: skip


def glossary_entry(entry: GlossaryEntry, page: str, anchor: str) -> IndexEntry:
    """The index entry of the glossary ``entry``, placed at ``page#anchor``."""
    definition = " ".join(entry.definition)
    return IndexEntry(
        "g", entry.term, "", "", page, anchor,
        first_sentence(definition, FIRST_WORDS), _indexed(entry.term, *entry.forms, definition),
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class LexiconRow:
    """A players' form of the lexicon as the book's search reads it: ``key``
    (:func:`player_key` of the form), ``label`` (what the search says the
    form was understood as: the glossary term, the rule title or the
    lexicon's target as written), ``positions`` (the index entries it names,
    in :func:`index_data`'s order of entries; empty for an expression of the
    texts) and ``lines`` (the lexicon's lines it comes from, from 1)."""

    key: str
    label: str
    positions: tuple[int, ...]
    lines: tuple[int, ...]


def player_key(text: str) -> str:
    """How the book's search compares a query with a players' form or a
    name, as ``define`` does (``_significant`` in :mod:`rules_kb.lookup.glossary`):
    the folded words of ``text`` but :data:`~rules_kb.lookup.glossary.SMALL_WORDS`,
    each in the singular, one space between them (``"Le trample"`` →
    ``"trample"``, ``"Blessures marquées"`` → ``"blessure marquee"``).
    ``livre.js`` computes the same key of what is typed."""
    return " ".join(singular(word) for word in words(text) if word not in SMALL_WORDS)


class _Targets:
    """What a lexicon target may name among the index's ``entries``: glossary
    entries by term, rules by the :func:`player_key` of their title."""

    def __init__(self, entries: Sequence[IndexEntry], glossary: GlossaryIndex, edition: str) -> None:
        self.glossary = glossary
        self.terms = {entry.label: position for position, entry in enumerate(entries) if entry.kind == "g"}
        self.titles: dict[str, list[int]] = {}
        for position, entry in enumerate(entries):
            if entry.kind == "r" and entry.title:
                self.titles.setdefault(player_key(entry.title), []).append(position)
        for positions in self.titles.values():
            positions.sort(key=lambda position: entries[position].edition != edition)
        self.entries = entries

    def named(self, target: str) -> tuple[str, tuple[int, ...]]:
        """``(label, positions)`` of what ``target`` names: a glossary entry
        (``glossary.find``, by headword or form) and the entries its "Voir" lead
        to; else the rules titled so, the default edition's first; else nothing
        (``target`` as written)."""
        found = self.glossary.find(target)
        if found is not None and found.term in self.terms:
            reached = (found, *self.glossary.follow(found))
            return found.term, tuple(self.terms[entry.term] for entry in reached if entry.term in self.terms)
        titled = self.titles.get(player_key(target), [])
        return (self.entries[titled[0]].title if titled else target), tuple(titled)


def lexicon_rows(
    lexicon: Iterable[LexiconEntry], entries: Sequence[IndexEntry], glossary: GlossaryIndex, edition: str
) -> list[LexiconRow]:
    """The rows of the players' ``lexicon`` (``kb.lexicon.entries``, parsed from
    ``rules_kb/data/lexicon.tsv``) for an index of ``entries``: one per form
    and target, in the lexicon's order, but forms whose target names nothing
    (:data:`NAMES_NOTHING`) and forms without a word left (:func:`player_key`);
    a form given twice with targets naming the same is one row, with both lines.
    ``glossary`` (``kb.glossary``) finds a glossary target as ``define`` does;
    ``edition`` (the default one) puts its rule first when a title names several."""
    targets = _Targets(entries, glossary, edition)
    rows: dict[tuple[str, str, tuple[int, ...]], list[int]] = {}
    for item in lexicon:
        key = player_key(item.form)
        if item.target == NAMES_NOTHING or not key:
            continue
        label, positions = targets.named(item.target)
        rows.setdefault((key, label, positions), []).append(item.line)
    return [LexiconRow(key, label, positions, tuple(lines)) for (key, label, positions), lines in rows.items()]


def _code(number: int, width: int) -> str:
    out = ""
    for _ in range(width):
        number, rest = divmod(number, len(DIGITS))
        out = DIGITS[rest] + out
    return out


def _decode(code: str) -> int:
    number = 0
    for digit in code:
        number = number * len(DIGITS) + DIGITS.index(digit)
    return number


def _lexicon_row(row: LexiconRow, entries: Sequence[IndexEntry]) -> list:
    first = entries[row.positions[0]] if row.positions else None
    name = first and (first.label if first.kind == "g" else first.title)
    return [row.key, "" if row.label == name else row.label, *row.positions]


def index_data(entries: list[IndexEntry], edition: str, lexicon: Sequence[LexiconRow] = ()) -> dict:
    """The index of ``entries`` as JSON-ready data (shape in the module's
    docstring); ``edition`` is the default edition, ``lexicon`` the players'
    forms (:func:`lexicon_rows` of the same ``entries``)."""
    vocabulary = sorted({word for entry in entries for word in entry.words})
    place = {word: position for position, word in enumerate(vocabulary)}
    width = 1
    while len(DIGITS) ** width < len(vocabulary):
        width += 1
    pages = list(dict.fromkeys(entry.page for entry in entries))
    page_number = {page: position for position, page in enumerate(pages)}
    rows = [
        [
            entry.kind,
            entry.label,
            entry.title,
            entry.edition,
            page_number[entry.page],
            "" if entry.kind == "r" and entry.anchor == rule_anchor(entry.label) else entry.anchor,
            entry.first,
            "".join(_code(place[word], width) for word in entry.words),
        ]
        for entry in entries
    ]
    typo = [TYPO_LENGTH, TYPO_EDITS[0], TYPO_EDITS[1], TYPO_EDITS[2]]
    return {
        "format": 2, "edition": edition, "width": width, "stop": sorted(STOP), "small": sorted(SMALL_WORDS),
        "typo": typo, "pages": pages, "words": vocabulary, "entries": rows,
        "lexicon": [_lexicon_row(row, entries) for row in lexicon],
    }  # fmt: skip


def index_script(entries: list[IndexEntry], edition: str, lexicon: Sequence[LexiconRow] = ()) -> bytes:
    """The file :data:`INDEX_SCRIPT`: ``window.RULES_KB_INDEX = {…};`` (UTF-8); arguments as
    :func:`index_data`'s."""
    data = json.dumps(index_data(entries, edition, lexicon), ensure_ascii=False, separators=(",", ":"))
    return f"window.RULES_KB_INDEX = {data};\n".encode()


def read_index(script: bytes) -> dict:
    """The data of an index file made by :func:`index_script`, with each
    entry's anchor filled in and its codes decoded back to its words (for
    tests and tools); lexicon rows as written (``[key, label, position…]``).
    Raises ValueError for another file."""
    text = script.decode("utf-8").strip()
    prefix = "window.RULES_KB_INDEX = "
    if not text.startswith(prefix) or not text.endswith(";"):
        raise ValueError("not the search index of an offline rulebook")
    data = json.loads(text[len(prefix) : -1])
    width, vocabulary = data["width"], data["words"]
    for row in data["entries"]:
        row[5] = row[5] or rule_anchor(row[1])
        codes = row[7]
        row[7] = [vocabulary[_decode(codes[i : i + width])] for i in range(0, len(codes), width)]
    return data
