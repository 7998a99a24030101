"""Measuring ``ask``: recall@k, MRR and "all rules in the top 5" on players'
questions, against plain BM25 and the dense retriever alone.

The question sets are in ``tests/eval/`` (see its README): ``tuning.jsonl``
(read freely), ``validation.jsonl`` (its aggregate figures guide choices)
and ``test.jsonl`` (scored at the end of an issue, never used to choose).
One JSON object a line: ``{"id", "question", "expected": [rule numbers]}``,
with optionally ``"equivalents": {number: [numbers]}``, ``"kind"``,
``"chapter"`` and ``"names_concept"``. The expected rules are those a
judge would cite, the most decisive first; an equivalent is accepted in
place of its rule.

A question is found at ``k`` when one of its accepted numbers is among the
first ``k`` rules proposed; recall@k is the share of questions found at
``k``; MRR the mean of ``1 / rank`` of the first accepted rule (0 when none
is in the first :data:`DEPTH`); "all in top 5" the share of questions whose
every expected rule (or one of its equivalents) is in the first 5.

The baselines: **bm25** is full-text search as it comes, Whoosh's defaults
(standard analyzer, BM25F) on the raw rule texts (title, text, examples),
every word of the question joined by OR, no concepts, no graph, no checker;
**dense** ranks the rules by the cosine of the question's embedding with the
rule's profile: its own text, its situations and the players' stories it
decides (:mod:`rules_kb.engines.dense`), nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from rules_kb.core.jsonl import JsonLinesError, read_json_lines

#: How many rules each system proposes per question.
DEPTH = 5
#: The cut-offs reported.
CUTOFFS = (1, 3, 5)
#: The folder of the question sets, and the sets in the order they are reported.
EVAL_DIR = Path(__file__).resolve().parent.parent / "tests" / "eval"
SETS = ("tuning", "validation", "test", "registers-validation", "registers-test", "registers-test2", "registers-test3")
#: The editions whose rules a FAQ edition completes (the FAQ quotes only what it changes).
COMPLETES = {"2006-faq": ("2004",)}
#: The sets written in registers (one helper a register, issue 33), reported a row per register.
REGISTER_SETS = ("registers-validation", "registers-test", "registers-test2", "registers-test3")


def set_path(name: str) -> Path:
    """The file of the question set ``name`` (one of :data:`SETS`)."""
    return EVAL_DIR / f"{name}.jsonl"


@dataclass(frozen=True, slots=True)
class Question:
    """One evaluation question: ``id``, ``question`` as a player tells it,
    the ``expected`` rule numbers (most decisive first), ``equivalents``
    (number → numbers accepted in its place), ``kind`` (what it covers, for
    the tuning set), ``chapter`` (1–5, 0 when not given),
    ``names_concept`` (None when not given), ``register`` (how it is
    written: ``"terse"``, ``"sms"``…, ``""`` when not given) and
    ``edition`` (the edition the question names, register ``"edition"``:
    only that edition's rules count, and for a FAQ's edition the rules it
    completes, :data:`COMPLETES`; ``""``: any edition's rule with that
    number counts)."""

    id: str
    question: str
    expected: tuple[str, ...]
    equivalents: dict[str, tuple[str, ...]] = field(default_factory=dict)
    kind: str = ""
    chapter: int = 0
    names_concept: bool | None = None
    register: str = ""
    edition: str = ""

    def accepted(self, number: str) -> tuple[str, ...]:
        """``number`` and its equivalents."""
        return (number, *self.equivalents.get(number, ()))

    @property
    def answers(self) -> frozenset[str]:
        """Every number that counts as a right answer."""
        return frozenset(n for number in self.expected for n in self.accepted(number))


@dataclass(frozen=True, slots=True)
class Scores:
    """A system's figures: ``recall`` by cut-off, ``mrr``, ``all_at_5`` (share
    of questions with every expected rule in the first 5), and for each
    question id the ``ranks`` (1-based rank of the first right rule, 0 if
    not found) and the rules it proposed (``proposed``)."""

    recall: dict[int, float]
    mrr: float
    all_at_5: float
    ranks: dict[str, int]
    proposed: dict[str, tuple[str, ...]]

    def as_dict(self) -> dict:
        """The aggregate figures as JSON-ready data."""
        return {"recall": {str(k): round(v, 4) for k, v in self.recall.items()}, "mrr": round(self.mrr, 4),
                "all_at_5": round(self.all_at_5, 4)}  # fmt: skip


class EvaluationError(JsonLinesError):
    """A line of a questions file is not a valid question (``line``, from 1)."""


def _numbers(value) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(n, str) and n for n in value)


def load_questions(path: str | Path) -> tuple[Question, ...]:
    """The questions of a JSON-lines file; raises :class:`EvaluationError`
    for a line that is not an object with a non-empty ``question``, a
    non-empty list ``expected`` of numbers and, if present, an object
    ``equivalents`` of lists of numbers."""
    questions = []
    for number, data in read_json_lines(path, EvaluationError):
        if not isinstance(data, dict) or not str(data.get("question", "")).strip():
            raise EvaluationError("objet avec une clé « question » attendu", str(path), number)
        if not _numbers(data.get("expected")):
            raise EvaluationError("« expected » doit être une liste non vide de numéros de règle", str(path), number)
        equivalents = data.get("equivalents") or {}
        if not isinstance(equivalents, dict) or not all(_numbers(v) for v in equivalents.values()):
            raise EvaluationError(
                "« equivalents » doit associer des numéros à des listes de numéros", str(path), number
            )
        concept = data.get("names_concept")
        questions.append(Question(
            id=str(data.get("id", number)), question=data["question"], expected=tuple(data["expected"]),
            equivalents={key: tuple(value) for key, value in equivalents.items()}, kind=str(data.get("kind", "")),
            chapter=int(data.get("chapter") or 0), names_concept=concept if isinstance(concept, bool) else None,
            register=str(data.get("register", "")), edition=str(data.get("edition", "")) if data.get("register") == "edition" else "",
        ))  # fmt: skip
    return tuple(questions)


def _numbers_of(proposals: list, edition: str) -> tuple[str, ...]:
    """The rule numbers of ``proposals`` (numbers, or ``(number, edition)``
    pairs), those of another edition than ``edition`` (if given) left out."""
    numbers = []
    for proposal in proposals:
        if isinstance(proposal, tuple):
            number, of = proposal
            if edition and of != edition and of not in COMPLETES.get(edition, ()):
                continue
            proposal = number
        numbers.append(proposal)
    return tuple(dict.fromkeys(numbers))[:DEPTH]


def score(questions: Iterable[Question], propose: Callable[[str], list]) -> Scores:
    """Run ``propose(question) → rule numbers (or (number, edition) pairs),
    best first`` on every question; a question with an ``edition`` counts
    only the proposals of that edition that say theirs."""
    ranks: dict[str, int] = {}
    proposed: dict[str, tuple[str, ...]] = {}
    complete = 0
    questions = tuple(questions)
    for question in questions:
        numbers = _numbers_of(propose(question.question), question.edition)
        proposed[question.id] = numbers
        answers = question.answers
        ranks[question.id] = next((rank for rank, number in enumerate(numbers, start=1) if number in answers), 0)
        top = set(numbers[:5])
        complete += all(top.intersection(question.accepted(number)) for number in question.expected)
    total = max(1, len(questions))
    recall = {k: sum(1 for rank in ranks.values() if 0 < rank <= k) / total for k in CUTOFFS}
    mrr = sum(1 / rank for rank in ranks.values() if rank) / total
    return Scores(recall, mrr, complete / total, ranks, proposed)


def ask_system(kb, edition: str | None = None, dense: bool = True) -> Callable[[str], list[str]]:
    """``ask`` as a system to score: the rule numbers it proposes (with the
    dense retriever unless ``dense`` is false)."""
    from rules_kb.ask import ask

    def propose(question: str) -> list[tuple[str, str]]:
        answer = ask(kb, question, limit=DEPTH, edition=edition, dense=dense)
        return [(rule.number, rule.edition) for rule in answer.rules]

    return propose


def dense_system(
    kb, edition: str | None = None, adapted: bool = True, stories: bool = True
) -> Callable[[str], list[str]]:
    """The dense retriever alone: the rules of ``edition`` (default: the
    knowledge base's) whose profile is closest to the question, its vector
    mapped by the learned adapter as ``ask`` maps it, or, without
    ``adapted``, as e5 gives it; without ``stories``, the profiles are the
    rules' and their situations' vectors alone (no players' stories)."""
    from rules_kb.ask.normalise import as_read
    from rules_kb.engines.embedding import QueryAdapter, encoder, query_adapter

    vectors = kb.dense
    wanted = edition or kb.default_edition
    adapter = query_adapter() if adapted else QueryAdapter()
    if stories:
        closest = vectors.rank_rules
    else:
        every = frozenset(range(len(vectors.story_nodes)))
        bare = {
            node: vectors.profile(node, hidden_stories=every)
            for node in vectors.profile_index
            if node.split(":")[1] == wanted
        }

        def closest(vector, edition):
            found = {node: sum(a * b for a, b in zip(profile, vector)) for node, profile in bare.items()}
            return sorted(found.items(), key=lambda item: (-item[1], item[0]))

    def propose(question: str) -> list[str]:
        ranked = closest(adapter.apply(encoder().embed([as_read(question)], query=True)[0]), wanted)
        return [(node.split(":", 2)[2], node.split(":", 2)[1]) for node, _ in ranked[:DEPTH]]

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
            except Exception:  # noqa: BLE001 - Whoosh's parser raises many kinds: a question it cannot read finds nothing
                return []
            return list(dict.fromkeys(hit["number"] for hit in results))[:DEPTH]

    return propose
