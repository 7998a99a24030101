"""The full-text index: its schema, its tables, querying it, snippets.

One document per record (:func:`index_records`), searched in the fields
:data:`FIELDS` with BM25F as Whoosh scores it (``number`` ×8, ``title``
×3, ``examples`` ×0.6).

Most queries are plain words, and opening Whoosh does not fit in a
lookup's budget: its modules, and asyncio, which its dependency
``cached_property`` imports, add 85 ms to ``search`` and ``ask``
(``search`` from 8.4 to 14.2 times ``python -c pass``, budget 10; ``ask``
from 19.8 to 25.7, budget 20), and writing its index at each build 0.85 s
(budget 3 s; measured for issue 35 with ``bench/run.py``). So the build
computes, for every term of every field, its postings with the score
Whoosh's BM25F scorer would give each (:func:`compute_tables`, from the
statistics Whoosh's writer keeps) and stores them in the cache database
with every document (:func:`write_tables`). A query of words
(:func:`word_query`: the query Whoosh's parser makes of it) is answered
from those tables (:meth:`SearchIndex.run`). A query with quoted phrases,
the only syntax of Whoosh's query language a user may type (operators and
fields are refused: :func:`check_query`), is answered by Whoosh itself, on
an index written from the same documents the first time one is asked
(:meth:`SearchIndex.whoosh`).
``tests/test_search_index.py`` checks the analysis, every posting's score
and the hits of word queries against Whoosh.
"""

from __future__ import annotations

import atexit
import marshal
import math
import os
import re
import shutil
import sqlite3
import sys
import tempfile
from array import array
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from rules_kb.core.corpus import Progress, no_progress
from rules_kb.core.errors import IndexBuildError, QueryError, describe_os_error
from rules_kb.core.model import Corpus, RecordKind, card_node, glossary_node, rule_node, ruling_nodes
from rules_kb.engines.analysis import Token, analyze, analyze_numbers, pairs, whoosh_module
from rules_kb.engines.store import Lookup, Store, seal_folder, verify_folder

#: The folder of the Whoosh index in a cache folder.
INDEX_DIR = "index"
#: Searched fields; their boosts are set in the schema (number ≫ title > text, cites > examples).
FIELDS = ("number", "cites", "title", "text", "examples")
#: The boost of each field, applied when a document is indexed (1 for the others).
FIELD_BOOSTS = {"number": 8.0, "title": 3.0, "examples": 0.6}
#: Fields analysed as rule numbers (:func:`rules_kb.engines.analysis.analyze_numbers`); the others as French.
NUMBER_FIELDS = ("number", "cites")
#: Fields a snippet is taken from, in order of preference.
SNIPPET_FIELDS = ("text", "examples", "title")
#: A text up to this many characters is a snippet whole; a longer one is cut around its first match.
SNIPPET_CHARS = 320


# -- documents ------------------------------------------------------------------------


class Stored(NamedTuple):
    """The stored fields of an indexed record: ``kind`` (a :class:`RecordKind`
    value), ``id`` (rule number, term, card name, section title, or ``"<card
    or section>#<n>"`` for a ruling), ``key`` (its graph node id),
    ``edition`` (``""`` for FAQ and course records), ``document`` and
    ``line`` where it was read, ``title``, ``text``, ``examples``,
    ``about`` (a ruling's card or section) and ``depth``."""

    kind: str
    id: str
    key: str
    edition: str
    document: str
    line: int
    title: str
    text: str
    examples: str
    about: str
    depth: int

    def get(self, field: str, default=None):
        """A field by name (as a Whoosh hit answers ``hit.get(field)``)."""
        return getattr(self, field, default)


