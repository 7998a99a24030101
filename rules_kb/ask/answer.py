"""What ``ask`` answers: the rules proposed, with the checker's verdict and
what was understood of the question."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, NamedTuple

from rules_kb.ask.facts import Facts
from rules_kb.core.errors import QueryError, Remedy
from rules_kb.core.model import GlossaryEntry, Ruling
from rules_kb.engines.concepts import Concept, Correction

if TYPE_CHECKING:  # annotations only: the checker is imported for a board alone (:mod:`rules_kb.ask.verify`)
    from rules_kb.checker.report import CheckReport
    from rules_kb.checker.scenario import Scenario

#: The score parts, in the order ``--explain`` shows them, with their French names.
PARTS = {
    "text": "texte", "coverage": "couverture", "concepts": "concepts", "graph": "graphe",
    "checker": "vérification", "situations": "situations", "dense": "sens", "mechanisms": "mécanismes",
    "companions": "citées ensemble",
}  # fmt: skip


class RemarkKind(Enum):
    """What ``ask`` says it read in a question beyond its concepts and facts."""

    EDITION = "edition"
    """The question names an edition of the rules, which is the one asked (:mod:`rules_kb.ask.named_edition`)."""
    REWRITE = "rewrite"
    """A word rewritten before reading: an SMS spelling or a players' abbreviation (:mod:`rules_kb.ask.normalise`)."""
    UNKNOWN_CARD = "unknown_card"
    """A card name the corpus does not know: its text is not taken into account (:mod:`rules_kb.ask.names`)."""
    LATER_KEYWORD = "later_keyword"
    """A keyword of later rules, absent from the corpus's editions (:mod:`rules_kb.ask.names`)."""

    @property
    def label(self) -> str:
        """The French name of the kind."""
        return _REMARK_LABELS[self]


_REMARK_LABELS = {
    RemarkKind.EDITION: "édition", RemarkKind.REWRITE: "réécriture", RemarkKind.UNKNOWN_CARD: "carte inconnue",
    RemarkKind.LATER_KEYWORD: "mot-clé plus récent",
}  # fmt: skip


class Remark(NamedTuple):
    """One thing ``ask`` read in the question and says in « Compris »: its
    ``kind``, the question's ``text`` it is about and what it ``means``, a
    French phrase (« Carte inconnue du corpus : Phyrexian Metamorph — son
    texte n'est pas pris en compte »)."""

    kind: RemarkKind
    text: str
    meaning: str


class RuleAnswer(NamedTuple):
    """A rule proposed for a question.

    ``number``, ``edition`` and ``title`` of the rule; ``score`` the sum of
    ``parts`` (:data:`PARTS` → float: each signal's value times its learned
    weight, :mod:`rules_kb.ask.fusion`); ``why`` one French line: the
    concepts, the checker or the words that brought it; ``snippet`` an
    excerpt with the matched words at ``matches`` (``[start, end)`` ranges);
    ``text`` the rule's whole text (its paragraphs, without examples).
    """

    number: str
    edition: str
    score: float
    title: str
    why: str
    snippet: str
    matches: tuple[tuple[int, int], ...]
    parts: dict[str, float]
    text: str = ""


class VerdictKind(Enum):
    """What one sentence of the checker's verdict on a question's board says."""

    APPLIES = "applies"
    """A rule the checker applied to the board: a state-based effect performed, the values the layers
    give a creature, a draw (:func:`rules_kb.ask.verify.verification`)."""
    DOES_NOT_APPLY = "does_not_apply"
    """A state-based effect the facts bear on, examined, that does not happen (« elle survit »)."""
    TO_BE_SPECIFIED = "to_be_specified"
    """The decision needs a fact the question does not give (:func:`rules_kb.ask.verify.missing_facts`)."""
    ASSUMES = "assumes"
    """What the verdict supposes: the card named, whose text the corpus lacks, changes no rule."""

    @property
    def label(self) -> str:
        """The French name of the kind."""
        return _VERDICT_LABELS[self]


_VERDICT_LABELS = {
    VerdictKind.APPLIES: "s'applique", VerdictKind.DOES_NOT_APPLY: "ne s'applique pas",
    VerdictKind.TO_BE_SPECIFIED: "à préciser", VerdictKind.ASSUMES: "sous réserve",
}  # fmt: skip


