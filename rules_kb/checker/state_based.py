"""State-based effects ("effets basés sur un état", rule 420 of the 2004 rules).

Each effect is a pure function ``(board, rule) -> tuple[Event, ...]``
registered under its :class:`StateBasedAction`; ``rule`` is the number the
edition gives it. :func:`check` finds every event that applies, and
:func:`run` performs them all at once, then checks again until none applies
(420.3), keeping each round.

>>> from rules_kb.checker.scenario import parse_scenario
>>> scenario = parse_scenario('''
... [[permanent]]
... name = "Ours runegriffe"
... controller = "Alice"
... card_types = ["créature"]
... power = 2
... toughness = 2
... damage = 2
... ''')
>>> [(event.rule, event.action.value) for event in run(scenario.state).rounds[0].events]
[('420.5c', 'destroy')]
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from rules_kb.checker import vocabulary as vocab
from rules_kb.checker.budget import CALLS_PER_READ, spend
from rules_kb.checker.characteristics import Characteristics
from rules_kb.checker.editions import EDITIONS, Edition, StateBasedAction
from rules_kb.checker.layers import COUNTERS, Layering, compute
from rules_kb.checker.state import GameObject, GameState
from rules_kb.core.errors import RulesKbError
from rules_kb.core.text import key
from rules_kb.core.vocabulary import CardType, Color, Supertype, Zone


class Action(enum.Enum):
    """What a state-based effect does (the ``action`` of an event)."""

    LOSE = "lose"
    """A player loses the game."""
    PUT_INTO_GRAVEYARD = "put_into_graveyard"
    """An object is put into its owner's graveyard; regeneration cannot replace this."""
    DESTROY = "destroy"
    """A permanent is destroyed (put into its owner's graveyard); regeneration can replace this."""
    CEASE_TO_EXIST = "cease_to_exist"
    """A token or a copy ceases to exist."""
    UNATTACH = "unattach"
    """An equipment stops equipping and stays in play."""
    REMOVE_COUNTERS = "remove_counters"
    """Counters are removed from a permanent."""
    REGENERATE = "regenerate"
    """A regeneration shield replaces a destruction: damage removed, tapped,
    removed from combat (419.6b)."""

    @property
    def regeneration(self) -> bool | None:
        """Whether regeneration can replace the event: True for a destruction,
        False for being put into the graveyard, None where it does not apply
        (glossary "Régénération"; 420.5b, 420.5c)."""
        return {Action.DESTROY: True, Action.PUT_INTO_GRAVEYARD: False}.get(self)

    @property
    def label(self) -> str:
        """What the action does to an object or a player, in French (``"détruit"``)."""
        return _ACTION_LABELS[self]

    @property
    def stopped_label(self) -> str:
        """What the action does not do when an effect stops it, in French (``"ne perd pas la partie"``)."""
        return _STOPPED_LABELS[self]

    @property
    def regeneration_label(self) -> str:
        """What the French text says about regeneration (``""`` where it does not apply)."""
        return _REGENERATION_LABELS.get(self.regeneration, "")


_ACTION_LABELS = {
    Action.LOSE: "perd la partie",
    Action.PUT_INTO_GRAVEYARD: "mis au cimetière de son propriétaire",
    Action.DESTROY: "détruit",
    Action.CEASE_TO_EXIST: "cesse d'exister",
    Action.UNATTACH: "cesse d'être attaché (reste en jeu)",
    Action.REMOVE_COUNTERS: "perd des marqueurs",
    Action.REGENERATE: "régénéré au lieu d'être détruit : blessures retirées, engagé, retiré du combat",
}
_STOPPED_LABELS = {
    Action.LOSE: "ne perd pas la partie",
    Action.PUT_INTO_GRAVEYARD: "n'est pas mis au cimetière de son propriétaire",
    Action.DESTROY: "n'est pas détruit",
    Action.CEASE_TO_EXIST: "ne cesse pas d'exister",
    Action.UNATTACH: "ne cesse pas d'être attaché",
    Action.REMOVE_COUNTERS: "ne perd pas de marqueurs",
    Action.REGENERATE: "n'est pas régénéré",
}
_REGENERATION_LABELS = {
    True: "la régénération peut remplacer cette destruction",
    False: "la régénération ne peut pas remplacer cet événement",
}


