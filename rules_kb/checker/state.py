"""The game state the checker works on: players, objects (permanents, spells,
cards in other zones), and the closed vocabularies that describe them.

Everything is immutable; performing an event gives a new :class:`GameState`.
Identifiers and enum values are the English terms of the comprehensive rules;
each enum member carries the French term of the 2004 rules in ``label``
(:mod:`rules_kb.core.vocabulary`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules_kb.checker.effects import ContinuousEffect
from rules_kb.core.vocabulary import AURA, EQUIPMENT, LEGEND, NON_PERMANENT_TYPES, CardType, Color, Supertype, Zone

#: Subtypes the rules give a meaning to (215.1, 212.4c, 212.2g), and the
#: game's closed vocabularies, from :mod:`rules_kb.core.vocabulary`.
__all__ = [
    "AURA", "EQUIPMENT", "LEGEND", "NON_PERMANENT_TYPES", "CardType", "Color", "GameObject", "GameState", "Player",
    "Supertype", "Zone", "power_toughness_counter",
]  # fmt: skip

_PT_COUNTER_RE = re.compile(r"^([+-]\d+)/([+-]\d+)$")


def power_toughness_counter(name: str) -> tuple[int, int] | None:
    """``(X, Y)`` for a +X/+Y or -X/-Y counter name (``"-1/-1"`` → ``(-1, -1)``),
    None for any other counter. Implements 200.10 (2004)."""
    found = _PT_COUNTER_RE.match(name.replace(" ", ""))
    if not found:
        return None
    return int(found.group(1)), int(found.group(2))


@dataclass(frozen=True, slots=True)
class Player:
    """A player: name (also their id), life total, poison counters.

    ``drew_from_empty_library`` says the player was to draw more cards than
    their library held since the last check (420.5g). ``lost`` is set when a
    state-based effect makes them lose; ``lost_by`` lists the rule numbers.
    ``line`` is the line of the scenario file where the player is described
    (0: unknown).
    """

    name: str
    life: int = 20
    poison: int = 0
    drew_from_empty_library: bool = False
    lost: bool = False
    lost_by: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True, slots=True)
class GameObject:
    """A permanent, a spell, or a card in another zone, as a scenario describes it.

    ``id`` is unique in the state; ``controller`` and ``owner`` are player
    names. ``power``/``toughness`` are the printed values (None for an
    object that has none); counters, damage and (from part 2) continuous
    effects modify them, see :mod:`rules_kb.checker.characteristics`.
    ``counters`` maps a counter name (``"+1/+1"``, ``"temps"``) to how many,
    only counts above 0. ``damage`` is the damage marked on the object.
    ``token`` is a token (200.4), ``copy_of_card`` a copy of a card,
    ``spell_copy`` a copy of a spell (503.10, 420.5j). ``attached_to`` is the
    id of the object (or the name of the player) an aura enchants or an
    equipment equips, ``""`` for none; ``enchant`` lists the designations
    after "Enchanter :" on an aura (212.4c; all must match), empty for any
    permanent. ``timestamp`` orders objects (418.5e); ``since`` is the
    moment it has been in play as it is (what the legend and world rules
    compare, 420.5e, 420.5i), None for its timestamp — they differ for
    permanents that phase in, which keep their timestamp (502.15k); see
    :attr:`since_or_timestamp`. ``exists`` is False
    once the object has ceased to exist (its ``zone`` is then None).
    ``source`` is the scenario table it came from (``"permanent"`` or
    ``"spell"``) and ``line`` where it starts in the file (0: unknown).
    ``statics`` are the static abilities that create continuous effects
    (418.4), part of the object's text. ``regeneration_shields`` counts the
    regenerations that will replace its next destructions (419.6b);
    ``tapped`` says it is tapped.
    """

    id: str
    name: str
    controller: str
    owner: str
    card_types: frozenset[CardType] = frozenset()
    subtypes: tuple[str, ...] = ()
    supertypes: frozenset[Supertype] = frozenset()
    colors: frozenset[Color] = frozenset()
    mana_value: int = 0
    power: int | None = None
    toughness: int | None = None
    abilities: tuple[str, ...] = ()
    damage: int = 0
    counters: dict[str, int] = field(default_factory=dict)
    token: bool = False
    copy_of_card: bool = False
    spell_copy: bool = False
    zone: Zone | None = Zone.BATTLEFIELD
    attached_to: str = ""
    enchant: tuple[str, ...] = ()
    timestamp: int = 0
    since: int | None = None
    exists: bool = True
    source: str = "permanent"
    line: int = 0
    statics: tuple[ContinuousEffect, ...] = ()
    regeneration_shields: int = 0
    tapped: bool = False

    @property
    def since_or_timestamp(self) -> int:
        """``since``, or the timestamp when the scenario gives none."""
        return self.timestamp if self.since is None else self.since

    @property
    def on_battlefield(self) -> bool:
        """Whether the object is a permanent (in play)."""
        return self.exists and self.zone is Zone.BATTLEFIELD


@dataclass(frozen=True, slots=True)
class GameState:
    """Players and objects at one moment, and the edition whose rules apply.

    ``players`` are in turn order, the active player first when
    ``active_player`` is not given otherwise (103.4); ``objects`` in the
    order of the scenario file. ``effects`` are the continuous effects of
    resolved spells and abilities (418.3), in file order. ``path`` is the
    scenario file it was read from (``""`` for one built in memory).
    """

    edition: str
    players: tuple[Player, ...]
    objects: tuple[GameObject, ...]
    active_player: str = ""
    path: str = ""
    effects: tuple[ContinuousEffect, ...] = ()

    def player(self, name: str) -> Player | None:
        """The player called ``name``, or None."""
        return next((player for player in self.players if player.name == name), None)

    def object(self, object_id: str) -> GameObject | None:
        """The object with this id (even one that ceased to exist), or None."""
        return next((obj for obj in self.objects if obj.id == object_id), None)

    @property
    def permanents(self) -> tuple[GameObject, ...]:
        """The objects on the battlefield, in file order."""
        return tuple(obj for obj in self.objects if obj.on_battlefield)
