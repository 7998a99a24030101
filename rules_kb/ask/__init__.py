"""``ask``: the rules that apply to a situation told in a player's words.

:func:`ask` reads a question through the named steps of :data:`STEPS`, each
adding to a :class:`~rules_kb.ask.reading.Reading`:

1. :func:`~rules_kb.ask.understand.understand` — the concepts of the
   question (glossary terms, keyword abilities, rule titles, FAQ cards, the
   players' lexicon, typos corrected), the rule numbers typed, the facts of
   the board; a question where none is found gets an honest "je ne sais
   pas" with the nearest terms, no rules;
2. :func:`~rules_kb.ask.retrieve.search_words` — the index searched with
   the question's words and the concepts' words;
3. :func:`~rules_kb.ask.semantic.search_situations` — the same words in
   the rules' profiles, their words and their situations', told as
   players tell them; then :func:`~rules_kb.ask.mechanisms.weigh_mechanisms`
   — the mechanisms the story implies without naming them;
4. :func:`~rules_kb.ask.rank.weigh_concepts` — each concept scores the
   rules it names through the graph;
5. :func:`~rules_kb.ask.rank.expand_graph` — the best rules pass a share of
   their score to the rules they cite;
6. :func:`~rules_kb.ask.verify.verify` — the checker judges the board;
7. :func:`~rules_kb.ask.semantic.weigh_dense` — the question's meaning
   (its embedding, computed in a thread since the start, so last of the
   searches) against every rule's profile;
8. :func:`~rules_kb.ask.rank.weigh_companions` — the rules judges cite
   with the best ones so far, learned from the players' stories;
9. :func:`~rules_kb.ask.rank.rank` — the rules, best first, by their
   signals times the weights learned from data (:mod:`rules_kb.ask.fusion`);
10. :func:`~rules_kb.ask.related.find_rulings` — the FAQ rulings on them;
11. :func:`~rules_kb.ask.related.find_glossary` — the glossary entries of the concepts.

Before step 1 the question is read as written on a phone
(:mod:`rules_kb.ask.normalise`: SMS spellings) and the edition it names
is taken (:mod:`rules_kb.ask.named_edition`); the dense model reads it so
rewritten (:func:`~rules_kb.ask.normalise.as_read`: on the SMS register
of the validation set, recall@1 0.78 → 0.92 against the question as typed).

``RuleAnswer.parts`` of each rule say where its score came from.
"""

from __future__ import annotations

from collections.abc import Callable

from rules_kb.ask.answer import Answer, Remark, RemarkKind, RuleAnswer, Verification
from rules_kb.ask.fusion import weights as fusion_weights
from rules_kb.ask.mechanisms import weigh_mechanisms
from rules_kb.ask.named_edition import named_edition
from rules_kb.ask.normalise import as_read, normalise
from rules_kb.ask.question import MAX_QUESTION, check_length
from rules_kb.ask.rank import expand_graph, rank, weigh_companions, weigh_concepts
from rules_kb.ask.reading import Reading
from rules_kb.ask.related import find_glossary, find_rulings
from rules_kb.ask.retrieve import search_words
from rules_kb.ask.semantic import fill_dense, search_situations, weigh_dense
from rules_kb.ask.understand import understand
from rules_kb.ask.verify import verify
from rules_kb.core.errors import QueryError
from rules_kb.loader import KnowledgeBase
from rules_kb.loader import prefetch as start_embedding

#: The steps of :func:`ask`, in order.
STEPS: tuple[Callable[[Reading], None], ...] = (
    understand,
    search_words,
    search_situations,
    weigh_mechanisms,
    weigh_concepts,
    expand_graph,
    verify,
    weigh_dense,
    weigh_companions,
    rank,
    find_rulings,
    find_glossary,
)


