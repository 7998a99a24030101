"""Boards built by tapping: the forms of the ``/verifier`` page as a checker
:class:`~rules_kb.checker.scenario.Scenario`, and a scenario back as forms.

A :class:`Board` is what the forms hold, as typed (numbers are strings, so
that a wrong value comes back to its field with its error): players,
permanents and continuous effects. Each effect is one item of
:data:`CATALOGUE`, in French: « gagne +N/+N », « devient N/N », « devient
une créature N/N », « perd toutes ses capacités », « change de couleur »,
« change de type », « en prend le contrôle »… and cards whose static
ability judges ask about (Humilité, Opalescence, Lune de sang, Croisade,
Marche des machines). An effect is either resolved (a spell or an ability:
it applies to the permanent chosen, fixed when it began, 418.3b, with its
own timestamp, 418.5g), or a static ability of a permanent of the board
(418.4: to itself, what it enchants or equips, or a group that is looked at
again each time, 418.4a; the permanent's timestamp, 418.5f); a card of the
catalogue with no source is put in play as a permanent of its own. Every
row gets its timestamp by order of entry (418.5e): :func:`next_timestamp`.

- :func:`read_form`: the submitted form fields → :class:`Board` (never fails
  but for too many rows);
- :func:`form_fields`: the inverse, a :class:`Board` → form fields;
- :func:`board_scenario`: :class:`Board` → :class:`Scenario`, through the
  scenario reader (:func:`~rules_kb.checker.scenario.parse_scenario`), so a
  mistake gets the reader's French message, placed on the form's field
  (:class:`BoardError`);
- :func:`board_from_scenario`: a scenario (a bundled example, a file) →
  :class:`Board`, and what the forms cannot describe (:class:`Reading`);
- :func:`add_player`, :func:`add_permanent`, :func:`add_effect` and the
  ``remove_*`` functions: the board's buttons.

The forms' field names are ``title``, ``edition`` and
``<section>-<n>-<field>`` (``permanent-0-power``), sections
:data:`SECTIONS`, fields :data:`PLAYER_FIELDS`, :data:`PERMANENT_FIELDS`,
:data:`EFFECT_FIELDS`; :data:`FIELD_LABELS` names them in French.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

import tomli_w

from rules_kb.checker.scenario import MAX_EFFECTS, MAX_OBJECTS, Scenario, ScenarioError, parse_scenario
from rules_kb.checker.scenario_writer import scenario_document
from rules_kb.core.text import fold
from rules_kb.core.vocabulary import AURA, CARD_TYPES_2004, EQUIPMENT, NON_PERMANENT_TYPES, Color, Supertype, Zone

#: The most players a board holds (a multiplayer game rarely has more than 8).
MAX_PLAYERS = 20

#: The sections of the form, in the order of the page.
SECTIONS = ("player", "permanent", "effect")

#: The fields of each row, as the form names them (``player-0-name``).
PLAYER_FIELDS = ("name", "life", "poison", "drew")
PERMANENT_FIELDS = (
    "ref", "name", "controller", "card_types", "power", "toughness", "damage", "subtypes", "supertypes", "colors",
    "mana_value", "plus_counters", "minus_counters", "counters", "abilities", "role", "attached_to", "enchant",
    "token", "copy", "tapped", "regeneration", "zone", "timestamp", "since",
)  # fmt: skip
EFFECT_FIELDS = (
    "ref", "kind", "source", "target", "power", "toughness", "color", "card_type", "subtype", "ability", "player",
    "old_word", "new_word", "controller", "text", "timestamp",
)  # fmt: skip
#: The fields that hold several values (check boxes).
MULTIPLE = frozenset({"card_types", "supertypes", "colors"})
#: The fields that are check boxes of their own (sent only when ticked).
FLAGS = frozenset({"drew", "token", "copy", "tapped"})

#: The French name of each field, for the page's labels and the errors.
FIELD_LABELS = {
    "title": "titre",
    "edition": "édition",
    "player": {"name": "nom", "life": "points de vie", "poison": "marqueurs poison",
               "drew": "a pioché dans une bibliothèque vide"},
    "permanent": {
        "ref": "nom", "name": "nom", "controller": "contrôleur", "card_types": "types", "power": "force",
        "toughness": "endurance", "damage": "blessures", "subtypes": "sous-types", "supertypes": "sur-types",
        "colors": "couleurs", "mana_value": "coût converti de mana", "plus_counters": "marqueurs +1/+1",
        "minus_counters": "marqueurs -1/-1", "counters": "autres marqueurs", "abilities": "capacités",
        "role": "aura ou équipement", "attached_to": "attaché à", "enchant": "« Enchanter : »", "token": "jeton",
        "copy": "copie d'une carte", "tapped": "engagé", "regeneration": "régénérations prêtes", "zone": "zone",
        "timestamp": "horodatage", "since": "en jeu tel quel depuis",
    },
    "effect": {
        "ref": "effet", "kind": "effet", "source": "source", "target": "s'applique à", "power": "force",
        "toughness": "endurance", "color": "couleur", "card_type": "type de carte", "subtype": "sous-type",
        "ability": "capacité", "player": "joueur", "old_word": "mot remplacé", "new_word": "remplacé par",
        "controller": "contrôleur de la carte", "text": "texte", "timestamp": "horodatage",
    },
}  # fmt: skip

#: The values of the closed vocabularies, as the forms send them: the French terms.
CARD_TYPE_VALUES = tuple(card_type.label for card_type in CARD_TYPES_2004 if card_type not in NON_PERMANENT_TYPES)
SUPERTYPE_VALUES = tuple(supertype.label for supertype in Supertype)
COLOR_VALUES = tuple(color.label for color in Color)
#: The colour of ``change de couleur`` that makes it colourless.
COLORLESS = "incolore"
#: The zones a permanent of the board may be in (``""``: in play).
ZONE_VALUES = tuple(zone.label for zone in Zone if zone not in (Zone.BATTLEFIELD, Zone.STACK))
#: What a permanent's ``role`` may be: an aura (212.4c) or an equipment (212.2g).
ROLES = {"": "ni l'un ni l'autre", "aura": "aura (enchantement local)", "equipment": "équipement"}
#: An option of ``attached_to`` that names a player (an aura may enchant one): this prefix, then the name.
PLAYER_PREFIX = "@"
#: The value of ``player`` in a static ability of « en prend le contrôle »: the controller of its permanent (212.4i).
YOU = "vous"
#: Default names of the players added, in order.
PLAYER_NAMES = ("Alice", "Bob", "Chloé", "David", "Emma", "Farid", "Gaëlle", "Hugo")


# -- the rows -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player as the form holds it: ``life`` and ``poison`` as typed (``""``: the default)."""

    name: str = ""
    life: str = "20"
    poison: str = "0"
    drew: bool = False


