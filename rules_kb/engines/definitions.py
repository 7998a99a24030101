"""The glossary's definitions as ``define`` compares them with a description.

A judge who does not know a headword describes the notion ("créature qu'on
ne peut pas bloquer" for *Imblocable*). :class:`DefinitionTable` holds, for
every glossary entry, what such a description is compared with:

- the **words** of its definition and examples (examples weigh
  :data:`EXAMPLES_WEIGHT`, the search index's boost), and of its headword and
  forms, each through the index's French analysis
  (:func:`rules_kb.engines.analysis.analyze`: elision, stop words, accents,
  stems), scored by BM25 (:meth:`DefinitionTable.words`) over the entries;
- the **meaning** of each sentence of its definition, as the e5 vector of
  ``"<headword> : <sentence>"`` (:func:`sentence_texts`; e5 "passages", the
  model of :mod:`rules_kb.engines.dense`), which a description's e5 vector is
  compared with, sentence by sentence (:meth:`DefinitionTable.closeness`).

The build (:func:`definition_data`) takes the vectors of the sentences the
package knows (``rules_kb/data/glossary-vectors.json`` and ``.i8``, computed
for the bundled corpus by ``bench/embed_glossary.py``) and embeds the others;
without the model they have none, and ``define`` compares the words alone.
The data is kept in the cache database's ``meta`` table (:data:`META_NAME`).
"""

from __future__ import annotations

import json
import marshal
import math
import operator
import re
import sqlite3
from array import array
from collections.abc import Iterable, Sequence
from pathlib import Path

from rules_kb.core.corpus import Progress, no_progress
from rules_kb.core.model import GlossaryEntry
from rules_kb.engines.analysis import analyze
from rules_kb.engines.embedding import DIMENSION, MODEL
from rules_kb.engines.index import BM25_B, BM25_K1  # the search index's parameters: one BM25 setting

#: Name of the definitions' data in the cache database's ``meta`` table.
META_NAME = "glossary_definitions"
#: Weight of a word of an entry's examples against one of its definition: the search index's boost of ``examples``.
EXAMPLES_WEIGHT = 0.6
#: A term stands for a name's shorter term that starts it, from this length: the
#: stemmer leaves some inflected forms longer ("engagée" → ``engage``, "Engagé" →
#: ``engag``); the concept table's own bound (:data:`rules_kb.engines.concepts.PREFIX_STEM`).
NAME_PREFIX = 5
#: The package data of the bundled glossary's sentence vectors (``bench/embed_glossary.py``).
DATA_DIR = Path(__file__).resolve().parent.parent / "data"
VECTORS_META = DATA_DIR / "glossary-vectors.json"
VECTORS_ROWS = DATA_DIR / "glossary-vectors.i8"

