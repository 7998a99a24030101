"""The state-based effects (420, 2004 rules; 420.5n from the 2006 FAQ).

Each test writes its scenario inline and cites the rule it verifies; where
the rules print an example (the FAQ's under 420.5n), the test reproduces it.
"""

from __future__ import annotations

import inspect
import re

import pytest

from rules_kb.checker.editions import EDITIONS, StateBasedAction
from rules_kb.checker.report import check_scenario, describe, examples, parse_scenario
from rules_kb.checker.state import Zone
from rules_kb.checker.state_based import REGISTRY, Action, is_lethal, run
from tests.scenarios import table

PLAYERS = """
[[player]]
name = "Alice"

[[player]]
name = "Bob"
"""


def resolve(toml: str, edition: str = "2004"):
    """Run the state-based effects on an inline scenario (two players added when none is given)."""
    text = toml if "[[player]]" in toml else PLAYERS + toml
    return run(parse_scenario(text).state, EDITIONS[edition])


def creature(id_: str, power: int, toughness: int, **extra) -> str:
    fields = {
        "id": id_,
        "name": id_.capitalize(),
        "controller": "Alice",
        "card_types": ["créature"],
        "power": power,
        "toughness": toughness,
    }
    return table(**{**fields, **extra})


def actions(resolution) -> list[list[tuple[str, str, tuple[str, ...]]]]:
    """Each round as (rule, action, objects or players)."""
    return [[(e.rule, e.action.value, e.objects or e.players) for e in round_.events] for round_ in resolution.rounds]


def zone(resolution, object_id: str):
    return resolution.final.object(object_id).zone


# -- 420.5a, 420.5g, 420.5h, 102.4: players ------------------------------------


def test_420_5a_a_player_at_zero_life_loses_and_the_other_wins():
    resolution = resolve(PLAYERS.replace('name = "Bob"', 'name = "Bob"\nlife = 0'))
    assert actions(resolution) == [[("420.5a", "lose", ("Bob",))]]
    assert resolution.outcome.losers == ("Bob",) and resolution.outcome.winners == ("Alice",)
    assert not resolution.outcome.draw
    assert resolution.final.player("Bob").lost_by == ("420.5a",)


def test_420_5a_negative_life_loses_one_life_does_not():
    resolution = resolve(
        PLAYERS.replace('name = "Alice"', 'name = "Alice"\nlife = 1').replace('name = "Bob"', 'name = "Bob"\nlife = -3')
    )
    assert actions(resolution) == [[("420.5a", "lose", ("Bob",))]]


def test_102_4_both_players_at_zero_life_is_a_draw():
    resolution = resolve(PLAYERS.replace('"Alice"', '"Alice"\nlife = 0').replace('"Bob"', '"Bob"\nlife = 0'))
    assert actions(resolution) == [[("420.5a", "lose", ("Alice",)), ("420.5a", "lose", ("Bob",))]]
    assert resolution.outcome.draw and resolution.outcome.losers == ("Alice", "Bob")
    assert resolution.outcome.winners == ()


def test_102_4_players_losing_by_different_rules_at_once_is_still_a_draw():
    resolution = resolve(
        PLAYERS.replace('"Alice"', '"Alice"\npoison = 10').replace('"Bob"', '"Bob"\ndrew_from_empty_library = true')
    )
    assert actions(resolution) == [[("420.5g", "lose", ("Bob",)), ("420.5h", "lose", ("Alice",))]]
    assert resolution.outcome.draw


def test_420_5g_drawing_from_an_empty_library_loses():
    resolution = resolve(PLAYERS.replace('"Bob"', '"Bob"\ndrew_from_empty_library = true'))
    assert actions(resolution) == [[("420.5g", "lose", ("Bob",))]]


def test_420_5h_ten_poison_counters_lose_nine_do_not():
    resolution = resolve(PLAYERS.replace('"Alice"', '"Alice"\npoison = 9').replace('"Bob"', '"Bob"\npoison = 10'))
    assert actions(resolution) == [[("420.5h", "lose", ("Bob",))]]


def test_one_player_losing_several_ways_is_reported_under_each_rule():
    """420.5a, g and h all apply to the same player in one check (420.3)."""
    resolution = resolve(PLAYERS.replace('"Bob"', '"Bob"\nlife = 0\npoison = 12\ndrew_from_empty_library = true'))
    assert [rule for rule, _, _ in actions(resolution)[0]] == ["420.5a", "420.5g", "420.5h"]
    assert resolution.final.player("Bob").lost_by == ("420.5a", "420.5g", "420.5h")
    assert resolution.outcome.losers == ("Bob",)


def test_the_game_ends_when_a_player_loses_so_later_rounds_do_not_happen():
    """Once the game is over (102.1), nothing else is checked: the aura stays."""
    resolution = resolve(
        PLAYERS.replace('"Bob"', '"Bob"\nlife = 0') + creature("ours", 2, 2, damage=2) + aura("aura", "ours")
    )
    assert len(resolution.rounds) == 1
    assert zone(resolution, "aura") is Zone.BATTLEFIELD