@dataclass(frozen=True, slots=True)
class PermanentRow:
    """A permanent as the form holds it. ``ref`` names it in the form's lists
    (``attached_to``, an effect's ``source`` and ``target``) and is its id in
    the scenario unless it is one the form made up (``p3``, see
    :func:`scenario_id`). ``card_types``, ``supertypes``, ``colors``: French
    terms; ``subtypes`` and ``enchant``: comma-separated; ``counters``: other
    counters than +1/+1 and -1/-1, « nom : nombre » comma-separated
    (« +1/+0 : 1, temps : 3 »); ``since``: when it has been in play as it
    is (the legend and world rules, 420.5e, 420.5i); ``abilities``: one
    a line (a line with no full stop may list keywords with commas);
    ``role``: a key of :data:`ROLES`; ``attached_to``: a ``ref``, or
    :data:`PLAYER_PREFIX` and a player's name; ``zone``: ``""`` (in play)
    or one of :data:`ZONE_VALUES`. Numbers as typed."""

    ref: str = ""
    name: str = ""
    controller: str = ""
    card_types: tuple[str, ...] = ()
    power: str = ""
    toughness: str = ""
    damage: str = ""
    subtypes: str = ""
    supertypes: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    mana_value: str = ""
    plus_counters: str = ""
    minus_counters: str = ""
    counters: str = ""
    abilities: str = ""
    role: str = ""
    attached_to: str = ""
    enchant: str = ""
    token: bool = False
    copy: bool = False
    tapped: bool = False
    regeneration: str = ""
    zone: str = ""
    timestamp: str = ""
    since: str = ""


@dataclass(frozen=True, slots=True)
class EffectRow:
    """A continuous effect as the form holds it: ``kind``, a key of
    :data:`CATALOGUE`; ``source``, ``""`` for a resolved spell or ability
    (for a card of the catalogue: the card put in play) or the ``ref`` of
    the permanent whose static ability it is; ``target``, the ``ref`` of a
    permanent (a resolved effect) or a key of :data:`TARGETS` (a static
    ability); the parameters its kind reads (:attr:`Kind.params`);
    ``text``, its wording (``""``: written from the rest, :func:`effect_text`);
    ``timestamp`` as typed; ``ref`` names the permanent a card puts in play."""

    ref: str = ""
    kind: str = ""
    source: str = ""
    target: str = ""
    power: str = ""
    toughness: str = ""
    color: str = ""
    card_type: str = ""
    subtype: str = ""
    ability: str = ""
    player: str = ""
    old_word: str = ""
    new_word: str = ""
    controller: str = ""
    text: str = ""
    timestamp: str = ""


@dataclass(frozen=True, slots=True)
class Board:
    """What the forms hold: ``title``, ``edition`` (``""``: the checker's
    default, else a key of :data:`rules_kb.checker.editions.EDITIONS`) and
    the rows, in the order of the page."""

    title: str = ""
    edition: str = ""
    players: tuple[PlayerRow, ...] = ()
    permanents: tuple[PermanentRow, ...] = ()
    effects: tuple[EffectRow, ...] = ()


# -- the catalogue --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Target:
    """What a static ability applies to (418.4a): ``scope`` (``"self"``,
    ``"enchanted"``, ``"equipped"``) or ``selector`` (an ``affects_all``
    table, looked at again each time); ``phrase``, the French words of an
    ability's text; ``plural``, whether they take a plural verb."""

    key: str
    label: str
    phrase: str
    plural: bool = True
    scope: str = ""
    selector: dict[str, Any] = field(default_factory=dict)


