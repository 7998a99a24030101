"""Situations: what each rule is for, in a player's words.

``rules_kb/data/situations.jsonl`` holds, one JSON object a line, the
situations of one rule: ``{"rule": "420.5c", "edition": "2004",
"situations": ["…", …], "source": "…"}`` — 1 to 3 short stories a player
would tell where that rule decides the outcome, written from the rule's own
text and examples (``source`` says where their words come from). How they
were written, and the brief their writers followed: ``rules_kb/data/README.md``.

The build keeps the situations of the corpus's rules (:func:`corpus_situations`)
and indexes them for ``ask`` with their rules (:func:`profile_tables`): each
rule's profile is one document, the rule's own words and those of its
situations (document expansion, as doc2query does with generated
questions), analysed as the rules are
(:func:`rules_kb.build.analysis.analyze`) and scored with BM25.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from rules_kb.build.analysis import analyze
from rules_kb.core.model import Corpus, RecordKind, node_id

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


class SituationsFileError(ValueError):
    """A line of a situations file is not a valid record (``line``, from 1)."""

    def __init__(self, message: str, path: str, line: int) -> None:
        self.path = path
        self.line = line
        super().__init__(f"{path}, ligne {line} : {message}")


def read_situations(path: str | Path = SITUATIONS_FILE) -> tuple[SituationRecord, ...]:
    """The records of a situations file, in file order. Raises
    :class:`SituationsFileError` for a line that is not an object with a
    ``rule``, an ``edition``, a list of non-empty ``situations`` and a ``source``."""
    records = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise SituationsFileError(f"JSON invalide ({error.msg})", str(path), number) from None
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
    lengths in terms and ``average`` their mean; ``idf`` term → idf
    (``log(N / (df + 1)) + 1``); ``postings`` term → (documents, counts);
    ``situations`` by situation number: (its document, its term counts, its
    length), so that a situation can be left out of its rule's profile.
    """

    nodes: tuple[str, ...]
    lengths: tuple[int, ...]
    average: float
    idf: dict[str, float]
    postings: dict[str, tuple[tuple[int, ...], tuple[int, ...]]]
    situations: tuple[tuple[int, dict[str, int], int], ...]

    def rule_scores(self, terms: Iterable[str], hidden: frozenset[int] = frozenset()) -> dict[str, float]:
        """Rule node → BM25 (``k1`` :data:`BM25_K1`, ``b`` :data:`BM25_B`) of
        its profile for ``terms`` (each counted once), the ``hidden``
        situations taken out of their rules' profiles."""
        less_count: dict[tuple[int, str], int] = {}
        less_length: dict[int, int] = {}
        for number in hidden:
            doc, counts, length = self.situations[number]
            less_length[doc] = less_length.get(doc, 0) + length
            for term, count in counts.items():
                less_count[(doc, term)] = less_count.get((doc, term), 0) + count
        found: dict[str, float] = {}
        lengths, average = self.lengths, self.average
        for term in dict.fromkeys(terms):
            docs, counts = self.postings.get(term, ((), ()))
            idf = self.idf.get(term, 0.0)
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

    def as_data(self) -> dict:
        """The tables as marshal-able data (:func:`tables_from_data` reads them back)."""
        return {
            "nodes": list(self.nodes), "lengths": list(self.lengths), "average": self.average, "idf": self.idf,
            "postings": {term: (list(docs), list(counts)) for term, (docs, counts) in self.postings.items()},
            "situations": [list(item) for item in self.situations],
        }  # fmt: skip


def tables_from_data(data: dict) -> ProfileTables:
    """The :class:`ProfileTables` written by :meth:`ProfileTables.as_data`."""
    return ProfileTables(
        tuple(data["nodes"]), tuple(data["lengths"]), data["average"], data["idf"],
        {term: (tuple(docs), tuple(counts)) for term, (docs, counts) in data["postings"].items()},
        tuple((doc, counts, length) for doc, counts, length in data["situations"]),
    )  # fmt: skip


def profile_tables(rules: Iterable, situations: Iterable[Situation]) -> ProfileTables:
    """The :class:`ProfileTables` of ``rules`` (records with ``title``,
    ``text``, ``examples``; their graph nodes from
    :func:`rules_kb.core.model.rule_node`) and the ``situations`` of those rules."""
    from rules_kb.core.model import rule_node

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
    return ProfileTables(
        nodes=tuple(nodes), lengths=lengths, average=(sum(lengths) / max(1, total)) or 1.0,
        idf={term: math.log(total / (len(docs) + 1)) + 1 for term, (docs, _) in found.items()},
        postings={term: (tuple(docs), tuple(frequencies)) for term, (docs, frequencies) in found.items()},
        situations=tuple(parts),
    )  # fmt: skip