#: Where a definition is cut into sentences: after ``.``, ``!`` or ``?`` and
#: spaces, before a capital, a quote or a parenthesis ("… en premier. Voir règles 409").
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+(?=[A-ZÀ-ÖØ-Ý\"«(])")


def terms(text: str) -> list[str]:
    """The index terms of ``text`` (:func:`rules_kb.engines.analysis.analyze`), rule numbers and figures left out."""
    return [token.term for token in analyze(text) if not any(char.isdigit() for char in token.term)]


def sentences(text: str) -> list[str]:
    """The sentences of a definition, in order (see :data:`_SENTENCE_END_RE`)."""
    return [part.strip() for part in _SENTENCE_END_RE.split(" ".join(text.split())) if part.strip()]


def sentence_texts(entry: GlossaryEntry) -> list[str]:
    """The texts whose vectors stand for ``entry``'s meaning: ``"<headword> : <sentence>"``
    for each sentence of its definition (the headword alone for an entry without one)."""
    return [f"{entry.term} : {sentence}" for sentence in sentences(entry.text)] or [entry.term]


def entry_words(entry: GlossaryEntry) -> dict[str, float]:
    """Term → weight of ``entry``'s definition (1 an occurrence) and examples (:data:`EXAMPLES_WEIGHT`)."""
    found: dict[str, float] = {}
    for text, weight in ((entry.text, 1.0), (" ".join(entry.examples), EXAMPLES_WEIGHT)):
        for term in terms(text):
            found[term] = found.get(term, 0.0) + weight
    return found


def entry_names(entry: GlossaryEntry) -> list[list[str]]:
    """The terms of each of ``entry``'s headword and forms (a name without any left out)."""
    return [found for name in dict.fromkeys((entry.term, *entry.forms)) if (found := sorted(set(terms(name))))]


# -- the bundled vectors ----------------------------------------------------------------


def package_rows():
    """The bundled sentence vectors (:class:`rules_kb.engines.dense.VectorRows`), empty when
    the package data is missing, damaged or of another :data:`MODEL`."""
    from rules_kb.engines.dense import VectorRows  # deferred: the dense machinery, for the build alone

    try:
        meta = json.loads(VECTORS_META.read_text(encoding="utf-8"))
        rows = VECTORS_ROWS.read_bytes()
        if meta.get("model") != MODEL or len(rows) != DIMENSION * len(meta["keys"]):
            raise ValueError("other model")
        return VectorRows({key: row for row, key in enumerate(meta["keys"])}, rows, array("f", meta["scales"]))
    except (OSError, ValueError, KeyError, TypeError):
        return VectorRows({}, b"", array("f"))


def write_package_rows(entries: Sequence[GlossaryEntry], progress: Progress = no_progress) -> int:
    """Embed the sentences of ``entries`` (:func:`sentence_texts`) and write them as the
    package data; returns how many. Raises :class:`rules_kb.engines.embedding.DenseUnavailable`."""
    from rules_kb.engines import dense  # deferred: the dense machinery, for this script alone

    texts = {dense.text_key(text): text for entry in entries for text in sentence_texts(entry)}
    rows = dense.embed_texts(texts, dense.VectorRows({}, b"", array("f")), progress, strict=True)
    keys = sorted(rows.keys, key=rows.keys.get)
    VECTORS_ROWS.write_bytes(rows.rows)
    meta = {"model": MODEL, "dimension": DIMENSION, "keys": keys, "scales": [round(s, 9) for s in rows.scales]}
    VECTORS_META.write_text(json.dumps(meta, indent=0) + "\n", encoding="utf-8")
    return len(keys)


# -- the build ------------------------------------------------------------------------


def definition_data(entries: Sequence[GlossaryEntry], progress: Progress = no_progress) -> dict:
    """The data of a :class:`DefinitionTable` for ``entries`` (the glossary, in
    corpus order): each entry's words and names, and the vectors of its
    sentences (the bundled ones reused, the others embedded; none without the model)."""
    from rules_kb.engines import dense  # deferred: the dense machinery, for the build alone

    texts = {dense.text_key(text): text for entry in entries for text in sentence_texts(entry)}
    rows = dense.embed_texts(texts, package_rows(), progress)
    entry_rows = [
        [row for text in sentence_texts(entry) if (row := rows.keys.get(dense.text_key(text))) is not None]
        for entry in entries
    ]
    return {
        "model": MODEL, "words": [entry_words(entry) for entry in entries],
        "names": [entry_names(entry) for entry in entries], "rows": rows.rows,
        "scales": rows.scales.tobytes(), "entry_rows": entry_rows, "missing": len(texts) - len(rows.keys),
    }  # fmt: skip


def write_definitions(connection: sqlite3.Connection, data: dict) -> None:
    """Keep the definitions' data (:func:`definition_data`) in the cache database."""
    connection.execute("INSERT INTO meta VALUES (?, ?)", (META_NAME, marshal.dumps(data)))


# -- reading --------------------------------------------------------------------------


class DefinitionTable:
    """The glossary's definitions (:func:`definition_data`), entry by entry in
    the glossary's order (:attr:`rules_kb.loader.KnowledgeBase.glossary`)."""

    def __init__(self, data: dict) -> None:
        self.names: list[list[list[str]]] = data["names"]
        self.missing: int = data["missing"]
        words: list[dict[str, float]] = data["words"]
        self.size = len(words)
        self._lengths = [sum(found.values()) for found in words]
        self._average = (sum(self._lengths) / self.size if self.size else 0.0) or 1.0
        self._postings: dict[str, list[tuple[int, float]]] = {}
        for position, found in enumerate(words):
            for term, weight in found.items():
                self._postings.setdefault(term, []).append((position, weight))
        self._named: dict[str, set[int]] = {}
        for position, names in enumerate(self.names):
            for name in names:
                for term in name:
                    self._named.setdefault(term, set()).add(position)
        self._rows = memoryview(data["rows"]).cast("b")
        self._scales = array("f")
        self._scales.frombytes(data["scales"])
        self._entry_rows: list[list[int]] = data["entry_rows"]

    @property
    def has_vectors(self) -> bool:
        """True when some entry has a sentence vector."""
        return bool(len(self._scales))

    def frequency(self, term: str) -> int:
        """How many entries hold ``term`` in their definition, examples or names."""
        return len({position for position, _ in self._postings.get(term, ())} | self._named.get(term, set()))

    def weight(self, term: str) -> float:
        """BM25's idf of ``term`` over the entries: ``log(1 + (N − n + ½) / (n + ½))``."""
        held = self.frequency(term)
        return math.log(1 + (self.size - held + 0.5) / (held + 0.5))

    def words(self, wanted: Iterable[str]) -> list[float]:
        """The BM25 score of every entry's definition and examples for the terms
        ``wanted`` (each counted once; :data:`BM25_K1`, :data:`BM25_B`)."""
        found = [0.0] * self.size
        for term in dict.fromkeys(wanted):
            idf = self.weight(term)
            for position, count in self._postings.get(term, ()):
                norm = BM25_K1 * ((1 - BM25_B) + BM25_B * self._lengths[position] / self._average)
                found[position] += idf * count * (BM25_K1 + 1) / (count + norm)
        return found

    def names_hold(self, term: str) -> bool:
        """Whether the headword or a form of some entry holds ``term``, or a
        term of :data:`NAME_PREFIX` letters or more that starts it."""
        return any(term[:length] in self._named for length in range(min(NAME_PREFIX, len(term)), len(term) + 1))

    def holding(self, wanted: Iterable[str]) -> set[int]:
        """The entries whose definition, examples or names hold one of the terms ``wanted``."""
        found: set[int] = set()
        for term in wanted:
            found.update(position for position, _ in self._postings.get(term, ()))
            found.update(self._named.get(term, ()))
        return found

    def closeness(self, vector: Sequence[float]) -> list[float | None]:
        """The cosine of ``vector`` (normalised, :data:`DIMENSION` floats) with
        the closest sentence of every entry's definition; None for an entry
        without a vector."""
        rows, scales, mul, width = self._rows, self._scales, operator.mul, DIMENSION
        vector = list(vector)
        cosines = [sum(map(mul, rows[i * width : (i + 1) * width], vector)) * scales[i] for i in range(len(scales))]
        return [max((cosines[row] for row in found), default=None) for found in self._entry_rows]


def read_definitions(data: dict) -> DefinitionTable:
    """The :class:`DefinitionTable` of the data kept in the cache (:data:`META_NAME`)."""
    return DefinitionTable(data)