@dataclass(frozen=True, slots=True)
class Event:
    """One thing a state-based effect does.

    ``rule`` is the rule number applied (``"420.5c"``), ``effect`` the
    :class:`StateBasedAction`; ``objects`` are object ids, ``players``
    player names. ``reason`` says in French what was seen (``"2 blessures,
    endurance 2 : blessures fatales"``); ``see_also`` lists the other rules
    that decided it (``"212.4g"`` for an aura attached to itself);
    ``counters`` the counters removed, as ``(name, count)`` pairs.
    """

    rule: str
    action: Action
    effect: StateBasedAction
    objects: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    reason: str = ""
    see_also: tuple[str, ...] = ()
    counters: tuple[tuple[str, int], ...] = ()


#: The rule that lets a card's text win over the rules it contradicts: every
#: effect that changes a rule of the game stops what the rule would do.
CARD_WINS = "103.1"


@dataclass(frozen=True, slots=True)
class Stopped:
    """A state-based event an effect that changes the rules stopped: the card
    wins over the rule it contradicts (103.1).

    ``event`` is what the rule would have done (for a loss, only the players
    it stopped it for), ``ability`` the rule-changing ability in its French
    wording (:data:`rules_kb.checker.vocabulary.RULE_CHANGES`), ``sources``
    the ids of the permanents that have it now. ``rules`` are the rules that
    decide it: 103.1, then the event's rule and the rules it cites.
    """

    event: Event
    ability: str
    sources: tuple[str, ...]

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((CARD_WINS, self.event.rule, *self.event.see_also)))


@dataclass(frozen=True, slots=True)
class Board:
    """What a state-based effect looks at: the state, the edition followed,
    and every existing object's characteristics by id."""

    state: GameState
    edition: Edition
    characteristics: Mapping[str, Characteristics]

    def permanents(self) -> list[tuple[GameObject, Characteristics]]:
        """The objects in play with their characteristics, in file order."""
        return [(obj, self.characteristics[obj.id]) for obj in self.state.permanents]


StateBasedFunction = Callable[[Board, str], tuple[Event, ...]]

#: The function checking each state-based action.
REGISTRY: dict[StateBasedAction, StateBasedFunction] = {}


def implements(action: StateBasedAction):
    """Register the decorated function as the check of ``action``."""

    def register(function: StateBasedFunction) -> StateBasedFunction:
        REGISTRY[action] = function
        return function

    return register


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if abs(count) > 1 else ''}"


# -- players -----------------------------------------------------------------


@implements(StateBasedAction.ZERO_LIFE)
def zero_life(board: Board, rule: str) -> tuple[Event, ...]:
    """A player with 0 or less life loses the game. Implements 420.5a (2004), see 102.1."""
    return tuple(
        Event(
            rule,
            Action.LOSE,
            StateBasedAction.ZERO_LIFE,
            players=(player.name,),
            reason=f"{_plural(player.life, 'point')} de vie",
            see_also=("102.1",),
        )
        for player in board.state.players
        if not player.lost and player.life <= 0
    )


@implements(StateBasedAction.DRAW_FROM_EMPTY_LIBRARY)
def draw_from_empty_library(board: Board, rule: str) -> tuple[Event, ...]:
    """A player who had to draw more cards than their library held since the
    last check loses. Implements 420.5g (2004), see 102.2."""
    return tuple(
        Event(
            rule,
            Action.LOSE,
            StateBasedAction.DRAW_FROM_EMPTY_LIBRARY,
            players=(player.name,),
            reason="a dû piocher plus de cartes que sa bibliothèque n'en contenait",
            see_also=("102.2",),
        )
        for player in board.state.players
        if not player.lost and player.drew_from_empty_library
    )


@implements(StateBasedAction.POISON)
def poison(board: Board, rule: str) -> tuple[Event, ...]:
    """A player with ten or more poison counters loses. Implements 420.5h (2004), see 102.8."""
    return tuple(
        Event(
            rule,
            Action.LOSE,
            StateBasedAction.POISON,
            players=(player.name,),
            reason=f"{_plural(player.poison, 'marqueur')} poison",
            see_also=("102.8",),
        )
        for player in board.state.players
        if not player.lost and player.poison >= 10
    )


# -- creatures ---------------------------------------------------------------


def _after_layers(seen: Characteristics) -> tuple[str, tuple[str, ...]]:
    """What to add to a reason when continuous effects changed the values
    it reads: the effects applied and 418.5a, or ``("", ())``."""
    effects = [effect for effect in seen.applied if effect != COUNTERS]
    if not effects:
        return "", ()
    return f" (après les effets continus : {', '.join(dict.fromkeys(effects))})", ("418.5a",)