# -- 420.5b, 420.5c: creatures -------------------------------------------------


def test_420_5b_a_1_1_with_a_minus_1_counter_is_put_into_the_graveyard():
    """The issue's example: a 1/1 with a -1/-1 counter is 0/0 (200.10, 418.5a)."""
    resolution = resolve(creature("ecureuil", 1, 1, counters={"-1/-1": 1}))
    assert actions(resolution) == [[("420.5b", "put_into_graveyard", ("ecureuil",))]]
    event = resolution.rounds[0].events[0]
    assert event.action.regeneration is False  # "La régénération ne peut pas remplacer cet événement."
    assert zone(resolution, "ecureuil") is Zone.GRAVEYARD
    assert resolution.final.object("ecureuil").counters == {}


def test_420_5b_negative_toughness_and_plus_counters_that_save():
    resolution = resolve(creature("a", 2, -1) + creature("b", 0, 0, counters={"+1/+1": 1}))
    assert actions(resolution) == [[("420.5b", "put_into_graveyard", ("a",))]]


def test_420_5c_a_2_2_with_2_damage_is_destroyed_and_regeneration_could_replace_it():
    resolution = resolve(creature("ours", 2, 2, damage=2))
    assert actions(resolution) == [[("420.5c", "destroy", ("ours",))]]
    assert resolution.rounds[0].events[0].action.regeneration is True
    final = resolution.final.object("ours")
    assert final.zone is Zone.GRAVEYARD and final.damage == 0


def test_420_5c_damage_below_toughness_is_not_lethal():
    resolution = resolve(creature("ours", 3, 3, damage=2))
    assert resolution.rounds == ()
    assert zone(resolution, "ours") is Zone.BATTLEFIELD


@pytest.mark.parametrize(
    ("damage", "toughness", "lethal"),
    [(0, 0, False), (0, 1, False), (1, 1, True), (2, 1, True), (1, 2, False), (3, 3, True)],
)
def test_420_5c_lethal_damage_is_more_than_zero_and_at_least_the_toughness(damage, toughness, lethal):
    """ "Des blessures fatales sont une quantité de blessures supérieure à zéro
    et supérieure ou égale à l'endurance de la créature." (420.5c)"""
    assert is_lethal(damage, toughness) is lethal


def test_420_5c_counts_counters_in_toughness():
    resolution = resolve(
        creature("a", 2, 2, damage=2, counters={"+1/+1": 1}) + creature("b", 3, 3, damage=2, counters={"-1/-1": 1})
    )
    assert actions(resolution) == [[("420.5c", "destroy", ("b",))]]


def test_420_5c_a_creature_with_zero_toughness_and_damage_is_only_put_into_the_graveyard():
    """420.5c needs "une endurance supérieure à 0": a 0/0 with damage is 420.5b's."""
    resolution = resolve(creature("a", 1, 0, damage=1))
    assert actions(resolution) == [[("420.5b", "put_into_graveyard", ("a",))]]


def test_420_5c_indestructible_ignores_lethal_damage_but_not_zero_toughness():
    """Glossary "Indestructible": not destroyed by lethal damage (420.5c); still 420.5b."""
    resolution = resolve(
        creature("a", 2, 2, damage=5, abilities=["Indestructible"])
        + creature("b", 2, 2, abilities=["indestructible"], counters={"-1/-1": 2})
    )
    assert actions(resolution) == [[("420.5b", "put_into_graveyard", ("b",))]]


def test_420_3_a_zero_toughness_and_a_lethal_damage_creature_go_in_the_same_round():
    resolution = resolve(creature("a", 1, 1, counters={"-1/-1": 1}) + creature("b", 2, 2, damage=3))
    assert actions(resolution) == [[("420.5b", "put_into_graveyard", ("a",)), ("420.5c", "destroy", ("b",))]]


def test_non_creatures_ignore_damage_and_toughness():
    resolution = resolve("""
[[permanent]]
name = "Forêt"
controller = "Alice"
card_types = ["terrain"]
damage = 3
""")
    assert resolution.rounds == ()


# -- 420.5d: auras ---------------------------------------------------------------


LAND = table(id="foret", name="Forêt", controller="Alice", card_types=["terrain"])


def aura(id_: str, attached_to: str | None = None, **extra) -> str:
    fields = {
        "id": id_,
        "name": id_.capitalize(),
        "controller": "Alice",
        "card_types": ["enchantement"],
        "subtypes": ["local"],
        "enchant": ["créature"],
        "attached_to": attached_to,
    }
    return table(**{**fields, **extra})


