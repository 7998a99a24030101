"""A step of ``ask``: the mechanisms a player's story implies without naming them.

A story tells what happened ("il renvoie ma cible dans sa main en réponse"),
not the rule's concept ("cible illégale"). Each *mechanism* of
``rules_kb/data/mechanisms.jsonl`` says, as data, which stories raise it and
which rules decide it: one JSON object a line,
``{"mechanism", "rules", "edition", "all", "any", "none", "twice", "facts",
"source"}`` — ``mechanism`` in a judge's words ("une cible qui change ou
s'en va avant la résolution"), the ``rules`` of that ``edition`` it points
to, regular expressions over the question (folded: lowercase, no accents)
of which ``all`` must match, one of ``any`` (if given), none of ``none``,
each of ``twice`` at least twice; ``facts`` a condition on the facts read
(``"several_effects"``: a creature with two changes or more, one of them an
effect); ``source`` the rules (or the usage) its words come from, never an
evaluation question.

Each rule of a mechanism found becomes a candidate with the part
``mechanisms`` (1 a mechanism), whose weight is learned with the others
(:mod:`rules_kb.ask.fusion`); its reason is the mechanism, in a judge's
words: "la question parle de …".
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from rules_kb.ask.facts import Facts
from rules_kb.ask.reading import Reading
from rules_kb.core.jsonl import JsonLinesError, read_json_lines
from rules_kb.core.model import rule_node
from rules_kb.core.text import fold_aligned

#: The bundled mechanisms.
MECHANISMS_FILE = Path(__file__).resolve().parent.parent / "data" / "mechanisms.jsonl"
#: The conditions a mechanism may put on the facts.
FACT_CONDITIONS = ("several_effects",)


class MechanismsFileError(JsonLinesError):
    """A line of a mechanisms file is not a valid mechanism (``line``, from 1)."""


class Mechanism(NamedTuple):
    """One mechanism (module docstring): its ``name``, ``rules``, ``edition``,
    compiled patterns ``all``/``any``/``none``/``twice``, ``facts``
    condition (``""``: none), ``source`` and ``line`` in the file."""

    name: str
    rules: tuple[str, ...]
    edition: str
    all: tuple[re.Pattern, ...]
    any: tuple[re.Pattern, ...]
    none: tuple[re.Pattern, ...]
    twice: tuple[re.Pattern, ...]
    facts: str
    source: str
    line: int

    def raised_by(self, folded: str, facts: Facts) -> bool:
        """Whether a question (``folded``, :func:`rules_kb.core.text.fold_aligned`) with ``facts`` raises it."""
        return (
            all(pattern.search(folded) for pattern in self.all)
            and (not self.any or any(pattern.search(folded) for pattern in self.any))
            and not any(pattern.search(folded) for pattern in self.none)
            and all(len(pattern.findall(folded)) >= 2 for pattern in self.twice)
            and (not self.facts or _FACTS[self.facts](facts))
        )


def _several_effects(facts: Facts) -> bool:
    return any(
        len(creature.changes) >= 2 and any(kind != "counter" for _, kind, _, _ in creature.changes)
        for creature in facts.creatures
    )


_FACTS = {"several_effects": _several_effects}


def read_mechanisms(path: str | Path = MECHANISMS_FILE) -> tuple[Mechanism, ...]:
    """The mechanisms of a file, in file order. Raises
    :class:`MechanismsFileError` for a line that is not an object with a
    ``mechanism``, a list of ``rules``, an ``edition`` and a ``source``, at
    least one condition, valid regular expressions and a known ``facts``."""
    found = []
    for number, data in read_json_lines(path, MechanismsFileError):
        if not isinstance(data, dict) or not all(
            isinstance(data.get(key), str) and data[key] for key in ("mechanism", "edition", "source")
        ):
            raise MechanismsFileError("objet {mechanism, rules, edition, source, …} attendu", str(path), number)
        rules = data.get("rules")
        if not isinstance(rules, list) or not rules or not all(isinstance(rule, str) for rule in rules):
            raise MechanismsFileError("« rules » doit être une liste non vide de numéros de règle", str(path), number)
        lists = {}
        for key in ("all", "any", "none", "twice"):
            value = data.get(key, [])
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                raise MechanismsFileError(f"« {key} » doit être une liste d'expressions régulières", str(path), number)
            try:
                lists[key] = tuple(re.compile(item) for item in value)
            except re.error as error:
                raise MechanismsFileError(
                    f"expression régulière invalide dans « {key} » ({error})", str(path), number
                ) from None
        facts = data.get("facts", "")
        if facts and facts not in FACT_CONDITIONS:
            raise MechanismsFileError(
                f"condition « facts » inconnue : {facts!r} (possibles : {', '.join(FACT_CONDITIONS)})",
                str(path),
                number,
            )
        if not (lists["all"] or lists["any"] or lists["twice"] or facts):
            raise MechanismsFileError(
                "au moins une condition (all, any, twice ou facts) est attendue", str(path), number
            )
        found.append(Mechanism(data["mechanism"], tuple(rules), data["edition"], lists["all"], lists["any"], lists["none"],
                               lists["twice"], facts, data["source"], number))  # fmt: skip
    return tuple(found)


_bundled: tuple[Mechanism, ...] | None = None


def bundled_mechanisms() -> tuple[Mechanism, ...]:
    """The bundled mechanisms, read once."""
    global _bundled
    if _bundled is None:
        _bundled = read_mechanisms()
    return _bundled


def detect(question: str, facts: Facts, mechanisms: tuple[Mechanism, ...] | None = None) -> list[Mechanism]:
    """The mechanisms ``question`` (with its ``facts``) raises, in file order."""
    folded = fold_aligned(question)
    return (
        [mechanism for mechanism in bundled_mechanisms() if mechanism.raised_by(folded, facts)]
        if mechanisms is None
        else [mechanism for mechanism in mechanisms if mechanism.raised_by(folded, facts)]
    )


def weigh_mechanisms(reading: Reading) -> None:
    """Part ``mechanisms``: the rules of the mechanisms the question raises."""
    kb = reading.kb
    for mechanism in detect(reading.question, reading.facts):
        if reading.edition and reading.edition != mechanism.edition:
            continue
        for number in mechanism.rules:
            rule = kb.rule(number, mechanism.edition)
            if rule is not None:
                reading.candidates.add(rule_node(rule), "mechanisms", 1.0, f"la question parle {_of(mechanism.name)}")


def _of(name: str) -> str:
    """« de » before a judge's phrase, elided or contracted as French wants it."""
    if name.startswith(("un ", "une ")):
        return "d'" + name
    if name.startswith("des "):
        return name
    if name.startswith("le "):
        return "du " + name[3:]
    if name.startswith("les "):
        return "des " + name[4:]
    return "de " + name