def index_records(corpus: Corpus) -> Iterator[dict]:
    """The records of ``corpus`` as index documents, in corpus order: dicts
    of the fields of :class:`Stored` (``about`` only for rulings), with
    ``number`` (a rule's own number, and its printed one when misnumbered)
    and ``cites`` (the rule numbers a glossary entry, ruling or course
    section refers to), searched but not stored."""
    for rule in corpus.rules:
        numbers = rule.number if not rule.is_misnumbered else f"{rule.number} {rule.printed_number}"
        yield {
            "kind": RecordKind.RULE.value, "id": rule.number, "key": rule_node(rule), "edition": rule.edition,
            "document": rule.source.document, "line": rule.source.line_start, "number": numbers,
            "title": rule.title, "text": rule.text, "examples": "\n\n".join(rule.examples), "depth": int(rule.level),
        }  # fmt: skip
    for entry in corpus.glossary:
        yield {
            "kind": RecordKind.GLOSSARY.value, "id": entry.term, "key": glossary_node(entry), "edition": entry.edition,
            "document": entry.source.document, "line": entry.source.line_start, "number": "", "cites": " ".join(entry.cites),
            "title": " ".join(dict.fromkeys((entry.term, *entry.forms))), "text": entry.text,
            "examples": "\n\n".join(entry.examples), "depth": 0,
        }  # fmt: skip
    for card in corpus.cards:
        pt = f" {card.power}/{card.toughness}" if card.power or card.toughness else ""
        yield {
            "kind": RecordKind.CARD.value, "id": card.name, "key": card_node(card), "edition": "",
            "document": card.source.document, "line": card.source.line_start, "number": "",
            "title": card.name, "text": f"{card.mana_cost} {card.type_line}{pt} {card.rules_text}".strip(),
            "examples": "\n\n".join(ruling.text for ruling in card.rulings), "depth": 0,
        }  # fmt: skip
    for node, ruling in zip(ruling_nodes(corpus.rulings), corpus.rulings):
        yield {
            "kind": RecordKind.RULING.value, "id": node.split(":", 2)[2], "key": node, "edition": "",
            "document": ruling.source.document, "line": ruling.source.line_start, "number": "", "cites": " ".join(ruling.cites),
            "title": "", "about": ruling.card or ruling.section, "text": ruling.text, "examples": "", "depth": 0,
        }  # fmt: skip
    for position, section in enumerate(corpus.faq_sections, start=1):
        yield {
            "kind": RecordKind.FAQ_SECTION.value, "id": section.title or f"section {position}",
            "key": f"{RecordKind.FAQ_SECTION.value}:{section.faq}:{position}", "edition": "",
            "document": section.source.document, "line": section.source.line_start, "number": "",
            "title": section.title, "text": section.text, "examples": "", "depth": 0,
        }  # fmt: skip
    for position, section in enumerate(corpus.course, start=1):
        yield {
            "kind": RecordKind.COURSE.value, "id": section.title, "key": f"{RecordKind.COURSE.value}:{section.course}:{position}",
            "edition": "", "document": section.source.document, "line": section.source.line_start, "number": "",
            "cites": " ".join(section.points_to), "title": section.title, "text": section.text, "examples": "",
            "depth": section.level,
        }  # fmt: skip


def schema():
    """The Whoosh schema of the index (imports Whoosh)."""
    # deferred: Whoosh's index machinery (55 ms), only to write an index for a quoted phrase (module docstring)
    from whoosh.fields import ID, NUMERIC, STORED, TEXT, Schema

    from rules_kb.engines.whoosh_analysis import ChainTokenizer

    words, numbers = ChainTokenizer(analyze), ChainTokenizer(analyze_numbers)
    return Schema(
        kind=ID(stored=True),
        id=ID(stored=True),
        key=ID(stored=True, unique=True),
        edition=ID(stored=True),
        document=ID(stored=True),
        line=STORED,
        number=TEXT(analyzer=numbers, stored=False, field_boost=FIELD_BOOSTS["number"]),
        cites=TEXT(analyzer=numbers, stored=False),
        title=TEXT(analyzer=words, stored=True, field_boost=FIELD_BOOSTS["title"]),
        text=TEXT(analyzer=words, stored=True),
        examples=TEXT(analyzer=words, stored=True, field_boost=FIELD_BOOSTS["examples"]),
        depth=NUMERIC(stored=True),
        about=STORED,
        order=STORED,
    )


#: The fields of an index document, in the order they are stored: :class:`Stored`'s, then the searched-only ones.
DOCUMENT_FIELDS = (*Stored._fields, "number", "cites")