def test_420_5d_an_aura_on_a_creature_that_died_goes_in_the_next_round():
    """The cascade of 420.3: 420.5c destroys the creature, then 420.5d sees the aura enchanting nothing."""
    resolution = resolve(creature("ours", 2, 2, damage=2) + aura("guide", "ours"))
    assert actions(resolution) == [
        [("420.5c", "destroy", ("ours",))],
        [("420.5d", "put_into_graveyard", ("guide",))],
    ]
    assert zone(resolution, "guide") is Zone.GRAVEYARD
    assert "n'est plus en jeu" in resolution.rounds[1].events[0].reason


def test_420_5d_an_aura_on_a_legal_creature_stays():
    resolution = resolve(creature("ours", 2, 2) + aura("guide", "ours"))
    assert resolution.rounds == ()


@pytest.mark.parametrize(
    ("setup", "see_also"),
    [
        (aura("a"), ()),  # enchants nothing
        (aura("a", "a"), ("212.4g",)),  # attached to itself
        (
            aura("a", "x", card_types=["enchantement", "créature"], power=1, toughness=1) + creature("x", 1, 1),
            ("212.4g",),
        ),  # an aura that is also a creature
        (LAND + aura("a", "foret"), ("212.4c",)),  # Enchanter : créature on a land
        (creature("x", 1, 1, abilities=["protection contre le noir"]) + aura("a", "x", colors=["noir"]), ("502.7c",)),
        (aura("a", "Bob"), ("212.4c",)),  # a player, but it enchants creatures
        (creature("x", 1, 1) + aura("a", "x", enchant=["créature-artefact"]), ("212.4c",)),
    ],
    ids=["nothing", "itself", "aura-creature", "land", "protection", "player", "all-designations"],
)
def test_420_5d_an_illegal_aura_is_put_into_the_graveyard(setup, see_also):
    resolution = resolve(setup)
    assert actions(resolution)[0] == [("420.5d", "put_into_graveyard", ("a",))]
    assert resolution.rounds[0].events[0].see_also == ("212.4f", *see_also)


def test_420_5d_legal_auras_enchant_what_their_designations_say():
    """212.4c: "Enchanter : créature-artefact" needs both; "Enchanter : joueur" a player."""
    resolution = resolve(
        """
[[permanent]]
id = "golem"
name = "Golem"
controller = "Alice"
card_types = ["artefact", "créature"]
power = 3
toughness = 3
"""
        + aura("a", "golem", enchant=["créature-artefact"])
        + aura("b", "Bob", enchant=["joueur"])
        + aura("c", "golem", enchant=["permanent"])
    )
    assert resolution.rounds == ()


# -- 420.5e: the legend rule ---------------------------------------------------


def legend(id_: str, name: str, timestamp: int, controller: str = "Alice", **extra) -> str:
    fields = {
        "id": id_,
        "name": name,
        "controller": controller,
        "card_types": ["créature"],
        "supertypes": ["légendaire"],
        "power": 3,
        "toughness": 3,
        "timestamp": timestamp,
    }
    return table(**{**fields, **extra})


def test_420_5e_the_oldest_legend_stays_whoever_controls_them():
    resolution = resolve(legend("b", "Dralnu", 5, "Bob") + legend("a", "Dralnu", 2) + legend("c", "Dralnu", 9))
    assert actions(resolution) == [[("420.5e", "put_into_graveyard", ("b", "c"))]]
    assert zone(resolution, "a") is Zone.BATTLEFIELD


def test_420_5e_a_tie_puts_every_legend_with_that_name_into_the_graveyard():
    resolution = resolve(legend("a", "Dralnu", 3) + legend("b", "Dralnu", 3, "Bob"))
    assert actions(resolution) == [[("420.5e", "put_into_graveyard", ("a", "b"))]]


def test_420_5e_a_tie_behind_an_older_legend_does_not_matter():
    resolution = resolve(legend("a", "Dralnu", 1) + legend("b", "Dralnu", 3) + legend("c", "Dralnu", 3))
    assert actions(resolution) == [[("420.5e", "put_into_graveyard", ("b", "c"))]]


def test_420_5e_the_subtype_legend_counts_and_one_legend_with_a_plain_namesake_does_not():
    """ "Si deux permanents ont le même nom mais qu'un seul d'entre eux est une
    légende ou est légendaire, cette règle ne s'applique pas." (420.5e)"""
    resolution = resolve(
        legend("a", "Hélioptère", 1, supertypes=[], subtypes=["légende"])
        + legend("b", "Hélioptère", 2, supertypes=[], subtypes=["legend"])
        + legend("c", "Ours", 1)
        + legend("d", "Ours", 2, supertypes=[])
    )
    assert actions(resolution) == [[("420.5e", "put_into_graveyard", ("b",))]]


