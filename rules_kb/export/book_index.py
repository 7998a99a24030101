"""The offline rulebook's search index: every rule and glossary entry of the
book, with where it is and the words it holds, as a small JavaScript file.

From ``file://`` a browser refuses ``fetch()`` of a local JSON file, so the
index is a script that assigns a global (``window.RULES_KB_INDEX = {…}``),
loaded by a ``<script src>`` tag of each page, before the search script
(``static/livre.js``) that reads it. Its shape (format 1)::

    {"format": 1, "edition": "2004",            # the default edition (a typed number goes there first)
     "width": 2,                                # the digits (of DIGITS, base 64) of one word code
     "stop": ["les", …],                        # words never indexed (the script skips them in a query)
     "pages": ["regles-2004-1.html", …],
     "words": ["abandon", …],                   # the folded vocabulary, sorted
     "entries": [["r", "420.5c", "", "2004", 3, "", "Si une créature…", "0a1B…"], …]}

An entry is ``[kind ("r" rule, "g" glossary), label (number or term), title,
edition ("" for the glossary), page (index in "pages"), anchor (``""``: the
usual one, ``r420-5c`` for 420.5c), first words, word codes]``: the codes
are the entry's distinct words (title and text; term, forms and
definition), each ``width`` digits of :data:`DIGITS` (base 64) giving its
place in ``"words"``. Words are folded as :func:`rules_kb.core.text.words` folds
them (lowercase, no accents) and the script folds a query the same way.
For the bundled corpus (1 137 entries, 2 186 words) the file is about 177 KB (``tests/test_book_search.py``
bounds it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from rules_kb.core.model import GlossaryEntry, Rule
from rules_kb.core.text import first_sentence, words
from rules_kb.export.excerpt import rule_anchor

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


def index_data(entries: list[IndexEntry], edition: str) -> dict:
    """The index of ``entries`` as JSON-ready data (shape in the module's
    docstring); ``edition`` is the default edition."""
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
    return {
        "format": 1, "edition": edition, "width": width, "stop": sorted(STOP),
        "pages": pages, "words": vocabulary, "entries": rows,
    }  # fmt: skip


def index_script(entries: list[IndexEntry], edition: str) -> bytes:
    """The file :data:`INDEX_SCRIPT`: ``window.RULES_KB_INDEX = {…};`` (UTF-8)."""
    data = json.dumps(index_data(entries, edition), ensure_ascii=False, separators=(",", ":"))
    return f"window.RULES_KB_INDEX = {data};\n".encode()


def read_index(script: bytes) -> dict:
    """The data of an index file made by :func:`index_script`, with each
    entry's anchor filled in and its codes decoded back to its words (for
    tests and tools). Raises ValueError for another file."""
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
