"""Scenario files: a board state described in TOML, read into a :class:`GameState`.

Keys are English; values accept the French terms of the rules with or
without accents, singular or plural, and their English equivalents (see
:mod:`rules_kb.checker.vocabulary`). The format is documented in docs/reference/scenarios.md
and by the bundled examples (``rules-kb check --example``).

Every mistake is reported in French, naming the file, the line when it can
be found, the key and the accepted values; reading goes on to the end and
raises one :class:`ScenarioError` holding all the mistakes (``problems``).
"""

from __future__ import annotations

import errno
import re
import sys
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from rules_kb.checker import vocabulary as vocab
from rules_kb.checker.editions import EDITIONS
from rules_kb.checker.effects import (
    MANA_VALUE,
    OPPONENT,
    YOU,
    Affects,
    ContinuousEffect,
    Count,
    Operation,
    Scope,
    Selector,
    TextChange,
)
from rules_kb.checker.state import GameObject, GameState, Player, power_toughness_counter
from rules_kb.core import toml_syntax
from rules_kb.core.errors import Remedy, RulesKbError, describe_os_error
from rules_kb.core.files import STDIN
from rules_kb.core.text import fold, shortened, spaced
from rules_kb.core.vocabulary import NON_PERMANENT_TYPES, CardType, Zone

#: The keys each table accepts, in the order docs/reference/scenarios.md documents them.
TOP_KEYS = ("title", "edition", "active_player", "player", "permanent", "spell", "effect")
PLAYER_KEYS = ("name", "life", "poison", "drew_from_empty_library")
_OBJECT_KEYS = (
    "id",
    "name",
    "controller",
    "owner",
    "card_types",
    "subtypes",
    "supertypes",
    "colors",
    "mana_value",
    "power",
    "toughness",
    "abilities",
)
PERMANENT_KEYS = (
    *_OBJECT_KEYS,
    "damage",
    "counters",
    "token",
    "copy_of_card",
    "zone",
    "attached_to",
    "enchant",
    "timestamp",
    "since",
    "tapped",
    "regeneration_shields",
    "static",
)
SPELL_KEYS = (*_OBJECT_KEYS, "copy", "copy_of_card", "zone", "timestamp")
#: The operations a static ability or an effect may have, in layer order (418.5a).
OPERATION_KEYS = tuple(operation.value for operation in Operation)
STATIC_KEYS = ("id", "text", "affects", "affects_all", "characteristic_defining", *OPERATION_KEYS)
EFFECT_KEYS = ("id", "text", "timestamp", "affects", *OPERATION_KEYS)
SELECTOR_KEYS = (
    "card_types",
    "colors",
    "controller",
    "subtypes",
    "supertypes",
    "not_card_types",
    "not_supertypes",
    "not_subtypes",
    "not_colors",
    "other",
    "shares_subtype",
)
#: The keys of a value that varies: ``{ count = { … }, each = [1, 1], plus = [0, 0] }``.
COUNT_KEYS = ("count", "each", "plus")
#: The keys of ``count``: a selector and the zone counted.
COUNTED_KEYS = (*SELECTOR_KEYS, "zone")
#: What ``copy_except`` may change in the copied values (503.3).
COPY_EXCEPTION_KEYS = (
    "set_card_types",
    "add_card_types",
    "set_subtypes",
    "add_subtypes",
    "set_supertypes",
    "add_supertypes",
    "set_colors",
    "add_colors",
    "add_abilities",
    "set_power_toughness",
)
#: Ids the checker gives its own steps; a scenario cannot use them.
RESERVED_IDS = ("counters",)

#: French names of the tables, for messages.
_TABLE_NAMES = {
    "player": "[[player]]",
    "permanent": "[[permanent]]",
    "spell": "[[spell]]",
    "effect": "[[effect]]",
    "permanent.static": "[[permanent.static]]",
    "": "en tête du fichier",
}
#: How a static ability's ``affects`` may be written.
_SCOPES = {
    Scope.SELF: ("self", "soi", "lui-même", "elle-même", "lui même", "elle même"),
    Scope.ENCHANTED: ("enchanted", "enchanté", "enchantée"),
    Scope.EQUIPPED: ("equipped", "équipé", "équipée"),
}
#: How a selector's ``controller`` may name the ability's controller or the others.
_CONTROLLERS = {YOU: ("vous", "you", "moi"), OPPONENT: ("adversaire", "opponent", "adversaires", "opponents")}
_YOU_KEYS = {vocab.key(form) for form in _CONTROLLERS[YOU]}
#: How ``set_power_toughness`` may say "each equal to its mana value".
_MANA_VALUE_FORMS = (MANA_VALUE, "coût converti de mana", "ccm", "valeur de mana", "mana value")


class ScenarioError(RulesKbError):
    """A scenario file cannot be used.

    ``path`` is the file (``"<entrée standard>"`` for standard input),
    ``line`` the 1-based line at fault (0: unknown), ``key`` the key at
    fault (``""``: none), ``table`` where the key is (``"[[permanent]] n°2"``).
    ``problems`` holds every mistake of the file, this one first (see
    :meth:`gathered`); ``missing`` says the mistake is a required key left out.
    """

    def __init__(self, message: str, path: str = "", line: int = 0, key: str = "", table: str = "") -> None:
        self.path = path
        self.line = line
        self.key = key
        self.table = table
        self.detail = message
        self.problems: tuple[ScenarioError, ...] = (self,)
        self.missing = False
        where = [f"scénario « {path} »" if path else "scénario"]
        if line:
            where.append(f"ligne {line}")
        if table:
            where.append(table)
        if key:
            where.append(f"clé « {shortened(key)} »")
        text = ", ".join(where)
        super().__init__(text[0].upper() + text[1:] + " : " + message)

    @classmethod
    def gathered(cls, problems: list[ScenarioError]) -> ScenarioError:
        """One error for all ``problems`` of a file (at least one), in file
        order: the first's place and key, a message listing the first
        :data:`PROBLEMS_SHOWN` and counting the others (``problems`` holds
        them all, as ``--json`` shows)."""
        ordered = sorted(problems, key=lambda problem: problem.line or 10**9)
        if len(ordered) == 1:
            return ordered[0]
        first = ordered[0]
        lines = "\n".join(f"  – {problem}" for problem in ordered[:PROBLEMS_SHOWN])
        if len(ordered) > PROBLEMS_SHOWN:
            more = len(ordered) - PROBLEMS_SHOWN
            lines += f"\n  … et {more} autre{'s' if more > 1 else ''} : corrigez d'abord celles-ci."
        error = cls(f"{len(ordered)} erreurs.\n{lines}", first.path)
        error.line, error.key, error.table = first.line, first.key, first.table
        error.problems = tuple(ordered)
        return error


#: The most problems a gathered error's message lists (a damaged file can hold dozens, each naming
#: the keys possible: the message stays readable); ``problems`` keeps them all.
PROBLEMS_SHOWN = 8


@dataclass(frozen=True, slots=True)
class Scenario:
    """A scenario file as read: the state, the edition it asks for (``""``:
    none given), its title (``""``: none) and the path it was read from."""

    state: GameState
    edition: str = ""
    title: str = ""
    path: str = ""


