"""Step 1 of ``ask``: understand the question — its concepts, the rule
numbers typed, and the facts of the board."""

from __future__ import annotations

import re

from rules_kb.ask.answer import Remark, RemarkKind
from rules_kb.ask.facts import extract_facts
from rules_kb.ask.named_edition import named_edition
from rules_kb.ask.names import later_keywords, unknown_card_names
from rules_kb.ask.reading import Reading
from rules_kb.core.errors import QueryError
from rules_kb.core.model import rule_node
from rules_kb.core.text import fold
from rules_kb.engines.concepts import Concept, ConceptKind, Target

#: Rule numbers typed in a question: 420, 420.5, 420.5c.
RULE_NUMBER_RE = re.compile(r"(?<![\d./])(\d{3}(?:\.\d+[a-z]?)?)(?![\d/]|\.\d)")


def understand(reading: Reading) -> None:
    """The concepts of the question (:mod:`rules_kb.engines.concepts`: glossary
    terms, keyword abilities, rule titles, FAQ cards, the players' lexicon,
    typos corrected), the rule numbers typed, and the facts of the board
    (:mod:`rules_kb.ask.facts`). A question where none is found is
    ``unknown``, with the nearest terms. Raises :class:`QueryError` for a
    question without any significant word."""
    kb, question, edition = reading.kb, reading.question, reading.edition
    index = reading.index
    reading.recognition = reading.table.recognise(
        question, lambda stem: index.holds("text", stem), lambda: kb.cached("vocabulary", lambda: rules_vocabulary(kb))
    )
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
    read_names(reading, concepts)
    names = reading.names
    reading.concepts = [c for c in concepts if not any(n.start <= c.start and c.end <= n.end for n in names)]
    named = {fold(word) for name in names for word in name.text.split()}
    if named:
        kept = tuple(c for c in reading.recognition.corrections if c.word not in named)
        reading.recognition = reading.recognition._replace(corrections=kept)
    reading.facts = extract_facts(question)
    reading.pairs = reading.index.pairs(question)
    if not concepts and not reading.facts.checkable:
        if not reading.pairs and not reading.facts.read:
            raise QueryError(
                "La question ne contient aucun mot significatif. Décrivez la situation, "
                "par exemple « ma créature 2/2 a pris 2 blessures, elle meurt ? »."
            )
        reading.unknown = True
        reading.nearest = nearest_terms(reading)


def rules_vocabulary(kb) -> dict[str, str]:
    """The words of the rules' titles and texts of five letters or more,
    folded, → their index term, the most frequent first: what a typo the
    concepts' phrases do not explain is read as (« blesures » → blessures)."""
    counts: dict[str, int] = {}
    stems: dict[str, str] = {}
    for rule in kb.corpus.rules:
        for term, original in kb.index.pairs(f"{rule.title}\n{rule.text}"):
            word = fold(original)
            if len(word) >= 5 and word.isalpha():
                counts[word] = counts.get(word, 0) + 1
                stems.setdefault(word, term)
    return {word: stems[word] for word in sorted(counts, key=lambda w: (-counts[w], w))}


def read_names(reading: Reading, concepts: list[Concept]) -> None:
    """The names of the question the corpus does not know
    (:mod:`rules_kb.ask.names`): later keywords and unknown card names,
    each said once in the remarks and kept in ``reading.names`` so that
    their words weigh nothing in the word signals."""
    index = reading.index

    def known_word(word: str) -> bool:
        return any(index.holds("text", token.term) for token in index.analyze(word))

    keywords = later_keywords(reading.kb.later_keywords, reading.question)
    spans = [(c.start, c.end) for c in concepts] + [(n.start, n.end) for n in keywords]
    edition = named_edition(reading.kb, reading.question)
    if edition is not None:  # "Depuis Spirale temporelle": an edition, not a card
        spans.append((edition.start, edition.end))
    cards = unknown_card_names(reading.question, known_word, spans)
    reading.names = sorted([*keywords, *cards], key=lambda named: named.start)
    seen: set[str] = set()
    for named in reading.names:
        kind = RemarkKind.UNKNOWN_CARD if named.keyword is None else RemarkKind.LATER_KEYWORD
        if named.meaning not in seen:
            seen.add(named.meaning)
            reading.remarks.append(Remark(kind, named.text, named.meaning))


def nearest_terms(reading: Reading, count: int = 5) -> tuple[str, ...]:
    """Glossary terms nearest to the question's words."""
    from rapidfuzz import fuzz, process  # deferred: rapidfuzz (8 ms), only when nothing of the question is known

    names = [entry.term for entry in reading.kb.glossary.entries]
    words = [original for _, original in reading.pairs if len(original) >= 3 and not any(c.isdigit() for c in original)]
    scored: dict[str, float] = {}
    for word in words or [reading.question]:
        for name, score, _ in process.extract(word, names, scorer=fuzz.WRatio, limit=count):
            scored[name] = max(scored.get(name, 0.0), score)
    return tuple(name for name, _ in sorted(scored.items(), key=lambda item: -item[1])[:count])
