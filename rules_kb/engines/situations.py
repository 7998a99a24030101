"""Situations: what each rule is for, in a player's words.

``rules_kb/data/situations.jsonl`` holds, one JSON object a line, the
situations of one rule: ``{"rule": "420.5c", "edition": "2004",
"situations": ["…", …], "source": "…"}`` — up to 3 short stories a player
would tell where that rule decides the outcome, written from the rule's own
text and examples (``source`` says where their words come from). How they
were written, and the brief their writers followed: ``rules_kb/data/README.md``.

The build keeps the situations of the corpus's rules (:func:`corpus_situations`)
and indexes them for ``ask`` with their rules (:func:`profile_tables`): each
rule's profile is one document, the rule's own words and those of its
situations (document expansion, as doc2query does with generated
questions), analysed as the rules are
(:func:`rules_kb.engines.analysis.analyze`) and scored with BM25.
Not by the full-text index (:mod:`rules_kb.engines.index`, Whoosh's scores):
a situation must be taken out of its rule's profile while a question is
scored (``hidden``, how the fusion learns from situations asked as
questions: ``bench/train_fusion.py``), and an index written once cannot
take words out of a document.
"""

from __future__ import annotations

import marshal
import math
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from rules_kb.core.jsonl import JsonLinesError, read_json_lines
from rules_kb.core.model import Corpus, RecordKind, node_id, rule_node
from rules_kb.engines.analysis import analyze
from rules_kb.engines.store import Lookup

#: The bundled situations file.
SITUATIONS_FILE = Path(__file__).resolve().parent.parent / "data" / "situations.jsonl"
#: BM25's parameters (Robertson's usual values, as Whoosh's defaults).
BM25_K1 = 1.2
BM25_B = 0.75


class Situation(NamedTuple):
    """One situation: the graph ``node`` of its rule, its ``text``, and its
    ``key`` (``"<node>#<n>"``, n from 1 in the file's order)."""

    node: str
    text: str
    key: str


class SituationRecord(NamedTuple):
    """One line of the situations file: ``rule`` number, ``edition``,
    ``situations`` and ``source``; ``line`` where it was read (from 1)."""

    rule: str
    edition: str
    situations: tuple[str, ...]
    source: str
    line: int


class SituationsFileError(JsonLinesError):
    """A line of a situations file is not a valid record (``line``, from 1)."""


def read_situations(path: str | Path = SITUATIONS_FILE) -> tuple[SituationRecord, ...]:
    """The records of a situations file, in file order. Raises
    :class:`SituationsFileError` for a line that is not an object with a
    ``rule``, an ``edition``, a list of non-empty ``situations`` and a ``source``."""
    records = []
    for number, data in read_json_lines(path, SituationsFileError):
        situations = data.get("situations") if isinstance(data, dict) else None
        if (
            not isinstance(situations, list)
            or not all(isinstance(text, str) and text.strip() for text in situations)
            or not all(isinstance(data.get(key), str) and data[key] for key in ("rule", "edition", "source"))
        ):
            raise SituationsFileError("objet {rule, edition, situations, source} attendu", str(path), number)
        records.append(SituationRecord(data["rule"], data["edition"], tuple(situations), data["source"], number))
    return tuple(records)


def corpus_situations(corpus: Corpus, records: Iterable[SituationRecord] | None = None) -> tuple[Situation, ...]:
    """The situations of the rules of ``corpus`` (those of another corpus's
    rules are left out), in file order; ``records`` default to the bundled file's."""
    rules = {(rule.edition, rule.number) for rule in corpus.rules}
    found = []
    for record in read_situations() if records is None else records:
        if (record.edition, record.rule) not in rules:
            continue
        node = node_id(RecordKind.RULE, record.edition, record.rule)
        found.extend(Situation(node, text, f"{node}#{n}") for n, text in enumerate(record.situations, start=1))
    return tuple(found)


def rule_text(rule) -> str:
    """The words of a rule: its title, text and examples."""
    return "\n".join(part for part in (rule.title, rule.text, *rule.examples) if part)


def _counts(text: str) -> dict[str, int]:
    frequencies: dict[str, int] = {}
    for token in analyze(text):
        frequencies[token.term] = frequencies.get(token.term, 0) + 1
    return frequencies