@implements(StateBasedAction.ZERO_TOUGHNESS)
def zero_toughness(board: Board, rule: str) -> tuple[Event, ...]:
    """A creature with toughness 0 or less is put into its owner's graveyard;
    regeneration cannot replace this. Implements 420.5b (2004)."""
    return tuple(
        Event(
            rule,
            Action.PUT_INTO_GRAVEYARD,
            StateBasedAction.ZERO_TOUGHNESS,
            objects=(obj.id,),
            reason=f"endurance {seen.toughness}{_after_layers(seen)[0]}",
            see_also=_after_layers(seen)[1],
        )
        for obj, seen in board.permanents()
        if seen.is_creature and (seen.toughness or 0) <= 0
    )


def is_lethal(damage: int, toughness: int) -> bool:
    """Whether ``damage`` is lethal damage ("blessures fatales") for a creature
    of this ``toughness``: more than 0 and at least its toughness (420.5c, 2004)."""
    return damage > 0 and damage >= toughness


@implements(StateBasedAction.LETHAL_DAMAGE)
def lethal_damage(board: Board, rule: str) -> tuple[Event, ...]:
    """A creature with lethal damage and toughness above 0 is destroyed;
    regeneration can replace this. Implements 420.5c (2004). An
    indestructible creature is left alone (glossary "Indestructible")."""
    return tuple(
        Event(
            rule,
            Action.DESTROY,
            StateBasedAction.LETHAL_DAMAGE,
            objects=(obj.id,),
            reason=f"{_plural(obj.damage, 'blessure')}, endurance {seen.toughness}{_after_layers(seen)[0]} : "
            "blessures fatales",
            see_also=_after_layers(seen)[1],
        )
        for obj, seen in board.permanents()
        if seen.is_creature
        and (seen.toughness or 0) > 0
        and is_lethal(obj.damage, seen.toughness or 0)
        and not seen.has_ability("indestructible")
    )


# -- auras and equipment ------------------------------------------------------


def _protected_from(target: Characteristics, source: Characteristics) -> str:
    """The protection of ``target`` that ``source`` runs into, or ``""`` (502.7)."""
    for ability in target.abilities:
        quality = vocab.protection_from(ability)
        if isinstance(quality, Color) and quality in source.colors:
            return ability
        if isinstance(quality, CardType) and quality in source.card_types:
            return ability
    return ""


def _gone(target: GameObject, what: str) -> str:
    """The reason given when what an aura or equipment was attached to left play."""
    where = target.zone.label if target.exists and target.zone else "n'existe plus"
    return f"{what} ({target.name}) n'est plus en jeu ({where})"


def _matches(designation: str, target: Characteristics, controller: str = "") -> bool:
    """Whether a permanent matches one "Enchanter :" designation (212.4c) of
    an aura controlled by ``controller`` (« que vous contrôlez »: the aura's
    controller, whoever that is, 212.4i)."""
    if designation == vocab.PERMANENT:
        return True
    if designation == vocab.YOU_CONTROL:
        return target.controller == controller
    if designation == vocab.OPPONENT_CONTROLS:
        return target.controller != controller
    if designation == vocab.PLAYER:
        return False
    for table, values in (
        (vocab.CARD_TYPES, target.card_types),
        (vocab.SUPERTYPES, target.supertypes),
        (vocab.COLORS, target.colors),
    ):
        member = vocab.resolve(table, designation)
        if member is not None:
            return member in values
    return target.has_subtype(designation)


def aura_problem(board: Board, aura: GameObject, seen: Characteristics) -> tuple[str, tuple[str, ...]]:
    """Why an aura in play is attached illegally or to nothing: a French
    reason and the rules that say so, or ``("", ())`` when it is legal.
    Implements the legality of 212.4c, 212.4g and 502.7c (2004)."""
    if not aura.attached_to:
        return "n'enchante rien", ()
    if seen.is_creature:
        return "un enchantement local qui est aussi une créature ne peut pas être attaché", ("212.4g",)
    if aura.attached_to == aura.id:
        return "un enchantement local ne peut pas s'enchanter lui-même", ("212.4g",)
    target = board.state.object(aura.attached_to)
    if target is None:
        player = board.state.player(aura.attached_to)
        if vocab.PLAYER in seen.enchant:
            return ("", ()) if player is not None else ("le joueur enchanté n'existe pas", ())
        wanted = " ".join(seen.enchant) or "permanent"
        return f"enchante le joueur {aura.attached_to} alors qu'il enchante : {wanted}", ("212.4c",)
    if not target.on_battlefield:
        return _gone(target, "le permanent enchanté"), ()
    target_seen = board.characteristics[target.id]
    missing = [d for d in seen.enchant if not _matches(d, target_seen, seen.controller)]
    if missing:
        wanted = " ".join(seen.enchant)
        control = [d for d in missing if d in vocab.CONTROL_WORDS]
        kinds = [d for d in missing if d not in vocab.CONTROL_WORDS]
        said = [f"n'est pas {' '.join(kinds)}"] if kinds else []
        if control:
            said.append(f"est contrôlé par {target_seen.controller}, l'aura par {seen.controller}")
        return f"{target.name} {' et '.join(said)} (Enchanter : {wanted})", ("212.4c",)
    protection = _protected_from(target_seen, seen)
    if protection:
        return f"{target.name} a « {protection} »", ("502.7c",)
    return "", ()