def write_whoosh(documents: Iterable[tuple], index_dir: Path, progress: Progress = no_progress) -> None:
    """Write the Whoosh index of ``documents`` (tuples of
    :data:`DOCUMENT_FIELDS`, numbered in order) into the new folder ``index_dir``."""
    index = whoosh_module("whoosh.index")
    documents = list(documents)
    index_dir.mkdir(parents=True)
    ix = index.create_in(str(index_dir), schema())
    writer = ix.writer()
    for position, document in enumerate(documents):
        if position % 100 == 0:
            progress("Indexation", position, len(documents))
        writer.add_document(order=position, **dict(zip(DOCUMENT_FIELDS, document)))
    progress("Écriture de l'index", len(documents), len(documents))
    writer.commit()
    seal_folder(index_dir)  # Whoosh unpickles its files: open only these (:func:`verify_folder`)


# -- the tables -----------------------------------------------------------------------

#: BM25F's parameters, Whoosh's defaults (:class:`whoosh.scoring.BM25F`).
BM25_B = 0.75
BM25_K1 = 1.2


class IndexTables(NamedTuple):
    """What a query of words reads.

    ``postings`` maps ``(field, term)`` to ``(docnums, scores)``: the
    documents holding the term, in order, and the BM25F score Whoosh gives
    each; ``documents`` the fields of every document by docnum (tuples of
    :data:`DOCUMENT_FIELDS`); ``filters`` maps ``("edition", value)`` and
    ``("kind", value)`` to the documents having it.
    """

    postings: dict[tuple[str, str], tuple[tuple[int, ...], tuple[float, ...]]]
    documents: tuple[tuple, ...]
    filters: dict[tuple[str, str], tuple[int, ...]]


def bm25(idf: float, weight: float, length: float, average: float) -> float:
    """Whoosh's BM25 of one posting (:func:`whoosh.scoring.bm25`, the same
    operations in the same order, so the same float)."""
    return idf * ((weight * (BM25_K1 + 1)) / (weight + BM25_K1 * ((1 - BM25_B) + BM25_B * length / average)))


def compute_tables(corpus: Corpus) -> IndexTables:
    """The :class:`IndexTables` of ``corpus``: its documents
    (:func:`index_records`) analysed field by field as Whoosh indexes them,
    each posting scored as Whoosh's BM25F scorer scores it.

    Whoosh's statistics, as its writer keeps them: a term's weight in a
    document is its count times the field's boost, as a 32-bit float; a field's length in a
    document is its count of terms, stored as one byte
    (:func:`whoosh.util.numeric.length_to_byte`) and read back rounded
    (``byte_to_length``); the average length is the field's total length
    over the number of documents; the idf is ``log(N / (df + 1)) + 1``.
    ``tests/test_search_index.py`` checks every posting against Whoosh's own scorer.
    """
    numeric = whoosh_module("whoosh.util.numeric")
    byte_to_length, length_to_byte = numeric.byte_to_length, numeric.length_to_byte
    documents = tuple(tuple(record.get(field, "") for field in DOCUMENT_FIELDS) for record in index_records(corpus))
    positions = {field: DOCUMENT_FIELDS.index(field) for field in FIELDS}
    postings: dict[tuple[str, str], tuple[tuple[int, ...], tuple[float, ...]]] = {}
    count = len(documents)
    for field in FIELDS:
        chain = analyze_numbers if field in NUMBER_FIELDS else analyze
        boost = FIELD_BOOSTS.get(field, 1.0)
        found: dict[str, tuple[list[int], list[float]]] = {}
        lengths: dict[int, int] = {}
        total = 0
        for docnum, document in enumerate(documents):
            frequencies: dict[str, int] = {}
            for token in chain(document[positions[field]]):
                frequencies[token.term] = frequencies.get(token.term, 0) + 1
            length = sum(frequencies.values())
            if not length:
                continue
            lengths[docnum] = byte_to_length(length_to_byte(length))
            total += length
            for term, frequency in frequencies.items():
                docs, weights = found.setdefault(term, ([], []))
                docs.append(docnum)
                weights.append(frequency * boost)
        for docs, weights in found.values():
            weights[:] = array("f", weights)  # Whoosh's postings writer keeps weights as 32-bit floats
        average = (total / (count or 1)) or 1
        for term, (docs, weights) in found.items():
            idf = math.log(count / (len(docs) + 1)) + 1
            scores = tuple(bm25(idf, weight, lengths[doc], average) for doc, weight in zip(docs, weights))
            postings[(field, term)] = (tuple(docs), scores)
    filters: dict[tuple[str, str], list[int]] = {}
    for docnum, document in enumerate(documents):
        for field in ("edition", "kind"):
            value = document[DOCUMENT_FIELDS.index(field)]
            if value:
                filters.setdefault((field, value), []).append(docnum)
    return IndexTables(postings, documents, {key: tuple(docs) for key, docs in filters.items()})


