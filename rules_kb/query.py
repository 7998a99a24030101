"""Full-text search and questions over the Whoosh index of a knowledge base.

``search`` runs a query typed like a search box (all words required, quoted
phrases, ``titre:…`` style fields of Whoosh's query language except
wildcards). The helpers here (index, snippets, filters) also serve
``ask`` (:mod:`rules_kb.ask`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules_kb.errors import QueryError
from rules_kb.kb import INDEX_DIR, KnowledgeBase

#: Searched fields; their boosts are set in the index schema (number ≫ title > text, cites > examples).
FIELDS = ("number", "cites", "title", "text", "examples")
_SNIPPET_FIELDS = ("text", "examples", "title")
_SNIPPET_CHARS = 320

#: Record kinds in the index, with the French name users see and type
#: (``--kind``): rules, glossary entries, FAQ cards, FAQ rulings, FAQ
#: general sections, course sections.
KINDS = {
    "rule": "règle",
    "glossary": "glossaire",
    "card": "carte",
    "ruling": "décision",
    "faq-section": "section de FAQ",
    "course": "cours",
}
#: What ``--kind`` accepts for each kind, besides its English id.
KIND_ALIASES = {
    "regle": "rule", "règle": "rule", "regles": "rule", "règles": "rule",
    "glossaire": "glossary", "terme": "glossary",
    "carte": "card", "cartes": "card",
    "decision": "ruling", "décision": "ruling", "decisions": "ruling", "décisions": "ruling",
    "faq": "faq-section", "section": "faq-section",
    "cours": "course",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result.

    ``kind`` is the record kind (a key of :data:`KINDS`), ``id`` its
    identifier (rule number, glossary term, card name, section title,
    ``"<card>#<n>"`` for a ruling, whose ``title`` is then its card or
    section), ``edition`` the edition of a rule or
    glossary entry (``""`` for FAQ and course records), ``document`` and
    ``line`` where it was read, ``score`` the BM25F score (higher is better), ``snippet`` an
    excerpt of its text and ``matches`` the ``[start, end)`` character ranges
    of the matched words in ``snippet``.
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


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Hits of ``query`` best first; ``parsed`` is the Whoosh query that ran."""

    query: str
    hits: tuple[Hit, ...]
    parsed: str


def _open_index(kb: KnowledgeBase):
    from whoosh import index

    return index.open_dir(str(kb.cache_dir / INDEX_DIR))


