"""``check``: a scenario run against the corpus — the continuous effects
applied in layers, the state-based effects performed, with the French text
of every rule applied, read from the corpus; and the bundled examples.

>>> from rules_kb import loader
>>> report = check(loader.open(), "scenario.toml")  # doctest: +SKIP
>>> report.resolution.outcome.draw  # doctest: +SKIP
False
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from rules_kb.checker.budget import CHECK_SECONDS, limited
from rules_kb.checker.characteristics import Characteristics
from rules_kb.checker.editions import EDITIONS, Edition, UnsupportedEditionError
from rules_kb.checker.layers import Layering, StepKind
from rules_kb.checker.scenario import Scenario, ScenarioError, load_scenario, parse_scenario
from rules_kb.checker.state import GameState
from rules_kb.checker.state_based import Event, Resolution, run
from rules_kb.core.errors import Remedy, RulesKbError
from rules_kb.core.model import RecordKind, Rule, Ruling
from rules_kb.core.numbers import RuleNumber, RuleNumberError
from rules_kb.core.text import shortened, spaced
from rules_kb.core.vocabulary import CardType
from rules_kb.loader import KnowledgeBase


@dataclass(frozen=True, slots=True)
class CheckReport:
    """A scenario checked: the scenario as read, the :class:`Resolution`
    (rounds with the characteristics of each state, final state, outcome),
    ``texts``, the corpus record of every rule cited (events, their
    ``see_also``, the events stopped by an effect that changes the rules
    and 103.1, layer steps, the draw rule), by number, and
    ``switch_ruling``, the FAQ ruling the edition follows for switching
    power and toughness when a switch was applied by it; ``full_trace``:
    whether the layers' full trace was asked for (its size checked), not
    their summary (:func:`rules_kb.serialize.check_dict`)."""

    scenario: Scenario
    resolution: Resolution
    texts: dict[str, Rule]
    switch_ruling: Ruling | None = None
    full_trace: bool = False

    @property
    def edition(self) -> Edition:
        """The edition followed."""
        return self.resolution.edition

    @property
    def layering(self) -> Layering:
        """The continuous effects applied to the starting state."""
        return self.resolution.initial_layering


def choose_edition(kb, scenario: Scenario, override: str | None = None) -> Edition:
    """The edition to follow: ``override`` (``--edition``), else the
    scenario's, else the corpus's newest complete edition. Raises
    :class:`UnsupportedEditionError` for an edition the checker cannot follow
    and :class:`rules_kb.core.errors.UnknownEditionError` for one the corpus
    lacks."""
    wanted = (override or "").strip() or scenario.edition or kb.default_edition
    if wanted not in EDITIONS:
        kb.check_edition(wanted)  # an edition of no document: say so first
        where = "" if override else (f"Scénario « {scenario.path} » : " if scenario.path else "")
        raise UnsupportedEditionError(wanted, tuple(EDITIONS), where)
    edition = EDITIONS[wanted]
    for text_edition in edition.text_editions:
        kb.check_edition(text_edition)
    return edition


def rule_text(kb, number: str, edition: Edition) -> Rule | None:
    """The rule ``number`` as ``edition`` words it: from the first of its
    text editions that has it (a FAQ quotes only what changed), or None."""
    for text_edition in edition.text_editions:
        found = kb.rule(number, text_edition)
        if found is not None:
            return found
    return None


def check(
    kb: KnowledgeBase,
    scenario: Scenario | str | os.PathLike[str],
    edition: str | None = None,
    full_trace: bool = False,
) -> CheckReport:
    """Check a scenario: a path to a TOML file (``"-"``: standard input) or a
    :class:`Scenario`; ``edition`` overrides the scenario's; ``full_trace``:
    the layers' full trace rather than its summary. Raises
    :class:`ScenarioError` for an unusable file and the errors of
    :func:`check_scenario`."""
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(os.fspath(scenario))
    return check_scenario(kb, scenario, edition, full_trace=full_trace)


def check_scenario(
    kb: KnowledgeBase,
    scenario: Scenario,
    edition: str | None = None,
    seconds: float | None = CHECK_SECONDS,
    full_trace: bool = False,
) -> CheckReport:
    """Run the state-based effects on ``scenario`` and gather the texts of the
    rules applied. ``edition`` overrides the scenario's; ``full_trace``: the
    report gives the layers' full trace, not its summary. Raises the errors of
    :func:`choose_edition`, :class:`rules_kb.checker.budget.CheckTooLongError`
    when the check takes more than ``seconds`` of CPU time (None: no limit),
    and :class:`TraceTooLargeError` when a full trace asked for is beyond
    :data:`FULL_TRACE_LIMIT`."""
    chosen = choose_edition(kb, scenario, edition)
    with limited(seconds):
        resolution = run(scenario.state, chosen)
    layering = resolution.initial_layering
    if full_trace:
        check_trace_size(layering)
    steps = [step for result in layering.layers for step in result.steps]
    numbers = [number for step in steps for number in step.rules]
    if steps:
        numbers.insert(0, "418.5a")
    numbers += [number for event in resolution.events for number in (event.rule, *event.see_also)]
    numbers += [number for _, stopped in resolution.stopped for number in stopped.rules]
    if resolution.outcome.draw:
        numbers.append(chosen.draw_rule)
    texts = {}
    for number in dict.fromkeys(numbers):
        found = rule_text(kb, number, chosen)
        if found is not None:
            texts[number] = found
    ruling = None
    if any(step.kind is StepKind.SWITCH_LAST for step in steps):
        ruling = edition_ruling(kb, chosen)
    texts = dict(sorted(texts.items(), key=lambda item: _rule_order(item[0])))
    return CheckReport(scenario, resolution, texts, ruling, full_trace)


#: The most object mentions a full trace may hold (:func:`trace_size`): about 10 MB of JSON.
FULL_TRACE_LIMIT = 100_000


class TraceTooLargeError(RulesKbError):
    """A full trace asked for would name objects more than :data:`FULL_TRACE_LIMIT` times (``size``)."""

    def __init__(self, size: int) -> None:
        self.size = size
        super().__init__(
            f"La trace complète de ce scénario nommerait {spaced(size)} fois un objet (au plus "
            f"{spaced(FULL_TRACE_LIMIT)}) : demandez la trace résumée, qui montre les premiers effets de chaque "
            "couche et compte les autres."
        )


def trace_size(layering: Layering) -> int:
    """How many times a full trace of ``layering`` names an object: each effect of each
    permanent's history with the objects it modified, and each step of each layer with its objects."""
    size = sum(1 + len(step.objects) for result in layering.layers for step in result.steps)
    for object_id in layering.printed:
        size += sum(1 + len(step.objects) for _, steps in layering.history(object_id) for step in steps)
    return size