_SCHEMA = """
CREATE TABLE postings (field TEXT NOT NULL, term TEXT NOT NULL, data BLOB NOT NULL, PRIMARY KEY (field, term)) WITHOUT ROWID;
CREATE TABLE indexed (docnum INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE index_filters (field TEXT NOT NULL, value TEXT NOT NULL, data BLOB NOT NULL, PRIMARY KEY (field, value)) WITHOUT ROWID;
"""


def write_tables(connection: sqlite3.Connection, tables: IndexTables) -> None:
    """Write ``tables`` into the cache database (:mod:`rules_kb.engines.store`):
    ``postings(field, term, data)`` (the docnums and scores, marshal),
    ``indexed(docnum, data)`` (the fields of each document) and
    ``index_filters(field, value, data)``."""
    dumps = marshal.dumps
    connection.executescript(_SCHEMA)
    connection.executemany(
        "INSERT INTO postings VALUES (?, ?, ?)",
        ((field, term, dumps(found)) for (field, term), found in tables.postings.items()),
    )
    connection.executemany(
        "INSERT INTO indexed VALUES (?, ?)",
        ((docnum, dumps(document)) for docnum, document in enumerate(tables.documents)),
    )
    connection.executemany(
        "INSERT INTO index_filters VALUES (?, ?, ?)",
        ((field, value, dumps(docs)) for (field, value), docs in tables.filters.items()),
    )


# -- queries of words -----------------------------------------------------------------


class Term(NamedTuple):
    """A term of one field, its score multiplied by ``boost``; written as Whoosh writes it (``title:blessur^0.5``)."""

    field: str
    text: str
    boost: float = 1.0

    def __str__(self) -> str:
        return f"{self.field}:{self.text}" + (f"^{self.boost}" if self.boost != 1 else "")


class Group(NamedTuple):
    """Queries joined by AND (``required``: every one must match) or OR; a
    document scores the sum of those that match. Written as Whoosh writes
    ``And`` and ``Or`` (``(a OR b)``)."""

    required: bool
    queries: tuple

    def __str__(self) -> str:
        return "(" + (" AND " if self.required else " OR ").join(map(str, self.queries)) + ")"


#: A query of words: a :class:`Term` or a :class:`Group`.
Query = Term | Group

#: The only query syntax a user may type: a quoted phrase (straight double
#: quotes, closed); such a query goes to Whoosh, read for phrases only.
_SYNTAX_RE = re.compile(r'"[^"]*"')
#: What Whoosh's query language would read as an operator or a field
#: (``AND``, ``NOT``, ``line:5``): refused by :func:`check_query`, never run.
_OPERATOR_RE = re.compile(r"(?<!\S)(?:AND|OR|NOT|ANDNOT|ANDMAYBE|REQUIRE)(?!\S)")
_FIELD_RE = re.compile(r"(?<![\w.])([^\W\d_]\w*):(?=[^\s:])")
_SPACES_RE = re.compile(r"\s+")


def uses_syntax(text: str) -> bool:
    """Whether ``text`` holds a quoted phrase (``"blessures fatales"``)
    rather than plain words only. Every other character of Whoosh's query
    language (parentheses, ``^``, single quotes, an unclosed quote) is read
    as part of plain words; operators and fields are refused
    (:func:`check_query`)."""
    return _SYNTAX_RE.search(text) is not None