class _Lines:
    """Where tables and keys are in the TOML text: ``(table, index) → line``
    and ``(table, index, key) → line`` (1-based). Best effort: a key inside a
    multi-line string may be missed; such keys simply get no line."""

    _ARRAY_RE = re.compile(r"^\[\[\s*([\w.-]+)\s*\]\]")
    _TABLE_RE = re.compile(r"^\[\s*([\w.-]+)\s*\]")
    _KEY_RE = re.compile(r"""^("[^"]*"|'[^']*'|[\w-]+)\s*[=.]""")

    def __init__(self, text: str) -> None:
        self.tables: dict[tuple[str, int], int] = {}
        self.keys: dict[tuple[str, int, str], int] = {}
        current = ("", 0)
        counts: dict[str, int] = {}
        for number, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            if found := self._ARRAY_RE.match(stripped):
                name = found.group(1)
                current = (name, counts.get(name, 0))
                counts[name] = current[1] + 1
                self.tables[current] = number
            elif found := self._TABLE_RE.match(stripped):
                current = (found.group(1), 0)
                self.tables[current] = number
            elif found := self._KEY_RE.match(stripped):
                self.keys.setdefault((*current, found.group(1).strip("\"'")), number)


class _Reader:
    """Reads one scenario text: one method per kind of value or table, each raising
    :class:`ScenarioError` with the place of the mistake."""

    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.path = path
        self.lines = _Lines(text)
        self.static_tables: dict[tuple[int, int], int] = {}  # (permanent n°, its n-th static) → table index
        self.static_count = 0  # [[permanent.static]] tables seen so far
        self.problems: list[ScenarioError] = []
        self.misspelt: set[tuple[str, str]] = set()  # (table label, key an unknown key was near)

    def report(self, problem: ScenarioError) -> None:
        """Note a mistake and go on reading (all are raised together at the end).
        A key said to be missing is not reported when a misspelt key was
        taken for it (« powr » : « power » is not missing too)."""
        if problem.missing and (problem.table, problem.key) in self.misspelt:
            return
        self.problems.append(problem)

    def absent(self, message: str, table: str, index: int, key: str) -> ScenarioError:
        """The error for a required ``key`` left out (see :meth:`report`)."""
        problem = self.error(message, table, index, key)
        problem.missing = True
        return problem

    def guard(self, read, default=None):
        """``read()``, or ``default`` once its mistake is noted."""
        try:
            return read()
        except ScenarioError as problem:
            self.report(problem)
            return default

    # -- errors -------------------------------------------------------------

    def error(self, message: str, table: str = "", index: int = 0, key: str = "") -> ScenarioError:
        line = (
            self.lines.keys.get((table, index, key))
            or self.lines.keys.get((table, index, key.split(".")[0]))
            or self.lines.tables.get((table, index), 0)
        )
        if not table and key:
            line = self.lines.keys.get(("", 0, key), 0)
        label = _TABLE_NAMES.get(table, table)
        if table:
            label += f" n°{index + 1}"
        return ScenarioError(message, self.path, line, key, label if table else "")

    # -- values -------------------------------------------------------------

    def check_keys(self, data: dict, allowed: tuple[str, ...], table: str, index: int, prefix: str = "") -> None:
        for name in data:
            if name not in allowed:
                from rapidfuzz import process  # deferred: rapidfuzz (8 ms), only for an unknown key

                close = process.extractOne(name, allowed, score_cutoff=60)
                hint = f" Vouliez-vous dire « {close[0]} » ?" if close else ""
                keys = [key for key in allowed if key not in OPERATION_KEYS]
                listed = f"Clés possibles : {', '.join(keys)}"
                if len(keys) < len(allowed):
                    listed += f" ; opérations possibles : {', '.join(OPERATION_KEYS)}"
                what = "opération ou clé inconnue" if len(keys) < len(allowed) else "clé inconnue"
                problem = self.error(f"{what}.{hint} {listed}.", table, index, prefix + name)
                if close:
                    self.misspelt.add((problem.table, prefix + close[0]))
                self.report(problem)

    def string(self, data, key, table, index, default: str | None = None, required: bool = False) -> str:
        if key not in data:
            if required:
                raise self.absent("clé obligatoire absente.", table, index, key)
            return default or ""
        value = data[key]
        if not isinstance(value, str):
            raise self.error(f"un texte entre guillemets est attendu, pas {_shown(value)}.", table, index, key)
        value = value.strip()
        if required and not value:
            raise self.error("le texte ne peut pas être vide.", table, index, key)
        return value

    def integer(self, data, key, table, index, default: int | None, minimum: int | None = None) -> int | None:
        if key not in data:
            return default
        value = data[key]
        if type(value) is not int:
            raise self.error(f"un nombre entier est attendu, pas {_shown(value)}.", table, index, key)
        if minimum is not None and value < minimum:
            raise self.error(f"la valeur doit être au moins {minimum}, pas {value}.", table, index, key)
        return value

    def boolean(self, data, key, table, index) -> bool:
        value = data.get(key, False)
        if type(value) is not bool:
            raise self.error(f"true ou false est attendu, pas {_shown(value)}.", table, index, key)
        return value

    def strings(self, data, key, table, index, prefix: str = "") -> list[str]:
        value = data.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.error(
                f'une liste de textes est attendue, par exemple ["vol"], pas {_shown(value)}.',
                table,
                index,
                prefix + key,
            )
        return [item.strip() for item in value if item.strip()]

    def terms(self, data, key, table, index, vocabulary: dict, what: str, prefix: str = "") -> list:
        found = []
        for value in self.strings(data, key, table, index, prefix):
            member = vocab.resolve(vocabulary, value)
            if member is None:
                close = vocab.suggest(vocabulary, value)
                hint = f" Vouliez-vous dire « {close} » ?" if close else ""
                raise self.error(
                    f"« {value} » n'est pas {what} connu{'e' if what.startswith('une ') else ''}.{hint} Valeurs possibles : {vocab.accepted(vocabulary)}.",
                    table,
                    index,
                    prefix + key,
                )
            found.append(member)
        return found

    def zone(self, data, table, index, default: Zone) -> Zone:
        if "zone" not in data:
            return default
        value = self.string(data, "zone", table, index)
        member = vocab.resolve(vocab.ZONES, value)
        if member is None:
            close = vocab.suggest(vocab.ZONES, value)
            hint = f" Vouliez-vous dire « {close} » ?" if close else ""
            raise self.error(
                f"« {value} » n'est pas une zone connue.{hint} Valeurs possibles : {vocab.accepted(vocab.ZONES)}.",
                table,
                index,
                "zone",
            )
        return member

    def counters(self, data, table, index) -> dict[str, int]:
        value = data.get("counters", {})
        if not isinstance(value, dict):
            raise self.error(
                f'une table est attendue, par exemple {{ "+1/+1" = 2, "-1/-1" = 1 }}, pas {_shown(value)}.',
                table,
                index,
                "counters",
            )
        counters: dict[str, int] = {}
        for name, count in value.items():
            if type(count) is not int or count < 0:
                raise self.error(
                    f"le nombre de marqueurs « {name} » doit être un entier positif ou nul, pas {_shown(count)}.",
                    table,
                    index,
                    "counters",
                )
            canonical = _counter_name(name)
            if not canonical:
                raise self.error("un nom de marqueur ne peut pas être vide.", table, index, "counters")
            if count:
                counters[canonical] = counters.get(canonical, 0) + count
        return counters

    def enchant(self, data, table, index) -> tuple[str, ...]:
        """The designations after "Enchanter :" (212.4c): card types, supertypes,
        colours, « permanent », « joueur » or a one-word subtype, joined by a
        hyphen or a space (« créature-artefact »: both), then optionally who
        controls it, relative to the aura's controller (« créature que vous
        contrôlez »). Anything else is an error naming the allowed forms."""
        designations = []
        for value in self.strings(data, "enchant", table, index):
            words, control = value.split(), ""
            for member, forms in vocab.CONTROL_WORDS.items():
                for form in forms:
                    size = len(form.split())
                    if not control and len(words) > size and vocab.key(" ".join(words[-size:])) == vocab.key(form):
                        control, words = member, words[:-size]
            for part in re.split(r"\s*-\s*", " ".join(words)):
                designations.extend(self.designations(part, value, table, index))
            if control:
                designations.append(control)
        return tuple(dict.fromkeys(designations))

    def designations(self, part: str, value: str, table, index) -> list[str]:
        """The designations one hyphen-free ``part`` of an "Enchanter :" ``value`` names."""
        designation = _designation(part) if len(part.split()) <= 1 else _known_designation(part)
        if designation is not None:
            return [designation]
        words = part.split()
        if len(words) == 1:
            close = vocab.suggest(vocab.CARD_TYPES, part)
            raise self.error(
                f"« {part} » ressemble à un type de carte mal écrit ; vouliez-vous dire « {close} » ? {_ENCHANT_FORMS}",
                table,
                index,
                "enchant",
            )
        found, start = [], 0
        while start < len(words):
            for size in (3, 2, 1):
                known = _known_designation(" ".join(words[start : start + size]))
                if known is not None and start + size <= len(words):
                    found.append(known)
                    start += size
                    break
            else:
                raise self.error(
                    f"« {value} » n'est pas une désignation connue (« {words[start]} » n'est ni un type, ni "
                    f"un sur-type, ni une couleur). {_ENCHANT_FORMS}",
                    table,
                    index,
                    "enchant",
                )
        return found

    # -- continuous effects (418) -------------------------------------------

    def pair(self, data, key, table, index) -> tuple[int, int]:
        value = data[key]
        if not (isinstance(value, list) and len(value) == 2 and all(type(item) is int for item in value)):
            raise self.error(
                f"deux nombres entiers sont attendus, force puis endurance, par exemple [1, 1], pas {_shown(value)}.",
                table,
                index,
                key,
            )
        return value[0], value[1]

    def text_change(self, data, table, index) -> TextChange:
        """``change_text = { from = "blanc", to = "noir" }``: two colour words or
        two land or creature types (418.6a)."""
        key = "change_text"
        value = data[key]
        if not isinstance(value, dict):
            raise self.error(
                f'une table est attendue, par exemple {{ from = "blanc", to = "noir" }}, pas {_shown(value)}.',
                table,
                index,
                key,
            )
        self.check_keys(value, ("from", "to"), table, index, key + ".")
        words = [
            self.string(value, part, table, index, required=True) if part in value else None for part in ("from", "to")
        ]
        if None in words:
            raise self.error(
                "« from » et « to » sont obligatoires : le mot remplacé et son remplaçant.", table, index, key
            )
        colors = [vocab.resolve(vocab.COLORS, word) for word in words]
        if all(colors):
            if colors[0] is colors[1]:
                raise self.error("« from » et « to » désignent la même couleur.", table, index, key)
            return TextChange(colors[0], colors[1])
        for word, color in zip(words, colors):
            refused = None
            if color is not None:
                refused = "un mot de couleur ne peut être remplacé que par un autre mot de couleur"
            elif vocab.resolve(vocab.CARD_TYPES, word) or vocab.resolve(vocab.SUPERTYPES, word):
                refused = f"« {word} » est un type de carte ou un sur-type"
            elif vocab.resolve(vocab.SPECIAL_SUBTYPES, word):
                refused = f"« {word} » n'est ni un type de terrain ni un type de créature"
            if refused:
                raise self.error(
                    f"{refused} ; un effet de changement de texte ne change que des mots de couleur, des types "
                    "de terrain ou des types de créature (418.6a).",
                    table,
                    index,
                    key,
                )
        old, new = (vocab.canonical_subtype(word) for word in words)
        if fold(old) == fold(new):
            raise self.error("« from » et « to » désignent le même type.", table, index, key)
        return TextChange(old, new)

    def operations(self, data, table, index) -> tuple[tuple[Operation, object], ...]:
        """The operations of a static ability or an effect, in file order."""
        found = []
        for key in data:
            if key not in OPERATION_KEYS:
                continue
            operation = Operation(key)
            if operation in (Operation.COPY_OF, Operation.SET_CONTROLLER):
                value = self.string(data, key, table, index, required=True)
                if operation is Operation.SET_CONTROLLER and vocab.key(value) in _YOU_KEYS:
                    value = YOU
            elif operation in (Operation.SET_POWER_TOUGHNESS, Operation.MODIFY_POWER_TOUGHNESS) and isinstance(
                data[key], dict
            ):
                value = self.count(data[key], key, table, index)
            elif operation is Operation.CHANGE_TEXT:
                value = self.text_change(data, table, index)
            elif operation is Operation.COPY_EXCEPT:
                value = self.copy_exceptions(data, table, index)
            elif operation is Operation.ADD_STATICS:
                value = self.granted_statics(data, table, index)
            elif operation in (Operation.SET_CARD_TYPES, Operation.ADD_CARD_TYPES):
                value = frozenset(self.terms(data, key, table, index, vocab.CARD_TYPES, "un type de carte"))
            elif operation in (Operation.SET_SUBTYPES, Operation.ADD_SUBTYPES, Operation.REMOVE_SUBTYPES):
                value = tuple(dict.fromkeys(vocab.canonical_subtype(s) for s in self.strings(data, key, table, index)))
            elif operation in (Operation.SET_SUPERTYPES, Operation.ADD_SUPERTYPES):
                value = frozenset(self.terms(data, key, table, index, vocab.SUPERTYPES, "un sur-type"))
            elif operation in (Operation.SET_COLORS, Operation.ADD_COLORS):
                value = frozenset(self.terms(data, key, table, index, vocab.COLORS, "une couleur"))
            elif operation in (Operation.ADD_ABILITIES, Operation.REMOVE_ABILITIES):
                value = tuple(self.strings(data, key, table, index))
            elif operation in (Operation.REMOVE_ALL_ABILITIES, Operation.SWITCH_POWER_TOUGHNESS):
                if not self.boolean(data, key, table, index):
                    continue
                value = True
            elif operation is Operation.SET_POWER_TOUGHNESS and isinstance(data[key], str):
                if vocab.key(data[key]) not in {vocab.key(form) for form in _MANA_VALUE_FORMS}:
                    raise self.error(
                        f'« {data[key]} » : donnez [force, endurance], par exemple [0, 2], ou "mana_value" '
                        "(chacune égale au coût converti de mana).",
                        table,
                        index,
                        key,
                    )
                value = MANA_VALUE
            else:
                value = self.pair(data, key, table, index)
            found.append((operation, value))
        kinds = [operation for operation, _ in found]
        if Operation.COPY_EXCEPT in kinds:
            if Operation.COPY_OF not in kinds:
                raise self.error(
                    'les exceptions d\'une copie accompagnent copy_of = "id" (503.3).', table, index, "copy_except"
                )
            exceptions = found.pop(kinds.index(Operation.COPY_EXCEPT))
            found.insert([operation for operation, _ in found].index(Operation.COPY_OF) + 1, exceptions)
        if not found and any(key not in (*STATIC_KEYS, *EFFECT_KEYS) for key in data):
            return ()  # an unknown key, already reported, was likely meant as the operation
        if not found:
            raise self.error(
                "aucune opération : dites ce que fait l'effet, par exemple modify_power_toughness = [1, 1]. "
                f"Opérations possibles : {', '.join(OPERATION_KEYS)}.",
                table,
                index,
            )
        return tuple(found)

    def granted_statics(self, data, table, index) -> tuple[ContinuousEffect, ...]:
        """``add_statics = [{ text = "…", affects_all = { … }, modify_power_toughness = [1, 1] }]``:
        static abilities granted, each written like a [[permanent.static]]
        table; "self" is the permanent that has the ability."""
        key = "add_statics"
        value = data[key]
        if isinstance(value, dict):
            value = [value]
        if not isinstance(value, list) or not value or not all(isinstance(item, dict) for item in value):
            raise self.error(
                "une liste de capacités statiques est attendue, chacune écrite comme une table "
                '[[permanent.static]], par exemple [{ affects_all = { card_types = ["créature"], other = true }, '
                "modify_power_toughness = [1, 1] }].",
                table,
                index,
                key,
            )
        granted = []
        for number, item in enumerate(value, 1):
            if key in item:
                raise self.error(
                    f"capacité accordée n°{number} : elle ne peut pas accorder à son tour une capacité statique.",
                    table,
                    index,
                    key,
                )
            saved, self.problems = self.problems, []
            effect = self.guard(lambda item=item: self.continuous_effect(item, "permanent.static", -1))
            inner, self.problems = self.problems, saved
            if inner:
                raise self.error(
                    f"capacité accordée n°{number} : " + " ; ".join(p.detail for p in inner), table, index, key
                )
            granted.append(replace(effect, line=self.lines.tables.get((table, index), 0)))
        return tuple(granted)

    def copy_exceptions(self, data, table, index) -> tuple[tuple[Operation, object], ...]:
        """``copy_except = { set_colors = ["bleu"], add_abilities = ["…"] }``:
        what a copy effect changes in the values it copies (503.3)."""
        key = "copy_except"
        value = data[key]
        if not isinstance(value, dict) or not value:
            raise self.error(
                'une table est attendue, par exemple { set_power_toughness = [1, 1], add_abilities = ["vol"] } '
                f"(« … sauf qu'elle est 1/1 et a le vol »). Opérations possibles : {', '.join(COPY_EXCEPTION_KEYS)}.",
                table,
                index,
                key,
            )
        unknown = [name for name in value if name not in COPY_EXCEPTION_KEYS]
        if unknown:
            raise self.error(
                f"« {unknown[0]} » ne peut pas être une exception d'une copie. Opérations possibles : "
                f"{', '.join(COPY_EXCEPTION_KEYS)}.",
                table,
                index,
                key,
            )
        exceptions = self.operations(value, table, index)
        if any(isinstance(part, Count) for _, part in exceptions):
            raise self.error("une exception de copie donne des valeurs fixes, pas { count = … }.", table, index, key)
        return exceptions

    def count(self, value: dict, key: str, table, index) -> Count:
        """``{ count = { card_types = […], other = true, zone = "main" }, each = [1, 1],
        plus = [0, 0] }``: a value that varies (see :class:`Count`)."""
        self.check_keys(value, COUNT_KEYS, table, index, key + ".")
        if not isinstance(value.get("count"), dict):
            raise self.error(
                'une valeur variable compte des objets : { count = { card_types = ["créature"], other = true }, '
                "each = [1, 1] } (each : ce que vaut chaque objet compté, défaut [1, 1] ; plus : ce qui s'ajoute, "
                "défaut [0, 0]).",
                table,
                index,
                key,
            )
        counted = value["count"]
        self.check_keys(counted, COUNTED_KEYS, table, index, f"{key}.count.")
        selector = self.selector(
            {**value, "count": {k: v for k, v in counted.items() if k != "zone"}},
            table,
            index,
            "count",
            f"{key}.count.",
        )
        zone = self.zone(counted, table, index, Zone.BATTLEFIELD)
        each = self.pair(value, "each", table, index) if "each" in value else (1, 1)
        plus = self.pair(value, "plus", table, index) if "plus" in value else (0, 0)
        return Count(selector, zone, each, plus)

    def selector(self, data, table, index, key: str = "affects_all", prefix: str = "") -> Selector:
        """``affects_all = { card_types = [...], colors = [...], ... }`` (418.4a),
        or the ``count`` of a value that varies (``key``, shown as ``prefix``)."""
        value = data[key]
        if not isinstance(value, dict):
            raise self.error(
                f'une table est attendue, par exemple {{ card_types = ["créature"], colors = ["blanc"] }}, '
                f"pas {_shown(value)}.",
                table,
                index,
                key,
            )
        prefix = prefix or key + "."
        if key == "affects_all":
            self.check_keys(value, SELECTOR_KEYS, table, index, prefix)

        def terms(name, vocabulary, what):
            return frozenset(self.terms(value, name, table, index, vocabulary, what, prefix))

        controller = self.string(value, "controller", table, index) if "controller" in value else ""
        for special, forms in _CONTROLLERS.items():
            if vocab.key(controller) in {vocab.key(form) for form in forms}:
                controller = special
        return Selector(
            card_types=terms("card_types", vocab.CARD_TYPES, "un type de carte"),
            colors=terms("colors", vocab.COLORS, "une couleur"),
            subtypes=tuple(vocab.canonical_subtype(s) for s in self.strings(value, "subtypes", table, index, prefix)),
            supertypes=terms("supertypes", vocab.SUPERTYPES, "un sur-type"),
            not_card_types=terms("not_card_types", vocab.CARD_TYPES, "un type de carte"),
            not_supertypes=terms("not_supertypes", vocab.SUPERTYPES, "un sur-type"),
            not_subtypes=tuple(
                vocab.canonical_subtype(s) for s in self.strings(value, "not_subtypes", table, index, prefix)
            ),
            not_colors=terms("not_colors", vocab.COLORS, "une couleur"),
            controller=controller,
            other=self.boolean(value, "other", table, index),
            shares_subtype=self.boolean(value, "shares_subtype", table, index),
        )

    def continuous_effect(self, data, table: str, index: int) -> ContinuousEffect:
        """A ``[[permanent.static]]`` (static ability, 418.4) or ``[[effect]]``
        (resolved effect, 418.3) table. Ids are checked later, once every
        object has its id."""
        static = table == "permanent.static"
        if not isinstance(data, dict):
            raise self.error(f"une table est attendue, pas {_shown(data)}.", table, index)
        if not static and "affects_all" in data:
            raise self.error(
                "un effet d'un sort ou d'une capacité résolus s'applique aux objets fixés quand il a commencé "
                '(418.3b) : donnez leurs identifiants, par exemple affects = ["ours"]. Pour un ensemble '
                "réévalué à tout moment, décrivez une capacité statique [[permanent.static]].",
                table,
                index,
                "affects_all",
            )
        self.check_keys(data, STATIC_KEYS if static else EFFECT_KEYS, table, index)
        effect_id = self.string(data, "id", table, index)
        if "id" in data and not effect_id:
            raise self.error("l'identifiant ne peut pas être vide.", table, index, "id")
        operations = self.operations(data, table, index)
        defining = self.boolean(data, "characteristic_defining", table, index)
        if static:
            if "affects" in data and "affects_all" in data:
                raise self.error("donnez affects ou affects_all, pas les deux.", table, index, "affects_all")
            if "affects_all" in data:
                affects = Affects(Scope.ALL, selector=self.selector(data, table, index))
            elif "affects" in data:
                affects = Affects(self.scope(data, table, index))
            else:
                raise self.error(
                    'dites à quoi s\'applique la capacité : affects = "self" (ce permanent), "enchanted" '
                    '(le permanent enchanté), "equipped" (la créature équipée), ou affects_all = { … } '
                    "(tous les permanents qui correspondent, 418.4a).",
                    table,
                    index,
                    "affects",
                )
            if defining and affects.scope is not Scope.SELF:
                raise self.error(
                    "une capacité de définition de caractéristique définit les caractéristiques de son propre "
                    'objet : affects = "self".',
                    table,
                    index,
                    "characteristic_defining",
                )
            timestamp = 0
        else:
            if "timestamp" not in data:
                raise self.error(
                    "clé obligatoire absente : un effet reçoit un tampon horaire quand il est créé (418.5g).",
                    table,
                    index,
                    "timestamp",
                )
            timestamp = self.integer(data, "timestamp", table, index, 0)
            if "affects" not in data:
                raise self.error(
                    "clé obligatoire absente : les identifiants des objets affectés, fixés quand l'effet a "
                    'commencé (418.3b), par exemple affects = ["ours"].',
                    table,
                    index,
                    "affects",
                )
            ids = self.strings(data, "affects", table, index)
            if not ids:
                raise self.error("la liste des objets affectés est vide.", table, index, "affects")
            affects = Affects(Scope.OBJECTS, ids=tuple(ids))
        return ContinuousEffect(
            id=effect_id,
            operations=operations,
            affects=affects,
            text=self.string(data, "text", table, index),
            characteristic_defining=defining,
            timestamp=timestamp,
            line=self.lines.tables.get((table, index), 0),
        )

    def scope(self, data, table, index) -> Scope:
        value = data["affects"]
        if isinstance(value, str):
            for scope, forms in _SCOPES.items():
                if vocab.key(value) in {vocab.key(form) for form in forms}:
                    return scope
        raise self.error(
            f'{_shown(value)} : une capacité statique s\'applique à "self", "enchanted" ou "equipped", '
            "ou à tous les permanents d'un ensemble avec affects_all = { … } ; pour des objets précis, "
            "décrivez l'effet résolu dans une table [[effect]].",
            table,
            index,
            "affects",
        )

    # -- tables -------------------------------------------------------------

    def tables(self, data: dict, key: str) -> list[dict]:
        value = data.get(key, [])
        if isinstance(value, dict):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise self.error(f"« {key} » doit être une suite de tables [[{key}]], pas {_shown(value)}.", key=key)
        return value

    def player(self, data: dict, index: int) -> Player:
        table = "player"
        self.check_keys(data, PLAYER_KEYS, table, index)
        guard = self.guard
        return Player(
            name=guard(lambda: self.string(data, "name", table, index, required=True), ""),
            life=guard(lambda: self.integer(data, "life", table, index, 20), 20),
            poison=guard(lambda: self.integer(data, "poison", table, index, 0, minimum=0), 0),
            drew_from_empty_library=guard(lambda: self.boolean(data, "drew_from_empty_library", table, index), False),
            line=self.lines.tables.get((table, index), 0),
        )

    def game_object(self, data: dict, table: str, index: int) -> GameObject:
        """A ``[[permanent]]`` or ``[[spell]]`` table. Each mistake is noted
        and the key read as its default, so that every mistake of the table
        is reported."""
        allowed = PERMANENT_KEYS if table == "permanent" else SPELL_KEYS
        self.check_keys(data, allowed, table, index)
        guard = self.guard
        name = guard(lambda: self.string(data, "name", table, index, required=True), "")
        object_id = guard(lambda: self.string(data, "id", table, index, default=""), "")
        if "id" in data and not object_id and isinstance(data["id"], str):
            self.report(self.error("l'identifiant ne peut pas être vide.", table, index, "id"))
        controller = guard(lambda: self.string(data, "controller", table, index, required=True), "")
        card_types = guard(
            lambda: frozenset(self.terms(data, "card_types", table, index, vocab.CARD_TYPES, "un type de carte")),
            frozenset(),
        )
        default_zone = Zone.BATTLEFIELD if table == "permanent" else Zone.STACK
        zone = guard(lambda: self.zone(data, table, index, default_zone), default_zone)
        power, toughness = (
            guard(lambda key=key: self.power_toughness(data, key, table, index), None) for key in ("power", "toughness")
        )
        is_creature = CardType.CREATURE in card_types
        for key, value in (("power", power), ("toughness", toughness)):
            if key in data and not is_creature and (card_types or "card_types" not in data):
                self.report(
                    self.error(
                        'seule une créature a une force et une endurance : ajoutez card_types = ["créature"].',
                        table,
                        index,
                        key,
                    )
                )
                break  # one mistake for both keys
            elif key not in data and is_creature and zone in (Zone.BATTLEFIELD, Zone.STACK):
                self.report(
                    self.absent(
                        f"une créature {zone.label} doit avoir une force et une endurance (power et toughness), "
                        'des nombres entiers ou "*" quand une capacité les définit (208.2).',
                        table,
                        index,
                        key,
                    )
                )
        if zone is Zone.BATTLEFIELD and card_types & NON_PERMANENT_TYPES:
            kind = ", ".join(sorted(t.label for t in card_types & NON_PERMANENT_TYPES))
            self.report(
                self.error(
                    f"un {kind} ne peut pas être en jeu (212.5, 212.6) : donnez une autre zone ou un autre type.",
                    table,
                    index,
                    "zone" if "zone" in data else "card_types",
                )
            )
        statics = guard(lambda: self.statics(data, index), ()) if table == "permanent" else ()
        stars = [key for key in ("power", "toughness") if data.get(key) == "*"]
        if stars and zone is Zone.BATTLEFIELD and is_creature and not _defines_power_toughness(statics):
            self.report(
                self.error(
                    "une force ou une endurance « * » est définie par une capacité de l'objet (208.2) : ajoutez "
                    "une capacité statique [[permanent.static]] avec characteristic_defining = true, "
                    'affects = "self" et set_power_toughness (par exemple { count = { … } }).',
                    table,
                    index,
                    stars[0],
                )
            )
        return GameObject(
            id=object_id,
            name=name,
            controller=controller,
            owner=guard(lambda: self.string(data, "owner", table, index, default=controller), "") or controller,
            card_types=card_types,
            subtypes=guard(
                lambda: tuple(
                    dict.fromkeys(vocab.canonical_subtype(s) for s in self.strings(data, "subtypes", table, index))
                ),
                (),
            ),
            supertypes=guard(
                lambda: frozenset(self.terms(data, "supertypes", table, index, vocab.SUPERTYPES, "un sur-type")),
                frozenset(),
            ),
            colors=guard(
                lambda: frozenset(self.terms(data, "colors", table, index, vocab.COLORS, "une couleur")), frozenset()
            ),
            mana_value=guard(lambda: self.integer(data, "mana_value", table, index, 0, minimum=0), 0),
            power=power,
            toughness=toughness,
            abilities=guard(lambda: tuple(self.strings(data, "abilities", table, index)), ()),
            damage=guard(lambda: self.integer(data, "damage", table, index, 0, minimum=0), 0),
            counters=guard(lambda: self.counters(data, table, index), {}),
            token=guard(lambda: self.boolean(data, "token", table, index), False),
            copy_of_card=guard(lambda: self.boolean(data, "copy_of_card", table, index), False),
            spell_copy=guard(lambda: self.boolean(data, "copy", table, index), False),
            zone=zone,
            attached_to=guard(lambda: self.string(data, "attached_to", table, index), ""),
            enchant=guard(lambda: self.enchant(data, table, index), ()),
            timestamp=guard(lambda: self.integer(data, "timestamp", table, index, 0), 0),
            since=guard(lambda: self.integer(data, "since", table, index, None), None),
            source=table,
            line=self.lines.tables.get((table, index), 0),
            statics=statics,
            regeneration_shields=guard(
                lambda: self.integer(data, "regeneration_shields", table, index, 0, minimum=0), 0
            ),
            tapped=guard(lambda: self.boolean(data, "tapped", table, index), False),
        )

    def power_toughness(self, data, key, table, index) -> int | None:
        """A printed power or toughness: an integer, or ``"*"`` (None: defined
        by a characteristic-defining ability in play, 0 elsewhere, 208.2)."""
        value = data.get(key)
        if value == "*":
            return None
        if isinstance(value, str):
            raise self.error(
                f'un nombre entier est attendu, ou "*" quand une capacité le définit (208.2), pas « {value} ».',
                table,
                index,
                key,
            )
        return self.integer(data, key, table, index, None)

    def statics(self, data: dict, index: int) -> tuple[ContinuousEffect, ...]:
        """The ``[[permanent.static]]`` tables of the ``index``-th permanent."""
        value = data.get("static", [])
        if isinstance(value, dict):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise self.error(
                f"« static » doit être une suite de tables [[permanent.static]], pas {_shown(value)}.",
                "permanent",
                index,
                "static",
            )
        found: list[ContinuousEffect] = []
        for item in value:
            table_index = self.static_count
            self.static_count += 1
            effect = self.guard(
                lambda item=item, table_index=table_index: self.continuous_effect(item, "permanent.static", table_index)
            )
            if effect is not None:
                self.static_tables[(index, len(found))] = table_index
                found.append(effect)
        return tuple(found)

    def read(self) -> Scenario:
        try:
            data = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as error:
            raise _syntax_error(error, self.path, self.text) from None
        except RecursionError:  # a safety net: the scan before parsing refuses deep nesting
            raise ScenarioError(
                "listes ou tables imbriquées trop profondément ; simplifiez le fichier.", self.path
            ) from None
        except ValueError:  # a number of more than 4 300 digits: Python's limit for reading an integer
            raise ScenarioError(
                "un nombre du fichier a plus de 4 300 chiffres ; écrivez un nombre plus court.", self.path
            ) from None
        guard = self.guard
        self.check_keys(data, TOP_KEYS, "", 0)
        title = guard(lambda: self.string(data, "title", "", 0), "")
        edition = guard(lambda: self.string(data, "edition", "", 0), "")
        if edition and edition not in EDITIONS:
            self.report(
                self.error(
                    f"le vérificateur ne sait pas appliquer l'édition « {edition} ». "
                    f"Éditions possibles : {', '.join(EDITIONS)}.",
                    key="edition",
                )
            )
            edition = ""
        players = [self.player(item, i) for i, item in enumerate(guard(lambda: self.tables(data, "player"), []))]
        items = [
            (table, i, item)
            for table in ("permanent", "spell")
            for i, item in enumerate(guard(lambda table=table: self.tables(data, table), []))
        ]
        # Written as inline arrays, which the scan before parsing does not count.
        statics = sum(
            len(item.get("static", ()))
            for _, _, item in items
            if isinstance(item, dict) and isinstance(item.get("static", ()), list)
        )
        effect_tables = data.get("effect", ())
        _refuse_counts(len(items), statics + (len(effect_tables) if isinstance(effect_tables, list) else 0), self.path)
        objects = [self.game_object(item, table, i) for table, i, item in items]
        if not players and not objects and not self.problems:
            empty = "le texte est vide" if not data else "aucun joueur ni objet"
            raise ScenarioError(
                f"{empty} ; un scénario décrit au moins une table [[player]], [[permanent]] ou [[spell]].", self.path
            ).with_remedy(Remedy.START_FROM_EXAMPLE)
        players = self._check_players(players, objects)
        objects = self._check_objects(objects, players, [("timestamp" in item) for _, _, item in items])
        effects = [
            guard(lambda item=item, i=i: self.continuous_effect(item, "effect", i))
            for i, item in enumerate(guard(lambda: self.tables(data, "effect"), []))
        ]
        objects, named_effects = self._check_effects(objects, effects, players)
        names = [player.name for player in players]
        active = guard(lambda: self.string(data, "active_player", "", 0), "")
        if active and active not in names:
            self.report(
                self.error(
                    f"« {active} » n'est pas un joueur du scénario. Joueurs : {', '.join(names)}.", key="active_player"
                )
            )
        if self.problems:
            raise ScenarioError.gathered(self.problems)
        state = GameState(
            edition=edition,
            players=tuple(players),
            objects=tuple(objects),
            active_player=active or (names[0] if names else ""),
            path=self.path,
            effects=tuple(named_effects),
        )
        return Scenario(state, edition, title, self.path)

    def _check_players(self, players: list[Player], objects: list[GameObject]) -> list[Player]:
        seen: set[str] = set()
        for index, player in enumerate(players):
            if player.name and player.name in seen:
                self.report(self.error(f"deux joueurs s'appellent « {player.name} ».", "player", index, "name"))
            seen.add(player.name)
        if players:
            names = ", ".join(player.name for player in players)
            counts: dict[str, int] = {}
            for obj in objects:
                index = counts.get(obj.source, 0)
                counts[obj.source] = index + 1
                for key in ("controller", "owner"):
                    name = getattr(obj, key)
                    if key == "owner" and name == obj.controller:
                        continue  # the default owner: the controller, already checked
                    if name and name not in seen:
                        self.report(
                            self.error(
                                f"« {name} » n'est pas un joueur du scénario. Joueurs : {names} "
                                "(ajoutez une table [[player]] pour ce joueur).",
                                obj.source,
                                index,
                                key,
                            )
                        )
            return players
        inferred = dict.fromkeys(name for obj in objects for name in (obj.controller, obj.owner))
        return [Player(name) for name in inferred]

    def _check_objects(
        self, objects: list[GameObject], players: list[Player], explicit_timestamps: list[bool]
    ) -> list[GameObject]:

        ids: dict[str, int] = {}
        positions = []
        counts: dict[str, int] = {}
        for obj in objects:
            index = counts.get(obj.source, 0)
            counts[obj.source] = index + 1
            positions.append((obj.source, index))
            if obj.id:
                if obj.id in ids:
                    self.report(self.error(f"l'identifiant « {obj.id} » est déjà pris.", obj.source, index, "id"))
                ids[obj.id] = 1
        named = []
        for obj in objects:
            object_id = obj.id
            if not object_id:
                base = _slug(obj.name) or obj.source
                object_id, number = base, 1
                while object_id in ids:
                    number += 1
                    object_id = f"{base}-{number}"
                ids[object_id] = 1
            named.append(replace(obj, id=object_id))
        # Default timestamps: the order of the tables in the file (418.5e).
        order = sorted(range(len(named)), key=lambda i: (named[i].line, i))
        rank = {position: number for number, position in enumerate(order, 1)}
        player_names = {player.name for player in players}
        checked = []
        for position, obj in enumerate(named):
            table, index = positions[position]
            if obj.attached_to and obj.attached_to not in ids and obj.attached_to not in player_names:
                known = ", ".join(sorted(ids))
                self.report(
                    self.error(
                        f"« {obj.attached_to} » n'est ni un objet ni un joueur du scénario. Identifiants : {known}.",
                        table,
                        index,
                        "attached_to",
                    )
                )
            timestamp = obj.timestamp if explicit_timestamps[position] else rank[position]
            checked.append(replace(obj, timestamp=timestamp))
        return checked

    def _check_effects(
        self, objects: list[GameObject], effects: list[ContinuousEffect | None], players: list[Player]
    ) -> tuple[list[GameObject], list[ContinuousEffect]]:
        """Give static abilities and effects their ids and check what they name:
        unique ids, objects that exist, players of the scenario."""

        object_ids = {obj.id for obj in objects}
        taken = set(object_ids)
        places: list[tuple[ContinuousEffect, str, int]] = []
        named_objects = []
        counts: dict[str, int] = {}
        for obj in objects:
            index = counts.get(obj.source, 0)
            counts[obj.source] = index + 1
            statics = []
            for number, effect in enumerate(obj.statics):
                place = ("permanent.static", self.static_tables[(index, number)])
                effect = _name_granted(replace(effect, id=effect.id or f"{obj.id}#{number + 1}", origin=obj.id))
                statics.append(effect)
                places.append((effect, *place))
            named_objects.append(replace(obj, statics=tuple(statics)))
        named_effects = []
        for index, effect in enumerate(effects):
            if effect is None:  # its mistake is already noted
                continue
            effect = _name_granted(replace(effect, id=effect.id or f"effet-{index + 1}"))
            named_effects.append(effect)
            places.append((effect, "effect", index))
        names = {player.name for player in players}
        known = ", ".join(sorted(object_ids))
        for effect, table, index in places:
            if effect.id in taken or effect.id in RESERVED_IDS:
                self.report(self.error(f"l'identifiant « {effect.id} » est déjà pris.", table, index, "id"))
            taken.add(effect.id)
            for object_id in effect.affects.ids:
                if object_id not in object_ids:
                    self.report(
                        self.error(
                            f"« {object_id} » n'est pas un objet du scénario. Identifiants : {known}.",
                            table,
                            index,
                            "affects",
                        )
                    )
            for operation, value in effect.operations:
                if operation is Operation.COPY_OF and value not in object_ids:
                    self.report(
                        self.error(
                            f"« {value} » n'est pas un objet du scénario. Identifiants : {known}.",
                            table,
                            index,
                            "copy_of",
                        )
                    )
                if operation is Operation.COPY_OF and (
                    value == effect.origin and effect.affects.scope is Scope.SELF or value in effect.affects.ids
                ):
                    self.report(
                        self.error("un objet ne peut pas devenir une copie de lui-même.", table, index, "copy_of")
                    )
                if operation is Operation.SET_CONTROLLER and value == YOU and not effect.origin:
                    self.report(
                        self.error(
                            "« vous » désigne le contrôleur du permanent qui a la capacité (212.4i) : pour un effet "
                            "résolu, donnez le nom du joueur.",
                            table,
                            index,
                            "set_controller",
                        )
                    )
                elif operation is Operation.SET_CONTROLLER and value not in names and value != YOU:
                    self.report(
                        self.error(
                            f"« {value} » n'est pas un joueur du scénario. Joueurs : {', '.join(sorted(names))}.",
                            table,
                            index,
                            "set_controller",
                        )
                    )
            selectors = [("affects_all.controller", effect.affects.selector)] + [
                (f"{operation.value}.count.controller", value.selector)
                for operation, value in effect.operations
                if isinstance(value, Count)
            ]
            for key, selector in selectors:
                if selector and selector.controller not in ("", YOU, OPPONENT) and selector.controller not in names:
                    self.report(
                        self.error(
                            f"« {selector.controller} » n'est pas un joueur du scénario. Valeurs possibles : "
                            f"« vous », « adversaire » ou un joueur ({', '.join(sorted(names))}).",
                            table,
                            index,
                            key,
                        )
                    )
        return named_objects, named_effects


