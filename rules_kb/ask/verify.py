"""Step 7 of ``ask``: when the facts make a board the checker can judge, the
scenario is built and run; the rules it applied come first, with its outcome
in words: the state-based effects it performed, and the order of the layers
when it decided the values of a creature: an effect that sets them with
another change (the order decides: 418.5), or the values the player asks
about. The rules it examined without effect
("elle survit") are said in the outcome, and weigh nothing in the ranking:
that a rule does not apply is weak evidence that it answers the question.
The applied rules lead the answer when the question asks about their
outcome (:func:`asked_about`): a story that sets up a board to ask
something else ("la 1/1 meurt, les 4 blessures qui restent vont au
joueur ?") gets the verdict, not the lead; nor does a verdict on a
creature's values when the facts cannot follow them (a copy:
:data:`UNREAD_RE`). The checker is imported only then."""

from __future__ import annotations

import re

from rules_kb.ask.answer import Verdict, VerdictKind, Verification
from rules_kb.ask.facts import Board, Facts, board, permanent_names
from rules_kb.ask.reading import Reading
from rules_kb.core.model import rule_node
from rules_kb.core.text import fold_aligned
from rules_kb.loader import KnowledgeBase

#: Score of the rules the checker applied (first).
CHECKER_APPLIED = 10.0
#: The reason given for them.
APPLIED_REASON = "le vérificateur l'applique à la situation"
#: The reason given for a rule that decides once a fact the question does not give is known.
UNDECIDED_REASON = "règle qui tranche la situation, selon un fait que la question ne donne pas"

#: The words (folded) by which a question asks about the outcome of each state-based effect
#: (:class:`rules_kb.checker.editions.StateBasedAction` values), from the rules' own words (420.5:
#: "détruite", "mise dans le cimetière", "perd la partie", "cesse d'exister") and players' usage
#: ("meurt", "crève", "survit", "reste en jeu").
OUTCOME_WORDS = {
    "zero_life": r"perd|perdu|gagne|partie|nulle|mort",
    "poison": r"perd|perdu|gagne|partie|nulle|poison",
    "draw_from_empty_library": r"perd|perdu|gagne|partie|nulle|pioch",
    "zero_toughness": r"meur|mouri|mort|surviv|survit|reste\s+(?:en\s+jeu|en\s+vie|vivante?|la|sur)|detrui|cimetiere|crev|tomb|tient|vivant|part\b",
    "lethal_damage": r"meur|mouri|mort|surviv|survit|reste\s+(?:en\s+jeu|en\s+vie|vivante?|la|sur)|detrui|cimetiere|crev|tomb|tient|vivant|part\b",
    "illegal_aura": r"aura|reste\s+(?:en\s+jeu|en\s+vie|vivante?|la|sur)|cimetiere|tomb|part\b|devient|attach",
    "illegal_equipment": r"equip|reste\s+(?:en\s+jeu|en\s+vie|vivante?|la|sur)|attach|tomb|part\b|devient",
    "legend_rule": r"legend|garde|reste\s+(?:en\s+jeu|en\s+vie|vivante?|la|sur)|cimetiere|choisi|laquelle|lequel|les deux",
    "world_rule": r"monde|garde|reste\s+(?:en\s+jeu|en\s+vie|vivante?|la|sur)|cimetiere|choisi|les deux",
    "token_out_of_play": r"jeton|token|disparai|exist|reste\s+(?:en\s+jeu|en\s+vie|vivante?|la|sur)|revien|cimetiere",
    "copy_out_of_zone": r"copie|exist|disparai|reste\s+(?:en\s+jeu|en\s+vie|vivante?|la|sur)",
    "counters_cancel": r"marqueur|reste\s+(?:en\s+jeu|en\s+vie|vivante?|la|sur)|annul|combien|enleve|retire",
}  # fmt: skip
#: What the facts do not read (folded): a copy (503, "Copier des objets"; the card Clone) takes
#: the copiable values of another object, which the facts do not follow, so a verdict on a
#: creature's values (its toughness, its damage, its layers) does not lead.
UNREAD_RE = re.compile(r"\b(?:clones?|copi\w*|copy|copies)\b")
#: The state-based effects that judge a creature's values.
_VALUE_ACTIONS = frozenset({"zero_toughness", "lethal_damage"})
#: The words by which a question asks about a creature's values (the layers' verdict).
VALUE_WORDS = r"combien|devient|force|endurance|\d+\s*/\s*\d+|taille|fait|meur|surviv|mort|tape"

