"""``search``: full-text search over every record of the corpus.

A query is typed like a search box: every significant word is required,
words are matched through the French analysis (accents, elision, stemming),
rule numbers as written (``420.5c``); a quoted phrase (``"blessures
fatales"``) is searched as a phrase, and nothing else of Whoosh's query
language: operators and fields are refused
(:meth:`rules_kb.engines.index.SearchIndex.check_query`), other
signs are read as plain words.
Plain words are read as ``ask`` reads them: a player's word, an English
name or a typo the concept table recognises
(:meth:`rules_kb.engines.concepts.ConceptTable.recognise`: "trample",
"first strike", "ETB", "pietinemnt") is searched as typed or in the
documents' words ("piétinement"), and :attr:`SearchResult.understood`
says so.
The index is :mod:`rules_kb.engines.index`'s; hits are diversified by kind so
that a run of short rulings does not hide the section, rules and cards of
the same subject, and each hit's score is the one that ranked it (its
BM25F score lowered by the hits of its kind before it): scores decrease
down the list.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from rules_kb.core.errors import QueryError
from rules_kb.core.model import RecordKind
from rules_kb.engines.concepts import ConceptKind
from rules_kb.loader import KnowledgeBase

#: Each further hit of a kind already listed counts this much less (see :func:`diversified`).
KIND_DECAY = 0.7


class Hit(NamedTuple):
    """One search result.

    ``kind`` is the record kind (a :class:`RecordKind` value), ``id`` its
    identifier (rule number, glossary term, card name, section title,
    ``"<card>#<n>"`` for a ruling, whose ``title`` is then its card or
    section), ``edition`` the edition of a rule or glossary entry (``""``
    for FAQ and course records), ``score`` the score that ranked it
    (higher is better): its BM25F score times :data:`KIND_DECAY` to the
    number of hits of its kind ranked before it (:func:`diversified`), so
    that the scores of a result decrease down its hits; ``snippet`` an excerpt of its text and ``matches`` the ``[start,
    end)`` character ranges of the matched words in ``snippet``;
    ``document`` and ``line`` where it was read, ``file`` that document's
    file name, and for a card its ``rulings`` (texts).
    """

    kind: str
    id: str
    edition: str
    score: float
    title: str
    snippet: str
    matches: tuple[tuple[int, int], ...]
    document: str = ""
    line: int = 0
    file: str = ""
    rulings: tuple[str, ...] = ()


class SearchResult(NamedTuple):
    """Hits of ``query`` best first; ``parsed`` is the query that ran, as
    Whoosh writes it; ``understood`` the words read in the documents' words
    (``"trample → Piétinement"``), in the query's order."""

    query: str
    hits: tuple[Hit, ...]
    parsed: str
    understood: tuple[str, ...] = ()


#: The kinds of concept whose name is words of the documents to search.
_SEARCHED_AS = (ConceptKind.GLOSSARY, ConceptKind.KEYWORD, ConceptKind.RULE, ConceptKind.CARD, ConceptKind.EXPRESSION)


def read_query(kb: KnowledgeBase, query: str) -> tuple[list[list[str]], tuple[str, ...]]:
    """The parts of a plain-words ``query`` (see
    :func:`rules_kb.engines.index.alternatives_query`: a word, or the words
    of a concept the players' lexicon or a corrected typo names, with the
    names it has in the documents) and what was understood
    (``"trample → Piétinement"``). A concept whose words the documents
    all use stays as typed ("mort" is searched as "mort", not as the
    lexicon's *Détruire*): the lexicon only reads the words they lack. A
    keyword of later rules (:mod:`rules_kb.engines.later_keywords`) is said
    absent from the corpus's editions and searched as its nearest notion."""
    table = kb.concepts
    index = kb.index
    recognition = table.recognise(query, lambda stem: index.holds("text", stem))
    names: dict[tuple[int, int], list[str]] = {}
    for concept in recognition.concepts:
        typed = [token.term for token in index.analyze(concept.text)]
        if all(index.holds("text", stem) for stem in typed) and not concept.corrected:
            continue  # the documents' own words: searched as typed ("mort", not "détruire")
        if (concept.via or concept.corrected) and concept.target.kind in _SEARCHED_AS:
            spoken = names.setdefault((concept.start, concept.end), [])
            for name in re.split(r"\s*[,/]\s*", concept.target.name):
                if name and name not in spoken:
                    spoken.append(name)
    later = {(start, end): keyword for start, end, keyword in kb.later_keywords.find(query)}
    whole = kb.later_keywords.named(query)
    if whole is not None and not later:
        later[(len(query) - len(query.lstrip()), len(query.rstrip()))] = whole
    for (start, end), keyword in later.items():
        names = {span: spoken for span, spoken in names.items() if span[1] <= start or end <= span[0]}
        names[(start, end)] = [keyword.nearest] if keyword.nearest else []
    parts: list[list[str]] = []
    understood: list[str] = []
    position = 0
    for (start, end), spoken in sorted(names.items()):
        parts.extend([word] for word in query[position:start].split())
        typed = query[start:end]
        parts.append([typed, *spoken])
        if (start, end) in later:
            understood.append(f"{typed} : {later[(start, end)].meaning}")
        else:
            understood.append(f"{typed} → {' / '.join(spoken)}")
        position = end
    parts.extend([word] for word in query[position:].split())
    return parts, tuple(understood)


