"""The characteristics of each object as the state-based effects see them.

An object's printed characteristics are the ones its scenario gives; a
permanent's are then modified by continuous effects in layers, counters
included (418.5a, 2004; see :mod:`rules_kb.checker.layers`, which also
gives every object's characteristics in a state). Objects in other zones
keep their printed values, plus their +X/+Y counters (200.10).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules_kb.checker.effects import ContinuousEffect
from rules_kb.checker.state import GameObject, power_toughness_counter
from rules_kb.checker.subtypes import Link, existing, folded_set, folded_word, printed_links
from rules_kb.core.text import fold
from rules_kb.core.vocabulary import AURA, EQUIPMENT, LEGEND, CardType, Color, Supertype


@dataclass(frozen=True, slots=True)
class Characteristics:
    """What an object is at one moment: its name, controller, types,
    colours, abilities, and power and toughness (None for an object that is
    not a creature).

    ``statics`` are its static abilities that create continuous effects
    (418.4), ``enchant`` the designations after "Enchanter :" (212.4c), both
    part of its text; ``applied`` the ids of the continuous effects that
    modified it, in the order they applied (``"counters"`` for its counters).
    ``since`` is the moment it has been what it is: the object's ``since``
    (by default its timestamp), or the timestamp of the latest effect that
    made it a copy (503.2), a legend or a world enchantment, which the
    legend and world rules compare (420.5e, 420.5i).

    ``subtypes`` are the subtypes it has; ``linked_subtypes`` every subtype
    it has been given, each with the card type it belongs to (205.3b),
    those of a type it lost included: they do not exist while the type is
    lost (212.1b, see :mod:`rules_kb.checker.subtypes`). Change types and
    subtypes with :func:`retyped`, which keeps the two in step.
    """

    name: str
    controller: str
    card_types: frozenset[CardType]
    subtypes: tuple[str, ...]
    supertypes: frozenset[Supertype]
    colors: frozenset[Color]
    abilities: tuple[str, ...]
    mana_value: int
    power: int | None
    toughness: int | None
    statics: tuple[ContinuousEffect, ...] = ()
    enchant: tuple[str, ...] = ()
    applied: tuple[str, ...] = ()
    since: int = 0
    linked_subtypes: tuple[Link, ...] = ()

    def is_a(self, card_type: CardType) -> bool:
        """Whether the object has this card type."""
        return card_type in self.card_types

    def has_subtype(self, subtype: str) -> bool:
        """Whether the object has this subtype (case and accents ignored)."""
        return folded_word(subtype) in folded_set(self.subtypes)

    def has_ability(self, ability: str) -> bool:
        """Whether one of the abilities is exactly ``ability`` (case and accents ignored)."""
        wanted = fold(ability)
        return any(fold(own) == wanted for own in self.abilities)

    @property
    def is_creature(self) -> bool:
        return CardType.CREATURE in self.card_types

    @property
    def is_aura(self) -> bool:
        """An enchantment with the subtype "local" (212.4c)."""
        return CardType.ENCHANTMENT in self.card_types and self.has_subtype(AURA)

    @property
    def is_equipment(self) -> bool:
        """An artifact with the subtype "équipement" (212.2g)."""
        return CardType.ARTIFACT in self.card_types and self.has_subtype(EQUIPMENT)

    @property
    def is_legendary(self) -> bool:
        """Subtype legend or supertype legendary (215.1)."""
        return Supertype.LEGENDARY in self.supertypes or self.has_subtype(LEGEND)


def retyped(
    seen: Characteristics,
    card_types: frozenset[CardType] | None = None,
    linked: tuple[Link, ...] | None = None,
) -> Characteristics:
    """``seen`` with new card types and/or linked subtypes (None: unchanged),
    and the subtypes it then has: those of the types it has. Implements
    212.1b (2004)."""
    card_types = seen.card_types if card_types is None else frozenset(card_types)
    linked = seen.linked_subtypes if linked is None else linked
    return replace(seen, card_types=card_types, linked_subtypes=linked, subtypes=existing(linked, card_types))


def counter_modifier(obj: GameObject) -> tuple[int, int]:
    """The total ``(power, toughness)`` change of an object's +X/+Y and -X/-Y
    counters. Implements 200.10 (2004)."""
    power = toughness = 0
    for name, count in obj.counters.items():
        modifier = power_toughness_counter(name)
        if modifier:
            power += modifier[0] * count
            toughness += modifier[1] * count
    return power, toughness


def printed(obj: GameObject) -> Characteristics:
    """The characteristics an object's scenario gives it, before any
    continuous effect or counter: where the layers start (418.5a)."""
    return Characteristics(
        name=obj.name,
        controller=obj.controller,
        card_types=obj.card_types,
        subtypes=obj.subtypes,
        linked_subtypes=printed_links(obj.subtypes, obj.card_types),
        supertypes=obj.supertypes,
        colors=obj.colors,
        abilities=obj.abilities,
        mana_value=obj.mana_value,
        power=obj.power,
        toughness=obj.toughness,
        statics=obj.statics,
        enchant=obj.enchant,
        since=obj.since_or_timestamp,
    )


def characteristics_of(obj: GameObject) -> Characteristics:
    """The characteristics of an object no continuous effect applies to:
    printed values plus counters.

    A creature given no power or toughness counts as 0 (a scenario must give
    both for a creature in play; this only matters off the battlefield).
    """
    seen = printed(obj)
    if CardType.CREATURE in obj.card_types or obj.power is not None:
        bonus = counter_modifier(obj)
        seen = replace(seen, power=(obj.power or 0) + bonus[0], toughness=(obj.toughness or 0) + bonus[1])
    return seen