def _name_granted(effect: ContinuousEffect) -> ContinuousEffect:
    """``effect`` with ids given to the static abilities it grants:
    ``"<effect id>+<n>"`` unless the scenario names them."""
    operations = []
    for operation, value in effect.operations:
        if operation is Operation.ADD_STATICS:
            value = tuple(
                replace(granted, id=granted.id or f"{effect.id}+{number}") for number, granted in enumerate(value, 1)
            )
        operations.append((operation, value))
    return replace(effect, operations=tuple(operations))


def _shown(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"« {value} »"
    if isinstance(value, list):
        return "une liste"
    if isinstance(value, dict):
        return "une table"
    return f"« {value} »"


def _counter_name(name: str) -> str:
    """Canonical counter name: ``"+1/+1"`` for any spelling of a +X/+Y counter, else trimmed."""
    modifier = power_toughness_counter(name)
    if modifier:
        return f"{modifier[0]:+d}/{modifier[1]:+d}"
    return " ".join(name.split())


#: What "Enchanter :" accepts, for error messages.
_ENCHANT_FORMS = (
    "Formes possibles : un type de carte (artefact, créature, enchantement, terrain), « permanent », « joueur », "
    "une couleur, un sur-type ou un sous-type d'un mot, joints par un trait d'union ou une espace "
    "(« créature-artefact »), suivis au besoin de « que vous contrôlez » ou « qu'un adversaire contrôle »."
)


def _defines_power_toughness(statics: tuple[ContinuousEffect, ...]) -> bool:
    """Whether one of ``statics`` is a characteristic-defining ability that sets power and toughness (208.2)."""
    return any(
        effect.characteristic_defining and any(op is Operation.SET_POWER_TOUGHNESS for op, _ in effect.operations)
        for effect in statics
    )


def _known_designation(words: str) -> str | None:
    """The canonical form of a designation that is a type, supertype, colour,
    « permanent » or « joueur », or None."""
    for table in (vocab.ENCHANT_WORDS, vocab.CARD_TYPES, vocab.SUPERTYPES, vocab.COLORS):
        member = vocab.resolve(table, words)
        if member is not None:
            return vocab.french(table, member)
    return None


def _designation(word: str) -> str | None:
    """The canonical form of one "Enchanter :" designation (212.4c), or None
    for a misspelt card type."""
    for table in (vocab.ENCHANT_WORDS, vocab.CARD_TYPES, vocab.SUPERTYPES, vocab.COLORS):
        member = vocab.resolve(table, word)
        if member is not None:
            return vocab.french(table, member)
    from rapidfuzz import fuzz  # deferred: rapidfuzz (8 ms), only for a misspelt designation

    forms = (form for forms in vocab.CARD_TYPES.values() for form in forms)
    if max(fuzz.ratio(vocab.key(word), vocab.key(form)) for form in forms) >= 80:
        return None  # "creture": a misspelt card type, not a subtype
    return vocab.canonical_subtype(word)


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", fold(name)).strip("-")


def _syntax_error(error: tomllib.TOMLDecodeError, path: str, text: str) -> ScenarioError:
    """A French :class:`ScenarioError` for a TOML syntax error in ``text``."""
    message, line = toml_syntax.describe(error, text)
    return ScenarioError(message, path, line)


#: The largest scenario read, in bytes (a real one is a few kilobytes),
#: and the most objects (permanents and spells) it may describe: beyond,
#: reading and checking would take seconds to minutes.
MAX_BYTES = 1_000_000
MAX_OBJECTS = 500
#: The most continuous effects (``[[permanent.static]]`` and ``[[effect]]``
#: tables): each may apply to every permanent, and every step is shown.
MAX_EFFECTS = 100

_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*(permanent|spell|effect|permanent[ \t]*\.[ \t]*static)[ \t]*\]\]", re.MULTILINE)


