"""Scenario files written: a :class:`~rules_kb.checker.scenario.Scenario` as
the TOML text :func:`~rules_kb.checker.scenario.parse_scenario` reads.

The inverse of :mod:`rules_kb.checker.scenario`: for every scenario the
reader gives, ``parse_scenario(scenario_to_toml(s))`` is ``s`` again but for
what no file holds (the line of each table, the path it was read from).
The text itself is written by tomli-w; this module only says which keys
hold what:

- the keys in the order the format documents them (:data:`PERMANENT_KEYS`…),
  each left out when it holds its default (life 20, no counters, a permanent in
  play, a spell on the stack…); ids and timestamps are always written;
- the closed vocabularies (zones, card types, supertypes, colours) in
  their French terms, the first the reader accepts (:attr:`Term.label`);
- the ids the reader would give by itself (``"ours#1"`` for the first
  static ability of ``ours``, ``"effet-2"`` for the second ``[[effect]]``,
  ``"<effet>+1"`` for a static ability granted) are left out.

What the reader never gives cannot be written back as it is: an object
that ceased to exist (:class:`ValueError`), a player who lost, the
players inferred from the objects when the file names none (they are
written, as ``[[player]]`` tables), a player called like the words
« vous » or « adversaire », which a selector's ``controller`` and
``set_controller`` read as the ability's controller and the others, and
spells listed before permanents (the reader lists permanents first).
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

import tomli_w

from rules_kb.checker import vocabulary as vocab
from rules_kb.checker.effects import ContinuousEffect, Count, Operation, Scope, Selector, TextChange
from rules_kb.checker.scenario import Scenario
from rules_kb.checker.state import GameObject, Player
from rules_kb.core.vocabulary import CardType, Color, Supertype, Term, Zone

#: How ``affects`` names each scope of a static ability (the first form the reader accepts).
_SCOPE_WORDS = {Scope.SELF: "self", Scope.ENCHANTED: "enchanted", Scope.EQUIPPED: "equipped"}

#: What a TOML comment may not hold (tab and line breaks aside), and lone surrogates.
_COMMENT_UNSAFE_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


def scenario_to_toml(scenario: Scenario, comment: str = "") -> str:
    """The TOML text of ``scenario``, which :func:`parse_scenario` reads
    back as the same scenario (see the module docstring for what it
    leaves out). ``comment`` (French text, any number of lines) comes
    first, each line after ``# ``, then an empty line; characters a
    comment cannot hold become spaces.

    Raises :class:`ValueError` for a state no file describes (an object
    that ceased to exist) and for an effect whose operations TOML cannot
    keep in order: a value written as a table (a :class:`Count`,
    ``change_text``, ``copy_except``, ``add_statics``) comes after the
    plain values of its table, and the reader applies an effect's
    operations in the file's order (418.5a–b)."""
    document = scenario_document(scenario)
    text = tomli_w.dumps(document)
    _check_order(document, tomllib.loads(text))
    if not comment:
        return text
    lines = _COMMENT_UNSAFE_RE.sub(" ", comment).splitlines() or [""]
    return "".join(f"# {line}\n" for line in lines) + "\n" + text


def scenario_document(scenario: Scenario) -> dict[str, Any]:
    """``scenario`` as the TOML document's data: ``title``, ``edition``,
    ``active_player`` (when not the first player), then the arrays of
    tables ``player``, ``permanent``, ``spell``, ``effect``."""
    state = scenario.state
    document: dict[str, Any] = {}
    if scenario.title:
        document["title"] = scenario.title
    if scenario.edition:
        document["edition"] = scenario.edition
    first = state.players[0].name if state.players else ""
    if state.active_player and state.active_player != first:
        document["active_player"] = state.active_player
    if state.players:
        document["player"] = [_player(player) for player in state.players]
    for table in ("permanent", "spell"):
        found = [_object(obj) for obj in state.objects if obj.source == table]
        if found:
            document[table] = found
    if state.effects:
        document["effect"] = [_effect(effect, f"effet-{index}") for index, effect in enumerate(state.effects, 1)]
    return document