@implements(StateBasedAction.ILLEGAL_AURA)
def illegal_aura(board: Board, rule: str) -> tuple[Event, ...]:
    """A local enchantment (aura) enchanting an illegal or non-existent
    permanent (or player) is put into its owner's graveyard. Implements
    420.5d (2004), see 212.4f."""
    events = []
    for obj, seen in board.permanents():
        if seen.is_aura:
            reason, rules = aura_problem(board, obj, seen)
            if reason:
                events.append(
                    Event(
                        rule,
                        Action.PUT_INTO_GRAVEYARD,
                        StateBasedAction.ILLEGAL_AURA,
                        objects=(obj.id,),
                        reason=reason,
                        see_also=("212.4f", *rules),
                    )
                )
    return tuple(events)


def equipment_problem(board: Board, equipment: GameObject, seen: Characteristics) -> tuple[str, tuple[str, ...]]:
    """Why an attached permanent that is not an aura equips illegally or
    nothing: a French reason and the rules that say so, or ``("", ())``.
    Implements the legality of 212.2g, 212.2i and 502.7d (2004)."""
    if not seen.is_equipment:
        return "n'est pas (ou plus) un équipement", ("212.2i",)
    if seen.is_creature:
        return "un équipement qui est aussi une créature ne peut pas équiper", ("212.2i",)
    if equipment.attached_to == equipment.id:
        return "un équipement ne peut pas s'équiper lui-même", ("212.2i",)
    target = board.state.object(equipment.attached_to)
    if target is None:
        return f"{equipment.attached_to} est un joueur, pas une créature", ("212.2g",)
    if not target.on_battlefield:
        return _gone(target, "la créature équipée"), ()
    target_seen = board.characteristics[target.id]
    if not target_seen.is_creature:
        return f"{target.name} n'est pas une créature", ("212.2g",)
    protection = _protected_from(target_seen, seen)
    if protection:
        return f"{target.name} a « {protection} »", ("502.7d",)
    return "", ()


@implements(StateBasedAction.ILLEGAL_EQUIPMENT)
def illegal_equipment(board: Board, rule: str) -> tuple[Event, ...]:
    """An equipment equipping an illegal or non-existent permanent stops
    equipping it and stays in play. Implements 420.5k (2004), see 212.2i."""
    events = []
    for obj, seen in board.permanents():
        if obj.attached_to and not seen.is_aura:
            reason, rules = equipment_problem(board, obj, seen)
            if reason:
                events.append(
                    Event(
                        rule,
                        Action.UNATTACH,
                        StateBasedAction.ILLEGAL_EQUIPMENT,
                        objects=(obj.id,),
                        reason=reason,
                        see_also=rules,
                    )
                )
    return tuple(events)


# -- legends and world enchantments ------------------------------------------


def _keep_one(board: Board, group: list[GameObject], newest: bool) -> tuple[list[GameObject], GameObject | None]:
    """Those of ``group`` that go, and the one that stays (None on a tie):
    the one that has been what it is for the longest (or shortest) time
    stays — its ``since``, not its timestamp (502.15k) — a tie sends them all."""
    best = (max if newest else min)(_since(board, obj) for obj in group)
    kept = [obj for obj in group if _since(board, obj) == best]
    if len(kept) > 1:
        return group, None
    return [obj for obj in group if obj is not kept[0]], kept[0]


def _since(board: Board, obj: GameObject) -> int:
    """Since when ``obj`` has been in play as it is now: its ``since`` (by
    default its timestamp), or later if an effect made it a copy, a legend
    or a world enchantment (see :class:`Characteristics`)."""
    return board.characteristics[obj.id].since