def test_420_5e_and_420_5c_on_the_same_legend_move_it_once():
    """All events of a check happen at once (420.3): one creature, one trip to the graveyard."""
    resolution = resolve(legend("a", "Dralnu", 1) + legend("b", "Dralnu", 2, damage=3))
    assert actions(resolution) == [[("420.5c", "destroy", ("b",)), ("420.5e", "put_into_graveyard", ("b",))]]
    assert zone(resolution, "b") is Zone.GRAVEYARD
    assert len(resolution.rounds) == 1


# -- 420.5f, 420.5j: tokens and copies -------------------------------------------


def test_420_5f_a_token_out_of_play_ceases_to_exist():
    resolution = resolve(creature("soldat", 1, 1, token=True, zone="main"))
    assert actions(resolution) == [[("420.5f", "cease_to_exist", ("soldat",))]]
    final = resolution.final.object("soldat")
    assert not final.exists and final.zone is None


def test_420_5f_a_destroyed_token_goes_to_the_graveyard_then_ceases_to_exist():
    resolution = resolve(creature("saproling", 1, 1, token=True, damage=1))
    assert actions(resolution) == [
        [("420.5c", "destroy", ("saproling",))],
        [("420.5f", "cease_to_exist", ("saproling",))],
    ]


def test_420_5j_copies_of_spells_off_the_stack_and_of_cards_off_the_stack_and_play_cease_to_exist():
    resolution = resolve("""
[[spell]]
id = "sur-la-pile"
name = "Éclair"
controller = "Alice"
card_types = ["éphémère"]
copy = true

[[spell]]
id = "en-main"
name = "Éclair"
controller = "Alice"
copy = true
zone = "main"

[[permanent]]
id = "carte-en-jeu"
name = "Sosie"
controller = "Alice"
card_types = ["artefact"]
copy_of_card = true

[[permanent]]
id = "carte-au-cimetiere"
name = "Sosie"
controller = "Alice"
card_types = ["artefact"]
copy_of_card = true
zone = "cimetière"
""")
    assert actions(resolution) == [
        [("420.5j", "cease_to_exist", ("carte-au-cimetiere",)), ("420.5j", "cease_to_exist", ("en-main",))]
    ]


# -- 420.5i: world enchantments --------------------------------------------------


def world(id_: str, timestamp: int) -> str:
    return table(
        id=id_, name=id_, controller="Alice", card_types=["enchantement"], supertypes=["monde"], timestamp=timestamp
    )


def test_420_5i_the_newest_world_enchantment_stays():
    resolution = resolve(world("old", 1) + world("new", 4) + world("mid", 2))
    assert actions(resolution) == [[("420.5i", "put_into_graveyard", ("old", "mid"))]]


def test_420_5i_a_tie_for_newest_sends_all_of_them():
    resolution = resolve(world("a", 4) + world("b", 4))
    assert actions(resolution) == [[("420.5i", "put_into_graveyard", ("a", "b"))]]


# -- 420.5k: equipment -------------------------------------------------------------


def equipment(id_: str, attached_to: str, **extra) -> str:
    fields = {
        "id": id_,
        "name": id_,
        "controller": "Alice",
        "card_types": ["artefact"],
        "subtypes": ["équipement"],
        "attached_to": attached_to,
    }
    return table(**{**fields, **extra})


def test_420_5k_equipment_on_a_creature_that_died_becomes_unattached_and_stays_in_play():
    resolution = resolve(creature("soldat", 2, 1, damage=1) + equipment("epee", "soldat"))
    assert actions(resolution) == [[("420.5c", "destroy", ("soldat",))], [("420.5k", "unattach", ("epee",))]]
    final = resolution.final.object("epee")
    assert final.zone is Zone.BATTLEFIELD and final.attached_to == ""


@pytest.mark.parametrize(
    ("setup", "see_also"),
    [
        (LAND + equipment("e", "foret"), ("212.2g",)),
        (
            creature("x", 1, 1) + equipment("e", "x", card_types=["artefact", "créature"], power=1, toughness=1),
            ("212.2i",),
        ),
        (equipment("e", "e"), ("212.2i",)),
        (creature("x", 1, 1) + equipment("e", "x", subtypes=[]), ("212.2i",)),
        (creature("x", 1, 1, abilities=["protection from artifacts"]) + equipment("e", "x"), ("502.7d",)),
        (equipment("e", "Bob"), ("212.2g",)),
    ],
    ids=["land", "equipment-creature", "itself", "lost-subtype", "protection", "player"],
)
def test_420_5k_illegal_equipment_becomes_unattached(setup, see_also):
    resolution = resolve(setup)
    assert actions(resolution) == [[("420.5k", "unattach", ("e",))]]
    assert resolution.rounds[0].events[0].see_also == see_also


def test_420_5k_equipment_on_a_creature_stays_attached():
    resolution = resolve(creature("x", 1, 1) + equipment("e", "x"))
    assert resolution.rounds == ()


# -- 420.5n (2006 FAQ): +1/+1 and -1/-1 counters ------------------------------------


