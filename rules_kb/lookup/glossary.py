"""``define``: a glossary term typed the way a judge types it in a hurry.

A query matches a headword or any of its forms after normalisation (case,
accents, plural ``s``/``x``: :func:`rules_kb.core.text.key`); failing
that, the closest headword within a typing error or two ("contrecarer",
"remplacment"), or a headword one of whose words is the query ("tampon" →
*Tampon horaire*). Pointer entries ("APNAP — Voir Règle du joueur actif,
joueur inactif") are followed.
"""

from __future__ import annotations

from typing import NamedTuple

from rules_kb.build.glossary import GlossaryIndex
from rules_kb.core.errors import QueryError, UnknownTermError
from rules_kb.core.model import Document, GlossaryEntry, Rule
from rules_kb.core.text import term_key
from rules_kb.loader import KnowledgeBase
from rules_kb.lookup.rules import Link, term_users

#: Lowest similarity (0–100) for an approximate match.
THRESHOLD = 80.0
#: Weight of a match on some words of a longer headword ("tampon" in "Tampon horaire").
_PART_WEIGHT = 0.9
_MAX_ALTERNATIVES = 8


class Definition(NamedTuple):
    """The answer to ``define``.

    ``entry`` is the best match; ``match`` says how it matched
    (``"exact"`` on its headword or a form, or ``"approx"``) and ``score``
    its similarity (100 for exact). ``followed`` are the entries its "Voir"
    pointers lead to, in order (a pointer entry's target first, then its
    own target…); ``cited_rules`` the rules it cites that exist in its
    edition; ``alternatives`` other entries that fit, best first;
    ``used_by`` the rules whose text uses the term (of the entry, or for a
    pointer of the entry it leads to), as :class:`rules_kb.lookup.rules.Link`;
    ``document`` the document the entry was read from.
    """

    query: str
    entry: GlossaryEntry
    match: str
    score: float
    followed: tuple[GlossaryEntry, ...]
    cited_rules: tuple[Rule, ...]
    alternatives: tuple[GlossaryEntry, ...]
    used_by: tuple[Link, ...] = ()
    document: Document | None = None


def scores(glossary: GlossaryIndex, query: str) -> list[tuple[float, int]]:
    """``(similarity 0–100, entry position)`` of every entry of ``glossary``
    for ``query``, best first: the best of the similarity to a headword or
    form, and (:data:`_PART_WEIGHT` of) the similarity to as many of its
    words as the query has."""
    from rapidfuzz import fuzz

    wanted = term_key(query)
    size = len(wanted.split())
    best: dict[int, float] = {}
    for name_key, position in glossary.keys:
        score = fuzz.ratio(wanted, name_key)
        words = name_key.split()
        if len(wanted) >= 4 and len(words) > size:
            for start in range(len(words) - size + 1):
                part = " ".join(words[start : start + size])
                score = max(score, _PART_WEIGHT * fuzz.ratio(wanted, part))
        if score > best.get(position, -1.0):
            best[position] = score
    return sorted(((score, position) for position, score in best.items()), key=lambda item: (-item[0], item[1]))


def define(kb: KnowledgeBase, query: str) -> Definition:
    """Look ``query`` up in the glossary of ``kb``, with the rules it cites
    and the rules whose text uses the term.

    Raises :class:`QueryError` for an empty query and
    :class:`UnknownTermError` (with the closest headwords) when nothing
    fits.
    """
    glossary = kb.glossary
    if not term_key(query):
        raise QueryError("Le terme est vide : donnez un mot du glossaire, par exemple « piétinement ».")
    exact = glossary.exact(query)
    ranked = scores(glossary, query)
    if exact:
        best, match, score = exact[0], "exact", 100.0
    else:
        top_score, top = ranked[0] if ranked else (0.0, -1)
        if top_score < THRESHOLD:
            close = tuple(glossary.entries[position].term for score, position in ranked[:5] if score >= 50)
            raise UnknownTermError(query.strip(), close)
        best, match, score = glossary.entries[top], "approx", round(top_score, 1)
    alternatives = tuple(
        glossary.entries[position]
        for entry_score, position in ranked
        if entry_score >= THRESHOLD and glossary.entries[position] != best
    )[:_MAX_ALTERNATIVES]
    cited = tuple(rule for number in best.cites if (rule := kb.rule(number, best.edition)) is not None)
    followed = glossary.follow(best)
    used = followed[-1] if best.is_pointer and followed else best
    return Definition(
        query=query,
        entry=best,
        match=match,
        score=score,
        followed=followed,
        cited_rules=cited,
        alternatives=alternatives,
        used_by=term_users(kb, used),
        document=kb.document(best.source.document),
    )