def _since_label(board: Board, obj: GameObject) -> str:
    """How the report says since when ``obj`` has been what it is: its
    timestamp (``"tampon horaire 3"``), or both when they differ."""
    since = _since(board, obj)
    if since == obj.timestamp:
        return f"tampon horaire {since}"
    return f"en jeu comme tel depuis le moment {since}, tampon horaire {obj.timestamp}"


@implements(StateBasedAction.LEGEND_RULE)
def legend_rule(board: Board, rule: str) -> tuple[Event, ...]:
    """Two or more legends with the same name in play, whoever controls them:
    all but the one that has been a legend longest (earliest timestamp) are
    put into their owners' graveyards; on a tie, all of them. Implements
    420.5e (2004), see 215.1 and 502.15k. The moment it became a legend
    with that name is the permanent's ``since`` (by default its timestamp;
    later when an effect made it a copy or a legend: that effect's own
    timestamp)."""
    groups: dict[str, list[GameObject]] = {}
    for obj, seen in board.permanents():
        if seen.is_legendary and seen.name:
            groups.setdefault(key(seen.name), []).append(obj)
    events = []
    for group in groups.values():
        if len(group) < 2:
            continue
        going, kept = _keep_one(board, group, newest=False)
        name = board.characteristics[group[0].id].name
        if kept is None:
            reason = (
                f"{len(group)} légendes nommées « {name} » en jeu, les plus anciennes le sont "
                f"depuis le même moment ({min(_since(board, obj) for obj in group)}) : toutes partent"
            )
        else:
            reason = (
                f"{len(group)} légendes nommées « {name} » en jeu ; reste la plus ancienne, "
                f"{kept.id} ({_since_label(board, kept)})"
            )
        events.append(
            Event(
                rule,
                Action.PUT_INTO_GRAVEYARD,
                StateBasedAction.LEGEND_RULE,
                objects=tuple(obj.id for obj in going),
                reason=reason,
                see_also=("215.1",),
            )
        )
    return tuple(events)


@implements(StateBasedAction.WORLD_RULE)
def world_rule(board: Board, rule: str) -> tuple[Event, ...]:
    """Two or more world enchantments in play: all but the one that has been
    a world enchantment for the shortest time (latest timestamp) are put
    into their owners' graveyards; on a tie, all of them. Implements 420.5i
    (2004), see 212.4j and 502.15k; the moment is the permanent's ``since``,
    as for :func:`legend_rule`."""
    group = [obj for obj, seen in board.permanents() if Supertype.WORLD in seen.supertypes]
    if len(group) < 2:
        return ()
    going, kept = _keep_one(board, group, newest=True)
    if kept is None:
        reason = (
            f"{len(group)} enchantements du monde en jeu, les plus récents le sont "
            f"depuis le même moment ({max(_since(board, obj) for obj in group)}) : tous partent"
        )
    else:
        reason = (
            f"{len(group)} enchantements du monde en jeu ; reste le plus récent, "
            f"{kept.id} ({_since_label(board, kept)})"
        )
    return (
        Event(
            rule,
            Action.PUT_INTO_GRAVEYARD,
            StateBasedAction.WORLD_RULE,
            objects=tuple(obj.id for obj in going),
            reason=reason,
            see_also=("212.4j",),
        ),
    )


# -- tokens, copies, counters -------------------------------------------------


@implements(StateBasedAction.TOKEN_OUT_OF_PLAY)
def token_out_of_play(board: Board, rule: str) -> tuple[Event, ...]:
    """A token in any zone but in play ceases to exist. Implements 420.5f (2004), see 217.8d."""
    return tuple(
        Event(
            rule,
            Action.CEASE_TO_EXIST,
            StateBasedAction.TOKEN_OUT_OF_PLAY,
            objects=(obj.id,),
            reason=f"jeton dans la zone : {obj.zone.label}",
        )
        for obj in board.state.objects
        if obj.exists and obj.token and obj.zone is not Zone.BATTLEFIELD
    )