def test_420_5n_removes_pairs_of_plus_and_minus_counters_in_the_2006_faq_edition():
    resolution = resolve(creature("bulot", 1, 1, counters={"+1/+1": 3, "-1/-1": 1}), "2006-faq")
    assert actions(resolution) == [[("420.5n", "remove_counters", ("bulot",))]]
    assert resolution.rounds[0].events[0].counters == (("+1/+1", 1), ("-1/-1", 1))
    assert resolution.final.object("bulot").counters == {"+1/+1": 2}


def test_420_5n_does_not_exist_in_2004():
    resolution = resolve(creature("bulot", 1, 1, counters={"+1/+1": 3, "-1/-1": 1}), "2004")
    assert resolution.rounds == ()
    assert StateBasedAction.COUNTERS_CANCEL not in EDITIONS["2004"].state_based_actions


def test_420_5n_the_faq_example_other_counters_stay():
    """The FAQ: "Si un permanent a un marqueur +1/+0, un marqueur +0/+1 et un
    marqueur -1/-1 sur lui, tous restent sur ce permanent." """
    resolution = resolve(creature("vipere", 2, 1, counters={"+1/+0": 1, "+0/+1": 1, "-1/-1": 1}), "2006-faq")
    assert resolution.rounds == ()
    assert resolution.final.object("vipere").counters == {"+1/+0": 1, "+0/+1": 1, "-1/-1": 1}


def test_420_5n_counters_cancelling_and_the_toughness_check_happen_together():
    """A 1/1 with one +1/+1 and two -1/-1 counters is 0/0: in the same check
    420.5b and 420.5n both apply (420.3), and the creature is gone."""
    resolution = resolve(creature("a", 1, 1, counters={"+1/+1": 1, "-1/-1": 2}), "2006-faq")
    assert actions(resolution) == [[("420.5b", "put_into_graveyard", ("a",)), ("420.5n", "remove_counters", ("a",))]]
    assert zone(resolution, "a") is Zone.GRAVEYARD and len(resolution.rounds) == 1


def test_420_5n_then_lethal_damage_uses_the_same_toughness():
    """Removing pairs never changes toughness: a 2/2 with +1/+1, -1/-1 and 2 damage dies in round 1."""
    resolution = resolve(creature("a", 2, 2, damage=2, counters={"+1/+1": 1, "-1/-1": 1}), "2006-faq")
    assert actions(resolution) == [[("420.5c", "destroy", ("a",)), ("420.5n", "remove_counters", ("a",))]]


# -- the registry, the editions and the corpus -----------------------------------------


def test_every_state_based_action_has_one_function_citing_its_rule():
    assert set(REGISTRY) == set(StateBasedAction)
    for action, function in REGISTRY.items():
        rule = EDITIONS["2006-faq"].state_based_actions[action]
        assert re.search(rf"Implements\s+{re.escape(rule)}\b", inspect.getdoc(function)), function.__name__


def test_every_rule_the_checker_cites_is_in_the_corpus(kb):
    from rules_kb.checker.report import rule_text

    for edition in EDITIONS.values():
        numbers = [*edition.state_based_actions.values(), edition.draw_rule]
        for number in numbers:
            found = rule_text(kb, number, edition)
            assert found is not None and found.text, (edition.id, number)
    assert rule_text(kb, "420.5n", EDITIONS["2006-faq"]).source.document == "faq-tsp-2006"
    assert rule_text(kb, "420.5c", EDITIONS["2006-faq"]).source.document == "cr-2004"


def test_the_report_quotes_the_rules_from_the_corpus(kb):
    report = check_scenario(kb, parse_scenario(PLAYERS + creature("ours", 2, 2, damage=2)))
    assert report.texts["420.5c"].text.startswith("Une créature avec des blessures fatales")
    assert report.texts["420.5c"].source.document == "cr-2004"


def test_a_draw_cites_102_4(kb):
    report = check_scenario(
        kb, parse_scenario(PLAYERS.replace('"Alice"', '"Alice"\nlife = 0').replace('"Bob"', '"Bob"\nlife = -1'))
    )
    assert "102.4" in report.texts
    assert "perdent en même temps" in report.texts["102.4"].text


def test_the_edition_option_overrides_the_scenario(kb):
    scenario = parse_scenario('edition = "2004"\n' + PLAYERS + creature("a", 1, 1, counters={"+1/+1": 1, "-1/-1": 1}))
    assert check_scenario(kb, scenario).resolution.rounds == ()
    assert check_scenario(kb, scenario, "2006-faq").resolution.events[0].rule == "420.5n"


def test_the_default_edition_is_the_newest_complete_one(kb):
    report = check_scenario(kb, parse_scenario(PLAYERS))
    assert report.edition.id == kb.default_edition == "2004"


def test_describe_says_what_happened_in_french():
    state = parse_scenario(PLAYERS + creature("ours", 2, 2, damage=2)).state
    event = run(state).rounds[0].events[0]
    assert describe(event, state) == "Ours (ours) : détruit — 2 blessures, endurance 2 : blessures fatales (420.5c)"