def check_query(text: str) -> None:
    """Refuse in ``text`` what Whoosh's query language reads as an operator
    (``AND``, ``OR``, ``NOT``, ``ANDNOT``, ``ANDMAYBE``, ``REQUIRE`` as a
    word of capitals) or a field (``line:5``): a query is words and quoted
    phrases. Raises :class:`QueryError` saying which and what to type."""
    operator = _OPERATOR_RE.search(text)
    if operator is not None:
        raise QueryError(
            f"La recherche « {text} » emploie l'opérateur « {operator.group()} », qui n'est pas accepté : "
            "tapez seulement des mots (tous sont requis) et, pour une expression exacte, "
            'des guillemets droits ("blessures fatales").'
        )
    field = _FIELD_RE.search(text)
    if field is not None:
        raise QueryError(
            f"La recherche « {text} » emploie « {field.group()} », un nom de champ, qui n'est pas accepté : "
            "tapez seulement des mots (ou mettez une espace après les deux-points)."
        )


def _normalised(required: bool, queries: Iterable) -> Query | None:
    """A group as Whoosh normalises it: nested groups of its kind merged,
    duplicates and empty queries removed, a single query unwrapped."""
    flat: list = []
    for query in queries:
        if query is None:
            continue
        if isinstance(query, Group) and query.required is required:
            flat.extend(query.queries)
        else:
            flat.append(query)
    unique = list(dict.fromkeys(flat))
    if not unique:
        return None
    return unique[0] if len(unique) == 1 else Group(required, tuple(unique))


def _field_query(field: str, word: str) -> Query | None:
    chain = analyze_numbers(word) if field in NUMBER_FIELDS else analyze(word)
    texts = [token.term for token in chain]
    if not texts:
        return None
    if len(texts) == 1:
        return Term(field, texts[0])
    return _normalised(True, (Term(field, text) for text in texts))


def word_query(text: str) -> Query | None:
    """The query Whoosh's parser makes of ``text`` when it holds plain words
    (see :func:`uses_syntax`): every word required, each searched in every
    field of :data:`FIELDS` through that field's analysis; None when no
    word is left (stop words only)."""
    words = (
        _normalised(False, (_field_query(field, word) for field in FIELDS)) for word in _SPACES_RE.split(text) if word
    )
    return _normalised(True, words)


def alternatives_query(parts: Iterable[Iterable[str]]) -> Query | None:
    """A query of plain words where some words may be said another way:
    every part required, a part matched by any of its texts, each text a
    :func:`word_query` (``[["trample", "Piétinement"], ["bloqué"]]``: the
    documents holding "bloqué" and "trample" or "piétinement"). None when
    no word is left."""
    return _normalised(True, (_normalised(False, (word_query(text) for text in texts)) for texts in parts))


def terms_of(query: Query | None) -> frozenset[str]:
    """The term texts of ``query`` (every field), for highlighting."""
    if query is None:
        return frozenset()
    if isinstance(query, Term):
        return frozenset((query.text,))
    return frozenset(text for sub in query.queries for text in terms_of(sub))


class IndexHit(NamedTuple):
    """A document found: ``docnum``, BM25F ``score``, its :class:`Stored`
    fields and the term texts of the query it ``matched``."""

    docnum: int
    score: float
    stored: Stored
    matched: frozenset[str]