def ask(kb: KnowledgeBase, question: str, limit: int = 5, edition: str | None = None, dense: bool = True) -> Answer:
    """The rules that apply to ``question``, ranked, with the glossary terms,
    FAQ rulings and checker outcome that bear on it (see the module
    docstring). ``limit`` ≥ 1 rules; ``edition`` restricts the rules to one
    edition (and the checker to it when it follows it); without it, the
    edition the question names, if any (:mod:`rules_kb.ask.named_edition`),
    said in ``remarks``; ``dense`` false
    leaves the embedding model out (the words alone). Raises
    :class:`QueryError` for a question without any word or longer than
    :data:`MAX_QUESTION` characters (before any reading), and
    :class:`rules_kb.core.errors.UnknownEditionError`.
    """
    check_length(question)
    edition = kb.check_edition(edition)
    if not question.strip():
        raise QueryError(
            "La question est vide. Décrivez la situation, par exemple « ma 2/2 a pris 2 blessures, elle meurt ? »."
        )
    text, rewrites = normalise(question, kb.french_words)
    vector = kb.embedder.query_vector(text) if dense and not kb.dense.empty else None
    edition, remarks = edition_asked(kb, text, edition)
    reading = Reading(kb, text, limit, edition, vector, fusion_weights(dense=vector is not None))
    reading.remarks += [Remark(RemarkKind.REWRITE, rewrite.original, rewrite.meaning) for rewrite in rewrites] + remarks
    if dense and vector is None:
        reading.notes.append(
            "Recherche par le sens indisponible (aucun vecteur dans le cache) : règles trouvées par les mots seuls."
        )
    for step in STEPS:
        step(reading)
        if reading.unknown:
            return Answer(question, (), reading.recognition.corrections, reading.facts, (), (), (), Verification(),
                          (), "", unknown=True, nearest=reading.nearest, notes=tuple(reading.notes),
                          remarks=tuple(reading.remarks))  # fmt: skip
    return Answer(
        question=question,
        concepts=tuple(reading.concepts),
        corrections=reading.recognition.corrections,
        facts=reading.facts,
        rules=tuple(reading.answers),
        glossary=reading.glossary,
        rulings=reading.rulings,
        verification=reading.verification,
        terms=tuple(dict.fromkeys([*reading.words.values(), *reading.expansion])),
        parsed=str(reading.query) if reading.query is not None else "",
        notes=tuple(reading.notes),
        remarks=tuple(reading.remarks),
    )


def edition_asked(kb: KnowledgeBase, question: str, edition: str | None) -> tuple[str | None, list[Remark]]:
    """The edition whose rules answer ``question``: ``edition`` when given,
    else the one the question names if its rules stand alone
    (:func:`rules_kb.ask.named_edition.named_edition`), else None (every
    edition); with the remark saying so (a list of zero or one)."""
    named = named_edition(kb, question)
    if named is None:
        return edition, []
    if edition is None:
        return (named.edition if named.restricts else None), [Remark(RemarkKind.EDITION, named.text, named.meaning)]
    if named.edition != edition:
        return edition, [
            Remark(RemarkKind.EDITION, named.text, f"« {named.text} » : l'édition choisie ({edition}) l'emporte")
        ]
    return edition, []


def candidate_signals(
    kb: KnowledgeBase,
    question: str,
    vector=None,
    hidden: frozenset[int] = frozenset(),
    edition: str | None = None,
    hidden_stories: frozenset[int] = frozenset(),
) -> dict[str, dict[str, float]]:
    """Rule node → its raw signal values (:data:`rules_kb.ask.fusion.FEATURES`)
    for every candidate of ``question``, as :func:`ask` computes them before
    ranking; what ``bench/train_fusion.py`` learns the weights from.
    ``vector`` is the question's embedding (an object whose ``result()``
    gives it, None: no dense signals); ``hidden`` situations and
    ``hidden_stories`` (:class:`rules_kb.engines.dense.StoryRows`, by number) are left out.
    Empty for a question ``ask`` does not understand."""
    text, _ = normalise(question, kb.french_words)
    edition, _ = edition_asked(kb, text, edition)
    reading = Reading(kb, text, 1, edition, vector, fusion_weights(dense=vector is not None), hidden, hidden_stories)
    for step in STEPS[: STEPS.index(rank)]:
        step(reading)
        if reading.unknown:
            return {}
    fill_dense(reading)
    return {node: dict(parts) for node, parts in reading.candidates.parts.items()}


def prefetch(question: str) -> None:
    """Start embedding ``question`` as :func:`ask` will read it (its SMS
    spellings rewritten), before the corpus is open: the CLI calls it first,
    so that the model works while Python opens the corpus."""
    start_embedding(as_read(question))


__all__ = [
    "MAX_QUESTION",
    "STEPS",
    "Answer",
    "Remark",
    "RemarkKind",
    "RuleAnswer",
    "Verification",
    "ask",
    "candidate_signals",
    "edition_asked",
    "prefetch",
]