# -- bundled examples ----------------------------------------------------------------


def test_every_bundled_example_runs_and_does_something(kb):
    found = examples()
    assert len(found) >= 12
    for example in found:
        report = check_scenario(kb, parse_scenario(example.text, example.name))
        layered = any(report.layering.changed(obj.id) for obj in report.scenario.state.permanents)
        assert report.resolution.events or layered, example.name
        assert example.title and example.text.startswith("#"), example.name  # commented, in French


def test_the_bundled_examples_cover_every_state_based_action(kb):
    covered = set()
    for example in examples():
        report = check_scenario(kb, parse_scenario(example.text, example.name))
        covered |= {event.effect for event in report.resolution.events}
        if report.resolution.outcome.draw:
            covered.add("draw")
    assert covered == set(StateBasedAction) | {"draw"}


def test_the_acceptance_example_2_2_destroyed_then_its_aura(kb):
    from rules_kb.checker.report import example

    report = check_scenario(kb, parse_scenario(example("blessures-fatales").text))
    assert actions(report.resolution) == [
        [("420.5c", "destroy", ("ours",))],
        [("420.5d", "put_into_graveyard", ("guide",))],
    ]
    assert Action.DESTROY.regeneration and not Action.PUT_INTO_GRAVEYARD.regeneration


# -- issue 21: "since when", not the timestamp (420.5e, 420.5i, 502.15k) ------------------


def test_502_15k_two_legends_phasing_in_together_both_go():
    """502.15k: permanents phasing in together keep their old timestamps, but "si deux
    légendes avec le même nom passent en phase ensemble, toutes deux sont mises dans les
    cimetières" — they have been legends in play since the same moment (since)."""
    resolution = resolve(legend("a", "Dralnu", 1, since=5) + legend("b", "Dralnu", 3, "Bob", since=5))
    assert actions(resolution) == [[("420.5e", "put_into_graveyard", ("a", "b"))]]
    assert "(5)" in resolution.rounds[0].events[0].reason


def test_502_15k_the_bundled_example_gives_the_printed_outcome(kb):
    from rules_kb.checker.report import example

    report = check_scenario(kb, parse_scenario(example("legendes-en-phase").text))
    assert actions(report.resolution) == [[("420.5e", "put_into_graveyard", ("dralnu-alice", "dralnu-bob"))]]


def test_420_5e_since_defaults_to_the_timestamp_and_overrides_it_when_given():
    """420.5e compares how long each has been a legend: a legend that phased in at 6
    (timestamp 1 kept, 418.5e) goes before one in play since 4."""
    resolution = resolve(legend("a", "Dralnu", 1, since=6) + legend("b", "Dralnu", 4, "Bob"))
    assert actions(resolution) == [[("420.5e", "put_into_graveyard", ("a",))]]
    assert "en jeu comme tel depuis le moment 4" not in resolution.rounds[0].events[0].reason
    assert "tampon horaire 4" in resolution.rounds[0].events[0].reason


def test_420_5e_a_dimir_doppelganger_that_copies_a_legend_later_is_the_newer_legend():
    """Sosie dimir (in play since 1) becomes a copy of an exiled Dralnu by an effect with
    timestamp 5: it has been a legend named Dralnu since 5 (the copy effect's own timestamp,
    418.5g), so it goes and the Dralnu in play since 3 stays (420.5e)."""
    text = table(
        id="dralnu-exil",
        name="Dralnu",
        controller="Alice",
        card_types=["créature"],
        supertypes=["légendaire"],
        power=3,
        toughness=3,
        zone="retiré de la partie",
    )
    text += creature("sosie", 0, 2, name="Sosie dimir", timestamp=1)
    text += legend("dralnu", "Dralnu", 3, "Bob")
    text += table(
        "effect",
        id="copie",
        text="Le Sosie dimir devient une copie de cette carte.",
        timestamp=5,
        affects=["sosie"],
        copy_of="dralnu-exil",
    )
    resolution = resolve(text)
    assert actions(resolution) == [[("420.5e", "put_into_graveyard", ("sosie",))]]
    assert zone(resolution, "dralnu") is Zone.BATTLEFIELD


def test_420_5i_the_world_enchantment_in_play_for_the_shortest_time_stays_by_since():
    """420.5i: "sauf celui qui a été un enchantement du monde depuis le moins de temps" —
    one that phased in at 6 (timestamp 1 kept) is newer than one with timestamp 4."""
    resolution = resolve(world("a", 1).replace("timestamp = 1", "timestamp = 1\nsince = 6") + world("b", 4))
    assert actions(resolution) == [[("420.5i", "put_into_graveyard", ("b",))]]