def check_trace_size(layering: Layering) -> None:
    """Raise :class:`TraceTooLargeError` when a full trace of ``layering`` is beyond :data:`FULL_TRACE_LIMIT`."""
    size = trace_size(layering)
    if size > FULL_TRACE_LIMIT:
        raise TraceTooLargeError(size)


def _rule_order(number: str):
    try:
        return (0, RuleNumber.parse(number), "")
    except RuleNumberError:  # cannot happen for the checker's own numbers; sorts last
        return (1, None, number)


def edition_ruling(kb, edition: Edition) -> Ruling | None:
    """The FAQ ruling ``edition.switch_ruling`` names, read from the corpus, or None."""
    if edition.switch_ruling is None:
        return None
    card_name, number = edition.switch_ruling
    for card in kb.records(RecordKind.CARD):
        if card.name == card_name and number < len(card.rulings):
            return card.rulings[number]
    return None


# -- characteristics in words -------------------------------------------------------


def type_line(seen: Characteristics) -> str:
    """``"créature légendaire : humain et guerrier"``: the types as a French type line."""
    kinds = sorted(seen.card_types, key=lambda t: (t is not CardType.CREATURE, t.value))
    line = "-".join(t.label for t in kinds) or "sans type"  # "créature-artefact", as printed
    for supertype in sorted(seen.supertypes, key=lambda t: t.value):
        line += " " + supertype.label
    if seen.subtypes:
        line += " : " + " et ".join(seen.subtypes)
    return line


def _colors(seen: Characteristics) -> str:
    return ", ".join(color.label for color in sorted(seen.colors, key=lambda c: c.value)) or "incolore"


def _abilities(seen: Characteristics) -> str:
    texts = list(seen.abilities) + [effect.text or effect.id for effect in seen.statics]
    return "; ".join(texts) if texts else "aucune"


