"""The words a scenario may use for zones, types, colours and special subtypes:
the French terms of the rules (with or without accents, singular or plural)
and their English equivalents.

>>> resolve(ZONES, "Cimetiere")
<Zone.GRAVEYARD: 'graveyard'>
>>> resolve(CARD_TYPES, "creatures")
<CardType.CREATURE: 'creature'>
"""

from __future__ import annotations

import re

from rules_kb.core.text import key
from rules_kb.core.vocabulary import CARD_TYPES_2004, SPECIAL_SUBTYPES, Color, Supertype, Zone

#: Every form of each zone, card type (of the 2004 rules), supertype and
#: colour; the first is the French term printed in messages, the last the
#: English one (:mod:`rules_kb.core.vocabulary`).
ZONES = {zone: zone.forms for zone in Zone}
CARD_TYPES = {card_type: card_type.forms for card_type in CARD_TYPES_2004}
SUPERTYPES = {supertype: supertype.forms for supertype in Supertype}
COLORS = {color: color.forms for color in Color}
#: Designations of "Enchanter : …" (212.4c) that are not types, colours or subtypes.
PERMANENT = "permanent"
PLAYER = "joueur"
ENCHANT_WORDS = {PERMANENT: ("permanent",), PLAYER: ("joueur", "player")}
#: Designations of "Enchanter : … que vous contrôlez" that name who controls
#: the permanent, relative to the aura's controller (212.4c, 212.4i).
YOU_CONTROL = "que vous contrôlez"
OPPONENT_CONTROLS = "qu'un adversaire contrôle"
CONTROL_WORDS = {
    YOU_CONTROL: ("que vous contrôlez", "you control"),
    OPPONENT_CONTROLS: (
        "qu'un adversaire contrôle",
        "que vous ne contrôlez pas",
        "an opponent controls",
        "you don't control",
    ),
}


#: Abilities that change a rule of the game without touching characteristics,
#: read by the state-based effects from the abilities a permanent has after
#: the layers (so an effect removing abilities removes them, 418.4b).
NO_LEGEND_RULE = "la règle des légendes ne s'applique pas"
PLAYERS_CANT_LOSE = "les joueurs ne peuvent pas perdre la partie"
YOU_CANT_LOSE = "vous ne pouvez pas perdre la partie"
RULE_CHANGES = {
    NO_LEGEND_RULE: (NO_LEGEND_RULE, "la règle de légende ne s'applique pas", "the legend rule doesn't apply"),
    PLAYERS_CANT_LOSE: (PLAYERS_CANT_LOSE, "players can't lose the game"),
    YOU_CANT_LOSE: (YOU_CANT_LOSE, "you can't lose the game"),
}


def _index(table: dict) -> dict[str, object]:
    return {key(form): member for member, forms in table.items() for form in forms}


_INDEXES: dict[int, dict[str, object]] = {}


def resolve(table: dict, value: str):
    """The member of ``table`` that ``value`` names, or None."""
    index = _INDEXES.get(id(table))
    if index is None:
        index = _INDEXES[id(table)] = _index(table)
    return index.get(key(value))


def french(table: dict, member) -> str:
    """The French term of ``member`` (the first form of its entry)."""
    return table[member][0]


def accepted(table: dict) -> str:
    """The accepted values, in French then English, for an error message."""
    french_forms = [forms[0] for forms in table.values()]
    english = [forms[-1] for forms in table.values() if forms[-1] != forms[0]]
    text = ", ".join(french_forms)
    if english:
        text += " (en anglais : " + ", ".join(english) + ")"
    return text


def suggest(table: dict, value: str) -> str:
    """The French term of the entry nearest to ``value``, or ``""``."""
    from rapidfuzz import fuzz, process  # deferred: rapidfuzz (8 ms), only for a misspelt value

    choices = {form: member for member, forms in table.items() for form in forms}
    found = process.extractOne(key(value), {form: key(form) for form in choices}, scorer=fuzz.ratio, score_cutoff=60)
    return french(table, choices[found[2]]) if found else ""


def canonical_subtype(value: str) -> str:
    """A subtype as stored: the canonical spelling of a special subtype
    (``"aura"`` → ``"local"``), else the value lowercased and trimmed."""
    special = resolve(SPECIAL_SUBTYPES, value)
    return special if special else " ".join(value.lower().split())


_PROTECTION_RE = re.compile(r"^(?:protection (?:contre|from)|pro) (?:(?:le|la|les|l) )?(.+)$")


def protection_from(ability: str):
    """What a protection ability protects from: a :class:`Color` or a
    :class:`CardType` (``"protection contre le noir"`` → ``Color.BLACK``,
    ``"protection from artifacts"`` → ``CardType.ARTIFACT``), else None.
    See 502.7 (2004)."""
    found = _PROTECTION_RE.match(key(ability))
    if not found:
        return None
    quality = found.group(1)
    return resolve(COLORS, quality) or resolve(CARD_TYPES, quality)