@implements(StateBasedAction.COPY_OUT_OF_ZONE)
def copy_out_of_zone(board: Board, rule: str) -> tuple[Event, ...]:
    """A copy of a spell in a zone other than the stack, or a copy of a card
    in a zone other than the stack or play, ceases to exist. Implements
    420.5j (2004), see 503.10a."""
    events = []
    for obj in board.state.objects:
        if not obj.exists:
            continue
        if obj.spell_copy and obj.zone is not Zone.STACK:
            reason = f"copie d'un sort hors de la pile (zone : {obj.zone.label})"
        elif obj.copy_of_card and obj.zone not in (Zone.STACK, Zone.BATTLEFIELD):
            reason = f"copie d'une carte hors de la pile et du jeu (zone : {obj.zone.label})"
        else:
            continue
        events.append(
            Event(
                rule,
                Action.CEASE_TO_EXIST,
                StateBasedAction.COPY_OUT_OF_ZONE,
                objects=(obj.id,),
                reason=reason,
                see_also=("503.10a",),
            )
        )
    return tuple(events)


@implements(StateBasedAction.COUNTERS_CANCEL)
def counters_cancel(board: Board, rule: str) -> tuple[Event, ...]:
    """A permanent with both +1/+1 and -1/-1 counters loses as many of each
    as it has of the fewer. Only these two counters: +1/+0 or +0/+1 counters
    stay (the FAQ's example). Implements 420.5n (Time Spiral FAQ, 2006)."""
    events = []
    for obj, _seen in board.permanents():
        pairs = min(obj.counters.get("+1/+1", 0), obj.counters.get("-1/-1", 0))
        if pairs:
            events.append(
                Event(
                    rule,
                    Action.REMOVE_COUNTERS,
                    StateBasedAction.COUNTERS_CANCEL,
                    objects=(obj.id,),
                    reason=f"{_plural(pairs, 'marqueur')} +1/+1 et autant de -1/-1 retirés",
                    counters=(("+1/+1", pairs), ("-1/-1", pairs)),
                )
            )
    return tuple(events)


# -- the check ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Check:
    """One check of the state-based effects (420.3): the ``events`` to perform
    together, and those an effect that changes the rules ``stopped`` (103.1)."""

    events: tuple[Event, ...]
    stopped: tuple[Stopped, ...] = ()


def examine(state: GameState, edition: Edition, layering: Layering | None = None) -> Check:
    """One check of the state-based effects of ``edition``: every event they
    would perform now, in the order the rules list the effects, on the
    characteristics ``layering`` computed for ``state`` (computed here if
    None), and those an effect that changes the rules stops."""
    board = Board(state, edition, (layering or compute(state, edition)).final)
    events: list[Event] = []
    for action, rule in edition.state_based_actions.items():
        events.extend(REGISTRY[action](board, rule))
    return changed_by_rules(board, events)


def check(state: GameState, edition: Edition, layering: Layering | None = None) -> tuple[Event, ...]:
    """Every event the state-based effects of ``edition`` would perform now
    (one check of 420.3), after the effects that change the rules; see
    :func:`examine`, which also gives the events they stop."""
    return examine(state, edition, layering).events


def rule_changes(board: Board) -> dict[str, list[tuple[str, Characteristics]]]:
    """The rule-changing abilities the permanents have now (after the
    layers), each with the permanents that have it, as ``(id,
    characteristics)`` pairs (see :data:`rules_kb.checker.vocabulary.RULE_CHANGES`)."""
    found: dict[str, list[tuple[str, Characteristics]]] = {}
    for obj, seen in board.permanents():
        for ability in seen.abilities:
            member = vocab.resolve(vocab.RULE_CHANGES, ability)
            if member is not None:
                found.setdefault(member, []).append((obj.id, seen))
    return found


def _safe_players(board: Board, changes) -> dict[str, tuple[str, tuple[str, ...]]]:
    """The ability that keeps each player from losing, by player name: for
    « les joueurs ne peuvent pas perdre la partie » every player, for « vous
    ne pouvez pas perdre la partie » the controller of a permanent that has
    it; as ``(ability, source ids)``."""
    safe: dict[str, tuple[str, tuple[str, ...]]] = {}
    everyone = changes.get(vocab.PLAYERS_CANT_LOSE, ())
    if everyone:
        for player in board.state.players:
            safe[player.name] = (vocab.PLAYERS_CANT_LOSE, tuple(oid for oid, _ in everyone))
    for oid, seen in changes.get(vocab.YOU_CANT_LOSE, ()):
        ability, sources = safe.get(seen.controller, (vocab.YOU_CANT_LOSE, ()))
        safe[seen.controller] = (ability, (*sources, oid))
    return safe


