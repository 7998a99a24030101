"""Looking up glossary terms the way a judge types them in a hurry (``define``).

A query matches a headword or any of its forms after normalisation (case,
accents, plural ``s``/``x``: :func:`rules_kb.text.normalise_term`); failing
that, the closest headword within a typing error or two ("contrecarer",
"remplacment"), or a headword one of whose words is the query ("tampon" →
*Tampon horaire*). Pointer entries ("APNAP — Voir Règle du joueur actif,
joueur inactif") are followed.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_kb.errors import QueryError, UnknownTermError
from rules_kb.model import GlossaryEntry, Rule
from rules_kb.text import normalise_term

#: Lowest similarity (0–100) for an approximate match.
THRESHOLD = 80.0
#: Weight of a match on some words of a longer headword ("tampon" in "Tampon horaire").
_PART_WEIGHT = 0.9
_MAX_ALTERNATIVES = 8
_MAX_POINTER_DEPTH = 3


@dataclass(frozen=True, slots=True)
class Definition:
    """The answer to ``define``.

    ``entry`` is the best match; ``match`` says how it matched
    (``"exact"`` on its headword or a form, or ``"approx"``) and ``score``
    its similarity (100 for exact). ``followed`` are the entries its "Voir"
    pointers lead to, in order (a pointer entry's target first, then its
    own target…); ``cited_rules`` the rules it cites that exist in its
    edition; ``alternatives`` other entries that fit, best first;
    ``used_by`` the rules whose text uses the term (of the entry, or for a
    pointer of the entry it leads to), as :class:`rules_kb.links.Link`
    filled in by :meth:`rules_kb.kb.KnowledgeBase.define`.
    """

    query: str
    entry: GlossaryEntry
    match: str
    score: float
    followed: tuple[GlossaryEntry, ...]
    cited_rules: tuple[Rule, ...]
    alternatives: tuple[GlossaryEntry, ...]
    used_by: tuple = ()


class Glossary:
    """The glossary entries of a corpus, with their normalised keys."""

    def __init__(self, entries: tuple[GlossaryEntry, ...]) -> None:
        self.entries = entries
        self._keys: list[tuple[str, int]] = []  # (normalised headword or form, entry position)
        self._exact: dict[str, list[int]] = {}
        for position, entry in enumerate(entries):
            for name in dict.fromkeys((entry.term, *entry.forms)):
                key = normalise_term(name)
                if key:
                    self._keys.append((key, position))
                    self._exact.setdefault(key, [])
                    if position not in self._exact[key]:
                        self._exact[key].append(position)

    def find(self, name: str) -> GlossaryEntry | None:
        """The entry whose headword or a form is ``name`` once normalised, or None."""
        positions = self._exact.get(normalise_term(name))
        return self.entries[positions[0]] if positions else None

    def scores(self, query: str) -> list[tuple[float, int]]:
        """``(similarity 0–100, entry position)`` of every entry, best first."""
        from rapidfuzz import fuzz

        wanted = normalise_term(query)
        size = len(wanted.split())
        best: dict[int, float] = {}
        for key, position in self._keys:
            score = fuzz.ratio(wanted, key)
            words = key.split()
            if len(wanted) >= 4 and len(words) > size:
                for start in range(len(words) - size + 1):
                    part = " ".join(words[start : start + size])
                    score = max(score, _PART_WEIGHT * fuzz.ratio(wanted, part))
            if score > best.get(position, -1.0):
                best[position] = score
        return sorted(((score, position) for position, score in best.items()), key=lambda item: (-item[0], item[1]))

    def follow(self, entry: GlossaryEntry) -> tuple[GlossaryEntry, ...]:
        """Entries reached through ``entry``'s "Voir" pointers (pointer entries are followed further)."""
        reached: list[GlossaryEntry] = []
        frontier = [entry]
        for _ in range(_MAX_POINTER_DEPTH):
            following = []
            for current in frontier:
                for target in current.see:
                    found = self.find(target)
                    if found is not None and found is not entry and found not in reached:
                        reached.append(found)
                        if found.is_pointer:
                            following.append(found)
            if not following:
                break
            frontier = following
        return tuple(reached)


def define(glossary: Glossary, query: str, rule_of) -> Definition:
    """Look ``query`` up in ``glossary``.

    ``rule_of(number, edition)`` returns a cited :class:`Rule` or None.
    Raises :class:`QueryError` for an empty query and
    :class:`UnknownTermError` (with the closest headwords) when nothing
    fits.
    """
    if not normalise_term(query):
        raise QueryError("Le terme est vide : donnez un mot du glossaire, par exemple « piétinement ».")
    exact = glossary._exact.get(normalise_term(query), [])
    ranked = glossary.scores(query)
    if exact:
        best, match, score = glossary.entries[exact[0]], "exact", 100.0
    else:
        top_score, top = ranked[0] if ranked else (0.0, -1)
        if top_score < THRESHOLD:
            close = tuple(glossary.entries[position].term for score, position in ranked[:5] if score >= 50)
            raise UnknownTermError(query.strip(), close)
        best, match, score = glossary.entries[top], "approx", round(top_score, 1)
    alternatives = tuple(
        glossary.entries[position]
        for entry_score, position in ranked
        if entry_score >= THRESHOLD and glossary.entries[position] is not best
    )[:_MAX_ALTERNATIVES]
    cited = tuple(rule for number in best.cites if (rule := rule_of(number, best.edition)) is not None)
    return Definition(
        query=query,
        entry=best,
        match=match,
        score=score,
        followed=glossary.follow(best),
        cited_rules=cited,
        alternatives=alternatives,
    )