class ProfileTables(NamedTuple):
    """The lexical index of the rules' profiles: each rule one document, its
    own words (:func:`rule_text`) and those of its situations.

    ``nodes`` are the rules by document number; ``lengths`` the documents'
    lengths in terms and ``average`` their mean; ``postings`` maps a term
    to its idf (``log(N / (df + 1)) + 1``), documents and counts (a dict,
    or a :class:`rules_kb.engines.store.Lookup` reading the cache row by
    row); ``situations()`` gives, by situation number, its document, its
    term counts and its length, so that a situation can be left out of its
    rule's profile (read only then).
    """

    nodes: tuple[str, ...]
    lengths: tuple[int, ...]
    average: float
    postings: Mapping[str, tuple[float, tuple[int, ...], tuple[int, ...]]]
    situations: Callable[[], tuple[tuple[int, dict[str, int], int], ...]]

    def rule_scores(self, terms: Iterable[str], hidden: frozenset[int] = frozenset()) -> dict[str, float]:
        """Rule node → BM25 (``k1`` :data:`BM25_K1`, ``b`` :data:`BM25_B`) of
        its profile for ``terms`` (each counted once), the ``hidden``
        situations taken out of their rules' profiles."""
        less_count: dict[tuple[int, str], int] = {}
        less_length: dict[int, int] = {}
        if hidden:
            parts = self.situations()
            for number in hidden:
                doc, counts, length = parts[number]
                less_length[doc] = less_length.get(doc, 0) + length
                for term, count in counts.items():
                    less_count[(doc, term)] = less_count.get((doc, term), 0) + count
        found: dict[str, float] = {}
        lengths, average = self.lengths, self.average
        for term in dict.fromkeys(terms):
            idf, docs, counts = self.postings.get(term, (0.0, (), ()))
            for doc, count in zip(docs, counts):
                if hidden:
                    count -= less_count.get((doc, term), 0)
                    if count <= 0:
                        continue
                length = lengths[doc] - less_length.get(doc, 0)
                weight = count / (count + BM25_K1 * (1 - BM25_B + BM25_B * length / average))
                node = self.nodes[doc]
                found[node] = found.get(node, 0.0) + idf * (BM25_K1 + 1) * weight
        return found


_SCHEMA = """
CREATE TABLE profile_postings (term TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID;
"""


def write_profiles(connection, tables: ProfileTables) -> None:
    """Write ``tables`` into the cache database: ``meta`` ``profiles`` (nodes,
    lengths, average) and ``profile_situations``, and a row of
    ``profile_postings(term, data)`` a term (idf, documents, counts; marshal)."""
    dumps = marshal.dumps
    connection.executescript(_SCHEMA)
    connection.execute("INSERT INTO meta VALUES (?, ?)", ("profiles", dumps(
        {"nodes": list(tables.nodes), "lengths": list(tables.lengths), "average": tables.average})))  # fmt: skip
    connection.execute("INSERT INTO meta VALUES (?, ?)", ("profile_situations", dumps(
        [list(item) for item in tables.situations()])))  # fmt: skip
    connection.executemany(
        "INSERT INTO profile_postings VALUES (?, ?)", ((term, dumps(found)) for term, found in tables.postings.items())
    )


def read_profiles(store) -> ProfileTables:
    """The :class:`ProfileTables` of a cache database (a
    :class:`rules_kb.engines.store.Store`), its postings read term by term."""
    connection = store.connection
    data = store.meta("profiles")

    def postings(term: str):
        row = connection.execute("SELECT data FROM profile_postings WHERE term = ?", (term,)).fetchone()
        return marshal.loads(row[0]) if row else None

    def situations():
        return tuple((doc, counts, length) for doc, counts, length in store.meta("profile_situations"))

    return ProfileTables(tuple(data["nodes"]), tuple(data["lengths"]), data["average"], Lookup(postings), situations)


def profile_tables(rules: Iterable, situations: Iterable[Situation]) -> ProfileTables:
    """The :class:`ProfileTables` of ``rules`` (records with ``title``,
    ``text``, ``examples``; their graph nodes from
    :func:`rules_kb.core.model.rule_node`) and the ``situations`` of those rules."""
    nodes: list[str] = []
    documents: list[dict[str, int]] = []
    position: dict[str, int] = {}
    for rule in rules:
        node = rule_node(rule)
        position[node] = len(nodes)
        nodes.append(node)
        documents.append(_counts(rule_text(rule)))
    parts = []
    for situation in situations:
        doc = position.get(situation.node)
        counts = _counts(situation.text)
        if doc is None:
            doc = position[situation.node] = len(nodes)
            nodes.append(situation.node)
            documents.append({})
        for term, count in counts.items():
            documents[doc][term] = documents[doc].get(term, 0) + count
        parts.append((doc, counts, sum(counts.values())))
    lengths = tuple(sum(counts.values()) for counts in documents)
    found: dict[str, tuple[list[int], list[int]]] = {}
    for doc, counts in enumerate(documents):
        for term, count in counts.items():
            docs, frequencies = found.setdefault(term, ([], []))
            docs.append(doc)
            frequencies.append(count)
    total = len(documents)
    parts = tuple(parts)
    return ProfileTables(
        nodes=tuple(nodes), lengths=lengths, average=(sum(lengths) / max(1, total)) or 1.0,
        postings={
            term: (math.log(total / (len(docs) + 1)) + 1, tuple(docs), tuple(frequencies))
            for term, (docs, frequencies) in found.items()
        },
        situations=lambda: parts,
    )  # fmt: skip