def changed_by_rules(board: Board, events: list[Event]) -> Check:
    """``events`` as the effects that change the rules leave them, and those
    they stop: no legend rule event under « la règle des légendes ne
    s'applique pas »; no player losing who "can't lose the game" (an effect
    that says so wins over the rule that says they lose: the card wins,
    103.1, and such an effect changes the rules, 418.3b); a destruction
    replaced by regeneration for a permanent with a regeneration shield
    (419.6b, 2004)."""
    changes = rule_changes(board)
    safe = _safe_players(board, changes)
    found: list[Event] = []
    stopped: list[Stopped] = []
    for event in events:
        if event.effect is StateBasedAction.LEGEND_RULE and vocab.NO_LEGEND_RULE in changes:
            sources = tuple(oid for oid, _ in changes[vocab.NO_LEGEND_RULE])
            stopped.append(Stopped(event, vocab.NO_LEGEND_RULE, sources))
            continue
        if event.action is Action.LOSE and set(safe) & set(event.players):
            by_ability: dict[tuple[str, tuple[str, ...]], list[str]] = {}
            for name in event.players:
                if name in safe:
                    by_ability.setdefault(safe[name], []).append(name)
            for (ability, sources), players in by_ability.items():
                stopped.append(Stopped(replace(event, players=tuple(players)), ability, sources))
            event = replace(event, players=tuple(name for name in event.players if name not in safe))
            if not event.players:
                continue
        if event.action is Action.DESTROY:
            shielded = tuple(oid for oid in event.objects if board.state.object(oid).regeneration_shields > 0)
            if shielded:
                found.append(
                    replace(event, action=Action.REGENERATE, objects=shielded, see_also=(*event.see_also, "419.6b"))
                )
                event = replace(event, objects=tuple(oid for oid in event.objects if oid not in shielded))
                if not event.objects:
                    continue
        found.append(event)
    return Check(tuple(found), tuple(stopped))


def checked(state: GameState) -> GameState:
    """The state once a check has seen it: the draws from an empty library
    it judged are behind it, since 420.5g counts only those since the last
    check — a player an effect kept from losing then does not lose for the
    same draw at a later check. Implements 420.5g (2004)."""
    if not any(player.drew_from_empty_library for player in state.players):
        return state
    return replace(state, players=tuple(replace(player, drew_from_empty_library=False) for player in state.players))


def perform(state: GameState, events: tuple[Event, ...]) -> GameState:
    """The state after all ``events`` happen at once (420.3).

    An object hit by several events moves once: ceasing to exist wins over
    going to the graveyard, which wins over becoming unattached. An object
    leaving play loses its damage, counters and attachment; what was
    attached to it stays pointing at it, so the next check sees it
    enchanting or equipping nothing.
    """
    ceasing = {oid for e in events if e.action is Action.CEASE_TO_EXIST for oid in e.objects}
    dying = {oid for e in events if e.action in (Action.DESTROY, Action.PUT_INTO_GRAVEYARD) for oid in e.objects}
    unattached = {oid for e in events if e.action is Action.UNATTACH for oid in e.objects}
    regenerated = {oid for e in events if e.action is Action.REGENERATE for oid in e.objects}
    removed: dict[str, dict[str, int]] = {}
    for event in events:
        if event.action is Action.REMOVE_COUNTERS:
            for oid in event.objects:
                for name, count in event.counters:
                    removed.setdefault(oid, {})[name] = removed.get(oid, {}).get(name, 0) + count
    objects = []
    for obj in state.objects:
        if obj.id in ceasing:
            obj = replace(obj, exists=False, zone=None, damage=0, counters={}, attached_to="")
        elif obj.id in dying:
            obj = replace(obj, zone=Zone.GRAVEYARD, damage=0, counters={}, attached_to="")
        else:
            if obj.id in unattached:
                obj = replace(obj, attached_to="")
            if obj.id in regenerated:
                obj = replace(obj, damage=0, tapped=True, regeneration_shields=obj.regeneration_shields - 1)
            if obj.id in removed:
                counters = {
                    name: count - removed[obj.id].get(name, 0)
                    for name, count in obj.counters.items()
                    if count - removed[obj.id].get(name, 0) > 0
                }
                obj = replace(obj, counters=counters)
        objects.append(obj)
    lost: dict[str, list[str]] = {}
    for event in events:
        if event.action is Action.LOSE:
            for name in event.players:
                lost.setdefault(name, []).append(event.rule)
    players = [
        replace(player, lost=True, lost_by=tuple(dict.fromkeys((*player.lost_by, *lost[player.name]))))
        if player.name in lost
        else player
        for player in state.players
    ]
    return replace(state, objects=tuple(objects), players=tuple(players))