def _refuse_oversized(text: str, path: str) -> None:
    """Raise :class:`ScenarioError` before parsing a text too large, nested
    too deep or with too long a line (:func:`rules_kb.core.toml_syntax.refused`),
    or with too many object tables (counted on the text)."""
    if len(text) > MAX_BYTES:
        raise ScenarioError(
            f"scénario trop grand (plus de {spaced(MAX_BYTES)} caractères) ; "
            "un scénario décrit une situation de jeu en quelques kilo-octets.",
            path,
        )
    why = toml_syntax.refused(text)
    if why:
        raise ScenarioError(why[0], path, why[1])
    headers = [match.group(1) for match in _HEADER.finditer(text)]
    _refuse_counts(
        sum(kind in ("permanent", "spell") for kind in headers),
        sum(kind not in ("permanent", "spell") for kind in headers),
        path,
    )


def _refuse_counts(objects: int, effects: int, path: str) -> None:
    """Raise :class:`ScenarioError` for over :data:`MAX_OBJECTS` objects or :data:`MAX_EFFECTS` effects."""
    if objects > MAX_OBJECTS:
        raise ScenarioError(
            f"{spaced(objects)} objets décrits ; au plus {spaced(MAX_OBJECTS)} "
            "([[permanent]] et [[spell]]) : gardez ceux qui comptent pour la situation.",
            path,
        )
    if effects > MAX_EFFECTS:
        raise ScenarioError(
            f"{spaced(effects)} effets continus décrits ; au plus {spaced(MAX_EFFECTS)} "
            "([[permanent.static]] et [[effect]]) : gardez ceux qui comptent pour la situation.",
            path,
        )