#: The French name of each characteristic, in the order they are shown.
FIELD_LABELS = {
    "name": "nom",
    "controller": "contrôleur",
    "types": "types",
    "colors": "couleurs",
    "abilities": "capacités",
    "power_toughness": "force/endurance",
}


def fields(seen: Characteristics) -> dict[str, str]:
    """Each characteristic of :data:`FIELD_LABELS` in French words."""
    return {
        "name": seen.name,
        "controller": seen.controller,
        "types": type_line(seen),
        "colors": _colors(seen),
        "abilities": _abilities(seen),
        "power_toughness": "" if seen.power is None else f"{seen.power}/{seen.toughness}",
    }


def summary(seen: Characteristics) -> str:
    """``"Ours — créature : ours, noir, 2/2, contrôleur Bob, capacités : vol"``."""
    shown = fields(seen)
    parts = [shown["types"], shown["colors"]]
    if shown["power_toughness"]:
        parts.append(shown["power_toughness"])
    parts.append(f"contrôleur {shown['controller']}")
    parts.append(f"capacités : {shown['abilities']}")
    return f"{shown['name']} — " + ", ".join(parts)


def changes(before: Characteristics, after: Characteristics) -> list[str]:
    """What changed between two moments, in French: ``["couleurs : blanc", "force/endurance : 3/3"]``."""
    old, new = fields(before), fields(after)
    return [f"{FIELD_LABELS[key]} : {new[key] or 'aucune'}" for key in FIELD_LABELS if old[key] != new[key]]


def object_label(state: GameState, object_id: str, ids: bool = True) -> str:
    """``"Ours runegriffe (ours)"``: an object's name and id, or the id alone;
    without ``ids``, its name alone (the id when it has none)."""
    obj = state.object(object_id)
    if obj is None or obj.name == object_id:
        return object_id
    return f"{obj.name} ({object_id})" if ids else obj.name


def describe(event: Event, before: GameState, ids: bool = True) -> str:
    """One French sentence for an event, against the state it was found in:
    ``"Ours runegriffe (ours) : détruit — 2 blessures, endurance 2 :
    blessures fatales (420.5c)"``; without ``ids``, the objects by their
    names alone (a scenario built from a question names them as it does),
    an id the reason quotes too ("reste la plus ancienne, legende-1" →
    "reste la plus ancienne, Légende")."""
    who = [object_label(before, oid, ids) for oid in event.objects] + list(event.players)
    reason = event.reason
    if not ids:
        for obj in before.objects:
            label = object_label(before, obj.id, ids=False)
            reason = re.sub(rf"(?<![\w-]){re.escape(obj.id)}(?![\w-])", lambda _, label=label: label, reason)
    return f"{', '.join(who)} : {event.action.label} — {reason} ({event.rule})"


# -- bundled examples -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Example:
    """A bundled example scenario: ``name`` (file name without ``.toml``),
    its ``title`` and its TOML ``text``."""

    name: str
    title: str
    text: str


class UnknownExampleError(RulesKbError):
    """No bundled example has this name; ``known`` lists them."""

    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        self.name = name
        self.known = known
        super().__init__(f"Aucun exemple ne s'appelle « {shortened(name)} ». Exemples : {', '.join(known)}.")
        self.remedy = Remedy.LIST_EXAMPLES


def examples() -> tuple[Example, ...]:
    """The bundled example scenarios (``rules_kb/checker/examples/*.toml``), by name."""
    folder = Path(__file__).parent / "examples"
    found = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            text = entry.read_text(encoding="utf-8")
            title = parse_scenario(text, entry.name).title
            found.append(Example(entry.name[: -len(".toml")], title, text))
    return tuple(found)


def example(name: str) -> Example:
    """The bundled example called ``name`` (``.toml`` optional); raises :class:`UnknownExampleError`."""
    wanted = name.strip().removesuffix(".toml")
    everything = examples()
    for found in everything:
        if found.name == wanted:
            return found
    raise UnknownExampleError(name, tuple(found.name for found in everything))


__all__ = [
    "CheckReport",
    "Example",
    "ScenarioError",
    "UnknownExampleError",
    "check",
    "check_scenario",
    "choose_edition",
    "describe",
    "example",
    "examples",
    "load_scenario",
    "parse_scenario",
    "rule_text",
]
