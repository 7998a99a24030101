"""Step 1 of ``ask``: understand the question — its concepts, the rule
numbers typed, and the facts of the board."""

from __future__ import annotations

import re

from rules_kb.ask.facts import extract_facts
from rules_kb.ask.reading import Reading
from rules_kb.build.analysis import pairs
from rules_kb.build.concepts import Concept, ConceptKind, Target
from rules_kb.core.errors import QueryError
from rules_kb.core.model import rule_node

#: Rule numbers typed in a question: 420, 420.5, 420.5c.
RULE_NUMBER_RE = re.compile(r"(?<![\d./])(\d{3}(?:\.\d+[a-z]?)?)(?![\d/]|\.\d)")


def understand(reading: Reading) -> None:
    """The concepts of the question (:mod:`rules_kb.build.concepts`: glossary
    terms, keyword abilities, rule titles, FAQ cards, the players' lexicon,
    typos corrected), the rule numbers typed, and the facts of the board
    (:mod:`rules_kb.ask.facts`). A question where none is found is
    ``unknown``, with the nearest terms. Raises :class:`QueryError` for a
    question without any significant word."""
    kb, question, edition = reading.kb, reading.question, reading.edition
    index = reading.index
    reading.recognition = reading.table.recognise(question, lambda stem: index.holds("text", stem))
    concepts = list(reading.recognition.concepts)
    for match in RULE_NUMBER_RE.finditer(question.lower()):
        number = match.group(1)
        found = [kb.rule(number, e) for e in ((edition,) if edition else kb.editions)]
        nodes = tuple(rule_node(rule) for rule in found if rule is not None)
        if nodes:
            concepts.append(
                Concept(question[match.start() : match.end()], match.start(), match.end(),
                        Target(ConceptKind.NUMBER, number, nodes))
            )  # fmt: skip
    concepts.sort(key=lambda concept: concept.start)
    reading.concepts = concepts
    reading.facts = extract_facts(question)
    reading.pairs = pairs(question)
    if not concepts and not reading.facts.checkable:
        if not reading.pairs and not reading.facts.read:
            raise QueryError(
                "La question ne contient aucun mot significatif. Décrivez la situation, "
                "par exemple « ma créature 2/2 a pris 2 blessures, elle meurt ? »."
            )
        reading.unknown = True
        reading.nearest = nearest_terms(reading)


def nearest_terms(reading: Reading, count: int = 5) -> tuple[str, ...]:
    """Glossary terms nearest to the question's words."""
    from rapidfuzz import fuzz, process

    names = [entry.term for entry in reading.kb.glossary.entries]
    words = [original for _, original in reading.pairs if len(original) >= 3 and not any(c.isdigit() for c in original)]
    scored: dict[str, float] = {}
    for word in words or [reading.question]:
        for name, score, _ in process.extract(word, names, scorer=fuzz.WRatio, limit=count):
            scored[name] = max(scored.get(name, 0.0), score)
    return tuple(name for name, _ in sorted(scored.items(), key=lambda item: -item[1])[:count])
