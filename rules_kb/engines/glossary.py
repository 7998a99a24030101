"""The glossary entries of a corpus under their keys: what ``define``,
``ask`` and the graph look terms up with.

A headword or form is compared through :func:`rules_kb.core.text.term_key`
(case, accents, plural ``s``/``x`` aside; hyphenated words stay whole).
The keys are computed once, when the cache is built (:func:`entry_keys`),
and stored beside the entries (:mod:`rules_kb.engines.store`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules_kb.core.model import GlossaryEntry
from rules_kb.core.text import term_key

#: How many pointer entries are followed one after the other at most.
MAX_POINTER_DEPTH = 3


def entry_keys(entries: Sequence[GlossaryEntry]) -> list[tuple[str, int]]:
    """``(key, position)`` of every headword and form of ``entries`` (in
    order; a name given twice by an entry counts once; empty keys left out)."""
    keys = []
    for position, entry in enumerate(entries):
        for name in dict.fromkeys((entry.term, *entry.forms)):
            found = term_key(name)
            if found:
                keys.append((found, position))
    return keys


class GlossaryIndex:
    """Glossary entries (``entries``, a tuple in corpus order) with the keys
    of their headwords and forms (``keys``: ``(key, position)`` pairs, see
    :func:`entry_keys`; computed when not given)."""

    __slots__ = ("_exact", "entries", "keys")

    def __init__(self, entries: Sequence[GlossaryEntry], keys: Sequence[tuple[str, int]] | None = None) -> None:
        self.entries = tuple(entries)
        self.keys = [tuple(pair) for pair in (entry_keys(self.entries) if keys is None else keys)]
        self._exact: dict[str, list[int]] = {}
        for found, position in self.keys:
            positions = self._exact.setdefault(found, [])
            if position not in positions:
                positions.append(position)

    def exact(self, name: str) -> list[GlossaryEntry]:
        """The entries one of whose headword or forms is ``name`` once normalised, in corpus order."""
        return [self.entries[position] for position in self._exact.get(term_key(name), ())]

    def find(self, name: str) -> GlossaryEntry | None:
        """The first entry whose headword or a form is ``name`` once normalised, or None."""
        positions = self._exact.get(term_key(name))
        return self.entries[positions[0]] if positions else None

    def follow(self, entry: GlossaryEntry) -> tuple[GlossaryEntry, ...]:
        """Entries reached through ``entry``'s "Voir" pointers, in order
        (pointer entries are followed further, :data:`MAX_POINTER_DEPTH` at most)."""
        reached: list[GlossaryEntry] = []
        frontier = [entry]
        for _ in range(MAX_POINTER_DEPTH):
            following = []
            for current in frontier:
                for target in current.see:
                    found = self.find(target)
                    if found is not None and found != entry and found not in reached:
                        reached.append(found)
                        if found.is_pointer:
                            following.append(found)
            if not following:
                break
            frontier = following
        return tuple(reached)
