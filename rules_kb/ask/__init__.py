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
3. :func:`~rules_kb.ask.rank.weigh_concepts` — each concept scores the
   rules it names through the graph;
4. :func:`~rules_kb.ask.rank.expand_graph` — the best rules pass a share of
   their score to the rules they cite;
5. :func:`~rules_kb.ask.rank.favour_subrules` — the specific subrule before
   its heading;
6. :func:`~rules_kb.ask.rank.place_among_siblings` — the first subrules
   (which define) first;
7. :func:`~rules_kb.ask.verify.verify` — the checker judges the board;
8. :func:`~rules_kb.ask.rank.rank` — the rules, best first;
9. :func:`~rules_kb.ask.related.find_rulings` — the FAQ rulings on them;
10. :func:`~rules_kb.ask.related.find_glossary` — the glossary entries of the concepts.

``RuleAnswer.parts`` of each rule say where its score came from.
"""

from __future__ import annotations

from collections.abc import Callable

from rules_kb.ask.answer import Answer, RuleAnswer, Verification
from rules_kb.ask.rank import expand_graph, favour_subrules, place_among_siblings, rank, weigh_concepts
from rules_kb.ask.reading import Reading
from rules_kb.ask.related import find_glossary, find_rulings
from rules_kb.ask.retrieve import search_words
from rules_kb.ask.understand import understand
from rules_kb.ask.verify import verify
from rules_kb.core.errors import QueryError
from rules_kb.loader import KnowledgeBase

#: The steps of :func:`ask`, in order.
STEPS: tuple[Callable[[Reading], None], ...] = (
    understand,
    search_words,
    weigh_concepts,
    expand_graph,
    favour_subrules,
    place_among_siblings,
    verify,
    rank,
    find_rulings,
    find_glossary,
)


def ask(kb: KnowledgeBase, question: str, limit: int = 5, edition: str | None = None) -> Answer:
    """The rules that apply to ``question``, ranked, with the glossary terms,
    FAQ rulings and checker outcome that bear on it (see the module
    docstring). ``limit`` ≥ 1 rules; ``edition`` restricts the rules to one
    edition (and the checker to it when it follows it). Raises
    :class:`QueryError` for a question without any word and
    :class:`rules_kb.core.errors.UnknownEditionError`.
    """
    edition = kb.check_edition(edition)
    if not question.strip():
        raise QueryError(
            "La question est vide. Décrivez la situation, par exemple « ma 2/2 a pris 2 blessures, elle meurt ? »."
        )
    reading = Reading(kb, question, limit, edition)
    for step in STEPS:
        step(reading)
        if reading.unknown:
            return Answer(question, (), reading.recognition.corrections, reading.facts, (), (), (), Verification(),
                          (), "", unknown=True, nearest=reading.nearest)  # fmt: skip
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
    )


__all__ = ["Answer", "RuleAnswer", "STEPS", "Verification", "ask"]
