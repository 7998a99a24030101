"""Step 2 of ``ask``: search the rules with the question's words.

The index (BM25F, title ×3, text, examples ×0.6) is searched with the
question's words and, at :data:`EXPANSION_BOOST`, the documents' words for
the concepts the player named otherwise ("trample" searches
"piétinement"). The best rule for the words scores :data:`TEXT_WEIGHT`;
the share of the searched words a rule holds adds :data:`COVERAGE_WEIGHT`.
"""

from __future__ import annotations

from rules_kb.ask.reading import Reading
from rules_kb.core.model import RecordKind, node_id
from rules_kb.core.text import fold
from rules_kb.engines.concepts import ConceptKind
from rules_kb.engines.index import Group, SearchIndex, Term

#: Weight of the documents' words searched for a concept named otherwise.
EXPANSION_BOOST = 0.5
#: Weight of a word found in a rule's examples rather than its text (on top of the index's field boost):
#: an example tells a case, the text the rule.
EXAMPLES_BOOST = 0.25
#: How many rules the words' search returns.
SEARCHED = 50
#: Weight of the words' part (BM25F, the best rule for the words scores this).
TEXT_WEIGHT = 1.0
#: Weight of the share of the question's words a rule holds.
COVERAGE_WEIGHT = 0.3
#: Words of the way players ask, not of the situation: never searched.
QUESTION_WORDS = frozenset(
    [
        "veut",
        "veux",
        "dire",
        "quoi",
        "comment",
        "pourquoi",
        "marche",
        "marcher",
        "fonctionne",
        "fonctionner",
        "passe",
        "passer",
        "peux",
        "dois",
        "faut",
        "sais",
        "savoir",
        "question",
        "exemple",
        "vrai",
        "genre",
        "truc",
        "trucs",
        "ok",
        "svp",
        "merci",
        "bon",
        "ben",
        "bah",
        "hein",
        "est-ce",
        "pris",
    ]
)
_FIELDS = {"title": 1.0, "text": 1.0, "examples": EXAMPLES_BOOST}


def concept_stems(index: SearchIndex, name: str) -> list[str]:
    """The terms of ``index`` of a concept's name, numbers aside."""
    return [token.term for token in index.analyze(name) if not any(char.isdigit() for char in token.term)]


def search_words(reading: Reading) -> None:
    """Search the rules (of the edition asked for) with the question's words
    and the concepts' words; score the rules found (parts ``text`` and
    ``coverage``). The words of names the corpus does not know (an unknown
    card, a later keyword: ``reading.names``) are not searched."""
    fixed = {correction.word: correction.stem for correction in reading.recognition.corrections}
    named = {fold(word) for name in reading.names for word in name.text.split()}
    words: dict[str, str] = {}
    for term, original in reading.pairs:
        if any(char.isdigit() for char in term) or fold(original) in QUESTION_WORDS or fold(original) in named:
            continue
        words.setdefault(fixed.get(fold(original), term), original)
    subqueries = [Term(field, term, boost) for term in words for field, boost in _FIELDS.items()]
    expansion: list[str] = []
    for concept in reading.concepts:
        if concept.target.kind in (ConceptKind.CARD, ConceptKind.NUMBER):
            continue
        for stem in concept_stems(reading.index, concept.target.name):
            if stem not in words and stem not in expansion:
                expansion.append(stem)
    subqueries += [Term(field, stem, EXPANSION_BOOST * boost) for stem in expansion for field, boost in _FIELDS.items()]
    reading.words, reading.expansion = words, expansion
    reading.query = Group(False, tuple(subqueries)) if subqueries else None
    reading.terms = reading.index.terms_of(reading.query)
    if reading.query is None:
        return
    index = reading.index
    results = index.run(reading.query, SEARCHED, index.allowed(reading.edition, (RecordKind.RULE.value,)))
    top = max((hit.score for hit in results), default=0.0) or 1.0
    wanted = set(words) | set(expansion)
    for hit in results:
        node = node_id(RecordKind.RULE, hit.stored.edition, hit.stored.id)
        reading.hits[node] = hit
        matched = [original for term, original in words.items() if term in hit.matched]
        reading.candidates.add(
            node, "text", TEXT_WEIGHT * hit.score / top, "mots : " + ", ".join(matched) if matched else ""
        )
        reading.candidates.add(node, "coverage", COVERAGE_WEIGHT * len(hit.matched & wanted) / max(1, len(wanted)))