class SearchIndex:
    """The search index of a cache: the tables in its database (``store``),
    read as queries need them, and the Whoosh index in ``cache_dir`` for
    queries in Whoosh's query language."""

    def __init__(self, store: Store, cache_dir: Path) -> None:
        connection = store.connection
        self.index_dir = Path(cache_dir) / INDEX_DIR

        def postings(key: tuple[str, str]):
            row = connection.execute("SELECT data FROM postings WHERE field = ? AND term = ?", key).fetchone()
            return marshal.loads(row[0]) if row else ((), ())

        def stored(docnum: int):
            row = connection.execute("SELECT data FROM indexed WHERE docnum = ?", (docnum,)).fetchone()
            return Stored(*marshal.loads(row[0])[: len(Stored._fields)]) if row else None

        def filtered(key: tuple[str, str]):
            row = connection.execute("SELECT data FROM index_filters WHERE field = ? AND value = ?", key).fetchone()
            return frozenset(marshal.loads(row[0])) if row else frozenset()

        self._postings = Lookup(postings)
        self._stored = Lookup(stored)
        self._filters = Lookup(filtered)
        self._connection = connection
        self._doc_count: int | None = None
        self._whoosh = None

    # the index's language, for the features (which take the index from the KnowledgeBase) --------

    @staticmethod
    def analyze(text: str) -> list[Token]:
        """The tokens of ``text`` as the index analyses it (:func:`rules_kb.engines.analysis.analyze`), stop words left out."""
        return list(analyze(text))

    @staticmethod
    def pairs(text: str) -> list[tuple[str, str]]:
        """``(term, original word)`` of each word of ``text`` (:func:`rules_kb.engines.analysis.pairs`)."""
        return pairs(text)

    @staticmethod
    def uses_syntax(text: str) -> bool:
        """:func:`uses_syntax`: whether ``text`` is written in Whoosh's query language."""
        return uses_syntax(text)

    @staticmethod
    def check_query(text: str) -> None:
        """:func:`check_query`: raises :class:`QueryError` (in French) for a query that cannot be run."""
        check_query(text)

    @staticmethod
    def alternatives_query(parts: Iterable[Iterable[str]]) -> Query | None:
        """:func:`alternatives_query`: every part required, each one of its alternatives."""
        return alternatives_query(parts)

    @staticmethod
    def terms_of(query: Query | None) -> frozenset[str]:
        """:func:`terms_of`: the terms a query looks for (what a snippet highlights)."""
        return terms_of(query)

    @staticmethod
    def snippet(stored, terms: frozenset[str]) -> tuple[str, tuple[tuple[int, int], ...]]:
        """:func:`snippet`: an excerpt of ``stored`` around ``terms`` and the ranges of the matched words."""
        return snippet(stored, terms)

    @property
    def doc_count(self) -> int:
        """The number of documents."""
        if self._doc_count is None:
            self._doc_count = self._connection.execute("SELECT count(*) FROM indexed").fetchone()[0]
        return self._doc_count

    def postings(self, field: str, term: str) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """The documents holding ``term`` in ``field`` and their BM25F scores."""
        return self._postings[(field, term)]

    def doc_frequency(self, field: str, term: str) -> int:
        """How many documents hold ``term`` in ``field``."""
        return len(self.postings(field, term)[0])

    def holds(self, field: str, term: str) -> bool:
        """Whether some document holds ``term`` in ``field``."""
        return bool(self.postings(field, term)[0])

    def stored(self, docnum: int) -> Stored:
        """The stored fields of a document."""
        return self._stored[docnum]

    def allowed(self, edition: str | None, kinds: Iterable[str] = ()) -> frozenset[int] | None:
        """The documents of ``edition`` (if given) and of one of ``kinds``
        (:class:`RecordKind` values, if any); None when nothing is filtered."""
        kinds = tuple(kinds)
        found = None
        if edition:
            found = self._filters[("edition", edition)]
        if kinds:
            of_kinds = frozenset().union(*(self._filters[("kind", kind)] for kind in kinds))
            found = of_kinds if found is None else found & of_kinds
        return found

    def _evaluate(self, query: Query) -> dict[int, tuple[float, frozenset[str]]]:
        """docnum → (score, matched term texts) of the documents matching ``query``."""
        if isinstance(query, Term):
            docs, scores = self.postings(query.field, query.text)
            matched = frozenset((query.text,))
            if query.boost != 1:
                return {doc: (score * query.boost, matched) for doc, score in zip(docs, scores)}
            return {doc: (score, matched) for doc, score in zip(docs, scores)}
        parts = [self._evaluate(sub) for sub in query.queries]
        if query.required:
            common = set(parts[0]).intersection(*parts[1:]) if parts else set()
            docs = sorted(common)
        else:
            docs = sorted(set().union(*parts))
        found = {}
        for doc in docs:
            score = 0.0
            matched: frozenset[str] = frozenset()
            for part in parts:
                value = part.get(doc)
                if value is not None:
                    score += value[0]
                    matched |= value[1]
            found[doc] = (score, matched)
        return found

    def run(self, query: Query | None, limit: int, allowed: frozenset[int] | None = None) -> list[IndexHit]:
        """The ``limit`` best documents for ``query`` (of ``allowed`` ones if
        given), best first (equal scores in document order)."""
        if query is None:
            return []
        found = self._evaluate(query)
        ranked = sorted(
            ((score, doc, matched) for doc, (score, matched) in found.items() if allowed is None or doc in allowed),
            key=lambda item: (-item[0], item[1]),
        )[:limit]
        return [IndexHit(doc, score, self.stored(doc), matched) for score, doc, matched in ranked]

    def search_text(
        self, text: str, limit: int, edition: str | None = None, kinds: tuple[str, ...] = ()
    ) -> tuple[list[IndexHit], frozenset[str], str]:
        """Search ``text`` as typed in a search box: ``(hits, terms, parsed)``
        — the ``limit`` best hits (of ``edition`` and ``kinds`` if given), the
        term texts searched and the query that ran as Whoosh writes it.
        Plain words are answered from the tables, quoted phrases by Whoosh.
        Raises :class:`QueryError` when no significant word is left or
        ``text`` holds an operator or a field (:func:`check_query`)."""
        check_query(text)
        if uses_syntax(text):
            return self._whoosh_search(text, limit, edition, kinds)
        query = word_query(text)
        if query is None:
            raise _no_words(text)
        return self.run(query, limit, self.allowed(edition, kinds)), terms_of(query), str(query)

    def documents(self) -> Iterator[tuple]:
        """Every document's fields (tuples of :data:`DOCUMENT_FIELDS`), in docnum order."""
        for (data,) in self._connection.execute("SELECT data FROM indexed ORDER BY docnum"):
            yield marshal.loads(data)

    def whoosh(self):
        """The Whoosh index (:class:`whoosh.index.Index`), written from the
        tables the first time it is asked for (a query in Whoosh's query
        language), into the cache folder: written aside, then moved into
        place whole, so that two processes never see half an index. When
        the cache folder is read-only it is written in a temporary folder,
        removed when the process ends. Raises
        :class:`rules_kb.core.errors.IndexBuildError` when neither can be written."""
        if self._whoosh is None:
            index = whoosh_module("whoosh.index")
            folder = self.index_dir
            try:
                if not folder.exists():
                    folder = self._write_whoosh(folder)
                try:
                    verify_folder(folder)
                except sqlite3.DatabaseError:  # damaged or planted: never unpickled, written again
                    print(f"Index de recherche endommagé dans « {folder} » : reconstruction.", file=sys.stderr)
                    folder = self._replace_whoosh(folder)
                self._whoosh = index.open_dir(str(folder))
            except OSError as error:
                raise IndexBuildError(
                    f"Impossible d'écrire l'index de recherche dans « {folder.parent} » : {describe_os_error(error)}. "
                    "Vérifiez la place disque ou choisissez un autre dossier de cache avec la variable RULES_KB_HOME.",
                    str(folder.parent),
                ) from None
        return self._whoosh

    def _replace_whoosh(self, folder: Path) -> Path:
        """Move the damaged index ``folder`` aside, remove it, write it again; return the new folder."""
        try:
            aside = Path(tempfile.mkdtemp(prefix=".damaged-", dir=folder.parent))
        except OSError:
            pass
        else:
            try:
                os.rename(folder, aside / INDEX_DIR)
            except OSError:
                pass
            shutil.rmtree(aside, ignore_errors=True)
        if folder.exists():  # it could not be moved (a read-only cache): an index for this process only
            elsewhere = tempfile.mkdtemp(prefix="rules-kb-index-")
            atexit.register(shutil.rmtree, elsewhere, True)
            write_whoosh(self.documents(), Path(elsewhere) / INDEX_DIR)
            return Path(elsewhere) / INDEX_DIR
        return self._write_whoosh(folder)

    def _write_whoosh(self, folder: Path) -> Path:
        """Write the Whoosh index as :meth:`whoosh` says; return its folder."""
        try:
            staging = Path(tempfile.mkdtemp(prefix=".index-", dir=folder.parent))
        except OSError:  # a read-only cache: an index for this process only
            elsewhere = tempfile.mkdtemp(prefix="rules-kb-index-")
            atexit.register(shutil.rmtree, elsewhere, True)
            write_whoosh(self.documents(), Path(elsewhere) / INDEX_DIR)
            return Path(elsewhere) / INDEX_DIR
        try:
            write_whoosh(self.documents(), staging / INDEX_DIR)
            os.rename(staging / INDEX_DIR, folder)
        except OSError:
            if not folder.is_dir():  # else another process published it first
                raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return folder

    def _whoosh_search(self, text: str, limit: int, edition: str | None, kinds: tuple[str, ...]):
        """A query in Whoosh's language. Whoosh reads its files again at
        each search: when they went away meanwhile (``rules-kb index``
        rebuilt the cache under a running server), the index is written
        again once and the search retried."""
        from whoosh.index import EmptyIndexError  # deferred: Whoosh's search machinery, for a quoted phrase alone

        try:
            return self._whoosh_search_once(text, limit, edition, kinds)
        except (EmptyIndexError, FileNotFoundError):
            self._whoosh = None
            return self._whoosh_search_once(text, limit, edition, kinds)

    def _whoosh_search_once(self, text: str, limit: int, edition: str | None, kinds: tuple[str, ...]):
        # deferred: Whoosh's search machinery (80 ms), for a quoted phrase alone (module docstring)
        from whoosh.qparser import MultifieldParser, PhrasePlugin
        from whoosh.query import And, Or
        from whoosh.query import Term as WhooshTerm

        ix = self.whoosh()
        parser = MultifieldParser(list(FIELDS), ix.schema, plugins=[PhrasePlugin()])  # phrases and words only
        parsed = parser.parse(text)
        terms = frozenset(
            term.decode("utf-8") if isinstance(term, bytes) else str(term) for _field, term in parsed.iter_all_terms()
        )
        if not terms:
            raise _no_words(text)
        parts = [WhooshTerm("edition", edition)] if edition else []
        if kinds:
            parts.append(Or([WhooshTerm("kind", kind) for kind in kinds]))
        wanted = (parts[0] if len(parts) == 1 else And(parts)) if parts else None
        with ix.searcher() as searcher:
            results = searcher.search(parsed, limit=limit, filter=wanted)
            hits = [IndexHit(hit.docnum, hit.score, self.stored(hit.docnum), frozenset()) for hit in results]
        return hits, terms, str(parsed)