#: The state-based effect a player's fact bears on, by attribute of :class:`Facts`
#: (:class:`rules_kb.checker.editions.StateBasedAction` values).
_FACT_ACTIONS = (
    ("life", "zero_life"), ("poison", "poison"), ("legends", "legend_rule"),
    ("empty_library", "draw_from_empty_library"), ("token_zone", "token_out_of_play"),
)  # fmt: skip


def examined(facts: Facts) -> list[str]:
    """The state-based effects (:class:`StateBasedAction` values) the facts bear on."""
    kinds = []
    for creature in facts.creatures:
        if creature.damage or creature.modifiers or creature.counters:
            kinds += ["lethal_damage", "zero_toughness"]
        if creature.toughness is not None and creature.toughness <= 0:
            kinds.append("zero_toughness")
        signs = {kind[0] for kind in creature.counters}
        if len(signs) > 1:
            kinds.append("counters_cancel")
    kinds += [kind for attribute, kind in _FACT_ACTIONS if getattr(facts, attribute)]
    if facts.attachment:
        kinds.append("illegal_aura" if facts.attachment == "aura" else "illegal_equipment")
    return list(dict.fromkeys(kinds))


def checker_edition(kb: KnowledgeBase, edition: str | None):
    """The checker's edition for a question: ``edition`` if the checker
    follows it, else (none given) the newest it follows; None with a French
    note when it cannot."""
    from rules_kb.checker.editions import EDITIONS  # deferred: the checker, only for a board (module docstring)

    if edition:
        if edition in EDITIONS:
            return EDITIONS[edition], ""
        return None, (
            f"Le vérificateur ne suit pas l'édition « {edition} » (éditions possibles : {', '.join(EDITIONS)}) : "
            "situation non vérifiée."
        )
    usable = [e for e in EDITIONS.values() if all(text in kb.editions for text in e.text_editions)]
    return (usable[-1], "") if usable else (None, "Aucune édition du corpus n'est suivie par le vérificateur.")


