"""Continuous effects applied in layers: the characteristics of every
permanent, computed as 418.5 of the 2004 rules says, with the work shown.

For each layer (418.5a) the effects that apply in it are gathered from the
resolved effects of the state and the static abilities the permanents have
*at that point* (a static ability removed before the layer where its effect
starts, or earlier in that layer, never applies, 418.4b), plus the effects
that started applying in an earlier layer and whose permanent is still in
play, even without the ability (418.5b: each part in its own layer). Within a layer:
characteristic-defining abilities first, then (layer 6) counters, then the
other effects (and, where the edition says so, switching last); each group
in timestamp order (418.5e–g) unless an effect depends on another (418.5c),
in which case the independent one goes first; effects in a dependency loop
keep timestamp order (418.5d).

Dependencies are computed, not declared: effect A depends on effect B when
applying B to the current values would change whether A exists, its text,
the set of permanents it applies to, or what it does to them (its copied
values, a mana value it reads). What A's result would be is not compared, so
two effects that only add up or override each other stay independent
(418.5h, 418.5i).

>>> from rules_kb.checker.scenario import parse_scenario
>>> state = parse_scenario('''
... [[permanent]]
... id = "croisade"
... name = "Croisade"
... controller = "Alice"
... card_types = ["enchantement"]
...   [[permanent.static]]
...   affects_all = { card_types = ["créature"], colors = ["blanc"] }
...   modify_power_toughness = [1, 1]
... [[permanent]]
... id = "soldat"
... name = "Soldat"
... controller = "Alice"
... card_types = ["créature"]
... colors = ["blanc"]
... power = 2
... toughness = 2
... ''').state
>>> seen = compute(state).final["soldat"]
>>> (seen.power, seen.toughness, seen.applied)
(3, 3, ('croisade#1',))
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from dataclasses import fields as dataclass_fields

from rules_kb.checker import counting
from rules_kb.checker import subtypes as kinds
from rules_kb.checker.budget import CALLS_PER_READ, spend
from rules_kb.checker.characteristics import Characteristics, characteristics_of, counter_modifier, printed, retyped
from rules_kb.checker.editions import EDITIONS, Edition
from rules_kb.checker.effects import (
    MANA_VALUE,
    YOU,
    ContinuousEffect,
    Count,
    Layer,
    Operation,
    Scope,
    Selector,
    TextChange,
)
from rules_kb.checker.state import GameState, power_toughness_counter
from rules_kb.core.text import fold
from rules_kb.core.vocabulary import LEGEND, CardType, Supertype

#: The id of the counters' step in layer 6.
COUNTERS = "counters"


class StepKind(enum.Enum):
    """Why an effect applies where it does in its layer."""

    CHARACTERISTIC_DEFINING = "characteristic_defining"
    """A characteristic-defining ability: before the other effects (418.5a)."""
    COUNTERS = "counters"
    """Counters: after characteristic-defining abilities (418.5a)."""
    TIMESTAMP = "timestamp"
    """Timestamp order (418.5d–g)."""
    DEPENDENCY = "dependency"
    """Waited for the effects it depends on (418.5c–d)."""
    DEPENDED_ON = "depended_on"
    """Went before an older effect that depends on it (418.5c–d)."""
    LOOP = "loop"
    """In a dependency loop: timestamp order (418.5d)."""
    SWITCH_LAST = "switch_last"
    """Switching power and toughness, after every other effect (edition's FAQ)."""
    ENDED = "ended"
    """Ceased to exist in this layer: its permanent lost the ability (418.4b)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One effect applied in a layer (or one that ceased to exist there).

    ``effect`` is its id (:data:`COUNTERS` for counters; a static ability
    acting from a copy is ``"<ability id>@<copy id>"``), ``kind`` and
    ``reason`` (French) say why it applies in this position, ``rules`` the
    rule numbers the reason cites. ``objects`` are the ids of the
    permanents it modified, ``timestamp`` its timestamp (None for
    counters), ``depends_on`` the effects it waited for (or loops with),
    ``overrides`` the effects of this layer whose result it replaced
    (418.5h). ``text`` is the ability's wording, ``source`` the permanent
    with the ability (``""`` for a resolved effect).
    """

    effect: str
    kind: StepKind
    reason: str
    rules: tuple[str, ...] = ()
    objects: tuple[str, ...] = ()
    timestamp: int | None = None
    depends_on: tuple[str, ...] = ()
    overrides: tuple[str, ...] = ()
    text: str = ""
    source: str = ""


@dataclass(frozen=True, slots=True)
class LayerResult:
    """One layer: the steps in the order they applied, and the
    characteristics of every permanent after it, by id."""

    layer: Layer
    steps: tuple[Step, ...]
    after: Mapping[str, Characteristics]


@dataclass(frozen=True, slots=True)
class Layering:
    """The continuous effects applied to a state.

    ``printed`` holds each permanent's values before any effect, ``layers``
    the six :class:`LayerResult`, ``final`` the characteristics of every
    existing object (permanents after layer 6, other objects as printed with
    counters), by id.
    """

    edition: Edition
    printed: Mapping[str, Characteristics]
    layers: tuple[LayerResult, ...]
    final: Mapping[str, Characteristics]

    def history(self, object_id: str) -> list[tuple[LayerResult, tuple[Step, ...]]]:
        """The layers in which something modified ``object_id``, each with those steps."""
        found = []
        for result in self.layers:
            steps = tuple(step for step in result.steps if object_id in step.objects)
            if steps:
                found.append((result, steps))
        return found

    def changed(self, object_id: str) -> bool:
        """Whether any effect or counter modified this permanent."""
        return bool(self.history(object_id))


# -- what each operation does ---------------------------------------------------

#: The function applying each operation to one object's values.
OPERATIONS: dict[Operation, Callable[[Characteristics, object, _Context], Characteristics]] = {}


def operation(kind: Operation):
    """Register the decorated function as what ``kind`` does."""

    def register(function):
        OPERATIONS[kind] = function
        return function

    return register


@dataclass(frozen=True, slots=True)
class _Context:
    """What operations read besides the object: the state (attachments,
    names, objects off the battlefield) and every permanent's current values."""

    state: GameState
    values: Mapping[str, Characteristics]
    target: str = ""
    """The id of the object being modified."""
    given: frozenset[CardType] = frozenset()
    """The card types the effect being applied sets or adds: the subtypes it
    gives belong to them (205.3b, :func:`rules_kb.checker.subtypes.given_link`)."""


def _copiable(context: _Context, object_id: str) -> Characteristics:
    """The copiable values of an object: printed, modified by copy effects
    only (503.2); for an object off the battlefield, its printed values."""
    if object_id in context.values:
        return context.values[object_id]
    obj = context.state.object(object_id)
    return printed(obj)


@operation(Operation.COPY_OF)
def copy_of(seen: Characteristics, object_id: str, context: _Context) -> Characteristics:
    """Become a copy of ``object_id``: take its copiable values — name, mana
    value, colours, types, subtypes, supertypes, text (abilities), power and
    toughness — and keep controller and counters. Implements 503.2 (2004)."""
    model = _copiable(context, object_id)
    return replace(
        seen,
        name=model.name,
        mana_value=model.mana_value,
        colors=model.colors,
        card_types=model.card_types,
        subtypes=model.subtypes,
        linked_subtypes=model.linked_subtypes,
        supertypes=model.supertypes,
        abilities=model.abilities,
        statics=model.statics,
        enchant=model.enchant,
        power=model.power,
        toughness=model.toughness,
    )


@operation(Operation.COPY_EXCEPT)
def copy_except(seen: Characteristics, exceptions, context: _Context) -> Characteristics:
    """Apply the exceptions of a copy effect after the copy, in layer 1, so
    that they are copiable values too. Implements 503.3 (2004; its example:
    a Clone copying a Doppleganger vésuvéen that copies a Grizzli "sauf pour
    sa couleur" is a blue Grizzli with the Doppleganger's ability)."""
    for kind, value in exceptions:
        seen = OPERATIONS[kind](seen, value, context)
    return seen


@operation(Operation.SET_CONTROLLER)
def set_controller(seen: Characteristics, player: str, context: _Context) -> Characteristics:
    """Change the controller. Layer 2 of 418.5a (2004)."""
    return replace(seen, controller=player)


def _plural(word: str) -> str:
    return word if word[-1:] in ("s", "x", "z") else word + "s"


def _same_case(model: str, word: str) -> str:
    return word[:1].upper() + word[1:] if model[:1].isupper() else word


def replace_words(text: str, change: TextChange, names: tuple[str, ...] = ()) -> str:
    """``text`` with every word ``change`` allows replaced: a colour word in
    any of its forms (``"blanches"`` → ``"noires"``), or a subtype, singular
    or plural; never inside one of ``names``, matched with their case
    (418.6a: a name is never changed, even when it contains such a word)."""
    if change.is_color:
        forms = dict(zip(change.old.inflections, change.new.inflections))
    else:
        forms = {change.old: change.new, _plural(change.old): _plural(change.new)}
    by_key = {fold(old): new for old, new in forms.items()}
    pattern = re.compile(
        r"\b(" + "|".join(re.escape(old) for old in sorted(forms, key=len, reverse=True)) + r")\b", re.IGNORECASE
    )
    protected = [name for name in names if name]
    if protected:
        # A name is matched with its case, whole words only: card text writes
        # « le Marais » for a name, « marais » for the land type (418.6a).
        shield = re.compile(
            r"\b(?:" + "|".join(re.escape(name) for name in sorted(protected, key=len, reverse=True)) + r")\b"
        )
        parts = shield.split(text)
        kept = shield.findall(text)
    else:
        parts, kept = [text], []

    def swap(found: re.Match) -> str:
        word = found.group(0)
        return _same_case(word, by_key.get(fold(word), word))

    out = []
    for index, part in enumerate(parts):
        out.append(pattern.sub(swap, part))
        if index < len(kept):
            out.append(kept[index])
    return "".join(out)


def _swap_in(values, change: TextChange):
    """A set or tuple of colours or subtypes with ``change.old`` replaced by ``change.new``."""
    if isinstance(values, frozenset):
        return frozenset(change.new if value == change.old else value for value in values)
    if isinstance(values, tuple):
        return tuple(
            change.new if isinstance(value, str) and fold(value) == fold(str(change.old)) else value for value in values
        )
    return values


def _change_effect_text(effect: ContinuousEffect, change: TextChange, names: tuple[str, ...]) -> ContinuousEffect:
    """A static ability with its words changed: its text and what it names
    (colours, subtypes, abilities it grants, the permanents it selects)."""
    operations = []
    for operation, value in effect.operations:
        if (
            change.is_color
            and operation in (Operation.SET_COLORS, Operation.ADD_COLORS)
            or not change.is_color
            and operation in (Operation.SET_SUBTYPES, Operation.ADD_SUBTYPES, Operation.REMOVE_SUBTYPES)
        ):
            value = _swap_in(value, change)
        elif operation in (Operation.ADD_ABILITIES, Operation.REMOVE_ABILITIES):
            value = tuple(replace_words(ability, change, names) for ability in value)
        operations.append((operation, value))
    affects = effect.affects
    if affects.selector is not None:
        selector = affects.selector
        if change.is_color:
            selector = replace(selector, colors=_swap_in(selector.colors, change))
        else:
            selector = replace(selector, subtypes=_swap_in(selector.subtypes, change))
        affects = replace(affects, selector=selector)
    return replace(
        effect, text=replace_words(effect.text, change, names), operations=tuple(operations), affects=affects
    )


@operation(Operation.CHANGE_TEXT)
def change_text(seen: Characteristics, change: TextChange, context: _Context) -> Characteristics:
    """Replace one colour word by another, or one land or creature type by
    another, in the object's text: abilities, static abilities, "Enchanter :"
    and (for a type) its type line — never in a name. Implements 418.6a
    and 418.6d (2004)."""
    names = tuple(dict.fromkeys([seen.name, *(obj.name for obj in context.state.objects)]))
    changed = replace(
        seen,
        abilities=tuple(replace_words(ability, change, names) for ability in seen.abilities),
        statics=tuple(_change_effect_text(effect, change, names) for effect in seen.statics),
        enchant=tuple(replace_words(word, change, names) for word in seen.enchant),
    )
    if not change.is_color:
        old = fold(str(change.old))
        swapped = ((change.new if fold(word) == old else word, owner) for word, owner in seen.linked_subtypes)
        changed = retyped(changed, linked=tuple(dict.fromkeys(swapped)))
    return changed


#: The basic land types and the mana their intrinsic ability adds (212.6d).
BASIC_LAND_TYPES = kinds.BASIC_LAND_TYPES


def _basic_land_types(subtypes) -> list[str]:
    basic = {fold(name): name for name in BASIC_LAND_TYPES}
    return [basic[fold(subtype)] for subtype in subtypes if fold(subtype) in basic]


def _set_and_add(field: str, set_kind: Operation, add_kind: Operation, what: str) -> None:
    """Register the operations that replace and that add to a set-valued
    characteristic (supertypes, colours)."""

    def set_values(seen: Characteristics, values, context: _Context) -> Characteristics:
        return replace(seen, **{field: frozenset(values)})

    def add_values(seen: Characteristics, values, context: _Context) -> Characteristics:
        return replace(seen, **{field: getattr(seen, field) | frozenset(values)})

    rule = f"Layer {int(set_kind.layer)} of 418.5a (2004)."
    set_values.__doc__ = f"Replace the {what}. {rule}"
    add_values.__doc__ = f"Add {what}. {rule}"
    operation(set_kind)(set_values)
    operation(add_kind)(add_values)


_set_and_add("supertypes", Operation.SET_SUPERTYPES, Operation.ADD_SUPERTYPES, "supertypes")
_set_and_add("colors", Operation.SET_COLORS, Operation.ADD_COLORS, "colours (none: colourless)")


@operation(Operation.SET_CARD_TYPES)
def set_card_types(seen: Characteristics, card_types, context: _Context) -> Characteristics:
    """Replace the card types; the subtypes of a type the object loses no
    longer exist while it is lost (« légende » with the creature type,
    215.2). Implements 212.1b (2004), layer 4 of 418.5a."""
    return retyped(seen, card_types=frozenset(card_types))


@operation(Operation.ADD_CARD_TYPES)
def add_card_types(seen: Characteristics, card_types, context: _Context) -> Characteristics:
    """Add card types, keeping every type and subtype (« en plus de ses autres
    types », « est toujours un … »); the subtypes of a type the object gets
    back exist again. Implements 212.1c and 212.1b (2004), layer 4 of 418.5a."""
    return retyped(seen, card_types=seen.card_types | frozenset(card_types))


def _links(subtypes, seen: Characteristics, context: _Context) -> tuple[kinds.Link, ...]:
    """The subtypes an effect gives, each with the card type it belongs to."""
    return kinds.given_links(tuple(subtypes), context.given, seen.card_types)


@operation(Operation.SET_SUBTYPES)
def set_subtypes(seen: Characteristics, subtypes, context: _Context) -> Characteristics:
    """Replace the subtypes of the card types the new ones belong to, and
    only those: new creature types replace the creature types and leave the
    land types, new land types leave the creature types (212.1b, 205.3b;
    ``[]`` removes every subtype). A land given one or more basic land types
    also keeps only their mana abilities of its text (and no static ability
    of its text); its card types and supertypes stay. Implements 212.1b and
    212.6e (2004)."""
    new = _links(subtypes, seen, context)
    replaced = {owner for _, owner in new}
    kept = tuple(link for link in seen.linked_subtypes if new and link[1] not in replaced)
    changed = retyped(seen, linked=_appended_links(kept, new))
    basic = _basic_land_types(subtypes)
    if CardType.LAND in seen.card_types and basic:
        mana = tuple(f"{{T}} : Ajoutez {{{BASIC_LAND_TYPES[name]}}} à votre réserve." for name in basic)
        changed = replace(changed, abilities=mana, statics=())
    return changed


def _appended_links(existing: tuple[kinds.Link, ...], new, shown: tuple[str, ...] = ()) -> tuple[kinds.Link, ...]:
    """``existing`` then those of ``new`` it lacks (case and accents ignored);
    ``shown``: the subtypes ``existing`` gives, when known (the words of
    ``existing`` when they are as many)."""
    if not new:
        return existing
    words = kinds.folded_set(shown if len(shown) == len(existing) else tuple(word for word, _ in existing))
    added = tuple(
        link
        for link in new
        if kinds.folded_word(link[0]) not in words
        or not any(
            owner is link[1] and kinds.folded_word(word) == kinds.folded_word(link[0]) for word, owner in existing
        )
    )
    return existing + added if added else existing


def _appended(existing: tuple[str, ...], new) -> tuple[str, ...]:
    """``existing`` then those of ``new`` it lacks (case and accents ignored)."""
    present = {fold(word) for word in existing}
    return existing + tuple(word for word in dict.fromkeys(new) if fold(word) not in present)


def _without(existing: tuple[str, ...], gone) -> tuple[str, ...]:
    """``existing`` without the words of ``gone`` (case and accents ignored)."""
    folded = {fold(word) for word in gone}
    return tuple(word for word in existing if fold(word) not in folded)


@operation(Operation.ADD_SUBTYPES)
def add_subtypes(seen: Characteristics, subtypes, context: _Context) -> Characteristics:
    """Add subtypes, each belonging to a card type (205.3b: one the object
    lacks makes it no subtype it has, 212.1b); a land keeps its text
    (212.6e). Layer 4 of 418.5a (2004)."""
    linked = seen.linked_subtypes
    added = _appended_links(linked, _links(subtypes, seen, context), seen.subtypes)
    if added is linked:
        return seen
    has, shown = kinds.identities(seen.card_types), kinds.folded_set(seen.subtypes)
    new = tuple(
        dict.fromkeys(
            word
            for word, owner in added[len(linked) :]
            if (owner is None or id(owner) in has) and kinds.folded_word(word) not in shown
        )
    )
    return replace(seen, linked_subtypes=added, subtypes=seen.subtypes + new)


@operation(Operation.REMOVE_SUBTYPES)
def remove_subtypes(seen: Characteristics, subtypes, context: _Context) -> Characteristics:
    """Remove subtypes; the card types stay (212.1b). Layer 4 of 418.5a (2004)."""
    folded = kinds.folded_set(tuple(subtypes))
    return retyped(
        seen, linked=tuple(link for link in seen.linked_subtypes if kinds.folded_word(link[0]) not in folded)
    )


@operation(Operation.ADD_ABILITIES)
def add_abilities(seen: Characteristics, abilities, context: _Context) -> Characteristics:
    """Grant abilities (one instance of each is enough). Layer 5 of 418.5a (2004)."""
    return replace(seen, abilities=_appended(seen.abilities, abilities))


@operation(Operation.ADD_STATICS)
def add_statics(seen: Characteristics, statics, context: _Context) -> Characteristics:
    """Grant static abilities: from the next layer on, their effects act from
    this permanent, with its timestamp (418.4, 418.5f). Layer 5 of 418.5a (2004)."""
    present = {effect.id for effect in seen.statics}
    return replace(seen, statics=seen.statics + tuple(effect for effect in statics if effect.id not in present))


@operation(Operation.REMOVE_ABILITIES)
def remove_abilities(seen: Characteristics, abilities, context: _Context) -> Characteristics:
    """Remove the abilities named (a static ability by its text or id). Layer 5 of 418.5a (2004)."""
    gone = {fold(ability) for ability in abilities}
    return replace(
        seen,
        abilities=_without(seen.abilities, abilities),
        statics=tuple(s for s in seen.statics if fold(s.text) not in gone and fold(s.id) not in gone),
    )


@operation(Operation.REMOVE_ALL_ABILITIES)
def remove_all_abilities(seen: Characteristics, value, context: _Context) -> Characteristics:
    """Remove every ability, static abilities included. Layer 5 of 418.5a (2004)."""
    return replace(seen, abilities=(), statics=())


@operation(Operation.SET_POWER_TOUGHNESS)
def set_power_toughness(seen: Characteristics, value, context: _Context) -> Characteristics:
    """Set power and toughness, to given values or each to the mana value.
    Layer 6 of 418.5a (2004), or layer 4 in a type-changing effect (418.5b)."""
    power, toughness = (seen.mana_value, seen.mana_value) if value == MANA_VALUE else value
    return replace(seen, power=power, toughness=toughness)


@operation(Operation.MODIFY_POWER_TOUGHNESS)
def modify_power_toughness(seen: Characteristics, value, context: _Context) -> Characteristics:
    """Add to power and toughness. Layer 6 of 418.5a (2004)."""
    return replace(seen, power=(seen.power or 0) + value[0], toughness=(seen.toughness or 0) + value[1])


@operation(Operation.SWITCH_POWER_TOUGHNESS)
def switch_power_toughness(seen: Characteristics, value, context: _Context) -> Characteristics:
    """Exchange power and toughness. Implements 418.5i (2004)."""
    return replace(seen, power=seen.toughness, toughness=seen.power)


#: The characteristics whose writers are tracked to report 418.5h.
_TRACKED = ("controller", "card_types", "subtypes", "supertypes", "colors", "power_toughness")


def _writes(kind: Operation) -> tuple[str, bool]:
    """The characteristic an operation writes (``""``: none tracked) and
    whether it replaces what is there (``set_``, ``remove_``) rather than
    adding to it (``add_``, ``modify_``, ``switch_``), read from its name."""
    verb, _, field = kind.value.partition("_")
    if field not in _TRACKED:
        return "", False
    return field, verb in ("set", "remove")


# -- effects in a layer -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Instance:
    """An effect as it stands in one layer: its current wording, the
    permanent it acts from (``""`` for a resolved effect) and its timestamp.
    ``started`` says it applied in an earlier layer: it then keeps applying
    its later parts while its permanent is in play, even without the
    ability (418.5b, 418.4b)."""

    id: str
    effect: ContinuousEffect
    source: str
    timestamp: int
    order: tuple[int, int, int]
    started: bool = False


def _instances(layer: Layer, state: GameState, values: Mapping[str, Characteristics]) -> dict[tuple, _Instance]:
    """Every effect with a part in ``layer`` now, by key ``(source, effect id)``."""
    found: dict[tuple, _Instance] = {}
    for index, effect in enumerate(state.effects):
        if effect.operations_in(layer):
            found[("", effect.id)] = _Instance(
                effect.id, effect, "", effect.timestamp, (effect.timestamp, effect.line, index)
            )
    for position, obj in enumerate(state.objects):
        if obj.id not in values:
            continue
        for index, effect in enumerate(values[obj.id].statics):
            if effect.operations_in(layer):
                shown = effect.id if effect.origin == obj.id else f"{effect.id}@{obj.id}"
                found[(obj.id, effect.id)] = _Instance(
                    shown,
                    effect,
                    obj.id,
                    obj.timestamp,
                    (obj.timestamp, effect.line or obj.line, position * 100 + index),
                )
    return found


def _current(key: tuple, instance: _Instance, values: Mapping[str, Characteristics]) -> _Instance | None:
    """The instance as the current values word it, or None once its
    permanent no longer has the ability and the effect has not started
    applying. An effect that applied in an earlier layer keeps applying its
    later parts, as last worded, while its permanent is in play. Implements
    418.4b and 418.5b (2004)."""
    source, effect_id = key
    if not source:
        return instance
    seen = values.get(source)
    if seen is None:
        return None
    for effect in seen.statics:
        if effect.id == effect_id:
            return instance if effect is instance.effect else replace(instance, effect=effect)
    return instance if instance.started else None


def _lost(instance: _Instance, values: Mapping[str, Characteristics]) -> bool:
    """Whether a started effect acts although its permanent lost the ability."""
    seen = values.get(instance.source)
    return bool(
        instance.source
        and instance.started
        and seen is not None
        and all(effect.id != instance.effect.id for effect in seen.statics)
    )


def _selected(
    selector: Selector, object_id: str, seen: Characteristics, source: str, values: Mapping[str, Characteristics]
) -> bool:
    """Whether a permanent matches an ``affects_all`` selector now (418.4a):
    :func:`rules_kb.checker.counting.selected`, relative to the ability's permanent."""
    you = values[source].controller if source in values else ""
    return counting.selected(selector, object_id, seen, source, values.get(source), you)


def affected(instance: _Instance, state: GameState, values: Mapping[str, Characteristics]) -> tuple[str, ...]:
    """The ids of the permanents an effect applies to now: its own
    permanent, the one it enchants or equips, those its selector matches
    (418.4a), or the objects fixed when it began that are still in play
    (418.3b)."""
    affects = instance.effect.affects
    scope = affects.scope
    if scope is Scope.SELF:
        return (instance.source,) if instance.source in values else ()
    if scope in (Scope.ENCHANTED, Scope.EQUIPPED):
        holder = state.object(instance.source)
        target = holder.attached_to if holder else ""
        return (target,) if target in values else ()
    if scope is Scope.OBJECTS:
        return tuple(object_id for object_id in dict.fromkeys(affects.ids) if object_id in values)
    return tuple(
        object_id
        for object_id, seen in values.items()
        if _selected(affects.selector or Selector(), object_id, seen, instance.source, values)
    )


def _signature(key: tuple, instance: _Instance, layer: Layer, state: GameState, values: Mapping[str, Characteristics]):
    """What 418.5c compares: the effect's existence and text, what it applies
    to, and what it does (the values it copies or reads)."""
    current = _current(key, instance, values)
    if current is None:
        return None
    targets = affected(current, state, values)
    reads = []
    context = _Context(state, values)
    for operation, value in current.effect.operations_in(layer):
        if operation is Operation.COPY_OF:
            reads.append(_copiable(context, value))
        elif operation is Operation.SET_POWER_TOUGHNESS and value == MANA_VALUE:
            reads.append(tuple(values[object_id].mana_value for object_id in targets))
        elif isinstance(value, Count) or (operation is Operation.SET_CONTROLLER and value == YOU):
            reads.append(
                tuple(
                    counting.resolve(operation, value, state, values, current.source, object_id)
                    for object_id in targets
                )
            )
    return current.effect, targets, tuple(reads)


def _apply(instance: _Instance, operations, state: GameState, values: Mapping[str, Characteristics]):
    """Apply ``operations`` of an effect: the new values (a new dict) and the ids modified."""
    targets = affected(instance, state, values)
    given = frozenset(
        kind
        for operation, value in operations
        if operation in (Operation.SET_CARD_TYPES, Operation.ADD_CARD_TYPES)
        for kind in value
    )
    context = _Context(state, values, given=given)
    changed = dict(values)
    for object_id in targets:
        seen = values[object_id]
        for operation, value in operations:
            value = counting.resolve(operation, value, state, values, instance.source, object_id)
            before = seen
            seen = OPERATIONS[operation](seen, value, replace(context, target=object_id))
            if operation is Operation.COPY_OF or _became_legend_or_world(before, seen):
                # It is what it is since this effect's own timestamp (418.5f-g), for 420.5e and 420.5i.
                seen = replace(seen, since=max(seen.since, instance.timestamp))
        changed[object_id] = replace(seen, applied=seen.applied + (instance.id,))
    return changed, targets


def _became_legend_or_world(before: Characteristics, after: Characteristics) -> bool:
    """Whether an operation made a permanent a legend or a world enchantment (420.5e, 420.5i)."""
    return (after.is_legendary and not before.is_legendary) or (
        Supertype.WORLD in after.supertypes and Supertype.WORLD not in before.supertypes
    )


def depends_on(
    a: tuple,
    b: tuple,
    instances: Mapping[tuple, _Instance],
    layer: Layer,
    state: GameState,
    values: Mapping[str, Characteristics],
) -> bool:
    """Whether effect ``a`` depends on effect ``b`` in ``layer`` now: applying
    ``b`` would change ``a``'s existence, text, what it applies to or what it
    does. Implements 418.5c (2004)."""
    first = instances[b]
    current = _current(b, first, values)
    if current is None:
        return False
    before = _signature(a, instances[a], layer, state, values)
    after_b, _ = _apply(current, current.effect.operations_in(layer), state, values)
    return _signature(a, instances[a], layer, state, after_b) != before


#: The characteristics each operation can change (an operation missing
#: here, a copy or a text change, may change any of them).
_CHANGES: dict[Operation, frozenset[str]] = {
    Operation.SET_CONTROLLER: frozenset({"controller"}),
    Operation.SET_CARD_TYPES: frozenset({"card_types", "subtypes"}),
    Operation.ADD_CARD_TYPES: frozenset({"card_types", "subtypes"}),
    Operation.SET_SUPERTYPES: frozenset({"supertypes"}),
    Operation.ADD_SUPERTYPES: frozenset({"supertypes"}),
    Operation.SET_COLORS: frozenset({"colors"}),
    Operation.ADD_COLORS: frozenset({"colors"}),
    Operation.SET_SUBTYPES: frozenset({"subtypes", "linked_subtypes", "abilities", "statics"}),
    Operation.ADD_SUBTYPES: frozenset({"subtypes", "linked_subtypes"}),
    Operation.REMOVE_SUBTYPES: frozenset({"subtypes", "linked_subtypes"}),
    Operation.ADD_ABILITIES: frozenset({"abilities"}),
    Operation.ADD_STATICS: frozenset({"statics"}),
    Operation.REMOVE_ABILITIES: frozenset({"abilities", "statics"}),
    Operation.REMOVE_ALL_ABILITIES: frozenset({"abilities", "statics"}),
    Operation.SET_POWER_TOUGHNESS: frozenset({"power", "toughness"}),
    Operation.MODIFY_POWER_TOUGHNESS: frozenset({"power", "toughness"}),
    Operation.SWITCH_POWER_TOUGHNESS: frozenset({"power", "toughness"}),
}


def _writes_fields(effect: ContinuousEffect, layer: Layer) -> frozenset[str] | None:
    """The characteristics ``effect`` can change in ``layer`` (None: any)."""
    fields: set[str] = set()
    for op, _ in effect.operations_in(layer):
        if op not in _CHANGES:
            return None
        fields |= _CHANGES[op]
    return frozenset(fields)


def _selector_fields(selector: Selector | None) -> set[str]:
    """The characteristics :func:`rules_kb.checker.counting.selected` reads for ``selector``."""
    if selector is None:
        return set()
    fields = set()
    for field, keys in (
        ("card_types", (selector.card_types, selector.not_card_types)),
        ("colors", (selector.colors, selector.not_colors)),
        ("supertypes", (selector.supertypes, selector.not_supertypes)),
        ("subtypes", (selector.subtypes, selector.not_subtypes, selector.shares_subtype)),
        ("controller", (selector.controller,)),
    ):
        if any(keys):
            fields.add(field)
    return fields


def _reads_fields(effect: ContinuousEffect, layer: Layer) -> frozenset[str] | None:
    """The characteristics :func:`_signature` reads for ``effect`` in
    ``layer`` (None: any, for a copy): its permanent's abilities (whether
    it still exists, its text), what its selectors and counts look at, the
    controller ``YOU`` names, the mana value a power set to it reads."""
    fields = {"statics"}
    if effect.affects.scope is Scope.ALL:
        fields |= _selector_fields(effect.affects.selector)
    for op, value in effect.operations_in(layer):
        if op in (Operation.COPY_OF, Operation.COPY_EXCEPT):
            return None
        if isinstance(value, Count):
            fields |= _selector_fields(value.selector) | {"controller"}
        elif op is Operation.SET_CONTROLLER and value == YOU:
            fields.add("controller")
        elif op is Operation.SET_POWER_TOUGHNESS and value == MANA_VALUE:
            fields.add("mana_value")
    return frozenset(fields)


def _meets(reads: frozenset[str] | None, writes: frozenset[str] | None) -> bool:
    return reads is None or writes is None or bool(reads & writes)


def _changed(values: Mapping[str, Characteristics], after: Mapping[str, Characteristics], targets) -> frozenset[str]:
    """The characteristics that differ between ``values`` and ``after`` on ``targets``."""
    found: set[str] = set()
    for object_id in targets:
        old, new = values[object_id], after[object_id]
        found.update(name for name in _FIELDS if getattr(old, name) != getattr(new, name))
    return frozenset(found)


_FIELDS = tuple(field.name for field in dataclass_fields(Characteristics))


def dependencies(
    keys, instances: Mapping[tuple, _Instance], layer: Layer, state: GameState, values: Mapping[str, Characteristics]
) -> dict[tuple, set[tuple]]:
    """The dependency graph of 418.5c among the effects ``keys`` now: for
    each key, the set of keys it depends on. Detected pairwise, as
    :func:`depends_on` says, but each effect's signature and result
    computed once, and the pairs where one cannot change what the other
    reads (by the characteristics its operations write) skipped without
    applying anything: a Crusade's +1/+1 never changes who another Crusade
    applies to. Implements 418.5c (2004)."""
    keys = list(keys)
    currents = {key: _current(key, instances[key], values) for key in keys}
    effects = {key: (currents[key] or instances[key]).effect for key in keys}
    writes = {b: _writes_fields(effects[b], layer) for b in keys if currents[b] is not None}
    every: frozenset[str] | None = frozenset()
    for fields in writes.values():
        every = None if fields is None or every is None else every | fields
    before: dict[tuple, object] = {}
    after: dict[tuple, Mapping[str, Characteristics]] = {}
    changed: dict[tuple, frozenset[str]] = {}
    touched: dict[tuple, tuple[str, ...]] = {}
    selections: dict[tuple, bool] = {}
    graph: dict[tuple, set[tuple]] = {}
    for a in keys:
        graph[a] = set()
        reads = _reads_fields(effects[a], layer)
        if not _meets(reads, every):
            continue
        for b, fields in writes.items():
            if b == a or not _meets(reads, fields):
                continue
            spend()
            if b not in after:
                current_b = currents[b]
                after[b], touched[b] = _apply(current_b, current_b.effect.operations_in(layer), state, values)
                changed[b] = _changed(values, after[b], touched[b])
            if not changed[b] or not _meets(reads, changed[b]):
                continue
            quick = _selection_changed(a, instances[a], currents[a], values, after[b], touched[b], selections)
            if quick is None:
                if a not in before:
                    before[a] = _signature(a, instances[a], layer, state, values)
                quick = _signature(a, instances[a], layer, state, after[b]) != before[a]
            if quick:
                graph[a].add(b)
    return graph


def _selection_changed(
    key: tuple,
    instance: _Instance,
    current: _Instance | None,
    values: Mapping[str, Characteristics],
    after: Mapping[str, Characteristics],
    touched,
    selections: dict[tuple, bool],
) -> bool | None:
    """Whether :func:`_signature` of an effect that reads nothing but its
    selector differs between ``values`` and ``after``, which differ only on
    ``touched``: its wording, or whether one of ``touched`` is selected.
    None when the quick answer does not hold (an effect that reads values,
    or whose own permanent was touched while its selector looks at it):
    the whole signature must be compared. ``selections`` remembers, by
    ``(key, object id)``, whether the effect selects the object in
    ``values`` (asked again for every other effect that touches it)."""
    source = key[0]
    later = current if values.get(source) is after.get(source) else _current(key, instance, after)
    if current is None or later is None:
        return (current is None) != (later is None)
    if later.effect != current.effect:
        return True
    effect = current.effect
    if any(
        isinstance(value, Count) or value in (YOU, MANA_VALUE) or op in (Operation.COPY_OF, Operation.COPY_EXCEPT)
        for op, value in effect.operations
    ):
        return None
    if effect.affects.scope is not Scope.ALL:
        return False  # its own permanent, the one it is attached to, or fixed objects: not values
    selector = effect.affects.selector or Selector()
    if current.source in touched and (selector.controller or selector.shares_subtype):
        return None
    for object_id in touched:
        if not counting.may_select_differently(selector, values[object_id], after[object_id]):
            continue
        before = selections.get((key, object_id))
        if before is None:
            before = selections[key, object_id] = _selected(
                selector, object_id, values[object_id], current.source, values
            )
        if before != _selected(selector, object_id, after[object_id], current.source, after):
            return True
    return False


def _closure(graph: dict[tuple, set[tuple]]) -> dict[tuple, set[tuple]]:
    """Everything each node reaches through its edges."""
    reach = {}
    for node, edges in graph.items():
        seen, todo = set(), list(edges)
        while todo:
            other = todo.pop()
            if other not in seen:
                seen.add(other)
                todo.extend(graph.get(other, ()))
        reach[node] = seen
    return reach


# -- the reasons ------------------------------------------------------------------------


def _ids(instances: Mapping[tuple, _Instance], keys) -> tuple[str, ...]:
    return tuple(instances[key].id for key in sorted(keys, key=lambda k: instances[k].order))


def _timestamp_reason(instance: _Instance) -> tuple[str, tuple[str, ...]]:
    if instance.source:
        return (
            f"tampon horaire {instance.timestamp}, celui de son permanent {instance.source}",
            ("418.5d", "418.5e", "418.5f"),
        )
    return f"tampon horaire {instance.timestamp}, reçu à sa création", ("418.5d", "418.5g")


def _parts_reason(effect: ContinuousEffect, layer: Layer) -> tuple[str, tuple[str, ...]]:
    """The 418.5b note of an effect with parts in several layers."""
    kinds = {operation.layer for operation, _ in effect.operations}
    if len(kinds) < 2:
        return "", ()
    if effect.is_type_changing:
        return "effet de changement de type : toutes ses parties s'appliquent en couche 4", ("418.5b",)
    others = ", ".join(str(int(other)) for other in sorted(kinds) if other is not layer)
    return f"chaque partie dans sa couche (autres parties : couche {others})", ("418.5b",)


# -- one layer -----------------------------------------------------------------------


@dataclass
class _LayerRun:
    """Applies one layer's effects to ``values``, recording the steps."""

    layer: Layer
    state: GameState
    edition: Edition
    values: dict[str, Characteristics]
    started: dict[tuple, _Instance]
    """The static abilities' effects that applied in an earlier layer, by key
    (filled as they apply): they keep applying their later parts (418.5b)."""

    def __post_init__(self) -> None:
        self.steps: list[Step] = []
        self.writers: dict[tuple[str, str], list[str]] = {}
        self.granted: dict[tuple[str, str], str] = {}

    def run(self) -> None:
        instances = _instances(self.layer, self.state, self.values)
        for key, begun in self.started.items():
            if key in instances:
                instances[key] = replace(instances[key], started=True)
            elif begun.effect.operations_in(self.layer) and begun.source in self.values:
                instances[key] = begun
        for obj in self.state.permanents:
            for effect in obj.statics:
                if effect.operations_in(self.layer) and (obj.id, effect.id) not in instances:
                    self.ended(_Instance(effect.id, effect, obj.id, obj.timestamp, (obj.timestamp, 0, 0)))
        defining = [k for k, i in instances.items() if i.effect.characteristic_defining]
        others = [k for k in instances if k not in defining]
        self.group(instances, defining, StepKind.CHARACTERISTIC_DEFINING, lambda op: True)
        if self.layer is Layer.POWER_TOUGHNESS:
            self.counters()
            if self.edition.switch_last:
                self.group(instances, others, None, lambda op: op is not Operation.SWITCH_POWER_TOUGHNESS)
                self.group(instances, others, StepKind.SWITCH_LAST, lambda op: op is Operation.SWITCH_POWER_TOUGHNESS)
                return
        self.group(instances, others, None, lambda op: True)

    def counters(self) -> None:
        """+X/+Y and -X/-Y counters, after characteristic-defining abilities (418.5a)."""
        touched = []
        for obj in self.state.objects:
            if obj.id not in self.values or not any(power_toughness_counter(name) for name in obj.counters):
                continue
            seen = self.values[obj.id]
            if not seen.is_creature:
                continue
            bonus = counter_modifier(obj)
            self.values[obj.id] = replace(
                seen,
                power=(seen.power or 0) + bonus[0],
                toughness=(seen.toughness or 0) + bonus[1],
                applied=seen.applied + (COUNTERS,),
            )
            touched.append(obj.id)
        if touched:
            self.steps.append(
                Step(
                    COUNTERS,
                    StepKind.COUNTERS,
                    "marqueurs : après les capacités de définition de caractéristique, avant les autres effets "
                    f"(ordre de 418.5a de 2004 ; édition suivie : {self.edition.name})",
                    ("418.5a", "200.10"),
                    tuple(touched),
                )
            )

    def group(
        self,
        instances: dict[tuple, _Instance],
        keys: list[tuple],
        kind: StepKind | None,
        keep: Callable[[Operation], bool],
    ) -> None:
        """Apply the parts ``keep`` selects of the effects ``keys``, in the
        order of 418.5c–g."""

        def operations(key):
            current = _current(key, instances[key], self.values)
            if current is None:
                return current, ()
            return current, tuple((op, v) for op, v in current.effect.operations_in(self.layer) if keep(op))

        remaining = [key for key in keys if operations(key)[1]]
        waited: dict[tuple, set[tuple]] = {}
        while remaining:
            spend(CALLS_PER_READ)
            alive = []
            for key in remaining:
                current, ops = operations(key)
                if current is None or not ops:
                    self.ended(instances[key])
                else:
                    alive.append(key)
            if not alive:
                return
            graph = dependencies(alive, instances, self.layer, self.state, self.values)
            reach = _closure(graph)
            free = [a for a in alive if all(a in reach[b] for b in graph[a])]
            chosen = min(free, key=lambda key: instances[key].order)
            for key in alive:
                waited.setdefault(key, set()).update(graph[key])
            waiting = [
                k for k in alive if k != chosen and instances[k].order < instances[chosen].order and chosen in reach[k]
            ]
            current, ops = operations(chosen)
            self.apply(current, ops, kind, graph[chosen], waited[chosen] - graph[chosen], waiting, instances)
            if current.source:
                self.started[chosen] = replace(current, started=True)
            remaining = [key for key in alive if key != chosen]

    def ended(self, instance: _Instance) -> None:
        self.steps.append(
            Step(
                instance.id,
                StepKind.ENDED,
                f"n'existe plus : {instance.source} n'a plus cette capacité",
                ("418.4b",),
                timestamp=instance.timestamp,
                text=instance.effect.text,
                source=instance.source,
            )
        )

    def apply(
        self,
        instance: _Instance,
        ops,
        kind: StepKind | None,
        loop: set,
        waited: set,
        waiting: list,
        instances: dict[tuple, _Instance],
    ) -> None:
        before = self.values
        self.values, targets = _apply(instance, ops, self.state, self.values)
        stamp, rules = _timestamp_reason(instance)
        depends: tuple[str, ...] = ()
        if loop:
            depends = _ids(instances, loop)
            reason = f"boucle de dépendances avec {', '.join(depends)} : ordre du {stamp}"
            rules, step_kind = ("418.5c", "418.5d", *rules[1:]), StepKind.LOOP
        elif waited:
            depends = _ids(instances, waited)
            reason = f"dépend de {', '.join(depends)} : appliqué après ({stamp})"
            rules, step_kind = ("418.5c", "418.5d", *rules[1:]), StepKind.DEPENDENCY
        elif waiting:
            reason = f"{', '.join(_ids(instances, waiting))} en dépend : appliqué avant, malgré son {stamp}"
            rules, step_kind = ("418.5c", "418.5d", *rules[1:]), StepKind.DEPENDED_ON
        else:
            reason, step_kind = f"ordre du {stamp}", StepKind.TIMESTAMP
        if kind is StepKind.CHARACTERISTIC_DEFINING:
            reason = "capacité de définition de caractéristique, appliquée en premier ; " + reason
            rules, step_kind = ("418.5a", *rules), kind
        elif kind is StepKind.SWITCH_LAST:
            card, _ = self.edition.switch_ruling or ("", 0)
            reason = (
                "échange de la force et de l'endurance : toujours appliqué en dernier, après les "
                f"marqueurs et les autres effets (décision de la FAQ sur la carte {card} ; édition suivie : "
                f"{self.edition.name}) ; entre échanges, {reason}"
            )
            rules, step_kind = (self.edition.switch_rule, *rules), kind
        elif any(op is Operation.SWITCH_POWER_TOUGHNESS for op, _ in ops):
            reason = (
                f"échange de la force et de l'endurance, à son rang (édition suivie : {self.edition.name}) ; " + reason
            )
            rules = (self.edition.switch_rule, *rules)
        if _lost(instance, before):
            reason += (
                f" ; a commencé à s'appliquer dans une couche précédente : continue bien que "
                f"{instance.source} ait perdu la capacité ({instance.source} est toujours en jeu)"
            )
            rules += ("418.5b", "418.4b")
        note, note_rules = _parts_reason(instance.effect, self.layer)
        if note:
            reason += " ; " + note
            rules += note_rules
        counted = counting.describe(ops, self.state, before, instance.source, targets)
        if counted:
            reason += " ; " + counted
            rules += ("418.4a",)
        followed, followed_rules = _subtypes_followed(ops, targets, before, self.values)
        if followed:
            reason += " ; " + followed
            rules += followed_rules
        overrides = self.overrides(instance, ops, targets, before)
        if overrides:
            reason += f" ; prend le dessus sur {', '.join(overrides)}"
            rules += ("418.5h",)
        self.steps.append(
            Step(
                instance.id,
                step_kind,
                reason,
                tuple(dict.fromkeys(rules)),
                targets,
                instance.timestamp,
                depends,
                overrides,
                instance.effect.text,
                instance.source,
            )
        )

    def overrides(self, instance: _Instance, ops, targets, before) -> tuple[str, ...]:
        """The effects of this layer whose result ``instance`` replaced on
        one of its targets (418.5h), and note what it wrote."""
        found: list[str] = []
        for object_id in targets:
            old, new = before[object_id], self.values[object_id]
            for operation, value in ops:
                if operation is Operation.ADD_ABILITIES:
                    for ability in value:
                        self.granted.setdefault((object_id, fold(ability)), instance.id)
                elif operation in (Operation.REMOVE_ABILITIES, Operation.REMOVE_ALL_ABILITIES):
                    lost = {fold(a) for a in old.abilities} - {fold(a) for a in new.abilities}
                    found.extend(
                        self.granted.pop((object_id, ability))
                        for ability in lost
                        if (object_id, ability) in self.granted
                    )
                field, replaces = _writes(operation)
                if not field:
                    continue
                writers = self.writers.setdefault((object_id, field), [])
                if replaces:
                    if _replaced(field, _field(old, field), _field(new, field)):
                        found.extend(writer for writer in writers if writer != instance.id)
                    writers[:] = [instance.id]
                else:
                    writers.append(instance.id)
        return tuple(dict.fromkeys(found))


def _subtypes_followed(ops, targets, before, after) -> tuple[str, tuple[str, ...]]:
    """What the subtypes of ``targets`` did because they follow their card
    type, in French, and the rules that say so, or ``("", ())``: those of a
    type lost no longer exist, those of a type regained exist again (212.1b;
    « légende » is a creature type, 215.2); new subtypes of one type replace
    that type's only and leave the others (212.1b, 205.3b; a land's land
    types, 212.6e)."""
    notes: list[str] = []
    rules: list[str] = []
    set_words = {fold(word) for op, value in ops if op is Operation.SET_SUBTYPES for word in value}
    for object_id in targets:
        old, new = before[object_id], after[object_id]
        if old.card_types == new.card_types and (not set_words or old.linked_subtypes == new.linked_subtypes):
            continue
        for kind in kinds.OWNERS:
            had, has = kind in old.card_types, kind in new.card_types
            if had == has:
                continue
            both = [link for link in old.linked_subtypes if link[1] is kind and link in new.linked_subtypes]
            if not both:
                continue
            listed = kinds.words(both, kind)
            if had:
                notes.append(
                    f"{object_id} n'est plus {kinds.WITH_ARTICLE[kind]} : ses {kinds.KIND_LABELS[kind]} ({listed}) "
                    "n'existent plus tant que ce type est perdu"
                )
                legend = kind is CardType.CREATURE and any(fold(word) == fold(LEGEND) for word, _ in both)
                rules += ["212.1b", "205.3b", *(["215.2"] if legend else [])]
            else:
                notes.append(
                    f"{object_id} est de nouveau {kinds.WITH_ARTICLE[kind]} : ses {kinds.KIND_LABELS[kind]} "
                    f"({listed}) existent de nouveau"
                )
                rules += ["212.1b"]
        if not set_words:
            continue
        replaced = [link for link in new.linked_subtypes if fold(link[0]) in set_words]
        owners = {owner for _, owner in replaced}
        present = {fold(word) for word in new.subtypes}
        kept = [
            link
            for link in old.linked_subtypes
            if link[1] is not None
            and link[1] not in owners
            and fold(link[0]) in set(map(fold, old.subtypes))
            and fold(link[0]) in present
        ]
        ordered = [kind for kind in kinds.OWNERS if kind in owners]
        if not ordered or not kept:
            continue
        new_kinds = " et ".join(f"{kinds.KIND_LABELS[kind]} ({kinds.words(replaced, kind)})" for kind in ordered)
        old_kinds = " et ".join(kinds.KIND_LABELS[kind] for kind in ordered)
        kept_kinds = " et ".join(
            f"{kinds.KIND_LABELS[kind]} ({kinds.words(kept, kind)})"
            for kind in kinds.OWNERS
            if any(owner is kind for _, owner in kept)
        )
        notes.append(
            f"{object_id} : les nouveaux {new_kinds} ne remplacent que ses {old_kinds} ; ses {kept_kinds} restent"
        )
        rules += ["212.1b", "205.3b", *(["212.6e"] if CardType.LAND in owners else [])]
    return "; ".join(dict.fromkeys(notes)), tuple(dict.fromkeys(rules))


def _field(seen: Characteristics, field: str):
    if field == "power_toughness":
        return seen.power, seen.toughness
    return getattr(seen, field)


def _replaced(field: str, old, new) -> bool:
    """Whether writing ``new`` over ``old`` undid something: for a set of
    types or colours, one that lost a member (212.6e: land types set over a
    creature type keep the creature type); else a different value."""
    if field in ("power_toughness", "controller"):
        return old != new
    return bool({fold(str(value)) for value in old} - {fold(str(value)) for value in new})


def compute(state: GameState, edition: Edition | None = None) -> Layering:
    """Apply every continuous effect of ``state`` in layers, as ``edition``
    (default 2004) orders them. Implements 418.5a–i (2004). Returns a
    :class:`Layering` with the trace of each layer and the final
    characteristics of every existing object."""
    edition = edition or EDITIONS["2004"]
    values = {obj.id: printed(obj) for obj in state.permanents}
    start = dict(values)
    results = []
    started: dict[tuple, _Instance] = {}
    for layer in Layer:
        run = _LayerRun(layer, state, edition, values, started)
        run.run()
        values = run.values
        results.append(LayerResult(layer, tuple(run.steps), dict(values)))
    final: dict[str, Characteristics] = {}
    for obj in state.objects:
        if not obj.exists:
            continue
        if obj.id in values:
            seen = values[obj.id]
            if seen.is_creature:
                seen = replace(seen, power=seen.power or 0, toughness=seen.toughness or 0)
            else:
                seen = replace(seen, power=None, toughness=None)
            final[obj.id] = seen
        else:
            final[obj.id] = characteristics_of(obj)
    return Layering(edition, start, tuple(results), final)


def characteristics(state: GameState, edition: Edition | None = None) -> dict[str, Characteristics]:
    """The characteristics of every object that exists, by id: permanents
    after the continuous effects of ``edition`` (default 2004) in layers,
    other objects as :func:`rules_kb.checker.characteristics.characteristics_of`
    gives them (see :func:`compute`, which also keeps the trace)."""
    return dict(compute(state, edition).final)