def test_since_must_be_an_integer():
    from rules_kb.checker.scenario import ScenarioError

    with pytest.raises(ScenarioError, match="since") as caught:
        parse_scenario(PLAYERS + legend("a", "Dralnu", 1, since="hier"))
    assert "entier" in str(caught.value)


def test_217_8d_the_bundled_example_a_phased_out_token_ceases_to_exist_its_aura_stays(kb):
    """217.8d: tokens in the phased-out zone cease to exist (420.5f); an aura enchanting a
    token that phased out stays in the phased-out zone."""
    from rules_kb.checker.report import example

    report = check_scenario(kb, parse_scenario(example("jetons-hors-phase").text))
    assert actions(report.resolution) == [[("420.5f", "cease_to_exist", ("saproling",))]]
    assert zone(report.resolution, "peur") is Zone.PHASED_OUT


def test_420_5e_a_permanent_made_legendary_later_is_the_newer_legend():
    """420.5e: "celui qui a été une légende ou un permanent légendaire avec ce nom depuis le
    plus de temps" — b, in play since 1, becomes legendary by an effect with timestamp 5:
    it goes, a (a legend since 3) stays."""
    text = legend("a", "Dralnu", 3) + legend("b", "Dralnu", 1, "Bob", supertypes=[])
    text += table("effect", id="sacre", timestamp=5, affects=["b"], add_supertypes=["légendaire"])
    resolution = resolve(text)
    assert actions(resolution) == [[("420.5e", "put_into_graveyard", ("b",))]]


# -- issue 36: subtypes follow their type, 420.5g since the last check, what rule changes stop --


def test_215_2_a_legend_made_an_enchantment_no_longer_meets_the_legend_rule():
    """215.2 (2004): « Légende » is a creature type, and a creature that becomes a
    non-creature permanent loses it (212.1b). Two « Ours : légende et ours » of one name
    meet the legend rule (420.5e); once one is an enchantment (timestamp 5, « La créature
    ciblée devient un enchantement »), neither goes."""
    bears = "".join(
        creature(id_, 2, 2, name="Ours des cavernes", subtypes=["légende", "ours"], timestamp=stamp)
        for id_, stamp in (("ours1", 1), ("ours2", 2))
    )
    assert actions(resolve(bears)) == [[("420.5e", "put_into_graveyard", ("ours2",))]]
    made_enchantment = table("effect", id="sculpteur", timestamp=5, affects=["ours2"], set_card_types=["enchantement"])
    resolution = resolve(bears + made_enchantment)
    assert resolution.rounds == () and resolution.stopped == ()
    assert resolution.initial_layering.final["ours2"].subtypes == ()


def angel(**extra) -> str:
    """Platinum Angel (« Ange de platine »), with its ability as the checker reads it (103.1)."""
    fields = {
        "id": "ange",
        "name": "Ange de platine",
        "controller": "Alice",
        "card_types": ["artefact", "créature"],
        "power": 4,
        "toughness": 4,
        "abilities": ["Vous ne pouvez pas perdre la partie."],
    }
    return table(**{**fields, **extra})


def test_420_5g_a_draw_from_an_empty_library_counts_at_the_next_check_only():
    """420.5g (2004): a player loses who « depuis la dernière fois où les effets basés sur un
    état ont été vérifiés, aurait dû piocher plus de cartes que sa bibliothèque n'en
    contenait ». Alice drew from an empty library while her Platinum Angel (« Vous ne pouvez
    pas perdre la partie » — its ruling of 2009-10-01: it does not matter that « you're forced
    to draw a card while your library is empty ») holds; in the same check the Angel, with
    lethal damage, is destroyed (420.5c). At the next check the draw is behind her: she does
    not lose."""
    text = PLAYERS.replace('"Alice"', '"Alice"\ndrew_from_empty_library = true') + angel(damage=4)
    resolution = resolve(text)
    assert actions(resolution) == [[("420.5c", "destroy", ("ange",))]]
    assert [(number, item.event.rule, item.event.players) for number, item in resolution.stopped] == [
        (1, "420.5g", ("Alice",))
    ]
    assert resolution.outcome.losers == () and not resolution.final.player("Alice").lost
    assert not resolution.rounds[0].state.player("Alice").drew_from_empty_library


def test_420_5a_life_at_zero_is_a_state_it_loses_at_the_next_check_unlike_a_past_draw():
    """420.5a (2004) looks at a state, 420.5g at draws since the last check: with 0 life and
    a draw from an empty library under the Platinum Angel, once the Angel is destroyed Alice
    loses by 420.5a only."""
    text = PLAYERS.replace('"Alice"', '"Alice"\nlife = 0\ndrew_from_empty_library = true') + angel(damage=4)
    resolution = resolve(text)
    assert actions(resolution) == [[("420.5c", "destroy", ("ange",))], [("420.5a", "lose", ("Alice",))]]
    assert resolution.final.player("Alice").lost_by == ("420.5a",)
    assert [(number, item.event.rule) for number, item in resolution.stopped] == [(1, "420.5a"), (1, "420.5g")]