class Verdict(NamedTuple):
    """One sentence of the checker's verdict: its ``kind``, the French
    ``text`` (« Votre 2/2 : détruit — … (420.5c) », « Ne s'applique pas :
    … (420.5c). ») and the ``rules`` it cites (numbers, ``()`` for none)."""

    kind: VerdictKind
    text: str
    rules: tuple[str, ...] = ()


class Verification(NamedTuple):
    """What the checker said about the board of a question.

    ``scenario`` is the :class:`rules_kb.checker.scenario.Scenario` it ran
    (None if none; ``ask --scenario`` writes it as a file), ``report`` the
    :class:`rules_kb.checker.report.CheckReport` (None when not run),
    ``verdicts`` its :class:`Verdict` sentences in order: the facts missing
    first (:attr:`VerdictKind.TO_BE_SPECIFIED`), then one per event, the
    layers' values, what does not apply and what the verdict assumes;
    ``applied`` the rule numbers of the events, ``examined`` the rules of
    the state-based effects the facts bear on, ``note`` why the checker did
    not run (``""`` when it ran or had nothing to judge), ``asked`` the
    applied rules whose outcome the question asks about (they come first;
    :func:`rules_kb.ask.verify.asked_about`), and ``undecided`` the rules
    that decide once a missing fact is known (given without a decision).
    """

    scenario: Scenario | None = None
    report: CheckReport | None = None
    verdicts: tuple[Verdict, ...] = ()
    applied: tuple[str, ...] = ()
    examined: tuple[str, ...] = ()
    note: str = ""
    asked: tuple[str, ...] = ()
    undecided: tuple[str, ...] = ()

    @property
    def outcome(self) -> tuple[str, ...]:
        """The French sentences of the verdicts but the facts missing, in order."""
        return tuple(verdict.text for verdict in self.verdicts if verdict.kind is not VerdictKind.TO_BE_SPECIFIED)

    @property
    def missing(self) -> tuple[str, ...]:
        """The French sentences naming a fact the decision needs and the question does not give."""
        return tuple(verdict.text for verdict in self.verdicts if verdict.kind is VerdictKind.TO_BE_SPECIFIED)


class Answer(NamedTuple):
    """The answer to a question.

    ``concepts`` recognised (:class:`rules_kb.engines.concepts.Concept`),
    ``corrections`` of typos, ``facts`` read (:class:`rules_kb.ask.facts.Facts`),
    ``rules`` best first, ``glossary`` entries of the concepts, ``rulings``
    of the FAQ, ``verification`` by the checker, ``terms`` the words
    searched, ``parsed`` the index query run (as Whoosh writes it).
    ``unknown`` is True when nothing in the question was recognised:
    ``rules`` is then empty and ``nearest`` lists the terms closest to its
    words. ``notes`` are French sentences on how the answer was made when
    it is less than usual (the semantic search unavailable). ``remarks``
    (:class:`Remark`) say what was read beyond the concepts and facts: the
    edition named, words rewritten, unknown card names, later keywords.
    """

    question: str
    concepts: tuple[Concept, ...]
    corrections: tuple[Correction, ...]
    facts: Facts
    rules: tuple[RuleAnswer, ...]
    glossary: tuple[GlossaryEntry, ...]
    rulings: tuple[Ruling, ...]
    verification: Verification
    terms: tuple[str, ...]
    parsed: str
    unknown: bool = False
    nearest: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    remarks: tuple[Remark, ...] = ()

    def scenario(self) -> Scenario:
        """The checker's scenario built from the question; raises
        :class:`QueryError`, in French, when it tells no board the checker can
        judge, saying what is missing."""
        if self.verification.scenario is not None:
            return self.verification.scenario
        reason = self.verification.note or (
            "aucune situation de jeu que le vérificateur sait juger (créatures avec force/endurance et "
            "blessures ou marqueurs, points de vie, marqueurs poison, légendes, jetons, auras)"
        )
        raise QueryError(
            f"Pas de scénario pour cette question : {reason[0].lower() + reason[1:].rstrip('.')}. Décrivez l'état "
            "du jeu, par exemple « ma 2/2 a 2 blessures »."
        ).with_remedy(Remedy.START_FROM_EXAMPLE)