def verification(kb: KnowledgeBase, question: str, facts: Facts, edition: str | None) -> Verification:
    """Build the scenario of ``facts``, run the checker and say what happened.

    Returns an empty :class:`Verification` when the facts are not a board
    (see :attr:`Facts.checkable`), one with a ``note`` when they are
    incomplete, the edition is not followed by the checker or the scenario
    built is one the checker refuses (the answer keeps its rules).
    """
    if not facts.checkable:
        return Verification(note=facts.incomplete)
    chosen, note = checker_edition(kb, edition)
    if chosen is None:
        return Verification(note=note)
    missing, undecided = missing_facts(facts, chosen)
    verdicts = [
        Verdict(VerdictKind.TO_BE_SPECIFIED, sentence, (number,)) for sentence, number in zip(missing, undecided)
    ]
    if missing and not _judged(facts):
        return Verification(verdicts=tuple(verdicts), undecided=undecided,
                            asked=tuple(undecided) if _asks_about(question, undecided_kinds(facts)) else ())  # fmt: skip
    # deferred: the checker, only for a board (module docstring)
    from rules_kb.checker.editions import StateBasedAction
    from rules_kb.checker.report import check_scenario, describe
    from rules_kb.checker.scenario import ScenarioError, check_size

    built = board(facts, question, chosen.id)
    try:
        check_size(built.scenario)
    except ScenarioError as error:  # a board the checker cannot take: the rules are still answered
        return Verification(note=f"Le vérificateur n'a pas pu juger la situation décrite : {error}")
    report = check_scenario(kb, built.scenario, chosen.id)
    resolution = report.resolution
    applied = []
    before = resolution.initial
    for round_ in resolution.rounds:
        for event in round_.events:
            verdicts.append(Verdict(VerdictKind.APPLIES, describe(event, before, ids=False), (event.rule,)))
            applied.append(event.rule)
        before = round_.state
    if facts.aura_spell_target_gone:
        rules = ("413.2a", "415.3")
        verdicts.append(Verdict(VerdictKind.APPLIES, (
            "L'aura, encore un sort sur la pile, n'a plus de cible légale à sa résolution (un sort d'aura cible "
            "toujours : 415.3) : elle est contrecarrée et va au cimetière de son propriétaire, sans jamais être "
            "attachée (413.2a)."
        ), rules))  # fmt: skip
        applied += rules
    layered = _layer_outcome(report, facts, built)
    for sentence, rules in layered:
        verdicts.append(Verdict(VerdictKind.APPLIES, sentence, tuple(rules)))
        applied += rules
    asking = asked_about(question)
    values_read = not UNREAD_RE.search(fold_aligned(question))
    asked = [event.rule for round_ in resolution.rounds for event in round_.events
             if re.search(OUTCOME_WORDS.get(event.effect.value, "$^"), asking)
             and (values_read or event.effect.value not in _VALUE_ACTIONS)]  # fmt: skip
    if facts.aura_spell_target_gone and re.search(OUTCOME_WORDS["illegal_aura"] + r"|\bou\b|contr|resou", asking):
        asked.append("413.2a")
    if values_read and (re.search(VALUE_WORDS, asking) or any(creature.asked for creature in facts.creatures)):
        asked += [rule for _, rules in layered for rule in rules]
    seen = []
    for kind in examined(facts):
        action = StateBasedAction(kind)
        number = chosen.rule_of(action)
        if number and number not in applied:
            seen.append(number)
            verdicts.append(Verdict(VerdictKind.DOES_NOT_APPLY, f"Ne s'applique pas : {action.absent} ({number}).",
                                    (number,)))  # fmt: skip
    if resolution.outcome.draw:
        verdicts.append(Verdict(VerdictKind.APPLIES, (
            f"Tous les joueurs perdent en même temps : la partie est nulle ({chosen.draw_rule})."
        ), (chosen.draw_rule,)))  # fmt: skip
        applied.append(chosen.draw_rule)
        if asked:  # who wins, when every player loses at once: the draw decides it (102.4 in 2004)
            asked.insert(0, chosen.draw_rule)
    if facts.incomplete:
        note = facts.incomplete[0].upper() + facts.incomplete[1:] + "."
    if missing and _asks_about(question, undecided_kinds(facts)):
        asked += undecided
    return Verification(built.scenario, report, tuple(verdicts), tuple(dict.fromkeys(applied)), tuple(seen), note,
                        tuple(dict.fromkeys(asked)), undecided)  # fmt: skip


def undecided_kinds(facts: Facts) -> list[str]:
    """The state-based effects (:class:`StateBasedAction` values) whose decision needs a fact the question does not give."""
    return ["legend_rule"] if facts.legends and not facts.legends_ordered else []