def _no_words(text: str) -> QueryError:
    return QueryError(
        f"La recherche « {text} » ne contient aucun mot significatif "
        "(les mots comme « le », « de », « est » sont ignorés). Ajoutez des mots de la règle."
    )


def read_index(store: Store, cache_dir: Path) -> SearchIndex:
    """The :class:`SearchIndex` of a cache (its database ``store``, its folder ``cache_dir``)."""
    return SearchIndex(store, cache_dir)


# -- snippets -------------------------------------------------------------------------


def snippet(stored, terms: frozenset[str], width: int = SNIPPET_CHARS) -> tuple[str, tuple[tuple[int, int], ...]]:
    """An excerpt of the first field of ``stored`` (:data:`SNIPPET_FIELDS`;
    anything with ``get(field)``) holding one of ``terms``, and the ``[start,
    end)`` ranges of the matched words in it.

    A text up to ``width`` characters is given whole; a longer one is cut
    at word boundaries around its first match, with "…" where it was cut.
    """
    for field in SNIPPET_FIELDS:
        text = stored.get(field) or ""
        spans = [(token.start, token.end) for token in analyze(text) if token.term in terms]
        if spans:
            break
    else:
        text = stored.get("text") or stored.get("title") or ""
        spans = []
    if len(text) <= width:
        return text, tuple(spans)
    first = spans[0][0] if spans else 0
    start = max(0, first - width // 3)
    if start:
        start = text.find(" ", start) + 1 or start
    end = min(len(text), start + width)
    if end < len(text):
        end = text.rfind(" ", start, end) if " " in text[start:end] else end
    prefix = "…" if start else ""
    suffix = "…" if end < len(text) else ""
    excerpt = prefix + text[start:end].strip() + suffix
    shift = len(prefix) - start
    inside = tuple((a + shift, b + shift) for a, b in spans if a >= start and b <= end)
    return excerpt, inside
