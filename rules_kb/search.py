"""``search``: full-text search over every record of the corpus.

A query is typed like a search box: every significant word is required,
words are matched through the French analysis (accents, elision, stemming),
rule numbers as written (``420.5c``); Whoosh's query language (quoted
phrases, fields, ``AND``/``OR``/``NOT``) is understood, wildcards aside.
The index is :mod:`rules_kb.build.index`'s; hits are diversified by kind so
that a run of short rulings does not hide the section, rules and cards of
the same subject.
"""

from __future__ import annotations

from typing import NamedTuple

from rules_kb.build.index import read_index, snippet
from rules_kb.core.errors import QueryError
from rules_kb.core.model import RecordKind
from rules_kb.loader import KnowledgeBase

#: Each further hit of a kind already listed counts this much less (see :func:`diversified`).
KIND_DECAY = 0.7


class Hit(NamedTuple):
    """One search result.

    ``kind`` is the record kind (a :class:`RecordKind` value), ``id`` its
    identifier (rule number, glossary term, card name, section title,
    ``"<card>#<n>"`` for a ruling, whose ``title`` is then its card or
    section), ``edition`` the edition of a rule or glossary entry (``""``
    for FAQ and course records), ``score`` the BM25F score (higher is
    better), ``snippet`` an excerpt of its text and ``matches`` the ``[start,
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
    """Hits of ``query`` best first; ``parsed`` is the query that ran, as Whoosh writes it."""

    query: str
    hits: tuple[Hit, ...]
    parsed: str


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


def diversified(hits: list, limit: int) -> list:
    """The ``limit`` best of ``hits`` (best first, each with ``score`` and
    ``stored.kind``), each scored ``score × KIND_DECAY ** n`` where ``n`` is
    how many hits of its kind were already taken."""
    taken: list = []
    counts: dict[str, int] = {}
    remaining = list(hits)
    while remaining and len(taken) < limit:
        best = max(
            range(len(remaining)),
            key=lambda i: (remaining[i].score * KIND_DECAY ** counts.get(remaining[i].stored.kind, 0), -i),
        )
        hit = remaining.pop(best)
        counts[hit.stored.kind] = counts.get(hit.stored.kind, 0) + 1
        taken.append(hit)
    return taken


def search(
    kb: KnowledgeBase, query: str, limit: int = 10, edition: str | None = None, kinds: tuple[str, ...] = ()
) -> SearchResult:
    """Search every kind of record; every significant word of ``query`` is required.

    ``limit`` ≥ 1 is the number of hits; ``edition`` restricts to one
    edition (rules and glossary), ``kinds`` to some kinds (as a user types
    them, see :func:`resolve_kind`). Hits are best first, diversified by
    kind (:func:`diversified`). Raises :class:`QueryError` if ``query`` has
    no significant word or names an unknown kind, and
    :class:`rules_kb.core.errors.UnknownEditionError`.
    """
    wanted = tuple(dict.fromkeys(resolve_kind(kind).value for kind in kinds))
    edition = kb.check_edition(edition)
    if not query.strip():
        raise QueryError("La recherche est vide : donnez un ou plusieurs mots, par exemple « blessures fatales ».")
    index = kb.cached("index", lambda: read_index(kb.store, kb.cache_dir))
    found, terms, parsed = index.search_text(query, max(limit * 5, 50), edition, wanted)
    files = {document.id: document.file for document in kb.documents}
    hits = []
    for hit in diversified(found, limit):
        stored = hit.stored
        text, matches = snippet(stored, terms)
        rulings = ()
        if stored.kind == RecordKind.CARD.value:
            card = kb.record(stored.key)
            rulings = tuple(ruling.text for ruling in card.rulings) if card is not None else ()
        hits.append(
            Hit(
                kind=stored.kind,
                id=stored.id,
                edition=stored.edition,
                score=round(float(hit.score), 4),
                title=stored.title or stored.about,
                snippet=text,
                matches=matches,
                document=stored.document,
                line=stored.line,
                file=files.get(stored.document, stored.document),
                rulings=rulings,
            )
        )
    return SearchResult(query=query, hits=tuple(hits), parsed=parsed)