def test_103_1_the_platinum_angel_stops_the_loss_at_zero_life_and_says_so():
    """103.1 (2004): « A chaque fois que le texte d'une carte contredit ces règles, c'est la
    carte qui prend le dessus. » Alice at 0 life controls the Platinum Angel (its ruling of
    2009-10-01: « It doesn't matter whether you have 0 or less life »): nothing happens, and
    the check keeps the loss it stopped, with 103.1 and 420.5a."""
    resolution = resolve(PLAYERS.replace('"Alice"', '"Alice"\nlife = 0') + angel())
    assert resolution.rounds == () and resolution.outcome.losers == ()
    (stopped,) = resolution.last_stopped
    assert (stopped.event.rule, stopped.event.action, stopped.event.players) == ("420.5a", Action.LOSE, ("Alice",))
    assert stopped.ability == "vous ne pouvez pas perdre la partie" and stopped.sources == ("ange",)
    assert stopped.rules == ("103.1", "420.5a", "102.1")
    assert resolution.stopped == ((1, stopped),)


def test_103_1_an_angel_protects_its_controller_only_and_says_whom():
    """Platinum Angel says « vous »: its controller (Bob) does not lose at 0 life; Alice
    does (420.5a). The stopped event names Bob only."""
    text = PLAYERS.replace('"Alice"', '"Alice"\nlife = 0').replace('"Bob"', '"Bob"\nlife = -1')
    resolution = resolve(text + angel().replace('controller = "Alice"', 'controller = "Bob"'))
    assert actions(resolution) == [[("420.5a", "lose", ("Alice",))]]
    assert [(n, s.event.players, s.sources) for n, s in resolution.stopped] == [(1, ("Bob",), ("ange",))]


def test_103_1_mirror_gallery_stops_the_legend_rule_and_says_so():
    """*Galerie des miroirs* (Mirror Gallery): « La règle des légendes ne s'applique pas. »
    The card wins over 420.5e (103.1): both Dralnu stay, and the check keeps the event it
    stopped (d2, the newer, would have gone), cited with 103.1, 420.5e and 215.1."""
    text = legend("d1", "Dralnu, seigneur liche", 1) + legend("d2", "Dralnu, seigneur liche", 4, "Bob")
    text += table(
        id="galerie",
        name="Galerie des miroirs",
        controller="Bob",
        card_types=["artefact"],
        abilities=["La règle des légendes ne s'applique pas."],
    )
    resolution = resolve(text)
    assert resolution.rounds == ()
    (stopped,) = resolution.last_stopped
    assert stopped.event.objects == ("d2",) and stopped.event.action is Action.PUT_INTO_GRAVEYARD
    assert stopped.ability == "la règle des légendes ne s'applique pas" and stopped.sources == ("galerie",)
    assert stopped.rules == ("103.1", "420.5e", "215.1")


def test_103_1_the_rules_stopped_are_quoted_from_the_corpus(kb):
    report = check_scenario(kb, parse_scenario(PLAYERS.replace('"Alice"', '"Alice"\nlife = 0') + angel()))
    assert report.texts["103.1"].text.startswith("A chaque fois que le texte d'une carte contredit ces règles")
    assert {"420.5a", "102.1"} <= set(report.texts)


def test_the_bundled_example_of_rule_changing_cards(kb):
    """``regles-changees``: the Platinum Angel stops Alice's loss for her draw (420.5g) and
    is destroyed (420.5c); the draw is not counted again at check 2; the Mirror Gallery
    stops the legend rule at both checks (103.1)."""
    from rules_kb.checker.report import example

    report = check_scenario(kb, parse_scenario(example("regles-changees").text))
    resolution = report.resolution
    assert actions(resolution) == [[("420.5c", "destroy", ("ange",))]]
    assert resolution.outcome.losers == ()
    assert [(n, s.event.rule) for n, s in resolution.stopped] == [(1, "420.5e"), (1, "420.5g"), (2, "420.5e")]
    assert {"103.1", "420.5e", "420.5g"} <= set(report.texts)


def test_the_bundled_example_of_subtypes_following_their_type(kb):
    """``couches-sous-types``: the bear made an enchantment is no legend (215.2), so the
    legend rule does not apply; without that effect it does (420.5e); the animated forest
    made an elf stays a forest (212.1b)."""
    from rules_kb.checker.report import example

    text = example("couches-sous-types").text
    report = check_scenario(kb, parse_scenario(text))
    assert report.resolution.rounds == ()
    seen = report.layering.final
    assert seen["foret"].subtypes == ("forêt", "elfe") and seen["ours-2"].subtypes == ()
    without = text[: text.rindex("[[effect]]")]
    assert actions(check_scenario(kb, parse_scenario(without)).resolution) == [
        [("420.5e", "put_into_graveyard", ("ours-2",))]
    ]