def check_size(scenario: Scenario) -> None:
    """Raise :class:`ScenarioError` for a scenario built in memory that
    describes more objects than :data:`MAX_OBJECTS` or more continuous
    effects than :data:`MAX_EFFECTS`: the bounds of a file read."""
    state = scenario.state
    statics = sum(len(obj.statics) for obj in state.objects)
    _refuse_counts(len(state.objects), statics + len(state.effects), scenario.path)


def parse_scenario(text: str, path: str = "") -> Scenario:
    """Read a scenario from its TOML ``text``; ``path`` names it in errors.

    Returns a :class:`Scenario`; raises :class:`ScenarioError`, also before
    parsing for a text over :data:`MAX_BYTES` characters, nested too deep,
    with a line too long, or with over :data:`MAX_OBJECTS` objects. A
    byte-order mark opening the text (what Windows editors write at the start
    of a UTF-8 file, read as U+FEFF) is left out, as a file read from disk.
    """
    text = text.removeprefix("\ufeff")
    _refuse_oversized(text, path)
    return _Reader(text, path).read()


def load_scenario(path: str) -> Scenario:
    """Read the scenario file at ``path`` (UTF-8 TOML; ``"-"``: standard input).

    Raises :class:`ScenarioError` when it cannot be read or is not a valid
    scenario.
    """
    if path == STDIN:
        shown = "<entrée standard>"
        try:
            data = sys.stdin.buffer.read(MAX_BYTES + 1)
        except OSError as error:
            raise ScenarioError(f"lecture impossible ({describe_os_error(error)}).", shown) from None
    else:
        shown = shortened(path, 300)
        file = Path(path)
        try:
            with file.open("rb") as stream:
                data = stream.read(MAX_BYTES + 1)  # /dev/zero stops here
        except IsADirectoryError:
            raise ScenarioError("c'est un dossier, pas un fichier de scénario (.toml).", shown) from None
        except OSError as error:
            problem = ScenarioError(f"lecture impossible ({describe_os_error(error)}).", shown)
            if error.errno == errno.ENOENT:
                problem.remedy = Remedy.START_FROM_EXAMPLE
            raise problem from None
    if len(data) > MAX_BYTES:
        raise ScenarioError(
            f"fichier trop grand (plus de {spaced(MAX_BYTES)} octets) ; un scénario décrit "
            "une situation de jeu en quelques kilo-octets.",
            shown,
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ScenarioError(
            "le fichier n'est pas en UTF-8 ; enregistrez-le en UTF-8 et réessayez.", shown, line
        ) from None
    return parse_scenario(text, shown)
