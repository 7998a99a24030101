"""Scenario files written (:mod:`rules_kb.checker.scenario_writer`): the inverse of the reader —
``parse_scenario(scenario_to_toml(s))`` is ``s`` again, on the bundled examples and on any
scenario the reader can give (hypothesis) — and the verdicts of ``ask`` as an enum, which
no renderer tells apart by their French words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_kb import serialize
from rules_kb.ask.answer import Verdict, VerdictKind, Verification
from rules_kb.checker.effects import (
    MANA_VALUE,
    YOU,
    Affects,
    ContinuousEffect,
    Count,
    Operation,
    Scope,
    Selector,
    TextChange,
)
from rules_kb.checker.report import check_scenario, examples
from rules_kb.checker.scenario import Scenario, parse_scenario
from rules_kb.checker.scenario_writer import scenario_to_toml
from rules_kb.checker.state import GameObject, GameState, Player
from rules_kb.core.vocabulary import CARD_TYPES_2004, NON_PERMANENT_TYPES, CardType, Color, Supertype, Zone
from tests.scenarios import unplaced

ROOT = Path(__file__).parent.parent


# --- the bundled examples ---------------------------------------------------------------------


@pytest.mark.parametrize("example", examples(), ids=lambda example: example.name)
def test_every_bundled_example_reads_back_as_it_was_written(kb, example):
    scenario = parse_scenario(example.text, example.name)
    text = scenario_to_toml(scenario)
    again = parse_scenario(text, example.name)
    assert unplaced(again) == unplaced(scenario)
    assert scenario_to_toml(again) == text  # a fixed point: written once, the text stays
    assert serialize.check_dict(check_scenario(kb, again)) == serialize.check_dict(check_scenario(kb, scenario))


def test_the_text_keeps_french_terms_and_leaves_defaults_out():
    scenario = parse_scenario(
        'title = "Ours"\n[[player]]\nname = "Alice"\nlife = 20\n[[permanent]]\nid = "ours"\nname = "Ours"\n'
        'controller = "Alice"\ncard_types = ["creature"]\ncolors = ["green"]\npower = 2\ntoughness = 2\n'
        'zone = "graveyard"\n'
    )
    text = scenario_to_toml(scenario)
    assert '"créature"' in text and '"vert"' in text and 'zone = "cimetière"' in text
    assert "life" not in text and "owner" not in text and "timestamp = 1" in text


def test_a_comment_comes_first_and_holds_what_a_comment_can():
    scenario = parse_scenario('[[player]]\nname = "Alice"\n')
    text = scenario_to_toml(scenario, "Construit à partir de :\nma 2/2\x0bpuis\x1f« fin »\u2028?\ud800")
    assert text.startswith("# Construit à partir de :\n# ma 2/2 puis « fin »\n# ? \n\n")
    assert unplaced(parse_scenario(text)) == unplaced(scenario)


def test_what_no_file_holds_is_refused():
    gone = GameObject("ours", "Ours", "Alice", "Alice", zone=None, exists=False)
    with pytest.raises(ValueError, match="ceased to exist"):
        scenario_to_toml(Scenario(GameState("2004", (Player("Alice"),), (gone,))))
    # a value written as a table (a count) before a plain one: TOML would write them the other way round
    effect = ContinuousEffect(
        "e",
        ((Operation.SET_POWER_TOUGHNESS, Count(Selector())), (Operation.MODIFY_POWER_TOUGHNESS, (1, 1))),
        Affects(Scope.OBJECTS, ("ours",)),
        timestamp=2,
    )
    bear = GameObject("ours", "Ours", "Alice", "Alice", frozenset({CardType.CREATURE}), power=2, toughness=2)
    with pytest.raises(ValueError, match="another order"):
        scenario_to_toml(Scenario(GameState("2004", (Player("Alice"),), (bear,), "Alice", effects=(effect,))))


# --- any scenario the reader can give ----------------------------------------------------------

PLAYERS = ("Alice", "Bob", "Chloé")
WORDS = st.sampled_from(["Ours runegriffe", "Élan", "Mur de pierre", "Peur", "« Vieux » roi", "Tour d'ivoire"])
SUBTYPES = st.lists(st.sampled_from(["ours", "elfe", "gobelin", "local", "équipement", "légende"]), unique=True).map(
    tuple
)
ABILITIES = st.lists(st.sampled_from(["vol", "piétinement", "protection contre le noir", "initiative"]), unique=True)


def _members(kind, among=None):
    return st.frozensets(st.sampled_from(list(among or kind)))


PAIR = st.tuples(st.integers(-5, 9), st.integers(-5, 9))
#: Operations written as plain values, by operation.
PLAIN = {
    Operation.SET_CARD_TYPES: _members(CardType, CARD_TYPES_2004),
    Operation.ADD_CARD_TYPES: _members(CardType, CARD_TYPES_2004),
    Operation.SET_SUBTYPES: SUBTYPES,
    Operation.ADD_SUBTYPES: SUBTYPES,
    Operation.REMOVE_SUBTYPES: SUBTYPES,
    Operation.SET_SUPERTYPES: _members(Supertype),
    Operation.ADD_SUPERTYPES: _members(Supertype),
    Operation.SET_COLORS: _members(Color),
    Operation.ADD_COLORS: _members(Color),
    Operation.ADD_ABILITIES: ABILITIES.map(tuple),
    Operation.REMOVE_ABILITIES: ABILITIES.map(tuple),
    Operation.REMOVE_ALL_ABILITIES: st.just(True),
    Operation.SWITCH_POWER_TOUGHNESS: st.just(True),
    Operation.SET_POWER_TOUGHNESS: PAIR | st.just(MANA_VALUE),
    Operation.MODIFY_POWER_TOUGHNESS: PAIR,
    Operation.SET_CONTROLLER: st.just(PLAYERS[0]),  # a player of every scenario below
}
SELECTORS = st.builds(
    Selector,
    card_types=_members(CardType, CARD_TYPES_2004),
    colors=_members(Color),
    subtypes=SUBTYPES,
    supertypes=_members(Supertype),
    not_card_types=_members(CardType, CARD_TYPES_2004),
    not_subtypes=SUBTYPES,
    controller=st.sampled_from(["", YOU, "adversaire", "Alice"]),
    other=st.booleans(),
    shares_subtype=st.booleans(),
)
COUNTS = st.builds(Count, SELECTORS, st.sampled_from([Zone.BATTLEFIELD, Zone.HAND, Zone.GRAVEYARD]), PAIR, PAIR)
TEXT_CHANGES = st.sampled_from([TextChange(Color.WHITE, Color.BLACK), TextChange("plaine", "marais"),
                                TextChange("gobelin", "elfe")])  # fmt: skip


@st.composite
def operations(draw):
    """Plain operations, then at most one written as a table (a count or a text change): the order TOML keeps."""
    kinds = draw(st.lists(st.sampled_from(list(PLAIN)), min_size=0, max_size=3, unique=True))
    found = [(kind, draw(PLAIN[kind])) for kind in kinds]
    table = draw(st.sampled_from([None, Operation.SET_POWER_TOUGHNESS, Operation.MODIFY_POWER_TOUGHNESS,
                                  Operation.CHANGE_TEXT]))  # fmt: skip
    if table is not None and table not in kinds:
        found.append((table, draw(TEXT_CHANGES if table is Operation.CHANGE_TEXT else COUNTS)))
    if not found:
        found.append((Operation.SWITCH_POWER_TOUGHNESS, True))
    return tuple(found)


@st.composite
def scenarios(draw):
    players = tuple(
        Player(name, draw(st.integers(-5, 30)), draw(st.integers(0, 12)), draw(st.booleans()))
        for name in PLAYERS[: draw(st.integers(1, 3))]
    )
    names = [player.name for player in players]
    objects = []
    for number in range(draw(st.integers(0, 4))):
        spell = draw(st.booleans())
        kinds = CARD_TYPES_2004 if spell else [t for t in CARD_TYPES_2004 if t not in NON_PERMANENT_TYPES]
        card_types = draw(_members(CardType, kinds))
        creature = CardType.CREATURE in card_types
        controller = draw(st.sampled_from(names))
        default = Zone.STACK if spell else Zone.BATTLEFIELD
        zone = draw(st.sampled_from([default, Zone.GRAVEYARD, Zone.EXILE, Zone.PHASED_OUT]))
        obj = GameObject(
            f"objet-{number}", draw(WORDS), controller, draw(st.sampled_from([controller, *names])), card_types,
            draw(SUBTYPES), draw(_members(Supertype)), draw(_members(Color)), draw(st.integers(0, 8)),
            draw(st.integers(0, 9)) if creature else None, draw(st.integers(-2, 9)) if creature else None,
            tuple(draw(ABILITIES)), timestamp=draw(st.integers(0, 20)),
            zone=zone if not (zone is Zone.BATTLEFIELD and card_types & NON_PERMANENT_TYPES) else Zone.GRAVEYARD,
            source="spell" if spell else "permanent", copy_of_card=draw(st.booleans()),
        )  # fmt: skip
        if spell:
            obj = GameObject(**{**_fields(obj), "spell_copy": draw(st.booleans())})
        else:
            obj = GameObject(**{**_fields(obj),
                "damage": draw(st.integers(0, 5)), "token": draw(st.booleans()), "tapped": draw(st.booleans()),
                "counters": draw(st.dictionaries(st.sampled_from(["+1/+1", "-1/-1", "temps"]), st.integers(1, 3))),
                "enchant": draw(st.sampled_from([(), ("créature",), ("créature", "artefact"),
                                                 ("créature", "que vous contrôlez"), ("joueur",), ("de base",)])),
                "since": draw(st.none() | st.integers(0, 20)), "regeneration_shields": draw(st.integers(0, 2)),
            })  # fmt: skip
        objects.append(obj)
    objects.sort(key=lambda obj: obj.source != "permanent")  # the reader lists permanents first
    ids = [obj.id for obj in objects]
    for position, obj in enumerate(objects):
        changes = {}
        if obj.source == "permanent":
            changes["attached_to"] = draw(st.sampled_from(["", *names, *ids[:position]]))
            statics = []
            for number in range(draw(st.integers(0, 2))):
                scope = draw(st.sampled_from([Scope.SELF, Scope.ENCHANTED, Scope.EQUIPPED, Scope.ALL]))
                affects = Affects(scope, selector=draw(SELECTORS)) if scope is Scope.ALL else Affects(scope)
                statics.append(ContinuousEffect(
                    draw(st.sampled_from([f"{obj.id}#{number + 1}", f"{obj.id}-capacité-{number}"])),
                    draw(operations()), affects, draw(st.sampled_from(["", "Les créatures gagnent +1/+1."])),
                    scope is Scope.SELF and draw(st.booleans()), obj.id,
                ))  # fmt: skip
            changes["statics"] = tuple(statics)
        objects[position] = GameObject(**{**_fields(obj), **changes})
    effects = ()
    if ids:
        effects = tuple(
            ContinuousEffect(
                draw(st.sampled_from([f"effet-{number}", f"sort-{number}"])), draw(operations()),
                Affects(Scope.OBJECTS, tuple(draw(st.lists(st.sampled_from(ids), min_size=1, unique=True)))),
                draw(st.sampled_from(["", "Jusqu'à la fin du tour, …"])), timestamp=draw(st.integers(0, 30)),
            )
            for number in range(1, draw(st.integers(0, 3)) + 1)
        )  # fmt: skip
    edition = draw(st.sampled_from(["", "2004", "2006-faq"]))
    active = draw(st.sampled_from(names))
    state = GameState(edition, players, tuple(objects), active, effects=effects)
    return Scenario(state, edition, draw(st.sampled_from(["", "Deux ours", '« Titre » avec "guillemets"\t'])).strip())


def _fields(obj: GameObject) -> dict:
    return {name: getattr(obj, name) for name in GameObject.__slots__}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_any_scenario_the_reader_gives_reads_back_as_written(scenario):
    text = scenario_to_toml(scenario)
    read = parse_scenario(text, "écrit.toml")
    assert unplaced(read) == unplaced(scenario)
    assert scenario_to_toml(read) == text


# --- verdicts: an enum, not French words --------------------------------------------------------


def test_verdicts_carry_their_kind_and_rules(kb):
    from rules_kb.ask import ask

    survives = ask(kb, "ma 3/3 a pris 2 dommages, elle survit ?").verification
    assert [v.kind for v in survives.verdicts] == [VerdictKind.DOES_NOT_APPLY] * len(survives.verdicts)
    assert ("420.5c",) in [v.rules for v in survives.verdicts]
    dies = ask(kb, "ma 2/2 a pris 2 dégâts elle meurt ?").verification
    assert dies.verdicts[0].kind is VerdictKind.APPLIES and dies.verdicts[0].rules == ("420.5c",)
    legends = ask(kb, "j'ai deux légendes du même nom en jeu, laquelle reste ?").verification
    assert [v.kind for v in legends.verdicts] == [VerdictKind.TO_BE_SPECIFIED]
    assert legends.missing == (legends.verdicts[0].text,) and legends.outcome == ()
    card = ask(kb, "mon adversaire est a 0 pv mais il controle un ange de platine, il a perdu ?").verification
    assert card.verdicts[-1].kind is VerdictKind.ASSUMES and "ange de platine" in card.verdicts[-1].text


def test_the_command_line_tells_verdicts_apart_by_kind_not_by_words(kb, capsys):
    """A sentence that does not apply shows under « Vérification » whatever its words, never in the verdict."""
    from cli import render
    from rules_kb.ask import ask

    answer = ask(kb, "ma 2/2 a pris 2 dégâts elle meurt ?")
    verdicts = (*answer.verification.verdicts, Verdict(VerdictKind.DOES_NOT_APPLY, "Sans effet ici : essai (420.5a)."))
    answer = answer._replace(verification=answer.verification._replace(verdicts=verdicts))
    render.answer(answer, explain=True)
    out = capsys.readouterr().out
    verdict_line = next(line for line in out.splitlines() if line.startswith("Verdict"))
    assert "420.5c" in verdict_line and "Sans effet ici" not in verdict_line
    assert "  Sans effet ici : essai (420.5a)." in out.split("Vérification")[1]


def test_no_code_tells_verdicts_apart_by_their_french_words():
    """Issue 35: the words « Ne s'applique pas » are written once, where the verdict of that kind is made."""
    sources = [*ROOT.glob("rules_kb/**/*.py"), *ROOT.glob("cli/**/*.py")]
    literal = re.compile(r"[\"']Ne s'applique pas")  # a string that begins with the words, not a docstring's quote
    found = {str(path.relative_to(ROOT)) for path in sources if literal.search(path.read_text(encoding="utf-8"))}
    assert found == {"rules_kb/ask/verify.py"}
    text = (ROOT / "rules_kb/ask/verify.py").read_text(encoding="utf-8")
    assert re.search(r"Verdict\(\s*VerdictKind\.DOES_NOT_APPLY,\s*f\"Ne s'applique pas", text)
    assert not re.search(r"startswith\(\s*[\"']Ne s", "".join(path.read_text(encoding="utf-8") for path in sources))


def test_an_empty_verification_has_no_verdict():
    assert Verification().outcome == () and Verification().missing == () and Verification().scenario is None