def missing_facts(facts: Facts, chosen) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The facts a decision needs that ``facts`` do not give, in French, and
    the rules of ``chosen`` (a checker edition) that decide once they are
    known. Two legends of one name: which one has been a legend the longest
    (420.5e keeps it and puts the others into the graveyard; all of them
    when none has)."""
    from rules_kb.checker.editions import StateBasedAction  # deferred: the checker, only for a board

    sentences, rules = [], []
    if "legend_rule" in undecided_kinds(facts):
        number = chosen.rule_of(StateBasedAction.LEGEND_RULE)
        sentences.append(
            "Deux légendes du même nom : la question ne dit pas laquelle est en jeu depuis le plus longtemps. "
            f"Celle-là reste, les autres vont au cimetière de leur propriétaire ; à égalité, toutes y vont ({number})."
        )
        rules.append(number)
    return tuple(sentences), tuple(rules)


def _judged(facts: Facts) -> bool:
    """Whether the facts hold more than what a missing fact leaves undecided."""
    return bool(facts.life or facts.poison or facts.empty_library or facts.token_zone or facts.attachment or any(
        c.damage or c.counters or c.changes or (c.toughness is not None and c.toughness <= 0) for c in facts.creatures
    ))  # fmt: skip


def _asks_about(question: str, kinds: list[str]) -> bool:
    asking = asked_about(question)
    return any(re.search(OUTCOME_WORDS[kind], asking) for kind in kinds)


def asked_about(question: str) -> str:
    """The part of ``question`` that asks (folded): its last sentence that
    ends with a question mark, else its last sentence."""
    sentences = [part.strip() for part in re.findall(r"[^.!?]+[.!?]*", fold_aligned(question)) if part.strip()]
    asking = [sentence for sentence in sentences if sentence.endswith("?")]
    return (asking or sentences or [""])[-1]


def verify(reading: Reading) -> None:
    """Part ``checker``: the checker's verdict on the question's board."""
    kb, candidates = reading.kb, reading.candidates
    found = verification(kb, reading.question, reading.facts, reading.edition)
    cards = [named.text for named in reading.names if named.keyword is None]
    if cards and (found.applied or found.undecided):
        shown = ", ".join(f"« {card} »" for card in dict.fromkeys(cards))
        found = found._replace(verdicts=(*found.verdicts, Verdict(VerdictKind.ASSUMES, (
            f"Le texte de {shown} n'est pas dans le corpus : ce verdict suppose que "
            f"{'cette carte ne change' if len(set(cards)) == 1 else 'ces cartes ne changent'} aucune règle."
        ))))  # fmt: skip
    reading.verification = found
    for rank, number in enumerate(found.undecided):
        rule = kb.rule(number, reading.edition or kb.default_edition) or kb.rule(number, kb.default_edition)
        if rule is not None:
            candidates.add(rule_node(rule), "checker", CHECKER_APPLIED - rank * 0.1, UNDECIDED_REASON)
    if found.report is None:
        return
    texts = found.report.texts
    for rank, number in enumerate(found.applied):
        rule = texts.get(number) or kb.rule(number, reading.edition or kb.default_edition)
        if rule is not None:
            candidates.add(rule_node(rule), "checker", CHECKER_APPLIED - rank * 0.1, APPLIED_REASON)


def _layer_outcome(report, facts: Facts, built: Board) -> list[tuple[str, list[str]]]:
    """For each creature of the question whose values the layers decided —
    an effect setting them and another change, which do not commute, or the
    values the player asks about — a French sentence (its power and
    toughness, and what applied in which order) and the rules the layer
    steps cite (418.5, 200.10…). Changes that only add up (+1/+1 and
    -1/-1, counters) give the same values in any order: no sentence.
    ``built`` is the board checked: the id of each creature's permanent."""
    found = []
    layering = report.layering
    names = permanent_names(facts)
    for number, (creature, ident) in enumerate(zip(facts.creatures, built.creature_ids), start=1):
        steps = [step for _, steps in layering.history(ident) for step in steps]
        ordered = len(steps) >= 2 and any(kind in ("set", "switch") for _, kind, _, _ in creature.changes)
        if not steps or not (ordered or creature.asked is not None) or ident not in layering.final:
            continue
        values = layering.final[ident]
        counters = ", ".join(f"{count} × {kind}" for kind, count in creature.counters.items())
        told = " puis ".join(
            f"« {step.text.rstrip('.')} »" if step.text else f"ses marqueurs ({counters})" for step in steps
        )
        rules = list(dict.fromkeys(rule for step in steps for rule in step.rules))
        sentence = f"{names[number - 1]} : {values.power}/{values.toughness} — {told} ({', '.join(rules)})."
        if creature.asked is not None and creature.asked != (values.power, values.toughness):
            sentence += f" Pas {creature.asked[0]}/{creature.asked[1]}."
        found.append((sentence, rules))
    return found