#: The targets of a static ability, in the order of the page.
TARGETS = {
    target.key: target
    for target in (
        Target("self", "le permanent lui-même", "", plural=False, scope="self"),
        Target("enchanted", "la créature (le permanent) enchantée", "la créature enchantée", False, "enchanted"),
        Target("equipped", "la créature équipée", "la créature équipée", False, "equipped"),
        Target("creatures", "toutes les créatures", "toutes les créatures", selector={"card_types": ["créature"]}),
        Target("your-creatures", "les créatures que vous contrôlez", "les créatures que vous contrôlez",
               selector={"card_types": ["créature"], "controller": YOU}),
        Target("their-creatures", "les créatures de vos adversaires", "les créatures de vos adversaires",
               selector={"card_types": ["créature"], "controller": "adversaire"}),
        Target("other-creatures", "les autres créatures", "les autres créatures",
               selector={"card_types": ["créature"], "other": True}),
        Target("lands", "tous les terrains", "tous les terrains", selector={"card_types": ["terrain"]}),
        Target("nonbasic-lands", "les terrains non-de base", "les terrains non-de base",
               selector={"card_types": ["terrain"], "not_supertypes": ["de base"]}),
        Target("artifacts", "tous les artefacts", "tous les artefacts", selector={"card_types": ["artefact"]}),
        Target("enchantments", "tous les enchantements", "tous les enchantements",
               selector={"card_types": ["enchantement"]}),
        Target("permanents", "tous les permanents", "tous les permanents", selector={}),
    )
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Card:
    """A card of the catalogue: the permanent it is in play (name, card
    types, colours, converted mana cost) and its static ability (``text``,
    what it applies to, ``operations`` as a scenario writes them)."""

    name: str
    card_types: tuple[str, ...]
    colors: tuple[str, ...]
    mana_value: int
    text: str
    affects_all: dict[str, Any]
    operations: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Kind:
    """One item of :data:`CATALOGUE`: ``key`` (the form's value), ``label``
    (French, the list's wording), ``params`` (the fields of :class:`EffectRow`
    it reads), and either ``card`` (a card whose static ability it is) or
    ``write``: its parameters → the operations, as a scenario writes them
    (raises :class:`ValueError` with a French message for a parameter
    missing), with ``sentence``: its parameters, the words of what it
    applies to and whether they are plural → its French wording, without
    capital or full stop (« toutes les créatures gagnent +1/+1 »)."""

    key: str
    label: str
    params: tuple[str, ...] = ()
    card: Card | None = None
    write: Callable[[EffectRow], dict[str, Any]] | None = None
    sentence: Callable[[EffectRow, str, bool], str] | None = None


def _number(value: str, what: str, default: int | None = None) -> int | str:
    """``value`` as an integer; ``""`` is ``default`` or a French :class:`ValueError`;
    anything else stays as typed, for the reader to refuse in its words."""
    value = value.strip()
    if not value:
        if default is None:
            raise ValueError(f"indiquez {what}.")
        return default
    try:
        return int(value)
    except ValueError:
        return value


def _pair(row: EffectRow, default: int | None = None) -> list:
    return [_number(row.power, "la force", default), _number(row.toughness, "l'endurance", default)]


def _required(value: str, what: str) -> str:
    if not value.strip():
        raise ValueError(f"indiquez {what}.")
    return value.strip()


def _signed(row: EffectRow) -> str:
    power, toughness = (_number(value, "", 0) for value in (row.power, row.toughness))
    if isinstance(power, int) and isinstance(toughness, int):
        return f"{power:+d}/{toughness:+d}"
    return f"{row.power}/{row.toughness}"


def _pt(row: EffectRow) -> str:
    return f"{row.power.strip()}/{row.toughness.strip()}"


def _types(row: EffectRow, prefix: str) -> dict[str, Any]:
    operations: dict[str, Any] = {}
    if row.card_type.strip():
        operations[f"{prefix}_card_types"] = [row.card_type.strip()]
    if row.subtype.strip():
        operations[f"{prefix}_subtypes"] = _split(row.subtype)
    if not operations:
        raise ValueError("indiquez un type de carte ou un sous-type.")
    return operations


def _type_words(row: EffectRow) -> str:
    return ", ".join([row.card_type.strip()] * bool(row.card_type.strip()) + _split(row.subtype))


def _color_words(row: EffectRow, plural: bool) -> str:
    color = next((member for member in Color if member.label == row.color.strip()), None)
    if color is None:
        return (row.color.strip() or COLORLESS) + ("s" if plural else "")
    return color.inflections[2 if plural else 0]


def of(phrase: str) -> str:
    """« de » and ``phrase``, contracted as French does: « d'Ours », « des créatures », « du permanent »."""
    if phrase.startswith("les "):
        return "des " + phrase[4:]
    if phrase.startswith("le "):
        return "du " + phrase[3:]
    if phrase[:1].lower() in "aàâeéèêiîoôuûhy":
        return "d'" + phrase
    return "de " + phrase


def _agreed(singular: str, plural: str) -> Callable[[str, bool], str]:
    """The start of a sentence: ``phrase`` and its verb, singular or plural."""
    return lambda phrase, many: f"{phrase} {plural if many else singular}"


def _control(row: EffectRow, phrase: str, many: bool) -> str:
    player = row.player.strip()
    return f"vous contrôlez {phrase}" if player == YOU else f"{player} acquiert le contrôle {of(phrase)}"


#: The continuous effects the forms offer, in the order of the list; the
#: cards come after the effects.
CATALOGUE = {
    kind.key: kind
    for kind in (
        Kind("bonus", "gagne +N/+N (ou -N/-N)", ("power", "toughness"),
             write=lambda row: {"modify_power_toughness": _pair(row, 0)},
             sentence=lambda row, phrase, many: f"{_agreed('gagne', 'gagnent')(phrase, many)} {_signed(row)}"),
        Kind("set-pt", "devient N/N (force et endurance fixées)", ("power", "toughness"),
             write=lambda row: {"set_power_toughness": _pair(row)},
             sentence=lambda row, phrase, many: f"{_agreed('est', 'sont')(phrase, many)} {_pt(row)}"),
        Kind("animate", "devient une créature N/N", ("power", "toughness", "subtype"),
             write=lambda row: {"add_card_types": ["créature"],
                                **({"add_subtypes": _split(row.subtype)} if row.subtype.strip() else {}),
                                "set_power_toughness": _pair(row)},
             sentence=lambda row, phrase, many: (
                 _agreed("devient une créature", "deviennent des créatures")(phrase, many) + f" {_pt(row)}"
                 + (f" ({', '.join(_split(row.subtype))})" if row.subtype.strip() else ""))),
        Kind("lose-all", "perd toutes ses capacités", (),
             write=lambda row: {"remove_all_abilities": True},
             sentence=lambda row, phrase, many: _agreed("perd toutes ses capacités",
                                                        "perdent toutes leurs capacités")(phrase, many)),
        Kind("gain", "acquiert une capacité (vol, indestructible…)", ("ability",),
             write=lambda row: {"add_abilities": [_required(row.ability, "la capacité")]},
             sentence=lambda row, phrase, many: (
                 f"{_agreed('acquiert', 'acquièrent')(phrase, many)} {row.ability.strip()}")),
        Kind("lose", "perd une capacité", ("ability",),
             write=lambda row: {"remove_abilities": [_required(row.ability, "la capacité")]},
             sentence=lambda row, phrase, many: f"{_agreed('perd', 'perdent')(phrase, many)} {row.ability.strip()}"),
        Kind("color", "change de couleur", ("color",),
             write=lambda row: {"set_colors": [] if row.color.strip() in ("", COLORLESS) else [row.color.strip()]},
             sentence=lambda row, phrase, many: (
                 f"{_agreed('devient', 'deviennent')(phrase, many)} {_color_words(row, many)}")),
        Kind("type", "change de type (devient un …)", ("card_type", "subtype"),
             write=lambda row: _types(row, "set"),
             sentence=lambda row, phrase, many: (
                 f"{_agreed('est', 'sont')(phrase, many)} désormais du type {_type_words(row)}")),
        Kind("add-type", "devient aussi un … (type en plus)", ("card_type", "subtype"),
             write=lambda row: _types(row, "add"),
             sentence=lambda row, phrase, many: (
                 f"{_agreed('est', 'sont')(phrase, many)} aussi du type {_type_words(row)}")),
        Kind("control", "en prend le contrôle", ("player",),
             write=lambda row: {"set_controller": _required(row.player, "le joueur qui en prend le contrôle")},
             sentence=_control),
        Kind("switch", "échange sa force et son endurance", (),
             write=lambda row: {"switch_power_toughness": True},
             sentence=lambda row, phrase, many: f"échangez la force et l'endurance {of(phrase)}"),
        Kind("text", "change un mot de son texte (couleur ou type)", ("old_word", "new_word"),
             write=lambda row: {"change_text": {"from": _required(row.old_word, "le mot remplacé"),
                                                "to": _required(row.new_word, "le mot qui le remplace")}},
             sentence=lambda row, phrase, many: (
                 f"dans le texte {of(phrase)}, « {row.old_word.strip()} » devient « {row.new_word.strip()} »")),
        Kind("humility", "Humilité : toutes les créatures perdent leurs capacités et sont 1/1", ("controller",),
             card=Card("Humilité", ("enchantement",), ("blanc",), 4,
                       "Toutes les créatures perdent toutes leurs capacités et sont 1/1.",
                       {"card_types": ["créature"]}, {"remove_all_abilities": True, "set_power_toughness": [1, 1]})),
        Kind("opalescence", "Opalescence : chaque autre enchantement non-Aura est une créature", ("controller",),
             card=Card("Opalescence", ("enchantement",), ("blanc",), 4,
                       "Chaque autre enchantement non-Aura est une créature en plus de ses autres types et a une "
                       "force et une endurance égales chacune à son coût converti de mana.",
                       {"card_types": ["enchantement"], "not_subtypes": ["local"], "other": True},
                       {"add_card_types": ["créature"], "set_power_toughness": "mana_value"})),
        Kind("blood-moon", "Lune de sang : les terrains non-de base sont des montagnes", ("controller",),
             card=Card("Lune de sang", ("enchantement",), ("rouge",), 3, "Les terrains non-de base sont des montagnes.",
                       {"card_types": ["terrain"], "not_supertypes": ["de base"]}, {"set_subtypes": ["montagne"]})),
        Kind("crusade", "Croisade : les créatures blanches gagnent +1/+1", ("controller",),
             card=Card("Croisade", ("enchantement",), ("blanc",), 2, "Toutes les créatures blanches gagnent +1/+1.",
                       {"card_types": ["créature"], "colors": ["blanc"]}, {"modify_power_toughness": [1, 1]})),
        Kind("march", "Marche des machines : les artefacts non-créatures sont des créatures", ("controller",),
             card=Card("Marche des machines", ("enchantement",), ("bleu",), 4,
                       "Chaque artefact non-créature est une créature-artefact avec une force et une endurance "
                       "égales chacune à son coût converti de mana.",
                       {"card_types": ["artefact"], "not_card_types": ["créature"]},
                       {"add_card_types": ["créature"], "set_power_toughness": "mana_value"})),
    )
}  # fmt: skip


def _split(text: str) -> list[str]:
    """A comma- or semicolon-separated list, trimmed, without empty items."""
    return [part.strip() for part in re.split(r"[,;]", text) if part.strip()]


def split_abilities(text: str) -> list[str]:
    """The abilities of a permanent's field: one a line; a line without a
    full stop is a list of keywords, split at its commas (« vol,
    piétinement »)."""
    found = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        found.extend([line] if "." in line else _split(line))
    return found


# -- the form --------------------------------------------------------------------------------------

_FIELD_RE = re.compile(r"^(player|permanent|effect)-(\d{1,4})-([a-z_]+)$")
#: What a form value may not hold: control characters (but tab and line breaks) and lone surrogates.
_UNSAFE_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
_ROW_FIELDS = {"player": PLAYER_FIELDS, "permanent": PERMANENT_FIELDS, "effect": EFFECT_FIELDS}
_TRUE = frozenset({"on", "1", "true", "oui", "yes"})


class BoardError(ScenarioError):
    """The forms do not make a scenario. ``problems`` holds every mistake
    (this one first when there is one), each a :class:`BoardError` with
    ``field``, the form field at fault (``"permanent-1-power"``; ``""``:
    the board as a whole), ``place``, the row in French (« permanent n°2
    (Ours) »), and ``detail``, the French message (the scenario reader's
    for what it refuses)."""

    def __init__(self, message: str, field_name: str = "", place: str = "", label: str = "") -> None:
        super().__init__(message)
        self.field = field_name
        self.place = place
        where = ", ".join(part for part in (place, label) if part)
        text = f"{where[0].upper()}{where[1:]} : {message}" if where else message[0].upper() + message[1:]
        self.args = (text,)

    @classmethod
    def of(cls, problems: list[BoardError]) -> BoardError:
        """One error for all ``problems`` (at least one), in the order of the page."""
        if len(problems) == 1:
            return problems[0]
        error = cls(f"{len(problems)} erreurs.\n" + "\n".join(f"  – {problem}" for problem in problems))
        error.problems = tuple(problems)
        return error


def _clean(value: str) -> str:
    return _UNSAFE_RE.sub("", value)


def read_form(form: Mapping[str, Sequence[str] | str]) -> Board:
    """The :class:`Board` the submitted ``form`` holds: each field name to its
    values (a list, as :func:`urllib.parse.parse_qs` gives them, or one
    string). Rows are ordered by their number; unknown fields are ignored,
    and so are characters no text may hold. Raises :class:`BoardError` for
    more than :data:`MAX_PLAYERS` players, :data:`MAX_OBJECTS` permanents
    or :data:`MAX_EFFECTS` effects."""
    rows: dict[str, dict[int, dict[str, Any]]] = {section: {} for section in SECTIONS}
    for name, given in form.items():
        values = [_clean(value) for value in ([given] if isinstance(given, str) else list(given))]
        found = _FIELD_RE.match(name)
        if found is None or not values:
            continue
        section, number, key = found.group(1), int(found.group(2)), found.group(3)
        if key not in _ROW_FIELDS[section]:
            continue
        row = rows[section].setdefault(number, {})
        if key in MULTIPLE:
            row[key] = tuple(dict.fromkeys(value.strip() for value in values if value.strip()))
        elif key in FLAGS:
            row[key] = values[0].strip().lower() in _TRUE
        else:
            row[key] = values[0]
    for section, most in (("player", MAX_PLAYERS), ("permanent", MAX_OBJECTS), ("effect", MAX_EFFECTS)):
        if len(rows[section]) > most:
            raise BoardError(f"{len(rows[section])} lignes « {_SECTION_NAMES[section]} » ; au plus {most}.")
    players = tuple(PlayerRow(**rows["player"][number]) for number in sorted(rows["player"]))
    return Board(
        title=_first(form, "title"),
        edition=_first(form, "edition").strip(),
        players=players,
        permanents=tuple(PermanentRow(**rows["permanent"][number]) for number in sorted(rows["permanent"])),
        effects=tuple(EffectRow(**rows["effect"][number]) for number in sorted(rows["effect"])),
    )


def _first(form: Mapping[str, Sequence[str] | str], name: str) -> str:
    given = form.get(name, "")
    values = [given] if isinstance(given, str) else list(given)
    return _clean(values[0]) if values else ""


def field_name(section: str, index: int, key: str) -> str:
    """The form's name of a row's field: ``permanent-0-power``."""
    return f"{section}-{index}-{key}"


def form_fields(board: Board) -> dict[str, list[str]]:
    """``board`` as form fields (each name to its values), which
    :func:`read_form` reads back as ``board``: a check box is sent only when
    ticked, and a field that holds several values once per value."""
    form: dict[str, list[str]] = {"title": [board.title], "edition": [board.edition]}
    for section, rows in (("player", board.players), ("permanent", board.permanents), ("effect", board.effects)):
        for index, row in enumerate(rows):
            for item in fields(row):
                value = getattr(row, item.name)
                name = field_name(section, index, item.name)
                if item.name in MULTIPLE:
                    form[name] = list(value)
                elif item.name in FLAGS:
                    if value:
                        form[name] = ["on"]
                else:
                    form[name] = [value]
    return form


# -- the board's buttons ---------------------------------------------------------------------------


def new_board() -> Board:
    """The board a page starts from: two players and one permanent to fill."""
    return add_permanent(add_player(add_player(Board())))


def next_timestamp(board: Board) -> int:
    """The timestamp of the next row entered: one more than the latest (418.5e)."""
    stamps = [_integer(row.timestamp) for row in (*board.permanents, *board.effects)]
    return max([stamp for stamp in stamps if stamp is not None], default=0) + 1


def _integer(text: str) -> int | None:
    try:
        return int(text.strip())
    except ValueError:
        return None


def _new_ref(board: Board, prefix: str) -> str:
    taken = {row.ref for row in (*board.permanents, *board.effects)}
    number = len(board.permanents) + len(board.effects) + 1
    while f"{prefix}{number}" in taken:
        number += 1
    return f"{prefix}{number}"


def add_player(board: Board) -> Board:
    """``board`` with one more player, at 20 life, named from :data:`PLAYER_NAMES`."""
    taken = {player.name for player in board.players}
    names = [name for name in PLAYER_NAMES if name not in taken]
    name = names[0] if names else f"Joueur {len(board.players) + 1}"
    return replace(board, players=(*board.players, PlayerRow(name)))


def _first_player(board: Board) -> str:
    return next((player.name for player in board.players if player.name.strip()), "")


def add_permanent(board: Board) -> Board:
    """``board`` with one more permanent, controlled by the first player, the latest timestamp."""
    row = PermanentRow(ref=_new_ref(board, "p"), controller=_first_player(board), timestamp=str(next_timestamp(board)))
    return replace(board, permanents=(*board.permanents, row))


def add_effect(board: Board) -> Board:
    """``board`` with one more effect, the latest timestamp (418.5e, 418.5g)."""
    first = _first_player(board)
    row = EffectRow(ref=_new_ref(board, "e"), controller=first, player=first, timestamp=str(next_timestamp(board)))
    return replace(board, effects=(*board.effects, row))


def remove_player(board: Board, index: int) -> Board:
    """``board`` without its ``index``-th player (the same board for no such player)."""
    if not 0 <= index < len(board.players):
        return board
    return replace(board, players=board.players[:index] + board.players[index + 1 :])


def _forget(board: Board, ref: str) -> Board:
    """``board`` with nothing naming ``ref`` any more: attachments dropped,
    targets cleared, and the static abilities of that permanent removed
    with it (418.4b)."""
    if not ref:
        return board
    permanents = tuple(replace(row, attached_to="") if row.attached_to == ref else row for row in board.permanents)
    effects = tuple(replace(row, target="") if row.target == ref else row for row in board.effects if row.source != ref)
    return replace(board, permanents=permanents, effects=effects)


def remove_permanent(board: Board, index: int) -> Board:
    """``board`` without its ``index``-th permanent and its static abilities;
    what was attached to it or targeted it is left unattached, untargeted."""
    if not 0 <= index < len(board.permanents):
        return board
    ref = board.permanents[index].ref
    return _forget(replace(board, permanents=board.permanents[:index] + board.permanents[index + 1 :]), ref)


def remove_effect(board: Board, index: int) -> Board:
    """``board`` without its ``index``-th effect (a card put in play by it goes too)."""
    if not 0 <= index < len(board.effects):
        return board
    row = board.effects[index]
    smaller = replace(board, effects=board.effects[:index] + board.effects[index + 1 :])
    return _forget(smaller, row.ref) if _puts_card(row) else smaller


# -- board → scenario ------------------------------------------------------------------------------

_SECTION_NAMES = {"player": "joueurs", "permanent": "permanents", "effect": "effets"}
_AUTO_REF_RE = re.compile(r"^[pe]\d+$")


def _puts_card(row: EffectRow) -> bool:
    """Whether ``row`` puts a card of the catalogue in play (a card with no source)."""
    kind = CATALOGUE.get(row.kind.strip())
    return kind is not None and kind.card is not None and not row.source.strip()


def _player_blank(row: PlayerRow) -> bool:
    return not row.name.strip() and row.life.strip() in ("", "20") and row.poison.strip() in ("", "0") and not row.drew


def _permanent_blank(row: PermanentRow) -> bool:
    """A row left as added (a name, a type, a number or a box makes it count)."""
    kept = ("ref", "controller", "timestamp")
    return all(not getattr(row, item.name) for item in fields(row) if item.name not in kept)


def permanent_label(row: PermanentRow, index: int) -> str:
    """How the page's lists name a permanent row: its name, else « permanent n°N »."""
    return row.name.strip() or f"permanent n°{index + 1}"


def _place(section: str, index: int, name: str = "") -> str:
    words = {"player": "joueur", "permanent": "permanent", "effect": "effet"}[section]
    return f"{words} n°{index + 1}" + (f" ({name})" if name else "")


def scenario_id(ref: str, name: str, taken: set[str]) -> str:
    """The scenario id of a row: its ``ref`` when it came from a scenario,
    else one made from ``name`` (« Ours runegriffe » → ``ours-runegriffe``,
    ``-2`` when taken); ``taken`` is updated."""
    base = ref.strip() if ref.strip() and not _AUTO_REF_RE.match(ref.strip()) else _slug(name) or "permanent"
    found, number = base, 1
    while found in taken:
        number += 1
        found = f"{base}-{number}"
    taken.add(found)
    return found


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", fold(name)).strip("-")


@dataclass(slots=True)
class _Build:
    """The scenario document being written from a board, where each of its
    tables came from (``origins``: (table, n) → (section, row index)), and
    the board's own mistakes."""

    document: dict[str, Any] = field(default_factory=dict)
    origins: dict[tuple[str, int], tuple[str, int]] = field(default_factory=dict)
    problems: list[BoardError] = field(default_factory=list)
    statics: int = 0


def effect_text(row: EffectRow, board: Board) -> str:
    """The French wording of an effect row (a card's: its text): the target,
    then what the kind does (« Ours runegriffe gagne +3/+3. », « Toutes les
    créatures perdent toutes leurs capacités. »); ``""`` for an unknown kind."""
    kind = CATALOGUE.get(row.kind.strip())
    if kind is None:
        return ""
    if kind.card is not None:
        return kind.card.text
    names = {permanent.ref: permanent_label(permanent, i) for i, permanent in enumerate(board.permanents)}
    names.update(
        {effect.ref: CATALOGUE[effect.kind.strip()].card.name for effect in board.effects if _puts_card(effect)}
    )
    target = TARGETS.get(row.target.strip())
    if row.source.strip() and target is not None:
        phrase = target.phrase or names.get(row.source.strip(), "ce permanent")
        plural = target.plural
    else:
        phrase, plural = names.get(row.target.strip(), "la cible"), False
    sentence = kind.sentence(row, phrase, plural)
    return sentence[0].upper() + sentence[1:] + "."


def board_document(board: Board) -> tuple[dict[str, Any], list[BoardError], dict[tuple[str, int], tuple[str, int]]]:
    """The scenario document (as :func:`~rules_kb.checker.scenario_writer.scenario_document`
    shapes it) that ``board`` describes, the board's own mistakes (a kind
    unknown, a parameter missing, a target that does not fit the source),
    and where each table of the document comes from: ``(table, n)`` →
    ``(section, row index)``, ``table`` being ``"player"``, ``"permanent"``,
    ``"permanent.static"`` or ``"effect"``. Blank rows (a permanent left as
    added, an effect with no kind chosen) are left out."""
    build = _Build()
    document = build.document
    if board.title.strip():
        document["title"] = board.title.strip()
    if board.edition.strip():
        document["edition"] = board.edition.strip()
    players = [(index, row) for index, row in enumerate(board.players) if not _player_blank(row)]
    if players:
        document["player"] = []
    for index, row in players:
        build.origins[("player", len(document["player"]))] = ("player", index)
        document["player"].append(_player_table(row))
    taken: set[str] = set()
    ids: dict[str, str] = {}
    tables: list[tuple[dict[str, Any], tuple[str, int], str]] = []  # (table, origin, ref)
    kept = [(index, row) for index, row in enumerate(board.permanents) if not _permanent_blank(row)]
    for index, row in kept:
        ids[row.ref] = scenario_id(row.ref, row.name, taken)
    cards = [(index, row) for index, row in enumerate(board.effects) if _puts_card(row)]
    for index, row in cards:
        ids[row.ref] = scenario_id(row.ref, CATALOGUE[row.kind.strip()].card.name, taken)
    statics: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    effects: list[tuple[int, dict[str, Any]]] = []
    for index, row in enumerate(board.effects):
        if not row.kind.strip():
            continue
        if _puts_card(row):
            continue
        table = _effect_table(board, index, row, ids, build)
        if table is None:
            continue
        if row.source.strip():
            statics.setdefault(row.source.strip(), []).append((index, table))
        else:
            effects.append((index, table))
    for index, row in kept:
        tables.append((_permanent_table(board, index, row, ids, build), ("permanent", index), row.ref))
    for index, row in cards:
        tables.append((_card_table(board, index, row, ids), ("effect", index), row.ref))
    if tables:
        document["permanent"] = []
    tables.sort(key=lambda item: _order(item[0].get("timestamp")))  # in order of entry (418.5e)
    for table, origin, ref in tables:
        build.origins[("permanent", len(document["permanent"]))] = origin
        if origin[0] == "permanent":
            for effect_index, static in statics.pop(ref, []):
                table.setdefault("static", []).append(static)
                build.origins[("permanent.static", build.statics)] = ("effect", effect_index)
                build.statics += 1
        else:
            build.origins[("permanent.static", build.statics)] = origin
            build.statics += 1
        document["permanent"].append(table)
    for orphans in statics.values():
        for effect_index, _ in orphans:
            build.problems.append(
                _problem("la source n'est plus un permanent du plateau ; choisissez-en une autre.", "effect",
                         effect_index, "source", board)
            )  # fmt: skip
    if effects:
        document["effect"] = []
    for index, table in effects:
        build.origins[("effect", len(document["effect"]))] = ("effect", index)
        document["effect"].append(table)
    return document, build.problems, build.origins


def _order(timestamp) -> tuple[int, int]:
    """Sorts timestamps in order, what is not a number last."""
    return (0, timestamp) if type(timestamp) is int else (1, 0)


def _problem(message: str, section: str, index: int, key: str, board: Board) -> BoardError:
    """A mistake of a row's field, placed and labelled in French."""
    name = ""
    if section == "player" and index < len(board.players):
        name = board.players[index].name.strip()
    elif section == "permanent" and index < len(board.permanents):
        name = board.permanents[index].name.strip()
    elif section == "effect" and index < len(board.effects):
        kind = CATALOGUE.get(board.effects[index].kind.strip())
        name = kind.card.name if kind and kind.card else (kind.label.split(" (")[0] if kind else "")
    label = FIELD_LABELS[section].get(key, "") if key else ""
    return BoardError(message, field_name(section, index, key) if key else "", _place(section, index, name), label)


def _player_table(row: PlayerRow) -> dict[str, Any]:
    table: dict[str, Any] = {"name": row.name.strip()}
    for key, value in (("life", row.life), ("poison", row.poison)):
        if value.strip():
            table[key] = _number(value, "")
    if row.drew:
        table["drew_from_empty_library"] = True
    return table


def _permanent_table(board: Board, index: int, row: PermanentRow, ids: dict[str, str], build: _Build) -> dict:
    """A ``[[permanent]]`` table: the keys of the scenario format, numbers as
    typed for the reader to refuse, the aura's and equipment's subtype and
    type added (212.4c, 212.2g)."""
    card_types = list(row.card_types)
    subtypes = _split(row.subtypes)
    role = row.role.strip()
    if role == "aura":
        card_types += ["enchantement"] * ("enchantement" not in card_types)
        subtypes += [AURA] * (AURA not in subtypes and "aura" not in [fold(s) for s in subtypes])
    elif role == "equipment":
        card_types += ["artefact"] * ("artefact" not in card_types)
        subtypes += [EQUIPMENT] * (EQUIPMENT not in subtypes)
    elif role:
        build.problems.append(_problem(f"« {role} » : choisissez aura, équipement ou rien.", "permanent", index,
                                       "role", board))  # fmt: skip
    table: dict[str, Any] = {"id": ids[row.ref], "name": row.name.strip()}
    if row.controller.strip():
        table["controller"] = row.controller.strip()
    if card_types:
        table["card_types"] = card_types
    for key, value in (("subtypes", subtypes), ("supertypes", list(row.supertypes)), ("colors", list(row.colors))):
        if value:
            table[key] = value
    for key, value in (("mana_value", row.mana_value), ("power", row.power), ("toughness", row.toughness),
                       ("damage", row.damage)):  # fmt: skip
        if value.strip():
            table[key] = _number(value, "")
    if abilities := split_abilities(row.abilities):
        table["abilities"] = abilities
    pairs = (("+1/+1", row.plus_counters), ("-1/-1", row.minus_counters))
    counters = {name: _number(value, "") for name, value in pairs if value.strip()}
    for part in _split(row.counters):
        name, _, count = part.rpartition(":") if ":" in part else (part, "", "1")
        counters[name.strip()] = _number(count, "")
    if any(value != 0 for value in counters.values()):
        table["counters"] = {name: value for name, value in counters.items() if value != 0}
    for key, value in (("token", row.token), ("copy_of_card", row.copy)):
        if value:
            table[key] = True
    if row.zone.strip() and row.zone.strip() != Zone.BATTLEFIELD.label:
        table["zone"] = row.zone.strip()
    attached = row.attached_to.strip()
    if attached.startswith(PLAYER_PREFIX):
        table["attached_to"] = attached[len(PLAYER_PREFIX) :]
    elif attached:
        table["attached_to"] = ids.get(attached, attached)
        if attached not in ids:
            build.problems.append(_problem("ce permanent n'est plus sur le plateau ; choisissez-en un autre.",
                                           "permanent", index, "attached_to", board))  # fmt: skip
    if enchant := _split(row.enchant):
        table["enchant"] = enchant
    if row.timestamp.strip():
        table["timestamp"] = _number(row.timestamp, "")
    if row.since.strip():
        table["since"] = _number(row.since, "")
    if row.tapped:
        table["tapped"] = True
    if row.regeneration.strip():
        table["regeneration_shields"] = _number(row.regeneration, "")
    return table


def _card_table(board: Board, index: int, row: EffectRow, ids: dict[str, str]) -> dict[str, Any]:
    """The ``[[permanent]]`` table of a card of the catalogue put in play, with its static ability."""
    card = CATALOGUE[row.kind.strip()].card
    table: dict[str, Any] = {"id": ids[row.ref], "name": card.name}
    controller = row.controller.strip() or _first_player(board)
    if controller:
        table["controller"] = controller
    table.update(card_types=list(card.card_types), colors=list(card.colors), mana_value=card.mana_value)
    if row.timestamp.strip():
        table["timestamp"] = _number(row.timestamp, "")
    static = {"text": row.text.strip() or card.text, "affects_all": dict(card.affects_all), **card.operations}
    table["static"] = [static]
    return table


def _effect_table(board: Board, index: int, row: EffectRow, ids: dict[str, str], build: _Build) -> dict | None:
    """The ``[[effect]]`` or ``[[permanent.static]]`` table of an effect row
    that puts no card in play (that one is a permanent: :func:`_card_table`),
    or None after noting the row's mistake."""
    kind = CATALOGUE.get(row.kind.strip())
    if kind is None:
        choices = ", ".join(f"« {item.label} »" for item in CATALOGUE.values())
        build.problems.append(_problem(f"« {row.kind.strip()} » n'est pas un effet de la liste. Effets : {choices}.",
                                       "effect", index, "kind", board))  # fmt: skip
        return None
    source, target = row.source.strip(), row.target.strip()
    if source and source not in ids:
        build.problems.append(_problem("la source n'est plus un permanent du plateau ; choisissez-en une autre.",
                                       "effect", index, "source", board))  # fmt: skip
        return None
    table: dict[str, Any] = {"text": row.text.strip() or effect_text(row, board)}
    if kind.card is not None:
        table["affects_all"] = dict(kind.card.affects_all)
        table.update(kind.card.operations)
        return table
    if source:
        found = TARGETS.get(target)
        if found is None:
            message = (
                "une capacité statique s'applique au permanent lui-même, à ce qu'il enchante ou équipe, ou à un "
                "groupe de permanents, revu à chaque fois (418.4a) : choisissez-en un dans « capacité statique »."
            )
            build.problems.append(_problem(message, "effect", index, "target", board))
            return None
        if found.scope:
            table["affects"] = found.scope
        else:
            table["affects_all"] = dict(found.selector)
    else:
        if target not in ids:
            message = (
                "l'effet d'un sort ou d'une capacité résolus s'applique aux permanents fixés quand il a commencé "
                "(418.3b) : choisissez un permanent du plateau."
                if target in TARGETS
                else "choisissez le permanent auquel il s'applique."
            )
            build.problems.append(_problem(message, "effect", index, "target", board))
            return None
        if row.timestamp.strip():
            table["timestamp"] = _number(row.timestamp, "")
        else:
            build.problems.append(_problem("indiquez l'horodatage de l'effet (418.5g).", "effect", index,
                                           "timestamp", board))  # fmt: skip
            return None
        table["affects"] = [ids[target]]
    try:
        operations = kind.write(row)
    except ValueError as error:
        build.problems.append(_problem(str(error), "effect", index, _param_of(str(error), kind), board))
        return None
    if kind.key == "control" and operations["set_controller"] == YOU and not source:
        message = (
            "« vous » est le contrôleur d'une capacité statique (212.4i) : pour un effet résolu, choisissez le joueur."
        )
        build.problems.append(_problem(message, "effect", index, "player", board))
        return None
    table.update(operations)
    return table


def _param_of(message: str, kind: Kind) -> str:
    """The parameter a :attr:`Kind.write` message is about (its first parameter when none is named)."""
    for words, param in (("la force", "power"), ("l'endurance", "toughness"), ("capacité", "ability"),
                         ("joueur", "player"), ("type", "card_type"), ("mot remplacé", "old_word"),
                         ("le remplace", "new_word")):  # fmt: skip
        if words in message and param in kind.params:
            return param
    return kind.params[0] if kind.params else "kind"


#: A reader's table name as its errors give it: ``[[permanent]] n°2``.
_TABLE_RE = re.compile(r"^\[\[([a-z.]+)\]\] n°(\d+)$")
#: The row field a key of a ``[[permanent]]`` or ``[[player]]`` table comes from.
_PERMANENT_KEYS = {
    "id": "name", "name": "name", "controller": "controller", "owner": "controller", "card_types": "card_types",
    "subtypes": "subtypes", "supertypes": "supertypes", "colors": "colors", "mana_value": "mana_value",
    "power": "power", "toughness": "toughness", "abilities": "abilities", "damage": "damage",
    "counters": "plus_counters", "token": "token", "copy_of_card": "copy", "zone": "zone",
    "attached_to": "attached_to", "enchant": "enchant", "timestamp": "timestamp", "tapped": "tapped",
    "regeneration_shields": "regeneration", "since": "since",
}  # fmt: skip
_PLAYER_KEYS = {"name": "name", "life": "life", "poison": "poison", "drew_from_empty_library": "drew"}
#: The row field an operation or a key of an effect table comes from.
_EFFECT_KEYS = {
    "modify_power_toughness": "power", "set_power_toughness": "power", "set_colors": "color",
    "set_card_types": "card_type", "add_card_types": "card_type", "set_subtypes": "subtype",
    "add_subtypes": "subtype", "set_controller": "player", "add_abilities": "ability",
    "remove_abilities": "ability", "change_text": "old_word", "affects": "target", "affects_all": "target",
    "timestamp": "timestamp", "text": "text",
}  # fmt: skip


def _placed(problem: ScenarioError, board: Board, origins: dict[tuple[str, int], tuple[str, int]]) -> BoardError:
    """The reader's ``problem`` placed on the field of the board it comes from."""
    found = _TABLE_RE.match(problem.table or "")
    if found is None:
        key = {"title": "title", "edition": "edition"}.get(problem.key.split(".")[0], "")
        return BoardError(problem.detail, key, "", FIELD_LABELS.get(key, "") if key else "")
    table, number = found.group(1), int(found.group(2)) - 1
    section, index = origins.get((table, number), ("", -1))
    if not section:
        return BoardError(problem.detail)
    key = problem.key.split(".")[0]
    if section == "player":
        row_key = _PLAYER_KEYS.get(key, "name")
    elif section == "permanent":
        row_key = _PERMANENT_KEYS.get(key, "name")
        if key == "counters" and not board.permanents[index].plus_counters.strip():
            row_key = "minus_counters"
    elif table == "permanent":  # a card put in play
        row_key = "controller" if key in ("controller", "owner") else "timestamp" if key == "timestamp" else "kind"
    else:
        row_key = _EFFECT_KEYS.get(key, "kind")
    return _problem(problem.detail, section, index, row_key, board)


def board_scenario(board: Board) -> Scenario:
    """The :class:`Scenario` ``board`` describes, read by the scenario reader
    from the TOML of :func:`board_document` (so that it is checked as a file
    is, with the same French messages).

    Raises :class:`BoardError` holding every mistake, the board's own and
    the reader's, each placed on its field (:attr:`BoardError.field`): an
    empty board, a name missing, a number that is not one, a player or a
    permanent no longer on the board, a parameter missing, a static ability
    aimed at one permanent (418.4a) or a resolved effect at a group (418.3b)."""
    document, problems, origins = board_document(board)
    if not document.get("player") and not document.get("permanent"):
        raise BoardError.of(
            [*problems, BoardError("le plateau est vide : ajoutez au moins un joueur ou un permanent.")]
        )
    text = tomli_w.dumps(document)
    try:
        scenario = parse_scenario(text)
    except ScenarioError as error:
        problems += [_placed(problem, board, origins) for problem in error.problems]
        scenario = None
    if problems:
        raise BoardError.of(_page_order(problems, board))
    return scenario


def _page_order(problems: list[BoardError], board: Board) -> list[BoardError]:
    """``problems`` in the order of the page's fields, each once."""
    order = {name: rank for rank, name in enumerate(form_fields(board))}
    unique = list({(problem.field, str(problem)): problem for problem in problems}.values())
    return sorted(unique, key=lambda problem: order.get(problem.field, -1))


def scenario_from_form(form: Mapping[str, Sequence[str] | str]) -> Scenario:
    """:func:`board_scenario` of :func:`read_form`: the scenario the submitted
    ``form`` describes. Raises :class:`BoardError`."""
    return board_scenario(read_form(form))


# -- scenario → board ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reading:
    """A scenario as a :class:`Board`: ``board``, and ``missing``, what of
    the scenario the forms cannot describe (French phrases; empty: the
    board describes the whole scenario)."""

    board: Board
    missing: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        """Whether the board describes the whole scenario."""
        return not self.missing


def board_from_scenario(scenario: Scenario) -> Reading:
    """``scenario`` as a :class:`Board` to edit by tapping, and what of it
    the forms cannot describe (:attr:`Reading.missing`): spells, a first
    player who is not the active one, a ``since``, counters other than
    +1/+1 and -1/-1, an effect of several kinds or aimed at several
    permanents, a characteristic-defining ability… The board is complete
    when it gives the same scenario back (:func:`same_scenario`)."""
    document = scenario_document(scenario)
    missing: list[str] = []
    if "active_player" in document:
        missing.append(f"le joueur actif ({document['active_player']}) n'est pas le premier")
    if document.get("spell"):
        missing.append("des sorts sur la pile")
    players = tuple(
        PlayerRow(
            table["name"],
            str(table.get("life", 20)),
            str(table.get("poison", 0)),
            bool(table.get("drew_from_empty_library", False)),
        )
        for table in document.get("player", ())
    )
    board = Board(title=document.get("title", ""), edition=document.get("edition", ""), players=players)
    permanents: list[PermanentRow] = []
    effects: list[tuple[int, int, EffectRow]] = []  # (timestamp, order, row)
    names = {table["id"]: table["name"] for table in document.get("permanent", ())}
    for order, table in enumerate(document.get("permanent", ())):
        card = _card_of(table)
        if card is not None:
            effects.append((table.get("timestamp", 0), order, card))
            continue
        row, more = _permanent_row(table)
        missing += more
        permanents.append(row)
        for number, static in enumerate(table.get("static", ()), 1):
            effect = _effect_row(static, table["id"], table.get("timestamp", 0))
            if effect is None:
                missing.append(f"la capacité statique n°{number} de {table['name']} (« {static.get('text', '')} »)")
            else:
                effects.append((table.get("timestamp", 0), order, effect))
    count = len(document.get("permanent", ()))
    for number, table in enumerate(document.get("effect", ()), 1):
        effect = _effect_row(table, "", table.get("timestamp", 0))
        if effect is None:
            text = table.get("text") or f"effet n°{number}"
            missing.append(f"l'effet « {text} » ({', '.join(names.get(i, i) for i in table.get('affects', ()))})")
        else:
            effects.append((table.get("timestamp", 0), count + number, effect))
    effects.sort(key=lambda item: (item[0], item[1]))
    board = replace(board, permanents=tuple(permanents), effects=tuple(row for _, _, row in effects))
    board = replace(board, effects=tuple(_plain_text(row, board) for row in board.effects))
    if not missing and not same_scenario(board, scenario):
        missing.append("des détails que les formulaires ne décrivent pas")
    return Reading(board, tuple(missing))


def _plain_text(row: EffectRow, board: Board) -> EffectRow:
    """``row`` without its text when the forms write the same one."""
    return replace(row, text="") if row.text == effect_text(replace(row, text=""), board) else row


def _card_of(table: dict[str, Any]) -> EffectRow | None:
    """The effect row of a card of the catalogue put in play, when ``table`` is one."""
    statics = table.get("static", ())
    for kind in CATALOGUE.values():
        card = kind.card
        if card is None or table["name"] != card.name or len(statics) != 1:
            continue
        static = {key: value for key, value in statics[0].items() if key not in ("id", "text")}
        plain = {key: value for key, value in table.items() if key not in ("id", "controller", "timestamp", "static")}
        wanted = {"name": card.name, "card_types": list(card.card_types), "colors": list(card.colors),
                  "mana_value": card.mana_value}  # fmt: skip
        if plain == wanted and static == {"affects_all": card.affects_all, **card.operations}:
            text = statics[0].get("text", "")
            return EffectRow(
                ref=table["id"],
                kind=kind.key,
                controller=table.get("controller", ""),
                text="" if text == card.text else text,
                timestamp=str(table.get("timestamp", "")),
            )
    return None


def _permanent_row(table: dict[str, Any]) -> tuple[PermanentRow, list[str]]:
    missing = []
    name = table["name"]
    if "owner" in table:
        missing.append(f"un propriétaire autre que le contrôleur pour {name}")
    counters = dict(table.get("counters", {}))
    plus, minus = counters.pop("+1/+1", 0), counters.pop("-1/-1", 0)
    if any("," in counter or ";" in counter or ":" in counter for counter in counters):
        missing.append(f"des marqueurs au nom difficile sur {name}")
    subtypes = list(table.get("subtypes", ()))
    card_types = list(table.get("card_types", ()))
    role = ""
    if AURA in subtypes and "enchantement" in card_types:
        role = "aura"
        subtypes.remove(AURA)
    elif EQUIPMENT in subtypes and "artefact" in card_types:
        role = "equipment"
        subtypes.remove(EQUIPMENT)
    attached = table.get("attached_to", "")
    zone = table.get("zone", "")
    if zone == Zone.STACK.label:
        missing.append(f"{name} sur la pile")
    row = PermanentRow(
        ref=table["id"],
        name=name,
        controller=table["controller"],
        card_types=tuple(card_types),
        power="" if "power" not in table else str(table["power"]),
        toughness="" if "toughness" not in table else str(table["toughness"]),
        damage=str(table.get("damage", "")),
        subtypes=", ".join(subtypes),
        supertypes=tuple(table.get("supertypes", ())),
        colors=tuple(table.get("colors", ())),
        mana_value=str(table.get("mana_value", "")),
        plus_counters=str(plus or ""),
        minus_counters=str(minus or ""),
        counters=", ".join(f"{counter} : {count}" for counter, count in counters.items()),
        abilities="\n".join(table.get("abilities", ())),
        role=role,
        attached_to=attached,
        enchant=", ".join(table.get("enchant", ())),
        token=bool(table.get("token", False)),
        copy=bool(table.get("copy_of_card", False)),
        tapped=bool(table.get("tapped", False)),
        regeneration=str(table.get("regeneration_shields", "")),
        zone=zone,
        timestamp=str(table.get("timestamp", "")),
        since=str(table.get("since", "")),
    )
    if any("," in ability and "." not in ability for ability in table.get("abilities", ())):
        missing.append(f"une capacité de {name} qui contient une virgule")
    return row, missing


def _effect_row(table: dict[str, Any], source: str, timestamp: int) -> EffectRow | None:
    """The effect row of a ``[[permanent.static]]`` (``source``: its permanent's
    id) or ``[[effect]]`` table, when one kind of :data:`CATALOGUE` writes it."""
    if table.get("characteristic_defining"):
        return None
    operations = {key: value for key, value in table.items() if key not in ("id", "text", "affects", "affects_all",
                                                                            "timestamp")}  # fmt: skip
    for kind in CATALOGUE.values():
        card = kind.card
        if source and card and table.get("affects_all") == card.affects_all and operations == card.operations:
            return EffectRow(kind=kind.key, source=source, text=table.get("text", ""))
    if source:
        if "affects" in table:
            target = next((t.key for t in TARGETS.values() if t.scope and t.scope == table["affects"]), None)
        else:
            target = next((t.key for t in TARGETS.values() if not t.scope and t.selector == table["affects_all"]), None)
    else:
        affects = table.get("affects", [])
        target = affects[0] if len(affects) == 1 else None
    if target is None:
        return None
    for row in _candidates(operations):
        for kind in CATALOGUE.values():
            if kind.card is not None:
                continue
            try:
                written = kind.write(row)
            except ValueError:
                continue
            if written == operations:
                return replace(
                    row,
                    kind=kind.key,
                    source=source,
                    target=target,
                    text=table.get("text", ""),
                    timestamp="" if source else str(table.get("timestamp", timestamp)),
                )
    return None


def _candidates(operations: dict[str, Any]) -> list[EffectRow]:
    """The parameters an effect's ``operations`` could have been written from."""
    power = toughness = ""
    for key in ("modify_power_toughness", "set_power_toughness"):
        value = operations.get(key)
        if isinstance(value, list) and len(value) == 2:
            power, toughness = str(value[0]), str(value[1])
    colors = operations.get("set_colors")
    color = (colors[0] if colors else COLORLESS) if isinstance(colors, list) and len(colors) <= 1 else ""
    card_type = next((operations[key][0] for key in ("set_card_types", "add_card_types")
                      if isinstance(operations.get(key), list) and len(operations[key]) == 1), "")  # fmt: skip
    subtype = next((", ".join(operations[key]) for key in ("set_subtypes", "add_subtypes")
                    if isinstance(operations.get(key), list)), "")  # fmt: skip
    ability = next((operations[key][0] for key in ("add_abilities", "remove_abilities")
                    if isinstance(operations.get(key), list) and len(operations[key]) == 1), "")  # fmt: skip
    player = operations.get("set_controller", "")
    change = operations.get("change_text")
    words = (change.get("from", ""), change.get("to", "")) if isinstance(change, dict) else ("", "")
    base = EffectRow(power=power, toughness=toughness, color=color, card_type=card_type, subtype=subtype,
                     ability=ability, player=player if isinstance(player, str) else "", old_word=str(words[0]),
                     new_word=str(words[1]))  # fmt: skip
    return [base, replace(base, card_type="")]


def _normalised(document: dict[str, Any]) -> dict[str, Any]:
    """A scenario document as compared by :func:`same_scenario`: without the
    ids of effects and static abilities (the forms name them by position),
    permanents by id and subtypes in order (the forms list the permanents
    in order of entry)."""
    copy = tomllib.loads(tomli_w.dumps(document))
    copy["permanent"] = sorted(copy.get("permanent", ()), key=lambda table: table["id"])
    for table in copy.get("effect", ()):
        table.pop("id", None)
    for table in copy.get("permanent", ()):
        if "subtypes" in table:
            table["subtypes"] = sorted(table["subtypes"])
        for static in table.get("static", ()):
            static.pop("id", None)
    return copy


def same_scenario(board: Board, scenario: Scenario) -> bool:
    """Whether ``board`` describes ``scenario`` exactly (but for the ids of its effects)."""
    try:
        built = board_scenario(board)
    except ScenarioError:
        return False
    return _normalised(scenario_document(built)) == _normalised(scenario_document(scenario))