def resolve_kind(kind: str) -> RecordKind:
    """The :class:`RecordKind` a user typed (``"carte"``, ``"card"``,
    ``"Décisions"``); raises :class:`QueryError`."""
    found = RecordKind.named(kind)
    if found is None:
        raise QueryError(
            f"Type d'enregistrement inconnu : « {kind} ». Types acceptés : règle, glossaire, carte, "
            "décision, faq (sections de la FAQ), cours — ou leurs noms anglais rule, glossary, card, "
            "ruling, faq-section, course."
        )
    return found


def diversified(hits: list, limit: int) -> list[tuple[Any, float]]:
    """The ``limit`` best of ``hits`` (best first, each with ``score`` and
    ``stored.kind``) with the score that ranked each: ``score × KIND_DECAY
    ** n`` where ``n`` is how many hits of its kind were already taken.
    Those scores never increase down the list (taking a hit only lowers the
    scores of its kind)."""
    taken: list[tuple[Any, float]] = []
    counts: dict[str, int] = {}
    remaining = list(hits)
    while remaining and len(taken) < limit:
        scores = [hit.score * KIND_DECAY ** counts.get(hit.stored.kind, 0) for hit in remaining]
        best = max(range(len(remaining)), key=lambda i: (scores[i], -i))
        hit = remaining.pop(best)
        counts[hit.stored.kind] = counts.get(hit.stored.kind, 0) + 1
        taken.append((hit, scores[best]))
    return taken


def search(
    kb: KnowledgeBase, query: str, limit: int = 10, edition: str | None = None, kinds: tuple[str, ...] = ()
) -> SearchResult:
    """Search every kind of record; every significant word of ``query`` is required.

    ``limit`` ≥ 1 is the number of hits; ``edition`` restricts to one
    edition (rules and glossary), ``kinds`` to some kinds (as a user types
    them, see :func:`resolve_kind`). Hits are best first, diversified by
    kind (:func:`diversified`). Raises :class:`QueryError` if ``query`` has
    no significant word, holds an operator or a field
    (:meth:`rules_kb.engines.index.SearchIndex.check_query`) or names an unknown kind, and
    :class:`rules_kb.core.errors.UnknownEditionError`.
    """
    wanted = tuple(dict.fromkeys(resolve_kind(kind).value for kind in kinds))
    edition = kb.check_edition(edition)
    if not query.strip():
        raise QueryError("La recherche est vide : donnez un ou plusieurs mots, par exemple « blessures fatales ».")
    index = kb.index
    index.check_query(query)
    understood: tuple[str, ...] = ()
    if not index.uses_syntax(query):
        parts, understood = read_query(kb, query)
    if understood and (expanded := index.alternatives_query(parts)) is not None:
        found = index.run(expanded, max(limit * 5, 50), index.allowed(edition, wanted))
        terms, parsed = index.terms_of(expanded), str(expanded)
    else:
        found, terms, parsed = index.search_text(query, max(limit * 5, 50), edition, wanted)
    files = {document.id: document.file for document in kb.documents}
    hits = []
    for hit, score in diversified(found, limit):
        stored = hit.stored
        text, matches = index.snippet(stored, terms)
        rulings = ()
        if stored.kind == RecordKind.CARD.value:
            card = kb.record(stored.key)
            rulings = tuple(ruling.text for ruling in card.rulings) if card is not None else ()
        hits.append(
            Hit(
                kind=stored.kind,
                id=stored.id,
                edition=stored.edition,
                score=round(float(score), 4),
                title=stored.title or stored.about,
                snippet=text,
                matches=matches,
                document=stored.document,
                line=stored.line,
                file=files.get(stored.document, stored.document),
                rulings=rulings,
            )
        )
    return SearchResult(query=query, hits=tuple(hits), parsed=parsed, understood=understood)
