"""Subtypes and the card type each one belongs to (205.3 and 212.1b of the 2004 rules).

Artifacts, creatures and lands each have subtypes of their own — artifact
types, creature types, land types (205.3b) — and an enchantment's subtype
says what it enchants (205.3c). When an object loses a card type, the
subtypes of that type no longer exist, for as long as the type is lost; when
the subtypes of one of its types change, the new ones replace that type's
only (212.1b). « Légende » is a creature type (215.2): a creature that stops
being a creature is no longer a legend by it.

The checker keeps every subtype an object has been given with the card type
it belongs to (``Characteristics.linked_subtypes``, pairs ``(subtype, card
type)``); the subtypes the object has are those whose type it has now
(:func:`existing`).

>>> links = printed_links(("ours", "légende"), frozenset({CardType.CREATURE}))
>>> links
(('ours', <CardType.CREATURE: 'creature'>), ('légende', <CardType.CREATURE: 'creature'>))
>>> existing(links, frozenset({CardType.ENCHANTMENT}))
()
"""

from __future__ import annotations

from functools import lru_cache

from rules_kb.core.text import fold
from rules_kb.core.vocabulary import AURA, EQUIPMENT, CardType

#: :func:`fold` of one word, remembered: the layers ask the same few subtypes
#: again for every pair of effects (418.5c), a chain of 80 some 7 million times.
folded_word = lru_cache(maxsize=4096)(fold)


@lru_cache(maxsize=4096)
def folded_set(words: tuple[str, ...]) -> frozenset[str]:
    """The set of :func:`fold` of ``words`` (an object's subtypes), remembered."""
    return frozenset(map(folded_word, words))


#: One subtype and the card type it belongs to (None: an object with no card
#: type that has subtypes; such a subtype always exists).
Link = tuple[str, "CardType | None"]

#: The basic land types and the mana their intrinsic ability adds (212.6d).
BASIC_LAND_TYPES = {"plaine": "W", "île": "U", "marais": "B", "montagne": "R", "forêt": "G"}

#: The card types that have subtypes (205.3b–c), in the order that decides
#: which one a subtype belongs to on an object of several: an artifact
#: creature's printed subtypes are creature types, an artifact land's are
#: land types (205.3e).
OWNERS = (CardType.CREATURE, CardType.LAND, CardType.ARTIFACT, CardType.ENCHANTMENT)

#: Subtypes that belong to one card type, by :func:`fold`: the basic land
#: types (212.6d), « local » (an aura's, 212.4c), « équipement » (212.2g).
FIXED = {
    **{fold(name): CardType.LAND for name in BASIC_LAND_TYPES},
    fold(AURA): CardType.ENCHANTMENT,
    fold(EQUIPMENT): CardType.ARTIFACT,
}

#: How the French rules call the subtypes of each card type (205.3b–c), in the plural.
KIND_LABELS = {
    CardType.CREATURE: "types de créature",
    CardType.LAND: "types de terrain",
    CardType.ARTIFACT: "types d'artefact",
    CardType.ENCHANTMENT: "sous-types d'enchantement",
}

#: « une créature », « un terrain »…: a card type with its article.
WITH_ARTICLE = {
    CardType.CREATURE: "une créature",
    CardType.LAND: "un terrain",
    CardType.ARTIFACT: "un artefact",
    CardType.ENCHANTMENT: "un enchantement",
}


@lru_cache(maxsize=256)
def _first_owner(card_types: frozenset[CardType]) -> CardType | None:
    return next((kind for kind in OWNERS if kind in card_types), None)


@lru_cache(maxsize=4096)
def printed_links(subtypes: tuple[str, ...], card_types: frozenset[CardType]) -> tuple[Link, ...]:
    """The card type each subtype printed on an object of ``card_types``
    belongs to: a basic land type, « local » or « équipement » to its own
    type when the object has it; any other to the first of :data:`OWNERS`
    the object has (205.3e), so that every printed subtype exists. Implements
    205.3b and 205.3e (2004)."""
    found = []
    for word in subtypes:
        fixed = FIXED.get(folded_word(word))
        found.append((word, fixed if fixed in card_types else _first_owner(card_types)))
    return tuple(found)


@lru_cache(maxsize=4096)
def given_links(
    subtypes: tuple[str, ...], given: frozenset[CardType], card_types: frozenset[CardType]
) -> tuple[Link, ...]:
    """:func:`given_link` of each of ``subtypes`` (each once), remembered: the
    layers apply the same effect to the same values again for every pair of
    effects (418.5c)."""
    return tuple(given_link(word, given, card_types) for word in dict.fromkeys(subtypes))


def given_link(word: str, given: frozenset[CardType], card_types: frozenset[CardType]) -> Link:
    """The card type a subtype an effect gives belongs to: a basic land type,
    « local » or « équipement » to its own type (212.6d, 212.4c, 212.2g),
    whatever the object is; any other to the first of :data:`OWNERS` among
    ``given``, the card types the same effect gives (« devient une
    créature-artefact 2/2 assembleur »: a creature type), then among
    ``card_types``, the object's now (a subtype chosen for an object is one
    of its type, 212.1e). Implements 205.3b (2004)."""
    fixed = FIXED.get(folded_word(word))
    if fixed is not None:
        return word, fixed
    return word, _first_owner(given) or _first_owner(card_types)


def existing(links: tuple[Link, ...], card_types: frozenset[CardType]) -> tuple[str, ...]:
    """The subtypes an object of ``card_types`` has among ``links``: those of
    a type it has (a subtype of a type it lost does not exist while the type
    is lost), each once. Implements 212.1b (2004)."""
    has = identities(card_types)
    kept = tuple(word for word, owner in links if owner is None or id(owner) in has)
    if len(folded_set(kept)) == len(kept):
        return kept
    found: dict[str, str] = {}
    for word in kept:
        found.setdefault(folded_word(word), word)
    return tuple(found.values())


def identities(card_types) -> frozenset[int]:
    """The identities of ``card_types``: the layers compare the owners of
    subtypes by identity (enum members are singletons), as a chain of 80
    effects would otherwise hash a :class:`CardType` half a million times
    (its hash is a Python call)."""
    return frozenset(map(id, card_types))


def words(links, kind: CardType | None) -> str:
    """``"ours, légende"``: the subtypes of ``links`` that belong to ``kind``."""
    return ", ".join(word for word, owner in links if owner is kind)
