"""Measuring ``ask``: recall@k and MRR on players' questions, against a plain BM25 baseline.

The questions are ``tests/eval/questions.jsonl``: one JSON object a line,
``{"id", "kind", "question", "expected": [rule numbers]}`` — the rules a
judge would cite, any of which answers the question. A question is found
at ``k`` when one of its expected numbers is among the first ``k`` rules
proposed; recall@k is the share of questions found at ``k``; MRR the mean
of ``1 / rank`` of the first expected rule (0 when none is in the first
:data:`DEPTH`).

The baseline is full-text search as it comes: Whoosh's defaults (standard
analyzer, BM25F) on the raw rule texts (title, text, examples), every
word of the question joined by OR (with Whoosh's default AND almost no
question finds a rule), no concepts, no graph, no checker.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from rules_kb.ask import ask

#: How many rules each system proposes per question.
DEPTH = 5
#: The cut-offs reported.
CUTOFFS = (1, 3, 5)


@dataclass(frozen=True, slots=True)
class Question:
    """One evaluation question: ``id``, ``kind`` (what it covers: a chapter,
    "vérification", "mot-clé", "faute de frappe", "carte FAQ", "glossaire"),
    the ``question`` as a player asks it and the ``expected`` rule numbers."""

    id: int
    kind: str
    question: str
    expected: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Scores:
    """A system's figures: ``recall`` by cut-off, ``mrr``, and for each
    question the ``ranks`` (1-based rank of the first expected rule, 0 if
    not found) and the rules it proposed (``proposed``)."""

    recall: dict[int, float]
    mrr: float
    ranks: dict[int, int]
    proposed: dict[int, tuple[str, ...]]


class EvaluationError(ValueError):
    """A line of the questions file is not a valid question (``line``, from 1)."""

    def __init__(self, message: str, path: str, line: int) -> None:
        self.path = path
        self.line = line
        super().__init__(f"{path}, ligne {line} : {message}")


def load_questions(path: str | Path) -> tuple[Question, ...]:
    """The questions of a JSON-lines file; raises :class:`EvaluationError`
    for a line that is not an object with a non-empty ``question`` and a
    non-empty list ``expected``."""
    questions = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise EvaluationError(f"JSON invalide ({error.msg})", str(path), number) from None
        if not isinstance(data, dict) or not str(data.get("question", "")).strip():
            raise EvaluationError("objet avec une clé « question » attendu", str(path), number)
        expected = data.get("expected")
        if not isinstance(expected, list) or not expected or not all(isinstance(n, str) for n in expected):
            raise EvaluationError("« expected » doit être une liste non vide de numéros de règle", str(path), number)
        questions.append(Question(int(data.get("id", number)), str(data.get("kind", "")), data["question"], tuple(expected)))
    return tuple(questions)


def score(questions: Iterable[Question], propose: Callable[[str], list[str]]) -> Scores:
    """Run ``propose(question) → rule numbers, best first`` on every question."""
    ranks: dict[int, int] = {}
    proposed: dict[int, tuple[str, ...]] = {}
    questions = tuple(questions)
    for question in questions:
        numbers = tuple(propose(question.question))[:DEPTH]
        proposed[question.id] = numbers
        rank = next((position for position, number in enumerate(numbers, start=1) if number in question.expected), 0)
        ranks[question.id] = rank
    total = max(1, len(questions))
    recall = {k: sum(1 for rank in ranks.values() if 0 < rank <= k) / total for k in CUTOFFS}
    mrr = sum(1 / rank for rank in ranks.values() if rank) / total
    return Scores(recall, mrr, ranks, proposed)


def ask_system(kb, edition: str | None = None) -> Callable[[str], list[str]]:
    """``ask`` as a system to score: the rule numbers it proposes."""

    def propose(question: str) -> list[str]:
        answer = ask(kb, question, limit=DEPTH, edition=edition)
        return [rule.number for rule in answer.rules]

    return propose


def baseline_system(kb) -> Callable[[str], list[str]]:
    """The plain BM25 baseline (module docstring), indexed in memory."""
    from whoosh.fields import ID, TEXT, Schema
    from whoosh.filedb.filestore import RamStorage
    from whoosh.qparser import OrGroup, QueryParser

    schema = Schema(number=ID(stored=True), text=TEXT())
    index = RamStorage().create_index(schema)
    writer = index.writer()
    for rule in kb.corpus.rules:
        writer.add_document(number=rule.number, text="\n".join((rule.title, rule.text, *rule.examples)))
    writer.commit()
    parser = QueryParser("text", schema, group=OrGroup)

    def propose(question: str) -> list[str]:
        with index.searcher() as searcher:
            try:
                results = searcher.search(parser.parse(question), limit=DEPTH * 3)
            except Exception:  # a question the default parser cannot read finds nothing
                return []
            return list(dict.fromkeys(hit["number"] for hit in results))[:DEPTH]

    return propose