@dataclass(frozen=True, slots=True)
class Round:
    """One check of the state-based effects: the events performed together,
    the state after them and its characteristics (``layering``, what the
    next check reads), and the events an effect that changes the rules
    ``stopped`` in that check (103.1)."""

    events: tuple[Event, ...]
    state: GameState
    layering: Layering
    stopped: tuple[Stopped, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game stands after the state-based effects: ``losers`` in the
    order they lost, ``draw`` when every player lost in the same check
    (102.4, 2004), ``winners`` the one player left when the others lost."""

    losers: tuple[str, ...] = ()
    draw: bool = False
    winners: tuple[str, ...] = ()

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.draw or bool(self.winners)


@dataclass(frozen=True, slots=True)
class Resolution:
    """The state-based effects run to the end on a state: the edition
    followed, the starting state and its continuous effects
    (``initial_layering``), each round, the final state and the outcome.
    ``last_stopped`` are the events an effect that changes the rules stopped
    in the last check, the one that performed nothing (103.1; each round
    keeps those of its own check)."""

    edition: Edition
    initial: GameState
    rounds: tuple[Round, ...]
    final: GameState
    outcome: Outcome
    initial_layering: Layering
    last_stopped: tuple[Stopped, ...] = ()

    @property
    def final_layering(self) -> Layering:
        """The continuous effects applied to the final state."""
        return self.rounds[-1].layering if self.rounds else self.initial_layering

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event of every round, in order."""
        return tuple(event for round_ in self.rounds for event in round_.events)

    @property
    def stopped(self) -> tuple[tuple[int, Stopped], ...]:
        """Every event an effect that changes the rules stopped, with the
        number of its check (from 1; the last check is ``len(rounds) + 1``
        when it performed nothing)."""
        found = [(number, item) for number, round_ in enumerate(self.rounds, 1) for item in round_.stopped]
        found += [(len(self.rounds) + 1, item) for item in self.last_stopped]
        return tuple(found)


#: More rounds than any real board needs; reaching it means a bug, reported as such.
MAX_ROUNDS = 100


class CheckerLoopError(RulesKbError):
    """The state-based effects kept applying for :data:`MAX_ROUNDS` rounds."""


def outcome(state: GameState, rounds: tuple[Round, ...]) -> Outcome:
    """Who lost, whether it is a draw (all players lost in the same check,
    102.4 of 2004) and who is left as the winner."""
    losers: list[str] = []
    last: list[str] = []
    before: set[str] = {player.name for player in state.players if player.lost}
    for round_ in rounds:
        new = [name for e in round_.events if e.action is Action.LOSE for name in e.players if name not in before]
        new = list(dict.fromkeys(new))
        if new:
            remaining_before = [p.name for p in state.players if p.name not in before]
            last = new if set(new) == set(remaining_before) else []
            before.update(new)
            losers.extend(new)
    everyone = [player.name for player in state.players]
    draw = len(everyone) >= 2 and len(last) >= 2 and before >= set(everyone)
    left = [name for name in everyone if name not in before]
    winners = tuple(left) if losers and len(left) == 1 else ()
    return Outcome(tuple(losers), draw, winners)


def run(state: GameState, edition: Edition | None = None) -> Resolution:
    """Check the state-based effects of ``edition`` (default: 2004), perform
    all that apply at once, and repeat until none applies or the game is
    over (420.3, 2004); a draw from an empty library counts at the first
    check after it only (420.5g, :func:`checked`). Raises :class:`CheckerLoopError` after
    :data:`MAX_ROUNDS` rounds."""
    edition = edition or EDITIONS["2004"]
    rounds: list[Round] = []
    current = state
    initial = layering = compute(state, edition)
    last: tuple[Stopped, ...] = ()
    for _ in range(MAX_ROUNDS):
        spend(CALLS_PER_READ)
        found = examine(current, edition, layering)
        if not found.events:
            last = found.stopped
            break
        current = checked(perform(current, found.events))
        layering = compute(current, edition)
        rounds.append(Round(found.events, current, layering, found.stopped))
        if outcome(state, tuple(rounds)).over or all(player.lost for player in current.players):
            break
    else:
        raise CheckerLoopError(
            f"Les effets basés sur un état s'appliquent encore après {MAX_ROUNDS} vérifications : "
            "le scénario boucle. Signalez-le avec le fichier de scénario."
        )
    performed = tuple(rounds)
    return Resolution(edition, state, performed, current, outcome(state, performed), initial, last)
