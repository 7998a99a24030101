"""A question being read: what each step of ``ask`` found, and the score of
every candidate rule, part by part."""

from __future__ import annotations

from rules_kb.ask.answer import PARTS, Remark, RuleAnswer, Verification
from rules_kb.ask.facts import Facts
from rules_kb.core.model import GlossaryEntry, Ruling
from rules_kb.engines.concepts import Concept, ConceptTable, Recognition
from rules_kb.engines.index import SearchIndex
from rules_kb.loader import KnowledgeBase


class Candidates:
    """Signal values (``parts``, raw) and reasons of the candidate rules, by
    graph node; ``weights`` (signal → learned weight,
    :mod:`rules_kb.ask.fusion`) make their score."""

    __slots__ = ("parts", "reasons", "weights")

    def __init__(self, weights: dict[str, float] | None = None) -> None:
        self.parts: dict[str, dict[str, float]] = {}
        self.reasons: dict[str, dict[str, str]] = {}
        """node → {French reason: the part (a key of :data:`PARTS`) it was given for}, in the order given."""
        self.weights: dict[str, float] = weights or dict.fromkeys(PARTS, 1.0)

    def add(self, node: str, part: str, value: float, reason: str = "") -> None:
        """Add ``value`` to the ``part`` (a key of :data:`PARTS`) of ``node``'s score, with a French ``reason``."""
        parts = self.parts.setdefault(node, dict.fromkeys(PARTS, 0.0))
        parts[part] += value
        if reason:
            self.reasons.setdefault(node, {}).setdefault(reason, part)

    def set(self, node: str, part: str, value: float) -> None:
        """Set the ``part`` of ``node`` (a candidate already, or made one)."""
        self.parts.setdefault(node, dict.fromkeys(PARTS, 0.0))[part] = value

    def score(self, node: str) -> float:
        """The sum of ``node``'s parts, each times its weight (its rank aside:
        the score the graph passes on; the ranking's is
        :func:`rules_kb.ask.fusion.contributions`)."""
        weights = self.weights
        return sum(value * weights.get(part, 0.0) for part, value in self.parts.get(node, {}).items())


class Reading:
    """The state of a question as the steps read it.

    ``index`` and ``table`` are the search index and the concept table of
    ``kb``. Set by :func:`rules_kb.ask.understand.understand`: ``recognition``,
    ``concepts`` (with typed rule numbers, in the question's order),
    ``facts``, ``pairs`` (analysed words and their text) and ``unknown``
    (nothing recognised: the reading stops). By
    :func:`rules_kb.ask.retrieve.search_words`: ``words`` (index term →
    word as typed), ``expansion`` (the documents' words for the concepts),
    ``query`` and ``terms`` (the index query and its terms), ``hits`` (the
    rules found, by node). ``vector`` is the question's embedding being
    computed (:class:`rules_kb.engines.embedding.QueryVector`, None without the
    dense signals), ``hidden`` situations (by number) are left out of the
    situation signals and ``hidden_stories`` (by number) out of the rules'
    profiles (to learn the fusion on the situations and stories themselves),
    ``names`` are the later keywords and unknown card names read
    (:class:`rules_kb.ask.names.Named`), ``notes`` say what the answer lacked, ``remarks`` what was read beyond
    the concepts and facts (:class:`rules_kb.ask.answer.Remark`). Then ``candidates`` are scored part by part;
    ``verification`` is the checker's; ``answers``, ``rulings`` and
    ``glossary`` make the answer.
    """

    def __init__(
        self, kb: KnowledgeBase, question: str, limit: int, edition: str | None, vector=None,
        weights: dict[str, float] | None = None, hidden: frozenset[int] = frozenset(),
        hidden_stories: frozenset[int] = frozenset(),
    ) -> None:  # fmt: skip
        self.kb = kb
        self.index: SearchIndex = kb.index
        self.table: ConceptTable = kb.concepts
        self.question = question
        self.limit = limit
        self.edition = edition
        self.recognition: Recognition | None = None
        self.concepts: list[Concept] = []
        self.facts: Facts = Facts()
        self.pairs: list[tuple[str, str]] = []
        self.unknown = False
        self.nearest: tuple[str, ...] = ()
        self.words: dict[str, str] = {}
        self.expansion: list[str] = []
        self.query = None
        self.terms: frozenset[str] = frozenset()
        self.hits: dict[str, object] = {}
        self.vector = vector
        self.hidden = hidden
        self.hidden_stories = hidden_stories
        self.notes: list[str] = []
        self.remarks: list[Remark] = []
        self.names: list = []
        self.dense_parts: dict[str, dict[str, float]] = {}
        self.candidates = Candidates(weights)
        self.verification = Verification()
        self.answers: list[RuleAnswer] = []
        self.rulings: tuple[Ruling, ...] = ()
        self.glossary: tuple[GlossaryEntry, ...] = ()