def _player(player: Player) -> dict[str, Any]:
    data: dict[str, Any] = {"name": player.name}
    if player.life != 20:
        data["life"] = player.life
    if player.poison:
        data["poison"] = player.poison
    if player.drew_from_empty_library:
        data["drew_from_empty_library"] = True
    return data


def _terms(kind: type[Term], members) -> list[str]:
    """The French terms of ``members`` (a set of ``kind``), in the enum's order."""
    return [member.label for member in kind if member in members]


def _object(obj: GameObject) -> dict[str, Any]:
    """A ``[[permanent]]`` or ``[[spell]]`` table (:data:`PERMANENT_KEYS`, :data:`SPELL_KEYS`)."""
    if obj.zone is None or not obj.exists:
        raise ValueError(f"object {obj.id!r} has ceased to exist: no scenario file describes it")
    spell = obj.source == "spell"
    data: dict[str, Any] = {"id": obj.id, "name": obj.name, "controller": obj.controller}
    if obj.owner != obj.controller:
        data["owner"] = obj.owner
    if obj.card_types or obj.power is not None or obj.toughness is not None:
        data["card_types"] = _terms(CardType, obj.card_types)
    for key, value in (("subtypes", list(obj.subtypes)), ("supertypes", _terms(Supertype, obj.supertypes)),
                       ("colors", _terms(Color, obj.colors)), ("mana_value", obj.mana_value)):  # fmt: skip
        if value:
            data[key] = value
    defined = CardType.CREATURE in obj.card_types and obj.zone in (Zone.BATTLEFIELD, Zone.STACK)
    for key, value in (("power", obj.power), ("toughness", obj.toughness)):
        if value is not None:
            data[key] = value
        elif defined:
            data[key] = "*"  # defined by a characteristic-defining ability (208.2)
    if obj.abilities:
        data["abilities"] = list(obj.abilities)
    if not spell:
        if obj.damage:
            data["damage"] = obj.damage
        if obj.counters:
            data["counters"] = dict(obj.counters)
        if obj.token:
            data["token"] = True
    if spell and obj.spell_copy:
        data["copy"] = True
    if obj.copy_of_card:
        data["copy_of_card"] = True
    if obj.zone is not (Zone.STACK if spell else Zone.BATTLEFIELD):
        data["zone"] = obj.zone.label
    if not spell:
        if obj.attached_to:
            data["attached_to"] = obj.attached_to
        if obj.enchant:
            data["enchant"] = _enchant(obj.enchant)
    data["timestamp"] = obj.timestamp
    if not spell:
        if obj.since is not None:
            data["since"] = obj.since
        if obj.tapped:
            data["tapped"] = True
        if obj.regeneration_shields:
            data["regeneration_shields"] = obj.regeneration_shields
        if obj.statics:
            data["static"] = [_effect(effect, f"{obj.id}#{number}") for number, effect in enumerate(obj.statics, 1)]
    return data


def _enchant(designations: tuple[str, ...]) -> list[str]:
    """ "Enchanter :" (212.4c) as the reader takes it: who controls the
    permanent (« que vous contrôlez ») ends the designation before it."""
    written: list[str] = []
    for designation in designations:
        if designation in vocab.CONTROL_WORDS and written:
            written[-1] += " " + designation
        else:
            written.append(designation)
    return written


def _effect(effect: ContinuousEffect, default_id: str) -> dict[str, Any]:
    """A ``[[permanent.static]]`` table (a static ability: its ``origin`` is
    set), a granted static ability, or an ``[[effect]]`` table; its id is
    left out when it is ``default_id``, the one the reader gives."""
    data: dict[str, Any] = {}
    if effect.id != default_id:
        data["id"] = effect.id
    if effect.text:
        data["text"] = effect.text
    affects = effect.affects
    if affects.scope is Scope.OBJECTS:
        data["timestamp"] = effect.timestamp
        data["affects"] = list(affects.ids)
    elif affects.scope is Scope.ALL:
        data["affects_all"] = _selector(affects.selector or Selector())
    else:
        data["affects"] = _SCOPE_WORDS[affects.scope]
    if effect.characteristic_defining:
        data["characteristic_defining"] = True
    data.update(_operations(effect.operations, effect.id))
    return data