def _snippet(hit, terms: frozenset[str], width: int = _SNIPPET_CHARS) -> tuple[str, tuple[tuple[int, int], ...]]:
    """An excerpt of the hit's first field holding a searched term, and the
    ``[start, end)`` ranges of the matched words in it.

    A text up to ``width`` characters is given whole; a longer one is cut
    at word boundaries around its first match, with "…" where it was cut.
    """
    from rules_kb.analysis import french_analyzer

    analyzer = french_analyzer()
    for field in _SNIPPET_FIELDS:
        text = hit.get(field) or ""
        spans = [
            (token.startchar, token.endchar)
            for token in analyzer(text, chars=True, removestops=True)
            if token.text in terms
        ]
        if spans:
            break
    else:
        text = hit.get("text") or hit.get("title") or ""
        spans = []
    if len(text) <= width:
        return text, tuple(spans)
    first = spans[0][0] if spans else 0
    start = max(0, first - width // 3)
    if start:
        start = text.find(" ", start) + 1 or start
    end = min(len(text), start + width)
    if end < len(text):
        end = text.rfind(" ", start, end) if " " in text[start:end] else end
    prefix = "…" if start else ""
    suffix = "…" if end < len(text) else ""
    excerpt = prefix + text[start:end].strip() + suffix
    shift = len(prefix) - start
    inside = tuple((a + shift, b + shift) for a, b in spans if a >= start and b <= end)
    return excerpt, inside


def _searched_terms(query) -> frozenset[str]:
    return frozenset(
        term.decode("utf-8") if isinstance(term, bytes) else str(term)
        for _field, term in query.iter_all_terms()
    )


def resolve_kind(kind: str) -> str:
    """The kind id (a key of :data:`KINDS`) for what a user typed
    (``"carte"``, ``"card"``, ``"Décisions"``); raises :class:`QueryError`."""
    from rules_kb.text import fold

    wanted = kind.strip().lower()
    if wanted in KINDS:
        return wanted
    resolved = KIND_ALIASES.get(wanted) or KIND_ALIASES.get(fold(wanted))
    if resolved:
        return resolved
    raise QueryError(
        f"Type d'enregistrement inconnu : « {kind} ». Types acceptés : règle, glossaire, carte, "
        "décision, faq (sections de la FAQ), cours — ou leurs noms anglais rule, glossary, card, "
        "ruling, faq-section, course."
    )


def _filter(edition: str | None, kinds: tuple[str, ...] = ()):
    from whoosh.query import And, Or, Term

    parts = []
    if edition:
        parts.append(Term("edition", edition))
    if kinds:
        parts.append(Or([Term("kind", kind) for kind in kinds]))
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else And(parts)


#: Each further hit of a kind already listed counts this much less (see :func:`_diversified`).
KIND_DECAY = 0.7


def _diversified(results: list, limit: int) -> list:
    """The ``limit`` best of ``results`` (Whoosh hits, best first), each
    scored ``score × KIND_DECAY ** n`` where ``n`` is how many hits of its
    kind were already taken: many short rulings do not hide the section,
    rules and cards on the same subject."""
    taken: list = []
    counts: dict[str, int] = {}
    remaining = list(results)
    while remaining and len(taken) < limit:
        best = max(
            range(len(remaining)),
            key=lambda i: (remaining[i].score * KIND_DECAY ** counts.get(remaining[i]["kind"], 0), -i),
        )
        hit = remaining.pop(best)
        counts[hit["kind"]] = counts.get(hit["kind"], 0) + 1
        taken.append(hit)
    return taken


def search(
    kb: KnowledgeBase, query: str, limit: int = 10, edition: str | None = None, kinds: tuple[str, ...] = ()
) -> SearchResult:
    """Search every kind of record; every significant word of ``query`` is required.

    Words are matched through the French analyzer (accents, elision,
    stemming), rule numbers as written (``420.5c``). ``limit`` ≥ 1 is the
    number of hits; ``edition`` restricts to one edition (rules and
    glossary), ``kinds`` to some kinds (keys of :data:`KINDS`). Hits are
    best first, diversified by kind (:func:`_diversified`). Raises
    :class:`QueryError` if ``query`` has no significant word.
    """
    from whoosh.qparser import MultifieldParser, WildcardPlugin

    if not query.strip():
        raise QueryError("La recherche est vide : donnez un ou plusieurs mots, par exemple « blessures fatales ».")
    ix = _open_index(kb)
    parser = MultifieldParser(list(FIELDS), ix.schema)
    parser.remove_plugin_class(WildcardPlugin)
    parsed = parser.parse(query)
    if not any(True for _ in parsed.iter_all_terms()):
        raise QueryError(
            f"La recherche « {query} » ne contient aucun mot significatif "
            "(les mots comme « le », « de », « est » sont ignorés). Ajoutez des mots de la règle."
        )
    with ix.searcher() as searcher:
        results = searcher.search(parsed, limit=max(limit * 5, 50), filter=_filter(edition, kinds))
        terms = _searched_terms(parsed)
        hits = []
        for hit in _diversified(list(results), limit):
            snippet, matches = _snippet(hit, terms)
            hits.append(
                Hit(
                    kind=hit["kind"],
                    id=hit["id"],
                    edition=hit["edition"],
                    score=round(float(hit.score), 4),
                    title=hit.get("title") or hit.get("about", ""),
                    snippet=snippet,
                    matches=matches,
                    document=hit.get("document", ""),
                    line=hit.get("line", 0),
                )
            )
    return SearchResult(query=query, hits=tuple(hits), parsed=str(parsed))
