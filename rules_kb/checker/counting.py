"""Which permanents a selector matches, and the values that vary with them.

An ``affects_all`` selector (418.4a) and a :class:`~rules_kb.checker.effects.Count`
("+1/+1 pour chaque autre créature", a characteristic-defining ability
that counts cards in a hand, 208.2) are read against the characteristics
of the moment, in the layer being applied: :mod:`rules_kb.checker.layers`
calls :func:`resolve` each time it applies an operation, so a count is
recomputed at each check of the state-based effects (420.3, 2004).
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_kb.checker.characteristics import Characteristics, characteristics_of, folded_set
from rules_kb.checker.effects import OPPONENT, YOU, Count, Operation, Selector
from rules_kb.checker.state import GameState
from rules_kb.core.vocabulary import Zone


def selected(
    selector: Selector,
    object_id: str,
    seen: Characteristics,
    reference: str,
    reference_seen: Characteristics | None,
    you: str,
) -> bool:
    """Whether the object ``object_id`` with characteristics ``seen`` matches
    ``selector``. ``reference`` is the object ``other`` excludes and
    ``shares_subtype`` compares with (``reference_seen``: its
    characteristics, None when it has none); ``you`` the player
    :data:`~rules_kb.checker.effects.YOU` names. Implements the "each …"
    sets of 418.4a (2004)."""
    if selector.other and object_id == reference:
        return False
    if selector.card_types and not selector.card_types & seen.card_types:
        return False
    if selector.colors and not selector.colors & seen.colors:
        return False
    if selector.supertypes and not selector.supertypes & seen.supertypes:
        return False
    if selector.subtypes and folded_set(seen.subtypes).isdisjoint(folded_set(selector.subtypes)):
        return False
    if selector.not_card_types & seen.card_types or selector.not_supertypes & seen.supertypes:
        return False
    if selector.not_colors & seen.colors or not folded_set(seen.subtypes).isdisjoint(folded_set(selector.not_subtypes)):
        return False
    if selector.shares_subtype and (
        reference_seen is None or folded_set(reference_seen.subtypes).isdisjoint(folded_set(seen.subtypes))
    ):
        return False
    if selector.controller == YOU:
        return seen.controller == you
    if selector.controller == OPPONENT:
        return seen.controller != you
    if selector.controller:
        return seen.controller == selector.controller
    return True


def may_select_differently(selector: Selector, before: Characteristics, after: Characteristics) -> bool:
    """Whether :func:`selected` may answer differently for an object seen as
    ``before`` then as ``after`` (same object, same reference): False when
    neither what it reads changed, nor a subtype it names (an effect that
    adds « Gobelin » does not change who « Les Zombies » select). A quick
    filter for the dependency detection of 418.5c (2004)."""
    if before is after:
        return False
    if (
        before.card_types != after.card_types
        or before.colors != after.colors  # what it reads besides subtypes
        or before.supertypes != after.supertypes
        or before.controller != after.controller
    ):
        return True
    if before.subtypes == after.subtypes:
        return False
    if selector.shares_subtype:
        return True
    changed = folded_set(before.subtypes) ^ folded_set(after.subtypes)
    return not (
        changed.isdisjoint(folded_set(selector.subtypes)) and changed.isdisjoint(folded_set(selector.not_subtypes))
    )


def controller_of(object_id: str, state: GameState, values: Mapping[str, Characteristics]) -> str:
    """The current controller of ``object_id`` (``""`` for none)."""
    if object_id in values:
        return values[object_id].controller
    obj = state.object(object_id)
    return obj.controller if obj else ""


def count(value: Count, state: GameState, values: Mapping[str, Characteristics], source: str, target: str) -> int:
    """How many objects of ``value.zone`` its selector matches now, for the
    effect of ``source`` modifying ``target`` (the reference of ``other``
    and ``shares_subtype``); permanents are read with their current
    characteristics ``values``, cards in other zones as printed."""
    you = controller_of(source, state, values)
    found = 0
    for obj in state.objects:
        if not obj.exists or obj.zone is not value.zone:
            continue
        seen = values.get(obj.id) if value.zone is Zone.BATTLEFIELD else characteristics_of(obj)
        if seen is not None and selected(value.selector, obj.id, seen, target, values.get(target), you):
            found += 1
    return found


def resolve(
    operation: Operation, value, state: GameState, values: Mapping[str, Characteristics], source: str, target: str
):
    """The value ``operation`` applies to ``target`` now: a
    :class:`~rules_kb.checker.effects.Count` becomes a ``(power, toughness)``
    pair, ``set_controller = YOU`` the controller of ``source`` (212.4i);
    any other value is returned as is."""
    if isinstance(value, Count):
        number = count(value, state, values, source, target)
        return number * value.each[0] + value.plus[0], number * value.each[1] + value.plus[1]
    if operation is Operation.SET_CONTROLLER and value == YOU:
        return controller_of(source, state, values) or value
    return value


def describe(
    operations, state: GameState, values: Mapping[str, Characteristics], source: str, targets: tuple[str, ...]
) -> str:
    """What the values that vary among ``operations`` counted now, for each
    of ``targets``, in French (``"valeur variable, comptée maintenant : g2
    2 (+2/+2)"``), or ``""`` when none varies."""
    parts = []
    for operation, value in operations:
        if not isinstance(value, Count):
            continue
        for target in targets:
            number = count(value, state, values, source, target)
            power, toughness = resolve(operation, value, state, values, source, target)
            shown = (
                f"{power:+d}/{toughness:+d}"
                if operation is Operation.MODIFY_POWER_TOUGHNESS
                else f"{power}/{toughness}"
            )
            parts.append(f"{target} {number} ({shown})")
    return "valeur variable, comptée maintenant : " + ", ".join(parts) if parts else ""