def _operations(operations: tuple[tuple[Operation, object], ...], effect_id: str) -> dict[str, Any]:
    return {operation.value: _operation_value(operation, value, effect_id) for operation, value in operations}


def _operation_value(operation: Operation, value, effect_id: str):
    """One operation's value as the scenario format writes it (:meth:`_Reader.operations`)."""
    if isinstance(value, Count):
        return _count(value)
    if isinstance(value, TextChange):
        return {"from": _word(value.old), "to": _word(value.new)}
    if operation is Operation.COPY_EXCEPT:
        return _operations(value, effect_id)
    if operation is Operation.ADD_STATICS:
        return [_effect(granted, f"{effect_id}+{number}") for number, granted in enumerate(value, 1)]
    if operation in (Operation.SET_CARD_TYPES, Operation.ADD_CARD_TYPES):
        return _terms(CardType, value)
    if operation in (Operation.SET_SUPERTYPES, Operation.ADD_SUPERTYPES):
        return _terms(Supertype, value)
    if operation in (Operation.SET_COLORS, Operation.ADD_COLORS):
        return _terms(Color, value)
    if isinstance(value, tuple):
        return list(value)
    return value  # True, a player's name or YOU (« vous »), an object's id, MANA_VALUE


def _word(word: Color | str) -> str:
    return word.label if isinstance(word, Color) else word


def _selector(selector: Selector) -> dict[str, Any]:
    """``affects_all`` or a count's selector: its keys that restrict (:data:`SELECTOR_KEYS`)."""
    data: dict[str, Any] = {}
    for key, value in (
        ("card_types", _terms(CardType, selector.card_types)), ("colors", _terms(Color, selector.colors)),
        ("controller", selector.controller),  # YOU and OPPONENT are the words « vous », « adversaire »
        ("subtypes", list(selector.subtypes)), ("supertypes", _terms(Supertype, selector.supertypes)),
        ("not_card_types", _terms(CardType, selector.not_card_types)),
        ("not_supertypes", _terms(Supertype, selector.not_supertypes)),
        ("not_subtypes", list(selector.not_subtypes)), ("not_colors", _terms(Color, selector.not_colors)),
        ("other", selector.other), ("shares_subtype", selector.shares_subtype),
    ):  # fmt: skip
        if value:
            data[key] = value
    return data


def _count(count: Count) -> dict[str, Any]:
    """``{ count = { …, zone }, each = [1, 1], plus = [0, 0] }`` (defaults left out)."""
    counted = _selector(count.selector)
    if count.zone is not Zone.BATTLEFIELD:
        counted["zone"] = count.zone.label
    data: dict[str, Any] = {"count": counted}
    if count.each != (1, 1):
        data["each"] = list(count.each)
    if count.plus != (0, 0):
        data["plus"] = list(count.plus)
    return data


def _check_order(document: dict[str, Any], written: dict[str, Any]) -> None:
    """Raise :class:`ValueError` when an effect's operations are not in the
    written text in the order of ``document`` (see :func:`scenario_to_toml`)."""
    tables = [*document.get("effect", ()), *(s for obj in document.get("permanent", ()) for s in obj.get("static", ()))]
    read = [*written.get("effect", ()), *(s for obj in written.get("permanent", ()) for s in obj.get("static", ()))]
    for wanted, found in zip(tables, read):
        for granted, granted_found in zip(wanted.get("add_statics", ()), found.get("add_statics", ())):
            _check_keys(granted, granted_found)
        _check_keys(wanted, found)


def _check_keys(wanted: dict[str, Any], found: dict[str, Any]) -> None:
    operations = [key for key in wanted if key in _OPERATION_KEYS and key != Operation.COPY_EXCEPT.value]
    if operations != [key for key in found if key in operations]:
        raise ValueError(
            f"effect {wanted.get('id', '')!r}: TOML would write its operations {', '.join(operations)} in another "
            "order (a table comes after the plain values); list the operations written as tables last"
        )


#: The operation keys; ``copy_except`` is left out of the order (the reader puts it right after ``copy_of``, 503.3).
_OPERATION_KEYS = frozenset(operation.value for operation in Operation)
