"""Situations: what each rule is for, in a player's words.

``rules_kb/data/situations.jsonl`` holds, one JSON object a line, the
situations of one rule: ``{"rule": "420.5c", "edition": "2004",
"situations": ["…", …], "source": "…"}`` — 1 to 3 short stories a player
would tell where that rule decides the outcome, written from the rule's own
text and examples (``source`` says where their words come from). How they
were written, and the brief their writers followed: ``rules_kb/data/README.md``.

The build keeps the situations of the corpus's rules (:func:`corpus_situations`)
and indexes them for ``ask`` (:func:`situation_tables`): BM25 over each
situation as its own short document, analysed as the rules are
(:func:`rules_kb.build.analysis.analyze`). A rule's lexical score is then
its best situation's.
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


class SituationTables(NamedTuple):
    """The lexical index of the situations: ``nodes`` (the rule of each
    situation, by situation number) and ``postings`` (term → situation
    numbers and their BM25 scores)."""

    nodes: tuple[str, ...]
    postings: dict[str, tuple[tuple[int, ...], tuple[float, ...]]]

    def scores(self, terms: Iterable[str], hidden: frozenset[int] = frozenset()) -> dict[int, float]:
        """Situation number → BM25 score for ``terms`` (each counted once),
        leaving out the ``hidden`` situations."""
        found: dict[int, float] = {}
        for term in dict.fromkeys(terms):
            docs, weights = self.postings.get(term, ((), ()))
            for doc, weight in zip(docs, weights):
                if doc not in hidden:
                    found[doc] = found.get(doc, 0.0) + weight
        return found

    def rule_scores(self, terms: Iterable[str], hidden: frozenset[int] = frozenset()) -> dict[str, float]:
        """Rule node → its best situation's score for ``terms``."""
        best: dict[str, float] = {}
        for doc, value in self.scores(terms, hidden).items():
            node = self.nodes[doc]
            if value > best.get(node, 0.0):
                best[node] = value
        return best

    def as_data(self) -> dict:
        """The tables as marshal-able data (:func:`tables_from_data` reads them back)."""
        return {"nodes": list(self.nodes), "postings": {t: (list(d), list(w)) for t, (d, w) in self.postings.items()}}


def tables_from_data(data: dict) -> SituationTables:
    """The :class:`SituationTables` written by :meth:`SituationTables.as_data`."""
    return SituationTables(tuple(data["nodes"]), {t: (tuple(d), tuple(w)) for t, (d, w) in data["postings"].items()})


def situation_tables(situations: Iterable[Situation]) -> SituationTables:
    """BM25 (``k1`` :data:`BM25_K1`, ``b`` :data:`BM25_B`, idf ``log(N / (df + 1)) + 1``)
    of every term of every situation, each situation its own document."""
    situations = tuple(situations)
    counts: list[dict[str, int]] = []
    for situation in situations:
        frequencies: dict[str, int] = {}
        for token in analyze(situation.text):
            frequencies[token.term] = frequencies.get(token.term, 0) + 1
        counts.append(frequencies)
    lengths = [sum(frequencies.values()) for frequencies in counts]
    average = (sum(lengths) / max(1, len(lengths))) or 1.0
    found: dict[str, tuple[list[int], list[float]]] = {}
    for doc, frequencies in enumerate(counts):
        for term, frequency in frequencies.items():
            docs, weights = found.setdefault(term, ([], []))
            docs.append(doc)
            weights.append(frequency / (frequency + BM25_K1 * (1 - BM25_B + BM25_B * lengths[doc] / average)))
    total = len(situations)
    postings = {}
    for term, (docs, weights) in found.items():
        idf = math.log(total / (len(docs) + 1)) + 1
        postings[term] = (tuple(docs), tuple(idf * (BM25_K1 + 1) * weight for weight in weights))
    return SituationTables(tuple(situation.node for situation in situations), postings)
